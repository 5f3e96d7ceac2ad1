/* Tests of src/core/escape.c.
 *
 *   test_escape                    hand-written cases for every rule, and bound/canary checks
 *   test_escape --vectors FILE     every line of escape_oracle.py's output, in the smallest
 *                                  kind that holds the string and in every wider one
 *   test_escape --bench FILE       MB/s over a blob of strings (see bench() for the format)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jetjson_write.h"
#include "test_util.h"

typedef size_t (*escape_fn)(const void *, size_t, int, uint8_t *);

enum { ST_ASCII, ST_UTF8, ST_ORJSON, ST_COUNT };
static const char *const style_names[ST_COUNT] = {"json_ascii", "json_utf8", "orjson"};
static const escape_fn style_fns[ST_COUNT] = {jj_escape_json_ascii, jj_escape_json_utf8,
                                              jj_escape_orjson};

static size_t style_bound(int style, size_t n) {
    switch (style) {
    case ST_ASCII: return jj_escape_bound_json_ascii(n);
    case ST_UTF8: return jj_escape_bound_json_utf8(n);
    default: return jj_escape_bound_orjson(n);
    }
}

static int min_kind(const uint32_t *cps, size_t n) {
    uint32_t max = 0;
    for (size_t i = 0; i < n; i++)
        if (cps[i] > max) max = cps[i];
    return max < 0x100 ? 1 : max < 0x10000 ? 2 : 4;
}

/* Code units of `kind` for cps, stored at an odd address to prove unaligned loads work. */
static uint8_t *make_units(const uint32_t *cps, size_t n, int kind, uint8_t **base) {
    *base = malloc(n * (size_t)kind + 1);
    uint8_t *u = *base + 1;
    for (size_t i = 0; i < n; i++) {
        if (kind == 1) {
            u[i] = (uint8_t)cps[i];
        } else if (kind == 2) {
            uint16_t v = (uint16_t)cps[i];
            memcpy(u + 2 * i, &v, 2);
        } else {
            memcpy(u + 4 * i, &cps[i], 4);
        }
    }
    return u;
}

#define CANARY 0xA5
#define SLACK 64

/* Runs one style on cps in one kind; checks the result against expect (NULL = refused),
 * that nothing past the result is written, and that the result fits the bound. */
static void check_one(int style, const uint32_t *cps, size_t n, int kind, const uint8_t *expect,
                      size_t expect_len, const char *what) {
    uint8_t *base;
    const uint8_t *units = make_units(cps, n, kind, &base);
    size_t bound = style_bound(style, n);
    if (style == ST_ASCII) {
        size_t kb = jj_escape_bound_json_ascii_kind(n, kind);
        CHECK(kb <= bound, "%s: kind bound above bound", what);
        if (kind != 4) bound = kb;
    }
    uint8_t *out = malloc(bound + SLACK);
    memset(out, CANARY, bound + SLACK);
    size_t got = style_fns[style](units, n, kind, out);
    int ok;
    if (!expect) {
        ok = got == JJ_ESCAPE_SURROGATE;
    } else {
        ok = got == expect_len && memcmp(out, expect, got) == 0;
    }
    size_t clean_from = (got == JJ_ESCAPE_SURROGATE) ? bound : got;
    for (size_t i = clean_from; i < bound + SLACK; i++)
        if (out[i] != CANARY) {
            ok = 0;
            fprintf(stderr, "wrote past %s at %zu\n", got == JJ_ESCAPE_SURROGATE ? "bound" : "result", i);
            break;
        }
    if (got != JJ_ESCAPE_SURROGATE && got > bound) ok = 0;
    CHECK(ok, "%s: style %s kind %d n %zu: got %zu bytes \"%.*s\", expected %zu \"%.*s\"", what,
          style_names[style], kind, n, got, got == JJ_ESCAPE_SURROGATE ? 0 : (int)got, out,
          expect_len, expect ? (int)expect_len : 0, expect ? (const char *)expect : "");
    free(out);
    free(base);
}

/* In the smallest kind that holds cps and in every wider one. */
static void check_all_kinds(int style, const uint32_t *cps, size_t n, const uint8_t *expect,
                            size_t expect_len, const char *what) {
    for (int kind = min_kind(cps, n); kind <= 4; kind *= 2)
        check_one(style, cps, n, kind, expect, expect_len, what);
}

