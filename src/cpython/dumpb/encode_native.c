/* dumpb's native types: which kind an object is (as orjson decides it), and the
 * per-interpreter cache of the types and names the writers need. */
#include "encode_native.h"

#include <string.h>

#include "encode_native_internal.h"

#include "datetime_api.h"

/* The numpy scalar types orjson serializes, by their attribute names in numpy, in the
 * order of jj_np_scalar. */
static const char *const jj_np_scalar_names[JJ_NP_SCALAR_TYPES] = {
    "float64", "float32", "int64", "int32", "int16", "int8",
    "uint64",  "uint32",  "uint16", "uint8", "bool_", "datetime64", "float16",
};

static PyObject *jj_intern(const char *s) { return PyUnicode_InternFromString(s); }

/* The datetime types and datetime.timezone.utc, from the C API capsule. */
static void jj_native_datetime_types(jj_native_cache *c, PyDateTime_CAPI *api) {
    c->date_type = (PyTypeObject *)Py_NewRef(api->DateType);
    c->datetime_type = (PyTypeObject *)Py_NewRef(api->DateTimeType);
    c->time_type = (PyTypeObject *)Py_NewRef(api->TimeType);
    c->delta_type = (PyTypeObject *)Py_NewRef(api->DeltaType);
    c->utc = Py_NewRef(api->TimeZone_UTC);
    c->timezone_type = (PyTypeObject *)Py_NewRef((PyObject *)Py_TYPE(api->TimeZone_UTC));
}

/* Nothing is imported here: datetime, zoneinfo, uuid and numpy are looked up when a
 * value of theirs first reaches dumpb. Importing datetime at exec made every own-GIL
 * sub-interpreter that imports jetjson load _datetime, which CPython 3.12 and 3.13.0
 * cannot unload from two such interpreters without freeing memory twice. */
int jj_native_init(jj_state *st) {
    jj_native_cache *c = &st->native;
    c->str_int = jj_intern("int");
    c->str_utcoffset = jj_intern("utcoffset");
    c->str_normalize = jj_intern("normalize");
    c->str_convert = jj_intern("convert");
    c->str_array_struct = jj_intern("__array_struct__");
    c->str_dtype = jj_intern("dtype");
    c->str_str = jj_intern("str");
    if (!c->str_int || !c->str_utcoffset || !c->str_normalize || !c->str_convert ||
        !c->str_array_struct || !c->str_dtype || !c->str_str)
        return -1;
    return 0;
}

void jj_native_clear(jj_state *st) {
    jj_native_cache *c = &st->native;
    Py_CLEAR(c->date_type);
    Py_CLEAR(c->datetime_type);
    Py_CLEAR(c->time_type);
    Py_CLEAR(c->delta_type);
    Py_CLEAR(c->timezone_type);
    Py_CLEAR(c->utc);
    Py_CLEAR(c->zoneinfo_type);
    Py_CLEAR(c->uuid_type);
    Py_CLEAR(c->np_ndarray);
    for (int i = 0; i < JJ_NP_SCALAR_TYPES; i++) Py_CLEAR(c->np_scalars[i]);
    Py_CLEAR(c->str_int);
    Py_CLEAR(c->str_utcoffset);
    Py_CLEAR(c->str_normalize);
    Py_CLEAR(c->str_convert);
    Py_CLEAR(c->str_array_struct);
    Py_CLEAR(c->str_dtype);
    Py_CLEAR(c->str_str);
}

/* The type `module.name` if that module is already imported, else NULL (no exception:
 * a module nobody imported has no instances to serialize). */
static PyTypeObject *jj_imported_type(const char *module, const char *name) {
    PyObject *mod_name = PyUnicode_FromString(module);
    PyObject *mod = mod_name ? PyImport_GetModule(mod_name) : NULL;
    Py_XDECREF(mod_name);
    PyObject *type = mod ? PyObject_GetAttrString(mod, name) : NULL;
    Py_XDECREF(mod);
    if (type && !PyType_Check(type)) Py_CLEAR(type);
    if (PyErr_Occurred()) PyErr_Clear();
    return (PyTypeObject *)type;
}

/* Whether `type` (or its name) could be the one sought: a type is only looked up in
 * sys.modules when its name matches, so objects of every other type cost a string
 * compare, not a module lookup, while that module is not imported. */
static int jj_name_is(const PyTypeObject *type, const char *name) { return strcmp(type->tp_name, name) == 0; }

