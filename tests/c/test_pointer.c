/* JSON Pointers (pointer.c): syntax checks, tokens, escapes, indexes, resolution on
 * small documents, and on the corpus every value reached by a pointer built from its
 * own path on the tape. Edit spans (edit.c): set and delete on small documents, and on
 * the corpus edits that must still parse, with the span holding exactly the value.
 * Skimming (skim.c): the same spans and failures from the stage-1 index alone. */
#include "jetjson_paths.h"
#include "engine_internal.h"
#include "test_util.h"

/* A short description of the value at tape index t: i5, d1.5, "text", {2 (members),
 * [3 (elements), n, t, f, b<digits>. */
static void describe(const jj_parser *p, const uint8_t *buf, size_t t, char *out, size_t cap) {
    uint64_t w = p->tape[t];
    switch (jj_tape_type(w)) {
    case JJ_NULL: snprintf(out, cap, "n"); break;
    case JJ_TRUE: snprintf(out, cap, "t"); break;
    case JJ_FALSE: snprintf(out, cap, "f"); break;
    case JJ_INT64: snprintf(out, cap, "i%lld", (long long)(int64_t)p->tape[t + 1]); break;
    case JJ_UINT64: snprintf(out, cap, "u%llu", (unsigned long long)p->tape[t + 1]); break;
    case JJ_DOUBLE: {
        double d;
        memcpy(&d, &p->tape[t + 1], sizeof d);
        snprintf(out, cap, "d%g", d);
        break;
    }
    case JJ_BIGINT:
        snprintf(out, cap, "b%.*s", (int)p->tape[t + 1], (const char *)buf + jj_tape_payload(w));
        break;
    case JJ_STRING: {
        const uint8_t *s = (jj_tape_str_flags(w) & JJ_STR_IN_INPUT ? buf : p->strings) + jj_tape_str_offset(w);
        snprintf(out, cap, "\"%.*s\"", (int)jj_tape_str_bytes(p->tape[t + 1]), (const char *)s);
        break;
    }
    case JJ_OBJECT: snprintf(out, cap, "{%llu", (unsigned long long)p->tape[t + 1]); break;
    case JJ_ARRAY: snprintf(out, cap, "[%llu", (unsigned long long)p->tape[t + 1]); break;
    default: snprintf(out, cap, "?"); break;
    }
}

