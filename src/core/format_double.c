/* jetjson: shortest round-trip formatting of doubles.
 *
 * The digit search is of the Schubfach kind (R. Giulietti, "The Schubfach way to render
 * doubles"), written here from the published idea:
 *
 * A positive double is v = c * 2^q. Every real in its rounding interval R reads back as
 * v: R runs from halfway to the lower neighbour to halfway to the upper one, closed when
 * c is even (ties go to even). Usually R = [(4c - 2), (4c + 2)] * 2^(q - 2); for c = 2^52
 * above the smallest exponent the lower neighbour is twice as close, and R starts at
 * (4c - 1) * 2^(q - 2).
 *
 * Pick k with 10^k <= width(R) < 10^(k + 1): k = floor(log10(2^q)), or
 * floor(log10(3/4 * 2^q)) for the narrow interval. Then
 *   - R holds at most one multiple of 10^(k + 1). If it holds one, that is the shortest
 *     decimal in R (a shorter one would be a multiple of 10^(k + 1) too).
 *   - Otherwise the answer has the precision 10^k. With s = floor(v / 10^k), one of
 *     s * 10^k and (s + 1) * 10^k lies in R (their distance is 10^k <= width(R), and the
 *     asymmetric case follows from 10^k <= 3/4 * 2^q); when both do, take the closer,
 *     an exact tie going to the even one. When R is symmetric about v, the one in R is
 *     always the closer, so the closer is the answer.
 *
 * Two searches compute this. The exact one (shortest_exact) compares the bounds of R and
 * v itself, each scaled by 4 * 10^-k, with even integers; rounding those products to odd
 * (floor, with the lowest bit set when something was cut off) keeps every comparison
 * exact, so each is one 64 x 128-bit multiplication by an over-approximation g of
 * 10^-k from a table (format_double_table.h: 617 entries, 10 KB), and
 * tools/gen_format_double_table.py proves for every double that the rounded products
 * come out exactly as with infinite precision.
 *
 * The fast one (shortest_fast), used first for every normal double, multiplies only
 * once: 4v / 10^k with 64 bits of fraction (its rounded-to-odd form is the exact
 * search's, so ties are still seen exactly). The bounds are that value -+ 2 * 2^q /
 * 10^k, and 2 * 2^q / 10^k is the table entry's high word shifted, so they cost an
 * addition and a subtraction. They are then off by less than 64 units of 2^-64 (the
 * generator computes the bound for every exponent); unless one of them comes within
 * JJ_FD_FAST_MARGIN (128) units of an integer, it has the true bound's floor and is
 * not an integer itself, and then which integers lie in R no longer depends on the
 * parity of c: the largest multiple of 10 at most the upper bound is the shorter
 * candidate, in R when it is above the lower bound, else v rounded to the nearest
 * integer (ties to even). Exact bounds happen only for 2^50 <= v < 2^80 or so, where
 * 2^q / 10^k has few digits; those, powers of two (the asymmetric interval), zero and
 * subnormals go to the exact search, out of line. tests/c/test_format_double.c checks
 * the two searches against each other on such values and millions of random ones.
 * Integers below 2^53 skip both: their own digits are the answer.
 *
 * Writing: the digits (below 10^17) are padded to exactly 17, so each has a fixed place;
 * the last 16 become ASCII in one pass of SSE2 lanes (two at a time through a table
 * without SSE2), the count of significant digits comes from a byte comparison mask, and
 * the text is stored from registers in whole 16-byte words (hence JJ_DOUBLE_BUF_SIZE):
 * for ddd.ddd the digits are stored once as they are and once with a gap opened (by
 * masks) where the point then goes. Unpredictable choices (16 or 17 digits, which
 * candidate, the exponent's width) are made with arithmetic, not branches. */
#include "format_double.h"
#include "format_double_table.h"

#include <string.h>

#include "decimal_scale.h"

#if defined(__SSE2__) && defined(__x86_64__)
#define JJ_FD_SSE2 1
#include <emmintrin.h>
#endif

#define JJ_FD_MANT_BITS 52
#define JJ_FD_MANT_MASK ((UINT64_C(1) << JJ_FD_MANT_BITS) - 1)
#define JJ_FD_HIDDEN (UINT64_C(1) << JJ_FD_MANT_BITS)

/* ---- 64-bit helpers ------------------------------------------------------------- */


