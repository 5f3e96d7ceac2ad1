/* format_float32.c against the C library: every checked float must read back from its
 * text (strtof), no decimal with one digit fewer may read back, and when the nearest
 * decimal of the same length (printf's correctly rounded %.*e) reads back, it must be
 * the one chosen. tests/c/format_float32_oracle.py compares the spelling with orjson. */
#include <math.h>
#include <stdint.h>

#include "format_float32.h"
#include "test_util.h"

static float of_bits(uint32_t b) {
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static int reads_back(uint64_t digits, int exp10, float v) {
    char buf[48];
    snprintf(buf, sizeof buf, "%llue%d", (unsigned long long)digits, exp10);
    return strtof(buf, NULL) == fabsf(v);
}

static int num_digits(uint64_t d) {
    int n = 1;
    while (d >= 10) {
        d /= 10;
        n++;
    }
    return n;
}

static void check(uint32_t bits) {
    float v = of_bits(bits);
    if (!isfinite(v)) return;
    char text[JJ_FLOAT32_BUF_SIZE + 1];
    size_t len = jj_format_float32_orjson(v, text);
    text[len] = 0;
    CHECK(strtof(text, NULL) == v && signbit(strtof(text, NULL)) == signbit(v), "%08x: text %s", bits, text);
    uint32_t d;
    int e;
    jj_shortest_digits32(v, &d, &e);
    if (v == 0) {
        CHECK(d == 0 && e == 0, "%08x: zero gave %ue%d", bits, d, e);
        return;
    }
    CHECK(d % 10 != 0, "%08x: trailing zero in %u", bits, d);
    CHECK(reads_back(d, e, v), "%08x: %ue%d does not read back", bits, d, e);
    int n = num_digits(d);
    if (n > 1) {
        /* every (n-1)-digit decimal near v: none may read back */
        uint64_t base = d / 10;
        for (uint64_t c = base ? base - 1 : 0; c <= base + 2; c++)
            CHECK(c == 0 || !reads_back(c, e + 1, v), "%08x: %ue%d is shorter than %ue%d", bits,
                  (unsigned)c, e + 1, d, e);
    }
    /* the nearest n-digit decimal, when it reads back, is the answer */
    char near[64];
    snprintf(near, sizeof near, "%.*e", n - 1, fabs((double)v));
    if (strtof(near, NULL) == fabsf(v)) {
        uint64_t nd = 0;
        char *p = near;
        for (; *p && *p != 'e'; p++)
            if (*p >= '0' && *p <= '9') nd = nd * 10 + (uint64_t)(*p - '0');
        int ne = atoi(p + 1) - (n - 1);
        while (nd % 10 == 0 && nd) {
            nd /= 10;
            ne++;
        }
        CHECK(nd == d && ne == e, "%08x: chose %ue%d, nearest is %s", bits, d, e, near);
    }
}

int main(int argc, char **argv) {
    /* argv[1]: test every STEP-th bit pattern (default 4099, ~1M floats) */
    uint64_t step = argc > 1 ? strtoull(argv[1], NULL, 10) : 4099;
    if (!step) step = 1;
    for (uint64_t b = 0; b < (UINT64_C(1) << 32); b += step) check((uint32_t)b);
    /* powers of two (the asymmetric intervals) and their neighbours, both signs */
    for (uint32_t exp = 0; exp < 255; exp++) {
        for (int delta = -3; delta <= 3; delta++) {
            uint32_t b = (exp << 23) + (uint32_t)delta;
            check(b);
            check(b | 0x80000000u);
        }
    }
    /* the smallest subnormals and integers around 2^24 */
    for (uint32_t b = 0; b < 20000; b++) check(b);
    for (uint32_t i = 16777000; i < 16777400; i++) {
        float f = (float)i;
        uint32_t b;
        memcpy(&b, &f, 4);
        check(b);
    }
    return jj_test_report();
}
