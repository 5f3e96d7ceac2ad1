/* NEON kernels (arm64): four 16-byte vectors per 64-byte block, nibble lookups via tbl. */
#include <arm_neon.h>

#include "kernel_internal.h"
#include "minify_table.h"

#define JJ_ISA_NAME "neon"
#define JJ_KERNELS_SYMBOL jj_kernels_neon
#define JJ_SCAN_STEP 16

static const uint8_t jj_space_bytes[16] = {' ', 0, 1, 1, 1, 1, 1, 1, 1, '\t', '\n', 1, 1, '\r', 1, 1};
static const uint8_t jj_op_bytes[16] = {1, 0, 1, 1, 1, 1, 1, 1, 1, 1, ':', '{', ',', '}', 1, 1};

/* One bit per byte of a 16-byte comparison result (all-ones or zero lanes). */
static inline uint64_t jj_bits16(uint8x16_t lanes) {
    static const uint8_t weights[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    uint8x16_t picked = vandq_u8(lanes, vld1q_u8(weights));
    uint8_t lo = vaddv_u8(vget_low_u8(picked));
    uint8_t hi = vaddv_u8(vget_high_u8(picked));
    return (uint64_t)lo | (uint64_t)hi << 8;
}

static inline void jj_classify(const uint8_t *block, jj_block_masks *m) {
    uint8x16_t space_table = vld1q_u8(jj_space_bytes);
    uint8x16_t op_table = vld1q_u8(jj_op_bytes);
    uint8x16_t low_nibble = vdupq_n_u8(0x0f);
    uint64_t quote = 0, backslash = 0, op = 0, space = 0, high = 0, control = 0;
    for (int i = 0; i < 4; i++) {
        uint8x16_t v = vld1q_u8(block + 16 * i);
        uint8x16_t folded = vorrq_u8(v, vdupq_n_u8(0x20));
        /* tbl gives 0 for an index >= 16, like pshufb for a set high bit */
        uint8x16_t space_idx = vandq_u8(v, low_nibble);
        uint8x16_t space_hit = vceqq_u8(vqtbl1q_u8(space_table, space_idx), v);
        uint8x16_t op_idx = vandq_u8(folded, low_nibble);
        uint8x16_t op_hit = vceqq_u8(vqtbl1q_u8(op_table, op_idx), folded);
        int shift = 16 * i;
        quote |= jj_bits16(vceqq_u8(v, vdupq_n_u8('"'))) << shift;
        backslash |= jj_bits16(vceqq_u8(v, vdupq_n_u8('\\'))) << shift;
        space |= jj_bits16(space_hit) << shift;
        op |= jj_bits16(op_hit) << shift;
        high |= jj_bits16(vcgeq_u8(v, vdupq_n_u8(0x80))) << shift;
        control |= jj_bits16(vcltq_u8(v, vdupq_n_u8(0x20))) << shift;
    }
    *m = (jj_block_masks){quote, backslash, op, space, high, control};
}

/* Shifts rather than vmull_p64, which would need the crypto extension. */
static inline uint64_t jj_prefix_xor(uint64_t x) { return jj_prefix_xor_shifts(x); }

static inline uint32_t jj_scan_step(const uint8_t *p, jj_str_scan *info) {
    uint8x16_t v = vld1q_u8(p);
    uint8x16_t hits = vorrq_u8(vorrq_u8(vceqq_u8(v, vdupq_n_u8('"')), vceqq_u8(v, vdupq_n_u8('\\'))),
                               vcltq_u8(v, vdupq_n_u8(0x20)));
    uint32_t bits = (uint32_t)jj_bits16(hits);
    uint32_t before = bits ? (bits & (0u - bits)) - 1u : 0xffffu;
    if ((uint32_t)jj_bits16(vcgeq_u8(v, vdupq_n_u8(0x80))) & before) {
        uint32_t cont = (uint32_t)jj_bits16(vcltq_u8(v, vdupq_n_u8(0xc0)));
        uint32_t high = (uint32_t)jj_bits16(vcgeq_u8(v, vdupq_n_u8(0x80)));
        info->continuations += (uint32_t)__builtin_popcount(cont & high & before);
        info->seen |= JJ_SCAN_NON_ASCII |
                      ((uint32_t)jj_bits16(vcgeq_u8(v, vdupq_n_u8(0xc4))) & before ? JJ_STR_WIDE2 : 0u) |
                      ((uint32_t)jj_bits16(vcgeq_u8(v, vdupq_n_u8(0xf0))) & before ? JJ_STR_WIDE4 : 0u);
    }
    return bits;
}

/* Bit i set when p[i] is '\\', a control byte or >= 0x80 (jj_plain_ascii). */
static inline uint32_t jj_unsafe_step(const uint8_t *p) {
    uint8x16_t v = vld1q_u8(p);
    uint8x16_t unsafe = vorrq_u8(vorrq_u8(vceqq_u8(v, vdupq_n_u8('\\')), vcltq_u8(v, vdupq_n_u8(0x20))),
                                 vcgeq_u8(v, vdupq_n_u8(0x80)));
    return (uint32_t)jj_bits16(unsafe);
}

/* vector operations for utf8_body.h */
typedef uint8x16_t jj_vec;
#define JJ_VEC_BYTES 16
static inline jj_vec jj_vload(const uint8_t *p) { return vld1q_u8(p); }
static inline jj_vec jj_vsplat(uint8_t c) { return vdupq_n_u8(c); }
static inline jj_vec jj_vand(jj_vec a, jj_vec b) { return vandq_u8(a, b); }
static inline jj_vec jj_vor(jj_vec a, jj_vec b) { return vorrq_u8(a, b); }
static inline jj_vec jj_vxor(jj_vec a, jj_vec b) { return veorq_u8(a, b); }
static inline jj_vec jj_vsubs_u8(jj_vec a, jj_vec b) { return vqsubq_u8(a, b); }
static inline jj_vec jj_vtable16(const uint8_t *t) { return vld1q_u8(t); }
static inline jj_vec jj_vlookup(jj_vec table, jj_vec idx) { return vqtbl1q_u8(table, idx); }
static inline jj_vec jj_vhigh_nibble(jj_vec v) { return vshrq_n_u8(v, 4); }
#define jj_vprev(cur, prev, n) vextq_u8((prev), (cur), 16 - (n))
static inline int jj_vnonzero(jj_vec v) { return vmaxvq_u8(v) != 0; }

/* Minifier compaction, as in the SSE kernel: tbl shuffles the kept bytes of each half
 * of a 16-byte chunk to the front of that half, and the halves are stored 8 bytes each. */
static inline uint8_t *jj_compact64(const uint8_t *block, uint64_t keep, uint8_t *out) {
    for (int c = 0; c < 4; c++) {
        unsigned lo = (unsigned)(keep >> (16 * c)) & 0xff, hi = (unsigned)(keep >> (16 * c + 8)) & 0xff;
        uint8x16_t v = vld1q_u8(block + 16 * c);
        uint8x16_t idx = vcombine_u8(vld1_u8(jj_compact_table[lo]),
                                     vadd_u8(vld1_u8(jj_compact_table[hi]), vdup_n_u8(8)));
        uint8x16_t packed = vqtbl1q_u8(v, idx);
        vst1_u8(out, vget_low_u8(packed));
        out += __builtin_popcount(lo);
        vst1_u8(out, vget_high_u8(packed));
        out += __builtin_popcount(hi);
    }
    return out;
}

/* Line breaks and continuation bytes (10xxxxxx, below 0xc0 as signed bytes) of a
 * block, for jj_count_text. */
#define JJ_TEXT_BLOCK 1
static inline void jj_text_block(const uint8_t *block, uint64_t *newline, uint64_t *follow) {
    uint64_t n = 0, f = 0;
    for (int i = 0; i < 4; i++) {
        uint8x16_t v = vld1q_u8(block + 16 * i);
        n |= jj_bits16(vceqq_u8(v, vdupq_n_u8('\n'))) << 16 * i;
        f |= jj_bits16(vcltq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(-64))) << 16 * i;
    }
    *newline = n;
    *follow = f;
}

#include "stage1_body.h"
