"""Streams read from files and file objects at scale: a top-level array element by
element against ijson (the library people use for that), memory that stays bounded on a
1 GB file, and positions past 4 GiB."""

import io
import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

try:
    from conftest import TEST_SCALE, data_params, data_path, hyp_settings, list_data_files, read_bytes, traced_growth
except ImportError:  # tests/ turned into a package
    from .conftest import TEST_SCALE, data_params, data_path, hyp_settings, list_data_files, read_bytes, traced_growth

ijson = pytest.importorskip("ijson")

CORPUS = data_params("corpus")
SANITIZED = os.environ.get("JETJSON_SANITIZED") == "1"


class ShortReads(io.RawIOBase):
    """A binary file object that hands out at most `step` bytes per call, so that
    documents straddle every kind of read boundary."""

    def __init__(self, data, step):
        self.data, self.at, self.step = data, 0, step

    def readable(self):
        return True

    def readinto(self, b):
        n = min(len(b), self.step, len(self.data) - self.at)
        b[:n] = self.data[self.at:self.at + n]
        self.at += n
        return n


def ijson_items(data):
    # use_float: ijson's default gives Decimal for every number with a fraction
    return list(ijson.items(io.BytesIO(data), "item", use_float=True))


# ---- format="array" on a file object, against ijson.items ----

@pytest.mark.parametrize("path", CORPUS)
def test_corpus_array_matches_ijson(path):
    data = read_bytes(path)
    if not data.lstrip().startswith(b"["):
        pytest.skip("not a top-level array")
    expected = ijson_items(data)
    assert expected == json.loads(data)  # the oracles agree with each other
    assert list(jetjson.loads_many(io.BytesIO(data), format="array")) == expected
    got = list(jetjson.loads_many(io.BufferedReader(ShortReads(data, 4093)), format="array", batch_size=1 << 12))
    assert got == expected


def test_corpus_records_as_one_array_match_ijson():
    # every object-valued corpus file as the element of one big array
    names = list_data_files("corpus")
    if not names:
        pytest.skip("test data not found")
    records = [read_bytes(data_path("corpus", n)).strip() for n in names]
    data = b"[\n" + b",\n".join(records) + b"\n]"
    expected = ijson_items(data)
    for batch in (1 << 10, 1 << 16, 1 << 20):
        got = list(jetjson.loads_many(io.BufferedReader(ShortReads(data, 65521)), format="array", batch_size=batch))
        assert got == expected, batch


scalars = (st.none() | st.booleans() | st.integers(-(2**63) + 1, 2**63 - 1)  # ijson: 64-bit ints only
           | st.floats(allow_nan=False, allow_infinity=False)
           | st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20))
values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=5)
                      | st.dictionaries(st.text(max_size=6), kids, max_size=5), max_leaves=20)


@given(st.lists(values, max_size=30), st.integers(1, 64), st.sampled_from([", ", ",", ",\n  "]))
@hyp_settings(300)
def test_generated_arrays_match_ijson(items, step, sep):
    data = ("[" + sep.join(json.dumps(v, ensure_ascii=False) for v in items) + "]").encode()
    expected = ijson_items(data)
    got = list(jetjson.loads_many(io.BufferedReader(ShortReads(data, step), 16), format="array", batch_size=64))
    assert got == expected


def test_truncated_array_on_a_file_is_an_error_after_its_elements():
    data = b'[{"a": 1}, {"b": 2}, {"c": '
    with pytest.raises(Exception):
        ijson_items(data)
    got = []
    with pytest.raises(json.JSONDecodeError):
        for doc in jetjson.loads_many(io.BytesIO(data), format="array"):
            got.append(doc)
    assert got == [{"a": 1}, {"b": 2}]


# ---- scale: a 1 GB file, positions past 4 GiB ----

def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def record(i):
    return {"id": i, "user": {"login": "u%d" % (i % 977), "site_admin": i % 7 == 0},
            "tags": ["t%d" % (i % 13), "x" * (i % 40)], "score": i * 0.25}


