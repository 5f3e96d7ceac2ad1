"""loads_arrow on a binary file object (readinto or read, no path): read in chunks of
block_size bytes, each chunk's whole lines handed to the engine. The table must be the
one loads_arrow gives for the whole bytes, and pyarrow.json.read_json's, for every block
size (lines straddle chunks at tiny ones), short reads, records across lines, with and
without a schema; errors name the same record; input memory stays bounded; no leak."""

import io
import json
import os
import random
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

pa = pytest.importorskip("pyarrow")
pj = pytest.importorskip("pyarrow.json")

try:
    from conftest import data_params, data_path, hyp_settings, read_bytes, traced_growth
except ImportError:  # tests/ turned into a package
    from .conftest import data_params, data_path, hyp_settings, read_bytes, traced_growth

NDJSON = data_params("ndjson", suffix=".ndjson")
BLOCKS = [1, 7, 64, 4096, 1 << 20]


class ShortReads(io.RawIOBase):
    """A raw stream whose readinto gives 1..7 bytes at a time."""

    def __init__(self, data, seed=0):
        self.data, self.pos, self.rng = memoryview(data), 0, random.Random(seed)

    def readable(self):
        return True

    def readinto(self, b):
        n = min(len(b), self.rng.randint(1, 7), len(self.data) - self.pos)
        b[:n] = self.data[self.pos:self.pos + n]
        self.pos += n
        return n


class ReadOnly:
    """Only read(n) (no readinto), short reads of 1..most bytes, bytearray results."""

    def __init__(self, data, seed=0, most=7):
        self.data, self.pos, self.rng, self.most = data, 0, random.Random(seed), most

    def read(self, n):
        k = min(n, self.rng.randint(1, self.most))
        out = bytearray(self.data[self.pos:self.pos + k])
        self.pos += len(out)
        return out


def outcome(fn):
    try:
        return pa.table(fn())
    except ValueError as exc:
        return exc


def pyarrow_outcome(data, schema=None):
    opts = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore") if schema else None
    read = pj.ReadOptions(block_size=max(1 << 20, len(data) + 1), use_threads=False)
    try:
        return pj.read_json(io.BytesIO(data), read_options=read, parse_options=opts)
    except (pa.ArrowInvalid, OverflowError) as exc:
        return exc


def same_table(got, exp, what):
    assert not isinstance(got, Exception), f"{what}: raised {got!r}, expected {exp.schema}"
    assert got.schema == exp.schema, f"{what}:\n{got.schema}\n{exp.schema}"
    if not got.equals(exp):  # NaN: compare the texts
        texts = [json.dumps(t.to_pylist(), default=repr) for t in (got, exp)]
        assert texts[0] == texts[1], what


def check(data, schema=None, blocks=BLOCKS, oracle=True):
    """The file-object read against loads_arrow(bytes) (same table or same error
    message) and against pyarrow (same table, or an error where it refuses)."""
    whole = outcome(lambda: jetjson.loads_arrow(data, schema))
    readers = [(f"BytesIO block={b}", lambda b=b: jetjson.loads_arrow(io.BytesIO(data), schema, block_size=b))
               for b in blocks]
    readers.append(("short readinto", lambda: jetjson.loads_arrow(ShortReads(data), schema, block_size=16)))
    readers.append(("short read", lambda: jetjson.loads_arrow(ReadOnly(data), schema, block_size=16)))
    for what, fn in readers:
        got = outcome(fn)
        if isinstance(whole, Exception):
            assert isinstance(got, Exception), f"{what}: {whole} on bytes, a table here"
            assert str(got) == str(whole), what
        else:
            same_table(got, whole, what)
    if oracle:
        exp = pyarrow_outcome(data, schema)
        if isinstance(exp, Exception):
            assert isinstance(whole, Exception), f"pyarrow refused ({exp})"
        else:
            same_table(whole, exp, "pyarrow")
    return whole


def ndjson(records, sep="\n"):
    return "".join(json.dumps(r, ensure_ascii=False) + sep for r in records).encode()


# ---- data ----


@pytest.mark.parametrize("path", NDJSON)
def test_data_ndjson_files(path):
    check(read_bytes(path), blocks=[1, 100, 1 << 16])


def test_amazon_as_objects():
    path = data_path("ndjson", "amazon_cellphones.ndjson")
    if path is None or not os.path.exists(path):
        pytest.skip("data not found")
    rows = [json.loads(line) for line in read_bytes(path).splitlines() if line.strip()]
    data = ndjson(dict(zip(rows[0], row)) for row in rows[1:])
    assert check(data, blocks=[1, 1000, 65536]).num_rows == len(rows) - 1


