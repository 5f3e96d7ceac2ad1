"""loads(type=) fast paths of issue 18's citm/gh work, against msgspec as the oracle:
empty lists built without descending into them (citm's blockIds), in every place a list
type may stand (a field, an item, a dict value, a union member, under constraints that
an empty list breaks, and beside the kinds of arrays that are not lists); and the
keywords of loads(type=), read without PyUnicode_CompareWithASCIIString."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from dataclasses import dataclass, field
from typing import Annotated, Dict, FrozenSet, List, Optional, Set, Tuple, Union

import pytest

import jetjson
from conftest import hyp_settings, traced_growth

msgspec = pytest.importorskip("msgspec")

try:
    from hypothesis import given, strategies as st
except ImportError:  # pragma: no cover
    given = None


@dataclass
class Area:
    areaId: int
    blockIds: List[int]


@dataclass
class Seats:
    areas: List[Area]
    ids: Optional[List[int]] = None
    tags: List[str] = field(default_factory=list)


TYPES = [
    List[int],
    List[List[int]],
    Dict[str, List[int]],
    Optional[List[int]],
    Union[List[int], int],
    Union[List[str], str, None],
    Tuple[int, ...],
    Set[int],
    FrozenSet[int],
    Tuple[()],
    Annotated[List[int], msgspec.Meta(min_length=1)],
    List[Annotated[List[int], msgspec.Meta(min_length=1)]],
    Optional[Annotated[List[int], msgspec.Meta(min_length=1)]],  # the member's bound on the union
    Union[Annotated[List[str], msgspec.Meta(max_length=0)], int],
    Area,
    Seats,
    List[Area],
    Dict[str, Seats],
]

DOCS = [
    b"[]", b" [ ] ", b"[[]]", b"[[], [1], []]", b"[[[]]]", b'{"a": []}', b'{"a": [], "b": [1, 2]}',
    b'{"areaId": 1, "blockIds": []}', b'{"blockIds": [], "areaId": 2}', b'{"areaId": 1, "blockIds": [7, 8]}',
    b'{"areas": [], "ids": []}', b'{"areas": [{"areaId": 1, "blockIds": []}], "ids": null, "tags": []}',
    b'[{"areaId": 1, "blockIds": []}, {"areaId": 2, "blockIds": [3]}]',
    b'{"x": {"areas": [{"areaId": 5, "blockIds": []}], "tags": []}}',
    b'{"areaId": 1, "blockIds": {}}', b'{"areaId": 1, "blockIds": [[]]}', b"null", b"3", b'"s"', b"{}",
]


def oracle(doc, t):
    try:
        return ("ok", msgspec.json.decode(doc, type=t))
    except msgspec.ValidationError as e:
        return ("error", str(e))


def ours(doc, t):
    try:
        return ("ok", jetjson.loads(doc, type=t))
    except jetjson.ValidationError as e:
        return ("error", str(e))


def same(a, b):
    """Equal, with the same types all the way down (a [] is not a () or a set())."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if hasattr(a, "__dataclass_fields__"):
        return all(same(getattr(a, k), getattr(b, k)) for k in a.__dataclass_fields__)
    return a == b


@pytest.mark.parametrize("t", TYPES, ids=repr)
@pytest.mark.parametrize("doc", DOCS)
def test_empty_lists_like_msgspec(t, doc):
    want, got = oracle(doc, t), ours(doc, t)
    assert want[0] == got[0], (want, got)
    if want[0] == "ok":
        assert same(want[1], got[1]), (want, got)
    else:
        assert want[1] == got[1]


def test_each_empty_list_is_a_new_list():
    first, second = jetjson.loads(b"[[], []]", type=List[List[int]])
    assert first == [] and second == [] and first is not second
    first.append(1)
    assert second == []


def test_empty_lists_deep_under_the_recursion_limit():
    depth = 50
    t = int
    for _ in range(depth):
        t = List[t]
    doc = b"[" * depth + b"]" * depth
    assert jetjson.loads(doc, type=t) == json.loads(doc)


