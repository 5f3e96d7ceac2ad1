/* jetjson.canonical_bytes(data): RFC 8785 (JCS) bytes of JSON text, without a Python
 * object for the document. The request frame reads the input as loads does and turns a
 * refusal into json's exception; the engine parses, then writes JCS from the tape
 * (jj_canonical_write), both with the GIL released for inputs the frame unlocks. */
#include "canonical.h"
#include "jetjson_canonical.h"
#include "request.h"

/* The key at tape index t, for the message (NULL when it cannot be decoded). */
static PyObject *jj_key_at(const jj_parser *p, const uint8_t *input, size_t t) {
    uint64_t w = p->tape[t];
    const uint8_t *base = jj_tape_str_flags(w) & JJ_STR_IN_INPUT ? input : p->strings;
    PyObject *key = PyUnicode_DecodeUTF8((const char *)base + jj_tape_str_offset(w),
                                         (Py_ssize_t)jj_tape_str_bytes(p->tape[t + 1]), "surrogatepass");
    if (!key) PyErr_Clear();
    return key;
}

/* The exception for what jj_canonical_write refused at tape index `fault`. */
static void jj_canon_raise(const jj_request *r, jj_canon_status status, size_t fault) {
    const jj_parser *p = r->parser;
    const uint64_t *tape = p->tape;
    switch (status) {
    case JJ_CANON_NOMEM: PyErr_NoMemory(); return;
    case JJ_CANON_DUPLICATE_KEY: {
        PyObject *key = jj_key_at(p, r->in.buf, fault);
        if (key) {
            PyErr_Format(PyExc_ValueError, "duplicate object key %R: canonical JSON (I-JSON) names each key once",
                         key);
            Py_DECREF(key);
        } else {
            PyErr_SetString(PyExc_ValueError, "duplicate object key: canonical JSON (I-JSON) names each key once");
        }
        return;
    }
    case JJ_CANON_INT_RANGE: {
        jj_type type = jj_tape_type(tape[fault]);
        if (type == JJ_BIGINT) {
            /* the digits as written (the input is not NUL-terminated: copied first) */
            char text[64];
            size_t len = (size_t)tape[fault + 1], n = len < 60 ? len : 60;
            memcpy(text, r->in.buf + jj_tape_payload(tape[fault]), n);
            strcpy(text + n, len > n ? "..." : "");
            PyErr_Format(PyExc_ValueError,
                         "integer %s out of range for canonical JSON: beyond 2**53 - 1 in magnitude, an "
                         "integer is written only when its digits are the JCS text of a double",
                         text);
        } else {
            char text[JJ_INT_MAX_CHARS + 1];
            size_t n = type == JJ_UINT64 ? jj_format_uint64(tape[fault + 1], text)
                                         : jj_format_int64((int64_t)tape[fault + 1], text);
            text[n] = '\0';
            PyErr_Format(PyExc_ValueError,
                         "integer %s out of range for canonical JSON: beyond 2**53 - 1 in magnitude, an "
                         "integer is written only when its digits are the JCS text of a double",
                         text);
        }
        return;
    }
    default: PyErr_Format(PyExc_ValueError, "%s", jj_canon_status_name(status)); return;
    }
}

/* The document's JCS bytes; the input is open and parsed. */
static PyObject *jj_canon_parsed(jj_request *r) {
    jj_sink sink;
    if (jj_sink_init_malloc(&sink, r->in.len + 16)) return PyErr_NoMemory();
    size_t fault = 0, len = 0;
    PyThreadState *saved = jj_request_unlock(r);
    jj_canon_status status = jj_canonical_write(r->parser, r->in.buf, &sink, &fault);
    jj_request_relock(saved);
    len = jj_sink_len(&sink);
    PyObject *result = NULL;
    if (status == JJ_CANON_OK)
        result = PyBytes_FromStringAndSize((const char *)sink.start, (Py_ssize_t)len);
    else
        jj_canon_raise(r, status, fault);
    jj_sink_free_malloc(&sink);
    return result;
}

PyObject *jj_canonical_bytes(PyObject *module, PyObject *data) {
    jj_state *st = PyModule_GetState(module);
    PyObject *result = NULL;
    jj_request r = {0};
    int opened = jj_request_open(&r, st, data);
    if (opened == JJ_INPUT_UNSUPPORTED) {
        PyErr_Format(PyExc_TypeError, "the JSON object must be str, bytes, bytearray or memoryview, not %.100s",
                     Py_TYPE(data)->tp_name);
    } else if (opened == 0) {
        jj_error err = jj_request_parse(&r);
        if (err == JJ_OK) {
            result = jj_canon_parsed(&r);
        } else if (err == JJ_ERR_NOMEM) {
            PyErr_NoMemory();
        } else if (jj_request_raise(&r, err) == 1) {
            PyErr_SetString(PyExc_ValueError, "canonical_bytes: inputs of 4 GiB or more are not supported");
        }
    }
    jj_request_close(&r);
    return result;
}
