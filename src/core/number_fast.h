/* The common JSON numbers, parsed inline by stage 2, with no exponent:
 * - with SSSE3 (the x86 SIMD kernels), up to 15 digits ending within 16 bytes in one
 *   vector pass, and a decimal whose digits run on past those 16 bytes from what that
 *   pass found and one more word, both written straight into the tape; the other numbers
 *   of 16 to 19 digits over 32 bytes, on stage 2's out-of-line path;
 * - elsewhere, up to 7 integer and 15 digits in all, a word at a time.
 * Up to 15 digits, an integer fits an int64 and a decimal is m / 10^f with m < 2^53 and
 * f <= 15, both exact doubles, so one correctly rounded division gives the double; 16 to
 * 19 digits take one Eisel-Lemire product. Anything else (or fewer than
 * JJ_NUMBER_FAST_ROOM bytes left) goes to jj_parse_number, which gives the same result
 * for these too (tests/c/test_number_fast.c checks it on every kernel). */
#ifndef JJ_NUMBER_FAST_H
#define JJ_NUMBER_FAST_H

#include <float.h>
#include <string.h>

#include "eisel_lemire.h"
#include "jetjson.h"
#include "jetjson_number.h" /* the word-at-a-time digit helpers */

#define JJ_NUMBER_FAST_ROOM 40

static inline void jj_tape_put_double(uint64_t *w, double d) {
    w[0] = (uint64_t)JJ_DOUBLE << 56;
    memcpy(&w[1], &d, sizeof w[1]);
}

/* The two tape words of a parsed number whose text starts at `offset` in the input and is
 * `text_len` bytes long (see the tape format in jetjson.h). */
static inline void jj_tape_put_number(uint64_t *w, const jj_number *num, size_t offset, size_t text_len) {
    switch (num->kind) {
    case JJ_NUM_INT64:
        w[0] = (uint64_t)JJ_INT64 << 56;
        w[1] = (uint64_t)num->v.i;
        break;
    case JJ_NUM_UINT64:
        w[0] = (uint64_t)JJ_UINT64 << 56;
        w[1] = num->v.u;
        break;
    case JJ_NUM_DOUBLE: jj_tape_put_double(w, num->v.d); break;
    case JJ_NUM_BIGINT:
        w[0] = (uint64_t)JJ_BIGINT << 56 | (uint64_t)offset;
        w[1] = (uint64_t)text_len;
        break;
    }
}

#if defined(__SSSE3__)
#include <tmmintrin.h>

static inline __m128i jj_fast_digit_bytes(const uint8_t *p) {
    return _mm_sub_epi8(_mm_loadu_si128((const __m128i *)(const void *)p), _mm_set1_epi8('0'));
}

static inline unsigned jj_fast_digit_mask(__m128i digits) {
    return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(digits, _mm_set1_epi8(9)), digits));
}

/* The 16 digit values (0..9, the first byte most significant) as one integer. */
static inline uint64_t jj_fast_value16(__m128i digits) {
    __m128i pairs = _mm_maddubs_epi16(digits, _mm_setr_epi8(10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1, 10, 1));
    __m128i quads = _mm_madd_epi16(pairs, _mm_setr_epi16(100, 1, 100, 1, 100, 1, 100, 1));
    quads = _mm_packs_epi32(quads, quads); /* 0..9999: no saturation */
    __m128i octs = _mm_madd_epi16(quads, _mm_setr_epi16(10000, 1, 10000, 1, 10000, 1, 10000, 1));
    return (uint64_t)(uint32_t)_mm_cvtsi128_si32(octs) * 100000000u +
           (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(octs, 4));
}

/* The first n (0..16) of 16 digit values, as an integer: moved to the end of the vector
 * by a shuffle whose negative indexes write the leading zeros. */
static inline uint64_t jj_fast_value_first(__m128i digits, unsigned n) {
    __m128i index = _mm_add_epi8(_mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                 _mm_set1_epi8((char)((int)n - 16)));
    return jj_fast_value16(_mm_shuffle_epi8(digits, index));
}