def events(n, seed):
    """Event-like records: nested objects, lists, timestamps, escapes, non-ASCII, fields
    that come and go and null before their type shows."""
    rng = random.Random(seed)
    for i in range(n):
        rec = {"id": i, "type": rng.choice(["Push", "Fork", "Watch\u00e9", 'q"uote\n']),
               "created_at": f"2015-01-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:00:00Z"}
        if rng.random() < 0.7:
            rec["actor"] = {"login": "u" * rng.randint(0, 30), "id": rng.randint(0, 2**40),
                            "score": rng.choice([None, 1.5, 2])}
        if rng.random() < 0.5:
            rec["payload"] = {"size": rng.choice([None, rng.randint(0, 9)]),
                              "commits": [{"sha": f"{rng.getrandbits(64):x}", "distinct": rng.random() < 0.5}
                                          for _ in range(rng.randint(0, 3))]}
        if i > n // 2:
            rec["late"] = rng.choice([None, "x" * rng.randint(0, 5000)])  # a field new mid-stream, long lines
        yield rec


@pytest.mark.parametrize("seed", [1, 2])
def test_generated_events(seed):
    data = ndjson(events(400, seed))
    check(data, blocks=[1, 333, 4096, 1 << 20])
    schema = pa.schema([("id", pa.uint64()), ("created_at", pa.timestamp("s", "UTC")),
                        ("actor", pa.struct([("login", pa.string()), ("score", pa.float64())])),
                        ("payload", pa.struct([("commits", pa.list_(pa.struct([("sha", pa.string())])))])),
                        ("absent", pa.bool_())])
    check(data, schema, blocks=[1, 333, 1 << 20])


CASES = [
    b"", b"\n", b"  \n\r\n", b"{}", b"null\n", b'{"a":1}', b'{"a":1}\r\n{"a":2}\r\n', b'{"a":1}\r\n{"a":2}',
    b'{"a":1}\n\n\n{"b":"x"}\n   \n', b'{"a":null}\n{"a":null}\n{"a":[1]}\n', b'{"a":1}\n{"a":2.5}\n{"a":3}\n',
    b'{"t":"2015-01-01"}\n{"t":null}\n{"t":"2015-01-01T10:00:00Z"}\n', b'{"t":"2015-01-01"}\n{"t":"x"}\n',
    b'{"a":1}\n{"a":"x"}\n', b'{"a":{"b":1}}\n{"a":{"b":[1]}}\n', b'{"a":1}\n{"a":1,}\n{"a":1}\n',
    b'{"a":1}\n{"a":1}\n{"a":', b'{"a":1}\n[1]\n', b'{"a":1,"a":2}\n', b'{"s":"\\u00e9\\n"}\n{"s":"\xc3\xa9"}\n',
    b'{"a":1}\n{"a":"\xff"}\n', b'{"a":"unclosed\n{"a":1}\n',
]


@pytest.mark.parametrize("data", CASES, ids=lambda d: repr(d[:30]))
def test_cases(data):
    # pyarrow refuses an empty file (loads_arrow reads a table of no columns) and crashes
    # on a file of one null record
    table = check(data, oracle=data not in (b"", b"null\n"))
    if data == b"":
        assert table.num_rows == 0 and table.num_columns == 0


@pytest.mark.parametrize("data", [
    b'{"a":\n1}\n{"a":2}{"a":3}\n  {"a"\n:\n4}', b'{"a":1} {"a":2}\n{"a":\n[1,\n2]}\n',
    b'{"a":1}\n{"a":\n"x"}\n', b'{"a":1}\n{"a":\n1,}\n', b'{"a":1}\n{"a":\n',
])
def test_records_across_lines(data):
    """pyarrow reads one record per line; both ways of loads_arrow read them alike."""
    check(data, oracle=False)


def test_errors_name_the_record():
    lines = [b'{"a": %d, "s": "x"}' % i for i in range(300)]
    for bad, at in [(b'{"a": 1,}', 250), (b'{"a": "text"}', 180), (b'{"s": 5}', 299), (b"[1]", 0)]:
        data = b"\n".join(lines[:at] + [bad] + lines[at + 1:]) + b"\n"
        whole = outcome(lambda: jetjson.loads_arrow(data))
        assert isinstance(whole, ValueError) and f"record {at}" in str(whole)
        for block in (1, 50, 1000):
            with pytest.raises(ValueError) as info:
                jetjson.loads_arrow(io.BytesIO(data), block_size=block)
            assert str(info.value) == str(whole)


