/* dumpb: an encoder whose output is byte for byte orjson.dumps's.
 *
 * Files: encode_orjson.c (entry point, arguments, the walker for the built-in types),
 * encode_orjson_str.c (str literals), encode_orjson_keys.c (dicts with SORT_KEYS or
 * NON_STR_KEYS), encode_orjson_objects.c (enum, dataclass, Fragment, native kinds,
 * default), fragment.c (the jetjson.Fragment type). */
#ifndef JJ_CPYTHON_ENCODE_ORJSON_H
#define JJ_CPYTHON_ENCODE_ORJSON_H

#include <stdint.h>
#include <string.h>

#include "encode_native.h"
#include "jetjson_write.h"
#include "state.h"
#include "writer.h"

/* orjson's limits: a container nested this deep (the root is at depth 0) is refused
 * with "Recursion limit reached" (254 nested lists pass, 255 do not), and `default` may
 * be called at most this many times along one path before "default serializer exceeds
 * recursion limit". */
#define JJ_ENC_MAX_DEPTH 254
#define JJ_ENC_MAX_DEFAULT 255

/* One dumpb call. */
typedef struct jj_dumpb_enc {
    jj_state *st;
    jj_writer w;
    PyObject *default_fn; /* borrowed; NULL when no default was given (None when None was) */
    jj_dumpb_opts opts;
} jj_dumpb_enc;

/* jetjson.Fragment: already-serialized JSON, inserted as is. */
typedef struct jj_fragment {
    PyObject_HEAD
    PyObject *contents;
} jj_fragment;

/* Each writer returns 0, or -1 with an exception set. `depth` is the nesting of obj
 * (0 for the root), `ndefault` how many `default` calls led to it. */
int jj_dumpb_value(jj_dumpb_enc *e, PyObject *obj, int depth, int ndefault);

/* orjson's text of a finite double (JJ_DOUBLE_BUF_SIZE bytes of room at out): 1e+16. */
size_t jj_dumpb_format_double(double v, char *out);

/* The literal of any str (or str subclass); orjson's error for surrogates. */
int jj_dumpb_str(jj_dumpb_enc *e, PyObject *s);

/* The escaped text of n ASCII bytes (orjson's escapes), without quotes, at out, which
 * has room for 6n + JJ_STR_SLACK bytes; returns its length. The 16 bytes before
 * src + n must be readable when n >= 16 (they are inside the text then). */
#define JJ_STR_SLACK 16
size_t jj_dumpb_ascii_body(const uint8_t *src, size_t n, uint8_t *out);

/* Short strings without a branch on their length.
 *
 * jj_copy_tail16 copies the r bytes (1 <= r <= 16) that end at `end` to dst and tells
 * whether one of them needs escaping (an ASCII '"', '\\' or control character; the bytes
 * must be ASCII). It reads the 16 bytes before `end`, which the caller guarantees are
 * readable, shifts the r wanted ones down in registers and stores all 16 bytes at dst
 * (the 16 - r after the copy are zeros, for the caller to overwrite). Lengths are
 * unpredictable in real documents, so one path for all of them beats a branch per size
 * class. */
#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 jj_u128;
#endif

/* bit i set when byte i of the 16 at p needs escaping (or is not ASCII) */
static inline uint32_t jj_special16(const uint8_t *p) { return jj_escape_flags16(p, 0); }

static inline void jj_copy16(uint8_t *dst, const uint8_t *src) {
    uint64_t a, b;
    memcpy(&a, src, 8);
    memcpy(&b, src + 8, 8);
    memcpy(dst, &a, 8);
    memcpy(dst + 8, &b, 8);
}

/* Copies 16 bytes and tells which need escaping, from one load: the scalar copy beside
 * the vector check loaded every byte twice, and long strs (URLs) ran at 0.86x
 * fastsimdjson's dumpb_many. */
static inline uint32_t jj_copy_check16(uint8_t *dst, const uint8_t *src) {
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)src);
    _mm_storeu_si128((__m128i *)(void *)dst, v);
    return jj_escape_flags_m128(v, 0);
