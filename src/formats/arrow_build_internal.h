/* Shared by the NDJSON -> Arrow builder's files (arrow_build*.c): the column builders,
 * the table they make, and the export to the C Data / C Stream interfaces. */
#ifndef JJ_ARROW_BUILD_INTERNAL_H
#define JJ_ARROW_BUILD_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jetjson_arrow.h"

/* Nesting of objects and arrays the builders follow (their walk recurses, so it is
 * bounded; deeper records are an error). */
#define AB_MAX_DEPTH 100

typedef enum ab_kind {
    AB_NULL,
    AB_BOOL,
    AB_INT,
    AB_UINT,
    AB_DOUBLE,
    AB_STRING,
    AB_TIMESTAMP,
    AB_STRUCT,
    AB_LIST
} ab_kind;

/* A growable buffer, 64-byte aligned. Its unused tail is not zeroed (that faulted in
 * pages never used): whatever takes bytes that must be zero zeroes them. */
typedef struct ab_buf {
    uint8_t *data;
    size_t len, cap;
} ab_buf;

/* One column: its type, its values so far, its children (struct fields, list item). */
typedef struct ab_col {
    ab_kind kind;
    bool fixed;    /* the type comes from a schema: it never changes */
    bool ts_maybe; /* inferred strings: not known yet not to be timestamps[s] (they are
                    * read as such once the column is complete: ab_fill_fields) */
    char *name;
    size_t name_len;
    char *format;  /* timestamps: the format string with the unit and zone */
    int ts_unit;   /* timestamps: 0 s, 1 ms, 2 us, 3 ns */
    int64_t flags; /* ArrowSchema flags (nullable) */
    int64_t length, null_count;
    ab_buf valid;   /* validity bits */
    ab_buf data;    /* bool bits, 8-byte values, or string bytes */
    ab_buf offsets; /* int32 offsets of strings and lists */
    /* one or the other, by kind: as a field of its own it grew every column, which moved
     * glibc's heap enough to fault in twice the pages a call (flat 40 MB: 54 -> 60 ms) */
    union {
        ab_buf ts_values; /* ts_maybe strings, once settled: the strings as seconds (8 bytes a row) */
        ab_buf neg_zeros; /* inferred int64: the rows read from "-0" (8 bytes each), -0.0 if
                           * the column turns double, as pyarrow reads them */
    };
    struct ab_col **kids;
    size_t n_kids, kids_cap;
    uint32_t *slots; /* structs of many fields: a hash table of their indexes */
    size_t n_slots;
} ab_col;

/* One part of the input read by one thread: its columns and where its batches end. */
typedef struct ab_part {
    ab_col *root;        /* a struct: the record batch's columns */
    int64_t *batch_ends; /* rows at the end of each batch */
    size_t n_batches;
} ab_part;

/* The built table, shared by the stream and every array exported from it: its parts'
 * batches in order (every part has the same schema). */
typedef struct ab_table {
    atomic_long refs;
    ab_part *parts;
    size_t n_parts;
} ab_table;

/* A walk over one record's tape. */
typedef struct ab_walk {
    const uint8_t *input; /* what the tape's offsets count from */
    const uint8_t *strings;
    const uint64_t *tape;
    jj_parser *lazy;      /* with a schema: the parser of a lazy tape (jj_parse_lazy) */
    size_t input_len;
    bool error_on_unknown;
    jj_arrow_error *err;
    size_t number_room; /* bytes readable from input on (0: input_len): a number token
                         * near the end of its line still gets the fast path's lookahead */
} ab_walk;

/* arrow_build.c */
/* Appends the record whose tape is w->tape (an object, or null: a row of nulls). */
jj_arrow_status ab_append_record(ab_walk *w, ab_col *root);
/* After the last record: struct fields caught up, string columns that are all
 * timestamps turned into timestamps. */
jj_arrow_status ab_finish(ab_col *root);
/* Struct fields caught up with their structs (nulls), then the inferred string columns
 * that may be timestamps settled (all their strings read as seconds, or not timestamps),
 * as ab_finish does first: done by each window's reader (a thread's part: on its
 * thread) before its types are merged. */
