/* Stage 2's value readers: strings (unescaped into the string buffer when they have
 * escapes), numbers and words into tape words. The walk that calls them is the tape
 * consumer of walk_body.h (jj_stage2); iterative, with an explicit stack of open
 * containers, so input depth never grows the C stack.
 *
 * Included by stage1_body.h, so that the string scanner of each ISA (jj_scan_string) is
 * inlined here. The caller (jj_parse_with) has sized the tape (two words per index
 * entry), the stack (one per entry) and the string buffer (the input length). */
#include <string.h>

#include "number_fast.h"

#define JJ_WORD(type, payload) (((uint64_t)(type) << 56) | (uint64_t)(payload))

/* Bytes that may follow a literal or a number. */
static const uint8_t jj_ends_token[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1,
    [','] = 1, [':'] = 1, [']'] = 1, ['}'] = 1, ['['] = 1, ['{'] = 1,
};

/* What a value's first byte starts, as a dense number: a switch on it (the walk's, the
 * lazy stage 2's) is one table jump, where on the bytes themselves the compiler makes
 * two levels of tests (about 6 instructions more a value). */
enum {
    JJ_V_BAD, JJ_V_OBJECT, JJ_V_ARRAY, JJ_V_STRING, JJ_V_TRUE, JJ_V_FALSE, JJ_V_NULL,
    JJ_V_NAN, JJ_V_INF, JJ_V_MINUS, JJ_V_DIGIT
};
static const uint8_t jj_value_start[256] = {
    ['{'] = JJ_V_OBJECT, ['['] = JJ_V_ARRAY, ['"'] = JJ_V_STRING, ['t'] = JJ_V_TRUE,
    ['f'] = JJ_V_FALSE, ['n'] = JJ_V_NULL, ['N'] = JJ_V_NAN, ['I'] = JJ_V_INF, ['-'] = JJ_V_MINUS,
    ['0'] = JJ_V_DIGIT, ['1'] = JJ_V_DIGIT, ['2'] = JJ_V_DIGIT, ['3'] = JJ_V_DIGIT, ['4'] = JJ_V_DIGIT,
    ['5'] = JJ_V_DIGIT, ['6'] = JJ_V_DIGIT, ['7'] = JJ_V_DIGIT, ['8'] = JJ_V_DIGIT, ['9'] = JJ_V_DIGIT,
};

static inline int jj_token_ends_at(const uint8_t *p, const uint8_t *end) {
    return p == end || jj_ends_token[*p];
}

static inline int jj_word_at(const uint8_t *p, const uint8_t *end, const char *word, size_t n) {
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0 && jj_token_ends_at(p + n, end);
}

/* Hex digit value + 1; 0 for any other byte. */
static const uint8_t jj_hex_plus1[256] = {
    ['0'] = 1,  ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,
    ['7'] = 8,  ['8'] = 9,  ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14,
    ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15,
    ['F'] = 16,
};

/* Four hex digits at p (bounds checked by the caller), or -1. */
static inline int32_t jj_hex4(const uint8_t *p) {
    int32_t a = jj_hex_plus1[p[0]] - 1, b = jj_hex_plus1[p[1]] - 1, c = jj_hex_plus1[p[2]] - 1,
            d = jj_hex_plus1[p[3]] - 1;
    if ((a | b | c | d) < 0) return -1;
    return a << 12 | b << 8 | c << 4 | d;
}

/* Code point as UTF-8; a lone surrogate takes the 3-byte form (WTF-8). */
static inline uint8_t *jj_put_code_point(uint8_t *d, uint32_t cp) {
    if (cp < 0x80) {
        *d++ = (uint8_t)cp;
    } else if (cp < 0x800) {
        *d++ = (uint8_t)(0xc0 | cp >> 6);
        *d++ = (uint8_t)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        *d++ = (uint8_t)(0xe0 | cp >> 12);
        *d++ = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
        *d++ = (uint8_t)(0x80 | (cp & 0x3f));
    } else {
        *d++ = (uint8_t)(0xf0 | cp >> 18);
        *d++ = (uint8_t)(0x80 | ((cp >> 12) & 0x3f));
        *d++ = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
        *d++ = (uint8_t)(0x80 | (cp & 0x3f));
    }
    return d;
}

