"""Decoder.raw_decode against json.JSONDecoder.raw_decode: values, ends, and errors with
their positions, on hand cases, the corpus and generated buffers of documents."""

import json
import os
import sys

import pytest
from hypothesis import given, strategies as st

import jetjson

try:
    from conftest import assert_same_value, corpus_files, hyp_settings, read_bytes, traced_growth
except ImportError:  # tests/ turned into a package
    from .conftest import assert_same_value, corpus_files, hyp_settings, read_bytes, traced_growth

ORACLE = json.JSONDecoder()


def outcome(fn, s, idx):
    try:
        return ("value",) + tuple(fn(s, idx))
    except json.JSONDecodeError as e:
        return ("error", e.msg, e.pos, e.lineno, e.colno)
    except (ValueError, RecursionError) as e:
        return ("error", type(e).__name__)


def check(s, idx=0):
    exp = outcome(ORACLE.raw_decode, s, idx)
    got = outcome(jetjson.Decoder().raw_decode, s, idx)
    what = f"{s[:60]!r} idx={idx}"
    assert got[0] == exp[0], f"{what}: {got} != {exp}"
    if exp[0] == "value":
        assert got[2] == exp[2], f"{what}: end {got[2]} != {exp[2]}"
        assert_same_value(got[1], exp[1], what)
    else:
        assert got == exp, what


@pytest.mark.parametrize("s,idx", [
    ("[1] 2", 0), ("x [1] 2", 2), (" 1", 0), ("1", 5), ("1", 1), ('é"ü" 5', 1), ('{"a": NaN} x', 0),
    ("[1, 2", 0), ("truefalse", 0), ("1 2 3", 2), ("", 0), ("[1]\n\n[2", 4), ("[1]\n\n[2", 5),
    ('"\\ud800" 1', 0), ("12x", 0), ("-Infinity]", 0), ("1" * 5000, 0), ('{"a": [1, {"b": null}]}{}', 0),
    ("\U0001f600 [\"\U0001f600\"] ", 2), ("[" * 5 + "]" * 5 + "]", 0), ("nul", 0), ("[1,]", 0),
])
def test_cases(s, idx):
    check(s, idx)


@pytest.mark.parametrize("path", corpus_files()[:8], ids=os.path.basename)
def test_corpus(path):
    text = read_bytes(path).decode("utf-8")
    check(text)
    check(text + "\n" + text[:100])
    check("  " + text, 2)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=15)


@hyp_settings(300)
@given(st.lists(json_values, min_size=1, max_size=5), st.lists(st.sampled_from([" ", "\n", "\t "]), min_size=5,
       max_size=5), st.data())
def test_generated_buffers(values, gaps, data):
    s = "".join(gap + json.dumps(v, ensure_ascii=False) for v, gap in zip(values, gaps))
    idx = data.draw(st.integers(0, len(s) + 2))
    check(s, idx)
    # reading every document in turn, as a user of raw_decode does
    dec, idx, got = jetjson.Decoder(), 0, []
    while True:
        while idx < len(s) and s[idx] in " \t\n\r":
            idx += 1
        if idx == len(s):
            break
        value, idx = dec.raw_decode(s, idx)
        got.append(value)
    assert_same_value(got, values)
    # broken somewhere: the same error as json's
    if len(s) > 1:
        at = data.draw(st.integers(0, len(s) - 1))
        check(s[:at] + data.draw(st.sampled_from(["x", "]", ",", '"', "{"])) + s[at + 1:], 0)


def test_error_first_in_a_fresh_process():
    # the first error of a process comes from raw_decode (jetjson.JSONDecodeError is
    # made when first needed), for a str that is not ASCII
    import subprocess
    code = ("import jetjson\n"
            "try:\n"
            "    jetjson.Decoder().raw_decode('[\"\\u00e9\"]\\n [1]', 4)\n"
            "except jetjson.JSONDecodeError as e:\n"
            "    print(e.msg, e.pos)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "Expecting value 4"


def test_bytes_and_types():
    dec = jetjson.Decoder()
    assert dec.raw_decode(b'[1] [2]', 4) == ([2], 7)
    assert dec.raw_decode(bytearray(b'"\xc3\xa9" 1')) == ("é", 4)  # bytes count in UTF-8 input
    assert dec.raw_decode(memoryview(b"7 8"), 2) == (8, 3)
    with pytest.raises(TypeError):
        dec.raw_decode(12)
    with pytest.raises(ValueError):
        dec.raw_decode("1", -1)
    typed = jetjson.Decoder(list[int])
    assert typed.raw_decode("[1, 2] [3]") == ([1, 2], 6)
    with pytest.raises(jetjson.ValidationError):
        typed.raw_decode('["x"] 1')


def test_many_documents_linear():
    # one call per document over a long buffer: each call walks only its document
    import time
    s = " ".join(json.dumps({"i": i, "s": "x" * 30}) for i in range(20000))

    def read_all():
        dec, idx, n = jetjson.Decoder(), 0, 0
        while idx < len(s):
            _, idx = dec.raw_decode(s, idx)
            idx += 1
            n += 1
        return n

    def best(fn, k=3):
        times = []
        for _ in range(k):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        return min(times)

    assert read_all() == 20000
    whole = best(lambda: list(jetjson.loads_many(s)))
    # quadratic would be thousands of times the whole read; allow a wide margin for noise
    assert best(read_all) < 200 * whole + 0.5


def test_no_leaks():
    s = '{"a": [1, 2]} [3]'
    dec = jetjson.Decoder()
    before = sys.getrefcount(s)
    assert traced_growth(lambda: dec.raw_decode(s, 0)) < 16 * 1024

    def bad():
        try:
            dec.raw_decode("[1, x", 0)
        except ValueError:
            pass
    assert traced_growth(bad) < 16 * 1024
    assert sys.getrefcount(s) == before