#if defined(__GNUC__) || defined(__clang__)
#define JJ_FD_INLINE inline __attribute__((always_inline))
#define JJ_FD_NOINLINE __attribute__((noinline, cold))
#define JJ_FD_UNLIKELY(x) __builtin_expect(!!(x), 0)
static inline int clz64(uint64_t x) { return __builtin_clzll(x); }
static inline unsigned ctz64(uint64_t x) { return (unsigned)__builtin_ctzll(x); }
#else
#define JJ_FD_INLINE inline
#define JJ_FD_NOINLINE
#define JJ_FD_UNLIKELY(x) (x)
static inline int clz64(uint64_t x) /* x != 0 */
{
    int n = 0;
    for (int step = 32; step; step >>= 1) {
        if (!(x >> (64 - step))) {
            x <<= step;
            n += step;
        }
    }
    return n;
}
static inline unsigned ctz64(uint64_t x) /* x != 0 */
{
    unsigned n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
}
#endif

/* ---- the digit search ------------------------------------------------------------- */

static const uint64_t jj_fd_pow10[18] = {
    UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000), UINT64_C(10000),
    UINT64_C(100000), UINT64_C(1000000), UINT64_C(10000000), UINT64_C(100000000),
    UINT64_C(1000000000), UINT64_C(10000000000), UINT64_C(100000000000),
    UINT64_C(1000000000000), UINT64_C(10000000000000), UINT64_C(100000000000000),
    UINT64_C(1000000000000000), UINT64_C(10000000000000000),
    UINT64_C(100000000000000000),
};
#define JJ_FD_TEN15 UINT64_C(1000000000000000)
#define JJ_FD_TEN16 UINT64_C(10000000000000000)

/* A decimal with exactly 17 digits: v = 0.d1d2...d17 * 10^x, d in [10^16, 10^17). Short
 * results are padded with zeros, so every digit has a fixed place when written. */
typedef struct jj_fd_decimal {
    uint64_t d;
    int x;
} jj_fd_decimal;

/* d (1 <= d < 10^17) * 10^e10 as 17 digits. */
static inline jj_fd_decimal pad17(uint64_t d, int e10)
{
    unsigned bl = 64 - (unsigned)clz64(d);
    unsigned nd = (bl * 1233) >> 12; /* floor(bl * log10(2)): d has nd or nd + 1 digits */
    nd += d >= jj_fd_pow10[nd];
    jj_fd_decimal r = {d * jj_fd_pow10[17 - nd], (int)nd + e10};
    return r;
}

/* r (the chosen digits, below 10^17) * 10^k as 17 digits. */
static JJ_FD_INLINE jj_fd_decimal pad_result(uint64_t r, int k)
{
    /* at least 10^15 except for subnormals: c * 2^q / 10^k >= 2^52 */
    if (r < JJ_FD_TEN15)
        return pad17(r, k);
    /* 16 or 17 digits, unpredictably: scale by 10 through a mask, not a branch */
    int short16 = r < JJ_FD_TEN16;
    uint64_t mask = (uint64_t)0 - (uint64_t)short16;
    jj_fd_decimal out = {r + ((r * 9) & mask), k + 17 - short16};
    return out;
}

/* c = 2^52 above the smallest exponent: the lower neighbour is twice as close as the
 * upper one, R = [4c - 1, 4c + 2] * 2^(q-2) (closed: c is even), k = floor(log10(3/4 *
 * 2^q)). Rare, so kept out of line, with the selection spelled out in full. */
static JJ_FD_NOINLINE jj_fd_decimal shortest_asymmetric(int q)
{
    int k = floor_log10_three_quarters_pow2(q);
    uint64_t g_hi, g_lo;
    int h = q + pow10_approx(-k, &g_hi, &g_lo);
    uint64_t cb = JJ_FD_HIDDEN << 2;
    uint64_t vb = round_to_odd(g_hi, g_lo, cb << h);
    uint64_t vbl = round_to_odd(g_hi, g_lo, (cb - 1) << h);
    uint64_t vbr = round_to_odd(g_hi, g_lo, (cb + 2) << h);
    uint64_t s = vb >> 2, t = s + 1;
    uint64_t sp10 = s / 10 * 10, tp10 = sp10 + 10;
    int u_in = vbl <= sp10 << 2, w_in = tp10 << 2 <= vbr;
    if (u_in != w_in)
        return pad_result(u_in ? sp10 : tp10, k);
    u_in = vbl <= s << 2;
    w_in = t << 2 <= vbr;
    if (u_in != w_in)
        return pad_result(u_in ? s : t, k);
    int64_t cmp = (int64_t)(vb - ((s << 2) + 2));
    return pad_result(cmp < 0 || (cmp == 0 && !(s & 1)) ? s : t, k);
}

