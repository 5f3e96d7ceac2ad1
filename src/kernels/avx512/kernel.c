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

#include "compact_ssse3.h"

#include "stage1_body.h"
