"""dumpb's numpy arrays and scalars (OPT_SERIALIZE_NUMPY) against orjson.dumps.

The oracle is the installed orjson. One known difference is normalised, not hidden:
float64 values are written by the engine's double formatter, which spells positive
exponents "1e+16" where this orjson writes "1e16" (dumpb writes Python floats the same
way, so a float64 array reads exactly like dumpb(array.tolist())). Cases where orjson
crashes the interpreter (NaT in second-based units, negative month counts, [2s]-style
units) have no oracle and check that dumpb raises JSONEncodeError instead.
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
FLOAT_DTYPES = ["float64", "float32"]
DT_UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns"]
SHAPES = [(), (0,), (5,), (2, 0, 3), (2, 3, 4), (3, 0), (0, 2), (1, 1, 1, 1)]
LAYOUT_OPTS = [0, orjson.OPT_INDENT_2, orjson.OPT_APPEND_NEWLINE,
               orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE, orjson.OPT_SORT_KEYS,
               orjson.OPT_PASSTHROUGH_SUBCLASS]
DT_OPTS = [0, orjson.OPT_NAIVE_UTC, orjson.OPT_UTC_Z, orjson.OPT_OMIT_MICROSECONDS,
           orjson.OPT_NAIVE_UTC | orjson.OPT_UTC_Z, orjson.OPT_NAIVE_UTC | orjson.OPT_OMIT_MICROSECONDS,
           orjson.OPT_PASSTHROUGH_DATETIME, orjson.OPT_INDENT_2 | orjson.OPT_NAIVE_UTC]


def _spelled(result):
    if result[0] == "ok":
        return ("ok", result[1].replace(b"e+", b"e"))
    return result


def both(obj, option=N, default=None, float64=False):
    exp = outcome(orjson.dumps, obj, option=option, default=default)
    got = outcome(jetjson.dumpb, obj, option=option, default=default)
    if float64:
        got = _spelled(got)
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
            both(arr, N | option, float64=dtype == "float64")
        both({"a": [arr, 1]}, N | orjson.OPT_INDENT_2, float64=dtype == "float64")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=30))
def test_float64_like_python_floats(values):
    arr = np.array(values, dtype=np.float64)
    both(arr, float64=True)
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
        # back to year -999: orjson crashes on years below (its zero padding underflows)
        back = rng.integers(0, 93_000_000_000, size=100)
        negative = np.array(-back, dtype="datetime64[s]").astype(f"datetime64[{unit}]")
        both(negative)


def test_datetime64_years_before_minus_999_no_orjson():
    # orjson crashes here; numpy's own text is the oracle (same spelling for these years)
    seconds = np.random.default_rng(5).integers(-8_000_000_000_000, -94_000_000_000, size=200)
    arr = np.array(seconds, dtype="datetime64[s]")
    want = b"[" + b",".join(b'"%s"' % s.encode() for s in np.datetime_as_string(arr, unit="s")) + b"]"
    assert jetjson.dumpb(arr, option=N) == want


@pytest.mark.parametrize("value,unit", [(-1001, "ms"), (-1, "us"), (-1, "ns"), (-2**63, "us"),
                                        (-2**63, "ns"), (5, "ps"), (5, "fs"), (5, "as"),
                                        (-1, "W"), (-1, "Y"), (-12, "M"), (-1, "D")])
def test_datetime64_edges(value, unit):
    arr = np.array([value], dtype=f"datetime64[{unit}]")
    both(arr)
    both(arr[0])
    both(arr[:0])  # empty: no value, no unit error


def test_datetime64_nat_generic():
    both(np.datetime64("NaT"))
    both(np.array([np.datetime64("NaT")]))


@pytest.mark.parametrize("value,unit", [(-2**63, "s"), (-1, "M"), (-13, "M"), (-10**6, "Y"),
                                        (2**62, "D")])
def test_datetime64_orjson_crashes_no_oracle(value, unit):
    with pytest.raises(jetjson.JSONEncodeError, match="unrepresentable numpy.datetime64"):
        jetjson.dumpb(np.array([value], dtype=f"datetime64[{unit}]"), option=N)


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
            both(value, option, float64=name == "float64")
            both([value], option, default=lambda v: "dflt", float64=name == "float64")
            both({"k": value}, option | orjson.OPT_NON_STR_KEYS, float64=name == "float64")
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
    # byte order is ignored as orjson does; unaligned data; bool bytes other than 0/1
    both(np.array([1, 2], dtype=">i4"))
    both(np.array([1.5, -2.25], dtype=">f8"), float64=True)
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
