"""dumps/dump keep reference counts and memory flat on success and on every error path."""

import gc
import json
import sys
import tracemalloc

import pytest

import jetjson

try:
    from conftest import corpus_files, read_bytes, traced_growth
except ImportError:  # tests/ turned into a package
    from .conftest import corpus_files, read_bytes, traced_growth


class Point:
    pass


class Sink:
    """A file that keeps nothing (so growth is the encoder's, not the file's)."""

    def write(self, s):
        return len(s)


def swallow(fn, *args, **kw):
    def run():
        try:
            fn(*args, **kw)
        except (TypeError, ValueError, RecursionError, RuntimeError, OverflowError):
            pass
    return run


def _cycle():
    a = [1, {"b": []}]
    a[1]["b"].append(a)
    return a


def _deep(n):
    x = []
    for _ in range(n):
        x = [x, {"k": x}] if False else [x]
    return x


CASES = [
    ("ok", [1, 2.5, "s\u00e9", None, True, {"k": [10 ** 30, -1]}], {}),
    ("ok-nonascii", ["\u20ac\U0001f600", {"\u00e9": "\ud800"}], {"ensure_ascii": False}),
    ("ok-indent", {"a": [1, {"b": ()}], "c": {}}, {"indent": "\u2192", "sort_keys": True}),
    ("ok-default", [Point(), {"p": Point()}], {"default": lambda o: {"point": [1, "x"]}}),
    ("bad-key", [{"a": 1, (1,): 2}], {}),
    ("bad-key-indent", [{"a": 1, (1,): 2}], {"indent": 1}),
    ("unserializable", [1, {"x": Point()}], {}),
    ("default-raises", [1, {"x": Point()}], {"default": lambda o: 1 / 0 if False else int("z")}),
    ("default-unserializable", [Point()], {"default": lambda o: object()}),
    ("nan", [1, [float("nan")]], {"allow_nan": False}),
    ("nan-indent", {"k": float("inf")}, {"allow_nan": False, "indent": 2}),
    ("nan-key", {float("nan"): 1}, {"allow_nan": False}),
    ("circular", _cycle(), {}),
    ("circular-default", [Point()], {"default": lambda o: o}),
    ("recursion", _deep(3000), {}),
    ("recursion-unchecked", _cycle(), {"check_circular": False}),
    ("sort-mixed", {1: 2, "a": 3, "n": [1]}, {"sort_keys": True}),
    ("big-int", [10 ** 5000], {}),
    ("indent-type", [[1]], {"indent": 2.5}),
]


@pytest.mark.parametrize("name,obj,kw", CASES, ids=[c[0] for c in CASES])
def test_no_leak(name, obj, kw):
    growth = traced_growth(swallow(jetjson.dumps, obj, **kw))
    assert growth < 16 * 1024, f"{name}: {growth} bytes left after 200 calls"
    growth = traced_growth(swallow(jetjson.dump, obj, Sink(), **kw))
    assert growth < 16 * 1024, f"{name} (dump): {growth} bytes left after 200 calls"


@pytest.mark.parametrize("name,obj,kw", CASES, ids=[c[0] for c in CASES])
def test_refcounts(name, obj, kw):
    """The input, its parts, the options and the result hold no extra references."""
    parts = [obj] + (list(obj.values()) if isinstance(obj, dict) else list(obj))
    # small ints are shared by the whole process (other threads move their counts)
    parts = [p for p in parts if not (type(p) is int and -5 <= p <= 256)]
    opts = [v for v in kw.values() if not isinstance(v, (bool, int))]
    before = [sys.getrefcount(p) for p in parts + opts]
    for _ in range(20):
        try:
            jetjson.dumps(obj, **kw)
        except (TypeError, ValueError, RecursionError, RuntimeError, OverflowError):
            pass
    gc.collect()
    after = [sys.getrefcount(p) for p in parts + opts]
    assert before == after, name


def test_result_is_only_reference():
    s = jetjson.dumps({"a": [1, 2, "x" * 100]})
    assert sys.getrefcount(s) == 2
    s = jetjson.dumps(["\u20ac" * 1000], ensure_ascii=False)
    assert sys.getrefcount(s) == 2


def test_corpus_no_leak():
    files = corpus_files()
    if not files:
        pytest.skip("test data not found: <repo>/data or $JETJSON_DATA")
    objs = [json.loads(read_bytes(p)) for p in files[:6]]

    def run():
        for o in objs:
            jetjson.dumps(o)
            jetjson.dumps(o, indent=2, ensure_ascii=False, sort_keys=True)

    assert traced_growth(run, 5) < 64 * 1024


def test_keyword_names_not_interned():
    """Keyword names built at run time (not interned) are recognised too."""
    name = "".join(["ind", "ent"])
    assert jetjson.dumps([1], **{name: 1}) == json.dumps([1], indent=1)


def test_first_buffer_follows_the_last_result_without_keeping_its_size():
    # dumps sizes its first buffer from the previous result's length; a small result
    # after a large one must still be shrunk to its own length (at every str kind), and
    # a large one after a small one must grow past the guess
    big = ["x" * 100] * 100_000  # about 10 MB of text
    assert jetjson.dumps(big) == json.dumps(big)
    for small_obj in ([1, "a"], ["\u00e9"], ["\u20ac"], ["\U0001f600"]):
        tracemalloc.start()
        try:
            small = jetjson.dumps(small_obj, ensure_ascii=False)
            current, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert small == json.dumps(small_obj, ensure_ascii=False)
        assert current < 4096, (small_obj, current)
        assert jetjson.dumps(big) == json.dumps(big)
    bigger = big * 3 + ["\u20ac"]
    assert jetjson.dumps([]) == "[]"
    assert jetjson.dumps(bigger, ensure_ascii=False) == json.dumps(bigger, ensure_ascii=False)
