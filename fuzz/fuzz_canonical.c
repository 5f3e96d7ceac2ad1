/* libFuzzer target for the canonical writer (jetjson_canonical.h, RFC 8785).
 *
 * JSON text in, canonical bytes out. For every input:
 *   - jj_canonicalize refuses text jj_parse refuses (JJ_CANON_PARSE), and otherwise gives
 *     what jj_canonical_write gives on jj_parse's tape;
 * and when the writer succeeds:
 *   - the output is a fixed point: canonicalizing it gives the same bytes back;
 *   - it has no whitespace between tokens (minifying it changes nothing);
 *   - it parses to the input's values: the same members in each object (in any order;
 *     the writer sorts them), the same strings, the same numbers as doubles (JCS writes
 *     every number as the double it stands for). */
#include <stdlib.h>
#include <string.h>

#include "jetjson.h"
#include "jetjson_canonical.h"

static jj_parser *g_in;
static jj_parser *g_out;
static jj_parser *g_again;
static int g_ready;

static const uint8_t *string_bytes(const jj_doc *p, const uint8_t *input, size_t t, size_t *len) {
    uint64_t w = p->tape[t];
    *len = jj_tape_str_bytes(p->tape[t + 1]);
    return (jj_tape_str_flags(w) & JJ_STR_IN_INPUT ? input : p->strings) + jj_tape_str_offset(w);
}

/* The double a number entry stands for; 0 when the entry is not a number. */
static int number_value(const jj_doc *p, const uint8_t *input, size_t t, double *v) {
    uint64_t w = p->tape[t], w1 = p->tape[t + 1];
    switch (jj_tape_type(w)) {
    case JJ_INT64: *v = (double)(int64_t)w1; return 1;
    case JJ_UINT64: *v = (double)w1; return 1;
    case JJ_DOUBLE: memcpy(v, &w1, sizeof *v); return 1;
    case JJ_BIGINT: {
        char text[JJ_CANON_INT_TEXT_MAX + 1];
        size_t n = (size_t)w1;
        if (n > JJ_CANON_INT_TEXT_MAX) return 0; /* the writer refuses longer ones */
        memcpy(text, input + jj_tape_payload(w), n);
        text[n] = '\0';
        *v = strtod(text, NULL);
        return 1;
    }
    default: return 0;
    }
}

/* The value at a->tape[ta] (text ain) equals the one at b->tape[tb] (text bin). */
static int same_value(const jj_doc *a, const uint8_t *ain, size_t ta, const jj_doc *b, const uint8_t *bin,
                      size_t tb) {
    jj_type x = jj_tape_type(a->tape[ta]), y = jj_tape_type(b->tape[tb]);
    double u, v;
    if (number_value(a, ain, ta, &u)) return number_value(b, bin, tb, &v) && u == v; /* -0 == 0 */
    if (x != y) return 0;
    switch (x) {
    case JJ_NULL:
    case JJ_TRUE:
    case JJ_FALSE: return 1;
    case JJ_STRING: {
        size_t m, n;
        const uint8_t *s = string_bytes(a, ain, ta, &m), *t = string_bytes(b, bin, tb, &n);
        return m == n && (m == 0 || memcmp(s, t, m) == 0);
    }
    case JJ_ARRAY: {
        if (a->tape[ta + 1] != b->tape[tb + 1]) return 0;
        size_t i = ta + 2, j = tb + 2;
        for (uint64_t k = 0; k < a->tape[ta + 1]; k++) {
            if (!same_value(a, ain, i, b, bin, j)) return 0;
            i = jj_tape_skip(a->tape, i);
            j = jj_tape_skip(b->tape, j);
        }
        return 1;
    }
    case JJ_OBJECT: {
        /* the keys are distinct (the writer refuses duplicates): each of a's members has
         * its one match in b, found by a search (inputs are small) */
        if (a->tape[ta + 1] != b->tape[tb + 1]) return 0;
        size_t i = ta + 2;
        for (uint64_t k = 0; k < a->tape[ta + 1]; k++) {
            size_t klen, found = 0;
            const uint8_t *key = string_bytes(a, ain, i, &klen);
            size_t j = tb + 2;
            for (uint64_t l = 0; l < b->tape[tb + 1] && !found; l++) {
                size_t jlen;
                const uint8_t *other = string_bytes(b, bin, j, &jlen);
                if (jlen == klen && (klen == 0 || memcmp(key, other, klen) == 0)) found = j + 2;
                j = jj_tape_skip(b->tape, j + 2);
            }
            if (!found || !same_value(a, ain, i + 2, b, bin, found)) return 0;
            i = jj_tape_skip(a->tape, i + 2);
        }
        return 1;
    }
    default: return 0;
    }
}

static void check_output(const uint8_t *in, const uint8_t *out, size_t out_len) {
    /* a copy of exactly out_len bytes, so ASan sees any read past the end */
    uint8_t *text = malloc(out_len ? out_len : 1);
    uint8_t *mini = malloc(out_len ? out_len : 1);
    jj_sink again;
    if (!text || !mini || jj_sink_init_malloc(&again, 64)) abort();
    memcpy(text, out, out_len);
    if (jj_parse(g_out, text, out_len) != JJ_OK) abort();
    if (!same_value(jj_parser_result(g_in), in, 0, jj_parser_result(g_out), text, 0)) abort();
    size_t fault = 0, again_len = 0, mini_len = 0, off = 0;
    if (jj_canonicalize(g_again, text, out_len, &again, &fault) != JJ_CANON_OK) abort();
    if (jj_sink_finish(&again, &again_len) != 0) abort();
    if (again_len != out_len || memcmp(again.start, text, out_len) != 0) abort();
    if (jj_minify(text, out_len, mini, &mini_len, &off) != JJ_OK || mini_len != out_len ||
        memcmp(mini, text, out_len) != 0)
        abort();
    jj_sink_free_malloc(&again);
    free(mini);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!g_ready) {
        g_in = jj_parser_new();
        if (!g_in) abort(); /* out of memory */
        g_out = jj_parser_new();
        if (!g_out) abort(); /* out of memory */
        g_again = jj_parser_new();
        if (!g_again) abort(); /* out of memory */
        g_ready = 1;
    }
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) return 0;
    memcpy(buf, data, size);
    jj_sink whole, written;
    if (jj_sink_init_malloc(&whole, 64) || jj_sink_init_malloc(&written, 64)) abort();
    size_t fault_whole = 0, fault_written = 0;
    jj_canon_status st = jj_canonicalize(g_again, buf, size, &whole, &fault_whole);
    if (jj_parse(g_in, buf, size) != JJ_OK) {
        if (st != JJ_CANON_PARSE) abort();
    } else {
        jj_canon_status st2 = jj_canonical_write(g_in, buf, &written, &fault_written);
        if (st2 == JJ_CANON_NOMEM) abort(); /* nothing here is big enough to fail honestly */
        if (st != st2 || (st != JJ_CANON_OK && fault_whole != fault_written)) abort();
        size_t a = jj_sink_len(&whole), b = jj_sink_len(&written);
        if (st == JJ_CANON_OK) {
            if (a != b || (a && memcmp(whole.start, written.start, a) != 0)) abort();
            check_output(buf, written.start, b);
        }
    }
    jj_sink_free_malloc(&whole);
    jj_sink_free_malloc(&written);
    free(buf);
    return 0;
}
