"""loads_arrow on wide tables (more than 64 columns) read in windows and on threads,
against pyarrow.json.read_json: each thread merges the types of its windows itself and
the calling thread merges one type tree per thread; struct fields are caught up with
nulls by the window's reader; a window widened for its columns is one record batch.
The cases: types that change between parts (int then double, null then a value,
strings that are timestamps in one part only), fields only in a later part, nulls only
in one part, keys in another order from one record to the next, nested structs."""

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

pa = pytest.importorskip("pyarrow")
pytest.importorskip("pyarrow.json")

from arrow_oracle import check_threads, oracle  # noqa: E402 - after the skip

try:
    from conftest import hyp_settings
except ImportError:  # tests/ turned into a package
    from .conftest import hyp_settings

WIDE = 80  # columns: past 64, the windows are 16 KiB a column (1.25 MiB here)


def check(data, threads=(1, 2, 3)):
    check_threads(data, threads)


def lines(records):
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def repeated(records, size):
    text = lines(records)
    return text * (size // len(text) + 1)


def wide_record(i, kinds, rng, shuffle=True, nulls=0.0):
    """A record of one field per entry of kinds ("int", "double", "str", "ts", "bool",
    "null", "obj"), value i-based, its keys shuffled, some values null."""
    rec = {}
    for k, kind in enumerate(kinds):
        if kind is None or (nulls and rng.random() < nulls):
            value = None
        elif kind == "int":
            value = i * 7 + k
        elif kind == "double":
            value = (i * 7 + k) / 4
        elif kind == "str":
            value = f"s{i}-{k}"
        elif kind == "ts":
            value = f"20{10 + k % 10}-0{1 + i % 9}-1{i % 10}T0{k % 10}:1{i % 10}:00Z"
        elif kind == "bool":
            value = (i + k) % 3 == 0
        elif kind == "obj":
            value = {"x": i, "y": f"{k}"} if i % 2 else {"y": str(i)}
        else:
            value = None
        rec[f"f{k}"] = value
    if shuffle:
        keys = list(rec)
        rng.shuffle(keys)
        rec = {key: rec[key] for key in keys}
    return rec


def part(kinds, size, seed, **kw):
    rng = random.Random(seed)
    out, total, i = [], 0, 0
    while total < size:
        line = lines([wide_record(i, kinds, rng, **kw)])
        out.append(line)
        total += len(line)
        i += 1
    return b"".join(out)


BASE = ["int", "double", "str", "ts", "bool", "obj"] * (WIDE // 6) + ["int"] * (WIDE % 6)


@pytest.mark.parametrize("second", [
    BASE,                                                   # the same types everywhere
    ["double" if k == "int" else k for k in BASE],          # int64 columns turn double
    [None if k == "ts" else k for k in BASE],               # timestamps null in one part
    ["str" if k == "ts" else k for k in BASE],              # strings then timestamps: strings
    BASE + ["int", "str", "obj"],                           # fields only in the later part
    [None] * len(BASE),                                     # a part of nulls only
    ["str" if k == "int" else k for k in BASE],             # types that do not mix: an error
])
def test_wide_parts_against_pyarrow(second):
    # 1.3 MB per part: threads=1 reads the 2.6 MB in windows, threads=2 and 3 in parts
    data = part(BASE, 1300 * 1024, 1) + part(second, 1300 * 1024, 2, nulls=0.1)
    check(data)


def columns(schema):
    def count(t):
        return 1 + sum(count(t.field(i).type) for i in range(t.num_fields)) if pa.types.is_struct(t) else 1
    return 1 + sum(count(f.type) for f in schema)


def batch_bytes(data, batches):
    """The bytes of input of each batch (its records' lines)."""
    ends = [0] + [k + 1 for k, byte in enumerate(data) if byte == 0x0A]
    out, row = [], 0
    for b in batches:
        out.append(ends[row + b.num_rows] - ends[row])
        row += b.num_rows
    assert row == len(ends) - 1
    return out, max(y - x for x, y in zip(ends, ends[1:]))


def test_wide_batches_are_windows():
    data = part(BASE, 5 << 20, 3, shuffle=False)
    window = columns(oracle(data).schema) * 16 * 1024  # nested fields and the record count
    for threads in (1, 2):
        batches = list(pa.RecordBatchReader.from_stream(jetjson.loads_arrow(data, threads=threads)))
        sizes, longest = batch_bytes(data, batches)
        # one batch per window (the first window of each reader is 1 MiB: no columns known yet)
        assert 2 <= len(batches) <= len(data) // window + 2 * threads, (threads, sizes)
        assert max(sizes) <= window + longest and max(sizes) > (1 << 20) + longest, (threads, sizes)
        assert pa.Table.from_batches(batches).equals(oracle(data))
    # a narrow table keeps batches of block_size
    narrow = part(["int", "str", "double"], 3 << 20, 4, shuffle=False)
    batches = list(pa.RecordBatchReader.from_stream(jetjson.loads_arrow(narrow, threads=1, block_size=1 << 16)))
    sizes, longest = batch_bytes(narrow, batches)
    assert max(sizes) <= (1 << 16) + longest and len(batches) >= len(narrow) >> 16


KINDS = st.sampled_from(["int", "double", "str", "ts", "bool", "obj", None])
# how a field of the first part looks in the second: mostly alike or of a type that mixes
CHANGES = st.sampled_from(["same", "same", "same", "null", "widen", "untime"])


def changed(kind, change):
    if change == "null":
        return None
    if change == "widen":
        return "double" if kind == "int" else kind
    if change == "untime":
        return "str" if kind == "ts" else kind
    return kind


@hyp_settings(20)
@given(st.lists(KINDS, min_size=WIDE - 10, max_size=WIDE + 10), st.lists(st.tuples(CHANGES, KINDS), min_size=WIDE,
       max_size=WIDE + 10), st.integers(0, 1 << 30), st.sampled_from([0.0, 0.3]),
       st.one_of(st.none(), st.tuples(st.integers(0, WIDE - 11), KINDS)))
def test_hypothesis_wide_parts(first, changes, seed, nulls, clash):
    # two parts whose field types differ (keys in a random order in every record, fields
    # new in the second part): the tables of threads=1 (windows), 2 and 3 are pyarrow's,
    # or all three are errors
    second = [changed(first[k] if k < len(first) else kind, change) for k, (change, kind) in enumerate(changes)]
    if clash:  # one field of any type (mostly one that does not mix: an error)
        second[clash[0]] = clash[1]
    data = part(first, 1100 * 1024, seed, nulls=nulls) + part(second, 1100 * 1024, seed + 1)
    check(data)


TIMESTAMP_TEXTS = st.one_of(
    st.builds("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z".format, st.integers(1850, 2150), st.integers(0, 13),
              st.integers(0, 32), st.integers(0, 24), st.integers(0, 60), st.integers(0, 60)),
    st.builds("{:04}-{:02}-{:02} {:02}:{:02}:{:02}".format, st.integers(1999, 2001), st.integers(1, 12),
              st.integers(27, 31), st.integers(0, 23), st.integers(0, 59), st.integers(0, 59)),
    st.sampled_from(["2015-01-01", "2016-02-29 10:00", "2015-01-01T15:00:00+01:00", "2015-01-01T15:00:00.5Z",
                     "2015-01-01t15:00:00Z", "", "x", "2015-01-01T15:00:00ZZ"]),
    st.none(),
)


@hyp_settings(30)
@given(st.lists(TIMESTAMP_TEXTS, min_size=1, max_size=30), st.booleans())
def test_hypothesis_timestamp_columns(texts, big):
    # an inferred column of strings is timestamps when every one of them reads as one:
    # decided once the column is complete (each window, each thread's part), with nulls
    # anywhere; small inputs in one pass, big ones with the drawn texts only in the tail
    tail = lines({"t": t, "i": k} for k, t in enumerate(texts))
    data = tail
    if big:
        data = repeated([{"t": "2020-05-06T07:08:09Z", "i": 1}, {"t": None, "i": 2}], 2200 * 1024) + tail
    check(data, threads=(1, 2) if big else (1,))
