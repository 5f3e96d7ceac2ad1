"""jetjson.dumps/dump against json on chosen values: every type json takes, subclasses,
dict keys, every error json raises, circular references, default(), deep nesting,
arguments json handles itself. Results and exceptions (type and message) must match."""

import collections
import datetime
import decimal
import enum
import io
import json
import sys

import pytest

import jetjson

try:
    from dumps_util import OPTION_SETS, check_dump, check_dumps, option_id
except ImportError:  # tests/ turned into a package
    from .dumps_util import OPTION_SETS, check_dump, check_dumps, option_id


class IntE(enum.IntEnum):
    A = 1
    B = -(2 ** 70)


class StrE(str, enum.Enum):
    X = "x\u00e9"
    Y = "\U0001f600"


class FloatE(float, enum.Enum):
    H = 0.5


class MyStr(str):
    def __repr__(self):
        return "MyStr!"

    def __str__(self):
        return "str!"


class MyInt(int):
    def __repr__(self):
        return "MyInt!"


class MyFloat(float):
    def __repr__(self):
        return "MyFloat!"


class MyList(list):
    pass


class MyTuple(tuple):
    pass


class MyDict(dict):
    pass


class ItemsDict(dict):
    """items() overridden: both json encoders use it."""

    def items(self):
        return [("z", 1), ("a", [2])]


class EmptyIterList(list):
    """True but iterates nothing: the Python encoder's quirk ('[' is lost)."""

    def __bool__(self):
        return True

    def __iter__(self):
        return iter(())


class Point:
    def __init__(self, x):
        self.x = x


SCALARS = [
    None, True, False, 0, 1, -1, 7, 2 ** 30, 2 ** 31, 2 ** 62, 2 ** 63 - 1, 2 ** 63, -2 ** 63,
    -2 ** 63 - 1, 2 ** 64 - 1, 2 ** 64, 10 ** 40, -10 ** 40, 10 ** 4000,
    0.0, -0.0, 1.0, 0.1, 1e16, 1e-5, 1.5e300, 5e-324, 1.7976931348623157e308, -2.5,
    float("nan"), float("inf"), -float("inf"),
    "", "a", "plain ascii", "\x00\x01\x1f\x7f\"\\/\b\f\n\r\t", "\u00e9\u00ff", "\u0100\u20ac",
    "\u2028\u2029", "\U0001f600\U0010ffff", "\ud800", "\udfff", "\ud83d\ude00", "\udc00\ud800",
    "x" * 1000 + "\u00e9", "\u20ac" * 33 + "\"",
    IntE.A, IntE.B, StrE.X, StrE.Y, FloatE.H, MyStr("sub\u00e9"), MyInt(5), MyInt(-2 ** 80),
    MyFloat(2.5), MyFloat("nan"), True, decimal.Decimal("1.5"),
]

CONTAINERS = [
    [], (), {}, [[]], [{}], {"a": []}, [1, [2, [3, {"b": (4, 5)}]]],
    MyList([1, "x"]), MyTuple((1, 2)), MyDict(a=1, b=[2]), MyList(), MyDict(), MyTuple(),
    collections.OrderedDict([("b", 1), ("a", 2)]), collections.defaultdict(int, {"k": 1}),
    ItemsDict(q=1), EmptyIterList(), EmptyIterList([1]),
    {"\u00e9": "\U0001f600", "\ud800": ["\x00"]},
    {1: "int", 2.5: "float", True: "bool", False: "f", None: "none", -7: "neg", 10 ** 30: "big"},
    {IntE.A: 1, MyFloat(1.25): 2, MyInt(9): 3, MyStr("k"): 4, StrE.X: 5},
    {float("nan"): 1, float("inf"): 2, -float("inf"): 3},
    {"b": 1, "a": 2, "c": {"z": 1, "y": 2}},
]


def all_values():
    vals = list(SCALARS) + list(CONTAINERS)
    vals.append(list(SCALARS))
    vals.append({str(i): v for i, v in enumerate(SCALARS)})
    vals.append(tuple(CONTAINERS))
    return vals


@pytest.mark.parametrize("kw", OPTION_SETS, ids=option_id)
def test_values(kw):
    for v in all_values():
        check_dumps(v, repr(v)[:60], **kw)


