/* Tests for src/core/format_double.c (jj_format_double_repr, jj_format_double_orjson,
 * jj_shortest_digits).
 *
 * Usage: test_format_double                 hand-written cases, then round trips of
 *                                           random doubles through strtod with a check
 *                                           that no shorter decimal reads back the same
 *        test_format_double --vectors FILE  lines "<hex bits> <repr> <orjson>" made by
 *                                           tests/c/format_double_oracle.py
 *        test_format_double --fast N         compare the one-product search with the
 *                                           exact one on boundary cases and N random
 *                                           doubles (the default run does 2000000)
 *        test_format_double --bench FILE    time both writers against snprintf("%.17g")
 *                                           on the numbers of FILE (e.g. canada.json,
 *                                           read with strtod) and on random doubles,
 *                                           after round-trip checks of FILE's numbers
 * The last line is "N passed, M failed"; the exit status is 0 only when M is 0. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "format_double.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_util.h"

static uint64_t bits_of(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

static double of_bits(uint64_t b)
{
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* ---- calling the writers with a guard ------------------------------------------------ */

#define GUARD 0x5a

/* Formats v in the given style into a NUL-terminated string; checks the length bound
 * and that nothing was written at or past out + JJ_DOUBLE_BUF_SIZE. */
static size_t format_checked(double v, int orjson, char *text)
{
    char buf[JJ_DOUBLE_BUF_SIZE + 16];
    memset(buf, GUARD, sizeof buf);
    size_t n = orjson ? jj_format_double_orjson(v, buf) : jj_format_double_repr(v, buf);
    int guard_ok = 1;
    for (size_t i = JJ_DOUBLE_BUF_SIZE; i < sizeof buf; i++)
        guard_ok &= buf[i] == GUARD;
    if (!guard_ok || n == 0 || n > JJ_DOUBLE_MAX_CHARS) {
        FAIL("%016" PRIx64 " (%s): length %zu or write past the buffer", bits_of(v),
             orjson ? "orjson" : "repr", n);
        n = n > JJ_DOUBLE_MAX_CHARS ? JJ_DOUBLE_MAX_CHARS : n;
    }
    memcpy(text, buf, n);
    text[n] = 0;
    return n;
}

/* The significant digits of a decimal text ("-0.00120e+5" -> "12") and their number;
 * *exp10 is set so that the value is digits * 10^*exp10. */
static int sig_digits(const char *text, char *digits, int *exp10)
{
    int n = 0, after_point = 0, in_fraction = 0, e = 0;
    const char *p = text;
    if (*p == '-')
        p++;
    for (; *p && *p != 'e' && *p != 'E'; p++) {
        if (*p == '.') {
            in_fraction = 1;
            continue;
        }
        after_point += in_fraction;
        if (n == 0 && *p == '0')
            continue; /* leading zero */
        digits[n++] = *p;
    }
    if (*p)
        e = atoi(p + 1);
    e -= after_point;
    while (n > 0 && digits[n - 1] == '0') {
        n--;
        e++;
    }
    digits[n] = 0;
    *exp10 = e;
    return n;
}

/* ---- hand-written cases -------------------------------------------------------------- */

struct hand_case {
    double v;
    const char *repr, *orjson;
};

