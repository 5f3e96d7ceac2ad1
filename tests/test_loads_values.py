"""Values: generated documents and strings of every kind and length, parsed by jetjson and
json from the same text; results must be equal with identical types."""

import codecs
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

try:
    from conftest import (assert_same_outcome, assert_same_value, capture, deep_equal_typed,
                          hyp_settings, json_oracle)
except ImportError:  # tests/ turned into a package
    from .conftest import (assert_same_outcome, assert_same_value, capture, deep_equal_typed,
                           hyp_settings, json_oracle)

def test_deep_equal_typed_is_strict():
    """The comparison helper itself: it must see every difference the tests rely on."""
    import collections
    nan = float("nan")
    same = [(1, 1), (nan, nan), ([nan], [nan]), (-0.0, -0.0), ({"a": 1, "b": 2}, {"a": 1, "b": 2}),
            ("\u00e9", "\u00e9"), (2**100, 2**100), ([], []), (None, None)]
    different = [(1, 1.0), (1, True), (0, False), (1.0, True), (0.0, -0.0), (nan, -nan),
                 ({"a": 1, "b": 2}, {"b": 2, "a": 1}), ([1], (1,)), ({}, collections.OrderedDict()),
                 ("a", "b"), ([1, [2]], [1, [2.0]]), ({"a": [1]}, {"a": [1, 2]}), (None, 0),
                 (2**64, 2**64 + 1), ({"1": 1}, {"2": 1}), (5e-324, 0.0)]
    for a, b in same:
        assert deep_equal_typed(a, b), (a, b)
    for a, b in different:
        assert not deep_equal_typed(a, b), (a, b)
        assert not deep_equal_typed(b, a), (b, a)


# --------------------------------------------------------------------------------------
# Strategies
# --------------------------------------------------------------------------------------
EDGE_INTS = sorted({
    0, 1, -1, 9, 10, 99, 255, 256, 2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**32 - 1, 2**32,
    2**53 - 1, 2**53, 2**53 + 1, -2**53 - 1, 10**15, 10**16, 10**17, 10**18 - 1, 10**18,
    10**19 - 1, 10**19, 10**19 + 1, 10**20 - 1, 10**20, -10**19, -10**20,
    2**63 - 2, 2**63 - 1, 2**63, 2**63 + 1, -2**63 + 1, -2**63, -2**63 - 1, -2**63 - 2,
    2**64 - 2, 2**64 - 1, 2**64, 2**64 + 1, -2**64, -2**64 - 1, 2**127, 2**128, -2**128,
    10**100, -10**100, 10**999 - 1, -(10**999 - 1),
})

ints = st.one_of(
    st.integers(),
    st.sampled_from(EDGE_INTS),
    st.integers(min_value=-2**64 - 3, max_value=2**64 + 3),
    st.integers(min_value=-10**1000, max_value=10**1000),
)

ESCAPE_CHARS = '"\\/\b\f\n\r\t\x00\x01\x07\x0b\x1b\x1f\x7f\x80\x9f\xa0\xad\u2028\u2029\ufeff\uffff'

CHAR_KINDS = {
    "ascii": st.characters(max_codepoint=0x7F),
    "latin1": st.characters(min_codepoint=0x80, max_codepoint=0xFF),
    "bmp": st.characters(min_codepoint=0x100, max_codepoint=0xFFFF),
    "astral": st.characters(min_codepoint=0x10000),
    "surrogate": st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
    "escape": st.sampled_from(ESCAPE_CHARS),
}

# One char of any kind, weighted towards the interesting ones (sampled_from is much faster
# for hypothesis to draw from than a one_of of character strategies).
MIXED_CHARS = (ESCAPE_CHARS + "abc xyz019\u00e9\u00ff\u0100\u07ff\u0800\u20ac\u4e2d\ufffd"
               "\ud800\udbff\udc00\udfff\U00010000\U0001f600\U0010ffff")
any_char = st.one_of(st.sampled_from(MIXED_CHARS), st.characters(),
                     CHAR_KINDS["surrogate"])

texts = st.one_of(
    st.text(),
    st.text(st.characters(max_codepoint=0xFF)),
    st.text(st.sampled_from(MIXED_CHARS)),
    st.text(st.sampled_from(MIXED_CHARS), min_size=30, max_size=150),
)

scalars = st.one_of(st.none(), st.booleans(), ints, st.floats(), texts)

documents = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=8),
        st.dictionaries(texts, children, max_size=8),
        # duplicate keys are produced below at the text level
    ),
    max_leaves=30,
)

