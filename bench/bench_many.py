"""Streams of documents: jetjson's loads_many / parse_many / map_many(fields=) /
dumpb_many against the peers installed from PyPI, in one process, interleaved.

Data: ndjson/amazon_cellphones.ndjson, a GitHub-events NDJSON generated from
corpus/github_events.json (make_events_ndjson below: seeded, varied ids, names and
dates), and the records of every corpus file as NDJSON (loads_many also against the
same bytes fed to a Decoder in 64 KB chunks); each also from a file (mapped
or read in blocks) and as one top-level array read from a file object (against ijson). Each contender's result is
checked against json's before anything is timed. Each call gets a fresh copy of the
input; contenders alternate in both orders; the best of --rounds is reported.

    python bench/bench_many.py [--mb 40] [--rounds 15] [--files-only] [--one-core]

--one-core pins the process to one CPU, as the issue's goals ("one core") are set: a
fastsimdjson call (threads left at their default) runs simdjson's stage 1 of the next
batch on a thread of its own, which uses a second core when one is idle.
"""

import argparse
import gc
import json
import os
import random
import time

import jetjson

import _timing as T
from _timing import data_dir

try:
    import fastsimdjson
except ImportError:  # pragma: no cover
    fastsimdjson = None
try:
    import orjson
except ImportError:  # pragma: no cover
    orjson = None
try:
    import msgspec
except ImportError:  # pragma: no cover
    msgspec = None
try:
    import ijson
except ImportError:  # pragma: no cover
    ijson = None


def make_events_ndjson(mb, seed=7):
    """NDJSON of GitHub events, about mb megabytes, from the corpus's real events with
    varied ids, logins, repository names and dates."""
    events = json.load(open(os.path.join(data_dir(), "corpus", "github_events.json"), "rb"))
    rng = random.Random(seed)
    out, size, n = [], 0, 0
    while size < mb * 1_000_000:
        e = json.loads(json.dumps(rng.choice(events)))
        n += 1
        e["id"] = str(10_000_000_000 + n)
        e["actor"]["login"] = f"user{rng.randrange(10**6)}"
        e["repo"]["name"] = f"org{rng.randrange(5000)}/repo{rng.randrange(10**5)}"
        e["created_at"] = f"2024-{rng.randrange(1, 13):02}-{rng.randrange(1, 29):02}T{rng.randrange(24):02}:00:00Z"
        line = json.dumps(e, separators=(",", ":")).encode()
        out.append(line)
        size += len(line) + 1
    return b"\n".join(out) + b"\n"


def corpus_records():
    corpus = os.path.join(data_dir(), "corpus")
    lines = []
    for name in sorted(os.listdir(corpus)):
        if not name.endswith(".json"):
            continue
        doc = json.load(open(os.path.join(corpus, name), "rb"))
        records = doc if isinstance(doc, list) else list(doc.values()) if isinstance(doc, dict) else [doc]
        lines += [json.dumps(r, separators=(",", ":"), ensure_ascii=False).encode() for r in records]
    return b"\n".join(lines) + b"\n"


