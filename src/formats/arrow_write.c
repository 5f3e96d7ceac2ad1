/* Arrow record batches to NDJSON (jetjson_arrow_write.h): row by row, each value read
 * from its buffers at (array offset + index) and written with the text layer of
 * jetjson_write.h (escaping, integers, doubles). The plan (arrow_write_plan.c) has read
 * the format strings; here every value costs one switch on its kind. */
#include <math.h>
#include <string.h>

#include "arrow_write_internal.h"

typedef struct aw_ctx {
    jj_sink *out;
    jj_aw_status *st;
    int64_t row;
    int skip_nulls;
} aw_ctx;

/* Room for a value of fixed size: a date with a 12-digit year, a number, a timestamp. */
#define AW_SCALAR_ROOM 64
/* Long strings are escaped in pieces, each needing 6 x its length at most. */
#define AW_STRING_PIECE 65536

#define AW_TRY(expr)                      \
    do {                                  \
        jj_aw_error aw_err_ = (expr);     \
        if (aw_err_) return aw_err_;      \
    } while (0)

static inline jj_aw_error aw_room(aw_ctx *c, size_t n) {
    return jj_sink_reserve(c->out, n) ? jj_aw_fail(c->st, JJ_AW_NOMEM, NULL, c->row) : JJ_AW_OK;
}

static inline jj_aw_error aw_put(aw_ctx *c, const char *s, size_t n) {
    AW_TRY(aw_room(c, n));
    memcpy(c->out->pos, s, n);
    c->out->pos += n;
    return JJ_AW_OK;
}

/* Whether the value at physical index p of a (of type n) is null. */
static inline int aw_is_null(const aw_node *n, const struct ArrowArray *a, int64_t p) {
    if (n->kind == AW_NULL) return 1;
    if (a->null_count == 0) return 0;
    const uint8_t *valid = a->buffers[0];
    return valid && !((valid[p >> 3] >> (p & 7)) & 1);
}

/* ---- shape checks (once per batch) ---- */

static int64_t aw_buffers_needed(const aw_node *n) {
    switch (n->kind) {
    case AW_NULL: return 0;
    case AW_STRUCT:
    case AW_FIXED_LIST: return 1;
    case AW_UTF8:
    case AW_LARGE_UTF8: return 3;
    case AW_UTF8_VIEW: return 3; /* validity, views, the variadic buffers, their sizes */
    default: return 2;
    }
}

