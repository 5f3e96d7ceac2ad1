"""threads=N for loads_many / parse_many / map_many / load_many_file: windows parsed ahead
on the engine's worker pool. Every result and every exception must be the one of
threads=None, and both must be the json oracle's of test_many.py; errors are placed in
the first, a middle and the last window, and in a document that straddles windows.

The iterator's _ahead() says how many windows came from the pool: the tests check that
the threaded path really ran where it should (NDJSON in memory), and that it let go where
the iterator reads elsewhere (documents over several lines)."""

import gc
import json
import mmap
import os
import random
import sys
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson
from jetjson import _jetjson

try:
    from test_many import Err, first_difference, hyp_settings, oracle, plain, same, traced_growth
except ImportError:  # tests/ turned into a package
    from .test_many import Err, first_difference, hyp_settings, oracle, plain, same, traced_growth

FORMATS = {"whitespace": 0, "lines": 1, "json_seq": 2, "comma": 3, "array": 4}
BATCH = 512


def many(data, fmt="whitespace", workers=0, lazy=False, fields=None, default=None, batch=BATCH):
    """The C iterator itself: documents one by one, with or without workers."""
    return _jetjson._many(data, FORMATS[fmt], lazy, fields, default, batch, workers)


def drain(it, views=False):
    """Values (views as plain values), then the exception that ended the stream."""
    out = []
    try:
        for v in it:
            out.append(plain(v) if views else v)
    except (ValueError, RecursionError) as e:
        out.append(e)
        assert list(it) == [], "nothing comes after an error"
    return out


def exc_key(e):
    key = (type(e), str(e))
    if isinstance(e, json.JSONDecodeError):
        key += (e.msg, e.pos, e.lineno, e.colno)
    return key


def identical(got, exp, what):
    """The same documents (types and all) and the same exception, field for field."""
    assert len(got) == len(exp), f"{what}: {len(got)} results, {len(exp)} without threads"
    for k, (g, e) in enumerate(zip(got, exp)):
        if isinstance(e, BaseException) or isinstance(g, BaseException):
            assert isinstance(g, BaseException) and isinstance(e, BaseException), f"{what} #{k}: {g!r} vs {e!r}"
            assert exc_key(g) == exc_key(e), f"{what} #{k}: {exc_key(g)} vs {exc_key(e)}"
        else:
            diff = first_difference(g, e)
            assert diff is None, f"{what} #{k}: {diff}"


# ---- streams with errors in chosen places ----------------------------------------------

def sample_doc(rng, i):
    kind = rng.randrange(6)
    if kind == 0:
        return {"id": i, "name": f"n\u00e9{i}", "tags": ["a", "b" * rng.randrange(4)], "ok": True}
    if kind == 1:
        return [i, -i * 1.5, None, "x\ty", {"deep": [[i]]}]
    if kind == 2:
        return {"big": 10**25 + i, "u": 2**64 - 1, "f": 1e-300, "s": "\U0001f600\u4e2d"}
    if kind == 3:
        return i * 7919
    if kind == 4:
        return f"str {i} \" q \\ "
    return {"k" * (i % 7 + 1): {"v": [True, False, None]}}


def layout(docs, fmt):
    """The texts of the documents joined as `fmt` writes them; the offsets of each."""
    sep = {"whitespace": "\n", "lines": "\n", "json_seq": "\n", "comma": ",\n", "array": ",\n"}[fmt]
    lead = {"json_seq": "\x1e", "array": ""}.get(fmt, "")
    parts, offsets, at = [], [], 1 if fmt == "array" else 0
    for t in docs:
        piece = lead + t + sep
        offsets.append(at)
        parts.append(piece)
        at += len(piece.encode())
    text = "".join(parts)
    if fmt == "array":
        text = "[" + text[: -len(sep)] + "]"
    return text.encode(), offsets


BROKEN = {
    "syntax": '{"a": [1, 2}',
    "json_only": '{"nan": NaN, "inf": -Infinity}',
    "trailing": "[1, 2,]",
    "bad_utf8": None,  # bytes, put in below
}


