/* The stream iterator's type (many.h): its constructor (jj_many_open, the module's
 * _many), the fields= it takes, and its iterator slots. Reading the documents is
 * many.c's. */
#include <string.h>

#include "many.h"

static PyObject *jj_many_iternext(PyObject *self) {
    jj_many_iter *it = (jj_many_iter *)self;
    if (it->done) return NULL;
    if (it->busy) {
        PyErr_SetString(PyExc_ValueError, "stream iterator already executing");
        return NULL;
    }
    if (it->streamed && !it->reader) {
        PyErr_SetString(PyExc_TypeError, "a Decoder's stream is read with feed() and close()");
        return NULL;
    }
    it->busy = 1;
    PyObject *value = jj_many_next_value(it);
    it->busy = 0;
    if (!value) { /* the end, or an error: nothing comes after either */
        it->done = 1;
        jj_threads_stop(it);
        jj_parser_free(it->parser);
        jj_parser_free(it->doc_parser);
    }
    return value;
}

static int jj_many_traverse(PyObject *self, visitproc visit, void *arg) {
    jj_many_iter *it = (jj_many_iter *)self;
    Py_VISIT(it->owner);
    Py_VISIT(it->text);
    Py_VISIT(it->fields);
    Py_VISIT(it->default_value);
    Py_VISIT(it->reader);
    Py_VISIT(it->failure);
    /* view.obj is not visited: the GC could clear that exporter (a memoryview) before
     * our dealloc releases the buffer it lent us */
    Py_VISIT(Py_TYPE(self));
    return 0;
}

static int jj_many_clear(PyObject *self) {
    jj_many_iter *it = (jj_many_iter *)self;
    Py_CLEAR(it->fields);
    Py_CLEAR(it->default_value);
    return 0;
}

static void jj_many_dealloc(PyObject *self) {
    jj_many_iter *it = (jj_many_iter *)self;
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    jj_many_clear(self);
    jj_threads_stop(it); /* before the input goes: the workers read it */
    if (it->has_view) PyBuffer_Release(&it->view);
    Py_CLEAR(it->owner);
    Py_CLEAR(it->text);
    Py_CLEAR(it->utf8);
    Py_CLEAR(it->reader);
    Py_CLEAR(it->cur_owner);
    Py_CLEAR(it->failure);
    Py_CLEAR(it->typed_plan);
    Py_CLEAR(it->skim_value);
    jj_fields_plan_delete(it->fields_plan);
    PyMem_Free(it->field_spans);
    free(it->copy);
    jj_parser_delete(it->parser);
    jj_parser_delete(it->doc_parser);
    if (it->ahead_view) jj_window_unview(it->ahead_view); /* the window's buffers, not its own */
    jj_parser_delete(it->ahead_view);
    PyObject_GC_Del(self);
    Py_DECREF(type);
}

static PyType_Slot jj_many_slots[] = {
    {Py_tp_iter, PyObject_SelfIter},
    {Py_tp_iternext, jj_many_iternext},
    {Py_tp_methods, jj_stream_methods},
    {Py_tp_traverse, jj_many_traverse},
    {Py_tp_clear, jj_many_clear},
    {Py_tp_dealloc, jj_many_dealloc},
    {Py_tp_doc, "The documents of a stream, one by one (jetjson.loads_many, jetjson.parse_many)."},
    {0, NULL},
};

static PyType_Spec jj_many_spec = {
    .name = "jetjson._jetjson.StreamIterator",
    .basicsize = sizeof(jj_many_iter),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_DISALLOW_INSTANTIATION |
             Py_TPFLAGS_IMMUTABLETYPE,
    .slots = jj_many_slots,
};

int jj_many_add_type(PyObject *module, jj_state *st) {
    st->many_type = PyType_FromModuleAndSpec(module, &jj_many_spec, NULL);
    return st->many_type ? 0 : -1;
}

