/* Entry points of typed decoding: loads(data, type=T), load_file(path, type=T) and
 * jetjson.Decoder(T), which keeps T's compiled plan for repeated calls. */
#include "request.h"
#include "typed.h"

#include <structmember.h>

/* The value of a document json accepts and the engine does not (NaN, a number past a
 * double...), converted from what json.loads returned. */
static PyObject *jt_from_json(jj_state *st, const jj_tnode *root, PyObject *value, int flags) {
    if (!value) return NULL;
    PyObject *result = jj_typed_from_object(st, root, value, flags, -1);
    Py_DECREF(value);
    return result;
}

/* Parses an opened request and builds root from it. */
static PyObject *jt_request(jj_request *r, const jj_tnode *root, int flags) {
    PyThreadState *saved = jj_request_unlock(r);
    jj_error err = jj_parse_lazy(r->parser, r->in.buf, r->in.len);
    jj_request_relock(saved);
    if (err != JJ_OK) return jt_from_json(r->st, root, jj_request_refused(r, err), flags);
    if (jj_depth_check(jj_parser_result(r->parser)) < 0) return NULL;
    return jj_typed_build(r->st, r->parser, r->in.buf, r->in.len, root, flags, -1);
}

static PyObject *jt_decode(jj_state *st, PyObject *plan, PyObject *data, int flags) {
    const jj_tnode *root = jj_typed_plan_get(plan)->nodes[0];
    jj_request r = {0};
    PyObject *result = NULL;
    int opened = jj_request_open(&r, st, data);
    if (opened == JJ_INPUT_UNSUPPORTED) result = jt_from_json(st, root, jj_request_foreign(&r), flags);
    else if (opened == 0) result = jt_request(&r, root, flags);
    jj_request_close(&r);
    return result;
}

PyObject *jj_typed_loads(jj_state *st, PyObject *data, PyObject *type, int flags, PyObject *rename) {
    PyObject *plan = jj_typed_plan(st, type, rename);
    if (!plan) return NULL;
    PyObject *result = jt_decode(st, plan, data, flags);
    Py_DECREF(plan);
    return result;
}

PyObject *jj_typed_request(jj_request *r, PyObject *type, int flags, PyObject *rename) {
    PyObject *plan = jj_typed_plan(r->st, type, rename);
    if (!plan) return NULL;
    PyObject *result = jt_request(r, jj_typed_plan_get(plan)->nodes[0], flags);
    Py_DECREF(plan);
    return result;
}

int jj_typed_keywords(const char *fn, const char *what, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      PyObject **type, int *flags, PyObject **rename) {
    *type = NULL;
    *rename = NULL;
    *flags = 0;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; nargs == 1 && i < nkw; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i), *value = args[nargs + i];
        if (jj_keyword_is(name, "type")) {
            *type = value;
        } else if (jj_keyword_is(name, "rename")) {
            *rename = value;
        } else if (jj_keyword_is(name, "forbid_unknown_fields")) {
            int forbid = PyObject_IsTrue(value);
            if (forbid < 0) return -1;
            *flags = forbid ? JJ_TYPED_FORBID_UNKNOWN : 0;
        } else {
            nargs = -1; /* a keyword of json's */
        }
    }
    if (nargs != 1 || !*type) {
        PyErr_Format(PyExc_TypeError, "%s() takes the %s, and type=, forbid_unknown_fields= and rename= only when "
                                      "type= is given", fn, what);
        return -1;
    }
    return 0;
}

/* ---- jetjson.Decoder ---- */

typedef struct jt_decoder {
    PyObject_HEAD
    PyObject *type;
    PyObject *plan;
    int flags;
} jt_decoder;

static PyObject *jt_decoder_new(PyTypeObject *cls, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"type", "forbid_unknown_fields", "rename", NULL};
    PyObject *type = (PyObject *)&PyBaseObject_Type, *rename = Py_None;
    int forbid = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O$pO:Decoder", keywords, &type, &forbid, &rename)) return NULL;
    jj_state *st = PyType_GetModuleState(cls);
    if (!st) return NULL;
    PyObject *plan = jj_typed_plan(st, type, rename);
    if (!plan) return NULL;
    jt_decoder *self = (jt_decoder *)cls->tp_alloc(cls, 0);
    if (!self) {
        Py_DECREF(plan);
        return NULL;
    }
    self->type = Py_NewRef(type);
    self->plan = plan;
    self->flags = forbid ? JJ_TYPED_FORBID_UNKNOWN : 0;
    return (PyObject *)self;
}

