"""loads_arrow(threads=n) inferring, against pyarrow.json.read_json: the threads take
windows of the input in turn (a thread's reader carries its types from one of its
windows to its next, not to the window after it), the windows' types are folded in the
input's order as they are read, and every window is made of the merged types.

The inputs are runs of segments of very different sizes (from a few lines to several
windows), each of its own field types: fields met first in a late segment, columns null
in one segment only, int64 turning double, strings that are timestamps in some segments
only, types that do not mix (an error on every thread count), keys in a new order in
every record, runs of blank lines."""

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


def check(data, threads=(1, 2, 3, 4)):
    check_threads(data, threads)


def value(kind, i, rng):
    if kind == "int":
        return i * 3 - 7
    if kind == "double":
        return i / 8
    if kind == "str":
        return f"v{i}"
    if kind == "ts":
        return f"20{10 + i % 10}-0{1 + i % 9}-1{i % 10}T0{i % 10}:1{i % 10}:00Z"
    if kind == "bool":
        return i % 3 == 0
    if kind == "obj":
        return {"x": i} if i % 2 else {"y": str(i), "x": None}
    if kind == "list":
        return [i, i + 1][: i % 3]
    return None


def segment(fields, size, seed, nulls):
    """NDJSON of about `size` bytes: records of `fields` ((name, kind) pairs), their keys
    shuffled in every record, some values null; size 0: a run of blank lines."""
    if size == 0:
        return b"\n" * 300_000
    rng = random.Random(seed)
    out, total, i = [], 0, 0
    while total < size:
        rec = {name: None if rng.random() < nulls else value(kind, i, rng) for name, kind in fields}
        keys = list(rec)
        rng.shuffle(keys)
        line = (json.dumps({k: rec[k] for k in keys}) + "\n").encode()
        out.append(line)
        total += len(line)
        i += 1
    return b"".join(out)


KINDS = ["int", "double", "str", "ts", "bool", "obj", "list", None]
SIZES = st.sampled_from([0, 200, 40_000, 300_000, 900_000, 1_600_000])


@hyp_settings(15)
@given(st.lists(st.tuples(st.lists(st.tuples(st.integers(0, 14), st.sampled_from(KINDS)), min_size=1, max_size=10,
                                   unique_by=lambda f: f[0]), SIZES, st.sampled_from([0.0, 0.2, 1.0])),
                min_size=2, max_size=7),
       st.integers(0, 1 << 30))
def test_hypothesis_segments(segments, seed):
    # a field's kind is drawn per segment: mostly kinds that mix with the one before
    # (null, the same, int then double, timestamps then strings), sometimes not
    data = b"".join(segment([(f"f{k}", kind) for k, kind in fields], size, seed + n, nulls)
                    for n, (fields, size, nulls) in enumerate(segments))
    if not data.strip():
        return
    check(data)


def test_first_met_late_and_null_in_one_segment():
    # f0..f5 first met one per segment, in segments of very different sizes; "a" null in
    # the third segment only, int64 turning double in the last; a run of blank lines
    sizes = [1_500_000, 30_000, 700_000, 0, 2_500_000, 5_000, 1_200_000]
    parts = []
    for n, size in enumerate(sizes):
        fields = [(f"f{n}", "str"), ("a", None if n == 2 else "double" if n == len(sizes) - 1 else "int"),
                  ("o", "obj")]
        parts.append(segment(fields, size, n, 0.05))
    data = b"".join(parts)
    check(data)
    # the threads read windows of their own (several batches), not all again on one
    batches = list(pa.RecordBatchReader.from_stream(jetjson.loads_arrow(data, threads=2)))
    assert len(batches) >= 4


def test_windows_of_a_wide_table_and_a_clash():
    # 100 columns: windows of 16 KiB a column; then a field whose type does not mix in
    # a window near the end: the same error as one thread, naming the same record
    fields = [(f"c{k}", KINDS[k % 7]) for k in range(100)]
    data = segment(fields, 6_000_000, 1, 0.1)
    check(data)
    bad = data + segment([("c0", "str")], 50_000, 2, 0.0)
    errors = []
    for n in (1, 2, 4):
        with pytest.raises(ValueError) as info:
            jetjson.loads_arrow(bad, threads=n)
        errors.append(str(info.value))
    assert errors[0] == errors[1] == errors[2] and "'/c0'" in errors[0]
    assert isinstance(oracle(bad), Exception)
