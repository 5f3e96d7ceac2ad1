"""jetjson.loads_arrow on numbers, against pyarrow.json.read_json and Python's float() /
int(): integers across the int64 range and past it, doubles from random bit patterns in
several spellings (repr, %.17g, exponents in either case, long fractions, -0.0), and
digit strings of 15 to 25 digits, the edges of the builder's inline number path
(jetjson_number.h). Doubles are compared bit for bit (float.hex), not by ==."""

import io
import json
import math
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

pa = pytest.importorskip("pyarrow")
pj = pytest.importorskip("pyarrow.json")

try:
    from conftest import hyp_settings
    from test_arrow import ours
except ImportError:  # tests/ turned into a package
    from .conftest import hyp_settings
    from .test_arrow import ours


def pyarrow_table(data, schema=None):
    opts = None if schema is None else pj.ParseOptions(explicit_schema=schema)
    read = pj.ReadOptions(block_size=max(1 << 20, len(data) + 1), use_threads=False)
    try:
        return pj.read_json(io.BytesIO(data), read_options=read, parse_options=opts)
    except (pa.ArrowInvalid, OverflowError) as exc:
        return exc


def exact(column):
    """A column's values, doubles by their bits."""
    return [v.hex() if isinstance(v, float) else v for v in column.to_pylist()]


def assert_same(data, schema=None, **kw):
    got, exp = ours(data, schema, **kw), pyarrow_table(data, schema)
    if isinstance(exp, Exception):
        assert isinstance(got, Exception), f"pyarrow refused ({exp}) but loads_arrow gave {got}"
        return None
    assert not isinstance(got, Exception), f"loads_arrow raised {got!r}, pyarrow gave {exp.schema}"
    assert got.schema == exp.schema
    for name in exp.column_names:
        assert exact(got.column(name)) == exact(exp.column(name)), name
    return got


def lines(key, texts, last_newline=True):
    body = "\n".join('{"%s":%s}' % (key, t) for t in texts)
    return (body + ("\n" if last_newline else "")).encode()


def spellings(x):
    """Several texts of the double x that JSON allows."""
    out = [repr(x), "%.17g" % x, "%.15g" % x, "%e" % x, ("%E" % x), "%.20e" % x]
    if abs(x) < 1e22:
        out.append("%.25f" % x)
        out.append("%.6f" % x)
    return [t for t in out if "inf" not in t and "nan" not in t]


def json_number(text):
    """A Python spelling made a JSON number (no '+', no bare '.', no leading zeros)."""
    neg = text.startswith("-")
    body = text.lstrip("+-")
    mant, _, exp = body.partition("e") if "e" in body else body.partition("E")
    sep = "e" if "e" in body else "E"
    if "." in mant:
        ip, fp = mant.split(".")
        ip = ip.lstrip("0") or "0"
        mant = ip + ("." + fp if fp else "")
    else:
        mant = mant.lstrip("0") or "0"
    if exp:
        mant += sep + exp
    return ("-" if neg else "") + mant


finite_bits = st.integers(0, 2**64 - 1).map(lambda b: struct.unpack("<d", struct.pack("<Q", b))[0]).filter(math.isfinite)


@hyp_settings(300)
@given(st.lists(finite_bits, min_size=1, max_size=12), st.data())
def test_doubles_from_bits(xs, data):
    texts = [json_number(data.draw(st.sampled_from(spellings(x)))) for x in xs]
    got = assert_same(lines("x", texts))
    if got is not None and pa.types.is_floating(got.schema.field("x").type):
        assert exact(got.column("x")) == [float(t).hex() for t in texts]


@hyp_settings(300)
@given(st.lists(st.one_of(st.integers(-2**63, 2**63 - 1), st.integers(-2**70, 2**70),
                          st.integers(-10**19, 10**19)), min_size=1, max_size=12), st.booleans())
def test_integers(ints, last_newline):
    assert_same(lines("i", [str(i) for i in ints], last_newline))


