"""python -m jetjson against its oracle, python -m json.tool.

json.tool's own main() is the oracle: run in this process (sys.argv, stdin, stdout and
stderr swapped) for the many flag combinations, and as a real subprocess for the things
only a process shows (stdin/stdout/-, exit codes, broken pipes, Ctrl-C). Every run
compares stdout bytes, stderr text and exit status.
"""

import filecmp
import io
import json
import json.tool
import os
import subprocess
import sys

import pytest
from conftest import TEST_SCALE, data_params

from jetjson import _cli, _cli_convert

try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    given = None

# --------------------------------------------------------------------------------------
# Running both in this process
# --------------------------------------------------------------------------------------


class _KeptBytesIO(io.BytesIO):
    """json.tool closes stdin/stdout when done (its `with` blocks): keep the bytes."""

    def close(self):
        pass


def _run_inprocess(main, prog, argv, stdin=b""):
    """(exit status, stdout bytes, stderr text) of main() with these arguments."""
    out, err = _KeptBytesIO(), io.StringIO()
    saved = sys.argv, sys.stdin, sys.stdout, sys.stderr
    sys.argv = [prog] + list(argv)
    sys.stdin = io.TextIOWrapper(_KeptBytesIO(stdin), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8")
    sys.stderr = err
    try:
        try:
            status = main() or 0  # json.tool's main returns None
        except SystemExit as exc:  # what the interpreter does with SystemExit
            code = exc.code
            if code is None:
                status = 0
            elif isinstance(code, int):
                status = code
            else:
                print(code, file=sys.stderr)
                status = 1
        sys.stdout.flush()
    except RecursionError:
        status = "RecursionError"  # json.tool's traceback on too deep a document
    finally:
        sys.argv, sys.stdin, sys.stdout, sys.stderr = saved
    return status, out.getvalue(), err.getvalue()


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


def oracle(argv, stdin=b""):
    return _run_inprocess(json.tool.main, "json.tool", argv, stdin)


def subject(argv, stdin=b""):
    return _run_inprocess(lambda: _cli.main(sys.argv[1:]), "jetjson", argv, stdin)


def assert_same(argv, stdin=b""):
    expected = oracle(argv, stdin)
    actual = subject(argv, stdin)
    assert actual[0] == expected[0], (argv, actual[2], expected[2])
    assert actual[2] == expected[2], argv
    assert actual[1] == expected[1], argv
    return expected


INDENTS = [[], ["--indent", "2"], ["--indent", "0"], ["--tab"], ["--no-indent"], ["--compact"]]
COMBOS = [s + a + i for s in ([], ["--sort-keys"]) for a in ([], ["--no-ensure-ascii"]) for i in INDENTS]
# Flags json's C encoder serves (no indent): cheap enough for the big files too.
FAST_COMBOS = [["--compact"], ["--sort-keys", "--compact"], ["--no-indent", "--no-ensure-ascii"]]
SMALL = 160_000


def _corpus(max_bytes=None, min_bytes=0):
    out = []
    for p in data_params("corpus"):
        path = p.values[0]
        if path is None or (max_bytes is None or os.path.getsize(path) <= max_bytes) and \
                os.path.getsize(path) >= min_bytes:
            out.append(p)
    return out


@pytest.mark.parametrize("path", data_params("corpus"))
def test_corpus_default(path):
    """Every corpus file, json.tool's default (--indent 4, ensure_ascii)."""
    assert_same([path])


@pytest.mark.parametrize("sort_keys", [False, True], ids=["", "sort-keys"])
@pytest.mark.parametrize("path", data_params("corpus"))
def test_corpus_takes_the_text_path(path, sort_keys):
    """The corpus goes through the engine's writer (no objects), not the fallback: the
    parity tests above then test that writer."""
    from jetjson import _jetjson

    with open(path, "rb") as f:
        data = f.read()
    chunks = []
    assert _jetjson._tool_format(data, chunks.append, "indent", 4, True, sort_keys) is True
    expected = json.dumps(json.loads(data), indent=4, sort_keys=sort_keys) + "\n"
    assert b"".join(chunks) == expected.encode()


def test_text_path_write_may_call_jetjson():
    """write() runs Python code: jetjson used there (same thread) must not disturb the
    walk (the writer has a parser of its own)."""
    import jetjson
    from jetjson import _jetjson

    doc = json.dumps([{"k": i, "s": "é" * (i % 5), "f": i / 3} for i in range(60000)]).encode()
    other = json.dumps([[i, str(i)] for i in range(100000)]).encode()
    chunks = []

    def write(chunk):
        assert jetjson.loads(other)[-1] == [99999, "99999"]  # reuses the thread's parser
        chunks.append(chunk)

    assert _jetjson._tool_format(doc, write, "indent", 2, True, True) is True
    assert len(chunks) > 1
    assert b"".join(chunks) == (json.dumps(json.loads(doc), indent=2, sort_keys=True) + "\n").encode()
    # a writable buffer could change under the walk: left to the object path
    assert _jetjson._tool_format(bytearray(doc), write, "indent", 2, True, True) is False


@pytest.mark.parametrize("flags", COMBOS, ids=" ".join)
@pytest.mark.parametrize("path", _corpus(max_bytes=SMALL))
def test_corpus_flags(path, flags):
    """sort-keys x ensure-ascii x every indent variant, on the smaller corpus files."""
    assert_same(flags + [path])


@pytest.mark.parametrize("flags", FAST_COMBOS, ids=" ".join)
@pytest.mark.parametrize("path", _corpus(min_bytes=SMALL + 1))
def test_corpus_flags_big(path, flags):
    assert_same(flags + [path])


@pytest.mark.parametrize("flags", [[], ["--compact"], ["--no-indent", "--sort-keys"],
                                   ["--no-ensure-ascii", "--tab"]], ids=" ".join)
@pytest.mark.parametrize("path", data_params("ndjson", suffix=".ndjson"))
def test_json_lines(path, flags):
    assert_same(["--json-lines"] + flags + [path])


@pytest.mark.parametrize("path", data_params("JSONTestSuite/test_parsing"))
def test_json_test_suite(path):
    """y_, n_ and i_ files: output, or json.tool's error text and exit status."""
    assert_same([path])


EDGE_DOCS = [
    b'{"a": 1, "a": 2, "b": {"x": [], "x": {}}}',       # duplicate keys: last value, first place
    b'{"b": 1, "a": 2, "c": {"z": 1, "y": 2}}',          # unsorted keys
    b'[{"b": {"y": [{"q": 1, "p": {}}], "x": []}, "a": [{"d": 1, "c": 2}]}, {"\xc3\xa9": 1, "z": 2, "\xe2\x82\xac": 3}]',
    b'[1E5, 1e-7, -0, -0.0, 0.1e1, 1e400, -1e400, 123456789012345678901234567890]',
    b'[NaN, Infinity, -Infinity]',                      # json accepts them, the engine does not
    b'"\\u00E9\\/\\ud83d\\ude00\\u007f\x7f\\"\\\\\\n\\u0001 \xc3\xa9 \xf0\x9f\x98\x80"',
    b'{"\\u0061": 1, "a": 2}',                          # escaped key that duplicates
    b'"\\ud800 lone"',                                  # a lone surrogate
    b'\xef\xbb\xbf[1]',                                 # BOM: json.tool refuses it
    b'[1,\r\n2,\r3,]',                                  # CR as json.tool reads it (universal newlines)
    b'[1, 2',
    b'',
    b'  \n ',
    b'[1] x',
    b'"\xed\xa0\x80"',                                  # an encoded surrogate: not UTF-8
    b'\xff[]',
    b'1' * 5000,                                        # past the int digit limit
    b'[' * 3000 + b']' * 3000,
    b'{"a": [' * 150 + b']}' * 150,
    b'12', b'true', b'null', b'"x"', b'[]', b'{}', b'[[], {}, [{}]]',
]


@pytest.mark.parametrize("flags", [[], ["--sort-keys"], ["--no-ensure-ascii", "--compact"], ["--tab"],
                                   ["--no-indent"]], ids=" ".join)
@pytest.mark.parametrize("doc", EDGE_DOCS, ids=lambda d: repr(d[:24]))
def test_edge_documents(doc, flags, tmp_path):
    path = tmp_path / "doc.json"
    path.write_bytes(doc)
    assert_same(flags + [str(path)])
    assert_same(flags, stdin=doc) if b"\r" not in doc else None


@pytest.mark.parametrize("doc", [b'{"a": 1}\n[2]\n"x"\n', b'1\n\n2\n', b'1\n[\n', b'{"a": "\xc3\xa9"}\r\n2\r\n'],
                         ids=repr)
def test_json_lines_edges(doc, tmp_path):
    path = tmp_path / "doc.ndjson"
    path.write_bytes(doc)
    for flags in ([], ["--compact"]):
        assert_same(["--json-lines"] + flags + [str(path)])


# --------------------------------------------------------------------------------------
# Large top-level arrays, a window at a time (tool_windows.c), made to happen on small
# files: every file mapped, windows of a few bytes (elements cut by every window end)
# --------------------------------------------------------------------------------------

@pytest.fixture(params=[1, 13, 4096], ids=lambda w: f"window-{w}")
def small_windows(request, monkeypatch):
    monkeypatch.setattr(_cli, "MAP_MIN_BYTES", 1)
    monkeypatch.setattr(_cli, "FORMAT_WINDOWS_MIN_BYTES", 1)
    monkeypatch.setattr(_cli, "FORMAT_WINDOW", request.param)
    return request.param


WINDOW_DOCS = [
    b'[1, 2.50, -0, 1E5, "x", true, null, false, {}, [], [[]], {"a": []}]',
    b'[{"b": 1, "a": {"d": [1, {"z": 0, "y": 1}], "c": 2}}, {"\\u00e9": 1}, "\\ud83d\\ude00 \\u007f \xc3\xa9"]',
    b'  \n[ {"k": "v"} ,\n\t"s" , 12345678901234567890123 ]  \n',
    b'[{"a": 1, "a": 2}]',                # a duplicate key: the object path
    b'[1, 2,]', b'[1 2]', b'[1,, 2]', b'[,1]', b'[1]]', b'[[1]', b'[1] x', b'[1, "\xed\xa0\x80"]',
    b'[]', b'[ ]', b'[1, "a" : 2]', b'[1, {"a" 1}]', b'["\x01"]', b'[1, \xff]', b'[' * 150 + b']' * 150,
    b'[' + b'1' * 700 + b']', b'[NaN, 1]', b'[1, 2] ', b'{"a": [1, 2]}', b'"top"',
]


@pytest.mark.parametrize("flags", [[], ["--sort-keys"], ["--compact"], ["--no-indent", "--no-ensure-ascii"],
                                   ["--tab", "--sort-keys"], ["--indent", "0"]], ids=" ".join)
@pytest.mark.parametrize("doc", WINDOW_DOCS, ids=lambda d: repr(d[:24]))
def test_windows_edge_documents(doc, flags, tmp_path, small_windows):
    path = tmp_path / "doc.json"
    path.write_bytes(doc)
    assert_same(flags + [str(path)])


@pytest.mark.parametrize("flags", [[], ["--sort-keys", "--compact"], ["--no-indent"]], ids=" ".join)
@pytest.mark.parametrize("path", _corpus(max_bytes=SMALL))
def test_windows_corpus(path, flags, small_windows):
    if small_windows == 1 and os.path.getsize(path) > 20000:
        pytest.skip("one-byte windows: the small files are enough")
    assert_same(flags + [path])


if given is not None:
    _window_values = st.recursive(
        st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=False) |
        st.text(max_size=6),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
        max_leaves=20)

    @settings(max_examples=int(200 * TEST_SCALE), deadline=None)
    @given(st.lists(_window_values, max_size=8), st.sampled_from([None, 0, 2, "\t"]), st.booleans(),
           st.booleans(), st.integers(1, 64), st.sampled_from([" ", "\n", "", "\r\n\t "]))
    def test_windows_generated(values, indent, ensure_ascii, sort_keys, window, space):
        """Arrays of generated values, spaced oddly, in windows of 1-64 bytes: the window
        path writes json.dumps' bytes, or leaves the document to the object path."""
        from jetjson import _jetjson

        doc = ("[" + space + ("," + space).join(json.dumps(v, ensure_ascii=False) for v in values) + space + "]")
        chunks = []
        mode = "line" if indent is None else "indent"
        done = _jetjson._tool_format(doc.encode("utf-8", "surrogatepass"), chunks.append, mode,
                                     0 if indent is None else indent, ensure_ascii, sort_keys,
                                     release=lambda a, b: None, window=window)
        assert done in (True, False)
        if done:
            expected = json.dumps(json.loads(doc), indent=indent, ensure_ascii=ensure_ascii, sort_keys=sort_keys)
            assert b"".join(chunks) == (expected + "\n").encode("utf-8")
        else:
            assert chunks == []


