/* The typed converter: walks the parsed tape once, building each value as its compiled
 * node says. Values the type does not name are stepped over on the tape (the index
 * of a container's END is in its first word), never built. Recursion follows the
 * nesting of typed containers only (Any subtrees are built iteratively by decode.c),
 * each level counted with Py_EnterRecursiveCall. */
#include <string.h>

#include "typed.h"
#include "jetjson_number.h"

typedef struct jt_ctx {
    jj_state *st;
    jj_parser *p;       /* for jj_lazy_finish */
    const jj_doc *doc;  /* jj_parser_result(p): its string buffer may grow as entries finish */
    const uint64_t *tape;
    const uint8_t *input;
    size_t len;
    jj_tpath err;
} jt_ctx;

/* The tape is lazy (jj_parse_lazy): strings and numbers are converted only where the
 * type reads them, so what it skips costs the structural walk alone. */
static inline int jt_finish(jt_ctx *c, size_t t) {
    if (!jj_tape_is_raw(c->tape, t)) return 0;
    if (jj_lazy_finish(c->p, c->input, c->len, t) == JJ_OK) return 0;
    PyErr_NoMemory();
    return -1;
}

static inline PyObject *jt_value(jt_ctx *c, const jj_tnode *n, size_t *pt);

static inline const uint8_t *jt_str(const jt_ctx *c, uint64_t w) {
    return (jj_tape_str_flags(w) & JJ_STR_IN_INPUT ? c->input : c->doc->strings) + jj_tape_str_offset(w);
}

static PyObject *jt_lookup(jt_ctx *c, PyObject *map, PyObject *value) {
    PyObject *hit = map ? PyDict_GetItemWithError(map, value) : NULL;
    if (hit) {
        Py_DECREF(value);
        return Py_NewRef(hit);
    }
    if (!PyErr_Occurred()) jj_tpath_enum(&c->err, value);
    Py_DECREF(value);
    return NULL;
}

static PyObject *jt_int(jt_ctx *c, size_t t) {
    uint64_t w = c->tape[t];
    switch (jj_tape_type(w)) {
    case JJ_INT64: return PyLong_FromLongLong((long long)(int64_t)c->tape[t + 1]);
    case JJ_UINT64: return PyLong_FromUnsignedLongLong((unsigned long long)c->tape[t + 1]);
    default: return jj_tape_big_int(c->doc, c->input, t);
    }
}

/* 8 bytes at s as a little-endian word (s[0] the lowest byte), whatever the machine. */
static inline uint64_t jt_load8(const uint8_t *s) {
    uint64_t x;
    memcpy(&x, s, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    x = __builtin_bswap64(x);
#endif
    return x;
}

/* The value of the 8 ASCII digits at s (s[0] the most significant), or -1 when one of
 * them is not a digit: the engine's word-at-a-time digit helpers. */
static inline long long jt_eight_digits(const uint8_t *s) {
    uint64_t x = jj_fast_load64(s);
    return jj_fast_non_digits(x, 8) ? -1 : (long long)jj_fast_digits_value(x, 8);
}

/* A raw number's text that is an integer of at most 18 digits (an int64 whatever they
 * are), read here without finishing the tape entry: 1 and *out, else 0. Texts of 8
 * digits or more take their last 8 in one step (citm's 9-digit ids). */
static inline int jt_short_int(const uint8_t *s, size_t len, long long *out) {
    size_t i = len && s[0] == '-';
    if (len - i == 0 || len - i > 18) return 0;
    long long v = 0;
    if (len - i >= 8) {
        size_t head = len - 8;
        for (size_t k = i; k < head; k++) {
            unsigned d = (unsigned)s[k] - '0';
            if (d > 9) return 0;
            v = v * 10 + (long long)d;
        }
        long long tail = jt_eight_digits(s + head);
        if (tail < 0) return 0;
        v = v * 100000000 + tail;
        *out = i ? -v : v;
        return 1;
    }
    for (size_t k = i; k < len; k++) {
        unsigned d = (unsigned)s[k] - '0';
        if (d > 9) return 0; /* a fraction or an exponent */
        v = v * 10 + (long long)d;
    }
    *out = i ? -v : v;
    return 1;
}

static PyObject *jt_int_as_float(jt_ctx *c, size_t t) {
    uint64_t w = c->tape[t];
    if (jj_tape_type(w) == JJ_INT64) return PyFloat_FromDouble((double)(int64_t)c->tape[t + 1]);
    if (jj_tape_type(w) == JJ_UINT64) return PyFloat_FromDouble((double)c->tape[t + 1]);
    PyObject *big = jj_tape_big_int(c->doc, c->input, t);
    if (!big) return NULL;
    double d = PyLong_AsDouble(big);
    Py_DECREF(big);
    if (d == -1.0 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
        PyErr_Clear();
        PyObject *msg = PyUnicode_FromString("Number out of range");
        if (msg) jj_tpath_fail(&c->err, msg);
        return NULL;
    }
    return PyFloat_FromDouble(d);
}

/* ---- arrays ---- */

PyObject *jj_typed_length_error(jj_tpath *e, const jj_tnode *n) {
    PyObject *msg = n->nrequired == n->nitems
                        ? PyUnicode_FromFormat("Expected `array` of length %zd", n->nitems)
                        : PyUnicode_FromFormat("Expected `array` of length %zd to %zd", n->nrequired, n->nitems);
    if (msg) jj_tpath_fail(e, msg);
    return NULL;
}

/* Items of the array whose first item is at *pt into a new tuple or list `seq` (len n). */
static int jt_fill(jt_ctx *c, PyObject **slots, Py_ssize_t len, const jj_tnode *item, jj_tnode *const *items,
                   size_t *pt) {
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *v = jt_value(c, items ? items[i] : item, pt);
        if (!v) {
            jj_tpath_index(&c->err, i);
            return -1;
        }
        slots[i] = v;
    }
    return 0;
}

