#!/usr/bin/env python3
"""Benchmark jetjson.json_to_msgpack and msgpack_to_json against decoding to Python objects
and encoding again with the usual libraries.

JSON -> MessagePack: jetjson.json_to_msgpack(x) against ormsgpack.packb(orjson.loads(x)),
msgpack.packb(orjson.loads(x)), msgspec (msgpack.encode(json.decode(x))) and
msgpack.packb(json.loads(x)); speeds in GB/s of JSON read.
MessagePack -> JSON: jetjson.msgpack_to_json(x) against orjson.dumps(ormsgpack.unpackb(x)),
orjson.dumps(msgpack.unpackb(x)), msgspec (json.encode(msgpack.decode(x))) and
jetjson.dumpb(msgpack.unpackb(x)); speeds in GB/s of JSON written (jetjson's text).
Every result is checked first (the same bytes as msgpack.packb, or the same value after
json.loads). Each timed call gets a fresh copy of the input. Timing is _timing.alternate
(one process, interleaved order, best of N rounds); the summary is the geometric mean of
the speeds over the corpus files and jetjson's speedup over each peer.

    PYTHONPATH=... python3 bench/bench_msgpack.py [--files canada,twitter] [--rounds 10]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as T  # noqa: E402


def encoders():
    """(name, JSON bytes -> MessagePack bytes) for what is importable."""
    import jetjson
    import msgpack
    out = [("jetjson", jetjson.json_to_msgpack)]
    try:
        import orjson
        import ormsgpack
        out.append(("ormsgpack+orjson", lambda x: ormsgpack.packb(orjson.loads(x))))
    except ImportError:
        pass
    try:
        import orjson
        out.append(("msgpack+orjson", lambda x: msgpack.packb(orjson.loads(x))))
    except ImportError:
        pass
    try:
        import msgspec
        enc, dec = msgspec.msgpack.Encoder(), msgspec.json.Decoder()
        out.append(("msgspec", lambda x: enc.encode(dec.decode(x))))
    except ImportError:
        pass
    out.append(("msgpack+jetjson.loads", lambda x: msgpack.packb(jetjson.loads(x))))
    out.append(("msgpack+json", lambda x: msgpack.packb(json.loads(x))))
    return out


def decoders():
    """(name, MessagePack bytes -> JSON bytes) for what is importable."""
    import jetjson
    import msgpack
    out = [("jetjson", jetjson.msgpack_to_json)]
    try:
        import orjson
        import ormsgpack
        out.append(("orjson+ormsgpack", lambda x: orjson.dumps(ormsgpack.unpackb(x))))
    except ImportError:
        pass
    try:
        import orjson
        out.append(("orjson+msgpack", lambda x: orjson.dumps(msgpack.unpackb(x))))
    except ImportError:
        pass
    try:
        import msgspec
        enc, dec = msgspec.json.Encoder(), msgspec.msgpack.Decoder()
        out.append(("msgspec", lambda x: enc.encode(dec.decode(x))))
    except ImportError:
        pass
    out.append(("jetjson.dumpb+msgpack", lambda x: jetjson.dumpb(msgpack.unpackb(x))))
    return out


def _same_json(a: bytes, b: bytes) -> bool:
    return T.diff(json.loads(a), json.loads(b), exact=False) is None


def run(direction, files, rounds, target_ms):
    import msgpack
    peers = encoders() if direction == "encode" else decoders()
    names = [n for n, _ in peers]
    overhead = T.timer_overhead_ns()
    speeds = {n: [] for n in names}
    rows = []
    for path in files:
        raw = path.read_bytes()
        expected = msgpack.packb(json.loads(raw))
        data = raw if direction == "encode" else expected
        text = None
        cs = []
        for name, fn in peers:
            try:
                got = fn(data)
            except Exception as e:  # noqa: BLE001 - a peer that cannot take the file
                print(f"{path.name}: {name} failed: {e!r:.80}", file=sys.stderr)
                continue
            if direction == "encode":
                ok = got == expected or msgpack.unpackb(got) == msgpack.unpackb(expected)
            else:
                text = got if name == "jetjson" else text
                ok = _same_json(got, text)
            if not ok:
                if name == "jetjson":
                    raise SystemExit(f"{path.name}: jetjson's result is wrong")
                print(f"{path.name}: {name} result differs, skipped", file=sys.stderr)
                continue
            cs.append(T.Contender(name, fn))
        with T.gc_prepared() as reset:
            samples = T.alternate(cs, lambda: bytes(memoryview(data)), rounds=rounds,
                                  target_ns=target_ms * 1e6, overhead_ns=overhead, reset=reset)
        size = len(raw) if direction == "encode" else len(text)
        row = [path.name]
        for n in names:
            s = samples.get(n)
            gbps = size / s.best_ns if s else None
            if gbps is not None:
                speeds[n].append(gbps)
            row.append(T.fmt_num(gbps))
        rows.append(row)
        print(f"{direction} {path.name}: " + "  ".join(f"{n} {v}" for n, v in zip(names, row[1:])),
              file=sys.stderr)
    means = {n: T.geomean(v) if len(v) == len(files) else None for n, v in speeds.items()}
    rows.append(["geomean GB/s"] + [T.fmt_num(means[n]) for n in names])
    jj = means["jetjson"]
    rows.append(["jetjson speedup"] + [T.fmt_ratio(jj / means[n]) if means[n] else "-" for n in names])
    title = "JSON -> MessagePack (GB/s of JSON read)" if direction == "encode" else \
        "MessagePack -> JSON (GB/s of JSON written)"
    print(f"\n{title}, best of {rounds} rounds")
    print(T.render_table(["file"] + names, rows))
    return means


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    T.corpus_arguments(ap, rounds=10)
    ap.add_argument("--direction", choices=["both", "encode", "decode"], default="both")
    args = ap.parse_args(argv)
    files = T.corpus_files(args)
    if not files:
        raise SystemExit(f"no *.json files in {args.data}")
    print(f"kernels: {T.active_kernels()}", file=sys.stderr)
    for direction in (["encode", "decode"] if args.direction == "both" else [args.direction]):
        means = run(direction, files, args.rounds, args.target_ms)
        peer = "ormsgpack+orjson" if direction == "encode" else "orjson+ormsgpack"
        if means.get(peer):
            goal = 3.6 if direction == "encode" else 4.0
            r = means["jetjson"] / means[peer]
            print(f"jetjson vs {peer}: {r:.2f}x (goal {goal}x)" + ("" if r >= goal else "  BELOW GOAL"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
