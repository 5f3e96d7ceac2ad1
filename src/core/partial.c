/* Partial documents (include/jetjson_partial.h): one pass over the bytes keeps the
 * nesting (a stack of the closing brackets), the grammar state between tokens, and the
 * last place where the text can be cut and closed. */
#include <stdlib.h>
#include <string.h>

#include "jetjson_partial.h"

/* What the next token may be. */
typedef enum {
    WANT_VALUE,       /* top level, after ',' in an array, after ':' */
    WANT_FIRST_VALUE, /* after '[': a value or ']' */
    WANT_KEY,         /* after ',' in an object */
    WANT_FIRST_KEY,   /* after '{': a key or '}' */
    WANT_COLON,       /* after a key */
    AFTER_VALUE,      /* ',' or the container's end (or, at the top level, nothing) */
} want_t;

typedef struct {
    uint8_t *closers; /* '}' or ']' per open container, innermost last */
    size_t depth, cap;
} nest_t;

static int nest_push(nest_t *n, uint8_t closer) {
    if (n->depth == n->cap) {
        size_t cap = n->cap ? 2 * n->cap : 64;
        uint8_t *grown = realloc(n->closers, cap);
        if (!grown) return -1;
        n->closers = grown;
        n->cap = cap;
    }
    n->closers[n->depth++] = closer;
    return 0;
}

/* What each byte is between tokens: a token's own byte (0), white space (1), or one
 * that ends a token (2: structure and quotes). One load per byte instead of a chain of
 * compares: numbers and indentation are most of the bytes this loop sees. */
enum { TOKEN_BYTE = 0, SPACE_BYTE = 1, STOP_BYTE = 2 };
static const uint8_t byte_kind[256] = {
    [' '] = SPACE_BYTE, ['\t'] = SPACE_BYTE, ['\n'] = SPACE_BYTE, ['\r'] = SPACE_BYTE,
    [','] = STOP_BYTE,  [':'] = STOP_BYTE,   ['['] = STOP_BYTE,   [']'] = STOP_BYTE,
    ['{'] = STOP_BYTE,  ['}'] = STOP_BYTE,   ['"'] = STOP_BYTE,
};

/* The first byte at or after i that is not white space (len when none). Indentation
 * comes in runs of spaces: eight at a time while they last. */
static size_t skip_space(const uint8_t *buf, size_t i, size_t len) {
    while (len - i >= 8) {
        uint64_t w;
        memcpy(&w, buf + i, 8);
        if (w != UINT64_C(0x2020202020202020)) break;
        i += 8;
    }
    while (i < len && byte_kind[buf[i]] == SPACE_BYTE) i++;
    return i;
}

/* Whether t[0..n) is a whole number by JSON's grammar (1), a beginning of one that
 * more bytes could finish (0), or neither (-1). */
static int number_state(const uint8_t *t, size_t n) {
    size_t i = 0;
    if (i < n && t[i] == '-') i++;
    if (i == n) return 0;
    if (t[i] == '0') i++;
    else if (t[i] >= '1' && t[i] <= '9') while (i < n && t[i] >= '0' && t[i] <= '9') i++;
    else return -1;
    if (i < n && t[i] == '.') {
        if (++i == n) return 0;
        if (t[i] < '0' || t[i] > '9') return -1;
        while (i < n && t[i] >= '0' && t[i] <= '9') i++;
    }
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        if (++i < n && (t[i] == '+' || t[i] == '-')) i++;
        if (i == n) return 0;
        if (t[i] < '0' || t[i] > '9') return -1;
        while (i < n && t[i] >= '0' && t[i] <= '9') i++;
    }
    return i == n ? 1 : -1;
}

/* The same for the words json reads: true, false, null, NaN, Infinity, -Infinity. */
static int word_state(const uint8_t *t, size_t n) {
    static const char *const words[] = {"true", "false", "null", "NaN", "Infinity", "-Infinity"};
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        size_t k = strlen(words[w]);
        if (n <= k && memcmp(t, words[w], n) == 0) return n == k;
    }
    return -1;
}

/* A scalar token cut by the end: 1 kept whole, 0 dropped (a beginning), -1 wrong. */
static int cut_token_state(const uint8_t *t, size_t n) {
    int s = (t[0] == '-' || (t[0] >= '0' && t[0] <= '9')) ? number_state(t, n) : -1;
    if (s < 0) s = word_state(t, n);
    return s;
}

/* Whether the content of a string cut by the end (after its opening quote) can still
 * become a string: no control character, no escape that is already wrong. */
static int string_prefix_ok(const uint8_t *c, const uint8_t *end) {
    for (; c < end; c++) {
        if (*c < 0x20) return 0;
        if (*c != '\\') continue;
        if (++c == end) return 1;
        if (*c == 'u') {
            for (int k = 1; k <= 4 && c + k < end; k++) {
                uint8_t h = (uint8_t)(c[k] | 0x20);
                if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f'))) return 0;
            }
        } else if (!*c || !strchr("\"\\/bfnrt", *c)) {
            return 0;
        }
    }
    return 1;
}

/* Where the content of a string cut by the end (after its opening quote, up to end) can
 * stop: after the last whole character or escape, never between the halves of a
 * surrogate pair or inside a UTF-8 sequence. */
