/* Shared declarations for the kernel files: every ISA's kernel.c defines the shim
 * (block classification, prefix xor, string scan step) and then includes
 * stage1_body.h, which is written once for all ISAs. */
#ifndef JJ_KERNEL_INTERNAL_H
#define JJ_KERNEL_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "jetjson.h"

/* Room the string buffer keeps past the input length: stage 2 copies escaped strings a
 * whole vector at a time. */
#define JJ_STRING_SLACK 64

/* Stage 1 may write a few entries past its count while flattening a block. */
#define JJ_INDEX_SLACK 64

/* parser.c: grows *buf to hold at least `need` items of `size` bytes, keeping the old
 * content; 0 when it cannot. */
int jj_buffer_reserve(void **buf, size_t *cap, size_t need, size_t size);

/* One 64-byte block classified into bit masks (bit i = byte i of the block). */
typedef struct jj_block_masks {
    uint64_t quote;     /* '"' */
    uint64_t backslash; /* '\\' */
    uint64_t op;        /* {}[]:, (may include a few control bytes, see below) */
    uint64_t space;     /* ' ', '\t', '\n', '\r' */
    uint64_t high;      /* bytes >= 0x80; with JJ_VEC_BYTES (the vector UTF-8 check) only
                         * whether there is one: a kernel may set any nonzero value */
    uint64_t control;   /* bytes < 0x20 (only the lazy stage 1 reads it) */
} jj_block_masks;

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

/* Prefix XOR with shifts: bit i becomes the XOR of bits 0..i. For ISAs without a
 * carry-less multiply (or where using it needs an extension). */
static inline uint64_t jj_prefix_xor_shifts(uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

/* What one string byte tells a jj_str_scan (the byte loops at the ends of strings). */
static inline void jj_note_byte(jj_str_scan *info, uint8_t c) {
    if (c >= 0x80) {
        info->seen |= JJ_SCAN_NON_ASCII | (c >= 0xc4 ? JJ_STR_WIDE2 : 0u) | (c >= 0xf0 ? JJ_STR_WIDE4 : 0u);
        info->continuations += c < 0xc0;
    }
}

/* The kernel sets, defined in each kernel file. */
extern const jj_kernels jj_kernels_scalar;
#if defined(JJ_HAVE_X86_KERNELS)
extern const jj_kernels jj_kernels_sse42;
extern const jj_kernels jj_kernels_avx2;
extern const jj_kernels jj_kernels_avx512;
#endif
#if defined(JJ_HAVE_NEON_KERNELS)
extern const jj_kernels jj_kernels_neon;
#endif

/* Validates UTF-8 (surrogates allowed) from `pos` until at least `stop`, reading no
 * byte at or past `len`. Returns the position after the last complete character, or
 * (size_t)-1 with *err_off set at the first bad byte. */
size_t jj_utf8_validate_span(const uint8_t *buf, size_t len, size_t pos, size_t stop,
                             size_t *err_off);

#endif
