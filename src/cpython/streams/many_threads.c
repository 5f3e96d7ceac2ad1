/* threads=N for the stream iterator (many.h): the windows after the one being read are
 * parsed ahead on the engine's worker pool (jetjson_pool.h), GIL released, while this
 * thread builds the objects of the documents in order.
 *
 * A window parsed ahead holds what jj_many_next would give for it, so it is read the way
 * a window opened here is read, by the same code: only where the documents come from
 * changes. The windows ahead are cut as the iterator cuts its own (jj_many_window_size),
 * each starting where the one before ends: after a small first window read here, they
 * grow to JJ_AHEAD_WINDOW, so that the worker is ahead from the start. Their buffers are
 * kept for the next stream (jj_window_new), which then faults in no fresh pages. When
 * the iterator opens a window elsewhere (a document cut by a window's end, a document
 * json reads differently from the engine) the windows ahead are dropped and reading
 * ahead starts again after the window it opens; a stream where that keeps happening
 * (documents over several lines) is read on this thread alone.
 *
 * With fields= (a skimmable plan) the worker skims its window as jj_many_next_fields
 * does here and parses the values found (jj_window_set_fields): this thread only builds
 * their objects. A document the worker could not finish that way (an error, a value too
 * deep or with too many digits for this thread's limits) is read again here from its
 * start, as threads=None reads it (many.c restarts there on any document error).
 *
 * Only input held in memory in the formats "whitespace" and "lines" reads ahead; file
 * objects and Decoder chunks, "json_seq", "comma" and "array" are read on this thread. */
#include <stdlib.h>
#include <string.h>

#include "many.h"

#define JJ_AHEAD_MAX 16 /* windows in work at once, at most */
/* Windows read ahead are at most this long: the tape of a window parsed on another core
 * is read back from a shared cache, which a smaller window still fits (256 KiB costs the
 * calling thread about half what 1 MiB windows do, measured on the GitHub events). */
#define JJ_AHEAD_WINDOW ((size_t)256 << 10)
/* The first window, read here while the worker reads the next: small, so that this
 * thread parses little and the worker is ahead from the start; the windows after it
 * double up to JJ_AHEAD_WINDOW (each parsed while this thread builds the one before,
 * about twice as long as parsing it). */
#define JJ_FIRST_WINDOW ((size_t)32 << 10)

typedef struct jj_many_threads {
    unsigned workers;
    size_t depth;                  /* windows in work at once */
    jj_window *slots[JJ_AHEAD_MAX + 1];
    /* in work: slots[head], slots[head + 1]... (mod depth + 1); the slot before head
     * holds the window being read, so at most depth are in work */
    size_t head, count;
    size_t plan_at;                /* where the next window to submit starts */
    size_t ramp;                   /* the next window's size while the first ones grow */
    size_t hits, misses;
    int off;                       /* stopped reading ahead for good */
    size_t batch;                  /* the iterator's own window size, given back when off */
} jj_many_threads;

static size_t jj_slot_at(const jj_many_threads *t, size_t k) { return (t->head + k) % (t->depth + 1); }

int jj_threads_start(jj_many_iter *it, Py_ssize_t workers) {
    if (it->streamed || (it->format != JJ_FMT_WHITESPACE && it->format != JJ_FMT_LINES))
        return 0; /* read on this thread (see above) */
    size_t batch = it->batch;
    if (it->len <= (batch < JJ_AHEAD_WINDOW ? batch : JJ_AHEAD_WINDOW)) return 0; /* one window */
    jj_many_threads *t = calloc(1, sizeof *t);
    if (!t) {
        PyErr_NoMemory();
        return -1;
    }
    t->batch = batch;
    /* the results do not depend on the window size; the first window is small (it is
     * read before anything is ahead), jj_threads_open sets the size of the others */
    if (it->batch > JJ_FIRST_WINDOW) it->batch = JJ_FIRST_WINDOW;
    t->ramp = it->batch;
    t->workers = workers > JJ_POOL_MAX_WORKERS ? JJ_POOL_MAX_WORKERS : (unsigned)workers;
    /* a window in work and one waiting per worker, and two for this thread to parse
     * while it waits, keep everyone busy; memory: about (depth + 1) windows of index,
     * tape and strings */
    t->depth = 2 * (size_t)t->workers + 2;
    if (t->depth > JJ_AHEAD_MAX) t->depth = JJ_AHEAD_MAX;
    t->plan_at = SIZE_MAX; /* nothing planned: the first window is opened here */
    it->threads = t;
    return 0;
}

