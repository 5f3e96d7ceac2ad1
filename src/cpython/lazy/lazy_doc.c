/* jetjson.parse: documents that own their tape, values read on demand, and the lookup
 * tables (object key hashes, array element offsets) built lazily per container. */
#include <stdlib.h>
#include <string.h>

#include "lazy.h"
#include "request.h"

/* Containers this small are always scanned: a table would cost more than it saves. */
#define JJ_SCAN_ONLY 16
/* A dead document's buffers of up to this size go back to the thread's parser (which
 * itself keeps up to 64 MiB in all, see thread_parser.c). */
#define JJ_RECYCLE_MAX ((size_t)16 << 20)

/* ---- values ---- */

PyObject *jj_new_view(jj_state *st, int type_slot, jj_lazy_doc *doc, size_t at) {
    jj_view *v = PyObject_New(jj_view, (PyTypeObject *)st->lazy_types[type_slot]);
    if (!v) return NULL;
    v->doc = (jj_lazy_doc *)Py_NewRef((PyObject *)doc);
    v->at = at;
    return (PyObject *)v;
}

PyObject *jj_lazy_scalar(jj_state *st, jj_lazy_doc *doc, size_t t) {
    if (jj_tape_is_raw(doc->tape->tape, t) && jj_lazy_finish(doc->parser, doc->input, doc->input_len, t) != JJ_OK)
        return PyErr_NoMemory();
    return jj_build_value_at(st, doc->tape, doc->input, t);
}

PyObject *jj_lazy_value(jj_state *st, jj_lazy_doc *doc, size_t t) {
    switch (jj_tape_type(doc->tape->tape[t])) {
    case JJ_OBJECT: return jj_new_view(st, JJ_LT_OBJECT, doc, t);
    case JJ_ARRAY: return jj_new_view(st, JJ_LT_ARRAY, doc, t);
    default: return jj_lazy_scalar(st, doc, t);
    }
}

PyObject *jj_lazy_build(jj_state *st, jj_lazy_doc *doc, size_t t) {
    if (!doc->finished) {
        /* everything below t, finished once (the whole document when t is the root) */
        if (jj_lazy_finish_range(doc->parser, doc->input, doc->input_len, t, jj_tape_skip(doc->tape->tape, t)) != JJ_OK)
            return PyErr_NoMemory();
        if (t == 0) doc->finished = 1;
    }
    int gc_was_enabled = PyGC_Disable();
    PyObject *v = jj_build_value_at(st, doc->tape, doc->input, t);
    if (gc_was_enabled) PyGC_Enable();
    return v;
}

/* ---- lookup tables ---- */

static inline uint64_t jj_hash_bytes(const uint8_t *s, size_t len) {
    uint64_t h = UINT64_C(0x9e3779b97f4a7c15) ^ len;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        h = (h ^ w) * UINT64_C(0xff51afd7ed558ccd);
        h ^= h >> 29;
    }
    for (; i < len; i++) h = (h ^ s[i]) * UINT64_C(0x100000001b3);
    h ^= h >> 32;
    return h * UINT64_C(0xc4ceb9fe1a85ec53);
}

/* A key's bytes: a raw key without escapes is its own text already. */
const uint8_t *jj_doc_key(jj_lazy_doc *d, size_t t, size_t *len) {
    uint64_t w = d->tape->tape[t];
    if (__builtin_expect((jj_tape_str_flags(w) & (JJ_STR_RAW | JJ_STR_ESCAPED)) == (JJ_STR_RAW | JJ_STR_ESCAPED), 0)) {
        if (jj_lazy_finish(d->parser, d->input, d->input_len, t) != JJ_OK) {
            PyErr_NoMemory();
            return NULL;
        }
        w = d->tape->tape[t];
    }
    *len = jj_tape_str_bytes(d->tape->tape[t + 1]);
    return (jj_tape_str_flags(w) & JJ_STR_IN_INPUT ? d->input : d->tape->strings) + jj_tape_str_offset(w);
}

/* The table entry of a container: found, or (create) made; NULL when absent, or when
 * memory is short (the callers then just scan). */
