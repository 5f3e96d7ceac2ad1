/* libFuzzer target for JSON Pointers: the first byte says how many of the next bytes
 * are the pointer, the rest is the document. When the document parses, resolution and
 * the edit walk must agree, every span must lie within the document, the span of a
 * value must parse alone to a value of the same type, and the document must still parse
 * after the value is replaced, deleted, or a new member/element is inserted.
 * Skimming (no tape) runs on every input, valid or not: it must stay within bounds,
 * and on valid documents find what resolution finds, at the edit walk's span. */
#include <stdlib.h>
#include <string.h>

#include "jetjson_paths.h"

/* Edits buf as the target says and parses the result. */
static int edited_parses(jj_parser *q, const uint8_t *buf, size_t len, const jj_edit_target *e, int del) {
    uint8_t *out = malloc(len + 16 + jj_edit_key_bound(e->token.len));
    if (!out) return 1;
    size_t o;
    if (del) {
        memcpy(out, buf, e->cut_start);
        memcpy(out + e->cut_start, buf + e->cut_end, len - e->cut_end);
        o = len - (e->cut_end - e->cut_start);
    } else {
        memcpy(out, buf, e->start);
        o = e->start;
        if (e->kind != JJ_EDIT_VALUE && e->needs_comma) out[o++] = ',';
        if (e->kind == JJ_EDIT_NEW_MEMBER) {
            o += jj_edit_key_literal(&e->token, out + o);
            out[o++] = ':';
        }
        memcpy(out + o, "[0]", 3);
        o += 3;
        memcpy(out + o, buf + e->end, len - e->end);
        o += len - e->end;
    }
    /* a key from a fuzzed pointer may be invalid UTF-8: then only that may fail */
    jj_error err = jj_parse(q, out, o);
    free(out);
    return err == JJ_OK || (e->kind == JJ_EDIT_NEW_MEMBER && err == JJ_ERR_UTF8);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    size_t plen = data[0] < size - 1 ? data[0] : size - 1;
    /* copies of exactly their sizes, so ASan sees any read past either end */
    char *ptr = malloc(plen ? plen : 1);
    size_t len = size - 1 - plen;
    uint8_t *buf = malloc(len ? len : 1);
    if (!ptr || !buf) abort();
    memcpy(ptr, data + 1, plen);
    memcpy(buf, data + 1 + plen, len);
    jj_parser *p;
    jj_parser *q;
    p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    q = jj_parser_new();
    if (!q) abort(); /* out of memory */
    size_t sk_start = 0, sk_end = 0, sk_fa = 0;
    int sk = JJ_SKIM_MALFORMED;
    if (jj_skim_index(p, buf, len) == JJ_OK) {
        sk = jj_skim_locate(p, buf, len, ptr, plen, &sk_start, &sk_end, &sk_fa);
        if (sk == JJ_PTR_OK && (sk_start > sk_end || sk_end > len)) abort();
        if (sk != JJ_PTR_OK && sk != JJ_SKIM_MALFORMED && sk != JJ_PTR_SYNTAX && sk_fa > plen) abort();
    }
    if (jj_parse(p, buf, len) == JJ_OK) {
        size_t found = 0, fa_r = 0, fa_e = 0;
        jj_edit_target e;
        jj_pointer_status r = jj_pointer_resolve(p, buf, 0, ptr, plen, &found, &fa_r);
        jj_pointer_status s = jj_edit_locate(p, buf, len, ptr, plen, &e, &fa_e);
        if (r == JJ_PTR_OK && found >= jj_parser_result(p)->tape_len) abort();
        if (r == JJ_PTR_OK && (s != JJ_PTR_OK || e.kind != JJ_EDIT_VALUE || e.tape != found)) abort();
        if (r != JJ_PTR_OK && s == JJ_PTR_OK && (e.kind == JJ_EDIT_VALUE || fa_r != plen)) abort();
        if (r != JJ_PTR_OK && s != JJ_PTR_OK && (r != s || fa_r != fa_e)) abort();
        if (sk != (int)r || (r != JJ_PTR_OK && sk_fa != fa_r)) abort();
        if (r == JJ_PTR_OK && (sk_start != e.start || sk_end != e.end)) abort();
        if (s == JJ_PTR_OK) {
            if (e.start > e.end || e.end > len || e.cut_start > e.start || e.end > e.cut_end || e.cut_end > len)
                abort();
            if (e.kind == JJ_EDIT_VALUE) {
                if (e.start == e.end) abort();
                if (jj_parse(q, buf + e.start, e.end - e.start) != JJ_OK) abort();
                if (jj_tape_type(jj_parser_result(q)->tape[0]) != jj_tape_type(jj_parser_result(p)->tape[e.tape])) abort();
                if (e.has_parent && !edited_parses(q, buf, len, &e, 1)) abort();
            }
            if (!edited_parses(q, buf, len, &e, 0)) abort();
        }
    }
    jj_parser_delete(p);
    jj_parser_delete(q);
    free(ptr);
    free(buf);
    return 0;
}
