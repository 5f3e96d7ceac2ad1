/* Constraints from Annotated metadata: bounds (gt, ge, lt, le, multiple_of) and lengths
 * (min_length, max_length), read by attribute name, so that annotated_types' Gt, Ge,
 * Lt, Le, MultipleOf, MinLen, MaxLen, Len, Interval (and msgspec.Meta) all work without
 * importing any of them. Checked on the value once it is built, worded as msgspec words
 * its own Meta constraints. */
#include <math.h>

#include "typed.h"

static const char *const jt_bound_names[] = {"gt", "ge", "lt", "le", "multiple_of"};
enum { JT_B_GT, JT_B_GE, JT_B_LT, JT_B_LE, JT_B_MULT };

static int jt_invalid_on(const char *name, const char *what, PyObject *t) {
    PyErr_Format(PyExc_TypeError, "Can only set `%s` on a %s type - type `%R` is invalid", name, what, t);
    return -1;
}

static int jt_int_bound(PyObject *v, long long *out) {
    if (!PyLong_Check(v) || PyBool_Check(v)) {
        PyErr_Format(PyExc_TypeError, "'%.100s' object cannot be interpreted as an integer", Py_TYPE(v)->tp_name);
        return -1;
    }
    int overflow;
    *out = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow) {
        PyErr_SetString(PyExc_ValueError, "Integer bounds constraints (`ge`, `le`, ...) that don't fit in an int64 are "
                                          "not supported");
        return -1;
    }
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int jt_apply_bound(jj_tnode *u, int which, PyObject *v, PyObject *t) {
    if (u->kinds & JT_INT && !u->decimal) {
        long long b;
        if (jt_int_bound(v, &b) < 0) return -1;
        /* an int's strict bound is the inclusive one next to it, as msgspec reports it */
        if (which == JT_B_GT) u->int_ge = b + 1, u->cons |= JT_C_INT_GE;
        else if (which == JT_B_GE) u->int_ge = b, u->cons |= JT_C_INT_GE;
        else if (which == JT_B_LT) u->int_le = b - 1, u->cons |= JT_C_INT_LE;
        else if (which == JT_B_LE) u->int_le = b, u->cons |= JT_C_INT_LE;
        else u->int_mult = b, u->cons |= JT_C_INT_MULT;
        if (which == JT_B_MULT && b <= 0) {
            PyErr_SetString(PyExc_ValueError, "multiple_of must be > 0");
            return -1;
        }
        return 0;
    }
    if (u->kinds & JT_FLOAT && !u->decimal) {
        double d = PyFloat_AsDouble(v);
        if (d == -1.0 && PyErr_Occurred()) return -1;
        u->flt[which] = d;
        u->cons |= JT_C_FLT_GT << which;
        return 0;
    }
    return jt_invalid_on(jt_bound_names[which], "numeric", t);
}

static int jt_apply_length(jj_tnode *u, int is_max, PyObject *v, PyObject *t) {
    Py_ssize_t n = PyLong_AsSsize_t(v);
    if (n == -1 && PyErr_Occurred()) return -1;
    int any = 0;
    if (u->kinds & JT_STR && (u->str_kind == JT_PLAIN || u->str_kind >= JT_BYTES)) {
        u->len_bounds[0][is_max] = n;
        u->cons |= JT_C_STR_MIN << is_max;
        any = 1;
    }
    if (u->kinds & JT_ARRAY) {
        u->len_bounds[1][is_max] = n;
        u->cons |= JT_C_ARR_MIN << is_max;
        any = 1;
    }
    if (u->kinds & JT_OBJECT && u->obj->object_kind == JT_DICT) {
        u->len_bounds[2][is_max] = n;
        u->cons |= JT_C_OBJ_MIN << is_max;
        any = 1;
    }
    return any ? 0 : jt_invalid_on(is_max ? "max_length" : "min_length", "str, bytes, or collection", t);
}

/* The attribute `name` of meta when it is set (not None): a new reference, NULL
 * without an exception when absent. */
static PyObject *jt_meta_attr(PyObject *meta, const char *name) {
    PyObject *v = PyObject_GetAttrString(meta, name);
    if (!v && PyErr_ExceptionMatches(PyExc_AttributeError)) PyErr_Clear();
    if (v == Py_None) Py_CLEAR(v);
    return v;
}

int jj_typed_constrain(jj_tnode *u, PyObject *metadata, PyObject *t) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(metadata); i++) {
        PyObject *meta = PyTuple_GET_ITEM(metadata, i);
        if (PyUnicode_Check(meta) || PyLong_Check(meta) || PyFloat_Check(meta)) continue; /* plain notes */
        for (int b = 0; b <= JT_B_MULT; b++) {
            PyObject *v = jt_meta_attr(meta, jt_bound_names[b]);
            int rc = v ? jt_apply_bound(u, b, v, t) : PyErr_Occurred() ? -1 : 0;
            Py_XDECREF(v);
            if (rc < 0) return -1;
        }
        for (int is_max = 0; is_max < 2; is_max++) {
            PyObject *v = jt_meta_attr(meta, is_max ? "max_length" : "min_length");
            int rc = v ? jt_apply_length(u, is_max, v, t) : PyErr_Occurred() ? -1 : 0;
            Py_XDECREF(v);
            if (rc < 0) return -1;
        }
    }
    return 0;
}

