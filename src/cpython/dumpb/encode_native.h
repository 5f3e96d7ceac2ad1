/* dumpb's native types: the contract between the orjson-compatible encoder
 * (encode_orjson.c, which walks objects and decides what each one is) and the writers
 * of datetime/date/time (encode_datetime.c), uuid.UUID (encode_uuid.c) and numpy
 * (encode_numpy.c). */
#ifndef JJ_CPYTHON_ENCODE_NATIVE_H
#define JJ_CPYTHON_ENCODE_NATIVE_H

#include <stdint.h>

#include "state.h"
#include "writer.h"

/* orjson's option bits, same numeric values. */
#define JJ_OPT_INDENT_2 (1u << 0)
#define JJ_OPT_NAIVE_UTC (1u << 1)
#define JJ_OPT_NON_STR_KEYS (1u << 2)
#define JJ_OPT_OMIT_MICROSECONDS (1u << 3)
#define JJ_OPT_SERIALIZE_NUMPY (1u << 4)
#define JJ_OPT_SORT_KEYS (1u << 5)
#define JJ_OPT_STRICT_INTEGER (1u << 6)
#define JJ_OPT_UTC_Z (1u << 7)
#define JJ_OPT_PASSTHROUGH_SUBCLASS (1u << 8)
#define JJ_OPT_PASSTHROUGH_DATETIME (1u << 9)
#define JJ_OPT_APPEND_NEWLINE (1u << 10)
#define JJ_OPT_PASSTHROUGH_DATACLASS (1u << 11)
#define JJ_OPT_ALL ((1u << 12) - 1)

/* dumpb's options, parsed once per call from orjson's option int (jj_dumpb_opts_of):
 * every writer reads these fields, none the bits. */
typedef struct jj_dumpb_opts {
    uint32_t bits; /* as given (validated) */
    unsigned char indent_2, sort_keys, non_str_keys, strict_integer, append_newline;
    unsigned char serialize_numpy, passthrough_subclass, passthrough_dataclass, passthrough_datetime;
    unsigned char naive_utc, utc_z, omit_microseconds;
    /* not an orjson option: set while a dict key is classified or written under
     * NON_STR_KEYS; orjson then ignores PASSTHROUGH_DATETIME and takes no numpy value */
    unsigned char key;
} jj_dumpb_opts;

static inline jj_dumpb_opts jj_dumpb_opts_of(uint32_t bits) {
    jj_dumpb_opts o;
    o.bits = bits;
    o.indent_2 = (bits & JJ_OPT_INDENT_2) != 0;
    o.sort_keys = (bits & JJ_OPT_SORT_KEYS) != 0;
    o.non_str_keys = (bits & JJ_OPT_NON_STR_KEYS) != 0;
    o.strict_integer = (bits & JJ_OPT_STRICT_INTEGER) != 0;
    o.append_newline = (bits & JJ_OPT_APPEND_NEWLINE) != 0;
    o.serialize_numpy = (bits & JJ_OPT_SERIALIZE_NUMPY) != 0;
    o.passthrough_subclass = (bits & JJ_OPT_PASSTHROUGH_SUBCLASS) != 0;
    o.passthrough_dataclass = (bits & JJ_OPT_PASSTHROUGH_DATACLASS) != 0;
    o.passthrough_datetime = (bits & JJ_OPT_PASSTHROUGH_DATETIME) != 0;
    o.naive_utc = (bits & JJ_OPT_NAIVE_UTC) != 0;
    o.utc_z = (bits & JJ_OPT_UTC_Z) != 0;
    o.omit_microseconds = (bits & JJ_OPT_OMIT_MICROSECONDS) != 0;
    o.key = 0;
    return o;
}

/* Longest text of a datetime/date/time/UUID value, without quotes. */
#define JJ_NATIVE_TEXT_MAX 64

typedef enum jj_native_kind {
    JJ_NATIVE_NONE = 0,   /* not one of these: the caller goes on with its own checks */
    JJ_NATIVE_DATETIME,
    JJ_NATIVE_DATE,
    JJ_NATIVE_TIME,
    JJ_NATIVE_UUID,
    JJ_NATIVE_NUMPY_ARRAY,
    JJ_NATIVE_NUMPY_SCALAR,
} jj_native_kind;

/* What obj is, among the kinds above, exactly as orjson decides it for these options
 * (exact type or subclass as orjson does; numpy only with JJ_OPT_SERIALIZE_NUMPY and
 * only when numpy is already imported; datetime kinds are JJ_NATIVE_NONE under
 * JJ_OPT_PASSTHROUGH_DATETIME). Never raises. */
jj_native_kind jj_native_classify(jj_state *st, PyObject *obj, const jj_dumpb_opts *opts);

/* The text orjson writes for a DATETIME, DATE, TIME or UUID (without the quotes) into
 * out (JJ_NATIVE_TEXT_MAX bytes). Returns its length, or -1 with an exception set
 * (jetjson.JSONEncodeError with orjson's message where orjson raises, e.g. a time with
 * a tzinfo; or whatever utcoffset() raised). Used for values and, with
 * JJ_OPT_NON_STR_KEYS, for dict keys. */
Py_ssize_t jj_native_text(jj_state *st, PyObject *obj, jj_native_kind kind, const jj_dumpb_opts *opts, char *out);

/* What jj_native_write_numpy returns for an array orjson hands to `default` (and
 * refuses with its own message when there is none). */
enum { JJ_NP_NOT_CONTIGUOUS = 1, JJ_NP_UNSUPPORTED = 2 };

/* Writes a NUMPY_ARRAY or NUMPY_SCALAR as orjson does, laid out for JJ_OPT_INDENT_2 at
 * nesting `depth` (the depth of the array itself: 0 for the root) when that option is
 * set. Returns 0, or -1 with an exception set (orjson's messages: the other byte order,
 * datetime64 units and ranges). An array orjson would hand to `default` returns
 * JJ_NP_NOT_CONTIGUOUS (not C-contiguous, orjson's order of checks: before the byte
 * order) or JJ_NP_UNSUPPORTED (no dimension, or a dtype orjson does not write) with
 * nothing written and no exception. */
int jj_native_write_numpy(jj_state *st, jj_writer *w, PyObject *obj, jj_native_kind kind, const jj_dumpb_opts *opts,
                          int depth);

/* Per-interpreter setup and teardown of what these writers cache (type objects,
 * found lazily, see jj_native_init): called from the module's exec and clear/free. */
int jj_native_init(jj_state *st);
void jj_native_clear(jj_state *st);

#endif
