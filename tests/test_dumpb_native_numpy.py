"""dumpb's numpy arrays and scalars (OPT_SERIALIZE_NUMPY) against orjson.dumps.

The oracle is the installed orjson. float64 values are written exactly as dumpb writes
Python floats, so a float64 array also reads like dumpb(array.tolist()). Cases where orjson
crashes the interpreter (negative month counts, [2s]-style units) have no oracle and
check that dumpb raises JSONEncodeError instead.
"""

import gc
import sys
import tracemalloc

import numpy as np
import orjson
import pytest
from dumpb_util import check_same, outcome
from hypothesis import given, settings
from hypothesis import strategies as st

import jetjson

N = orjson.OPT_SERIALIZE_NUMPY
INT_DTYPES = ["int64", "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8"]
FLOAT_DTYPES = ["float64", "float32", "float16"]
DT_UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns"]
SHAPES = [(), (0,), (5,), (2, 0, 3), (2, 3, 4), (3, 0), (0, 2), (1, 1, 1, 1)]
LAYOUT_OPTS = [0, orjson.OPT_INDENT_2, orjson.OPT_APPEND_NEWLINE,
               orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE, orjson.OPT_SORT_KEYS,
               orjson.OPT_PASSTHROUGH_SUBCLASS]
DT_OPTS = [0, orjson.OPT_NAIVE_UTC, orjson.OPT_UTC_Z, orjson.OPT_OMIT_MICROSECONDS,
           orjson.OPT_NAIVE_UTC | orjson.OPT_UTC_Z, orjson.OPT_NAIVE_UTC | orjson.OPT_OMIT_MICROSECONDS,
           orjson.OPT_PASSTHROUGH_DATETIME, orjson.OPT_INDENT_2 | orjson.OPT_NAIVE_UTC]


def both(obj, option=N, default=None):
    exp = outcome(orjson.dumps, obj, option=option, default=default)
    got = outcome(jetjson.dumpb, obj, option=option, default=default)
    check_same(got, exp, f"{obj!r} option={option}")
    return got


def random_array(rng, dtype, shape):
    """Values from random bits: every pattern, NaN and the infinities included."""
    size = int(np.prod(shape)) if shape else 1
    raw = rng.integers(0, 256, size=size * np.dtype(dtype).itemsize, dtype=np.uint8)
    arr = raw.view(dtype).reshape(shape)
    if np.dtype(dtype).kind == "b":
        arr = raw.reshape(shape) == 1
    return arr


@pytest.mark.parametrize("dtype", INT_DTYPES + FLOAT_DTYPES + ["bool"])
@pytest.mark.parametrize("shape", SHAPES)
def test_arrays_every_dtype_and_shape(dtype, shape):
    rng = np.random.default_rng(abs(hash((dtype, shape))) % 2**32)
    for _ in range(20):
        arr = random_array(rng, dtype, shape)
        for option in LAYOUT_OPTS:
            both(arr, N | option)
        both({"a": [arr, 1]}, N | orjson.OPT_INDENT_2)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=30))
def test_float64_like_python_floats(values):
    arr = np.array(values, dtype=np.float64)
    both(arr)
    assert jetjson.dumpb(arr, option=N) == jetjson.dumpb(values)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(width=32, allow_nan=True, allow_infinity=True), max_size=30))
def test_float32_hypothesis(values):
    both(np.array(values, dtype=np.float32))


def test_float32_random_bit_patterns():
    rng = np.random.default_rng(32)
    bits = rng.integers(0, 2**32, size=2_000_000, dtype=np.uint64).astype(np.uint32)
    arr = bits.view(np.float32)
    assert jetjson.dumpb(arr, option=N) == orjson.dumps(arr, option=N)
    # around every power of two and ten, where the intervals change shape
    special = np.concatenate([
        np.ldexp(np.float32(1), np.arange(-149, 128)).astype(np.float32),
        np.array([10.0 ** k for k in range(-45, 39)], dtype=np.float32)])
    near = special.view(np.uint32).astype(np.int64)
    near = np.concatenate([near + d for d in range(-2, 3)]).clip(0, 2**31 - 1).astype(np.uint32)
    arr = near.view(np.float32)
    assert jetjson.dumpb(arr, option=N) == orjson.dumps(arr, option=N)
    assert jetjson.dumpb(-arr, option=N) == orjson.dumps(-arr, option=N)


