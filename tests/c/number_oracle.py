#!/usr/bin/env python3
"""Test vectors for jj_parse_number from Python's own float() (the behaviour jetjson must
match), as lines "<json number text> <IEEE-754 bits as 16 hex digits>".

    python3 tests/c/number_oracle.py [--count N] [--seed S] > /tmp/vectors.txt
    /tmp/test_number --vectors /tmp/vectors.txt

Covers random digit strings (1-40 digits, exponents in [-350, 350]), shortest and 17-digit
reprs of random doubles, exact decimal expansions of doubles and of the midpoints between
neighbours (plus a hair above and below, also past 800 digits), and edge cases."""
import argparse
import random
import struct
from decimal import Decimal
from fractions import Fraction


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def exact_decimal(fr):
    """The finite decimal expansion of a dyadic rational, in e-notation."""
    num, den = fr.numerator, fr.denominator
    k = den.bit_length() - 1
    assert den == 1 << k
    # num / 2^k = num * 5^k / 10^k
    digits = str(abs(num) * 5 ** k)
    sign = "-" if num < 0 else ""
    exp = -k
    digits = digits.rstrip("0") or "0"
    exp += len(str(abs(num) * 5 ** k)) - len(digits)
    # d.ddd form, so that appending or dropping digits changes the value only slightly
    return sign + digits[0] + "." + (digits[1:] or "0") + "e" + str(exp + len(digits) - 1)


def neighbours_midpoint(x):
    up = float.fromhex(x.hex())
    nxt = struct.unpack("<d", struct.pack("<Q", bits(up) + 1))[0]
    if nxt == float("inf"):
        return Fraction(x) + Fraction(2) ** 970
    return (Fraction(x) + Fraction(nxt)) / 2


def variants(text):
    mant, exp = text.split("e")
    yield text
    yield mant + "000001e" + exp
    yield mant + "0" * 1000 + "1e" + exp
    yield mant + "0" * 1000 + "e" + exp
    if len(mant) > 3:  # "d.dd...": dropping the last digit goes below
        yield mant[:-1] + "e" + exp
        if mant[-1] != "0":
            yield mant[:-1] + chr(ord(mant[-1]) - 1) + "9" * 900 + "e" + exp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=12345)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    out = []

    def emit(t):
        out.append("%s %016x" % (t, bits(float(t))))

    for t in ["0.0", "-0.0", "1e400", "-1e400", "1e-400", "1e99999999999999999999",
              "0e99999999999", "2.4703282292062327e-324", "2.4703282292062328e-324",
              "4.9406564584124654e-324", "1.7976931348623157e308", "1.7976931348623158e308",
              "1.797693134862315807e308", "2.2250738585072011e-308", "9007199254740993.0",
              "1" + "0" * 400 + ".0", "0." + "0" * 400 + "1", "1" + "0" * 5000 + "e-4999"]:
        emit(t)
    for _ in range(a.count):
        nd = rnd.randint(1, 40)
        d = str(rnd.randint(1, 9)) + "".join(rnd.choice("0123456789") for _ in range(nd - 1))
        e = rnd.randint(-350, 350)
        cut = rnd.randint(1, nd)
        t = (d[:cut] + ("." + d[cut:] if cut < nd else "") + "e" + str(e))
        emit(("-" if rnd.random() < 0.5 else "") + t)
        x = struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(64)))[0]
        if x == x and abs(x) != float("inf"):
            emit(repr(x) if ("e" in repr(x) or "." in repr(x)) else repr(x) + ".0")
            emit("%.17e" % x)
    for _ in range(max(1, a.count // 100)):
        x = struct.unpack("<d", struct.pack("<Q", rnd.getrandbits(63)))[0]
        if x != x or x == float("inf"):
            continue
        for t in variants(exact_decimal(Fraction(x))):
            emit(t)
        for t in variants(exact_decimal(neighbours_midpoint(x))):
            emit(t)
    for e in range(-1074, 1024, 37):
        x = 2.0 ** e
        for t in variants(exact_decimal(neighbours_midpoint(x))):
            emit(t)
    print("\n".join(out))


if __name__ == "__main__":
    main()
