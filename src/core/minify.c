/* Minify: the kernel drops the whitespace outside strings; this file adds the error
 * report (where the unterminated string starts) and the kernel choice. */
#include "engine_internal.h"

/* Offset of the opening quote of the string still open at the end of buf. Error path
 * only: a plain scan that tracks strings and escapes the way the kernel does. */
static size_t jj_last_open_quote(const uint8_t *buf, size_t len) {
    size_t open = 0;
    int in_string = 0;
    for (size_t i = 0; i < len; i++) {
        uint8_t c = buf[i];
        if (c == '\\') {
            i++; /* the escaped byte, whatever it is (in or out of strings, as stage 1) */
        } else if (c == '"') {
            in_string = !in_string;
            if (in_string) open = i;
        }
    }
    return open;
}

jj_error jj_minify_with(const jj_kernels *k, const uint8_t *in, size_t len, uint8_t *out,
                        size_t *out_len, size_t *err_off) {
    int unterminated = 0;
    *out_len = k->minify(in, len, out, &unterminated);
    if (unterminated) {
        *err_off = jj_last_open_quote(in, len);
        return JJ_ERR_UNCLOSED_STRING;
    }
    return JJ_OK;
}

jj_error jj_minify(const uint8_t *in, size_t len, uint8_t *out, size_t *out_len, size_t *err_off) {
    return jj_minify_with(jj_kernels_active(), in, len, out, out_len, err_off);
}
