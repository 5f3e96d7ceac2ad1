"""loads(type=T, rename=...): the JSON names of dataclass and TypedDict fields.

Oracle: msgspec Structs made with the same fields and the same ``rename`` (its Struct
option): the values decoded from documents keyed by msgspec's encoded names, the
errors (missing field, wrong type, unknown field) with their wording and path, and the
errors of a bad ``rename`` itself.
"""

import dataclasses
import gc
import keyword
import unicodedata
import sys
from typing import List, Optional, TypedDict

import pytest

import jetjson
from conftest import hyp_settings, traced_growth

msgspec = pytest.importorskip("msgspec")

KINDS = ["lower", "upper", "camel", "pascal", "kebab"]
_count = [0]


def make_pair(names, rename, types=None):
    """A dataclass and a msgspec Struct with the same fields (all int unless given)."""
    _count[0] += 1
    types = types or [int] * len(names)
    cls = dataclasses.make_dataclass(f"R{_count[0]}", list(zip(names, types)))
    struct = msgspec.defstruct(f"S{_count[0]}", list(zip(names, types)), rename=rename)
    return cls, struct


def plain(v):
    """A decoded record as a dict of its fields (dataclass or Struct alike)."""
    if dataclasses.is_dataclass(v):
        return dataclasses.asdict(v)
    if isinstance(v, msgspec.Struct):
        return {f: plain(getattr(v, f)) for f in v.__struct_fields__}
    return [plain(x) for x in v] if isinstance(v, list) else v


def outcome(fn):
    try:
        return ("ok", plain(fn()))
    except (jetjson.ValidationError, msgspec.ValidationError) as e:
        return ("invalid", str(e))
    except (TypeError, ValueError) as e:
        return (type(e).__name__, str(e))


def check_like_msgspec(names, rename):
    try:
        cls, struct = make_pair(names, rename)
    except (TypeError, ValueError) as e:  # msgspec refuses the renamed names (a clash)
        cls = dataclasses.make_dataclass("X", [(n, int) for n in names])
        got = outcome(lambda: jetjson.loads(b"{}", type=cls, rename=rename))
        assert got == (type(e).__name__, str(e))
        return
    encoded = [f.encode_name for f in msgspec.structs.fields(struct)]
    doc = msgspec.json.encode(dict(zip(encoded, range(len(names)))))
    got = jetjson.loads(doc, type=cls, rename=rename)
    assert dataclasses.asdict(got) == msgspec.structs.asdict(msgspec.json.decode(doc, type=struct))
    # each field missing in turn, then of the wrong type: the same message and path
    for i, name in enumerate(encoded):
        rest = {k: v for k, v in zip(encoded, range(len(names))) if k != name}
        missing = msgspec.json.encode(rest)
        assert outcome(lambda: jetjson.loads(missing, type=cls, rename=rename)) == outcome(
            lambda: msgspec.json.decode(missing, type=struct))
        wrong = msgspec.json.encode({**rest, name: "x"})
        assert outcome(lambda: jetjson.loads(wrong, type=cls, rename=rename)) == outcome(
            lambda: msgspec.json.decode(wrong, type=struct))


