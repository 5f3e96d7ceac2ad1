/* The document gate (jetjson_gate.h): strings and bracket nesting followed over fed
 * bytes, skipping 64 bytes at a time where none of them is " \ [ ] { }. */
#include "jetjson_gate.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define JJ_GATE_BLOCK 64

/* The bytes that can change the gate's state (anywhere but at the top level). */
static const uint8_t jj_gate_marks[256] = {['"'] = 1, ['\\'] = 1, ['['] = 1, [']'] = 1, ['{'] = 1, ['}'] = 1};

/* Bit i set where p[i] is one of the marks, for i < n (n <= 64). */
static uint64_t jj_gate_mask_portable(const uint8_t *p, size_t n) {
    uint64_t mask = 0;
    for (size_t i = 0; i < n; i++) mask |= (uint64_t)jj_gate_marks[p[i]] << i;
    return mask;
}

#if defined(__SSE2__)
/* The 16 bytes at p: ' " ', ' \ ', and (with bit 0x20 set) '{' or '}' for the brackets. */
static inline uint64_t jj_gate_mask16(const uint8_t *p) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20)); /* '[' -> '{', ']' -> '}' */
    __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')),
                                             _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                                _mm_or_si128(_mm_cmpeq_epi8(folded, _mm_set1_epi8('{')),
                                             _mm_cmpeq_epi8(folded, _mm_set1_epi8('}'))));
    return (uint64_t)(uint16_t)_mm_movemask_epi8(hits);
}
#endif

static inline uint64_t jj_gate_mask(const uint8_t *p, size_t n) {
#if defined(__SSE2__)
    if (n == JJ_GATE_BLOCK)
        return jj_gate_mask16(p) | jj_gate_mask16(p + 16) << 16 | jj_gate_mask16(p + 32) << 32 |
               jj_gate_mask16(p + 48) << 48;
#endif
    return jj_gate_mask_portable(p, n);
}

static inline unsigned jj_gate_lowest(uint64_t mask) {
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(mask);
#else
    unsigned i = 0;
    while (!(mask & 1)) mask >>= 1, i++;
    return i;
#endif
}

size_t jj_gate_scan(jj_gate *g, const uint8_t *buf, size_t len, int *opens) {
    long depth = g->depth;
    int in_string = g->in_string, escaped = g->escaped;
    size_t i = 0;
    *opens = 0;
    while (i < len) {
        if (!in_string && depth <= 0) {
            /* the top level: every byte but an opening one may end the document */
            uint8_t c = buf[i++];
            if (c == '"') in_string = 1;
            else if (c == '[' || c == '{') depth++;
            else {
                if (c == ']' || c == '}') depth--;
                *opens = 1;
                break;
            }
            continue;
        }
        /* inside a string or a container: only the marks count. Leaving this state
         * (a top-level string's quote, the outermost bracket) opens the gate, so the
         * block is read to its end or to that byte. */
        size_t n = len - i < JJ_GATE_BLOCK ? len - i : JJ_GATE_BLOCK;
        uint64_t mask = jj_gate_mask(buf + i, n);
        if (escaped) { /* the block's first byte was escaped at the end of the last one */
            mask &= ~(uint64_t)1;
            escaped = 0;
        }
        while (mask) {
            unsigned j = jj_gate_lowest(mask);
            mask &= mask - 1;
            uint8_t c = buf[i + j];
            if (in_string) {
                if (c == '\\') {
                    if (j + 1 < n) mask &= ~((uint64_t)1 << (j + 1));
                    else escaped = 1;
                } else if (c == '"') {
                    in_string = 0;
                    if (depth <= 0) {
                        *opens = 1;
                        i += j + 1;
                        goto done;
                    }
                }
            } else if (c == '"') {
                in_string = 1;
            } else if (c == '[' || c == '{') {
                depth++;
            } else if (c == ']' || c == '}') {
                if (--depth <= 0) {
                    *opens = 1;
                    i += j + 1;
                    goto done;
                }
            } /* a backslash outside strings, inside a container: nothing */
        }
        i += n;
    }
done:
    g->depth = depth;
    g->in_string = in_string;
    g->escaped = escaped;
    return i;
}