/* ---- vectors --------------------------------------------------------------------- */

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int run_vectors(const char *path) {
    size_t len;
    uint8_t *text = jj_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", path);
        return 2;
    }
    uint32_t *cps = malloc((len + 1) * sizeof *cps);
    uint8_t *expect = malloc(len + 1);
    size_t pos = 0, lineno = 0, lines = 0;
    while (pos < len) {
        size_t end = pos;
        while (end < len && text[end] != '\n') end++;
        lineno++;
        char what[64];
        snprintf(what, sizeof what, "%s:%zu", path, lineno);
        const uint8_t *p = text + pos, *e = text + end;
        pos = end + 1;
        if (p == e) continue;
        int style = *p == 'a' ? ST_ASCII : *p == 'u' ? ST_UTF8 : *p == 'o' ? ST_ORJSON : -1;
        CHECK(style >= 0 && p + 1 < e && p[1] == ' ', "%s: bad style", what);
        if (style < 0) continue;
        p += 2;
        size_t n = 0;
        if (p < e && *p == '-') {
            p++;
        } else {
            while (p < e && *p != ' ') {
                uint32_t v = 0;
                int h;
                while (p < e && (h = hexval(*p)) >= 0) v = v * 16 + (uint32_t)h, p++;
                cps[n++] = v;
                if (p < e && *p == ',') p++;
            }
        }
        if (p < e && *p == ' ') p++;
        size_t elen = 0;
        int refused = 0;
        if (p < e && *p == '!') {
            refused = 1;
        } else {
            while (p + 1 < e) {
                int hi = hexval(p[0]), lo = hexval(p[1]);
                if (hi < 0 || lo < 0) break;
                expect[elen++] = (uint8_t)(hi * 16 + lo);
                p += 2;
            }
        }
        check_all_kinds(style, cps, n, refused ? NULL : expect, elen, what);
        lines++;
    }
    CHECK(lines > 0, "%s: no vectors", path);
    free(cps);
    free(expect);
    free(text);
    return 0;
}

/* ---- hand-written cases ---------------------------------------------------------- */

#define CPS(...) ((const uint32_t[]){__VA_ARGS__}), (sizeof((const uint32_t[]){__VA_ARGS__}) / 4)
#define EXP(s) ((const uint8_t *)(s)), (sizeof(s) - 1)

static void hand(int style, const uint32_t *cps, size_t n, const uint8_t *expect,
                 size_t expect_len, int line) {
    char what[32];
    snprintf(what, sizeof what, "hand case line %d", line);
    check_all_kinds(style, cps, n, expect, expect_len, what);
}
#define H(style, cps, exp) hand(style, cps, exp, __LINE__)
#define REFUSED NULL, 0
#define NOCPS ((const uint32_t *)NULL), 0

