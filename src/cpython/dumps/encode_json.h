/* jetjson.dumps: the json.dumps-compatible str encoder, shared between its files.
 *
 *   encode_json_out.c    the result str: an ASCII str (writer.h) that widens once to
 *                        latin-1/UCS-2/UCS-4 when a wider character must be written, and
 *                        the string literals in every output kind
 *   encode_json.c        values, lists, dicts, default(), circular and depth checks
 *   encode_json_api.c    dumps/dump: arguments, and what is left to json itself
 *
 * json has two encoders with slightly different behaviour: the C one (c_make_encoder,
 * used by json.dumps without indent) and the pure-Python one (json.dump, and json.dumps
 * with indent). `py_path` selects the second's messages and iteration semantics. */
#ifndef JJ_CPYTHON_ENCODE_JSON_H
#define JJ_CPYTHON_ENCODE_JSON_H

#include "jetjson_write.h"
#include "state.h"
#include "writer.h"

/* ---- the result str (encode_json_out.c) ---- */

typedef struct jj_out {
    jj_writer w; /* pos/start/end are bytes of the str's data */
    int ksize;   /* bytes per character of the buffer: 1, 2 or 4 */
    int ascii;   /* the buffer is still a compact ASCII str (only < 0x80 written) */
} jj_out;

int jj_out_start(jj_out *o, size_t hint);
/* Room for `units` more characters when ksize > 1. */
int jj_out_grow_wide(jj_out *o, size_t units);
/* Make the buffer able to hold characters of `level` (1: latin-1, 2: UCS-2, 4: UCS-4). */
int jj_out_widen(jj_out *o, int level);
PyObject *jj_out_finish(jj_out *o);
void jj_out_abandon(jj_out *o);

static inline int jj_out_reserve(jj_out *o, size_t units) {
    if (o->ksize == 1) return jj_writer_reserve(&o->w, units);
    return jj_out_grow_wide(o, units);
}

/* ASCII bytes (structure, numbers) at the buffer's width; slow path for ksize > 1. */
void jj_out_ascii_wide(jj_out *o, const char *s, size_t n);
static inline int jj_out_ascii(jj_out *o, const char *s, size_t n) {
    if (jj_out_reserve(o, n)) return -1;
    if (o->ksize == 1) {
        memcpy(o->w.pos, s, n);
        o->w.pos += n;
    } else {
        jj_out_ascii_wide(o, s, n);
    }
    return 0;
}

/* The JSON literal of str s (quotes included), json's escaping for ensure_ascii. */
int jj_out_string(jj_out *o, PyObject *s, int ensure_ascii);
/* The characters of str s as they are (separators, indentation). */
int jj_out_raw(jj_out *o, PyObject *s);

/* An ASCII str without anything to escape, 8 bytes at a time, into a 1-byte buffer:
 * 1 when written, 0 when it holds a character to escape (nothing written: the caller
 * takes the general path), -1 on error. esc7f: U+007F is escaped (ensure_ascii). */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The scans are the layer's (jetjson_write.h); the bytes here are all < 0x80. */
/* Reads only the n bytes at p: short strings are covered by overlapping loads. */
static inline int jj_out_plain_ascii(jj_out *o, const uint8_t *p, size_t n, int esc7f) {
    if (n > ((size_t)1 << 24)) return 0;
    if (jj_writer_reserve(&o->w, n + 2)) return -1;
    uint8_t *d = o->w.pos + 1;
    if (n >= 16) {
#if defined(__SSE2__)
        size_t i = 0;
        __m128i v;
        for (; i + 16 <= n; i += 16) {
            v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
            if (jj_escape_flags_m128(v, esc7f)) return 0;
            _mm_storeu_si128((__m128i *)(void *)(d + i), v);
        }
        if (i < n) {
            v = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));
            if (jj_escape_flags_m128(v, esc7f)) return 0;
            _mm_storeu_si128((__m128i *)(void *)(d + n - 16), v);
        }
