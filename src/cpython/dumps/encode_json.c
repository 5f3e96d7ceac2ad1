/* jetjson.dumps: Python values to json.dumps's text (see encode_json.h).
 *
 * Recursive like json's own encoders, one C level per container, each counted with
 * Py_EnterRecursiveCall as json counts it, so RecursionError comes at json's depth. A
 * cap on the C stack used keeps it safe when the recursion limit is raised very high.
 *
 * References: every container being encoded is held, every dict item while it is
 * written, so a default() that empties or drops anything cannot free what is in use.
 *
 * Dicts: json's C encoder iterates over a list of the items taken when it reaches the
 * dict, so a default() that changes the dict does not change the output. Exact dicts
 * are read in place instead (no list), and the moment before any user code could run
 * (a default() call, a subclass's __iter__ or items(), a sort), every dict still read
 * in place is turned into a list of its remaining items: the same items json listed.
 * The pure-Python encoder (py_path) iterates dict.items() live: a change of size is the
 * RuntimeError Python's iterator raises. */
#include <math.h>

#include "encode_json.h"
#include "jetjson_write.h"

/* Most C stack the recursion may use, whatever the recursion limit (json's own C
 * encoder would crash first): 3 MiB, under the usual 8 MiB of a thread. Counted in
 * bytes, not levels, so that bigger frames (sanitizers, -O0) are capped alike. */
#define JJ_ENC_MAX_STACK ((uintptr_t)3 << 20)

typedef struct jj_live {
    struct jj_live *up;
    PyObject *dict;
    Py_ssize_t pos;  /* PyDict_Next position while read in place */
    PyObject *rest;  /* once frozen: list of the remaining (key, value) tuples */
    Py_ssize_t rest_i;
} jj_live;

static int jj_dumps_value_at(jj_dumps_enc *e, PyObject *o, Py_ssize_t level);

static const char *jj_dumps_recursion_where(const jj_dumps_enc *e) {
    return e->py_path ? " while calling a Python object" : " while encoding a JSON object";
}

static int jj_dumps_enter(jj_dumps_enc *e) {
    if (e->py_levels_left >= 0 && e->py_levels_left-- == 0) {
        e->py_levels_left = 0;
        PyErr_SetString(PyExc_RecursionError, "maximum recursion depth exceeded");
        return -1;
    }
    uintptr_t here = (uintptr_t)&here;
    uintptr_t used = here < e->stack_base ? e->stack_base - here : here - e->stack_base;
    if (used > JJ_ENC_MAX_STACK) {
        PyErr_Format(PyExc_RecursionError, "maximum recursion depth exceeded%s", jj_dumps_recursion_where(e));
        return -1;
    }
    return Py_EnterRecursiveCall(jj_dumps_recursion_where(e)) ? -1 : 0;
}

static void jj_dumps_leave(jj_dumps_enc *e) {
    if (e->py_levels_left >= 0) e->py_levels_left++;
    Py_LeaveRecursiveCall();
}

/* ---- circular references: the path of containers being encoded ---- */

static int jj_dumps_path_push(jj_dumps_enc *e, PyObject *o) {
    if (!e->check_circular) return 0;
    for (Py_ssize_t i = e->depth; i-- > 0;) {
        if (e->path[i] == o) {
            PyErr_SetString(PyExc_ValueError, "Circular reference detected");
            return -1;
        }
    }
    if (e->depth == e->path_cap) {
        Py_ssize_t cap = e->path_cap ? e->path_cap * 2 : 32;
        PyObject **grown = PyMem_Realloc(e->path, (size_t)cap * sizeof(PyObject *));
        if (!grown) {
            PyErr_NoMemory();
            return -1;
        }
        e->path = grown;
        e->path_cap = cap;
    }
    e->path[e->depth++] = o;
    return 0;
}

static void jj_dumps_path_pop(jj_dumps_enc *e) {
    if (e->check_circular) e->depth--;
}

