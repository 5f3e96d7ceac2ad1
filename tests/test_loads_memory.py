"""Memory and object lifetime: no leaked objects, references or buffers on success or
error paths; gc state untouched; input buffers released."""

import gc
import json
import os
import sys

import pytest

import jetjson

try:
    from conftest import (Raised, assert_same_outcome, assert_same_value, capture,
                          corpus_files, json_oracle, read_bytes, traced_growth)
except ImportError:  # tests/ turned into a package
    from .conftest import (Raised, assert_same_outcome, assert_same_value, capture,
                           corpus_files, json_oracle, read_bytes, traced_growth)


def rss_bytes():
    """Resident set size (Linux), or None."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


# --------------------------------------------------------------------------------------
# Leaks
# --------------------------------------------------------------------------------------
def corpus_datas():
    files = corpus_files()
    if not files:
        pytest.skip("test data not found: <repo>/data or $JETJSON_DATA")
    return [read_bytes(p) for p in files]


@pytest.mark.skipif(bool(os.environ.get("JETJSON_SANITIZED")),
                    reason="ASan's quarantine holds freed memory on purpose")
def test_repeated_corpus_loads_keep_rss_flat():
    """20 passes over the whole corpus (bytes and str); the process must not keep growing
    (this also sees C-level buffers that tracemalloc does not trace)."""
    datas = corpus_datas()
    texts = [d.decode("utf-8") for d in datas]

    def one_pass():
        for d in datas:
            jetjson.loads(d)
        for t in texts[::4]:
            jetjson.loads(t)

    one_pass()
    one_pass()
    gc.collect()
    rss_before = rss_bytes()
    if rss_before is None:
        pytest.skip("no /proc/self/statm")
    for _ in range(20):
        one_pass()
    gc.collect()
    grown = rss_bytes() - rss_before
    total = sum(len(d) for d in datas)
    # A buffer leaked per call would be at least ~20 * total bytes.
    assert grown < max(48 << 20, 2 * total), f"RSS grew by {grown >> 20} MiB over 20 passes"


def test_repeated_corpus_loads_do_not_leak_traced():
    datas = corpus_datas()
    small = [d for d in datas if len(d) < 150_000]
    texts = [d.decode("utf-8") for d in small]

    def small_pass():
        for d in small:
            jetjson.loads(d)
        for t in texts:
            jetjson.loads(t)

    def full_pass():
        for d in datas:
            jetjson.loads(d)

    growth = traced_growth(small_pass, 20)
    assert growth < 128 * 1024, f"traced memory grew by {growth} bytes over 20 passes"
    growth = traced_growth(full_pass, 2)
    assert growth < 256 * 1024, f"traced memory grew by {growth} bytes over 2 corpus passes"


SMALL_DOCS = [
    b'{"abc": 1, "list": [1, 2.5, "s", null, true, false], "nested": {"x": {}}}',
    b'["\\u00e9\\n\\ud83d\\ude00", "plain", "\xc3\xa9\xe2\x82\xac", 12345678901234567890123]',
    b"[1e400, -0.0, NaN, Infinity, 3.14159, 18446744073709551615, -9223372036854775809]",
    b'{"a": 1, "a": 2, "' + b"k" * 100 + b'": "' + b"v" * 300 + b'"}',
]


def test_small_documents_do_not_leak():
    texts = [d.decode() for d in SMALL_DOCS]

    def run():
        for d in SMALL_DOCS:
            jetjson.loads(d)
            jetjson.loads(bytearray(d))
            jetjson.loads(memoryview(d))
        for t in texts:
            jetjson.loads(t)

    growth = traced_growth(run, 2500)  # 40,000 calls
    assert growth < 64 * 1024, f"traced memory grew by {growth} bytes over 40000 loads"


def test_hooks_do_not_leak():
    import decimal
    doc = b'[{"a": 1.5, "b": [2, NaN]}, {"c": {}}]'
    kws = [{"object_hook": lambda d: d}, {"object_pairs_hook": lambda p: p},
           {"parse_float": decimal.Decimal, "parse_int": str, "parse_constant": str},
           {"strict": False}]

    def run():
        for kw in kws:
            jetjson.loads(doc, **kw)

    growth = traced_growth(run, 2500)
    assert growth < 64 * 1024, f"traced memory grew by {growth} bytes with hooks"


INVALID_FOR_LEAKS = [
    '{"key": [1, 2, {"inner": "value with some text in it"}, 3' + " " * 100,
    '["' + "x" * 200 + '", tru]',
    '{"a": 1, "b": 2, "c": ' + "[" * 50 + "1,",
    '["unterminated ' + "y" * 200,
    '"bad \\q escape ' + "z" * 200 + '"',
    "[1, 2, 3] extra data " + "w" * 200,
    b'["valid then invalid utf-8 \xff ' + b"v" * 200 + b'"]',
    b"\xef\xbb\xbf[1,,]",
    "[" * 3000,
    "",
    '{"a" ' + "1" * 300 + "}",
]


def test_error_paths_do_not_leak():
    def raise_in_hook(_):
        raise KeyError("no")

    docs = list(INVALID_FOR_LEAKS)
    docs += [d.encode() for d in INVALID_FOR_LEAKS if isinstance(d, str)]
    docs += [bytearray(d) for d in INVALID_FOR_LEAKS if isinstance(d, bytes)]

    def run():
        for doc in docs:
            r = capture(jetjson.loads, doc)
            assert isinstance(r, Raised)
        capture(jetjson.loads, 12345)
        capture(jetjson.loads, b'[{"a": 1}]', object_hook=raise_in_hook)

    growth = traced_growth(run, 100)  # about 2400 failing calls
    assert growth < 64 * 1024, f"traced memory grew by {growth} bytes over 2400 failed loads"


@pytest.mark.skipif(not hasattr(sys, "set_int_max_str_digits"), reason="no int digit limit")
def test_int_limit_error_does_not_leak():
    doc = "[" + "1" * 5000 + ", " + "2" * 5000 + "]"

    def run():
        r = capture(jetjson.loads, doc)
        assert isinstance(r, Raised) and type(r.exc) is ValueError

    growth = traced_growth(run, 1000)
    assert growth < 64 * 1024, f"traced memory grew by {growth} bytes"


# --------------------------------------------------------------------------------------
# Reference counts
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("doc", [b'{"abc": 1}', b'{"k\xc3\xa9y_zq": 1}',
                                 b'{"a_much_longer_key_that_may_not_be_cached_" : 1}'])
def test_key_refcounts_match_kept_results(doc):
    first = jetjson.loads(doc)
    key = next(iter(first))
    base = sys.getrefcount(key)
    results = [jetjson.loads(doc) for _ in range(10000)]
    holders = sum(1 for r in results if next(iter(r)) is key)
    now = sys.getrefcount(key)
    assert base + holders - 2 <= now <= base + holders + 2, \
        f"refcount of the key is {now}, expected about {base} + {holders} kept results"
    for r in results:
        assert_same_value(r, json.loads(doc))
    del results
    gc.collect()
    assert sys.getrefcount(key) <= base + 2, "references to the key leaked"
    del first


def test_singleton_refcounts_are_stable():
    doc = b'[null, true, false, {"n": null, "t": true, "f": false}, [null]]'
    jetjson.loads(doc)
    counts = [sys.getrefcount(x) for x in (None, True, False)]
    for _ in range(10000):
        jetjson.loads(doc)
        capture(jetjson.loads, b"[null, true, false, x]")
    after = [sys.getrefcount(x) for x in (None, True, False)]
    for name, b, a in zip(("None", "True", "False"), counts, after):
        assert abs(a - b) < 100, f"refcount of {name} moved from {b} to {a}"


def container_refcounts(value):
    """(path, refcount) for every list and dict in a loaded tree, walked the same way for
    both results so that the walker's own temporary references are identical."""
    out = []
    stack = [("$", value)]
    while stack:
        path, v = stack.pop()
        if isinstance(v, (list, dict)):
            out.append((path, sys.getrefcount(v)))
            items = v.items() if isinstance(v, dict) else enumerate(v)
            for k, child in items:
                stack.append((f"{path}[{k!r}]", child))
            del items
        del v
    return out


