/* jetjson.loads_arrow, jetjson.load_arrow_file and jetjson.ArrowStream: the engine's
 * NDJSON -> Arrow builder (jetjson_arrow.h) behind the Arrow PyCapsule interface. No
 * Python object is made from the data; the GIL is released while the engine reads. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "request.h"

#include "format_args.h"
#include "jetjson_arrow.h"

/* ---- the ArrowStream object ---- */

typedef struct jj_arrow_stream_obj {
    PyObject_HEAD
    struct ArrowArrayStream stream; /* released (moved out) once the batches are taken */
    struct ArrowSchema schema;      /* the batches' schema, copied for __arrow_c_schema__ */
    int64_t num_rows;
    int taken; /* the batches were handed over */
} jj_arrow_stream_obj;

static void stream_obj_dealloc(PyObject *self) {
    jj_arrow_stream_obj *s = (jj_arrow_stream_obj *)self;
    PyTypeObject *type = Py_TYPE(self);
    if (s->stream.release) s->stream.release(&s->stream);
    if (s->schema.release) s->schema.release(&s->schema);
    type->tp_free(self);
    Py_DECREF(type);
}

static void capsule_free_stream(PyObject *capsule) {
    struct ArrowArrayStream *s = PyCapsule_GetPointer(capsule, "arrow_array_stream");
    if (!s) {
        PyErr_Clear();
        return;
    }
    if (s->release) s->release(s);
    free(s);
}

static void capsule_free_schema(PyObject *capsule) {
    struct ArrowSchema *s = PyCapsule_GetPointer(capsule, "arrow_schema");
    if (!s) {
        PyErr_Clear();
        return;
    }
    if (s->release) s->release(s);
    free(s);
}

static PyObject *stream_obj_c_stream(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"requested_schema", NULL};
    PyObject *requested = Py_None; /* the batches have one schema: a request is not honoured */
    jj_arrow_stream_obj *s = (jj_arrow_stream_obj *)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:__arrow_c_stream__", kwlist, &requested)) return NULL;
    if (s->taken) {
        PyErr_SetString(PyExc_ValueError, "the ArrowStream's batches were already taken (a stream is read once)");
        return NULL;
    }
    struct ArrowArrayStream *out = malloc(sizeof *out);
    if (!out) return PyErr_NoMemory();
    *out = s->stream; /* moved: the consumer owns the batches (and their memory) now */
    PyObject *capsule = PyCapsule_New(out, "arrow_array_stream", capsule_free_stream);
    if (!capsule) {
        free(out);
        return NULL;
    }
    s->stream.release = NULL;
    s->taken = 1;
    return capsule;
}

static PyObject *stream_obj_c_schema(PyObject *self, PyObject *unused) {
    (void)unused;
    jj_arrow_stream_obj *s = (jj_arrow_stream_obj *)self;
    struct ArrowSchema *out = malloc(sizeof *out);
    if (!out) return PyErr_NoMemory();
    if (jj_arrow_schema_copy(&s->schema, out) != 0) {
        free(out);
        return PyErr_NoMemory();
    }
    PyObject *capsule = PyCapsule_New(out, "arrow_schema", capsule_free_schema);
    if (!capsule) {
        out->release(out);
        free(out);
    }
    return capsule;
}

static PyObject *stream_obj_num_rows(PyObject *self, void *closure) {
    (void)closure;
    jj_arrow_stream_obj *s = (jj_arrow_stream_obj *)self;
    if (s->taken) Py_RETURN_NONE;
    return PyLong_FromLongLong((long long)s->num_rows);
}