/* Before user code runs: the dicts read in place become lists of their remaining items. */
static int jj_dumps_freeze_live(jj_dumps_enc *e) {
#if PY_VERSION_HEX >= 0x030C0000
    /* from 3.12 json's C encoder reads exact dicts in place too: nothing to do */
    (void)e;
    return 0;
#endif
    for (jj_live *l = e->live; l && !l->rest; l = l->up) {
        PyObject *rest = PyList_New(0);
        PyObject *k, *v;
        if (!rest) return -1;
        while (PyDict_Next(l->dict, &l->pos, &k, &v)) {
            PyObject *pair = PyTuple_Pack(2, k, v);
            if (!pair || PyList_Append(rest, pair) < 0) {
                Py_XDECREF(pair);
                Py_DECREF(rest);
                return -1;
            }
            Py_DECREF(pair);
        }
        l->rest = rest;
        l->rest_i = 0;
    }
    return 0;
}

/* ---- scalars ---- */

static int jj_dumps_put_int(jj_dumps_enc *e, PyObject *o) {
    long long v;
#if PY_VERSION_HEX >= 0x030C0000
    if (PyUnstable_Long_IsCompact((PyLongObject *)o)) {
        v = (long long)PyUnstable_Long_CompactValue((PyLongObject *)o);
#else
    Py_ssize_t size = Py_SIZE(o);
    if (size >= -1 && size <= 1) {
        v = (long long)size * (long long)((PyLongObject *)o)->ob_digit[0];
#endif
    } else {
        int overflow;
        v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) {
            /* json writes int.__repr__, which also enforces sys.get_int_max_str_digits */
            PyObject *text = PyLong_Type.tp_repr(o);
            if (!text) return -1;
            int rc = jj_out_ascii(&e->out, PyUnicode_DATA(text), (size_t)PyUnicode_GET_LENGTH(text));
            Py_DECREF(text);
            return rc;
        }
        if (v == -1 && PyErr_Occurred()) return -1;
    }
    if (e->out.ksize == 1) {
        if (jj_writer_reserve(&e->out.w, JJ_INT_MAX_CHARS)) return -1;
        e->out.w.pos += jj_format_int64(v, (char *)e->out.w.pos);
        return 0;
    }
    char buf[JJ_INT_MAX_CHARS];
    return jj_out_ascii(&e->out, buf, jj_format_int64(v, buf));
}

/* NaN and the infinities: json's spellings, or its ValueError without allow_nan. */
static int jj_dumps_put_nonfinite(jj_dumps_enc *e, PyObject *o, double d) {
    if (!e->allow_nan) {
        if (!e->py_path && PY_VERSION_HEX < 0x030C0000) { /* 3.12 added the repr */
            PyErr_SetString(PyExc_ValueError, "Out of range float values are not JSON compliant");
        } else {
            PyObject *r = PyObject_Repr(o);
            if (r) PyErr_Format(PyExc_ValueError, "Out of range float values are not JSON compliant: %U", r);
            Py_XDECREF(r);
        }
        return -1;
    }
    if (d > 0) return jj_out_ascii(&e->out, "Infinity", 8);
    if (d < 0) return jj_out_ascii(&e->out, "-Infinity", 9);
    return jj_out_ascii(&e->out, "NaN", 3);
}

static int jj_dumps_put_float(jj_dumps_enc *e, PyObject *o) {
    double d = PyFloat_AS_DOUBLE(o);
    if (!isfinite(d)) return jj_dumps_put_nonfinite(e, o, d);
    /* written in place like jj_dumps_put_int's (a shared helper that picked the
     * place cost dumps 2.2% on canada.json: the buffer's address escaped) */
    if (e->out.ksize == 1) {
        if (jj_writer_reserve(&e->out.w, JJ_DOUBLE_BUF_SIZE)) return -1;
        e->out.w.pos += jj_format_double_repr(d, (char *)e->out.w.pos);
        return 0;
    }
    char buf[JJ_DOUBLE_BUF_SIZE];
    return jj_out_ascii(&e->out, buf, jj_format_double_repr(d, buf));
}

