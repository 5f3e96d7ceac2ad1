"""Errors: every kind of invalid input raises what json raises: JSONDecodeError (as
jetjson.JSONDecodeError) with json's msg/pos/lineno/colno/doc, UnicodeDecodeError,
RecursionError, ValueError or TypeError with json's message. Never a crash."""

import codecs
import collections
import datetime
import decimal
import json
import sys

import pytest

import jetjson

try:
    from conftest import Raised, assert_same_outcome, capture, input_forms, json_oracle
except ImportError:  # tests/ turned into a package
    from .conftest import Raised, assert_same_outcome, capture, input_forms, json_oracle

# (id, document) pairs; json rejects every one of them (checked in the test).
INVALID = [
    ("empty", ""),
    ("space", " "),
    ("whitespace", " \t\r\n  \n"),
    ("only-newlines", "\n\n\n"),
    ("array-trailing-comma", "[1, 2,]"),
    ("array-only-comma", "[,]"),
    ("array-leading-comma", "[,1]"),
    ("array-double-comma", "[1,,2]"),
    ("object-trailing-comma", '{"a": 1,}'),
    ("object-only-comma", "{,}"),
    ("missing-colon", '{"a" 1}'),
    ("missing-colon-end", '{"a"}'),
    ("double-colon", '{"a":: 1}'),
    ("missing-comma-array", "[1 2]"),
    ("missing-comma-object", '{"a": 1 "b": 2}'),
    ("missing-value", '{"a": }'),
    ("non-string-key", "{1: 2}"),
    ("unquoted-key", "{a: 1}"),
    ("single-quoted-key", "{'a': 1}"),
    ("single-quotes", "'abc'"),
    ("unterminated-string", '"abc'),
    ("unterminated-string-in-array", '["abc'),
    ("unterminated-string-escape", '"abc\\'),
    ("unterminated-key", '{"abc'),
    ("unterminated-array", "[1, 2"),
    ("unterminated-array-after-comma", "[1,"),
    ("unterminated-object", '{"a": 1'),
    ("unterminated-object-after-colon", '{"a":'),
    ("unterminated-nested", '[{"a": [1, {"b": 2}'),
    ("unopened-close", "]"),
    ("mismatched-close", "[1}"),
    ("mismatched-close-object", '{"a": 1]'),
    ("control-char-in-string", '"a\x01b"'),
    ("nul-in-string", '"a\x00b"'),
    ("newline-in-string", '"a\nb"'),
    ("tab-in-string", '["a\tb"]'),
    ("del-is-fine-but-then-bad", '["\x7f" 1]'),
    ("bad-escape", '"\\x41"'),
    ("bad-escape-single-quote", '"\\\'"'),
    ("bad-escape-a", '"\\a"'),
    ("bad-escape-0", '"\\0"'),
    ("bad-escape-capital-U", '"\\U0041"'),
    ("bad-u-escape-short", '"\\u12"'),
    ("bad-u-escape-nonhex", '"\\u12G4"'),
    ("bad-u-escape-space", '"\\u 123"'),
    ("bad-u-escape-end", '"\\u'),
    ("bad-u-escape-after-high", '"\\ud800\\u12"'),
    ("bad-u-escape-after-high-nonhex", '"\\ud800\\uzzzz"'),
    ("bad-escape-in-key", '{"\\q": 1}'),
    ("extra-data", "[1] 2"),
    ("extra-data-object", '{} {}'),
    ("extra-data-after-spaces", "1     x"),
    ("extra-data-newline", '{"a": 1}\n{"b": 2}'),
    ("extra-close", "[1]]"),
    ("leading-zero", "01"),
    ("leading-zero-in-array", "[01]"),
    ("negative-leading-zero", "-012"),
    ("dot-five", ".5"),
    ("one-dot", "1."),
    ("one-dot-in-array", "[1.]"),
    ("minus", "-"),
    ("minus-in-array", "[-]"),
    ("plus", "+1"),
    ("hex", "0x1F"),
    ("exponent-without-digits", "1e"),
    ("line-comment", "// c\n1"),
    ("block-comment", "/* c */ 1"),
    ("trailing-comment", "[1] // c"),
    ("hash-comment", "# c\n1"),
    ("true-typo", "tru"),
    ("true-capital", "True"),
    ("false-typo", "flase"),
    ("null-typo", "nul"),
    ("none", "None"),
    ("nan-lower", "nan"),
    ("infinity-lower", "infinity"),
    ("minus-nan", "-NaN"),
    ("bare-word", "abc"),
    ("utf8-bom-str", "\ufeff[1]"),
    ("utf8-bom-str-only", "\ufeff"),
    ("bom-in-middle", "[1, \ufeff2]"),
    ("non-breaking-space", "\u00a0[1]"),
    ("ideographic-space", "[1,\u30002]"),
    ("vertical-tab", "\x0b[1]"),
    ("form-feed", "\x0c[1]"),
    ("nul-as-space", "[1,\x002]"),
    ("error-after-lines", '[\n  1,\n  2\n  x\n]'),
    ("error-after-crlf", '{\r\n"a": 1,\r\n"b" 2}'),
    ("error-after-cr-only", '{\r"a": 1,\r"b" 2}'),
    ("error-after-non-ascii", '["\u00e9\u20ac\U0001f600", x]'),
    ("error-after-non-ascii-key", '{"\u00e9\u00e9": 1, "\U0001f600": }'),
    ("error-after-lone-surrogate", '["\ud800", x]'),
    ("error-after-escapes", '["\\u00e9\\n\\ud83d\\ude00", x]'),
    ("error-deep-in-long-line", "[" + "1," * 5000 + "x]"),
    ("error-after-long-string", '["' + "a" * 10000 + '" "b"]'),
    ("error-after-many-lines", "[\n" + "1,\n" * 3000 + "]"),
    ("object-key-then-close", '{"a"}'),
    ("object-comma-then-close", '{"a": 1, }'),
    ("colon-in-array", "[1: 2]"),
    ("comma-in-object-instead-of-colon", '{"a", 1}'),
    ("array-as-key", '{[1]: 2}'),
    ("nested-error-in-object", '{"a": {"b": {"c": [1, 2, }}}'),
    ("big-int-then-error", "[123456789012345678901234567890 1]"),
    ("float-then-error", "[1.5e10 1]"),
    ("string-then-colon", '["a": 1]'),
    ("open-brace-only", "{"),
    ("open-bracket-only", "["),
    ("quote-only", '"'),
    ("backslash-only", "\\"),
]

