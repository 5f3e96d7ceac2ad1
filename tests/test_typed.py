"""loads(data, type=T): typed decoding.

Oracle: msgspec (``msgspec.json.decode(data, type=T)``) for values and for the exact
wording and path of every error kind both have; for what the seed specifies differently
(``type=None`` means no type, unhashable set items are a TypeError, documents only json
accepts are converted from json's value), the value built by hand from ``json.loads``.
"""

import dataclasses
import datetime
import decimal
import enum
import uuid
import json
import math
import sys
import typing
from dataclasses import dataclass, field
from typing import (Annotated, Any, Dict, FrozenSet, List, Literal, Mapping, MutableMapping,
                    MutableSequence, NamedTuple, NewType, Optional, Sequence, Set, Tuple,
                    TypedDict, Union)

import pytest

import jetjson
from conftest import DATA_DIR, hyp_settings, traced_growth
from typed_oracle import assert_like_msgspec

msgspec = pytest.importorskip("msgspec")
typing_extensions = pytest.importorskip("typing_extensions")
NotRequired = typing.NotRequired
Required = typing.Required


# ---- hand-written types ---------------------------------------------------------------

class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Mode(str, enum.Enum):
    A = "a"
    B = "b"


@dataclass
class User:
    id: int
    login: str
    followers: int = 0


@dataclass
class Repo:
    id: int
    name: str
    owner: User
    topics: List[str] = field(default_factory=list)
    visibility: Literal["public", "private"] = "public"
    license: Optional[str] = None


@dataclass(frozen=True)
class Point:
    x: float
    y: float = 0.0


@dataclass
class Slotted:
    __slots__ = ("a", "b")
    a: int
    b: str


@dataclass
class Checked:
    n: int

    def __post_init__(self):
        if self.n < 0:
            raise ValueError("n must be >= 0")
        if self.n == 0:
            raise TypeError("n must not be 0")
        if self.n == 13:
            raise KeyError("thirteen")


@dataclass
class Holder:
    inner: Checked
    items: List[Checked] = field(default_factory=list)


@dataclass
class Tree:
    value: int
    children: List["Tree"] = field(default_factory=list)
    parent: Optional["Tree"] = None


class Movie(TypedDict):
    title: str
    year: int


class MovieExtra(Movie, total=False):
    rating: float


class Partial(TypedDict):
    a: int
    b: NotRequired[str]


class PartialTE(typing_extensions.TypedDict, total=False):
    a: typing_extensions.Required[int]
    b: str


class Pair(NamedTuple):
    left: int
    right: str = "r"


UserId = NewType("UserId", int)

