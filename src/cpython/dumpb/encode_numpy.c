/* dumpb: numpy arrays and scalars, as orjson writes them under OPT_SERIALIZE_NUMPY.
 *
 * Arrays are read through numpy's C-level array interface (__array_struct__): shape,
 * element kind and size, flags and the data pointer, with no numpy headers and no
 * import. What orjson does, and so what this does:
 *   - only exact numpy.ndarray, C-contiguous, with at least one dimension, of kind
 *     f8/f4/f2, i8..i1, u8..u1, b1 or M8: anything else goes to `default`, or without
 *     one fails with "not C contiguous" or "unsupported datatype" (the caller's);
 *   - a C-contiguous array in the other byte order is an error, default or not;
 *   - NaN and the infinities are null; float16 values are written as the float32 they
 *     equal; any nonzero bool byte is true;
 *   - datetime64 values become naive RFC 3339 text (the datetime options apply,
 *     PASSTHROUGH_DATETIME does not); units below nanoseconds are an error, raised at the
 *     first element (an empty array is still "[]"). */
#include <math.h>
#include <string.h>

#include "encode_native_internal.h"
#include "dumpb_messages.h"
#include "encode_orjson.h"
#include "jetjson_write.h"

/* numpy's PyArrayInterface (the array interface protocol's C struct, version 2). */
typedef struct jj_array_interface {
    int two;
    int nd;
    char typekind;
    int itemsize;
    int flags;
    Py_intptr_t *shape;
    Py_intptr_t *strides;
    void *data;
    PyObject *descr;
} jj_array_interface;
#define JJ_NPY_C_CONTIGUOUS 0x1
#define JJ_NPY_NOTSWAPPED 0x200

/* numpy's datetime units (NPY_DATETIMEUNIT), and orjson's names for them in errors. */
enum { JJ_DT_Y = 0, JJ_DT_M = 1, JJ_DT_W = 2, JJ_DT_D = 4, JJ_DT_h, JJ_DT_m, JJ_DT_s, JJ_DT_ms,
       JJ_DT_us, JJ_DT_ns, JJ_DT_ps, JJ_DT_fs, JJ_DT_as, JJ_DT_GENERIC, JJ_DT_UNITS };
static const char *const jj_dt_unit_names[JJ_DT_UNITS] = {
    "years", "months", "weeks", "", "days", "hours", "minutes", "seconds", "milliseconds",
    "microseconds", "nanoseconds", "picoseconds", "femtoseconds", "attoseconds", "NaT",
};
/* The codes of numpy's dtype strings ("<M8[us]"), by unit. */
static const char *const jj_dt_unit_codes[JJ_DT_UNITS] = {
    "Y", "M", "W", "", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as", "",
};

/* numpy scalar objects: the value right after the object header. */
typedef struct { PyObject_HEAD double v; } jj_np_f64;
typedef struct { PyObject_HEAD float v; } jj_np_f32;
typedef struct { PyObject_HEAD int64_t v; } jj_np_i64;
typedef struct { PyObject_HEAD int32_t v; } jj_np_i32;
typedef struct { PyObject_HEAD int16_t v; } jj_np_i16;
typedef struct { PyObject_HEAD int8_t v; } jj_np_i8;
typedef struct { PyObject_HEAD uint8_t v; } jj_np_u8;
typedef struct { PyObject_HEAD int64_t v; int unit; int num; } jj_np_dt64;

/* One array (or scalar) being written. */
typedef struct jj_np_out {
    jj_state *st;
    jj_writer *w;
    const jj_dumpb_opts *opts;
    jj_np_scalar elem;
    int unit;      /* datetime64: the unit (JJ_DT_*); ps and finer fail at the first value */
    int unit_num;  /* datetime64: the unit's multiplier (only 1 is supported) */
    size_t itemsize;
} jj_np_out;

/* ---- datetime64 ---- */

/* The civil date of a day count from 1970-01-01 (proleptic Gregorian), counted in
 * 400-year eras of 146097 days starting on March 1st, so leap days end a year. */
