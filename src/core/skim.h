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
#ifndef JJ_SKIM_H
#define JJ_SKIM_H

#include <stddef.h>
#include <stdint.h>

#include "jetjson.h"
#include "pointer.h"

/* Stage 1 of buf into p->index (p->index_len entries); the tape is left empty. */
jj_error jj_skim_index(jj_parser *p, const uint8_t *buf, size_t len);

/* Not a pointer status: the walk met something that is not JSON. */
#define JJ_SKIM_MALFORMED (-1)

/* Follows ptr on the index of jj_skim_index. JJ_PTR_OK with the value's bytes in
 * [*start, *end); another jj_pointer_status value (with *failed_at as
 * jj_pointer_resolve gives it); or JJ_SKIM_MALFORMED. */
int jj_skim_locate(const jj_parser *p, const uint8_t *buf, size_t len, const char *ptr, size_t plen,
                                 size_t *start, size_t *end, size_t *failed_at);

#endif
