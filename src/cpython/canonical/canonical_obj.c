/* jetjson.canonical(obj): RFC 8785 (JCS) bytes of Python objects.
 *
 * The walker of dumpb in small: the types JSON has (dict with str keys, list, tuple,
 * str, int, float, bool, None), their subclasses, enum members by their value, and
 * `default` for the rest. What is JCS's own: each dict's items are taken out, sorted by
 * their keys' UTF-16 code units and written in that order; numbers are written as
 * ECMAScript writes the double (jj_format_double_ecma), ints with their digits when JCS
 * would write them so (jj_canon_integer_ok: all up to 2^53 - 1 in magnitude); strings in JSON.stringify's spelling, which is orjson's (dumpb's string
 * writers do it), except that a lone surrogate is a ValueError here. */
#include <math.h>

#include "canonical.h"
#include "dumpb/encode_orjson.h"
#include "jetjson_canonical.h"

/* Nesting deeper than this is a RecursionError whatever the interpreter's limit: the
 * walk recurses on the C stack (a few hundred bytes a level). */
#define JJ_CANON_MAX_DEPTH 2048

/* A dict item waiting to be written: both references held (a `default` that empties
 * the dict meanwhile must not free them), `index` its place in the dict (ties between
 * equal keys, which only str subclasses with their own __eq__ can make, keep it). */
typedef struct jj_canon_pair {
    PyObject *key, *value;
    Py_ssize_t index;
} jj_canon_pair;

typedef struct jj_canon_enc {
    jj_dumpb_enc e; /* its writer, and the context dumpb's string writers take */
    PyObject *default_fn; /* NULL when none (None counts as none) */
    /* the items of the open dicts, innermost last (a stack: nested dicts push theirs) */
    jj_canon_pair *pairs;
    size_t npairs, cap;
    int depth;
} jj_canon_enc;

static int jj_canon_value(jj_canon_enc *c, PyObject *obj, int ndefault);

/* ---- scalars ---- */

static int jj_canon_put(jj_canon_enc *c, const char *text, size_t n) { return jj_writer_put(&c->e.w, text, n); }

#define JJ_MSG_INT_RANGE                                                                                     \
    "out of range for canonical JSON: beyond 2**53 - 1 in magnitude, an int is written only when its digits " \
    "are the JCS text of a double (they would change otherwise)"

static int jj_canon_int_refused(long long v, int known) {
    if (known)
        PyErr_Format(PyExc_ValueError, "int %lld " JJ_MSG_INT_RANGE, v);
    else
        PyErr_SetString(PyExc_ValueError, "int " JJ_MSG_INT_RANGE);
    return -1;
}

/* Beyond 64 bits: only ints below 1e21 can be a double's positional text. */
static int jj_canon_big_int(jj_canon_enc *c, PyObject *obj) {
    double d = PyLong_AsDouble(obj);
    if (d == -1.0 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        return jj_canon_int_refused(0, 0);
    }
    if (!(fabs(d) < 1e21)) return jj_canon_int_refused(0, 0);
    PyObject *digits = PyNumber_ToBase(obj, 10);
    if (!digits) return -1;
    Py_ssize_t n;
    const char *text = PyUnicode_AsUTF8AndSize(digits, &n);
    int rc = -1;
    if (text && !jj_canon_integer_ok(text, (size_t)n)) {
        jj_canon_int_refused(0, 0);
    } else if (text) {
        rc = jj_writer_put(&c->e.w, text, (size_t)n);
    }
    Py_DECREF(digits);
    return rc;
}

static int jj_canon_int(jj_canon_enc *c, PyObject *obj) {
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow) return jj_canon_big_int(c, obj);
    if (jj_writer_reserve(&c->e.w, JJ_INT_MAX_CHARS)) return -1;
    char *text = (char *)c->e.w.pos;
    size_t n = jj_format_int64((int64_t)v, text);
    uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    if (mag > JJ_CANON_MAX_INT && !jj_canon_integer_ok(text, n)) return jj_canon_int_refused(v, 1);
    c->e.w.pos += n;
    return 0;
}

