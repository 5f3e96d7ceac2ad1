/* dumpb: the entry point and the walker for the exact built-in types (str, int, float,
 * bool, None, list, tuple, dict). Everything else is jj_dumpb_other's (objects file).
 *
 * References: a container is held (one reference) while it is walked, and everything
 * that can run Python code (default, enum values, dataclass attributes) holds the
 * object it works on, so a `default` that empties the containers being walked cannot
 * free what is in use. Lists are re-measured on every item for the same reason. */
#include "encode_orjson.h"
#include "dumpb_messages.h"

#include <math.h>

#include "decode/dict_layout.h"
#include "jetjson_write.h"

int jj_dumpb_fail(jj_dumpb_enc *e, const char *msg) {
    PyErr_SetString(e->st->JSONEncodeError, msg);
    return -1;
}

int jj_dumpb_indent(jj_dumpb_enc *e, int depth) { return jj_writer_newline(&e->w, 2 * (size_t)depth); }

static int jj_put_literal(jj_dumpb_enc *e, const char *text, size_t n) { return jj_writer_put(&e->w, text, n); }

/* ---- numbers ---- */

#define JJ_MAX_53 ((int64_t)9007199254740991) /* 2**53 - 1 */

/* v at pos (room for JJ_INT_MAX_CHARS bytes); returns the end. Small counts and flags
 * without a call. */
static inline uint8_t *jj_write_int64(uint8_t *pos, int64_t v) {
    if ((uint64_t)v < 10) {
        *pos = (uint8_t)('0' + v);
        return pos + 1;
    }
    if ((uint64_t)v < 100) {
        pos[0] = (uint8_t)('0' + v / 10);
        pos[1] = (uint8_t)('0' + v % 10);
        return pos + 2;
    }
    return pos + jj_format_int64(v, (char *)pos);
}

static inline int jj_put_int64(jj_dumpb_enc *e, int64_t v) {
    if (e->opts.strict_integer && (v > JJ_MAX_53 || v < -JJ_MAX_53))
        return jj_dumpb_fail(e, JJ_MSG_INT53);
    if (jj_writer_reserve(&e->w, JJ_INT_MAX_CHARS)) return -1;
    e->w.pos = jj_write_int64(e->w.pos, v);
    return 0;
}

/* Ints that do not fit a single machine digit: int64, then uint64, else orjson's error. */
static int jj_dumpb_int_slow(jj_dumpb_enc *e, PyObject *obj) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (!overflow) return jj_put_int64(e, (int64_t)v);
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(obj);
        if (u == (unsigned long long)-1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
            PyErr_Clear();
        } else {
            if (e->opts.strict_integer) return jj_dumpb_fail(e, JJ_MSG_INT53);
            if (jj_writer_reserve(&e->w, JJ_INT_MAX_CHARS)) return -1;
            e->w.pos += jj_format_uint64((uint64_t)u, (char *)e->w.pos);
            return 0;
        }
    }
    /* past 64 bits the 64-bit message wins, even under STRICT_INTEGER */
    return jj_dumpb_fail(e, JJ_MSG_INT64);
}

/* The value of an exact int that fits one machine digit (below 2^30 in magnitude, so
 * within STRICT_INTEGER's range too): 1 and *v, or 0 for the others. */
static inline int jj_compact_int(PyObject *obj, int64_t *v) {
#if PY_VERSION_HEX >= 0x030C0000
    if (!PyUnstable_Long_IsCompact((PyLongObject *)obj)) return 0;
    *v = (int64_t)PyUnstable_Long_CompactValue((PyLongObject *)obj);
#else
    Py_ssize_t size = Py_SIZE(obj);
    if (size < -1 || size > 1) return 0;
    *v = (int64_t)size * (int64_t)((PyLongObject *)obj)->ob_digit[0];
#endif
    return 1;
}

static inline int jj_dumpb_int(jj_dumpb_enc *e, PyObject *obj) {
    int64_t v;
    if (jj_compact_int(obj, &v)) return jj_put_int64(e, v);
    return jj_dumpb_int_slow(e, obj);
}

size_t jj_dumpb_format_double(double v, char *out) { return jj_format_double_orjson(v, out); }

/* A float's text at pos (room for JJ_DOUBLE_BUF_SIZE bytes), null for NaN and the
 * infinities as orjson writes them: the position after it. */