def test_windows_take_the_text_path_and_release(tmp_path):
    """An array of records is written by the window path (not the object path), with
    release() told about the input done, in order, and the same bytes as json.dumps."""
    from jetjson import _jetjson

    rows = [{"i": i, "s": "\u00e9" * (i % 4), "f": i / 3, "l": [i, {"b": 1, "a": 2}]} for i in range(20000)]
    doc = json.dumps(rows).encode()
    for sort_keys in (False, True):
        chunks, released = [], []
        done = _jetjson._tool_format(doc, chunks.append, "indent", 2, True, sort_keys,
                                     release=lambda a, b: released.append((a, b)), window=4096)
        assert done is True
        assert b"".join(chunks) == (json.dumps(rows, indent=2, sort_keys=sort_keys) + "\n").encode()
        assert released and all(a < b for a, b in released) and released[-1][1] <= len(doc)
    # not an array: None, nothing written, nothing released
    chunks, released = [], []
    assert _jetjson._tool_format(b'{"a": 1}', chunks.append, "indent", 2, True, False,
                                 release=lambda a, b: released.append((a, b))) is None
    assert chunks == [] and released == []


def test_windows_no_leak():
    """The window path: no growth over 200 calls, the inputs' refcounts unchanged, on
    each outcome (written, object path, not an array, an exception from release)."""
    from conftest import traced_growth

    from jetjson import _jetjson

    docs = [json.dumps([{"a": i, "b": [1, "x"]} for i in range(300)]).encode(), b'[{"a": 1, "a": 2}]', b'{"a": 1}']
    sink = io.BytesIO()

    def release(a, b):
        pass

    def boom(a, b):
        raise OSError("release failed")

    def run():
        for doc in docs:
            sink.seek(0)
            _jetjson._tool_format(doc, sink.write, "indent", 2, True, True, release=release, window=64)
        with pytest.raises(OSError):
            _jetjson._tool_format(docs[0], sink.write, "compact", 0, True, False, release=boom, window=64)

    counts = [sys.getrefcount(x) for x in docs + [release, boom]]
    assert traced_growth(run) < 20000
    assert [sys.getrefcount(x) for x in docs + [release, boom]] == counts


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads VmHWM (Linux)")
@pytest.mark.skipif(bool(os.environ.get("JETJSON_SANITIZED")), reason="ASan's shadow memory and quarantine")
def test_windows_memory(tmp_path):
    """A 40 MB array formatted in real processes, with windows and without: the windows
    save at least the file's size of peak memory (the whole-document path holds the
    file and its index, about as big again), and write the same bytes."""
    row = json.dumps({"id": 1, "name": "x y z", "tags": ["a", "b"], "v": [1.5, 2, None]})
    count = (40 << 20) // (len(row) + 1)
    path = tmp_path / "big.json"
    path.write_text("[" + ",".join([row] * count) + "]")
    size = path.stat().st_size

    def peak_of(windows_min):
        # VmHWM, not ru_maxrss: Linux carries ru_maxrss over exec from the forked test process
        code = ("import sys; from jetjson import _cli; _cli.FORMAT_WINDOWS_MIN_BYTES = int(sys.argv.pop(1)); "
                "status = _cli.main(sys.argv[1:]); "
                "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0], "
                "file=sys.stderr); sys.exit(status)")
        out = tmp_path / f"out-{windows_min}.json"
        done = subprocess.run([sys.executable, "-c", code, str(windows_min), "--indent", "2", str(path), str(out)],
                              capture_output=True, env=_env(), timeout=120)
        assert done.returncode == 0, done.stderr
        return int(done.stderr.split()[-1]) * 1024, out

    windowed, out_windowed = peak_of(1)
    whole, out_whole = peak_of(1 << 62)
    assert windowed + size < whole, (windowed, whole, size)
    assert filecmp.cmp(out_windowed, out_whole, shallow=False)
    with open(out_windowed, "rb") as f:
        assert f.read(200) == (json.dumps([json.loads(row)] * 2, indent=2)[:200]).encode()


