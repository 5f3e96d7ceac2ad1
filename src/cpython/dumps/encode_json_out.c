/* The result str of jetjson.dumps (see encode_json.h).
 *
 * The buffer starts as writer.h's compact ASCII str, which is all that ensure_ascii=True
 * ever needs. The first character that does not fit widens it once to the kind that
 * holds it (a new str of the same capacity, the text so far converted), so a result is
 * always built at its final kind and the finished str is canonical: it is only widened
 * for a character that is then written. */
#include "encode_json.h"

#include "jetjson_write.h"

#if defined(__GNUC__) || defined(__clang__)
#define JJ_INLINE static inline __attribute__((always_inline))
#else
#define JJ_INLINE static inline
#endif

int jj_out_start(jj_out *o, size_t hint) {
    o->ksize = 1;
    o->ascii = 1;
    return jj_writer_start_ascii(&o->w, hint);
}

static size_t jj_out_used(const jj_out *o) { return (size_t)(o->w.pos - o->w.start) / (size_t)o->ksize; }
static size_t jj_out_cap(const jj_out *o) { return (size_t)(o->w.end - o->w.start) / (size_t)o->ksize; }

static void jj_out_attach(jj_out *o, size_t used, size_t cap) {
    uint8_t *base = (uint8_t *)PyUnicode_DATA(jj_writer_obj(&o->w));
    o->w.start = base;
    o->w.pos = base + used * (size_t)o->ksize;
    o->w.end = base + cap * (size_t)o->ksize;
}

int jj_out_grow_wide(jj_out *o, size_t units) {
    size_t used = jj_out_used(o), cap = jj_out_cap(o);
    if (cap - used >= units) return 0;
    if (units > (size_t)PY_SSIZE_T_MAX / 8 - used) {
        PyErr_NoMemory();
        return -1;
    }
    size_t next = cap + cap / 2;
    if (next < used + units) next = used + units;
    /* PyUnicode_Resize keeps the object alive when it fails */
    PyObject *obj = jj_writer_obj(&o->w);
    int rc = PyUnicode_Resize(&obj, (Py_ssize_t)next);
    o->w.ctx = obj;
    if (rc < 0) return -1;
    jj_out_attach(o, used, next);
    return 0;
}

/* Copy n code units of kind sk at src to kind dk at dst (dk >= sk). */
static void jj_convert_units(const void *src, size_t n, int sk, void *dst, int dk) {
    if (sk == dk) {
        memcpy(dst, src, n * (size_t)sk);
    } else if (sk == 1 && dk == 2) {
        const Py_UCS1 *s = src;
        Py_UCS2 *d = dst;
        for (size_t i = 0; i < n; i++) d[i] = s[i];
    } else if (sk == 1) {
        const Py_UCS1 *s = src;
        Py_UCS4 *d = dst;
        for (size_t i = 0; i < n; i++) d[i] = s[i];
    } else {
        const Py_UCS2 *s = src;
        Py_UCS4 *d = dst;
        for (size_t i = 0; i < n; i++) d[i] = s[i];
    }
}

int jj_out_widen(jj_out *o, int level) {
    int current = o->ascii ? 0 : o->ksize;
    if (level <= current) return 0;
    Py_UCS4 maxchar = level == 1 ? 0xFF : level == 2 ? 0xFFFF : 0x10FFFF;
    size_t used = jj_out_used(o), cap = jj_out_cap(o);
    PyObject *wider = PyUnicode_New((Py_ssize_t)cap, maxchar);
    if (!wider) return -1;
    jj_convert_units(o->w.start, used, o->ksize, PyUnicode_DATA(wider), level);
    Py_DECREF(jj_writer_obj(&o->w));
    o->w.ctx = wider;
    o->ksize = level;
    o->ascii = 0;
    jj_out_attach(o, used, cap);
    return 0;
}

PyObject *jj_out_finish(jj_out *o) {
    if (o->ksize == 1) return jj_writer_finish(&o->w);
    PyObject *result = jj_writer_obj(&o->w);
    if (!result) return NULL;
    size_t used = jj_out_used(o);
    if (used != jj_out_cap(o)) {
        int rc = PyUnicode_Resize(&result, (Py_ssize_t)used);
        o->w.ctx = result;
        if (rc < 0) {
            jj_out_abandon(o);
            return NULL;
        }
    }
    o->w.ctx = NULL;
    o->w.start = o->w.pos = o->w.end = NULL;
    return result;
}

void jj_out_abandon(jj_out *o) { jj_writer_abandon(&o->w); }

void jj_out_ascii_wide(jj_out *o, const char *s, size_t n) {
    jj_convert_units(s, n, 1, o->w.pos, o->ksize);
    o->w.pos += n * (size_t)o->ksize;
}

int jj_out_raw(jj_out *o, PyObject *s) {
    size_t n = (size_t)PyUnicode_GET_LENGTH(s);
    int kind = (int)PyUnicode_KIND(s);
    if (jj_out_widen(o, jj_str_level(s)) || jj_out_reserve(o, n)) return -1;
    jj_convert_units(PyUnicode_DATA(s), n, kind, o->w.pos, o->ksize);
    o->w.pos += n * (size_t)o->ksize;
    return 0;
}

