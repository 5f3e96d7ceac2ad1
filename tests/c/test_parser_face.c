/* The parser's public face (jetjson.h): jj_parser_new/delete, jj_parser_result,
 * jj_parser_error and jj_parser_structurals, through the public header only. The
 * structural index is checked against a plain byte-by-byte tokenizer written here; the
 * result view against jj_doc_take of a second parse; errors against jj_validate. */
#include <dirent.h>

#include "tape_compare.h"
#include "test_util.h"

/* The reference tokenizer: where each structural character, string and other token
 * starts, outside strings, in order. Returns the count written to out (room for len). */
static size_t reference_structurals(const uint8_t *buf, size_t len, uint32_t *out) {
    size_t n = 0, i = 0;
    while (i < len) {
        uint8_t c = buf[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            i++;
        } else if (c == '{' || c == '}' || c == '[' || c == ']' || c == ':' || c == ',') {
            out[n++] = (uint32_t)i++;
        } else if (c == '"') {
            out[n++] = (uint32_t)i++;
            while (i < len && buf[i] != '"') i += buf[i] == '\\' ? 2 : 1;
            i++;
        } else {
            out[n++] = (uint32_t)i;
            while (i < len && !strchr(" \t\n\r{}[]:,\"", buf[i])) i++;
        }
    }
    return n;
}

static void check_structurals(const jj_parser *p, const uint8_t *buf, size_t len, const char *what) {
    uint32_t *want = malloc((len + 1) * sizeof *want);
    size_t n = reference_structurals(buf, len, want), count = SIZE_MAX;
    const uint32_t *got = jj_parser_structurals(p, &count);
    CHECK(count == n, "%s: %zu structurals, the reference finds %zu", what, count, n);
    if (count == n) CHECK(n == 0 || memcmp(got, want, n * sizeof *want) == 0, "%s: structurals differ", what);
    free(want);
}

/* A parse seen through jj_parser_result, against the same parse taken out by jj_doc_take. */
static void check_document(jj_parser *p, jj_parser *other, const uint8_t *buf, size_t len, const char *what) {
    const jj_doc *view = jj_parser_result(p);
    jj_error err = jj_parse(p, buf, len);
    CHECK(err == JJ_OK, "%s: %s", what, jj_error_name(err));
    if (err != JJ_OK) return;
    CHECK(jj_parser_result(p) == view, "%s: the view is the parser's own, the same after a parse", what);
    CHECK(view->input == NULL && view->input_len == 0, "%s: a parser keeps no text", what);
    size_t offset = 1;
    CHECK(jj_parser_error(p, &offset) == JJ_OK, "%s: no error after a success", what);
    check_structurals(p, buf, len, what);
    CHECK(jj_parse(other, buf, len) == JJ_OK, "%s: second parse", what);
    jj_doc taken;
    jj_doc_take(other, &taken, buf, len);
    CHECK(taken.tape_len == view->tape_len && taken.max_depth == view->max_depth &&
              taken.strings_len == view->strings_len,
          "%s: lengths or depth differ from the taken document", what);
    CHECK(jj_test_same_docs(view, buf, &taken, buf, 1), "%s: values differ from the taken document", what);
    CHECK(jj_parser_result(other)->tape == NULL && jj_parser_result(other)->tape_len == 0,
          "%s: the view shows the tape gone after jj_doc_take", what);
    jj_doc_free(&taken);
}

