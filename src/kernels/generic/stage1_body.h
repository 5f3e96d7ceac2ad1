/* Stage 1 and the string scanner, written once and compiled per ISA.
 *
 * The including file defines, before including this one:
 *   JJ_ISA_NAME                    string name of the ISA
 *   JJ_KERNELS_SYMBOL              name of the jj_kernels object to define
 *   static void jj_classify(const uint8_t *block64, jj_block_masks *m)
 *   static uint64_t jj_prefix_xor(uint64_t x)
 *   JJ_SCAN_STEP                   bytes the string scanner handles per step
 *   static uint32_t jj_scan_step(const uint8_t *p, jj_str_scan *info)
 *       bit i set when p[i] is '"', '\\' or < 0x20; notes the bytes before the first
 *       such byte in *info
 *   static uint32_t jj_unsafe_step(const uint8_t *p)
 *       bit i set when p[i] is '\\', < 0x20 or >= 0x80 (JJ_SCAN_STEP bytes)
 *   static uint8_t *jj_compact64(const uint8_t *block, uint64_t keep, uint8_t *out)
 *       for the minifier, see minify_body.h
 * and may define JJ_KERNEL_FLATTEN and its own jj_flatten (see below);
 * and may define JJ_CLASSIFY_CONSTS with a type jj_classify_consts,
 *   static jj_classify_consts jj_classify_consts_make(int opaque)
 *   static void jj_classify_with(const jj_classify_consts *, const uint8_t *block64, jj_block_masks *m)
 *       constants made once before stage 1's loop (opaque: hidden from constant folding);
 * and, for a SIMD ISA, JJ_VEC_BYTES and the vector operations of utf8_body.h.
 */
#include "kernel_internal.h"

static inline int jj_popcount64(uint64_t x) { return __builtin_popcountll(x); }

/* The bytes a backslash escapes: those after an odd-length run of backslashes (the
 * backslashes escaped inside a run are left out: only quotes and escape letters are
 * looked at). *carry says whether byte 0 of the next block is escaped. Without a
 * branch per backslash: text with many escapes (\uXXXX runs, "\/" in URLs) put
 * mispredictions in the block loop.
 *
 * A run [s, e) has odd length when s and e differ in parity. Adding its start bit to
 * the run carries through it and sets bit e; doing so for the runs that start at odd
 * positions tells their ends from the ends of the runs that start even. */
static inline uint64_t jj_escaped_bytes(uint64_t backslash, uint64_t *carry) {
    const uint64_t even = UINT64_C(0x5555555555555555);
    const uint64_t escaped_first = *carry;
    backslash &= ~escaped_first; /* a backslash that is itself escaped starts nothing */
    uint64_t ends = (backslash << 1) & ~backslash;
    uint64_t odd_starts = backslash & ~(backslash << 1) & ~even;
    uint64_t sum;
    *carry = __builtin_add_overflow(backslash, odd_starts, &sum); /* an odd run up to bit 63 */
    uint64_t ends_of_odd_starts = sum & ~backslash;
    uint64_t ends_of_even_starts = ends & ~ends_of_odd_starts;
    return (ends_of_odd_starts & even) | (ends_of_even_starts & ~even) | escaped_first;
}

/* The index of the lowest set bit of x; for x = 0 any value below 65 (the flatten below
 * writes such entries only past its count). No test for 0: gcc turns one into a branch
 * per entry. On a BMI target this is tzcnt itself. */
#if defined(__BMI__)
#include <immintrin.h>
static inline uint32_t jj_low_bit(uint64_t x) { return (uint32_t)_tzcnt_u64(x); }
#else
static inline uint32_t jj_low_bit(uint64_t x) { return (uint32_t)jj_ctz64(x | UINT64_C(1) << 63); }
#endif

/* Appends the positions of the set bits of `bits` (offset by `base`) to out. Eight at a
 * time without a branch, then eight more, then four at a time: most blocks take one or
 * two steps, whatever their count. Writes past the count (up to 15 entries) land in room
 * the caller reserved. */
#ifndef JJ_KERNEL_FLATTEN
static inline uint32_t *jj_flatten(uint32_t *out, uint32_t base, uint64_t bits) {
    int count = jj_popcount64(bits);
    uint32_t *stop = out + count;
    for (int k = 0; k < 8; k++) {
        out[k] = base + jj_low_bit(bits);
        bits &= bits - 1;
    }
    if (count > 8) {
        for (int k = 8; k < 16; k++) {
            out[k] = base + jj_low_bit(bits);
            bits &= bits - 1;
        }
        out += 16;
        while (bits) {
            for (int k = 0; k < 4; k++) {
                out[k] = base + jj_low_bit(bits);
                bits &= bits - 1;
            }
            out += 4;
        }
    }
    return stop;
}
#endif