@pytest.mark.parametrize("unit", DT_UNITS)
def test_datetime64_arrays(unit):
    rng = np.random.default_rng(len(unit) * 7 + ord(unit[0]))
    # non-negative values within years 1970..9999 (every unit), and negative whole seconds
    seconds = rng.integers(0, 253402300799, size=200)
    arr = np.array(seconds, dtype="datetime64[s]").astype(f"datetime64[{unit}]")
    if unit in ("ms", "us", "ns"):
        arr = arr + rng.integers(0, 1000, size=200).astype(f"timedelta64[{unit}]")
    if unit == "ns":
        arr = np.array(rng.integers(0, 2**63 - 1, size=200), dtype="datetime64[ns]")
    for option in DT_OPTS:
        both(arr, N | option)
        both(arr.reshape(2, 10, 10), N | option)
        both(arr[0], N | option)  # the scalar
    if unit not in ("Y", "M", "ns"):
        back = rng.integers(0, 62_167_219_200, size=100)  # back to year 0
        negative = np.array(-back, dtype="datetime64[s]").astype(f"datetime64[{unit}]")
        both(negative)


def test_datetime64_span_edges():
    # orjson takes 0000-01-01T00:00:00 .. 9999-12-30T22:00:00; one step beyond is an error
    for unit in ("W", "D", "h", "m", "s", "ms", "us"):
        for edge in ("0000-01-01T00:00:00", "9999-12-30T22:00:00"):
            v = np.array([edge], dtype="datetime64[s]").astype(f"datetime64[{unit}]").astype(np.int64)[0]
            for d in (-1, 0, 1):
                both(np.array([v + d], dtype=f"datetime64[{unit}]"))
    both(np.array([-1970, -1971, 9999 - 1970, 10000 - 1970], dtype="datetime64[Y]")[:1])
    for y in (-1971, 10000 - 1970, -10**6, 9999 - 1970):
        both(np.array([y], dtype="datetime64[Y]"))
    for m in (0, -12, -1970 * 12, -1971 * 12, (9999 - 1970) * 12 + 11, (10000 - 1970) * 12):
        both(np.array([m], dtype="datetime64[M]"))
    for w in (2**62, 2**60, 2**45, -(2**62)):  # orjson's products wrap around
        both(np.array([w], dtype="datetime64[W]"))
        both(np.array([w], dtype="datetime64[D]"))


@pytest.mark.parametrize("value,unit", [(-1001, "ms"), (-1, "us"), (-1, "ns"), (-2**63, "us"),
                                        (-2**63, "ns"), (-2**63, "s"), (5, "ps"), (5, "fs"), (5, "as"),
                                        (-1, "W"), (-1, "Y"), (-12, "M"), (-24, "M"), (-1, "D")])
def test_datetime64_edges(value, unit):
    arr = np.array([value], dtype=f"datetime64[{unit}]")
    both(arr)
    both(arr[0])
    both(arr[:0])  # empty: no value, no unit error


def test_datetime64_nat_generic():
    both(np.datetime64("NaT"))
    both(np.array([np.datetime64("NaT")]))


@pytest.mark.parametrize("value", [-1, -13, -2**63])
def test_datetime64_negative_months_no_oracle(value):
    # orjson crashes on a negative month count that is not a whole number of years
    with pytest.raises(jetjson.JSONEncodeError, match="unrepresentable numpy.datetime64"):
        jetjson.dumpb(np.array([value], dtype="datetime64[M]"), option=N)


def test_datetime64_multiplier_no_oracle():
    with pytest.raises(jetjson.JSONEncodeError, match="unsupported numpy.datetime64 unit"):
        jetjson.dumpb(np.array([1], dtype="datetime64[2s]"), option=N)
    with pytest.raises(jetjson.JSONEncodeError, match="unsupported numpy.datetime64 unit"):
        jetjson.dumpb(np.datetime64(1, "2s"), option=N)


SCALARS = ["float64", "float32", "int64", "int32", "int16", "int8", "uint64", "uint32", "uint16",
           "uint8", "bool_", "float16", "longlong", "ulonglong", "longdouble", "complex64",
           "complex128", "intc", "intp", "uintp", "short", "byte"]


