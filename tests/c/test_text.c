/* Validate, minify and indent on every kernel set this machine has: jj_validate
 * against jj_parse (same verdict and error code, same depth) and each kernel's minify
 * against a plain byte-loop minifier written here (the oracle), on the corpus,
 * JSONTestSuite, random byte soups, every byte in every context, every prefix of a
 * document and inputs ending at a guard page; minified and indented documents parse
 * to the same values; the unterminated-string offset. */
#include <dirent.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine_internal.h"
#include "test_util.h"
#include "tape_compare.h"

static const jj_kernels *const *kernels;

/* The oracle: one byte at a time. A backslash escapes the next byte wherever it is (as
 * stage 1 tracks them), unescaped quotes toggle "in string", whitespace outside strings
 * goes (escaped or not: a backslash outside strings is garbage anyway). */
static size_t ref_minify(const uint8_t *in, size_t len, uint8_t *out, int *open, size_t *open_at) {
    size_t o = 0;
    int in_string = 0;
    int escaped = 0;
    for (size_t i = 0; i < len; i++) {
        uint8_t c = in[i];
        int was_escaped = escaped;
        escaped = c == '\\' && !was_escaped;
        if (c == '"' && !was_escaped) {
            in_string = !in_string;
            if (in_string) *open_at = i;
        } else if (!in_string && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
            continue;
        }
        out[o++] = c;
    }
    *open = in_string;
    return o;
}

/* Every kernel's minify of buf equals the oracle's (bytes, length, error, offset). */
static void check_minify(const char *name, const uint8_t *buf, size_t len) {
    uint8_t *want = malloc(len + 1), *got = malloc(len + 1);
    if (!want || !got) {
        FAIL("out of memory");
        free(want);
        free(got);
        return;
    }
    int open = 0;
    size_t open_at = 0;
    size_t want_len = ref_minify(buf, len, want, &open, &open_at);
    for (size_t k = 0; kernels[k]; k++) {
        size_t got_len = 0, err_off = 0;
        jj_error err = jj_minify_with(kernels[k], buf, len, got, &got_len, &err_off);
        int same = got_len == want_len && memcmp(got, want, want_len) == 0;
        CHECK(same && (err == JJ_ERR_UNCLOSED_STRING) == open && (!open || err_off == open_at),
              "[%s] minify %s (len %zu): got %zu bytes err %s at %zu, want %zu bytes open %d at %zu",
              kernels[k]->name, name, len, got_len, jj_error_name(err), err_off, want_len, open, open_at);
    }
    free(want);
    free(got);
}

/* The checked pair alone (stage1_checked, then validate_checked): jj_validate runs it
 * first and the plain pair only on a refusal, so a wrong acceptance would hide there. */
static jj_error checked_pair(const jj_kernels *k, jj_parser *p, const uint8_t *buf, size_t len,
                             jj_valid_facts *facts) {
    uint32_t *index = malloc((len + 64) * sizeof *index);
    uint32_t *stack = malloc((len + 65) * sizeof *stack);
    jj_error err = JJ_ERR_NOMEM;
    size_t err_off = 0;
    if (index && stack) {
        size_t n = k->stage1_checked(buf, len, index, &err, &err_off);
        if (err == JJ_OK) {
            jj_parser q = *p; /* the walk reads index and stack from the parser */
            q.index = index;
            q.index_len = n;
            q.stack = stack;
            err = k->validate_checked(&q, buf, len, facts);
        }
    }
    free(index);
    free(stack);
    return err;
}

static void check_lines(const char *name, const uint8_t *buf, size_t len);

