#!/usr/bin/env python3
"""Benchmark ``jetjson.get`` and ``jetjson.set_path`` on the corpus.

Usage:
    python3 bench/bench_paths.py                 # all corpus files
    python3 bench/bench_paths.py --quick         # a short smoke run
    python3 bench/bench_paths.py --files 'twitter*,canada*' --rounds 30

get: one of the deepest values of each file (its last deepest leaf), by
  jetjson.get(data, pointer), and with validate=False (trusted input)
  orjson.loads(data) then indexing, json.loads(data) then indexing
  simdjson (pysimdjson) Parser().parse(data).at_pointer(pointer), when installed
The peers index with the tokens already split and typed (int for arrays), so
their cost is the parse; jetjson pays for reading the pointer string too.

set_path: the same value replaced by a small JSON text, by
  jetjson.set_path(data, pointer, value_json)  (bytes out, the rest copied as is)
  orjson.dumps(edit(orjson.loads(data)))       (bytes out, re-serialized)
  json.dumps(edit(json.loads(data)))           (str out)

Every result is checked against json before timing. Times are per call, best
and median of the rounds (bench/_timing.py alternates the contenders in one
process); ratios are peer time / jetjson time from the best rounds.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as T  # noqa: E402


def data_dir(arg):
    for d in (arg, T.data_dir()):
        if d and (Path(d) / "corpus").is_dir():
            return Path(d)
    sys.exit("no data dir with corpus/: pass --data or set JETJSON_DATA")


def deepest(doc):
    """(pointer, typed tokens) of the last deepest value."""
    best = ((), 0)
    stack = [((), doc)]
    while stack:
        path, v = stack.pop()
        if len(path) >= best[1]:
            best = (path, len(path))
        if isinstance(v, dict):
            stack.extend((path + (k,), x) for k, x in v.items())
        elif isinstance(v, list):
            stack.extend((path + (i,), x) for i, x in enumerate(v))
    tokens = best[0]
    ptr = "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in tokens)
    return ptr, tokens


def navigate(v, tokens):
    for t in tokens:
        v = v[t]
    return v


def edited(doc, tokens, new):
    if not tokens:
        return new
    navigate(doc, tokens[:-1])[tokens[-1]] = new
    return doc


def contenders_get(ptr, tokens):
    import jetjson
    out = [T.Contender("jetjson", lambda x: jetjson.get(x, ptr)),
           T.Contender("jetjson(validate=False)", lambda x: jetjson.get(x, ptr, validate=False))]
    try:
        import orjson
        out.append(T.Contender("orjson+index", lambda x: navigate(orjson.loads(x), tokens)))
    except ImportError:
        pass
    out.append(T.Contender("json+index", lambda x: navigate(json.loads(x), tokens)))
    try:
        import simdjson
        parser = simdjson.Parser()

        def simd(x):
            v = parser.parse(x).at_pointer(ptr)
            return v.as_dict() if isinstance(v, simdjson.Object) else v.as_list() \
                if isinstance(v, simdjson.Array) else v
        out.append(T.Contender("simdjson.at_pointer", simd))
    except ImportError:
        pass
    return out


VALUE_JSON = b'{"replaced": [1, 2.5, "x"]}'


def contenders_set(ptr, tokens):
    import jetjson
    new = json.loads(VALUE_JSON)
    out = [T.Contender("jetjson", lambda x: jetjson.set_path(x, ptr, VALUE_JSON))]
    try:
        import orjson
        out.append(T.Contender("orjson", lambda x: orjson.dumps(edited(orjson.loads(x), tokens, new))))
    except ImportError:
        pass
    out.append(T.Contender("json", lambda x: json.dumps(edited(json.loads(x), tokens, new))))
    return out


def check(kind, contenders, data, tokens):
    expected = navigate(json.loads(data), tokens) if kind == "get" else \
        edited(json.loads(data), tokens, json.loads(VALUE_JSON))
    ok = []
    for c in contenders:
        got = c.func(bytes(data))
        if kind == "set":
            got = json.loads(got)
        d = T.diff(expected, got, exact=False)
        if d is None:
            ok.append(c)
        else:
            print(f"  {c.name}: differs from json ({d}); not timed")
    return ok


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data")
    ap.add_argument("--files", default="*")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--target-ms", type=float, default=1.0)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    if args.quick:
        args.rounds, args.target_ms = 3, 0.5
    corpus = data_dir(args.data) / "corpus"
    patterns = args.files.split(",")
    files = sorted(p for p in corpus.glob("*.json") if any(fnmatch.fnmatch(p.name, pat) for pat in patterns))
    overhead = T.timer_overhead_ns()
    ratios = {"get": {}, "set": {}}
    for kind, make in (("get", contenders_get), ("set", contenders_set)):
        rows = []
        for path in files:
            data = path.read_bytes()
            ptr, tokens = deepest(json.loads(data))
            cs = check(kind, make(ptr, tokens), data, tokens)
            with T.gc_prepared() as reset:
                samples = T.alternate(cs, lambda: bytes(data), rounds=args.rounds,
                                      target_ns=args.target_ms * 1e6, overhead_ns=overhead, reset=reset)
            base = samples["jetjson"].best_ns
            cells = []
            for c in cs:
                s = samples[c.name]
                ratio = s.best_ns / base
                ratios[kind].setdefault(c.name, []).append(ratio)
                cells.append(f"{c.name} {s.best_ns / 1e3:.1f}/{s.median_ns / 1e3:.1f}us ({ratio:.2f}x)")
            rows.append([path.name, str(len(tokens))] + ["; ".join(cells)])
        print(f"\n{kind}: best/median per call (peer time / jetjson time)")
        print(T.render_table(["file", "depth", "timings"], rows))
        print("geomean of ratios: " + ", ".join(
            f"{name} {T.fmt_ratio(T.geomean(r))}" for name, r in ratios[kind].items() if name != "jetjson"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