#else
        uint64_t w;
        size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            memcpy(&w, p + i, 8);
            if (jj_escape_flags7(w, esc7f)) return 0;
            memcpy(d + i, &w, 8);
        }
        memcpy(&w, p + n - 8, 8);
        if (jj_escape_flags7(w, esc7f)) return 0;
        memcpy(d + n - 8, &w, 8);
#endif
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, p, 8);
        memcpy(&b, p + n - 8, 8);
        if (jj_escape_flags7(a, esc7f) | jj_escape_flags7(b, esc7f)) return 0;
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        if (jj_escape_flags7((uint64_t)a | ((uint64_t)b << 32), esc7f)) return 0;
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &b, 4);
    } else if (n > 0) {
        uint64_t w = (uint64_t)p[0] | ((uint64_t)p[n >> 1] << 8) | ((uint64_t)p[n - 1] << 16);
        if (jj_escape_flags7(w, esc7f) & UINT64_C(0x808080)) return 0;
        d[0] = p[0];
        d[n >> 1] = p[n >> 1];
        d[n - 1] = p[n - 1];
    }
    d[-1] = '"';
    d[n] = '"';
    o->w.pos = d + n + 1;
    return 1;
}
#else
static inline int jj_out_plain_ascii(jj_out *o, const uint8_t *p, size_t n, int esc7f) {
    (void)o, (void)p, (void)n, (void)esc7f;
    return 0;
}
#endif

/* The widest character class of a ready str: 0 ASCII, 1 latin-1, 2 UCS-2, 4 UCS-4. */
static inline int jj_str_level(PyObject *s) {
    return PyUnicode_IS_ASCII(s) ? 0 : (int)PyUnicode_KIND(s);
}

/* ---- the encoder (encode_json.c) ---- */

struct jj_live;

typedef struct jj_dumps_enc {
    jj_out out;
    jj_state *st;
    int ensure_ascii, allow_nan, skipkeys, sort_keys, check_circular;
    int py_path;            /* json's pure-Python encoder semantics (indent, json.dump) */
    PyObject *default_fn;   /* borrowed; NULL: json.JSONEncoder.default */
    PyObject *item_sep;     /* borrowed str */
    PyObject *key_sep;      /* borrowed str */
    PyObject *indent;       /* owned str, or NULL for no indentation */
    /* separators and indentation as ASCII bytes when they are ASCII (else seps_raw) */
    const char *item_sep_a, *key_sep_a, *indent_a;
    Py_ssize_t item_sep_n, key_sep_n, indent_n;
    int seps_raw;           /* some separator or the indent is not ASCII */
    int seps_small;         /* both separators ASCII and at most 8 bytes: also as words */
    char item_sep8[8], key_sep8[8];
    PyObject **path;        /* containers (and default()ed objects) being encoded */
    Py_ssize_t depth, path_cap;
    struct jj_live *live;   /* innermost dict iterated in place (C-encoder semantics) */
    Py_ssize_t py_levels_left; /* 3.12's Python encoder: Python frames left, or -1 */
    uintptr_t stack_base;   /* address of a local at the start, for the stack cap */
} jj_dumps_enc;

/* Encode obj into e->out (started by the caller). 0, or -1 with an exception set. */
int jj_dumps_value(jj_dumps_enc *e, PyObject *obj);
void jj_dumps_release(jj_dumps_enc *e);

/* ---- entry points (encode_json_api.c) ---- */

PyObject *jj_dumps(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *jj_dump(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
/* Interned keyword names, cached in the module state (module exec). */
int jj_dumps_init_state(jj_state *st);
/* What dumps takes from json (jj_json_ready, on first need): 0, or -1 with an exception. */
int jj_dumps_init_json(jj_state *st, PyObject *json);
int jj_dumps_traverse_state(jj_state *st, visitproc visit, void *arg);
void jj_dumps_clear_state(jj_state *st);

#endif
