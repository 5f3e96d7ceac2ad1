/* jj_many_next_fields (the fields= skim) against independent readings of the same
 * buffer: jj_many_next gives the documents (same spans, same errors, same offsets but
 * for JJ_ERR_INCOMPLETE's, which only says "read on from the start"),
 * jj_pointer_resolve on jj_parse's tape of each document says which pointers find a
 * value, and jj_skim_locate's span parsed by jj_parse is that value. */
#include "tape_compare.h"
#include "test_util.h"

#include "jetjson_paths.h"

static const char *const PTRS[] = {"/a", "/b/c", "/b/d", "/x~1y", "/e\xc3\xa9", "/n/0"};
#define NPTRS (sizeof PTRS / sizeof *PTRS)

typedef struct step {
    jj_error err;
    size_t start, end, offset;
} step;

/* Every document of buf both ways; the count of documents skimmed. */
static size_t check_stream(const char *text, const jj_fields_plan *plan, const char *what, bool unchecked,
                           unsigned flags) {
    const uint8_t *buf = (const uint8_t *)text;
    size_t len = strlen(text), skimmed = 0;
    jj_parser *p = jj_parser_new(), *q = jj_parser_new(), *one = jj_parser_new(), *loc = jj_parser_new();
    jj_parser *value = jj_parser_new();
    if (!p || !q || !one || !loc || !value) abort(); /* out of memory */
    jj_many m, plain;
    CHECK(jj_many_start(&m, p, buf, len, flags) == JJ_OK, "%s: start", what);
    CHECK(jj_many_start(&plain, q, buf, len, flags & JJ_MANY_MORE_INPUT) == JJ_OK, "%s: plain start", what);
    jj_field_span spans[NPTRS];
    for (int guard = 0; guard < 64; guard++) {
        step a = {0}, b = {0};
        bool whole = true;
        a.err = jj_many_next_fields(&m, plan, spans, &a.start, &a.end, &whole);
        /* a value found that the engine refuses: the document is read the whole way */
        for (size_t i = 0; a.err == JJ_OK && !whole && i < NPTRS; i++)
            if (spans[i].count && jj_many_field_parse(&m, &spans[i]) != JJ_OK) {
                a.err = jj_many_reparse(&m, &a.start, &a.end);
                whole = true;
            }
        b.err = jj_many_next(&plain, &b.start, &b.end);
        jj_parser_error(p, &a.offset);
        jj_parser_error(q, &b.offset);
        /* with values left unchecked, a skimmed document may be one jj_parse refuses */
        bool may_differ = unchecked && a.err == JJ_OK && !whole;
        CHECK(may_differ || (a.err == b.err && a.start == b.start && a.end == b.end && (a.err == JJ_OK || a.err == JJ_ERR_INCOMPLETE || a.offset == b.offset)),
              "%s doc %d: %s [%zu,%zu) @%zu, plain %s [%zu,%zu) @%zu", what, guard, jj_error_name(a.err), a.start,
              a.end, a.offset, jj_error_name(b.err), b.start, b.end, b.offset);
        if (b.err == JJ_ERR_EMPTY || a.err == JJ_ERR_EMPTY) break;
        if (a.err != JJ_OK || whole) continue;
        skimmed++;
        /* the document alone, for the oracles (its values may be unchecked: only a
         * valid one is compared with jj_pointer_resolve) */
        bool valid = jj_parse(one, buf + a.start, a.end - a.start) == JJ_OK;
        CHECK(jj_skim_index(loc, buf + a.start, a.end - a.start) == JJ_OK, "%s: skim index", what);
        for (size_t i = 0; i < NPTRS; i++) {
            size_t plen = strlen(PTRS[i]), found, failed, s, e;
            if (valid) {
                bool there = jj_pointer_resolve(one, buf + a.start, 0, PTRS[i], plen, &found, &failed) == JJ_PTR_OK;
                CHECK(there == (spans[i].count > 0), "%s: %s found %d, resolve %d", what, PTRS[i], spans[i].count > 0,
                      there);
            }
            if (!spans[i].count) continue;
            int st = jj_skim_locate(loc, buf + a.start, a.end - a.start, PTRS[i], plen, &s, &e, &failed);
            CHECK(st == JJ_PTR_OK, "%s: %s located %d", what, PTRS[i], st);
            if (st != JJ_PTR_OK) continue;
            jj_error va = jj_parse(value, buf + a.start + s, e - s);
            jj_error vb = jj_many_field_parse(&m, &spans[i]);
            CHECK((va == JJ_OK) == (vb == JJ_OK), "%s: %s value %s, field %s", what, PTRS[i], jj_error_name(va),
                  jj_error_name(vb));
            if (va != JJ_OK || vb != JJ_OK) continue;
            CHECK(jj_test_same_values(value, buf + a.start + s, p, buf, 0), "%s: %s differs", what, PTRS[i]);
        }
    }
    jj_parser_delete(p);
    jj_parser_delete(q);
    jj_parser_delete(one);
    jj_parser_delete(loc);
    jj_parser_delete(value);
    return skimmed;
}

