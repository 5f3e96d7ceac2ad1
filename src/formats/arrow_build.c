/* NDJSON -> Arrow: the column builders and the walk that appends each record's tape to
 * them, inferring the types as pyarrow.json.read_json does (see jetjson_arrow.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "arrow_build_internal.h"
#include "jetjson_number.h"

/* ---- buffers ---- */

/* Buffers from this size on are mapped pages (arrow_build_pages.c: reused between
 * calls, on any thread), that grow in place (mremap) where no cached mapping fits:
 * growing by copies faulted in every page twice. Pages are 64-byte aligned. */
#define AB_MAP_MIN ((size_t)16 << 10)

static void buf_release(ab_buf *b) {
    if (b->data && b->cap >= AB_MAP_MIN) ab_pages_release(b->data, b->cap);
    else free(b->data);
    memset(b, 0, sizeof *b);
}

static int buf_grow(ab_buf *b, size_t extra) {
    size_t need = b->len + extra;
    if (need < b->len || need > SIZE_MAX / 4) return -1;
    size_t cap = b->cap ? b->cap * 2 : 64;
    if (cap < need) cap = need;
    cap = (cap + 63) & ~(size_t)63; /* before the choice: buf_release goes by the size */
    uint8_t *data;
    if (cap >= AB_MAP_MIN) {
        cap = (cap + 4095) & ~(size_t)4095; /* (the kernel rounds to its own page size) */
        data = ab_pages_cached(cap, &cap);
#ifdef __linux__
        if (!data && b->cap >= AB_MAP_MIN) {
            data = mremap(b->data, b->cap, cap, MREMAP_MAYMOVE);
            if (data == MAP_FAILED) return -1;
            b->data = data;
            b->cap = cap;
            return 0;
        }
#endif
        if (!data && !(data = ab_pages_new(cap))) return -1;
    } else {
        data = aligned_alloc(64, cap);
        if (!data) return -1;
    }
    if (b->len) memcpy(data, b->data, b->len);
    size_t len = b->len;
    buf_release(b);
    b->data = data;
    b->len = len;
    b->cap = cap;
    return 0;
}

static inline int buf_reserve(ab_buf *b, size_t extra) {
    return extra <= b->cap - b->len ? 0 : buf_grow(b, extra);
}

static inline int buf_push(ab_buf *b, const void *src, size_t n) {
    if (buf_reserve(b, n)) return -1;
    if (n) memcpy(b->data + b->len, src, n);
    b->len += n;
    return 0;
}

/* Room for bit number `bit`, the bytes taken zeroed. */
static inline int bits_reserve(ab_buf *b, int64_t bit) {
    size_t bytes = (size_t)(bit / 8) + 1;
    if (bytes > b->len) {
        if (buf_reserve(b, bytes - b->len)) return -1;
        memset(b->data + b->len, 0, bytes - b->len);
        b->len = bytes;
    }
    return 0;
}

static inline void bit_set(uint8_t *bits, int64_t i) { bits[i >> 3] |= (uint8_t)(1u << (i & 7)); }

/* ---- columns ---- */

ab_col *ab_col_new(const char *name, size_t name_len) {
    ab_col *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->name = malloc(name_len + 1);
    if (!c->name) {
        free(c);
        return NULL;
    }
    memcpy(c->name, name, name_len);
    c->name[name_len] = 0;
    c->name_len = name_len;
    c->flags = ARROW_FLAG_NULLABLE;
    return c;
}

void ab_col_free(ab_col *c) {
    if (!c) return;
    for (size_t i = 0; i < c->n_kids; i++) ab_col_free(c->kids[i]);
    free(c->kids);
    buf_release(&c->valid);
    buf_release(&c->data);
    buf_release(&c->offsets);
    buf_release(&c->ts_values); /* or neg_zeros */
    free(c->slots);
    free(c->name);
    free(c->format);
    free(c);
}

/* Structs with more fields than this find them through a hash table of their names. */
#define AB_LINEAR_FIELDS 8

static inline uint32_t name_hash(const uint8_t *key, size_t n) {
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ key[i]) * 16777619u;
    return h;
}

/* Slots hold a field's index + 1 (0: empty), probed linearly. */
static void slot_insert(ab_col *c, size_t index) {
    const ab_col *kid = c->kids[index];
    size_t mask = c->n_slots - 1, at = name_hash((const uint8_t *)kid->name, kid->name_len) & mask;
    while (c->slots[at]) at = (at + 1) & mask;
    c->slots[at] = (uint32_t)index + 1;
}