def block_of_records(first, count):
    return "".join(json.dumps(record(i)) + "\n" for i in range(first, first + count)).encode()


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="resident memory is read from /proc")
@pytest.mark.skipif(SANITIZED or TEST_SCALE < 1, reason="a 1 GB run: not under the sanitizers")
def test_one_gigabyte_file_in_bounded_memory(tmp_path):
    # 1 GB of NDJSON on disk, read from the open file and mapped: every document is
    # built and checked, and the process grows by less than 100 MB while it runs
    per_block = 4096
    block = block_of_records(0, per_block)  # ids repeat per block; checked below
    n_blocks = (10**9 + len(block) - 1) // len(block)
    path = tmp_path / "big.ndjson"
    try:
        with open(path, "wb") as f:
            for _ in range(n_blocks):
                f.write(block)
    except OSError as exc:
        pytest.skip("no room for 1 GB in the temp dir: %s" % exc)
    expected_sum = sum(r["id"] for r in map(json.loads, block.splitlines()))

    def read_all(documents):
        start = resident_bytes()
        peak = start
        count = id_sum = 0
        for doc in documents:
            count += 1
            id_sum += doc["id"]
            if count % 50_000 == 0:
                peak = max(peak, resident_bytes())
                assert doc == record((count - 1) % per_block)
        assert count == n_blocks * per_block
        assert id_sum == expected_sum * n_blocks
        return peak - start

    try:
        with open(path, "rb") as f:
            growth = read_all(jetjson.loads_many(f))
        assert growth < 100 * 2**20, growth >> 20
        # mapped: the pages read are given back as the stream moves on
        growth = read_all(jetjson.load_many_file(path))
        assert growth < 100 * 2**20, growth >> 20
    finally:
        os.unlink(path)


class RepeatedBlocks(io.RawIOBase):
    """`count` copies of `block`, then `tail`: a stream of any size without a file."""

    def __init__(self, block, count, tail):
        self.block, self.left, self.tail = block, count, tail
        self.piece, self.at = memoryview(b""), 0

    def readable(self):
        return True

    def readinto(self, b):
        if self.at == len(self.piece):
            if self.left > 0:
                self.left -= 1
                self.piece, self.at = memoryview(self.block), 0
            elif self.tail is not None:
                self.piece, self.at, self.tail = memoryview(self.tail), 0, None
            else:
                return 0
        n = min(len(b), len(self.piece) - self.at)
        b[:n] = self.piece[self.at:self.at + n]
        self.at += n
        return n


@pytest.mark.skipif(SANITIZED or TEST_SCALE < 1, reason="a 4 GiB run: not under the sanitizers")
def test_positions_past_four_gibibytes():
    # 4.25 GiB of documents from a stream (no disk needed), then a malformed one: every
    # document is read, and the error's position counts past 2**32 in chars and lines
    block = block_of_records(0, 8192)
    lines_per_block = block.count(b"\n")
    count = (4 * 2**30 + 2**28) // len(block) + 1
    # the bad value is on the pointer's path: fields= skips only values it does not read
    tail = b'{"id": tru, "bad": 1}\n'
    total = count * len(block)
    assert total > 2**32
    seen = 0
    with pytest.raises(json.JSONDecodeError) as info:
        for _ in jetjson.loads_many(RepeatedBlocks(block, count, tail), fields="/id", batch_size=1 << 22):
            seen += 1
    assert seen == count * lines_per_block
    expected = json.JSONDecodeError("Expecting value", tail.decode(), tail.index(b"tru"))
    exc = info.value
    assert exc.msg == expected.msg
    assert exc.pos == total + expected.pos
    assert exc.lineno == count * lines_per_block + 1
    assert exc.colno == expected.colno


def test_error_in_a_mapped_file_keeps_the_map_not_a_copy(tmp_path):
    # the exception's doc is the whole input, as json's is; for a mapped file it is made
    # from the map when read, not copied when the error is raised
    import tracemalloc

    block = block_of_records(0, 2000)
    tail = b'{"id": tru, "bad": 1}\n'  # on the path: fields= reads it
    path = tmp_path / "bad.ndjson"
    path.write_bytes(block * 20 + tail)
    whole = (block * 20 + tail).decode()
    tracemalloc.start()
    try:
        with pytest.raises(json.JSONDecodeError) as info:
            for _ in jetjson.load_many_file(path, fields="/id"):
                pass
        # what this test's lines allocated and still hold (a copy would be held by the
        # exception); other threads of the process may allocate meanwhile
        held = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(True, __file__)])
    finally:
        tracemalloc.stop()
    biggest = max((t.size for t in held.traces), default=0)
    assert biggest < len(block), biggest
    exc = info.value
    with pytest.raises(json.JSONDecodeError) as oracle:
        for line in whole.splitlines(keepends=True):
            json.loads(line)
    assert (exc.msg, exc.colno) == (oracle.value.msg, oracle.value.colno)
    assert exc.pos == len(whole) - len(tail) + oracle.value.pos
    assert exc.lineno == whole.count("\n")
    assert exc.doc == whole


# ---- the file object's side: readinto, read, and files that misbehave ----

LINES = b'{"a": 1}\n[2]\n"x"\n'


