"""``python -m jetjson``: the command line (python/jetjson/_cli.py).

Without a command it is a drop-in for ``python -m json.tool``; ``python -m jetjson --help``
lists the commands (format, validate, minify, get, convert, bench, features)."""

from ._cli import build_parser, main, run

__all__ = ["build_parser", "main"]

if __name__ == "__main__":
    run()
