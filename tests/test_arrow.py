"""loads_arrow / load_arrow_file / ArrowStream against pyarrow.json.read_json: the same
schema and the same values (pyarrow.Table.equals), or an error where pyarrow refuses, on
the NDJSON data, NDJSON made from the corpus' arrays of objects, hand-written cases, an
explicit schema and hypothesis-made records. Also: the PyCapsule interface (stream taken
once, the schema any time), every input kind, batches, errors naming the record and the
field, and no leak."""

import io
import json
import os
import sys

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import jetjson

pa = pytest.importorskip("pyarrow")
pj = pytest.importorskip("pyarrow.json")

try:
    from conftest import data_params, data_path, hyp_settings, input_forms, read_bytes, traced_growth
except ImportError:  # tests/ turned into a package
    from .conftest import data_params, data_path, hyp_settings, input_forms, read_bytes, traced_growth

NDJSON = data_params("ndjson", suffix=".ndjson")
CORPUS = data_params("corpus")


def oracle(data, schema=None):
    """pyarrow's table, or the exception it raises."""
    opts = None
    if schema is not None:
        opts = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore")
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    # pyarrow refuses a record longer than its block; loads_arrow has no such limit
    read = pj.ReadOptions(block_size=max(1 << 20, len(raw) + 1), use_threads=False)
    try:
        return pj.read_json(io.BytesIO(raw), read_options=read, parse_options=opts)
    except (pa.ArrowInvalid, OverflowError) as exc:
        return exc


def ours(data, schema=None, **kw):
    try:
        return pa.table(jetjson.loads_arrow(data, schema, **kw))
    except ValueError as exc:
        return exc


def assert_same(data, schema=None, **kw):
    got, exp = ours(data, schema, **kw), oracle(data, schema)
    if isinstance(exp, Exception):
        assert isinstance(got, Exception), f"pyarrow refused ({exp}) but loads_arrow gave {got.schema}"
        return got
    assert not isinstance(got, Exception), f"loads_arrow raised {got!r}, pyarrow gave {exp.schema}"
    assert got.schema == exp.schema, f"\nours:    {got.schema}\npyarrow: {exp.schema}"
    if not got.equals(exp):  # NaN is not equal to itself: compare the texts then
        texts = [json.dumps(t.to_pylist(), default=repr) for t in (got, exp)]
        assert texts[0] == texts[1], f"values differ:\n{texts[0][:300]}\n{texts[1][:300]}"
    return got


def null_before_value_in_a_list(records):
    """pyarrow (26) builds an invalid or wrong list when a list item is null before any
    item at that place has a type ([null, 1] gives an invalid array, [null, [1]] gives
    [[1], []], [null, null] then [false] gives [null, false], [null]): such inputs are
    checked against json.loads instead (test_null_then_value_in_a_list)."""
    first_seen = {}  # list item path -> "null" or "value", whichever came first

    def walk(value, path, in_list):
        if in_list:
            kind = "null" if value is None else "value"
            if first_seen.setdefault(path, kind) == "null" and kind == "value":
                return True
        if isinstance(value, dict):
            return any(walk(v, path + "/" + k, False) for k, v in value.items())
        if isinstance(value, list):
            return any(walk(v, path + "/[]", True) for v in value)
        return False

    return any(walk(r, "", False) for r in records)


def ndjson(records):
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode()


# ---- data ----


@pytest.mark.parametrize("path", NDJSON)
def test_data_ndjson_files(path):
    assert_same(read_bytes(path))


def test_amazon_as_objects():
    path = data_path("ndjson", "amazon_cellphones.ndjson")
    if path is None or not os.path.exists(path):
        pytest.skip("data not found")
    rows = [json.loads(line) for line in read_bytes(path).splitlines() if line.strip()]
    data = ndjson(dict(zip(rows[0], row)) for row in rows[1:])
    table = assert_same(data)
    assert table.num_rows == len(rows) - 1
    for block in (1, 1000, 65536):
        assert_same(data, block_size=block)


