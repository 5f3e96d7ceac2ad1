"""jetjson.loads and jetjson.valid against json.loads at json's nesting limit.

json.loads refuses a document when its scanner runs out of Python's recursion budget,
so the deepest nesting it takes depends on the caller's own stack depth. For several
caller depths (Python recursion, and recursion through C calls, which is what counts
from 3.12), the deepest nesting json takes is found by binary search from that frame,
then jetjson must give json's outcome at that depth and one below and above it: the
same value, or a RecursionError with the same message (which names the container that
hits the limit). The accounting is encoded for CPython 3.11-3.13 (src/cpython/module.c).
"""

import json
import sys

import pytest

import jetjson

pytestmark = pytest.mark.skipif(
    sys.implementation.name != "cpython" or not (3, 11) <= sys.version_info[:2] <= (3, 13),
    reason="json's recursion accounting is encoded for CPython 3.11-3.13",
)


def arrays(d):
    return "[" * d + "]" * d


def objects(d):
    return '{"a":' * d + "1" + "}" * d


def mixed(first):
    """Nesting that alternates arrays and objects, starting with `first`."""

    def make(d):
        opens = ["[" if (i % 2 == 0) == (first == "[") else '{"k":' for i in range(d)]
        closes = ["]" if o == "[" else "}" for o in reversed(opens)]
        inner = "1" if opens and opens[-1] != "[" else ""
        return "".join(opens) + inner + "".join(closes)

    return make


def siblings(first):
    """An array holding two branches of the same depth: the first one in document
    order is the one json refuses."""

    def make(d):
        a = arrays(d - 1) if d > 1 else "0"
        o = objects(d - 1) if d > 1 else "0"
        pair = (a, o) if first == "[" else (o, a)
        return "[" + pair[0] + "," + pair[1] + "]"

    return make


