/* jetjson._tool_format: the command line's json.tool output without building objects.
 *
 * json.tool writes json.dumps(json.load(f), ...) of what it reads. From the engine's
 * structural index, this writes the same bytes in chunks to a write callable, provided
 * the document has nothing the index walk cannot reproduce; otherwise it returns False
 * before writing anything and the caller takes the object path. What it reproduces:
 *   - the layouts of indent=N/str, indent=None and separators=(',', ':');
 *   - strings re-encoded as json encodes them (escapes decoded, then \uXXXX for
 *     non-ASCII and DEL under ensure_ascii, json's short escapes, lowercase hex);
 *   - numbers as Python spells them: "-0" -> "0", floats through float.__repr__'s
 *     formatting (1E5 -> 100000.0), an overflowing float -> Infinity;
 * what it leaves to the object path (returns False):
 *   - invalid documents (json's error text comes from the object path), input json would
 *     decode first (UTF-16/32, a BOM: the request frame says so), deep nesting, long ints;
 *   - duplicate keys in an object (json keeps the last value at the first place) and keys
 *     with escapes (sort_keys sorts the others: raw UTF-8 sorts as str does);
 *   - a lone surrogate escape without ensure_ascii (json.tool fails writing it).
 * The input must also be text json.tool's strict UTF-8 read accepts (no encoded
 * surrogates): the caller checks that cheaply. */
#include <math.h>
#include <stdlib.h>

#include "jetjson_write.h"
#include "request.h"
#include "text/tool.h"

/* Chunks handed to write() are about this big. */
#define JJ_TOOL_CHUNK (1u << 20)
/* Windows of a large top-level array (tool_windows.c): the input held at a time. */
#define JJ_TOOL_WINDOW (4 << 20)


typedef struct jj_key {
    const uint8_t *p; /* the key's bytes between its quotes */
    size_t len;
} jj_key;

static inline int jj_space(uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/* End of the token starting at idx[i] (its text stops before the next structural). */
static inline size_t jj_tok_end(const uint8_t *in, size_t len, const uint32_t *idx, size_t n, size_t i) {
    size_t next = i + 1 < n ? idx[i + 1] : len;
    while (next > idx[i] && jj_space(in[next - 1])) next--;
    return next;
}

static int jj_key_cmp(const void *a, const void *b) {
    const jj_key *x = a, *y = b;
    size_t m = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->p, y->p, m);
    if (c) return c;
    return (x->len > y->len) - (x->len < y->len);
}


/* 1 when the keys are distinct and in order, 2 distinct and out of order, 0 with a
 * duplicate; -1 no memory. */
/* Raw UTF-8 bytes compare as the code points do, so byte order is str order. */
static int jj_keys_ok(jj_key *keys, size_t k) {
    int in_order = 1;
    for (size_t j = 1; j < k && in_order; j++) in_order = jj_key_cmp(&keys[j - 1], &keys[j]) < 0;
    if (in_order) return 1;
    if (k <= 16) { /* small objects (most): every pair, no allocation */
        for (size_t a = 1; a < k; a++)
            for (size_t b = 0; b < a; b++)
                if (keys[a].len == keys[b].len && memcmp(keys[a].p, keys[b].p, keys[a].len) == 0) return 0;
        return 2;
    }
    jj_key *copy = PyMem_Malloc(k * sizeof *copy);
    if (!copy) return -1;
    memcpy(copy, keys, k * sizeof *copy);
    qsort(copy, k, sizeof *copy, jj_key_cmp);
    int ok = 1;
    for (size_t j = 1; j < k && ok; j++) ok = jj_key_cmp(&copy[j - 1], &copy[j]) != 0;
    PyMem_Free(copy);
    return ok ? 2 : 0;
}

/* A \uD800-\uDFFF escape in in[from..to). */
static int jj_has_surrogate_escape(const uint8_t *in, size_t from, size_t to) {
    for (size_t j = from; j + 5 < to; j++) {
        if (in[j] != '\\') continue;
        if (in[j + 1] == 'u' && (in[j + 2] == 'd' || in[j + 2] == 'D') && strchr("89abcdefABCDEF", in[j + 3]))
            return 1;
        j++; /* skip the escaped character (it may be a backslash) */
    }
    return 0;
}