/* Waits for a window in work, GIL released; the state the pool left it in. */
static jj_task_state jj_wait_window(jj_window *w) {
    jj_task_state s;
    Py_BEGIN_ALLOW_THREADS
    s = jj_pool_wait(&w->task);
    Py_END_ALLOW_THREADS
    return s;
}

/* Waits for the window at the head (slots[head], out of the ring already) while parsing
 * the windows behind it that no worker has taken yet, last first (the workers take them
 * from the front): this thread works instead of sleeping when the engine is the slower
 * side (parse_many, fields=). */
static jj_task_state jj_wait_head(jj_many_threads *t, jj_window *w) {
    jj_task_state s;
    Py_BEGIN_ALLOW_THREADS
    for (size_t k = t->count; k > 0 && jj_pool_state(&w->task) == JJ_TASK_RUNNING; k--)
        jj_pool_run_here(&t->slots[jj_slot_at(t, k - 1)]->task);
    s = jj_pool_wait(&w->task);
    Py_END_ALLOW_THREADS
    return s;
}

/* Gives up slot k's window: a window the pool lost (this is a forked child) may be half
 * written, so its memory is left alone and the slot gets a new one later. */
static void jj_forget_slot(jj_many_threads *t, size_t k, jj_task_state s) {
    if (s == JJ_TASK_LOST) t->slots[k] = NULL;
}

/* Drops the windows in work (taken back from the queue, or waited for). */
static void jj_drop_ahead(jj_many_threads *t) {
    for (size_t k = 0; k < t->count; k++) {
        size_t slot = jj_slot_at(t, k);
        jj_window *w = t->slots[slot];
        jj_task_state s = jj_pool_cancel(&w->task);
        if (s == JJ_TASK_RUNNING) s = jj_wait_window(w);
        jj_forget_slot(t, slot, s);
    }
    t->count = 0;
    t->plan_at = SIZE_MAX;
}

/* Submits windows from t->plan_at until `depth` are in work. */
static void jj_plan(jj_many_iter *it, jj_many_threads *t) {
    while (!t->off && t->plan_at < it->len && t->count < t->depth) {
        size_t slot = jj_slot_at(t, t->count);
        size_t n = jj_many_window_size(it, t->plan_at, t->ramp < it->batch ? t->ramp : it->batch);
        if (t->ramp < it->batch) t->ramp *= 2;
        unsigned flags = t->plan_at + n < it->len ? JJ_MANY_MORE_INPUT : 0;
        if (t->plan_at && it->buf[t->plan_at - 1] != '\n') {
            /* the window before ends inside a line longer than half a window: this one
             * would start inside it (maybe inside a string: the engine then walks back
             * string by string to where the text goes wrong); this thread reads on,
             * with its own window size (fewer re-reads of a long line) */
            t->plan_at = SIZE_MAX;
            it->batch = t->batch;
            return;
        }
        jj_window *w = t->slots[slot];
        if (!w) {
            w = jj_window_new(it->buf + t->plan_at, n, flags, it->spans);
            if (!w) return; /* read here instead */
            /* the skim on the worker (not for views or type=, which read whole documents) */
            jj_window_set_fields(w, it->typed_plan || it->spans ? NULL : it->fields_plan);
            t->slots[slot] = w;
        } else {
            jj_window_retarget(w, it->buf + t->plan_at, n, flags);
        }
        if (jj_pool_submit(&w->task, t->workers) != 0) { /* no thread could start */
            t->off = 1;
            return;
        }
        t->count++;
        t->plan_at += n;
    }
}

