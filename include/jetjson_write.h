/* jetjson's text-writing layer: what every writer of JSON text (dumps, dumpb, the text
 * tools, the editors, and the MessagePack/Arrow writers to come) takes from the engine.
 *
 *   tables         digit pairs, hex pairs, the escape letter of each ASCII byte
 *   small writers  two digits, two hex digits, \uXXXX, the escape of an ASCII byte, a
 *                  code point in UTF-8, a line break and its indentation (inline)
 *   escape scans   which of 8 (SWAR) or 16 (SSE2) bytes need escaping
 *   escaping       whole string literals from CPython's str storage, in the three
 *                  spellings (json ensure_ascii on/off, orjson)
 *   numbers        int64/uint64, double (repr and orjson), float32 (orjson)
 *   byte sink      a growable output buffer with a sticky error (jj_sink)
 *
 * No Python, no global state: any number of threads may write at once. The small
 * writers store exactly the bytes they report and return the new end; the caller has
 * reserved room for them. */
#ifndef JETJSON_WRITE_H
#define JETJSON_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- tables ---- */

/* The tables live in the same shared object as their users: hidden, they are read
 * without a GOT load (one more instruction per character of the escape loops). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32)
#define JJ_WRITE_TABLE __attribute__((visibility("hidden")))
#else
#define JJ_WRITE_TABLE
#endif

/* "00" "01" .. "99": the two digits of v at jj_digit_pairs + 2 * v. */
extern JJ_WRITE_TABLE const char jj_digit_pairs[200];
/* "00" "01" .. "ff": the two lowercase hex digits of byte b at jj_hex_pairs + 2 * b. */
extern JJ_WRITE_TABLE const char jj_hex_pairs[512];
/* For code points below 0x80: 0 when every spelling writes it raw (json's ensure_ascii
 * also escapes 0x7F), else the letter after the backslash ('u' for \u00XX). */
extern JJ_WRITE_TABLE const uint8_t jj_escape_letter[128];

/* ---- small writers ---- */

/* v < 100 as exactly two digits. */
static inline uint8_t *jj_write_digits2(uint8_t *o, unsigned v) {
    memcpy(o, jj_digit_pairs + 2 * v, 2);
    return o + 2;
}

/* A byte as two lowercase hex digits. */
static inline uint8_t *jj_write_hex2(uint8_t *o, unsigned b) {
    memcpy(o, jj_hex_pairs + 2 * (b & 0xFF), 2);
    return o + 2;
}

/* \uXXXX (lowercase hex) of a UTF-16 code unit: 6 bytes. */
static inline uint8_t *jj_write_u_escape(uint8_t *o, uint32_t unit) {
    o[0] = '\\';
    o[1] = 'u';
    jj_write_hex2(o + 2, unit >> 8);
    return jj_write_hex2(o + 4, unit);
}

/* The escape of an ASCII byte c whose jj_escape_letter is nonzero: \" \\ \b \f \n \r \t,
 * or \u00XX. At most 6 bytes. */
static inline uint8_t *jj_write_escape_ascii(uint8_t *o, uint8_t c) {
    uint8_t letter = jj_escape_letter[c & 0x7F];
    if (letter == 'u') return jj_write_u_escape(o, c);
    o[0] = '\\';
    o[1] = letter;
    return o + 2;
}

/* A code point from 0x80 to 0x10FFFF in UTF-8 (2 to 4 bytes); a surrogate gets the
 * generic 3-byte form ('surrogatepass'). */
