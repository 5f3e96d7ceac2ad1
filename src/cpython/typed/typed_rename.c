/* rename= (loads(type=T, rename=...), Decoder): the JSON names of the fields of every
 * dataclass and TypedDict in T, made as msgspec's Struct option `rename` makes them:
 * "lower", "upper", "camel", "pascal", "kebab", a mapping (name -> JSON name, absent or
 * None: kept) or a callable (the same, called with the name). Run once per compiled
 * plan, so the str methods of Python do the Unicode case mapping. */
#include "typed.h"

static const char *const jr_kinds[] = {"lower", "upper", "camel", "pascal", "kebab"};

/* camel/pascal: the parts between underscores, each after the first title-cased (the
 * first too for pascal); underscores that lead the name are kept, others dropped. */
static PyObject *jr_camel(PyObject *name, int pascal) {
    PyObject *underscore = PyUnicode_FromString("_");
    PyObject *empty = underscore ? PyUnicode_FromString("") : NULL;
    PyObject *parts = empty ? PyUnicode_Split(name, underscore, -1) : NULL;
    PyObject *out = parts ? PyList_New(0) : NULL;
    int leading = 1, first = 1;
    for (Py_ssize_t i = 0; out && i < PyList_GET_SIZE(parts); i++) {
        PyObject *part = PyList_GET_ITEM(parts, i);
        PyObject *piece;
        if (PyUnicode_GET_LENGTH(part) == 0) {
            if (!leading) continue;
            piece = Py_NewRef(underscore);
        } else {
            leading = 0;
            piece = pascal || !first ? PyObject_CallMethod(part, "title", NULL) : Py_NewRef(part);
            first = 0;
        }
        if (!piece || PyList_Append(out, piece) < 0) Py_CLEAR(out);
        Py_XDECREF(piece);
    }
    PyObject *joined = out ? PyUnicode_Join(empty, out) : NULL;
    Py_XDECREF(out);
    Py_XDECREF(parts);
    Py_XDECREF(empty);
    Py_XDECREF(underscore);
    return joined;
}

/* kebab: underscores at either end dropped, the others made dashes. */
static PyObject *jr_kebab(PyObject *name) {
    PyObject *stripped = PyObject_CallMethod(name, "strip", "s", "_");
    PyObject *out = stripped ? PyObject_CallMethod(stripped, "replace", "ss", "_", "-") : NULL;
    Py_XDECREF(stripped);
    return out;
}

/* A mapping's or a callable's answer for name: a str, or None for the name itself. */
static PyObject *jr_answer(PyObject *name, PyObject *got, const char *what) {
    if (!got) return NULL;
    if (got == Py_None) {
        Py_DECREF(got);
        return Py_NewRef(name);
    }
    if (!PyUnicode_Check(got)) {
        PyErr_Format(PyExc_TypeError, "Expected %s to return a `str` or `None`, got `%.200s`", what,
                     Py_TYPE(got)->tp_name);
        Py_DECREF(got);
        return NULL;
    }
    return got;
}

static int jr_kind(PyObject *rename) {
    for (int k = 0; k < (int)(sizeof jr_kinds / sizeof jr_kinds[0]); k++) {
        if (PyUnicode_CompareWithASCIIString(rename, jr_kinds[k]) == 0) return k;
    }
    return -1;
}

static PyObject *jr_renamed(PyObject *name, PyObject *rename) {
    if (PyUnicode_Check(rename)) {
        switch (jr_kind(rename)) {
        case 0: return PyObject_CallMethod(name, "lower", NULL);
        case 1: return PyObject_CallMethod(name, "upper", NULL);
        case 2: return jr_camel(name, 0);
        case 3: return jr_camel(name, 1);
        default: return jr_kebab(name);
        }
    }
    if (PyCallable_Check(rename)) return jr_answer(name, PyObject_CallOneArg(rename, name), "calling `rename`");
    PyObject *got = PyObject_GetItem(rename, name);
    if (!got && PyErr_ExceptionMatches(PyExc_KeyError)) {
        PyErr_Clear();
        return Py_NewRef(name);
    }
    return jr_answer(name, got, "`rename[field]`");
}

int jj_typed_rename_check(PyObject *rename) {
    if (PyUnicode_Check(rename)) {
        if (jr_kind(rename) >= 0) return 0;
        PyErr_Format(PyExc_ValueError, "rename=%R is unsupported", rename);
        return -1;
    }
    if (PyCallable_Check(rename) || PyDict_Check(rename) ||
        (PyMapping_Check(rename) && PyObject_HasAttrString(rename, "keys")))
        return 0;
    PyErr_SetString(PyExc_TypeError, "`rename` must be a str, callable, or mapping");
    return -1;
}

int jj_typed_rename_fields(jj_tnode *n, PyObject *rename) {
    PyObject *seen = PySet_New(NULL);
    if (!seen) return -1;
    int rc = 0;
    for (Py_ssize_t i = 0; rc == 0 && i < n->nfields; i++) {
        jj_tfield *f = &n->fields[i];
        PyObject *key = jr_renamed(f->name, rename);
        Py_ssize_t len;
        const char *utf8 = key ? PyUnicode_AsUTF8AndSize(key, &len) : NULL;
        int dup = utf8 && f->init ? PySet_Contains(seen, key) : 0;
        if (!utf8 || dup < 0 || (f->init && PySet_Add(seen, key) < 0)) {
            rc = -1;
        } else if (dup) {
            PyErr_SetString(PyExc_ValueError, "Multiple fields rename to the same name, field names must be unique");
            rc = -1;
        } else {
            Py_SETREF(f->key, Py_NewRef(key));
            f->utf8 = utf8;
            f->len = (size_t)len;
        }
        Py_XDECREF(key);
    }
    Py_DECREF(seen);
    return rc;
}
