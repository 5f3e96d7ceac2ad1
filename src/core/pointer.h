/* jetjson: RFC 6901 JSON Pointers (pointer.c).
 *
 * A pointer is "" (the whole document) or a sequence of reference tokens, each written
 * as '/' followed by the token, where "~1" stands for '/' and "~0" for '~'; any other
 * '~' makes the pointer invalid. In an object a token names a key (compared after
 * unescaping, byte for byte, with the key's UTF-8); in an array it must be a decimal
 * index without leading zeros ("0", "17"), and "-" (one past the end) never resolves to
 * a value. A pointer not starting with '/' (and not empty) is invalid.
 *
 * With duplicate keys the lookup finds the first one in document order.
 * Pure C, no allocation, no state: any number of threads may call these. */
#ifndef JJ_POINTER_H
#define JJ_POINTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jetjson.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One reference token as written in the pointer (still escaped). */
typedef struct jj_pointer_token {
    const char *text; /* first byte after the '/' */
    size_t len;       /* bytes up to the next '/' or the end */
    bool escaped;     /* holds a '~' */
} jj_pointer_token;

typedef enum jj_pointer_status {
    JJ_PTR_OK = 0,
    JJ_PTR_SYNTAX,        /* not a valid pointer (bad '~' escape, no leading '/') */
    JJ_PTR_NO_KEY,        /* an object has no such key */
    JJ_PTR_BAD_INDEX,     /* an array token that is not an index ("01", "x", "-") */
    JJ_PTR_OUT_OF_RANGE,  /* an array index at or past the end */
    JJ_PTR_NOT_CONTAINER, /* a token applied to a scalar */
} jj_pointer_status;

/* Checks the syntax of a whole pointer. JJ_PTR_OK or JJ_PTR_SYNTAX with *bad_at set to
 * the offset of the offending byte. */
jj_pointer_status jj_pointer_check(const char *ptr, size_t len, size_t *bad_at);

/* Reads the token starting at ptr[*pos] (which must be '/'); advances *pos past it.
 * Returns false at the end of the pointer. The pointer must have passed the check. */
bool jj_pointer_next(const char *ptr, size_t len, size_t *pos, jj_pointer_token *tok);

/* Whether the unescaped token equals the key bytes. */
bool jj_pointer_token_equals(const jj_pointer_token *tok, const uint8_t *key, size_t key_len);

/* The array index a token spells: true with *index set, false when it is not one. */
bool jj_pointer_token_index(const jj_pointer_token *tok, uint64_t *index);

/* Writes the unescaped token to out (room for tok->len bytes); returns its length. */
size_t jj_pointer_token_unescape(const jj_pointer_token *tok, uint8_t *out);

/* Resolves ptr against the tape of a parsed document, starting from the value at tape
 * index `start` (0 for the root). `input` is the text the parser read (strings may
 * point into it). On JJ_PTR_OK *found is the tape index of the value. On failure
 * *failed_at is the offset in ptr just past the token that could not be followed (for
 * errors that name the pointer prefix), and for JJ_PTR_SYNTAX the bad byte's offset. */
jj_pointer_status jj_pointer_resolve(const jj_parser *p, const uint8_t *input, size_t start, const char *ptr,
                                     size_t len, size_t *found, size_t *failed_at);

#ifdef __cplusplus
}
#endif

#endif