static const struct hand_case hand_cases[] = {
    {0.0, "0.0", "0.0"},
    {-0.0, "-0.0", "-0.0"},
    {1.0, "1.0", "1.0"},
    {-1.0, "-1.0", "-1.0"},
    {0.1, "0.1", "0.1"},
    {0.2, "0.2", "0.2"},
    {0.3, "0.3", "0.3"},
    {0.30000000000000004, "0.30000000000000004", "0.30000000000000004"},
    {1.0 / 3.0, "0.3333333333333333", "0.3333333333333333"},
    {2.0 / 3.0, "0.6666666666666666", "0.6666666666666666"},
    {-2.0 / 3.0, "-0.6666666666666666", "-0.6666666666666666"},
    {1e-05, "1e-05", "0.00001"},
    {1e-4, "0.0001", "0.0001"},
    {1.5e-5, "1.5e-05", "0.000015"},
    {-5e-5, "-5e-05", "-0.00005"},
    {1e-6, "1e-06", "1e-6"},
    {1.5e-6, "1.5e-06", "1.5e-6"},
    {1e-7, "1e-07", "1e-7"},
    {0.001, "0.001", "0.001"},
    {0.000123, "0.000123", "0.000123"},
    {1e16, "1e+16", "1e+16"},
    {1.2345e16, "1.2345e+16", "1.2345e+16"},
    {-1e16, "-1e+16", "-1e+16"},
    {123456789012345.0, "123456789012345.0", "123456789012345.0"},
    {1234567890123456.0, "1234567890123456.0", "1234567890123456.0"},
    {9007199254740992.0, "9007199254740992.0", "9007199254740992.0"},
    {9007199254740993.0, "9007199254740992.0", "9007199254740992.0"},
    {9223372036854775808.0, "9.223372036854776e+18", "9.223372036854776e+18"},
    {123456789012345678.0, "1.2345678901234568e+17", "1.2345678901234568e+17"},
    {1.7976931348623157e308, "1.7976931348623157e+308", "1.7976931348623157e+308"},
    {-1.7976931348623157e308, "-1.7976931348623157e+308", "-1.7976931348623157e+308"},
    {5e-324, "5e-324", "5e-324"},
    {-5e-324, "-5e-324", "-5e-324"},
    {1e-323, "1e-323", "1e-323"},
    {2.2250738585072014e-308, "2.2250738585072014e-308", "2.2250738585072014e-308"},
    {2.225073858507201e-308, "2.225073858507201e-308", "2.225073858507201e-308"},
    {1e21, "1e+21", "1e+21"},
    {1e22, "1e+22", "1e+22"},
    {1e23, "1e+23", "1e+23"},
    {100.0, "100.0", "100.0"},
    {1e15, "1000000000000000.0", "1000000000000000.0"},
    {999999999999999.9, "999999999999999.9", "999999999999999.9"},
    {9999999999999998.0, "9999999999999998.0", "9999999999999998.0"},
    {0.5, "0.5", "0.5"},
    {2.5, "2.5", "2.5"},
    {1e100, "1e+100", "1e+100"},
    {1e-100, "1e-100", "1e-100"},
    {3.141592653589793, "3.141592653589793", "3.141592653589793"},
    {-2.718281828459045, "-2.718281828459045", "-2.718281828459045"},
    {0x1p-1022, "2.2250738585072014e-308", "2.2250738585072014e-308"},
    {1e308, "1e+308", "1e+308"},
    {4.35, "4.35", "4.35"},
    {12345.678, "12345.678", "12345.678"},
    {9.999999999999999e-05, "9.999999999999999e-05", "0.00009999999999999999"},
    {1e-10, "1e-10", "1e-10"},
    {3e-9, "3e-09", "3e-9"},
    {6.02214076e23, "6.02214076e+23", "6.02214076e+23"},
    {1.602176634e-19, "1.602176634e-19", "1.602176634e-19"},
    {299792458.0, "299792458.0", "299792458.0"},
    {-273.15, "-273.15", "-273.15"},
    {65.613616999999977, "65.61361699999998", "65.61361699999998"},
    {0x3p-1074, "1.5e-323", "1.5e-323"},
    {1.2345678901234567e-5, "1.2345678901234568e-05", "0.000012345678901234568"},
    {-1.2345678901234567e-308, "-1.2345678901234567e-308", "-1.2345678901234567e-308"},
    /* the one product whose fraction is below 2^-64 (see format_double_table.h) */
    {0x1.f92bacb3cb40cp+716, "6.802601037806062e+215", "6.802601037806062e+215"},
    /* exact ties between two shortest candidates: the even one */
    {1125899906842624.25, "1125899906842624.2", "1125899906842624.2"},
    {0x1p-25, "2.9802322387695312e-08", "2.9802322387695312e-8"},
};

