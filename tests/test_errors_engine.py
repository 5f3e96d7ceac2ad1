"""Errors made by the engine: for every text the engine refuses, loads, parse, get and
indent raise what json.loads raises (same type, msg, pos, lineno, colno, doc, str), and
json is not called to find out (the _stats counter of json calls does not move).

Inputs: JSONTestSuite, corpus files cut at many offsets, single-byte mutations,
hypothesis-generated near-JSON text, and the hand-picked quirks of json's scanner."""

import json
import os
import random
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson
from conftest import (
    TEST_SCALE,
    assert_same_outcome,
    capture,
    corpus_files,
    data_path,
    hyp_settings,
    json_oracle,
    read_bytes,
    traced_growth,
)

STATS = jetjson._jetjson._stats


def json_calls():
    return STATS()["json_calls"]


def check_all_entry_points(data):
    """loads, parse, get and indent against json.loads; valid against its truth."""
    exp = json_oracle(data)
    before = json_calls()
    assert_same_outcome(capture(jetjson.loads, data), exp, repr(data[:60]), jetjson)
    if hasattr(exp, "exc"):
        # parse, get and indent have no depth limit: compare where json's refusal is not
        # about depth
        if not isinstance(exp.exc, RecursionError):
            assert_same_outcome(capture(jetjson.parse, data), exp, repr(data[:60]), jetjson)
            assert_same_outcome(capture(jetjson.get, data, ""), exp, repr(data[:60]), jetjson)
            assert_same_outcome(capture(jetjson.indent, data), exp, repr(data[:60]), jetjson)
        assert jetjson.valid(data) is False
        if isinstance(exp.exc, json.JSONDecodeError):
            assert json_calls() == before, f"json was called for {data[:60]!r}"
    else:
        assert jetjson.valid(data) is True


QUIRKS = [
    "", "  ", "[", "{", "]", "}", "[1,]", '{"a":1,}', "[1 2]", '{"a" 1}', '{"a":}', "{1:2}",
    "[1.]", "[1.e5]", "1e", "1e+", "[1e+]", "[1E-]", "-", "[-]", "-0", "-01", "01", "[01]",
    "nul", "[nul]", "[nulll]", "tru", "fals", "[NaN, Infinity, -Infinity]", "[-Inf]", "Nan",
    '"abc', '"\\', '"\\x"', '"\\u12"', '"\\u1234', '"\\uZZZZ"', '"\\u00e9"', '["\\ud800\\uZZZZ"]',
    '["\\ud800\\u12"]', '["\\ud800\\u"]', '["\\ud800\\', '"\\ud800"', '"\\ud800\\udc00"',
    '"a\x01b"', '"\x1f"', "[][]", "{}{}", "1 2", "[] x", "[\n1,\n2\n,]", '{\n "k": [1,\n 2 3]}',
    "\ufeff[1]", "[1]\ufeff", '"é\\q"', "[\"é\", ]", "ééé", '["€€",,]', '{"😀":1 "b":2}',
    "[1,\n\n\n  ,2]", "\t\r\n [\t1\r,\n2 ,]", "[" * 50 + "1" + "]" * 49,
    '[{"a":[{"b":' * 20 + "1" + "}]" * 19,
]


@pytest.mark.parametrize("text", QUIRKS)
def test_scanner_quirks(text):
    check_all_entry_points(text)
    check_all_entry_points(text.encode("utf-8", "surrogatepass"))


def test_json_test_suite():
    folder = data_path("JSONTestSuite", "test_parsing")
    if folder is None or not os.path.isdir(folder):
        pytest.skip("JSONTestSuite not found")
    names = sorted(os.listdir(folder))
    assert len(names) > 300
    for name in names:
        raw = read_bytes(os.path.join(folder, name))
        check_all_entry_points(raw)
        try:
            check_all_entry_points(raw.decode("utf-8", "surrogatepass"))
        except UnicodeDecodeError:
            pass


def truncation_offsets(size, rng, count):
    every = range(size) if size <= 400 else sorted(rng.sample(range(size), count))
    return list(every)


@pytest.mark.parametrize("name", corpus_files())
def test_corpus_truncated(name):
    raw = read_bytes(data_path("corpus", name))
    rng = random.Random(name)
    head = raw[:200_000]
    # every offset of the first 400 bytes, then a sample over the rest
    offsets = list(range(min(400, len(head)))) + truncation_offsets(
        len(head), rng, int(60 * TEST_SCALE) + 5)
    for cut in sorted(set(offsets)):
        check_all_entry_points(head[:cut])
    check_all_entry_points(raw[:-1])  # the whole file but its last byte


MUTATIONS = b'{}[],:"\\ \t\n0123456789-+.eEtrufalsnNIx\x00\x01\x7f\xc3\xa9'


