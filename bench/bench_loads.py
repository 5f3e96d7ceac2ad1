#!/usr/bin/env python3
"""Benchmark ``jetjson.loads`` against the other JSON parsers for Python.

Usage:
    python3 bench/bench_loads.py                   # full run, all corpus files
    python3 bench/bench_loads.py --quick           # a short smoke run
    python3 bench/bench_loads.py --files 'twitter*,canada*' --rounds 20
    python3 bench/bench_loads.py --markdown --json out.json
    python3 bench/bench_loads.py --isa avx2            # as on a machine without AVX-512

Every contender parses the same ``bytes`` for each file of the corpus
(``--data DIR``, default ``$JETJSON_DATA`` or ``<repo>/data``; the
files are ``DIR/corpus/*.json``).  Before timing, each contender's result is
compared with ``json.loads``: peers must give the same value with the same
JSON kinds (``1`` is not ``1.0``, ``-0.0`` is not ``0.0``); jetjson must be
exactly equal, Python types and key order included.  A peer that differs is
still timed, but marked ``*`` ("wrong") with the first difference found.

Speeds are in GB/s of input (10**9 bytes per second), from the best round;
the median round is shown too.  See ``bench/_timing.py`` for how rounds are
run: contenders alternate within one process, in an order reversed on every
round; each call gets a fresh copy of the input made outside the timed
region; the parsed result is freed inside it (deallocation is part of every
contender's cost); the garbage collector stays enabled unless ``--gc-off``,
and is reset (``gc.collect()``, untimed) before every batch so that all
contenders pay for the same collections.

Exit status: 0, or 1 when jetjson failed or differed from ``json.loads`` on
some file, or 2 for a usage error.
"""

from __future__ import annotations

import argparse
import fnmatch
import functools
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as T  # noqa: E402

SUBJECT = "jetjson"
REFERENCE = "json"
# Per-file ratios printed after each table, and summarised at the end.
RATIO_PEERS = ("orjson", "json", "fastsimdjson")
DEFAULT_ROUNDS = 150
QUICK_ROUNDS = 5
DEFAULT_TARGET_MS = 2.0
QUICK_TARGET_MS = 1.0


class Skip(Exception):
    """A contender that cannot be benchmarked here; the message says why."""


def _version(mod: Any, dist: Optional[str] = None) -> str:
    v = getattr(mod, "__version__", None)
    if v:
        return str(v)
    try:
        from importlib import metadata
        return metadata.version(dist or mod.__name__)
    except Exception:
        return "?"


def _import(name: str) -> Any:
    import importlib
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise Skip(f"not installed ({e})") from None


# Each loader returns (function taking bytes, version, note) or raises Skip.

def _load_json():
    import json as mod
    from json import decoder
    fast = decoder.c_scanstring is not None
    return mod.loads, f"stdlib {sys.version.split()[0]}", ("C accelerated" if fast else "pure Python")


def _load_orjson():
    mod = _import("orjson")
    return mod.loads, _version(mod), ""


def _load_msgspec():
    mod = _import("msgspec")
    decoder = mod.json.Decoder()
    return decoder.decode, _version(mod), "msgspec.json.Decoder().decode"


def _load_ujson():
    mod = _import("ujson")
    return mod.loads, _version(mod), ""


def _load_simplejson():
    mod = _import("simplejson")
    try:
        from simplejson import _speedups  # noqa: F401
        note = "C speedups"
    except ImportError:
        note = "pure Python (no C speedups)"
    return mod.loads, _version(mod), note


def _load_rapidjson():
    mod = _import("rapidjson")
    return mod.loads, _version(mod, "python-rapidjson"), "python-rapidjson"


def _load_simdjson():
    mod = _import("simdjson")
    parser = mod.Parser()
    # simdjson.loads() builds a new Parser on every call; a reused Parser with
    # recursive=True returns plain dict/list and is the faster way to use it.
    return (functools.partial(parser.parse, recursive=True), _version(mod, "pysimdjson"),
            "pysimdjson: reused Parser().parse(b, recursive=True)")