static PyMethodDef stream_obj_methods[] = {
    {"__arrow_c_stream__", (PyCFunction)(void (*)(void))stream_obj_c_stream, METH_VARARGS | METH_KEYWORDS,
     "__arrow_c_stream__($self, /, requested_schema=None)\n--\n\nThe record batches as an \"arrow_array_stream\" "
     "PyCapsule; once only (ValueError afterwards)."},
    {"__arrow_c_schema__", stream_obj_c_schema, METH_NOARGS,
     "__arrow_c_schema__($self, /)\n--\n\nThe schema (a struct of the columns) as an \"arrow_schema\" PyCapsule."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef stream_obj_getset[] = {
    {"num_rows", stream_obj_num_rows, NULL, "The number of records, None once the batches are taken.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot stream_obj_slots[] = {
    {Py_tp_dealloc, stream_obj_dealloc},
    {Py_tp_methods, stream_obj_methods},
    {Py_tp_getset, stream_obj_getset},
    {Py_tp_doc, "Record batches read from NDJSON by loads_arrow or load_arrow_file: give it to "
                "pyarrow.table(), pyarrow.RecordBatchReader.from_stream(), polars.DataFrame()... "
                "(Arrow PyCapsule interface). The batches are handed over once."},
    {0, NULL},
};

static PyType_Spec stream_obj_spec = {
    .name = "jetjson.ArrowStream",
    .basicsize = sizeof(jj_arrow_stream_obj),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = stream_obj_slots,
};

int jj_arrow_add_type(PyObject *module, jj_state *st) {
    st->arrow_stream_type = PyType_FromModuleAndSpec(module, &stream_obj_spec, NULL);
    if (!st->arrow_stream_type) return -1;
    return PyModule_AddObjectRef(module, "ArrowStream", st->arrow_stream_type);
}

/* ---- arguments ---- */

typedef struct arrow_args {
    PyObject *source, *schema, *threads;
    unsigned n_threads; /* threads=None or 0: one per processor */
    Py_ssize_t block_size;
    int error_on_unknown_fields, validate_skipped;
} arrow_args;

static int parse_args(const char *fn, PyObject *args, PyObject *kwargs, arrow_args *a) {
    static char *kwlist[] = {"", "schema", "block_size", "error_on_unknown_fields", "validate_skipped", "threads",
                             NULL};
    char format[64];
    a->schema = a->threads = Py_None;
    a->n_threads = 0;
    a->block_size = 1048576;
    a->error_on_unknown_fields = 0;
    a->validate_skipped = 1;
    PyOS_snprintf(format, sizeof format, "O|O$nppO:%s", fn);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, kwlist, &a->source, &a->schema, &a->block_size,
                                     &a->error_on_unknown_fields, &a->validate_skipped, &a->threads))
        return -1;
    if (a->block_size <= 0) {
        PyErr_Format(PyExc_ValueError, "%s(): block_size must be positive", fn);
        return -1;
    }
    if (jj_format_threads(fn, a->threads, &a->n_threads) < 0) return -1;
    return 0;
}

/* The schema's "arrow_schema" capsule (a new reference), Py_None for none. */
static PyObject *schema_capsule(PyObject *schema) {
    if (schema == Py_None) return Py_NewRef(Py_None);
    PyObject *capsule = PyObject_CallMethod(schema, "__arrow_c_schema__", NULL);
    if (!capsule) {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "schema must have __arrow_c_schema__ (a pyarrow.Schema...), not %.100s",
                         Py_TYPE(schema)->tp_name);
        }
        return NULL;
    }
    if (!PyCapsule_IsValid(capsule, "arrow_schema")) {
        Py_DECREF(capsule);
        PyErr_SetString(PyExc_TypeError, "schema.__arrow_c_schema__() did not return an \"arrow_schema\" capsule");
        return NULL;
    }
    return capsule;
}

static void raise_arrow_error(const jj_arrow_error *e) {
    if (e->status == JJ_ARROW_NOMEM) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
    } else if (e->status == JJ_ARROW_SCHEMA) {
        PyErr_Format(PyExc_ValueError, "schema field '%s': %s", e->field, e->message);
    } else if (e->field[0]) {
        PyErr_Format(PyExc_ValueError, "record %lld, field '%s': %s", (long long)e->record, e->field, e->message);
    } else {
        PyErr_Format(PyExc_ValueError, "record %lld: %s", (long long)e->record, e->message);
    }
}

