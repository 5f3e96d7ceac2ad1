#!/usr/bin/env python3
"""Test vectors for jj_format_double_repr / jj_format_double_orjson from Python itself:
lines "<IEEE-754 bits as 16 hex digits> <repr(x)> <orjson.dumps(x)>", finite x only.

    python3 tests/c/format_double_oracle.py [--random N] [--seed S] > /tmp/fd_vectors.txt
    /tmp/tfd --vectors /tmp/fd_vectors.txt

Covers random 64-bit patterns, every power of two, powers of ten 1e-323..1e308 and their
neighbours, the subnormal and normal boundaries, DBL_MAX, integers (0..10^6 sampled,
around 2^53, 2^63 and 10^15..10^17), simple fractions, random short decimals, and
dyadic values with few significant bits (where the two nearest shortest candidates can be
exactly as far from the value, so the tie rule shows), and values whose rounding interval
has exact decimal bounds or whose candidates tie exactly (where format_double.c's fast
search must defer to its exact one)."""
import argparse
import math
import random
import struct
import sys

import orjson


def bits_of(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def of_bits(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=300000, help="random bit patterns")
    ap.add_argument("--seed", type=int, default=20240601)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    seen = set()
    out = []

    def add(x):
        if not isinstance(x, float):
            x = float(x)
        if not math.isfinite(x):
            return
        for y in (x, -x):
            b = bits_of(y)
            if b in seen:
                continue
            seen.add(b)
            out.append("%016x %s %s" % (b, repr(y), orjson.dumps(y).decode()))

    def add_bits(b):
        add(of_bits(b & ((1 << 64) - 1)))

    def neighbours(x, spread=2):
        b = bits_of(abs(x))
        for d in range(-spread, spread + 1):
            if 0 <= b + d < 0x7FF0000000000000:
                add_bits(b + d)

    # edge values
    for x in (0.0, 5e-324, 1e-323, 2.2250738585072009e-308, 2.2250738585072014e-308,
              2.225073858507201e-308, 1.7976931348623157e308, 0.1, 0.2, 0.3, 0.7,
              1 / 3, 2 / 3, 0.1 + 0.2, 1.0, 2.0, 0.5, 1e16, 1e-5, 1e-4, 1e-7,
              9007199254740993.0, 123456789012345678.0, 1e21, 1e22, 1e23,
              math.pi, math.e, math.tau):
        add(x)
        neighbours(x)
    for b in (1, 2, 3, 0x000FFFFFFFFFFFFF, 0x000FFFFFFFFFFFFE, 0x0010000000000000,
              0x0010000000000001, 0x7FEFFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFE):
        add_bits(b)
    # every power of two, with neighbours
    for e in range(-1074, 1024):
        neighbours(math.ldexp(1.0, e), 1)
    # powers of ten and their neighbours
    for k in range(-323, 309):
        neighbours(float("1e%d" % k), 2)
    # integers
    for i in range(0, 1000001, 7):
        add(i)
    for i in range(0, 1001):
        add(i)
    for base in (2 ** 53, 2 ** 63, 2 ** 64, 10 ** 15, 10 ** 16, 10 ** 17):
        for d in range(-300, 301):
            add(base + d)
        neighbours(float(base), 4)
    for _ in range(20000):
        add(rng.randrange(10 ** 15, 10 ** 17))
    # simple fractions
    for den in range(1, 200):
        for num in range(1, 2 * den):
            add(num / den)
    # random short decimals, 1 to 17 digits, over the whole exponent range
    for _ in range(100000):
        nd = rng.randint(1, 17)
        digits = rng.randrange(10 ** (nd - 1), 10 ** nd)
        exp = rng.randint(-330, 310)
        x = float("%de%d" % (digits, exp))
        add(x)
    # dyadic values with few significant bits, at every exponent
    for _ in range(60000):
        nb = rng.randint(1, 30)
        m = rng.randrange(1 << (nb - 1), 1 << nb) | 1
        e = rng.randint(-1074, 1023 - nb)
        try:
            add(math.ldexp(float(m), e))
        except OverflowError:
            pass
    # where format_double.c's one-product search must hand over to its exact search:
    # bounds of the rounding interval that are exact decimals. For q > 0 the bounds
    # (2c -+ 1) * 2^(q-1) are integers; they are multiples of 10^(k+1) (k =
    # floor(log10(2^q)), the shortest candidate sitting right on the bound, kept or not
    # by the parity of c) when 5^(k+1) divides 2c -+ 1. Both parities of c, both bounds.
    for q in range(1, 80):
        k = len(str(2 ** q)) - 1
        f = 5 ** (k + 1)
        if 2 * f >= 1 << 54:
            break
        for sign in (1, -1):
            for _ in range(24):
                j = rng.randrange((1 << 53) // f, (1 << 54) // f + 1) | 1
                c2 = f * j - sign  # 2c; 2c + sign = f * j
                if c2 % 2 == 0 and (1 << 52) <= c2 // 2 < (1 << 53):
                    x = math.ldexp(float(c2 // 2), q)
                    add(x)
                    neighbours(x, 1)
    # bounds that are exact quarter-units of the search (q = -1, -2: 4 * bound is an
    # integer), and exact ties between two candidates (q = -2 with odd c: v / 10^k is an
    # odd multiple of 1/2), and integers on either side of 2^53 (q = 0, 1)
    for q in (-3, -2, -1, 0, 1):
        for _ in range(3000):
            add(math.ldexp(float(rng.randrange(1 << 52, 1 << 53)), q))
    # random 64-bit patterns
    n = 0
    while n < args.random:
        b = rng.getrandbits(64)
        if (b >> 52) & 0x7FF == 0x7FF:
            continue
        add_bits(b)
        n += 1
    # random values spread evenly over the exponent range (uniform bits favour none)
    for _ in range(50000):
        e = rng.randint(0, 2046)
        add_bits((e << 52) | rng.getrandbits(52))

    sys.stdout.write("\n".join(out))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