def corpus_records(path):
    """The objects of a corpus file that holds a list of them (at its root or as the
    value of a root key); None when it holds none."""
    doc = json.loads(read_bytes(path))
    candidates = [doc] + (list(doc.values()) if isinstance(doc, dict) else [])
    for c in candidates:
        if isinstance(c, list) and c and all(isinstance(x, dict) for x in c):
            return c
    return None


@pytest.mark.parametrize("path", CORPUS)
def test_corpus_records(path):
    records = corpus_records(path)
    if records is None:
        pytest.skip("no list of objects in this file")
    assert_same(ndjson(records))
    assert_same(ndjson(records), block_size=512)


# ---- hand cases ----

CASES = [
    b"",
    b"\n",
    b"  \n\n",
    b'{"a":1}',
    b'{"a":1}\n{"a":2}\n',
    b'{"a":1}{"a":2}',
    b'{"a":1,"b":"x","c":true}\n{"a":2.5,"c":null,"d":[1,2]}\n',
    b'{"a":null}\n',
    b'{"a":null}\n{"a":[1]}\n',
    b'{"a":[]}\n',
    b'{"a":[null]}\n',
    b'{"a":{}}\n',
    b'{"a":{"x":1}}\n{"a":{"y":2}}\n{"a":null}\n{}\n',
    b'{"a":{"x":null}}\n{"a":{"x":"s"}}\n',
    b'{"a":[[1],[2.5]]}\n',
    b'{"a":[{"b":1},{"c":[true,null]}]}\n{"a":null}\n',
    b'{"a":1}\n{"b":2}\n{"c":3,"a":4}\n',
    b'{"a":1}\n{"a":1.5}\n',
    b'{"a":1.0}\n{"a":2}\n',
    b'{"a":9223372036854775807}\n{"a":-9223372036854775808}\n',
    b'{"a":9223372036854775808}\n',
    b'{"a":18446744073709551615}\n{"a":1}\n',
    b'{"a":123456789012345678901234567890}\n',
    b'{"a":-0}\n{"a":-0.0}\n{"a":1e-300}\n{"a":1.7976931348623157e308}\n',
    b'{"a":NaN}\n',
    b'{"\\u00e9":"\\u00e9\\ud83d\\ude00","k\\"q":"a\\nb"}\n',
    '{"é":"ü€😀"}\n{"é":"ß"}\n'.encode(),
    b'{"t":"2015-01-01T15:00:00Z"}\n{"t":null}\n{"t":"2015-01-01"}\n',
    b'{"t":"2015-01-01 15:00"}\n{"t":"2015-01-01T15"}\n{"t":"2015-01-01T15:00:00+01:00"}\n',
    b'{"t":"2015-01-01T15:00:00-0130"}\n{"t":"2015-01-01T15:00:00+01"}\n',
    b'{"t":"2015-01-01T15:00:00.123Z"}\n',
    b'{"t":"2015-01-01"}\n{"t":"x"}\n',
    b'{"t":"1900-02-29"}\n{"t":"2000-02-29"}\n',
    b'{"t":"2015-01-01T24:00:00"}\n',
    b'{"t":"2015-01-01Z"}\n',
    b'{"t":["2015-01-01", null]}\n',
    b'{"a":1}\n{"a":"x"}\n',
    b'{"a":true}\n{"a":1}\n',
    b'{"a":1}\n{"a":[1]}\n',
    b'{"a":{"b":1}}\n{"a":1}\n',
    b'{"a":[1,"x"]}\n',
    b'{"a":1,"a":2}\n',
    b'[1]\n',
    b'{"a":1}\n2\n',
    b'{"a":1}\n{"a":2',
    b'{"a":1}\n{"a":2,}\n',
    b'{"a":1}\n{"a":1}garbage\n',
]


