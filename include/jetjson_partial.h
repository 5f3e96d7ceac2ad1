/* Partial documents: the JSON text a truncated document stands for, for showing JSON
 * while it is still being written (an LLM's output, a slow download).
 *
 * jj_partial_complete cuts a truncated text after its last complete value (or opened
 * container) and closes what is open: `{"a": [1, 2], "b": tr` -> `{"a": [1, 2]}`. A
 * string cut short is dropped, or kept as far as it goes when keep_string is set and it
 * is a value (not a key): `["ab\u12` -> `["ab"]`. Keys without a value, numbers and
 * literals cut short (`1.`, `-`, `fal`) are dropped.
 *
 * It checks only the structure between tokens (brackets, commas, colons, what may start
 * a token); what it keeps is parsed afterwards by the caller, who thereby gets every
 * other error at its position in the original text (the kept text is a prefix of it). */
#ifndef JETJSON_PARTIAL_H
#define JETJSON_PARTIAL_H

#include <stddef.h>
#include <stdint.h>

#include "jetjson_write.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum jj_partial_kind {
    JJ_PARTIAL_WHOLE,     /* nothing to complete: parse the text as it is */
    JJ_PARTIAL_COMPLETED, /* the completed text is in the sink */
    JJ_PARTIAL_NOTHING,   /* not even one value or bracket is complete (parse the text
                           * as it is for its error) */
    JJ_PARTIAL_MALFORMED, /* the text is wrong, not only short (parse it for the error) */
    JJ_PARTIAL_NOMEM,
} jj_partial_kind;

/* Writes the completed text of buf[0..len) (UTF-8) to `out` when the answer is
 * JJ_PARTIAL_COMPLETED; writes nothing otherwise. */
jj_partial_kind jj_partial_complete(const uint8_t *buf, size_t len, int keep_string, jj_sink *out);

#ifdef __cplusplus
}
#endif

#endif
