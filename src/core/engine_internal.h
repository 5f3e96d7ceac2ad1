/* The engine's internal face: what its parts share and the public header does not
 * show. The kernel table (one set of function pointers per ISA, chosen at run time),
 * the entry points that take an explicit kernel set (tests and fuzzers compare ISAs
 * with them), buffer growth and the slack the kernels rely on. Included by src/core,
 * src/kernels, src/dispatch, the C tests and the fuzzers; never by the binding. */
#ifndef JJ_ENGINE_INTERNAL_H
#define JJ_ENGINE_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "jetjson.h"
#include "parser_internal.h"

/* Room the string buffer keeps past the input length: stage 2 copies escaped strings a
 * whole vector at a time. */
#define JJ_STRING_SLACK 64

/* Stage 1 may write a few entries past its count while flattening a block. */
#define JJ_INDEX_SLACK 64

/* parser.c: grows *buf to hold at least `need` items of `size` bytes, keeping the old
 * content; 0 when it cannot. */
int jj_buffer_reserve(void **buf, size_t *cap, size_t need, size_t size);

/* The same for a buffer whose old content is dead (an index, tape, stack or string
 * buffer about to be written from its start): it grows by a fresh allocation, so nothing
 * is copied (a realloc would copy the old bytes: a stream's parser grows chunk by chunk).
 * The growth is out of line, so callers keep their registers. */
int jj_buffer_grow_empty(void **buf, size_t *cap, size_t need, size_t size);
static inline int jj_buffer_reserve_empty(void **buf, size_t *cap, size_t need, size_t size) {
    return need <= *cap || jj_buffer_grow_empty(buf, cap, need, size);
}

/* The lazy stage 1's index entries: position, and the flag of an opening quote whose
 * string has a backslash (so the lazy parse takes inputs below 2 GiB only). */
#define JJ_LAZY_POS 0x7fffffffu
#define JJ_LAZY_ESCAPED 0x80000000u
#define JJ_LAZY_MAX_LEN ((size_t)1 << 31)

static inline int jj_lazy_hex_ok(uint8_t c) {
    return (uint8_t)(c - '0') < 10 || (uint8_t)((c | 0x20) - 'a') < 6;
}
/* Four hex digits at p (the caller checked the bounds). */
static inline int jj_lazy_hex4_ok(const uint8_t *p) {
    return jj_lazy_hex_ok(p[0]) & jj_lazy_hex_ok(p[1]) & jj_lazy_hex_ok(p[2]) & jj_lazy_hex_ok(p[3]);
}

/* Validates UTF-8 (surrogates allowed) from `pos` until at least `stop`, reading no
 * byte at or past `len`. Returns the position after the last complete character, or
 * (size_t)-1 with *err_off set at the first bad byte. */
size_t jj_utf8_validate_span(const uint8_t *buf, size_t len, size_t pos, size_t stop,
                             size_t *err_off);

/* What a string scan learned about the bytes it passed. */
typedef struct jj_str_scan {
    unsigned seen;          /* JJ_SCAN_NON_ASCII | JJ_STR_WIDE2 | JJ_STR_WIDE4 */
    uint32_t continuations; /* UTF-8 continuation bytes (10xxxxxx) */
} jj_str_scan;
#define JJ_SCAN_NON_ASCII 0x80u

typedef size_t (*jj_stage1_fn)(const uint8_t *buf, size_t len, uint32_t *out, jj_error *err, size_t *err_off);

