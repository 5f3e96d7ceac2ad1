"""jetjson.dask.read_ndjson against pyarrow.json.read_json: each file read by pyarrow
(one thread, one block), the tables concatenated with promote_options="permissive" (or,
where pyarrow cannot merge two files' types, the files read by pyarrow as one input),
compared with the DataFrame computed back to Arrow: same schema, same values. On the
synchronous and threaded schedulers and on a two-process distributed LocalCluster.

Also: the partition rule (a byte range owns the lines that start in it) at every cut
position, the meta agreeing with every partition, errors naming the file and line, the
arguments, column projection, and `import jetjson` not importing dask."""

import io
import json
import os
import pathlib
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

pytest.importorskip("dask.dataframe")
pa = pytest.importorskip("pyarrow")
pj = pytest.importorskip("pyarrow.json")
import dask  # noqa: E402

from jetjson.dask import read_ndjson  # noqa: E402

try:
    from conftest import REPO_DIR, data_path, hyp_settings, read_bytes
except ImportError:  # tests/ turned into a package
    from .conftest import REPO_DIR, data_path, hyp_settings, read_bytes


def pyarrow_file(path, schema=None):
    raw = pathlib.Path(path).read_bytes()
    return pyarrow_bytes(raw, schema)


def pyarrow_bytes(raw, schema=None):
    opts = None if schema is None else pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore")
    read = pj.ReadOptions(block_size=max(1 << 20, len(raw) + 1), use_threads=False)
    return pj.read_json(io.BytesIO(raw), read_options=read, parse_options=opts)


def oracle(paths, schema=None):
    """pyarrow's table of the files, or the exception it raises. pyarrow refuses a file
    without records ("Empty JSON file"); read_ndjson reads no rows from it."""
    paths = [p for p in paths if pathlib.Path(p).read_bytes().strip()]
    if not paths:
        return pa.table({})
    try:
        tables = [pyarrow_file(p, schema) for p in paths]
    except (pa.ArrowInvalid, OverflowError) as exc:
        return exc
    try:
        return pa.concat_tables(tables, promote_options="permissive")
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        # e.g. timestamps in one file, other strings in the next: the files as one input
        joined = b"".join(pathlib.Path(p).read_bytes().rstrip(b"\n") + b"\n" for p in paths)
        try:
            return pyarrow_bytes(joined, schema)
        except (pa.ArrowInvalid, OverflowError) as exc:
            return exc


def computed(ddf, scheduler):
    """The DataFrame computed as Arrow, after checking that every partition has the
    meta's columns and dtypes."""
    parts = dask.compute(*ddf.to_delayed(), scheduler=scheduler)
    for part in parts:
        assert list(part.columns) == list(ddf.columns)
        assert list(part.dtypes) == list(ddf.dtypes), (part.dtypes, ddf.dtypes)
    df = ddf.compute(scheduler=scheduler)
    assert list(df.dtypes) == list(ddf.dtypes)
    assert len(df) == sum(len(p) for p in parts)
    return pa.Table.from_pandas(df, preserve_index=False)


def assert_same(paths, schema=None, scheduler="sync", **kw):
    exp = oracle(paths, schema)
    if isinstance(exp, Exception):
        with pytest.raises(ValueError):
            computed(read_ndjson(paths, schema, **kw), scheduler)
        return None
    ddf = read_ndjson(paths, schema, **kw)
    got = computed(ddf, scheduler)
    if exp.num_columns == 0:  # records without fields: only the count can agree
        assert got.num_rows == exp.num_rows
        return got
    assert got.schema == exp.schema, f"\nours:    {got.schema}\npyarrow: {exp.schema}"
    assert got.combine_chunks().equals(exp.combine_chunks()), (got.to_pylist()[:3], exp.to_pylist()[:3])
    return got


def write_files(tmp_path, pieces, name="part"):
    paths = []
    for i, piece in enumerate(pieces):
        p = tmp_path / f"{name}{i:03}.ndjson"
        p.write_bytes(piece)
        paths.append(str(p))
    return paths


def ndjson(records):
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode()


