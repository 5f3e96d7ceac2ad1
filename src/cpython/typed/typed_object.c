/* loads(type=) for the documents json accepts and the engine refuses (NaN, Infinity, a
 * number past a double, input types only json reads): the plain objects json.loads
 * returned are converted as the tape would have been, with the same checks, messages
 * and paths. Rare, so written for brevity rather than speed. */
#include "typed.h"

static PyObject *jo_value(jj_tpath *e, const jj_tnode *n, PyObject *v);

/* An int outside [-2**63, 2**64), which msgspec reads as a float. */
static int jo_past_64_bits(PyObject *v) {
    int overflow;
    PyLong_AsLongLongAndOverflow(v, &overflow);
    int big = overflow < 0 || (overflow > 0 && (PyLong_AsUnsignedLongLong(v), PyErr_Occurred() != NULL));
    PyErr_Clear();
    return big;
}

static PyObject *jo_lookup(jj_tpath *e, PyObject *map, PyObject *value) {
    PyObject *hit = map ? PyDict_GetItemWithError(map, value) : NULL;
    if (hit) return Py_NewRef(hit);
    if (!PyErr_Occurred()) jj_tpath_enum(e, value);
    return NULL;
}

static PyObject *jo_str(jj_tpath *e, const jj_tnode *n, PyObject *str) {
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(str, &len);
    if (!s) return NULL;
    return jj_typed_str_convert(e, n, (const uint8_t *)s, (size_t)len);
}

/* A Decimal from a number json made: from its shortest text, as written in most cases. */
static PyObject *jo_decimal(const jj_tnode *n, PyObject *number) {
    PyObject *text = PyObject_Repr(number);
    PyObject *v = text ? PyObject_CallOneArg(n->objs[0], text) : NULL;
    Py_XDECREF(text);
    return v;
}

static PyObject *jo_array(jj_tpath *e, const jj_tnode *n, PyObject *list) {
    Py_ssize_t len = PyList_GET_SIZE(list);
    int fixed = n->array_kind == JT_TUPLE || n->array_kind == JT_NAMEDTUPLE;
    Py_ssize_t have = fixed && len > n->nitems ? n->nitems : len;
    PyObject *items = PyList_New(have);
    for (Py_ssize_t i = 0; items && i < have; i++) {
        PyObject *v = jo_value(e, fixed ? n->items[i] : n->item, PyList_GET_ITEM(list, i));
        if (!v) {
            jj_tpath_index(e, i);
            Py_CLEAR(items);
            break;
        }
        PyList_SET_ITEM(items, i, v);
    }
    if (!items) return NULL;
    if (fixed && (len < n->nrequired || len > n->nitems)) { /* after the items, as msgspec */
        Py_DECREF(items);
        return jj_typed_length_error(e, n);
    }
    PyObject *result;
    switch (n->array_kind) {
    case JT_LIST: return items;
    case JT_SET: result = PySet_New(items); break;
    case JT_FROZENSET: result = PyFrozenSet_New(items); break;
    case JT_NAMEDTUPLE:
        for (Py_ssize_t i = len; i < n->nitems; i++) {
            if (PyList_Append(items, n->fields[i].dflt) < 0) {
                Py_DECREF(items);
                return NULL;
            }
        }
        {
            PyObject *args = PyList_AsTuple(items);
            result = args ? PyObject_Call(n->cls, args, NULL) : NULL;
            Py_XDECREF(args);
        }
        break;
    default: result = PyList_AsTuple(items); break;
    }
    Py_DECREF(items);
    return result;
}

static PyObject *jo_key(jj_tpath *e, const jj_tnode *k, PyObject *key) {
    PyObject *result = NULL;
    if (k->str_kind > JT_LOOKUP && !(k->kinds & JT_ANY)) {
        result = jo_str(e, k, key);
    } else if (k->kinds & (JT_STR | JT_ANY)) {
        result = k->kinds & JT_ANY || k->str_kind == JT_PLAIN ? Py_NewRef(key) : jo_lookup(e, k->str_map, key);
    } else {
        Py_ssize_t len;
        const char *s = PyUnicode_AsUTF8AndSize(key, &len);
        if (!s) return NULL;
        Py_ssize_t i = len > 0 && s[0] == '-';
        int ok = i < len && (s[i] != '0' || i + 1 == len);
        for (Py_ssize_t j = i; ok && j < len; j++) ok = s[j] >= '0' && s[j] <= '9';
        PyObject *num = ok ? PyLong_FromString(s, NULL, 10) : NULL;
        if (!ok) jj_tpath_expected(e, k, "str");
        else if (num && k->int_kind == JT_LOOKUP) result = jo_lookup(e, k->int_map, num);
        else result = Py_XNewRef(num);
        Py_XDECREF(num);
    }
    if (!result && e->segments) e->in_key = 1;
    return result;
}