/* ---- string literals for ensure_ascii=False ----
 * Only '"', '\\' and code points below U+0020 are escaped (json's encode_basestring);
 * everything else, lone surrogates included, is copied at the buffer's width. */

/* 0x80 in each byte of w that is below 0x20, '"' or '\\' (bytes >= 0x80 never are). */
JJ_INLINE uint64_t jj_raw_flags(uint64_t w) { return jj_escape_flags8(w, 0) & ~w; }

JJ_INLINE uint32_t jj_unit_at(const uint8_t *p, size_t i, int k) {
    if (k == 1) return p[i];
    if (k == 2) return ((const Py_UCS2 *)(const void *)p)[i];
    return ((const Py_UCS4 *)(const void *)p)[i];
}

JJ_INLINE void jj_unit_put(uint8_t *p, size_t i, uint32_t c, int k) {
    if (k == 1) p[i] = (uint8_t)c;
    else if (k == 2) ((Py_UCS2 *)(void *)p)[i] = (Py_UCS2)c;
    else ((Py_UCS4 *)(void *)p)[i] = c;
}

/* Writes the literal of n units of kind sk as kind dk units; returns the units written
 * (at most 6n + 2). Both buffers are PyUnicode data, so aligned for their kind. */
JJ_INLINE size_t jj_raw_literal(const uint8_t *src, size_t n, int sk, uint8_t *dst, int dk) {
    size_t i = 0, o = 0;
    jj_unit_put(dst, o++, '"', dk);
    while (i < n) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (sk == 1 && dk == 1) {
            while (n - i >= 8) {
                uint64_t w;
                memcpy(&w, src + i, 8);
                uint64_t m = jj_raw_flags(w);
                if (m) {
                    size_t k = (size_t)__builtin_ctzll(m) >> 3;
                    memcpy(dst + o, src + i, k);
                    o += k;
                    i += k;
                    break;
                }
                memcpy(dst + o, src + i, 8);
                o += 8;
                i += 8;
            }
            if (i == n) break;
        }
#endif
        uint32_t c = jj_unit_at(src, i++, sk);
        if (c >= 0x20 && c != '"' && c != '\\') {
            jj_unit_put(dst, o++, c, dk);
        } else if (c == '"' || c == '\\') {
            jj_unit_put(dst, o++, '\\', dk);
            jj_unit_put(dst, o++, c, dk);
        } else {
            /* the same bytes as jj_write_escape_ascii, at the buffer's width */
            uint8_t esc[6];
            size_t len = (size_t)(jj_write_escape_ascii(esc, (uint8_t)c) - esc);
            for (size_t k = 0; k < len; k++) jj_unit_put(dst, o++, esc[k], dk);
        }
    }
    jj_unit_put(dst, o++, '"', dk);
    return o;
}

static size_t jj_raw_literal_any(const void *src, size_t n, int sk, uint8_t *dst, int dk) {
    const uint8_t *s = src;
    switch (dk * 8 + sk) {
    case 8 + 1: return jj_raw_literal(s, n, 1, dst, 1);
    case 16 + 1: return jj_raw_literal(s, n, 1, dst, 2);
    case 16 + 2: return jj_raw_literal(s, n, 2, dst, 2);
    case 32 + 1: return jj_raw_literal(s, n, 1, dst, 4);
    case 32 + 2: return jj_raw_literal(s, n, 2, dst, 4);
    default: return jj_raw_literal(s, n, 4, dst, 4);
    }
}

int jj_out_string(jj_out *o, PyObject *s, int ensure_ascii) {
    size_t n = (size_t)PyUnicode_GET_LENGTH(s);
    int kind = (int)PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    if (ensure_ascii) {
        size_t bound = jj_escape_bound_json_ascii_kind(n, kind);
        if (o->ksize == 1) {
            if (jj_writer_reserve(&o->w, bound)) return -1;
            o->w.pos += jj_escape_json_ascii(data, n, kind, o->w.pos);
            return 0;
        }
        /* a wide buffer (non-ASCII separators): escape aside, then widen the bytes */
        if (bound > (size_t)PY_SSIZE_T_MAX) {
            PyErr_NoMemory();
            return -1;
        }
        uint8_t *tmp = PyMem_Malloc(bound);
        if (!tmp) {
            PyErr_NoMemory();
            return -1;
        }
        size_t len = jj_escape_json_ascii(data, n, kind, tmp);
        int rc = jj_out_ascii(o, (const char *)tmp, len);
        PyMem_Free(tmp);
        return rc;
    }
    if (jj_out_widen(o, jj_str_level(s))) return -1;
    if (jj_out_reserve(o, jj_escape_bound_json_utf8(n))) return -1;
    size_t units = jj_raw_literal_any(data, n, kind, o->w.pos, o->ksize);
    o->w.pos += units * (size_t)o->ksize;
    return 0;
}
