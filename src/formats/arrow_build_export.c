/* NDJSON -> Arrow: the schema a caller gives (imported into fixed builders), and the
 * built table handed out through the C Data and C Stream interfaces.
 *
 * Every exported array, child arrays included, holds one reference to the shared table
 * and frees only its own small structs, so a consumer may move children out and release
 * them in any order, from any thread; the last release frees the column buffers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow_build_internal.h"

/* What an empty buffer points at (the interface wants a pointer to something). */
static _Alignas(64) const uint64_t empty_buffer[8];

static char *copy_text(const char *s) {
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c) memcpy(c, s, n);
    return c;
}

/* ---- schema in ---- */

static jj_arrow_status schema_fail(jj_arrow_error *err, const char *name, const char *format) {
    err->status = JJ_ARROW_SCHEMA;
    snprintf(err->field, sizeof err->field, "%s", name ? name : "");
    snprintf(err->message, sizeof err->message, "unsupported type (format \"%.20s\")", format ? format : "");
    return JJ_ARROW_SCHEMA;
}

static jj_arrow_status import_field(const struct ArrowSchema *s, ab_col **out, int depth, jj_arrow_error *err) {
    const char *f = s->format ? s->format : "";
    const char *name = s->name ? s->name : "";
    ab_kind kind;
    int unit = 0;
    *out = NULL;
    if (depth > AB_MAX_DEPTH || s->dictionary) return schema_fail(err, name, f);
    if (!strcmp(f, "n")) kind = AB_NULL;
    else if (!strcmp(f, "b")) kind = AB_BOOL;
    else if (!strcmp(f, "l")) kind = AB_INT;
    else if (!strcmp(f, "L")) kind = AB_UINT;
    else if (!strcmp(f, "g")) kind = AB_DOUBLE;
    else if (!strcmp(f, "u")) kind = AB_STRING;
    else if (!strcmp(f, "+s")) kind = AB_STRUCT;
    else if (!strcmp(f, "+l") && s->n_children == 1) kind = AB_LIST;
    else if (f[0] == 't' && f[1] == 's' && f[2] && strchr("smun", f[2]) && f[3] == ':') {
        kind = AB_TIMESTAMP;
        unit = (int)(strchr("smun", f[2]) - "smun");
    } else return schema_fail(err, name, f);
    ab_col *c = ab_col_new(name, strlen(name));
    if (!c) return JJ_ARROW_NOMEM;
    c->fixed = true;
    c->flags = s->flags & ARROW_FLAG_NULLABLE;
    c->ts_unit = unit;
    jj_arrow_status st = JJ_ARROW_OK;
    if (kind == AB_TIMESTAMP && !(c->format = copy_text(f))) st = JJ_ARROW_NOMEM;
    for (int64_t i = 0; !st && (kind == AB_STRUCT || kind == AB_LIST) && i < s->n_children; i++) {
        ab_col *kid;
        st = import_field(s->children[i], &kid, depth + 1, err);
        if (!st && ab_col_add_kid(c, kid)) {
            ab_col_free(kid);
            st = JJ_ARROW_NOMEM;
        }
    }
    if (!st) st = ab_col_set_kind(c, kind);
    if (st) {
        ab_col_free(c);
        return st;
    }
    *out = c;
    return JJ_ARROW_OK;
}

jj_arrow_status ab_import_schema(const struct ArrowSchema *schema, ab_col **root, jj_arrow_error *err) {
    if (!schema->format || strcmp(schema->format, "+s") != 0) return schema_fail(err, "", schema->format);
    return import_field(schema, root, 0, err);
}

/* ---- schema out ---- */

typedef struct schema_priv {
    char *name, *format;
    struct ArrowSchema **kid_ptrs;
    struct ArrowSchema *kids;
} schema_priv;

static void schema_release(struct ArrowSchema *s) {
    schema_priv *p = s->private_data;
    for (int64_t i = 0; i < s->n_children; i++)
        if (p->kids[i].release) p->kids[i].release(&p->kids[i]);
    free(p->kids);
    free(p->kid_ptrs);
    free(p->name);
    free(p->format);
    free(p);
    s->release = NULL;
}

static const char *kind_format(const ab_col *c) {
    static const char *const formats[] = {"n", "b", "l", "L", "g", "u", "ts", "+s", "+l"};
    return c->kind == AB_TIMESTAMP ? c->format : formats[c->kind];
}

