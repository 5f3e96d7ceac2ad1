/* MessagePack -> JSON (jetjson_msgpack.h): one pass over the bytes, writing as it reads.
 * Open containers are a stack of counters (items left), heap-grown up to
 * JJ_MSGPACK_MAX_DEPTH, so nesting costs no C stack. Every length is checked against
 * what is left of the input before anything is done with it: a hostile header cannot make
 * the reader allocate or loop beyond the input's size. */
#include <stdlib.h>
#include <string.h>

#include "jetjson_msgpack.h"

#if defined(__GNUC__) || defined(__clang__)
#define JJ_MP_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define JJ_MP_UNLIKELY(x) (x)
#endif

/* Room reserved before every value: a double's text, an int's, a key's quotes and the
 * separators around them fit. */
#define JJ_MP_VALUE_ROOM 64
/* Long strings and bins are written in pieces of this many input bytes, so that the room
 * reserved for one piece (6 bytes of output per byte of input, at worst) stays small. */
#define JJ_MP_PIECE 65536
/* Base64 pieces: a multiple of 3 bytes, so that only the last one is padded. */
#define JJ_MP_B64_PIECE (3 * 21845)

typedef struct mp_frame {
    uint64_t left;   /* items still to read (a map counts keys and values) */
    uint8_t is_map;
} mp_frame;

typedef struct mp_reader {
    const uint8_t *buf;
    size_t len;
    size_t at; /* next byte to read */
    unsigned flags;
    jj_sink *out;
    jj_mp_status *status;
} mp_reader;

const char *jj_msgpack_type_name(uint8_t b) {
    if (b <= 0x7f || b >= 0xe0 || (b >= 0xcc && b <= 0xd3)) return "integer";
    if (b <= 0x8f || b == 0xde || b == 0xdf) return "map";
    if (b <= 0x9f || b == 0xdc || b == 0xdd) return "array";
    if (b <= 0xbf || (b >= 0xd9 && b <= 0xdb)) return "string";
    switch (b) {
    case 0xc0: return "nil";
    case 0xc1: return "invalid type";
    case 0xc2:
    case 0xc3: return "boolean";
    case 0xc4:
    case 0xc5:
    case 0xc6: return "binary";
    case 0xca:
    case 0xcb: return "float";
    default: return "extension";
    }
}

