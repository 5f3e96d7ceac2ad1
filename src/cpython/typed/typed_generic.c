/* Generic dataclasses, TypedDicts and NamedTuples (Box[int] where Box is Generic[T], PEP
 * 695's class Box[T], a subclass of Box[int]): the type variables of a class's field
 * hints are bound to the arguments given (or inherited through __orig_bases__) in a
 * scope, a dict TypeVar -> type, which the compiler consults when a hint is a TypeVar.
 * A variable left unbound stands for its bound, else Any (as msgspec reads it). */
#include "typed.h"

static int jg_is_typevar(PyObject *t, PyObject *typevar) { return typevar && Py_IS_TYPE(t, (PyTypeObject *)typevar); }

PyObject *jj_typed_substitute(PyObject *t, PyObject *scope, PyObject *typevar) {
    if (!scope || PyDict_GET_SIZE(scope) == 0) return Py_NewRef(t);
    if (jg_is_typevar(t, typevar)) {
        PyObject *v = PyDict_GetItemWithError(scope, t);
        return v ? Py_NewRef(v) : PyErr_Occurred() ? NULL : Py_NewRef(t);
    }
    if (PyType_Check(t)) return Py_NewRef(t); /* a bare generic class means its own Any */
    PyObject *params = PyObject_GetAttrString(t, "__parameters__");
    if (!params) {
        PyErr_Clear();
        return Py_NewRef(t);
    }
    if (!PyTuple_Check(params) || PyTuple_GET_SIZE(params) == 0) {
        Py_DECREF(params);
        return Py_NewRef(t);
    }
    Py_ssize_t n = PyTuple_GET_SIZE(params);
    PyObject *args = PyTuple_New(n);
    for (Py_ssize_t i = 0; args && i < n; i++) {
        PyObject *v = jj_typed_substitute(PyTuple_GET_ITEM(params, i), scope, typevar);
        if (!v) Py_CLEAR(args);
        else PyTuple_SET_ITEM(args, i, v);
    }
    Py_DECREF(params);
    if (!args) return NULL;
    /* list[T][int], Optional[T][int], Annotated[T, m][int]: typing substitutes */
    PyObject *out = PyObject_GetItem(t, n == 1 ? PyTuple_GET_ITEM(args, 0) : args);
    Py_DECREF(args);
    return out;
}

/* Binds the class's parameters `params` to `args` (each substituted in `outer`), where
 * not bound already and not left a bare TypeVar. 0 or -1. */
static int jg_bind(PyObject *scope, PyObject *params, PyObject *args, PyObject *outer, PyObject *typevar) {
    if (!params || !PyTuple_Check(params) || !args || !PyTuple_Check(args)) return 0;
    Py_ssize_t n = PyTuple_GET_SIZE(params) < PyTuple_GET_SIZE(args) ? PyTuple_GET_SIZE(params) : PyTuple_GET_SIZE(args);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p = PyTuple_GET_ITEM(params, i);
        if (!jg_is_typevar(p, typevar)) continue; /* ParamSpec, TypeVarTuple: not read */
        int known = PyDict_Contains(scope, p);
        if (known < 0) return -1;
        if (known) continue;
        PyObject *v = jj_typed_substitute(PyTuple_GET_ITEM(args, i), outer, typevar);
        if (!v) return -1;
        int rc = jg_is_typevar(v, typevar) ? 0 : PyDict_SetItem(scope, p, v);
        Py_DECREF(v);
        if (rc < 0) return -1;
    }
    return 0;
}

PyObject *jj_typed_bind_scope(PyObject *params, PyObject *args, PyObject *outer, PyObject *typevar) {
    PyObject *scope = PyDict_New();
    if (scope && jg_bind(scope, params, args, outer, typevar) < 0) Py_CLEAR(scope);
    return scope;
}

PyObject *jj_typed_generic_scope(PyObject *cls, PyObject *args, PyObject *outer, PyObject *get_origin,
                                 PyObject *get_args, PyObject *typevar) {
    PyObject *scope = PyDict_New();
    if (!scope) return NULL;
    if (args) {
        PyObject *params = PyObject_GetAttrString(cls, "__parameters__");
        if (!params) PyErr_Clear();
        int rc = jg_bind(scope, params, args, outer, typevar);
        Py_XDECREF(params);
        if (rc < 0) goto fail;
    }
    /* class IntBox(Box[int]): what the bases were given, the subclass's own first */
    PyObject *mro = ((PyTypeObject *)cls)->tp_mro;
    for (Py_ssize_t k = 0; mro && k < PyTuple_GET_SIZE(mro); k++) {
        PyObject *klass = PyTuple_GET_ITEM(mro, k);
        PyObject *own = ((PyTypeObject *)klass)->tp_dict;
        PyObject *bases = own ? PyDict_GetItemString(own, "__orig_bases__") : NULL;
        if (!bases || !PyTuple_Check(bases)) continue;
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(bases); i++) {
            PyObject *base = PyTuple_GET_ITEM(bases, i);
            PyObject *origin = PyObject_CallOneArg(get_origin, base);
            if (!origin) goto fail;
            PyObject *params = origin != Py_None ? PyObject_GetAttrString(origin, "__parameters__") : NULL;
            if (!params) PyErr_Clear();
            PyObject *base_args = params ? PyObject_CallOneArg(get_args, base) : NULL;
            int rc = params && !base_args ? -1 : jg_bind(scope, params, base_args, scope, typevar);
            Py_DECREF(origin);
            Py_XDECREF(params);
            Py_XDECREF(base_args);
            if (rc < 0) goto fail;
        }
    }
    return scope;
fail:
    Py_DECREF(scope);
    return NULL;
}