static int export_schema(const ab_col *c, struct ArrowSchema *out) {
    memset(out, 0, sizeof *out);
    schema_priv *p = calloc(1, sizeof *p);
    if (!p) return ENOMEM;
    out->private_data = p;
    out->release = schema_release;
    out->flags = c->flags;
    size_t n = c->n_kids;
    if (n) {
        p->kid_ptrs = calloc(n, sizeof *p->kid_ptrs);
        p->kids = calloc(n, sizeof *p->kids);
    }
    p->name = copy_text(c->name);
    p->format = copy_text(kind_format(c));
    if ((n && (!p->kid_ptrs || !p->kids)) || !p->name || !p->format) goto fail;
    out->name = p->name;
    out->format = p->format;
    out->children = p->kid_ptrs;
    for (size_t i = 0; i < n; i++) {
        p->kid_ptrs[i] = &p->kids[i];
        out->n_children = (int64_t)i + 1;
        if (export_schema(c->kids[i], &p->kids[i])) goto fail;
    }
    return 0;
fail:
    schema_release(out);
    return ENOMEM;
}

static int copy_schema(const struct ArrowSchema *from, struct ArrowSchema *out, int depth) {
    memset(out, 0, sizeof *out);
    if (depth > AB_MAX_DEPTH + 1 || from->n_children < 0) return EINVAL;
    schema_priv *p = calloc(1, sizeof *p);
    if (!p) return ENOMEM;
    out->private_data = p;
    out->release = schema_release;
    out->flags = from->flags;
    size_t n = (size_t)from->n_children;
    if (n) {
        p->kid_ptrs = calloc(n, sizeof *p->kid_ptrs);
        p->kids = calloc(n, sizeof *p->kids);
    }
    p->name = copy_text(from->name ? from->name : "");
    p->format = copy_text(from->format ? from->format : "");
    if ((n && (!p->kid_ptrs || !p->kids)) || !p->name || !p->format) goto fail;
    out->name = p->name;
    out->format = p->format;
    out->children = p->kid_ptrs;
    for (size_t i = 0; i < n; i++) {
        p->kid_ptrs[i] = &p->kids[i];
        out->n_children = (int64_t)i + 1;
        if (copy_schema(from->children[i], &p->kids[i], depth + 1)) goto fail;
    }
    return 0;
fail:
    schema_release(out);
    return ENOMEM;
}

int jj_arrow_schema_copy(const struct ArrowSchema *from, struct ArrowSchema *out) {
    if (from->dictionary) {
        memset(out, 0, sizeof *out);
        return EINVAL;
    }
    return copy_schema(from, out, 0);
}

/* ---- arrays out ---- */

static void parts_free(ab_part *parts, size_t n) {
    for (size_t i = 0; i < n; i++) {
        ab_col_free(parts[i].root);
        free(parts[i].batch_ends);
    }
    free(parts);
}

ab_table *ab_table_new(ab_part *parts, size_t n) {
    ab_table *t = malloc(sizeof *t);
    if (!t) {
        parts_free(parts, n);
        return NULL;
    }
    atomic_init(&t->refs, 1);
    t->parts = parts;
    t->n_parts = n;
    return t;
}

void ab_table_unref(ab_table *t) {
    if (atomic_fetch_sub(&t->refs, 1) == 1) {
        parts_free(t->parts, t->n_parts);
        free(t);
    }
}

/* One exported record batch: every array of its tree (the batch and its children at
 * any depth) lives in one allocation, freed when the last of them is released (an
 * allocation per array made pyarrow's import and the table's release cost ~3 mallocs
 * and frees a column and batch: 206 columns x 14 batches for 40 MB of events). */
typedef struct batch_block batch_block;

typedef struct array_priv {
    batch_block *block;
    const void *buffers[3];
} array_priv;

struct batch_block {
    atomic_long refs; /* arrays of the tree not released yet */
    ab_table *table;
    array_priv *privs;         /* one per array, the batch's first */
    struct ArrowArray *arrays; /* the children, every array but the batch */
    struct ArrowArray **ptrs;  /* ptrs[i] = &arrays[i]: each parent's children are a run */
    size_t next_priv, next_array; /* while the tree is filled */
};

_Static_assert(sizeof(batch_block) % 8 == 0 && sizeof(struct ArrowArray) % 8 == 0 && sizeof(array_priv) % 8 == 0,
               "the parts of a batch's allocation stay 8-byte aligned");

static void array_release(struct ArrowArray *a) {
    array_priv *p = a->private_data;
    /* children a consumer moved out have their release cleared here */
    for (int64_t i = 0; i < a->n_children; i++)
        if (a->children[i]->release) a->children[i]->release(a->children[i]);
    a->release = NULL;
    batch_block *b = p->block;
    if (atomic_fetch_sub(&b->refs, 1) == 1) {
        ab_table_unref(b->table);
        free(b);
    }
}

static const void *buffer_of(const ab_buf *b) { return b->data ? (const void *)b->data : (const void *)empty_buffer; }

static size_t tree_size(const ab_col *c) {
    size_t n = 1;
    for (size_t i = 0; i < c->n_kids; i++) n += tree_size(c->kids[i]);
    return n;
}

