/* What stays json's to do: json.loads with keyword arguments (object_hook, parse_float,
 * cls...), types json reads and the engine does not, and the rare text json takes and
 * the engine refuses (4 GiB or more). A json.JSONDecodeError raised there becomes
 * jetjson.JSONDecodeError with the same fields. No error of the engine's comes here. */
#include "dumps/encode_json.h"
#include "state.h"

/* json (and the re, enum... it imports) costs more than the rest of `import jetjson`,
 * and the fast paths never need it: it is imported here, on the first call that does. */
int jj_json_ready(jj_state *st) {
    if (st->JSONDecodeError) return 0;
    PyObject *json = PyImport_ImportModule("json");
    if (!json) return -1;
    int rc = -1;
    PyObject *loads = PyObject_GetAttrString(json, "loads");
    PyObject *base = loads ? PyObject_GetAttrString(json, "JSONDecodeError") : NULL;
    if (base && jj_dumps_init_json(st, json) == 0) {
        PyObject *type = PyErr_NewExceptionWithDoc(
            "jetjson.JSONDecodeError",
            "Invalid JSON: a json.JSONDecodeError with the same msg, doc, pos, lineno and colno.", base, NULL);
        /* another thread may have finished first while this one imported json: its
         * class stays the one (what it set from json is the same objects) */
        if (type && jj_decode_error_init(st, type) == 0) {
            if (!st->JSONDecodeError) {
                Py_XSETREF(st->json_loads, Py_NewRef(loads));
                Py_XSETREF(st->json_decode_error, Py_NewRef(base));
                st->JSONDecodeError = Py_NewRef(type); /* last: it marks the state ready */
            }
            rc = 0;
        }
        Py_XDECREF(type);
    }
    Py_XDECREF(base);
    Py_XDECREF(loads);
    Py_DECREF(json);
    return rc;
}

PyObject *jj_decode_error_type(PyObject *module, PyObject *unused) {
    (void)unused;
    jj_state *st = (jj_state *)PyModule_GetState(module);
    return jj_json_ready(st) < 0 ? NULL : Py_NewRef(st->JSONDecodeError);
}

/* Re-raises a json.JSONDecodeError as jetjson.JSONDecodeError with the same fields. */
static void jj_convert_decode_error(jj_state *st) {
    if (!PyErr_ExceptionMatches(st->json_decode_error)) return;
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *exc = PyErr_GetRaisedException();
#else
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyErr_NormalizeException(&type, &exc, &tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
#endif
    PyObject *msg = PyObject_GetAttrString(exc, "msg");
    PyObject *doc = msg ? PyObject_GetAttrString(exc, "doc") : NULL;
    PyObject *pos = doc ? PyObject_GetAttrString(exc, "pos") : NULL;
    PyObject *ours = pos ? PyObject_CallFunctionObjArgs(st->JSONDecodeError, msg, doc, pos, NULL) : NULL;
    Py_XDECREF(msg);
    Py_XDECREF(doc);
    Py_XDECREF(pos);
    if (ours) {
        PyErr_SetObject((PyObject *)Py_TYPE(ours), ours);
        Py_DECREF(ours);
        Py_DECREF(exc);
        return;
    }
    /* could not build ours (out of memory?): json's own exception is still right */
    PyErr_Clear();
#if PY_VERSION_HEX >= 0x030C0000
    PyErr_SetRaisedException(exc);
#else
    PyErr_Restore(Py_NewRef((PyObject *)Py_TYPE(exc)), exc, PyException_GetTraceback(exc));
#endif
}

PyObject *jj_json_loads(jj_state *st, PyObject *data, PyObject *kwargs, int count) {
    if (jj_json_ready(st) < 0) return NULL;
    PyObject *arg = PyMemoryView_Check(data) ? PyBytes_FromObject(data) : Py_NewRef(data);
    if (!arg) return NULL;
    PyObject *args = PyTuple_Pack(1, arg);
    Py_DECREF(arg);
    if (!args) return NULL;
    PyObject *result = PyObject_Call(st->json_loads, args, kwargs);
    st->json_calls++;
    Py_DECREF(args);
    if (count) {
        if (result) st->fallback_values++;
        else st->fallback_errors++;
    }
    if (!result) jj_convert_decode_error(st);
    return result;
}

PyObject *jj_json_call(jj_state *st, PyObject *args, PyObject *kwargs) {
    if (jj_json_ready(st) < 0) return NULL;
    PyObject *result = PyObject_Call(st->json_loads, args, kwargs);
    st->json_calls++;
    if (!result) jj_convert_decode_error(st);
    return result;
}
