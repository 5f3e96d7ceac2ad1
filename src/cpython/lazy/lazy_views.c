/* jetjson.Object and jetjson.Array: read-only views of one container of a parsed
 * document. Reading gives a view for a nested container and a Python object for a
 * scalar; as_dict()/as_list() build everything below, as loads would. */
#include <string.h>

#include "lazy.h"
#include "jetjson_paths.h"

static void jj_view_dealloc(PyObject *self) {
    PyTypeObject *tp = Py_TYPE(self);
    Py_DECREF(((jj_view *)self)->doc);
    PyObject_Free(self);
    Py_DECREF(tp);
}

static int jj_is_view(jj_state *st, PyObject *o) {
    return Py_IS_TYPE(o, (PyTypeObject *)st->lazy_types[JJ_LT_OBJECT]) ||
           Py_IS_TYPE(o, (PyTypeObject *)st->lazy_types[JJ_LT_ARRAY]);
}

/* == and != as the dict or list that loads makes would answer them. */
static PyObject *jj_view_richcompare(PyObject *self, PyObject *other, int op) {
    if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
    jj_state *st = jj_view_state(self);
    jj_view *v = (jj_view *)self;
    if (jj_is_view(st, other) && ((jj_view *)other)->doc == v->doc && ((jj_view *)other)->at == v->at)
        return PyBool_FromLong(op == Py_EQ);
    PyObject *result = NULL, *theirs = NULL, *mine = jj_lazy_build(st, v->doc, v->at);
    if (!mine) return NULL;
    if (jj_is_view(st, other)) theirs = jj_lazy_build(st, ((jj_view *)other)->doc, ((jj_view *)other)->at);
    else theirs = Py_NewRef(other);
    if (theirs) result = PyObject_RichCompare(mine, theirs, op);
    Py_DECREF(mine);
    Py_XDECREF(theirs);
    return result;
}

static Py_ssize_t jj_view_len(PyObject *self) {
    jj_view *v = (jj_view *)self;
    return (Py_ssize_t)jj_count(v->doc, v->at);
}

static PyObject *jj_view_build(PyObject *self, PyObject *unused) {
    (void)unused;
    jj_view *v = (jj_view *)self;
    return jj_lazy_build(jj_view_state(self), v->doc, v->at);
}

/* jj_pointer_resolve (pointer.h) over a lazy tape: keys are read with jj_doc_key, which
 * finishes those still escaped. JJ_PTR_OK with *found, another status with *failed_at,
 * or -1 with an exception set. */
static int jj_doc_resolve(jj_lazy_doc *d, size_t start, const char *ptr, size_t len, size_t *found,
                          size_t *failed_at) {
    jj_pointer_status st = jj_pointer_check(ptr, len, failed_at);
    if (st != JJ_PTR_OK) return (int)st;
    size_t t = start, pos = 0;
    jj_pointer_token tok;
    while (jj_pointer_next(ptr, len, &pos, &tok)) {
        const uint64_t *tape = d->tape->tape;
        jj_type type = jj_tape_type(tape[t]);
        if (type == JJ_OBJECT) {
            size_t end = (size_t)jj_tape_payload(tape[t]), k = t + 2;
            t = 0;
            while (k < end) {
                size_t klen;
                const uint8_t *key = jj_doc_key(d, k, &klen);
                if (!key) return -1;
                if (jj_pointer_token_equals(&tok, key, klen)) {
                    t = k + 2;
                    break;
                }
                k = jj_tape_skip(d->tape->tape, k + 2);
            }
            if (!t) st = JJ_PTR_NO_KEY;
        } else if (type == JJ_ARRAY) {
            uint64_t index;
            if (!jj_pointer_token_index(&tok, &index)) st = JJ_PTR_BAD_INDEX;
            else if (index >= tape[t + 1]) st = JJ_PTR_OUT_OF_RANGE;
            else t = jj_array_element(d, t, (size_t)index);
        } else {
            st = JJ_PTR_NOT_CONTAINER;
        }
        if (st != JJ_PTR_OK) {
            *failed_at = pos;
            return (int)st;
        }
    }
    *found = t;
    return JJ_PTR_OK;
}