@st.composite
def decimal_texts(draw):
    """Sign, 1-12 integer digits, 0-25 fraction digits, now and then an exponent: the
    edges of 15, 16, 18 and 19 digits in all."""
    int_digits = draw(st.integers(1, 12))
    first = draw(st.sampled_from("0123456789" if int_digits == 1 else "123456789"))
    ip = first + draw(st.text("0123456789", min_size=int_digits - 1, max_size=int_digits - 1))
    fp = draw(st.text("0123456789", min_size=0, max_size=25))
    text = draw(st.sampled_from(["", "-"])) + ip + ("." + fp if fp else "")
    if draw(st.integers(0, 5)) == 0:
        text += draw(st.sampled_from(["e", "E"])) + draw(st.sampled_from(["", "+", "-"])) + str(draw(st.integers(0, 30)))
    return text


@hyp_settings(400)
@given(st.lists(decimal_texts(), min_size=1, max_size=12), st.booleans())
def test_decimal_texts(texts, last_newline):
    got = assert_same(lines("d", texts, last_newline))
    if got is not None and pa.types.is_floating(got.schema.field("d").type):
        assert exact(got.column("d")) == [float(t).hex() for t in texts]


@hyp_settings(200)
@given(st.lists(st.one_of(decimal_texts(), st.integers(-2**63, 2**63 - 1).map(str)), min_size=1, max_size=12),
       st.sampled_from(["float64", "int64"]))
def test_with_a_schema(texts, kind):
    schema = pa.schema([("n", getattr(pa, kind)())])
    assert_same(lines("n", texts), schema)


@pytest.mark.parametrize("text", [
    "0", "-0", "0.0", "-0.0", "1e5", "1.0E-7", "1E+2", "0.1", "-0.000001", "123456789012345678",
    "-123456789012345678", "1234567890123456789", "9223372036854775807", "-9223372036854775808",
    "9223372036854775808", "0.30000000000000004", "1.7976931348623157e308", "5e-324",
    "2.2250738585072014E-308", "0.1234567890123456789", "12345678901234567.89", "9007199254740993.0",
    "9007199254740992.5", "0.00000000000000000001", "123456.1234567890123", "1.00000000000000000000001",
])
def test_edge_numbers(text):
    for last_newline in (True, False):
        data = lines("x", [text, "1.5" if "." in text or "e" in text.lower() else "1"], last_newline)
        got = assert_same(data)
        assert got is not None
        v = got.column("x")[0].as_py()
        want = float(text) if isinstance(v, float) else int(text)
        assert (v.hex() if isinstance(v, float) else v) == (want.hex() if isinstance(want, float) else want)


def test_ints_become_doubles():
    """An int64 column that meets a fraction turns into doubles (pyarrow's inference)."""
    texts = ["1", "-2", "123456789012345678", "0.5", "7", "1e2"]
    got = assert_same(lines("n", texts))
    assert got.schema.field("n").type == pa.float64()


@pytest.mark.parametrize("texts", [["-0", "0.5"], ["0.5", "-0"], ["-0", "1", "-0.0", "2"], ["-0", "-0"], ["0", "-0", "7"]])
@pytest.mark.parametrize("schema", [None, "float64", "int64"])
def test_negative_zero_integer(texts, schema):
    """"-0" is 0 in an int64 column and -0.0 in a double one, also when the column turns
    double after it (pyarrow reads it as -0.0 then)."""
    assert_same(lines("z", texts), None if schema is None else pa.schema([("z", getattr(pa, schema)())]))


@pytest.mark.parametrize("texts", [["-0", "0.5"], ["0.5", "-0"], ["-0", "1", "-0.0", "2"], ["0", "-0", "7"]])
@pytest.mark.parametrize("schema", [None, "float64", "int64"])
def test_negative_zero_in_records_across_lines(texts, schema):
    """The same where a record spans lines, read by documents (its plain tape marks the
    int64 0 written "-0"); also inside a list, where numbers are read as a run."""
    body = "".join('{"z":\n %s,\n "l": [%s, %s]}\n' % (t, t, t) for t in texts).encode()
    fields = None if schema is None else [("z", getattr(pa, schema)()), ("l", pa.list_(getattr(pa, schema)()))]
    assert_same(body, None if fields is None else pa.schema(fields))


