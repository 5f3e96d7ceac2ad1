#!/usr/bin/env python3
"""Benchmark jetjson.dumpb_arrow (Arrow -> NDJSON bytes) against the peers, one thread.

Contenders, all starting from the same pyarrow.Table (made before timing):
  jetjson            jetjson.dumpb_arrow(table)
  jetjson(polars)    jetjson.dumpb_arrow(frame), frame = polars.from_arrow(table)
  polars             frame.write_ndjson() (POLARS_MAX_THREADS=1)
  duckdb             COPY t TO '/dev/shm/...' (FORMAT JSON) on a connection with threads=1,
                     t the registered table (the file on tmpfs, its read-back not timed)
  orjson             b"".join(orjson.dumps(row) + b"\\n" for row in table.to_pylist())
Data: a seeded table of 9 scalar fields (3 int64, 2 float64, 2 strings, a bool, a
timestamp[us, UTC]) and the GitHub events of data/corpus/github_events.json repeated,
read by pyarrow.json.read_json (nested structs and lists, timestamps inferred).
Every contender's output is checked first: the same records after json.loads, timestamps
compared as instants (each library spells them its own way). Timing is
_timing.alternate (one process, interleaved, best of N rounds); speeds in GB/s of
jetjson's output, and jetjson's ratio to each peer.

    PYTHONPATH=... python3 bench/bench_arrow_write.py [--rows 200000] [--rounds 10]
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("POLARS_MAX_THREADS", "1")  # before polars is imported
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as T  # noqa: E402


def flat_table(rows, seed=20260101):
    """9 scalar fields, seeded."""
    import numpy as np
    import pyarrow as pa
    rng = np.random.default_rng(seed)
    words = np.array(["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel",
                      "india", "juliett", "kilo", "lima", "mike", "november", "oscar", "papa"])
    name = [" ".join(p) for p in words[rng.integers(0, len(words), (rows, 2))]]
    email = [f"user{i}@example.com" for i in rng.integers(0, 10**7, rows)]
    base = 1_420_070_400_000_000  # 2015-01-01 in microseconds
    return pa.table({
        "id": pa.array(np.arange(rows, dtype=np.int64)),
        "user_id": pa.array(rng.integers(0, 2**40, rows)),
        "count": pa.array(rng.integers(-1000, 1000, rows)),
        "score": pa.array(rng.normal(0, 1000, rows)),
        "ratio": pa.array(rng.random(rows)),
        "name": pa.array(name),
        "email": pa.array(email),
        "active": pa.array(rng.random(rows) < 0.5),
        "created_at": pa.array(base + rng.integers(0, 10**14, rows), pa.timestamp("us", tz="UTC")),
    })


def events_table(repeat):
    import pyarrow.json as pj
    events = json.loads((T.data_dir() / "corpus" / "github_events.json").read_bytes())
    text = b"".join(json.dumps(e).encode() + b"\n" for e in events) * repeat
    return pj.read_json(io.BytesIO(text))


def _instant(s):
    """An ISO 8601 timestamp string as an aware datetime, else None."""
    if not isinstance(s, str) or len(s) < 19 or s[4] != "-" or s[10] not in "T ":
        return None
    try:
        m = dt.datetime.fromisoformat(s.replace("Z", "+00:00"))
    except ValueError:
        return None
    return m if m.tzinfo else m.replace(tzinfo=dt.timezone.utc)


def _normal(v):
    if isinstance(v, dict):
        return {k: _normal(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [_normal(x) for x in v]
    return _instant(v) or v


def same_records(a: bytes, b: bytes) -> bool:
    la, lb = a.splitlines(), b.splitlines()
    if len(la) != len(lb):
        return False
    return all(_normal(json.loads(x)) == _normal(json.loads(y)) for x, y in zip(la, lb))


def contenders(table, tmp):
    import jetjson
    out = [("jetjson", lambda t: jetjson.dumpb_arrow(t), None)]
    try:
        import polars as pl
        frame = pl.from_arrow(table)
        out.append(("jetjson(polars)", lambda t: jetjson.dumpb_arrow(t), lambda: frame))
        out.append(("polars", lambda f: f.write_ndjson(), lambda: frame))
    except ImportError:
        print("polars not installed: skipped", file=sys.stderr)
    try:
        import duckdb
        con = duckdb.connect()
        con.execute("SET threads=1")
        con.register("t", table)
        path = str(tmp)

        def copy(c):
            c.execute(f"COPY t TO '{path}' (FORMAT JSON)")
            return path
        out.append(("duckdb", copy, lambda: con))
    except ImportError:
        print("duckdb not installed: skipped", file=sys.stderr)
    import orjson
    out.append(("orjson", lambda t: b"".join(orjson.dumps(r) + b"\n" for r in t.to_pylist()), None))
    return out


def run(label, table, rounds, target_ms):
    tmp = Path("/dev/shm" if os.path.isdir("/dev/shm") else "/tmp") / f"jetjson_bench_{os.getpid()}.ndjson"
    peers = contenders(table, tmp)
    ref = peers[0][1](table)
    cs = []
    for name, fn, make in peers:
        got = fn(make() if make else table)
        if isinstance(got, str) and got.endswith(".ndjson"):
            got = Path(got).read_bytes()
        if isinstance(got, str):
            got = got.encode()
        if not same_records(got, ref):
            if name.startswith("jetjson"):
                raise SystemExit(f"{label}: {name}'s result differs from jetjson on the table")
            print(f"{label}: {name} result differs, skipped", file=sys.stderr)
            continue
        cs.append(T.Contender(name, fn, make))
    overhead = T.timer_overhead_ns()
    with T.gc_prepared() as reset:
        samples = T.alternate(cs, lambda: table, rounds=rounds, target_ns=target_ms * 1e6,
                              overhead_ns=overhead, reset=reset)
    tmp.unlink(missing_ok=True)
    speeds = {c.name: len(ref) / samples[c.name].best_ns for c in cs}
    names = [c.name for c in cs]
    rows = [[label, f"{len(ref) / 1e6:.1f} MB"] + [T.fmt_num(speeds[n]) for n in names],
            ["jetjson speedup", ""] + [T.fmt_ratio(speeds["jetjson"] / speeds[n]) for n in names]]
    print(f"\n{label}: {table.num_rows} rows, GB/s of NDJSON written, best of {rounds} rounds")
    print(T.render_table(["data", "output"] + names, rows))
    return speeds


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000, help="rows of the flat table")
    ap.add_argument("--repeat", type=int, default=300, help="copies of the 30 GitHub events")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--target-ms", type=float, default=50.0)
    args = ap.parse_args(argv)
    print(f"kernels: {T.active_kernels()}", file=sys.stderr)
    for label, table in (("flat", flat_table(args.rows)), ("github events", events_table(args.repeat))):
        speeds = run(label, table, args.rounds, args.target_ms)
        for peer, goal in (("polars", 2.0), ("duckdb", 2.5)):
            if peer in speeds:
                r = speeds["jetjson"] / speeds[peer]
                print(f"{label}: jetjson vs {peer}: {r:.2f}x (goal {goal}x)" + ("" if r >= goal else "  BELOW GOAL"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
