/* jetjson: where a JSON Pointer lands in the document's bytes (edit.c), for edits that
 * copy the document around one byte range instead of re-serializing it.
 *
 * The tape keeps no source offsets, but after a successful jj_parse the parser's stage-1
 * index holds exactly one entry per token ({ } [ ] : , and the first byte of every key
 * and scalar), in document order, so the byte span of any value can be found by walking
 * the index in step with the tape (the tape answers key comparisons and skips in O(1),
 * the index gives the offsets). Iterative: document depth never grows the C stack.
 *
 * Pure C, no allocation, no state. The parser must hold the successful parse of buf. */
#ifndef JJ_EDIT_H
#define JJ_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jetjson.h"
#include "pointer.h"

typedef enum jj_edit_kind {
    JJ_EDIT_VALUE,       /* the pointer names an existing value */
    JJ_EDIT_NEW_MEMBER,  /* the last token is a key the (existing) object lacks */
    JJ_EDIT_NEW_ELEMENT, /* the last token is "-" or the length of an (existing) array */
} jj_edit_kind;

typedef struct jj_edit_target {
    jj_edit_kind kind;
    /* VALUE: the value's bytes [start, end), without surrounding whitespace.
     * NEW_*: start == end, the offset to insert at (just after the last member or
     * element, or just after the opening bracket of an empty container). */
    size_t start, end;
    /* VALUE inside a container: the bytes that deleting it removes, [cut_start, cut_end):
     * the member (key, colon, value) or element with the comma that follows it, or with
     * the comma before it when it is the last one. The root: the same as start, end.
     * NEW_*: empty, at start. */
    size_t cut_start, cut_end;
    bool has_parent;     /* false for the root (pointer "") */
    bool needs_comma;    /* NEW_*: the container is not empty, the insert starts with ',' */
    size_t tape;         /* VALUE: tape index of the value */
    jj_pointer_token token; /* NEW_MEMBER: the key to add, as written in the pointer */
} jj_edit_target;

/* Finds what ptr designates in the parsed document buf[0..len). JJ_PTR_OK fills *out;
 * otherwise the status and *failed_at are those jj_pointer_resolve would give, except
 * that a missing last key or a last array token of "-" or the array's length is not an
 * error but a NEW_* target. */
jj_pointer_status jj_edit_locate(const jj_parser *p, const uint8_t *buf, size_t len, const char *ptr, size_t plen,
                                 jj_edit_target *out, size_t *failed_at);

/* Room jj_edit_key_literal needs for a token of n bytes. */
static inline size_t jj_edit_key_bound(size_t n) { return n > (SIZE_MAX - 2) / 6 ? SIZE_MAX : 6 * n + 2; }

/* Writes the unescaped token as a JSON string literal (quotes included): '"', '\\' and
 * bytes below 0x20 escaped, every other byte copied. Returns its length. */
size_t jj_edit_key_literal(const jj_pointer_token *tok, uint8_t *out);

#endif
