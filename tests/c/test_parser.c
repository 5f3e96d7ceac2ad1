/* Stage 1 + stage 2 on every kernel set this machine has: tape shapes, grammar edges,
 * errors, inputs ending at a guard page, and the data corpus (identical tapes across
 * ISAs, every JSONTestSuite y_ file accepted and n_ file rejected). */
#include <dirent.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine_internal.h"
#include "test_util.h"

/* Renders a tape compactly so that a test can compare it with a string:
 * objects {k:v,...}, arrays [..], strings "raw bytes", ints i123, u123, doubles d%.17g,
 * big ints b<digits>, literals n t f. */
static size_t render(const jj_parser *p, const uint8_t *buf, char *out, size_t cap) {
    size_t o = 0;
#define PUT(...) o += (size_t)snprintf(out + o, o < cap ? cap - o : 0, __VA_ARGS__)
    for (size_t t = 0; t < p->tape_len;) {
        uint64_t w = p->tape[t];
        jj_type type = jj_tape_type(w);
        switch (type) {
        case JJ_NULL: PUT("n"); t += 1; break;
        case JJ_TRUE: PUT("t"); t += 1; break;
        case JJ_FALSE: PUT("f"); t += 1; break;
        case JJ_INT64: PUT("i%lld", (long long)(int64_t)p->tape[t + 1]); t += 2; break;
        case JJ_UINT64: PUT("u%llu", (unsigned long long)p->tape[t + 1]); t += 2; break;
        case JJ_DOUBLE: {
            double d;
            memcpy(&d, &p->tape[t + 1], sizeof d);
            PUT("d%.17g", d);
            t += 2;
            break;
        }
        case JJ_BIGINT:
            PUT("b%.*s", (int)p->tape[t + 1], (const char *)buf + jj_tape_payload(w));
            t += 2;
            break;
        case JJ_STRING: {
            unsigned flags = jj_tape_str_flags(w);
            const uint8_t *s = (flags & JJ_STR_IN_INPUT ? buf : p->strings) + jj_tape_str_offset(w);
            PUT("\"%.*s\"", (int)jj_tape_str_bytes(p->tape[t + 1]), (const char *)s);
            t += 2;
            break;
        }
        case JJ_OBJECT: PUT("{%llu:", (unsigned long long)p->tape[t + 1]); t += 2; break;
        case JJ_ARRAY: PUT("[%llu:", (unsigned long long)p->tape[t + 1]); t += 2; break;
        case JJ_END: PUT("}"); t += 1; break;
        default: PUT("?"); t += 1; break;
        }
        if (t < p->tape_len && jj_tape_type(p->tape[t]) != JJ_END &&
            jj_tape_type(w) != JJ_OBJECT && jj_tape_type(w) != JJ_ARRAY)
            PUT(",");
    }
#undef PUT
    return o;
}

static const jj_kernels *const *kernels;

/* Every string of the tape: code point count and width flags recomputed from its bytes. */
static void check_string_facts(const char *name, const jj_parser *p, const uint8_t *buf) {
    for (size_t t = 0; t < p->tape_len;) {
        uint64_t w = p->tape[t];
        jj_type type = jj_tape_type(w);
        if (type == JJ_STRING) {
            unsigned flags = jj_tape_str_flags(w);
            const uint8_t *s = (flags & JJ_STR_IN_INPUT ? buf : p->strings) + jj_tape_str_offset(w);
            size_t bytes = jj_tape_str_bytes(p->tape[t + 1]), chars = 0;
            unsigned want = 0;
            for (size_t k = 0; k < bytes; k++) {
                uint8_t c = s[k];
                chars += (c & 0xc0) != 0x80;
                if (c >= 0x80) want |= 0x80;
                if (c >= 0xc4) want |= JJ_STR_WIDE2;
                if (c >= 0xf0) want |= JJ_STR_WIDE4;
            }
            unsigned got = (flags & (JJ_STR_WIDE2 | JJ_STR_WIDE4)) | (flags & JJ_STR_ASCII ? 0u : 0x80u);
            CHECK(chars == jj_tape_str_chars(p->tape[t + 1]) && got == want,
                  "%s: string at tape %zu: %zu chars, flags %#x; tape says %zu, %#x", name, t, chars,
                  want, jj_tape_str_chars(p->tape[t + 1]), got);
        }
        t += (type == JJ_NULL || type == JJ_TRUE || type == JJ_FALSE || type == JJ_END) ? 1 : 2;
    }
}


