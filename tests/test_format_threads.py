"""threads= of json_to_msgpack(ndjson=True), msgpack_to_json(stream=True) and dumpb_arrow.

The input is cut into parts converted on several threads and joined in order; the result
must be byte for byte the one-thread result, and the one-thread result the oracle's:
msgpack's packer on json.loads of each document (test_msgpack's oracle, which keeps
duplicate keys and turns ints past 64 bits into doubles), msgpack.unpackb written back as
JSON (the same module's oracle), and pyarrow's to_pylist written by orjson for Arrow
(test_arrow_write's expected_ndjson). Small block sizes make many parts. Data: the
corpus's records as NDJSON, generated GitHub events (bench/bench_many.py's generator),
and hypothesis. A bad document in a late part must raise exactly the one-thread error.
"""

import io
import json
import os
import sys

import pytest

msgpack = pytest.importorskip("msgpack")

import jetjson  # noqa: E402
from conftest import corpus_files, hyp_settings, traced_growth  # noqa: E402
from test_msgpack import oracle_json_to_msgpack, oracle_msgpack_to_json  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench"))
from bench_many import make_events_ndjson  # noqa: E402

try:
    from hypothesis import given, strategies as st
except ImportError:  # pragma: no cover
    given = None

THREADS = (1, 2, 3, 8)
BLOCKS = (64, 4096)


def records_of(doc):
    """A corpus document as records: the items of its largest list, else itself."""
    if isinstance(doc, list) and doc:
        return doc
    if isinstance(doc, dict):
        lists = [v for v in doc.values() if isinstance(v, list) and len(v) > 1]
        if lists:
            return max(lists, key=len)
    return [doc]


def corpus_lines():
    lines = []
    for path in corpus_files():
        with open(path, "rb") as f:
            for record in records_of(json.loads(f.read())):
                lines.append(json.dumps(record, ensure_ascii=False).encode())
    return lines


CORPUS = corpus_lines()
EVENTS = make_events_ndjson(0.6)


def ndjson(lines):
    return b"".join(line + b"\n" for line in lines)


def packed_lines(lines):
    return b"".join(oracle_json_to_msgpack(line) for line in lines)


def outcome(fn, *args, **kw):
    try:
        return ("ok", fn(*args, **kw))
    except Exception as e:  # the type and message are compared
        return (type(e), str(e))


def same_for_all_threads(fn, data, blocks=BLOCKS, **kw):
    """fn's outcome, the same for every thread count and block size."""
    want = outcome(fn, data, threads=1, **kw)
    for block in blocks:
        for threads in THREADS:
            got = outcome(fn, data, threads=threads, block_size=block, **kw)
            assert got == want, (threads, block, got[:2] if got[0] != "ok" else "bytes differ")
    return want


# ---- json_to_msgpack(ndjson=True) ------------------------------------------------------


@pytest.mark.parametrize("name, lines", [("corpus", CORPUS), ("events", EVENTS.splitlines())])
def test_json_to_msgpack(name, lines):
    data = ndjson(lines)
    kind, got = same_for_all_threads(jetjson.json_to_msgpack, data, ndjson=True)
    assert kind == "ok"
    assert got == packed_lines(lines)


def test_json_to_msgpack_documents_across_lines():
    # pretty-printed documents are cut inside: the parts fail and one thread redoes it
    lines = [json.dumps(json.loads(line), indent=1).encode() for line in EVENTS.splitlines()[:40]]
    lines += EVENTS.splitlines()[:200]
    kind, got = same_for_all_threads(jetjson.json_to_msgpack, ndjson(lines), ndjson=True)
    assert kind == "ok" and got == packed_lines(lines)


@pytest.mark.parametrize("bad", [b'{"a": [1, 2}', b'{"s": "\\ud800"}', b"[1, 2", b"nul", b'"\x80"'])
@pytest.mark.parametrize("where", [0.1, 0.9, 1.0])
def test_json_to_msgpack_errors(bad, where):
    lines = EVENTS.splitlines()[:300]
    at = min(int(len(lines) * where), len(lines))
    data = ndjson(lines[:at] + [bad] + lines[at:])
    kind, message = same_for_all_threads(jetjson.json_to_msgpack, data, ndjson=True)
    assert kind is ValueError and f"(document {at + 1})" in message