static const char b64_alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static inline uint16_t get_be16(const uint8_t *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t get_be32(const uint8_t *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint64_t get_be64(const uint8_t *p) { return ((uint64_t)get_be32(p) << 32) | get_be32(p + 4); }

static jj_mp_error mp_fail(mp_reader *r, jj_mp_error err, size_t offset) {
    r->status->error = err;
    r->status->offset = offset;
    return err;
}

static inline int room(jj_sink *out, size_t n) { return jj_sink_reserve(out, n); }

/* A double as Python's repr writes it; NaN and infinities as null (or, as a key, the
 * way json.dumps spells them). */
static void put_double(jj_sink *out, double d, int as_key) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    if ((bits & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000)) {
        const char *word = !as_key ? "null" : d != d ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
        size_t n = strlen(word);
        memcpy(out->pos, word, n);
        out->pos += n;
        return;
    }
    out->pos += jj_format_double_repr(d, (char *)out->pos);
}

/* Base64 of b[0..n) (RFC 4648, padded), as base64.b64encode gives, in pieces. */
static int put_base64(jj_sink *out, const uint8_t *b, size_t n) {
    while (n > 0) {
        size_t take = n > JJ_MP_B64_PIECE ? JJ_MP_B64_PIECE : n;
        if (room(out, take / 3 * 4 + 4)) return -1;
        uint8_t *o = out->pos;
        size_t i = 0;
        for (; i + 3 <= take; i += 3) {
            uint32_t v = ((uint32_t)b[i] << 16) | ((uint32_t)b[i + 1] << 8) | b[i + 2];
            o[0] = (uint8_t)b64_alphabet[v >> 18];
            o[1] = (uint8_t)b64_alphabet[(v >> 12) & 63];
            o[2] = (uint8_t)b64_alphabet[(v >> 6) & 63];
            o[3] = (uint8_t)b64_alphabet[v & 63];
            o += 4;
        }
        if (i < take) {
            uint32_t v = (uint32_t)b[i] << 16;
            if (i + 1 < take) v |= (uint32_t)b[i + 1] << 8;
            o[0] = (uint8_t)b64_alphabet[v >> 18];
            o[1] = (uint8_t)b64_alphabet[(v >> 12) & 63];
            o[2] = i + 1 < take ? (uint8_t)b64_alphabet[(v >> 6) & 63] : '=';
            o[3] = '=';
            o += 4;
        }
        out->pos = o;
        b += take;
        n -= take;
    }
    return 0;
}

/* Strings up to this long try the block copy first. */
#define JJ_MP_SHORT_STR 64

/* The text of a str (no quotes), escaped; validated unless JJ_MP_NO_UTF8_CHECK. */
static jj_mp_error put_str_text(mp_reader *r, const uint8_t *s, size_t n) {
    int validate = !(r->flags & JJ_MP_NO_UTF8_CHECK);
    size_t done = 0;
    if (n <= JJ_MP_SHORT_STR && (size_t)(r->buf + r->len - s) >= ((n + 15) & ~(size_t)15)) {
        /* Most strings are short keys and words of plain ASCII: whole 16-byte blocks
         * are tested and copied, reading past the string's end but not the input's
         * (the bytes past it are masked off), so no byte-by-byte tail. The first block
         * with something to escape or non-ASCII goes to the escaper from there on. */
        if (room(r->out, JJ_MP_SHORT_STR + 16)) return JJ_MP_NOMEM;
        uint8_t *o = r->out->pos;
        for (; done < n; done += 16) {
            uint32_t m = jj_escape_flags16(s + done, 0);
            if (n - done < 16) m &= (UINT32_C(1) << (n - done)) - 1;
            if (m) break;
            memcpy(o + done, s + done, 16);
        }
        if (done >= n) {
            r->out->pos = o + n;
            return JJ_MP_OK;
        }
        r->out->pos = o + done;
    }
    while (done < n) {
        size_t take = n - done;
        if (take > JJ_MP_PIECE) {
            /* cut before a character's continuation bytes (at most three to step back) */
            take = JJ_MP_PIECE;
            for (int k = 0; k < 3 && (s[done + take] & 0xc0) == 0x80; k++) take--;
        }
        if (room(r->out, take * 6)) return JJ_MP_NOMEM;
        size_t bad = 0;
        size_t w = jj_escape_utf8_text(s + done, take, validate, r->out->pos, &bad);
        if (w == JJ_ESCAPE_INVALID) return mp_fail(r, JJ_MP_UTF8, (size_t)(s + done + bad - r->buf));
        r->out->pos += w;
        done += take;
    }
    return JJ_MP_OK;
}

/* Reads the value at r->at and writes it; containers are opened (their first item is
 * read by the caller's loop). Returns the error, or JJ_MP_OK with *opened set to the new
 * frame's item count when a non-empty container was opened (then *is_map says which). */
static jj_mp_error mp_value(mp_reader *r, int as_key, uint64_t *opened, uint8_t *is_map) {
    const uint8_t *buf = r->buf;
    const size_t start = r->at, avail = r->len - start;
    jj_sink *out = r->out;
    *opened = 0;
    if (room(out, JJ_MP_VALUE_ROOM)) return JJ_MP_NOMEM;
    uint8_t c = buf[start];
    size_t head = 1;    /* header bytes */
    uint64_t count = 0; /* container items, or str/bin/ext bytes */
    enum { K_STR, K_BIN, K_EXT, K_ARRAY, K_MAP } kind;
    if (c <= 0x7f) {
        /* positive fixint: up to three digits, written here */
        uint8_t *o = out->pos;
        if (as_key) *o++ = '"';
        if (c >= 100) {
            *o++ = '1';
            o = jj_write_digits2(o, c - 100u);
        } else if (c >= 10) {
            o = jj_write_digits2(o, c);
        } else {
            *o++ = (uint8_t)('0' + c);
        }
        if (as_key) *o++ = '"';
        out->pos = o;
        r->at = start + 1;
        return JJ_MP_OK;
    }
    if (c >= 0xe0) {
        if (as_key) *out->pos++ = '"';
        out->pos += jj_format_int64((int8_t)c, (char *)out->pos);
        if (as_key) *out->pos++ = '"';
        r->at = start + 1;
        return JJ_MP_OK;
    }
    if (c <= 0x8f) {
        kind = K_MAP;
        count = c & 0x0f;
    } else if (c <= 0x9f) {
        kind = K_ARRAY;
        count = c & 0x0f;
    } else if (c <= 0xbf) {
        kind = K_STR;
        count = c & 0x1f;
    } else {
        /* c in 0xc0..0xdf: sizes of what follows the type byte */
        static const uint8_t extra[32] = {
            0, 0, 0, 0, 1, 2, 4, 1, 2, 4, 4, 8, 1, 2, 4, 8, /* c0..cf */
            1, 2, 4, 8, 2, 3, 5, 9, 17, 1, 2, 4, 2, 4, 2, 4 /* d0..df: fixext counts the type */
        };
        size_t need = extra[c - 0xc0];
        if (c == 0xc1) return mp_fail(r, JJ_MP_BAD_TYPE, start);
        if (avail < 1 + need) return mp_fail(r, JJ_MP_TRUNCATED, start);
        const uint8_t *p = buf + start + 1;
        if (c <= 0xc3 || (c >= 0xca && c <= 0xd3)) {
            /* scalars, written whole (a key between quotes, as json.dumps writes it) */
            uint8_t *o = out->pos;
            if (as_key) *o++ = '"';
            switch (c) {
            case 0xc0: memcpy(o, "null", 4), o += 4; break;
            case 0xc2: memcpy(o, "false", 5), o += 5; break;
            case 0xc3: memcpy(o, "true", 4), o += 4; break;
            case 0xca:
            case 0xcb: {
                double d;
                if (c == 0xca) {
                    uint32_t bits = get_be32(p);
                    float f;
                    memcpy(&f, &bits, sizeof f);
                    d = (double)f; /* widened, as msgpack.unpackb does */
                } else {
                    uint64_t bits = get_be64(p);
                    memcpy(&d, &bits, sizeof d);
                }
                out->pos = o;
                put_double(out, d, as_key);
                o = out->pos;
                break;
            }
            case 0xcc: o += jj_format_uint64(p[0], (char *)o); break;
            case 0xcd: o += jj_format_uint64(get_be16(p), (char *)o); break;
            case 0xce: o += jj_format_uint64(get_be32(p), (char *)o); break;
            case 0xcf: o += jj_format_uint64(get_be64(p), (char *)o); break;
            case 0xd0: o += jj_format_int64((int8_t)p[0], (char *)o); break;
            case 0xd1: o += jj_format_int64((int16_t)get_be16(p), (char *)o); break;
            case 0xd2: o += jj_format_int64((int32_t)get_be32(p), (char *)o); break;
            default: o += jj_format_int64((int64_t)get_be64(p), (char *)o); break;
            }
            if (as_key) *o++ = '"';
            out->pos = o;
            r->at = start + 1 + need;
            return JJ_MP_OK;
        }
        switch (c) {
        case 0xc4: kind = K_BIN, count = p[0]; break;
        case 0xc5: kind = K_BIN, count = get_be16(p); break;
        case 0xc6: kind = K_BIN, count = get_be32(p); break;
        case 0xc7: kind = K_EXT, count = (uint64_t)p[0] + 1; break; /* + the type byte */
        case 0xc8: kind = K_EXT, count = (uint64_t)get_be16(p) + 1; break;
        case 0xc9: kind = K_EXT, count = (uint64_t)get_be32(p) + 1; break;
        case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:
            kind = K_EXT, count = need; need = 0; break;
        case 0xd9: kind = K_STR, count = p[0]; break;
        case 0xda: kind = K_STR, count = get_be16(p); break;
        case 0xdb: kind = K_STR, count = get_be32(p); break;
        case 0xdc: kind = K_ARRAY, count = get_be16(p); break;
        case 0xdd: kind = K_ARRAY, count = get_be32(p); break;
        case 0xde: kind = K_MAP, count = get_be16(p); break;
        default: kind = K_MAP, count = get_be32(p); break;
        }
        head = 1 + need;
    }
    size_t rest = avail - head; /* bytes after the header */
    switch (kind) {
    case K_ARRAY:
    case K_MAP:
        if (as_key) return mp_fail(r, JJ_MP_KEY, start);
        /* every item takes a byte at least */
        if (count > rest || (kind == K_MAP && count > rest / 2)) return mp_fail(r, JJ_MP_TRUNCATED, start);
        r->at = start + head;
        if (count == 0) {
            memcpy(out->pos, kind == K_MAP ? "{}" : "[]", 2);
            out->pos += 2;
            return JJ_MP_OK;
        }
        *out->pos++ = kind == K_MAP ? '{' : '[';
        *opened = kind == K_MAP ? count * 2 : count;
        *is_map = kind == K_MAP;
        return JJ_MP_OK;
    case K_EXT:
        if (count > rest) return mp_fail(r, JJ_MP_TRUNCATED, start);
        if (!(r->flags & JJ_MP_EXT_NULL)) return mp_fail(r, JJ_MP_EXT, start);
        memcpy(out->pos, as_key ? "\"null\"" : "null", as_key ? 6 : 4);
        out->pos += as_key ? 6 : 4;
        r->at = start + head + (size_t)count;
        return JJ_MP_OK;
    case K_BIN:
        if (count > rest) return mp_fail(r, JJ_MP_TRUNCATED, start);
        if (r->flags & JJ_MP_BIN_ERROR) return mp_fail(r, JJ_MP_BIN, start);
        *out->pos++ = '"';
        if (put_base64(out, buf + start + head, (size_t)count)) return JJ_MP_NOMEM;
        if (room(out, JJ_MP_VALUE_ROOM)) return JJ_MP_NOMEM;
        *out->pos++ = '"';
        r->at = start + head + (size_t)count;
        return JJ_MP_OK;
    case K_STR:
    default: {
        if (count > rest) return mp_fail(r, JJ_MP_TRUNCATED, start);
        const uint8_t *s = buf + start + head;
        size_t n = (size_t)count;
        *out->pos++ = '"';
        jj_mp_error e = put_str_text(r, s, n);
        if (e != JJ_MP_OK) return e;
        if (room(out, JJ_MP_VALUE_ROOM)) return JJ_MP_NOMEM;
        *out->pos++ = '"';
        r->at = start + head + n;
        return JJ_MP_OK;
    }
    }
}

/* One top-level value, with everything inside it. */
static jj_mp_error mp_document(mp_reader *r, mp_frame **stack, size_t *stack_cap) {
    size_t depth = 0;
    int as_key = 0;
    for (;;) {
        if (r->at >= r->len) return mp_fail(r, JJ_MP_TRUNCATED, r->len);
        uint64_t opened;
        uint8_t is_map = 0;
        size_t start = r->at;
        jj_mp_error e = mp_value(r, as_key, &opened, &is_map);
        if (e != JJ_MP_OK) {
            if (e == JJ_MP_NOMEM) r->status->error = JJ_MP_NOMEM;
            return e;
        }
        if (opened) {
            if (depth >= JJ_MSGPACK_MAX_DEPTH) return mp_fail(r, JJ_MP_DEPTH, start);
            if (depth == *stack_cap) {
                size_t cap = *stack_cap ? *stack_cap * 2 : 64;
                mp_frame *grown = realloc(*stack, cap * sizeof *grown);
                if (!grown) {
                    r->status->error = JJ_MP_NOMEM;
                    return JJ_MP_NOMEM;
                }
                *stack = grown;
                *stack_cap = cap;
            }
            (*stack)[depth].left = opened - 1;
            (*stack)[depth].is_map = is_map;
            depth++;
            as_key = is_map;
            continue;
        }
        /* the value is complete: separators, and closing what it completed */
        /* Every value leaves JJ_MP_VALUE_ROOM / 2 bytes of room at least (it reserved
         * JJ_MP_VALUE_ROOM and wrote at most half, or reserved again after a long
         * string), so one separator needs no check; each closing bracket does. */
        for (;;) {
            if (depth == 0) return JJ_MP_OK;
            mp_frame *f = &(*stack)[depth - 1];
            if (f->left > 0) {
                f->left--;
                if (f->is_map) {
                    /* left now counts the items after the one to read: a key has an odd
                     * number after it (its value, then whole pairs) */
                    as_key = (int)(f->left & 1);
                    *r->out->pos++ = as_key ? ',' : ':';
                } else {
                    as_key = 0;
                    *r->out->pos++ = ',';
                }
                break;
            }
            if (room(r->out, 2)) {
                r->status->error = JJ_MP_NOMEM;
                return JJ_MP_NOMEM;
            }
            *r->out->pos++ = f->is_map ? '}' : ']';
            depth--;
        }
    }
}

jj_mp_error jj_msgpack_to_json(const uint8_t *buf, size_t len, unsigned flags, jj_sink *out, jj_mp_status *status) {
    memset(status, 0, sizeof *status);
    mp_reader r = {buf, len, 0, flags, out, status};
    mp_frame *stack = NULL;
    size_t stack_cap = 0;
    jj_mp_error e = JJ_MP_OK;
    if (out->error) {
        status->error = JJ_MP_NOMEM;
        return JJ_MP_NOMEM;
    }
    if (len == 0 && !(flags & JJ_MP_STREAM)) return mp_fail(&r, JJ_MP_EMPTY, 0);
    while (r.at < len) {
        e = mp_document(&r, &stack, &stack_cap);
        if (e != JJ_MP_OK) break;
        if (flags & JJ_MP_STREAM) {
            if (jj_sink_put_byte(out, '\n')) {
                e = status->error = JJ_MP_NOMEM;
                break;
            }
        } else if (r.at < len) {
            e = mp_fail(&r, JJ_MP_TRAILING, r.at);
            break;
        }
    }
    free(stack);
    if (e == JJ_MP_OK && out->error) e = status->error = JJ_MP_NOMEM;
    return e;
}
