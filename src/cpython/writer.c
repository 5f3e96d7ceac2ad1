/* The serializers' growable output buffer (see writer.h): the engine's byte sink over a
 * bytes object (or a compact ASCII str) under construction. */
#include "writer.h"

size_t jj_writer_first_capacity(size_t last_len) {
    const size_t floor = 1024, ceiling = (size_t)64 << 20;
    if (last_len > ceiling) return ceiling;
    size_t guess = last_len + last_len / 8 + 64;
    return guess < floor ? floor : guess > ceiling ? ceiling : guess;
}

static void jj_writer_attach(jj_writer *w, uint8_t *base, size_t used, size_t cap) {
    w->start = base;
    w->pos = base + used;
    w->end = base + cap;
}

/* The sink's resize callbacks: the object is private to the writer until finish (one
 * reference, never shown to Python code), which is what lets it be resized in place. A
 * failure drops it (_PyBytes_Resize has freed it already, PyUnicode_Resize keeps it). */
static int jj_writer_resize(jj_sink *s, size_t cap, int is_str) {
    size_t used = jj_sink_len(s);
    PyObject *obj = (PyObject *)s->ctx;
    int rc = -1;
    if (cap > (size_t)PY_SSIZE_T_MAX / 2) PyErr_NoMemory();
    else rc = is_str ? PyUnicode_Resize(&obj, (Py_ssize_t)cap) : _PyBytes_Resize(&obj, (Py_ssize_t)cap);
    if (rc < 0) Py_CLEAR(obj);
    s->ctx = obj;
    if (!obj) return -1;
    jj_writer_attach(s, is_str ? (uint8_t *)PyUnicode_DATA(obj) : (uint8_t *)PyBytes_AS_STRING(obj), used, cap);
    return 0;
}

static int jj_writer_resize_bytes(jj_sink *s, size_t cap) { return jj_writer_resize(s, cap, 0); }
static int jj_writer_resize_ascii(jj_sink *s, size_t cap) { return jj_writer_resize(s, cap, 1); }

static int jj_writer_start(jj_writer *w, size_t hint, int is_str) {
    w->start = w->pos = w->end = NULL;
    w->error = 0;
    w->ctx = NULL;
    w->resize = is_str ? jj_writer_resize_ascii : jj_writer_resize_bytes;
    if (hint < 64) hint = 64;
    if (hint > (size_t)PY_SSIZE_T_MAX / 2) {
        PyErr_NoMemory();
        w->error = 1;
        return -1;
    }
    PyObject *obj = is_str ? PyUnicode_New((Py_ssize_t)hint, 127) : PyBytes_FromStringAndSize(NULL, (Py_ssize_t)hint);
    if (!obj) {
        w->error = 1;
        return -1;
    }
    w->ctx = obj;
    jj_writer_attach(w, is_str ? (uint8_t *)PyUnicode_DATA(obj) : (uint8_t *)PyBytes_AS_STRING(obj), 0, hint);
    return 0;
}

int jj_writer_start_bytes(jj_writer *w, size_t hint) { return jj_writer_start(w, hint, 0); }
int jj_writer_start_ascii(jj_writer *w, size_t hint) { return jj_writer_start(w, hint, 1); }

PyObject *jj_writer_finish(jj_writer *w) {
    size_t len;
    if (!w->ctx || jj_sink_finish(w, &len)) {
        jj_writer_abandon(w);
        return NULL;
    }
    PyObject *result = (PyObject *)w->ctx;
    w->ctx = NULL;
    w->start = w->pos = w->end = NULL;
    return result;
}

void jj_writer_abandon(jj_writer *w) {
    PyObject *obj = (PyObject *)w->ctx;
    w->ctx = NULL;
    Py_XDECREF(obj);
    w->start = w->pos = w->end = NULL;
}

static int jj_unlocked_writer_resize(jj_sink *s, size_t cap) {
    jj_unlocked_writer *o = (jj_unlocked_writer *)(void *)s;
    if (o->saved) PyEval_RestoreThread(o->saved);
    int rc = o->bytes_resize(s, cap);
    if (o->saved) o->saved = PyEval_SaveThread();
    return rc;
}

int jj_unlocked_writer_start(jj_unlocked_writer *o, size_t hint) {
    if (hint > (size_t)PY_SSIZE_T_MAX / 2) hint = (size_t)PY_SSIZE_T_MAX / 2;
    o->saved = NULL;
    if (jj_writer_start_bytes(&o->w, hint)) return -1;
    o->bytes_resize = o->w.resize;
    o->w.resize = jj_unlocked_writer_resize;
    return 0;
}