def test_outfile_and_invalid_input(tmp_path):
    """json.tool writes outfile only for a valid document."""
    src, dst = tmp_path / "in.json", tmp_path / "out.json"
    src.write_bytes(b'{"b": [1, 2.50], "a": "\xc3\xa9"}')
    for main in (oracle, subject):
        main([str(src), str(dst)])
    assert subject([str(src), str(dst)])[0] == 0
    ours = dst.read_bytes()
    oracle([str(src), str(dst)])
    assert ours == dst.read_bytes()
    bad, dst2 = tmp_path / "bad.json", tmp_path / "never.json"
    bad.write_bytes(b"[1,")
    assert subject([str(bad), str(dst2)])[0] == 1
    assert not dst2.exists()


def test_in_place(tmp_path):
    """infile == outfile works as in json.tool (read first, then write), mapped or not."""
    doc = json.dumps([{"k": i, "v": "x" * 50} for i in range(30000)]).encode()
    assert len(doc) > _cli.MAP_MIN_BYTES
    path = tmp_path / "same.json"
    path.write_bytes(doc)
    assert subject([str(path), str(path)])[0] == 0
    expected = oracle([], stdin=doc)[1]
    assert path.read_bytes() == expected


if given is not None:
    _scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                         st.text(max_size=8))
    _values = st.recursive(_scalars, lambda c: st.lists(c, max_size=4) |
                           st.dictionaries(st.text(max_size=4), c, max_size=4), max_leaves=20)

    @settings(max_examples=max(10, int(150 * TEST_SCALE)), deadline=None)
    @given(value=_values, layout=st.sampled_from([None, 0, 2, "\t"]), source_ascii=st.booleans(),
           flags=st.sampled_from(COMBOS), dup=st.booleans())
    def test_generated_documents(value, layout, source_ascii, flags, dup):
        text = json.dumps(value, indent=layout, ensure_ascii=source_ascii)
        if dup and text.startswith("{") and text != "{}":
            text = '{"dup": 1, ' + text[1:-1] + ', "dup": [2]}'  # a duplicated key
        assert_same(flags, stdin=text.encode("utf-8"))


