"""type= on streams: loads_many, map_many, load_many_file and Decoder.feed/close.

Oracle: msgspec, one document at a time (``msgspec.json.decode(doc, type=T)``) for the
values, and ``msgspec.json.Decoder(T).decode_lines`` for the wording and path of a
validation error (the document's number first: ``$[2].id``); json's errors for malformed
documents are those of the untyped stream (``loads_many`` without a type), itself
tested against json.loads.
"""

import decimal
import io
import json
import sys
from dataclasses import dataclass
from typing import Dict, List, Optional, TypedDict

import pytest

import jetjson
from conftest import DATA_DIR, hyp_settings, traced_growth

msgspec = pytest.importorskip("msgspec")

from test_typed import GhEvent, Repo, User, _value_for, type_trees  # noqa: E402


@dataclass
class Point:
    x: int
    y: float = 0.0


class Movie(TypedDict):
    title: str
    year: int


def expected_docs(docs, t):
    return [msgspec.json.decode(d, type=t) for d in docs]


def outcome(fn):
    try:
        return ("ok", fn())
    except (jetjson.ValidationError, msgspec.ValidationError) as e:
        return ("invalid", str(e))


def stream_outcome(data, t, **kw):
    """The documents before the first error, and the error (type, message) or None."""
    got = []
    try:
        for v in jetjson.loads_many(data, type=t, **kw):
            got.append(v)
    except Exception as e:  # noqa: BLE001 - compared as a whole below
        return got, (type(e).__name__, str(e))
    return got, None


def lines_oracle(lines, t):
    """What msgspec says of the same lines: the values decoded one by one, and the error
    of decode_lines (the same one, with the document's number in the path)."""
    values = []
    for line in lines:
        try:
            values.append(msgspec.json.decode(line, type=t))
        except msgspec.ValidationError:
            with pytest.raises(msgspec.ValidationError) as info:
                msgspec.json.Decoder(t).decode_lines(b"\n".join(lines))
            return values, ("ValidationError", str(info.value))
    return values, None


DOCS = [
    (Point, [b'{"x": 1, "y": 2.5}', b'{"x": 2}', b'{"y": 1, "x": -3, "z": [1, {"a": 2}]}']),
    (Movie, [b'{"title": "a", "year": 1999}', b'{"year": 2000, "title": "b", "extra": null}']),
    (List[int], [b"[1, 2, 3]", b"[]", b"[4]"]),
    (Dict[str, Optional[Point]], [b'{"a": {"x": 1}, "b": null}', b"{}"]),
    (int, [b"1", b"2", b"-3"]),
    (str, [b'"a"', b'"\\u00e9\\ud83d\\ude00"']),
    (Repo, [b'{"id": 1, "name": "n", "owner": {"id": 2, "login": "o"}, "topics": ["a"]}'] * 3),
]


@pytest.mark.parametrize("t,docs", DOCS, ids=[repr(t) for t, _ in DOCS])
@pytest.mark.parametrize("fmt", ["whitespace", "lines", "json_seq", "comma", "array"])
def test_formats_like_msgspec_per_document(t, docs, fmt):
    sep = {"whitespace": b"\n", "lines": b"\n", "json_seq": b"\n\x1e", "comma": b",", "array": b","}[fmt]
    data = sep.join(docs)
    if fmt == "json_seq":
        data = b"\x1e" + data
    if fmt == "array":
        data = b"[" + data + b"]"
    want = expected_docs(docs, t)
    assert list(jetjson.loads_many(data, type=t, format=fmt)) == want
    assert list(jetjson.loads_many(data.decode(), type=t, format=fmt)) == want
    assert list(jetjson.loads_many(io.BytesIO(data), type=t, format=fmt, batch_size=7)) == want
    assert jetjson.map_many(lambda v: (type(v), v), data, type=t, format=fmt) == [(type(v), v) for v in want]
    assert jetjson.loads_many(data, type=t, format=fmt, threads=2) == want
    for step in (1, 5):  # fed in chunks, a Decoder gives the same documents
        dec = jetjson.Decoder(type=t, format=fmt)
        fed = []
        for i in range(0, len(data), step):
            fed += dec.feed(data[i:i + step])
        assert fed + dec.close() == want


