/* The keyword arguments the format converters share (loads_arrow, dumpb_arrow and the
 * MessagePack converters): one rule and one wording for each. */
#ifndef JJ_FORMAT_ARGS_H
#define JJ_FORMAT_ARGS_H

#include "state.h"

/* threads=: None or an int >= 0, None and 0 meaning one per processor; at most 1024.
 * `threads` may be NULL (not given). 0, or -1 with an exception naming fn. */
int jj_format_threads(const char *fn, PyObject *threads, unsigned *n);

/* block_size=: a positive int (sizes past SIZE_MAX are SIZE_MAX). NULL leaves *n as it
 * is. 0, or -1 with an exception naming fn. */
int jj_format_block_size(const char *fn, PyObject *block_size, size_t *n);

#endif