static jj_aw_error aw_check(const aw_node *n, const struct ArrowArray *a, jj_aw_status *st) {
    if (!a || a->length < 0 || a->offset < 0 || a->length > INT64_MAX - a->offset)
        return jj_aw_fail(st, JJ_AW_BAD_ARRAY, n, -1);
    int64_t need = aw_buffers_needed(n);
    /* a null array's buffers are never read: polars exports it with a validity buffer */
    if (n->kind == AW_UTF8_VIEW || n->kind == AW_NULL ? a->n_buffers < need : a->n_buffers != need)
        return jj_aw_fail(st, JJ_AW_BAD_ARRAY, n, -1);
    if (need > 0 && !a->buffers) return jj_aw_fail(st, JJ_AW_BAD_ARRAY, n, -1);
    if (need > 0 && a->null_count > 0 && !a->buffers[0]) return jj_aw_fail(st, JJ_AW_BAD_ARRAY, n, -1);
    /* the data buffers (a string's bytes may be absent when every string is empty) */
    int64_t required = n->kind == AW_UTF8 || n->kind == AW_LARGE_UTF8 ? 2 : need;
    if (n->kind == AW_UTF8_VIEW) required = 2;
    if (a->length > 0)
        for (int64_t b = 1; b < required; b++)
            if (!a->buffers[b]) return jj_aw_fail(st, JJ_AW_BAD_ARRAY, n, -1);
    int64_t end = a->offset + a->length;
    switch (n->kind) {
    case AW_STRUCT:
        if (a->n_children != n->n_children || (n->n_children && !a->children))
            return jj_aw_fail(st, JJ_AW_BAD_ARRAY, n, -1);
        for (int64_t i = 0; i < n->n_children; i++) {
            AW_TRY(aw_check(&n->children[i], a->children[i], st));
            if (a->children[i]->length < end) return jj_aw_fail(st, JJ_AW_BAD_ARRAY, &n->children[i], -1);
        }
        return JJ_AW_OK;
    case AW_LIST:
    case AW_LARGE_LIST:
    case AW_FIXED_LIST:
        if (a->n_children != 1 || !a->children) return jj_aw_fail(st, JJ_AW_BAD_ARRAY, n, -1);
        AW_TRY(aw_check(&n->children[0], a->children[0], st));
        if (n->kind == AW_FIXED_LIST &&
            (end > INT64_MAX / n->fixed_size || a->children[0]->length < end * n->fixed_size))
            return jj_aw_fail(st, JJ_AW_BAD_ARRAY, n, -1);
        return JJ_AW_OK;
    case AW_DICT:
        if (!a->dictionary) return jj_aw_fail(st, JJ_AW_BAD_ARRAY, n, -1);
        return aw_check(&n->children[0], a->dictionary, st);
    default:
        return a->n_children == 0 ? JJ_AW_OK : jj_aw_fail(st, JJ_AW_BAD_ARRAY, n, -1);
    }
}

/* ---- scalars ---- */

/* Values are read with memcpy: the spec aligns buffers, but a producer that does not
 * must not make this undefined. */
static inline int64_t aw_i64(const void *buf, int64_t p) {
    int64_t v;
    memcpy(&v, (const uint8_t *)buf + 8 * (size_t)p, 8);
    return v;
}

static inline int32_t aw_i32(const void *buf, int64_t p) {
    int32_t v;
    memcpy(&v, (const uint8_t *)buf + 4 * (size_t)p, 4);
    return v;
}

/* A signed integer column's value (every integer kind but uint64). */
static int64_t aw_signed(aw_kind kind, const void *buf, int64_t p) {
    const uint8_t *b = buf;
    switch (kind) {
    case AW_INT8: return (int8_t)b[p];
    case AW_UINT8: return b[p];
    case AW_INT16: {
        int16_t v;
        memcpy(&v, b + 2 * (size_t)p, 2);
        return v;
    }
    case AW_UINT16: {
        uint16_t v;
        memcpy(&v, b + 2 * (size_t)p, 2);
        return v;
    }
    case AW_INT32: return aw_i32(buf, p);
    case AW_UINT32: {
        uint32_t v;
        memcpy(&v, b + 4 * (size_t)p, 4);
        return v;
    }
    default: return aw_i64(buf, p);
    }
}

static double aw_half_to_double(uint16_t h) {
    int exponent = (h >> 10) & 0x1F;
    int mantissa = h & 0x3FF;
    double v;
    if (exponent == 0) v = ldexp(mantissa, -24);
    else if (exponent == 31) v = mantissa ? NAN : INFINITY;
    else v = ldexp(mantissa + 1024, exponent - 25);
    return (h & 0x8000) ? -v : v;
}

static jj_aw_error aw_double(aw_ctx *c, double v) {
    if (!isfinite(v)) return aw_put(c, "null", 4);
    AW_TRY(aw_room(c, JJ_DOUBLE_BUF_SIZE));
    c->out->pos += jj_format_double_orjson(v, (char *)c->out->pos);
    return JJ_AW_OK;
}

/* Four digits of 0 <= y <= 9999, else as many as it takes, after a '-' when negative. */
static uint8_t *aw_year(uint8_t *o, int64_t y) {
    if (y >= 0 && y <= 9999) {
        o = jj_write_digits2(o, (unsigned)(y / 100));
        return jj_write_digits2(o, (unsigned)(y % 100));
    }
    if (y < 0 && y >= -9999) {
        *o++ = '-';
        return aw_year(o, -y);
    }
    return o + jj_format_int64(y, (char *)o);
}

