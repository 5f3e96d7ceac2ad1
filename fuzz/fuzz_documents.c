/* libFuzzer target for json's error verdict and for many documents in one buffer.
 *
 * jj_json_explain must agree with jj_parse on every input: it accepts exactly what
 * the engine accepts (with no depth or digit limit, the grammars are the same), and
 * the offset it reports lies within the input. jj_many_next must give, document by
 * document, what jj_parse gives for each document's bytes alone, and its documents
 * must cover the input in order; with JJ_MANY_MORE_INPUT the same documents come out
 * until the first one it calls incomplete. */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "jetjson.h"

static void check_verdict(jj_parser *p, const uint8_t *buf, size_t size) {
    jj_error err = jj_parse(p, buf, size);
    if (err == JJ_ERR_NOMEM || err == JJ_ERR_TOO_LARGE || err == JJ_ERR_UTF8) return;
    jj_json_rules rules = {false, SIZE_MAX, 0};
    jj_json_verdict v = jj_json_explain(buf, size, &rules);
    if (v.error == JJ_JSON_NOMEM) return;
    if ((err == JJ_OK) != (v.error == JJ_JSON_ACCEPTED)) abort();
    if (v.error != JJ_JSON_ACCEPTED && v.offset > size) abort();
    rules.trailing_comma_messages = true; /* 3.13's wording may change the words, not the verdict */
    jj_json_verdict v13 = jj_json_explain(buf, size, &rules);
    if ((v13.error == JJ_JSON_ACCEPTED) != (v.error == JJ_JSON_ACCEPTED)) abort();
}

static void check_many(jj_parser *p, const uint8_t *buf, size_t size, unsigned flags) {
    jj_parser alone;
    jj_parser_init(&alone);
    jj_many m;
    if (jj_many_start(&m, p, buf, size, flags) != JJ_OK) return;
    size_t before = 0, start, end;
    for (int docs = 0; docs < 1000; docs++) {
        jj_error err = jj_many_next(&m, &start, &end);
        if (err == JJ_ERR_EMPTY || err == JJ_ERR_INCOMPLETE || err == JJ_ERR_NOMEM) break;
        if (start < before || end > size || start > end) abort();
        before = start;
        if (err != JJ_OK) continue; /* a malformed document: the next one follows */
        /* alone, the same bytes parse to the same tape (offsets moved by `start`) */
        uint8_t *copy = malloc(end - start + 1);
        if (!copy) break;
        memcpy(copy, buf + start, end - start);
        if (jj_parse(&alone, copy, end - start) != JJ_OK || alone.tape_len != p->tape_len) abort();
        for (size_t t = 0; t < p->tape_len;) {
            uint64_t a = p->tape[t], b = alone.tape[t];
            jj_type type = jj_tape_type(a);
            int one_word = type == JJ_NULL || type == JJ_TRUE || type == JJ_FALSE || type == JJ_END;
            if (type != jj_tape_type(b)) abort();
            if (type == JJ_STRING) {
                const uint8_t *sa = (jj_tape_str_flags(a) & JJ_STR_IN_INPUT ? buf : p->strings) + jj_tape_str_offset(a);
                const uint8_t *sb = (jj_tape_str_flags(b) & JJ_STR_IN_INPUT ? copy : alone.strings) + jj_tape_str_offset(b);
                if (memcmp(sa, sb, jj_tape_str_bytes(p->tape[t + 1])) != 0) abort();
            } else if (type == JJ_BIGINT) {
                if (memcmp(buf + jj_tape_payload(a), copy + jj_tape_payload(b), (size_t)p->tape[t + 1]) != 0) abort();
            } else if (a != b) { /* containers: the same END index; numbers and literals */
                abort();
            }
            if (!one_word && p->tape[t + 1] != alone.tape[t + 1]) abort(); /* values, counts, lengths */
            t += one_word ? 1 : 2;
        }
        free(copy);
    }
    jj_parser_free(&alone);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint8_t *buf = malloc(size ? size : 1); /* exact size, so ASan sees any over-read */
    if (!buf) return 0;
    memcpy(buf, data, size);
    jj_parser p;
    jj_parser_init(&p);
    check_verdict(&p, buf, size);
    check_many(&p, buf, size, 0);
    check_many(&p, buf, size, JJ_MANY_MORE_INPUT);
    jj_parser_free(&p);
    free(buf);
    return 0;
}
