/* Streams of documents (loads_many, parse_many and what python/jetjson builds on them):
 * an iterator that owns its input and its parser, reads the documents of one buffer in
 * windows of about batch_size bytes, and gives each as a Python object, a lazy view,
 * or the values at some JSON Pointers.
 *
 * Files: many.c (input, windows, the formats' rules), many_type.c (the iterator type,
 * its constructor and fields=), many_docs.c (one document: its value, the values at the
 * fields, json's verdict when the engine refuses it),
 * many_stream.c (file objects, Decoder chunks), many_threads.c (windows parsed ahead on
 * the engine's worker pool, threads=N). */
#ifndef JJ_CPYTHON_STREAMS_MANY_H
#define JJ_CPYTHON_STREAMS_MANY_H

#include "state.h"

#include "jetjson_gate.h"
#include "jetjson_paths.h"
#include "jetjson_pool.h"

/* How documents are separated (the format= keyword). */
typedef enum jj_many_format {
    JJ_FMT_WHITESPACE, /* by white space or nothing (NDJSON, JSON Lines, concatenated) */
    JJ_FMT_LINES,      /* one per line */
    JJ_FMT_JSON_SEQ,   /* RFC 7464: each after an RS byte (0x1E) */
    JJ_FMT_COMMA,      /* by a comma (and white space) */
    JJ_FMT_ARRAY,      /* the elements of one top-level array */
} jj_many_format;

typedef struct jj_many_iter {
    PyObject_HEAD
    jj_state *st;
    jj_many_format format;
    int lazy;                /* parse_many: container documents as views */
    /* the input: UTF-8 bytes buf[0..len), held by `owner` (bytes, str, or the object a
     * read-only buffer came from) or by `copy` */
    PyObject *owner;
    Py_buffer view;
    int has_view;
    int file_map;            /* the view is a read-only mapped file: pages read are given back */
    size_t given_back;       /* buf[0..given_back) was given back to the kernel */
    uint8_t *copy;
    const uint8_t *buf;
    size_t len;
    PyObject *text;          /* the str json reads (a str input, or bytes json decodes) */
    /* streamed input (a file object read in blocks, or chunks fed to a Decoder): buf is
     * `copy`, holding the bytes from the next document on; what was dropped before it
     * counts in `origin` (for error positions) */
    int streamed;
    PyObject *reader;        /* the file's readinto (or read) method, or NULL (fed) */
    int reads_into;          /* reader is readinto: bytes land in `copy` directly */
    int eof;                 /* nothing more will come */
    int starved;             /* fed: the last document needs more bytes */
    int bom_checked;         /* the first bytes were looked at for a UTF-8 BOM */
    size_t cap;
    jj_text_position origin; /* where buf[0] is in the whole input */
    size_t want_next;        /* the next window's size, when not batch */
    size_t array_resume;     /* array: just after the last '[' or ',' (streamed errors) */
    size_t array_verdict_at; /* array fed without its '[': json's verdict waits for this length */
    int array_after_comma;   /* ... which was a ',' */
    PyObject *cur_owner;     /* the bytes of the document in hand, when streamed */
    PyObject *failure;       /* fed: an error to raise on the next call */
    /* fed, starved: the next chunks are scanned for a byte that may end the document
     * that starts at gate_from (a bracket closing it, a line break...) before it is
     * parsed again, or until the bytes in hand reach gate_until: a big document fed in
     * small chunks is then read a bounded number of times, not once per chunk */
    int gated;
    size_t gate_from, gate_scan, gate_until;
    jj_gate gate_state;      /* the scan's strings and nesting at gate_scan */
    PyObject *utf8;          /* bytes holding exactly buf, made when an error needs it */
    /* the engine */
    jj_parser *parser;
    jj_many many;
    int spans;               /* the windows give spans (JJ_MANY_SPANS), parsed lazily one by
                              * one into doc_parser: parse_many's way */
    jj_parser *doc_parser;
    /* the document in hand: its parser and what that parser read */
    jj_parser *cur;
    const uint8_t *cur_input;
    size_t cur_len;
    int cur_lazy;
    size_t window;           /* buf offset of the current window (many reads buf + window) */
    size_t window_len;
    size_t batch;            /* bytes per window */
    int window_open;
    int window_quick;        /* its documents take jj_next_document's short way (jj_open_window) */
    int window_plain;        /* ... and are plain values, built from `result` (jj_quick_document) */
    const jj_doc *result;    /* jj_parser_result(parser), for those */
    size_t pos;              /* where the next window starts */
    size_t prev_end;         /* end of the last document (lines: where its line goes on) */
    int count;               /* documents given so far (capped at 2: "is there one before") */
    int separated;           /* comma/array: a separator came after the last document */
    int array_state;         /* array: 0 before '[', 1 inside, 2 after ']' */
    int done;
    int busy;                /* inside next(): a finalizer may not re-enter */
    /* threads=N (many_threads.c): windows parsed ahead on the pool; `ahead` is the one
     * being read (its documents replace jj_many_next's), NULL when read here */
    struct jj_many_threads *threads;
    jj_window *ahead;
    size_t ahead_next;       /* its next document */
    size_t ahead_hits, ahead_misses; /* windows read from the pool / dropped (tests) */
    jj_parser *ahead_view;   /* a read-only view of that document's tape (jj_window_view) */
    /* fields= */
    PyObject *fields;        /* tuple of the pointers as bytes, or NULL */
    int single;              /* fields was one pointer: the value itself, not a tuple */
    PyObject *default_value;
    /* whitespace and lines: documents skimmed for the fields (jj_many_next_fields), NULL
     * when the pointers do not allow it; the values found for the document in hand */
    jj_fields_plan *fields_plan;
    jj_field_span *field_spans;
    PyObject *skim_value;
    /* type= (typed/typed_stream.c): each document built as this compiled type (a
     * capsule; the windows then give spans, each parsed lazily), errors naming the
     * document's number */
    PyObject *typed_plan;
    int typed_flags;
    Py_ssize_t typed_index; /* the next document's number */
} jj_many_iter;

