/* jetjson: the arithmetic the shortest-digit formatters (format_double.c for binary64,
 * format_float32.c for binary32) share: decimal exponents of powers of two and the
 * rounded-to-odd scaling by a power of ten from format_double_table.h. */
#ifndef JJ_DECIMAL_SCALE_H
#define JJ_DECIMAL_SCALE_H

#include <stdint.h>

#include "format_double_table.h"
#include "mul128.h"

/* floor((x * mul - sub) / 2^shift) for the ranges the table generator checked; the bias
 * keeps the shifted value non-negative. */
static inline int floor_formula(int x, int mul, int sub, int shift, int bias)
{
    return (int)(((uint32_t)(x * mul - sub) + ((uint32_t)bias << shift)) >> shift) - bias;
}

static inline int floor_log10_pow2(int q)
{
    return floor_formula(q, JJ_FD_LOG10_2_MUL, 0, JJ_FD_LOG10_2_SHIFT, JJ_FD_LOG10_2_BIAS);
}

static inline int floor_log10_three_quarters_pow2(int q)
{
    return floor_formula(q, JJ_FD_LOG10_34_MUL, JJ_FD_LOG10_34_SUB, JJ_FD_LOG10_34_SHIFT,
                         JJ_FD_LOG10_34_BIAS);
}

/* g(P), a 128-bit over-approximation of 10^P * 2^E for the E that makes
 * (cb << h) * g / 2^128 = cb * 2^q * 10^P (see format_double_table.h); returns h - q. */
static inline int pow10_approx(int p, uint64_t *g_hi, uint64_t *g_lo)
{
    unsigned idx = (unsigned)(p - JJ_FD_PMIN);
    *g_hi = jj_fd_g[idx][0];
    *g_lo = jj_fd_g[idx][1];
    return jj_fd_g_shift[idx];
}

/* x * g / 2^128 rounded to odd, where x < 2^60: the integer part, with bit 0 set when the
 * first 64 bits of the fraction are not all zero. */
static inline uint64_t round_to_odd(uint64_t g_hi, uint64_t g_lo, uint64_t x)
{
    uint64_t lo_lo, lo_hi = jj_mul128(g_lo, x, &lo_lo);
    uint64_t hi_lo, hi_hi = jj_mul128(g_hi, x, &hi_lo);
    uint64_t frac = hi_lo + lo_hi;
    hi_hi += frac < lo_hi;
    (void)lo_lo;
    return hi_hi | (frac != 0);
}

#endif
