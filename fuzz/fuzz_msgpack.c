/* libFuzzer target for the MessagePack converters (jetjson_msgpack.h).
 *
 * The input, after one byte of options, is read both ways:
 *   as MessagePack: msgpack_to_json must not crash; when it succeeds with UTF-8 checked,
 *   its JSON must parse (each line, in stream mode), and converting that JSON back to
 *   MessagePack and to JSON again must give the same text (the reader's output is a
 *   fixed point: repr floats, base64 strings, keys as strings all read back as written);
 *   as JSON: json_to_msgpack must not crash; when it succeeds, its MessagePack must read
 *   back (UTF-8 checked) into JSON that is a fixed point as above. */
#include <stdlib.h>
#include <string.h>

#include "jetjson.h"
#include "jetjson_msgpack.h"

static jj_parser *g_parser;
static int g_ready;

/* 0, or the reader's error. */
static int to_json(const uint8_t *buf, size_t len, unsigned flags, jj_sink *out) {
    jj_mp_status st;
    if (jj_sink_init_malloc(out, 64)) abort();
    jj_mp_error e = jj_msgpack_to_json(buf, len, flags, out, &st);
    if (e == JJ_MP_NOMEM) abort();
    return (int)e;
}

static int to_msgpack(const uint8_t *buf, size_t len, unsigned flags, jj_sink *out) {
    jj_mp_status st;
    if (jj_sink_init_malloc(out, 64)) abort();
    jj_mp_error e = jj_json_to_msgpack(g_parser, buf, len, flags, out, &st);
    if (e == JJ_MP_NOMEM) abort(); /* nothing here is big enough to fail honestly */
    return e == JJ_MP_OK ? 0 : -1;
}

static int same(const jj_sink *a, const jj_sink *b) {
    size_t n = jj_sink_len(a);
    return n == jj_sink_len(b) && (n == 0 || memcmp(a->start, b->start, n) == 0);
}

static void as_msgpack(const uint8_t *data, size_t size, unsigned opts) {
    unsigned flags = opts & (JJ_MP_STREAM | JJ_MP_NO_UTF8_CHECK | JJ_MP_BIN_ERROR | JJ_MP_EXT_NULL);
    jj_sink json, mp, json2;
    if (to_json(data, size, flags, &json) == 0 && !(flags & JJ_MP_NO_UTF8_CHECK)) {
        unsigned nd = flags & JJ_MP_STREAM ? JJ_MP_NDJSON : 0;
        if (!(flags & JJ_MP_STREAM) && jj_parse(g_parser, json.start, jj_sink_len(&json)) != JJ_OK) abort();
        if (to_msgpack(json.start, jj_sink_len(&json), nd, &mp) != 0) abort();
        if (to_json(mp.start, jj_sink_len(&mp), flags & JJ_MP_STREAM, &json2) != 0 || !same(&json, &json2)) abort();
        jj_sink_free_malloc(&json2);
        jj_sink_free_malloc(&mp);
    }
    jj_sink_free_malloc(&json);
}

static void as_json(const uint8_t *data, size_t size, unsigned opts) {
    unsigned nd = opts & 0x10 ? JJ_MP_NDJSON : 0, stream = nd ? JJ_MP_STREAM : 0;
    jj_sink mp, json, mp2, json2;
    if (to_msgpack(data, size, nd, &mp) == 0) {
        int e = to_json(mp.start, jj_sink_len(&mp), stream, &json);
        /* what the writer wrote reads back, unless nested past the reader's limit */
        if (e != 0 && e != JJ_MP_DEPTH) abort();
        if (e == 0) {
            /* and its JSON is a fixed point (NaN, inf and big ints have become null or
             * doubles on the first pass, so the first MessagePack may differ) */
            if (to_msgpack(json.start, jj_sink_len(&json), nd, &mp2) != 0) abort();
            if (to_json(mp2.start, jj_sink_len(&mp2), stream, &json2) != 0 || !same(&json, &json2)) abort();
            jj_sink_free_malloc(&json2);
            jj_sink_free_malloc(&mp2);
        }
        jj_sink_free_malloc(&json);
    }
    jj_sink_free_malloc(&mp);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!g_ready) {
        g_parser = jj_parser_new();
        if (!g_parser) abort(); /* out of memory */
        g_ready = 1;
    }
    if (size == 0) return 0;
    unsigned opts = data[0];
    as_msgpack(data + 1, size - 1, opts);
    as_json(data + 1, size - 1, opts);
    return 0;
}
