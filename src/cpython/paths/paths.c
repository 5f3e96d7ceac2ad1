/* jetjson.get / get_many: the values at JSON Pointers, building nothing else; and
 * set_path / delete_path: byte-range edits that copy the rest of the document as is.
 *
 * The document is always parsed whole (so it is validated exactly as loads validates
 * it, and invalid input raises json's own exception), then the pointer is followed on
 * the tape (pointer.c) or on the stage-1 index (edit.c). */
#include "jetjson_paths.h"
#include "request.h"

/* ---- pointers ---- */

/* A pointer argument as UTF-8 (lone surrogates in their 3-byte form, as documents
 * hold them), checked for syntax. */
typedef struct jj_ptr_arg {
    PyObject *str;   /* borrowed */
    PyObject *owner; /* the UTF-8 bytes when the str could not give its own */
    const char *s;
    size_t len;
} jj_ptr_arg;

/* Raises ValueError for a pointer that failed jj_pointer_check at bad_at. */
static void jj_raise_syntax(PyObject *str, const char *s, size_t bad_at) {
    if (s[bad_at] != '~')
        PyErr_Format(PyExc_ValueError, "invalid JSON pointer %R: must be empty or start with '/'", str);
    else
        PyErr_Format(PyExc_ValueError, "invalid JSON pointer %R: '~' must be followed by '0' or '1' (at byte %zu)",
                     str, bad_at);
}

static int jj_ptr_open(PyObject *obj, jj_ptr_arg *out) {
    out->str = obj;
    out->owner = NULL;
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "a JSON pointer must be str, not %.200s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(obj, &n);
    if (!s) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return -1;
        PyErr_Clear();
        out->owner = PyUnicode_AsEncodedString(obj, "utf-8", "surrogatepass");
        if (!out->owner) return -1;
        s = PyBytes_AS_STRING(out->owner);
        n = PyBytes_GET_SIZE(out->owner);
    }
    out->s = s;
    out->len = (size_t)n;
    size_t bad_at = 0;
    if (jj_pointer_check(s, out->len, &bad_at) != JJ_PTR_OK) {
        jj_raise_syntax(obj, s, bad_at);
        Py_CLEAR(out->owner);
        return -1;
    }
    return 0;
}

static void jj_ptr_close(jj_ptr_arg *a) { Py_CLEAR(a->owner); }

/* A piece of the pointer's UTF-8 as str (NULL with an exception). */
static PyObject *jj_ptr_piece(const char *s, size_t len) {
    return PyUnicode_DecodeUTF8(s, (Py_ssize_t)len, "surrogatepass");
}

/* Raises the error for a pointer that could not be followed: KeyError (no such key),
 * IndexError (not an index, or out of range), TypeError (a token applied to a scalar).
 * The message names the pointer, the token and the parent it was applied to. */
static void jj_raise_not_found(const jj_ptr_arg *a, jj_pointer_status st, size_t failed_at) {
    size_t slash = failed_at;
    while (slash > 0 && a->s[slash - 1] != '/') slash--;
    /* a valid pointer starts with '/': a->s[slash - 1] opens the failed token */
    size_t tok_at = slash, parent_len = slash ? slash - 1 : 0;
    jj_pointer_token tok = {a->s + tok_at, failed_at - tok_at, false};
    tok.escaped = memchr(tok.text, '~', tok.len) != NULL;
    PyObject *parent = jj_ptr_piece(a->s, parent_len);
    PyObject *token = NULL;
    char small[256];
    char *raw = tok.len <= sizeof small ? small : PyMem_Malloc(tok.len);
    if (raw) token = jj_ptr_piece(raw, jj_pointer_token_unescape(&tok, (uint8_t *)raw));
    else PyErr_NoMemory();
    if (raw && raw != small) PyMem_Free(raw);
    if (parent && token) {
        switch (st) {
        case JJ_PTR_NO_KEY:
            PyErr_Format(PyExc_KeyError, "JSON pointer %R: the object at %R has no key %R", a->str, parent, token);
            break;
        case JJ_PTR_BAD_INDEX:
            PyErr_Format(PyExc_IndexError, "JSON pointer %R: %R is not an index of the array at %R", a->str, token,
                         parent);
            break;
        case JJ_PTR_OUT_OF_RANGE:
            PyErr_Format(PyExc_IndexError, "JSON pointer %R: index %U is out of range for the array at %R", a->str,
                         token, parent);
            break;
        default:
            PyErr_Format(PyExc_TypeError, "JSON pointer %R: the value at %R is not an object or an array", a->str,
                         parent);
            break;
        }
    }
    Py_XDECREF(parent);
    Py_XDECREF(token);
}