@pytest.mark.parametrize("name", corpus_files())
def test_corpus_mutated(name):
    raw = read_bytes(data_path("corpus", name))[:30_000]
    rng = random.Random(name + "mutate")
    for _ in range(int(80 * TEST_SCALE) + 5):
        doc = bytearray(raw)
        for _ in range(rng.choice((1, 1, 2, 3))):
            doc[rng.randrange(len(doc))] = rng.choice(MUTATIONS)
        check_all_entry_points(bytes(doc))


near_json = st.lists(
    st.sampled_from(['{', '}', '[', ']', ',', ':', '"', '"k"', '"\\u12', '\\', '1', '-', '0', '.5',
                     'e', 'E+', 'null', 'tru', 'NaN', '-Infinity', ' ', '\n', '\t', 'é', '\x01',
                     '"\\ud83d\\ude00"', '"\\ud83d"', '"a"', '12345678901234567890']),
    max_size=24).map("".join)


@hyp_settings(400)
@given(near_json)
def test_generated_near_json(text):
    check_all_entry_points(text)
    check_all_entry_points(text.encode("utf-8", "surrogatepass"))


def test_int_digit_limit_before_a_later_error():
    if not hasattr(sys, "get_int_max_str_digits"):
        pytest.skip("no int digit limit on this Python")
    data = "[" + "9" * 5000 + ", }"
    assert_same_outcome(capture(jetjson.loads, data), json_oracle(data), "long int then error", jetjson)
    data = "[" + "9" * 5000 + ", 1]"
    assert_same_outcome(capture(jetjson.loads, data), json_oracle(data), "long int", jetjson)
    assert jetjson.valid(data) is False


def test_error_positions_count_characters():
    for text in ['["é", 1 2]', '["😀😀", }', '\n\n  ["\u4e2d",\n x]', '{"\U0001f600":\n\n 1,]']:
        for data in (text, text.encode("utf-8"), bytearray(text.encode("utf-8"))):
            assert_same_outcome(capture(jetjson.loads, data), json_oracle(data), repr(data), jetjson)


def test_invalid_utf8_is_unicode_decode_error():
    for data in (b'["\xff"]', b'[1, 2 \xc3]', b'{"a": "\xed\xa0\x80"', b'\xe2\x82'):
        exp = json_oracle(data)
        assert_same_outcome(capture(jetjson.loads, data), exp, repr(data), jetjson)
        assert_same_outcome(capture(jetjson.parse, data), exp, repr(data), jetjson)


def test_decode_error_pickles_like_json():
    import pickle

    with pytest.raises(jetjson.JSONDecodeError) as info:
        jetjson.loads(b'{"a": [1, 2,, 3]}')
    exc = info.value
    with pytest.raises(json.JSONDecodeError) as ref:
        json.loads(b'{"a": [1, 2,, 3]}')
    assert exc.args == ref.value.args
    again = pickle.loads(pickle.dumps(exc))
    assert (again.msg, again.doc, again.pos, again.lineno, again.colno) == \
        (exc.msg, exc.doc, exc.pos, exc.lineno, exc.colno)


def test_doc_is_the_text_whenever_read():
    data = b'{"a": [1, 2, 3 4]}'
    with pytest.raises(jetjson.JSONDecodeError) as info:
        jetjson.loads(data)
    exc = info.value
    assert exc.doc == data.decode() and exc.doc is exc.doc  # decoded once, then kept
    exc.doc = "replaced"
    assert exc.doc == "replaced"
    made = jetjson.JSONDecodeError("Expecting value", "[x]", 1)  # json's own __init__
    assert (made.doc, made.pos, made.lineno, made.colno) == ("[x]", 1, 1, 2)
    # from a bytearray, the text is the buffer's at the time of the call
    buf = bytearray(b"[1, 2,, 3]")
    with pytest.raises(jetjson.JSONDecodeError) as info:
        jetjson.loads(buf)
    buf[:] = b"xxxxxxxxxx"
    assert info.value.doc == "[1, 2,, 3]"


def test_raising_does_not_leak():
    inputs = [b'[1, 2,, 3]', '{"a": "\\u12"}', bytearray(b'[1] x'), b'"\xe9\xff"', b"[" * 5 + b"1"]

    def raise_all():
        for data in inputs:
            for fn in (jetjson.loads, jetjson.parse, jetjson.valid, lambda d: jetjson.get(d, "/0")):
                try:
                    fn(data)
                except ValueError as e:
                    getattr(e, "doc", None)
    growth = traced_growth(raise_all)
    assert growth < 20_000, f"{growth} bytes kept by 200 rounds of errors"
    data = b'[1, 2,, 3]'
    before = sys.getrefcount(data)
    for _ in range(100):
        try:
            jetjson.loads(data)
        except jetjson.JSONDecodeError:
            pass
    assert sys.getrefcount(data) == before