/* Every kernel's jj_validate agrees with the scalar kernel's jj_parse. */
static void check_validate(const char *name, const uint8_t *buf, size_t len) {
    jj_parser ref, p;
    jj_parser_init(&ref);
    jj_parser_init(&p);
    jj_error want = jj_parse_with(&ref, kernels[0], buf, len);
    for (size_t k = 0; kernels[k]; k++) {
        jj_valid_facts facts = {99, 99};
        jj_error got = jj_validate_with(&p, kernels[k], buf, len, &facts);
        CHECK(got == want && (got != JJ_OK || facts.max_depth == ref.max_depth),
              "[%s] validate %s (len %zu): %s depth %zu, parse says %s depth %zu", kernels[k]->name, name, len,
              jj_error_name(got), facts.max_depth, jj_error_name(want), ref.max_depth);
        jj_valid_facts cfacts = {99, 99};
        jj_error cgot = checked_pair(kernels[k], &p, buf, len, &cfacts);
        CHECK((cgot == JJ_OK) == (want == JJ_OK) && (cgot != JJ_OK || (cfacts.max_depth == ref.max_depth &&
                                                                        cfacts.max_int_digits == facts.max_int_digits)),
              "[%s] checked pair %s (len %zu): %s depth %zu, parse says %s depth %zu", kernels[k]->name, name, len,
              jj_error_name(cgot), cfacts.max_depth, jj_error_name(want), ref.max_depth);
    }
    jj_parser_free(&ref);
    jj_parser_free(&p);
    check_lines(name, buf, len);
}

/* jj_validate_lines on every kernel against jj_parse of each '\n'-ended line (the last
 * one without '\n' counts when not empty): OK with the line count and the deepest
 * line's depth when all parse, a refusal when one does not. */
static void check_lines(const char *name, const uint8_t *buf, size_t len) {
    jj_parser ref, p;
    jj_parser_init(&ref);
    jj_parser_init(&p);
    int all_ok = len > 0;
    size_t want_lines = 0, want_depth = 0;
    for (size_t start = 0; start < len && all_ok; want_lines++) {
        const uint8_t *nl = memchr(buf + start, '\n', len - start);
        size_t stop = nl ? (size_t)(nl - buf) + 1 : len;
        all_ok = jj_parse_with(&ref, kernels[0], buf + start, stop - start) == JJ_OK;
        if (all_ok && ref.max_depth > want_depth) want_depth = ref.max_depth;
        start = stop;
    }
    for (size_t k = 0; kernels[k]; k++) {
        jj_valid_facts facts = {99, 99};
        size_t lines = 99;
        jj_error got = jj_validate_lines_with(&p, kernels[k], buf, len, &facts, &lines);
        CHECK(all_ok ? got == JJ_OK && lines == want_lines && facts.max_depth == want_depth : got != JJ_OK,
              "[%s] validate_lines %s (len %zu): %s, %zu lines, depth %zu; lines parse: %d, %zu lines, depth %zu",
              kernels[k]->name, name, len, jj_error_name(got), lines, facts.max_depth, all_ok, want_lines,
              want_depth);
    }
    jj_parser_free(&ref);
    jj_parser_free(&p);
}

/* A valid document minified and joined into NDJSON a few ways, for check_lines. */
static void check_lines_of(const char *name, const uint8_t *buf, size_t len) {
    uint8_t *mini = malloc(len + 1), *nd = malloc(4 * len + 16);
    size_t mini_len = 0, err_off = 0;
    if (mini && nd && jj_minify(buf, len, mini, &mini_len, &err_off) == JJ_OK && memchr(mini, '\n', mini_len) == NULL) {
        const char *seps[] = {"\n", "\r\n", " \n ", "\n\n", "\n  "};
        for (size_t s = 0; s < sizeof seps / sizeof seps[0]; s++) {
            size_t n = 0, sl = strlen(seps[s]);
            for (int copy = 0; copy < 3; copy++) {
                memcpy(nd + n, mini, mini_len);
                n += mini_len;
                memcpy(nd + n, seps[s], sl);
                n += sl;
            }
            check_lines(name, nd, n);     /* ending with the separator */
            check_lines(name, nd, n - sl); /* and without it */
        }
    }
    free(mini);
    free(nd);
}

