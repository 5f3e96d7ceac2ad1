"""jetjson.set_path / delete_path: json.loads of the result must equal the same edit
done on json.loads of the input (paths_oracle.ref_set / ref_delete), the result must be
valid JSON, and only the edited byte range may differ from the input."""

import json
import random
import sys

import pytest

import jetjson

try:
    from conftest import (Raised, assert_same_outcome, assert_same_value, capture, data_params,
                          hyp_settings, input_forms, json_oracle, read_bytes, traced_growth)
except ImportError:  # tests/ turned into a package
    from .conftest import (Raised, assert_same_outcome, assert_same_value, capture, data_params,
                           hyp_settings, input_forms, json_oracle, read_bytes, traced_growth)
import paths_oracle as po

from hypothesis import given
from hypothesis import strategies as st

CORPUS = data_params("corpus")
Y_FILES = data_params("JSONTestSuite/test_parsing", prefixes=["y_"])
REPLACEMENTS = ['0', '"x/~\\u00e9"', ' [1, {"k": null}] ', '{}', '[]', '-1.5e300', '"é😀"',
                'true', '{"a": {"b": [false]}}']


def has_duplicates(text):
    dup = []

    def hook(pairs):
        if len({k for k, _ in pairs}) != len(pairs):
            dup.append(1)
        return dict(pairs)
    json.loads(text, object_pairs_hook=hook)
    return bool(dup)


def _common(a, b, n):
    """Length of the common prefix of a[:n] and b[:n] (binary search on slice equality,
    so big documents stay fast)."""
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def changed_region(before, after):
    """(prefix, suffix): lengths of the longest common prefix and suffix that do not
    overlap in either."""
    n = min(len(before), len(after))
    i = _common(before, after, n)
    j = _common(before[::-1], after[::-1], n - i)
    return i, j


