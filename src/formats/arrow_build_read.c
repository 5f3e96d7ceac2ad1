/* NDJSON -> Arrow: the entry point. Splits the input into records, parses each and
 * hands its tape to the builders (arrow_build.c), then wraps the table into a stream.
 *
 * Two ways to split, both by documents (jj_many_*: any JSON text sequence, records
 * across lines). First, lazily (JJ_MANY_LAZY): one stage 1 over the buffer, each
 * record's lazy tape from that index (strings and numbers left as text, validated all
 * the same, converted only where read: a field skipped by the schema costs no
 * conversion, and a string without escapes is copied from the input as it is). It used
 * to be a jj_parse_lazy per line, whose stage 1 per line cost more (flat 4 MB: 89.9 M ->
 * 82.4 M instructions a call). Any error sends the whole input back to the exact way
 * (the plain tape), whose results and errors are the rule.
 *
 * With threads, the input is cut at line ends into windows that the threads take in
 * turn, each read into its own columns (without a schema, their inferred types are
 * folded in order as they are read, and the windows made of them on the threads:
 * arrow_build_merge.c); a window that fails sends the whole input back to one thread.
 * Inferring, a big input (or part) goes through a jj_arrow_reader in windows
 * (arrow_build_feed.c): its columns stay small. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_build_internal.h"
#include "jetjson_parts.h"

jj_arrow_status ab_read_reset(ab_read *r) {
    ab_col_free(r->root);
    r->root = NULL;
    r->n_ends = 0;
    r->next_cut = r->block;
    if (r->schema) {
        jj_arrow_status s = ab_import_schema(r->schema, &r->root, r->err);
        if (s) return s;
    } else {
        r->root = ab_col_new("", 0);
        if (!r->root) return JJ_ARROW_NOMEM;
        r->root->kind = AB_STRUCT;
    }
    r->root->flags = 0;
    return JJ_ARROW_OK;
}

jj_arrow_status ab_end_batch(ab_read *r) {
    if (r->n_ends == r->ends_cap) {
        size_t cap = r->ends_cap ? r->ends_cap * 2 : 16;
        int64_t *e = realloc(r->ends, cap * sizeof *e);
        if (!e) return JJ_ARROW_NOMEM;
        r->ends = e;
        r->ends_cap = cap;
    }
    r->ends[r->n_ends++] = r->root->length;
    return JJ_ARROW_OK;
}

/* A batch ends after the record that ends at or past each multiple of block bytes. */
static jj_arrow_status note_record_end(ab_read *r, size_t end) {
    if (end < r->next_cut) return JJ_ARROW_OK;
    if (ab_end_batch(r)) return JJ_ARROW_NOMEM;
    while (r->next_cut <= end && r->next_cut != SIZE_MAX) r->next_cut = r->next_cut > SIZE_MAX - r->block ? SIZE_MAX : r->next_cut + r->block;
    return JJ_ARROW_OK;
}

static jj_arrow_status json_error(ab_read *r, jj_error je, size_t offset) {
    if (je == JJ_ERR_NOMEM) return JJ_ARROW_NOMEM;
    r->err->status = JJ_ARROW_JSON;
    r->err->json_error = je;
    offset += r->offset_base;
    r->err->offset = offset;
    snprintf(r->err->message, sizeof r->err->message, "%s at byte %zu", jj_error_name(je), offset);
    return JJ_ARROW_JSON;
}

/* The lazy read indexes slices of about this many bytes, cut after a newline: the index
 * of one stays in the parser's kept pages and mostly in the caches (the whole 40 MB of
 * events with a schema at once took 24.8 ms, slices of 4 MiB 12.5 ms). Not smaller: the
 * inferring windows (up to 3.3 MB of events) are read whole, and slices of 1 MiB made a
 * worker's malloc arena give its pages back again (3,000 faults a call). */
#define AB_LAZY_SLICE ((size_t)4 << 20)