def test_json_to_msgpack_one_document_ignores_threads():
    data = json.dumps([json.loads(line) for line in EVENTS.splitlines()[:100]]).encode()
    want = oracle_json_to_msgpack(data)
    for threads in THREADS:
        assert jetjson.json_to_msgpack(data, threads=threads, block_size=16) == want


# ---- msgpack_to_json(stream=True) ------------------------------------------------------


def json_lines(packed_values):
    return b"".join(oracle_msgpack_to_json(p) + b"\n" for p in packed_values)


@pytest.mark.parametrize("name, lines", [("corpus", CORPUS), ("events", EVENTS.splitlines())])
def test_msgpack_to_json(name, lines):
    values = [oracle_json_to_msgpack(line) for line in lines]
    kind, got = same_for_all_threads(jetjson.msgpack_to_json, b"".join(values), stream=True)
    assert kind == "ok"
    assert got == json_lines(values)


def test_msgpack_to_json_every_type():
    # bin, ext (as null), non-str keys, float32, wide headers: the skip over each
    values = [b"\x01\x02", msgpack.ExtType(5, b"abc"), {1: 2, 1.5: None, True: "t"}, 2**64 - 1, -(2**63),
              "x" * 70000, list(range(70000)), {str(i): i for i in range(20)}, b"y" * 300, 1.5, None]
    packer = msgpack.Packer(use_bin_type=True, use_single_float=True)
    data = b"".join(packer.pack(v) for v in values) * 3
    kind, got = same_for_all_threads(jetjson.msgpack_to_json, data, blocks=(1, 64, 4096), stream=True,
                                     ext_as_null=True)
    assert kind == "ok"
    assert [json.loads(line) for line in got.splitlines()] == [
        json.loads(jetjson.msgpack_to_json(packer.pack(v), ext_as_null=True)) for v in values] * 3


@pytest.mark.parametrize("damage", ["c1", "truncated", "ext", "utf8", "bin"])
@pytest.mark.parametrize("where", [0.1, 0.9])
def test_msgpack_to_json_errors(damage, where):
    values = [oracle_json_to_msgpack(line) for line in EVENTS.splitlines()[:300]]
    at = int(len(values) * where)
    bad = {"c1": b"\xc1", "ext": msgpack.packb(msgpack.ExtType(1, b"z")), "utf8": b"\xa2\xc3\x28",
           "bin": msgpack.packb(b"bin")}
    if damage == "truncated":
        data = b"".join(values[:at]) + values[at][:-3]
    else:
        data = b"".join(values[:at] + [bad[damage]] + values[at:])
    kind, message = same_for_all_threads(jetjson.msgpack_to_json, data, stream=True, binary_as_base64=False)
    assert kind is ValueError
    if damage in ("c1", "ext", "bin"):  # these name the value's first byte
        assert message.endswith(f"(byte {len(b''.join(values[:at]))})")


def test_results_that_outgrow_their_first_buffer():
    # the result buffer is sized from the input; these results are several times larger,
    # so it moves while workers map the pages ahead of it (the old place, then the new)
    rng = __import__("random").Random(5)
    values = [rng.choice([None, 1, -1, True, [], {}]) for _ in range(400_000)]
    packed = b"".join(msgpack.packb(v) for v in values)
    text = b"".join(json.dumps(v, separators=(",", ":")).encode() + b"\n" for v in values)
    assert len(text) > 2 * len(packed)  # the first buffer holds 1.5 times the input
    for threads in (1, 2, 3):
        got = jetjson.msgpack_to_json(packed, stream=True, threads=threads, block_size=1 << 16)
        assert [json.loads(line) for line in got.splitlines()] == values, threads
    floats = b"".join(b"%d.5\n" % (i % 10) for i in range(300_000))  # 4 bytes of JSON, 9 packed
    want = b"".join(oracle_json_to_msgpack(line) for line in floats.splitlines())
    assert len(want) > 2 * len(floats)
    for threads in (1, 2, 3):
        assert jetjson.json_to_msgpack(floats, ndjson=True, threads=threads, block_size=1 << 16) == want, threads