static PyObject *jt_array(jt_ctx *c, const jj_tnode *n, size_t *pt) {
    size_t t = *pt;
    Py_ssize_t len = (Py_ssize_t)c->tape[t + 1];
    size_t end = (size_t)jj_tape_payload(c->tape[t]);
    t += 2;
    PyObject *result = NULL;
    switch (n->array_kind) {
    case JT_LIST:
        result = PyList_New(len);
        if (result && jt_fill(c, ((PyListObject *)result)->ob_item, len, n->item, NULL, &t) < 0) Py_CLEAR(result);
        break;
    case JT_VARTUPLE:
        result = PyTuple_New(len);
        if (result && jt_fill(c, ((PyTupleObject *)result)->ob_item, len, n->item, NULL, &t) < 0) Py_CLEAR(result);
        break;
    case JT_TUPLE:
    case JT_NAMEDTUPLE: {
        /* the items there are first, then the length, as msgspec checks them */
        PyObject *args = PyTuple_New(n->nitems);
        if (!args) return NULL;
        PyObject **slots = ((PyTupleObject *)args)->ob_item;
        Py_ssize_t have = len < n->nitems ? len : n->nitems;
        if (jt_fill(c, slots, have, NULL, n->items, &t) < 0) {
        } else if (len < n->nrequired || len > n->nitems) {
            jj_typed_length_error(&c->err, n);
        } else if (n->array_kind == JT_TUPLE) {
            result = Py_NewRef(args);
        } else {
            for (Py_ssize_t i = len; i < n->nitems; i++) slots[i] = Py_NewRef(n->fields[i].dflt);
            result = PyObject_Call(n->cls, args, NULL);
        }
        Py_DECREF(args);
        break;
    }
    default: { /* set, frozenset */
        result = n->array_kind == JT_SET ? PySet_New(NULL) : PyFrozenSet_New(NULL);
        for (Py_ssize_t i = 0; result && i < len; i++) {
            PyObject *v = jt_value(c, n->item, &t);
            if (!v) jj_tpath_index(&c->err, i);
            if (!v || PySet_Add(result, v) < 0) Py_CLEAR(result);
            Py_XDECREF(v);
        }
        break;
    }
    }
    *pt = end + 1;
    return result;
}

/* ---- objects ---- */

/* A JSON key as an int: optional minus, then digits without a leading zero, as msgspec
 * reads int keys. */
