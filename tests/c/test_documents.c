/* Owned documents (jj_doc_take) and many documents in one buffer (jj_many_*): every
 * document jj_many_next gives must be what jj_parse gives for its text alone, rendered
 * back to canonical text; cuts at every offset give documents, then EMPTY or INCOMPLETE
 * (with JJ_MANY_MORE_INPUT), never an error for valid input. */
#include <inttypes.h>

#include "engine_internal.h"
#include "test_util.h"

typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const void *p, size_t n) {
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s) abort();
    }
    memcpy(t->s + t->len, p, n);
    t->len += n;
    t->s[t->len] = 0;
}

static void putf(text *t, const char *fmt, uint64_t bits, int kind) {
    char tmp[64];
    int n = 0;
    if (kind == 0) n = snprintf(tmp, sizeof tmp, fmt, (long long)(int64_t)bits);
    else if (kind == 1) n = snprintf(tmp, sizeof tmp, fmt, (unsigned long long)bits);
    else {
        double d;
        memcpy(&d, &bits, 8);
        n = snprintf(tmp, sizeof tmp, fmt, d);
    }
    put(t, tmp, (size_t)n);
}

/* The document as canonical text: independent of where its strings live. */
static void render(const uint64_t *tape, size_t tape_len, const uint8_t *strings, const uint8_t *input, text *out) {
    for (size_t t = 0; t < tape_len;) {
        uint64_t w = tape[t];
        switch (jj_tape_type(w)) {
        case JJ_NULL: put(out, "n ", 2); t++; break;
        case JJ_TRUE: put(out, "t ", 2); t++; break;
        case JJ_FALSE: put(out, "f ", 2); t++; break;
        case JJ_INT64: putf(out, "i%lld ", tape[t + 1], 0); t += 2; break;
        case JJ_UINT64: putf(out, "u%llu ", tape[t + 1], 1); t += 2; break;
        case JJ_DOUBLE: putf(out, "d%.17g ", tape[t + 1], 2); t += 2; break;
        case JJ_BIGINT:
            put(out, "b", 1);
            put(out, input + jj_tape_payload(w), (size_t)tape[t + 1]);
            put(out, " ", 1);
            t += 2;
            break;
        case JJ_STRING: {
            const uint8_t *s = (jj_tape_str_flags(w) & JJ_STR_IN_INPUT ? input : strings) + jj_tape_str_offset(w);
            put(out, "\"", 1);
            put(out, s, jj_tape_str_bytes(tape[t + 1]));
            putf(out, "\"%llu ", (uint64_t)jj_tape_str_chars(tape[t + 1]), 1);
            t += 2;
            break;
        }
        case JJ_OBJECT: putf(out, "{%llu ", tape[t + 1], 1); t += 2; break;
        case JJ_ARRAY: putf(out, "[%llu ", tape[t + 1], 1); t += 2; break;
        case JJ_END: put(out, "} ", 2); t++; break;
        default: put(out, "? ", 2); t++; break;
        }
    }
}

/* What jj_parse makes of buf[start, end) alone. */
static jj_error render_alone(const uint8_t *buf, size_t start, size_t end, text *out) {
    jj_parser *p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    uint8_t *copy = malloc(end - start + 1);
    memcpy(copy, buf + start, end - start);
    jj_error err = jj_parse(p, copy, end - start);
    if (err == JJ_OK) render(jj_parser_result(p)->tape, jj_parser_result(p)->tape_len, jj_parser_result(p)->strings, copy, out);
    free(copy);
    jj_parser_delete(p);
    return err;
}

static const char *const DOCS[] = {
    "{\"a\": [1, 2.5, -3e10, true, false, null], \"b\": \"esc\\u00e9\\n\"}",
    "[]", "{}", "12345678901234567890123", "\"lone\"", "-0.0", "[[[[\"deep\"]]]]",
    "{\"k\": {\"k\": {\"k\": \"\\ud83d\\ude00\"}}}", "true", "NaN", "[1,2,3,4,5,6,7,8,9,10,11]",
    "\"caf\xc3\xa9\"", "null", "18446744073709551615", "-Infinity", "[\"x\",{\"y\":[]}]",
};
#define NDOCS (sizeof DOCS / sizeof *DOCS)
static const char *const SEPS[] = {"\n", " ", "\r\n", "\t\n ", "\n\n"};

