/* One document of a stream (many.h): its value as loads gives it, a lazy view of it, or
 * the values at the pointers of fields=; and json's verdict where the engine refuses it. */
#include "many.h"

#include "jetjson_paths.h"
#include "lazy/lazy.h"
#include "typed/typed.h"

/* ---- fields= ---- */

/* The value at one pointer in a parsed tape (a new reference to default when the
 * pointer leads nowhere), NULL with an exception. */
static PyObject *jj_tape_field(jj_many_iter *it, jj_parser *p, const uint8_t *input, size_t input_len, int lazy_tape,
                               PyObject *ptr) {
    size_t found, failed;
    jj_pointer_status s = jj_pointer_resolve(p, input, 0, PyBytes_AS_STRING(ptr), (size_t)PyBytes_GET_SIZE(ptr),
                                             &found, &failed);
    if (s != JJ_PTR_OK) return Py_NewRef(it->default_value);
    const jj_doc *doc = jj_parser_result(p);
    /* a lazy tape: only the value found is finished, the rest of the document stays raw */
    if (lazy_tape && jj_lazy_finish_range(p, input, input_len, found, jj_tape_skip(doc->tape, found)) != JJ_OK)
        return PyErr_NoMemory();
    return jj_build_value_at(it->st, doc, input, found);
}

/* The same on a value json built (a document the engine refused): dicts by key, lists by
 * index, as jj_pointer_resolve follows a tape. */
static PyObject *jj_object_field(jj_many_iter *it, PyObject *value, PyObject *ptr) {
    const char *text = PyBytes_AS_STRING(ptr);
    size_t len = (size_t)PyBytes_GET_SIZE(ptr), pos = 0;
    jj_pointer_token tok;
    PyObject *at = value; /* borrowed along the way */
    while (jj_pointer_next(text, len, &pos, &tok)) {
        if (PyDict_Check(at)) {
            uint8_t small[64];
            uint8_t *raw = tok.len <= sizeof small ? small : PyMem_Malloc(tok.len ? tok.len : 1);
            if (!raw) return PyErr_NoMemory();
            size_t n = jj_pointer_token_unescape(&tok, raw);
            PyObject *key = PyUnicode_DecodeUTF8((const char *)raw, (Py_ssize_t)n, "surrogatepass");
            if (raw != small) PyMem_Free(raw);
            if (!key) return NULL;
            PyObject *next = PyDict_GetItemWithError(at, key);
            Py_DECREF(key);
            if (!next) return PyErr_Occurred() ? NULL : Py_NewRef(it->default_value);
            at = next;
        } else if (PyList_Check(at)) {
            uint64_t index;
            if (!jj_pointer_token_index(&tok, &index) || index >= (uint64_t)PyList_GET_SIZE(at))
                return Py_NewRef(it->default_value);
            at = PyList_GET_ITEM(at, (Py_ssize_t)index);
        } else {
            return Py_NewRef(it->default_value);
        }
    }
    return Py_NewRef(at);
}

/* What fields= gives for one document: the value, or a tuple of them. `value` is json's
 * value of the document when the engine refused it, else NULL (p's tape). */
static PyObject *jj_fields_of(jj_many_iter *it, jj_parser *p, const uint8_t *input, size_t input_len, int lazy_tape,
                              PyObject *value) {
    Py_ssize_t n = PyTuple_GET_SIZE(it->fields);
    if (it->single) {
        PyObject *ptr = PyTuple_GET_ITEM(it->fields, 0);
        return value ? jj_object_field(it, value, ptr) : jj_tape_field(it, p, input, input_len, lazy_tape, ptr);
    }
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *ptr = PyTuple_GET_ITEM(it->fields, i);
        PyObject *v = value ? jj_object_field(it, value, ptr) : jj_tape_field(it, p, input, input_len, lazy_tape, ptr);
        if (!v) Py_CLEAR(out);
        else PyTuple_SET_ITEM(out, i, v);
    }
    return out;
}

/* ---- fields= on a skimmed document ---- */

PyObject *jj_many_field_value(jj_many_iter *it, const jj_doc *doc, const uint8_t *input) {
    int room = jj_depth_check(doc);
    if (room <= 0) {
        PyErr_Clear(); /* the whole document's depth decides which error */
        return NULL;
    }
    PyObject *v = jj_build_value_at(it->st, doc, input, 0);
    if (!v && !PyErr_ExceptionMatches(PyExc_MemoryError)) PyErr_Clear(); /* json decides */
    return v;
}

/* The value of span i found by the skim of the document in hand (jj_many_field_value's
 * results), parsed here. */
static PyObject *jj_skimmed_field(jj_many_iter *it, void *unused, Py_ssize_t i) {
    (void)unused;
    const jj_field_span *span = &it->field_spans[i];
    if (!span->count) return Py_NewRef(it->default_value);
    jj_error err = jj_many_field_parse(&it->many, span);
    if (err == JJ_ERR_NOMEM) return PyErr_NoMemory();
    if (err != JJ_OK) return NULL;
    const jj_doc *doc = jj_parser_result(it->parser);
    /* a string (most fields) has no depth to check nor a container to build */
    if (jj_tape_type(doc->tape[0]) == JJ_STRING) return jj_tape_str_value(it->st, doc, it->cur_input, 0);
    return jj_many_field_value(it, doc, it->cur_input);
}

