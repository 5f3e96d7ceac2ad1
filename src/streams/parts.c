/* One conversion cut into parts run on the worker pool: see jetjson_parts.h. */
#include "jetjson_parts.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

typedef struct part_shared {
    pthread_t caller;         /* the thread in jj_parts_run: it prefaults nothing */
    uintptr_t out_from, out_to; /* the caller's sink's free room when the run began */
    _Atomic size_t faulted;   /* bytes of that room handed to prefaulting so far */
    unsigned threads;
} part_shared;

typedef struct part_task {
    jj_pool_task task;
    jj_part_fn fn;
    void *ctx;
    part_shared *shared;
    size_t index, hint;
    jj_sink sink;
    int code;
} part_task;

/* A worker that finished a part maps the pages of the caller's sink that the next parts
 * will be appended to (about as many bytes as the threads make while it made this part),
 * so that the calling thread, which appends every part, does not take their page faults
 * too. Only the kernel's page tables change: the bytes are untouched, so this may run
 * while the caller writes there, and a range the caller's sink has since left (grown
 * elsewhere) is harmless to map or fails. */
static void part_prefault(part_shared *s, size_t made) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    if (s->out_to <= s->out_from || pthread_equal(pthread_self(), s->caller)) return;
    size_t room = s->out_to - s->out_from, want = made * s->threads;
    size_t at = atomic_fetch_add_explicit(&s->faulted, want, memory_order_relaxed);
    if (at >= room) return;
    if (want > room - at) want = room - at;
    long page_size = sysconf(_SC_PAGESIZE);
    uintptr_t page = page_size > 0 ? (uintptr_t)page_size : 4096;
    uintptr_t from = (s->out_from + at) & ~(uintptr_t)(page - 1), to = s->out_from + at + want;
    (void)madvise((void *)from, (size_t)(to - from), MADV_POPULATE_WRITE);
#else
    (void)s;
    (void)made;
#endif
}

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
    if (t->code == 0) part_prefault(t->shared, jj_sink_len(&t->sink));
}

int jj_parts_run(size_t n, unsigned threads, size_t hint, jj_part_fn fn, jj_part_next_fn next, void *ctx,
                 jj_sink *out, size_t *failed, int *code) {
    *failed = 0;
    *code = 0;
    if (threads < 1) threads = 1;
    /* two parts queued beyond one per thread: a worker always finds the next one while
     * the caller appends, and the caller converts fewer parts as appending takes its time */
    size_t window = threads > 1 ? (size_t)threads + 2 : 1;
    if (window > n) window = n;
    part_shared shared = {pthread_self(), (uintptr_t)out->pos, (uintptr_t)out->end, 0, threads};
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
            t->shared = &shared;
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