def test_container_refcounts_match_json():
    files = corpus_files()
    docs = [b'[[1, 2], {"a": [3, {"b": []}]}, [], {}, [[[]]]]',
            b'{"a": {"b": {"c": [1, [2, [3]]]}}, "d": [{"e": {}}]}']
    docs += [read_bytes(p) for p in files if len(read_bytes(p)) < 100_000]
    for doc in docs:
        got = jetjson.loads(doc)
        exp = json.loads(doc)
        assert sys.getrefcount(got) == sys.getrefcount(exp)
        assert container_refcounts(got) == container_refcounts(exp)


def test_results_do_not_reference_each_other():
    """Containers from one call are not reused by the next (no shared mutable objects)."""
    a = jetjson.loads('{"x": [1, 2], "y": {}}')
    b = jetjson.loads('{"x": [1, 2], "y": {}}')
    assert a["x"] is not b["x"] and a["y"] is not b["y"] and a is not b
    a["x"].append(3)
    a["y"]["z"] = 1
    assert b == {"x": [1, 2], "y": {}}


# --------------------------------------------------------------------------------------
# gc state and tracking
# --------------------------------------------------------------------------------------
@pytest.fixture
def restore_gc():
    was = gc.isenabled()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def gc_inputs():
    docs = [b'{"a": [1, 2, 3]}', "[" + ",".join('{"k": [%d]}' % i for i in range(20000)) + "]"]
    files = corpus_files()
    if files:
        docs.append(read_bytes(files[0]))
    return docs


