/* The engine's JCS writer (jetjson_canonical.h).
 *
 * Oracles: the examples of RFC 8785 (typed in), glibc's printf for the digits of doubles
 * (the shortest "%.*e" that reads back is the shortest round-trip decimal, laid out here
 * by ECMAScript's rules independently of the engine), and a UTF-16 comparison of the
 * strings encoded by the test for the key order. Also: any depth, a sink that cannot
 * grow, and every refusal with its tape index. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jetjson_canonical.h"
#include "test_util.h"

static jj_parser *g_parser;

/* JCS of text (NUL-terminated): the status, the output in *out (malloc'ed, NUL added). */
static jj_canon_status canon(const char *text, size_t len, char **out, size_t *fault) {
    jj_sink s;
    *out = NULL;
    if (jj_sink_init_malloc(&s, 16)) return JJ_CANON_NOMEM;
    jj_canon_status st = jj_canonicalize(g_parser, (const uint8_t *)text, len, &s, fault);
    if (st == JJ_CANON_OK && jj_sink_put_byte(&s, 0) == 0) {
        *out = (char *)s.start;
    } else {
        jj_sink_free_malloc(&s);
    }
    return st;
}

static void expect(const char *text, const char *want) {
    char *out;
    size_t fault;
    jj_canon_status st = canon(text, strlen(text), &out, &fault);
    CHECK(st == JJ_CANON_OK && strcmp(out, want) == 0, "%s -> %s (status %d), want %s", text, out ? out : "-",
          (int)st, want);
    free(out);
}

static void expect_error(const char *text, size_t len, jj_canon_status want, const char *at) {
    char *out;
    size_t fault = 0;
    jj_canon_status st = canon(text, len, &out, &fault);
    CHECK(st == want, "%s: status %d, want %d", text, (int)st, (int)want);
    if (st == want && at && want != JJ_CANON_PARSE) {
        /* the tape entry at the fault points at the text named by `at` */
        uint64_t w = jj_parser_result(g_parser)->tape[fault];
        size_t off = jj_tape_type(w) == JJ_STRING ? (size_t)jj_tape_str_offset(w) : (size_t)jj_tape_payload(w);
        CHECK(jj_tape_type(w) != JJ_STRING || (jj_tape_str_flags(w) & JJ_STR_IN_INPUT) == 0 ||
                  strncmp(text + off, at, strlen(at)) == 0,
              "%s: fault at %zu (%s), want %s", text, fault, text + off, at);
    }
    free(out);
}