int ab_col_add_kid(ab_col *c, ab_col *kid) {
    if (c->n_kids == c->kids_cap) {
        size_t cap = c->kids_cap ? c->kids_cap * 2 : 8;
        ab_col **kids = realloc(c->kids, cap * sizeof *kids);
        if (!kids) return -1;
        c->kids = kids;
        c->kids_cap = cap;
    }
    c->kids[c->n_kids++] = kid;
    if (c->n_kids <= AB_LINEAR_FIELDS) return 0;
    if (c->n_kids * 2 > c->n_slots) { /* rebuild, at most half full */
        size_t n = 64;
        while (n < c->n_kids * 4) n *= 2;
        uint32_t *slots = calloc(n, sizeof *slots);
        if (!slots) {
            c->n_kids--;
            return -1;
        }
        free(c->slots);
        c->slots = slots;
        c->n_slots = n;
        for (size_t i = 0; i < c->n_kids; i++) slot_insert(c, i);
    } else {
        slot_insert(c, c->n_kids - 1);
    }
    return 0;
}

static const char *kind_word(ab_kind k) {
    switch (k) {
    case AB_NULL: return "null";
    case AB_BOOL: return "boolean";
    case AB_INT:
    case AB_UINT:
    case AB_DOUBLE: return "number";
    case AB_STRING: return "string";
    case AB_TIMESTAMP: return "timestamp";
    case AB_STRUCT: return "object";
    default: return "array";
    }
}

/* Appends n nulls. A struct's fields are not touched: a field shorter than its struct
 * is caught up with nulls when it is next written (catch_up), and at the end. */
static jj_arrow_status col_append_nulls(ab_col *c, int64_t n) {
    int64_t row = c->length;
    if (n <= 0) return JJ_ARROW_OK;
    switch (c->kind) {
    case AB_NULL:
    case AB_STRUCT: break;
    case AB_BOOL:
        if (bits_reserve(&c->data, row + n - 1)) return JJ_ARROW_NOMEM;
        break;
    case AB_INT:
    case AB_UINT:
    case AB_DOUBLE:
    case AB_TIMESTAMP:
        if ((uint64_t)n > SIZE_MAX / 8 || buf_reserve(&c->data, (size_t)n * 8)) return JJ_ARROW_NOMEM;
        memset(c->data.data + c->data.len, 0, (size_t)n * 8);
        c->data.len += (size_t)n * 8;
        break;
    case AB_STRING:
    case AB_LIST: {
        uint32_t off = c->kind == AB_STRING ? (uint32_t)c->data.len : (uint32_t)c->kids[0]->length;
        if ((uint64_t)n > SIZE_MAX / 4 || buf_reserve(&c->offsets, (size_t)n * 4)) return JJ_ARROW_NOMEM;
        uint32_t *at = (uint32_t *)(void *)(c->offsets.data + c->offsets.len);
        for (int64_t k = 0; k < n; k++) at[k] = off;
        c->offsets.len += (size_t)n * 4;
        break;
    }
    }
    if (c->kind != AB_NULL && c->null_count == 0 && row > 0) { /* the first null: the rows before are valid */
        if (bits_reserve(&c->valid, row - 1)) return JJ_ARROW_NOMEM;
        memset(c->valid.data, 0xff, (size_t)(row >> 3));
        if (row & 7) c->valid.data[row >> 3] = (uint8_t)((1u << (row & 7)) - 1);
    }
    if (c->kind != AB_NULL && bits_reserve(&c->valid, row + n - 1)) return JJ_ARROW_NOMEM;
    c->length += n;
    c->null_count += n;
    return JJ_ARROW_OK;
}

static jj_arrow_status col_append_null(ab_col *c) { return col_append_nulls(c, 1); }

/* A struct's field made as long as the struct (rows it missed are nulls). */
static inline jj_arrow_status catch_up(ab_col *kid, int64_t rows) {
    return kid->length < rows ? col_append_nulls(kid, rows - kid->length) : JJ_ARROW_OK;
}