static void jj_civil_from_days(int64_t days, jj_civil *t) {
    int64_t z = days + 719468; /* days since 0000-03-01 */
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;                                /* [0, 146096] */
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* [0, 399] */
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);          /* [0, 365] */
    int64_t mp = (5 * doy + 2) / 153;                              /* March = 0 */
    t->day = (int)(doy - (153 * mp + 2) / 5 + 1);
    t->month = (int)(mp < 10 ? mp + 3 : mp - 9);
    t->year = yoe + era * 400 + (t->month <= 2);
}

static int jj_dt64_unrepresentable(jj_np_out *o, int64_t v) {
    PyErr_Format(o->st->JSONEncodeError ? o->st->JSONEncodeError : PyExc_TypeError,
                 JJ_MSG_DT64_RANGE, (long long)v, jj_dt_unit_names[o->unit]);
    return -1;
}

/* The text of one datetime64 value into out (64 bytes); returns the length or -1.
 * orjson converts through seconds (floored) and nanoseconds since the epoch and takes
 * only the span below; years and months must fall in years 0..9999. */
#define JJ_DT64_MIN_SECS (-62167219200)  /* 0000-01-01T00:00:00 */
#define JJ_DT64_MAX_SECS 253402207200     /* 9999-12-30T22:00:00 */

static Py_ssize_t jj_dt64_text(jj_np_out *o, int64_t v, char *out) {
    static const int64_t per_unit[JJ_DT_UNITS] = {0, 0, 604800, 0, 86400, 3600, 60, 1, 1000, 1000000,
                                                  1000000000};
    if (o->unit >= JJ_DT_ps || o->unit_num != 1) {
        /* orjson crashes on multipliers ([2s]); we refuse them like the fine units */
        PyObject *err = o->st->JSONEncodeError ? o->st->JSONEncodeError : PyExc_TypeError;
        if (o->unit >= JJ_DT_ps)
            PyErr_Format(err, JJ_MSG_DT64_UNIT, jj_dt_unit_names[o->unit]);
        else
            PyErr_Format(err, JJ_MSG_DT64_UNIT_NUM, o->unit_num, jj_dt_unit_names[o->unit]);
        return -1;
    }
    jj_civil t = {1970, 1, 1, 0, 0, 0, 0};
    if (o->unit == JJ_DT_Y) {
        if (v < -1970 || v > 9999 - 1970) return jj_dt64_unrepresentable(o, v);
        t.year = v + 1970;
    } else if (o->unit == JJ_DT_M) {
        /* orjson crashes on negative counts that are not whole years; we refuse them */
        if ((v < 0 && v % 12) || v < -1970 * 12 || v > (9999 - 1970) * 12 + 11)
            return jj_dt64_unrepresentable(o, v);
        t.year = v / 12 + 1970;
        t.month = (int)(v % 12) + 1;
    } else {
        int64_t secs, nanos = 0, n = per_unit[o->unit];
        if (o->unit >= JJ_DT_ms) {
            /* floored: -1 us is 23:59:59.999999 the day before */
            int64_t r = v % n;
            secs = v / n;
            if (r < 0) {
                r += n;
                secs--;
            }
            nanos = r * (1000000000 / n);
        } else {
            /* orjson multiplies with wrap-around (2^62 weeks come out as the epoch) */
            secs = (int64_t)((uint64_t)v * (uint64_t)n);
        }
        /* the span orjson accepts: 0000-01-01T00:00:00 to 9999-12-30T22:00:00 */
        if (secs < JJ_DT64_MIN_SECS || secs > JJ_DT64_MAX_SECS || (secs == JJ_DT64_MAX_SECS && nanos))
            return jj_dt64_unrepresentable(o, v);
        int64_t days = secs / 86400, rem = secs % 86400;
        if (rem < 0) {
            rem += 86400;
            days--;
        }
        jj_civil_from_days(days, &t);
        t.hour = (int)(rem / 3600);
        t.minute = (int)(rem / 60 % 60);
        t.second = (int)(rem % 60);
        t.microsecond = (int)(nanos / 1000);
    }
    char *p = out;
    p += jj_write_date(&t, p);
    *p++ = 'T';
    p += jj_write_time(&t, o->opts, p);
    if (o->opts->naive_utc) p += jj_write_offset(0, 0, o->opts, p);
    return p - out;
}