/* A new ArrowStream with nothing in it yet (NULL with an exception). */
static jj_arrow_stream_obj *new_stream_obj(jj_state *st) {
    jj_arrow_stream_obj *obj = PyObject_New(jj_arrow_stream_obj, (PyTypeObject *)st->arrow_stream_type);
    if (obj) {
        memset(&obj->stream, 0, sizeof obj->stream);
        memset(&obj->schema, 0, sizeof obj->schema);
        obj->taken = 0;
        obj->num_rows = 0;
    }
    return obj;
}

/* Reads buf[0..len) into a new ArrowStream, without the GIL when `unlock` (nothing else
 * can write to the buffer meanwhile). */
static PyObject *read_buffer(jj_state *st, jj_parser *parser, const uint8_t *buf, size_t len, const arrow_args *a,
                             int unlock) {
    PyObject *capsule = schema_capsule(a->schema);
    if (!capsule) return NULL;
    const struct ArrowSchema *schema =
        capsule == Py_None ? NULL : PyCapsule_GetPointer(capsule, "arrow_schema");
    jj_arrow_stream_obj *obj = new_stream_obj(st);
    PyObject *result = NULL;
    if (obj) {
        jj_arrow_options opt = {(size_t)a->block_size, a->error_on_unknown_fields != 0, a->n_threads};
        jj_arrow_error err;
        jj_arrow_status status;
        PyThreadState *saved = unlock ? PyEval_SaveThread() : NULL;
        status = jj_arrow_read_ndjson(parser, buf, len, schema, &opt, &obj->stream, &obj->num_rows, &err);
        if (saved) PyEval_RestoreThread(saved);
        if (status == JJ_ARROW_OK && obj->stream.get_schema(&obj->stream, &obj->schema) != 0) {
            PyErr_NoMemory();
        } else if (status == JJ_ARROW_OK) {
            result = (PyObject *)obj;
            obj = NULL;
        } else {
            raise_arrow_error(&err);
        }
        Py_XDECREF(obj);
    }
    Py_DECREF(capsule);
    return result;
}

/* ---- a binary file object, read in chunks ---- */

/* Reads up to n bytes of the file object into dst: *got gets how many (0 at the end).
 * readinto where it has one (into `scratch`, a bytearray's memoryview of at least n
 * bytes: a file object that keeps a view of it keeps it alive, and the engine reads a
 * copy nobody else can write), else read(n). -1 with an exception set. */
static int read_some(PyObject *readinto, PyObject *read, PyObject *scratch, uint8_t *dst, size_t n, size_t *got) {
    PyObject *res;
    if (readinto) {
        PyObject *view = PySequence_GetSlice(scratch, 0, (Py_ssize_t)n);
        if (!view) return -1;
        res = PyObject_CallOneArg(readinto, view);
        Py_DECREF(view);
        if (!res) return -1;
        if (res == Py_None) {
            Py_DECREF(res);
            PyErr_SetString(PyExc_BlockingIOError, "loads_arrow(): readinto() returned None (no data on a "
                                                   "non-blocking stream)");
            return -1;
        }
        Py_ssize_t v = PyLong_AsSsize_t(res);
        Py_DECREF(res);
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || (size_t)v > n) {
            PyErr_Format(PyExc_ValueError, "loads_arrow(): readinto() returned %zd for a buffer of %zu bytes", v, n);
            return -1;
        }
        Py_buffer b;
        if (PyObject_GetBuffer(scratch, &b, PyBUF_SIMPLE) < 0) return -1;
        memcpy(dst, b.buf, (size_t)v);
        PyBuffer_Release(&b);
        *got = (size_t)v;
        return 0;
    }
    res = PyObject_CallFunction(read, "n", (Py_ssize_t)n);
    if (!res) return -1;
    if (PyUnicode_Check(res)) {
        Py_DECREF(res);
        PyErr_SetString(PyExc_TypeError, "loads_arrow() needs a binary file object: read() returned str (open "
                                         "the file in binary mode, 'rb', or pass sys.stdin.buffer)");
        return -1;
    }
    if (res == Py_None) {
        Py_DECREF(res);
        PyErr_SetString(PyExc_BlockingIOError, "loads_arrow(): read() returned None (no data on a non-blocking "
                                               "stream)");
        return -1;
    }
    Py_buffer b;
    if (PyObject_GetBuffer(res, &b, PyBUF_SIMPLE) < 0) {
        PyErr_Format(PyExc_TypeError, "loads_arrow(): read() must return bytes, not %.100s", Py_TYPE(res)->tp_name);
        Py_DECREF(res);
        return -1;
    }
    int rc = 0;
    if ((size_t)b.len > n) {
        PyErr_Format(PyExc_ValueError, "loads_arrow(): read(%zu) returned %zd bytes", n, b.len);
        rc = -1;
    } else {
        memcpy(dst, b.buf, (size_t)b.len);
        *got = (size_t)b.len;
    }
    PyBuffer_Release(&b);
    Py_DECREF(res);
    return rc;
}

