/* jetjson: the pieces of the Eisel-Lemire product path (see number_parse.c) that the
 * inline number parser of stage 2 (number_fast.h) shares with jj_parse_number. */
#ifndef JJ_EISEL_LEMIRE_H
#define JJ_EISEL_LEMIRE_H

#include <stdint.h>
#include <string.h>

/* number_parse.c: T(q) of pow5_table.h as {high, low} words is jj_pow5_by_q[q], for q in
 * the table's range (the row of q = 0, indexed by q). */
extern const uint64_t (*const jj_pow5_by_q)[2];

static inline int jj_el_clz64(uint64_t x) /* x != 0 */
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_clzll(x);
#else
    int n = 0;
    while (!(x >> 63)) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

static inline void jj_el_mul64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__) && !defined(JJ_NO_INT128)
    __extension__ typedef unsigned __int128 jj_u128;
    jj_u128 r = (jj_u128)a * b;
    *hi = (uint64_t)(r >> 64);
    *lo = (uint64_t)r;
#else
    uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
    uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
    *lo = (mid << 32) | (uint32_t)ll;
    *hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
#endif
}

/* floor(log2(5^q)) for |q| <= 400 (tools/gen_pow5_table.py checks the whole table range),
 * without right shifts of negative numbers. */
static inline int jj_el_floor_log2_pow5(int q)
{
    return q >= 0 ? (q * 152170) >> 16 : -(((-q) * 152170 + 65535) >> 16);
}

static inline double jj_el_bits_to_double(uint64_t bits, int neg)
{
    double d;
    bits |= (uint64_t)(neg != 0) << 63;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* Rounds w * 10^q (w != 0) from the first product only, t_high being the high word of
 * T(q): 1 with *bits set (the positive double's pattern) when that product decides it
 * and the result is a normal double, else 0, and the caller goes the general way. No
 * branch on the rounding bit, which is a coin flip on real data. */
static inline int jj_el_first_product(uint64_t w, int q, uint64_t t_high, uint64_t *bits)
{
    int lz = jj_el_clz64(w);
    uint64_t a1, a0, mask, low, rbit, top;
    int be, sh;
    jj_el_mul64(w << lz, t_high, &a1, &a0);
    top = a1 >> 63;
    be = 63 + 1023 + q + jj_el_floor_log2_pow5(q) - lz + (int)top;
    if (be < 1 || be >= 2047)
        return 0;
    sh = 9 + (int)top;
    mask = (UINT64_C(1) << sh) - 1;
    low = a1 & mask;
    rbit = (a1 >> sh) & 1;
    /* undecided: round bit 0 with all ones below it, or round bit 1 with zeros below */
    if ((low == (mask & (rbit - 1))) & ((rbit == 0) | (a0 == 0)))
        return 0;
    *bits = ((uint64_t)(be - 1) << 52) + (a1 >> (sh + 1)) + rbit;
    return 1;
}

#endif
