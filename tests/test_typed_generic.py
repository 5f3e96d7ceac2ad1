"""loads(type=Box[int]): generic dataclasses, TypedDicts and NamedTuples.

Oracle: msgspec (``msgspec.json.decode(data, type=T)`` with the same classes) for the
values, their classes, and the wording and path of errors; on Python 3.12+ the same
classes written with PEP 695's ``class Box[T]`` syntax.
"""

import dataclasses
import json
import sys
import textwrap
from typing import Dict, Generic, List, NamedTuple, Optional, Tuple, TypedDict, TypeVar

import pytest

import jetjson
from conftest import hyp_settings, traced_growth

msgspec = pytest.importorskip("msgspec")

from test_typed import _value_for, type_trees  # noqa: E402
from typed_oracle import assert_like_msgspec  # noqa: E402

T = TypeVar("T")
K = TypeVar("K")
B = TypeVar("B", bound=int)


@dataclasses.dataclass
class Box(Generic[T]):
    item: T
    items: List[T] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Bounded(Generic[B]):
    item: B


class TD(TypedDict, Generic[T]):
    a: T
    b: List[T]


class IntBox(Box[int]):
    pass


@dataclasses.dataclass
class Node(Generic[T]):
    value: T
    next: Optional["Node[T]"] = None


@dataclasses.dataclass
class Pair(Generic[T, K]):
    first: T
    second: Box[K]


@dataclasses.dataclass
class Outer(Generic[T]):
    boxes: Dict[str, Box[List[T]]]


class NT(NamedTuple, Generic[T]):
    x: T
    y: int = 0


CASES = [
    (Box[int], [b'{"item": 1, "items": [2]}', b'{"item": "x"}', b'{"item": 1.5}', b'{}']),
    (Box, [b'{"item": "x", "items": [1, null]}']),
    (Box[str], [b'{"item": "x", "items": ["a", 1]}']),
    (Box[Optional[Box[int]]], [b'{"item": {"item": 1}}', b'{"item": null}', b'{"item": {"item": "x"}}']),
    (Bounded, [b'{"item": 1}', b'{"item": "x"}']),
    (TD[int], [b'{"a": 1, "b": [2]}', b'{"a": "x", "b": []}', b'{"a": 1, "b": ["x"]}']),
    (TD, [b'{"a": "x", "b": [1]}']),
    (IntBox, [b'{"item": 5}', b'{"item": "x"}']),
    (Node[int], [b'{"value": 1, "next": {"value": 2, "next": {"value": "x"}}}', b'{"value": 1}']),
    (Node[str], [b'{"value": "a", "next": {"value": "b"}}']),
    (Pair[int, str], [b'{"first": 1, "second": {"item": "s"}}', b'{"first": 1, "second": {"item": 2}}']),
    (Outer[int], [b'{"boxes": {"k": {"item": [1], "items": [[2]]}}}', b'{"boxes": {"k": {"item": ["x"]}}}']),
    (List[Box[float]], [b'[{"item": 1}, {"item": 1.5}]', b'[{"item": "1"}]']),
    (Tuple[Box[int], Box[str]], [b'[{"item": 1}, {"item": "s"}]', b'[{"item": 1}, {"item": 2}]']),
    (NT[int], [b"[1]", b'["x"]', b"[1, 2]"]),
]


@pytest.mark.parametrize("t,docs", CASES, ids=[repr(t) for t, _ in CASES])
def test_generic_classes_like_msgspec(t, docs):
    for d in docs:
        assert_like_msgspec(d, t)


def test_instances_are_of_the_class():
    got = jetjson.loads(b'{"first": 1, "second": {"item": "s"}}', type=Pair[int, str])
    assert type(got) is Pair and type(got.second) is Box
    assert type(jetjson.loads(b'{"item": 1}', type=IntBox)) is IntBox


def test_each_parametrization_is_its_own():
    assert jetjson.loads(b'{"item": 1}', type=Box[float]).item == 1.0
    assert type(jetjson.loads(b'{"item": 1}', type=Box[float]).item) is float
    assert type(jetjson.loads(b'{"item": 1}', type=Box[int]).item) is int
    with pytest.raises(jetjson.ValidationError):
        jetjson.loads(b'{"item": 1}', type=Box[str])
    dec = jetjson.Decoder(Box[int])
    assert dec.decode(b'{"item": 2}') == Box(2)
    assert list(jetjson.loads_many(b'{"item": 1}\n{"item": 2}', type=Box[int])) == [Box(1), Box(2)]