/* Days since 1970-01-01 to a proleptic Gregorian date: shift to a calendar whose years
 * start on March 1st (so that the leap day ends a year), split into 400-year eras of
 * 146097 days, then years of the era, then months of 153 days per 5. */
static uint8_t *aw_date(uint8_t *o, int64_t days) {
    int64_t z = days + 719468; /* days since 0000-03-01 */
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t day_of_era = z - era * 146097;                                       /* 0..146096 */
    int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    int64_t month_index = (5 * day_of_year + 2) / 153; /* 0 = March */
    unsigned day = (unsigned)(day_of_year - (153 * month_index + 2) / 5 + 1);
    unsigned month = (unsigned)(month_index < 10 ? month_index + 3 : month_index - 9);
    int64_t year = year_of_era + era * 400 + (month <= 2);
    o = aw_year(o, year);
    *o++ = '-';
    o = jj_write_digits2(o, month);
    *o++ = '-';
    return jj_write_digits2(o, day);
}

static const int64_t aw_per_second[4] = {1, 1000, 1000000, 1000000000};

/* v = q * d + r with 0 <= r < d (no overflow for any v). */
static inline int64_t aw_floor_div(int64_t v, int64_t d, int64_t *r) {
    int64_t q = v / d, m = v % d;
    if (m < 0) {
        q -= 1;
        m += d;
    }
    *r = m;
    return q;
}

/* HH:MM:SS of 0 <= seconds < 86400, then ".fff" with 3 * unit digits when frac != 0. */
static uint8_t *aw_clock(uint8_t *o, int64_t seconds, int64_t frac, int unit) {
    o = jj_write_digits2(o, (unsigned)(seconds / 3600));
    *o++ = ':';
    o = jj_write_digits2(o, (unsigned)(seconds / 60 % 60));
    *o++ = ':';
    o = jj_write_digits2(o, (unsigned)(seconds % 60));
    if (frac) {
        /* groups of three digits, each a digit and a pair, from the right */
        int digits = 3 * unit;
        *o = '.';
        for (int i = digits; i > 0; i -= 3, frac /= 1000) {
            unsigned group = (unsigned)(frac % 1000);
            o[i - 2] = (uint8_t)('0' + group / 100);
            jj_write_digits2(o + i - 1, group % 100);
        }
        o += digits + 1;
    }
    return o;
}

static jj_aw_error aw_timestamp(aw_ctx *c, int64_t v, int unit, int zoned) {
    int64_t frac, rest;
    int64_t seconds = aw_floor_div(v, aw_per_second[unit], &frac);
    int64_t days = aw_floor_div(seconds, 86400, &rest);
    AW_TRY(aw_room(c, AW_SCALAR_ROOM));
    uint8_t *o = c->out->pos;
    *o++ = '"';
    o = aw_date(o, days);
    *o++ = 'T';
    o = aw_clock(o, rest, frac, unit);
    if (zoned) *o++ = 'Z';
    *o++ = '"';
    c->out->pos = o;
    return JJ_AW_OK;
}

static jj_aw_error aw_day(aw_ctx *c, int64_t days) {
    AW_TRY(aw_room(c, AW_SCALAR_ROOM));
    uint8_t *o = c->out->pos;
    *o++ = '"';
    o = aw_date(o, days);
    *o++ = '"';
    c->out->pos = o;
    return JJ_AW_OK;
}

