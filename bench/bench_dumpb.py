#!/usr/bin/env python3
"""Benchmark jetjson.dumpb against orjson.dumps and the other encoders.

Every corpus file is read with json.loads once; each timed call gets a fresh deep copy
of that object (a pickle round trip made just before the call, outside the timed span),
so no encoder profits from something another one cached on the objects. Results are
checked against orjson.dumps first (byte for byte for jetjson, as JSON values for the
others). Timing is _timing.alternate: one process, alternating order, per-call means
per round, best and median over the rounds.

    PYTHONPATH=... python3 bench/bench_dumpb.py [--files canada,twitter] [--rounds 15]
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as T  # noqa: E402


def contenders():
    """(name, encode function, bytes-exact vs orjson) for what is importable."""
    out = []
    import jetjson
    import orjson
    out.append(("jetjson", jetjson.dumpb, True))
    out.append(("orjson", orjson.dumps, True))
    try:
        import msgspec.json
        out.append(("msgspec", msgspec.json.encode, False))
    except ImportError:
        pass
    try:
        import ujson
        out.append(("ujson", lambda o: ujson.dumps(o, ensure_ascii=False), False))
    except ImportError:
        pass
    try:
        import ssrjson
        fn = getattr(ssrjson, "dumps_to_bytes", None) or ssrjson.dumps
        out.append(("ssrjson", fn, False))
    except ImportError:
        pass
    try:
        import fastsimdjson
        fn = getattr(fastsimdjson, "dumps", None)
        if fn is not None:
            out.append(("fastsimdjson", fn, False))
    except ImportError:
        pass
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    T.corpus_arguments(ap, rounds=15)
    args = ap.parse_args(argv)

    files = T.corpus_files(args)
    peers = contenders()
    print("contenders:", ", ".join(n for n, _, _ in peers), file=sys.stderr)
    overhead = T.timer_overhead_ns()
    rows, ratios = [], {n: [] for n, _, _ in peers if n != "jetjson"}
    worst = (None, 9.9)
    for path in files:
        obj = json.loads(path.read_bytes())
        frozen = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
        expected = peers[1][1](obj)
        cs = []
        for name, fn, exact in peers:
            try:
                got = fn(pickle.loads(frozen))
            except Exception as e:  # noqa: BLE001 - a peer that cannot encode the file
                print(f"{path.name}: {name} failed: {e!r:.80}", file=sys.stderr)
                continue
            ok = got == expected if exact else json.loads(got) == json.loads(expected)
            if not ok:
                if name == "jetjson":
                    raise SystemExit(f"{path.name}: jetjson.dumpb differs from orjson.dumps")
                print(f"{path.name}: {name} result differs, skipped", file=sys.stderr)
                continue
            cs.append(T.Contender(name, fn))
        with T.gc_prepared() as reset:
            samples = T.alternate(cs, lambda: pickle.loads(frozen), rounds=args.rounds,
                                  target_ns=args.target_ms * 1e6, overhead_ns=overhead, reset=reset)
        size = len(expected)
        jj = samples["jetjson"]
        row = [path.name, f"{size / jj.best_ns:.3f}"]
        for name in ratios:
            s = samples.get(name)
            r = s.best_ns / jj.best_ns if s else None
            if r is not None:
                ratios[name].append(r)
            row.append(T.fmt_ratio(r))
            if name == "orjson" and r is not None and r < worst[1]:
                worst = (path.name, r)
        med = samples["orjson"].median_ns / jj.median_ns
        row.append(T.fmt_ratio(med))
        rows.append(row)
        print(T.render_table(["file", "jetjson GB/s"] + [f"vs {n}" for n in ratios] + ["vs orjson (median)"],
                             [row]).splitlines()[-1], file=sys.stderr)
    headers = ["file", "jetjson GB/s"] + [f"vs {n}" for n in ratios] + ["vs orjson (median)"]
    rows.append(["geomean", ""] + [T.fmt_ratio(T.geomean(v)) for v in ratios.values()] + [""])
    print(T.render_table(headers, rows))
    print(f"ratios are peer time / jetjson time (best of {args.rounds} rounds); "
          f"lowest vs orjson: {worst[0]} {worst[1]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