/* The exact search for v = c * 2^q > 0 (c < 2^53, v not an integer below 2^53): three
 * products rounded to odd, every comparison exact (the generator's proof). The fast
 * search below falls back to it when its own comparisons could be off. */
static JJ_FD_NOINLINE jj_fd_decimal shortest_exact(uint64_t c, int q)
{
    if (c == JJ_FD_HIDDEN && q > -1074)
        return shortest_asymmetric(q);
    /* R = [4c - 2, 4c + 2] * 2^(q-2), closed when c is even */
    int k = floor_log10_pow2(q);
    uint64_t g_hi, g_lo;
    int h = q + pow10_approx(-k, &g_hi, &g_lo); /* 0..5, so cb << h < 2^60 */
    uint64_t odd = c & 1; /* odd c: the bounds themselves read back as a neighbour */
    uint64_t cb = c << 2;
    uint64_t vb = round_to_odd(g_hi, g_lo, cb << h);
    uint64_t vbl = round_to_odd(g_hi, g_lo, (cb - 2) << h) + odd;
    uint64_t vbr = round_to_odd(g_hi, g_lo, (cb + 2) << h) - odd;

    uint64_t s = vb >> 2; /* floor(v / 10^k) */
    /* one digit fewer: the multiples of 10^(k+1) on either side of v; R holds at most
     * one of them, and if it does, that is the answer */
    uint64_t sp10 = s / 10 * 10;
    int u_in = vbl <= sp10 << 2;
    int w_in = (sp10 + 10) << 2 <= vbr;
    uint64_t r1 = sp10 + 10 * (uint64_t)w_in;
    /* full precision: R is symmetric about v, so when only one of s and s + 1 is in R it
     * is the closer one; take the closer (vb against the midpoint 4s + 2), an exact tie
     * going to the even one: s + 1 when (vb & 3) + (s & 1) >= 3 */
    uint64_t r2 = s + (((vb & 3) + (s & 1) + 1) >> 2);
    /* a mask rather than a branch: the choice is unpredictable */
    uint64_t one = (uint64_t)0 - (uint64_t)(u_in | w_in);
    return pad_result((r1 & one) | (r2 & ~one), k);
}

/* v = c * 2^q > 0 normal (2^52 <= c < 2^53): the shortest decimal in v's rounding
 * interval, the closest to v among those, in *out; returns 0 (and leaves *out alone)
 * when it cannot be sure, for shortest_exact() to decide. */
