/* Streamed input for the stream iterator (many.h): a binary file read in blocks, or
 * chunks fed to a jetjson.Decoder. Only the bytes from the next document on are kept
 * (about a window plus the longest document), and `origin` counts what was dropped so
 * that errors keep their positions in the whole input. */
#include <stdlib.h>
#include <string.h>

#include "many.h"

#define JJ_READ_MIN ((size_t)64 << 10)
/* A starved document waits for this many more bytes before it is parsed again (unless a
 * byte that may end it comes first): see jj_stream_gate. */
#define JJ_GATE_SLACK ((size_t)16 << 20)

/* The exception being raised, taken (normalized) or given back. */
static PyObject *jj_take_raised(void) {
#if PY_VERSION_HEX >= 0x030C0000
    return PyErr_GetRaisedException();
#else
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    if (exc && tb) PyException_SetTraceback(exc, tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    return exc;
#endif
}

static void jj_give_raised(PyObject *exc) {
#if PY_VERSION_HEX >= 0x030C0000
    PyErr_SetRaisedException(exc);
#else
    PyErr_Restore(Py_NewRef((PyObject *)Py_TYPE(exc)), exc, PyException_GetTraceback(exc));
#endif
}

int jj_stream_take_reader(jj_many_iter *it, PyObject *file) {
    /* readinto where the file has it: one copy less, and no bytes object per block */
    it->reader = PyObject_GetAttrString(file, "readinto");
    it->reads_into = it->reader != NULL;
    if (!it->reader) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
        PyErr_Clear();
        it->reader = PyObject_GetAttrString(file, "read");
    }
    if (!it->reader) return -1;
    it->streamed = 1;
    it->owner = Py_NewRef(file);
    return 0;
}

/* buf[keep..len) is now at the start of `copy`: the offsets into it follow. */
static void jj_stream_moved(jj_many_iter *it, size_t keep) {
    it->buf = it->copy;
    it->len -= keep;
    it->pos = it->pos > keep ? it->pos - keep : 0;
    it->array_resume = it->array_resume > keep ? it->array_resume - keep : 0;
    if (it->gated && it->gate_from < keep) it->gated = 0;
    if (it->gated) {
        it->gate_from -= keep;
        it->gate_scan -= keep;
        it->gate_until = it->gate_until > keep ? it->gate_until - keep : 0;
    }
    it->window_open = 0;
    Py_CLEAR(it->utf8);
}

/* Drops buf[0..keep), moving the rest to the start. */
static void jj_stream_drop(jj_many_iter *it, size_t keep) {
    /* an array keeps its text from the last separator on: its errors are explained
     * from there (jj_fail_whole) */
    if (it->format == JJ_FMT_ARRAY && it->array_state == 1 && keep > it->array_resume) keep = it->array_resume;
    if (!keep) return;
    it->origin = jj_position_after(it->origin, jj_text_position_of(it->buf, keep));
    memmove(it->copy, it->copy + keep, it->len - keep);
    jj_stream_moved(it, keep);
}

static int jj_stream_room(jj_many_iter *it, size_t need) {
    if (need <= it->cap) return 0;
    size_t cap = it->cap ? it->cap : JJ_READ_MIN;
    while (cap < need) cap = cap > SIZE_MAX / 2 ? need : 2 * cap;
    uint8_t *fresh = realloc(it->copy, cap);
    if (!fresh) {
        PyErr_NoMemory();
        return -1;
    }
    it->copy = fresh;
    it->buf = fresh;
    it->cap = cap;
    return 0;
}

static void jj_stream_check_bom(jj_many_iter *it) {
    if (!it->bom_checked && (it->len >= 3 || it->eof)) {
        /* json decodes a UTF-8 BOM away: it counts in no position */
        it->bom_checked = 1;
        if (it->len >= 3 && memcmp(it->copy, "\xef\xbb\xbf", 3) == 0) {
            memmove(it->copy, it->copy + 3, it->len - 3);
            it->len -= 3;
        }
    }
}

int jj_stream_append(jj_many_iter *it, const uint8_t *bytes, size_t n) {
    jj_stream_drop(it, it->pos);
    if (n) {
        if (jj_stream_room(it, it->len + n) < 0) return -1;
        memcpy(it->copy + it->len, bytes, n);
        it->len += n;
    }
    jj_stream_check_bom(it);
    return 0;
}