def best_times(contenders, make_input, rounds):
    """Best seconds per contender: each round runs every contender once on a fresh
    input, in an order reversed every round and rotated every two."""
    names = list(contenders)
    best = {n: float("inf") for n in names}
    for r in range(rounds):
        order = names[(r // 2) % len(names):] + names[:(r // 2) % len(names)]
        if r % 2:
            order.reverse()
        for n in order:
            data = make_input()
            gc.collect()
            t0 = time.perf_counter()
            result = contenders[n](data)
            del result
            best[n] = min(best[n], time.perf_counter() - t0)
    return best


def report(title, size, best, ours):
    print(f"\n{title}")
    base = best[ours]
    for n, t in sorted(best.items(), key=lambda kv: kv[1]):
        print(f"  {n:44s} {t * 1e3:9.2f} ms  {size / t / 1e9:6.2f} GB/s  jetjson is {t / base:5.2f}x")


def fields_fn(t):
    return t


def feed_in_chunks(data, size=65536):
    """What a socket reader does: the input fed to one Decoder in chunks (bytes, as
    socket.recv gives them), then closed."""
    dec = jetjson.Decoder()
    out = []
    for at in range(0, len(data), size):
        out.extend(dec.feed(data[at:at + size]))
    out.extend(dec.close())
    return out


def files_and_arrays(data, expected, rounds):
    """The same documents read from a file: an open file object against the mapped file,
    and then as one top-level array, element by element, against ijson.items."""
    import io
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".ndjson") as f:
        f.write(data)
        f.flush()
        path = f.name
        files = {"jetjson.load_many_file(path)": lambda p: list(jetjson.load_many_file(p)),
                 "jetjson.loads_many(open(path, 'rb'))": lambda p: list(jetjson.loads_many(open(p, "rb")))}
        for n, fn in files.items():
            assert fn(path) == expected, n
        # The collector is paused while documents are built, so collections they make due
        # run at the next tracked allocation with it on: after the mapped read (outside the
        # timer) but inside it for the file, when the file object is closed. Timed with
        # the collector off, both measure the reading and building alone.
        with T.gc_prepared(disable=True):
            timings = best_times(files, lambda: path, rounds)
        report("a file: mapped against read in blocks (cyclic GC off)", len(data), timings,
               "jetjson.load_many_file(path)")
    array = b"[" + b",\n".join(line for line in data.splitlines() if line.strip()) + b"]"
    arrays = {"jetjson.loads_many(file, format='array')":
              lambda d: list(jetjson.loads_many(io.BytesIO(d), format="array"))}
    if ijson:
        arrays[f"ijson.items(file, 'item') [{ijson.backend}]"] = \
            lambda d: list(ijson.items(io.BytesIO(d), "item", use_float=True))
    for n, fn in arrays.items():
        assert fn(array) == expected, n
    arrays["jetjson.parse_many(file, format='array')"] = \
        lambda d: list(jetjson.parse_many(io.BytesIO(d), format="array"))
    # References, not peers: the same list made from pickle's and marshal's binary forms,
    # which build the same objects and parse no text. They show how much of ijson's time is
    # the building of the objects that every reader with the same results pays.
    import marshal
    import pickle

    pickled, marshalled = pickle.dumps(expected, protocol=5), marshal.dumps(expected)
    assert pickle.loads(pickled) == expected and marshal.loads(marshalled) == expected
    arrays["reference: pickle.loads of the same list"] = lambda d: pickle.loads(pickled)
    arrays["reference: marshal.loads of the same list"] = lambda d: marshal.loads(marshalled)
    with T.gc_prepared(disable=True):  # as above: no contender's collections fall outside the timer
        timings = best_times(arrays, lambda: array, rounds)
    report("one top-level array from a file object (cyclic GC off)", len(array), timings,
           "jetjson.loads_many(file, format='array')")
    peer = next((n for n in timings if n.startswith("ijson")), None)
    ours_array = "jetjson.loads_many(file, format='array')"
    if peer:
        ref = min(t for n, t in timings.items() if n.startswith("reference"))
        print(f"  over the faster reference (objects built, no text parsed): ijson {timings[peer] / ref:.2f}x, "
              f"jetjson {timings[ours_array] / ref:.2f}x")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mb", type=float, default=40, help="size of the generated events file")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--files-only", action="store_true", help="only the file and array-on-a-file timings")
    ap.add_argument("--one-core", action="store_true", help="pin the process to one CPU (every thread)")
    args = ap.parse_args()
    if args.one_core:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        print(f"pinned to CPU {cpu}")
    datasets = {
        "amazon_cellphones.ndjson": open(os.path.join(data_dir(), "ndjson", "amazon_cellphones.ndjson"), "rb").read(),
        f"github events ({args.mb:g} MB)": make_events_ndjson(args.mb),
        "corpus records": corpus_records(),
    }
    for label, data in datasets.items():
        lines = data.count(b"\n")
        print(f"\n=== {label}: {len(data) / 1e6:.1f} MB, {lines} lines")
        expected = [json.loads(line) for line in data.splitlines() if line.strip()]
        if args.files_only:
            files_and_arrays(data, expected, args.rounds)
            continue
        fresh = lambda: bytes(bytearray(data))  # noqa: E731 - a new object per call

        loads = {"jetjson.loads_many": lambda d: list(jetjson.loads_many(d)),
                 "jetjson.Decoder.feed, 64 KB chunks": feed_in_chunks}
        if fastsimdjson:
            loads["fastsimdjson.loads_many"] = lambda d: list(fastsimdjson.loads_many(d))
        if orjson:
            loads["[orjson.loads(l) for l in d.splitlines()]"] = lambda d: [orjson.loads(x) for x in d.splitlines()]
        if msgspec:
            dec = msgspec.json.Decoder()
            loads["msgspec decode_lines"] = dec.decode_lines
        for n, fn in loads.items():
            assert fn(data) == expected, n
        report("loads_many", len(data), best_times(loads, fresh, args.rounds), "jetjson.loads_many")

        parse = {"jetjson.parse_many": lambda d: list(jetjson.parse_many(d))}
        if fastsimdjson:
            parse["fastsimdjson.parse_many"] = lambda d: list(fastsimdjson.parse_many(d))
        report("parse_many", len(data), best_times(parse, fresh, args.rounds), "jetjson.parse_many")

        first = expected[0]
        keys = [k for k in first if isinstance(first, dict)][:3] if isinstance(first, dict) else []
        if len(keys) == 3:
            ptrs = ["/" + k for k in keys]
            want = [tuple(d.get(k) if isinstance(d, dict) else None for k in keys) for d in expected]
            fields = {"jetjson.map_many(fields=3)": lambda d: jetjson.map_many(fields_fn, d, fields=ptrs)}
            if fastsimdjson:
                fields["fastsimdjson.map_many(fields=3)"] = lambda d: fastsimdjson.map_many(fields_fn, d, fields=ptrs)
            if msgspec:
                fields["msgspec decode_lines + get"] = lambda d: [tuple(x.get(k) for k in keys)
                                                                   for x in dec.decode_lines(d)]
            for n, fn in fields.items():
                assert fn(data) == want, n
            report(f"map_many with fields {ptrs}", len(data),
                   best_times(fields, fresh, args.rounds), "jetjson.map_many(fields=3)")

        records = expected
        out_size = len(jetjson.dumpb_many(records))
        dumps = {"jetjson.dumpb_many": jetjson.dumpb_many}
        if fastsimdjson:
            dumps["fastsimdjson.dumpb_many"] = fastsimdjson.dumpb_many
        if orjson:
            dumps["b''.join(orjson.dumps(r) + b'\\n')"] = lambda rs: b"".join(orjson.dumps(r) + b"\n" for r in rs)
        if msgspec:
            dumps["msgspec encode_lines"] = msgspec.json.Encoder().encode_lines
        ref = b"".join(orjson.dumps(r) + b"\n" for r in records) if orjson else None
        for n, fn in dumps.items():
            if ref is not None and n != "msgspec encode_lines":
                assert fn(records) == ref, n
        report("dumpb_many (GB/s of output)", out_size, best_times(dumps, lambda: records, args.rounds),
               "jetjson.dumpb_many")
        files_and_arrays(data, expected, args.rounds)


if __name__ == "__main__":
    main()
