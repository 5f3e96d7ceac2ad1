"""jetjson.valid, minify and indent against the standard library's json.

Oracles: valid(x) is True exactly when json.loads(x) succeeds; minify(x) and indent(x)
parse (with json) to json.loads(x), and are byte-equal to json.dumps(json.loads(x), ...)
once each scalar token is respelled the way json.dumps spells it (jetjson keeps the
source spelling), or byte-equal without respelling when the input was written by json;
minify of garbage is compared with a byte-loop minifier written here.
"""

import array
import gc
import json
import re
import sys
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

try:
    from conftest import (Raised, assert_same_outcome, capture, corpus_files, data_params,
                          hyp_settings, input_forms, json_oracle, read_bytes)
except ImportError:  # tests/ turned into a package
    from .conftest import (Raised, assert_same_outcome, capture, corpus_files, data_params,
                           hyp_settings, input_forms, json_oracle, read_bytes)

SUITE = "JSONTestSuite/test_parsing"


# --------------------------------------------------------------------------------------
# Oracles
# --------------------------------------------------------------------------------------
def json_accepts(data):
    """Whether json.loads(data) succeeds (the errors valid() answers False for)."""
    if isinstance(data, memoryview):
        data = data.tobytes()
    try:
        json.loads(data)
        return True
    except (ValueError, RecursionError):
        return False


def encode(text):
    return text.encode("utf-8", "surrogatepass")


def as_text(data):
    """The str json.loads parses for this input (None when it cannot be decoded)."""
    if isinstance(data, str):
        return data
    raw = bytes(data)
    try:
        return raw.decode(json.detect_encoding(raw), "surrogatepass")
    except (UnicodeDecodeError, LookupError):
        return None


def json_minified(data):
    return encode(json.dumps(json.loads(as_text(data)), separators=(",", ":"), ensure_ascii=False))


def json_indented(data, indent):
    return encode(json.dumps(json.loads(as_text(data)), indent=indent, ensure_ascii=False))


_SCALAR = re.compile(r'"(?:[^"\\]|\\.)*"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?')


def respell(output):
    """jetjson's output with each string and number token written as json.dumps writes
    its value; the layout (everything between the tokens) is left as it is."""
    text = output.decode("utf-8", "surrogatepass")
    return encode(_SCALAR.sub(
        lambda m: json.dumps(json.loads(m.group()), ensure_ascii=False), text))


def has_duplicate_keys(text):
    found = []

    def hook(pairs):
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            found.append(keys)
        return dict(pairs)

    json.loads(text, object_pairs_hook=hook)
    return bool(found)


def ref_minify(raw):
    """Byte-loop minifier: a backslash escapes the next byte wherever it is, unescaped
    quotes toggle strings, whitespace outside strings goes. (None if a string is open.)"""
    out = bytearray()
    in_string = escaped = False
    for c in raw:
        was_escaped, escaped = escaped, (c == 0x5C and not escaped)
        if c == 0x22 and not was_escaped:
            in_string = not in_string
        elif not in_string and c in b" \t\n\r":
            continue
        out.append(c)
    return None if in_string else bytes(out)


def same_json_value(a, b):
    """Equal values with json's types (NaN equal to NaN, key order included)."""
    return json.dumps(a, sort_keys=False) == json.dumps(b, sort_keys=False) and \
        type(a) is type(b)


def assert_same_value_as_json(output, data):
    got = json.loads(output.decode("utf-8", "surrogatepass"))
    want = json.loads(as_text(data))
    assert same_json_value(got, want), f"{output[:200]!r} parses to another value"


# --------------------------------------------------------------------------------------
# valid
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", data_params(SUITE))
def test_valid_json_test_suite(path):
    raw = read_bytes(path)
    for label, form in input_forms(raw):
        assert jetjson.valid(form) is json_accepts(form), f"{label} of {path}"