/* Decodes the escape at p (p[0] == '\\') into *d. Returns the position after it, or
 * NULL. Surrogate pairs written as two escapes become one code point, as in json. */
static inline const uint8_t *jj_unescape(const uint8_t *p, const uint8_t *end, uint8_t **d,
                                         jj_str_scan *info) {
    if (end - p < 2) return NULL;
    uint8_t c = p[1];
    uint8_t simple;
    switch (c) {
    case '"': simple = '"'; break;
    case '\\': simple = '\\'; break;
    case '/': simple = '/'; break;
    case 'b': simple = '\b'; break;
    case 'f': simple = '\f'; break;
    case 'n': simple = '\n'; break;
    case 'r': simple = '\r'; break;
    case 't': simple = '\t'; break;
    case 'u': {
        if (end - p < 6) return NULL;
        int32_t cp = jj_hex4(p + 2);
        if (cp < 0) return NULL;
        p += 6;
        if (cp >= 0xd800 && cp <= 0xdbff && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
            int32_t low = jj_hex4(p + 2);
            if (low < 0) return NULL; /* json rejects a broken second escape here */
            if (low >= 0xdc00 && low <= 0xdfff) {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
                p += 6;
            }
        }
        if (cp >= 0x80) {
            info->seen |= JJ_SCAN_NON_ASCII | (cp >= 0x100 ? JJ_STR_WIDE2 : 0u) |
                          (cp >= 0x10000 ? JJ_STR_WIDE4 : 0u);
            info->continuations += cp < 0x800 ? 1u : cp < 0x10000 ? 2u : 3u;
        }
        *d = jj_put_code_point(*d, (uint32_t)cp);
        return p;
    }
    default: return NULL;
    }
    *(*d)++ = simple;
    return p + 2;
}

/* Like jj_scan_string, but also copies the bytes it passes to d, a whole step at a time
 * (the string buffer has JJ_STRING_SLACK bytes of room past the input length). */
static inline size_t jj_copy_scan(const uint8_t *s, const uint8_t *end, uint8_t *d,
                                  jj_str_scan *info) {
    const uint8_t *start = s;
    while ((size_t)(end - s) >= JJ_SCAN_STEP) {
        memcpy(d, s, JJ_SCAN_STEP);
        uint32_t hits = jj_scan_step(s, info);
        if (hits) return (size_t)(s - start) + (size_t)__builtin_ctz(hits);
        s += JJ_SCAN_STEP;
        d += JJ_SCAN_STEP;
    }
    size_t rest = jj_scan_string(s, end, info); /* fewer than a step left: its byte loop */
    memcpy(d, s, rest);
    return (size_t)(s - start) + rest;
}

/* The tape words of a string: flags and offset, then byte length and code points. */
static inline void jj_put_string(uint64_t *w, unsigned flags, uint64_t offset, size_t bytes,
                                  const jj_str_scan *info) {
    if (!(info->seen & JJ_SCAN_NON_ASCII)) flags |= JJ_STR_ASCII;
    flags |= info->seen & (JJ_STR_WIDE2 | JJ_STR_WIDE4);
    w[0] = JJ_WORD(JJ_STRING, (uint64_t)flags << 48 | offset);
    w[1] = (uint64_t)bytes | (uint64_t)(bytes - info->continuations) << 32;
}

/* The rest of a string that has escapes: copied, unescaped, into the string buffer.
 * s..c is the first run of plain bytes, c the first byte that stopped the scan. */
__attribute__((noinline)) static const uint8_t *jj_string_escaped(
    jj_parser *p, const uint8_t *end, const uint8_t *q, const uint8_t *s, const uint8_t *c,
    jj_str_scan info, uint64_t *w, jj_error *err) {
    uint8_t *start = p->strings + p->strings_len;
    uint8_t *d = start;
    memcpy(d, s, (size_t)(c - s));
    d += c - s;
    for (;;) {
        if (c >= end) {
            *err = JJ_ERR_UNCLOSED_STRING;
            return q;
        }
        if (*c == '"') break;
        if (*c != '\\') {
            *err = JJ_ERR_CONTROL_CHAR;
            return c;
        }
        s = jj_unescape(c, end, &d, &info);
        if (!s) {
            *err = JJ_ERR_ESCAPE;
            return c;
        }
        if (s < end && *s == '\\') { /* escapes often come in runs (\uXXXX\uXXXX...) */
            c = s;
            continue;
        }
        size_t run = jj_copy_scan(s, end, d, &info);
        c = s + run;
        d += run;
    }
    jj_put_string(w, 0, (uint64_t)(start - p->strings), (size_t)(d - start), &info);
    p->strings_len += (size_t)(d - start);
    return c + 1;
}

