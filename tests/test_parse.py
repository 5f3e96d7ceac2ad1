"""jetjson.parse against json.loads: every accessor of the views on the corpus and on
JSONTestSuite, the same exceptions as loads for what json refuses, every input type."""

import os

import pytest

import jetjson

try:
    from conftest import (Raised, assert_same_outcome, capture, corpus_files, data_params,
                          input_forms, json_oracle, read_bytes)
    from parse_check import check_parse, check_view, oracle, plain
except ImportError:  # tests/ turned into a package
    from .conftest import (Raised, assert_same_outcome, capture, corpus_files, data_params,
                           input_forms, json_oracle, read_bytes)
    from .parse_check import check_parse, check_view, oracle, plain

PARSING = "JSONTestSuite/test_parsing"


def check_all_forms(path):
    """parse gives what loads gives: a view checked against json, or json's exception."""
    raw = read_bytes(path)
    expected = json_oracle(raw)
    for label, data in input_forms(raw):
        exp = expected if label != "str" else json_oracle(data)
        if isinstance(exp, Raised):
            got = capture(jetjson.parse, data)
            assert_same_outcome(got, exp, f"{os.path.basename(path)} as {label}", jetjson)
        else:
            check_parse(data)
    return expected


@pytest.mark.parametrize("path", data_params(PARSING, prefixes=["y_"]))
def test_accepted(path):
    assert not isinstance(check_all_forms(path), Raised)


@pytest.mark.parametrize("path", data_params(PARSING, prefixes=["n_"]))
def test_rejected(path):
    check_all_forms(path)


@pytest.mark.parametrize("path", data_params(PARSING, prefixes=["i_"]))
def test_implementation_defined(path):
    check_all_forms(path)


@pytest.mark.parametrize("path", [pytest.param(p, id=os.path.basename(p)) for p in corpus_files()])
def test_corpus(path):
    raw = read_bytes(path)
    root = check_parse(raw)
    assert type(root) in (jetjson.Object, jetjson.Array)
    assert jetjson._jetjson._stats()["fallback_values"] == 0


@pytest.mark.parametrize("path", [pytest.param(p, id=os.path.basename(p)) for p in corpus_files()[:6]])
def test_corpus_parse_file(path):
    exp = json_oracle(read_bytes(path))
    root = jetjson.parse_file(path)
    assert root == exp
    assert jetjson.parse_file(path.encode()) == exp


@pytest.mark.parametrize("text", [
    "1", "-0", "1.5e300", "1e400", "-1e400", "NaN", "Infinity", "-Infinity", "true", "false",
    "null", '"x"', '"\\ud800"', "123456789012345678901234567890", " 7 ", '"' + "é" * 20 + '"',
])
def test_scalar_root_is_the_value(text):
    for _, data in input_forms(text.encode()):
        assert_same_outcome(capture(jetjson.parse, data), json_oracle(data), text, jetjson)


@pytest.mark.parametrize("data", [
    "", " ", "[1,]", '{"a" 1}', "[1] x", "\ufeff[1]", b"\xef\xbb\xbf[1,", "[\x00]", '"\\x"',
    b'["\xff"]', "[" * 10 + "]" * 9, "{\"a\":1,}", "[1e]", "tru",
])
def test_errors_are_loads_errors(data):
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    for label, form in input_forms(raw) + [("orig", data)]:
        exp = json_oracle(form)
        if not isinstance(exp, Raised):  # a UTF-8 BOM is fine in bytes
            check_parse(form)
            continue
        assert_same_outcome(capture(jetjson.parse, form), exp, f"{data!r} as {label}", jetjson)
        assert_same_outcome(capture(jetjson.parse, form), capture(jetjson.loads, form), label, jetjson)


@pytest.mark.parametrize("bad", [None, 1, 1.5, [b"[]"], object()])
def test_wrong_types(bad):
    assert_same_outcome(capture(jetjson.parse, bad), capture(jetjson.loads, bad), repr(bad), jetjson)


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32",
                                      "utf-32-le", "utf-32-be"])
