"""loads(type=) into dataclasses of every way of holding fields (instance dict, __slots__,
both through inheritance, frozen, a custom __setattr__, __post_init__, a class changed
after it was first decoded), against the class's own constructor as the oracle: the
instance from jetjson must be the one cls(**fields) makes from json.loads's object,
field by field, in its __dict__ (key order included) and in its slots."""

from __future__ import annotations

import dataclasses
import json
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

pytestmark = pytest.mark.skipif(sys.version_info < (3, 10), reason="dataclass(slots=True) is 3.10+")


@dataclass
class Plain:
    a: int
    b: str = "x"
    c: List[int] = field(default_factory=list)
    d: Optional[int] = None


@dataclass(slots=True)
class Slots:
    a: int
    b: str = "x"
    c: List[int] = field(default_factory=list)
    d: Optional[int] = None


@dataclass(frozen=True, slots=True)
class FrozenSlots:
    a: int
    b: str = "x"
    c: List[int] = field(default_factory=list)
    d: Optional[int] = None


@dataclass(slots=True)
class SlotsPostInit:
    a: int
    b: str = "x"
    c: List[int] = field(default_factory=list)
    d: Optional[int] = None
    total: int = field(default=0, init=False)

    def __post_init__(self):
        self.total = self.a + len(self.c)


@dataclass(slots=True)
class SlotsOwnSetattr:
    a: int
    b: str = "x"
    c: List[int] = field(default_factory=list)
    d: Optional[int] = None

    def __setattr__(self, name, value):
        if name == "b" and isinstance(value, str):
            value = value.upper()
        object.__setattr__(self, name, value)


@dataclass(slots=True)
class SlotsBase:
    a: int
    b: str = "x"


@dataclass
class DictChildOfSlots(SlotsBase):
    c: List[int] = field(default_factory=list)
    d: Optional[int] = None


@dataclass
class DictBase:
    a: int
    b: str = "x"


@dataclass(slots=True)
class SlotsChildOfDict(DictBase):
    c: List[int] = field(default_factory=list)
    d: Optional[int] = None


@dataclass(slots=True)
class SlotsChildOfSlots(SlotsBase):
    c: List[int] = field(default_factory=list)
    d: Optional[int] = None


CLASSES = [Plain, Slots, FrozenSlots, SlotsPostInit, SlotsOwnSetattr, DictChildOfSlots, SlotsChildOfDict,
           SlotsChildOfSlots]
FIELDS = ("a", "b", "c", "d")

_ABSENT = object()


def state(obj):
    """Everything an instance holds: each slot of its class's MRO and its __dict__ (in
    order), as (name, value) pairs."""
    slots = []
    for klass in type(obj).__mro__:
        for name in klass.__dict__.get("__slots__", ()):
            if name not in ("__dict__", "__weakref__"):
                slots.append((name, getattr(obj, name, _ABSENT)))
    own = list(vars(obj).items()) if hasattr(obj, "__dict__") else None
    return type(obj), slots, own


def oracle(cls, doc: bytes):
    value = json.loads(doc)
    names = {f.name for f in dataclasses.fields(cls) if f.init}
    return cls(**{k: v for k, v in value.items() if k in names})


def assert_like_constructor(cls, doc: bytes):
    got = jetjson.loads(doc, type=cls)
    expected = oracle(cls, doc)
    assert state(got) == state(expected), doc
    assert got == expected


DOCS = [
    b'{"a": 1}',
    b'{"a": 1, "b": "q", "c": [1, 2], "d": 3}',
    b'{"d": 4, "c": [], "b": "r", "a": -5}',
    b'{"zz": {"x": [1]}, "a": 7, "b": "s", "extra": null}',
    b'{"a": 1, "a": 2, "b": "t", "b": "u"}',
]


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_fields_held_like_the_constructor(cls):
    for doc in DOCS:
        assert_like_constructor(cls, doc)
    dec = jetjson.Decoder(cls)
    for doc in DOCS:
        assert state(dec.decode(doc)) == state(oracle(cls, doc))


def test_own_setattr_and_post_init_run():
    assert jetjson.loads(b'{"a": 1, "b": "abc"}', type=SlotsOwnSetattr).b == "ABC"
    assert jetjson.loads(b'{"a": 2, "c": [5, 6]}', type=SlotsPostInit).total == 4
    with pytest.raises(dataclasses.FrozenInstanceError):
        jetjson.loads(b'{"a": 1}', type=FrozenSlots).a = 2


def test_class_changed_after_compiling():
    @dataclass(slots=True)
    class Changing:
        a: int
        b: str = "x"

    dec = jetjson.Decoder(Changing)
    assert state(dec.decode(b'{"a": 1, "b": "q"}')) == state(Changing(1, "q"))
    seen = []

    def spy(self, name, value):
        seen.append(name)
        object.__setattr__(self, name, value)

    Changing.__setattr__ = spy  # a new version of the class: its slots are set through it
    got = dec.decode(b'{"a": 2, "b": "r"}')
    assert seen == ["a", "b"]
    assert state(got) == state(Changing(2, "r"))
    del Changing.__setattr__
    seen.clear()
    assert state(jetjson.loads(b'{"a": 3}', type=Changing)) == state(Changing(3))
    assert seen == []


def test_missing_and_wrong_fields_leave_no_half_built_slots():
    for cls in CLASSES:
        with pytest.raises(jetjson.ValidationError, match="missing required field `a`"):
            jetjson.loads(b'{"b": "q"}', type=cls)
        with pytest.raises(jetjson.ValidationError, match=r"Expected `int`, got `str` - at `\$\.a`"):
            jetjson.loads(b'{"a": "1"}', type=cls)