SCALAR_CASES = [
    (int, [b"1", b"-5", b"0", b"9223372036854775808", b"-9223372036854775809", b"123456789012345678901234567890",
           b'"1"', b"1.5", b"1.0", b"true", b"null", b"[]", b"{}"]),
    (float, [b"1", b"1.5", b"-0", b"1e-300", b'"x"', b"false", b"12345678901234567890123", b"[1]"]),
    (str, [b'"abc"', b'"\\u00e9t\\u00e9"', b'"\\ud83d\\ude00"', b'""', b"1", b"null", b"{}"]),
    (bool, [b"true", b"false", b"1", b"0", b'"true"', b"null"]),
    (type(None), [b"null", b"0", b'""', b"false"]),
    (Any, [b'[1, {"a": null}, "x", 2.5]', b"null", b"{}"]),
    (object, [b'{"a": [1, 2]}', b"7"]),
    (Optional[int], [b"null", b"1", b'"x"', b"1.5"]),
    (Union[int, str], [b"1", b'"x"', b"1.5", b"null"]),
    (Union[int, float], [b"1", b"1.5", b'"x"']),
    (Union[float, int], [b"1", b"1.5"]),
    (Union[None, Dict[str, int], List[int], str, bool], [b"1", b"true", b"[1]", b'{"a": 1}', b"null"]),
    (Union[str, float, int, None, bool, List[int], Dict[str, int]], [b"1.5", b"true", b"[true]", b'{"a": "x"}']),
    (int | None, [b"null", b"3", b"[]"]),
    (Literal["a", "b"], [b'"a"', b'"c"', b"1"]),
    (Literal[1, 2], [b"1", b"3", b'"1"', b"1.0", b"true"]),
    (Literal[True], [b"true", b"false", b"1"]),
    (Literal[False, None], [b"false", b"null", b"true"]),
    (Literal["a", 1, None], [b'"a"', b"1", b"null", b"2.5", b'"b"']),
    (Optional[Literal[1]], [b"2", b"null"]),
    (Union[int, Literal["a", "b"]], [b'"c"', b"5"]),
    (Color, [b'"red"', b'"blue"', b"1"]),
    (Level, [b"1", b"3", b'"1"', b"1.0"]),
    (Mode, [b'"a"', b'"c"']),
    (Union[Level, str], [b"2", b'"x"', b"1.5"]),
    (UserId, [b"5", b'"x"']),
    (Annotated[int, "meta"], [b"5", b'"x"']),
    (List[int], [b"[]", b"[1, 2]", b'[1, "x"]', b"{}", b"[[1]]"]),
    (list, [b'[1, "a", null]', b"{}"]),
    (List[List[int]], [b"[[1], [2, 3]]", b'[[1], [2, "x"]]']),
    (Tuple[int, str], [b'[1, "a"]', b"[1]", b'[1, "a", 2]', b"[1, 2]", b"[null]", b'["x", 1, 2]', b'[1, "a", "x"]']),
    (Tuple[int, ...], [b"[1, 2, 3]", b'[1, "a"]', b"[]"]),
    (Tuple[()], [b"[]", b"[1]"]),
    (tuple, [b'[1, "x"]']),
    (Set[int], [b"[1, 2, 1]", b'[1, "a"]']),
    (set, [b"[1, 2]"]),
    (FrozenSet[str], [b'["a", "b", "a"]', b"[1]"]),
    (Dict[str, int], [b'{"a": 1}', b'{"a": "b"}', b'{"a": 1, "a": 2}', b"[]"]),
    (dict, [b'{"a": [1]}']),
    (Dict[str, List[int]], [b'{"a": [1, "x"]}']),
    (Dict[str, Dict[str, int]], [b'{"a": {"b": "x"}}']),
    (Dict[int, str], [b'{"1": "a", "-5": "b"}', b'{"x": "a"}', b'{"1.0": "a"}', b'{"05": "a"}', b'{"+5": "a"}',
                      b'{"99999999999999999999999": "a"}']),
    (Dict[Literal["a", "b"], int], [b'{"a": 1}', b'{"c": 1}']),
    (Dict[Color, int], [b'{"red": 1}', b'{"blue": 1}']),
    (Dict[Level, int], [b'{"1": 1}', b'{"3": 1}']),
    (Sequence[int], [b"[1]", b"{}"]),
    (MutableSequence[str], [b'["a"]']),
    (Mapping[str, int], [b'{"a": 1}', b"[]"]),
    (MutableMapping[str, int], [b'{"a": 1}']),
    (typing.AbstractSet[int], [b"[1]"]),
    (List, [b'[1, "a"]']), (Dict, [b'{"a": [1]}']), (Set, [b"[1]"]), (FrozenSet, [b"[1]"]),
    (Tuple, [b'[1, "a"]', b"{}"]), (Sequence, [b"[1]"]), (Mapping, [b"{}"]),
    (typing.TypeVar("T"), [b'"x"', b"[1]"]), (typing.TypeVar("B", bound=int), [b'"x"', b"1"]),
    (List[typing.TypeVar("T")], [b'[1, "x"]']), (typing.Iterable[int], [b"[1]"]),  # items checked (msgspec 0.23 lets ["x"] through)
    (typing.Collection[str], [b'["a"]']), (typing.Final[int], [b"1", b'"x"']),
]


