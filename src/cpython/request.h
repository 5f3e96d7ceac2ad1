/* The one request frame of the binding: how every call that reads JSON text (loads,
 * parse, get, get_many, set_path, delete_path, valid, minify, indent) takes its input,
 * runs the engine and turns a refusal into json's exception. */
#ifndef JJ_REQUEST_H
#define JJ_REQUEST_H

#include <string.h>

#include "state.h"

typedef struct jj_request {
    jj_state *st;
    PyObject *source;    /* the caller's object (borrowed) */
    PyObject *text;      /* the str json would parse, when there is one: the source
                          * itself, or bytes in UTF-16/32 or with a BOM decoded the way
                          * json decodes them (then owned, and `in` reads it) */
    jj_thread_parser *tp;
    jj_parser *parser;   /* the thread's parser */
    jj_input in;         /* the UTF-8 bytes the engine reads */
    int opened;
} jj_request;

/* A keyword argument's name (an exact str) is `ascii`: compared in place, where
 * PyUnicode_CompareWithASCIIString's calls cost a tenth of a small document's loads. */
static inline int jj_keyword_is(PyObject *name, const char *ascii) {
    size_t len = strlen(ascii); /* a constant at each call */
    return PyUnicode_IS_ASCII(name) && (size_t)PyUnicode_GET_LENGTH(name) == len &&
           memcmp(PyUnicode_DATA(name), ascii, len) == 0;
}

/* Inputs at least this long are worked on with the GIL released (when nothing else can
 * write to them meanwhile): below it, giving the GIL away and taking it back costs more
 * than the work. */
#define JJ_UNLOCK_MIN_BYTES 16384

/* Takes `source` as json.loads would read it: bytes, bytearray, memoryview or str, by
 * kind, with json's encoding detection. 0; -1 with an exception; or
 * JJ_INPUT_UNSUPPORTED (no exception) for a type json is to judge (jj_request_foreign).
 * jj_request_close must follow whatever it returns. */
int jj_request_open(jj_request *r, jj_state *st, PyObject *source);
/* The same for UTF-8 (or json-detected) bytes the caller holds, such as a mapped file:
 * no source object (json's value, where json must build it, is made from a copy). */
int jj_request_open_memory(jj_request *r, jj_state *st, const uint8_t *buf, size_t len);
void jj_request_close(jj_request *r);

/* Whether the engine's work on this input may run without the GIL. */
int jj_request_unlocks(const jj_request *r);
/* Releases the GIL when jj_request_unlocks (returns the saved state, else NULL);
 * jj_request_relock takes it back. Nothing between them may touch a Python object. */
PyThreadState *jj_request_unlock(const jj_request *r);
void jj_request_relock(PyThreadState *saved);
/* jj_parse / jj_validate on the input, the GIL released where jj_request_unlocks. */
jj_error jj_request_parse(jj_request *r);
jj_error jj_request_validate(jj_request *r, jj_valid_facts *facts);

/* After the engine refused the input with `err`: raises json's exception (-1), or 1
 * when json would accept the text (an input of 4 GiB or more), nothing raised. */
int jj_request_raise(jj_request *r, jj_error err);
/* The same, for a call that returns json's value then. */
PyObject *jj_request_refused(jj_request *r, jj_error err);
/* For JJ_INPUT_UNSUPPORTED: json.loads(source) decides (its TypeError, or a value for
 * types it reads that the engine does not). */
PyObject *jj_request_foreign(jj_request *r);
/* json.loads of the input, for a valid document json must judge: too deep for the
 * recursion room here, or with an int past sys.get_int_max_str_digits(). */
PyObject *jj_request_by_json(jj_request *r);

#endif