static void test_rfc_examples(void) {
    /* section 3.2.2 */
    expect("{\n  \"numbers\": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],\n"
           "  \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n"
           "  \"literals\": [null, true, false]\n}",
           "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
           "\"string\":\"\xe2\x82\xac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
    /* section 3.2.3: the order of the values */
    expect("{\"\\u20ac\":\"Euro Sign\",\"\\r\":\"Carriage Return\",\"\\ufb33\":\"Hebrew Letter Dalet With Dagesh\","
           "\"1\":\"One\",\"\\ud83d\\ude00\":\"Emoji: Grinning Face\",\"\\u0080\":\"Control\","
           "\"\\u00f6\":\"Latin Small Letter O With Diaeresis\"}",
           "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\xc2\x80\":\"Control\","
           "\"\xc3\xb6\":\"Latin Small Letter O With Diaeresis\",\"\xe2\x82\xac\":\"Euro Sign\","
           "\"\xf0\x9f\x98\x80\":\"Emoji: Grinning Face\",\"\xef\xac\xb3\":\"Hebrew Letter Dalet With Dagesh\"}");
    expect(" [ ] ", "[]");
    expect("{ }", "{}");
    expect("-0", "0");
    expect("-0.0", "0");
}

static void test_errors(void) {
    expect_error("NaN", 3, JJ_CANON_NOT_FINITE, NULL);
    expect_error("[1,-Infinity]", 13, JJ_CANON_NOT_FINITE, NULL);
    expect_error("[1e400]", 7, JJ_CANON_NOT_FINITE, NULL);
    expect_error("9007199254740993", 16, JJ_CANON_INT_RANGE, NULL);
    expect_error("[18446744073709551615]", 22, JJ_CANON_INT_RANGE, NULL);
    expect_error("[100000000000000000000000000000]", 32, JJ_CANON_INT_RANGE, NULL);
    expect_error("{\"a\":1,\"b\":2,\"a\":3}", 19, JJ_CANON_DUPLICATE_KEY, "a\":3");
    expect_error("{\"a\":{\"x\":1,\"\\u0078\":2}}", 24, JJ_CANON_DUPLICATE_KEY, NULL);
    expect_error("[\"\\ud800\"]", 10, JJ_CANON_SURROGATE, NULL);
    expect_error("[\"a\xed\xa0\x80\"]", 8, JJ_CANON_SURROGATE, NULL);
    expect_error("{\"\xed\xbf\xbf\":1}", 9, JJ_CANON_SURROGATE, NULL);
    expect_error("[1,", 3, JJ_CANON_PARSE, NULL);
    /* integers: kept when their digits are the JCS text of the double */
    expect("[9007199254740991,-9007199254740991,9007199254740992,295147905179352830000]",
           "[9007199254740991,-9007199254740991,9007199254740992,295147905179352830000]");
    expect("[1e21, 1E-7, 0.000001, 100.0, 123e-2]", "[1e+21,1e-7,0.000001,100,1.23]");
    expect("\"\\u0000\\u001f\\u007f\\u2028\\/\\b\\f\\n\\r\\t\"", "\"\\u0000\\u001f\x7f\xe2\x80\xa8/\\b\\f\\n\\r\\t\"");
}

static void test_depth(void) {
    size_t n = 1000000;
    char *text = malloc(2 * n + 1);
    memset(text, '[', n);
    memset(text + n, ']', n);
    text[2 * n] = 0;
    char *out;
    size_t fault;
    CHECK(canon(text, 2 * n, &out, &fault) == JJ_CANON_OK && out && strcmp(out, text) == 0, "deep arrays");
    free(out);
    free(text);
    /* objects, each with two members to sort */
    size_t m = 200000, unit = strlen("{\"b\":1,\"a\":"), len = m * unit + 1 + m;
    text = malloc(len + 1);
    char *want = malloc(len + 1);
    for (size_t i = 0; i < m; i++) {
        memcpy(text + i * unit, "{\"b\":1,\"a\":", unit);
        memcpy(want + i * 5, "{\"a\":", 5);
    }
    text[m * unit] = '0';
    memset(text + m * unit + 1, '}', m);
    text[len] = 0;
    want[m * 5] = '0';
    for (size_t i = 0; i < m; i++) memcpy(want + m * 5 + 1 + i * 7, ",\"b\":1}", 7);
    want[m * 5 + 1 + m * 7] = 0;
    CHECK(canon(text, len, &out, &fault) == JJ_CANON_OK && out && strcmp(out, want) == 0, "deep objects");
    free(out);
    free(text);
    free(want);
}

/* A sink that cannot grow past its first buffer. */
static int refuse_resize(jj_sink *s, size_t cap) {
    (void)cap;
    free(s->start);
    return -1;
}

static void test_sink_failure(void) {
    const char *text = "{\"k\":[\"a long enough string to need more room\",1.5,{\"z\":null,\"y\":true}]}";
    for (size_t first = 1; first < 80; first += 7) {
        jj_sink s;
        CHECK(jj_sink_init_malloc(&s, first) == 0, "init");
        s.resize = refuse_resize;
        size_t fault;
        jj_canon_status st = jj_canonicalize(g_parser, (const uint8_t *)text, strlen(text), &s, &fault);
        CHECK(st == JJ_CANON_NOMEM, "room %zu: status %d", first, (int)st);
        if (!s.error) jj_sink_free_malloc(&s);
    }
}

/* ---- numbers: glibc's digits, ECMAScript's layout ---- */

static size_t ecma_oracle(double v, char *out) {
    if (v == 0) return (size_t)sprintf(out, "0");
    char buf[64];
    int p;
    for (p = 1; p <= 17; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, v);
        if (strtod(buf, NULL) == v) break;
    }
    /* buf: [-]d[.ddd]e[+-]XX */
    char digits[32];
    size_t k = 0;
    const char *c = buf;
    int neg = *c == '-';
    if (neg) c++;
    for (; *c != 'e'; c++)
        if (*c != '.') digits[k++] = *c;
    while (k > 1 && digits[k - 1] == '0') k--;
    int n = atoi(c + 1) + 1; /* v = 0.digits * 10^n */
    char *o = out;
    if (neg) *o++ = '-';
    int ki = (int)k;
    if (ki <= n && n <= 21) {
        memcpy(o, digits, k);
        o += k;
        for (int i = 0; i < n - ki; i++) *o++ = '0';
    } else if (0 < n && n <= 21) {
        memcpy(o, digits, (size_t)n);
        o += n;
        *o++ = '.';
        memcpy(o, digits + n, k - (size_t)n);
        o += k - (size_t)n;
    } else if (-6 < n && n <= 0) {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -n; i++) *o++ = '0';
        memcpy(o, digits, k);
        o += k;
    } else {
        *o++ = digits[0];
        if (k > 1) {
            *o++ = '.';
            memcpy(o, digits + 1, k - 1);
            o += k - 1;
        }
        o += sprintf(o, "e%c%d", n - 1 < 0 ? '-' : '+', abs(n - 1));
    }
    *o = 0;
    return (size_t)(o - out);
}

