/* C tests of the MessagePack converters (jetjson_msgpack.h) and the UTF-8 escaper they use.
 *
 * Oracles: encodings written out by hand from the MessagePack spec; a byte-at-a-time
 * reference escaper and strict UTF-8 checker written here from the rules in
 * jetjson_write.h; and, on every corpus file, the round trip JSON -> MessagePack -> JSON
 * -> MessagePack, whose two MessagePack results must be equal and whose JSON must parse
 * back to the values of the original. Hostile input: every cut of a real MessagePack
 * document, deep nesting, and a sink that cannot grow. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jetjson_msgpack.h"
#include "tape_compare.h"
#include "test_util.h"

static jj_parser *g_parser;

/* JSON text -> MessagePack in a malloc sink; returns the error; the bytes in *out, *len. */
static jj_mp_error to_msgpack(const char *json, size_t n, unsigned flags, uint8_t **out, size_t *len) {
    jj_sink s;
    jj_mp_status st;
    *out = NULL;
    *len = 0;
    if (jj_sink_init_malloc(&s, 16)) return JJ_MP_NOMEM;
    jj_mp_error e = jj_json_to_msgpack(g_parser, (const uint8_t *)json, n, flags, &s, &st);
    if (e != JJ_MP_OK || jj_sink_finish(&s, len)) {
        jj_sink_free_malloc(&s);
        return e != JJ_MP_OK ? e : JJ_MP_NOMEM;
    }
    *out = s.start;
    return e;
}

static jj_mp_error to_json(const uint8_t *mp, size_t n, unsigned flags, uint8_t **out, size_t *len,
                           jj_mp_status *st) {
    jj_sink s;
    *out = NULL;
    *len = 0;
    if (jj_sink_init_malloc(&s, 8)) return JJ_MP_NOMEM;
    jj_mp_error e = jj_msgpack_to_json(mp, n, flags, &s, st);
    if (e != JJ_MP_OK || jj_sink_finish(&s, len)) {
        jj_sink_free_malloc(&s);
        return e != JJ_MP_OK ? e : JJ_MP_NOMEM;
    }
    *out = s.start;
    return e;
}

static void check_encode(const char *json, const char *expected, size_t expected_len) {
    uint8_t *out;
    size_t len;
    jj_mp_error e = to_msgpack(json, strlen(json), 0, &out, &len);
    CHECK(e == JJ_MP_OK && len == expected_len && memcmp(out, expected, len) == 0, "encode %s (error %d, %zu bytes)",
          json, (int)e, len);
    free(out);
}

static void check_decode(const char *mp, size_t n, unsigned flags, const char *expected) {
    uint8_t *out;
    size_t len;
    jj_mp_status st;
    jj_mp_error e = to_json((const uint8_t *)mp, n, flags, &out, &len, &st);
    CHECK(e == JJ_MP_OK && len == strlen(expected) && memcmp(out, expected, len) == 0, "decode to %s: error %d, got %.*s",
          expected, (int)e, (int)len, out ? (const char *)out : "");
    free(out);
}

static void check_decode_error(const char *mp, size_t n, unsigned flags, jj_mp_error want, size_t offset) {
    uint8_t *out;
    size_t len;
    jj_mp_status st;
    jj_mp_error e = to_json((const uint8_t *)mp, n, flags, &out, &len, &st);
    CHECK(e == want && st.offset == offset, "decode error: want %d at %zu, got %d at %zu", (int)want, offset, (int)e,
          st.offset);
    free(out);
}

#define ENC(json, bytes) check_encode(json, bytes, sizeof(bytes) - 1)
#define DEC(bytes, flags, json) check_decode(bytes, sizeof(bytes) - 1, flags, json)
#define DECERR(bytes, flags, err, off) check_decode_error(bytes, sizeof(bytes) - 1, flags, err, off)