jj_arrow_status ab_fill_fields(ab_col *root);
ab_col *ab_col_new(const char *name, size_t name_len);
void ab_col_free(ab_col *c);
/* Gives column c the kind k (c is of type null so far: its rows become nulls of k). */
jj_arrow_status ab_col_set_kind(ab_col *c, ab_kind k);
int ab_col_add_kid(ab_col *c, ab_col *kid);
/* An int64 column's values as doubles, in place (an integer met a fraction). */
void ab_col_ints_to_doubles(ab_col *c);
/* Gives c's buffers (and its fields', matched by place and name) room for about what
 * prev's hold, where their kinds agree: a window of records read after one like it
 * grows its columns once. Only a hint: nothing changes where memory is short. */
void ab_col_reserve_like(ab_col *c, const ab_col *prev);

/* arrow_build_pages.c: mappings of whole pages for big buffers. ab_pages_cached: one
 * released earlier, of size to 4 * size bytes (*got its size), or NULL; ab_pages_new: a
 * fresh one of size bytes, or NULL; ab_pages_release: back to the cache (its bytes are
 * then undefined) or unmapped. Any thread; sizes are multiples of the page size. */
void *ab_pages_cached(size_t size, size_t *got);
void *ab_pages_new(size_t size);
void ab_pages_release(void *at, size_t size);
/* A parser kept from an earlier call (or a new one; NULL: no memory), and back to the
 * keep (any thread; NULL is ignored; one grown too big is deleted). */
jj_parser *ab_parser_take(void);
void ab_parser_give(jj_parser *p);

/* arrow_build_time.c: an ISO 8601 timestamp (see jetjson_arrow.h) in units of 10^-(3*unit)
 * seconds since 1970. allow_fraction: the forms a schema's timestamp reads (a fraction,
 * also "t", "z" and a comma before the fraction); without it, the forms pyarrow infers as
 * timestamp[s]. 0, or -1 when the text is not one (or does not fit in 64 bits). */
int ab_parse_timestamp(const uint8_t *s, size_t n, int unit, bool allow_fraction, int64_t *out);
/* The rows[0..n) of a string column (bytes, rows + 1 int32 offsets, validity bits or
 * NULL for none) as inferred timestamps[s] into out[0..rows) (nulls 0): 0, or -1 at the
 * first string that is not one (out is then partly written). */
int ab_timestamps_of_strings(const uint8_t *bytes, const uint32_t *offsets, const uint8_t *valid, int64_t rows,
                             int64_t *out);

/* arrow_build_merge.c: the parts read without a schema (on several threads, or the
 * windows of one), given `merged`, the types one pass over the whole input would infer
 * (ab_merge_type of every part's root, in order), then finished (ab_finish).
 * JJ_ARROW_TYPE_CHANGE where their types do not mix (read again on one thread). */
jj_arrow_status ab_conform_parts(ab_part *parts, size_t n, const ab_col *merged);
/* The type of column c folded into `into`, a type tree without data (start: an empty
 * struct): JJ_ARROW_TYPE_CHANGE where they do not mix (`into` is then half merged). */
jj_arrow_status ab_merge_type(ab_col *into, const ab_col *c);
/* Empty columns of the types of tree t (inferred, not fixed): reading records into them
 * goes on from where one pass over the records that made t would be. NULL: no memory. */
ab_col *ab_type_seed(const ab_col *t);

/* arrow_build_read.c: the reading of one buffer (a whole input, a thread's part, or a
 * chunk of lines from a file object) into one root of columns. */
typedef struct ab_read {
    jj_parser *parser;
    jj_parser *lazy; /* ab_read_lazily's (may be parser itself) */
    const uint8_t *buf;
    size_t len, block;
    const struct ArrowSchema *schema;
    const jj_arrow_options *opt;
    jj_arrow_error *err;
    ab_col *root;
    int64_t *ends; /* rows at the end of each batch */
    size_t n_ends, ends_cap, next_cut;
    int64_t record_base; /* records before buf (error messages count from the input's start) */
    size_t offset_base;  /* bytes before buf (likewise) */
    unsigned many_flags; /* jj_many_start flags of the documents way (JJ_MANY_MORE_INPUT) */
    size_t stop;         /* after ab_read_by_documents: where the records read end (an
                          * incomplete last document starts there with JJ_MANY_MORE_INPUT) */
} ab_read;
/* A new empty root (the schema's columns, or none to infer); the batches forgotten. */
jj_arrow_status ab_read_reset(ab_read *r);
/* Ends a batch at the root's current length. */
jj_arrow_status ab_end_batch(ab_read *r);
/* The records parsed lazily from one index of the buffer (r->lazy: jj_many_start with
 * JJ_MANY_LAZY): JJ_ARROW_OK, or JJ_ARROW_JSON when that does not hold or a record is not
 * valid; any failure is to be redone by documents (exact errors), NOMEM aside. */
