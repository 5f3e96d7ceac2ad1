"""Instructions per call of the engine's faces, by callgrind.

Each (call, file) pair runs in its own process under `valgrind --tool=callgrind`, once
with one call and once with three; (three - one) / 2 is what a warm call costs (the
import, the file read and the first call's warm-up cancel out). Deterministic with
PYTHONHASHSEED=0 and a fixed kernel (valgrind runs no AVX-512: use avx2 or below).

    JETJSON_FORCE_ISA=avx2 PYTHONPATH=/path/to/pkg \\
        python3 bench/callgrind_calls.py [--calls loads,parse,valid,lines] [--files ...]
        [--json OUT] [--compare BEFORE.json]

`lines` is the NDJSON validation of `python -m jetjson validate --ndjson`
(jj_validate_lines) on data/ndjson/amazon_cellphones.ndjson, whatever --files says.
With --compare, a markdown table of before -> after (percent) is printed as well.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "data")
FILES = ["twitter.json", "canada.json", "citm_catalog.json"]
NDJSON = os.path.join(DATA, "ndjson", "amazon_cellphones.ndjson")

#: the statement each call runs on `data` (bytes of the file)
CALLS = {
    "loads": "jetjson.loads(data)",
    "parse": "jetjson.parse(data)",
    "valid": "jetjson.valid(data)",
    "lines": "native._tool_validate_lines(data)",
}

_PROGRAM = """
import sys, jetjson
from jetjson import _cli
native = _cli._native()
with open(sys.argv[1], "rb") as f:
    data = f.read()
for _ in range(int(sys.argv[2])):
    r = {stmt}
    del r
"""


def _instructions(python, stmt, path, calls):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, python, "-c",
               _PROGRAM.format(stmt=stmt), path, str(calls)]
        env = dict(os.environ, PYTHONHASHSEED="0")
        subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            for line in f:
                m = re.match(r"(?:summary|totals):\s+(\d+)", line)
                if m:
                    return int(m.group(1))
    raise RuntimeError("no totals in callgrind output")


def measure(python, call, path):
    one = _instructions(python, CALLS[call], path, 1)
    three = _instructions(python, CALLS[call], path, 3)
    return (three - one) / 2


def _table(before, after):
    files = sorted({f for c in after.values() for f in c}, key=lambda f: (FILES.index(f) if f in FILES else len(FILES), f))
    rows = ["| call | " + " | ".join(f.replace(".json", "") for f in files) + " |",
            "|:---|" + "---:|" * len(files)]
    for call, per_file in after.items():
        cells = []
        for f in files:
            if f not in per_file:
                cells.append("")
                continue
            a = per_file[f]
            b = before.get(call, {}).get(f)
            if b is None:
                cells.append(f"{a / 1e6:.3f}M")
            else:
                cells.append(f"{b / 1e6:.3f}M -> {a / 1e6:.3f}M ({(a - b) / b * 100:+.1f}%)")
        rows.append(f"| `{call}` | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", default="loads,parse,valid,lines")
    ap.add_argument("--files", default=",".join(FILES))
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--json", help="write the counts here")
    ap.add_argument("--compare", help="counts of an earlier run (--json) to compare with")
    args = ap.parse_args()
    if not os.environ.get("JETJSON_FORCE_ISA"):
        print("note: JETJSON_FORCE_ISA is not set; the counts depend on the kernel picked", file=sys.stderr)
    results = {}
    for call in args.calls.split(","):
        paths = [NDJSON] if call == "lines" else [os.path.join(DATA, "corpus", f) for f in args.files.split(",")]
        for path in paths:
            n = measure(args.python, call, path)
            results.setdefault(call, {})[os.path.basename(path)] = n
            print(f"{call:6} {os.path.basename(path):28} {n / 1e6:10.3f}M", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    if args.compare:
        with open(args.compare) as f:
            print(_table(json.load(f), results))


if __name__ == "__main__":
    main()