/* A time of day; values outside one day (the spec forbids them) are wrapped into it. */
static jj_aw_error aw_time(aw_ctx *c, int64_t v, int unit) {
    int64_t frac, rest;
    int64_t seconds = aw_floor_div(v, aw_per_second[unit], &frac);
    aw_floor_div(seconds, 86400, &rest);
    AW_TRY(aw_room(c, AW_SCALAR_ROOM));
    uint8_t *o = c->out->pos;
    *o++ = '"';
    o = aw_clock(o, rest, frac, unit);
    *o++ = '"';
    c->out->pos = o;
    return JJ_AW_OK;
}

static inline uint64_t aw_load8(const uint8_t *s) {
    uint64_t w;
    memcpy(&w, s, 8);
    return w;
}

/* Nonzero when none of 8 bytes needs escaping and all are ASCII (jetjson_write.h's
 * flags, stopping at bytes of 0x80 and up too). */
static inline int aw_plain8(uint64_t w) { return ((~jj_escape_ok7(w & ~JJ_HIGHS8, 0) | w) & JJ_HIGHS8) == 0; }

/* Whether s[0..len) is ASCII with nothing to escape: then it is copied as it is. Reads
 * only inside the string (short ones through a word padded with spaces, the tail of long
 * ones as an overlapping last block). */
static inline int aw_plain_ascii(const uint8_t *s, size_t len) {
    if (len < 8) {
        uint64_t w = JJ_ONES8 * ' ';
        memcpy(&w, s, len);
        return aw_plain8(w);
    }
    if (len <= 16) return aw_plain8(aw_load8(s)) && aw_plain8(aw_load8(s + len - 8));
    for (size_t i = 0; i + 16 < len; i += 16)
        if (jj_escape_flags16(s + i, 0)) return 0;
    return jj_escape_flags16(s + len - 16, 0) == 0;
}

/* A string literal of the UTF-8 bytes s[0..n), checked. */
static jj_aw_error aw_string(aw_ctx *c, const aw_node *n, const uint8_t *s, size_t len) {
    size_t done = 0;
    if (len <= AW_STRING_PIECE && aw_plain_ascii(s, len)) {
        /* most strings: no escape, no UTF-8 to check */
        AW_TRY(aw_room(c, len + 2));
        uint8_t *o = c->out->pos;
        *o = '"';
        memcpy(o + 1, s, len);
        o[len + 1] = '"';
        c->out->pos = o + len + 2;
        return JJ_AW_OK;
    }
    AW_TRY(aw_room(c, 2 + 6 * (len < AW_STRING_PIECE ? len : AW_STRING_PIECE)));
    *c->out->pos++ = '"';
    while (done < len) {
        size_t take = len - done, bad = 0;
        if (take > AW_STRING_PIECE) {
            /* cut before a character's continuation bytes */
            take = AW_STRING_PIECE;
            for (int k = 0; k < 3 && (s[done + take] & 0xC0) == 0x80; k++) take--;
        }
        AW_TRY(aw_room(c, 6 * take + 1));
        size_t w = jj_escape_utf8_text(s + done, take, 1, c->out->pos, &bad);
        if (w == JJ_ESCAPE_INVALID) return jj_aw_fail(c->st, JJ_AW_UTF8, n, c->row);
        c->out->pos += w;
        done += take;
    }
    AW_TRY(aw_room(c, 1));
    *c->out->pos++ = '"';
    return JJ_AW_OK;
}

static jj_aw_error aw_view_string(aw_ctx *c, const aw_node *n, const struct ArrowArray *a, int64_t p) {
    const uint8_t *view = (const uint8_t *)a->buffers[1] + 16 * (size_t)p;
    int32_t len = aw_i32(view, 0);
    if (len < 0) return jj_aw_fail(c->st, JJ_AW_BAD_ARRAY, n, c->row);
    if (len <= 12) return aw_string(c, n, view + 4, (size_t)len);
    int32_t index = aw_i32(view, 2), offset = aw_i32(view, 3);
    /* buffers: validity, views, the data buffers, then the array of their sizes */
    if (index < 0 || offset < 0 || index >= a->n_buffers - 3 || !a->buffers[2 + index])
        return jj_aw_fail(c->st, JJ_AW_BAD_ARRAY, n, c->row);
    return aw_string(c, n, (const uint8_t *)a->buffers[2 + index] + offset, (size_t)len);
}

