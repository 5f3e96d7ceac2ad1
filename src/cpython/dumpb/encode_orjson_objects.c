/* dumpb: what the walker does not know by exact type, in orjson's order: Fragment,
 * datetime/date/time/UUID/numpy (encode_native.h), enum members (their value),
 * subclasses of str/int/list/dict, dataclasses, and finally `default`. */
#include "encode_orjson.h"
#include "dumpb_messages.h"

int jj_dumpb_subclass(jj_dumpb_enc *e, PyObject *obj, int depth, int ndefault);

/* ---- Fragment ---- */

static int jj_dumpb_fragment(jj_dumpb_enc *e, PyObject *obj) {
    PyObject *contents = ((jj_fragment *)obj)->contents;
    if (PyBytes_Check(contents))
        return jj_writer_put(&e->w, PyBytes_AS_STRING(contents), (size_t)PyBytes_GET_SIZE(contents));
    if (!PyUnicode_Check(contents)) return jj_dumpb_fail(e, JJ_MSG_FRAGMENT);
    if (PyUnicode_IS_ASCII(contents))
        return jj_writer_put(&e->w, PyUnicode_DATA(contents), (size_t)PyUnicode_GET_LENGTH(contents));
    if (jj_str_has_surrogate(contents)) return jj_dumpb_fail(e, JJ_MSG_SURROGATE);
    /* a new bytes object, not the str's UTF-8 cache */
    PyObject *utf8 = PyUnicode_AsUTF8String(contents);
    if (!utf8) return -1;
    int rc = jj_writer_put(&e->w, PyBytes_AS_STRING(utf8), (size_t)PyBytes_GET_SIZE(utf8));
    Py_DECREF(utf8);
    return rc;
}

/* ---- dataclasses ---- */

static int jj_starts_with_underscore(PyObject *name) {
    return PyUnicode_GET_LENGTH(name) > 0 && PyUnicode_READ_CHAR(name, 0) == '_';
}

/* One "key":value member of a dataclass object; *first tracks the commas. */
static int jj_dumpb_member(jj_dumpb_enc *e, PyObject *name, PyObject *value, int depth, int ndefault, int *first) {
    /* the first member's line break was written with the '{' */
    if (!*first && (jj_writer_put_byte(&e->w, ',') || jj_dumpb_newline(e, depth + 1))) return -1;
    *first = 0;
    if (jj_dumpb_str(e, name) || jj_dumpb_colon(e)) return -1;
    return jj_dumpb_value(e, value, depth + 1, ndefault);
}

/* The instance __dict__, in its order, without the names starting with '_'. */
static int jj_dumpb_dataclass_dict(jj_dumpb_enc *e, PyObject *attrs, int depth, int ndefault, int *first) {
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(attrs, &pos, &key, &value)) {
        if (!PyUnicode_CheckExact(key)) return jj_dumpb_fail(e, JJ_MSG_KEY_STR);
        if (jj_starts_with_underscore(key)) continue;
        Py_INCREF(value);
        int rc = jj_dumpb_member(e, key, value, depth, ndefault, first);
        Py_DECREF(value);
        if (rc) return -1;
    }
    return 0;
}

/* dataclasses._FIELD: the marker of real fields among __dataclass_fields__. */
static PyObject *jj_field_marker(jj_state *st) {
    if (!st->dataclass_field) {
        PyObject *mod = PyImport_ImportModule("dataclasses");
        if (!mod) return NULL;
        st->dataclass_field = PyObject_GetAttrString(mod, "_FIELD");
        Py_DECREF(mod);
    }
    return st->dataclass_field;
}

/* Classes without an instance __dict__ (or with __slots__): the real fields of
 * __dataclass_fields__, in definition order, read as attributes. */