#else
    jj_copy16(dst, src);
    return jj_special16(src);
#endif
}

static inline int jj_copy_tail16(uint8_t *dst, const uint8_t *end, size_t r) {
    const uint8_t *src = end - 16;
    unsigned drop = (unsigned)(16 - r); /* leading bytes that are not ours: 0..15 */
    int bad = (jj_special16(src) >> drop) != 0;
    uint64_t lo, hi;
    memcpy(&lo, src, 8);
    memcpy(&hi, src + 8, 8);
#if defined(__SIZEOF_INT128__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    jj_u128 v = (((jj_u128)hi << 64) | lo) >> (8 * drop);
    lo = (uint64_t)v;
    hi = (uint64_t)(v >> 64);
    memcpy(dst, &lo, 8);
    memcpy(dst + 8, &hi, 8);
#else
    (void)lo;
    (void)hi;
    memset(dst, 0, 16);
    memcpy(dst, end - r, r);
#endif
    return bad;
}

/* The characters of a str known to be compact ASCII: they follow the PyASCIIObject
 * header. PyUnicode_DATA tests compact and ASCII again on every call, 5 instructions a
 * str (4% of apache_builds.json's, with a key and a value str per pair). */
static inline const uint8_t *jj_ascii_data(PyObject *s) {
    return (const uint8_t *)(const void *)((PyASCIIObject *)s + 1);
}

/* Keys up to this long are written inline by the dict walker. */
#define JJ_SHORT_STR 32

/* The literal body of a compact ASCII str of n <= JJ_SHORT_STR characters, stored as
 * n bytes and some zeros (up to JJ_SHORT_STR in all); nonzero when a character needs
 * escaping. Dict keys take it: straight-line, it runs 1.8% fewer instructions on
 * citm_catalog.json than jj_copy_ascii_str's loop below. The 16 bytes before the end of the text are always inside the str object
 * (its header is longer than 16 bytes), so jj_copy_tail16 may read them. */
static inline int jj_copy_short_str(uint8_t *dst, PyObject *s, size_t n) {
    const uint8_t *data = jj_ascii_data(s);
    if (n > 16) { /* the first 16 bytes, then the last 16 over them */
        jj_copy16(dst, data);
        jj_copy16(dst + n - 16, data + n - 16);
        return (jj_special16(data) | jj_special16(data + n - 16)) != 0;
    }
    if (n == 0) return 0;
    return jj_copy_tail16(dst, data + n, n);
}
_Static_assert(sizeof(PyASCIIObject) >= 16, "a short str's 16 bytes must stay inside the object");

/* Strs up to this long are tried inline as values (jj_dumpb_str_fast). */
#define JJ_INLINE_STR 512

/* jj_copy_ascii_str for n > 64 (encode_orjson_str.c), out of line: it stays small
 * where it is inlined (dict values, list runs, keys). */
int jj_copy_ascii_long(uint8_t *dst, const uint8_t *data, size_t n);

/* The body of a compact ASCII str of 1 <= n characters, stored as n bytes and up to 15
 * more (room for n + 16 at dst); nonzero when a character needs escaping. Below 16
 * characters jj_copy_tail16; up to 64 straight-line blocks, the last ones ending at the
 * end of the text (no shift, no loop); longer ones 32 bytes a step. Checked once at
 * the end. */
static inline int jj_copy_ascii_str(uint8_t *dst, const uint8_t *data, size_t n) {
    if (n < 16) return jj_copy_tail16(dst, data + n, n);
    if (n <= 32) return (jj_copy_check16(dst, data) | jj_copy_check16(dst + n - 16, data + n - 16)) != 0;
    if (n <= 64) /* the first 32 bytes and the last 32, overlapping */
        return (jj_copy_check16(dst, data) | jj_copy_check16(dst + 16, data + 16) |
                jj_copy_check16(dst + n - 32, data + n - 32) | jj_copy_check16(dst + n - 16, data + n - 16)) != 0;
    return jj_copy_ascii_long(dst, data, n);
}

