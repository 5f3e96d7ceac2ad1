#!/usr/bin/env python3
"""Every binary32 float (or every STEP-th bit pattern) through jetjson.dumpb against
orjson.dumps, as numpy.float32 arrays under OPT_SERIALIZE_NUMPY: checks
jj_format_float32_orjson (digits and spelling) and the null of NaN/inf.

    PYTHONPATH=<dev build> python3 tests/c/format_float32_oracle.py [--step 1] [--chunk 22]

Prints the first mismatches and a count; exits 1 on any. Both libraries print the
elements in bit-pattern order, so each chunk's outputs are split on commas and compared
element by element only when the whole texts differ."""
import argparse
import sys
import time

import numpy as np
import orjson

import jetjson


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--step", type=int, default=1, help="test every STEP-th bit pattern")
    ap.add_argument("--chunk", type=int, default=22, help="log2 of the patterns per call")
    args = ap.parse_args()
    opt = orjson.OPT_SERIALIZE_NUMPY
    size = 1 << args.chunk
    bad = 0
    done = 0
    t0 = time.time()
    for start in range(0, 1 << 32, size * args.step):
        bits = np.arange(start, min(start + size * args.step, 1 << 32), args.step, dtype=np.uint64)
        arr = bits.astype(np.uint32).view(np.float32)
        want = orjson.dumps(arr, option=opt)
        got = jetjson.dumpb(arr, option=opt)
        done += len(arr)
        if want != got:
            w, g = want[1:-1].split(b","), got[1:-1].split(b",")
            for b, x, y in zip(bits.tolist(), w, g):
                if x != y:
                    bad += 1
                    if bad <= 20:
                        print(f"{b:08x}: orjson {x!r} jetjson {y!r}")
    print(f"{done} floats, {bad} mismatches, {time.time() - t0:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