static jj_aw_error aw_offset_string(aw_ctx *c, const aw_node *n, const struct ArrowArray *a, int64_t p) {
    int64_t start, end;
    if (n->kind == AW_UTF8) {
        start = aw_i32(a->buffers[1], p);
        end = aw_i32(a->buffers[1], p + 1);
    } else {
        start = aw_i64(a->buffers[1], p);
        end = aw_i64(a->buffers[1], p + 1);
    }
    if (start < 0 || end < start || (end > start && !a->buffers[2]))
        return jj_aw_fail(c->st, JJ_AW_BAD_ARRAY, n, c->row);
    if (end == start) return aw_put(c, "\"\"", 2);
    return aw_string(c, n, (const uint8_t *)a->buffers[2] + start, (size_t)(end - start));
}

/* A decimal: the integer of `bytes` bytes (two's complement, little-endian) at v, with
 * `scale` digits after the point (a negative scale: that many zeros appended), written as
 * a JSON number in full ("-12.50", "0.001", "1200"). */
static jj_aw_error aw_decimal(aw_ctx *c, const uint8_t *v, int64_t bytes, int scale) {
    uint32_t limbs[8] = {0}; /* little-endian 32-bit limbs, at most 256 bits */
    int count = (int)(bytes / 4);
    for (int i = 0; i < count; i++) memcpy(&limbs[i], v + 4 * i, 4);
    int negative = (limbs[count - 1] >> 31) != 0;
    if (negative) { /* the magnitude: invert and add one */
        uint64_t carry = 1;
        for (int i = 0; i < count; i++) {
            uint64_t x = (uint64_t)(uint32_t)~limbs[i] + carry;
            limbs[i] = (uint32_t)x;
            carry = x >> 32;
        }
    }
    /* digits from the right, nine at a time (a division of the limbs by 10^9) */
    char digits[88];
    int at = (int)sizeof digits, top = count;
    do {
        uint64_t rest = 0;
        for (int i = top - 1; i >= 0; i--) {
            uint64_t cur = (rest << 32) | limbs[i];
            limbs[i] = (uint32_t)(cur / 1000000000u);
            rest = cur % 1000000000u;
        }
        while (top > 0 && limbs[top - 1] == 0) top--;
        for (int k = 0; k < 9; k++, rest /= 10) digits[--at] = (char)('0' + rest % 10);
    } while (top > 0);
    while (at < (int)sizeof digits - 1 && digits[at] == '0') at++;
    int len = (int)sizeof digits - at;
    int pad = scale > 0 ? scale : -scale;
    AW_TRY(aw_room(c, (size_t)len + (size_t)pad + 4));
    uint8_t *o = c->out->pos;
    if (negative) *o++ = '-';
    if (scale <= 0) {
        memcpy(o, digits + at, (size_t)len);
        o += len;
        if (!(len == 1 && digits[at] == '0')) {
            memset(o, '0', (size_t)pad);
            o += pad;
        }
    } else if (len <= scale) {
        *o++ = '0';
        *o++ = '.';
        memset(o, '0', (size_t)(scale - len));
        o += scale - len;
        memcpy(o, digits + at, (size_t)len);
        o += len;
    } else {
        memcpy(o, digits + at, (size_t)(len - scale));
        o += len - scale;
        *o++ = '.';
        memcpy(o, digits + at + len - scale, (size_t)scale);
        o += scale;
    }
    c->out->pos = o;
    return JJ_AW_OK;
}

/* ---- values ---- */

static jj_aw_error aw_value(aw_ctx *c, const aw_node *n, const struct ArrowArray *a, int64_t p);