try:
    from hypothesis import given, strategies as st
except ImportError:  # pragma: no cover
    given = None

if given is not None:
    @hyp_settings(200)
    @given(type_trees, st.data())
    def test_generated_arguments_like_msgspec(t, data):
        # the same random type given to a generic class, in a field and in a list
        value = {"item": _value_for(t, data.draw), "items": [_value_for(t, data.draw)]}
        assert_like_msgspec(json.dumps(value).encode(), Box[t])


PEP695 = """
import dataclasses
from typing import TypedDict

@dataclasses.dataclass
class Box695[T]:
    item: T
    items: list[T] = dataclasses.field(default_factory=list)

class TD695[T](TypedDict):
    a: T

type Pair695[T] = tuple[T, T]
type Tree695[T] = T | list[Tree695[T]]
"""


@pytest.mark.skipif(sys.version_info < (3, 12), reason="PEP 695 syntax is 3.12+")
def test_pep695_generic_classes():
    ns = {}
    exec(textwrap.dedent(PEP695), ns)
    for t, docs in [
        (ns["Box695"][int], [b'{"item": 1, "items": [2]}', b'{"item": "x"}']),
        (ns["TD695"][str], [b'{"a": "x"}', b'{"a": 1}']),
        (ns["Box695"], [b'{"item": "x"}']),
        (ns["Pair695"][int], [b"[1, 2]", b'[1, "x"]', b"[1]"]),
        (List[ns["Pair695"][str]], [b'[["a", "b"]]', b'[["a", 1]]']),
    ]:
        for d in docs:
            assert_like_msgspec(d, t)


@pytest.mark.skipif(sys.version_info < (3, 12), reason="PEP 695 syntax is 3.12+")
def test_pep695_recursive_generic_alias():
    # msgspec recurses without end on this one; the value json.loads gives is the oracle
    ns = {}
    exec(textwrap.dedent(PEP695), ns)
    tree = ns["Tree695"]
    doc = b"[1, [2, [3, []]], 4]"
    assert jetjson.loads(doc, type=tree[int]) == json.loads(doc)
    assert jetjson.loads(b"[[1.5]]", type=tree[float]) == [[1.5]]
    with pytest.raises(jetjson.ValidationError, match=r"^Expected `int \| array`, got `str` - at `\$\[1\]\[0\]`$"):
        jetjson.loads(b'[1, ["x"]]', type=tree[int])


def test_no_leaks():
    def run():
        jetjson.loads(b'{"first": 1, "second": {"item": "s", "items": ["t"]}}', type=Pair[int, str])
        jetjson.loads(b'{"value": 1, "next": {"value": 2}}', type=Node[int])
        try:
            jetjson.loads(b'{"boxes": {"k": {"item": ["x"]}}}', type=Outer[int])
        except jetjson.ValidationError:
            pass

    assert min(traced_growth(run, repeat=300) for _ in range(2)) < 12000
    # One alias object: typing's own subscription cache can be emptied by other
    # tests, and then Box[int] is a new alias that the compiled-type cache keeps.
    alias = Box[int]
    # twice: a first call that compiles (the cache may have been emptied at its size
    # limit by earlier tests) keeps the alias in the cache; the second, a cache hit,
    # also keeps it as the last type looked up
    jetjson.Decoder(alias)
    jetjson.Decoder(alias)
    before = sys.getrefcount(Box), sys.getrefcount(int), sys.getrefcount(alias)
    for _ in range(200):
        jetjson.Decoder(alias)
    assert (sys.getrefcount(Box), sys.getrefcount(int), sys.getrefcount(alias)) == before


def test_fresh_aliases_are_kept_boundedly():
    # A new alias each call (as when typing's cache is emptied) finds the entry of an
    # equal alias compiled before, so the class is not referenced once per call.
    import typing

    start = sys.getrefcount(Box)
    for _ in range(3000):
        for clear in typing._cleanups:
            clear()
        jetjson.Decoder(Box[int])
    assert sys.getrefcount(Box) - start < 10