jj_arrow_status ab_col_set_kind(ab_col *c, ab_kind k) {
    int64_t nulls = c->length;
    c->kind = k;
    c->length = c->null_count = 0;
    if (k == AB_STRING || k == AB_LIST) {
        uint32_t zero = 0;
        if (buf_push(&c->offsets, &zero, 4)) return JJ_ARROW_NOMEM;
    }
    if (k == AB_STRING) c->ts_maybe = true;
    if (k == AB_LIST && c->n_kids == 0) {
        ab_col *item = ab_col_new("item", 4);
        if (!item || ab_col_add_kid(c, item)) {
            ab_col_free(item);
            return JJ_ARROW_NOMEM;
        }
    }
    return col_append_nulls(c, nulls);
}

/* Inline, with the growth out of the way: run once per value read. A column without
 * nulls keeps no validity bits (the export gives none): its first null writes them. */
static inline jj_arrow_status col_mark_valid(ab_col *c) {
    if (c->null_count == 0) {
        c->length++;
        return JJ_ARROW_OK;
    }
    size_t byte = (size_t)(c->length >> 3);
    if (__builtin_expect(byte >= c->valid.len, 0) && bits_reserve(&c->valid, c->length)) return JJ_ARROW_NOMEM;
    c->valid.data[byte] |= (uint8_t)(1u << (c->length & 7));
    c->length++;
    return JJ_ARROW_OK;
}

static inline jj_arrow_status col_push8(ab_col *c, const void *v) {
    if (__builtin_expect(c->data.cap - c->data.len < 8, 0) && buf_grow(&c->data, 8)) return JJ_ARROW_NOMEM;
    memcpy(c->data.data + c->data.len, v, 8);
    c->data.len += 8;
    return col_mark_valid(c);
}

/* Room for len bytes more than b holds of prev's, if it can be had (a hint only). */
static void buf_reserve_like(ab_buf *b, const ab_buf *prev) {
    if (prev->len > b->len) (void)buf_reserve(b, prev->len + prev->len / 8 - b->len);
}

void ab_col_reserve_like(ab_col *c, const ab_col *prev) {
    if (c->kind != prev->kind) return;
    buf_reserve_like(&c->valid, &prev->valid);
    buf_reserve_like(&c->data, &prev->data);
    buf_reserve_like(&c->offsets, &prev->offsets);
    if (c->ts_maybe && prev->ts_maybe) buf_reserve_like(&c->ts_values, &prev->ts_values);
    for (size_t i = 0; i < c->n_kids && i < prev->n_kids; i++)
        if (c->kids[i]->name_len == prev->kids[i]->name_len &&
            memcmp(c->kids[i]->name, prev->kids[i]->name, c->kids[i]->name_len) == 0)
            ab_col_reserve_like(c->kids[i], prev->kids[i]);
}

/* An int64 column's values as doubles, in place (an integer met a fraction). */
void ab_col_ints_to_doubles(ab_col *c) {
    for (int64_t i = 0; i < c->length; i++) {
        int64_t v;
        memcpy(&v, c->data.data + 8 * i, 8);
        double d = (double)v;
        memcpy(c->data.data + 8 * i, &d, 8);
    }
    for (size_t k = 0; k + 8 <= c->neg_zeros.len; k += 8) {
        int64_t row;
        double minus_zero = -0.0;
        memcpy(&row, c->neg_zeros.data + k, 8);
        memcpy(c->data.data + 8 * row, &minus_zero, 8);
    }
    buf_release(&c->neg_zeros);
    c->kind = AB_DOUBLE;
}

/* An integer 0 read from "-0": into a double column as -0.0, into an inferred int64
 * column as 0 with its row noted (pyarrow reads the text as a double when the column
 * turns double). -1 when memory ran out. */
static int note_negative_zero(ab_col *c) {
    if (c->kind != AB_INT || c->fixed) return 0;
    return buf_push(&c->neg_zeros, &c->length, 8);
}

static inline bool is_negative_zero(const uint8_t *text, size_t n) { return n == 2 && text[0] == '-' && text[1] == '0'; }

/* ---- the walk ---- */

/* Where the walk is, for error messages: a chain up to the record. */
typedef struct ab_path {
    const struct ab_path *up;
    const ab_col *col;
    bool item;
} ab_path;