@pytest.mark.parametrize("data", CASES, ids=lambda d: repr(d[:40]))
def test_cases(data):
    if data == b"":
        # pyarrow refuses an empty file; an empty stream of no columns is read here
        table = pa.table(jetjson.loads_arrow(data))
        assert table.num_rows == 0 and table.num_columns == 0
        return
    assert_same(data)
    assert_same(data, block_size=8)


@pytest.mark.parametrize("label,form", input_forms(b'{"a":1,"b":["x"]}\n{"a":null,"b":[]}\n'))
def test_input_kinds(label, form):
    exp = oracle(b'{"a":1,"b":["x"]}\n{"a":null,"b":[]}\n')
    assert pa.table(jetjson.loads_arrow(form)).equals(exp), label


def test_errors_name_record_and_field():
    with pytest.raises(ValueError, match=r"record 2, field '/a': changed from number to string"):
        jetjson.loads_arrow(b'{"a":1}\n{"a":2}\n{"a":"x"}\n')
    with pytest.raises(ValueError, match=r"record 1, field '/a/b/\[\]'"):
        jetjson.loads_arrow(b'{"a":{"b":[1]}}\n{"a":{"b":[true]}}\n')
    with pytest.raises(ValueError, match=r"record 0, field '/k': specified twice"):
        jetjson.loads_arrow(b'{"k":1,"k":1}\n')
    with pytest.raises(ValueError, match=r"record 1: not a JSON object"):
        jetjson.loads_arrow(b'{}\n[]\n')
    with pytest.raises(ValueError, match=r"record 3: .* at byte 19"):
        jetjson.loads_arrow(b'{}\n{}\n{"a":1}\n{"a":}\n')


# ---- explicit schema ----

SCHEMA = pa.schema([
    ("id", pa.int64()),
    ("big", pa.uint64()),
    ("score", pa.float64()),
    ("ok", pa.bool_()),
    ("name", pa.string()),
    ("when", pa.timestamp("us", tz="UTC")),
    ("secs", pa.timestamp("s")),
    ("tags", pa.list_(pa.string())),
    ("user", pa.struct([("login", pa.string()), ("n", pa.int64())])),
    ("nothing", pa.null()),
])


def test_explicit_schema():
    records = [
        {"id": 1, "big": 18446744073709551615, "score": 2, "ok": True, "name": "a",
         "when": "2015-01-01T15:00:00.250Z", "secs": "2015-01-01 15:00", "tags": ["x", None],
         "user": {"n": 3, "login": "u", "extra": [1]}, "unknown": {"deep": [1, 2]}},
        {"id": None, "score": 1.5, "when": "2016-02-29T23:59:59.123456+05:00", "secs": "1970-01-02",
         "user": None, "nothing": None},
        {},
        {"when": "2015-01-01", "tags": [], "user": {}},
    ]
    table = assert_same(ndjson(records), SCHEMA)
    assert table.schema == SCHEMA
    assert_same(ndjson(records), SCHEMA, block_size=16)
    # escapes in keys and values, skipped values of every kind
    assert_same(b'{"n\\u0061me":"a\\"b\\u00e9","id":-0,"x":["\\u0041",1e5,{"y":null}],"score":1E2}\n'
                b'{"user":{"lo\\u0067in":"\\ud83d\\ude00"},"big":9223372036854775808,"id":12345678901}\n', SCHEMA)


def test_explicit_schema_records_not_one_per_line():
    # read line by line first; a line that is not one record sends it all the exact way
    schema = pa.schema([("name", pa.string()), ("wins", pa.list_(pa.list_(pa.string())))])
    path = data_path("ndjson", "pass01.ndjson")
    if path is not None and os.path.exists(path):
        assert_same(read_bytes(path), schema)
    assert_same(b'{"id":1}{"id":2}\n\n{"id":3,\n"name":"x"}\n', SCHEMA)
    with pytest.raises(ValueError, match=r"record 2, field '/id'"):
        jetjson.loads_arrow(b'{"id":1}{"id":2}\n{"id":"x"}\n', SCHEMA)
    with pytest.raises(ValueError, match=r"record 1: .* at byte 15"):
        jetjson.loads_arrow(b'{"id":1}\n{"id":}\n', SCHEMA)


