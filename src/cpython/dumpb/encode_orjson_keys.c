/* dumpb: dicts under OPT_SORT_KEYS and/or OPT_NON_STR_KEYS.
 *
 * The items are first collected as (key text, value) pairs, each holding a reference,
 * with non-str keys turned into the text orjson writes for them; then, under SORT_KEYS,
 * sorted by code point (which is the UTF-8 byte order orjson sorts by), equal texts
 * (possible after conversion: 1 and "1") keeping their dict order; then written. */
#include "encode_orjson.h"
#include "dumpb_messages.h"

#include <math.h>
#include <stdlib.h>

#include "jetjson_write.h"

typedef struct jj_item {
    PyObject *key;   /* str: the key text */
    PyObject *value;
    Py_ssize_t index; /* position in the dict: ties keep it */
} jj_item;

static PyObject *jj_text(const char *text, size_t n) { return PyUnicode_FromStringAndSize(text, (Py_ssize_t)n); }

static PyObject *jj_key_fail(jj_dumpb_enc *e, const char *msg) {
    jj_dumpb_fail(e, msg);
    return NULL;
}

static PyObject *jj_int_key(jj_dumpb_enc *e, PyObject *key) {
    char buf[JJ_INT_MAX_CHARS];
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(key, &overflow);
    if (v == -1 && PyErr_Occurred()) return NULL;
    if (!overflow) return jj_text(buf, jj_format_int64((int64_t)v, buf));
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(key);
        if (!(u == (unsigned long long)-1 && PyErr_Occurred())) return jj_text(buf, jj_format_uint64((uint64_t)u, buf));
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
        PyErr_Clear();
    }
    return jj_key_fail(e, JJ_MSG_KEY_INT64);
}

/* The text orjson writes for a non-str key under NON_STR_KEYS (new reference). */
static PyObject *jj_key_text(jj_dumpb_enc *e, PyObject *key, int nesting) {
    if (PyUnicode_CheckExact(key)) return Py_NewRef(key);
    if (key == Py_True) return jj_text("true", 4);
    if (key == Py_False) return jj_text("false", 5);
    if (key == Py_None) return jj_text("null", 4);
    if (PyLong_CheckExact(key)) return jj_int_key(e, key);
    if (PyFloat_CheckExact(key)) {
        double v = PyFloat_AS_DOUBLE(key);
        if (!isfinite(v)) return jj_text("null", 4);
        char buf[JJ_DOUBLE_BUF_SIZE];
        return jj_text(buf, jj_dumpb_format_double(v, buf));
    }
    /* enum members are keyed by their value (an enum of enums is not: keep it finite) */
    if (nesting < JJ_ENC_MAX_DEFAULT && jj_is_enum_member(e->st, key)) {
        PyObject *value = PyObject_GetAttr(key, e->st->str_value);
        if (!value) return NULL;
        PyObject *text = jj_key_text(e, value, nesting + 1);
        Py_DECREF(value);
        return text;
    }
    /* str and int subclasses, even under PASSTHROUGH_SUBCLASS (which is for values) */
    if (PyUnicode_Check(key)) return PyUnicode_FromObject(key);
    if (PyLong_Check(key)) return jj_int_key(e, key);
    /* dates and UUIDs (the key flag: even under PASSTHROUGH_DATETIME; never numpy) */
    jj_dumpb_opts opts = e->opts;
    opts.key = 1;
    jj_native_kind kind = jj_native_classify(e->st, key, &opts);
    if (kind != JJ_NATIVE_NONE && kind != JJ_NATIVE_NUMPY_ARRAY && kind != JJ_NATIVE_NUMPY_SCALAR) {
        char buf[JJ_NATIVE_TEXT_MAX];
        Py_ssize_t n = jj_native_text(e->st, key, kind, &opts, buf);
        return n < 0 ? NULL : jj_text(buf, (size_t)n);
    }
    return jj_key_fail(e, JJ_MSG_KEY_NON_STR);
}

