/* _tool_format for a large top-level array, a window at a time.
 *
 * The whole-document path (tool.c) holds the input and its structural index at once:
 * 4 bytes per token, about as much as the file itself for record-dense JSON, so its
 * peak is twice the file. Most big JSON files are one array of records, and json.dumps
 * writes such an array as "[", the elements at depth 1 between separators, and "]".
 * So the elements are found with the engine's multi-document reader (jj_many, spans
 * only) over windows of the input, each element validated and checked on its own index,
 * and written the same way in a second pass. Nothing is written before the first pass
 * has accepted every element (json.tool writes nothing for an invalid document); after
 * each window the caller's release(start, stop) lets the kernel take back the input's
 * pages, so the memory held is a window and one element's index, whatever the size. */
#include "text/tool.h"

/* What the element reader holds: the input, where the next window starts, and the
 * parser jj_many indexes each window with. */
typedef struct jj_elements {
    const uint8_t *in;
    size_t pos;      /* absolute: where the next window starts */
    size_t end;      /* absolute: the end of the array's contents */
    size_t window;   /* bytes per window (doubled for an element that does not fit) */
    size_t released; /* absolute: the input before this was handed to release() */
    PyObject *release;
    jj_parser *parser;
    jj_many m;
    size_t wstart, wlen;
    int open; /* a window is being read */
} jj_elements;

enum { JJ_ELEM_END = 0, JJ_ELEM_TOKEN = 1, JJ_ELEM_REFUSED = -1, JJ_ELEM_FAILED = -2 };

/* Gives back the input's pages before `upto` (called as each window starts). */
static int jj_release_before(jj_elements *e, size_t upto) {
    if (!e->release || upto <= e->released) return 0;
    PyObject *r = PyObject_CallFunction(e->release, "nn", (Py_ssize_t)e->released, (Py_ssize_t)upto);
    if (!r) return -1;
    Py_DECREF(r);
    e->released = upto;
    return 0;
}

/* The next top-level token of the array's contents: an element or a separator, as
 * [*from, *to) of the input. JJ_ELEM_TOKEN, JJ_ELEM_END, JJ_ELEM_REFUSED (bad bytes:
 * the whole-document path words them), or JJ_ELEM_FAILED (an exception is set). */
static int jj_next_token(jj_elements *e, size_t *from, size_t *to) {
    for (;;) {
        if (!e->open) {
            if (e->pos >= e->end) return JJ_ELEM_END;
            if (jj_release_before(e, e->pos) < 0) return JJ_ELEM_FAILED;
            size_t wlen = e->end - e->pos;
            unsigned flags = JJ_MANY_SPANS;
            if (wlen > e->window) {
                wlen = e->window;
                flags |= JJ_MANY_MORE_INPUT; /* an element cut by the window's end waits */
            }
            jj_error err = jj_many_start(&e->m, e->parser, e->in + e->pos, wlen, flags);
            if (err == JJ_ERR_NOMEM) {
                PyErr_NoMemory();
                return JJ_ELEM_FAILED;
            }
            if (err != JJ_OK) return JJ_ELEM_REFUSED;
            e->wstart = e->pos;
            e->wlen = wlen;
            e->open = 1;
        }
        size_t ds = 0, de = 0;
        jj_error err = jj_many_next(&e->m, &ds, &de);
        if (err == JJ_OK) {
            *from = e->wstart + ds;
            *to = e->wstart + de;
            return JJ_ELEM_TOKEN;
        }
        e->open = 0;
        if (err == JJ_ERR_EMPTY) {
            e->pos = e->wstart + e->wlen;
        } else if (err == JJ_ERR_INCOMPLETE) {
            /* the next window starts with the cut element; one that fills a whole
             * window gets a window twice as big */
            if (ds == 0) {
                if (e->window > SIZE_MAX / 4) return JJ_ELEM_REFUSED;
                e->window *= 2;
            }
            e->pos = e->wstart + ds;
        } else {
            return JJ_ELEM_REFUSED;
        }
    }
}

/* One element: validated, checked, and (when `s`) written at depth 1. 1 done, 0 the
 * object path must decide, -1 error set. */
