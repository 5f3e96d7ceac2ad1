/* RFC 6901 JSON Pointers over the tape: tokenizing, unescaping, and resolution.
 * Tokens are compared in place (no unescaped copy), so nothing here allocates. */
#include <string.h>

#include "jetjson_paths.h"
#include "jetjson_write.h"
#include "parser_internal.h"

jj_pointer_status jj_pointer_check(const char *ptr, size_t len, size_t *bad_at) {
    if (len == 0) return JJ_PTR_OK;
    if (ptr[0] != '/') {
        *bad_at = 0;
        return JJ_PTR_SYNTAX;
    }
    for (size_t i = 1; i < len; i++) {
        if (ptr[i] != '~') continue;
        if (i + 1 >= len || (ptr[i + 1] != '0' && ptr[i + 1] != '1')) {
            *bad_at = i;
            return JJ_PTR_SYNTAX;
        }
        i++;
    }
    return JJ_PTR_OK;
}

bool jj_pointer_next(const char *ptr, size_t len, size_t *pos, jj_pointer_token *tok) {
    size_t i = *pos;
    if (i >= len) return false;
    i++; /* the '/' */
    const char *start = ptr + i;
    const char *slash = memchr(start, '/', len - i);
    size_t n = slash ? (size_t)(slash - start) : len - i;
    tok->text = start;
    tok->len = n;
    tok->escaped = memchr(start, '~', n) != NULL;
    *pos = i + n;
    return true;
}

size_t jj_pointer_token_unescape(const jj_pointer_token *tok, uint8_t *out) {
    size_t o = 0;
    for (size_t i = 0; i < tok->len; i++) {
        char c = tok->text[i];
        if (c == '~' && i + 1 < tok->len) {
            c = tok->text[++i] == '1' ? '/' : '~';
        }
        out[o++] = (uint8_t)c;
    }
    return o;
}

bool jj_pointer_token_equals(const jj_pointer_token *tok, const uint8_t *key, size_t key_len) {
    if (!tok->escaped) return tok->len == key_len && (key_len == 0 || memcmp(tok->text, key, key_len) == 0);
    /* each escape is two bytes for one: the unescaped length is known only by walking */
    if (key_len > tok->len) return false;
    size_t k = 0;
    for (size_t i = 0; i < tok->len; i++, k++) {
        char c = tok->text[i];
        if (c == '~' && i + 1 < tok->len) c = tok->text[++i] == '1' ? '/' : '~';
        if (k >= key_len || key[k] != (uint8_t)c) return false;
    }
    return k == key_len;
}

/* The next unescaped byte of the token, or -1 at its end. */
static inline int jj_token_byte(const jj_pointer_token *t, size_t *ti) {
    if (*ti >= t->len) return -1;
    char c = t->text[(*ti)++];
    if (c == '~' && *ti < t->len) c = t->text[(*ti)++] == '1' ? '/' : '~';
    return (unsigned char)c;
}

static int32_t jj_hex4_value(const uint8_t *p) {
    int32_t v = 0;
    for (int k = 0; k < 4; k++) {
        uint8_t c = p[k];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) return -1;
        v = v << 4 | d;
    }
    return v;
}

/* The escape at raw[*i] (a backslash) as UTF-8 in out (lone surrogates in their 3-byte
 * form, pairs joined, as stage 2 does); advances *i. The byte count, or 0 if invalid. */
