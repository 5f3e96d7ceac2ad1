/* jetjson.dumps and jetjson.dump: json's arguments, and what stays json's to do.
 *
 * Handled here: every json.dumps keyword except cls, with values of the plain types
 * (bool/int/None flags, str or int indent, a 2-tuple or list of str separators, any
 * default). Anything else (cls, unknown keywords, positional options, flags of other
 * types whose truth test could run user code) is passed to json.dumps/json.dump
 * unchanged, so json gives its own result or exception. */
#include "encode_json.h"

static const char *const jj_dumps_kw_names[JJ_DUMPS_KW_COUNT] = {
    "skipkeys", "ensure_ascii", "check_circular", "allow_nan", "cls",
    "indent", "separators", "default", "sort_keys",
};
enum {
    KW_SKIPKEYS, KW_ENSURE_ASCII, KW_CHECK_CIRCULAR, KW_ALLOW_NAN, KW_CLS,
    KW_INDENT, KW_SEPARATORS, KW_DEFAULT, KW_SORT_KEYS,
};

/* json's encoders run this many frames deeper than our own entry point (json.dumps,
 * encode, iterencode and the C encoder's call; or the generators of the Python
 * encoder); counted up front so that RecursionError comes at json's nesting (measured
 * with lists nested until it fails). From 3.12 Python frames no longer count against
 * the C recursion limit; the Python encoder's generators count against the Python
 * limit instead (JJ_PY312_FRAMES: json's frames above its first generator). From 3.13
 * json.dumps uses the C encoder with indent too. */
#if PY_VERSION_HEX >= 0x030C0000
#define JJ_DUMPS_C_FRAMES 0
#define JJ_DUMPS_PY_FRAMES 0
#define JJ_DUMP_FRAMES 0
#else
#define JJ_DUMPS_C_FRAMES 3
#define JJ_DUMPS_PY_FRAMES 2
#define JJ_DUMP_FRAMES 1
#endif
#define JJ_PY312_DUMPS_FRAMES 3
#define JJ_PY312_DUMP_FRAMES 2
#define JJ_C_INDENT (PY_VERSION_HEX >= 0x030D0000)

/* Python frames the caller's thread may still push (3.12+, for the Python encoder). */
static Py_ssize_t jj_dumps_python_frames_left(int for_dump) {
#if PY_VERSION_HEX >= 0x030C0000
    Py_ssize_t depth = 0;
    PyFrameObject *f = PyEval_GetFrame();
    Py_XINCREF(f);
    while (f) {
        PyFrameObject *back = PyFrame_GetBack(f);
        Py_DECREF(f);
        f = back;
        depth++;
    }
    Py_ssize_t left = Py_GetRecursionLimit() - depth - (for_dump ? JJ_PY312_DUMP_FRAMES : JJ_PY312_DUMPS_FRAMES);
    return left < 0 ? 0 : left;
#else
    (void)for_dump;
    return -1;
#endif
}

int jj_dumps_init_state(jj_state *st) {
    for (int i = 0; i < JJ_DUMPS_KW_COUNT; i++) {
        st->dumps_kw[i] = PyUnicode_InternFromString(jj_dumps_kw_names[i]);
        if (!st->dumps_kw[i]) return -1;
    }
    st->space = PyUnicode_FromString(" ");
    return st->space ? 0 : -1;
}

int jj_dumps_init_json(jj_state *st, PyObject *json) {
    PyObject *dumps = PyObject_GetAttrString(json, "dumps");
    PyObject *dump = dumps ? PyObject_GetAttrString(json, "dump") : NULL;
    PyObject *encoder = dump ? PyObject_GetAttrString(json, "JSONEncoder") : NULL;
    PyObject *encoder_default = encoder ? PyObject_GetAttrString(encoder, "default") : NULL;
    Py_XDECREF(encoder);
    if (!encoder_default) {
        Py_XDECREF(dump);
        Py_XDECREF(dumps);
        return -1;
    }
    Py_XSETREF(st->json_dumps, dumps);
    Py_XSETREF(st->json_dump, dump);
    Py_XSETREF(st->json_encoder_default, encoder_default);
    return 0;
}

int jj_dumps_traverse_state(jj_state *st, visitproc visit, void *arg) {
    Py_VISIT(st->json_dumps);
    Py_VISIT(st->json_dump);
    Py_VISIT(st->json_encoder_default);
    return 0;
}

void jj_dumps_clear_state(jj_state *st) {
    Py_CLEAR(st->json_dumps);
    Py_CLEAR(st->json_dump);
    Py_CLEAR(st->json_encoder_default);
    for (int i = 0; i < JJ_DUMPS_KW_COUNT; i++) Py_CLEAR(st->dumps_kw[i]);
    Py_CLEAR(st->space);
}

