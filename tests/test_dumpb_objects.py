"""dumpb vs orjson.dumps: enums, dataclasses, subclasses, default, Fragment, arguments."""

import dataclasses
import enum
import keyword
import typing

import pytest
from hypothesis import given, strategies as st

import jetjson
import orjson
from conftest import hyp_settings
from dumpb_util import OPTION_NAMES, same

ALL_OPTIONS = [0] + [getattr(orjson, n) for n in OPTION_NAMES]


class S(str):
    pass


class I(int):
    pass


class F(float):
    pass


class D(dict):
    pass


class L(list):
    pass


class T(tuple):
    pass


class Color(enum.Enum):
    RED = "red"
    ONE = 1
    HALF = 0.5
    NOTHING = None
    LISTED = [1, "a"]
    SUBSTR = S("s")


class Num(enum.IntEnum):
    A = 7


class Text(str, enum.Enum):
    A = "t\u00e9"


class Odd(enum.Enum):
    OBJ = object()


@dataclasses.dataclass
class Point:
    x: int
    y: float = 0.5
    _hidden: int = 3
    label: typing.Any = None


@dataclasses.dataclass
class Slotted:
    __slots__ = ("a", "_b", "c")
    a: int
    _b: int
    c: typing.Any


@dataclasses.dataclass
class WithVars:
    a: int
    b: int = dataclasses.field(default=4, repr=False)
    c: typing.ClassVar[int] = 5


@dataclasses.dataclass
class Node:
    value: typing.Any
    children: list = dataclasses.field(default_factory=list)


class Plain:
    pass


SAMPLES = [
    S("x"), I(3), I(2**64), F(1.5), D(a=1), L([1, 2]), T((1,)), Color.RED, Color.ONE, Color.HALF,
    Color.NOTHING, Color.LISTED, Color.SUBSTR, Num.A, Text.A, Odd.OBJ, Point(1), Point(2, 3.0, 4, [Point(5)]),
    Slotted(1, 2, {"k": Slotted(3, 4, None)}), WithVars(1), Node(1, [Node(2), Node(3, [Node(4)])]),
    Plain(), True, False, None, (1, 2), [Color, 1], {"a": Num.A},
]


@pytest.mark.parametrize("option", ALL_OPTIONS)
@pytest.mark.parametrize("index", range(len(SAMPLES)))
def test_samples(index, option):
    obj = SAMPLES[index]
    same(obj, option=option)
    same([obj, {"k": obj}], option=option | orjson.OPT_INDENT_2)
    same(obj, option=option, default=lambda o: f"default:{type(o).__name__}")
    same({obj: 1} if _hashable(obj) else {"k": obj}, option=option | orjson.OPT_NON_STR_KEYS)


def _hashable(x):
    try:
        hash(x)
        return True
    except TypeError:
        return False


def test_dataclass_dict_order_and_extra_attributes():
    p = Point(1)
    p.extra = 9
    del p.y
    same(p)
    p.__dict__[3] = 1
    same(p)


def test_enum_key_kinds():
    for member in list(Color) + [Num.A, Text.A]:
        if _hashable(member):
            same({member: 1}, option=orjson.OPT_NON_STR_KEYS)
            same({member: 1, "x": 2}, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS)


def test_non_str_key_errors():
    same({(1, 2): 1}, option=orjson.OPT_NON_STR_KEYS)
    same({F(1.0): 1}, option=orjson.OPT_NON_STR_KEYS)
    same({2**64: 1}, option=orjson.OPT_NON_STR_KEYS)
    same({-(2**63) - 1: 1}, option=orjson.OPT_NON_STR_KEYS)
    same({Plain(): 1}, option=orjson.OPT_NON_STR_KEYS)
    same({1: 1})
    same({S("a"): 1})


def test_default_rules():
    same(Plain(), default=lambda o: [o.__class__.__name__])
    same(Plain(), default=lambda o: o)  # 254 calls then the limit
    same(Plain(), default=lambda o: [o])
    same([Plain()] * 600, default=lambda o: 1)  # the limit is per path, not per call
    same(Plain(), default=None)
    same(Plain(), default=1)  # not callable: a failed call

    def raising(o):
        raise ValueError("no")

    with pytest.raises(jetjson.JSONEncodeError) as info:
        jetjson.dumpb(Plain(), default=raising)
    assert str(info.value) == "Type is not JSON serializable: Plain"
    assert isinstance(info.value.__cause__, ValueError)
    same(Plain(), default=raising)


def test_passthrough_options():
    for obj in (S("x"), I(1), D(a=1), L([1]), Point(1), True):
        for opt in (orjson.OPT_PASSTHROUGH_SUBCLASS, orjson.OPT_PASSTHROUGH_DATACLASS):
            same(obj, option=opt)
            same(obj, option=opt, default=lambda o: "passed")


def test_arguments():
    same(1, None, None)
    same(1, None, 0)
    same(1, default=None, option=None)
    same(1, option=orjson.OPT_APPEND_NEWLINE | orjson.OPT_INDENT_2)
    for bad in (1 << 12, 1 << 20, -1, -5, 1 << 70, (1 << 70) + 1, 1 << 30, (1 << 30) + 1, 1 << 40,
                (1 << 32) + 2, -(1 << 64), (1 << 64) + 5, 1 << 63, "x", True, 1.0, I(1)):
        same({"a": [1]}, option=bad)
    for call in (lambda f: f(), lambda f: f(obj=1), lambda f: f(1, foo=1),
                 lambda f: f(1, None, default=None), lambda f: f(1, None, 0, option=0)):
        a = pytest.raises(TypeError, call, jetjson.dumpb)
        b = pytest.raises(TypeError, call, orjson.dumps)
        assert str(a.value) == str(b.value).replace("dumps()", "dumpb()")