/* Code point order of two strs. */
static int jj_compare_str(PyObject *a, PyObject *b) {
    int ka = PyUnicode_KIND(a), kb = PyUnicode_KIND(b);
    const void *da = PyUnicode_DATA(a), *db = PyUnicode_DATA(b);
    Py_ssize_t na = PyUnicode_GET_LENGTH(a), nb = PyUnicode_GET_LENGTH(b);
    Py_ssize_t n = na < nb ? na : nb;
    if (ka == 1 && kb == 1) {
        int c = memcmp(da, db, (size_t)n);
        if (c) return c;
    } else {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_UCS4 ca = PyUnicode_READ(ka, da, i), cb = PyUnicode_READ(kb, db, i);
            if (ca != cb) return ca < cb ? -1 : 1;
        }
    }
    return na < nb ? -1 : na > nb;
}

static int jj_compare_items(const void *pa, const void *pb) {
    const jj_item *a = (const jj_item *)pa, *b = (const jj_item *)pb;
    int c = jj_compare_str(a->key, b->key);
    if (c) return c;
    return a->index < b->index ? -1 : a->index > b->index;
}

static void jj_items_free(jj_item *items, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_DECREF(items[i].key);
        Py_DECREF(items[i].value);
    }
    PyMem_Free(items);
}

/* Collect up to `cap` items (a key conversion may run Python code that grows the dict:
 * what comes past the size seen at the start is left out). Returns the count or -1. */
static Py_ssize_t jj_collect(jj_dumpb_enc *e, PyObject *dict, jj_item *items, Py_ssize_t cap) {
    Py_ssize_t pos = 0, n = 0;
    PyObject *key, *value;
    int non_str = e->opts.non_str_keys;
    while (n < cap && PyDict_Next(dict, &pos, &key, &value)) {
        Py_INCREF(value);
        PyObject *text;
        if (PyUnicode_CheckExact(key)) {
            text = Py_NewRef(key);
        } else if (non_str) {
            Py_INCREF(key);
            text = jj_key_text(e, key, 0);
            Py_DECREF(key);
        } else {
            text = jj_key_fail(e, JJ_MSG_KEY_STR);
        }
        /* orjson checks every key's UTF-8 while it collects them, before any value */
        if (text && jj_str_has_surrogate(text)) {
            Py_CLEAR(text);
            jj_dumpb_fail(e, JJ_MSG_SURROGATE);
        }
        if (!text) {
            Py_DECREF(value);
            jj_items_free(items, n);
            return -1;
        }
        items[n].key = text;
        items[n].value = value;
        items[n].index = n;
        n++;
    }
    return n;
}

int jj_dumpb_dict_keys(jj_dumpb_enc *e, PyObject *dict, int depth, int ndefault) {
    Py_ssize_t cap = PyDict_GET_SIZE(dict);
    jj_item *items = PyMem_Malloc((size_t)cap * sizeof(jj_item));
    if (!items) {
        PyErr_NoMemory();
        return -1;
    }
    Py_INCREF(dict);
    Py_ssize_t n = jj_collect(e, dict, items, cap);
    Py_DECREF(dict);
    if (n < 0) return -1;
    if (e->opts.sort_keys) qsort(items, (size_t)n, sizeof(jj_item), jj_compare_items);
    int rc = -1;
    if (n == 0) {
        rc = jj_writer_put(&e->w, "{}", 2);
        goto done;
    }
    if (jj_writer_put_byte(&e->w, '{')) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i && jj_writer_put_byte(&e->w, ',')) goto done;
        if (jj_dumpb_newline(e, depth + 1) || jj_dumpb_str_fast(e, items[i].key) || jj_dumpb_colon(e)) goto done;
        if (jj_dumpb_value(e, items[i].value, depth + 1, ndefault)) goto done;
    }
    if (jj_dumpb_newline(e, depth)) goto done;
    rc = jj_writer_put_byte(&e->w, '}');
done:
    jj_items_free(items, n);
    return rc;
}
