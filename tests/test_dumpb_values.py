"""dumpb vs orjson.dumps on hypothesis-generated values: nested containers, strs of every
kind (surrogates -> the same error), ints around the 53/63/64-bit edges, floats from
random bits, subclasses, and each option."""

import math
import struct

from hypothesis import given, strategies as st

import jetjson
import orjson
from conftest import hyp_settings
from dumpb_util import OPTION_NAMES, same


class S(str):
    pass


class I(int):
    pass


class D(dict):
    pass


class L(list):
    pass


edge_ints = st.sampled_from([0, 1, -1, 2**31, 2**53 - 1, 2**53, -(2**53 - 1), -(2**53), 2**63 - 1,
                             2**63, -(2**63), -(2**63) - 1, 2**64 - 1, 2**64, -(2**64), 2**30,
                             2**30 - 1, -(2**30), 10**30])
ints = st.one_of(st.integers(), edge_ints, st.integers(-(2**65), 2**65))
floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(0, 2**64 - 1).map(lambda b: struct.unpack("<d", struct.pack("<Q", b))[0]),
)
texts = st.one_of(
    st.text(),
    st.text(alphabet=st.characters(max_codepoint=0x7F)),
    st.text(alphabet=st.characters(min_codepoint=0x80, max_codepoint=0xFF)),
    st.text(alphabet=st.characters(max_codepoint=0xFFFF)),
    st.text(alphabet=st.characters(min_codepoint=0x10000)),
    st.text(alphabet=st.characters(codec=None, min_codepoint=0xD7F0, max_codepoint=0xE010,
                                   blacklist_categories=())),
    st.text(alphabet=st.sampled_from('"\\/\b\f\n\r\t\x00\x1f\x7f ab\u2028\u00e9')),
)
scalars = st.one_of(st.none(), st.booleans(), ints, floats, texts,
                    texts.map(S), st.integers(-(2**70), 2**70).map(I))


def containers(children):
    return st.one_of(
        st.lists(children, max_size=6),
        st.lists(children, max_size=6).map(tuple),
        st.lists(children, max_size=4).map(L),
        st.dictionaries(texts, children, max_size=6),
        st.dictionaries(texts, children, max_size=4).map(D),
    )


values = st.recursive(scalars, containers, max_leaves=40)
any_key = st.one_of(texts, ints, floats, st.booleans(), st.none(), texts.map(S), st.integers().map(I))
option_bits = st.lists(st.sampled_from([getattr(orjson, n) for n in OPTION_NAMES]), max_size=3).map(
    lambda bits: sum(set(bits)))


@hyp_settings(400)
@given(values, option_bits)
def test_values(obj, option):
    same(obj, option=option)


@hyp_settings(300)
@given(st.dictionaries(any_key, values, max_size=8), option_bits)
def test_non_str_keys(obj, option):
    same(obj, option=option | orjson.OPT_NON_STR_KEYS)
    same(obj, option=option)


@hyp_settings(200)
@given(st.dictionaries(texts, st.integers(), max_size=12))
def test_sort_keys_any_kind(obj):
    same(obj, option=orjson.OPT_SORT_KEYS)
    same(obj, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)


@hyp_settings(300)
@given(texts)
def test_str(s):
    same(s)
    same([s, {s: s}])
    same({s: 1}, option=orjson.OPT_SORT_KEYS)


@hyp_settings(300)
@given(ints, st.sampled_from([0, orjson.OPT_STRICT_INTEGER]))
def test_ints(n, option):
    same(n, option=option)
    same([n, I(n) if abs(n) < 2**100 else n], option=option)


@hyp_settings(300)
@given(floats)
def test_floats(x):
    same(x)
    same({x: x} if not math.isnan(x) else [x], option=orjson.OPT_NON_STR_KEYS)


def test_str_storage_not_touched():
    # writing a non-ASCII str must not create its UTF-8 cache (the str grows if it did)
    import sys
    s = "h\u00e9llo w\u00f6rld " * 10 + "\U0001f600"
    before = sys.getsizeof(s)
    got = jetjson.dumpb([s, {s: s}], option=orjson.OPT_SORT_KEYS)
    got_plain = jetjson.dumpb([s, {s: s}])
    assert sys.getsizeof(s) == before
    # (orjson itself does fill the cache, so it runs last)
    assert got == got_plain == orjson.dumps([s, {s: s}])
    assert sys.getsizeof(s) > before, "the size test would not notice a UTF-8 cache"


# Long strs are written in 16384-unit pieces: every kind, escapes and surrogates at and
# around the piece edges.
PIECE = 16384


@hyp_settings(60)
@given(st.sampled_from(["a", "\u00e9", "\u20ac", "\U0001f600", '"', "\n", "\x01"]),
       st.sampled_from(["a", "\u00e9", "\u20ac", "\U0001f600", '"', "\\", "\x1f", "\ud800"]),
       st.integers(-3, 3), st.integers(1, 3))
def test_long_strs(fill, odd, offset, pieces):
    n = PIECE * pieces + offset
    for at in (0, PIECE - 1, PIECE, PIECE + 1, n - 1):
        if 0 <= at < n:
            s = fill * at + odd + fill * (n - at - 1)
            same(s)
            same({s: [s]}, option=orjson.OPT_SORT_KEYS)


class F(float):
    pass


float_items = st.one_of(floats, floats, floats, floats.map(F), ints, texts, st.none(),
                        st.lists(floats, max_size=3))


@hyp_settings(300)
@given(st.lists(float_items, max_size=40), option_bits)
def test_float_runs_in_lists_and_tuples(items, option):
    # lists and tuples led by exact floats take a run of their own until the first other
    # item (a subclass, an int, a str, a list...), then the general loop goes on
    for obj in ([1.0] + items, tuple([2.5] + items), [[x, x] for x in items if type(x) is float]):
        same(obj, option=option)
        same([obj, obj], option=option)


def test_long_float_lists_grow_the_buffer():
    import random

    rng = random.Random(7)
    bits = [rng.getrandbits(64) for _ in range(30000)]
    xs = [struct.unpack("<d", struct.pack("<Q", b))[0] for b in bits]
    for obj in (xs, tuple(xs), [xs[:1000]] * 30, xs + ["end"], xs + [F(1.5)]):
        same(obj)


int_items = st.one_of(ints, ints, st.integers(-300, 300), st.integers(-300, 300).map(I), st.booleans(),
                      floats, texts, st.none(), st.lists(ints, max_size=3))


@hyp_settings(300)
@given(st.lists(int_items, max_size=40), option_bits)
def test_int_runs_in_lists_and_tuples(items, option):
    # lists and tuples led by exact ints of one machine digit take a run of their own until
    # the first other item (a bigger int, a bool, a subclass, a float...), then the general
    # loop goes on; STRICT_INTEGER and the 64-bit errors come from the general loop
    for obj in ([7] + items, tuple([-12345] + items), [[x, x] for x in items if type(x) is int]):
        same(obj, option=option)
        same([obj, obj], option=option)


def test_long_int_lists_grow_the_buffer():
    import random

    rng = random.Random(11)
    xs = [rng.randrange(-(2**30) + 1, 2**30) >> rng.randrange(31) for _ in range(30000)]
    for obj in (xs, tuple(xs), [xs[:1000]] * 30, xs + [2**40], xs + [True], xs + [I(5)], list(range(100000))):
        same(obj)
