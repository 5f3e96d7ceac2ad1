"""dumpb: nesting limits, a default that mutates what is being walked, references and
leaks on success and on every error path."""

import dataclasses
import enum
import gc
import sys
import tracemalloc

import pytest

import jetjson
import orjson
from dumpb_util import same


def nest_lists(n, leaf=None):
    x = [] if leaf is None else [leaf]
    for _ in range(n - 1):
        x = [x]
    return x


def nest_dicts(n):
    x = {}
    for _ in range(n - 1):
        x = {"a": x}
    return x


@dataclasses.dataclass
class Box:
    v: object


class Plain:
    pass


@pytest.mark.parametrize("n", [1, 2, 253, 254, 255, 256, 257, 1000])
def test_depth_limit(n):
    same(nest_lists(n))
    same(nest_dicts(n))
    same(nest_lists(n), option=orjson.OPT_INDENT_2)
    same(nest_dicts(n), option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)
    box = 1
    for _ in range(n):
        box = Box(box)
    same(box)
    same(nest_lists(n, Plain()), default=lambda o: 1)
    same(nest_lists(n, Plain()), default=lambda o: [1])
    same(nest_lists(n, Plain()), default=lambda o: [o])


def test_cycles():
    a = []
    a.append(a)
    same(a)
    d = {}
    d["d"] = d
    same(d)
    same(d, option=orjson.OPT_SORT_KEYS)


def test_million_deep_never_crashes():
    deep = nest_lists(1_000_000)
    with pytest.raises(jetjson.JSONEncodeError, match="^Recursion limit reached$"):
        jetjson.dumpb(deep)
    deep_d = nest_dicts(1_000_000)
    with pytest.raises(jetjson.JSONEncodeError, match="^Recursion limit reached$"):
        jetjson.dumpb(deep_d)
    # free them iteratively-safe: CPython's trashcan handles it
    del deep, deep_d


# ---- mutation from default: never a crash; the output is what was there when read ----

def test_default_empties_the_list():
    lst = [1, Plain(), 2, 3, [4, 5]]

    def default(o):
        lst.clear()
        return "x"

    out = jetjson.dumpb(lst, default=default)
    assert out == b'[1,"x"]'
    assert jetjson.dumpb(lst) == b"[]"


@pytest.mark.parametrize("lead, text", [([1.5, -0.0, float("nan")], b"1.5,-0.0,null"),
                                         ([1, -20, 300], b"1,-20,300")])
def test_default_empties_the_list_after_leading_numbers(lead, text):
    # leading floats or ints are written without a reference on the list; the first other
    # item must still find it held when default runs
    lst = lead + [Plain(), 2.5, [4.0, 5.0]]

    def default(o):
        lst.clear()
        gc.collect()
        return "x"

    assert jetjson.dumpb(lst, default=default) == b"[" + text + b',"x"]'
    assert sys.getrefcount(lst) == 2


def test_default_grows_the_list():
    lst = [Plain()]
    calls = []

    def default(o):
        calls.append(1)
        if len(lst) < 5:
            lst.append(Plain())
        return len(calls)

    out = jetjson.dumpb(lst, default=default)
    assert out == b"[1,2,3,4,5]"


@pytest.mark.parametrize("option", [0, orjson.OPT_SORT_KEYS, orjson.OPT_NON_STR_KEYS])
def test_default_clears_the_dict(option):
    inner = [Plain(), "tail" * 10]
    d = {"a": inner, "b": Plain(), "c": [1, 2, 3]}

    def default(o):
        d.clear()
        inner.clear()
        gc.collect()
        return "x"

    out = jetjson.dumpb(d, default=default, option=option)
    assert out.startswith(b'{"a":["x"')
    import json
    json.loads(out)  # well formed


def test_default_drops_the_object_it_was_given():
    holder = {"k": [Plain()]}

    def default(o):
        holder.clear()
        return {"still": "here"}

    assert jetjson.dumpb(holder, default=default) == b'{"k":[{"still":"here"}]}'


# ---- references and leaks ----

class Color(enum.Enum):
    A = "a"


SUCCESS_CASES = [
    ({"a": [1, 2.5, "x\u00e9", None, True, (3,)], "b": {"c": "\U0001f600"}}, {}),
    ({"b": 1, "a": 2, 3: Color.A}, {"option": orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS}),
    ([Box([1]), Color.A, Plain()], {"default": lambda o: [str(type(o))]}),
    ([jetjson.Fragment(b"[1]"), jetjson.Fragment("\u00e9")], {}),
    ([2**63, -(2**63)], {"option": orjson.OPT_INDENT_2}),
]

