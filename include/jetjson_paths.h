/* jetjson engine: JSON Pointer (RFC 6901) lookups, edits of a document's text, and
 * skimming (finding one path's value without building a tape for the rest). Built on
 * the parser of jetjson.h; no Python. */
#ifndef JETJSON_PATHS_H
#define JETJSON_PATHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jetjson.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- JSON Pointer ---- */
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

/* Whether the unescaped token equals a JSON string as written: raw[0..len) from just
 * after its opening quote, read up to its closing quote (or len), escapes decoded as
 * stage 2 decodes them. 1 or 0; -1 for an invalid escape. With stop, the walk goes on to
 * the closing quote after a mismatch and *stop is its offset (len when there is none). */
int jj_pointer_token_equals_json(const jj_pointer_token *tok, const uint8_t *raw, size_t len, size_t *stop);

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

/* ---- Edits ---- */
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

/* ---- Skimming ---- */
/* jetjson: JSON Pointer lookups on trusted input without a tape (skim.c).
 *
 * jj_skim_index runs only stage 1 (structural index and UTF-8 check), then
 * jj_skim_locate follows the pointer on that index, comparing keys with their raw
 * (maybe escaped) bytes, and returns the byte span of the value found. The caller then
 * parses just that span. The grammar of the rest of the document is NOT checked:
 * a malformed document may give any answer (or JJ_SKIM_MALFORMED when the walk
 * notices), but never a read outside buf or the index.
 *
 * Pure C, no allocation beyond the parser's index buffer; iterative. */



/* Stage 1 of buf into the parser's index (jj_parser_structurals); the tape is left empty. */
jj_error jj_skim_index(jj_parser *p, const uint8_t *buf, size_t len);

/* Not a pointer status: the walk met something that is not JSON. */
#define JJ_SKIM_MALFORMED (-1)

/* Follows ptr on the index of jj_skim_index. JJ_PTR_OK with the value's bytes in
 * [*start, *end); another jj_pointer_status value (with *failed_at as
 * jj_pointer_resolve gives it); or JJ_SKIM_MALFORMED. */
int jj_skim_locate(const jj_parser *p, const uint8_t *buf, size_t len, const char *ptr, size_t plen,
                                 size_t *start, size_t *end, size_t *failed_at);

/* ---- Some fields of many documents ---- */
/* jetjson: the values at a few pointers in each document of a many, found by walking the
 * document's top level on the window's index (many_fields.c).
 *
 * jj_many_next_fields reads the next document as jj_many_next would, except that when the
 * document is an object whose top level (and every object on the way to the pointers)
 * follows the grammar on the index, it builds no tape: keys are compared as json reads
 * them, the values no pointer reaches are skipped by counting brackets (unchecked), and
 * for each pointer it gives the index range of its value, or "missing". Anything else (a
 * grammar error on that walk, a top level that is not an object, an array or scalar on
 * the way to a pointer, a key with an escaped surrogate, a deep document) falls back to
 * jj_many_next for that document: its tape, errors and verdicts stay exactly those.
 * Then jj_many_field_parse turns one range into a one-value tape as jj_parse makes it
 * (strings decoded into the parser's buffer, big ints pointing into the many's buffer),
 * the value at tape index 0; if the value is refused, jj_many_reparse reads the
 * document again the whole way, as jj_many_next without JJ_MANY_LAZY. Since the
 * walk reads either index, whether an unreached value is checked never depends on
 * where a window ends. */

#define JJ_FIELDS_MAX_TOKENS 32 /* a longer pointer is not skimmed */

/* The pointers, tokenized once (jj_fields_plan_new). */
typedef struct jj_fields_plan {
    size_t count;              /* pointers */
    bool skimmable;            /* false: read whole documents (see jj_fields_plan_new) */
    size_t *ntokens;           /* tokens of each pointer */
    jj_pointer_token *tokens;  /* pointer i's token t at [i * JJ_FIELDS_MAX_TOKENS + t] */
} jj_fields_plan;

/* A plan for the pointers ptrs[i] (lens[i] bytes), or NULL when out of memory. It is not
 * skimmable (every document read whole) when there are none or more than 64, when one is
 * "" or invalid or longer than JJ_FIELDS_MAX_TOKENS tokens, or when one leads into the
 * value of another (its tokens start with all of the other's, ["/a", "/a/b"]). */
jj_fields_plan *jj_fields_plan_new(const char *const *ptrs, const size_t *lens, size_t count);
void jj_fields_plan_delete(jj_fields_plan *plan);

/* Where one pointer's value is: index entries [first, first + count) (count 0: missing),
 * the next entry (a ',' or closing bracket) at byte region_end. */
typedef struct jj_field_span {
    size_t first, count, region_end;
} jj_field_span;

/* The next document: jj_many_next's result and *doc_start, *doc_end, with *whole true
 * when it came from jj_many_next (the parser holds its tape as jj_many_next leaves it),
 * false when it was skimmed (JJ_OK, spans[i] for pointer i, the tape untouched). A
 * plan that is not skimmable always reads whole documents. */
jj_error jj_many_next_fields(jj_many *m, const jj_fields_plan *plan, jj_field_span *spans, size_t *doc_start,
                             size_t *doc_end, bool *whole);
/* The value of a found span (count > 0) of the last document as a one-value tape (its
 * index entries lose the lazy flags): JJ_OK, JJ_ERR_NOMEM, or another error when stage 2
 * refuses it. */
jj_error jj_many_field_parse(jj_many *m, const jj_field_span *span);
/* The last document again, read the whole way: what jj_many_next gives for it without
 * JJ_MANY_LAZY and JJ_MANY_SPANS (a tape as jj_parse makes it, or its error). */
jj_error jj_many_reparse(jj_many *m, size_t *doc_start, size_t *doc_end);
/* Whether a window of buf[0, len) for a skimmable plan is best started on the plain
 * index (jj_many_start without JJ_MANY_LAZY): its first byte past white space opens an
 * object. The walk needs no lazy flags and the plain stage 1 costs less; a window of
 * arrays or scalars is read whole, where the lazy index saves more than it costs.
 * Streams are taken as alike throughout a window. */
bool jj_fields_window_plain(const uint8_t *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
