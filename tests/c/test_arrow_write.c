/* Arrow record batches to NDJSON (jetjson_arrow_write.h), on arrays built here by hand:
 * every value kind, nulls (written and skipped), sliced arrays (offsets at every level),
 * dictionaries, string views, the errors with their field paths. Timestamps and dates
 * are checked against the C library's gmtime_r/strftime over a wide range of instants. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jetjson_arrow_write.h"
#include "test_util.h"

/* ---- building arrays (nothing to release: everything is static or in the test) ---- */

static void noop_schema_release(struct ArrowSchema *s) { s->release = NULL; }

static struct ArrowSchema field(const char *format, const char *name, int64_t n, struct ArrowSchema **children) {
    struct ArrowSchema s = {format, name, NULL, ARROW_FLAG_NULLABLE, n, children, NULL, noop_schema_release, NULL};
    return s;
}

static struct ArrowArray array(int64_t length, int64_t offset, int64_t null_count, int64_t n_buffers,
                               const void **buffers, int64_t n_children, struct ArrowArray **children) {
    struct ArrowArray a = {length, null_count, offset, n_buffers, n_children, buffers, children, NULL, NULL, NULL};
    return a;
}

/* Write `batch` with `schema` and flags; compare with `want` (NULL: expect `err`). */
static void expect(const char *what, struct ArrowSchema *schema, struct ArrowArray *batch, unsigned flags,
                   const char *want, jj_aw_error want_err, const char *want_field) {
    jj_aw_plan *plan = NULL;
    jj_aw_status st;
    jj_aw_error err = jj_aw_plan_new(schema, flags, &plan, &st);
    jj_sink sink;
    CHECK(jj_sink_init_malloc(&sink, 16) == 0, "sink");
    if (!err) err = jj_aw_write_batch(plan, batch, &sink, &st);
    size_t len = 0;
    int fin = jj_sink_finish(&sink, &len);
    CHECK(fin == 0, "%s: finish", what);
    if (want) {
        CHECK(err == JJ_AW_OK, "%s: error %s at %s", what, jj_aw_error_name(err), st.field);
        CHECK(err || (len == strlen(want) && memcmp(sink.start, want, len) == 0), "%s:\n got  %.*s\n want %s", what,
              (int)len, (const char *)sink.start, want);
    } else {
        CHECK(err == want_err, "%s: error %s, want %s", what, jj_aw_error_name(err), jj_aw_error_name(want_err));
        CHECK(!want_field || strcmp(st.field, want_field) == 0, "%s: field '%s', want '%s'", what, st.field,
              want_field);
    }
    jj_sink_free_malloc(&sink);
    jj_aw_plan_free(plan);
}

/* ---- scalars in one batch, nulls, slices ---- */

