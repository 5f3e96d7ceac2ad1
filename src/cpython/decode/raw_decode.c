/* _raw_decode(s, idx): json.JSONDecoder.raw_decode's (value, end) for the first document
 * of s that starts exactly at idx (no white space skipped, the text after it left
 * alone). Only a window of s from idx on is read, doubled until jj_json_explain sees
 * where the document ends: a buffer of many documents read one call at a time costs
 * time in proportion to its length, not to its length times the number of documents.
 * Positions count characters of a str and bytes of UTF-8 input. */
#include "state.h"

static int jj_is_json_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* The source: a str, or the bytes of a bytes-like object. */
typedef struct jj_raw_source {
    PyObject *str;      /* the str, or NULL */
    int ascii;          /* the str is ASCII: its data is its UTF-8 */
    Py_buffer view;     /* bytes-like: its buffer */
    size_t len;         /* characters (str) or bytes */
} jj_raw_source;

/* UTF-8 of source units [idx, idx + want) (fewer at the end): *buf, *len; *owner holds
 * them when they had to be made. *at_end: the window reaches the end of the source.
 * 0, or -1 with an exception (a UnicodeDecodeError: bad UTF-8 in bytes). */
static int jj_raw_window(const jj_raw_source *src, size_t idx, size_t want, const uint8_t **buf, size_t *len,
                         PyObject **owner, int *at_end) {
    size_t stop = want < src->len - idx ? idx + want : src->len;
    *at_end = stop == src->len;
    *owner = NULL;
    if (src->str && src->ascii) {
        *buf = (const uint8_t *)PyUnicode_DATA(src->str) + idx;
        *len = stop - idx;
        return 0;
    }
    if (src->str) {
        *owner = PyUnicode_Substring(src->str, (Py_ssize_t)idx, (Py_ssize_t)stop);
        Py_ssize_t n = 0;
        const char *utf8 = *owner ? PyUnicode_AsUTF8AndSize(*owner, &n) : NULL;
        if (!utf8) return -1;
        *buf = (const uint8_t *)utf8;
        *len = (size_t)n;
        return 0;
    }
    /* bytes: checked as json decodes them (a character cut by the window's end waits) */
    Py_ssize_t consumed = 0;
    const char *start = (const char *)src->view.buf + idx;
    *owner = PyUnicode_DecodeUTF8Stateful(start, (Py_ssize_t)(stop - idx), "surrogatepass", *at_end ? NULL : &consumed);
    if (!*owner) return -1;
    *buf = (const uint8_t *)start;
    *len = *at_end ? stop - idx : (size_t)consumed;
    return 0;
}

/* Where source unit idx lies (json counts characters, lines and columns from 1). */
static jj_text_position jj_raw_origin(const jj_raw_source *src, size_t idx) {
    if (!src->str) return jj_text_position_of(src->view.buf, idx);
    jj_text_position at = {idx, 1, idx + 1};
    int kind = PyUnicode_KIND(src->str);
    const void *data = PyUnicode_DATA(src->str);
    for (size_t i = 0; i < idx; i++) {
        if (PyUnicode_READ(kind, data, i) == '\n') {
            at.line++;
            at.column = idx - i;
        }
    }
    return at;
}

/* json's "Expecting value" at source unit idx, which may be past the end. */
static void jj_raw_expecting_value(jj_state *st, const jj_raw_source *src, size_t idx) {
    if (jj_json_ready(st) < 0) return; /* jetjson.JSONDecodeError is made on first need */
    PyObject *doc = src->str ? Py_NewRef(src->str)
                             : PyUnicode_DecodeUTF8(src->view.buf, src->view.len, "surrogatepass");
    if (!doc) return;
    Py_ssize_t pos = (Py_ssize_t)idx;
    if (!src->str) pos = (Py_ssize_t)jj_utf8_chars(src->view.buf, idx < src->len ? idx : src->len) +
                         (Py_ssize_t)(idx > src->len ? idx - src->len : 0);
    PyObject *exc = PyObject_CallFunction(st->JSONDecodeError, "sOn", "Expecting value", doc, pos);
    if (exc) {
        PyErr_SetObject(st->JSONDecodeError, exc);
        Py_DECREF(exc);
    }
    Py_DECREF(doc);
}

