/* jetjson engine: JSON <-> MessagePack without building any value in between.
 *
 * JSON -> MessagePack walks a parsed document's tape (jetjson.h) and writes each entry
 * in the most compact encoding, the bytes msgpack.packb(json.loads(text)) gives:
 * integers in the smallest int family member (non-negative ones in the unsigned
 * family, as msgpack-python packs them), other numbers as float64, strings, arrays and
 * maps with the smallest header for their size. Keys keep their order, duplicates
 * included. Integers outside the 64-bit ranges (the tape's BIGINT) become the float64
 * nearest their value (inf past the double range). A string holding a lone surrogate
 * (which the JSON grammar lets through as \udXXX) has no MessagePack form: refused.
 *
 * MessagePack -> JSON reads one value (or, with JJ_MP_STREAM, a sequence of values, one
 * NDJSON line each) and writes compact JSON: floats as Python's repr writes them (float32
 * widened to double first), NaN and infinities as null, bin as a base64 string (standard
 * alphabet, padded), map keys that are not strings as strings (as json.dumps spells a
 * key: "1", "true", "null", "1.5", "NaN", "Infinity"), strings escaped as json.dumps(...,
 * ensure_ascii=False) and orjson escape them. Arrays and maps are not allowed as keys.
 * Extension values (timestamps too) are refused, or written as null with JJ_MP_EXT_NULL.
 * Nesting deeper than JJ_MSGPACK_MAX_DEPTH is refused; a declared length larger than
 * what is left of the input is refused at once (no allocation follows a header).
 *
 * Output goes to a jj_sink (jetjson_write.h); a failed sink resize gives JJ_MP_NOMEM.
 * No global state: any number of threads may convert at once (one parser each). */
#ifndef JETJSON_MSGPACK_H
#define JETJSON_MSGPACK_H

#include <stddef.h>
#include <stdint.h>

#include "jetjson.h"
#include "jetjson_write.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Containers nested deeper than this are refused by the MessagePack reader. */
#define JJ_MSGPACK_MAX_DEPTH 4096

typedef enum jj_mp_error {
    JJ_MP_OK = 0,
    JJ_MP_NOMEM,      /* allocation or sink resize failed */
    JJ_MP_JSON,       /* the JSON parser refused a document (json_error says why) */
    JJ_MP_SURROGATE,  /* a JSON string holds a lone surrogate */
    JJ_MP_EMPTY,      /* no MessagePack value in the input */
    JJ_MP_TRUNCATED,  /* the input ends inside a value */
    JJ_MP_BAD_TYPE,   /* the byte 0xc1, which no type uses */
    JJ_MP_UTF8,       /* a str that is not valid UTF-8 */
    JJ_MP_EXT,        /* an extension value (without JJ_MP_EXT_NULL) */
    JJ_MP_BIN,        /* a bin value with JJ_MP_BIN_ERROR */
    JJ_MP_KEY,        /* an array or a map used as a map key */
    JJ_MP_DEPTH,      /* nesting deeper than JJ_MSGPACK_MAX_DEPTH */
    JJ_MP_TRAILING    /* bytes after the value (without JJ_MP_STREAM) */
} jj_mp_error;

/* Where a conversion failed. */
typedef struct jj_mp_status {
    jj_mp_error error;
    jj_error json_error; /* JJ_MP_JSON: the parser's error */
    size_t offset;       /* byte offset in the input: the JSON error, or the start of the
                          * MessagePack value at fault (the bad byte itself for JJ_MP_UTF8) */
    size_t document;     /* JSON input: the document at fault, counted from 1 */
} jj_mp_status;

/* A short English description (static storage). */
const char *jj_mp_error_name(jj_mp_error err);

/* ---- JSON -> MessagePack ---- */

/* buf[0..len) holds whitespace-separated documents (jj_many_next's rules), each one
 * MessagePack value; without it, exactly one document. */
#define JJ_MP_NDJSON 1u

/* Parses buf[0..len) with p and appends its MessagePack to out. JJ_MP_OK, or the error
 * (also in *status; what was written before an error stays in the sink). */
jj_mp_error jj_json_to_msgpack(jj_parser *p, const uint8_t *buf, size_t len, unsigned flags, jj_sink *out,
                               jj_mp_status *status);

/* Appends the MessagePack of the document just parsed by p (jj_parse or jj_many_next;
 * not a lazy tape) from the text input[0..input_len) (the whole buffer given to the
 * parser). JJ_MP_OK, JJ_MP_SURROGATE, JJ_MP_NOMEM. */
jj_mp_error jj_msgpack_write_document(const jj_parser *p, const uint8_t *input, size_t input_len, jj_sink *out,
                                      jj_mp_status *status);

/* jj_json_to_msgpack on up to `threads` threads (the caller's and pool workers,
 * jetjson_pool.h): with JJ_MP_NDJSON and an input of two blocks or more, the input is cut
 * at line ends into parts of about `block` bytes, converted at once and joined in order.
 * The result is byte for byte jj_json_to_msgpack's: when a part fails (a document across
 * a cut, a bad document) the whole input is converted again on the calling thread with
 * p, so errors are exactly its too. threads <= 1 converts the parts one after the other
 * on the calling thread, straight into out (faster than one pass: each part's index and
 * tape stay small). One document (no JJ_MP_NDJSON) or a small input: jj_json_to_msgpack
 * itself. */
jj_mp_error jj_json_to_msgpack_threads(jj_parser *p, const uint8_t *buf, size_t len, unsigned flags,
                                       unsigned threads, size_t block, jj_sink *out, jj_mp_status *status);

/* ---- MessagePack -> JSON ---- */

#define JJ_MP_STREAM 1u       /* a sequence of values, each written as a line ending "\n" */
#define JJ_MP_NO_UTF8_CHECK 2u /* copy str bytes as they are (only ", \ and controls escaped) */
#define JJ_MP_BIN_ERROR 4u    /* refuse bin values instead of writing base64 */
#define JJ_MP_EXT_NULL 8u     /* write extension values as null instead of refusing them */

jj_mp_error jj_msgpack_to_json(const uint8_t *buf, size_t len, unsigned flags, jj_sink *out, jj_mp_status *status);

/* jj_msgpack_to_json on up to `threads` threads, as jj_json_to_msgpack_threads: with
 * JJ_MP_STREAM the values are cut into parts of about `block` bytes (their ends found by
 * skipping over headers), converted at once, the lines joined in order; any failure
 * converts it all again on the calling thread, whose output and errors are the rule. */
jj_mp_error jj_msgpack_to_json_threads(const uint8_t *buf, size_t len, unsigned flags, unsigned threads,
                                       size_t block, jj_sink *out, jj_mp_status *status);

/* The family of a MessagePack type byte, for messages: "integer", "nil", "boolean",
 * "float", "string", "binary", "array", "map", "extension", "invalid type". */
const char *jj_msgpack_type_name(uint8_t type_byte);

#ifdef __cplusplus
}
#endif
#endif