static int jj_canon_float(jj_canon_enc *c, PyObject *obj) {
    double v = PyFloat_AS_DOUBLE(obj);
    if (!isfinite(v)) {
        PyErr_Format(PyExc_ValueError, "float %R has no canonical JSON form (NaN and Infinity are not allowed)",
                     obj);
        return -1;
    }
    if (jj_writer_reserve(&c->e.w, JJ_ECMA_DOUBLE_BUF_SIZE)) return -1;
    c->e.w.pos += jj_format_double_ecma(v, (char *)c->e.w.pos);
    return 0;
}

static int jj_canon_str(jj_canon_enc *c, PyObject *s) {
#if PY_VERSION_HEX < 0x030C0000
    if (!PyUnicode_IS_READY(s) && PyUnicode_READY(s) < 0) return -1;
#endif
    int done = jj_try_ascii_str(&c->e, s);
    if (done) return done < 0 ? -1 : 0;
    if (PyUnicode_KIND(s) != PyUnicode_1BYTE_KIND && jj_str_has_surrogate(s)) {
        PyErr_SetString(PyExc_ValueError,
                        "str with a lone surrogate (U+D800..U+DFFF) has no canonical JSON form: it is not Unicode text");
        return -1;
    }
    return jj_dumpb_str(&c->e, s);
}

/* ---- nesting ---- */

static int jj_canon_enter(jj_canon_enc *c) {
    if (c->depth >= JJ_CANON_MAX_DEPTH) {
        PyErr_SetString(PyExc_RecursionError, "maximum recursion depth exceeded while encoding canonical JSON");
        return -1;
    }
    if (Py_EnterRecursiveCall(" while encoding canonical JSON")) return -1;
    c->depth++;
    return 0;
}

static void jj_canon_leave(jj_canon_enc *c) {
    c->depth--;
    Py_LeaveRecursiveCall();
}

/* list or tuple (and their subclasses): the items as they are when each is reached (a
 * `default` may change a list under the walk). */
static int jj_canon_sequence(jj_canon_enc *c, PyObject *seq, int ndefault) {
    int list = PyList_Check(seq);
    Py_ssize_t n = list ? PyList_GET_SIZE(seq) : PyTuple_GET_SIZE(seq);
    if (n == 0) return jj_canon_put(c, "[]", 2);
    if (jj_canon_enter(c)) return -1;
    Py_INCREF(seq);
    int rc = jj_writer_put_byte(&c->e.w, '[');
    for (Py_ssize_t i = 0; rc == 0; i++) {
        if (list) n = PyList_GET_SIZE(seq);
        if (i >= n) break;
        PyObject *item = list ? PyList_GET_ITEM(seq, i) : PyTuple_GET_ITEM(seq, i);
        Py_INCREF(item);
        rc = (i && jj_writer_put_byte(&c->e.w, ',')) || jj_canon_value(c, item, ndefault) ? -1 : 0;
        Py_DECREF(item);
    }
    if (rc == 0) rc = jj_writer_put_byte(&c->e.w, ']');
    Py_DECREF(seq);
    jj_canon_leave(c);
    return rc;
}

/* The order of two strs by UTF-16 code units: code point order, except that U+E000..U+FFFF
 * come after U+10000 and above (whose surrogate pairs start with units D800..DBFF). */
static inline Py_UCS4 jj_utf16_rank(Py_UCS4 ch) { return ch >= 0xE000 && ch <= 0xFFFF ? ch + 0x110000 : ch; }