/* One readinto of up to `ask` bytes at the end of `copy`: 0 or -1. */
static int jj_stream_read_into_collector_paused(jj_many_iter *it, size_t ask);
static int jj_stream_read_into(jj_many_iter *it, size_t ask) {
    /* The cyclic collector is paused around the read as it is while documents are built.
     * Otherwise the read's first tracked allocation (the memoryview, a chunk) sets off the
     * collections that the documents built since have made due, and a file object pays
     * for collections that the same documents from a mapped file never trigger. */
    int gc_was_enabled = PyGC_Disable();
    int rc = jj_stream_read_into_collector_paused(it, ask);
    if (gc_was_enabled) PyGC_Enable();
    return rc;
}

static int jj_stream_read_into_collector_paused(jj_many_iter *it, size_t ask) {
    jj_stream_drop(it, it->pos);
    if (jj_stream_room(it, it->len + ask) < 0) return -1;
    PyObject *view = PyMemoryView_FromMemory((char *)it->copy + it->len, (Py_ssize_t)ask, PyBUF_WRITE);
    if (!view) return -1;
    PyObject *got = PyObject_CallOneArg(it->reader, view);
    PyObject *raised = got ? NULL : jj_take_raised();
    /* the file must not keep the view: our buffer moves when it grows */
    PyObject *released = PyObject_CallMethod(view, "release", NULL);
    Py_DECREF(view);
    if (!released) {
        Py_XDECREF(got);
        Py_XDECREF(raised);
        if (PyErr_ExceptionMatches(PyExc_BufferError))
            PyErr_SetString(PyExc_ValueError, "the file's readinto kept the buffer it was given");
        return -1;
    }
    Py_DECREF(released);
    if (raised && it->len == 0 && !it->bom_checked && PyErr_GivenExceptionMatches(raised, PyExc_NotImplementedError)) {
        /* an io.RawIOBase that only defines read(): its inherited readinto says so */
        Py_DECREF(raised);
        Py_SETREF(it->reader, PyObject_GetAttrString(it->owner, "read"));
        it->reads_into = 0;
        return it->reader ? 0 : -1;
    }
    if (raised) {
        jj_give_raised(raised);
        return -1;
    }
    Py_ssize_t n = got == Py_None ? -1 : PyLong_AsSsize_t(got);
    Py_DECREF(got);
    if (n == -1 && PyErr_Occurred()) return -1;
    if (n < 0 || (size_t)n > ask) {
        PyErr_Format(PyExc_ValueError, "the file's readinto returned %zd for a buffer of %zu bytes%s", n, ask,
                     n == -1 ? " (a non-blocking file with no data ready?)" : "");
        return -1;
    }
    if (n == 0) it->eof = 1;
    it->len += (size_t)n;
    jj_stream_check_bom(it);
    return 0;
}

int jj_stream_refill(jj_many_iter *it, size_t keep, size_t want) {
    jj_stream_drop(it, keep);
    while (!it->eof && it->len - it->pos < want) {
        size_t short_by = want - (it->len - it->pos);
        /* a little past `want`: the window can then end at a line break */
        size_t ask = short_by < JJ_READ_MIN ? JJ_READ_MIN : short_by + JJ_READ_MIN / 4;
        if (it->reads_into) {
            if (jj_stream_read_into(it, ask) < 0) return -1;
            continue;
        }
        PyObject *size = PyLong_FromSsize_t((Py_ssize_t)ask);
        if (!size) return -1;
        int gc_was_enabled = PyGC_Disable(); /* as in jj_stream_read_into */
        PyObject *chunk = PyObject_CallOneArg(it->reader, size);
        if (gc_was_enabled) PyGC_Enable();
        Py_DECREF(size);
        if (!chunk) return -1;
        Py_buffer view;
        if (PyObject_GetBuffer(chunk, &view, PyBUF_SIMPLE) < 0) {
            Py_DECREF(chunk);
            if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_TypeError, "the stream's file must be opened in binary mode (read() gave str)");
            }
            return -1;
        }
        int rc = 0;
        if (view.len == 0) it->eof = 1;
        rc = jj_stream_append(it, view.buf, (size_t)view.len);
        PyBuffer_Release(&view);
        Py_DECREF(chunk);
        if (rc < 0) return -1;
    }
    return 0;
}

/* ---- jetjson.Decoder's side: feed and close ---- */