static inline uint8_t *jj_write_utf8(uint8_t *o, uint32_t c) {
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

/* A line break and `width` copies of the byte `fill` (1 + width bytes). */
static inline uint8_t *jj_write_newline(uint8_t *o, size_t width, uint8_t fill) {
    o[0] = '\n';
    memset(o + 1, fill, width);
    return o + 1 + width;
}

/* A line break and `depth` copies of a unit of any bytes (json's indent="\t-"). */
static inline uint8_t *jj_write_newline_units(uint8_t *o, size_t depth, const void *unit, size_t unit_len) {
    *o++ = '\n';
    for (size_t d = 0; d < depth; d++, o += unit_len) memcpy(o, unit, unit_len);
    return o;
}

/* ---- escape scans ---- */

#define JJ_ONES8 UINT64_C(0x0101010101010101)
#define JJ_HIGHS8 UINT64_C(0x8080808080808080)

/* Bit 7 of each byte of the 8 in t (every byte below 0x80) set when the byte is none of:
 * below 0x20, '"', '\\' (and 0x7F when esc7f: json's ensure_ascii). Each addition stays
 * inside its byte, so every flag is exact and the lowest clear one is the first byte to
 * look at. The other bits are noise. */
static inline uint64_t jj_escape_ok7(uint64_t t, int esc7f) {
    uint64_t ok = (t + JJ_ONES8 * (0x80 - 0x20)) & ((t ^ (JJ_ONES8 * '"')) + JJ_ONES8 * 0x7F) &
                  ((t ^ (JJ_ONES8 * '\\')) + JJ_ONES8 * 0x7F);
    if (esc7f) ok &= ~(t + JJ_ONES8);
    return ok;
}

/* 0x80 in each byte of 8 ASCII bytes that needs escaping, 0 elsewhere. */
static inline uint64_t jj_escape_flags7(uint64_t t, int esc7f) { return ~jj_escape_ok7(t, esc7f) & JJ_HIGHS8; }

/* The same for any 8 bytes, those of 0x80 and up judged by their low seven bits: to stop
 * at them as well take (~jj_escape_ok7(w & ~JJ_HIGHS8) | w) & JJ_HIGHS8; to copy them raw,
 * jj_escape_flags8(w) & ~w. */
static inline uint64_t jj_escape_flags8(uint64_t w, int esc7f) { return jj_escape_flags7(w & ~JJ_HIGHS8, esc7f); }

/* Bit i set when byte i of the 16 at p is below 0x20, '"' or '\\' (or 0x7F when esc7f),
 * or 0x80 and up (a signed compare: non-ASCII bytes count as below 0x20). */
#if defined(__SSE2__)
static inline uint32_t jj_escape_flags_m128(__m128i v, int esc7f) {
    __m128i m = _mm_or_si128(_mm_cmplt_epi8(v, _mm_set1_epi8(0x20)),
                             _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                          _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))));
    if (esc7f) m = _mm_or_si128(m, _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)));
    return (uint32_t)_mm_movemask_epi8(m);
}
#endif

static inline uint32_t jj_escape_flags16(const uint8_t *p, int esc7f) {
#if defined(__SSE2__)
    return jj_escape_flags_m128(_mm_loadu_si128((const __m128i *)(const void *)p), esc7f);
#else
    uint32_t m = 0;
    for (int i = 0; i < 16; i++) {
        uint8_t c = p[i];
        m |= (uint32_t)(c < 0x20 || c == '"' || c == '\\' || c >= 0x80 || (esc7f && c == 0x7F)) << i;
    }
    return m;
#endif
}

