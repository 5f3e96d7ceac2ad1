"""load(fp) and load_file(path), and inputs that end exactly at a page or block boundary
(memory-mapped files, guard pages): correct values, json's errors, no reads past the end."""

import ctypes
import ctypes.util
import io
import json
import mmap
import os
import pathlib
import sys

import pytest

import jetjson

try:
    from conftest import (Raised, assert_same_outcome, assert_same_value, capture,
                          corpus_files, data_params, json_oracle, list_data_files, read_bytes)
except ImportError:  # tests/ turned into a package
    from .conftest import (Raised, assert_same_outcome, assert_same_value, capture,
                           corpus_files, data_params, json_oracle, list_data_files, read_bytes)

PAGE = mmap.PAGESIZE


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content)
    return path


def file_oracle(path):
    with open(path, "rb") as f:
        return json_oracle(f.read())


# --------------------------------------------------------------------------------------
# load_file
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", data_params("corpus"))
def test_load_file_corpus(path):
    assert_same_value(jetjson.load_file(path), json.loads(read_bytes(path)), path)


@pytest.mark.parametrize("path", data_params("JSONTestSuite/test_parsing"))
def test_load_file_json_test_suite(path):
    assert_same_outcome(capture(jetjson.load_file, path), file_oracle(path), path, jetjson)


def test_load_file_accepts_str_and_pathlike(tmp_path):
    path = write(tmp_path, "doc.json", b'{"a": [1, 2.5, "\xc3\xa9"]}')
    expected = json.loads(path.read_bytes())
    assert_same_value(jetjson.load_file(str(path)), expected, "str path")
    assert_same_value(jetjson.load_file(pathlib.Path(path)), expected, "pathlib.Path")


def test_load_file_small_and_odd_files(tmp_path):
    cases = [b"1", b"[]", b" ", b"\n", b"x", b"[1,]", b'"\xff"', b"\xef\xbb\xbf{}",
             "[1]".encode("utf-16"), "[1]".encode("utf-16-le"), b'{"a": NaN}',
             b"[" * 100000, b"1" * 5000]
    for i, content in enumerate(cases):
        path = write(tmp_path, f"case{i}.json", content)
        assert_same_outcome(capture(jetjson.load_file, str(path)), file_oracle(path),
                            repr(content[:30]), jetjson)


def test_load_file_empty_file_is_a_decode_error(tmp_path):
    path = write(tmp_path, "empty.json", b"")
    got = capture(jetjson.load_file, str(path))
    exp = json_oracle(b"")
    assert isinstance(got, Raised) and type(got.exc) is jetjson.JSONDecodeError
    assert_same_outcome(got, exp, "empty file", jetjson)
    assert_same_outcome(capture(jetjson.loads, b""), exp, "loads(b'')", jetjson)


def test_load_file_missing(tmp_path):
    missing = tmp_path / "does-not-exist.json"
    with pytest.raises(FileNotFoundError):
        jetjson.load_file(str(missing))
    with pytest.raises(FileNotFoundError):
        jetjson.load_file(str(tmp_path / "no-such-dir" / "x.json"))


def test_load_file_directory(tmp_path):
    with pytest.raises(OSError) as info:
        jetjson.load_file(str(tmp_path))
    assert isinstance(info.value, OSError)
    assert not isinstance(info.value, json.JSONDecodeError)


def test_load_file_unreadable(tmp_path):
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("running as root: permissions are not enforced")
    if sys.platform.startswith("win"):
        pytest.skip("chmod does not make files unreadable on Windows")
    path = write(tmp_path, "secret.json", b"[1]")
    path.chmod(0)
    try:
        with pytest.raises(PermissionError):
            jetjson.load_file(str(path))
    finally:
        path.chmod(0o600)


def test_load_file_keeps_working_after_errors(tmp_path):
    good = write(tmp_path, "good.json", b'{"ok": true}')
    for _ in range(3):
        capture(jetjson.load_file, str(tmp_path / "missing.json"))
        capture(jetjson.load_file, str(tmp_path))
        assert jetjson.load_file(str(good)) == {"ok": True}


