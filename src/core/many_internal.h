/* The document splitter's pieces that the fields= skim (many_fields.c) shares with
 * jj_many_next (parser.c). Internal to the engine. */
#ifndef JJ_MANY_INTERNAL_H
#define JJ_MANY_INTERNAL_H

#include "engine_internal.h"

/* Stage 2, plain or lazy (the kernel set's stage2 or stage2_lazy), over index entries
 * [first, first + count) as one document ending at region_end, which starts at
 * doc_start. JJ_ERR_NOMEM when the buffers could not grow; else the stage's verdict (a
 * lazy one's error is for the caller to ask the plain stage 2 about). */
jj_error jj_many_stage2(jj_parser *p, int lazy, size_t first, size_t count, const uint8_t *buf, size_t doc_start,
                        size_t region_end);
/* Where a document ending at region_end ends: before the whitespace that follows it. */
size_t jj_doc_end(const uint8_t *buf, size_t doc_start, size_t region_end);
/* Whether buf[at..len) is the start of a UTF-8 sequence that more bytes could finish. */
int jj_utf8_cut_short(const uint8_t *buf, size_t len, size_t at);

#endif
