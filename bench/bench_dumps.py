#!/usr/bin/env python3
"""Benchmark ``jetjson.dumps`` against json.dumps and the other JSON encoders for Python.

Usage:
    python3 bench/bench_dumps.py                   # full run, all corpus files
    python3 bench/bench_dumps.py --quick           # a short smoke run
    python3 bench/bench_dumps.py --files 'twitter*,canada*' --rounds 20

Input: for each corpus file, the objects ``json.loads`` makes of it; every call gets a
freshly parsed copy (made outside the timed region), so no encoder profits from
anything cached on the objects by an earlier call (a str's UTF-8 form, for instance).
All contenders use their default options.

Checking, before timing: jetjson must return exactly json.dumps's str. Peers are
marked ``=`` when their text is json's, ``~`` when it is another spelling of the same
JSON value (compact separators, raw UTF-8, other float text...), ``*`` when the value
differs, and timed all the same.

Speed: GB/s = 10**9 bytes of json.dumps's output (its UTF-8 length) per second, the
same work unit for every contender, from the best round (median shown too). Rounds
alternate the contenders in one process as bench/_timing.py describes.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as T  # noqa: E402

SUBJECT = "jetjson"
REFERENCE = "json"
RATIO_PEERS = ("json", "orjson", "msgspec", "ssrjson")


class Skip(Exception):
    pass


def _import(name: str) -> Any:
    import importlib
    try:
        return importlib.import_module(name)
    except ImportError as e:
        raise Skip(f"not installed ({e})") from None


def _version(mod: Any) -> str:
    v = getattr(mod, "__version__", None)
    if v:
        return str(v)
    try:
        from importlib import metadata
        return metadata.version(mod.__name__)
    except Exception:
        return "?"


def _peer(modname: str, attr: str, note: str = "") -> Callable[[], tuple]:
    def load():
        mod = _import(modname)
        fn = mod
        for part in attr.split("."):
            fn = getattr(fn, part, None)
            if fn is None:
                raise Skip(f"{modname} has no {attr}")
        return fn, _version(mod), note
    return load


def _load_json():
    import json as mod
    from json import encoder
    fast = encoder.c_make_encoder is not None
    return mod.dumps, f"stdlib {sys.version.split()[0]}", ("C accelerated" if fast else "pure Python")


PEERS = [
    ("json", _load_json),
    ("orjson", _peer("orjson", "dumps", "bytes, compact")),
    ("msgspec", _peer("msgspec", "json.encode", "bytes, compact")),
    ("ujson", _peer("ujson", "dumps")),
    ("ssrjson", _peer("ssrjson", "dumps")),
    ("fastsimdjson", _peer("fastsimdjson", "dumps")),
    ("jetjson", _peer("jetjson", "dumps", "str, json's text")),
]


def default_data_dir() -> Path:
    return T.data_dir()


def find_files(data: Path, patterns: Optional[str]) -> list:
    corpus = data / "corpus"
    files = sorted((corpus if corpus.is_dir() else data).glob("*.json"))
    if patterns:
        pats = [p.strip() for p in patterns.split(",") if p.strip()]
        files = [f for f in files if any(fnmatch.fnmatch(f.name, p) or fnmatch.fnmatch(f.stem, p)
                                         for p in pats)]
    return files


def check(func: Callable, data: bytes, expected_text: str) -> tuple:
    """(status, reason): ok (json's text), other (same value), wrong, error."""
    try:
        out = func(json.loads(data))
    except Exception as e:
        return "error", f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:160]
    text = out.decode("utf-8", "surrogatepass") if isinstance(out, (bytes, bytearray)) else out
    if text == expected_text:
        return "ok", None
    try:
        reason = T.diff(json.loads(expected_text), json.loads(text), exact=False)
    except Exception as e:
        return "wrong", f"output not readable by json.loads: {e}"[:160]
    return ("other", "another spelling of the same value") if reason is None else ("wrong", reason)


MARKS = {"ok": "=", "other": "~", "wrong": "*", "error": "!"}


def bench_file(path: Path, contenders: dict, args, overhead_ns: float) -> dict:
    data = path.read_bytes()
    expected_text = json.dumps(json.loads(data))
    size = len(expected_text.encode("utf-8", "surrogatepass"))
    status = {name: check(func, data, expected_text) for name, (func, _, _) in contenders.items()}
    runnable = [T.Contender(n, contenders[n][0]) for n in contenders if status[n][0] != "error"]

    def make_input(_data=data):
        return json.loads(_data)

    t0 = time.perf_counter()
    with T.gc_prepared(disable=args.gc_off) as reset:
        samples = T.alternate(runnable, make_input, rounds=args.rounds,
                              target_ns=args.target_ms * 1e6, overhead_ns=overhead_ns, reset=reset)
    results = {}
    for name in contenders:
        st, reason = status[name]
        entry = {"status": st, "reason": reason}
        s = samples.get(name)
        if s is not None:
            entry.update(s.to_dict())
            entry["best_gbps"] = size / s.best_ns
            entry["median_gbps"] = size / s.median_ns
        results[name] = entry
    return {"name": path.name, "bytes": size, "seconds": round(time.perf_counter() - t0, 2),
            "results": results}


