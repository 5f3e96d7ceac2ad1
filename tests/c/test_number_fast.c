/* Stage 2 parses the common numbers inline (number_fast.h: SSSE3 on the x86 SIMD kernels,
 * a word at a time elsewhere). On every kernel set, each number of a generated array must
 * give the tape value that jj_parse_number gives for its text, and a malformed number
 * the same error at the same offset as on the scalar kernel. The texts are built to sit
 * on the fast path's edges: 0-20 integer and fraction digits, leading zeros, signs,
 * exponents, every byte after the number, and numbers near the end of the input. */
#include "engine_internal.h"
#include "jetjson_number.h"
#include "test_util.h"

static uint64_t g_rng = UINT64_C(0x243f6a8885a308d3);
static uint64_t rnd(void) { /* splitmix64 */
    uint64_t z = (g_rng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
static unsigned below(unsigned n) { return (unsigned)(rnd() % n); }

/* A number text, usually valid, at out; returns its length. */
static size_t make_number(char *out) {
    size_t n = 0;
    if (below(3) == 0) out[n++] = '-';
    unsigned int_digits = below(10) == 0 ? below(21) : 1 + below(8);
    for (unsigned i = 0; i < int_digits; i++) out[n++] = (char)('0' + (i == 0 && below(4) ? 1 + below(9) : below(10)));
    if (below(3)) {
        out[n++] = '.';
        unsigned frac = below(12) == 0 ? below(21) : below(17);
        for (unsigned i = 0; i < frac; i++) out[n++] = (char)('0' + below(10));
    }
    if (below(8) == 0) {
        out[n++] = below(2) ? 'e' : 'E';
        if (below(2)) out[n++] = below(2) ? '+' : '-';
        unsigned e = below(4);
        for (unsigned i = 0; i < e; i++) out[n++] = (char)('0' + below(10));
    }
    return n;
}

static void check_value(const jj_parser *p, size_t t, const char *text, size_t len, const char *isa) {
    jj_number want;
    const uint8_t *end = jj_parse_number((const uint8_t *)text, (const uint8_t *)text + len, &want);
    if (!end || end != (const uint8_t *)text + len) {
        FAIL("%s: the oracle does not take all of %.*s", isa, (int)len, text);
        return;
    }
    uint64_t w = p->tape[t], v = p->tape[t + 1];
    switch (want.kind) {
    case JJ_NUM_INT64:
        CHECK(jj_tape_type(w) == JJ_INT64 && (int64_t)v == want.v.i, "%s: %.*s int", isa, (int)len, text);
        break;
    case JJ_NUM_UINT64:
        CHECK(jj_tape_type(w) == JJ_UINT64 && v == want.v.u, "%s: %.*s uint", isa, (int)len, text);
        break;
    case JJ_NUM_DOUBLE: {
        uint64_t bits;
        memcpy(&bits, &want.v.d, sizeof bits);
        CHECK(jj_tape_type(w) == JJ_DOUBLE && v == bits, "%s: %.*s double", isa, (int)len, text);
        break;
    }
    case JJ_NUM_BIGINT: CHECK(jj_tape_type(w) == JJ_BIGINT, "%s: %.*s bigint", isa, (int)len, text); break;
    }
}

/* An array of valid numbers, separated by ',' and sometimes spaces; every kernel must
 * give jj_parse_number's values. */
static void test_arrays(unsigned rounds) {
    enum { MAX = 64 * 1024 };
    char *doc = malloc(MAX);
    size_t *starts = malloc(sizeof *starts * 4096), *lens = malloc(sizeof *lens * 4096);
    jj_parser p;
    jj_parser_init(&p);
    for (unsigned r = 0; r < rounds; r++) {
        size_t n = 0, count = 0;
        doc[n++] = '[';
        unsigned want = 1 + below(r % 7 == 0 ? 3 : 300);
        while (count < want) {
            char num[80];
            size_t len = make_number(num);
            jj_number probe;
            const uint8_t *e = jj_parse_number((const uint8_t *)num, (const uint8_t *)num + len, &probe);
            if (!e || e != (const uint8_t *)num + len) continue; /* keep the valid ones here */
            if (count) doc[n++] = ',';
            if (below(5) == 0) doc[n++] = ' ';
            memcpy(doc + n, num, len);
            starts[count] = n;
            lens[count] = len;
            n += len;
            count++;
            if (below(6) == 0) doc[n++] = below(2) ? '\n' : ' ';
        }
        doc[n++] = ']';
        for (const jj_kernels *const *k = jj_kernels_all(); *k; k++) {
            jj_error err = jj_parse_with(&p, *k, (const uint8_t *)doc, n);
            if (err) {
                FAIL("%s: array refused (%s)", (*k)->name, jj_error_name(err));
                continue;
            }
            size_t t = 2;
            for (size_t i = 0; i < count; i++, t += 2) check_value(&p, t, doc + starts[i], lens[i], (*k)->name);
        }
    }
    jj_parser_free(&p);
    free(doc);
    free(starts);
    free(lens);
}

/* A number followed by every byte, alone or inside an array with room behind it: the
 * outcome (value or error code and offset) must be the scalar kernel's. */
static void test_followers(unsigned rounds) {
    const jj_kernels *scalar = jj_kernels_by_name("scalar");
    jj_parser ref, p;
    jj_parser_init(&ref);
    jj_parser_init(&p);
    char doc[256];
    for (unsigned r = 0; r < rounds; r++) {
        char num[80];
        size_t len = make_number(num);
        unsigned follower = below(256);
        size_t n = 0;
        int in_array = below(2);
        if (in_array) doc[n++] = '[';
        memcpy(doc + n, num, len);
        n += len;
        doc[n++] = (char)follower;
        if (in_array) {
            memcpy(doc + n, ",1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]", 53);
            n += 53;
        }
        jj_error want = jj_parse_with(&ref, scalar, (const uint8_t *)doc, n);
        for (const jj_kernels *const *k = jj_kernels_all(); *k; k++) {
            jj_error got = jj_parse_with(&p, *k, (const uint8_t *)doc, n);
            CHECK(got == want && (got != JJ_OK || (p.tape_len == ref.tape_len &&
                                                   memcmp(p.tape, ref.tape, p.tape_len * sizeof *p.tape) == 0)) &&
                      (got == JJ_OK || p.error_offset == ref.error_offset),
                  "%s: %.*s followed by 0x%02x: %s vs scalar %s", (*k)->name, (int)len, num, follower,
                  jj_error_name(got), jj_error_name(want));
        }
    }
    jj_parser_free(&ref);
    jj_parser_free(&p);
}

/* jj_number_token_fast and jj_int_token_fast (jetjson_number.h) on generated texts, valid or not, each in a
 * buffer of exactly `room` bytes (a sanitizer build sees any read past it): whatever it
 * takes must be a number jj_parse_number takes whole, with the same kind and bits; and
 * it must take the integers of up to 18 digits and the fractions of up to 15. */
static void test_token_fast(unsigned rounds) {
    unsigned taken = 0;
    for (unsigned r = 0; r < rounds; r++) {
        char text[96];
        size_t len = make_number(text);
        if (len == 0) continue;
        size_t room = len + (below(4) == 0 ? below(20) : 16 + below(8));
        uint8_t *buf = malloc(room);
        if (!buf) {
            FAIL("out of memory");
            return;
        }
        memcpy(buf, text, len);
        for (size_t i = len; i < room; i++) buf[i] = below(3) ? (uint8_t)"0123456789.,]} e"[below(16)] : (uint8_t)rnd();
        jj_number got = {0}, want;
        int ok = jj_number_token_fast(buf, len, room, &got);
        const uint8_t *end = jj_parse_number((const uint8_t *)text, (const uint8_t *)text + len, &want);
        int whole = end == (const uint8_t *)text + len;
        int64_t i;
        if (jj_int_token_fast(buf, len, room, &i)) {
            CHECK(whole && want.kind == JJ_NUM_INT64 && want.v.i == i, "int token %.*s: %lld", (int)len, text,
                  (long long)i);
        } else {
            size_t digits = len - (text[0] == '-');
            CHECK(!(whole && want.kind == JJ_NUM_INT64 && digits <= 16 && room >= len + 16), "int token %.*s not taken",
                  (int)len, text);
        }
        if (ok) {
            taken++;
            CHECK(whole && got.kind == want.kind, "token %.*s taken, kind %d", (int)len, text, (int)got.kind);
            if (whole && got.kind == want.kind) {
                uint64_t a, b;
                memcpy(&a, &got.v, sizeof a);
                memcpy(&b, &want.v, sizeof b);
                CHECK(a == b, "token %.*s: %016llx, want %016llx", (int)len, text, (unsigned long long)a,
                      (unsigned long long)b);
            }
        } else if (whole && room >= len + 16 && !memchr(text, 'e', len) && !memchr(text, 'E', len)) {
            /* the short ones it must take: fractions of up to 15 digits are exact */
            size_t digits = len - (text[0] == '-') - (memchr(text, '.', len) != NULL);
            int fraction = memchr(text, '.', len) != NULL;
            CHECK(!(digits <= 15 || (!fraction && digits <= 18)), "token %.*s not taken", (int)len, text);
        }
        free(buf);
    }
    CHECK(taken > rounds / 4, "only %u of %u tokens taken", taken, rounds);
}

int main(void) {
    test_arrays(3000);
    test_followers(200000);
    test_token_fast(300000);
    return jj_test_report();
}
