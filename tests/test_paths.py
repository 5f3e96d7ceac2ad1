"""jetjson.get / get_many: the value at a JSON Pointer must be exactly what json.loads
gives for the document followed by plain RFC 6901 navigation (paths_oracle.py), on the
corpus, JSONTestSuite and hypothesis documents; errors of the kinds documented; invalid
documents raise what json.loads raises."""

import gc
import json
import random
import sys

import pytest

import jetjson

try:
    from conftest import (Raised, assert_same_outcome, assert_same_value, capture,
                          data_params, hyp_settings, input_forms, json_oracle, read_bytes,
                          traced_growth)
except ImportError:  # tests/ turned into a package
    from .conftest import (Raised, assert_same_outcome, assert_same_value, capture,
                           data_params, hyp_settings, input_forms, json_oracle, read_bytes,
                          traced_growth)
import paths_oracle as po

from hypothesis import given
from hypothesis import strategies as st

CORPUS = data_params("corpus")
Y_FILES = data_params("JSONTestSuite/test_parsing", prefixes=["y_"])
N_FILES = data_params("JSONTestSuite/test_parsing", prefixes=["n_"])
I_FILES = data_params("JSONTestSuite/test_parsing", prefixes=["i_"])
MISSING = object()


def ref_outcome(doc, ptr, default=MISSING):
    """The oracle's value, or Raised with the exception type the lookup must raise."""
    try:
        return po.ref_get(doc, ptr)
    except (KeyError, IndexError, TypeError) as e:
        if default is not MISSING:
            return default
        return Raised(e)


def check(data, doc, ptr, **kw):
    """get(data, ptr) against the oracle: same value, or an exception of the same type
    whose message names the pointer."""
    exp = ref_outcome(doc, ptr, kw.get("default", MISSING))
    got = capture(jetjson.get, data, ptr, **kw)
    if isinstance(exp, Raised):
        assert isinstance(got, Raised), f"{ptr!r}: expected {type(exp.exc).__name__}, got {got!r:.200}"
        assert type(got.exc) is type(exp.exc), f"{ptr!r}: {got!r} vs {exp!r}"
        assert repr(ptr) in got.exc.args[0]
    else:
        assert not isinstance(got, Raised), f"{ptr!r}: {got!r}"
        assert_same_value(got, exp, ptr)


def missing_variants(doc, ptrs, rng):
    """Pointers next to existing ones that must fail (or not) in every way."""
    out = []
    for p in rng.sample(ptrs, min(len(ptrs), 60)):
        out += [p + "/nope", p + "/0", p + "/-", p + "/01", p + "/99999999999999999999999",
                p + "/", p + "/~0~1"]
        v = po.ref_get(doc, p)
        if isinstance(v, list):
            out.append(p + "/" + str(len(v)))
    return out


# ---- corpus ----