STRING_KIND_CASES = [
    (datetime.datetime, [b'"2021-01-02T03:04:05Z"', b'"2021-01-02T03:04:05"', b'"2021-01-02T03:04:05.123456+01:30"',
                         b'"2021-01-02t03:04:05z"', b'"2021-01-02 03:04:05Z"', b'"2021-01-02T03:04:05.1234567891Z"',
                         b'"2021-01-02T03:04:05.9999995Z"', b'"2021-12-31T23:59:59.9999999-05:00"',
                         b'"2021-01-02T03:04Z"', b'"2021-01-02"', b'"2021-13-02T03:04:05Z"', b'"2021-02-30T03:04:05Z"',
                         b'"2024-02-29T00:00:00Z"', b'"2021-01-02T24:00:00Z"', b'"2021-01-02T03:04:60Z"',
                         b'"2021-01-02T03:04:05-00:00"', b'"2021-01-02T03:04:05+24:00"', b'"2021-01-02T03:04:05+23:59"',
                         b'"0000-01-01T00:00:00Z"', b'"2021-01-02T03:04:05.Z"', b'"2021-01-02T03:04:05+0130"',
                         b'"2021-01-02T03:04:05+01"', rb'"2021-01-02T03:04:05\u002b01:00"', b'"2021-01-02T03:04:05 "',
                         rb'"\u00e9"', b"1", b"null"]),
    (datetime.date, [b'"2021-01-02"', b'"2021-1-02"', b'"2021-01-02T00:00:00"', b'"2021-02-29"', b'"2020-02-29"',
                     b'"9999-12-31"', b'"0001-01-01"', b'"x"', b"20210102"]),
    (datetime.time, [b'"03:04:05"', b'"03:04:05.25+02:00"', b'"03:04"', b'"03:04:05Z"', b'"25:04:05"',
                     b'"23:59:59.999999"', b'"03:04:05.5-07:30"', b'"03:04:05+99:00"']),
    (uuid.UUID, [b'"c0a8f5e2-1c4b-4c2a-9b1e-2f3c4d5e6f70"', b'"c0a8f5e21c4b4c2a9b1e2f3c4d5e6f70"',
                 b'"C0A8F5E2-1C4B-4C2A-9B1E-2F3C4D5E6F70"', b'"xyz"', b'"{c0a8f5e2-1c4b-4c2a-9b1e-2f3c4d5e6f70}"',
                 b'"c0a8f5e2-1c4b-4c2a-9b1e-2f3c4d5e6f7g"', b'"c0a8f5e21-c4b-4c2a-9b1e-2f3c4d5e6f70"', b"1"]),
    (decimal.Decimal, [b'"1.50"', b"1.50", b"15", b"-0.000", b"1e-7", b"12345678901234567890123456789", b'"abc"',
                       b'"NaN"', b"true", b"null", b'"1_000"']),
    (bytes, [b'"AAE="', b'"AAE"', b'"!!!!"', b'""', b'"AA-_"', b'"aGVsbG8gd29ybGQ="', b'"aGVsbG8gd29ybA=="',
             b'"aGVsbG8gd29ybA="', b'"A==="', b'"AA==AAAA"', b"[1]"]),
    (bytearray, [b'"AAE="', b'"AAE"']),
    (Optional[datetime.datetime], [b"1", b"null", b'"2021-01-02T03:04:05Z"']),
    (Union[uuid.UUID, int], [b"1.5", b"3", b'"c0a8f5e2-1c4b-4c2a-9b1e-2f3c4d5e6f70"']),
    (Optional[bytes], [b"1"]),
    (Dict[uuid.UUID, int], [b'{"c0a8f5e2-1c4b-4c2a-9b1e-2f3c4d5e6f70": 1}', b'{"x": 1}']),
    (List[datetime.date], [b'["2021-01-02", "2021-01-32"]']),
]


@pytest.mark.parametrize("t,docs", STRING_KIND_CASES, ids=[repr(c[0]) for c in STRING_KIND_CASES])
def test_string_kinds_like_msgspec(t, docs):
    for d in docs:
        assert_like_msgspec(d, t)


def test_uuid_is_a_real_uuid():
    u = jetjson.loads(b'"c0a8f5e2-1c4b-4c2a-9b1e-2f3c4d5e6f70"', type=uuid.UUID)
    assert u == uuid.UUID("c0a8f5e2-1c4b-4c2a-9b1e-2f3c4d5e6f70") and hash(u) == hash(uuid.UUID(str(u)))
    assert u.is_safe is uuid.SafeUUID.unknown and u.version == 4


def test_string_kinds_from_json_fallback():
    # documents only json accepts go through json's objects: same conversions
    assert jetjson.loads(b'["2021-01-02", NaN]', type=Tuple[datetime.date, float])[0] == datetime.date(2021, 1, 2)
    assert jetjson.loads(b'[1.25, NaN]', type=Tuple[decimal.Decimal, float])[0] == decimal.Decimal("1.25")
    with pytest.raises(jetjson.ValidationError, match=r"^Invalid UUID - at `\$\[0\]`$"):
        jetjson.loads(b'["x", NaN]', type=Tuple[uuid.UUID, float])


@pytest.mark.parametrize("t,docs", SCALAR_CASES, ids=[repr(c[0]) for c in SCALAR_CASES])
def test_types_like_msgspec(t, docs):
    for d in docs:
        assert_like_msgspec(d, t)
        assert_like_msgspec(d.decode(), t)  # str input too


