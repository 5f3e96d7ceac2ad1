/* jetjson: the JSON Canonicalization Scheme (jetjson_canonical.h): ECMAScript number
 * text, the UTF-16 key order, and the walk of a parsed tape that writes JCS. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format_double.h"
#include "jetjson_canonical.h"
#include "parser_internal.h"

/* ---- numbers ---- */

_Static_assert(JJ_ECMA_DOUBLE_BUF_SIZE >= JJ_DOUBLE_BUF_SIZE, "format_double.c stores whole 16-byte words");

size_t jj_format_double_ecma(double v, char *out) {
    if (v == 0) { /* +0 and -0 alike (step 2 of Number::toString) */
        out[0] = '0';
        return 1;
    }
    return jj_format_double_jcs(v, out);
}

int jj_canon_integer_ok(const char *text, size_t len) {
    /* the longest finite double's digits: 309, a sign, and the "e0" added below */
    char buf[JJ_CANON_INT_TEXT_MAX + 3];
    if (len == 0 || len > JJ_CANON_INT_TEXT_MAX) return 0;
    memcpy(buf, text, len);
    /* with an exponent the number parser gives the correctly rounded double of any
     * integer text, where it keeps long integers as text otherwise */
    memcpy(buf + len, "e0", 2);
    jj_number num;
    const uint8_t *end = jj_parse_number((const uint8_t *)buf, (const uint8_t *)buf + len + 2, &num);
    if (end != (const uint8_t *)buf + len + 2 || num.kind != JJ_NUM_DOUBLE || !isfinite(num.v.d)) return 0;
    char out[JJ_ECMA_DOUBLE_BUF_SIZE];
    return jj_format_double_ecma(num.v.d, out) == len && memcmp(out, text, len) == 0;
}

/* An integer of the tape: the safe ones at once, the others by their text. */
static int jj_canon_int64_ok(int64_t v) {
    uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    if (mag <= JJ_CANON_MAX_INT) return 1;
    char text[JJ_INT_MAX_CHARS];
    return jj_canon_integer_ok(text, jj_format_int64(v, text));
}

static int jj_canon_uint64_ok(uint64_t v) {
    char text[JJ_INT_MAX_CHARS];
    return jj_canon_integer_ok(text, jj_format_uint64(v, text));
}

/* ---- key order ---- */

int jj_utf16_compare(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen) {
    size_t n = alen < blen ? alen : blen, i = 0;
    while (n - i >= 8) {
        uint64_t wa, wb;
        memcpy(&wa, a + i, 8);
        memcpy(&wb, b + i, 8);
        if (wa != wb) break;
        i += 8;
    }
    while (i < n && a[i] == b[i]) i++;
    if (i == n) return (alen > blen) - (alen < blen);
    /* The bytes before i are equal, so the code points of both strings start at the same
     * places up to i: a[i] and b[i] are both lead bytes or both continuation bytes. UTF-8
     * byte order is code point order, which is UTF-16 order except between U+E000..U+FFFF
     * (lead bytes EE, EF) and U+10000 and above (F0..F4), whose surrogate pairs start with
     * units D800..DBFF: there the order turns around. A continuation byte differs under
     * equal lead bytes, where the two orders agree. */
    unsigned x = a[i], y = b[i];
    if (x >= 0xEE && y >= 0xEE && (x >= 0xF0) != (y >= 0xF0)) return x >= 0xF0 ? -1 : 1;
    return (int)x - (int)y;
}

/* ---- strings ---- */

/* An encoded surrogate (WTF-8, ED A0..BF xx) at s[i] (i < len). The parser takes them,
 * as json does with 'surrogatepass', but they are not Unicode text. */
static inline int jj_surrogate_at(const uint8_t *s, size_t len, size_t i) {
    return s[i] == 0xED && i + 1 < len && s[i + 1] >= 0xA0;
}

/* Text the parser kept as written (no backslash in it, no raw control character): it
 * needs no escape, only the surrogate check when it is not ASCII. memchr finds the
 * lead bytes ED (U+D000..U+DFFF) at memory speed. */
static int jj_has_surrogate(const uint8_t *s, size_t len) {
    const uint8_t *p = s, *end = s + len;
    while ((p = memchr(p, 0xED, (size_t)(end - p))) != NULL) {
        if (jj_surrogate_at(s, len, (size_t)(p - s))) return 1;
        p++;
    }
    return 0;
}