static jj_table *jj_table_of(jj_lazy_doc *d, size_t container, int create) {
    if (!d->tables && !create) return NULL;
    if (create && (!d->tables || (d->tables_used + 1) * 2 > d->tables_mask + 1)) {
        size_t cap = d->tables ? (d->tables_mask + 1) * 2 : 16;
        jj_table *fresh = PyMem_Calloc(cap, sizeof *fresh);
        if (!fresh) return NULL;
        for (size_t i = 0; i < cap; i++) fresh[i].container = SIZE_MAX;
        for (size_t i = 0; d->tables && i <= d->tables_mask; i++) {
            if (d->tables[i].container == SIZE_MAX) continue;
            size_t j = (d->tables[i].container * 0x9e3779b97f4a7c15u >> 7) & (cap - 1);
            while (fresh[j].container != SIZE_MAX) j = (j + 1) & (cap - 1);
            fresh[j] = d->tables[i];
        }
        PyMem_Free(d->tables);
        d->tables = fresh;
        d->tables_mask = cap - 1;
    }
    size_t j = (container * 0x9e3779b97f4a7c15u >> 7) & d->tables_mask;
    while (d->tables[j].container != SIZE_MAX) {
        if (d->tables[j].container == container) return &d->tables[j];
        j = (j + 1) & d->tables_mask;
    }
    if (!create) return NULL;
    d->tables[j].container = container;
    d->tables_used++;
    return &d->tables[j];
}

/* -1 with an exception set when a key could not be finished. */
static int jj_build_object_table(jj_lazy_doc *d, jj_table *tb, size_t at) {
    size_t n = jj_count(d, at), cap = 32;
    while (cap < 2 * n) cap *= 2;
    size_t *slots = PyMem_Calloc(cap, sizeof *slots);
    if (!slots) return 0;
    const uint64_t *tape = d->tape->tape; /* finishing keys never moves the tape */
    size_t t = at + 2;
    for (size_t k = 0; k < n; k++, t = jj_tape_skip(tape, t + 2)) {
        size_t len = 0, olen = 0;
        const uint8_t *s = jj_doc_key(d, t, &len);
        if (!s) {
            PyMem_Free(slots);
            return -1;
        }
        size_t j = (size_t)jj_hash_bytes(s, len) & (cap - 1);
        for (; slots[j]; j = (j + 1) & (cap - 1)) { /* keep the first of duplicate keys */
            const uint8_t *o = jj_doc_key(d, slots[j] - 1, &olen); /* finished already */
            if (olen == len && memcmp(o, s, len) == 0) break;
        }
        if (!slots[j]) slots[j] = t + 1;
    }
    tb->slots = slots;
    tb->mask = cap - 1;
    return 0;
}

size_t jj_object_find(jj_lazy_doc *d, size_t at, const uint8_t *key, size_t len) {
    size_t n = jj_count(d, at);
    jj_table *tb = n > JJ_SCAN_ONLY ? jj_table_of(d, at, 0) : NULL;
    if (tb && tb->slots) {
        for (size_t j = (size_t)jj_hash_bytes(key, len) & tb->mask; tb->slots[j]; j = (j + 1) & tb->mask) {
            size_t klen = 0;
            const uint8_t *s = jj_doc_key(d, tb->slots[j] - 1, &klen);
            if (klen == len && memcmp(s, key, len) == 0) return tb->slots[j] + 1;
        }
        return 0;
    }
    const uint64_t *tape = d->tape->tape;
    size_t t = at + 2, found = 0, k = 0;
    for (; k < n; k++, t = jj_tape_skip(tape, t + 2)) {
        uint64_t w = tape[t];
        size_t klen = jj_tape_str_bytes(tape[t + 1]);
        unsigned flags = jj_tape_str_flags(w);
        if (!(flags & JJ_STR_ESCAPED)) {
            /* the key's bytes as they are: in the input, or unescaped already */
            if (klen != len) continue;
            const uint8_t *s = (flags & JJ_STR_IN_INPUT ? d->input : d->tape->strings) + jj_tape_str_offset(w);
            if (memcmp(s, key, len) == 0) {
                found = t + 2;
                break;
            }
            continue;
        }
        /* the length of a key still escaped says nothing: finish it first */
        const uint8_t *s = jj_doc_key(d, t, &klen);
        if (!s) return SIZE_MAX;
        tape = d->tape->tape;
        if (klen == len && memcmp(s, key, len) == 0) {
            found = t + 2;
            break;
        }
    }
    /* Once long scans (short ones cost less than a table) have walked the object about
     * once over, index it. */
    if (n > JJ_SCAN_ONLY && k >= JJ_SCAN_ONLY) {
        if (!tb) tb = jj_table_of(d, at, 1);
        if (tb && (tb->scanned += k + 1) > n && jj_build_object_table(d, tb, at) < 0) return SIZE_MAX;
    }
    return found;
}

static void jj_build_array_table(jj_lazy_doc *d, jj_table *tb, size_t at) {
    size_t n = jj_count(d, at);
    size_t *slots = PyMem_Malloc(n * sizeof *slots);
    if (!slots) return;
    const uint64_t *tape = d->tape->tape; /* finishing entries never moves the tape */
    size_t t = at + 2;
    for (size_t k = 0; k < n; k++, t = jj_tape_skip(tape, t)) slots[k] = t;
    tb->slots = slots;
}