/* ---- documents ---- */

/* Raises what json.loads raises for data (the engine refused it and json took it). */
static void jj_raise_like_json(jj_state *st, PyObject *data, int count) {
    PyObject *value = jj_json_loads(st, data, NULL, count);
    if (value) {
        Py_DECREF(value);
        PyErr_SetString(PyExc_RuntimeError, "jetjson refused a document that json accepts (please report)");
    }
}

/* Opens data as loads reads it. 0, or -1 with an exception. */
static int jj_doc_open(jj_state *st, PyObject *data, jj_request *d) {
    int rc = jj_request_open(d, st, data);
    if (rc == JJ_INPUT_UNSUPPORTED) jj_raise_like_json(st, data, 0); /* json words the TypeError */
    return rc == 0 ? 0 : -1;
}

/* Parses an opened document. 0, or -1 with an exception (json's for invalid input). */
static int jj_doc_parse_opened(jj_request *d) {
    jj_error err = jj_request_parse(d);
    if (err == JJ_OK) return 0;
    if (jj_request_raise(d, err) > 0) jj_raise_like_json(d->st, d->text ? d->text : d->source, 1);
    return -1;
}

static int jj_doc_parse(jj_state *st, PyObject *data, jj_request *d) {
    return jj_doc_open(st, data, d) < 0 ? -1 : jj_doc_parse_opened(d);
}

/* The value at tape index t of the parse of `input` (the caller has paused the GC). */
static PyObject *jj_doc_value(jj_state *st, const jj_request *d, const uint8_t *input, size_t t) {
    return jj_build_value_at(st, jj_parser_result(d->tp->parser), input, t);
}

/* ---- get / get_many ---- */

/* The keywords of get and get_many: `default` (NULL when not given) and `validate`.
 * 0, or -1 with an exception. */
static int jj_lookup_kw(const char *fn, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                        PyObject **dflt, int *validate) {
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    int seen_validate = 0;
    *validate = 1;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        if (PyUnicode_CompareWithASCIIString(name, "default") == 0 && !*dflt) {
            *dflt = args[nargs + i];
        } else if (PyUnicode_CompareWithASCIIString(name, "validate") == 0 && !seen_validate) {
            seen_validate = 1;
            *validate = PyObject_IsTrue(args[nargs + i]);
            if (*validate < 0) return -1;
        } else {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected or repeated keyword argument %R", fn, name);
            return -1;
        }
    }
    return 0;
}

/* After a failed lookup: `dflt` (new reference) when given, else NULL with the error. */
static PyObject *jj_missing(const jj_ptr_arg *a, int status, size_t failed_at, PyObject *dflt) {
    if (dflt) return Py_NewRef(dflt);
    jj_raise_not_found(a, (jj_pointer_status)status, failed_at);
    return NULL;
}

/* The values at n pointers of a parsed document, as a new list. */
static PyObject *jj_lookup_parsed(jj_state *st, const jj_request *d, const jj_ptr_arg *ptrs, Py_ssize_t n,
                                  PyObject *dflt) {
    PyObject *result = PyList_New(n);
    for (Py_ssize_t i = 0; result && i < n; i++) {
        size_t found = 0, failed_at = 0;
        jj_pointer_status ps =
            jj_pointer_resolve(d->tp->parser, d->in.buf, 0, ptrs[i].s, ptrs[i].len, &found, &failed_at);
        PyObject *value = ps == JJ_PTR_OK ? jj_doc_value(st, d, d->in.buf, found)
                                          : jj_missing(&ptrs[i], ps, failed_at, dflt);
        if (value) PyList_SET_ITEM(result, i, value);
        else Py_CLEAR(result);
    }
    return result;
}