static void test_fresh(void) {
    jj_parser_delete(NULL); /* nothing to do */
    jj_parser *p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    CHECK(p != NULL, "jj_parser_new");
    if (!p) return;
    const jj_doc *r = jj_parser_result(p);
    CHECK(r->tape == NULL && r->tape_len == 0 && r->strings == NULL && r->max_depth == 0, "a new parser is empty");
    CHECK(jj_parser_error(p, NULL) == JJ_OK, "no error yet");
    size_t count = 1;
    jj_parser_structurals(p, &count);
    CHECK(count == 0, "no index yet");
    CHECK(jj_parser_capacity(p) == 0, "nothing held yet");
    const uint8_t doc[] = "{\"a\":[1,2.5,\"x\\n\"]}";
    CHECK(jj_parse(p, doc, sizeof doc - 1) == JJ_OK, "parse");
    CHECK(r->tape_len > 0 && r->max_depth == 2, "the view follows the parse: %zu words, depth %zu", r->tape_len,
          r->max_depth);
    CHECK(jj_parser_capacity(p) > 0, "buffers held");
    jj_parser_free(p);
    CHECK(r->tape == NULL && r->tape_len == 0 && jj_parser_capacity(p) == 0, "jj_parser_free empties it");
    CHECK(jj_parse(p, doc, sizeof doc - 1) == JJ_OK && r->tape_len > 0, "usable again after jj_parser_free");
    jj_parser_delete(p);
}

static void test_documents(void) {
    jj_parser *p = jj_parser_new(), *other = jj_parser_new();
    if (!p || !other) abort(); /* out of memory */
    static const char *const small[] = {"0", "[]", "{}", "\"s\"", " [1, {\"k\": [true, false, null]}, \"\\\"q\"] ",
                                        "-1.5e10", "{\"a\":{\"b\":{\"c\":[[[]]]}}}"};
    for (size_t i = 0; i < sizeof small / sizeof *small; i++)
        check_document(p, other, (const uint8_t *)small[i], strlen(small[i]), small[i]);
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/corpus", jj_data_dir());
    DIR *d = opendir(dir);
    CHECK(d != NULL, "corpus folder %s", dir);
    size_t files = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
        char path[8400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len;
        uint8_t *buf = jj_read_file(path, &len);
        if (!buf) continue;
        check_document(p, other, buf, len, e->d_name);
        files++;
        free(buf);
    }
    if (d) closedir(d);
    CHECK(files >= 10, "corpus files read: %zu", files);
    jj_parser_delete(p);
    jj_parser_delete(other);
}

/* Errors: what jj_parse returns is what jj_parser_error tells, at jj_validate's offset. */
static void test_errors(void) {
    static const char *const bad[] = {"", "   ", "[1,]", "{\"a\" 1}", "[1 2]", "\"abc", "[\"\x01\"]", "[\"\\x\"]",
                                      "01", "{1:2}", "[] x", "[\"\xff\"]", "tru", "[1e]"};
    jj_parser *p = jj_parser_new(), *v = jj_parser_new();
    if (!p || !v) abort(); /* out of memory */
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const uint8_t *buf = (const uint8_t *)bad[i];
        size_t len = strlen(bad[i]);
        jj_error err = jj_parse(p, buf, len);
        size_t offset = SIZE_MAX, voffset = SIZE_MAX;
        CHECK(err != JJ_OK && jj_parser_error(p, &offset) == err, "'%s': %s, told %s", bad[i], jj_error_name(err),
              jj_error_name(jj_parser_error(p, NULL)));
        jj_valid_facts facts;
        jj_error verr = jj_validate(v, buf, len, &facts);
        CHECK(verr == err && jj_parser_error(v, &voffset) == verr && voffset == offset,
              "'%s': parse %s at %zu, validate %s at %zu", bad[i], jj_error_name(err), offset, jj_error_name(verr),
              voffset);
        CHECK(offset <= len, "'%s': offset %zu past the end", bad[i], offset);
    }
    /* a success clears the error; validation fills the index too */
    const uint8_t good[] = "[1, \"two\", {\"3\": null}]";
    CHECK(jj_parse(p, good, sizeof good - 1) == JJ_OK && jj_parser_error(p, NULL) == JJ_OK, "error cleared");
    jj_valid_facts facts;
    CHECK(jj_validate(v, good, sizeof good - 1, &facts) == JJ_OK, "validate");
    check_structurals(v, good, sizeof good - 1, "validated");
    jj_parser_delete(p);
    jj_parser_delete(v);
}

int main(void) {
    test_fresh();
    test_documents();
    test_errors();
    return jj_test_report();
}
