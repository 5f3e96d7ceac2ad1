#!/usr/bin/env python3
"""Draw docs/performance.png, the README's chart, from a small results file.

    python3 bench/chart.py                                   # docs/performance.json -> docs/performance.png
    python3 bench/chart.py --loads-json out.json             # the loads panel from a fresh run of
                                                             # bench/bench_loads.py --json out.json
    python3 bench/chart.py --results R.json --out chart.png

The results file (see docs/performance.json) holds the summary figures of
docs/performance.md: the geometric-mean GB/s of every contender for ``loads`` and, per
operation, jetjson's speed over json's and orjson's. The chart has two panels: the
``loads`` speeds of every library, and jetjson's speedup over json and orjson per
operation (log scale; 1x marked). Needs matplotlib (``pip install ".[bench]"``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SUBJECT = "jetjson"


def load_results(path: Path, loads_json: Path | None) -> dict:
    results = json.loads(path.read_text(encoding="utf-8"))
    if loads_json is not None:
        # bench_loads.py --json: {"summary": {name: {"geomean_gbps": ...}}, "contenders":
        # {name: {"version": ...}}, "environment": {...}}
        fresh = json.loads(loads_json.read_text(encoding="utf-8"))
        speeds = {n: s["geomean_gbps"] for n, s in fresh["summary"].items()
                  if s.get("geomean_gbps") and not s.get("wrong")}
        if SUBJECT not in speeds:
            sys.exit(f"{loads_json}: no {SUBJECT} result")
        env = fresh.get("environment", {})
        results["loads"] = {
            "measured": env.get("time", "")[:10],
            "command": "bench/bench_loads.py",
            "files": len(fresh.get("files", [])),
            "kernel": "",
            "geomean_gbps": speeds,
            "versions": {n: c.get("version") for n, c in fresh.get("contenders", {}).items()},
        }
        results["machine"] = env.get("cpu", results.get("machine", ""))
        results["python"] = env.get("python", results.get("python", ""))
        results["operations_source"] = "right: the stored figures"
    return results


def draw(results: dict, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5.2),
                                      gridspec_kw={"width_ratios": [1, 1.15]})
    accent, grey, light = "#d9480f", "#868e96", "#adb5bd"

    # left: loads, GB/s of input (geometric mean over the corpus), slowest at the bottom
    loads = results["loads"]
    names = sorted(loads["geomean_gbps"], key=loads["geomean_gbps"].get)
    speeds = [loads["geomean_gbps"][n] for n in names]
    bars = left.barh(names, speeds, color=[accent if n == SUBJECT else grey for n in names])
    for bar, v in zip(bars, speeds):
        left.text(bar.get_width(), bar.get_y() + bar.get_height() / 2, f" {v:.3g}",
                  va="center", fontsize=8)
    left.set_xlabel("GB/s of JSON input (geometric mean over the corpus; higher is better)")
    title = f"loads, {loads.get('files', '?')} corpus files"
    if loads.get("kernel"):
        title += f", {loads['kernel']}"
    left.set_title(title, fontsize=10)
    left.set_xlim(0, max(speeds) * 1.18)
    left.tick_params(axis="y", labelsize=9)

    # right: jetjson's speedup over json and orjson, per operation
    ops = [o for o in results["operations"] if o.get("vs_orjson") or o.get("vs_json")]
    ops.reverse()  # first operation at the top
    labels = [o["op"] for o in ops]
    y = range(len(ops))
    h = 0.38
    for offset, key, colour, label in ((h / 2, "vs_orjson", accent, "vs orjson"),
                                       (-h / 2, "vs_json", light, "vs json")):
        vals = [o.get(key) for o in ops]
        ys = [i + offset for i, v in zip(y, vals) if v]
        xs = [v for v in vals if v]
        right.barh(ys, xs, height=h, color=colour, label=label)
        for yy, v in zip(ys, xs):
            right.text(v, yy, f" {v:g}x", va="center", fontsize=8)
    right.set_xscale("log")
    right.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}x"))
    right.axvline(1, color="black", linewidth=0.8)
    right.set_yticks(list(y), labels, fontsize=9)
    right.set_xlabel("jetjson's speed / the peer's (log scale; right of 1 = jetjson faster)")
    right.set_title("jetjson against json and orjson, per operation", fontsize=10)
    right.legend(loc="lower right", fontsize=8)
    xmax = max(v for o in ops for v in (o.get("vs_json"), o.get("vs_orjson")) if v)
    right.set_xlim(0.3, xmax * 3)

    peers = results.get("peers", {})
    versions = loads.get("versions") or {}
    vtext = ", ".join(f"{n} {v}" for n, v in sorted(versions.items()) if v and n != SUBJECT) \
        or ", ".join(f"{n} {v}" for n, v in peers.items() if n != "others")
    source = results.get("operations_source")
    fig.suptitle(f"jetjson on {results.get('machine', '?')}, Python {results.get('python', '?')}"
                 f" ({vtext})" + (f"; {source}" if source else ""), fontsize=10)
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", type=Path, default=REPO / "docs" / "performance.json",
                    help="summary figures (default: docs/performance.json)")
    ap.add_argument("--loads-json", type=Path, default=None,
                    help="the output of bench/bench_loads.py --json, for the loads panel")
    ap.add_argument("--out", type=Path, default=REPO / "docs" / "performance.png")
    args = ap.parse_args(argv)
    draw(load_results(args.results, args.loads_json), args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