static PyObject *jo_object(jj_tpath *e, const jj_tnode *n, PyObject *dict) {
    if (n->object_kind == JT_DICT) {
        PyObject *out = PyDict_New();
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (out && PyDict_Next(dict, &pos, &key, &value)) {
            PyObject *k = jo_key(e, n->key, key);
            PyObject *v = k ? jo_value(e, n->item, value) : NULL;
            if (k && !v) jj_tpath_dict_value(e);
            if (!v || PyDict_SetItem(out, k, v) < 0) Py_CLEAR(out);
            Py_XDECREF(k);
            Py_XDECREF(v);
        }
        return out;
    }
    if (e->flags & JJ_TYPED_FORBID_UNKNOWN) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(dict, &pos, &key, &value)) {
            Py_ssize_t i = 0;
            while (i < n->nfields && !(n->fields[i].init && PyUnicode_Compare(n->fields[i].key, key) == 0)) i++;
            if (i == n->nfields) {
                jj_tpath_unknown(e, Py_NewRef(key));
                return NULL;
            }
        }
    }
    PyObject **vals = PyMem_Calloc((size_t)(n->nfields ? n->nfields : 1), sizeof *vals);
    if (!vals) return PyErr_NoMemory();
    PyObject *result = NULL;
    Py_ssize_t i = 0;
    for (; i < n->nfields; i++) {
        if (!n->fields[i].init) continue;
        PyObject *v = PyDict_GetItemWithError(dict, n->fields[i].key);
        if (!v) {
            if (PyErr_Occurred()) break;
            continue;
        }
        if (!(vals[i] = jo_value(e, n->fields[i].type, v))) {
            jj_tpath_field(e, n->fields[i].key);
            break;
        }
    }
    if (i == n->nfields) result = jj_typed_record(e, n, vals);
    for (i = 0; i < n->nfields; i++) Py_XDECREF(vals[i]);
    PyMem_Free(vals);
    return result;
}

static PyObject *jo_convert(jj_tpath *e, const jj_tnode *n, PyObject *v) {
    unsigned kinds = n->kinds;
    if (kinds & JT_ANY) return Py_NewRef(v);
    if (v == Py_None) {
        if (kinds & JT_NULL) return Py_NewRef(v);
        jj_tpath_expected(e, n, "null");
    } else if (PyBool_Check(v)) {
        if (kinds & (v == Py_True ? JT_TRUE : JT_FALSE)) return Py_NewRef(v);
        if (kinds & (JT_TRUE | JT_FALSE)) jj_tpath_enum(e, v);
        else jj_tpath_expected(e, n, "bool");
    } else if (PyLong_Check(v)) {
        if (n->decimal) return jo_decimal(n, v);
        /* an int enum or Literal takes no integer past 64 bits (msgspec: a float) */
        int lookup_big = (kinds & JT_INT) && n->int_kind != JT_PLAIN && jo_past_64_bits(v);
        if ((kinds & JT_INT) && !lookup_big)
            return n->int_kind == JT_PLAIN ? Py_NewRef(v) : jo_lookup(e, n->int_map, v);
        if (kinds & JT_FLOAT) {
            double d = PyLong_AsDouble(v);
            if (d == -1.0 && PyErr_Occurred()) {
                if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
                PyErr_Clear();
                jj_tpath_fail(e, PyUnicode_FromString("Number out of range"));
                return NULL;
            }
            return PyFloat_FromDouble(d);
        }
        /* past 64 bits msgspec says float, as the tape's big ints do (typed_decode.c) */
        jj_tpath_expected(e, n, jo_past_64_bits(v) ? "float" : "int");
    } else if (PyFloat_Check(v)) {
        if (n->decimal) return jo_decimal(n, v);
        if (kinds & JT_FLOAT) return Py_NewRef(v);
        jj_tpath_expected(e, n, "float");
    } else if (PyUnicode_Check(v)) {
        if (kinds & JT_STR) {
            if (n->str_kind == JT_PLAIN) return Py_NewRef(v);
            return n->str_kind == JT_LOOKUP ? jo_lookup(e, n->str_map, v) : jo_str(e, n, v);
        }
        jj_tpath_expected(e, n, "str");
    } else if (PyList_Check(v) || PyDict_Check(v)) {
        int is_array = PyList_Check(v);
        if (!(kinds & (is_array ? JT_ARRAY : JT_OBJECT))) {
            jj_tpath_expected(e, n, is_array ? "array" : "object");
            return NULL;
        }
        if (Py_EnterRecursiveCall(" while decoding JSON into a type")) return NULL;
        PyObject *r = is_array ? jo_array(e, n->arr, v) : jo_object(e, n->obj, v);
        Py_LeaveRecursiveCall();
        return r;
    } else {
        PyErr_Format(PyExc_TypeError, "jetjson: unexpected %.100s from json.loads", Py_TYPE(v)->tp_name);
    }
    return NULL;
}

static PyObject *jo_value(jj_tpath *e, const jj_tnode *n, PyObject *v) {
    PyObject *r = jo_convert(e, n, v);
    if (r && n->cons) r = jj_typed_check(e, n, r);
    return r;
}

PyObject *jj_typed_from_object(jj_state *st, const jj_tnode *root, PyObject *value, int flags, Py_ssize_t doc) {
    jj_tpath e = {NULL, NULL, 0, flags};
    PyObject *v = jo_value(&e, root, value);
    if (!v) {
        if (doc >= 0) jj_tpath_index(&e, doc);
        jj_tpath_raise(st, &e);
    }
    return v;
}