/* Rows [offset, offset + length) of column c, into out, from b's room. `top`: c is the
 * record batch, whose columns are sliced themselves; below, a struct's children are
 * whole (the consumer reads them through the struct's own offset) and a list's offsets
 * point into its item. */
static void export_array(batch_block *b, const ab_col *c, int64_t offset, int64_t length, struct ArrowArray *out,
                         bool top) {
    memset(out, 0, sizeof *out);
    array_priv *p = &b->privs[b->next_priv++];
    p->block = b;
    out->private_data = p;
    out->release = array_release;
    out->buffers = p->buffers;
    out->length = length;
    out->offset = top ? 0 : offset;
    if (c->kind == AB_NULL) out->null_count = length;
    else if (top || c->null_count == 0) out->null_count = 0;
    else out->null_count = offset == 0 && length == c->length ? c->null_count : -1;
    p->buffers[0] = c->kind == AB_NULL || out->null_count == 0 ? NULL : c->valid.data;
    switch (c->kind) {
    case AB_NULL: out->n_buffers = 0; break;
    case AB_STRUCT: out->n_buffers = 1; break;
    case AB_LIST:
        out->n_buffers = 2;
        p->buffers[1] = buffer_of(&c->offsets);
        break;
    case AB_STRING:
        out->n_buffers = 3;
        p->buffers[1] = buffer_of(&c->offsets);
        p->buffers[2] = buffer_of(&c->data);
        break;
    default:
        out->n_buffers = 2;
        p->buffers[1] = buffer_of(&c->data);
        break;
    }
    size_t n = c->n_kids, first = b->next_array;
    if (!n) return;
    b->next_array += n;
    out->children = &b->ptrs[first];
    out->n_children = (int64_t)n;
    for (size_t i = 0; i < n; i++) b->ptrs[first + i] = &b->arrays[first + i];
    for (size_t i = 0; i < n; i++) {
        /* a record batch's columns are sliced themselves; deeper ones are whole */
        int64_t ko = top ? offset : 0, kl = top ? length : c->kids[i]->length;
        export_array(b, c->kids[i], ko, kl, &b->arrays[first + i], false);
    }
}

/* Rows [offset, offset + length) of the batch `root` as one tree of arrays. */
static int export_batch(ab_table *t, const ab_col *root, int64_t offset, int64_t length, struct ArrowArray *out) {
    size_t n = tree_size(root);
    size_t head = sizeof(batch_block), arrays = (n - 1) * sizeof(struct ArrowArray), privs = n * sizeof(array_priv);
    /* every part's size is a multiple of 8: each part stays aligned */
    uint8_t *room = malloc(head + arrays + privs + (n - 1) * sizeof(struct ArrowArray *));
    if (!room) {
        memset(out, 0, sizeof *out);
        return ENOMEM;
    }
    batch_block *b = (batch_block *)room;
    atomic_init(&b->refs, (long)n);
    b->table = t;
    b->arrays = (struct ArrowArray *)(room + head);
    b->privs = (array_priv *)(room + head + arrays);
    b->ptrs = (struct ArrowArray **)(room + head + arrays + privs);
    b->next_priv = b->next_array = 0;
    atomic_fetch_add(&t->refs, 1);
    export_array(b, root, offset, length, out, true);
    return 0;
}

/* ---- the stream ---- */

typedef struct stream_priv {
    ab_table *table;
    size_t part, next; /* the next batch: number `next` of part `part` */
} stream_priv;

static int stream_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out) {
    stream_priv *p = s->private_data;
    return export_schema(p->table->parts[0].root, out);
}

static int stream_get_next(struct ArrowArrayStream *s, struct ArrowArray *out) {
    stream_priv *p = s->private_data;
    ab_table *t = p->table;
    while (p->part < t->n_parts && p->next >= t->parts[p->part].n_batches) {
        p->part++;
        p->next = 0;
    }
    if (p->part >= t->n_parts) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    const ab_part *part = &t->parts[p->part];
    int64_t start = p->next ? part->batch_ends[p->next - 1] : 0;
    int64_t end = part->batch_ends[p->next];
    int rc = export_batch(t, part->root, start, end - start, out);
    if (rc == 0) p->next++;
    return rc;
}

static const char *stream_last_error(struct ArrowArrayStream *s) {
    (void)s;
    return "out of memory";
}

static void stream_release(struct ArrowArrayStream *s) {
    stream_priv *p = s->private_data;
    ab_table_unref(p->table);
    free(p);
    s->release = NULL;
}

jj_arrow_status ab_stream_make(ab_table *t, struct ArrowArrayStream *out) {
    stream_priv *p = calloc(1, sizeof *p);
    if (!p) return JJ_ARROW_NOMEM;
    p->table = t;
    out->get_schema = stream_get_schema;
    out->get_next = stream_get_next;
    out->get_last_error = stream_last_error;
    out->release = stream_release;
    out->private_data = p;
    return JJ_ARROW_OK;
}