dump_options = st.fixed_dictionaries({
    "ensure_ascii": st.booleans(),
    "indent": st.sampled_from([None, 0, 1, 2, "\t", "\r\n", " \t"]),
    "separators": st.sampled_from([None, (",", ":"), (", ", ": "), (" ,", ": "),
                                   ("\n,\t", "\r:\n")]),
})


def check_text(text, what=""):
    """Compare jetjson with json on text as str and as UTF-8 (surrogatepass) bytes."""
    assert_same_outcome(capture(jetjson.loads, text), json_oracle(text), f"str {what}", jetjson)
    raw = text.encode("utf-8", "surrogatepass")
    expected = json_oracle(raw)
    assert_same_outcome(capture(jetjson.loads, raw), expected, f"bytes {what}", jetjson)
    return expected


# --------------------------------------------------------------------------------------
# Generated documents
# --------------------------------------------------------------------------------------
@hyp_settings(600)
@given(doc=documents, opts=dump_options)
def test_generated_documents(doc, opts):
    text = json.dumps(doc, **opts)
    expected = check_text(text, f"dumped with {opts}")
    with memoryview(text.encode("utf-8", "surrogatepass")) as mv:
        assert_same_outcome(capture(jetjson.loads, mv), expected, "memoryview", jetjson)
    assert_same_outcome(capture(jetjson.loads, bytearray(text.encode("utf-8", "surrogatepass"))),
                        expected, "bytearray", jetjson)


ENCODINGS = ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le",
             "utf-32-be"]


@hyp_settings(300)
@given(doc=documents, ensure_ascii=st.booleans(), encoding=st.sampled_from(ENCODINGS))
def test_generated_documents_in_other_encodings(doc, ensure_ascii, encoding):
    """json.loads detects UTF-16/UTF-32 (with or without BOM) and the UTF-8 BOM in bytes."""
    text = json.dumps(doc, ensure_ascii=ensure_ascii)
    raw = text.encode(encoding, "surrogatepass")
    assert_same_outcome(capture(jetjson.loads, raw), json_oracle(raw), encoding, jetjson)


@hyp_settings(300)
@given(pairs=st.lists(st.tuples(st.sampled_from(["a", "b", "é", "a\u0301", "\u00e1", "",
                                                 "\ud800", "\U0001f600", "a" * 40]),
                                scalars), max_size=12),
       separators=st.sampled_from([(",", ":"), (", ", ": ")]))
def test_generated_objects_with_duplicate_keys(pairs, separators):
    """Duplicate keys: last value wins, the key keeps its first position (as json)."""
    item, colon = separators
    text = "{" + item.join(json.dumps(k) + colon + json.dumps(v) for k, v in pairs) + "}"
    check_text(text, "duplicate keys")


# --------------------------------------------------------------------------------------
# Strings of every kind and length
# --------------------------------------------------------------------------------------
def string_of_kind(kind):
    alphabet = any_char if kind == "mixed" else CHAR_KINDS[kind]
    return st.integers(min_value=0, max_value=200).flatmap(
        lambda n: st.text(alphabet, min_size=n, max_size=n))


@pytest.mark.parametrize("kind", list(CHAR_KINDS) + ["mixed"])
@hyp_settings(150)
@given(data=st.data())
def test_generated_strings(kind, data):
    s = data.draw(string_of_kind(kind), label="string")
    ensure_ascii = data.draw(st.booleans(), label="ensure_ascii")
    text = json.dumps(s, ensure_ascii=ensure_ascii)
    check_text(text, f"{kind} string")
    # the same string as an object key and inside an array, next to other values
    check_text(json.dumps({s: [s, 1]}, ensure_ascii=ensure_ascii), f"{kind} key")


# Deterministic patterns: each length 0..200 for each kind, so every SIMD block boundary is
# crossed with every alignment.
PATTERNS = {
    "ascii": "abcdefghijklmnopqrstuvwxyz0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&'()*+-./;<=>?@",
    "latin1": "a\u00e9b\u00ff\u00a0c\u0080\u00c0d",
    "bmp": "a\u20ac\u00e9\u4e2d\uffff\u0800\u07ff\ufffd",
    "astral": "\U0001f600a\U00010000\u00e9\U0010ffff\u20ac",
    "surrogate": "a\ud800b\udfff\udc00\ud83d\ud83dx\ude00",
    "escape": ESCAPE_CHARS,
}


