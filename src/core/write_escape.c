/* jetjson: JSON string literals from CPython's str storage. The rules are in
 * jetjson_write.h.
 *
 * One body, jj_escape_body(), is specialised nine ways (3 kinds x 3 styles) by inlining it
 * with constant arguments, so the per-unit branches on kind and style fold away.
 *
 * Fast path: in latin-1 text (kind 1) eight bytes are tested at once (SWAR). Each byte
 * gets an exact flag (no borrow crosses bytes, see jj_escape_ok7), so the first flag
 * is the first byte that needs work and everything before it is copied as is. Wider kinds
 * copy plain ASCII one unit at a time; the branch is predictable and cheap. */
#include "jetjson_write.h"

#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define JJ_INLINE static inline __attribute__((always_inline))
#else
#define JJ_INLINE static inline
#endif

enum { JJ_STYLE_ASCII, JJ_STYLE_UTF8, JJ_STYLE_ORJSON };

/* 0x80 in every byte of w that cannot be copied as is (to escape, or not ASCII). */
JJ_INLINE uint64_t jj_plain_mask(uint64_t w, int style) {
    return (~jj_escape_ok7(w & ~JJ_HIGHS8, style == JJ_STYLE_ASCII) | w) & JJ_HIGHS8;
}

/* Index in memory order of the first flagged byte of a nonzero plain_mask result. */
JJ_INLINE size_t jj_first_flagged(uint64_t m, const uint8_t *p, int style) {
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
    while (p[k] < 0x80 && !jj_escape_letter[p[k]] && !(style == JJ_STYLE_ASCII && p[k] == 0x7F))
        k++;
    return k;
#endif
}