/* The value at physical index p of a, or null. */
static jj_aw_error aw_value_or_null(aw_ctx *c, const aw_node *n, const struct ArrowArray *a, int64_t p) {
    if (aw_is_null(n, a, p)) return aw_put(c, "null", 4);
    return aw_value(c, n, a, p);
}

/* An object of the struct at physical index p of a (not null). */
static jj_aw_error aw_object(aw_ctx *c, const aw_node *n, const struct ArrowArray *a, int64_t p) {
    int first = 1;
    AW_TRY(aw_put(c, "{", 1));
    for (int64_t k = 0; k < n->n_children; k++) {
        const aw_node *field = &n->children[k];
        const struct ArrowArray *child = a->children[k];
        int64_t q = child->offset + p; /* the child's logical index is the parent's physical one */
        int null = aw_is_null(field, child, q);
        if (null && c->skip_nulls) continue;
        AW_TRY(aw_room(c, field->key_len + AW_KEY_PAD));
        /* whole 16-byte blocks of the padded key: no call to memcpy for a few bytes */
        const uint8_t *key = field->key + first;
        size_t key_len = field->key_len - (size_t)first;
        for (size_t b = 0; b < key_len; b += AW_KEY_PAD) memcpy(c->out->pos + b, key + b, AW_KEY_PAD);
        c->out->pos += key_len;
        first = 0;
        AW_TRY(null ? aw_put(c, "null", 4) : aw_value(c, field, child, q));
    }
    return aw_put(c, "}", 1);
}

/* An array of the items [start, end) of the list's child (logical indices). */
static jj_aw_error aw_items(aw_ctx *c, const aw_node *n, const struct ArrowArray *a, int64_t start, int64_t end) {
    const aw_node *item = &n->children[0];
    const struct ArrowArray *child = a->children[0];
    if (start < 0 || end < start || end > child->length) return jj_aw_fail(c->st, JJ_AW_BAD_ARRAY, n, c->row);
    AW_TRY(aw_put(c, "[", 1));
    for (int64_t i = start; i < end; i++) {
        if (i > start) AW_TRY(aw_put(c, ",", 1));
        AW_TRY(aw_value_or_null(c, item, child, child->offset + i));
    }
    return aw_put(c, "]", 1);
}

