"""loads(data, type=T) with forbid_unknown_fields=True, and constraints given as
Annotated metadata (annotated_types' Gt, Ge, Lt, Le, MultipleOf, MinLen, MaxLen, read by
attribute). Oracles: msgspec (Structs with forbid_unknown_fields, msgspec.Meta) for the
values and the wording of each error with its path; pydantic for what is accepted."""

from dataclasses import dataclass, field
from typing import Annotated, Dict, List, Optional, Set, Tuple, TypedDict

import pytest

import jetjson
from typed_oracle import outcome

msgspec = pytest.importorskip("msgspec")


# ---- forbid_unknown_fields ------------------------------------------------------------------

@dataclass
class Inner:
    a: int


@dataclass
class Outer:
    inner: Inner
    items: List[Inner] = field(default_factory=list)


class InnerTD(TypedDict):
    a: int


def test_forbid_unknown_fields_like_msgspec_structs():
    InnerS = msgspec.defstruct("InnerS", [("a", int)], forbid_unknown_fields=True)
    OuterS = msgspec.defstruct("OuterS", [("inner", InnerS), ("items", List[InnerS], [])],
                               forbid_unknown_fields=True)
    docs = [b'{"inner": {"a": 1}}', b'{"inner": {"a": 1}, "x": 1}', b'{"inner": {"a": 1, "zz": [1, {}]}}',
            b'{"inner": {"a": 1}, "items": [{"a": 2}, {"q": 1, "a": "x"}]}',
            b'{"inner": {"a": "x", "b": 1}}', b'{"inner": {"\\u0062": 1, "a": 1}}',
            b'{"inner": {"a": 1}, "x": NaN}']
    dec = jetjson.Decoder(Outer, forbid_unknown_fields=True)
    for d in docs:
        exp = outcome(msgspec.json.decode, d.replace(b"NaN", b"1"), OuterS)
        for got in (outcome(lambda x, type: jetjson.loads(x, type=type, forbid_unknown_fields=True), d, Outer),
                    outcome(lambda x, type: dec.decode(x), d, Outer)):
            assert got[0] == exp[0], d
            if got[0] == "ok":
                assert msgspec.json.encode(got[1]) == msgspec.json.encode(exp[1])
            else:
                assert got[1] == exp[1], d
    # off by default, and TypedDicts too
    assert jetjson.loads(b'{"a": 1, "b": 2}', type=InnerTD) == {"a": 1}
    with pytest.raises(jetjson.ValidationError, match=r"^Object contains unknown field `b` - at `\$\[0\]`$"):
        jetjson.loads(b'[{"a": 1, "b": 2}]', type=List[InnerTD], forbid_unknown_fields=True)
    assert jetjson.loads(b'{"b": 2}', type=Dict[str, int], forbid_unknown_fields=True) == {"b": 2}
    with pytest.raises(TypeError):
        jetjson.loads(b"{}", type=InnerTD, object_hook=dict)


# ---- constraints (Annotated metadata read by attribute) -------------------------------------

try:
    import annotated_types
except ImportError:  # pragma: no cover
    annotated_types = None
needs_annotated_types = pytest.mark.skipif(annotated_types is None, reason="annotated_types not installed")

