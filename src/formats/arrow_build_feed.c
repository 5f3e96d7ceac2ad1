/* NDJSON -> Arrow from a stream given in chunks (jetjson_arrow.h, jj_arrow_reader_*).
 * Each chunk of whole lines is read as jj_arrow_read_ndjson reads a whole input (lazily,
 * and where that fails by documents, whose errors are the rule) into a part of
 * its own, whose columns start of the types inferred so far (ab_type_seed: the chunk
 * goes on as one pass would, errors included); the parts are the table's batches, their
 * types merged as they come and the parts made of them at the end (arrow_build_merge.c).
 * Record numbers and byte offsets in errors count from the start of the stream. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_build_internal.h"

struct jj_arrow_reader {
    const struct ArrowSchema *schema;
    jj_arrow_options opt;
    jj_parser *documents, *lazy;
    bool borrowed; /* documents and lazy are the caller's parser (not freed here) */
    ab_part *parts;
    size_t n_parts, parts_cap;
    ab_col *merged;  /* inferring: the types of the parts so far (ab_merge_type) */
    size_t columns;  /* in the last part, nested ones included (sizes the windows) */
    int64_t records; /* read so far */
    size_t offset;   /* bytes read so far */
};

/* A reader whose parsers are `parser` (borrowed: a caller's that lives on between calls
 * keeps the pages of its window index mapped), or new ones when it is NULL. */
static jj_arrow_reader *reader_new(const struct ArrowSchema *schema, const jj_arrow_options *opt, jj_parser *parser) {
    jj_arrow_reader *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->schema = schema;
    if (opt) r->opt = *opt;
    r->opt.threads = 1;
    r->borrowed = parser != NULL;
    r->documents = parser ? parser : jj_parser_new();
    r->lazy = parser ? parser : jj_parser_new();
    if (schema) r->merged = NULL;
    else if ((r->merged = ab_col_new("", 0))) r->merged->kind = AB_STRUCT;
    if (!r->documents || !r->lazy || (!schema && !r->merged)) {
        jj_arrow_reader_free(r);
        return NULL;
    }
    return r;
}

jj_arrow_reader *jj_arrow_reader_new(const struct ArrowSchema *schema, const jj_arrow_options *opt) {
    return reader_new(schema, opt, NULL);
}

void jj_arrow_reader_free(jj_arrow_reader *r) {
    if (!r) return;
    for (size_t i = 0; i < r->n_parts; i++) {
        ab_col_free(r->parts[i].root);
        free(r->parts[i].batch_ends);
    }
    free(r->parts);
    ab_col_free(r->merged);
    if (!r->borrowed) {
        jj_parser_delete(r->documents);
        jj_parser_delete(r->lazy);
    }
    free(r);
}

static jj_arrow_status nomem(jj_arrow_error *err) {
    err->status = JJ_ARROW_NOMEM;
    snprintf(err->message, sizeof err->message, "out of memory");
    return JJ_ARROW_NOMEM;
}

/* A new root for the next chunk: the schema's columns, or, inferring, empty columns of
 * the types read so far, so that the chunk's records go on from where one pass over the
 * stream would be (the same types, and the same errors). */
static jj_arrow_status start_part(jj_arrow_reader *r, ab_read *rd) {
    jj_arrow_status s = ab_read_reset(rd);
    if (s || !r->merged) return s;
    ab_col_free(rd->root);
    rd->root = ab_type_seed(r->merged);
    if (!rd->root) return JJ_ARROW_NOMEM;
    rd->root->flags = 0;
    if (r->n_parts) ab_col_reserve_like(rd->root, r->parts[r->n_parts - 1].root);
    return JJ_ARROW_OK;
}

static size_t count_columns(const ab_col *c) {
    size_t n = 1;
    for (size_t i = 0; i < c->n_kids; i++) n += count_columns(c->kids[i]);
    return n;
}

/* The part read joins the table. */
static jj_arrow_status keep_part(jj_arrow_reader *r, ab_read *rd) {
    /* inferred parts are finished once merged; their fields are caught up and their
     * timestamps settled here, on the thread that read them */
    jj_arrow_status s = r->schema ? ab_finish(rd->root) : ab_fill_fields(rd->root);
    if (s) return s;
    if (r->merged) {
        /* cannot fail: the part's columns started of these types */
        s = ab_merge_type(r->merged, rd->root);
        if (s) return s;
    }
    if (rd->root->length > (rd->n_ends ? rd->ends[rd->n_ends - 1] : 0) && ab_end_batch(rd)) return JJ_ARROW_NOMEM;
    if (r->n_parts == r->parts_cap) {
        size_t cap = r->parts_cap ? r->parts_cap * 2 : 16;
        ab_part *parts = realloc(r->parts, cap * sizeof *parts);
        if (!parts) return JJ_ARROW_NOMEM;
        r->parts = parts;
        r->parts_cap = cap;
    }
    r->parts[r->n_parts++] = (ab_part){rd->root, rd->ends, rd->n_ends};
    r->columns = count_columns(rd->root);
    r->records += rd->root->length;
    rd->root = NULL;
    rd->ends = NULL;
    return JJ_ARROW_OK;
}