int jj_threads_open(jj_many_iter *it, size_t want) {
    jj_many_threads *t = it->threads;
    it->ahead = NULL; /* the window read last is done with: its slot may be reused */
    int normal = want == it->batch; /* not a window grown for a long document */
    size_t head = t->head;
    jj_window *w = t->count ? t->slots[head] : NULL;
    if (w && normal && w->buf == it->buf + it->pos) { /* w->len is the window's length */
        t->head = jj_slot_at(t, 1);
        t->count--;
        jj_task_state s = jj_wait_head(t, w);
        if (s == JJ_TASK_DONE) {
            t->hits++;
            it->ahead = w;
            it->ahead_next = 0;
            it->window = it->pos;
            it->window_len = w->len;
            it->window_open = 1;
            it->many.pending = w->pending;
            it->many.pending_at = w->pending_at;
            jj_plan(it, t);
            return 1;
        }
        jj_forget_slot(t, head, s);
    } else if (t->plan_at != SIZE_MAX) {
        t->misses++; /* the iterator went elsewhere: what is ahead is of no use */
    }
    jj_drop_ahead(t);
    if (!t->off && t->misses >= 16 && t->misses > 2 * t->hits) { /* documents over several lines */
        t->off = 1;
        it->batch = t->batch; /* bigger windows cut fewer long documents */
    }
    if (!normal) { /* a longer window for a long document: what comes after it is known
                    * once it is read (one miss per long document) */
        t->plan_at = SIZE_MAX;
        return 0;
    }
    size_t n = jj_many_window_size(it, it->pos, want); /* the window the caller opens */
    if (!t->off) { /* planning resumes, with windows up to JJ_AHEAD_WINDOW (up to the
                    * iterator's own size after the small first one) */
        size_t ahead = t->batch < JJ_AHEAD_WINDOW ? t->batch : JJ_AHEAD_WINDOW;
        int first = it->batch < ahead && !t->hits && !t->misses;
        if (it->batch > ahead || first) it->batch = ahead;
        if (first && it->pos + n < it->len && it->buf[it->pos + n - 1] != '\n') {
            /* a first line longer than half the small window: this thread reads it
             * (growing its window) before anything is planned, rather than plan
             * windows from inside it (jj_plan would then give up the small windows) */
            t->plan_at = SIZE_MAX;
            return 0;
        }
    }
    /* the caller opens this window; reading ahead goes on after it */
    t->plan_at = it->pos + n;
    jj_plan(it, t);
    return 0;
}

/* Field i of the skimmed document in hand: its one-value tape in the window. */
static PyObject *jj_ahead_field(jj_many_iter *it, void *unused, Py_ssize_t i) {
    (void)unused;
    jj_window *w = it->ahead;
    jj_doc value;
    if (!jj_window_field_doc(w, it->ahead_next - 1, (size_t)i, &value)) return Py_NewRef(it->default_value);
    return jj_many_field_value(it, &value, w->buf);
}

jj_error jj_threads_next(jj_many_iter *it, size_t *start, size_t *end) {
    jj_window *w = it->ahead;
    if (w->count == 0) { /* the worker could not even allocate its results */
        *start = *end = 0;
        return JJ_ERR_NOMEM;
    }
    if (it->ahead_next >= w->count) { /* never after the last result: the window was closed */
        *start = *end = w->len;
        return JJ_ERR_EMPTY;
    }
    size_t i = it->ahead_next++;
    const jj_window_doc *d = &w->docs[i];
    *start = d->start;
    *end = d->end;
    if (d->skimmed) { /* the worker parsed the values found: only their objects are built here */
        int r = jj_many_build_fields(it, jj_ahead_field, NULL);
        if (r < 0) return JJ_ERR_NOMEM; /* MemoryError is the only exception it lets through */
        /* 1: a value json must decide (too deep, too many digits). Any document error
         * makes the iterator read the document again here, from its start, as a window
         * of its own (many.c): exactly as threads=None does. */
        return r == 0 ? JJ_OK : JJ_ERR_VALUE;
    }
    if (d->err == JJ_OK && !w->one_per_doc) jj_window_view(w, i, it->ahead_view);
    return d->err;
}

jj_error jj_threads_take_lazy(jj_many_iter *it) {
    jj_window *w = it->ahead;
    size_t i = it->ahead_next - 1;
    jj_error err = w->docs[i].lazy_err;
    if (err == JJ_OK) jj_window_doc_into(w, i, it->doc_parser);
    return err;
}

void jj_threads_stop(jj_many_iter *it) {
    jj_many_threads *t = it->threads;
    if (!t) return;
    jj_drop_ahead(t);
    it->ahead_hits += t->hits;
    it->ahead_misses += t->misses;
    for (size_t k = 0; k <= t->depth; k++) jj_window_delete(t->slots[k]); /* kept for the next stream */
    free(t);
    it->threads = NULL;
    it->ahead = NULL;
}

PyObject *jj_threads_stats(PyObject *self, PyObject *unused) {
    (void)unused;
    jj_many_iter *it = (jj_many_iter *)self;
    jj_many_threads *t = it->threads;
    size_t hits = it->ahead_hits + (t ? t->hits : 0), misses = it->ahead_misses + (t ? t->misses : 0);
    return Py_BuildValue("nnO", (Py_ssize_t)hits, (Py_ssize_t)misses, t && !t->off ? Py_True : Py_False);
}