static inline uint8_t *jj_put_float(uint8_t *pos, double v) {
    if (isfinite(v)) return pos + jj_dumpb_format_double(v, (char *)pos);
    memcpy(pos, "null", 4);
    return pos + 4;
}

static inline int jj_dumpb_float(jj_dumpb_enc *e, PyObject *obj) {
    double v = PyFloat_AS_DOUBLE(obj);
    if (!isfinite(v)) return jj_put_literal(e, "null", 4);
    if (jj_writer_reserve(&e->w, JJ_DOUBLE_BUF_SIZE)) return -1;
    e->w.pos += jj_dumpb_format_double(v, (char *)e->w.pos);
    return 0;
}

/* ---- containers ---- */


/* Fetching the next value's object while this one is written: an input that has just
 * been built is often no longer all in the cache, and one value's misses otherwise wait
 * for the previous value's. (Not for list items: the lists of numbers, whose objects
 * lie in a row, lost 5-10% to the extra instructions.) */
#if defined(__GNUC__) || defined(__clang__)
#define JJ_PREFETCH(p) __builtin_prefetch((const void *)(p))
#else
#define JJ_PREFETCH(p) ((void)0)
#endif

/* PyDict_Next, same positions (entry indexes) and results. The table is re-read on every
 * step, so a dict changed meanwhile (by default) is walked as PyDict_Next would. */
static inline int jj_dict_next(PyObject *dict, Py_ssize_t *pos, PyObject **key, PyObject **value) {
#ifdef JJ_DICT_LAYOUT_KNOWN
    PyDictObject *mp = (PyDictObject *)dict;
    const jj_dict_keys *keys = (const jj_dict_keys *)(const void *)mp->ma_keys;
    if (mp->ma_values == NULL && (keys->dk_kind == JJ_DICT_KEYS_UNICODE || keys->dk_kind == JJ_DICT_KEYS_GENERAL)) {
        Py_ssize_t i = *pos, n = keys->dk_nentries;
        const char *entries = keys->dk_indices + ((size_t)1 << keys->dk_log2_index_bytes);
        if (i < 0) return 0;
        if (keys->dk_kind == JJ_DICT_KEYS_UNICODE) {
            const jj_dict_str_entry *ep = (const jj_dict_str_entry *)(const void *)entries;
            while (i < n && ep[i].me_value == NULL) i++;
            if (i >= n) return 0;
            *key = ep[i].me_key;
            *value = ep[i].me_value;
            if (i + 1 < n) JJ_PREFETCH(ep[i + 1].me_value);
        } else {
            const jj_dict_entry *ep = (const jj_dict_entry *)(const void *)entries;
            while (i < n && ep[i].me_value == NULL) i++;
            if (i >= n) return 0;
            *key = ep[i].me_key;
            *value = ep[i].me_value;
        }
        *pos = i + 1;
        return 1;
    }
#endif
    /* through locals: the caller's pos, key and value never have their address taken,
     * so they stay in registers on the path above */
    Py_ssize_t p = *pos;
    PyObject *k, *v;
    int more = PyDict_Next(dict, &p, &k, &v);
    *pos = p;
    *key = k;
    *value = v;
    return more;
}

static int jj_dumpb_dict(jj_dumpb_enc *e, PyObject *dict, int depth, int ndefault);
static inline int jj_dumpb_sequence(jj_dumpb_enc *e, PyObject *seq, int depth, int ndefault);

#if defined(__GNUC__) || defined(__clang__)
#define JJ_ALWAYS_INLINE inline __attribute__((always_inline))
#define JJ_NOINLINE __attribute__((noinline))
#else
#define JJ_NOINLINE
#define JJ_ALWAYS_INLINE inline
#endif

/* An item of a container: the scalar types inline, nested lists and dicts straight to
 * their writers, the rest through jj_dumpb_value. Always inlined: the compiler would
 * otherwise make it a call per item, as it reaches back into the container writers. */