jj_arrow_status jj_arrow_reader_feed(jj_arrow_reader *r, const uint8_t *buf, size_t len, bool more_input,
                                     size_t *used, jj_arrow_error *err) {
    memset(err, 0, sizeof *err);
    *used = 0;
    size_t end = len;
    if (more_input) { /* up to the last newline */
        while (end && buf[end - 1] != '\n') end--;
        if (!end) return JJ_ARROW_OK;
    }
    ab_read rd = {.parser = r->documents, .lazy = r->lazy, .buf = buf, .len = end, .schema = r->schema,
                  .opt = &r->opt, .err = err, .record_base = r->records, .offset_base = r->offset};
    rd.block = r->opt.block_size ? r->opt.block_size : (size_t)1 << 20;
    jj_arrow_status s = start_part(r, &rd);
    size_t read_to = end;
    if (!s) s = end < ((size_t)1 << 31) ? ab_read_lazily(&rd) : JJ_ARROW_JSON;
    if (s && s != JJ_ARROW_NOMEM) {
        /* by documents: records across lines, and the exact errors */
        memset(err, 0, sizeof *err);
        rd.many_flags = more_input ? JJ_MANY_MORE_INPUT : 0;
        s = start_part(r, &rd);
        if (!s) s = ab_read_by_documents(&rd);
        read_to = rd.stop;
    }
    r->lazy = rd.lazy; /* its buffers serve the next chunk */
    if (!s && rd.root->length) s = keep_part(r, &rd);
    ab_col_free(rd.root);
    free(rd.ends);
    if (s == JJ_ARROW_NOMEM) return nomem(err);
    if (s) return err->status = s;
    *used = read_to;
    r->offset += read_to;
    return JJ_ARROW_OK;
}

jj_arrow_status jj_arrow_reader_finish(jj_arrow_reader *r, struct ArrowArrayStream *out, int64_t *num_rows,
                                       jj_arrow_error *err) {
    memset(err, 0, sizeof *err);
    memset(out, 0, sizeof *out);
    *num_rows = 0;
    jj_arrow_status s = JJ_ARROW_OK;
    if (!r->n_parts) { /* no record: the columns of the schema, or none */
        ab_read rd = {.parser = r->documents, .schema = r->schema, .opt = &r->opt, .err = err, .block = 1};
        s = ab_read_reset(&rd);
        if (!s) s = keep_part(r, &rd);
        ab_col_free(rd.root);
        if (s == JJ_ARROW_NOMEM) return nomem(err);
        if (s) return err->status = s;
    }
    if (!r->schema) {
        s = ab_conform_parts(r->parts, r->n_parts, r->merged); /* the parts' types merged as they came */
        if (s == JJ_ARROW_NOMEM) return nomem(err);
        if (s) {
            err->status = s;
            err->record = -1;
            snprintf(err->message, sizeof err->message, "a column's type changed between blocks of the input");
            return s;
        }
    }
    s = ab_parts_to_stream(r->parts, r->n_parts, out, num_rows);
    r->parts = NULL; /* moved into the stream (or freed) */
    r->n_parts = r->parts_cap = 0;
    return s ? nomem(err) : JJ_ARROW_OK;
}

/* The size of r's next window: AB_CHUNK bytes, or AB_CHUNK_PER_COLUMN bytes a column of
 * its last window (each window costs some work per column: many columns, bigger
 * windows), or block_size if larger. With a schema, the whole input: most values are
 * skipped, the columns are small, windows only cost (events with 6 fields: 16.6 -> 17.2
 * ms). */
static size_t window_size(jj_arrow_reader *r, const jj_arrow_options *opt) {
    if (r->schema) return SIZE_MAX;
    size_t base = opt && opt->block_size > AB_CHUNK ? opt->block_size : AB_CHUNK;
    size_t wide = r->columns < SIZE_MAX / AB_CHUNK_PER_COLUMN ? r->columns * AB_CHUNK_PER_COLUMN : SIZE_MAX;
    /* a window widened for its columns is one batch: pyarrow's import costs per
     * column and batch (GitHub events, 206 columns, 40 MB: 46 batches 3.3 ms, 14
     * batches 1.7 ms), serial after the threads */
    if (wide > base && wide > r->opt.block_size) r->opt.block_size = wide;
    return wide > base ? wide : base;
}

/* Feeds buf[0..len) to r in windows of window_size, one doubled while no record ends
 * in it. */
static jj_arrow_status feed_windows(jj_arrow_reader *r, const uint8_t *buf, size_t len, const jj_arrow_options *opt,
                                    jj_arrow_error *err) {
    size_t window = 0, from = 0;
    for (;;) {
        size_t chunk = window_size(r, opt);
        if (window < chunk) window = chunk;
        size_t n = len - from < window ? len - from : window;
        bool more = from + n < len;
        size_t used = 0;
        jj_arrow_status s = jj_arrow_reader_feed(r, buf + from, n, more, &used, err);
        if (s || !more) return s;
        if (used) {
            from += used;
            window = chunk;
        } else { /* a record longer than the window */
            window = window > SIZE_MAX / 2 ? SIZE_MAX : window * 2;
        }
    }
}