@pytest.mark.parametrize("record", [
    {"id": 1.5}, {"id": "1"}, {"big": -1}, {"ok": 1}, {"name": 1}, {"tags": "x"},
    {"user": []}, {"when": "2015-01-01T15:00:00.1234567Z"}, {"secs": "2015-01-01T15:00:00.5"},
    {"when": "2015-02-30"}, {"nothing": 1}, {"id": 9223372036854775808},
])
def test_explicit_schema_refusals(record):
    got = assert_same(ndjson([{"id": 0}, record]), SCHEMA)
    assert "record 1" in str(got)


def test_timestamp_lenient_forms():
    # read with a schema, "t", "z" and a comma are taken too (pyarrow refuses them)
    schema = pa.schema([("t", pa.timestamp("ms", tz="UTC"))])
    got = pa.table(jetjson.loads_arrow(b'{"t":"2015-01-01t15:00:00,25z"}\n', schema))
    assert got.equals(oracle(b'{"t":"2015-01-01T15:00:00.25Z"}\n', schema))
    # inferring, they stay strings, as with pyarrow
    assert_same(b'{"t":"2015-01-01t15:00:00z"}\n')


def test_timestamp_from_integer():
    # an integer is a count of the unit since 1970 (pyarrow refuses integers here)
    schema = pa.schema([("t", pa.timestamp("ms")), ("u", pa.timestamp("s", tz="UTC"))])
    table = pa.table(jetjson.loads_arrow(b'{"t":86400000,"u":-1}\n', schema))
    assert table.schema == schema
    assert table.column("t").cast(pa.int64()).to_pylist() == [86400000]
    assert table.column("u").cast(pa.int64()).to_pylist() == [-1]


def test_null_then_value_in_a_list():
    recs = [[{"a": [None, 1]}], [{"a": [None, None, 2.5]}], [{"b": [None, [1], None]}], [{"c": [None, {"x": 1}]}],
            [{"d": [None, "x"]}], [{"e": [None, True]}], [{"l": [None, None]}, {"l": [False]}]]
    for r in recs:
        assert null_before_value_in_a_list(r)
        assert pa.table(jetjson.loads_arrow(ndjson(r))).to_pylist() == r


def test_unknown_fields():
    data = b'{"id":1}\n{"id":2,"other":3}\n'
    assert pa.table(jetjson.loads_arrow(data, SCHEMA)).num_rows == 2
    with pytest.raises(ValueError, match=r"record 1.*unknown field \"other\""):
        jetjson.loads_arrow(data, SCHEMA, error_on_unknown_fields=True)


def test_unsupported_schema():
    with pytest.raises(ValueError, match="'x'"):
        jetjson.loads_arrow(b"{}\n", pa.schema([("x", pa.int32())]))
    with pytest.raises(TypeError):
        jetjson.loads_arrow(b"{}\n", object())


# ---- hypothesis ----

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-2**63, 2**63 - 1), st.integers(-2**70, 2**70),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
    st.sampled_from(["2015-01-01", "2015-01-01T15:00:00Z", "1999-12-31 23:59", "2015-01-01T15:00:00.5Z"]),
)
values = st.recursive(scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=3), st.dictionaries(st.sampled_from("abc"), kids, max_size=3)), max_leaves=6)
records = st.lists(st.dictionaries(st.sampled_from("abcdef"), values, max_size=5), max_size=8)


@hyp_settings(300)
@given(records)
def test_hypothesis_records(recs):
    assume(not null_before_value_in_a_list(recs))
    assert_same(ndjson(recs) or b"\n")