/* Where a pointer led in a document not validated: a status, and a byte span. */
typedef struct jj_span {
    int status;
    size_t start, end, failed_at;
} jj_span;

/* validate=False: stage 1 only, each pointer followed on its index, then only the bytes
 * of each value found are parsed. Sets *to_parse (returning NULL, no exception) when
 * the input turns out malformed, so that the validating path gives json's error. */
static PyObject *jj_lookup_trusted(jj_state *st, const jj_request *d, const jj_ptr_arg *ptrs, Py_ssize_t n,
                                   PyObject *dflt, int *to_parse) {
    jj_parser *p = d->tp->parser;
    PyObject *result = NULL;
    *to_parse = 0;
    jj_span *spans = PyMem_Calloc(n ? (size_t)n : 1, sizeof *spans);
    if (!spans) return PyErr_NoMemory();
    *to_parse = 1;
    jj_error err = jj_skim_index(p, d->in.buf, d->in.len);
    if (err == JJ_ERR_NOMEM) {
        *to_parse = 0;
        PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; err == JJ_OK && i < n; i++) {
        jj_span *sp = &spans[i];
        sp->status = jj_skim_locate(p, d->in.buf, d->in.len, ptrs[i].s, ptrs[i].len, &sp->start, &sp->end,
                                    &sp->failed_at);
        if (sp->status == JJ_SKIM_MALFORMED) err = JJ_ERR_VALUE;
    }
    if (err == JJ_OK) {
        *to_parse = 0;
        result = PyList_New(n);
    }
    /* each value's parse takes over the parser: the spans were all found first */
    for (Py_ssize_t i = 0; result && i < n; i++) {
        const jj_span *sp = &spans[i];
        PyObject *value;
        if (sp->status != JJ_PTR_OK) {
            value = jj_missing(&ptrs[i], sp->status, sp->failed_at, dflt);
        } else if (jj_parse(p, d->in.buf + sp->start, sp->end - sp->start) == JJ_OK) {
            value = jj_doc_value(st, d, d->in.buf + sp->start, 0);
        } else {
            if (jj_parser_error(p, NULL) == JJ_ERR_NOMEM) PyErr_NoMemory();
            else *to_parse = 1;
            value = NULL;
        }
        if (value) PyList_SET_ITEM(result, i, value);
        else Py_CLEAR(result);
    }
    PyMem_Free(spans);
    return result;
}

/* The list of values at n pointers of data. */
static PyObject *jj_lookup(jj_state *st, PyObject *data, const jj_ptr_arg *ptrs, Py_ssize_t n, PyObject *dflt,
                           int validate) {
    jj_request d = {0};
    PyObject *result = NULL;
    int to_parse = 1;
    /* Results and errors are allocated between the parse and the last read of its tape;
     * a collection there could run a finalizer that parses on this thread's parser. */
    int gc_was_enabled = PyGC_Disable();
    if (jj_doc_open(st, data, &d) < 0) goto done;
    if (!validate) result = jj_lookup_trusted(st, &d, ptrs, n, dflt, &to_parse);
    if (to_parse && jj_doc_parse_opened(&d) == 0) result = jj_lookup_parsed(st, &d, ptrs, n, dflt);
done:
    jj_request_close(&d);
    if (gc_was_enabled) PyGC_Enable();
    return result;
}

PyObject *jj_get(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    jj_state *st = PyModule_GetState(module);
    PyObject *dflt = NULL, *result = NULL, *list = NULL;
    jj_ptr_arg a = {NULL, NULL, NULL, 0};
    int validate = 1;
    if (nargs < 2 || nargs > 3) {
        PyErr_Format(PyExc_TypeError, "get() takes 2 or 3 positional arguments (%zd given)", nargs);
        goto done;
    }
    if (nargs == 3) dflt = args[2];
    if (jj_lookup_kw("get", args, nargs, kwnames, &dflt, &validate) < 0) goto done;
    if (jj_ptr_open(args[1], &a) < 0) goto done;
    list = jj_lookup(st, args[0], &a, 1, dflt, validate);
    if (list) result = Py_NewRef(PyList_GET_ITEM(list, 0));
done:
    Py_XDECREF(list);
    jj_ptr_close(&a);
    return result;
}