/* The literal of s at o (room for its length + 18 bytes) when s is the common case: a
 * compact ASCII str of at most JJ_INLINE_STR characters without anything to escape
 * (written, then checked once). Returns the end of the literal, or NULL when the caller
 * must write s another way (what was stored at o is then no matter). */
static inline uint8_t *jj_put_ascii_literal(uint8_t *o, PyObject *s, size_t n, int direct) {
    o[0] = '"';
    const uint8_t *data = direct ? jj_ascii_data(s) : (const uint8_t *)PyUnicode_DATA(s);
    if (n && jj_copy_ascii_str(o + 1, data, n)) return NULL;
    o[n + 1] = '"';
    return o + n + 2;
}

/* Whether jj_put_ascii_literal takes s; its length in *n. */
static inline int jj_inline_ascii(PyObject *s, size_t *n) {
    if (!PyUnicode_IS_COMPACT_ASCII(s)) return 0;
    *n = (size_t)PyUnicode_GET_LENGTH(s);
    return *n <= JJ_INLINE_STR;
}

/* An exact str by jj_put_ascii_literal: 1 when written, 0 when the caller must write it
 * another way (nothing committed), -1 on error. */
static inline int jj_try_ascii_str(jj_dumpb_enc *e, PyObject *s) {
    size_t n;
    if (!jj_inline_ascii(s, &n)) return 0;
    if (jj_writer_reserve(&e->w, n + 18)) return -1;
    uint8_t *end = jj_put_ascii_literal(e->w.pos, s, n, 1);
    if (!end) return 0;
    e->w.pos = end;
    return 1;
}

/* Any exact str, the common ones inline; the rest through jj_dumpb_str. */
static inline int jj_dumpb_str_fast(jj_dumpb_enc *e, PyObject *s) {
    int done = jj_try_ascii_str(e, s);
    if (done) return done < 0 ? -1 : 0;
    return jj_dumpb_str(e, s);
}
/* Whether a str holds a surrogate code point (orjson cannot encode it). */
int jj_str_has_surrogate(PyObject *s);

/* Dicts under SORT_KEYS and/or NON_STR_KEYS (depth already checked by the caller). */
int jj_dumpb_dict_keys(jj_dumpb_enc *e, PyObject *dict, int depth, int ndefault);
/* A line break and the indentation of `depth` under INDENT_2 (nothing otherwise). */
int jj_dumpb_indent(jj_dumpb_enc *e, int depth);
static inline int jj_dumpb_newline(jj_dumpb_enc *e, int depth) {
    return e->opts.indent_2 ? jj_dumpb_indent(e, depth) : 0;
}
/* The ':' after a key (": " under INDENT_2). */
static inline int jj_dumpb_colon(jj_dumpb_enc *e) {
    if (e->opts.indent_2) return jj_writer_put(&e->w, ": ", 2);
    return jj_writer_put_byte(&e->w, ':');
}

/* Every type the walker does not know by its exact type: Fragment, the native kinds,
 * enum, subclasses, dataclasses, then default. */
int jj_dumpb_other(jj_dumpb_enc *e, PyObject *obj, int depth, int ndefault);

/* Raise jetjson.JSONEncodeError(msg) (TypeError itself, as orjson's is); returns -1. */
int jj_dumpb_fail(jj_dumpb_enc *e, const char *msg);

/* Module setup: JSONEncodeError, Fragment, the OPT_* constants, interned names. */
int jj_dumpb_init(jj_state *st, PyObject *module);
/* Whether obj is an enum member. enum.EnumMeta is taken from sys.modules once enum has
 * been imported (no member can exist before), so importing jetjson does not import it. */
int jj_is_enum_member(jj_state *st, PyObject *obj);
int jj_dumpb_traverse(jj_state *st, visitproc visit, void *arg);
void jj_dumpb_clear(jj_state *st);
int jj_fragment_init(jj_state *st, PyObject *module);

/* The module function. */
PyObject *jj_dumpb(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

#endif
