/* Tape -> Python objects: exact-size lists and dicts, strings made at their final
 * kind with one copy, short ASCII keys from a per-interpreter cache. Iterative, with
 * its own stack, so depth is bounded by memory, not by the C stack. */
#include <string.h>

#include "dict_fill.h"

/* ---- keys ---- */

static inline uint64_t jj_load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline uint32_t jj_load32(const uint8_t *p) {
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The first slot of the set for a short key, from a mix of its first and last bytes;
 * full equality is checked on a hit. */
static inline size_t jj_key_set(const uint8_t *s, size_t len) {
    uint64_t a, b;
    if (len >= 8) {
        a = jj_load64(s);
        b = jj_load64(s + len - 8);
    } else if (len >= 4) {
        a = jj_load32(s);
        b = jj_load32(s + len - 4);
    } else {
        a = len ? (uint64_t)s[0] | (uint64_t)s[len / 2] << 8 | (uint64_t)s[len - 1] << 16 : 0;
        b = 0;
    }
    /* the top bits of a product depend on every bit of its factors; the low bits do not */
    uint64_t h = (a * UINT64_C(0x9e3779b97f4a7c15)) ^ ((b + len) * UINT64_C(0xc2b2ae3d27d4eb4f));
    h = (h ^ (h >> 32)) * UINT64_C(0xd6e8feb86659fd93);
    return (size_t)(h >> (64 - JJ_KEY_CACHE_BITS + JJ_KEY_CACHE_WAY_BITS)) * JJ_KEY_CACHE_WAYS;
}

static inline PyObject *jj_ascii_str(const uint8_t *s, size_t len) {
    PyObject *str = PyUnicode_New((Py_ssize_t)len, 127);
    if (str) memcpy(PyUnicode_DATA(str), s, len);
    return str;
}

#define JJ_HIGH_BITS UINT64_C(0x8080808080808080)

/* Writes the code points of valid UTF-8 [s, end) to d, as type T (wide enough for all of
 * them). Runs are decoded in tight loops: ASCII eight bytes at a time, then runs of
 * 3-byte and 2-byte sequences, which is what non-Latin text is made of. */
#define JJ_DECODE_UTF8(T, d, s, end)                                                       \
    while ((s) < (end)) {                                                                  \
        uint8_t b_ = *(s);                                                                 \
        if (b_ < 0x80) {                                                                   \
            while ((end) - (s) >= 8) {                                                     \
                uint64_t w_ = jj_load64(s);                                                \
                if (w_ & JJ_HIGH_BITS) break;                                              \
                for (int k_ = 0; k_ < 8; k_++) (d)[k_] = (T)(s)[k_];                       \
                (d) += 8;                                                                  \
                (s) += 8;                                                                  \
            }                                                                              \
            while ((s) < (end) && *(s) < 0x80) *(d)++ = (T) * (s)++;                       \
        } else if (b_ >= 0xe0 && b_ < 0xf0) {                                              \
            do {                                                                           \
                *(d)++ = (T)((Py_UCS4)((s)[0] & 0x0f) << 12 | (Py_UCS4)((s)[1] & 0x3f) << 6 | \
                             ((s)[2] & 0x3f));                                             \
                (s) += 3;                                                                  \
            } while ((s) < (end) && (*(s) & 0xf0) == 0xe0);                                \
        } else if (b_ < 0xe0) {                                                            \
            do {                                                                           \
                *(d)++ = (T)((Py_UCS4)((s)[0] & 0x1f) << 6 | ((s)[1] & 0x3f));            \
                (s) += 2;                                                                  \
            } while ((s) < (end) && (*(s) & 0xe0) == 0xc0);                                \
        } else {                                                                           \
            *(d)++ = (T)((Py_UCS4)((s)[0] & 0x07) << 18 | (Py_UCS4)((s)[1] & 0x3f) << 12 | \
                         (Py_UCS4)((s)[2] & 0x3f) << 6 | ((s)[3] & 0x3f));                 \
            (s) += 4;                                                                      \
        }                                                                                  \
    }

/* A str from UTF-8 the engine validated (lone surrogates possibly encoded in 3 bytes,
 * which become lone surrogate code points, as 'surrogatepass' makes them). Stage 2 has
 * counted the code points and noted the widest, so the str is made at its final size and
 * kind and filled in one pass. */
static PyObject *jj_utf8_str(const uint8_t *s, uint64_t sizes, unsigned flags) {
    size_t len = jj_tape_str_bytes(sizes);
    Py_UCS4 maxchar = flags & JJ_STR_WIDE4 ? 0x10ffff : flags & JJ_STR_WIDE2 ? 0xffff : 0xff;
    PyObject *str = PyUnicode_New((Py_ssize_t)jj_tape_str_chars(sizes), maxchar);
    if (!str) return NULL;
    const uint8_t *end = s + len;
    if (maxchar == 0xff) {
        Py_UCS1 *d = PyUnicode_1BYTE_DATA(str);
        JJ_DECODE_UTF8(Py_UCS1, d, s, end);
    } else if (maxchar == 0xffff) {
        Py_UCS2 *d = PyUnicode_2BYTE_DATA(str);
        JJ_DECODE_UTF8(Py_UCS2, d, s, end);
    } else {
        Py_UCS4 *d = PyUnicode_4BYTE_DATA(str);
        JJ_DECODE_UTF8(Py_UCS4, d, s, end);
    }
    return str;
}

/* Short keys compared without a libc call. */
static inline int jj_same_bytes(const uint8_t *a, const uint8_t *b, size_t len) {
    if (len >= 8) {
        for (size_t i = 0; i + 8 < len; i += 8) {
            if (jj_load64(a + i) != jj_load64(b + i)) return 0;
        }
        return jj_load64(a + len - 8) == jj_load64(b + len - 8);
    }
    if (len >= 4) return jj_load32(a) == jj_load32(b) && jj_load32(a + len - 4) == jj_load32(b + len - 4);
    for (size_t i = 0; i < len; i++) {
        if (a[i] != b[i]) return 0;
    }
    return 1;
}

static inline int jj_cached_is(PyObject *cached, const uint8_t *s, size_t len) {
    return cached && (size_t)PyUnicode_GET_LENGTH(cached) == len && jj_same_bytes(PyUnicode_DATA(cached), s, len);
}

/* The cached str for these ASCII bytes (a new reference), or NULL with *set pointing at
 * the set where a new one belongs (jj_cache_put). */
static inline PyObject *jj_cache_find(jj_key_cache *cache, const uint8_t *s, size_t len, PyObject ***set) {
    PyObject **ways = &cache->slots[jj_key_set(s, len)];
    *set = ways;
    for (size_t w = 0; w < JJ_KEY_CACHE_WAYS; w++) {
        if (jj_cached_is(ways[w], s, len)) return Py_NewRef(ways[w]);
    }
    return NULL;
}

/* str becomes the newest of its set; the oldest leaves. */
static inline void jj_cache_put(PyObject **set, PyObject *str) {
    Py_XDECREF(set[JJ_KEY_CACHE_WAYS - 1]);
    memmove(set + 1, set, (JJ_KEY_CACHE_WAYS - 1) * sizeof *set);
    set[0] = Py_NewRef(str);
}

/* A short ASCII value: cached, else made and remembered (not hashed: values are rarely
 * used as dict keys). */
static inline PyObject *jj_short_value(jj_state *st, const uint8_t *s, size_t len) {
    PyObject **set;
    PyObject *str = jj_cache_find(&st->values, s, len, &set);
    if (str) return str;
    str = jj_ascii_str(s, len);
    if (str) jj_cache_put(set, str);
    return str;
}

static inline PyObject *jj_key(jj_state *st, const uint8_t *s, uint64_t sizes, unsigned flags) {
    if (!(flags & JJ_STR_ASCII)) return jj_utf8_str(s, sizes, flags);
    size_t len = jj_tape_str_bytes(sizes);
    if (len > JJ_KEY_CACHE_MAX_LEN) return jj_ascii_str(s, len);
    PyObject **set;
    PyObject *str = jj_cache_find(&st->keys, s, len, &set);
    if (str) return str;
    str = jj_ascii_str(s, len);
    if (!str) return NULL;
    if (PyObject_Hash(str) == -1) { /* computed once here, reused by every dict */
        Py_DECREF(str);
        return NULL;
    }
    jj_cache_put(set, str);
    return str;
}

void jj_key_cache_clear(jj_key_cache *cache) {
    for (size_t i = 0; i < JJ_KEY_CACHE_SLOTS; i++) Py_CLEAR(cache->slots[i]);
}

/* ---- values ---- */

PyObject *jj_int_from_digits(const uint8_t *digits, size_t len) {
    char small[128];
    char *text = len < sizeof small ? small : PyMem_Malloc(len + 1);
    if (!text) return PyErr_NoMemory();
    memcpy(text, digits, len);
    text[len] = 0;
    PyObject *v = PyLong_FromString(text, NULL, 10);
    if (text != small) PyMem_Free(text);
    return v;
}

static inline const uint8_t *jj_str_bytes(const jj_doc *p, const uint8_t *input, uint64_t w) {
    return (jj_tape_str_flags(w) & JJ_STR_IN_INPUT ? input : p->strings) + jj_tape_str_offset(w);
}

/* The float of the JJ_DOUBLE tape word pair at w. */
static inline PyObject *jj_float_at(const uint64_t *w) {
    double d;
    memcpy(&d, &w[1], sizeof d);
    return PyFloat_FromDouble(d);
}

/* The leading run of doubles and 64-bit ints of a new list of n items, whose first item
 * is at tape[*t]: the arrays of numbers (coordinates, vectors, matrices) are filled in a
 * loop of their own, not one trip through the builder's dispatch per item. Returns how
 * many items it set (*t moved past them), or -1 with an exception set. */
static inline Py_ssize_t jj_fill_numbers(PyObject *list, Py_ssize_t n, const uint64_t *tape, size_t *t) {
    PyObject **items = ((PyListObject *)list)->ob_item;
    size_t at = *t;
    Py_ssize_t k = 0;
    for (; k < n; k++) {
        jj_type type = jj_tape_type(tape[at]);
        PyObject *v;
        if (type == JJ_DOUBLE) {
            v = jj_float_at(&tape[at]);
        } else if (type == JJ_INT64) {
            v = PyLong_FromLongLong((long long)(int64_t)tape[at + 1]);
        } else {
            break;
        }
        if (!v) return -1;
        items[k] = v;
        at += 2;
    }
    *t = at;
    return k;
}

typedef struct jj_frame {
    PyObject *container;
    Py_ssize_t next; /* list: index of the next item */
    PyObject *key;   /* dict: key waiting for its value */
} jj_frame;

#define JJ_FRAMES_ON_STACK 64

PyObject *jj_build_objects(jj_state *st, const jj_doc *p, const uint8_t *input) {
    return jj_build_value_at(st, p, input, 0);
}

PyObject *jj_build_value_at(jj_state *st, const jj_doc *p, const uint8_t *input, size_t start) {
    const uint64_t *tape = p->tape;
    jj_frame local[JJ_FRAMES_ON_STACK];
    jj_frame *frames = local;
    if (p->max_depth > JJ_FRAMES_ON_STACK) {
        frames = PyMem_Malloc(p->max_depth * sizeof *frames);
        if (!frames) return PyErr_NoMemory();
    }
    size_t depth = 0;
    size_t t = start;
    PyObject *value = NULL;

    for (;;) {
        uint64_t w = tape[t];
        switch (jj_tape_type(w)) {
        case JJ_NULL: value = Py_NewRef(Py_None); t += 1; break;
        case JJ_TRUE: value = Py_NewRef(Py_True); t += 1; break;
        case JJ_FALSE: value = Py_NewRef(Py_False); t += 1; break;
        case JJ_INT64: value = PyLong_FromLongLong((long long)(int64_t)tape[t + 1]); t += 2; break;
        case JJ_UINT64: value = PyLong_FromUnsignedLongLong((unsigned long long)tape[t + 1]); t += 2; break;
        case JJ_DOUBLE: value = jj_float_at(&tape[t]); t += 2; break;
        case JJ_BIGINT:
            value = jj_int_from_digits(input + jj_tape_payload(w), (size_t)tape[t + 1]);
            t += 2;
            break;
        case JJ_STRING: {
            const uint8_t *s = jj_str_bytes(p, input, w);
            size_t len = jj_tape_str_bytes(tape[t + 1]);
            if (!(jj_tape_str_flags(w) & JJ_STR_ASCII)) value = jj_utf8_str(s, tape[t + 1], jj_tape_str_flags(w));
            else if (len <= JJ_VALUE_CACHE_MAX_LEN) value = jj_short_value(st, s, len);
            else value = jj_ascii_str(s, len);
            t += 2;
            break;
        }
        case JJ_ARRAY: {
            Py_ssize_t n = (Py_ssize_t)tape[t + 1];
            PyObject *list = PyList_New(n);
            if (!list) goto fail;
            t += 2;
            Py_ssize_t filled = jj_fill_numbers(list, n, tape, &t);
            if (filled < 0) {
                Py_DECREF(list);
                goto fail;
            }
            if (filled == n) { /* all numbers (coordinates, vectors): done here */
                value = list;
                t += 1; /* its END word */
                break;
            }
            frames[depth].container = list;
            frames[depth].next = filled;
            frames[depth].key = NULL;
            depth++;
            continue;
        }
        case JJ_OBJECT: {
            PyObject *dict = jj_dict_new_sized((Py_ssize_t)tape[t + 1]);
            if (!dict) goto fail;
            frames[depth].container = dict;
            frames[depth].next = 0;
            frames[depth].key = NULL;
            depth++;
            t += 2;
            goto read_key;
        }
        case JJ_END:
            value = frames[--depth].container;
            t += 1;
            break;
        default:
            PyErr_SetString(PyExc_SystemError, "jetjson: corrupt tape");
            goto fail;
        }
        if (!value) goto fail;
        if (depth == 0) break;
        {
            jj_frame *f = &frames[depth - 1];
            /* in a dict a key always precedes the value, so no key means a list */
            if (f->key == NULL) {
                PyList_SET_ITEM(f->container, f->next, value);
                f->next++;
                continue;
            }
            int rc = jj_dict_put(f->container, f->key, value);
            f->key = NULL;
            value = NULL;
            if (rc < 0) goto fail;
        }
    read_key: {
        uint64_t k = tape[t];
        if (jj_tape_type(k) == JJ_STRING) {
            PyObject *key = jj_key(st, jj_str_bytes(p, input, k), tape[t + 1], jj_tape_str_flags(k));
            if (!key) goto fail;
            frames[depth - 1].key = key;
            t += 2;
        }
    }
    }
    if (frames != local) PyMem_Free(frames);
    return value;

fail:
    while (depth > 0) {
        depth--;
        Py_XDECREF(frames[depth].key);
        Py_DECREF(frames[depth].container);
    }
    if (frames != local) PyMem_Free(frames);
    return NULL;
}

/* ---- for other consumers of the tape (typed/) ----
 * Out-of-line entry points to the makers above, so that loads keeps them inlined as it
 * has them and the typed decoder makes its strs and ints the same way. */

PyObject *jj_tape_str_value(jj_state *st, const jj_doc *p, const uint8_t *input, size_t t) {
    uint64_t w = p->tape[t];
    const uint8_t *s = jj_str_bytes(p, input, w);
    size_t len = jj_tape_str_bytes(p->tape[t + 1]);
    if (!(jj_tape_str_flags(w) & JJ_STR_ASCII)) return jj_utf8_str(s, p->tape[t + 1], jj_tape_str_flags(w));
    if (len <= JJ_VALUE_CACHE_MAX_LEN) return jj_short_value(st, s, len);
    return jj_ascii_str(s, len);
}

PyObject *jj_tape_key(jj_state *st, const jj_doc *p, const uint8_t *input, size_t t) {
    uint64_t w = p->tape[t];
    return jj_key(st, jj_str_bytes(p, input, w), p->tape[t + 1], jj_tape_str_flags(w));
}

PyObject *jj_tape_big_int(const jj_doc *p, const uint8_t *input, size_t t) {
    return jj_int_from_digits(input + jj_tape_payload(p->tape[t]), (size_t)p->tape[t + 1]);
}
