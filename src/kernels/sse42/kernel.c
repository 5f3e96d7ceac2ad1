/* SSE4.2 kernels: four 16-byte vectors per 64-byte block, nibble lookups via pshufb. */
#include <immintrin.h>

#include "kernel_internal.h"

#define JJ_ISA_NAME "sse42"
#define JJ_KERNELS_SYMBOL jj_kernels_sse42
#define JJ_SCAN_STEP 16

/* See the AVX2 kernel for why these tables work. */
static inline __m128i jj_space_table(void) {
    return _mm_setr_epi8(' ', 0, 1, 1, 1, 1, 1, 1, 1, '\t', '\n', 1, 1, '\r', 1, 1);
}
static inline __m128i jj_op_table(void) {
    return _mm_setr_epi8(1, 0, 1, 1, 1, 1, 1, 1, 1, 1, ':', '{', ',', '}', 1, 1);
}

static inline void jj_classify(const uint8_t *block, jj_block_masks *m) {
    uint64_t quote = 0, backslash = 0, op = 0, space = 0, high = 0, control = 0;
    for (int i = 0; i < 4; i++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(block + 16 * i));
        __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
        int shift = 16 * i;
        quote |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"'))) << shift;
        backslash |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))) << shift;
        space |= (uint64_t)(uint32_t)_mm_movemask_epi8(
                     _mm_cmpeq_epi8(_mm_shuffle_epi8(jj_space_table(), v), v)) << shift;
        op |= (uint64_t)(uint32_t)_mm_movemask_epi8(
                  _mm_cmpeq_epi8(_mm_shuffle_epi8(jj_op_table(), folded), folded)) << shift;
        high |= (uint64_t)(uint32_t)_mm_movemask_epi8(v) << shift;
        /* unsigned c < 0x20  <=>  min(c, 0x1f) == c */
        control |= (uint64_t)(uint32_t)_mm_movemask_epi8(
                       _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v)) << shift;
    }
    *m = (jj_block_masks){quote, backslash, op, space, high, control};
}

static inline uint64_t jj_prefix_xor(uint64_t x) {
    __m128i all_ones = _mm_set1_epi8((char)0xff);
    __m128i r = _mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), all_ones, 0);
    return (uint64_t)_mm_cvtsi128_si64(r);
}

static inline uint32_t jj_at_least(__m128i v, uint8_t c) {
    __m128i limit = _mm_set1_epi8((char)c);
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(v, limit), v));
}

static inline uint32_t jj_scan_step(const uint8_t *p, jj_str_scan *info) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i quote = _mm_cmpeq_epi8(v, _mm_set1_epi8('"'));
    __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1f)), _mm_set1_epi8(0x1f));
    uint32_t hits = (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, backslash), control));
    uint32_t before = hits ? (hits & (0u - hits)) - 1u : 0xffffu;
    if ((uint32_t)_mm_movemask_epi8(v) & before) {
        uint32_t cont = (uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(_mm_set1_epi8(-64), v));
        info->continuations += (uint32_t)__builtin_popcount(cont & before);
        info->seen |= JJ_SCAN_NON_ASCII | (jj_at_least(v, 0xc4) & before ? JJ_STR_WIDE2 : 0u) |
                      (jj_at_least(v, 0xf0) & before ? JJ_STR_WIDE4 : 0u);
    }
    return hits;
}

/* Bit i set when p[i] is '\\', a control byte or >= 0x80 (jj_plain_ascii). */
static inline uint32_t jj_unsafe_step(const uint8_t *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));
    __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(0x1f)), _mm_set1_epi8(0x1f));
    return (uint32_t)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(backslash, control), v));
}

/* vector operations for utf8_body.h */
typedef __m128i jj_vec;
#define JJ_VEC_BYTES 16
static inline jj_vec jj_vload(const uint8_t *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
static inline jj_vec jj_vsplat(uint8_t c) { return _mm_set1_epi8((char)c); }
static inline jj_vec jj_vand(jj_vec a, jj_vec b) { return _mm_and_si128(a, b); }
static inline jj_vec jj_vor(jj_vec a, jj_vec b) { return _mm_or_si128(a, b); }
static inline jj_vec jj_vxor(jj_vec a, jj_vec b) { return _mm_xor_si128(a, b); }
static inline jj_vec jj_vsubs_u8(jj_vec a, jj_vec b) { return _mm_subs_epu8(a, b); }
static inline jj_vec jj_vtable16(const uint8_t *t) { return _mm_loadu_si128((const __m128i *)(const void *)t); }
static inline jj_vec jj_vlookup(jj_vec table, jj_vec idx) { return _mm_shuffle_epi8(table, idx); }
static inline jj_vec jj_vhigh_nibble(jj_vec v) { return _mm_and_si128(_mm_srli_epi16(v, 4), _mm_set1_epi8(0x0f)); }
#define jj_vprev(cur, prev, n) _mm_alignr_epi8((cur), (prev), 16 - (n))
static inline int jj_vnonzero(jj_vec v) { return !_mm_testz_si128(v, v); }

#include "compact_ssse3.h"

/* Line breaks and continuation bytes (10xxxxxx, below 0xc0 as signed bytes) of a
 * block, for jj_count_text. */
#define JJ_TEXT_BLOCK 1
static inline void jj_text_block(const uint8_t *block, uint64_t *newline, uint64_t *follow) {
    uint64_t n = 0, f = 0;
    for (int i = 0; i < 4; i++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(block + 16 * i));
        n |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))) << 16 * i;
        f |= (uint64_t)(uint32_t)_mm_movemask_epi8(_mm_cmplt_epi8(v, _mm_set1_epi8((char)0xc0))) << 16 * i;
    }
    *newline = n;
    *follow = f;
}

#include "stage1_body.h"