static void expect_tape(const char *json, const char *want) {
    for (size_t k = 0; kernels[k]; k++) {
        jj_parser p;
        jj_parser_init(&p);
        jj_error err = jj_parse_with(&p, kernels[k], (const uint8_t *)json, strlen(json));
        char got[4096];
        got[0] = 0;
        if (err == JJ_OK) {
            render(&p, (const uint8_t *)json, got, sizeof got);
            check_string_facts(json, &p, (const uint8_t *)json);
        }
        CHECK(err == JJ_OK && strcmp(got, want) == 0, "[%s] %s -> %s (err %s), want %s",
              kernels[k]->name, json, got, jj_error_name(err), want);
        jj_parser_free(&p);
    }
}

static void expect_error(const char *json, size_t len, jj_error want) {
    for (size_t k = 0; kernels[k]; k++) {
        jj_parser p;
        jj_parser_init(&p);
        jj_error err = jj_parse_with(&p, kernels[k], (const uint8_t *)json, len);
        CHECK(err == want, "[%s] %.*s: got %s, want %s", kernels[k]->name, (int)len, json,
              jj_error_name(err), jj_error_name(want));
        jj_parser_free(&p);
    }
}

static void test_shapes(void) {
    expect_tape("[]", "[0:}");
    expect_tape("{}", "{0:}");
    expect_tape(" [1, 2 ,3] ", "[3:i1,i2,i3}");
    expect_tape("{\"a\":[true,false,null],\"b\":{}}", "{2:\"a\",[3:t,f,n},\"b\",{0:}}");
    expect_tape("\"x\"", "\"x\"");
    expect_tape("-0", "i0");
    expect_tape("12345678901234567890123", "b12345678901234567890123");
    expect_tape("[NaN,Infinity,-Infinity]", "[3:dnan,dinf,d-inf}");
    expect_tape("\"a\\\"b\\\\c\\/\\n\"", "\"a\"b\\c/\n\"");
    expect_tape("\"\\u00e9\\ud83d\\ude00\"", "\"\xc3\xa9\xf0\x9f\x98\x80\"");
    expect_tape("\"\\ud800x\"", "\"\xed\xa0\x80x\"");
    expect_tape("\"\\ud800\\u0041\"", "\"\xed\xa0\x80" "A\"");
    expect_tape("[[[[]]]]", "[1:[1:[1:[0:}}}}");
    expect_tape("\"\xed\xa0\x80\"", "\"\xed\xa0\x80\""); /* encoded surrogate: surrogatepass */
    expect_tape("{\"a\":1,\"a\":2}", "{2:\"a\",i1,\"a\",i2}");
}