/* Indented text of a parsed document (NULL on allocation failure). The writer's count
 * must be the sizing walk's, and at most the bound; the slack must suffice (ASan). */
static uint8_t *indent_of(jj_parser *p, const uint8_t *buf, size_t len, const char *unit, size_t *out_len) {
    size_t size = jj_indent_size(p, buf, len, strlen(unit));
    size_t bound = jj_indent_bound(p, len, strlen(unit), p->max_depth);
    uint8_t *out = malloc(size + JJ_INDENT_SLACK);
    if (out) {
        size_t written = jj_indent_write(p, buf, len, (const uint8_t *)unit, strlen(unit), out);
        CHECK(written == size && size <= bound, "indent sizes: wrote %zu, sized %zu, bound %zu", written, size, bound);
    }
    *out_len = size;
    return out;
}

/* For a valid document: minify and indent keep the values; minify(indent(x)) is
 * minify(x); indenting the minified text gives the same bytes. */
static void check_round_trips(const char *name, const uint8_t *buf, size_t len) {
    jj_parser orig, again;
    jj_parser_init(&orig);
    jj_parser_init(&again);
    if (jj_parse(&orig, buf, len) != JJ_OK) goto out;
    uint8_t *mini = malloc(len + 1);
    size_t mini_len = 0, err_off = 0;
    if (!mini || jj_minify(buf, len, mini, &mini_len, &err_off) != JJ_OK) {
        FAIL("minify %s failed", name);
        free(mini);
        goto out;
    }
    CHECK(jj_parse(&again, mini, mini_len) == JJ_OK && jj_test_same_values(&orig, buf, &again, mini, 1),
          "minified %s parses to other values", name);
    const char *units[] = {"  ", "", "\t", " -> "};
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        size_t ind_len = 0, ind2_len = 0, remini_len = 0;
        jj_parse(&orig, buf, len);
        uint8_t *ind = indent_of(&orig, buf, len, units[u], &ind_len);
        jj_parse(&again, mini, mini_len);
        uint8_t *ind2 = indent_of(&again, mini, mini_len, units[u], &ind2_len);
        uint8_t *remini = malloc(ind_len + 1);
        if (!ind || !ind2 || !remini) {
            FAIL("out of memory");
        } else if (u < 3) { /* " -> " is no whitespace: it stays in the minified text */
            CHECK(ind_len == ind2_len && memcmp(ind, ind2, ind_len) == 0, "indent(%s) != indent(minify(%s))", name, name);
            CHECK(jj_minify(ind, ind_len, remini, &remini_len, &err_off) == JJ_OK && remini_len == mini_len &&
                      memcmp(remini, mini, mini_len) == 0,
                  "minify(indent(%s, \"%s\")) != minify(%s)", name, units[u], name);
            jj_parser third;
            jj_parser_init(&third);
            jj_parse(&orig, buf, len);
            CHECK(jj_parse(&third, ind, ind_len) == JJ_OK && jj_test_same_values(&orig, buf, &third, ind, 1),
                  "indented %s parses to other values", name);
            jj_parser_free(&third);
        }
        free(ind);
        free(ind2);
        free(remini);
    }
    free(mini);
out:
    jj_parser_free(&orig);
    jj_parser_free(&again);
}

static void check_file(const char *name, const uint8_t *buf, size_t len) {
    check_validate(name, buf, len);
    check_minify(name, buf, len);
    check_round_trips(name, buf, len);
    check_lines_of(name, buf, len);
}

static int files_seen;
static void for_each_file(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t nlen = strlen(e->d_name);
        if (e->d_name[0] == '.' || nlen < 5 || strcmp(e->d_name + nlen - 5, ".json") != 0) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = 0;
        uint8_t *buf = jj_read_file(path, &len);
        if (buf) {
            files_seen++;
            check_file(e->d_name, buf, len);
        }
        free(buf);
    }
    closedir(d);
}

