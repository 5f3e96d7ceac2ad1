/* jetjson engine: the common JSON numbers a word at a time, for code that converts a
 * number where it stores it (the NDJSON -> Arrow builder puts the raw numbers of a lazy
 * tape straight into its columns) and for the engine's own fast paths (number_fast.h).
 * Inline: per number, a call and the tape round trip of jj_lazy_finish cost about what
 * the conversion does. Every result is the one jj_parse_number gives. */
#ifndef JETJSON_NUMBER_H
#define JETJSON_NUMBER_H

#include <float.h>
#include <stdint.h>
#include <string.h>

#include "jetjson.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* 10^k, exact as doubles for k <= 15 (so a division by one rounds once), and as
 * integers for the digit counts combined a word at a time. */
static const double jj_fast_pow10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                         1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
static const uint64_t jj_fast_pow10_int[9] = {1u,      10u,      100u,      1000u,    10000u,
                                              100000u, 1000000u, 10000000u, 100000000u};

/* Digits at the start of the 8 bytes v (0..8), the lowest byte first. A byte is a digit
 * when its high nibble is 3 before and after adding 6; carries only come from below the
 * first non-digit, so the lowest flagged byte is exact. */
static inline unsigned jj_fast_digit_count(uint64_t v) {
    const uint64_t hi = UINT64_C(0xf0f0f0f0f0f0f0f0), threes = UINT64_C(0x3030303030303030);
    uint64_t bad = ((v & hi) ^ threes) | (((v + UINT64_C(0x0606060606060606)) & hi) ^ threes);
    return bad ? (unsigned)__builtin_ctzll(bad) / 8 : 8;
}

/* The value of the first n (1..8) digit bytes of v. They are moved to the top of the
 * word, so the bytes below become leading zeros, then combined pairwise. */
static inline uint64_t jj_fast_digits_value(uint64_t v, unsigned n) {
    v = (v - UINT64_C(0x3030303030303030)) << (8 * (8 - n));
    v = (v * 10 + (v >> 8)) & UINT64_C(0x00ff00ff00ff00ff);
    v = (v * 100 + (v >> 16)) & UINT64_C(0x0000ffff0000ffff);
    return (v * 10000 + (v >> 32)) & UINT64_C(0xffffffff);
}

static inline uint64_t jj_fast_load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

/* w * 10^q (w != 0, exact) correctly rounded when one 128-bit product decides it (nearly
 * always; q in [-342, 308]): 1 with *out set (negated when neg), else 0. */
int jj_decimal_to_double_fast(uint64_t w, int q, int neg, double *out);

/* Bit i set where t[i] is a digit, for i < n (n <= 32); the bytes past n may set bits
 * too. With SSE2 (every x86-64) it reads 16 bytes from t, 32 when n > 16. */
static inline uint32_t jj_token_digit_mask(const uint8_t *t, unsigned n) {
#if defined(__SSE2__)
    const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
    __m128i a = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)t), zero);
    uint32_t mask = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(a, nine), a));
    if (n > 16) {
        __m128i b = _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)(t + 16)), zero);
        mask |= (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(b, nine), b)) << 16;
    }
    return mask;
#else
    uint32_t mask = 0;
    for (unsigned i = 0; i < n; i++) mask |= (uint32_t)((unsigned)(t[i] - '0') < 10) << i;
    return mask;
#endif
}

/* m followed by the n digits at s: m * 10^n + their value (n and m's digits <= 19 in
 * all), 8 bytes a load: reads up to 8 bytes past s + n. */
static inline uint64_t jj_token_digits_value(const uint8_t *s, unsigned n, uint64_t m) {
    if (n <= 8) return m * jj_fast_pow10_int[n] + jj_fast_digits_value(jj_fast_load64(s), n);
    for (; n >= 8; n -= 8, s += 8) m = m * UINT64_C(100000000) + jj_fast_digits_value(jj_fast_load64(s), 8);
    if (n) m = m * jj_fast_pow10_int[n] + jj_fast_digits_value(jj_fast_load64(s), n);
    return m;
}

/* Bytes of v that are not digits ('0'..'9'), among its first n (1..8): nonzero when
 * there is one (see jj_fast_digit_count). */