/* Bytes [0, n) from a, the others from b. */
static inline __m128i jj_fast_first_from(unsigned n, __m128i a, __m128i b) {
    __m128i first = _mm_cmpgt_epi8(_mm_set1_epi8((char)n),
                                   _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    return _mm_or_si128(_mm_and_si128(first, a), _mm_andnot_si128(first, b));
}

/* Sliding windows for the shuffle that right-aligns a number's digits: the 16 bytes
 * from jj_fast_shift_window + total are i + total - 16 (negative, so a leading zero, for
 * the first 16 - total), and the 16 from jj_fast_skip_window + (total - int_len) add 1
 * from the dot's place on, which drops the dot. */
static const int8_t jj_fast_shift_window[32] = {-16, -15, -14, -13, -12, -11, -10, -9, -8, -7, -6,
                                                -5,  -4,  -3,  -2,  -1,  0,   1,   2,  3,  4,  5,
                                                6,   7,   8,   9,   10,  11,  12,  13, 14, 15};
static const int8_t jj_fast_skip_window[32] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                               1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

static inline __m128i jj_fast_align_index(unsigned int_len, unsigned total) {
    __m128i shift = _mm_loadu_si128((const __m128i *)(const void *)(jj_fast_shift_window + total));
    __m128i skip = _mm_loadu_si128((const __m128i *)(const void *)(jj_fast_skip_window + (total - int_len)));
    return _mm_add_epi8(shift, skip);
}

/* SSSE3, a decimal whose digits run past the 16 bytes jj_fast_number_tape looked at
 * (coordinates: "-65.613616999999977"), int_len digits before the dot. Those bytes hold
 * exactly 15 digits, which one shuffle (dropping the dot) and jj_fast_value16 read; up
 * to 4 more follow, read as a word. 15 digits make an exact double divided by an exact
 * power of ten, more take one Eisel-Lemire product. Writes the tape words and returns
 * the end of the digits, or NULL for the general parser. */
static inline __attribute__((always_inline)) const uint8_t *jj_fast_decimal_long(
    const uint8_t *p, __m128i digits, unsigned int_len, int neg, uint64_t *w) {
    uint64_t next = jj_fast_load64(p + 16);
    unsigned more = jj_fast_digit_count(next);
    if (more > 4) return NULL;
    uint64_t m = jj_fast_value16(_mm_shuffle_epi8(digits, jj_fast_align_index(int_len, 15)));
    unsigned frac_len = 15 - int_len + more;
    if (more == 0) {
        double d = (double)m / jj_fast_pow10[frac_len];
        jj_tape_put_double(w, neg ? -d : d);
    } else {
        m = m * jj_fast_pow10_int[more] + jj_fast_digits_value(next, more);
        int q = -(int)frac_len; /* -19 <= q <= -1, inside the table */
        uint64_t bits;
        if (m == 0 || !jj_el_first_product(m, q, jj_pow5_by_q[q][0], &bits)) return NULL;
        jj_tape_put_double(w, jj_el_bits_to_double(bits, neg));
    }
    return p + 16 + more;
}

/* SSSE3, the common numbers straight into the two tape words at w: up to 15 digits ending
 * inside the first 16 bytes (one compare finds the digits, one shuffle drops the dot and
 * right-aligns them), and decimals running past those bytes (jj_fast_decimal_long).
 * Returns the end of the digits (the caller checks what follows: an exponent or any
 * other byte sends the number to the general parser), or NULL for the general parser.
 * The caller leaves JJ_NUMBER_FAST_ROOM bytes after start. Always inlined where a loop
 * of numbers calls it (jj_number_run): as a call it saved and restored six registers
 * per number. */
static inline __attribute__((always_inline)) const uint8_t *jj_fast_number_tape_inline(const uint8_t *start,
                                                                                      uint64_t *w) {
    int neg = *start == '-';
    const uint8_t *p = start + neg;
    __m128i digits = jj_fast_digit_bytes(p);
    unsigned mask = jj_fast_digit_mask(digits);
    unsigned int_len = (unsigned)__builtin_ctz(~mask);
    if (int_len == 0 || (int_len > 1 && p[0] == '0')) return NULL;
    if (p[int_len] == '.') {
        unsigned frac_len = (unsigned)__builtin_ctz(~(mask >> (int_len + 1)));
        unsigned total = int_len + frac_len;
        if (frac_len == 0) return NULL;
        if (total >= 15) return jj_fast_decimal_long(p, digits, int_len, neg, w);
        /* m < 10^15 < 2^53 and 10^frac are exact doubles: one rounding */
        uint64_t m = jj_fast_value16(_mm_shuffle_epi8(digits, jj_fast_align_index(int_len, total)));
        double d = (double)m / jj_fast_pow10[frac_len];
        jj_tape_put_double(w, neg ? -d : d);
        return p + total + 1;
    }
    if (int_len > 15) return NULL;
    uint64_t m = jj_fast_value16(_mm_shuffle_epi8(digits, jj_fast_align_index(int_len, int_len)));
    w[0] = (uint64_t)JJ_INT64 << 56 | (uint64_t)(neg & (m == 0)) * JJ_INT_MINUS_ZERO;
    w[1] = neg ? (uint64_t)0 - m : m;
    return p + int_len;
}

/* jj_fast_number_tape_inline where the compiler chooses (out of line in the grammar
 * walk, whose registers it would take). */
static inline const uint8_t *jj_fast_number_tape(const uint8_t *start, uint64_t *w) {
    return jj_fast_number_tape_inline(start, w);
}

/* SSSE3, what jj_fast_number_tape leaves: the other numbers of 16 to 19 digits (64-bit
 * ids; decimals with 15 or more digits before the dot), 32 bytes at a time, the dot
 * taken out by reading the fraction again one byte further (digit k is p[k] before the
 * dot, p[k + 1] after it). Anything else goes to jj_parse_number. */
static inline const uint8_t *jj_fast_number_long(const uint8_t *start, const uint8_t *p, const uint8_t *stop,
                                                 jj_number *out) {
    int neg = p != start;
    __m128i lo = jj_fast_digit_bytes(p), hi = jj_fast_digit_bytes(p + 16);
    uint32_t mask = jj_fast_digit_mask(lo) | (uint32_t)jj_fast_digit_mask(hi) << 16;
    unsigned int_len = (unsigned)__builtin_ctz(~mask | (UINT32_C(1) << 31)), frac_len = 0;
    if (int_len == 0 || int_len > 19 || (int_len > 1 && p[0] == '0')) return jj_parse_number(start, stop, out);
    unsigned total = int_len;
    int is_float = p[int_len] == '.';
    if (is_float) {
        frac_len = (unsigned)__builtin_ctz(~(mask >> (int_len + 1)) | (UINT32_C(1) << 30));
        total += frac_len;
    }
    const uint8_t *end = p + total + (unsigned)is_float;
    if ((is_float && frac_len == 0) || total > 19 || (*end | 0x20) == 'e' || (!is_float && total > 18))
        return jj_parse_number(start, stop, out);
    if (is_float) {
        lo = jj_fast_first_from(int_len, lo, jj_fast_digit_bytes(p + 1));
        hi = jj_fast_first_from(int_len > 16 ? int_len - 16 : 0, hi, jj_fast_digit_bytes(p + 17));
    }
    uint64_t m = total <= 16 ? jj_fast_value_first(lo, total)
                             : jj_fast_value16(lo) * jj_fast_pow10_int[total - 16] + jj_fast_value_first(hi, total - 16);
    if (!is_float) {
        out->kind = JJ_NUM_INT64;
        out->v.i = neg ? -(int64_t)m : (int64_t)m;
        return end;
    }
    if (m == 0 || !jj_decimal_to_double_fast(m, -(int)frac_len, neg, &out->v.d))
        return jj_parse_number(start, stop, out);
    out->kind = JJ_NUM_DOUBLE;
    return end;
}
#endif

/* The numbers stage 2's jj_fast_number_tape does not take (all of them without SSSE3),
 * as a jj_number. */
static inline const uint8_t *jj_parse_number_fast(const uint8_t *start, const uint8_t *end,
                                                  jj_number *out) {
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
    if (end - start < JJ_NUMBER_FAST_ROOM) return jj_parse_number(start, end, out);
    const uint8_t *p = start;
    int neg = *p == '-';
    p += neg;
#if defined(__SSSE3__)
    return jj_fast_number_long(start, p, end, out);
#else
    uint64_t word = jj_fast_load64(p);
    unsigned int_digits = jj_fast_digit_count(word);
    /* no digit, a leading zero, or 8 digits or more: the general parser decides */
    if (int_digits - 1u >= 7u || (int_digits > 1 && *p == '0')) return jj_parse_number(start, end, out);
    uint64_t m = jj_fast_digits_value(word, int_digits);
    p += int_digits;
    if (*p != '.') {
        if ((*p | 0x20) == 'e') return jj_parse_number(start, end, out);
        out->kind = JJ_NUM_INT64;
        out->v.i = neg ? -(int64_t)m : (int64_t)m;
        return p;
    }
    p++;
    word = jj_fast_load64(p);
    unsigned frac_digits = jj_fast_digit_count(word);
    if (frac_digits == 0) return jj_parse_number(start, end, out);
    m = m * jj_fast_pow10_int[frac_digits] + jj_fast_digits_value(word, frac_digits);
    if (frac_digits == 8) {
        word = jj_fast_load64(p + 8);
        unsigned more = jj_fast_digit_count(word);
        if (more == 8) return jj_parse_number(start, end, out);
        if (more) m = m * jj_fast_pow10_int[more] + jj_fast_digits_value(word, more);
        frac_digits += more;
    }
    p += frac_digits;
    if (int_digits + frac_digits > 15 || (*p | 0x20) == 'e') return jj_parse_number(start, end, out);
    double d = (double)m / jj_fast_pow10[frac_digits];
    out->kind = JJ_NUM_DOUBLE;
    out->v.d = neg ? -d : d;
    return p;
#endif
#else
    return jj_parse_number(start, end, out);
#endif
}

#endif
