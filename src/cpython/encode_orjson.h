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
#include "state.h"
#include "writer.h"

/* orjson's limits: a container nested this deep (the root is at depth 0) is refused
 * with "Recursion limit reached" (254 nested lists pass, 255 do not), and `default` may
 * be called at most this many times along one path before "default serializer exceeds
 * recursion limit". */
#define JJ_ENC_MAX_DEPTH 254
#define JJ_ENC_MAX_DEFAULT 255

/* One dumpb call. */
typedef struct jj_orjson_enc {
    jj_state *st;
    jj_writer w;
    PyObject *default_fn; /* borrowed; NULL when no default was given */
    uint32_t opts;
} jj_orjson_enc;

/* jetjson.Fragment: already-serialized JSON, inserted as is. */
typedef struct jj_fragment {
    PyObject_HEAD
    PyObject *contents;
} jj_fragment;

/* Each writer returns 0, or -1 with an exception set. `depth` is the nesting of obj
 * (0 for the root), `ndefault` how many `default` calls led to it. */
int jj_enc_value(jj_orjson_enc *e, PyObject *obj, int depth, int ndefault);

/* orjson's text of a finite double (JJ_DOUBLE_BUF_SIZE bytes of room at out): 1e+16. */
size_t jj_enc_format_double(double v, char *out);

/* The literal of any str (or str subclass); orjson's error for surrogates. */
int jj_enc_str(jj_orjson_enc *e, PyObject *s);

/* 0x80 in each byte of w that is '"', '\\' or below 0x20 (bytes below 0x80 only). */
static inline uint64_t jj_swar_special(uint64_t w) {
    const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
    uint64_t ge_space = w + ones * (0x80 - 0x20);
    uint64_t not_quote = (w ^ (ones * '"')) + ones * 0x7F;
    uint64_t not_bslash = (w ^ (ones * '\\')) + ones * 0x7F;
    return ~(ge_space & not_quote & not_bslash) & highs;
}

/* Copies n < 16 ASCII bytes (two overlapping loads per size class, no libc call) and
 * tells whether one of them needs escaping. The check runs on the loaded words, not on
 * the copy: reading back bytes just stored in pieces stalls store forwarding. */
static inline int jj_copy_short_check(uint8_t *dst, const uint8_t *src, size_t n) {
    if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, src, 8);
        memcpy(&b, src + n - 8, 8);
        memcpy(dst, &a, 8);
        memcpy(dst + n - 8, &b, 8);
        return (jj_swar_special(a) | jj_swar_special(b)) != 0;
    }
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, src, 4);
        memcpy(&b, src + n - 4, 4);
        memcpy(dst, &a, 4);
        memcpy(dst + n - 4, &b, 4);
        return jj_swar_special((uint64_t)a | ((uint64_t)b << 32)) != 0;
    }
    if (n == 0) return 0;
    uint8_t c0 = src[0], c1 = src[n / 2], c2 = src[n - 1];
    dst[0] = c0;
    dst[n / 2] = c1;
    dst[n - 1] = c2;
    /* the unused bytes are 'a', which never needs escaping */
    uint64_t w = (uint64_t)c0 | ((uint64_t)c1 << 8) | ((uint64_t)c2 << 16) | (UINT64_C(0x6161616161) << 24);
    return jj_swar_special(w) != 0;
}

/* The common case inline: an exact ASCII str shorter than 16 without anything to escape.
 * Everything else goes to jj_enc_str. */
static inline int jj_enc_str_fast(jj_orjson_enc *e, PyObject *s) {
    if (PyUnicode_IS_COMPACT_ASCII(s)) {
        size_t n = (size_t)PyUnicode_GET_LENGTH(s);
        if (n < 16) {
            if (jj_writer_reserve(&e->w, 6 * 16 + 2 + 16)) return -1;
            uint8_t *o = e->w.pos;
            o[0] = '"';
            if (!jj_copy_short_check(o + 1, (const uint8_t *)PyUnicode_DATA(s), n)) {
                o[n + 1] = '"';
                e->w.pos = o + n + 2;
                return 0;
            }
        }
    }
    return jj_enc_str(e, s);
}
/* Whether a str holds a surrogate code point (orjson cannot encode it). */
int jj_str_has_surrogate(PyObject *s);

/* Dicts under SORT_KEYS and/or NON_STR_KEYS (depth already checked by the caller). */
int jj_enc_dict_keys(jj_orjson_enc *e, PyObject *dict, int depth, int ndefault);
/* A line break and the indentation of `depth` under INDENT_2 (nothing otherwise). */
int jj_enc_indent(jj_orjson_enc *e, int depth);
static inline int jj_enc_newline(jj_orjson_enc *e, int depth) {
    return (e->opts & JJ_OPT_INDENT_2) ? jj_enc_indent(e, depth) : 0;
}
/* The ':' after a key (": " under INDENT_2). */
static inline int jj_enc_colon(jj_orjson_enc *e) {
    if (e->opts & JJ_OPT_INDENT_2) return jj_writer_put(&e->w, ": ", 2);
    return jj_writer_put_byte(&e->w, ':');
}

/* Every type the walker does not know by its exact type: Fragment, the native kinds,
 * enum, subclasses, dataclasses, then default. */
int jj_enc_other(jj_orjson_enc *e, PyObject *obj, int depth, int ndefault);

/* Raise jetjson.JSONEncodeError(msg); returns -1. */
int jj_enc_fail(jj_orjson_enc *e, const char *msg);

/* Module setup: JSONEncodeError, Fragment, the OPT_* constants, interned names. */
int jj_dumpb_init(jj_state *st, PyObject *module);
int jj_dumpb_traverse(jj_state *st, visitproc visit, void *arg);
void jj_dumpb_clear(jj_state *st);
int jj_fragment_init(jj_state *st, PyObject *module);

/* The module function. */
PyObject *jj_dumpb(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

#endif