@pytest.mark.parametrize("path", data_params("corpus"))
def test_valid_corpus(path):
    raw = read_bytes(path)
    assert json_accepts(raw)
    for label, form in input_forms(raw):
        assert jetjson.valid(form) is True, label
    # cut anywhere, the document is no longer valid (and json agrees)
    for cut in (1, len(raw) // 3, len(raw) // 2, len(raw) - 1):
        assert jetjson.valid(raw[:cut]) is json_accepts(raw[:cut])


def test_valid_beyond_the_grammar():
    # what json refuses beyond the grammar: ints over sys.get_int_max_str_digits()
    for doc in ["1" * 5000, "[-" + "9" * 4301 + "]", "1" * 640, "-" + "1" * 641, "1" * 4300]:
        assert jetjson.valid(doc) is json_accepts(doc), doc[:20]
    if hasattr(sys, "set_int_max_str_digits"):
        old = sys.get_int_max_str_digits()
        try:
            sys.set_int_max_str_digits(0)
            assert jetjson.valid("1" * 5000) is True
            sys.set_int_max_str_digits(700)
            for n in (699, 700, 701):
                doc = "[" + "7" * n + "]"
                assert jetjson.valid(doc) is json_accepts(doc), n
        finally:
            sys.set_int_max_str_digits(old)
    # nesting deeper than json's recursion allows: json raises RecursionError
    for depth in (10, 900, 5000, 100_000):
        doc = "[" * depth + "]" * depth
        assert jetjson.valid(doc) is json_accepts(doc), depth
    # bytes that json decodes as UTF-16/32 or with a BOM; NaN and lone surrogates
    for doc in ['[1, "\u00e9"]', '{"a": NaN}', '"\\ud800"', "[1,]"]:
        for encoding in ("utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-be"):
            raw = doc.encode(encoding)
            assert jetjson.valid(raw) is json_accepts(raw), (doc, encoding)
    for doc in ["\ufeff[1]", "NaN", "-Infinity", '"\ud800"', '"\\udc00\\ud800"', " ", ""]:
        assert jetjson.valid(doc) is json_accepts(doc), repr(doc)
        assert jetjson.valid(encode(doc)) is json_accepts(encode(doc)), repr(doc)


@pytest.mark.parametrize("bad", [None, 1, 1.5, [b"[]"], {"a": 1}, object(), array.array("b", b"[]")])
def test_wrong_types_raise_jsons_type_error(bad):
    for fn in (jetjson.valid, jetjson.minify, jetjson.indent):
        got, want = capture(fn, bad), capture(json.loads, bad)
        assert isinstance(want, Raised) and isinstance(got, Raised)
        assert type(got.exc) is type(want.exc) and str(got.exc) == str(want.exc), fn.__name__


TOKENS = [b"{", b"}", b"[", b"]", b",", b":", b'"', b"\\", b" ", b"\n", b"\t", b"\r", b"0",
          b"1", b"-", b".", b"e", b"9" * 20, b"true", b"null", b"NaN", b"-Infinity", b'"a"',
          b'"key":', b"\\u", b"\\ud800", b"00e9", b"\xc3\xa9", b"\xf0\x9f\x98\x80",
          b"\xed\xa0\x80", b"\xff", b"\x80", b"\x00", b"\x1f", b"\xef\xbb\xbf", b"/"]


@hyp_settings(1000)
@given(parts=st.lists(st.sampled_from(TOKENS), max_size=40))
def test_token_soup(parts):
    raw = b"".join(parts)
    assert jetjson.valid(raw) is json_accepts(raw)
    assert jetjson.valid(bytearray(raw)) is json_accepts(raw)
    text = as_text(raw)
    if text is not None:
        assert jetjson.valid(text) is json_accepts(text)
    # minify never validates: a byte-loop minifier is the oracle (for bytes that json
    # reads as UTF-8; the others are decoded first, see test_minify_decoded_inputs)
    if json.detect_encoding(raw) != "utf-8":
        return
    want = ref_minify(raw)
    got = capture(jetjson.minify, raw)
    if want is None:
        assert isinstance(got, Raised) and isinstance(got.exc, (jetjson.JSONDecodeError, UnicodeDecodeError))
    else:
        assert got == want


@hyp_settings(500)
@given(raw=st.binary(max_size=200))
def test_random_bytes(raw):
    assert jetjson.valid(raw) is json_accepts(raw)
    want = ref_minify(raw)
    if want is not None and json.detect_encoding(raw) == "utf-8":
        assert jetjson.minify(raw) == want


leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(),
                 st.text(st.sampled_from('ab "\\\n\t\u00e9\u20ac\U0001f600\ud800/'), max_size=8))
docs = st.recursive(leaf, lambda c: st.one_of(
    st.lists(c, max_size=5), st.dictionaries(st.text(st.sampled_from('ab "\u00e9'), max_size=4), c,
                                             max_size=5)),
    max_leaves=25)
MUTATION_CHARS = ('"\\{}[],: \t\n\r0123456789-+.eEtfnNIx\x00\x01\x1f\u00e9\U0001f600\ud800'
                  "\ufeff'/")


