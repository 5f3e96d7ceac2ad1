"""fields= with the formats "whitespace" and "lines": each document's top level is walked
on the index and only the values the pointers reach are read (the seed's rule). Against
json: the values at the pointers of json.loads of each document (first duplicate key
wins, as fields= says), json's errors for documents broken on the top level or on the
way to a pointer (message and position in the whole input), and the intact document's
fields for a document broken only in a value no pointer reaches."""

import io
import json
import random
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

try:
    from conftest import data_params, first_difference, hyp_settings, read_bytes, traced_growth
    from test_many import Err, follow, oracle, same
except ImportError:  # tests/ turned into a package
    from .conftest import data_params, first_difference, hyp_settings, read_bytes, traced_growth
    from .test_many import Err, follow, oracle, same

NDJSON = data_params("ndjson", suffix=".ndjson")
CORPUS = data_params("corpus")
MISSING = object()


def first_wins(pairs):
    out = {}
    for k, v in pairs:
        out.setdefault(k, v)
    return out


def expected_fields(texts, pointers, default=None, single=False):
    out = []
    for t in texts:
        doc = json.loads(t, object_pairs_hook=first_wins)
        vals = tuple(follow(doc, p, default) for p in pointers)
        out.append(vals[0] if single else vals)
    return out


def run(data, **kw):
    """What loads_many gives: the values, then the exception that stopped it."""
    out = []
    try:
        for v in jetjson.loads_many(data, **kw):
            out.append(v)
    except (ValueError, RecursionError) as e:
        out.append(e)
    return out


def escape_token(key):
    return key.replace("~", "~0").replace("/", "~1")


def pointers_of(docs, rng, n=4):
    """Pointers to keys of the documents, one or two levels down, and a missing one."""
    paths = set()
    for d in docs:
        if not isinstance(d, dict):
            continue
        for k, v in d.items():
            paths.add((k,))
            if isinstance(v, dict):
                paths.update((k, k2) for k2 in v)
    paths = sorted(paths)
    rng.shuffle(paths)
    chosen = []
    for p in paths:  # no pointer may lead into another's value (those documents are read whole)
        if any(p[:len(q)] == q or q[:len(p)] == p for q in chosen):
            continue
        chosen.append(p)
        if len(chosen) == n:
            break
    return ["/" + "/".join(escape_token(t) for t in p) for p in chosen] + ["/no such key"]


# ---- the corpus ---------------------------------------------------------------------

@pytest.mark.parametrize("path", NDJSON)
@pytest.mark.parametrize("fmt", ["whitespace", "lines"])
def test_corpus_streams(path, fmt):
    data = read_bytes(path)
    exp_docs = oracle(data, fmt)
    if exp_docs and isinstance(exp_docs[-1], Err):
        pytest.skip("an invalid stream: see the error tests")
    lines = [ln for ln in data.decode("utf-8").splitlines() if ln.strip()]
    if fmt == "whitespace" and len(lines) != len(exp_docs):
        pytest.skip("documents that span lines")
    rng = random.Random(path)
    pointers = pointers_of(exp_docs, rng)
    exp = expected_fields(lines, pointers, "D")
    assert first_difference(run(data, fields=pointers, default="D", format=fmt), exp) is None
    got = jetjson.map_many(lambda t: t, data, fields=pointers, default="D", format=fmt)
    assert first_difference(got, exp) is None
    one = run(data, fields=pointers[0], format=fmt)
    assert first_difference(one, expected_fields(lines, pointers[:1], single=True)) is None


@pytest.mark.parametrize("path", CORPUS)
def test_corpus_documents(path):
    # each corpus document as a stream of three: its keys' values, against json's
    text = read_bytes(path).decode("utf-8", "surrogatepass")
    try:
        doc = json.loads(text, object_pairs_hook=first_wins)
    except (ValueError, RecursionError):
        pytest.skip("not a document json reads")
    if not isinstance(doc, dict):
        pytest.skip("the skim reads objects; others are read whole")
    compact = json.dumps(json.loads(text), ensure_ascii=False)
    data = "\n".join([compact, text.replace("\n", " ").replace("\r", " "), compact]).encode("utf-8", "surrogatepass")
    pointers = pointers_of([doc], random.Random(path), n=6)
    exp = [tuple(follow(doc, p, None) for p in pointers)] * 3
    exp[0] = exp[2] = tuple(follow(json.loads(compact, object_pairs_hook=first_wins), p, None) for p in pointers)
    for fmt in ("whitespace", "lines"):
        assert first_difference(run(data, fields=pointers, format=fmt), exp) is None
        for p in pointers[:3]:  # jetjson.get on the document's text, another reading
            single = run(data, fields=p, format=fmt)
            assert first_difference(single[1], jetjson.get(text, p) if follow(doc, p, MISSING) is not MISSING
                                    else None) is None