PyObject *jj_get_many(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    jj_state *st = PyModule_GetState(module);
    PyObject *dflt = NULL, *result = NULL, *seq = NULL;
    jj_ptr_arg *ptrs = NULL;
    Py_ssize_t n = 0, opened = 0;
    int validate = 1;
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "get_many() takes 2 positional arguments (%zd given)", nargs);
        goto done;
    }
    if (jj_lookup_kw("get_many", args, nargs, kwnames, &dflt, &validate) < 0) goto done;
    if (PyUnicode_Check(args[1])) { /* a str is iterable, but surely not meant here */
        PyErr_SetString(PyExc_TypeError, "get_many() takes an iterable of JSON pointers, not a str");
        goto done;
    }
    seq = PySequence_Fast(args[1], "get_many() takes an iterable of JSON pointers");
    if (!seq) goto done;
    n = PySequence_Fast_GET_SIZE(seq);
    ptrs = PyMem_Calloc(n ? (size_t)n : 1, sizeof *ptrs);
    if (!ptrs) {
        PyErr_NoMemory();
        goto done;
    }
    for (; opened < n; opened++) {
        if (jj_ptr_open(PySequence_Fast_GET_ITEM(seq, opened), &ptrs[opened]) < 0) goto done;
    }
    result = jj_lookup(st, args[0], ptrs, n, dflt, validate);
done:
    for (Py_ssize_t i = 0; i < opened; i++) jj_ptr_close(&ptrs[i]);
    PyMem_Free(ptrs);
    Py_XDECREF(seq);
    return result;
}

/* ---- set_path / delete_path ---- */

/* The UTF-8 text of a replacement value (str or bytes-like), as a new bytes object,
 * validated (json's exception when invalid) with surrounding whitespace noted. */
static PyObject *jj_value_text(jj_state *st, jj_thread_parser *tp, PyObject *value, size_t *lead, size_t *len) {
    PyObject *bytes = NULL;
    if (PyUnicode_Check(value)) {
        bytes = PyUnicode_AsEncodedString(value, "utf-8", "surrogatepass");
    } else if (PyBytes_Check(value) || PyByteArray_Check(value) || PyMemoryView_Check(value)) {
        bytes = PyBytes_FromObject(value);
        const uint8_t *b = bytes ? (const uint8_t *)PyBytes_AS_STRING(bytes) : NULL;
        if (b && jj_bytes_need_json(b, (size_t)PyBytes_GET_SIZE(bytes))) {
            PyObject *text = jj_decode_like_json(b, (size_t)PyBytes_GET_SIZE(bytes));
            Py_SETREF(bytes, text ? PyUnicode_AsEncodedString(text, "utf-8", "surrogatepass") : NULL);
            Py_XDECREF(text);
        }
    } else {
        jj_raise_like_json(st, value, 0);
        return NULL;
    }
    if (!bytes) return NULL;
    const uint8_t *b = (const uint8_t *)PyBytes_AS_STRING(bytes);
    size_t n = (size_t)PyBytes_GET_SIZE(bytes);
    if (jj_parse(tp->parser, b, n) != JJ_OK) {
        if (jj_raise_refusal(st, b, n, PyUnicode_Check(value) ? value : NULL, PyUnicode_Check(value), bytes,
                             jj_parser_error(tp->parser, NULL)) > 0)
            jj_raise_like_json(st, value, 1);
        Py_DECREF(bytes);
        return NULL;
    }
    /* the value is valid, so it holds a token: trimming stops at it */
    size_t s = 0, e = n;
    while (b[s] == ' ' || b[s] == '\t' || b[s] == '\n' || b[s] == '\r') s++;
    while (b[e - 1] == ' ' || b[e - 1] == '\t' || b[e - 1] == '\n' || b[e - 1] == '\r') e--;
    *lead = s;
    *len = e - s;
    return bytes;
}

/* Locates the pointer for an edit; raises for targets that do not exist (a NEW_*
 * target counts as missing unless `adding`). */