static inline unsigned jj_ctz32(uint32_t m) { /* m != 0 */
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctz(m);
#else
    unsigned k = 0;
    while (!(m & 1)) m >>= 1, k++;
    return k;
#endif
}

/* Pieces of unescaped text are escaped this many bytes at a time, so the room reserved
 * for the worst case (6 bytes a byte) stays small next to the text. */
#define JJ_CANON_PIECE 4096

/* The literal of unescaped UTF-8 text: quotes, the escapes of JSON.stringify. */
static jj_canon_status jj_put_string(jj_sink *out, const uint8_t *s, size_t len, unsigned flags) {
    if (flags & JJ_STR_IN_INPUT) {
        if (!(flags & JJ_STR_ASCII) && jj_has_surrogate(s, len)) return JJ_CANON_SURROGATE;
        if (jj_sink_reserve(out, len + 2)) return JJ_CANON_NOMEM;
        uint8_t *o = out->pos;
        o[0] = '"';
        memcpy(o + 1, s, len);
        o[len + 1] = '"';
        out->pos = o + len + 2;
        return JJ_CANON_OK;
    }
    if (jj_sink_put_byte(out, '"')) return JJ_CANON_NOMEM;
    size_t i = 0;
    while (i < len) {
        size_t stop = len - i > JJ_CANON_PIECE ? i + JJ_CANON_PIECE : len;
        /* 6 bytes a byte, and a block copied whole past the end of what it keeps */
        if (jj_sink_reserve(out, 6 * (stop - i) + 16)) return JJ_CANON_NOMEM;
        uint8_t *o = out->pos;
        while (i < stop) {
            if (stop - i >= 16) {
                /* bit k: byte k is '"', '\\', a control character or not ASCII */
                uint32_t m = jj_escape_flags16(s + i, 0);
                memcpy(o, s + i, 16);
                if (!m) {
                    o += 16;
                    i += 16;
                    continue;
                }
                unsigned k = jj_ctz32(m);
                o += k;
                i += k;
            }
            uint8_t c = s[i];
            if (c < 0x80 && jj_escape_letter[c]) {
                o = jj_write_escape_ascii(o, c);
            } else {
                if (jj_surrogate_at(s, len, i)) {
                    out->pos = o;
                    return JJ_CANON_SURROGATE;
                }
                *o++ = c;
            }
            i++;
        }
        out->pos = o;
    }
    return jj_sink_put_byte(out, '"') ? JJ_CANON_NOMEM : JJ_CANON_OK;
}

static inline const uint8_t *jj_string_text(const jj_parser *p, const uint8_t *input, uint64_t w) {
    uint64_t off = jj_tape_str_offset(w);
    return (jj_tape_str_flags(w) & JJ_STR_IN_INPUT ? input : p->strings) + off;
}

/* ---- scalars ---- */

static jj_canon_status jj_put_scalar(jj_sink *out, const jj_parser *p, const uint8_t *input, size_t t) {
    const uint64_t *tape = p->tape;
    uint64_t w = tape[t];
    switch (jj_tape_type(w)) {
    case JJ_NULL: return jj_sink_put(out, "null", 4) ? JJ_CANON_NOMEM : JJ_CANON_OK;
    case JJ_TRUE: return jj_sink_put(out, "true", 4) ? JJ_CANON_NOMEM : JJ_CANON_OK;
    case JJ_FALSE: return jj_sink_put(out, "false", 5) ? JJ_CANON_NOMEM : JJ_CANON_OK;
    case JJ_INT64: {
        int64_t v = (int64_t)tape[t + 1];
        if (!jj_canon_int64_ok(v)) return JJ_CANON_INT_RANGE;
        if (jj_sink_reserve(out, JJ_INT_MAX_CHARS)) return JJ_CANON_NOMEM;
        out->pos += jj_format_int64(v, (char *)out->pos);
        return JJ_CANON_OK;
    }
    case JJ_UINT64: {
        uint64_t v = tape[t + 1];
        if (!jj_canon_uint64_ok(v)) return JJ_CANON_INT_RANGE;
        if (jj_sink_reserve(out, JJ_INT_MAX_CHARS)) return JJ_CANON_NOMEM;
        out->pos += jj_format_uint64(v, (char *)out->pos);
        return JJ_CANON_OK;
    }
    case JJ_BIGINT: {
        /* the digits as written: accepted ones are at most 309 digits and a sign */
        const char *text = (const char *)input + jj_tape_payload(w);
        size_t len = (size_t)tape[t + 1];
        if (!jj_canon_integer_ok(text, len)) return JJ_CANON_INT_RANGE;
        return jj_sink_put(out, text, len) ? JJ_CANON_NOMEM : JJ_CANON_OK;
    }
    case JJ_DOUBLE: {
        double d;
        memcpy(&d, &tape[t + 1], sizeof d);
        if (!isfinite(d)) return JJ_CANON_NOT_FINITE;
        if (jj_sink_reserve(out, JJ_ECMA_DOUBLE_BUF_SIZE)) return JJ_CANON_NOMEM;
        out->pos += jj_format_double_ecma(d, (char *)out->pos);
        return JJ_CANON_OK;
    }
    case JJ_STRING:
        return jj_put_string(out, jj_string_text(p, input, w), jj_tape_str_bytes(tape[t + 1]),
                             jj_tape_str_flags(w));
    default: return JJ_CANON_PARSE; /* not a scalar of a finished tape: never here */
    }
}