/* The string at q scanned (no unsafe bits, or they said no): two tape words at w. */
__attribute__((noinline)) static const uint8_t *jj_string_scanned(jj_parser *p, const uint8_t *buf,
                                                                  const uint8_t *end, const uint8_t *q,
                                                                  uint64_t *w, jj_error *err) {
    const uint8_t *s = q + 1;
    jj_str_scan info = {0, 0};
    const uint8_t *c = s + jj_scan_string(s, end, &info);
    if (__builtin_expect(c < end && *c == '"', 1)) {
        jj_put_string(w, JJ_STR_IN_INPUT, (uint64_t)(s - buf), (size_t)(c - s), &info);
        return c + 1;
    }
    return jj_string_escaped(p, end, q, s, c, info, w, err);
}

/* Whether the n bytes at s (n >= 1) are plain ASCII text: no backslash, no control
 * byte, none >= 0x80. Reads only within [lo, hi): the last step is the one that ends
 * at s + n, or, near lo, the one that starts at s. */
static inline int jj_plain_ascii(const uint8_t *s, size_t n, const uint8_t *lo, const uint8_t *hi) {
    while (n > JJ_SCAN_STEP) {
        if (jj_unsafe_step(s)) return 0;
        s += JJ_SCAN_STEP;
        n -= JJ_SCAN_STEP;
    }
    const unsigned rest = (unsigned)n; /* 1 ..= JJ_SCAN_STEP: no shift by the width */
    if ((size_t)(s - lo) + rest >= JJ_SCAN_STEP)
        return !(jj_unsafe_step(s + rest - JJ_SCAN_STEP) >> (JJ_SCAN_STEP - rest));
    if ((size_t)(hi - s) >= JJ_SCAN_STEP)
        return !(jj_unsafe_step(s) & ((UINT32_C(2) << (rest - 1)) - 1));
    for (size_t i = 0; i < rest; i++)
        if (s[i] == '\\' || s[i] < 0x20 || s[i] >= 0x80) return 0;
    return 1;
}

/* What a one-character escape (the byte after the backslash) stands for; 0 for the
 * others (\u and the invalid ones). */
static const uint8_t jj_simple_escape[256] = {
    ['"'] = '"', ['\\'] = '\\', ['/'] = '/', ['b'] = '\b',
    ['f'] = '\f', ['n'] = '\n', ['r'] = '\r', ['t'] = '\t',
};

/* jj_string_escaped for the rest of a string from s (a backslash, or a byte the scan
 * goes on from), `done` bytes of
 * ASCII text already unescaped at the end of the string buffer: its tape words then
 * cover them too. */
static const uint8_t *jj_string_escaped_from(jj_parser *p, const uint8_t *end, const uint8_t *q,
                                             const uint8_t *s, size_t done, uint64_t *w, jj_error *err) {
    p->strings_len += done;
    jj_str_scan info = {0, 0};
    const uint8_t *stop = *s == '\\' ? s : s + jj_scan_string(s, end, &info); /* a byte >= 0x80 */
    const uint8_t *after = jj_string_escaped(p, end, q, s, stop, info, w, err);
    if (*err) {
        p->strings_len -= done;
        return after;
    }
    w[0] -= done;                                 /* the offset, in the low bits */
    w[1] += done + ((uint64_t)done << 32);        /* bytes and code points */
    return after;
}

/* A string whose closing quote is known to be at c and that is not plain ASCII. Its
 * ASCII text with one-character escapes (most often \" in titles) is unescaped into the
 * string buffer a step at a time, the backslashes found by the vector test of
 * jj_plain_ascii, with no search for the end. At a byte >= 0x80 (or a control byte)
 * before any escape it goes on as jj_string_scanned, without scanning the text before
 * that byte again. NULL when it meets what jj_string_scanned must judge from the start
 * (\u, a bad escape, such a byte after an escape, a step that would read past end). */
