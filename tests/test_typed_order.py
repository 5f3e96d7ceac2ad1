"""Dataclass instances whose fields are set while their values are decoded (keys in field
order) or after the last key (a key out of order, a field missing, a key met twice): the
instance must be the one the class's own constructor makes from json.loads' output (the
same fields, values and __dict__ order, init=False fields set or left alone as __init__
does, __post_init__ seeing every field), with the same first missing field named, for
plain, frozen and inheriting dataclasses; nothing leaked on any path."""

from __future__ import annotations

import dataclasses
import json
import pickle
import sys
from dataclasses import dataclass, field
from typing import List, Optional

import pytest

import jetjson
from conftest import hyp_settings, traced_growth

try:
    from hypothesis import given, strategies as st
except ImportError:  # pragma: no cover
    given = None

pytestmark = pytest.mark.skipif(sys.version_info < (3, 10), reason="kw_only fields are 3.10+")

DEFAULT_A = "a default string long enough not to be cached"


@dataclass
class Inner:
    x: int
    y: Optional[str] = None


SPEC = [
    ("a", str, field(default=DEFAULT_A)),
    ("b", int),
    ("c", List[int], field(default_factory=list)),
    ("g", int, field(default=5, init=False)),  # stays on the class: __init__ never sets it
    ("d", str),
    ("h", List[int], field(default_factory=lambda: [9], init=False)),  # set by __init__
    ("e", Optional[Inner], field(default=None)),
    ("f", Inner),
]


def make(name, bases=(), **how):
    cls = dataclasses.make_dataclass(name, SPEC, bases=bases, kw_only=True, **how)
    cls.__module__ = __name__  # found by pickle as this module's global
    return cls


Plain = make("Plain")
Frozen = make("Frozen", frozen=True)


@dataclass(kw_only=True)
class Base:
    base_first: int
    base_opt: str = "bo"


Derived = make("Derived", bases=(Base,))


class Seen:
    """__post_init__ records the instance's __dict__ as it is then."""

    def __post_init__(self):
        self.seen = list(vars(self).items())


Posted = make("Posted", bases=(Seen,))

CLASSES = [Plain, Frozen, Derived, Posted]

VALUES = {"a": "an a value long enough not to be cached", "b": 7, "c": [1, 2], "d": "dd",
          "e": {"x": 1, "y": "why"}, "f": {"x": 2}, "base_first": 11, "base_opt": "given"}
OTHER = {"a": "a", "b": -3, "c": [], "d": "", "e": None, "f": {"x": 0, "y": None},
         "base_first": 0, "base_opt": ""}
UNKNOWN = {"zz": [1, {"q": 2}], "unknown_long_key_name": "skip me"}


def field_names(cls):
    return [f.name for f in dataclasses.fields(cls)]


