/* jetjson: the JSON Canonicalization Scheme (RFC 8785, "JCS").
 *
 * JCS is the one spelling of a JSON value that signatures, hashes and content-addressed
 * stores can rely on:
 *   - no whitespace;
 *   - object members sorted by their keys, compared as arrays of UTF-16 code units (which
 *     puts U+10000 and above before U+E000..U+FFFF, unlike code point order);
 *   - strings spelled as ECMAScript's JSON.stringify spells them: \" \\ \b \t \n \f \r,
 *     the other code points below U+0020 as \u00xx (lowercase hex), everything else raw
 *     UTF-8 (U+007F, U+2028 and '/' included); a lone surrogate cannot be written;
 *   - numbers as ECMAScript's Number.prototype.toString writes the IEEE-754 double:
 *     shortest round-trip digits, positional for 1e-7 <= |x| < 1e21 (no ".0" on integral
 *     values: 1, 100, 100000000000000000000), otherwise d.ddde+XX or
 *     de-X; -0 is written 0. NaN and the infinities have no spelling.
 *
 * Integers: JCS has only doubles, so an integer means the double of its value, written
 * as ECMAScript writes that double. Up to 2^53 - 1 in magnitude (Number.MAX_SAFE_INTEGER)
 * that is the integer's own digits. Beyond it most integers are not doubles, and writing
 * the double would change the digits (2^53 + 1 would come out as 9007199254740992), so
 * an integer is written only when its digits are already the ECMAScript text of a
 * double (9007199254740992, 295147905179352830000: what JCS writes for large doubles,
 * so that JCS output always canonicalizes to itself), and refused otherwise
 * (JJ_CANON_INT_RANGE). The digits of an integer are never changed. (The rfc8785
 * package refuses every int beyond 2^53 - 1 in magnitude.) A number written with a
 * fraction or an exponent is a double whatever its value ("1e300",
 * "9007199254740993.0" -> 9007199254740992).
 *
 * No Python, no global state. */
#ifndef JETJSON_CANONICAL_H
#define JETJSON_CANONICAL_H

#include <stddef.h>
#include <stdint.h>

#include "jetjson.h"
#include "jetjson_write.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Room jj_format_double_ecma needs at out ("-0.0000012345678901234567" is 25 bytes). */
#define JJ_ECMA_DOUBLE_BUF_SIZE 32

/* The largest integer magnitude JCS writes (2^53 - 1). */
#define JJ_CANON_MAX_INT ((UINT64_C(1) << 53) - 1)

/* Longest integer text jj_canon_integer_ok can accept: 309 digits and a sign. */
#define JJ_CANON_INT_TEXT_MAX 310

/* Whether JCS writes the integer with decimal text[0..len) (an optional '-', digits) as
 * it is: its magnitude is at most 2^53 - 1, or its digits are the ECMAScript text of
 * the double nearest to it (see above). */
int jj_canon_integer_ok(const char *text, size_t len);

/* ECMAScript's Number::toString(v) for a finite v (the caller refuses NaN and the
 * infinities): 0 for both zeros, 1e+21, 1e-7, 0.000001, 123, 1.5, 5e-324. Returns the
 * number of bytes written (no NUL). The digits are format_double.c's shortest digits,
 * the same as repr's. */
size_t jj_format_double_ecma(double v, char *out);

/* The order of two strings as JCS sorts keys: their UTF-16 code units compared one by
 * one, a shorter prefix first. a and b are UTF-8 (or WTF-8); <0, 0 or >0. */
int jj_utf16_compare(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

typedef enum jj_canon_status {
    JJ_CANON_OK = 0,
    JJ_CANON_NOMEM,         /* an allocation failed (or the sink's resize did) */
    JJ_CANON_NOT_FINITE,    /* NaN or an infinity (NaN, Infinity, or 1e400) */
    JJ_CANON_INT_RANGE,     /* an integer JCS cannot write with its own digits (see above) */
    JJ_CANON_SURROGATE,     /* a string with a lone surrogate (not Unicode text) */
    JJ_CANON_DUPLICATE_KEY, /* an object names a key twice (I-JSON, RFC 7493) */
    JJ_CANON_PARSE          /* jj_canonicalize only: the text is not JSON (see jj_parser_error) */
} jj_canon_status;

/* The JCS text of the document jj_parse(p, input, ...) has just parsed, appended to
 * `out`. Any nesting depth (the walk keeps its stack on the heap); the memory it takes
 * besides the output is one frame per open container and one 24-byte entry per member
 * of the open objects (each object's members are sorted as it opens). On an error,
 * *fault is the tape index of the value (for JJ_CANON_DUPLICATE_KEY: of the later key)
 * that cannot be written, and `out` holds a part of the text. */
jj_canon_status jj_canonical_write(const jj_parser *p, const uint8_t *input, jj_sink *out, size_t *fault);

/* jj_parse(p, buf, len) then jj_canonical_write. */
jj_canon_status jj_canonicalize(jj_parser *p, const uint8_t *buf, size_t len, jj_sink *out, size_t *fault);

/* A short English description of a status (static storage). */
const char *jj_canon_status_name(jj_canon_status status);

#ifdef __cplusplus
}
#endif
#endif
