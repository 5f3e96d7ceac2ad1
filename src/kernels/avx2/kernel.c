/* AVX2 kernels: two 32-byte vectors per 64-byte block, nibble lookups via vpshufb. */
#include "avx2_shim.h"

#define JJ_ISA_NAME "avx2"
#define JJ_KERNELS_SYMBOL jj_kernels_avx2

/* The classification's constants. Stage 1 makes them once per call, hidden from the
 * compiler (jj_opaque), so that they stay in registers or in one stack slot each: as
 * plain constants gcc rebuilds each broadcast (three instructions) at every block,
 * because the UTF-8 check leaves few vector registers free. */
#define JJ_CLASSIFY_CONSTS 1
typedef struct jj_classify_consts {
    __m256i quote, backslash, fold, space_table, op_table, last_control;
} jj_classify_consts;

static inline __m256i jj_opaque(__m256i v) {
    __asm__("" : "+x"(v));
    return v;
}

static inline jj_classify_consts jj_classify_consts_make(int opaque) {
    jj_classify_consts c = {_mm256_set1_epi8('"'), _mm256_set1_epi8('\\'), _mm256_set1_epi8(0x20),
                            jj_space_table(), jj_op_table(), _mm256_set1_epi8(0x1f)};
    if (opaque) {
        c.quote = jj_opaque(c.quote);
        c.backslash = jj_opaque(c.backslash);
        c.fold = jj_opaque(c.fold);
        c.space_table = jj_opaque(c.space_table);
        c.op_table = jj_opaque(c.op_table);
        c.last_control = jj_opaque(c.last_control);
    }
    return c;
}

static inline void jj_classify32(const jj_classify_consts *k, __m256i v, uint32_t *quote, uint32_t *backslash,
                                 uint32_t *op, uint32_t *space, uint32_t *control) {
    __m256i folded = _mm256_or_si256(v, k->fold);
    *quote = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, k->quote));
    *backslash = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, k->backslash));
    *space = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(k->space_table, v), v));
    *op = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_shuffle_epi8(k->op_table, folded), folded));
    /* unsigned c <= 0x1f: min(c, 0x1f) == c */
    *control = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(v, k->last_control), v));
}

/* `high` is only whether the block has a byte >= 0x80 (its bits are not needed with
 * the vector UTF-8 check): one movemask instead of two and their combining. */
static inline __attribute__((always_inline)) void jj_classify_with(const jj_classify_consts *k, const uint8_t *block,
                                                                  jj_block_masks *m) {
    uint32_t q0, b0, o0, s0, c0, q1, b1, o1, s1, c1;
    __m256i v0 = _mm256_loadu_si256((const __m256i *)(const void *)block);
    __m256i v1 = _mm256_loadu_si256((const __m256i *)(const void *)(block + 32));
    jj_classify32(k, v0, &q0, &b0, &o0, &s0, &c0);
    jj_classify32(k, v1, &q1, &b1, &o1, &s1, &c1);
    m->quote = q0 | (uint64_t)q1 << 32;
    m->backslash = b0 | (uint64_t)b1 << 32;
    m->op = o0 | (uint64_t)o1 << 32;
    m->space = s0 | (uint64_t)s1 << 32;
    m->high = (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(v0, v1));
    m->control = c0 | (uint64_t)c1 << 32;
}

static inline void jj_classify(const uint8_t *block, jj_block_masks *m) {
    jj_classify_consts k = jj_classify_consts_make(0);
    jj_classify_with(&k, block, m);
}

#include "compact_ssse3.h"

/* The index entries of a block: for each byte of the mask, the positions of its set
 * bits from minify_table.h, widened to 32 bits and stored eight at a time, then the
 * pointer moved by their count. No branch on the count (records put 8 to 20 entries in
 * a block, and a test of the count mispredicted); up to 7 entries land past the count,
 * in the room the caller reserved. Unrolled, with the base of each byte's entries kept
 * in a vector that steps by 8: the loop as written cost 13 instructions a byte (the
 * broadcast of base + 8k, the shift by 8k, the loop's own counter and branch). */
#define JJ_KERNEL_FLATTEN 1
static inline uint32_t *jj_flatten(uint32_t *out, uint32_t base, uint64_t bits) {
    if (!bits) return out;
    /* the bytes read back from memory: one load each, where taking them from the
     * register cost a copy, a shift and a zero extension */
    uint8_t bytes[8];
    memcpy(bytes, &bits, sizeof bytes);
    __asm__("" : "+m"(bytes));
    __m256i at = _mm256_set1_epi32((int)base);
    const __m256i eight = _mm256_set1_epi32(8);
#pragma GCC unroll 8
    for (int k = 0; k < 8; k++) {
        unsigned byte = bytes[k];
        __m128i positions = _mm_loadl_epi64((const __m128i *)(const void *)jj_compact_table[byte]);
        _mm256_storeu_si256((__m256i *)(void *)out, _mm256_add_epi32(_mm256_cvtepu8_epi32(positions), at));
        out += __builtin_popcount(byte);
        at = jj_opaque(_mm256_add_epi32(at, eight)); /* else gcc rebuilds base + 8k */
    }
    return out;
}

/* Line breaks and continuation bytes (10xxxxxx, below 0xc0 as signed bytes) of a
 * block, for jj_count_text. */
#define JJ_TEXT_BLOCK 1
static inline void jj_text_block(const uint8_t *block, uint64_t *newline, uint64_t *follow) {
    __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)block);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(block + 32));
    __m256i nl = _mm256_set1_epi8('\n'), lead = _mm256_set1_epi8((char)0xc0);
    *newline = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, nl)) |
               (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, nl)) << 32;
    *follow = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(lead, lo)) |
              (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(lead, hi)) << 32;
}

#include "stage1_body.h"