def by_constructor(cls, pairs):
    """What cls's own constructor makes of the object json.loads reads from `pairs`."""
    doc = json.loads(encode(pairs))
    init = {f.name for f in dataclasses.fields(cls) if f.init}
    kwargs = {k: v for k, v in doc.items() if k in init}
    for k in ("e", "f"):
        if isinstance(kwargs.get(k), dict):
            kwargs[k] = Inner(**kwargs[k])
    missing = [f.name for f in dataclasses.fields(cls) if f.init and f.name not in kwargs
               and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    if missing:
        return "error", missing[0]
    return "ok", cls(**kwargs)


def encode(pairs):
    """An object of these (key, value) pairs in this order, duplicates kept."""
    return "{" + ",".join(json.dumps(k) + ":" + json.dumps(v) for k, v in pairs) + "}"


def by_jetjson(cls, pairs):
    try:
        return "ok", jetjson.loads(encode(pairs).encode(), type=cls)
    except jetjson.ValidationError as e:
        return "error", str(e)


def check(cls, pairs):
    want = by_constructor(cls, pairs)
    got = by_jetjson(cls, pairs)
    assert got[0] == want[0], (cls, pairs, got)
    if want[0] == "error":
        assert f"Object missing required field `{want[1]}`" in got[1], (cls, pairs, got)
        return
    obj, ref = got[1], want[1]
    assert type(obj) is cls
    assert obj == ref
    assert list(vars(obj).items()) == list(vars(ref).items()), pairs
    assert obj.g == 5 and "g" not in vars(obj)
    if cls is Posted:
        assert obj.seen == ref.seen
    again = pickle.loads(pickle.dumps(obj))
    assert again == obj and list(vars(again)) == list(vars(obj))


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_orders(cls):
    names = [n for n in field_names(cls) if n in VALUES]
    in_order = [(k, VALUES[k]) for k in names]
    check(cls, in_order)
    check(cls, in_order[::-1])
    check(cls, [("zz", 1)] + in_order + [("unknown_long_key_name", "x")])
    for i in range(len(in_order)):
        check(cls, in_order[:i] + in_order[i + 1:])  # one field absent
        check(cls, in_order[:i + 1] + [(in_order[i][0], OTHER[in_order[i][0]])] + in_order[i + 1:])  # twice
        check(cls, in_order + [(in_order[i][0], OTHER[in_order[i][0]])])  # again at the end
        moved = in_order[:i] + in_order[i + 1:] + [in_order[i]]
        check(cls, moved)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_bad_value_in_either_walk(cls):
    names = [n for n in field_names(cls) if n in VALUES]
    pairs = [(k, VALUES[k]) for k in names]
    for i in range(len(pairs)):
        for order in (pairs, pairs[::-1]):
            bad = [(k, "not that" if k == pairs[i][0] and k not in ("a", "d", "base_opt") else v) for k, v in order]
            if bad == order:
                continue
            with pytest.raises(jetjson.ValidationError, match=r"\$\." + pairs[i][0]):
                jetjson.loads(encode(bad).encode(), type=cls)


def test_class_made_other_ways_keeps_its_path():
    """A class with its own __new__ or __setattr__, and one given a property for a field
    after its first decode, decode as their constructor builds them."""
    made = []

    @dataclass
    class OwnNew:
        p: int
        q: str = "q"

        def __new__(cls, *args, **kwargs):
            made.append(cls)
            return super().__new__(cls)

    @dataclass
    class OwnSetattr:
        p: int
        q: str = "q"

        def __setattr__(self, name, value):
            object.__setattr__(self, name, value * 2)

    for cls in (OwnNew, OwnSetattr):
        for raw in (b'{"p": 3, "q": "x"}', b'{"q": "x", "p": 3}', b'{"p": 3}'):
            got = jetjson.loads(raw, type=cls)
            want = cls(**json.loads(raw))
            assert got == want and list(vars(got).items()) == list(vars(want).items())
    assert made.count(OwnNew) == 6

    @dataclass
    class Later:
        p: int
        q: int = 0

    assert vars(jetjson.loads(b'{"p": 1, "q": 2}', type=Later)) == {"p": 1, "q": 2}
    stored = []
    Later.q = property(lambda self: -1, lambda self, v: stored.append(v))
    got = jetjson.loads(b'{"p": 1, "q": 2}', type=Later)
    assert stored == [2] and vars(got) == {"p": 1} and got.q == -1


if given is not None:
    keys_st = st.lists(st.sampled_from(sorted(VALUES) + sorted(UNKNOWN)), max_size=14)

    @hyp_settings(300)
    @given(st.sampled_from(CLASSES), keys_st, st.data())
    def test_generated_orders(cls, keys, data):
        pairs = []
        for k in keys:
            pool = UNKNOWN if k in UNKNOWN else (VALUES if data.draw(st.booleans()) else OTHER)
            pairs.append((k, pool[k]))
        check(cls, pairs)


def test_nothing_leaked():
    names = field_names(Derived)
    full = [(k, VALUES[k]) for k in names if k in VALUES]
    docs = [encode(p).encode() for p in (
        full, full[::-1], full[1:], full[::-1][1:], full + full[:2], [("b", "bad")] + full[1:],
        full[:3] + [("f", {"x": "bad"})])]
    before = [sys.getrefcount(raw) for raw in docs]
    default_refs = sys.getrefcount(DEFAULT_A)

    def run():
        for raw in docs:
            for cls in CLASSES:
                try:
                    jetjson.loads(raw, type=cls)
                except jetjson.ValidationError:
                    pass

    growth = traced_growth(run, 200)
    assert growth < 64 * 1024, growth
    assert [sys.getrefcount(raw) for raw in docs] == before
    assert sys.getrefcount(DEFAULT_A) == default_refs
