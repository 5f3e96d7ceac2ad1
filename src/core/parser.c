/* The parser driver: owns the buffers, runs stage 1 then stage 2. */
#include <stdlib.h>
#include <string.h>

#include "kernel_internal.h"


void jj_parser_init(jj_parser *p) { memset(p, 0, sizeof *p); }

void jj_parser_free(jj_parser *p) {
    free(p->index);
    free(p->tape);
    free(p->strings);
    free(p->stack);
    jj_parser_init(p);
}

size_t jj_parser_capacity(const jj_parser *p) {
    return p->index_cap * sizeof *p->index + p->tape_cap * sizeof *p->tape +
           p->strings_cap + p->stack_cap * sizeof *p->stack;
}

int jj_buffer_reserve(void **buf, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 1;
    size_t grown = *cap + *cap / 2;
    if (grown < need) grown = need;
    if (grown > SIZE_MAX / size) return 0;
    void *fresh = realloc(*buf, grown * size);
    if (!fresh) return 0;
    *buf = fresh;
    *cap = grown;
    return 1;
}

static jj_error jj_fail(jj_parser *p, jj_error err, size_t offset) {
    p->error = err;
    p->error_offset = offset;
    p->tape_len = 0;
    return err;
}

/* Stage 1 into p->index (parse and validate share it). */
static jj_error jj_index(jj_parser *p, const jj_kernels *k, const uint8_t *buf, size_t len) {
    p->tape_len = 0;
    p->max_depth = 0;
    if (len >= (size_t)UINT32_MAX - JJ_INDEX_SLACK) return jj_fail(p, JJ_ERR_TOO_LARGE, 0);
    if (!jj_buffer_reserve((void **)&p->index, &p->index_cap, len + JJ_INDEX_SLACK, sizeof *p->index))
        return jj_fail(p, JJ_ERR_NOMEM, 0);
    jj_error err = JJ_OK;
    size_t err_off = 0;
    p->index_len = k->stage1(buf, len, p->index, &err, &err_off);
    return err ? jj_fail(p, err, err_off) : JJ_OK;
}

jj_error jj_parse_with(jj_parser *p, const jj_kernels *k, const uint8_t *buf, size_t len) {
    jj_error err = jj_index(p, k, buf, len);
    if (err) return err;
    size_t n = p->index_len;

    if (!jj_buffer_reserve((void **)&p->tape, &p->tape_cap, 2 * n + 2, sizeof *p->tape) ||
        !jj_buffer_reserve((void **)&p->stack, &p->stack_cap, n + 1, sizeof *p->stack) ||
        !jj_buffer_reserve((void **)&p->strings, &p->strings_cap, len + JJ_STRING_SLACK, 1))
        return jj_fail(p, JJ_ERR_NOMEM, 0);

    err = k->stage2(p, buf, len);
    p->error = err;
    return err;
}

jj_error jj_parse(jj_parser *p, const uint8_t *buf, size_t len) {
    return jj_parse_with(p, jj_kernels_active(), buf, len);
}

jj_error jj_validate_with(jj_parser *p, const jj_kernels *k, const uint8_t *buf, size_t len,
                          jj_valid_facts *facts) {
    facts->max_depth = facts->max_int_digits = 0;
    jj_error err = jj_index(p, k, buf, len);
    if (err) return err;
    if (!jj_buffer_reserve((void **)&p->stack, &p->stack_cap, p->index_len + 1, sizeof *p->stack))
        return jj_fail(p, JJ_ERR_NOMEM, 0);
    err = k->validate(p, buf, len, facts);
    p->error = err;
    if (err == JJ_OK) p->max_depth = facts->max_depth;
    return err;
}

jj_error jj_validate(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts) {
    return jj_validate_with(p, jj_kernels_active(), buf, len, facts);
}

bool jj_valid(jj_parser *p, const uint8_t *buf, size_t len) {
    jj_valid_facts facts;
    return jj_validate(p, buf, len, &facts) == JJ_OK;
}