/* The documents of a stream made of DOCS with separators, checked against jj_parse. */
static void test_stream(int glue) {
    text buf = {0};
    size_t starts[NDOCS], ends[NDOCS];
    for (size_t i = 0; i < NDOCS; i++) {
        /* containers may follow each other with nothing between; scalars need a separator */
        const char *sep = glue && i && (DOCS[i][0] == '[' || DOCS[i][0] == '{') &&
                                  (DOCS[i - 1][0] == '[' || DOCS[i - 1][0] == '{' || DOCS[i - 1][0] == '"')
                              ? "" : SEPS[i % 5];
        put(&buf, sep, strlen(sep));
        starts[i] = buf.len;
        put(&buf, DOCS[i], strlen(DOCS[i]));
        ends[i] = buf.len;
    }
    put(&buf, "\n", 1);
    const uint8_t *b = (const uint8_t *)buf.s;
    jj_parser *p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    jj_many m;
    CHECK(jj_many_start(&m, p, b, buf.len, 0) == JJ_OK, "start");
    for (size_t i = 0; i < NDOCS; i++) {
        size_t s, e;
        jj_error err = jj_many_next(&m, &s, &e);
        CHECK(err == JJ_OK, "doc %zu: error %s at %zu", i, jj_error_name(err), jj_test_error_offset(p));
        CHECK(s == starts[i] && e == ends[i], "doc %zu: [%zu,%zu) expected [%zu,%zu)", i, s, e, starts[i], ends[i]);
        if (err != JJ_OK) continue;
        text got = {0}, exp = {0};
        render(jj_parser_result(p)->tape, jj_parser_result(p)->tape_len, jj_parser_result(p)->strings, b, &got);
        CHECK(render_alone(b, starts[i], ends[i], &exp) == JJ_OK, "alone %zu", i);
        CHECK(got.len == exp.len && memcmp(got.s, exp.s, got.len) == 0, "doc %zu: %s != %s", i, got.s, exp.s);
        free(got.s);
        free(exp.s);
    }
    size_t s, e;
    CHECK(jj_many_next(&m, &s, &e) == JJ_ERR_EMPTY, "end of the stream");

    /* every cut of the stream: the documents before it, then EMPTY or INCOMPLETE */
    for (size_t cut = 0; cut <= buf.len; cut++) {
        { jj_error se = jj_many_start(&m, p, b, cut, JJ_MANY_MORE_INPUT); CHECK(se == JJ_OK, "start cut %zu: %s", cut, jj_error_name(se)); }
        size_t whole = 0;
        while (whole < NDOCS && ends[whole] < cut) whole++; /* ends strictly before the cut */
        jj_error err = JJ_OK;
        size_t got = 0;
        while ((err = jj_many_next(&m, &s, &e)) == JJ_OK) got++;
        CHECK(err == JJ_ERR_EMPTY || err == JJ_ERR_INCOMPLETE, "cut %zu: %s at %zu", cut, jj_error_name(err), jj_test_error_offset(p));
        /* a container or string ending right at the cut is complete; a number or word is not */
        CHECK(got == whole || got == whole + 1, "cut %zu: %zu documents, expected %zu", cut, got, whole);
        if (err == JJ_ERR_INCOMPLETE) CHECK(s >= (whole ? ends[whole - 1] : 0), "cut %zu: incomplete start %zu", cut, s);
        /* without the flag the end is the end: no INCOMPLETE */
        CHECK(jj_many_start(&m, p, b, cut, 0) == JJ_OK, "start cut final");
        while ((err = jj_many_next(&m, &s, &e)) == JJ_OK) {}
        CHECK(err != JJ_ERR_INCOMPLETE, "cut %zu without more input: incomplete", cut);
    }
    jj_parser_delete(p);
    free(buf.s);
}

