"""canonical(obj) and canonical_bytes(data): RFC 8785 (JSON Canonicalization Scheme).

Oracles: the RFC's own examples (typed in below from the RFC: Appendix B's number table
and the examples of sections 3.2.2 and 3.2.3) and the ``rfc8785`` package from PyPI,
on every corpus file, JSONTestSuite's documents and hypothesis documents. Every
document is checked three ways: canonical(obj) == canonical_bytes(text) ==
rfc8785.dumps(obj), the text made by json.dumps (every non-ASCII character escaped)
and by dumpb (raw UTF-8).

Integers: the rfc8785 package refuses every int beyond 2**53 - 1 in magnitude
(IntegerDomainError, a ValueError). jetjson refuses those whose digits would change,
and writes as they are those whose digits are already what JCS writes for the double
of that value (2**53, 295147905179352830000), so that JCS output always canonicalizes
to itself (rfc8785.dumps(2.0**53) is b"9007199254740992", which rfc8785 cannot read
back as an int). The oracle for them is rfc8785's own text of float(n) (see oracle()).
"""

import collections
import enum
import json
import math
import os
import struct
import sys
import threading

import pytest

import jetjson
from conftest import (capture, data_params, data_path, exception_difference, hyp_settings, input_forms,
                      list_data_files, read_bytes, traced_growth, Raised)

rfc8785 = pytest.importorskip("rfc8785")

try:
    from hypothesis import given, strategies as st
except ImportError:  # pragma: no cover
    given = st = None

MAX_SAFE = 2**53 - 1


def _jcs_float_of_int(n):
    """float(n) when rfc8785 writes it with exactly n's digits; else ValueError."""
    if abs(n) <= MAX_SAFE:
        return n
    try:
        f = float(n)
        same = rfc8785.dumps(f) == str(n).encode()
    except (OverflowError, ValueError):
        same = False
    if not same:
        raise ValueError(f"int {n.bit_length()} bits: not the JCS text of a double")
    return f