static JJ_ALWAYS_INLINE int jj_dumpb_item(jj_dumpb_enc *e, PyObject *obj, int depth, int ndefault) {
    PyTypeObject *type = Py_TYPE(obj);
    if (type == &PyUnicode_Type) return jj_dumpb_str_fast(e, obj);
    if (type == &PyLong_Type) return jj_dumpb_int(e, obj);
    if (type == &PyFloat_Type) return jj_dumpb_float(e, obj);
    if (type == &PyList_Type) return jj_dumpb_sequence(e, obj, depth, ndefault);
    if (type == &PyDict_Type) return jj_dumpb_dict(e, obj, depth, ndefault);
    if (obj == Py_None) return jj_put_literal(e, "null", 4);
    return jj_dumpb_value(e, obj, depth, ndefault);
}

/* The leading floats of a list or tuple (coordinates, embeddings, the pairs of
 * canada.json) in the compact layout, each after its '[' or ',': items 0.. of `items`
 * (of n) as long as they are exact floats. No Python code runs meanwhile, so the caller
 * needs no reference on the sequence before it sees something else, and the position
 * stays in a register with no dispatch per item: through the general loop a pair cost
 * twice orjson's time around its two numbers. Returns the index of the first item that
 * is not an exact float (n when all were), or -1 on error. */
static Py_ssize_t jj_put_float_run(jj_dumpb_enc *e, PyObject *const *items, Py_ssize_t n) {
    enum { ROOM = JJ_DOUBLE_BUF_SIZE + 2 }; /* '[' or ',', a number, and a ']' after it */
    uint8_t *pos = e->w.pos, *end = e->w.end;
    Py_ssize_t i = 0;
    for (; i < n && Py_TYPE(items[i]) == &PyFloat_Type; i++) {
        if (jj_writer_reserve_local(&e->w, &pos, &end, ROOM)) return -1;
        *pos++ = i ? ',' : '[';
        pos = jj_put_float(pos, PyFloat_AS_DOUBLE(items[i]));
    }
    e->w.pos = pos;
    return i;
}

/* The leading ints of a list or tuple (ids, indexes, counts), as jj_put_float_run does
 * floats: exact ints of one machine digit, each after its '[' or ','. Returns the index
 * of the first item left (n when all were written), or -1 on error. */
static Py_ssize_t jj_put_int_run(jj_dumpb_enc *e, PyObject *const *items, Py_ssize_t n) {
    enum { ROOM = JJ_INT_MAX_CHARS + 2 }; /* '[' or ',', a number, and a ']' after it */
    uint8_t *pos = e->w.pos, *end = e->w.end;
    Py_ssize_t i = 0;
    int64_t v;
    for (; i < n && Py_TYPE(items[i]) == &PyLong_Type && jj_compact_int(items[i], &v); i++) {
        if (jj_writer_reserve_local(&e->w, &pos, &end, ROOM)) return -1;
        *pos++ = i ? ',' : '[';
        pos = jj_write_int64(pos, v);
    }
    e->w.pos = pos;
    return i;
}

/* true, false or null (the object is one of them) at pos, which has room for 5 bytes:
 * the position after it. */
static inline uint8_t *jj_put_word(uint8_t *pos, PyObject *word) {
    if (word == Py_True) {
        memcpy(pos, "true", 4);
        return pos + 4;
    }
    if (word == Py_False) {
        memcpy(pos, "false", 5);
        return pos + 5;
    }
    memcpy(pos, "null", 4);
    return pos + 4;
}

/* Items i.. (of n) of a list's or tuple's item array in the compact layout, each after
 * its comma (none before item 0), as long as they are leaves: exact strs, ints, floats,
 * True, False, None. Returns the index of the first item left (a container or another
 * type, nothing of it written; n when all were), or -1 on error. No Python code runs
 * for a leaf, so the array cannot change meanwhile, and the position and the end of the
 * buffer stay in locals: kept in e->w, every byte stored (char typed, so it may alias
 * them) made the compiler reload both, and each str waited on the store of the last
 * one's position (lists of short strs ran at two thirds of orjson's speed). Records
 * that mix strs and numbers
 * (amazon_cellphones.ndjson: five strs, a number, a str, a number, a str) went back to
 * the general loop at every number, and to jj_dumpb_str at every str in quotes. */
