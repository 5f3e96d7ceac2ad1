/* What json raises for a text the engine refused, made from the engine's verdict
 * (jj_json_explain) instead of running json.loads again: the same exception type,
 * message, doc, pos, lineno and colno, at a fraction of json's time. */
#include "state.h"

/* The keys of the exception's instance dict, in st->error_keys. They are interned once
 * here: PyDict_SetItemString would intern each name again on every error, and a name
 * nothing else holds (_jj_utf8) would come and go from the interpreter's table. */
enum { JJ_KEY_MSG, JJ_KEY_DOC, JJ_KEY_UTF8, JJ_KEY_POS, JJ_KEY_LINENO, JJ_KEY_COLNO, JJ_KEY_COUNT };
static const char *const jj_error_key_names[JJ_KEY_COUNT] = {"msg", "_jj_doc", "_jj_utf8", "pos", "lineno", "colno"};

static PyObject *jj_key(PyObject *keys, int which) { return PyTuple_GET_ITEM(keys, which); }

jj_text_position jj_position_after(jj_text_position origin, jj_text_position rel) {
    jj_text_position at = {origin.chars + rel.chars, origin.line, origin.column + rel.column - 1};
    if (rel.line > 1) {
        at.line = origin.line + rel.line - 1;
        at.column = rel.column;
    }
    return at;
}

static const jj_text_position jj_text_start = {0, 1, 1};

static PyObject *jj_decode_error_at(jj_state *st, const char *msg, PyObject *doc, PyObject *utf8,
                                    const uint8_t *buf, size_t offset, const jj_text_position *origin) {
    /* what JSONDecodeError.__init__ would store, with the line counted on the bytes
     * rather than by str.count over the decoded text */
    if (jj_json_ready(st) < 0) return NULL;
    jj_text_position at = jj_position_after(origin ? *origin : jj_text_start, jj_text_position_of(buf, offset));
    PyObject *exc = NULL, *args = NULL, *value = NULL;
    PyObject *text = PyUnicode_FromFormat("%s: line %zu column %zu (char %zu)", msg, at.line, at.column, at.chars);
    if (text) args = PyTuple_Pack(1, text);
    PyTypeObject *type = (PyTypeObject *)st->JSONDecodeError;
    if (args) exc = type->tp_new(type, args, NULL);
    /* the instance dict is filled directly: doc goes where the doc property keeps it
     * (jj_decode_error_init), as the decoded text or as the bytes to decode when read */
    PyObject *dict = exc ? PyObject_GenericGetDict(exc, NULL) : NULL;
    if (!dict) Py_CLEAR(exc);
    if (exc) {
        const int keys[] = {JJ_KEY_MSG, doc ? JJ_KEY_DOC : JJ_KEY_UTF8, JJ_KEY_POS, JJ_KEY_LINENO, JJ_KEY_COLNO};
        for (int k = 0; k < 5; k++) {
            value = k == 0 ? PyUnicode_FromString(msg)
                  : k == 1 ? Py_NewRef(doc ? doc : utf8)
                  : PyLong_FromSize_t(k == 2 ? at.chars : k == 3 ? at.line : at.column);
            if (!value || PyDict_SetItem(dict, jj_key(st->error_keys, keys[k]), value) < 0) {
                Py_CLEAR(exc);
                break;
            }
            Py_CLEAR(value);
        }
    }
    Py_XDECREF(dict);
    Py_XDECREF(value);
    Py_XDECREF(args);
    Py_XDECREF(text);
    return exc;
}

PyObject *jj_decode_error_new(jj_state *st, const char *msg, PyObject *doc, PyObject *utf8, const uint8_t *buf,
                              size_t offset) {
    return jj_decode_error_at(st, msg, doc, utf8, buf, offset, NULL);
}

/* jetjson.JSONDecodeError.doc: the decoded text, made from the UTF-8 bytes kept by
 * jj_decode_error_new when first read (a large document's error is raised without
 * decoding it). Setting doc (json's __init__ does) stores it as given. Both functions
 * get st->error_keys as their self. */
static PyObject *jj_doc_get(PyObject *keys, PyObject *exc) {
    PyObject *dict = PyObject_GenericGetDict(exc, NULL);
    if (!dict) return NULL;
    PyObject *doc = PyDict_GetItemWithError(dict, jj_key(keys, JJ_KEY_DOC)); /* borrowed */
    if (doc) {
        Py_INCREF(doc);
    } else if (!PyErr_Occurred()) {
        /* bytes, or the read-only buffer a stream read in place (a mapped file: not
         * copied when the error was made) */
        PyObject *utf8 = PyDict_GetItemWithError(dict, jj_key(keys, JJ_KEY_UTF8));
        Py_buffer view;
        if (!utf8 || !PyObject_CheckBuffer(utf8)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_AttributeError, "doc");
        } else if (PyObject_GetBuffer(utf8, &view, PyBUF_SIMPLE) == 0) {
            doc = PyUnicode_DecodeUTF8(view.buf, view.len, "surrogatepass");
            /* a stream's error can come before bytes that are not UTF-8 (json, which
             * decodes first, has no such case): they stand as surrogates, as
             * bytes.decode(errors="surrogateescape") gives them */
            if (!doc && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
                PyErr_Clear();
                doc = PyUnicode_DecodeUTF8(view.buf, view.len, "surrogateescape");
            }
            PyBuffer_Release(&view);
            if (doc && (PyDict_SetItem(dict, jj_key(keys, JJ_KEY_DOC), doc) < 0 ||
                        PyDict_DelItem(dict, jj_key(keys, JJ_KEY_UTF8)) < 0))
                Py_CLEAR(doc);
        }
    }
    Py_DECREF(dict);
    return doc;
}

