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

/* Whether the key whose opening quote is at q spells the token: 1, 0, or -1 when it is
 * not a valid string. Unescaped keys are compared in place. */
static int jj_skim_key(const jj_skim *s, size_t q, const jj_pointer_token *tok) {
    size_t i = q + 1;
    if (i > s->len) return -1;
    const uint8_t *close = memchr(s->buf + i, '"', s->len - i);
    if (!close) return -1;
    size_t raw = (size_t)(close - (s->buf + i));
    if (!memchr(s->buf + i, '\\', raw)) return jj_pointer_token_equals(tok, s->buf + i, raw);
    size_t stop;
    int same = jj_pointer_token_equals_json(tok, s->buf + i, s->len - i, &stop);
    return same < 0 || stop >= s->len - i ? -1 : same; /* a bad escape, or no closing quote */
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