class OnlyRead(io.RawIOBase):
    """Defines read alone: its inherited readinto raises NotImplementedError. Gives at
    most `step` bytes a call (all it is asked for when step is None)."""

    def __init__(self, data, step=3):
        self.data, self.at, self.step = data, 0, step

    def readable(self):
        return True

    def read(self, size=-1):
        n = size if self.step is None else self.step
        piece = self.data[self.at:self.at + n]
        self.at += len(piece)
        return piece


class OnlyReadinto:
    def __init__(self, data):
        self.data, self.at, self.kept = data, 0, None

    def readinto(self, buffer):
        self.kept = buffer
        piece = self.data[self.at:self.at + 2]
        buffer[:len(piece)] = piece
        self.at += len(piece)
        return len(piece)


@pytest.mark.parametrize("make", [OnlyRead, OnlyReadinto, io.BytesIO, lambda d: io.BufferedReader(ShortReads(d, 5))])
def test_file_objects_of_every_kind(make):
    assert list(jetjson.loads_many(make(LINES))) == [json.loads(x) for x in LINES.splitlines()]


def test_a_kept_buffer_is_released_after_the_call():
    f = OnlyReadinto(LINES)
    assert len(list(jetjson.loads_many(f))) == 3
    with pytest.raises(ValueError):  # released: the stream's buffer is out of its reach
        f.kept[0]


def test_readinto_errors_come_through():
    class Broken:
        def readinto(self, buffer):
            raise OSError("the disk went away")

    class Lies:
        def readinto(self, buffer):
            return len(buffer) + 1

    with pytest.raises(OSError, match="disk went away"):
        list(jetjson.loads_many(Broken()))
    with pytest.raises(ValueError, match="readinto returned"):
        list(jetjson.loads_many(Lies()))


def collections_during(fn):
    """Collections the cyclic GC ran while fn() ran, with the usual thresholds."""
    import gc

    gc.collect()
    before = sum(g["collections"] for g in gc.get_stats())
    result = fn()
    after = sum(g["collections"] for g in gc.get_stats())
    return after - before, result


@pytest.mark.parametrize("make", [io.BytesIO, lambda d: io.BufferedReader(ShortReads(d, 1 << 16)),
                                  lambda d: OnlyRead(d, step=None)])
def test_reading_a_file_sets_off_no_more_collections_than_bytes(make):
    # Documents are built with the collector paused; a read between windows must not run
    # the collections they made due (it did, about once a window: 36 times for 40 MB).
    data = b"".join(b'{"k": [%d, {"v": "%d"}]}\n' % (i, i) for i in range(250000))
    from_bytes, expected = collections_during(lambda: list(jetjson.loads_many(data)))
    from_file, got = collections_during(lambda: list(jetjson.loads_many(make(data))))
    assert got == expected
    assert from_file <= from_bytes + 1  # the file object and its first read may run one


@pytest.mark.skipif(not hasattr(__import__("mmap"), "MAP_PRIVATE"), reason="needs mmap.MAP_PRIVATE")
def test_a_writable_private_map_keeps_its_bytes():
    # a read-only view of a map written by the program: its pages must not be given back
    # (they would come back as zeros), only those of a map that is read-only itself
    import mmap

    line = b'{"id": 1234567, "name": "abcdefghijklmnopqrstuvwxyz"}\n'
    n = (80 << 20) // len(line)
    m = mmap.mmap(-1, n * len(line), flags=mmap.MAP_PRIVATE)
    m.write(line * n)
    view = memoryview(m).toreadonly()
    try:
        assert sum(1 for v in jetjson.loads_many(view, fields="/id") if v == 1234567) == n
        assert bytes(view[:len(line)]) == line and bytes(view[-len(line):]) == line
    finally:
        view.release()
        m.close()


def test_file_objects_leak_nothing():
    # reading a file object with readinto leaves a constant few KB of traced memory after
    # the first rounds (100 rounds: 13 KB, 6400: 7 KB), so the test is that the growth
    # does not grow with the rounds: a leak of 3 bytes a round would add 5 KB here
    import dataclasses

    @dataclasses.dataclass
    class Record:
        a: int = 0

    data = b'{"a": 1, "b": [1, 2]}\n' * 20

    def run():
        list(jetjson.loads_many(io.BytesIO(data), batch_size=64))
        list(jetjson.loads_many(io.BytesIO(data), type=Record, batch_size=64))
        list(jetjson.loads_many(OnlyRead(data)))

    few = min(traced_growth(run, repeat=200) for _ in range(2))
    many = min(traced_growth(run, repeat=2000) for _ in range(2))
    assert many < few + 4000, (few, many)