#if defined(JJ_VEC_BYTES)
#include "utf8_body.h"
#endif

/* Checks the escapes of one block for the lazy stage 1: each escaped byte inside a
 * string (bit set in `inside`) must name an escape json knows, and \u four hex digits.
 * Returns 0 when one does not. */
static int jj_escapes_ok(const uint8_t *buf, size_t len, size_t base, const uint8_t *block,
                         uint64_t inside) {
    while (inside) {
        int i = jj_ctz64(inside);
        inside &= inside - 1;
        switch (block[i]) {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't': continue;
        case 'u': {
            size_t at = base + (size_t)i;
            if (at + 4 < len && jj_lazy_hex4_ok(buf + at + 1)) continue;
            return 0;
        }
        default: return 0;
        }
    }
    return 1;
}

/* Sets bit 31 of the index entry of each string that holds one of the backslashes in
 * `inside` (bits of the block at `base`): the opening quote of that string is the last
 * entry before the backslash, as nothing inside a string is an entry. */
static void jj_flag_escaped(const uint32_t *out, uint32_t *w, size_t base, uint64_t inside) {
    /* from the last backslash back, so that the walk over the entries goes one way */
    uint32_t *e = w;
    while (inside) {
        uint32_t b = (uint32_t)(base + (size_t)(63 - __builtin_clzll(inside)));
        while (e > out && (e[-1] & JJ_LAZY_POS) > b) e--;
        if (e == out) return;
        e[-1] |= JJ_LAZY_ESCAPED;
        /* the backslashes after that quote are in the same string: flagged with it */
        size_t quote = e[-1] & JJ_LAZY_POS;
        inside &= quote > base ? (UINT64_C(1) << (quote - base)) - 1 : 0;
    }
}

/* The lazy stage 1's work on a block with a backslash (or whose byte 0 is escaped), out
 * of the block loop: rare in most text, and the loop keeps its registers. Returns 0 on a
 * bad escape. */
static __attribute__((noinline)) int jj_lazy_backslashes(const uint8_t *buf, size_t len, size_t base,
                                                         const uint8_t *block, uint64_t escaped_inside,
                                                         uint64_t backslash_inside, const uint32_t *out,
                                                         uint32_t *w) {
    if (escaped_inside && !jj_escapes_ok(buf, len, base, block, escaped_inside)) return 0;
    jj_flag_escaped(out, w, base, backslash_inside);
    return 1;
}

/* What stage 1 adds to the index (a constant of each instance below). */
#define JJ_STAGE1_PLAIN 0   /* positions only */
#define JJ_STAGE1_LAZY 1    /* string contents checked, and the escape flags of stage1_lazy */
#define JJ_STAGE1_CHECKED 2 /* string contents checked, positions only (stage1_checked) */
#define JJ_STAGE1_LINES 3   /* as CHECKED, and each '\n' outside strings an entry too */

/* The '\n' among the whitespace control bytes (\t \n \r) of a block: about one a line,
 * so a loop over them costs less than another compare in every ISA's classification. */
static inline uint64_t jj_newlines(const uint8_t *block, uint64_t candidates) {
    uint64_t found = 0;
    while (candidates) {
        int i = jj_ctz64(candidates);
        candidates &= candidates - 1;
        if (block[i] == '\n') found |= UINT64_C(1) << i;
    }
    return found;
}

/* The checked stage 1's work on a block with an escape inside a string, out of the
 * block loop like jj_lazy_backslashes. Returns 0 on a bad escape. */
static __attribute__((noinline)) int jj_checked_escapes(const uint8_t *buf, size_t len, size_t base,
                                                        const uint8_t *block, uint64_t escaped_inside) {
    return jj_escapes_ok(buf, len, base, block, escaped_inside);
}

