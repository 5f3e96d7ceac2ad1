/* AVX2 kernels: two 32-byte vectors per 64-byte block, nibble lookups via vpshufb. */
#include "avx2_shim.h"

#define JJ_ISA_NAME "avx2"
#define JJ_KERNELS_SYMBOL jj_kernels_avx2

static inline void jj_classify32(__m256i v, uint32_t *quote, uint32_t *backslash,
                                 uint32_t *op, uint32_t *space, uint32_t *high, uint32_t *control) {
    __m256i folded = _mm256_or_si256(v, _mm256_set1_epi8(0x20));
    *quote = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('"')));
    *backslash = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8('\\')));
    *space = (uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_shuffle_epi8(jj_space_table(), v), v));
    *op = (uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_shuffle_epi8(jj_op_table(), folded), folded));
    *high = (uint32_t)_mm256_movemask_epi8(v);
    /* unsigned c < 0x20  <=>  min(c, 0x1f) == c */
    *control = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(v, _mm256_set1_epi8(0x1f)), v));
}

static inline void jj_classify(const uint8_t *block, jj_block_masks *m) {
    uint32_t q0, b0, o0, s0, h0, c0, q1, b1, o1, s1, h1, c1;
    jj_classify32(_mm256_loadu_si256((const __m256i *)(const void *)block), &q0, &b0, &o0, &s0, &h0, &c0);
    jj_classify32(_mm256_loadu_si256((const __m256i *)(const void *)(block + 32)), &q1, &b1, &o1, &s1, &h1,
                  &c1);
    m->quote = q0 | (uint64_t)q1 << 32;
    m->backslash = b0 | (uint64_t)b1 << 32;
    m->op = o0 | (uint64_t)o1 << 32;
    m->space = s0 | (uint64_t)s1 << 32;
    m->high = h0 | (uint64_t)h1 << 32;
    m->control = c0 | (uint64_t)c1 << 32;
}

#include "compact_ssse3.h"

#include "stage1_body.h"
