/* libFuzzer target for the text tools. On every kernel set this machine has:
 * jj_validate gives jj_parse's verdict (same error code, same depth), and jj_minify
 * gives the same bytes, length and error as the scalar kernel. For a valid input, the
 * minified text and the indented text parse to the same values, and minifying the
 * indented text gives the minified text back. */
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
