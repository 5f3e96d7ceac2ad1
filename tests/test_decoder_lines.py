"""Decoder.feed reads the whole lines between a chunk's first and last line breaks where
they are, without copying them (read-only chunks of at least a few hundred bytes, in the
whitespace and lines formats). Chunks of many lines against json's reading of the same
stream (test_many's oracle): NDJSON files, documents written over many lines that go on
past a chunk's last line break, errors and bad bytes inside the lines read in place,
chunks of every buffer kind, fields= and type=."""

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

try:
    from conftest import data_params, hyp_settings, read_bytes
    from test_many import NDJSON, json_values, oracle, run, run_decoder, same
except ImportError:  # tests/ turned into a package
    from .conftest import data_params, hyp_settings, read_bytes
    from .test_many import NDJSON, json_values, oracle, run, run_decoder, same

# chunk sizes (cycled): big chunks of many lines, sizes around the in-place minimum (256
# bytes between the first and the last line break), and odd sizes that cut anywhere
SIZES = [[65536], [4096, 777], [300, 1000, 257], [100_000, 3]]

CORPUS = data_params("corpus")


def corpus_records():
    """The corpus documents' records (array elements and object values) as NDJSON
    lines: about 11 MB of varied documents, cut to the first 600 KB."""
    lines = []
    for p in (p.values[0] for p in CORPUS):
        if p is None:
            continue
        doc = json.loads(read_bytes(p))
        items = doc if isinstance(doc, list) else list(doc.values()) if isinstance(doc, dict) else [doc]
        lines += [json.dumps(x, ensure_ascii=False).encode() for x in items]
    kept, size = [], 0
    for line in lines:
        if size > 600_000:
            break
        kept.append(line + b"\n")
        size += len(line) + 1
    return b"".join(kept)


@pytest.mark.parametrize("path", NDJSON)
@pytest.mark.parametrize("fmt", ["whitespace", "lines"])
def test_ndjson_files_in_chunks(path, fmt):
    data = read_bytes(path)
    exp = oracle(data, fmt)
    for sizes in SIZES:
        same(run_decoder(data, sizes, format=fmt), exp, f"{fmt} {sizes}")


def test_corpus_records_in_chunks():
    data = corpus_records()
    if not data:
        pytest.skip("no corpus")
    for fmt in ("whitespace", "lines"):
        exp = oracle(data, fmt)
        for sizes in SIZES:
            same(run_decoder(data, sizes, format=fmt), exp, f"{fmt} {sizes}")


@pytest.mark.parametrize("indent", [1, 4])
def test_documents_over_many_lines(indent):
    # whitespace format, documents written with indent: one begun among the lines read
    # in place goes on past the chunk's last line break, and is read from the copy
    records = [json.loads(x) for x in read_bytes(NDJSON[0].values[0]).splitlines()[:300]] \
        if NDJSON[0].values[0] else [{"a": [i, {"b": "x" * i}]} for i in range(300)]
    data = b"\n".join(json.dumps(r, indent=indent, ensure_ascii=False).encode() for r in records) + b"\n"
    exp = oracle(data)
    for sizes in SIZES + [[50_000]]:
        same(run_decoder(data, sizes), exp, f"indent={indent} {sizes}")


def test_errors_inside_lines_read_in_place():
    # a document broken in the middle of a big chunk: the documents before it, then
    # json's error at its place in the whole input (pos, lineno, colno)
    lines = [json.dumps({"i": i, "s": "é" * (i % 5), "v": [i, None, True]}, ensure_ascii=False).encode()
             for i in range(2000)]
    data = b"\n".join(lines) + b"\n"
    rng = random.Random(7)
    # (at ASCII bytes: a line break in the middle of a character is the bad bytes'
    # error or json's by rules test_many's oracle does not model)
    spots = [at for at in rng.sample(range(300, len(data) - 300), 40) if data[at] < 0x80][:24]
    for at in sorted(spots):
        for junk in (b"x", b"}", b"\xff", b"\n"):
            broken = data[:at] + junk + data[at + 1:]
            for fmt in ("whitespace", "lines"):
                exp = oracle(broken, fmt)
                for sizes in ([65536], [4096, 777]):
                    same(run_decoder(broken, sizes, format=fmt), exp, f"{fmt} {junk!r} at {at} {sizes}")


@pytest.mark.parametrize("kind", [bytes, bytearray, memoryview, "str", "offset view"])
def test_chunk_kinds(kind):
    # read-only chunks (bytes, a view of bytes) are read in place; a bytearray and str
    # chunks are copied: the same documents either way
    data = b"".join(json.dumps({"k": i, "t": "\u20ac" * (i % 3)}, ensure_ascii=False).encode() + b"\n"
                    for i in range(3000))
    exp = oracle(data)
    dec = jetjson.Decoder()
    got = []
    for at in range(0, len(data), 5000):
        piece = data[at:at + 5000]
        if kind == "str":
            # cut where a character ends
            piece = piece.decode("utf-8", "ignore")
        elif kind == "offset view":
            piece = memoryview(b"zz" + piece)[2:]
        elif kind is not bytes:
            piece = kind(piece)
        got += dec.feed(piece)
    got += dec.close()
    if kind == "str":
        exp = oracle(b"".join(data[at:at + 5000].decode("utf-8", "ignore").encode()
                              for at in range(0, len(data), 5000)))
    same(got, exp, str(kind))


def test_fields_and_type_in_place():
    data = b"".join(json.dumps({"a": i, "b": [i, "x"], "c": {"d": i % 7}}).encode() + b"\n" for i in range(4000))
    for kw in ({"fields": ["/a", "/c/d"]}, {"fields": "/b/0"}, {"type": dict}):
        want = run(data, **kw)
        dec = jetjson.Decoder(**kw)
        got = []
        for at in range(0, len(data), 8192):
            got += dec.feed(data[at:at + 8192])
        got += dec.close()
        assert got == want, kw


@hyp_settings(150)
@given(st.lists(json_values, min_size=1, max_size=40), st.lists(st.sampled_from(["\n", " \n", "\n\n", "\r\n"]),
                                                                  min_size=1, max_size=5),
       st.lists(st.integers(256, 3000), min_size=1, max_size=4), st.booleans(), st.data())
def test_generated_lines_in_chunks(values, seps, sizes, broken, data):
    text = b"".join(json.dumps(v).encode() + seps[i % len(seps)].encode() for i, v in enumerate(values)) * 8
    if broken:
        at = data.draw(st.integers(0, len(text) - 1))
        junk = data.draw(st.sampled_from([b"x", b"]", b"}", b",", b'"', b"\\", b"\n", b"[", b"\xff"]))
        text = text[:at] + junk + text[at + 1:]
    for fmt in ("whitespace", "lines"):
        same(run_decoder(text, sizes, format=fmt), oracle(text, fmt), f"{fmt} {sizes}")


def test_typed_documents_in_place():
    # type=: the documents read in place are decoded as loads_many(type=) decodes them,
    # and a ValidationError names the same document (counted across the chunks)
    import dataclasses

    @dataclasses.dataclass
    class Row:
        i: int
        s: str

    lines = [json.dumps({"i": i, "s": "é" * (i % 4), "skip": [i] * (i % 9)}, ensure_ascii=False).encode()
             for i in range(3000)]
    data = b"\n".join(lines) + b"\n"
    bad = data.replace(b'{"i": 2345,', b'{"i": "2345",')
    for stream in (data, bad):
        want = run(stream, type=Row)
        for sizes in SIZES:
            got = run_decoder(stream, sizes, type=Row)
            assert [repr(x) for x in got] == [repr(x) for x in want], sizes