/* The reader's input: a buffer of block_size bytes (more for a longer line) whose
 * whole lines go to the engine, the rest moved to its start before the next read.
 * JJ_ARROW_NOMEM with a Python exception set when the file object failed. */
static jj_arrow_status feed_file(jj_arrow_reader *reader, PyObject *readinto, PyObject *read, size_t block,
                                 jj_arrow_error *err) {
    size_t cap = block, have = 0;
    uint8_t *buf = malloc(cap);
    PyObject *bytes = readinto ? PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)block) : NULL;
    PyObject *scratch = bytes ? PyMemoryView_FromObject(bytes) : NULL;
    jj_arrow_status s = JJ_ARROW_OK;
    if (!buf || (readinto && !scratch)) s = JJ_ARROW_NOMEM;
    for (int more = 1; more && !s;) {
        while (have < cap) {
            size_t got = 0, want = cap - have;
            if (want > block) want = block; /* the scratch buffer's size */
            if (read_some(readinto, read, scratch, buf + have, want, &got) < 0) {
                s = JJ_ARROW_NOMEM;
                break;
            }
            if (!got) {
                more = 0;
                break;
            }
            have += got;
        }
        if (s) break;
        size_t used = 0;
        Py_BEGIN_ALLOW_THREADS
        s = jj_arrow_reader_feed(reader, buf, have, more != 0, &used, err);
        Py_END_ALLOW_THREADS
        memmove(buf, buf + used, have - used);
        have -= used;
        if (!s && more && have == cap) { /* a line longer than the buffer: the buffer grows */
            uint8_t *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!bigger) s = JJ_ARROW_NOMEM;
            else buf = bigger, cap *= 2;
        }
    }
    free(buf);
    Py_XDECREF(scratch);
    Py_XDECREF(bytes);
    return s;
}

static PyObject *read_file_object(jj_state *st, PyObject *readinto, PyObject *read, const arrow_args *a) {
    PyObject *capsule = schema_capsule(a->schema);
    if (!capsule) return NULL;
    const struct ArrowSchema *schema = capsule == Py_None ? NULL : PyCapsule_GetPointer(capsule, "arrow_schema");
    jj_arrow_options opt = {(size_t)a->block_size, a->error_on_unknown_fields != 0, 1};
    jj_arrow_reader *reader = jj_arrow_reader_new(schema, &opt);
    jj_arrow_stream_obj *obj = new_stream_obj(st);
    PyObject *result = NULL;
    if (!reader || !obj) {
        PyErr_NoMemory();
    } else {
        jj_arrow_error err = {0};
        jj_arrow_status status = feed_file(reader, readinto, read, (size_t)a->block_size, &err);
        if (!status && !PyErr_Occurred()) {
            Py_BEGIN_ALLOW_THREADS
            status = jj_arrow_reader_finish(reader, &obj->stream, &obj->num_rows, &err);
            Py_END_ALLOW_THREADS
        }
        if (PyErr_Occurred()) {
            /* the file object's exception */
        } else if (status == JJ_ARROW_OK && obj->stream.get_schema(&obj->stream, &obj->schema) != 0) {
            PyErr_NoMemory();
        } else if (status == JJ_ARROW_OK) {
            result = (PyObject *)obj;
            obj = NULL;
        } else {
            err.status = status;
            raise_arrow_error(&err);
        }
    }
    jj_arrow_reader_free(reader);
    Py_XDECREF(obj);
    Py_DECREF(capsule);
    return result;
}