static Py_ssize_t jj_put_leaf_run(jj_dumpb_enc *e, PyObject *const *items, Py_ssize_t i, Py_ssize_t n) {
    /* a comma and the longest number, or a comma and "false" */
    enum { ROOM = 1 + (JJ_DOUBLE_BUF_SIZE > JJ_INT_MAX_CHARS ? JJ_DOUBLE_BUF_SIZE : JJ_INT_MAX_CHARS) };
    uint8_t *pos = e->w.pos, *end = e->w.end;
    for (; i < n; i++) {
        PyObject *item = items[i];
        PyTypeObject *type = Py_TYPE(item);
        if (type == &PyUnicode_Type) {
            size_t len;
            if (!jj_inline_ascii(item, &len)) { /* non-ASCII or long: the general str writer */
                if (jj_writer_reserve_local(&e->w, &pos, &end, 1)) return -1;
                pos[0] = ',';
                e->w.pos = pos + (i != 0);
                if (jj_dumpb_str(e, item)) return -1;
                pos = e->w.pos;
                end = e->w.end;
                continue;
            }
            /* room for the escaped form, so a str to escape is redone in place */
            if (jj_writer_reserve_local(&e->w, &pos, &end, 6 * len + 3 + JJ_STR_SLACK)) return -1;
            pos[0] = ',';
            uint8_t *o = pos + (i != 0);
            uint8_t *after = jj_put_ascii_literal(o, item, len, 1);
            if (!after) {
                size_t body = jj_dumpb_ascii_body(jj_ascii_data(item), len, o + 1);
                o[body + 1] = '"';
                after = o + body + 2;
            }
            pos = after;
            continue;
        }
        int64_t v;
        if (type == &PyLong_Type && jj_compact_int(item, &v)) {
            if (jj_writer_reserve_local(&e->w, &pos, &end, ROOM)) return -1;
            pos[0] = ',';
            pos = jj_write_int64(pos + (i != 0), v);
            continue;
        }
        if (type == &PyFloat_Type) {
            if (jj_writer_reserve_local(&e->w, &pos, &end, ROOM)) return -1;
            pos[0] = ',';
            pos += i != 0;
            pos = jj_put_float(pos, PyFloat_AS_DOUBLE(item));
            continue;
        }
        if (item == Py_True || item == Py_False || item == Py_None) {
            if (jj_writer_reserve_local(&e->w, &pos, &end, ROOM)) return -1;
            pos[0] = ',';
            pos += i != 0;
            pos = jj_put_word(pos, item);
            continue;
        }
        break;
    }
    e->w.pos = pos;
    return i;
}

/* The items of a list or tuple from `first` on (those before it are written, with the
 * '['), `items` re-read on every step (a list may change under default). */
static int jj_dumpb_sequence_items(jj_dumpb_enc *e, PyObject *seq, int depth, int ndefault, Py_ssize_t first) {
    int is_list = PyList_Check(seq);
    int compact = !e->opts.indent_2;
    int rc = -1;
    Py_INCREF(seq);
    if (!first && jj_writer_put_byte(&e->w, '[')) goto done;
    for (Py_ssize_t i = first; i < Py_SIZE(seq); i++) {
        PyObject *item = is_list ? PyList_GET_ITEM(seq, i) : PyTuple_GET_ITEM(seq, i);
        PyTypeObject *type = Py_TYPE(item);
        if (type == &PyList_Type || type == &PyDict_Type) { /* nested: straight to its writer */
            if ((i && jj_writer_put_byte(&e->w, ',')) || jj_dumpb_newline(e, depth + 1)) goto done;
            if (type == &PyList_Type ? jj_dumpb_sequence(e, item, depth + 1, ndefault)
                                     : jj_dumpb_dict(e, item, depth + 1, ndefault))
                goto done;
            continue;
        }
        if (compact) { /* the leaves from here */
            PyObject *const *items = is_list ? ((PyListObject *)seq)->ob_item : ((PyTupleObject *)seq)->ob_item;
            i = jj_put_leaf_run(e, items, i, Py_SIZE(seq));
            if (i < 0) goto done;
            if (i >= Py_SIZE(seq)) break;
            item = items[i];
        }
        if (i && jj_writer_put_byte(&e->w, ',')) goto done;
        if (jj_dumpb_newline(e, depth + 1)) goto done;
        if (jj_dumpb_item(e, item, depth + 1, ndefault)) goto done;
    }
    if (jj_dumpb_newline(e, depth)) goto done;
    rc = jj_writer_put_byte(&e->w, ']');
done:
    Py_DECREF(seq);
    return rc;
}

