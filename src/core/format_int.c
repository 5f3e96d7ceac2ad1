/* Decimal text of 64-bit integers: split into 8-digit parts and those into 4-digit
 * halves, each written two digits at a time straight into place. */
#include "format_int.h"

#include <string.h>

static const char jj_digit_pairs[200] = {
    '0','0','0','1','0','2','0','3','0','4','0','5','0','6','0','7','0','8','0','9',
    '1','0','1','1','1','2','1','3','1','4','1','5','1','6','1','7','1','8','1','9',
    '2','0','2','1','2','2','2','3','2','4','2','5','2','6','2','7','2','8','2','9',
    '3','0','3','1','3','2','3','3','3','4','3','5','3','6','3','7','3','8','3','9',
    '4','0','4','1','4','2','4','3','4','4','4','5','4','6','4','7','4','8','4','9',
    '5','0','5','1','5','2','5','3','5','4','5','5','5','6','5','7','5','8','5','9',
    '6','0','6','1','6','2','6','3','6','4','6','5','6','6','6','7','6','8','6','9',
    '7','0','7','1','7','2','7','3','7','4','7','5','7','6','7','7','7','8','7','9',
    '8','0','8','1','8','2','8','3','8','4','8','5','8','6','8','7','8','8','8','9',
    '9','0','9','1','9','2','9','3','9','4','9','5','9','6','9','7','9','8','9','9',
};

/* u < 10^4 without leading zeros; returns the length. */
static inline size_t jj_format_below_1e4(uint32_t u, char *out) {
    if (u < 100) {
        if (u < 10) {
            out[0] = (char)('0' + u);
            return 1;
        }
        memcpy(out, &jj_digit_pairs[u * 2], 2);
        return 2;
    }
    uint32_t high = u / 100, low = u - high * 100;
    if (high < 10) {
        out[0] = (char)('0' + high);
        memcpy(out + 1, &jj_digit_pairs[low * 2], 2);
        return 3;
    }
    memcpy(out, &jj_digit_pairs[high * 2], 2);
    memcpy(out + 2, &jj_digit_pairs[low * 2], 2);
    return 4;
}

/* u < 10^8 without leading zeros; returns the length. The high four digits (without
 * leading zeros) and the low four (with them) are written apart, each from digit pairs
 * of independent divisions, with branches on the magnitude, which most numbers of a
 * document share: no loop and no chain of divisions. A loop taking two digits at a time
 * from the end cost twice this in a C benchmark of 5-digit ints (5.8 against 2.8 ns). */
static inline size_t jj_format_small(uint32_t u, char *out) {
    if (u < 10000) return jj_format_below_1e4(u, out);
    uint32_t high = u / 10000, low = u - high * 10000;
    size_t n = jj_format_below_1e4(high, out);
    uint32_t a = low / 100, b = low - a * 100;
    memcpy(out + n, &jj_digit_pairs[a * 2], 2);
    memcpy(out + n + 2, &jj_digit_pairs[b * 2], 2);
    return n + 4;
}

/* u < 10^8 as exactly 8 digits. The three divisions are independent of each other, so
 * the digit pairs do not wait on a chain of divisions. */
static inline void jj_format_eight(uint32_t u, char *out) {
    uint32_t a = u / 1000000, b = u / 10000, c = u / 100;
    memcpy(out, &jj_digit_pairs[a * 2], 2);
    memcpy(out + 2, &jj_digit_pairs[(b - 100 * a) * 2], 2);
    memcpy(out + 4, &jj_digit_pairs[(c - 100 * b) * 2], 2);
    memcpy(out + 6, &jj_digit_pairs[(u - 100 * c) * 2], 2);
}

size_t jj_format_uint64(uint64_t v, char *out) {
    const uint64_t e8 = 100000000u, e16 = e8 * e8;
    if (v < e8) return jj_format_small((uint32_t)v, out);
    if (v < e16) {
        uint64_t hi = v / e8;
        size_t n = jj_format_small((uint32_t)hi, out);
        jj_format_eight((uint32_t)(v - hi * e8), out + n);
        return n + 8;
    }
    uint64_t top = v / e16, rest = v - top * e16, mid = rest / e8;
    size_t n = jj_format_small((uint32_t)top, out);
    jj_format_eight((uint32_t)mid, out + n);
    jj_format_eight((uint32_t)(rest - mid * e8), out + n + 8);
    return n + 16;
}

size_t jj_format_int64(int64_t v, char *out) {
    if (v >= 0) return jj_format_uint64((uint64_t)v, out);
    out[0] = '-';
    /* negate in unsigned arithmetic: INT64_MIN has no positive int64_t */
    return 1 + jj_format_uint64(0 - (uint64_t)v, out + 1);
}