def test_values_are_the_types_instances():
    got = list(jetjson.loads_many(b'{"x": 1}\n{"x": 2, "y": 3}', type=Point))
    assert [type(p) for p in got] == [Point, Point]
    assert got[1].y == 3.0 and type(got[1].y) is float


def test_validation_error_names_the_document_like_decode_lines():
    lines = [b'{"x": 1}', b'{"x": 2}', b'{"x": "3"}', b'{"x": 4}']
    got, err = stream_outcome(b"\n".join(lines), Point)
    values, ref = lines_oracle(lines, Point)
    assert got == values
    assert err == ref == ("ValidationError", "Expected `int`, got `str` - at `$[2].x`")
    # an error at a document's root has the number as its whole path
    got, err = stream_outcome(b'1\n2\n"x"', int)
    assert got == [1, 2] and err == ("ValidationError", "Expected `int`, got `str` - at `$[2]`")


def test_error_kinds_like_decode_lines():
    cases = [
        (Point, [b'{"x": 1}', b'{"y": 1}']),  # missing field
        (Movie, [b'{"title": "a", "year": 1}', b'{"title": 1, "year": 1}']),
        (List[int], [b"[1]", b'[1, "a"]']),
        (Dict[str, int], [b'{"a": 1}', b'{"a": []}']),
        (Dict[int, int], [b'{"1": 1}', b'{"x": 1}']),  # in a key
        (Repo, [b'{"id": 1, "name": "n", "owner": {"id": "2", "login": "o"}}']),
        (User, [b"[]"]),
    ]
    for t, lines in cases:
        got, err = stream_outcome(b"\n".join(lines), t)
        assert (got, err) == lines_oracle(lines, t), t


def test_forbid_unknown_fields():
    data = b'{"x": 1}\n{"x": 1, "q": 2}\n'
    got, err = stream_outcome(data, Point, forbid_unknown_fields=True)
    assert got == [Point(1)]
    assert err == ("ValidationError", "Object contains unknown field `q` - at `$[1]`")
    assert list(jetjson.loads_many(data, type=Point)) == [Point(1), Point(1)]


def test_malformed_document_is_jsondecodeerror_after_the_typed_ones():
    data = b'{"x": 1}\n{"x": 2}\n{"x": }\n'
    typed, terr = stream_outcome(data, Point)
    plain, perr = stream_outcome(data, None)
    assert typed == [Point(1), Point(2)] and len(plain) == 2
    assert terr == perr and terr[0] == "JSONDecodeError"


def test_documents_only_json_takes():
    # NaN and Infinity are json's, read by json then converted, in the stream's count
    got = list(jetjson.loads_many(b"[1.5] [NaN] [Infinity] [2]", type=List[float]))
    assert repr(got) == repr([[1.5], [float("nan")], [float("inf")], [2.0]])
    _, err = stream_outcome(b"1 NaN", int)
    assert err == ("ValidationError", "Expected `int`, got `float` - at `$[1]`")
    # a Decimal reads each document's digits exactly
    docs = [b"0.1000000000000000000001", b"1e400", b"3", b"[2.00000000000000000000001]"]
    t = decimal.Decimal | List[decimal.Decimal]
    for fmt, data in [("whitespace", b"\n".join(docs)), ("lines", b"\n".join(docs)),
                      ("json_seq", b"".join(b"\x1e" + d + b"\n" for d in docs)), ("comma", b",".join(docs))]:
        got = list(jetjson.loads_many(data, type=t, format=fmt))
        assert list(map(repr, got)) == list(map(repr, expected_docs(docs, t))), fmt


