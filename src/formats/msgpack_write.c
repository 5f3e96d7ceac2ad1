/* JSON -> MessagePack (jetjson_msgpack.h): a walk over the parsed document's tape. The
 * tape lists values in document order and gives every container its element count up
 * front, which is all a MessagePack header needs, so the walk is one linear pass with
 * no stack: END words are simply stepped over. */
#include <stdlib.h>
#include <string.h>

#include "jetjson_msgpack.h"

#if defined(__GNUC__) || defined(__clang__)
#define JJ_MP_LIKELY(x) __builtin_expect(!!(x), 1)
#define JJ_MP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define JJ_MP_LIKELY(x) (x)
#define JJ_MP_UNLIKELY(x) (x)
#endif

const char *jj_mp_error_name(jj_mp_error err) {
    switch (err) {
    case JJ_MP_OK: return "no error";
    case JJ_MP_NOMEM: return "out of memory";
    case JJ_MP_JSON: return "invalid JSON";
    case JJ_MP_SURROGATE: return "string with a lone surrogate (not UTF-8)";
    case JJ_MP_EMPTY: return "no MessagePack value";
    case JJ_MP_TRUNCATED: return "truncated value";
    case JJ_MP_BAD_TYPE: return "invalid type byte 0xc1";
    case JJ_MP_UTF8: return "invalid UTF-8 in a string";
    case JJ_MP_EXT: return "extension value";
    case JJ_MP_BIN: return "binary value";
    case JJ_MP_KEY: return "map key that is an array or a map";
    case JJ_MP_DEPTH: return "nesting too deep";
    case JJ_MP_TRAILING: return "extra data after the value";
    }
    return "unknown error";
}

static inline uint8_t *put_be16(uint8_t *o, uint32_t v) {
    o[0] = (uint8_t)(v >> 8);
    o[1] = (uint8_t)v;
    return o + 2;
}

static inline uint8_t *put_be32(uint8_t *o, uint32_t v) {
    o[0] = (uint8_t)(v >> 24);
    o[1] = (uint8_t)(v >> 16);
    o[2] = (uint8_t)(v >> 8);
    o[3] = (uint8_t)v;
    return o + 4;
}

static inline uint8_t *put_be64(uint8_t *o, uint64_t v) {
    put_be32(o, (uint32_t)(v >> 32));
    return put_be32(o + 4, (uint32_t)v);
}

/* A non-negative integer: fixint, uint8, uint16, uint32, uint64. */
static inline uint8_t *put_uint(uint8_t *o, uint64_t v) {
    if (v < 0x80) {
        *o = (uint8_t)v;
        return o + 1;
    }
    if (v <= 0xff) {
        o[0] = 0xcc;
        o[1] = (uint8_t)v;
        return o + 2;
    }
    if (v <= 0xffff) {
        o[0] = 0xcd;
        return put_be16(o + 1, (uint32_t)v);
    }
    if (v <= 0xffffffffu) {
        o[0] = 0xce;
        return put_be32(o + 1, (uint32_t)v);
    }
    o[0] = 0xcf;
    return put_be64(o + 1, v);
}

/* A negative integer: negative fixint, int8, int16, int32, int64. */
static inline uint8_t *put_negative(uint8_t *o, int64_t v) {
    if (v >= -32) {
        *o = (uint8_t)v;
        return o + 1;
    }
    if (v >= -128) {
        o[0] = 0xd0;
        o[1] = (uint8_t)v;
        return o + 2;
    }
    if (v >= -32768) {
        o[0] = 0xd1;
        return put_be16(o + 1, (uint32_t)v);
    }
    if (v >= INT64_C(-2147483648)) {
        o[0] = 0xd2;
        return put_be32(o + 1, (uint32_t)v);
    }
    o[0] = 0xd3;
    return put_be64(o + 1, (uint64_t)v);
}

static inline uint8_t *put_double_bits(uint8_t *o, uint64_t bits) {
    o[0] = 0xcb;
    return put_be64(o + 1, bits);
}

/* A header of the fix/16/32 family (fixstr: 0xa0 and 0xd9 for 8 bits; fixarray 0x90,
 * fixmap 0x80, no 8-bit member). */
