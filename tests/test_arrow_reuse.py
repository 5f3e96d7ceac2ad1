"""loads_arrow: records read from one index per window (not a parse per line), columns
without validity bits until their first null, and memory kept between calls (mapped
column buffers and the threads' parsers are reused, their old bytes left in place).
pyarrow.json.read_json is the oracle."""

import json
import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st


pa = pytest.importorskip("pyarrow")

try:
    from conftest import hyp_settings
    from test_arrow import assert_same, null_before_value_in_a_list, oracle, ours
except ImportError:  # tests/ turned into a package
    from .conftest import hyp_settings
    from .test_arrow import assert_same, null_before_value_in_a_list, oracle, ours


def line(record, rng):
    """One record's JSON text, its keys in the record's order, with some spacing."""
    sep = rng.choice([(",", ":"), (", ", ": "), (" ,", " : ")])
    return json.dumps(record, ensure_ascii=rng.random() < 0.5, separators=sep)


# keys that need escapes, one that is a prefix of another, and ones longer than a word
KEYS = ["id", "i", "user name", "k\"q", "k\\b", "t\u00e9", "\u2603", "a_long_key_name_xx", "a_long_key_name_xy"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**63 - 1), st.integers(-10, 10),
                    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from([-0.0, 0.0]),
                    st.text(max_size=6), st.sampled_from(["2024-01-02T03:04:05Z", "2015-01-01", "x\ny"]))


@st.composite
def flat_rows(draw):
    """Rows of one key order most of the time (as a file's rows are), now and then
    another order, a key missing or one more, a null, or a value of another type."""
    keys = draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=6, unique=True))
    kinds = {k: draw(SCALARS) for k in keys}
    n = draw(st.integers(1, 40))
    rng = random.Random(draw(st.integers(0, 2**32)))
    rows = []
    for _ in range(n):
        order = list(keys)
        if rng.random() < 0.15:
            rng.shuffle(order)
        row = {}
        for k in order:
            if rng.random() < 0.1:
                continue  # missing
            v = kinds[k]
            if rng.random() < 0.1:
                v = None
            elif rng.random() < 0.05:
                v = draw(SCALARS)  # a type change, maybe
            elif isinstance(v, int) and not isinstance(v, bool):
                v = v + rng.randrange(-3, 4) if abs(v) < 2**62 else v
            row[k] = v
        if rng.random() < 0.05:
            row[rng.choice(KEYS)] = rng.choice([1, "s", None, 2.5])  # one more (or a new value)
        rows.append(row)
    return rows, rng.random()


@hyp_settings(300)
@given(flat_rows())
def test_flat_rows_against_pyarrow(drawn):
    rows, seed = drawn
    rng = random.Random(seed)
    data = "".join(line(r, rng) + "\n" for r in rows).encode()
    assert_same(data)


def test_duplicate_keys_and_escaped_duplicates():
    for text in [b'{"a":1,"a":2}\n', b'{"a":1}\n{"a":1,"b":2,"a":3}\n', b'{"\\u0061":1,"a":2}\n',
                 b'{"k\\"q":1,"k\\u0022q":2}\n']:
        got = ours(text)
        assert isinstance(got, Exception) and "twice" in str(got), (text, got)
        assert isinstance(oracle(text), Exception), text


@hyp_settings(100)
@given(flat_rows(), st.sampled_from(["\n", " ", "\n\n", "\r\n"]))
def test_records_across_lines_and_several_on_a_line(drawn, between):
    # not one record per line: read the same, as pyarrow reads them one per line
    rows, seed = drawn
    rng = random.Random(seed)
    flat = "".join(line(r, rng) + "\n" for r in rows).encode()
    spread = between.join(json.dumps(r, indent=rng.choice([None, 1])) for r in rows).encode()
    want = oracle(flat)
    got = ours(spread)
    if isinstance(want, Exception):
        assert isinstance(got, Exception), got
    else:
        assert not isinstance(got, Exception), got
        assert got.schema == want.schema
        assert json.dumps(got.to_pylist(), default=repr) == json.dumps(want.to_pylist(), default=repr)


def test_negative_zero_across_lines():
    # "-0" in a double column is -0.0 (pyarrow's reading) also where a record spans lines
    got = ours(b'{"a": 1.5,\n "b": 1}\n{"a":\n-0, "b": -0}\n{"a": 2.5, "b": 0.5}\n')
    assert str(got.column("a").to_pylist()) == "[1.5, -0.0, 2.5]"
    assert str(got.column("b").to_pylist()) == "[1.0, -0.0, 0.5]"