jj_arrow_status ab_read_lazily(ab_read *r) {
    jj_parser *doc = r->lazy;
    const jj_doc *parsed = jj_parser_result(doc);
    ab_walk w = {NULL, NULL, NULL, doc, 0, r->opt && r->opt->error_on_unknown_fields, r->err, 0};
    int64_t record = 0;
    for (size_t from = 0; from < r->len;) {
        size_t to = r->len;
        if (r->len - from > AB_LAZY_SLICE + AB_LAZY_SLICE / 2) {
            const uint8_t *nl = memchr(r->buf + from + AB_LAZY_SLICE, '\n', r->len - from - AB_LAZY_SLICE);
            if (nl) to = (size_t)(nl - r->buf) + 1;
        }
        /* one lazy stage 1 over the slice, each record's lazy tape from its index (a record
         * cut by the slice's end fails here and is read by documents) */
        jj_many m;
        jj_error je = jj_many_start(&m, doc, r->buf + from, to - from, JJ_MANY_LAZY);
        if (je == JJ_ERR_NOMEM) return JJ_ARROW_NOMEM;
        if (je != JJ_OK || !(m.flags & JJ_MANY_LAZY)) return JJ_ARROW_JSON;
        w.input = r->buf + from;
        w.input_len = to - from;
        w.number_room = r->len - from;
        for (;; record++) {
            size_t start, end;
            je = jj_many_next(&m, &start, &end);
            if (je == JJ_ERR_EMPTY) break;
            if (je == JJ_ERR_NOMEM) return JJ_ARROW_NOMEM;
            if (je != JJ_OK) return JJ_ARROW_JSON;
            r->err->record = r->record_base + record;
            w.tape = parsed->tape;
            w.strings = parsed->strings;
            jj_arrow_status s = ab_append_record(&w, r->root);
            if (!s) s = note_record_end(r, from + end);
            if (s) return s;
        }
        from = to;
    }
    return JJ_ARROW_OK;
}

jj_arrow_status ab_read_by_documents(ab_read *r) {
    jj_many m;
    jj_error je = jj_many_start(&m, r->parser, r->buf, r->len, r->many_flags);
    if (je == JJ_ERR_TOO_LARGE) {
        r->err->status = JJ_ARROW_TOO_LARGE;
        snprintf(r->err->message, sizeof r->err->message, "input of 4 GiB or more");
        return JJ_ARROW_TOO_LARGE;
    }
    if (je != JJ_OK) return JJ_ARROW_NOMEM;
    ab_walk w = {r->buf, NULL, NULL, NULL, r->len, r->opt && r->opt->error_on_unknown_fields, r->err, 0};
    const jj_doc *parsed = jj_parser_result(r->parser);
    for (int64_t record = 0;; record++) {
        size_t start, end;
        je = jj_many_next(&m, &start, &end);
        if (je == JJ_ERR_EMPTY || je == JJ_ERR_INCOMPLETE) {
            r->stop = je == JJ_ERR_EMPTY ? r->len : start;
            return JJ_ARROW_OK;
        }
        r->err->record = r->record_base + record;
        if (je != JJ_OK) {
            size_t offset;
            jj_parser_error(r->parser, &offset);
            return json_error(r, je, offset);
        }
        w.tape = parsed->tape;
        w.strings = parsed->strings;
        jj_arrow_status s = ab_append_record(&w, r->root);
        if (!s) s = note_record_end(r, end);
        if (s) return s;
    }
}

const char *jj_arrow_status_name(jj_arrow_status status) {
    static const char *const names[] = {
        "ok", "out of memory", "invalid JSON", "a record is not a JSON object", "type change",
        "field specified twice", "unknown field", "invalid value", "unsupported schema", "too large"};
    return (unsigned)status < sizeof names / sizeof names[0] ? names[status] : "unknown error";
}

/* One thread's share of an input: the windows it took from the queue (ab_read_queued_windows),
 * on a thread of its own where one could be started. */
typedef struct ab_job {
    ab_window_queue *queue;
    const ab_read *base;
    ab_part *parts;
    size_t *windows; /* parts[i] is window windows[i] of the queue */
    size_t n_parts;
    jj_arrow_error err;
    jj_arrow_status status;
    pthread_t thread;
    bool started;
} ab_job;

/* Inferring, once a thread has read its windows: the threads wait for each other, the
 * last one folds the windows read last, then each makes windows of the merged types,
 * taken in turn (serial after the join, this was 0.3 ms of 40 MB of events). */
static void conform_windows(ab_window_queue *q) {
    pthread_mutex_lock(&q->lock);
    if (++q->finished == q->readers && q->readers_known) {
        pthread_mutex_unlock(&q->lock);
        ab_fold_windows(q); /* nobody else folds now: every reader is done */
        pthread_mutex_lock(&q->lock);
        if (q->fold_status || q->folded < q->taken) q->failed = true;
        q->merged_ready = true;
        pthread_cond_broadcast(&q->all_read);
    } else {
        while (!q->merged_ready) pthread_cond_wait(&q->all_read, &q->lock);
    }
    while (!q->failed && q->next_conform < q->taken) {
        ab_part window = {q->roots[q->next_conform++], NULL, 0};
        pthread_mutex_unlock(&q->lock);
        jj_arrow_status s = window.root ? ab_conform_parts(&window, 1, q->merged) : JJ_ARROW_OK;
        pthread_mutex_lock(&q->lock);
        if (s) {
            q->failed = true;
            q->conform_status = s;
        }
    }
    pthread_mutex_unlock(&q->lock);
}

