/* The parser's insides: what jetjson.h keeps opaque. The engine (src/core, src/kernels,
 * src/streams), the C tests and the fuzzers see it through engine_internal.h; the
 * binding and src/formats never do (meson gives the binding include/ only) and go
 * through the calls of jetjson.h. */
#ifndef JJ_PARSER_INTERNAL_H
#define JJ_PARSER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "jetjson.h"

struct jj_parser {
    /* The results of the last parse, under two names: `result` is what
     * jj_parser_result() hands out (so a consumer's view follows the parser without a
     * call per field), the anonymous struct is how the engine writes them. Both have
     * the same members at the same offsets (checked below); input and input_len stay
     * NULL and 0, a parser does not keep its text. */
    union {
        jj_doc result;
        struct {
            uint64_t *tape; /* stage 2 output */
            size_t tape_len;
            uint8_t *strings; /* unescaped strings */
            size_t strings_len;
            size_t max_depth; /* deepest container nesting of the last document */
        };
    };
    jj_error error;
    size_t error_offset;    /* byte offset of the error in the input */
    /* The engine's working buffers. */
    uint32_t *index;        /* stage 1: positions of structural characters */
    size_t index_len, index_cap;
    size_t tape_cap, strings_cap;
    uint32_t *stack;        /* open containers during stage 2 (tape indexes) */
    size_t stack_cap;
    /* Stage 2 (lazy or plain) as jj_many_next's walk: with walk_stops set it ends at the
     * end of the first value instead of refusing the entries after it, and says in
     * walk_used how many entries that value took. */
    int walk_stops;
    size_t walk_used;
    /* The tape lies in the parser's own allocation (jj_parser_hold_document): never freed
     * or grown on its own; a parse gives it up (jj_tape_own) before reserving one. */
    int tape_inline;
};

/* Before a parse reserves the tape: an inline tape is left where it is. */
static inline void jj_tape_own(jj_parser *p) {
    if (p->tape_inline) {
        p->tape = NULL;
        p->tape_cap = 0;
        p->tape_inline = 0;
    }
}

_Static_assert(offsetof(struct jj_parser, tape) == offsetof(struct jj_parser, result.tape) &&
                   offsetof(struct jj_parser, tape_len) == offsetof(struct jj_parser, result.tape_len) &&
                   offsetof(struct jj_parser, strings) == offsetof(struct jj_parser, result.strings) &&
                   offsetof(struct jj_parser, strings_len) == offsetof(struct jj_parser, result.strings_len) &&
                   offsetof(struct jj_parser, max_depth) == offsetof(struct jj_parser, result.max_depth),
               "jj_parser's result members and its working names must coincide");

/* A parser on the caller's storage (engine parts that embed one): empty, nothing held. */
void jj_parser_init(jj_parser *p);

#endif
