/* Indent: json.dumps(..., indent=...)'s layout from the structural index of a parsed
 * document, copying every scalar's text from the input. The caller allocates from a
 * quick bound, or from an exact sizing walk when the bound is far too big (deep
 * documents), then one walk writes the result. */
#include <string.h>

#include "jetjson.h"
#include "jetjson_write.h"
#include "parser_internal.h"

static inline int jj_is_space(uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/* End of the token that starts at `from`: what lies before `next` (the following
 * structural, or the end of the input) minus trailing whitespace. The document is
 * valid, so only whitespace separates a token from what follows it. */
static inline size_t jj_token_end(const uint8_t *in, size_t from, size_t next) {
    while (next > from && jj_is_space(in[next - 1])) next--;
    return next;
}

/* Indentation up to this many bytes goes out as one fixed-size copy of a prepared line
 * start (newline + fill bytes); deeper lines take the general path. */
#define JJ_SHORT_INDENT 31

/* Writes a newline and `depth` indentation units. `fill` >= 0 when the unit is one
 * repeated byte (spaces, tabs): then `line` holds a newline and JJ_SHORT_INDENT fill
 * bytes, copied whole (the output has JJ_INDENT_SLACK bytes of room past the end). */
static inline uint8_t *jj_newline(uint8_t *o, size_t depth, const uint8_t *unit, size_t unit_len, int fill,
                                  const uint8_t *line) {
    size_t width = depth * unit_len;
    if (fill >= 0 && width <= JJ_SHORT_INDENT) {
        memcpy(o, line, JJ_SHORT_INDENT + 1);
        return o + 1 + width;
    }
    if (fill >= 0) return jj_write_newline(o, width, (uint8_t)fill);
    return jj_write_newline_units(o, depth, unit, unit_len);
}

/* Copies a token; short ones as one 32-byte copy when the input has those bytes. */
static inline uint8_t *jj_copy_token(uint8_t *o, const uint8_t *in, size_t len, size_t from, size_t to) {
    size_t n = to - from;
    if (n <= 32 && len - from >= 32) memcpy(o, in + from, 32);
    else memcpy(o, in + from, n);
    return o + n;
}

size_t jj_indent_size(const jj_parser *p, const uint8_t *in, size_t len, size_t unit_len) {
    const uint32_t *idx = p->index;
    size_t n = p->index_len, total = 0, depth = 0;
    /* each line break costs 1 + depth * unit_len; the sum of the depths is added
     * separately and multiplied once at the end */
    size_t breaks = 0, depth_sum = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = in[idx[i]];
        switch (c) {
        case '{':
        case '[':
            total++;
            if (i + 1 < n && in[idx[i + 1]] == (uint8_t)(c + 2)) { /* '{'+2 = '}', '['+2 = ']' */
                total++;
                i++;
            } else {
                depth++;
                breaks++;
                depth_sum += depth;
            }
            break;
        case '}':
        case ']':
            depth--;
            breaks++;
            depth_sum += depth;
            total++;
            break;
        case ',':
            breaks++;
            depth_sum += depth;
            total++;
            break;
        case ':': total += 2; break;
        default: {
            size_t next = i + 1 < n ? idx[i + 1] : len;
            total += jj_token_end(in, idx[i], next) - idx[i];
        }
        }
    }
    /* depth_sum <= n * n / 2 with n < 2^32 fits 64 bits; the product may not */
    size_t spaces;
    if (__builtin_mul_overflow(depth_sum, unit_len, &spaces)) return SIZE_MAX;
    if (__builtin_add_overflow(total, breaks, &total)) return SIZE_MAX;
    if (__builtin_add_overflow(total, spaces, &total)) return SIZE_MAX;
    return total;
}

/* Every input byte is written at most once; each index entry adds at most a newline
 * and max_depth units (",", "{", "[", "}", "]") or one space (":"). */
size_t jj_indent_bound(const jj_parser *p, size_t len, size_t unit_len, size_t max_depth) {
    size_t line, extra, total;
    if (__builtin_mul_overflow(max_depth, unit_len, &line) || __builtin_add_overflow(line, 1, &line) ||
        __builtin_mul_overflow(line, p->index_len, &extra) || __builtin_add_overflow(extra, len, &total))
        return SIZE_MAX;
    return total;
}

size_t jj_indent_write(const jj_parser *p, const uint8_t *in, size_t len, const uint8_t *unit, size_t unit_len,
                       uint8_t *o) {
    uint8_t *start = o;
    const uint32_t *idx = p->index;
    size_t n = p->index_len, depth = 0;
    int fill = unit_len > 0 ? unit[0] : ' ';
    for (size_t k = 1; k < unit_len; k++)
        if (unit[k] != unit[0]) fill = -1;
    uint8_t line[JJ_SHORT_INDENT + 1];
    line[0] = '\n';
    memset(line + 1, fill >= 0 ? fill : ' ', JJ_SHORT_INDENT);
    for (size_t i = 0; i < n; i++) {
        uint8_t c = in[idx[i]];
        switch (c) {
        case '{':
        case '[':
            *o++ = c;
            if (i + 1 < n && in[idx[i + 1]] == (uint8_t)(c + 2)) {
                *o++ = (uint8_t)(c + 2);
                i++;
            } else {
                o = jj_newline(o, ++depth, unit, unit_len, fill, line);
            }
            break;
        case '}':
        case ']':
            o = jj_newline(o, --depth, unit, unit_len, fill, line);
            *o++ = c;
            break;
        case ',':
            *o++ = ',';
            o = jj_newline(o, depth, unit, unit_len, fill, line);
            break;
        case ':':
            o[0] = ':';
            o[1] = ' ';
            o += 2;
            break;
        default: {
            size_t next = i + 1 < n ? idx[i + 1] : len;
            o = jj_copy_token(o, in, len, idx[i], jj_token_end(in, idx[i], next));
        }
        }
    }
    return (size_t)(o - start);
}