@pytest.mark.parametrize("kw", [{}, {"indent": 3}, {"ensure_ascii": False}, {"sort_keys": True}],
                         ids=option_id)
def test_dump_values(kw):
    for v in all_values():
        check_dump(v, repr(v)[:60], **kw)


def test_dump_writes_once_and_returns_none():
    calls = []

    class W:
        def write(self, s):
            calls.append(s)

    assert jetjson.dump({"a": [1, 2]}, W(), indent=1) is None
    assert "".join(calls) == json.dumps({"a": [1, 2]}, indent=1)


# ---- errors --------------------------------------------------------------------------

BAD_KEYS = [(1, 2), datetime.date(2020, 1, 2), frozenset(), b"x", decimal.Decimal(1), Point(1)]


@pytest.mark.parametrize("kw", OPTION_SETS, ids=option_id)
def test_bad_keys(kw):
    for k in BAD_KEYS:
        check_dumps({k: 1}, repr(k), **kw)
        check_dumps({"a": 1, k: 2, "b": 3}, repr(k), **kw)
        check_dumps([{"x": {k: 1}}], repr(k), **kw)
        check_dump({k: 1}, repr(k), **kw)


@pytest.mark.parametrize("kw", OPTION_SETS, ids=option_id)
def test_unserializable(kw):
    for v in [object(), Point(1), {1, 2}, b"bytes", bytearray(b"x"), datetime.datetime(2020, 1, 1),
              decimal.Decimal("1.1"), complex(1, 2), range(3), iter([])]:
        check_dumps(v, repr(v), **kw)
        check_dumps([1, {"a": v}], repr(v), **kw)


@pytest.mark.parametrize("indent", [None, 2])
def test_nan_without_allow_nan(indent):
    for v in [float("nan"), float("inf"), -float("inf"), MyFloat("inf"), FloatE.H]:
        for doc in (v, [v], {"k": v}, {v: 1}, [1, {"a": [v]}]):
            check_dumps(doc, repr(doc), allow_nan=False, indent=indent)
            check_dump(doc, repr(doc), allow_nan=False, indent=indent)


def test_sort_keys_mixed_types():
    for d in ({1: 2, "a": 3}, {"a": 1, None: 2}, {1.5: 1, "x": 2}, {(1,): 1, "x": 2},
              {2: 1, 1: 2, 1.5: 3, True: 4}):
        for indent in (None, 2):
            check_dumps(d, repr(d), sort_keys=True, indent=indent)
            check_dumps(d, repr(d), sort_keys=True, indent=indent, skipkeys=True)


def test_int_max_str_digits():
    old = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(1000)
        for v in (10 ** 999, 10 ** 1000, -10 ** 1500, MyInt(10 ** 2000)):
            for doc in (v, [v], {v: 1}, {"a": v}):
                check_dumps(doc, "big int", indent=None)
                check_dumps(doc, "big int", indent=1)
    finally:
        sys.set_int_max_str_digits(old)


@pytest.mark.parametrize("kw", [{}, {"indent": 1}, {"sort_keys": True}], ids=option_id)
def test_circular(kw):
    a = []
    a.append(a)
    d = {}
    d["self"] = d
    nested = {"x": [1, {"y": None}]}
    nested["x"][1]["y"] = nested
    t = ([],)
    t[0].append(t)
    for doc in (a, d, nested, t, [a], {"k": [d]}):
        check_dumps(doc, "circular", **kw)
    # the same object twice (not a cycle) is fine
    shared = [1, 2]
    check_dumps([shared, shared, {"a": shared}], "shared", **kw)
    # default returning its argument: circular, and RecursionError without the check
    check_dumps([Point(1)], "default=identity", default=lambda o: o, **kw)
    check_dumps([Point(1)], "default=identity", default=lambda o: o, check_circular=False, **kw)
    check_dumps(a, "cycle unchecked", check_circular=False, loose_recursion=False, **kw)
    check_dumps(d, "cycle unchecked", check_circular=False, **kw)


