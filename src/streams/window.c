/* One window of a stream parsed ahead (jetjson_pool.h): the jj_many_next loop a consumer
 * would run, its results kept in order. Tapes go into one buffer per window, so that the
 * consumer frees one block, not one per document. */
#include <stdlib.h>
#include <string.h>

#include "jetjson_pool.h"
#include "engine_internal.h"
#include "parser_internal.h"

static void jj_window_task(void *arg) { jj_window_parse(arg); }

void jj_window_init(jj_window *w, const uint8_t *buf, size_t len, unsigned flags, int one_per_doc) {
    memset(w, 0, sizeof *w);
    w->buf = buf;
    w->len = len;
    w->flags = flags & JJ_MANY_MORE_INPUT;
    w->one_per_doc = one_per_doc;
    w->task.run = jj_window_task;
    w->task.arg = w;
}

static int jj_grow(void **buf, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 1;
    size_t grown = *cap ? *cap * 2 : 16;
    while (grown < need) grown *= 2;
    if (grown > SIZE_MAX / size) return 0;
    void *fresh = realloc(*buf, grown * size);
    if (!fresh) return 0;
    *buf = fresh;
    *cap = grown;
    return 1;
}

/* Drops what an earlier run kept (the buffers stay for reuse). */
static void jj_window_reset(jj_window *w) {
    for (size_t i = 0; i < w->count; i++) jj_doc_free(&w->docs[i].doc);
    w->count = 0;
    w->values_len = 0;
    w->tape_len = 0;
    w->strings_len = 0;
}

/* jj_many_next (and jj_many_field_parse) write their tape and strings at the start of
 * the parser's buffers, after making room for the document (2 tape words per index entry,
 * and its bytes plus slack of string buffer) only when they lack it. The parser is lent
 * the unused end of the window's buffers with that room, so the documents land one after
 * the other without a copy. */
static int jj_lend_buffers(jj_window *w, size_t entries, size_t bytes) {
    jj_parser *p = w->parser;
    /* buffers the parser grew itself (a lazy tape of a document the skim read whole):
     * what is lent is never its own, so these would be lost */
    free(p->tape);
    free(p->strings);
    p->tape = NULL;
    p->strings = NULL;
    p->tape_cap = p->strings_cap = 0;
    size_t tape_room = 2 * entries + 2, strings_room = bytes + JJ_STRING_SLACK + 1;
    if (!jj_grow((void **)&w->tape, &w->tape_cap, w->tape_len + tape_room, sizeof *w->tape) ||
        !jj_grow((void **)&w->strings, &w->strings_cap, w->strings_len + strings_room, 1))
        return 0;
    p->tape = w->tape + w->tape_len;
    p->tape_cap = w->tape_cap - w->tape_len;
    p->strings = w->strings + w->strings_len;
    p->strings_cap = w->strings_cap - w->strings_len;
    return 1;
}

/* The parse p just made in the window's lent buffers becomes the slice at *tape_at...,
 * and the buffers go back to the window (they were never the parser's to free). */
static void jj_keep_slice(jj_window *w, size_t *tape_at, size_t *tape_len, size_t *strings_at, size_t *strings_len,
                          size_t *max_depth) {
    jj_parser *p = w->parser;
    if (tape_at) {
        *tape_at = w->tape_len;
        *tape_len = p->tape_len;
        *strings_at = w->strings_len;
        *strings_len = p->strings_len;
        *max_depth = p->max_depth;
        w->tape_len += p->tape_len;
        w->strings_len += p->strings_len;
    }
    p->tape = NULL;
    p->strings = NULL;
    p->tape_cap = p->strings_cap = 0;
}

/* Takes the lent buffers back: the document p parsed becomes d's slice. */
static void jj_keep_document(jj_window *w, jj_window_doc *d, int parsed) {
    if (parsed) jj_keep_slice(w, &d->tape_at, &d->tape_len, &d->strings_at, &d->strings_len, &d->max_depth);
    else jj_keep_slice(w, NULL, NULL, NULL, NULL, NULL);
}

