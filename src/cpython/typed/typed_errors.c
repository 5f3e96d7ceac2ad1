/* Validation errors of loads(type=), worded as msgspec words them: the message is
 * recorded where the value fails, the path is collected while the converter unwinds
 * (so a successful decode never builds one), and the whole is raised at the top as
 * "<message> - at `$.owner.id`". */
#include "typed.h"

int jj_tpath_fail(jj_tpath *e, PyObject *msg) {
    if (!msg) return -1;
    e->segments = PyList_New(0);
    if (!e->segments) {
        Py_DECREF(msg);
        return -1;
    }
    Py_XSETREF(e->msg, msg);
    e->in_key = 0;
    return 0;
}

/* msgspec's order of kinds in "Expected `bool | int | float | str | object | array | null`". */
int jj_tpath_expected(jj_tpath *e, const jj_tnode *n, const char *got) {
    static const struct {
        unsigned kind;
        const char *name;
    } order[] = {
        {JT_TRUE | JT_FALSE, "bool"}, {JT_INT, "int"},       {JT_FLOAT, "float"}, {JT_STR, "str"},
        {JT_OBJECT, "object"},        {JT_ARRAY, "array"},   {JT_NULL, "null"},
    };
    char text[96] = "";
    size_t used = 0;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (!(n->kinds & order[i].kind)) continue;
        if (n->decimal && (order[i].kind & (JT_INT | JT_FLOAT))) continue; /* said as `decimal` */
        const char *name = order[i].kind == JT_STR ? n->str_name : order[i].name;
        used += (size_t)PyOS_snprintf(text + used, sizeof text - used, "%s%s", used ? " | " : "", name);
    }
    return jj_tpath_fail(e, PyUnicode_FromFormat("Expected `%s`, got `%s`", text, got));
}

int jj_tpath_enum(jj_tpath *e, PyObject *value) {
    return jj_tpath_fail(e, PyUnicode_FromFormat("Invalid enum value %R", value));
}

int jj_tpath_unknown(jj_tpath *e, PyObject *key) {
    if (!key) return -1;
    PyObject *msg = PyUnicode_FromFormat("Object contains unknown field `%U`", key);
    Py_DECREF(key);
    return jj_tpath_fail(e, msg);
}

static void jt_push(jj_tpath *e, PyObject *segment) {
    if (!segment || PyList_Append(e->segments, segment) < 0) PyErr_Clear(); /* the path is lost, not the error */
    Py_XDECREF(segment);
}

void jj_tpath_field(jj_tpath *e, PyObject *name) {
    if (e->segments) jt_push(e, PyUnicode_FromFormat(".%U", name));
}

void jj_tpath_index(jj_tpath *e, Py_ssize_t i) {
    if (e->segments) jt_push(e, PyUnicode_FromFormat("[%zd]", i));
}

void jj_tpath_dict_value(jj_tpath *e) {
    if (e->segments) jt_push(e, PyUnicode_FromString("[...]"));
}

int jj_tpath_from_exception(jj_tpath *e) {
    if (!PyErr_ExceptionMatches(PyExc_ValueError) && !PyErr_ExceptionMatches(PyExc_TypeError)) return 0;
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    PyObject *msg = value ? PyObject_Str(value) : NULL;
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
    if (!msg) return -1;
    return jj_tpath_fail(e, msg) < 0 ? -1 : 1;
}

void jj_tpath_raise(jj_state *st, jj_tpath *e) {
    if (e->segments && e->msg) {
        PyObject *full = NULL;
        Py_ssize_t n = PyList_GET_SIZE(e->segments);
        if (n == 0 && !e->in_key) {
            full = Py_NewRef(e->msg);
        } else if (PyList_Reverse(e->segments) == 0) {
            PyObject *empty = PyUnicode_FromString("");
            PyObject *path = empty ? PyUnicode_Join(empty, e->segments) : NULL;
            if (path)
                full = PyUnicode_FromFormat("%U - at `%s$%U`", e->msg, e->in_key ? "key` in `" : "", path);
            Py_XDECREF(empty);
            Py_XDECREF(path);
        }
        if (full) {
            PyErr_SetObject(st->ValidationError, full);
            Py_DECREF(full);
        }
    }
    Py_CLEAR(e->segments);
    Py_CLEAR(e->msg);
}