# ---- generated documents --------------------------------------------------------------

KEYS = st.text(st.sampled_from('ab/~"\\\nxé€😀'), max_size=3)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=5))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(KEYS, inner, max_size=3)), max_leaves=8)
DOCS = st.lists(st.dictionaries(KEYS, VALUES, max_size=5), min_size=1, max_size=6)


@hyp_settings(300)
@given(DOCS, st.booleans(), st.booleans(), st.randoms(use_true_random=False))
def test_generated(docs, ensure_ascii, spaced, rng):
    texts = [json.dumps(d, ensure_ascii=ensure_ascii, separators=(", ", ": ") if spaced else (",", ":"))
             for d in docs]
    data = "\n".join(texts).encode("utf-8", "surrogatepass")
    pointers = pointers_of(docs, rng)
    exp = expected_fields(texts, pointers, "D")
    for fmt in ("whitespace", "lines"):
        assert first_difference(run(data, fields=pointers, default="D", format=fmt), exp) is None
    got = jetjson.map_many(lambda t: t, data, fields=tuple(pointers), default="D", batch_size=64)
    assert first_difference(got, exp) is None


@hyp_settings(100)
@given(st.lists(st.tuples(KEYS, st.integers(0, 3)), min_size=1, max_size=6))
def test_duplicate_keys_first_wins(pairs):
    text = "{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in pairs) + "}"
    pointers = sorted({"/" + escape_token(k) for k, _ in pairs})
    exp = expected_fields([text], pointers)
    assert first_difference(run(text.encode("utf-8", "surrogatepass") * 1, fields=pointers), exp) is None


# ---- what is read and what is skipped ----------------------------------------------------

# values that are broken but whose brackets balance: a skip by counting brackets passes them
BROKEN_VALUES = ["tru", "[1 2]", '{"a" 1}', "01", "[}", "-", '"\\u12"', '"\\x"', "nul", "[1,]", "{,}", "1.e5", "NaN"]


@hyp_settings(150)
@given(DOCS, st.sampled_from(BROKEN_VALUES), st.randoms(use_true_random=False))
def test_broken_unreached_value_is_skipped(docs, broken, rng):
    # a value no pointer reaches is not read: the fields are those of the intact document
    docs = [d for d in docs if len(d) >= 2] or [{"a": 1, "b": 2}]
    texts = [json.dumps(d) for d in docs]
    pointers = pointers_of(docs, rng, n=2)
    reached = {p[1:].split("/")[0].replace("~1", "/").replace("~0", "~") for p in pointers}
    victim = rng.randrange(len(docs))
    skipped = [k for k in docs[victim] if k not in reached]
    if not skipped:
        return
    key = rng.choice(skipped)
    for p in pointers:  # a scalar or an array on the way has the whole document read
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in p[1:].split("/")]
        if len(tokens) > 1 and tokens[0] in docs[victim] and not isinstance(docs[victim][tokens[0]], dict):
            return
    broken_doc = "{" + ", ".join(f"{json.dumps(k)}: {broken if k == key else json.dumps(v)}"
                                 for k, v in docs[victim].items()) + "}"
    exp = expected_fields(texts, pointers)
    texts[victim] = broken_doc
    data = "\n".join(texts).encode()
    for fmt in ("whitespace", "lines"):
        assert first_difference(run(data, fields=pointers, format=fmt), exp) is None


def whole_input_error(data, fmt):
    exp = oracle(data, fmt)
    assert exp and isinstance(exp[-1], Err), exp
    return exp


@pytest.mark.parametrize("fmt", ["whitespace", "lines"])
@pytest.mark.parametrize("bad", [
    '{"a": tru, "b": 1}',          # the value found
    '{"a": 1 "b": 2}',             # the top level
    '{"a": 1, "b": 2,}',           # a trailing comma
    '{"a" 1}',                     # a missing colon
    '{"x": {"a": 1} "y"}',         # on the way to /x/a
    '{"x": {"a": [1, }}',          # inside the value found
    '{"a": 1, "b": 2',             # incomplete
    '{"a": 01}',                   # a number json refuses
    '{"a": 1}}',                   # a stray bracket after it
    '{"b": ], "a": 1}',            # a closing bracket where a value starts
    '{"x": {"a": 1, "a" : tru}}',  # a duplicate on the way: its value is skipped, its key read
])
def test_broken_where_read_raises_json_error(fmt, bad):
    good = '{"a": 1, "x": {"a": 2}}'
    data = "\n".join([good, good, bad, good]).encode()
    exp = whole_input_error(data, fmt)
    got = run(data, fields=["/a", "/x/a"], format=fmt)
    if bad == '{"x": {"a": 1, "a" : tru}}':  # the first "a" wins and the second value is not read
        assert first_difference(got, [(1, 2), (1, 2), (None, 1), (1, 2)]) is None
        return
    pointers = ["/a", "/x/a"]
    same(got, [e if isinstance(e, Err) else tuple(follow(e, p, None) for p in pointers) for e in exp], bad)