def test_other_encodings(encoding):
    text = '{"a": [1, "é", {"b": "\U0001f600"}], "c": null}'
    raw = text.encode(encoding)
    check_parse(raw)
    assert jetjson.parse(raw) == jetjson.loads(raw)
    bad = '{"a": [1, }'.encode(encoding)
    assert_same_outcome(capture(jetjson.parse, bad), json_oracle(bad), encoding, jetjson)


def test_mutable_inputs_are_copied():
    raw = bytearray(b'{"key": "value", "list": [1, 2, 3]}')
    root = jetjson.parse(raw)
    raw[:] = b" " * len(raw)
    assert root == {"key": "value", "list": [1, 2, 3]}
    mv = memoryview(bytearray(b'["abc", "def"]'))
    arr = jetjson.parse(mv)
    mv[2:5] = b"xyz"
    assert arr == ["abc", "def"]


def test_str_inputs():
    for text in ['{"a": "b"}', '{"é": "ü", "k": ["\u20ac", "\U0001f600"]}', '["\ud800", "x"]']:
        root = jetjson.parse(text)
        jetjson.parse('["' + "z" * 1000 + '\u1234"]')  # reuses the thread's scratch
        assert root == plain(oracle(text))


def test_repr_and_types():
    root = jetjson.parse(b'{"a": [1, 2, 3], "b": {}, "c": [7]}')
    assert repr(root) == "<jetjson.Object 3 keys>"
    assert repr(root["a"]) == "<jetjson.Array 3 items>"
    assert repr(root["b"]) == "<jetjson.Object 0 keys>"
    assert repr(root["c"]) == "<jetjson.Array 1 item>"
    import collections.abc as abc
    assert isinstance(root, abc.Mapping) and not isinstance(root, abc.Sequence)
    assert isinstance(root["a"], abc.Sequence) and not isinstance(root["a"], abc.Mapping)
    assert isinstance(root.keys(), abc.KeysView) and isinstance(root.items(), abc.ItemsView)
    assert isinstance(root.values(), abc.ValuesView)
    with pytest.raises(TypeError):
        hash(root)
    with pytest.raises(TypeError):
        jetjson.Object()
    with pytest.raises(TypeError):
        root["a"]["x"]
    with pytest.raises(TypeError):
        root[[]]
    assert root["a"][True] == 2  # bool is an int index, as for a list


def test_duplicate_keys():
    data = b'{"a": 1, "b": 2, "a": 3}'
    root = jetjson.parse(data)
    assert root["a"] == 1 and root.get("a") == 1  # first value
    assert root.as_dict() == {"a": 3, "b": 2} == jetjson.loads(data)  # last, as json
    assert list(root) == ["a", "b", "a"] and len(root) == 3  # the document's pairs
    assert root == {"a": 3, "b": 2}
    big = "{" + ",".join(f'"k{i % 40}": {i}' for i in range(100)) + "}"
    view = jetjson.parse(big)
    for _ in range(3):  # scans, then the hash table: both give the first value
        for i in range(40):
            assert view[f"k{i}"] == i


def test_surrogate_keys():
    data = '{"\\ud800": 1, "\\ud83d\\ude00": 2, "\\ud83d": 3, "x\udc00": 4}'
    root = jetjson.parse(data)
    exp = json_oracle(data)
    for k, v in exp.items():
        assert root[k] == v and k in root
    assert "\U0001f600" in root and "\ud83d\ude00" not in root