@pytest.mark.parametrize("first_null", [1, 7, 8, 9, 15, 16, 17, 1000, 4095, 4096, 70000])
@pytest.mark.parametrize("threads", [1, 2])
def test_first_null_after_many_values(first_null, threads):
    # the validity bits are written at the first null: rows before it valid, after it too
    n = max(first_null + 20, 600_000 // 40 if threads == 2 else 0)
    recs = [{"i": k, "b": k % 3 == 0, "s": "v%d" % k} for k in range(n)]
    for key in "ibs":
        recs[first_null][key] = None
    recs[first_null + 3]["s"] = None
    data = "".join(json.dumps(r) + "\n" for r in recs).encode()
    got = ours(data, threads=threads)
    assert not isinstance(got, Exception), got
    assert got.equals(oracle(data))
    assert got.column("i").null_count == 1 and got.column("s").null_count == 2


def test_reused_buffers_hold_no_old_bytes():
    # a table of true booleans and large values, freed, then one of false and nulls read
    # into the same pages: every bit and value must be the new table's
    n = 60_000
    full = "".join('{"b":true,"i":%d,"t":"2024-01-02T03:04:05Z","l":[true,true]}\n' % (2**62 + k)
                   for k in range(n)).encode()
    empty = "".join('{"b":false,"i":%s,"t":%s,"l":[false,null]}\n'
                    % ("null" if k % 7 == 0 else k, "null" if k % 5 == 0 else '"2024-01-02"')
                    for k in range(n)).encode()
    for threads in (1, 2, 1, 2):
        table = ours(full, threads=threads)
        assert table.equals(oracle(full))
        del table
        table = ours(empty, threads=threads)
        assert table.equals(oracle(empty)), threads
        assert table.column("b").to_pylist() == [False] * n
        del table


@hyp_settings(25)
@given(st.lists(flat_rows(), min_size=2, max_size=3))
def test_calls_one_after_another_on_two_threads(drawn_list):
    # tables of different shapes in turn, each big enough for two threads: the kept
    # parsers and pages serve them all, and each equals what one thread reads
    for rows, seed in drawn_list:
        assume(not null_before_value_in_a_list(rows))
        rng = random.Random(seed)
        text = "".join(line(r, rng) + "\n" for r in rows).encode()
        data = text * (600_000 // len(text) + 1)
        one, two = ours(data, threads=1), ours(data, threads=2)
        if isinstance(one, Exception):
            assert str(one) == str(two)
        else:
            assert one.schema == two.schema and one.equals(two)


@pytest.mark.parametrize("spread_at", [None, 4 << 20, (4 << 20) + 100])
def test_slices_of_a_big_input_with_a_schema(spread_at):
    # read in slices of about 4 MiB cut after a newline: a record that spans lines across
    # a cut is read all the same (the input is then read by documents)
    schema = pa.schema([("id", pa.int64()), ("s", pa.string()), ("f", pa.float64())])
    recs = [{"id": k, "s": "x" * (k % 50), "f": k / 8, "skip": [k, {"a": k}]} for k in range(160_000)]
    flat = "".join(json.dumps(r) + "\n" for r in recs).encode()
    data = flat
    if spread_at is not None:
        at = flat.index(b"\n", spread_at) + 1  # a record starting near the cut, over lines
        end = flat.index(b"\n", at)
        data = flat[:at] + flat[at:end].replace(b", ", b",\n") + flat[end:]
    assert len(data) > 7 << 20
    want = oracle(flat, schema)
    for threads in (1, 2):
        got = ours(data, schema, threads=threads)
        assert not isinstance(got, Exception), got
        assert got.equals(want), threads


@pytest.mark.parametrize("trailing", [b"", b"\n"])
def test_strings_of_every_short_length_up_to_the_input_end(trailing):
    # strings of up to 32 bytes are copied 32 bytes at a time where the input and the
    # column have the room: each length, and the last string of an input that ends there
    for n in range(0, 41):
        recs = [{"s": "ab\u00e9cdefghij"[: k % 12] * 4, "t": "y" * n} for k in range(30)]
        data = "\n".join(json.dumps(r, ensure_ascii=False) for r in recs).encode() + trailing
        got = ours(bytes(data))
        assert not isinstance(got, Exception), got
        assert got.equals(oracle(data)), n