/* ---- escaping: whole literals from CPython's str storage ----
 *
 * Three spellings, each checked against its oracle:
 *   jj_escape_json_ascii  json.dumps(s) (ensure_ascii=True), as ASCII bytes.
 *                         "  \  -> \" \\ ;  U+0008 U+000C U+000A U+000D U+0009 -> \b \f \n
 *                         \r \t ; every other code point below U+0020 and every one from
 *                         U+007F up -> \uXXXX with lowercase hex (\u001b \u007f \u00e9
 *                         \uabcd); above U+FFFF -> the UTF-16 surrogate pair as two \uXXXX
 *                         (\ud83d\ude00); a lone surrogate -> its own \udXXX.
 *   jj_escape_json_utf8   json.dumps(s, ensure_ascii=False), encoded as UTF-8. Only " \ and
 *                         code points below U+0020 are escaped (as above); U+007F, U+2028,
 *                         U+2029 and everything else are written raw. Lone surrogates
 *                         are written in their 3-byte form (ED A0 80 .. ED BF BF, what
 *                         'surrogatepass' gives), one per surrogate code unit, even when
 *                         two of them would form a pair; a caller that needs strict UTF-8
 *                         must check.
 *   jj_escape_orjson      orjson.dumps(s), UTF-8. " \ \b \f \n \r \t escaped, other code
 *                         points below U+0020 as \u00XX with lowercase hex (\u001f); U+007F
 *                         and all non-ASCII raw. A str holding any surrogate code point
 *                         cannot be encoded: the result is JJ_ESCAPE_SURROGATE (orjson
 *                         raises "str is not valid UTF-8: surrogates not allowed").
 *   '/' is never escaped by any of the three.
 *
 * Input: `units` points at n code units of `kind` bytes each (1 = latin-1, 2 = UCS-2,
 * 4 = UCS-4), in native byte order, with any alignment. Every code point must be at most
 * U+10FFFF (as in any CPython str). The output does not depend on the kind.
 *
 * Output: the literal including both quotes, no NUL; never more than the matching bound.
 * On JJ_ESCAPE_SURROGATE the contents of `out` are unspecified (but within the bound). */

#define JJ_ESCAPE_SURROGATE ((size_t)-1)

/* Worst-case output sizes, in bytes, for n code units (quotes included), saturating at
 * SIZE_MAX: json_ascii 12n + 2 (6n + 2 for kinds 1 and 2), json_utf8 and orjson 6n + 2. */
size_t jj_escape_bound_json_ascii(size_t n);
size_t jj_escape_bound_json_ascii_kind(size_t n, int kind);
size_t jj_escape_bound_json_utf8(size_t n);
size_t jj_escape_bound_orjson(size_t n);

/* Write the literal for n code units of `kind` at `units` to `out`; return its length. */
size_t jj_escape_json_ascii(const void *units, size_t n, int kind, uint8_t *out);
size_t jj_escape_json_utf8(const void *units, size_t n, int kind, uint8_t *out);
/* Returns JJ_ESCAPE_SURROGATE when a code point is in U+D800..U+DFFF. */
size_t jj_escape_orjson(const void *units, size_t n, int kind, uint8_t *out);

/* ---- escaping: UTF-8 bytes ----
 *
 * jj_escape_utf8_text writes the text between the quotes of a JSON string for the UTF-8
 * bytes s[0..n), as json.dumps(..., ensure_ascii=False) and orjson spell it: " \ \b \f
 * \n \r \t escaped, other bytes below 0x20 as \u00XX (lowercase hex), everything else
 * (0x7F and all non-ASCII) raw. With `validate`, the bytes must be strict UTF-8 as
 * Python's decoder takes it (no overlong form, no surrogate, nothing past U+10FFFF):
 * otherwise JJ_ESCAPE_INVALID, with *bad at the offset of the first byte of the bad
 * sequence. Without it, bytes of 0x80 and up are copied unchecked. No quotes are written.
 * out has room for 6n bytes (jj_escape_bound_json_utf8(n) less the quotes): 16-byte
 * blocks are copied whole only where that room allows, so a caller escaping a long text
 * in pieces gives each piece its own 6 x length. */
#define JJ_ESCAPE_INVALID ((size_t)-2)
size_t jj_escape_utf8_text(const uint8_t *s, size_t n, int validate, uint8_t *out, size_t *bad);

/* ---- numbers ---- */

/* "-9223372036854775808" and "18446744073709551615" are 20 characters. */
#define JJ_INT_MAX_CHARS 20

/* Decimal text of v (what Python's str(int) gives) at out (room for JJ_INT_MAX_CHARS
 * bytes); returns the number of bytes. */