static void run_hand_cases(void)
{
    char text[64];
    for (size_t i = 0; i < sizeof hand_cases / sizeof hand_cases[0]; i++) {
        const struct hand_case *c = &hand_cases[i];
        const char *want_orjson = c->orjson;
        format_checked(c->v, 0, text);
        CHECK(strcmp(text, c->repr) == 0, "repr of case %zu: got %s, want %s", i, text,
              c->repr);
        format_checked(c->v, 1, text);
        CHECK(strcmp(text, want_orjson) == 0, "orjson of case %zu: got %s, want %s", i,
              text, want_orjson);
    }
    /* the shared core */
    static const struct {
        double v;
        uint64_t digits;
        int exponent, neg;
    } core[] = {
        {0.0, 0, 0, 0},        {-0.0, 0, 0, 1},
        {100.0, 1, 2, 0},      {0.1, 1, -1, 0},
        {-1.5e-7, 15, -8, 1},  {5e-324, 5, -324, 0},
        {1e308, 1, 308, 0},    {1.7976931348623157e308, 17976931348623157, 292, 0},
        {123456.0, 123456, 0, 0}, {9007199254740993.0, 9007199254740992, 0, 0},
    };
    for (size_t i = 0; i < sizeof core / sizeof core[0]; i++) {
        uint64_t d = 99;
        int e = 99;
        int neg = jj_shortest_digits(core[i].v, &d, &e);
        CHECK(d == core[i].digits && e == core[i].exponent && neg == core[i].neg,
              "shortest digits of %.17g: got %" PRIu64 "e%d sign %d", core[i].v, d, e, neg);
    }
}

/* ---- round trips and minimality ---------------------------------------------------- */

/* Checks one finite double: both texts read back as v, have the same digits, and no
 * decimal with one digit fewer reads back as v. The candidates with n - 1 digits nearest
 * to v are the correctly rounded one from snprintf("%.*e") and its two neighbours. */
static void round_trip(double v)
{
    char r[64], o[64], dr[32], dor[32], probe[64];
    int er, eo;
    format_checked(v, 0, r);
    format_checked(v, 1, o);
    uint64_t b = bits_of(v);
    CHECK(bits_of(strtod(r, NULL)) == b, "repr %s does not read back as %016" PRIx64, r, b);
    CHECK(bits_of(strtod(o, NULL)) == b, "orjson %s does not read back as %016" PRIx64, o,
          b);
    int n = sig_digits(r, dr, &er);
    int no = sig_digits(o, dor, &eo);
    CHECK(n == no && er == eo && strcmp(dr, dor) == 0, "repr %s and orjson %s differ", r,
          o);
    uint64_t d;
    int e;
    jj_shortest_digits(v, &d, &e);
    char dd[32];
    snprintf(dd, sizeof dd, "%" PRIu64, d);
    CHECK(v == 0 || (strcmp(dd, dr) == 0 && e == er),
          "jj_shortest_digits of %s: %se%d", r, dd, e);
    if (n < 2)
        return;
    /* n - 1 significant digits, as d.ddd e X */
    snprintf(probe, sizeof probe, "%.*e", n - 2, fabs(v));
    char *ep = strchr(probe, 'e');
    int x = atoi(ep + 1);
    uint64_t m = 0;
    for (char *p = probe; p < ep; p++)
        if (*p != '.')
            m = m * 10 + (uint64_t)(*p - '0');
    int shorter = 0;
    for (int delta = -1; delta <= 1; delta++) {
        char cand[64];
        uint64_t mm = m + (uint64_t)(int64_t)delta;
        if (mm == 0)
            continue;
        snprintf(cand, sizeof cand, "%" PRIu64 "e%d", mm, x - (n - 2));
        if (bits_of(strtod(cand, NULL)) == bits_of(fabs(v)))
            shorter = 1;
    }
    CHECK(!shorter, "%s is not the shortest (%d digits): %s reads back too", r, n, probe);
}