static uint64_t g_rng = 0x9E3779B97F4A7C15u;
static uint64_t next_rand(void) {
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}

static void check_double(double v) {
    char got[JJ_ECMA_DOUBLE_BUF_SIZE + 1], want[64];
    size_t n = jj_format_double_ecma(v, got);
    got[n] = 0;
    size_t m = ecma_oracle(v, want);
    CHECK(n == m && strcmp(got, want) == 0, "%.17g: %s, want %s", v, got, want);
}

static void test_numbers(void) {
    static const double fixed[] = {1e21, 1e-7, 1e-6, 9.999999999999999e20, 1e20, 0.1, 5e-324, 1.7976931348623157e308,
                                   9007199254740992.0, 123456789012345680000.0, 1.2345678901234567e-6,
                                   2.2250738585072014e-308, 1.5e-7, 333333333.33333329, 1e23, 4.35, 0.3};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        check_double(fixed[i]);
        check_double(-fixed[i]);
    }
    for (int e = -325; e <= 308; e++) {
        check_double(pow(10, e));
        check_double(nextafter(pow(10, e), 0));
        check_double(nextafter(pow(10, e), INFINITY));
    }
    for (int i = 0; i < 300000; i++) {
        uint64_t bits = next_rand();
        double v;
        memcpy(&v, &bits, 8);
        if (isfinite(v)) check_double(v);
        double small = (double)(next_rand() % 1000000) / (double)(1 + next_rand() % 100000);
        check_double(small);
    }
}

/* ---- key order ---- */

static size_t to_utf8(const uint32_t *cp, size_t n, uint8_t *out) {
    uint8_t *o = out;
    for (size_t i = 0; i < n; i++) o = cp[i] < 0x80 ? (*o = (uint8_t)cp[i], o + 1) : jj_write_utf8(o, cp[i]);
    return (size_t)(o - out);
}

static size_t to_utf16(const uint32_t *cp, size_t n, uint16_t *out) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (cp[i] >= 0x10000) {
            out[k++] = (uint16_t)(0xD800 + ((cp[i] - 0x10000) >> 10));
            out[k++] = (uint16_t)(0xDC00 + ((cp[i] - 0x10000) & 0x3FF));
        } else {
            out[k++] = (uint16_t)cp[i];
        }
    }
    return k;
}

static int cmp16(const uint16_t *a, size_t na, const uint16_t *b, size_t nb) {
    for (size_t i = 0; i < na && i < nb; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return (na > nb) - (na < nb);
}

static int sign(int x) { return (x > 0) - (x < 0); }

static void test_key_order(void) {
    static const uint32_t pool[] = {0x0, 0x41, 0x7f, 0x80, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfb33, 0xffff,
                                    0x10000, 0x1f600, 0x10ffff, 0x20ac, 0xe9};
    size_t np = sizeof pool / sizeof pool[0];
    for (int iter = 0; iter < 200000; iter++) {
        uint32_t a[12], b[12];
        size_t na = next_rand() % 12, nb = next_rand() % 12;
        for (size_t i = 0; i < na; i++) a[i] = pool[next_rand() % np];
        /* b shares a prefix with a most of the time */
        size_t shared = na ? next_rand() % (na + 1) : 0;
        if (shared > nb) shared = nb;
        for (size_t i = 0; i < nb; i++) b[i] = i < shared ? a[i] : pool[next_rand() % np];
        uint8_t ua[48], ub[48];
        uint16_t wa[24], wb[24];
        size_t la = to_utf8(a, na, ua), lb = to_utf8(b, nb, ub);
        int got = sign(jj_utf16_compare(ua, la, ub, lb));
        int want = cmp16(wa, to_utf16(a, na, wa), wb, to_utf16(b, nb, wb));
        CHECK(got == want, "iteration %d: %d, want %d", iter, got, want);
    }
}

int main(void) {
    g_parser = jj_parser_new();
    if (!g_parser) abort(); /* out of memory */
    test_rfc_examples();
    test_errors();
    test_depth();
    test_sink_failure();
    test_numbers();
    test_key_order();
    jj_parser_delete(g_parser);
    return jj_test_report();
}
