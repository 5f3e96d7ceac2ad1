#!/usr/bin/env python3
"""Generates src/core/format_double_table.h and proves the arithmetic of format_double.c.

The shortest-digits search of format_double.c (Schubfach class) needs, for a double
v = c * 2^q, the three numbers  x = cb * 2^q * 10^P  (P = -k, cb in {4c - 2 or 4c - 1,
4c, 4c + 2}) rounded to odd: their floor, with the lowest bit forced to 1 when they are
not integers. It gets each from one 64 x 128-bit product X * g / 2^128, X = cb * 2^h,
where g is a 128-bit over-approximation of some G = 10^P * 2^E in [2^126, 2^128) and
h = q + 128 - E.

g is defined by a rebuild, without any shift, from a few bases (one every CHUNK powers
of ten) and the powers of five; the header stores every rebuilt g (and its h - q), so the
C code just loads it:

    B(P0) = ceil(10^P0 * 2^(127 - F(P0))) + 2  stored, below 2^128; F(P) = floor(log2(10^P))
    L(j)  = 5^j * 2^(63 - floor(log2(5^j)))    stored, in [2^63, 2^64), exact (j < CHUNK)
    g(P0 + j) = floor(B(P0) * L(j) / 2^64),    G = 10^P0 * 2^(127 - F(P0)) * L(j) / 2^64
    h = q + (2 + F(P0)) + (j + floor(log2(5^j)))  (stored as one number per P)
The + 2 makes B * L / 2^64 exceed G by at least 1 (L >= 2^63), so its floor is still
above G, and g - G < 3.

This script simulates that reconstruction exactly and then proves, for every binary
exponent q and every significand c, that the computed floor and "is it an integer" bit
equal the exact ones. With x the exact value and x' = X * g / 2^128 the computed one,
x' = x + eps with 0 <= eps <= X * (g - G) / 2^128, and format_double.c looks at the
integer part of x' and at the first 64 bits of its fraction. That is exact when
    (a) eps < 2^-64                            (an integer x keeps a zero fraction),
    (b) frac(x) >= 2^-64 whenever x is not an integer (a fraction stays visible),
    (c) frac(x) + eps < 1                      (no carry into the integer part).
(b) and (c) are decided over all significands at once with a Euclid-like minimum of
(a*c + b) mod m over a range of c (min_affine_mod, checked against brute force here).
Where (b) fails, every significand concerned is listed (small_residues) and its
computed result compared with the exact one: a lost fraction does no harm when the floor
is odd, because rounding to odd then gives the floor either way.

It also checks the integer formulas that format_double.c uses for floor(log10(2^q)) and
floor(log10(3/4 * 2^q)), and writes them into the header. Everything uses Python's exact
integers and fractions.

Usage: python3 tools/gen_format_double_table.py [output path]
"""
import os
import random
import sys
from fractions import Fraction

QMIN = -1074  # binary exponent of the subnormals (and of the smallest normals)
QMAX = 971    # binary exponent of DBL_MAX
CMIN = 1 << 52
CMAX = (1 << 53) - 1
CHUNK = 16    # a power of two: the index splits with a shift and a mask (5^j < 2^64 up to 27)
MASK64 = (1 << 64) - 1


# ---- exact reference functions ------------------------------------------------------

def floor_log10(fr):
    """floor(log10(fr)) for a positive Fraction, exactly."""
    k = len(str(fr.numerator)) - len(str(fr.denominator))
    while Fraction(10) ** k > fr:
        k -= 1
    while Fraction(10) ** (k + 1) <= fr:
        k += 1
    return k


def floor_log2_pow10(p):
    """F(p) = floor(log2(10^p)), exactly."""
    if p >= 0:
        return (10 ** p).bit_length() - 1
    # 10^|p| is not a power of two, so floor(-log2(N)) = -ceil(log2(N)) = -bitlen(N-1)
    return -((10 ** -p - 1).bit_length())


def k_sym(q):
    return floor_log10(Fraction(2) ** q)


def k_asym(q):
    return floor_log10(Fraction(3, 4) * Fraction(2) ** q)


def big_g(p):
    """10^p * 2^(127 - F(p)) as an exact Fraction in [2^127, 2^128)."""
    g = Fraction(10) ** p * Fraction(2) ** (127 - floor_log2_pow10(p))
    assert (1 << 127) <= g < (1 << 128), p
    return g