static void *job_run(void *arg) {
    ab_job *job = arg;
    job->status = ab_read_queued_windows(job->queue, job->base->schema, job->base->opt, &job->parts, &job->windows,
                                         &job->n_parts, &job->err);
    if (job->queue->roots) conform_windows(job->queue);
    return NULL;
}

/* Parts below this size are not worth a thread. */
#define AB_MIN_PART ((size_t)1 << 18)

static void parts_free(ab_part *parts, size_t n) {
    for (size_t i = 0; i < n; i++) {
        ab_col_free(parts[i].root);
        free(parts[i].batch_ends);
    }
    free(parts);
}

static void queue_free(ab_window_queue *q) {
    free(q->roots);
    free(q->read);
    ab_col_free(q->merged);
}

/* The jobs' parts in the order of their windows (moved out: *parts, *n_parts). */
static jj_arrow_status gather_parts(ab_job *jobs, size_t n_jobs, size_t n_windows, ab_part **parts, size_t *n_parts) {
    ab_part *slots = calloc(n_windows ? n_windows : 1, sizeof *slots);
    if (!slots) return JJ_ARROW_NOMEM;
    for (size_t i = 0; i < n_jobs; i++) {
        for (size_t j = 0; j < jobs[i].n_parts; j++) slots[jobs[i].windows[j]] = jobs[i].parts[j];
        jobs[i].n_parts = 0; /* moved */
    }
    size_t n = 0;
    for (size_t w = 0; w < n_windows; w++)
        if (slots[w].root) slots[n++] = slots[w]; /* windows of blank lines have none */
    *parts = slots;
    *n_parts = n;
    return JJ_ARROW_OK;
}

/* On up to `threads` threads: the input cut at line ends into windows taken in turn,
 * each read into columns of its own (of the schema's types, or inferred and then
 * merged: the windows' batches then follow each other as they are). JJ_ARROW_OK with
 * *parts filled; otherwise nothing is kept and the caller reads on one thread. */
static jj_arrow_status read_parallel(const ab_read *base, size_t threads, ab_part **parts, size_t *n_parts) {
    if (threads > base->len / AB_MIN_PART) threads = base->len / AB_MIN_PART;
    if (threads > 256) threads = 256;
    if (threads < 2) return JJ_ARROW_JSON;
    ab_window_queue queue = {.buf = base->buf, .len = base->len, .share = (base->len + threads - 1) / threads};
    if (!base->schema) {
        /* every window but the last holds at least this many bytes */
        size_t least = queue.share < AB_CHUNK ? queue.share : AB_CHUNK;
        queue.n_slots = base->len / least + 2;
        queue.roots = calloc(queue.n_slots, sizeof *queue.roots);
        queue.read = calloc(queue.n_slots, sizeof *queue.read);
        queue.merged = ab_col_new("", 0);
        if (queue.merged) queue.merged->kind = AB_STRUCT;
    }
    ab_job *jobs = calloc(threads, sizeof *jobs);
    int locks = 0; /* of the lock, the fold lock and the condition: how many are made */
    if (!jobs || (!base->schema && (!queue.roots || !queue.read || !queue.merged)) ||
        (pthread_mutex_init(&queue.lock, NULL) || (locks++, pthread_mutex_init(&queue.fold_lock, NULL))) ||
        (locks++, pthread_cond_init(&queue.all_read, NULL))) {
        jj_arrow_status s = jobs ? JJ_ARROW_JSON : JJ_ARROW_NOMEM; /* no lock: one thread reads */
        if (locks > 0) pthread_mutex_destroy(&queue.lock);
        if (locks > 1) pthread_mutex_destroy(&queue.fold_lock);
        queue_free(&queue);
        free(jobs);
        return s;
    }
    for (size_t i = 0; i < threads; i++) jobs[i] = (ab_job){.queue = &queue, .base = base};
    /* a thread that could not start leaves its windows to the others */
    size_t readers = 1;
    for (size_t i = 1; i < threads; i++) {
        jobs[i].started = pthread_create(&jobs[i].thread, NULL, job_run, &jobs[i]) == 0;
        readers += jobs[i].started;
    }
    pthread_mutex_lock(&queue.lock);
    queue.readers = readers;
    queue.readers_known = true;
    pthread_mutex_unlock(&queue.lock);
    job_run(&jobs[0]);
    jj_arrow_status s = JJ_ARROW_OK;
    size_t total = 0;
    for (size_t i = 0; i < threads; i++) {
        if (jobs[i].started) pthread_join(jobs[i].thread, NULL);
        if (jobs[i].status && (!s || jobs[i].status == JJ_ARROW_NOMEM)) s = jobs[i].status;
        total += jobs[i].n_parts;
    }
    if (!s) s = queue.fold_status ? queue.fold_status : queue.conform_status;
    if (!s && queue.roots && (queue.folded < queue.taken || queue.next_conform < queue.taken))
        s = JJ_ARROW_JSON; /* cannot be: one thread then */
    pthread_mutex_destroy(&queue.lock);
    pthread_mutex_destroy(&queue.fold_lock);
    pthread_cond_destroy(&queue.all_read);
    if (!s && !total) s = JJ_ARROW_JSON; /* no record: one thread makes the empty table */
    if (!s) s = gather_parts(jobs, threads, queue.taken, parts, n_parts);
    for (size_t i = 0; i < threads; i++) {
        parts_free(jobs[i].parts, jobs[i].n_parts); /* none left unless gathering failed */
        free(jobs[i].windows);
    }
    free(jobs);
    queue_free(&queue);
    return s;
}

