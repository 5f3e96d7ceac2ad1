/* loads(data, partial=...): the value a truncated document holds so far (the engine's
 * jj_partial_complete closes it), for showing JSON while it is being written. */
#include "jetjson_partial.h"
#include "request.h"
#include "writer.h"

/* partial= as jiter's partial_mode reads it: 0 off, 1 on (strings cut short dropped),
 * 2 "trailing-strings" (a string value cut short kept as far as it goes), -1 wrong. */
static int jj_partial_mode(PyObject *mode) {
    if (mode == Py_None || mode == Py_False) return 0;
    if (mode == Py_True) return 1;
    if (PyUnicode_Check(mode)) {
        if (PyUnicode_CompareWithASCIIString(mode, "off") == 0) return 0;
        if (PyUnicode_CompareWithASCIIString(mode, "on") == 0) return 1;
        if (PyUnicode_CompareWithASCIIString(mode, "trailing-strings") == 0) return 2;
    }
    PyErr_Format(PyExc_ValueError,
                 "partial must be True, False, None, 'off', 'on' or 'trailing-strings', not %.100R", mode);
    return -1;
}

PyObject *jj_loads_partial(jj_state *st, PyObject *data, PyObject *mode_arg) {
    int mode = jj_partial_mode(mode_arg);
    if (mode < 0) return NULL;
    if (mode == 0) return jj_loads_fast(st, data);
    jj_request r = {0};
    PyObject *completed = NULL;
    int opened = jj_request_open(&r, st, data);
    if (opened == 0) {
        jj_writer w;
        if (jj_writer_start_bytes(&w, r.in.len + 16) == 0) {
            jj_partial_kind kind = jj_partial_complete(r.in.buf, r.in.len, mode == 2, &w);
            if (kind == JJ_PARTIAL_COMPLETED) {
                completed = jj_writer_finish(&w);
                if (!completed) opened = -1;
            } else {
                jj_writer_abandon(&w);
                if (kind == JJ_PARTIAL_NOMEM) {
                    PyErr_NoMemory();
                    opened = -1;
                }
            }
        } else {
            opened = -1;
        }
    }
    jj_request_close(&r);
    if (opened < 0 && opened != JJ_INPUT_UNSUPPORTED) return NULL;
    if (!completed) return jj_loads_fast(st, data); /* whole, or wrong: json's value or error */
    PyObject *value = jj_loads_fast(st, completed);
    Py_DECREF(completed);
    if (!value && PyErr_ExceptionMatches(PyExc_ValueError)) {
        /* the kept text is a prefix of the input: its first error is the input's, which
         * json words with the input's own `doc` */
        PyErr_Clear();
        value = jj_loads_fast(st, data);
    }
    return value;
}
