/* Decimal text of 64-bit integers: two digits per division, written back to front
 * into a small buffer, then moved into place. */
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

size_t jj_format_uint64(uint64_t v, char *out) {
    if (v < 10) {
        out[0] = (char)('0' + v);
        return 1;
    }
    char tmp[JJ_INT_MAX_CHARS];
    char *p = tmp + sizeof tmp;
    while (v >= 100) {
        unsigned pair = (unsigned)(v % 100);
        v /= 100;
        p -= 2;
        memcpy(p, &jj_digit_pairs[pair * 2], 2);
    }
    if (v >= 10) {
        p -= 2;
        memcpy(p, &jj_digit_pairs[v * 2], 2);
    } else {
        *--p = (char)('0' + v);
    }
    size_t n = (size_t)(tmp + sizeof tmp - p);
    memcpy(out, p, n);
    return n;
}

size_t jj_format_int64(int64_t v, char *out) {
    if (v >= 0) return jj_format_uint64((uint64_t)v, out);
    out[0] = '-';
    /* negate in unsigned arithmetic: INT64_MIN has no positive int64_t */
    return 1 + jj_format_uint64(0 - (uint64_t)v, out + 1);
}