static PyObject *jt_int_key(const uint8_t *s, size_t len) {
    size_t i = len > 0 && s[0] == '-';
    int ok = i < len && (s[i] != '0' || i + 1 == len);
    for (size_t k = i; ok && k < len; k++) ok = s[k] >= '0' && s[k] <= '9';
    return ok ? jj_int_from_digits(s, len) : NULL;
}

static PyObject *jt_key(jt_ctx *c, const jj_tnode *k, size_t t) {
    PyObject *key;
    if (jt_finish(c, t) < 0) return NULL;
    if (k->kinds & (JT_STR | JT_ANY)) {
        if (k->str_kind > JT_LOOKUP) {
            key = jj_typed_str_convert(&c->err, k, jt_str(c, c->tape[t]), jj_tape_str_bytes(c->tape[t + 1]));
            if (!key && c->err.segments) c->err.in_key = 1;
            return key;
        }
        key = jj_tape_key(c->st, c->doc, c->input, t);
        if (!key || k->kinds & JT_ANY || k->str_kind == JT_PLAIN) return key;
        key = jt_lookup(c, k->str_map, key);
    } else {
        const uint8_t *s = jt_str(c, c->tape[t]);
        key = jt_int_key(s, jj_tape_str_bytes(c->tape[t + 1]));
        if (!key) {
            if (!PyErr_Occurred()) jj_tpath_expected(&c->err, k, "str");
        } else if (k->int_kind == JT_LOOKUP) {
            key = jt_lookup(c, k->int_map, key);
        }
    }
    if (!key && c->err.segments) c->err.in_key = 1;
    return key;
}

static PyObject *jt_dict(jt_ctx *c, const jj_tnode *n, size_t t, Py_ssize_t pairs) {
    PyObject *dict = PyDict_New();
    for (Py_ssize_t i = 0; dict && i < pairs; i++) {
        PyObject *key = jt_key(c, n->key, t);
        t += 2;
        PyObject *value = key ? jt_value(c, n->item, &t) : NULL;
        if (key && !value) jj_tpath_dict_value(&c->err);
        if (!value || PyDict_SetItem(dict, key, value) < 0) Py_CLEAR(dict);
        Py_XDECREF(key);
        Py_XDECREF(value);
    }
    return dict;
}

/* memcmp(a, b, len) == 0 without a call: keys are short. */
static inline int jt_same_bytes(const uint8_t *a, const uint8_t *b, size_t len) {
    for (; len >= 8; a += 8, b += 8, len -= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y) return 0;
    }
    if (len >= 4) {
        uint32_t x, y;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        if (x != y) return 0;
        a += 4, b += 4, len -= 4;
    }
    for (; len; a++, b++, len--)
        if (*a != *b) return 0;
    return 1;
}

/* The field named by the key at tape[t]: the one slot of the node's key table, or,
 * without a table (or for a key not in the input as is), searched from the one after
 * the last match (keys mostly come in field order); -1 when none, -2 on an error. */
#if defined(__GNUC__) || defined(__clang__)
#define JT_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define JT_ALWAYS_INLINE inline
#endif

