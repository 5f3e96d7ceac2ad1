/* Tests for jj_parse_number (src/core/number_parse.c).
 *
 * Every input is placed at the very end of a readable mapping followed by a PROT_NONE
 * guard page, so any read at or past `end` crashes the test. Doubles are compared bit
 * for bit with glibc strtod in the "C" locale (correctly rounded, like Python's float()).
 *
 * Usage: test_number                 run every check (fixed seeds)
 *        test_number --quick         the same with far fewer random cases
 *        test_number --vectors FILE  check lines "<text> <hex bits>" made by
 *                                    tests/c/number_oracle.py (Python's float())
 *        test_number --bench FILE    time jj_parse_number against strtod on the number
 *                                    tokens of FILE (e.g. canada.json) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "jetjson.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

/* ---- guard-page placement ---------------------------------------------------------- */

#define DATA_PAGES 64
static uint8_t *g_guard; /* first byte of the PROT_NONE page */
static size_t g_data_size;

static void guard_init(void)
{
    long ps = sysconf(_SC_PAGESIZE);
    size_t page = ps > 0 ? (size_t)ps : 4096;
    uint8_t *base;
    g_data_size = page * DATA_PAGES;
    base = mmap(NULL, g_data_size + page, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    g_guard = base + g_data_size;
    if (mprotect(g_guard, page, PROT_NONE) != 0) {
        perror("mprotect");
        exit(2);
    }
}

/* Parses s[0..len) placed so that s[len] would be the first byte of the guard page.
 * Returns the consumed length or -1 for NULL. */
static long parse_guarded(const char *s, size_t len, jj_number *out)
{
    uint8_t *p;
    const uint8_t *r;
    if (len > g_data_size) {
        fprintf(stderr, "test string too long\n");
        exit(2);
    }
    p = g_guard - len;
    memcpy(p, s, len);
    memset(out, 0xa5, sizeof *out);
    r = jj_parse_number(p, g_guard, out);
    return r ? (long)(r - p) : -1;
}

static uint64_t dbits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* ---- grammar ------------------------------------------------------------------------ */

static void check_grammar(const char *s, long want)
{
    jj_number n;
    long got = parse_guarded(s, strlen(s), &n);
    if (got == want)
        g_passed++;
    else
        FAIL("grammar \"%s\": consumed %ld, want %ld", s, got, want);
}

static void test_grammar(void)
{
    static const struct {
        const char *s;
        long want;
    } cases[] = {
        {"0", 1}, {"-0", 2}, {"1", 1}, {"-1", 2}, {"9", 1}, {"123", 3}, {"0.0", 3},
        {"1.5", 3}, {"-1.5e10", 7}, {"1e5", 3}, {"1E5", 3}, {"1e+5", 4}, {"1e-5", 4},
        {"1E-05", 5}, {"0e0", 3}, {"0E+0", 4}, {"-0.0e-0", 7}, {"01", 1}, {"-01", 2},
        {"00", 1}, {"0.5.3", 3}, {"1e5e3", 3}, {"1x", 1}, {"1.5x", 3}, {"1e5x", 3},
        {"0x10", 1}, {"123,", 3}, {"1.25]", 4}, {"7}", 1}, {"-5 ", 2}, {"1e5.5", 3},
        {"1.0E+2:", 6}, {"12345678901234567890123", 23}, {"-0.000001", 9},
        {"1.", -1}, {"1.e5", -1}, {"1e", -1}, {"1E", -1}, {"1e+", -1}, {"1e-", -1},
        {"1.0e", -1}, {"1.0e+", -1}, {"-", -1}, {"", -1}, {"+1", -1}, {".5", -1},
        {"-.5", -1}, {"a", -1}, {" 1", -1}, {"-a", -1}, {"- 1", -1}, {"Infinity", -1},
        {"-Infinity", -1}, {"NaN", -1}, {"1.e", -1}, {"0.e1", -1}, {"1E+-5", -1},
        {"1e--5", -1}, {"--1", -1}, {"-+1", -1}, {"1.x", -1}, {"1ex", -1}, {"1e+x", -1},
        {"0.", -1}, {"-0.", -1}, {"-e1", -1}, {"e1", -1}, {"\x00" "1", -1},
        {"1.5e", -1}, {"12345678901234567890.", -1}, {"1.00000000000000000000e", -1},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_grammar(cases[i].s, cases[i].want);

    /* end limits what is read: the same text cut at every length */
    {
        const char *s = "-12.5e+17";
        static const long want[] = {-1, -1, 2, 3, -1, 5, -1, -1, 8, 9};
        for (i = 0; i <= strlen(s); i++) {
            jj_number n;
            long got = parse_guarded(s, i, &n);
            if (got == want[i])
                g_passed++;
            else
                FAIL("prefix %zu of \"%s\": consumed %ld, want %ld", i, s, got, want[i]);
        }
    }
    /* an embedded number in a longer buffer with end well past it */
    {
        static const uint8_t buf[] = "[3.25,-7]";
        jj_number n;
        const uint8_t *r = jj_parse_number(buf + 1, buf + sizeof buf - 1, &n);
        if (r == buf + 5 && n.kind == JJ_NUM_DOUBLE && n.v.d == 3.25)
            g_passed++;
        else
            FAIL("embedded 3.25");
        r = jj_parse_number(buf + 6, buf + sizeof buf - 1, &n);
        if (r == buf + 8 && n.kind == JJ_NUM_INT64 && n.v.i == -7)
            g_passed++;
        else
            FAIL("embedded -7");
        r = jj_parse_number(buf + 1, buf + 1, &n); /* empty range */
        if (r == NULL)
            g_passed++;
        else
            FAIL("empty range");
    }
}

/* ---- integers ------------------------------------------------------------------------ */

static void check_int(const char *s, jj_number_kind kind, uint64_t bits)
{
    jj_number n;
    size_t len = strlen(s);
    long got = parse_guarded(s, len, &n);
    if (got != (long)len) {
        FAIL("int \"%s\": consumed %ld", s, got);
        return;
    }
    if (n.kind != kind) {
        FAIL("int \"%s\": kind %d, want %d", s, (int)n.kind, (int)kind);
        return;
    }
    if (kind != JJ_NUM_BIGINT && n.v.u != bits) {
        FAIL("int \"%s\": value %" PRIu64 " (bits), want %" PRIu64, s, n.v.u, bits);
        return;
    }
    g_passed++;
}

static void test_integers(void)
{
    char buf[1200];
    int i;
    uint64_t v;
    check_int("0", JJ_NUM_INT64, 0);
    check_int("-0", JJ_NUM_INT64, 0);
    check_int("1", JJ_NUM_INT64, 1);
    check_int("-1", JJ_NUM_INT64, (uint64_t)-1);
    check_int("123456789", JJ_NUM_INT64, 123456789);
    check_int("-987654321", JJ_NUM_INT64, (uint64_t)(int64_t)-987654321);
    check_int("1000000000000000000", JJ_NUM_INT64, UINT64_C(1000000000000000000));
    check_int("9999999999999999999", JJ_NUM_UINT64, UINT64_C(9999999999999999999));
    check_int("-999999999999999999", JJ_NUM_INT64,
              (uint64_t)(int64_t)INT64_C(-999999999999999999));
    check_int("-9999999999999999999", JJ_NUM_BIGINT, 0);
    check_int("9223372036854775806", JJ_NUM_INT64, UINT64_C(9223372036854775806));
    check_int("9223372036854775807", JJ_NUM_INT64, UINT64_C(9223372036854775807));
    check_int("9223372036854775808", JJ_NUM_UINT64, UINT64_C(9223372036854775808));
    check_int("9223372036854775809", JJ_NUM_UINT64, UINT64_C(9223372036854775809));
    check_int("-9223372036854775807", JJ_NUM_INT64, (uint64_t)(-INT64_MAX));
    check_int("-9223372036854775808", JJ_NUM_INT64, (uint64_t)INT64_MIN);
    check_int("-9223372036854775809", JJ_NUM_BIGINT, 0);
    check_int("-9223372036854775810", JJ_NUM_BIGINT, 0);
    check_int("-18446744073709551615", JJ_NUM_BIGINT, 0);
    check_int("-18446744073709551616", JJ_NUM_BIGINT, 0);
    check_int("10000000000000000000", JJ_NUM_UINT64, UINT64_C(10000000000000000000));
    check_int("18446744073709551609", JJ_NUM_UINT64, UINT64_C(18446744073709551609));
    check_int("18446744073709551610", JJ_NUM_UINT64, UINT64_C(18446744073709551610));
    check_int("18446744073709551614", JJ_NUM_UINT64, UINT64_C(18446744073709551614));
    check_int("18446744073709551615", JJ_NUM_UINT64, UINT64_MAX);
    check_int("18446744073709551616", JJ_NUM_BIGINT, 0);
    check_int("18446744073709551619", JJ_NUM_BIGINT, 0);
    check_int("18446744073709551620", JJ_NUM_BIGINT, 0);
    check_int("18446744073709551700", JJ_NUM_BIGINT, 0);
    check_int("18446744073709552615", JJ_NUM_BIGINT, 0);
    check_int("19000000000000000000", JJ_NUM_BIGINT, 0);
    check_int("28446744073709551615", JJ_NUM_BIGINT, 0);
    check_int("99999999999999999999", JJ_NUM_BIGINT, 0);
    check_int("100000000000000000000", JJ_NUM_BIGINT, 0);
    check_int("-100000000000000000000", JJ_NUM_BIGINT, 0);
    /* every length 1..1100 of 1, 9 and 1844674407370955161... prefixes */
    for (i = 1; i <= 1100; i++) {
        static const char pat[] = "18446744073709551615";
        int k;
        for (k = 0; k < i; k++)
            buf[k] = '9';
        buf[i] = 0;
        v = 0;
        for (k = 0; k < i && k < 20; k++)
            v = v * 10 + 9;
        check_int(buf, i <= 18 ? JJ_NUM_INT64 : i == 19 ? JJ_NUM_UINT64 : JJ_NUM_BIGINT, v);
        buf[0] = '-';
        for (k = 1; k <= i; k++)
            buf[k] = '9';
        buf[i + 1] = 0;
        check_int(buf, i <= 18 ? JJ_NUM_INT64 : JJ_NUM_BIGINT, (uint64_t)0 - v);
        buf[0] = '1';
        for (k = 1; k < i; k++)
            buf[k] = '0';
        buf[i] = 0;
        v = 1;
        for (k = 1; k < i && k < 20; k++)
            v *= 10;
        check_int(buf, i <= 19 ? JJ_NUM_INT64 : i == 20 ? JJ_NUM_UINT64 : JJ_NUM_BIGINT, v);
        for (k = 0; k < i; k++)
            buf[k] = pat[k % 20];
        buf[i] = 0;
        v = 0;
        for (k = 0; k < i && k < 20; k++)
            v = v * 10 + (uint64_t)(pat[k] - '0');
        check_int(buf, i <= 19 ? (v <= INT64_MAX ? JJ_NUM_INT64 : JJ_NUM_UINT64)
                       : i == 20 ? JJ_NUM_UINT64 : JJ_NUM_BIGINT, v);
    }
    /* every 20-digit value around UINT64_MAX, and around 2^63 both signs */
    for (i = -300; i <= 300; i++) {
        uint64_t u = UINT64_MAX - 300 + (uint64_t)(i + 300);
        if (i <= 0) {
            snprintf(buf, sizeof buf, "%" PRIu64, UINT64_MAX - (uint64_t)(-i));
            check_int(buf, JJ_NUM_UINT64, UINT64_MAX - (uint64_t)(-i));
        } else {
            /* UINT64_MAX + i as text: last digits 615 + i */
            snprintf(buf, sizeof buf, "18446744073709551%03d", 615 + i);
            check_int(buf, JJ_NUM_BIGINT, 0);
        }
        (void)u;
        {
            uint64_t b = UINT64_C(9223372036854775808);
            uint64_t x = i < 0 ? b - (uint64_t)(-i) : b + (uint64_t)i;
            snprintf(buf, sizeof buf, "%" PRIu64, x);
            check_int(buf, x <= INT64_MAX ? JJ_NUM_INT64 : JJ_NUM_UINT64, x);
            snprintf(buf, sizeof buf, "-%" PRIu64, x);
            check_int(buf, x <= b ? JJ_NUM_INT64 : JJ_NUM_BIGINT, (uint64_t)0 - x);
        }
    }
}

/* ---- doubles against strtod ----------------------------------------------------------- */

static unsigned long g_dbl_checks;

static void check_double(const char *s)
{
    jj_number n;
    size_t len = strlen(s);
    long got = parse_guarded(s, len, &n);
    double want = strtod(s, NULL);
    g_dbl_checks++;
    if (got != (long)len) {
        FAIL("double \"%.200s\": consumed %ld of %zu", s, got, len);
        return;
    }
    if (n.kind != JJ_NUM_DOUBLE) {
        FAIL("double \"%.200s\": kind %d", s, (int)n.kind);
        return;
    }
    if (dbits(n.v.d) != dbits(want)) {
        FAIL("double \"%.200s\" (len %zu): got %a (%.17g), want %a (%.17g)", s, len, n.v.d,
             n.v.d, want, want);
        return;
    }
    g_passed++;
}

/* A double's %g text made into a JSON double literal (it must have '.' or 'e'). */
static void check_formatted(char *buf)
{
    if (!strpbrk(buf, ".eE"))
        strcat(buf, ".0");
    check_double(buf);
}

static uint64_t g_rng = UINT64_C(0x9e3779b97f4a7c15);
static uint64_t rnd(void) /* splitmix64 */
{
    uint64_t z = (g_rng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
static unsigned rnd_below(unsigned n) { return (unsigned)(rnd() % n); }

static double from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static void check_value_texts(double x, int shortest)
{
    char buf[64];
    if (isnan(x) || isinf(x))
        return;
    snprintf(buf, sizeof buf, "%.17g", x);
    check_formatted(buf);
    if (shortest) {
        int prec;
        for (prec = 1; prec <= 17; prec++) {
            snprintf(buf, sizeof buf, "%.*g", prec, x);
            if (strtod(buf, NULL) == x)
                break;
        }
        check_formatted(buf);
    }
}

static void test_random_bits(unsigned long count, unsigned long shortest_every)
{
    unsigned long i;
    for (i = 0; i < count; i++) {
        uint64_t b = rnd();
        unsigned kind = (unsigned)(i % 4);
        if (kind == 1) /* exponents near 1 (exact fast path territory) */
            b = (b & (JJ_PAYLOAD_MASK >> 4 | UINT64_C(1) << 63)) |
                ((uint64_t)(1023 - 30 + rnd_below(110)) << 52);
        else if (kind == 2 && (i & 8)) /* subnormals */
            b &= (UINT64_C(1) << 52) - 1 + (UINT64_C(1) << 63);
        check_value_texts(from_bits(b), i % shortest_every == 0);
    }
}

static void test_random_decimals(unsigned long count)
{
    char buf[160];
    unsigned long i;
    for (i = 0; i < count; i++) {
        unsigned nd = 1 + rnd_below(40), k, pos = 0;
        unsigned style = rnd_below(4), alpha = rnd_below(5);
        char digits[48];
        for (k = 0; k < nd; k++) {
            unsigned d = rnd_below(10);
            if (alpha == 1) /* runs that sit near rounding boundaries */
                d = rnd_below(3) ? 0 : 9;
            else if (alpha == 2)
                d = k == nd - 1 ? 1 + rnd_below(9) : (rnd_below(4) ? 0 : 5);
            else if (alpha == 3)
                d = rnd_below(8) ? 9 : rnd_below(10);
            digits[k] = (char)('0' + d);
        }
        if (digits[0] == '0')
            digits[0] = (char)('1' + rnd_below(9));
        if (rnd() & 1)
            buf[pos++] = '-';
        if (style == 0) { /* DDDDeX */
            memcpy(buf + pos, digits, nd);
            pos += nd;
        } else if (style == 1 || nd == 1) { /* DD.DDDeX */
            unsigned split = nd == 1 ? 1 : 1 + rnd_below(nd - 1);
            memcpy(buf + pos, digits, split);
            pos += split;
            buf[pos++] = '.';
            if (nd == 1)
                buf[pos++] = '0';
            else {
                memcpy(buf + pos, digits + split, nd - split);
                pos += nd - split;
            }
        } else { /* 0.000DDDeX */
            unsigned z = rnd_below(25);
            buf[pos++] = '0';
            buf[pos++] = '.';
            while (z--)
                buf[pos++] = '0';
            memcpy(buf + pos, digits, nd);
            pos += nd;
        }
        if (style != 3 || rnd_below(2)) {
            int e = (int)rnd_below(701) - 350;
            pos += (unsigned)snprintf(buf + pos, sizeof buf - pos, "%s%d",
                                      rnd_below(2) ? "e" : "E", e);
        }
        buf[pos] = 0;
        if (!strpbrk(buf, ".eE"))
            strcat(buf, ".0");
        check_double(buf);
    }
}

static void test_powers(void)
{
    char buf[1400];
    int e;
    for (e = -400; e <= 400; e++) {
        snprintf(buf, sizeof buf, "1e%d", e);
        check_double(buf);
        snprintf(buf, sizeof buf, "-1.0E%+d", e);
        check_double(buf);
        snprintf(buf, sizeof buf, "9.999999999999999999999e%d", e);
        check_double(buf);
        snprintf(buf, sizeof buf, "10000000000000000000000000000000000000000e%d", e - 40);
        check_double(buf);
    }
    for (e = -1080; e <= 1030; e++) {
        double x = ldexp(1.0, e);
        check_value_texts(x, 1);
        if (x != 0 && !isinf(x)) {
            snprintf(buf, sizeof buf, "%.1100e", x); /* glibc prints it exactly */
            check_double(buf);
            snprintf(buf, sizeof buf, "%.25e", x);
            check_double(buf);
            snprintf(buf, sizeof buf, "%.25e", nextafter(x, 0));
            check_double(buf);
            snprintf(buf, sizeof buf, "%.25e", nextafter(x, INFINITY));
            check_double(buf);
        }
    }
}

/* Midpoints between neighbouring doubles: exactly tied, a hair above, a hair below,
 * with the deciding digit within 19 digits, past 19 and past 800. */
static char g_big[8192];

static void strip_zeros(char *mant) /* "1.2500" -> "1.25", "2.000" -> "2." -> "2" */
{
    size_t n = strlen(mant);
    if (!strchr(mant, '.'))
        return;
    while (n > 0 && mant[n - 1] == '0')
        mant[--n] = 0;
    if (n > 0 && mant[n - 1] == '.')
        mant[--n] = 0;
}

static void check_variants(const char *mant_in, const char *exp)
{
    static char mant[4096];
    size_t n;
    strcpy(mant, mant_in);
    strip_zeros(mant);
    n = strlen(mant);
    snprintf(g_big, sizeof g_big, "%s.0e%s", mant, exp);
    if (strchr(mant, '.'))
        snprintf(g_big, sizeof g_big, "%se%s", mant, exp);
    check_double(g_big); /* exact */
    snprintf(g_big, sizeof g_big, "%s%s000001e%s", mant, strchr(mant, '.') ? "" : ".", exp);
    check_double(g_big); /* above */
    snprintf(g_big, sizeof g_big, "%s%s%01000d1e%s", mant, strchr(mant, '.') ? "" : ".", 0,
             exp);
    check_double(g_big); /* above, past 800 digits */
    snprintf(g_big, sizeof g_big, "%s%s%01000de%s", mant, strchr(mant, '.') ? "" : ".", 0,
             exp);
    check_double(g_big); /* exact, past 800 digits */
    if (n > 2 && mant[n - 1] != '.') {
        /* below: last digit dropped; then decremented with a long tail of nines */
        snprintf(g_big, sizeof g_big, "%.*s%se%s", (int)(n - 1), mant,
                 mant[n - 2] == '.' ? "0" : "", exp);
        check_double(g_big);
        if (strchr(mant, '.') && mant[n - 1] >= '1') {
            int k = snprintf(g_big, sizeof g_big, "%.*s%c", (int)(n - 1), mant, mant[n - 1] - 1);
            int t;
            for (t = 0; t < 900; t++)
                g_big[k++] = '9';
            snprintf(g_big + k, sizeof g_big - (size_t)k, "e%s", exp);
            check_double(g_big);
        }
    }
}

static void check_midpoint_of(double a)
{
#if LDBL_MANT_DIG >= 56
    static char txt[2400];
    long double mid;
    double b = nextafter(a, INFINITY);
    char *e;
    if (isinf(a) || isnan(a) || a < 0)
        return;
    if (isinf(b))
        mid = (long double)a + ldexpl(1.0L, 970); /* DBL_MAX + ulp/2 */
    else
        mid = ((long double)a + (long double)b) / 2;
    snprintf(txt, sizeof txt, "%.1150Le", mid); /* exact: glibc prints every digit */
    e = strchr(txt, 'e');
    *e = 0;
    check_variants(txt, e + 1);
    /* the double itself, exactly, with the same variants */
    snprintf(txt, sizeof txt, "%.1150e", a);
    e = strchr(txt, 'e');
    *e = 0;
    check_variants(txt, e + 1);
#else
    (void)a;
#endif
}

static void test_midpoints(unsigned long count)
{
    unsigned long i;
    int e;
    check_midpoint_of(0.0);
    check_midpoint_of(DBL_MAX);
    check_midpoint_of(nextafter(DBL_MAX, 0));
    check_midpoint_of(DBL_MIN);
    check_midpoint_of(nextafter(DBL_MIN, 0));
    check_midpoint_of(nextafter(0, 1));
    check_midpoint_of(9007199254740992.0);
    check_midpoint_of(1.0);
    check_midpoint_of(0.1);
    for (e = -1074; e <= 1023; e += 1) {
        check_midpoint_of(ldexp(1.0, e));
        if (e % 7 == 0)
            check_midpoint_of(nextafter(ldexp(1.0, e), 0));
    }
    for (i = 0; i < count; i++) {
        uint64_t b = rnd() >> 1;
        if (i % 3 == 0) /* near 1 where ties can be exact in few digits */
            b = (b & ((UINT64_C(1) << 52) - 1)) | ((uint64_t)(1023 - 10 + rnd_below(100)) << 52);
        if (i % 3 == 1 && (i & 2)) /* subnormal */
            b &= (UINT64_C(1) << 52) - 1;
        check_midpoint_of(from_bits(b));
    }
}

static void test_specials(void)
{
    static const char *const cases[] = {
        "0.0", "-0.0", "0e0", "-0e0", "-0E-5", "0.0000000000000000000000000e5",
        "0e99999999999", "-0e99999999999999999999999999", "0.000e-99999999999999999999",
        "1e400", "-1e400", "1e-400", "-1e-400", "1e99999999999999999999",
        "-1e99999999999999999999", "1e-99999999999999999999", "1e18446744073709551616",
        "1e-18446744073709551616", "1e9223372036854775807", "1e9223372036854775808",
        "1e-9223372036854775808", "1e-9223372036854775809", "123.456e-9223372036854775809",
        "4.9406564584124654e-324", "4.9406564584124654e-325", "2.4703282292062327e-324",
        "2.4703282292062328e-324", "2.4703282292062327208828439643411068618252990130716e-324",
        "2.4703282292062327208828439643411068618252990130717e-324", "3e-324", "5e-324",
        "7.4109846876186982e-324", "7.4109846876186981e-324", "1e-323", "1e-324",
        "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308",
        "2.225073858507201136057409796709131975934819546351645648e-308",
        "2.2250738585072009e-308", "2.2250738585072013e-308",
        "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308",
        "1.797693134862315807e308", "1.797693134862315808e308", "1.7976931348623157081e308",
        "1.797693134862315708145274237317043567981e308",
        "1.797693134862315708145274237317043567980e308",
        "1.797693134862315708145274237317043567982e308", "-1.7976931348623158e308",
        "1.8e308", "17976931348623157e292", "179769313486231580793728971405303415079934132"
        "710037826936173778980444968292764750946649017977587207096330286416692887910946555"
        "547851940402630657488671505820681908902000708383676273854845817711531764475730270"
        "069855571366959622842914819860834936475292719074168444365510704342711559699508093"
        "042880177904174497792.0",
        "179769313486231580793728971405303415079934132"
        "710037826936173778980444968292764750946649017977587207096330286416692887910946555"
        "547851940402630657488671505820681908902000708383676273854845817711531764475730270"
        "069855571366959622842914819860834936475292719074168444365510704342711559699508093"
        "042880177904174497791.9999999999999999999999999999999999999999999999999999999999",
        "0.1", "0.2", "0.3", "1.1", "3.141592653589793", "2.718281828459045", "1e23",
        "8.98846567431158e307", "9007199254740993.0", "9007199254740993e0",
        "9007199254740992.5", "9007199254740994.9999", "9007199254740995.0",
        "18014398509481985.0", "18014398509481986e0", "1.00000000000000011102230246251565e0",
        "1.00000000000000011102230246251566e0", "1.00000000000000011102230246251564e0",
        "0.500000000000000166533453693773481063544750213623046875",
        "3.0540412816242056e-16", "7.0e-10", "123456789012345678901234567890e-10",
        "1.448997445238699", "4.35024241073553e-308", "6.631236846766476e-316",
        "3.2378839133029012e+111", "3.4e+38", "-65.613616999999977", "43.420273000000009",
        "2.0e-999999999999", "1.0e-342", "9.9999999999999999999e-343", "1e-343",
        "1e308", "1e309", "9.99999999999999999999e307", "10000000000000000000e289",
        "1000000000000000000000000000000000000000e270", "0.000000000000000000000000001e336",
        "5e-1", "25e-2", "4503599627370496.5", "4503599627370497.5", "1e22", "1e-22",
        "9007199254740991e22", "9007199254740993e-22", "123456e-3", "0.00001",
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_double(cases[i]);

    /* long digit strings */
    {
        static char buf[120000];
        size_t k, n;
        /* 400-digit integer mantissas (inf / finite), 1 followed by many zeros */
        for (n = 290; n <= 420; n += 10) {
            buf[0] = '1';
            for (k = 1; k < n; k++)
                buf[k] = '0';
            strcpy(buf + n, ".0");
            check_double(buf);
            buf[0] = '-';
            buf[1] = '1';
            for (k = 2; k <= n; k++)
                buf[k] = '7';
            strcpy(buf + n + 1, ".5");
            check_double(buf);
        }
        /* 0.000...001 with many zeros */
        strcpy(buf, "0.");
        for (k = 2; k < 402; k++)
            buf[k] = '0';
        strcpy(buf + k, "1");
        check_double(buf);
        strcpy(buf + k, "1e80");
        check_double(buf);
        strcpy(buf + k, "123456789012345678901234567890e100");
        check_double(buf);
        /* 1000...000e-99999 with 100000 zeros: exactly 10 */
        buf[0] = '1';
        for (k = 1; k <= 100000; k++)
            buf[k] = '0';
        strcpy(buf + k, "e-99999");
        check_double(buf);
        strcpy(buf + k, "e-100326");
        check_double(buf);
        strcpy(buf + k, "e-99690");
        check_double(buf);
        buf[50000] = '3';
        strcpy(buf + k, "e-99990");
        check_double(buf);
        /* 1.000...0001 with a far nonzero digit, and 0.999...9 */
        buf[0] = '1';
        buf[1] = '.';
        for (k = 2; k < 5000; k++)
            buf[k] = '0';
        strcpy(buf + k, "1");
        check_double(buf);
        buf[0] = '0';
        for (k = 2; k < 5000; k++)
            buf[k] = '9';
        buf[k] = 0;
        check_double(buf);
    }
}

/* ---- vectors from Python's float() ----------------------------------------------------- */

static int run_vectors(const char *path)
{
    static char line[16384];
    FILE *f = fopen(path, "r");
    unsigned long count = 0;
    if (!f) {
        perror(path);
        return 2;
    }
    while (fgets(line, sizeof line, f)) {
        char *sp = strrchr(line, ' ');
        jj_number n;
        long got;
        uint64_t want;
        if (!sp)
            continue;
        *sp = 0;
        want = strtoull(sp + 1, NULL, 16);
        got = parse_guarded(line, strlen(line), &n);
        count++;
        if (got != (long)strlen(line) || n.kind != JJ_NUM_DOUBLE || n.v.u != want)
            FAIL("vector \"%.120s\": consumed %ld kind %d bits %016" PRIx64 ", want %016" PRIx64,
                 line, got, (int)n.kind, n.v.u, want);
        else
            g_passed++;
    }
    fclose(f);
    printf("(%lu vectors)\n", count);
    printf("%lu passed, %lu failed\n", g_passed, g_failed);
    return g_failed || count == 0 ? 1 : 0;
}

/* ---- benchmark -------------------------------------------------------------------------- */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int run_bench(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data;
    char *copy;
    size_t len, i, ntok = 0, *beg, *fin, rep;
    long sz;
    double t0, t_jj = 1e300, t_sd = 1e300, sink = 0;
    unsigned long mismatches = 0, partial = 0;
    if (!f) {
        perror(path);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    len = (size_t)sz;
    data = malloc(len + 1);
    copy = malloc(len + 1);
    beg = malloc(sizeof *beg * (len / 2 + 1));
    fin = malloc(sizeof *fin * (len / 2 + 1));
    if (!data || !copy || !beg || !fin || fread(data, 1, len, f) != len) {
        fprintf(stderr, "read failed\n");
        return 2;
    }
    fclose(f);
    /* number tokens: a run starting with [-0-9] and going on over [-+.eE0-9] */
    for (i = 0; i < len;) {
        if (data[i] == '-' || (data[i] >= '0' && data[i] <= '9')) {
            size_t s = i;
            while (i < len && strchr("-+.eE0123456789", data[i]) && data[i])
                i++;
            beg[ntok] = s;
            fin[ntok] = i;
            ntok++;
        } else {
            i++;
        }
    }
    /* a NUL-separated copy for strtod */
    memcpy(copy, data, len);
    for (i = 0; i < ntok; i++)
        copy[fin[i]] = 0;
    for (i = 0; i < ntok; i++) {
        jj_number n;
        const uint8_t *r = jj_parse_number(data + beg[i], data + fin[i], &n);
        double d = strtod(copy + beg[i], NULL);
        double g = n.kind == JJ_NUM_DOUBLE ? n.v.d : n.kind == JJ_NUM_INT64 ? (double)n.v.i : d;
        if (!r || r != data + fin[i])
            partial++; /* not a whole JSON number (text inside strings, "1e", "0566") */
        else if (dbits(g) != dbits(d))
            mismatches++;
    }
    for (rep = 0; rep < 60; rep++) {
        double t;
        t0 = now_ns();
        for (i = 0; i < ntok; i++) {
            jj_number n;
            jj_parse_number(data + beg[i], data + fin[i], &n);
            sink += n.v.d;
        }
        t = now_ns() - t0;
        if (t < t_jj)
            t_jj = t;
        t0 = now_ns();
        for (i = 0; i < ntok; i++)
            sink += strtod(copy + beg[i], NULL);
        t = now_ns() - t0;
        if (t < t_sd)
            t_sd = t;
    }
    printf("%zu number tokens (%lu not whole JSON numbers), %lu mismatches against strtod\n",
           ntok, partial, mismatches);
    printf("jj_parse_number: %.2f ns/number\nstrtod:          %.2f ns/number (%.1fx)\n",
           t_jj / (double)ntok, t_sd / (double)ntok, t_sd / t_jj);
    if (sink == 12345.678)
        puts("");
    free(data);
    free(copy);
    free(beg);
    free(fin);
    return mismatches ? 1 : 0;
}

int main(int argc, char **argv)
{
    unsigned long scale = 1;
    if (argc == 3 && strcmp(argv[1], "--bench") == 0) {
        guard_init();
        return run_bench(argv[2]);
    }
    if (argc == 3 && strcmp(argv[1], "--vectors") == 0) {
        guard_init();
        return run_vectors(argv[2]);
    }
    if (argc == 2 && strcmp(argv[1], "--quick") == 0)
        scale = 0;
    guard_init();
    test_grammar();
    test_integers();
    test_specials();
    test_powers();
    test_midpoints(scale ? 4000 : 300);
    test_random_decimals(scale ? 1500000 : 50000);
    test_random_bits(scale ? 2000000 : 60000, 4);
    printf("(%lu double checks against strtod)\n", g_dbl_checks);
    printf("%lu passed, %lu failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
