"""jetjson.dumpb_arrow: Arrow data -> NDJSON bytes.

Oracle: every row of the table as pyarrow hands it to Python (``to_pylist``), written by
orjson; the values orjson cannot know the spelling of come from a formatter written here:
timestamps, dates and times (ISO 8601, UTC, ``Z`` when zoned, the fraction with the unit's
digits when not zero), computed from the raw integers with ``datetime.date.fromordinal``
shifted by 400-year cycles, so any int64 is covered; float32 values are given to orjson
as ``numpy.float32`` (its shortest float32 text), and NaN/infinities become null as orjson
writes them. Data: hand-made columns of every supported type with nulls and slices,
chunked tables, polars frames, the corpus turned into NDJSON and read by
``pyarrow.json.read_json`` (compared with the ``json.loads`` of the lines), and
hypothesis-made tables.
"""

import datetime as dt
import decimal
import io
import json
import os
import sys

import pytest

pa = pytest.importorskip("pyarrow")
pa_json = pytest.importorskip("pyarrow.json")
np = pytest.importorskip("numpy")
orjson = pytest.importorskip("orjson")

import jetjson  # noqa: E402
from conftest import corpus_files, hyp_settings, traced_growth  # noqa: E402

try:
    from hypothesis import given, strategies as st
except ImportError:  # pragma: no cover
    given = None

# --------------------------------------------------------------------------------------
# The reference formatter of temporal values
# --------------------------------------------------------------------------------------
UNIT_DIGITS = {"s": 0, "ms": 3, "us": 6, "ns": 9}
EPOCH_ORDINAL = dt.date(1970, 1, 1).toordinal()
DAYS_PER_400_YEARS = 146097


def ref_year(y):
    if 0 <= y <= 9999:
        return f"{y:04d}"
    if -9999 <= y < 0:
        return f"-{-y:04d}"
    return str(y)


def ref_date(days):
    """'YYYY-MM-DD' of a day count since 1970-01-01, any int (the Gregorian calendar
    repeats every 400 years: move into datetime.date's range and back)."""
    ordinal = days + EPOCH_ORDINAL
    cycles = (ordinal - 1) // DAYS_PER_400_YEARS
    d = dt.date.fromordinal(ordinal - cycles * DAYS_PER_400_YEARS)
    return f"{ref_year(d.year + 400 * cycles)}-{d.month:02d}-{d.day:02d}"


def ref_clock(seconds, frac, digits):
    text = f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
    return text + (f".{frac:0{digits}d}" if frac else "")


def ref_timestamp(v, unit, tz):
    digits = UNIT_DIGITS[unit]
    secs, frac = divmod(v, 10**digits)
    days, rest = divmod(secs, 86400)
    return f"{ref_date(days)}T{ref_clock(rest, frac, digits)}" + ("Z" if tz else "")


def ref_time(v, unit):
    digits = UNIT_DIGITS[unit]
    secs, frac = divmod(v, 10**digits)
    return ref_clock(secs % 86400, frac, digits)


# --------------------------------------------------------------------------------------
# The oracle: rows of to_pylist (temporal types read as their integers) through orjson
# --------------------------------------------------------------------------------------
def raw_type(t):
    """t with every temporal type replaced by the integer type that holds it (for a cast
    that gives the raw values to to_pylist)."""
    if pa.types.is_timestamp(t) or pa.types.is_date64(t) or pa.types.is_time64(t):
        return pa.int64()
    if pa.types.is_date32(t) or pa.types.is_time32(t):
        return pa.int32()
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(raw_type(f.type)) for f in t])
    if pa.types.is_fixed_size_list(t):
        return pa.list_(t.value_field.with_type(raw_type(t.value_type)), t.list_size)
    if pa.types.is_large_list(t):
        return pa.large_list(t.value_field.with_type(raw_type(t.value_type)))
    if pa.types.is_list(t):
        return pa.list_(t.value_field.with_type(raw_type(t.value_type)))
    return t


def raw_values(values):
    """values (an array or chunked array) cast to raw_type, when that changes anything (pyarrow's
    cast of some nested types fails where nothing needs casting)."""
    raw = raw_type(values.type)
    return values if raw == values.type else values.cast(raw)


