"""loads(type=) of strings read straight from the lazy tape's raw text (typed_decode.c's
jt_raw_ascii_str: an unescaped ASCII string longer than the cached values is made from
the input without finishing its tape entry), against json.loads and msgspec's decoder
of the same type as the oracles: lengths around the 8-byte steps and the cache bound,
non-ASCII bytes at every place, escapes, and generated text."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Dict, List, Optional

import pytest

import jetjson
from conftest import hyp_settings, traced_growth

msgspec = pytest.importorskip("msgspec")

try:
    from hypothesis import given, strategies as st
except ImportError:  # pragma: no cover
    given = None


@dataclass
class Item:
    name: str
    note: Optional[str]
    tags: List[str]
    by_key: Dict[str, str]


def docs_of(value):
    """The JSON texts of value: json.dumps's ASCII escapes and raw UTF-8."""
    return [json.dumps(value).encode(), json.dumps(value, ensure_ascii=False).encode()]


def check(tp, doc):
    got = jetjson.Decoder(tp).decode(doc)
    assert got == msgspec.json.Decoder(tp).decode(doc)
    return got


def sample_strings():
    out = []
    for n in list(range(0, 20)) + [23, 24, 25, 31, 32, 33, 64, 100]:
        base = "abcdefghijklmnopqrstuvwxyz0123456789" * 3
        s = base[:n]
        out.append(s)
        for at in {0, n // 2, n - 1} if n else set():
            out += [s[:at] + "\u00e9" + s[at + 1:], s[:at] + "\u20ac" + s[at + 1:],
                    s[:at] + "\U0001f600" + s[at + 1:], s[:at] + "\\" + s[at + 1:],
                    s[:at] + '"' + s[at + 1:], s[:at] + "\n" + s[at + 1:], s[:at] + "\x7f" + s[at + 1:]]
    return out


@pytest.mark.parametrize("text", sample_strings())
def test_strings(text):
    for doc in docs_of(text):
        got = check(str, doc)
        assert got == json.loads(doc) and type(got) is str
        assert got.isascii() == text.isascii()
        assert check(Optional[str], doc) == text


@pytest.mark.parametrize("text", sample_strings())
def test_strings_in_records(text):
    value = {"name": text, "note": text, "tags": [text, "x" + text], "by_key": {text: text + "y"}}
    for doc in docs_of(value):
        got = check(Item, doc)
        assert got == Item(**json.loads(doc))


def test_no_leak_and_refcounts():
    doc = json.dumps({"name": "a long ascii name", "note": None, "tags": ["tag number one"] * 3,
                      "by_key": {"k": "a value past eight"}}).encode()
    dec = jetjson.Decoder(Item)
    before = __import__("sys").getrefcount(doc)
    assert traced_growth(lambda: dec.decode(doc)) < 10_000
    assert __import__("sys").getrefcount(doc) == before


if given is not None:

    @hyp_settings(300)
    @given(st.lists(st.text(max_size=40) | st.text(st.characters(max_codepoint=127), min_size=5, max_size=70)))
    def test_generated(values):
        for doc in docs_of(values):
            got = check(List[str], doc)
            assert got == values
            assert [s.isascii() for s in got] == [s.isascii() for s in values]
