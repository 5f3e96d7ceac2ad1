/* libFuzzer target for the text tools. On every kernel set this machine has:
 * jj_validate gives jj_parse's verdict (same error code, same depth), and jj_minify
 * gives the same bytes, length and error as the scalar kernel. For a valid input, the
 * minified text and the indented text parse to the same values, and minifying the
 * indented text gives the minified text back. jj_validate_lines agrees with jj_parse
 * of each line. */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "jetjson.h"
#include "../tests/c/tape_compare.h"

static void check_valid_document(jj_parser *ref, const uint8_t *buf, size_t size, const uint8_t *mini, size_t mini_len) {
    jj_parser p;
    jj_parser_init(&p);
    if (jj_parse(&p, mini, mini_len) != JJ_OK || !jj_test_same_values(ref, buf, &p, mini, 1)) abort();
    size_t ind_len = jj_indent_size(ref, buf, size, 2);
    uint8_t *ind = malloc(ind_len + JJ_INDENT_SLACK);
    uint8_t *back = malloc(ind_len ? ind_len : 1);
    if (ind && back) {
        if (jj_indent_write(ref, buf, size, (const uint8_t *)"\t ", 2, ind) != ind_len ||
            ind_len > jj_indent_bound(ref, size, 2, ref->max_depth))
            abort();
        size_t back_len = 0, off = 0;
        if (jj_parse(&p, ind, ind_len) != JJ_OK || !jj_test_same_values(ref, buf, &p, ind, 1)) abort();
        if (jj_minify(ind, ind_len, back, &back_len, &off) != JJ_OK || back_len != mini_len ||
            memcmp(back, mini, mini_len) != 0)
            abort();
    }
    free(ind);
    free(back);
    jj_parser_free(&p);
}

/* jj_validate_lines on every kernel: OK, with the line count, exactly when every
 * '\n'-ended line (and a non-empty last one) parses on its own. */
static void check_lines(const jj_kernels *const *kernels, const uint8_t *buf, size_t size) {
    jj_parser ref, p;
    jj_parser_init(&ref);
    jj_parser_init(&p);
    int all_ok = size > 0;
    size_t want_lines = 0;
    for (size_t start = 0; start < size && all_ok; want_lines++) {
        const uint8_t *nl = memchr(buf + start, '\n', size - start);
        size_t stop = nl ? (size_t)(nl - buf) + 1 : size;
        all_ok = jj_parse_with(&ref, kernels[0], buf + start, stop - start) == JJ_OK;
        start = stop;
    }
    for (size_t k = 0; kernels[k]; k++) {
        jj_valid_facts facts;
        size_t lines = 0;
        jj_error v = jj_validate_lines_with(&p, kernels[k], buf, size, &facts, &lines);
        if ((v == JJ_OK) != all_ok || (all_ok && lines != want_lines)) abort();
    }
    jj_parser_free(&ref);
    jj_parser_free(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* copies of exactly `size` bytes, so ASan sees any access past the end */
    uint8_t *buf = malloc(size ? size : 1);
    uint8_t *want = malloc(size ? size : 1);
    uint8_t *got = malloc(size ? size : 1);
    if (!buf || !want || !got) goto out;
    memcpy(buf, data, size);
    const jj_kernels *const *kernels = jj_kernels_all();
    jj_parser ref, p;
    jj_parser_init(&ref);
    jj_parser_init(&p);
    jj_error parsed = jj_parse_with(&ref, kernels[0], buf, size);
    size_t want_len = 0, want_off = 0;
    jj_error want_err = jj_minify_with(kernels[0], buf, size, want, &want_len, &want_off);
    for (size_t k = 0; kernels[k]; k++) {
        jj_valid_facts facts;
        jj_error v = jj_validate_with(&p, kernels[k], buf, size, &facts);
        if (v != parsed || (v == JJ_OK && facts.max_depth != ref.max_depth)) abort();
        size_t got_len = 0, got_off = 0;
        jj_error e = jj_minify_with(kernels[k], buf, size, got, &got_len, &got_off);
        if (e != want_err || got_len != want_len || memcmp(got, want, want_len) != 0 ||
            (e != JJ_OK && got_off != want_off))
            abort();
    }
    check_lines(kernels, buf, size);
    if (parsed == JJ_OK) {
        if (want_err != JJ_OK) abort(); /* a valid document has no open string */
        check_valid_document(&ref, buf, size, want, want_len);
    }
    jj_parser_free(&ref);
    jj_parser_free(&p);
out:
    free(buf);
    free(want);
    free(got);
    return 0;
}