/* (inlined in both record walks: a call per key costs more than the copy) */
static JT_ALWAYS_INLINE Py_ssize_t jt_field_at(jt_ctx *c, const jj_tnode *n, size_t t, Py_ssize_t *cursor) {
    /* an unescaped raw key is its own UTF-8 in the input, as the field names are kept */
    if ((jj_tape_str_flags(c->tape[t]) & JJ_STR_ESCAPED) && jt_finish(c, t) < 0) return -2;
    size_t len = jj_tape_str_bytes(c->tape[t + 1]);
    /* most keys a type skips have a length no field has */
    if (!(n->key_lengths & UINT64_C(1) << (len < 63 ? len : 63))) return -1;
    const uint8_t *s = jt_str(c, c->tape[t]);
    Py_ssize_t count = n->nfields;
    Py_ssize_t i = *cursor;
    if ((jj_tape_str_flags(c->tape[t]) & JJ_STR_IN_INPUT) && (size_t)(c->input + c->len - s) >= 8) {
        /* the key's first 8 bytes in one compare (bytes past a short key masked off) */
        uint64_t head = jt_load8(s);
        if (len < 8) head &= (UINT64_C(1) << (8 * len)) - 1;
        if (n->key_mult) { /* one slot to look at */
            uint64_t tail = len > 8 ? jt_load8(s + len - 8) : 0;
            unsigned slot = n->key_table[jj_tkey_hash(head, tail, len, n->key_mult)];
            if (!slot) return -1;
            const jj_tfield *f = &n->fields[slot - 1];
            if (f->head == head && f->len == len && (len <= 8 || jt_same_bytes((const uint8_t *)f->utf8 + 8, s + 8, len - 8)))
                return slot - 1;
            return -1;
        }
        for (Py_ssize_t k = 0; k < count; k++, i++) {
            if (i == count) i = 0;
            const jj_tfield *f = &n->fields[i];
            if (f->head == head && f->len == len && (len <= 8 || jt_same_bytes((const uint8_t *)f->utf8 + 8, s + 8, len - 8)) &&
                f->init) {
                *cursor = i + 1 == count ? 0 : i + 1;
                return i;
            }
        }
        return -1;
    }
    for (Py_ssize_t k = 0; k < count; k++, i++) {
        if (i == count) i = 0;
        const jj_tfield *f = &n->fields[i];
        if (f->len == len && jt_same_bytes((const uint8_t *)f->utf8, s, len) && f->init) {
            *cursor = i + 1 == count ? 0 : i + 1;
            return i;
        }
    }
    return -1;
}

static int jt_missing(jj_tpath *e, const jj_tfield *f) {
    PyObject *msg = PyUnicode_FromFormat("Object missing required field `%U`", f->key);
    if (msg) jj_tpath_fail(e, msg);
    return -1;
}

static PyObject *jt_post_init(jj_tpath *e, PyObject *obj) {
    PyObject *r = PyObject_CallMethod(obj, "__post_init__", NULL);
    if (!r) {
        jj_tpath_from_exception(e);
        Py_DECREF(obj);
        return NULL;
    }
    Py_DECREF(r);
    return obj;
}

/* A dataclass from its decoded field values (stolen, NULL where absent), set as the
 * generated __init__ sets them, in field order, then __post_init__. */
static PyObject *jt_dataclass(jj_tpath *e, const jj_tnode *n, PyObject **vals) {
    PyTypeObject *cls = (PyTypeObject *)n->cls;
    /* frozen: object.__setattr__, as the generated __init__ does; else self.name = v,
     * straight to the generic setter when the class has no __setattr__ of its own */
    int generic = n->frozen || cls->tp_setattro == PyObject_GenericSetAttr;
    /* a class's own __setattr__ sees no field before all required ones are known to be
     * there; the generic setter has no effect but the instance's, so for it a missing
     * field is found in the loop that sets them, on the branch an absent value takes */
    for (Py_ssize_t i = 0; !generic && i < n->nfields; i++) {
        if (!vals[i] && n->fields[i].required) return jt_missing(e, &n->fields[i]), NULL;
    }
    PyObject *obj = cls->tp_new(cls, n->no_args, NULL);
    if (!obj) return NULL;
    int direct = n->slots_version && cls->tp_version_tag == n->slots_version;
    for (Py_ssize_t i = 0; i < n->nfields; i++) {
        const jj_tfield *f = &n->fields[i];
        PyObject *v = vals[i];
        vals[i] = NULL;
        if (!v) {
            if (f->required) {
                jt_missing(e, f);
                goto fail;
            }
            if (f->factory) {
                if (!(v = PyObject_CallNoArgs(f->factory))) goto fail;
            } else if (f->dflt && (f->init || n->slots)) {
                v = Py_NewRef(f->dflt);
            } else {
                continue; /* init=False without a default: __init__ leaves it unset too */
            }
        }
        if (direct && f->slot_offset) { /* what the member's setter does */
            Py_XSETREF(*(PyObject **)((char *)obj + f->slot_offset), v);
            continue;
        }
        int rc = generic ? PyObject_GenericSetAttr(obj, f->name, v) : PyObject_SetAttr(obj, f->name, v);
        Py_DECREF(v);
        if (rc < 0) goto fail;
    }
    return n->post_init ? jt_post_init(e, obj) : obj;
fail:
    Py_DECREF(obj);
    return NULL;
}