typedef struct jj_kernels {
    const char *name; /* "scalar", "sse42", "avx2", "neon" */
    /* Stage 1: writes the positions of structural characters ({}[]:, the opening quote
     * of each string, the first byte of each other token) to out (room for len + 64
     * entries: whole groups of entries are written), and validates UTF-8. Returns the count, or sets *err and *err_off.
     * JJ_ERR_UNCLOSED_STRING (the input ends inside a string) names the string's opening
     * quote in *err_off and returns the entries up to and including it. */
    size_t (*stage1)(const uint8_t *buf, size_t len, uint32_t *out, jj_error *err,
                     size_t *err_off);
    /* Returns the offset from p of the first '"', '\\' or byte < 0x20 in [p, end), or
     * end - p when there is none; adds what it learned of the bytes passed to *info. */
    size_t (*scan_string)(const uint8_t *p, const uint8_t *end, jj_str_scan *info);
    /* Stage 2: walks the index of jj_parser into its tape (buffers sized by the caller). */
    jj_error (*stage2)(jj_parser *p, const uint8_t *buf, size_t len);
    /* Minify: copies buf[0..len) to out (room for len bytes, not overlapping buf)
     * without the whitespace outside strings; returns the bytes written. Sets
     * *unterminated when the input ends inside a string. Validates nothing else. */
    size_t (*minify)(const uint8_t *buf, size_t len, uint8_t *out, int *unterminated);
    /* Validation's stage 2: the grammar walk of stage2 over jj_parser's index, without
     * a tape (stack sized by the caller); sets p->error_offset on error. */
    jj_error (*validate)(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts);
    /* Lazy parse, stage 1: stage1's index (identical positions) for len < 2^31, where the
     * opening quote of a string whose text has a backslash gets bit 31 set; it also
     * checks what stage 2 would check inside strings (no control byte, every escape
     * well formed), reporting a failure as some error at some offset. */
    size_t (*stage1_lazy)(const uint8_t *buf, size_t len, uint32_t *out, jj_error *err,
                          size_t *err_off);
    /* Lazy parse, stage 2: stage2's grammar walk over stage1_lazy's index into a lazy
     * tape (see jj_parse_lazy); tape (2 words per index entry) and stack (2 per entry)
     * sized by the caller, and the input length written after the last index entry. */
    jj_error (*stage2_lazy)(jj_parser *p, const uint8_t *buf, size_t len);
    /* Finishes the raw string whose tape words are w (see jj_lazy_finish): the string
     * buffer has room for its raw length + JJ_STRING_SLACK past strings_len. */
    jj_error (*finish_string)(jj_parser *p, const uint8_t *buf, size_t len, uint64_t *w);
    /* Validation, stage 1: stage1's index (identical positions, any length), also
     * checking what stage 2 would check inside strings (no control byte, every escape
     * well formed), a failure reported as some error at some offset. */
    size_t (*stage1_checked)(const uint8_t *buf, size_t len, uint32_t *out, jj_error *err,
                             size_t *err_off);
    /* validate over stage1_checked's index: strings are not looked at again. Accepts
     * what validate accepts; a failure may have another code or offset than validate's. */
    jj_error (*validate_checked)(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts);
    /* stage1_checked's index with an entry for each '\n' outside strings too. */
    size_t (*stage1_lines)(const uint8_t *buf, size_t len, uint32_t *out, jj_error *err,
                           size_t *err_off);
    /* validate_checked over stage1_lines's index, each '\n' ending one document (see
     * jj_validate_lines); *line_count gets the lines when all are valid. */
    jj_error (*validate_lines)(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts,
                               size_t *line_count);
    /* Finishes the raw number whose tape words are w (see jj_lazy_finish) as stage2
     * parses numbers (its SIMD fast path): JJ_OK, or JJ_ERR_NUMBER. */
    jj_error (*finish_number)(const uint8_t *buf, size_t len, uint64_t *w);
    /* Adds the continuation bytes (10xxxxxx) and line breaks of buf[0..len) to the
     * counts; returns the offset of the last line break, SIZE_MAX when none. */
    size_t (*count_text)(const uint8_t *buf, size_t len, size_t *continuations, size_t *lines);
} jj_kernels;

/* The kernels chosen for this machine (once, thread-safe); JETJSON_FORCE_ISA overrides. */
const jj_kernels *jj_kernels_active(void);
/* The kernels of one ISA by name, or NULL when unknown or unsupported here. */
const jj_kernels *jj_kernels_by_name(const char *name);
/* Every kernel set this machine can run, NULL-terminated (scalar first). */
const jj_kernels *const *jj_kernels_all(void);
/* Parses with an explicit kernel set (tests and fuzzers compare ISAs with it). */
jj_error jj_parse_with(jj_parser *p, const jj_kernels *k, const uint8_t *buf, size_t len);
/* jj_validate with an explicit kernel set. */
jj_error jj_validate_with(jj_parser *p, const jj_kernels *k, const uint8_t *buf, size_t len,
                          jj_valid_facts *facts);
/* jj_validate_lines with an explicit kernel set. */
jj_error jj_validate_lines_with(jj_parser *p, const jj_kernels *k, const uint8_t *buf, size_t len,
                                jj_valid_facts *facts, size_t *lines);
/* jj_parse_lazy with an explicit kernel set (also used by its finishing). */
jj_error jj_parse_lazy_with(jj_parser *p, const jj_kernels *k, const uint8_t *buf, size_t len);
/* jj_minify with an explicit kernel set. */
jj_error jj_minify_with(const jj_kernels *k, const uint8_t *in, size_t len, uint8_t *out,
                        size_t *out_len, size_t *err_off);

/* The index of the lowest set bit (x != 0). */
static inline int jj_ctz64(uint64_t x) { return __builtin_ctzll(x); }

/* Prefix XOR with shifts: bit i becomes the XOR of bits 0..i (a string mask from its
 * quotes). For ISAs without a carry-less multiply, and for the fed documents' gate. */
static inline uint64_t jj_prefix_xor_shifts(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

#endif