def _load_cysimdjson():
    mod = _import("cysimdjson")
    parser = mod.JSONParser()
    if not hasattr(mod.JSONObject, "export") or not hasattr(mod.JSONArray, "export"):
        raise Skip("no export() to turn its lazy views into Python objects")
    parse = parser.parse

    # parse() gives lazy JSONObject/JSONArray/JSONElement views; export()
    # converts the whole document to Python objects, as loads does.
    def loads(b):
        return parse(b).export()
    return loads, _version(mod), "reused JSONParser().parse(b).export()"


def _load_jiter():
    mod = _import("jiter")
    return mod.from_json, _version(mod), "from_json, default string cache"


def _load_ssrjson():
    mod = _import("ssrjson")
    return mod.loads, _version(mod), ""


def _load_isojson():
    if sys.version_info < (3, 14):
        raise Skip(f"needs Python >= 3.14 (this is {sys.version.split()[0]})")
    mod = _import("isojson")
    return mod.loads, _version(mod), ""


def _load_fastsimdjson():
    mod = _import("fastsimdjson")
    return mod.loads, _version(mod), ""


def _load_jetjson():
    mod = _import("jetjson")
    note = ""
    try:
        feats = mod.features()
        note = ", ".join(f"{k}={v}" for k, v in feats.items()) if isinstance(feats, dict) else str(feats)
    except Exception as e:
        note = f"features() failed: {e!r}"
    return mod.loads, _version(mod), note


# Order of the rows in every table.  Adding a peer: one line here.
PEERS: list = [
    ("json", _load_json),
    ("orjson", _load_orjson),
    ("msgspec", _load_msgspec),
    ("ujson", _load_ujson),
    ("simplejson", _load_simplejson),
    ("rapidjson", _load_rapidjson),
    ("simdjson", _load_simdjson),
    ("cysimdjson", _load_cysimdjson),
    ("jiter", _load_jiter),
    ("ssrjson", _load_ssrjson),
    ("isojson", _load_isojson),
    ("fastsimdjson", _load_fastsimdjson),
    ("jetjson", _load_jetjson),
]


def default_data_dir() -> Path:
    return T.data_dir()


def find_files(data: Path, patterns: Optional[str]) -> list:
    corpus = data / "corpus"
    folder = corpus if corpus.is_dir() else data
    files = sorted(folder.glob("*.json"))
    if patterns:
        pats = [p.strip() for p in patterns.split(",") if p.strip()]
        files = [f for f in files if any(fnmatch.fnmatch(f.name, p) or fnmatch.fnmatch(f.stem, p)
                                         for p in pats)]
    return files


def load_contenders(selected: Optional[set]) -> tuple:
    """Return ({name: (func, version, note)}, {name: reason})."""
    ready, skipped = {}, {}
    for name, loader in PEERS:
        if selected is not None and name not in selected and name != REFERENCE:
            continue
        try:
            ready[name] = loader()
        except Skip as e:
            skipped[name] = str(e)
        except Exception as e:  # an installed but broken module
            skipped[name] = f"failed to set up: {e!r}"
    return ready, skipped


def check(name: str, func: Callable, data: bytes, expected: Any) -> tuple:
    """(status, reason): status is ok, wrong or error."""
    try:
        got = func(bytes(bytearray(data)))
    except Exception as e:
        msg = str(e).splitlines()[0] if str(e) else ""
        return "error", f"{type(e).__name__}: {msg}"[:160]
    reason = T.diff(expected, got, exact=(name == SUBJECT))
    return ("ok", None) if reason is None else ("wrong", reason)


def _gbps(size: int, ns: Optional[float]) -> Optional[float]:
    return None if not ns else size / ns  # bytes per ns == GB/s


