"""Stage 2 reads a string without scanning it when the next index entry shows where it
ends and a vector check finds it plain ASCII (no backslash, no control byte, nothing
>= 0x80); anything else is scanned as before. Against json.loads: strings with one odd
byte (an escape, a non-ASCII character, a raw control byte) at every position, across
the 32- and 64-byte boundaries, in every context a string has (array value, object key
and value, before spaces, last value, a document of its own), in loads and loads_many,
on every kernel of the machine; and hypothesis documents of such strings."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

try:
    from conftest import assert_same_outcome, capture, hyp_settings, json_oracle, traced_growth
except ImportError:  # tests/ turned into a package
    from .conftest import assert_same_outcome, capture, hyp_settings, json_oracle, traced_growth

# what may sit in a string: a JSON escape, UTF-8 of 2, 3 and 4 bytes, a raw control byte
# (json refuses it), a raw DEL (plain ASCII), a quote that closes the string early
ODD = [b'\\"', b"\\\\", b"\\n", b"\\u00e9", b"\\ud83d\\ude00", "\u00e9".encode(), "\u20ac".encode(),
       "\U0001f600".encode(), b"\x01", b"\x1f", b"\t", b"\x7f", b'"']
LENGTHS = list(range(0, 70)) + [95, 96, 97, 127, 128, 129, 130]
PADS = [0, 1, 30, 33, 62]


def strings_with_odd_byte(length, odd):
    """Strings of `length` ASCII letters with `odd` at each position."""
    base = bytes(97 + i % 26 for i in range(length))
    for at in range(length + 1):
        yield base[:at] + odd + base[at:]


def contexts(s, pad):
    """Documents holding the string literal s (bytes, quoted) in every context."""
    p = b" " * pad
    yield p + b"[" + s + b"]"
    yield p + b"[" + s + b", 1]"
    yield p + b"[" + s + b" ,\t" + s + b"\n]"
    yield p + b"{" + s + b": " + s + b"}"
    yield p + b"{" + s + b"  :" + s + b"  }"
    yield p + s


def check_documents(docs):
    """Each document alone through loads, and all of them as NDJSON through loads_many
    when json takes every one of them."""
    expected = []
    for d in docs:
        exp = json_oracle(d)
        assert_same_outcome(capture(jetjson.loads, d), exp, what=repr(d[:120]))
        expected.append(exp)
    if all(not hasattr(e, "exc") for e in expected):
        got = list(jetjson.loads_many(b"\n".join(docs)))
        assert got == expected


def all_cases(lengths, pads):
    for length in lengths:
        for odd in ODD:
            docs = []
            for s in strings_with_odd_byte(length, odd):
                for pad in pads:
                    docs.extend(contexts(b'"' + s + b'"', pad))
            yield length, odd, docs


@pytest.mark.parametrize("odd", ODD, ids=repr)
def test_odd_byte_at_every_position(odd):
    for length in LENGTHS:
        docs = []
        for s in strings_with_odd_byte(length, odd):
            for pad in PADS:
                docs.extend(contexts(b'"' + s + b'"', pad))
        check_documents(docs)


def test_plain_strings_of_every_length_near_the_boundaries():
    for pad in range(0, 66):
        docs = []
        for length in range(0, 140):
            s = b'"' + bytes(33 + (i * 7) % 94 for i in range(length)).replace(b'"', b"'").replace(b"\\", b"/") + b'"'
            docs.extend(contexts(s, pad))
        check_documents(docs)


def test_unclosed_and_cut_strings():
    for length in (0, 1, 31, 32, 33, 63, 64, 65, 100):
        s = b"a" * length
        for doc in (b'["' + s, b'["' + s + b"]", b'{"' + s + b'":1', b'"' + s, b'["' + s + b'\\"]'):
            assert_same_outcome(capture(jetjson.loads, doc), json_oracle(doc), what=repr(doc))


ISA_SCRIPT = r"""
import sys
sys.path[:0] = sys.argv[1:]
import test_loads_strings_fast as t
for length, odd, docs in t.all_cases([0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 96, 129], [0, 1, 33, 62]):
    t.check_documents(docs)
print("ok")
"""


def isas():
    return [isa for isa in (jetjson.features().get("available_isas") or []) if isa]


@pytest.mark.parametrize("isa", isas())
def test_every_kernel(isa):
    env = dict(os.environ, JETJSON_FORCE_ISA=isa)
    here = os.path.dirname(os.path.abspath(__file__))
    paths = [here] + [p for p in sys.path if p]
    proc = subprocess.run([sys.executable, "-c", ISA_SCRIPT] + paths, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0 and proc.stdout.strip().endswith("ok"), (proc.stdout + proc.stderr)[-3000:]


PIECES = st.sampled_from([b"a", b"Z", b"0", b" ", b"/", b"'", b"~", b"\x7f"] * 6 + ODD)
STRING = st.lists(PIECES, max_size=90).map(lambda parts: b'"' + b"".join(parts) + b'"')
SPACE = st.sampled_from([b"", b"", b" ", b"\n", b"\t ", b"\r\n  "])


@st.composite
def documents(draw):
    items = draw(st.lists(st.tuples(STRING, SPACE, SPACE, STRING), min_size=1, max_size=6))
    pad = b" " * draw(st.integers(0, 70))
    if draw(st.booleans()):
        body = b",".join(b + s1 + b":" + s2 + v for b, s1, s2, v in items)
        return pad + b"{" + body + b"}"
    return pad + b"[" + b",".join(s1 + k + s2 for k, s1, s2, _ in items) + b"]"


@hyp_settings(300)
@given(st.lists(documents(), min_size=1, max_size=8))
def test_hypothesis_documents(docs):
    check_documents(docs)


def test_loads_many_refcounts_and_memory():
    data = b"\n".join([b'["' + b"x" * n + b'", {"k": "' + b"y" * (n % 70) + b'"}]' for n in range(200)])
    before = sys.getrefcount(data)
    assert traced_growth(lambda: list(jetjson.loads_many(data)), repeat=200) < 64 * 1024
    assert sys.getrefcount(data) == before
    assert list(jetjson.loads_many(data)) == [json.loads(line) for line in data.split(b"\n")]
