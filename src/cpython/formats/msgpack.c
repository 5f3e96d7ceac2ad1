/* jetjson.json_to_msgpack and jetjson.msgpack_to_json: the engine's converters
 * (jetjson_msgpack.h) on Python buffers. No Python object is made from the data; the
 * result is written straight into the bytes object returned, and the GIL is released
 * while the engine works on inputs that nothing can change meanwhile. */
#include "request.h"
#include "writer.h"

#include <unistd.h>

#include "jetjson_msgpack.h"
#include "format_args.h"

/* ---- keyword arguments ---- */

typedef struct mp_args {
    int ndjson, stream, validate_utf8, binary_as_base64, ext_as_null;
    size_t block_size;
    unsigned threads;
} mp_args;

/* block_size: a positive int (the size of the parts the input is cut into for threads);
 * threads: None or an int >= 0, None and 0 meaning one per processor (loads_arrow's
 * rule). */
static int mp_check_sizes(const char *fn, PyObject *block_size, PyObject *threads, mp_args *a) {
    a->block_size = (size_t)1 << 20;
    if (jj_format_block_size(fn, block_size, &a->block_size) < 0) return -1;
    return jj_format_threads(fn, threads, &a->threads);
}

/* Parses (data, /, *, <flags>, block_size, threads); names[i] sets *flags[i]. */
static int mp_parse_args(const char *fn, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                         const char *const *names, int *const *flags, size_t nflags, mp_args *a) {
    PyObject *block_size = NULL, *threads = NULL;
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "%s() takes exactly 1 positional argument (%zd given)", fn, nargs);
        return -1;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i), *value = args[nargs + i];
        size_t k = 0;
        for (; k < nflags; k++)
            if (PyUnicode_CompareWithASCIIString(name, names[k]) == 0) break;
        if (k < nflags) {
            int truth = PyObject_IsTrue(value);
            if (truth < 0) return -1;
            *flags[k] = truth;
        } else if (PyUnicode_CompareWithASCIIString(name, "block_size") == 0) {
            block_size = value;
        } else if (PyUnicode_CompareWithASCIIString(name, "threads") == 0) {
            threads = value;
        } else {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fn, name);
            return -1;
        }
    }
    return mp_check_sizes(fn, block_size, threads, a);
}

/* ---- json_to_msgpack ---- */

static PyObject *mp_raise_json(const jj_mp_status *st) {
    if (st->error == JJ_MP_NOMEM) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
    } else if (st->error == JJ_MP_JSON) {
        PyErr_Format(PyExc_ValueError, "%s at byte %zu (document %zu)", jj_error_name(st->json_error), st->offset,
                     st->document);
    } else {
        PyErr_Format(PyExc_ValueError, "%s at byte %zu (document %zu)", jj_mp_error_name(st->error), st->offset,
                     st->document);
    }
    return NULL;
}

PyObject *jj_py_json_to_msgpack(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"ndjson"};
    mp_args a = {0};
    int *const flags[] = {&a.ndjson};
    if (mp_parse_args("json_to_msgpack", args, nargs, kwnames, names, flags, 1, &a) < 0) return NULL;
    jj_state *st = PyModule_GetState(module);
    PyObject *result = NULL;
    jj_request r = {0};
    int opened = jj_request_open(&r, st, args[0]);
    if (opened == JJ_INPUT_UNSUPPORTED) {
        PyErr_Format(PyExc_TypeError, "json_to_msgpack() argument must be str, bytes, bytearray or memoryview, not %.100s",
                     Py_TYPE(args[0])->tp_name);
    } else if (opened == 0) {
        jj_unlocked_writer o;
        /* MessagePack is mostly smaller than its JSON: the input's size rarely grows */
        if (jj_unlocked_writer_start(&o, r.in.len + 64) == 0) {
            jj_mp_status status;
            o.saved = jj_request_unlock(&r);
            jj_mp_error err = jj_json_to_msgpack_threads(r.parser, r.in.buf, r.in.len, a.ndjson ? JJ_MP_NDJSON : 0,
                                                         a.threads, a.block_size, &o.w, &status);
            jj_request_relock(o.saved);
            o.saved = NULL;
            if (err == JJ_MP_OK) result = jj_writer_finish(&o.w);
            else {
                jj_writer_abandon(&o.w);
                mp_raise_json(&status);
            }
        }
    }
    jj_request_close(&r);
    return result;
}

/* ---- msgpack_to_json ---- */

PyObject *jj_py_msgpack_to_json(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    static const char *const names[] = {"stream", "validate_utf8", "binary_as_base64", "ext_as_null"};
    mp_args a = {0, 0, 1, 1, 0, 0, 0};
    int *const flags[] = {&a.stream, &a.validate_utf8, &a.binary_as_base64, &a.ext_as_null};
    (void)module;
    if (mp_parse_args("msgpack_to_json", args, nargs, kwnames, names, flags, 4, &a) < 0) return NULL;
    unsigned fl = (a.stream ? JJ_MP_STREAM : 0) | (a.validate_utf8 ? 0 : JJ_MP_NO_UTF8_CHECK) |
                  (a.binary_as_base64 ? 0 : JJ_MP_BIN_ERROR) | (a.ext_as_null ? JJ_MP_EXT_NULL : 0);
    Py_buffer view;
    if (PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "msgpack_to_json() argument must be a bytes-like object, not str");
        return NULL;
    }
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) return NULL;
    const uint8_t *buf = view.buf;
    size_t len = (size_t)view.len;
    PyObject *result = NULL;
    jj_unlocked_writer o;
    /* JSON text is mostly larger than its MessagePack (numbers above all) */
    if (jj_unlocked_writer_start(&o, len + len / 2 + 64) == 0) {
        jj_mp_status status;
        /* a writable buffer could change under a thread that runs without the GIL */
        int unlock = len >= JJ_UNLOCK_MIN_BYTES && view.readonly;
        o.saved = unlock ? PyEval_SaveThread() : NULL;
        jj_mp_error err = jj_msgpack_to_json_threads(buf, len, fl, a.threads, a.block_size, &o.w, &status);
        if (o.saved) PyEval_RestoreThread(o.saved);
        o.saved = NULL;
        if (err == JJ_MP_OK) {
            result = jj_writer_finish(&o.w);
        } else {
            jj_writer_abandon(&o.w);
            if (err == JJ_MP_NOMEM) {
                if (!PyErr_Occurred()) PyErr_NoMemory();
            } else if (err == JJ_MP_TRUNCATED && status.offset < len) {
                /* named after what was cut: "truncated string (byte 1234)" */
                PyErr_Format(PyExc_ValueError, "truncated %s (byte %zu)", jj_msgpack_type_name(buf[status.offset]),
                             status.offset);
            } else {
                PyErr_Format(PyExc_ValueError, "%s (byte %zu)", jj_mp_error_name(err), status.offset);
            }
        }
    }
    PyBuffer_Release(&view);
    return result;
}