static PyObject *jj_view_at_pointer(PyObject *self, PyObject *arg) {
    jj_view *v = (jj_view *)self;
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "a JSON pointer must be a str, not %.100s", Py_TYPE(arg)->tp_name);
        return NULL;
    }
    PyObject *bytes, *result = NULL;
    Py_ssize_t len;
    const char *ptr = jj_key_utf8(arg, &len, &bytes);
    if (!ptr) return NULL;
    size_t found = 0, failed_at = 0;
    int resolved = jj_doc_resolve(v->doc, v->at, ptr, (size_t)len, &found, &failed_at);
    if (resolved < 0) {
        Py_XDECREF(bytes);
        return NULL;
    }
    jj_pointer_status rc = (jj_pointer_status)resolved;
    PyObject *prefix = rc == JJ_PTR_OK ? NULL : PyUnicode_DecodeUTF8(ptr, (Py_ssize_t)failed_at, "surrogatepass");
    switch (rc) {
    case JJ_PTR_OK: result = jj_lazy_value(jj_view_state(self), v->doc, found); break;
    case JJ_PTR_SYNTAX:
        PyErr_Format(PyExc_ValueError, "invalid JSON pointer %R: bad '~' escape or no leading '/' at offset %zu",
                     arg, failed_at);
        break;
    case JJ_PTR_NO_KEY:
        if (prefix) PyErr_Format(PyExc_KeyError, "JSON pointer %R: no such key at %R", arg, prefix);
        break;
    case JJ_PTR_BAD_INDEX:
        if (prefix) PyErr_Format(PyExc_IndexError, "JSON pointer %R: not an array index at %R", arg, prefix);
        break;
    case JJ_PTR_OUT_OF_RANGE:
        if (prefix) PyErr_Format(PyExc_IndexError, "JSON pointer %R: array index out of range at %R", arg, prefix);
        break;
    case JJ_PTR_NOT_CONTAINER:
        if (prefix) PyErr_Format(PyExc_TypeError, "JSON pointer %R: not an object or array before %R", arg, prefix);
        break;
    }
    Py_XDECREF(prefix);
    Py_XDECREF(bytes);
    return result;
}

/* ---- Object ---- */

/* Tape index of the value for `key`, 0 when absent, or (size_t)-1 with an exception
 * (a key that cannot be hashed, as a dict would say). */
static size_t jj_object_lookup(jj_view *v, PyObject *key) {
    if (!PyUnicode_Check(key)) return PyObject_Hash(key) == -1 ? (size_t)-1 : 0;
    PyObject *bytes;
    Py_ssize_t len;
    const char *s = jj_key_utf8(key, &len, &bytes);
    if (!s) return (size_t)-1;
    size_t t = jj_object_find(v->doc, v->at, (const uint8_t *)s, (size_t)len);
    Py_XDECREF(bytes);
    return t;
}

static PyObject *jj_object_subscript(PyObject *self, PyObject *key) {
    size_t t = jj_object_lookup((jj_view *)self, key);
    if (t == (size_t)-1) return NULL;
    if (t == 0) {
        PyErr_SetObject(PyExc_KeyError, key);
        return NULL;
    }
    return jj_lazy_value(jj_view_state(self), ((jj_view *)self)->doc, t);
}

static int jj_object_contains(PyObject *self, PyObject *key) {
    size_t t = jj_object_lookup((jj_view *)self, key);
    return t == (size_t)-1 ? -1 : t != 0;
}

static PyObject *jj_object_get(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs < 1 || nargs > 2) {
        PyErr_Format(PyExc_TypeError, "get expected 1 or 2 arguments, got %zd", nargs);
        return NULL;
    }
    size_t t = jj_object_lookup((jj_view *)self, args[0]);
    if (t == (size_t)-1) return NULL;
    if (t == 0) return Py_NewRef(nargs == 2 ? args[1] : Py_None);
    return jj_lazy_value(jj_view_state(self), ((jj_view *)self)->doc, t);
}

static PyObject *jj_object_iter(PyObject *self) {
    jj_view *v = (jj_view *)self;
    return jj_new_iter(jj_view_state(self), v->doc, v->at, JJ_LT_KEYS);
}

static PyObject *jj_object_keys(PyObject *self, PyObject *unused) {
    (void)unused;
    return jj_new_dict_view(jj_view_state(self), (jj_view *)self, JJ_LT_KEYS);
}
static PyObject *jj_object_values(PyObject *self, PyObject *unused) {
    (void)unused;
    return jj_new_dict_view(jj_view_state(self), (jj_view *)self, JJ_LT_VALUES);
}
static PyObject *jj_object_items(PyObject *self, PyObject *unused) {
    (void)unused;
    return jj_new_dict_view(jj_view_state(self), (jj_view *)self, JJ_LT_ITEMS);
}