static void test_errors(void) {
    struct { const char *json; jj_error err; } cases[] = {
        {"", JJ_ERR_EMPTY},
        {"   \n", JJ_ERR_EMPTY},
        {"[1,]", JJ_ERR_VALUE},
        {"{\"a\":1,}", JJ_ERR_KEY},
        {"{\"a\" 1}", JJ_ERR_COLON},
        {"[1 2]", JJ_ERR_COMMA},
        {"[1", JJ_ERR_COMMA},
        {"{", JJ_ERR_KEY},
        {"[", JJ_ERR_VALUE},
        {"\"abc", JJ_ERR_UNCLOSED_STRING},
        {"\"a\x01\"", JJ_ERR_CONTROL_CHAR},
        {"\"a\\x\"", JJ_ERR_ESCAPE},
        {"\"\\u12g4\"", JJ_ERR_ESCAPE},
        {"\"\\ud800\\u12g4\"", JJ_ERR_ESCAPE},
        {"1 2", JJ_ERR_TRAILING},
        {"01", JJ_ERR_NUMBER},
        {"1.", JJ_ERR_NUMBER},
        {".5", JJ_ERR_VALUE},
        {"-", JJ_ERR_NUMBER},
        {"tru", JJ_ERR_VALUE},
        {"truex", JJ_ERR_VALUE},
        {"nan", JJ_ERR_VALUE},
        {"-Inf", JJ_ERR_VALUE},
        {"[1}", JJ_ERR_COMMA},
        {"{\"a\":1]", JJ_ERR_COMMA},
        {"\xff", JJ_ERR_UTF8},
        {"\"\xc0\x80\"", JJ_ERR_UTF8},
        {"\"\xe2\x82\"", JJ_ERR_UTF8},
        {"\"\xf4\x90\x80\x80\"", JJ_ERR_UTF8},
        {"[\f1]", JJ_ERR_VALUE},
        {"1\x1a", JJ_ERR_NUMBER},
        {"\"a\"\"b\"", JJ_ERR_TRAILING},
        {"[\"a\"x]", JJ_ERR_COMMA},
        {"\\", JJ_ERR_VALUE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_error(cases[i].json, strlen(cases[i].json), cases[i].err);
    expect_error("\"a\0\"", 4, JJ_ERR_CONTROL_CHAR);
}

/* Documents placed so their last byte is the last byte before a PROT_NONE page. */
static void test_guard_page(void) {
    long page = sysconf(_SC_PAGESIZE);
    uint8_t *region = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(region != MAP_FAILED, "mmap");
    if (region == MAP_FAILED) return;
    mprotect(region + page, (size_t)page, PROT_NONE);
    const char *docs[] = {"1", "123.5e7", "true", "\"abc\"", "[1,2,\"x\"]", "{\"k\":null}",
                          "\"abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz\"",
                          "\"\\u00e9\"", "-Infinity", "\"\xc3\xa9\""};
    for (size_t d = 0; d < sizeof docs / sizeof docs[0]; d++) {
        size_t n = strlen(docs[d]);
        for (size_t pad = 0; pad < 70; pad++) {
            size_t total = n + pad;
            uint8_t *start = region + page - total;
            memset(start, ' ', pad);
            memcpy(start + pad, docs[d], n);
            for (size_t k = 0; kernels[k]; k++) {
                jj_parser p;
                jj_parser_init(&p);
                jj_error err = jj_parse_with(&p, kernels[k], start, total);
                CHECK(err == JJ_OK, "[%s] guard page %s pad %zu: %s", kernels[k]->name, docs[d],
                      pad, jj_error_name(err));
                err = jj_parse_lazy_with(&p, kernels[k], start, total);
                CHECK(err == JJ_OK && jj_lazy_finish_range(&p, start, total, 0, p.tape_len) == JJ_OK,
                      "[%s] guard page, lazy %s pad %zu: %s", kernels[k]->name, docs[d], pad,
                      jj_error_name(err));
                jj_parser_free(&p);
            }
        }
    }
    munmap(region, (size_t)page * 2);
}

static int same_tape(const jj_parser *a, const jj_parser *b) {
    if (a->tape_len != b->tape_len || a->max_depth != b->max_depth) return 0;
    if (memcmp(a->tape, b->tape, a->tape_len * sizeof *a->tape) != 0) return 0;
    return a->strings_len == b->strings_len &&
           (a->strings_len == 0 || memcmp(a->strings, b->strings, a->strings_len) == 0);
}

/* The lazy parse with kernel set k must accept and refuse as jj_parse did (`want`, at
 * the same offset), and its tape, once every raw entry is finished, be ref's. */
static void lazy_agrees(const char *name, const jj_kernels *k, const jj_parser *ref, jj_error want,
                        const uint8_t *buf, size_t len) {
    jj_parser p;
    jj_parser_init(&p);
    jj_error err = jj_parse_lazy_with(&p, k, buf, len);
    CHECK(err == want && (err == JJ_OK || p.error_offset == ref->error_offset),
          "[%s] %s: lazy parse says %s at %zu, jj_parse %s at %zu", k->name, name, jj_error_name(err),
          p.error_offset, jj_error_name(want), ref->error_offset);
    if (err == JJ_OK && want == JJ_OK) {
        for (size_t t = 0; t < p.tape_len; t++) {
            if (!jj_tape_is_raw(p.tape, t)) continue;
            /* a raw entry sits where jj_parse put the same kind of entry, at the same text */
            jj_type got = jj_tape_type(p.tape[t]), full = jj_tape_type(ref->tape[t]);
            CHECK(got == JJ_STRING ? full == JJ_STRING
                                   : full == JJ_INT64 || full == JJ_UINT64 || full == JJ_DOUBLE || full == JJ_BIGINT,
                  "[%s] %s: raw entry %zu is a %d where jj_parse has a %d", k->name, name, t, (int)got, (int)full);
        }
        CHECK(jj_lazy_finish_range(&p, buf, len, 0, p.tape_len) == JJ_OK, "[%s] %s: finishing failed",
              k->name, name);
        CHECK(same_tape(ref, &p), "[%s] %s: finished lazy tape differs from jj_parse's", k->name, name);
    }
    jj_parser_free(&p);
}

/* Parses buf with every kernel set; all must agree with the scalar one. */
static jj_error parse_all_agree(const char *name, const uint8_t *buf, size_t len) {
    jj_parser ref;
    jj_parser_init(&ref);
    jj_error want = jj_parse_with(&ref, kernels[0], buf, len);
    if (want == JJ_OK) check_string_facts(name, &ref, buf);
    for (size_t k = 0; kernels[k]; k++) lazy_agrees(name, kernels[k], &ref, want, buf, len);
    for (size_t k = 1; kernels[k]; k++) {
        jj_parser p;
        jj_parser_init(&p);
        jj_error err = jj_parse_with(&p, kernels[k], buf, len);
        CHECK(err == want && (err != JJ_OK || same_tape(&ref, &p)), "[%s] %s differs from scalar",
              kernels[k]->name, name);
        jj_parser_free(&p);
    }
    jj_parser_free(&ref);
    return want;
}

static void for_each_file(const char *dir, void (*fn)(const char *name, const uint8_t *buf, size_t len)) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        size_t nlen = strlen(e->d_name);
        if (nlen < 5 || strcmp(e->d_name + nlen - 5, ".json") != 0) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        uint8_t *buf = jj_read_file(path, &len);
        if (buf) fn(e->d_name, buf, len);
        free(buf);
    }
    closedir(d);
}

