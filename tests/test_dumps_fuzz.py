"""Hypothesis: random Python values (containers, str of every kind with surrogates and
astral characters, ints at the 64-bit edges and huge, floats from random bits,
subclasses, enums, keys of every coercible type) through jetjson.dumps and json.dumps
with random options; text or exception must match."""

import enum
import struct

from hypothesis import given
from hypothesis import strategies as st

try:
    from conftest import hyp_settings
    from dumps_util import check_dump, check_dumps
except ImportError:  # tests/ turned into a package
    from .conftest import hyp_settings
    from .dumps_util import check_dump, check_dumps


class SubStr(str):
    pass


class SubInt(int):
    def __repr__(self):
        return "no"


class SubFloat(float):
    def __repr__(self):
        return "no"


class SubList(list):
    pass


class SubTuple(tuple):
    pass


class SubDict(dict):
    pass


class Color(enum.IntEnum):
    RED = 1
    BIG = 2 ** 64


class Name(str, enum.Enum):
    A = "a\u00e9"
    B = "\U0001f600"


class Opaque:
    def __init__(self, v):
        self.v = v


texts = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(max_codepoint=0x7F)),
    st.text(alphabet=st.characters(min_codepoint=0x80, max_codepoint=0xFF)),
    st.text(alphabet=st.characters(codec=None, min_codepoint=0xD800, max_codepoint=0xDFFF)),
    st.text(alphabet=st.sampled_from("\"\\\x00\x1f\x7f\u2028\u00e9\u20ac\U0001f600\ud800\udc00a/ ")),
)

edge_ints = st.sampled_from([0, 1, -1, 2 ** 31, 2 ** 53 + 1, 2 ** 62, 2 ** 63 - 1, 2 ** 63, -2 ** 63,
                             -2 ** 63 - 1, 2 ** 64 - 1, 2 ** 64, -2 ** 64, 10 ** 100, -10 ** 300])
ints = st.one_of(st.integers(), st.integers(min_value=-2 ** 70, max_value=2 ** 70), edge_ints)
floats = st.one_of(st.floats(), st.integers(0, 2 ** 64 - 1).map(
    lambda b: struct.unpack("<d", struct.pack("<Q", b))[0]))

scalars = st.one_of(
    st.none(), st.booleans(), ints, floats, texts,
    texts.map(SubStr), ints.map(SubInt), floats.map(SubFloat),
    st.sampled_from(list(Color)), st.sampled_from(list(Name)),
)
keys = st.one_of(texts, ints, floats, st.booleans(), st.none(), texts.map(SubStr),
                 ints.map(SubInt), floats.map(SubFloat), st.sampled_from(list(Color)),
                 st.sampled_from(list(Name)))
bad_keys = st.one_of(keys, st.tuples(st.integers()), st.frozensets(st.integers(), max_size=2))


def containers(children, key_strategy=keys):
    return st.one_of(
        st.lists(children, max_size=6),
        st.lists(children, max_size=6).map(tuple),
        st.dictionaries(key_strategy, children, max_size=6),
        st.lists(children, max_size=4).map(SubList),
        st.lists(children, max_size=4).map(SubTuple),
        st.dictionaries(key_strategy, children, max_size=4).map(SubDict),
    )


values = st.recursive(scalars, containers, max_leaves=40)
values_with_opaque = st.recursive(st.one_of(scalars, st.integers().map(Opaque)),
                                  lambda c: containers(c, bad_keys), max_leaves=30)

options = st.fixed_dictionaries({}, optional={
    "skipkeys": st.booleans(),
    "ensure_ascii": st.booleans(),
    "check_circular": st.booleans(),
    "allow_nan": st.booleans(),
    "indent": st.one_of(st.none(), st.integers(-2, 5), st.sampled_from(["", "\t", "  ", "\u00e9", "\U0001f600"])),
    "separators": st.one_of(st.none(), st.tuples(st.sampled_from([",", ", ", " , ", "\u3001"]),
                                                  st.sampled_from([":", ": ", "\uff1a"]))),
    "sort_keys": st.booleans(),
})


def opaque_default(o):
    if isinstance(o, Opaque):
        if o.v % 3 == 0:
            raise ValueError(f"refused {o.v}")
        return [o.v, str(o.v)] if o.v % 3 == 1 else {"v": o.v}
    raise TypeError("unexpected")


@hyp_settings(600)
@given(values, options)
def test_random_values(obj, kw):
    check_dumps(obj, **kw)


@hyp_settings(300)
@given(values_with_opaque, options, st.booleans())
def test_random_values_with_default_and_bad_keys(obj, kw, use_default):
    if use_default:
        kw = dict(kw, default=opaque_default)
    check_dumps(obj, **kw)


@hyp_settings(150)
@given(values, options)
def test_random_dump(obj, kw):
    check_dump(obj, **kw)


@hyp_settings(300)
@given(texts, st.booleans())
def test_random_strings(s, ensure_ascii):
    check_dumps(s, ensure_ascii=ensure_ascii)
    check_dumps([s, {s: s}], ensure_ascii=ensure_ascii)
    check_dumps([SubStr(s)], ensure_ascii=ensure_ascii, indent=1)
