"""Real-world documents: jetjson.loads must give exactly json.loads's value for every corpus
file, whatever the input type."""

import json

import pytest

import jetjson

try:
    from conftest import assert_same_value, data_params, read_bytes
except ImportError:  # tests/ turned into a package
    from .conftest import assert_same_value, data_params, read_bytes

CORPUS = data_params("corpus")

_ORACLE = {}


def oracle(path):
    """json.loads of the file's bytes (computed once per file)."""
    if path not in _ORACLE:
        _ORACLE[path] = json.loads(read_bytes(path))
    return _ORACLE[path]


@pytest.mark.parametrize("path", CORPUS)
def test_corpus_bytes(path):
    data = read_bytes(path)
    assert_same_value(jetjson.loads(data), oracle(path), "bytes")


@pytest.mark.parametrize("path", CORPUS)
def test_corpus_str(path):
    text = read_bytes(path).decode("utf-8")
    expected = json.loads(text)
    assert_same_value(jetjson.loads(text), expected, "str")


@pytest.mark.parametrize("path", CORPUS)
def test_corpus_bytearray(path):
    data = bytearray(read_bytes(path))
    got = jetjson.loads(data)
    assert_same_value(got, oracle(path), "bytearray")
    # The result must not share memory with, or keep an export of, the input buffer.
    data.extend(b"  ")
    data[:] = b" " * len(data)
    assert_same_value(got, oracle(path), "bytearray after the input was overwritten")


@pytest.mark.parametrize("path", CORPUS)
def test_corpus_memoryview(path):
    data = read_bytes(path)
    with memoryview(data) as mv:
        assert_same_value(jetjson.loads(mv), oracle(path), "memoryview")
    # A view into the middle of a larger buffer (nonzero offset, end before the buffer's end).
    big = bytearray(b"\x00garbage[" + data + b"]\xff")
    with memoryview(big) as whole:
        view = whole[9:9 + len(data)]
        assert_same_value(jetjson.loads(view), oracle(path), "memoryview slice")
        view.release()
    big.extend(b"x")  # raises BufferError if jetjson still holds an export


@pytest.mark.parametrize("path", CORPUS)
def test_corpus_minified_and_reindented(path):
    """The same values written differently (no whitespace; indent=1 with non-ASCII raw)."""
    expected = oracle(path)
    for kw in ({"separators": (",", ":")}, {"indent": 1, "ensure_ascii": False},
               {"indent": "\t", "ensure_ascii": True}):
        text = json.dumps(expected, **kw)
        exp = json.loads(text)
        assert_same_value(jetjson.loads(text), exp, f"str re-dumped with {kw}")
        raw = text.encode("utf-8", "surrogatepass")
        assert_same_value(jetjson.loads(raw), exp, f"bytes re-dumped with {kw}")


def test_corpus_is_present_when_data_dir_is():
    """Guards against a silently empty corpus (e.g. a wrong data path)."""
    params = [p for p in CORPUS if p.values[0] is not None]
    if not params:
        pytest.skip("test data not found: <repo>/data or $JETJSON_DATA")
    assert len(params) >= 20