static int jj_dumps_put_str(jj_dumps_enc *e, PyObject *o) {
    if (PyUnicode_IS_COMPACT_ASCII(o) && e->out.ksize == 1) {
        int r = jj_out_plain_ascii(&e->out, (const uint8_t *)(((PyASCIIObject *)o) + 1),
                                   (size_t)((PyASCIIObject *)o)->length, e->ensure_ascii);
        if (r) return r < 0 ? -1 : 0;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(o) < 0) return -1;
#endif
    return jj_out_string(&e->out, o, e->ensure_ascii);
}

/* ---- separators and indentation ---- */

static int jj_dumps_put_newline(jj_dumps_enc *e, Py_ssize_t level) {
    if (!e->seps_raw) {
        size_t n = (size_t)e->indent_n;
        if ((size_t)level > ((size_t)PY_SSIZE_T_MAX / 4) / (n ? n : 1)) return PyErr_NoMemory(), -1;
        size_t total = 1 + n * (size_t)level;
        if (jj_out_reserve(&e->out, total)) return -1;
        if (e->out.ksize == 1) {
            e->out.w.pos = jj_write_newline_units(e->out.w.pos, (size_t)level, e->indent_a, n);
            return 0;
        }
        if (jj_out_ascii(&e->out, "\n", 1)) return -1;
        for (Py_ssize_t i = 0; i < level; i++) {
            if (jj_out_ascii(&e->out, e->indent_a, n)) return -1;
        }
        return 0;
    }
    if (jj_out_ascii(&e->out, "\n", 1)) return -1;
    for (Py_ssize_t i = 0; i < level; i++) {
        if (jj_out_raw(&e->out, e->indent)) return -1;
    }
    return 0;
}

/* The item separator, then (with indent) the newline of an item at `level`. */
/* A separator of at most 8 ASCII bytes: one 8-byte store. */
static inline int jj_dumps_put_sep8(jj_dumps_enc *e, const char *sep8, Py_ssize_t n) {
    if (jj_out_reserve(&e->out, 8)) return -1;
    memcpy(e->out.w.pos, sep8, 8);
    e->out.w.pos += n;
    return 0;
}

static int jj_dumps_put_item_sep(jj_dumps_enc *e, Py_ssize_t level) {
    if (e->seps_small && e->out.ksize == 1 && !e->indent) return jj_dumps_put_sep8(e, e->item_sep8, e->item_sep_n);
    int rc = e->seps_raw ? jj_out_raw(&e->out, e->item_sep)
                         : jj_out_ascii(&e->out, e->item_sep_a, (size_t)e->item_sep_n);
    if (rc == 0 && e->indent) rc = jj_dumps_put_newline(e, level);
    return rc;
}

static int jj_dumps_put_key_sep(jj_dumps_enc *e) {
    if (e->seps_small && e->out.ksize == 1) return jj_dumps_put_sep8(e, e->key_sep8, e->key_sep_n);
    if (e->seps_raw) return jj_out_raw(&e->out, e->key_sep);
    return jj_out_ascii(&e->out, e->key_sep_a, (size_t)e->key_sep_n);
}

/* ---- lists and tuples ---- */