def _ratio(res: dict, a: str, b: str) -> Optional[float]:
    ra, rb = res.get(a, {}), res.get(b, {})
    if not ra.get("best_gbps") or not rb.get("best_gbps"):
        return None
    return ra["best_gbps"] / rb["best_gbps"]


def print_file_table(fr: dict) -> None:
    res = fr["results"]
    print(f"\n{fr['name']}  ({fr['bytes']:,} output bytes, {fr['seconds']:.1f} s)")
    rows, notes = [], []
    for name, e in res.items():
        mark = MARKS[e["status"]]
        if not e.get("best_gbps"):
            rows.append([name, "error", "", "", ""])
        else:
            spread = e["median_gbps"] / e["best_gbps"]
            rows.append([name, T.fmt_num(e["best_gbps"]) + mark, T.fmt_num(e["median_gbps"]),
                         f"{(1 - spread) * 100:.0f}%", e["calls_per_round"]])
        if e["status"] in ("wrong", "error"):
            notes.append(f"  {mark} {name}: {e['reason']}")
    print(T.render_table(["contender", "GB/s best", "GB/s median", "median slower by",
                          "calls/round"], rows))
    for n in notes:
        print(n)
    parts = [f"{SUBJECT}/{p} {T.fmt_ratio(_ratio(res, SUBJECT, p))}" for p in RATIO_PEERS
             if _ratio(res, SUBJECT, p) is not None]
    print("  " + "   ".join(parts))


def summarize(file_results: list, names: list) -> dict:
    out = {}
    for name in names:
        speeds = [fr["results"][name].get("best_gbps") for fr in file_results]
        ratios = [_ratio(fr["results"], SUBJECT, name) for fr in file_results]
        out[name] = {
            "geomean_gbps": T.geomean(speeds),
            "text": sorted({fr["results"][name]["status"] for fr in file_results}),
            "subject_ratio_geomean": T.geomean(ratios) if name != SUBJECT else None,
        }
    return out


def main(argv: Optional[list] = None) -> int:
    ap = argparse.ArgumentParser(description="Time jetjson.dumps against other JSON encoders.")
    ap.add_argument("--data", type=Path, default=None)
    ap.add_argument("--files", default=None, help="comma-separated globs of corpus file names")
    ap.add_argument("--peers", default=None, help="comma-separated contenders (json always runs)")
    ap.add_argument("--rounds", type=int, default=None, help="timed rounds per file (default 40)")
    ap.add_argument("--target-ms", type=float, default=None, help="batch length (default 2)")
    ap.add_argument("--quick", action="store_true", help="5 rounds of 1 ms batches")
    ap.add_argument("--gc-off", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--json", type=Path, default=None, metavar="OUT")
    args = ap.parse_args(argv)
    args.rounds = args.rounds or (5 if args.quick else 40)
    args.target_ms = args.target_ms or (1.0 if args.quick else 2.0)
    files = find_files(args.data or default_data_dir(), args.files)
    if not files:
        print("error: no corpus files found", file=sys.stderr)
        return 2
    selected = {p.strip() for p in args.peers.split(",")} | {REFERENCE, SUBJECT} if args.peers else None
    contenders, skipped = {}, {}
    for name, loader in PEERS:
        if selected is not None and name not in selected:
            continue
        try:
            contenders[name] = loader()
        except Skip as e:
            skipped[name] = str(e)
    env = T.describe_environment()
    print(f"Python {sys.version.split()[0]}; " + ", ".join(f"{n} {v}" for n, (_, v, _) in contenders.items()))
    for n, why in skipped.items():
        print(f"skipped {n}: {why}")
    overhead = T.timer_overhead_ns()
    started = time.perf_counter()
    file_results = []
    for path in files:
        fr = bench_file(path, contenders, args, overhead)
        print_file_table(fr)
        file_results.append(fr)
    names = list(contenders)
    summary = summarize(file_results, names)
    print(f"\nSummary over {len(files)} file(s): geometric means of per-file best speeds and "
          f"of per-file {SUBJECT}/peer ratios (= json's text, ~ same value, * wrong)")
    rows = [[n, T.fmt_num(summary[n]["geomean_gbps"]), "".join(MARKS[s] for s in summary[n]["text"]),
             "" if n == SUBJECT else T.fmt_ratio(summary[n]["subject_ratio_geomean"])] for n in names]
    print(T.render_table(["contender", "GB/s (geomean)", "text", f"{SUBJECT} speedup"], rows,
                         markdown=args.markdown))
    print(f"\nTotal time: {time.perf_counter() - started:.1f} s")
    if args.json:
        args.json.write_text(json.dumps({"benchmark": "dumps", "environment": env,
                                         "settings": vars(args) | {"data": str(args.data),
                                                                   "json": str(args.json)},
                                         "files": file_results, "summary": summary}, indent=1))
    bad = [fr["name"] for fr in file_results if fr["results"].get(SUBJECT, {}).get("status") != "ok"]
    if bad:
        print(f"{SUBJECT} differs from json.dumps on: {', '.join(bad)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