/* Keyword values by jj_dumps_kw_names index (NULL when absent); 1 for an unknown name. */
static int jj_dumps_parse_keywords(jj_state *st, PyObject *const *values, PyObject *kwnames, PyObject **kw) {
    for (int i = 0; i < JJ_DUMPS_KW_COUNT; i++) kw[i] = NULL;
    if (!kwnames) return 0;
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(kwnames); j++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, j);
        int found = -1;
        for (int i = 0; i < JJ_DUMPS_KW_COUNT && found < 0; i++) {
            if (name == st->dumps_kw[i]) found = i;
        }
        for (int i = 0; i < JJ_DUMPS_KW_COUNT && found < 0; i++) {
            if (PyUnicode_Compare(name, st->dumps_kw[i]) == 0) found = i;
        }
        if (found < 0) return 1;
        kw[found] = values[j];
    }
    return 0;
}

/* A flag's truth when it is a bool, an int or None (no user code runs); 1 otherwise. */
static int jj_dumps_simple_flag(PyObject *v, int absent, int *out) {
    if (!v) {
        *out = absent;
        return 0;
    }
    if (v != Py_None && !PyBool_Check(v) && !PyLong_CheckExact(v)) return 1;
    *out = PyObject_IsTrue(v);
    return 0;
}

static int jj_dumps_ready(PyObject *s) {
#if PY_VERSION_HEX < 0x030C0000
    return PyUnicode_READY(s);
#else
    (void)s;
    return 0;
#endif
}

/* The separators as they are written: ASCII bytes, or seps_raw for the str path. */
static void jj_dumps_set_separator_bytes(jj_dumps_enc *e) {
    e->seps_raw = !PyUnicode_IS_ASCII(e->item_sep) || !PyUnicode_IS_ASCII(e->key_sep) ||
                  (e->indent && !PyUnicode_IS_ASCII(e->indent));
    e->item_sep_a = (const char *)PyUnicode_DATA(e->item_sep);
    e->item_sep_n = PyUnicode_GET_LENGTH(e->item_sep);
    e->key_sep_a = (const char *)PyUnicode_DATA(e->key_sep);
    e->key_sep_n = PyUnicode_GET_LENGTH(e->key_sep);
    e->indent_a = e->indent ? (const char *)PyUnicode_DATA(e->indent) : "";
    e->indent_n = e->indent ? PyUnicode_GET_LENGTH(e->indent) : 0;
    e->seps_small = !e->seps_raw && e->item_sep_n <= 8 && e->key_sep_n <= 8;
    if (e->seps_small) {
        memcpy(e->item_sep8, e->item_sep_a, (size_t)e->item_sep_n);
        memcpy(e->key_sep8, e->key_sep_a, (size_t)e->key_sep_n);
    }
}

/* Pre-count the frames json's own call chain would use; 1 when there is no room. */
static int jj_dumps_enter_frames(int n) {
    for (int i = 0; i < n; i++) {
        if (Py_EnterRecursiveCall("")) {
            PyErr_Clear();
            while (i--) Py_LeaveRecursiveCall();
            return 1;
        }
    }
    return 0;
}

static void jj_dumps_leave_frames(int n) {
    while (n--) Py_LeaveRecursiveCall();
}

/* The text json.dumps (for_dump: the text json.dump writes) gives for obj and these
 * keywords. NULL with *to_json set (no exception) when json must do it. */
