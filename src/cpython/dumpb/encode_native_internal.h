/* What encode_native.c, encode_datetime.c, encode_uuid.c and encode_numpy.c share, and
 * nobody else needs. */
#ifndef JJ_CPYTHON_ENCODE_NATIVE_INTERNAL_H
#define JJ_CPYTHON_ENCODE_NATIVE_INTERNAL_H

#include <stdint.h>

#include "encode_native.h"

/* The numpy scalar types orjson serializes, in jj_native_cache.np_scalars order. */
typedef enum jj_np_scalar {
    JJ_NP_FLOAT64, JJ_NP_FLOAT32, JJ_NP_INT64, JJ_NP_INT32, JJ_NP_INT16, JJ_NP_INT8,
    JJ_NP_UINT64, JJ_NP_UINT32, JJ_NP_UINT16, JJ_NP_UINT8, JJ_NP_BOOL, JJ_NP_DATETIME64,
    JJ_NP_FLOAT16,
} jj_np_scalar;

/* Index of `type` in the numpy scalar table, or -1 (numpy must be looked up already). */
int jj_native_np_scalar_index(jj_state *st, PyTypeObject *type);
/* Whether type is zoneinfo.ZoneInfo (looked up in sys.modules, never imported). */
int jj_native_is_zoneinfo(jj_state *st, PyTypeObject *type);
/* Raise jetjson.JSONEncodeError(msg); returns -1. */
int jj_native_error(jj_state *st, const char *msg);

/* A broken-down date and time, as orjson writes it. */
typedef struct jj_civil {
    int64_t year;
    int month, day, hour, minute, second, microsecond;
} jj_civil;

/* "YYYY-MM-DD" (years outside 0..9999: the text zero-padded to 4 characters, sign
 * included); returns the length. out needs 24 bytes. */
size_t jj_write_date(const jj_civil *t, char *out);
/* "HH:MM:SS" and ".ffffff" when microsecond is nonzero and OMIT_MICROSECONDS is not set;
 * returns the length (at most 15). */
size_t jj_write_time(const jj_civil *t, const jj_dumpb_opts *opts, char *out);
/* The UTC offset as orjson writes it, from a timedelta's days and seconds (days is -1
 * or 0): "+00:00" or "Z" for a zero second count, else the sign and hours:minutes with
 * the seconds rounded half up into the minutes. Returns the length (at most 7). */
size_t jj_write_offset(int days, int seconds, const jj_dumpb_opts *opts, char *out);

/* encode_datetime.c and encode_uuid.c: jj_native_text for each kind. */
Py_ssize_t jj_datetime_text(jj_state *st, PyObject *obj, jj_native_kind kind, const jj_dumpb_opts *opts, char *out);
Py_ssize_t jj_uuid_text(jj_state *st, PyObject *obj, char *out);

#endif