# per-key types kept apart, so that most examples give a table rather than an error
typed_records = st.lists(st.fixed_dictionaries({}, optional={
    "i": st.one_of(st.none(), st.integers(-2**63, 2**63 - 1)),
    "f": st.one_of(st.none(), st.integers(-1000, 1000), st.floats(allow_nan=False, allow_infinity=False)),
    "s": st.one_of(st.none(), st.text()),
    "l": st.one_of(st.none(), st.lists(st.one_of(st.none(), st.booleans()), max_size=4)),
    "o": st.one_of(st.none(), st.fixed_dictionaries({}, optional={"x": st.text(max_size=3), "y": st.booleans()})),
}), max_size=10)


@hyp_settings(300)
@given(typed_records, st.sampled_from([1, 64, 1 << 20]))
def test_hypothesis_typed_records(recs, block):
    assume(not null_before_value_in_a_list(recs))
    assert_same(ndjson(recs) or b"\n", block_size=block)


# ---- the PyCapsule interface ----


def test_stream_taken_once():
    s = jetjson.loads_arrow(b'{"a":1}\n{"a":2}\n')
    assert isinstance(s, jetjson.ArrowStream)
    assert s.num_rows == 2
    assert pa.schema(s) == pa.schema([("a", pa.int64())])
    reader = pa.RecordBatchReader.from_stream(s)
    assert s.num_rows is None
    with pytest.raises(ValueError, match="already taken"):
        pa.table(s)
    assert pa.schema(s) == reader.schema  # the schema stays available
    assert reader.read_all().column("a").to_pylist() == [1, 2]


def test_batches_and_children_outlive_stream():
    data = ndjson({"i": i, "s": str(i), "l": [i] * (i % 3), "o": {"k": i}} for i in range(1000))
    reader = pa.RecordBatchReader.from_stream(jetjson.loads_arrow(data, block_size=1000))
    batches = list(reader)
    del reader
    assert len(batches) > 10
    cols = [b.column("o").field("k") for b in batches]
    del batches
    assert [v for c in cols for v in c.to_pylist()] == list(range(1000))


def test_load_arrow_file(tmp_path):
    data = ndjson({"i": i, "t": "2015-01-01"} for i in range(100))
    path = tmp_path / "x.ndjson"
    path.write_bytes(data)
    assert pa.table(jetjson.load_arrow_file(str(path))).equals(oracle(data))
    assert pa.table(jetjson.load_arrow_file(path, threads=2)).equals(oracle(data))
    (tmp_path / "empty.ndjson").write_bytes(b"")
    assert pa.table(jetjson.load_arrow_file(tmp_path / "empty.ndjson")).num_rows == 0
    with pytest.raises(OSError):
        jetjson.load_arrow_file(tmp_path / "missing.ndjson")
    with pytest.raises(OSError):
        jetjson.load_arrow_file(tmp_path)


def test_arguments():
    with pytest.raises(ValueError):
        jetjson.loads_arrow(b"{}", block_size=0)
    with pytest.raises(ValueError):
        jetjson.loads_arrow(b"{}", threads=-1)
    with pytest.raises(TypeError):
        jetjson.loads_arrow(b"{}", threads="2")
    with pytest.raises(TypeError):
        jetjson.loads_arrow(12)
    assert jetjson.loads_arrow(b"{}", threads=0, validate_skipped=False).num_rows == 1


def test_no_leak():
    data = ndjson({"i": i, "s": "x" * i, "l": [1.5, None], "o": {"t": "2015-01-01"}} for i in range(50))
    schema = pa.schema([("i", pa.int64()), ("o", pa.struct([("t", pa.timestamp("ms"))]))])
    before = sys.getrefcount(data), sys.getrefcount(schema)

    def run():
        pa.table(jetjson.loads_arrow(data))
        pa.table(jetjson.loads_arrow(data, schema))
        s = jetjson.loads_arrow(data)
        pa.schema(s)
        try:
            jetjson.loads_arrow(b'{"a":1}\n{"a":"x"}\n')
        except ValueError:
            pass

    assert traced_growth(run, 200) < 64 * 1024
    assert (sys.getrefcount(data), sys.getrefcount(schema)) == before


