"""Random inputs: random bytes, random token soup, and valid documents with one character
inserted, deleted or replaced. jetjson must have exactly json's outcome (and never crash)."""

import json

from hypothesis import given
from hypothesis import strategies as st

import jetjson

try:
    from conftest import assert_same_outcome, capture, hyp_settings, json_oracle
except ImportError:  # tests/ turned into a package
    from .conftest import assert_same_outcome, capture, hyp_settings, json_oracle


def check(data, what=""):
    assert_same_outcome(capture(jetjson.loads, data), json_oracle(data), what, jetjson)


@hyp_settings(1000)
@given(raw=st.binary(max_size=80))
def test_random_bytes(raw):
    check(raw, "random bytes")
    check(bytearray(raw), "random bytearray")


TOKENS_B = [b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b" ", b"\n", b"\t", b"\r", b"0",
            b"1", b"-", b"+", b".", b"e", b"E", b"9" * 20, b"true", b"false", b"null", b"NaN",
            b"Infinity", b"-Infinity", b'"a"', b'"key":', b"\\u", b"\\ud800", b"\\udc00",
            b"00e9", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xed\xa0\x80", b"\xff",
            b"\x80", b"\xc3", b"\x00", b"\x1f", b"\xef\xbb\xbf", b"/", b"'", b"x" * 17]


@hyp_settings(1000)
@given(parts=st.lists(st.sampled_from(TOKENS_B), max_size=40))
def test_random_token_soup(parts):
    raw = b"".join(parts)
    check(raw, "token soup bytes")
    try:
        text = raw.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return
    check(text, "token soup str")


leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                 st.text(st.sampled_from('ab"\\\n\u00e9\u20ac\U0001f600\ud800/'), max_size=8))
docs = st.recursive(leaf, lambda c: st.one_of(
    st.lists(c, max_size=5), st.dictionaries(st.text(max_size=4), c, max_size=5)),
    max_leaves=20)

MUTATION_CHARS = ('"\\{}[],: \t\n\r0123456789-+.eEtfnNIx\x00\x01\x1f\x7f\u00e9\u20ac'
                  "\U0001f600\ud800\udc00\ufeff'/")


@hyp_settings(1500)
@given(doc=docs, ensure_ascii=st.booleans(), indent=st.sampled_from([None, 1]),
       op=st.sampled_from(["insert", "delete", "replace"]),
       where=st.floats(min_value=0, max_value=1, allow_nan=False),
       char=st.sampled_from(MUTATION_CHARS))
def test_mutated_documents(doc, ensure_ascii, indent, op, where, char):
    text = json.dumps(doc, ensure_ascii=ensure_ascii, indent=indent)
    i = min(int(where * len(text)), len(text) - (0 if op == "insert" else 1))
    if op == "insert":
        text = text[:i] + char + text[i:]
    elif op == "delete":
        text = text[:i] + text[i + 1:]
    else:
        text = text[:i] + char + text[i + 1:]
    check(text, f"{op} {char!r} at {i}")
    check(text.encode("utf-8", "surrogatepass"), f"{op} {char!r} at {i} (bytes)")


@hyp_settings(500)
@given(doc=docs, cut=st.floats(min_value=0, max_value=1, allow_nan=False),
       as_bytes=st.booleans())
def test_truncated_documents(doc, cut, as_bytes):
    text = json.dumps(doc, ensure_ascii=False)
    text = text[:int(cut * len(text))]
    check(text.encode("utf-8", "surrogatepass") if as_bytes else text, "truncated")


@hyp_settings(500)
@given(doc=docs, where=st.floats(min_value=0, max_value=1, allow_nan=False),
       bad=st.sampled_from([b"\xff", b"\x80", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98",
                            b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80"]))
def test_documents_with_bad_utf8_inserted(doc, where, bad):
    raw = json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")
    i = int(where * len(raw))
    check(raw[:i] + bad + raw[i:], "bad utf-8 inserted")