/* The bound readinto (or read) of a file object, or 0 for an object without either. */
static int optional_attr(PyObject *o, const char *name, PyObject **out) {
    *out = PyObject_GetAttrString(o, name);
    if (*out) return 1;
    if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
    PyErr_Clear();
    return 0;
}

static int file_methods(PyObject *source, PyObject **readinto, PyObject **read) {
    *readinto = *read = NULL;
    int found = optional_attr(source, "readinto", readinto);
    return found ? found : optional_attr(source, "read", read);
}

PyObject *jj_py_loads_arrow(PyObject *module, PyObject *args, PyObject *kwargs) {
    arrow_args a;
    if (parse_args("loads_arrow", args, kwargs, &a) < 0) return NULL;
    jj_state *st = PyModule_GetState(module);
    PyObject *result = NULL;
    jj_request r = {0};
    int opened = jj_request_open(&r, st, a.source);
    PyObject *readinto = NULL, *read = NULL;
    int is_file = opened == JJ_INPUT_UNSUPPORTED ? file_methods(a.source, &readinto, &read) : 0;
    if (is_file > 0) {
        result = read_file_object(st, readinto, read, &a);
    } else if (is_file < 0) {
        /* the attribute lookup's exception */
    } else if (opened == JJ_INPUT_UNSUPPORTED) {
        PyErr_Format(PyExc_TypeError,
                     "loads_arrow() argument must be str, bytes, bytearray, memoryview or a binary file object "
                     "(with readinto or read), not %.100s",
                     Py_TYPE(a.source)->tp_name);
    } else if (opened == 0) {
        result = read_buffer(st, r.parser, r.in.buf, r.in.len, &a, jj_request_unlocks(&r));
    }
    Py_XDECREF(readinto);
    Py_XDECREF(read);
    jj_request_close(&r);
    return result;
}

PyObject *jj_py_load_arrow_file(PyObject *module, PyObject *args, PyObject *kwargs) {
    arrow_args a;
    if (parse_args("load_arrow_file", args, kwargs, &a) < 0) return NULL;
    jj_state *st = PyModule_GetState(module);
    PyObject *path_bytes = NULL;
    if (!PyUnicode_FSConverter(a.source, &path_bytes)) return NULL;
    PyObject *result = NULL;
    int fd;
    Py_BEGIN_ALLOW_THREADS
    fd = open(PyBytes_AS_STRING(path_bytes), O_RDONLY | O_CLOEXEC);
    Py_END_ALLOW_THREADS
    Py_DECREF(path_bytes);
    if (fd < 0) return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, a.source);
    struct stat info;
    int stat_failed = fstat(fd, &info) < 0;
    if (stat_failed || !S_ISREG(info.st_mode)) {
        if (!stat_failed) errno = S_ISDIR(info.st_mode) ? EISDIR : EINVAL;
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, a.source);
    } else {
        size_t len = (size_t)info.st_size;
        void *map = NULL;
        if (len) {
            Py_BEGIN_ALLOW_THREADS
            map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
            Py_END_ALLOW_THREADS
        }
        if (map == MAP_FAILED) {
            PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, a.source);
        } else {
            jj_request r = {0};
            static const uint8_t nothing[1];
            if (jj_request_open_memory(&r, st, len ? map : nothing, len) == 0)
                result = read_buffer(st, r.parser, r.in.buf, r.in.len, &a, len >= JJ_UNLOCK_MIN_BYTES);
            jj_request_close(&r);
            if (len) munmap(map, len);
        }
    }
    close(fd);
    return result;
}