@hyp_settings(1500)
@given(doc=docs, indent=st.sampled_from([None, 0, 1, "\t"]), ensure_ascii=st.booleans(),
       op=st.sampled_from(["insert", "delete", "replace", "none"]),
       where=st.floats(min_value=0, max_value=1, allow_nan=False),
       char=st.sampled_from(MUTATION_CHARS))
def test_mutated_documents(doc, indent, ensure_ascii, op, where, char):
    text = json.dumps(doc, indent=indent, ensure_ascii=ensure_ascii)
    i = min(int(where * len(text)), len(text) - (0 if op == "insert" else 1))
    if op == "insert":
        text = text[:i] + char + text[i:]
    elif op == "delete":
        text = text[:i] + text[i + 1:]
    elif op == "replace":
        text = text[:i] + char + text[i + 1:]
    for form in (text, encode(text)):
        ok = json_accepts(form)
        assert jetjson.valid(form) is ok
        # indent validates: json's own error, or a document of json's value
        got = capture(jetjson.indent, form)
        if ok:
            assert not isinstance(got, Raised), got
            assert_same_value_as_json(got, form)
        else:
            assert_same_outcome(got, json_oracle(form), "indent", jetjson)


# --------------------------------------------------------------------------------------
# minify
# --------------------------------------------------------------------------------------
def check_minify(raw, what):
    out = jetjson.minify(raw)
    assert isinstance(out, bytes)
    assert_same_value_as_json(out, raw)
    text = as_text(raw)
    if not has_duplicate_keys(text):
        assert respell(out) == json_minified(raw), what
    for label, form in input_forms(raw):
        if label != "bytes":
            assert jetjson.minify(form) == out, label
    return out


@pytest.mark.parametrize("path", data_params("corpus"))
def test_minify_corpus(path):
    raw = read_bytes(path)
    out = check_minify(raw, path)
    assert jetjson.minify(out) == out  # already minified: unchanged


@pytest.mark.parametrize("path", data_params(SUITE, prefixes=["y_"]))
def test_minify_suite_y(path):
    raw = read_bytes(path)
    if as_text(raw) is None:
        pytest.skip("not decodable")
    check_minify(raw, path)


@hyp_settings(1000)
@given(doc=docs, indent=st.sampled_from([None, 0, 2, "\t", " \n "]), ensure_ascii=st.booleans(),
       separators=st.sampled_from([None, (", ", ": "), (" ,\n", "\r:\t")]))
def test_minify_json_written_documents(doc, indent, ensure_ascii, separators):
    # written by json, the spelling is json's: the result is byte-equal without respelling
    text = json.dumps(doc, indent=indent, ensure_ascii=ensure_ascii, separators=separators)
    want = encode(json.dumps(doc, separators=(",", ":"), ensure_ascii=ensure_ascii))
    assert jetjson.minify(text) == want
    assert jetjson.minify(encode(text)) == want
    assert jetjson.minify(memoryview(encode(text))) == want


UNTERMINATED = ['"', '["abc', '{"a": "b', '[1, "x\\"', '  ["\u00e9\\\\", "\u20ac', '["a\\n',
                '\n\n  ["\U0001f600", "', '"\ud800 never ends']


@pytest.mark.parametrize("text", UNTERMINATED)
def test_minify_unterminated_string(text):
    want = json_oracle(text)
    assert isinstance(want, Raised) and want.exc.msg == "Unterminated string starting at"
    assert_same_outcome(capture(jetjson.minify, text), want, "str", jetjson)
    if "\ud800" not in text:
        raw = text.encode()
        assert_same_outcome(capture(jetjson.minify, raw), json_oracle(raw), "bytes", jetjson)
        assert_same_outcome(capture(jetjson.minify, bytearray(raw)), json_oracle(raw), "bytearray", jetjson)
    # garbage before the string does not matter: minify does not validate
    got = capture(jetjson.minify, "[1 2,,]" + text)
    assert isinstance(got, Raised) and got.exc.msg == "Unterminated string starting at"
    assert got.exc.pos == want.exc.pos + 7


def test_minify_decoded_inputs():
    doc = {"k": ["\u00e9", 1.5, None, "\U0001f600"]}
    text = json.dumps(doc, indent=3, ensure_ascii=False)
    for encoding in ("utf-8-sig", "utf-16", "utf-16-be", "utf-32-le"):
        raw = text.encode(encoding)
        assert jetjson.minify(raw) == json_minified(raw), encoding
        assert jetjson.indent(raw, 1) == json_indented(raw, 1), encoding
    assert jetjson.minify(b"") == b"" and jetjson.minify("   \n") == b""