static void path_text(const ab_path *p, char *out, size_t cap) {
    const ab_path *chain[AB_MAX_DEPTH + 2];
    size_t n = 0, used = 0;
    for (; p && p->up && n < AB_MAX_DEPTH + 2; p = p->up) chain[n++] = p;
    out[0] = 0;
    while (n--) {
        const char *seg = chain[n]->item ? "[]" : chain[n]->col->name;
        int w = snprintf(out + used, cap - used, "/%s", seg);
        if (w < 0 || (size_t)w >= cap - used) break;
        used += (size_t)w;
    }
}

static jj_arrow_status walk_fail(ab_walk *w, const ab_path *at, jj_arrow_status s, const char *fmt,
                                 const char *a, const char *b) {
    w->err->status = s;
    path_text(at, w->err->field, sizeof w->err->field);
    snprintf(w->err->message, sizeof w->err->message, fmt, a, b);
    return s;
}

static jj_arrow_status type_change(ab_walk *w, const ab_path *at, const ab_col *c, const char *to) {
    return walk_fail(w, at, JJ_ARROW_TYPE_CHANGE, "changed from %s to %s", kind_word(c->kind), to);
}

/* Makes c of kind k: a column of nulls takes it, anything else must be it already. */
static jj_arrow_status want_kind(ab_walk *w, const ab_path *at, ab_col *c, ab_kind k, const char *word) {
    if (c->kind == k) return JJ_ARROW_OK;
    if (c->kind == AB_NULL && !c->fixed) return ab_col_set_kind(c, k);
    return type_change(w, at, c, word);
}

static jj_arrow_status append_value(ab_walk *w, const ab_path *at, ab_col *c, size_t t, int depth);

static double bigint_value(const uint8_t *text, size_t n) {
    char small[64];
    char *copy = n < sizeof small ? small : malloc(n + 1);
    if (!copy) return 0.0;
    memcpy(copy, text, n);
    copy[n] = 0;
    double d = strtod(copy, NULL);
    if (copy != small) free(copy);
    return d;
}

/* An integer or a double that an int64 column cannot hold: the column becomes double. */
static jj_arrow_status append_wide_number(ab_walk *w, const ab_path *at, ab_col *c, double d, bool integral,
                                          uint64_t u, bool is_u64) {
    if (c->kind == AB_UINT && is_u64) return col_push8(c, &u);
    if (c->kind == AB_NULL && !c->fixed) {
        jj_arrow_status s = ab_col_set_kind(c, AB_DOUBLE);
        if (s) return s;
    } else if (c->kind == AB_INT && !c->fixed) {
        ab_col_ints_to_doubles(c);
    }
    if (c->kind == AB_DOUBLE) return col_push8(c, &d);
    if (c->kind == AB_INT || c->kind == AB_UINT || c->kind == AB_TIMESTAMP)
        return walk_fail(w, at, JJ_ARROW_BAD_VALUE, integral ? "integer out of the %s%s range" : "%s%s: not an integer",
                         c->kind == AB_UINT ? "u" : "", "int64");
    return type_change(w, at, c, "number");
}

/* The UTF-8 bytes of the string (or key) at tape index t. On a lazy tape a raw string
 * without escapes is its own text; one with escapes is finished first. */
static jj_arrow_status tape_string(ab_walk *w, size_t t, const uint8_t **s, size_t *n) {
    uint64_t w0 = w->tape[t];
    unsigned flags = jj_tape_str_flags(w0);
    if (flags & JJ_STR_RAW) {
        if (!(flags & JJ_STR_ESCAPED)) {
            *s = w->input + jj_tape_str_offset(w0);
            *n = (size_t)(w->tape[t + 1] & 0xffffffffu);
            return JJ_ARROW_OK;
        }
        if (jj_lazy_finish(w->lazy, w->input, w->input_len, t) != JJ_OK) return JJ_ARROW_NOMEM;
        w->strings = jj_parser_result(w->lazy)->strings; /* it may have grown */
        w0 = w->tape[t];
        flags = jj_tape_str_flags(w0);
    }
    *s = ((flags & JJ_STR_IN_INPUT) ? w->input : w->strings) + jj_tape_str_offset(w0);
    *n = jj_tape_str_bytes(w->tape[t + 1]);
    return JJ_ARROW_OK;
}