size_t jj_array_element(jj_lazy_doc *d, size_t at, size_t i) {
    size_t n = jj_count(d, at);
    jj_table *tb = n > JJ_SCAN_ONLY && i > JJ_SCAN_ONLY ? jj_table_of(d, at, 1) : NULL;
    if (tb && tb->slots) return tb->slots[i];
    const uint64_t *tape = d->tape->tape;
    size_t t = at + 2;
    for (size_t k = 0; k < i; k++) t = jj_tape_skip(tape, t);
    if (tb && (tb->scanned += i) > n) jj_build_array_table(d, tb, at);
    return t;
}

const char *jj_key_utf8(PyObject *key, Py_ssize_t *len, PyObject **bytes) {
    *bytes = NULL;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(key) < 0) return NULL; /* a legacy str made by the deprecated wchar API */
#endif
    if (PyUnicode_IS_ASCII(key)) {
        *len = PyUnicode_GET_LENGTH(key);
        return PyUnicode_DATA(key);
    }
    const char *s = PyUnicode_AsUTF8AndSize(key, len);
    if (s || !PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return s;
    /* lone surrogates: the tape holds them as 3-byte sequences, as surrogatepass does */
    PyErr_Clear();
    *bytes = PyUnicode_AsEncodedString(key, "utf-8", "surrogatepass");
    if (!*bytes) return NULL;
    *len = PyBytes_GET_SIZE(*bytes);
    return PyBytes_AS_STRING(*bytes);
}

/* ---- the document type ---- */

/* Not a type of the cyclic collector: nothing it can see holds a document (views and
 * iterators are not its types either), so tracking one would find no cycle, only cost a
 * traversal per collection for each of parse_many's documents. */
static void jj_doc_dealloc(PyObject *self) {
    jj_lazy_doc *d = (jj_lazy_doc *)self;
    PyTypeObject *type = Py_TYPE(self);
    Py_CLEAR(d->owner);
    free(d->copy);
    /* The buffers go back to this thread's parser when it lacks them (a document took
     * them): a parse that follows then writes to memory already mapped instead of
     * faulting in new pages. Only empty slots are filled, and nothing of the parser is
     * freed here, because this may run (from the GC) while a parse uses the parser. */
    jj_thread_parser *tp = jj_thread_parser_get();
    if (tp && d->parser) jj_parser_recycle(tp->parser, d->parser, JJ_RECYCLE_MAX);
    jj_parser_delete(d->parser);
    for (size_t i = 0; d->tables && i <= d->tables_mask; i++) PyMem_Free(d->tables[i].slots);
    PyMem_Free(d->tables);
    PyObject_Free(self);
    Py_DECREF(type);
}

static PyType_Slot jj_doc_slots[] = {
    {Py_tp_dealloc, jj_doc_dealloc},
    {Py_tp_doc, "The parsed text and tape shared by the views of one jetjson.parse call."},
    {0, NULL},
};

static PyType_Spec jj_doc_spec = {
    .name = "jetjson._jetjson.Document",
    .basicsize = sizeof(jj_lazy_doc),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = jj_doc_slots,
};

/* A document with its parser: a new one (parse makes it before its parse, as an
 * allocation may run Python code, which could parse on this thread and overwrite the
 * thread parser's tape before the document takes it), or one holding what `from` (a
 * parser of the caller's own) parsed last. */
static jj_lazy_doc *jj_doc_new(jj_state *st, jj_parser *from) {
    jj_lazy_doc *d = PyObject_New(jj_lazy_doc, (PyTypeObject *)st->lazy_types[JJ_LT_DOCUMENT]);
    if (!d) return NULL;
    d->parser = from ? jj_parser_hold_document(from) : jj_parser_new();
    d->tape = d->parser ? jj_parser_result(d->parser) : NULL;
    d->input = NULL;
    d->input_len = 0;
    d->owner = NULL;
    d->copy = NULL;
    d->tables = NULL;
    d->tables_mask = d->tables_used = 0;
    d->finished = 0;
    d->st = st;
    if (!d->parser) {
        Py_DECREF(d);
        return (jj_lazy_doc *)PyErr_NoMemory();
    }
    return d;
}

/* The document takes over the tape just filled in tp (tp allocates again next time),
 * the string buffer only when the parse used it (jj_parse_lazy leaves it empty but for
 * inputs it hands to jj_parse), and the scratch when the input was transcoded there. */
static void jj_lazy_doc_take(jj_lazy_doc *d, jj_thread_parser *tp, const uint8_t *buf, size_t len) {
    jj_parser_take_document(d->parser, tp->parser);
    if (!d->copy && !d->owner) {
        d->copy = tp->scratch;
        tp->scratch = NULL;
        tp->scratch_cap = 0;
    }
    d->input = buf;
    d->input_len = len;
}

