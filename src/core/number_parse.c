/* jetjson: JSON number parsing (jj_parse_number).
 *
 * Grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, never reading at or past end.
 *
 * Integers become int64 / uint64 when they fit, else BIGINT (the caller keeps the text).
 * Everything else becomes the correctly rounded (ties to even) double, in three tiers:
 *
 *   1. Exact fast path: a mantissa of at most 2^53 (at most 15 digits on the hot path)
 *      times or divided by an exactly representable power of ten (|q| <= 22) is one
 *      correctly rounded IEEE operation.
 *   2. Product path (Eisel-Lemire): the first 19 significant digits w, normalised to
 *      [2^63, 2^64), times a 128-bit truncation T of 5^q (pow5_table.h). The exact value
 *      w * 5^q lies in a known interval above the computed product; when no rounding
 *      boundary (midpoint between two doubles) falls inside that interval the rounding is
 *      decided. With more than 19 digits the same is done for w and w + 1, which bracket
 *      the true value; equal results decide.
 *   3. Exact path: the (up to 800) significant digits as a big integer D, compared
 *      exactly with the midpoint just above the candidate given by tier 2, using
 *      D * 5^q * 2^q versus (2 m + 1) * 2^e with both sides scaled to integers. Dropped
 *      digits beyond 800 only matter on an exact tie, where they break it upwards.
 *
 * No allocation, no global mutable state, no locale. */
#include "jetjson.h"
#include "number_fast.h"
#include "eisel_lemire.h"
#include "pow5_table.h"

#include <float.h>
#include <string.h>

const uint64_t (*const jj_pow5_by_q)[2] = jj_pow5_table - JJ_POW5_QMIN;

#define JJ_EXP_SATURATE UINT64_C(100000000000000000) /* 1e17: |exponent| stays < 2^63 */
#define JJ_SLOW_DIGITS 800    /* significant digits kept by the exact path */
#define JJ_BIG_LIMBS 112      /* 3584 bits: the exact path needs at most ~2720 */
#define JJ_MANT_MASK ((UINT64_C(1) << 52) - 1)
#define JJ_INF_BITS (UINT64_C(0x7ff) << 52)

/* ---- small helpers ------------------------------------------------------------- */

static inline int is_digit(uint8_t c) { return (uint8_t)(c - '0') < 10; }

static inline uint64_t load_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

/* Value of 8 digit values (bytes 0..9, the first byte the most significant digit):
 * combine neighbours into 2-digit, then 4-, then 8-digit lanes. */
static inline uint64_t eight_value_of(uint64_t v)
{
    v = (v * 10 + (v >> 8)) & UINT64_C(0x00ff00ff00ff00ff);
    v = (v * 100 + (v >> 16)) & UINT64_C(0x0000ffff0000ffff);
    return (v * 10000 + (v >> 32)) & UINT64_C(0xffffffff);
}

/* Value of 8 digit bytes. */
static inline uint64_t eight_value(uint64_t v)
{
    return eight_value_of(v - UINT64_C(0x3030303030303030));
}

#if defined(__GNUC__) || defined(__clang__)
#define JJ_NOINLINE __attribute__((noinline))
#define JJ_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define JJ_NOINLINE
#define JJ_LIKELY(x) (x)
#endif

/* ---- tier 2: the 64 x 128-bit product ---------------------------------------------
 * With w normalised to [2^63, 2^64) and T(q) in [2^127, 2^128), the exact product
 * X = w * 5^q * 2^-s(q) lies in [P, P + w) where P = w * T(q) (a 192-bit integer), and
 * X = P when T(q) is exact (0 <= q <= 55). The value is X * 2^(q + s(q) - lz).
 *
 * "hi" below is the top 64-bit word of P. The double's rounding bit sits at bit `sh` of
 * hi; bits below it decide between rounding down, up, or a tie. Because positive double
 * bit patterns are ordered like their values, the result is bits_down or bits_down + 1,
 * which also carries correctly into the next binade, into the subnormal/normal border
 * and into infinity. */

enum { EL_DOWN = 0, EL_UP = 1, EL_UNSURE = 2 };
enum { GRID_OK, GRID_INF, GRID_TINY };