static void test_spec_vectors(void) {
    ENC("0", "\x00");
    ENC("127", "\x7f");
    ENC("128", "\xcc\x80");
    ENC("255", "\xcc\xff");
    ENC("256", "\xcd\x01\x00");
    ENC("65536", "\xce\x00\x01\x00\x00");
    ENC("4294967296", "\xcf\x00\x00\x00\x01\x00\x00\x00\x00");
    ENC("18446744073709551615", "\xcf\xff\xff\xff\xff\xff\xff\xff\xff");
    ENC("-1", "\xff");
    ENC("-32", "\xe0");
    ENC("-33", "\xd0\xdf");
    ENC("-129", "\xd1\xff\x7f");
    ENC("-32769", "\xd2\xff\xff\x7f\xff");
    ENC("-2147483649", "\xd3\xff\xff\xff\xff\x7f\xff\xff\xff");
    ENC("-0", "\x00");
    ENC("1.5", "\xcb\x3f\xf8\x00\x00\x00\x00\x00\x00");
    ENC("-0.0", "\xcb\x80\x00\x00\x00\x00\x00\x00\x00");
    ENC("NaN", "\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00");
    ENC("18446744073709551616", "\xcb\x43\xf0\x00\x00\x00\x00\x00\x00"); /* 2^64 as a double */
    ENC("null", "\xc0");
    ENC("[true,false]", "\x92\xc3\xc2");
    ENC("{}", "\x80");
    ENC("[]", "\x90");
    ENC("\"\"", "\xa0");
    ENC("{\"a\":{\"a\":[]}}", "\x81\xa1\x61\x81\xa1\x61\x90");
    ENC("[[],[[]],{}]", "\x93\x90\x91\x90\x80");
    ENC("\"\\u00e9\\n\"", "\xa3\xc3\xa9\n");
    ENC("[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15]",
        "\xdc\x00\x10\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f");
    ENC("\"0123456789012345678901234567890\"", "\xbf" "0123456789012345678901234567890");
    ENC("\"01234567890123456789012345678901\"", "\xd9\x20" "01234567890123456789012345678901");

    DEC("\x00", 0, "0");
    DEC("\xff", 0, "-1");
    DEC("\xd3\x80\x00\x00\x00\x00\x00\x00\x00", 0, "-9223372036854775808");
    DEC("\xcf\xff\xff\xff\xff\xff\xff\xff\xff", 0, "18446744073709551615");
    DEC("\xcb\x3f\xf0\x00\x00\x00\x00\x00\x00", 0, "1.0");
    DEC("\xcb\x3e\xe4\xf8\xb5\x88\xe3\x68\xf1", 0, "1e-05");
    DEC("\xcb\x43\x41\xc3\x79\x37\xe0\x80\x00", 0, "1e+16");
    DEC("\xca\x3f\xc0\x00\x00", 0, "1.5");
    DEC("\xca\x3d\xcc\xcc\xcd", 0, "0.10000000149011612");
    DEC("\xcb\x7f\xf0\x00\x00\x00\x00\x00\x00", 0, "null");
    DEC("\x93\xc0\xc2\xc3", 0, "[null,false,true]");
    DEC("\x82\x01\xc0\xc3\x90", 0, "{\"1\":null,\"true\":[]}");
    DEC("\x81\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00\x01", 0, "{\"NaN\":1}");
    DEC("\x81\xca\xff\x80\x00\x00\x01", 0, "{\"-Infinity\":1}");
    DEC("\x81\xc0\xc0", 0, "{\"null\":null}");
    DEC("\x82\xa1k\x01\xa1k\x02", 0, "{\"k\":1,\"k\":2}");
    DEC("\xc4\x03\x00\x01\x02", 0, "\"AAEC\"");
    DEC("\xc4\x01\xff", 0, "\"/w==\"");
    DEC("\xc4\x00", 0, "\"\"");
    DEC("\x81\xc4\x02\xfb\xff\x01", 0, "{\"+/8=\":1}");
    DEC("\xa4\"\\\x01\x7f", 0, "\"\\\"\\\\\\u0001\x7f\"");
    DEC("\xa5\x08\x09\x0a\x0c\x0d", 0, "\"\\b\\t\\n\\f\\r\"");
    DEC("\xd4\x01\x00", JJ_MP_EXT_NULL, "null");
    DEC("\x81\xd5\x01\x00\x00\x07", JJ_MP_EXT_NULL, "{\"null\":7}");
    DEC("\x01\x02\x91\x03", JJ_MP_STREAM, "1\n2\n[3]\n");
    DEC("", JJ_MP_STREAM, "");
    DEC("\xa2\xed\xa0", JJ_MP_NO_UTF8_CHECK, "\"\xed\xa0\"");

    DECERR("", 0, JJ_MP_EMPTY, 0);
    DECERR("\xc1", 0, JJ_MP_BAD_TYPE, 0);
    DECERR("\x92\x01", 0, JJ_MP_TRUNCATED, 0); /* declares more items than bytes left */
    DECERR("\x92\x92\x01\x01", 0, JJ_MP_TRUNCATED, 4);
    DECERR("\x01\x02", 0, JJ_MP_TRAILING, 1);
    DECERR("\x92\x01\xa3\xed\xa0\x80", 0, JJ_MP_UTF8, 3);
    DECERR("\xa4" "ab\xc3(", 0, JJ_MP_UTF8, 3);
    DECERR("\x91\xd4\x01\x00", 0, JJ_MP_EXT, 1);
    DECERR("\x91\xc4\x01\x00", JJ_MP_BIN_ERROR, JJ_MP_BIN, 1);
    DECERR("\x81\x90\x01", 0, JJ_MP_KEY, 1);
    DECERR("\xdd\xff\xff\xff\xff\x00", 0, JJ_MP_TRUNCATED, 0);
    DECERR("\xdf\x80\x00\x00\x00\x00", 0, JJ_MP_TRUNCATED, 0);
    DECERR("\xdb\xff\xff\xff\xff\x00", 0, JJ_MP_TRUNCATED, 0);
    DECERR("\xc9\xff\xff\xff\xff\x01", 0, JJ_MP_TRUNCATED, 0);
    DECERR("\xcb\x00", 0, JJ_MP_TRUNCATED, 0);
}