INVALID_IDS = [i for i, _ in INVALID]


def check_all_forms(doc, exact_recursion_message=False):
    results = []
    for label, data in input_forms(doc):
        exp = json_oracle(data)
        got = capture(jetjson.loads, data)
        assert_same_outcome(got, exp, f"{data!r:.80} as {label}", jetjson,
                            exact_recursion_message=exact_recursion_message)
        results.append((label, exp, got))
    return results


@pytest.mark.parametrize("doc", [d for _, d in INVALID], ids=INVALID_IDS)
def test_invalid_documents(doc):
    str_exp = json_oracle(doc)
    assert isinstance(str_exp, Raised), "json accepts this table entry"
    for label, exp, got in check_all_forms(doc):
        # (a UTF-8 BOM is only an error in str: json reads BOM-prefixed bytes as utf-8-sig)
        if isinstance(exp, Raised) and isinstance(exp.exc, json.JSONDecodeError):
            assert isinstance(got.exc, json.JSONDecodeError)
            assert isinstance(got.exc, ValueError)
            assert type(got.exc) is jetjson.JSONDecodeError, label


def test_invalid_documents_padded_to_block_sizes():
    """The same errors with the error byte moved across 16/32/64-byte block boundaries."""
    for _, doc in INVALID:
        if len(doc) > 200:
            continue
        for pad in (1, 13, 15, 16, 17, 31, 32, 33, 63, 64, 65):
            for padded in (" " * pad + doc, "[" + " " * pad + doc + "]",
                           '["' + "x" * pad + '", ' + doc + "]"):
                for data in (padded, padded.encode("utf-8", "surrogatepass")):
                    assert_same_outcome(capture(jetjson.loads, data), json_oracle(data),
                                        repr(data[:80]), jetjson)


