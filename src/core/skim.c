/* Pointer lookups on the stage-1 index alone (trusted input): no tape is built, keys
 * are compared with their raw bytes, and every step is bounds-checked so that a
 * malformed document cannot make the walk read outside the buffers. */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "jetjson_paths.h"
#include "jetjson_write.h"

/* as in the parser: stage 1 may write a few entries past its count */
#define JJ_SKIM_SLACK 64

jj_error jj_skim_index(jj_parser *p, const uint8_t *buf, size_t len) {
    p->tape_len = 0;
    p->index_len = 0;
    if (len >= (size_t)UINT32_MAX - JJ_SKIM_SLACK) return p->error = JJ_ERR_TOO_LARGE;
    if (len + JJ_SKIM_SLACK > p->index_cap) {
        uint32_t *fresh = realloc(p->index, (len + JJ_SKIM_SLACK) * sizeof *fresh);
        if (!fresh) return p->error = JJ_ERR_NOMEM;
        p->index = fresh;
        p->index_cap = len + JJ_SKIM_SLACK;
    }
    jj_error err = JJ_OK;
    size_t err_off = 0;
    size_t n = jj_kernels_active()->stage1(buf, len, p->index, &err, &err_off);
    p->error = err;
    p->error_offset = err_off;
    if (err == JJ_OK) p->index_len = n;
    return err;
}

typedef struct jj_skim {
    const uint32_t *idx;
    size_t n;
    const uint8_t *buf;
    size_t len;
} jj_skim;

static const int8_t jj_skim_nesting[256] = {['{'] = 1, ['['] = 1, ['}'] = -1, [']'] = -1};

static inline uint8_t jj_skim_byte(const jj_skim *s, size_t entry) { return s->buf[s->idx[entry]]; }

/* The last index entry of the value starting at entry i, or SIZE_MAX when its brackets
 * never close. */
static size_t jj_skim_last(const jj_skim *s, size_t i) {
    if (jj_skim_nesting[jj_skim_byte(s, i)] <= 0) return i;
    ptrdiff_t depth = 1;
    while (++i < s->n) {
        depth += jj_skim_nesting[jj_skim_byte(s, i)];
        if (depth == 0) return i;
    }
    return SIZE_MAX;
}

static inline int jj_skim_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* The offset just past the value whose last entry is j. */
static size_t jj_skim_end(const jj_skim *s, size_t j) {
    size_t at = s->idx[j];
    if (jj_skim_nesting[s->buf[at]] < 0) return at + 1;
    size_t e = j + 1 < s->n ? s->idx[j + 1] : s->len;
    while (e > at + 1 && jj_skim_space(s->buf[e - 1])) e--;
    return e;
}

/* The next unescaped byte of the token, or -1 at its end. */
static inline int jj_token_byte(const jj_pointer_token *t, size_t *ti) {
    if (*ti >= t->len) return -1;
    char c = t->text[(*ti)++];
    if (c == '~' && *ti < t->len) c = t->text[(*ti)++] == '1' ? '/' : '~';
    return (unsigned char)c;
}

static int32_t jj_skim_hex4(const uint8_t *p) {
    int32_t v = 0;
    for (int k = 0; k < 4; k++) {
        uint8_t c = p[k];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v << 4 | d;
    }
    return v;
}

/* The escape at buf[*i] (a backslash) as UTF-8 in out (lone surrogates in their 3-byte
 * form, pairs joined, as stage 2 does); advances *i. The byte count, or 0 if invalid. */
static size_t jj_skim_escape(const jj_skim *s, size_t *i, uint8_t out[4]) {
    const uint8_t *b = s->buf;
    size_t at = *i;
    if (at + 1 >= s->len) return 0;
    static const char simple_from[] = "\"\\/bfnrt", simple_to[] = "\"\\/\b\f\n\r\t";
    const char *hit = b[at + 1] ? strchr(simple_from, b[at + 1]) : NULL;
    if (hit) {
        out[0] = (uint8_t)simple_to[hit - simple_from];
        *i = at + 2;
        return 1;
    }
    if (b[at + 1] != 'u' || s->len - at < 6) return 0;
    int32_t cp = jj_skim_hex4(b + at + 2);
    if (cp < 0) return 0;
    at += 6;
    if (cp >= 0xd800 && cp <= 0xdbff && s->len - at >= 6 && b[at] == '\\' && b[at + 1] == 'u') {
        int32_t low = jj_skim_hex4(b + at + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
            cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
            at += 6;
        }
    }
    *i = at;
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    return (size_t)(jj_write_utf8(out, (uint32_t)cp) - out);
}

