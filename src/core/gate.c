/* The document gate (jetjson_gate.h): strings and bracket nesting followed over fed
 * bytes 64 at a time.
 *
 * Inside a container (the long part of a big document) a block is taken whole: its
 * escaped bytes from its backslashes (rare, walked one by one), its strings from its
 * unescaped quotes (a running XOR), its brackets outside strings counted (or walked,
 * when they may close the outermost container). That holds while every backslash is
 * inside a string (as in JSON); otherwise, and at the top level, the block is read
 * mark by mark, exactly as the byte-at-a-time rule says. */
#include "jetjson_gate.h"

#include "engine_internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define JJ_GATE_BLOCK 64

/* A block's marks, one bit per byte (bit i for p[i]), by kind. */
typedef struct jj_gate_marks {
    uint64_t quotes, backslashes, opens, closes;
} jj_gate_marks;

#if defined(__SSE2__)
/* The marks of the 16 bytes at p, at bit `shift` on. '[' and ']' are '{' and '}' with
 * bit 0x20 clear: after setting it one compare finds both of a kind. */
static inline void jj_gate_marks16(const uint8_t *p, unsigned shift, jj_gate_marks *m) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
    m->quotes |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('"'))) << shift;
    m->backslashes |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))) << shift;
    m->opens |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, _mm_set1_epi8('{'))) << shift;
    m->closes |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(folded, _mm_set1_epi8('}'))) << shift;
}
#endif

/* The marks of p[0..n), n <= 64. */
static inline jj_gate_marks jj_gate_find_marks(const uint8_t *p, size_t n) {
    jj_gate_marks m = {0, 0, 0, 0};
#if defined(__SSE2__)
    if (n == JJ_GATE_BLOCK) {
        for (unsigned k = 0; k < JJ_GATE_BLOCK; k += 16) jj_gate_marks16(p + k, k, &m);
        return m;
    }
#endif
    for (size_t i = 0; i < n; i++) {
        uint64_t bit = (uint64_t)1 << i;
        uint8_t c = p[i];
        if (c == '"') m.quotes |= bit;
        else if (c == '\\') m.backslashes |= bit;
        else if (c == '[' || c == '{') m.opens |= bit;
        else if (c == ']' || c == '}') m.closes |= bit;
    }
    return m;
}

/* The bits set in mask, by halves, nibbles and bytes summed in place (the baseline
 * x86-64 has no popcnt: the compiler's builtin would be a library call). */
static inline unsigned jj_gate_count(uint64_t mask) {
    mask -= (mask >> 1) & 0x5555555555555555u;
    mask = (mask & 0x3333333333333333u) + ((mask >> 2) & 0x3333333333333333u);
    mask = (mask + (mask >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
    return (unsigned)((mask * 0x0101010101010101u) >> 56);
}

/* A whole 64-byte block inside a container, when it is JSON-like (every backslash
 * inside a string): the state after it, and 64; or, when a bracket of it closes the
 * outermost container, the state after that bracket, its offset + 1 and *opens set.
 * 0, with *g untouched, for a block it cannot take so. */
static size_t jj_gate_take_block(jj_gate *g, const jj_gate_marks *m, int *opens) {
    /* the bytes that backslashes escape, as if every backslash were in a string */
    uint64_t escaped = 0, escaping = m->backslashes;
    int escaped_next = 0;
    if (g->escaped) {
        escaped = 1;
        escaping &= ~(uint64_t)1;
    }
    while (escaping) {
        unsigned j = (unsigned)jj_ctz64(escaping);
        escaping &= escaping - 1;
        if (j == JJ_GATE_BLOCK - 1) {
            escaped_next = 1;
        } else {
            escaped |= (uint64_t)1 << (j + 1);
            escaping &= ~((uint64_t)1 << (j + 1));
        }
    }
    uint64_t strings = jj_prefix_xor_shifts(m->quotes & ~escaped);
    if (g->in_string) strings = ~strings;
    if (m->backslashes & ~strings) return 0; /* one outside strings: read byte by byte */
    uint64_t opened = m->opens & ~strings, closed = m->closes & ~strings;
    long depth = g->depth;
    if ((long)jj_gate_count(closed) >= depth) {
        /* the outermost container may close here: its brackets in order */
        for (uint64_t brackets = opened | closed; brackets; brackets &= brackets - 1) {
            unsigned j = (unsigned)jj_ctz64(brackets);
            if (opened >> j & 1) {
                depth++;
            } else if (--depth <= 0) { /* outside strings, no escape pending */
                g->depth = depth;
                g->in_string = g->escaped = 0;
                *opens = 1;
                return j + 1;
            }
        }
    } else {
        depth += (long)jj_gate_count(opened) - (long)jj_gate_count(closed);
    }
    g->depth = depth;
    g->in_string = (int)(strings >> (JJ_GATE_BLOCK - 1));
    g->escaped = escaped_next;
    return JJ_GATE_BLOCK;
}

size_t jj_gate_scan(jj_gate *g, const uint8_t *buf, size_t len, int *opens) {
    size_t i = 0;
    *opens = 0;
    while (i < len) {
        if (!g->in_string && g->depth <= 0) {
            /* the top level: every byte but an opening one may end the document */
            uint8_t c = buf[i++];
            if (c == '"') g->in_string = 1;
            else if (c == '[' || c == '{') g->depth++;
            else {
                if (c == ']' || c == '}') g->depth--;
                *opens = 1;
                return i;
            }
            continue;
        }
        /* inside a string or a container: only the marks count. Leaving this state
         * (a top-level string's quote, the outermost bracket) opens the gate, so the
         * block is read to its end or to that byte. */
        size_t n = len - i < JJ_GATE_BLOCK ? len - i : JJ_GATE_BLOCK;
        jj_gate_marks m = jj_gate_find_marks(buf + i, n);
        if (n == JJ_GATE_BLOCK && g->depth > 0) {
            size_t took = jj_gate_take_block(g, &m, opens);
            i += took;
            if (*opens) return i;
            if (took) continue;
        }
        long depth = g->depth;
        int in_string = g->in_string;
        uint64_t mask = m.quotes | m.backslashes | m.opens | m.closes;
        if (g->escaped) { /* the block's first byte was escaped at the end of the last one */
            mask &= ~(uint64_t)1;
            g->escaped = 0;
        }
        while (mask) {
            unsigned j = (unsigned)jj_ctz64(mask);
            mask &= mask - 1;
            uint8_t c = buf[i + j];
            if (in_string) {
                if (c == '\\') {
                    if (j + 1 < n) mask &= ~((uint64_t)1 << (j + 1));
                    else g->escaped = 1;
                } else if (c == '"') {
                    in_string = 0;
                    if (depth <= 0) {
                        *opens = 1;
                        i += j + 1;
                        break;
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
                    break;
                }
            } /* a backslash outside strings, inside a container: nothing */
        }
        g->depth = depth;
        g->in_string = in_string;
        if (*opens) return i;
        i += n;
    }
    return i;
}