CONSTRAINT_CASES = [] if annotated_types is None else [
    # (annotated_types metadata, the same as msgspec.Meta keywords, base type, documents)
    ([annotated_types.Gt(0)], dict(gt=0), int, [b"1", b"0", b"-5", b"99999999999999999999999"]),
    ([annotated_types.Ge(0)], dict(ge=0), int, [b"0", b"-1", b"-99999999999999999999999"]),
    ([annotated_types.Lt(5)], dict(lt=5), int, [b"4", b"5"]),
    ([annotated_types.Le(5)], dict(le=5), int, [b"5", b"6", b"99999999999999999999999"]),
    ([annotated_types.MultipleOf(3)], dict(multiple_of=3), int, [b"9", b"4", b"-6", b"300000000000000000000000"]),
    ([annotated_types.Gt(1), annotated_types.Lt(5)], dict(gt=1, lt=5), int, [b"3", b"1", b"7"]),
    ([annotated_types.Interval(ge=0, le=5)], dict(ge=0, le=5), int, [b"0", b"9", b"-1"]),
    ([annotated_types.Gt(0)], dict(gt=0), float, [b"0.5", b"0", b"-1.5", b"1"]),
    ([annotated_types.Ge(0.5)], dict(ge=0.5), float, [b"0.5", b"0"]),
    ([annotated_types.Lt(1)], dict(lt=1), float, [b"0.99", b"2"]),
    ([annotated_types.Le(1e20)], dict(le=1e20), float, [b"1e21"]),
    ([annotated_types.MultipleOf(0.5)], dict(multiple_of=0.5), float, [b"1.5", b"0.7"]),
    ([annotated_types.MinLen(2)], dict(min_length=2), str, [b'"ab"', b'"a"', b'"\\u00e9\\u00e9"', b'"\\u00e9"']),
    ([annotated_types.MaxLen(2)], dict(max_length=2), str, [b'"ab"', b'"abc"']),
    ([annotated_types.Len(1, 2)], dict(min_length=1, max_length=2), List[int], [b"[]", b"[1]", b"[1, 2, 3]"]),
    ([annotated_types.MinLen(2)], dict(min_length=2), List[int], [b"[1]", b"[1, 2]"]),
    ([annotated_types.MaxLen(1)], dict(max_length=1), Set[int], [b"[1, 2]", b"[1, 1]"]),
    ([annotated_types.MaxLen(1)], dict(max_length=1), Tuple[int, ...], [b"[1, 2]"]),
    ([annotated_types.MaxLen(1)], dict(max_length=1), Dict[str, int], [b'{"a": 1, "b": 2}', b'{"a": 1}']),
    ([annotated_types.MaxLen(1)], dict(max_length=1), bytes, [b'"AAE="', b'"AA=="']),
]


@needs_annotated_types
@pytest.mark.parametrize("meta,kw,base,docs", CONSTRAINT_CASES,
                         ids=[f"{c[2]}-{c[1]}" for c in CONSTRAINT_CASES])
def test_constraints(meta, kw, base, docs):
    pydantic = pytest.importorskip("pydantic")
    ours = Annotated[(base, *meta)]
    theirs = Annotated[base, msgspec.Meta(**kw)]
    adapter = pydantic.TypeAdapter(ours)
    for d in docs:
        got = outcome(jetjson.loads, d, ours)
        # wording: msgspec's Meta constraints; accepting or refusing: pydantic too
        exp = outcome(msgspec.json.decode, d, theirs)
        assert got[:2] == exp[:2] if got[0] == "invalid" else repr(got) == repr(exp), d
        if base is not bytes:
            try:
                adapter.validate_json(d, strict=base is not float)
                accepted = True
            except pydantic.ValidationError:
                accepted = False
            assert accepted == (got[0] == "ok"), d
        # where it sits: in a container, in a union, in a field
        if got[0] == "invalid":
            with pytest.raises(jetjson.ValidationError, match=r" - at `\$\[1\]`$"):
                jetjson.loads(b"[null, " + d + b"]", type=List[Optional[ours]])


@needs_annotated_types
def test_constraints_in_fields_and_errors():
    @dataclass
    class Account:
        id: Annotated[int, annotated_types.Gt(0)]
        name: Annotated[str, annotated_types.MinLen(1), "a note"]
        tags: Annotated[List[str], annotated_types.MaxLen(2)] = field(default_factory=list)

    assert jetjson.loads(b'{"id": 1, "name": "a"}', type=Account) == Account(1, "a")
    with pytest.raises(jetjson.ValidationError, match=r"^Expected `int` >= 1 - at `\$\.id`$"):
        jetjson.loads(b'{"id": 0, "name": "a"}', type=Account)
    with pytest.raises(jetjson.ValidationError, match=r"^Expected `array` of length <= 2 - at `\$\[0\]\.tags`$"):
        jetjson.loads(b'[{"id": 1, "name": "a", "tags": ["a", "b", "c"]}]', type=List[Account])
    with pytest.raises(jetjson.ValidationError, match=r"^Expected `str` of length >= 1 - at `\$\.name`$"):
        jetjson.loads(b'{"id": 1, "name": "", "x": NaN}', type=Account)
    # on a union, as pydantic applies it: to the members it fits (msgspec refuses the type)
    opt = Annotated[Optional[int], annotated_types.Ge(0)]
    assert jetjson.loads(b"[null, 1]", type=List[opt]) == [None, 1]
    with pytest.raises(jetjson.ValidationError, match=r"^Expected `int` >= 0$"):
        jetjson.loads(b"-1", type=opt)
    for bad in (Annotated[bool, annotated_types.MinLen(1)],
                Annotated[int, annotated_types.Gt(1.5)], Annotated[Inner, annotated_types.MaxLen(1)]):
        with pytest.raises((TypeError, ValueError)):
            jetjson.loads(b"1", type=bad)