def bench_file(path: Path, contenders: dict, args, overhead_ns: float) -> dict:
    data = path.read_bytes()
    size = len(data)
    expected = json.loads(data)
    status = {}
    for name, (func, _, _) in contenders.items():
        status[name] = ("ok", None) if name == REFERENCE else check(name, func, data, expected)
    del expected

    runnable = [T.Contender(n, contenders[n][0]) for n in contenders if status[n][0] != "error"]

    def make_input(_data=data):
        return bytes(bytearray(_data))

    def progress(done, total):
        if sys.stderr.isatty():
            print(f"\r  {path.name}: round {done}/{total}", end="", file=sys.stderr, flush=True)

    t0 = time.perf_counter()
    with T.gc_prepared(disable=args.gc_off) as reset:
        samples = T.alternate(runnable, make_input, rounds=args.rounds,
                              target_ns=args.target_ms * 1e6, overhead_ns=overhead_ns,
                              reset=reset, progress=progress)
    if sys.stderr.isatty():
        print("\r" + " " * 60 + "\r", end="", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - t0

    results = {}
    for name in contenders:
        st, reason = status[name]
        entry = {"status": st, "reason": reason}
        s = samples.get(name)
        if s is not None:
            entry.update(s.to_dict())
            entry["best_gbps"] = _gbps(size, s.best_ns)
            entry["median_gbps"] = _gbps(size, s.median_ns)
        results[name] = entry
    return {"name": path.name, "bytes": size, "seconds": round(elapsed, 2), "results": results}


def _ratio(res: dict, a: str, b: str) -> Optional[float]:
    ra, rb = res.get(a), res.get(b)
    if not ra or not rb or not ra.get("best_gbps") or not rb.get("best_gbps"):
        return None
    return ra["best_gbps"] / rb["best_gbps"]


def _mark(entry: dict) -> str:
    return "*" if entry["status"] == "wrong" else ""


def print_file_table(fr: dict, rounds: int) -> None:
    res = fr["results"]
    print(f"\n{fr['name']}  ({fr['bytes']:,} bytes, {rounds} rounds, {fr['seconds']:.1f} s)")
    rows, notes = [], []
    fastest = max((e["best_gbps"] for e in res.values() if e.get("best_gbps")), default=None)
    for name, e in res.items():
        if e["status"] == "error":
            rows.append([name, "error", "", "", ""])
            notes.append(f"  {name}: {e['reason']}")
            continue
        mark = _mark(e)
        rel = e["best_gbps"] / fastest if fastest else None
        rows.append([name, T.fmt_num(e["best_gbps"]) + mark, T.fmt_num(e["median_gbps"]),
                     f"{rel:.2f}", e["calls_per_round"]])
        if mark:
            notes.append(f"  * {name} differs from json.loads: {e['reason']}")
    print(T.render_table(["contender", "GB/s best", "GB/s median", "vs fastest", "calls/round"],
                         rows))
    for n in notes:
        print(n)
    parts = []
    for peer in RATIO_PEERS:
        if peer != SUBJECT:
            r = _ratio(res, SUBJECT, peer)
            if r is not None:
                parts.append(f"{SUBJECT}/{peer} {T.fmt_ratio(r)}")
    if parts:
        print("  " + "   ".join(parts))


def summarize(file_results: list, names: list) -> dict:
    summary = {}
    for name in names:
        speeds = [fr["results"][name]["best_gbps"] for fr in file_results
                  if fr["results"].get(name, {}).get("best_gbps")]
        wrong = [fr["name"] for fr in file_results
                 if fr["results"].get(name, {}).get("status") == "wrong"]
        errors = [fr["name"] for fr in file_results
                  if fr["results"].get(name, {}).get("status") == "error"]
        ratios = [_ratio(fr["results"], SUBJECT, name) for fr in file_results]
        ratios = [r for r in ratios if r is not None]
        summary[name] = {
            "geomean_gbps": T.geomean(speeds),
            "files_timed": len(speeds),
            "wrong": wrong,
            "errors": errors,
            "subject_ratio_geomean": T.geomean(ratios) if name != SUBJECT else None,
            "ratio_files": len(ratios),
        }
    return summary


def print_summary(summary: dict, file_results: list, names: list, markdown: bool) -> None:
    nfiles = len(file_results)
    has_subject = SUBJECT in summary and summary[SUBJECT]["files_timed"] > 0
    print(f"\nSummary over {nfiles} file(s): geometric means of the per-file best speeds"
          + (f" and of the per-file {SUBJECT}/peer speed ratios" if has_subject else ""))
    headers = ["contender", "GB/s (geomean)", "files", "wrong", "errors"]
    if has_subject:
        headers.append(f"{SUBJECT} speedup")
    rows = []
    for name in names:
        s = summary[name]
        row = [name, T.fmt_num(s["geomean_gbps"]) + ("*" if s["wrong"] else ""),
               f"{s['files_timed']}/{nfiles}", len(s["wrong"]) or "", len(s["errors"]) or ""]
        if has_subject:
            row.append("" if name == SUBJECT else T.fmt_ratio(s["subject_ratio_geomean"]))
        rows.append(row)
    print()
    print(T.render_table(headers, rows, markdown=markdown))
    if any(summary[n]["wrong"] for n in names):
        print("\n* result differs from json.loads on some files (timed anyway):")
        for n in names:
            if summary[n]["wrong"]:
                print(f"  {n}: {', '.join(summary[n]['wrong'])}")
    if has_subject:
        print()
        for peer in RATIO_PEERS:
            if peer in summary and peer != SUBJECT:
                s = summary[peer]
                print(f"{SUBJECT}/{peer}: {T.fmt_ratio(s['subject_ratio_geomean'])} "
                      f"(geomean over {s['ratio_files']} file(s))")
    if markdown:
        # Per-file matrix for the README: GB/s of each contender on each file.
        print()
        headers = ["file"] + names
        rows = []
        for fr in file_results:
            row = [fr["name"]]
            for n in names:
                e = fr["results"].get(n, {})
                row.append(T.fmt_num(e["best_gbps"]) + _mark(e) if e.get("best_gbps") else "-")
            rows.append(row)
        rows.append(["**geomean**"] + [T.fmt_num(summary[n]["geomean_gbps"])
                                        + ("*" if summary[n]["wrong"] else "") for n in names])
        print(T.render_table(headers, rows, markdown=True))


def parse_args(argv: Optional[list]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        description="Time jetjson.loads against other JSON parsers on the benchmark corpus.")
    ap.add_argument("--data", type=Path, default=None, metavar="DIR",
                    help="data folder holding corpus/*.json (default: $JETJSON_DATA or "
                         "<repo>/data)")
    ap.add_argument("--files", metavar="PATTERN", default=None,
                    help="only files whose name matches this glob (comma-separated globs allowed; "
                         "'.json' may be left out), e.g. 'twitter*,canada'")
    ap.add_argument("--peers", metavar="NAMES", default=None,
                    help="only these contenders, comma-separated (json is always included "
                         "as the reference)")
    ap.add_argument("--rounds", type=int, default=None,
                    help=f"timed rounds per file (default {DEFAULT_ROUNDS}, "
                         f"or {QUICK_ROUNDS} with --quick)")
    ap.add_argument("--target-ms", type=float, default=None,
                    help=f"minimum duration of one contender's batch in a round "
                         f"(default {DEFAULT_TARGET_MS}, or {QUICK_TARGET_MS} with --quick)")
    ap.add_argument("--quick", action="store_true",
                    help="short run: few rounds and short batches")
    ap.add_argument("--gc-off", action="store_true",
                    help="disable the garbage collector while timing (default: enabled, "
                         "as users have it)")
    ap.add_argument("--markdown", action="store_true",
                    help="print the summary (and a file x contender matrix) as Markdown tables")
    ap.add_argument("--json", type=Path, default=None, metavar="OUT",
                    help="write all raw numbers to this JSON file")
    ap.add_argument("--isa", choices=sorted(T.SIMDJSON_KERNELS), default=None,
                    help="run jetjson and the simdjson-based peers (pysimdjson, cysimdjson, "
                         "fastsimdjson) on this ISA's kernels, as on a machine without wider "
                         "vectors (default: each picks its widest)")
    args = ap.parse_args(argv)
    if args.isa:
        T.force_isa(args.isa)
    if args.rounds is None:
        args.rounds = QUICK_ROUNDS if args.quick else DEFAULT_ROUNDS
    if args.target_ms is None:
        args.target_ms = QUICK_TARGET_MS if args.quick else DEFAULT_TARGET_MS
    if args.rounds < 1 or args.target_ms <= 0:
        ap.error("--rounds must be >= 1 and --target-ms > 0")
    return args


def main(argv: Optional[list] = None) -> int:
    args = parse_args(argv)
    data_dir = args.data or default_data_dir()
    files = find_files(data_dir, args.files)
    if not files:
        print(f"error: no JSON files found in {data_dir}"
              + (f" matching {args.files!r}" if args.files else ""), file=sys.stderr)
        return 2
    selected = None
    if args.peers:
        selected = {p.strip() for p in args.peers.split(",") if p.strip()}
        unknown = selected - {n for n, _ in PEERS}
        if unknown:
            print(f"error: unknown contender(s): {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2

    contenders, skipped = load_contenders(selected)
    names = list(contenders)
    overhead = T.timer_overhead_ns()
    env = T.describe_environment()

    print(f"jetjson loads benchmark: Python {env['python']} on {env['cpu']} "
          f"({env['cpu_count']} CPUs)")
    print(f"{len(files)} file(s) from {files[0].parent}; {args.rounds} rounds, batches >= "
          f"{args.target_ms:g} ms; GC {'off' if args.gc_off else 'on, reset before each batch'}; "
          f"clock overhead {overhead:.0f} ns subtracted")
    print(f"kernels: {T.active_kernels()}")
    rows = [[n, v, note] for n, (_, v, note) in contenders.items()]
    print("\nContenders:")
    print(T.render_table(["name", "version", "how it is called / notes"], rows, align="lll"))
    if skipped:
        print("\nSkipped:")
        for n, reason in skipped.items():
            print(f"  {n}: {reason}")
    if SUBJECT not in contenders:
        print(f"\nnote: {SUBJECT} is not importable; timing the peers only.")

    started = time.perf_counter()
    file_results = []
    for path in files:
        fr = bench_file(path, contenders, args, overhead)
        file_results.append(fr)
        print_file_table(fr, args.rounds)
        sys.stdout.flush()

    summary = summarize(file_results, names)
    print_summary(summary, file_results, names, args.markdown)
    total = time.perf_counter() - started
    print(f"\nTotal time: {total:.1f} s")

    if args.json:
        out = {
            "benchmark": "loads",
            "units": {"speed": "GB/s = 1e9 input bytes per second", "time": "ns per call"},
            "settings": {"rounds": args.rounds, "target_ms": args.target_ms,
                         "gc_off": args.gc_off, "quick": args.quick,
                         "timer_overhead_ns": overhead, "data": str(data_dir)},
            "environment": env,
            "contenders": {n: {"version": v, "note": note} for n, (_, v, note) in contenders.items()},
            "skipped": skipped,
            "files": file_results,
            "summary": summary,
            "seconds": round(total, 1),
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
        print(f"Raw numbers written to {args.json}")

    bad = [fr["name"] for fr in file_results
           if fr["results"].get(SUBJECT, {}).get("status") in ("wrong", "error")]
    if bad:
        print(f"\n{SUBJECT} FAILED the correctness check on: {', '.join(bad)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