def test_decoder_feed_and_close():
    lines = [json.dumps({"x": i, "y": i / 2, "pad": "z" * (i % 7)}).encode() for i in range(50)]
    data = b"\n".join(lines)
    want = expected_docs(lines, Point)
    for step in (1, 3, 17, 1000):
        dec = jetjson.Decoder(type=Point)
        got = []
        for i in range(0, len(data), step):
            got += dec.feed(data[i:i + step])
        got += dec.close()
        assert got == want, step
        assert dec.decode(lines[3]) == want[3]  # decode still takes one document


def test_decoder_feed_error_counts_documents_across_chunks():
    dec = jetjson.Decoder(type=Point)
    assert dec.feed(b'{"x": 1}\n{"x"') == [Point(1)]
    assert dec.feed(b': 2}\n') == [Point(2)]
    with pytest.raises(jetjson.ValidationError, match=r"^Expected `int`, got `null` - at `\$\[2\]\.x`$"):
        dec.feed(b'{"x": null}\n')


def test_load_many_file(tmp_path):
    lines = [b'{"x": %d}' % i for i in range(100)]
    path = tmp_path / "points.ndjson"
    path.write_bytes(b"\n".join(lines) + b"\n")
    assert list(jetjson.load_many_file(path, type=Point)) == expected_docs(lines, Point)
    assert jetjson.load_many_file(str(path), type=Point, threads=0) == expected_docs(lines, Point)


def test_gh_events_like_msgspec():
    if DATA_DIR is None:
        pytest.skip("no test data")
    with open(f"{DATA_DIR}/corpus/github_events.json", "rb") as f:
        events = json.loads(f.read())
    lines = [json.dumps(e).encode() for e in events]
    data = b"\n".join(lines)
    assert list(jetjson.loads_many(data, type=GhEvent)) == msgspec.json.Decoder(GhEvent).decode_lines(data)


def test_type_refused_with_fields_or_lazy():
    with pytest.raises(ValueError):
        jetjson.loads_many(b"1", type=int, fields="/a")
    with pytest.raises(ValueError):
        jetjson.map_many(repr, b"1", type=int, lazy=True)
    with pytest.raises(ValueError):
        jetjson.Decoder(type=int, fields="/a")
    with pytest.raises(TypeError):
        jetjson.loads_many(b"1", type=object())  # not a type
    with pytest.raises(TypeError):
        jetjson._jetjson.Decoder(int)._attach(object())


ESCAPED_DOCS = [b'{"title": "a\\"b\\u00e9", "year": 1}', b'{"ti\\u0074le": "x", "year": 2}',
                b'{"extra": "\\t", "year": 3, "title": "\\ud83d\\ude00"}', b'{"title": "plain", "year": -4}']


@pytest.mark.parametrize("fmt", ["whitespace", "lines"])
def test_escapes_and_refusals_in_one_window(fmt):
    # the window's index serves every document (escaped keys and values included); a
    # bad escape or a grammar error anywhere fails its document as without type=
    data = b"\n".join(ESCAPED_DOCS)
    want = expected_docs(ESCAPED_DOCS, Movie)
    for batch in (16, 1 << 20):
        assert list(jetjson.loads_many(data, type=Movie, format=fmt, batch_size=batch)) == want
        assert list(jetjson.loads_many(io.BytesIO(data), type=Movie, format=fmt, batch_size=batch)) == want
    for bad in (b'{"title": "\\x", "year": 5}', b'{"title": "a", "year": }', b'{"title": "a\tb", "year": 5}',
                b'{"title": "\xff", "year": 5}'):
        lines = ESCAPED_DOCS[:2] + [bad] + ESCAPED_DOCS[2:]
        typed, terr = stream_outcome(b"\n".join(lines), Movie, format=fmt)
        plain, perr = stream_outcome(b"\n".join(lines), None, format=fmt)
        assert typed == want[:2] and len(plain) == 2
        assert terr == perr and terr is not None


