"""Object/Array.at_pointer (RFC 6901) against a plain-Python walk of json's result."""

import os
import re

import pytest

import jetjson

try:
    from conftest import corpus_files, hyp_settings, read_bytes
    from parse_check import Pairs, oracle, same
except ImportError:  # tests/ turned into a package
    from .conftest import corpus_files, hyp_settings, read_bytes
    from .parse_check import Pairs, oracle, same

from hypothesis import given
from hypothesis import strategies as hs

INDEX = re.compile(r"0|[1-9][0-9]*")


def resolve(node, ptr):
    """The oracle: the node at ptr, or the exception type at_pointer must raise."""
    if ptr == "":
        return node
    if not ptr.startswith("/") or re.search(r"~(?![01])", ptr):
        return ValueError
    for raw in ptr[1:].split("/"):
        tok = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Pairs):
            for k, v in node:
                if k == tok:
                    node = v
                    break
            else:
                return KeyError
        elif isinstance(node, list):
            if not INDEX.fullmatch(tok):
                return IndexError
            if int(tok) >= len(node):
                return IndexError
            node = node[int(tok)]
        else:
            return TypeError
    return node


def escape(key):
    return key.replace("~", "~0").replace("/", "~1")


def paths(node, prefix="", limit=3000):
    """Pointers to every node (breadth first, up to limit)."""
    out, queue = [], [(node, prefix)]
    while queue and len(out) < limit:
        node, p = queue.pop(0)
        out.append(p)
        if isinstance(node, Pairs):
            queue.extend((v, f"{p}/{escape(k)}") for k, v in node)
        elif isinstance(node, list):
            queue.extend((v, f"{p}/{i}") for i, v in enumerate(node))
    return out


def check_pointer(view, exp, ptr):
    want = resolve(exp, ptr)
    if isinstance(want, type) and issubclass(want, Exception):
        with pytest.raises(want) as info:
            view.at_pointer(ptr)
        assert repr(ptr) in str(info.value), (ptr, str(info.value))
    else:
        same(view.at_pointer(ptr), want)


@pytest.mark.parametrize("path", [pytest.param(p, id=os.path.basename(p)) for p in corpus_files()])
def test_corpus_paths(path):
    raw = read_bytes(path)
    root, exp = jetjson.parse(raw), oracle(raw)
    for ptr in paths(exp):
        check_pointer(root, exp, ptr)
        for bad in (ptr + "/nope", ptr + "/0", ptr + "/-", ptr + "/01", ptr + "/~2"):
            check_pointer(root, exp, bad)


DOC = b'''{"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\\\j": 5,
 "k\\"l": 6, " ": 7, "m~n": 8, "~1": 9, "x": {"": {"y": [10, [11, {"": 12}]]}}, "foo": "dup",
 "\\u00e9": 13, "\\ud800": 14}'''


@pytest.mark.parametrize("ptr", [
    "", "/foo", "/foo/0", "/foo/1", "/", "/a~1b", "/c%d", "/e^f", "/g|h", "/i\\j", '/k"l', "/ ",
    "/m~0n", "/~01", "/~1", "/x//y/1/1/", "/x//y/0", "/\u00e9", "/\ud800",
    "/foo/2", "/foo/-", "/foo/01", "/foo/-1", "/foo/+1", "/foo/1e0", "/foo/ 1",
    "/foo/99999999999999999999999", "/missing", "/foo/0/x", "/x//y/0/0", "//",
    "foo", "#/foo", "/~", "/~2", "/a~", "/~1~",
])
def test_rfc6901(ptr):
    root, exp = jetjson.parse(DOC), oracle(DOC)
    check_pointer(root, exp, ptr)


def test_relative_to_a_view():
    root = jetjson.parse(DOC)
    x = root["x"]
    assert x.at_pointer("//y/1/0") == 11
    assert x.at_pointer("") == x and root["foo"].at_pointer("/1") == "baz"
    assert root["foo"].at_pointer("") == ["bar", "baz"]
    with pytest.raises(TypeError):
        root.at_pointer(b"/foo")
    with pytest.raises(KeyError, match="nope"):
        x.at_pointer("/nope")


def test_errors_name_the_pointer():
    root = jetjson.parse(DOC)
    cases = {"/foo/7": IndexError, "/foo/x": IndexError, "/none": KeyError,
             "/foo/0/z": TypeError, "/~3": ValueError, "a": ValueError}
    for ptr, exc in cases.items():
        with pytest.raises(exc) as info:
            root.at_pointer(ptr)
        assert repr(ptr) in str(info.value)


keys = hs.sampled_from(["", "a", "b", "~", "/", "~1", "é", "0", "01", "-"])
json_trees = hs.recursive(
    hs.none() | hs.integers(-5, 5) | hs.text(max_size=3),
    lambda kids: hs.lists(kids, max_size=4) | hs.dictionaries(keys, kids, max_size=4),
    max_leaves=20)
tokens = hs.lists(hs.sampled_from(["", "a", "b", "~0", "~1", "é", "0", "1", "01", "-", "3", "~", "~2"]),
                  max_size=4)


@hyp_settings(300)
@given(json_trees, tokens)
def test_hypothesis_pointers(tree, toks):
    import json
    text = json.dumps(tree)
    root = jetjson.parse(text)
    if not isinstance(root, (jetjson.Object, jetjson.Array)):
        return
    check_pointer(root, oracle(text), "".join("/" + t for t in toks))
