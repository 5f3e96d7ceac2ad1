/* RFC 6901 JSON Pointers over the tape: tokenizing, unescaping, and resolution.
 * Tokens are compared in place (no unescaped copy), so nothing here allocates. */
#include <string.h>

#include "jetjson_paths.h"
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
        if (jj_pointer_token_equals(tok, key, n)) return k + 2;
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
