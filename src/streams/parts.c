/* One conversion cut into parts run on the worker pool: see jetjson_parts.h. */
#include "jetjson_parts.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jetjson_pool.h"

size_t jj_cut_at_lines(const uint8_t *buf, size_t len, size_t block, size_t *ends, size_t max_parts) {
    if (len == 0 || max_parts == 0) return 0;
    if (block == 0) block = 1;
    size_t n = 0, from = 0;
    while (from < len) {
        size_t to = len;
        if (n + 1 < max_parts && len - from > block) {
            /* the line that holds the block's last byte ends the part */
            const uint8_t *nl = memchr(buf + from + block - 1, '\n', len - (from + block - 1));
            if (nl) to = (size_t)(nl - buf) + 1;
        }
        ends[n++] = to;
        from = to;
    }
    return n;
}

typedef struct part_task {
    jj_pool_task task;
    jj_part_fn fn;
    void *ctx;
    size_t index, hint;
    jj_sink sink;
    int code;
} part_task;

static void part_run(void *arg) {
    part_task *t = arg;
    if (t->sink.start && !t->sink.error) { /* the slot's buffer from an earlier part: mapped */
        t->sink.pos = t->sink.start;
    } else if (jj_sink_free_malloc(&t->sink), jj_sink_init_malloc(&t->sink, t->hint)) {
        t->code = -1;
        return;
    }
    t->code = t->fn(t->ctx, t->index, &t->sink);
    if (t->code == 0 && t->sink.error) t->code = -1;
}

int jj_parts_run(size_t n, unsigned threads, size_t hint, jj_part_fn fn, jj_part_next_fn next, void *ctx,
                 jj_sink *out, size_t *failed, int *code) {
    *failed = 0;
    *code = 0;
    if (threads < 1) threads = 1;
    size_t window = threads < n ? threads : n;
    part_task *slots = window ? calloc(window, sizeof *slots) : NULL;
    if (window && !slots) { /* no memory for the bookkeeping: refuse, as a failed sink */
        *code = -1;
        return -1;
    }
    size_t submitted = 0;
    int result = 0;
    /* part i lives in slots[i % window] from its submission until it is appended */
    for (size_t i = 0; i < n; i++) {
        while (submitted < n && submitted < i + window) {
            if (next && !next(ctx, submitted)) {
                n = submitted; /* no more parts */
                break;
            }
            part_task *t = &slots[submitted % window];
            memset(&t->task, 0, sizeof t->task);
            t->code = 0;
            t->fn = fn;
            t->ctx = ctx;
            t->index = submitted;
            t->hint = hint;
            t->task.run = part_run;
            t->task.arg = t;
            if (threads > 1) jj_pool_submit(&t->task, threads - 1); /* if refused: run here below */
            submitted++;
        }
        if (i >= n) break;
        part_task *t = &slots[i % window];
        /* while a worker converts it, convert later parts still queued */
        for (size_t j = i + 1; j < submitted && jj_pool_state(&t->task) == JJ_TASK_RUNNING; j++)
            jj_pool_run_here(&slots[j % window].task);
        jj_task_state state = jj_pool_cancel(&t->task);
        if (state == JJ_TASK_IDLE) {
            /* nobody took it (or it was never queued): convert it straight into out */
            t->code = fn(ctx, i, out);
            if (out->error) {
                *failed = SIZE_MAX;
                *code = -1;
                result = -1;
            } else if (t->code) {
                *failed = i;
                *code = t->code;
                result = -1;
            }
        } else if (state != JJ_TASK_DONE || t->code) {
            if (state != JJ_TASK_DONE) memset(&t->sink, 0, sizeof t->sink); /* LOST in a fork: leave it */
            *failed = i;
            *code = t->code ? t->code : -1;
            result = -1;
        } else if (jj_sink_put(out, t->sink.start, jj_sink_len(&t->sink))) {
            *failed = SIZE_MAX;
            *code = -1;
            result = -1;
        }
        if (result) {
            for (size_t j = i + 1; j < submitted; j++) {
                part_task *rest = &slots[j % window];
                if (jj_pool_cancel(&rest->task) == JJ_TASK_LOST) memset(&rest->sink, 0, sizeof rest->sink);
            }
            break;
        }
    }
    for (size_t k = 0; k < window; k++) jj_sink_free_malloc(&slots[k].sink);
    free(slots);
    return result;
}
