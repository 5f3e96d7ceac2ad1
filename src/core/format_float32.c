/* jetjson: shortest round-trip formatting of binary32 floats.
 *
 * The same Schubfach search as format_double.c (see there), for v = c * 2^q with
 * c < 2^24: the rounding interval R of v, k with 10^k <= width(R) < 10^(k+1), then at
 * most one multiple of 10^(k+1) in R, else the closer of s * 10^k and (s + 1) * 10^k.
 * The products (4c + {-2, -1, 0, 2}) * 2^(q-2) * 10^-k are rounded to odd with the
 * 128-bit powers of ten of format_double_table.h, whose k range covers binary32's;
 * tests/c/format_float32_oracle.py checks every float against orjson. */
#include "format_float32.h"
#include "format_double_table.h"

#include <string.h>

#include "decimal_scale.h"

/* v = c * 2^q > 0: the chosen digits r, with v ~ r * 10^*k10 */
static uint64_t shortest32(uint32_t c, int q, int *k10)
{
    if (q <= 0 && q > -24 && ((c >> -q) << -q) == c) {
        *k10 = 0; /* an integer below 2^24: its own digits */
        return c >> -q;
    }
    /* c = 2^23 above the smallest exponent: the lower neighbour is twice as close */
    int asym = c == (UINT32_C(1) << 23) && q > -149;
    int k = asym ? floor_log10_three_quarters_pow2(q) : floor_log10_pow2(q);
    uint64_t g_hi, g_lo;
    int h = q + pow10_approx(-k, &g_hi, &g_lo);
    uint64_t odd = c & 1; /* odd c: the bounds themselves read back as a neighbour */
    uint64_t cb = (uint64_t)c << 2;
    uint64_t vb = round_to_odd(g_hi, g_lo, cb << h);
    uint64_t vbl = round_to_odd(g_hi, g_lo, (cb - 2 + (uint64_t)asym) << h) + odd;
    uint64_t vbr = round_to_odd(g_hi, g_lo, (cb + 2) << h) - odd;
    *k10 = k;
    uint64_t s = vb >> 2, t = s + 1;
    uint64_t sp10 = s / 10 * 10, tp10 = sp10 + 10;
    int u_in = vbl <= sp10 << 2, w_in = tp10 << 2 <= vbr;
    if (u_in != w_in)
        return u_in ? sp10 : tp10;
    if (!asym) {
        /* R is symmetric about v: the closer of s and s + 1 is the one in R, an exact
         * tie going to the even one (s + 1 when (vb & 3) + (s & 1) >= 3) */
        return s + (((vb & 3) + (s & 1) + 1) >> 2);
    }
    u_in = vbl <= s << 2;
    w_in = t << 2 <= vbr;
    if (u_in != w_in)
        return u_in ? s : t;
    /* both in R: the closer, ties to even */
    int64_t cmp = (int64_t)(vb - ((s << 2) + 2));
    return cmp < 0 || (cmp == 0 && !(s & 1)) ? s : t;
}

int jj_shortest_digits32(float v, uint32_t *digits, int *exponent)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    int neg = (int)(bits >> 31);
    uint32_t m = bits & ((UINT32_C(1) << 23) - 1);
    unsigned e = (bits >> 23) & 0xff;
    if (!e && !m) {
        *digits = 0;
        *exponent = 0;
        return neg;
    }
    uint32_t c = e ? m | (UINT32_C(1) << 23) : m;
    int q = e ? (int)e - 150 : -149;
    int k;
    uint64_t r = shortest32(c, q, &k);
    while (r % 10 == 0) {
        r /= 10;
        k++;
    }
    *digits = (uint32_t)r;
    *exponent = k;
    return neg;
}

size_t jj_format_float32_orjson(float v, char *out)
{
    uint32_t d;
    int e;
    char *p = out;
    if (jj_shortest_digits32(v, &d, &e))
        *p++ = '-';
    if (d == 0) {
        memcpy(p, "0.0", 3);
        return (size_t)(p + 3 - out);
    }
    /* d < 10^9: its digits, two at a time (jj_digit_pairs). Copies below are of fixed
     * sizes (16 bytes) into the room JJ_FLOAT32_BUF_SIZE promises, so the compiler makes
     * them plain stores instead of library calls. */
    /* all nine places of d, zero-padded, from independent divisions; the digits
     * proper start at buf + 9 - n. Zeros follow them (for the "digits then zeros"
     * case) and the 16-byte copies below stay inside buf. */
    char buf[48];
    memset(buf, '0', sizeof buf);
    int n = 1 + (d >= 10) + (d >= 100) + (d >= 1000) + (d >= 10000) + (d >= 100000) +
            (d >= 1000000) + (d >= 10000000) + (d >= 100000000);
    uint32_t top = d / 100000000, low = d - top * 100000000;
    uint32_t a = low / 1000000, b = low / 10000, c = low / 100;
    buf[0] = (char)('0' + top);
    memcpy(buf + 1, jj_digit_pairs + 2 * a, 2);
    memcpy(buf + 3, jj_digit_pairs + 2 * (b - 100 * a), 2);
    memcpy(buf + 5, jj_digit_pairs + 2 * (c - 100 * b), 2);
    memcpy(buf + 7, jj_digit_pairs + 2 * (low - 100 * c), 2);
    const char *digits = buf + 9 - n;
    int point = n + e; /* digits before the decimal point; <= 0 means "0.000ddd" */
    if (e >= 0 && point <= 13) {
        /* the digits, then e zeros (buf is '0'-filled past them), then ".0" */
        memcpy(p, digits, 16);
        p += point;
        memcpy(p, ".0", 2);
        p += 2;
    } else if (point > 0 && point <= 13) {
        memcpy(p, digits, 16);
        p += point;
        *p++ = '.';
        memcpy(p, digits + point, 16);
        p += n - point;
    } else if (point > -6 && point <= 0) {
        memcpy(p, "0.00000", 8);
        p += 2 - point;
        memcpy(p, digits, 16);
        p += n;
    } else {
        *p++ = digits[0];
        if (n > 1) {
            *p++ = '.';
            memcpy(p, digits + 1, 16);
            p += n - 1;
        }
        *p++ = 'e';
        int x = point - 1;
        *p++ = x < 0 ? '-' : '+';
        if (x < 0)
            x = -x;
        if (x >= 10)
            *p++ = (char)('0' + x / 10);
        *p++ = (char)('0' + x % 10);
    }
    return (size_t)(p - out);
}
