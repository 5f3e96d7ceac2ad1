#!/usr/bin/env python3
"""Benchmark typed decoding, ``jetjson.loads(data, type=T)``, on the seed's three cases.

Usage:
    python3 bench/bench_typed.py [--rounds 15] [--data DIR] [--case twitter,citm,gh,ndjson] [--cpu]

Cases:
  twitter  twitter.json as a dataclass of its statuses: six fields of each status and
           four of its user, the rest skipped.
  citm     citm_catalog.json typed in full (dicts of dataclasses, nested lists).
  gh       GitHub events as NDJSON (github_events.json's 30 events, one per line,
           repeated to about 2 MB), six fields of each event; one call per line.
  ndjson   the same lines as one NDJSON buffer: jetjson.loads_many(buf, type=T) against
           msgspec.json.Decoder(T).decode_lines(buf) (dataclass and Struct) and a
           Decoder(T).decode call per line (after splitting the buffer), for both.

Contenders (those installed): jetjson loads(type=T) and Decoder(T).decode, msgspec with
the same dataclasses (``msgspec.json.Decoder(T)``) and with the equivalent Structs,
pydantic ``TypeAdapter(T).validate_json``, orjson.loads followed by the dataclasses built
by a small recursive converter (what cattrs does), and untyped jetjson.loads; on Python
3.10+ also jetjson and msgspec with the same classes made ``dataclass(slots=True)``
(``to_slots``), whose ratios to msgspec's Structs and slots dataclasses are printed too. Every
contender's result is checked against msgspec's before timing. Timing follows
bench/_timing.py: one process, interleaved rounds in rotating order, a fresh input copy
per call, best of the rounds.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as T  # noqa: E402


# ---- the types --------------------------------------------------------------------------

@dataclass
class TwUser:
    id: int
    screen_name: str
    followers_count: int
    location: str


@dataclass
class TwStatus:
    id: int
    text: str
    user: TwUser
    retweet_count: int
    favorite_count: int
    lang: str
    in_reply_to_status_id: Optional[int] = None


@dataclass
class Twitter:
    statuses: List[TwStatus]


sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from typed_corpus_types import CitmArea, CitmEvent, CitmPerformance, CitmPrice, CitmSeatCategory  # noqa: E402


@dataclass
class Citm:
    areaNames: Dict[str, str]
    audienceSubCategoryNames: Dict[str, str]
    blockNames: Dict[str, str]
    events: Dict[str, CitmEvent]
    performances: List[CitmPerformance]
    seatCategoryNames: Dict[str, str]
    subTopicNames: Dict[str, str]
    subjectNames: Dict[str, str]
    topicNames: Dict[str, str]
    topicSubTopics: Dict[str, List[int]]
    venueNames: Dict[str, str]


@dataclass
class GhActor:
    id: int
    login: str


@dataclass
class GhRepo:
    id: int
    name: str


@dataclass
class GhEvent:
    id: str
    type: str
    actor: GhActor
    repo: GhRepo
    public: bool
    created_at: str


# ---- peers' spellings of the same types -------------------------------------------------------

def rebuild(t, made, make_class):
    """The type tree t with each dataclass replaced by make_class(dataclass, fields), its
    fields given as (name, type) or (name, type, default) over rebuilt types."""
    if dataclasses.is_dataclass(t):
        if t not in made:
            hints = typing.get_type_hints(t)
            fields = []
            for f in dataclasses.fields(t):
                ft = rebuild(hints[f.name], made, make_class)
                fields.append((f.name, ft) if f.default is dataclasses.MISSING else (f.name, ft, f.default))
            made[t] = make_class(t, fields)
        return made[t]
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is None:
        return t
    new_args = tuple(rebuild(a, made, make_class) for a in args)
    if origin is typing.Union:
        return typing.Union[new_args]
    return {list: List, dict: Dict}[origin][new_args]


def to_struct(t, made):
    """The msgspec.Struct equivalent of a dataclass type tree."""
    import msgspec
    return rebuild(t, made, lambda cls, fields: msgspec.defstruct(cls.__name__ + "Struct", fields))


def to_slots(t, made):
    """The same dataclass type tree with slots=True classes (Python 3.10+)."""
    return rebuild(t, made, lambda cls, fields: dataclasses.make_dataclass(cls.__name__ + "Slots", fields, slots=True))


def converter(t, made=None):
    """A function turning orjson's plain objects into the dataclasses of t, as
    cattrs.structure does (the type inspected once, here, not per value)."""
    made = {} if made is None else made
    if t in made:
        return lambda v: made[t](v)
    if dataclasses.is_dataclass(t):
        made[t] = None
        hints = typing.get_type_hints(t)
        fields = [(f.name, converter(hints[f.name], made)) for f in dataclasses.fields(t)]

        def build_dataclass(v, t=t, fields=fields):
            return t(**{name: conv(v[name]) for name, conv in fields if name in v})
        made[t] = build_dataclass
        return build_dataclass
    origin = typing.get_origin(t)
    if origin is list:
        conv = converter(typing.get_args(t)[0], made)
        return lambda v: [conv(x) for x in v]
    if origin is dict:
        conv = converter(typing.get_args(t)[1], made)
        return lambda v: {k: conv(x) for k, x in v.items()}
    if origin is typing.Union:
        conv = converter(typing.get_args(t)[0], made)
        return lambda v: v if v is None else conv(v)

    def check(v, t=t):
        if type(v) is not t and not (t is float and type(v) is int):
            raise TypeError(f"{v!r} is not {t}")
        return v
    return check


def contenders(t, per_line):
    import jetjson
    out = []

    def each(fn):
        return (lambda lines: [fn(x) for x in lines]) if per_line else fn

    def each_loads(typ):
        # loads(x, type=T) called in the loop itself, as a caller writes it: no lambda
        # frame per line, which the peers' bound methods do not pay either
        loads = jetjson.loads
        if per_line:
            return lambda lines: [loads(x, type=typ) for x in lines]
        return lambda b: loads(b, type=typ)

    dec = jetjson.Decoder(t)
    out.append(("jetjson loads(type=)", each_loads(t)))
    out.append(("jetjson Decoder", each(dec.decode)))
    slots = to_slots(t, {}) if sys.version_info >= (3, 10) else None
    if slots is not None:
        out.append(("jetjson slots dataclass", each_loads(slots)))
    try:
        import msgspec
        md = msgspec.json.Decoder(t)
        out.append(("msgspec dataclass", each(md.decode)))
        ms = msgspec.json.Decoder(to_struct(t, {}))
        out.append(("msgspec Struct", each(ms.decode)))
        if slots is not None:
            out.append(("msgspec slots dataclass", each(msgspec.json.Decoder(slots).decode)))
    except ImportError:
        print("msgspec not installed", file=sys.stderr)
    try:
        import pydantic
        ta = pydantic.TypeAdapter(t)
        out.append(("pydantic", each(ta.validate_json)))
    except ImportError:
        print("pydantic not installed", file=sys.stderr)
    try:
        import orjson
        conv = converter(t)
        out.append(("orjson + build", each(lambda b: conv(orjson.loads(b)))))
    except ImportError:
        print("orjson not installed", file=sys.stderr)
    out.append(("jetjson loads (untyped)", each(jetjson.loads)))
    return out


def stream_contenders(t):
    """The ndjson case: one buffer of lines in, the list of typed documents out."""
    import jetjson
    out = [("jetjson loads_many(type=)", lambda b: list(jetjson.loads_many(b, type=t)))]
    slots = to_slots(t, {}) if sys.version_info >= (3, 10) else None
    if slots is not None:
        out.append(("jetjson loads_many slots dataclass", lambda b: list(jetjson.loads_many(b, type=slots))))
    dec = jetjson.Decoder(t)
    out.append(("jetjson Decoder per line", lambda b: [dec.decode(x) for x in b.splitlines()]))
    try:
        import msgspec
        md = msgspec.json.Decoder(t)
        ms = msgspec.json.Decoder(to_struct(t, {}))
        out.append(("msgspec dataclass decode_lines", md.decode_lines))
        out.append(("msgspec Struct decode_lines", ms.decode_lines))
        if slots is not None:
            out.append(("msgspec slots dataclass decode_lines", msgspec.json.Decoder(slots).decode_lines))
        out.append(("msgspec dataclass per line", lambda b: [md.decode(x) for x in b.splitlines()]))
        out.append(("msgspec Struct per line", lambda b: [ms.decode(x) for x in b.splitlines()]))
    except ImportError:
        print("msgspec not installed", file=sys.stderr)
    out.append(("jetjson loads_many (untyped)", lambda b: list(jetjson.loads_many(b))))
    return out


def struct_equal(a, b):
    """A Struct result against the dataclass one, field by field."""
    if dataclasses.is_dataclass(a):
        return all(struct_equal(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    if isinstance(a, list):
        return len(a) == len(b) and all(struct_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(struct_equal(a[k], b[k]) for k in a)
    return a == b and type(a) is type(b)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(T.data_dir()))
    ap.add_argument("--case", default="twitter,citm,gh,ndjson")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--target-ms", type=float, default=5.0)
    ap.add_argument("--cpu", action="store_true",
                    help="time with the thread's CPU clock (time.thread_time_ns) instead of the wall clock: "
                         "steadier on a shared machine, where waiting for a core counts in wall time")
    args = ap.parse_args(argv)
    import time
    clock = time.thread_time_ns if args.cpu else time.perf_counter_ns
    import json
    import msgspec
    corpus = Path(args.data) / "corpus"
    rows = []
    for case in args.case.split(","):
        if case in ("gh", "ndjson"):
            events = json.loads((corpus / "github_events.json").read_bytes())
            lines = [json.dumps(e, ensure_ascii=False).encode() for e in events]
            lines = lines * max(1, 2_000_000 // sum(len(x) for x in lines))
            t, raw, per_line = GhEvent, lines, True
            size = sum(len(x) + 1 for x in lines)
            make_input = lambda: [bytes(bytearray(x)) for x in raw]  # noqa: E731
        if case == "ndjson":
            raw, per_line = b"\n".join(lines) + b"\n", False
            make_input = lambda: bytes(bytearray(raw))  # noqa: E731
        elif case != "gh":
            t = Twitter if case == "twitter" else Citm
            raw = (corpus / ("twitter.json" if case == "twitter" else "citm_catalog.json")).read_bytes()
            per_line, size = False, len(raw)
            make_input = lambda: bytes(bytearray(raw))  # noqa: E731
        cands = stream_contenders(t) if case == "ndjson" else contenders(t, per_line)
        if case == "ndjson":
            expected = msgspec.json.Decoder(t).decode_lines(raw)
        elif per_line:
            expected = [msgspec.json.decode(x, type=t) for x in raw]
        else:
            expected = msgspec.json.decode(raw, type=t)
        for name, fn in cands:
            got = fn(raw)
            if "untyped" in name:
                continue
            if not struct_equal(expected, got):
                print(f"{case}: {name}: wrong result", file=sys.stderr)
                return 1
        overhead = T.timer_overhead_ns(clock=clock)
        with T.gc_prepared() as reset:
            samples = T.alternate([T.Contender(n, f) for n, f in cands], make_input, rounds=args.rounds,
                                  target_ns=args.target_ms * 1e6, overhead_ns=overhead, reset=reset, clock=clock)
        ref_name = cands[0][0]
        ref = samples[ref_name].best_ns
        print(f"\n{case}: {size / 1e6:.2f} MB, {args.rounds} rounds")
        table = []
        for name, s in samples.items():
            table.append((name, f"{s.best_ns / 1e3:.0f}", f"{size / s.best_ns * 1e3:.0f}",
                          f"{s.best_ns / ref:.2f}"))
        print(T.render_table(["contender", "best us", "MB/s", "x jetjson time"], table))
        rows.append((case, ref_name, {n: s.best_ns for n, s in samples.items()}))
    for case, ref_name, r in rows:
        others = ", ".join(f"{n} {r[n] / r[ref_name]:.2f}" for n in r if n != ref_name)
        print(f"\n{case}: {ref_name} is N times as fast as: {others}")
        # the same classes with slots=True, against msgspec's fastest and its own slots
        mine = next((n for n in r if n.startswith("jetjson") and "slots" in n), None)
        if mine:
            peers = ", ".join(f"{n} {r[n] / r[mine]:.2f}" for n in r if n.startswith("msgspec") and
                              ("Struct" in n or "slots" in n) and "per line" not in n)
            print(f"{case}: {mine} is N times as fast as: {peers}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