def test_untyped_stream_unchanged():
    assert list(jetjson.loads_many(b'{"x": 1} [2]', type=None)) == [{"x": 1}, [2]]


try:
    from hypothesis import given, strategies as st
except ImportError:  # pragma: no cover
    given = None

if given is not None:
    @hyp_settings(150)
    @given(type_trees, st.data())
    def test_generated_streams_like_msgspec(t, data):
        n = data.draw(st.integers(1, 5))
        lines = [json.dumps(_value_for(t, data.draw)).encode() for _ in range(n)]
        got, err = stream_outcome(b"\n".join(lines), t)
        values, ref = lines_oracle(lines, t)
        assert repr(got) == repr(values)
        assert err == ref


# ---- references and memory -------------------------------------------------------------

def test_no_leaks():
    # (typed streams from file objects: tests/test_many_files.py's leak test)
    good = b'{"x": 1, "y": 2, "skip": [1, {"a": "b"}]}\n' * 20
    bad = good + b'{"x": "1"}\n'
    nan = b"[NaN]\n[1]\n"
    dec = jetjson.Decoder(type=Point)

    def run():
        list(jetjson.loads_many(good, type=Point))
        list(jetjson.loads_many(nan, type=List[float]))
        try:
            list(jetjson.loads_many(bad, type=Point))
        except jetjson.ValidationError:
            pass
        dec.feed(good[:30])
        dec.feed(good[30:])

    assert min(traced_growth(run, repeat=200) for _ in range(2)) < 12000


def test_refcounts_of_inputs():
    data = b'{"x": 1}\n{"x": 2}\n'
    t = Point
    # compiled once before counting: the type cache keeps a few references to Point, and
    # other tests may have made the cache start over since Point was last compiled
    list(jetjson.loads_many(data, type=t))
    before = (sys.getrefcount(data), sys.getrefcount(t))
    for _ in range(200):
        list(jetjson.loads_many(data, type=t))
        try:
            list(jetjson.loads_many(data + b'{"x": null}', type=t))
        except jetjson.ValidationError:
            pass
    assert (sys.getrefcount(data), sys.getrefcount(t)) == before


def test_threads_share_a_decoder_and_streams():
    import threading

    lines = [b'{"x": %d, "y": %d.5, "skip": {"a": [1, 2]}}' % (i, i) for i in range(300)]
    data = b"\n".join(lines)
    want = expected_docs(lines, Point)
    dec = jetjson.Decoder(Point)
    results, errors = [], []

    def work():
        try:
            for _ in range(5):
                results.append([dec.decode(x) for x in lines] == want)
                results.append(list(jetjson.loads_many(data, type=Point, batch_size=997)) == want)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 40 and all(results)


def test_subinterpreter_streams_with_types_of_their_own():
    si = pytest.importorskip("test_subinterpreters")  # its run_isolated
    if sys.version_info < (3, 12) or si._interpreters is None:
        pytest.skip("own-GIL interpreters need 3.12+")
    script = """if 1:
        import dataclasses, typing, jetjson
        @dataclasses.dataclass
        class P:
            user_id: int
        got = list(jetjson.loads_many(b'{"userId": 1}\\n{"userId": 2}', type=P, rename="camel"))
        assert got == [P(1), P(2)], got
        dec = jetjson.Decoder(type=P, rename="camel")
        assert dec.feed(b'{"userId": 3}\\n') == [P(3)]
        try:
            list(jetjson.loads_many(b'{"userId": 1} {"userId": "x"}', type=P, rename="camel"))
        except jetjson.ValidationError as e:
            assert str(e) == "Expected `int`, got `str` - at `$[1].userId`", str(e)
        else:
            raise AssertionError("no error")
    """
    for _ in range(2):
        si.run_isolated(script)
    assert list(jetjson.loads_many(b'{"x": 1}', type=Point)) == [Point(1)]