/* many_docs.c: the Python value of the document p just parsed (jj_parse_lazy's tape
 * when lazy_tape) from `input` (what p read: the window, or the document), whose text
 * is buf[start, end); what fields= asks for, when given; a view with parse_many. */
PyObject *jj_many_value(jj_many_iter *it, jj_parser *p, const uint8_t *input, size_t input_len, size_t start,
                        size_t end, int lazy_tape);
/* What fields= gives for the document on p's tape (jj_many_tape_value). */
PyObject *jj_many_tape_fields(jj_many_iter *it, jj_parser *p, const uint8_t *input, size_t input_len, int lazy_tape);
/* The value of buf[start, end), a document the engine refused that json takes (NaN, an
 * escaped lone surrogate...), by json.loads; fields= applied to it. */
PyObject *jj_many_json_value(jj_many_iter *it, size_t start, size_t end);
/* The part of jj_many_value after its tests: the value (or fields) built from p's tape
 * (doc), json deciding where the document is too deep or holds an int past the digits
 * limit. Inline: the plain documents of loads_many (many.c) come here straight. */
static inline PyObject *jj_many_tape_value(jj_many_iter *it, jj_parser *p, const jj_doc *doc, const uint8_t *input,
                                           size_t input_len, size_t start, size_t end, int lazy_tape) {
    int room = jj_depth_check_inline(doc);
    if (room < 0) return NULL;
    if (room == 0) return jj_many_json_value(it, start, end); /* json must decide */
    int gc_was_enabled = PyGC_Disable();
    PyObject *result = it->fields ? jj_many_tape_fields(it, p, input, input_len, lazy_tape)
                                  : jj_build_value_at(it->st, doc, input, 0);
    if (gc_was_enabled) PyGC_Enable();
    if (!result && !PyErr_ExceptionMatches(PyExc_MemoryError)) { /* an int past the digits limit */
        PyErr_Clear();
        return jj_many_json_value(it, start, end);
    }
    return result;
}
/* Raises json's exception for the verdict of jj_json_explain on text starting at byte
 * `start`: -1; or 1 (nothing raised) when the verdict is that json accepts it. */
int jj_many_raise(jj_many_iter *it, size_t start, const jj_json_verdict *v);
/* The bytes of the UTF-8 text at buf[start, end) as json.loads would decode them, when
 * the engine found bad UTF-8 there: -1 with json's UnicodeDecodeError (positions in the
 * whole input), or 0 when they decode after all (lone surrogates written with
 * 'surrogatepass'), for json to judge. */