static PyObject *jt_typeddict(jj_tpath *e, const jj_tnode *n, PyObject **vals) {
    for (Py_ssize_t i = 0; i < n->nfields; i++) {
        if (!vals[i] && n->fields[i].required) return jt_missing(e, &n->fields[i]), NULL;
    }
    PyObject *dict = PyDict_New();
    for (Py_ssize_t i = 0; dict && i < n->nfields; i++) {
        if (vals[i] && PyDict_SetItem(dict, n->fields[i].name, vals[i]) < 0) Py_CLEAR(dict);
    }
    return dict;
}

PyObject *jj_typed_record(jj_tpath *e, const jj_tnode *n, PyObject **vals) {
    return n->object_kind == JT_DATACLASS ? jt_dataclass(e, n, vals) : jt_typeddict(e, n, vals);
}

#define JT_FIELDS_ON_STACK 32

#ifdef Py_GIL_DISABLED
#define JT_PLANS_UNDER_GIL 0
#else
#define JT_PLANS_UNDER_GIL 1
#endif

/* Sets one field the way jt_dataclass does for the generic setter; steals v. */
static inline int jt_set_generic(PyObject *obj, const jj_tfield *f, PyObject *v) {
    int rc = PyObject_GenericSetAttr(obj, f->name, v);
    Py_DECREF(v);
    return rc;
}

/* A dataclass made by object.__new__ whose fields go through the generic setter (no
 * __slots__ member among them): the same instance as jt_dataclass builds, with the
 * fields set as their values are decoded while the keys come in field order (no value
 * is held, no second loop). From the first key out of that order on, the values wait
 * in vals and the fields not yet set are set after the last key, in field order, with
 * the defaults; a key met again sets its field again (the last one wins, in place). */
static PyObject *jt_record_in_order(jt_ctx *c, const jj_tnode *n, size_t t, Py_ssize_t pairs) {
    PyTypeObject *cls = (PyTypeObject *)n->cls;
    Py_ssize_t count = n->nfields;
    PyObject *local[JT_FIELDS_ON_STACK];
    PyObject **vals = NULL; /* set when a key came out of order */
    PyObject *obj = cls->tp_new(cls, n->no_args, NULL);
    if (!obj) return NULL;
    Py_ssize_t next = 0; /* fields [0, next) are set */
    Py_ssize_t cursor = 0;
    for (Py_ssize_t i = 0; i < pairs; i++) {
        Py_ssize_t f = jt_field_at(c, n, t, &cursor);
        if (f == -2) goto fail;
        if (f < 0 && c->err.flags & JJ_TYPED_FORBID_UNKNOWN) {
            if (jt_finish(c, t) == 0) jj_tpath_unknown(&c->err, jj_tape_key(c->st, c->doc, c->input, t));
            goto fail;
        }
        t += 2;
        if (f < 0) {
            t = jj_tape_skip(c->tape, t);
            continue;
        }
        PyObject *v = jt_value(c, n->fields[f].type, &t);
        if (!v) {
            jj_tpath_field(&c->err, n->fields[f].key);
            goto fail;
        }
        if (f < next) {
            if (jt_set_generic(obj, &n->fields[f], v) < 0) goto fail;
            continue;
        }
        if (!vals && f == next) {
            if (jt_set_generic(obj, &n->fields[f], v) < 0) goto fail;
            next++;
            continue;
        }
        if (!vals) {
            vals = count <= JT_FIELDS_ON_STACK ? local : PyMem_Malloc((size_t)count * sizeof *vals);
            if (!vals) {
                Py_DECREF(v);
                PyErr_NoMemory();
                goto fail;
            }
            /* (a fixed 8 slots are cleared by inline stores, no call) */
            if (count <= 8) memset(vals, 0, 8 * sizeof *vals);
            else memset(vals, 0, (size_t)count * sizeof *vals);
        }
        Py_XSETREF(vals[f], v);
    }
    for (Py_ssize_t i = next; i < count; i++) {
        const jj_tfield *f = &n->fields[i];
        PyObject *v = NULL;
        if (vals) {
            v = vals[i];
            vals[i] = NULL;
        }
        if (!v) {
            if (f->required) {
                jt_missing(&c->err, f);
                goto fail;
            }
            if (f->factory) {
                if (!(v = PyObject_CallNoArgs(f->factory))) goto fail;
            } else if (f->dflt && (f->init || n->slots)) {
                v = Py_NewRef(f->dflt);
            } else {
                continue; /* init=False without a default: __init__ leaves it unset too */
            }
        }
        if (jt_set_generic(obj, f, v) < 0) goto fail;
    }
    if (vals && vals != local) PyMem_Free(vals);
    return n->post_init ? jt_post_init(&c->err, obj) : obj;
fail:
    if (vals) {
        for (Py_ssize_t i = 0; i < count; i++) Py_XDECREF(vals[i]);
        if (vals != local) PyMem_Free(vals);
    }
    Py_DECREF(obj);
    return NULL;
}

