"""The command line as users run it: whole processes, median of N runs.

    python bench/bench_cli.py                 # 100 MB JSON, 1000 MB NDJSON, 5 runs
    python bench/bench_cli.py --mb 20 --ndjson-mb 200 --runs 3

1. ``python -m jetjson --indent 4 big.json`` against ``python -m json.tool --indent 4
   big.json``: the outputs are compared byte for byte (the bench stops if they differ),
   then wall time and peak RSS of each process (os.wait4's ru_maxrss: the child alone).
2. ``python -m jetjson validate --ndjson big.ndjson``: wall time and GB/s, with and
   without the interpreter's start (timed as ``python -m jetjson --version``).

The inputs come from bench/gen_cli_data.py (seeded), written to a temporary folder and
deleted afterwards (or kept in --dir). The NDJSON file is the 100 MB block of records
repeated to the size asked for (generating 1 GB in Python would take a minute).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_cli_data  # noqa: E402


def run(cmd: list, out_path: str) -> tuple:
    """(wall seconds, peak RSS in MiB, CPU seconds) of one process, stdout to out_path.
    CPU time (user + system, the child alone) is what one core spent: unlike wall time
    it does not grow when other processes share the machine."""
    with open(out_path, "wb") as out:
        t0 = time.perf_counter()
        child = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - t0
    child.returncode = os.waitstatus_to_exitcode(status)
    err = child.stderr.read() if child.stderr else b""
    if child.returncode not in (0,):
        raise SystemExit(f"{' '.join(cmd)} failed ({child.returncode}): {err.decode(errors='replace')}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime  # Linux: KiB -> MiB


def median_of(cmd: list, out_path: str, runs: int) -> tuple:
    """(median wall, max peak RSS, median CPU seconds) of `runs` processes."""
    walls, rss, cpu = [], [], []
    for _ in range(runs):
        w, r, c = run(cmd, out_path)
        walls.append(w)
        rss.append(r)
        cpu.append(c)
    return statistics.median(walls), max(rss), statistics.median(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=100.0, help="size of the JSON file (MB)")
    ap.add_argument("--ndjson-mb", type=float, default=1000.0, help="size of the NDJSON file (MB)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json-tool-runs", type=int, default=None,
                    help="runs of json.tool (default --runs; it takes ~10 s each)")
    ap.add_argument("--dir", help="keep the generated files here (default: a temporary folder)")
    args = ap.parse_args()
    py = sys.executable
    folder = args.dir or tempfile.mkdtemp(prefix="jetjson-cli-bench-")
    os.makedirs(folder, exist_ok=True)
    try:
        big = os.path.join(folder, f"big-{args.mb:g}MB.json")
        if not os.path.exists(big):
            gen_cli_data.write_json(big, args.mb)
        size = os.path.getsize(big)
        ours_out, theirs_out = os.path.join(folder, "jetjson.out"), os.path.join(folder, "json_tool.out")

        print(f"input: {big}: {size / 1e6:.1f} MB (seeded, bench/gen_cli_data.py)")
        ours = median_of([py, "-m", "jetjson", "--indent", "4", big], ours_out, args.runs)
        theirs = median_of([py, "-m", "json.tool", "--indent", "4", big], theirs_out,
                           args.json_tool_runs or args.runs)
        same = filecmp.cmp(ours_out, theirs_out, shallow=False)
        out_size = os.path.getsize(ours_out)
        print(f"checked: the two outputs are byte for byte the same ({out_size / 1e6:.1f} MB each): {same}")
        if not same:
            raise SystemExit("outputs differ: the bench stops")
        print(f"{'':32} {'wall (median)':>14} {'CPU (median)':>13} {'peak RSS':>12} {'RSS / file':>11}  (RSS in MiB)")
        for name, (wall, rss, cpu) in (("python -m json.tool", theirs), ("python -m jetjson", ours)):
            print(f"{name + ' --indent 4':32} {wall:13.2f}s {cpu:12.2f}s {rss:10.0f}MB {rss * 2**20 / size:10.2f}x")
        print(f"speed-up: {theirs[0] / ours[0]:.1f}x wall, {theirs[2] / ours[2]:.1f}x CPU; memory: {ours[1]:.0f} MB = "
              f"{ours[1] * 2**20 / size:.2f}x the file (json.tool {theirs[1] * 2**20 / size:.2f}x)")
        for path in (ours_out, theirs_out):
            os.remove(path)

        nd = os.path.join(folder, f"big-{args.ndjson_mb:g}MB.ndjson")
        if not os.path.exists(nd):
            block = os.path.join(folder, "block.ndjson")
            gen_cli_data.write_ndjson(block, min(100.0, args.ndjson_mb))
            block_size = os.path.getsize(block)
            with open(nd, "wb") as out, open(block, "rb") as src:
                for _ in range(max(1, round(args.ndjson_mb * 1e6 / block_size))):
                    src.seek(0)
                    shutil.copyfileobj(src, out, 1 << 24)
            os.remove(block)
        nd_size = os.path.getsize(nd)
        start, _, start_cpu = median_of([py, "-m", "jetjson", "--version"], os.devnull, args.runs)
        wall, rss, cpu = median_of([py, "-m", "jetjson", "validate", "--ndjson", nd], os.devnull, args.runs)
        gb = nd_size / 1e9
        net = f"{gb / (wall - start):.2f} GB/s" if wall > 2 * start else "n/a (input too small)"
        net_cpu = f"{gb / (cpu - start_cpu):.2f} GB/s" if cpu > 2 * start_cpu else "n/a (input too small)"
        print(f"\nvalidate --ndjson {gb:.2f} GB, peak RSS {rss:.0f} MiB:")
        print(f"  wall (median): {wall:.2f}s = {gb / wall:.2f} GB/s; without the interpreter's start "
              f"({start:.2f}s): {net}")
        print(f"  CPU time, one core (median): {cpu:.2f}s = {gb / cpu:.2f} GB/s; without the start "
              f"({start_cpu:.2f}s): {net_cpu}")
        try:
            print(f"  (load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
        except OSError:
            pass
    finally:
        if not args.dir:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