static inline uint8_t *put_str_header(uint8_t *o, size_t n) {
    if (n < 32) {
        *o = (uint8_t)(0xa0 | n);
        return o + 1;
    }
    if (n <= 0xff) {
        o[0] = 0xd9;
        o[1] = (uint8_t)n;
        return o + 2;
    }
    if (n <= 0xffff) {
        o[0] = 0xda;
        return put_be16(o + 1, (uint32_t)n);
    }
    o[0] = 0xdb;
    return put_be32(o + 1, (uint32_t)n);
}

static inline uint8_t *put_container_header(uint8_t *o, uint64_t n, uint8_t fix, uint8_t h16) {
    if (n < 16) {
        *o = (uint8_t)(fix | n);
        return o + 1;
    }
    if (n <= 0xffff) {
        o[0] = h16;
        return put_be16(o + 1, (uint32_t)n);
    }
    o[0] = (uint8_t)(h16 + 1);
    return put_be32(o + 1, (uint32_t)n);
}

/* Whether UTF-8 (WTF-8) text holds an encoded surrogate: ED A0..BF. */
static int has_surrogate(const uint8_t *s, size_t n) {
    const uint8_t *end = s + n;
    while ((s = memchr(s, 0xed, (size_t)(end - s))) != NULL) {
        if (end - s < 2) return 0;
        if (s[1] >= 0xa0) return 1;
        s += 2;
    }
    return 0;
}

/* The double nearest an integer written as decimal digits (with an optional '-'): the
 * number parser rounds "digits" "e0" correctly, as Python's float(int) does. */
static int bigint_to_double(const uint8_t *digits, size_t n, double *out) {
    uint8_t local[80];
    uint8_t *text = n + 2 <= sizeof local ? local : malloc(n + 2);
    if (!text) return -1;
    memcpy(text, digits, n);
    text[n] = 'e';
    text[n + 1] = '0';
    jj_number num;
    const uint8_t *end = jj_parse_number(text, text + n + 2, &num);
    *out = end && num.kind == JJ_NUM_DOUBLE ? num.v.d : 0.0;
    if (text != local) free(text);
    return 0;
}

/* Room the walk reserves before each scalar: the largest scalar (9 bytes) plus a string
 * header (5). Strings reserve their length on top. */
#define JJ_MP_ROOM 16

static int grow(jj_sink *out, uint8_t **pos, uint8_t **end, size_t n) {
    out->pos = *pos;
    if (jj_sink_grow(out, n)) return -1;
    *pos = out->pos;
    *end = out->end;
    return 0;
}