/* A list or tuple. The leading floats or ints go in a run first (compact layout); when
 * that was all of it, the sequence is done here, inlined in the loops of the containers
 * around it: the arrays of numbers (canada.json's coordinate pairs, vectors) then cost
 * no call of their own. */
static inline int jj_dumpb_sequence(jj_dumpb_enc *e, PyObject *seq, int depth, int ndefault) {
    if (depth >= JJ_ENC_MAX_DEPTH) return jj_dumpb_fail(e, JJ_MSG_RECURSION);
    Py_ssize_t n = Py_SIZE(seq);
    if (n == 0) return jj_put_literal(e, "[]", 2);
    Py_ssize_t first = 0; /* items written before the general loop, with the '[' */
    if (!e->opts.indent_2) {
        PyObject *const *items = PyList_Check(seq) ? ((PyListObject *)seq)->ob_item : ((PyTupleObject *)seq)->ob_item;
        PyTypeObject *first_type = Py_TYPE(items[0]);
        if (first_type == &PyFloat_Type || first_type == &PyLong_Type) {
            first = first_type == &PyFloat_Type ? jj_put_float_run(e, items, n) : jj_put_int_run(e, items, n);
            if (first < 0) return -1;
            if (first == n) return jj_writer_put_byte(&e->w, ']');
        }
    }
    return jj_dumpb_sequence_items(e, seq, depth, ndefault, first);
}

/* The pairs of a dict from entry position `pos` on (PyDict_Next's positions), then the
 * '}': the '{' and the pairs before pos are written, `first` when none of them was. */
static JJ_NOINLINE int jj_dumpb_dict_pairs(jj_dumpb_enc *e, PyObject *dict, int depth, int ndefault, Py_ssize_t pos,
                               int first) {
    PyObject *key, *value;
    int compact = !e->opts.indent_2;
    while (jj_dict_next(dict, &pos, &key, &value)) {
        if (!PyUnicode_CheckExact(key)) return jj_dumpb_fail(e, JJ_MSG_KEY_STR);
        /* the usual key, short ASCII: ',' "key" ':' with one reservation */
        size_t n = (size_t)PyUnicode_GET_LENGTH(key);
        if (compact && PyUnicode_IS_COMPACT_ASCII(key) && n <= JJ_SHORT_STR) {
            if (jj_writer_reserve(&e->w, JJ_SHORT_STR + 4)) return -1;
            uint8_t *o = e->w.pos;
            o[0] = ',';
            o += !first;
            o[0] = '"';
            if (!jj_copy_short_str(o + 1, key, n)) {
                o[n + 1] = '"';
                o[n + 2] = ':';
                e->w.pos = o + n + 3;
                first = 0;
                if (jj_dumpb_item(e, value, depth + 1, ndefault)) return -1;
                continue;
            }
        }
        if (!first && jj_writer_put_byte(&e->w, ',')) return -1;
        first = 0;
        if (jj_dumpb_newline(e, depth + 1)) return -1;
        if (jj_dumpb_str(e, key) || jj_dumpb_colon(e)) return -1;
        if (jj_dumpb_item(e, value, depth + 1, ndefault)) return -1;
    }
    if (jj_dumpb_newline(e, depth)) return -1;
    return jj_writer_put_byte(&e->w, '}');
}

#ifdef JJ_DICT_LAYOUT_KNOWN
/* The compact layout's pairs of a dict whose table holds str keys only (the usual
 * dict), read straight from the entries with the position and the end of the buffer in
 * locals (see jj_put_leaf_run), and the leaf values (str, int, float, true, false,
 * null) written in place: no Python code can run meanwhile, so the table needs no
 * re-reading between them. Any other value goes through jj_dumpb_item, which may call
 * `default` and change the dict; the table is read again after it. apache_builds.json
 * (small dicts of short strs) ran 6% more instructions than ssrjson through the
 * general loop, which re-read the table and re-synced the writer on every pair.
 * The '{' goes with the first key. Returns 1 when the dict is written, '}' included; 0
 * when the rest is jj_dumpb_dict_pairs's, from entry position *pos_out with
 * *first_out (the '{' written); -1 on error. */
