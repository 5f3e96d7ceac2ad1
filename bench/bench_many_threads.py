"""threads=N on streams (GIL build): jetjson's loads_many / parse_many / map_many(fields=)
with threads=2 (one engine worker parsing windows ahead, the calling thread building the
objects) against threads=None, with msgspec decode_lines and orjson per line in the same
run for scale. Data as bench_many.py (GitHub-events NDJSON generated from the corpus,
amazon_cellphones.ndjson repeated to a few MB, the corpus's records). Results are checked
against json's (and threads=None's) before timing; contenders alternate; best of --rounds.

The calling thread still builds every object and calls fn: the speedup is bounded by the
engine's share of the single-threaded time (largest for parse_many and fields=).

    python bench/bench_many_threads.py [--mb 40] [--rounds 11] [--threads 2]
"""

import argparse
import json
import os

import jetjson

from _timing import data_dir
from bench_many import best_times, corpus_records, fields_fn, make_events_ndjson

try:
    import orjson
except ImportError:  # pragma: no cover
    orjson = None
try:
    import msgspec
except ImportError:  # pragma: no cover
    msgspec = None


def report(title, size, best, base_name):
    print(f"\n{title}")
    base = best[base_name]
    for n, t in sorted(best.items(), key=lambda kv: kv[1]):
        print(f"  {n:44s} {t * 1e3:9.2f} ms  {size / t / 1e9:6.2f} GB/s  {base / t:5.2f}x {base_name}")


def cpu_split(single, threaded, make_input, rounds):
    """CPU seconds (best of rounds): the whole process for `single`, and for `threaded`
    the process and the calling thread alone, as a list of these three; then the minor
    page faults of a call of each (median); then the wall seconds of the call of each
    alone (best of rounds), its result freed after the clock stops. The calling
    thread's share bounds what threads can gain on idle cores (single's CPU over it),
    whatever the machine's load. best_times counts the freeing in (as for every
    contender): the call alone shows what the freeing, the same for both, dilutes."""
    import gc
    import resource
    import statistics
    import time

    best = [float("inf")] * 3
    wall = [float("inf")] * 2
    faults = ([], [])
    for _ in range(rounds):
        for k, fn in ((0, single), (1, threaded)):
            data = make_input()
            gc.collect()
            f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            c0, h0, w0 = time.process_time(), time.thread_time(), time.perf_counter()
            result = fn(data)
            w1, c1, h1 = time.perf_counter(), time.process_time(), time.thread_time()
            wall[k] = min(wall[k], w1 - w0)
            faults[k].append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)
            del result
            if k == 0:
                best[0] = min(best[0], c1 - c0)
            else:
                best[1], best[2] = min(best[1], c1 - c0), min(best[2], h1 - h0)
    return best + [statistics.median(faults[0]), statistics.median(faults[1])] + wall


def report_cpu(single, threaded, make_input, rounds):
    best = cpu_split(single, threaded, make_input, rounds)
    print(f"  CPU: threads=None {best[0] * 1e3:.1f} ms; threaded {best[1] * 1e3:.1f} ms, of which the calling "
          f"thread {best[2] * 1e3:.1f} ms: at most {best[0] / best[2]:.2f}x on idle cores; "
          f"page faults a call {best[3]:.0f} / {best[4]:.0f}")
    print(f"  the call alone (its result freed after the clock): threads=None {best[5] * 1e3:.1f} ms, "
          f"threaded {best[6] * 1e3:.1f} ms, {best[5] / best[6]:.2f}x")


def plain(v):
    if isinstance(v, jetjson.Object):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, jetjson.Array):
        return [plain(x) for x in v]
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mb", type=float, default=40, help="size of the generated events file")
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    n = args.threads
    amazon = open(os.path.join(data_dir(), "ndjson", "amazon_cellphones.ndjson"), "rb").read()
    datasets = {
        f"github events ({args.mb:g} MB)": make_events_ndjson(args.mb),
        "amazon_cellphones.ndjson x 40": amazon * 40,
        "corpus records x 2": corpus_records() * 2,
    }
    for label, data in datasets.items():
        lines = data.count(b"\n")
        print(f"\n=== {label}: {len(data) / 1e6:.1f} MB, {lines} lines, threads={n} "
              f"on {os.cpu_count()} cores")
        expected = [json.loads(line) for line in data.splitlines() if line.strip()]
        fresh = lambda: bytes(bytearray(data))  # noqa: E731 - a new object per call

        one = "loads_many threads=None"
        loads = {one: lambda d: list(jetjson.loads_many(d)),
                 f"loads_many threads={n}": lambda d: jetjson.loads_many(d, threads=n)}
        if msgspec:
            loads["msgspec decode_lines"] = msgspec.json.Decoder().decode_lines
        if orjson:
            loads["[orjson.loads(l) for l in d.splitlines()]"] = lambda d: [orjson.loads(x) for x in d.splitlines()]
        for name, fn in loads.items():
            assert fn(data) == expected, name
        report("loads_many", len(data), best_times(loads, fresh, args.rounds), one)
        report_cpu(loads[one], loads[f"loads_many threads={n}"], fresh, args.rounds)

        one = "parse_many threads=None"
        parse = {one: lambda d: list(jetjson.parse_many(d)),
                 f"parse_many threads={n}": lambda d: jetjson.parse_many(d, threads=n)}
        for name, fn in parse.items():
            assert [plain(v) for v in fn(data)] == expected, name
        report("parse_many (views only)", len(data), best_times(parse, fresh, args.rounds), one)
        report_cpu(parse[one], parse[f"parse_many threads={n}"], fresh, args.rounds)

        first = expected[0]
        keys = [k for k in first][:3] if isinstance(first, dict) else []
        if len(keys) == 3:
            ptrs = ["/" + k for k in keys]
            want = [tuple(d.get(k) if isinstance(d, dict) else None for k in keys) for d in expected]
            one = "map_many(fields=3) threads=None"
            fields = {one: lambda d: jetjson.map_many(fields_fn, d, fields=ptrs),
                      f"map_many(fields=3) threads={n}": lambda d: jetjson.map_many(fields_fn, d, fields=ptrs,
                                                                                     threads=n)}
            if msgspec:
                dec = msgspec.json.Decoder()
                fields["msgspec decode_lines + get"] = lambda d: [tuple(x.get(k) for k in keys)
                                                                  for x in dec.decode_lines(d)]
            for name, fn in fields.items():
                assert fn(data) == want, name
            report(f"map_many with fields {ptrs}", len(data), best_times(fields, fresh, args.rounds), one)
            report_cpu(fields[one], fields[f"map_many(fields=3) threads={n}"], fresh, args.rounds)


if __name__ == "__main__":
    main()