JJ_INLINE uint32_t jj_load_unit(const uint8_t *p, size_t i, int kind) {
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

JJ_INLINE size_t jj_escape_body(const void *units, size_t n, int kind, int style, uint8_t *out) {
    const uint8_t *p = (const uint8_t *)units;
    uint8_t *o = out;
    size_t i = 0;
    *o++ = '"';
    while (i < n) {
        if (kind == 1) {
            while (n - i >= 8) {
                uint64_t w;
                memcpy(&w, p + i, 8);
                uint64_t m = jj_plain_mask(w, style);
                if (m) {
                    size_t k = jj_first_flagged(m, p + i, style);
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
#if defined(__SSE2__)
        if (kind == 2 && jj_load_unit(p, i, 2) < 0x80) {
            /* eight UCS-2 units at a time while they are ASCII with nothing to escape
             * (the ASCII runs of non-latin-1 text): narrowed with unsigned saturation,
             * so a unit from 0x80 up stays at 0x80 or more and is flagged. The first
             * flagged unit goes to the general path below. Storing 8 bytes is within
             * the bound: at least 8 units are left, each worth at least one byte.
             * Entered at an ASCII unit only: in CJK text a try at every character
             * cost more than the runs gained (twitter.json +21%). */
            while (n - i >= 16) { /* sixteen units a step: two loads, one pack */
                __m128i lo = _mm_loadu_si128((const __m128i *)(const void *)(p + 2 * i));
                __m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(p + 2 * i + 16));
                __m128i narrow = _mm_packus_epi16(lo, hi);
                uint32_t m = jj_escape_flags_m128(narrow, style == JJ_STYLE_ASCII);
                _mm_storeu_si128((__m128i *)(void *)o, narrow);
                if (m) {
                    size_t k = (size_t)__builtin_ctz(m);
                    o += k;
                    i += k;
                    goto unit;
                }
                o += 16;
                i += 16;
            }
            while (n - i >= 8) {
                __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 2 * i));
                __m128i narrow = _mm_packus_epi16(v, v);
                uint32_t m = jj_escape_flags_m128(narrow, style == JJ_STYLE_ASCII) & 0xFFu;
                _mm_storel_epi64((__m128i *)(void *)o, narrow);
                if (m) {
                    size_t k = (size_t)__builtin_ctz(m);
                    o += k;
                    i += k;
                    break;
                }
                o += 8;
                i += 8;
            }
            if (i == n) break;
        }
    unit:; /* the first unit a block flagged */
#endif
        uint32_t c = jj_load_unit(p, i, kind);
        i++;
        if (c < 0x80) {
            uint8_t e = jj_escape_letter[c];
            if (style == JJ_STYLE_ASCII && c == 0x7F) e = 'u';
            if (!e) {
                *o++ = (uint8_t)c;
            } else if (e == 'u') {
                o = jj_write_u_escape(o, c);
            } else {
                o[0] = '\\';
                o[1] = e;
                o += 2;
            }
            continue;
        }
        if (style == JJ_STYLE_ASCII) {
            if (kind == 4 && c >= 0x10000) {
                uint32_t v = c - 0x10000;
                o = jj_write_u_escape(o, 0xD800 | (v >> 10));
                o = jj_write_u_escape(o, 0xDC00 | (v & 0x3FF));
            } else {
                o = jj_write_u_escape(o, c);
            }
        } else if (kind == 2 && c < 0x800) {
            /* a run of two-byte characters (Cyrillic, Greek, Hebrew, Arabic), in a loop
             * of its own: through the general one each unit was tested again for ASCII,
             * surrogates and its UTF-8 length (random.json's names) */
            for (;;) {
                o[0] = (uint8_t)(0xC0 | (c >> 6));
                o[1] = (uint8_t)(0x80 | (c & 0x3F));
                o += 2;
                if (i == n) break;
                c = jj_load_unit(p, i, 2);
                if (c - 0x80u >= 0x800u - 0x80u) break; /* left for the general loop */
                i++;
            }
        } else {
            if (style == JJ_STYLE_ORJSON && kind != 1 && (c & 0xFFFFF800u) == 0xD800u)
                return JJ_ESCAPE_SURROGATE;
            o = jj_write_utf8(o, c);
        }
    }
    *o++ = '"';
    return (size_t)(o - out);
}

static size_t jj_saturating_bound(size_t n, size_t per_unit) {
    if (n > (SIZE_MAX - 2) / per_unit) return SIZE_MAX;
    return n * per_unit + 2;
}

size_t jj_escape_bound_json_ascii(size_t n) { return jj_saturating_bound(n, 12); }

size_t jj_escape_bound_json_ascii_kind(size_t n, int kind) {
    return jj_saturating_bound(n, kind == 4 ? 12 : 6);
}

size_t jj_escape_bound_json_utf8(size_t n) { return jj_saturating_bound(n, 6); }

size_t jj_escape_bound_orjson(size_t n) { return jj_saturating_bound(n, 6); }

size_t jj_escape_json_ascii(const void *units, size_t n, int kind, uint8_t *out) {
    if (kind == 1) return jj_escape_body(units, n, 1, JJ_STYLE_ASCII, out);
    if (kind == 2) return jj_escape_body(units, n, 2, JJ_STYLE_ASCII, out);
    return jj_escape_body(units, n, 4, JJ_STYLE_ASCII, out);
}

size_t jj_escape_json_utf8(const void *units, size_t n, int kind, uint8_t *out) {
    if (kind == 1) return jj_escape_body(units, n, 1, JJ_STYLE_UTF8, out);
    if (kind == 2) return jj_escape_body(units, n, 2, JJ_STYLE_UTF8, out);
    return jj_escape_body(units, n, 4, JJ_STYLE_UTF8, out);
}

size_t jj_escape_orjson(const void *units, size_t n, int kind, uint8_t *out) {
    if (kind == 1) return jj_escape_body(units, n, 1, JJ_STYLE_ORJSON, out);
    if (kind == 2) return jj_escape_body(units, n, 2, JJ_STYLE_ORJSON, out);
    return jj_escape_body(units, n, 4, JJ_STYLE_ORJSON, out);
}

/* ---- escaping UTF-8 bytes (jj_escape_utf8_text) ---- */

/* Length of the strict UTF-8 sequence at s[0..avail) led by c >= 0x80 (Python's own
 * decoder's rules: no overlong form, no surrogate, nothing past U+10FFFF), or 0. */
static inline size_t jj_utf8_strict_len(const uint8_t *s, size_t avail) {
    uint8_t c = s[0];
    uint8_t lo = 0x80, hi = 0xbf;
    size_t need;
    if (c >= 0xc2 && c <= 0xdf) {
        need = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
        need = 3;
        if (c == 0xe0) lo = 0xa0;
        else if (c == 0xed) hi = 0x9f; /* surrogates */
    } else if (c >= 0xf0 && c <= 0xf4) {
        need = 4;
        if (c == 0xf0) lo = 0x90;
        else if (c == 0xf4) hi = 0x8f;
    } else {
        return 0;
    }
    if (avail < need || s[1] < lo || s[1] > hi) return 0;
    for (size_t k = 2; k < need; k++)
        if ((s[k] & 0xc0) != 0x80) return 0;
    return need;
}

size_t jj_escape_utf8_text(const uint8_t *s, size_t n, int validate, uint8_t *out, size_t *bad) {
    uint8_t *o = out;
    size_t i = 0;
    for (;;) {
        /* 16 bytes copied at once, then the first that needs a look is dealt with */
        while (i + 16 <= n) {
            uint32_t m = jj_escape_flags16(s + i, 0);
            memcpy(o, s + i, 16);
            if (m == 0) {
                i += 16;
                o += 16;
                continue;
            }
            unsigned k = (unsigned)__builtin_ctz(m);
            i += k;
            o += k;
            break;
        }
        if (i >= n) break;
        uint8_t c = s[i];
        if (c < 0x80) {
            if (jj_escape_letter[c] && (c < 0x20 || c == '"' || c == '\\')) o = jj_write_escape_ascii(o, c);
            else *o++ = c;
            i++;
        } else if (!validate) {
            /* a run of bytes of 0x80 and up, copied as they are */
            do *o++ = s[i++];
            while (i < n && s[i] >= 0x80);
        } else {
            /* a run of multi-byte characters, each checked */
            do {
                /* two-byte characters (Latin, Greek, Cyrillic, Hebrew, Arabic) inline */
                if (s[i] >= 0xc2 && s[i] <= 0xdf && n - i >= 2 && (s[i + 1] & 0xc0) == 0x80) {
                    o[0] = s[i];
                    o[1] = s[i + 1];
                    o += 2;
                    i += 2;
                    continue;
                }
                size_t len = jj_utf8_strict_len(s + i, n - i);
                if (len == 0) {
                    *bad = i;
                    return JJ_ESCAPE_INVALID;
                }
                memcpy(o, s + i, 4 <= n - i ? 4 : len);
                o += len;
                i += len;
            } while (i < n && s[i] >= 0x80);
        }
    }
    return (size_t)(o - out);
}
