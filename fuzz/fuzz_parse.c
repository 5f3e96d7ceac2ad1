/* libFuzzer target: parses the input with every kernel set this machine has and
 * demands the same result from each (same error code, identical tapes and strings), and
 * the same from the lazy parse of each (same error code and offset; once its raw
 * entries are finished, the same tape and strings). */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "jetjson.h"

static int same_result(const jj_parser *a, jj_error ea, const jj_parser *b, jj_error eb) {
    if (ea != eb) return 0;
    if (ea != JJ_OK) return 1;
    if (a->tape_len != b->tape_len || a->max_depth != b->max_depth) return 0;
    if (memcmp(a->tape, b->tape, a->tape_len * sizeof *a->tape) != 0) return 0;
    return a->strings_len == b->strings_len &&
           (a->strings_len == 0 || memcmp(a->strings, b->strings, a->strings_len) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* a copy of exactly `size` bytes, so ASan sees any read past the end */
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) return 0;
    memcpy(buf, data, size);
    const jj_kernels *const *kernels = jj_kernels_all();
    jj_parser ref;
    jj_parser_init(&ref);
    jj_error want = jj_parse_with(&ref, kernels[0], buf, size);
    for (size_t k = 0; kernels[k]; k++) {
        jj_parser p;
        jj_parser_init(&p);
        jj_error got = jj_parse_lazy_with(&p, kernels[k], buf, size);
        if (got != want || (got != JJ_OK && p.error_offset != ref.error_offset)) abort();
        if (got == JJ_OK) {
            /* a raw string where jj_parse has a string, a raw number where it has a number */
            for (size_t t = 0; t < p.tape_len; t++) {
                if (!jj_tape_is_raw(p.tape, t)) continue;
                jj_type full = jj_tape_type(ref.tape[t]);
                if (jj_tape_type(p.tape[t]) == JJ_STRING ? full != JJ_STRING
                                                         : full == JJ_STRING || full < JJ_INT64 || full > JJ_BIGINT)
                    abort();
            }
            if (jj_lazy_finish_range(&p, buf, size, 0, p.tape_len) != JJ_OK) abort();
            if (!same_result(&ref, want, &p, got)) abort();
        }
        jj_parser_free(&p);
    }
    for (size_t k = 1; kernels[k]; k++) {
        jj_parser p;
        jj_parser_init(&p);
        jj_error got = jj_parse_with(&p, kernels[k], buf, size);
        if (!same_result(&ref, want, &p, got)) abort();
        jj_parser_free(&p);
    }
    jj_parser_free(&ref);
    free(buf);
    return 0;
}
