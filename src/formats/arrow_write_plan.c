/* Compiling an Arrow schema into the plan that arrow_write.c follows: each format string
 * is read once per stream (not once per value), keys are escaped once, and a type the
 * writer cannot write is reported before a byte is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_write_internal.h"

const char *jj_aw_error_name(jj_aw_error err) {
    switch (err) {
    case JJ_AW_OK: return "no error";
    case JJ_AW_NOMEM: return "out of memory";
    case JJ_AW_NOT_STRUCT: return "not a struct type (a record batch)";
    case JJ_AW_UNSUPPORTED: return "unsupported Arrow type";
    case JJ_AW_BAD_FORMAT: return "invalid Arrow format string";
    case JJ_AW_BAD_ARRAY: return "Arrow array does not match its type";
    case JJ_AW_UTF8: return "invalid UTF-8";
    }
    return "unknown error";
}

static void aw_copy_text(char *dst, size_t cap, const char *src) {
    size_t n = src ? strlen(src) : 0;
    if (n >= cap) n = cap - 1;
    if (n) memcpy(dst, src, n);
    dst[n] = 0;
}

jj_aw_error jj_aw_fail(jj_aw_status *status, jj_aw_error err, const aw_node *node, int64_t row) {
    status->error = err;
    status->row = row;
    aw_copy_text(status->field, sizeof status->field, node ? node->path : NULL);
    aw_copy_text(status->format, sizeof status->format, node ? node->format : NULL);
    return err;
}

static char *aw_strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* parent "a", name "b" -> "a.b"; suffix "[]" -> "a[]" (name NULL). */
static char *aw_join_path(const char *parent, const char *name, const char *suffix) {
    size_t np = strlen(parent), nn = name ? strlen(name) : 0, ns = suffix ? strlen(suffix) : 0;
    char *p = malloc(np + 1 + nn + ns + 1);
    if (!p) return NULL;
    size_t at = 0;
    memcpy(p, parent, np);
    at = np;
    if (name) {
        if (np) p[at++] = '.';
        memcpy(p + at, name, nn);
        at += nn;
    }
    if (ns) memcpy(p + at, suffix, ns);
    at += ns;
    p[at] = 0;
    return p;
}

static void aw_node_clear(aw_node *n) {
    for (int64_t i = 0; n->children && i < n->n_children; i++) aw_node_clear(&n->children[i]);
    free(n->children);
    free(n->key);
    free(n->path);
    free(n->format);
    memset(n, 0, sizeof *n);
}

/* Integer index types of dictionaries, and plain integer columns. */
static int aw_int_kind(const char *f, aw_kind *kind) {
    if (f[0] == 0 || f[1] != 0) return 0;
    switch (f[0]) {
    case 'c': *kind = AW_INT8; return 1;
    case 's': *kind = AW_INT16; return 1;
    case 'i': *kind = AW_INT32; return 1;
    case 'l': *kind = AW_INT64; return 1;
    case 'C': *kind = AW_UINT8; return 1;
    case 'S': *kind = AW_UINT16; return 1;
    case 'I': *kind = AW_UINT32; return 1;
    case 'L': *kind = AW_UINT64; return 1;
    }
    return 0;
}

static int aw_unit(char c) {
    switch (c) {
    case 's': return AW_SECONDS;
    case 'm': return AW_MILLIS;
    case 'u': return AW_MICROS;
    case 'n': return AW_NANOS;
    }
    return -1;
}

/* A positive decimal count after a prefix ("+w:12"). */
static int aw_parse_count(const char *s, int64_t *out) {
    int64_t v = 0;
    if (!*s) return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > (INT64_MAX - 9) / 10) return 0;
        v = v * 10 + (*s - '0');
    }
    *out = v;
    return v > 0;
}

/* A signed decimal number at *s up to `stop` (a ',' or the end); advances *s. */
static int aw_parse_signed(const char **s, int *out) {
    const char *p = *s;
    int negative = *p == '-', v = 0;
    if (negative) p++;
    if (*p < '0' || *p > '9') return 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > 100000) return 0;
        v = v * 10 + (*p - '0');
    }
    *out = negative ? -v : v;
    *s = p;
    return 1;
}