def test_polars_takes_the_stream():
    pl = pytest.importorskip("polars")
    data = ndjson({"i": i, "s": f"x{i}", "o": {"t": "2015-01-01T00:00:00Z"}, "l": [i, i]} for i in range(300))
    assert pl.DataFrame(jetjson.loads_arrow(data)).equals(pl.from_arrow(oracle(data)))


def test_threads_at_once():
    # the GIL is released while the engine reads: several Python threads read at once
    from concurrent.futures import ThreadPoolExecutor

    inputs = [ndjson({"k": j, "v": [str(i)] * (i % 4), "d": i / 7} for i in range(2000 + j)) for j in range(4)]
    expected = [oracle(x) for x in inputs]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            tables = list(pool.map(lambda x: pa.table(jetjson.loads_arrow(x, block_size=4096)), inputs))
            assert all(t.equals(e) for t, e in zip(tables, expected))


def test_threads_with_a_schema():
    # parts of the input on threads of their own; the same table and errors as one thread
    recs = [{"id": i, "name": f"n{i}", "score": i / 3, "ok": i % 2 == 0, "tags": [str(i)] * (i % 3),
             "user": {"login": "u", "n": i}, "when": "2015-01-01T15:00:00Z", "skip": {"x": [i]}}
            for i in range(40000)]
    data = ndjson(recs)
    assert len(data) > 4 * 256 * 1024
    exp = oracle(data, SCHEMA)
    for threads in (1, 2, 3, None):
        stream = jetjson.loads_arrow(data, SCHEMA, threads=threads, block_size=65536)
        assert stream.num_rows == len(recs)
        assert pa.table(stream).equals(exp)
    reader = pa.RecordBatchReader.from_stream(jetjson.loads_arrow(data, SCHEMA, threads=2, block_size=1 << 30))
    assert len(list(reader)) == 2  # the parts were read apart
    across = data.replace(b'{"id": 20000, ', b'{"id":\n20000, ')  # one record on two lines
    assert across != data
    assert pa.table(jetjson.loads_arrow(across, SCHEMA, threads=4)).equals(exp)
    bad = data.replace(b'{"id": 30000, ', b'{"id": "x", ')
    for threads in (1, 4):
        with pytest.raises(ValueError, match=r"record 30000, field '/id'"):
            jetjson.loads_arrow(bad, SCHEMA, threads=threads)