# --------------------------------------------------------------------------------------
# indent
# --------------------------------------------------------------------------------------
INDENTS = [0, 2, 4, "\t"]


def check_indent(raw, what):
    text = as_text(raw)
    dup = has_duplicate_keys(text)
    for indent in INDENTS:
        out = jetjson.indent(raw, indent=indent)
        assert isinstance(out, bytes)
        assert_same_value_as_json(out, raw)
        if not dup:
            assert respell(out) == json_indented(raw, indent), (what, indent)
        assert jetjson.indent(text, indent) == out, "str input"


@pytest.mark.parametrize("path", data_params("corpus"))
def test_indent_corpus(path):
    raw = read_bytes(path)
    check_indent(raw, path)
    assert jetjson.indent(jetjson.minify(raw)) == jetjson.indent(raw)
    assert jetjson.minify(jetjson.indent(raw, "\t")) == jetjson.minify(raw)


@pytest.mark.parametrize("path", data_params(SUITE, prefixes=["y_"]))
def test_indent_suite_y(path):
    raw = read_bytes(path)
    if as_text(raw) is None:
        pytest.skip("not decodable")
    check_indent(raw, path)


@pytest.mark.parametrize("path", data_params(SUITE, prefixes=["n_", "i_"]))
def test_indent_suite_errors_are_jsons(path):
    raw = read_bytes(path)
    want = json_oracle(raw)
    got = capture(jetjson.indent, raw)
    if isinstance(want, Raised) and isinstance(want.exc, RecursionError):
        # json gives up on the depth; indent has no limit: an invalid document gets
        # json's error (it is asked to word it), a valid one its layout
        if isinstance(got, Raised):
            assert isinstance(got.exc, RecursionError)
        else:
            assert jetjson.valid(raw) is False  # json cannot take it at this depth
            assert jetjson.minify(got) == jetjson.minify(raw)
        return
    if isinstance(want, Raised):
        assert_same_outcome(got, want, path, jetjson)
    else:
        assert_same_value_as_json(got, raw)


@hyp_settings(1000)
@given(doc=docs, source_indent=st.sampled_from([None, 1, "\t"]), ensure_ascii=st.booleans(),
       indent=st.sampled_from([0, 1, 2, 4, "\t", "->", "\u00e9"]))
def test_indent_json_written_documents(doc, source_indent, ensure_ascii, indent):
    text = json.dumps(doc, indent=source_indent, ensure_ascii=ensure_ascii)
    want = encode(json.dumps(doc, indent=indent, ensure_ascii=ensure_ascii))
    assert jetjson.indent(text, indent) == want
    assert jetjson.indent(encode(text), indent=indent) == want


def test_indent_arguments():
    doc = '{"a": [1, {}], "b": []}'
    for indent in [0, 3, -2, True, False, "", "  ", "\u20ac"]:
        assert jetjson.indent(doc, indent) == json_indented(doc, indent), repr(indent)
    assert jetjson.indent(doc) == jetjson.indent(doc, 2) == jetjson.indent(doc, indent=2)
    for bad in [1.5, None, b"  ", [2]]:
        with pytest.raises(TypeError):
            jetjson.indent(doc, bad)
    with pytest.raises(OverflowError):
        jetjson.indent(doc, 10 ** 30)
    with pytest.raises(TypeError):
        jetjson.indent()
    with pytest.raises(TypeError):
        jetjson.indent(doc, 2, indent=2)
    with pytest.raises(TypeError):
        jetjson.indent(doc, width=2)


def test_indent_keeps_spelling_and_duplicates():
    # documented differences from json.dumps(json.loads(x)): the text of scalars and
    # every duplicate key are kept; the rest of the layout is json's
    doc = '{"a": 1.50E+2, "a": "\\u00e9", "b": -0, "c": 1e400}'
    out = jetjson.indent(doc)
    for token in ['1.50E+2', '"\\u00e9"', '-0', '1e400']:
        assert token.encode() in out
    assert out.count(b'"a": ') == 2
    assert json.loads(out) == json.loads(doc)