@pytest.mark.parametrize("data,fields,exp", [
    (b'{"a": NaN}\n{"a": "\\ud800"}\n{"\\ud800": 1, "a": 2}', "/a", None),  # json decides
    (b'[1, 2]\n"s"\n3\n{"a": [1]}', "/0", None),                              # other top levels
    (b'{"a": 1e400}\n{"a": -0.0}\n{"a": 123456789012345678901234567890}', "/a", None),
    (b'{"a": null, "b": [null]}', ["/a", "/b/0", "/c"], None),
])
def test_values_json_decides(data, fields, exp):
    texts = data.decode().split("\n")
    single = isinstance(fields, str)
    pointers = [fields] if single else fields
    assert first_difference(run(data, fields=fields), expected_fields(texts, pointers, single=single)) is None


def test_deep_unreached_value():
    # a document deeper than the walk goes is read whole: json's RecursionError
    deep = "[" * 100000 + "]" * 100000
    data = ('{"a": 1, "d": ' + deep + "}").encode()
    got = run(data, fields="/a")
    exp = run(data)
    assert type(got[-1]) is type(exp[-1])
    ok = ('{"a": 1, "d": ' + "[" * 60 + "]" * 60 + "}").encode()
    assert run(ok, fields="/a") == [1]


@pytest.mark.parametrize("fmt", ["json_seq", "comma", "array"])
def test_other_formats_validate_everything(fmt):
    doc = '{"a": 1, "b": tru}'
    data = {"json_seq": "\x1e" + doc + "\n", "comma": doc, "array": "[" + doc + "]"}[fmt].encode()
    with pytest.raises(jetjson.JSONDecodeError) as info:
        list(jetjson.loads_many(data, fields="/a", format=fmt))
    exp = whole_input_error(data, fmt)[-1]
    assert (info.value.msg, info.value.pos) == (exp.msg, exp.pos)


@pytest.mark.parametrize("fields", [["", "/a"], ["/b", "/b/c"], ["/b/c", "/b"], [""]])
def test_pointers_that_read_whole_documents(fields):
    data = b'{"a": 1, "b": {"c": 2}}\n{"a": 3, "z": tru}\n'
    with pytest.raises(jetjson.JSONDecodeError) as info:
        list(jetjson.loads_many(data, fields=fields))
    exp = whole_input_error(data, "whitespace")[-1]
    assert (info.value.msg, info.value.pos, info.value.lineno, info.value.colno) == \
        (exp.msg, exp.pos, exp.lineno, exp.colno)


# ---- streams ------------------------------------------------------------------------------

def events(n, rng):
    out = []
    for i in range(n):
        out.append(json.dumps({"id": i, "type": rng.choice(["Push", "Watch", "Fork"]),
                               "actor": {"login": "u%d" % i, "id": i * 7, "bio": "é" * rng.randrange(30)},
                               "payload": {"x": [rng.random() for _ in range(rng.randrange(20))]},
                               "created_at": "2015-01-01T15:%02d:00Z" % (i % 60)}))
    return out


@pytest.mark.parametrize("fmt", ["whitespace", "lines"])
def test_file_objects_and_decoder(fmt):
    rng = random.Random(7)
    texts = events(300, rng)
    texts[150] = texts[150].replace('"payload": {"x": [', '"payload": {"x": [tru, ')  # unreached
    data = "\n".join(texts).encode() + b"\n"
    pointers = ["/type", "/actor/login", "/created_at", "/id"]
    exp = expected_fields([t.replace("[tru, ", "[") for t in texts], pointers)
    for batch in (64, 1000, 1 << 16):
        got = list(jetjson.loads_many(io.BytesIO(data), fields=pointers, format=fmt, batch_size=batch))
        assert first_difference(got, exp) is None
    dec = jetjson.Decoder(fields=pointers, format=fmt)
    got = []
    for k in range(0, len(data), 97):
        got.extend(dec.feed(data[k:k + 97]))
    got.extend(dec.close())
    assert first_difference(got, exp) is None
    # broken on the way: json's error, counted in the whole stream
    bad = data.replace(b'"type": "', b'"type": tru"', 1)
    with pytest.raises(jetjson.JSONDecodeError) as info:
        list(jetjson.loads_many(io.BytesIO(bad), fields=pointers, format=fmt, batch_size=256))
    exp_err = whole_input_error(bad, fmt)[-1]
    assert (info.value.msg, info.value.pos, info.value.lineno, info.value.colno) == \
        (exp_err.msg, exp_err.pos, exp_err.lineno, exp_err.colno)


