#!/usr/bin/env python3
"""Benchmark ``jetjson.parse`` (lazy views) on a partial read: the (id, screen_name)
pair of each status of twitter.json, ``doc["statuses"][i]["id"]`` and
``doc["statuses"][i]["user"]["screen_name"]``.

Usage:
    python3 bench/bench_parse.py [--rounds 40] [--data DIR] [--file twitter.json] [--isa avx2]

Contenders (those installed): jetjson.parse, jetjson.loads, orjson.loads (the 5x
reference), pysimdjson (``simdjson.Parser().parse``, one parser reused), fastsimdjson.parse,
each followed by the same extraction. Every contender's pairs are checked against
json.loads first. Timing follows bench/_timing.py: one process, contenders alternate in
rotating order, a fresh input copy per call, the result freed inside the timed region;
best and median per-call times are reported with the spread of the rounds.

``--isa avx2`` runs jetjson and the simdjson-based peers on their AVX2 kernels (as on a
machine without AVX-512); without it each library picks its widest kernel.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as T  # noqa: E402


def extract_indexed(doc):
    statuses = doc["statuses"]
    return [(statuses[i]["id"], statuses[i]["user"]["screen_name"]) for i in range(len(statuses))]


def extract_by_path(doc):
    """The spelling of the issue: doc["statuses"][i]... from the root every time."""
    return [(doc["statuses"][i]["id"], doc["statuses"][i]["user"]["screen_name"])
            for i in range(len(doc["statuses"]))]


def contenders():
    out = []
    import jetjson
    out.append(("jetjson.parse", lambda b: extract_by_path(jetjson.parse(b))))
    out.append(("jetjson.loads", lambda b: extract_by_path(jetjson.loads(b))))
    try:
        import orjson
        out.append(("orjson.loads", lambda b: extract_by_path(orjson.loads(b))))
    except ImportError:
        print("orjson not installed", file=sys.stderr)
    try:
        import simdjson
        parser = simdjson.Parser()
        # pysimdjson's documents die with the next parse on the same parser: extract first
        out.append(("pysimdjson", lambda b: extract_by_path(parser.parse(b))))
    except ImportError:
        print("pysimdjson not installed", file=sys.stderr)
    try:
        import fastsimdjson
        out.append(("fastsimdjson.parse", lambda b: extract_by_path(fastsimdjson.parse(b))))
    except ImportError:
        print("fastsimdjson not installed", file=sys.stderr)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(T.data_dir()),
                    help="data folder holding corpus/ (default: $JETJSON_DATA or <repo>/data)")
    ap.add_argument("--file", default="twitter.json")
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--target-ms", type=float, default=2.0)
    ap.add_argument("--isa", choices=sorted(T.SIMDJSON_KERNELS), default=None,
                    help="run jetjson and the simdjson-based peers on this ISA's kernels")
    args = ap.parse_args(argv)
    if args.isa:
        T.force_isa(args.isa)
    raw = (Path(args.data) / "corpus" / args.file).read_bytes()
    expected = extract_by_path(json.loads(raw))
    cands = contenders()
    for name, fn in cands:
        got = fn(raw)
        if got != expected or [type(x) for p in got for x in p] != [type(x) for p in expected for x in p]:
            print(f"{name}: wrong result", file=sys.stderr)
            return 1
    overhead = T.timer_overhead_ns()
    with T.gc_prepared() as reset:
        samples = T.alternate([T.Contender(n, f) for n, f in cands], lambda: bytes(bytearray(raw)),
                              rounds=args.rounds, target_ns=args.target_ms * 1e6,
                              overhead_ns=overhead, reset=reset)
    subject = samples["jetjson.parse"]
    print(f"{args.file}: {len(expected)} (id, screen_name) pairs, {args.rounds} rounds; "
          f"kernels: {T.active_kernels()}")
    print(f"{'contender':22} {'best us':>9} {'median us':>10} {'spread':>7} {'parse is x faster':>18}")
    for name, s in samples.items():
        spread = (s.median_ns - s.best_ns) / s.best_ns * 100
        print(f"{name:22} {s.best_ns / 1e3:9.1f} {s.median_ns / 1e3:10.1f} {spread:6.1f}% "
              f"{s.best_ns / subject.best_ns:8.2f} (median {s.median_ns / subject.median_ns:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
