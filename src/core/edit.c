/* Byte spans of pointer targets: a walk of the stage-1 index in step with the tape. */
#include <string.h>

#include "jetjson_paths.h"
#include "parser_internal.h"
#include "jetjson_write.h"

#define JJ_NONE SIZE_MAX

static inline bool jj_is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* +1 for an opening bracket, -1 for a closing one, 0 for any other token byte. */
static const int8_t jj_nesting[256] = {['{'] = 1, ['['] = 1, ['}'] = -1, [']'] = -1};

/* The last index entry of the value whose first entry is i (its closer for a container). */
static size_t jj_index_last(const jj_parser *p, const uint8_t *buf, size_t i) {
    const uint32_t *idx = p->index;
    if (jj_nesting[buf[idx[i]]] <= 0) return i;
    size_t depth = 1;
    while (depth) depth += (size_t)(ptrdiff_t)jj_nesting[buf[idx[++i]]];
    return i;
}

/* The offset just past the value whose last index entry is j. A scalar ends where the
 * next token starts, less the whitespace between them. */
static size_t jj_entry_end(const jj_parser *p, const uint8_t *buf, size_t len, size_t j) {
    const uint32_t *idx = p->index;
    size_t at = idx[j];
    if (jj_nesting[buf[at]] < 0) return at + 1;
    size_t e = j + 1 < p->index_len ? idx[j + 1] : len;
    while (e > at + 1 && jj_is_space(buf[e - 1])) e--;
    return e;
}

static inline bool jj_key_matches(const jj_parser *p, const uint8_t *buf, size_t t, const jj_pointer_token *tok) {
    uint64_t w = p->tape[t];
    const uint8_t *key = (jj_tape_str_flags(w) & JJ_STR_IN_INPUT ? buf : p->strings) + jj_tape_str_offset(w);
    return jj_pointer_token_equals(tok, key, jj_tape_str_bytes(p->tape[t + 1]));
}

/* Where the walk stands: a value (tape t, first index entry i) and how it sits in its
 * container (first entry of its member, last entry of the previous sibling). */
typedef struct jj_cursor {
    size_t t, i, first, prev_last;
    bool has_parent;
} jj_cursor;

/* An insert after the last child of the container at c (whose children end before
 * index entry `closer`). */
static void jj_insert_at_end(const jj_parser *p, const uint8_t *buf, size_t len, const jj_cursor *c, size_t closer,
                             jj_edit_target *out) {
    bool empty = closer == c->i + 1;
    out->start = out->end = empty ? p->index[c->i] + 1 : jj_entry_end(p, buf, len, closer - 1);
    out->cut_start = out->cut_end = out->start; /* nothing to delete */
    out->has_parent = true;
    out->needs_comma = !empty;
}

jj_pointer_status jj_edit_locate(const jj_parser *p, const uint8_t *buf, size_t len, const char *ptr, size_t plen,
                                 jj_edit_target *out, size_t *failed_at) {
    jj_pointer_status st = jj_pointer_check(ptr, plen, failed_at);
    if (st != JJ_PTR_OK) return st;
    const uint64_t *tape = p->tape;
    const uint32_t *idx = p->index;
    jj_cursor c = {0, 0, 0, JJ_NONE, false};
    jj_pointer_token tok;
    size_t pos = 0;
    memset(out, 0, sizeof *out);
    while (jj_pointer_next(ptr, plen, &pos, &tok)) {
        bool last = pos == plen;
        jj_type type = jj_tape_type(tape[c.t]);
        size_t kt = c.t + 2, ki = c.i + 1, prev = JJ_NONE;
        if (type == JJ_OBJECT) {
            size_t end = (size_t)jj_tape_payload(tape[c.t]);
            while (kt < end && !jj_key_matches(p, buf, kt, &tok)) {
                prev = jj_index_last(p, buf, ki + 2);
                kt = jj_tape_skip(tape, kt + 2);
                ki = prev + 2; /* past the ',' (or onto the '}') */
            }
            if (kt >= end) {
                if (!last) {
                    st = JJ_PTR_NO_KEY;
                    break;
                }
                out->kind = JJ_EDIT_NEW_MEMBER;
                out->token = tok;
                jj_insert_at_end(p, buf, len, &c, prev == JJ_NONE ? c.i + 1 : prev + 1, out);
                return JJ_PTR_OK;
            }
            c.first = ki;
            c.t = kt + 2;
            c.i = ki + 2;
        } else if (type == JJ_ARRAY) {
            uint64_t count = tape[c.t + 1], index;
            bool dash = tok.len == 1 && tok.text[0] == '-';
            if (dash || (jj_pointer_token_index(&tok, &index) && index == count)) {
                if (!last) {
                    st = dash ? JJ_PTR_BAD_INDEX : JJ_PTR_OUT_OF_RANGE;
                    break;
                }
                out->kind = JJ_EDIT_NEW_ELEMENT;
                jj_insert_at_end(p, buf, len, &c, jj_index_last(p, buf, c.i), out);
                return JJ_PTR_OK;
            }
            if (!jj_pointer_token_index(&tok, &index)) {
                st = JJ_PTR_BAD_INDEX;
                break;
            }
            if (index > count) {
                st = JJ_PTR_OUT_OF_RANGE;
                break;
            }
            for (uint64_t k = 0; k < index; k++) {
                prev = jj_index_last(p, buf, ki);
                kt = jj_tape_skip(tape, kt);
                ki = prev + 2;
            }
            c.first = ki;
            c.t = kt;
            c.i = ki;
        } else {
            st = JJ_PTR_NOT_CONTAINER;
            break;
        }
        c.prev_last = prev;
        c.has_parent = true;
    }
    if (st != JJ_PTR_OK) {
        *failed_at = pos;
        return st;
    }
    size_t vlast = jj_index_last(p, buf, c.i);
    out->kind = JJ_EDIT_VALUE;
    out->tape = c.t;
    out->has_parent = c.has_parent;
    out->start = idx[c.i];
    out->end = jj_entry_end(p, buf, len, vlast);
    out->cut_start = out->start;
    out->cut_end = out->end;
    if (c.has_parent) {
        /* the entry after the value is its container's ',' or closer */
        if (buf[idx[vlast + 1]] == ',') {
            out->cut_start = idx[c.first];
            out->cut_end = idx[vlast + 2];
        } else if (c.prev_last != JJ_NONE) {
            out->cut_start = jj_entry_end(p, buf, len, c.prev_last);
        } else {
            out->cut_start = idx[c.first];
        }
    }
    return JJ_PTR_OK;
}

size_t jj_edit_key_literal(const jj_pointer_token *tok, uint8_t *out) {
    size_t o = 0;
    out[o++] = '"';
    for (size_t i = 0; i < tok->len; i++) {
        uint8_t c = (uint8_t)tok->text[i];
        if (c == '~' && i + 1 < tok->len) c = tok->text[++i] == '1' ? '/' : '~';
        if (c == '"' || c == '\\') {
            out[o++] = '\\';
            out[o++] = c;
        } else if (c < 0x20) {
            o += (size_t)(jj_write_u_escape(out + o, c) - (out + o));
        } else {
            out[o++] = c;
        }
    }
    out[o++] = '"';
    return o;
}