def test_long_line_grows_the_buffer():
    data = ndjson([{"a": "x" * 100000, "b": 1}, {"a": "y", "b": 2}] * 3)
    check(data, blocks=[1, 100, 70000])


def test_batches_follow_block_size():
    data = ndjson({"i": i} for i in range(1000))
    reader = pa.RecordBatchReader.from_stream(jetjson.loads_arrow(io.BytesIO(data), block_size=1000))
    batches = list(reader)
    assert sum(b.num_rows for b in batches) == 1000 and len(batches) > 5


def test_text_file_refused(tmp_path):
    with pytest.raises(TypeError, match="binary"):
        jetjson.loads_arrow(io.StringIO('{"a":1}\n'))
    path = tmp_path / "x.ndjson"
    path.write_bytes(b'{"a":1}\n')
    with open(path) as f, pytest.raises(TypeError, match="binary"):
        jetjson.loads_arrow(f)
    with open(path, "rb") as f:
        assert pa.table(jetjson.loads_arrow(f)).to_pylist() == [{"a": 1}]


def test_gzip_file(tmp_path):
    import gzip
    data = ndjson(events(300, 5))
    path = tmp_path / "x.ndjson.gz"
    with gzip.open(path, "wb") as f:
        f.write(data)
    with gzip.open(path, "rb") as f:
        same_table(pa.table(jetjson.loads_arrow(f, block_size=4096)), pa.table(jetjson.loads_arrow(data)), "gzip")


def test_file_object_misbehaving():
    class Exploding(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, b):
            raise OSError("disk on fire")

    with pytest.raises(OSError, match="disk on fire"):
        jetjson.loads_arrow(Exploding())

    class TooMuch:
        def readinto(self, b):
            return len(b) + 1

    with pytest.raises(ValueError, match="readinto"):
        jetjson.loads_arrow(TooMuch())

    class NonBlocking:
        def read(self, n):
            return None

    with pytest.raises(BlockingIOError):
        jetjson.loads_arrow(NonBlocking())

    class KeepsTheView:
        """Holds a slice of the buffer past the call (and writes to it later)."""

        def __init__(self):
            self.data = io.BytesIO(b'{"a":1}\n' * 50)

        def readinto(self, b):
            self.kept = b[0:4]
            return self.data.readinto(b)

    f = KeepsTheView()
    assert pa.table(jetjson.loads_arrow(f, block_size=16)).num_rows == 50
    f.kept[:] = b"abcd"

    class ReadsNumbers:
        def read(self, n):
            return 12

    with pytest.raises(TypeError, match="bytes"):
        jetjson.loads_arrow(ReadsNumbers())


# ---- hypothesis ----

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-2**63, 2**63 - 1), st.integers(-2**70, 2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
    st.sampled_from(["2015-01-01", "2015-01-01T15:00:00Z", "1999-12-31 23:59"]),
)
values = st.recursive(scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=3), st.dictionaries(st.sampled_from("abc"), kids, max_size=3)), max_leaves=6)
records = st.lists(st.dictionaries(st.sampled_from("abcdef"), values, max_size=5), max_size=8)