static JJ_FD_INLINE int shortest_fast(uint64_t c, int q, jj_fd_decimal *out)
{
    /* v an integer below 2^53: its own digits are the shortest (any other decimal with
     * fewer digits is an integer at least 1 away, outside the interval of half-width
     * at most 1/2) */
    if ((unsigned)-q <= ctz64(c)) { /* q <= 0 and c a multiple of 2^-q (so -q <= 52) */
        *out = pad17(c >> -q, 0);
        return 1;
    }
    if (c == JJ_FD_HIDDEN) /* possibly the asymmetric interval */
        return 0;

    /* One product: Y = y_hi + y_lo / 2^64 = floor((4c << h) * g / 2^64) / 2^64, the
     * same product as the exact search's vb, so vb = y_hi | (y_lo != 0) exactly. With
     * beta = 2^q / 10^k, 4v / 10^k = 4c * beta, and Y exceeds it by less than
     * 2^60 * 3 / 2^128 (g - G < 3) but falls short by less than 2^-64 (the floor).
     * The bounds of R / 10^k, times 4, are 4c * beta -+ 2 * beta, with 2 * beta =
     * 2^(h+1) * G / 2^128; W = 2^(h+1) * g_hi / 2^64 falls short of it by less than
     * 2^(h+1) / 2^64 <= 2^-58 (g_lo and the floor) and exceeds it by less than
     * 2^6 * 3 / 2^128. So, in units of 2^-64, U = Y + W is within (-65, +0.2) of the
     * true upper bound and L = Y - W within (-1.1, +65) of the lower one. When U's
     * fraction is at least JJ_FD_FAST_MARGIN (128, the generator's; > 65) and at most
     * 2^64 - 1 - JJ_FD_FAST_MARGIN, the true bound is not an integer and has the
     * floor of U; likewise for L (the generator computes the error bounds for each
     * exponent: below 64). Then a
     * multiple of 4 is in R exactly when it is above floor(L) and at most floor(U),
     * whatever the parity of c (it cannot equal a bound), which is what the exact
     * search's rounded comparisons give too. Otherwise (exact bounds, or one within
     * 2^-57 of an integer: never seen on random doubles) the exact search decides.
     * tools/gen_format_double_table.py checks these error bounds for every exponent. */
    /* k = floor(log10(2^q)) and h from a per-exponent table (the generator's) */
    unsigned entry = jj_fd_q_entry[q + 1075];
    unsigned h = entry & 7; /* 0..5 */
    unsigned idx = entry >> 3;
    int k = -(int)idx - JJ_FD_PMIN;
    uint64_t g_hi = jj_fd_g[idx][0], g_lo = jj_fd_g[idx][1];
    uint64_t x = (c << 2) << h; /* < 2^60 */
    uint64_t lo_lo, lo_hi = jj_mul128(g_lo, x, &lo_lo);
    uint64_t y_lo, y_hi = jj_mul128(g_hi, x, &y_lo);
    (void)lo_lo;
    y_lo += lo_hi;
    y_hi += y_lo < lo_hi;
    uint64_t w_lo, w_hi = jj_mul128(g_hi, (uint64_t)2 << h, &w_lo);
    uint64_t u_lo = y_lo + w_lo;
    uint64_t u_hi = y_hi + w_hi + (u_lo < y_lo);
    uint64_t l_lo = y_lo - w_lo;
    uint64_t l_hi = y_hi - w_hi - (y_lo < w_lo);
    if (JJ_FD_UNLIKELY((uint64_t)(u_lo + JJ_FD_FAST_MARGIN) < 2 * JJ_FD_FAST_MARGIN ||
                       (uint64_t)(l_lo + JJ_FD_FAST_MARGIN) < 2 * JJ_FD_FAST_MARGIN))
        return 0;
    /* the bounds are not integers: floor(U / 4) and floor(L / 4) are those of the
     * true bounds of R / 10^k, and the integers in R / 10^k are those above the one
     * and at most the other. The largest multiple of 10 at most floor(U / 4) is the
     * only candidate with one digit fewer; it is in R when it is above floor(L / 4). */
    uint64_t top = u_hi >> 2;
    uint64_t t10 = top / 10 * 10;
    /* else the closer of s and s + 1, ties to even (vb rounded to odd is exact) */
    uint64_t vb = y_hi | (y_lo != 0);
    uint64_t r2 = (vb + 1 + ((vb >> 2) & 1)) >> 2;
    /* r >= 2^52 - 10 > 10^15 (c >= 2^52, beta >= 1): 16 or 17 digits. Chosen by a mask
     * the compiler cannot turn back into a branch: on coordinates and computed values
     * the choice is a coin toss, and a mispredicted branch cost canada.json's dumpb 6% */
    uint64_t take_t10 = (uint64_t)0 - (uint64_t)(t10 > l_hi >> 2);
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+r"(take_t10));
#endif
    uint64_t r = (t10 & take_t10) | (r2 & ~take_t10);
    unsigned short16 = r < JJ_FD_TEN16;
    out->d = r * (1 + 9 * short16); /* a multiplication, not a branch: unpredictable */
    out->x = k + 17 - (int)short16;
    return 1;
}

static inline jj_fd_decimal shortest(uint64_t c, int q)
{
    jj_fd_decimal r;
    if (c <= JJ_FD_HIDDEN || !shortest_fast(c, q, &r))
        r = shortest_exact(c, q);
    return r;
}

/* Splits a finite double into sign and c * 2^q; returns 0 for +-0. */
static inline int decode(double v, int *neg, uint64_t *c, int *q)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    *neg = (int)(bits >> 63);
    uint64_t m = bits & JJ_FD_MANT_MASK;
    unsigned e = (unsigned)(bits >> JJ_FD_MANT_BITS) & 0x7ff;
    *c = e ? m | JJ_FD_HIDDEN : m;
    *q = e ? (int)e - 1075 : -1074;
    return (bits << 1) != 0;
}

static int digits_of(double v, uint64_t *digits, int *exponent, int exact)
{
    int neg, q;
    uint64_t c;
    if (!decode(v, &neg, &c, &q)) {
        *digits = 0;
        *exponent = 0;
        return neg;
    }
    jj_fd_decimal r = exact && !((unsigned)-q <= ctz64(c)) ? shortest_exact(c, q) : shortest(c, q);
    uint64_t d = r.d;
    int e10 = r.x - 17;
    while (d % 10 == 0) {
        d /= 10;
        e10++;
    }
    *digits = d;
    *exponent = e10;
    return neg;
}