def test_load_file_result_outlives_the_file(tmp_path):
    path = write(tmp_path, "doc.json", b'{"key": ["value", "\xc3\xa9t\xc3\xa9"]}')
    got = jetjson.load_file(str(path))
    path.write_bytes(b'{"key": ["XXXXX", "XXXXXX"]}')
    os.remove(path)
    assert_same_value(got, {"key": ["value", "\u00e9t\u00e9"]})


# --------------------------------------------------------------------------------------
# load(fp)
# --------------------------------------------------------------------------------------
def test_load_binary_and_text_files(tmp_path):
    content = '{"a": [1, 2.5, "\u00e9\U0001f600"], "b": null}'
    path = write(tmp_path, "doc.json", content.encode("utf-8"))
    expected = json.loads(content)
    with open(path, "rb") as f:
        assert_same_value(jetjson.load(f), expected, "binary file")
    with open(path, "r", encoding="utf-8") as f:
        assert_same_value(jetjson.load(f), expected, "text file")
    assert_same_value(jetjson.load(io.BytesIO(content.encode())), expected, "BytesIO")
    assert_same_value(jetjson.load(io.StringIO(content)), expected, "StringIO")


def test_load_passes_keywords():
    content = '{"a": [1, 2.5, NaN]}'
    for kw in ({"object_pairs_hook": list}, {"parse_float": str, "parse_int": float},
               {"parse_constant": repr}, {"cls": json.JSONDecoder}):
        assert_same_value(jetjson.load(io.StringIO(content), **kw),
                          json.load(io.StringIO(content), **kw), str(kw))


def test_load_reads_via_read_method():
    class Reader:
        def __init__(self, data):
            self.data = data
            self.calls = 0

        def read(self, *args):
            self.calls += 1
            assert args == ()
            return self.data

    for data in ('[1, "x"]', b'[1, "x"]', bytearray(b'[1, "x"]')):
        r = Reader(data)
        assert jetjson.load(r) == [1, "x"]
        assert r.calls == 1


def test_load_errors_match_json():
    for content in ("", "[1,]", b'["\xff"]', "\ufeff[1]", b"\xef\xbb\xbf[1]", "[" * 100000):
        reader = io.BytesIO if isinstance(content, bytes) else io.StringIO
        exp = capture(json.load, reader(content))
        got = capture(jetjson.load, reader(content))
        assert_same_outcome(got, exp, repr(content[:10]), jetjson)
    with pytest.raises(AttributeError):
        jetjson.load("not a file")


