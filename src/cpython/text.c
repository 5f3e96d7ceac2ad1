/* jetjson.valid, minify and indent: the engine's text tools on what loads reads
 * (input.c). No Python object is made for the document; the GIL is released while the
 * engine works, when the input cannot change under it (bytes, str, read-only buffers:
 * a bytearray could be written by another thread between the passes). */
#include "state.h"

/* Below this, giving the GIL away and taking it back costs more than the work. */
#define JJ_UNLOCK_MIN_BYTES 16384

/* Runs the statements with the GIL released when `unlock` is true. */
#define JJ_ENGINE(unlock, ...)                                                          \
    do {                                                                                \
        if (unlock) {                                                                   \
            Py_BEGIN_ALLOW_THREADS __VA_ARGS__;                                         \
            Py_END_ALLOW_THREADS                                                        \
        } else {                                                                        \
            __VA_ARGS__;                                                                \
        }                                                                               \
    } while (0)

/* json accepts int text of up to sys.get_int_max_str_digits() digits, never less than
 * 640 (or no limit at all): longer ints are json's to judge. */
#define JJ_INT_DIGITS_ALWAYS_OK 640

static int jj_may_unlock(const jj_input *in) {
    return in->len >= JJ_UNLOCK_MIN_BYTES && !(in->has_view && !in->view.readonly);
}

/* For bytes that json may decode as UTF-16/32 or with a BOM: the str json.loads would
 * parse, data.decode(json.detect_encoding(data), 'surrogatepass'). *decoded stays NULL
 * when json reads them as plain UTF-8 after all. 0, or -1 with an exception. */
static int jj_json_decoded(PyObject *data, PyObject **decoded) {
    PyObject *detect = NULL, *encoding = NULL;
    PyObject *bytes = PyBytes_FromObject(data);
    PyObject *json = bytes ? PyImport_ImportModule("json") : NULL;
    *decoded = NULL;
    if (json) detect = PyObject_GetAttrString(json, "detect_encoding");
    if (detect) encoding = PyObject_CallOneArg(detect, bytes);
    const char *name = encoding && PyUnicode_Check(encoding) ? PyUnicode_AsUTF8(encoding) : NULL;
    if (encoding && !PyUnicode_Check(encoding)) PyErr_SetString(PyExc_TypeError, "json.detect_encoding gave no str");
    if (name && strcmp(name, "utf-8") != 0) *decoded = PyUnicode_FromEncodedObject(bytes, name, "surrogatepass");
    int ok = name && (*decoded || strcmp(name, "utf-8") == 0);
    Py_XDECREF(encoding);
    Py_XDECREF(detect);
    Py_XDECREF(json);
    Py_XDECREF(bytes);
    return ok ? 0 : -1;
}

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
    jj_input in;
    int opened = JJ_INPUT_UNSUPPORTED;
    jj_thread_parser *tp = jj_thread_parser_get();
    if (!tp) {
        PyErr_NoMemory();
        goto done;
    }
    opened = jj_input_open(data, tp, &in);
    if (opened == JJ_INPUT_UNSUPPORTED || (opened == 0 && in.needs_json)) {
        result = jj_valid_by_json(st, data); /* json's TypeError, or its decoding */
        goto done;
    }
    if (opened < 0) goto done;
    jj_error err;
    jj_valid_facts facts;
    JJ_ENGINE(jj_may_unlock(&in), err = jj_validate(&tp->parser, in.buf, in.len, &facts));
    if (err == JJ_OK) {
        /* what json refuses beyond the grammar: too deep for its recursion, too long ints */
        int json_decides = !jj_recursion_room(facts.max_depth, 1) || facts.max_int_digits > JJ_INT_DIGITS_ALWAYS_OK;
        result = json_decides ? jj_valid_by_json(st, data) : Py_NewRef(Py_True);
    } else if (err == JJ_ERR_NOMEM) {
        PyErr_NoMemory();
    } else if (err == JJ_ERR_TOO_LARGE) {
        result = jj_valid_by_json(st, data);
    } else {
        result = Py_NewRef(Py_False);
    }
done:
    if (opened == 0) jj_input_close(&in);
    if (tp) jj_thread_parser_trim(tp);
    return result;
}

/* ---- minify ---- */

/* json's error for a string that never ends: msg, the document as a str, and the
 * position of the opening quote in characters. */
static void jj_raise_unterminated(jj_state *st, const jj_input *in, PyObject *data, size_t off) {
    PyObject *doc = PyUnicode_Check(data) ? Py_NewRef(data)
                                          : PyUnicode_DecodeUTF8((const char *)in->buf, (Py_ssize_t)in->len,
                                                                 "surrogatepass");
    if (!doc) return; /* invalid UTF-8: json.loads would say so too (UnicodeDecodeError) */
    Py_ssize_t chars = 0;
    for (size_t i = 0; i < off; i++) chars += (in->buf[i] & 0xc0) != 0x80;
    PyObject *exc = PyObject_CallFunction(st->JSONDecodeError, "sOn", "Unterminated string starting at", doc, chars);
    if (exc) {
        PyErr_SetObject(st->JSONDecodeError, exc);
        Py_DECREF(exc);
    }
    Py_DECREF(doc);
}

