"""loads(data, partial=...) against jiter's partial_mode on truncated corpus documents.

Each file of the corpus is cut at 50% and at 99% of its length (inside whatever token
falls there); both libraries must give equal values before anything is timed. Speedups
are jiter's time over jetjson's, best of interleaved rounds.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _timing as T  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    T.corpus_arguments(ap, rounds=15)
    ap.add_argument("--mode", default="on", choices=["on", "trailing-strings"])
    args = ap.parse_args(argv)

    import jetjson
    import jiter

    files = T.corpus_files(args) if args.files else [
        p for p in T.corpus_files(args) if p.name in ("twitter.json", "citm_catalog.json", "canada.json",
                                                      "github_events.json", "gsoc-2018.json")]
    overhead = T.timer_overhead_ns()
    mode = True if args.mode == "on" else args.mode
    rows, ratios = [], []
    for path in files:
        data = path.read_bytes()
        for share in (0.5, 0.99):
            cut = data[:int(len(data) * share)]
            ours = jetjson.loads(cut, partial=mode)
            theirs = jiter.from_json(cut, partial_mode=mode)
            problem = T.diff(theirs, ours, exact=False)
            if problem:
                print(f"{path.name} {share:.0%}: results differ: {problem}", file=sys.stderr)
                continue
            contenders = [
                T.Contender("jetjson", lambda x: jetjson.loads(x, partial=mode)),
                T.Contender("jiter", lambda x: jiter.from_json(x, partial_mode=mode)),
            ]
            with T.gc_prepared() as reset:
                samples = T.alternate(contenders, lambda: bytes(cut), rounds=args.rounds,
                                      target_ns=args.target_ms * 1e6, overhead_ns=overhead, reset=reset)
            best = {n: min(s.per_call_ns) for n, s in samples.items()}
            ratio = best["jiter"] / best["jetjson"]
            ratios.append(ratio)
            rows.append([path.name, f"{share:.0%}", len(cut) // 1024, T.fmt_num(best["jetjson"] / 1e6),
                         T.fmt_num(best["jiter"] / 1e6), T.fmt_ratio(ratio)])
    rows.append(["geomean", "", "", "", "", T.fmt_ratio(T.geomean(ratios))])
    print(T.render_table(["file", "cut", "KB", "jetjson ms", "jiter ms", "speedup"], rows))
    print(f"partial={args.mode!r}; speedup is jiter.from_json(partial_mode) time / jetjson.loads(partial) time, "
          f"best of {args.rounds} interleaved rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
