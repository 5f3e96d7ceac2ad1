"""jetjson.Decoder.feed over chunks cut anywhere, down to one byte: the documents a
stream holds, against json.loads of each document's text as the stream was written here
(its split known, not found), in every format; and a broken stream's outcome (the
documents before the error, then json's error at its place in the whole input) against
one feed of the whole buffer (checked against json in test_many)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

try:
    from conftest import first_difference, hyp_settings, traced_growth
except ImportError:  # tests/ turned into a package
    from .conftest import first_difference, hyp_settings, traced_growth

FORMATS = ["whitespace", "lines", "json_seq", "comma", "array"]

# strings that stress the gate: backslash runs before quotes, brackets and quotes inside
# strings, control characters, non-ASCII, lone surrogates
tricky_text = st.text(alphabet=st.sampled_from(list('\\"[]{}ab ,:\n\t\x01é€😀') + ["\ud800"]), max_size=12)
scalars = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False, allow_infinity=False)
           | tricky_text)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) |
                      st.dictionaries(tricky_text, inner, max_size=4), max_leaves=16)


def write_stream(docs, fmt, ensure_ascii, indent):
    """The stream's bytes, the text of each document in it, and for each document the
    length of the prefix that completes it (its last byte and the byte after it, or for
    json_seq the next record's RS), all written here."""
    texts = [json.dumps(v, ensure_ascii=ensure_ascii, indent=None if fmt == "lines" else indent) for v in docs]
    head, tail = {"json_seq": (b"\x1e", b"\n"), "array": (b"", b", ")}.get(fmt, (b"", b""))
    seps = {"whitespace": [b" ", b"\n"], "lines": [b"\n"], "comma": [b",\n"]}.get(fmt, [tail])
    data, ready = bytearray(b"[" if fmt == "array" else b""), []
    for i, t in enumerate(texts):
        data += head + t.encode("utf-8", "surrogatepass")
        ready.append(len(data) + 1)
        data += seps[i % len(seps)]
    if fmt == "array":
        data[len(data) - (len(tail) if texts else 0):] = b"]"
    elif fmt == "comma" and texts:
        del data[-2:]  # no comma after the last
    if fmt == "json_seq":
        ready = [r + 1 for r in ready[:-1]] + [len(data) + 1] if ready else []
    return bytes(data), texts, ready


def cut(data, points):
    points = sorted({p % (len(data) + 1) for p in points})
    return [data[a:b] for a, b in zip([0] + points, points + [len(data)])]


def fed(pieces, fmt, returned=None):
    """(documents, error) of the pieces fed to one Decoder, then closed; `returned` gets
    (bytes fed, documents so far) after each feed."""
    dec = jetjson.Decoder(format=fmt)
    got, fed_bytes = [], 0
    try:
        for piece in pieces:
            got += dec.feed(piece)
            fed_bytes += len(piece)
            if returned is not None:
                returned.append((fed_bytes, len(got)))
        got += dec.close()
    except (ValueError, RecursionError) as e:
        return got + list(getattr(e, "documents", [])), e
    return got, None


def assert_prompt(returned, ready, what):
    # each feed gives every document its bytes complete (the gate holds none back)
    for fed_bytes, count in returned:
        due = sum(1 for r in ready if r <= fed_bytes)
        assert count >= due, f"{what}: {count} documents after {fed_bytes} bytes, {due} were complete"


def whole(data, fmt):
    """The whole buffer in one feed (loads_many would first guess the encoding, as
    json.loads does: a leading NUL reads as UTF-16; a Decoder takes UTF-8)."""
    return fed([data], fmt)


def error_key(e):
    if e is None:
        return None
    if isinstance(e, UnicodeDecodeError):
        # its object and offsets are those of the bytes still held, which differ with the
        # cuts (as in test_many, where only its type is checked): its reason must agree
        return type(e), e.reason
    return type(e), str(e), getattr(e, "pos", None), getattr(e, "lineno", None), getattr(e, "colno", None)


def assert_documents(got, expected, what):
    assert len(got) == len(expected), f"{what}: {len(got)} documents, expected {len(expected)}"
    for k, (g, e) in enumerate(zip(got, expected)):
        diff = first_difference(g, e)
        assert diff is None, f"{what}: document {k}: {diff}"


@hyp_settings(300)
@given(st.lists(values, max_size=6), st.sampled_from(FORMATS), st.booleans(), st.sampled_from([None, 1]),
       st.lists(st.integers(0, 10**6), max_size=12))
def test_random_cuts(docs, fmt, ensure_ascii, indent, points):
    data, texts, ready = write_stream(docs, fmt, ensure_ascii, indent)
    expected = [json.loads(t) for t in texts]
    returned = []
    got, err = fed(cut(data, points), fmt, returned)
    assert err is None, f"{fmt} {data[:80]!r}: {err!r}"
    assert_documents(got, expected, f"{fmt} {data[:80]!r}")
    assert_prompt(returned, ready, f"{fmt} {data[:80]!r}")


@hyp_settings(60)
@given(st.lists(values, min_size=1, max_size=3), st.sampled_from(FORMATS), st.booleans())
def test_one_byte_chunks(docs, fmt, ensure_ascii):
    data, texts, ready = write_stream(docs, fmt, ensure_ascii, 1)
    returned = []
    got, err = fed([data[i:i + 1] for i in range(len(data))], fmt, returned)
    assert err is None, f"{fmt} {data[:80]!r}: {err!r}"
    assert_documents(got, [json.loads(t) for t in texts], f"{fmt} {data[:80]!r}")
    assert_prompt(returned, ready, f"{fmt} {data[:80]!r}")


@hyp_settings(300)
@given(st.lists(values, min_size=1, max_size=4), st.sampled_from(FORMATS), st.data())
def test_errors_anywhere(docs, fmt, data):
    text, _, _ = write_stream(docs, fmt, True, None)
    # the array format's opening bracket stays: see test_array_decided_by_its_first_chunk
    at = data.draw(st.integers(1 if fmt == "array" else 0, len(text) - 1))
    junk = data.draw(st.sampled_from([b"x", b"]", b"}", b",", b":", b'"', b"\\", b"1", b"\n", b"[", b"{", b"\xff",
                                      b"\x00", b" "]))
    broken = text[:at] + junk + text[at + 1:]
    points = data.draw(st.lists(st.integers(0, len(broken)), max_size=8))
    want_docs, want_err = whole(broken, fmt)
    for pieces in (cut(broken, points), [broken[i:i + 1] for i in range(len(broken))]):
        got, err = fed(pieces, fmt)
        assert error_key(err) == error_key(want_err), f"{fmt} {broken!r} in {len(pieces)} pieces"
        assert_documents(got, want_docs, f"{fmt} {broken!r} in {len(pieces)} pieces")



NOT_ARRAYS = [b"1null]", b"1", b" 12.5e3  x", b"tru", b"true false", b'"abc', b'"ab\\u12"]', b'{"a": [1, 2]}',
              b'{"a": [1, 2]} [3]', b"-Infinity,", b'"\\ud83d\\ude00" 7', b"nul", b"{" * 40 + b"1",
              b'{"k": "' + b"x" * 100 + b'", "n": 1e' + b"9" * 30 + b'} ]', b"  \n 0 0" + b" " * 50 + b"]"]


@pytest.mark.parametrize("data", NOT_ARRAYS)
def test_array_that_is_no_array_gives_the_whole_inputs_error(data):
    # json's verdict on the whole input may rest on bytes that come later (a first chunk
    # that is one scalar, a keyword cut short): the Decoder waits for them
    try:
        list(jetjson.loads_many(data, format="array"))
    except ValueError as e:
        want = error_key(e)
    try:
        json.loads(data)
    except ValueError as e:  # json's own error for the whole input, where it has one
        assert want[1:] == error_key(e)[1:]
    assert want is not None and error_key(whole(data, "array")[1]) == want
    for cut in range(len(data) + 1):
        assert error_key(fed([data[:cut], data[cut:]], "array")[1]) == want, cut
    assert error_key(fed([data[i:i + 1] for i in range(len(data))], "array")[1]) == want


@pytest.mark.parametrize("fmt", ["whitespace", "array", "comma"])
def test_big_documents_in_small_chunks(fmt):
    # documents far longer than a chunk, with escapes and backslash runs across every
    # chunk boundary: each comes out whole, from the chunk that ends it
    doc = {"s": ["\\" * k + '"]}' + "x" * k for k in range(300)], "n": [[[i]] for i in range(2000)]}
    docs = [doc, "\\\\\"", 5, doc]
    data, texts, _ = write_stream(docs, fmt, False, None)
    for size in (1, 63, 64, 65, 4096):
        dec = jetjson.Decoder(format=fmt)
        got = []
        for at in range(0, len(data), size):
            got += dec.feed(data[at:at + size])
        got += dec.close()
        assert_documents(got, [json.loads(t) for t in texts], f"{fmt} chunks of {size}")


def test_error_in_a_long_document_is_raised_before_close():
    # an error inside a document that never closes: raised once the bytes after it have
    # grown enough, not only at close()
    data = b"[1,,2" + b", 3" * (12 << 20)
    dec = jetjson.Decoder()
    with pytest.raises(jetjson.JSONDecodeError) as info:
        for at in range(0, len(data), 1 << 20):
            dec.feed(data[at:at + (1 << 20)])
    assert (info.value.msg, info.value.pos) == ("Expecting value", 3)


def test_feed_holds_no_references():
    # 200 Decoders fed a big document in chunks: no memory kept, the chunks unreferenced
    import sys
    doc = json.dumps([{"k": i, "s": "a\\\"b" * 3} for i in range(3000)]).encode()
    chunks = [doc[at:at + 1000] for at in range(0, len(doc), 1000)]
    before = [sys.getrefcount(c) for c in chunks]

    def feed_all():
        dec = jetjson.Decoder()
        got = []
        for c in chunks:
            got += dec.feed(c)
        return got + dec.close()

    assert feed_all() == [json.loads(doc)]
    assert traced_growth(feed_all) < 64 * 1024
    assert [sys.getrefcount(c) for c in chunks] == before


@pytest.mark.parametrize("fmt", FORMATS)
def test_empty_chunks_first(fmt):
    # an empty chunk starves the decoder before the first document (before format='array'
    # has its '['): the next chunk still gives what it completes
    data, texts, ready = write_stream([None, [1, "\\\""], {"a": 2}], fmt, True, None)
    dec = jetjson.Decoder(format=fmt)
    assert dec.feed(b"") == [] and dec.feed(b"") == []
    got = dec.feed(data[:ready[1]])
    assert got == [json.loads(t) for t in texts[:2]]
