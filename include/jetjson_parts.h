/* jetjson engine: one conversion cut into parts, the parts converted on the worker pool
 * (jetjson_pool.h), their outputs joined in order. What the MessagePack converters and
 * the Arrow writer use for threads=.
 *
 * A part that a worker converts writes into a byte sink of its own (malloc'ed,
 * jetjson_write.h), which the calling thread appends to the caller's sink in order; the
 * calling thread converts queued parts itself while it waits, the next part in order
 * straight into the caller's sink. At most `threads` + 2 parts are queued or running at
 * once (so that a worker finds the next part while the caller appends), at most `threads`
 * threads work (the caller's among them) and at most `threads` + 2 part outputs are held
 * besides the caller's sink. A worker that finished a part maps (on Linux) the pages of
 * the caller's sink that the next parts will fill, so that the caller does not take
 * every page fault of the result: the sink's memory is never written by a worker. */
#ifndef JETJSON_PARTS_H
#define JETJSON_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "jetjson_write.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Cuts buf[0..len) at line ends into parts of about `block` bytes (at least 1): ends[i]
 * is one past the end of part i, just after a '\n' (the last part ends at len; a part
 * holding a line longer than a block is longer). At most max_parts parts (>= 1): the
 * last takes what is left. Returns the number of parts (0 for len 0). */
size_t jj_cut_at_lines(const uint8_t *buf, size_t len, size_t block, size_t *ends, size_t max_parts);

/* Converts part `index` into `out` (a fresh sink; any thread, concurrently with other
 * parts). 0, or nonzero for a failure (a failed sink counts as one even when 0 is
 * returned). */
typedef int (*jj_part_fn)(void *ctx, size_t index, jj_sink *out);
/* Says where part `index` is (in ctx), on the calling thread, in order of index, before
 * the part is handed out (so that finding the parts goes on while earlier ones are
 * converted): 1, or 0 when there is no such part (the input is all in earlier parts). */
typedef int (*jj_part_next_fn)(void *ctx, size_t index);

/* Runs fn on parts 0..n-1 (or fewer, when `next` is given and says so) on up to
 * `threads` threads and appends their outputs to out in
 * order, each part's sink started with room for `hint` bytes. Returns 0 when every part
 * succeeded and out holds them all; else -1 and *failed is the first part (in order)
 * that failed, with fn's result in *code (-1 for a failed part sink), or *failed == SIZE_MAX
 * when out itself failed. After a failure out holds what was appended before it (and
 * maybe part of the failed part's output), and no part runs any longer when this
 * returns. threads <= 1 runs every part here. */
int jj_parts_run(size_t n, unsigned threads, size_t hint, jj_part_fn fn, jj_part_next_fn next, void *ctx,
                 jj_sink *out, size_t *failed, int *code);

#ifdef __cplusplus
}
#endif
#endif
