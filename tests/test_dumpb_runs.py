"""dumpb's and dumpb_many's list leaf runs and ASCII str copy, against orjson.dumps.

A list's leaves (exact strs, ints, floats, True, False, None) are written in one run;
ASCII strs are copied 32 bytes a step with the last 32 (or 16) bytes copied over the
end, and a str with something to escape is redone in place by the block-mask escaper,
whose last bytes are the last 16 of the text shifted down. Every length from 0 to 300
with each kind of special character at every position, between numbers (so the run
goes on around it), through dumpb and dumpb_many; generated records; and results big
enough to keep their slack (64 KB and more) against orjson, with leak checks.
"""

import gc
import math
import sys
import tracemalloc

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

import jetjson

try:
    from conftest import hyp_settings
except ImportError:  # pragma: no cover
    from .conftest import hyp_settings

from dumpb_util import same

# an escape of each spelling, DEL (not escaped), and a character of each str kind
SPECIALS = ['"', "\\", "\n", "\x00", "\x1f", "\x7f", "\u00e9", "\u20ac", "\U0001f600"]


def _base(n):
    return "".join(chr(0x21 + (i * 7) % 90) for i in range(n)).replace('"', "a").replace("\\", "b")


def _variants(n):
    base = _base(n)
    out = [base]
    for pos in range(n):
        for ch in SPECIALS:
            out.append(base[:pos] + ch + base[pos + 1:])
    if n >= 2:  # quotes at both ends, as in titles, and an escape at each end
        out += ['"' + base[1:-1] + '"', "\n" + base[1:-1] + "\\"]
    return out


def _many_oracle(records, option=None):
    return b"".join(orjson.dumps(r, option=option) + b"\n" for r in records)


@pytest.mark.parametrize("n", range(0, 301))
def test_every_length_and_position_in_runs(n):
    texts = _variants(n)
    # each text between numbers and other leaves: the run goes on around it
    records = [[1, t, 2.5, t, True, None, t, -7] for t in texts]
    exp = _many_oracle(records)
    assert jetjson.dumpb_many(records) == exp
    assert jetjson.dumpb(records) == orjson.dumps(records)
    # one long run of strs, and the strs alone (dumpb's top-level str path)
    assert jetjson.dumpb(texts) == orjson.dumps(texts)
    assert jetjson.dumpb_many(texts) == _many_oracle(texts)
    # as dict values (the dict's table writer) and in a tuple
    assert jetjson.dumpb_many([{"k": t, "n": 1} for t in texts]) == _many_oracle([{"k": t, "n": 1} for t in texts])
    assert jetjson.dumpb(tuple(texts)) == orjson.dumps(tuple(texts))