def ceil_fr(fr):
    return -((-fr.numerator) // fr.denominator)


# ---- integer formulas used in C ------------------------------------------------------

def find_formula(ref, lo, hi, real, offset_real=0.0, bias=None):
    """Smallest shift S with M = round(real * 2^S), O = round(offset_real * 2^S) (+-2)
    such that floor((x * M - O) / 2^S) == ref(x) for every x in [lo, hi], evaluated in C
    as (int)((uint32_t)(x * M - O + BIAS * 2^S) >> S) - BIAS with no 32-bit overflow."""
    for s in range(8, 26):
        m0 = round(real * (1 << s))
        o0 = round(offset_real * (1 << s))
        for m in (m0, m0 - 1, m0 + 1):
            for o in range(o0 - 2, o0 + 3):
                if offset_real == 0.0 and o != 0:
                    continue
                ok = True
                for x in range(lo, hi + 1):
                    if (x * m - o) >> s != ref(x):
                        ok = False
                        break
                if not ok:
                    continue
                # bias so that the C expression stays in [0, 2^32) as unsigned and every
                # intermediate fits in int32 before the cast
                b = bias if bias is not None else (abs(lo) * m + abs(o)) // (1 << s) + 1
                vals = [x * m - o for x in range(lo, hi + 1)]
                if min(vals) + b * (1 << s) < 0 or max(vals) + b * (1 << s) >= 1 << 31:
                    continue
                if max(abs(v) for v in vals) >= 1 << 31:
                    continue
                return s, m, o, b
    raise SystemExit("no formula found")


# ---- min of an affine sequence modulo m ---------------------------------------------

def min_affine_mod(n, m, a, b):
    """min over 0 <= x < n of (a*x + b) mod m, for n >= 1. Every step at least halves the
    modulus, and every value it looks at is one of the original residues."""
    a %= m
    b %= m
    best = None
    while True:
        if a == 0:
            return b if best is None else min(best, b)
        if 2 * a <= m:
            # rising by a: the smallest residues come right after each wrap past m;
            # after wrap t the first one is (b - t*m) mod a, for t = 1..T
            t = (a * (n - 1) + b) // m
            best = b if best is None else min(best, b)
            if t == 0:
                return best
            n, m, a, b = t, a, (-m) % a, (b - m) % a
        else:
            # falling by d = m - a: the smallest residues end each run; run j ends at
            # x = floor((b + j*m) / d) with (b + j*m) mod d, and the last x ends a run too
            d = m - a
            last = (b - d * (n - 1)) % m
            best = last if best is None else min(best, last)
            if d * n - b - 1 < 0:
                return best
            j = (d * n - b - 1) // m + 1
            n, m, a, b = j, d, m % d, b % d


def self_test_min_affine_mod():
    rng = random.Random(12345)
    for _ in range(20000):
        m = rng.randint(1, 200)
        n = rng.randint(1, 300)
        a = rng.randrange(m)
        b = rng.randrange(m)
        want = min((a * x + b) % m for x in range(n))
        assert min_affine_mod(n, m, a, b) == want, (n, m, a, b)


def small_residues(lo, hi, m, a, b, limit):
    """Every c in [lo, hi] with 1 <= (a*(c - lo) + b) mod m < limit, by splitting the
    range wherever its minimum non-zero residue is below the limit."""
    found = []
    stack = [(lo, hi)]
    while stack:
        l, h = stack.pop()
        if l > h:
            continue
        r = min_affine_mod(h - l + 1, m, a, (a * (l - lo) + b - 1) % m) + 1
        if r >= limit:
            continue
        if h - l < 64:
            found += [c for c in range(l, h + 1) if 1 <= (a * (c - lo) + b) % m < limit]
            continue
        mid = (l + h) // 2
        stack += [(l, mid), (mid + 1, h)]
    return sorted(found)


# ---- the run-time reconstruction of g, simulated ------------------------------------

def floor_log2_pow5(j):
    return (5 ** j).bit_length() - 1


def build_tables(pmin, pmax):
    nbases = (pmax - pmin) // CHUNK + 1
    bases = []
    for i in range(nbases):
        p0 = pmin + CHUNK * i
        b = ceil_fr(big_g(p0)) + 2
        assert (1 << 127) <= b < (1 << 128), p0
        bases.append((p0, b, 2 + floor_log2_pow10(p0)))
    pow5 = []
    for j in range(CHUNK):
        fl = floor_log2_pow5(j)
        lj = (5 ** j) << (63 - fl)
        assert (1 << 63) <= lj < (1 << 64)
        pow5.append((lj, j + fl))
    return bases, pow5


def runtime_g(p, pmin, bases, pow5):
    """What format_double.c computes for P = p: (g, the exact G it approximates, the
    exponent part of h, i.e. h - q)."""
    i, j = divmod(p - pmin, CHUNK)
    p0, b, shift_b = bases[i]
    lj, shift_j = pow5[j]
    g = (b * lj) >> 64
    gexact = big_g(p0) * lj / Fraction(1 << 64)
    assert (1 << 126) <= gexact < (1 << 128), p
    assert gexact < g < gexact + 3 and g < 1 << 128, p
    hq = shift_b + shift_j
    # the scale: X * G / 2^128 = cb * 2^q * 10^p for X = cb * 2^(q + hq)
    assert gexact * Fraction(2) ** (hq - 128) == Fraction(10) ** p, p
    return g, gexact, hq


def rop_runtime(x_int, g):
    r = (x_int * g) >> 64        # the 64 x 128 product without its lowest word
    hi, lo = r >> 64, r & MASK64
    return hi | (1 if lo else 0)


def rop_exact(cb, q, p):
    x = cb * Fraction(2) ** q * Fraction(10) ** p
    fl = x.numerator // x.denominator
    return fl | (0 if x.denominator == 1 else 1)


# ---- the proof ---------------------------------------------------------------------

def check_symmetric(q, p, h, g, gexact, clo, chi, exceptions):
    """(a), (b), (c) for cb = 4c + o, o in {-2, 0, 2}, every c in [clo, chi]."""
    xmax = (4 * chi + 2) << h
    assert xmax < 1 << 64, q
    err = g - gexact                                      # 0 < err < 3
    assert xmax * err < Fraction(1 << 64), q              # (a)
    beta = Fraction(2) ** q * Fraction(10) ** p           # x = cb * beta
    num, den = beta.numerator, beta.denominator
    n = chi - clo + 1
    worst_low = None
    for o in (-2, 0, 2):
        a = (4 * num) % den
        b = ((4 * clo + o) * num) % den
        # smallest non-zero residue: shift by one so that 0 becomes den - 1
        rmin = min_affine_mod(n, den, a, (b - 1) % den) + 1
        if rmin * (1 << 64) < den:
            # (b) fails for some c: the fraction is lost. That is harmless when the floor
            # is odd, since rounding to odd then gives the floor whatever the fraction.
            # List every such c and check the computed result against the exact one.
            for c in small_residues(clo, chi, den, a, b, -(-den // (1 << 64))):
                cb = 4 * c + o
                assert rop_runtime(cb << h, g) == rop_exact(cb, q, p), (q, o, c)
                exceptions.append((q, o, c))
        rmax = den - 1 - min_affine_mod(n, den, (den - a) % den, (den - 1 - b) % den)
        assert Fraction(den - rmax, den) > xmax * err / Fraction(1 << 128), (q, o)  # (c)
        low = Fraction(rmin, den)
        worst_low = low if worst_low is None else min(worst_low, low)
    return worst_low


def fast_search_errors(q, h, g, gexact):
    """The one-product search of format_double.c for normal v = c * 2^q (2^52 <= c < 2^53),
    in units of 2^-64 of the quarter-units it works in (everything times 4 / 10^k):
        Y = floor(X * g / 2^64),  X = 4c << h     (true: X * G / 2^64)
        W = g_hi << (h + 1)                        (true: 2^(h+1) * G / 2^64)
        U = Y + W,  L = Y - W                      (true: the bounds of R)
    Returns exact bounds (lo, hi) with lo < computed - true < hi for U and for L, over
    every c of the exponent: Y loses less than 1 to the floor and gains at most
    Xmax * (g - G) / 2^64; W is off by exactly dW, one number per exponent."""
    xmax = (4 * CMAX) << h
    assert xmax < 1 << 60, q
    err = g - gexact                                   # 0 < err < 3
    y_hi_err = xmax * err / Fraction(1 << 64)          # computed Y - true Y <= this
    y_lo_err = Fraction(-1)                            # computed Y - true Y > this
    g_hi = g >> 64
    dw = Fraction(g_hi << (h + 1)) - Fraction(1 << (h + 1)) * gexact / Fraction(1 << 64)
    u = (y_lo_err + dw, y_hi_err + dw)
    l = (y_lo_err - dw, y_hi_err - dw)
    return u, l


def prove_fast(pmin, bases, pow5):
    """The fast search falls back to the exact one when the 64-bit fraction f of its U or
    L has (f + M) mod 2^64 < 2M, i.e. f in [2^64 - M, 2^64) or [0, M). Otherwise f is in
    [M, 2^64 - 1 - M], and with lo < computed - true < hi the true fraction lies in
    (M - hi, 2^64 - 1 - M - lo): strictly between two integers (so the true bound is not
    an integer and its floor is the computed one) when hi <= M and lo >= -(M + 1). Returns
    the smallest such M over all exponents of normal doubles (q = -1074 holds the smallest
    normals too)."""
    need = Fraction(0)
    for q in range(QMIN, QMAX + 1):
        p = -k_sym(q)
        g, gexact, hq = runtime_g(p, pmin, bases, pow5)
        h = q + hq
        u, l = fast_search_errors(q, h, g, gexact)
        for lo, hi in (u, l):
            need = max(need, hi, -lo - 1)
    m = 1
    while m < need:
        m *= 2
    return need, m


def prove(pmin, bases, pow5, rng, exceptions):
    worst = None
    hs = set()
    for q in range(QMIN, QMAX + 1):
        # symmetric interval: every c of this exponent (a superset where c = 2^52 is
        # asymmetric); q = QMIN also holds the subnormals, c in [1, 2^52)
        p = -k_sym(q)
        g, gexact, hq = runtime_g(p, pmin, bases, pow5)
        h = q + hq
        hs.add(h)
        clo = 1 if q == QMIN else CMIN
        low = check_symmetric(q, p, h, g, gexact, clo, CMAX, exceptions)
        worst = low if worst is None else min(worst, low)
        # spot checks of the simulated computation against the exact one
        for c in [clo, clo + 1, CMAX - 1, CMAX] + [rng.randint(clo, CMAX) for _ in range(3)]:
            for cb in (4 * c - 2, 4 * c, 4 * c + 2):
                assert rop_runtime(cb << h, g) == rop_exact(cb, q, p), (q, c, cb)
        # asymmetric interval: c = 2^52 above the smallest exponent, checked directly
        if q > QMIN:
            pa = -k_asym(q)
            ga, _, hqa = runtime_g(pa, pmin, bases, pow5)
            ha = q + hqa
            hs.add(ha)
            for cb in (4 * CMIN - 1, 4 * CMIN, 4 * CMIN + 2):
                assert (cb << ha) < 1 << 64
                assert rop_runtime(cb << ha, ga) == rop_exact(cb, q, pa), (q, cb)
    assert min(hs) >= 0 and max(hs) <= 5, hs
    return worst


def describe(exceptions):
    if not exceptions:
        return "none"
    return ", ".join("q=%d cb=4c%+d c=%d" % e for e in exceptions)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        root, "src", "core", "format_double_table.h")
    sys.setrecursionlimit(10000)
    self_test_min_affine_mod()

    ks = [k_sym(q) for q in range(QMIN, QMAX + 1)]
    kas = [k_asym(q) for q in range(QMIN + 1, QMAX + 1)]
    pmin = -max(ks + kas)
    pmax = -min(ks + kas)
    ps = sorted(set(-k for k in ks + kas))

    # integer formulas (log10(2) = 0.30103.., log10(4/3) = 0.12494.., log2(10) = 3.3219..)
    import math
    k_form = find_formula(k_sym, QMIN, QMAX, math.log10(2))
    ka_form = find_formula(k_asym, QMIN + 1, QMAX, math.log10(2), math.log10(4 / 3))

    bases, pow5 = build_tables(pmin, pmax)
    for p in ps:
        runtime_g(p, pmin, bases, pow5)
    assert (pmax - pmin) // CHUNK < len(bases)
    exceptions = []
    worst = prove(pmin, bases, pow5, random.Random(7), exceptions)
    fast_need, fast_margin = prove_fast(pmin, bases, pow5)
    # with room to spare: any margin from fast_need up is exact, and a larger one only
    # sends more values (about 2M / 2^64 of random ones) to the exact search
    fast_margin *= 2

    # the header stores every g and h - q ready to use (617 entries, 10 KB): the same
    # numbers the reconstruction gives, so the proof above covers them
    full = [runtime_g(p, pmin, bases, pow5) for p in range(pmin, pmax + 1)]
    lines = [
        "/* Generated by tools/gen_format_double_table.py: do not edit. */",
        "/* Powers of ten for format_double.c. With F(P) = floor(log2(10^P)), for P in",
        " * [JJ_FD_PMIN, JJ_FD_PMAX], P = P0 + j with P0 = JJ_FD_PMIN + %d * i, 0 <= j < %d:" % (CHUNK, CHUNK),
        " *   B(P0) = ceil(10^P0 * 2^(127 - F(P0))) + 2,  L(j) = 5^j * 2^(63 - floor(log2(5^j)))",
        " *   jj_fd_g[P - JJ_FD_PMIN]       = floor(B(P0) * L(j) / 2^64), {high, low}",
        " *   jj_fd_g_shift[P - JJ_FD_PMIN] = 2 + F(P0) + j + floor(log2(5^j))",
        " * g over-approximates (by less than 3) a number G = 10^P * 2^E in [2^126, 2^128),",
        " * and for v = c * 2^q",
        " *   (cb << h) * G / 2^128 = cb * 2^q * 10^P  with  h = q + g_shift.",
        " * The generator proves that, with these numbers, every double's rounded-to-odd",
        " * products come out exact. Smallest fraction of a non-integer product over all",
        " * doubles: 2^%.2f; the code sees fractions down to 2^-64. Products below that (each"
        % math.log2(worst),
        " * with an odd floor, so rounding to odd is exact anyway): %s." % describe(exceptions),
        " * Integer formulas, checked on every q in [%d, %d]:" % (QMIN, QMAX),
        " *   floor(log10(2^q))       = floor(q * LOG10_2_MUL / 2^LOG10_2_SHIFT)",
        " *   floor(log10(3/4 * 2^q)) = floor((q * LOG10_34_MUL - LOG10_34_SUB) / 2^LOG10_34_SHIFT)",
        " * each evaluated as ((uint32_t)(q * MUL - SUB) + (BIAS << SHIFT)) >> SHIFT) - BIAS,",
        " * which stays in [0, 2^31) and so needs no shift of a negative number.",
        " * The one-product search: its bounds U = Y + W and L = Y - W (see",
        " * format_double.c) are off the true ones by less than %.2f units of 2^-64 for every"
        % float(fast_need),
        " * exponent (exact bounds, computed here), so any margin from that up is safe;",
        " * JJ_FD_FAST_MARGIN, twice the next power of two, leaves room. */",
        "#ifndef JJ_FORMAT_DOUBLE_TABLE_H",
        "#define JJ_FORMAT_DOUBLE_TABLE_H",
        "",
        "#include <stdint.h>",
        "",
        "#define JJ_FD_PMIN (%d)" % pmin,
        "#define JJ_FD_PMAX %d" % pmax,
        "",
        "#define JJ_FD_LOG10_2_SHIFT %d" % k_form[0],
        "#define JJ_FD_LOG10_2_MUL %d" % k_form[1],
        "#define JJ_FD_LOG10_2_BIAS %d" % k_form[3],
        "#define JJ_FD_LOG10_34_SHIFT %d" % ka_form[0],
        "#define JJ_FD_LOG10_34_MUL %d" % ka_form[1],
        "#define JJ_FD_LOG10_34_SUB %d" % ka_form[2],
        "#define JJ_FD_LOG10_34_BIAS %d" % ka_form[3],
        "",
        "#define JJ_FD_FAST_MARGIN %d" % fast_margin,
        "",
        "static const uint64_t jj_fd_g[%d][2] = {" % len(full),
    ]
    for p, (g, _, _) in zip(range(pmin, pmax + 1), full):
        lines.append("    {0x%016xu, 0x%016xu}, /* 10^%d */" % (g >> 64, g & MASK64, p))
    lines += ["};", "", "static const int16_t jj_fd_g_shift[%d] = {" % len(full)]
    row = ["%d," % hq for _, _, hq in full]
    for i in range(0, len(row), 12):
        lines.append("    " + " ".join(row[i:i + 12]))
    # for the fast search: per biased exponent e = q + 1075 of a normal double, the table
    # index of 10^-k (k = floor(log10(2^q))) and h = q + jj_fd_g_shift, as index * 8 + h
    qent = [0] * 2048
    for e in range(1, 2047):
        q = e - 1075
        idx = -k_sym(q) - pmin
        h = q + full[idx][2]
        assert 0 <= idx < len(full) and 0 <= h <= 5 and idx * 8 + h < 1 << 16
        qent[e] = idx * 8 + h
    lines += ["};", "",
              "/* Per biased exponent e of a normal double (q = e - 1075): the index P - JJ_FD_PMIN",
              " * of P = -floor(log10(2^q)) times 8, plus h = q + jj_fd_g_shift[that index]. */",
              "static const uint16_t jj_fd_q_entry[2048] = {"]
    row = ["%d," % v for v in qent]
    for i in range(0, len(row), 12):
        lines.append("    " + " ".join(row[i:i + 12]))
    lines += ["};", "", "#endif", ""]
    with open(out, "w", encoding="ascii", newline="\n") as fh:
        fh.write("\n".join(lines))
    print("wrote %s: P in [%d, %d], %d entries; smallest fraction 2^%.2f; exceptions: %s;"
          " fast search error < %.3f, margin %d"
          % (out, pmin, pmax, len(full), math.log2(worst), describe(exceptions),
             float(fast_need), fast_margin))


if __name__ == "__main__":
    main()