static const uint8_t *string_keep_end(const uint8_t *c, const uint8_t *end) {
    const uint8_t *keep = c;
    while (c < end) {
        if (*c == '\\') {
            if (end - c < 2) break;
            if (c[1] != 'u') {
                c += 2;
                keep = c;
                continue;
            }
            if (end - c < 6) break;
            unsigned unit = 0;
            for (int k = 2; k < 6; k++) {
                uint8_t h = c[k];
                unsigned v = h >= '0' && h <= '9' ? h - '0' : (h | 0x20) >= 'a' && (h | 0x20) <= 'f' ? (h | 0x20) - 'a' + 10 : 16;
                if (v == 16) return end; /* a bad escape: kept, for the parser to refuse */
                unit = unit << 4 | v;
            }
            c += 6;
            if (unit >= 0xD800 && unit <= 0xDBFF) {
                /* a high surrogate goes with the escape after it, which may be coming;
                 * one that no \u follows is alone (json's to judge) */
                if (c < end && c[0] != '\\') keep = c;
                else if (end - c < 2) break;
                else if (c[1] != 'u') keep = c;
                continue;
            }
            keep = c;
            continue;
        }
        size_t width = *c < 0x80 ? 1 : *c >= 0xF0 ? 4 : *c >= 0xE0 ? 3 : *c >= 0xC0 ? 2 : 1;
        if ((size_t)(end - c) < width) break;
        c += width;
        keep = c;
    }
    return keep;
}

/* The closing quote of the string whose content starts at `from`, or len: the next
 * quote that an even number of backslashes precedes (memchr runs at memory speed; a
 * byte loop over long strings was most of the time). */
static size_t closing_quote(const uint8_t *buf, size_t from, size_t len) {
    size_t q = from;
    for (;;) {
        const uint8_t *hit = q < len ? memchr(buf + q, '"', len - q) : NULL;
        if (!hit) return len;
        q = (size_t)(hit - buf);
        size_t slashes = 0;
        while (q - slashes > from && buf[q - slashes - 1] == '\\') slashes++;
        if (slashes % 2 == 0) return q;
        q++;
    }
}

jj_partial_kind jj_partial_complete(const uint8_t *buf, size_t len, int keep_string, jj_sink *out) {
    nest_t nest = {NULL, 0, 0};
    want_t want = WANT_VALUE;
    size_t cut = 0;          /* the text can be cut here and closed */
    int have_cut = 0;
    size_t i = 0;
    jj_partial_kind kind = JJ_PARTIAL_MALFORMED;
    const uint8_t *tail = NULL;   /* a string value kept as far as it goes */
    const uint8_t *tail_end = NULL;

    for (;;) {
        i = skip_space(buf, i, len);
        if (i == len) break;
        uint8_t c = buf[i];
        switch (c) {
        case '{':
        case '[':
            if (want != WANT_VALUE && want != WANT_FIRST_VALUE) goto done;
            if (nest_push(&nest, c == '{' ? '}' : ']') < 0) {
                kind = JJ_PARTIAL_NOMEM;
                goto done;
            }
            want = c == '{' ? WANT_FIRST_KEY : WANT_FIRST_VALUE;
            cut = ++i;
            have_cut = 1;
            continue;
        case '}':
        case ']':
            if (!nest.depth || nest.closers[nest.depth - 1] != c) goto done;
            if (want != AFTER_VALUE && want != (c == '}' ? WANT_FIRST_KEY : WANT_FIRST_VALUE)) goto done;
            nest.depth--;
            want = AFTER_VALUE;
            cut = ++i;
            continue;
        case ',':
            if (want != AFTER_VALUE || !nest.depth) goto done;
            want = nest.closers[nest.depth - 1] == '}' ? WANT_KEY : WANT_VALUE;
            i++;
            continue;
        case ':':
            if (want != WANT_COLON) goto done;
            want = WANT_VALUE;
            i++;
            continue;
        case '"': {
            int key = want == WANT_KEY || want == WANT_FIRST_KEY;
            if (!key && want != WANT_VALUE && want != WANT_FIRST_VALUE) goto done;
            size_t q = closing_quote(buf, i + 1, len);
            if (q >= len) { /* cut inside the string */
                if (!string_prefix_ok(buf + i + 1, buf + len)) goto done;
                if (keep_string && !key) {
                    tail = buf + i + 1;
                    tail_end = string_keep_end(tail, buf + len);
                }
                i = len;
                break;
            }
            i = q + 1;
            want = key ? WANT_COLON : AFTER_VALUE;
            if (!key) {
                cut = i;
                have_cut = 1;
            }
            continue;
        }
        default: {
            if (want != WANT_VALUE && want != WANT_FIRST_VALUE) goto done;
            size_t start = i;
            while (i < len && byte_kind[buf[i]] == TOKEN_BYTE) i++;
            if (i < len) { /* ended by what follows: the parser judges it */
                want = AFTER_VALUE;
                cut = i;
                have_cut = 1;
                continue;
            }
            int s = cut_token_state(buf + start, i - start);
            if (s < 0) goto done;
            if (s > 0) {
                want = AFTER_VALUE;
                cut = i;
                have_cut = 1;
            }
            break;
        }
        }
        break; /* the end of the text came inside a token */
    }
    if (!nest.depth && want == AFTER_VALUE && !tail) kind = JJ_PARTIAL_WHOLE;
    else if (tail) kind = JJ_PARTIAL_COMPLETED;
    else if (!have_cut) kind = JJ_PARTIAL_NOTHING;
    else kind = JJ_PARTIAL_COMPLETED;
    if (kind == JJ_PARTIAL_COMPLETED) {
        size_t keep = tail ? (size_t)(tail_end - buf) : cut;
        int ok = jj_sink_reserve(out, keep + 1 + nest.depth) == 0;
        if (ok) {
            memcpy(out->pos, buf, keep);
            out->pos += keep;
            if (tail) *out->pos++ = '"';
            for (size_t d = nest.depth; d-- > 0;) *out->pos++ = nest.closers[d];
        } else {
            kind = JJ_PARTIAL_NOMEM;
        }
    }
done:
    free(nest.closers);
    return kind;
}