void jj_stream_gate(jj_many_iter *it, size_t from, size_t want) {
    if (!it->gated || it->gate_from != from) { /* a new document: scan it from its start */
        it->gated = 1;
        it->gate_from = it->gate_scan = from;
        it->gate_state = jj_gate_start();
    }
    /* Without a byte that may end it, the document is parsed again (for an error that
     * no later byte can mend) once the bytes in hand are at least four times as many
     * and at least JJ_GATE_SLACK more. Such a parse costs about the bytes in hand: a
     * valid document (whose end the scan finds) of up to the slack is parsed in full
     * once, a longer one adds at most 4/3 of a parse (2 with the doubling this had). */
    size_t have = it->len - from;
    size_t grown = SIZE_MAX;
    if (have <= (SIZE_MAX - JJ_GATE_SLACK) / 4) grown = have < JJ_GATE_SLACK / 3 ? have + JJ_GATE_SLACK : 4 * have;
    if (want < grown) want = grown;
    it->gate_until = from > SIZE_MAX - want ? SIZE_MAX : from + want;
}

/* The gate let the document at gate_from through, as far as buf[0..reach) at least:
 * the next window takes it all. Otherwise a window that ends inside it (the one that
 * found it cut short) grows by doubling, each indexing and parsing it again from its
 * start. Twice the span, as the window is cut at a line break in its second half. */
static void jj_stream_window_reaches(jj_many_iter *it, size_t reach) {
    size_t span = reach - it->gate_from;
    size_t window = span > SIZE_MAX / 2 ? SIZE_MAX : 2 * span;
    size_t planned = it->want_next ? it->want_next : it->batch;
    if (planned < window) it->want_next = window;
}

/* Scans the bytes fed since the gate was set: 1 when the document may now be read
 * (a byte that can end it came, or enough bytes), 0 to wait for more. */
static int jj_stream_gate_opens(jj_many_iter *it) {
    int opens;
    /* format='array' before its '[' is read: the scan would take the array for the
     * document, whose elements are the documents */
    if (it->format == JJ_FMT_ARRAY && it->array_state == 0) return it->len >= it->array_verdict_at;
    if (it->len >= it->gate_until) { /* parsed again for an error, all of it */
        jj_stream_window_reaches(it, it->len);
        return 1;
    }
    if (it->gate_scan >= it->len) return 0; /* nothing new (an empty chunk; buf may be NULL) */
    if (it->format == JJ_FMT_LINES || it->format == JJ_FMT_JSON_SEQ) {
        const uint8_t *p = it->buf + it->gate_scan;
        const uint8_t *hit = memchr(p, it->format == JJ_FMT_LINES ? '\n' : 0x1E, it->len - it->gate_scan);
        it->gate_scan = hit ? (size_t)(hit + 1 - it->buf) : it->len;
        opens = hit != NULL;
    } else {
        /* the other formats: a byte outside strings at the document's top level (its
         * end, or a scalar's bytes) */
        it->gate_scan += jj_gate_scan(&it->gate_state, it->buf + it->gate_scan, it->len - it->gate_scan, &opens);
    }
    if (opens) jj_stream_window_reaches(it, it->gate_scan);
    return opens;
}

/* Where this feed stops reading (NDJSON and JSON Lines): at the last line break, when
 * the bytes after it are a document's start that does not end. Left to the next feed,
 * they are not parsed now only to be found cut short. A scan from the line break's
 * state-free start is right when the line break is between documents; inside one (a
 * pretty-printed document), a document that ends after it still ends the scan (a
 * bracket more closing, or a string's end: valid JSON has no line break in a string). */
static size_t jj_stream_parse_end(jj_many_iter *it, jj_gate *tail) {
    if (it->format != JJ_FMT_WHITESPACE && it->format != JJ_FMT_LINES) return it->len;
    size_t from = it->gated && it->gate_scan > it->pos ? it->gate_scan : it->pos;
    if (from >= it->len) return it->len;
    const uint8_t *nl = jj_memrchr(it->buf + from, '\n', it->len - from);
    if (!nl) return it->len;
    size_t cut = (size_t)(nl + 1 - it->buf);
    *tail = jj_gate_start();
    int opens;
    jj_gate_scan(tail, it->buf + cut, it->len - cut, &opens);
    return opens || cut == it->len ? it->len : cut;
}

/* The documents that the bytes in hand complete: a list. */
static PyObject *jj_stream_drain(jj_many_iter *it) {
    PyObject *out = PyList_New(0);
    while (out) {
        PyObject *value = jj_many_next_value(it);
        if (!value) {
            if (PyErr_Occurred()) {
                /* the documents before the error are returned; the error waits for the
                 * next call */
                it->done = 1;
                if (PyList_GET_SIZE(out) == 0) Py_CLEAR(out);
                else it->failure = jj_take_raised();
            } else if (!it->starved) {
                it->done = 1;
            }
            it->starved = 0;
            break;
        }
        int rc = PyList_Append(out, value);
        Py_DECREF(value);
        if (rc < 0) Py_CLEAR(out);
    }
    return out;
}