jj_arrow_status ab_read_chunked(jj_parser *parser, const uint8_t *buf, size_t len, const struct ArrowSchema *schema,
                                const jj_arrow_options *opt, struct ArrowArrayStream *out, int64_t *num_rows,
                                jj_arrow_error *err) {
    memset(out, 0, sizeof *out);
    *num_rows = 0;
    jj_arrow_reader *r = reader_new(schema, opt, parser);
    if (!r) return nomem(err);
    jj_arrow_status s = feed_windows(r, buf, len, opt, err);
    if (!s) s = jj_arrow_reader_finish(r, out, num_rows, err);
    jj_arrow_reader_free(r);
    return s;
}

/* The next window of q for r: bytes [*from, *to) of q->buf, number *number; false when
 * none is left (or another thread failed). */
static bool take_window(ab_window_queue *q, jj_arrow_reader *r, const jj_arrow_options *opt, size_t *from,
                        size_t *to, size_t *number) {
    size_t size = window_size(r, opt);
    if (size > q->share) size = q->share; /* with a schema (or windows of block_size): one per thread */
    pthread_mutex_lock(&q->lock);
    bool got = !q->failed && q->from < q->len;
    if (got) {
        *from = q->from;
        *to = q->len;
        if (q->len - q->from > size) {
            /* the line that holds the window's last byte ends it */
            const uint8_t *nl = memchr(q->buf + q->from + size - 1, '\n', q->len - (q->from + size - 1));
            if (nl) *to = (size_t)(nl - q->buf) + 1;
        }
        q->from = *to;
        *number = q->taken++;
    }
    pthread_mutex_unlock(&q->lock);
    return got;
}

void ab_fold_windows(ab_window_queue *q) {
    if (!q->roots || pthread_mutex_trylock(&q->fold_lock)) return;
    for (;;) {
        pthread_mutex_lock(&q->lock);
        size_t next = q->folded;
        bool ready = !q->failed && next < q->taken && q->read[next];
        const ab_col *root = ready ? q->roots[next] : NULL;
        pthread_mutex_unlock(&q->lock);
        if (!ready) break;
        /* the window's thread no longer changes its columns: only reads them */
        if (root && (q->fold_status = ab_merge_type(q->merged, root))) {
            pthread_mutex_lock(&q->lock);
            q->failed = true; /* types that do not mix: read again on one thread */
            pthread_mutex_unlock(&q->lock);
        }
        q->folded = next + 1;
    }
    pthread_mutex_unlock(&q->fold_lock);
}

jj_arrow_status ab_read_queued_windows(ab_window_queue *q, const struct ArrowSchema *schema,
                                       const jj_arrow_options *opt, ab_part **parts, size_t **windows,
                                       size_t *n_parts, jj_arrow_error *err) {
    *parts = NULL;
    *windows = NULL;
    *n_parts = 0;
    jj_parser *parser = ab_parser_take();
    jj_arrow_reader *r = parser ? reader_new(schema, opt, parser) : NULL;
    jj_arrow_status s = r ? JJ_ARROW_OK : nomem(err);
    size_t *numbers = NULL, numbers_cap = 0, from, to, number;
    while (!s && take_window(q, r, opt, &from, &to, &number)) {
        size_t before = r->n_parts, used;
        r->offset = from; /* error offsets are not kept: a failure is read again on one thread */
        s = jj_arrow_reader_feed(r, q->buf + from, to - from, false, &used, err);
        bool kept = !s && r->n_parts > before; /* a window of blank lines has no part */
        if (!s && q->roots && number < q->n_slots) {
            pthread_mutex_lock(&q->lock);
            q->roots[number] = kept ? r->parts[r->n_parts - 1].root : NULL;
            q->read[number] = true;
            pthread_mutex_unlock(&q->lock);
            ab_fold_windows(q);
        }
        if (!kept) continue;
        if (r->n_parts > numbers_cap) {
            size_t *grown = realloc(numbers, r->parts_cap * sizeof *grown);
            if (!grown) {
                s = nomem(err);
                continue;
            }
            numbers = grown;
            numbers_cap = r->parts_cap;
        }
        numbers[r->n_parts - 1] = number;
    }
    if (s) {
        pthread_mutex_lock(&q->lock);
        q->failed = true; /* no fold starts now */
        pthread_mutex_unlock(&q->lock);
        if (q->roots) { /* a fold under way may read this thread's windows: they are freed below */
            pthread_mutex_lock(&q->fold_lock);
            pthread_mutex_unlock(&q->fold_lock);
        }
        free(numbers);
    } else { /* moved out */
        *parts = r->parts;
        *windows = numbers;
        *n_parts = r->n_parts;
        r->parts = NULL;
        r->n_parts = r->parts_cap = 0;
    }
    jj_arrow_reader_free(r);
    ab_parser_give(parser);
    return s;
}
