/* Do two parses hold the same values? Shared by the C tests and the fuzz targets that
 * check a round trip (minify, indent, MessagePack) by parsing its output again. */
#ifndef JJ_TEST_TAPE_COMPARE_H
#define JJ_TEST_TAPE_COMPARE_H

#include <string.h>

#include "jetjson.h"

static inline int jj_test_tape_simple(jj_type t) {
    return t == JJ_NULL || t == JJ_TRUE || t == JJ_FALSE || t == JJ_END;
}

static inline const uint8_t *jj_test_tape_str(const jj_doc *p, const uint8_t *buf, uint64_t w) {
    return (jj_tape_str_flags(w) & JJ_STR_IN_INPUT ? buf : p->strings) + jj_tape_str_offset(w);
}

/* Strings and big ints are compared by content, not by where they live. `exact`: also
 * each entry's first word and the string's flags (how it was written: escapes...),
 * which a round trip through another format does not keep. */
static inline int jj_test_same_docs(const jj_doc *a, const uint8_t *abuf, const jj_doc *b, const uint8_t *bbuf,
                                    int exact) {
    if (a->tape_len != b->tape_len) return 0;
    for (size_t t = 0; t < a->tape_len; t += jj_test_tape_simple(jj_tape_type(a->tape[t])) ? 1 : 2) {
        uint64_t wa = a->tape[t], wb = b->tape[t];
        jj_type type = jj_tape_type(wa);
        if (type != jj_tape_type(wb)) return 0;
        if (type == JJ_STRING) {
            size_t n = jj_tape_str_bytes(a->tape[t + 1]);
            if (n != jj_tape_str_bytes(b->tape[t + 1])) return 0;
            if (exact && a->tape[t + 1] != b->tape[t + 1]) return 0;
            if (memcmp(jj_test_tape_str(a, abuf, wa), jj_test_tape_str(b, bbuf, wb), n) != 0) return 0;
        } else if (type == JJ_BIGINT) {
            size_t n = (size_t)a->tape[t + 1];
            if (n != b->tape[t + 1] || memcmp(abuf + jj_tape_payload(wa), bbuf + jj_tape_payload(wb), n) != 0) return 0;
        } else if ((exact && wa != wb) || (!jj_test_tape_simple(type) && a->tape[t + 1] != b->tape[t + 1])) {
            return 0;
        }
    }
    return 1;
}

/* The same for the last parses of two parsers. */
static inline int jj_test_same_values(const jj_parser *a, const uint8_t *abuf, const jj_parser *b,
                                      const uint8_t *bbuf, int exact) {
    return jj_test_same_docs(jj_parser_result(a), abuf, jj_parser_result(b), bbuf, exact);
}

#endif
