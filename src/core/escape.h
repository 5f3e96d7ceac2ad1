/* jetjson: JSON string literals from CPython's str storage (escape.c).
 *
 * The serializers read a str by its PEP 393 kind and hand the raw code units here, so
 * nothing is converted to UTF-8 first. Three spellings, each checked against its oracle:
 *
 *   jj_escape_json_ascii  json.dumps(s) (ensure_ascii=True), as ASCII bytes.
 *                         "  \  -> \" \\ ;  U+0008 U+000C U+000A U+000D U+0009 -> \b \f \n
 *                         \r \t ; every other code point below U+0020 and every one from
 *                         U+007F up -> \uXXXX with lowercase hex (\u001b \u007f \u00e9
 *                         \uabcd); above U+FFFF -> the UTF-16 surrogate pair as two \uXXXX
 *                         (\ud83d\ude00); a lone surrogate -> its own \udXXX.
 *   jj_escape_json_utf8   json.dumps(s, ensure_ascii=False), encoded as UTF-8. Only " \ and
 *                         code points below U+0020 are escaped (as above); U+007F, U+2028,
 *                         U+2029 and everything else are written raw. json returns a str
 *                         that may hold lone surrogates; they are written in their 3-byte
 *                         form (ED A0 80 .. ED BF BF, what 'surrogatepass' gives), one per
 *                         surrogate code unit, even when two of them would form a pair.
 *                         The caller decides what to do with them (json.dumps returns them
 *                         in its str; a caller that needs strict UTF-8 must check).
 *   jj_escape_orjson      orjson.dumps(s), UTF-8. " \ \b \f \n \r \t escaped, other code
 *                         points below U+0020 as \u00XX with lowercase hex (\u001f); U+007F
 *                         and all non-ASCII raw. A str holding any surrogate code point
 *                         cannot be encoded: the result is JJ_ESCAPE_SURROGATE (orjson
 *                         raises "str is not valid UTF-8: surrogates not allowed").
 *   '/' is never escaped by any of the three.
 *
 * Input: `units` points at n code units of `kind` bytes each (1 = latin-1, 2 = UCS-2,
 * 4 = UCS-4), in native byte order, with any alignment. Every code point must be at most
 * U+10FFFF (as in any CPython str). A str may be stored in a wider kind than it needs;
 * the output does not depend on the kind.
 *
 * Output: the literal including both quotes, no NUL. The writers store exactly the bytes
 * they report (nothing past them) and never more than the matching bound. On
 * JJ_ESCAPE_SURROGATE the contents of `out` are unspecified (but still within the bound).
 *
 * No allocation, no state: any number of threads may call these at once. */
#ifndef JJ_ESCAPE_H
#define JJ_ESCAPE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* For code points below 0x80: 0 when every spelling writes it raw (json_ascii also
 * escapes 0x7F), else the letter after the backslash ('u' for \u00XX). */
extern const uint8_t jj_escape_letter[128];

/* The result of jj_escape_orjson for a str that holds a surrogate. */
#define JJ_ESCAPE_SURROGATE ((size_t)-1)

/* Worst-case output sizes, in bytes, for n code units of any kind (quotes included).
 * They saturate at SIZE_MAX instead of wrapping.
 *   json_ascii  12n + 2: one UCS-4 unit above U+FFFF becomes 12 bytes. For kind 1 and
 *               kind 2 input, 6n + 2 is enough (jj_escape_bound_json_ascii_kind).
 *   json_utf8   6n + 2: a control char becomes 6 bytes, nothing else more than 4.
 *   orjson      6n + 2: likewise. */
size_t jj_escape_bound_json_ascii(size_t n);
size_t jj_escape_bound_json_ascii_kind(size_t n, int kind);
size_t jj_escape_bound_json_utf8(size_t n);
size_t jj_escape_bound_orjson(size_t n);

/* Write the literal for n code units of `kind` at `units` to `out`; return its length. */
size_t jj_escape_json_ascii(const void *units, size_t n, int kind, uint8_t *out);
size_t jj_escape_json_utf8(const void *units, size_t n, int kind, uint8_t *out);
/* Returns JJ_ESCAPE_SURROGATE when a code point is in U+D800..U+DFFF. */
size_t jj_escape_orjson(const void *units, size_t n, int kind, uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif
