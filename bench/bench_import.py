"""What `import X` costs a program: jetjson against json, orjson, msgspec (and ssrjson,
ujson, simplejson when installed), in fresh processes.

    python bench/bench_import.py               # 10 processes per library and mode
    python bench/bench_import.py --runs 20

Each run is a new interpreter timing `import X` with -X importtime (the cumulative
microseconds of X's own line: X and every module it imports that was not loaded yet).
The libraries take turns in every round (order reversed each round) and the median of
the runs is reported, with its ratio to jetjson's. Two modes:

* bare: `python -S`, nothing but the interpreter's start-up modules loaded before (what
  X costs at worst; site-packages is put on sys.path by hand);
* site: the interpreter as users start it (site may already have imported modules that
  X needs, such as re or collections, which are then free for X).

Before timing, each library decodes the same document as json in a fresh process (the
check that the thing imported works), and its .py files are compiled once so that no run
pays for compiling (PYTHONDONTWRITEBYTECODE is dropped for that warm-up).
"""

from __future__ import annotations

import argparse
import os
import re
import site
import statistics
import subprocess
import sys
import sysconfig

SUBJECT = "jetjson"
PEERS = ["json", "orjson", "msgspec", "ssrjson", "ujson", "simplejson"]
# what each library is checked with: a call that decodes the sample document
DECODE = {"json": "json.loads", "orjson": "orjson.loads", "msgspec": "msgspec.json.decode",
          "ssrjson": "ssrjson.loads", "ujson": "ujson.loads", "simplejson": "simplejson.loads",
          "jetjson": "jetjson.loads"}
SAMPLE = '{"a": [1, 2.5, "x", null, true], "b": {"c": "\\u00e9"}}'


def import_path() -> str:
    """sys.path entries for a -S interpreter: where this jetjson comes from, then
    site-packages (for the peers)."""
    import jetjson

    here = os.path.dirname(os.path.dirname(os.path.abspath(jetjson.__file__)))
    paths = [here, *site.getsitepackages(), sysconfig.get_paths()["purelib"]]
    return os.pathsep.join(dict.fromkeys(paths))


def run_python(args: list[str], path: str, bytecode: bool = False) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=path)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True, timeout=60)


def prepare(name: str, path: str) -> str | None:
    """None when `name` imports and decodes SAMPLE as json does, else why not."""
    code = (f"import json, {name.split('.')[0]}{', msgspec.json' if name == 'msgspec' else ''}\n"
            f"assert {DECODE[name]}({SAMPLE!r}) == json.loads({SAMPLE!r})\n")
    r = run_python(["-c", code], path, bytecode=True)
    if r.returncode != 0:
        return (r.stderr.strip().splitlines() or ["failed"])[-1]
    return None


def import_us(name: str, path: str, bare: bool) -> int:
    """Cumulative microseconds of `import name` in a fresh interpreter."""
    r = run_python([*(["-S"] if bare else []), "-X", "importtime", "-c", f"import {name}"], path)
    if r.returncode != 0:
        raise SystemExit(f"import {name} failed: {r.stderr}")
    m = re.search(rf"^import time:\s+\d+ \|\s+(\d+) \| {re.escape(name)}$", r.stderr, re.M)
    if not m:  # already imported by site: nothing left to pay
        return 0
    return int(m.group(1))


def modules_added(name: str, path: str) -> int:
    code = f"import sys\nb = set(sys.modules)\nimport {name}\nprint(len(set(sys.modules) - b))"
    return int(run_python(["-S", "-c", code], path).stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=10, help="fresh processes per library and mode")
    args = ap.parse_args()
    path = import_path()
    names = []
    for name in [SUBJECT, *PEERS]:
        problem = prepare(name, path)
        if problem is None:
            names.append(name)
        elif name == SUBJECT:
            raise SystemExit(f"jetjson: {problem}")
        else:
            print(f"# {name}: skipped ({problem})")
    print(f"# checked: each library decodes the sample document as json.loads does; "
          f"{args.runs} fresh processes per library and mode, median; Python {sys.version.split()[0]}")
    for bare in (True, False):
        times: dict[str, list[int]] = {n: [] for n in names}
        for r in range(args.runs):
            for name in names if r % 2 == 0 else reversed(names):
                times[name].append(import_us(name, path, bare))
        medians = {n: statistics.median(t) for n, t in times.items()}
        mode = "bare (python -S)" if bare else "site (python)"
        print(f"\nimport time, {mode}")
        print(f"{'library':<12}{'median ms':>10}{'min ms':>9}{'modules':>9}{'vs jetjson':>12}")
        for name in names:
            ratio = medians[name] / medians[SUBJECT] if medians[SUBJECT] else float("inf")
            added = modules_added(name, path) if bare else ""
            print(f"{name:<12}{medians[name] / 1000:>10.2f}{min(times[name]) / 1000:>9.2f}{added!s:>9}"
                  f"{ratio:>11.1f}x")


if __name__ == "__main__":
    main()