/* Whether the key whose opening quote is at q spells the token: 1, 0, or -1 when it is
 * not a valid string. Unescaped keys are compared in place. */
static int jj_skim_key(const jj_skim *s, size_t q, const jj_pointer_token *tok) {
    size_t i = q + 1;
    if (i > s->len) return -1;
    const uint8_t *close = memchr(s->buf + i, '"', s->len - i);
    if (!close) return -1;
    size_t raw = (size_t)(close - (s->buf + i));
    if (!memchr(s->buf + i, '\\', raw)) return jj_pointer_token_equals(tok, s->buf + i, raw);
    size_t ti = 0;
    while (i < s->len && s->buf[i] != '"') {
        uint8_t out[4];
        size_t n = 1;
        if (s->buf[i] == '\\') {
            n = jj_skim_escape(s, &i, out);
            if (!n) return -1;
        } else {
            out[0] = s->buf[i++];
        }
        for (size_t k = 0; k < n; k++) {
            if (jj_token_byte(tok, &ti) != out[k]) return 0;
        }
    }
    if (i >= s->len) return -1;
    return ti == tok->len;
}

int jj_skim_locate(const jj_parser *p, const uint8_t *buf, size_t len, const char *ptr, size_t plen,
                   size_t *start, size_t *end, size_t *failed_at) {
    jj_pointer_status st = jj_pointer_check(ptr, plen, failed_at);
    if (st != JJ_PTR_OK) return st;
    jj_skim s = {p->index, p->index_len, buf, len};
    if (s.n == 0) return JJ_SKIM_MALFORMED;
    size_t i = 0, pos = 0;
    jj_pointer_token tok;
    while (jj_pointer_next(ptr, plen, &pos, &tok)) {
        uint8_t c = jj_skim_byte(&s, i);
        size_t k = i + 1;
        if (k >= s.n && (c == '{' || c == '[')) return JJ_SKIM_MALFORMED;
        if (c == '{') {
            for (;;) {
                uint8_t kc = jj_skim_byte(&s, k);
                if (kc == '}') {
                    st = JJ_PTR_NO_KEY;
                    break;
                }
                if (kc != '"' || k + 2 >= s.n || jj_skim_byte(&s, k + 1) != ':') return JJ_SKIM_MALFORMED;
                int m = jj_skim_key(&s, s.idx[k], &tok);
                if (m < 0) return JJ_SKIM_MALFORMED;
                if (m) break;
                size_t last = jj_skim_last(&s, k + 2);
                if (last == SIZE_MAX || last + 1 >= s.n) return JJ_SKIM_MALFORMED;
                uint8_t sep = jj_skim_byte(&s, last + 1);
                if (sep == '}') {
                    st = JJ_PTR_NO_KEY;
                    break;
                }
                if (sep != ',' || last + 2 >= s.n) return JJ_SKIM_MALFORMED;
                k = last + 2;
            }
            i = k + 2;
        } else if (c == '[') {
            uint64_t index = 0;
            if (!jj_pointer_token_index(&tok, &index)) st = JJ_PTR_BAD_INDEX;
            else if (jj_skim_byte(&s, k) == ']') st = JJ_PTR_OUT_OF_RANGE;
            for (uint64_t e = 0; st == JJ_PTR_OK && e < index; e++) {
                size_t last = jj_skim_last(&s, k);
                if (last == SIZE_MAX || last + 1 >= s.n) return JJ_SKIM_MALFORMED;
                uint8_t sep = jj_skim_byte(&s, last + 1);
                if (sep == ']') st = JJ_PTR_OUT_OF_RANGE;
                else if (sep != ',' || last + 2 >= s.n) return JJ_SKIM_MALFORMED;
                k = last + 2;
            }
            i = k;
        } else {
            st = JJ_PTR_NOT_CONTAINER;
        }
        if (st != JJ_PTR_OK) {
            *failed_at = pos;
            return st;
        }
    }
    size_t last = jj_skim_last(&s, i);
    if (last == SIZE_MAX) return JJ_SKIM_MALFORMED;
    *start = s.idx[i];
    *end = jj_skim_end(&s, last);
    return JJ_PTR_OK;
}
