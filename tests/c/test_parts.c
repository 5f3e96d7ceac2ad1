/* Conversions cut into parts on the worker pool (jetjson_parts.h) and the MessagePack
 * converters and Arrow row writer built on it: every thread count and block size gives the bytes (and the
 * errors) of one thread; line cuts end just after a '\n' and cover the input; a failing
 * part stops the run at the first failure in order. */
#include "jetjson_arrow_write.h"
#include "jetjson_msgpack.h"
#include "jetjson_parts.h"
#include "jetjson_pool.h"
#include "test_util.h"

/* NDJSON with escapes, numbers of every kind, documents over several lines, and (when
 * `bad` is nonzero) a broken document at that index. */
static uint8_t *make_ndjson(size_t docs, size_t bad, int multiline, size_t *len) {
    size_t cap = docs * 120 + 64, n = 0;
    char *s = malloc(cap);
    if (!s) abort();
    for (size_t i = 0; i < docs; i++) {
        int w;
        if (bad && i == bad) w = snprintf(s + n, cap - n, "{\"broken\": [1, 2}\n");
        else if (multiline && i % 7 == 3) w = snprintf(s + n, cap - n, "{\"a\":\n [%zu,\n 2]}\n", i);
        else if (i % 3 == 0) w = snprintf(s + n, cap - n, "{\"id\":%zu,\"s\":\"n\\u00e9\\n%zu\",\"f\":-%zu.25e1}\n", i, i, i);
        else if (i % 3 == 1) w = snprintf(s + n, cap - n, "[%zu,null,true,1e400,123456789012345678901]\n", i);
        else w = snprintf(s + n, cap - n, "  \"%zu\"  \n\n", i);
        if (w < 0 || (size_t)w >= cap - n) abort();
        n += (size_t)w;
    }
    *len = n;
    return (uint8_t *)s;
}

static void test_cut(void) {
    size_t len;
    uint8_t *buf = make_ndjson(500, 0, 0, &len);
    size_t ends[512];
    for (size_t block = 1; block < 4000; block = block * 3 + 1) {
        size_t n = jj_cut_at_lines(buf, len, block, ends, 512);
        CHECK(n >= 1 && ends[n - 1] == len, "cut covers the input");
        for (size_t i = 0; i + 1 < n; i++) {
            size_t from = i ? ends[i - 1] : 0;
            CHECK(ends[i] > from && buf[ends[i] - 1] == '\n', "part %zu ends after a line", i);
            CHECK(ends[i] - from >= block, "part %zu holds a block", i);
        }
    }
    CHECK(jj_cut_at_lines(buf, len, 10, ends, 3) == 3, "at most max_parts");
    CHECK(jj_cut_at_lines(buf, 0, 10, ends, 3) == 0, "nothing for nothing");
    /* cut for n threads (as loads_arrow does): at most n parts of whole lines */
    for (size_t threads = 1; threads <= 9; threads++) {
        size_t n = jj_cut_at_lines(buf, len, (len + threads - 1) / threads, ends, threads);
        CHECK(n >= 1 && n <= threads && ends[n - 1] == len, "%zu threads: at most that many parts", threads);
        for (size_t i = 0; i + 1 < n; i++) CHECK(buf[ends[i] - 1] == '\n', "%zu threads: part %zu ends a line", threads, i);
    }
    CHECK(jj_cut_at_lines(buf, len, 10, ends, 1) == 1 && ends[0] == len, "one part takes all");
    free(buf);
    /* no '\n' at the end; a line longer than a block; a block that ends on a '\n' */
    static const uint8_t text[] = "ab\ncdefghij\nk\nlm";
    size_t text_len = sizeof text - 1;
    size_t n = jj_cut_at_lines(text, text_len, 3, ends, 8);
    CHECK(n == 3 && ends[0] == 3 && ends[1] == 12 && ends[2] == text_len, "short input cut in %zu", n);
    n = jj_cut_at_lines(text, text_len, 4, ends, 8);
    CHECK(n == 2 && ends[0] == 12 && ends[1] == text_len, "long line kept whole (%zu)", n);
    n = jj_cut_at_lines((const uint8_t *)"\n\n\n", 3, 1, ends, 8);
    CHECK(n == 3 && ends[0] == 1 && ends[1] == 2 && ends[2] == 3, "empty lines (%zu)", n);
    n = jj_cut_at_lines((const uint8_t *)"abcdef", 6, 2, ends, 8);
    CHECK(n == 1 && ends[0] == 6, "no line end: one part");
}

