/* AVX-512 kernels (AVX512BW and VBMI2, so Ice Lake, Zen 4 and later): the whole 64-byte
 * block in one vector, compared straight into 64-bit masks (no movemask, no joining of
 * halves), the index entries packed with one vpcompressb, and the UTF-8 check on the
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

/* The index entries of a block: the byte positions of the set bits packed into the low
 * bytes of one vector (vpcompressb), then widened to 32 bits sixteen at a time. Up to
 * 31 entries land past the count, in the room the caller reserved. One vpcompressb
 * instead of a vpcompressd per 16 bytes: those four ran on the shuffle port with the
 * classification's compares, and stage 1 took 1.6 times simdjson's on twitter.json. */
#define JJ_KERNEL_FLATTEN 1
static inline uint32_t *jj_flatten(uint32_t *out, uint32_t base, uint64_t bits) {
    static const uint8_t byte_index[64] = {
        0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
        22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
        44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};
    __m512i packed = _mm512_maskz_compress_epi8(bits, _mm512_loadu_si512((const void *)byte_index));
    __m512i b = _mm512_set1_epi32((int)base);
    int count = __builtin_popcountll(bits);
    _mm512_storeu_si512((void *)out, _mm512_add_epi32(b, _mm512_cvtepu8_epi32(_mm512_castsi512_si128(packed))));
    if (count > 16) {
        _mm512_storeu_si512((void *)(out + 16),
                            _mm512_add_epi32(b, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(packed, 1))));
        if (count > 32) {
            _mm512_storeu_si512((void *)(out + 32),
                                _mm512_add_epi32(b, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(packed, 2))));
            _mm512_storeu_si512((void *)(out + 48),
                                _mm512_add_epi32(b, _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(packed, 3))));
        }
    }
    return out + count;
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

/* Line breaks and continuation bytes (10xxxxxx, below 0xc0 as signed bytes) of a
 * block, for jj_count_text. */
#define JJ_TEXT_BLOCK 1
static inline void jj_text_block(const uint8_t *block, uint64_t *newline, uint64_t *follow) {
    __m512i v = _mm512_loadu_si512((const void *)block);
    *newline = _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\n'));
    *follow = _mm512_cmplt_epi8_mask(v, _mm512_set1_epi8((char)0xc0));
}

#include "stage1_body.h"