static void test_check(void) {
    static const struct {
        const char *ptr;
        int ok;
        size_t bad_at;
    } cases[] = {
        {"", 1, 0},       {"/", 1, 0},        {"/a", 1, 0},   {"//", 1, 0},     {"/~0", 1, 0},
        {"/~1~0", 1, 0},  {"/a~01", 1, 0},    {"a", 0, 0},    {"~0", 0, 0},     {"/~", 0, 1},
        {"/a~2", 0, 2},   {"/a/b~", 0, 4},    {"/~~0", 0, 1}, {"/x/~/", 0, 3},  {" /a", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t bad = 999;
        jj_pointer_status st = jj_pointer_check(cases[i].ptr, strlen(cases[i].ptr), &bad);
        if (cases[i].ok) {
            CHECK(st == JJ_PTR_OK, "check(%s) = %d", cases[i].ptr, (int)st);
        } else {
            CHECK(st == JJ_PTR_SYNTAX && bad == cases[i].bad_at, "check(%s) = %d at %zu", cases[i].ptr,
                  (int)st, bad);
        }
    }
}

/* Tokens joined with '|' after unescaping, "<end>" closing the list. */
static void test_tokens(void) {
    static const char *const cases[][2] = {
        {"", "<end>"},
        {"/", "|<end>"},
        {"/a/b", "|a|b<end>"},
        {"//x/", "||x|<end>"},
        {"/a~1b/~0~1/~01", "|a/b|~/|~1<end>"},
        {"/\xc3\xa9/0", "|\xc3\xa9|0<end>"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *ptr = cases[i][0];
        size_t len = strlen(ptr), pos = 0, o = 0;
        char out[128];
        uint8_t tmp[64];
        jj_pointer_token tok;
        while (jj_pointer_next(ptr, len, &pos, &tok)) {
            size_t n = jj_pointer_token_unescape(&tok, tmp);
            CHECK(n <= tok.len, "unescaped longer than the token");
            CHECK(tok.escaped == (memchr(tok.text, '~', tok.len) != NULL), "escaped flag");
            CHECK(jj_pointer_token_equals(&tok, tmp, n), "token equals its own unescaping");
            if (n > 0) CHECK(!jj_pointer_token_equals(&tok, tmp, n - 1), "token equals a prefix");
            out[o++] = '|';
            memcpy(out + o, tmp, n);
            o += n;
        }
        memcpy(out + o, "<end>", 6);
        CHECK(strcmp(out, cases[i][1]) == 0, "tokens(%s) = %s, want %s", ptr, out, cases[i][1]);
    }
    /* equality is exact: escapes are not interchangeable with their text */
    jj_pointer_token tok = {"~01", 3, true};
    CHECK(jj_pointer_token_equals(&tok, (const uint8_t *)"~1", 2), "~01 is ~1");
    CHECK(!jj_pointer_token_equals(&tok, (const uint8_t *)"/", 1), "~01 is not /");
    CHECK(!jj_pointer_token_equals(&tok, (const uint8_t *)"~01", 3), "~01 is not ~01");
}

static void test_index(void) {
    static const struct {
        const char *text;
        int ok;
        uint64_t value;
    } cases[] = {
        {"0", 1, 0},
        {"7", 1, 7},
        {"10", 1, 10},
        {"18446744073709551615", 1, UINT64_MAX},
        {"18446744073709551616", 1, UINT64_MAX}, /* saturates: still an index, never in range */
        {"99999999999999999999999", 1, UINT64_MAX},
        {"", 0, 0},
        {"01", 0, 0},
        {"00", 0, 0},
        {"-", 0, 0},
        {"-1", 0, 0},
        {"+1", 0, 0},
        {"1a", 0, 0},
        {" 1", 0, 0},
        {"1.0", 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        jj_pointer_token tok = {cases[i].text, strlen(cases[i].text), false};
        uint64_t v = 12345;
        bool ok = jj_pointer_token_index(&tok, &v);
        CHECK(ok == (bool)cases[i].ok && (!ok || v == cases[i].value), "index(%s) = %d %llu", cases[i].text,
              (int)ok, (unsigned long long)v);
    }
}

static const char DOC[] =
    "{\"a\": [1, {\"b\": null}, \"s\", [true, false]], \"\": 0, \"a/b\": 1, \"m~n\": 2, \"dup\": 1,"
    " \"dup\": 2, \"esc\\u00e9\": 3, \"\xc3\xa9\": 4, \"e\": {}, \"l\": [], \"big\": 123456789012345678901234,"
    " \"x\": {\"y\": {\"z\": -1.5}}}";

static void test_resolve(const jj_kernels *k) {
    static const struct {
        const char *ptr;
        int status;
        const char *want; /* description of the value, or the failed_at offset as text */
    } cases[] = {
        {"", JJ_PTR_OK, "{12"},
        {"/a", JJ_PTR_OK, "[4"},
        {"/a/0", JJ_PTR_OK, "i1"},
        {"/a/1", JJ_PTR_OK, "{1"},
        {"/a/1/b", JJ_PTR_OK, "n"},
        {"/a/2", JJ_PTR_OK, "\"s\""},
        {"/a/3/1", JJ_PTR_OK, "f"},
        {"/", JJ_PTR_OK, "i0"},
        {"/a~1b", JJ_PTR_OK, "i1"},
        {"/m~0n", JJ_PTR_OK, "i2"},
        {"/dup", JJ_PTR_OK, "i1"},
        {"/esc\xc3\xa9", JJ_PTR_OK, "i3"},
        {"/\xc3\xa9", JJ_PTR_OK, "i4"},
        {"/e", JJ_PTR_OK, "{0"},
        {"/l", JJ_PTR_OK, "[0"},
        {"/big", JJ_PTR_OK, "b123456789012345678901234"},
        {"/x/y/z", JJ_PTR_OK, "d-1.5"},
        {"/nope", JJ_PTR_NO_KEY, "5"},
        {"/a/b", JJ_PTR_BAD_INDEX, "4"},
        {"/a/-", JJ_PTR_BAD_INDEX, "4"},
        {"/a/01", JJ_PTR_BAD_INDEX, "5"},
        {"/a/4", JJ_PTR_OUT_OF_RANGE, "4"},
        {"/a/99999999999999999999999", JJ_PTR_OUT_OF_RANGE, "26"},
        {"/l/0", JJ_PTR_OUT_OF_RANGE, "4"},
        {"/e/", JJ_PTR_NO_KEY, "3"},
        {"/a/0/x", JJ_PTR_NOT_CONTAINER, "6"},
        {"/a/2/0", JJ_PTR_NOT_CONTAINER, "6"},
        {"/x/y/z/", JJ_PTR_NOT_CONTAINER, "7"},
        {"/a~1b/c", JJ_PTR_NOT_CONTAINER, "7"},
        {"/a/1/b/c", JJ_PTR_NOT_CONTAINER, "8"},
        {"/a~b", JJ_PTR_SYNTAX, "2"},
        {"a", JJ_PTR_SYNTAX, "0"},
        {"/ab/", JJ_PTR_NO_KEY, "3"},
    };
    jj_parser p;
    jj_parser_init(&p);
    const uint8_t *buf = (const uint8_t *)DOC;
    if (jj_parse_with(&p, k, buf, sizeof DOC - 1) != JJ_OK) {
        FAIL("%s: DOC does not parse", k->name);
        return;
    }
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t found = 0, failed_at = 0;
        char got[96];
        jj_pointer_status st = jj_pointer_resolve(&p, buf, 0, cases[i].ptr, strlen(cases[i].ptr), &found, &failed_at);
        if (st == JJ_PTR_OK) describe(&p, buf, found, got, sizeof got);
        else snprintf(got, sizeof got, "%zu", failed_at);
        CHECK((int)st == cases[i].status && strcmp(got, cases[i].want) == 0, "%s: resolve(%s) = %d %s, want %d %s",
              k->name, cases[i].ptr, (int)st, got, cases[i].status, cases[i].want);
        /* the same from the stage-1 index alone, then a parse of the span found */
        jj_parser s, q;
        jj_parser_init(&s);
        jj_parser_init(&q);
        size_t start = 0, end = 0;
        int sk = jj_skim_index(&s, buf, sizeof DOC - 1) == JJ_OK
                     ? jj_skim_locate(&s, buf, sizeof DOC - 1, cases[i].ptr, strlen(cases[i].ptr), &start, &end, &failed_at)
                     : JJ_SKIM_MALFORMED;
        if (sk == JJ_PTR_OK && jj_parse_with(&q, k, buf + start, end - start) == JJ_OK) describe(&q, buf + start, 0, got, sizeof got);
        else if (sk != JJ_PTR_OK) snprintf(got, sizeof got, "%zu", failed_at);
        else snprintf(got, sizeof got, "(span does not parse)");
        CHECK(sk == cases[i].status && strcmp(got, cases[i].want) == 0, "%s: skim(%s) = %d %s, want %d %s", k->name,
              cases[i].ptr, sk, got, cases[i].status, cases[i].want);
        jj_parser_free(&s);
        jj_parser_free(&q);
    }
    /* from an inner start: relative to that value */
    size_t inner = 0, fa = 0, found = 0;
    CHECK(jj_pointer_resolve(&p, buf, 0, "/x", 2, &inner, &fa) == JJ_PTR_OK, "/x");
    CHECK(jj_pointer_resolve(&p, buf, inner, "/y/z", 4, &found, &fa) == JJ_PTR_OK &&
              jj_tape_type(p.tape[found]) == JJ_DOUBLE, "/y/z from /x");
    CHECK(jj_pointer_resolve(&p, buf, inner, "", 0, &found, &fa) == JJ_PTR_OK && found == inner, "'' from /x");
    /* a scalar root */
    if (jj_parse_with(&p, k, (const uint8_t *)" 5 ", 3) == JJ_OK) {
        CHECK(jj_pointer_resolve(&p, (const uint8_t *)" 5 ", 0, "", 0, &found, &fa) == JJ_PTR_OK && found == 0, "'' on 5");
        CHECK(jj_pointer_resolve(&p, (const uint8_t *)" 5 ", 0, "/0", 2, &found, &fa) == JJ_PTR_NOT_CONTAINER && fa == 2,
              "/0 on 5");
    }
    jj_parser_free(&p);
}

/* ---- edit spans ---- */

/* A walk over every value of a corpus document, with the pointer of its path. */
typedef struct walk {
    const jj_parser *p;
    const uint8_t *buf;
    size_t len;
    char path[4096];
    size_t checks, budget, edits;
    const char *name;
    const jj_parser *skim; /* the same document, stage 1 only */
} walk;

static jj_parser g_edited; /* parses edited documents (freed at the end) */
static jj_parser g_skim;   /* stage 1 of the corpus document (freed at the end) */


/* Applies the target: set writes `value` (or inserts it, with the key for a new member),
 * delete removes the cut. Returns the length written to out. */
static size_t apply(const uint8_t *buf, size_t len, const jj_edit_target *e, int del, const char *value, char *out) {
    size_t o = 0;
    if (del) {
        memcpy(out, buf, e->cut_start);
        memcpy(out + e->cut_start, buf + e->cut_end, len - e->cut_end);
        return len - (e->cut_end - e->cut_start);
    }
    memcpy(out, buf, e->start);
    o = e->start;
    if (e->kind != JJ_EDIT_VALUE && e->needs_comma) out[o++] = ',';
    if (e->kind == JJ_EDIT_NEW_MEMBER) {
        o += jj_edit_key_literal(&e->token, (uint8_t *)out + o);
        out[o++] = ':';
    }
    memcpy(out + o, value, strlen(value));
    o += strlen(value);
    memcpy(out + o, buf + e->end, len - e->end);
    return o + len - e->end;
}

static void test_edit_small(const jj_kernels *k) {
    static const struct {
        const char *doc, *ptr;
        int del;
        int status;
        const char *want; /* the edited document (set writes 9), or failed_at as text */
    } cases[] = {
        {"{\"a\": 1, \"b\": 2}", "/a", 0, JJ_PTR_OK, "{\"a\": 9, \"b\": 2}"},
        {"{\"a\": 1, \"b\": 2}", "/a", 1, JJ_PTR_OK, "{\"b\": 2}"},
        {"{\"a\": 1, \"b\": 2}", "/b", 1, JJ_PTR_OK, "{\"a\": 1}"},
        {"{\"a\": 1, \"b\": 2}", "/c", 0, JJ_PTR_OK, "{\"a\": 1, \"b\": 2,\"c\":9}"},
        {"{\"a\" : {\"x\":[1,2]} , \"b\" : 2 }", "/a", 1, JJ_PTR_OK, "{\"b\" : 2 }"},
        {"{\"a\" : {\"x\":[1,2]} , \"b\" : 2 }", "/b", 1, JJ_PTR_OK, "{\"a\" : {\"x\":[1,2]} }"},
        {"{\"a\" : {\"x\":[1,2]} , \"b\" : 2 }", "/a", 0, JJ_PTR_OK, "{\"a\" : 9 , \"b\" : 2 }"},
        {"{\"a\" : {\"x\":[1,2]} , \"b\" : 2 }", "/a/x/1", 0, JJ_PTR_OK, "{\"a\" : {\"x\":[1,9]} , \"b\" : 2 }"},
        {"{\"a\" : {\"x\":[1,2]} , \"b\" : 2 }", "/a/x/-", 0, JJ_PTR_OK, "{\"a\" : {\"x\":[1,2,9]} , \"b\" : 2 }"},
        {"{\"a\" : {\"x\":[1,2]} , \"b\" : 2 }", "/a/x/2", 0, JJ_PTR_OK, "{\"a\" : {\"x\":[1,2,9]} , \"b\" : 2 }"},
        {"{\"a\" : {\"x\":[1,2]} , \"b\" : 2 }", "/a/y", 0, JJ_PTR_OK, "{\"a\" : {\"x\":[1,2],\"y\":9} , \"b\" : 2 }"},
        {"{\"a\" : {\"x\":[1,2]} , \"b\" : 2 }", "/a/x/0", 1, JJ_PTR_OK, "{\"a\" : {\"x\":[2]} , \"b\" : 2 }"},
        {"{\"a\" : {\"x\":[1,2]} , \"b\" : 2 }", "/a/x/1", 1, JJ_PTR_OK, "{\"a\" : {\"x\":[1]} , \"b\" : 2 }"},
        {"{ }", "/k", 0, JJ_PTR_OK, "{\"k\":9 }"},
        {"[ ]", "/-", 0, JJ_PTR_OK, "[9 ]"},
        {"[ ]", "/0", 0, JJ_PTR_OK, "[9 ]"},
        {"[ \"x\" ]", "/0", 1, JJ_PTR_OK, "[  ]"},
        {"[ \"x\" ]", "/0", 0, JJ_PTR_OK, "[ 9 ]"},
        {"[\"a\\\"]\", 2]", "/0", 0, JJ_PTR_OK, "[9, 2]"},
        {"[\"a\\\"]\", 2]", "/1", 1, JJ_PTR_OK, "[\"a\\\"]\"]"},
        {"[true,false,null,-1.5e3,\"\"]", "/3", 1, JJ_PTR_OK, "[true,false,null,\"\"]"},
        {"[true,false,null,-1.5e3,\"\"]", "/4", 0, JJ_PTR_OK, "[true,false,null,-1.5e3,9]"},
        {"  7\n", "", 0, JJ_PTR_OK, "  9\n"},
        {" {\"a\":1} ", "", 0, JJ_PTR_OK, " 9 "},
        {"{\"a/b\":1,\"~\":2}", "/~0", 1, JJ_PTR_OK, "{\"a/b\":1}"},
        {"{\"a/b\":1,\"~\":2}", "/a~1b", 0, JJ_PTR_OK, "{\"a/b\":9,\"~\":2}"},
        {"{\"d\":1,\"d\":2}", "/d", 0, JJ_PTR_OK, "{\"d\":9,\"d\":2}"},
        {"{\"q\\u0041\":1}", "/qA", 0, JJ_PTR_OK, "{\"q\\u0041\":9}"},
        {"{}", "/\"\\\x01", 0, JJ_PTR_OK, "{\"\\\"\\\\\\u0001\":9}"},
        {"{}", "/", 0, JJ_PTR_OK, "{\"\":9}"},
        {"{\"a\":1}", "/b/c", 0, JJ_PTR_NO_KEY, "2"},
        {"[1]", "/2", 0, JJ_PTR_OUT_OF_RANGE, "2"},
        {"[1]", "/1/0", 0, JJ_PTR_OUT_OF_RANGE, "2"},
        {"[1]", "/-/0", 0, JJ_PTR_BAD_INDEX, "2"},
        {"[1]", "/x", 0, JJ_PTR_BAD_INDEX, "2"},
        {"[1]", "/0/x", 0, JJ_PTR_NOT_CONTAINER, "4"},
        {"1", "/x", 0, JJ_PTR_NOT_CONTAINER, "2"},
        {"[1]", "/~", 0, JJ_PTR_SYNTAX, "1"},
    };
    jj_parser p;
    jj_parser_init(&p);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const uint8_t *buf = (const uint8_t *)cases[i].doc;
        size_t len = strlen(cases[i].doc);
        if (jj_parse_with(&p, k, buf, len) != JJ_OK) {
            FAIL("%s does not parse", cases[i].doc);
            continue;
        }
        jj_edit_target e;
        size_t failed_at = 0;
        char got[256];
        jj_pointer_status st = jj_edit_locate(&p, buf, len, cases[i].ptr, strlen(cases[i].ptr), &e, &failed_at);
        if (st == JJ_PTR_OK) got[apply(buf, len, &e, cases[i].del, "9", got)] = 0;
        else snprintf(got, sizeof got, "%zu", failed_at);
        CHECK((int)st == cases[i].status && strcmp(got, cases[i].want) == 0, "%s: %s %s on %s = %d %s, want %s",
              k->name, cases[i].del ? "delete" : "set", cases[i].ptr, cases[i].doc, (int)st, got, cases[i].want);
    }
    jj_parser_free(&p);
}

/* The span of the value at tape t in a corpus document: it parses alone to the same
 * value, and the document still parses after deleting it or replacing it. */
static void check_edit(const walk *w, size_t t, size_t len_ptr) {
    static char out[1 << 21];
    jj_parser *q = &g_edited;
    jj_edit_target e;
    size_t fa = 0;
    if (jj_edit_locate(w->p, w->buf, w->len, w->path, len_ptr, &e, &fa) != JJ_PTR_OK || e.kind != JJ_EDIT_VALUE ||
        e.tape != t) {
        FAIL("%s: locate %.*s", w->name, (int)len_ptr, w->path);
        return;
    }
    CHECK(e.start < e.end && e.end <= w->len && e.cut_start <= e.start && e.end <= e.cut_end && e.cut_end <= w->len,
          "%s: span of %.*s", w->name, (int)len_ptr, w->path);
    size_t ss = 0, se = 0, sfa = 0;
    int sk = jj_skim_locate(w->skim, w->buf, w->len, w->path, len_ptr, &ss, &se, &sfa);
    CHECK(sk == JJ_PTR_OK && ss == e.start && se == e.end, "%s: skim %.*s = %d [%zu, %zu), want [%zu, %zu)", w->name,
          (int)len_ptr, w->path, sk, ss, se, e.start, e.end);
    char a[96], b[96];
    describe(w->p, w->buf, t, a, sizeof a);
    if (jj_parse(q, w->buf + e.start, e.end - e.start) != JJ_OK) {
        FAIL("%s: span of %.*s does not parse", w->name, (int)len_ptr, w->path);
    } else {
        describe(q, w->buf + e.start, 0, b, sizeof b);
        CHECK(strcmp(a, b) == 0, "%s: span of %.*s is %s, want %s", w->name, (int)len_ptr, w->path, b, a);
    }
    if (w->len + 8 > sizeof out) return;
    for (int del = 0; del < (e.has_parent ? 2 : 1); del++) { /* deleting the root leaves nothing */
        size_t n = apply(w->buf, w->len, &e, del, "[0]", out);
        CHECK(jj_parse(q, (const uint8_t *)out, n) == JJ_OK, "%s: %s %.*s gives invalid JSON", w->name,
              del ? "delete" : "set", (int)len_ptr, w->path);
    }
}

/* ---- corpus: the pointer of every value's path finds that value ---- */

static int same_key(const walk *w, size_t a, size_t b) {
    const uint64_t *tape = w->p->tape;
    size_t na = jj_tape_str_bytes(tape[a + 1]), nb = jj_tape_str_bytes(tape[b + 1]);
    const uint8_t *ka = (jj_tape_str_flags(tape[a]) & JJ_STR_IN_INPUT ? w->buf : w->p->strings) + jj_tape_str_offset(tape[a]);
    const uint8_t *kb = (jj_tape_str_flags(tape[b]) & JJ_STR_IN_INPUT ? w->buf : w->p->strings) + jj_tape_str_offset(tape[b]);
    return na == nb && memcmp(ka, kb, na) == 0;
}

static size_t skip(const uint64_t *tape, size_t t) {
    jj_type type = jj_tape_type(tape[t]);
    if (type == JJ_OBJECT || type == JJ_ARRAY) return (size_t)jj_tape_payload(tape[t]) + 1;
    return type == JJ_NULL || type == JJ_TRUE || type == JJ_FALSE ? t + 1 : t + 2;
}

/* Checks the value at t (path of length len), then its children (recursion depth is
 * bounded by the path buffer). */
static void walk_value(walk *w, size_t t, size_t len) {
    if (w->checks >= w->budget) return;
    size_t found = 0, fa = 0;
    jj_pointer_status st = jj_pointer_resolve(w->p, w->buf, 0, w->path, len, &found, &fa);
    w->checks++;
    CHECK(st == JJ_PTR_OK && found == t, "%s: %.*s -> %d %zu, want %zu", w->name, (int)len, w->path, (int)st, found, t);
    if (w->checks % 97 == 1 && w->edits < 40) {
        w->edits++;
        check_edit(w, t, len);
    }
    const uint64_t *tape = w->p->tape;
    jj_type type = jj_tape_type(tape[t]);
    if (type != JJ_OBJECT && type != JJ_ARRAY) return;
    size_t end = (size_t)jj_tape_payload(tape[t]);
    size_t c = t + 2;
    for (uint64_t i = 0; c < end; i++) {
        size_t n = len;
        if (n + 1 >= sizeof w->path) return;
        w->path[n++] = '/';
        size_t value = c;
        int first = 1;
        if (type == JJ_OBJECT) {
            value = c + 2;
            for (size_t e = t + 2; e < c && first; e = skip(tape, e + 2)) first = !same_key(w, e, c);
            const uint8_t *key = (jj_tape_str_flags(tape[c]) & JJ_STR_IN_INPUT ? w->buf : w->p->strings) + jj_tape_str_offset(tape[c]);
            size_t kn = jj_tape_str_bytes(tape[c + 1]);
            for (size_t b = 0; b < kn && n + 2 < sizeof w->path; b++) {
                if (key[b] == '~' || key[b] == '/') {
                    w->path[n++] = '~';
                    w->path[n++] = key[b] == '~' ? '0' : '1';
                } else {
                    w->path[n++] = (char)key[b];
                }
            }
            if (n + 2 >= sizeof w->path) return;
        } else {
            n += (size_t)snprintf(w->path + n, sizeof w->path - n, "%llu", (unsigned long long)i);
        }
        if (first) walk_value(w, value, n); /* a later duplicate key is not reachable */
        c = skip(tape, value);
    }
}

static void test_corpus(const jj_kernels *k) {
    static const char *const files[] = {"twitter.json", "citm_catalog.json", "canada.json", "twitterescaped.json",
                                        "github_events.json", "update-center.json", "gsoc-2018.json"};
    jj_parser p;
    jj_parser_init(&p);
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        char path[8192];
        if ((size_t)snprintf(path, sizeof path, "%.4000s/corpus/%s", jj_data_dir(), files[f]) >= sizeof path) continue;
        size_t len = 0;
        uint8_t *buf = jj_read_file(path, &len);
        if (!buf) {
            printf("skipped %s (no file)\n", files[f]);
            continue;
        }
        if (jj_parse_with(&p, k, buf, len) != JJ_OK) {
            FAIL("%s does not parse", files[f]);
        } else {
            static walk w; /* large path buffer: off the stack */
            w.p = &p;
            w.buf = buf;
            CHECK(jj_skim_index(&g_skim, buf, len) == JJ_OK, "%s: skim index", files[f]);
            w.skim = &g_skim;
            w.len = len;
            w.checks = 0;
            w.edits = 0;
            w.budget = 20000;
            w.name = files[f];
            walk_value(&w, 0, 0);
        }
        free(buf);
    }
    jj_parser_free(&p);
}

int main(void) {
    test_check();
    test_tokens();
    test_index();
    for (const jj_kernels *const *k = jj_kernels_all(); *k; k++) {
        test_resolve(*k);
        test_edit_small(*k);
        test_corpus(*k);
    }
    jj_parser_free(&g_edited);
    jj_parser_free(&g_skim);
    return jj_test_report();
}