/* The skim plan of the fields, when they allow one (jj_fields_plan_new): 0, or -1. */
static int jj_plan_fields(jj_many_iter *it) {
    if (it->format != JJ_FMT_WHITESPACE && it->format != JJ_FMT_LINES) return 0; /* these read whole documents */
    Py_ssize_t n = PyTuple_GET_SIZE(it->fields);
    const char **ptrs = PyMem_Calloc((size_t)n + 1, sizeof *ptrs);
    size_t *lens = PyMem_Calloc((size_t)n + 1, sizeof *lens);
    it->field_spans = PyMem_Calloc((size_t)n + 1, sizeof *it->field_spans);
    if (ptrs && lens && it->field_spans) {
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *b = PyTuple_GET_ITEM(it->fields, i);
            ptrs[i] = PyBytes_AS_STRING(b);
            lens[i] = (size_t)PyBytes_GET_SIZE(b);
        }
        it->fields_plan = jj_fields_plan_new(ptrs, lens, (size_t)n);
    }
    PyMem_Free(ptrs);
    PyMem_Free(lens);
    if (!it->fields_plan) return PyErr_NoMemory(), -1;
    if (!it->fields_plan->skimmable) { /* read whole documents, as before */
        jj_fields_plan_delete(it->fields_plan);
        it->fields_plan = NULL;
    }
    return 0;
}

/* fields= as a tuple of pointers in bytes, each checked. */
static int jj_take_fields(jj_many_iter *it, PyObject *fields) {
    it->single = PyUnicode_Check(fields);
    PyObject *list = it->single ? PyTuple_Pack(1, fields) : PySequence_Tuple(fields);
    if (!list) return -1;
    Py_ssize_t n = PyTuple_GET_SIZE(list);
    it->fields = PyTuple_New(n);
    for (Py_ssize_t i = 0; it->fields && i < n; i++) {
        PyObject *ptr = PyTuple_GET_ITEM(list, i);
        if (!PyUnicode_Check(ptr)) {
            PyErr_Format(PyExc_TypeError, "fields must be a JSON Pointer (str) or a list or tuple of them, not %.200s",
                         Py_TYPE(ptr)->tp_name);
            break;
        }
        PyObject *b = PyUnicode_AsEncodedString(ptr, "utf-8", "surrogatepass");
        if (!b) break;
        PyTuple_SET_ITEM(it->fields, i, b);
        size_t bad;
        if (jj_pointer_check(PyBytes_AS_STRING(b), (size_t)PyBytes_GET_SIZE(b), &bad) != JJ_PTR_OK) {
            PyErr_Format(PyExc_ValueError, "invalid JSON Pointer %R (at byte %zu)", ptr, bad);
            break;
        }
    }
    Py_DECREF(list);
    if (PyErr_Occurred()) return -1;
    return jj_plan_fields(it);
}

/* _many(data, format, lazy, fields, default, batch_size[, workers]): the iterator; the
 * keywords are checked by python/jetjson. workers > 0: windows parsed ahead on that many
 * pool threads (many_threads.c). */
PyObject *jj_many_open(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    jj_state *st = (jj_state *)PyModule_GetState(module);
    if (nargs != 6 && nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "_many takes 6 or 7 arguments");
        return NULL;
    }
    long format = PyLong_AsLong(args[1]);
    Py_ssize_t batch = PyLong_AsSsize_t(args[5]);
    Py_ssize_t workers = nargs == 7 ? PyLong_AsSsize_t(args[6]) : 0;
    if (PyErr_Occurred()) return NULL;
    if (format < JJ_FMT_WHITESPACE || format > JJ_FMT_ARRAY || batch <= 0) {
        PyErr_SetString(PyExc_ValueError, "_many: bad format or batch size");
        return NULL;
    }
    jj_many_iter *it = PyObject_GC_New(jj_many_iter, (PyTypeObject *)st->many_type);
    if (!it) return NULL;
    memset((char *)it + sizeof(PyObject), 0, sizeof *it - sizeof(PyObject));
    it->st = st;
    it->format = (jj_many_format)format;
    it->lazy = PyObject_IsTrue(args[2]) == 1;
    it->batch = (size_t)batch;
    it->default_value = Py_NewRef(args[4]);
    it->origin = (jj_text_position){0, 1, 1};
    it->parser = jj_parser_new();
    it->doc_parser = jj_parser_new();
    it->ahead_view = jj_parser_new();
    PyObject_GC_Track((PyObject *)it);
    if (!it->parser || !it->doc_parser || !it->ahead_view) {
        Py_DECREF(it);
        return PyErr_NoMemory();
    }
    if (jj_many_take_input(it, args[0]) < 0 || (args[3] != Py_None && jj_take_fields(it, args[3]) < 0)) {
        Py_DECREF(it);
        return NULL;
    }
    it->spans = it->lazy && !it->fields;
    if (workers > 0 && jj_threads_start(it, workers) < 0) {
        Py_DECREF(it);
        return NULL;
    }
    return (PyObject *)it;
}