static void test_bad_documents(void) {
    jj_parser *p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    jj_many m;
    size_t s, e;
    const char *in = "[1] [2,] {\"a\":3}\n[\"\xff\"] 4";
    const uint8_t *b = (const uint8_t *)in;
    CHECK(jj_many_start(&m, p, b, strlen(in), 0) == JJ_OK, "start");
    CHECK(jj_many_next(&m, &s, &e) == JJ_OK && s == 0 && e == 3, "first");
    jj_error err = jj_many_next(&m, &s, &e);
    CHECK(err != JJ_OK && err != JJ_ERR_INCOMPLETE && s == 4, "second is malformed: %s", jj_error_name(err));
    CHECK(jj_many_next(&m, &s, &e) == JJ_OK && s == 9 && e == 16, "third after the bad one: [%zu,%zu)", s, e);
    err = jj_many_next(&m, &s, &e);
    CHECK(err == JJ_ERR_UTF8 && jj_test_error_offset(p) == 19, "fourth: %s at %zu", jj_error_name(err), jj_test_error_offset(p));

    /* an unclosed string at the end: incomplete with more input to come, else an error */
    in = "{\"a\":1} {\"b\":\"abc";
    b = (const uint8_t *)in;
    CHECK(jj_many_start(&m, p, b, strlen(in), JJ_MANY_MORE_INPUT) == JJ_OK, "start");
    CHECK(jj_many_next(&m, &s, &e) == JJ_OK, "before the cut");
    CHECK(jj_many_next(&m, &s, &e) == JJ_ERR_INCOMPLETE && s == 8, "unclosed string, more to come");
    CHECK(jj_many_start(&m, p, b, strlen(in), 0) == JJ_OK, "start");
    CHECK(jj_many_next(&m, &s, &e) == JJ_OK, "before the cut");
    CHECK(jj_many_next(&m, &s, &e) == JJ_ERR_UNCLOSED_STRING, "unclosed string at the end");
    /* a UTF-8 sequence cut by the end of a chunk */
    in = "[1] [\"\xc3";
    b = (const uint8_t *)in;
    CHECK(jj_many_start(&m, p, b, strlen(in), JJ_MANY_MORE_INPUT) == JJ_OK, "start");
    CHECK(jj_many_next(&m, &s, &e) == JJ_OK, "before the cut");
    CHECK(jj_many_next(&m, &s, &e) == JJ_ERR_INCOMPLETE, "cut UTF-8 sequence");
    jj_parser_delete(p);
}

/* One jj_many_next result, its values rendered (a lazy tape finished first). */
typedef struct many_step {
    jj_error err;
    size_t start, end, offset;
    text values;
} many_step;

static size_t many_steps(const uint8_t *b, size_t len, unsigned flags, many_step *out, size_t max, int *lazy) {
    jj_parser *p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    jj_many m;
    CHECK(jj_many_start(&m, p, b, len, flags) == JJ_OK, "start");
    *lazy = (m.flags & JJ_MANY_LAZY) != 0;
    size_t n = 0;
    while (n < max) {
        many_step *st = &out[n++];
        memset(st, 0, sizeof *st);
        st->err = jj_many_next(&m, &st->start, &st->end);
        /* INCOMPLETE's offset is no part of its meaning (doc_start is) */
        st->offset = st->err == JJ_OK || st->err == JJ_ERR_INCOMPLETE ? 0 : jj_test_error_offset(p);
        if (st->err == JJ_OK) {
            if (*lazy) CHECK(jj_lazy_finish_range(p, b, len, 0, jj_parser_result(p)->tape_len) == JJ_OK, "finish");
            render(jj_parser_result(p)->tape, jj_parser_result(p)->tape_len, jj_parser_result(p)->strings, b, &st->values);
        }
        if (st->err == JJ_ERR_EMPTY || st->err == JJ_ERR_INCOMPLETE) break;
    }
    jj_parser_delete(p);
    return n;
}