static int jj_dumps_list(jj_dumps_enc *e, PyObject *seq, Py_ssize_t level) {
    int rc = -1, pushed = 0, opened = 0;
    PyObject *items;
    Py_INCREF(seq);
    if (PyList_CheckExact(seq) || PyTuple_CheckExact(seq)) {
        items = Py_NewRef(seq);
        if (Py_SIZE(items) == 0) {
            rc = jj_out_ascii(&e->out, "[]", 2);
            goto done;
        }
    } else {
        /* json's C encoder lists a subclass with its __iter__ first (PySequence_Fast);
         * the Python one asks its truth first, then iterates */
        if (e->py_path) {
            int truth = PyObject_IsTrue(seq);
            if (truth <= 0) {
                items = NULL;
                if (truth == 0) rc = jj_out_ascii(&e->out, "[]", 2);
                goto done;
            }
        } else if (jj_dumps_freeze_live(e)) {
            items = NULL;
            goto done;
        }
        items = PySequence_List(seq);
        if (!items) goto done;
        if (!e->py_path && PyList_GET_SIZE(items) == 0) {
            rc = jj_out_ascii(&e->out, "[]", 2);
            goto done;
        }
    }
    if (jj_dumps_path_push(e, seq)) goto done;
    pushed = 1;
    /* the bracket goes out with the first item, as the Python encoder yields it */
    for (Py_ssize_t i = 0; i < Py_SIZE(items); i++) {
        PyObject *item = PyTuple_CheckExact(items) ? PyTuple_GET_ITEM(items, i) : PyList_GET_ITEM(items, i);
        if (!opened) {
            if (jj_out_ascii(&e->out, "[", 1) || (e->indent && jj_dumps_put_newline(e, level + 1))) goto done;
            opened = 1;
        } else if (jj_dumps_put_item_sep(e, level + 1)) {
            goto done;
        }
        Py_INCREF(item);
        int r = jj_dumps_value_at(e, item, level + 1);
        Py_DECREF(item);
        if (r) goto done;
    }
    if (e->indent && jj_dumps_put_newline(e, level)) goto done;
    rc = jj_out_ascii(&e->out, "]", 1);
done:
    if (pushed && rc == 0) jj_dumps_path_pop(e);
    Py_XDECREF(items);
    Py_DECREF(seq);
    return rc;
}

/* ---- dicts ---- */

/* Whether json writes this key: 1 yes, 0 skipped (skipkeys), -1 TypeError. */
static int jj_dumps_key_check(jj_dumps_enc *e, PyObject *key) {
    if (PyUnicode_Check(key) || PyFloat_Check(key) || PyLong_Check(key) || key == Py_None) return 1;
    if (e->skipkeys) return 0;
    if (!e->py_path) {
        PyErr_Format(PyExc_TypeError, "keys must be str, int, float, bool or None, not %.100s",
                     Py_TYPE(key)->tp_name);
    } else {
        PyObject *name = PyType_GetName(Py_TYPE(key));
        if (name) PyErr_Format(PyExc_TypeError, "keys must be str, int, float, bool or None, not %U", name);
        Py_XDECREF(name);
    }
    return -1;
}

/* A key as json coerces it: True -> "true", 1.5 -> "1.5", None -> "null". */
static int jj_dumps_put_key(jj_dumps_enc *e, PyObject *key) {
    if (PyUnicode_Check(key)) return jj_dumps_put_str(e, key);
    if (key == Py_True || key == Py_False || key == Py_None) {
        const char *text = key == Py_True ? "\"true\"" : key == Py_False ? "\"false\"" : "\"null\"";
        return jj_out_ascii(&e->out, text, strlen(text));
    }
    if (jj_out_ascii(&e->out, "\"", 1)) return -1;
    if (PyFloat_Check(key) ? jj_dumps_put_float(e, key) : jj_dumps_put_int(e, key)) return -1;
    return jj_out_ascii(&e->out, "\"", 1);
}

/* Separator (unless first) and key: 0 written, 1 skipped, -1 error. */
static int jj_dumps_put_key_first(jj_dumps_enc *e, PyObject *key, int first, Py_ssize_t level) {
    int ok = jj_dumps_key_check(e, key);
    if (ok <= 0) return ok < 0 ? -1 : 1;
    if (!first && jj_dumps_put_item_sep(e, level + 1)) return -1;
    return jj_dumps_put_key(e, key) ? -1 : 0;
}

/* The next item of a dict being encoded: 1 (borrowed references, kept alive by the
 * dict, which is held, or by a private list of items), 0 at the end, -1. */
