/* jj_partial_complete: hand cases, and every prefix of every valid corpus and
 * JSONTestSuite document gives a text that parses (or says nothing is complete yet). */
#include <dirent.h>

#include "jetjson_partial.h"
#include "test_util.h"

static const char *complete(const char *in, int keep_string, jj_partial_kind *kind, size_t *len) {
    static uint8_t *last = NULL;
    free(last);
    last = NULL;
    jj_sink s;
    if (jj_sink_init_malloc(&s, 16)) abort();
    *kind = jj_partial_complete((const uint8_t *)in, strlen(in), keep_string, &s);
    if (jj_sink_finish(&s, len)) abort();
    last = s.start;
    return (const char *)last;
}

static void expect(const char *in, int keep_string, jj_partial_kind want, const char *out) {
    jj_partial_kind kind;
    size_t len;
    const char *got = complete(in, keep_string, &kind, &len);
    CHECK(kind == want, "%s (keep %d): kind %d, expected %d", in, keep_string, (int)kind, (int)want);
    if (kind == want && out)
        CHECK(len == strlen(out) && memcmp(got, out, len) == 0, "%s (keep %d): '%.*s', expected '%s'", in,
              keep_string, (int)len, got, out);
}

static void hand_cases(void) {
    expect("{\"a\": 1, \"b\": \"hel", 0, JJ_PARTIAL_COMPLETED, "{\"a\": 1}");
    expect("{\"a\": 1, \"b\": \"hel", 1, JJ_PARTIAL_COMPLETED, "{\"a\": 1, \"b\": \"hel\"}");
    expect("[1, 2", 0, JJ_PARTIAL_COMPLETED, "[1, 2]");
    expect("[1, 2.", 0, JJ_PARTIAL_COMPLETED, "[1]");
    expect("[1, -", 0, JJ_PARTIAL_COMPLETED, "[1]");
    expect("[1, 1e+", 0, JJ_PARTIAL_COMPLETED, "[1]");
    expect("{\"a\"", 0, JJ_PARTIAL_COMPLETED, "{}");
    expect("{\"a\":", 1, JJ_PARTIAL_COMPLETED, "{}");
    expect("[[{\"k\": [tr", 0, JJ_PARTIAL_COMPLETED, "[[{\"k\": []}]]");
    expect("[\"ab\\u12", 1, JJ_PARTIAL_COMPLETED, "[\"ab\"]");
    expect("[\"ab\\ud83d", 1, JJ_PARTIAL_COMPLETED, "[\"ab\"]");
    expect("[\"ab\\ud83d\\ude00", 1, JJ_PARTIAL_COMPLETED, "[\"ab\\ud83d\\ude00\"]");
    expect("[\"\xe2\x82", 1, JJ_PARTIAL_COMPLETED, "[\"\"]");
    expect("[NaN, -Inf", 0, JJ_PARTIAL_COMPLETED, "[NaN]");
    expect("12", 0, JJ_PARTIAL_WHOLE, NULL);
    expect("[1] ", 0, JJ_PARTIAL_WHOLE, NULL);
    expect("", 0, JJ_PARTIAL_NOTHING, NULL);
    expect("-", 0, JJ_PARTIAL_NOTHING, NULL);
    expect("\"ab", 0, JJ_PARTIAL_NOTHING, NULL);
    expect("\"ab", 1, JJ_PARTIAL_COMPLETED, "\"ab\"");
    expect("[1 2", 0, JJ_PARTIAL_MALFORMED, NULL);
    expect("[1]]", 0, JJ_PARTIAL_MALFORMED, NULL);
    expect("{\"a\" 1", 0, JJ_PARTIAL_MALFORMED, NULL);
    expect("[1,,", 0, JJ_PARTIAL_MALFORMED, NULL);
    expect("[x", 0, JJ_PARTIAL_MALFORMED, NULL);
    expect("[\"a\x01", 0, JJ_PARTIAL_MALFORMED, NULL);
    expect("[\"\\x", 0, JJ_PARTIAL_MALFORMED, NULL);
    expect("{]", 0, JJ_PARTIAL_MALFORMED, NULL);
}

/* Every prefix of a valid document: never MALFORMED, and a COMPLETED text parses. */
static void prefixes_of(const char *name, const uint8_t *doc, size_t len, jj_parser *p) {
    if (jj_parse(p, doc, len) != JJ_OK) return;
    size_t step = len / 400 + 1;
    for (size_t cut = 0; cut <= len; cut += step) {
        for (int keep = 0; keep < 2; keep++) {
            jj_sink s;
            if (jj_sink_init_malloc(&s, 64)) abort();
            jj_partial_kind kind = jj_partial_complete(doc, cut, keep, &s);
            size_t out_len = 0;
            if (jj_sink_finish(&s, &out_len)) abort();
            CHECK(kind != JJ_PARTIAL_MALFORMED && kind != JJ_PARTIAL_NOMEM, "%s cut at %zu: kind %d", name, cut,
                  (int)kind);
            if (kind == JJ_PARTIAL_COMPLETED) {
                jj_parser *q = jj_parser_new();
                if (!q) abort(); /* out of memory */
                jj_error err = jj_parse(q, s.start, out_len);
                /* a cut inside a lone surrogate or bad UTF-8 kept by keep_string is the
                 * parser's to refuse; everything else must parse */
                CHECK(err == JJ_OK || err == JJ_ERR_UTF8 || err == JJ_ERR_ESCAPE, "%s cut at %zu (keep %d): %s", name,
                      cut, keep, jj_error_name(err));
                jj_parser_delete(q);
            }
            jj_sink_free_malloc(&s);
        }
    }
}

static void folder(const char *sub, jj_parser *p) {
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s/%s", jj_data_dir(), sub) >= (int)sizeof dir) return;
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
        char path[8192];
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) continue;
        size_t len;
        uint8_t *doc = jj_read_file(path, &len);
        if (doc && len < (2u << 20)) prefixes_of(e->d_name, doc, len, p);
        free(doc);
    }
    closedir(d);
}

int main(void) {
    hand_cases();
    jj_parser *p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    folder("corpus", p);
    folder("JSONTestSuite/test_parsing", p);
    jj_parser_delete(p);
    return jj_test_report();
}
