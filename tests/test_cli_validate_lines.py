"""`python -m jetjson validate --ndjson` against json.loads, line by line, on generated
NDJSON and on mutations of it (bytes inserted, deleted, replaced: quotes, backslashes,
control bytes, bad UTF-8, brackets, newlines). The engine checks string text in stage 1
for this path and the grammar walk skips strings; a mutation is what finds a line that
one of the two lets through. Run in this process through the CLI's main()."""

import json

import pytest
from conftest import hyp_settings, traced_growth

from jetjson import _cli
from test_cli import _cli_run

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_scalars = (st.none() | st.booleans() | st.integers(-(10**25), 10**25)
            | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
_docs = st.recursive(_scalars, lambda kids: st.lists(kids, max_size=4)
                     | st.dictionaries(st.text(max_size=6), kids, max_size=4), max_leaves=12)

#: bytes a mutation puts in: each one matters to stage 1, to the walk or to UTF-8
_INTERESTING = b'"\\\x00\x01\x1f\x7f\x80\xbf\xc3\xa9\xed\xa0\xf4\xff{}[]:,. \t\r\nu0e-+'


def _line_of(doc, spaced, ascii_only):
    sep = (", ", ": ") if spaced else (",", ":")
    return json.dumps(doc, separators=sep, ensure_ascii=ascii_only).encode()


@st.composite
def _ndjson(draw):
    docs = draw(st.lists(_docs, min_size=1, max_size=8))
    text = b"\n".join(_line_of(d, draw(st.booleans()), draw(st.booleans())) for d in docs) + b"\n"
    data = bytearray(text)
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        byte = draw(st.sampled_from(_INTERESTING))
        if op == "insert" or not data:
            data[at:at] = bytes([byte])
        elif op == "delete":
            del data[min(at, len(data) - 1)]
        else:
            data[min(at, len(data) - 1)] = byte
    return bytes(data)


def _expected_bad_lines(data):
    """Line numbers json.loads refuses (the lines of json.tool --json-lines)."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the file's last newline ends a line, it starts none
    bad = []
    for n, line in enumerate(lines, 1):
        try:
            json.loads(line.decode("utf-8"))
        except (ValueError, RecursionError):
            bad.append(n)
    return bad


def _reported_bad_lines(path):
    status, out, _ = _cli_run(["validate", "--ndjson", str(path)])
    prefix = f"{path}:"
    rows = out.decode().splitlines()
    assert all(row.startswith(prefix) for row in rows)
    reported = [int(row[len(prefix):].split(":", 1)[0]) for row in rows]
    assert status == (1 if reported else 0)
    return reported


@hyp_settings(300)
@given(data=_ndjson())
def test_validate_ndjson_agrees_with_json_loads(data, tmp_path_factory):
    path = tmp_path_factory.mktemp("nd") / "gen.ndjson"
    path.write_bytes(data)
    assert _reported_bad_lines(path) == _expected_bad_lines(data)


@hyp_settings(60)
@given(data=_ndjson())
def test_validate_ndjson_windows_agree_with_json_loads(data, tmp_path_factory):
    """The same through a mapped file read in windows of a few hundred bytes."""
    path = tmp_path_factory.mktemp("nd") / "gen.ndjson"
    path.write_bytes(data * 8)
    saved = _cli.MAP_MIN_BYTES, _cli.LINES_WINDOW
    _cli.MAP_MIN_BYTES, _cli.LINES_WINDOW = 1, 300
    try:
        assert _reported_bad_lines(path) == _expected_bad_lines(data * 8)
    finally:
        _cli.MAP_MIN_BYTES, _cli.LINES_WINDOW = saved


@pytest.mark.parametrize("line", [
    b'"a\\u12"', b'"a\\u12g4"', b'"\\x"', b'"\\', b'"a\x1fb"', b'"\\"', b'["a\\\\"]', b'["\\\\\\""]',
    b'{"k\\q": 1}', b'{"k\x00": 1}', b'"' + b"a" * 70 + b'\\u00e9' + b"b" * 70 + b'"',
    b'"' + b"a" * 62 + b'\\', b'"' + b"a" * 62 + b'\\n"', b'"' + b"a" * 61 + b'\\u0041"',
])
def test_validate_ndjson_string_edges(line, tmp_path):
    """Escapes and control bytes at block edges (64 bytes), valid and not."""
    data = b"[1]\n" + line + b"\n" + b'{"a": "' + line.strip(b'"[]{}') + b'"}\n'
    path = tmp_path / "edges.ndjson"
    path.write_bytes(data)
    assert _reported_bad_lines(path) == _expected_bad_lines(data)


def test_validate_ndjson_runs_and_long_lines(tmp_path):
    """Lines longer than the engine's 64 KiB runs, runs ending exactly at a line's end,
    and a bad line in the middle of a long run: the same lines as json.loads finds."""
    long_ok = json.dumps({"s": "x" * 70000, "n": list(range(2000))}).encode()
    long_bad = b'{"s": "' + b"y" * 70000 + b'\x01"}'
    short = [json.dumps({"i": i, "t": "\u00e9" * (i % 5)}).encode() for i in range(4000)]
    for lines in ([long_ok, long_bad] + short + [long_ok],
                  short[:1000] + [b"[1,]"] + short[1000:] + [long_bad, long_ok],
                  [long_ok] * 3 + [b""] + short[:10] + [b"  "]):
        data = b"\n".join(lines)  # the last line without '\n'
        path = tmp_path / "runs.ndjson"
        path.write_bytes(data)
        assert _reported_bad_lines(path) == _expected_bad_lines(data)
        path.write_bytes(data + b"\n")
        assert _reported_bad_lines(path) == _expected_bad_lines(data + b"\n")


def test_validate_lines_entry_leaks_nothing():
    """The C entry point behind validate --ndjson, 200 calls: no traced growth, the
    input's reference count unchanged, and the same answer each time (40 bad lines:
    the list of found lines grows past its first allocation)."""
    import sys

    native = _cli._native()
    lines = [json.dumps({"i": i}).encode() if i % 50 else b"[1," for i in range(2000)]
    data = b"\n".join(lines) + b"\n"
    want = native._tool_validate_lines(data)
    assert want[0] == 2000 and [row[0] for row in want[1]] == _expected_bad_lines(data)
    before = sys.getrefcount(data)
    assert traced_growth(lambda: native._tool_validate_lines(data)) < 4096
    assert sys.getrefcount(data) == before
    assert native._tool_validate_lines(memoryview(data)) == want
    with pytest.raises(TypeError):
        native._tool_validate_lines("text")
