/* jetjson.Fragment(contents): already-serialized JSON (bytes or str) that dumpb inserts
 * as is, as orjson.Fragment. The contents are only checked when serialized. */
#include "encode_orjson.h"

#include <stddef.h>
#include <structmember.h>

static PyObject *jj_fragment_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    if (PyTuple_GET_SIZE(args) != 1 || (kwds && PyDict_GET_SIZE(kwds) != 0)) {
        PyErr_SetString(PyExc_TypeError, "jetjson.Fragment() takes exactly 1 positional argument");
        return NULL;
    }
    jj_fragment *self = (jj_fragment *)type->tp_alloc(type, 0);
    if (!self) return NULL;
    self->contents = Py_NewRef(PyTuple_GET_ITEM(args, 0));
    return (PyObject *)self;
}

static int jj_fragment_traverse(PyObject *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(((jj_fragment *)self)->contents);
    return 0;
}

static int jj_fragment_clear(PyObject *self) {
    Py_CLEAR(((jj_fragment *)self)->contents);
    return 0;
}

static void jj_fragment_dealloc(PyObject *self) {
    PyTypeObject *type = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    jj_fragment_clear(self);
    type->tp_free(self);
    Py_DECREF(type);
}

static PyMemberDef jj_fragment_members[] = {
    {"contents", T_OBJECT_EX, offsetof(jj_fragment, contents), READONLY, "The JSON text, as given."},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot jj_fragment_slots[] = {
    {Py_tp_new, jj_fragment_new},
    {Py_tp_dealloc, jj_fragment_dealloc},
    {Py_tp_traverse, jj_fragment_traverse},
    {Py_tp_clear, jj_fragment_clear},
    {Py_tp_members, jj_fragment_members},
    {Py_tp_doc, "Fragment(contents, /)\n--\n\nAlready-serialized JSON (bytes or str) that dumpb writes as is."},
    {0, NULL},
};

static PyType_Spec jj_fragment_spec = {
    .name = "jetjson.Fragment",
    .basicsize = sizeof(jj_fragment),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = jj_fragment_slots,
};

int jj_fragment_init(jj_state *st, PyObject *module) {
    st->Fragment = (PyTypeObject *)PyType_FromModuleAndSpec(module, &jj_fragment_spec, NULL);
    if (!st->Fragment) return -1;
    return PyModule_AddObjectRef(module, "Fragment", (PyObject *)st->Fragment);
}