static int corpus_files;
static void check_corpus_file(const char *name, const uint8_t *buf, size_t len) {
    corpus_files++;
    CHECK(parse_all_agree(name, buf, len) == JJ_OK, "corpus %s rejected", name);
}

/* The n_ files that Python's json accepts (it allows NaN and Infinity). */
static int json_accepts(const char *name) {
    return strcmp(name, "n_number_NaN.json") == 0 || strcmp(name, "n_number_infinity.json") == 0 ||
           strcmp(name, "n_number_minus_infinity.json") == 0;
}

static int suite_files;
static void check_suite_file(const char *name, const uint8_t *buf, size_t len) {
    suite_files++;
    jj_error err = parse_all_agree(name, buf, len);
    if (name[0] == 'y') CHECK(err == JJ_OK, "%s rejected: %s", name, jj_error_name(err));
    if (name[0] == 'n' && !json_accepts(name)) CHECK(err != JJ_OK, "%s accepted", name);
}

static void test_data(void) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/corpus", jj_data_dir());
    for_each_file(dir, check_corpus_file);
    snprintf(dir, sizeof dir, "%s/JSONTestSuite/test_parsing", jj_data_dir());
    for_each_file(dir, check_suite_file);
    if (corpus_files == 0) printf("note: no data at %s, corpus checks skipped\n", jj_data_dir());
    else printf("corpus files: %d, JSONTestSuite files: %d\n", corpus_files, suite_files);
}

