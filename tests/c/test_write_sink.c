/* The engine's byte sink (jetjson_write.h): growth keeps every byte written, a failed
 * resize makes the error sticky (every later reserve and the finish fail, nothing is
 * leaked), finish shrinks to the length. The oracle is a plain copy of what was put,
 * kept aside. Also the small writers against snprintf. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jetjson_write.h"
#include "test_util.h"

/* A resize callback that refuses capacities above a limit and counts its calls, else
 * hands over to the engine's malloc sink (whose callback it keeps); ctx points at the
 * test's state. */
typedef struct limited {
    size_t limit;
    int calls, refused;
    size_t last_cap;
    jj_sink_resize_fn inner;
} limited;

static int limited_resize(jj_sink *s, size_t cap) {
    limited *l = s->ctx;
    l->calls++;
    l->last_cap = cap;
    if (cap > l->limit) {
        l->refused++;
        free(s->start); /* a failed resize releases what the sink holds */
        return -1;
    }
    return l->inner(s, cap);
}

/* A malloc sink of `first` bytes behind limited_resize. */
static void limited_init(jj_sink *s, limited *l, size_t first) {
    CHECK(jj_sink_init_malloc(s, first) == 0, "malloc sink");
    l->inner = s->resize;
    s->resize = limited_resize;
    s->ctx = l;
}

static void test_grow_keeps_bytes(void) {
    jj_sink s;
    CHECK(jj_sink_init_malloc(&s, 0) == 0, "init");
    uint8_t *copy = malloc((1 << 20) + 256); /* the loop may pass its mark by a chunk, then 64 */
    size_t n = 0;
    uint32_t x = 12345;
    while (n < (1 << 20) - 64) {
        x = x * 1103515245u + 12345u;
        size_t k = (x >> 16) % 40;
        uint8_t chunk[40];
        for (size_t i = 0; i < k; i++) chunk[i] = (uint8_t)(x >> (i % 24));
        if (k == 1) {
            CHECK(jj_sink_put_byte(&s, chunk[0]) == 0, "put_byte");
        } else {
            CHECK(jj_sink_put(&s, chunk, k) == 0, "put");
        }
        memcpy(copy + n, chunk, k);
        n += k;
        CHECK(jj_sink_len(&s) == n, "len %zu vs %zu", jj_sink_len(&s), n);
    }
    /* direct stores after a reserve */
    CHECK(jj_sink_reserve(&s, 64) == 0, "reserve");
    CHECK((size_t)(s.end - s.pos) >= 64, "room after reserve");
    memset(s.pos, 'z', 64);
    s.pos += 64;
    memset(copy + n, 'z', 64);
    n += 64;
    size_t len = 0;
    CHECK(jj_sink_finish(&s, &len) == 0, "finish");
    CHECK(len == n, "finish length %zu vs %zu", len, n);
    CHECK((size_t)(s.end - s.start) == n, "finish shrinks to the length");
    CHECK(memcmp(s.start, copy, n) == 0, "bytes kept through growth");
    free(s.start);
    free(copy);
}

static void test_failed_grow_is_sticky(void) {
    limited l = {10000, 0, 0, 0, NULL};
    jj_sink s;
    limited_init(&s, &l, 100);
    for (int i = 0; i < 900; i++) CHECK(jj_sink_put_byte(&s, 'a') == 0, "put below the limit");
    CHECK(!s.error, "no error yet");
    /* 900 + 20000 > 10000: the resize is refused */
    CHECK(jj_sink_reserve(&s, 20000) == -1, "reserve over the limit fails");
    CHECK(s.error, "error set");
    CHECK(l.refused == 1, "one refusal");
    CHECK(s.start == NULL && s.pos == NULL && s.end == NULL, "pointers cleared");
    int calls = l.calls;
    /* sticky: nothing succeeds, and the owner is not asked again */
    CHECK(jj_sink_reserve(&s, 1) == -1, "later reserve fails");
    CHECK(jj_sink_put_byte(&s, 'b') == -1, "later put_byte fails");
    CHECK(jj_sink_put(&s, "xyz", 3) == -1, "later put fails");
    CHECK(jj_sink_reserve(&s, 0) == 0, "reserving nothing needs no room");
    size_t len = 7;
    CHECK(jj_sink_finish(&s, &len) == -1, "finish reports the error");
    CHECK(len == 0, "no length on error");
    CHECK(l.calls == calls, "no resize after the error (%d vs %d)", l.calls, calls);
}

static void test_overflowing_request(void) {
    limited l = {(size_t)1 << 40, 0, 0, 0, NULL}; /* refuses SIZE_MAX */
    jj_sink s;
    limited_init(&s, &l, 16);
    CHECK(jj_sink_put(&s, "abc", 3) == 0, "put");
    CHECK(jj_sink_reserve(&s, SIZE_MAX - 1) == -1, "a request that overflows fails");
    CHECK(l.last_cap == SIZE_MAX, "the owner is asked for SIZE_MAX");
    CHECK(s.error, "sticky");
}

