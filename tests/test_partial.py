"""loads(data, partial=...): the value a truncated document holds so far. The oracle is
jiter's partial_mode on every prefix of valid documents; where jiter forgives text that
is wrong rather than short ("[1 2", "[1]]"), jetjson raises json's error for it, and
json.loads is the oracle of those errors."""

import json
import os
import sys

import pytest

import jetjson

try:
    from conftest import assert_same_value, corpus_files, hyp_settings, read_bytes, traced_growth
except ImportError:  # tests/ turned into a package
    from .conftest import assert_same_value, corpus_files, hyp_settings, read_bytes, traced_growth

from hypothesis import given, strategies as st

jiter = pytest.importorskip("jiter")

MODES = [True, "trailing-strings"]


def outcome(fn, *args, **kw):
    try:
        return ("value", fn(*args, **kw))
    except ValueError as e:
        return ("error", type(e))


def check_prefix(prefix, mode):
    exp = outcome(jiter.from_json, prefix, partial_mode=mode)
    got = outcome(jetjson.loads, prefix, partial=mode)
    what = f"{prefix[-60:]!r} partial={mode!r}"
    if exp[0] == "error":
        assert got[0] == "error", f"{what}: got {got[1]!r}, jiter raises"
        # json's own error for the text: a UnicodeDecodeError where it ends inside a
        # UTF-8 character and nothing before it is complete
        assert issubclass(got[1], (json.JSONDecodeError, UnicodeDecodeError)), what
    else:
        assert got[0] == "value", f"{what}: raised, jiter gives {exp[1]!r}"
        assert_same_value(got[1], exp[1], what)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("text", [
    b'{"a": 1, "b": "hel', b"[1, 2", b"[1, 2.", b"[1, -", b"[1, 1e", b"[1, 1e+", b'{"a"', b'{"a":',
    b'{"a": ', b"[tr", b"[true", b'"ab\\', b'"ab\\u12', b'["x", {"k": [1, {"z": nu', b"", b"   ",
    b"12", b"-", b"[1,", b'{"a":1,', b'{"a":1,"b', b'["\\ud83d', b'["\\ud83d\\ude', b'["\\ud83d\\ude00',
    b"[1.5e3", b"[", b"{", b"[[[", b'{"a": {"b": [', b'["\xc3', b'["\xe2\x82', b'["ab\xe2\x82\xac',
    b"[-Infinity, NaN, Inf", b'[{"a": "\\n\\t\\"', b"[0, 0.5, -0", b"[null, fals", b' [ 1 , 2 ',
    b'"\xc2', b'"\xe2\x82',
])
def test_cases(text, mode):
    check_prefix(text, mode)


def prefixes(data, count):
    step = max(1, len(data) // count)
    return [data[:n] for n in range(0, len(data) + 1, step)] + [data]


SMALL_CORPUS = [p for p in corpus_files() if os.path.getsize(p) < 800_000]


@pytest.mark.parametrize("path", SMALL_CORPUS, ids=os.path.basename)
def test_corpus_prefixes(path):
    data = read_bytes(path)
    for prefix in prefixes(data, 25):
        for mode in MODES:
            check_prefix(prefix, mode)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
    max_leaves=25)


@hyp_settings(300)
@given(json_values, st.sampled_from([None, 0, 2]), st.booleans(), st.data())
def test_generated_prefixes(value, indent, ascii_only, data):
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only).encode()
    cut = data.draw(st.integers(0, len(text)))
    for mode in MODES:
        check_prefix(text[:cut], mode)
    # a str input cut at the same place reads the same
    s = text.decode("utf-8", "ignore")[:cut]
    for mode in MODES:
        assert outcome(jetjson.loads, s, partial=mode) == outcome(jetjson.loads, s.encode(), partial=mode)


@pytest.mark.parametrize("text", [
    b"[1 2", b"[1]]", b'{"a" 1', b"[1,,", b"x", b"[01", b"[1, 2 x", b'{"a": 1}}', b"[1, tx", b"1 2",
    b'{"a": 1, ]', b"[1,]", b'{"a": 1,}', b"[\x01", b'["a\x01', b'["\\x', b"[1.x",
])
@pytest.mark.parametrize("mode", MODES)
def test_wrong_text_is_json_error(text, mode):
    # wrong, not short: json's exception, the same as without partial=
    with pytest.raises(json.JSONDecodeError) as exp:
        json.loads(text)
    with pytest.raises(jetjson.JSONDecodeError) as got:
        jetjson.loads(text, partial=mode)
    assert (got.value.msg, got.value.pos) == (exp.value.msg, exp.value.pos)


@pytest.mark.parametrize("path", corpus_files()[:6], ids=os.path.basename)
def test_whole_documents_unchanged(path):
    data = read_bytes(path)
    for mode in MODES + [False, None, "off", "on"]:
        assert_same_value(jetjson.loads(data, partial=mode), json.loads(data))


def test_modes_and_arguments():
    assert jetjson.loads(b'["ab', partial="on") == []
    assert jetjson.loads(b'["ab', partial="trailing-strings") == ["ab"]
    with pytest.raises(jetjson.JSONDecodeError):
        jetjson.loads(b'["ab', partial="off")
    with pytest.raises(ValueError, match="partial must be"):
        jetjson.loads(b"[1", partial="yes")
    with pytest.raises(TypeError):
        jetjson.loads(b"[1", partial=True, type=list)
    with pytest.raises(TypeError):
        jetjson.loads(b"[1", partial=True, object_hook=dict)
    with pytest.raises(TypeError):
        jetjson.loads(12, partial=True)
    # UTF-16 input is decoded first, as loads does
    assert jetjson.loads('[1, "x'.encode("utf-16"), partial="trailing-strings") == [1, "x"]
    assert jetjson.loads(bytearray(b"[1, 2"), partial=True) == [1, 2]
    assert jetjson.loads(memoryview(b"[1, 2"), partial=True) == [1, 2]


def test_deep_nesting_is_bounded():
    # the completion closes every open bracket; loads' nesting limit still applies
    with pytest.raises(RecursionError):
        jetjson.loads(b"[" * 100000, partial=True)
    assert jetjson.loads(b"[" * 50 + b"1", partial=True) == json.loads(b"[" * 50 + b"1" + b"]" * 50)


def test_no_leaks():
    data = b'{"a": [1, 2, {"b": "xyz'
    value = jetjson.loads(data, partial="trailing-strings")
    before = sys.getrefcount(data)
    growth = traced_growth(lambda: jetjson.loads(data, partial="trailing-strings"))
    assert growth < 16 * 1024
    assert sys.getrefcount(data) == before
    assert value == {"a": [1, 2, {"b": "xyz"}]}

    def bad():
        try:
            jetjson.loads(b"[1 2", partial=True)
        except ValueError:
            pass
    assert traced_growth(bad) < 16 * 1024