# ---- dumpb_arrow -------------------------------------------------------------------------


def arrow():
    pa = pytest.importorskip("pyarrow")
    pytest.importorskip("pyarrow.json")
    pytest.importorskip("orjson")
    return pa


def events_table(pa, block_size=1 << 16):
    import pyarrow.json as pa_json
    return pa_json.read_json(io.BytesIO(EVENTS), read_options=pa_json.ReadOptions(block_size=block_size))


def test_dumpb_arrow_events():
    pa = arrow()
    from test_arrow_write import expected_ndjson
    table = events_table(pa)
    for data in (table, table.combine_chunks(), table.to_batches()[0]):
        for write_nulls in (True, False):
            kind, got = same_for_all_threads(jetjson.dumpb_arrow, data, blocks=(16, 1000, 1 << 20),
                                             write_nulls=write_nulls)
            assert kind == "ok"
            assert got == expected_ndjson(data, write_nulls)


def test_dumpb_arrow_corpus():
    pa = arrow()
    import pyarrow.json as pa_json
    from test_arrow_write import expected_ndjson
    checked = 0
    for path in corpus_files():
        with open(path, "rb") as f:
            records = records_of(json.loads(f.read()))
        text = ndjson([json.dumps(r, ensure_ascii=False).encode() for r in records])
        try:
            table = pa_json.read_json(io.BytesIO(text)).combine_chunks()
        except pa.ArrowInvalid:
            continue  # not records pyarrow reads
        kind, got = same_for_all_threads(jetjson.dumpb_arrow, table, blocks=(16, 4096))
        assert kind == "ok" and got == expected_ndjson(table)
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("where", [0.1, 0.95])
def test_dumpb_arrow_errors(where):
    pa = arrow()
    import numpy as np
    n = 5000
    bad_row = int(n * where)
    texts = [f"row {i}".encode() for i in range(n)]
    texts[bad_row] = b"a\xe2\x82"  # invalid UTF-8, written only when the row is reached
    offsets = np.cumsum([0] + [len(t) for t in texts]).astype(np.int32)
    strings = pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(offsets.tobytes()),
                                                     pa.py_buffer(b"".join(texts))])
    table = pa.table({"i": pa.array(range(n)), "s": strings})
    for data in (table, pa.Table.from_batches(table.to_batches(max_chunksize=700))):
        kind, message = same_for_all_threads(jetjson.dumpb_arrow, data, blocks=(16, 1000))
        assert kind is ValueError and message.endswith(f"row {bad_row}")


# ---- arguments, references --------------------------------------------------------------


def test_arguments():
    for fn, kw in ((jetjson.json_to_msgpack, {"ndjson": True}), (jetjson.msgpack_to_json, {"stream": True})):
        data = b"1\n" if fn is jetjson.json_to_msgpack else b"\x01"
        for bad in (-1, -(2**70)):
            with pytest.raises(ValueError):
                fn(data, threads=bad, **kw)
        with pytest.raises(TypeError):
            fn(data, threads=1.0, **kw)
        with pytest.raises(ValueError):
            fn(data, block_size=0, **kw)
        assert fn(data, threads=2**70, block_size=2**70, **kw) == fn(data, threads=None, **kw)
    pa = arrow()
    table = pa.table({"a": [1, None]})
    assert jetjson.dumpb_arrow(table, threads=2, block_size=1) == b'{"a":1}\n{"a":null}\n'
    for bad, exc in ((0, ValueError), (-5, ValueError), ("1", TypeError), (True, TypeError)):
        with pytest.raises(exc):
            jetjson.dumpb_arrow(table, block_size=bad)


