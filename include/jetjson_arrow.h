/* jetjson engine: NDJSON -> Apache Arrow record batches, without any value in between.
 *
 * jj_arrow_read_ndjson parses the records of a buffer (line by line with jj_parse_lazy,
 * so that only the values read are converted; where a record is not alone on its line,
 * by documents with jj_many_*) and appends each record's tape to column builders; the
 * result is an ArrowArrayStream (jetjson_arrow_abi.h) of struct arrays (record batches),
 * one per `block_size` bytes of input or so (inferring a table of more than 64 columns
 * from an input read in windows, see Threads below: one per window of 16 KiB of input a
 * column where that is more, as pyarrow's import costs per batch and column). Every
 * record must be a JSON object (or null: a record of nulls, as pyarrow reads it). Every
 * value is validated, skipped or not.
 *
 * Types: null "n", bool "b", int64 "l", uint64 "L", float64 "g", utf8 string "u",
 * timestamp "ts{s,m,u,n}:[zone]", struct "+s", list "+l" (item field "item").
 *
 * Without a schema the types are inferred over the whole input as pyarrow.json.read_json
 * infers them: fields in order of first appearance (nested objects likewise); a null
 * takes the type of the other values (all null: type null); integers that fit in int64
 * are int64, other numbers double (integers become doubles beside them); a column whose
 * strings all read as ISO 8601 timestamps without a fraction ("2015-01-01",
 * "2015-01-01T15:00:00Z", "2015-01-01 15:00+01:00") is timestamp[s]; other mixes are an
 * error (JJ_ARROW_TYPE_CHANGE), as is a key twice in one object (JJ_ARROW_DUPLICATE).
 *
 * With a schema (a struct schema, as pyarrow exports a Schema), its fields are read: a
 * field absent from a record is null, a key absent from the schema is skipped (an error
 * with error_on_unknown_fields), a value of another type is JJ_ARROW_TYPE_CHANGE.
 * Doubles take any number; int64 an integer that fits; uint64 a non-negative one; a
 * timestamp an integer (units since 1970) or an ISO 8601 string: a date, optionally
 * "T" or " " and HH, HH:MM, HH:MM:SS or HH:MM:SS.fraction (at most the unit's digits),
 * optionally "Z" or an offset (+HH, +HHMM, +HH:MM); no offset means UTC. A lowercase "t"
 * or "z" and a comma before the fraction are taken too (not when inferring).
 *
 * Memory: every buffer is 64-byte aligned and owned by the stream's shared table, which
 * lives as long as the stream or any array exported from it (an atomic count: arrays and
 * their children may be released in any order, from any thread). String bytes are
 * copied: the input may go away once jj_arrow_read_ndjson returns.
 *
 * Memory kept between calls (any thread may reuse it): released mappings of column
 * buffers of 16 KiB and more, up to 128 MiB in all, and up to 4 parsers of the threads'
 * parts, so that the next call writes to pages already mapped (not to fresh pages that
 * fault in one by one: on a worker thread, glibc gives its arena's pages back each time).
 * jj_arrow_release_kept gives them all back.
 *
 * Threads: any number of calls at once (one parser each). With
 * opt->threads > 1 (and 256 KiB of input a thread), the calling thread and threads of
 * its own (pthreads) read the input, each record on one line: inferring, in windows
 * (below) that each thread takes in turn as it is free, so a slower thread takes fewer;
 * with a schema, one part per thread. The types the windows inferred are merged in the
 * input's order as one pass would have inferred them (folded as the windows are read,
 * the windows then made of them on the threads). A window that fails (or types that do
 * not mix) makes the whole input read again on the calling thread, so results and
 * errors do not depend on the threads. Inferring, an input over 2 MiB is read in
 * windows of 1 MiB or more (16 KiB a column past 64 columns, never more than its share
 * of a thread), each into columns of its own (as by jj_arrow_reader below) and one or
 * more record batches: faster, the same table. */
#ifndef JETJSON_ARROW_H
#define JETJSON_ARROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jetjson.h"
#include "jetjson_arrow_abi.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum jj_arrow_status {
    JJ_ARROW_OK = 0,
    JJ_ARROW_NOMEM,        /* allocation failed */
    JJ_ARROW_JSON,         /* a record is not valid JSON (json_error says why) */
    JJ_ARROW_NOT_OBJECT,   /* a record is not a JSON object */
    JJ_ARROW_TYPE_CHANGE,  /* a value's type does not fit its column */
    JJ_ARROW_DUPLICATE,    /* a key twice in one object */
    JJ_ARROW_UNKNOWN_FIELD,/* a key not in the schema (error_on_unknown_fields) */
    JJ_ARROW_BAD_VALUE,    /* a number out of its type's range, a bad timestamp */
    JJ_ARROW_SCHEMA,       /* the schema has a type that is not supported */
    JJ_ARROW_TOO_LARGE     /* a string or list column past 2^31 - 1 bytes or items */
} jj_arrow_status;

