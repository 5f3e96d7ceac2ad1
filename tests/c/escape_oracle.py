#!/usr/bin/env python3
"""Test vectors for src/core/escape.c, computed by the oracles themselves.

One line per string per style:
    <style> <code points> <expected bytes>
style: a = json.dumps(s), u = json.dumps(s, ensure_ascii=False) encoded with
'surrogatepass', o = orjson.dumps(s). Code points are hex joined by ',' ('-' for the empty
string); expected bytes are hex ('!' when orjson refuses the string).

Usage: escape_oracle.py [--count N] [--seed S] > vectors.txt
"""
import argparse
import json
import random
import sys

import orjson

PLAIN = [c for c in range(0x20, 0x7F) if c not in (0x22, 0x5C)]
SPECIAL = list(range(0x20)) + [0x22, 0x5C, 0x7F, 0x2F]
LATIN1 = list(range(0x80, 0x100))
BMP = [0x100, 0x7FF, 0x800, 0x2028, 0x2029, 0xABCD, 0xD7FF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFF]
SURROGATES = [0xD800, 0xD83D, 0xDBFF, 0xDC00, 0xDE00, 0xDFFF]
ASTRAL = [0x10000, 0x1F600, 0x10FFFF, 0x20000, 0xE0001]

# Alphabets: each a list of (weight, pool) from which code points are drawn.
ALPHABETS = [
    [(1, PLAIN)],
    [(20, PLAIN), (1, SPECIAL)],
    [(3, PLAIN), (1, SPECIAL)],
    [(6, PLAIN), (1, SPECIAL), (1, LATIN1)],
    [(1, LATIN1), (1, PLAIN)],
    [(6, PLAIN), (1, SPECIAL), (1, LATIN1), (1, BMP)],
    [(6, PLAIN), (1, BMP), (1, ASTRAL)],
    [(6, PLAIN), (1, SURROGATES), (1, BMP)],
    [(4, PLAIN), (1, SPECIAL), (1, LATIN1), (1, BMP), (1, SURROGATES), (1, ASTRAL)],
    [(1, SURROGATES)],
    [(1, ASTRAL), (1, SPECIAL)],
]


def draw(rng, alphabet, length):
    weights = [w for w, _ in alphabet]
    pools = [p for _, p in alphabet]
    out = []
    for _ in range(length):
        pool = rng.choices(pools, weights)[0]
        out.append(rng.choice(pool))
    return "".join(map(chr, out))


def fixed_strings():
    # Every code point below 0x180 alone and inside plain text, at every offset of an
    # 8-byte word, plus the edges of each range.
    for c in list(range(0x180)) + BMP + SURROGATES + ASTRAL:
        yield chr(c)
    for c in SPECIAL + [0x80, 0xE9, 0xFF, 0x2028, 0xD800, 0x1F600]:
        for k in range(0, 18):
            yield "a" * k + chr(c) + "b" * (17 - k)
    yield "\ud83d\ude00"  # two lone surrogates that look like a pair
    yield "\ude00\ud83d"
    yield "x" * 1000
    yield "x" * 999 + "\x7f"


def generated(rng, count):
    made = 0
    while made < count:
        for alphabet in ALPHABETS:
            for length in range(0, 41):
                if made >= count:
                    return
                yield draw(rng, alphabet, length)
                made += 1
            if made >= count:
                return
            yield draw(rng, alphabet, rng.choice([64, 100, 257, 1000, 4099]))
            made += 1


def line(style, s, out):
    cps = ",".join("%x" % ord(c) for c in s) or "-"
    return "%s %s %s\n" % (style, cps, out.hex() if out is not None else "!")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=3000, help="number of generated strings")
    ap.add_argument("--seed", type=int, default=20261202)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    w = sys.stdout.write
    for src in (fixed_strings(), generated(rng, args.count)):
        for s in src:
            w(line("a", s, json.dumps(s).encode("ascii")))
            w(line("u", s, json.dumps(s, ensure_ascii=False).encode("utf-8", "surrogatepass")))
            try:
                o = orjson.dumps(s)
            except orjson.JSONEncodeError as e:
                # Only a surrogate makes orjson refuse a str; anything else is a bug here.
                assert "surrogates not allowed" in str(e), e
                assert any(0xD800 <= ord(c) <= 0xDFFF for c in s), s
                o = None
            w(line("o", s, o))


if __name__ == "__main__":
    main()