static void test_finish_shrinks_once(void) {
    limited l = {1 << 20, 0, 0, 0, NULL};
    jj_sink s;
    limited_init(&s, &l, 256);
    CHECK(jj_sink_put(&s, "hello", 5) == 0, "put");
    int calls = l.calls;
    size_t len = 0;
    CHECK(jj_sink_finish(&s, &len) == 0 && len == 5, "finish");
    CHECK(l.calls == calls + 1 && l.last_cap == 5, "one shrink to 5");
    CHECK(memcmp(s.start, "hello", 5) == 0, "bytes");
    calls = l.calls;
    CHECK(jj_sink_finish(&s, &len) == 0 && len == 5 && l.calls == calls, "a full buffer needs no resize");
    free(s.start);
    /* a failing shrink is an error too */
    limited l2 = {1 << 20, 0, 0, 0, NULL};
    jj_sink t;
    limited_init(&t, &l2, 64);
    CHECK(jj_sink_put(&t, "ab", 2) == 0, "put");
    l2.limit = 0;
    CHECK(jj_sink_finish(&t, &len) == -1 && t.error, "failed shrink");
}

static void test_small_writers(void) {
    uint8_t out[16];
    char want[32];
    for (unsigned v = 0; v < 100; v++) {
        snprintf(want, sizeof want, "%02u", v);
        CHECK(jj_write_digits2(out, v) == out + 2 && memcmp(out, want, 2) == 0, "digits2 %u", v);
    }
    for (unsigned b = 0; b < 256; b++) {
        snprintf(want, sizeof want, "%02x", b);
        CHECK(jj_write_hex2(out, b) == out + 2 && memcmp(out, want, 2) == 0, "hex2 %u", b);
    }
    for (uint32_t u = 0; u < 0x10000; u += 7) {
        snprintf(want, sizeof want, "\\u%04x", (unsigned)u);
        CHECK(jj_write_u_escape(out, u) == out + 6 && memcmp(out, want, 6) == 0, "u escape %x", (unsigned)u);
    }
    for (uint32_t c = 0x80; c <= 0x10FFFF; c += 13) {
        /* the oracle: the textbook bit layout, decoded back */
        size_t n = (size_t)(jj_write_utf8(out, c) - out);
        uint32_t back;
        if (n == 2) back = (uint32_t)(out[0] & 0x1F) << 6 | (out[1] & 0x3F);
        else if (n == 3) back = (uint32_t)(out[0] & 0x0F) << 12 | (uint32_t)(out[1] & 0x3F) << 6 | (out[2] & 0x3F);
        else back = (uint32_t)(out[0] & 0x07) << 18 | (uint32_t)(out[1] & 0x3F) << 12 | (uint32_t)(out[2] & 0x3F) << 6 | (out[3] & 0x3F);
        size_t expect = c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
        CHECK(n == expect && back == c, "utf8 %x", (unsigned)c);
    }
    uint8_t line[16];
    CHECK(jj_write_newline(line, 4, ' ') == line + 5 && memcmp(line, "\n    ", 5) == 0, "newline");
    CHECK(jj_write_newline_units(line, 3, "\t-", 2) == line + 7 && memcmp(line, "\n\t-\t-\t-", 7) == 0, "units");
    static const char *const esc[128] = {['"'] = "\\\"", ['\\'] = "\\\\", ['\n'] = "\\n", ['\t'] = "\\t",
                                         ['\r'] = "\\r", ['\b'] = "\\b", ['\f'] = "\\f"};
    for (unsigned c = 0; c < 0x20; c++) {
        if (esc[c]) snprintf(want, sizeof want, "%s", esc[c]);
        else snprintf(want, sizeof want, "\\u%04x", c);
        size_t n = (size_t)(jj_write_escape_ascii(out, (uint8_t)c) - out);
        CHECK(n == strlen(want) && memcmp(out, want, n) == 0, "escape %u", c);
    }
    CHECK(jj_write_escape_ascii(out, '"') == out + 2 && memcmp(out, "\\\"", 2) == 0, "escape quote");
}

static void test_escape_scans(void) {
    /* every byte value at every position against the rules written out */
    for (unsigned c = 0; c < 256; c++) {
        for (int pos = 0; pos < 16; pos++) {
            uint8_t block[16];
            memset(block, 'a', 16);
            block[pos] = (uint8_t)c;
            for (int esc7f = 0; esc7f < 2; esc7f++) {
                int low_bad = (c & 0x7F) < 0x20 || (c & 0x7F) == '"' || (c & 0x7F) == '\\' ||
                              (esc7f && (c & 0x7F) == 0x7F);
                uint64_t w;
                memcpy(&w, block + (pos & 8), 8);
                uint64_t f = jj_escape_flags8(w, esc7f);
                uint64_t want8 = 0;
                if (low_bad) {
                    uint8_t bytes[8] = {0};
                    bytes[pos & 7] = 0x80;
                    memcpy(&want8, bytes, 8);
                }
                CHECK(f == want8, "flags8 byte %u at %d esc7f %d", c, pos, esc7f);
                int bad16 = c >= 0x80 || c < 0x20 || c == '"' || c == '\\' || (esc7f && c == 0x7F);
                CHECK(jj_escape_flags16(block, esc7f) == (bad16 ? 1u << pos : 0u), "flags16 byte %u at %d", c, pos);
            }
        }
    }
}

int main(void) {
    test_grow_keeps_bytes();
    test_failed_grow_is_sticky();
    test_overflowing_request();
    test_finish_shrinks_once();
    test_small_writers();
    test_escape_scans();
    return jj_test_report();
}