static int jj_str_compare(PyObject *a, PyObject *b) {
    int ka = PyUnicode_KIND(a), kb = PyUnicode_KIND(b);
    Py_ssize_t la = PyUnicode_GET_LENGTH(a), lb = PyUnicode_GET_LENGTH(b), n = la < lb ? la : lb;
    const void *da = PyUnicode_DATA(a), *db = PyUnicode_DATA(b);
    if (ka == PyUnicode_1BYTE_KIND && kb == PyUnicode_1BYTE_KIND) {
        int r = memcmp(da, db, (size_t)n);
        if (r) return r;
    } else if (ka == PyUnicode_2BYTE_KIND && kb == PyUnicode_2BYTE_KIND) {
        /* UCS-2 units are UTF-16 units (surrogates are refused when written) */
        const Py_UCS2 *ua = da, *ub = db;
        for (Py_ssize_t i = 0; i < n; i++)
            if (ua[i] != ub[i]) return ua[i] < ub[i] ? -1 : 1;
    } else {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_UCS4 x = PyUnicode_READ(ka, da, i), y = PyUnicode_READ(kb, db, i);
            if (x != y) return jj_utf16_rank(x) < jj_utf16_rank(y) ? -1 : 1;
        }
    }
    return (la > lb) - (la < lb);
}

static int jj_pair_compare(const void *pa, const void *pb) {
    const jj_canon_pair *a = pa, *b = pb;
    int r = jj_str_compare(a->key, b->key);
    if (r) return r;
    return (a->index > b->index) - (a->index < b->index);
}

/* Small dicts (most of them) by insertion: no call per comparison. */
#define JJ_CANON_INSERTION_MAX 12

static void jj_sort_pairs(jj_canon_pair *p, size_t n) {
    if (n > JJ_CANON_INSERTION_MAX) {
        qsort(p, n, sizeof *p, jj_pair_compare);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        jj_canon_pair x = p[i];
        size_t j = i;
        while (j > 0 && jj_pair_compare(&x, &p[j - 1]) < 0) {
            p[j] = p[j - 1];
            j--;
        }
        p[j] = x;
    }
}

static int jj_canon_reserve_pairs(jj_canon_enc *c, size_t need) {
    if (need <= c->cap) return 0;
    size_t cap = c->cap ? c->cap : 64;
    while (cap < need) cap *= 2;
    jj_canon_pair *p = PyMem_Realloc(c->pairs, cap * sizeof *p);
    if (!p) {
        PyErr_NoMemory();
        return -1;
    }
    c->pairs = p;
    c->cap = cap;
    return 0;
}

static int jj_canon_dict_items(jj_canon_enc *c, PyObject *dict, size_t base, int ndefault) {
    Py_ssize_t pos = 0, i = 0, n = PyDict_GET_SIZE(dict);
    PyObject *key, *value;
    /* PyDict_Next runs no Python code: the dict cannot change while it is read */
    while (i < n && PyDict_Next(dict, &pos, &key, &value)) {
        if (!PyUnicode_Check(key)) {
            PyErr_Format(PyExc_TypeError, "canonical JSON object keys must be str, not %.100s",
                         Py_TYPE(key)->tp_name);
            return -1;
        }
#if PY_VERSION_HEX < 0x030C0000
        if (!PyUnicode_IS_READY(key) && PyUnicode_READY(key) < 0) return -1;
#endif
        jj_canon_pair *p = &c->pairs[c->npairs++];
        p->key = Py_NewRef(key);
        p->value = Py_NewRef(value);
        p->index = i++;
    }
    size_t count = c->npairs - base;
    jj_sort_pairs(c->pairs + base, count);
    if (jj_writer_put_byte(&c->e.w, '{')) return -1;
    for (size_t j = 0; j < count; j++) {
        /* c->pairs moves when a nested dict grows it: index it afresh */
        if ((j && jj_writer_put_byte(&c->e.w, ',')) || jj_canon_str(c, c->pairs[base + j].key) ||
            jj_writer_put_byte(&c->e.w, ':') || jj_canon_value(c, c->pairs[base + j].value, ndefault))
            return -1;
    }
    return jj_writer_put_byte(&c->e.w, '}');
}

static int jj_canon_dict(jj_canon_enc *c, PyObject *dict, int ndefault) {
    Py_ssize_t n = PyDict_GET_SIZE(dict);
    if (n == 0) return jj_canon_put(c, "{}", 2);
    size_t base = c->npairs;
    if (jj_canon_reserve_pairs(c, base + (size_t)n) || jj_canon_enter(c)) return -1;
    int rc = jj_canon_dict_items(c, dict, base, ndefault);
    while (c->npairs > base) {
        jj_canon_pair *p = &c->pairs[--c->npairs];
        Py_DECREF(p->key);
        Py_DECREF(p->value);
    }
    jj_canon_leave(c);
    return rc;
}