static void run_round_trips(unsigned long count)
{
    uint64_t state = 0x1234567890abcdefu;
    unsigned long done = 0;
    while (done < count) {
        uint64_t b = splitmix64(&state);
        if (((b >> 52) & 0x7ff) == 0x7ff)
            continue;
        round_trip(of_bits(b));
        done++;
    }
    /* uniform over exponents, so the extremes get as many as the middle */
    for (unsigned long i = 0; i < count / 4; i++) {
        uint64_t r = splitmix64(&state);
        uint64_t e = (r >> 53) % 2047;
        round_trip(of_bits((r & (UINT64_C(1) << 63)) | (e << 52) |
                           (splitmix64(&state) & ((UINT64_C(1) << 52) - 1))));
    }
    /* every power of two and its neighbours; every power of ten and its neighbours */
    for (int e = -1074; e <= 1023; e++) {
        uint64_t pb = bits_of(ldexp(1.0, e));
        for (int dlt = -2; dlt <= 2; dlt++)
            if ((int64_t)pb + dlt > 0 && pb + (uint64_t)dlt < UINT64_C(0x7ff0000000000000))
                round_trip(of_bits(pb + (uint64_t)(int64_t)dlt));
    }
    for (int k = -323; k <= 308; k++) {
        char t[16];
        snprintf(t, sizeof t, "1e%d", k);
        uint64_t pb = bits_of(strtod(t, NULL));
        for (int dlt = -2; dlt <= 2; dlt++)
            if (pb + (uint64_t)(int64_t)dlt < UINT64_C(0x7ff0000000000000))
                round_trip(of_bits(pb + (uint64_t)(int64_t)dlt));
    }
    /* short decimals: few digits over the whole range */
    for (unsigned long i = 0; i < count / 8; i++) {
        char t[48];
        uint64_t r = splitmix64(&state);
        int nd = 1 + (int)(r % 17);
        uint64_t p10 = 1;
        for (int j = 0; j < nd; j++)
            p10 *= 10;
        uint64_t digits = splitmix64(&state) % p10;
        int ex = (int)((r >> 8) % 640) - 330;
        snprintf(t, sizeof t, "%" PRIu64 "e%d", digits, ex);
        double v = strtod(t, NULL);
        if (isfinite(v))
            round_trip(v);
    }
    /* small integers */
    for (int i = 0; i <= 100000; i++)
        round_trip((double)i);
    /* 16-digit integers, spread over [10^15, 2^53): every digit place takes every value,
     * and the text must be the integer's own digits and ".0" */
    for (uint64_t i = 0; i < 1000000; i++) {
        uint64_t n = UINT64_C(1000000000000000) +
                     i * UINT64_C(8007199254) % UINT64_C(8007199254740992);
        char want[32], got[64];
        snprintf(want, sizeof want, "%" PRIu64 ".0", n);
        format_checked((double)n, 0, got);
        CHECK(strcmp(got, want) == 0, "repr of %" PRIu64 ": %s", n, got);
        format_checked((double)n, 1, got);
        CHECK(strcmp(got, want) == 0, "orjson of %" PRIu64 ": %s", n, got);
    }
}

/* ---- the fast search against the exact one ------------------------------------------- */

static unsigned long g_fast, g_handed_on;

/* jj_shortest_digits (the one-product search, handing hard cases to the exact one) must
 * agree with jj_shortest_digits_exact (the three-product search alone) on v. */
static void fast_vs_exact(double v)
{
    uint64_t d1 = 1, d2 = 2;
    int e1 = 1, e2 = 2;
    int n1 = jj_shortest_digits(v, &d1, &e1);
    int n2 = jj_shortest_digits_exact(v, &d2, &e2);
    CHECK(d1 == d2 && e1 == e2 && n1 == n2,
          "%016" PRIx64 ": fast search %" PRIu64 "e%d, exact search %" PRIu64 "e%d",
          bits_of(v), d1, e1, d2, e2);
    if (jj_shortest_digits_fast_decides(v))
        g_fast++;
    else
        g_handed_on++;
}

static double ldexp_c(uint64_t c, int q)
{
    return ldexp((double)c, q);
}

/* Values whose rounding interval has exact decimal bounds or whose two candidates tie
 * exactly: the fast search must hand them to the exact one. For q > 0 the bounds
 * (2c -+ 1) * 2^(q-1) are integers, multiples of 10^(k+1) (k = floor(log10(2^q))) when
 * 5^(k+1) divides 2c -+ 1: the shorter candidate then lies on the bound, and the parity of
 * c decides whether it counts. For q = -1, -2 the bounds are exact quarters of the
 * search's unit; for q = -2 and odd c, v / 10^k is an odd multiple of 1/2 (a tie). */