/* Every prefix of a document with strings, escapes and numbers: no ISA may disagree. */
static void test_prefixes(void) {
    const char *doc = "{\"name\":\"caf\xc3\xa9 \\\"q\\\" \\u00e9\\ud83d\\ude00\",\"n\":[1,-2.5e3,"
                      "12345678901234567890,true,false,null,{\"x\":\"\\\\\"}],\"s\":\"" 
                      "0123456789012345678901234567890123456789012345678901234567890123\"}";
    size_t n = strlen(doc);
    for (size_t len = 0; len <= n; len++) {
        uint8_t *copy = malloc(len ? len : 1);
        memcpy(copy, doc, len);
        jj_error err = parse_all_agree("prefix", copy, len);
        CHECK((err == JJ_OK) == (len == n), "prefix %zu: %s", len, jj_error_name(err));
        free(copy);
    }
}

/* Every byte value in every position class (outside, inside a string, after a
 * backslash, next to a token), at each offset of a 64-byte block: all ISAs agree. */
static void test_every_byte(void) {
    const char *templates[] = {"[1,X2]", "\"aXb\"", "\"\\X\"", "Xnull", "[trueX]", "{\"k\"X:1}",
                               "[\"a\",X]", "1X"};
    uint8_t buf[160];
    for (size_t t = 0; t < sizeof templates / sizeof templates[0]; t++) {
        size_t n = strlen(templates[t]);
        const char *x = strchr(templates[t], 'X');
        for (int byte = 0; byte < 256; byte++) {
            for (size_t pad = 0; pad < 70; pad += 7) {
                memset(buf, ' ', pad);
                memcpy(buf + pad, templates[t], n);
                buf[pad + (size_t)(x - templates[t])] = (uint8_t)byte;
                parse_all_agree(templates[t], buf, pad + n);
            }
        }
    }
}

/* UTF-8 in a string that spans blocks: a block ending in a complete or cut sequence,
 * then blocks of ASCII, then a block whose first bytes continue, start or break a
 * sequence. The vector kernels skip ASCII blocks; all must agree with the scalar one. */
static void test_utf8_across_blocks(void) {
    const char *endings[] = {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xc3", "\xe2\x82", "\xe2",
                             "\xf0\x9f\x98", "\xf0\x9f", "\xf0"};
    const char *starts[] = {"b", "\x80", "\xbf", "\x80\x80", "\xa9", "\x82\xac", "\x9f\x98\x80", "\xc3\xa9",
                            "\xe2\x82\xac", "\xc3"};
    uint8_t buf[64 * 5];
    for (size_t e = 0; e < sizeof endings / sizeof endings[0]; e++) {
        for (size_t st = 0; st < sizeof starts / sizeof starts[0]; st++) {
            for (size_t ascii_blocks = 0; ascii_blocks < 3; ascii_blocks++) {
                size_t el = strlen(endings[e]), sl = strlen(starts[st]);
                size_t start_at = 64 * (1 + ascii_blocks);
                memset(buf, 'x', sizeof buf);
                buf[0] = '"';
                memcpy(buf + 64 - el, endings[e], el);
                memcpy(buf + start_at, starts[st], sl);
                buf[start_at + sl + 3] = '"';
                parse_all_agree("utf8 across blocks", buf, start_at + sl + 4);
            }
        }
    }
}

int main(void) {
    kernels = jj_kernels_all();
    printf("kernels:");
    for (size_t k = 0; kernels[k]; k++) printf(" %s", kernels[k]->name);
    printf(" (active: %s)\n", jj_kernels_active()->name);
    test_shapes();
    test_errors();
    test_guard_page();
    test_prefixes();
    test_every_byte();
    test_utf8_across_blocks();
    test_data();
    return jj_test_report();
}