int jj_shortest_digits(double v, uint64_t *digits, int *exponent)
{
    return digits_of(v, digits, exponent, 0);
}

int jj_shortest_digits_exact(double v, uint64_t *digits, int *exponent)
{
    return digits_of(v, digits, exponent, 1);
}

int jj_shortest_digits_fast_decides(double v)
{
    int neg, q;
    uint64_t c;
    jj_fd_decimal r;
    return decode(v, &neg, &c, &q) && c > JJ_FD_HIDDEN && shortest_fast(c, q, &r);
}

/* ---- writing ---------------------------------------------------------------------- */

/* The 100 two-digit strings as values: the first digit in the low byte. */
#ifndef JJ_FD_SSE2
static const uint16_t jj_fd_digit_pairs[100] = {
    0x3030, 0x3130, 0x3230, 0x3330, 0x3430, 0x3530, 0x3630, 0x3730, 0x3830, 0x3930,
    0x3031, 0x3131, 0x3231, 0x3331, 0x3431, 0x3531, 0x3631, 0x3731, 0x3831, 0x3931,
    0x3032, 0x3132, 0x3232, 0x3332, 0x3432, 0x3532, 0x3632, 0x3732, 0x3832, 0x3932,
    0x3033, 0x3133, 0x3233, 0x3333, 0x3433, 0x3533, 0x3633, 0x3733, 0x3833, 0x3933,
    0x3034, 0x3134, 0x3234, 0x3334, 0x3434, 0x3534, 0x3634, 0x3734, 0x3834, 0x3934,
    0x3035, 0x3135, 0x3235, 0x3335, 0x3435, 0x3535, 0x3635, 0x3735, 0x3835, 0x3935,
    0x3036, 0x3136, 0x3236, 0x3336, 0x3436, 0x3536, 0x3636, 0x3736, 0x3836, 0x3936,
    0x3037, 0x3137, 0x3237, 0x3337, 0x3437, 0x3537, 0x3637, 0x3737, 0x3837, 0x3937,
    0x3038, 0x3138, 0x3238, 0x3338, 0x3438, 0x3538, 0x3638, 0x3738, 0x3838, 0x3938,
    0x3039, 0x3139, 0x3239, 0x3339, 0x3439, 0x3539, 0x3639, 0x3739, 0x3839, 0x3939,
};
#endif

/* Sixteen ASCII digits, the first in the lowest byte, from a and b (each below 10^8: a's
 * eight digits, then b's), with what the layouts need: storing all 16 bytes, counting
 * them up to the last non-zero one, and opening a gap for the decimal point. */
#ifdef JJ_FD_SSE2
typedef __m128i jj_fd_digits;

/* A constant the compiler must not see through: without this it spells a 16-bit lane
 * multiplication by 100 as five shifts and additions. */
static inline __m128i lanes16(short k)
{
    __m128i v = _mm_set1_epi16(k);
#if defined(__GNUC__) || defined(__clang__)
    __asm__("" : "+x"(v));
#endif
    return v;
}

/* Both numbers at once, every lane of a step in one instruction: 64-bit lanes split into
 * 4-digit halves (32-bit lanes), those into 2-digit parts (16-bit lanes), those into
 * digits (bytes), the higher part always into the lower lane. Each quotient is a
 * multiplication by a rounded-up reciprocal and a shift: 109951163 / 2^40 for /10^4
 * below 10^8, 5243 / 2^19 for /100 below 10^4, 6554 / 2^16 for /10 below 100, all exact
 * there (checked against plain division for every value below 10^8 in both lanes when
 * this was written; test_format_double sweeps it). The last step forms the two digits
 * of z = 10t + u in one go: (z << 8) - 2559t = t + (u << 8). */