def parts_of(*pieces, size=300 * 1024):
    """NDJSON of several pieces, each repeated to about `size` bytes, so that with threads
    each lands in parts of its own."""
    out = []
    for recs in pieces:
        text = ndjson(recs)
        out.append(text * (size // len(text) + 1))
    return b"".join(out)


@pytest.mark.parametrize("pieces", [
    # fields new in later parts, null then values, int then double, nested structs
    ([{"a": 1, "n": None, "o": {"x": 1}}], [{"b": "s", "a": 2.5, "n": [1], "o": {"y": True}}],
     [{"c": None, "o": None, "n": None}]),
    # strings that are timestamps in one part only, and in every part
    ([{"t": "2015-01-01T15:00:00Z", "u": "2015-01-01"}], [{"t": "x", "u": "2016-02-29 10:00"}]),
    # a part of nulls where the others hold timestamps; lists of structs
    ([{"t": None, "l": [{"p": 1}]}], [{"t": "2015-01-01", "l": [{"q": "z"}, None]}]),
    # the same record everywhere
    ([{"id": 1, "s": "x", "f": 0.5, "b": False, "l": [1, 2], "o": {"k": [{"z": None}]}}],) * 2,
])
def test_threads_inferred(pieces):
    data = parts_of(*pieces)
    one = pa.table(jetjson.loads_arrow(data, threads=1))
    assert_same(data)
    for threads in (2, 3, None):
        got = pa.table(jetjson.loads_arrow(data, threads=threads))
        assert got.schema == one.schema and got.equals(one), threads
    # the parts were read apart (a batch each), not read again on one thread
    reader = pa.RecordBatchReader.from_stream(jetjson.loads_arrow(data, threads=2, block_size=1 << 30))
    assert len(list(reader)) == 2


def test_threads_inferred_type_clash():
    # types that do not mix across parts: read again on one thread, same error
    data = parts_of([{"a": 1}], [{"a": "x"}])
    errors = []
    for threads in (1, 4):
        with pytest.raises(ValueError) as info:
            jetjson.loads_arrow(data, threads=threads)
        errors.append(str(info.value))
    assert errors[0] == errors[1] and "field '/a'" in errors[0]


@hyp_settings(40)
@given(records, records)
def test_hypothesis_threads_inferred(first, second):
    # two parts of different records: threads=2 gives what one thread gives (or its error)
    data = parts_of(first or [{}], second or [{}], size=270 * 1024)
    outcomes = []
    for threads in (1, 2):
        try:
            outcomes.append(pa.table(jetjson.loads_arrow(data, threads=threads)))
        except ValueError as exc:
            outcomes.append(str(exc))
    if isinstance(outcomes[0], str):
        assert outcomes[0] == outcomes[1]
    else:
        assert outcomes[0].schema == outcomes[1].schema and outcomes[0].equals(outcomes[1])


@st.composite
def common_timestamps(draw):
    """"YYYY-MM-DDThh:mm:ss[Z]" texts with every field drawn a bit past its range, the
    separators varied and now and then a byte that is not a digit (the builder reads
    this shape by a quick way of its own)."""
    fields = [draw(st.integers(0, top)) for top in (9999, 14, 33, 25, 61, 61)]
    text = "{:04}-{:02}-{:02}{}{:02}:{:02}:{:02}{}".format(
        *fields[:3], draw(st.sampled_from("T t")), *fields[3:], draw(st.sampled_from(["", "Z", "z", "+01"])))
    if draw(st.booleans()) and draw(st.booleans()):
        at = draw(st.integers(0, len(text) - 1))
        text = text[:at] + draw(st.sampled_from("/:-x\x7f\u00e9 9")) + text[at + 1:]
    return text


@hyp_settings(200)
@given(st.lists(common_timestamps(), min_size=1, max_size=4))
def test_hypothesis_common_timestamps(texts):
    data = ndjson([{"k": t} for t in texts])
    assert_same(data)
    # with a schema "t" and "z" read as "T" and "Z" (test_timestamp_lenient_forms)
    upper = data.replace(b"t", b"T").replace(b"z", b"Z")
    for unit in ("s", "ms", "ns"):
        schema = pa.schema([("k", pa.timestamp(unit, tz="UTC"))])
        got, exp = ours(data, schema), oracle(upper, schema)
        if isinstance(exp, Exception):
            assert isinstance(got, Exception), (texts, exp)
        else:
            assert not isinstance(got, Exception) and got.equals(exp), (texts, got)


@pytest.mark.parametrize("n", [(1 << 20) - 63, (1 << 20) - 40, (1 << 20) - 5])
@pytest.mark.parametrize("threads", [1, None])
def test_a_first_buffer_just_below_the_mapped_size(n, threads):
    # a string column's first buffer of n bytes is rounded up to the 1 MiB from which
    # buffers are mapped: it must then be a mapping, or its release unmaps a malloc'd block
    # and its growth (the rows after it) fails with a MemoryError
    data = b'{"s":"%s","i":1}\n' % (b"x" * n) + b'{"s":"%s","i":2}\n' % (b"y" * 200) * 3
    want = oracle(data)
    for _ in range(3):
        table = ours(data, threads=threads)
        assert not isinstance(table, Exception), table
        assert table.equals(want)
