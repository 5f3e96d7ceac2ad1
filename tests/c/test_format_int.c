/* format_int.c against printf on the edges of every digit count and random values. */
#include <inttypes.h>

#include "jetjson_write.h"
#include "test_util.h"

static uint64_t g_rng = 0x9e3779b97f4a7c15u;
static uint64_t next_random(void) { /* splitmix64 */
    uint64_t z = (g_rng += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void check_unsigned(uint64_t v) {
    char got[JJ_INT_MAX_CHARS + 1], want[32];
    size_t n = jj_format_uint64(v, got);
    got[n] = 0;
    snprintf(want, sizeof want, "%" PRIu64, v);
    CHECK(strcmp(got, want) == 0, "uint64 %s: got %s", want, got);
}

static void check_signed(int64_t v) {
    char got[JJ_INT_MAX_CHARS + 1], want[32];
    size_t n = jj_format_int64(v, got);
    got[n] = 0;
    snprintf(want, sizeof want, "%" PRId64, v);
    CHECK(strcmp(got, want) == 0, "int64 %s: got %s", want, got);
}

int main(void) {
    uint64_t power = 1;
    for (int digits = 1; digits <= 20; digits++) {
        for (int delta = -2; delta <= 2; delta++) {
            uint64_t v = power + (uint64_t)(int64_t)delta;
            check_unsigned(v);
            check_signed((int64_t)v);
            check_signed(-(int64_t)(v & INT64_MAX));
        }
        if (digits < 20) power *= 10;
    }
    check_unsigned(0);
    check_unsigned(UINT64_MAX);
    check_signed(INT64_MIN);
    check_signed(INT64_MAX);
    check_signed(0);
    check_signed(-1);
    for (int i = 0; i < 1000000; i++) {
        uint64_t r = next_random();
        uint64_t v = r >> (r & 63); /* every magnitude, not only 20-digit values */
        check_unsigned(v);
        check_signed((int64_t)v);
        check_signed(-(int64_t)(v >> 1));
    }
    return jj_test_report();
}