def pattern_string(kind, n):
    pat = PATTERNS[kind]
    return (pat * (n // len(pat) + 1))[:n]


@pytest.mark.parametrize("kind", list(PATTERNS))
def test_strings_of_every_length(kind):
    for n in range(201):
        s = pattern_string(kind, n)
        for ensure_ascii in (False, True):
            text = json.dumps(s, ensure_ascii=ensure_ascii)
            got = jetjson.loads(text)
            assert_same_value(got, json.loads(text), f"str, {kind} length {n}")
            raw = text.encode("utf-8", "surrogatepass")
            assert_same_value(jetjson.loads(raw), json.loads(raw), f"bytes, {kind} length {n}")
            with memoryview(raw) as mv:
                assert_same_value(jetjson.loads(mv), json.loads(raw), f"memoryview {kind} {n}")
        # as a key, followed by a value, inside nested containers
        text = json.dumps([{s: s}, s], ensure_ascii=False)
        check_text(text, f"{kind} key length {n}")


# A token placed at every offset of an ASCII string; the filler after it crosses 16/32/64.
TOKENS = [
    '\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0000", "\\u001f", "\\u007f",
    "\\u00e9", "\\u00E9", "\\u20ac", "\\uFFFF", "\\ud83d\\ude00", "\\uD83D\\uDE00", "\\ud800",
    "\\udc00", "\\ud800\\u0041", "\\ud800\\ud800", "\\ud83d\\ude00\\ud83d", "\\ud800x",
    "\u00e9", "\u20ac", "\U0001f600", "\ud800", "\u007f", "\u0080",
    # invalid ones: the error position and message must match json
    "\x00", "\x1f", "\n", "\\x", "\\'", "\\u12", "\\u12G4", "\\U0041", "\\ud800\\u12",
    "\\ud800\\", "\\",
]


@pytest.mark.parametrize("token", TOKENS, ids=[repr(t) for t in TOKENS])
def test_string_token_at_every_offset(token):
    for before in range(0, 140):
        for after in (0, 1, 2, 15, 31, 63):
            text = '["' + "a" * before + token + "b" * after + '", 1]'
            check_text(text, f"token {token!r} at {before}, {after} after")


@pytest.mark.parametrize("suffix", ['"]', '",1]', '"', "", 'x"]'])
def test_backslash_runs_at_every_offset(suffix):
    """Odd/even backslash runs before a quote, crossing 64-byte block boundaries."""
    for before in range(0, 140):
        for nbs in range(0, 7):
            text = '["' + "a" * before + "\\" * nbs + suffix
            check_text(text, f"{nbs} backslashes at {before}")


def test_all_escapes_decode():
    text = '"' + "".join(f"\\u{c:04x}" for c in range(0, 0x800)) + '\\"\\\\\\/\\b\\f\\n\\r\\t"'
    assert_same_value(jetjson.loads(text), json.loads(text), "every \\u escape below 0x800")
    for start in range(0x800, 0x10000, 0x800):
        text = '"' + "".join(f"\\u{c:04X}" for c in range(start, start + 0x800)) + '"'
        check_text(text, f"\\u escapes {start:#x}")


def test_lone_surrogate_escapes_are_kept():
    for text in ('"\\ud800"', '"\\udfff"', '"\\ud800\\ud800"', '"\\udc00\\ud800"',
                 '["\\ud800", "\\ud834\\udd1e"]', '{"\\ud800": "\\udbff"}'):
        expected = json.loads(text)
        assert_same_value(jetjson.loads(text), expected, text)
        assert_same_value(jetjson.loads(text.encode()), expected, text)
    assert jetjson.loads('"\\ud800"') == "\ud800"
    # an encoded surrogate in UTF-8 bytes (ED A0 80) is accepted by json (surrogatepass)
    assert_same_value(jetjson.loads(b'"\xed\xa0\x80"'), json.loads(b'"\xed\xa0\x80"'))


def test_str_kinds_of_input_document():
    """The input str itself in each storage kind (1, 2, 4 bytes per char)."""
    for text in ('{"a": "b"}', '{"a": "\u00e9"}', '{"\u00e9": 1}', '{"a": "\u20ac"}',
                 '{"a": "\U0001f600"}', '["\ud800", 1]', '["x", "\u00ff", "\uffff", "\U0010ffff"]'):
        for doc in (text, " " * 70 + text + " " * 70):
            check_text(doc, "str kind")


# --------------------------------------------------------------------------------------
# Scalars and containers
# --------------------------------------------------------------------------------------
SIMPLE = [
    "null", "true", "false", "0", "-0", "1", "-1", "0.0", "-0.0", "1.5", "1e5", "1E5", "1e-5",
    "NaN", "Infinity", "-Infinity", "[NaN, Infinity, -Infinity]", '""', '"x"', "[]", "{}",
    "[[]]", "[{}]", '{"": {}}', "[null, true, false]", '{"a": null, "b": true, "c": false}',
    " \t\n\r[ \t\n\r1 \t\n\r, \t\n\r2 \t\n\r] \t\n\r", '{"a":1,"b":2,"a":3}',
    '{"b": 1, "a": 2, "c": {"z": 1, "y": 2}}', "[1, 1.0, true, 1e0, 10E-1]",
    '{"1": 1, "1.0": 2, "true": 3}', '[[[[[[[[[[[[[[[[[[[["deep"]]]]]]]]]]]]]]]]]]]]',
]


@pytest.mark.parametrize("text", SIMPLE)
def test_simple_documents(text):
    expected = check_text(text)
    for label, data in (("bytearray", bytearray(text.encode())),
                        ("memoryview", memoryview(text.encode()))):
        assert_same_outcome(capture(jetjson.loads, data), expected, label, jetjson)


def test_types_of_scalars():
    assert type(jetjson.loads("1")) is int
    assert type(jetjson.loads("-0")) is int and jetjson.loads("-0") == 0
    assert type(jetjson.loads("1.0")) is float
    assert type(jetjson.loads("1e2")) is float
    assert jetjson.loads("true") is True and jetjson.loads("false") is False
    assert jetjson.loads("null") is None
    nan = jetjson.loads("NaN")
    assert type(nan) is float and nan != nan
    assert jetjson.loads("Infinity") == float("inf")
    assert jetjson.loads("-Infinity") == float("-inf")
    assert jetjson.loads("1e400") == float("inf")
    neg = jetjson.loads("-0.0")
    assert neg == 0.0 and str(neg) == "-0.0"


def test_duplicate_keys_last_wins_in_first_position():
    got = jetjson.loads('{"a": 1, "b": 2, "a": 3}')
    assert got == {"a": 3, "b": 2}
    assert list(got) == ["a", "b"]
    assert_same_value(got, json.loads('{"a": 1, "b": 2, "a": 3}'))


def test_many_keys_and_wide_containers():
    wide_obj = "{" + ",".join(f'"k{i}": {i}' for i in range(20000)) + "}"
    check_text(wide_obj, "20000 keys")
    wide_arr = "[" + ",".join(str(i) if i % 3 else f'"{i}"' for i in range(100000)) + "]"
    check_text(wide_arr, "100000 elements")
    same_key_many_objects = "[" + ",".join('{"key": %d, "k\u00e9y": [%d]}' % (i, i)
                                           for i in range(5000)) + "]"
    check_text(same_key_many_objects, "repeated keys")


def test_long_strings():
    for n in (1 << 12, (1 << 16) - 1, 1 << 16, (1 << 16) + 1, 1 << 20):
        for kind in PATTERNS:
            s = pattern_string(kind, n)
            check_text(json.dumps(s, ensure_ascii=False), f"{kind} string of {n}")
    check_text(json.dumps("\\" * 100000), "100000 escaped backslashes")


def test_bom_detection_variants():
    text = '{"a": [1, "\u00e9\U0001f600"]}'
    for enc in ENCODINGS + ["utf-8"]:
        raw = text.encode(enc)
        assert_same_outcome(capture(jetjson.loads, raw), json_oracle(raw), enc, jetjson)
    for raw in (codecs.BOM_UTF8 + b"1", codecs.BOM_UTF8 + b"", b"\xef\xbb", b"12", b"1\x00",
                b"\x001", b"1\x00\x00\x00", b"\x00\x00\x001", b'"\x00', b'\x00"'):
        assert_same_outcome(capture(jetjson.loads, raw), json_oracle(raw), repr(raw), jetjson)


@hyp_settings(200)
@given(text=st.text(st.characters(), max_size=60), ensure_ascii=st.booleans())
def test_string_values_roundtrip_exact(text, ensure_ascii):
    """Direct check against the original string, not only against json (no surrogates here:
    an escaped high+low pair legitimately decodes to one astral char)."""
    got = jetjson.loads(json.dumps(text, ensure_ascii=ensure_ascii))
    assert_same_value(got, text, "the dumped string")