/* The value at physical index p of a (not null). */
static jj_aw_error aw_value(aw_ctx *c, const aw_node *n, const struct ArrowArray *a, int64_t p) {
    /* the buffer after the validity bitmap (structs and fixed-size lists have none) */
    const void *data = a->n_buffers > 1 ? a->buffers[1] : NULL;
    switch (n->kind) {
    case AW_NULL: return aw_put(c, "null", 4);
    case AW_BOOL: {
        const uint8_t *bits = data;
        return (bits[p >> 3] >> (p & 7)) & 1 ? aw_put(c, "true", 4) : aw_put(c, "false", 5);
    }
    case AW_INT8:
    case AW_INT16:
    case AW_INT32:
    case AW_INT64:
    case AW_UINT8:
    case AW_UINT16:
    case AW_UINT32:
        AW_TRY(aw_room(c, JJ_INT_MAX_CHARS));
        c->out->pos += jj_format_int64(aw_signed(n->kind, data, p), (char *)c->out->pos);
        return JJ_AW_OK;
    case AW_UINT64: {
        uint64_t v;
        memcpy(&v, (const uint8_t *)data + 8 * (size_t)p, 8);
        AW_TRY(aw_room(c, JJ_INT_MAX_CHARS));
        c->out->pos += jj_format_uint64(v, (char *)c->out->pos);
        return JJ_AW_OK;
    }
    case AW_FLOAT16: {
        uint16_t h;
        memcpy(&h, (const uint8_t *)data + 2 * (size_t)p, 2);
        return aw_double(c, aw_half_to_double(h));
    }
    case AW_FLOAT32: {
        float f;
        memcpy(&f, (const uint8_t *)data + 4 * (size_t)p, 4);
        if (!isfinite(f)) return aw_put(c, "null", 4);
        AW_TRY(aw_room(c, JJ_FLOAT32_BUF_SIZE));
        c->out->pos += jj_format_float32_orjson(f, (char *)c->out->pos);
        return JJ_AW_OK;
    }
    case AW_FLOAT64: {
        double d;
        memcpy(&d, (const uint8_t *)data + 8 * (size_t)p, 8);
        return aw_double(c, d);
    }
    case AW_UTF8:
    case AW_LARGE_UTF8: return aw_offset_string(c, n, a, p);
    case AW_UTF8_VIEW: return aw_view_string(c, n, a, p);
    case AW_TIMESTAMP: return aw_timestamp(c, aw_i64(data, p), n->unit, n->zoned);
    case AW_DATE32: return aw_day(c, aw_i32(data, p));
    case AW_DATE64: {
        int64_t rest;
        return aw_day(c, aw_floor_div(aw_i64(data, p), 86400000, &rest));
    }
    case AW_TIME32: return aw_time(c, aw_i32(data, p), n->unit);
    case AW_TIME64: return aw_time(c, aw_i64(data, p), n->unit);
    case AW_DECIMAL:
        return aw_decimal(c, (const uint8_t *)data + (size_t)n->fixed_size * (size_t)p, n->fixed_size, n->scale);
    case AW_STRUCT: return aw_object(c, n, a, p);
    case AW_LIST: return aw_items(c, n, a, aw_i32(data, p), aw_i32(data, p + 1));
    case AW_LARGE_LIST: return aw_items(c, n, a, aw_i64(data, p), aw_i64(data, p + 1));
    case AW_FIXED_LIST: return aw_items(c, n, a, p * n->fixed_size, (p + 1) * n->fixed_size);
    case AW_DICT: {
        const struct ArrowArray *values = a->dictionary;
        int64_t index;
        if (n->index_kind == AW_UINT64) {
            uint64_t u;
            memcpy(&u, (const uint8_t *)data + 8 * (size_t)p, 8);
            index = u > (uint64_t)INT64_MAX ? -1 : (int64_t)u;
        } else {
            index = aw_signed(n->index_kind, data, p);
        }
        if (index < 0 || index >= values->length) return jj_aw_fail(c->st, JJ_AW_BAD_ARRAY, n, c->row);
        return aw_value_or_null(c, &n->children[0], values, values->offset + index);
    }
    }
    return jj_aw_fail(c->st, JJ_AW_UNSUPPORTED, n, c->row);
}

jj_aw_error jj_aw_write_rows(const jj_aw_plan *plan, const struct ArrowArray *batch, int64_t first, int64_t count,
                             jj_sink *out, jj_aw_status *status) {
    memset(status, 0, sizeof *status);
    status->row = -1;
    const aw_node *root = &plan->root;
    AW_TRY(aw_check(root, batch, status));
    if (first < 0 || count < 0 || first > batch->length || count > batch->length - first)
        return jj_aw_fail(status, JJ_AW_BAD_ARRAY, root, -1);
    aw_ctx c = {out, status, 0, (plan->flags & JJ_AW_SKIP_NULLS) != 0};
    for (int64_t i = first; i < first + count; i++) {
        int64_t p = batch->offset + i;
        c.row = i;
        AW_TRY(aw_is_null(root, batch, p) ? aw_put(&c, "null", 4) : aw_object(&c, root, batch, p));
        AW_TRY(aw_put(&c, "\n", 1));
    }
    return JJ_AW_OK;
}

jj_aw_error jj_aw_write_batch(const jj_aw_plan *plan, const struct ArrowArray *batch, jj_sink *out,
                              jj_aw_status *status) {
    return jj_aw_write_rows(plan, batch, 0, batch ? batch->length : 0, out, status);
}