def _floatify(obj):
    if type(obj) is int:
        return _jcs_float_of_int(obj)
    if isinstance(obj, dict):
        return {k: _floatify(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_floatify(v) for v in obj]
    return obj


def oracle(obj):
    """rfc8785.dumps(obj), except that an int beyond 2**53 - 1 whose digits rfc8785 writes
    for float(int) is written as that float (jetjson's rule; rfc8785 refuses it)."""
    return rfc8785.dumps(_floatify(obj))


def from_bits(hex64):
    return struct.unpack(">d", bytes.fromhex(hex64))[0]


# ---- RFC 8785 Appendix B: IEEE-754 bit patterns and their JCS text ----

APPENDIX_B = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@pytest.mark.parametrize("hex64,expected", APPENDIX_B, ids=[h for h, _ in APPENDIX_B])
def test_appendix_b_numbers(hex64, expected):
    x = from_bits(hex64)
    want = expected.encode()
    assert jetjson.canonical(x) == want
    assert jetjson.canonical([x]) == b"[" + want + b"]"
    assert jetjson.canonical_bytes(repr(x)) == want
    assert jetjson.canonical_bytes(jetjson.dumpb(x)) == want
    assert rfc8785.dumps(x) == want  # the oracle agrees with the RFC


@pytest.mark.parametrize("hex64", ["7fffffffffffffff", "7ff0000000000000", "fff0000000000000"])
def test_appendix_b_not_finite(hex64):
    x = from_bits(hex64)
    with pytest.raises(ValueError, match="canonical JSON"):
        jetjson.canonical(x)
    with pytest.raises(ValueError):
        jetjson.canonical({"a": [x]})
    with pytest.raises(ValueError):
        rfc8785.dumps(x)
    text = json.dumps(x)  # NaN / Infinity / -Infinity, which the parser takes as json does
    with pytest.raises(ValueError, match="canonical JSON"):
        jetjson.canonical_bytes(text)


# ---- RFC 8785 section 3.2.2: the sample object ----

RFC_SAMPLE_INPUT = r'''{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}'''
RFC_SAMPLE_OUTPUT = ('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
                     '"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}').encode()


def test_rfc_sample_object():
    assert jetjson.canonical_bytes(RFC_SAMPLE_INPUT) == RFC_SAMPLE_OUTPUT
    assert jetjson.canonical(json.loads(RFC_SAMPLE_INPUT)) == RFC_SAMPLE_OUTPUT
    assert rfc8785.dumps(json.loads(RFC_SAMPLE_INPUT)) == RFC_SAMPLE_OUTPUT
    # the same bytes, in hexadecimal as the RFC shows them, start and end
    assert RFC_SAMPLE_OUTPUT.startswith(bytes.fromhex("7b226c69746572616c73223a5b6e756c6c2c"))
    assert RFC_SAMPLE_OUTPUT.endswith(bytes.fromhex("5c5c5c5c5c222f227d"))


# ---- RFC 8785 section 3.2.3: sorting by UTF-16 code units ----

RFC_SORT_INPUT = r'''{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}'''
RFC_SORT_ORDER = ["Carriage Return", "One", "Control", "Latin Small Letter O With Diaeresis", "Euro Sign",
                  "Emoji: Grinning Face", "Hebrew Letter Dalet With Dagesh"]


def test_rfc_sort_example():
    out = jetjson.canonical_bytes(RFC_SORT_INPUT)
    assert out == jetjson.canonical(json.loads(RFC_SORT_INPUT))
    values = [v for _, v in json.loads(out, object_pairs_hook=lambda pairs: pairs)]
    assert values == RFC_SORT_ORDER
    assert out == rfc8785.dumps(json.loads(RFC_SORT_INPUT))


def test_utf16_order_not_code_point_order():
    # U+10000 (D800 DC00 in UTF-16) sorts before U+E000 and U+FFFF, unlike code points
    keys = ["\uffff", "\U00010000", "\ue000", "\ud7ff", "\U0010ffff", "a", "", "\x80", "\U0001f600", "\uff00"]
    obj = {k: i for i, k in enumerate(keys)}
    expected = rfc8785.dumps(obj)
    assert jetjson.canonical(obj) == expected
    assert jetjson.canonical_bytes(json.dumps(obj)) == expected
    assert jetjson.canonical_bytes(jetjson.dumpb(obj)) == expected
    order = list(json.loads(expected))
    assert order == sorted(keys, key=lambda k: k.encode("utf-16-be"))
    assert order.index("\U00010000") < order.index("\ue000")
    # common prefixes, the difference inside a later character, lengths across the kinds
    prefixed = {p + k: 0 for p in ("", "x", "\xe9", "\u0101", "\U00010001") for k in keys}
    expected = rfc8785.dumps(prefixed)
    assert jetjson.canonical(prefixed) == expected
    assert jetjson.canonical_bytes(json.dumps(prefixed)) == expected


# ---- numbers ----

EDGE_FLOATS = [1e21, 1e-7, 1e-6, 9.999999999999999e20, 1.0000000000000001e21, 0.1, 0.5, 1.5, 100.0, 1e20, 123e18,
               -0.0, 0.0, 5e-324, 1e-323, 2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308,
               2.0**53, 2.0**53 + 2, 2.0**63, 2.0**64, 2.0**-1074, 1 / 3, 2 / 3, 0.30000000000000004,
               123456789012345680000.0, 1.2345678901234567e-7, 1.2345678901234567e-6, 4.35, 0.000001234,
               1e22, 1e23, 1e100, 1.5e-7, 5e-7, 1.23e-18, 12345678.5]


@pytest.mark.parametrize("x", EDGE_FLOATS, ids=repr)
def test_edge_floats(x):
    for v in (x, -x):
        want = rfc8785.dumps(v)
        assert jetjson.canonical(v) == want
        assert jetjson.canonical_bytes(repr(v)) == want
        assert jetjson.canonical_bytes(jetjson.dumpb(v)) == want
        assert float(want) == v  # reads back


def test_ints():
    for n in (0, 1, -1, 10, 2**31, 2**32 + 1, 10**15, MAX_SAFE, -MAX_SAFE, MAX_SAFE - 1):
        assert jetjson.canonical(n) == rfc8785.dumps(n) == str(n).encode()
        assert jetjson.canonical_bytes(str(n)) == str(n).encode()
    assert jetjson.canonical_bytes("-0") == b"0"
    assert jetjson.canonical_bytes("1E2") == b"100"
    assert jetjson.canonical_bytes("1.0") == b"1"
    # written with a fraction or exponent, a number is a double whatever its size
    assert jetjson.canonical_bytes("9007199254740993.0") == b"9007199254740992"
    assert jetjson.canonical_bytes("1e300") == b"1e+300"


@pytest.mark.parametrize("n", [MAX_SAFE + 2, -(MAX_SAFE + 2), 2**63 - 1, -(2**63), 2**63, 2**64 - 1, 2**64,
                               10**30, -(10**30), 10**21, 2**70, 10**5000],
                         ids=lambda n: f"{n.bit_length()}bits{'-' if n < 0 else ''}")
def test_ints_out_of_range(n):
    with pytest.raises(ValueError):
        rfc8785.dumps(n)
    with pytest.raises(ValueError):
        oracle(n)
    with pytest.raises(ValueError, match="out of range for canonical JSON"):
        jetjson.canonical(n)
    with pytest.raises(ValueError, match="out of range for canonical JSON"):
        jetjson.canonical({"k": [1, n]})
    if n.bit_length() < 1000:
        text = str(n)
        with pytest.raises(ValueError, match="out of range for canonical JSON"):
            jetjson.canonical_bytes(text)
        with pytest.raises(ValueError, match="out of range for canonical JSON"):
            jetjson.canonical_bytes('{"a":[' + text + "]}")


@pytest.mark.parametrize("n", [2**53, -(2**53), 2**53 + 2, 2**54, 10**20, 123 * 10**18, -(10**18),
                               295147905179352830000, 505874924095815700, 999999999999999900000, 18446744073709552000])
def test_big_ints_that_are_jcs_text(n):
    # rfc8785 writes float(n) with n's own digits: the integer is what JCS writes anyway
    assert rfc8785.dumps(float(n)) == str(n).encode()
    want = str(n).encode()
    assert jetjson.canonical(n) == want
    assert jetjson.canonical(MyInt(n)) == want
    assert jetjson.canonical_bytes(want) == want
    assert jetjson.canonical_bytes(b"[" + want + b"]") == b"[" + want + b"]"
    assert jetjson.canonical_bytes(repr(float(n))) == want  # the double, however written


def test_bigint_message_is_bounded():
    text = "[" + "7" * 500 + "]"
    with pytest.raises(ValueError) as info:
        jetjson.canonical_bytes(memoryview(text.encode())[1:-1])
    assert "777..." in str(info.value) and len(str(info.value)) < 300


def test_not_finite_in_text():
    for text in ("NaN", "Infinity", "-Infinity", "1e400", "-1e400", "[1, {\"a\": 1e999}]"):
        with pytest.raises(ValueError, match="NaN and Infinity"):
            jetjson.canonical_bytes(text)


# ---- strings ----

def test_string_escapes():
    s = "".join(chr(c) for c in range(0x80)) + "\u2028\u2029\x7f/\ufeff\U0001f600\xe9"
    want = rfc8785.dumps(s)
    assert jetjson.canonical(s) == want
    assert jetjson.canonical_bytes(json.dumps(s)) == want
    assert jetjson.canonical_bytes(json.dumps(s, ensure_ascii=False)) == want
    assert jetjson.canonical_bytes(jetjson.dumpb(s)) == want
    assert b"\\u001f" in want and b"\\b\\t\\n\\u000b\\f\\r" in want and b"\x7f" in want
    # long strings of each kind (the pieces of the writers)
    for unit in ("ab\"\\\n", "\xe9\x01", "\u20ac\x1f", "\U0001f600\t"):
        long = unit * 5000
        want = rfc8785.dumps({long: long})
        assert jetjson.canonical({long: long}) == want
        assert jetjson.canonical_bytes(json.dumps({long: long})) == want


@pytest.mark.parametrize("s", ["\ud800", "a\udfff", "\ud83d", "x" * 40 + "\udc00", "\ud83d\ude00",
                               "\u20ac" * 20000 + "\ud800"])
def test_lone_surrogates(s):
    with pytest.raises(ValueError):
        rfc8785.dumps(s)
    with pytest.raises(ValueError, match="surrogate"):
        jetjson.canonical(s)
    with pytest.raises(ValueError, match="surrogate"):
        jetjson.canonical({s: 1})
    if "\ud83d\ude00" not in s:  # json.dumps escapes it as a pair, which is one character
        with pytest.raises(ValueError, match="surrogate"):
            jetjson.canonical_bytes(json.dumps(s))  # \udXXX escapes
        with pytest.raises(ValueError, match="surrogate"):
            jetjson.canonical_bytes(json.dumps({"k": [s]}))
    raw = ('"' + s + '"').encode("utf-8", "surrogatepass")  # WTF-8 bytes, as json takes them
    with pytest.raises(ValueError, match="surrogate"):
        jetjson.canonical_bytes(raw)


def test_escaped_pair_is_one_character():
    assert jetjson.canonical_bytes('"\\ud83d\\ude00"') == '"\U0001f600"'.encode()


# ---- objects ----

@pytest.mark.parametrize("text", ['{"a":1,"a":2}', '{"a":1,"b":{"x":1,"x":1}}', '{"a":1,"\\u0061":2}',
                                  '[{"\\u00e9":0,"\u00e9":1}]', '{"":1,"":1}',
                                  '{' + ",".join(f'"k{i}":{i}' for i in range(100)) + ',"k50":0}'])
def test_duplicate_keys(text):
    with pytest.raises(ValueError, match="duplicate object key"):
        jetjson.canonical_bytes(text)


def test_duplicate_key_message_names_the_key():
    with pytest.raises(ValueError, match="'\u00e9'"):
        jetjson.canonical_bytes('{"\\u00e9":0,"\u00e9":1}')


def test_non_str_keys():
    for key in (1, 1.5, None, True, (1,), b"a"):
        with pytest.raises(TypeError, match="keys must be str"):
            jetjson.canonical({key: 1})
        with pytest.raises(TypeError, match="keys must be str"):
            jetjson.canonical([{"a": 1, key: 1}])


def test_unsupported_types_and_default():
    class Thing:
        pass

    for obj in (Thing(), b"x", {1, 2}, 1j, bytearray(b"x"), object()):
        with pytest.raises(TypeError, match="not JSON serializable"):
            jetjson.canonical(obj)
        with pytest.raises(TypeError):
            jetjson.canonical({"a": [obj]})
    assert jetjson.canonical([Thing(), {"b": Thing()}], default=lambda o: {"z": 1, "a": 2.5}) == \
        b'[{"a":2.5,"z":1},{"b":{"a":2.5,"z":1}}]'
    with pytest.raises(TypeError):
        jetjson.canonical(Thing(), default=None)
    with pytest.raises(ZeroDivisionError):
        jetjson.canonical(Thing(), default=lambda o: 1 / 0)
    with pytest.raises(RecursionError):
        jetjson.canonical(Thing(), default=lambda o: o)  # default forever
    with pytest.raises(TypeError):
        jetjson.canonical()
    with pytest.raises(TypeError):
        jetjson.canonical(1, 2)
    with pytest.raises(TypeError):
        jetjson.canonical(1, option=1)


class Color(enum.Enum):
    RED = "red"
    BLUE = {"b": 1, "a": [2.5]}


class Num(enum.IntEnum):
    ONE = 1
    BIG = 2**60


class Word(str, enum.Enum):
    HI = "hi\u20ac"


class MyStr(str):
    pass


class MyInt(int):
    pass


class MyFloat(float):
    pass


class MyDict(dict):
    pass


class MyList(list):
    pass


Point = collections.namedtuple("Point", "x y")


def test_subclasses():
    obj = {MyStr("b"): MyInt(3), "a": MyFloat(1e21), "c": MyDict({"y": MyList([1, Point(1, 2)])}),
           "d": collections.OrderedDict([("z", 1), ("a", 2)]), "e": (1, "x"), "f": Num.ONE, "g": Word.HI,
           "h": [True, False, None]}
    want = rfc8785.dumps(obj)
    assert jetjson.canonical(obj) == want
    assert jetjson.canonical_bytes(json.dumps(obj)) == want
    # enum members by their value, as dumpb writes them
    assert jetjson.canonical([Color.RED, Color.BLUE]) == b'["red",{"a":[2.5],"b":1}]'
    with pytest.raises(ValueError):
        jetjson.canonical(Num.BIG)  # 2**60 is written 1152921504606847000 as a double


# ---- nesting ----

def nest(n, open_, close):
    return open_ * n + close * n


def test_deep_text_any_depth():
    for n in (1, 100, 1000, 100_000):
        text = nest(n, "[", "]")
        assert jetjson.canonical_bytes(text) == text.encode()
        text = '{"a":' * n + "1" + "}" * n
        assert jetjson.canonical_bytes(text) == text.encode()
    text = '[{"b":1,"a":' * 10_000 + "0" + "}]" * 10_000
    assert jetjson.canonical_bytes(text) == ('[{"a":' * 10_000 + "0" + ',"b":1}]' * 10_000).encode()


def test_deep_objects_never_crash():
    x = []
    for _ in range(100_000):
        x = [x]
    with pytest.raises(RecursionError):
        jetjson.canonical(x)
    d = {}
    for _ in range(100_000):
        d = {"a": d}
    with pytest.raises(RecursionError):
        jetjson.canonical(d)
    cyc = []
    cyc.append(cyc)
    with pytest.raises(RecursionError):
        jetjson.canonical(cyc)
    cyd = {}
    cyd["x"] = cyd
    with pytest.raises(RecursionError):
        jetjson.canonical(cyd)
    y = 1
    for _ in range(200):
        y = {"k": [y]}
    assert jetjson.canonical(y) == rfc8785.dumps(y)


# ---- input forms and decode errors ----

def test_input_forms():
    text = '{"b": [1, 2.50, "\\u00e9\u20ac"], "a": {"\U0001f600": null, "\ue000": true}}'
    want = rfc8785.dumps(json.loads(text))
    for label, data in input_forms(text):
        assert jetjson.canonical_bytes(data) == want, label
    # UTF-16 with a BOM: decoded as json.loads decodes it
    assert jetjson.canonical_bytes(text.encode("utf-16")) == want
    for bad in (1, None, [b"{}"], 1.5):
        with pytest.raises(TypeError):
            jetjson.canonical_bytes(bad)


INVALID = ["", " ", "[", "[1,]", "{\"a\"}", "{'a':1}", "nul", "[1] 2", "\"abc", "[\"\\x\"]", "01", "1.",
           "-", "\"\x01\"", "{\"a\":1,}", b"\xff", b"[\"\xc3\"]", "[" * 10 + "]" * 9]


@pytest.mark.parametrize("data", INVALID, ids=repr)
def test_decode_errors_as_loads(data):
    got = capture(jetjson.canonical_bytes, data)
    exp = capture(json.loads, data)
    assert isinstance(got, Raised) and isinstance(exp, Raised)
    diff = exception_difference(got.exc, exp.exc, jetjson)
    assert diff is None, diff
    assert type(capture(jetjson.loads, data).exc) is type(got.exc)


# ---- the oracle on real documents ----

def _without_duplicates(data):
    """True when no object of the document names a key twice."""
    seen_dup = []

    def hook(pairs):
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            seen_dup.append(keys)
        return dict(pairs)

    json.loads(data, object_pairs_hook=hook)
    return not seen_dup


def check_document(data):
    """canonical_bytes(data), canonical(loads(data)) and rfc8785.dumps(loads(data)) agree
    (value or ValueError); data is JSON text json.loads takes."""
    obj = json.loads(data)
    exp = capture(oracle, obj)
    got_obj = capture(jetjson.canonical, obj)
    got_text = capture(jetjson.canonical_bytes, data)
    if isinstance(exp, Raised) and isinstance(exp.exc, RecursionError):
        # deeper than the pure-Python oracle goes: the two of jetjson agree
        assert not isinstance(got_text, Raised), got_text
        if not isinstance(got_obj, Raised):
            assert got_text == got_obj
        return None
    if isinstance(exp, Raised):
        assert isinstance(exp.exc, ValueError), exp
        assert isinstance(got_obj, Raised) and isinstance(got_obj.exc, ValueError), got_obj
        assert isinstance(got_text, Raised) and isinstance(got_text.exc, ValueError), got_text
        return None
    assert got_obj == exp, "canonical(obj) differs from the oracle"
    if _without_duplicates(data):
        assert got_text == exp
    else:
        assert isinstance(got_text, Raised) and "duplicate object key" in str(got_text.exc)
    return exp


@pytest.mark.parametrize("path", data_params("corpus"))
def test_corpus_against_rfc8785(path):
    data = read_bytes(path)
    want = check_document(data)
    if want is not None:
        # the output is canonical: a fixed point, and what dumpb's text gives too
        assert jetjson.canonical_bytes(want) == want
        assert jetjson.canonical_bytes(jetjson.dumpb(json.loads(data))) == want


def jsontestsuite_accepted():
    folder = data_path("JSONTestSuite", "test_parsing")
    if folder is None or not os.path.isdir(folder):
        return []
    out = []
    for name in list_data_files(os.path.join("JSONTestSuite", "test_parsing")):
        raw = read_bytes(os.path.join(folder, name))
        try:
            json.loads(raw)
        except (ValueError, RecursionError):
            continue
        out.append(raw)
    return out


def test_jsontestsuite_against_rfc8785():
    docs = jsontestsuite_accepted()
    if not docs:
        pytest.skip("JSONTestSuite not found")
    for raw in docs:
        check_document(raw)


def test_threads_share_nothing():
    path = data_path("corpus", "citm_catalog.json")
    if path is None or not os.path.exists(path):
        pytest.skip("corpus not found")
    data = read_bytes(path)
    want = jetjson.canonical_bytes(data)
    errors = []

    def work():
        for _ in range(20):
            if jetjson.canonical_bytes(data) != want:
                errors.append("mismatch")

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_output_longer_than_input_with_threads():
    # numbers that grow (1e20 -> 21 digits): the output outgrows its first buffer while
    # the walk runs without the GIL (inputs of 16 KB and more), in several threads at once
    text = "[" + ",".join(["1e20", "5E-7", "{\"b\":1e19,\"a\":\"\\u0001\"}"] * 3000) + "]"
    want = rfc8785.dumps(json.loads(text))
    assert len(want) > 1.9 * len(text)
    assert jetjson.canonical_bytes(text) == want
    results = []

    def work():
        for _ in range(10):
            results.append(jetjson.canonical_bytes(text.encode()) == want)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [True] * 40


# ---- hypothesis documents ----

if st is not None:
    chars = st.characters(codec="utf-8") | st.sampled_from(
        ["\ue000", "\uffff", "\U00010000", "\U0001f600", "\U0010ffff", "\x00", "\x1f", "\x7f", "\u2028", "\"",
         "\\", "\ud7ff", "\ufb33", "\u20ac", "\x80"])
    texts = st.text(chars, max_size=12)
    edge_floats = st.sampled_from(EDGE_FLOATS + [-x for x in EDGE_FLOATS])
    floats = st.floats(allow_nan=False, allow_infinity=False) | edge_floats | st.builds(
        lambda bits: struct.unpack("<d", struct.pack("<Q", bits))[0],
        st.integers(0, 2**64 - 1)).filter(math.isfinite)
    ints = st.integers(-MAX_SAFE, MAX_SAFE) | st.sampled_from([0, MAX_SAFE, -MAX_SAFE, 2**31, -(2**31), 2**53,
                                                                -(2**60), 295147905179352830000])
    scalars = st.none() | st.booleans() | ints | floats | texts
    documents = st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=6) | st.dictionaries(texts, inner, max_size=8),
        max_leaves=40)

    @hyp_settings(400)
    @given(documents)
    def test_hypothesis_documents(obj):
        exp = capture(oracle, obj)
        if isinstance(exp, Raised):  # an int beyond 2**53 - 1 that is not the JCS text of a double
            assert isinstance(exp.exc, ValueError)
            for fn, arg in ((jetjson.canonical, obj), (jetjson.canonical_bytes, json.dumps(obj))):
                with pytest.raises(ValueError, match="out of range"):
                    fn(arg)
            return
        want = exp
        assert jetjson.canonical(obj) == want
        assert jetjson.canonical_bytes(json.dumps(obj)) == want
        dumped = capture(jetjson.dumpb, obj)  # refuses ints beyond 64 bits, as orjson does
        if not isinstance(dumped, Raised):
            assert jetjson.canonical_bytes(dumped) == want
        assert jetjson.canonical_bytes(want) == want

    @hyp_settings(300)
    @given(floats)
    def test_hypothesis_floats(x):
        want = rfc8785.dumps(x)
        assert jetjson.canonical(x) == want
        assert jetjson.canonical_bytes(repr(x)) == want
        assert float(want) == x

    @hyp_settings(300)
    @given(st.integers(-(2**70), 2**70) | st.integers(0, 2**17).map(lambda k: int(float(2**53 + k * 2**40))))
    def test_hypothesis_ints(n):
        exp = capture(oracle, n)
        for got in (capture(jetjson.canonical, n), capture(jetjson.canonical_bytes, str(n))):
            if isinstance(exp, Raised):
                assert isinstance(got, Raised) and isinstance(got.exc, ValueError), got
            else:
                assert got == exp


