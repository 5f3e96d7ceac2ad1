/* The types read from JSON strings beyond str itself: datetime, date and time (RFC
 * 3339), uuid.UUID, decimal.Decimal and bytes/bytearray (base64), parsed here in C and
 * built with their constructors, accepting and refusing what msgspec does. */
#include <string.h>

#include "typed.h"

static int jt_digits(const uint8_t *s, size_t n, int *out) {
    int v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

/* "YYYY-MM-DD" at s (10 bytes). */
static int jt_date_part(const uint8_t *s, size_t len, int *y, int *m, int *d) {
    return len >= 10 && s[4] == '-' && s[7] == '-' && jt_digits(s, 4, y) == 0 && jt_digits(s + 5, 2, m) == 0 &&
                   jt_digits(s + 8, 2, d) == 0
               ? 0
               : -1;
}

typedef struct jt_clock {
    int h, mi, sec, us;
    int carry;    /* the fraction rounded up to a whole second */
    int has_tz;
    int offset;   /* seconds east of UTC */
} jt_clock;

/* "HH:MM:SS[.fraction][Z|+HH:MM|+HHMM]", the whole of s[0..len). */
static int jt_clock_part(const uint8_t *s, size_t len, jt_clock *c) {
    memset(c, 0, sizeof *c);
    if (len < 8 || s[2] != ':' || s[5] != ':' || jt_digits(s, 2, &c->h) < 0 || jt_digits(s + 3, 2, &c->mi) < 0 ||
        jt_digits(s + 6, 2, &c->sec) < 0)
        return -1;
    size_t i = 8;
    if (i < len && s[i] == '.') {
        size_t start = ++i;
        int us = 0, k = 0;
        while (i < len && s[i] >= '0' && s[i] <= '9') {
            if (k < 6) us = us * 10 + (s[i] - '0');
            else if (k == 6 && s[i] >= '5') c->carry = 1; /* rounded half up, as msgspec rounds */
            k++;
            i++;
        }
        if (i == start) return -1;
        for (; k < 6; k++) us *= 10;
        c->us = us;
    }
    if (i == len) return 0;
    c->has_tz = 1;
    if ((s[i] == 'Z' || s[i] == 'z') && i + 1 == len) return 0;
    if (s[i] != '+' && s[i] != '-') return -1;
    int sign = s[i] == '-' ? -1 : 1, oh, om;
    const uint8_t *z = s + i + 1;
    size_t rest = len - i - 1;
    if (rest == 5 && z[2] == ':') {
        if (jt_digits(z, 2, &oh) < 0 || jt_digits(z + 3, 2, &om) < 0) return -1;
    } else if (rest == 4) {
        if (jt_digits(z, 2, &oh) < 0 || jt_digits(z + 2, 2, &om) < 0) return -1;
    } else {
        return -1;
    }
    if (oh > 23 || om > 59) return -1;
    c->offset = sign * (oh * 3600 + om * 60);
    return 0;
}

/* timezone.utc, or timezone(timedelta(seconds=offset)). */
static PyObject *jt_tz(const jj_tnode *n, const jt_clock *c) {
    if (!c->has_tz) return Py_NewRef(Py_None);
    if (c->offset == 0) return Py_NewRef(n->objs[1]);
    PyObject *delta = PyObject_CallFunction(n->objs[3], "iii", 0, c->offset, 0);
    if (!delta) return NULL;
    PyObject *tz = PyObject_CallOneArg(n->objs[2], delta);
    Py_DECREF(delta);
    return tz;
}

/* The fraction rounded up to the next second: + timedelta(microseconds=1) from .999999. */
static PyObject *jt_carry(const jj_tnode *n, PyObject *v, const jt_clock *c) {
    if (!v || !c->carry || c->us != 999999) return v;
    PyObject *one = PyObject_CallFunction(n->objs[3], "iii", 0, 0, 1);
    PyObject *r = one ? PyNumber_Add(v, one) : NULL;
    Py_XDECREF(one);
    Py_DECREF(v);
    return r;
}

static PyObject *jt_invalid(jj_tpath *e, const char *what) {
    PyErr_Clear();
    jj_tpath_fail(e, PyUnicode_FromString(what));
    return NULL;
}

static PyObject *jt_datetime(jj_tpath *e, const jj_tnode *n, const uint8_t *s, size_t len) {
    int y, m, d;
    jt_clock c;
    if (len < 19 || jt_date_part(s, len, &y, &m, &d) < 0 || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
        jt_clock_part(s + 11, len - 11, &c) < 0)
        return jt_invalid(e, "Invalid RFC3339 encoded datetime");
    PyObject *tz = jt_tz(n, &c);
    if (!tz) return NULL;
    int us = c.carry && c.us < 999999 ? c.us + 1 : c.us;
    PyObject *v = PyObject_CallFunction(n->objs[0], "iiiiiiiO", y, m, d, c.h, c.mi, c.sec, us, tz);
    Py_DECREF(tz);
    if (!v && PyErr_ExceptionMatches(PyExc_ValueError)) return jt_invalid(e, "Invalid RFC3339 encoded datetime");
    return jt_carry(n, v, &c);
}

static PyObject *jt_date(jj_tpath *e, const jj_tnode *n, const uint8_t *s, size_t len) {
    int y, m, d;
    if (len != 10 || jt_date_part(s, len, &y, &m, &d) < 0) return jt_invalid(e, "Invalid RFC3339 encoded date");
    PyObject *v = PyObject_CallFunction(n->objs[0], "iii", y, m, d);
    if (!v && PyErr_ExceptionMatches(PyExc_ValueError)) return jt_invalid(e, "Invalid RFC3339 encoded date");
    return v;
}

static PyObject *jt_time(jj_tpath *e, const jj_tnode *n, const uint8_t *s, size_t len) {
    jt_clock c;
    if (jt_clock_part(s, len, &c) < 0) return jt_invalid(e, "Invalid RFC3339 encoded time");
    PyObject *tz = jt_tz(n, &c);
    if (!tz) return NULL;
    /* time has no arithmetic: a fraction that rounds up to the next second is kept at
     * .999999 (msgspec carries it; only a 7th digit of 5+ after six nines differs) */
    int us = c.carry && c.us < 999999 ? c.us + 1 : c.us;
    PyObject *v = PyObject_CallFunction(n->objs[0], "iiiiO", c.h, c.mi, c.sec, us, tz);
    Py_DECREF(tz);
    if (!v && PyErr_ExceptionMatches(PyExc_ValueError)) return jt_invalid(e, "Invalid RFC3339 encoded time");
    return v;
}

static int jt_hex(uint8_t ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    ch |= 0x20;
    return ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* 32 hex digits, with dashes at 8, 13, 18 and 23 or none: a UUID made as msgspec makes
 * it, object.__new__(UUID) with its `int` and `is_safe` slots set. */
static PyObject *jt_uuid(jj_tpath *e, const jj_tnode *n, const uint8_t *s, size_t len) {
    char hex[33];
    size_t k = 0;
    if (len != 32 && len != 36) return jt_invalid(e, "Invalid UUID");
    for (size_t i = 0; i < len; i++) {
        if (len == 36 && (i == 8 || i == 13 || i == 18 || i == 23)) {
            if (s[i] != '-') return jt_invalid(e, "Invalid UUID");
            continue;
        }
        if (jt_hex(s[i]) < 0) return jt_invalid(e, "Invalid UUID");
        hex[k++] = (char)s[i];
    }
    hex[k] = 0;
    PyObject *value = PyLong_FromString(hex, NULL, 16);
    if (!value) return NULL;
    PyTypeObject *cls = (PyTypeObject *)n->objs[0];
    PyObject *empty = PyTuple_New(0);
    PyObject *u = empty ? PyBaseObject_Type.tp_new(cls, empty, NULL) : NULL;
    Py_XDECREF(empty);
    if (u && (PyObject_GenericSetAttr(u, n->objs[2], value) < 0 || PyObject_GenericSetAttr(u, n->objs[3], n->objs[1]) < 0))
        Py_CLEAR(u);
    Py_DECREF(value);
    return u;
}

static PyObject *jt_decimal_text(jj_tpath *e, const jj_tnode *n, const uint8_t *s, size_t len) {
    PyObject *text = PyUnicode_DecodeUTF8((const char *)s, (Py_ssize_t)len, "surrogatepass");
    if (!text) return NULL;
    PyObject *v = PyObject_CallOneArg(n->objs[0], text);
    Py_DECREF(text);
    if (!v && !PyErr_ExceptionMatches(PyExc_MemoryError)) return jt_invalid(e, "Invalid decimal string");
    return v;
}

static int jt_b64(uint8_t ch) {
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+') return 62;
    if (ch == '/') return 63;
    return -1;
}

/* Standard base64 with its padding, as msgspec requires it. */
static PyObject *jt_bytes(jj_tpath *e, const jj_tnode *n, const uint8_t *s, size_t len) {
    if (len % 4) return jt_invalid(e, "Invalid base64 encoded string");
    size_t pad = len && s[len - 1] == '=' ? (len > 1 && s[len - 2] == '=' ? 2 : 1) : 0;
    size_t out_len = len / 4 * 3 - pad;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)out_len);
    if (!out) return NULL;
    uint8_t *d = (uint8_t *)PyBytes_AS_STRING(out);
    size_t o = 0;
    for (size_t i = 0; i < len; i += 4) {
        uint32_t acc = 0;
        for (size_t k = 0; k < 4; k++) {
            int v = i + k >= len - pad ? 0 : jt_b64(s[i + k]);
            if (v < 0) {
                Py_DECREF(out);
                return jt_invalid(e, "Invalid base64 encoded string");
            }
            acc = acc << 6 | (uint32_t)v;
        }
        for (int k = 2; k >= 0; k--) {
            if (o + (size_t)(2 - k) < out_len) d[o + (size_t)(2 - k)] = (uint8_t)(acc >> (8 * k));
        }
        o += 3;
    }
    if (n->str_kind == JT_BYTEARRAY) {
        PyObject *ba = PyByteArray_FromObject(out);
        Py_DECREF(out);
        return ba;
    }
    return out;
}

PyObject *jj_typed_str_convert(jj_tpath *e, const jj_tnode *n, const uint8_t *s, size_t len) {
    switch (n->str_kind) {
    case JT_DATETIME: return jt_datetime(e, n, s, len);
    case JT_DATE: return jt_date(e, n, s, len);
    case JT_TIME: return jt_time(e, n, s, len);
    case JT_UUID: return jt_uuid(e, n, s, len);
    case JT_DECIMAL: return jt_decimal_text(e, n, s, len);
    default: return jt_bytes(e, n, s, len);
    }
}

PyObject *jj_typed_decimal(jj_tpath *e, const jj_tnode *n, const uint8_t *s, size_t len) {
    return jt_decimal_text(e, n, s, len);
}
