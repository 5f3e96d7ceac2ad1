#!/usr/bin/env python3
"""threads= of json_to_msgpack(ndjson=True), msgpack_to_json(stream=True), dumpb_arrow and
loads_arrow (GitHub events inferred and with a schema of 6 fields, and bench_arrow.py's flat
file; each call ends with a pyarrow.Table, released inside the timing):
threads=2 against threads=1 on generated GitHub-events NDJSON (bench_many.py's
make_events_ndjson), with the single-thread peers of the same conversions in the same run
(ormsgpack/msgpack + orjson line by line; polars' write_ndjson and orjson over
to_pylist for Arrow, each on one thread).

Every contender's result is checked first (threads=2 byte for byte against threads=1, the
peers by value; the Arrow peers by rows and keys, as each spells timestamps its own way). Wall clock is _timing.alternate (one process, interleaved, best of
--rounds). Because the 2-core machine is shared, a CPU figure follows each table: the
process's CPU time with threads=1 over the calling thread's CPU time with threads=2, and
over half the process's CPU time with threads=2 (best of --rounds each): the speedup two
idle cores would give, bounded by the calling thread's share and by the work added.

    PYTHONPATH=... python3 bench/bench_format_threads.py [--mb 40] [--rounds 11] [--only-loads-arrow]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("POLARS_MAX_THREADS", "1")  # before polars is imported
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as T  # noqa: E402
from bench_many import make_events_ndjson  # noqa: E402
from bench_many_threads import cpu_split  # noqa: E402

import jetjson  # noqa: E402


def optional(name):
    try:
        return __import__(name)
    except ImportError:  # pragma: no cover
        return None


orjson, msgpack, ormsgpack, polars = (optional(n) for n in ("orjson", "msgpack", "ormsgpack", "polars"))


def wall(contenders, data, rounds, base):
    samples = T.alternate([T.Contender(n, f) for n, f in contenders.items()], lambda: data, rounds=rounds)
    best = {n: s.best_ns / 1e9 for n, s in samples.items()}
    for n, t in sorted(best.items(), key=lambda kv: kv[1]):
        print(f"  {n:44s} {t * 1e3:9.2f} ms  {len(data) / t / 1e9:6.2f} GB/s in  {best[base] / t:5.2f}x {base}")


def cpu(single, threaded, data, rounds):
    best = cpu_split(single, threaded, lambda: data, rounds)
    bound = best[0] / max(best[2], best[1] / 2)
    print(f"  CPU: threads=1 {best[0] * 1e3:.1f} ms; threads=2 {best[1] * 1e3:.1f} ms, of which the calling "
          f"thread {best[2] * 1e3:.1f} ms: {best[0] / best[2]:.2f}x by the calling thread, "
          f"at most {bound:.2f}x on two idle cores")


def read_arrow(data, args):
    """NDJSON -> Arrow: loads_arrow threads=2 against threads=1."""
    import pyarrow as pa
    from bench_arrow import EVENTS_SCHEMA, make_flat_ndjson
    flat = make_flat_ndjson(args.mb)
    for label, text, schema in (("events, inferred", data, None), ("events, schema of 6 fields", data, EVENTS_SCHEMA),
                                ("flat, inferred", flat, None)):
        one = "loads_arrow threads=1"
        reads = {one: lambda d, s=schema: pa.table(jetjson.loads_arrow(d, s, threads=1)),
                 "loads_arrow threads=2": lambda d, s=schema: pa.table(jetjson.loads_arrow(d, s, threads=2))}
        assert reads[one](text).equals(reads["loads_arrow threads=2"](text)), label
        print(f"\nloads_arrow, {label} (load {os.getloadavg()[0]:.1f})")
        wall(reads, text, args.rounds, one)
        cpu(reads[one], reads["loads_arrow threads=2"], text, args.rounds)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mb", type=float, default=40)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--only-loads-arrow", action="store_true", help="the loads_arrow cases alone")
    args = ap.parse_args()
    data = make_events_ndjson(args.mb)
    lines = data.splitlines()
    print(f"GitHub events NDJSON: {len(data) / 1e6:.1f} MB, {len(lines)} lines, {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}")
    if args.only_loads_arrow:
        return read_arrow(data, args)

    # JSON -> MessagePack
    one = "json_to_msgpack threads=1"
    conv = {one: lambda d: jetjson.json_to_msgpack(d, ndjson=True, threads=1),
            "json_to_msgpack threads=2": lambda d: jetjson.json_to_msgpack(d, ndjson=True, threads=2)}
    if orjson and ormsgpack:
        conv["ormsgpack.packb(orjson.loads(l)) per line"] = lambda d: b"".join(
            ormsgpack.packb(orjson.loads(x)) for x in d.splitlines())
    if orjson and msgpack:
        conv["msgpack.packb(orjson.loads(l)) per line"] = lambda d: b"".join(
            msgpack.packb(orjson.loads(x)) for x in d.splitlines())
    packed = conv[one](data)
    for name, fn in conv.items():
        assert fn(data) == packed, name
    print("\njson_to_msgpack(ndjson=True)")
    wall(conv, data, args.rounds, one)
    cpu(conv[one], conv["json_to_msgpack threads=2"], data, args.rounds)

    # MessagePack -> JSON
    one = "msgpack_to_json threads=1"
    back = {one: lambda d: jetjson.msgpack_to_json(d, stream=True, threads=1),
            "msgpack_to_json threads=2": lambda d: jetjson.msgpack_to_json(d, stream=True, threads=2)}
    if orjson and msgpack:
        back["orjson.dumps per msgpack.Unpacker value"] = lambda d: b"".join(
            orjson.dumps(v) + b"\n" for v in msgpack.Unpacker(io.BytesIO(d), raw=False))
    text = back[one](packed)
    assert text == back["msgpack_to_json threads=2"](packed)
    want = [json.loads(x) for x in lines]
    for name, fn in back.items():
        assert [json.loads(x) for x in fn(packed).splitlines()] == want, name
    print("\nmsgpack_to_json(stream=True)")
    wall(back, packed, args.rounds, one)
    cpu(back[one], back["msgpack_to_json threads=2"], packed, args.rounds)

    # Arrow -> NDJSON
    import pyarrow.json as pa_json
    table = pa_json.read_json(io.BytesIO(data))
    one = "dumpb_arrow threads=1"
    arrow = {one: lambda t: jetjson.dumpb_arrow(t, threads=1),
             "dumpb_arrow threads=2": lambda t: jetjson.dumpb_arrow(t, threads=2)}
    if polars:
        frame = polars.from_arrow(table)
        arrow["polars write_ndjson (1 thread)"] = lambda t: frame.write_ndjson().encode()
    if orjson:
        arrow["orjson per to_pylist row"] = lambda t: b"".join(orjson.dumps(r) + b"\n" for r in t.to_pylist())
    out = arrow[one](table)
    assert out == arrow["dumpb_arrow threads=2"](table)
    rows = [json.loads(x) for x in out.splitlines()]
    for name, fn in arrow.items():
        if name.startswith("dumpb"):
            continue
        got = [json.loads(x) for x in fn(table).splitlines()]
        assert len(got) == len(rows) and all(a.keys() == b.keys() for a, b in zip(got, rows)), name
    print(f"\ndumpb_arrow ({table.num_rows} rows in {len(table.to_batches())} batches)")
    samples = T.alternate([T.Contender(n, f) for n, f in arrow.items()], lambda: table, rounds=args.rounds)
    best = {n: s.best_ns / 1e9 for n, s in samples.items()}
    for n, t in sorted(best.items(), key=lambda kv: kv[1]):
        print(f"  {n:44s} {t * 1e3:9.2f} ms  {len(out) / t / 1e9:6.2f} GB/s out {best[one] / t:5.2f}x {one}")
    cpu(arrow[one], arrow["dumpb_arrow threads=2"], table, args.rounds)
    read_arrow(data, args)

if __name__ == "__main__":
    main()
