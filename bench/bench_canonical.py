#!/usr/bin/env python3
"""Benchmark jetjson.canonical / canonical_bytes (RFC 8785) against the rfc8785 package.

Contenders on every corpus file:
  canonical        jetjson.canonical(obj), a fresh deep copy of the file's objects per call
  canonical_bytes  jetjson.canonical_bytes(text), a fresh copy of the file's bytes per call
  rfc8785          rfc8785.dumps(obj), the pure-Python reference (same fresh copies)
  dumpb_sorted     jetjson.dumpb(obj, option=OPT_SORT_KEYS), for scale: sorted keys, but
                   not JCS (code point order, Python's number text)
Results are checked first: both jetjson functions must give rfc8785's bytes exactly.
Files rfc8785 refuses (ints beyond 2**53 - 1: the twitter files' ids) are skipped. Timing
is _timing.alternate: one process, alternating order, best and median over the rounds.

    PYTHONPATH=... python3 bench/bench_canonical.py [--files canada,citm] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as T  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    T.corpus_arguments(ap, rounds=5)
    args = ap.parse_args(argv)

    import jetjson
    import rfc8785

    files = T.corpus_files(args)
    overhead = T.timer_overhead_ns()
    names = ["canonical", "canonical_bytes", "dumpb_sorted"]
    rows, ratios = [], {n: [] for n in names}
    for path in files:
        raw = path.read_bytes()
        obj = json.loads(raw)
        try:
            expected = rfc8785.dumps(obj)
        except ValueError as e:
            print(f"{path.name}: skipped, rfc8785 refuses it ({e!s:.60})", file=sys.stderr)
            continue
        if jetjson.canonical(obj) != expected:
            raise SystemExit(f"{path.name}: jetjson.canonical differs from rfc8785.dumps")
        if jetjson.canonical_bytes(raw) != expected:
            raise SystemExit(f"{path.name}: jetjson.canonical_bytes differs from rfc8785.dumps")
        frozen = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
        cs = [
            T.Contender("canonical", jetjson.canonical),
            T.Contender("canonical_bytes", jetjson.canonical_bytes, make_input=lambda: bytes(bytearray(raw))),
            T.Contender("rfc8785", rfc8785.dumps),
            T.Contender("dumpb_sorted", lambda o: jetjson.dumpb(o, option=jetjson.OPT_SORT_KEYS)),
        ]
        with T.gc_prepared() as reset:
            samples = T.alternate(cs, lambda: pickle.loads(frozen), rounds=args.rounds,
                                  target_ns=args.target_ms * 1e6, overhead_ns=overhead, reset=reset)
        ref = samples["rfc8785"]
        row = [path.name, f"{len(raw) / 1e3:.0f}", f"{ref.best_ns / 1e6:.2f}"]
        for name in names:
            s = samples[name]
            r = ref.best_ns / s.best_ns
            ratios[name].append(r)
            row.append(T.fmt_ratio(r))
        row.append(T.fmt_ratio(ref.median_ns / samples["canonical"].median_ns))
        rows.append(row)
        print(" ".join(str(x) for x in row), file=sys.stderr)
    headers = ["file", "KB", "rfc8785 ms", "canonical", "canonical_bytes", "dumpb_sorted", "canonical (median)"]
    rows.append(["geomean", "", ""] + [T.fmt_ratio(T.geomean(v)) for v in ratios.values()] + [""])
    print(T.render_table(headers, rows))
    print(f"speedups are rfc8785.dumps time / contender time (best of {args.rounds} rounds; the last column "
          "the medians); dumpb_sorted is not JCS, it is there for scale")
    return 0


if __name__ == "__main__":
    sys.exit(main())