def test_threads_agree():
    rng = random.Random(3)
    data = ("\n".join(events(2000, rng)) + "\n").encode()
    pointers = ["/type", "/created_at", "/actor"]
    exp = jetjson.map_many(lambda t: t, data, fields=pointers, threads=1)
    assert jetjson.map_many(lambda t: t, data, fields=pointers, threads=2) == exp
    assert first_difference(exp, expected_fields(data.decode().splitlines(), pointers)) is None
    # windows parsed ahead hold whole documents: one with a broken unreached value is
    # read again here, skimmed, so that threads= never changes what is checked
    texts = data.decode().splitlines()
    for k in range(0, len(texts), 97):
        texts[k] = texts[k].replace('"payload": {"x": [', '"payload": {"x": [tru, ')
    broken = ("\n".join(texts) + "\n").encode()
    for threads in (1, 2):
        assert jetjson.map_many(lambda t: t, broken, fields=pointers, threads=threads, batch_size=1 << 14) == exp
    bad = broken + b'{"type": nul}\n'
    outcomes = []
    for threads in (1, 2):
        with pytest.raises(jetjson.JSONDecodeError) as info:
            jetjson.map_many(lambda t: t, bad, fields=pointers, threads=threads, batch_size=1 << 14)
        outcomes.append((info.value.msg, info.value.pos))
    assert outcomes[0] == outcomes[1]


# ---- references and memory ----------------------------------------------------------------

def test_references_and_memory():
    rng = random.Random(5)
    data = ("\n".join(events(50, rng)) + "\n").encode()
    default = object()
    fields = ["/type", "/actor/login", "/nope"]
    before = (sys.getrefcount(data), sys.getrefcount(default))
    growth = traced_growth(lambda: jetjson.map_many(lambda t: t, data, fields=fields, default=default))
    assert growth < 64 * 1024, growth
    assert (sys.getrefcount(data), sys.getrefcount(default)) == before
    bad = data + b'{"type": tru}\n'
    growth = traced_growth(lambda: run(bad, fields=fields))
    assert growth < 64 * 1024, growth


def test_value_json_decides_after_escaped_strings():
    # an int past json's digit limit is json's to refuse: the document is read again the
    # whole way (its escaped strings too), and the error is json's
    big = "1" * 5000
    data = ('{"s": "a\\nb\\u00e9", "n": ' + big + ', "t": "x\\"y"}\n').encode()
    with pytest.raises(ValueError) as ours:
        list(jetjson.loads_many(data, fields=["/s", "/n", "/t"]))
    with pytest.raises(ValueError) as theirs:
        json.loads(data)
    assert str(ours.value) == str(theirs.value)
    assert list(jetjson.loads_many(data, fields=["/s", "/t"])) == [("a\nb\u00e9", 'x"y')]


# ---- string values (plain ASCII ones are made without stage 2) ---------------------------

STRING_PIECES = st.sampled_from(["a", "Z", " ", "~", "12345678", "\x7f", "\x1f", "\x00", "\t", '\\"', "\\\\",
                                 "\\n", "\\u0041", "\\ud800", "\\udc00", "é", "😀", '"', "\\", "\x80"])


@hyp_settings(300)
@given(st.lists(STRING_PIECES, max_size=24), st.sampled_from(["", " ", "\t ", " \n ", "x", " x", '"', ",", "}"]),
       st.sampled_from(["whitespace", "lines"]), st.booleans())