int jj_many_build_fields(jj_many_iter *it, jj_field_value_fn field, void *ctx) {
    Py_ssize_t n = PyTuple_GET_SIZE(it->fields);
    /* the tuple too is made with the collector paused: its allocation would otherwise run
     * the collections that the documents' containers counted up (one of the whole heap now
     * and then, ~1.8M instructions a call of 4 MB of events) */
    int gc_was_enabled = PyGC_Disable();
    PyObject *out = it->single ? NULL : PyTuple_New(n);
    if (!it->single && !out) {
        if (gc_was_enabled) PyGC_Enable();
        return -1;
    }
    PyObject *v = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        v = field(it, ctx, i);
        if (!v) break;
        if (out) PyTuple_SET_ITEM(out, i, v);
    }
    if (gc_was_enabled) PyGC_Enable();
    if (!v) {
        Py_XDECREF(out);
        return PyErr_Occurred() ? -1 : 1;
    }
    if (out && PyObject_GC_IsTracked(out)) { /* as the collector would, without it walking there */
        int holds_container = 0;
        for (Py_ssize_t i = 0; i < n && !holds_container; i++) {
            PyObject *item = PyTuple_GET_ITEM(out, i);
            holds_container = PyObject_IS_GC(item) && PyObject_GC_IsTracked(item);
        }
        if (!holds_container) PyObject_GC_UnTrack(out);
    }
    it->skim_value = out ? out : v;
    return 0;
}

int jj_many_skim_fields(jj_many_iter *it, jj_error *err, size_t *start, size_t *end) {
    int r = jj_many_build_fields(it, jj_skimmed_field, NULL);
    if (r == 1) *err = jj_many_reparse(&it->many, start, end);
    return r;
}

/* ---- values ---- */

PyObject *jj_many_json_value(jj_many_iter *it, size_t start, size_t end) {
    PyObject *text = PyBytes_FromStringAndSize((const char *)it->buf + start, (Py_ssize_t)(end - start));
    PyObject *value = text ? jj_json_loads(it->st, text, NULL, 1) : NULL;
    Py_XDECREF(text);
    if (value && it->typed_plan) return jj_typed_stream_object(it, value);
    if (!value || !it->fields) return value;
    PyObject *picked = jj_fields_of(it, NULL, NULL, 0, 0, value);
    Py_DECREF(value);
    return picked;
}

/* The object lazy documents keep alive for their input. */
static PyObject *jj_input_owner(jj_many_iter *it) {
    if (it->cur_owner) return it->cur_owner; /* a copy of the document (streamed input) */
    if (it->owner && !it->has_view && !it->copy) return it->owner; /* bytes or str read in place */
    return (PyObject *)it; /* the iterator holds the buffer or the copy */
}

PyObject *jj_many_value(jj_many_iter *it, jj_parser *p, const uint8_t *input, size_t input_len, size_t start,
                        size_t end, int lazy_tape) {
    if (it->skim_value) { /* jj_many_skim_fields built it */
        PyObject *picked = it->skim_value;
        it->skim_value = NULL;
        return picked;
    }
    if (it->typed_plan) return jj_typed_stream_document(it, p, input, input_len, lazy_tape);
    const jj_doc *doc = jj_parser_result(p);
    jj_type root = jj_tape_type(doc->tape[0]);
    if (it->lazy && (root == JJ_OBJECT || root == JJ_ARRAY))
        return jj_lazy_adopt(it->st, p, input, input_len, jj_input_owner(it), !lazy_tape);
    if (lazy_tape && !it->fields && jj_lazy_finish(p, input, input_len, 0) != JJ_OK)
        return PyErr_NoMemory(); /* a scalar */
    return jj_many_tape_value(it, p, doc, input, input_len, start, end, lazy_tape);
}

PyObject *jj_many_tape_fields(jj_many_iter *it, jj_parser *p, const uint8_t *input, size_t input_len, int lazy_tape) {
    return jj_fields_of(it, p, input, input_len, lazy_tape, NULL);
}

/* ---- refusals ---- */

static PyObject *jj_many_utf8(jj_many_iter *it) {
    if (it->text) return NULL;
    if (it->owner && !it->streamed && PyBytes_Check(it->owner) &&
        (const uint8_t *)PyBytes_AS_STRING(it->owner) == it->buf)
        return it->owner;
    /* a read-only buffer read in place (a mapped file): the error keeps it, not a copy */
    if (it->has_view && it->view.readonly && it->view.obj && it->view.buf == (const void *)it->buf &&
        (size_t)it->view.len == it->len)
        return it->view.obj;
    if (!it->utf8) it->utf8 = PyBytes_FromStringAndSize((const char *)it->buf, (Py_ssize_t)it->len);
    return it->utf8;
}

int jj_many_raise(jj_many_iter *it, size_t start, const jj_json_verdict *v) {
    if (v->error == JJ_JSON_ACCEPTED) return 1;
    PyObject *utf8 = jj_many_utf8(it);
    if (!it->text && !utf8) return -1;
    return jj_raise_verdict(it->st, v, it->buf, start, it->text, utf8, it->streamed ? &it->origin : NULL);
}

int jj_many_check_utf8(jj_many_iter *it, size_t start, size_t end) {
    PyObject *part = PyUnicode_DecodeUTF8((const char *)it->buf + start, (Py_ssize_t)(end - start), "surrogatepass");
    if (part) {
        Py_DECREF(part);
        return 0;
    }
    if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) return -1;
    /* json decodes the whole input first: the same error, counted from its start */
    PyErr_Clear();
    PyObject *whole = PyUnicode_DecodeUTF8((const char *)it->buf, (Py_ssize_t)end, "surrogatepass");
    Py_XDECREF(whole);
    if (whole) PyErr_SetString(PyExc_ValueError, "invalid UTF-8");
    return -1;
}