static inline jj_fd_digits sixteen_digits(uint32_t a, uint32_t b)
{
    __m128i v = _mm_set_epi64x((long long)b, (long long)a);
    __m128i q = _mm_srli_epi64(_mm_mul_epu32(v, _mm_set1_epi32(109951163)), 40);
    __m128i r = _mm_sub_epi64(v, _mm_mul_epu32(q, _mm_set1_epi32(10000)));
    __m128i x = _mm_or_si128(q, _mm_slli_epi64(r, 32));
    __m128i h = _mm_srli_epi16(_mm_mulhi_epu16(x, _mm_set1_epi16(5243)), 3);
    __m128i hr = _mm_sub_epi16(x, _mm_mullo_epi16(h, lanes16(100)));
    __m128i z = _mm_or_si128(h, _mm_slli_epi32(hr, 16));
    __m128i t = _mm_mulhi_epu16(z, _mm_set1_epi16(6554));
    __m128i d = _mm_sub_epi16(_mm_slli_epi16(z, 8), _mm_mullo_epi16(t, lanes16(2559)));
    return _mm_add_epi8(d, _mm_set1_epi8('0'));
}

static inline void store16(char *p, jj_fd_digits d)
{
    _mm_storeu_si128((__m128i *)(void *)p, d);
}

/* 1 + the place of the last digit that is not '0' (0 when all are '0') */
static inline unsigned count_to_last_nonzero(jj_fd_digits d)
{
    unsigned nz = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(d, _mm_set1_epi8('0'))) ^ 0xffffu;
    return 31u ^ (unsigned)__builtin_clz(2 * nz + 1); /* 31 - clz, as clz <= 31 */
}

/* The bytes before pos as they are, those after it moved up by one (the last falls
 * off); the byte at pos is left for the caller. */
static inline jj_fd_digits open_gap(jj_fd_digits d, unsigned pos)
{
    static const unsigned char ones_then_zeros[32] = {
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    };
    __m128i before = _mm_loadu_si128((const __m128i *)(const void *)(ones_then_zeros + 16 - pos));
    return _mm_or_si128(_mm_and_si128(before, d), _mm_andnot_si128(before, _mm_slli_si128(d, 1)));
}
#else
typedef struct jj_fd_digits {
    uint64_t lo, hi; /* digits 0..7 and 8..15, the first in the lowest byte */
} jj_fd_digits;

/* u < 10^8 as 8 ASCII digits, the first digit in the lowest byte. The four 2-digit parts
 * come from three independent divisions (by constants, so multiplications), which keeps
 * the dependency chain short, and each becomes text through the table. */
static inline uint64_t eight_digits(uint32_t u)
{
    uint32_t a = u / 1000000, b = u / 10000, c = u / 100;
    return (uint64_t)jj_fd_digit_pairs[a] |
           (uint64_t)jj_fd_digit_pairs[b - 100 * a] << 16 |
           (uint64_t)jj_fd_digit_pairs[c - 100 * b] << 32 |
           (uint64_t)jj_fd_digit_pairs[u - 100 * c] << 48;
}

static inline jj_fd_digits sixteen_digits(uint32_t a, uint32_t b)
{
    jj_fd_digits d = {eight_digits(a), eight_digits(b)};
    return d;
}

/* Stores v with its lowest byte first. */
static inline void store64(char *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (int i = 0; i < 8; i++)
        p[i] = (char)(v >> (8 * i));
#else
    memcpy(p, &v, 8);
#endif
}

static inline void store16(char *p, jj_fd_digits d)
{
    store64(p, d.lo);
    store64(p + 8, d.hi);
}

static inline unsigned count_to_last_nonzero(jj_fd_digits d)
{
    const uint64_t zeros = UINT64_C(0x3030303030303030);
    if (d.hi != zeros)
        return 16 - (unsigned)clz64(d.hi ^ zeros) / 8;
    if (d.lo != zeros)
        return 8 - (unsigned)clz64(d.lo ^ zeros) / 8;
    return 0;
}

/* Bytes 0..7 of w with those from pos (0..8) on moved up by one and `in` as byte 0 of the
 * moved part. */
static inline uint64_t gap64(uint64_t w, unsigned pos, uint64_t in)
{
    uint64_t low = pos < 8 ? (UINT64_C(1) << (8 * pos)) - 1 : ~(uint64_t)0;
    return (w & low) | (((w << 8) | in) & ~low);
}

static inline jj_fd_digits open_gap(jj_fd_digits d, unsigned pos)
{
    jj_fd_digits r;
    r.lo = gap64(d.lo, pos, 0);
    r.hi = gap64(d.hi, pos < 8 ? 0 : pos - 8, d.lo >> 56);
    return r;
}
#endif

enum { STYLE_REPR, STYLE_ORJSON, STYLE_ECMA };

/* The exponent's digits for |x| <= 324: up to three characters, the first in the
 * lowest byte, and their number in the top byte. As few as needed for orjson, at least
 * two for repr. */