@pytest.mark.parametrize("name", SCALARS)
def test_scalars(name):
    rng = np.random.default_rng(len(name))
    cls = getattr(np, name)
    values = [cls(0), cls(1)]
    if np.dtype(cls).kind in "iuf" and np.dtype(cls).itemsize <= 8:
        values += list(random_array(rng, np.dtype(cls), (30,)))
    for value in values:
        for option in (N, N | orjson.OPT_INDENT_2, N | orjson.OPT_PASSTHROUGH_SUBCLASS, 0):
            both(value, option)
            both([value], option, default=lambda v: "dflt")
            both({"k": value}, option | orjson.OPT_NON_STR_KEYS)
        both({value: 1}, N | orjson.OPT_NON_STR_KEYS)  # numpy keys: orjson's key error


class Sub(np.ndarray):
    pass


@pytest.mark.parametrize("default", [None, lambda v: "dflt", lambda v: v.tolist()])
def test_arrays_orjson_leaves_to_default(default):
    base = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
    cases = [base[:, :, ::2], base.T, np.asfortranarray(base), base[::-1], np.array(5.0),
             np.array([1, 2], dtype=np.float16), np.array([1 + 2j]), np.array(["a"]),
             np.array([b"x"]), np.array([1], dtype=object), np.array([1], dtype=np.longdouble),
             np.array([1], dtype="timedelta64[s]"), np.array([(1, 2)], dtype=[("a", "i4"), ("b", "i4")]),
             base.view(Sub), np.ma.array([1, 2]), np.array([1, 2, 3], dtype="datetime64[ps]")[::2]]
    for arr in cases:
        both(arr, N, default=default)
        both([arr], N | orjson.OPT_INDENT_2, default=default)
    both(base, 0, default=default)  # no OPT_SERIALIZE_NUMPY


def test_layout_quirks():
    # the other byte order (an error, default or not); unaligned data; bool bytes 2, 255
    both(np.array([1, 2], dtype=">i4"))
    both(np.array([1, 2], dtype=">i4"), default=lambda v: "dflt")
    both(np.array([1.5, -2.25], dtype=">f8"))
    both(np.array([1.5, -2.25], dtype=">f8")[::2], default=lambda v: "dflt")
    both(np.array(7, dtype=">i4"), default=lambda v: "dflt")
    both(np.frombuffer(b"\x01\x00\x00\x00\x02\x00\x00\x00\x03", dtype=np.int32, offset=1))
    both(np.array([1, 0, 2, 255], dtype=np.uint8).view(np.bool_))
    both(np.arange(10, dtype=np.int64)[2:7])  # contiguous slice with an offset
    both(np.zeros((1, 3), dtype=np.int64)[:, ::2])  # flagged non-contiguous
    both(np.ones((3, 1), dtype=np.int8)[:, 0])  # a contiguous view


def test_refcounts():
    arrays = [np.arange(12, dtype=t).reshape(3, 4) for t in INT_DTYPES + FLOAT_DTYPES]
    arrays += [np.array([1, 2, 3], dtype="datetime64[us]"), np.arange(6)[::2], np.array(5.0)]
    scalars = [np.float32(1.5), np.int8(3), np.datetime64(1, "s")]
    before = [sys.getrefcount(a) for a in arrays + scalars]
    for _ in range(300):
        for a in arrays + scalars:
            outcome(jetjson.dumpb, a, option=N)
            outcome(jetjson.dumpb, a, option=N, default=lambda v: None)
    del a
    assert before == [sys.getrefcount(a) for a in arrays + scalars]


def _growth(fn, rounds=2000):
    for _ in range(300):
        fn()
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        for _ in range(rounds):
            fn()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()


def test_no_leaks_success_and_errors():
    good = [np.arange(100, dtype=np.float64), np.arange(20, dtype=np.int8).reshape(4, 5),
            np.array([0, 1], dtype="datetime64[D]"), np.float32(2.5)]
    bad = [np.array([1], dtype="datetime64[ps]"), np.array([-1], dtype="datetime64[us]"),
           np.arange(6)[::2], np.array([1j])]

    def run():
        jetjson.dumpb(good, option=N)
        for b in bad:
            outcome(jetjson.dumpb, b, option=N)
            outcome(jetjson.dumpb, [b], option=N, default=lambda v: "x")

    assert min(_growth(run) for _ in range(3)) < 4096


def test_numpy_not_imported_in_child():
    # dumpb never imports numpy itself
    import subprocess

    code = ("import sys, jetjson\n"
            "jetjson.dumpb([1, 'x', {'a': 2.5}], option=jetjson.OPT_SERIALIZE_NUMPY)\n"
            "print('numpy' in sys.modules)")
    child = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert child.stdout.strip() == "False", child.stderr