static inline uint64_t jj_fast_non_digits(uint64_t v, unsigned n) {
    const uint64_t hi = UINT64_C(0xf0f0f0f0f0f0f0f0), threes = UINT64_C(0x3030303030303030);
    uint64_t bad = ((v & hi) ^ threes) | (((v + UINT64_C(0x0606060606060606)) & hi) ^ threes);
    return bad & (~UINT64_C(0) >> (64 - 8 * n));
}

/* For a column of integers: a token of up to 16 digits after its sign that is an
 * integer into *out (1), a word or two at a time; 0 for anything else (a fraction, an
 * exponent, more digits: jj_number_token_fast or jj_lazy_finish then). The same
 * checks and room as jj_number_token_fast. */
static inline int jj_int_token_fast(const uint8_t *p, size_t len, size_t room, int64_t *out) {
    if (len == 0 || len > 17 || room < len + 16) return 0;
    int neg = *p == '-';
    const uint8_t *t = p + neg;
    unsigned n = (unsigned)len - (unsigned)neg;
    if (n == 0 || n > 16 || (n > 1 && t[0] == '0')) return 0;
    uint64_t lo = jj_fast_load64(t), m;
    if (n <= 8) {
        if (jj_fast_non_digits(lo, n)) return 0;
        m = jj_fast_digits_value(lo, n);
    } else {
        uint64_t hi = jj_fast_load64(t + 8);
        if (jj_fast_non_digits(lo, 8) | jj_fast_non_digits(hi, n - 8)) return 0;
        m = jj_fast_digits_value(lo, 8) * jj_fast_pow10_int[n - 8] + jj_fast_digits_value(hi, n - 8);
    }
    *out = neg ? -(int64_t)m : (int64_t)m;
    return 1;
}

/* The common numbers among tokens already checked against the grammar of
 * jj_parse_number (a lazy tape's raw number: its `len` bytes at p): an integer of up to
 * 18 digits (JJ_NUM_INT64), and a number with a fraction and no exponent of up to 19
 * digits in all (JJ_NUM_DOUBLE, correctly rounded: m / 10^f when both are exact doubles,
 * else one Eisel-Lemire product). `room` bytes are readable from p on (room >= len); it
 * reads up to 16 bytes past the token, and takes nothing with less room than that.
 * 1 with *out set to what jj_parse_number gives; 0 for any other number, or a rare
 * rounding one product leaves open (then ask jj_parse_number or jj_lazy_finish). */
static inline int jj_number_token_fast(const uint8_t *p, size_t len, size_t room, jj_number *out) {
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    /* 19 digits, a dot and a sign at most */
    if (len == 0 || len > 21 || room < len + 16) return 0;
    int neg = *p == '-';
    const uint8_t *t = p + neg;
    unsigned n = (unsigned)len - (unsigned)neg;
    uint32_t mask = jj_token_digit_mask(t, n);
    unsigned int_len = (unsigned)__builtin_ctz(~mask | (UINT32_C(1) << n));
    if (int_len == 0 || (int_len > 1 && t[0] == '0')) return 0; /* not a number token */
    if (int_len == n) {
        if (n > 18) return 0;
        uint64_t m = jj_token_digits_value(t, n, 0);
        out->kind = JJ_NUM_INT64;
        out->v.i = neg ? -(int64_t)m : (int64_t)m;
        return 1;
    }
    unsigned frac = n - int_len - 1;
    uint32_t frac_bits = ((UINT32_C(1) << frac) - 1) << (int_len + 1);
    if (t[int_len] != '.' || frac == 0 || (mask & frac_bits) != frac_bits || int_len + frac > 19)
        return 0; /* an exponent, or too many digits */
    uint64_t m = jj_token_digits_value(t + int_len + 1, frac, jj_token_digits_value(t, int_len, 0));
    double d;
    if (m <= (UINT64_C(1) << 53) && frac <= 15) {
        d = (double)m / jj_fast_pow10[frac]; /* both exact: one correctly rounded division */
        d = neg ? -d : d;
    } else if (m == 0) {
        d = neg ? -0.0 : 0.0;
    } else if (!jj_decimal_to_double_fast(m, -(int)frac, neg, &d)) {
        return 0;
    }
    out->kind = JJ_NUM_DOUBLE;
    out->v.d = d;
    return 1;
#else
    (void)p;
    (void)len;
    (void)room;
    (void)out;
    return 0;
#endif
}

#endif