def split(data, n):
    """data cut into n pieces at line ends."""
    lines = data.splitlines(keepends=True)
    step = -(-len(lines) // n)
    return [b"".join(lines[i:i + step]) for i in range(0, len(lines), step)]


def from_bench(module, name):
    """A helper of the benchmarks (the events generator, their schema)."""
    sys.path.insert(0, os.path.join(REPO_DIR, "bench"))
    try:
        return getattr(__import__(module), name)
    finally:
        sys.path.pop(0)


def events(mb):
    return from_bench("bench_many", "make_events_ndjson")(mb)


EVENTS_SCHEMA = from_bench("bench_arrow", "EVENTS_SCHEMA")


# ---- the partition rule ----

# CRLF, blank and white lines, a line longer than the small blocksizes, no final newline
TRICKY = (b'{"n":0,"s":"a"}\r\n\r\n{"n":1,"s":"' + b"x" * 40 + b'"}\n\n  \n{"n":2}\r\n'
          b'{"n":3,"s":null}\n{"n":4,"s":"\\n"}')
TRICKY_SCHEMA = pa.schema([("n", pa.int64()), ("s", pa.string())])


def owned_lines(data, start, end):
    """The n of the records whose line starts in [start, end) (the rule, counted here)."""
    out, pos = [], 0
    for line in data.split(b"\n"):
        if start <= pos < end and line.strip():
            out.append(json.loads(line)["n"])
        pos += len(line) + 1
    return out


@pytest.mark.parametrize("schema", [TRICKY_SCHEMA, None])
def test_every_cut_position(tmp_path, schema):
    [path] = write_files(tmp_path, [TRICKY])
    size = len(TRICKY)
    for blocksize in range(1, size + 2):
        ddf = read_ndjson(path, schema, blocksize=blocksize)
        assert ddf.npartitions == -(-size // blocksize)
        parts = dask.compute(*ddf.to_delayed(), scheduler="sync")
        for k, part in enumerate(parts):
            assert list(part["n"]) == owned_lines(TRICKY, k * blocksize, (k + 1) * blocksize), (blocksize, k)
        assert sum(len(p) for p in parts) == 5
        if blocksize in (1, 7, size // 2, size + 1):
            assert_same([path], schema, blocksize=blocksize)


def test_files_with_and_without_final_newline_and_empty(tmp_path):
    paths = write_files(tmp_path, [b'{"a":1}', b"", b'{"a":2}\n', b"\n\n", b'{"b":"x"}\r\n'])
    for blocksize in (1, 3, None):
        got = assert_same(paths, blocksize=blocksize)
        assert got.num_rows == 3


# ---- data ----


def amazon_records():
    path = data_path("ndjson", "amazon_cellphones.ndjson")
    if path is None or not os.path.exists(path):
        pytest.skip("data not found")
    rows = [json.loads(line) for line in read_bytes(path).splitlines() if line.strip()]
    return [dict(zip(rows[0], row)) for row in rows[1:]]


@pytest.mark.parametrize("scheduler", ["sync", "threads"])
def test_amazon(tmp_path, scheduler):
    paths = write_files(tmp_path, split(ndjson(amazon_records()), 3))
    got = assert_same(paths, scheduler=scheduler, blocksize=20_000)
    assert got.num_rows == len(amazon_records())
    schema = got.schema
    assert_same(paths, schema, scheduler=scheduler, blocksize="50KB")


@pytest.mark.parametrize("scheduler", ["sync", "threads"])
def test_github_events(tmp_path, scheduler):
    paths = write_files(tmp_path, split(events(1), 4))
    ddf = read_ndjson(paths, blocksize="64KiB")
    assert ddf.npartitions > 8
    assert_same(paths, scheduler=scheduler, blocksize="64KiB")
    assert_same(paths, EVENTS_SCHEMA, scheduler=scheduler, blocksize=100_000)
    assert_same(paths, EVENTS_SCHEMA, scheduler=scheduler, blocksize=None)


def test_fields_that_appear_late_or_change_type(tmp_path):
    # a field only in the last partition, nulls then values, int then double, structs
    # whose fields differ: one schema for every partition, nothing dropped
    pieces = [ndjson([{"a": 1, "n": None, "o": {"x": 1}, "t": "2015-01-01T00:00:00Z"}] * 30),
              ndjson([{"a": 2.5, "n": [1], "o": {"y": True}, "t": None}] * 30),
              ndjson([{"c": "late", "o": None, "t": "2016-02-29 10:00"}])]
    paths = write_files(tmp_path, pieces)
    got = assert_same(paths, blocksize=100)
    assert got.schema.names == ["a", "n", "o", "t", "c"]
    assert got.schema.field("a").type == pa.float64()
    assert got.schema.field("o").type == pa.struct([("x", pa.int64()), ("y", pa.bool_())])
    assert got.schema.field("t").type == pa.timestamp("s")
    # timestamps in one file, other strings in the next: strings, as one input gives them
    paths = write_files(tmp_path, [ndjson([{"t": "2015-01-01"}]), ndjson([{"t": "soon"}])], "ts")
    assert assert_same(paths, blocksize=4).schema.field("t").type == pa.string()


# ---- hypothesis ----

typed_records = st.lists(st.fixed_dictionaries({}, optional={
    "i": st.one_of(st.none(), st.integers(-2**63, 2**63 - 1)),
    "f": st.one_of(st.none(), st.integers(-1000, 1000), st.floats(allow_nan=False, allow_infinity=False)),
    "s": st.one_of(st.none(), st.text(max_size=6)),
    "t": st.one_of(st.none(), st.sampled_from(["2015-01-01", "2015-01-01T15:00:00Z", "x"])),
    "l": st.one_of(st.none(), st.lists(st.integers(-5, 5), max_size=3)),
    "o": st.one_of(st.none(), st.fixed_dictionaries({}, optional={"x": st.text(max_size=3), "y": st.booleans()})),
}), max_size=12)
mixed_values = st.one_of(st.none(), st.booleans(), st.integers(-9, 9), st.text(max_size=3),
                         st.lists(st.integers(0, 3), max_size=2), st.fixed_dictionaries({"z": st.booleans()}))
mixed_records = st.lists(st.dictionaries(st.sampled_from("abc"), mixed_values, max_size=3), max_size=6)


@hyp_settings(25)
@given(st.lists(typed_records, min_size=1, max_size=4), st.sampled_from([5, 40, 200, None]),
       st.sampled_from([b"\n", b"\r\n"]))
def test_hypothesis_files(tmp_path_factory, files, blocksize, newline):
    tmp = tmp_path_factory.mktemp("h")
    paths = write_files(tmp, [ndjson(recs).replace(b"\n", newline) for recs in files])
    assert_same(paths, blocksize=blocksize)


@hyp_settings(40)
@given(st.lists(mixed_records, min_size=1, max_size=3), st.sampled_from([1, 24, None]))
def test_hypothesis_mixed_types(tmp_path_factory, files, blocksize):
    # types that may not merge: the same table as pyarrow, or a ValueError where it refuses
    tmp = tmp_path_factory.mktemp("m")
    paths = write_files(tmp, [ndjson(recs) for recs in files])
    assert_same(paths, blocksize=blocksize)


# ---- errors ----


def test_malformed_line_names_file_and_line(tmp_path):
    good = ndjson([{"a": i} for i in range(50)])
    bad = good.replace(b'{"a": 37}', b'{"a": 37,}')
    assert pyarrow_bytes_fails(bad) and not pyarrow_bytes_fails(good)
    paths = write_files(tmp_path, [good, bad])
    for schema in (None, pa.schema([("a", pa.int64())])):
        for blocksize in (64, 1000, None):
            with pytest.raises(ValueError, match=r"part001\.ndjson, line 38: ") as info:
                read_ndjson(paths, schema, blocksize=blocksize).compute(scheduler="sync")
            assert "record" not in str(info.value)


def pyarrow_bytes_fails(raw):
    try:
        pyarrow_bytes(raw)
    except pa.ArrowInvalid:
        return True
    return False


def test_type_clash_names_field_and_places(tmp_path):
    paths = write_files(tmp_path, [ndjson([{"a": 1}] * 5), ndjson([{"b": 0}] * 3 + [{"a": {"x": 1}}])])
    assert isinstance(oracle(paths), Exception) or pytest.fail("pyarrow merges these")
    with pytest.raises(ValueError, match=r"field '/a' is int64 in .*part000\.ndjson, lines 1-2 but "
                                         r"struct<x: int64> in .*part001\.ndjson, lines 3-4:"):
        read_ndjson(paths, blocksize=16)
    # within one partition: loads_arrow's message, with the file and the line
    [one] = write_files(tmp_path, [ndjson([{"a": 1}] * 3 + [{"a": {"x": 1}}])], "one")
    with pytest.raises(ValueError, match=r"one000\.ndjson, line 4: field '/a'"):
        read_ndjson(one, blocksize=None)


def test_unknown_fields_and_threads(tmp_path):
    records = [{"a": i, "b": "x" * (i % 7)} for i in range(3000)]
    paths = write_files(tmp_path, [ndjson(records), ndjson(records[:5] + [{"a": 1, "zz": 2}])])
    schema = pa.schema([("a", pa.int64()), ("b", pa.string())])
    one = assert_same(paths, schema, blocksize=20_000)
    for threads in (2, None):  # loads_arrow's threads inside each partition: same result
        assert computed(read_ndjson(paths, schema, blocksize=20_000, threads=threads), "sync").equals(one)
    with pytest.raises(ValueError, match=r'part001\.ndjson, line 6: .*unknown field "zz"'):
        read_ndjson(paths, schema, blocksize=20_000, error_on_unknown_fields=True).compute(scheduler="sync")
    # a column selection reads only that field: unknown fields are then every other one
    got = read_ndjson(paths, schema, error_on_unknown_fields=True)[["a"]].compute(scheduler="sync")
    assert list(got["a"]) == [r["a"] for r in records] + [0, 1, 2, 3, 4, 1]


def test_arguments(tmp_path):
    paths = write_files(tmp_path, [ndjson([{"a": i} for i in range(100)])] * 3)
    size = os.path.getsize(paths[0])
    assert read_ndjson(paths, blocksize="1KiB").npartitions == 3 * -(-size // 1024)
    assert read_ndjson(paths, blocksize="1KB").npartitions == 3 * -(-size // 1000)
    assert read_ndjson(paths, blocksize=None).npartitions == 3
    assert read_ndjson(str(tmp_path / "*.ndjson"), blocksize=None).npartitions == 3
    assert read_ndjson([pathlib.Path(p) for p in paths], blocksize=None).npartitions == 3
    assert read_ndjson(pathlib.Path(paths[0])).npartitions == 1
    with pytest.raises(FileNotFoundError):
        read_ndjson(str(tmp_path / "nothing*.ndjson"))
    with pytest.raises(FileNotFoundError):
        read_ndjson(str(tmp_path / "nothing.ndjson"))
    for bad in (0, -5, 1.5, True, "lots"):
        with pytest.raises(ValueError):
            read_ndjson(paths, blocksize=bad)
    with pytest.raises(ValueError):
        read_ndjson([])
    with pytest.raises(TypeError):
        read_ndjson(paths, schema=object())


def test_column_projection(tmp_path):
    paths = write_files(tmp_path, split(events(0.3), 2))
    ddf = read_ndjson(paths, blocksize=50_000)
    whole = ddf.compute(scheduler="sync")
    for cols in (["type"], ["repo", "id"]):
        part = ddf[cols].compute(scheduler="sync")
        assert list(part.columns) == cols and list(part.dtypes) == list(whole[cols].dtypes)
        assert part.reset_index(drop=True).equals(whole[cols].reset_index(drop=True))
    assert list(ddf["type"].compute(scheduler="threads")) == list(whole["type"])


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc/self/fd")
def test_files_closed_after_reads_and_errors(tmp_path):
    # every partition maps its file and unmaps it, after a read or an error alike
    paths = write_files(tmp_path, [ndjson([{"a": i} for i in range(40)]), b'{"a": 1}\n{"a": ]}\n'])
    ddf = read_ndjson(paths[0], blocksize=50)
    ddf.compute(scheduler="sync")
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(20):
        ddf.compute(scheduler="sync")
        with pytest.raises(ValueError):
            read_ndjson(paths[1], blocksize=5)
    assert len(os.listdir("/proc/self/fd")) == before


def test_import_jetjson_does_not_import_dask():
    parent = os.path.dirname(os.path.dirname(os.path.abspath(jetjson.__file__)))
    code = (f"import sys; sys.path.insert(0, {parent!r}); import jetjson; "
            "print(sorted(m for m in ('dask', 'distributed', 'pandas', 'pyarrow') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


# ---- distributed ----


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None) as c, distributed.Client(c) as client:
        yield client


def test_local_cluster(cluster, tmp_path):
    paths = write_files(tmp_path, split(events(1), 3) + [ndjson([{"late": [1, 2]}])])
    # the inference pass and the reads both run on the workers (the client is current)
    assert_same(paths, scheduler=None, blocksize="128KB")
    assert_same(paths, EVENTS_SCHEMA, scheduler=None, blocksize="128KB")


def test_local_cluster_error(cluster, tmp_path):
    paths = write_files(tmp_path, [ndjson([{"a": i} for i in range(20)]) + b'{"a": nope}\n'])
    with pytest.raises(ValueError, match=r"part000\.ndjson, line 21: "):
        read_ndjson(paths, pa.schema([("a", pa.int64())]), blocksize=32).compute()