static void hand_cases(void) {
    /* Empty string and plain text. */
    H(ST_ASCII, NOCPS, EXP("\"\""));
    H(ST_UTF8, NOCPS, EXP("\"\""));
    H(ST_ORJSON, NOCPS, EXP("\"\""));
    H(ST_ASCII, CPS('a', 'b', 'c', '/', ' ', '~'), EXP("\"abc/ ~\""));
    /* Quote and backslash. */
    H(ST_ASCII, CPS('"', '\\'), EXP("\"\\\"\\\\\""));
    H(ST_UTF8, CPS('"', '\\'), EXP("\"\\\"\\\\\""));
    H(ST_ORJSON, CPS('"', '\\'), EXP("\"\\\"\\\\\""));
    /* The five short escapes. */
    H(ST_ASCII, CPS('\n', '\r', '\t', '\b', '\f'), EXP("\"\\n\\r\\t\\b\\f\""));
    H(ST_UTF8, CPS('\n', '\r', '\t', '\b', '\f'), EXP("\"\\n\\r\\t\\b\\f\""));
    H(ST_ORJSON, CPS('\n', '\r', '\t', '\b', '\f'), EXP("\"\\n\\r\\t\\b\\f\""));
    /* Other controls: \u00XX, lowercase hex in both oracles. */
    H(ST_ASCII, CPS(0x00, 0x1B, 0x1F, 0x0B), EXP("\"\\u0000\\u001b\\u001f\\u000b\""));
    H(ST_UTF8, CPS(0x00, 0x1B, 0x1F, 0x0B), EXP("\"\\u0000\\u001b\\u001f\\u000b\""));
    H(ST_ORJSON, CPS(0x00, 0x1B, 0x1F, 0x0B), EXP("\"\\u0000\\u001b\\u001f\\u000b\""));
    /* DEL: escaped by json.dumps only when ensure_ascii. */
    H(ST_ASCII, CPS(0x7F), EXP("\"\\u007f\""));
    H(ST_UTF8, CPS(0x7F), EXP("\"\x7f\""));
    H(ST_ORJSON, CPS(0x7F), EXP("\"\x7f\""));
    /* Latin-1. */
    H(ST_ASCII, CPS(0x80, 0xE9, 0xFF), EXP("\"\\u0080\\u00e9\\u00ff\""));
    H(ST_UTF8, CPS(0x80, 0xE9, 0xFF), EXP("\"\xc2\x80\xc3\xa9\xc3\xbf\""));
    H(ST_ORJSON, CPS(0x80, 0xE9, 0xFF), EXP("\"\xc2\x80\xc3\xa9\xc3\xbf\""));
    /* BMP, including U+2028/2029 (raw when not ensure_ascii) and hex letters. */
    H(ST_ASCII, CPS(0x100, 0x2028, 0x2029, 0xABCD, 0xFFFF),
      EXP("\"\\u0100\\u2028\\u2029\\uabcd\\uffff\""));
    H(ST_UTF8, CPS(0x7FF, 0x800, 0x2028, 0xFFFF), EXP("\"\xdf\xbf\xe0\xa0\x80\xe2\x80\xa8\xef\xbf\xbf\""));
    H(ST_ORJSON, CPS(0x7FF, 0x800, 0x2029, 0xFFFF), EXP("\"\xdf\xbf\xe0\xa0\x80\xe2\x80\xa9\xef\xbf\xbf\""));
    /* Astral: a surrogate pair for json ascii, four bytes otherwise. */
    H(ST_ASCII, CPS(0x1F600, 0x10000, 0x10FFFF), EXP("\"\\ud83d\\ude00\\ud800\\udc00\\udbff\\udfff\""));
    H(ST_UTF8, CPS(0x1F600, 0x10FFFF), EXP("\"\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf\""));
    H(ST_ORJSON, CPS(0x1F600, 0x10000), EXP("\"\xf0\x9f\x98\x80\xf0\x90\x80\x80\""));
    /* Lone surrogates. */
    H(ST_ASCII, CPS(0xD800, 'x', 0xDFFF), EXP("\"\\ud800x\\udfff\""));
    H(ST_UTF8, CPS(0xD800, 'x', 0xDFFF), EXP("\"\xed\xa0\x80x\xed\xbf\xbf\""));
    H(ST_UTF8, CPS(0xD83D, 0xDE00), EXP("\"\xed\xa0\xbd\xed\xb8\x80\"")); /* not joined */
    H(ST_ORJSON, CPS(0xD800), REFUSED);
    H(ST_ORJSON, CPS('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 0xDFFF), REFUSED);
    H(ST_ORJSON, CPS(0xD83D, 0xDE00), REFUSED);
    H(ST_ORJSON, CPS(0xD7FF, 0xE000), EXP("\"\xed\x9f\xbf\xee\x80\x80\""));
    /* The 8-byte fast path: specials at each end of a word and across words. */
    H(ST_ASCII, CPS('0', '1', '2', '3', '4', '5', '6', '"', '8', '9', 'a', 'b', 'c', 'd', 'e', '\\'),
      EXP("\"0123456\\\"89abcde\\\\\""));
    H(ST_UTF8, CPS('"', '1', '2', '3', '4', '5', '6', '7', 0xE9, '9', 'a', 'b', 'c', 'd', 'e', 'f', 'g'),
      EXP("\"\\\"1234567\xc3\xa9" "9abcdefg\""));
    H(ST_ORJSON, CPS('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 0x1F),
      EXP("\"0123456789abcde\\u001f\""));
    H(ST_ASCII, CPS('0', '1', '2', '3', '4', '5', '6', 0x7F, '8'), EXP("\"0123456\\u007f8\""));
    H(ST_ORJSON, CPS('0', '1', '2', '3', '4', '5', '6', 0x7F, '8'), EXP("\"0123456\x7f" "8\""));
    /* Bytes that the SWAR tests must not confuse: 0xA2 and 0xDC have the low bits of '"'
     * and '\', 0xFF is DEL with the high bit, 0x20 and 0x21 border the controls. */
    H(ST_ORJSON, CPS(0xA2, 0xDC, 0xFF, 0x20, 0x21, 0x23, 0x5B, 0x5D, 'a'),
      EXP("\"\xc2\xa2\xc3\x9c\xc3\xbf !#[]a\""));
    H(ST_ASCII, CPS(0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7E, 0x7F, 0x80),
      EXP("\" !#[]~\\u007f\\u0080\""));
}

/* ---- bounds ---------------------------------------------------------------------- */

static uint32_t rnd_state = 12345;
static uint32_t rnd(void) {
    rnd_state = rnd_state * 1103515245u + 12345u;
    return rnd_state >> 8;
}

static void bound_cases(void) {
    /* Strings that reach the bounds exactly. */
    uint32_t cps[64];
    for (int i = 0; i < 64; i++) cps[i] = 0x1F600;
    uint8_t *base;
    const uint8_t *u = make_units(cps, 64, 4, &base);
    uint8_t out[12 * 64 + 2 + SLACK];
    CHECK(jj_escape_json_ascii(u, 64, 4, out) == jj_escape_bound_json_ascii(64),
          "astral reaches the json_ascii bound");
    free(base);
    for (int i = 0; i < 64; i++) cps[i] = 0x01;
    u = make_units(cps, 64, 1, &base);
    CHECK(jj_escape_json_ascii(u, 64, 1, out) == jj_escape_bound_json_ascii_kind(64, 1), "kind bound");
    CHECK(jj_escape_json_utf8(u, 64, 1, out) == jj_escape_bound_json_utf8(64), "utf8 bound");
    CHECK(jj_escape_orjson(u, 64, 1, out) == jj_escape_bound_orjson(64), "orjson bound");
    free(base);
    CHECK(jj_escape_bound_json_ascii(SIZE_MAX / 4) == SIZE_MAX, "saturates");
    CHECK(jj_escape_bound_orjson(SIZE_MAX) == SIZE_MAX, "saturates");
    CHECK(jj_escape_bound_json_utf8(0) == 2, "empty bound");

    /* Random strings of every mix: compared to a one-unit-at-a-time composition (the
     * output of each code point alone, quotes stripped), and checked against the canary. */
    static const uint32_t pool[] = {'a', 'Z', ' ', '"', '\\', '/', 0x00, 0x1F, '\n', 0x7F,
                                    0x80, 0xA2, 0xDC, 0xFF, 0x100, 0x2028, 0xD800, 0xDFFF,
                                    0xFFFF, 0x10000, 0x1F600, 0x10FFFF};
    static uint8_t expect[12 * 200 + 2], piece[16];
    for (int iter = 0; iter < 3000; iter++) {
        uint32_t s[200];
        size_t n = rnd() % 200;
        int plain_heavy = iter & 1;
        for (size_t i = 0; i < n; i++)
            s[i] = (plain_heavy && rnd() % 8) ? 'a' + rnd() % 26
                                              : pool[rnd() % (sizeof pool / sizeof pool[0])];
        for (int style = 0; style < ST_COUNT; style++) {
            size_t elen = 0;
            int refused = 0;
            expect[elen++] = '"';
            for (size_t i = 0; i < n; i++) {
                size_t k = style_fns[style](&s[i], 1, 4, piece);
                if (k == JJ_ESCAPE_SURROGATE) {
                    refused = 1;
                    break;
                }
                memcpy(expect + elen, piece + 1, k - 2);
                elen += k - 2;
            }
            expect[elen++] = '"';
            check_all_kinds(style, s, n, refused ? NULL : expect, elen, "random");
        }
    }
}

/* ---- speed ----------------------------------------------------------------------- */

/* FILE: records of kind (1 byte), n (uint32, native order), n * kind bytes of units. */
static int bench(const char *path) {
    size_t len;
    uint8_t *blob = jj_read_file(path, &len);
    if (!blob) {
        fprintf(stderr, "cannot read %s\n", path);
        return 2;
    }
    size_t maxn = 0, units_bytes = 0, count = 0;
    for (size_t p = 0; p < len;) {
        uint32_t n;
        memcpy(&n, blob + p + 1, 4);
        if (n > maxn) maxn = n;
        units_bytes += (size_t)n * blob[p];
        count++;
        p += 5 + (size_t)n * blob[p];
    }
    uint8_t *out = malloc(jj_escape_bound_json_ascii(maxn));
    for (int style = 0; style < ST_COUNT; style++) {
        size_t total = 0;
        int reps = 0;
        clock_t t0 = clock();
        do {
            for (size_t p = 0; p < len;) {
                uint32_t n;
                memcpy(&n, blob + p + 1, 4);
                size_t r = style_fns[style](blob + p + 5, n, blob[p], out);
                if (r != JJ_ESCAPE_SURROGATE) total += r;
                p += 5 + (size_t)n * blob[p];
            }
            reps++;
        } while (clock() - t0 < CLOCKS_PER_SEC / 2);
        double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
        printf("%-10s %zu strings, %zu unit bytes: %.0f MB/s of input, %.0f MB/s of output\n",
               style_names[style], count, units_bytes, (double)units_bytes * reps / secs / 1e6,
               (double)total / secs / 1e6);
    }
    free(out);
    free(blob);
    return 0;
}

int main(int argc, char **argv) {
    (void)jj_data_dir; /* from test_util.h; the vectors come on the command line */
    if (argc == 3 && strcmp(argv[1], "--bench") == 0) return bench(argv[2]);
    if (argc == 3 && strcmp(argv[1], "--vectors") == 0) {
        int rc = run_vectors(argv[2]);
        if (rc) return rc;
    } else if (argc == 1) {
        hand_cases();
        bound_cases();
    } else {
        fprintf(stderr, "usage: %s [--vectors FILE | --bench FILE]\n", argv[0]);
        return 2;
    }
    return jj_test_report();
}