/* be0 is the biased exponent the value has when bit 62 of hi is its top bit. */
static inline int el_grid(uint64_t hi, int be0, int *sh_out, uint64_t *bits_down)
{
    int top = (int)(hi >> 63);
    int be = be0 + top;
    int sh = 9 + top;
    if (be >= 2047) {
        *bits_down = JJ_INF_BITS;
        return GRID_INF;
    }
    if (be < 1)
        sh += 1 - be; /* subnormal: fewer mantissa bits, same absolute grid */
    *sh_out = sh;
    if (sh >= 64) {
        *bits_down = 0;
        return GRID_TINY;
    }
    *bits_down = (be >= 1 ? (uint64_t)(be - 1) << 52 : 0) + ((hi >> sh) >> 1);
    return GRID_OK;
}

/* Rounds w * 10^q (w != 0, JJ_POW5_QMIN <= q <= JJ_POW5_QMAX). Stores the rounded-down
 * bit pattern in *bits_down (also when unsure: the correct result is then bits_down or
 * bits_down + 1) and returns EL_DOWN, EL_UP or EL_UNSURE. */
static int el_round(uint64_t w, int q, uint64_t *bits_down)
{
    const uint64_t *t = jj_pow5_table[q - JJ_POW5_QMIN];
    int lz = jj_el_clz64(w);
    uint64_t wn = w << lz;
    uint64_t a1, a0, b1, b0, mask, low;
    int be0 = 63 + 1023 + q + jj_el_floor_log2_pow5(q) - lz;
    int sh = 0, g;

    jj_el_mul64(wn, t[0], &a1, &a0);
    g = el_grid(a1, be0, &sh, bits_down);
    if (g == GRID_INF)
        return EL_DOWN;
    /* With only w * T_hi known, X lies in [(a1:a0), (a1:a0) + 2^64 + 1) in units of 2^64:
     * in units of 2^128 it is below a1 + 2. */
    if (g == GRID_TINY)
        return (sh > 64 || a1 < UINT64_MAX - 1) ? EL_DOWN : EL_UNSURE;
    mask = (UINT64_C(1) << sh) - 1;
    low = a1 & mask;
    if (!((a1 >> sh) & 1)) {
        if (low != mask) /* (a1:a0) + 2^64 + 1 still stays below the midpoint */
            return EL_DOWN;
    } else if ((low | a0) != 0) { /* already strictly above the midpoint */
        return EL_UP;
    }

    /* Undecided: add w * T_lo for the full 192-bit P = (p2:p1:p0). */
    jj_el_mul64(wn, t[1], &b1, &b0);
    {
        uint64_t p1 = a0 + b1;
        uint64_t p2 = a1 + (p1 < b1);
        uint64_t p0 = b0;
        int exact = q >= 0 && q <= JJ_POW5_EXACT_MAX;
        g = el_grid(p2, be0, &sh, bits_down);
        if (g == GRID_INF)
            return EL_DOWN;
        if (g == GRID_TINY)
            return (sh > 64 || p2 < UINT64_MAX - 1) ? EL_DOWN : EL_UNSURE;
        mask = (UINT64_C(1) << sh) - 1;
        low = p2 & mask;
        if (!((p2 >> sh) & 1)) {
            /* A midpoint lies in [P, P + w) only if every bit below the rounding bit is 1
             * and p0 + w carries out. */
            if (exact || low != mask || p1 != UINT64_MAX || wn <= ~p0)
                return EL_DOWN;
            return EL_UNSURE;
        }
        if ((low | p1 | p0) != 0 || !exact)
            return EL_UP; /* above the midpoint (X > P when T is inexact) */
        return (*bits_down & 1) ? EL_UP : EL_DOWN; /* exact tie: to even */
    }
}

/* For number_fast.h and jetjson_number.h: w * 10^q (w != 0 exact, q in the table's range) when the first
 * product decides it. */
int jj_decimal_to_double_fast(uint64_t w, int q, int neg, double *out)
{
    uint64_t bits;
    if (q < JJ_POW5_QMIN || q > JJ_POW5_QMAX ||
        !jj_el_first_product(w, q, jj_pow5_table[q - JJ_POW5_QMIN][0], &bits))
        return 0;
    *out = jj_el_bits_to_double(bits, neg);
    return 1;
}

/* ---- tier 3: exact comparison with big integers ---------------------------------- */