SHAPES = {
    "arrays": arrays,
    "objects": objects,
    "mixed_array_first": mixed("["),
    "mixed_object_first": mixed("{"),
    "siblings_array_first": siblings("["),
    "siblings_object_first": siblings("{"),
    "issue_example": lambda d: '[{"a":' * (d // 2) + "[]" * (d % 2) + "1" * (d % 2 == 0) + "}]" * (d // 2),
}


# The two loads run from helpers of the same shape, so that both are called from the
# same stack depth; each call site only ever calls one function (a site that calls
# both would not be specialized, which changes what 3.12+ counts for jetjson's call).
def by_json(doc):
    try:
        return ("value", json.loads(doc))
    except RecursionError as e:
        return ("RecursionError", str(e))


def by_jetjson(doc):
    try:
        return ("value", jetjson.loads(doc))
    except RecursionError as e:
        return ("RecursionError", str(e))


def valid_by_jetjson(doc):
    return jetjson.valid(doc)


def compare_at_limit(make):
    """Finds the deepest nesting json.loads takes from this stack depth (by_json is
    called from this frame only: on 3.11 every Python frame counts), then compares
    jetjson with json just below, at and above it."""
    for _ in range(3):  # the first runs of a call site take the generic path: both must agree
        by_jetjson("[1]")
        valid_by_jetjson("[1]")
    lo, hi = 0, 1
    while by_json(make(hi))[0] == "value":
        lo, hi = hi, hi * 2
        assert hi < 1 << 20, "json took everything"
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if by_json(make(mid))[0] == "value":
            lo = mid
        else:
            hi = mid
    limit = lo
    assert by_json(make(limit + 1))[0] == "RecursionError"
    seen = []
    for d in (limit - 1, limit, limit + 1):
        if d < 1:
            continue
        for doc in (make(d), make(d).encode()):
            expected = by_json(doc)
            assert by_jetjson(doc) == expected, (d, limit)
            assert valid_by_jetjson(doc) is (expected[0] == "value"), (d, limit)
            seen.append(expected[0])
    assert "value" in seen and "RecursionError" in seen
    return limit


def at_python_depth(n, fn):
    if n:
        return at_python_depth(n - 1, fn)
    return fn()


def at_c_depth(n, fn):
    """n levels of recursion that each pass through a C call (map), which count
    against the budget of every version."""
    if n:
        return list(map(lambda _: at_c_depth(n - 1, fn), [0]))[0]
    return fn()


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("depth", [0, 7, 60, 250])
def test_same_limit_at_python_depth(shape, depth):
    limits = at_python_depth(depth, lambda: compare_at_limit(SHAPES[shape]))
    assert limits > 0


@pytest.mark.parametrize("shape", ["arrays", "objects", "mixed_object_first", "siblings_array_first"])
@pytest.mark.parametrize("depth", [1, 5, 40])
def test_same_limit_at_c_depth(shape, depth):
    base = compare_at_limit(SHAPES[shape])
    deeper = at_c_depth(depth, lambda: compare_at_limit(SHAPES[shape]))
    assert deeper < base  # the C calls took some of the budget


def test_same_limit_under_a_lower_recursion_limit():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(200, old // 4))
    try:
        at_python_depth(20, lambda: compare_at_limit(arrays))
        at_python_depth(20, lambda: compare_at_limit(objects))
    finally:
        sys.setrecursionlimit(old)


def test_issue_examples():
    """The two differences reported in issue 16: the message names the container at
    the limit, and 994 nested arrays load wherever json loads them."""
    for doc in (b'[{"a":' * 600 + b"1" + b"}]" * 600, b"[" * 994 + b"]" * 994):
        by_jetjson(b"1")
        assert by_jetjson(doc) == by_json(doc)


def test_first_run_of_a_call_site():
    """A call site's first runs call loads through the interpreter's generic path (no
    specialization yet), which counts the call on every version unless jetjson
    says otherwise: each document here goes through a new call site."""

    def fresh_site():
        ns = {"jetjson": jetjson}
        exec(
            "def site(doc):\n"
            "    try:\n"
            "        return ('value', jetjson.loads(doc))\n"
            "    except RecursionError as e:\n"
            "        return ('RecursionError', str(e))\n",
            ns,
        )
        return ns["site"]

    def check():
        lo = 1
        while by_json(arrays(lo * 2))[0] == "value":
            lo *= 2
        hi = lo * 2
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if by_json(arrays(mid))[0] == "value" else (lo, mid)
        for d in (lo - 1, lo, lo + 1):
            for make in (arrays, objects, mixed("{")):
                assert fresh_site()(make(d)) == by_json(make(d)), (d, lo)

    check()
    at_python_depth(30, check)


SCRIPT = """
import json, sys
sys.path[:0] = {path!r}
import jetjson
lo, n, growing = 0, 1, True  # json's limit, by json.loads run at module level too
while growing or n - lo > 1:
    probe = n if growing else (lo + n) // 2
    try:
        json.loads("[" * probe + "]" * probe)
        lo, n = probe, (n * 2 if growing else n)
    except RecursionError:
        n, growing = probe, False
ok = "[" * (n - 1) + "]" * (n - 1)
too_deep = "[" * n + "]" * n
assert jetjson.loads(ok) == json.loads(ok)
try:
    jetjson.loads(too_deep)
except RecursionError as e:
    assert "JSON array" in str(e), e
else:
    raise AssertionError("no RecursionError at %d" % n)
print(n - 1)
"""


def test_module_level_one_shot():
    """What a new user tries first: a script that calls loads once, at module level,
    at the deepest nesting json takes there and one deeper."""
    import subprocess

    out = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(path=[p for p in sys.path if p])],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) > 0


def test_called_from_c():
    """map(jetjson.loads, ...): exact on 3.11; from 3.12 json.loads called from C
    costs two levels more than jetjson.loads (see src/cpython/module.c), so jetjson
    takes everything json takes there."""

    def via_map(fn, doc):
        try:
            return ("value", list(map(fn, [doc]))[0])
        except RecursionError as e:
            return ("RecursionError", str(e))

    lo = 1
    while via_map(json.loads, arrays(lo * 2))[0] == "value":
        lo *= 2
    hi = lo * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if via_map(json.loads, arrays(mid))[0] == "value" else (lo, mid)
    for d in (lo - 1, lo, lo + 1):
        expected = via_map(json.loads, arrays(d))
        got = via_map(jetjson.loads, arrays(d))
        if sys.version_info < (3, 12):
            assert got == expected, (d, lo)
        elif expected[0] == "value":
            assert got == expected, (d, lo)