/* numpy's unit (and multiplier) of a datetime64 dtype, from its string "<M8[us]". */
static int jj_dt64_unit_of(jj_state *st, PyObject *array, int *unit, int *num) {
    PyObject *dtype = PyObject_GetAttr(array, st->native.str_dtype);
    PyObject *text = dtype ? PyObject_GetAttr(dtype, st->native.str_str) : NULL;
    Py_XDECREF(dtype);
    if (!text) return -1;
    const char *s = PyUnicode_Check(text) ? PyUnicode_AsUTF8(text) : NULL;
    *unit = JJ_DT_GENERIC;
    *num = 1;
    const char *open = s ? strchr(s, '[') : NULL;
    if (open) {
        char *end;
        long n = strtol(open + 1, &end, 10);
        if (end != open + 1) *num = (int)n;
        size_t len = strcspn(end, "]");
        for (int u = 0; u < JJ_DT_GENERIC; u++) {
            if (jj_dt_unit_codes[u][0] && strlen(jj_dt_unit_codes[u]) == len &&
                !memcmp(jj_dt_unit_codes[u], end, len))
                *unit = u;
        }
    }
    Py_DECREF(text);
    if (!s) PyErr_Clear();
    return 0;
}

/* ---- values ---- */

/* A binary16 value (its bits) as the float it equals exactly: orjson writes float16
 * values as float32 ones (0.1 as a half is 0.099975586). */
static inline float jj_half_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 31u, mant = h & 1023u, bits;
    if (!exp) { /* zero and subnormals: mant * 2^-24 */
        float f = (float)mant * (1.0f / 16777216.0f);
        return sign ? -f : f;
    }
    bits = exp == 31 ? sign | 0x7f800000u | (mant << 13) : sign | ((exp + 112) << 23) | (mant << 13);
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

/* Longest element text: a datetime64 with an offset, or a double (with its slack). */
#define JJ_NP_ELEM_MAX 64

static int jj_np_row(jj_np_out *o, const char *src, size_t count);

/* Writes one element read from p: a datetime64 here, the numbers and bools as a row of
 * one (without its comma). Returns 0 or -1. */
static inline int jj_np_elem(jj_np_out *o, const char *p) {
    if (o->elem != JJ_NP_DATETIME64) {
        if (jj_np_row(o, p, 1)) return -1;
        o->w->pos--; /* the row's comma */
        return 0;
    }
    if (jj_writer_reserve(o->w, JJ_NP_ELEM_MAX)) return -1;
    char *out = (char *)o->w->pos;
    int64_t v;
    memcpy(&v, p, 8);
    out[0] = '"';
    Py_ssize_t len = jj_dt64_text(o, v, out + 1);
    if (len < 0) return -1;
    out[len + 1] = '"';
    o->w->pos += (size_t)len + 2;
    return 0;
}

/* The fast path of a compact innermost row: `count` numbers or bools, each followed by
 * a comma, in chunks with one reserve each (room for the widest element, plus the
 * double formatter's slack past the end). */
#define JJ_NP_CHUNK 1024
#define JJ_NP_ROW_LOOP(ctype, WRITE)                                 \
    for (size_t k = 0; k < m; k++) {                                 \
        ctype v;                                                     \
        memcpy(&v, src + k * sizeof(ctype), sizeof(ctype));          \
        WRITE;                                                       \
        *p++ = ',';                                                  \
    }
#define JJ_NP_FLOAT(fmt)                  \
    if (isfinite(v)) {                    \
        p += fmt(v, p);                   \
    } else {                              \
        memcpy(p, "null", 4);             \
        p += 4;                           \
    }