static inline __attribute__((always_inline)) const uint8_t *jj_string_known_end(
    jj_parser *p, const uint8_t *buf, const uint8_t *end, const uint8_t *q, const uint8_t *c, uint64_t *w,
    jj_error *err) {
    const uint8_t *s = q + 1;
    uint8_t *start = p->strings + p->strings_len;
    uint8_t *d = start;
    for (;;) {
        size_t left = (size_t)(c - s);
        if (left == 0) break;
        if ((size_t)(end - s) < JJ_SCAN_STEP) return NULL;
        uint32_t hits = jj_unsafe_step(s);
        if (left < JJ_SCAN_STEP) hits &= (UINT32_C(1) << left) - 1; /* the bytes past c are not the string's */
        memcpy(d, s, JJ_SCAN_STEP); /* the string buffer has JJ_STRING_SLACK bytes of room */
        if (!hits) {
            size_t took = left < JJ_SCAN_STEP ? left : JJ_SCAN_STEP;
            s += took;
            d += took;
            continue;
        }
        unsigned k = (unsigned)__builtin_ctz(hits);
        s += k;
        d += k;
        uint8_t unescaped = jj_simple_escape[s[1]];
        if (*s != '\\' || !unescaped) { /* a byte >= 0x80, a control byte, \u... */
            if (d - start == s - (q + 1)) { /* no escape before it: the input holds the text */
                jj_str_scan info = {0, 0};
                const uint8_t *stop = s + jj_scan_string(s, end, &info);
                if (stop != c) return jj_string_escaped(p, end, q, q + 1, stop, info, w, err);
                jj_put_string(w, JJ_STR_IN_INPUT, (uint64_t)(q + 1 - buf), (size_t)(c - q) - 1, &info);
                return c + 1;
            }
            return jj_string_escaped_from(p, end, q, s, (size_t)(d - start), w, err);
        }
        /* a backslash just before c would escape the closing quote: not a string */
        if (s + 1 >= c) return NULL;
        *d++ = unescaped;
        s += 2;
    }
    jj_str_scan ascii = {0, 0};
    jj_put_string(w, 0, (uint64_t)(start - p->strings), (size_t)(d - start), &ascii);
    p->strings_len += (size_t)(d - start);
    return c + 1;
}

/* What jj_string's inline test does not take: by its known end c (NULL when not
 * known), else scanned. One call at the walk's string sites, so they stay small. */
__attribute__((noinline)) static const uint8_t *jj_string_rest(jj_parser *p, const uint8_t *buf,
                                                               const uint8_t *end, const uint8_t *q,
                                                               const uint8_t *c, uint64_t *w, jj_error *err) {
    if (c && *c == '"' && c > q && c < end && (size_t)(end - q) > JJ_SCAN_STEP) {
        /* text whose first byte past ASCII is >= 0x80 (not a backslash) is scanned: the
         * step at a time copy would gain nothing there */
        uint32_t hits = jj_unsafe_step(q + 1);
        if (!hits || q[1 + __builtin_ctz(hits)] == '\\') {
            const uint8_t *after = jj_string_known_end(p, buf, end, q, c, w, err);
            if (after) return after;
        }
    }
    return jj_string_scanned(p, buf, end, q, w, err);
}

/* The string whose opening quote is at q; `next` is the index entry after it (NULL for
 * the last entry). Writes two tape words at w. Most strings have no escape: they stay
 * in the input and the tape points at them.
 *
 * With a next entry the string's end is known without a scan: its closing quote is the
 * last non-space byte before that entry (any other byte there would have started an
 * entry). When no byte between the quotes is a backslash, that quote is the first one
 * after q (an earlier, unescaped one would have closed the string, and the quote at
 * the end would then open another, an entry too); when none is a control byte or
 * >= 0x80 either, the string is plain ASCII, checked a vector at a time with no
 * search for the end, and its tape words are known. Otherwise it is scanned. */