/* A document for a tape just parsed into p (a full tape when `finished`, else
 * jj_parse_lazy's), keeping `owner` (which holds input) alive; a view of its root. */
PyObject *jj_lazy_adopt(jj_state *st, jj_parser *p, const uint8_t *input, size_t len, PyObject *owner,
                        int finished) {
    jj_lazy_doc *doc = jj_doc_new(st, p);
    if (!doc) return NULL;
    doc->owner = Py_XNewRef(owner);
    doc->input = input;
    doc->input_len = len;
    doc->finished = finished;
    int root = jj_tape_type(doc->tape->tape[0]) == JJ_OBJECT ? JJ_LT_OBJECT : JJ_LT_ARRAY;
    PyObject *view = jj_new_view(st, root, doc, 0);
    Py_DECREF(doc);
    return view;
}

/* ---- parse ---- */

/* parse(): a lazy tape kept by a document, views over it. What the engine refuses is
 * json's exception (the request frame); a scalar root is just the value. */
PyObject *jj_parse_py(PyObject *module, PyObject *data) {
    jj_state *st = (jj_state *)PyModule_GetState(module);
    /* first, as making it may run Python code that uses this thread's parser or scratch */
    jj_lazy_doc *doc = jj_doc_new(st, NULL);
    if (!doc) return NULL;
    PyObject *result = NULL;
    jj_request r = {0};
    int opened = jj_request_open(&r, st, data);
    if (opened == JJ_INPUT_UNSUPPORTED) result = jj_request_foreign(&r);
    if (opened != 0) goto done;
    jj_thread_parser *tp = r.tp;
    const uint8_t *buf = r.in.buf;
    size_t len = r.in.len;
    if (r.in.has_view) { /* a mutable buffer: the document keeps its own copy */
        doc->copy = malloc(len ? len : 1);
        if (!doc->copy) {
            PyErr_NoMemory();
            goto done;
        }
        memcpy(doc->copy, buf, len);
        buf = doc->copy;
    } else if (buf != tp->scratch) {
        /* bytes, or a str read in place (the caller's, or json's decoding of it) */
        doc->owner = Py_NewRef(r.text ? r.text : data);
    }
    jj_parser *p = r.parser;
    const jj_doc *parsed = jj_parser_result(p);
    PyThreadState *saved = jj_request_unlock(&r);
    jj_error err = jj_parse_lazy(p, buf, len);
    jj_request_relock(saved);
    if (err != JJ_OK) {
        result = jj_request_refused(&r, err);
    } else if (jj_tape_type(parsed->tape[0]) != JJ_OBJECT && jj_tape_type(parsed->tape[0]) != JJ_ARRAY) {
        /* a scalar root is just the value, as loads gives it (json decides the odd cases) */
        if (jj_lazy_finish(p, buf, len, 0) != JJ_OK) {
            PyErr_NoMemory();
            goto done;
        }
        result = jj_build_value_at(st, parsed, buf, 0);
        if (!result && !PyErr_ExceptionMatches(PyExc_MemoryError)) {
            PyErr_Clear();
            result = jj_request_by_json(&r);
        }
    } else {
        int root = jj_tape_type(parsed->tape[0]) == JJ_OBJECT ? JJ_LT_OBJECT : JJ_LT_ARRAY;
        jj_lazy_doc_take(doc, tp, buf, len);
        result = jj_new_view(st, root, doc, 0);
    }
done:
    Py_XDECREF(doc);
    jj_request_close(&r);
    return result;
}

int jj_lazy_add_types(PyObject *module, jj_state *st) {
    PyType_Spec *specs[JJ_LT_COUNT_] = {
        [JJ_LT_DOCUMENT] = &jj_doc_spec,  [JJ_LT_OBJECT] = &jj_object_spec,
        [JJ_LT_ARRAY] = &jj_array_spec,   [JJ_LT_KEYS] = &jj_keys_spec,
        [JJ_LT_VALUES] = &jj_values_spec, [JJ_LT_ITEMS] = &jj_items_spec,
        [JJ_LT_ITER] = &jj_iter_spec,
    };
    for (int i = 0; i < JJ_LT_COUNT_; i++) {
        st->lazy_types[i] = PyType_FromModuleAndSpec(module, specs[i], NULL);
        if (!st->lazy_types[i]) return -1;
        const char *name = strrchr(specs[i]->name, '.') + 1;
        if (PyModule_AddObjectRef(module, name, st->lazy_types[i]) < 0) return -1;
    }
    return 0;
}
