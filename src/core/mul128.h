/* jetjson: the full 128-bit product of two 64-bit integers, for the number formatters. */
#ifndef JJ_MUL128_H
#define JJ_MUL128_H

#include <stdint.h>

/* a * b: returns the high 64 bits and stores the low 64 bits in *lo. */
#if defined(__SIZEOF_INT128__)
static inline uint64_t jj_mul128(uint64_t a, uint64_t b, uint64_t *lo)
{
    __extension__ typedef unsigned __int128 jj_u128;
    jj_u128 p = (jj_u128)a * b;
    *lo = (uint64_t)p;
    return (uint64_t)(p >> 64);
}
#else
static inline uint64_t jj_mul128(uint64_t a, uint64_t b, uint64_t *lo)
{
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *lo = (mid << 32) | (uint32_t)p00;
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
#endif

#endif