/* ---- dispatch ---- */

static int jj_canon_other(jj_canon_enc *c, PyObject *obj, int ndefault) {
    PyTypeObject *type = Py_TYPE(obj);
    jj_state *st = c->e.st;
    if (jj_is_enum_member(st, obj)) {
        if (jj_canon_enter(c)) return -1; /* a member whose value is a member, forever */
        PyObject *value = PyObject_GetAttr(obj, st->str_value);
        int rc = value ? jj_canon_value(c, value, ndefault) : -1;
        Py_XDECREF(value);
        jj_canon_leave(c);
        return rc;
    }
    if (PyUnicode_Check(obj)) return jj_canon_str(c, obj);
    if (PyLong_Check(obj)) return jj_canon_int(c, obj);
    if (PyFloat_Check(obj)) return jj_canon_float(c, obj);
    if (PyDict_Check(obj)) return jj_canon_dict(c, obj, ndefault);
    if (PyList_Check(obj) || PyTuple_Check(obj)) return jj_canon_sequence(c, obj, ndefault);
    if (!c->default_fn) {
        PyErr_Format(PyExc_TypeError, "Type is not JSON serializable: %.200s", type->tp_name);
        return -1;
    }
    if (ndefault >= JJ_ENC_MAX_DEFAULT) {
        PyErr_SetString(PyExc_RecursionError, "default serializer exceeds recursion limit");
        return -1;
    }
    PyObject *result = PyObject_CallOneArg(c->default_fn, obj);
    if (!result) return -1;
    int rc = jj_canon_value(c, result, ndefault + 1);
    Py_DECREF(result);
    return rc;
}

static int jj_canon_value(jj_canon_enc *c, PyObject *obj, int ndefault) {
    PyTypeObject *type = Py_TYPE(obj);
    if (type == &PyUnicode_Type) return jj_canon_str(c, obj);
    if (type == &PyDict_Type) return jj_canon_dict(c, obj, ndefault);
    if (type == &PyList_Type || type == &PyTuple_Type) return jj_canon_sequence(c, obj, ndefault);
    if (type == &PyLong_Type) return jj_canon_int(c, obj);
    if (type == &PyFloat_Type) return jj_canon_float(c, obj);
    if (obj == Py_None) return jj_canon_put(c, "null", 4);
    if (obj == Py_True) return jj_canon_put(c, "true", 4);
    if (obj == Py_False) return jj_canon_put(c, "false", 5);
    Py_INCREF(obj); /* a `default` below may drop the last other reference */
    int rc = jj_canon_other(c, obj, ndefault);
    Py_DECREF(obj);
    return rc;
}

/* canonical(obj, /, *, default=None) */
PyObject *jj_canonical(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "canonical() takes exactly 1 positional argument (%zd given)", nargs);
        return NULL;
    }
    PyObject *default_fn = NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        if (PyUnicode_CompareWithASCIIString(name, "default") != 0) {
            PyErr_Format(PyExc_TypeError, "canonical() got an unexpected keyword argument '%U'", name);
            return NULL;
        }
        default_fn = args[nargs + i];
    }
    jj_canon_enc c;
    memset(&c, 0, sizeof c);
    c.e.st = PyModule_GetState(module);
    c.default_fn = default_fn == Py_None ? NULL : default_fn;
    if (jj_writer_start_bytes(&c.e.w, jj_writer_first_capacity(c.e.st->canonical_last_len))) return NULL;
    int rc = jj_canon_value(&c, args[0], 0);
    PyMem_Free(c.pairs);
    if (rc) {
        jj_writer_abandon(&c.e.w);
        return NULL;
    }
    c.e.st->canonical_last_len = jj_writer_len(&c.e.w);
    return jj_writer_finish(&c.e.w);
}
