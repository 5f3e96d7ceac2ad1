"""threads=N at the iterator's own window size (batch_size left at its default): the
first window is small and read on the calling thread, the windows read ahead grow from
it (32 KiB, 32 KiB, 64 KiB... up to 256 KiB), and the windows of one stream are kept
for the next (jetjson_pool.h). Errors, documents longer than a window and documents
over several lines are put at each of those windows' ends; every result and exception
must be threads=None's, and that must be json's (test_many's oracle).

test_many_threads.py runs the same paths with windows of 512 bytes, where nothing grows."""

import json
import random
import sys

import pytest

import jetjson
from jetjson import _jetjson

try:
    from test_many import oracle, same, traced_growth
    from test_many_threads import FORMATS, drain, identical, plain, sample_doc
except ImportError:  # tests/ turned into a package
    from .test_many import oracle, same, traced_growth
    from .test_many_threads import FORMATS, drain, identical, plain, sample_doc

BATCH = 1 << 20  # the default batch_size
KIB = 1024
N = 15000  # documents: about 700 KB, seven windows


def many(data, fmt="whitespace", workers=0, lazy=False, fields=None):
    return _jetjson._many(data, FORMATS[fmt], lazy, fields, None, BATCH, workers)


def window_ends(data):
    """Where the windows of a threaded stream end when nothing goes elsewhere: after a
    line break in the second half of 32, 32, 64, 128, 256, 256... KiB."""
    ends, at, want = [], 0, 32 * KIB
    sizes = iter([64 * KIB, 128 * KIB])
    while at < len(data):
        n = min(want, len(data) - at)
        if n < len(data) - at:
            nl = data.rfind(b"\n", at + n // 2, at + n)
            if nl >= 0:
                n = nl + 1 - at
        at += n
        ends.append(at)
        want = next(sizes, 256 * KIB) if len(ends) > 1 else 32 * KIB
    return ends


def records(n, seed=3):
    rng = random.Random(seed)
    return [json.dumps(sample_doc(rng, i), ensure_ascii=rng.random() < 0.5) for i in range(n)]


def doc_at(texts, offset):
    """The index of the document (one per line) whose line holds byte `offset`."""
    at = 0
    for i, t in enumerate(texts):
        at += len(t.encode()) + 1
        if at > offset:
            return i
    return len(texts) - 1


BAD = {"syntax": '{"a": [1, 2}', "json_only": '{"x": NaN}', "bad_utf8": b'"\xff"'}


def with_bad(texts, i, kind):
    parts = [t.encode() for t in texts]
    parts[i] = BAD[kind] if isinstance(BAD[kind], bytes) else BAD[kind].encode()
    return b"\n".join(parts) + b"\n"


def check_all_ways(data, fmt, what, fields=None):
    """loads, parse_many and fields=, each with workers 1 and 2 against threads=None,
    which must be json's."""
    exp = drain(many(data, fmt))
    same(exp, oracle(data, fmt), f"{what}: without threads")
    for workers in (2, 1):
        it = many(data, fmt, workers)
        identical(drain(it), exp, f"{what} workers={workers}")
    identical(drain(many(data, fmt, 1, lazy=True), views=True), drain(many(data, fmt, lazy=True), views=True),
              f"{what} parse_many")
    if fields:
        identical(drain(many(data, fmt, 1, fields=fields)), drain(many(data, fmt, fields=fields)), f"{what} fields")
    return it


def test_window_ends_as_planned():
    # the model above is the one the tests place things with: no window is dropped
    texts = records(N)
    data = ("\n".join(texts) + "\n").encode()
    assert len(window_ends(data)) >= 6
    it = many(data, "whitespace", 1)
    identical(drain(it), drain(many(data)), "planned")
    hits, misses, _ = it._ahead()
    assert misses == 0 and hits == len(window_ends(data)) - 1, (hits, misses, window_ends(data))


@pytest.mark.parametrize("fmt", ["whitespace", "lines"])
@pytest.mark.parametrize("kind", list(BAD))
@pytest.mark.parametrize("place", ["first", "end0", "start1", "end1", "end2", "end3", "end4", "last"])
def test_errors_at_each_growing_window(fmt, kind, place):
    texts = records(N)
    plain_data = ("\n".join(texts) + "\n").encode()
    ends = window_ends(plain_data)
    offset = {"first": 10, "start1": ends[0] + 2, "last": len(plain_data) - 2}.get(place)
    if offset is None:
        offset = ends[int(place[3:])] - 2  # the last document of that window
    data = with_bad(texts, doc_at(texts, offset), kind)
    check_all_ways(data, fmt, f"{fmt} {kind} at {place}", fields=["/id", "/big"])


@pytest.mark.parametrize("fmt", ["whitespace", "lines"])
@pytest.mark.parametrize("size", [20 * KIB, 40 * KIB, 300 * KIB])
@pytest.mark.parametrize("place", ["first", "end0", "end2", "end4"])
def test_long_documents_at_each_growing_window(fmt, size, place):
    # one line longer than half the first window, than the first window, than any window
    rng = random.Random(size)
    texts = records(N)
    ends = window_ends(("\n".join(texts) + "\n").encode())
    at = 0 if place == "first" else doc_at(texts, ends[int(place[3:])] - 2)
    rows, long = [], ""
    while len(long) < size:
        rows += [sample_doc(rng, len(rows) + k) for k in range(1 + (size - len(long)) // 60)]
        long = json.dumps({"rows": rows})
    texts[at] = long
    data = ("\n".join(texts) + "\n").encode()
    it = check_all_ways(data, fmt, f"{fmt} {size} at {place}", fields=["/rows/0", "/id"])
    hits, misses, _ = it._ahead()
    # a line longer than half a window ahead sends the iterator to its own 1 MiB windows
    # for one window: after a first line of 300 KB, that one reads the rest of this input
    assert misses <= 2 and (hits > 0 or (place == "first" and size > 128 * KIB)), (hits, misses)


@pytest.mark.parametrize("place", ["end0", "end1", "end3"])
def test_documents_over_several_lines_across_window_ends(place):
    # whitespace: a pretty document that a window's end cuts, read again on this thread
    rng = random.Random(5)
    texts = records(N)
    ends = window_ends(("\n".join(texts) + "\n").encode())
    at = doc_at(texts, ends[int(place[3:])] - 2)
    texts[at] = json.dumps({"rows": [sample_doc(rng, k) for k in range(60)]}, indent=1)
    data = ("\n".join(texts) + "\n").encode()
    check_all_ways(data, "whitespace", f"pretty at {place}")
    broken = data.replace(b'"rows": [', b'"rows": [,', 1)
    check_all_ways(broken, "whitespace", f"broken pretty at {place}")


def test_tiny_documents():
    data = b"1\n" * 150_000 + b'"\\u00e9"\n[]\n{}\n' * 20_000
    it = check_all_ways(data, "lines", "tiny")
    assert it._ahead()[0] > 0
    assert check_all_ways(data.replace(b"\n", b" "), "whitespace", "tiny, one line")._ahead()[0] == 0


def test_just_over_one_window():
    # the smallest inputs that read ahead: just over 256 KiB, so two windows at most
    texts = records(2000)
    while len(("\n".join(texts) + "\n").encode()) <= 256 * KIB:
        texts += texts[:50]
    data = ("\n".join(texts) + "\n").encode()
    it = check_all_ways(data, "lines", "just over")
    assert it._ahead()[0] > 0


def test_kept_windows_change_hands():
    # windows kept by one stream serve the next, whatever it reads: fields, views,
    # objects, another input; after release() they are made anew
    texts = records(6000)
    data = ("\n".join(texts) + "\n").encode()
    other = with_bad(records(7000, seed=9), 6500, "syntax")
    exp, exp_other = drain(many(data)), drain(many(other))
    views = drain(many(data, lazy=True), views=True)
    fields = drain(many(data, fields=["/id"]))
    for rnd in range(3):
        if rnd == 2:
            jetjson.release()
        identical(drain(many(data, workers=1, fields=["/id"])), fields, f"fields {rnd}")
        identical(drain(many(data, workers=2, lazy=True), views=True), views, f"views {rnd}")
        identical(drain(many(other, workers=1)), exp_other, f"other {rnd}")
        identical(drain(many(data, workers=1)), exp, f"objects {rnd}")


def test_views_outlive_kept_windows():
    # a view keeps its document's own lazy tape: the window it came from serving another
    # stream changes nothing in it
    texts = records(6000)
    data = ("\n".join(texts) + "\n").encode()
    views = jetjson.parse_many(data, threads=2)
    exp = [json.loads(t) for t in texts]
    jetjson.loads_many(("\n".join(records(6000, seed=4)) + "\n").encode(), threads=2)
    assert [plain(v) for v in views] == exp


def test_no_leaks_at_the_default_window_size():
    # few documents of 1 KB (a cheap call under tracemalloc), over 256 KiB in all
    texts = [json.dumps({"s": "x\u00e9" * 450, "i": i}) for i in range(330)]
    data = with_bad(texts, 300, "syntax")
    assert len(data) > 300 * KIB
    exp = drain(many(data))

    def call():
        identical(drain(_jetjson._many(data, 0, False, None, None, BATCH, 1)), exp, "leaks")
        it = many(data, "lines", 1)
        next(it)
        del it

    before = sys.getrefcount(data)
    grown = traced_growth(call, 200)
    assert grown < 64 * 1024, f"{grown} bytes kept"
    assert sys.getrefcount(data) == before