static jj_arrow_status append_string(ab_walk *w, const ab_path *at, ab_col *c, size_t t) {
    const uint8_t *s;
    size_t n;
    if (tape_string(w, t, &s, &n)) return JJ_ARROW_NOMEM;
    if (c->kind == AB_TIMESTAMP) {
        int64_t v;
        if (ab_parse_timestamp(s, n, c->ts_unit, true, &v)) {
            char shown[48]; /* the text is not NUL-terminated: at most its n bytes */
            snprintf(shown, sizeof shown, "%.*s", (int)(n < 40 ? n : 40), (const char *)s);
            return walk_fail(w, at, JJ_ARROW_BAD_VALUE, "invalid timestamp \"%s\"%s", shown, "");
        }
        return col_push8(c, &v);
    }
    jj_arrow_status st = want_kind(w, at, c, AB_STRING, "string");
    if (st) return st;
    if (c->data.len + n > INT32_MAX)
        return walk_fail(w, at, JJ_ARROW_TOO_LARGE, "more than 2 GiB of strings%s%s", "", "");
    if (buf_push(&c->data, s, n)) return JJ_ARROW_NOMEM;
    uint32_t off = (uint32_t)c->data.len;
    if (buf_push(&c->offsets, &off, 4)) return JJ_ARROW_NOMEM;
    return col_mark_valid(c);
}

/* Finds the field `key` of struct c, looking at *guess first (fields mostly come in the
 * same order in every record); NULL when it has none. */
/* Keys are short: 8 bytes at a time (the last word overlapping), no call to memcmp. */
static inline bool name_is(const ab_col *c, const uint8_t *key, size_t n) {
    if (c->name_len != n) return false;
    const uint8_t *name = (const uint8_t *)c->name;
    uint64_t a, b;
    uint32_t x, y;
    if (n >= 8) {
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&a, name + i, 8);
            memcpy(&b, key + i, 8);
            if (a != b) return false;
        }
        memcpy(&a, name + n - 8, 8);
        memcpy(&b, key + n - 8, 8);
        return a == b;
    }
    if (n >= 4) {
        memcpy(&x, name, 4);
        memcpy(&y, key, 4);
        if (x != y) return false;
        memcpy(&x, name + n - 4, 4);
        memcpy(&y, key + n - 4, 4);
        return x == y;
    }
    for (size_t i = 0; i < n; i++)
        if (name[i] != key[i]) return false;
    return true;
}

static ab_col *find_field(ab_col *c, const uint8_t *key, size_t n, size_t *guess) {
    size_t g = *guess;
    if (g < c->n_kids && name_is(c->kids[g], key, n)) {
        *guess = g + 1;
        return c->kids[g];
    }
    if (c->slots) {
        size_t mask = c->n_slots - 1;
        for (size_t at = name_hash(key, n) & mask; c->slots[at]; at = (at + 1) & mask) {
            size_t i = c->slots[at] - 1;
            if (name_is(c->kids[i], key, n)) {
                *guess = i + 1;
                return c->kids[i];
            }
        }
        return NULL;
    }
    for (size_t i = 0; i < c->n_kids; i++) {
        if (name_is(c->kids[i], key, n)) {
            *guess = i + 1;
            return c->kids[i];
        }
    }
    return NULL;
}

/* The value at tape index v appended to c where it is of the column's type already and
 * needs nothing but a copy: an integer or a double into a number column, a string into a
 * string column (timestamps watched as append_string does), a boolean. The tape index
 * past the value when done (or *s set on a failure), 0 when append_value is to do it
 * (types to infer, conversions, errors). */
