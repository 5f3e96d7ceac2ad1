"""The dicts loads builds: on CPython 3.11/3.12 their keys table is written directly
(src/cpython/dict_fill.h), so they must behave in every way like dicts json.loads makes:
lookups by equal (not identical) strs, order, duplicate keys, GC tracking, growth and
deletion afterwards, every index width (tables of 8 to 2^17+ slots)."""

import gc
import json
import random
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

try:
    from conftest import corpus_files, hyp_settings, read_bytes
except ImportError:  # tests/ turned into a package
    from .conftest import corpus_files, hyp_settings, read_bytes


def walk_dicts(value):
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            yield v
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def fresh(s):
    """An equal str that is a different object (not interned, not from a cache)."""
    return "".join(list(s)) if len(s) > 1 else (s + "\x00")[:-1]


def check_dict_behaves(got, want):
    assert list(got.items()) == list(want.items())
    assert len(got) == len(want)
    assert gc.is_tracked(got) == gc.is_tracked(want)
    for key in want:
        assert got[fresh(key)] == want[key] or (got[key] != got[key])  # NaN values
        assert fresh(key) in got
    assert (fresh("no such key \u20ac") in got) is False


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.rsplit("/", 1)[-1])
def test_corpus_dicts_behave_like_json(path):
    data = read_bytes(path)
    got, want = jetjson.loads(data), json.loads(data)
    pairs = list(zip(walk_dicts(got), walk_dicts(want)))
    assert len(pairs) == sum(1 for _ in walk_dicts(want))
    for g, w in pairs:
        check_dict_behaves(g, w)


@pytest.mark.parametrize("size", [0, 1, 5, 6, 10, 11, 85, 86, 170, 171, 1000, 43690, 43691, 100000])
def test_sizes_around_every_table_width(size):
    """5/10/85/170/43690 are the capacities of 8/16/128/256/65536-slot tables: both sides
    of each, and 1- to 4-byte indexes."""
    keys = [f"k{i:x}" if i % 3 else f"key number {i} \u00e9" for i in range(size)]
    text = "{" + ",".join(f'"{k}":{i}' for i, k in enumerate(keys)) + "}"
    got, want = jetjson.loads(text), json.loads(text)
    check_dict_behaves(got, want)
    # grows and shrinks afterwards like any dict
    for i in range(size // 2 + 20):
        got[f"new{i}"] = i
        want[f"new{i}"] = i
    for k in keys[::3]:
        del got[k]
        del want[k]
    assert list(got.items()) == list(want.items())
    got.clear()
    assert got == {}


def test_duplicate_keys_first_key_object_last_value_first_position():
    text = '{"a":1,"b":2,"a":3,"c":{"d":4},"b":[5],"a":{"e":6}}'
    got, want = jetjson.loads(text), json.loads(text)
    assert list(got.items()) == list(want.items())
    assert list(got) == ["a", "b", "c"]
    check_dict_behaves(got, want)
    # a duplicate dropping the only container value keeps the dict tracked, as json does
    text = '{"a":[1],"a":2}'
    assert gc.is_tracked(jetjson.loads(text)) == gc.is_tracked(json.loads(text))


def test_duplicates_of_long_and_non_ascii_keys():
    """Keys outside the key cache are separate objects: duplicates are found by value."""
    long_key = "x" * 200
    text = json.dumps([[long_key, 1], ["\u00e9t\u00e9", 2], [long_key, 3], ["\u00e9t\u00e9", 4],
                       ["\U0001f600", 5], ["\U0001f600", 6]])
    pairs = json.loads(text)
    doc = "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in pairs) + "}"
    check_dict_behaves(jetjson.loads(doc), json.loads(doc))


