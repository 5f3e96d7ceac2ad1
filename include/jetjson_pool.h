/* jetjson engine: a pool of worker threads, and the job it exists for (the documents of
 * one window of a stream, parsed ahead of the thread that consumes them).
 *
 * The pool: plain pthreads, no Python. Workers are started by the first submission that
 * wants them, sleep on a condition variable while the queue is empty, and are stopped
 * (joined) by jj_pool_release() and at process exit. A later submission starts them
 * again. After fork() the child has no workers: tasks that were queued or running in
 * the parent are marked JJ_TASK_LOST in the child, so that nobody waits on them forever
 * (their memory is left as it is: the job may have been half way through a realloc).
 *
 * Threads: every call may come from any thread. A task is owned by its submitter, and
 * must stay alive (not freed, not resubmitted) until jj_pool_wait or jj_pool_cancel has
 * returned for it. Tasks run in submission order, each on one worker. */
#ifndef JETJSON_POOL_H
#define JETJSON_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "jetjson.h"
#include "jetjson_paths.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most workers the pool starts, whatever is asked. */
#define JJ_POOL_MAX_WORKERS 64

typedef enum jj_task_state {
    JJ_TASK_IDLE = 0, /* not submitted, or taken back by jj_pool_cancel */
    JJ_TASK_QUEUED,
    JJ_TASK_RUNNING,
    JJ_TASK_DONE,
    JJ_TASK_LOST      /* queued or running when the process forked: this is the child */
} jj_task_state;

typedef struct jj_pool_task {
    void (*run)(void *arg); /* called once on a worker (or on the waiter, see jj_pool_wait) */
    void *arg;
    /* the pool's: read through the calls below */
    jj_task_state state;
    struct jj_pool_task *next;
} jj_pool_task;

/* Queues t (its run and arg set) and makes sure at least `workers` workers run (capped at
 * JJ_POOL_MAX_WORKERS). Returns 0; or -1 when no worker could be started at all, in which
 * case t is left IDLE and the caller runs it itself. */
int jj_pool_submit(jj_pool_task *t, unsigned workers);
/* Waits until t has run. A task no worker has taken yet is taken back and run on the
 * calling thread (a waiter never waits on a queue). Returns JJ_TASK_DONE, or JJ_TASK_LOST
 * (after a fork: t did not finish and never will) or JJ_TASK_IDLE (never submitted). */
jj_task_state jj_pool_wait(jj_pool_task *t);
/* Runs t on the calling thread when no worker has taken it yet: 1 (t is then DONE), else
 * 0 (it runs elsewhere, or is not queued). For a waiter with nothing else to do. */
int jj_pool_run_here(jj_pool_task *t);
/* t's state now (it may change right after, unless it is DONE, LOST or IDLE). */
jj_task_state jj_pool_state(const jj_pool_task *t);
/* Takes t back when no worker has started it (it then never runs), else waits for it.
 * Afterwards the pool no longer touches t. Returns the state t was left in. */
jj_task_state jj_pool_cancel(jj_pool_task *t);
/* Stops the workers once the queue is empty and joins them, and frees the windows kept
 * (jj_window_new); frees nothing else (the tasks are their owners'). The pool starts
 * again on the next submission. */
void jj_pool_release(void);
/* Workers running now (for tests and release()). */
unsigned jj_pool_workers(void);

/* ---- a window of a stream, parsed on a worker -------------------------------------
 * The documents of buf[0..len) as jj_many_start/jj_many_next give them, in order, up to
 * and including the first result that is not JJ_OK (JJ_ERR_EMPTY when the window was
 * read to its end, JJ_ERR_INCOMPLETE for a document cut by the window's end, or a
 * document's error). For each JJ_OK document the tape and string buffer are kept: one
 * tape and one string buffer for the whole window, each document a slice of them
 * (offsets in the tape and strings are relative to its slice; input offsets to buf),
 * or with `one_per_doc` (lazy views, which own their document) a jj_doc per document,
 * parsed by jj_parse_lazy over the document's own text (the window is then read with
 * JJ_MANY_SPANS). A window that a consumer reads from these is read exactly as it
 * would read it with jj_many_next itself. */
typedef struct jj_window_doc {
    jj_error err;          /* JJ_OK or the result that ended the window */
    int skimmed;           /* fields: JJ_OK with one value tape per pointer, no whole tape */
    size_t fields_at;      /* skimmed: its values are fields[fields_at, fields_at + count) */
    size_t start, end;     /* the document's text: buf[start, end) (jj_many_next's) */
    size_t tape_at, tape_len, strings_at, strings_len, max_depth; /* JJ_OK, !one_per_doc */
    jj_doc doc;            /* one_per_doc: the lazy tape (JJ_OK) */
    jj_error lazy_err;     /* one_per_doc: jj_parse_lazy's result on the document */
} jj_window_doc;