def test_encode_error_type():
    # the same class as orjson's, so `except JSONEncodeError` catches the same errors
    assert (jetjson.JSONEncodeError is TypeError) == (orjson.JSONEncodeError is TypeError)
    assert issubclass(jetjson.JSONEncodeError, TypeError)


# ---- Fragment: orjson 3.8 has no Fragment, so the oracle is orjson on the value the
# fragment text stands for (the text is written as is, whatever surrounds it). ----

json_texts = st.recursive(
    st.one_of(st.integers(-(2**63), 2**64 - 1), st.text(), st.booleans(), st.none(), st.floats(allow_nan=False)),
    lambda c: st.one_of(st.lists(c, max_size=3), st.dictionaries(st.text(), c, max_size=3)),
    max_leaves=10).map(orjson.dumps)


@hyp_settings(200)
@given(json_texts, st.booleans(), st.sampled_from([0, orjson.OPT_INDENT_2, orjson.OPT_SORT_KEYS]))
def test_fragment(text, as_str, option):
    frag = jetjson.Fragment(text.decode() if as_str else text)
    got = jetjson.dumpb({"a": [frag, 1], "b": frag}, option=option)
    marker = "\x00frag\x00"
    expected = orjson.dumps({"a": [marker, 1], "b": marker}, option=option)
    assert got == expected.replace(orjson.dumps(marker), text)
    if hasattr(orjson, "Fragment"):  # orjson >= 3.9: the direct oracle too
        ofrag = orjson.Fragment(text.decode() if as_str else text)
        assert got == orjson.dumps({"a": [ofrag, 1], "b": ofrag}, option=option)


def test_fragment_errors_match_orjson():
    if not hasattr(orjson, "Fragment"):
        pytest.skip("orjson without Fragment")
    for bad in (1, None, bytearray(b"1"), "\ud800"):
        same_msg = (pytest.raises(TypeError, jetjson.dumpb, [jetjson.Fragment(bad)]),
                    pytest.raises(TypeError, orjson.dumps, [orjson.Fragment(bad)]))
        assert str(same_msg[0].value) == str(same_msg[1].value).replace("orjson.", "jetjson.")
    for args, kw in (((), {}), ((b"1", b"2"), {}), ((), {"contents": b"1"})):
        a = pytest.raises(TypeError, jetjson.Fragment, *args, **kw)
        b = pytest.raises(TypeError, orjson.Fragment, *args, **kw)
        assert str(a.value) == str(b.value).replace("orjson.", "jetjson.")


def test_fragment_errors():
    with pytest.raises(TypeError, match=r"^jetjson.Fragment\(\) takes exactly 1 positional argument$"):
        jetjson.Fragment()
    with pytest.raises(TypeError, match="exactly 1"):
        jetjson.Fragment(b"1", b"2")
    with pytest.raises(TypeError, match="exactly 1"):
        jetjson.Fragment(contents=b"1")
    for bad in (1, None, bytearray(b"1"), memoryview(b"1")):
        with pytest.raises(jetjson.JSONEncodeError, match="^jetjson.Fragment's content is not of type bytes or str$"):
            jetjson.dumpb([jetjson.Fragment(bad)])
    with pytest.raises(jetjson.JSONEncodeError, match="^str is not valid UTF-8: surrogates not allowed$"):
        jetjson.dumpb(jetjson.Fragment("\ud800"))
    assert jetjson.dumpb(jetjson.Fragment("not json \u00e9")) == "not json \u00e9".encode()
    assert jetjson.dumpb(jetjson.Fragment(b"")) == b""
    assert jetjson.Fragment(b"x").contents == b"x"
    with pytest.raises(TypeError):
        class Sub(jetjson.Fragment):
            pass


# ---- generated dataclasses and enums, nested in generated containers ----

def _make_dataclass(names, slots, defaults):
    fields = []
    for i, name in enumerate(names):
        if defaults and i == len(names) - 1:
            fields.append((name, typing.Any, dataclasses.field(default=None)))
        else:
            fields.append((name, typing.Any))
    return dataclasses.make_dataclass("Gen", fields, slots=slots)


field_names = st.lists(st.from_regex(r"\A_?[a-z][a-z0-9_]{0,6}\Z").filter(lambda n: not keyword.iskeyword(n)),
                       min_size=0, max_size=5, unique=True)


@st.composite
def dataclass_objects(draw, children):
    names = draw(field_names)
    cls = _make_dataclass(names, draw(st.booleans()), draw(st.booleans()))
    return cls(*[draw(children) for _ in names])


enum_members = st.sampled_from([Color.RED, Color.ONE, Color.HALF, Color.NOTHING, Num.A, Text.A])
leaves = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.text(max_size=8),
                   st.floats(), enum_members)
objects = st.recursive(leaves, lambda c: st.one_of(
    st.lists(c, max_size=4), st.dictionaries(st.text(max_size=5), c, max_size=4),
    dataclass_objects(c)), max_leaves=25)


@hyp_settings(300)
@given(objects, st.sampled_from(ALL_OPTIONS))
def test_generated_objects(obj, option):
    same(obj, option=option)
    same(obj, option=option | orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)