/* A short English description of a status (static storage). */
const char *jj_arrow_status_name(jj_arrow_status status);

typedef struct jj_arrow_options {
    size_t block_size;            /* bytes of input per batch (0: 1 MiB) */
    bool error_on_unknown_fields; /* with a schema: a key it lacks is an error */
    unsigned threads;             /* up to this many threads read parts of the input cut
                                   * at line ends (0, 1: the calling thread) */
} jj_arrow_options;

/* Why a read failed: the status, the record (counting from 0), the field's path
 * ("/a/b", "/tags/[]" for list items; "" for the record itself) and a message. */
typedef struct jj_arrow_error {
    jj_arrow_status status;
    jj_error json_error;  /* JJ_ARROW_JSON: the parser's error */
    size_t offset;        /* JJ_ARROW_JSON: its byte offset in the input */
    int64_t record;
    char field[256];      /* truncated if longer */
    char message[160];
} jj_arrow_error;

/* Reads NDJSON buf[0..len) into *out (a stream to release with out->release). schema is
 * NULL (infer) or a struct schema, only read (the caller keeps and releases it). The
 * parser p is used for the records read on the calling thread. *num_rows gets the number of records. Returns
 * JJ_ARROW_OK, or a status with *err filled (out is then left released). */
jj_arrow_status jj_arrow_read_ndjson(jj_parser *p, const uint8_t *buf, size_t len,
                                     const struct ArrowSchema *schema, const jj_arrow_options *opt,
                                     struct ArrowArrayStream *out, int64_t *num_rows,
                                     jj_arrow_error *err);

/* Unmaps the column buffers and frees the parsers kept between calls (see Memory above);
 * calls under way are not disturbed. */
void jj_arrow_release_kept(void);

/* ---- Reading a stream in chunks (a file object, a socket: no buffer of the whole) ----
 * jj_arrow_reader_feed reads the whole lines of each chunk; the caller keeps the rest
 * and gives it again, followed by more input. Input memory is then the caller's chunk
 * plus the longest record. The result is the one jj_arrow_read_ndjson gives for the
 * whole input (the batches may be cut elsewhere), and so are its errors: the record and
 * the byte offset count from the start of the stream. (One exception: a record that is
 * not valid JSON is named alike, but where the broken record runs on into invalid UTF-8
 * that a later chunk holds, the whole input's error is that UTF-8, the chunk's the
 * syntax error it saw first.) Each chunk's records are read into
 * columns of their own, which start (without a schema) of the types inferred so far; at
 * the end the chunks' types are merged as the threads' parts are. */
typedef struct jj_arrow_reader jj_arrow_reader;

/* A reader of the given schema (NULL: infer; it must stay valid until the reader is
 * freed) and options (opt->threads is not used). NULL when out of memory. */
jj_arrow_reader *jj_arrow_reader_new(const struct ArrowSchema *schema, const jj_arrow_options *opt);
/* Reads the records of buf[0..len): with more_input, those on the lines up to the last
 * newline (a record across lines, up to where the last whole one ends), without it
 * everything (the end of the input). *used gets the bytes read: the caller gives
 * buf[*used..len) again at the start of the next chunk (0: more input is needed first).
 * JJ_ARROW_OK, or a status with *err filled: the reader is then only to be freed. */
jj_arrow_status jj_arrow_reader_feed(jj_arrow_reader *r, const uint8_t *buf, size_t len, bool more_input,
                                     size_t *used, jj_arrow_error *err);
/* After the last feed (more_input false): the stream of every record (as from
 * jj_arrow_read_ndjson), *num_rows their number. JJ_ARROW_OK, or a status with *err
 * filled. Either way the reader is then only to be freed. */
jj_arrow_status jj_arrow_reader_finish(jj_arrow_reader *r, struct ArrowArrayStream *out, int64_t *num_rows,
                                       jj_arrow_error *err);
void jj_arrow_reader_free(jj_arrow_reader *r);

/* A copy of a schema without dictionaries (the one a stream from jj_arrow_read_ndjson
 * gives, say) that lives on its own: names, formats, flags and children; the metadata is
 * not copied. 0, or ENOMEM / EINVAL (out is then released). For a holder that gives the
 * stream away and must still answer for its schema. */
int jj_arrow_schema_copy(const struct ArrowSchema *from, struct ArrowSchema *out);

#ifdef __cplusplus
}
#endif
#endif