static PyObject *jt_record(jt_ctx *c, const jj_tnode *n, size_t t, Py_ssize_t pairs) {
    /* the class unchanged since it was found fit, or found fit again (the node refreshed
     * in place where the GIL serializes its users) */
    if (n->in_order_version && (((PyTypeObject *)n->cls)->tp_version_tag == n->in_order_version ||
                                jj_tclass_in_order((jj_tnode *)n, JT_PLANS_UNDER_GIL)))
        return jt_record_in_order(c, n, t, pairs);
    PyObject *local[JT_FIELDS_ON_STACK];
    PyObject **vals = local;
    Py_ssize_t count = n->nfields;
    if (count > JT_FIELDS_ON_STACK && !(vals = PyMem_Malloc((size_t)count * sizeof *vals))) return PyErr_NoMemory();
    /* most records have a few fields: a fixed size is cleared by inline stores, no call */
    if (count <= 8) memset(vals, 0, 8 * sizeof *vals);
    else memset(vals, 0, (size_t)count * sizeof *vals);
    PyObject *result = NULL;
    Py_ssize_t cursor = 0;
    for (Py_ssize_t i = 0; i < pairs; i++) {
        Py_ssize_t f = count ? jt_field_at(c, n, t, &cursor) : -1;
        if (f == -2) goto done;
        if (f < 0 && c->err.flags & JJ_TYPED_FORBID_UNKNOWN) {
            if (jt_finish(c, t) == 0) jj_tpath_unknown(&c->err, jj_tape_key(c->st, c->doc, c->input, t));
            goto done;
        }
        t += 2;
        if (f < 0) {
            t = jj_tape_skip(c->tape, t);
            continue;
        }
        PyObject *v = jt_value(c, n->fields[f].type, &t);
        if (!v) {
            jj_tpath_field(&c->err, n->fields[f].key);
            goto done;
        }
        Py_XSETREF(vals[f], v);
    }
    result = jj_typed_record(&c->err, n, vals);
    /* a dataclass that was built took every value (its vals are all NULL) */
    if (result && n->object_kind == JT_DATACLASS) count = 0;
done:
    for (Py_ssize_t i = 0; i < count; i++) Py_XDECREF(vals[i]);
    if (vals != local) PyMem_Free(vals);
    return result;
}

static PyObject *jt_object(jt_ctx *c, const jj_tnode *n, size_t *pt) {
    size_t t = *pt;
    Py_ssize_t pairs = (Py_ssize_t)c->tape[t + 1];
    *pt = (size_t)jj_tape_payload(c->tape[t]) + 1;
    return n->object_kind == JT_DICT ? jt_dict(c, n, t + 2, pairs) : jt_record(c, n, t + 2, pairs);
}

/* ---- values ---- */

