"""NDJSON files -> dask DataFrame on a LocalCluster of 2 worker processes (1 thread
each): jetjson.dask.read_ndjson against dask.dataframe.read_json(lines=True) and against
dd.from_map of pyarrow.json.read_json per file (the careful user's way; its tables made
pandas frames of ArrowDtype columns, as read_ndjson gives them).

Data: the GitHub-events NDJSON of bench_many.py (--files files of --mb MB each, seeds
apart), read with the 6-field schema of bench_arrow.py and with the schema inferred.
Each call builds the DataFrame (read_ndjson's inference pass included) and persists it
on the workers (no transfer back to the client), then releases it. Results are checked
before timing: read_ndjson's table equal to pyarrow's (per file, concatenated with
promote_options="permissive"); from_map's equal too with the schema, same row count
inferred; read_json the same row count and ids (it is given an engine that makes every
block's columns the same, without which it refuses these data: see PandasColumns). Contenders alternate (order reversed
every round, rotated every two); the best of --rounds is reported, for the wall clock
and for the CPU time of the workers and the client (getrusage), which the other jobs of
a shared machine do not inflate.

    python bench/bench_dask.py [--mb 50] [--files 4] [--rounds 5] [--dir /tmp/jj-dask]
"""

import argparse
import os
import resource
import sys
import time

import dask.dataframe as dd
import pandas as pd
import pyarrow as pa
import pyarrow.json as pj
from distributed import Client, LocalCluster, wait

from jetjson.dask import read_ndjson

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_arrow import EVENTS_SCHEMA  # noqa: E402
from bench_many import make_events_ndjson  # noqa: E402



def pyarrow_frame(path, schema=None):
    """One file by pyarrow.json.read_json (its defaults: threads on), as ArrowDtype columns."""
    opts = None if schema is None else pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore")
    return pj.read_json(path, parse_options=opts).to_pandas(types_mapper=pd.ArrowDtype)


class PandasColumns:
    """dd.read_json's engine, giving every block the same columns in the same order:
    without it dask refuses these data (the order in which fields first appear differs
    between blocks, and check_meta raises ValueError)."""

    def __init__(self, columns):
        self.columns = columns

    def __call__(self, *args, **kwargs):
        return pd.read_json(*args, **kwargs).reindex(columns=self.columns)


def make_files(folder, files, mb):
    os.makedirs(folder, exist_ok=True)
    paths = []
    for i in range(files):
        path = os.path.join(folder, f"events-{mb}MB-{i}.ndjson")
        if not os.path.exists(path):
            data = make_events_ndjson(mb, seed=7 + i)
            with open(path + ".tmp", "wb") as f:
                f.write(data)
            os.replace(path + ".tmp", path)
        paths.append(path)
    return paths


def all_columns(paths):
    read = pj.ReadOptions(use_threads=False)
    return pa.unify_schemas([pj.read_json(p, read_options=read).schema for p in paths],
                            promote_options="permissive").names


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def as_arrow(ddf):
    return pa.Table.from_pandas(ddf.compute(), preserve_index=False).combine_chunks()


def check(paths, schema, contenders):
    """Every contender's result agrees before anything is timed."""
    opts = None if schema is None else pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore")
    read = pj.ReadOptions(use_threads=False)
    expected = pa.concat_tables([pj.read_json(p, read_options=read, parse_options=opts) for p in paths],
                                promote_options="permissive").combine_chunks()
    ours = as_arrow(contenders["jetjson.dask.read_ndjson"]())
    assert ours.schema == expected.schema and ours.equals(expected), "read_ndjson differs from pyarrow"
    theirs = contenders["from_map(pyarrow.json.read_json)"]().compute()
    assert len(theirs) == expected.num_rows
    if schema is not None:
        assert pa.Table.from_pandas(theirs, preserve_index=False).combine_chunks().equals(expected)
    if "dask.dataframe.read_json" in contenders:
        pandas_ids = contenders["dask.dataframe.read_json"]()["id"].compute()
        assert list(pandas_ids.astype(str)) == expected.column("id").to_pylist()
    return expected.num_rows


def timed(client, make):
    """(wall, CPU) seconds to build the DataFrame and persist it on the workers."""
    before = sum(client.run(cpu_seconds).values()) + cpu_seconds()
    t0 = time.perf_counter()
    persisted = client.persist(make())
    wait(persisted)
    wall = time.perf_counter() - t0
    cpu = sum(client.run(cpu_seconds).values()) + cpu_seconds() - before
    del persisted
    time.sleep(0.2)  # let the workers drop the partitions
    return wall, cpu


def run(client, title, contenders, rounds, size):
    names = list(contenders)
    best = {n: [float("inf"), float("inf")] for n in names}
    for r in range(rounds):
        order = names[(r // 2) % len(names):] + names[:(r // 2) % len(names)]
        if r % 2:
            order.reverse()
        for n in order:
            wall, cpu = timed(client, contenders[n])
            best[n] = [min(best[n][0], wall), min(best[n][1], cpu)]
    print(f"\n{title}")
    base_wall, base_cpu = best["jetjson.dask.read_ndjson"]
    for n, (wall, cpu) in sorted(best.items(), key=lambda kv: kv[1][0]):
        print(f"  {n:36s} wall {wall:7.2f} s ({size / wall / 1e6:6.0f} MB/s, jetjson {wall / base_wall:5.2f}x)"
              f"   CPU {cpu:7.2f} s (jetjson {cpu / base_cpu:5.2f}x)")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mb", type=int, default=50, help="size of each generated events file")
    ap.add_argument("--files", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--blocksize", default="64MB")
    ap.add_argument("--dir", default="/tmp/jetjson-bench-dask")
    ap.add_argument("--no-read-json", action="store_true", help="leave dask.dataframe.read_json out (slow)")
    args = ap.parse_args()
    paths = make_files(args.dir, args.files, args.mb)
    size = sum(os.path.getsize(p) for p in paths)
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        print(f"{args.files} files, {size / 1e6:.0f} MB of GitHub events, blocksize {args.blocksize}, "
              f"2 worker processes x 1 thread; best of {args.rounds}")
        for schema, label in ((EVENTS_SCHEMA, "6-field schema"), (None, "schema inferred")):
            contenders = {
                "jetjson.dask.read_ndjson": lambda s=schema: read_ndjson(paths, s, blocksize=args.blocksize),
                "from_map(pyarrow.json.read_json)": lambda s=schema: dd.from_map(pyarrow_frame, paths, schema=s),
            }
            if not args.no_read_json:
                columns = read_ndjson(paths[:1], schema, blocksize=None).columns if schema else all_columns(paths)
                contenders["dask.dataframe.read_json"] = lambda c=list(columns): dd.read_json(
                    paths, lines=True, blocksize=args.blocksize, engine=PandasColumns(c))
            rows = check(paths, schema, contenders)
            run(client, f"{label} ({rows} rows)", contenders, args.rounds, size)


if __name__ == "__main__":
    main()
