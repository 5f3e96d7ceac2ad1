/* AVX-512 kernels (AVX512BW): the whole 64-byte block in one vector, compared straight
 * into 64-bit masks (no movemask, no joining of halves), and the UTF-8 check on the
 * same vector. The rest of the shim (string scan step, prefix XOR) is the AVX2 one:
 * strings are short. */
#define JJ_SHIM_OWN_VEC 1
#include "../avx2/avx2_shim.h"

#define JJ_ISA_NAME "avx512"
#define JJ_KERNELS_SYMBOL jj_kernels_avx512

/* The classification's constants, made once per stage 1 call and hidden from the
 * compiler (jj_opaque): as plain constants gcc rebuilds them at every block. In zmm
 * registers, with the tables of the AVX2 kernel in all four 128-bit lanes. */
#define JJ_CLASSIFY_CONSTS 1
typedef struct jj_classify_consts {
    __m512i quote, backslash, fold, space_table, op_table;
} jj_classify_consts;

static inline __m512i jj_opaque(__m512i v) {
    __asm__("" : "+v"(v));
    return v;
}

static inline jj_classify_consts jj_classify_consts_make(int opaque) {
    jj_classify_consts c = {_mm512_set1_epi8('"'), _mm512_set1_epi8('\\'), _mm512_set1_epi8(0x20),
                            _mm512_broadcast_i32x4(_mm256_castsi256_si128(jj_space_table())),
                            _mm512_broadcast_i32x4(_mm256_castsi256_si128(jj_op_table()))};
    if (opaque) {
        c.quote = jj_opaque(c.quote);
        c.backslash = jj_opaque(c.backslash);
        c.fold = jj_opaque(c.fold);
        c.space_table = jj_opaque(c.space_table);
        c.op_table = jj_opaque(c.op_table);
    }
    return c;
}

static inline void jj_classify_with(const jj_classify_consts *k, const uint8_t *block, jj_block_masks *m) {
    __m512i v = _mm512_loadu_si512((const void *)block);
    __m512i folded = _mm512_or_si512(v, k->fold);
    m->quote = _mm512_cmpeq_epi8_mask(v, k->quote);
    m->backslash = _mm512_cmpeq_epi8_mask(v, k->backslash);
    m->space = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(k->space_table, v), v);
    m->op = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(k->op_table, folded), folded);
    m->high = _mm512_movepi8_mask(v);
    m->control = _mm512_cmplt_epu8_mask(v, k->fold);
}

static inline void jj_classify(const uint8_t *block, jj_block_masks *m) {
    jj_classify_consts k = jj_classify_consts_make(0);
    jj_classify_with(&k, block, m);
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

/* Vector operations for utf8_body.h: one 64-byte vector per block. The byte shift
 * across the previous vector takes two steps, as vpalignr works within 128-bit lanes:
 * valignq makes the vector that starts 16 bytes back, then vpalignr takes n bytes of it
 * in front of each lane. */
typedef __m512i jj_vec;
#define JJ_VEC_BYTES 64
static inline jj_vec jj_vload(const uint8_t *p) { return _mm512_loadu_si512((const void *)p); }
static inline jj_vec jj_vsplat(uint8_t c) { return _mm512_set1_epi8((char)c); }
static inline jj_vec jj_vand(jj_vec a, jj_vec b) { return _mm512_and_si512(a, b); }
static inline jj_vec jj_vor(jj_vec a, jj_vec b) { return _mm512_or_si512(a, b); }
static inline jj_vec jj_vxor(jj_vec a, jj_vec b) { return _mm512_xor_si512(a, b); }
static inline jj_vec jj_vsubs_u8(jj_vec a, jj_vec b) { return _mm512_subs_epu8(a, b); }
static inline jj_vec jj_vtable16(const uint8_t *t) {
    return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)t));
}
static inline jj_vec jj_vlookup(jj_vec table, jj_vec idx) { return _mm512_shuffle_epi8(table, idx); }
static inline jj_vec jj_vhigh_nibble(jj_vec v) {
    return _mm512_and_si512(_mm512_srli_epi16(v, 4), _mm512_set1_epi8(0x0f));
}
#define jj_vprev(cur, prev, n) _mm512_alignr_epi8((cur), _mm512_alignr_epi64((cur), (prev), 6), 16 - (n))
static inline int jj_vnonzero(jj_vec v) { return _mm512_test_epi64_mask(v, v) != 0; }

#include "compact_ssse3.h"

#include "stage1_body.h"