static void run_boundaries(uint64_t *state)
{
    unsigned long handed_before = g_handed_on;
    uint64_t p2 = 2; /* 2^q */
    for (int q = 1; q < 64; q++, p2 *= 2) {
        int k = 0;
        for (uint64_t t = p2; t >= 10; t /= 10)
            k++;
        uint64_t f = 1;
        for (int i = 0; i <= k; i++)
            f *= 5;
        if (f >= (UINT64_C(1) << 53))
            break;
        for (int sign = -1; sign <= 1; sign += 2) {
            for (int i = 0; i < 200; i++) {
                /* 2c + sign = f * j, j odd, c in [2^52, 2^53) */
                uint64_t jlo = (UINT64_C(1) << 53) / f + 1, jhi = (UINT64_C(1) << 54) / f;
                if (jhi < jlo)
                    break;
                uint64_t j = (jlo + splitmix64(state) % (jhi - jlo + 1)) | 1;
                uint64_t c2 = f * j - (uint64_t)(int64_t)sign;
                if (c2 % 2 || c2 / 2 < (UINT64_C(1) << 52) || c2 / 2 >= (UINT64_C(1) << 53))
                    continue;
                double v = ldexp_c(c2 / 2, q);
                fast_vs_exact(v);
                fast_vs_exact(nextafter(v, 0));
                fast_vs_exact(nextafter(v, INFINITY));
            }
        }
    }
    for (int q = -3; q <= 1; q++)
        for (int i = 0; i < 20000; i++)
            fast_vs_exact(ldexp_c((UINT64_C(1) << 52) | (splitmix64(state) >> 12), q));
    /* powers of two (the asymmetric interval), of ten, and the smallest normals */
    for (int e = -1074; e <= 1023; e++)
        fast_vs_exact(ldexp(1.0, e));
    for (int k = -323; k <= 308; k++) {
        char t[16];
        snprintf(t, sizeof t, "1e%d", k);
        double v = strtod(t, NULL);
        fast_vs_exact(v);
        fast_vs_exact(nextafter(v, 0));
        fast_vs_exact(nextafter(v, INFINITY));
    }
    for (uint64_t b = 1; b < 4000; b++) {
        fast_vs_exact(of_bits(b));                            /* subnormals */
        fast_vs_exact(of_bits(UINT64_C(0x0010000000000000) + b - 1)); /* smallest normals */
    }
    /* these must have exercised the hand-over (else the test proves nothing about it) */
    CHECK(g_handed_on - handed_before > 1000, "only %lu boundary values were handed on",
          g_handed_on - handed_before);
}

static void run_fast_vs_exact(unsigned long count)
{
    uint64_t state = 0x0123456789abcdefu;
    g_fast = g_handed_on = 0;
    run_boundaries(&state);
    unsigned long fast_before = g_fast, handed_before = g_handed_on, odd_ones = 0;
    unsigned long done = 0;
    while (done < count) {
        uint64_t b = splitmix64(&state);
        unsigned e = (unsigned)(b >> 52) & 0x7ff;
        if (e == 0x7ff || e == 0)
            continue;
        unsigned long before = g_handed_on;
        fast_vs_exact(of_bits(b));
        /* exact bounds (and so hand-overs) need 2^50 <= |v| < 2^80 or a power of two:
         * elsewhere the bounds' fractions are never within 2^-57 of an integer in
         * practice */
        int q = (int)e - 1075;
        if (g_handed_on != before && (q < -2 || q > 28) && (b & ((UINT64_C(1) << 52) - 1)))
            odd_ones++;
        done++;
    }
    /* random normal doubles: the fast search settles nearly all by itself */
    CHECK(g_handed_on - handed_before <= count / 200, "%lu of %lu random doubles were handed on",
          g_handed_on - handed_before, count);
    CHECK(odd_ones == 0, "%lu random doubles outside [2^50, 2^80) were handed on", odd_ones);
    fprintf(stderr, "fast search: %lu settled, %lu handed on (random: %lu, %lu)\n", g_fast,
            g_handed_on, g_fast - fast_before, g_handed_on - handed_before);
}

/* ---- vectors from Python ------------------------------------------------------------- */

static void run_vectors(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        FAIL("cannot open %s", path);
        return;
    }
    char line[256], want_r[128], want_o[128], got[64];
    unsigned long lines = 0;
    while (fgets(line, sizeof line, f)) {
        uint64_t b;
        if (sscanf(line, "%" SCNx64 " %127s %127s", &b, want_r, want_o) != 3) {
            FAIL("bad vector line: %s", line);
            continue;
        }
        lines++;
        double v = of_bits(b);
        format_checked(v, 0, got);
        CHECK(strcmp(got, want_r) == 0, "%016" PRIx64 " repr: got %s, want %s", b, got,
              want_r);
        format_checked(v, 1, got);
        CHECK(strcmp(got, want_o) == 0, "%016" PRIx64 " orjson: got %s, want %s", b, got,
              want_o);
        /* the core's digits are those of Python's repr */
        char dr[32], dd[32];
        int er;
        sig_digits(want_r, dr, &er);
        uint64_t d;
        int e;
        jj_shortest_digits(v, &d, &e);
        snprintf(dd, sizeof dd, "%" PRIu64, d);
        CHECK(v == 0 ? d == 0 : strcmp(dd, dr) == 0 && e == er,
              "%016" PRIx64 " digits: got %se%d, want %se%d", b, dd, e, dr, er);
    }
    fclose(f);
    CHECK(lines > 0, "no vectors in %s", path);
    fprintf(stderr, "%lu vectors checked\n", lines);
}

