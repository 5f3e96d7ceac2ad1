/* keys()/values()/items() of a jetjson.Object, and the iterator of every view: a walk
 * along the tape that reads one element (or key/value pair) per step. */
#include "lazy.h"

/* ---- iterator ---- */

PyObject *jj_new_iter(jj_state *st, jj_lazy_doc *doc, size_t at, int kind) {
    jj_iter *it = PyObject_New(jj_iter, (PyTypeObject *)st->lazy_types[JJ_LT_ITER]);
    if (!it) return NULL;
    it->doc = (jj_lazy_doc *)Py_NewRef((PyObject *)doc);
    it->pos = at + 2;
    it->left = jj_count(doc, at);
    it->kind = kind;
    return (PyObject *)it;
}

static void jj_iter_dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    Py_DECREF(((jj_iter *)self)->doc);
    PyObject_Free(self);
    Py_DECREF(tp);
}

static PyObject *jj_iter_next(PyObject *self) {
    jj_iter *it = (jj_iter *)self;
    if (it->left == 0) return NULL;
    const uint64_t *tape = it->doc->tape->tape;
    size_t t = it->pos;
    /* advance first: building a value may run other Python code (GC) that uses `it` */
    it->left--;
    jj_state *st = jj_lazy_state(self);
    if (it->kind == JJ_LT_ARRAY) {
        it->pos = jj_tape_skip(tape, t);
        return jj_lazy_value(st, it->doc, t);
    }
    it->pos = jj_tape_skip(tape, t + 2);
    if (it->kind == JJ_LT_KEYS) return jj_lazy_scalar(st, it->doc, t);
    if (it->kind == JJ_LT_VALUES) return jj_lazy_value(st, it->doc, t + 2);
    PyObject *key = jj_lazy_scalar(st, it->doc, t);
    PyObject *value = key ? jj_lazy_value(st, it->doc, t + 2) : NULL;
    if (!value) {
        Py_XDECREF(key);
        return NULL;
    }
    PyObject *pair = PyTuple_New(2);
    if (!pair) {
        Py_DECREF(key);
        Py_DECREF(value);
        return NULL;
    }
    PyTuple_SET_ITEM(pair, 0, key);
    PyTuple_SET_ITEM(pair, 1, value);
    return pair;
}

static PyObject *jj_iter_length_hint(PyObject *self, PyObject *unused) {
    (void)unused;
    return PyLong_FromSize_t(((jj_iter *)self)->left);
}