def test_big_containers_use_tables():
    n = 5000
    obj = jetjson.parse("{" + ",".join(f'"key{i}": [{i}]' for i in range(n)) + "}")
    for _ in range(2):
        for i in range(n):
            assert obj[f"key{i}"][0] == i
    arr = jetjson.parse("[" + ",".join(f'{{"v": {i}}}' for i in range(n)) + "]")
    for i in reversed(range(n)):
        assert arr[i]["v"] == i
    assert arr[-1]["v"] == n - 1 and arr[n // 2:n // 2 + 2] == [{"v": n // 2}, {"v": n // 2 + 1}]


def test_big_int_over_the_limit():
    import sys
    if not hasattr(sys, "get_int_max_str_digits"):
        pytest.skip("no int digit limit")
    big = "1" * (sys.get_int_max_str_digits() + 1)
    assert_same_outcome(capture(jetjson.parse, big), json_oracle(big), "root", jetjson)
    arr = jetjson.parse("[1, " + big + "]")
    assert arr[0] == 1
    with pytest.raises(ValueError):
        arr[1]


def test_items_set_operations():
    data = '{"a": 1, "b": "x", "a": 3, "c": null}'
    view, d = jetjson.parse(data).items(), jetjson.loads(data).items()
    for other in ({("a", 3)}, {("a", 1), ("c", None)}, set(), [("b", "x")]):
        assert view & other == d & other and view | other == d | other
        assert view - other == d - other and view ^ other == d ^ other
        assert view.isdisjoint(other) == d.isdisjoint(other)
    assert ("a", 3) in view and ("a", 1) not in view  # as the dict of json.loads


# Strings and numbers are left raw at parse and finished when first read (escaped text
# unescaped then): the order of reads must not matter, nor must raw text that looks like
# the key asked for.
ESCAPED_KEYS = ('{"a\\nb": 1, "a\\\\nb": 2, "\\u0041": 3, "A": 4, "\\"q\\"": 5, "a\\/b": 6, '
                '"plain": "v\\u00e9\\ud83d\\ude00", "n": [0, -0, 1.5, 1e400, -12345678901234567890, '
                '123456789012345678901234567890, 2.5E-3, NaN, -Infinity], "\\u00e9": "\\t"}')


def _built(v):
    return v.as_list() if hasattr(v, "as_list") else v.as_dict() if hasattr(v, "as_dict") else v


def test_escaped_keys_are_compared_unescaped():
    exp = json_oracle(ESCAPED_KEYS)
    pairs = oracle(ESCAPED_KEYS)
    lookups = [k for k, _ in pairs] + ["a\\nb", "a\\\\nb", "\\u0041", '\\"q\\"', "a\\/b", "\\u00e9", "a/b"]
    for order in (lookups, list(reversed(lookups))):
        root = jetjson.parse(ESCAPED_KEYS)
        for key in order:
            first = next((v for k, v in pairs if k == key), KeyError)
            if first is KeyError:
                assert key not in root and root.get(key, "none") == "none", key
                with pytest.raises(KeyError):
                    root[key]
            else:
                assert key in root and repr(_built(root.get(key))) == repr(plain(first)), key
        assert repr(root.as_dict()) == repr(exp)
        assert [k for k in root] == [k for k, _ in pairs]


def test_reads_in_any_order_give_loads_values():
    exp = json_oracle(ESCAPED_KEYS)
    root = jetjson.parse(ESCAPED_KEYS)
    nums = root["n"]
    assert repr(nums[4]) == repr(exp["n"][4]) and repr(nums[7]) == repr(exp["n"][7])
    assert repr(nums.as_list()) == repr(exp["n"])  # NaN != NaN: compared as text
    assert [repr(x) for x in nums] == [repr(x) for x in exp["n"]]
    assert [type(x) for x in nums] == [type(x) for x in exp["n"]]
    assert root["plain"] == exp["plain"] and root["\u00e9"] == "\t"
    assert list(root.items())[:6] == oracle(ESCAPED_KEYS)[:6]  # document order, duplicates kept
    assert root.at_pointer("/a~1b") == 6 and root.at_pointer('/"q"') == 5
    assert root.at_pointer("/A") == 3  # the first of "\u0041" and "A"
    root2 = jetjson.parse(ESCAPED_KEYS)
    assert root2.at_pointer("/a\nb") == 1 and root2.at_pointer("/n/6") == exp["n"][6]


def test_escaped_keys_in_a_table():
    # more keys than a scan-only object, looked up often enough to build its table
    keys = [f"k\\u00{i:02x}\\n{i}" if i % 3 else f"k{i}" for i in range(60)]
    data = "{" + ",".join(f'"{k}": {i}' for i, k in enumerate(keys)) + "}"
    exp = json_oracle(data)
    root = jetjson.parse(data)
    for _ in range(3):
        for k, v in exp.items():
            assert root[k] == v
        assert "k\\u0001\\n1" not in root