static int jj_size_cmp(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

static int jj_sort_list_has(const jj_sort_list *l, size_t i) {
    size_t lo = 0, hi = l->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->at[mid] == i) return 1;
        if (l->at[mid] < i) lo = mid + 1;
        else hi = mid;
    }
    return 0;
}

/* The check pass: 1 when the walk reproduces json.tool's bytes, 0 when not, -1 error.
 * With sort_keys, the objects whose keys are out of order are listed in `sorts`. */
int jj_tool_check(const uint8_t *in, size_t len, const uint32_t *idx, size_t n, size_t max_depth,
                         int sort_keys, int ensure_ascii, jj_sort_list *sorts) {
    size_t kcap = 64, kn = 0, sn = 0;
    jj_key *keys = PyMem_Malloc(kcap * sizeof *keys);
    /* per open container: where its keys start in keys[], and its index position */
    size_t *starts = PyMem_Malloc(2 * (max_depth + 1) * sizeof *starts);
    int result = 1;
    if (!keys || !starts) {
        PyErr_NoMemory();
        result = -1;
        goto done;
    }
    for (size_t i = 0; i < n && result == 1; i++) {
        uint8_t c = in[idx[i]];
        if (c == '{' || c == '[') { /* arrays hold no keys: their entry keeps the pops balanced */
            starts[2 * sn] = kn;
            starts[2 * sn + 1] = i;
            sn++;
        } else if (c == '}' || c == ']') {
            sn--;
            size_t from = starts[2 * sn];
            if (c == '}' && kn - from > 1) {
                int ok = jj_keys_ok(keys + from, kn - from);
                if (ok < 0) {
                    PyErr_NoMemory();
                    result = -1;
                } else if (!ok) {
                    result = 0;
                } else if (ok == 2 && sort_keys) {
                    if (sorts->len == sorts->cap) {
                        size_t cap = sorts->cap ? 2 * sorts->cap : 64;
                        size_t *grown = PyMem_Realloc(sorts->at, cap * sizeof *grown);
                        if (!grown) {
                            PyErr_NoMemory();
                            result = -1;
                            break;
                        }
                        sorts->at = grown;
                        sorts->cap = cap;
                    }
                    sorts->at[sorts->len++] = starts[2 * sn + 1];
                }
            }
            kn = from;
        } else if (c == '"') {
            size_t end = jj_tok_end(in, len, idx, n, i);
            int is_key = i + 1 < n && in[idx[i + 1]] == ':';
            const uint8_t *bs = memchr(in + idx[i] + 1, '\\', end - idx[i] - 2);
            if (is_key) {
                if (bs) {
                    result = 0; /* escaped keys would need decoding to compare */
                    break;
                }
                if (kn == kcap) {
                    jj_key *grown = PyMem_Realloc(keys, 2 * kcap * sizeof *keys);
                    if (!grown) {
                        PyErr_NoMemory();
                        result = -1;
                        break;
                    }
                    keys = grown;
                    kcap *= 2;
                }
                keys[kn].p = in + idx[i] + 1;
                keys[kn].len = end - idx[i] - 2;
                kn++;
            } else if (bs && !ensure_ascii && jj_has_surrogate_escape(in, idx[i] + 1, end - 1)) {
                result = 0;
            }
        }
    }
    if (result == 1 && sorts->len > 1) qsort(sorts->at, sorts->len, sizeof *sorts->at, jj_size_cmp);
done:
    PyMem_Free(keys);
    PyMem_Free(starts);
    return result;
}


int jj_chunks_flush(jj_chunks *s) {
    if (s->len == 0) return 0;
    PyObject *chunk = PyBytes_FromStringAndSize((const char *)s->buf, (Py_ssize_t)s->len);
    if (!chunk) return -1;
    PyObject *r = PyObject_CallOneArg(s->write, chunk);
    Py_DECREF(chunk);
    if (!r) return -1;
    Py_DECREF(r);
    s->len = 0;
    return 0;
}

/* Room for `need` more bytes: flushes a full chunk, grows for a single huge token. */
static int jj_chunks_room(jj_chunks *s, size_t need) {
    if (s->len + need <= s->cap) return 0;
    if (jj_chunks_flush(s) < 0) return -1;
    if (need <= s->cap) return 0;
    uint8_t *grown = PyMem_Realloc(s->buf, need);
    if (!grown) {
        PyErr_NoMemory();
        return -1;
    }
    s->buf = grown;
    s->cap = need;
    return 0;
}

