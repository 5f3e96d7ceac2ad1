/* The lazy parse (jj_parse_lazy): the lazy stage 1 and stage 2 of a kernel set, with
 * jj_parse as the judge of every refused input, and the finishing of raw entries. */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

static jj_error jj_lazy_nomem(jj_parser *p) {
    p->error = JJ_ERR_NOMEM;
    p->error_offset = 0;
    p->tape_len = 0;
    return JJ_ERR_NOMEM;
}

jj_error jj_parse_lazy_with(jj_parser *p, const jj_kernels *k, const uint8_t *buf, size_t len) {
    if (len >= JJ_LAZY_MAX_LEN - JJ_INDEX_SLACK) return jj_parse_with(p, k, buf, len);
    p->tape_len = 0;
    p->max_depth = 0;
    p->strings_len = 0;
    if (!jj_buffer_reserve_empty((void **)&p->index, &p->index_cap, len + JJ_INDEX_SLACK, sizeof *p->index))
        return jj_lazy_nomem(p);
    jj_error err = JJ_OK;
    size_t err_off = 0;
    p->index_len = k->stage1_lazy(buf, len, p->index, &err, &err_off);
    if (err) return jj_parse_with(p, k, buf, len); /* for jj_parse's own error and offset */
    size_t n = p->index_len;
    p->index[n] = (uint32_t)len; /* for stage2_lazy: the end of the last entry */
    jj_tape_own(p);
    if (!jj_buffer_reserve_empty((void **)&p->tape, &p->tape_cap, 2 * n + 2, sizeof *p->tape) ||
        !jj_buffer_reserve_empty((void **)&p->stack, &p->stack_cap, 2 * n + 2, sizeof *p->stack))
        return jj_lazy_nomem(p);
    err = k->stage2_lazy(p, buf, len);
    if (err) return jj_parse_with(p, k, buf, len);
    p->error = JJ_OK;
    return JJ_OK;
}

jj_error jj_parse_lazy(jj_parser *p, const uint8_t *buf, size_t len) {
    return jj_parse_lazy_with(p, jj_kernels_active(), buf, len);
}

jj_error jj_lazy_finish(jj_parser *p, const uint8_t *buf, size_t len, size_t t) {
    uint64_t *w = p->tape + t;
    jj_type type = jj_tape_type(w[0]);
    if (type == JJ_RAW_NUMBER) return jj_kernels_active()->finish_number(buf, len, w);
    if (type != JJ_STRING || !(jj_tape_str_flags(w[0]) & JJ_STR_RAW)) return JJ_OK;
    if (jj_tape_str_flags(w[0]) & JJ_STR_ESCAPED) {
        size_t need = p->strings_len + jj_tape_str_bytes(w[1]) + JJ_STRING_SLACK;
        if (need < p->strings_len || !jj_buffer_reserve((void **)&p->strings, &p->strings_cap, need, 1))
            return JJ_ERR_NOMEM;
    }
    return jj_kernels_active()->finish_string(p, buf, len, w);
}

jj_error jj_lazy_finish_range(jj_parser *p, const uint8_t *buf, size_t len, size_t from, size_t to) {
    for (size_t t = from; t < to;) {
        switch (jj_tape_type(p->tape[t])) {
        case JJ_NULL:
        case JJ_TRUE:
        case JJ_FALSE:
        case JJ_END: t += 1; break;
        case JJ_STRING:
        case JJ_RAW_NUMBER: {
            jj_error err = jj_lazy_finish(p, buf, len, t);
            if (err) return err;
            t += 2;
            break;
        }
        default: t += 2; break; /* numbers done, and containers: their contents follow */
        }
    }
    return JJ_OK;
}