static void test_streams(const jj_fields_plan *plan, unsigned flags) {
    static const char *const GOOD =
        "{\"a\": 1, \"b\": {\"c\": [1, {\"z\": 2}], \"d\": \"s\\n\"}, \"x/y\": null}\n"
        "{\"b\": {\"d\": 1.5e3, \"c\": true}, \"a\": {\"k\": [1, 2, 3]}}{\"a\": \"glued\"}\n"
        "{\"\\u0061\": \"escaped key\", \"a\": 2, \"e\\u00e9\": -7}\r\n"
        "{} {\"b\": 3} {\"b\": {}} {\"n\": [0]} {\"a\": 1, \"a\": 2, \"b\": {\"c\": 1, \"c\": 2}}\n"
        "{\"big\": [[[[[[{\"q\": \"]}\"}]]]]]], \"a\": 12345678901234567890}\n";
    size_t skimmed = check_stream(GOOD, plan, "good", false, flags);
    /* all 10 but {"b": 3} and {"n": [0]}: a scalar, an array on the way are read whole */
    CHECK(skimmed == 8, "the objects are skimmed: %zu", skimmed);
    /* unreached values are not checked; those on the way, and the top level, are */
    CHECK(check_stream("{\"a\": 1, \"z\": tru} {\"z\": [1 2], \"a\": 2}\n", plan, "unreached", true, flags) == 2, "skipped");
    /* a bad escape drops the lazy index: the plain one is walked the same way */
    CHECK(check_stream("{\"a\": 1, \"z\": \"\\x\"} {\"a\": 2}", plan, "escape", true, flags) == 2, "skipped");
    /* string values: plain ASCII ones get their tape without stage 2, the others not */
    static const char *const STRINGS =
        "{\"a\": \"\"} {\"a\": \"x\"} {\"a\": \"12345678\"} {\"a\": \"123456789abcdefgh\" , \"z\": 1}\n"
        "{\"a\": \"~ \x7f!\"\t}\n{\"a\": \"tab\\tq\\\"\"} {\"a\": \"caf\xc3\xa9 au lait\"} {\"a\": \"\\u0041\"}\n";
    CHECK(check_stream(STRINGS, plan, "strings", false, flags) == 8, "string values are skimmed");
    static const char *const BAD[] = {
        "{\"a\": \"ab\"c} {\"a\": 1}", "{\"a\": \"a\x01" "b\"}", "{\"a\": \"\x1f" "2345678\"}", "{\"a\": \"a\" \"b\"}",
        "{\"a\": \"123456789\x80\"}", "{\"a\": \"unclosed}",
        "{\"a\": tru, \"z\": 1} {\"a\": 2}", "{\"a\": 1 \"b\": 2} {\"a\": 3}", "{\"a\": 1,} [1]",
        "{\"b\": {\"c\": 01}} {\"a\": 1}", "{\"a\" 1}", "{\"a\": 1, \"b\": {\"d\": [}}", "[1] 2 \"s\" {\"a\": 1}",
        "{\"a\": 1", "{\"a\": NaN}", "{\"\\ud800\": 1, \"a\": 2}", "{\"a\": \"\\udc00\"}", "{\"a\": [1, 2}",
        "{\"a\": 1}}", "{\"b\": ]}", "{\"b\": {\"c\": 1 2}}", "{\"a\": {\"b\": 1} 2}",
    };
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) check_stream(BAD[i], plan, BAD[i], false, flags);
    /* cut at every byte, as a stream's windows cut */
    size_t n = strlen(GOOD);
    char *cut = malloc(n + 1);
    if (!cut) abort(); /* out of memory */
    for (size_t at = 0; at <= n; at++) {
        memcpy(cut, GOOD, at);
        cut[at] = 0;
        check_stream(cut, plan, "cut", false, flags);
        check_stream(cut, plan, "cut, more to come", false, flags | JJ_MANY_MORE_INPUT);
    }
    free(cut);
}

static void test_plans(void) {
    size_t lens[NPTRS];
    for (size_t i = 0; i < NPTRS; i++) lens[i] = strlen(PTRS[i]);
    jj_fields_plan *plan = jj_fields_plan_new(PTRS, lens, NPTRS);
    if (!plan) abort(); /* out of memory */
    CHECK(plan->skimmable, "these pointers are skimmed");
    test_streams(plan, JJ_MANY_LAZY);
    test_streams(plan, 0);
    jj_fields_plan_delete(plan);
    struct {
        const char *a, *b;
        bool skim;
    } pairs[] = {{"/a", "/a/b", false}, {"/a/b", "/a", false}, {"", "/a", false}, {"/a", "/a", true},
                 {"/a/b", "/a/c", true}, {"/a~1b", "/a/b", true}, {"/a~0", "/a~0/x", false}, {"/a", "/ab", true}};
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        const char *ptrs[2] = {pairs[i].a, pairs[i].b};
        size_t two[2] = {strlen(pairs[i].a), strlen(pairs[i].b)};
        jj_fields_plan *p2 = jj_fields_plan_new(ptrs, two, 2);
        if (!p2) abort(); /* out of memory */
        CHECK(p2->skimmable == pairs[i].skim, "plan [%s, %s]: %d", pairs[i].a, pairs[i].b, p2->skimmable);
        jj_fields_plan_delete(p2);
    }
}

/* jj_fields_window_plain against stage 1: the window's first index entry is a '{'. */
static void test_window_plain(void) {
    static const char *const windows[] = {"",         " ",         "{}",          " \t\r\n{\"a\": 1}\n[1]",
                                          "[{}]",     "\n\n\"{\"", "1 {}",        "  \n",
                                          "\r\n{\"b\"", "nul {",     "\t[\"{\"] {}", "{\"a\": [}"};
    jj_parser *p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    for (size_t i = 0; i < sizeof windows / sizeof *windows; i++) {
        const uint8_t *buf = (const uint8_t *)windows[i];
        size_t len = strlen(windows[i]);
        CHECK(jj_skim_index(p, buf, len) == JJ_OK, "window %zu: stage 1", i);
        size_t count = 0;
        const uint32_t *index = jj_parser_structurals(p, &count);
        bool first_is_object = count > 0 && buf[index[0]] == '{';
        CHECK(jj_fields_window_plain(buf, len) == first_is_object, "window %zu: %d", i, !first_is_object);
    }
    jj_parser_delete(p);
}

int main(void) {
    test_plans();
    test_window_plain();
    return jj_test_report();
}