# --------------------------------------------------------------------------------------
# The other commands (in process)
# --------------------------------------------------------------------------------------

def _cli_run(argv, stdin=b""):
    return _run_inprocess(lambda: _cli.main(sys.argv[1:]), "jetjson", argv, stdin)


def test_format_command_is_the_default(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b'{"b": 1, "a": [1.0, "\xc3\xa9"]}')
    assert _cli_run(["format", "--sort-keys", str(path)]) == _cli_run(["--sort-keys", str(path)])
    assert _cli_run(["format", "--sort-keys", str(path)]) == oracle(["--sort-keys", str(path)])


@pytest.mark.parametrize("path", data_params("JSONTestSuite/test_parsing", prefixes=["y_", "n_"]))
def test_validate_matches_json_tool(path):
    status, out, _ = _cli_run(["validate", path])
    tool_status, _, tool_err = oracle([path])
    assert (status == 0) == (tool_status == 0)
    if status:
        first = out.decode().splitlines()[0]
        assert first.startswith(path + ":")
        if isinstance(tool_status, int):  # a message that names a place: the same place and words
            assert first.split(": ", 1)[1] in tool_err or tool_err.startswith(first.split(": ", 1)[1])


def test_validate_ndjson(tmp_path):
    good, bad = tmp_path / "good.ndjson", tmp_path / "bad.ndjson"
    good.write_bytes(b'{"a": 1}\n[2]\n"\xc3\xa9"\n')
    bad.write_bytes(b'{"a": 1}\n[2,\n3\n\n')
    assert _cli_run(["validate", "--ndjson", str(good)])[:2] == (0, b"")
    status, out, _ = _cli_run(["validate", "--json-lines", str(good), str(bad)])
    assert status == 1
    lines = out.decode().splitlines()
    # json.loads of each line gives the column; the line is the file's
    assert lines == [f"{bad}:2:4: Expecting value", f"{bad}:4:1: Expecting value"]
    assert _cli_run(["validate", str(good)])[0] == 1  # three documents are not one