size_t jj_format_uint64(uint64_t v, char *out);
size_t jj_format_int64(int64_t v, char *out);

/* Longest text jj_format_double_* writes, and the room they need at out (they may store
 * a few bytes past the text). */
#define JJ_DOUBLE_MAX_CHARS 24
#define JJ_DOUBLE_BUF_SIZE 32

/* A finite double as Python's repr writes it (1e+16, 0.1, 1e-07, 123.0). */
size_t jj_format_double_repr(double v, char *out);
/* A finite double as orjson writes it (1e16, 0.1, 1e-7, 123.0). */
size_t jj_format_double_orjson(double v, char *out);

/* Room jj_format_float32_orjson needs at out. */
#define JJ_FLOAT32_BUF_SIZE 40
/* A finite float32 as orjson writes it (numpy float32 arrays and scalars). */
size_t jj_format_float32_orjson(float v, char *out);

/* ---- byte sink ----
 *
 * A growable output buffer that a writer fills with direct stores: jj_sink_reserve, then
 * stores at s->pos (advance it yourself), or jj_sink_put*; then jj_sink_finish. What
 * holds the bytes is the owner's: its `resize` callback moves them to a buffer of the
 * asked capacity (keeping the bytes written) and sets start/pos/end, or fails. A failed
 * resize makes the error sticky: every later reserve fails at once and finish reports
 * it, so a writer may check only where it is convenient. The engine's jj_sink_init_malloc
 * keeps the bytes in malloc'ed memory; the Python binding keeps them inside a bytes
 * object under construction, so finishing is a shrink in place and no copy. */

typedef struct jj_sink jj_sink;
/* Make the capacity `cap` (>= the bytes written; SIZE_MAX when the request overflows,
 * which must fail). 0, or nonzero on failure (then the owner has released what it
 * holds if it must, and start/pos/end are cleared by the caller). */
typedef int (*jj_sink_resize_fn)(jj_sink *s, size_t cap);

struct jj_sink {
    uint8_t *pos;   /* next byte to write */
    uint8_t *end;   /* end of the capacity */
    uint8_t *start; /* first byte */
    jj_sink_resize_fn resize;
    void *ctx;      /* the owner's (the binding: the bytes object) */
    int error;      /* sticky: a resize failed */
};

/* Slow path of jj_sink_reserve: room for n more bytes (the capacity grows by half at
 * least, so n appends cost O(n) copies). 0, or -1 (sticky). */
int jj_sink_grow(jj_sink *s, size_t n);

static inline int jj_sink_reserve(jj_sink *s, size_t n) {
    if ((size_t)(s->end - s->pos) >= n) return 0;
    return jj_sink_grow(s, n);
}

static inline size_t jj_sink_len(const jj_sink *s) { return (size_t)(s->pos - s->start); }

static inline int jj_sink_put(jj_sink *s, const void *bytes, size_t n) {
    if (jj_sink_reserve(s, n)) return -1;
    memcpy(s->pos, bytes, n);
    s->pos += n;
    return 0;
}

static inline int jj_sink_put_byte(jj_sink *s, uint8_t c) {
    if (jj_sink_reserve(s, 1)) return -1;
    *s->pos++ = c;
    return 0;
}

/* Shrink the capacity to the length (one resize) and return the length in *len: 0, or
 * -1 when an earlier resize failed or this one does (sticky error). */
int jj_sink_finish(jj_sink *s, size_t *len);

/* A sink in malloc'ed memory with room for `hint` bytes: 0, or -1 (s->error set).
 * After jj_sink_finish the bytes at s->start are the caller's to free(); on error, or
 * to drop them, jj_sink_free_malloc. */
int jj_sink_init_malloc(jj_sink *s, size_t hint);
void jj_sink_free_malloc(jj_sink *s);

#ifdef __cplusplus
}
#endif

#endif