/* The documents of `out` then those of `more` (NULL with an exception): as in
 * jj_stream_drain, the documents come first and an error waits for the next call.
 * Steals both; NULL with the exception when there is no document to give first. */
static PyObject *jj_stream_join(jj_many_iter *it, PyObject *out, PyObject *more) {
    if (!more) {
        it->done = 1;
        if (PyList_GET_SIZE(out) == 0) {
            Py_DECREF(out);
            return NULL;
        }
        if (!it->failure) it->failure = jj_take_raised();
        else PyErr_Clear();
        return out;
    }
    Py_ssize_t have = PyList_GET_SIZE(out);
    if (PyList_GET_SIZE(more) && PyList_SetSlice(out, have, have, more) < 0) Py_CLEAR(out);
    Py_DECREF(more);
    return out;
}

static int jj_stream_usable(jj_many_iter *it) {
    if (it->failure) { /* an error met after the documents the last call returned */
        jj_give_raised(it->failure);
        it->failure = NULL;
        return 0;
    }
    if (!it->streamed || it->reader) {
        PyErr_SetString(PyExc_TypeError, "feed() and close() are for a Decoder's stream");
        return 0;
    }
    if (it->busy) {
        PyErr_SetString(PyExc_ValueError, "stream iterator already executing");
        return 0;
    }
    if (it->done || it->eof) {
        PyErr_SetString(PyExc_ValueError, "the Decoder is closed (or failed)");
        return 0;
    }
    return 1;
}

/* Appends bytes[0..n) to what is in hand and reads the documents they complete: a list. */
static PyObject *jj_stream_take(jj_many_iter *it, const uint8_t *bytes, size_t n) {
    if (jj_stream_append(it, bytes, n) < 0) return NULL;
    if (it->gated && !jj_stream_gate_opens(it)) return PyList_New(0);
    it->busy = 1;
    /* the documents are built with the cyclic collector paused; the list that holds them
     * is made so too, or it would run every collection their objects made due at each
     * feed (1.47x the time of loads_many over the same bytes in 64 KB chunks; 1.07x
     * with the collector off for both) */
    int gc_was_enabled = PyGC_Disable();
    /* read as if this chunk ended before a last line that cannot finish a document (the
     * same documents come, any cut being allowed): one less parse of it cut short */
    jj_gate tail;
    size_t fed_end = it->len, parse_end = jj_stream_parse_end(it, &tail);
    it->len = parse_end;
    PyObject *out = jj_stream_drain(it);
    it->len = fed_end;
    if (parse_end < fed_end) {
        Py_CLEAR(it->utf8); /* made for the shorter buffer */
        if (it->gated && it->gate_from == parse_end && it->gate_scan == parse_end) {
            /* starved by the document after the cut: its bytes were scanned already */
            it->gate_state = tail;
            it->gate_scan = fed_end;
        } else if (out && !it->done && it->gated && jj_stream_gate_opens(it)) {
            /* the document before the cut went on past it (a line break inside it) */
            out = jj_stream_join(it, out, jj_stream_drain(it));
        }
    }
    if (gc_was_enabled) PyGC_Enable();
    it->busy = 0;
    return out;
}

/* Whole lines of a chunk, at least this long, are read where they are (no copy). */
#define JJ_IN_PLACE_MIN ((size_t)256)

/* The formats whose documents a line break may end: their whole lines may be read in place. */
static int jj_stream_reads_lines(const jj_many_iter *it) {
    return it->format == JJ_FMT_WHITESPACE || it->format == JJ_FMT_LINES;
}

/* Whether whole lines fed may be read in place now: documents built from the bytes (no
 * view keeps them), and nothing in hand but white space (no document begun). */
static int jj_stream_may_read_in_place(jj_many_iter *it) {
    if (it->done || it->failure || !it->bom_checked || it->threads || it->lazy) return 0;
    for (size_t i = it->pos; i < it->len; i++) {
        uint8_t c = it->buf[i];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return 0;
    }
    return 1;
}

/* Reads the documents of lines[0..n), whole lines fed (read-only bytes that follow a line
 * break and end with one), where they are; what they leave unread (a document going on
 * past them) is then copied to the buffer. The white space in hand goes first. */
