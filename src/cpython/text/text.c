/* jetjson.valid, minify and indent: the engine's text tools on what loads reads
 * (input.c). No Python object is made for the document; the GIL is released while the
 * engine works, when the input cannot change under it (bytes, str, read-only buffers:
 * a bytearray could be written by another thread between the passes). */
#include "request.h"

/* json accepts int text of up to sys.get_int_max_str_digits() digits, never less than
 * 640 (or no limit at all): longer ints are json's to judge. */
#define JJ_INT_DIGITS_ALWAYS_OK 640

/* ---- valid ---- */

/* json.loads itself decides: True, False for the errors that mean "not a document it
 * takes" (ValueError and its subclasses JSONDecodeError and UnicodeDecodeError,
 * RecursionError), or NULL for anything else (TypeError, MemoryError). */
static PyObject *jj_valid_by_json(jj_state *st, PyObject *data) {
    PyObject *value = jj_json_loads(st, data, NULL, 0);
    PyObject *result = NULL;
    if (value) {
        result = Py_NewRef(Py_True);
        Py_DECREF(value);
    } else if (PyErr_ExceptionMatches(PyExc_ValueError) || PyErr_ExceptionMatches(PyExc_RecursionError)) {
        PyErr_Clear();
        result = Py_NewRef(Py_False);
    }
    return result;
}

PyObject *jj_text_valid(PyObject *module, PyObject *data) {
    jj_state *st = PyModule_GetState(module);
    PyObject *result = NULL;
    jj_request r = {0};
    int opened = jj_request_open(&r, st, data);
    if (opened == JJ_INPUT_UNSUPPORTED) {
        result = jj_valid_by_json(st, data); /* json words the TypeError */
    } else if (opened < 0) {
        /* bytes json cannot decode: its UnicodeDecodeError is a ValueError, so False */
        if (PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();
            result = Py_NewRef(Py_False);
        }
    } else {
        jj_valid_facts facts;
        jj_error err = jj_request_validate(&r, &facts);
        if (err == JJ_OK) {
            /* what json refuses beyond the grammar: too deep for its recursion, too long ints */
            int json_decides = !jj_recursion_room(facts.max_depth, 1) || facts.max_int_digits > JJ_INT_DIGITS_ALWAYS_OK;
            int accepted = json_decides ? jj_json_would_accept(r.in.buf, r.in.len) : 1;
            if (accepted >= 0) result = Py_NewRef(accepted ? Py_True : Py_False);
        } else if (err == JJ_ERR_NOMEM) {
            PyErr_NoMemory();
        } else if (err == JJ_ERR_TOO_LARGE) {
            result = jj_valid_by_json(st, r.text ? r.text : data);
        } else {
            result = Py_NewRef(Py_False);
        }
    }
    jj_request_close(&r);
    return result;
}

/* ---- minify ---- */

/* json's error for a string that never ends, at its opening quote. */
static void jj_raise_unterminated(jj_request *r, size_t quote) {
    PyObject *doc = r->text ? Py_NewRef(r->text)
                            : PyUnicode_DecodeUTF8((const char *)r->in.buf, (Py_ssize_t)r->in.len, "surrogatepass");
    if (!doc) return; /* invalid UTF-8: json.loads would say so too (UnicodeDecodeError) */
    PyObject *exc = jj_decode_error_new(r->st, "Unterminated string starting at", doc, NULL, r->in.buf, quote);
    if (exc) {
        PyErr_SetObject(r->st->JSONDecodeError, exc);
        Py_DECREF(exc);
    }
    Py_DECREF(doc);
}

static PyObject *jj_minify_tool(jj_request *r, const void *extra) {
    (void)extra;
    /* sized to the input, shrunk to what is kept (an empty input gets the shared b"") */
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)r->in.len);
    if (out && r->in.len > 0) {
        size_t out_len = 0, err_off = 0;
        PyThreadState *saved = jj_request_unlock(r);
        jj_error err = jj_minify(r->in.buf, r->in.len, (uint8_t *)PyBytes_AS_STRING(out), &out_len, &err_off);
        jj_request_relock(saved);
        if (err != JJ_OK) {
            Py_CLEAR(out);
            jj_raise_unterminated(r, err_off);
        } else if (out_len != r->in.len && _PyBytes_Resize(&out, (Py_ssize_t)out_len) < 0) {
            out = NULL; /* the resize freed it */
        }
    }
    return out;
}

/* The tools' common frame: the input opened by the request frame, `fn` run on it. */
typedef PyObject *(*jj_text_fn)(jj_request *r, const void *extra);

static PyObject *jj_run_text_tool(PyObject *module, PyObject *data, jj_text_fn fn, const void *extra) {
    jj_state *st = PyModule_GetState(module);
    PyObject *result = NULL;
    jj_request r = {0};
    int opened = jj_request_open(&r, st, data);
    if (opened == JJ_INPUT_UNSUPPORTED) {
        /* json.loads words the TypeError of a wrong type */
        PyObject *value = jj_request_foreign(&r);
        if (value) {
            PyErr_Format(PyExc_TypeError, "the JSON object must be str, bytes or bytearray, not %.100s",
                         Py_TYPE(data)->tp_name);
            Py_DECREF(value);
        }
    } else if (opened == 0) {
        result = fn(&r, extra);
    }
    jj_request_close(&r);
    return result;
}

PyObject *jj_text_minify(PyObject *module, PyObject *data) {
    return jj_run_text_tool(module, data, jj_minify_tool, NULL);
}