static int jj_edit_target_of(const jj_request *d, const jj_ptr_arg *a, int adding, jj_edit_target *e) {
    size_t failed_at = 0;
    jj_pointer_status ps = jj_edit_locate(d->tp->parser, d->in.buf, d->in.len, a->s, a->len, e, &failed_at);
    if (ps == JJ_PTR_OK && (adding || e->kind == JJ_EDIT_VALUE)) return 0;
    if (ps == JJ_PTR_OK) { /* delete of a missing last token */
        failed_at = a->len;
        ps = e->kind == JJ_EDIT_NEW_MEMBER ? JJ_PTR_NO_KEY
             : a->s[a->len - 1] == '-' && a->s[a->len - 2] == '/' ? JJ_PTR_BAD_INDEX
                                                                  : JJ_PTR_OUT_OF_RANGE;
    }
    jj_raise_not_found(a, ps, failed_at);
    return -1;
}

PyObject *jj_set_path(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    jj_state *st = PyModule_GetState(module);
    PyObject *result = NULL, *text = NULL;
    jj_ptr_arg a = {NULL, NULL, NULL, 0};
    jj_request d = {0};
    uint8_t *key = NULL;
    size_t lead = 0, vlen = 0, klen = 0;
    jj_edit_target e;
    if (nargs != 3) {
        PyErr_Format(PyExc_TypeError, "set_path() takes 3 positional arguments (%zd given)", nargs);
        goto done;
    }
    if (jj_ptr_open(args[1], &a) < 0) goto done;
    jj_thread_parser *tp = jj_thread_parser_get();
    if (!tp) {
        PyErr_NoMemory();
        goto done;
    }
    /* the value first: its parse is done with before the document's takes the parser */
    text = jj_value_text(st, tp, args[2], &lead, &vlen);
    if (!text || jj_doc_parse(st, args[0], &d) < 0 || jj_edit_target_of(&d, &a, 1, &e) < 0) goto done;
    if (e.kind == JJ_EDIT_NEW_MEMBER) {
        key = PyMem_Malloc(jj_edit_key_bound(e.token.len));
        if (!key) {
            PyErr_NoMemory();
            goto done;
        }
        klen = jj_edit_key_literal(&e.token, key);
    }
    size_t extra = (e.kind != JJ_EDIT_VALUE && e.needs_comma) + (klen ? klen + 1 : 0);
    size_t total = d.in.len - (e.end - e.start) + extra + vlen;
    if (total > PY_SSIZE_T_MAX) {
        PyErr_NoMemory();
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (!result) goto done;
    uint8_t *o = (uint8_t *)PyBytes_AS_STRING(result);
    memcpy(o, d.in.buf, e.start);
    o += e.start;
    if (e.kind != JJ_EDIT_VALUE && e.needs_comma) *o++ = ',';
    if (klen) {
        memcpy(o, key, klen);
        o += klen;
        *o++ = ':';
    }
    memcpy(o, PyBytes_AS_STRING(text) + lead, vlen);
    o += vlen;
    memcpy(o, d.in.buf + e.end, d.in.len - e.end);
done:
    PyMem_Free(key);
    Py_XDECREF(text);
    jj_request_close(&d);
    jj_ptr_close(&a);
    return result;
}

PyObject *jj_delete_path(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    jj_state *st = PyModule_GetState(module);
    PyObject *result = NULL;
    jj_ptr_arg a = {NULL, NULL, NULL, 0};
    jj_request d = {0};
    jj_edit_target e;
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "delete_path() takes 2 positional arguments (%zd given)", nargs);
        goto done;
    }
    if (jj_ptr_open(args[1], &a) < 0) goto done;
    if (a.len == 0) {
        PyErr_SetString(PyExc_ValueError, "delete_path(): the JSON pointer '' names the whole document");
        goto done;
    }
    if (jj_doc_parse(st, args[0], &d) < 0 || jj_edit_target_of(&d, &a, 0, &e) < 0) goto done;
    size_t cut = e.cut_end - e.cut_start;
    result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(d.in.len - cut));
    if (!result) goto done;
    uint8_t *o = (uint8_t *)PyBytes_AS_STRING(result);
    memcpy(o, d.in.buf, e.cut_start);
    memcpy(o + e.cut_start, d.in.buf + e.cut_end, d.in.len - e.cut_end);
done:
    jj_request_close(&d);
    jj_ptr_close(&a);
    return result;
}