def test_citm_areas_like_msgspec(data_dir):
    from typed_corpus_types import CitmPerformance

    raw = (Path(data_dir) / "corpus" / "citm_catalog.json").read_bytes()
    t = Dict[str, List[CitmPerformance]]
    doc = b'{"p": ' + json.dumps(json.loads(raw)["performances"]).encode() + b"}"
    want = msgspec.json.decode(doc, type=t)
    got = jetjson.loads(doc, type=t)
    assert same(want, got)
    assert sum(not a.blockIds for p in got["p"] for s in p.seatCategories for a in s.areas) > 1000


if given is not None:
    ints = st.integers(-(2**70), 2**70)
    lists = st.recursive(st.lists(ints, max_size=3), lambda inner: st.lists(inner, max_size=3), max_leaves=12)

    @hyp_settings(300)
    @given(lists)
    def test_generated_nested_lists_like_msgspec(value):
        doc = json.dumps(value).encode()
        depth, v = 1, value
        while isinstance(v, list) and v and isinstance(v[0], list):
            depth, v = depth + 1, v[0]
        for levels in (depth, depth + 1):
            t = int
            for _ in range(levels):
                t = List[t]
            want, got = oracle(doc, t), ours(doc, t)
            assert want[0] == got[0], (doc, want, got)
            if want[0] == "ok":
                assert same(want[1], got[1])


def test_no_leaks_and_references_kept():
    docs = [b'{"areaId": 1, "blockIds": []}', b'[{"areaId": 1, "blockIds": []}, {"areaId": 2, "blockIds": []}]',
            b'{"areaId": 1, "blockIds": [[]]}', b"[[], [], [[]]]"]
    types = [Area, List[Area], Area, List[List[int]]]
    before = [sys.getrefcount(d) for d in docs]

    def run():
        for d, t in zip(docs, types):
            try:
                jetjson.loads(d, type=t)
            except jetjson.ValidationError:
                pass

    kept = [jetjson.loads(docs[1], type=List[Area]) for _ in range(200)]
    assert all(a.blockIds == [] for r in kept for a in r)
    del kept
    assert [sys.getrefcount(d) for d in docs] == before
    assert min(traced_growth(run, repeat=200) for _ in range(2)) < 8000


# ---- the keywords of loads(type=) ----------------------------------------------------------------

@dataclass
class Named:
    user_id: int
    display_name: str = ""


def test_keywords_read_like_msgspec():
    doc = b'{"userId": 3, "displayName": "x"}'
    want = msgspec.json.decode(doc, type=msgspec.defstruct("N", [("user_id", int), ("display_name", str, "")],
                                                              rename="camel"))
    got = jetjson.loads(doc, type=Named, rename="camel")
    assert (got.user_id, got.display_name) == (want.user_id, want.display_name)
    with pytest.raises(jetjson.ValidationError) as ours_err:
        jetjson.loads(b'{"user_id": 1, "other": 2}', type=Named, forbid_unknown_fields=True)
    with pytest.raises(msgspec.ValidationError) as theirs:
        msgspec.json.decode(b'{"user_id": 1, "other": 2}',
                            type=msgspec.defstruct("N", [("user_id", int), ("display_name", str, "")],
                                                   forbid_unknown_fields=True))
    assert str(ours_err.value) == str(theirs.value)
    assert jetjson.loads(b'{"user_id": 1, "other": 2}', type=Named, forbid_unknown_fields=False) == Named(1)
    # the order of the keywords does not matter
    kw = {"forbid_unknown_fields": False, "rename": None, "type": Named}
    assert jetjson.loads(b'{"user_id": 1}', **kw) == Named(1)
    assert jetjson.loads(b'{"user_id": 1}', **dict(reversed(list(kw.items())))) == Named(1)


@pytest.mark.parametrize("name", ["types", "typ", "Type", "typé", "rename_", "renam", "forbid_unknown_field",
                                  "forbid_unknown_fieldş", "тип"])
def test_keywords_near_the_names_are_refused(name):
    # with type= given, any other keyword is an error naming loads (json's keywords included)
    with pytest.raises(TypeError, match="loads"):
        jetjson.loads(b"1", type=int, **{name: 1})