/* Takes the lent buffers back after jj_many_field_parse: the value p parsed becomes v's slice. */
static void jj_keep_value(jj_window *w, jj_window_field *v) {
    v->found = 1;
    jj_keep_slice(w, &v->tape_at, &v->tape_len, &v->strings_at, &v->strings_len, &v->max_depth);
}

/* The values of the document just skimmed (spans) into w->values: JJ_OK, JJ_ERR_NOMEM,
 * or the error of a value the engine refuses (the document is then read whole, and what
 * was kept of it is dropped). */
static jj_error jj_keep_values(jj_window *w, jj_many *m, const jj_field_span *spans, jj_window_doc *d) {
    size_t n = w->fields->count, tape_len = w->tape_len, strings_len = w->strings_len;
    if (!jj_grow((void **)&w->values, &w->values_cap, w->values_len + n, sizeof *w->values)) return JJ_ERR_NOMEM;
    d->fields_at = w->values_len;
    for (size_t f = 0; f < n; f++) {
        jj_window_field *v = &w->values[d->fields_at + f];
        memset(v, 0, sizeof *v);
        if (!spans[f].count) continue; /* missing */
        size_t at = w->parser->index[spans[f].first] & JJ_LAZY_POS;
        if (!jj_lend_buffers(w, spans[f].count, spans[f].region_end - at)) return JJ_ERR_NOMEM;
        jj_error err = jj_many_field_parse(m, &spans[f]);
        if (err != JJ_OK) {
            jj_window_doc none;
            jj_keep_document(w, &none, 0); /* the lent buffers back */
            w->tape_len = tape_len;
            w->strings_len = strings_len;
            return err;
        }
        jj_keep_value(w, v);
    }
    w->values_len += n;
    return JJ_OK;
}

/* The next document of a window with fields (m on the plain or the lazy index) into d:
 * 1 to go on, 0 when d ends the window (its error set). */
static int jj_window_skim_next(jj_window *w, jj_many *m, jj_window_doc *d) {
    jj_field_span spans[64]; /* a skimmable plan has at most 64 pointers */
    bool whole = true;
    d->err = jj_many_next_fields(m, w->fields, spans, &d->start, &d->end, &whole);
    if (d->err != JJ_OK) return 0;
    if (!whole) {
        jj_error err = jj_keep_values(w, m, spans, d);
        if (err == JJ_OK) {
            d->skimmed = 1;
            return 1;
        }
        if (err == JJ_ERR_NOMEM) {
            d->err = err;
            return 0;
        }
    }
    /* read whole: the plain tape the consumer would get from jj_many_reparse */
    if (!jj_lend_buffers(w, w->parser->index_len - m->doc_first, w->len)) {
        d->err = JJ_ERR_NOMEM;
        return 0;
    }
    d->err = jj_many_reparse(m, &d->start, &d->end);
    jj_keep_document(w, d, d->err == JJ_OK);
    return d->err == JJ_OK;
}

void jj_window_retarget(jj_window *w, const uint8_t *buf, size_t len, unsigned flags) {
    jj_window_reset(w);
    w->buf = buf;
    w->len = len;
    w->flags = flags & JJ_MANY_MORE_INPUT;
    w->pending = JJ_OK;
    w->pending_at = 0;
}

/* A kept window made ready for other bytes: as jj_window_init leaves a window, with the
 * buffers and parsers of its earlier parses. */
void jj_window_reinit(jj_window *w, const uint8_t *buf, size_t len, unsigned flags, int one_per_doc) {
    jj_window_retarget(w, buf, len, flags);
    w->one_per_doc = one_per_doc;
    w->fields = NULL;
    w->task.state = JJ_TASK_IDLE;
    w->task.next = NULL;
}

