"""dumpb's short-string paths against orjson.dumps, exhaustively over lengths.

ASCII strs of up to 16 characters are copied in one shot that reads the 16 bytes before
the end of the text (for short strs, partly the str's own header) and shifts the wanted
ones down; longer ones (values up to 512 characters inline) are copied 16 bytes at a
time and end with the last 16 bytes of the text. Every length around those
edges, with one special character at every position (or none), as a value, as a dict key
(the compact key path and the indented one) and as a sorted key.
"""

import orjson
import pytest

from dumpb_util import same

SPECIALS = ['"', "\\", "\n", "\x00", "\x1f", "\x7f", "\u00e9", "\u20ac", "\U0001f600"]


def _texts(n):
    base = "".join(chr(0x21 + (i * 7) % 90) for i in range(n)).replace('"', "a").replace("\\", "b")
    yield base
    for pos in range(n):
        for ch in SPECIALS:
            yield base[:pos] + ch + base[pos + 1:]


@pytest.mark.parametrize("n", range(0, 49))
def test_every_length_and_position(n):
    for s in _texts(n):
        same(s)
        same([s, s + "x", {s: s}, {"k": s, s: [s]}])
        same({s: 1, "z": s}, option=orjson.OPT_INDENT_2)
        same({s: 1, "a" + s: 2}, option=orjson.OPT_SORT_KEYS)


@pytest.mark.parametrize("n", [63, 64, 65, 100, 255, 511, 512, 513, 600])
def test_long_inline_lengths(n):
    base = next(_texts(n))
    for pos in sorted({0, 1, 15, 16, 17, n // 2, n - 17, n - 16, n - 2, n - 1}):
        for ch in SPECIALS:
            s = base[:pos] + ch + base[pos + 1:]
            same([s, s, "x"])
            same(["", s, {"k": s}])
    same([base] * 3)


def test_fresh_strs_of_every_length():
    # strs made at run time (not interned or shared constants), so their headers differ
    for n in range(0, 40):
        s = "".join(["q"] * n)
        t = "%s" % ("w" * n)
        same({s: t, t + "_": [s, t]})


def _run_items(rng):
    """One item of a list of strs as the run writer sees them: plain ASCII of every
    length class, ones it must hand back (escapes, non-ASCII, over 512 characters, a
    subclass) and things that end a run."""
    n = rng.choice([0, 1, 5, 15, 16, 17, 31, 32, 33, 47, 48, 200, 512, 513, 900])
    text = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 -_/.:") for _ in range(n))
    kind = rng.randrange(10)
    if kind == 0 and n:
        pos = rng.randrange(n)
        return text[:pos] + rng.choice(SPECIALS) + text[pos + 1:]
    if kind == 1:
        return type("S", (str,), {})(text)
    if kind == 2:
        return rng.choice([1, 2.5, None, True, [text], {"k": text}, ()])
    return text


@pytest.mark.parametrize("seed", range(40))
def test_str_runs_in_lists_and_tuples(seed):
    import random

    rng = random.Random(seed)
    items = [_run_items(rng) for _ in range(rng.randrange(1, 60))]
    for obj in (items, tuple(items), [items, tuple(items)], {"a": items}):
        same(obj)
        same(obj, option=orjson.OPT_INDENT_2)
        same(obj, option=orjson.OPT_APPEND_NEWLINE)
        # with a default that sees the subclass only when asked to pass it through
        same(obj, option=orjson.OPT_PASSTHROUGH_SUBCLASS, default=str)


@pytest.mark.parametrize("run", ["Юрий", "ΑΒΓ", "\u0080\u07ff", "שלום"])
@pytest.mark.parametrize("after", ["", " x", "\n", '"', "\u0800", "日本", "\U0001f600", "\ud800",
                                   "\u0080", "\u007f", "ab\u00e9"])
def test_two_byte_runs_in_ucs2_strs(run, after):
    # a run of two-byte characters in a UCS-2 str, then each kind of unit that ends it
    # (or the end of the text); the surrogate is orjson's error
    for s in (run + after, after + run, run * 9 + after + run, "ŋ" + after):
        same(s)
        same({"k": s, "l": [s, s]})