/* Exact layouts, written out by hand from json.dumps(json.loads(x), indent=2). */
static void test_indent_layout(void) {
    struct { const char *in, *unit, *want; } cases[] = {
        {"[]", "  ", "[]"},
        {" {} ", "  ", "{}"},
        {"1", "  ", "1"},
        {" \"a b\" ", "  ", "\"a b\""},
        {"[1,2]", "  ", "[\n  1,\n  2\n]"},
        {"{\"a\" : [ ] , \"b\":{ }}", "  ", "{\n  \"a\": [],\n  \"b\": {}\n}"},
        {"[[1],{\"k\":[true,null]}]", "\t", "[\n\t[\n\t\t1\n\t],\n\t{\n\t\t\"k\": [\n\t\t\ttrue,\n\t\t\tnull\n\t\t]\n\t}\n]"},
        {"[1.50e3 , -0, \"\\u00e9\"]", "", "[\n1.50e3,\n-0,\n\"\\u00e9\"\n]"},
        {"{\"a\":1,\"a\":2}", "  ", "{\n  \"a\": 1,\n  \"a\": 2\n}"},
        {"[NaN,-Infinity]", "ab", "[\nabNaN,\nab-Infinity\n]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jj_parser p;
        jj_parser_init(&p);
        size_t len = strlen(cases[i].in), out_len = 0;
        CHECK(jj_parse(&p, (const uint8_t *)cases[i].in, len) == JJ_OK, "parse %s", cases[i].in);
        uint8_t *out = indent_of(&p, (const uint8_t *)cases[i].in, len, cases[i].unit, &out_len);
        CHECK(out && out_len == strlen(cases[i].want) && memcmp(out, cases[i].want, out_len) == 0,
              "indent %s: got %.*s", cases[i].in, (int)out_len, out ? (const char *)out : "");
        free(out);
        jj_parser_free(&p);
    }
}

static void test_unterminated(void) {
    struct { const char *in; size_t at; } cases[] = {
        {"\"", 0}, {"[\"abc", 1}, {"[\"a\" , \"b\\\"", 7}, {"\"a\\\\\" \"", 6}, {"\\\"\"x", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        for (size_t k = 0; kernels[k]; k++) {
            uint8_t out[64];
            size_t out_len = 0, err_off = 99;
            jj_error err = jj_minify_with(kernels[k], (const uint8_t *)cases[i].in, strlen(cases[i].in), out,
                                          &out_len, &err_off);
            CHECK(err == JJ_ERR_UNCLOSED_STRING && err_off == cases[i].at, "[%s] %s: %s at %zu", kernels[k]->name,
                  cases[i].in, jj_error_name(err), err_off);
        }
    }
}

/* Every prefix of a document with strings, escapes, whitespace runs across blocks. */
static void test_prefixes(void) {
    const char *doc = "{\n  \"name\" : \"caf\xc3\xa9 \\\"q\\\"  \\\\\",\t\"n\": [1, -2.5e3,\r\n    12345678901234567890,"
                      " true , false,null, {\"x\": \"\\\\\"}],                                                  "
                      "\"s\" :\"0123456789 0123456789 0123456789 0123456789 0123456789 0123456789 0123\"  }\n";
    size_t n = strlen(doc);
    for (size_t len = 0; len <= n; len++) {
        uint8_t *copy = malloc(len ? len : 1);
        if (!copy) continue;
        memcpy(copy, doc, len);
        check_minify("prefix", copy, len);
        check_validate("prefix", copy, len);
        free(copy);
    }
    check_round_trips("prefix doc", (const uint8_t *)doc, n);
}

/* Random soups of the bytes that matter (quotes, backslashes, whitespace, letters). */
static void test_random(void) {
    static const uint8_t alphabet[] = " \t\n\r\"\\\"\\ {}[]:,ab1\xc3\xa9   ";
    uint64_t state = 0x9e3779b97f4a7c15u;
    uint8_t buf[700];
    for (int round = 0; round < 3000; round++) {
        state = state * 6364136223846793005u + 1442695040888963407u;
        size_t len = (size_t)(state >> 33) % sizeof buf;
        for (size_t i = 0; i < len; i++) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            buf[i] = alphabet[(state >> 40) % (sizeof alphabet - 1)];
        }
        check_minify("random", buf, len);
        check_validate("random", buf, len);
    }
}

/* Every byte value in every position class of small documents, at several offsets in
 * a 64-byte block: validation agrees with the parser, minify with the oracle. */
static void test_every_byte(void) {
    const char *templates[] = {"[1,X2]", "\"aXb\"", "\"\\X\"", "Xnull", "[trueX]", "{\"k\"X:1}",
                               "[\"a\",X]", "1X", "-X", "1.X", "1eX", "[1e+X]", "\"\\uX041\"",
                               "\"\\ud800\\uX\"", "[0X]", "{\"a\":1X}", "NaX"};
    uint8_t buf[160];
    for (size_t t = 0; t < sizeof templates / sizeof templates[0]; t++) {
        size_t n = strlen(templates[t]);
        const char *x = strchr(templates[t], 'X');
        for (int byte = 0; byte < 256; byte++) {
            for (size_t pad = 0; pad < 70; pad += 9) {
                memset(buf, ' ', pad);
                memcpy(buf + pad, templates[t], n);
                buf[pad + (size_t)(x - templates[t])] = (uint8_t)byte;
                check_validate(templates[t], buf, pad + n);
                check_minify(templates[t], buf, pad + n);
            }
        }
    }
}

/* Inputs whose last byte is the last byte before a PROT_NONE page. */
static void test_guard_page(void) {
    long page = sysconf(_SC_PAGESIZE);
    uint8_t *region = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(region != MAP_FAILED, "mmap");
    if (region == MAP_FAILED) return;
    mprotect(region + page, (size_t)page, PROT_NONE);
    const char *docs[] = {"1", "[1, 2]", "\"abc\"", "{\"k\" : null}", "\"unterminated",
                          "[\"abcdefghijklmnopqrstuvwxyz 0123456789 abcdefghijklmnopqrstuvwxyz\" ]",
                          "123456789012", "-1.5e-300", "[1.25, 0]", "1234567.123456789e12345678"};
    for (size_t d = 0; d < sizeof docs / sizeof docs[0]; d++) {
        size_t n = strlen(docs[d]);
        for (size_t pad = 0; pad < 140; pad++) {
            uint8_t *start = region + page - (n + pad);
            memset(start, ' ', pad);
            memcpy(start + pad, docs[d], n);
            check_minify("guard page", start, n + pad);
            check_validate("guard page", start, n + pad);
            /* and a document with the whitespace at its end */
            memcpy(start, docs[d], n);
            memset(start + n, '\n', pad);
            check_minify("guard page tail", start, n + pad);
            jj_parser p;
            jj_parser_init(&p);
            if (jj_parse(&p, start, n + pad) == JJ_OK) {
                size_t out_len = 0;
                uint8_t *out = indent_of(&p, start, n + pad, "  ", &out_len);
                CHECK(out != NULL, "indent at a guard page");
                free(out);
            }
            jj_parser_free(&p);
        }
    }
    munmap(region, (size_t)page * 2);
}

int main(void) {
    kernels = jj_kernels_all();
    printf("kernels:");
    for (size_t k = 0; kernels[k]; k++) printf(" %s", kernels[k]->name);
    printf("\n");
    test_indent_layout();
    test_unterminated();
    test_prefixes();
    test_random();
    test_every_byte();
    test_guard_page();
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/corpus", jj_data_dir());
    for_each_file(dir);
    snprintf(dir, sizeof dir, "%s/JSONTestSuite/test_parsing", jj_data_dir());
    for_each_file(dir);
    if (files_seen == 0) printf("note: no data at %s, file checks skipped\n", jj_data_dir());
    else printf("data files: %d\n", files_seen);
    return jj_test_report();
}
