"""loads(type=) of integers read straight from the lazy tape's raw text (typed_decode.c's
jt_short_int: a digit loop, and the last 8 digits of longer texts combined as one word),
against msgspec's decoder of the same type and json.loads as the oracles: every length
from 1 to 25 digits, signs, and texts that look like ints for 8 bytes and then are not
(fractions, exponents)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Union

import json

import pytest

import jetjson
from conftest import hyp_settings

msgspec = pytest.importorskip("msgspec")

try:
    from hypothesis import given, strategies as st
except ImportError:  # pragma: no cover
    given = None


@dataclass
class Row:
    id: int
    ids: List[int]
    maybe: Optional[int] = None


def outcome(decode, text):
    """('ok', value) or ('error', None): which of the two, not the wording."""
    try:
        return ("ok", decode(text))
    except (jetjson.ValidationError, msgspec.ValidationError):
        return ("error", None)


def check_same(tp, text):
    got = outcome(jetjson.Decoder(tp).decode, text)
    want = outcome(msgspec.json.Decoder(tp).decode, text)
    assert got == want, text
    if got[0] == "ok":
        assert type(got[1]) is type(want[1]), text


def number_texts():
    """Integers of every digit count up to 25, each sign, with digits that exercise every
    byte of an 8-digit word, and near-ints that are not (fraction, exponent, at each
    place after the 8th byte)."""
    out = []
    for n in range(1, 26):
        for digits in ("1234567890123456789012345"[:n], "9" * n, "1" + "0" * (n - 1), "5" * n):
            out += [digits, "-" + digits]
    for n in range(7, 20):
        base = "3" * n
        out += [base + ".0", base + "e2", base + "E+1", base[:8] + ".5" + base[8:], "-" + base + ".25"]
    return out


@pytest.mark.parametrize("text", number_texts())
@pytest.mark.parametrize("tp", [int, float, Optional[int], Union[int, float]])
def test_number_texts(text, tp):
    check_same(tp, text.encode())


@pytest.mark.parametrize("text", number_texts())
def test_in_a_dataclass(text):
    doc = ('{"id": %s, "ids": [%s, %s, 7], "maybe": %s}' % (text, text, text, text)).encode()
    check_same(Row, doc)
    if outcome(jetjson.Decoder(Row).decode, doc)[0] == "ok":
        plain = json.loads(doc)
        assert jetjson.loads(doc, type=Row) == Row(**plain)


if given is not None:

    @hyp_settings(300)
    @given(st.lists(st.integers(min_value=-(10**22), max_value=10**22) | st.integers(-(10**9), 10**9), max_size=30))
    def test_generated_int_lists(values):
        doc = json.dumps(values).encode()
        check_same(List[int], doc)
        if outcome(msgspec.json.Decoder(List[int]).decode, doc)[0] == "ok":
            assert jetjson.loads(doc, type=List[int]) == json.loads(doc)
        check_same(List[float], doc)

    @hyp_settings(200)
    @given(st.integers(min_value=10**7, max_value=10**18 - 1), st.sampled_from([".5", "e3", "E-2", ".0e1"]))
    def test_generated_near_ints(value, suffix):
        # a cut at each byte of the last 8 digits, the rest after the suffix
        text = str(value)
        for cut in range(1, len(text)):
            check_same(int, (text[:cut] + suffix).encode())
            check_same(float, (text[:cut] + suffix + text[cut:]).encode()
                       if "e" not in suffix.lower() else (text + suffix).encode())