# ---- references and memory ----

def test_refcounts_and_mutation_from_default():
    key, value = "k" + str(id(object())), object()

    class Later:
        pass

    parent = {key: [Later()], "z": 1}
    before = sys.getrefcount(key)

    def default(o):
        parent.clear()  # drops the dict's references while it is being written
        return 5

    assert jetjson.canonical(parent, default=default) == ('{"' + key + '":[5],"z":1}').encode()
    assert sys.getrefcount(key) == before - 1  # the dict's reference is gone, ours too
    lst = [Later(), 1, 2, 3]

    def shrink(o):
        del lst[1:]
        return 0

    assert jetjson.canonical(lst, default=shrink) == b"[0]"
    del value


def test_no_leaks():
    doc = json.loads(RFC_SAMPLE_INPUT)
    doc["nested"] = [{"\U0001f600": [1.5, "x" * 100], "\ue000": {"a": None}}] * 50
    text = json.dumps(doc)

    def ok():
        jetjson.canonical(doc)
        jetjson.canonical_bytes(text)
        jetjson.canonical([object()], default=lambda o: {"b": 1, "a": o.__class__.__name__})

    def errors():
        for bad in ({"a": [1, float("nan")]}, {"a": {"b": 2**60}}, {"x": "\ud800"}, {1: 2}, [object()],
                    {"a": {"b": [object()]}}):
            try:
                jetjson.canonical(bad)
            except (ValueError, TypeError):
                pass
        for bad in ('{"a":1,"a":2}', "[1e999]", '"\\udc00"', "[1,", "[18446744073709551615]"):
            try:
                jetjson.canonical_bytes(bad)
            except ValueError:
                pass

    assert traced_growth(ok) < 4096
    assert traced_growth(errors) < 4096