RECORD_CASES = [
    (User, [b'{"id": 1, "login": "a"}', b'{"login": "a"}', b'{"id": "1", "login": "a"}',
            b'{"id": 1, "login": "a", "followers": 9, "extra": {"x": [1, 2, {"y": null}]}}', b"[]",
            b'{"id": 1, "id": 2, "login": "b"}']),
    (Repo, [b'{"id": 1, "name": "n", "owner": {"id": 2, "login": "o"}}',
            b'{"id": 1, "name": "n", "owner": {"id": "2", "login": "o"}}',
            b'{"id": 1, "name": "n", "owner": {"id": 2, "login": "o"}, "topics": ["a", 3]}',
            b'{"id": 1, "name": "n", "owner": {"id": 2, "login": "o"}, "visibility": "secret"}',
            b'{"license": "MIT", "owner": {"login": "o", "id": 2}, "name": "n", "id": 1, "visibility": "private"}',
            b'{"id": 1, "name": "n", "owner": {"login": "o"}}']),
    (List[Repo], [b'[{"id": 1, "name": "n", "owner": {"id": 2, "login": "o"}}, {"id": 1}]']),
    (Dict[str, User], [b'{"k": {"id": "z", "login": "q"}}']),
    (Point, [b'{"x": 1, "y": 2.5}', b'{"x": 1}', b'{"y": 1}']),
    (Slotted, [b'{"a": 1, "b": "x"}', b'{"a": 1}']),
    (Checked, [b'{"n": 1}', b'{"n": -1}', b'{"n": 0}']),
    (Holder, [b'{"inner": {"n": 5}, "items": [{"n": 1}, {"n": -3}]}', b'{"inner": {"n": 0}}']),
    (List[Holder], [b'[{"inner": {"n": 5}}, {"inner": {"n": -1}}]']),
    (Tree, [b'{"value": 1, "children": [{"value": 2, "children": [{"value": "x"}]}]}',
            b'{"value": 1, "children": [{"value": 2}], "parent": {"value": 0}}']),
    (Movie, [b'{"title": "t", "year": 1999}', b'{"title": "t"}', b'{"title": "t", "year": "x"}']),
    (MovieExtra, [b'{"title": "t", "year": 1999, "rating": 5}', b'{"title": "t", "year": 1}']),
    (Partial, [b'{"a": 1}', b'{"b": "x"}', b'{"a": 1, "b": 2}']),
    (PartialTE, [b'{"a": 1}', b'{"b": "x"}', b'{"a": 1, "b": "y"}']),
    (Pair, [b"[1]", b'[1, "x"]', b"[]", b'[1, "a", 3]', b'{"left": 1}', b'["1"]', b'["x", 1, 2]', b"[1, 2, 3]"]),
    (Optional[User], [b"1", b"null"]),
    (Union[User, List[int], None], [b"[1]", b'{"id": 1, "login": "x"}', b'"s"']),
]


@pytest.mark.parametrize("t,docs", RECORD_CASES, ids=[repr(c[0]) for c in RECORD_CASES])
def test_records_like_msgspec(t, docs):
    for d in docs:
        assert_like_msgspec(d, t)


def test_post_init_errors():
    with pytest.raises(jetjson.ValidationError, match=r"^n must be >= 0 - at `\$\.inner`$"):
        jetjson.loads(b'{"inner": {"n": -1}}', type=Holder)
    with pytest.raises(jetjson.ValidationError, match=r"^n must not be 0 - at `\$\.items\[1\]`$"):
        jetjson.loads(b'{"inner": {"n": 1}, "items": [{"n": 1}, {"n": 0}]}', type=Holder)
    with pytest.raises(KeyError):  # neither ValueError nor TypeError: as raised
        jetjson.loads(b'{"inner": {"n": 13}}', type=Holder)
    assert issubclass(jetjson.ValidationError, ValueError)


