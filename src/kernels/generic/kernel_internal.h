/* Shared declarations for the kernel files: every ISA's kernel.c defines the shim
 * (block classification, prefix xor, string scan step) and then includes
 * stage1_body.h, which is written once for all ISAs (and includes the other bodies). */
#ifndef JJ_KERNEL_INTERNAL_H
#define JJ_KERNEL_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "engine_internal.h"

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

#endif