def test_decode_error_attributes_directly():
    try:
        jetjson.loads('{\n  "a": 1,\n  "b" 2\n}')
    except json.JSONDecodeError as e:
        assert type(e) is jetjson.JSONDecodeError
        assert e.msg == "Expecting ':' delimiter"
        assert (e.pos, e.lineno, e.colno) == (18, 3, 7)
        assert e.doc == '{\n  "a": 1,\n  "b" 2\n}'
        assert str(e) == "Expecting ':' delimiter: line 3 column 7 (char 18)"
        assert e.args == (str(e),)
    else:
        pytest.fail("no exception")
    with pytest.raises(ValueError):
        jetjson.loads(b"[1,]")
    with pytest.raises(jetjson.JSONDecodeError) as info:
        jetjson.loads(b'["\xc3\xa9\xc3\xa9", x]')
    # for bytes input, pos counts characters of the decoded text (as json)
    assert info.value.pos == json_oracle(b'["\xc3\xa9\xc3\xa9", x]').exc.pos == 7
    assert info.value.doc == '["\u00e9\u00e9", x]'


# --------------------------------------------------------------------------------------
# BOMs and encodings
# --------------------------------------------------------------------------------------
BOM_CASES = [
    codecs.BOM_UTF8 + b"[1]", codecs.BOM_UTF8 + b"", codecs.BOM_UTF8 + b" ",
    codecs.BOM_UTF8 + codecs.BOM_UTF8 + b"1", codecs.BOM_UTF8 + b"[1,]", b"[1]" + codecs.BOM_UTF8,
    b"\xef\xbb", b"\xef\xbb[1]", b"\xef", codecs.BOM_UTF16_LE + "[1]".encode("utf-16-le"),
    codecs.BOM_UTF16_BE + "[1]".encode("utf-16-be"), codecs.BOM_UTF16_LE + b"[\x00",
    "[1]".encode("utf-16-le"), "[1]".encode("utf-16-be"), "[1, x]".encode("utf-16-le"),
    "[1]".encode("utf-32"), "[1]".encode("utf-32-le"), "[1]".encode("utf-32-be"),
    "[1]".encode("utf-16-le")[:-1], "[1]".encode("utf-32-le")[:-1], b"\x00\x00\x00",
    b"1\x00", b"\x001", b"\x00", b"\xff\xfe", b"\xfe\xff", b"\xff\xfe\x00\x00",
    '["\ud800"]'.encode("utf-16-le", "surrogatepass"),
    '"\U0001f600"'.encode("utf-16-be"),
]


@pytest.mark.parametrize("raw", BOM_CASES, ids=[repr(r)[:40] for r in BOM_CASES])
def test_boms_and_utf16_utf32(raw):
    for data in (raw, bytearray(raw), memoryview(raw)):
        assert_same_outcome(capture(jetjson.loads, data), json_oracle(data), repr(raw), jetjson)


def test_bom_on_str_is_a_decode_error():
    got = capture(jetjson.loads, "\ufeff{}")
    assert isinstance(got, Raised) and type(got.exc) is jetjson.JSONDecodeError
    assert got.exc.msg == "Unexpected UTF-8 BOM (decode using utf-8-sig)"
    assert (got.exc.pos, got.exc.lineno, got.exc.colno) == (0, 1, 1)
    # while in bytes json accepts it (utf-8-sig)
    assert jetjson.loads(codecs.BOM_UTF8 + b"{}") == {}