def test_dataclass_fields_set_like_init():
    calls = []

    @dataclass
    class Custom:
        a: int
        b: List[int] = field(default_factory=lambda: calls.append(1) or [7])
        c: int = field(default=5, init=False)
        d: List[int] = field(default_factory=list, init=False)

        def __init__(self, *args):  # never called
            raise AssertionError("own __init__ called")

    r = jetjson.loads(b'{"a": 1, "c": 99, "d": [1]}', type=Custom)
    assert (r.a, r.b, r.c, r.d) == (1, [7], 5, [])
    assert "c" not in r.__dict__  # init=False with a default: left to the class attribute
    assert calls == [1]
    r2 = jetjson.loads(b'{"a": 2}', type=Custom)
    assert r2.b is not r.b

    @dataclass(frozen=True, slots=True)
    class FS:
        a: int
        b: int = field(default=3, init=False)

    r = jetjson.loads(b'{"a": 1}', type=FS)
    assert (r.a, r.b) == (1, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.a = 2


def test_seed_differences_from_msgspec():
    # type=None means no type (json's value)
    assert jetjson.loads(b'{"a": 1}', type=None) == {"a": 1}
    # unhashable set items: TypeError
    with pytest.raises(TypeError):
        jetjson.loads(b"[[1]]", type=Set[List[int]])
    # documents only json accepts: converted from json's value
    assert math.isnan(jetjson.loads(b"NaN", type=float))
    assert jetjson.loads(b"[Infinity, 1]", type=List[float]) == [math.inf, 1.0]
    assert jetjson.loads(b"1e400", type=float) == math.inf
    with pytest.raises(jetjson.ValidationError, match=r"^Expected `int`, got `float` - at `\$\[0\]`$"):
        jetjson.loads(b"[NaN]", type=List[int])
    with pytest.raises(jetjson.ValidationError, match=r"^Expected `str`, got `float` - at `\$\.login`$"):
        jetjson.loads(b'{"id": 1, "login": -Infinity}', type=User)
    assert jetjson.loads(b'{"id": 1, "login": "x", "z": NaN}', type=User) == User(1, "x")


def test_invalid_json_is_decode_error():
    for bad in (b"[1", b"", b'{"id": 1,}', b"nul"):
        with pytest.raises(jetjson.JSONDecodeError) as info:
            jetjson.loads(bad, type=User)
        with pytest.raises(json.JSONDecodeError) as ref:
            json.loads(bad)
        assert str(info.value) == str(ref.value)


def test_unsupported_types():
    for t in (complex, range, Union[Color, str], Union[datetime.date, uuid.UUID], Union[User, Movie], Union[List[int], Tuple[int]],
              Dict[List[int], int]):
        with pytest.raises(TypeError):
            jetjson.loads(b"1", type=t)
    with pytest.raises(TypeError):
        jetjson.loads(b"1", type=int, object_hook=dict)


def test_union_order_messages():
    for t, exp in [
        (Union[int, str, None], "Expected `int | str | null`, got `float`"),
        (Optional[float], "Expected `float | null`, got `array`"),
        (Optional[User], "Expected `object | null`, got `array`"),
    ]:
        with pytest.raises(jetjson.ValidationError) as info:
            jetjson.loads(b"[1.5]" if "array" in exp else b"1.5", type=t)
        assert str(info.value) == exp


def test_decoder_object():
    dec = jetjson.Decoder(List[User])
    assert dec.type == List[User]
    data = b'[{"id": 1, "login": "a"}, {"id": 2, "login": "b", "followers": 3}]'
    for _ in range(3):
        assert dec.decode(data) == msgspec.json.Decoder(List[User]).decode(data)
    with pytest.raises(jetjson.ValidationError, match=r"- at `\$\[0\]\.id`"):
        dec.decode(b'[{"id": "x", "login": "a"}]')
    assert jetjson.Decoder().decode(b"[1]") == [1]
    assert jetjson.Decoder(type=int).decode("5") == 5
    assert "Decoder" in repr(dec)


def test_load_and_load_file(tmp_path):
    p = tmp_path / "u.json"
    p.write_bytes(b'{"id": 1, "login": "a"}')
    assert jetjson.load_file(str(p), type=User) == User(1, "a")
    assert jetjson.load_file(str(p)) == {"id": 1, "login": "a"}
    assert jetjson.load_file(str(p), type=None) == {"id": 1, "login": "a"}
    with open(p, "rb") as f:
        assert jetjson.load(f, type=User) == User(1, "a")
    with pytest.raises(jetjson.ValidationError):
        jetjson.load_file(str(p), type=List[int])
    with pytest.raises(TypeError):
        jetjson.load_file(str(p), kind=1)
    e = tmp_path / "empty.json"
    e.write_bytes(b"")
    with pytest.raises(jetjson.JSONDecodeError):
        jetjson.load_file(str(e), type=int)


def test_input_kinds():
    data = '{"id": 1, "login": "é"}'
    for form in (data, data.encode(), bytearray(data.encode()), memoryview(data.encode()),
                 data.encode("utf-16")):
        assert jetjson.loads(form, type=User) == User(1, "é")


def test_cache_starts_over():
    # more distinct types than the cache holds: every one still decodes right
    for i in range(1100):
        t = Tuple[(int,) * (i % 7)] if i % 2 else Dict[str, Literal[i]]
        if i % 2:
            assert jetjson.loads(json.dumps(list(range(i % 7))), type=t) == tuple(range(i % 7))
        else:
            assert jetjson.loads('{"a": %d}' % i, type=t) == {"a": i}


def test_deep_recursive_type():
    doc = {"value": 0}
    for i in range(1, 200):
        doc = {"value": i, "children": [doc]}
    r = jetjson.loads(json.dumps(doc), type=Tree)
    assert r == msgspec.json.decode(json.dumps(doc), type=Tree)
    deep = "[" * 100000 + "]" * 100000
    with pytest.raises(RecursionError):
        jetjson.loads(deep, type=List[Any])


# ---- corpus files ------------------------------------------------------------------------

@dataclass
class TwUser:
    id: int
    screen_name: str
    followers_count: int
    location: str


@dataclass
class TwStatus:
    id: int
    text: str
    user: TwUser
    retweet_count: int
    favorited: bool
    lang: str
    in_reply_to_status_id: Optional[int] = None


@dataclass
class Twitter:
    statuses: List[TwStatus]


class TwUserTD(TypedDict):
    id: int
    screen_name: str
    entities: Dict[str, Any]


class TwStatusTD(TypedDict, total=False):
    id: int
    user: TwUserTD
    entities: Dict[str, List[Dict[str, Any]]]
    coordinates: Optional[Dict[str, Any]]


try:
    from typed_corpus_types import CitmArea, CitmEvent, CitmPerformance, CitmPrice, CitmSeatCategory
except ImportError:  # tests/ turned into a package
    from .typed_corpus_types import CitmArea, CitmEvent, CitmPerformance, CitmPrice, CitmSeatCategory


@dataclass
class Citm:
    areaNames: Dict[str, str]
    audienceSubCategoryNames: Dict[str, str]
    blockNames: Dict[str, str]
    events: Dict[str, CitmEvent]
    performances: List[CitmPerformance]
    seatCategoryNames: Dict[int, str]
    subTopicNames: Dict[str, str]
    subjectNames: Dict[str, str]
    topicNames: Dict[str, str]
    topicSubTopics: Dict[str, List[int]]
    venueNames: Dict[str, str]


class GhActor(TypedDict):
    id: int
    login: str


@dataclass(frozen=True)
class GhRepo:
    id: int
    name: str


@dataclass
class GhEvent:
    id: str
    type: str
    actor: GhActor
    repo: GhRepo
    public: bool
    created_at: str
    payload: Dict[str, Any]


def corpus(name):
    if DATA_DIR is None:
        pytest.skip("no test data")
    with open(f"{DATA_DIR}/corpus/{name}", "rb") as f:
        return f.read()


@pytest.mark.parametrize("name,t", [
    ("twitter.json", Twitter),
    ("twitter.json", Dict[str, Any]),
    ("twitter.json", Dict[str, Union[List[TwStatusTD], Dict[str, Any]]]),
    ("citm_catalog.json", Citm),
    ("github_events.json", List[GhEvent]),
    ("github_events.json", Tuple[GhEvent, ...]),
])
def test_corpus_like_msgspec(name, t):
    data = corpus(name)
    got = jetjson.loads(data, type=t)
    assert got == msgspec.json.decode(data, type=t)
    assert jetjson.Decoder(t).decode(data) == got


def test_corpus_error_path():
    data = corpus("twitter.json")
    with pytest.raises(jetjson.ValidationError) as info:
        jetjson.loads(data, type=Dict[str, List[TwStatus]])
    with pytest.raises(msgspec.ValidationError) as ref:
        msgspec.json.decode(data, type=Dict[str, List[TwStatus]])
    assert str(info.value) == str(ref.value)


# ---- generated type shapes -----------------------------------------------------------------

try:
    from hypothesis import given, strategies as st
except ImportError:  # pragma: no cover
    given = None

_counter = [0]


def _make_dataclass(fields):
    _counter[0] += 1
    return dataclasses.make_dataclass(f"D{_counter[0]}", fields)


if given is not None:
    leaf_types = st.sampled_from([int, float, str, bool, type(None), Any, Literal["x", "y"], Color, Level])

    def _extend(children):
        return st.one_of(
            children.map(lambda t: List[t]),
            children.map(lambda t: Dict[str, t]),
            children.map(lambda t: Tuple[t, ...]),
            children.map(lambda t: Optional[t]),
            st.lists(children, min_size=1, max_size=3).map(lambda ts: Tuple[tuple(ts)]),
            st.lists(children, min_size=1, max_size=4).map(
                lambda ts: _make_dataclass([(f"f{i}", t) for i, t in enumerate(ts)])),
        )

    type_trees = st.recursive(leaf_types, _extend, max_leaves=8)
    json_values = st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                  st.text(max_size=5), st.sampled_from(["x", "y", "red", "green"])),
        lambda c: st.one_of(st.lists(c, max_size=4),
                            st.dictionaries(st.sampled_from(["f0", "f1", "f2", "f3", "k"]), c, max_size=4)),
        max_leaves=10,
    )

    def _value_for(t, draw):
        """A JSON value shaped like t, with random leaves (so often not matching)."""
        origin = typing.get_origin(t)
        args = typing.get_args(t)
        if dataclasses.is_dataclass(t):
            return {f.name: _value_for(f.type, draw) for f in dataclasses.fields(t)
                    if draw(st.integers(0, 9)) > 0}
        if origin is list or (origin is tuple and len(args) == 2 and args[1] is ...):
            return [_value_for(args[0], draw) for _ in range(draw(st.integers(0, 3)))]
        if origin is tuple:
            return [_value_for(a, draw) for a in args]
        if origin is dict:
            return {k: _value_for(args[1], draw) for k in draw(st.lists(st.text(max_size=3), max_size=3))}
        if origin is Union:
            return _value_for(draw(st.sampled_from(args)), draw)
        if draw(st.integers(0, 3)) == 0:
            return draw(json_values)
        sample = {int: st.integers(), float: st.floats(allow_nan=False, allow_infinity=False), str: st.text(max_size=4),
                  bool: st.booleans(), type(None): st.none(), Color: st.sampled_from(["red", "green", "blue"]),
                  Level: st.sampled_from([1, 2, 3]), Literal["x", "y"]: st.sampled_from(["x", "y", "z"])}
        return draw(sample.get(t, json_values))

    @hyp_settings(300)
    @given(type_trees, st.data())
    def test_generated_shapes_like_msgspec(t, data):
        value = _value_for(t, data.draw)
        assert_like_msgspec(json.dumps(value).encode(), t)