static int jj_element(jj_parser *p, const uint8_t *in, size_t len, const jj_layout *l, int ensure_ascii,
                      int sort_keys, jj_chunks *s) {
    jj_valid_facts facts;
    jj_error err = jj_validate(p, in, len, &facts);
    if (err == JJ_ERR_NOMEM) {
        PyErr_NoMemory();
        return -1;
    }
    /* the array adds one level to the element's nesting */
    if (err != JJ_OK || facts.max_depth + 1 > JJ_TOOL_MAX_DEPTH || facts.max_int_digits > JJ_TOOL_MAX_INT_DIGITS ||
        jj_not_strict_utf8(in, len, 1))
        return 0;
    jj_sort_list sorts = {NULL, 0, 0};
    size_t n;
    const uint32_t *idx = jj_parser_structurals(p, &n);
    int ok = jj_tool_check(in, len, idx, n, facts.max_depth, sort_keys, ensure_ascii, &sorts);
    if (ok > 0 && s) {
        jj_tool_doc d = {in, len, idx, n, ensure_ascii, l, &sorts};
        if (jj_tool_write_value(s, &d, 1) < 0) ok = -1;
    }
    PyMem_Free(sorts.at);
    return ok < 0 ? -1 : ok > 0;
}

/* One pass over the elements: checking only (s == NULL) or writing. 1, 0 or -1 as
 * jj_tool_format_windows returns. */
static int jj_windows_pass(jj_elements *e, jj_parser *doc, const jj_layout *l, int ensure_ascii, int sort_keys,
                           jj_chunks *s) {
    int expect_value = 1, count = 0;
    for (;;) {
        size_t from, to;
        int got = jj_next_token(e, &from, &to);
        if (got == JJ_ELEM_FAILED) return -1;
        if (got == JJ_ELEM_REFUSED) return 0;
        if (got == JJ_ELEM_END) break;
        uint8_t c = e->in[from];
        if (!expect_value) { /* a lone ',' between elements */
            if (c != ',' || to - from != 1) return 0;
            expect_value = 1;
            continue;
        }
        if (c == ',' || c == ':' || c == ']' || c == '}') return 0;
        if (s && (count == 0 ? (l->mode == JJ_MODE_INDENT ? jj_write_break(s, l, 1) : 0) : jj_write_comma(s, l, 1)) < 0)
            return -1;
        int ok = jj_element(doc, e->in + from, to - from, l, ensure_ascii, sort_keys, s);
        if (ok <= 0) return ok;
        expect_value = 0;
        count++;
    }
    return expect_value ? 0 : 1; /* "[1,]" and "[]" are the whole-document path's */
}

static inline int jj_json_space(uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

int jj_tool_format_windows(const uint8_t *in, size_t len, const jj_layout *l, int ensure_ascii, int sort_keys,
                           size_t window, jj_chunks *s, PyObject *release) {
    size_t first = 0, last = len;
    while (first < len && jj_json_space(in[first])) first++;
    while (last > first && jj_json_space(in[last - 1])) last--;
    if (last - first < 2 || in[first] != '[' || in[last - 1] != ']') return 2;
    jj_elements e;
    memset(&e, 0, sizeof e);
    e.in = in;
    e.end = last - 1;
    e.window = window ? window : 1;
    jj_parser *doc = jj_parser_new();
    e.parser = jj_parser_new();
    if (!doc || !e.parser) {
        jj_parser_delete(doc);
        jj_parser_delete(e.parser);
        PyErr_NoMemory();
        return -1;
    }
    /* pass 1: every element valid and writable, nothing written yet */
    e.pos = first + 1;
    e.release = release;
    int rc = jj_windows_pass(&e, doc, l, ensure_ascii, sort_keys, NULL);
    if (rc == 1) {
        e.pos = first + 1;
        e.released = 0;
        e.open = 0;
        rc = jj_put(s, "[", 1) < 0 ? -1 : jj_windows_pass(&e, doc, l, ensure_ascii, sort_keys, s);
        /* what pass 1 accepted, pass 2 accepts: 0 here would be a bug, not a fallback */
        if (rc == 0) {
            PyErr_SetString(PyExc_SystemError, "jetjson: the second pass refused what the first accepted");
            rc = -1;
        }
        if (rc == 1 && l->mode == JJ_MODE_INDENT && jj_write_break(s, l, 0) < 0) rc = -1;
        if (rc == 1 && (jj_put(s, "]\n", 2) < 0 || jj_chunks_flush(s) < 0)) rc = -1;
    }
    jj_parser_delete(doc);
    jj_parser_delete(e.parser);
    return rc;
}