static inline size_t append_plain(ab_walk *w, ab_col *c, size_t v, jj_arrow_status *s) {
    uint64_t w0 = w->tape[v];
    jj_type type = jj_tape_type(w0);
    if (type == JJ_RAW_NUMBER && (c->kind == AB_INT || c->kind == AB_DOUBLE)) {
        size_t room = w->number_room > w->input_len ? w->number_room : w->input_len;
        size_t at = (size_t)jj_tape_payload(w0);
        jj_number num; /* the common numbers straight into the column, no tape round trip */
        const uint8_t *text = w->input + at;
        size_t text_len = (size_t)w->tape[v + 1];
        /* (a 0 from "-0" goes to append_value: -0.0, or a note of its row) */
        if (c->kind == AB_INT && jj_int_token_fast(text, text_len, room - at, &num.v.i))
            return num.v.i == 0 && is_negative_zero(text, text_len) ? 0 : (*s = col_push8(c, &num.v.i), v + 2);
        if (jj_number_token_fast(text, text_len, room - at, &num)) {
            if (num.kind == JJ_NUM_INT64) {
                if (num.v.i == 0 && is_negative_zero(text, text_len)) return 0;
                if (c->kind == AB_INT) return *s = col_push8(c, &num.v.i), v + 2;
                num.v.d = (double)num.v.i;
            } else if (c->kind != AB_DOUBLE) {
                return 0; /* a fraction in an integer column: append_value decides */
            }
            return *s = col_push8(c, &num.v.d), v + 2;
        }
        if (is_negative_zero(text, text_len)) return 0;
        if (jj_lazy_finish(w->lazy, w->input, room, v) != JJ_OK) return *s = JJ_ARROW_NOMEM, v + 2;
        w0 = w->tape[v];
        type = jj_tape_type(w0);
    }
    if (type == JJ_STRING) { /* the commonest, by a plain branch before the switch */
        if (c->kind != AB_STRING || (jj_tape_str_flags(w0) & (JJ_STR_RAW | JJ_STR_ESCAPED)) != JJ_STR_RAW) return 0;
        size_t n = jj_tape_str_bytes(w->tape[v + 1]);
        if (n > c->data.cap - c->data.len || c->offsets.cap - c->offsets.len < 4 || c->data.len + n > INT32_MAX)
            return 0;
        const uint8_t *text = w->input + jj_tape_str_offset(w0);
        size_t readable = (w->number_room > w->input_len ? w->number_room : w->input_len) - jj_tape_str_offset(w0);
        if (n <= 32 && c->data.cap - c->data.len >= 32 && readable >= 32)
            memcpy(c->data.data + c->data.len, text, 32); /* a short string: one fixed copy, no call */
        else if (n)
            memcpy(c->data.data + c->data.len, text, n); /* data is NULL until used */
        c->data.len += n;
        uint32_t off = (uint32_t)c->data.len;
        memcpy(c->offsets.data + c->offsets.len, &off, 4);
        c->offsets.len += 4;
        return *s = col_mark_valid(c), v + 2;
    }
    switch (type) {
    case JJ_INT64: {
        if (w0 & JJ_INT_MINUS_ZERO) return 0; /* append_value keeps its sign */
        int64_t i;
        memcpy(&i, &w->tape[v + 1], 8);
        if (c->kind == AB_INT) return *s = col_push8(c, &i), v + 2;
        if (c->kind != AB_DOUBLE) return 0;
        double d = (double)i;
        return *s = col_push8(c, &d), v + 2;
    }
    case JJ_DOUBLE:
        if (c->kind != AB_DOUBLE) return 0;
        return *s = col_push8(c, &w->tape[v + 1]), v + 2;
    case JJ_TRUE:
    case JJ_FALSE:
        if (c->kind != AB_BOOL) return 0;
        if (bits_reserve(&c->data, c->length)) return *s = JJ_ARROW_NOMEM, v + 1;
        if (type == JJ_TRUE) bit_set(c->data.data, c->length);
        return *s = col_mark_valid(c), v + 1;
    default: return 0;
    }
}

static jj_arrow_status append_object(ab_walk *w, const ab_path *at, ab_col *c, size_t t, int depth) {
    const uint64_t *tape = w->tape;
    size_t end = (size_t)jj_tape_payload(tape[t]);
    int64_t row = c->length;
    size_t guess = 0;
    for (size_t i = t + 2; i < end;) {
        const uint8_t *key;
        size_t n;
        uint64_t k0 = tape[i];
        if ((jj_tape_str_flags(k0) & (JJ_STR_RAW | JJ_STR_ESCAPED)) == JJ_STR_RAW) { /* as tape_string, inline */
            key = w->input + jj_tape_str_offset(k0);
            n = jj_tape_str_bytes(tape[i + 1]);
        } else if (tape_string(w, i, &key, &n)) {
            return JJ_ARROW_NOMEM;
        }
        size_t v = i + 2;
        ab_col *kid;
        if (guess < c->n_kids && name_is(c->kids[guess], key, n)) /* the field after the last one */
            kid = c->kids[guess++];
        else
            kid = find_field(c, key, n, &guess);
        if (!kid) {
            if (c->fixed) {
                if (w->error_on_unknown) {
                    ab_path here = {at, c, false};
                    char name[96];
                    snprintf(name, sizeof name, "%.*s", (int)(n < 90 ? n : 90), (const char *)key);
                    return walk_fail(w, &here, JJ_ARROW_UNKNOWN_FIELD, "unknown field \"%s\"%s", name, "");
                }
                i = jj_tape_skip(tape, v);
                continue;
            }
            kid = ab_col_new((const char *)key, n);
            if (!kid || ab_col_add_kid(c, kid)) {
                ab_col_free(kid);
                return JJ_ARROW_NOMEM;
            }
            guess = c->n_kids;
        }
        jj_arrow_status s;
        if (kid->length != row) {
            if ((s = catch_up(kid, row))) return s;
            if (kid->length > row) {
                ab_path here = {at, kid, false};
                return walk_fail(w, &here, JJ_ARROW_DUPLICATE, "specified twice%s%s", "", "");
            }
        }
        if ((i = append_plain(w, kid, v, &s))) {
            if (s) return s;
        } else {
            ab_path here = {at, kid, false};
            if ((s = append_value(w, &here, kid, v, depth + 1))) return s;
            i = jj_tape_skip(tape, v);
        }
    }
    return col_mark_valid(c); /* the fields it lacks are caught up later */
}