static int jt_decoder_traverse(jt_decoder *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->type);
    return 0;
}

static int jt_decoder_clear(jt_decoder *self) {
    Py_CLEAR(self->type);
    Py_CLEAR(self->plan);
    return 0;
}

static void jt_decoder_dealloc(jt_decoder *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    jt_decoder_clear(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

static PyObject *jt_decoder_decode(jt_decoder *self, PyObject *data) {
    jj_state *st = PyType_GetModuleState(Py_TYPE(self));
    return st ? jt_decode(st, self->plan, data, self->flags) : NULL;
}

/* _attach(stream): the stream's documents are decoded as this decoder decodes one. */
static PyObject *jt_decoder_attach(jt_decoder *self, PyObject *stream) {
    jj_state *st = PyType_GetModuleState(Py_TYPE(self));
    if (!st || jj_typed_stream_attach(st, stream, self->plan, self->flags) < 0) return NULL;
    return Py_NewRef(stream);
}

static PyObject *jt_decoder_repr(jt_decoder *self) { return PyUnicode_FromFormat("jetjson.Decoder(%R)", self->type); }

static PyMethodDef jt_decoder_methods[] = {
    {"decode", (PyCFunction)jt_decoder_decode, METH_O,
     "decode(data, /)\n--\n\nThe JSON document data (as loads takes it) as an instance of the decoder's type."},
    {"_attach", (PyCFunction)jt_decoder_attach, METH_O,
     "_attach(stream, /)\n--\n\nMakes a new stream (loads_many's iterator) decode each document as decode() does."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef jt_decoder_members[] = {
    {"type", T_OBJECT, offsetof(jt_decoder, type), READONLY, "The type decoded to."},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot jt_decoder_slots[] = {
    {Py_tp_new, jt_decoder_new},
    {Py_tp_dealloc, jt_decoder_dealloc},
    {Py_tp_traverse, jt_decoder_traverse},
    {Py_tp_clear, jt_decoder_clear},
    {Py_tp_repr, jt_decoder_repr},
    {Py_tp_methods, jt_decoder_methods},
    {Py_tp_members, jt_decoder_members},
    {Py_tp_doc, "Decoder(type=object, *, forbid_unknown_fields=False, rename=None)\n--\n\nDecodes JSON into instances of type, as loads(data, type=type) "
                "does, with the type's compiled description kept for every call."},
    {0, NULL},
};

static PyType_Spec jt_decoder_spec = {
    .name = "jetjson.Decoder",
    .basicsize = sizeof(jt_decoder),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = jt_decoder_slots,
};

int jj_typed_init(PyObject *module, jj_state *st) {
    st->ValidationError = PyErr_NewExceptionWithDoc(
        "jetjson.ValidationError", "A JSON value that does not match the type asked for (loads(type=)): a ValueError.",
        PyExc_ValueError, NULL);
    if (!st->ValidationError || PyModule_AddObjectRef(module, "ValidationError", st->ValidationError) < 0) return -1;
    st->Decoder = PyType_FromModuleAndSpec(module, &jt_decoder_spec, NULL);
    if (!st->Decoder || PyModule_AddObjectRef(module, "Decoder", st->Decoder) < 0) return -1;
    return 0;
}

int jj_typed_traverse(jj_state *st, visitproc visit, void *arg) {
    Py_VISIT(st->ValidationError);
    Py_VISIT(st->typed_cache);
    Py_VISIT(st->typed_last_type);
    Py_VISIT(st->typed_last_plan);
    Py_VISIT(st->typed_env);
    Py_VISIT(st->Decoder);
    return 0;
}

void jj_typed_clear(jj_state *st) {
    Py_CLEAR(st->ValidationError);
    Py_CLEAR(st->typed_cache);
    Py_CLEAR(st->typed_last_type);
    Py_CLEAR(st->typed_last_plan);
    Py_CLEAR(st->typed_env);
    Py_CLEAR(st->Decoder);
}