def test_default():
    def to_jsonable(o):
        if isinstance(o, Point):
            return {"x": o.x, "nested": [o.x, (o.x,)]}
        if isinstance(o, datetime.date):
            return o.isoformat()
        if isinstance(o, (set, frozenset)):
            return sorted(o)
        if isinstance(o, decimal.Decimal):
            return float(o)
        if isinstance(o, complex):
            return Point(o.real)  # default's result goes through default again
        raise TypeError(f"no {type(o).__name__}")

    doc = [Point(1), {"d": datetime.date(2020, 2, 3), "s": {3, 1, 2}}, decimal.Decimal("2.5"),
           complex(1, 2), [Point(Point(2))], (Point([1, Point(3)]),)]
    for kw in OPTION_SETS:
        kw = dict(kw, default=to_jsonable)
        check_dumps(doc, "default", **kw)
        check_dumps([object()], "default raising", **kw)
        check_dumps([Point(object())], "default result unserializable", **kw)
        check_dump(doc, "default", **kw)
    check_dumps([1], "default not callable", default=42)
    check_dumps([Point(1)], "default not callable", default=42)
    check_dumps([Point(1)], "default returns unserializable", default=lambda o: object)
    check_dumps([Point(1)], "default raises ValueError", default=lambda o: int("x"))


@pytest.mark.parametrize("sort_keys", [False, True])
@pytest.mark.parametrize("indent", [None, 2])
def test_default_mutating_containers(indent, sort_keys):
    """A default() that changes the containers being encoded: json's output (or error),
    and no crash."""

    def make_dict():
        d = {"a": Point(1), "b": 2, "c": [3, Point(2)], "d": 4}

        def default(o):
            d.pop("d", None)
            d["b"] = "changed"
            d.clear() if o.x == 2 else None
            return o.x

        return d, default

    def make_dict_same_size():
        d = {"a": Point(1), "b": 2}

        def default(o):
            d["b"] = ["replaced"]
            return 0

        return d, default

    def make_list():
        lst = [Point(1), 1, [Point(2), 5], 3, 4]

        def default(o):
            lst.pop()
            if o.x == 2:
                lst.clear()
            return [o.x]

        return lst, default

    def make_list_growing():
        lst = [Point(1), 1]

        def default(o):
            if len(lst) < 6:
                lst.append(Point(len(lst)))
            return o.x

        return lst, default

    def make_nested():
        inner = {"x": Point(1), "y": 2}
        outer = {"i": inner, "after": 3, "z": [inner]}

        def default(o):
            outer.clear()
            inner.clear()
            return "gone"

        return outer, default

    for make in (make_dict, make_dict_same_size, make_list, make_list_growing, make_nested):
        obj, default = make()
        holder = {}

        def remake(make=make):
            o, holder["f"] = make()
            return o

        exp = None
        try:
            exp = json.dumps(obj, default=default, indent=indent, sort_keys=sort_keys)
        except Exception as e:  # noqa: BLE001
            exp = e
        obj2 = remake()
        try:
            got = jetjson.dumps(obj2, default=holder["f"], indent=indent, sort_keys=sort_keys)
        except Exception as e:  # noqa: BLE001
            got = e
        if isinstance(exp, Exception):
            assert type(got) is type(exp) and str(got) == str(exp), (make.__name__, got, exp)
        else:
            assert got == exp, (make.__name__, got, exp)


def _nest(depth, kind):
    x = [] if kind == "list" else {}
    for i in range(depth):
        x = [x] if kind == "list" else ({"k": x} if kind == "dict" else [{"k": x}] if i % 2 else {"k": [x]})
    return x


@pytest.mark.parametrize("kind", ["list", "dict", "mixed"])
@pytest.mark.parametrize("indent", [None, 1])
def test_deep_nesting(kind, indent):
    # moderate depth works for both
    for depth in (100, 400):
        check_dumps(_nest(depth, kind), f"depth {depth}", indent=indent)
    # very deep: both RecursionError, never a crash
    for depth in (5000, 100_000):
        check_dumps(_nest(depth, kind), f"depth {depth}", indent=indent)


def test_deep_nesting_same_limit():
    """The first failing depth is json's (C encoder: same message too)."""
    def first_failure(fn, **kw):
        for depth in range(800, 1200):
            try:
                fn(_nest(depth, "list"), **kw)
            except RecursionError:
                return depth
        return None

    assert first_failure(jetjson.dumps) == first_failure(json.dumps)
    assert first_failure(jetjson.dumps, indent=1) == first_failure(json.dumps, indent=1)