/* What stage 1 carries from one block to the next. */
typedef struct jj_stage1_state {
#if defined(JJ_VEC_BYTES)
    jj_utf8_state utf8;
#endif
    uint32_t *w;            /* the next entry to write */
    uint64_t escape_carry;  /* byte 0 of this block is escaped */
    uint64_t in_string;     /* all ones when the block starts inside a string */
    uint64_t scalar_carry;  /* the last byte of the previous block was in a token */
    size_t utf8_done;       /* input validated up to here */
    uint64_t bad_control;   /* lazy: control bytes inside strings, of every block */
    /* A block's entries are written during the next block (so at base - 64): the
     * flatten's branches then depend on values long known, so a mispredicted one costs
     * little. */
    uint64_t pending;
} jj_stage1_state;

/* One block (`block`, the input at `base`, or the padded copy of the last bytes).
 * Returns 0 on an error it sets. */
static inline __attribute__((always_inline)) int jj_stage1_block(
    jj_stage1_state *st, const uint8_t *buf, size_t len, uint32_t *out, const uint8_t *block, size_t base,
    jj_error *err, size_t *err_off, const int mode
#if defined(JJ_CLASSIFY_CONSTS)
    , const jj_classify_consts *consts
#endif
) {
    const int check_strings = mode != JJ_STAGE1_PLAIN;
    st->w = jj_flatten(st->w, (uint32_t)base - 64u, st->pending);
    jj_block_masks m;
#if defined(JJ_CLASSIFY_CONSTS)
    jj_classify_with(consts, block, &m);
#else
    jj_classify(block, &m);
#endif

#if defined(JJ_VEC_BYTES)
    jj_utf8_check_block(&st->utf8, block, m.high);
#else
    if (m.high && base + 64 > st->utf8_done) {
        size_t first = base + (size_t)jj_ctz64(m.high);
        size_t from = first > st->utf8_done ? first : st->utf8_done;
        size_t stop = base + (len - base < 64 ? len - base : 64);
        size_t done = jj_utf8_validate_span(buf, len, from, stop, err_off);
        if (done == (size_t)-1) {
            *err = JJ_ERR_UTF8;
            return 0;
        }
        st->utf8_done = done;
    }
#endif

    const uint64_t has_escapes = m.backslash | st->escape_carry;
    uint64_t escaped = has_escapes ? jj_escaped_bytes(m.backslash, &st->escape_carry) : 0;
    uint64_t quotes = m.quote & ~escaped;
    uint64_t strings = jj_prefix_xor(quotes) ^ st->in_string; /* opening quote in, closing out */
    st->in_string = (uint64_t)((int64_t)strings >> 63);

    uint64_t outside = ~strings;
    uint64_t op = m.op & outside;
    uint64_t scalar = ~(m.op | m.space | m.quote) & outside;
    uint64_t token_start = scalar & ~((scalar << 1) | st->scalar_carry);
    st->scalar_carry = scalar >> 63;
    uint64_t opening_quotes = quotes & strings;
    st->pending = op | opening_quotes | token_start;
    if (mode == JJ_STAGE1_LINES) st->pending |= jj_newlines(block, m.control & m.space & outside);
    if (check_strings) {
        /* the offset of a failure is no matter (the caller asks the plain path for
         * it), so control bytes are only gathered here, and looked at once at the end */
        st->bad_control |= m.control & strings;
        /* tested on the masks themselves, not on has_escapes: that flag would stay live
         * (on the stack) through the block. Escapes outside strings are no matter here. */
        if (mode == JJ_STAGE1_LAZY && ((escaped | m.backslash) & strings)) {
            st->w = jj_flatten(st->w, (uint32_t)base, st->pending); /* it looks back at these entries */
            st->pending = 0;
            if (!jj_lazy_backslashes(buf, len, base, block, escaped & strings, m.backslash & strings, out, st->w)) {
                *err = JJ_ERR_ESCAPE;
                *err_off = base;
                return 0;
            }
        } else if (mode != JJ_STAGE1_LAZY && (escaped & strings) &&
                   !jj_checked_escapes(buf, len, base, block, escaped & strings)) {
            *err = JJ_ERR_ESCAPE;
            *err_off = base;
            return 0;
        }
    }
    return 1;
}

#if defined(JJ_CLASSIFY_CONSTS)
#define JJ_STAGE1_CONSTS_ARG , &consts
#else
#define JJ_STAGE1_CONSTS_ARG
#endif

/* What stage 1 adds for its three uses (`mode`, a constant: JJ_STAGE1_*). The full
 * blocks are read in place, in a loop of their own (no choice of the block's address at
 * every block); the last, partial block from a copy padded with spaces, made before the
 * loop: a call inside it would cost the vector registers (the constants of the
 * classification, the UTF-8 state) at every block. */
