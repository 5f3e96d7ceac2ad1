"""Time to raise on invalid input: jetjson against json on a large document whose
error is at its end (the case where finding json's message costs most).

The document is the corpus files in one array, repeated to about --mb megabytes, with
a stray '}' after the last element; each contender raises, and the exceptions are
checked to be the same (msg, pos, lineno, colno) before anything is timed.
Best of --runs, contenders alternating, fresh input object per call."""

import argparse
import json
import os
import time

import jetjson

from _timing import data_dir


def build(mb):
    corpus = os.path.join(data_dir(), "corpus")
    parts = [open(os.path.join(corpus, n), "rb").read()
             for n in ("twitter.json", "citm_catalog.json", "canada.json", "gsoc-2018.json")]
    body = []
    size = 0
    while size < mb * 1_000_000:
        p = parts[len(body) % len(parts)]
        body.append(p)
        size += len(p) + 1
    return b"[" + b",".join(body) + b",}"


def raised(fn, data):
    try:
        fn(data)
    except ValueError as e:
        return e
    raise AssertionError("no error")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mb", type=float, default=17)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    raw = build(args.mb)
    text = raw.decode()
    calls = {
        "loads": jetjson.loads,
        "parse": jetjson.parse,
        "get": lambda d: jetjson.get(d, "/0"),
        "indent": jetjson.indent,
    }
    print(f"document: {len(raw) / 1e6:.1f} MB, error at its end")
    for kind, data in (("bytes", raw), ("str", text)):
        ref = raised(json.loads, data)
        for name, fn in calls.items():
            got = raised(fn, data)
            assert (got.msg, got.pos, got.lineno, got.colno) == (ref.msg, ref.pos, ref.lineno, ref.colno), name
        best = {n: float("inf") for n in ["json", *calls, "valid"]}
        order = ["json", *calls, "valid"]
        for r in range(args.runs):
            for name in (order if r % 2 == 0 else order[::-1]):
                fresh = bytes(bytearray(data)) if kind == "bytes" else "".join([data[:1], data[1:]])
                fn = json.loads if name == "json" else jetjson.valid if name == "valid" else calls[name]
                t = time.perf_counter()
                try:
                    fn(fresh)
                except ValueError:
                    pass
                best[name] = min(best[name], time.perf_counter() - t)
        base = best["json"]
        print(f"{kind:5s} json.loads raises in {base * 1e3:7.1f} ms")
        for name in [*calls, "valid"]:
            print(f"{kind:5s} jetjson.{name:7s} {best[name] * 1e3:7.1f} ms  {best[name] / base:5.2f}x json's time")


if __name__ == "__main__":
    main()
