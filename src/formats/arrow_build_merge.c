/* NDJSON -> Arrow: the parts of an input read on several threads without a schema each
 * inferred their own types. Here they are merged as one pass over the whole input would
 * have inferred them (fields in order of first appearance: the first part's, then the
 * fields new in the second, ...; null takes the other type; int64 beside double becomes
 * double; strings are timestamps only where they are in every part), and each part's
 * columns are made that type. Any other mix is left to the one-thread read, whose error
 * names the record. */
#include <stdlib.h>
#include <string.h>

#include "arrow_build_internal.h"

/* The field of c named name[0..n), looked for first at index `at`: parts seeded from
 * the same types hold their fields in the same order (a scan per field made conforming
 * the 14 parts of 206 columns quadratic, serial after the threads). */
static ab_col *kid_named(const ab_col *c, const char *name, size_t n, size_t at) {
    if (at < c->n_kids && c->kids[at]->name_len == n && memcmp(c->kids[at]->name, name, n) == 0) return c->kids[at];
    for (size_t i = 0; i < c->n_kids; i++)
        if (c->kids[i]->name_len == n && memcmp(c->kids[i]->name, name, n) == 0) return c->kids[i];
    return NULL;
}

/* Folds the type of column `c` into `into` (a type tree without data). */
static jj_arrow_status merge_type(ab_col *into, const ab_col *c, int depth) {
    if (depth > AB_MAX_DEPTH + 1) return JJ_ARROW_TYPE_CHANGE;
    if (c->kind == AB_NULL) return JJ_ARROW_OK;
    if (into->kind == AB_NULL) {
        into->kind = c->kind;
        into->ts_maybe = c->ts_maybe;
    } else if ((into->kind == AB_INT && c->kind == AB_DOUBLE) || (into->kind == AB_DOUBLE && c->kind == AB_INT)) {
        into->kind = AB_DOUBLE;
    } else if (into->kind != c->kind) {
        return JJ_ARROW_TYPE_CHANGE;
    } else if (c->kind == AB_STRING) {
        into->ts_maybe = into->ts_maybe && c->ts_maybe;
    }
    for (size_t i = 0; i < c->n_kids; i++) {
        const ab_col *kid = c->kids[i];
        ab_col *to = kid_named(into, kid->name, kid->name_len, i);
        if (!to) {
            to = ab_col_new(kid->name, kid->name_len);
            if (!to || ab_col_add_kid(into, to)) {
                ab_col_free(to);
                return JJ_ARROW_NOMEM;
            }
        }
        jj_arrow_status s = merge_type(to, kid, depth + 1);
        if (s) return s;
    }
    return JJ_ARROW_OK;
}

/* Makes column c (of one part) of the merged type t. */
static jj_arrow_status conform(ab_col *c, const ab_col *t, int depth) {
    jj_arrow_status s = JJ_ARROW_OK;
    ab_kind want = t->kind == AB_STRING && t->ts_maybe ? AB_TIMESTAMP : t->kind;
    if (c->kind == AB_NULL && want != AB_NULL) {
        if (want == AB_TIMESTAMP) {
            /* a part of nulls where the others hold timestamps (as ab_finish makes them) */
            c->format = malloc(5);
            if (!c->format) return JJ_ARROW_NOMEM;
            memcpy(c->format, "tss:", 5);
            c->ts_unit = 0;
        }
        s = ab_col_set_kind(c, want);
        if (s) return s;
        c->ts_maybe = false; /* strings, as the merged type says (set_kind assumed timestamps) */
    } else if (c->kind == AB_INT && want == AB_DOUBLE) {
        ab_col_ints_to_doubles(c);
    } else if (c->kind == AB_STRING) {
        c->ts_maybe = want == AB_TIMESTAMP; /* ab_finish turns them into timestamps */
    }
    if (t->kind == AB_LIST) return conform(c->kids[0], t->kids[0], depth + 1);
    if (t->kind != AB_STRUCT) return JJ_ARROW_OK;
    /* the struct's fields in the merged order, those it lacks added (ab_finish fills them) */
    ab_col **kids = calloc(t->n_kids ? t->n_kids : 1, sizeof *kids);
    if (!kids) return JJ_ARROW_NOMEM;
    for (size_t i = 0; i < t->n_kids && !s; i++) {
        kids[i] = kid_named(c, t->kids[i]->name, t->kids[i]->name_len, i);
        if (!kids[i] && !(kids[i] = ab_col_new(t->kids[i]->name, t->kids[i]->name_len))) s = JJ_ARROW_NOMEM;
        if (!s) s = conform(kids[i], t->kids[i], depth + 1);
    }
    if (s) { /* the new fields are not in c yet */
        for (size_t i = 0; i < t->n_kids; i++)
            if (kids[i] && !kid_named(c, kids[i]->name, kids[i]->name_len, i)) ab_col_free(kids[i]);
        free(kids);
        return s;
    }
    free(c->kids);
    free(c->slots); /* the name table served the reading only */
    c->slots = NULL;
    c->n_slots = 0;
    c->kids = kids;
    c->kids_cap = t->n_kids ? t->n_kids : 1;
    c->n_kids = t->n_kids;
    return JJ_ARROW_OK;
}

jj_arrow_status ab_merge_type(ab_col *into, const ab_col *c) { return merge_type(into, c, 0); }

ab_col *ab_type_seed(const ab_col *t) {
    ab_col *c = ab_col_new(t->name, t->name_len);
    if (!c) return NULL;
    for (size_t i = 0; i < t->n_kids; i++) {
        ab_col *kid = ab_type_seed(t->kids[i]);
        if (!kid || ab_col_add_kid(c, kid)) {
            ab_col_free(kid);
            ab_col_free(c);
            return NULL;
        }
    }
    if (t->kind != AB_NULL && ab_col_set_kind(c, t->kind)) {
        ab_col_free(c);
        return NULL;
    }
    c->ts_maybe = t->ts_maybe; /* strings known not to be timestamps are not read as such again */
    return c;
}

jj_arrow_status ab_conform_parts(ab_part *parts, size_t n, const ab_col *merged) {
    jj_arrow_status s = JJ_ARROW_OK;
    for (size_t i = 0; i < n && !s; i++) s = conform(parts[i].root, merged, 0);
    for (size_t i = 0; i < n && !s; i++) s = ab_finish(parts[i].root);
    return s;
}