typedef struct jj_big {
    unsigned n; /* limbs in use, least significant first; d[n - 1] != 0 (n = 0 for 0) */
    uint32_t d[JJ_BIG_LIMBS];
} jj_big;

static void big_mul_add(jj_big *b, uint32_t m, uint32_t add)
{
    uint64_t carry = add;
    unsigned i;
    for (i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->d[i] * m + carry;
        b->d[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry && b->n < JJ_BIG_LIMBS) /* the bounds above keep us far from the limit */
        b->d[b->n++] = (uint32_t)carry;
}

static void big_mul_pow5(jj_big *b, unsigned e)
{
    static const uint32_t pow5[14] = {1u, 5u, 25u, 125u, 625u, 3125u, 15625u, 78125u,
                                      390625u, 1953125u, 9765625u, 48828125u,
                                      244140625u, 1220703125u};
    while (e >= 13) {
        big_mul_add(b, pow5[13], 0);
        e -= 13;
    }
    if (e)
        big_mul_add(b, pow5[e], 0);
}

static void big_shl(jj_big *b, unsigned bits)
{
    unsigned limbs = bits / 32, r = bits % 32, i;
    if (b->n == 0)
        return;
    if (r) {
        uint32_t carry = 0;
        for (i = 0; i < b->n; i++) {
            uint32_t v = b->d[i];
            b->d[i] = (v << r) | carry;
            carry = v >> (32 - r);
        }
        if (carry && b->n < JJ_BIG_LIMBS)
            b->d[b->n++] = carry;
    }
    if (limbs > JJ_BIG_LIMBS - b->n) /* unreachable by the size bounds; stay in bounds */
        limbs = JJ_BIG_LIMBS - b->n;
    if (limbs) {
        for (i = b->n; i-- > 0;)
            b->d[i + limbs] = b->d[i];
        memset(b->d, 0, limbs * sizeof b->d[0]);
        b->n += limbs;
    }
}

static int big_cmp(const jj_big *a, const jj_big *b)
{
    unsigned i;
    if (a->n != b->n)
        return a->n > b->n ? 1 : -1;
    for (i = a->n; i-- > 0;)
        if (a->d[i] != b->d[i])
            return a->d[i] > b->d[i] ? 1 : -1;
    return 0;
}

/* The digits run over [dig, dend), possibly with one '.' inside; the value is
 * digits * 10^q10. bits_down is a candidate with the true result bits_down or
 * bits_down + 1. */
static uint64_t slow_round(const uint8_t *dig, const uint8_t *dend, int64_t q10,
                           uint64_t bits_down)
{
    uint8_t buf[JJ_SLOW_DIGITS];
    size_t kept = 0, dropped = 0, i;
    int sticky = 0, q, e2;
    jj_big a, b;
    uint64_t be = bits_down >> 52, sig, mid;

    for (; dig < dend; dig++) {
        uint8_t c = *dig;
        if (c == '.' || (c == '0' && kept == 0))
            continue;
        if (kept < JJ_SLOW_DIGITS) {
            buf[kept++] = (uint8_t)(c - '0');
        } else {
            dropped++;
            sticky |= c != '0';
        }
    }
    q = (int)(q10 + (int64_t)dropped); /* in [-1200, 320] here */

    a.n = 0;
    for (i = 0; i < kept;) {
        uint32_t chunk = 0, scale = 1;
        size_t stop = i + 9 < kept ? i + 9 : kept;
        for (; i < stop; i++) {
            chunk = chunk * 10 + buf[i];
            scale *= 10;
        }
        big_mul_add(&a, scale, chunk);
    }

    /* The midpoint above bits_down is (2 sig + 1) * 2^e2. */
    sig = (bits_down & JJ_MANT_MASK) | (be ? UINT64_C(1) << 52 : 0);
    e2 = (be ? (int)be : 1) - 1076;
    mid = 2 * sig + 1;
    b.n = (mid >> 32) ? 2 : 1;
    b.d[0] = (uint32_t)mid;
    b.d[1] = (uint32_t)(mid >> 32);

    /* Compare D * 5^q * 2^q with mid * 2^e2, all exponents made non-negative. */
    if (q >= 0)
        big_mul_pow5(&a, (unsigned)q);
    else
        big_mul_pow5(&b, (unsigned)-q);
    if (q > e2)
        big_shl(&a, (unsigned)(q - e2));
    else
        big_shl(&b, (unsigned)(e2 - q));
    {
        int c = big_cmp(&a, &b);
        if (c > 0 || (c == 0 && (sticky || (bits_down & 1))))
            return bits_down + 1;
    }
    return bits_down;
}

/* ---- doubles ------------------------------------------------------------------- */

static const double jj_exact_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                          1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                          1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* The general conversion. dig..dend: the digits (with the '.' if any); m: all of them
 * accumulated modulo 2^64; ndig: how many there are; q: exponent of the last digit. */
static JJ_NOINLINE double to_double(const uint8_t *dig, const uint8_t *dend, uint64_t m,
                                     size_t ndig, int64_t q, int neg)
{
    const int64_t q_last = q;
    uint64_t w = m, bits;
    int trunc = 0, st;

    if (ndig > 19) {
        /* Count significant digits: the first is the first nonzero one. */
        const uint8_t *s = dig;
        size_t nsig = ndig;
        while (s < dend && (*s == '0' || *s == '.')) {
            nsig -= *s == '0';
            s++;
        }
        if (nsig > 19) { /* keep 19, remember whether a nonzero digit was dropped */
            int k = 0;
            w = 0;
            for (; k < 19; s++) {
                if (*s != '.') {
                    w = w * 10 + (uint64_t)(*s - '0');
                    k++;
                }
            }
            for (; s < dend; s++) {
                if (*s != '0' && *s != '.') {
                    trunc = 1;
                    break;
                }
            }
            q += (int64_t)(nsig - 19);
        } /* else leading zeros only: m is exact */
    }
    if (w == 0)
        return neg ? -0.0 : 0.0;
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    if (!trunc && w <= (UINT64_C(1) << 53) && q >= -22 && q <= 22) {
        double d = (double)w;
        d = q < 0 ? d / jj_exact_pow10[-q] : d * jj_exact_pow10[q];
        return neg ? -d : d;
    }
#endif
    if (q < JJ_POW5_QMIN) /* w * 10^q < 10^-324 < 2^-1075 */
        return neg ? -0.0 : 0.0;
    if (q > JJ_POW5_QMAX) /* >= 10^309 */
        return jj_el_bits_to_double(JJ_INF_BITS, neg);

    st = el_round(w, (int)q, &bits);
    if (st != EL_UNSURE) {
        uint64_t r = bits + (uint64_t)st, bits2;
        int st2;
        if (!trunc)
            return jj_el_bits_to_double(r, neg);
        st2 = el_round(w + 1, (int)q, &bits2); /* the true value is in (w, w + 1) 10^q */
        if (st2 != EL_UNSURE && bits2 + (uint64_t)st2 == r)
            return jj_el_bits_to_double(r, neg);
    }
    return jj_el_bits_to_double(slow_round(dig, dend, q_last, bits), neg);
}

/* ---- the parser ---------------------------------------------------------------- */

static const uint64_t jj_pow10_small[9] = {1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u,
                                           10000000u, 100000000u};

/* Accumulates the digits at p into *acc (modulo 2^64) and returns the first non-digit:
 * eight at a time while whole words of digits are available; a word that holds fewer
 * has them moved to its top bytes (the bytes below become leading zeros) and converted
 * the same way, so a number costs a word or two, not a step per digit. */
static inline const uint8_t *scan_digits(const uint8_t *p, const uint8_t *end, uint64_t *acc)
{
    const uint64_t hi = UINT64_C(0xf0f0f0f0f0f0f0f0);
    const uint64_t threes = UINT64_C(0x3030303030303030);
    uint64_t m = *acc;
    while (end - p >= 8) {
        uint64_t v = load_le64(p);
        /* flags every non-digit byte; the lowest flag is exact (digits below it carry
         * nothing into it), which is all that is used */
        uint64_t bad = ((v & hi) ^ threes) | (((v + UINT64_C(0x0606060606060606)) & hi) ^ threes);
        if (bad) {
            unsigned n = (unsigned)__builtin_ctzll(bad) / 8;
            if (n) {
                /* the low n bytes are digits, so subtracting borrows nothing from them */
                uint64_t digits = (v - threes) << (8 * (8 - n));
                m = m * jj_pow10_small[n] + eight_value_of(digits);
                p += n;
            }
            *acc = m;
            return p;
        }
        m = m * 100000000u + eight_value(v);
        p += 8;
    }
    while (p < end && is_digit(*p)) {
        m = m * 10 + (uint64_t)(*p - '0');
        p++;
    }
    *acc = m;
    return p;
}

const uint8_t *jj_parse_number(const uint8_t *p, const uint8_t *end, jj_number *out)
{
    const uint8_t *dig, *dend;
    uint64_t m = 0;
    size_t nfrac = 0, ndig;
    int neg = 0, is_int = 1;
    int64_t e10 = 0;

    if (p < end && *p == '-') {
        neg = 1;
        p++;
    }
    if (p >= end || !is_digit(*p))
        return NULL;
    dig = p;
    if (*p == '0') { /* no leading zeros: the integer part is just "0" */
        p++;
    } else {
        p = scan_digits(p, end, &m);
    }
    ndig = (size_t)(p - dig);

    if (p < end && *p == '.') {
        const uint8_t *f = ++p;
        p = scan_digits(p, end, &m);
        if (p == f)
            return NULL;
        nfrac = (size_t)(p - f);
        ndig += nfrac;
        is_int = 0;
    }
    dend = p;
    if (p < end && (*p | 0x20) == 'e') {
        const uint8_t *es;
        uint64_t e = 0;
        int eneg = 0;
        p++;
        if (p < end && (*p == '+' || *p == '-')) {
            eneg = *p == '-';
            p++;
        }
        es = p;
        while (p < end && is_digit(*p)) {
            if (e < JJ_EXP_SATURATE) /* larger exponents are all alike: inf or 0 */
                e = e * 10 + (uint64_t)(*p - '0');
            p++;
        }
        if (p == es)
            return NULL;
        e10 = eneg ? -(int64_t)e : (int64_t)e;
        is_int = 0;
    }

    if (!is_int) {
        int64_t q = e10 - (int64_t)nfrac;
        uint64_t bits;
        out->kind = JJ_NUM_DOUBLE;
        if (JJ_LIKELY(ndig <= 19 && m != 0 && q >= JJ_POW5_QMIN && q <= JJ_POW5_QMAX)) {
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
            if (ndig <= 15 && q >= -22 && q <= 22) { /* m < 10^15 < 2^53: exact operands */
                double d = (double)m;
                d = q < 0 ? d / jj_exact_pow10[-q] : d * jj_exact_pow10[q];
                out->v.d = neg ? -d : d;
                return p;
            }
#endif
            const uint64_t t_high = jj_pow5_table[q - JJ_POW5_QMIN][0];
            if (JJ_LIKELY(jj_el_first_product(m, (int)q, t_high, &bits))) {
                out->v.d = jj_el_bits_to_double(bits, neg);
                return p;
            }
        }
        out->v.d = to_double(dig, dend, m, ndig, q, neg);
        return p;
    }

    /* Integers: no leading zeros, so the digit count gives the magnitude. */
    if (ndig <= 19) {
        if (!neg) {
            if (m <= (uint64_t)INT64_MAX) {
                out->kind = JJ_NUM_INT64;
                out->v.i = (int64_t)m;
            } else {
                out->kind = JJ_NUM_UINT64;
                out->v.u = m;
            }
            return p;
        }
        if (m <= (uint64_t)INT64_MAX) {
            out->kind = JJ_NUM_INT64;
            out->v.i = -(int64_t)m;
            return p;
        }
        if (m == (uint64_t)INT64_MAX + 1) {
            out->kind = JJ_NUM_INT64;
            out->v.i = INT64_MIN;
            return p;
        }
    } else if (ndig == 20 && !neg) {
        /* At least 10^19 > INT64_MAX; fits in uint64 when <= 18446744073709551615. */
        uint64_t v = 0;
        unsigned last = (unsigned)(dig[19] - '0');
        int i;
        for (i = 0; i < 19; i++)
            v = v * 10 + (uint64_t)(dig[i] - '0');
        if (v < UINT64_C(1844674407370955161) ||
            (v == UINT64_C(1844674407370955161) && last <= 5)) {
            out->kind = JJ_NUM_UINT64;
            out->v.u = v * 10 + last;
            return p;
        }
    }
    out->kind = JJ_NUM_BIGINT;
    out->v.u = 0;
    return p;
}
