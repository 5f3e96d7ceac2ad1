#!/usr/bin/env python3
"""Speed of jetjson's text tools (valid, minify, indent) on the corpus (data/corpus).

For each corpus file and each tool, the contenders are timed in one process in
alternating order (bench/_timing.py): jetjson, orjson's round trip
(``orjson.dumps(orjson.loads(x))``, with ``OPT_INDENT_2`` for indent), json's round trip,
and ``simdjson.minify`` when the installed ``simdjson`` package has one. Results are
checked first: jetjson.valid must be True, jetjson.minify(x) and jetjson.indent(x)
must parse to json.loads(x). Prints GB/s of input per file (best of the rounds) and
the geometric mean of jetjson's speedup over each contender.

Usage: python3 bench/bench_text.py [--files PATTERN] [--rounds N] [--target-ms MS]
"""
import argparse
import fnmatch
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _timing  # noqa: E402

import jetjson  # noqa: E402

try:
    import orjson
except ImportError:  # pragma: no cover
    orjson = None
try:
    import simdjson
except ImportError:  # pragma: no cover
    simdjson = None


def default_data_dir():
    return _timing.data_dir()


def _json_valid(x):
    try:
        json.loads(x)
        return True
    except ValueError:
        return False


def contenders_for(tool):
    """[(name, function)] for one tool; jetjson first."""
    out = []
    if tool == "valid":
        out.append(("jetjson", jetjson.valid))
        if orjson:
            out.append(("orjson", orjson.loads))
        out.append(("json", _json_valid))
    elif tool == "minify":
        out.append(("jetjson", jetjson.minify))
        if orjson:
            out.append(("orjson", lambda x: orjson.dumps(orjson.loads(x))))
        out.append(("json", lambda x: json.dumps(json.loads(x), separators=(",", ":"),
                                                 ensure_ascii=False).encode()))
        if simdjson is not None and hasattr(simdjson, "minify"):
            out.append(("simdjson", simdjson.minify))
    elif tool == "indent":
        out.append(("jetjson", jetjson.indent))
        if orjson:
            out.append(("orjson", lambda x: orjson.dumps(orjson.loads(x),
                                                         option=orjson.OPT_INDENT_2)))
        out.append(("json", lambda x: json.dumps(json.loads(x), indent=2,
                                                 ensure_ascii=False).encode()))
    return out


def check(tool, data):
    expected = json.loads(data)
    if tool == "valid":
        return jetjson.valid(data) is True
    got = jetjson.minify(data) if tool == "minify" else jetjson.indent(data)
    return _timing.diff(expected, json.loads(got), exact=False) is None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=None)
    ap.add_argument("--files", default=None, help="glob on the file names (e.g. 'twitter*')")
    ap.add_argument("--tools", default="valid,minify,indent")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--target-ms", type=float, default=2.0, help="length of one timed batch")
    args = ap.parse_args(argv)

    corpus = (args.data or default_data_dir()) / "corpus"
    files = sorted(p for p in corpus.glob("*.json")
                   if not args.files or fnmatch.fnmatch(p.name, args.files))
    if not files:
        print(f"no corpus files in {corpus}", file=sys.stderr)
        return 1
    env = _timing.describe_environment()
    print(f"jetjson kernel {jetjson.features()['isa']}; python {env['python']}; cpu {env['cpu']}; "
          f"orjson {getattr(orjson, '__version__', 'absent')}; simdjson "
          f"{'minify' if simdjson is not None and hasattr(simdjson, 'minify') else 'absent'}")
    overhead = _timing.timer_overhead_ns()
    for tool in args.tools.split(","):
        contenders = contenders_for(tool)
        names = [n for n, _ in contenders]
        rows, ratios = [], {n: [] for n in names[1:]}
        for path in files:
            data = path.read_bytes()
            if not check(tool, data):
                print(f"{tool}: jetjson WRONG on {path.name}", file=sys.stderr)
                return 1
            with _timing.gc_prepared() as reset:
                samples = _timing.alternate(
                    [_timing.Contender(n, f) for n, f in contenders], lambda d=data: d,
                    rounds=args.rounds, target_ns=args.target_ms * 1e6, overhead_ns=overhead,
                    reset=reset)
            gbps = {n: len(data) / samples[n].best_ns for n in names}
            spread = max(samples["jetjson"].median_ns / samples["jetjson"].best_ns - 1, 0)
            for n in names[1:]:
                ratios[n].append(gbps["jetjson"] / gbps[n])
            rows.append([path.name, f"{len(data) / 1e3:,.0f}"] +
                        [_timing.fmt_num(gbps[n]) for n in names] +
                        [_timing.fmt_ratio(gbps["jetjson"] / gbps[names[1]]), f"{spread:.0%}"])
        headers = ["file", "KB"] + [f"{n} GB/s" for n in names] + [f"vs {names[1]}", "jj noise"]
        print(f"\n== {tool}")
        print(_timing.render_table(headers, rows))
        print("geometric mean speedup of jetjson: " +
              ", ".join(f"{_timing.fmt_ratio(_timing.geomean(r))} vs {n}" for n, r in ratios.items()))
    print("\n(best of the rounds; 'jj noise' = jetjson's median/best - 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
