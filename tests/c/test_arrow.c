/* C tests of the NDJSON -> Arrow builder (jetjson_arrow.h).
 *
 * Oracles: values worked out by hand from the input (timestamps from the calendar: days
 * counted in the test with a loop over years and months, independent of the builder's
 * era arithmetic), the Arrow C Data Interface rules for the layout of each type, and
 * pyarrow's behaviour as recorded in tests/test_arrow.py (which checks it live). Also:
 * releasing children before parents and arrays after their stream, small block sizes,
 * every error with its record number and field path. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jetjson_arrow.h"
#include "test_util.h"

static jj_parser *g_parser;

typedef struct read_result {
    jj_arrow_status status;
    jj_arrow_error err;
    struct ArrowArrayStream stream;
    int64_t rows;
} read_result;

static read_result read_text(const char *text, const struct ArrowSchema *schema, size_t block, bool strict) {
    read_result r;
    jj_arrow_options opt = {block, strict, 0};
    r.status = jj_arrow_read_ndjson(g_parser, (const uint8_t *)text, strlen(text), schema, &opt, &r.stream, &r.rows,
                                    &r.err);
    return r;
}

static int64_t get_i64(const struct ArrowArray *a, int64_t i) {
    int64_t v;
    memcpy(&v, (const uint8_t *)a->buffers[1] + 8 * (a->offset + i), 8);
    return v;
}

static double get_f64(const struct ArrowArray *a, int64_t i) {
    double v;
    memcpy(&v, (const uint8_t *)a->buffers[1] + 8 * (a->offset + i), 8);
    return v;
}

static int is_valid(const struct ArrowArray *a, int64_t i) {
    if (!a->buffers[0]) return 1;
    int64_t b = a->offset + i;
    return (((const uint8_t *)a->buffers[0])[b >> 3] >> (b & 7)) & 1;
}

static int str_eq(const struct ArrowArray *a, int64_t i, const char *want) {
    const int32_t *off = a->buffers[1];
    const char *data = a->buffers[2];
    int64_t k = a->offset + i;
    size_t n = (size_t)(off[k + 1] - off[k]);
    return n == strlen(want) && memcmp(data + off[k], want, n) == 0;
}

/* Seconds from 1970 to y-m-d, by walking years and months. */
static int64_t calendar_seconds(int y, int m, int d) {
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int64_t days = 0;
    for (int yy = 1970; yy < y; yy++) days += (yy % 4 == 0 && (yy % 100 != 0 || yy % 400 == 0)) ? 366 : 365;
    for (int yy = y; yy < 1970; yy++) days -= (yy % 4 == 0 && (yy % 100 != 0 || yy % 400 == 0)) ? 366 : 365;
    for (int mm = 1; mm < m; mm++) days += mdays[mm - 1] + (mm == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
    return (days + d - 1) * 86400;
}

static void test_inference(void) {
    read_result r = read_text("{\"a\":1,\"b\":\"x\",\"c\":true,\"t\":\"2015-01-01T15:00:00Z\"}\n"
                              "{\"a\":2.5,\"c\":null,\"d\":[1,2],\"e\":{\"x\":null}}\n"
                              "{\"b\":null,\"d\":[],\"t\":\"2016-02-29\",\"n\":null}\n",
                              NULL, 0, false);
    CHECK(r.status == JJ_ARROW_OK && r.rows == 3, "inference: status %d rows %lld", (int)r.status, (long long)r.rows);
    if (r.status) return;
    struct ArrowSchema schema;
    CHECK(r.stream.get_schema(&r.stream, &schema) == 0, "get_schema");
    const char *names[] = {"a", "b", "c", "t", "d", "e", "n"};
    const char *formats[] = {"g", "u", "b", "tss:", "+l", "+s", "n"};
    CHECK(schema.n_children == 7 && !strcmp(schema.format, "+s"), "columns %lld", (long long)schema.n_children);
    for (int i = 0; i < 7 && i < schema.n_children; i++)
        CHECK(!strcmp(schema.children[i]->name, names[i]) && !strcmp(schema.children[i]->format, formats[i]),
              "column %d: %s %s", i, schema.children[i]->name, schema.children[i]->format);
    CHECK(!strcmp(schema.children[4]->children[0]->format, "l"), "list item int64");
    CHECK(!strcmp(schema.children[5]->children[0]->format, "n"), "struct field of nulls");
    struct ArrowSchema copy;
    CHECK(jj_arrow_schema_copy(&schema, &copy) == 0, "schema copy");
    schema.release(&schema);
    CHECK(copy.n_children == 7 && !strcmp(copy.children[3]->format, "tss:") &&
              !strcmp(copy.children[4]->children[0]->name, "item") && copy.children[0]->flags == ARROW_FLAG_NULLABLE,
          "the copy outlives its original");
    copy.release(&copy);
    struct ArrowArray batch;
    CHECK(r.stream.get_next(&r.stream, &batch) == 0 && batch.release && batch.length == 3, "one batch of 3");
    r.stream.release(&r.stream); /* the batch outlives its stream */
    struct ArrowArray **c = batch.children;
    CHECK(get_f64(c[0], 0) == 1.0 && get_f64(c[0], 1) == 2.5 && !is_valid(c[0], 2), "a: ints became doubles");
    CHECK(str_eq(c[1], 0, "x") && !is_valid(c[1], 1) && !is_valid(c[1], 2), "b: strings and nulls");
    CHECK(is_valid(c[2], 0) && (((const uint8_t *)c[2]->buffers[1])[0] & 1) && !is_valid(c[2], 1), "c: bools");
    CHECK(get_i64(c[3], 0) == calendar_seconds(2015, 1, 1) + 15 * 3600 && get_i64(c[3], 2) == calendar_seconds(2016, 2, 29),
          "t: timestamps %lld", (long long)get_i64(c[3], 0));
    const int32_t *off = c[4]->buffers[1];
    CHECK(!is_valid(c[4], 0) && off[1] == 0 && off[2] == 2 && off[3] == 2 && get_i64(c[4]->children[0], 1) == 2,
          "d: list offsets");
    CHECK(c[5]->null_count == -1 || c[5]->null_count == 2, "e: nulls");
    CHECK(c[6]->n_buffers == 0 && c[6]->null_count == 3, "n: null column");
    /* move a child out and release it after its parent */
    struct ArrowArray moved = *c[4];
    c[4]->release = NULL;
    batch.release(&batch);
    CHECK(moved.children[0]->length == 2, "moved child still readable");
    moved.release(&moved);
}

static void test_batches(void) {
    char text[4096] = "";
    for (int i = 0; i < 100; i++) snprintf(text + strlen(text), sizeof text - strlen(text), "{\"i\":%d}\n", i);
    read_result r = read_text(text, NULL, 64, false);
    CHECK(r.status == JJ_ARROW_OK && r.rows == 100, "batches: status %d", (int)r.status);
    if (r.status) return;
    int64_t seen = 0, batches = 0, ok = 1;
    for (;;) {
        struct ArrowArray b;
        if (r.stream.get_next(&r.stream, &b) != 0 || !b.release) break;
        for (int64_t i = 0; i < b.length; i++) ok &= get_i64(b.children[0], i) == seen + i;
        seen += b.length;
        batches++;
        b.release(&b);
    }
    CHECK(ok && seen == 100 && batches > 10, "batches: %lld rows in %lld batches", (long long)seen, (long long)batches);
    r.stream.release(&r.stream);
}

static void check_error(const char *text, jj_arrow_status want, int64_t record, const char *field) {
    read_result r = read_text(text, NULL, 0, false);
    CHECK(r.status == want && r.err.record == record && !strcmp(r.err.field, field),
          "error on %s: status %d record %lld field '%s' (%s)", text, (int)r.status, (long long)r.err.record,
          r.err.field, r.err.message);
    if (r.status == JJ_ARROW_OK) r.stream.release(&r.stream);
}

static void test_errors(void) {
    check_error("{\"a\":1}\n{\"a\":\"x\"}\n", JJ_ARROW_TYPE_CHANGE, 1, "/a");
    check_error("{\"a\":{\"b\":[1]}}\n{\"a\":{\"b\":[true]}}\n", JJ_ARROW_TYPE_CHANGE, 1, "/a/b/[]");
    check_error("{\"a\":1,\"a\":2}\n", JJ_ARROW_DUPLICATE, 0, "/a");
    check_error("{}\n[1]\n", JJ_ARROW_NOT_OBJECT, 1, "");
    check_error("{}\n{}\n{\"a\":}\n", JJ_ARROW_JSON, 2, "");
    check_error("{\"a\":true}\n{\"a\":1}\n", JJ_ARROW_TYPE_CHANGE, 1, "/a");
}

static void test_timestamps(void) {
    struct {
        const char *text;
        int unit;
        int ok;
        int64_t want;
    } cases[] = {
        {"2015-01-01", 0, 1, calendar_seconds(2015, 1, 1)},
        {"2015-01-01T15", 0, 1, calendar_seconds(2015, 1, 1) + 15 * 3600},
        {"2015-01-01 15:30", 0, 1, calendar_seconds(2015, 1, 1) + 15 * 3600 + 1800},
        {"2015-01-01T15:00:00+01:00", 0, 1, calendar_seconds(2015, 1, 1) + 14 * 3600},
        {"2015-01-01T15:00:00-0130", 0, 1, calendar_seconds(2015, 1, 1) + 16 * 3600 + 1800},
        {"2015-01-01T15:00:00+01", 0, 1, calendar_seconds(2015, 1, 1) + 14 * 3600},
        {"1969-12-31T23:59:59Z", 0, 1, -1},
        {"0001-03-01", 0, 1, calendar_seconds(1, 3, 1)},
        {"2000-02-29T00:00:00.25Z", 1, 1, calendar_seconds(2000, 2, 29) * 1000 + 250},
        {"2000-02-29T00:00:00.123456", 2, 1, calendar_seconds(2000, 2, 29) * 1000000 + 123456},
        {"2000-02-29T00:00:00.1234567", 2, 0, 0},
        {"2000-02-29t00:00:00,5z", 1, 1, calendar_seconds(2000, 2, 29) * 1000 + 500},
        {"2000-02-29T00:00:00.5", 0, 0, 0},
        {"1900-02-29", 0, 0, 0},
        {"2015-01-01Z", 0, 0, 0},
        {"2015-01-01T24:00", 0, 0, 0},
        {"2015-01-01T15:00:00+01:", 0, 0, 0},
        {"2015-1-01", 0, 0, 0},
        {"9999-12-31T23:59:59", 3, 0, 0}, /* past int64 nanoseconds */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[128];
        char format[8];
        snprintf(format, sizeof format, "ts%c:", "smun"[cases[i].unit]);
        snprintf(text, sizeof text, "{\"t\":\"%s\"}\n", cases[i].text);
        struct ArrowSchema field = {format, "t", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
        struct ArrowSchema *kids[] = {&field};
        struct ArrowSchema root = {"+s", "", NULL, 0, 1, kids, NULL, NULL, NULL};
        read_result r = read_text(text, &root, 0, false);
        if (!cases[i].ok) {
            CHECK(r.status == JJ_ARROW_BAD_VALUE && !strcmp(r.err.field, "/t"), "%s refused (status %d)", cases[i].text,
                  (int)r.status);
        } else if (r.status != JJ_ARROW_OK) {
            FAIL("%s: status %d %s", cases[i].text, (int)r.status, r.err.message);
        }
        if (r.status != JJ_ARROW_OK) continue;
        struct ArrowArray b;
        r.stream.get_next(&r.stream, &b);
        CHECK(get_i64(b.children[0], 0) == cases[i].want, "%s: %lld, want %lld", cases[i].text,
              (long long)get_i64(b.children[0], 0), (long long)cases[i].want);
        b.release(&b);
        r.stream.release(&r.stream);
    }
}

static void test_schema(void) {
    struct ArrowSchema id = {"l", "id", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
    struct ArrowSchema big = {"L", "big", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
    struct ArrowSchema name = {"u", "name", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
    struct ArrowSchema *kids[] = {&id, &big, &name};
    struct ArrowSchema root = {"+s", "", NULL, 0, 3, kids, NULL, NULL, NULL};
    read_result r = read_text("{\"name\":\"n\",\"skip\":[1,{}],\"id\":7,\"big\":18446744073709551615}\n{}\n", &root, 0,
                              false);
    CHECK(r.status == JJ_ARROW_OK && r.rows == 2, "schema: status %d", (int)r.status);
    if (r.status == JJ_ARROW_OK) {
        struct ArrowArray b;
        r.stream.get_next(&r.stream, &b);
        CHECK(b.n_children == 3 && get_i64(b.children[0], 0) == 7 && (uint64_t)get_i64(b.children[1], 0) == UINT64_MAX &&
                  str_eq(b.children[2], 0, "n") && !is_valid(b.children[0], 1) && !is_valid(b.children[2], 1),
              "schema values");
        b.release(&b);
        r.stream.release(&r.stream);
    }
    r = read_text("{\"id\":1,\"skip\":2}\n", &root, 0, true);
    CHECK(r.status == JJ_ARROW_UNKNOWN_FIELD && r.err.record == 0, "unknown field: %d", (int)r.status);
    r = read_text("{\"id\":1.5}\n", &root, 0, false);
    CHECK(r.status == JJ_ARROW_BAD_VALUE && !strcmp(r.err.field, "/id"), "fraction in int64: %d", (int)r.status);
    r = read_text("{\"big\":-1}\n", &root, 0, false);
    CHECK(r.status == JJ_ARROW_BAD_VALUE, "negative uint64: %d", (int)r.status);
    struct ArrowSchema bad = {"i", "x", NULL, 0, 0, NULL, NULL, NULL, NULL};
    struct ArrowSchema *bad_kids[] = {&bad};
    struct ArrowSchema bad_root = {"+s", "", NULL, 0, 1, bad_kids, NULL, NULL, NULL};
    r = read_text("{}\n", &bad_root, 0, false);
    CHECK(r.status == JJ_ARROW_SCHEMA && !strcmp(r.err.field, "x"), "unsupported schema type: %d", (int)r.status);
}

/* With threads, a schema: the same values as on one thread, in order; a record across
 * lines sends it all to one thread. */
static void test_threads(void) {
    size_t cap = 4u << 20, len = 0;
    char *text = malloc(cap + 64);
    if (!text) return;
    for (int i = 0; len < cap - 64; i++) len += (size_t)snprintf(text + len, 64, "{\"i\":%d, \"s\":\"v%d\"}\n", i, i);
    struct ArrowSchema i_field = {"l", "i", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, NULL, NULL};
    struct ArrowSchema *kids[] = {&i_field};
    struct ArrowSchema root = {"+s", "", NULL, 0, 1, kids, NULL, NULL, NULL};
    for (int variant = 0; variant < 2; variant++) {
        if (variant == 1) *strchr(text + len / 2, ' ') = '\n'; /* a record across two lines */
        for (unsigned threads = 1; threads <= 4; threads += 3) {
            jj_arrow_options opt = {65536, false, threads};
            read_result r;
            r.status = jj_arrow_read_ndjson(g_parser, (const uint8_t *)text, len, &root, &opt, &r.stream, &r.rows,
                                            &r.err);
            CHECK(r.status == JJ_ARROW_OK, "threads %u, variant %d: status %d", threads, variant, (int)r.status);
            if (r.status) continue;
            int64_t seen = 0;
            int ok = 1;
            for (;;) {
                struct ArrowArray b;
                if (r.stream.get_next(&r.stream, &b) != 0 || !b.release) break;
                for (int64_t k = 0; k < b.length; k++) ok &= get_i64(b.children[0], k) == seen + k;
                seen += b.length;
                b.release(&b);
            }
            CHECK(ok && seen == r.rows && seen > 100000, "threads %u: %lld rows in order", threads, (long long)seen);
            r.stream.release(&r.stream);
        }
    }
    free(text);
}

/* Without a schema, parts inferred apart and merged: the same schema as one thread. */
static void test_threads_inferred(void) {
    const char *halves[2][2] = {{"{\"a\":1,\"o\":{\"x\":null}}\n", "{\"a\":2.5,\"b\":\"2015-01-01\",\"o\":{\"y\":[1]}}\n"},
                                {"{\"a\":1}\n", "{\"a\":\"x\"}\n"}};
    size_t half = 300000;
    char *text = malloc(2 * half + 64);
    if (!text) return;
    for (int clash = 0; clash < 2; clash++) {
        size_t len = 0;
        for (int h = 0; h < 2; h++) {
            size_t n = strlen(halves[clash][h]);
            for (size_t end = len + half; len < end; len += n) memcpy(text + len, halves[clash][h], n);
        }
        text[len] = 0;
        jj_arrow_status status[2];
        int64_t record[2] = {0, 0};
        char formats[2][64];
        for (int k = 0; k < 2; k++) {
            jj_arrow_options opt = {0, false, k ? 2u : 1u};
            read_result r;
            r.status = jj_arrow_read_ndjson(g_parser, (const uint8_t *)text, len, NULL, &opt, &r.stream, &r.rows,
                                            &r.err);
            status[k] = r.status;
            record[k] = r.err.record;
            formats[k][0] = 0;
            if (r.status) continue;
            struct ArrowSchema schema;
            if (r.stream.get_schema(&r.stream, &schema) == 0) {
                for (int64_t i = 0; i < schema.n_children; i++)
                    snprintf(formats[k] + strlen(formats[k]), sizeof formats[k] - strlen(formats[k]), "%s:%s:%lld ",
                             schema.children[i]->name, schema.children[i]->format,
                             (long long)schema.children[i]->n_children);
                schema.release(&schema);
            }
            r.stream.release(&r.stream);
        }
        if (clash) {
            CHECK(status[0] == JJ_ARROW_TYPE_CHANGE && status[1] == status[0] && record[1] == record[0],
                  "clash: %d %d, records %lld %lld", (int)status[0], (int)status[1], (long long)record[0],
                  (long long)record[1]);
        } else {
            CHECK(status[0] == JJ_ARROW_OK && status[1] == JJ_ARROW_OK && !strcmp(formats[0], formats[1]) &&
                      !strcmp(formats[0], "a:g:0 o:+s:2 b:tss::0 "),
                  "merged schema: '%s' vs '%s'", formats[0], formats[1]);
        }
    }
    free(text);
}

/* The schema's field formats as "name:format:children " (a comparison key). */
static void schema_key(struct ArrowArrayStream *s, char *out, size_t cap) {
    struct ArrowSchema schema;
    out[0] = 0;
    if (s->get_schema(s, &schema) != 0) return;
    for (int64_t i = 0; i < schema.n_children; i++)
        snprintf(out + strlen(out), cap - strlen(out), "%s:%s:%lld ", schema.children[i]->name,
                 schema.children[i]->format, (long long)schema.children[i]->n_children);
    schema.release(&schema);
}

/* Inferred on threads that take windows in turn: a field first met in segment i (one
 * window or more each, a run of blank lines among them) comes i-th, as one pass puts
 * it, whichever thread read which window; "a" turns from int64 to double in the last
 * segment only. The schema key of threads 2 and 4 is that of one thread, and the one
 * worked out here. */
static void test_threads_windows(void) {
    enum { SEGMENTS = 8 };
    size_t segment = 700000;
    char *text = malloc(SEGMENTS * segment + 64);
    if (!text) return;
    size_t len = 0;
    char expected[256] = "", line[64];
    for (int i = 0; i < SEGMENTS; i++) {
        if (i == 3) { /* a segment of blank lines only: a window with no record */
            memset(text + len, '\n', segment);
            len += segment;
            continue;
        }
        int n = snprintf(line, sizeof line, i == SEGMENTS - 1 ? "{\"s%d\":\"x\",\"a\":0.5}\n" : "{\"s%d\":%d,\"a\":1}\n",
                         i, i);
        for (size_t end = len + segment; len < end; len += (size_t)n) memcpy(text + len, line, (size_t)n);
        snprintf(expected + strlen(expected), sizeof expected - strlen(expected), "s%d:%s:0 ", i,
                 i == SEGMENTS - 1 ? "u" : "l");
        if (i == 0) strcat(expected, "a:g:0 ");
    }
    char keys[3][256];
    int64_t rows[3] = {0, 0, 0};
    unsigned thread_counts[3] = {1, 2, 4};
    for (int k = 0; k < 3; k++) {
        jj_arrow_options opt = {0, false, thread_counts[k]};
        read_result r;
        r.status = jj_arrow_read_ndjson(g_parser, (const uint8_t *)text, len, NULL, &opt, &r.stream, &r.rows, &r.err);
        keys[k][0] = 0;
        CHECK(r.status == JJ_ARROW_OK, "threads %u: status %d", thread_counts[k], (int)r.status);
        if (r.status) continue;
        rows[k] = r.rows;
        schema_key(&r.stream, keys[k], sizeof keys[k]);
        r.stream.release(&r.stream);
    }
    for (int k = 0; k < 3; k++)
        CHECK(!strcmp(keys[k], expected) && rows[k] == rows[0] && rows[0] > 0, "threads %u: '%s' (%lld rows), want '%s'",
              thread_counts[k], keys[k], (long long)rows[k], expected);
    /* "a" a string in one early window: every thread count fails at the same record
     * (a thread that fails frees its windows while the others may be folding theirs) */
    const char *clash = "{\"a\":\"x\"}";
    char *at = memchr(text + 5 * segment, '\n', segment) + 1, *end = memchr(at, '\n', segment);
    memset(at, ' ', (size_t)(end - at));
    memcpy(at, clash, strlen(clash));
    jj_arrow_error first = {0};
    for (int round = 0; round < 6; round++) {
        unsigned threads = round < 2 ? 1 : round % 2 ? 2 : 4;
        jj_arrow_options opt = {0, false, threads};
        read_result r;
        r.status = jj_arrow_read_ndjson(g_parser, (const uint8_t *)text, len, NULL, &opt, &r.stream, &r.rows, &r.err);
        if (round == 0) first = r.err;
        CHECK(r.status == JJ_ARROW_TYPE_CHANGE && r.err.record == first.record && r.err.record > 0,
              "clash, threads %u: status %d record %lld (one thread: %lld)", threads, (int)r.status,
              (long long)r.err.record, (long long)first.record);
        if (!r.status) r.stream.release(&r.stream);
    }
    free(text);
}

/* text fed to a jj_arrow_reader `chunk` bytes at a time, as a file object's reader
 * does (the unused tail given again before the next bytes). */
static read_result read_chunks(const char *text, const struct ArrowSchema *schema, size_t chunk) {
    read_result r;
    memset(&r, 0, sizeof r);
    jj_arrow_options opt = {64, false, 0};
    jj_arrow_reader *reader = jj_arrow_reader_new(schema, &opt);
    size_t len = strlen(text), from = 0, to = 0;
    char *buf = malloc(len + 1);
    if (!reader || !buf) {
        r.status = JJ_ARROW_NOMEM;
    } else {
        for (;;) {
            to = to + chunk < len ? to + chunk : len;
            memcpy(buf, text + from, to - from);
            size_t used = 0;
            bool more = to < len;
            r.status = jj_arrow_reader_feed(reader, (const uint8_t *)buf, to - from, more, &used, &r.err);
            if (r.status || !more) break;
            from += used;
        }
        if (!r.status) r.status = jj_arrow_reader_finish(reader, &r.stream, &r.rows, &r.err);
    }
    free(buf);
    jj_arrow_reader_free(reader);
    return r;
}

/* In chunks: the schema, rows and errors of the whole input, at every chunk size. */
static void test_reader(void) {
    static const char *const texts[] = {
        "", "\n\n", "{\"a\":1}", "{\"a\":1}\n{\"a\":2.5,\"b\":\"2015-01-01\"}\r\n{\"b\":null,\"c\":[1]}\n",
        "{\"t\":\"2015-01-01\"}\n{\"t\":null}\n{\"u\":{\"x\":[true]}}\n{\"t\":\"2015-01-02\",\"u\":null}",
        "{\"a\":\n1}{\"a\":2} {\"a\"\n:3}\n", "{\"a\":1}\n{\"a\":1}\n{\"a\":\"x\"}\n", "{\"a\":1}\n{\"a\":1,}\n",
        "{\"a\":1}\n{\"a\":", "{\"a\":{\"b\":1}}\n\n{\"a\":{\"b\":[1]}}\n", "{\"a\":1}\n[2]\n"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        read_result whole = read_text(texts[i], NULL, 64, false);
        char want[256], got[256];
        want[0] = 0;
        if (!whole.status) {
            schema_key(&whole.stream, want, sizeof want);
            whole.stream.release(&whole.stream);
        }
        for (size_t chunk = 1; chunk <= 40; chunk += 3) {
            read_result r = read_chunks(texts[i], NULL, chunk);
            got[0] = 0;
            if (!r.status) {
                schema_key(&r.stream, got, sizeof got);
                r.stream.release(&r.stream);
            }
            CHECK(r.status == whole.status && r.rows == whole.rows && !strcmp(got, want) &&
                      (!r.status || (r.err.record == whole.err.record && !strcmp(r.err.field, whole.err.field) &&
                                     !strcmp(r.err.message, whole.err.message))),
                  "text %zu, chunk %zu: status %d/%d rows %lld/%lld '%s'/'%s' record %lld/%lld %s/%s", i, chunk,
                  (int)r.status, (int)whole.status, (long long)r.rows, (long long)whole.rows, got, want,
                  (long long)r.err.record, (long long)whole.err.record, r.err.message, whole.err.message);
        }
    }
}

/* Buffers of a freed table are kept and reused (arrow_build_pages.c), their old bytes
 * in place: a table of false booleans and nulls read after one of true booleans and big
 * integers must hold its own bits and values only, on one thread and on two. */
static void test_pages_reused(void) {
    const size_t rows = 200000;
    char *text = malloc(rows * 48 + 1);
    if (!text) return;
    for (int round = 0; round < 4; round++) {
        bool second = round & 1;
        size_t len = 0;
        for (size_t k = 0; k < rows; k++) {
            if (!second) len += (size_t)sprintf(text + len, "{\"b\":true,\"i\":%zu}\n", k + ((size_t)1 << 40));
            else if (k % 1000 == 7) len += (size_t)sprintf(text + len, "{\"b\":null,\"i\":null}\n");
            else len += (size_t)sprintf(text + len, "{\"b\":false,\"i\":%zu}\n", k);
        }
        jj_arrow_options opt = {0, false, round < 2 ? 1u : 2u};
        read_result r;
        r.status = jj_arrow_read_ndjson(g_parser, (const uint8_t *)text, len, NULL, &opt, &r.stream, &r.rows, &r.err);
        CHECK(r.status == JJ_ARROW_OK && r.rows == (int64_t)rows, "pages round %d: status %d", round, r.status);
        if (r.status) continue;
        size_t seen = 0, bad = 0;
        struct ArrowArray batch;
        while (r.stream.get_next(&r.stream, &batch) == 0 && batch.release) {
            const struct ArrowArray *b = batch.children[0], *i = batch.children[1];
            for (int64_t k = 0; k < batch.length; k++, seen++) {
                bool null_row = second && seen % 1000 == 7;
                int bit = (((const uint8_t *)b->buffers[1])[(b->offset + k) >> 3] >> ((b->offset + k) & 7)) & 1;
                if (is_valid(b, k) == null_row || is_valid(i, k) == null_row) bad++;
                else if (!null_row && (bit != !second || get_i64(i, k) != (int64_t)(seen + (second ? 0 : (size_t)1 << 40))))
                    bad++;
            }
            batch.release(&batch);
        }
        CHECK(seen == rows && bad == 0, "pages round %d: %zu rows, %zu wrong", round, seen, bad);
        r.stream.release(&r.stream);
    }
    free(text);
}

int main(void) {
    g_parser = jj_parser_new();
    if (!g_parser) abort(); /* out of memory */
    test_inference();
    test_batches();
    test_errors();
    test_timestamps();
    test_schema();
    test_threads();
    test_threads_inferred();
    test_threads_windows();
    test_reader();
    test_pages_reused();
    jj_parser_delete(g_parser);
    return jj_test_report();
}