NAMES = ["field_one", "_private", "__dunder__", "already_camelCase", "x", "a__b", "trailing_", "ABC_def",
         "_a_b_", "a1_2b", "HTTPServer", "x_", "é_ü", "a_1", "_1a", "A", "fooBar_baz", "a_éb", "a_ß", "é_ßa"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", NAMES)
def test_each_kind_like_msgspec(kind, name):
    check_like_msgspec([name, "other_field"], kind)


@pytest.mark.parametrize("kind", KINDS)
def test_underscore_names_like_msgspec(kind):
    check_like_msgspec(["_"], kind)
    check_like_msgspec(["__", "b"], kind)


def test_mapping_and_callable_like_msgspec():
    names = ["user_id", "first_name", "c"]
    check_like_msgspec(names, {"user_id": "ID", "c": None})
    check_like_msgspec(names, {"first_name": "fn"})
    check_like_msgspec(names, lambda n: None if n == "c" else n.upper())
    check_like_msgspec(names, str.title)
    check_like_msgspec(names, {"user_id": "c"})  # a clash
    check_like_msgspec(names, "camel")


@pytest.mark.parametrize("rename", ["nope", 5, lambda n: 1, {"a_b": 1}, lambda n: b"x"])
def test_bad_rename_like_msgspec(rename):
    names = ["a_b", "c"]
    try:
        msgspec.defstruct("S", [(n, int) for n in names], rename=rename)
    except (TypeError, ValueError) as e:
        ref = (type(e).__name__, str(e))
    cls = dataclasses.make_dataclass("B", [(n, int) for n in names])
    assert outcome(lambda: jetjson.loads(b"{}", type=cls, rename=rename)) == ref
    assert outcome(lambda: jetjson.Decoder(cls, rename=rename)) == ref


def test_sequence_is_not_a_mapping():
    # msgspec reads a list's items by the field names and, failing, keeps the names;
    # jetjson says what is wrong
    cls = dataclasses.make_dataclass("B", [("a_b", int)])
    with pytest.raises(TypeError, match="`rename` must be a str, callable, or mapping"):
        jetjson.loads(b"{}", type=cls, rename=[("a_b", "x")])


def test_exception_from_callable_propagates():
    def boom(name):
        raise KeyError(name)

    with pytest.raises(KeyError):
        jetjson.loads(b"{}", type=dataclasses.make_dataclass("B", [("a", int)]), rename=boom)


def test_unknown_fields_are_the_json_names():
    cls, struct = make_pair(["a_b", "c"], "camel")
    struct = msgspec.defstruct("SF", [("a_b", int), ("c", int)], rename="camel", forbid_unknown_fields=True)
    for doc in [b'{"aB": 1, "c": 2, "a_b": 3}', b'{"aB": 1, "c": 2}']:
        assert outcome(lambda: jetjson.loads(doc, type=cls, rename="camel", forbid_unknown_fields=True)) == outcome(
            lambda: msgspec.json.decode(doc, type=struct))


@dataclasses.dataclass
class Inner:
    inner_value: int


@dataclasses.dataclass
class Outer:
    outer_list: List[Inner]
    maybe_inner: Optional[Inner] = None


class InnerS(msgspec.Struct, rename="kebab"):
    inner_value: int


class OuterS(msgspec.Struct, rename="kebab"):
    outer_list: List[InnerS]
    maybe_inner: Optional[InnerS] = None


class Movie(TypedDict):
    movie_title: str
    release_year: int


def test_nested_classes_and_typeddicts():
    docs = [b'{"outer-list": [{"inner-value": 1}], "maybe-inner": {"inner-value": 2}}',
            b'{"outer-list": [{"inner-value": 1}, {"inner_value": 2}]}',
            b'{"outer-list": [{"inner-value": "x"}]}', b'{"outer_list": []}']
    for doc in docs:
        got = outcome(lambda: jetjson.loads(doc, type=Outer, rename="kebab"))
        exp = outcome(lambda: msgspec.json.decode(doc, type=OuterS))
        assert got == exp
    # a TypedDict keeps its keys, read from the renamed names
    assert jetjson.loads(b'{"movieTitle": "t", "releaseYear": 1}', type=Movie, rename="camel") == {
        "movie_title": "t", "release_year": 1}


def test_decoder_and_streams_take_rename():
    cls, struct = make_pair(["user_id", "user_name"], "camel", [int, str])
    lines = [b'{"userId": 1, "userName": "a"}', b'{"userName": "b", "userId": 2}']
    want = [dataclasses.asdict(cls(**msgspec.structs.asdict(msgspec.json.decode(d, type=struct)))) for d in lines]
    dec = jetjson.Decoder(cls, rename="camel")
    assert [dataclasses.asdict(dec.decode(d)) for d in lines] == want
    assert [dataclasses.asdict(v) for v in jetjson.loads_many(b"\n".join(lines), type=cls, rename="camel")] == want
    fed = jetjson.Decoder(type=cls, rename="camel")
    assert [dataclasses.asdict(v) for v in fed.feed(b"\n".join(lines) + b"\n")] == want
    # the same type without rename reads the Python names
    assert jetjson.loads(b'{"user_id": 3, "user_name": "c"}', type=cls) == cls(3, "c")


def test_cached_per_rename():
    cls, _ = make_pair(["a_b"], "camel")
    assert jetjson.loads(b'{"aB": 1}', type=cls, rename="camel") == cls(1)
    assert jetjson.loads(b'{"AB": 1}', type=cls, rename="pascal") == cls(1)
    assert jetjson.loads(b'{"a_b": 1}', type=cls) == cls(1)
    assert jetjson.loads(b'{"a_b": 1}', type=cls, rename=None) == cls(1)


try:
    from hypothesis import given, strategies as st
except ImportError:  # pragma: no cover
    given = None

if given is not None:
    _part = st.text(alphabet="abcXYZ01éß", min_size=1, max_size=4)
    _names = st.builds(
        lambda lead, first, rest, tail: "_" * lead + first + "".join("_" * n + p for n, p in rest) + "_" * tail,
        st.integers(0, 2), st.text(alphabet="abcXYZéß", min_size=1, max_size=4),
        st.lists(st.tuples(st.integers(1, 2), _part), max_size=3), st.integers(0, 2),
    ).filter(lambda n: n.isidentifier() and not keyword.iskeyword(n)
             and unicodedata.normalize("NFKC", n) == n  # else dataclasses cannot make the field
             and not (n.startswith("__") and not n.endswith("__")))  # msgspec cannot make those (mangled)

    @hyp_settings(200)
    @given(st.lists(_names, min_size=1, max_size=4, unique=True), st.sampled_from(KINDS))
    def test_generated_names_like_msgspec(names, kind):
        check_like_msgspec(names, kind)


def test_no_leaks_and_refcounts():
    cls, _ = make_pair(["a_b", "c_d"], "camel")
    mapping = {"a_b": "".join(["X", "Y"])}  # a str of its own, counted below
    bad = {"a_b": 1}
    fn = str.upper

    def cached():  # plans kept in the cache: nothing may grow
        jetjson.loads(b'{"aB": 1, "cD": 2}', type=cls, rename="camel")
        jetjson.loads(b'{"A_B": 1, "C_D": 2}', type=cls, rename=fn)
        try:
            jetjson.loads(b"{}", type=cls, rename="nope")
        except ValueError:
            pass
        try:
            jetjson.loads(b'{"aB": 1}', type=cls, rename="camel")
        except jetjson.ValidationError:
            pass

    def compiled():  # a dict is not hashable: a plan compiled and dropped each call
        jetjson.loads(b'{"XY": 1, "c_d": 2}', type=cls, rename=mapping)
        try:
            jetjson.loads(b"{}", type=cls, rename=bad)
        except TypeError:
            pass

    assert min(traced_growth(cached, repeat=300) for _ in range(2)) < 12000
    # compiling fills and drains CPython's free lists and typing's caches (tens of KB,
    # not in proportion to the calls): a lost plan would keep cls, a lost name mapping's
    # values, a lost node list its objects
    compiled()
    gc.collect()
    before = (sys.getrefcount(mapping), sys.getrefcount(bad), sys.getrefcount(fn), sys.getrefcount(cls),
              sys.getrefcount(mapping["a_b"]), len(gc.get_objects()))
    for _ in range(300):
        compiled()
        cached()
    gc.collect()
    after = (sys.getrefcount(mapping), sys.getrefcount(bad), sys.getrefcount(fn), sys.getrefcount(cls),
             sys.getrefcount(mapping["a_b"]), len(gc.get_objects()))
    assert after[:5] == before[:5]
    assert after[5] - before[5] < 50


def test_load_file_and_load_take_rename(tmp_path):
    cls, _ = make_pair(["user_id"], "camel")
    path = tmp_path / "u.json"
    path.write_bytes(b'{"userId": 7, "other": 1}')
    assert jetjson.load_file(path, type=cls, rename="camel") == cls(7)
    with open(path, "rb") as f:
        assert jetjson.load(f, type=cls, rename="camel") == cls(7)
    with pytest.raises(jetjson.ValidationError, match="unknown field `other`"):
        jetjson.load_file(path, type=cls, rename="camel", forbid_unknown_fields=True)
    with pytest.raises(TypeError, match=r"^load_file\(\) takes the path"):
        jetjson.load_file(path, rename="camel")  # no type
    with pytest.raises(TypeError, match=r"^loads\(\) takes the document"):
        jetjson.loads(b"{}", type=cls, indent=2)
    assert jetjson.load_file(path) == {"userId": 7, "other": 1}