static int jj_np_row(jj_np_out *o, const char *src, size_t count) {
    while (count) {
        size_t m = count < JJ_NP_CHUNK ? count : JJ_NP_CHUNK;
        if (jj_writer_reserve(o->w, m * (JJ_DOUBLE_MAX_CHARS + 1) + JJ_DOUBLE_BUF_SIZE)) return -1;
        char *p = (char *)o->w->pos;
        switch (o->elem) {
        case JJ_NP_FLOAT64: JJ_NP_ROW_LOOP(double, JJ_NP_FLOAT(jj_dumpb_format_double)) break;
        case JJ_NP_FLOAT32: JJ_NP_ROW_LOOP(float, JJ_NP_FLOAT(jj_format_float32_orjson)) break;
        case JJ_NP_INT64: JJ_NP_ROW_LOOP(int64_t, p += jj_format_int64(v, p)) break;
        case JJ_NP_INT32: JJ_NP_ROW_LOOP(int32_t, p += jj_format_int64(v, p)) break;
        case JJ_NP_INT16: JJ_NP_ROW_LOOP(int16_t, p += jj_format_int64(v, p)) break;
        case JJ_NP_INT8: JJ_NP_ROW_LOOP(int8_t, p += jj_format_int64(v, p)) break;
        case JJ_NP_UINT64: JJ_NP_ROW_LOOP(uint64_t, p += jj_format_uint64(v, p)) break;
        case JJ_NP_UINT32: JJ_NP_ROW_LOOP(uint32_t, p += jj_format_uint64(v, p)) break;
        case JJ_NP_UINT16: JJ_NP_ROW_LOOP(uint16_t, p += jj_format_uint64(v, p)) break;
        case JJ_NP_UINT8: JJ_NP_ROW_LOOP(uint8_t, p += jj_format_uint64(v, p)) break;
        case JJ_NP_FLOAT16: {
            JJ_NP_ROW_LOOP(uint16_t, float f = jj_half_to_float(v);
                           if (isfinite(f)) p += jj_format_float32_orjson(f, p);
                           else {
                               memcpy(p, "null", 4);
                               p += 4;
                           }) break;
        }
        default: { /* JJ_NP_BOOL: one 8-byte store and no branch per value */
            static const char lit[2][8] = {"false,", "true,"};
            for (size_t k = 0; k < m; k++) {
                size_t t = src[k] != 0;
                memcpy(p, lit[t], 8);
                p += 6 - t;
            }
            break;
        }
        }
        o->w->pos = (uint8_t *)p;
        src += m * o->itemsize;
        count -= m;
    }
    return 0;
}

/* Dimension `dim` of the array at *data (advanced past it), as a list at `depth`. */
static int jj_np_dim(jj_np_out *o, const jj_array_interface *a, int dim, int depth, const char **data) {
    Py_intptr_t n = a->shape[dim];
    int indent = o->opts->indent_2;
    if (n == 0) return jj_writer_put(o->w, "[]", 2);
    if (jj_writer_put_byte(o->w, '[')) return -1;
    if (!indent && dim + 1 == a->nd && o->elem != JJ_NP_DATETIME64) {
        if (jj_np_row(o, *data, (size_t)n)) return -1;
        *data += (size_t)n * o->itemsize;
        o->w->pos[-1] = ']'; /* over the last comma */
        return 0;
    }
    for (Py_intptr_t i = 0; i < n; i++) {
        if (i && jj_writer_put_byte(o->w, ',')) return -1;
        if (indent && jj_writer_newline(o->w, 2 * (size_t)(depth + 1))) return -1;
        if (dim + 1 < a->nd) {
            if (jj_np_dim(o, a, dim + 1, depth + 1, data)) return -1;
        } else {
            if (jj_np_elem(o, *data)) return -1;
            *data += o->itemsize;
        }
    }
    if (indent && jj_writer_newline(o->w, 2 * (size_t)depth)) return -1;
    return jj_writer_put_byte(o->w, ']');
}

/* The element type orjson writes for an array's kind and size, or -1. */
static int jj_np_elem_of(char kind, int size) {
    switch (kind) {
    case 'f':
        return size == 8 ? JJ_NP_FLOAT64 : size == 4 ? JJ_NP_FLOAT32 : size == 2 ? JJ_NP_FLOAT16 : -1;
    case 'i':
        return size == 8 ? JJ_NP_INT64 : size == 4 ? JJ_NP_INT32 : size == 2 ? JJ_NP_INT16 : size == 1 ? JJ_NP_INT8 : -1;
    case 'u':
        return size == 8 ? JJ_NP_UINT64 : size == 4 ? JJ_NP_UINT32 : size == 2 ? JJ_NP_UINT16 : size == 1 ? JJ_NP_UINT8 : -1;
    case 'b':
        return size == 1 ? JJ_NP_BOOL : -1;
    case 'M':
        return size == 8 ? JJ_NP_DATETIME64 : -1;
    default:
        return -1;
    }
}

