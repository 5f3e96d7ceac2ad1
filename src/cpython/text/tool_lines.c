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

/* The lines found (line number, start, stop), kept in C until the GIL is back. */
typedef struct jj_line_spans {
    size_t *spans;
    size_t count, cap;
} jj_line_spans;

/* Appends one line; 0 when out of memory. PyMem_Realloc needs the GIL: taken for it. */
static int jj_line_spans_add(jj_line_spans *s, PyThreadState **saved, int unlock, size_t lineno, size_t start,
                             size_t stop) {
    if (s->count == s->cap) {
        jj_request_relock(*saved);
        size_t *grown = PyMem_Realloc(s->spans, s->cap * 2 * 3 * sizeof *grown);
        *saved = unlock ? PyEval_SaveThread() : NULL;
        if (!grown) return 0;
        s->spans = grown;
        s->cap *= 2;
    }
    s->spans[3 * s->count] = lineno;
    s->spans[3 * s->count + 1] = start;
    s->spans[3 * s->count + 2] = stop;
    s->count++;
    return 1;
}

/* NDJSON is checked in runs of whole lines this big, each in one pass of the engine
 * (jj_validate_lines): small enough that a run's index is still in the cache when the
 * walk reads it, large enough that a run holds many lines. */
#define JJ_LINES_RUN (64u << 10)

/* The end of the run of whole lines that starts at `start`: after the last '\n' within
 * JJ_LINES_RUN bytes, the end of the buffer when it is nearer, or `start` when the
 * first line is longer than a run. */
static size_t jj_lines_run_end(const uint8_t *buf, size_t len, size_t start) {
    if (len - start <= JJ_LINES_RUN) return len;
    for (size_t k = start + JJ_LINES_RUN; k > start; k--)
        if (buf[k - 1] == '\n') return k;
    return start;
}

/* _tool_validate_lines(data) -> (number of lines, [(line number, start, stop), ...])
 * Each '\n'-terminated line of data checked as a document of its own (an empty line is
 * invalid, as json.tool --json-lines finds it). Listed: the lines the engine refuses,
 * and those json must judge (deep nesting, long ints): the caller words the message or
 * asks json. Runs of lines go through the engine in one pass each; a run that is not
 * all clean is checked again line by line, to find the lines. One parser for all; the
 * GIL is released while the engine works. */
PyObject *jj_tool_validate_lines(PyObject *module, PyObject *data) {
    jj_state *st = PyModule_GetState(module);
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) return NULL;
    PyObject *bad = PyList_New(0);
    jj_request r = {0};
    jj_line_spans found = {NULL, 0, 16};
    if (!bad || jj_request_open_memory(&r, st, (const uint8_t *)view.buf, 0) < 0) goto fail;
    const uint8_t *buf = view.buf;
    size_t len = (size_t)view.len, start = 0, lineno = 1;
    found.spans = PyMem_Malloc(found.cap * 3 * sizeof *found.spans);
    if (!found.spans) {
        PyErr_NoMemory();
        goto fail;
    }
    int nomem = 0;
    /* a writable buffer (bytearray) could change under a thread running without the GIL */
    int unlock = view.readonly && len >= JJ_UNLOCK_MIN_BYTES;
    PyThreadState *saved = unlock ? PyEval_SaveThread() : NULL;
    while (start < len && !nomem) {
        size_t run_end = jj_lines_run_end(buf, len, start);
        /* one search of the run instead of one per line (encoded surrogates are rare);
         * before the engine: it brings the run into the cache for stage 1 */
        int any_surrogate = run_end == start || jj_not_strict_utf8(buf + start, run_end - start, 1);
        if (!any_surrogate) {
            jj_valid_facts facts;
            size_t lines = 0;
            jj_error err = jj_validate_lines(r.parser, buf + start, run_end - start, &facts, &lines);
            if (err == JJ_ERR_NOMEM) {
                nomem = 1;
                break;
            }
            if (err == JJ_OK && facts.max_depth <= JJ_TOOL_MAX_DEPTH &&
                facts.max_int_digits <= JJ_TOOL_MAX_INT_DIGITS) {
                lineno += lines;
                start = run_end;
                continue;
            }
        }
        if (run_end == start) { /* one line longer than a run: by itself */
            const uint8_t *nl = memchr(buf + start, '\n', len - start);
            run_end = nl ? (size_t)(nl - buf) + 1 : len;
        }
        while (start < run_end) { /* line by line, to find the lines to list */
            const uint8_t *nl = memchr(buf + start, '\n', run_end - start);
            size_t stop = nl ? (size_t)(nl - buf) + 1 : run_end;
            jj_valid_facts facts;
            jj_error err = jj_validate(r.parser, buf + start, stop - start, &facts);
            if (err == JJ_ERR_NOMEM) {
                nomem = 1;
                break;
            }
            if ((err != JJ_OK || facts.max_depth > JJ_TOOL_MAX_DEPTH || facts.max_int_digits > JJ_TOOL_MAX_INT_DIGITS ||
                 jj_not_strict_utf8(buf + start, stop - start, any_surrogate)) &&
                !jj_line_spans_add(&found, &saved, unlock, lineno, start, stop)) {
                nomem = 1;
                break;
            }
            lineno++;
            start = stop;
        }
    }
    jj_request_relock(saved);
    if (nomem) PyErr_NoMemory();
    for (size_t k = 0; k < found.count && !nomem; k++) {
        const size_t *s = found.spans + 3 * k;
        PyObject *t = Py_BuildValue("(nnn)", (Py_ssize_t)s[0], (Py_ssize_t)s[1], (Py_ssize_t)s[2]);
        if (!t || PyList_Append(bad, t) < 0) nomem = 1;
        Py_XDECREF(t);
    }
    if (nomem) goto fail;
    PyMem_Free(found.spans);
    jj_request_close(&r);
    PyBuffer_Release(&view);
    PyObject *result = Py_BuildValue("(nN)", (Py_ssize_t)(lineno - 1), bad);
    return result;
fail:
    PyMem_Free(found.spans);
    Py_XDECREF(bad);
    jj_request_close(&r);
    PyBuffer_Release(&view);
    return NULL;
}