@pytest.mark.parametrize("path", CORPUS)
def test_corpus_every_value(path):
    data = read_bytes(path)
    doc = po.load_first_wins(data)
    rng = random.Random(path)
    ptrs = po.all_pointers(doc)
    if len(ptrs) > 1500:
        ptrs = ptrs[:300] + rng.sample(ptrs[300:], 1200)
    ptrs.append(po.deepest_pointer(doc))
    # each get parses the whole file: fewer single lookups in the big ones
    singles = max(20, min(len(ptrs), 100_000_000 // (len(data) * 20 + 1)))
    for p in [ptrs[-1]] + rng.sample(ptrs, min(singles, len(ptrs))):
        assert_same_value(jetjson.get(data, p), po.ref_get(doc, p), p)
    # one parse for all of them
    got = jetjson.get_many(data, ptrs)
    assert len(got) == len(ptrs)
    for p, g in zip(ptrs, got):
        assert_same_value(g, po.ref_get(doc, p), p)
    missing = missing_variants(doc, ptrs, rng)
    for p in rng.sample(missing, min(len(missing), singles)):
        check(data, doc, p)
        check(data, doc, p, default=None)
    many = jetjson.get_many(data, missing, default=MISSING)
    for p, g in zip(missing, many):
        exp = ref_outcome(doc, p)
        if isinstance(exp, Raised):
            assert g is MISSING, p
        else:
            assert_same_value(g, exp, p)


@pytest.mark.parametrize("path", CORPUS)
def test_corpus_trusted(path):
    """validate=False finds the same values and failures from the stage-1 index alone."""
    data = read_bytes(path)
    doc = po.load_first_wins(data)
    rng = random.Random(path)
    ptrs = po.all_pointers(doc)
    ptrs = rng.sample(ptrs, min(len(ptrs), 800)) + [po.deepest_pointer(doc)]
    ptrs += missing_variants(doc, ptrs, rng)
    got = jetjson.get_many(data, ptrs, default=MISSING, validate=False)
    for p, g in zip(ptrs, got):
        exp = ref_outcome(doc, p)
        if isinstance(exp, Raised):
            assert g is MISSING, p
            with pytest.raises(type(exp.exc)):
                jetjson.get(data, p, validate=False)
        else:
            assert_same_value(g, exp, p)
    deep = po.deepest_pointer(doc)
    assert_same_value(jetjson.get(data, deep, validate=False), po.ref_get(doc, deep), deep)


@pytest.mark.parametrize("path", CORPUS)
def test_corpus_input_forms(path):
    raw = read_bytes(path)
    doc = po.load_first_wins(raw)
    ptrs = po.all_pointers(doc, limit=12) + [po.deepest_pointer(doc)]
    for label, data in input_forms(raw):
        got = jetjson.get_many(data, ptrs)
        for p, g in zip(ptrs, got):
            assert_same_value(g, po.ref_get(doc, p), f"{label} {p}")
        assert_same_value(jetjson.get(data, ptrs[-1]), po.ref_get(doc, ptrs[-1]), label)


# ---- JSONTestSuite ----

@pytest.mark.parametrize("path", Y_FILES)
def test_suite_y(path):
    data = read_bytes(path)
    doc = po.load_first_wins(data)
    for p in po.all_pointers(doc, limit=500):
        check(data, doc, p)
    for p in missing_variants(doc, po.all_pointers(doc, limit=50), random.Random(path)):
        check(data, doc, p)


@pytest.mark.parametrize("path", N_FILES)
def test_suite_n_raises_like_loads(path):
    data = read_bytes(path)
    exp = json_oracle(data)
    assert_same_outcome(capture(jetjson.get, data, ""), exp, path, jetjson)
    if isinstance(exp, Raised):  # json itself accepts a few (NaN, Infinity)
        for p in ("", "/0", "/a"):
            assert_same_outcome(capture(jetjson.get, data, p, default=1), exp, path, jetjson)
            assert_same_outcome(capture(jetjson.get_many, data, [p]), exp, path, jetjson)


@pytest.mark.parametrize("path", Y_FILES + N_FILES + I_FILES)
def test_suite_trusted(path):
    """validate=False: a valid document gives what validate=True gives; an invalid one
    gives json's error when the walk or the value's own parse notices, or else some
    value (the input was promised valid), but never anything worse."""
    data = read_bytes(path)
    exp = json_oracle(data)
    ptrs = ["", "/0", "/0/0", "/a", "/-", "/1"]
    if not isinstance(exp, Raised):
        ptrs += po.all_pointers(po.load_first_wins(data), limit=100)
    for p in ptrs:
        got = capture(jetjson.get, data, p, validate=False)
        full = capture(jetjson.get, data, p)
        if not isinstance(exp, Raised) or path.rsplit("/", 1)[-1].startswith("y_"):
            if isinstance(full, Raised):
                assert isinstance(got, Raised) and type(got.exc) is type(full.exc), (p, got, full)
            else:
                assert_same_value(got, full, p)
        elif isinstance(got, Raised) and isinstance(got.exc, ValueError) and not isinstance(
                got.exc, (KeyError, IndexError)):
            assert_same_outcome(got, exp, path, jetjson)


@pytest.mark.parametrize("path", I_FILES)
def test_suite_i_like_loads(path):
    data = read_bytes(path)
    exp = json_oracle(data)
    got = capture(jetjson.get, data, "")
    if isinstance(exp, Raised) and isinstance(exp.exc, RecursionError):
        return  # get builds no deep structure of its own: see test_deep_document
    assert_same_outcome(got, exp, path, jetjson)


# ---- hypothesis ----

@hyp_settings(300)
@given(st.data())
def test_hypothesis_existing_paths(data):
    value = data.draw(po.VALUES)
    text = data.draw(po.json_texts(value))
    doc = po.load_first_wins(text)
    tokens = data.draw(po.paths_in(doc))
    ptr = po.pointer(tokens)
    form = data.draw(st.sampled_from(["str", "bytes", "bytearray"]))
    raw = text if form == "str" else text.encode("utf-8") if form == "bytes" else bytearray(text.encode())
    assert_same_value(jetjson.get(raw, ptr), po.ref_get(doc, ptr), ptr)


@hyp_settings(300)
@given(st.data())
def test_hypothesis_random_pointers(data):
    value = data.draw(po.VALUES)
    text = data.draw(po.json_texts(value))
    doc = po.load_first_wins(text)
    prefix = data.draw(po.paths_in(doc))
    ptr = po.pointer(prefix) + po.pointer(data.draw(po.RANDOM_TOKENS))
    check(text, doc, ptr)
    check(text.encode("utf-8"), doc, ptr, default=data.draw(st.sampled_from([None, 0, "d"])))
    got = jetjson.get_many(text, [ptr, ""], default=MISSING)
    exp = ref_outcome(doc, ptr, MISSING)
    assert got[0] is MISSING if isinstance(exp, Raised) or exp is MISSING else not isinstance(exp, Raised)


@hyp_settings(300)
@given(st.data())
def test_hypothesis_trusted(data):
    value = data.draw(po.VALUES)
    text = data.draw(po.json_texts(value))
    doc = po.load_first_wins(text)
    ptrs = [po.pointer(data.draw(po.paths_in(doc))) + po.pointer(data.draw(po.RANDOM_TOKENS))
            for _ in range(3)] + [po.pointer(data.draw(po.paths_in(doc)))]
    raw = text.encode("utf-8") if data.draw(st.booleans()) else text
    got = jetjson.get_many(raw, ptrs, default=MISSING, validate=False)
    for p, g in zip(ptrs, got):
        exp = ref_outcome(doc, p)
        if isinstance(exp, Raised):
            assert g is MISSING, p
        else:
            assert_same_value(g, exp, p)


@hyp_settings(200)
@given(st.text(alphabet="/~01a-", max_size=8))
def test_hypothesis_pointer_syntax(ptr):
    doc = {"a": [1, {"~": {"/": 2}}], "~": {"0": 3}, "": {"": 4}, "-": 5}
    text = json.dumps(doc)
    try:
        po.tokens_of(ptr)
    except ValueError:
        with pytest.raises(ValueError, match="invalid JSON pointer"):
            jetjson.get(text, ptr, default=None)
        return
    check(text, doc, ptr)


# ---- specific behaviour and errors ----

DOC = '{"a": [1, {"b": null}, "s"], "a/b": 1, "m~n": 2, "": {"": 3}, "é": 4, "dup": 1, "dup": 2, "e": []}'


@pytest.mark.parametrize("ptr,expected", [
    ("", None), ("/a", [1, {"b": None}, "s"]), ("/a/1/b", None), ("/a~1b", 1), ("/m~0n", 2),
    ("/", {"": 3}), ("//", 3), ("/é", 4), ("/dup", 1), ("/e", []),
])
def test_small_document(ptr, expected):
    if ptr == "":
        expected = json.loads(DOC)  # the dict built keeps the last "dup", as loads
    assert_same_value(jetjson.get(DOC, ptr), expected, ptr)


@pytest.mark.parametrize("ptr,exc", [
    ("/x", KeyError), ("/a/3", IndexError), ("/a/-", IndexError), ("/a/01", IndexError),
    ("/a/x", IndexError), ("/a/-1", IndexError), ("/e/0", IndexError), ("/a/0/x", TypeError),
    ("/a/2/0", TypeError), ("/dup/x", TypeError), ("a", ValueError), ("/~", ValueError),
    ("/a~2", ValueError), ("#/a", ValueError),
])
def test_errors(ptr, exc):
    with pytest.raises(exc) as info:
        jetjson.get(DOC, ptr)
    assert repr(ptr) in info.value.args[0]
    if exc is not ValueError:
        assert jetjson.get(DOC, ptr, None) is None
        assert jetjson.get(DOC, ptr, default=exc) is exc
        assert jetjson.get_many(DOC, [ptr, "/m~0n"], default=0) == [0, 2]
    else:  # a bad pointer is an error even with a default
        with pytest.raises(ValueError):
            jetjson.get(DOC, ptr, None)


def test_argument_errors():
    with pytest.raises(TypeError):
        jetjson.get(DOC)
    with pytest.raises(TypeError):
        jetjson.get(DOC, b"/a")
    with pytest.raises(TypeError):
        jetjson.get(DOC, "/a", 1, 2)
    with pytest.raises(TypeError):
        jetjson.get(DOC, "/a", fallback=1)
    with pytest.raises(TypeError):
        jetjson.get(DOC, "/a", 1, default=2)  # default given twice
    with pytest.raises(TypeError):
        jetjson.get_many(DOC, "/a")
    with pytest.raises(TypeError):
        jetjson.get_many(DOC, 5)
    with pytest.raises(TypeError):
        jetjson.get_many(DOC, ["/a", 5])
    with pytest.raises(TypeError):
        jetjson.get_many(DOC, ["/a"], None)  # default is keyword-only
    # wrong document types: json's own TypeError
    exp = json_oracle(5)
    assert_same_outcome(capture(jetjson.get, 5, ""), exp, "int", jetjson)


def test_get_many_iterables():
    assert jetjson.get_many(DOC, ()) == []
    assert jetjson.get_many(DOC, (p for p in ["/m~0n", "/a/0"])) == [2, 1]
    assert jetjson.get_many(DOC, {"/a/0": 1}) == [1]


def test_invalid_documents_raise_like_loads():
    for bad in ["", "[1,", '{"a" 1}', "[1] x", b"\xff", "[1,]", "tru", '"\\x"', "[\x01]"]:
        exp = json_oracle(bad)
        assert_same_outcome(capture(jetjson.get, bad, "/0"), exp, repr(bad), jetjson)
        assert_same_outcome(capture(jetjson.get, bad, "", default=1), exp, repr(bad), jetjson)


def test_encodings_like_loads():
    doc = {"k": ["é", 1, {"€": 2}]}
    text = json.dumps(doc, ensure_ascii=False)
    for enc in ("utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-8-sig"):
        data = text.encode(enc)
        assert jetjson.get(data, "/k/2/€") == 2
        assert jetjson.get(data, "") == json.loads(data)
    exp = json_oracle("\ufeff[1]")
    assert_same_outcome(capture(jetjson.get, "\ufeff[1]", "/0"), exp, "str BOM", jetjson)


def test_surrogates():
    text = '{"\\ud800": ["\\udc00x"], "\\ud83d\\ude00": 1}'
    doc = json.loads(text)
    assert jetjson.get(text, "/\ud800/0") == doc["\ud800"][0]
    assert jetjson.get(text, "/\U0001f600") == 1
    assert jetjson.get(text, "/\ud83d\ude00", None) is None  # two code points are not one


def test_big_numbers_and_special_floats():
    text = '[NaN, -Infinity, 1e400, 123456789012345678901234567890, -0.0, 18446744073709551615]'
    doc = json.loads(text)
    for i in range(len(doc)):
        assert_same_value(jetjson.get(text, f"/{i}"), doc[i], str(i))


def test_deep_document():
    depth = 100_000
    text = "[" * depth + "7" + "]" * depth
    assert jetjson.get(text, "/0" * depth) == 7
    assert jetjson.get(text, "/0" * (depth - 1)) == [7]
    with pytest.raises(IndexError):
        jetjson.get(text, "/0" * (depth - 1) + "/1")


def test_input_not_modified_and_result_independent():
    raw = bytearray(DOC.encode())
    value = jetjson.get(raw, "/a")
    raw[:] = b" " * len(raw)
    assert value == [1, {"b": None}, "s"]


def test_scalar_kernel_subprocess():
    """The same lookups with JETJSON_FORCE_ISA=scalar (the kernel is chosen at import)."""
    import subprocess
    code = ("import jetjson, json; d=open(%r).read(); "
            "assert jetjson.features()['isa']=='scalar'; "
            "assert jetjson.get(d,'/a/1') == {'b': None}; "
            "assert jetjson.get(d,'/a/1', validate=False) == {'b': None}; "
            "assert jetjson.set_path(d,'/a/-','5') == (d[:-len(d)+d.index(']')] + ',5' + d[d.index(']'):]).encode()")
    import os
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write('{"a": [1, {"b": null}, "s"]}')
    try:
        env = dict(os.environ, JETJSON_FORCE_ISA="scalar")
        subprocess.run([sys.executable, "-c", code % f.name], check=True, env=env)
    finally:
        os.unlink(f.name)


# ---- references and leaks ----

def test_refcounts():
    default = object()
    data = DOC.encode()
    ptr = "/nope"
    before = (sys.getrefcount(default), sys.getrefcount(data), sys.getrefcount(ptr))
    for _ in range(100):
        assert jetjson.get(data, ptr, default) is default
        assert jetjson.get_many(data, [ptr, ptr], default=default) == [default, default]
        with pytest.raises(KeyError):
            jetjson.get(data, ptr)
        with pytest.raises(jetjson.JSONDecodeError):
            jetjson.get(b"[", ptr)
    assert (sys.getrefcount(default), sys.getrefcount(data), sys.getrefcount(ptr)) == before


@pytest.mark.parametrize("case", ["ok", "missing", "bad_pointer", "bad_doc", "many", "surrogate", "trusted",
                                  "trusted_bad"])
def test_no_leaks(case):
    data = DOC.encode()
    calls = {
        "ok": lambda: jetjson.get(data, "/a/1"),
        "missing": lambda: capture(jetjson.get, data, "/a/9/x"),
        "bad_pointer": lambda: capture(jetjson.get, data, "/~x"),
        "bad_doc": lambda: capture(jetjson.get, b'{"a": [1, 2', "/a"),
        "many": lambda: jetjson.get_many(data, ["/a", "/é", "/x"], default=None),
        "surrogate": lambda: jetjson.get(data, "/\ud800", None),
        "trusted": lambda: jetjson.get_many(data, ["/a/1", "/x"], default=None, validate=False),
        "trusted_bad": lambda: capture(jetjson.get, b'{"a": [1, }', "/a", validate=False),
    }
    grown = traced_growth(calls[case], 3000)
    assert grown < 30_000, f"{case}: {grown} bytes kept after 3000 calls"


class _Reparser:
    """A finalizer that parses on this thread with another document."""

    def __del__(self):
        jetjson.loads(b'{"other": [9, 8, 7], "pad": "' + b"z" * 300 + b'"}')


@pytest.mark.parametrize("validate", [True, False])
def test_finalizer_parsing_during_get_many(validate):
    """A collection due at the first tracked allocation inside get_many (its result
    list) would run a finalizer that parses on this thread's parser while the lookup
    still reads its tape."""
    data = json.dumps({"a": [{"b": i, "c": str(i) * 3} for i in range(50)], "d": {"e": [1, 2]}}).encode()
    ptrs = [f"/a/{i}/c" for i in range(50)] + ["/d/e/1"]
    expected = [str(i) * 3 for i in range(50)] + [2]
    old = gc.get_threshold()
    try:
        for _ in range(20):
            gc.collect()
            cycle = [_Reparser()]
            cycle.append(cycle)
            del cycle
            gc.set_threshold(gc.get_count()[0], 1, 1)
            got = jetjson.get_many(data, ptrs, validate=validate)
            gc.set_threshold(*old)
            assert got == expected
    finally:
        gc.set_threshold(*old)