static int jj_np_array(jj_np_out *o, PyObject *obj, int depth) {
    PyObject *capsule = PyObject_GetAttr(obj, o->st->native.str_array_struct);
    if (!capsule) return -1;
    int rc = JJ_NP_UNSUPPORTED;
    const jj_array_interface *a = PyCapsule_CheckExact(capsule) ? PyCapsule_GetPointer(capsule, NULL) : NULL;
    if (!a) {
        PyErr_Clear();
    } else if (a->two != 2) {
        /* not an interface numpy makes: left to default like an unknown dtype */
    } else if (!(a->flags & JJ_NPY_C_CONTIGUOUS)) {
        /* orjson checks this first: a transposed or strided array of any dtype (and a
         * structured one, whose interface numpy gives without flags) */
        rc = JJ_NP_NOT_CONTIGUOUS;
    } else if (!(a->flags & JJ_NPY_NOTSWAPPED)) {
        /* an error even when there is a default */
        rc = jj_native_error(o->st, JJ_MSG_NUMPY_ENDIAN);
    } else if (a->nd > 0) {
        int elem = jj_np_elem_of(a->typekind, a->itemsize);
        if (elem >= 0) {
            o->elem = (jj_np_scalar)elem;
            o->itemsize = (size_t)a->itemsize;
            rc = 0;
            if (elem == JJ_NP_DATETIME64) rc = jj_dt64_unit_of(o->st, obj, &o->unit, &o->unit_num);
            const char *data = a->data;
            if (rc == 0) rc = jj_np_dim(o, a, 0, depth, &data);
        }
    }
    Py_DECREF(capsule);
    return rc;
}

static int jj_np_scalar_write(jj_np_out *o, PyObject *obj) {
    int index = jj_native_np_scalar_index(o->st, Py_TYPE(obj));
    if (index < 0) return JJ_NP_UNSUPPORTED; /* classify took it: cannot happen */
    o->elem = (jj_np_scalar)index;
    const char *p;
    switch (o->elem) {
    case JJ_NP_FLOAT64: p = (const char *)&((jj_np_f64 *)obj)->v; break;
    case JJ_NP_FLOAT32: p = (const char *)&((jj_np_f32 *)obj)->v; break;
    case JJ_NP_INT64: case JJ_NP_UINT64: p = (const char *)&((jj_np_i64 *)obj)->v; break;
    case JJ_NP_INT32: case JJ_NP_UINT32: p = (const char *)&((jj_np_i32 *)obj)->v; break;
    case JJ_NP_INT16: case JJ_NP_UINT16: case JJ_NP_FLOAT16: p = (const char *)&((jj_np_i16 *)obj)->v; break;
    case JJ_NP_INT8: case JJ_NP_UINT8: case JJ_NP_BOOL: p = (const char *)&((jj_np_u8 *)obj)->v; break;
    default: {
        jj_np_dt64 *d = (jj_np_dt64 *)obj;
        o->unit = d->unit >= 0 && d->unit < JJ_DT_UNITS && d->unit != 3 ? d->unit : JJ_DT_GENERIC;
        o->unit_num = d->num;
        p = (const char *)&d->v;
        break;
    }
    }
    return jj_np_elem(o, p);
}

int jj_native_write_numpy(jj_state *st, jj_writer *w, PyObject *obj, jj_native_kind kind, const jj_dumpb_opts *opts,
                          int depth) {
    jj_np_out o = {st, w, opts, JJ_NP_FLOAT64, 0, 1, 8};
    if (kind == JJ_NATIVE_NUMPY_ARRAY) return jj_np_array(&o, obj, depth);
    return jj_np_scalar_write(&o, obj);
}