# --------------------------------------------------------------------------------------
# Inputs ending exactly at a boundary
# --------------------------------------------------------------------------------------
def docs_of_size(n):
    """Documents of exactly n bytes ending in each kind of token, plus truncated ones."""
    out = []
    if n >= 1:
        out.append(b" " * (n - 1) + b"7")
        out.append(b"9" * min(n, 4000) if n <= 4000 else b" " * (n - 4000) + b"9" * 4000)
        out.append(b" " * (n - 1) + b"[")
        out.append(b" " * (n - 1) + b'"')
        out.append(b" " * (n - 1) + b"-")
    if n >= 2:
        out.append(b'"' + b"a" * (n - 2) + b'"')
        out.append(b'"' + b"a" * (n - 1))
        out.append(b'"' + b"a" * (n - 2) + b"\\")
        out.append(b" " * (n - 2) + b"[]")
        out.append(b" " * (n - 2) + b"1.")
        out.append(b" " * (n - 2) + b"1e")
        out.append(b" " * (n - 2) + b"\xc3\xa9")
        out.append(b'"' + b"a" * (n - 2) + b"\xc3")
    if n >= 3:
        out.append(b"[" + b"1" * (n - 2) + b"]")
        out.append(b" " * (n - 3) + b"1.5")
        out.append(b" " * (n - 3) + b"tru")
        out.append(b" " * (n - 3) + b"NaN")
        out.append(b'"' + b"a" * (n - 3) + b'\\"')
    if n >= 4:
        out.append(b" " * (n - 4) + b"true")
        out.append(b" " * (n - 4) + b"null")
        out.append(b" " * (n - 4) + b"1e-5")
        out.append(b" " * (n - 4) + b'"\xc3\xa9"')
        out.append(b'"' + b"a" * (n - 4) + b"\xe2\x82")
    if n >= 5:
        out.append(b" " * (n - 5) + b"false")
        out.append(b"[" + b" " * (n - 5) + b"1.0]")
        out.append(b'{"' + b"k" * (n - 5) + b'":1')
    if n >= 6:
        out.append(b'{"' + b"k" * (n - 6) + b'":1}')
        out.append(b'["' + b"\\\\" * ((n - 4) // 2) + b"x" * ((n - 4) % 2) + b'"]')
    if n >= 9:
        out.append(b" " * (n - 9) + b"-Infinity")
        out.append(b'["' + b"x" * (n - 9) + b'\\u00e9"]')
    out.append(b" " * n)
    return [d for d in out if len(d) == n]


class GuardedBuffer:
    """An anonymous mapping whose last page is made inaccessible, so that a buffer placed
    to end right before that page faults on any read past its end."""

    DATA_PAGES = 3

    def __init__(self):
        self.libc = None
        self.end = self.DATA_PAGES * PAGE
        if not sys.platform.startswith(("linux", "darwin")):
            return
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
            libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
            libc.mprotect.restype = ctypes.c_int
        except (OSError, AttributeError):
            return
        self.mm = mmap.mmap(-1, self.end + PAGE)
        anchor = ctypes.c_char.from_buffer(self.mm)
        self.addr = ctypes.addressof(anchor)
        del anchor
        if libc.mprotect(self.addr + self.end, PAGE, 0) != 0:  # PROT_NONE
            self.mm.close()
            return
        self.libc = libc

    def view(self, data):
        """A memoryview of `data` placed to end exactly at the guard page."""
        n = len(data)
        assert n <= self.end
        self.mm[self.end - n:self.end] = data
        return memoryview(self.mm)[self.end - n:self.end]

    def close(self):
        if self.libc is not None:
            self.libc.mprotect(self.addr + self.end, PAGE, 3)  # PROT_READ | PROT_WRITE
            self.mm.close()


@pytest.fixture
def guard():
    g = GuardedBuffer()
    if g.libc is None:
        pytest.skip("cannot set up a guard page here")
    yield g
    g.close()


def test_sizes_1_to_200_end_at_guard_page(guard):
    for n in range(1, 201):
        for doc in docs_of_size(n):
            view = guard.view(doc)
            try:
                got = capture(jetjson.loads, view)
            finally:
                view.release()
            assert_same_outcome(got, json_oracle(doc), f"{n} bytes: {doc[-20:]!r}", jetjson)


@pytest.mark.parametrize("n", sorted({4095, 4096, 4097, PAGE - 1, PAGE, 8191, 8192, 8193}))
def test_large_sizes_end_at_guard_page(guard, n):
    for doc in docs_of_size(n):
        view = guard.view(doc)
        try:
            got = capture(jetjson.loads, view)
        finally:
            view.release()
        assert_same_outcome(got, json_oracle(doc), f"{n} bytes: {doc[-20:]!r}", jetjson)


def padded_doc(n, tail):
    """A valid document of exactly n bytes whose last bytes are `tail`."""
    head = b'{"filler": "'
    body = head + b"x" * (n - len(head) - len(b'", "v": ') - len(tail) - 1) + b'", "v": '
    doc = body + tail + b"}"
    assert len(doc) == n
    return doc


def array_ending_at(n):
    items = b"1," * ((n - 3) // 2) + b"1"
    return b"[" + b" " * (n - 2 - len(items)) + items + b"]"


@pytest.mark.parametrize("n", sorted({4095, 4096, 4097, PAGE, 2 * PAGE, 8191, 8193}))
def test_files_at_page_sizes(tmp_path, n):
    docs = [
        b'{"a": [1, 2, 3]}'.ljust(n, b" "),  # padded with spaces to n
        b" " * (n - 5) + b"12345",  # number ending at the last byte
        b" " * (n - 4) + b"true",
        b" " * (n - 5) + b"false",
        b" " * (n - 4) + b"null",
        b'"' + b"s" * (n - 2) + b'"',  # string ending at the last byte
        array_ending_at(n),  # "]" at the last byte
        b" " * (n - 7) + b"1.5e+10",
        b'"' + b"s" * (n - 1),  # unterminated string at the end
        b" " * (n - 3) + b"tru",
        b" " * (n - 2) + b"1.",
        padded_doc(n, b"[true]"),
        padded_doc(n, b'"\xc3\xa9"'),
    ]
    for i, doc in enumerate(docs):
        if len(doc) != n:
            doc = doc[:n] if len(doc) > n else doc.ljust(n, b" ")
        path = write(tmp_path, f"doc{n}_{i}.json", doc)
        exp = json_oracle(doc)
        assert_same_outcome(capture(jetjson.load_file, str(path)), exp, f"load_file {n}/{i}",
                            jetjson)
        with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            with memoryview(mm) as view:
                got = capture(jetjson.loads, view)
            assert_same_outcome(got, exp, f"loads(mmap) {n}/{i}", jetjson)


@pytest.mark.parametrize("path", data_params("corpus"))
def test_corpus_through_mmap(path):
    expected = json.loads(read_bytes(path))
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        with memoryview(mm) as view:
            assert_same_value(jetjson.loads(view), expected, "memoryview of mmap")


def test_json_test_suite_files_at_guard_page(guard):
    paths = [p.values[0] for p in data_params("JSONTestSuite/test_parsing") if p.values[0]]
    paths += [p.values[0] for p in data_params("nativejson/jsonchecker") if p.values[0]]
    if not paths:
        pytest.skip("test data not found: <repo>/data or $JETJSON_DATA")
    for path in paths:
        raw = read_bytes(path)
        if len(raw) > guard.end:
            continue
        view = guard.view(raw)
        try:
            got = capture(jetjson.loads, view)
        finally:
            view.release()
        assert_same_outcome(got, json_oracle(raw), os.path.basename(path), jetjson)


def test_corpus_files_are_listed():
    names = list_data_files("corpus")  # all of them, also under the sanitizers
    if not names:
        pytest.skip("test data not found: <repo>/data or $JETJSON_DATA")
    assert len(names) >= 20


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
@pytest.mark.parametrize("size", [0, 10, 70_000, 300_000])
def test_load_file_reads_a_pipe(tmp_path, size):
    """Pipes cannot be mapped; their whole content must still be read (several reads)."""
    import threading

    doc = json.dumps({"k": "x" * size, "n": [1, 2.5, None]}).encode()
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)

    def writer():
        with open(fifo, "wb") as f:
            f.write(doc)

    t = threading.Thread(target=writer)
    t.start()
    try:
        got = jetjson.load_file(fifo)
    finally:
        t.join()
    assert_same_value(got, json.loads(doc))


def test_load_file_reads_a_file_whose_stat_size_is_zero():
    """procfs files report size 0 but have content: it must not be taken as empty."""
    path = "/proc/self/mountinfo"
    if not os.path.exists(path):
        pytest.skip("no procfs")
    text = open(path, "rb").read()
    with pytest.raises(jetjson.JSONDecodeError) as got:
        jetjson.load_file(path)
    with pytest.raises(json.JSONDecodeError) as want:
        json.loads(text)
    assert got.value.msg == want.value.msg