/* ---- the escaper against a reference written byte by byte ---- */

static size_t ref_strict_len(const uint8_t *s, size_t avail) {
    uint32_t c = s[0], cp;
    size_t need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    if (need == 0 || c > 0xf4 || avail < need) return 0;
    cp = c & (0x3f >> (need - 1));
    for (size_t k = 1; k < need; k++) {
        if ((s[k] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (s[k] & 0x3f);
    }
    static const uint32_t min_cp[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[need] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return need;
}

/* Reference: the escaped text, or (size_t)-2 with *bad. */
static size_t ref_escape(const uint8_t *s, size_t n, int validate, uint8_t *out, size_t *bad) {
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        uint8_t c = s[i];
        if (c == '"' || c == '\\') {
            out[o++] = '\\';
            out[o++] = c;
            i++;
        } else if (c < 0x20) {
            const char *named = c == 8 ? "b" : c == 9 ? "t" : c == 10 ? "n" : c == 12 ? "f" : c == 13 ? "r" : NULL;
            o += (size_t)(named ? sprintf((char *)out + o, "\\%s", named) : sprintf((char *)out + o, "\\u%04x", c));
            i++;
        } else if (c < 0x80 || !validate) {
            out[o++] = c;
            i++;
        } else {
            size_t len = ref_strict_len(s + i, n - i);
            if (!len) {
                *bad = i;
                return (size_t)-2;
            }
            memcpy(out + o, s + i, len);
            o += len;
            i += len;
        }
    }
    return o;
}

static uint64_t g_rng = 0x9e3779b97f4a7c15u;
static uint32_t rnd(void) {
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return (uint32_t)(g_rng >> 11);
}

static void test_escape_utf8(void) {
    static const uint8_t pieces[][5] = {
        {1, 'a'}, {1, '"'}, {1, '\\'}, {1, 0x1f}, {1, 0x7f}, {1, '\n'}, {1, 0},
        {2, 0xc3, 0xa9}, {3, 0xe2, 0x82, 0xac}, {4, 0xf0, 0x9f, 0x98, 0x80}, {3, 0xed, 0x9f, 0xbf},
        {4, 0xf4, 0x8f, 0xbf, 0xbf}, {3, 0xef, 0xbf, 0xbf},
        /* bad: surrogate, overlong, past U+10FFFF, lone continuation, cut sequence, 0xff */
        {3, 0xed, 0xa0, 0x80}, {2, 0xc0, 0x80}, {3, 0xe0, 0x80, 0x80}, {4, 0xf4, 0x90, 0x80, 0x80},
        {1, 0x80}, {2, 0xe2, 0x82}, {1, 0xff}, {4, 0xf0, 0x8f, 0xbf, 0xbf},
    };
    const size_t npieces = sizeof pieces / sizeof pieces[0];
    uint8_t in[600], got[4000], want[4000];
    for (int round = 0; round < 20000; round++) {
        size_t n = 0, count = rnd() % 60;
        int bad_pieces = round % 3 == 0; /* a third of the strings may hold bad bytes */
        for (size_t k = 0; k < count; k++) {
            size_t pick = rnd() % (bad_pieces ? npieces : 13);
            if (rnd() % 4 == 0) pick = 0; /* runs of plain ASCII, for the 16-byte blocks */
            memcpy(in + n, pieces[pick] + 1, pieces[pick][0]);
            n += pieces[pick][0];
        }
        for (int validate = 0; validate < 2; validate++) {
            size_t bad_got = 0, bad_want = 0;
            size_t w = ref_escape(in, n, validate, want, &bad_want);
            size_t g = jj_escape_utf8_text(in, n, validate, got, &bad_got);
            int same = w == (size_t)-2 ? g == JJ_ESCAPE_INVALID && bad_got == bad_want
                                       : g == w && memcmp(got, want, w) == 0;
            CHECK(same, "escape round %d validate %d: %zu vs %zu (bad %zu vs %zu)", round, validate, g, w, bad_got,
                  bad_want);
            CHECK(g == JJ_ESCAPE_INVALID || g <= jj_escape_bound_json_utf8(n) - 2, "bound");
        }
    }
}

/* ---- round trips over the corpus ---- */

static void round_trip(const char *name, const uint8_t *json, size_t len) {
    uint8_t *mp1, *text, *mp2;
    size_t mp1_len, text_len, mp2_len;
    jj_mp_status st;
    if (to_msgpack((const char *)json, len, 0, &mp1, &mp1_len) != JJ_MP_OK) {
        FAIL("%s: json_to_msgpack", name);
        return;
    }
    if (to_json(mp1, mp1_len, 0, &text, &text_len, &st) != JJ_MP_OK) {
        FAIL("%s: msgpack_to_json error %d at %zu", name, (int)st.error, st.offset);
        free(mp1);
        return;
    }
    CHECK(to_msgpack((const char *)text, text_len, 0, &mp2, &mp2_len) == JJ_MP_OK && mp2_len == mp1_len &&
              memcmp(mp1, mp2, mp1_len) == 0,
          "%s: MessagePack differs after a round trip", name);
    /* the JSON written parses to the original's values (same tape, entry for entry) */
    jj_parser *other = jj_parser_new();
    if (!other) abort(); /* out of memory */
    CHECK(jj_parse(g_parser, json, len) == JJ_OK && jj_parse(other, text, text_len) == JJ_OK &&
              jj_test_same_values(g_parser, json, other, text, 0),
          "%s: values differ after a round trip", name);
    jj_parser_delete(other);
    /* every cut of the MessagePack fails cleanly: all of them for small files; for big
     * ones (each cut reads up to the whole) 300 spread over it and the last 64 bytes */
    size_t step = mp1_len > 20000 ? mp1_len / 300 : 1;
    size_t tail = mp1_len > 64 ? mp1_len - 64 : 0;
    for (size_t cut = 0; cut < mp1_len; cut = cut >= tail ? cut + 1 : (cut + step < tail ? cut + step : tail)) {
        uint8_t *o;
        size_t ol;
        jj_mp_error e = to_json(mp1, cut, 0, &o, &ol, &st);
        CHECK(e == (cut ? JJ_MP_TRUNCATED : JJ_MP_EMPTY) || (e == JJ_MP_UTF8 && cut > 0), "%s: cut at %zu gave %d",
              name, cut, (int)e);
        free(o);
    }
    free(mp1);
    free(text);
    free(mp2);
}

static void test_corpus(void) {
    static const char *files[] = {"twitter.json", "citm_catalog.json", "canada.json", "github_events.json",
                                  "gsoc-2018.json", "mesh.json", "numbers.json", "random.json",
                                  "twitterescaped.json", "update-center.json", "marine_ik.json"};
    int found = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/corpus/%s", jj_data_dir(), files[i]);
        size_t len;
        uint8_t *buf = jj_read_file(path, &len);
        if (!buf) continue;
        found++;
        round_trip(files[i], buf, len);
        free(buf);
    }
    if (!found) printf("corpus not found: round trips skipped\n");
}

/* ---- depth, NDJSON, a sink that cannot grow ---- */

static void test_depth_and_ndjson(void) {
    size_t n = JJ_MSGPACK_MAX_DEPTH + 1;
    uint8_t *deep = malloc(n + 1);
    memset(deep, 0x91, n);
    deep[n] = 0xc0;
    uint8_t *o;
    size_t ol;
    jj_mp_status st;
    CHECK(to_json(deep, n + 1, 0, &o, &ol, &st) == JJ_MP_DEPTH && st.offset == JJ_MSGPACK_MAX_DEPTH, "too deep");
    free(o);
    CHECK(to_json(deep + 1, n, 0, &o, &ol, &st) == JJ_MP_OK && ol == 2 * JJ_MSGPACK_MAX_DEPTH + 4, "deepest allowed");
    free(o);
    free(deep);

    const char *nd = "{\"a\":1}\n[2]\n  3 \"x\"\n";
    uint8_t *mp;
    size_t len;
    CHECK(to_msgpack(nd, strlen(nd), JJ_MP_NDJSON, &mp, &len) == JJ_MP_OK && len == 9 &&
              memcmp(mp, "\x81\xa1\x61\x01\x91\x02\x03\xa1x", 9) == 0,
          "ndjson");
    CHECK(to_json(mp, len, JJ_MP_STREAM, &o, &ol, &st) == JJ_MP_OK && ol == 18 &&
              memcmp(o, "{\"a\":1}\n[2]\n3\n\"x\"\n", 18) == 0,
          "stream back");
    free(o);
    free(mp);
    jj_sink s;
    jj_mp_status status;
    jj_sink_init_malloc(&s, 16);
    const char *bad = "1\n[2,\n3";
    CHECK(jj_json_to_msgpack(g_parser, (const uint8_t *)bad, strlen(bad), JJ_MP_NDJSON, &s, &status) == JJ_MP_JSON &&
              status.document == 2,
          "ndjson error names document 2 (got %zu)", status.document);
    jj_sink_free_malloc(&s);
}

static int refuse(jj_sink *s, size_t cap) {
    (void)s;
    (void)cap;
    return -1;
}

static void test_sink_failure(void) {
    uint8_t room[4];
    jj_sink s = {room, room + sizeof room, room, refuse, NULL, 0};
    jj_mp_status st;
    const char *json = "[\"a long enough string\", 1, 2, 3]";
    CHECK(jj_json_to_msgpack(g_parser, (const uint8_t *)json, strlen(json), 0, &s, &st) == JJ_MP_NOMEM, "nomem");
    jj_sink s2 = {room, room + sizeof room, room, refuse, NULL, 0};
    CHECK(jj_msgpack_to_json((const uint8_t *)"\x93\x01\x02\x03", 4, 0, &s2, &st) == JJ_MP_NOMEM, "nomem back");
}

int main(void) {
    g_parser = jj_parser_new();
    if (!g_parser) abort(); /* out of memory */
    test_spec_vectors();
    test_escape_utf8();
    test_depth_and_ndjson();
    test_sink_failure();
    test_corpus();
    jj_parser_delete(g_parser);
    return jj_test_report();
}