@pytest.mark.parametrize("windows", [False, True], ids=["whole", "mapped-windows"])
def test_validate_ndjson_many_lines(tmp_path, monkeypatch, windows):
    """The engine's one-call line check against json.loads line by line."""
    import random

    rng = random.Random(5)
    broken = [b"", b"[1,", b'{"a" 1}', b"tru", b"[1] 2", b'"\xff"', b"1" * 5000, b"[" * 3000 + b"]" * 3000,
              b'{"a": NaN}', b'"\xed\xa0\x80"', b"  "]
    lines = []
    for i in range(3000):
        lines.append(rng.choice(broken) if rng.random() < 0.02 else
                     json.dumps({"i": i, "s": "\u00e9" * (i % 3), "f": i / 7}, ensure_ascii=i % 2 == 0).encode())
    path = tmp_path / "many.ndjson"
    path.write_bytes(b"\n".join(lines) + b"\n")
    expected = []
    for n, line in enumerate(lines, 1):
        try:
            json.loads(line.decode("utf-8"))
        except (ValueError, RecursionError):
            expected.append(n)
    if windows:  # a mapped file taken in windows of about 2000 bytes
        monkeypatch.setattr(_cli, "MAP_MIN_BYTES", 1)
        monkeypatch.setattr(_cli, "LINES_WINDOW", 2000)
    status, out, _ = _cli_run(["validate", "--ndjson", str(path)])
    reported = [int(row.split(":")[1]) for row in out.decode().splitlines()]
    assert reported == expected and status == (1 if expected else 0)