/* "P,S" or "P,S,W" (W: 32, 64, 128 or 256 bits; 128 when absent). */
static jj_aw_error aw_decimal_format(const char *f, aw_node *n) {
    int precision, scale, bits = 128;
    if (!aw_parse_signed(&f, &precision) || precision <= 0 || *f++ != ',' || !aw_parse_signed(&f, &scale))
        return JJ_AW_BAD_FORMAT;
    if (*f == ',') {
        f++;
        if (!aw_parse_signed(&f, &bits)) return JJ_AW_BAD_FORMAT;
    }
    if (*f || (bits != 32 && bits != 64 && bits != 128 && bits != 256) || scale > 1000 || scale < -1000)
        return JJ_AW_BAD_FORMAT;
    n->kind = AW_DECIMAL;
    n->fixed_size = bits / 8;
    n->scale = scale;
    return JJ_AW_OK;
}

/* The kind of a format string that has no children; JJ_AW_OK, or why not. */
static jj_aw_error aw_scalar_kind(const char *f, aw_node *n) {
    if (aw_int_kind(f, &n->kind)) return JJ_AW_OK;
    if (!strcmp(f, "n")) n->kind = AW_NULL;
    else if (!strcmp(f, "b")) n->kind = AW_BOOL;
    else if (!strcmp(f, "e")) n->kind = AW_FLOAT16;
    else if (!strcmp(f, "f")) n->kind = AW_FLOAT32;
    else if (!strcmp(f, "g")) n->kind = AW_FLOAT64;
    else if (!strcmp(f, "u")) n->kind = AW_UTF8;
    else if (!strcmp(f, "U")) n->kind = AW_LARGE_UTF8;
    else if (!strcmp(f, "vu")) n->kind = AW_UTF8_VIEW;
    else if (!strcmp(f, "tdD")) n->kind = AW_DATE32;
    else if (!strcmp(f, "tdm")) n->kind = AW_DATE64;
    else if (f[0] == 't' && f[1] == 't' && f[2] && !f[3]) {
        n->unit = aw_unit(f[2]);
        if (n->unit < 0) return JJ_AW_BAD_FORMAT;
        n->kind = n->unit <= AW_MILLIS ? AW_TIME32 : AW_TIME64;
    } else if (f[0] == 't' && f[1] == 's' && f[2] && f[3] == ':') {
        n->unit = aw_unit(f[2]);
        if (n->unit < 0) return JJ_AW_BAD_FORMAT;
        n->kind = AW_TIMESTAMP;
        n->zoned = f[4] != 0;
    } else if (f[0] == 'd' && f[1] == ':') {
        return aw_decimal_format(f + 2, n);
    } else {
        /* binary, durations, intervals...: known to Arrow, not written here */
        return JJ_AW_UNSUPPORTED;
    }
    return JJ_AW_OK;
}

static jj_aw_error aw_compile(const struct ArrowSchema *s, aw_node *n, char *path, jj_aw_status *st);

/* Compile the n_children of s into n->children, paths made by `child_path`. */
static jj_aw_error aw_compile_children(const struct ArrowSchema *s, aw_node *n, int is_struct, jj_aw_status *st) {
    if (s->n_children < 0 || (s->n_children > 0 && !s->children)) return jj_aw_fail(st, JJ_AW_BAD_FORMAT, n, -1);
    n->n_children = s->n_children;
    if (n->n_children == 0) return JJ_AW_OK;
    if ((uint64_t)n->n_children > SIZE_MAX / sizeof(aw_node)) return jj_aw_fail(st, JJ_AW_NOMEM, n, -1);
    n->children = calloc((size_t)n->n_children, sizeof(aw_node));
    if (!n->children) return jj_aw_fail(st, JJ_AW_NOMEM, n, -1);
    for (int64_t i = 0; i < n->n_children; i++) {
        const struct ArrowSchema *c = s->children[i];
        if (!c || !c->format) return jj_aw_fail(st, JJ_AW_BAD_FORMAT, n, -1);
        char *path = is_struct ? aw_join_path(n->path, c->name ? c->name : "", NULL)
                               : aw_join_path(n->path, NULL, "[]");
        if (!path) return jj_aw_fail(st, JJ_AW_NOMEM, n, -1);
        jj_aw_error err = aw_compile(c, &n->children[i], path, st);
        if (err) return err;
        if (!is_struct) continue;
        /* the key, escaped once: "name": */
        const char *name = c->name ? c->name : "";
        size_t len = strlen(name), bad = 0;
        aw_node *child = &n->children[i];
        size_t room = 6 * len + 4;
        child->key = calloc(room / AW_KEY_PAD + 2, AW_KEY_PAD);
        if (!child->key) return jj_aw_fail(st, JJ_AW_NOMEM, child, -1);
        child->key[0] = ',';
        child->key[1] = '"';
        size_t w = jj_escape_utf8_text((const uint8_t *)name, len, 1, child->key + 2, &bad);
        if (w == JJ_ESCAPE_INVALID) return jj_aw_fail(st, JJ_AW_UTF8, child, -1);
        child->key[2 + w] = '"';
        child->key[3 + w] = ':';
        child->key_len = w + 4;
    }
    return JJ_AW_OK;
}