def check_set(data, ptr, value_json):
    """set_path against the oracle; returns the result (or the Raised)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    doc = json.loads(raw)
    new = json.loads(value_json)
    try:
        exp = po.ref_set(doc, ptr, new)  # doc is this call's own copy
    except (KeyError, IndexError, TypeError) as e:
        exp = Raised(e)
    got = capture(jetjson.set_path, data, ptr, value_json)
    if isinstance(exp, Raised):
        assert isinstance(got, Raised) and type(got.exc) is type(exp.exc), f"{ptr!r}: {got!r} vs {exp!r}"
        return got
    assert not isinstance(got, Raised), f"{ptr!r}: {got!r}"
    assert type(got) is bytes
    assert_same_value(json.loads(got), exp, f"set {ptr}")
    # the rest of the document is copied as is: one changed region, no larger than the
    # new text plus what a new member adds (comma, key literal, colon)
    pre, suf = changed_region(raw, got)
    stripped = value_json.strip(" \t\r\n") if isinstance(value_json, str) else value_json.strip()
    vlen = len(stripped.encode("utf-8", "surrogatepass") if isinstance(stripped, str) else stripped)
    key = po.tokens_of(ptr)[-1] if ptr else ""
    slack = 2 + len(json.dumps(key, ensure_ascii=False).encode("utf-8", "surrogatepass")) + 6 * len(key)
    assert len(got) - pre - suf <= vlen + slack, f"{ptr!r}: more than the value changed"
    return got


def check_delete(data, ptr):
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    doc = json.loads(raw)
    try:
        exp = po.ref_delete(doc, ptr)
    except (KeyError, IndexError, TypeError, ValueError) as e:
        exp = Raised(e)
    got = capture(jetjson.delete_path, data, ptr)
    if isinstance(exp, Raised):
        assert isinstance(got, Raised) and type(got.exc) is type(exp.exc), f"{ptr!r}: {got!r} vs {exp!r}"
        return got
    assert not isinstance(got, Raised), f"{ptr!r}: {got!r}"
    assert type(got) is bytes and len(got) < len(raw)
    assert_same_value(json.loads(got), exp, f"delete {ptr}")
    # only bytes were removed, in one place
    pre, suf = changed_region(raw, got)
    assert pre + suf == len(got), f"{ptr!r}: delete changed more than one range"
    return got


def sample_pointers(doc, rng, n):
    ptrs = po.all_pointers(doc)
    return ptrs if len(ptrs) <= n else ptrs[:n // 4] + rng.sample(ptrs[n // 4:], n - n // 4)


# ---- corpus ----

@pytest.mark.parametrize("path", CORPUS)
def test_corpus_edits(path):
    data = read_bytes(path)
    if has_duplicates(data):
        pytest.skip("repeated keys: json.loads keeps the last, the edit the first")
    doc = json.loads(data)
    rng = random.Random(path)
    n = 4 if len(data) > 1_000_000 else 12 if len(data) > 200_000 else 40  # each check loads the result
    for p in sample_pointers(doc, rng, n):
        check_set(data, p, rng.choice(REPLACEMENTS))
        if p:
            check_delete(data, p)
        v = po.ref_get(doc, p)
        if isinstance(v, dict):
            check_set(data, p + "/" + po.escape(rng.choice(["new", "a/b~", "é", "", "\n"])), "7")
        elif isinstance(v, list):
            check_set(data, p + "/-", "[8]")
            check_set(data, p + "/" + str(len(v)), "9")
            check_set(data, p + "/" + str(len(v) + 1), "9")  # IndexError
        else:
            check_set(data, p + "/x", "1")  # TypeError


@pytest.mark.parametrize("path", Y_FILES)
def test_suite_y_edits(path):
    data = read_bytes(path)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return  # UTF-16 files: covered by test_encodings
    if has_duplicates(data):
        return
    doc = json.loads(data)
    for p in po.all_pointers(doc, limit=30):
        check_set(data, p, '{"z": 1}')
        if p:
            check_delete(data, p)


# ---- hypothesis ----

@hyp_settings(300)
@given(st.data())
def test_hypothesis_set_existing_or_new(data):
    doc = data.draw(po.VALUES)
    text = data.draw(po.json_texts(doc))
    tokens = data.draw(po.paths_in(json.loads(text)))
    if data.draw(st.booleans()):
        tokens.append(data.draw(st.one_of(po.KEYS, st.sampled_from(["-", "0", "1", "2", "5"]))))
    value = data.draw(po.VALUES)
    value_json = data.draw(po.json_texts(value))
    form = data.draw(st.sampled_from(["str", "bytes"]))
    check_set(text if form == "str" else text.encode("utf-8"), po.pointer(tokens),
              value_json if data.draw(st.booleans()) else value_json.encode("utf-8"))


@hyp_settings(300)
@given(st.data())
def test_hypothesis_delete(data):
    doc = data.draw(po.VALUES)
    text = data.draw(po.json_texts(doc))
    tokens = data.draw(po.paths_in(json.loads(text)))
    if data.draw(st.integers(0, 4)) == 0:
        tokens.append(data.draw(po.KEYS))
    check_delete(text, po.pointer(tokens))


@hyp_settings(100)
@given(st.data())
def test_hypothesis_edit_chains(data):
    """Several edits in a row, each on the previous result."""
    doc = data.draw(po.VALUES)
    text = data.draw(po.json_texts(doc)).encode("utf-8")
    for _ in range(data.draw(st.integers(1, 5))):
        tokens = data.draw(po.paths_in(json.loads(text)))
        if tokens and data.draw(st.booleans()):
            text = check_delete(text, po.pointer(tokens))
        else:
            text = check_set(text, po.pointer(tokens), json.dumps(data.draw(po.VALUES)))
        if isinstance(text, Raised):
            return


# ---- specific behaviour ----

PRETTY = '{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ],\n  "c": {}\n}\n'


@pytest.mark.parametrize("op,ptr,value,expected", [
    ("set", "/a", "5", '{\n  "a": 5,\n  "b": [\n    1,\n    2\n  ],\n  "c": {}\n}\n'),
    ("set", "/b/-", " 3 ", '{\n  "a": 1,\n  "b": [\n    1,\n    2,3\n  ],\n  "c": {}\n}\n'),
    ("set", "/c/k", "[]", '{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ],\n  "c": {"k":[]}\n}\n'),
    ("set", "/d", "null", '{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ],\n  "c": {},"d":null\n}\n'),
    ("set", "", "7", "7\n"),
    ("delete", "/a", None, '{\n  "b": [\n    1,\n    2\n  ],\n  "c": {}\n}\n'),
    ("delete", "/c", None, '{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ]\n}\n'),
    ("delete", "/b/0", None, '{\n  "a": 1,\n  "b": [\n    2\n  ],\n  "c": {}\n}\n'),
    ("delete", "/b/1", None, '{\n  "a": 1,\n  "b": [\n    1\n  ],\n  "c": {}\n}\n'),
])
def test_layout_kept(op, ptr, value, expected):
    """Whitespace and members around the edit are kept byte for byte (the oracle checks
    the values; these pin the documented placement of new members and commas)."""
    got = jetjson.set_path(PRETTY, ptr, value) if op == "set" else jetjson.delete_path(PRETTY, ptr)
    assert got == expected.encode()
    exp = po.ref_set(json.loads(PRETTY), ptr, json.loads(value)) if op == "set" \
        else po.ref_delete(json.loads(PRETTY), ptr)
    assert_same_value(json.loads(got), exp)


@pytest.mark.parametrize("ptr,exc", [
    ("/x/y", KeyError), ("/b/5", IndexError), ("/b/3", IndexError), ("/b/-/0", IndexError),
    ("/b/01", IndexError), ("/a/x", TypeError), ("/a/0", TypeError), ("x", ValueError),
    ("/~3", ValueError),
])
def test_set_errors(ptr, exc):
    with pytest.raises(exc) as info:
        jetjson.set_path(PRETTY, ptr, "1")
    assert repr(ptr) in info.value.args[0]


@pytest.mark.parametrize("ptr,exc", [
    ("", ValueError), ("/x", KeyError), ("/x/y", KeyError), ("/b/2", IndexError),
    ("/b/-", IndexError), ("/b/x", IndexError), ("/a/0", TypeError), ("/~", ValueError),
])
def test_delete_errors(ptr, exc):
    with pytest.raises(exc):
        jetjson.delete_path(PRETTY, ptr)


@pytest.mark.parametrize("bad", ["", "[1,", "{'a': 1}", "1 2", b"\xff", "[1,]", "nul", "\x00", "\ufeff1"])
def test_invalid_replacement_raises_like_loads(bad):
    exp = json_oracle(bad)
    assert isinstance(exp, Raised)
    assert_same_outcome(capture(jetjson.set_path, PRETTY, "/a", bad), exp, repr(bad), jetjson)


@pytest.mark.parametrize("bad", ["", "[1,", '{"a" 1}', b"\xff", "[1] [2]"])
def test_invalid_document_raises_like_loads(bad):
    exp = json_oracle(bad)
    assert_same_outcome(capture(jetjson.set_path, bad, "/0", "1"), exp, repr(bad), jetjson)
    assert_same_outcome(capture(jetjson.delete_path, bad, "/0"), exp, repr(bad), jetjson)


def test_argument_types():
    assert_same_outcome(capture(jetjson.set_path, 5, "", "1"), json_oracle(5), "int doc", jetjson)
    assert_same_outcome(capture(jetjson.set_path, PRETTY, "", 5), json_oracle(5), "int value", jetjson)
    with pytest.raises(TypeError):
        jetjson.set_path(PRETTY, b"/a", "1")
    with pytest.raises(TypeError):
        jetjson.set_path(PRETTY, "/a")
    with pytest.raises(TypeError):
        jetjson.delete_path(PRETTY)


def test_input_forms_and_input_untouched():
    raw = PRETTY.encode()
    for label, data in input_forms(raw):
        before = bytes(data) if not isinstance(data, str) else data
        assert jetjson.set_path(data, "/b/0", bytearray(b"[0]")) == raw.replace(b"    1,", b"    [0],"), label
        assert jetjson.set_path(data, "/b/0", memoryview(b"[0]")) == raw.replace(b"    1,", b"    [0],"), label
        assert jetjson.delete_path(data, "/c") == raw.replace(b',\n  "c": {}', b""), label
        assert (bytes(data) if not isinstance(data, str) else data) == before, label


def test_encodings():
    doc = {"k": ["é", 1, {"€": 2}]}
    text = json.dumps(doc, ensure_ascii=False)
    for enc in ("utf-16", "utf-16-be", "utf-32-le", "utf-8-sig"):
        got = jetjson.set_path(text.encode(enc), "/k/2/€", '"v"'.encode(enc))
        assert json.loads(got) == {"k": ["é", 1, {"€": "v"}]}
        assert json.loads(jetjson.delete_path(text.encode(enc), "/k/0")) == {"k": [1, {"€": 2}]}


def test_new_keys_escaped():
    for key in ['"', "\\", "\n", "\x00", "a/b", "~", "é😀", "\u2028", "\ud800"]:
        got = jetjson.set_path("{}", "/" + po.escape(key), "1")
        assert json.loads(got) == {key: 1}
        assert jetjson.get(got, "/" + po.escape(key)) == 1


def test_duplicates_edit_the_first():
    text = '{"d": 1, "d": 2}'
    assert jetjson.set_path(text, "/d", "3") == b'{"d": 3, "d": 2}'
    assert jetjson.delete_path(text, "/d") == b'{"d": 2}'


def test_deep_document():
    depth = 50_000
    text = "[" * depth + "1" + "]" * depth
    ptr = "/0" * depth
    assert jetjson.set_path(text, ptr, "2") == ("[" * depth + "2" + "]" * depth).encode()
    assert jetjson.delete_path(text, ptr) == ("[" * depth + "]" * depth).encode()


# ---- references and leaks ----

def test_refcounts():
    data, value, ptr = PRETTY.encode(), b"[1]", "/b/0"
    before = [sys.getrefcount(x) for x in (data, value, ptr)]
    for _ in range(100):
        jetjson.set_path(data, ptr, value)
        jetjson.delete_path(data, ptr)
        capture(jetjson.set_path, data, "/zz/y", value)
        capture(jetjson.set_path, data, ptr, b"[")
        capture(jetjson.delete_path, b"[", ptr)
    assert [sys.getrefcount(x) for x in (data, value, ptr)] == before


@pytest.mark.parametrize("case", ["set", "add", "delete", "missing", "bad_value", "bad_doc"])
def test_no_leaks(case):
    data = PRETTY.encode()
    calls = {
        "set": lambda: jetjson.set_path(data, "/b/1", "[true]"),
        "add": lambda: jetjson.set_path(data, "/c/\u00e9~1", '"x"'),
        "delete": lambda: jetjson.delete_path(data, "/b"),
        "missing": lambda: capture(jetjson.delete_path, data, "/q/r"),
        "bad_value": lambda: capture(jetjson.set_path, data, "/a", "[1,"),
        "bad_doc": lambda: capture(jetjson.set_path, b"{", "/a", "1"),
    }
    grown = traced_growth(calls[case], 3000)
    assert grown < 30_000, f"{case}: {grown} bytes kept after 3000 calls"
