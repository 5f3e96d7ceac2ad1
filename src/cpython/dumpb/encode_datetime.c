/* dumpb: the text of datetime.datetime, datetime.date and datetime.time values, as orjson
 * writes them (RFC 3339: "2020-01-02T03:04:05.000006+05:30"), and the date/time pieces
 * the numpy datetime64 writer shares. */
#include <string.h>

#include "encode_native_internal.h"
#include "dumpb_messages.h"
#include "jetjson_write.h"

#include "datetime_api.h"

/* v in [0, 99] as two digits */
static inline char *jj_two(char *p, int v) { return (char *)jj_write_digits2((uint8_t *)p, (unsigned)v); }

size_t jj_write_date(const jj_civil *t, char *out) {
    char *p = out;
    if (t->year >= 0 && t->year <= 9999) {
        int y = (int)t->year;
        p = jj_two(jj_two(p, y / 100), y % 100);
    } else {
        /* numpy's years: orjson pads the text, sign and all, to four characters (00-1) */
        char digits[JJ_INT_MAX_CHARS];
        size_t n = jj_format_int64(t->year, digits);
        for (size_t i = n; i < 4; i++) *p++ = '0';
        memcpy(p, digits, n);
        p += n;
    }
    *p++ = '-';
    p = jj_two(p, t->month);
    *p++ = '-';
    p = jj_two(p, t->day);
    return (size_t)(p - out);
}

size_t jj_write_time(const jj_civil *t, const jj_dumpb_opts *opts, char *out) {
    char *p = jj_two(out, t->hour);
    *p++ = ':';
    p = jj_two(p, t->minute);
    *p++ = ':';
    p = jj_two(p, t->second);
    if (t->microsecond && !opts->omit_microseconds) {
        int us = t->microsecond;
        *p++ = '.';
        p = jj_two(jj_two(jj_two(p, us / 10000), us / 100 % 100), us % 100);
    }
    return (size_t)(p - out);
}

size_t jj_write_offset(int days, int seconds, const jj_dumpb_opts *opts, char *out) {
    if (seconds == 0) {
        if (opts->utc_z) {
            out[0] = 'Z';
            return 1;
        }
        memcpy(out, "+00:00", 6);
        return 6;
    }
    /* a negative offset is days = -1 and seconds counted up from there */
    int neg = days < 0;
    int s = neg ? 86400 - seconds : seconds;
    int minute = s % 3600 / 60 + (s % 60 >= 30); /* may reach 60: orjson writes +23:60 */
    out[0] = neg ? '-' : '+';
    jj_two(out + 1, s / 3600);
    out[3] = ':';
    jj_two(out + 4, minute);
    return 6;
}

/* PyObject_GetOptionalAttr under its 3.11/3.12 name: 1 and the attribute, 0 when it is
 * missing (no exception), -1 on error. */
static int jj_optional_attr(PyObject *obj, PyObject *name, PyObject **out) {
#if PY_VERSION_HEX >= 0x030D0000
    return PyObject_GetOptionalAttr(obj, name, out);
#else
    return _PyObject_LookupAttr(obj, name, out);
#endif
}

/* What orjson asks for the offset: pendulum's tzinfo (it has convert) and the others
 * answer dt.utcoffset(); pytz's (it has normalize) answers
 * tz.normalize(dt).utcoffset(). A new reference to a timedelta or None, or NULL. */
