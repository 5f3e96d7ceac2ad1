/* NDJSON -> Arrow: the entry point. Splits the input into records, parses each and
 * hands its tape to the builders (arrow_build.c), then wraps the table into a stream.
 *
 * Two ways to split. By documents (jj_many_*): any JSON text sequence, records across
 * lines, exact errors. First, by lines: each line gets a lazy parse (jj_parse_lazy:
 * strings and numbers left as text, validated all the same, converted only where read:
 * a field skipped by the schema costs no conversion, and a string without escapes is
 * copied from the input as it is) without the whole-input index that jj_many builds.
 * A line that does not parse alone (a record across lines, two on a line) or any error
 * sends the whole input back to the exact way, whose results and errors are the rule. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_build_internal.h"

typedef struct ab_read {
    jj_parser *parser;
    jj_parser lazy;
    const uint8_t *buf;
    size_t len, block;
    const struct ArrowSchema *schema;
    const jj_arrow_options *opt;
    jj_arrow_error *err;
    ab_col *root;
    int64_t *ends; /* rows at the end of each batch */
    size_t n_ends, ends_cap, next_cut;
} ab_read;

static jj_arrow_status read_reset(ab_read *r) {
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

static jj_arrow_status end_batch(ab_read *r) {
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
    if (end_batch(r)) return JJ_ARROW_NOMEM;
    while (r->next_cut <= end && r->next_cut != SIZE_MAX) r->next_cut = r->next_cut > SIZE_MAX - r->block ? SIZE_MAX : r->next_cut + r->block;
    return JJ_ARROW_OK;
}

static jj_arrow_status json_error(ab_read *r, jj_error je, size_t offset) {
    if (je == JJ_ERR_NOMEM) return JJ_ARROW_NOMEM;
    r->err->status = JJ_ARROW_JSON;
    r->err->json_error = je;
    r->err->offset = offset;
    snprintf(r->err->message, sizeof r->err->message, "%s at byte %zu", jj_error_name(je), offset);
    return JJ_ARROW_JSON;
}

/* JJ_ARROW_OK, or JJ_ARROW_JSON when some line is not one whole record (the caller
 * then reads by documents); other statuses are final. */
static jj_arrow_status read_by_lines(ab_read *r) {
    jj_parser *doc = &r->lazy;
    ab_walk w = {NULL, NULL, NULL, doc, 0, r->opt && r->opt->error_on_unknown_fields, r->err};
    size_t pos = 0;
    for (int64_t record = 0;; record++) {
        while (pos < r->len && (r->buf[pos] == ' ' || r->buf[pos] == '\n' || r->buf[pos] == '\r' || r->buf[pos] == '\t'))
            pos++;
        if (pos == r->len) return JJ_ARROW_OK;
        const uint8_t *nl = memchr(r->buf + pos, '\n', r->len - pos);
        size_t end = nl ? (size_t)(nl - r->buf) : r->len;
        jj_error je = jj_parse_lazy(doc, r->buf + pos, end - pos);
        if (je == JJ_ERR_NOMEM) return JJ_ARROW_NOMEM;
        if (je != JJ_OK) return JJ_ARROW_JSON;
        r->err->record = record;
        w.input = r->buf + pos;
        w.input_len = end - pos;
        w.tape = doc->tape;
        w.strings = doc->strings;
        jj_arrow_status s = ab_append_record(&w, r->root);
        if (!s) s = note_record_end(r, end);
        if (s) return s;
        pos = end;
    }
}

static jj_arrow_status read_by_documents(ab_read *r) {
    jj_many m;
    jj_error je = jj_many_start(&m, r->parser, r->buf, r->len, 0);
    if (je == JJ_ERR_TOO_LARGE) {
        r->err->status = JJ_ARROW_TOO_LARGE;
        snprintf(r->err->message, sizeof r->err->message, "input of 4 GiB or more");
        return JJ_ARROW_TOO_LARGE;
    }
    if (je != JJ_OK) return JJ_ARROW_NOMEM;
    ab_walk w = {r->buf, NULL, NULL, NULL, r->len, r->opt && r->opt->error_on_unknown_fields, r->err};
    for (int64_t record = 0;; record++) {
        size_t start, end;
        je = jj_many_next(&m, &start, &end);
        if (je == JJ_ERR_EMPTY) return JJ_ARROW_OK;
        r->err->record = record;
        if (je != JJ_OK) return json_error(r, je, r->parser->error_offset);
        w.tape = r->parser->tape;
        w.strings = r->parser->strings;
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

jj_arrow_status jj_arrow_read_ndjson(jj_parser *p, const uint8_t *buf, size_t len,
                                     const struct ArrowSchema *schema, const jj_arrow_options *opt,
                                     struct ArrowArrayStream *out, int64_t *num_rows,
                                     jj_arrow_error *err) {
    memset(err, 0, sizeof *err);
    memset(out, 0, sizeof *out);
    *num_rows = 0;
    ab_read r = {.parser = p, .buf = buf, .len = len, .schema = schema, .opt = opt, .err = err};
    r.block = opt && opt->block_size ? opt->block_size : (size_t)1 << 20;
    jj_parser_init(&r.lazy);
    jj_arrow_status s = read_reset(&r);
    if (!s && len < ((size_t)1 << 31)) {
        s = read_by_lines(&r);
        if (s && s != JJ_ARROW_NOMEM) {
            /* redone the exact way, whose errors (record numbers included) are the rule */
            memset(err, 0, sizeof *err);
            s = read_reset(&r);
            if (!s) s = read_by_documents(&r);
        }
    } else if (!s) {
        s = read_by_documents(&r);
    }
    jj_parser_free(&r.lazy);
    if (!s && r.root->length > (r.n_ends ? r.ends[r.n_ends - 1] : 0)) s = end_batch(&r);
    if (!s) s = ab_finish(r.root);
    ab_table *t = s ? NULL : malloc(sizeof *t);
    if (!s && !t) s = JJ_ARROW_NOMEM;
    if (!s) {
        atomic_init(&t->refs, 1);
        t->root = r.root;
        t->batch_ends = r.ends;
        t->n_batches = r.n_ends;
        *num_rows = r.root->length;
        s = ab_stream_make(t, out);
        if (!s) return JJ_ARROW_OK;
        ab_table_unref(t); /* frees the columns and batch ends */
        r.root = NULL;
        r.ends = NULL;
    }
    if (s == JJ_ARROW_NOMEM) snprintf(err->message, sizeof err->message, "out of memory");
    err->status = s;
    ab_col_free(r.root);
    free(r.ends);
    return s;
}
