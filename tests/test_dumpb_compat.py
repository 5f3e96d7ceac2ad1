"""dumpb as an orjson user meets it: the option names, the exception class, the cause a
failing `default` leaves, and numpy's messages. The oracle is the installed orjson: every
case runs both and compares the exception's type, message and __cause__ (type and
message), or the bytes.
"""

import dataclasses
import uuid

import numpy as np
import orjson
import pytest

import jetjson


def run(fn, *args, **kw):
    try:
        return ("ok", fn(*args, **kw))
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        cause = e.__cause__
        return ("raised", type(e), str(e).replace("dumps()", "dumpb()"),
                type(cause) if cause is not None else None,
                str(cause) if cause is not None else None)


def same(obj, **kw):
    exp = run(orjson.dumps, obj, **kw)
    got = run(jetjson.dumpb, obj, **kw)
    assert got == exp, f"{obj!r} {kw}"
    return got


# ---- options ----

@pytest.mark.parametrize("name", ["OPT_SERIALIZE_DATACLASS", "OPT_SERIALIZE_UUID"])
def test_no_effect_options_exist(name):
    assert getattr(jetjson, name) == getattr(orjson, name)
    assert name in jetjson.__all__
    for obj in (Point(1, "a"), uuid.UUID(int=7), [Point(2, None), uuid.UUID(int=1)], {"k": 1.5}):
        for extra in (0, orjson.OPT_SORT_KEYS, orjson.OPT_INDENT_2):
            same(obj, option=getattr(orjson, name) | extra)


@dataclasses.dataclass
class Point:
    x: int
    y: object


def test_every_orjson_option_name_exists():
    for name in dir(orjson):
        if name.startswith("OPT_"):
            assert getattr(jetjson, name) == getattr(orjson, name), name


# ---- the exception class ----

def test_encode_error_is_orjsons_class():
    assert (jetjson.JSONEncodeError is TypeError) == (orjson.JSONEncodeError is TypeError)


class Opaque:
    pass


def _raise(exc):
    def default(obj):
        raise exc
    return default


CALLS = [
    ((Opaque(),), {}),
    (({1},), {}),
    ((1 << 70,), {}),
    (("\ud800",), {}),
    (({1: 2},), {}),
    ((1,), {"option": 1 << 20}),
    ((1,), {"option": "x"}),
    ((1,), {"foo": 1}),
    ((), {}),
    ((Opaque(),), {"default": _raise(TypeError("inner"))}),
    ((Opaque(),), {"default": _raise(ValueError("v"))}),
    ((Opaque(),), {"default": _raise(KeyError("k"))}),
    ((Opaque(),), {"default": 3}),
    ((Opaque(),), {"default": None}),
    ((Opaque(),), {"default": lambda o: o}),
    (([[]] * 2,), {}),
]


@pytest.mark.parametrize("args,kw", CALLS)
def test_except_encode_error_catches_what_orjson_catches(args, kw):
    def caught(fn, cls):
        try:
            fn(*args, **kw)
        except cls:
            return True
        except Exception:  # noqa: BLE001 - not caught by cls: the answer
            return False
        return None

    assert caught(jetjson.dumpb, jetjson.JSONEncodeError) == caught(orjson.dumps, orjson.JSONEncodeError)
    assert run(jetjson.dumpb, *args, **kw) == run(orjson.dumps, *args, **kw)


# ---- default=None and the cause ----

@pytest.mark.parametrize("obj", [Opaque(), {1, 2}, b"x", bytearray(b"y"), complex(1, 2),
                                 {"a": [Opaque()]}, [1, Opaque()], Opaque])
def test_default_none_keeps_orjsons_cause(obj):
    got = same(obj, default=None)
    assert got[0] == "raised" and got[3] is TypeError  # the call of None
    same(obj)  # no default: no cause
    same(obj, default=None, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2)


def test_default_none_is_not_called_for_what_dumpb_writes():
    for obj in (1, "s", [1.5, None], {"a": True}, Point(1, 2), uuid.UUID(int=3)):
        same(obj, default=None)


@pytest.mark.parametrize("exc", [ValueError("no"), TypeError("t"), KeyError("k"), RuntimeError("")])
def test_default_raising_is_the_cause(exc):
    same(Opaque(), default=_raise(exc))
    same([{"x": Opaque()}], default=_raise(exc))


def test_default_recursion_has_no_cause():
    same(Opaque(), default=lambda o: o)
    same(Opaque(), default=lambda o: Opaque())


# ---- numpy ----

N = orjson.OPT_SERIALIZE_NUMPY
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "longdouble", "complex64", "complex128", "object",
          "U3", "S3", "V4", "timedelta64[s]", "datetime64[s]", "datetime64[ns]",
          [("a", "i4")], [("a", "f8"), ("b", "u1")]]


def layouts(dtype):
    dt = np.dtype(dtype)
    yield "c", np.zeros((2, 3), dtype=dt)
    yield "T", np.zeros((2, 3), dtype=dt).T
    yield "F", np.zeros((2, 3), dtype=dt, order="F")
    yield "step", np.zeros(6, dtype=dt)[::2]
    yield "cols", np.zeros((3, 4), dtype=dt)[:, 1:3]
    yield "0d", np.zeros((), dtype=dt)
    yield "empty", np.zeros((0,), dtype=dt)
    yield "empty2", np.zeros((2, 0), dtype=dt)
    yield "bcast", np.broadcast_to(np.zeros(1, dtype=dt), (3,))
    yield "F1col", np.zeros((3, 1), dtype=dt, order="F")
    yield "nested", {"a": [np.zeros(4, dtype=dt)[::2], 1]}
    if dt.kind in "iuf" and dt.itemsize > 1:
        yield "swapped", np.zeros(3, dtype=dt.newbyteorder())
        yield "swapped-step", np.zeros(6, dtype=dt.newbyteorder())[::2]


def numpy_cases():
    for dtype in DTYPES:
        for name, arr in layouts(dtype):
            yield pytest.param(arr, id=f"{np.dtype(dtype).str}-{name}")


@pytest.mark.parametrize("arr", numpy_cases())
@pytest.mark.parametrize("option", [N, N | orjson.OPT_INDENT_2, 0])
def test_numpy_errors_match_orjson(arr, option):
    same(arr, option=option)


@pytest.mark.parametrize("arr", numpy_cases())
@pytest.mark.parametrize("default", [None, lambda o: o.tolist() if isinstance(o, np.ndarray) else str(o),
                                     lambda o: "dflt", _raise(ValueError("d"))])
def test_numpy_with_default_matches_orjson(arr, default):
    same(arr, option=N, default=default)


def test_numpy_messages_are_orjsons():
    # the texts themselves, so a change on either side shows here too
    for arr, msg in ((np.zeros((2, 2)).T, "numpy array is not C contiguous; use ndarray.tolist() in default"),
                     (np.zeros(2, dtype=complex), "unsupported datatype in numpy array"),
                     (np.zeros((), dtype="i8"), "unsupported datatype in numpy array")):
        for fn in (orjson.dumps, jetjson.dumpb):
            with pytest.raises(TypeError) as info:
                fn(arr, option=N)
            assert str(info.value) == msg