static int jj_dumpb_dataclass_fields(jj_dumpb_enc *e, PyObject *obj, int depth, int ndefault, int *first) {
    PyObject *marker = jj_field_marker(e->st);
    if (!marker) return -1;
    PyObject *fields = PyObject_GetAttr(obj, e->st->str_dataclass_fields);
    if (!fields) return -1;
    int rc = -1;
    if (!PyDict_Check(fields)) {
        PyErr_SetString(PyExc_TypeError, "__dataclass_fields__ is not a dict");
        goto done;
    }
    Py_ssize_t pos = 0;
    PyObject *name, *field;
    while (PyDict_Next(fields, &pos, &name, &field)) {
        if (!PyUnicode_CheckExact(name)) {
            jj_dumpb_fail(e, JJ_MSG_KEY_STR);
            goto done;
        }
        if (jj_starts_with_underscore(name)) continue;
        Py_INCREF(name);
        PyObject *kind = PyObject_GetAttr(field, e->st->str_field_type);
        PyObject *value = kind && kind == marker ? PyObject_GetAttr(obj, name) : NULL;
        int skip = kind && kind != marker;
        Py_XDECREF(kind);
        if (skip) {
            Py_DECREF(name);
            continue;
        }
        int failed = !value || jj_dumpb_member(e, name, value, depth, ndefault, first);
        Py_XDECREF(value);
        Py_DECREF(name);
        if (failed) goto done;
    }
    rc = 0;
done:
    Py_DECREF(fields);
    return rc;
}

/* "{" and, under INDENT_2, the first member's line break: orjson writes it whenever
 * the class has members to look at, even if all of them start with '_' ("{\n  \n}"). */
static int jj_dataclass_open(jj_dumpb_enc *e, Py_ssize_t members, int depth) {
    if (members == 0) return jj_writer_put(&e->w, "{}", 2);
    if (jj_writer_put_byte(&e->w, '{')) return -1;
    return jj_dumpb_newline(e, depth + 1);
}

static int jj_dataclass_close(jj_dumpb_enc *e, Py_ssize_t members, int depth) {
    if (members == 0) return 0;
    if (jj_dumpb_newline(e, depth)) return -1;
    return jj_writer_put_byte(&e->w, '}');
}

static int jj_dumpb_dataclass(jj_dumpb_enc *e, PyObject *obj, int depth, int ndefault) {
    if (depth >= JJ_ENC_MAX_DEPTH) return jj_dumpb_fail(e, JJ_MSG_RECURSION);
    int first = 1, rc;
    PyObject *attrs = NULL;
    if (Py_TYPE(obj)->tp_dictoffset != 0 &&
        !PyDict_Contains(Py_TYPE(obj)->tp_dict, e->st->str_slots)) {
        attrs = PyObject_GetAttr(obj, e->st->str_dict);
        if (!attrs) PyErr_Clear();
        else if (!PyDict_Check(attrs)) Py_CLEAR(attrs);
    }
    Py_ssize_t members;
    if (attrs) {
        Py_INCREF(attrs);
        members = PyDict_GET_SIZE(attrs);
        rc = jj_dataclass_open(e, members, depth) || jj_dumpb_dataclass_dict(e, attrs, depth, ndefault, &first) ||
             jj_dataclass_close(e, members, depth);
        Py_DECREF(attrs);
        Py_DECREF(attrs);
        return rc ? -1 : 0;
    }
    PyObject *fields = PyObject_GetAttr(obj, e->st->str_dataclass_fields);
    if (!fields) return -1;
    members = PyDict_Check(fields) ? PyDict_GET_SIZE(fields) : 0;
    Py_DECREF(fields);
    rc = jj_dataclass_open(e, members, depth) || jj_dumpb_dataclass_fields(e, obj, depth, ndefault, &first) ||
         jj_dataclass_close(e, members, depth);
    return rc ? -1 : 0;
}

/* ---- default ---- */

static int jj_not_serializable(jj_dumpb_enc *e, PyObject *obj) {
    PyErr_Format(e->st->JSONEncodeError, JJ_MSG_NOT_SERIALIZABLE, Py_TYPE(obj)->tp_name);
    return -1;
}