static PyObject *jt_convert(jt_ctx *c, const jj_tnode *n, size_t *pt) {
    size_t t = *pt;
    uint64_t w = c->tape[t];
    unsigned kinds = n->kinds;
    if (kinds & JT_ANY) {
        *pt = jj_tape_skip(c->tape, t);
        if (jj_lazy_finish_range(c->p, c->input, c->len, t, *pt) != JJ_OK) return PyErr_NoMemory();
        return jj_build_value_at(c->st, c->doc, c->input, t);
    }
    if (n->decimal && jj_tape_type(w) == JJ_RAW_NUMBER) { /* exactly as written */
        *pt = t + 2;
        return jj_typed_decimal(&c->err, n, c->input + jj_tape_payload(w), (size_t)c->tape[t + 1]);
    }
    long long small;
    if (jj_tape_type(w) == JJ_RAW_NUMBER && (kinds & (JT_INT | JT_FLOAT)) &&
        jt_short_int(c->input + jj_tape_payload(w), (size_t)c->tape[t + 1], &small)) {
        /* what the finished entry (an INT64) would give, without finishing it */
        *pt = t + 2;
        if (!(kinds & JT_INT)) return PyFloat_FromDouble((double)small);
        PyObject *v = PyLong_FromLongLong(small);
        if (!v || n->int_kind == JT_PLAIN) return v;
        return jt_lookup(c, n->int_map, v);
    }
    if (jt_finish(c, t) < 0) return NULL;
    w = c->tape[t];
    jj_type type = jj_tape_type(w);
    switch (type) {
    case JJ_NULL:
        *pt = t + 1;
        if (kinds & JT_NULL) return Py_NewRef(Py_None);
        jj_tpath_expected(&c->err, n, "null");
        return NULL;
    case JJ_TRUE:
    case JJ_FALSE: {
        *pt = t + 1;
        PyObject *b = type == JJ_TRUE ? Py_True : Py_False;
        if (kinds & (type == JJ_TRUE ? JT_TRUE : JT_FALSE)) return Py_NewRef(b);
        if (kinds & (JT_TRUE | JT_FALSE)) jj_tpath_enum(&c->err, b);
        else jj_tpath_expected(&c->err, n, "bool");
        return NULL;
    }
    case JJ_INT64:
    case JJ_UINT64:
    case JJ_BIGINT:
        *pt = t + 2;
        /* msgspec reads an integer past 64 bits as a float unless a plain int (or a
         * Decimal) is asked for: an int enum or Literal does not take it */
        if (type == JJ_BIGINT && (kinds & JT_INT) && n->int_kind != JT_PLAIN && !n->decimal) {
            if (kinds & JT_FLOAT) return jt_int_as_float(c, t);
            jj_tpath_expected(&c->err, n, "float");
            return NULL;
        }
        if (kinds & JT_INT) {
            if (n->decimal && type == JJ_BIGINT)
                return jj_typed_decimal(&c->err, n, c->input + jj_tape_payload(w), (size_t)c->tape[t + 1]);
            PyObject *v = jt_int(c, t);
            if (v && n->decimal) Py_SETREF(v, PyObject_CallOneArg(n->objs[0], v));
            if (!v || n->int_kind == JT_PLAIN) return v;
            return jt_lookup(c, n->int_map, v);
        }
        if (kinds & JT_FLOAT) return jt_int_as_float(c, t);
        /* msgspec reads an integer past 64 bits as a float unless an int is asked for */
        jj_tpath_expected(&c->err, n, type == JJ_BIGINT ? "float" : "int");
        return NULL;
    case JJ_DOUBLE:
        *pt = t + 2;
        if (kinds & JT_FLOAT) {
            double d;
            memcpy(&d, &c->tape[t + 1], sizeof d);
            PyObject *v = PyFloat_FromDouble(d);
            if (v && n->decimal) { /* a tape not parsed lazily: the shortest repr */
                Py_SETREF(v, PyObject_Repr(v));
                if (v) Py_SETREF(v, PyObject_CallOneArg(n->objs[0], v));
            }
            return v;
        }
        jj_tpath_expected(&c->err, n, "float");
        return NULL;
    case JJ_STRING:
        *pt = t + 2;
        if (kinds & JT_STR) {
            if (n->str_kind == JT_PLAIN) return jj_tape_str_value(c->st, c->doc, c->input, t);
            if (n->str_kind != JT_LOOKUP)
                return jj_typed_str_convert(&c->err, n, jt_str(c, w), jj_tape_str_bytes(c->tape[t + 1]));
            PyObject *key = jj_tape_key(c->st, c->doc, c->input, t);
            return key ? jt_lookup(c, n->str_map, key) : NULL;
        }
        jj_tpath_expected(&c->err, n, "str");
        return NULL;
    case JJ_ARRAY:
    case JJ_OBJECT: {
        int is_array = type == JJ_ARRAY;
        if (!(kinds & (is_array ? JT_ARRAY : JT_OBJECT))) {
            *pt = jj_tape_skip(c->tape, t);
            jj_tpath_expected(&c->err, n, is_array ? "array" : "object");
            return NULL;
        }
        if (Py_EnterRecursiveCall(" while decoding JSON into a type")) return NULL;
        PyObject *v = is_array ? jt_array(c, n->arr, pt) : jt_object(c, n->obj, pt);
        Py_LeaveRecursiveCall();
        return v;
    }
    default:
        PyErr_SetString(PyExc_SystemError, "jetjson: corrupt tape");
        return NULL;
    }
}