#define JJ_FD_E1(u) ((uint32_t)('0' + (u)) | UINT32_C(1) << 24)
#define JJ_FD_E2(u) \
    ((uint32_t)('0' + (u) / 10) | (uint32_t)('0' + (u) % 10) << 8 | UINT32_C(2) << 24)
#define JJ_FD_E3(u)                                                                     \
    ((uint32_t)('0' + (u) / 100) | (uint32_t)('0' + (u) / 10 % 10) << 8 |               \
     (uint32_t)('0' + (u) % 10) << 16 | UINT32_C(3) << 24)
#define JJ_FD_EXP_ORJSON(u) ((u) < 10 ? JJ_FD_E1(u) : (u) < 100 ? JJ_FD_E2(u) : JJ_FD_E3(u))
#define JJ_FD_EXP_REPR(u) ((u) < 100 ? JJ_FD_E2(u) : JJ_FD_E3(u))
#define JJ_FD_R10(F, b)                                                                 \
    F(b), F(b + 1), F(b + 2), F(b + 3), F(b + 4), F(b + 5), F(b + 6), F(b + 7), F(b + 8), \
        F(b + 9)
#define JJ_FD_R100(F, b)                                                                \
    JJ_FD_R10(F, b), JJ_FD_R10(F, b + 10), JJ_FD_R10(F, b + 20), JJ_FD_R10(F, b + 30),   \
        JJ_FD_R10(F, b + 40), JJ_FD_R10(F, b + 50), JJ_FD_R10(F, b + 60),                 \
        JJ_FD_R10(F, b + 70), JJ_FD_R10(F, b + 80), JJ_FD_R10(F, b + 90)
#define JJ_FD_R330(F)                                                                   \
    JJ_FD_R100(F, 0), JJ_FD_R100(F, 100), JJ_FD_R100(F, 200), JJ_FD_R10(F, 300),         \
        JJ_FD_R10(F, 310), JJ_FD_R10(F, 320)

static const uint32_t jj_fd_exp_text[2][330] = {
    {JJ_FD_R330(JJ_FD_EXP_REPR)},
    {JJ_FD_R330(JJ_FD_EXP_ORJSON)},
};

/* Writes "e", the sign and the exponent (|x| <= 324) from the table; stores 6 bytes. */
static inline char *write_exponent(char *p, int x, int style)
{
    unsigned u = (unsigned)(x < 0 ? -x : x);
    uint32_t w = jj_fd_exp_text[style == STYLE_REPR ? 0 : 1][u]; /* ECMAScript's is orjson's */
    p[0] = 'e';
    p[1] = (char)('+' + 2 * (x < 0)); /* '-' is '+' + 2 */
    p[2] = (char)w;
    p[3] = (char)(w >> 8);
    p[4] = (char)(w >> 16);
    p[5] = (char)(w >> 24);
    return p + 2 + (w >> 24);
}

/* d.ddde+X: the n significant digits (the first one apart), the point after the first. */
static inline char *put_scientific(char *p, char first, jj_fd_digits digits, unsigned n, int x, int style)
{
    p[0] = first;
    p[1] = '.';
    store16(p + 2, digits);
    p += n > 1 ? n + 1 : 1;
    return write_exponent(p, x - 1, style);
}

/* 0.000ddd for a decimal exponent -5 <= x <= 0 (the zeros come from one 8-byte copy). */
static inline char *put_below_one(char *p, char first, jj_fd_digits digits, unsigned n, int x)
{
    memcpy(p, "0.000000", 8);
    p[2 - x] = first;
    store16(p + 3 - x, digits);
    return p + 2 - x + n;
}