jj_arrow_status ab_parts_to_stream(ab_part *parts, size_t n, struct ArrowArrayStream *out, int64_t *num_rows) {
    int64_t rows = 0;
    for (size_t i = 0; i < n; i++) rows += parts[i].root->length;
    ab_table *t = ab_table_new(parts, n); /* frees the parts on failure */
    jj_arrow_status s = t ? ab_stream_make(t, out) : JJ_ARROW_NOMEM;
    if (s && t) ab_table_unref(t);
    if (!s) *num_rows = rows;
    return s;
}

jj_arrow_status jj_arrow_read_ndjson(jj_parser *p, const uint8_t *buf, size_t len,
                                     const struct ArrowSchema *schema, const jj_arrow_options *opt,
                                     struct ArrowArrayStream *out, int64_t *num_rows,
                                     jj_arrow_error *err) {
    memset(err, 0, sizeof *err);
    memset(out, 0, sizeof *out);
    *num_rows = 0;
    ab_read r = {.parser = p, .buf = buf, .len = len, .schema = schema, .opt = opt, .err = err};
    r.block = opt && opt->block_size ? opt->block_size : (size_t)1 << 20;
    ab_part *parts = NULL;
    size_t n_parts = 0;
    jj_arrow_status s = JJ_ARROW_OK;
    if (opt && opt->threads > 1 && len < ((size_t)1 << 31)) {
        s = read_parallel(&r, opt->threads, &parts, &n_parts);
        if (s != JJ_ARROW_NOMEM) s = JJ_ARROW_OK; /* a failed part: all again on one thread */
    }
    if (!s && !parts && !schema && len > 2 * AB_CHUNK && len < ((size_t)1 << 31))
        return ab_read_chunked(p, buf, len, schema, opt, out, num_rows, err);
    if (!s && !parts) {
        r.lazy = p; /* the caller's parser keeps its index's pages between calls */
        s = ab_read_reset(&r);
        if (!s && len < ((size_t)1 << 31)) {
            s = ab_read_lazily(&r);
            if (s && s != JJ_ARROW_NOMEM) {
                /* redone the exact way, whose errors (record numbers included) are the rule */
                memset(err, 0, sizeof *err);
                s = ab_read_reset(&r);
                if (!s) s = ab_read_by_documents(&r);
            }
        } else if (!s) {
            s = ab_read_by_documents(&r);
        }
        if (!s && r.root->length > (r.n_ends ? r.ends[r.n_ends - 1] : 0)) s = ab_end_batch(&r);
        if (!s) s = ab_finish(r.root);
        if (!s && !(parts = malloc(sizeof *parts))) s = JJ_ARROW_NOMEM;
        if (!s) {
            parts[0] = (ab_part){r.root, r.ends, r.n_ends};
            n_parts = 1;
            r.root = NULL;
            r.ends = NULL;
        }
    }
    if (!s && !(s = ab_parts_to_stream(parts, n_parts, out, num_rows))) return JJ_ARROW_OK;
    if (s == JJ_ARROW_NOMEM) snprintf(err->message, sizeof err->message, "out of memory");
    err->status = s;
    ab_col_free(r.root);
    free(r.ends);
    return s;
}