ERROR_CASES = [
    ([1, Plain()], {}),
    ([2**64], {}),
    ([2**53], {"option": orjson.OPT_STRICT_INTEGER}),
    ({1: 2}, {}),
    ({"\ud800": 1}, {}),
    (["ok", "\udfff"], {}),
    ({"a": 1, (1,): 2}, {"option": orjson.OPT_NON_STR_KEYS}),
    ({"b": 1, "\ud800": 2}, {"option": orjson.OPT_SORT_KEYS}),
    ({2**64: 1}, {"option": orjson.OPT_NON_STR_KEYS}),
    (nest_lists(300), {}),
    (Plain(), {"default": lambda o: o}),
    (Plain(), {"default": lambda o: 1 / 0}),
    ([jetjson.Fragment(1)], {}),
    (1, {"option": 1 << 20}),
]


def _reachable(obj):
    seen, out = set(), []
    stack = [obj]
    while stack and len(out) < 200:
        x = stack.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        if not (x is None or type(x) is bool or (type(x) is int and -5 <= x <= 256)):
            out.append(x)  # (the shared small ints and singletons move with everything)
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, Box):
            stack.append(x.v)
    return out


def _run(obj, kw):
    try:
        return jetjson.dumpb(obj, **kw)
    except (TypeError, jetjson.JSONEncodeError):
        return None


@pytest.mark.parametrize("case", SUCCESS_CASES + ERROR_CASES)
def test_refcounts_unchanged(case):
    obj, kw = case
    _run(obj, kw)
    objs = _reachable(obj)
    before = [sys.getrefcount(x) for x in objs]
    for _ in range(3):
        _run(obj, kw)
    after = [sys.getrefcount(x) for x in objs]
    for x, c0, c1 in zip(objs, before, after):
        assert c0 == c1, f"refcount of {x!r:.60} changed {c0} -> {c1}"


@pytest.mark.parametrize("case", SUCCESS_CASES + ERROR_CASES)
def test_no_leak(case):
    obj, kw = case
    for _ in range(20):
        _run(obj, kw)
    gc.collect()
    tracemalloc.start()
    try:
        snap0 = tracemalloc.take_snapshot()
        for _ in range(2000):
            _run(obj, kw)
        gc.collect()
        snap1 = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    grown = sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
    assert grown < 64 * 1024, f"{grown} bytes kept after 2000 calls"


def test_result_refcount():
    out = jetjson.dumpb({"a": 1})
    assert sys.getrefcount(out) == 2


@pytest.mark.parametrize("case", SUCCESS_CASES[:3] + ERROR_CASES[:-2])
def test_cases_match_orjson(case):
    obj, kw = case
    same(obj, **kw)


@pytest.mark.parametrize("option", [0, orjson.OPT_INDENT_2, orjson.OPT_SORT_KEYS])
def test_default_grows_and_shrinks_the_dict(option):
    # the keys table is replaced (resized) under the walk: never a crash, valid JSON
    import json
    d = {f"k{i}": (Plain() if i % 3 == 0 else i) for i in range(20)}
    calls = []

    def default(o):
        calls.append(1)
        for j in range(50):
            d[f"new{len(calls)}_{j}"] = j
        for k in list(d)[:5]:
            del d[k]
        return len(calls)

    out = jetjson.dumpb(d, default=default, option=option)
    json.loads(out)
    assert calls


def test_first_buffer_follows_the_last_result_without_keeping_its_size():
    # dumpb sizes its first buffer from the previous result's length; a small result
    # after a large one must still be shrunk to its own length, and a large one after a
    # small one must grow past the guess
    big = ["x" * 100] * 100_000  # about 10 MB of output
    assert jetjson.dumpb(big) == orjson.dumps(big)
    tracemalloc.start()
    try:
        small = jetjson.dumpb([1, "a"])
        current, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert small == b'[1,"a"]'
    assert current < 4096, current
    assert jetjson.dumpb(big) == orjson.dumps(big)
    bigger = big * 3
    assert jetjson.dumpb([]) == b"[]"
    assert jetjson.dumpb(bigger) == orjson.dumps(bigger)