# ---- references and memory -------------------------------------------------------------------

def test_no_leaks():
    docs = [
        (Repo, b'{"id": 1, "name": "n", "owner": {"id": 2, "login": "o"}, "topics": ["a"], "x": [1, {"y": 2}]}'),
        (Repo, b'{"id": 1, "name": "n", "owner": {"id": "2", "login": "o"}}'),
        (Repo, b'{"id": 1, "name": "n"}'),
        (Holder, b'{"inner": {"n": -1}}'),
        (Holder, b'{"inner": {"n": 13}}'),
        (List[Pair], b'[[1, "a"], [2]]'),
        (List[Pair], b'[[1, "a"], []]'),
        (Dict[int, Level], b'{"1": 1, "2": 2}'),
        (Dict[int, Level], b'{"1": 1, "x": 2}'),
        (Dict[int, Level], b'{"1": 5}'),
        (Set[str], b'["a", "b"]'),
        (Set[List[int]], b'[[1]]'),
        (FrozenSet[int], b'[1, "x"]'),
        (MovieExtra, b'{"title": "t", "year": 1, "rating": 1.5}'),
        (Tree, b'{"value": 1, "children": [{"value": 2}, {"value": "x"}]}'),
        (List[float], b"[NaN, 1]"),
        (List[int], b"[NaN, 1]"),
        (Any, b'{"a": [1, 2, {"b": null}]}'),
        (Literal["a", "b"], b'"c"'),
        (User, b"[1"),
        (List[datetime.datetime], b'["2021-01-02T03:04:05+01:00", "2021-01-02T03:04:05.9999999Z", "2021-01-02T03:04"]'),
        (List[datetime.time], b'["03:04:05-02:00", "03:04:05"]'),
        (Dict[uuid.UUID, decimal.Decimal], b'{"c0a8f5e2-1c4b-4c2a-9b1e-2f3c4d5e6f70": 1.5, "x": 1}'),
        (List[decimal.Decimal], b'["1.5", 2, 123456789012345678901234567890, "x"]'),
        (List[bytes], b'["AAE=", "AAE"]'),
        (Tuple[bytearray, float], b'["AAE=", NaN]'),
        (List[Annotated[int, msgspec.Meta(gt=0)]], b"[1, 0]"),
        (Annotated[Dict[str, Annotated[str, msgspec.Meta(max_length=1)]], msgspec.Meta(min_length=1)], b'{"a": "bc"}'),
    ]
    dec = jetjson.Decoder(Repo)

    def run():
        for t, d in docs:
            try:
                jetjson.loads(d, type=t)
            except (ValueError, TypeError, KeyError):
                pass
        dec.decode(docs[0][1])

    # one object lost per run would be 38 KB or more every time; the caches' settling
    # (about 5 KB, whatever the number of runs) is not
    assert min(traced_growth(run, repeat=1200) for _ in range(2)) < 12000