int jj_native_is_zoneinfo(jj_state *st, PyTypeObject *type) {
    jj_native_cache *c = &st->native;
    /* zoneinfo.ZoneInfo, in C (_zoneinfo) or in Python */
    if (!c->zoneinfo_type && (jj_name_is(type, "zoneinfo.ZoneInfo") || jj_name_is(type, "ZoneInfo")))
        c->zoneinfo_type = jj_imported_type("zoneinfo", "ZoneInfo");
    return type == c->zoneinfo_type;
}

/* The C datetime types, once something in this interpreter has imported _datetime (a
 * value of these types cannot exist before): taken from its C API capsule, which
 * PyCapsule_Import would have imported. 1 when they are known. */
static int jj_datetime_ready(jj_native_cache *c) {
    if (c->datetime_type) return 1;
    PyObject *name = PyUnicode_FromString("_datetime");
    PyObject *mod = name ? PyImport_GetModule(name) : NULL;
    Py_XDECREF(name);
    PyObject *capsule = mod && mod != Py_None ? PyObject_GetAttrString(mod, "datetime_CAPI") : NULL;
    Py_XDECREF(mod);
    PyDateTime_CAPI *api = NULL;
    if (capsule && PyCapsule_IsValid(capsule, PyDateTime_CAPSULE_NAME))
        api = (PyDateTime_CAPI *)PyCapsule_GetPointer(capsule, PyDateTime_CAPSULE_NAME);
    if (api) jj_native_datetime_types(c, api);
    Py_XDECREF(capsule);
    if (PyErr_Occurred()) PyErr_Clear();
    return api != NULL;
}

/* numpy's types, all at once, once numpy is imported. */
static int jj_numpy_ready(jj_native_cache *c) {
    if (c->np_ndarray) return 1;
    PyTypeObject *nd = jj_imported_type("numpy", "ndarray");
    if (!nd) return 0;
    PyTypeObject *scalars[JJ_NP_SCALAR_TYPES] = {NULL};
    int ok = 1;
    for (int i = 0; i < JJ_NP_SCALAR_TYPES && ok; i++) {
        scalars[i] = jj_imported_type("numpy", jj_np_scalar_names[i]);
        ok = scalars[i] != NULL;
    }
    if (!ok) {
        Py_DECREF(nd);
        for (int i = 0; i < JJ_NP_SCALAR_TYPES; i++) Py_XDECREF(scalars[i]);
        return 0;
    }
    for (int i = 0; i < JJ_NP_SCALAR_TYPES; i++) c->np_scalars[i] = scalars[i];
    c->np_ndarray = nd;
    return 1;
}

int jj_native_np_scalar_index(jj_state *st, PyTypeObject *type) {
    for (int i = 0; i < JJ_NP_SCALAR_TYPES; i++)
        if (st->native.np_scalars[i] == type) return i;
    return -1;
}

jj_native_kind jj_native_classify(jj_state *st, PyObject *obj, const jj_dumpb_opts *opts) {
    jj_native_cache *c = &st->native;
    PyTypeObject *type = Py_TYPE(obj);
    /* orjson takes these by exact type only; subclasses go to default */
    if (!opts->passthrough_datetime || opts->key) {
        /* the C types are named "datetime.date" and so on */
        if (!c->datetime_type && strncmp(type->tp_name, "datetime.", 9) == 0) jj_datetime_ready(c);
        if (type == c->datetime_type) return JJ_NATIVE_DATETIME;
        if (type == c->date_type) return JJ_NATIVE_DATE;
        if (type == c->time_type) return JJ_NATIVE_TIME;
    }
    if (!c->uuid_type && jj_name_is(type, "UUID")) c->uuid_type = jj_imported_type("uuid", "UUID");
    if (type == c->uuid_type) return JJ_NATIVE_UUID;
    if (!opts->serialize_numpy || opts->key || !jj_numpy_ready(c))
        return JJ_NATIVE_NONE;
    if (type == c->np_ndarray) return JJ_NATIVE_NUMPY_ARRAY;
    if (jj_native_np_scalar_index(st, type) >= 0) return JJ_NATIVE_NUMPY_SCALAR;
    return JJ_NATIVE_NONE;
}

int jj_native_error(jj_state *st, const char *msg) {
    PyErr_SetString(st->JSONEncodeError ? st->JSONEncodeError : PyExc_TypeError, msg);
    return -1;
}

Py_ssize_t jj_native_text(jj_state *st, PyObject *obj, jj_native_kind kind, const jj_dumpb_opts *opts, char *out) {
    if (kind == JJ_NATIVE_UUID) return jj_uuid_text(st, obj, out);
    return jj_datetime_text(st, obj, kind, opts, out);
}