static inline __attribute__((always_inline)) const uint8_t *jj_string(
    jj_parser *p, const uint8_t *buf, const uint8_t *end, const uint8_t *q, const uint32_t *next,
    uint64_t *w, jj_error *err) {
    const uint8_t *c = NULL;
    if (next) {
        c = buf + *next - 1;
        while (*c <= ' ' && c > q) c--; /* only spaces can be there */
        size_t bytes = (size_t)(c - q) - 1;
        if (__builtin_expect(*c == '"' && c > q && c < end &&
                                 (bytes == 0 || jj_plain_ascii(q + 1, bytes, buf, end)), 1)) {
            w[0] = JJ_WORD(JJ_STRING, (uint64_t)(JJ_STR_IN_INPUT | JJ_STR_ASCII) << 48 | (uint64_t)(q + 1 - buf));
            w[1] = (uint64_t)bytes | (uint64_t)bytes << 32;
            return c + 1;
        }
    }
    return jj_string_rest(p, buf, end, q, c, w, err);
}

static inline uint64_t jj_double_bits(double d) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

#if defined(__SSSE3__) && defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define JJ_NUMBER_FAST_TAPE 1
#endif

/* What jj_fast_number_tape does not take: exponents, long integers, the last
 * JJ_NUMBER_FAST_ROOM bytes, errors. Out of line where that is the rare case, so that
 * the grammar walk keeps its registers. */
#ifdef JJ_NUMBER_FAST_TAPE
__attribute__((noinline)) static
#else
static inline
#endif
int jj_put_number_general(const uint8_t *buf, const uint8_t *end, size_t pos, uint64_t *w) {
    jj_number num;
    const uint8_t *after = jj_parse_number_fast(buf + pos, end, &num);
    if (!after || !jj_token_ends_at(after, end)) return 0;
    jj_tape_put_number(w, &num, pos, (size_t)(after - (buf + pos)));
    if (num.kind == JJ_NUM_INT64 && num.v.i == 0 && buf[pos] == '-') w[0] |= JJ_INT_MINUS_ZERO;
    return 1;
}

/* The number at buf[pos] (a digit or '-' not followed by 'I') into the two tape words
 * at w; 0 when it is not a valid number token. `inlined`, a constant: the fast path
 * inlined (jj_number_run) or called. */
static inline __attribute__((always_inline)) int jj_put_number_with(const uint8_t *buf, const uint8_t *end,
                                                                    size_t pos, uint64_t *w, const int inlined) {
#ifdef JJ_NUMBER_FAST_TAPE
    if (end - (buf + pos) >= JJ_NUMBER_FAST_ROOM) {
        const uint8_t *after = inlined ? jj_fast_number_tape_inline(buf + pos, w) : jj_fast_number_tape(buf + pos, w);
        if (after && jj_ends_token[*after]) return 1; /* room left: after < end */
    }
#else
    (void)inlined;
#endif
    return jj_put_number_general(buf, end, pos, w);
}

static inline int jj_put_number(const uint8_t *buf, const uint8_t *end, size_t pos, uint64_t *w) {
    return jj_put_number_with(buf, end, pos, w, 0);
}

/* A value at p that jj_put_number takes: a digit, or '-' that does not start -Infinity. */
static inline int jj_starts_number(const uint8_t *p, const uint8_t *end) {
    return (uint8_t)(*p - '0') < 10 || (*p == '-' && (end - p < 2 || p[1] != 'I'));
}

/* The numbers that follow a number in an array (coordinates, vectors), from the one at
 * index entry *i: parsed into the tape at *t until the array has something else, the
 * count in a register; returns that count less one, or SIZE_MAX with *i at the bad
 * number. Out of line: inlined, it cost the grammar walk registers (+1-2% instructions
 * on documents without such arrays). */
__attribute__((noinline)) static size_t jj_number_run(const uint8_t *buf, const uint8_t *end,
                                                      const uint32_t *idx, size_t n, size_t *i,
                                                      uint64_t *tape, size_t *t) {
    size_t k = *i, at = *t, more = 0;
    for (;;) {
        if (!jj_put_number_with(buf, end, idx[k], tape + at, 1)) {
            *i = k;
            return SIZE_MAX;
        }
        at += 2;
        k++;
        if (k + 1 >= n || buf[idx[k]] != ',' || !jj_starts_number(buf + idx[k + 1], end)) break;
        k++;
        more++;
    }
    *i = k;
    *t = at;
    return more;
}