def test_refcounts_of_members_and_defaults():
    default = object()

    @dataclass
    class WithDefault:
        a: int
        b: object = default

    before_member = sys.getrefcount(Color.RED)
    before_default = sys.getrefcount(default)
    for _ in range(1000):
        jetjson.loads(b'{"a": 1}', type=WithDefault)
        jetjson.loads(b'["red", "green"]', type=List[Color])
        try:
            jetjson.loads(b'["red", "blue"]', type=List[Color])
        except jetjson.ValidationError:
            pass
    assert sys.getrefcount(Color.RED) - before_member < 10
    assert sys.getrefcount(default) - before_default < 10


# ---- sub-interpreters ------------------------------------------------------------------------

def test_subinterpreter_types_of_its_own():
    si = pytest.importorskip("test_subinterpreters")  # its run_isolated
    if sys.version_info < (3, 12) or si._interpreters is None:
        pytest.skip("own-GIL interpreters need 3.12+")
    script = """if 1:
        import dataclasses, typing, jetjson
        @dataclasses.dataclass
        class P:
            x: int
            tags: typing.List[str] = dataclasses.field(default_factory=list)
        dec = jetjson.Decoder(typing.List[P])
        for _ in range(3):
            got = dec.decode(b'[{"x": 1, "tags": ["a"]}, {"x": 2}]')
            assert got == [P(1, ["a"]), P(2)], got
            assert jetjson.loads(b'{"x": 3}', type=P) == P(3)
        try:
            jetjson.loads(b'[{"x": "no"}]', type=typing.List[P])
        except jetjson.ValidationError as e:
            assert str(e) == "Expected `int`, got `str` - at `$[0].x`", str(e)
        else:
            raise AssertionError("no error")
    """
    for _ in range(2):
        si.run_isolated(script)
    # the main interpreter's own state is untouched
    assert jetjson.loads(b'{"id": 1, "login": "a"}', type=User) == User(1, "a")