static JJ_ALWAYS_INLINE int jj_dumpb_str_table(jj_dumpb_enc *e, PyObject *dict, int depth, int ndefault,
                                               Py_ssize_t *pos_out, int *first_out) {
    PyDictObject *mp = (PyDictObject *)dict;
    Py_ssize_t i = 0;
    int first = 1; /* nothing written, not even the '{' */
    for (;;) {
        const jj_dict_keys *keys = (const jj_dict_keys *)(const void *)mp->ma_keys;
        if (mp->ma_values != NULL || keys->dk_kind != JJ_DICT_KEYS_UNICODE) break;
        Py_ssize_t n = keys->dk_nentries;
        const jj_dict_str_entry *ep =
            (const jj_dict_str_entry *)(const void *)(keys->dk_indices + ((size_t)1 << keys->dk_log2_index_bytes));
        uint8_t *pos = e->w.pos, *end = e->w.end;
        for (; i < n; i++) {
            PyObject *value = ep[i].me_value;
            if (value == NULL) continue;
            if (i + 1 < n) JJ_PREFETCH(ep[i + 1].me_value);
            PyObject *key = ep[i].me_key;
            if (Py_TYPE(key) != &PyUnicode_Type || !PyUnicode_IS_COMPACT_ASCII(key)) break;
            size_t kn = (size_t)PyUnicode_GET_LENGTH(key);
            if (kn > JJ_SHORT_STR) break;
            if (jj_writer_reserve_local(&e->w, &pos, &end, JJ_SHORT_STR + 4)) return -1;
            pos[0] = first ? '{' : ',';
            uint8_t *o = pos + 1;
            o[0] = '"';
            if (jj_copy_short_str(o + 1, key, kn)) break; /* to escape: nothing committed */
            o[kn + 1] = '"';
            o[kn + 2] = ':';
            pos = o + kn + 3;
            first = 0;
            PyTypeObject *type = Py_TYPE(value);
            if (type == &PyUnicode_Type) {
                size_t vn;
                if (jj_inline_ascii(value, &vn)) {
                    if (jj_writer_reserve_local(&e->w, &pos, &end, vn + 18)) return -1;
                    uint8_t *after = jj_put_ascii_literal(pos, value, vn, 1);
                    if (after) {
                        pos = after;
                        continue;
                    }
                }
                e->w.pos = pos;
                if (jj_dumpb_str(e, value)) return -1;
                pos = e->w.pos;
                end = e->w.end;
                continue;
            }
            int64_t v;
            if (type == &PyLong_Type && jj_compact_int(value, &v)) {
                if (jj_writer_reserve_local(&e->w, &pos, &end, JJ_INT_MAX_CHARS)) return -1;
                pos = jj_write_int64(pos, v);
                continue;
            }
            if (type == &PyFloat_Type) {
                if (jj_writer_reserve_local(&e->w, &pos, &end, JJ_DOUBLE_BUF_SIZE)) return -1;
                pos = jj_put_float(pos, PyFloat_AS_DOUBLE(value));
                continue;
            }
            if (value == Py_True || value == Py_False || value == Py_None) {
                if (jj_writer_reserve_local(&e->w, &pos, &end, 5)) return -1;
                pos = jj_put_word(pos, value);
                continue;
            }
            /* containers and the rest: Python code may run, the table is read again */
            e->w.pos = pos;
            if (jj_dumpb_item(e, value, depth + 1, ndefault)) return -1;
            pos = NULL;
            i++;
            break;
        }
        if (pos == NULL) continue;
        e->w.pos = pos;
        if (i >= n && !first) { /* all written */
            if (jj_writer_put_byte(&e->w, '}')) return -1;
            return 1;
        }
        break; /* a key for the general loop (this entry again there), or an empty table */
    }
    if (first && jj_writer_put_byte(&e->w, '{')) return -1;
    *pos_out = i;
    *first_out = first;
    return 0;
}
#endif

static int jj_dumpb_dict(jj_dumpb_enc *e, PyObject *dict, int depth, int ndefault) {
    if (depth >= JJ_ENC_MAX_DEPTH) return jj_dumpb_fail(e, JJ_MSG_RECURSION);
    if (PyDict_GET_SIZE(dict) == 0) return jj_put_literal(e, "{}", 2);
    if (e->opts.sort_keys | e->opts.non_str_keys) return jj_dumpb_dict_keys(e, dict, depth, ndefault);
    int rc;
    Py_INCREF(dict);
    Py_ssize_t pos = 0;
    int first = 1;
#ifdef JJ_DICT_LAYOUT_KNOWN
    if (!e->opts.indent_2) {
        rc = jj_dumpb_str_table(e, dict, depth, ndefault, &pos, &first);
        if (rc) {
            rc = rc < 0 ? -1 : 0;
            goto done;
        }
    } else
#endif
    if (jj_writer_put_byte(&e->w, '{')) {
        rc = -1;
        goto done;
    }
    rc = jj_dumpb_dict_pairs(e, dict, depth, ndefault, pos, first);
done:
    Py_DECREF(dict);
    return rc;
}