/* orjson's message, with what default raised as the cause. */
static int jj_default_failed(jj_dumpb_enc *e, PyObject *obj) {
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *cause = PyErr_GetRaisedException();
#else
    PyObject *type, *cause, *tb;
    PyErr_Fetch(&type, &cause, &tb);
    PyErr_NormalizeException(&type, &cause, &tb);
    if (tb && cause) PyException_SetTraceback(cause, tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
#endif
    jj_not_serializable(e, obj);
    if (!cause) return -1;
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *exc = PyErr_GetRaisedException();
    PyException_SetCause(exc, cause); /* steals cause */
    PyException_SetContext(exc, Py_NewRef(cause));
    PyErr_SetRaisedException(exc);
#else
    PyObject *etype, *exc, *etb;
    PyErr_Fetch(&etype, &exc, &etb);
    PyErr_NormalizeException(&etype, &exc, &etb);
    if (exc) {
        PyException_SetContext(exc, Py_NewRef(cause));
        PyException_SetCause(exc, cause);
    } else {
        Py_DECREF(cause);
    }
    PyErr_Restore(etype, exc, etb);
#endif
    return -1;
}

static int jj_dumpb_default(jj_dumpb_enc *e, PyObject *obj, int depth, int ndefault) {
    if (!e->default_fn) return jj_not_serializable(e, obj);
    if (ndefault >= JJ_ENC_MAX_DEFAULT) return jj_dumpb_fail(e, JJ_MSG_DEFAULT_RECURSION);
    PyObject *result = PyObject_CallOneArg(e->default_fn, obj);
    if (!result) return jj_default_failed(e, obj);
    int rc = jj_dumpb_value(e, result, depth, ndefault + 1);
    Py_DECREF(result);
    return rc;
}

/* ---- dispatch ---- */

static int jj_is_dataclass(jj_state *st, PyTypeObject *type) {
    return type->tp_dict && PyDict_Contains(type->tp_dict, st->str_dataclass_fields) == 1;
}

static int jj_dumpb_native(jj_dumpb_enc *e, PyObject *obj, jj_native_kind kind, int depth, int ndefault) {
    if (kind == JJ_NATIVE_NUMPY_ARRAY || kind == JJ_NATIVE_NUMPY_SCALAR) {
        int rc = jj_native_write_numpy(e->st, &e->w, obj, kind, &e->opts, depth);
        if (rc <= 0) return rc;
        /* what orjson leaves to default, or refuses with its own message without one */
        if (e->default_fn) return jj_dumpb_default(e, obj, depth, ndefault);
        return jj_dumpb_fail(e, rc == JJ_NP_NOT_CONTIGUOUS ? JJ_MSG_NUMPY_NOT_CONTIGUOUS
                                                         : JJ_MSG_NUMPY_DATATYPE);
    }
    char text[JJ_NATIVE_TEXT_MAX];
    Py_ssize_t n = jj_native_text(e->st, obj, kind, &e->opts, text);
    if (n < 0) return -1;
    if (jj_writer_reserve(&e->w, (size_t)n + 2)) return -1;
    e->w.pos[0] = '"';
    memcpy(e->w.pos + 1, text, (size_t)n);
    e->w.pos[n + 1] = '"';
    e->w.pos += n + 2;
    return 0;
}

int jj_is_enum_member(jj_state *st, PyObject *obj) {
    PyTypeObject *meta = Py_TYPE(Py_TYPE(obj));
    if (meta == &PyType_Type) return 0; /* most classes: no need to look further */
    if (!st->enum_meta) {
        PyObject *name = PyUnicode_FromString("enum");
        PyObject *mod = name ? PyImport_GetModule(name) : NULL;
        Py_XDECREF(name);
        PyObject *enum_meta = mod && mod != Py_None ? PyObject_GetAttrString(mod, "EnumMeta") : NULL;
        Py_XDECREF(mod);
        if (enum_meta && PyType_Check(enum_meta)) st->enum_meta = Py_NewRef(enum_meta);
        Py_XDECREF(enum_meta);
        if (PyErr_Occurred()) PyErr_Clear();
        if (!st->enum_meta) return 0;
    }
    return PyType_IsSubtype(meta, (PyTypeObject *)st->enum_meta);
}

static int jj_dumpb_other_held(jj_dumpb_enc *e, PyObject *obj, int depth, int ndefault) {
    PyTypeObject *type = Py_TYPE(obj);
    if (type == e->st->Fragment) return jj_dumpb_fragment(e, obj);
    jj_native_kind kind = jj_native_classify(e->st, obj, &e->opts);
    if (kind != JJ_NATIVE_NONE) return jj_dumpb_native(e, obj, kind, depth, ndefault);
    if (jj_is_enum_member(e->st, obj)) {
        /* an enum whose value is (or makes) another member, forever: RecursionError */
        if (Py_EnterRecursiveCall(" while encoding an enum value")) return -1;
        PyObject *value = PyObject_GetAttr(obj, e->st->str_value);
        int rc = value ? jj_dumpb_value(e, value, depth, ndefault) : -1;
        Py_XDECREF(value);
        Py_LeaveRecursiveCall();
        return rc;
    }
    if (!e->opts.passthrough_subclass &&
        (PyUnicode_Check(obj) || PyLong_Check(obj) || PyList_Check(obj) || PyDict_Check(obj)))
        return jj_dumpb_subclass(e, obj, depth, ndefault);
    if (!e->opts.passthrough_dataclass && jj_is_dataclass(e->st, type))
        return jj_dumpb_dataclass(e, obj, depth, ndefault);
    return jj_dumpb_default(e, obj, depth, ndefault);
}

int jj_dumpb_other(jj_dumpb_enc *e, PyObject *obj, int depth, int ndefault) {
    Py_INCREF(obj);
    int rc = jj_dumpb_other_held(e, obj, depth, ndefault);
    Py_DECREF(obj);
    return rc;
}

/* ---- module setup ---- */

static int jj_intern(PyObject **slot, const char *text) {
    *slot = PyUnicode_InternFromString(text);
    return *slot ? 0 : -1;
}

int jj_dumpb_init(jj_state *st, PyObject *module) {
    static const struct {
        const char *name;
        unsigned value;
    } options[] = {
        {"OPT_APPEND_NEWLINE", JJ_OPT_APPEND_NEWLINE},
        {"OPT_INDENT_2", JJ_OPT_INDENT_2},
        {"OPT_NAIVE_UTC", JJ_OPT_NAIVE_UTC},
        {"OPT_NON_STR_KEYS", JJ_OPT_NON_STR_KEYS},
        {"OPT_OMIT_MICROSECONDS", JJ_OPT_OMIT_MICROSECONDS},
        {"OPT_PASSTHROUGH_DATACLASS", JJ_OPT_PASSTHROUGH_DATACLASS},
        {"OPT_PASSTHROUGH_DATETIME", JJ_OPT_PASSTHROUGH_DATETIME},
        {"OPT_PASSTHROUGH_SUBCLASS", JJ_OPT_PASSTHROUGH_SUBCLASS},
        /* orjson keeps these two as 0: dataclasses and UUIDs are always serialized */
        {"OPT_SERIALIZE_DATACLASS", 0},
        {"OPT_SERIALIZE_NUMPY", JJ_OPT_SERIALIZE_NUMPY},
        {"OPT_SERIALIZE_UUID", 0},
        {"OPT_SORT_KEYS", JJ_OPT_SORT_KEYS},
        {"OPT_STRICT_INTEGER", JJ_OPT_STRICT_INTEGER},
        {"OPT_UTC_Z", JJ_OPT_UTC_Z},
    };
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        if (PyModule_AddIntConstant(module, options[i].name, (long)options[i].value) < 0) return -1;
    }
    /* TypeError itself, as orjson.JSONEncodeError is: `except JSONEncodeError` then
     * catches every TypeError of a call (a failing default's too), as code written
     * against orjson expects */
    st->JSONEncodeError = Py_NewRef(PyExc_TypeError);
    if (PyModule_AddObjectRef(module, "JSONEncodeError", st->JSONEncodeError) < 0) return -1;
    if (jj_intern(&st->str_value, "value") || jj_intern(&st->str_dict, "__dict__") ||
        jj_intern(&st->str_slots, "__slots__") || jj_intern(&st->str_dataclass_fields, "__dataclass_fields__") ||
        jj_intern(&st->str_field_type, "_field_type"))
        return -1;
    return jj_fragment_init(st, module);
}

int jj_dumpb_traverse(jj_state *st, visitproc visit, void *arg) {
    Py_VISIT(st->JSONEncodeError);
    Py_VISIT(st->Fragment);
    Py_VISIT(st->enum_meta);
    Py_VISIT(st->dataclass_field);
    return 0;
}

void jj_dumpb_clear(jj_state *st) {
    Py_CLEAR(st->JSONEncodeError);
    Py_CLEAR(st->Fragment);
    Py_CLEAR(st->enum_meta);
    Py_CLEAR(st->dataclass_field);
    Py_CLEAR(st->str_value);
    Py_CLEAR(st->str_dict);
    Py_CLEAR(st->str_slots);
    Py_CLEAR(st->str_dataclass_fields);
    Py_CLEAR(st->str_field_type);
}
