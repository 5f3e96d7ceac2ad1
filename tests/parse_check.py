"""Deep comparison of jetjson.parse views with what json.loads gives (the oracle).

The oracle is json.loads with ``object_pairs_hook``: every object as its list of
(key, value) pairs in document order, duplicates included, which is what a view shows
(len, iteration, items). A lookup must give the first value of a duplicated key, and
as_dict()/== must give json.loads' own dict (the last value wins).
"""

import json

import jetjson

try:
    from conftest import assert_same_value
except ImportError:  # tests/ turned into a package
    from .conftest import assert_same_value


class Pairs(list):
    """An object as json saw it: its (key, value) pairs in document order."""


def oracle(data):
    if isinstance(data, memoryview):
        data = data.tobytes()
    return json.loads(data, object_pairs_hook=Pairs)


def plain(o):
    """What json.loads itself returns for an oracle tree."""
    if isinstance(o, Pairs):
        return {k: plain(v) for k, v in o}
    if isinstance(o, list):
        return [plain(x) for x in o]
    return o


def has_nan(o):
    """NaN != NaN, so == cannot compare values holding one (json's own results neither)."""
    if isinstance(o, Pairs):
        return any(has_nan(v) for _, v in o)
    if isinstance(o, list):
        return any(has_nan(v) for v in o)
    return isinstance(o, float) and o != o


def same(got, exp):
    """got (a value read from a view) stands for exp (an oracle node), shallowly: a
    container is a view of the right kind equal to json's value, a scalar is typed-equal."""
    if isinstance(exp, Pairs):
        assert type(got) is jetjson.Object, type(got)
        assert has_nan(exp) or got == plain(exp)
    elif isinstance(exp, list):
        assert type(got) is jetjson.Array, type(got)
        assert has_nan(exp) or got == plain(exp)
    else:
        assert_same_value(got, exp)


MISSING = "\x00no such key\x00"
SLICES = [slice(None), slice(None, None, -1), slice(1, -1), slice(None, None, 2),
          slice(-3, None), slice(5, 1, -2), slice(100, None), slice(None, None, 3)]


def check_view(view, exp):
    """Every accessor of view against the oracle node exp, recursively."""
    if isinstance(exp, Pairs):
        check_object(view, exp)
    elif isinstance(exp, list):
        check_array(view, exp)
    else:
        assert_same_value(view, exp)


def check_object(view, exp):
    assert type(view) is jetjson.Object
    keys = [k for k, _ in exp]
    first = {}
    for k, v in exp:
        first.setdefault(k, v)
    assert len(view) == len(exp)
    assert_same_value(list(view), keys)
    ks = view.keys()
    assert len(ks) == len(exp)
    assert_same_value(list(ks), keys)
    vals, items = view.values(), view.items()
    assert len(vals) == len(items) == len(exp)
    got_items = list(items)
    for (k, v), (gk, gv), gv2 in zip(exp, got_items, list(vals)):
        assert_same_value(gk, k)
        same(gv, v)
        same(gv2, v)
    assert len(got_items) == len(exp)
    for k, v in first.items():
        assert k in view and k in ks
        same(view[k], v)
        same(view.get(k), v)
        same(view.get(k, MISSING), v)
    d = plain(exp)
    assert_same_value(view.as_dict(), d)
    if not has_nan(exp):
        assert view == d and not (view != d) and d == view
        assert items == d.items()
    assert ks == d.keys()
    probe = {MISSING, *keys[:2]}
    dk = d.keys()
    assert (ks & probe, probe & ks, ks | probe, ks - probe, probe - ks, ks ^ probe) == \
        (dk & probe, probe & dk, dk | probe, dk - probe, probe - dk, dk ^ probe)
    assert ks.isdisjoint(probe) == dk.isdisjoint(probe)
    assert MISSING not in view and 1 not in view
    assert view.get(MISSING) is None and view.get(MISSING, 7) == 7
    try:
        view[MISSING]
    except KeyError as e:
        assert e.args == (MISSING,)
    else:
        raise AssertionError("missing key found")
    for (_, v), (_, gv) in zip(exp, got_items):
        check_view(gv, v)


def check_array(view, exp):
    assert type(view) is jetjson.Array
    n = len(exp)
    assert len(view) == n
    got = list(view)
    assert len(got) == n
    for g, e in zip(got, exp):
        same(g, e)
    for i in range(n):
        same(view[i], exp[i])
        same(view[i - n], exp[i])
    for sl in SLICES:
        part = view[sl]
        assert type(part) is list and len(part) == len(exp[sl])
        for g, e in zip(part, exp[sl]):
            same(g, e)
    for bad in (n, -n - 1):
        try:
            view[bad]
        except IndexError:
            pass
        else:
            raise AssertionError(f"index {bad} of {n} found")
    lst = plain(exp)
    assert_same_value(view.as_list(), lst)
    if not has_nan(exp):
        assert view == lst and not (view != lst) and lst == view
    assert view != tuple(lst)
    for g, e in zip(got, exp):
        check_view(g, e)


def depth(o):
    """Nesting depth of an oracle tree (iterative: some test files nest very deeply)."""
    deepest, stack = 0, [(o, 1)]
    while stack:
        node, d = stack.pop()
        if isinstance(node, list):  # Pairs too
            deepest = max(deepest, d)
            stack.extend((v[1] if isinstance(node, Pairs) else v, d + 1) for v in node)
    return deepest


def check_deep(view, exp, data):
    """For documents too deep for the recursive check: along the first elements."""
    full = view.as_list() if isinstance(view, jetjson.Array) else view.as_dict()
    assert_same_value(full, json.loads(data.tobytes() if isinstance(data, memoryview) else data))
    while isinstance(exp, list) and exp:
        assert len(view) == len(exp)
        view, exp = (view[exp[0][0]], exp[0][1]) if isinstance(exp, Pairs) else (view[0], exp[0])


def check_parse(data):
    """parse(data) against the oracle; returns the root read."""
    root = jetjson.parse(data)
    exp = oracle(data)
    if depth(exp) > 60:
        check_deep(root, exp, data)
    else:
        check_view(root, exp)
    return root