int jj_dumpb_value(jj_dumpb_enc *e, PyObject *obj, int depth, int ndefault) {
    PyTypeObject *type = Py_TYPE(obj);
    if (type == &PyUnicode_Type) return jj_dumpb_str_fast(e, obj);
    if (type == &PyLong_Type) return jj_dumpb_int(e, obj);
    if (type == &PyFloat_Type) return jj_dumpb_float(e, obj);
    if (type == &PyDict_Type) return jj_dumpb_dict(e, obj, depth, ndefault);
    if (type == &PyList_Type) return jj_dumpb_sequence(e, obj, depth, ndefault);
    if (obj == Py_True) return jj_put_literal(e, "true", 4);
    if (obj == Py_False) return jj_put_literal(e, "false", 5);
    if (obj == Py_None) return jj_put_literal(e, "null", 4);
    if (type == &PyTuple_Type) return jj_dumpb_sequence(e, obj, depth, ndefault);
    return jj_dumpb_other(e, obj, depth, ndefault);
}

/* Subclasses of str/int/list/dict come back here from jj_dumpb_other. */
int jj_dumpb_subclass(jj_dumpb_enc *e, PyObject *obj, int depth, int ndefault);
int jj_dumpb_subclass(jj_dumpb_enc *e, PyObject *obj, int depth, int ndefault) {
    if (PyUnicode_Check(obj)) return jj_dumpb_str(e, obj);
    if (PyLong_Check(obj)) return jj_dumpb_int_slow(e, obj);
    if (PyList_Check(obj)) return jj_dumpb_sequence(e, obj, depth, ndefault);
    return jj_dumpb_dict(e, obj, depth, ndefault);
}

/* ---- the module function ---- */

/* orjson's option check: None, or an exact int within the known bits. Like orjson
 * 3.13 (which reads the int's lowest 30-bit digit), an int whose low 30 bits are all
 * zero (1 << 40, -(1 << 64)...) is taken as no options. */
static int jj_parse_option(jj_state *st, PyObject *option, uint32_t *opts) {
    *opts = 0;
    if (!option || option == Py_None) return 0;
    if (PyLong_CheckExact(option)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(option, &overflow);
        if (!overflow && v >= 0 && v <= (long long)JJ_OPT_ALL) {
            *opts = (uint32_t)v;
            return 0;
        }
        /* two's complement keeps the trailing zeros of -x, so the mask works for both signs */
        unsigned long long low = PyLong_AsUnsignedLongLongMask(option);
        if (!(low == (unsigned long long)-1 && PyErr_Occurred()) && (low & 0x3FFFFFFFu) == 0) return 0;
        PyErr_Clear();
    }
    PyErr_SetString(st->JSONEncodeError, JJ_MSG_INVALID_OPTS);
    return -1;
}

/* dumpb(obj, /, default=None, option=None): arguments as orjson.dumps takes them. */
static int jj_parse_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **obj,
                         PyObject **default_fn, PyObject **option) {
    *obj = *default_fn = *option = NULL;
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, JJ_MSG_MISSING_OBJ);
        return -1;
    }
    *obj = args[0];
    if (nargs >= 2) *default_fn = args[1];
    if (nargs >= 3) *option = args[2];
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        PyObject **slot = NULL;
        const char *label = NULL;
        if (PyUnicode_CompareWithASCIIString(name, "default") == 0) {
            slot = default_fn;
            label = "default";
        } else if (PyUnicode_CompareWithASCIIString(name, "option") == 0) {
            slot = option;
            label = "option";
        } else {
            PyErr_SetString(PyExc_TypeError, JJ_MSG_UNEXPECTED_KW);
            return -1;
        }
        if (*slot) {
            PyErr_Format(PyExc_TypeError, JJ_MSG_MULTIPLE_VALUES, label);
            return -1;
        }
        *slot = args[nargs + i];
    }
    /* default=None is kept: orjson takes any given default, None included, and calls it,
     * so an unsupported type raises with "'NoneType' object is not callable" as cause */
    return 0;
}