jj_mp_error jj_msgpack_write_document(const jj_parser *p, const uint8_t *input, size_t input_len, jj_sink *out,
                                      jj_mp_status *status) {
    const jj_doc *doc = jj_parser_result(p);
    const uint64_t *tape = doc->tape;
    const uint8_t *strings = doc->strings;
    const size_t n = doc->tape_len;
    uint8_t *pos = out->pos, *end = out->end;
    jj_mp_error err = JJ_MP_OK;
    size_t t = 0;
    if (out->error) goto nomem;
    while (t < n) {
        if (JJ_MP_UNLIKELY((size_t)(end - pos) < JJ_MP_ROOM) && grow(out, &pos, &end, JJ_MP_ROOM)) goto nomem;
        uint64_t w = tape[t];
        switch (jj_tape_type(w)) {
        case JJ_STRING: {
            uint64_t w1 = tape[t + 1];
            size_t len = jj_tape_str_bytes(w1);
            unsigned flags = jj_tape_str_flags(w);
            const uint8_t *s = (flags & JJ_STR_IN_INPUT ? input : strings) + jj_tape_str_offset(w);
            if (JJ_MP_UNLIKELY(!(flags & JJ_STR_ASCII)) && (flags & JJ_STR_WIDE2) && has_surrogate(s, len)) {
                err = JJ_MP_SURROGATE;
                /* the opening quote when the text is the input's */
                if (flags & JJ_STR_IN_INPUT) status->offset = jj_tape_str_offset(w) - 1;
                goto fail;
            }
            if (JJ_MP_UNLIKELY((size_t)(end - pos) < len + 5 + 32) && grow(out, &pos, &end, len + 5 + 32)) goto nomem;
            pos = put_str_header(pos, len);
            if (len <= 32 && (!(flags & JJ_STR_IN_INPUT) || jj_tape_str_offset(w) + 32 <= input_len)) {
                /* Two fixed 16-byte copies instead of a call to memcpy (the bytes past
                 * the string are written over by what follows). They read 32 bytes:
                 * inside the input when it has them, or in the string buffer, which the
                 * parser keeps JJ_STRING_SLACK (64) bytes longer than its strings. */
                memcpy(pos, s, 16);
                memcpy(pos + 16, s + 16, 16);
            } else {
                memcpy(pos, s, len);
            }
            pos += len;
            t += 2;
            break;
        }
        case JJ_INT64: {
            int64_t v = (int64_t)tape[t + 1];
            pos = v >= 0 ? put_uint(pos, (uint64_t)v) : put_negative(pos, v);
            t += 2;
            break;
        }
        case JJ_UINT64:
            pos = put_uint(pos, tape[t + 1]);
            t += 2;
            break;
        case JJ_DOUBLE: {
            uint64_t bits = tape[t + 1];
            /* every NaN as Python's float('nan'), which is what packb writes */
            if ((bits & UINT64_C(0x7fffffffffffffff)) > UINT64_C(0x7ff0000000000000))
                bits = UINT64_C(0x7ff8000000000000);
            pos = put_double_bits(pos, bits);
            t += 2;
            break;
        }
        case JJ_BIGINT: {
            double d;
            if (bigint_to_double(input + jj_tape_payload(w), (size_t)tape[t + 1], &d)) goto nomem;
            uint64_t bits;
            memcpy(&bits, &d, sizeof bits);
            pos = put_double_bits(pos, bits);
            t += 2;
            break;
        }
        case JJ_OBJECT:
            pos = put_container_header(pos, tape[t + 1], 0x80, 0xde);
            t += 2;
            break;
        case JJ_ARRAY:
            pos = put_container_header(pos, tape[t + 1], 0x90, 0xdc);
            t += 2;
            break;
        case JJ_NULL:
            *pos++ = 0xc0;
            t++;
            break;
        case JJ_TRUE:
            *pos++ = 0xc3;
            t++;
            break;
        case JJ_FALSE:
            *pos++ = 0xc2;
            t++;
            break;
        case JJ_END:
        default:
            t++;
            break;
        }
    }
    out->pos = pos;
    return JJ_MP_OK;
nomem:
    err = JJ_MP_NOMEM;
fail:
    if (!out->error) out->pos = pos;
    status->error = err;
    return err;
}

static jj_mp_error json_fail(jj_mp_status *status, const jj_parser *p, jj_error e, size_t document) {
    status->error = e == JJ_ERR_NOMEM ? JJ_MP_NOMEM : JJ_MP_JSON;
    status->json_error = e;
    jj_parser_error(p, &status->offset);
    status->document = document;
    return status->error;
}

jj_mp_error jj_json_to_msgpack(jj_parser *p, const uint8_t *buf, size_t len, unsigned flags, jj_sink *out,
                               jj_mp_status *status) {
    memset(status, 0, sizeof *status);
    if (!(flags & JJ_MP_NDJSON)) {
        status->document = 1;
        status->offset = 0;
        jj_error e = jj_parse(p, buf, len);
        if (e != JJ_OK) return json_fail(status, p, e, 1);
        return jj_msgpack_write_document(p, buf, len, out, status);
    }
    jj_many m;
    jj_error e = jj_many_start(&m, p, buf, len, 0);
    if (e != JJ_OK) return json_fail(status, p, e, 1);
    for (size_t doc = 1;; doc++) {
        size_t start, stop;
        e = jj_many_next(&m, &start, &stop);
        if (e == JJ_ERR_EMPTY) return JJ_MP_OK;
        if (e != JJ_OK) return json_fail(status, p, e, doc);
        status->document = doc;
        status->offset = start;
        if (jj_msgpack_write_document(p, buf, len, out, status) != JJ_MP_OK) return status->error;
    }
}