/* JJ_MANY_LAZY gives what a many without it gives: the same documents, spans, errors
 * and values (when it falls back, what the other flags give). Returns whether the lazy index held. */
static int same_as_plain(const uint8_t *b, size_t len, unsigned flags, const char *what) {
    enum { MAX = 64 };
    many_step plain[MAX], lazy[MAX];
    int plain_lazy, held;
    size_t nl = many_steps(b, len, flags | JJ_MANY_LAZY, lazy, MAX, &held);
    /* while the lazy index holds, JJ_MANY_SPANS is not looked at */
    size_t np = many_steps(b, len, held ? flags & ~JJ_MANY_SPANS : flags, plain, MAX, &plain_lazy);
    CHECK(np == nl, "%s: %zu steps, lazy %zu", what, np, nl);
    for (size_t i = 0; i < np && i < nl; i++) {
        many_step *a = &plain[i], *z = &lazy[i];
        CHECK(a->err == z->err && a->start == z->start && a->end == z->end && a->offset == z->offset,
              "%s step %zu: %s [%zu,%zu) @%zu, lazy %s [%zu,%zu) @%zu", what, i, jj_error_name(a->err), a->start,
              a->end, a->offset, jj_error_name(z->err), z->start, z->end, z->offset);
        CHECK(a->values.len == z->values.len && (!a->values.len || !memcmp(a->values.s, z->values.s, a->values.len)),
              "%s step %zu: %s, lazy %s", what, i, a->values.s, z->values.s);
    }
    for (size_t i = 0; i < np; i++) free(plain[i].values.s);
    for (size_t i = 0; i < nl; i++) free(lazy[i].values.s);
    return held;
}

static void test_lazy_many(int glue) {
    text buf = {0};
    for (size_t i = 0; i < NDOCS; i++) {
        const char *sep = glue && i && (DOCS[i][0] == '[' || DOCS[i][0] == '{') &&
                                  (DOCS[i - 1][0] == '[' || DOCS[i - 1][0] == '{' || DOCS[i - 1][0] == '"')
                              ? "" : SEPS[i % 5];
        put(&buf, sep, strlen(sep));
        put(&buf, DOCS[i], strlen(DOCS[i]));
    }
    const uint8_t *b = (const uint8_t *)buf.s;
    CHECK(same_as_plain(b, buf.len, 0, "whole stream"), "the lazy index holds on valid input");
    for (size_t cut = 0; cut <= buf.len; cut++) {
        char what[48];
        snprintf(what, sizeof what, "cut %zu", cut);
        same_as_plain(b, cut, JJ_MANY_MORE_INPUT, what);
        same_as_plain(b, cut, 0, what);
    }
    free(buf.s);
    /* refusals: by stage 2 (the lazy index holds), by stage 1 (it is dropped) */
    static const char *const BAD[] = {
        "[1] [2,] {\"a\":\"\\n\"} 3", "{\"a\":1} {\"b\" 2} [\"\\t\"]", "[1] tru [2]", "1 2 01 [3]",
        "[1] [2,] {\"a\":3}\n[\"\xff\"] 4", "{\"a\":1} {\"b\":\"abc", "[1] [\"\xc3", "[\"\\x\"] [1]",
        "[\"a\tb\"] [1]", "[1] {\"a\":[}", "\"s\" \"t\\\"\" 7", "[\"\\n\", ] \"\\t\" 1",
        "{\"a\\n\": 1,} [\"\\u0041\"]", "[\"\\n\" \"\\t\"]\n{\"\\r\":1}",
    };
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++) {
        const uint8_t *bad = (const uint8_t *)BAD[i];
        same_as_plain(bad, strlen(BAD[i]), 0, BAD[i]);
        same_as_plain(bad, strlen(BAD[i]), JJ_MANY_MORE_INPUT, BAD[i]);
        same_as_plain(bad, strlen(BAD[i]), JJ_MANY_SPANS, BAD[i]);
    }
    CHECK(same_as_plain((const uint8_t *)BAD[0], strlen(BAD[0]), 0, "grammar"), "a grammar error keeps the lazy index");
    CHECK(!same_as_plain((const uint8_t *)BAD[7], strlen(BAD[7]), 0, "escape"), "a bad escape drops it");
    CHECK(!same_as_plain((const uint8_t *)BAD[4], strlen(BAD[4]), 0, "utf-8"), "bad UTF-8 drops it");
}

