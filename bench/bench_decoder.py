"""jetjson.Decoder.feed against one whole-buffer call over the same bytes (issue 17's
three goals), with orjson / msgspec over the whole buffer as the peers' mark:

1. the corpus records and GitHub events as NDJSON fed in 64 KB chunks, against
   loads_many of the whole buffer (goal: within 1.15x);
2. one 10 MB document (an array of GitHub events) fed in 4 KB chunks, against one
   loads of it (goal: within 2x);
3. a 10 MB NDJSON stream fed in 1 KB chunks, against one feed of the whole (goal:
   within 2x).

Every contender's result is checked against json's first; each call gets a fresh copy
of the input; contenders alternate in both orders; the best of --rounds is reported.

    python bench/bench_decoder.py [--rounds 15] [--only 1,2,3]
"""

import argparse
import json

import jetjson

from bench_many import best_times, corpus_records, make_events_ndjson, report

try:
    import orjson
except ImportError:  # pragma: no cover
    orjson = None
try:
    import msgspec
except ImportError:  # pragma: no cover
    msgspec = None


def feed(data, size, fmt="whitespace"):
    """The bytes fed to one Decoder in `size`-byte slices (as socket.recv gives them)."""
    dec = jetjson.Decoder(format=fmt)
    out = []
    for at in range(0, len(data), size):
        out.extend(dec.feed(data[at:at + size]))
    out.extend(dec.close())
    return out


def big_document(mb):
    """One document of about mb megabytes: an array of GitHub events."""
    lines = make_events_ndjson(mb).splitlines()
    return b"[" + b",\n".join(lines) + b"]"


def run(title, data, contenders, expected, ours, rounds):
    for n, fn in contenders.items():
        assert fn(data) == expected, n
    fresh = lambda: bytes(bytearray(data))  # noqa: E731 - a new object per call
    report(title, len(data), best_times(contenders, fresh, rounds), ours)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--only", default="1,2,3")
    args = ap.parse_args()
    only = set(args.only.split(","))
    if "1" in only:
        for label, data in {"corpus records": corpus_records(), "github events (10 MB)": make_events_ndjson(10)}.items():
            expected = [json.loads(line) for line in data.splitlines() if line.strip()]
            c = {"jetjson.loads_many(whole)": lambda d: list(jetjson.loads_many(d)),
                 "jetjson.Decoder.feed, 64 KB chunks": lambda d: feed(d, 65536)}
            if msgspec:
                c["msgspec decode_lines(whole)"] = msgspec.json.Decoder().decode_lines
            run(f"1. {label}, {len(data) / 1e6:.1f} MB: feed in 64 KB chunks vs loads_many", data, c, expected,
                "jetjson.loads_many(whole)", args.rounds)
    if "2" in only:
        data = big_document(10)
        expected = [json.loads(data)]
        c = {"jetjson.loads(whole)": lambda d: [jetjson.loads(d)],
             "jetjson.Decoder.feed, 4 KB chunks": lambda d: feed(d, 4096)}
        if orjson:
            c["orjson.loads(whole)"] = lambda d: [orjson.loads(d)]
        run(f"2. one {len(data) / 1e6:.1f} MB document: feed in 4 KB chunks vs loads", data, c, expected,
            "jetjson.loads(whole)", args.rounds)
    if "3" in only:
        data = make_events_ndjson(10)
        expected = [json.loads(line) for line in data.splitlines() if line.strip()]
        c = {"jetjson.Decoder.feed(whole)": lambda d: feed(d, len(d)),
             "jetjson.Decoder.feed, 1 KB chunks": lambda d: feed(d, 1024)}
        if msgspec:
            c["msgspec decode_lines(whole)"] = msgspec.json.Decoder().decode_lines
        run(f"3. {len(data) / 1e6:.1f} MB NDJSON: feed in 1 KB chunks vs one feed", data, c, expected,
            "jetjson.Decoder.feed(whole)", args.rounds)


if __name__ == "__main__":
    main()
