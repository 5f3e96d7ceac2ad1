"""dumpb: the dict walker's table path (compact layout, str keys): every leaf kind in
place, the keys and values it hands to the general path, holes, split tables, and a
default that changes the dict's table while it is walked. orjson.dumps is the oracle."""

import gc
import json

import orjson
import pytest
from hypothesis import given, strategies as st

import jetjson
from conftest import hyp_settings
from dumpb_util import same


class Plain:
    pass


LEAVES = ["", "short", "x" * 40, "tab\there", 'q"uote', "ключ", "emoji \U0001f600", "a" * 600,
          0, 7, -99, 2**40, -(2**63), 2**64 - 1, 1.5, -0.0, 1e300, 5e-324, float("nan"),
          float("inf"), True, False, None, [], {}, [1, "a"], {"in": {"ner": [1.5]}}, (1, 2)]
KEYS = ["k", "", "a" * 32, "b" * 33, "esc\"ape", "new\nline", "ключ", "x\u00e9", "\U0001f600k",
        "ctrl\x01", "z" * 100]


@pytest.mark.parametrize("option", [0, orjson.OPT_INDENT_2, orjson.OPT_APPEND_NEWLINE])
def test_every_key_before_every_leaf(option):
    for key in KEYS:
        for leaf in LEAVES:
            # the odd key first, in the middle and last, among ordinary pairs
            same({key: leaf, "n": 1, "s": "v"}, option=option)
            same({"n": 1, key: leaf, "s": "v"}, option=option)
            same({"n": 1, "s": "v", key: leaf}, option=option)


@given(st.dictionaries(st.text(max_size=40), st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=60),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
    max_leaves=20), max_size=12))
@hyp_settings(200)
def test_random_dicts(d):
    same(d)
    same({"wrap": [d, d]})


def test_holes_and_split_tables():
    d = {f"k{i}": i for i in range(20)}
    for i in range(0, 20, 3):
        del d[f"k{i}"]  # entries left empty in the table
    same(d)
    d["late"] = "added"
    same(d)

    class Obj:
        def __init__(self, i):
            self.a = i
            self.b = "two"
            self.c = [i]

    objs = [Obj(i) for i in range(3)]
    for o in objs:
        same(vars(o))  # a split table: the general path
    same([vars(o) for o in objs])


def test_non_str_keys_in_a_general_table():
    same({"a": 1, 2: "b"})  # orjson's error, from the general path
    same({"a": 1, 2: "b"}, option=orjson.OPT_NON_STR_KEYS)


def test_str_subclass_values_and_keys():
    class S(str):
        pass

    same({"a": S("sub"), "b": 1})
    same({S("k"): 1})


@pytest.mark.parametrize("change", ["int_key", "clear", "delete", "add", "replace"])
def test_default_changes_the_table(change):
    d = {"a": 1, "b": Plain(), "c": "three", "d": 4.5, "e": [Plain()], "f": None}

    def default(o):
        if change == "int_key":
            d[5] = "five"  # the table takes any key from now on
        elif change == "clear":
            d.clear()
        elif change == "delete":
            d.pop("c", None)
            d.pop("d", None)
        elif change == "add":
            for i in range(40):  # grows the table: a new one
                d[f"new{i}"] = i
        else:
            d["f"] = "replaced"
        gc.collect()
        return "x"

    try:
        out = jetjson.dumpb(d, default=default)
    except TypeError as e:  # the int key: orjson's "Dict key must be str"
        assert change == "int_key" and isinstance(e, jetjson.JSONEncodeError)
        return
    back = json.loads(out)
    assert list(back)[:2] == ["a", "b"] and back["b"] == "x"
    if change == "replace":
        assert back["f"] == "replaced"
    if change == "delete":
        assert "c" not in back and "d" not in back