/* Writes the decimal r (17 digits) at p in the given style; returns the end. */
static JJ_FD_INLINE char *write_decimal(char *p, jj_fd_decimal r, int style)
{
    int x = r.x;

    /* the 17 digits: the first, then 16 in `digits` */
    uint64_t hi = r.d / 100000000; /* 9 digits */
    uint32_t lo = (uint32_t)(r.d - hi * 100000000);
    uint32_t top = (uint32_t)hi / 100000000;
    uint32_t mid = (uint32_t)hi - top * 100000000;
    jj_fd_digits digits = sixteen_digits(mid, lo);
    char first = (char)('0' + top);
    /* significant digits: 17 less the trailing zeros */
    unsigned n = 1 + count_to_last_nonzero(digits);

    if (style == STYLE_ECMA) {
        /* ECMAScript's Number::toString: positional for -5 <= x <= 21, no ".0" */
        if ((unsigned)(x + 5) > 26u) return put_scientific(p, first, digits, n, x, style);
        if (x <= 0) return put_below_one(p, first, digits, n, x);
        if ((unsigned)x >= n) {
            /* an integer: the 17 digits end in zeros, and up to four more follow */
            p[0] = first;
            store16(p + 1, digits);
            memcpy(p + 17, "0000", 4);
            return p + x;
        }
        store16(p + 2, digits);
        store16(p + 1, open_gap(digits, (unsigned)x - 1));
        p[0] = first;
        p[x] = '.';
        return p + n + 1;
    }

    int low_limit = style == STYLE_REPR ? -3 : -4;
    if ((unsigned)(x - low_limit) > (unsigned)(16 - low_limit)) return put_scientific(p, first, digits, n, x, style);
    if (x <= 0) return put_below_one(p, first, digits, n, x);
    /* ddd.ddd or ddd000.0: the point goes in after digit x (1..16); the 17 digits end in
     * zeros, which supply those of an integer. The 17th digit is stored first, from the
     * digits as they are, then the first 16 around a gap for the point. */
    store16(p + 2, digits);
    store16(p + 1, open_gap(digits, (unsigned)x - 1));
    p[0] = first;
    p[x] = '.';
    return p + ((unsigned)x < n ? n + 1 : (unsigned)x + 2);
}

/* What the fast search leaves: +-0, subnormals and the values it hands on (out[0] is
 * already '-'). */
static JJ_FD_NOINLINE size_t format_slow(double v, char *out, int style)
{
    int neg, q;
    uint64_t c;
    int nonzero = decode(v, &neg, &c, &q);
    char *p = out + neg;
    if (!nonzero) {
        memcpy(p, "0.0", 4);
        return (size_t)neg + 3;
    }
    return (size_t)(write_decimal(p, shortest(c, q), style) - out);
}

/* The same for ECMAScript's text (never zero here: the caller writes it), in a copy of
 * its own, so that format_slow's, shared by repr and orjson, stays as it was. */
static JJ_FD_NOINLINE size_t format_slow_ecma(double v, char *out)
{
    int neg, q;
    uint64_t c;
    decode(v, &neg, &c, &q);
    return (size_t)(write_decimal(out + neg, shortest(c, q), STYLE_ECMA) - out);
}

/* Normal doubles are split here, without decode()'s subnormal selects; zero and
 * subnormals go to format_slow(), which decodes them. */
static JJ_FD_INLINE size_t format_finite(double v, char *out, int style)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    unsigned e = (unsigned)(bits >> JJ_FD_MANT_BITS) & 0x7ff;
    uint64_t c = (bits & JJ_FD_MANT_MASK) | JJ_FD_HIDDEN;
    out[0] = '-';
    char *p = out + (bits >> 63);
    jj_fd_decimal r;
    if (JJ_FD_UNLIKELY(e == 0) || !shortest_fast(c, (int)e - 1075, &r))
        return style == STYLE_ECMA ? format_slow_ecma(v, out) : format_slow(v, out, style);
    return (size_t)(write_decimal(p, r, style) - out);
}

size_t jj_format_double_repr(double v, char *out)
{
    return format_finite(v, out, STYLE_REPR);
}

/* orjson's rule, found by comparing its output with Python's repr over the whole range
 * (powers of ten from 1e-323 to 1e308 with 1 to 17 digits, integers around 2^53, random
 * bit patterns): the digits are the same shortest digits. With E the decimal exponent of
 * the first digit, it writes positional notation when -5 <= E <= 15 (one more negative
 * exponent than repr: 0.00001 where repr has 1e-05), always with a fractional part
 * (1.0, 1000000000000000.0); otherwise d.ddd, an 'e', a '+' or '-' and the exponent
 * without leading zeros: 1e-7, 1.5e-6, 1e+16, 1e+100, 1.7976931348623157e+308, 5e-324.
 * A single digit gets no ".0" (1e+16). */
size_t jj_format_double_orjson(double v, char *out)
{
    return format_finite(v, out, STYLE_ORJSON);
}

/* ECMAScript's Number::toString for finite nonzero doubles (jetjson_canonical.h's
 * jj_format_double_ecma adds zero): the same digits, positional from 1e-6 to below 1e21
 * without a ".0" (100, 0.000001), otherwise 1e+21, 1.5e-7. */
size_t jj_format_double_jcs(double v, char *out)
{
    return format_finite(v, out, STYLE_ECMA);
}