def stream_with_error(fmt, where, kind, n=240, seed=7):
    rng = random.Random(seed)
    docs = [json.dumps(sample_doc(rng, i), ensure_ascii=rng.random() < 0.5) for i in range(n)]
    bad_at = {"none": None, "first": 1, "middle": n // 2, "last": n - 1, "straddle": n // 3}[where]
    if where == "straddle":
        # a long document over many lines (whitespace, comma, array: json reads those),
        # longer than a window, with its error near its end
        pretty = json.dumps({"rows": [sample_doc(rng, k) for k in range(40)]}, indent=1)
        if fmt in ("lines", "json_seq"):
            pretty = pretty.replace("\n", " ")
        docs[bad_at] = pretty[:-3] + ("" if kind == "json_only" else ",") + pretty[-3:]
        if kind == "json_only":
            docs[bad_at] = pretty[:-1] + ', "x": NaN}'
    elif bad_at is not None and kind != "bad_utf8":
        docs[bad_at] = BROKEN[kind]
    data, offsets = layout(docs, fmt)
    if kind == "bad_utf8" and bad_at is not None:
        at = offsets[bad_at] + (1 if fmt == "json_seq" else 0)
        data = data[:at] + b'"\xff"' + data[at + 1:] if data[at:at + 1] == b'"' else data[:at] + b"\xff" + data[at + 1:]
    return data


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("where", ["none", "first", "middle", "last", "straddle"])
@pytest.mark.parametrize("kind", ["syntax", "json_only", "trailing", "bad_utf8"])
def test_errors_in_every_window_position(fmt, where, kind):
    data = stream_with_error(fmt, where, kind)
    assert len(data) > 8 * BATCH
    exp = drain(many(data, fmt))
    if not (fmt == "array" and kind == "bad_utf8"):  # test_many's oracle reads no bad bytes in arrays
        same(exp, oracle(data, fmt), f"{fmt} {where} {kind} without threads")
    for workers in (1, 2, 4):  # threads=2, 3, 5
        what = f"{fmt} {where} {kind} workers={workers}"
        it = many(data, fmt, workers)
        identical(drain(it), exp, what)
        if fmt in ("whitespace", "lines") and where in ("none", "last"):
            hits, misses, _ = it._ahead()
            assert hits > 0, f"{what}: nothing was read ahead ({hits}, {misses})"
        identical(drain(many(data, fmt, workers, lazy=True), views=True),
                  drain(many(data, fmt, lazy=True), views=True), "parse_many " + what)


# ---- fields=: the skim on the worker ------------------------------------------------------

FIELD_SETS = [["/id"], ["/id", "/big", "/0", "/nope"], ["/kk/v", "/s", "/name", "/4/deep"]]


def fields_oracle(data, fields, default):
    """json's values at the pointers of each line (documents one per line, none broken)."""
    from test_fields_skim import expected_fields

    return expected_fields(data.decode().splitlines(), fields, default)


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("where", ["none", "first", "middle", "last", "straddle"])
@pytest.mark.parametrize("kind", ["syntax", "json_only", "trailing", "bad_utf8"])
def test_fields_errors_in_every_window_position(fmt, where, kind):
    data = stream_with_error(fmt, where, kind)
    for fields in FIELD_SETS:
        exp = drain(many(data, fmt, fields=fields, default=-1))
        if where == "none" and fmt in ("whitespace", "lines"):
            assert first_difference(exp, fields_oracle(data, fields, -1)) is None
        for workers in (1, 3):
            what = f"{fmt} {where} {kind} fields={fields} workers={workers}"
            it = many(data, fmt, workers, fields=fields, default=-1)
            identical(drain(it), exp, what)
            if fmt in ("whitespace", "lines") and where in ("none", "last"):
                hits, misses, _ = it._ahead()
                assert hits > 0, f"{what}: nothing was read ahead ({hits}, {misses})"


@pytest.mark.parametrize("fmt", ["whitespace", "lines"])
def test_fields_skipped_broken_values_and_refusals(fmt):
    """Values no pointer reaches are skipped unchecked (threads or not); values the engine
    refuses (NaN, lone surrogates), json's to decide (too many digits, too deep), and a
    document after them that starts with an escaped string, in every window."""
    from test_fields_skim import expected_fields

    texts, plain_texts = [], []
    for i in range(3000):
        text = json.dumps({"id": i, "t": "x\"y" * (i % 3), "skip": [i, {"a": "b"}]})
        oracle_text = text
        r = i % 23
        if r == 0:
            text = text.replace('"skip": [', '"skip": [tru, ')  # unreached, broken
        elif r == 5:
            text = oracle_text = text.replace('"id": %d' % i, '"id": NaN')  # refused: json's
        elif r == 9:
            text = oracle_text = text.replace('"t": "', '"t": "\\ud800')  # lone surrogate: json's
        elif r in (6, 10):  # an escaped string as a document, right after a refused value
            text = oracle_text = json.dumps(f"str {i} \" q")
        elif r == 17:
            text = text.replace('"skip": [', '"skip": [' + "[" * 200 + "]" * 200 + ", ")  # deep, unreached
        texts.append(text)
        plain_texts.append(oracle_text)
    data = ("\n".join(texts) + "\n").encode()
    for fields in (["/id", "/t"], "/id", ["/t", "/nope", "/id"]):
        single = isinstance(fields, str)
        exp = expected_fields(plain_texts, [fields] if single else fields, single=single)
        base = list(jetjson.loads_many(data, fields=fields, format=fmt, batch_size=1 << 13))
        assert first_difference(base, exp) is None
        for threads in (2, 3):
            got = list(jetjson.loads_many(data, fields=fields, format=fmt, batch_size=1 << 13, threads=threads))
            identical(got, base, f"{fmt} {fields} threads={threads}")
    # a value json refuses in a middle window: its error, whatever the threads
    big = data.replace(b'"id": 1503,', b'"id": ' + b"1" * 5000 + b",", 1)
    outcomes = []
    for threads in (None, 2):
        with pytest.raises(ValueError) as info:
            list(jetjson.loads_many(big, fields=["/id"], format=fmt, batch_size=1 << 13, threads=threads))
        outcomes.append(exc_key(info.value))
    assert outcomes[0] == outcomes[1]
    # a value too deep to build, that a pointer reaches
    deep = data.replace(b'"skip": [1503,', b'"skip": [' + b"[" * 3000 + b"]" * 3000 + b",", 1)
    outcomes = []
    for threads in (None, 2):
        try:
            outcomes.append(list(jetjson.loads_many(deep, fields=["/skip"], format=fmt, batch_size=1 << 13,
                                                    threads=threads)))
        except (ValueError, RecursionError) as e:
            outcomes.append(exc_key(e))
    assert outcomes[0] == outcomes[1] and isinstance(outcomes[0], tuple)


def test_fields_threads_leak_and_references():
    data = stream_with_error("lines", "none", "syntax", n=600)
    default = object()
    fields = ["/id", "/kk/v", "/nope"]
    exp = list(jetjson.loads_many(data, fields=fields, default=default, batch_size=BATCH))
    before = (sys.getrefcount(data), sys.getrefcount(default))
    growth = traced_growth(lambda: jetjson.map_many(lambda t: t, data, fields=fields, default=default, threads=2,
                                                    batch_size=BATCH))
    assert growth < 64 * 1024, growth
    assert (sys.getrefcount(data), sys.getrefcount(default)) == before
    assert jetjson.map_many(lambda t: t, data, fields=fields, default=default, threads=2, batch_size=BATCH) == exp


@pytest.mark.parametrize("threads", [1, 2, 4, -1])
@pytest.mark.parametrize("where", ["none", "middle"])
def test_public_api(threads, where):
    data = stream_with_error("whitespace", where, "syntax")
    try:
        exp = list(jetjson.loads_many(data, batch_size=BATCH))
    except ValueError as e:
        exp = e
    try:
        got = jetjson.loads_many(data, threads=threads, batch_size=BATCH)
    except ValueError as e:
        got = e
    if isinstance(exp, list):
        assert isinstance(got, list)
        identical(got, exp, f"loads_many threads={threads}")
    else:
        assert isinstance(got, ValueError) and exc_key(got) == exc_key(exp)
        # the documents before the error come with it
        identical(got.documents, drain(jetjson.loads_many(data, batch_size=BATCH))[:-1], "documents")
        views = pytest.raises(ValueError, jetjson.parse_many, data, threads=threads, batch_size=BATCH)
        identical([plain(v) for v in views.value.documents], got.documents, "parse_many documents")


def test_fields_and_map_many():
    data = stream_with_error("lines", "none", "syntax", n=400)
    for fields in ("/id", ["/id", "/big", "/0"], ("/k", "/nope")):
        exp = list(jetjson.loads_many(data, fields=fields, default=-1, batch_size=BATCH))
        identical(jetjson.loads_many(data, fields=fields, default=-1, threads=3, batch_size=BATCH), exp,
                  f"fields={fields}")
        identical(jetjson.map_many(repr, data, fields=fields, default=-1, threads=2, batch_size=BATCH),
                  [repr(v) for v in exp], f"map_many fields={fields}")
    seen = []
    got = jetjson.map_many(lambda d: seen.append(d) or (None if isinstance(d, int) else 1), data, threads=2,
                           drop_none=True, batch_size=BATCH)
    assert seen == list(jetjson.loads_many(data, batch_size=BATCH))  # fn: in order, on this thread
    assert got == [1] * sum(not isinstance(d, int) for d in seen)


def test_exception_from_fn_is_the_first():
    data = stream_with_error("lines", "none", "syntax", n=300)
    calls = []

    def fn(doc):
        calls.append(threading.get_ident())
        if len(calls) == 150:
            raise KeyError("the 150th")
        return doc

    with pytest.raises(KeyError, match="the 150th"):
        jetjson.map_many(fn, data, threads=2, batch_size=BATCH)
    assert len(calls) == 150 and set(calls) == {threading.get_ident()}


def test_inputs_of_every_kind(tmp_path):
    data = stream_with_error("whitespace", "none", "syntax", n=500)
    exp = list(jetjson.loads_many(data, batch_size=BATCH))
    for kind, value in [("str", data.decode()), ("bytearray", bytearray(data)), ("memoryview", memoryview(data))]:
        identical(jetjson.loads_many(value, threads=2, batch_size=BATCH), exp, kind)
    path = tmp_path / "s.ndjson"
    path.write_bytes(data)
    identical(jetjson.load_many_file(str(path), threads=2, batch_size=BATCH), exp, "load_many_file")
    views = jetjson.parse_many_file(str(path), threads=2, batch_size=BATCH)
    identical([plain(v) for v in views], exp, "parse_many_file")
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        identical(jetjson.loads_many(memoryview(m), threads=2, batch_size=BATCH), exp, "mmap")
    # a file object is read on the calling thread: same results
    with open(path, "rb") as f:
        identical(jetjson.loads_many(f, threads=2, batch_size=BATCH), exp, "file object")


def test_views_outlive_the_iterator():
    data = stream_with_error("lines", "none", "syntax", n=300)
    views = jetjson.parse_many(data, threads=3, batch_size=BATCH)
    gc.collect()
    identical([plain(v) for v in views], list(jetjson.loads_many(data, batch_size=BATCH)), "views")


def test_pretty_documents_fall_back():
    rng = random.Random(3)
    data = "".join(json.dumps(sample_doc(rng, i), indent=2) + " " for i in range(300)).encode()
    it = many(data, "whitespace", 2, batch=300)
    identical(drain(it), drain(many(data, "whitespace", batch=300)), "pretty")
    hits, misses, on = it._ahead()
    assert misses >= 16 and not on, (hits, misses, on)  # it gave up reading ahead


def test_many_iterators_at_once():
    streams = [stream_with_error(fmt, where, "syntax", n=200, seed=s)
               for s, (fmt, where) in enumerate([("whitespace", "none"), ("lines", "middle"), ("whitespace", "last"),
                                                 ("lines", "none"), ("whitespace", "straddle"), ("lines", "first")])]
    exp = [drain(many(d, "lines" if k % 2 else "whitespace")) for k, d in enumerate(streams)]
    its = [many(d, "lines" if k % 2 else "whitespace", 2, lazy=k == 3) for k, d in enumerate(streams)]
    got = [[] for _ in its]
    live = set(range(len(its)))
    while live:  # round robin: every iterator has windows in work at once
        for k in sorted(live):
            try:
                v = next(its[k])
                got[k].append(plain(v) if k == 3 else v)
            except StopIteration:
                live.discard(k)
            except ValueError as e:
                got[k].append(e)
                live.discard(k)
    for k in range(len(its)):
        identical(got[k], exp[k], f"stream {k}")


def test_threads_share_the_pool():
    data = stream_with_error("lines", "none", "syntax", n=400)
    exp = list(jetjson.loads_many(data, batch_size=BATCH))
    errors = []

    def work():
        try:
            for _ in range(5):
                identical(jetjson.loads_many(data, threads=2, batch_size=BATCH), exp, "thread")
        except AssertionError as e:  # pragma: no cover - reported below
            errors.append(e)

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors[0]


@pytest.mark.parametrize("lazy", [False, True])
def test_dropped_half_way(lazy):
    # the workers must not write into what the iterator freed (ASan build: JETJSON_SANITIZED)
    for cut in (0, 1, 37, 150):
        data = bytes(stream_with_error("lines", "none", "syntax", n=400))
        it = many(data, "lines", 3, lazy=lazy, batch=256)
        for _ in range(cut):
            next(it)
        before = sys.getrefcount(data)
        del it
        gc.collect()
        assert sys.getrefcount(data) == before - 1  # the iterator let the input go


def test_no_leaks():
    data = stream_with_error("lines", "middle", "json_only", n=200)
    exp = list(jetjson.loads_many(data, batch_size=BATCH))

    def call():
        identical(jetjson.loads_many(data, threads=2, batch_size=BATCH), exp, "leaks")
        it = many(data, "lines", 2)
        next(it)
        del it

    before = sys.getrefcount(data)
    grown = traced_growth(call, 200)
    assert grown < 64 * 1024, f"{grown} bytes kept"
    assert sys.getrefcount(data) == before


# ---- generated streams -------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@hyp_settings(60)
@given(docs=st.lists(json_values, min_size=1, max_size=60),
       fmt=st.sampled_from(["whitespace", "lines"]),
       batch=st.integers(16, 400),
       broken=st.one_of(st.none(), st.tuples(st.integers(0, 59), st.sampled_from(["{", "[1,]", "NaN", "1 2", "]"]))),
       workers=st.integers(1, 3))
def test_generated(docs, fmt, batch, broken, workers):
    texts = [json.dumps(d) for d in docs]
    if broken is not None:
        texts[broken[0] % len(texts)] = broken[1]
    data = "\n".join(texts).encode() + b"\n"
    exp = drain(many(data, fmt, batch=batch))
    same(exp, oracle(data, fmt), f"{fmt} without threads")
    identical(drain(many(data, fmt, workers, batch=batch)), exp, f"{fmt} workers={workers} batch={batch}")


def test_sub_interpreter_smoke():
    si = pytest.importorskip("test_subinterpreters")
    if sys.version_info < (3, 12) or si._interpreters is None:
        pytest.skip("own-GIL interpreters need 3.12+")
    si.run_isolated(
        "import jetjson\n"
        "data = b''.join(b'{\"i\": %d, \"s\": \"x\"}\\n' % i for i in range(5000))\n"
        "got = jetjson.loads_many(data, threads=3, batch_size=4096)\n"
        "assert got == [{'i': i, 's': 'x'} for i in range(5000)], 'threads in a sub-interpreter'\n"
    )


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="no fork()")
def test_fork_with_windows_in_work():
    # the child inherits an iterator whose windows were queued or running on workers it
    # does not have: it must finish the stream (on its own thread) and never hang
    import os
    import signal

    data = stream_with_error("lines", "none", "syntax", n=40000)  # 256 KiB windows, ~0.5 ms each
    exp = drain(many(data, "lines", batch=1 << 18))
    it = many(data, "lines", 3, batch=1 << 18)
    got = [next(it)]  # the first window is read here; the next ones are in work now
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through its exit status
        signal.alarm(60)
        try:
            rest = got + drain(it)
            more = jetjson.loads_many(data, threads=3, batch_size=4096)  # a new pool in the child
            ok = not first_difference(rest, exp) and not first_difference(more, exp)
        except BaseException:
            ok = False
        os._exit(0 if ok else 1)
    identical(got + drain(it), exp, "parent")
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status


