"""Command line: ``python -m jetjson``.

    python -m jetjson --version        print the version
    python -m jetjson features         print jetjson.features() as JSON
    python -m jetjson bench [--quick]  time jetjson against the json module (on the
                                       repository's data/corpus when run from a clone)

Uses only the standard library besides jetjson itself.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Optional


def _version() -> str:
    try:
        from . import __version__
        return str(__version__)
    except ImportError:
        try:
            from importlib import metadata
            return metadata.version("jetjson")
        except Exception:  # noqa: BLE001 - a version string is all we need
            return "unknown"


def _features(args: argparse.Namespace) -> int:
    import jetjson

    print(json.dumps(jetjson.features(), indent=2, sort_keys=True, default=str))
    return 0


def _run_bench(args: argparse.Namespace) -> int:
    from . import _bench

    return _bench.run(args)


def build_parser() -> argparse.ArgumentParser:
    from . import _bench

    parser = argparse.ArgumentParser(
        prog="python -m jetjson",
        description="jetjson: fast, exact JSON for Python.")
    parser.add_argument("--version", action="version", version=f"jetjson {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    bench = sub.add_parser(
        "bench", help="time jetjson against the standard json module",
        description="Time jetjson against the standard json module (and orjson, if installed) "
                    "on three files of the corpus in data/ (run from a clone of the repository, "
                    "or --data DIR), else on documents generated in memory. Needs only the "
                    "standard library.")
    _bench.add_arguments(bench)
    bench.set_defaults(func=_run_bench)

    features = sub.add_parser(
        "features", help="print jetjson.features() as JSON",
        description="Print what this build of jetjson detected and uses, as JSON.")
    features.set_defaults(func=_features)
    return parser


def main(argv: Optional[list] = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        parser.print_help(sys.stderr)
        return 2
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
