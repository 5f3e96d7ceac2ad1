#!/usr/bin/env python3
"""Benchmark jetjson.dumpb against orjson.dumps on datetime, UUID and numpy values.

Cases: numpy arrays (1M float64, 1M float32, 100x100 and 1000x1000 int64, 1M bool,
100k datetime64[us]) under OPT_SERIALIZE_NUMPY, and lists of 10k datetimes (naive, UTC,
fixed offsets, zoneinfo), 10k dates and 10k UUIDs. Both encoders get the same object
(neither caches anything on these objects). Results are checked byte for byte first.
Timing is
_timing.alternate: one process, alternating order, best and median over the rounds.

    PYTHONPATH=... python3 bench/bench_dumpb_native.py [--rounds 11] [--cases float64,uuid]
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import uuid
import zoneinfo
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as T  # noqa: E402


def cases():
    import numpy as np
    import orjson

    rng = np.random.default_rng(7)
    N = orjson.OPT_SERIALIZE_NUMPY
    zone = zoneinfo.ZoneInfo("Europe/Paris")
    offsets = [None, dt.timezone.utc, dt.timezone(dt.timedelta(hours=-5)), zone]
    stamps = rng.integers(0, 4_000_000_000, size=10_000)
    datetimes = [dt.datetime.fromtimestamp(int(s), dt.timezone.utc).replace(
        microsecond=int(s) % 1_000_000, tzinfo=offsets[i % 4]) for i, s in enumerate(stamps)]
    return [
        ("numpy float64 1M", rng.standard_normal(1_000_000), N),
        ("numpy float32 1M", rng.standard_normal(1_000_000).astype(np.float32), N),
        ("numpy int64 100x100", rng.integers(-2**40, 2**40, size=(100, 100)), N),
        ("numpy int64 1000x1000", rng.integers(-2**40, 2**40, size=(1000, 1000)), N),
        ("numpy int32 1M", rng.integers(-2**31, 2**31, size=1_000_000, dtype=np.int32), N),
        ("numpy bool 1M", rng.integers(0, 2, size=1_000_000).astype(bool), N),
        ("numpy datetime64[us] 100k",
         rng.integers(0, 2**52, size=100_000).astype("datetime64[us]"), N),
        ("numpy float64 100x100 indent", rng.standard_normal((100, 100)), N | orjson.OPT_INDENT_2),
        ("10k datetimes", datetimes, 0),
        ("10k datetimes naive UTC_Z", [d.replace(tzinfo=None) for d in datetimes],
         orjson.OPT_NAIVE_UTC | orjson.OPT_UTC_Z),
        ("10k dates", [d.date() for d in datetimes], 0),
        ("10k UUIDs", [uuid.UUID(int=int(x) * (2**64 + 12345))
                       for x in rng.integers(0, 2**63, size=10_000)], 0),
    ]


def main(argv=None) -> int:
    import jetjson
    import orjson

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--target-ms", type=float, default=5.0)
    ap.add_argument("--cases", default=None, help="comma-separated name fragments")
    args = ap.parse_args(argv)
    overhead = T.timer_overhead_ns()
    rows, ratios = [], []
    for name, obj, option in cases():
        if args.cases and not any(k in name for k in args.cases.split(",")):
            continue
        want = orjson.dumps(obj, option=option)
        got = jetjson.dumpb(obj, option=option)
        if got != want:
            raise SystemExit(f"{name}: jetjson.dumpb differs from orjson.dumps")
        cs = [T.Contender("jetjson", lambda o, opt=option: jetjson.dumpb(o, option=opt)),
              T.Contender("orjson", lambda o, opt=option: orjson.dumps(o, option=opt))]
        with T.gc_prepared() as reset:
            samples = T.alternate(cs, lambda o=obj: o, rounds=args.rounds, target_ns=args.target_ms * 1e6,
                                  overhead_ns=overhead, reset=reset)
        jj, oj = samples["jetjson"], samples["orjson"]
        ratio = oj.best_ns / jj.best_ns
        ratios.append(ratio)
        spread = (jj.median_ns - jj.best_ns) / jj.best_ns
        rows.append([name, f"{len(want) / 1e6:.2f}", f"{jj.best_ns / 1e3:.1f}", f"{oj.best_ns / 1e3:.1f}",
                     T.fmt_ratio(ratio), T.fmt_ratio(oj.median_ns / jj.median_ns), f"{spread:.0%}"])
        print(rows[-1], file=sys.stderr)
    rows.append(["geomean", "", "", "", T.fmt_ratio(T.geomean(ratios)), "", ""])
    print(T.render_table(["case", "MB out", "jetjson us", "orjson us", "vs orjson (best)",
                          "vs orjson (median)", "jetjson median/best - 1"], rows))
    print(f"ratios are orjson time / jetjson time over {args.rounds} alternating rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