/* Compile s into n (zeroed), taking ownership of `path`. */
static jj_aw_error aw_compile(const struct ArrowSchema *s, aw_node *n, char *path, jj_aw_status *st) {
    n->path = path;
    n->format = aw_strdup(s->format);
    if (!n->format) return jj_aw_fail(st, JJ_AW_NOMEM, n, -1);
    const char *f = s->format;
    if (s->dictionary) {
        if (!aw_int_kind(f, &n->index_kind)) return jj_aw_fail(st, JJ_AW_BAD_FORMAT, n, -1);
        n->kind = AW_DICT;
        n->n_children = 1;
        n->children = calloc(1, sizeof(aw_node));
        char *values_path = aw_strdup(n->path);
        if (!n->children || !values_path) {
            free(values_path);
            return jj_aw_fail(st, JJ_AW_NOMEM, n, -1);
        }
        if (!s->dictionary->format) return jj_aw_fail(st, JJ_AW_BAD_FORMAT, n, -1);
        return aw_compile(s->dictionary, &n->children[0], values_path, st);
    }
    if (f[0] != '+') {
        jj_aw_error err = aw_scalar_kind(f, n);
        return err ? jj_aw_fail(st, err, n, -1) : JJ_AW_OK;
    }
    if (!strcmp(f, "+s")) {
        n->kind = AW_STRUCT;
        return aw_compile_children(s, n, 1, st);
    }
    if (!strcmp(f, "+l")) n->kind = AW_LIST;
    else if (!strcmp(f, "+L")) n->kind = AW_LARGE_LIST;
    else if (f[1] == 'w' && f[2] == ':') {
        if (!aw_parse_count(f + 3, &n->fixed_size)) return jj_aw_fail(st, JJ_AW_BAD_FORMAT, n, -1);
        n->kind = AW_FIXED_LIST;
    } else {
        return jj_aw_fail(st, JJ_AW_UNSUPPORTED, n, -1); /* maps, unions, list views, run-end */
    }
    if (s->n_children != 1) return jj_aw_fail(st, JJ_AW_BAD_FORMAT, n, -1);
    return aw_compile_children(s, n, 0, st);
}

jj_aw_error jj_aw_plan_new(const struct ArrowSchema *schema, unsigned flags, jj_aw_plan **plan,
                           jj_aw_status *status) {
    memset(status, 0, sizeof *status);
    status->row = -1;
    *plan = NULL;
    if (!schema || !schema->format) return jj_aw_fail(status, JJ_AW_BAD_FORMAT, NULL, -1);
    if (strcmp(schema->format, "+s") != 0 || schema->dictionary) {
        jj_aw_fail(status, JJ_AW_NOT_STRUCT, NULL, -1);
        aw_copy_text(status->format, sizeof status->format, schema->format);
        return JJ_AW_NOT_STRUCT;
    }
    jj_aw_plan *p = calloc(1, sizeof *p);
    char *root_path = aw_strdup("");
    if (!p || !root_path) {
        free(p);
        free(root_path);
        return jj_aw_fail(status, JJ_AW_NOMEM, NULL, -1);
    }
    p->flags = flags;
    jj_aw_error err = aw_compile(schema, &p->root, root_path, status);
    if (err) {
        jj_aw_plan_free(p);
        return err;
    }
    *plan = p;
    return JJ_AW_OK;
}

void jj_aw_plan_free(jj_aw_plan *plan) {
    if (!plan) return;
    aw_node_clear(&plan->root);
    free(plan);
}