def test_negative_zero_across_windows_and_threads():
    rows = [b'{"a":-0}' if i % 7 == 0 else b'{"a":%d}' % i for i in range(300_000)] + [b'{"a":0.5}']
    data = b"\n".join(rows) + b"\n"
    exp = exact(pyarrow_table(data).column("a"))
    for threads in (1, 2):
        assert exact(pa.table(jetjson.loads_arrow(data, threads=threads)).column("a")) == exp


# ---- number tokens, well formed or not, as the lazy stage 2 checks them ----

@st.composite
def number_like(draw):
    """Texts near the number grammar: signs, leading zeros, dots, exponents, up to 34
    bytes, now and then with whitespace after them."""
    text = draw(st.one_of(
        st.text("-0123456789.eE+", min_size=1, max_size=34),
        decimal_texts(),
        st.integers(0, 10**33).map(str),
        st.tuples(st.integers(0, 10**20), st.integers(0, 10**14)).map(lambda t: "%d.%d" % t),
    ))
    return text + draw(st.sampled_from(["", "", " ", "\t ", "\r\n "]))


def accepted_by_json(line):
    try:
        json.loads(line)
        return True
    except ValueError:
        return False


@hyp_settings(400)
@given(st.lists(number_like(), min_size=1, max_size=8), st.booleans(), st.booleans())
def test_number_tokens_judged_like_json(texts, first, last_newline):
    """The lazy stage 2 checks a raw number's grammar (the builder converts it later):
    a record json refuses makes loads_arrow refuse; accepted ones give json's values.
    Each token is followed by 40 bytes or more (the field after it, or the next record),
    as the number readers read ahead when they have room."""
    pad = '"pad":"%s"' % ("p" * 40)
    recs = [("{%s:%s,%s}" if first else "{%s,%s:%s}") % (('"n"', t, pad) if first else (pad, '"n"', t))
            for t in texts]
    data = ("\n".join(recs) + ("\n" if last_newline else "")).encode()
    if all(accepted_by_json(r) for r in recs):
        got = ours(data)
        if isinstance(got, Exception):  # past int64, or a double's range: pyarrow refuses too
            assert isinstance(pyarrow_table(data), Exception), f"loads_arrow raised {got!r}"
            return
        want = [json.loads(r)["n"] for r in recs]
        if pa.types.is_floating(got.schema.field("n").type):
            want = [float(t) for t in texts]  # from the text: "-0" in a double column is -0.0
        assert exact(got.column("n")) == [v.hex() if isinstance(v, float) else v for v in want]
    else:
        got = ours(data)
        assert isinstance(got, Exception), f"json refuses one of {recs!r}, loads_arrow gave {got}"


@pytest.mark.parametrize("word", [
    "NaN", "Infinity", "-Infinity", "-Inf", "-I", "-", "--1", "-x", "-0", "-0.5", "-.5", "-01",
    "true", "tru", "truex", "false", "fals", "null", "nul", "-nan", "-true", "+1", ".5",
])
@pytest.mark.parametrize("first", [True, False])
def test_words_and_signs_judged_like_json(word, first):
    """Values whose first byte takes the lazy walk's plain branches (a digit, '-', a
    quote) or its table (the words), at either end of a record: json's verdict and value."""
    pad = '"pad":"%s"' % ("p" * 40)
    rec = ("{%s:%s,%s}" if first else "{%s,%s:%s}") % (('"n"', word, pad) if first else (pad, '"n"', word))
    got = ours(rec.encode())
    if not accepted_by_json(rec):
        assert isinstance(got, Exception), f"json refuses {rec!r}, loads_arrow gave {got}"
        return
    assert not isinstance(got, Exception), f"loads_arrow raised {got!r} on {rec!r}"
    want = json.loads(rec)["n"]
    if isinstance(want, float) or pa.types.is_floating(got.schema.field("n").type):
        want = float(word)
    assert exact(got.column("n")) == [want.hex() if isinstance(want, float) else want]
