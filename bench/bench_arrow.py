"""NDJSON -> Arrow: jetjson.loads_arrow against pyarrow.json.read_json and
polars.read_ndjson, one thread, in one process, interleaved.

Data: a seeded flat file of 9 scalar fields (make_flat_ndjson below), and the GitHub-events
NDJSON that bench_many.py generates from corpus/github_events.json, read with the schema
inferred and with a schema of 6 of its fields (two of them structs; the rest of each event
is skipped). Every call ends with a pyarrow.Table (polars: a DataFrame), so the import
into pyarrow is timed too. The tables are checked equal to pyarrow's before timing
(polars: same shape). Each call gets a fresh copy of the input; contenders alternate in
both orders; the best of --rounds is reported.

    POLARS_MAX_THREADS=1 python bench/bench_arrow.py [--mb 40] [--rounds 9]

(polars runs on its own thread pool: POLARS_MAX_THREADS=1 makes it one thread, as the
others are; pyarrow is told use_threads=False. loads_arrow also runs with threads=2:
its wall-clock time is the one to read, not --cpu's.)
"""

import argparse
import gc
import io
import random
import time

import pyarrow as pa
import pyarrow.json as pj

import jetjson

from bench_many import best_times, make_events_ndjson, report

try:
    import polars
except ImportError:  # pragma: no cover
    polars = None


def make_flat_ndjson(mb, seed=11):
    """Records of 9 scalar fields (ints, doubles, strings, booleans, a date-time string),
    about mb megabytes."""
    rng = random.Random(seed)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    out, size, n = [], 0, 0
    while size < mb * 1_000_000:
        n += 1
        line = (
            f'{{"id":{n},"user":"{rng.choice(words)}{rng.randrange(10**6)}","score":{rng.uniform(-1e3, 1e3):.6f},'
            f'"active":{"true" if rng.random() < 0.5 else "false"},"count":{rng.randrange(-10**9, 10**9)},'
            f'"city":"{rng.choice(words).title()} {rng.choice(words)}","ratio":{rng.random():.17g},'
            f'"created":"2024-{rng.randrange(1, 13):02}-{rng.randrange(1, 29):02}T{rng.randrange(24):02}:'
            f'{rng.randrange(60):02}:{rng.randrange(60):02}Z","level":{rng.randrange(10)}}}'
        ).encode()
        out.append(line)
        size += len(line) + 1
    return b"\n".join(out) + b"\n"


EVENTS_SCHEMA = pa.schema([
    ("id", pa.string()),
    ("type", pa.string()),
    ("actor", pa.struct([("id", pa.int64()), ("login", pa.string())])),
    ("repo", pa.struct([("id", pa.int64()), ("name", pa.string())])),
    ("public", pa.bool_()),
    ("created_at", pa.timestamp("us", tz="UTC")),
])


def pyarrow_read(schema=None):
    """pyarrow on one thread (with threads, the order of the fields it infers varies from
    run to run: the blocks' schemas are merged as the threads finish)."""
    opts = None if schema is None else pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore")
    read = pj.ReadOptions(use_threads=False)
    return lambda d: pj.read_json(io.BytesIO(d), read_options=read, parse_options=opts)


def best_cpu_times(contenders, make_input, rounds):
    """best_times (bench_many.py) on the CPU clock of the process: on a machine shared by
    other jobs the wall clock measures the others too. Every contender here runs on one
    thread, so its CPU time is its cost."""
    names = list(contenders)
    best = {n: float("inf") for n in names}
    for r in range(rounds):
        order = names[(r // 2) % len(names):] + names[:(r // 2) % len(names)]
        for n in (reversed(order) if r % 2 else order):
            data = make_input()
            gc.collect()
            t0 = time.process_time()
            result = contenders[n](data)
            del result
            best[n] = min(best[n], time.process_time() - t0)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mb", type=float, default=40, help="size of each generated file")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--cpu", action="store_true", help="time on the process's CPU clock, not the wall clock")
    args = ap.parse_args()
    flat = make_flat_ndjson(args.mb)
    events = make_events_ndjson(args.mb)
    cases = [
        ("flat, inferred", flat, None),
        ("GitHub events, inferred", events, None),
        ("GitHub events, schema of 6 fields", events, EVENTS_SCHEMA),
    ]
    print(f"pyarrow {pa.__version__}, polars {polars.__version__ if polars else '(not installed)'}")
    for label, data, schema in cases:
        contenders = {
            "jetjson.loads_arrow": lambda d, s=schema: pa.table(jetjson.loads_arrow(d, s)),
            "pyarrow.json.read_json": pyarrow_read(schema),
        }
        contenders["jetjson.loads_arrow(threads=1)"] = lambda d, s=schema: pa.table(jetjson.loads_arrow(d, s, threads=1))
        contenders["jetjson.loads_arrow(threads=2)"] = lambda d, s=schema: pa.table(jetjson.loads_arrow(d, s, threads=2))
        # a binary file object (pyarrow reads one too): 1 MiB chunks, each chunk's lines
        contenders["jetjson.loads_arrow(BytesIO)"] = lambda d, s=schema: pa.table(jetjson.loads_arrow(io.BytesIO(d), s))
        if polars and schema is None:
            contenders["polars.read_ndjson"] = lambda d: polars.read_ndjson(io.BytesIO(d))
        ours = contenders["jetjson.loads_arrow"](data)
        theirs = contenders["pyarrow.json.read_json"](data)
        assert ours.schema == theirs.schema and ours.equals(theirs), f"{label}: tables differ"
        assert contenders["jetjson.loads_arrow(BytesIO)"](data).equals(ours), f"{label}: file object differs"
        assert contenders["jetjson.loads_arrow(threads=1)"](data).equals(ours), f"{label}: one thread differs"
        if "polars.read_ndjson" in contenders:
            frame = contenders["polars.read_ndjson"](data)
            assert frame.shape == (ours.num_rows, ours.num_columns), f"{label}: polars shape {frame.shape}"
        fresh = lambda: bytes(bytearray(data))  # noqa: E731 - a new object per call
        best = (best_cpu_times if args.cpu else best_times)(contenders, fresh, args.rounds)
        report(f"=== {label}: {len(data) / 1e6:.1f} MB, {ours.num_rows} records", len(data), best,
               "jetjson.loads_arrow(threads=1)")


if __name__ == "__main__":
    main()
