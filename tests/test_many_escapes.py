"""Strings with escapes in streams of records (the amazon records' \\" in titles), against
json: stage 2 unescapes an ASCII string whose closing quote it knows a vector step at a
time, so escapes are put at every position near the 16/32/64-byte step edges, the
documents are split across windows, and every byte is broken in turn (json's message and
position). loads of each document is compared too (the same stage 2)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

try:
    from conftest import hyp_settings
    from test_many import check, oracle, run, same
except ImportError:  # tests/ turned into a package
    from .conftest import hyp_settings
    from .test_many import check, oracle, run, same

SIMPLE = ['\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"]
OTHER = ["\\u0041", "\\u00e9", "\\ud83d\\ude00", "é", "\u20ac", "\x7f"]


def string_with(length, marks, pieces):
    """A JSON string literal of about `length` plain bytes with pieces[i] at marks[i]."""
    body = [chr(ord("a") + i % 26) for i in range(length)]
    for at, piece in sorted(zip(marks, pieces), reverse=True):
        body.insert(min(at, len(body)), piece)
    return '"' + "".join(body) + '"'


def records(strings, per_record):
    rows = [strings[i:i + per_record] for i in range(0, len(strings), per_record)]
    return "\n".join("[" + ", ".join(row + ["1.5", "7"]) + "]" for row in rows) + "\n"


edge = st.sampled_from([0, 1, 14, 15, 16, 17, 30, 31, 32, 33, 62, 63, 64, 65, 95, 96, 127, 128])
a_string = st.builds(
    string_with,
    st.one_of(edge, st.integers(0, 150)),
    st.lists(st.one_of(edge, st.integers(0, 150)), max_size=4),
    st.lists(st.one_of(st.sampled_from(SIMPLE), st.sampled_from(OTHER)), min_size=4, max_size=4),
)


@hyp_settings(300)
@given(st.lists(a_string, min_size=1, max_size=12), st.integers(1, 4), st.integers(1, 300))
def test_escaped_strings_in_records(strings, per_record, batch):
    text = records(strings, per_record)
    data = text.encode("utf-8", "surrogatepass")
    check(data, "whitespace", streamed=True)
    check(data, "whitespace", batch_size=batch)
    check(data, "lines", batch_size=batch)
    for line in text.splitlines():
        assert jetjson.loads(line) == json.loads(line)
        for key_first in (True, False):  # as an object's key and value too
            obj = "{" + ", ".join(f"{s}: {s}" if key_first else f'"k{i}": {s}' for i, s in enumerate(strings)) + "}"
            assert jetjson.loads(obj) == json.loads(obj)


@hyp_settings(200)
@given(st.lists(a_string, min_size=1, max_size=4), st.data())
def test_broken_escaped_strings(strings, data):
    text = records(strings, 2).encode("utf-8", "surrogatepass")
    at = data.draw(st.integers(0, len(text) - 1))
    junk = data.draw(st.sampled_from([b"\x01", b"\\", b'"', b"x", b"\x1f", b"\xff", b"\n", b"u"]))
    broken = text[:at] + junk + text[at + 1:]
    check(broken, "whitespace", batch_size=data.draw(st.integers(1, 100)), streamed=True)


def test_every_byte_broken():
    """Each byte of two records in turn: a control byte, a bad escape, a stray quote."""
    text = records([string_with(40, [31, 32], ['\\"', "\\\\"]), string_with(70, [63, 0], ["\\/", '\\"'])], 1)
    data = text.encode()
    for at in range(len(data)):
        for junk in (b"\x01", b"q", b'"', b"\\"):
            if data[at:at + 1] == junk:
                continue
            broken = data[:at] + junk + data[at + 1:]
            same(run(broken), oracle(broken), f"{broken!r}")


@pytest.mark.parametrize("tail", [0, 1, 5, 31, 32, 33])
def test_escaped_string_at_the_end_of_the_input(tail):
    """The last string of the input, where a whole step cannot be read past its quote."""
    text = ('["x", ' + string_with(tail, [tail // 2], ['\\"']) + "]").encode()
    same(run(text), oracle(text), repr(text))
    assert jetjson.loads(text) == json.loads(text)
    for pad in (b"", b" ", b" " * 40):
        assert jetjson.loads(text + pad) == json.loads(text + pad)


@pytest.mark.parametrize("data", [
    b'["", "a\n\xa9\\"", 1.5, 7]\n',  # a line break where the first byte of "\xc2\xa9" was
    b'[1]\n["", "a\n\xa9\\"", 1.5, 7]\n',
    b'{"a": "x\x01 y\xff"}\n',
    b'[1, ]\xff\n',
    b'{"a": "x\x01yy\xff"}\n',  # the bad byte ends the token json names: either error
    b'"abc\xff"\n',
    b'n\xffll\n',
    b'[1,]\n"\xff"\n',
    b'0.\xff',  # json's 0 ends before the bad byte: read, then the error
    b'[0, 1]\n-\xff1',
])
def test_error_before_bad_bytes(data):
    """A document that runs into bytes that are not UTF-8 is what json makes of the text
    before them when that decides it: its error, with text that splits tokens between
    (else the bad bytes' error), or its value when that ends first. The exception's doc
    reads too, the bad bytes as surrogates."""
    for kw in ({}, {"batch_size": 1}, {"batch_size": 7}):
        check(data, "whitespace", streamed=True, **kw)
    got = run(data)[-1]
    if isinstance(got, json.JSONDecodeError):
        assert got.doc == data.decode("utf-8", "surrogateescape")