static inline int jj_dumps_next_item(jj_live *l, PyObject *items, Py_ssize_t *i, PyObject **k, PyObject **v) {
    PyObject *src = items ? items : l->rest;
    Py_ssize_t *at = items ? i : &l->rest_i;
    if (!src) {
        return PyDict_Next(l->dict, &l->pos, k, v);
    }
    if (*at >= PyList_GET_SIZE(src)) return 0;
    PyObject *pair = PyList_GET_ITEM(src, (*at)++);
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_SetString(PyExc_ValueError, "items must return 2-tuples");
        return -1;
    }
    *k = PyTuple_GET_ITEM(pair, 0);
    *v = PyTuple_GET_ITEM(pair, 1);
    return 1;
}

/* sort_keys on an exact dict whose keys are all exact str: sorting the keys alone gives
 * json's order (its (key, value) tuples compare by key first, and keys are distinct),
 * without a tuple per item; the values are taken right after sorting, before any user
 * code can run, as json's list of items has them. 1 done, 0 not all str, -1 error. */
static int jj_dumps_sorted_str_items(PyObject *d, PyObject **keys, PyObject **vals) {
    *vals = NULL;
    *keys = PyDict_Keys(d);
    if (!*keys) return -1;
    Py_ssize_t n = PyList_GET_SIZE(*keys);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyUnicode_CheckExact(PyList_GET_ITEM(*keys, i))) {
            Py_CLEAR(*keys);
            return 0;
        }
    }
    if (PyList_Sort(*keys) < 0 || !(*vals = PyList_New(n))) goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyDict_GetItemWithError(d, PyList_GET_ITEM(*keys, i));
        if (!v) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "dictionary changed during sort");
            goto fail;
        }
        PyList_SET_ITEM(*vals, i, Py_NewRef(v));
    }
    return 1;
fail:
    Py_CLEAR(*keys);
    Py_CLEAR(*vals);
    return -1;
}

static int jj_dumps_dict(jj_dumps_enc *e, PyObject *d, Py_ssize_t level) {
    int rc = -1, pushed = 0, first = 1, exact = PyDict_CheckExact(d);
    PyObject *items = NULL, *keys = NULL, *vals = NULL;
    jj_live live = {e->live, d, 0, NULL, 0};
    Py_ssize_t i = 0, size0 = PyDict_GET_SIZE(d);
    Py_INCREF(d);
    int empty = size0 == 0;
    if (e->py_path && !exact) {
        empty = PyObject_IsTrue(d);
        if (empty < 0) goto done;
        empty = !empty;
    }
    if (empty) {
        rc = jj_out_ascii(&e->out, "{}", 2);
        goto done;
    }
    if (jj_dumps_path_push(e, d)) goto done;
    pushed = 1;
    if (jj_out_ascii(&e->out, "{", 1) || (e->indent && jj_dumps_put_newline(e, level + 1))) goto done;
    int by_keys = e->sort_keys && exact ? jj_dumps_sorted_str_items(d, &keys, &vals) : 0;
    if (by_keys < 0) goto done;
    if (!by_keys && (e->sort_keys || !exact)) {
        if (!e->py_path && jj_dumps_freeze_live(e)) goto done;
        items = exact ? PyDict_Items(d) : PyMapping_Items(d);
        if (!items || (e->sort_keys && PyList_Sort(items) < 0)) goto done;
    } else if (!by_keys && !e->py_path) {
        e->live = &live;
    }
    for (;;) {
        PyObject *k = NULL, *v = NULL;
        int got;
        if (by_keys) {
            got = i < PyList_GET_SIZE(keys);
            if (got) {
                k = PyList_GET_ITEM(keys, i);
                v = PyList_GET_ITEM(vals, i++);
            }
        } else {
            got = jj_dumps_next_item(&live, items, &i, &k, &v);
        }
        if (got <= 0) {
            if (got < 0) goto done;
            break;
        }
        int r;
        if (Py_TYPE(k) == &PyUnicode_Type) {
            r = (!first && jj_dumps_put_item_sep(e, level + 1)) || jj_dumps_put_str(e, k) ? -1 : 0;
        } else {
            r = jj_dumps_put_key_first(e, k, first, level);
        }
        if (r < 0) goto done;
        if (r == 0) {
            first = 0;
            if (jj_dumps_put_key_sep(e) || jj_dumps_value_at(e, v, level + 1)) goto done;
        }
        if (e->py_path && !items && !by_keys && PyDict_GET_SIZE(d) != size0) {
            PyErr_SetString(PyExc_RuntimeError, "dictionary changed size during iteration");
            goto done;
        }
    }
    if (e->indent && jj_dumps_put_newline(e, level)) goto done;
    rc = jj_out_ascii(&e->out, "}", 1);
done:
    if (e->live == &live) e->live = live.up;
    Py_XDECREF(live.rest);
    if (pushed && rc == 0) jj_dumps_path_pop(e);
    Py_XDECREF(items);
    Py_XDECREF(keys);
    Py_XDECREF(vals);
    Py_DECREF(d);
    return rc;
}