static PyObject *jj_object_repr(PyObject *self) {
    Py_ssize_t n = jj_view_len(self);
    return PyUnicode_FromFormat("<jetjson.Object %zd key%s>", n, n == 1 ? "" : "s");
}

static PyMethodDef jj_object_methods[] = {
    {"get", (PyCFunction)(void (*)(void))jj_object_get, METH_FASTCALL,
     "get($self, key, default=None, /)\n--\n\nThe value of key (first of duplicate keys), else default."},
    {"keys", jj_object_keys, METH_NOARGS, "A set-like view of the keys, in document order."},
    {"values", jj_object_values, METH_NOARGS, "A view of the values, in document order."},
    {"items", jj_object_items, METH_NOARGS, "A view of the (key, value) pairs, in document order."},
    {"as_dict", jj_view_build, METH_NOARGS,
     "as_dict($self, /)\n--\n\nThe whole object as a dict, exactly as loads makes it (the last of duplicate keys wins)."},
    {"at_pointer", jj_view_at_pointer, METH_O,
     "at_pointer($self, ptr, /)\n--\n\nThe value at the RFC 6901 JSON pointer ptr, relative to this object."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot jj_object_slots[] = {
    {Py_tp_dealloc, jj_view_dealloc},
    {Py_tp_repr, jj_object_repr},
    {Py_tp_hash, PyObject_HashNotImplemented},
    {Py_tp_richcompare, jj_view_richcompare},
    {Py_tp_iter, jj_object_iter},
    {Py_tp_methods, jj_object_methods},
    {Py_mp_length, jj_view_len},
    {Py_mp_subscript, jj_object_subscript},
    {Py_sq_contains, jj_object_contains},
    {Py_tp_doc, "A read-only view of a JSON object from jetjson.parse (a collections.abc.Mapping).\n\n"
                "Values are made when read; nested objects and arrays are views. With duplicate keys,\n"
                "lookups give the first value and as_dict() the last, as json.loads does."},
    {0, NULL},
};

PyType_Spec jj_object_spec = {
    .name = "jetjson._jetjson.Object",
    .basicsize = sizeof(jj_view),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_MAPPING | Py_TPFLAGS_DISALLOW_INSTANTIATION |
             Py_TPFLAGS_IMMUTABLETYPE,
    .slots = jj_object_slots,
};

/* ---- Array ---- */

static PyObject *jj_array_item(PyObject *self, Py_ssize_t i) {
    jj_view *v = (jj_view *)self;
    Py_ssize_t n = jj_view_len(self);
    if (i < 0 || i >= n) {
        PyErr_SetString(PyExc_IndexError, "jetjson.Array index out of range");
        return NULL;
    }
    return jj_lazy_value(jj_view_state(self), v->doc, jj_array_element(v->doc, v->at, (size_t)i));
}

/* A slice is a list of the values (views for containers), made in one forward walk. */
static PyObject *jj_array_slice(PyObject *self, PyObject *slice) {
    jj_view *v = (jj_view *)self;
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(slice, &start, &stop, &step) < 0) return NULL;
    Py_ssize_t count = PySlice_AdjustIndices(jj_view_len(self), &start, &stop, step);
    PyObject *list = PyList_New(count);
    if (!list || count == 0) return list;
    Py_ssize_t first = step > 0 ? start : start + (count - 1) * step; /* lowest index taken */
    Py_ssize_t last = step > 0 ? start + (count - 1) * step : start;
    Py_ssize_t stride = step > 0 ? step : -step;
    jj_state *st = jj_view_state(self);
    size_t t = jj_array_element(v->doc, v->at, (size_t)first);
    const uint64_t *tape = v->doc->tape->tape;
    for (Py_ssize_t k = first; k <= last; k++, t = jj_tape_skip(tape, t)) {
        if ((k - first) % stride) continue;
        PyObject *item = jj_lazy_value(st, v->doc, t);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, step > 0 ? (k - start) / step : (start - k) / stride, item);
    }
    return list;
}

static PyObject *jj_array_subscript(PyObject *self, PyObject *key) {
    if (PySlice_Check(key)) return jj_array_slice(self, key);
    if (!PyIndex_Check(key)) {
        PyErr_Format(PyExc_TypeError, "jetjson.Array indices must be integers or slices, not %.100s",
                     Py_TYPE(key)->tp_name);
        return NULL;
    }
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0) i += jj_view_len(self);
    return jj_array_item(self, i);
}