int jj_typed_has_constraints(PyObject *metadata) {
    static const char *const names[] = {"gt", "ge", "lt", "le", "multiple_of", "min_length", "max_length"};
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(metadata); i++) {
        PyObject *meta = PyTuple_GET_ITEM(metadata, i);
        if (PyUnicode_Check(meta) || PyLong_Check(meta) || PyFloat_Check(meta)) continue;
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
            PyObject *v = jt_meta_attr(meta, names[k]);
            if (v) {
                Py_DECREF(v);
                return 1;
            }
            if (PyErr_Occurred()) return -1;
        }
    }
    return 0;
}

/* ---- checks ---- */

static PyObject *jt_fail(jj_tpath *e, PyObject *v, PyObject *msg) {
    Py_DECREF(v);
    jj_tpath_fail(e, msg);
    return NULL;
}

static PyObject *jt_float_text(double d) {
    PyObject *f = PyFloat_FromDouble(d);
    PyObject *r = f ? PyObject_Repr(f) : NULL;
    Py_XDECREF(f);
    return r;
}

static PyObject *jt_check_float(jj_tpath *e, const jj_tnode *n, PyObject *v) {
    static const char *const ops[] = {">", ">=", "<", "<="};
    double d = PyFloat_AS_DOUBLE(v);
    for (int b = 0; b <= JT_B_MULT; b++) {
        if (!(n->cons & (JT_C_FLT_GT << b))) continue;
        double x = n->flt[b];
        int ok = b == JT_B_GT ? d > x : b == JT_B_GE ? d >= x : b == JT_B_LT ? d < x : b == JT_B_LE ? d <= x
                                                                                                  : fmod(d, x) == 0.0;
        if (ok) continue;
        PyObject *text = jt_float_text(x);
        if (!text) return NULL;
        PyObject *msg = b == JT_B_MULT ? PyUnicode_FromFormat("Expected `float` that's a multiple of %U", text)
                                       : PyUnicode_FromFormat("Expected `float` %s %U", ops[b], text);
        Py_DECREF(text);
        return jt_fail(e, v, msg);
    }
    return v;
}

static PyObject *jt_check_int(jj_tpath *e, const jj_tnode *n, PyObject *v) {
    int overflow;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred()) {
        Py_DECREF(v);
        return NULL;
    }
    if (n->cons & JT_C_INT_GE && (overflow < 0 || (!overflow && x < n->int_ge)))
        return jt_fail(e, v, PyUnicode_FromFormat("Expected `int` >= %lld", n->int_ge));
    if (n->cons & JT_C_INT_LE && (overflow > 0 || (!overflow && x > n->int_le)))
        return jt_fail(e, v, PyUnicode_FromFormat("Expected `int` <= %lld", n->int_le));
    if (n->cons & JT_C_INT_MULT) {
        int ok;
        if (overflow) {
            PyObject *m = PyLong_FromLongLong(n->int_mult);
            PyObject *r = m ? PyNumber_Remainder(v, m) : NULL;
            Py_XDECREF(m);
            if (!r) {
                Py_DECREF(v);
                return NULL;
            }
            ok = PyObject_Not(r);
            Py_DECREF(r);
        } else {
            ok = x % n->int_mult == 0;
        }
        if (!ok) return jt_fail(e, v, PyUnicode_FromFormat("Expected `int` that's a multiple of %lld", n->int_mult));
    }
    return v;
}

static PyObject *jt_check_len(jj_tpath *e, const jj_tnode *n, PyObject *v, int which, Py_ssize_t len,
                              const char *name) {
    if (n->cons & (JT_C_STR_MIN << (2 * which)) && len < n->len_bounds[which][0])
        return jt_fail(e, v, PyUnicode_FromFormat("Expected `%s` of length >= %zd", name, n->len_bounds[which][0]));
    if (n->cons & (JT_C_STR_MAX << (2 * which)) && len > n->len_bounds[which][1])
        return jt_fail(e, v, PyUnicode_FromFormat("Expected `%s` of length <= %zd", name, n->len_bounds[which][1]));
    return v;
}

PyObject *jj_typed_check(jj_tpath *e, const jj_tnode *n, PyObject *v) {
    if (PyFloat_Check(v)) return jt_check_float(e, n, v);
    if (PyLong_Check(v) && !PyBool_Check(v)) return jt_check_int(e, n, v);
    if (PyUnicode_Check(v)) return jt_check_len(e, n, v, 0, PyUnicode_GET_LENGTH(v), "str");
    if (PyBytes_Check(v) || PyByteArray_Check(v)) return jt_check_len(e, n, v, 0, PyObject_Length(v), "bytes");
    if (PyList_Check(v) || PyTuple_Check(v) || PyAnySet_Check(v)) return jt_check_len(e, n, v, 1, PyObject_Length(v), "array");
    if (PyDict_Check(v) && n->obj->object_kind == JT_DICT) return jt_check_len(e, n, v, 2, PyDict_GET_SIZE(v), "object");
    return v;
}
