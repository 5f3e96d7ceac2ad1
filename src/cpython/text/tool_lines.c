/* jetjson._tool_validate_lines: python -m jetjson validate --ndjson, every line checked
 * by the engine in one call (the CLI words the messages of the few lines it lists). */
#include "request.h"
#include "text/tool.h"

/* Whether json.tool's strict UTF-8 read would refuse a line the engine accepts (the
 * engine reads UTF-8 as json.loads does: encoded surrogates pass): a BOM at its start,
 * or an encoded surrogate (ED A0..BF). */
int jj_not_strict_utf8(const uint8_t *p, size_t n, int any_surrogate) {
    if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) return 1;
    if (!any_surrogate) return 0;
    const uint8_t *end = p + n;
    for (const uint8_t *q = p; (q = memchr(q, 0xed, (size_t)(end - q))) != NULL; q++)
        if (q + 1 < end && q[1] >= 0xa0 && q[1] <= 0xbf) return 1;
    return 0;
}

/* _tool_validate_lines(data) -> (number of lines, [(line number, start, stop), ...])
 * Each '\n'-terminated line of data checked as a document of its own (an empty line is
 * invalid, as json.tool --json-lines finds it). Listed: the lines the engine refuses,
 * and those json must judge (deep nesting, long ints): the caller words the message or
 * asks json. One parser for all lines; the GIL is released while the engine works. */
PyObject *jj_tool_validate_lines(PyObject *module, PyObject *data) {
    jj_state *st = PyModule_GetState(module);
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) return NULL;
    PyObject *bad = PyList_New(0);
    jj_request r = {0};
    if (!bad || jj_request_open_memory(&r, st, (const uint8_t *)view.buf, 0) < 0) goto fail;
    const uint8_t *buf = view.buf;
    size_t len = (size_t)view.len, start = 0, lineno = 1;
    /* the found lines are kept in C until the GIL is back: a small growing array */
    size_t cap = 16, nbad = 0;
    size_t *spans = PyMem_Malloc(cap * 3 * sizeof *spans);
    if (!spans) {
        PyErr_NoMemory();
        goto fail;
    }
    int nomem = 0;
    /* a writable buffer (bytearray) could change under a thread running without the GIL */
    int unlock = view.readonly && len >= JJ_UNLOCK_MIN_BYTES;
    PyThreadState *saved = unlock ? PyEval_SaveThread() : NULL;
    /* one search of the whole buffer instead of one per line: encoded surrogates are rare */
    int any_surrogate = jj_not_strict_utf8(buf, len, 1);
    while (start < len) {
        const uint8_t *nl = memchr(buf + start, '\n', len - start);
        size_t stop = nl ? (size_t)(nl - buf) + 1 : len;
        jj_valid_facts facts;
        jj_error err = jj_validate(r.parser, buf + start, stop - start, &facts);
        if (err == JJ_ERR_NOMEM) {
            nomem = 1;
            break;
        }
        if (err != JJ_OK || facts.max_depth > JJ_TOOL_MAX_DEPTH || facts.max_int_digits > JJ_TOOL_MAX_INT_DIGITS ||
            jj_not_strict_utf8(buf + start, stop - start, any_surrogate)) {
            if (nbad == cap) {
                /* PyMem_Realloc needs the GIL */
                jj_request_relock(saved);
                size_t *grown2 = PyMem_Realloc(spans, cap * 2 * 3 * sizeof *spans);
                saved = unlock ? PyEval_SaveThread() : NULL;
                if (!grown2) {
                    nomem = 1;
                    break;
                }
                spans = grown2;
                cap *= 2;
            }
            spans[3 * nbad] = lineno;
            spans[3 * nbad + 1] = start;
            spans[3 * nbad + 2] = stop;
            nbad++;
        }
        lineno++;
        start = stop;
    }
    jj_request_relock(saved);
    if (nomem) PyErr_NoMemory();
    for (size_t k = 0; k < nbad && !nomem; k++) {
        PyObject *t = Py_BuildValue("(nnn)", (Py_ssize_t)spans[3 * k], (Py_ssize_t)spans[3 * k + 1],
                                    (Py_ssize_t)spans[3 * k + 2]);
        if (!t || PyList_Append(bad, t) < 0) nomem = 1;
        Py_XDECREF(t);
    }
    PyMem_Free(spans);
    if (nomem) goto fail;
    jj_request_close(&r);
    PyBuffer_Release(&view);
    PyObject *result = Py_BuildValue("(nN)", (Py_ssize_t)(lineno - 1), bad);
    return result;
fail:
    Py_XDECREF(bad);
    jj_request_close(&r);
    PyBuffer_Release(&view);
    return NULL;
}