int jj_put(jj_chunks *s, const char *text, size_t k) {
    if (jj_chunks_room(s, k) < 0) return -1;
    memcpy(s->buf + s->len, text, k);
    s->len += k;
    return 0;
}

static const char jj_hex[] = "0123456789abcdef";

static inline uint8_t *jj_put_u(uint8_t *o, unsigned cp) {
    o[0] = '\\';
    o[1] = 'u';
    o[2] = (uint8_t)jj_hex[(cp >> 12) & 15];
    o[3] = (uint8_t)jj_hex[(cp >> 8) & 15];
    o[4] = (uint8_t)jj_hex[(cp >> 4) & 15];
    o[5] = (uint8_t)jj_hex[cp & 15];
    return o + 6;
}

static inline unsigned jj_hex4(const uint8_t *p) {
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        uint8_t c = p[k];
        v = v * 16 + (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

/* One code point as json's encoder writes it. */
static inline uint8_t *jj_put_cp(uint8_t *o, unsigned cp, int ensure_ascii) {
    switch (cp) {
    case '"': *o++ = '\\'; *o++ = '"'; return o;
    case '\\': *o++ = '\\'; *o++ = '\\'; return o;
    case '\n': *o++ = '\\'; *o++ = 'n'; return o;
    case '\r': *o++ = '\\'; *o++ = 'r'; return o;
    case '\t': *o++ = '\\'; *o++ = 't'; return o;
    case '\b': *o++ = '\\'; *o++ = 'b'; return o;
    case '\f': *o++ = '\\'; *o++ = 'f'; return o;
    default: break;
    }
    if (cp < 0x20) return jj_put_u(o, cp);
    if (ensure_ascii) {
        if (cp < 0x7f) {
            *o++ = (uint8_t)cp;
        } else if (cp < 0x10000) {
            o = jj_put_u(o, cp);
        } else {
            cp -= 0x10000;
            o = jj_put_u(o, 0xd800 | (cp >> 10));
            o = jj_put_u(o, 0xdc00 | (cp & 0x3ff));
        }
        return o;
    }
    /* UTF-8 (lone surrogates were sent to the object path by the check) */
    if (cp < 0x80) {
        *o++ = (uint8_t)cp;
    } else if (cp < 0x800) {
        *o++ = (uint8_t)(0xc0 | (cp >> 6));
        *o++ = (uint8_t)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        *o++ = (uint8_t)(0xe0 | (cp >> 12));
        *o++ = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
        *o++ = (uint8_t)(0x80 | (cp & 0x3f));
    } else {
        *o++ = (uint8_t)(0xf0 | (cp >> 18));
        *o++ = (uint8_t)(0x80 | ((cp >> 12) & 0x3f));
        *o++ = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
        *o++ = (uint8_t)(0x80 | (cp & 0x3f));
    }
    return o;
}

/* A string token in[from..to) (quotes included, valid JSON) as json writes its value.
 * At most 6 output bytes per input byte (DEL -> \u007f), plus the quotes. */
static int jj_write_string(jj_chunks *s, const uint8_t *in, size_t from, size_t to, int ensure_ascii) {
    const uint8_t *p = in + from + 1, *end = in + to - 1;
    int plain = memchr(p, '\\', (size_t)(end - p)) == NULL;
    if (plain && ensure_ascii) {
        /* no early exit: the loop vectorizes, and strings are short. Bytes 0x7f..0xfd
         * (DEL and UTF-8) set the high bit once incremented; 0xfe and 0xff never occur
         * in the UTF-8 the engine validated. */
        uint8_t high = 0;
        for (const uint8_t *q = p; q < end; q++) high |= (uint8_t)(*q + 1) & 0x80; /* >= 0x7f */
        plain = high == 0;
    }
    size_t n = to - from;
    if (jj_chunks_room(s, plain ? n : 6 * n + 2) < 0) return -1;
    uint8_t *o = s->buf + s->len;
    if (plain) {
        memcpy(o, in + from, n);
        s->len += n;
        return 0;
    }
    *o++ = '"';
    while (p < end) {
        unsigned cp;
        uint8_t c = *p;
        if (c == '\\') {
            uint8_t e = p[1];
            p += 2;
            switch (e) {
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            case 'u':
                cp = jj_hex4(p);
                p += 4;
                /* a high surrogate followed by an escaped low one is one code point (json) */
                if (cp >= 0xd800 && cp <= 0xdbff && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
                    unsigned lo = jj_hex4(p + 2);
                    if (lo >= 0xdc00 && lo <= 0xdfff) {
                        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                        p += 6;
                    }
                }
                break;
            default: cp = e; break; /* " \ / */
            }
        } else if (c < 0x80) {
            cp = c;
            p++;
        } else if (c < 0xe0) {
            cp = ((unsigned)(c & 0x1f) << 6) | (p[1] & 0x3f);
            p += 2;
        } else if (c < 0xf0) {
            cp = ((unsigned)(c & 0x0f) << 12) | ((unsigned)(p[1] & 0x3f) << 6) | (p[2] & 0x3f);
            p += 3;
        } else {
            cp = ((unsigned)(c & 0x07) << 18) | ((unsigned)(p[1] & 0x3f) << 12) | ((unsigned)(p[2] & 0x3f) << 6) |
                 (p[3] & 0x3f);
            p += 4;
        }
        o = jj_put_cp(o, cp, ensure_ascii);
    }
    *o++ = '"';
    s->len = (size_t)(o - s->buf);
    return 0;
}

/* A number token as json writes the int or float json.loads made of it. */
static int jj_write_number(jj_chunks *s, const uint8_t *in, size_t from, size_t to) {
    size_t n = to - from;
    const uint8_t *t = in + from;
    int is_float = memchr(t, '.', n) || memchr(t, 'e', n) || memchr(t, 'E', n);
    if (!is_float) {
        if (n == 2 && t[0] == '-' && t[1] == '0') n = 1, t = (const uint8_t *)"0"; /* int("-0") == 0 */
        if (jj_chunks_room(s, n) < 0) return -1;
        memcpy(s->buf + s->len, t, n);
        s->len += n;
        return 0;
    }
    jj_number num;
    if (!jj_parse_number(t, t + n, &num) || num.kind != JJ_NUM_DOUBLE) { /* validated: cannot happen */
        PyErr_SetString(PyExc_SystemError, "jetjson: a validated number did not parse");
        return -1;
    }
    if (isinf(num.v.d)) {
        const char *inf = num.v.d > 0 ? "Infinity" : "-Infinity";
        return jj_put(s, inf, strlen(inf));
    }
    if (jj_chunks_room(s, JJ_DOUBLE_BUF_SIZE) < 0) return -1;
    s->len += jj_format_double_repr(num.v.d, (char *)s->buf + s->len); /* float.__repr__ */
    return 0;
}


/* The item separator's line break and the indentation of `depth` (JJ_MODE_INDENT). */
int jj_write_break(jj_chunks *s, const jj_layout *l, size_t depth) {
    size_t need = 1 + depth * l->unit_len;
    if (jj_chunks_room(s, need) < 0) return -1;
    uint8_t *o = s->buf + s->len;
    *o++ = '\n';
    if (l->unit_len == 1) {
        memset(o, l->unit[0], depth);
        o += depth;
    } else {
        for (size_t d = 0; d < depth; d++, o += l->unit_len) memcpy(o, l->unit, l->unit_len);
    }
    s->len = (size_t)(o - s->buf);
    return 0;
}


static int jj_write_scalar(jj_chunks *s, const jj_tool_doc *d, size_t i) {
    size_t from = d->idx[i], to = jj_tok_end(d->in, d->len, d->idx, d->n, i);
    switch (d->in[from]) {
    case '"': return jj_write_string(s, d->in, from, to, d->ensure_ascii);
    case 't':
    case 'f':
    case 'n': return jj_put(s, (const char *)d->in + from, to - from);
    default: return jj_write_number(s, d->in, from, to);
    }
}

/* json's item separator: ",\n" + indentation, ", " or ",". */
int jj_write_comma(jj_chunks *s, const jj_layout *l, size_t depth) {
    if (l->mode == JJ_MODE_INDENT) return jj_put(s, ",", 1) < 0 ? -1 : jj_write_break(s, l, depth);
    return l->mode == JJ_MODE_LINE ? jj_put(s, ", ", 2) : jj_put(s, ",", 1);
}

static int jj_write_colon(jj_chunks *s, const jj_layout *l) {
    return l->mode == JJ_MODE_COMPACT ? jj_put(s, ":", 1) : jj_put(s, ": ", 2);
}

/* The index position just past the value that starts at i. */
static size_t jj_skip(const jj_tool_doc *d, size_t i) {
    uint8_t c = d->in[d->idx[i]];
    if (c != '{' && c != '[') return i + 1;
    size_t depth = 0;
    for (;; i++) {
        c = d->in[d->idx[i]];
        if (c == '{' || c == '[') depth++;
        else if ((c == '}' || c == ']') && --depth == 0) return i + 1;
    }
}

static int jj_write_value(jj_chunks *s, const jj_tool_doc *d, size_t i, size_t depth, size_t *next);

typedef struct jj_member {
    jj_key key;
    size_t at; /* index position of the key */
} jj_member;

static int jj_member_cmp(const void *a, const void *b) {
    return jj_key_cmp(&((const jj_member *)a)->key, &((const jj_member *)b)->key);
}

/* An object whose keys are out of order, written with them sorted (sort_keys): its
 * members are found by skipping values, sorted by key, then written one by one. The
 * check pass made sure the keys are distinct and unescaped (byte order is str order). */
static int jj_write_sorted(jj_chunks *s, const jj_tool_doc *d, size_t open, size_t depth, size_t *next) {
    size_t count = 0, cap = 16, i = open + 1;
    jj_member *m = PyMem_Malloc(cap * sizeof *m);
    if (!m) {
        PyErr_NoMemory();
        return -1;
    }
    for (;;) {
        if (count == cap) {
            jj_member *grown = PyMem_Realloc(m, 2 * cap * sizeof *m);
            if (!grown) {
                PyMem_Free(m);
                PyErr_NoMemory();
                return -1;
            }
            m = grown;
            cap *= 2;
        }
        size_t end = jj_tok_end(d->in, d->len, d->idx, d->n, i);
        m[count].key.p = d->in + d->idx[i] + 1;
        m[count].key.len = end - d->idx[i] - 2;
        m[count].at = i;
        count++;
        i = jj_skip(d, i + 2); /* key, ':', value */
        if (d->in[d->idx[i]] == '}') break;
        i++; /* ',' */
    }
    *next = i + 1;
    qsort(m, count, sizeof *m, jj_member_cmp);
    int rc = jj_put(s, "{", 1);
    if (rc == 0 && d->l->mode == JJ_MODE_INDENT) rc = jj_write_break(s, d->l, depth + 1);
    for (size_t k = 0; k < count && rc == 0; k++) {
        size_t after;
        if (k > 0) rc = jj_write_comma(s, d->l, depth + 1);
        if (rc == 0) rc = jj_write_scalar(s, d, m[k].at);
        if (rc == 0) rc = jj_write_colon(s, d->l);
        if (rc == 0) rc = jj_write_value(s, d, m[k].at + 2, depth + 1, &after);
    }
    if (rc == 0 && d->l->mode == JJ_MODE_INDENT) rc = jj_write_break(s, d->l, depth);
    if (rc == 0) rc = jj_put(s, "}", 1);
    PyMem_Free(m);
    return rc;
}

/* The value at index position i (at nesting `depth`), for members of sorted objects:
 * recursion is bounded by JJ_TOOL_MAX_DEPTH. */
static int jj_write_value(jj_chunks *s, const jj_tool_doc *d, size_t i, size_t depth, size_t *next) {
    uint8_t c = d->in[d->idx[i]];
    if (c != '{' && c != '[') {
        *next = i + 1;
        return jj_write_scalar(s, d, i);
    }
    if (d->in[d->idx[i + 1]] == (uint8_t)(c + 2)) { /* empty: {} or [] */
        char pair[2] = {(char)c, (char)(c + 2)};
        *next = i + 2;
        return jj_put(s, pair, 2);
    }
    if (c == '{' && jj_sort_list_has(d->sorts, i)) return jj_write_sorted(s, d, i, depth, next);
    int rc = jj_put(s, (const char *)&c, 1);
    if (rc == 0 && d->l->mode == JJ_MODE_INDENT) rc = jj_write_break(s, d->l, depth + 1);
    i++;
    for (int first = 1; rc == 0; first = 0) {
        uint8_t at = d->in[d->idx[i]];
        if (at == '}' || at == ']') {
            if (d->l->mode == JJ_MODE_INDENT) rc = jj_write_break(s, d->l, depth);
            if (rc == 0) rc = jj_put(s, (const char *)&at, 1);
            *next = i + 1;
            break;
        }
        if (!first) {
            rc = jj_write_comma(s, d->l, depth + 1);
            i++; /* the ',' */
        }
        if (rc == 0 && c == '{') {
            rc = jj_write_scalar(s, d, i);
            if (rc == 0) rc = jj_write_colon(s, d->l);
            i += 2;
        }
        if (rc == 0) rc = jj_write_value(s, d, i, depth + 1, &i);
    }
    return rc;
}

/* The write pass: the document in json.dumps' layout, to the sink. One loop over the
 * index; an object to sort is written by jj_write_sorted (recursively). */
int jj_tool_write_value(jj_chunks *s, const jj_tool_doc *d, size_t depth) {
    const uint8_t *in = d->in;
    const uint32_t *idx = d->idx;
    const jj_layout *l = d->l;
    size_t n = d->n;
    int indent = l->mode == JJ_MODE_INDENT;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = in[idx[i]];
        int rc = 0;
        switch (c) {
        case '{':
        case '[':
            if (i + 1 < n && in[idx[i + 1]] == (uint8_t)(c + 2)) { /* empty: {} or [] */
                char pair[2] = {(char)c, (char)(c + 2)};
                rc = jj_put(s, pair, 2);
                i++;
            } else if (c == '{' && d->sorts->len && jj_sort_list_has(d->sorts, i)) {
                size_t next;
                rc = jj_write_sorted(s, d, i, depth, &next);
                i = next - 1;
            } else {
                rc = jj_put(s, (const char *)&c, 1);
                depth++;
                if (rc == 0 && indent) rc = jj_write_break(s, l, depth);
            }
            break;
        case '}':
        case ']':
            depth--;
            if (indent) rc = jj_write_break(s, l, depth);
            if (rc == 0) rc = jj_put(s, (const char *)&c, 1);
            break;
        case ',': rc = jj_write_comma(s, l, depth); break;
        case ':': rc = jj_write_colon(s, l); break;
        default: rc = jj_write_scalar(s, d, i); break;
        }
        if (rc < 0) return -1;
    }
    return 0;
}

/* The whole document and json.tool's final newline, flushed. */
static int jj_tool_write(jj_chunks *s, const jj_tool_doc *d) {
    if (jj_tool_write_value(s, d, 0) < 0 || jj_put(s, "\n", 1) < 0) return -1;
    return jj_chunks_flush(s);
}

static const char *jj_tool_kwlist[] = {"data",      "write",   "mode",   "indent", "ensure_ascii",
                                        "sort_keys", "release", "window", NULL};

/* _tool_format(data, write, mode, indent, ensure_ascii, sort_keys, release=None,
 *              window=4 MiB) -> bool or None
 * mode: "indent" (indent: int spaces or str), "line" or "compact". True when the output
 * (with json.tool's final newline) was written through write(bytes); False when the
 * document needs the object path, nothing written then. With release (a callable taking
 * (start, stop) byte offsets of input it may give back), a top-level array is read in
 * windows of `window` bytes (tool_windows.c), and None means "not an array": the
 * caller checks the text and asks again without release. */
PyObject *jj_tool_format(PyObject *module, PyObject *args, PyObject *kwargs) {
    PyObject *data, *write, *indent, *release = Py_None;
    const char *mode_name;
    int ensure_ascii, sort_keys;
    Py_ssize_t window = JJ_TOOL_WINDOW;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOsOpp|On:_tool_format", (char **)jj_tool_kwlist, &data, &write,
                                     &mode_name, &indent, &ensure_ascii, &sort_keys, &release, &window))
        return NULL;
    if (window < 1) return PyErr_Format(PyExc_ValueError, "window must be positive");
    jj_layout l = {JJ_MODE_INDENT, NULL, 0};
    if (strcmp(mode_name, "line") == 0) l.mode = JJ_MODE_LINE;
    else if (strcmp(mode_name, "compact") == 0) l.mode = JJ_MODE_COMPACT;
    else if (strcmp(mode_name, "indent") != 0) return PyErr_Format(PyExc_ValueError, "unknown mode %s", mode_name);
    PyObject *unit = NULL;
    if (l.mode == JJ_MODE_INDENT) {
        if (PyLong_Check(indent)) {
            Py_ssize_t k = PyLong_AsSsize_t(indent);
            if (k == -1 && PyErr_Occurred()) return NULL;
            if (k < 0) k = 0;
            unit = PyBytes_FromStringAndSize(NULL, k);
            if (unit) memset(PyBytes_AS_STRING(unit), ' ', (size_t)k);
        } else if (PyUnicode_Check(indent)) {
            unit = PyUnicode_AsUTF8String(indent);
        } else {
            return PyErr_Format(PyExc_TypeError, "indent must be an int or a str");
        }
        if (!unit) return NULL;
        l.unit = (const uint8_t *)PyBytes_AS_STRING(unit);
        l.unit_len = (size_t)PyBytes_GET_SIZE(unit);
    }

    jj_state *st = PyModule_GetState(module);
    PyObject *result = NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) {
        Py_XDECREF(unit);
        return NULL;
    }
    jj_request r = {0};
    jj_chunks s = {write, NULL, 0, JJ_TOOL_CHUNK};
    if (release != Py_None) {
        int rc = 0;
        if (view.readonly) { /* write() could change a writable buffer under the walk */
            s.buf = PyMem_Malloc(s.cap);
            rc = s.buf ? jj_tool_format_windows(view.buf, (size_t)view.len, &l, ensure_ascii, sort_keys,
                                                (size_t)window, &s, release)
                       : (PyErr_NoMemory(), -1);
        }
        PyMem_Free(s.buf);
        PyBuffer_Release(&view);
        Py_XDECREF(unit);
        if (rc < 0) return NULL;
        return rc == 2 ? Py_NewRef(Py_None) : Py_NewRef(rc == 1 ? Py_True : Py_False);
    }
    /* A parser of this call's own, not the thread's: write() runs Python code, which may
     * call jetjson on this thread and reuse the thread's buffers under our index. */
    jj_parser *own = jj_parser_new();
    int opened = own ? jj_request_open_memory(&r, st, view.buf, (size_t)view.len) : (PyErr_NoMemory(), -1);
    if (opened == 0) r.parser = own;
    if (!view.readonly) {
        /* write() could change a writable buffer under the walk: the object path */
        if (opened < 0) PyErr_Clear();
        result = Py_NewRef(Py_False);
    } else if (opened < 0) {
        /* bytes json decodes first and cannot: the object path words the error */
        PyErr_Clear();
        result = Py_NewRef(Py_False);
    } else if (r.text) {
        result = Py_NewRef(Py_False); /* UTF-16/32 or a BOM: not what json.tool reads */
    } else {
        jj_valid_facts facts;
        jj_error err = jj_request_validate(&r, &facts);
        if (err == JJ_ERR_NOMEM) {
            PyErr_NoMemory();
        } else if (err != JJ_OK || facts.max_depth > JJ_TOOL_MAX_DEPTH || facts.max_int_digits > JJ_TOOL_MAX_INT_DIGITS) {
            result = Py_NewRef(Py_False);
        } else {
            const uint8_t *in = r.in.buf;
            size_t n;
            const uint32_t *idx = jj_parser_structurals(r.parser, &n);
            jj_sort_list sorts = {NULL, 0, 0};
            int ok = jj_tool_check(in, r.in.len, idx, n, facts.max_depth, sort_keys, ensure_ascii, &sorts);
            jj_tool_doc d = {in, r.in.len, idx, n, ensure_ascii, &l, &sorts};
            if (ok == 0) {
                result = Py_NewRef(Py_False);
            } else if (ok > 0) {
                s.buf = PyMem_Malloc(s.cap);
                if (!s.buf) PyErr_NoMemory();
                else if (jj_tool_write(&s, &d) == 0) result = Py_NewRef(Py_True);
            }
            PyMem_Free(sorts.at);
        }
    }
    PyMem_Free(s.buf);
    jj_request_close(&r);
    jj_parser_delete(own);
    PyBuffer_Release(&view);
    Py_XDECREF(unit);
    return result;
}