static PyMethodDef jj_iter_methods[] = {
    {"__length_hint__", jj_iter_length_hint, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot jj_iter_slots[] = {
    {Py_tp_dealloc, jj_iter_dealloc},
    {Py_tp_iter, PyObject_SelfIter},
    {Py_tp_iternext, jj_iter_next},
    {Py_tp_methods, jj_iter_methods},
    {0, NULL},
};

PyType_Spec jj_iter_spec = {
    .name = "jetjson._jetjson.ViewIterator",
    .basicsize = sizeof(jj_iter),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = jj_iter_slots,
};

/* ---- keys(), values(), items() ---- */

/* A dict view is a jj_view of the object; its type says which kind. */
static int jj_dict_view_kind(PyObject *self) {
    jj_state *st = jj_lazy_state(self);
    if (Py_IS_TYPE(self, (PyTypeObject *)st->lazy_types[JJ_LT_KEYS])) return JJ_LT_KEYS;
    if (Py_IS_TYPE(self, (PyTypeObject *)st->lazy_types[JJ_LT_VALUES])) return JJ_LT_VALUES;
    return JJ_LT_ITEMS;
}

PyObject *jj_new_dict_view(jj_state *st, jj_view *of, int kind) {
    return jj_new_view(st, kind, of->doc, of->at);
}

static void jj_dict_view_dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    Py_DECREF(((jj_view *)self)->doc);
    PyObject_Free(self);
    Py_DECREF(tp);
}

static Py_ssize_t jj_dict_view_len(PyObject *self) {
    jj_view *v = (jj_view *)self;
    return (Py_ssize_t)jj_count(v->doc, v->at);
}

static PyObject *jj_dict_view_iter(PyObject *self) {
    jj_view *v = (jj_view *)self;
    return jj_new_iter(jj_lazy_state(self), v->doc, v->at, jj_dict_view_kind(self));
}

/* The same view of the dict that loads makes: comparisons and `in` for values and
 * items are then exactly the dict's. */
static PyObject *jj_dict_view_of_dict(PyObject *self) {
    jj_view *v = (jj_view *)self;
    int kind = jj_dict_view_kind(self);
    PyObject *dict = jj_lazy_build(jj_lazy_state(self), v->doc, v->at);
    if (!dict) return NULL;
    const char *method = kind == JJ_LT_KEYS ? "keys" : kind == JJ_LT_VALUES ? "values" : "items";
    PyObject *view = PyObject_CallMethod(dict, method, NULL);
    Py_DECREF(dict);
    return view;
}

static int jj_dict_view_contains(PyObject *self, PyObject *x) {
    if (jj_dict_view_kind(self) == JJ_LT_KEYS) {
        jj_view *v = (jj_view *)self;
        PyObject *obj = jj_new_view(jj_lazy_state(self), JJ_LT_OBJECT, v->doc, v->at);
        int rc = obj ? PySequence_Contains(obj, x) : -1;
        Py_XDECREF(obj);
        return rc;
    }
    PyObject *view = jj_dict_view_of_dict(self);
    int rc = view ? PySequence_Contains(view, x) : -1;
    Py_XDECREF(view);
    return rc;
}

static PyObject *jj_dict_view_richcompare(PyObject *self, PyObject *other, int op) {
    PyObject *mine = jj_dict_view_of_dict(self);
    if (!mine) return NULL;
    PyObject *theirs = Py_TYPE(other) == Py_TYPE(self) ? jj_dict_view_of_dict(other) : Py_NewRef(other);
    PyObject *result = theirs ? PyObject_RichCompare(mine, theirs, op) : NULL;
    Py_DECREF(mine);
    Py_XDECREF(theirs);
    return result;
}

/* Set operations (&, |, -, ^) and isdisjoint(): those of the built dict's view. Either
 * operand may be ours (ours share one tp_iter). */
static PyObject *jj_plain_view(PyObject *o) {
    return Py_TYPE(o)->tp_iter == jj_dict_view_iter ? jj_dict_view_of_dict(o) : Py_NewRef(o);
}

static PyObject *jj_set_op(PyObject *a, PyObject *b, PyObject *(*op)(PyObject *, PyObject *)) {
    PyObject *x = jj_plain_view(a);
    PyObject *y = x ? jj_plain_view(b) : NULL;
    PyObject *result = y ? op(x, y) : NULL;
    Py_XDECREF(x);
    Py_XDECREF(y);
    return result;
}

static PyObject *jj_view_and(PyObject *a, PyObject *b) { return jj_set_op(a, b, PyNumber_And); }
static PyObject *jj_view_or(PyObject *a, PyObject *b) { return jj_set_op(a, b, PyNumber_Or); }
static PyObject *jj_view_sub(PyObject *a, PyObject *b) { return jj_set_op(a, b, PyNumber_Subtract); }
static PyObject *jj_view_xor(PyObject *a, PyObject *b) { return jj_set_op(a, b, PyNumber_Xor); }

static PyObject *jj_view_isdisjoint(PyObject *self, PyObject *other) {
    PyObject *mine = jj_dict_view_of_dict(self);
    PyObject *result = mine ? PyObject_CallMethod(mine, "isdisjoint", "O", other) : NULL;
    Py_XDECREF(mine);
    return result;
}

static PyMethodDef jj_set_view_methods[] = {
    {"isdisjoint", jj_view_isdisjoint, METH_O, "True when the view and other have nothing in common."},
    {NULL, NULL, 0, NULL},
};

static PyObject *jj_dict_view_repr(PyObject *self) {
    int kind = jj_dict_view_kind(self);
    const char *name = kind == JJ_LT_KEYS ? "keys" : kind == JJ_LT_VALUES ? "values" : "items";
    return PyUnicode_FromFormat("<jetjson.Object.%s %zd>", name, jj_dict_view_len(self));
}

/* keys and items views are set-like, as a dict's are: one slot table for both */
static PyType_Slot jj_set_like_slots[] = {
    {Py_tp_dealloc, jj_dict_view_dealloc},   {Py_tp_repr, jj_dict_view_repr},
    {Py_nb_and, jj_view_and},                {Py_nb_or, jj_view_or},
    {Py_nb_subtract, jj_view_sub},           {Py_nb_xor, jj_view_xor},
    {Py_tp_methods, jj_set_view_methods},
    {Py_tp_iter, jj_dict_view_iter},         {Py_sq_length, jj_dict_view_len},
    {Py_sq_contains, jj_dict_view_contains}, {Py_tp_richcompare, jj_dict_view_richcompare},
    {0, NULL},
};
/* values views compare by identity, as a dict's do */
static PyType_Slot jj_values_slots[] = {
    {Py_tp_dealloc, jj_dict_view_dealloc},   {Py_tp_repr, jj_dict_view_repr},
    {Py_tp_iter, jj_dict_view_iter},         {Py_sq_length, jj_dict_view_len},
    {Py_sq_contains, jj_dict_view_contains}, {0, NULL},
};

#define JJ_DICT_VIEW_FLAGS (Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION | Py_TPFLAGS_IMMUTABLETYPE)
PyType_Spec jj_keys_spec = {"jetjson._jetjson.ObjectKeys", sizeof(jj_view), 0, JJ_DICT_VIEW_FLAGS, jj_set_like_slots};
PyType_Spec jj_values_spec = {"jetjson._jetjson.ObjectValues", sizeof(jj_view), 0, JJ_DICT_VIEW_FLAGS, jj_values_slots};
PyType_Spec jj_items_spec = {"jetjson._jetjson.ObjectItems", sizeof(jj_view), 0, JJ_DICT_VIEW_FLAGS, jj_set_like_slots};