static inline __attribute__((always_inline)) size_t jj_stage1_body(
    const uint8_t *buf, size_t len, uint32_t *out, jj_error *err, size_t *err_off, const int mode) {
    jj_stage1_state st = {0};
#if defined(JJ_VEC_BYTES)
    jj_utf8_init(&st.utf8);
#endif
    st.w = out;
    const size_t full = len & ~(size_t)63;
    uint8_t tail[64];
    memset(tail, ' ', sizeof tail);
    if (len > full) memcpy(tail, buf + full, len - full);

#if defined(JJ_CLASSIFY_CONSTS)
    const jj_classify_consts consts = jj_classify_consts_make(1);
#endif

    for (size_t base = 0; base < full; base += 64) {
        if (!jj_stage1_block(&st, buf, len, out, buf + base, base, err, err_off, mode JJ_STAGE1_CONSTS_ARG))
            return 0;
    }
    if (len > full &&
        !jj_stage1_block(&st, buf, len, out, tail, full, err, err_off, mode JJ_STAGE1_CONSTS_ARG))
        return 0;
    const size_t last_base = len > full ? full : full - 64; /* the last block's */
    uint32_t *w = jj_flatten(st.w, (uint32_t)last_base, st.pending);
    if (st.bad_control) {
        *err = JJ_ERR_CONTROL_CHAR;
        *err_off = len;
        return 0;
    }
#if defined(JJ_VEC_BYTES)
    if (jj_utf8_failed(&st.utf8)) {
        /* find the exact offset the slow way; this is the error path */
        if (jj_utf8_validate_span(buf, len, 0, len, err_off) != (size_t)-1) *err_off = len;
        *err = JJ_ERR_UTF8;
        return 0;
    }
#endif
    if (st.in_string) {
        /* at the string's opening quote: the last entry, as nothing inside a string is
         * one (where a stream cuts a buffer that ends inside a string) */
        *err = JJ_ERR_UNCLOSED_STRING;
        *err_off = w > out ? (size_t)(w[-1] & (mode == JJ_STAGE1_LAZY ? JJ_LAZY_POS : UINT32_MAX)) : len;
        return (size_t)(w - out); /* the entries up to that quote stand */
    }
    *err = JJ_OK;
    return (size_t)(w - out);
}
#undef JJ_STAGE1_CONSTS_ARG

/* The four stage 1 entries of the kernel set, one mode each (a constant: each compiles
 * to a stage 1 of its own). */
#define JJ_STAGE1_ENTRY(name, mode)                                                               \
    static size_t name(const uint8_t *buf, size_t len, uint32_t *out, jj_error *err, size_t *err_off) { \
        return jj_stage1_body(buf, len, out, err, err_off, mode);                                 \
    }
JJ_STAGE1_ENTRY(jj_stage1, JJ_STAGE1_PLAIN)
JJ_STAGE1_ENTRY(jj_stage1_lazy, JJ_STAGE1_LAZY)
JJ_STAGE1_ENTRY(jj_stage1_checked, JJ_STAGE1_CHECKED)
JJ_STAGE1_ENTRY(jj_stage1_lines, JJ_STAGE1_LINES)
#undef JJ_STAGE1_ENTRY

static inline size_t jj_scan_string(const uint8_t *p, const uint8_t *end, jj_str_scan *info) {
    const uint8_t *start = p;
    while ((size_t)(end - p) >= JJ_SCAN_STEP) {
        uint32_t hits = jj_scan_step(p, info);
        if (hits) return (size_t)(p - start) + (size_t)__builtin_ctz(hits);
        p += JJ_SCAN_STEP;
    }
    for (; p < end; p++) {
        uint8_t c = *p;
        if (c == '"' || c == '\\' || c < 0x20) break;
        jj_note_byte(info, c);
    }
    return (size_t)(p - start);
}

#include "stage2_body.h"
#include "validate_body.h"
#include "minify_body.h"
#include "stage2_lazy_body.h"
#include "walk_body.h"
#include "text_count_body.h"

const jj_kernels JJ_KERNELS_SYMBOL = {
    JJ_ISA_NAME,
    jj_stage1,
    jj_scan_string,
    jj_stage2,
    jj_minify_kernel,
    jj_validate_index,
    jj_stage1_lazy,
    jj_stage2_lazy,
    jj_finish_string,
    jj_stage1_checked,
    jj_validate_checked,
    jj_stage1_lines,
    jj_validate_lines_index,
    jj_finish_number,
    jj_count_text,
};