/* Whether the n bytes at s are all ASCII, 8 at a time. */
static inline int jt_all_ascii(const uint8_t *s, size_t n) {
    uint64_t high = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) high |= jt_load8(s + i);
    for (; i < n; i++) high |= s[i];
    return !(high & UINT64_C(0x8080808080808080));
}

/* A raw string without escapes is its value's UTF-8, already validated by the parse:
 * when it is ASCII and longer than the values loads caches, its str is made here from
 * the input, without finishing the tape entry (which scans it again and copies out its
 * facts). 1 with *out (NULL on a memory error), or 0 for every other string. */
static inline int jt_raw_ascii_str(const jt_ctx *c, size_t t, PyObject **out) {
    uint64_t w = c->tape[t];
    if ((jj_tape_str_flags(w) & (JJ_STR_RAW | JJ_STR_ESCAPED)) != JJ_STR_RAW) return 0;
    size_t len = jj_tape_str_bytes(c->tape[t + 1]);
    const uint8_t *s = c->input + jj_tape_str_offset(w);
    if (len <= JJ_VALUE_CACHE_MAX_LEN || !jt_all_ascii(s, len)) return 0;
    PyObject *str = PyUnicode_New((Py_ssize_t)len, 127);
    if (str) memcpy(PyUnicode_DATA(str), s, len);
    *out = str;
    return 1;
}

/* Most values of a typed document are plain ints and strs: those are built here,
 * without the frame of jt_convert, as it would build them. */
static inline PyObject *jt_value(jt_ctx *c, const jj_tnode *n, size_t *pt) {
    size_t t = *pt;
    uint64_t w = c->tape[t];
    unsigned kinds = n->kinds;
    if (!(kinds & JT_ANY) && !n->cons) {
        if (jj_tape_type(w) == JJ_STRING) {
            if ((kinds & JT_STR) && n->str_kind == JT_PLAIN) {
                *pt = t + 2;
                PyObject *ascii;
                if (jt_raw_ascii_str(c, t, &ascii)) return ascii;
                if (jt_finish(c, t) < 0) return NULL;
                return jj_tape_str_value(c->st, c->doc, c->input, t);
            }
        } else if (jj_tape_type(w) == JJ_RAW_NUMBER && (kinds & JT_INT) && n->int_kind == JT_PLAIN && !n->decimal) {
            long long small;
            if (jt_short_int(c->input + jj_tape_payload(w), (size_t)c->tape[t + 1], &small)) {
                *pt = t + 2;
                return PyLong_FromLongLong(small);
            }
        } else if (jj_tape_type(w) == JJ_ARRAY && c->tape[t + 1] == 0 && (kinds & JT_ARRAY) &&
                   n->arr->array_kind == JT_LIST) {
            /* an empty list (most of citm's blockIds): nothing to descend into */
            *pt = (size_t)jj_tape_payload(w) + 1;
            return PyList_New(0);
        }
    }
    PyObject *v = jt_convert(c, n, pt);
    if (v && n->cons) v = jj_typed_check(&c->err, n, v);
    return v;
}

PyObject *jj_typed_build(jj_state *st, jj_parser *p, const uint8_t *input, size_t len, const jj_tnode *root,
                          int flags, Py_ssize_t doc) {
    const jj_doc *parsed = jj_parser_result(p);
    jt_ctx c = {st, p, parsed, parsed->tape, input, len, {NULL, NULL, 0, flags}};
    size_t t = 0;
    int gc_was_enabled = PyGC_Disable();
    PyObject *v = jt_value(&c, root, &t);
    if (gc_was_enabled) PyGC_Enable();
    if (!v) {
        if (doc >= 0) jj_tpath_index(&c.err, doc);
        jj_tpath_raise(st, &c.err);
    }
    return v;
}