def test_no_leaks():
    data = ndjson(EVENTS.splitlines()[:200])
    packed = jetjson.json_to_msgpack(data, ndjson=True)
    bad = data + b"[1,\n" + data
    before = (sys.getrefcount(data), sys.getrefcount(packed), sys.getrefcount(bad))

    def run():
        jetjson.json_to_msgpack(data, ndjson=True, threads=3, block_size=512)
        jetjson.msgpack_to_json(packed, stream=True, threads=3, block_size=512)
        with pytest.raises(ValueError):
            jetjson.json_to_msgpack(bad, ndjson=True, threads=2, block_size=512)
        with pytest.raises(ValueError):
            jetjson.msgpack_to_json(packed + b"\xc1" + packed, stream=True, threads=2, block_size=512)

    growth = traced_growth(run, 200)
    assert growth < 64 * 1024, growth
    assert (sys.getrefcount(data), sys.getrefcount(packed), sys.getrefcount(bad)) == before


def test_no_leaks_arrow():
    pa = arrow()
    table = events_table(pa).slice(0, 300).combine_chunks()
    before = sys.getrefcount(table)

    def run():
        jetjson.dumpb_arrow(table, threads=3, block_size=2048)

    growth = traced_growth(run, 100)
    assert growth < 64 * 1024, growth
    assert sys.getrefcount(table) == before
    pool_before = pa.total_allocated_bytes()
    for _ in range(20):
        run()
    assert pa.total_allocated_bytes() <= pool_before


# ---- hypothesis -------------------------------------------------------------------------

if given is not None:
    scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
               | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
    values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                          | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=12)

    @hyp_settings(60)
    @given(st.lists(values, min_size=1, max_size=40), st.sampled_from((1, 8, 40)),
           st.sampled_from(THREADS[1:]), st.sampled_from([b"\n", b" \n", b"\n\n", b"\r\n"]))
    def test_hypothesis_msgpack(docs, block, threads, sep):
        lines = [json.dumps(d, ensure_ascii=False).encode() for d in docs]
        data = b"".join(line + sep for line in lines)
        packed = jetjson.json_to_msgpack(data, ndjson=True, threads=threads, block_size=block)
        assert packed == jetjson.json_to_msgpack(data, ndjson=True, threads=1)
        assert packed == packed_lines(lines)
        text = jetjson.msgpack_to_json(packed, stream=True, threads=threads, block_size=block)
        assert text == jetjson.msgpack_to_json(packed, stream=True, threads=1)
        assert text == json_lines([oracle_json_to_msgpack(line) for line in lines])

    @hyp_settings(30)
    @given(st.lists(st.fixed_dictionaries({"i": st.integers(-(2**63), 2**63 - 1) | st.none(),
                                           "s": st.text(max_size=8) | st.none(),
                                           "l": st.lists(st.floats(allow_nan=False), max_size=3)}),
                    min_size=1, max_size=60),
           st.integers(1, 200), st.sampled_from(THREADS[1:]))
    def test_hypothesis_arrow(rows, block, threads):
        pa = arrow()
        from test_arrow_write import expected_ndjson
        table = pa.Table.from_pylist(rows, schema=pa.schema([("i", pa.int64()), ("s", pa.string()),
                                                             ("l", pa.list_(pa.float64()))]))
        got = jetjson.dumpb_arrow(table, threads=threads, block_size=block)
        assert got == jetjson.dumpb_arrow(table, threads=1) == expected_ndjson(table)


def test_concurrent_callers_share_the_pool():
    # several Python threads converting at once (GIL released): each gets its own bytes
    import threading
    lines = EVENTS.splitlines()
    data = ndjson(lines)
    want = packed_lines(lines)
    text = json_lines([oracle_json_to_msgpack(line) for line in lines])
    bad = data + b"[1,\n" + data
    results = []

    def work(k):
        for _ in range(10):
            results.append(jetjson.json_to_msgpack(data, ndjson=True, threads=2 + k % 3, block_size=4096) == want)
            results.append(jetjson.msgpack_to_json(want, stream=True, threads=2 + k % 3, block_size=4096) == text)
            try:
                jetjson.json_to_msgpack(bad, ndjson=True, threads=3, block_size=4096)
                results.append(False)
            except ValueError as e:
                results.append(f"(document {len(lines) + 1})" in str(e))

    workers = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(results) == 120 and all(results)