static jj_arrow_status append_array(ab_walk *w, const ab_path *at, ab_col *c, size_t t, int depth) {
    size_t end = (size_t)jj_tape_payload(w->tape[t]);
    ab_col *item = c->kids[0];
    ab_path here = {at, item, true};
    for (size_t i = t + 2; i < end; i = jj_tape_skip(w->tape, i)) {
        jj_arrow_status s = append_value(w, &here, item, i, depth + 1);
        if (s) return s;
    }
    if (item->length > INT32_MAX)
        return walk_fail(w, at, JJ_ARROW_TOO_LARGE, "more than 2^31 list items%s%s", "", "");
    uint32_t off = (uint32_t)item->length;
    if (buf_push(&c->offsets, &off, 4)) return JJ_ARROW_NOMEM;
    return col_mark_valid(c);
}

static jj_arrow_status append_value(ab_walk *w, const ab_path *at, ab_col *c, size_t t, int depth) {
    uint64_t w0 = w->tape[t];
    /* "-0": the int64 0 of a plain tape says so; a lazy tape's raw text shows it */
    bool negative_zero = jj_tape_type(w0) == JJ_INT64 && (w0 & JJ_INT_MINUS_ZERO);
    if (jj_tape_type(w0) == JJ_RAW_NUMBER) { /* lazy tape: convert it now */
        size_t room = w->number_room > w->input_len ? w->number_room : w->input_len;
        negative_zero = is_negative_zero(w->input + jj_tape_payload(w0), (size_t)w->tape[t + 1]);
        if (jj_lazy_finish(w->lazy, w->input, room, t) != JJ_OK) return JJ_ARROW_NOMEM;
        w0 = w->tape[t];
    }
    jj_arrow_status s;
    int64_t i;
    uint64_t u;
    double d;
    switch (jj_tape_type(w0)) {
    case JJ_NULL: return col_append_null(c);
    case JJ_TRUE:
    case JJ_FALSE:
        if ((s = want_kind(w, at, c, AB_BOOL, "boolean"))) return s;
        if (bits_reserve(&c->data, c->length)) return JJ_ARROW_NOMEM;
        if (jj_tape_type(w0) == JJ_TRUE) bit_set(c->data.data, c->length);
        return col_mark_valid(c);
    case JJ_INT64:
        memcpy(&i, &w->tape[t + 1], 8);
        if (c->kind == AB_DOUBLE) {
            d = negative_zero ? -0.0 : (double)i;
            return col_push8(c, &d);
        }
        if (c->kind == AB_TIMESTAMP) return col_push8(c, &i);
        if (c->kind == AB_UINT) {
            if (i < 0) return walk_fail(w, at, JJ_ARROW_BAD_VALUE, "negative integer in a %s column%s", "uint64", "");
            return col_push8(c, &i);
        }
        if ((s = want_kind(w, at, c, AB_INT, "number"))) return s;
        if (negative_zero && note_negative_zero(c)) return JJ_ARROW_NOMEM;
        return col_push8(c, &i);
    case JJ_UINT64:
        u = w->tape[t + 1];
        return append_wide_number(w, at, c, (double)u, true, u, true);
    case JJ_BIGINT:
        d = bigint_value(w->input + jj_tape_payload(w0), (size_t)w->tape[t + 1]);
        return append_wide_number(w, at, c, d, true, 0, false);
    case JJ_DOUBLE:
        memcpy(&d, &w->tape[t + 1], 8);
        return append_wide_number(w, at, c, d, false, 0, false);
    case JJ_STRING: return append_string(w, at, c, t);
    case JJ_OBJECT:
    case JJ_ARRAY: {
        bool obj = jj_tape_type(w0) == JJ_OBJECT;
        if (depth >= AB_MAX_DEPTH)
            return walk_fail(w, at, JJ_ARROW_BAD_VALUE, "nested deeper than %s levels%s", "100", "");
        if ((s = want_kind(w, at, c, obj ? AB_STRUCT : AB_LIST, obj ? "object" : "array"))) return s;
        return obj ? append_object(w, at, c, t, depth) : append_array(w, at, c, t, depth);
    }
    default: return type_change(w, at, c, "?");
    }
}

