/* The AVX2 pieces of a kernel shim, shared by the AVX2 and AVX-512 kernels: the nibble
 * tables of the classification, the prefix XOR, the 32-byte string scan step and the
 * vector operations of utf8_body.h. The including file defines jj_classify. */
#ifndef JJ_AVX2_SHIM_H
#define JJ_AVX2_SHIM_H

#include <immintrin.h>

#include "kernel_internal.h"

#define JJ_SCAN_STEP 32

/* A table byte whose low nibble differs from its index can never equal an input byte
 * with that low nibble, so "table[c & 15] == c" is true exactly for the listed bytes.
 * op: tested on c | 0x20, which folds '[' ']' onto '{' '}'; it also lets 0x0C and 0x1A
 * through, harmless because stage 2 reads the byte itself. */
static inline __m256i jj_space_table(void) {
    return _mm256_setr_epi8(' ', 0, 1, 1, 1, 1, 1, 1, 1, '\t', '\n', 1, 1, '\r', 1, 1,
                            ' ', 0, 1, 1, 1, 1, 1, 1, 1, '\t', '\n', 1, 1, '\r', 1, 1);
}
static inline __m256i jj_op_table(void) {
    return _mm256_setr_epi8(1, 0, 1, 1, 1, 1, 1, 1, 1, 1, ':', '{', ',', '}', 1, 1,
                            1, 0, 1, 1, 1, 1, 1, 1, 1, 1, ':', '{', ',', '}', 1, 1);
}

static inline uint64_t jj_prefix_xor(uint64_t x) {
    __m128i all_ones = _mm_set1_epi8((char)0xff);
    __m128i r = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), all_ones, 0);
    return (uint64_t)_mm_cvtsi128_si64(r);
}

/* unsigned v >= c, per byte, as a bit mask */
static inline uint32_t jj_at_least(__m256i v, uint8_t c) {
    __m256i limit = _mm256_set1_epi8((char)c);
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(v, limit), v));
}

#define JJ_X8(c) c, c, c, c, c, c, c, c
#define JJ_X32(c) JJ_X8(c), JJ_X8(c), JJ_X8(c), JJ_X8(c)
/* The string scanner's constants, read from memory as operands of the compares: as
 * plain constants gcc rebuilds each broadcast (three instructions) for every string. */
static const uint8_t jj_scan_consts[3][32] __attribute__((aligned(32))) = {
    {JJ_X32('"')}, {JJ_X32('\\')}, {JJ_X32(0x1f)}};

static inline const __m256i *jj_scan_const_vectors(void) {
    const uint8_t *t = &jj_scan_consts[0][0];
    __asm__("" : "+r"(t)); /* an address the compiler cannot see through: it stays a load */
    return (const __m256i *)(const void *)t;
}

static inline uint32_t jj_scan_step(const uint8_t *p, jj_str_scan *info) {
    const __m256i *k = jj_scan_const_vectors();
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i quote = _mm256_cmpeq_epi8(v, _mm256_load_si256(k));
    __m256i backslash = _mm256_cmpeq_epi8(v, _mm256_load_si256(k + 1));
    /* unsigned c < 0x20  <=>  max(c, 0x1f) == 0x1f */
    __m256i last_control = _mm256_load_si256(k + 2);
    __m256i control = _mm256_cmpeq_epi8(_mm256_max_epu8(v, last_control), last_control);
    uint32_t hits = (uint32_t)_mm256_movemask_epi8(
        _mm256_or_si256(_mm256_or_si256(quote, backslash), control));
    /* only the bytes before the first hit belong to the string */
    uint32_t before = hits ? (hits & (0u - hits)) - 1u : 0xffffffffu;
    if ((uint32_t)_mm256_movemask_epi8(v) & before) {
        /* continuation bytes 0x80..0xBF are the signed bytes below -64 */
        uint32_t cont = (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), v));
        info->continuations += (uint32_t)__builtin_popcount(cont & before);
        info->seen |= JJ_SCAN_NON_ASCII | (jj_at_least(v, 0xc4) & before ? JJ_STR_WIDE2 : 0u) |
                      (jj_at_least(v, 0xf0) & before ? JJ_STR_WIDE4 : 0u);
    }
    return hits;
}

/* Bit i set when p[i] is '\\', a control byte or >= 0x80: what keeps a string from
 * being plain ASCII text without escapes (jj_plain_ascii). */
static inline uint32_t jj_unsafe_step(const uint8_t *p) {
    const __m256i *k = jj_scan_const_vectors();
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i backslash = _mm256_cmpeq_epi8(v, _mm256_load_si256(k + 1));
    __m256i last_control = _mm256_load_si256(k + 2);
    __m256i control = _mm256_cmpeq_epi8(_mm256_max_epu8(v, last_control), last_control);
    /* v itself for the bytes >= 0x80: movemask takes the top bits */
    return (uint32_t)_mm256_movemask_epi8(_mm256_or_si256(_mm256_or_si256(backslash, control), v));
}

/* vector operations for utf8_body.h (the AVX-512 kernel defines JJ_SHIM_OWN_VEC and its
 * own) */
#if !defined(JJ_SHIM_OWN_VEC)
typedef __m256i jj_vec;
#define JJ_VEC_BYTES 32
static inline jj_vec jj_vload(const uint8_t *p) { return _mm256_loadu_si256((const __m256i *)(const void *)p); }
static inline jj_vec jj_vsplat(uint8_t c) { return _mm256_set1_epi8((char)c); }
static inline jj_vec jj_vand(jj_vec a, jj_vec b) { return _mm256_and_si256(a, b); }
static inline jj_vec jj_vor(jj_vec a, jj_vec b) { return _mm256_or_si256(a, b); }
static inline jj_vec jj_vxor(jj_vec a, jj_vec b) { return _mm256_xor_si256(a, b); }
static inline jj_vec jj_vsubs_u8(jj_vec a, jj_vec b) { return _mm256_subs_epu8(a, b); }
static inline jj_vec jj_vtable16(const uint8_t *t) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)t));
}
static inline jj_vec jj_vlookup(jj_vec table, jj_vec idx) { return _mm256_shuffle_epi8(table, idx); }
static inline jj_vec jj_vhigh_nibble(jj_vec v) {
    return _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0f));
}
/* bytes of cur shifted right by n, with the last n bytes of prev in front */
#define jj_vprev(cur, prev, n) \
    _mm256_alignr_epi8((cur), _mm256_permute2x128_si256((prev), (cur), 0x21), 16 - (n))
static inline int jj_vnonzero(jj_vec v) { return !_mm256_testz_si256(v, v); }
#endif

#endif