@pytest.mark.parametrize("enabled", [True, False])
def test_gc_state_is_unchanged(enabled, restore_gc):
    if enabled:
        gc.enable()
    else:
        gc.disable()
    for doc in gc_inputs():
        jetjson.loads(doc)
        assert gc.isenabled() is enabled, "after a successful loads"
    for bad in (b"[1,]", "[" * 100000, b'["\xff"]', "{" * 10 + "x", 42):
        capture(jetjson.loads, bad)
        assert gc.isenabled() is enabled, f"after a failed loads({bad!r:.20})"

    def hook(_):
        raise RuntimeError("hook failure")
    capture(jetjson.loads, '[{"a": 1}]', object_hook=hook)
    assert gc.isenabled() is enabled, "after a hook raised"
    jetjson.loads('[{"a": 1}]', object_hook=lambda d: gc.isenabled())
    assert gc.isenabled() is enabled, "after hooks ran"


def test_containers_are_gc_tracked_like_json():
    doc = '[[], {"a": []}, {"b": {"c": [1]}}, [{"d": 1}], {"e": 1}]'
    got, exp = jetjson.loads(doc), json.loads(doc)
    assert gc.is_tracked(got) == gc.is_tracked(exp)
    for g, e in zip(got, exp):
        assert gc.is_tracked(g) == gc.is_tracked(e), (g, e)
    # A container holding containers must be tracked, or cycles made later would leak.
    assert gc.is_tracked(got[1]) and gc.is_tracked(got[2]) and gc.is_tracked(got[2]["b"])


def test_cycles_built_from_results_are_collected():
    import weakref

    class Marker:
        pass

    got = jetjson.loads('{"a": [1, {"b": []}], "c": {}}')
    marker = Marker()
    ref = weakref.ref(marker)
    got["a"][1]["b"].append(got)  # a cycle through jetjson-built containers
    got["c"]["m"] = marker
    del got, marker
    gc.collect()
    assert ref() is None, "a reference cycle through loads results was not collected"


# --------------------------------------------------------------------------------------
# Input buffers are released
# --------------------------------------------------------------------------------------
def test_bytearray_can_be_resized_after_loads():
    for doc in (b'{"a": [1, "x"]}', b"[1,]", b'["\xff"]', b"[" * 100000):
        buf = bytearray(doc)
        capture(jetjson.loads, buf)
        buf.extend(b" ")  # BufferError if an export is still held
        del buf[:]


def test_memoryview_can_be_released_after_loads():
    for doc in (b'{"a": [1, "x"]}', b"[1,]", b'["\xff"]', b"[" * 100000):
        backing = bytearray(doc)
        mv = memoryview(backing)
        capture(jetjson.loads, mv)
        mv.release()  # BufferError "memoryview has exported buffers" if still held
        backing.extend(b" ")


def test_result_is_independent_of_mutated_input():
    buf = bytearray(b'{"key": "value", "n": [1.5, "\xc3\xa9"]}')
    with memoryview(buf) as mv:
        got = jetjson.loads(mv)
    buf[:] = b"X" * len(buf)
    assert_same_value(got, {"key": "value", "n": [1.5, "\u00e9"]})


def test_error_doc_is_independent_of_input_buffer():
    buf = bytearray(b'{"key": oops}')
    got = capture(jetjson.loads, buf)
    buf[:] = b"#" * len(buf)
    assert_same_outcome(got, json_oracle(b'{"key": oops}'), "after mutating the input",
                        jetjson)