void jj_window_parse(jj_window *w) {
    jj_window_reset(w);
    if (!w->parser) w->parser = jj_parser_new();
    if (!w->lazy_parser) w->lazy_parser = jj_parser_new();
    if (!w->parser || !w->lazy_parser) return; /* a consumer reads no result as NOMEM */
    jj_many m;
    unsigned flags = w->flags | (w->one_per_doc ? JJ_MANY_SPANS : 0);
    /* the index as the consumer's own windows for fields= take it (many.c) */
    if (w->fields && !jj_fields_window_plain(w->buf, w->len)) flags |= JJ_MANY_LAZY;
    jj_error err = jj_many_start(&m, w->parser, w->buf, w->len, flags);
    w->pending = m.pending;
    w->pending_at = m.pending_at;
    for (;;) {
        if (!jj_grow((void **)&w->docs, &w->docs_cap, w->count + 1, sizeof *w->docs)) {
            if (w->count == 0) return; /* a consumer reads no result as NOMEM */
            w->docs[w->count - 1].err = JJ_ERR_NOMEM;
            return;
        }
        jj_window_doc *d = &w->docs[w->count++];
        memset(d, 0, sizeof *d);
        if (err != JJ_OK) { /* jj_many_start failed: NOMEM or TOO_LARGE */
            d->err = err;
            return;
        }
        if (w->fields) {
            if (!jj_window_skim_next(w, &m, d)) return;
            continue;
        }
        if (!w->one_per_doc && !jj_lend_buffers(w, w->parser->index_len - m.next, w->len)) {
            d->err = JJ_ERR_NOMEM;
            return;
        }
        d->err = jj_many_next(&m, &d->start, &d->end);
        if (!w->one_per_doc) jj_keep_document(w, d, d->err == JJ_OK);
        if (d->err != JJ_OK) return;
        if (w->one_per_doc) { /* the document alone, lazily, as the consumer would parse it */
            d->lazy_err = jj_parse_lazy(w->lazy_parser, w->buf + d->start, d->end - d->start);
            if (d->lazy_err == JJ_OK) jj_doc_take(w->lazy_parser, &d->doc, w->buf + d->start, d->end - d->start);
            continue;
        }
    }
}

void jj_window_free(jj_window *w) {
    jj_window_reset(w);
    free(w->docs);
    free(w->values);
    free(w->tape);
    free(w->strings);
    jj_parser_delete(w->parser);
    jj_parser_delete(w->lazy_parser);
    w->parser = w->lazy_parser = NULL;
    w->docs = NULL;
    w->values = NULL;
    w->tape = NULL;
    w->strings = NULL;
    w->docs_cap = w->values_cap = w->tape_cap = w->strings_cap = 0;
}

void jj_window_view(const jj_window *w, size_t i, jj_parser *view) {
    const jj_window_doc *d = &w->docs[i];
    memset(view, 0, sizeof *view);
    view->tape = w->tape + d->tape_at;
    view->tape_len = d->tape_len;
    view->strings = w->strings + d->strings_at;
    view->strings_len = d->strings_len;
    view->max_depth = d->max_depth;
}

void jj_window_unview(jj_parser *view) { jj_parser_init(view); }

void jj_window_doc_into(jj_window *w, size_t i, jj_parser *p) {
    jj_doc *doc = &w->docs[i].doc;
    free(p->tape);
    free(p->strings);
    p->tape = doc->tape;
    p->tape_len = p->tape_cap = doc->tape_len;
    p->strings = doc->strings;
    p->strings_len = p->strings_cap = doc->strings_len;
    p->max_depth = doc->max_depth;
    p->error = JJ_OK;
    memset(doc, 0, sizeof *doc);
}

void jj_window_set_fields(jj_window *w, const jj_fields_plan *plan) {
    w->fields = plan && plan->skimmable ? plan : NULL;
}

int jj_window_field_doc(const jj_window *w, size_t i, size_t f, jj_doc *out) {
    const jj_window_field *v = &w->values[w->docs[i].fields_at + f];
    memset(out, 0, sizeof *out);
    if (!v->found) return 0;
    out->tape = w->tape + v->tape_at;
    out->tape_len = v->tape_len;
    out->strings = w->strings + v->strings_at;
    out->strings_len = v->strings_len;
    out->max_depth = v->max_depth;
    out->input = w->buf;
    out->input_len = w->len;
    return 1;
}