/* The first document from idx: its end in source units (-1 with an exception). */
static Py_ssize_t jj_raw_document_end(jj_state *st, const jj_raw_source *src, size_t idx) {
    size_t want = 512;
    for (;;) {
        if (idx >= src->len) {
            jj_raw_expecting_value(st, src, idx);
            return -1;
        }
        const uint8_t *buf;
        size_t len;
        int at_end;
        PyObject *owner;
        if (jj_raw_window(src, idx, want, &buf, &len, &owner, &at_end) < 0) return -1;
        Py_ssize_t end = -1;
        jj_json_verdict v = {.error = JJ_JSON_EXPECTING_VALUE, .offset = 0};
        if (len > 0 && !jj_is_json_space(buf[0])) {
            jj_json_rules rules = jj_json_rules_here(0);
            v = jj_json_explain(buf, len, &rules);
        }
        /* "Extra data" says where the document ended; anything else is final only when
         * the window reaches the end (else the document may go on past it) */
        if (v.error == JJ_JSON_EXTRA_DATA || (at_end && v.error == JJ_JSON_ACCEPTED)) {
            size_t stop = v.error == JJ_JSON_ACCEPTED ? len : v.offset;
            while (stop > 0 && jj_is_json_space(buf[stop - 1])) stop--;
            end = (Py_ssize_t)(idx + (src->str && !src->ascii ? jj_utf8_chars(buf, stop) : stop));
        } else if (at_end) {
            if (v.error == JJ_JSON_EXPECTING_VALUE && v.offset == 0) {
                jj_raw_expecting_value(st, src, idx);
            } else {
                jj_text_position origin = jj_raw_origin(src, idx);
                PyObject *utf8 = src->str ? NULL : PyBytes_FromStringAndSize(src->view.buf, src->view.len);
                if (src->str || utf8) jj_raise_verdict(st, &v, buf, 0, src->str, utf8, &origin);
                Py_XDECREF(utf8);
            }
        }
        Py_XDECREF(owner);
        if (end >= 0 || at_end || v.error == JJ_JSON_NOMEM) return end;
        want = want > SIZE_MAX / 4 ? SIZE_MAX / 2 : 2 * want;
    }
}

PyObject *jj_raw_decode(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    jj_state *st = PyModule_GetState(module);
    Py_ssize_t idx = 0;
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "raw_decode() takes the text and an optional idx");
        return NULL;
    }
    if (nargs == 2) {
        idx = PyNumber_AsSsize_t(args[1], PyExc_OverflowError);
        if (idx == -1 && PyErr_Occurred()) return NULL;
        if (idx < 0) {
            PyErr_SetString(PyExc_ValueError, "idx cannot be negative");
            return NULL;
        }
    }
    PyObject *source = args[0];
    jj_raw_source src = {0};
    if (PyUnicode_Check(source)) {
        src.str = source;
        src.ascii = PyUnicode_IS_ASCII(source);
        src.len = (size_t)PyUnicode_GET_LENGTH(source);
    } else if (PyObject_CheckBuffer(source)) {
        if (PyObject_GetBuffer(source, &src.view, PyBUF_SIMPLE) < 0) return NULL;
        src.len = (size_t)src.view.len;
    } else {
        PyErr_Format(PyExc_TypeError, "raw_decode() needs str, bytes, bytearray or memoryview, not %.100s",
                     Py_TYPE(source)->tp_name);
        return NULL;
    }
    PyObject *result = NULL;
    Py_ssize_t end = jj_raw_document_end(st, &src, (size_t)idx);
    if (end >= 0) {
        PyObject *slice = src.str ? PyUnicode_Substring(src.str, idx, end)
                                  : PyBytes_FromStringAndSize((const char *)src.view.buf + idx, end - idx);
        if (slice) {
            result = Py_BuildValue("(Nn)", jj_loads_fast(st, slice), end);
            Py_DECREF(slice);
        }
    }
    if (!src.str) PyBuffer_Release(&src.view);
    return result;
}