/* ---- everything else: default() ---- */

static int jj_dumps_default(jj_dumps_enc *e, PyObject *o, Py_ssize_t level) {
    if (jj_dumps_path_push(e, o)) return -1;
    int rc = -1;
    PyObject *replaced = NULL;
    if (!e->py_path && jj_dumps_freeze_live(e)) goto done;
    if (e->default_fn)
        replaced = PyObject_CallOneArg(e->default_fn, o);
    else if (jj_json_ready(e->st) == 0) /* json.JSONEncoder.default: its TypeError names the type as json's */
        replaced = PyObject_CallFunctionObjArgs(e->st->json_encoder_default, Py_None, o, NULL);
    if (!replaced || jj_dumps_enter(e)) goto done;
    rc = jj_dumps_value_at(e, replaced, level);
    jj_dumps_leave(e);
done:
    Py_XDECREF(replaced);
    if (rc == 0) jj_dumps_path_pop(e);
    return rc;
}

static int jj_dumps_container(jj_dumps_enc *e, PyObject *o, Py_ssize_t level, int is_dict) {
    if (jj_dumps_enter(e)) return -1;
    int rc = is_dict ? jj_dumps_dict(e, o, level) : jj_dumps_list(e, o, level);
    jj_dumps_leave(e);
    return rc;
}

/* json's order of tests: the exact types first only because they are the common case. */
static int jj_dumps_value_at(jj_dumps_enc *e, PyObject *o, Py_ssize_t level) {
    PyTypeObject *t = Py_TYPE(o);
    if (t == &PyUnicode_Type) return jj_dumps_put_str(e, o);
    if (t == &PyLong_Type) return jj_dumps_put_int(e, o);
    if (t == &PyFloat_Type) return jj_dumps_put_float(e, o);
    if (t == &PyDict_Type) return jj_dumps_container(e, o, level, 1);
    if (t == &PyList_Type || t == &PyTuple_Type) return jj_dumps_container(e, o, level, 0);
    if (o == Py_None) return jj_out_ascii(&e->out, "null", 4);
    if (o == Py_True) return jj_out_ascii(&e->out, "true", 4);
    if (o == Py_False) return jj_out_ascii(&e->out, "false", 5);
    if (PyUnicode_Check(o)) return jj_dumps_put_str(e, o);
    if (PyLong_Check(o)) return jj_dumps_put_int(e, o);
    if (PyFloat_Check(o)) return jj_dumps_put_float(e, o);
    if (PyList_Check(o) || PyTuple_Check(o)) return jj_dumps_container(e, o, level, 0);
    if (PyDict_Check(o)) return jj_dumps_container(e, o, level, 1);
    return jj_dumps_default(e, o, level);
}

int jj_dumps_value(jj_dumps_enc *e, PyObject *obj) {
    uintptr_t base = (uintptr_t)&base;
    e->stack_base = base;
    return jj_dumps_value_at(e, obj, 0);
}

void jj_dumps_release(jj_dumps_enc *e) {
    PyMem_Free(e->path);
    e->path = NULL;
    e->depth = e->path_cap = 0;
}
