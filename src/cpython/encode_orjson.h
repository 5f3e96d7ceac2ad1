/* dumpb: an encoder whose output is byte for byte orjson.dumps's.
 *
 * Files: encode_orjson.c (entry point, arguments, the walker for the built-in types),
 * encode_orjson_str.c (str literals), encode_orjson_keys.c (dicts with SORT_KEYS or
 * NON_STR_KEYS), encode_orjson_objects.c (enum, dataclass, Fragment, native kinds,
 * default), fragment.c (the jetjson.Fragment type). */
#ifndef JJ_CPYTHON_ENCODE_ORJSON_H
#define JJ_CPYTHON_ENCODE_ORJSON_H

#include <stdint.h>

#include "encode_native.h"
#include "state.h"
#include "writer.h"

/* orjson's limits: a container nested this deep (the root is at depth 0) is refused
 * with "Recursion limit reached", and `default` may be called at most this many times
 * along one path before "default serializer exceeds recursion limit". */
#define JJ_ENC_MAX_DEPTH 255
#define JJ_ENC_MAX_DEFAULT 255

/* One dumpb call. */
typedef struct jj_enc {
    jj_state *st;
    jj_writer w;
    PyObject *default_fn; /* borrowed; NULL when no default was given */
    uint32_t opts;
} jj_enc;

/* jetjson.Fragment: already-serialized JSON, inserted as is. */
typedef struct jj_fragment {
    PyObject_HEAD
    PyObject *contents;
} jj_fragment;

/* Each writer returns 0, or -1 with an exception set. `depth` is the nesting of obj
 * (0 for the root), `ndefault` how many `default` calls led to it. */
int jj_enc_value(jj_enc *e, PyObject *obj, int depth, int ndefault);

/* orjson's text of a finite double (JJ_DOUBLE_BUF_SIZE bytes of room at out). */
size_t jj_enc_format_double(double v, char *out);

/* The literal of any str (or str subclass); orjson's error for surrogates. */
int jj_enc_str(jj_enc *e, PyObject *s);
/* Whether a str holds a surrogate code point (orjson cannot encode it). */
int jj_str_has_surrogate(PyObject *s);

/* Dicts under SORT_KEYS and/or NON_STR_KEYS (depth already checked by the caller). */
int jj_enc_dict_keys(jj_enc *e, PyObject *dict, int depth, int ndefault);
/* A line break and the indentation of `depth` under INDENT_2 (nothing otherwise). */
int jj_enc_newline(jj_enc *e, int depth);
/* The ':' after a key (": " under INDENT_2). */
int jj_enc_colon(jj_enc *e);

/* Every type the walker does not know by its exact type: Fragment, the native kinds,
 * enum, subclasses, dataclasses, then default. */
int jj_enc_other(jj_enc *e, PyObject *obj, int depth, int ndefault);

/* Raise jetjson.JSONEncodeError(msg); returns -1. */
int jj_enc_fail(jj_enc *e, const char *msg);

/* Module setup: JSONEncodeError, Fragment, the OPT_* constants, interned names. */
int jj_encode_init(jj_state *st, PyObject *module);
int jj_encode_traverse(jj_state *st, visitproc visit, void *arg);
void jj_encode_clear(jj_state *st);
int jj_fragment_init(jj_state *st, PyObject *module);

/* The module function. */
PyObject *jj_dumpb(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

#endif
