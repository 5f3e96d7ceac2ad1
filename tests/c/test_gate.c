/* jj_gate_scan (jetjson_gate.h) against a byte-at-a-time reference written here from
 * the header's description: random texts rich in quotes, backslash runs and brackets,
 * scanned whole and resumed at every split point, at every alignment. */
#include <stdint.h>

#include "jetjson_gate.h"
#include "test_util.h"

typedef struct ref_state {
    long depth;
    int in_string, escaped;
} ref_state;

/* One byte: 1 when the document may end after it. */
static int ref_step(ref_state *s, uint8_t c) {
    if (s->in_string) {
        if (s->escaped) s->escaped = 0;
        else if (c == '\\') s->escaped = 1;
        else if (c == '"') {
            s->in_string = 0;
            return s->depth <= 0;
        }
        return 0;
    }
    if (c == '"') s->in_string = 1;
    else if (c == '[' || c == '{') s->depth++;
    else if (c == ']' || c == '}') return --s->depth <= 0;
    else return s->depth <= 0;
    return 0;
}

/* Every offset just past a byte that opens the gate, scanning on after each, with the
 * reference: their count, written to opened[]. */
static size_t ref_opened(const uint8_t *text, size_t len, size_t *opened, ref_state *final) {
    ref_state s = {0, 0, 0};
    size_t count = 0;
    for (size_t i = 0; i < len; i++)
        if (ref_step(&s, text[i])) opened[count++] = i + 1;
    *final = s;
    return count;
}

/* The same with jj_gate_scan, the text given in two pieces cut at `split`. */
static size_t gate_opened(const uint8_t *text, size_t len, size_t split, size_t *opened, jj_gate *final) {
    jj_gate g = jj_gate_start();
    size_t count = 0, at = 0;
    size_t piece_end[2] = {split, len};
    for (int piece = 0; piece < 2; piece++) {
        while (at < piece_end[piece]) {
            int opens;
            size_t took = jj_gate_scan(&g, text + at, piece_end[piece] - at, &opens);
            if (took == 0 || took > piece_end[piece] - at) { /* it must make progress */
                FAIL("took %zu of %zu", took, piece_end[piece] - at);
                return count;
            }
            at += took;
            if (opens) opened[count++] = at;
            else if (at != piece_end[piece]) FAIL("stopped at %zu without opening", at);
        }
    }
    *final = g;
    return count;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* A text from an alphabet weighted by `kind`: marks, letters, white space; kind 4
 * nested deep (the gate's whole-block path). */
static void random_text(uint8_t *out, size_t len, int kind) {
    static const char marks[] = "\"\\[]{}";
    static const char plain[] = "ab1 ,:\n\t";
    for (size_t i = 0; i < len; i++) {
        uint32_t r = rnd() % 100;
        if (kind == 0) out[i] = (uint8_t)(r < 30 ? marks[rnd() % 6] : plain[rnd() % 8]);
        else if (kind == 1) out[i] = (uint8_t)(r < 3 ? marks[rnd() % 6] : plain[rnd() % 8]);
        else if (kind == 2) out[i] = (uint8_t)(r < 50 ? '\\' : r < 70 ? '"' : r < 85 ? '[' : marks[rnd() % 6]);
        else if (kind == 3) out[i] = (uint8_t)rnd(); /* any byte, UTF-8 or not */
        else out[i] = (uint8_t)(r < 4 ? '"' : r < 6 ? '\\' : r < 8 ? '[' : r < 9 ? ']' : plain[rnd() % 8]);
    }
    if (kind == 4) { /* deep inside containers, closing them near the end: whole blocks */
        size_t opened = len / 8 < 40 ? len / 8 : 40;
        memset(out, '{', opened);
        if (len > opened) memset(out + len - opened / 2, '}', opened / 2);
        return;
    }
    if (kind < 3 && len && rnd() % 2) out[0] = (uint8_t)(rnd() % 2 ? '[' : '"'); /* mostly a container */
}

static void check_text(const uint8_t *text, size_t len, const char *what) {
    size_t want[600], got[600];
    ref_state ref;
    size_t n_want = ref_opened(text, len, want, &ref);
    for (size_t split = 0; split <= len; split++) {
        jj_gate g = jj_gate_start();
        size_t n_got = gate_opened(text, len, split, got, &g);
        int same = n_got == n_want && memcmp(got, want, n_want * sizeof *got) == 0 && g.depth == ref.depth &&
                   g.in_string == ref.in_string && g.escaped == ref.escaped;
        CHECK(same, "%s: len %zu split %zu: %zu openings (want %zu), depth %ld/%ld string %d/%d escaped %d/%d",
              what, len, split, n_got, n_want, g.depth, ref.depth, g.in_string, ref.in_string, g.escaped,
              ref.escaped);
        if (!same) return;
    }
}

static void test_fixed(void) {
    static const char *texts[] = {
        "{\"a\": \"]}\\\"\"}",           /* brackets and an escaped quote in a string */
        "\"\\\\\\\"\\\\\"  ",            /* a top-level string: backslash runs */
        "[[[[1]]]] 2",                  /* nesting, then a scalar */
        "123 ",                         /* a scalar: each byte opens */
        "]]",                           /* more closed than opened */
        "\"abc",                        /* a string that never ends */
        "[\"\\",                        /* a backslash at the very end */
    };
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++)
        check_text((const uint8_t *)texts[t], strlen(texts[t]), texts[t]);
    /* one escape across a block boundary, at each position around it */
    for (size_t at = 55; at < 140; at++) {
        uint8_t text[200];
        memset(text, 'x', sizeof text);
        text[0] = '[';
        text[1] = '"';
        text[at] = '\\';
        text[at + 1] = '"';
        text[at + 2] = '"';
        text[at + 3] = ']';
        check_text(text, at + 6, "escape at a block edge");
    }
}

static void test_random(void) {
    uint8_t storage[600 + 16];
    for (int round = 0; round < 3000; round++) {
        size_t len = rnd() % 300;
        if (round % 10 == 0) len = 300 + rnd() % 300;
        size_t shift = rnd() % 16; /* every alignment */
        uint8_t *text = storage + shift;
        random_text(text, len, round % 5);
        check_text(text, len, "random");
    }
}

int main(void) {
    test_fixed();
    test_random();
    return jj_test_report();
}