/* ---- benchmark ------------------------------------------------------------------------ */

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Best of several passes, in ns per double. */
static double time_writer(const double *vals, size_t n, int which, size_t *sink)
{
    char buf[64];
    double best = 1e300;
    for (int rep = 0; rep < 7; rep++) {
        size_t total = 0;
        double t0 = now_ns();
        for (size_t i = 0; i < n; i++) {
            if (which == 0)
                total += jj_format_double_repr(vals[i], buf);
            else if (which == 1)
                total += jj_format_double_orjson(vals[i], buf);
            else
                total += (size_t)snprintf(buf, sizeof buf, "%.17g", vals[i]);
            total += (unsigned char)buf[0];
        }
        double t = (now_ns() - t0) / (double)n;
        if (t < best)
            best = t;
        *sink += total;
    }
    return best;
}

static void bench_set(const char *name, const double *vals, size_t n)
{
    size_t sink = 0;
    double tr = time_writer(vals, n, 0, &sink);
    double to = time_writer(vals, n, 1, &sink);
    double ts = time_writer(vals, n, 2, &sink);
    printf("%-28s %8zu doubles: repr %6.1f ns, orjson %6.1f ns, snprintf %%.17g %6.1f ns"
           " (x%.1f) [%zu]\n",
           name, n, tr, to, ts, ts / tr, sink % 10);
}

static int run_bench(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        free(text);
        return 2;
    }
    fclose(f);
    text[size] = 0;
    size_t cap = 1 << 16, n = 0;
    double *vals = malloc(cap * sizeof *vals);
    for (char *p = text; *p;) {
        int starts = (*p == '-' || (*p >= '0' && *p <= '9')) &&
                     (p == text || !((p[-1] >= 'a' && p[-1] <= 'z') ||
                                     (p[-1] >= 'A' && p[-1] <= 'Z') || p[-1] == '_'));
        if (!starts) {
            p++;
            continue;
        }
        char *end;
        double v = strtod(p, &end);
        if (end == p) {
            p++;
            continue;
        }
        if (n == cap) {
            cap *= 2;
            vals = realloc(vals, cap * sizeof *vals);
        }
        vals[n++] = v;
        p = end;
    }
    free(text);
    /* the timed results must be right too */
    for (size_t i = 0; i < n; i++)
        round_trip(vals[i]);
    bench_set(path, vals, n);

    /* random finite bit patterns */
    size_t nr = 1000000;
    double *rnd = malloc(nr * sizeof *rnd);
    uint64_t state = 42;
    for (size_t i = 0; i < nr;) {
        uint64_t b = splitmix64(&state);
        if (((b >> 52) & 0x7ff) != 0x7ff)
            rnd[i++] = of_bits(b);
    }
    bench_set("random bit patterns", rnd, nr);
    for (size_t i = 0; i < nr; i++)
        rnd[i] = (double)(splitmix64(&state) >> 11) * 0x1p-53 * 1000.0;
    bench_set("random in [0, 1000)", rnd, nr);
    free(rnd);
    free(vals);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--bench") == 0) {
        if (run_bench(argv[2]) != 0)
            return 2;
    } else if (argc == 3 && strcmp(argv[1], "--vectors") == 0) {
        run_vectors(argv[2]);
    } else if (argc == 3 && strcmp(argv[1], "--fast") == 0) {
        run_fast_vs_exact(strtoul(argv[2], NULL, 10));
    } else if (argc == 1) {
        run_hand_cases();
        run_fast_vs_exact(2000000);
        run_round_trips(2000000);
    } else {
        fprintf(stderr, "usage: %s [--vectors FILE | --fast N | --bench FILE]\n", argv[0]);
        return 2;
    }
    printf("%lu passed, %lu failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