@pytest.mark.parametrize("n", [16, 31, 32, 33, 64, 65, 100, 300, 512, 513, 1000, 20000])
def test_surrogates_are_refused_as_orjson_does(n):
    base = _base(n)
    for pos in sorted({0, 1, n // 2, n - 1}):
        for sur in ("\ud800", "\udfff", "\ud83d"):
            s = base[:pos] + sur + base[pos + 1:]
            same([1, s, 2])
            same(["a", s])
            same({"k": s})
            with pytest.raises(jetjson.JSONEncodeError) as got:
                jetjson.dumpb_many([[1, "x"], [2, s]])
            with pytest.raises(orjson.JSONEncodeError) as exp:
                orjson.dumps([2, s])
            assert str(got.value) == str(exp.value)


@pytest.mark.parametrize("option", [None, orjson.OPT_INDENT_2, orjson.OPT_STRICT_INTEGER,
                                    orjson.OPT_PASSTHROUGH_SUBCLASS])
def test_leaves_of_every_kind(option):
    class S(str):
        pass

    class I(int):
        pass

    leaves = ["", "a", "x" * 40, "é" * 3, 0, 1, -1, 2**30, 2**53, -2**53 - 1, 2**63, 2**64 - 1, 0.0, -0.0,
              1.5, 1e300, math.inf, -math.inf, math.nan, True, False, None, S("sub"), I(5), [], {}, [1, "a"],
              {"k": [2.5, "b"]}, ()]
    for i in range(len(leaves)):
        row = leaves[i:] + leaves[:i]
        same(row, option=option, default=str)
        same(tuple(row), option=option, default=str)
    with pytest.raises(jetjson.JSONEncodeError):
        jetjson.dumpb([1, "a", 2**64])


def _leaf():
    return (st.none() | st.booleans() | st.integers(-2**64, 2**64) | st.floats()
            | st.text(st.characters(codec="ascii"), max_size=300)
            | st.text(max_size=80))


records = st.lists(st.recursive(_leaf(), lambda inner: st.lists(inner, max_size=6)
                                | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20),
                   max_size=12)


def _outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except (TypeError, ValueError) as e:  # JSONEncodeError of either library
        return ("raised", str(e))


@hyp_settings(300)
@given(records)
def test_generated_records(recs):
    def oracle(rs):
        return b"".join(orjson.dumps(r) + b"\n" for r in rs)

    assert _outcome(jetjson.dumpb_many, recs) == _outcome(oracle, recs)
    assert _outcome(jetjson.dumpb, recs) == _outcome(orjson.dumps, recs)


@hyp_settings(200)
@given(st.lists(st.text(st.characters(codec="ascii"), max_size=300), max_size=30),
       st.lists(st.integers(0, 300), max_size=4))
def test_generated_ascii_with_escapes(texts, cuts):
    # plain ASCII text (escapes included) of any length, a quote spliced at some places
    texts = [t[:c] + '"' + t[c:] for t in texts for c in cuts] + texts
    assert jetjson.dumpb(texts) == orjson.dumps(texts)
    assert jetjson.dumpb_many([[t, 1] for t in texts]) == _many_oracle([[t, 1] for t in texts])


@pytest.mark.parametrize("size", [60_000, 70_000, 300_000])
def test_big_results_in_a_row(size):
    # results around and past the size from which their slack is kept, bigger and
    # smaller than the one before (the first buffer follows the last length)
    rows = [["x" * 90, 12345, "y\"z" * 10] for _ in range(size // 120)]
    for k in (1, 3, 2, 1, 4, 1):
        part = rows * k
        out = jetjson.dumpb_many(part)
        assert out == _many_oracle(part)
        assert len(out) == out.count(b"\n") * len(out.split(b"\n")[0] + b"\n")
        assert hash(out) == hash(bytes(bytearray(out)))
        assert out[-1:] == b"\n" and out + b"!" == bytes(out) + b"!"
        one = jetjson.dumpb(part)
        assert one == orjson.dumps(part)
        assert jetjson.dumpb([1]) == b"[1]"


def test_no_leak_and_inputs_keep_their_refcounts():
    recs = [["abc" * 30, 1, '"q"', 2.5, None, "é"] for _ in range(800)]
    probes = [recs, recs[0], recs[0][0], recs[0][2]]
    before = [sys.getrefcount(p) for p in probes]
    for _ in range(5):
        jetjson.dumpb_many(recs)
    gc.collect()
    tracemalloc.start()
    try:
        snap0 = tracemalloc.take_snapshot()
        for _ in range(200):
            jetjson.dumpb_many(recs)
            jetjson.dumpb(recs)
        gc.collect()
        snap1 = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    growth = sum(s.size_diff for s in snap1.compare_to(snap0, "filename"))
    assert growth < 64 * 1024, growth
    assert [sys.getrefcount(p) for p in probes] == before


@pytest.mark.parametrize("container", [list, tuple, iter])
def test_records_changed_by_default(container):
    # a list of records is walked in place: `default` that empties or extends it is seen
    # as a list iterator would see it (size re-read at every record)
    class Odd:
        pass

    def run(dumper, recs_of):
        recs = [[1, "a"], Odd(), [2, "b"], Odd(), [3]]
        seq = recs_of(recs)

        def default(o):
            if len(recs) > 3:
                del recs[3:]
            else:
                recs.append(["tail"])
            return "odd"

        return dumper(seq, default)

    def oracle(seq, default):
        return b"".join(orjson.dumps(r, default=default) + b"\n" for r in seq)

    assert run(lambda s, d: jetjson.dumpb_many(s, default=d), container) == run(oracle, container)
    recs = [[1, "x" * 40], ("t", 2.5)] * 3
    assert jetjson.dumpb_many(container(recs)) == _many_oracle(recs)