static void test_scalars(void) {
    /* rows 0..4; the batch is sliced to rows 1..3 (offset 1, length 3) */
    static const uint8_t valid_0b10111[] = {0x17}; /* row 3 null */
    static const int64_t ints[] = {10, -20, 30, 40, INT64_MIN};
    static const uint64_t uints[] = {0, UINT64_MAX, 7, 8, 9};
    static const int8_t small[] = {-128, 127, 0, -1, 5};
    static const double dbl[] = {0.5, 1e16, NAN, -INFINITY, 0.1};
    static const float flt[] = {0.1f, 1.5f, 3e38f, -0.0f, 2.0f};
    static const uint16_t half[] = {0x3C00, 0x2E66, 0x7C00, 0x0001, 0xC000}; /* 1, 0.1, inf, 2^-24, -2 */
    static const uint8_t bools[] = {0x05};                                    /* 1,0,1,0,0 */
    static const int32_t str_off[] = {0, 2, 5, 5, 12, 13};
    static const char ok_data[] = "ab\"\\\n\x01" "xyz\xc3\xa9zz";
    const void *b_ints[] = {valid_0b10111, ints}, *b_uints[] = {NULL, uints}, *b_small[] = {NULL, small},
               *b_dbl[] = {NULL, dbl}, *b_flt[] = {NULL, flt}, *b_half[] = {NULL, half}, *b_bool[] = {NULL, bools},
               *b_str[] = {NULL, str_off, ok_data}, *b_struct[] = {NULL};
    struct ArrowArray a_ints = array(5, 0, 1, 2, b_ints, 0, NULL), a_uints = array(5, 0, 0, 2, b_uints, 0, NULL),
                      a_small = array(5, 0, 0, 2, b_small, 0, NULL), a_dbl = array(5, 0, 0, 2, b_dbl, 0, NULL),
                      a_flt = array(5, 0, 0, 2, b_flt, 0, NULL), a_half = array(5, 0, 0, 2, b_half, 0, NULL),
                      a_bool = array(5, 0, 0, 2, b_bool, 0, NULL), a_str = array(5, 0, 0, 3, b_str, 0, NULL),
                      a_null = array(5, 0, 5, 0, NULL, 0, NULL);
    struct ArrowArray *kids[] = {&a_ints, &a_uints, &a_small, &a_dbl, &a_flt, &a_half, &a_bool, &a_str, &a_null};
    struct ArrowArray batch = array(3, 1, 0, 1, b_struct, 9, kids);
    struct ArrowSchema s_ints = field("l", "i", 0, NULL), s_uints = field("L", "u", 0, NULL),
                       s_small = field("c", "c", 0, NULL), s_dbl = field("g", "d", 0, NULL),
                       s_flt = field("f", "f", 0, NULL), s_half = field("e", "h", 0, NULL),
                       s_bool = field("b", "b", 0, NULL), s_str = field("u", "s\xc3\xa9\"", 0, NULL),
                       s_null = field("n", "n", 0, NULL);
    struct ArrowSchema *skids[] = {&s_ints, &s_uints, &s_small, &s_dbl, &s_flt, &s_half, &s_bool, &s_str, &s_null};
    struct ArrowSchema schema = field("+s", "", 9, skids);
    expect("scalars", &schema, &batch, 0,
           "{\"i\":-20,\"u\":18446744073709551615,\"c\":127,\"d\":1e+16,\"f\":1.5,\"h\":0.0999755859375,"
           "\"b\":false,\"s\xc3\xa9\\\"\":\"\\\"\\\\\\n\",\"n\":null}\n"
           "{\"i\":30,\"u\":7,\"c\":0,\"d\":null,\"f\":3e+38,\"h\":null,\"b\":true,\"s\xc3\xa9\\\"\":\"\","
           "\"n\":null}\n"
           "{\"i\":null,\"u\":8,\"c\":-1,\"d\":null,\"f\":-0.0,\"h\":5.960464477539063e-8,\"b\":false,"
           "\"s\xc3\xa9\\\"\":\"\\u0001xyz\xc3\xa9z\",\"n\":null}\n",
           JJ_AW_OK, NULL);
    expect("skip nulls", &schema, &batch, JJ_AW_SKIP_NULLS,
           "{\"i\":-20,\"u\":18446744073709551615,\"c\":127,\"d\":1e+16,\"f\":1.5,\"h\":0.0999755859375,"
           "\"b\":false,\"s\xc3\xa9\\\"\":\"\\\"\\\\\\n\"}\n"
           "{\"i\":30,\"u\":7,\"c\":0,\"d\":null,\"f\":3e+38,\"h\":null,\"b\":true,\"s\xc3\xa9\\\"\":\"\"}\n"
           "{\"u\":8,\"c\":-1,\"d\":null,\"f\":-0.0,\"h\":5.960464477539063e-8,\"b\":false,"
           "\"s\xc3\xa9\\\"\":\"\\u0001xyz\xc3\xa9z\"}\n",
           JJ_AW_OK, NULL);

    /* invalid UTF-8 in a string: cut inside a 3-byte sequence */
    static const int32_t bad_off[] = {0, 2};
    static const char bad_data[] = "\xe2\x82";
    const void *b_bad[] = {NULL, bad_off, bad_data};
    struct ArrowArray a_bad = array(1, 0, 0, 3, b_bad, 0, NULL);
    struct ArrowArray *bad_kids[] = {&a_bad};
    struct ArrowArray bad_batch = array(1, 0, 0, 1, b_struct, 1, bad_kids);
    struct ArrowSchema s_bad = field("u", "text", 0, NULL);
    struct ArrowSchema *bad_skids[] = {&s_bad};
    struct ArrowSchema bad_schema = field("+s", "", 1, bad_skids);
    expect("invalid utf-8", &bad_schema, &bad_batch, 0, NULL, JJ_AW_UTF8, "text");
}