static PyObject *jj_dumps_encode(jj_state *st, PyObject *obj, PyObject **kw, int for_dump, int *to_json) {
    jj_dumps_enc e;
    memset(&e, 0, sizeof e);
    e.st = st;
    PyObject *result = NULL, *item_sep = NULL, *key_sep = NULL;
    PyObject *seps = kw[KW_SEPARATORS], *indent = kw[KW_INDENT];
    *to_json = 1;
    if (jj_dumps_simple_flag(kw[KW_SKIPKEYS], 0, &e.skipkeys) || jj_dumps_simple_flag(kw[KW_ENSURE_ASCII], 1, &e.ensure_ascii) ||
        jj_dumps_simple_flag(kw[KW_CHECK_CIRCULAR], 1, &e.check_circular) ||
        jj_dumps_simple_flag(kw[KW_ALLOW_NAN], 1, &e.allow_nan) || jj_dumps_simple_flag(kw[KW_SORT_KEYS], 0, &e.sort_keys))
        return NULL;
    if (kw[KW_CLS] && kw[KW_CLS] != Py_None) return NULL;
    if (seps == Py_None) seps = NULL;
    if (seps) {
        if (!(PyTuple_CheckExact(seps) || PyList_CheckExact(seps)) || Py_SIZE(seps) != 2) return NULL;
        item_sep = PySequence_Fast_GET_ITEM(seps, 0);
        key_sep = PySequence_Fast_GET_ITEM(seps, 1);
        if (!PyUnicode_CheckExact(item_sep) || !PyUnicode_CheckExact(key_sep)) return NULL;
    }
    if (indent == Py_None) indent = NULL;
    if (indent && !PyUnicode_CheckExact(indent) && !PyLong_CheckExact(indent) && !PyBool_Check(indent))
        return NULL;
    *to_json = 0;
    e.default_fn = kw[KW_DEFAULT] == Py_None ? NULL : kw[KW_DEFAULT];

    if (PyUnicode_Check(obj)) { /* json's encode() returns these before anything else */
        if (jj_dumps_ready(obj) < 0 || jj_out_start(&e.out, 64)) return NULL;
        if (jj_out_string(&e.out, obj, e.ensure_ascii)) {
            jj_out_abandon(&e.out);
            return NULL;
        }
        return jj_out_finish(&e.out);
    }
    /* json's ' ' * indent, with its errors */
    e.indent = !indent ? NULL : PyUnicode_CheckExact(indent) ? Py_NewRef(indent) : PyNumber_Multiply(st->space, indent);
    if (indent && !e.indent) return NULL;
    item_sep = item_sep ? Py_NewRef(item_sep) : PyUnicode_FromString(indent ? "," : ", ");
    key_sep = key_sep ? Py_NewRef(key_sep) : PyUnicode_FromString(": ");
    if (!item_sep || !key_sep || jj_dumps_ready(item_sep) < 0 || jj_dumps_ready(key_sep) < 0 || (e.indent && jj_dumps_ready(e.indent) < 0))
        goto done;
    if (e.indent && !PyUnicode_CheckExact(e.indent)) { /* int * str is always str; be sure */
        PyErr_SetString(PyExc_TypeError, "indent must give a str");
        goto done;
    }
    e.item_sep = item_sep;
    e.key_sep = key_sep;
    jj_dumps_set_separator_bytes(&e);
    e.py_path = for_dump || (e.indent != NULL && !JJ_C_INDENT);
    e.py_levels_left = e.py_path ? jj_dumps_python_frames_left(for_dump) : -1;
    int frames = for_dump ? JJ_DUMP_FRAMES : e.py_path ? JJ_DUMPS_PY_FRAMES : JJ_DUMPS_C_FRAMES;
    if (jj_dumps_enter_frames(frames)) {
        *to_json = 1;
        goto done;
    }
    if (jj_out_start(&e.out, jj_writer_first_capacity(st->dumps_last_len)) == 0) {
        if (jj_dumps_value(&e, obj) == 0) result = jj_out_finish(&e.out);
        else jj_out_abandon(&e.out);
        if (result) st->dumps_last_len = (size_t)PyUnicode_GET_LENGTH(result);
    }
    jj_dumps_leave_frames(frames);
    jj_dumps_release(&e);
done:
    Py_XDECREF(e.indent);
    Py_XDECREF(item_sep);
    Py_XDECREF(key_sep);
    return result;
}

static jj_state *jj_dumps_state_of(PyObject *module) { return (jj_state *)PyModule_GetState(module); }

PyObject *jj_dumps(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    jj_state *st = jj_dumps_state_of(module);
    PyObject *kw[JJ_DUMPS_KW_COUNT];
    int to_json = 1;
    PyObject *result = NULL;
    if (nargs == 1 && !jj_dumps_parse_keywords(st, args + nargs, kwnames, kw))
        result = jj_dumps_encode(st, args[0], kw, 0, &to_json);
    if (to_json && jj_json_ready(st) == 0) result = PyObject_Vectorcall(st->json_dumps, args, (size_t)nargs, kwnames);
    return result;
}

PyObject *jj_dump(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    jj_state *st = jj_dumps_state_of(module);
    PyObject *kw[JJ_DUMPS_KW_COUNT];
    int to_json = 1;
    PyObject *text = NULL;
    if (nargs == 2 && !jj_dumps_parse_keywords(st, args + nargs, kwnames, kw))
        text = jj_dumps_encode(st, args[0], kw, 1, &to_json);
    if (to_json) return jj_json_ready(st) < 0 ? NULL : PyObject_Vectorcall(st->json_dump, args, (size_t)nargs, kwnames);
    if (!text) return NULL;
    PyObject *written = PyObject_CallMethod(args[1], "write", "O", text);
    Py_DECREF(text);
    if (!written) return NULL;
    Py_DECREF(written);
    Py_RETURN_NONE;
}