static PyObject *jj_stream_read_in_place(jj_many_iter *it, const uint8_t *lines, size_t n) {
    if (it->len) it->origin = jj_position_after(it->origin, jj_text_position_of(it->buf, it->len));
    it->buf = lines;
    it->len = n;
    it->pos = 0;
    it->gated = 0; /* no document begun */
    it->window_open = 0;
    Py_CLEAR(it->utf8);
    it->busy = 1;
    int gc_was_enabled = PyGC_Disable(); /* as in jj_stream_take */
    PyObject *out = jj_stream_drain(it);
    if (gc_was_enabled) PyGC_Enable();
    it->busy = 0;
    size_t keep = it->pos;
    if (keep) it->origin = jj_position_after(it->origin, jj_text_position_of(lines, keep));
    int no_room = jj_stream_room(it, n - keep) < 0;
    if (no_room) keep = n; /* nothing is kept: the stream ends with the MemoryError */
    else if (n > keep) memcpy(it->copy, lines + keep, n - keep);
    jj_stream_moved(it, keep);
    if (no_room && out) return jj_stream_join(it, out, NULL); /* the documents first */
    if (no_room) it->done = 1;
    return out;
}

static PyObject *jj_stream_feed(PyObject *self, PyObject *chunk) {
    jj_many_iter *it = (jj_many_iter *)self;
    if (!jj_stream_usable(it)) return NULL;
    PyObject *bytes = PyUnicode_Check(chunk) ? PyUnicode_AsEncodedString(chunk, "utf-8", "surrogatepass")
                                             : Py_NewRef(chunk);
    if (!bytes) return NULL;
    Py_buffer view;
    int ok = PyObject_GetBuffer(bytes, &view, PyBUF_SIMPLE) == 0;
    Py_DECREF(bytes);
    if (!ok) return NULL;
    const uint8_t *data = view.buf;
    size_t n = (size_t)view.len;
    /* The lines between the chunk's first and last line breaks need no copy when nothing
     * is begun after the first: they are read in place (a read-only chunk, the input
     * loads_many too reads where it lies), the bytes up to the first and after the last
     * are taken as ever. */
    const uint8_t *first = n >= JJ_IN_PLACE_MIN && view.readonly ? memchr(data, '\n', n) : NULL;
    const uint8_t *last = first ? jj_memrchr(first + 1, '\n', n - (size_t)(first + 1 - data)) : NULL;
    PyObject *out;
    if (last && (size_t)(last - first) >= JJ_IN_PLACE_MIN && jj_stream_reads_lines(it)) {
        size_t head = (size_t)(first + 1 - data), body = (size_t)(last - first);
        out = jj_stream_take(it, data, head);
        if (out && jj_stream_may_read_in_place(it)) {
            out = jj_stream_join(it, out, jj_stream_read_in_place(it, data + head, body));
            if (out && !it->done && !it->failure && n > head + body)
                out = jj_stream_join(it, out, jj_stream_take(it, data + head + body, n - head - body));
        } else if (out && !it->done && !it->failure) {
            out = jj_stream_join(it, out, jj_stream_take(it, data + head, n - head));
        }
    } else {
        out = jj_stream_take(it, data, n);
    }
    PyBuffer_Release(&view);
    return out;
}

static PyObject *jj_stream_close(PyObject *self, PyObject *unused) {
    (void)unused;
    jj_many_iter *it = (jj_many_iter *)self;
    if (!jj_stream_usable(it)) return NULL;
    it->eof = 1;
    it->window_open = 0; /* what was cut by the end of the chunks is read as the end */
    it->busy = 1;
    int gc_was_enabled = PyGC_Disable(); /* as in feed */
    PyObject *out = jj_stream_drain(it);
    if (gc_was_enabled) PyGC_Enable();
    it->busy = 0;
    it->done = 1;
    if (out && it->failure) {
        /* the end of the input is the last chance to raise: the documents read before
         * the error go with it, as its `documents` */
        PyObject *exc = it->failure;
        it->failure = NULL;
        if (PyObject_SetAttrString(exc, "documents", out) < 0) PyErr_Clear();
        Py_DECREF(out);
        jj_give_raised(exc);
        return NULL;
    }
    return out;
}

PyMethodDef jj_stream_methods[] = {
    {"_feed", jj_stream_feed, METH_O, NULL},
    {"_close", jj_stream_close, METH_NOARGS, NULL},
    {"_ahead", jj_threads_stats, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};
