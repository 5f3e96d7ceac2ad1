/* jetjson.canonical_bytes(data): RFC 8785 (JCS) bytes of JSON text, without a Python
 * object for the document. The request frame reads the input as loads does and turns a
 * refusal into json's exception; the engine parses, then writes JCS from the tape
 * (jj_canonical_write), both with the GIL released for inputs the frame unlocks. */
#include "canonical.h"
#include "jetjson_canonical.h"
#include "request.h"
#include "writer.h"

/* The key at tape index t, for the message (NULL when it cannot be decoded). */
static PyObject *jj_key_at(const jj_doc *p, const uint8_t *input, size_t t) {
    uint64_t w = p->tape[t];
    const uint8_t *base = jj_tape_str_flags(w) & JJ_STR_IN_INPUT ? input : p->strings;
    PyObject *key = PyUnicode_DecodeUTF8((const char *)base + jj_tape_str_offset(w),
                                         (Py_ssize_t)jj_tape_str_bytes(p->tape[t + 1]), "surrogatepass");
    if (!key) PyErr_Clear();
    return key;
}

/* The exception for what jj_canonical_write refused at tape index `fault`. */
static void jj_canon_raise(const jj_request *r, jj_canon_status status, size_t fault) {
    const jj_doc *p = jj_parser_result(r->parser);
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

/* The output: a bytes writer filled in place, the GIL released for big inputs
 * (jj_unlocked_writer). Writing to a malloc'ed buffer instead and copying it into a
 * bytes object at the end cost a tenth of the time on gsoc-2018.json (3.3 MB). */
/* The document's JCS bytes; the input is open and parsed. */
static PyObject *jj_canon_parsed(jj_request *r) {
    jj_unlocked_writer o;
    size_t hint = r->in.len > (size_t)PY_SSIZE_T_MAX / 4 ? (size_t)PY_SSIZE_T_MAX / 4 : r->in.len + 64;
    if (jj_unlocked_writer_start(&o, hint)) return NULL;
    size_t fault = 0;
    o.saved = jj_request_unlock(r);
    jj_canon_status status = jj_canonical_write(r->parser, r->in.buf, &o.w, &fault);
    jj_request_relock(o.saved);
    o.saved = NULL;
    if (status == JJ_CANON_OK) return jj_writer_finish(&o.w);
    jj_writer_abandon(&o.w);
    if (status == JJ_CANON_NOMEM && PyErr_Occurred()) return NULL; /* the resize's MemoryError */
    jj_canon_raise(r, status, fault);
    return NULL;
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
