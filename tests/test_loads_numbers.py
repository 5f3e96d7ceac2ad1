"""Numbers: ints of every size (exact, int vs float), correctly rounded doubles, the
int_max_str_digits limit, and number syntax errors, all compared with json."""

import json
import math
import struct
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

try:
    from conftest import (Raised, assert_same_outcome, assert_same_value, capture,
                          hyp_settings, json_oracle)
except ImportError:  # tests/ turned into a package
    from .conftest import (Raised, assert_same_outcome, assert_same_value, capture,
                           hyp_settings, json_oracle)

# Each number is tried alone, with surrounding whitespace, and followed by different bytes
# inside containers (the byte after a number ends it).
CONTEXTS = ["@", " @ ", "\n@\r\n", "[@]", "[@,1]", "[1,@]", '{"k":@}', '{"k":@ }', "[@\t]",
            "[[@],[@]]", "[@" + " " * 70 + "]"]


def contexts(num):
    return [ctx.replace("@", num) for ctx in CONTEXTS]


def check_number_text(num, what=""):
    for text in contexts(num):
        for data in (text, text.encode()):
            assert_same_outcome(capture(jetjson.loads, data), json_oracle(data),
                                f"{what} {data!r:.200}", jetjson)


# --------------------------------------------------------------------------------------
# Integers
# --------------------------------------------------------------------------------------
def int_cases():
    cases = set()
    for base in (0, 2**31, 2**32, 2**53, 2**63, 2**64, 10**18, 10**19, 10**20, 2**127):
        for delta in range(-3, 4):
            cases.add(base + delta)
            cases.add(-(base + delta))
    for ndigits in (1, 2, 9, 10, 15, 16, 17, 18, 19, 20, 21, 39, 40, 100, 1000, 4000):
        cases.add(10**(ndigits - 1))
        cases.add(10**ndigits - 1)
        cases.add(-(10**ndigits - 1))
        cases.add(int("1234567890" * (ndigits // 10 + 1)) % 10**ndigits or 7)
    return sorted(cases)


@pytest.mark.parametrize("chunk", range(4))
def test_integer_edges(chunk):
    cases = int_cases()
    for value in cases[chunk::4]:
        text = str(value)
        got = jetjson.loads(text)
        assert type(got) is int and got == value, (text[:60], got)
        check_number_text(text, "int")


def test_negative_zero_int_and_leading_digits():
    assert_same_value(jetjson.loads("-0"), json.loads("-0"))
    assert type(jetjson.loads("-0")) is int
    for text in ("0", "-0", "00", "-00", "01", "-01", "001", "0123456789", "-0123",
                 "10", "100000000000000000000000", "0" * 25):
        check_number_text(text, "leading zeros")


@hyp_settings(500)
@given(value=st.one_of(st.integers(), st.integers(min_value=-2**65, max_value=2**65),
                       st.integers(min_value=-10**400, max_value=10**400)))
def test_generated_integers(value):
    text = str(value)
    got = jetjson.loads(text)
    assert type(got) is int and got == value
    check_number_text(text, "int")


# --------------------------------------------------------------------------------------
# int_max_str_digits
# --------------------------------------------------------------------------------------
needs_int_limit = pytest.mark.skipif(not hasattr(sys, "set_int_max_str_digits"),
                                     reason="no sys.set_int_max_str_digits")


@needs_int_limit
def test_int_over_max_str_digits_default_limit():
    limit = sys.get_int_max_str_digits()
    if limit == 0:
        pytest.skip("int_max_str_digits is disabled in this interpreter")
    for n in (limit - 1, limit, limit + 1, limit + 1000):
        for text in ("9" * n, "-" + "9" * n, "[" + "1" * n + "]", '{"k": -' + "2" * n + "}"):
            exp = json_oracle(text)
            assert_same_outcome(capture(jetjson.loads, text), exp, f"{n} digits", jetjson)
            assert_same_outcome(capture(jetjson.loads, text.encode()), exp, f"{n} digits",
                                jetjson)
    big = capture(jetjson.loads, "7" * (limit + 1))
    assert isinstance(big, Raised) and type(big.exc) is ValueError


@needs_int_limit
@pytest.mark.parametrize("limit", [640, 1000, 4300, 0])
def test_int_over_lowered_max_str_digits(limit):
    old = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(limit)
        sizes = (639, 640, 641, 999, 1000, 1001, 4300, 4301, 5000)
        for n in sizes:
            for text in ("8" * n, "-" + "8" * n, "[1, " + "3" * n + "]",
                         "[" + "4" * n + ".5]", "[" + "4" * n + "e0]",
                         '{"a": [' + "5" * n + "]}"):
                exp = json_oracle(text)
                got = capture(jetjson.loads, text)
                assert_same_outcome(got, exp, f"{n} digits with limit {limit}", jetjson)
                got = capture(jetjson.loads, memoryview(text.encode()))
                assert_same_outcome(got, exp, f"{n} digits with limit {limit}", jetjson)
        if limit:
            over = capture(jetjson.loads, "[" + "6" * (limit + 1) + "]")
            assert isinstance(over, Raised) and type(over.exc) is ValueError
            assert str(limit) in str(over.exc)
    finally:
        sys.set_int_max_str_digits(old)
    # the limit is read at call time, not cached: back to normal afterwards
    assert jetjson.loads("9" * 1000) == int("9" * 1000)


@needs_int_limit
def test_int_limit_error_comes_before_later_errors():
    """json converts each int while scanning, so an over-long int raises ValueError even if
    the document has a syntax error further on (and a syntax error before it wins)."""
    old = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(640)
        long_int = "1" * 700
        for text in ("[" + long_int + ", x]", long_int + " x", "[" + long_int + "]]",
                     "[x, " + long_int + "]", '{"a" ' + long_int + "}",
                     "[" + long_int + ', "\\x"]'):
            for data in (text, text.encode()):
                assert_same_outcome(capture(jetjson.loads, data), json_oracle(data),
                                    repr(data[:30]), jetjson)
    finally:
        sys.set_int_max_str_digits(old)


def test_parse_int_str_bypasses_digit_limit():
    text = "[" + "9" * 10000 + ", -" + "1" * 5000 + "]"
    for kw in ({"parse_int": str}, {"parse_int": len}):
        assert_same_outcome(capture(jetjson.loads, text, **kw), json_oracle(text, **kw),
                            str(kw), jetjson)


# --------------------------------------------------------------------------------------
# Floats
# --------------------------------------------------------------------------------------
FLOAT_TEXTS = [
    "0.0", "-0.0", "0e0", "-0e0", "0E+0", "0e-0", "0e1000", "-0e1000", "0.000e-999999",
    "1.0", "1e0", "1E400", "1e400", "-1e400", "1e-400", "-1e-400", "1e308", "1e309",
    "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
    "-1.7976931348623157e308", "2.2250738585072011e-308", "2.2250738585072012e-308",
    "2.2250738585072014e-308", "4.9406564584124654e-324", "5e-324", "2.4703282292062327e-324",
    "2.4703282292062328e-324", "3e-324", "1e-323", "0.1", "0.2", "0.3", "1.1", "123.456",
    "9007199254740993.0", "9007199254740993e0", "9007199254740992.000000000000000000001",
    "9007199254740993.000000000000000000001", "18446744073709551616.0", "1e23", "8.98846567431158e307",
    "0." + "0" * 500 + "1e500", "1" + "0" * 400 + "e-400", "1" + "0" * 400 + ".0",
    "0." + "9" * 800, "3." + "14159265358979323846264338327950288419716939937510" * 20,
    "123456789012345678901234567890e-10", "1e99999999999999999999",
    "1e-99999999999999999999", "-1e99999999999999999999", "1e+0000000000000000000001",
    "7.2057594037927933e16", "1.00000000000000011102230246251565404236316680908203125",
    "1.00000000000000011102230246251565404236316680908203124",
    "1.00000000000000011102230246251565404236316680908203126",
    "2.0e-7", "1.5e-5", "1.0e-10", "100e-2", "0.0000001", "12e1", "-12E-1", "1E+2",
    "6.02214076e23", "1.602176634e-19", "-2.5e-3", "1.7e308", "4.9e-324",
]


@pytest.mark.parametrize("text", FLOAT_TEXTS, ids=[t[:40] for t in FLOAT_TEXTS])
def test_float_edges(text):
    expected = json.loads(text)
    got = jetjson.loads(text)
    assert type(got) is float
    assert struct.pack("<d", got) == struct.pack("<d", expected), (text[:60], got, expected)
    check_number_text(text, "float")


def test_special_float_values():
    assert math.isinf(jetjson.loads("1E400")) and jetjson.loads("1E400") > 0
    assert math.isinf(jetjson.loads("-1e400")) and jetjson.loads("-1e400") < 0
    assert jetjson.loads("1e-400") == 0.0 and math.copysign(1, jetjson.loads("1e-400")) == 1
    assert math.copysign(1, jetjson.loads("-1e-400")) == -1
    assert math.copysign(1, jetjson.loads("-0.0")) == -1
    assert math.copysign(1, jetjson.loads("0e1000")) == 1
    assert jetjson.loads("5e-324") == 5e-324


@hyp_settings(1000)
@given(x=st.floats(allow_nan=False, allow_infinity=False),
       fmt=st.sampled_from(["repr", "%.17g", "%.16g", "%.15g", "%.17e", "%.25e", "%.1e", "%.20f",
                            "upper"]))
def test_generated_doubles(x, fmt):
    if fmt == "repr":
        text = repr(x)
    elif fmt == "upper":
        text = repr(x).upper()
    else:
        text = fmt % x
    exp = json_oracle(text)
    got = capture(jetjson.loads, text)
    assert_same_outcome(got, exp, text, jetjson)
    if not isinstance(exp, Raised) and fmt in ("repr", "%.17g", "%.17e"):
        # 17 significant digits round-trip exactly (unless %g wrote an int, e.g. "-0")
        if type(exp) is float:
            assert struct.pack("<d", got) == struct.pack("<d", x)
        else:
            assert type(got) is int and got == x
    for data in (f"[{text}]", f'{{"x": {text}}}'.encode()):
        assert_same_outcome(capture(jetjson.loads, data), json_oracle(data), repr(data),
                            jetjson)


@hyp_settings(300)
@given(x=st.floats())
def test_generated_floats_with_specials(x):
    """st.floats() includes NaN, infinities, -0.0 and subnormals; json.dumps writes NaN /
    Infinity / -Infinity."""
    text = json.dumps([x, {"v": x}])
    for data in (text, text.encode()):
        assert_same_outcome(capture(jetjson.loads, data), json_oracle(data), text, jetjson)


number_text = st.from_regex(
    r"\A-?(0|[1-9][0-9]{0,40})(\.[0-9]{1,40})?([eE][+-]?[0-9]{1,5})?\Z", fullmatch=True)

digit_soup = st.text(st.sampled_from("0123456789.eE+-"), min_size=1, max_size=30)


def test_decimals_past_sixteen_bytes():
    """Coordinates and the like: a decimal whose digits run past the first 16 bytes after
    the sign (stage 2 reads 15 digits there, up to 4 more as a word and the rest through
    the general parser), for every integer length, 15 to 21 significant digits, each
    with the bytes that may follow it, compared with json."""
    import random
    rng = random.Random(20261203)
    for int_len in range(1, 16):
        for digits in range(15, 22):
            frac_len = digits - int_len
            if frac_len < 1:
                continue
            for _ in range(3):
                whole = str(rng.randrange(1, 10)) + "".join(rng.choice("0123456789") for _ in range(int_len - 1))
                if int_len == 1 and rng.random() < 0.3:
                    whole = "0"
                frac = "".join(rng.choice("0123456789") for _ in range(frac_len))
                for sign in ("", "-"):
                    for tail in ("", "e5", "E-3", "e+12"):
                        check_number_text(sign + whole + "." + frac + tail, "decimal past 16 bytes")
    for text in ("0.000000000000000", "-0.000000000000000000", "0.0000000000000000001",
                 "9.9999999999999999999", "1.7976931348623157", "4.9406564584124654"):
        check_number_text(text, "decimal past 16 bytes")


@hyp_settings(1000)
@given(text=st.one_of(number_text, digit_soup))
def test_generated_number_text(text):
    """Grammatical numbers and near-miss digit soup: same outcome as json (value, type, or
    error with the same position)."""
    check_number_text(text, "number text")


@hyp_settings(300)
@given(mantissa=st.text(st.sampled_from("0123456789"), min_size=1, max_size=800),
       point=st.integers(min_value=0, max_value=800),
       exponent=st.integers(min_value=-400, max_value=400))
def test_generated_long_mantissas(mantissa, point, exponent):
    """Long decimal mantissas need exact (big) arithmetic to round correctly."""
    mantissa = mantissa.lstrip("0") or "0"
    point = min(point, len(mantissa))
    body = mantissa[:point] or "0"
    frac = mantissa[point:]
    text = body + ("." + frac if frac else "") + f"e{exponent}"
    exp = json_oracle(text)
    assert_same_outcome(capture(jetjson.loads, text), exp, text[:80], jetjson)
    assert_same_outcome(capture(jetjson.loads, text.encode()), exp, text[:80], jetjson)


# --------------------------------------------------------------------------------------
# Invalid numbers and the bare words
# --------------------------------------------------------------------------------------
BAD_NUMBERS = [
    "-", "+", "+1", "--1", "-+1", ".5", "-.5", "1.", "1.e5", "-1.", "1e", "1e+", "1e-", "1E",
    "1.5e", "1ee5", "1e5e5", "1e5.5", "1..2", "1.2.3", "0x10", "0X1", "0b1", "1_000", "1,000",
    "Inf", "inf", "-inf", "infinity", "-infinity", "nan", "NAN", "-NaN", "+NaN", "+Infinity",
    "NaNa", "Infinityy", "-Infinityx", "Infinit", "-Infinit", "Na", "N", "I", "-I",
    "\u0661", "\uff11", "1\u00a0", "\u00a01", "01.5", "-01", "00.0", "1 2", "1-2", "2.", "2.e",
    "1e\u0661", "١", "0.e1", "1.0e-", "1.0e+-1", "tru", "fals", "nul", "True", "None", "NULL",
]


@pytest.mark.parametrize("text", BAD_NUMBERS, ids=[repr(t) for t in BAD_NUMBERS])
def test_bad_numbers_and_words(text):
    check_number_text(text, "bad number")


# Runs of numbers in arrays take their own loop in stage 2 and in the object builder;
# these put every kind of token, bad number and array end inside and after such runs.
RUN_TOKENS = ["1", "-2", "3.5", "-0.25", "1e3", "12345678901234567890", "1.2345678901234567",
              "-Infinity", "Infinity", "NaN", '"s"', "[]", "[1,2]", "{}", '{"a":1}', "null",
              "true", "-", "01", "1.", "-I", "2x", ""]


@pytest.mark.parametrize("before", ["", "1,", "1,2,", "-1.5,2,3,"])
@pytest.mark.parametrize("token", RUN_TOKENS, ids=[repr(t) for t in RUN_TOKENS])
@pytest.mark.parametrize("after", ["", ",4", ",4,5.5", ",", "]", " ,6"])
def test_number_runs_in_arrays(before, token, after):
    for text in ("[" + before + token + after + "]", '{"k":[' + before + token + after + "]}",
                 "[[" + before + token + after + "],[7,8]]", before + token + after):
        assert_same_outcome(capture(jetjson.loads, text), json_oracle(text), text)


@given(st.lists(st.one_of(st.floats(allow_nan=False, allow_infinity=False),
                          st.integers(-(2**70), 2**70)), max_size=40),
       st.integers(0, 3))
@hyp_settings(max_examples=300)
def test_generated_number_arrays(values, nesting):
    text = json.dumps(values)
    for _ in range(nesting):
        text = "[" + text + "," + text + "]"
    assert_same_value(jetjson.loads(text), json.loads(text))
