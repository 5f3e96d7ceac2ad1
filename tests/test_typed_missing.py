"""A required field missing from a dataclass, found while the instance's fields are set
(the generic setter) or before any is set (a class with its own __setattr__): the error
against msgspec's for the same dataclass, which field it names included, for every subset
of fields present; nothing leaked, and a custom __setattr__ never sees a half record,
as the class's own constructor never calls it then."""

from __future__ import annotations

import dataclasses
import itertools
import json
import sys
from dataclasses import dataclass, field
from typing import List, Optional

import pytest

import jetjson
from conftest import traced_growth

msgspec = pytest.importorskip("msgspec")
pytestmark = pytest.mark.skipif(sys.version_info < (3, 10), reason="kw_only fields are 3.10+")

SHARED = "a string long enough not to be cached"


@dataclass
class Inner:
    x: int
    y: Optional[str] = None


def mixed(name, **how):
    """A dataclass of required fields among defaulted ones (keyword-only, so that they may
    mix), made the way `how` says (slots, frozen)."""
    return dataclasses.make_dataclass(name, [
        ("a", str, field(default="da")), ("b", int), ("c", List[int], field(default_factory=list)),
        ("d", str), ("e", Optional[Inner], field(default=None)), ("f", Inner),
    ], kw_only=True, **how)


Mixed = mixed("Mixed")
MixedSlots = mixed("MixedSlots", slots=True)
MixedFrozen = mixed("MixedFrozen", frozen=True)


VALUES = {"a": SHARED, "b": 7, "c": [1, 2], "d": SHARED, "e": {"x": 1, "y": SHARED}, "f": {"x": 2}}
SUBSETS = [dict((k, VALUES[k]) for k in keys)
           for n in range(len(VALUES) + 1) for keys in itertools.combinations(VALUES, n)]


def outcome(fn):
    try:
        return "ok", fn()
    except (jetjson.ValidationError, msgspec.ValidationError) as e:
        return "error", str(e)


@pytest.mark.parametrize("cls", [Mixed, MixedSlots, MixedFrozen], ids=lambda c: c.__name__)
def test_missing_fields_like_msgspec(cls):
    for doc in SUBSETS:
        raw = json.dumps(doc).encode()
        want = outcome(lambda: msgspec.json.decode(raw, type=cls))
        assert outcome(lambda: jetjson.loads(raw, type=cls)) == want, raw
        # as a stream's second document
        want_lines = outcome(lambda: msgspec.json.Decoder(cls).decode_lines(
            json.dumps(VALUES).encode() + b"\n" + raw + b"\n"))
        got_lines = outcome(lambda: list(jetjson.loads_many(json.dumps(VALUES).encode() + b"\n" + raw + b"\n",
                                                           type=cls)))
        assert got_lines[0] == want_lines[0], raw
        if want_lines[0] == "ok":
            assert got_lines == want_lines
        else:  # the document's number first, then the field msgspec names
            assert want[1].split(" - at ")[0] in got_lines[1] and "$[1]" in got_lines[1], (raw, got_lines)


def test_own_setattr_sees_no_half_record():
    seen = []

    @dataclass(kw_only=True)
    class Spied:
        a: int = 0
        b: int
        c: int

        def __setattr__(self, name, value):
            seen.append(name)
            object.__setattr__(self, name, value)

    for doc in SUBSETS:
        keys = [k for k in ("b", "c") if k in doc]
        raw = json.dumps({k: 1 for k in keys} | ({"a": 3} if "a" in doc else {})).encode()
        seen.clear()
        try:
            Spied(**json.loads(raw))
            want = list(seen)
        except TypeError:
            want = None
        seen.clear()
        try:
            jetjson.loads(raw, type=Spied)
            got = list(seen)
        except jetjson.ValidationError:
            got = None
        assert got == want, raw


def test_missing_fields_leak_nothing():
    docs = [json.dumps(d).encode() for d in SUBSETS]
    before = [sys.getrefcount(raw) for raw in docs]

    def run():
        for raw in docs:
            for cls in (Mixed, MixedSlots, MixedFrozen):
                try:
                    jetjson.loads(raw, type=cls)
                except jetjson.ValidationError:
                    pass

    growth = traced_growth(run, 50)
    assert growth < 64 * 1024, growth
    assert [sys.getrefcount(raw) for raw in docs] == before