jj_arrow_status ab_read_lazily(ab_read *r);
/* Any JSON text sequence, with exact errors; r->stop set on success. */
jj_arrow_status ab_read_by_documents(ab_read *r);
/* arrow_build_feed.c: a whole input on one thread, fed to a jj_arrow_reader in windows
 * of AB_CHUNK bytes (16 KiB a column if more; block_size if larger): the columns of each
 * window stay small, in cache and in the allocator's reused memory, where one pass over
 * a big input grows big buffers of fresh pages (40 MB inferred, one thread, CPU: flat
 * 85 -> 76 ms, events 64 -> 58 ms). The same result. */
#define AB_CHUNK ((size_t)1 << 20)
#define AB_CHUNK_PER_COLUMN ((size_t)16 << 10)
/* parser: the caller's, used for every window (NULL: new ones). */
jj_arrow_status ab_read_chunked(jj_parser *parser, const uint8_t *buf, size_t len, const struct ArrowSchema *schema,
                                const jj_arrow_options *opt, struct ArrowArrayStream *out, int64_t *num_rows,
                                jj_arrow_error *err);
/* An input read by several threads (ab_read_queued_windows), handed out in windows of
 * whole lines in order, each to the first thread that asks: a thread slowed by anything
 * (its data, its core shared with other work) takes fewer, so none idles long at the
 * end. `lock` guards the rest. */
typedef struct ab_window_queue {
    pthread_mutex_t lock;
    const uint8_t *buf;
    size_t len;
    size_t from;        /* where the next window starts */
    size_t taken;       /* windows handed out so far (the next one's number) */
    size_t share;       /* no window is larger: len / threads, rounded up */
    bool failed;        /* a thread failed: the others take no more */
    /* inferring (else roots is NULL): the windows' types folded in order as they are
     * read, by whichever thread finds the next one read, so that little is left to merge
     * after the threads */
    ab_col **roots;       /* by number: a read window's columns (NULL: none, no record) */
    bool *read;           /* by number: the window is read */
    size_t n_slots;       /* room in roots and read: more than windows can be taken */
    pthread_mutex_t fold_lock; /* held by the thread folding (alone with merged, folded) */
    ab_col *merged;       /* the types of windows [0, folded) */
    size_t folded;
    jj_arrow_status fold_status;
    /* inferring, after the reading: the threads wait for the last one (which folds the
     * windows read last), then make windows of the merged types, taken in turn */
    pthread_cond_t all_read;
    size_t readers, finished; /* threads reading (known once readers_known), done reading */
    bool readers_known, merged_ready;
    size_t next_conform;
    jj_arrow_status conform_status;
} ab_window_queue;
/* Folds into q->merged the types of the windows read, in order, up to the first not yet
 * read; returns at once when another thread is folding. q->fold_status says how it went. */
void ab_fold_windows(ab_window_queue *q);
/* One thread's share of q: windows taken in turn and read by one reader, whose inferred
 * types go on from one of its windows to its next (a later one: the types one pass
 * would have there include them). Each window read is a part (*parts, moved out;
 * inferred types not conformed, with a schema finished) and (*windows) its number in
 * q's order. On failure q->failed is set and nothing is kept. */
jj_arrow_status ab_read_queued_windows(ab_window_queue *q, const struct ArrowSchema *schema,
                                       const jj_arrow_options *opt, ab_part **parts, size_t **windows,
                                       size_t *n_parts, jj_arrow_error *err);

/* The stream over parts[0..n) (moved in: freed on failure), *num_rows their rows. */
jj_arrow_status ab_parts_to_stream(ab_part *parts, size_t n, struct ArrowArrayStream *out, int64_t *num_rows);

/* arrow_build_export.c */
/* The columns of a struct schema as fixed builders under a new root. */
jj_arrow_status ab_import_schema(const struct ArrowSchema *schema, ab_col **root, jj_arrow_error *err);
/* A table of one reference over parts[0..n) (moved in; freed on failure: NULL). */
ab_table *ab_table_new(ab_part *parts, size_t n);
/* Wraps the table (whose one reference moves in) into a stream. */
jj_arrow_status ab_stream_make(ab_table *t, struct ArrowArrayStream *out);
void ab_table_unref(ab_table *t);

#endif