# --------------------------------------------------------------------------------------
# Invalid UTF-8: UnicodeDecodeError with json's message (json decodes before parsing, so
# it wins over any syntax error, wherever it is)
# --------------------------------------------------------------------------------------
BAD_UTF8 = [
    b"\xff", b"\xfe", b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xc2", b"\xc2\x41",
    b"\xe0\x80\x80", b"\xe0\x9f\xbf", b"\xe1\x80", b"\xe2\x82", b"\xef\xbf", b"\xf0\x80\x80\x80",
    b"\xf0\x8f\xbf\xbf", b"\xf0\x9f\x98", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80",
    b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80", b"\xed\xa0", b"\xed\xbf\xbf\xed",
    b"\xc3\xa9\xe9", b"\xe9t\xe9", b"\xe2\x28\xa1", b"\xf0\x28\x8c\xbc",
]
# Accepted by json (surrogatepass): encoded surrogates.
SURROGATE_UTF8 = [b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xed\xa0\xbd\xed\xb8\x80", b"\xed\xb0\x80"]


@pytest.mark.parametrize("bad", BAD_UTF8 + SURROGATE_UTF8, ids=[b.hex() for b in BAD_UTF8 + SURROGATE_UTF8])
def test_invalid_utf8_everywhere(bad):
    templates = [b'"@"', b'["@"]', b'{"@": 1}', b'{"a": "@"}', b"[1, @]", b"@", b"[1]@",
                 b" @[1]", b"[1 @ 2]", b'"\\u00e9@"', b'"\\@"', b"[1,]@", b"@[1,]", b"[@",
                 b'["' + b"x" * 100 + b'@"]', b"[" * 3000 + b"@"]
    for tpl in templates:
        for pad in (0, 1, 15, 30, 31, 62, 63):
            raw = tpl.replace(b"@", b"a" * pad + bad) if tpl.startswith((b'"', b'["', b'{"')) \
                else b" " * pad + tpl.replace(b"@", bad)
            for data in (raw, bytearray(raw), memoryview(raw)):
                exp = json_oracle(data)
                assert_same_outcome(capture(jetjson.loads, data), exp, repr(raw[:60]), jetjson)


def test_invalid_utf8_wins_over_deep_nesting_and_syntax():
    for raw in (b"[" * 100000 + b"\xff", b"}\xff", b"[1,]\x80", b'"a\xc3"', b"\xff" + b"[" * 5000):
        assert_same_outcome(capture(jetjson.loads, raw), json_oracle(raw), repr(raw[:20]),
                            jetjson)
        assert type(capture(jetjson.loads, raw).exc) is UnicodeDecodeError


# --------------------------------------------------------------------------------------
# Deep nesting: RecursionError like json, no crash
# --------------------------------------------------------------------------------------
DEEP = [
    ("open-arrays-100k", "[" * 100000),
    ("closed-arrays-100k", "[" * 100000 + "]" * 100000),
    ("open-objects-100k", '{"a":' * 100000),
    ("closed-objects-100k", '{"a":' * 100000 + "1" + "}" * 100000),
    ("open-arrays-1M", "[" * 1000000),
    ("arrays-then-garbage", "[" * 100000 + "x"),
    ("arrays-then-bad-close", "[" * 100000 + "}"),
    ("array-list-of-deep", "[1, " + "[" * 100000 + "]" * 100000 + "]"),
    ("objects-in-arrays", '[{"a":' * 50000),
]


@pytest.mark.parametrize("doc", [d for _, d in DEEP], ids=[i for i, _ in DEEP])
def test_deep_nesting(doc):
    homogeneous = not ("[" in doc and "{" in doc)
    exp = json_oracle(doc)
    assert isinstance(exp, Raised) and type(exp.exc) is RecursionError
    for data in (doc, doc.encode()):
        got = capture(jetjson.loads, data)
        assert_same_outcome(got, exp, f"{doc[:20]!r}... ({len(doc)} chars)", jetjson,
                            exact_recursion_message=homogeneous)
    # the interpreter is fine afterwards and jetjson still works
    assert jetjson.loads("[[[1]]]") == [[[1]]]
    assert_same_outcome(capture(jetjson.loads, "[" * 50 + "]" * 50),
                        json_oracle("[" * 50 + "]" * 50), "moderate nesting", jetjson)


def test_error_before_deep_nesting_is_a_decode_error():
    for doc in ("[x" + "[" * 100000, "[1 2" + "[" * 100000, '{"a" 1, "b": ' + "[" * 100000,
                "]" + "[" * 100000):
        exp = json_oracle(doc)
        assert isinstance(exp.exc, json.JSONDecodeError)
        for data in (doc, doc.encode()):
            assert_same_outcome(capture(jetjson.loads, data), exp, doc[:10], jetjson)


def test_nesting_well_within_the_limit_succeeds():
    for depth in (32, 64, 100, 200):
        for doc in ("[" * depth + "1" + "]" * depth, '{"k":' * depth + "[]" + "}" * depth):
            assert_same_outcome(capture(jetjson.loads, doc), json_oracle(doc), f"depth {depth}",
                                jetjson)


def test_recursion_limit_is_respected_like_json():
    """With a raised recursion limit json parses deeper; jetjson follows the same limit."""
    old = sys.getrecursionlimit()
    doc = "[" * 3000 + "]" * 3000
    try:
        sys.setrecursionlimit(10000)
        exp = json_oracle(doc)  # parses, but for 3.12's C limit (1500), which ignores this
        assert_same_outcome(capture(jetjson.loads, doc), exp, "depth 3000 with limit 10000",
                            jetjson)
        sys.setrecursionlimit(1000)
        exp = json_oracle(doc)  # raises, but for 3.13's C limit (10000), which ignores this
        assert_same_outcome(capture(jetjson.loads, doc), exp, "depth 3000 with limit 1000",
                            jetjson, exact_recursion_message=True)
    finally:
        sys.setrecursionlimit(old)


def test_recursion_room_when_called_deep_in_the_stack():
    """loads reads the interpreter's remaining recursion budget before building (and
    probes it only when it is short): called with little room left, it must still give
    what json gives, for documents just under, at and over that room."""
    def at_depth(k, fn):
        return fn() if k == 0 else at_depth(k - 1, fn)

    limit = sys.getrecursionlimit()
    for used in (limit - 80, limit - 45, limit - 25):
        for depth in range(1, 60, 2):
            doc = "[" * depth + "]" * depth
            exp = capture(at_depth, used, lambda: json.loads(doc))
            got = capture(at_depth, used, lambda: jetjson.loads(doc))
            assert_same_outcome(got, exp, f"depth {depth} at stack {used}", jetjson)


# --------------------------------------------------------------------------------------
# Wrong input types
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("value", [None, 1, 1.5, True, [], {}, ["[1]"], ("[1]",), object(),
                                   {"a": 1}, set(), collections.OrderedDict(),
                                   datetime.date(2020, 1, 2), decimal.Decimal("1")],
                         ids=lambda v: type(v).__name__)
def test_wrong_input_types(value):
    exp = capture(json.loads, value)
    assert isinstance(exp, Raised) and type(exp.exc) is TypeError
    assert_same_outcome(capture(jetjson.loads, value), exp, type(value).__name__, jetjson)


def test_loads_without_arguments_is_a_type_error():
    with pytest.raises(TypeError):
        jetjson.loads()


def test_memoryview_is_accepted():
    assert jetjson.loads(memoryview(b'{"a": [1]}')) == {"a": [1]}
    exp = capture(json.loads, memoryview(b"[]"))
    assert isinstance(exp, Raised)  # json itself refuses memoryview: jetjson is a superset


def test_errors_leave_no_state_behind():
    """An error in the middle of a document must not leak into the next call."""
    for bad in ('{"a": [1, 2, {"b": ', "[" * 5000, '["abc', b'["\xff"]', "[1e", "{" * 50000):
        capture(jetjson.loads, bad)
        for good in ('{"x": [1, 2.5, "s"]}', "[]", "0", '"tail"'):
            assert_same_outcome(capture(jetjson.loads, good), json_oracle(good), good, jetjson)
