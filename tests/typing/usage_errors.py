"""Wrong uses of jetjson's API: each line with an E comment must be reported by mypy --strict
and by pyright, and no other line (tests/test_typing.py compares the line numbers).
The file is only type-checked, never run.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import jetjson


@dataclasses.dataclass
class Point:
    x: int
    y: int


def wrong_calls() -> None:
    jetjson.loads(123)  # E: an int is not JSON text
    jetjson.loads(b"1", object_hook=5)  # E: the hook must be callable
    jetjson.parse(s=b"1")  # E: s is positional-only
    jetjson.valid(["[1]"])  # E: a list is not JSON text
    jetjson.minify(b"[1]").encode()  # E: bytes, not str
    jetjson.dumps(1, indent=[2])  # E: indent is an int or a str
    jetjson.dump(1, 5)  # E: an int cannot be written to
    jetjson.dumpb(1, option="sort")  # E: options are ints
    jetjson.dumpb(1, 2, 3, 4)  # E: too many arguments
    jetjson.Fragment(1)  # E: contents are bytes or str
    jetjson.get(b"{}", 5)  # E: a pointer is a str
    jetjson.load_file(123)  # E: not a path
    jetjson.loads_many(b"", format="yaml")  # E: not one of the formats
    jetjson.no_such_function()  # E: not exported
    jetjson.OPT_SORT_KEYS + "x"  # E: options are ints


def wrong_results() -> None:
    point: Point = jetjson.loads(b"[1]", type=list[int])  # E: a list[int] is not a Point
    count: int = jetjson.loads("1", type=str)  # E: type=str gives a str
    docs: list[Any] = jetjson.loads_many(b"")  # E: an iterator without threads
    rows: Iterator[Any] = jetjson.parse_many(b"", threads=2)  # E: a list with threads
    jetjson.map_many(len, b"").append("x")  # E: len gives ints
    jetjson.Decoder(Point).decode(b"{}").z  # E: a Point has no z
    label: str = jetjson.dumpb({})  # E: dumpb gives bytes
    text: bytes = jetjson.dumps({})  # E: dumps gives str
    print(point, count, docs, rows, label, text)


class View(jetjson.Object):  # E: the lazy views are final
    pass