static PyObject *jj_array_iter(PyObject *self) {
    jj_view *v = (jj_view *)self;
    return jj_new_iter(jj_view_state(self), v->doc, v->at, JJ_LT_ARRAY);
}

/* Calls visit(value, arg) on each element in order until it returns non-zero. */
static int jj_array_each(PyObject *self, int (*visit)(PyObject *, PyObject *, Py_ssize_t, void *),
                         PyObject *arg, void *acc) {
    jj_view *v = (jj_view *)self;
    jj_state *st = jj_view_state(self);
    size_t n = jj_count(v->doc, v->at), t = v->at + 2;
    const uint64_t *tape = v->doc->tape->tape;
    for (size_t k = 0; k < n; k++, t = jj_tape_skip(tape, t)) {
        PyObject *item = jj_lazy_value(st, v->doc, t);
        if (!item) return -1;
        int rc = visit(item, arg, (Py_ssize_t)k, acc);
        Py_DECREF(item);
        if (rc) return rc;
    }
    return 0;
}

static int jj_visit_find(PyObject *item, PyObject *arg, Py_ssize_t k, void *acc) {
    int eq = PyObject_RichCompareBool(item, arg, Py_EQ);
    if (eq > 0) *(Py_ssize_t *)acc = k;
    return eq;
}

static int jj_visit_count(PyObject *item, PyObject *arg, Py_ssize_t k, void *acc) {
    (void)k;
    int eq = PyObject_RichCompareBool(item, arg, Py_EQ);
    if (eq > 0) ++*(Py_ssize_t *)acc;
    return eq < 0 ? -1 : 0;
}

static int jj_array_contains(PyObject *self, PyObject *value) {
    Py_ssize_t at = -1;
    int rc = jj_array_each(self, jj_visit_find, value, &at);
    return rc < 0 ? -1 : rc > 0;
}

static PyObject *jj_array_index(PyObject *self, PyObject *value) {
    Py_ssize_t at = -1;
    int rc = jj_array_each(self, jj_visit_find, value, &at);
    if (rc < 0) return NULL;
    if (rc == 0) {
        PyErr_SetString(PyExc_ValueError, "value is not in the jetjson.Array");
        return NULL;
    }
    return PyLong_FromSsize_t(at);
}

static PyObject *jj_array_count(PyObject *self, PyObject *value) {
    Py_ssize_t n = 0;
    if (jj_array_each(self, jj_visit_count, value, &n) < 0) return NULL;
    return PyLong_FromSsize_t(n);
}

static PyObject *jj_array_repr(PyObject *self) {
    Py_ssize_t n = jj_view_len(self);
    return PyUnicode_FromFormat("<jetjson.Array %zd item%s>", n, n == 1 ? "" : "s");
}

static PyMethodDef jj_array_methods[] = {
    {"as_list", jj_view_build, METH_NOARGS,
     "as_list($self, /)\n--\n\nThe whole array as a list, exactly as loads makes it."},
    {"at_pointer", jj_view_at_pointer, METH_O,
     "at_pointer($self, ptr, /)\n--\n\nThe value at the RFC 6901 JSON pointer ptr, relative to this array."},
    {"index", jj_array_index, METH_O, "index($self, value, /)\n--\n\nThe first index of an element equal to value."},
    {"count", jj_array_count, METH_O, "count($self, value, /)\n--\n\nHow many elements equal value."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot jj_array_slots[] = {
    {Py_tp_dealloc, jj_view_dealloc},
    {Py_tp_repr, jj_array_repr},
    {Py_tp_hash, PyObject_HashNotImplemented},
    {Py_tp_richcompare, jj_view_richcompare},
    {Py_tp_iter, jj_array_iter},
    {Py_tp_methods, jj_array_methods},
    {Py_mp_length, jj_view_len},
    {Py_mp_subscript, jj_array_subscript},
    {Py_sq_length, jj_view_len},
    {Py_sq_item, jj_array_item},
    {Py_sq_contains, jj_array_contains},
    {Py_tp_doc, "A read-only view of a JSON array from jetjson.parse (a collections.abc.Sequence).\n\n"
                "Elements are made when read; nested objects and arrays are views. A slice is a list\n"
                "of the elements, which are views for nested containers."},
    {0, NULL},
};

PyType_Spec jj_array_spec = {
    .name = "jetjson._jetjson.Array",
    .basicsize = sizeof(jj_view),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_SEQUENCE | Py_TPFLAGS_DISALLOW_INSTANTIATION |
             Py_TPFLAGS_IMMUTABLETYPE,
    .slots = jj_array_slots,
};