static void test_owned_document(void) {
    jj_parser *p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    const char *first = "{\"k\": [\"a\\nb\", 1.5, 7]}";
    const char *second = "[\"other\\t\", 2]";
    CHECK(jj_parse(p, (const uint8_t *)first, strlen(first)) == JJ_OK, "parse");
    text before = {0}, after = {0};
    render(jj_parser_result(p)->tape, jj_parser_result(p)->tape_len, jj_parser_result(p)->strings, (const uint8_t *)first, &before);
    jj_doc doc;
    jj_doc_take(p, &doc, (const uint8_t *)first, strlen(first));
    CHECK(jj_parser_result(p)->tape == NULL && jj_parser_result(p)->tape_len == 0, "the parser gave its tape away");
    CHECK(jj_parse(p, (const uint8_t *)second, strlen(second)) == JJ_OK, "the parser parses again");
    render(doc.tape, doc.tape_len, doc.strings, doc.input, &after);
    CHECK(before.len == after.len && memcmp(before.s, after.s, before.len) == 0, "taken doc unchanged: %s", after.s);
    CHECK(doc.max_depth == 2, "depth %zu", doc.max_depth);
    jj_doc_free(&doc);
    CHECK(doc.tape == NULL && doc.strings == NULL, "freed");
    free(before.s);
    free(after.s);
    jj_parser_delete(p);
}

/* jj_parser_hold_document: each document of a lazy many (its tape copied into the new
 * parser's own allocation, as the window's tape is far larger) and a lone parse (its tape
 * taken) render as a plain parse of its text renders; a holder then finishes its raw
 * entries, parses again (giving up the inline tape) and is freed. */
static void test_held_documents(void) {
    text buf = {0};
    for (int i = 0; i < 300; i++) {
        char line[96];
        int n = snprintf(line, sizeof line, "{\"id\": %d, \"s\": \"x\\ty%d\", \"v\": [%d.5, -0, true]}\n", i, i, i);
        put(&buf, line, (size_t)n);
    }
    const uint8_t *b = (const uint8_t *)buf.s;
    jj_parser *p = jj_parser_new(), *plain = jj_parser_new();
    if (!p || !plain) abort(); /* out of memory */
    jj_many m;
    CHECK(jj_many_start(&m, p, b, buf.len, JJ_MANY_LAZY) == JJ_OK, "start");
    size_t start, end, docs = 0;
    while (jj_many_next(&m, &start, &end) == JJ_OK) {
        jj_parser *held = jj_parser_hold_document(p);
        CHECK(held != NULL, "hold");
        if (!held) break;
        CHECK(jj_lazy_finish_range(held, b, buf.len, 0, jj_parser_result(held)->tape_len) == JJ_OK, "finish");
        text got = {0}, exp = {0};
        render(jj_parser_result(held)->tape, jj_parser_result(held)->tape_len, jj_parser_result(held)->strings, b, &got);
        CHECK(jj_parse(plain, b + start, end - start) == JJ_OK, "plain parse");
        render(jj_parser_result(plain)->tape, jj_parser_result(plain)->tape_len, jj_parser_result(plain)->strings,
               b + start, &exp);
        CHECK(got.len == exp.len && memcmp(got.s, exp.s, got.len) == 0, "doc %zu: %s, plain %s", docs, got.s, exp.s);
        if (docs % 50 == 0) { /* a holder parses again: its inline tape is given up, not freed */
            CHECK(jj_parse(held, b + start, end - start) == JJ_OK, "the holder parses again");
            CHECK(jj_parser_result(held)->tape_len == jj_parser_result(plain)->tape_len, "same tape length");
        }
        jj_parser_delete(held);
        free(got.s);
        free(exp.s);
        docs++;
    }
    CHECK(docs == 300, "%zu documents", docs);
    /* a lone document's tape fits it: taken, not copied */
    jj_parser_delete(p);
    p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    const char *one = "[1, \"a\\nb\", {\"k\": null}]";
    CHECK(jj_parse(p, (const uint8_t *)one, strlen(one)) == JJ_OK, "parse");
    const uint64_t *tape = jj_parser_result(p)->tape;
    jj_parser *held = jj_parser_hold_document(p);
    CHECK(held && jj_parser_result(held)->tape == tape && jj_parser_result(p)->tape == NULL, "the tape is taken");
    jj_parser_delete(held);
    jj_parser_delete(p);
    jj_parser_delete(plain);
    free(buf.s);
}

