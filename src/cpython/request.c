/* The request frame (request.h). One place decides how input is read, when the GIL is
 * released and how a refusal becomes json's exception; each entry point adds only what
 * is its own. */
#include "request.h"

static int jj_request_start(jj_request *r, jj_state *st, PyObject *source) {
    r->st = st;
    r->source = source;
    r->text = NULL;
    r->opened = 0;
    r->parser = NULL;
    r->tp = jj_thread_parser_get();
    if (!r->tp) {
        PyErr_NoMemory();
        return -1;
    }
    r->parser = r->tp->parser;
    return 0;
}

/* Bytes json reads as UTF-16/32 or with a BOM: decoded first, as json does. */
static int jj_request_decode(jj_request *r) {
    r->text = jj_decode_like_json(r->in.buf, r->in.len);
    jj_input_close(&r->in);
    r->opened = 0;
    if (!r->text || jj_input_open(r->text, r->tp, &r->in) < 0) return -1;
    r->opened = 1;
    return 0;
}

int jj_request_open_memory(jj_request *r, jj_state *st, const uint8_t *buf, size_t len) {
    if (jj_request_start(r, st, NULL) < 0) return -1;
    memset(&r->in, 0, sizeof r->in);
    r->in.buf = buf;
    r->in.len = len;
    r->opened = 1;
    return jj_bytes_need_json(buf, len) ? jj_request_decode(r) : 0;
}

int jj_request_open(jj_request *r, jj_state *st, PyObject *source) {
    if (jj_request_start(r, st, source) < 0) return -1;
    int rc = jj_input_open(source, r->tp, &r->in);
    if (rc != 0) return rc;
    r->opened = 1;
    if (r->in.needs_json) {
        return jj_request_decode(r);
    } else if (PyUnicode_Check(source)) {
        r->text = Py_NewRef(source);
    }
    return 0;
}

void jj_request_close(jj_request *r) {
    if (r->opened) jj_input_close(&r->in);
    r->opened = 0;
    Py_CLEAR(r->text);
    if (r->tp) jj_thread_parser_trim(r->tp);
}

int jj_request_unlocks(const jj_request *r) {
    /* a writable buffer could change under a thread that runs without the GIL */
    return r->in.len >= JJ_UNLOCK_MIN_BYTES && !(r->in.has_view && !r->in.view.readonly);
}

PyThreadState *jj_request_unlock(const jj_request *r) {
    return jj_request_unlocks(r) ? PyEval_SaveThread() : NULL;
}

void jj_request_relock(PyThreadState *saved) {
    if (saved) PyEval_RestoreThread(saved);
}

jj_error jj_request_parse(jj_request *r) {
    PyThreadState *saved = jj_request_unlock(r);
    jj_error err = jj_parse(r->parser, r->in.buf, r->in.len);
    jj_request_relock(saved);
    return err;
}

jj_error jj_request_validate(jj_request *r, jj_valid_facts *facts) {
    PyThreadState *saved = jj_request_unlock(r);
    jj_error err = jj_validate(r->parser, r->in.buf, r->in.len, facts);
    jj_request_relock(saved);
    return err;
}

int jj_request_raise(jj_request *r, jj_error err) {
    PyObject *raw = r->source && PyBytes_Check(r->source) && !r->text ? r->source : NULL;
    return jj_raise_refusal(r->st, r->in.buf, r->in.len, r->text, r->source && PyUnicode_Check(r->source), raw, err);
}

PyObject *jj_request_refused(jj_request *r, jj_error err) {
    return jj_refused(r->st, r->in.buf, r->in.len, r->source, r->text, err);
}

PyObject *jj_request_foreign(jj_request *r) {
    return jj_json_loads(r->st, r->source, NULL, 0);
}

PyObject *jj_request_by_json(jj_request *r) {
    PyObject *arg = r->source ? Py_NewRef(r->source)
                              : PyBytes_FromStringAndSize((const char *)r->in.buf, (Py_ssize_t)r->in.len);
    PyObject *result = arg ? jj_json_loads(r->st, arg, NULL, 0) : NULL;
    Py_XDECREF(arg);
    return result;
}