def to_json_value(v, t, write_nulls):
    """The Python value orjson writes as dumpb_arrow should write v of Arrow type t."""
    if v is None:
        return None
    if pa.types.is_dictionary(t):
        return to_json_value(v, t.value_type, write_nulls)
    if pa.types.is_timestamp(t):
        return ref_timestamp(v, t.unit, t.tz)
    if pa.types.is_date32(t):
        return ref_date(v)
    if pa.types.is_date64(t):
        return ref_date(v // 86_400_000)
    if pa.types.is_time32(t) or pa.types.is_time64(t):
        return ref_time(v, t.unit)
    if pa.types.is_float32(t):
        return np.float32(v)
    if pa.types.is_decimal(t):
        return orjson.Fragment(format(v, "f"))
    if pa.types.is_struct(t):
        out = {}
        for f in t:
            x = to_json_value(v[f.name], f.type, write_nulls)
            if x is not None or write_nulls:
                out[f.name] = x
        return out
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        return [to_json_value(x, t.value_type, write_nulls) for x in v]
    return v


def expected_ndjson(data, write_nulls=True):
    """The oracle's NDJSON for a pyarrow Table, RecordBatch or StructArray."""
    if isinstance(data, pa.StructArray):
        row_type = data.type
        rows = raw_values(data).to_pylist()
    else:
        row_type = pa.struct(list(data.schema))
        names = data.schema.names
        columns = [raw_values(data.column(i)) for i in range(len(names))]
        rows = pa.Table.from_arrays(columns, names=names).to_pylist() if names else [{}] * data.num_rows
    out = []
    for row in rows:
        value = to_json_value(row, row_type, write_nulls)
        out.append(orjson.dumps(value, option=orjson.OPT_SERIALIZE_NUMPY) + b"\n")
    return b"".join(out)


def check(data, **kw):
    for write_nulls in (True, False):
        got = jetjson.dumpb_arrow(data, write_nulls=write_nulls, **kw)
        want = expected_ndjson(data, write_nulls)
        assert got == want, first_line_difference(got, want)


def first_line_difference(got, want):
    g, w = got.split(b"\n"), want.split(b"\n")
    for i, (a, b) in enumerate(zip(g, w)):
        if a != b:
            return f"line {i}:\n got  {a[:300]!r}\n want {b[:300]!r}"
    return f"{len(g)} lines, want {len(w)}"


# --------------------------------------------------------------------------------------
# Hand cases: one column of each type, with nulls
# --------------------------------------------------------------------------------------
I64 = [0, 1, -1, 2**63 - 1, -(2**63), None, 12345]
TS_US = [0, 1_420_124_400_250_000, -1, None, 253_402_300_799_999_999, -62_135_596_800_000_000, 86_400_000_001]
FLOATS = [0.0, -0.0, 0.1, 1e16, 1e-7, float("nan"), float("inf"), -float("inf"), None, 123.0, 5e-324]
STRINGS = ["", "x", 'a"b\\c', "\n\t\x00\x1f\x7f", "é€😀", "a longer string than twelve bytes", None]


def hand_columns():
    cols = {
        "int8": pa.array([0, -128, 127, None], pa.int8()),
        "int16": pa.array([0, -32768, 32767, None], pa.int16()),
        "int32": pa.array([0, -(2**31), 2**31 - 1, None], pa.int32()),
        "int64": pa.array(I64[:4], pa.int64()),
        "uint8": pa.array([0, 255, 1, None], pa.uint8()),
        "uint16": pa.array([0, 65535, 1, None], pa.uint16()),
        "uint32": pa.array([0, 2**32 - 1, 1, None], pa.uint32()),
        "uint64": pa.array([0, 2**64 - 1, 2**63, None], pa.uint64()),
        "float16": pa.array(np.array([0.1, 65504, -2.5, np.inf], np.float16)),
        "float32": pa.array([0.1, 3.4e38, float("nan"), None], pa.float32()),
        "float64": pa.array(FLOATS[5:9], pa.float64()),
        "bool": pa.array([True, False, None, True]),
        "null": pa.nulls(4),
        "string": pa.array(STRINGS[2:6], pa.string()),
        "large_string": pa.array(STRINGS[3:7], pa.large_string()),
        "string_view": pa.array(STRINGS[:4], pa.string_view()),
        "date32": pa.array([0, -1, 2932896, None], pa.date32()),
        "date64": pa.array([0, -1, 86_400_000 * 365, None], pa.date64()),
        "time32s": pa.array([0, 86399, 3600, None], pa.time32("s")),
        "time32ms": pa.array([0, 86_399_999, 1, None], pa.time32("ms")),
        "time64us": pa.array([0, 86_399_999_999, 1_500_000, None], pa.time64("us")),
        "time64ns": pa.array([0, 86_399_999_999_999, 1, None], pa.time64("ns")),
        "dict": pa.array(["red", "green", None, "red"]).dictionary_encode(),
        "decimal128": pa.array([D("1.50"), D("-0.01"), None, D(10**37 * 9 + 1) / 10**10], pa.decimal128(38, 10)),
        "decimal128_extremes": pa.array([D(10**38 - 1), D(-(10**38 - 1)), None, D(0)], pa.decimal128(38, 0)),
        "decimal256": pa.array([D(10**76 - 1), D(-(10**76 - 1)), None, D(-1)], pa.decimal256(76, 0)),
        "decimal256_scaled": pa.array([D(10**70 + 7) / 10**40, D("-1E-40"), None, D(0)], pa.decimal256(76, 40)),
        "decimal32": pa.array([D("9999.99999"), D("-0.00001"), None, D(0)], pa.decimal32(9, 5)),
        "decimal64": pa.array([D("0.123456789012345678"), D("-0.5"), None, D(0)], pa.decimal64(18, 18)),
        "decimal_negative_scale": pa.array([D("1E+3"), D("-2E+3"), None, D(0)], pa.decimal128(5, -3)),
        "struct": pa.array([{"a": 1, "b": "x"}, None, {"a": None, "b": None}, {"a": 2, "b": "é"}],
                           pa.struct([("a", pa.int64()), ("b", pa.string())])),
        "list": pa.array([[1, None], [], None, [3]], pa.list_(pa.int64())),
        "large_list": pa.array([["a"], None, [], ["b", None]], pa.large_list(pa.string())),
        "fixed_list": pa.array([[1, 2], None, [None, 4], [5, 6]], pa.list_(pa.int32(), 2)),
        "nested": pa.array([[{"x": [1.5]}], [{"x": None}, None], None, []],
                           pa.list_(pa.struct([("x", pa.list_(pa.float64()))]))),
    }
    for unit in ("s", "ms", "us", "ns"):
        for tz in (None, "UTC", "America/New_York"):
            name = f"ts_{unit}_{tz}"
            cols[name] = pa.array([0, 1_420_124_400_250, -1, None], pa.timestamp(unit, tz=tz))
    return cols


D = decimal.Decimal
decimal.getcontext().prec = 100
HAND = hand_columns()


@pytest.mark.parametrize("name", sorted(HAND))
def test_each_type(name):
    col = HAND[name]
    table = pa.table({"id": pa.array(range(len(col))), name: col})
    check(table)
    check(table.slice(1, 2))
    check(table.to_batches()[0])


def test_all_columns_sliced_at_every_offset():
    table = pa.table(HAND)
    for start in range(len(table) + 1):
        for length in range(len(table) - start + 1):
            check(table.slice(start, length))


def test_strings_of_every_length_with_a_special_at_every_place():
    # short strings are checked a word at a time, long ones a block at a time with an
    # overlapping tail: every length near those sizes, every place of the odd character
    strings = []
    for n in range(0, 41):
        strings.append("x" * n)
        for special in ('"', "\\", "\n", "\x00", "\x1f", "\x7f", "é", "😀", "~", " "):
            for at in range(n):
                strings.append("x" * at + special + "x" * (n - at - 1))
    for typ in (pa.string(), pa.large_string(), pa.string_view()):
        check(pa.table({"s": pa.array(strings, typ)}))


def test_timestamp_values():
    ints = TS_US[:3] + TS_US[4:] + [-(2**63), 2**63 - 1, 1, 999_999, 1_000_000, -86_400_000_000]
    for unit in ("s", "ms", "us", "ns"):
        for tz in (None, "UTC", "+05:30"):
            check(pa.table({"t": pa.array(ints, pa.timestamp(unit, tz=tz))}))
    check(pa.table({"d": pa.array([-(2**31), 2**31 - 1, -719_528, -719_529], pa.date32())}))
    check(pa.table({"d": pa.array([-(2**63), 2**63 - 1, -1, 1], pa.date64())}))


def test_reference_formatter_against_datetime():
    # the oracle's own oracle, where datetime reaches: isoformat of the instant
    base = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
    for us in [0, 1, -1, 1_420_124_400_250_000, 253_402_300_799_999_999, -62_135_596_800_000_000]:
        moment = base + dt.timedelta(microseconds=us)
        iso = moment.replace(tzinfo=None).isoformat()
        assert ref_timestamp(us, "us", "UTC") == iso + "Z"
        assert ref_date(us // 86_400_000_000) == moment.date().isoformat()


def test_chunked_and_empty():
    t1 = pa.table({"a": [1, 2, 3], "s": ["x", None, "z"]})
    t2 = pa.table({"a": [4, None], "s": ["é", "w"]})
    chunked = pa.concat_tables([t1, t2, t1.slice(1, 2)])
    assert chunked.column("a").num_chunks == 3
    check(chunked)
    check(pa.Table.from_batches([], schema=t1.schema))
    check(t1.slice(3, 0))
    assert jetjson.dumpb_arrow(t1.slice(0, 0)) == b""
    no_columns = t1.drop_columns(["a", "s"])
    assert no_columns.num_rows == 3
    check(no_columns)
    # a reader: the batches are consumed once
    reader = pa.RecordBatchReader.from_batches(chunked.schema, chunked.to_batches())
    assert jetjson.dumpb_arrow(reader) == expected_ndjson(chunked)


def test_reader_from_python_generator():
    schema = pa.schema([("i", pa.int64()), ("s", pa.string())])

    def batches():
        for k in range(5):
            yield pa.record_batch([pa.array([k, None]), pa.array([str(k), "é"])], schema=schema)

    reader = pa.RecordBatchReader.from_batches(schema, batches())
    whole = pa.Table.from_batches(list(batches()))
    assert jetjson.dumpb_arrow(reader) == expected_ndjson(whole)


def test_failing_stream_raises():
    schema = pa.schema([("i", pa.int64())])

    def batches():
        yield pa.record_batch([pa.array([1])], schema=schema)
        raise KeyError("boom")

    with pytest.raises(ValueError, match="boom"):
        jetjson.dumpb_arrow(pa.RecordBatchReader.from_batches(schema, batches()))

    def mislabelled():  # a batch whose arrays are not of the schema's types
        yield pa.record_batch([pa.array(["x"])], names=["i"])

    with pytest.raises(ValueError, match="field 'i'"):
        jetjson.dumpb_arrow(pa.RecordBatchReader.from_batches(schema, mislabelled()))


def test_large_batches_of_growing_rows():
    # the first rows of a stream size the buffer for the rest: rows later grow 100-fold
    parts = []
    for k, width in enumerate((1, 10, 100)):
        parts.append(pa.table({"s": ["é" * width + str(i) for i in range(3000)], "k": [k] * 3000}))
    check(pa.concat_tables(parts))


def test_struct_array_with_null_rows():
    arr = pa.array([{"a": 1}, None, {"a": None}], pa.struct([("a", pa.int64())]))
    got = jetjson.dumpb_arrow(arr)
    assert got == expected_ndjson(arr)
    assert got.split(b"\n")[1] == b"null"
    check(arr.slice(1))
    # a chunked array of structs is a stream of them
    chunked = pa.chunked_array([arr, arr.slice(1), arr.slice(0, 1)])
    assert jetjson.dumpb_arrow(chunked) == b"".join(expected_ndjson(c) for c in chunked.chunks)


def test_polars_frame():
    pl = pytest.importorskip("polars")
    table = pa.table({k: HAND[k] for k in ("int64", "float64", "string", "bool", "list", "struct",
                                            "ts_us_UTC", "ts_ns_None", "date32", "large_list")})
    frame = pl.from_arrow(table)
    # polars hands out its own layouts (string views, large lists...): the oracle reads them
    # from polars' own export
    exported = pa.table(frame)
    for write_nulls in (True, False):
        assert jetjson.dumpb_arrow(frame, write_nulls=write_nulls) == expected_ndjson(exported, write_nulls)
    assert jetjson.dumpb_arrow(frame) == jetjson.dumpb_arrow(table)
    # polars' own types: categoricals and enums (dictionaries of string views), arrays,
    # times, small ints
    frame = pl.DataFrame({
        "cat": pl.Series(["a", "b", None, "a"], dtype=pl.Categorical),
        "enum": pl.Series(["x", "y", "x", None], dtype=pl.Enum(["x", "y"])),
        "arr": pl.Series([[1, 2], None, [3, None], [5, 6]], dtype=pl.Array(pl.Int64, 2)),
        "time": [dt.time(1, 2, 3), dt.time(23, 59, 59, 999999), None, dt.time(0)],
        "u8": pl.Series([1, 2, 255, None], dtype=pl.UInt8),
        "when": [dt.datetime(2020, 1, 1, 1, 2, 3, 4000), None, dt.datetime(1900, 3, 1), dt.datetime(9999, 12, 31)],
    })
    exported = pa.table(frame)
    assert pa.types.is_dictionary(exported.schema.field("cat").type)
    for write_nulls in (True, False):
        assert jetjson.dumpb_arrow(frame, write_nulls=write_nulls) == expected_ndjson(exported, write_nulls)
        assert jetjson.dumpb_arrow(frame.slice(1, 2), write_nulls=write_nulls) == \
            expected_ndjson(exported.slice(1, 2), write_nulls)


def test_duckdb_relation():
    duckdb = pytest.importorskip("duckdb")
    rel = duckdb.sql(
        "select * from (values (1, 'x', TIMESTAMP '2015-01-01 15:00:00.25', TIMESTAMPTZ '2015-01-01 15:00:00+02',"
        " [1, 2], {'k': 2.5}, DATE '2020-02-29'), (null, null, null, null, null, null, null))"
        " t(a, s, ts, tz, l, st, d)")
    table = rel.to_arrow_table() if hasattr(rel, "to_arrow_table") else rel.arrow()
    for write_nulls in (True, False):
        assert jetjson.dumpb_arrow(rel, write_nulls=write_nulls) == expected_ndjson(table, write_nulls)


# --------------------------------------------------------------------------------------
# The corpus as NDJSON, read by pyarrow, written back: the json.loads of each line
# --------------------------------------------------------------------------------------
def records_of(doc):
    """The longest list of objects in doc (the records of the document), or []."""
    best = []
    stack = [doc]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            if v and all(isinstance(x, dict) for x in v) and len(v) > len(best):
                best = v
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
    return best


def drop_nulls(v):
    if isinstance(v, dict):
        return {k: drop_nulls(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [drop_nulls(x) for x in v]
    return v


def as_read(v, t):
    """A json.loads value as pyarrow's reader typed it: strings read as timestamps come
    back in the writer's spelling (UTC, no 'Z' for a type without a zone)."""
    if v is None:
        return None
    if pa.types.is_timestamp(t) and isinstance(v, str):
        moment = dt.datetime.fromisoformat(v.replace("Z", "+00:00"))
        if moment.tzinfo is not None:
            moment = moment.astimezone(dt.timezone.utc).replace(tzinfo=None)
        text = moment.isoformat()
        return text + ("Z" if t.tz else "")
    if pa.types.is_struct(t) and isinstance(v, dict):
        return {k: as_read(x, t.field(k).type) if t.get_field_index(k) >= 0 else x for k, x in v.items()}
    if pa.types.is_list(t) and isinstance(v, list):
        return [as_read(x, t.value_type) for x in v]
    return v


def corpus_ndjson():
    params = []
    for path in corpus_files():
        with open(path, "rb") as f:
            records = records_of(json.loads(f.read()))
        if len(records) >= 2:
            params.append(pytest.param(records, id=os.path.basename(path)))
    return params or [pytest.param(None, marks=pytest.mark.skip(reason="no corpus"))]


@pytest.mark.parametrize("records", corpus_ndjson())
def test_corpus_round_trip(records):
    text = b"".join(json.dumps(r, ensure_ascii=False).encode() + b"\n" for r in records)
    try:
        table = pa_json.read_json(io.BytesIO(text))
    except pa.ArrowInvalid as e:
        pytest.skip(f"pyarrow does not read it: {e}")
    row_type = pa.struct(list(table.schema))
    got = jetjson.dumpb_arrow(table, write_nulls=False)
    lines = got.split(b"\n")
    assert lines[-1] == b"" and len(lines) == len(records) + 1
    for line, record in zip(lines, records):
        want = drop_nulls(as_read(record, row_type))
        assert json.loads(line) == want
    assert got == expected_ndjson(table, write_nulls=False)
    assert jetjson.dumpb_arrow(table) == expected_ndjson(table)


# --------------------------------------------------------------------------------------
# Errors, arguments, references
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("col, fmt", [
    (pa.array([b"x"]), "z"),
    (pa.array([b"x"], pa.large_binary()), "Z"),
    (pa.array([1], pa.duration("s")), "tDs"),
    (pa.array([{"k": 1}], pa.map_(pa.string(), pa.int64())), "+m"),
])
def test_unsupported_type_names_the_field(col, fmt):
    table = pa.table({"ok": [1], "inner": pa.StructArray.from_arrays([col], ["bad"])})
    with pytest.raises(ValueError) as info:
        jetjson.dumpb_arrow(table)
    assert "'inner.bad'" in str(info.value) and fmt in str(info.value)


def test_not_a_struct():
    with pytest.raises(ValueError, match="struct"):
        jetjson.dumpb_arrow(pa.array([1, 2]))


def test_invalid_utf8_string():
    bad = pa.Array.from_buffers(pa.string(), 2, [None, pa.py_buffer(np.array([0, 1, 3], np.int32).tobytes()),
                                                 pa.py_buffer(b"a\xe2\x82")])
    with pytest.raises(ValueError, match=r"UTF-8 in field 's'.* row 1"):
        jetjson.dumpb_arrow(pa.table({"s": bad}))


class FakeStream:
    def __init__(self, result):
        self.result = result

    def __arrow_c_stream__(self, requested_schema=None):
        return self.result


@pytest.mark.parametrize("bad", [1, "text", b"{}", [{"a": 1}], {"a": [1]}, None, object()])
def test_not_arrow_data(bad):
    with pytest.raises(TypeError):
        jetjson.dumpb_arrow(bad)


def test_bad_capsules():
    with pytest.raises(TypeError):
        jetjson.dumpb_arrow(FakeStream(42))
    table = pa.table({"a": [1]})
    schema_capsule = table.schema.__arrow_c_schema__()
    with pytest.raises(TypeError):
        jetjson.dumpb_arrow(FakeStream(schema_capsule))


def test_arguments():
    table = pa.table({"a": [1, None]})
    assert jetjson.dumpb_arrow(table, threads=0) == jetjson.dumpb_arrow(table, threads=2) == b'{"a":1}\n{"a":null}\n'
    assert jetjson.dumpb_arrow(table, threads=None, write_nulls=0) == b'{"a":1}\n{}\n'
    with pytest.raises(ValueError):
        jetjson.dumpb_arrow(table, threads=-1)
    with pytest.raises(TypeError):
        jetjson.dumpb_arrow(table, threads="2")
    with pytest.raises(TypeError):
        jetjson.dumpb_arrow(table, nulls=False)
    with pytest.raises(TypeError):
        jetjson.dumpb_arrow()
    with pytest.raises(TypeError):
        jetjson.dumpb_arrow(table, table)


def test_gil_released_while_writing():
    # Another thread notes the time as it runs Python code. Holding the GIL while it
    # writes, dumpb_arrow would leave it no moment inside the call but near its ends (the
    # export and release of the data, switches of 5 ms), so a note in the middle third
    # of the call shows the GIL was released.
    import threading
    import time

    table = pa.table({"x": np.arange(1_500_000) * 0.37, "s": pa.array(["some text"] * 1_500_000)})
    notes = []
    stop = threading.Event()

    def spin():
        k = 0
        while not stop.is_set():
            k += 1
            if k % 64 == 0:
                notes.append(time.perf_counter())

    worker = threading.Thread(target=spin)
    worker.start()
    try:
        for _ in range(5):
            t0 = time.perf_counter()
            jetjson.dumpb_arrow(table)
            t1 = time.perf_counter()
            # the middle third of the call: far from the switches at its ends (5 ms apart)
            third = (t1 - t0) / 3
            if third > 0.015 and any(t0 + third < t < t1 - third for t in notes[-50000:]):
                break
        else:
            pytest.fail("no other thread ran while dumpb_arrow worked")
    finally:
        stop.set()
        worker.join()


def test_no_leaks():
    table = pa.table(HAND)
    batch = table.to_batches()[0]
    bad = pa.table({"b": [b"x"]})
    before = (sys.getrefcount(table), sys.getrefcount(batch), sys.getrefcount(bad))

    def run():
        jetjson.dumpb_arrow(table)
        jetjson.dumpb_arrow(batch, write_nulls=False)
        jetjson.dumpb_arrow(pa.RecordBatchReader.from_batches(table.schema, table.to_batches()))
        with pytest.raises(ValueError):
            jetjson.dumpb_arrow(bad)

    growth = traced_growth(run, 200)
    assert growth < 64 * 1024, growth
    assert (sys.getrefcount(table), sys.getrefcount(batch), sys.getrefcount(bad)) == before
    # pyarrow's own memory: every buffer exported was released
    pool_before = pa.total_allocated_bytes()
    for _ in range(50):
        run()
    assert pa.total_allocated_bytes() <= pool_before


# --------------------------------------------------------------------------------------
# Hypothesis: tables of random columns, random slices
# --------------------------------------------------------------------------------------
if given is not None:
    TYPES = [pa.int8(), pa.int64(), pa.uint64(), pa.float32(), pa.float64(), pa.bool_(), pa.string(),
             pa.large_string(), pa.string_view(), pa.timestamp("s"), pa.timestamp("ms", "UTC"),
             pa.timestamp("us", "UTC"), pa.timestamp("ns"), pa.date32(), pa.date64(), pa.time64("us"),
             pa.list_(pa.int64()), pa.large_list(pa.string()), pa.list_(pa.float64(), 2),
             pa.decimal128(38, 6), pa.decimal256(60, 30),
             pa.struct([("x", pa.int32()), ("y", pa.list_(pa.string()))])]

    def values_for(t):
        if pa.types.is_integer(t):
            info = np.iinfo(t.to_pandas_dtype())
            return st.integers(int(info.min), int(info.max))
        if pa.types.is_float32(t):
            return st.floats(width=32)
        if pa.types.is_floating(t):
            return st.floats()
        if pa.types.is_boolean(t):
            return st.booleans()
        if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
            return st.text()
        if pa.types.is_timestamp(t) or pa.types.is_date64(t):
            return st.integers(-(2**63), 2**63 - 1)
        if pa.types.is_date32(t):
            return st.integers(-(2**31), 2**31 - 1)
        if pa.types.is_time64(t):
            return st.integers(0, 86_400_000_000 - 1)
        if pa.types.is_decimal(t):
            bound = 10**t.precision - 1
            return st.integers(-bound, bound).map(lambda i: D(i).scaleb(-t.scale))
        if pa.types.is_fixed_size_list(t):
            return st.lists(st.none() | values_for(t.value_type), min_size=t.list_size, max_size=t.list_size)
        if pa.types.is_list(t) or pa.types.is_large_list(t):
            return st.lists(st.none() | values_for(t.value_type), max_size=4)
        if pa.types.is_struct(t):
            return st.fixed_dictionaries({f.name: st.none() | values_for(f.type) for f in t})
        raise AssertionError(t)

    def column(t, n):
        return st.lists(st.none() | values_for(t), min_size=n, max_size=n).map(
            lambda vs: pa.array(vs, raw_type(t)).cast(t) if raw_type(t) != t else pa.array(vs, t))

    @st.composite
    def tables(draw):
        n = draw(st.integers(0, 12))
        types = draw(st.lists(st.sampled_from(TYPES), min_size=1, max_size=6))
        cols = {f"c{i}_{t}": draw(column(t, n)) for i, t in enumerate(types)}
        table = pa.table(cols)
        start = draw(st.integers(0, n))
        return table.slice(start, draw(st.integers(0, n - start)))

    @hyp_settings(150)
    @given(tables())
    def test_hypothesis_tables(table):
        check(table)

    @hyp_settings(60)
    @given(st.lists(tables(), min_size=1, max_size=3))
    def test_hypothesis_chunked(parts):
        schema = parts[0].schema
        same = [p for p in parts if p.schema == schema]
        check(pa.concat_tables(same))
