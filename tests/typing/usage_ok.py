"""Typed uses of jetjson's public API, one or more per function and overload.

mypy --strict and pyright (strict) must accept every line, and every assert_type must
hold for both (tests/test_typing.py). The file also runs: test_typing.py calls main(),
so each call here is checked against what the module really returns.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import tempfile
from collections.abc import Iterator, KeysView, Mapping
from typing import Any, get_origin

from typing_extensions import assert_type

import jetjson


@dataclasses.dataclass
class Point:
    x: int
    y: int


def text_inputs() -> None:
    # every kind of JSON text, untyped: Any, as json.loads
    assert_type(jetjson.loads(b"[1]"), Any)
    assert_type(jetjson.loads("[1]"), Any)
    assert_type(jetjson.loads(bytearray(b"[1]")), Any)
    assert_type(jetjson.loads(memoryview(b"[1]")), Any)
    # json's keywords
    hooked = jetjson.loads(b'{"a": 1.5}', object_hook=dict, parse_float=str, parse_int=int, parse_constant=str)
    assert hooked == {"a": "1.5"}
    pairs = jetjson.loads(b'{"a": 1}', object_pairs_hook=list, cls=json.JSONDecoder)
    assert pairs == [("a", 1)]


def typed_inputs() -> None:
    # type=T gives a T: a class, a generic alias, a dataclass
    assert_type(jetjson.loads(b"[1, 2]", type=list[int]), list[int])
    assert_type(jetjson.loads("7", type=int), int)
    point = jetjson.loads(b'{"x": 1, "y": 2}', type=Point, forbid_unknown_fields=True)
    assert_type(point, Point)
    assert point.x + point.y == 3
    assert_type(jetjson.loads(b'{"a": {"x": 0, "y": 0}}', type=dict[str, Point]), dict[str, Point])
    # other type forms are accepted and give Any
    maybe = jetjson.loads(b"null", type=int | None)
    assert maybe is None
    try:
        jetjson.loads(b'"x"', type=int)
    except jetjson.ValidationError as e:
        assert_type(e, jetjson.ValidationError)
    else:
        raise AssertionError("a str is not an int")


def files(folder: str) -> None:
    path = os.path.join(folder, "doc.json")
    with open(path, "wb") as f:
        f.write(b'{"x": 3, "y": 4}\n{"x": 5, "y": 6}\n')
    assert_type(jetjson.load(io.BytesIO(b"[1]")), Any)
    assert_type(jetjson.load(io.StringIO("[1]")), Any)
    assert_type(jetjson.load(io.BytesIO(b'{"x": 1, "y": 2}'), type=Point), Point)
    with open(path, "rb") as f:
        assert_type(jetjson.loads_many(f), Iterator[Any])
    one = os.path.join(folder, "one.json")
    with open(one, "w", encoding="utf-8") as f:
        f.write('{"x": 1, "y": 2}')
    assert_type(jetjson.load_file(one), Any)
    assert_type(jetjson.load_file(one.encode(), type=Point), Point)
    assert_type(jetjson.parse_file(one), jetjson.Object | jetjson.Array | Any)
    assert_type(jetjson.load_many_file(path), Iterator[Any])
    assert_type(jetjson.load_many_file(path, threads=2), list[Any])
    assert_type(jetjson.parse_many_file(path, format="lines"), Iterator[Any])
    assert_type(jetjson.parse_many_file(path, threads=0), list[Any])


def output() -> None:
    assert_type(jetjson.dumps({"a": 1}, indent=2, sort_keys=True, separators=(",", ":")), str)
    assert_type(jetjson.dumps([1], default=str, ensure_ascii=False), str)
    buf = io.StringIO()
    assert_type(jetjson.dump([1, 2], buf, indent="\t"), None)
    assert_type(jetjson.dumpb({"a": 1}), bytes)
    assert_type(jetjson.dumpb({"a": 1}, default=repr, option=jetjson.OPT_SORT_KEYS | jetjson.OPT_INDENT_2), bytes)
    assert_type(jetjson.dumpb(jetjson.Fragment(b"[1]")), bytes)
    fragment = jetjson.Fragment("{}")
    assert_type(fragment.contents, bytes | str)
    assert_type(jetjson.dumpb_many([{"a": 1}, [2]], option=jetjson.OPT_SORT_KEYS), bytes)
    assert_type(jetjson.canonical({"b": 1, "a": [True, None]}), bytes)
    assert_type(jetjson.canonical_bytes(b'{"b": 1, "a": 2}'), bytes)
    assert_type(jetjson.json_to_msgpack(b"[1]"), bytes)
    assert_type(jetjson.msgpack_to_json(jetjson.json_to_msgpack("[1]", ndjson=True), stream=True), bytes)
    options: list[int] = [
        jetjson.OPT_APPEND_NEWLINE, jetjson.OPT_INDENT_2, jetjson.OPT_NAIVE_UTC, jetjson.OPT_NON_STR_KEYS,
        jetjson.OPT_OMIT_MICROSECONDS, jetjson.OPT_PASSTHROUGH_DATACLASS, jetjson.OPT_PASSTHROUGH_DATETIME,
        jetjson.OPT_PASSTHROUGH_SUBCLASS, jetjson.OPT_SERIALIZE_DATACLASS, jetjson.OPT_SERIALIZE_NUMPY,
        jetjson.OPT_SERIALIZE_UUID, jetjson.OPT_SORT_KEYS, jetjson.OPT_STRICT_INTEGER, jetjson.OPT_UTC_Z,
    ]
    assert all(isinstance(o, int) for o in options)


def views_and_text_tools() -> None:
    doc = jetjson.parse(b'{"a": [1, {"b": 2}]}')
    assert isinstance(doc, jetjson.Object)
    assert_type(doc["a"], Any)
    assert_type(doc.get("zz", 0), Any)
    mapping: Mapping[str, Any] = doc  # an Object is a Mapping (registered as one too)
    assert isinstance(mapping, Mapping) and mapping.get("zz") is None
    assert_type(doc.keys(), KeysView[str])
    assert_type(doc.as_dict(), dict[str, Any])
    assert_type(doc.at_pointer("/a/1/b"), Any)
    assert_type(len(doc), int)
    assert_type("a" in doc, bool)
    items = jetjson.parse("[1, 2, 3]")
    assert isinstance(items, jetjson.Array)
    assert_type(items[0], Any)
    assert_type(items[1:], list[Any])
    assert_type(items.as_list(), list[Any])
    assert_type(items.index(2), int)
    assert_type(items.count(2), int)
    assert_type(jetjson.get(b'{"a": 1}', "/a"), Any)
    assert_type(jetjson.get('{"a": 1}', "/b", None, validate=False), Any)
    assert_type(jetjson.get_many(b'{"a": 1}', ["/a", "/b"], default=0), list[Any])
    assert_type(jetjson.set_path(b'{"a": 1}', "/a", b"2"), bytes)
    assert_type(jetjson.delete_path(b'{"a": 1}', "/a"), bytes)
    assert_type(jetjson.valid(b"[1]"), bool)
    assert_type(jetjson.minify(" [1] "), bytes)
    assert_type(jetjson.indent(b"[1]", indent="  "), bytes)
    assert_type(jetjson.features(), dict[str, Any])
    assert_type(jetjson.release(), None)
    assert_type(jetjson.__version__, str)


def streams() -> None:
    data = b'{"x": 1, "y": 2}\n{"x": 3, "y": 4}\n'
    assert_type(jetjson.loads_many(data), Iterator[Any])
    assert_type(jetjson.loads_many(data.decode(), format="lines", fields=["/x", "/y"], default=0), Iterator[Any])
    assert_type(jetjson.loads_many(data, threads=2, batch_size=1 << 16), list[Any])
    assert_type(jetjson.parse_many(memoryview(data)), Iterator[Any])
    assert_type(jetjson.parse_many(data, format="whitespace", threads=0), list[Any])
    sizes = jetjson.map_many(len, data, drop_none=True, lazy=True)
    assert_type(sizes, list[int])
    assert sizes == [2, 2]
    untyped: jetjson.Decoder[Any] = jetjson.Decoder(format="lines", fields="/x")
    assert_type(untyped.feed(b'{"x": 1}\n{"x": 2}'), list[Any])
    assert_type(untyped.close(), list[Any])
    decoder = jetjson.Decoder(Point)
    assert_type(decoder, jetjson.Decoder[Point])
    assert_type(decoder.decode(b'{"x": 1, "y": 2}'), Point)
    assert_type(jetjson.Decoder(list[int]).decode("[1]"), list[int])
    assert_type(jetjson.Decoder().decode(b"1"), Any)
    assert get_origin(jetjson.Decoder[Point]) is jetjson.Decoder  # subscriptable at run time too
    arrow = jetjson.loads_arrow(io.BytesIO(data), block_size=8)  # a binary file object
    assert_type(arrow, jetjson.ArrowStream)
    assert arrow.num_rows == 2


def errors() -> None:
    try:
        jetjson.loads(b"[1,")
    except jetjson.JSONDecodeError as e:
        assert_type(e, jetjson.JSONDecodeError)
        assert isinstance(e, json.JSONDecodeError) and (e.pos, e.lineno, e.colno) == (3, 1, 4)
    try:
        jetjson.dumpb(object())
    except jetjson.JSONEncodeError as e:
        assert_type(e, TypeError)


def main() -> None:
    text_inputs()
    typed_inputs()
    with tempfile.TemporaryDirectory() as folder:
        files(folder)
    output()
    views_and_text_tools()
    streams()
    errors()


if __name__ == "__main__":
    main()