int jj_many_check_utf8(jj_many_iter *it, size_t start, size_t end);

/* The fields of a document jj_many_next_fields skimmed (it->cur_input holds it), into
 * it->skim_value for jj_many_value to give: 0. When a value found is one the engine
 * refuses or leaves to json, the document is read again the whole way instead: 1 with
 * *err, *start, *end jj_many_reparse's (a plain tape). -1 with an exception. */
int jj_many_skim_fields(jj_many_iter *it, jj_error *err, size_t *start, size_t *end);
/* The value of a one-value tape (at tape index 0, read from `input`) that the skim found
 * for a field: a new reference; NULL with an exception (MemoryError); or NULL without
 * one when the whole document must be read instead (too deep, an int past the digits
 * limit: json decides). */
PyObject *jj_many_field_value(jj_many_iter *it, const jj_doc *doc, const uint8_t *input);
/* Field i of the document in hand, as jj_many_field_value gives it (the default value
 * when missing). */
typedef PyObject *(*jj_field_value_fn)(jj_many_iter *it, void *ctx, Py_ssize_t i);
/* What fields= gives for the document in hand, from field(it, ctx, i) for each pointer,
 * into it->skim_value: 0; 1 (nothing raised) when a field says the whole document must be
 * read instead; -1 with an exception. */
int jj_many_build_fields(jj_many_iter *it, jj_field_value_fn field, void *ctx);

/* many.c: the bytes of the window the iterator opens at buf[pos] when it wants `want`. */
size_t jj_many_window_size(const jj_many_iter *it, size_t pos, size_t want);
/* The last byte c in b[0..n), or NULL. */
const uint8_t *jj_memrchr(const uint8_t *b, uint8_t c, size_t n);

/* many_threads.c. Starts reading ahead on `workers` pool threads: 0, or -1. */
int jj_threads_start(jj_many_iter *it, Py_ssize_t workers);
/* At a window's opening: 1 when the window at it->pos was parsed ahead (it->ahead set,
 * the window opened), 0 when the caller opens it (what is ahead is dropped when it is
 * not that window, and reading ahead goes on after it), -1 with an exception. */
int jj_threads_open(jj_many_iter *it, size_t want);
/* jj_many_next's result for the next document of it->ahead (it->ahead_view set); for a
 * document the worker skimmed, JJ_OK with it->skim_value built (JJ_ERR_VALUE when it must
 * be read again here, JJ_ERR_NOMEM with MemoryError). */
jj_error jj_threads_next(jj_many_iter *it, size_t *start, size_t *end);
/* The lazy tape of that document into it->doc_parser (parse_many): jj_parse_lazy's result. */
jj_error jj_threads_take_lazy(jj_many_iter *it);
/* Stops reading ahead: waits for the windows in work and frees them. */
void jj_threads_stop(jj_many_iter *it);

PyObject *jj_many_open(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* Takes `data` as loads_many reads it (many.c): 0, or -1 with an exception. */
int jj_many_take_input(jj_many_iter *it, PyObject *data);
/* The next document's value; NULL at the end, with an exception, or (fed) starved. */
PyObject *jj_many_next_value(jj_many_iter *it);
/* many_stream.c: streamed input. */
int jj_stream_take_reader(jj_many_iter *it, PyObject *file);
/* Keeps buf[keep..len) (moved to the start) and reads until `want` bytes from it->pos
 * (keep, or later for an array) are in hand or the file ends: 0, or -1. */
int jj_stream_refill(jj_many_iter *it, size_t keep, size_t want);
/* Appends bytes fed to a Decoder (after dropping what is done): 0 or -1. */
int jj_stream_append(jj_many_iter *it, const uint8_t *bytes, size_t n);
/* A Decoder starved by the document at buf[from..): waits for a byte that may end it,
 * or for `want` bytes from `from` (at least twice what is in hand). */
void jj_stream_gate(jj_many_iter *it, size_t from, size_t want);
extern PyMethodDef jj_stream_methods[];
/* _ahead(): (windows read from the pool, windows dropped, reading ahead now) for tests. */
PyObject *jj_threads_stats(PyObject *self, PyObject *unused);
int jj_many_add_type(PyObject *module, jj_state *st);

#endif