def test_validate_unreadable(tmp_path):
    status, out, err = _cli_run(["validate", str(tmp_path / "missing.json"), str(tmp_path)])
    assert status == 2
    assert "no such file" in err and "is a directory" in err


def test_minify():
    doc = b'{ "a" : [ 1 , 2.50 , "x y" ] ,\n "b" : { } }'
    status, out, _ = _cli_run(["minify"], stdin=doc)
    assert status == 0 and out == b'{"a":[1,2.50,"x y"],"b":{}}\n'
    assert json.loads(out) == json.loads(doc)
    assert _cli_run(["minify"], stdin=b"[1,")[0] == 1


def test_get(tmp_path):
    doc = {"users": [{"name": "Zoë", "tags": ["a", "b"]}], "a/b": 1, "m~n": None}
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    pointers = ["/users/0/name", "/users/0/tags", "/a~1b", "/m~0n", ""]
    status, out, _ = _cli_run(["get", str(path)] + pointers)
    assert status == 0
    assert [json.loads(line) for line in out.decode().splitlines()] == \
        [doc["users"][0]["name"], doc["users"][0]["tags"], 1, None, doc]
    status, _, err = _cli_run(["get", str(path), "/nope"])
    assert status == 1 and "nope" in err


def test_convert_roundtrip(tmp_path):
    value = [{"a": 1, "é": [1.5, None]}, [], "x", 3]
    src = tmp_path / "a.json"
    src.write_text(json.dumps(value), encoding="utf-8")
    status, nd, _ = _cli_run(["convert", "--to", "ndjson", str(src)])
    assert status == 0
    assert [json.loads(line) for line in nd.decode().splitlines()] == value
    status, back, _ = _cli_run(["convert", "--to", "json"], stdin=nd)
    assert status == 0 and json.loads(back) == value
    assert _cli_run(["convert", "--to", "ndjson"], stdin=b'{"a": 1}')[0] == 1


