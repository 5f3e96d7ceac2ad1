/* The serializers' growable output buffer (see writer.h). */
#include "writer.h"

/* Capacity the next buffer gets when `need` bytes must fit: grow by half again at least,
 * so n appends cost O(n) copies overall. */
static size_t jj_writer_next_capacity(size_t cap, size_t need) {
    size_t grown = cap + cap / 2;
    if (grown < need) grown = need;
    if (grown < 64) grown = 64;
    return grown;
}

size_t jj_writer_first_capacity(size_t last_len) {
    const size_t floor = 1024, ceiling = (size_t)64 << 20;
    if (last_len > ceiling) return ceiling;
    size_t guess = last_len + last_len / 8 + 64;
    return guess < floor ? floor : guess > ceiling ? ceiling : guess;
}

static int jj_writer_attach(jj_writer *w, size_t used, size_t cap) {
    uint8_t *base = w->is_str ? (uint8_t *)PyUnicode_DATA(w->obj) : (uint8_t *)PyBytes_AS_STRING(w->obj);
    w->start = base;
    w->pos = base + used;
    w->end = base + cap;
    return 0;
}

static int jj_writer_start(jj_writer *w, size_t hint, int is_str) {
    if (hint < 64) hint = 64;
    if (hint > (size_t)PY_SSIZE_T_MAX / 2) {
        PyErr_NoMemory();
        w->obj = NULL;
        return -1;
    }
    w->is_str = is_str;
    w->obj = is_str ? PyUnicode_New((Py_ssize_t)hint, 127) : PyBytes_FromStringAndSize(NULL, (Py_ssize_t)hint);
    if (!w->obj) return -1;
    return jj_writer_attach(w, 0, hint);
}

int jj_writer_start_bytes(jj_writer *w, size_t hint) { return jj_writer_start(w, hint, 0); }
int jj_writer_start_ascii(jj_writer *w, size_t hint) { return jj_writer_start(w, hint, 1); }

/* Resize the private result object to `size` bytes in place (a realloc). */
static int jj_writer_resize(jj_writer *w, size_t size) {
    if (w->is_str) return PyUnicode_Resize(&w->obj, (Py_ssize_t)size);
    return _PyBytes_Resize(&w->obj, (Py_ssize_t)size);
}

int jj_writer_grow(jj_writer *w, size_t n) {
    size_t used = jj_writer_len(w);
    size_t cap = (size_t)(w->end - w->start);
    if (n > (size_t)PY_SSIZE_T_MAX / 2 - used) {
        PyErr_NoMemory();
        return -1;
    }
    size_t next = jj_writer_next_capacity(cap, used + n);
    if (jj_writer_resize(w, next)) {
        /* the bytes resizer has freed the object and cleared w->obj; the str resizer
         * has kept it: either way abandon leaves nothing behind */
        jj_writer_abandon(w);
        return -1;
    }
    return jj_writer_attach(w, used, next);
}

PyObject *jj_writer_finish(jj_writer *w) {
    if (!w->obj) return NULL;
    size_t used = jj_writer_len(w);
    if (used != (size_t)(w->end - w->start) && jj_writer_resize(w, used)) {
        jj_writer_abandon(w);
        return NULL;
    }
    PyObject *result = w->obj;
    w->obj = NULL;
    w->start = w->pos = w->end = NULL;
    return result;
}

void jj_writer_abandon(jj_writer *w) {
    Py_CLEAR(w->obj);
    w->start = w->pos = w->end = NULL;
}
