/* jetjson: JSON string literals from CPython's str storage. The rules are in escape.h.
 *
 * One body, escape_body(), is specialised nine ways (3 kinds x 3 styles) by inlining it
 * with constant arguments, so the per-unit branches on kind and style fold away.
 *
 * Fast path: in latin-1 text (kind 1) eight bytes are tested at once (SWAR). Each byte
 * gets an exact flag (no borrow crosses bytes, see plain_mask), so the first flag is
 * the first byte that needs work and everything before it is copied as is. Wider kinds
 * copy plain ASCII one unit at a time; the branch is predictable and cheap. */
#include "escape.h"

#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define JJ_INLINE static inline __attribute__((always_inline))
#else
#define JJ_INLINE static inline
#endif

enum { STYLE_ASCII, STYLE_UTF8, STYLE_ORJSON };

/* For code points below 0x80: 0 when written raw (in every style, except that
 * json_ascii also escapes 0x7F), else the letter after the backslash ('u' = \u00XX). */
const uint8_t jj_escape_letter[128] = {
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'b', 't', 'n', 'u', 'f', 'r', 'u', 'u',
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
    0, 0, '"', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '\\', 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static const char hex_lower[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
                                   '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* 0x80 in every byte of w that cannot be copied as is, 0 elsewhere. Every test works on
 * the low seven bits t (<= 0x7F), so each addition stays inside its byte. */
JJ_INLINE uint64_t plain_mask(uint64_t w, int style) {
    uint64_t t = w & ~HIGHS;
    uint64_t ge_space = t + ONES * (0x80 - 0x20);       /* bit 7 set: t >= 0x20 */
    uint64_t not_quote = (t ^ (ONES * '"')) + ONES * 0x7F; /* bit 7 set: t != '"' */
    uint64_t not_bslash = (t ^ (ONES * '\\')) + ONES * 0x7F;
    uint64_t ok = ge_space & not_quote & not_bslash;
    if (style == STYLE_ASCII) ok &= ~(t + ONES); /* bit 7 clear: t == 0x7F */
    return (~ok | w) & HIGHS;
}

/* Index in memory order of the first flagged byte of a nonzero plain_mask result. */
JJ_INLINE size_t first_flagged(uint64_t m, const uint8_t *p, int style) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    (void)p;
    (void)style;
    return (size_t)__builtin_ctzll(m) >> 3;
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    (void)p;
    (void)style;
    return (size_t)__builtin_clzll(m) >> 3;
#else
    (void)m;
    size_t k = 0;
    while (p[k] < 0x80 && !jj_escape_letter[p[k]] && !(style == STYLE_ASCII && p[k] == 0x7F))
        k++;
    return k;
#endif
}

JJ_INLINE uint32_t load_unit(const uint8_t *p, size_t i, int kind) {
    if (kind == 1) return p[i];
    if (kind == 2) {
        uint16_t u;
        memcpy(&u, p + 2 * i, 2);
        return u;
    }
    uint32_t u;
    memcpy(&u, p + 4 * i, 4);
    return u;
}

JJ_INLINE uint8_t *put_u4(uint8_t *o, uint32_t c) {
    o[0] = '\\';
    o[1] = 'u';
    o[2] = (uint8_t)hex_lower[(c >> 12) & 0xF];
    o[3] = (uint8_t)hex_lower[(c >> 8) & 0xF];
    o[4] = (uint8_t)hex_lower[(c >> 4) & 0xF];
    o[5] = (uint8_t)hex_lower[c & 0xF];
    return o + 6;
}

/* c >= 0x80, c <= 0x10FFFF; surrogates get the generic 3-byte form. */
JJ_INLINE uint8_t *put_utf8(uint8_t *o, uint32_t c) {
    if (c < 0x800) {
        o[0] = (uint8_t)(0xC0 | (c >> 6));
        o[1] = (uint8_t)(0x80 | (c & 0x3F));
        return o + 2;
    }
    if (c < 0x10000) {
        o[0] = (uint8_t)(0xE0 | (c >> 12));
        o[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
        o[2] = (uint8_t)(0x80 | (c & 0x3F));
        return o + 3;
    }
    o[0] = (uint8_t)(0xF0 | (c >> 18));
    o[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
    o[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
    o[3] = (uint8_t)(0x80 | (c & 0x3F));
    return o + 4;
}

JJ_INLINE size_t escape_body(const void *units, size_t n, int kind, int style, uint8_t *out) {
    const uint8_t *p = (const uint8_t *)units;
    uint8_t *o = out;
    size_t i = 0;
    *o++ = '"';
    while (i < n) {
        if (kind == 1) {
            while (n - i >= 8) {
                uint64_t w;
                memcpy(&w, p + i, 8);
                uint64_t m = plain_mask(w, style);
                if (m) {
                    size_t k = first_flagged(m, p + i, style);
                    memcpy(o, p + i, k);
                    o += k;
                    i += k;
                    break;
                }
                memcpy(o, p + i, 8);
                o += 8;
                i += 8;
            }
            if (i == n) break;
        }
        uint32_t c = load_unit(p, i, kind);
        i++;
        if (c < 0x80) {
            uint8_t e = jj_escape_letter[c];
            if (style == STYLE_ASCII && c == 0x7F) e = 'u';
            if (!e) {
                *o++ = (uint8_t)c;
            } else if (e == 'u') {
                o = put_u4(o, c);
            } else {
                o[0] = '\\';
                o[1] = e;
                o += 2;
            }
            continue;
        }
        if (style == STYLE_ASCII) {
            if (kind == 4 && c >= 0x10000) {
                uint32_t v = c - 0x10000;
                o = put_u4(o, 0xD800 | (v >> 10));
                o = put_u4(o, 0xDC00 | (v & 0x3FF));
            } else {
                o = put_u4(o, c);
            }
        } else {
            if (style == STYLE_ORJSON && kind != 1 && (c & 0xFFFFF800u) == 0xD800u)
                return JJ_ESCAPE_SURROGATE;
            o = put_utf8(o, c);
        }
    }
    *o++ = '"';
    return (size_t)(o - out);
}

static size_t saturating_bound(size_t n, size_t per_unit) {
    if (n > (SIZE_MAX - 2) / per_unit) return SIZE_MAX;
    return n * per_unit + 2;
}

size_t jj_escape_bound_json_ascii(size_t n) { return saturating_bound(n, 12); }

size_t jj_escape_bound_json_ascii_kind(size_t n, int kind) {
    return saturating_bound(n, kind == 4 ? 12 : 6);
}

size_t jj_escape_bound_json_utf8(size_t n) { return saturating_bound(n, 6); }

size_t jj_escape_bound_orjson(size_t n) { return saturating_bound(n, 6); }

size_t jj_escape_json_ascii(const void *units, size_t n, int kind, uint8_t *out) {
    if (kind == 1) return escape_body(units, n, 1, STYLE_ASCII, out);
    if (kind == 2) return escape_body(units, n, 2, STYLE_ASCII, out);
    return escape_body(units, n, 4, STYLE_ASCII, out);
}

size_t jj_escape_json_utf8(const void *units, size_t n, int kind, uint8_t *out) {
    if (kind == 1) return escape_body(units, n, 1, STYLE_UTF8, out);
    if (kind == 2) return escape_body(units, n, 2, STYLE_UTF8, out);
    return escape_body(units, n, 4, STYLE_UTF8, out);
}

size_t jj_escape_orjson(const void *units, size_t n, int kind, uint8_t *out) {
    if (kind == 1) return escape_body(units, n, 1, STYLE_ORJSON, out);
    if (kind == 2) return escape_body(units, n, 2, STYLE_ORJSON, out);
    return escape_body(units, n, 4, STYLE_ORJSON, out);
}