/* Part i writes its number; part `fail_at` fails. */
typedef struct count_job {
    size_t fail_at;
} count_job;

static int count_part(void *ctx, size_t i, jj_sink *out) {
    const count_job *job = ctx;
    if (i == job->fail_at) return 7;
    char text[32];
    int w = snprintf(text, sizeof text, "%zu,", i);
    return jj_sink_put(out, text, (size_t)w);
}

static void test_run(void) {
    for (unsigned threads = 1; threads <= 8; threads *= 2) {
        for (size_t fail_at = 40; fail_at <= 200; fail_at += 160) {
            count_job job = {fail_at};
            jj_sink out;
            if (jj_sink_init_malloc(&out, 16)) abort();
            size_t failed;
            int code;
            int r = jj_parts_run(100, threads, 8, count_part, NULL, &job, &out, &failed, &code);
            char want[1024];
            size_t n = 0;
            for (size_t i = 0; i < 100 && i < fail_at; i++) n += (size_t)snprintf(want + n, sizeof want - n, "%zu,", i);
            CHECK(jj_sink_len(&out) == n && memcmp(out.start, want, n) == 0, "parts joined in order (%u)", threads);
            if (fail_at < 100) CHECK(r == -1 && failed == fail_at && code == 7, "first failure reported (%u)", threads);
            else CHECK(r == 0, "all parts ran (%u)", threads);
            jj_sink_free_malloc(&out);
        }
    }
}

static void same_result(const uint8_t *buf, size_t len, int to_json, unsigned flags, unsigned threads, size_t block) {
    jj_sink one, many;
    if (jj_sink_init_malloc(&one, 64) || jj_sink_init_malloc(&many, 64)) abort();
    jj_mp_status s1, s2;
    jj_parser *p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    jj_mp_error e1, e2;
    if (to_json) {
        e1 = jj_msgpack_to_json(buf, len, flags, &one, &s1);
        e2 = jj_msgpack_to_json_threads(buf, len, flags, threads, block, &many, &s2);
    } else {
        e1 = jj_json_to_msgpack(p, buf, len, flags, &one, &s1);
        e2 = jj_json_to_msgpack_threads(p, buf, len, flags, threads, block, &many, &s2);
    }
    CHECK(e1 == e2 && (e1 == JJ_MP_OK || (s1.error == s2.error && s1.offset == s2.offset &&
                                          s1.document == s2.document && s1.json_error == s2.json_error)),
          "same status (to_json %d, threads %u, block %zu): %d/%d at %zu/%zu", to_json, threads, block, (int)e1,
          (int)e2, s1.offset, s2.offset);
    if (e1 == JJ_MP_OK)
        CHECK(jj_sink_len(&one) == jj_sink_len(&many) && memcmp(one.start, many.start, jj_sink_len(&one)) == 0,
              "same bytes (to_json %d, threads %u, block %zu)", to_json, threads, block);
    jj_parser_delete(p);
    jj_sink_free_malloc(&one);
    jj_sink_free_malloc(&many);
}

static void test_msgpack(void) {
    size_t bads[] = {0, 1700, 2999};
    for (size_t b = 0; b < 3; b++) {
        for (int multiline = 0; multiline < 2; multiline++) {
            size_t len;
            uint8_t *json = make_ndjson(3000, bads[b], multiline, &len);
            /* the MessagePack stream of the good documents, to read back */
            jj_sink mp;
            jj_parser *p = jj_parser_new();
            if (!p) abort(); /* out of memory */
            if (jj_sink_init_malloc(&mp, len)) abort();
            jj_mp_status st;
            if (!bads[b]) CHECK(jj_json_to_msgpack(p, json, len, JJ_MP_NDJSON, &mp, &st) == JJ_MP_OK, "packed");
            jj_parser_delete(p);
            size_t blocks[] = {1, 100, 4096, 1 << 20};
            for (unsigned threads = 1; threads <= 8; threads *= 2) {
                for (size_t k = 0; k < 4; k++) {
                    same_result(json, len, 0, JJ_MP_NDJSON, threads, blocks[k]);
                    if (bads[b]) continue;
                    size_t mlen = jj_sink_len(&mp);
                    same_result(mp.start, mlen, 1, JJ_MP_STREAM, threads, blocks[k]);
                    same_result(mp.start, mlen - 1, 1, JJ_MP_STREAM, threads, blocks[k]); /* cut short */
                    uint8_t keep = mp.start[mlen / 2];
                    mp.start[mlen / 2] = 0xc1; /* a byte no type uses, in a late part */
                    same_result(mp.start, mlen, 1, JJ_MP_STREAM, threads, blocks[k]);
                    mp.start[mlen / 2] = keep;
                }
            }
            jj_sink_free_malloc(&mp);
            free(json);
        }
    }
}

