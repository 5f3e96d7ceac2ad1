/* Arrow record batches to NDJSON: the engine behind jetjson.dumpb_arrow.
 *
 * A batch is an Arrow array of a struct type (the C Data Interface, jetjson_arrow_abi.h):
 * each row is written as one JSON object and a line break into a jj_sink
 * (jetjson_write.h). The schema is compiled once into a plan (its types checked, the keys
 * escaped), then any number of batches of that schema are written with it.
 *
 * What each Arrow type becomes:
 *   null ("n")                       null
 *   bool ("b")                       true / false
 *   int8..int64, uint8..uint64       the integer
 *   float16/32/64 ("e" "f" "g")      as dumpb writes them: float64 as orjson (1e16, 0.1),
 *                                    float32 shortest for a float32 (as dumpb writes a
 *                                    numpy.float32), float16 as the double it holds;
 *                                    NaN and infinities as null
 *   utf8, large utf8, utf8 view      a string, escaped as orjson does (" \ and controls);
 *   ("u" "U" "vu")                   invalid UTF-8 is an error (JJ_AW_UTF8)
 *   timestamp[s|ms|us|ns, tz?]       "2015-01-01T15:00:00.250000Z": UTC, the fraction with
 *                                    the unit's digits (3, 6, 9) when it is not zero, "Z"
 *                                    when the type has a time zone (any zone: the values
 *                                    are UTC instants); years outside 0000..9999 with more
 *                                    digits or a minus sign ("-0001", "12345")
 *   date32, date64 ("tdD" "tdm")     "2015-01-01" (date64: the day of the instant)
 *   time32, time64 ("tts" .. "ttn")  "15:00:00", "15:00:00.250" (fraction as above)
 *   struct ("+s")                    an object, keys in field order
 *   list, large list, fixed-size     an array
 *   list ("+l" "+L" "+w:N")
 *   dictionary-encoded anything      the dictionary's value at the index
 *   decimal32/64/128/256 ("d:P,S")   a number with exactly S digits after the point
 *                                    ("1.50", "-0.01"; a negative S appends zeros), as
 *                                    format(decimal.Decimal, "f") writes it
 * Other types (binary, duration, interval, map, union, list views, run-end encoded...)
 * are rejected when the plan is made: JJ_AW_UNSUPPORTED naming the field.
 *
 * Validity bitmaps and the offsets of every array (sliced arrays) are honoured. A null
 * field is written "key":null, or left out with JJ_AW_SKIP_NULLS (at every struct
 * level; a null inside a list stays null). A null row of the top-level struct is the
 * line "null".
 *
 * The arrays are trusted as any Arrow consumer trusts them (offsets in range, buffers as
 * long as the type needs): only their shape (buffer and child counts, missing buffers)
 * is checked, JJ_AW_BAD_ARRAY otherwise. No global state: plans are read-only while
 * writing, so threads may write batches with one plan at once. */
#ifndef JETJSON_ARROW_WRITE_H
#define JETJSON_ARROW_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "jetjson_arrow_abi.h"
#include "jetjson_write.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum jj_aw_error {
    JJ_AW_OK = 0,
    JJ_AW_NOMEM,       /* an allocation or the sink failed */
    JJ_AW_NOT_STRUCT,  /* the top-level type is not a struct (not a record batch) */
    JJ_AW_UNSUPPORTED, /* a field's type cannot be written (status: field, format) */
    JJ_AW_BAD_FORMAT,  /* a format string the Arrow spec does not define */
    JJ_AW_BAD_ARRAY,   /* an array does not have the shape of its type */
    JJ_AW_UTF8,        /* a string or a field name is not valid UTF-8 */
} jj_aw_error;

/* Where an error happened: the field as a path ("payload.commits[].sha": struct fields
 * joined by '.', "[]" for list items; truncated to fit), its Arrow format string, and
 * for errors while writing, the row of the batch (else -1). */
typedef struct jj_aw_status {
    jj_aw_error error;
    int64_t row;
    char field[256];
    char format[64];
} jj_aw_status;

/* A short English name of the error ("unsupported Arrow type"). */
const char *jj_aw_error_name(jj_aw_error err);

/* Flags of jj_aw_plan_new. */
#define JJ_AW_SKIP_NULLS 1u /* leave null fields out of their object */

typedef struct jj_aw_plan jj_aw_plan;

/* Compile `schema` (a struct type: the schema of a record batch). Returns JJ_AW_OK and
 * *plan (free with jj_aw_plan_free), or an error described in *status. The schema is not
 * kept: it may be released once this returns. */
jj_aw_error jj_aw_plan_new(const struct ArrowSchema *schema, unsigned flags, jj_aw_plan **plan,
                           jj_aw_status *status);
void jj_aw_plan_free(jj_aw_plan *plan);

/* Write every row of `batch` (an array of the plan's schema) as NDJSON to `out`.
 * JJ_AW_OK, or an error in *status (the sink then holds the rows before the bad one,
 * possibly part of it). */
jj_aw_error jj_aw_write_batch(const jj_aw_plan *plan, const struct ArrowArray *batch, jj_sink *out,
                              jj_aw_status *status);

/* The same for rows [first, first + count) of the batch only (which must be within it):
 * a caller may write a batch in pieces (to size its buffer from the first rows, or to
 * give ranges to threads). status->row counts from the batch's first row. */
jj_aw_error jj_aw_write_rows(const jj_aw_plan *plan, const struct ArrowArray *batch, int64_t first, int64_t count,
                             jj_sink *out, jj_aw_status *status);

/* jj_aw_write_rows on up to `threads` threads (the caller's and pool workers,
 * jetjson_pool.h): the rows cut into ranges of `rows_per_part` written at once, each into
 * a buffer of its own started at `part_hint` bytes, joined in order. The bytes are
 * jj_aw_write_rows's; on a failure the rows are written again on the calling thread, so
 * the error and its row are exactly its too. Fewer than two parts' rows, or threads <= 1:
 * jj_aw_write_rows itself. */
jj_aw_error jj_aw_write_rows_threads(const jj_aw_plan *plan, const struct ArrowArray *batch, int64_t first,
                                     int64_t count, unsigned threads, int64_t rows_per_part, size_t part_hint,
                                     jj_sink *out, jj_aw_status *status);

#ifdef __cplusplus
}
#endif

#endif