/* ---- a window's columns complete: struct fields caught up, timestamps settled ---- */

/* An inferred string column complete (its nulls caught up) whose strings may be
 * timestamps: read them all as seconds, once (a tight loop here costs less than a watch
 * of each string as it was appended: flat 40 MB, one thread, 2.5 ms a call); the first
 * that is not one ends it. */
static jj_arrow_status settle_timestamps(ab_col *c) {
    if (c->kind != AB_STRING || c->fixed || !c->ts_maybe || c->ts_values.len == (size_t)c->length * 8)
        return JJ_ARROW_OK;
    c->ts_values.len = 0;
    if (buf_reserve(&c->ts_values, (size_t)c->length * 8)) return JJ_ARROW_NOMEM;
    if (ab_timestamps_of_strings(c->data.data, (const uint32_t *)(const void *)c->offsets.data,
                                 c->null_count ? c->valid.data : NULL, c->length,
                                 (int64_t *)(void *)c->ts_values.data) == 0) {
        c->ts_values.len = (size_t)c->length * 8;
    } else {
        c->ts_maybe = false;
        buf_release(&c->ts_values);
    }
    return JJ_ARROW_OK;
}

jj_arrow_status ab_fill_fields(ab_col *c) {
    for (size_t i = 0; i < c->n_kids; i++) {
        jj_arrow_status s = c->kind == AB_STRUCT ? catch_up(c->kids[i], c->length) : JJ_ARROW_OK;
        if (!s) s = ab_fill_fields(c->kids[i]);
        if (s) return s;
    }
    return settle_timestamps(c);
}

/* ---- the end of the input: string columns that are all timestamps become timestamps ---- */

static jj_arrow_status finish_col(ab_col *c) {
    for (size_t i = 0; i < c->n_kids; i++) {
        jj_arrow_status s = c->kind == AB_STRUCT ? catch_up(c->kids[i], c->length) : JJ_ARROW_OK;
        if (!s) s = finish_col(c->kids[i]);
        if (s) return s;
    }
    /* (a column of nulls only, from a part that started of the merged types, is one too) */
    jj_arrow_status s = settle_timestamps(c);
    if (!s && c->kind == AB_STRING && !c->ts_maybe) buf_release(&c->ts_values); /* strings after all (merged) */
    if (s || c->kind != AB_STRING || c->fixed || !c->ts_maybe) return s;
    ab_buf values = c->ts_values;
    memset(&c->ts_values, 0, sizeof c->ts_values);
    buf_release(&c->data);
    buf_release(&c->offsets);
    c->data = values;
    c->kind = AB_TIMESTAMP;
    c->ts_unit = 0;
    c->format = malloc(5);
    if (!c->format) return JJ_ARROW_NOMEM;
    memcpy(c->format, "tss:", 5);
    return JJ_ARROW_OK;
}

/* ---- records (arrow_build_read.c splits the input) ---- */

jj_arrow_status ab_append_record(ab_walk *w, ab_col *root) {
    ab_path top = {NULL, root, false};
    jj_type type = jj_tape_type(w->tape[0]);
    if (type == JJ_NULL) return col_append_null(root); /* as pyarrow reads it: a record of nulls */
    if (type == JJ_OBJECT) return append_object(w, &top, root, 0, 0);
    w->err->status = JJ_ARROW_NOT_OBJECT;
    snprintf(w->err->message, sizeof w->err->message, "not a JSON object");
    return JJ_ARROW_NOT_OBJECT;
}

jj_arrow_status ab_finish(ab_col *root) { return finish_col(root); }