static PyObject *jj_minify_input(jj_state *st, const jj_input *in, PyObject *data) {
    /* sized to the input, shrunk to what is kept (an empty input gets the shared b"") */
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)in->len);
    if (out && in->len > 0) {
        size_t out_len = 0, err_off = 0;
        jj_error err;
        JJ_ENGINE(jj_may_unlock(in),
                  err = jj_minify(in->buf, in->len, (uint8_t *)PyBytes_AS_STRING(out), &out_len, &err_off));
        if (err != JJ_OK) {
            Py_CLEAR(out);
            jj_raise_unterminated(st, in, data, err_off);
        } else if (out_len != in->len && _PyBytes_Resize(&out, (Py_ssize_t)out_len) < 0) {
            out = NULL; /* the resize freed it */
        }
    }
    return out;
}

/* The tools' common frame: the input opened as loads opens it (bytes that json would
 * decode as UTF-16/32 or with a BOM are decoded to a str first), `fn` run on it. */
typedef PyObject *(*jj_text_fn)(jj_state *st, jj_thread_parser *tp, const jj_input *in, PyObject *data,
                                const void *extra);

static PyObject *jj_run_text_tool(PyObject *module, PyObject *data, jj_text_fn fn, const void *extra) {
    jj_state *st = PyModule_GetState(module);
    PyObject *result = NULL, *decoded = NULL;
    jj_input in;
    int opened = JJ_INPUT_UNSUPPORTED;
    jj_thread_parser *tp = jj_thread_parser_get();
    if (!tp) {
        PyErr_NoMemory();
        goto done;
    }
    opened = jj_input_open(data, tp, &in);
    if (opened == 0 && in.needs_json) {
        if (jj_json_decoded(data, &decoded) < 0) goto done;
        if (decoded) {
            jj_input_close(&in);
            opened = jj_input_open(decoded, tp, &in);
            data = decoded;
        }
    }
    if (opened == JJ_INPUT_UNSUPPORTED) {
        /* json.loads words the TypeError of a wrong type */
        PyObject *value = jj_json_loads(st, data, NULL, 0);
        if (value) {
            PyErr_Format(PyExc_TypeError, "the JSON object must be str, bytes or bytearray, not %.100s",
                         Py_TYPE(data)->tp_name);
            Py_DECREF(value);
        }
        goto done;
    }
    if (opened < 0) goto done;
    result = fn(st, tp, &in, data, extra);
done:
    if (opened == 0) jj_input_close(&in);
    if (tp) jj_thread_parser_trim(tp);
    Py_XDECREF(decoded);
    return result;
}

static PyObject *jj_minify_tool(jj_state *st, jj_thread_parser *tp, const jj_input *in, PyObject *data,
                                const void *extra) {
    (void)tp;
    (void)extra;
    return jj_minify_input(st, in, data);
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

static PyObject *jj_indent_tool(jj_state *st, jj_thread_parser *tp, const jj_input *in, PyObject *data,
                                const void *extra) {
    const jj_indent_args *a = extra;
    const uint8_t *unit = (const uint8_t *)PyBytes_AS_STRING(a->unit);
    size_t unit_len = (size_t)PyBytes_GET_SIZE(a->unit);
    int unlock = jj_may_unlock(in);
    jj_error err;
    jj_valid_facts facts; /* indent has no depth or int limit: only the depth bounds the size */
    size_t cap = 0, size = 0;
    PyObject *out = NULL;
    JJ_ENGINE(unlock, err = jj_validate(&tp->parser, in->buf, in->len, &facts); if (err == JJ_OK) {
        cap = jj_indent_bound(&tp->parser, in->len, unit_len, facts.max_depth);
        if (cap / JJ_INDENT_OVERALLOC > in->len + 512) cap = jj_indent_size(&tp->parser, in->buf, in->len, unit_len);
    });
    if (err == JJ_ERR_NOMEM || (err == JJ_OK && cap > (size_t)PY_SSIZE_T_MAX - JJ_INDENT_SLACK)) {
        PyErr_NoMemory();
    } else if (err != JJ_OK) {
        out = jj_indent_by_json(st, data, a->indent);
    } else {
        out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(cap + JJ_INDENT_SLACK));
        if (out) {
            JJ_ENGINE(unlock, size = jj_indent_write(&tp->parser, in->buf, in->len, unit, unit_len,
                                                     (uint8_t *)PyBytes_AS_STRING(out)));
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