def test_gc_tracking_matches_json():
    for text in ['{}', '{"a":1}', '{"a":"s","b":null,"c":1.5}', '{"a":[]}', '{"a":{}}',
                 '{"a":{"b":1}}', '[{"a":1},{"b":[2]}]', '{"x":1,"y":{"z":{}}}']:
        got, want = jetjson.loads(text), json.loads(text)
        for g, w in zip(walk_dicts(got), walk_dicts(want)):
            assert gc.is_tracked(g) == gc.is_tracked(w), text


def test_collector_finds_cycles_made_later():
    """A built dict takes part in garbage collection like any other."""
    import weakref

    class Box:
        pass

    d = jetjson.loads('{"a":{"b":[1,2]},"c":3}')
    box = Box()
    d["self"] = d
    d["box"] = box
    ref = weakref.ref(box)
    del d, box
    gc.collect()
    assert ref() is None


def test_no_reference_leaks():
    text = b'{"alpha":1,"beta":[1,2],"alpha":{"x":"y"},"' + b"k" * 100 + b'":2}'
    jetjson.loads(text)
    before = sys.gettotalrefcount() if hasattr(sys, "gettotalrefcount") else None
    for _ in range(1000):
        jetjson.loads(text)
    if before is not None:
        assert abs(sys.gettotalrefcount() - before) < 50
    key = jetjson.loads(text)
    k = next(iter(key))
    count = sys.getrefcount(k)
    for _ in range(100):
        jetjson.loads(text)
    assert sys.getrefcount(k) == count


@hyp_settings(150)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "ab", "\u00e9", "k" * 70, "", "\U0001f600", "a\x00"]),
                          st.one_of(st.integers(-3, 3), st.lists(st.integers(0, 2), max_size=2),
                                    st.dictionaries(st.text(max_size=3), st.integers(0, 1), max_size=2))),
                max_size=40))
def test_generated_pairs_with_repeats(pairs):
    doc = "{" + ",".join(f"{json.dumps(k)}:{json.dumps(v)}" for k, v in pairs) + "}"
    got, want = jetjson.loads(doc), json.loads(doc)
    check_dict_behaves(got, want)


def test_random_key_sets_probe_like_cpython():
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randrange(0, 300)
        keys = ["".join(rng.choice("abcdef\u00e9\u4e2d") for _ in range(rng.randrange(0, 6))) for _ in range(n)]
        doc = "{" + ",".join(f"{json.dumps(k)}:{i}" for i, k in enumerate(keys)) + "}"
        got, want = jetjson.loads(doc), json.loads(doc)
        check_dict_behaves(got, want)
        for k in keys:
            got.pop(k, None)
            want.pop(k, None)
        assert got == want == {}



def _key_families():
    rng = random.Random(7)
    return {
        "field_NNN": [f"field_{i:03d}" for i in range(150)],
        "kN": [f"k{i}" for i in range(150)],
        "col_N": [f"col_{i}" for i in range(150)],
        "attribute_name_N": [f"attribute_name_{i}" for i in range(150)],
        "random_8": sorted({"".join(rng.choice("abcdefghijklmnop") for _ in range(8)) for _ in range(150)}),
        "random_2_to_29": sorted({"".join(rng.choice("abcdefghijklmnopqrstuvwxyz_")
                                          for _ in range(rng.randrange(2, 30))) for _ in range(150)}),
    }


@pytest.mark.parametrize("family", sorted(_key_families()))
def test_keys_of_one_document_all_stay_cached(family):
    """150 short keys in one object: the key cache (4096 slots in sets of four) keeps
    every one of them, so a second loads gives back the very same key objects. With one
    slot per hash, 1 to 5 pairs of each of these families share a slot and evict each
    other at every occurrence (twitter.json's 'hashtags' and 'follow_request_sent' did)."""
    keys = _key_families()[family]
    doc = json.dumps({k: i for i, k in enumerate(keys)}).encode()
    first = jetjson.loads(doc)
    second = jetjson.loads(doc)
    assert first == second == json.loads(doc)
    missed = [k for k, k2 in zip(first, second) if k is not k2]
    assert not missed, f"{len(missed)} keys were not served from the cache: {missed[:5]}"