/* ---- nested: struct in struct, lists (offset slices), fixed lists, dictionaries, views ---- */

static void test_nested(void) {
    static const int32_t items[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    static const uint8_t item_valid[] = {0x7D, 0x03}; /* items 1 and 7 null */
    static const int32_t list_off[] = {0, 2, 2, 5, 7};
    static const int64_t large_off[] = {1, 3, 3, 6, 7};
    static const uint8_t dict_idx[] = {2, 0, 1, 0};
    static const int32_t dict_off[] = {0, 3, 6, 9};
    static const char dict_data[] = "redgrnblu";
    static uint8_t views[4 * 16];
    static const char long_text[] = "a string longer than twelve bytes";
    static const int64_t view_sizes[] = {sizeof long_text - 1};
    /* views: "short", "", the long one (buffer 0, offset 0), the long one from offset 2 */
    memset(views, 0, sizeof views);
    int32_t v5 = 5, v0 = 0, vlong = (int32_t)(sizeof long_text - 1), vlong2 = vlong - 2, zero = 0, two = 2;
    memcpy(views, &v5, 4);
    memcpy(views + 4, "short", 5);
    memcpy(views + 16, &v0, 4);
    memcpy(views + 32, &vlong, 4);
    memcpy(views + 36, long_text, 4);
    memcpy(views + 40, &zero, 4);
    memcpy(views + 44, &zero, 4);
    memcpy(views + 48, &vlong2, 4);
    memcpy(views + 52, long_text + 2, 4);
    memcpy(views + 56, &zero, 4);
    memcpy(views + 60, &two, 4);

    const void *b_items[] = {item_valid, items}, *b_list[] = {NULL, list_off}, *b_large[] = {NULL, large_off},
               *b_fixed[] = {NULL}, *b_dict[] = {NULL, dict_idx}, *b_dvals[] = {NULL, dict_off, dict_data},
               *b_view[] = {NULL, views, long_text, view_sizes}, *b_struct[] = {NULL};
    struct ArrowArray a_items = array(10, 0, 2, 2, b_items, 0, NULL);
    struct ArrowArray a_items2 = a_items, a_items3 = a_items;
    struct ArrowArray *k_list[] = {&a_items}, *k_large[] = {&a_items2}, *k_fixed[] = {&a_items3};
    struct ArrowArray a_list = array(4, 0, 0, 2, b_list, 1, k_list);
    struct ArrowArray a_large = array(4, 0, 0, 2, b_large, 1, k_large);
    /* fixed-size list of 2 over the 10 items, sliced to start at its list 1 */
    struct ArrowArray a_fixed = array(4, 1, 0, 1, b_fixed, 1, k_fixed);
    struct ArrowArray a_dvals = array(3, 0, 0, 3, b_dvals, 0, NULL);
    struct ArrowArray a_dict = array(4, 0, 0, 2, b_dict, 0, NULL);
    a_dict.dictionary = &a_dvals;
    struct ArrowArray a_view = array(4, 0, 0, 4, b_view, 0, NULL);
    struct ArrowArray *k_inner[] = {&a_dict, &a_view};
    struct ArrowArray a_inner = array(4, 0, 0, 1, b_struct, 2, k_inner);
    struct ArrowArray *kids[] = {&a_list, &a_large, &a_fixed, &a_inner};
    struct ArrowArray batch = array(3, 0, 0, 1, b_struct, 4, kids);
    batch.offset = 1; /* rows 1..3 of everything */

    struct ArrowSchema s_item = field("i", "item", 0, NULL), s_item2 = s_item, s_item3 = s_item;
    struct ArrowSchema *sk_list[] = {&s_item}, *sk_large[] = {&s_item2}, *sk_fixed[] = {&s_item3};
    struct ArrowSchema s_list = field("+l", "l", 1, sk_list), s_large = field("+L", "L", 1, sk_large),
                       s_fixed = field("+w:2", "w", 1, sk_fixed);
    struct ArrowSchema s_dvals = field("u", NULL, 0, NULL);
    struct ArrowSchema s_dict = field("C", "color", 0, NULL);
    s_dict.dictionary = &s_dvals;
    struct ArrowSchema s_view = field("vu", "v", 0, NULL);
    struct ArrowSchema *sk_inner[] = {&s_dict, &s_view};
    struct ArrowSchema s_inner = field("+s", "inner", 2, sk_inner);
    struct ArrowSchema *skids[] = {&s_list, &s_large, &s_fixed, &s_inner};
    struct ArrowSchema schema = field("+s", "", 4, skids);
    expect("nested", &schema, &batch, 0,
           "{\"l\":[],\"L\":[],\"w\":[5,6],\"inner\":{\"color\":\"red\",\"v\":\"\"}}\n"
           "{\"l\":[3,4,5],\"L\":[4,5,6],\"w\":[7,null],\"inner\":{\"color\":\"grn\","
           "\"v\":\"a string longer than twelve bytes\"}}\n"
           "{\"l\":[6,7],\"L\":[7],\"w\":[9,10],\"inner\":{\"color\":\"red\",\"v\":\"string longer than twelve bytes\"}}\n",
           JJ_AW_OK, NULL);
}

/* ---- timestamps, dates, times against gmtime_r ---- */

static uint64_t g_rng = 0x9E3779B97F4A7C15u;
static uint64_t next_random(void) {
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}

/* The expected text of a calendar date from gmtime_r's fields. */
static int format_civil(char *o, size_t cap, const struct tm *tm) {
    long long y = (long long)tm->tm_year + 1900;
    const char *sign = y < 0 ? "-" : "";
    long long ay = y < 0 ? -y : y;
    return snprintf(o, cap, ay <= 9999 ? "%s%04lld-%02d-%02d" : "%s%lld-%02d-%02d", sign, ay, tm->tm_mon + 1,
                    tm->tm_mday);
}

#define N_TIMES 4000

static void test_times(void) {
    static int64_t values[N_TIMES];
    static const int64_t per_second[] = {1, 1000, 1000000, 1000000000};
    static const char *const ts_formats[] = {"tss:", "tsm:", "tsu:", "tsn:", "tss:UTC", "tsm:+05:00",
                                             "tsu:America/New_York", "tsn:UTC"};
    size_t cap = (size_t)N_TIMES * 64 + 64;
    char *want = malloc(cap), *line = malloc(128);
    CHECK(want && line, "malloc");
    if (!want || !line) return;
    const void *buffers[] = {NULL, values}, *b_struct[] = {NULL};
    for (int f = 0; f < 8; f++) {
        int unit = f % 4;
        int64_t per = per_second[unit];
        /* +-12000 years in seconds (ns: the int64 range, about +-292 years) */
        int64_t span = unit == 3 ? INT64_MAX / per - 1 : INT64_C(380000000000);
        size_t at = 0;
        for (int i = 0; i < N_TIMES; i++) {
            int64_t secs = (int64_t)(next_random() % (uint64_t)(2 * span)) - span;
            int64_t frac = (i % 3 == 0) ? 0 : (int64_t)(next_random() % (uint64_t)per);
            if (i == 0) secs = 0, frac = 0;
            if (i == 1) secs = -1, frac = per > 1 ? 1 : 0; /* 1969-12-31T23:59:59.0..01 */
            values[i] = secs * per + frac;
            time_t t = (time_t)secs;
            struct tm tm;
            CHECK(gmtime_r(&t, &tm) != NULL, "gmtime_r");
            int n = format_civil(line, 128, &tm);
            n += snprintf(line + n, 128 - (size_t)n, "T%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
            if (frac) n += snprintf(line + n, 128 - (size_t)n, ".%0*lld", 3 * unit, (long long)frac);
            at += (size_t)snprintf(want + at, cap - at, "{\"t\":\"%s%s\"}\n", line, f >= 4 ? "Z" : "");
        }
        struct ArrowArray a = array(N_TIMES, 0, 0, 2, buffers, 0, NULL);
        struct ArrowArray *kids[] = {&a};
        struct ArrowArray batch = array(N_TIMES, 0, 0, 1, b_struct, 1, kids);
        struct ArrowSchema s = field(ts_formats[f], "t", 0, NULL);
        struct ArrowSchema *skids[] = {&s};
        struct ArrowSchema schema = field("+s", "", 1, skids);
        expect(ts_formats[f], &schema, &batch, 0, want, JJ_AW_OK, NULL);
    }

    /* date64 (milliseconds, any time of the day) and time64[us] */
    size_t at = 0, at_time = 0;
    char *want_time = malloc(cap);
    static int64_t times[N_TIMES];
    CHECK(want_time != NULL, "malloc");
    if (!want_time) goto done;
    for (int i = 0; i < N_TIMES; i++) {
        int64_t ms = (int64_t)(next_random() % UINT64_C(760000000000000)) - INT64_C(380000000000000);
        values[i] = ms;
        time_t t = (time_t)(ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000));
        struct tm tm;
        CHECK(gmtime_r(&t, &tm) != NULL, "gmtime_r");
        format_civil(line, 128, &tm);
        at += (size_t)snprintf(want + at, cap - at, "{\"d\":\"%s\"}\n", line);
        int64_t us = (int64_t)(next_random() % UINT64_C(86400000000));
        if (i % 4 == 0) us -= us % 1000000;
        times[i] = us;
        int64_t s = us / 1000000, frac = us % 1000000;
        at_time += (size_t)snprintf(want_time + at_time, cap - at_time, "{\"d\":\"%02d:%02d:%02d", (int)(s / 3600),
                                    (int)(s / 60 % 60), (int)(s % 60));
        if (frac) at_time += (size_t)snprintf(want_time + at_time, cap - at_time, ".%06lld", (long long)frac);
        at_time += (size_t)snprintf(want_time + at_time, cap - at_time, "\"}\n");
    }
    {
        struct ArrowArray a = array(N_TIMES, 0, 0, 2, buffers, 0, NULL);
        struct ArrowArray *kids[] = {&a};
        struct ArrowArray batch = array(N_TIMES, 0, 0, 1, b_struct, 1, kids);
        struct ArrowSchema s = field("tdm", "d", 0, NULL);
        struct ArrowSchema *skids[] = {&s};
        struct ArrowSchema schema = field("+s", "", 1, skids);
        expect("date64", &schema, &batch, 0, want, JJ_AW_OK, NULL);
        const void *tbuf[] = {NULL, times};
        struct ArrowArray at_arr = array(N_TIMES, 0, 0, 2, tbuf, 0, NULL);
        kids[0] = &at_arr;
        s.format = "ttu";
        expect("time64", &schema, &batch, 0, want_time, JJ_AW_OK, NULL);
    }
done:
    free(want_time);
    free(want);
    free(line);
}

/* ---- errors name the field ---- */

static void test_errors(void) {
    const void *b_struct[] = {NULL};
    struct ArrowArray batch = array(0, 0, 0, 1, b_struct, 0, NULL);
    struct ArrowSchema s_bin = field("z", "blob", 0, NULL);
    struct ArrowSchema *k_bin[] = {&s_bin};
    struct ArrowSchema s_inner = field("+s", "payload", 1, k_bin);
    struct ArrowSchema *k_list[] = {&s_inner};
    struct ArrowSchema s_list = field("+l", "events", 1, k_list);
    struct ArrowSchema *k_top[] = {&s_list};
    struct ArrowSchema schema = field("+s", "", 1, k_top);
    expect("binary in a list of structs", &schema, &batch, 0, NULL, JJ_AW_UNSUPPORTED, "events[].blob");
    s_bin.format = "+m";
    expect("map", &schema, &batch, 0, NULL, JJ_AW_UNSUPPORTED, "events[].blob");
    s_bin.format = "tsx:";
    expect("bad unit", &schema, &batch, 0, NULL, JJ_AW_BAD_FORMAT, "events[].blob");
    struct ArrowSchema s_int = field("l", "x", 0, NULL);
    expect("not a struct", &s_int, &batch, 0, NULL, JJ_AW_NOT_STRUCT, NULL);

    /* a batch whose shape does not match: one child missing, a missing data buffer */
    struct ArrowSchema *k_int[] = {&s_int};
    struct ArrowSchema flat = field("+s", "", 1, k_int);
    expect("missing child", &flat, &batch, 0, NULL, JJ_AW_BAD_ARRAY, "");
    const void *b_nodata[] = {NULL, NULL};
    struct ArrowArray a_nodata = array(2, 0, 0, 2, b_nodata, 0, NULL);
    struct ArrowArray *kids[] = {&a_nodata};
    struct ArrowArray batch1 = array(2, 0, 0, 1, b_struct, 1, kids);
    expect("missing data buffer", &flat, &batch1, 0, NULL, JJ_AW_BAD_ARRAY, "x");
    /* a child shorter than the slice of its parent */
    static const int64_t two[] = {1, 2};
    const void *b_two[] = {NULL, two};
    struct ArrowArray a_two = array(2, 0, 0, 2, b_two, 0, NULL);
    kids[0] = &a_two;
    batch1.offset = 1;
    expect("short child", &flat, &batch1, 0, NULL, JJ_AW_BAD_ARRAY, "x");
    batch1.offset = 0;
    expect("fits", &flat, &batch1, 0, "{\"x\":1}\n{\"x\":2}\n", JJ_AW_OK, NULL);
}

/* ---- decimals: 128 and 256 bits, scales of both signs ---- */

static void test_decimals(void) {
    /* 128-bit little-endian two's complement: 12345, -1, 0, -(2^127) */
    static uint64_t d128[8] = {12345, 0, UINT64_MAX, UINT64_MAX, 0, 0, 0, UINT64_C(1) << 63};
    /* 256-bit: 10^19 * 3 + 7 (= 30000000000000000007), -10 */
    static uint64_t d256[8] = {UINT64_C(11553255926290448391), 1, 0, 0, UINT64_MAX - 9, UINT64_MAX, UINT64_MAX,
                               UINT64_MAX};
    const void *b128[] = {NULL, d128}, *b256[] = {NULL, d256}, *b_struct[] = {NULL};
    struct ArrowArray a128 = array(4, 0, 0, 2, b128, 0, NULL), a256 = array(2, 0, 0, 2, b256, 0, NULL);
    struct ArrowArray *kids[] = {&a128};
    struct ArrowArray batch = array(4, 0, 0, 1, b_struct, 1, kids);
    struct ArrowSchema s = field("d:38,2", "d", 0, NULL);
    struct ArrowSchema *skids[] = {&s};
    struct ArrowSchema schema = field("+s", "", 1, skids);
    expect("decimal128 scale 2", &schema, &batch, 0,
           "{\"d\":123.45}\n{\"d\":-0.01}\n{\"d\":0.00}\n"
           "{\"d\":-1701411834604692317316873037158841057.28}\n",
           JJ_AW_OK, NULL);
    s.format = "d:38,-3";
    expect("decimal128 scale -3", &schema, &batch, 0,
           "{\"d\":12345000}\n{\"d\":-1000}\n{\"d\":0}\n{\"d\":-170141183460469231731687303715884105728000}\n",
           JJ_AW_OK, NULL);
    s.format = "d:40,5,256";
    kids[0] = &a256;
    batch.length = 2;
    expect("decimal256", &schema, &batch, 0, "{\"d\":300000000000000.00007}\n{\"d\":-0.00010}\n", JJ_AW_OK, NULL);
    s.format = "d:5,2,48";
    expect("decimal of 48 bits", &schema, &batch, 0, NULL, JJ_AW_BAD_FORMAT, "d");
}

int main(void) {
    test_scalars();
    test_nested();
    test_times();
    test_errors();
    test_decimals();
    return jj_test_report();
}