@hyp_settings(150)
@given(records, st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_hypothesis_records(recs, sep, trailing):
    data = ndjson(recs, sep)
    if not trailing:
        data = data.rstrip(b"\r\n")
    check(data, blocks=[1, 13, 1 << 20], oracle=False)


typed_records = st.lists(st.fixed_dictionaries({}, optional={
    "i": st.one_of(st.none(), st.integers(-2**63, 2**63 - 1)),
    "f": st.one_of(st.none(), st.integers(-1000, 1000), st.floats(allow_nan=False, allow_infinity=False)),
    "s": st.one_of(st.none(), st.text()),
    "o": st.one_of(st.none(), st.fixed_dictionaries({}, optional={"x": st.text(max_size=3), "y": st.booleans()})),
}), max_size=10)


@hyp_settings(150)
@given(typed_records, st.sampled_from([1, 20, 1 << 20]))
def test_hypothesis_typed_records_vs_pyarrow(recs, block):
    check(ndjson(recs) or b"\n", blocks=[block])


# ---- memory ----

BOUNDED = textwrap.dedent("""
    import io, resource
    import jetjson, pyarrow as pa
    line = b'{"id": 7, "pad": "%s", "more": [1, 2, {"x": null}]}\\n' % (b"p" * 1000)
    block = memoryview(line * (1024 * 1024 // len(line)))
    lines = 200 * 1024 * 1024 // len(line)

    class Lines(io.RawIOBase):
        sent = 0
        def readable(self):
            return True
        def readinto(self, b):
            at = self.sent % len(block)
            n = min(len(b), len(block) - at, lines * len(line) - self.sent)
            b[:n] = block[at:at + n]
            self.sent += n
            return n

    def rss_peak_kib():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    schema = pa.schema([("id", pa.int64())])
    pa.table(jetjson.loads_arrow(io.BytesIO(line * 3), schema))  # first-call costs (some 50 MB, pyarrow's)
    before = rss_peak_kib()
    stream = jetjson.loads_arrow(Lines(), schema, block_size=1 << 20)
    table = pa.table(stream)
    assert table.num_rows == lines and table.column("id").to_pylist()[-3:] == [7, 7, 7]
    print(lines, rss_peak_kib() - before)
""")


def test_bounded_input_memory():
    """200 MB of lines from a generator-backed raw stream: the peak RSS grows by a few
    buffers of 1 MiB and the small output, not by the input's size."""
    if os.environ.get("JETJSON_SANITIZED"):
        pytest.skip("sanitizer shadow memory skews RSS")
    out = subprocess.run([sys.executable, "-c", BOUNDED], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    assert out.returncode == 0, out.stderr
    rows, grown_kib = map(int, out.stdout.split())
    assert rows > 190000
    assert grown_kib < 16 * 1024, f"peak RSS grew by {grown_kib} KiB for 200 MiB of input"


def test_no_leak():
    data = ndjson(events(30, 3))
    schema = pa.schema([("id", pa.int64()), ("actor", pa.struct([("login", pa.string())]))])
    before = sys.getrefcount(data), sys.getrefcount(schema)

    def run():
        pa.table(jetjson.loads_arrow(io.BytesIO(data), block_size=500))
        pa.table(jetjson.loads_arrow(ReadOnly(data, most=300), schema, block_size=500))
        for bad in (b'{"a":1}\n{"a":"x"}\n', b'{"a":1}\n{"a":1,}\n'):
            try:
                jetjson.loads_arrow(io.BytesIO(bad), block_size=4)
            except ValueError:
                pass
        try:
            jetjson.loads_arrow(io.StringIO("{}"))
        except TypeError:
            pass

    # the smaller of two measures: a first one can catch caches filling (pyarrow's, the
    # interpreter's) in a long test run; a leak grows in both
    assert min(traced_growth(run, 200) for _ in range(2)) < 64 * 1024
    assert (sys.getrefcount(data), sys.getrefcount(schema)) == before
    f = io.BytesIO(data)
    refs = sys.getrefcount(f)
    jetjson.loads_arrow(f)
    assert sys.getrefcount(f) == refs


def test_bad_timestamp_message_stops_at_the_string():
    """Regression (fuzz_arrow): the message quoted up to 40 bytes from the string's start,
    past its end (the input is not NUL-terminated there)."""
    schema = pa.schema([("t", pa.timestamp("s"))])
    data = b'{"t":"2015-01-01 1"}\n{"t":"x"}\n'
    for source in (data, io.BytesIO(data)):
        with pytest.raises(ValueError) as info:
            jetjson.loads_arrow(source, schema)
        assert str(info.value) == "record 0, field '/t': invalid timestamp \"2015-01-01 1\""


def test_big_input_read_in_windows():
    """Inputs over 2 MiB are read in 1 MiB windows even from bytes (jj_arrow_read_ndjson
    feeds its own reader): pyarrow's table, and errors naming the record."""
    records = list(events(6000, 9))
    data = ndjson(records)
    assert len(data) > 3 << 20
    exp = pyarrow_outcome(data)
    same_table(pa.table(jetjson.loads_arrow(data)), exp, "bytes")
    same_table(pa.table(jetjson.loads_arrow(data, block_size=1000)), exp, "small batches")
    lines = data.split(b"\n")
    for at, bad in [(5000, b'{"id": "text"}'), (4321, b'{"id": 1,}'), (5999, b'{"actor": 5}')]:
        broken = b"\n".join(lines[:at] + [bad] + lines[at + 1:])
        with pytest.raises(ValueError, match=f"^record {at}[:,]"):
            jetjson.loads_arrow(broken)
        with pytest.raises(ValueError, match=f"^record {at}[:,]"):
            jetjson.loads_arrow(broken, threads=2)