static size_t jj_escape_utf8(const uint8_t *raw, size_t len, size_t *i, uint8_t out[4]) {
    size_t at = *i;
    if (at + 1 >= len) return 0;
    static const char simple_from[] = "\"\\/bfnrt", simple_to[] = "\"\\/\b\f\n\r\t";
    const char *hit = raw[at + 1] ? strchr(simple_from, raw[at + 1]) : NULL;
    if (hit) {
        out[0] = (uint8_t)simple_to[hit - simple_from];
        *i = at + 2;
        return 1;
    }
    if (raw[at + 1] != 'u' || len - at < 6) return 0;
    int32_t cp = jj_hex4_value(raw + at + 2);
    if (cp < 0) return 0;
    at += 6;
    if (cp >= 0xd800 && cp <= 0xdbff && len - at >= 6 && raw[at] == '\\' && raw[at + 1] == 'u') {
        int32_t low = jj_hex4_value(raw + at + 2);
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

int jj_pointer_token_equals_json(const jj_pointer_token *tok, const uint8_t *raw, size_t len, size_t *stop) {
    size_t i = 0, ti = 0;
    int same = 1;
    while (i < len && raw[i] != '"') {
        uint8_t out[4];
        size_t n = 1;
        if (raw[i] == '\\') {
            n = jj_escape_utf8(raw, len, &i, out);
            if (!n) return -1;
        } else {
            out[0] = raw[i++];
        }
        for (size_t k = 0; k < n && same; k++) same = jj_token_byte(tok, &ti) == out[k];
        if (!same && !stop) return 0;
    }
    if (stop) *stop = i;
    return same && ti == tok->len;
}

bool jj_pointer_token_index(const jj_pointer_token *tok, uint64_t *index) {
    if (tok->len == 0 || (tok->text[0] == '0' && tok->len > 1)) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < tok->len; i++) {
        unsigned d = (unsigned)(unsigned char)tok->text[i] - '0';
        if (d > 9) return false;
        /* an index too large for 64 bits is still an index: it saturates (out of range) */
        if (v > (UINT64_MAX - d) / 10) v = UINT64_MAX;
        else v = v * 10 + d;
    }
    *index = v;
    return true;
}

/* The member value for tok in the object at t, or 0 (never a value's index) when absent. */
static size_t jj_object_find(const jj_parser *p, const uint8_t *input, size_t t, const jj_pointer_token *tok) {
    const uint64_t *tape = p->tape;
    size_t end = (size_t)jj_tape_payload(tape[t]);
    size_t k = t + 2;
    while (k < end) {
        uint64_t w = tape[k];
        size_t n = jj_tape_str_bytes(tape[k + 1]);
        const uint8_t *key = (jj_tape_str_flags(w) & JJ_STR_IN_INPUT ? input : p->strings) + jj_tape_str_offset(w);
        /* a lazy tape's key still written with its escapes (jj_parse_lazy) */
        int as_written = (jj_tape_str_flags(w) & (JJ_STR_RAW | JJ_STR_ESCAPED)) == (JJ_STR_RAW | JJ_STR_ESCAPED);
        if (as_written ? jj_pointer_token_equals_json(tok, key, n, NULL) == 1 : jj_pointer_token_equals(tok, key, n))
            return k + 2;
        k = jj_tape_skip(tape, k + 2);
    }
    return 0;
}

jj_pointer_status jj_pointer_resolve(const jj_parser *p, const uint8_t *input, size_t start, const char *ptr,
                                     size_t len, size_t *found, size_t *failed_at) {
    jj_pointer_status st = jj_pointer_check(ptr, len, failed_at);
    if (st != JJ_PTR_OK) return st;
    const uint64_t *tape = p->tape;
    size_t t = start, pos = 0;
    jj_pointer_token tok;
    while (jj_pointer_next(ptr, len, &pos, &tok)) {
        uint64_t w = tape[t];
        jj_type type = jj_tape_type(w);
        if (type == JJ_OBJECT) {
            size_t v = jj_object_find(p, input, t, &tok);
            if (!v) st = JJ_PTR_NO_KEY;
            t = v;
        } else if (type == JJ_ARRAY) {
            uint64_t index;
            if (!jj_pointer_token_index(&tok, &index)) {
                st = JJ_PTR_BAD_INDEX;
            } else if (index >= tape[t + 1]) {
                st = JJ_PTR_OUT_OF_RANGE;
            } else {
                t += 2;
                for (uint64_t i = 0; i < index; i++) t = jj_tape_skip(tape, t);
            }
        } else {
            st = JJ_PTR_NOT_CONTAINER;
        }
        if (st != JJ_PTR_OK) {
            *failed_at = pos;
            return st;
        }
    }
    *found = t;
    return JJ_PTR_OK;
}