typedef struct jj_window {
    /* in */
    const uint8_t *buf;
    size_t len;
    unsigned flags;        /* JJ_MANY_MORE_INPUT; JJ_MANY_SPANS is implied by one_per_doc */
    int one_per_doc;
    const jj_fields_plan *fields; /* skim for these pointers (see jj_window_set_fields) */
    /* out */
    jj_window_doc *docs;
    size_t count, docs_cap;
    uint64_t *tape;
    size_t tape_len, tape_cap;
    uint8_t *strings;
    size_t strings_len, strings_cap;
    struct jj_window_field *values; /* fields: the values of the skimmed documents */
    size_t values_len, values_cap;
    jj_error pending;      /* jj_many's stage 1 error and its offset (see jj_many) */
    size_t pending_at;
    /* the worker's */
    jj_parser *parser, *lazy_parser; /* made by the first jj_window_parse */
    jj_pool_task task;
} jj_window;

/* ---- fields= on the worker ----
 * With a skimmable plan (jetjson_paths.h) set, the window is read the way a consumer
 * reads a window with jj_many_next_fields (JJ_MANY_LAZY set unless the window starts with
 * an object, as the consumer's own windows): each document is skimmed
 * and for each pointer the value found is parsed by jj_many_field_parse into a one-value
 * tape kept in the window's buffers (or noted missing): the document is then `skimmed`.
 * A document the skim reads whole, or one with a value the engine refuses, is read
 * again by jj_many_reparse: its plain tape (or its error, ending the window) is kept as
 * without a plan. So a consumer sees for each document either its values or what
 * jj_many_reparse gives, exactly what a jj_many_next_fields loop on the window gives. */
typedef struct jj_window_field {
    int found;             /* 0: the pointer leads nowhere in this document */
    size_t tape_at, tape_len, strings_at, strings_len, max_depth;
} jj_window_field;

/* Skims the window's documents for plan (NULL: parses them whole, as by default). The
 * plan must outlive the window's parses. Not while its task is queued or running. */
void jj_window_set_fields(jj_window *w, const jj_fields_plan *plan);
/* Document i (skimmed) and its pointer f: 1 with *out a read-only jj_doc of the value
 * (at tape index 0; input the window's buf), or 0 when the pointer leads nowhere. */
int jj_window_field_doc(const jj_window *w, size_t i, size_t f, jj_doc *out);

/* Sets up w for buf[0..len) (nothing allocated yet). */
void jj_window_init(jj_window *w, const uint8_t *buf, size_t len, unsigned flags, int one_per_doc);

/* ---- windows kept from one stream to the next ----
 * A window's buffers are written by a worker: fresh ones cost it a page fault per 4 KiB
 * (about 2000 a call for 8 MB of NDJSON, and as many when the stream frees them), which
 * kept windows do not. Up to JJ_WINDOWS_KEPT windows given back by jj_window_delete are
 * kept, buffers and all (when these hold at most JJ_WINDOW_KEPT_BYTES), for the next
 * jj_window_new; jj_pool_release frees them. */
#define JJ_WINDOWS_KEPT 8
/* A window holding more than this (buffers and parsers) is freed, not kept. */
#define JJ_WINDOW_KEPT_BYTES ((size_t)8 << 20)
/* A window set up for buf[0..len) as jj_window_init does, no fields plan: a kept one when
 * there is one, else a new one. NULL when out of memory. Any thread. */
jj_window *jj_window_new(const uint8_t *buf, size_t len, unsigned flags, int one_per_doc);
/* Gives back a window from jj_window_new that is not in work (never submitted, or waited
 * for, or cancelled): kept for a later jj_window_new, or freed. NULL is ignored. */
void jj_window_delete(jj_window *w);
/* Windows kept now (for tests). */
unsigned jj_windows_kept(void);
/* Points a window that was parsed (and consumed) at other bytes, keeping its buffers
 * for the next parse: what it held is dropped. Not while its task is queued or running. */
void jj_window_retarget(jj_window *w, const uint8_t *buf, size_t len, unsigned flags);
/* Sets up a window that was parsed before for buf[0..len) as jj_window_init would, keeping
 * its buffers and parsers (its fields plan is dropped). Not while its task is queued or
 * running. */
void jj_window_reinit(jj_window *w, const uint8_t *buf, size_t len, unsigned flags, int one_per_doc);
/* Parses the window (any thread; touches w and the kernel table only). On allocation
 * failure the last document reads JJ_ERR_NOMEM. Runs again from scratch if called again. */
void jj_window_parse(jj_window *w);
/* Frees what the window holds, the jj_docs it still owns included (a consumer that takes
 * a doc out leaves it empty). */
void jj_window_free(jj_window *w);
/* Moves document i's lazy tape (one_per_doc, lazy_err JJ_OK) into p, whose own tape and
 * strings are freed first, as if p had parsed it with jj_parse_lazy. */
void jj_window_doc_into(jj_window *w, size_t i, jj_parser *p);
/* Makes `view` a read-only parser over document i (JJ_OK, !one_per_doc) for the tape's
 * consumers (jj_parser_result shows the document). The view borrows the window's
 * buffers: it must not parse, and jj_window_unview empties it before it is deleted. */
void jj_window_view(const jj_window *w, size_t i, jj_parser *view);
/* Lets go of what jj_window_view lent `view` (nothing is freed); the view is empty. */
void jj_window_unview(jj_parser *view);

#ifdef __cplusplus
}
#endif
#endif
