/* libFuzzer target for jj_partial_complete: any input is answered without a fault, and
 * for an input that parses, every sampled prefix is never called malformed and its
 * completion parses (bad UTF-8 or a lone surrogate kept by keep_string aside). */
#include <stdlib.h>
#include <string.h>

#include "jetjson.h"
#include "jetjson_partial.h"

static jj_partial_kind run(const uint8_t *data, size_t len, int keep, jj_parser *check) {
    jj_sink s;
    if (jj_sink_init_malloc(&s, 64)) abort();
    jj_partial_kind kind = jj_partial_complete(data, len, keep, &s);
    size_t out_len = 0;
    if (jj_sink_finish(&s, &out_len)) abort();
    if (kind == JJ_PARTIAL_COMPLETED) {
        /* a prefix of the input, then at most a quote and one closer per byte read */
        if (out_len > 2 * len + 2) abort();
        if (check) {
            jj_error err = jj_parse(check, s.start, out_len);
            if (err != JJ_OK && err != JJ_ERR_UTF8 && err != JJ_ERR_ESCAPE) abort();
        }
    } else if (out_len != 0) {
        abort();
    }
    jj_sink_free_malloc(&s);
    return kind;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    jj_parser *p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    run(data, size, 0, NULL);
    run(data, size, 1, NULL);
    if (jj_parse(p, data, size) == JJ_OK) {
        jj_parser *q = jj_parser_new();
        if (!q) abort(); /* out of memory */
        size_t step = size / 16 + 1;
        for (size_t cut = 0; cut <= size; cut += step) {
            for (int keep = 0; keep < 2; keep++) {
                jj_partial_kind kind = run(data, cut, keep, q);
                if (kind == JJ_PARTIAL_MALFORMED || kind == JJ_PARTIAL_NOMEM) abort();
            }
        }
        jj_parser_delete(q);
    }
    jj_parser_delete(p);
    return 0;
}