# --------------------------------------------------------------------------------------
# Threads, references, leaks
# --------------------------------------------------------------------------------------
def test_threads_agree():
    files = corpus_files()
    if not files:
        pytest.skip("test data not found: <repo>/data or $JETJSON_DATA")
    datas = [read_bytes(p) for p in files[:8]]
    want = [(jetjson.valid(d), jetjson.minify(d), jetjson.indent(d)) for d in datas]
    errors = []

    def work():
        try:
            for _ in range(3):
                for d, w in zip(datas, want):
                    assert (jetjson.valid(d), jetjson.minify(d), jetjson.indent(d)) == w
                    assert jetjson.minify(d.decode()) == w[1]
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


CALLS = [
    (jetjson.valid, '{"a": [1, 2.5, "x"]}'), (jetjson.valid, b"[1,"), (jetjson.valid, 5),
    (jetjson.valid, "1" * 5000), (jetjson.valid, "[1]".encode("utf-16")),
    (jetjson.minify, b' { "a" : [ 1 , "b c" ] } '), (jetjson.minify, '["abc'),
    (jetjson.minify, bytearray(b'[ "\xc3\xa9" ]')), (jetjson.minify, 1.5),
    (jetjson.minify, b'\xff"'), (jetjson.minify, "[1]".encode("utf-16")),
    (jetjson.indent, memoryview(b'{"a": [1, {}]}')), (jetjson.indent, "[1,]"),
    (jetjson.indent, b"\xff"), (jetjson.indent, "[1]".encode("utf-32")),
]


def test_no_reference_leaks():
    for fn, arg in CALLS:
        before = sys.getrefcount(arg)
        for _ in range(20):
            capture(fn, arg)
        assert sys.getrefcount(arg) == before, (fn.__name__, arg)
    unit = "\t"
    before = sys.getrefcount(unit)
    for _ in range(20):
        jetjson.indent("[1]", unit)
        capture(jetjson.indent, "[1,", unit)
    assert sys.getrefcount(unit) == before


def test_no_memory_growth():
    import tracemalloc

    def run():
        for fn, arg in CALLS:
            capture(fn, arg)
        capture(jetjson.indent, "[1, 2]", "  ")
        capture(jetjson.indent, "[1, 2]", 1.5)

    run()
    gc.collect()
    tracemalloc.start()
    growths = []
    try:
        run()
        # Three windows: a leak grows in each; a one-off allocation elsewhere in the
        # process (a cache filled, a thread of an earlier test ending) shows in one.
        for _ in range(3):
            gc.collect()
            before = tracemalloc.get_traced_memory()[0]
            for _ in range(200):
                run()
            gc.collect()
            growths.append(tracemalloc.get_traced_memory()[0] - before)
            if growths[-1] < 20_000:
                break
    finally:
        tracemalloc.stop()
    assert min(growths) < 20_000, growths


def test_bytearray_can_be_resized_after_the_call():
    buf = bytearray(b"[1, 2, 3]" + b" " * 20000)
    jetjson.valid(buf)
    jetjson.minify(buf)
    jetjson.indent(buf)
    buf.extend(b" ")  # fails with BufferError if an export leaked
    del buf[:]


@pytest.mark.parametrize("char", ["a", "\u00e9", "\u20ac", "\U0001f600", "\ud800"])
def test_str_of_every_kind(char):
    # ASCII, latin-1, UCS-2 (a lone surrogate too) and UCS-4 storage: the same answers
    # as for the UTF-8 bytes (surrogates written as json's 'surrogatepass' does)
    for text in [f'{{"{char}" : [ "{char * 3}", 1.5 ]}}', f'["{char}', f"[{char}]", f' "{char * 40}" ']:
        raw = encode(text)
        assert jetjson.valid(text) is json_accepts(text)
        for fn in (jetjson.minify, jetjson.indent):
            got, want = capture(fn, text), capture(fn, raw)
            if isinstance(want, Raised) or isinstance(got, Raised):
                assert isinstance(got, Raised) and isinstance(want, Raised), (fn.__name__, text)
                assert type(got.exc) is type(want.exc) and got.exc.msg == want.exc.msg
                assert got.exc.pos == want.exc.pos
            else:
                assert got == want, (fn.__name__, text)


def test_indent_deep_documents():
    # deep nesting takes the exact sizing walk (the quick bound would be far too big);
    # json needs a raised recursion limit to give its layout
    old = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(20000)
        for doc in ["[" * 1500 + "]" * 1500, '{"a":' * 700 + "[1, {}]" + "}" * 700,
                    "[" * 600 + "1, 2" + "]" * 600]:
            for indent in (0, 3, "\t"):
                assert jetjson.indent(doc, indent) == json_indented(doc, indent), (doc[:10], indent)
    finally:
        sys.setrecursionlimit(old)