static PyObject *jj_doc_set(PyObject *keys, PyObject *args) {
    PyObject *exc, *doc;
    if (!PyArg_UnpackTuple(args, "doc", 2, 2, &exc, &doc)) return NULL;
    PyObject *dict = PyObject_GenericGetDict(exc, NULL);
    if (!dict) return NULL;
    int rc = PyDict_SetItem(dict, jj_key(keys, JJ_KEY_DOC), doc);
    if (rc == 0) {
        int had = PyDict_Contains(dict, jj_key(keys, JJ_KEY_UTF8));
        rc = had < 0 ? -1 : had ? PyDict_DelItem(dict, jj_key(keys, JJ_KEY_UTF8)) : 0;
    }
    Py_DECREF(dict);
    return rc < 0 ? NULL : Py_NewRef(Py_None);
}

static PyMethodDef jj_doc_get_def = {"doc", jj_doc_get, METH_O, NULL};
static PyMethodDef jj_doc_set_def = {"doc", jj_doc_set, METH_VARARGS, NULL};

int jj_decode_error_init(jj_state *st, PyObject *type) {
    if (!st->error_keys) { /* kept once complete: a retry after a failure starts afresh */
        PyObject *keys = PyTuple_New(JJ_KEY_COUNT);
        if (!keys) return -1;
        for (int k = 0; k < JJ_KEY_COUNT; k++) {
            PyObject *name = PyUnicode_InternFromString(jj_error_key_names[k]);
            if (!name) {
                Py_DECREF(keys);
                return -1;
            }
            PyTuple_SET_ITEM(keys, k, name);
        }
        st->error_keys = keys;
    }
    PyObject *get = PyCFunction_New(&jj_doc_get_def, st->error_keys);
    PyObject *set = get ? PyCFunction_New(&jj_doc_set_def, st->error_keys) : NULL;
    PyObject *prop = set ? PyObject_CallFunctionObjArgs((PyObject *)&PyProperty_Type, get, set, NULL) : NULL;
    int rc = prop ? PyObject_SetAttrString(type, "doc", prop) : -1;
    Py_XDECREF(prop);
    Py_XDECREF(set);
    Py_XDECREF(get);
    return rc;
}

static void jj_raise_decode_error_at(jj_state *st, const char *msg, PyObject *doc, PyObject *utf8,
                                     const uint8_t *buf, size_t offset, const jj_text_position *origin) {
    PyObject *exc = jj_decode_error_at(st, msg, doc, utf8, buf, offset, origin);
    if (exc) {
        PyErr_SetObject(st->JSONDecodeError, exc);
        Py_DECREF(exc);
    }
}

static void jj_raise_decode_error(jj_state *st, const char *msg, PyObject *doc, PyObject *utf8, const uint8_t *buf,
                                  size_t offset) {
    jj_raise_decode_error_at(st, msg, doc, utf8, buf, offset, NULL);
}

/* The RecursionError json's scanner meets: entering nested calls with its own words
 * until the interpreter refuses, so the text is the running version's. */
static void jj_raise_too_deep(int in_object) {
    const char *where = in_object ? " while decoding a JSON object from a unicode string"
                                  : " while decoding a JSON array from a unicode string";
    size_t entered = 0;
    while (entered < ((size_t)1 << 24) && !Py_EnterRecursiveCall(where)) entered++;
    while (entered--) Py_LeaveRecursiveCall();
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RecursionError, "maximum recursion depth exceeded");
}

/* int(digits) fails the way json's int conversion does (the int digits limit). */
static void jj_raise_int_too_long(const uint8_t *digits, size_t n) {
    char *copy = PyMem_Malloc(n + 1);
    if (!copy) {
        PyErr_NoMemory();
        return;
    }
    memcpy(copy, digits, n);
    copy[n] = '\0';
    PyObject *value = PyLong_FromString(copy, NULL, 10);
    PyMem_Free(copy);
    if (value) { /* the limit changed under us: nothing left to refuse */
        Py_DECREF(value);
        PyErr_SetString(PyExc_ValueError, "Exceeds the limit for integer string conversion");
    }
}