/* ---- the walk ---- */

/* A member of an open object: its key's text and the tape index of the key (the value
 * follows it, two words on). */
typedef struct jj_member {
    const uint8_t *key;
    size_t len;
    size_t t;
} jj_member;

/* An open container: arrays walk the tape from `next` to `end` (the END word); objects
 * walk their sorted members members[next..end), which start at `start`. */
typedef struct jj_canon_frame {
    size_t next, end, start;
    int object;
} jj_canon_frame;

static inline int jj_member_before(const jj_member *a, const jj_member *b) {
    int c = jj_utf16_compare(a->key, a->len, b->key, b->len);
    return c < 0 || (c == 0 && a->t < b->t);
}

static int jj_member_cmp(const void *pa, const void *pb) {
    const jj_member *a = pa, *b = pb;
    int c = jj_utf16_compare(a->key, a->len, b->key, b->len);
    if (c) return c;
    return (a->t > b->t) - (a->t < b->t);
}

/* Small objects (most of them) by insertion: no call per comparison. */
#define JJ_INSERTION_MAX 12

static void jj_sort_members(jj_member *m, size_t n) {
    if (n > JJ_INSERTION_MAX) {
        qsort(m, n, sizeof *m, jj_member_cmp);
        return;
    }
    for (size_t i = 1; i < n; i++) {
        jj_member x = m[i];
        size_t j = i;
        while (j > 0 && jj_member_before(&x, &m[j - 1])) {
            m[j] = m[j - 1];
            j--;
        }
        m[j] = x;
    }
}

typedef struct jj_canon_walk {
    const jj_parser *p;
    const uint8_t *input;
    jj_sink *out;
    jj_canon_frame *frames;
    size_t depth, frames_cap;
    jj_member *members;
    size_t members_len, members_cap;
    size_t fault;
} jj_canon_walk;

static int jj_grow(void **buf, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t cap2 = *cap ? *cap : 16;
    while (cap2 < need) {
        if (cap2 > SIZE_MAX / 2 / size) return -1;
        cap2 *= 2;
    }
    void *b = realloc(*buf, cap2 * size);
    if (!b) return -1;
    *buf = b;
    *cap = cap2;
    return 0;
}

/* Opens the container at tape index t: writes its bracket, and for an object gathers and
 * sorts its members (refusing a key named twice). */