def test_deep_nesting_high_recursion_limit():
    """With a raised recursion limit, a million-deep list must not crash: json and
    jetjson agree or jetjson raises RecursionError (its own cap)."""
    old = sys.getrecursionlimit()
    deep = _nest(1_000_000, "list")
    try:
        sys.setrecursionlimit(10 ** 7)
        with pytest.raises(RecursionError):
            jetjson.dumps(deep)
        with pytest.raises(RecursionError):
            jetjson.dumps(deep, indent=1)
        sys.setrecursionlimit(15000)
        ok = _nest(1500, "mixed")  # past the default limit, inside the C stack cap
        assert jetjson.dumps(ok) == json.dumps(ok)
        ok = _nest(5000, "list")
        assert jetjson.dumps(ok) == json.dumps(ok)
    finally:
        sys.setrecursionlimit(old)


# ---- arguments -----------------------------------------------------------------------

def test_arguments_json_handles():
    class Enc(json.JSONEncoder):
        def default(self, o):
            return "enc"

    cases = [
        ((Point(1),), {"cls": Enc}),
        (([1],), {"cls": None}),
        (([1],), {"unknown": 1}),
        (([1],), {"separators": (1, 2)}),
        (([1],), {"separators": (",",)}),
        (([1],), {"separators": 5}),
        (([1, {"a": 2}],), {"separators": (MyStr(";"), "=")}),
        (([1, [2]],), {"indent": 1.5}),
        (("text",), {"indent": 1.5}),
        (([1, [2]],), {"indent": MyInt(2)}),
        (([1, [2]],), {"indent": MyStr("-")}),
        (([1, [2]],), {"indent": 10 ** 30}),
        (([1, [2]],), {"indent": True}),
        (([1, [2]],), {"indent": False}),
        (([float("nan")],), {"allow_nan": 0}),
        (([float("nan")],), {"allow_nan": []}),
        (({(1,): 2},), {"skipkeys": "yes"}),
        (({"b": 1, "a": 2},), {"sort_keys": 1.0}),
        (("\u00e9",), {"ensure_ascii": None}),
        (([1], [2]), {}),
        ((), {"obj": [1]}),
        ((), {}),
    ]
    for args, kw in cases:
        exp = None
        try:
            exp = json.dumps(*args, **kw)
        except Exception as e:  # noqa: BLE001
            exp = e
        try:
            got = jetjson.dumps(*args, **kw)
        except Exception as e:  # noqa: BLE001
            got = e
        if isinstance(exp, Exception):
            assert type(got) is type(exp), (args, kw, got, exp)
            assert str(got).replace("jetjson._jetjson.", "") == str(exp).replace("json.", ""), (args, kw)
        else:
            assert got == exp, (args, kw)


def test_dump_arguments_json_handles():
    for args, kw in [((Point(1), io.StringIO()), {"default": str}), (([1],), {}),
                     (([1], io.StringIO()), {"cls": json.JSONEncoder})]:
        try:
            exp = json.dump(*args, **kw)
        except Exception as e:  # noqa: BLE001
            exp = e
        try:
            got = jetjson.dump(*args, **kw)
        except Exception as e:  # noqa: BLE001
            got = e
        assert type(got) is type(exp), (args, kw, got, exp)


def test_dump_to_non_writer():
    with pytest.raises(AttributeError):
        jetjson.dump([1], object())
    with pytest.raises(AttributeError):
        json.dump([1], object())


def test_ascii_strings_every_length_and_escape_position():
    """The ASCII fast path reads strings in overlapping words: every length up to 48 with
    a character to escape at every position, as values and keys, both ensure_ascii."""
    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN/ "
    for n in range(49):
        base = alphabet[:n]
        strings = [base]
        for pos in range(n):
            for c in "\"\\\x00\x1f\x7f\n\t~ ":
                strings.append(base[:pos] + c + base[pos + 1:])
        for ensure_ascii in (True, False):
            check_dumps(strings, f"length {n}", ensure_ascii=ensure_ascii)
            check_dumps({s: i for i, s in enumerate(strings)}, f"keys length {n}",
                        ensure_ascii=ensure_ascii)