# ---- type aliases (PEP 695) -------------------------------------------------------------------

class TypeAliasType:
    """Has the shape of a PEP 695 alias (`__value__`, the type's name), so that recursive
    aliases can be made on 3.11 too: their value is set after the alias exists."""

    def __init__(self, name):
        self.__name__ = name

    def __repr__(self):
        return self.__name__


def test_recursive_and_self_containing_aliases():
    json_value = TypeAliasType("JsonValue")
    json_value.__value__ = Union[None, bool, int, float, str, List[json_value], Dict[str, json_value]]
    doc = b'{"a": [1, 2.5, "x", null, true, {"b": []}]}'
    assert jetjson.loads(doc, type=json_value) == json.loads(doc)
    nested = TypeAliasType("Nested")
    nested.__value__ = Union[int, List[nested]]
    assert jetjson.loads(b"[1, [2, [3]], []]", type=nested) == [1, [2, [3]], []]
    with pytest.raises(jetjson.ValidationError, match=r"^Expected `int \| array`, got `str` - at `\$\[1\]\[0\]`$"):
        jetjson.loads(b'[1, ["x"]]', type=nested)
    selfish = TypeAliasType("Selfish")
    selfish.__value__ = Union[int, selfish]
    with pytest.raises(TypeError, match="contain themselves"):
        jetjson.loads(b"1", type=selfish)
    plain = TypeAliasType("Plain")
    plain.__value__ = Annotated[List[int], "x"]
    assert jetjson.loads(b"[1]", type=plain) == [1]


@pytest.mark.skipif(sys.version_info < (3, 12), reason="the type statement is 3.12+")
def test_pep695_type_statement():
    ns = {}
    exec("type J = list[J] | int\ntype S = int | S\ntype Pair[T] = tuple[T, T]", ns)
    assert jetjson.loads(b"[1, [2]]", type=ns["J"]) == [1, [2]]
    with pytest.raises(TypeError):
        jetjson.loads(b"1", type=ns["S"])
