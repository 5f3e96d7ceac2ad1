/* AVX-512 kernels (AVX512BW): the whole 64-byte block in one vector, compared straight
 * into 64-bit masks (no movemask, no joining of halves). The rest of the shim (string
 * scan step, UTF-8 vector operations, prefix XOR) is the AVX2 one: strings are short
 * and the UTF-8 check runs only on blocks with non-ASCII bytes. */
#include "../avx2/avx2_shim.h"

#define JJ_ISA_NAME "avx512"
#define JJ_KERNELS_SYMBOL jj_kernels_avx512

static inline void jj_classify(const uint8_t *block, jj_block_masks *m) {
    __m512i v = _mm512_loadu_si512((const void *)block);
    __m512i folded = _mm512_or_si512(v, _mm512_set1_epi8(0x20));
    /* the 16-byte tables of the AVX2 kernel, in all four 128-bit lanes */
    __m512i space_table = _mm512_broadcast_i32x4(_mm256_castsi256_si128(jj_space_table()));
    __m512i op_table = _mm512_broadcast_i32x4(_mm256_castsi256_si128(jj_op_table()));
    m->quote = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"'));
    m->backslash = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'));
    m->space = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(space_table, v), v);
    m->op = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(op_table, folded), folded);
    m->high = _mm512_movepi8_mask(v);
    m->control = _mm512_cmplt_epu8_mask(v, _mm512_set1_epi8(0x20));
}

/* The index entries of a block, 16 bit positions at a time: each group's positions are
 * packed into the low lanes (vpcompressd) and stored whole. Up to 16 entries land past
 * the count, in the room the caller reserved. */
#define JJ_KERNEL_FLATTEN 1
static inline uint32_t *jj_flatten(uint32_t *out, uint32_t base, uint64_t bits) {
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m512i pos = _mm512_add_epi32(_mm512_set1_epi32((int)base), lanes);
    for (int group = 0; group < 4; group++) {
        __mmask16 m = (__mmask16)(bits >> (16 * group));
        _mm512_storeu_si512((void *)out, _mm512_maskz_compress_epi32(m, pos));
        out += __builtin_popcount((unsigned)m);
        pos = _mm512_add_epi32(pos, _mm512_set1_epi32(16));
    }
    return out;
}

#include "compact_ssse3.h"

#include "stage1_body.h"