static size_t jj_int_digits_limit(void) {
#if PY_VERSION_HEX >= 0x030B0000
    PyObject *get = PySys_GetObject("get_int_max_str_digits"); /* borrowed */
    PyObject *limit = get ? PyObject_CallNoArgs(get) : NULL;
    Py_ssize_t n = limit ? PyLong_AsSsize_t(limit) : 0;
    Py_XDECREF(limit);
    if (n < 0 || PyErr_Occurred()) {
        PyErr_Clear();
        n = 0;
    }
    return (size_t)n;
#else
    return 0;
#endif
}

/* json's rules where our caller called us; meth_o as for jj_recursion_room. */
static jj_json_rules jj_rules_here(int meth_o) {
    jj_json_rules rules = {
        .trailing_comma_messages = PY_VERSION_HEX >= 0x030D0000,
        .max_depth = jj_recursion_budget(meth_o),
        .max_int_digits = jj_int_digits_limit(),
    };
    return rules;
}

jj_json_rules jj_json_rules_here(int meth_o) { return jj_rules_here(meth_o); }

int jj_raise_verdict(jj_state *st, const jj_json_verdict *v, const uint8_t *buf, size_t base, PyObject *text,
                     PyObject *utf8, const jj_text_position *origin) {
    switch (v->error) {
    case JJ_JSON_ACCEPTED: return 1;
    case JJ_JSON_NOMEM: PyErr_NoMemory(); break;
    case JJ_JSON_TOO_DEEP: jj_raise_too_deep(v->in_object); break;
    case JJ_JSON_INT_TOO_LONG: jj_raise_int_too_long(buf + base + v->offset, v->length); break;
    default: jj_raise_decode_error_at(st, jj_json_message(v->error), text, utf8, buf, base + v->offset, origin); break;
    }
    return -1;
}

int jj_json_would_accept(const uint8_t *buf, size_t len) {
    jj_json_rules rules = jj_rules_here(1); /* for valid, a METH_O entry */
    jj_json_verdict v = jj_json_explain(buf, len, &rules);
    if (v.error == JJ_JSON_NOMEM) {
        PyErr_NoMemory();
        return -1;
    }
    return v.error == JJ_JSON_ACCEPTED;
}

int jj_raise_refusal(jj_state *st, const uint8_t *buf, size_t len, PyObject *text, int from_str, PyObject *raw,
                     jj_error error) {
    if (error == JJ_ERR_NOMEM) {
        PyErr_NoMemory();
        return -1;
    }
    if (error == JJ_ERR_TOO_LARGE) return 1;
    if (error == JJ_ERR_UTF8) { /* json decodes first: its UnicodeDecodeError, word for word */
        PyObject *doc = PyUnicode_DecodeUTF8((const char *)buf, (Py_ssize_t)len, "surrogatepass");
        if (!doc) return -1;
        Py_DECREF(doc); /* (valid after all: the engine's refusal is explained below) */
    }
    if (from_str && text && PyUnicode_GET_LENGTH(text) > 0 && PyUnicode_READ_CHAR(text, 0) == 0xfeff) {
        jj_raise_decode_error(st, "Unexpected UTF-8 BOM (decode using utf-8-sig)", text, NULL, buf, 0);
        return -1;
    }
    /* any other refusal leaves the input valid UTF-8 (stage 1 checked it all): the
     * exception keeps the bytes (the caller's bytes object, else a copy) and decodes
     * its doc when read */
    PyObject *utf8 = text ? NULL : raw ? Py_NewRef(raw) : PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)len);
    if (!text && !utf8) return -1;
    int rc = -1;
    jj_json_rules rules = jj_rules_here(0);
    jj_json_verdict v = jj_json_explain(buf, len, &rules);
    switch (v.error) {
    case JJ_JSON_ACCEPTED: rc = 1; break;
    case JJ_JSON_NOMEM: PyErr_NoMemory(); break;
    case JJ_JSON_TOO_DEEP: jj_raise_too_deep(v.in_object); break;
    case JJ_JSON_INT_TOO_LONG: jj_raise_int_too_long(buf + v.offset, v.length); break;
    default: jj_raise_decode_error(st, jj_json_message(v.error), text, utf8, buf, v.offset); break;
    }
    Py_XDECREF(utf8);
    return rc;
}

PyObject *jj_refused(jj_state *st, const uint8_t *buf, size_t len, PyObject *source, PyObject *text,
                     jj_error error) {
    int from_str = source && PyUnicode_Check(source);
    PyObject *raw = source && PyBytes_Check(source) && !text ? source : NULL;
    int rc = jj_raise_refusal(st, buf, len, text ? text : from_str ? source : NULL, from_str, raw, error);
    if (rc < 0) {
        st->fallback_errors++;
        return NULL;
    }
    /* json takes what the engine did not (4 GiB or more): json builds it */
    PyObject *arg = source ? Py_NewRef(source) : PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)len);
    PyObject *result = arg ? jj_json_loads(st, arg, NULL, 1) : NULL;
    Py_XDECREF(arg);
    return result;
}