/* ---- indent ---- */

/* The indentation unit as bytes: `indent` spaces for an int (none when negative, as
 * json does), the UTF-8 of a str. */
static PyObject *jj_indent_unit(PyObject *indent) {
    PyObject *unit = NULL;
    if (!indent) {
        unit = PyBytes_FromStringAndSize("  ", 2);
    } else if (PyLong_Check(indent)) {
        Py_ssize_t n = PyLong_AsSsize_t(indent);
        if (n != -1 || !PyErr_Occurred()) unit = PyBytes_FromStringAndSize(NULL, n < 0 ? 0 : n);
        if (unit) memset(PyBytes_AS_STRING(unit), ' ', (size_t)PyBytes_GET_SIZE(unit));
    } else if (PyUnicode_Check(indent)) {
        unit = PyUnicode_AsEncodedString(indent, "utf-8", "surrogatepass");
    } else {
        PyErr_Format(PyExc_TypeError, "indent must be an int or a str, not %.100s", Py_TYPE(indent)->tp_name);
    }
    return unit;
}

/* When the engine refuses the input: json.loads raises its exact error, and should
 * json accept what the engine did not (an input of 4 GiB or more), json writes it. */
static PyObject *jj_indent_by_json(jj_state *st, PyObject *data, PyObject *indent) {
    PyObject *result = NULL, *json = NULL, *dumps = NULL, *kwargs = NULL, *text = NULL, *args = NULL;
    PyObject *value = jj_json_loads(st, data, NULL, 0);
    if (!value) goto done;
    json = PyImport_ImportModule("json");
    if (json) dumps = PyObject_GetAttrString(json, "dumps");
    if (dumps) kwargs = Py_BuildValue("{s:O,s:O}", "indent", indent, "ensure_ascii", Py_False);
    if (kwargs) args = PyTuple_Pack(1, value);
    if (args) text = PyObject_Call(dumps, args, kwargs);
    if (text) result = PyUnicode_AsEncodedString(text, "utf-8", "surrogatepass");
done:
    Py_XDECREF(text);
    Py_XDECREF(args);
    Py_XDECREF(kwargs);
    Py_XDECREF(dumps);
    Py_XDECREF(json);
    Py_XDECREF(value);
    return result;
}

typedef struct jj_indent_args {
    PyObject *indent; /* as given, 2 by default (json's fallback takes it) */
    PyObject *unit;   /* bytes */
} jj_indent_args;

/* Up to this many times the input (plus a little), the result is allocated from
 * jj_indent_bound and shrunk after writing: pages never written cost nothing, and the
 * shrink is in place. Beyond it (deep documents), a walk sizes it exactly. */
#define JJ_INDENT_OVERALLOC 8

static PyObject *jj_indent_tool(jj_request *r, const void *extra) {
    const jj_indent_args *a = extra;
    const uint8_t *unit = (const uint8_t *)PyBytes_AS_STRING(a->unit);
    size_t unit_len = (size_t)PyBytes_GET_SIZE(a->unit);
    const uint8_t *in = r->in.buf;
    size_t len = r->in.len, cap = 0, size = 0;
    jj_valid_facts facts; /* indent has no depth or int limit: only the depth bounds the size */
    PyObject *out = NULL;
    PyThreadState *saved = jj_request_unlock(r);
    jj_error err = jj_validate(r->parser, in, len, &facts);
    if (err == JJ_OK) {
        cap = jj_indent_bound(r->parser, len, unit_len, facts.max_depth);
        if (cap / JJ_INDENT_OVERALLOC > len + 512) cap = jj_indent_size(r->parser, in, len, unit_len);
    }
    jj_request_relock(saved);
    if (err == JJ_ERR_NOMEM || (err == JJ_OK && cap > (size_t)PY_SSIZE_T_MAX - JJ_INDENT_SLACK)) {
        PyErr_NoMemory();
    } else if (err != JJ_OK) {
        if (jj_request_raise(r, err) > 0) out = jj_indent_by_json(r->st, r->text ? r->text : r->source, a->indent);
    } else {
        out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(cap + JJ_INDENT_SLACK));
        if (out) {
            saved = jj_request_unlock(r);
            size = jj_indent_write(r->parser, in, len, unit, unit_len, (uint8_t *)PyBytes_AS_STRING(out));
            jj_request_relock(saved);
            if (_PyBytes_Resize(&out, (Py_ssize_t)size) < 0) out = NULL; /* drop what was not used */
        }
    }
    return out;
}

PyObject *jj_text_indent(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    PyObject *result = NULL, *given = NULL;
    jj_indent_args a = {NULL, NULL};
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs < 1 || nargs > 2) {
        PyErr_Format(PyExc_TypeError, "indent() takes 1 or 2 positional arguments (%zd given)", nargs);
        goto done;
    }
    if (nargs == 2) given = args[1];
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        if (PyUnicode_CompareWithASCIIString(name, "indent") != 0 || given) {
            PyErr_Format(PyExc_TypeError, "indent() got an unexpected or repeated keyword argument '%U'", name);
            goto done;
        }
        given = args[nargs + i];
    }
    a.unit = jj_indent_unit(given);
    a.indent = given ? Py_NewRef(given) : PyLong_FromLong(2);
    if (a.unit && a.indent) result = jj_run_text_tool(module, args[0], jj_indent_tool, &a);
done:
    Py_XDECREF(a.unit);
    Py_XDECREF(a.indent);
    return result;
}