@pytest.mark.parametrize("command", [[], ["minify"], ["convert", "--to", "msgpack"], ["get"]],
                         ids=lambda a: " ".join(a) or "format")
def test_file_errors_of_each_command(tmp_path, command):
    """A missing file, a directory, an output that cannot be opened: one line, no traceback."""
    tail = ["/a"] if command == ["get"] else []
    for target, words in ((tmp_path / "missing.json", "no such file"), (tmp_path, "is a directory")):
        status, out, err = _cli_run(command + [str(target)] + tail)
        assert status == 1 and out == b"" and words in err and "Traceback" not in err
    if command != ["get"]:
        src = tmp_path / "in.json"
        src.write_bytes(b"[1]")
        status, _, err = _cli_run(command + [str(src), str(tmp_path / "no" / "such" / "dir.out")])
        assert status == 1 and "no such file" in err and "Traceback" not in err


def _no_duplicate_keys(raw):
    def pairs(items):
        if len({k for k, _ in items}) != len(items):
            raise KeyError("duplicate")
        return dict(items)
    try:
        json.loads(raw, object_pairs_hook=pairs)
    except KeyError:
        return False
    return True


def _packb_or_none(value):
    msgpack = pytest.importorskip("msgpack")
    try:
        return msgpack.packb(value)
    except OverflowError:  # ints past 64 bits: MessagePack has none
        return None


@pytest.mark.parametrize("path", _corpus(max_bytes=SMALL))
def test_convert_to_msgpack_corpus(path, tmp_path):
    """convert --to msgpack == msgpack.packb(json.loads(x)), and back with --from msgpack."""
    raw = open(path, "rb").read()
    expected = _packb_or_none(json.loads(raw))
    if expected is None or not _no_duplicate_keys(raw):
        pytest.skip("ints past 64 bits or duplicate keys: packb is not the oracle here")
    status, out, err = _cli_run(["convert", "--to", "msgpack", path])
    assert (status, err) == (0, "") and out == expected
    packed = tmp_path / "a.msgpack"
    packed.write_bytes(out)
    status, back, _ = _cli_run(["convert", "--from", "msgpack", "--to", "json", str(packed)])
    assert status == 0 and back.endswith(b"\n") and json.loads(back) == json.loads(raw)


def test_convert_to_msgpack_ndjson(tmp_path):
    import random

    rng = random.Random(7)
    records = [{"i": i, "f": rng.random() * 10 ** rng.randint(-5, 20), "s": "\u00e9x" * (i % 4),
                "l": [None, True, i - 500, {"k": []}][: i % 5]} for i in range(2000)]
    lines = [json.dumps(r, ensure_ascii=i % 2 == 0) for i, r in enumerate(records)]
    src = tmp_path / "rows.ndjson"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    expected = b"".join(_packb_or_none(json.loads(line)) for line in lines)
    for flag in ("--ndjson", "--json-lines"):
        status, out, _ = _cli_run(["convert", "--to", "msgpack", flag, str(src)])
        assert status == 0 and out == expected
    # without --ndjson, several documents are an error that names the place
    status, out, err = _cli_run(["convert", "--to", "msgpack", str(src)])
    assert status == 1 and out == b"" and str(src) in err and "document 1" in err
    # and back: a stream of values, one compact JSON line each
    packed = tmp_path / "rows.msgpack"
    packed.write_bytes(expected)
    status, back, _ = _cli_run(["convert", "--from", "msgpack", "--to", "ndjson", str(packed)])
    assert status == 0 and [json.loads(x) for x in back.decode().splitlines()] == records
    # several values are not one
    assert _cli_run(["convert", "--from", "msgpack", "--to", "json", str(packed)])[0] == 1
    assert _cli_run(["convert", "--from", "msgpack", "--to", "arrow", str(packed)])[0] == 2