/* jj_text_position_of (the active kernel's count_text) and every kernel's count_text
 * against a count made byte by byte, as json makes it: chars are the bytes that are
 * not 10xxxxxx, the line is one more than the line breaks before the offset, the column
 * counts chars since the last one. Random texts of ASCII, line breaks and multi-byte
 * characters, at every offset near the 8-, 16- and 64-byte block edges. */
static void test_text_positions(void) {
    /* (U+07FF: 0xbf, the last continuation byte; U+0080: 0xc2 0x80, the first) */
    static const char *const pieces[] = {"a", "\n", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
                                         " ", "\"", "\r\n", "\xdf\xbf", "\xc2\x80"};
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (int round = 0; round < 40; round++) {
        text t = {0};
        size_t want = round < 20 ? (size_t)round * 7 + 1 : (size_t)(round - 19) * 1500;
        while (t.len < want) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            unsigned pick = (unsigned)(seed >> 33) % 16;
            put(&t, pieces[pick < 10 ? pick : 0], strlen(pieces[pick < 10 ? pick : 0]));
        }
        size_t chars = 0, line = 1, column = 1, last_newline = SIZE_MAX;
        for (size_t at = 0; at <= t.len; at++) {
            int edge = at < 80 || at % 16 < 2 || at % 16 > 14 || at + 40 > t.len || at % 997 == 0;
            if (edge) {
                jj_text_position got = jj_text_position_of((const uint8_t *)t.s, at);
                CHECK(got.chars == chars && got.line == line && got.column == column,
                      "position of %zu in %zu bytes: (%zu, %zu, %zu), want (%zu, %zu, %zu)", at, t.len, got.chars,
                      got.line, got.column, chars, line, column);
                for (const jj_kernels *const *k = jj_kernels_all(); *k; k++) {
                    size_t continuations = 5, lines = 7; /* added to, not set */
                    size_t last = (*k)->count_text((const uint8_t *)t.s, at, &continuations, &lines);
                    CHECK(continuations - 5 == at - chars && lines - 7 == line - 1 && last == last_newline,
                          "%s count_text of %zu bytes: (%zu, %zu, %zu), want (%zu, %zu, %zu)", (*k)->name, at,
                          continuations - 5, lines - 7, last, at - chars, line - 1, last_newline);
                }
            }
            if (at == t.len) break;
            uint8_t c = (uint8_t)t.s[at];
            if ((c & 0xc0) != 0x80) {
                chars++;
                column++;
            }
            if (c == '\n') {
                line++;
                column = 1;
                last_newline = at;
            }
        }
        free(t.s);
    }
}

int main(void) {
    test_text_positions();
    test_stream(0);
    test_stream(1);
    test_bad_documents();
    test_lazy_many(0);
    test_lazy_many(1);
    test_owned_document();
    test_held_documents();
    return jj_test_report();
}
