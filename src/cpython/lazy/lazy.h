/* Lazy views (jetjson.parse): a document that owns its tape, and Object/Array views
 * that read it on demand. Shared by lazy_doc.c (documents, parse, lookup tables),
 * lazy_views.c (Object, Array) and lazy_iter.c (keys/values/items views, iterators).
 *
 * A document never changes after parse except for its lookup tables, which are built
 * without calling back into Python, so under the GIL every view may be read from any
 * number of threads. Views hold only their document and the document only its input
 * (bytes or str, or the stream that read it): none of them is a type of the cyclic
 * collector. */
#ifndef JJ_CPYTHON_LAZY_H
#define JJ_CPYTHON_LAZY_H

#include "state.h"

/* Slots of jj_state.lazy_types */
enum {
    JJ_LT_DOCUMENT,
    JJ_LT_OBJECT,
    JJ_LT_ARRAY,
    JJ_LT_KEYS,
    JJ_LT_VALUES,
    JJ_LT_ITEMS,
    JJ_LT_ITER,
    JJ_LT_COUNT_
};

_Static_assert(JJ_LT_COUNT_ == sizeof(((jj_state *)0)->lazy_types) / sizeof(PyObject *),
               "jj_state.lazy_types has one slot per type");

/* Lookup tables of one container, built once enough lookups have scanned it. */
typedef struct jj_table {
    size_t container; /* tape index of its OBJECT/ARRAY word; SIZE_MAX: free slot */
    size_t scanned;   /* entries walked by linear lookups so far */
    size_t *slots;    /* array: tape index of each element; object: hash slots (key index + 1) */
    size_t mask;      /* object: slot count - 1 */
} jj_table;

typedef struct jj_lazy_doc {
    PyObject_HEAD
    jj_parser *parser;     /* holds a lazy tape (jj_parse_lazy), whose raw entries are
                            * finished in place when first read (escaped strings into
                            * its string buffer) */
    const jj_doc *tape;    /* jj_parser_result(parser): tape, strings, max_depth */
    const uint8_t *input;  /* the text the tape points into */
    size_t input_len;
    PyObject *owner;       /* bytes or str holding `input`, or NULL */
    uint8_t *copy;         /* or a private copy of it */
    jj_table *tables;      /* open addressing by container, NULL until needed */
    size_t tables_mask, tables_used;
    int finished;          /* no raw entry left in the whole tape */
    jj_state *st;          /* the module state of its types (lives as long as they do, and
                            * the document holds its type) */
} jj_lazy_doc;

typedef struct jj_view {
    PyObject_HEAD
    jj_lazy_doc *doc;
    size_t at; /* tape index of the OBJECT/ARRAY word */
} jj_view;

typedef struct jj_iter {
    PyObject_HEAD
    jj_lazy_doc *doc;
    size_t pos;  /* tape index of the next element (or key) */
    size_t left; /* elements (pairs) still to give */
    int kind;    /* JJ_LT_ARRAY (elements), JJ_LT_KEYS, JJ_LT_VALUES, JJ_LT_ITEMS */
} jj_iter;

static inline jj_state *jj_lazy_state(PyObject *self) {
    return (jj_state *)PyType_GetModuleState(Py_TYPE(self));
}
static inline size_t jj_count(const jj_lazy_doc *d, size_t at) { return (size_t)d->tape->tape[at + 1]; }
/* jj_lazy_state of a view, without PyType_GetModuleState's call. */
static inline jj_state *jj_view_state(PyObject *self) { return ((jj_view *)self)->doc->st; }

/* lazy_doc.c */
PyObject *jj_parse_py(PyObject *module, PyObject *data);
/* The root view of a new document that takes the container tape just parsed into p
 * (which allocates again for its next parse): a full tape when `finished`, else a
 * lazy one; `owner` holds `input`. The caller's parser must be its own (no Python code
 * may run between its parse and this). */
PyObject *jj_lazy_adopt(jj_state *st, jj_parser *p, const uint8_t *input, size_t len, PyObject *owner,
                        int finished);
int jj_lazy_add_types(PyObject *module, jj_state *st);
/* The value at tape index t: a view for a container, a Python object otherwise. */
PyObject *jj_lazy_value(jj_state *st, jj_lazy_doc *doc, size_t t);
/* The scalar (string or number) at t as a Python object, finished first if raw. */
PyObject *jj_lazy_scalar(jj_state *st, jj_lazy_doc *doc, size_t t);
/* The bytes of the key (a string entry) at t: finished first when its raw text has
 * escapes. NULL with MemoryError set when finishing could not allocate. */
const uint8_t *jj_doc_key(jj_lazy_doc *d, size_t t, size_t *len);
/* Every value at and below t as Python objects (what loads makes). */
PyObject *jj_lazy_build(jj_state *st, jj_lazy_doc *doc, size_t t);
PyObject *jj_new_view(jj_state *st, int type_slot, jj_lazy_doc *doc, size_t at);
/* Tape index of the value of `key` in the object at `at` (first of duplicates), or 0. */
size_t jj_object_find(jj_lazy_doc *doc, size_t at, const uint8_t *key, size_t len);
/* Tape index of element i (< count) of the array at `at`. */
size_t jj_array_element(jj_lazy_doc *doc, size_t at, size_t i);
/* The UTF-8 (WTF-8 for lone surrogates, as the tape holds them) of a str key. Sets
 * *bytes to a new reference when it had to make one. NULL with an exception set. */
const char *jj_key_utf8(PyObject *key, Py_ssize_t *len, PyObject **bytes);

/* lazy_views.c */
extern PyType_Spec jj_object_spec, jj_array_spec;

/* lazy_iter.c */
extern PyType_Spec jj_keys_spec, jj_values_spec, jj_items_spec, jj_iter_spec;
PyObject *jj_new_iter(jj_state *st, jj_lazy_doc *doc, size_t at, int kind);
PyObject *jj_new_dict_view(jj_state *st, jj_view *of, int kind);

#endif