def test_string_values_as_json_reads_them(pieces, after, fmt, last):
    # the value found is a string of every kind, followed by white space or by something
    # that makes the document broken: values and errors are json's
    if fmt == "lines":
        after = after.replace("\n", " ")
    value = '"' + "".join(pieces) + '"' + after
    doc = '{"n": 1, "s": ' + value + "}" if last else '{"s": ' + value + ', "n": 1}'
    good = '{"s": "ok", "n": 2}'
    data = "\n".join([good, doc, good]).encode("utf-8", "surrogatepass")
    pointers = ["/s", "/n"]
    exp = oracle(data, fmt)
    same(run(data, fields=pointers, format=fmt),
         [e if isinstance(e, Err) else tuple(follow(e, p, None) for p in pointers) for e in exp], doc)
    got = run(data, fields="/s", format=fmt)
    same(got, [e if isinstance(e, Err) else follow(e, "/s", None) for e in exp], doc)
    try:
        json.loads(doc)
    except ValueError:
        return
    # a document json reads: jetjson.get on it alone is another reading
    assert first_difference(got[1], jetjson.get(doc.encode("utf-8", "surrogatepass"), "/s")) is None


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5, 8, 9, 123, 124, 125, 126, 127, 128, 129, 130])
@pytest.mark.parametrize("fmt", ["whitespace", "lines"])
def test_unreached_values_of_every_depth(depth, fmt):
    # the bracket count of a skipped value closes at any entry of its turn, and stops at
    # the depth the walk goes to (deeper documents are read whole): the fields are json's
    rng = random.Random(depth)
    texts = []
    for n in range(12):
        inner = "1"
        for level in range(depth):
            inner = rng.choice(["[%s]", '{"k": %s}', '[0, %s, "]"]', '{"a": [], "b": %s}']) % inner
        texts.append('{"skip": %s, "a": %d, "s": "x%d"%s}' % (inner, n, n, ", \"t\": " + inner if n % 2 else ""))
    data = "\n".join(texts).encode()
    pointers = ["/a", "/s", "/t/k"]
    assert first_difference(run(data, fields=pointers, format=fmt), expected_fields(texts, pointers)) is None


@hyp_settings(200)
@given(st.lists(st.one_of(st.dictionaries(KEYS, VALUES, max_size=4), VALUES), min_size=1, max_size=8),
       st.randoms(use_true_random=False), st.sampled_from([1, 64, 1 << 16]))
def test_objects_among_other_documents(docs, rng, batch_size):
    # a window is indexed one way when it starts with an object and another when not:
    # the documents that follow, of any kind, give json's fields either way
    texts = [json.dumps(d) for d in docs]
    data = "\n".join(texts).encode("utf-8", "surrogatepass")
    pointers = pointers_of(docs, rng) + ["/0"]
    exp = expected_fields(texts, pointers, "D")
    for fmt in ("whitespace", "lines"):
        assert first_difference(run(data, fields=pointers, default="D", format=fmt, batch_size=batch_size),
                                exp) is None
        # windows parsed ahead on a worker choose their index by the same first byte
        got = jetjson.map_many(lambda t: t, data, fields=pointers, default="D", format=fmt, batch_size=batch_size,
                               threads=2)
        assert first_difference(got, exp) is None


@pytest.mark.parametrize("fmt", ["whitespace", "lines"])
def test_documents_across_windows(fmt):
    # documents that cross windows (batch_size's default and a small one), on one line or
    # (whitespace) over many, give json's fields
    rng = random.Random(11)
    texts = events(300, rng)
    big = {"type": "Big", "payload": {"x": ["y" * 50] * 12000}, "created_at": "z", "actor": {"id": 1}}
    for at in (0, 7, 150, 299):
        texts.insert(at, json.dumps(big, indent=None if fmt == "lines" or at % 2 else 1))
    data = ("\n".join(texts) + "\n").encode()
    assert len(data) > 2 * (1 << 20)
    pointers = ["/type", "/created_at", "/actor"]
    exp = expected_fields([json.dumps(json.loads(t)) for t in oracle_docs(data, fmt)], pointers)
    assert first_difference(run(data, fields=pointers, format=fmt), exp) is None
    for threads in (None, 2):
        for batch_size in (1 << 20, 1 << 18):
            got = jetjson.map_many(lambda t: t, data, fields=pointers, format=fmt, threads=threads,
                                   batch_size=batch_size)
            assert first_difference(got, exp) is None


def oracle_docs(data, fmt):
    """The documents' texts as json reads them (whitespace: json's raw_decode in turn)."""
    if fmt == "lines":
        return [ln for ln in data.decode().splitlines() if ln.strip()]
    dec, text, at, out = json.JSONDecoder(), data.decode(), 0, []
    while True:
        while at < len(text) and text[at] in " \t\r\n":
            at += 1
        if at == len(text):
            return out
        doc, end = dec.raw_decode(text, at)
        out.append(text[at:end])
        at = end