def test_convert_msgpack_errors(tmp_path):
    bad = tmp_path / "bad.ndjson"
    bad.write_bytes(b'{"a": 1}\n[2,\n')
    status, out, err = _cli_run(["convert", "--to", "msgpack", "--ndjson", str(bad)])
    assert status == 1 and "document 2" in err and "Traceback" not in err
    trunc = tmp_path / "trunc.msgpack"
    trunc.write_bytes(b"\x92\x01")  # an array of two holding one
    status, out, err = _cli_run(["convert", "--from", "msgpack", "--to", "json", str(trunc)])
    assert status == 1 and out == b"" and str(trunc) in err


if given is not None:
    _json_values = st.recursive(
        st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) |
        st.floats(allow_nan=False, allow_infinity=False) | st.text(),
        lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
        max_leaves=30)

    @settings(max_examples=int(150 * TEST_SCALE), deadline=None)
    @given(st.lists(_json_values, min_size=1, max_size=6), st.booleans())
    def test_convert_to_msgpack_generated(values, ensure_ascii):
        text = "\n".join(json.dumps(v, ensure_ascii=ensure_ascii) for v in values) + "\n"
        status, out, _ = _cli_run(["convert", "--to", "msgpack", "--ndjson"], stdin=text.encode())
        assert status == 0 and out == b"".join(_packb_or_none(v) for v in values)


def _arrow_ready():
    import importlib.util

    import jetjson
    return hasattr(jetjson, "loads_arrow") and importlib.util.find_spec("pyarrow") is not None


def test_convert_to_arrow_unavailable(monkeypatch):
    """Without jetjson.loads_arrow (or pyarrow) a clear message, exit 2, nothing written."""
    monkeypatch.setattr(_cli_convert, "_arrow_available", lambda: False)
    status, out, err = _cli_run(["convert", "--to", "arrow"], stdin=b'[{"a": 1}]')
    assert status == 2 and out == b"" and "--to arrow is not available" in err and "pyarrow" in err


def test_convert_to_arrow_writes_ipc(tmp_path, monkeypatch):
    """The --to arrow path with a stand-in loads_arrow (pyarrow's own table of the
    records): what the CLI writes is an Arrow IPC file pyarrow reads back, to a file and
    to stdout."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.ipc

    import jetjson
    def stand_in(data):  # NDJSON in (the CLI turns an array of records into NDJSON first)
        return pa.Table.from_pylist([json.loads(line) for line in bytes(data).splitlines() if line.strip()])
    monkeypatch.setattr(jetjson, "loads_arrow", stand_in, raising=False)
    records = [{"i": i, "s": "x\u00e9" * (i % 3), "f": i / 8} for i in range(300)]
    src, dst = tmp_path / "rows.json", tmp_path / "rows.arrow"
    src.write_text(json.dumps(records), encoding="utf-8")
    status, out, err = _cli_run(["convert", "--to", "arrow", str(src), str(dst)])
    assert (status, out, err) == (0, b"", "")
    with pyarrow.ipc.open_file(str(dst)) as reader:
        assert reader.read_all().to_pylist() == records
    status, out, _ = _cli_run(["convert", "--to", "arrow", str(src)])
    assert status == 0 and pyarrow.ipc.open_file(pa.BufferReader(out)).read_all().to_pylist() == records


@pytest.mark.skipif(not _arrow_ready(), reason="needs jetjson.loads_arrow and pyarrow")
def test_convert_to_arrow(tmp_path):
    import pyarrow.ipc

    records = [{"i": i, "s": "x\u00e9" * (i % 3), "f": i / 8, "b": i % 2 == 0} for i in range(500)]
    for name, body in (("rows.json", json.dumps(records)),
                       ("rows.ndjson", "\n".join(json.dumps(r) for r in records) + "\n")):
        src, dst = tmp_path / name, tmp_path / (name + ".arrow")
        src.write_text(body, encoding="utf-8")
        status, _, err = _cli_run(["convert", "--to", "arrow", str(src), str(dst)])
        if status != 0 and name.endswith(".ndjson"):
            continue  # loads_arrow may take only one of the two layouts
        assert status == 0, err
        with pyarrow.ipc.open_file(str(dst)) as reader:
            assert reader.read_all().to_pylist() == records