static PyObject *jj_utcoffset_of(jj_state *st, PyObject *dt, PyObject *tz) {
    jj_native_cache *c = &st->native;
    PyTypeObject *tt = Py_TYPE(tz);
    /* the standard library's own tzinfos answer well-formed offsets: ask them directly
     * (the datetime's utcoffset() would call the same and check the answer) */
    if (tt == c->timezone_type || jj_native_is_zoneinfo(st, tt))
        return PyObject_CallMethodOneArg(tz, c->str_utcoffset, dt);
    PyObject *attr = NULL;
    int has = jj_optional_attr(tz, c->str_convert, &attr);
    Py_XDECREF(attr);
    if (has < 0) return NULL;
    if (has) return PyObject_CallMethodNoArgs(dt, c->str_utcoffset);
    PyObject *normalize = NULL;
    has = jj_optional_attr(tz, c->str_normalize, &normalize);
    if (has <= 0) return has < 0 ? NULL : PyObject_CallMethodNoArgs(dt, c->str_utcoffset);
    PyObject *normalized = PyObject_CallOneArg(normalize, dt);
    Py_DECREF(normalize);
    if (!normalized) return NULL;
    PyObject *offset = PyObject_CallMethodNoArgs(normalized, c->str_utcoffset);
    Py_DECREF(normalized);
    return offset;
}

/* The offset of an aware datetime as a timedelta's days and seconds. None counts as
 * zero (orjson then writes +00:00). Returns 0, or -1 with an exception set. */
static int jj_datetime_offset(jj_state *st, PyObject *dt, PyObject *tz, int *days, int *seconds) {
    *days = 0;
    *seconds = 0;
    if (tz == st->native.utc) return 0;
    PyObject *offset = jj_utcoffset_of(st, dt, tz);
    if (!offset) return -1;
    int rc = 0;
    if (PyObject_TypeCheck(offset, st->native.delta_type)) {
        *days = PyDateTime_DELTA_GET_DAYS(offset);
        *seconds = PyDateTime_DELTA_GET_SECONDS(offset);
    } else if (offset != Py_None) {
        PyErr_Format(PyExc_TypeError, "utcoffset() must return None or a timedelta, not '%.200s'",
                     Py_TYPE(offset)->tp_name);
        rc = -1;
    }
    Py_DECREF(offset);
    return rc;
}

Py_ssize_t jj_datetime_text(jj_state *st, PyObject *obj, jj_native_kind kind, const jj_dumpb_opts *opts, char *out) {
    jj_civil t = {0, 1, 1, 0, 0, 0, 0};
    char *p = out;
    if (kind != JJ_NATIVE_TIME) {
        t.year = PyDateTime_GET_YEAR(obj);
        t.month = PyDateTime_GET_MONTH(obj);
        t.day = PyDateTime_GET_DAY(obj);
        p += jj_write_date(&t, p);
        if (kind == JJ_NATIVE_DATE) return p - out;
        *p++ = 'T';
        t.hour = PyDateTime_DATE_GET_HOUR(obj);
        t.minute = PyDateTime_DATE_GET_MINUTE(obj);
        t.second = PyDateTime_DATE_GET_SECOND(obj);
        t.microsecond = PyDateTime_DATE_GET_MICROSECOND(obj);
        p += jj_write_time(&t, opts, p);
        PyObject *tz = PyDateTime_DATE_GET_TZINFO(obj);
        if (tz != Py_None) {
            int days, seconds;
            if (jj_datetime_offset(st, obj, tz, &days, &seconds) < 0) return -1;
            p += jj_write_offset(days, seconds, opts, p);
        } else if (opts->naive_utc) {
            p += jj_write_offset(0, 0, opts, p);
        }
        return p - out;
    }
    if (PyDateTime_TIME_GET_TZINFO(obj) != Py_None)
        return jj_native_error(st, JJ_MSG_TIME_TZINFO);
    t.hour = PyDateTime_TIME_GET_HOUR(obj);
    t.minute = PyDateTime_TIME_GET_MINUTE(obj);
    t.second = PyDateTime_TIME_GET_SECOND(obj);
    t.microsecond = PyDateTime_TIME_GET_MICROSECOND(obj);
    size_t n = jj_write_time(&t, opts, p);
    if (n == 15 && t.microsecond >= 10000 && t.microsecond < 100000) {
        /* orjson 3.13 writes a time's microseconds 10000..99999 with five digits, the
         * leading zero dropped ("00:00:00.10000"); its datetimes keep six */
        memmove(p + 9, p + 10, 5);
        n--;
    }
    return (Py_ssize_t)n;
}