/* The result: the bytes object as it is, its size set to what was written, when it is
 * big and its slack small; else shrunk by jj_writer_finish. glibc serves big blocks with
 * mmap below a threshold it raises to the size of the largest such block freed: a
 * result shrunk to its length set that threshold to the length, the next call's first
 * buffer (an eighth more) was above it, and every call of a 280 KB dumpb_many or dumpb
 * got fresh pages, faulted in one by one: 3.4x the time of a warm buffer. Kept at its
 * capacity, the result raises the threshold past the next call's buffer, which then
 * comes from the heap, warm. The slack kept is at most a quarter of the length. */
#define JJ_KEEP_SLACK_FROM ((size_t)64 << 10)
static PyObject *jj_dumpb_finish(jj_writer *w) {
    PyObject *obj = jj_writer_obj(w);
    size_t len = jj_writer_len(w), cap = (size_t)(w->end - w->start);
    if (!obj || w->error || len < JJ_KEEP_SLACK_FROM || cap - len > len / 4) return jj_writer_finish(w);
    Py_SET_SIZE(obj, (Py_ssize_t)len);
    PyBytes_AS_STRING(obj)[len] = '\0';
    w->ctx = NULL;
    w->start = w->pos = w->end = NULL;
    return obj;
}

PyObject *jj_dumpb(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    jj_dumpb_enc e;
    PyObject *obj, *option;
    e.st = (jj_state *)PyModule_GetState(module);
    if (jj_parse_args(args, nargs, kwnames, &obj, &e.default_fn, &option)) return NULL;
    uint32_t bits;
    if (jj_parse_option(e.st, option, &bits)) return NULL;
    e.opts = jj_dumpb_opts_of(bits);
    if (jj_writer_start_bytes(&e.w, jj_writer_first_capacity(e.st->dumpb_last_len))) return NULL;
    if (jj_dumpb_value(&e, obj, 0, 0) ||
        (e.opts.append_newline && jj_writer_put_byte(&e.w, '\n'))) {
        jj_writer_abandon(&e.w);
        return NULL;
    }
    e.st->dumpb_last_len = jj_writer_len(&e.w);
    return jj_dumpb_finish(&e.w);
}

/* _dumpb_many(records, default, option): each record as dumpb writes it, then "\n", in
 * one bytes object. python/jetjson checks the keywords and refuses OPT_INDENT_2. */
PyObject *jj_dumpb_many(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    jj_dumpb_enc e;
    e.st = (jj_state *)PyModule_GetState(module);
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "_dumpb_many takes 3 arguments");
        return NULL;
    }
    e.default_fn = args[1];
    uint32_t bits;
    if (jj_parse_option(e.st, args[2], &bits)) return NULL;
    e.opts = jj_dumpb_opts_of(bits);
    PyObject *records = args[0];
    int exact_seq = PyList_CheckExact(records) || PyTuple_CheckExact(records);
    /* a list or tuple is walked in place (no iterator object, no call per record), its
     * size and items re-read on every step: `default` may change the list */
    PyObject *iter = exact_seq ? Py_NewRef(records) : PyObject_GetIter(records);
    if (!iter) return NULL;
    if (jj_writer_start_bytes(&e.w, jj_writer_first_capacity(e.st->dumpb_many_last_len))) {
        Py_DECREF(iter);
        return NULL;
    }
    for (Py_ssize_t i = 0;; i++) {
        PyObject *record;
        if (exact_seq) {
            if (i >= Py_SIZE(iter)) break;
            record = Py_NewRef(PySequence_Fast_GET_ITEM(iter, i));
        } else if (!(record = PyIter_Next(iter))) {
            break;
        }
        int failed = jj_dumpb_value(&e, record, 0, 0) || jj_writer_put_byte(&e.w, '\n');
        Py_DECREF(record);
        if (failed) break;
    }
    Py_DECREF(iter);
    if (PyErr_Occurred()) {
        jj_writer_abandon(&e.w);
        return NULL;
    }
    e.st->dumpb_many_last_len = jj_writer_len(&e.w);
    return jj_dumpb_finish(&e.w);
}