static jj_canon_status jj_open(jj_canon_walk *c, size_t t) {
    const uint64_t *tape = c->p->tape;
    uint64_t w = tape[t];
    size_t end = (size_t)jj_tape_payload(w), count = (size_t)tape[t + 1];
    int object = jj_tape_type(w) == JJ_OBJECT;
    if (count == 0) return jj_sink_put(c->out, object ? "{}" : "[]", 2) ? JJ_CANON_NOMEM : JJ_CANON_OK;
    if (jj_grow((void **)&c->frames, &c->frames_cap, c->depth + 1, sizeof *c->frames)) return JJ_CANON_NOMEM;
    jj_canon_frame *f = &c->frames[c->depth];
    f->object = object;
    if (!object) {
        f->next = f->start = t + 2;
        f->end = end;
    } else {
        size_t start = c->members_len;
        if (count > SIZE_MAX - start ||
            jj_grow((void **)&c->members, &c->members_cap, start + count, sizeof *c->members))
            return JJ_CANON_NOMEM;
        jj_member *m = c->members + start;
        size_t k = t + 2;
        for (size_t i = 0; i < count; i++) {
            m[i].key = jj_string_text(c->p, c->input, tape[k]);
            m[i].len = jj_tape_str_bytes(tape[k + 1]);
            m[i].t = k;
            k = jj_tape_skip(tape, k + 2);
        }
        jj_sort_members(m, count);
        for (size_t i = 1; i < count; i++) {
            if (m[i].len == m[i - 1].len && memcmp(m[i].key, m[i - 1].key, m[i].len) == 0) {
                c->fault = m[i].t > m[i - 1].t ? m[i].t : m[i - 1].t;
                return JJ_CANON_DUPLICATE_KEY;
            }
        }
        c->members_len = start + count;
        f->next = f->start = start;
        f->end = start + count;
    }
    c->depth++;
    return jj_sink_put_byte(c->out, object ? '{' : '[') ? JJ_CANON_NOMEM : JJ_CANON_OK;
}

/* The value at tape index t: a scalar is written, a container opened. */
static jj_canon_status jj_value(jj_canon_walk *c, size_t t) {
    jj_type type = jj_tape_type(c->p->tape[t]);
    jj_canon_status st = type == JJ_OBJECT || type == JJ_ARRAY ? jj_open(c, t)
                                                                : jj_put_scalar(c->out, c->p, c->input, t);
    if (st != JJ_CANON_OK && st != JJ_CANON_DUPLICATE_KEY) c->fault = t;
    return st;
}

static jj_canon_status jj_walk(jj_canon_walk *c) {
    jj_canon_status st = jj_value(c, 0);
    while (st == JJ_CANON_OK && c->depth > 0) {
        jj_canon_frame *f = &c->frames[c->depth - 1];
        if (f->next == f->end) { /* the container is done */
            if (f->object) c->members_len = f->start;
            c->depth--;
            if (jj_sink_put_byte(c->out, f->object ? '}' : ']')) st = JJ_CANON_NOMEM;
            continue;
        }
        if (f->next != f->start && jj_sink_put_byte(c->out, ',')) return JJ_CANON_NOMEM;
        size_t t;
        if (f->object) {
            const jj_member *m = &c->members[f->next++];
            st = jj_value(c, m->t); /* the key: a string */
            if (st == JJ_CANON_OK && jj_sink_put_byte(c->out, ':')) st = JJ_CANON_NOMEM;
            if (st != JJ_CANON_OK) break;
            t = m->t + 2;
        } else {
            t = f->next;
            f->next = jj_tape_skip(c->p->tape, t);
        }
        /* f may move: jj_open grows the frames */
        st = jj_value(c, t);
    }
    return st;
}

jj_canon_status jj_canonical_write(const jj_parser *p, const uint8_t *input, jj_sink *out, size_t *fault) {
    jj_canon_walk c = {p, input, out, NULL, 0, 0, NULL, 0, 0, 0};
    jj_canon_status st = jj_walk(&c);
    if (st == JJ_CANON_OK && out->error) st = JJ_CANON_NOMEM;
    free(c.frames);
    free(c.members);
    if (fault) *fault = c.fault;
    return st;
}

jj_canon_status jj_canonicalize(jj_parser *p, const uint8_t *buf, size_t len, jj_sink *out, size_t *fault) {
    if (fault) *fault = 0;
    if (jj_parse(p, buf, len) != JJ_OK) return JJ_CANON_PARSE;
    return jj_canonical_write(p, buf, out, fault);
}

const char *jj_canon_status_name(jj_canon_status status) {
    switch (status) {
    case JJ_CANON_OK: return "ok";
    case JJ_CANON_NOMEM: return "out of memory";
    case JJ_CANON_NOT_FINITE: return "NaN and Infinity have no canonical JSON form";
    case JJ_CANON_INT_RANGE: return "integer beyond 2**53 - 1 in magnitude has no exact canonical JSON form";
    case JJ_CANON_SURROGATE: return "string with a lone surrogate has no canonical JSON form";
    case JJ_CANON_DUPLICATE_KEY: return "duplicate object key";
    case JJ_CANON_PARSE: return "not valid JSON";
    }
    return "unknown";
}