static void noop_schema_release(struct ArrowSchema *schema) { schema->release = NULL; }

/* A batch {i: int64, s: utf8} of `rows` rows, row `bad` (if below rows) invalid UTF-8. */
static void test_arrow_rows(size_t rows, size_t bad) {
    int64_t *ints = malloc(rows * sizeof *ints);
    int32_t *offsets = malloc((rows + 1) * sizeof *offsets);
    char *text = malloc(rows * 24 + 1);
    if (!ints || !offsets || !text) abort();
    size_t n = 0;
    offsets[0] = 0;
    for (size_t r = 0; r < rows; r++) {
        ints[r] = (int64_t)(r * 7919) - 100000;
        n += (size_t)(r == bad ? snprintf(text + n, 24, "a\xe2\x82") : snprintf(text + n, 24, "row %zu \"q\"", r));
        offsets[r + 1] = (int32_t)n;
    }
    struct ArrowSchema s_i = {"l", "i", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, noop_schema_release, NULL};
    struct ArrowSchema s_s = {"u", "s", NULL, ARROW_FLAG_NULLABLE, 0, NULL, NULL, noop_schema_release, NULL};
    struct ArrowSchema *fields[] = {&s_i, &s_s};
    struct ArrowSchema schema = {"+s", "", NULL, 0, 2, fields, NULL, noop_schema_release, NULL};
    const void *b_i[] = {NULL, ints}, *b_s[] = {NULL, offsets, text}, *b_top[] = {NULL};
    struct ArrowArray a_i = {(int64_t)rows, 0, 0, 2, 0, b_i, NULL, NULL, NULL, NULL};
    struct ArrowArray a_s = {(int64_t)rows, 0, 0, 3, 0, b_s, NULL, NULL, NULL, NULL};
    struct ArrowArray *columns[] = {&a_i, &a_s};
    struct ArrowArray batch = {(int64_t)rows, 0, 0, 1, 2, b_top, columns, NULL, NULL, NULL};
    jj_aw_plan *plan;
    jj_aw_status st1, st2;
    if (jj_aw_plan_new(&schema, 0, &plan, &st1)) abort();
    jj_sink one;
    if (jj_sink_init_malloc(&one, 64)) abort();
    jj_aw_error e1 = jj_aw_write_batch(plan, &batch, &one, &st1);
    CHECK((e1 == JJ_AW_OK) == (bad >= rows), "one thread: %s", jj_aw_error_name(e1));
    int64_t per_parts[] = {1, 7, 100, 0};
    for (unsigned threads = 1; threads <= 8; threads *= 2) {
        for (size_t k = 0; k < 4; k++) {
            jj_sink many;
            if (jj_sink_init_malloc(&many, 64)) abort();
            jj_aw_error e2 =
                jj_aw_write_rows_threads(plan, &batch, 0, (int64_t)rows, threads, per_parts[k], 64, &many, &st2);
            CHECK(e1 == e2, "arrow: same result (threads %u, rows %lld)", threads, (long long)per_parts[k]);
            if (e1 == JJ_AW_OK)
                CHECK(jj_sink_len(&one) == jj_sink_len(&many) && memcmp(one.start, many.start, jj_sink_len(&one)) == 0,
                      "arrow: same bytes (threads %u, rows %lld)", threads, (long long)per_parts[k]);
            else
                CHECK(st1.row == st2.row && strcmp(st1.field, st2.field) == 0, "arrow: same error row %lld/%lld",
                      (long long)st1.row, (long long)st2.row);
            jj_sink_free_malloc(&many);
        }
    }
    jj_sink_free_malloc(&one);
    jj_aw_plan_free(plan);
    free(ints);
    free(offsets);
    free(text);
}

int main(void) {
    test_cut();
    test_run();
    test_msgpack();
    test_arrow_rows(3000, 3000);
    test_arrow_rows(3000, 2500);
    test_arrow_rows(3000, 10);
    jj_pool_release();
    return jj_test_report();
}