def test_lines_longer_than_a_window():
    # records of 300 KB and more on one line among small ones: no window is planned to
    # start inside such a line; each long record costs at most one dropped plan
    rng = random.Random(11)
    small = [json.dumps(sample_doc(rng, i)) for i in range(30000)]
    big = [json.dumps({"rows": [sample_doc(rng, k) for k in range(7000 + 2000 * j)]}) for j in range(3)]
    for at, text in zip((1000, 15000, 29000), big):
        small.insert(at, text)
    data = ("\n".join(small) + "\n").encode()
    assert min(map(len, big)) > 300_000
    import time

    # CPU time of the process (every thread): a window planned inside a long line made a
    # worker walk it string by string, seconds of work; waiting for a worker that the
    # machine's load keeps off the CPU costs wall time but no CPU time
    t0 = time.process_time()
    exp = drain(many(data, "lines", batch=1 << 20))
    t1 = time.process_time()
    it = many(data, "lines", 2, batch=1 << 20)
    identical(drain(it), exp, "long lines")
    t2 = time.process_time()
    assert t2 - t1 < 10 * (t1 - t0) + 1.0, (t2 - t1, t1 - t0)
    hits, misses, _ = it._ahead()
    assert hits > 0 and misses <= len(big), (hits, misses)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads in /proc")
def test_release_stops_the_pool():
    # release() joins the engine's workers; the next threaded stream starts them again
    data = b'{"a": 1}\n' * 100000
    def threads_now():
        return len(os.listdir("/proc/self/task"))
    jetjson.release()
    idle = threads_now()
    assert len(jetjson.loads_many(data, threads=3)) == 100000
    assert threads_now() > idle
    jetjson.release()
    assert threads_now() == idle
    assert jetjson.loads_many(data, threads=3) == jetjson.loads_many(data, threads=1)