if given is not None:
    values = st.fixed_dictionaries({}, optional={
        "a": st.integers(-2**63, 2**63 - 1),
        "b": st.text(max_size=12),
        "c": st.lists(st.integers(-1000, 1000), max_size=4),
        "d": st.none() | st.integers(-5, 5),
        "other": st.recursive(st.none() | st.integers() | st.text(max_size=4),
                              lambda k: st.lists(k, max_size=3) | st.dictionaries(st.text(max_size=3), k, max_size=3),
                              max_leaves=6),
    })

    @hyp_settings(150)
    @given(values, st.randoms(use_true_random=False), st.sampled_from(CLASSES))
    def test_generated_objects_like_the_constructor(value, rnd, cls):
        items = list(value.items())
        rnd.shuffle(items)
        doc = json.dumps(dict(items), ensure_ascii=rnd.random() < 0.5).encode()
        if "a" not in value:
            with pytest.raises(jetjson.ValidationError):
                jetjson.loads(doc, type=cls)
            return
        assert_like_constructor(cls, doc)


def test_no_leaks_and_references_kept():
    default = ("shared", [])  # a default of its own, to count its references

    @dataclass(slots=True)
    class Held:
        a: int
        b: object = field(default_factory=lambda: default)
        c: object = default

    docs = [b'{"a": 1, "b": ["x", "y"], "c": {"k": [1]}}', b'{"a": 2}', b'{"b": []}', b'{"a": "x"}']
    dec = jetjson.Decoder(Held)

    def run():
        for d in docs:
            for fn in (dec.decode, lambda b: jetjson.loads(b, type=Held)):
                try:
                    fn(d)
                except jetjson.ValidationError:
                    pass

    before = sys.getrefcount(default)
    kept = [dec.decode(b'{"a": 3}') for _ in range(200)]
    assert sys.getrefcount(default) - before == 400  # b and c of each instance
    del kept
    assert sys.getrefcount(default) == before
    # one instance lost per run would be 8 per run, 200 B or more each time
    assert min(traced_growth(run, repeat=400) for _ in range(2)) < 8000


# ---- matching keys to fields -------------------------------------------------------------------

LONG = dataclasses.make_dataclass("Long", [
    ("abcdefgh", int, 0), ("abcdefghi", int, 0), ("abcdefghij", int, 0), ("abcdefgX", int, 0),
    ("abcdefg", int, 0), ("abc", int, 0), ("ab", int, 0), ("a", int, 0), ("é", int, 0), ("ключ_поля", int, 0),
])


@pytest.mark.parametrize("doc", [
    b'{"abcdefghij": 1, "abcdefghi": 2, "abcdefgh": 3, "abcdefgX": 4}',
    b'{"abcdefghik": 1, "abcdefgh ": 2, "abcdefg": 3, "abcd": 4, "abc": 5}',
    b'{"\\u00e9": 1, "\\u0061": 2, "ab\\u0063": 3, "abcdefgh\\u0069": 4}',
    '{"é": 1, "ключ_поля": 2, "ключ_поль": 3}'.encode(),
    b'{"a":1}', b'{"ab":1}', b'{"zz":1,"abc":2}', b'{"abcdefghij":1}',
])
def test_keys_matched_like_the_constructor(doc):
    assert_like_constructor(LONG, doc)
    assert_like_constructor(LONG, b" " * 20 + doc)


if given is not None:
    names = [f.name for f in dataclasses.fields(LONG)]
    key = st.sampled_from(names) | st.builds(lambda n, k: n[:k], st.sampled_from(names), st.integers(0, 10)) \
        | st.builds(lambda n, c: n + c, st.sampled_from(names), st.sampled_from(["h", "X", "é", "j"]))

    @hyp_settings(200)
    @given(st.lists(st.tuples(key, st.integers(-9, 9)), max_size=8), st.booleans())
    def test_generated_keys_like_the_constructor(pairs, ascii_only):
        doc = "{" + ", ".join(f"{json.dumps(k, ensure_ascii=ascii_only)}: {v}" for k, v in pairs) + "}"
        assert_like_constructor(LONG, doc.encode())


# ---- the plan of the last type, kept for a loop of loads(x, type=T) ------------------------------

def test_alternating_types_and_a_type_that_goes_away():
    import gc
    import weakref

    @dataclass
    class A:
        a: int

    @dataclass
    class B:
        a: str

    doc = b'{"a": 1}'
    for _ in range(3):  # each type's plan found again after the other's
        assert jetjson.loads(doc, type=A) == A(a=1)
        with pytest.raises(jetjson.ValidationError, match=r"Expected `str`, got `int` - at `\$.a`"):
            jetjson.loads(doc, type=B)
        assert jetjson.loads(doc, type=None) == json.loads(doc)
        assert jetjson.loads(doc, type=A) == jetjson.Decoder(A).decode(doc)
    before = sys.getrefcount(A)
    for _ in range(100):
        jetjson.loads(doc, type=A)
    assert sys.getrefcount(A) == before  # held once, not once per call

    # a class made again under the same name is a new type: its own plan, never the old one
    def make():
        @dataclass
        class C:
            a: int
        return C

    old = make()
    jetjson.loads(doc, type=old)
    jetjson.loads(doc, type=old)
    gone = weakref.ref(old)
    del old
    for k in range(1100):  # other types push it out of every cache (1024 plans at most)
        t = dataclasses.make_dataclass(f"T{k}", [("a", int)])
        jetjson.loads(doc, type=t)
        jetjson.loads(doc, type=t)
    del t
    gc.collect()
    assert gone() is None
    new = make()
    assert type(jetjson.loads(doc, type=new)) is new
