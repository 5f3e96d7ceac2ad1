/* The worker pool (jetjson_pool.h): one queue under one mutex, workers sleeping on a
 * condition variable, waiters on another. Plain data only: no Python. */
#include <pthread.h>
#include <stdlib.h>

#include "jetjson_pool.h"

static pthread_mutex_t jj_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t jj_pool_work = PTHREAD_COND_INITIALIZER; /* a task came, or stop */
static pthread_cond_t jj_pool_done = PTHREAD_COND_INITIALIZER; /* a task finished */
static jj_pool_task *jj_queue_head, *jj_queue_tail;
static pthread_t jj_workers[JJ_POOL_MAX_WORKERS];
static jj_pool_task *jj_running[JJ_POOL_MAX_WORKERS]; /* what each worker runs (fork) */
static unsigned jj_worker_count;
static int jj_stopping;
static pthread_once_t jj_pool_once = PTHREAD_ONCE_INIT;
static jj_window *jj_kept[JJ_WINDOWS_KEPT]; /* idle windows for jj_window_new */
static unsigned jj_kept_count;

static jj_pool_task *jj_queue_pop(void) {
    jj_pool_task *t = jj_queue_head;
    if (t) {
        jj_queue_head = t->next;
        if (!jj_queue_head) jj_queue_tail = NULL;
        t->next = NULL;
    }
    return t;
}

/* Unlinks t from the queue (it is there): O(queue), and the queue is short. */
static void jj_queue_remove(jj_pool_task *t) {
    jj_pool_task *prev = NULL;
    for (jj_pool_task *q = jj_queue_head; q; prev = q, q = q->next) {
        if (q != t) continue;
        if (prev) prev->next = t->next;
        else jj_queue_head = t->next;
        if (jj_queue_tail == t) jj_queue_tail = prev;
        t->next = NULL;
        return;
    }
}

static void *jj_worker_main(void *arg) {
    size_t slot = (size_t)(uintptr_t)arg;
    pthread_mutex_lock(&jj_pool_lock);
    for (;;) {
        jj_pool_task *t = jj_queue_pop();
        if (!t) {
            if (jj_stopping) break;
            pthread_cond_wait(&jj_pool_work, &jj_pool_lock);
            continue;
        }
        t->state = JJ_TASK_RUNNING;
        jj_running[slot] = t;
        pthread_mutex_unlock(&jj_pool_lock);
        t->run(t->arg);
        pthread_mutex_lock(&jj_pool_lock);
        jj_running[slot] = NULL;
        t->state = JJ_TASK_DONE;
        pthread_cond_broadcast(&jj_pool_done);
    }
    pthread_mutex_unlock(&jj_pool_lock);
    return NULL;
}

/* fork: the child gets the lock in a known state and no workers; what was queued or
 * running in the parent is lost to it */
static void jj_fork_prepare(void) { pthread_mutex_lock(&jj_pool_lock); }
static void jj_fork_parent(void) { pthread_mutex_unlock(&jj_pool_lock); }
static void jj_fork_child(void) {
    for (jj_pool_task *t = jj_queue_head; t;) {
        jj_pool_task *next = t->next;
        t->state = JJ_TASK_LOST;
        t->next = NULL;
        t = next;
    }
    jj_queue_head = jj_queue_tail = NULL;
    for (unsigned i = 0; i < jj_worker_count; i++) {
        if (jj_running[i]) jj_running[i]->state = JJ_TASK_LOST;
        jj_running[i] = NULL;
    }
    jj_worker_count = 0;
    jj_stopping = 0;
    /* the condition variables may hold the parent's waiters: start them afresh */
    pthread_cond_t fresh = PTHREAD_COND_INITIALIZER;
    jj_pool_work = fresh;
    jj_pool_done = fresh;
    pthread_mutex_unlock(&jj_pool_lock);
}

static void jj_pool_at_exit(void) { jj_pool_release(); }

static void jj_pool_setup(void) {
    pthread_atfork(jj_fork_prepare, jj_fork_parent, jj_fork_child);
    atexit(jj_pool_at_exit);
}

/* Starts workers until `want` run (the lock is held). */
static void jj_start_workers(unsigned want) {
    if (want > JJ_POOL_MAX_WORKERS) want = JJ_POOL_MAX_WORKERS;
    while (jj_worker_count < want) {
        pthread_attr_t attr;
        if (pthread_attr_init(&attr) != 0) return;
        pthread_attr_setstacksize(&attr, (size_t)256 << 10); /* the engine never recurses */
        unsigned slot = jj_worker_count;
        jj_running[slot] = NULL;
        int rc = pthread_create(&jj_workers[slot], &attr, jj_worker_main, (void *)(uintptr_t)slot);
        pthread_attr_destroy(&attr);
        if (rc != 0) return;
        jj_worker_count++;
    }
}

int jj_pool_submit(jj_pool_task *t, unsigned workers) {
    pthread_once(&jj_pool_once, jj_pool_setup);
    pthread_mutex_lock(&jj_pool_lock);
    /* a release in progress is joining: let it finish before starting anew */
    while (jj_stopping) pthread_cond_wait(&jj_pool_done, &jj_pool_lock);
    jj_start_workers(workers ? workers : 1);
    int ok = jj_worker_count > 0;
    if (ok) {
        t->state = JJ_TASK_QUEUED;
        t->next = NULL;
        if (jj_queue_tail) jj_queue_tail->next = t;
        else jj_queue_head = t;
        jj_queue_tail = t;
        pthread_cond_signal(&jj_pool_work);
    } else {
        t->state = JJ_TASK_IDLE;
    }
    pthread_mutex_unlock(&jj_pool_lock);
    return ok ? 0 : -1;
}

int jj_pool_run_here(jj_pool_task *t) {
    pthread_mutex_lock(&jj_pool_lock);
    if (t->state != JJ_TASK_QUEUED) {
        pthread_mutex_unlock(&jj_pool_lock);
        return 0;
    }
    jj_queue_remove(t);
    t->state = JJ_TASK_RUNNING;
    pthread_mutex_unlock(&jj_pool_lock);
    t->run(t->arg);
    pthread_mutex_lock(&jj_pool_lock);
    t->state = JJ_TASK_DONE;
    pthread_cond_broadcast(&jj_pool_done);
    pthread_mutex_unlock(&jj_pool_lock);
    return 1;
}

jj_task_state jj_pool_state(const jj_pool_task *t) {
    pthread_mutex_lock(&jj_pool_lock);
    jj_task_state s = t->state;
    pthread_mutex_unlock(&jj_pool_lock);
    return s;
}

jj_task_state jj_pool_wait(jj_pool_task *t) {
    jj_pool_run_here(t); /* nobody took it: run it here */
    pthread_mutex_lock(&jj_pool_lock);
    while (t->state == JJ_TASK_RUNNING) pthread_cond_wait(&jj_pool_done, &jj_pool_lock);
    jj_task_state s = t->state;
    pthread_mutex_unlock(&jj_pool_lock);
    return s;
}

jj_task_state jj_pool_cancel(jj_pool_task *t) {
    pthread_mutex_lock(&jj_pool_lock);
    if (t->state == JJ_TASK_QUEUED) {
        jj_queue_remove(t);
        t->state = JJ_TASK_IDLE;
    }
    while (t->state == JJ_TASK_RUNNING) pthread_cond_wait(&jj_pool_done, &jj_pool_lock);
    jj_task_state s = t->state;
    pthread_mutex_unlock(&jj_pool_lock);
    return s;
}

jj_window *jj_window_new(const uint8_t *buf, size_t len, unsigned flags, int one_per_doc) {
    pthread_once(&jj_pool_once, jj_pool_setup); /* the lock's fork handlers */
    pthread_mutex_lock(&jj_pool_lock);
    jj_window *w = jj_kept_count ? jj_kept[--jj_kept_count] : NULL;
    pthread_mutex_unlock(&jj_pool_lock);
    if (w) {
        jj_window_reinit(w, buf, len, flags, one_per_doc);
        return w;
    }
    w = malloc(sizeof *w);
    if (w) jj_window_init(w, buf, len, flags, one_per_doc);
    return w;
}

/* Bytes a window's buffers and parsers hold now. */
static size_t jj_window_held(const jj_window *w) {
    size_t held = w->docs_cap * sizeof *w->docs + w->values_cap * sizeof *w->values +
                  w->tape_cap * sizeof *w->tape + w->strings_cap;
    if (w->parser) held += jj_parser_capacity(w->parser);
    if (w->lazy_parser) held += jj_parser_capacity(w->lazy_parser);
    return held;
}

void jj_window_delete(jj_window *w) {
    if (!w) return;
    pthread_once(&jj_pool_once, jj_pool_setup);
    pthread_mutex_lock(&jj_pool_lock);
    /* a window grown by a huge document is not kept: idle memory stays bounded */
    int kept = jj_kept_count < JJ_WINDOWS_KEPT && jj_window_held(w) <= JJ_WINDOW_KEPT_BYTES;
    if (kept) jj_kept[jj_kept_count++] = w;
    pthread_mutex_unlock(&jj_pool_lock);
    if (kept) return;
    jj_window_free(w);
    free(w);
}

unsigned jj_windows_kept(void) {
    pthread_mutex_lock(&jj_pool_lock);
    unsigned n = jj_kept_count;
    pthread_mutex_unlock(&jj_pool_lock);
    return n;
}

/* Frees the windows kept (outside the lock: freeing takes a while). */
static void jj_free_kept_windows(void) {
    jj_window *kept[JJ_WINDOWS_KEPT];
    pthread_mutex_lock(&jj_pool_lock);
    unsigned n = jj_kept_count;
    for (unsigned i = 0; i < n; i++) kept[i] = jj_kept[i];
    jj_kept_count = 0;
    pthread_mutex_unlock(&jj_pool_lock);
    for (unsigned i = 0; i < n; i++) {
        jj_window_free(kept[i]);
        free(kept[i]);
    }
}

void jj_pool_release(void) {
    jj_free_kept_windows();
    pthread_mutex_lock(&jj_pool_lock);
    if (jj_stopping || jj_worker_count == 0) { /* nothing to stop, or another call stops them */
        pthread_mutex_unlock(&jj_pool_lock);
        return;
    }
    jj_stopping = 1; /* workers leave once the queue is empty */
    pthread_cond_broadcast(&jj_pool_work);
    unsigned n = jj_worker_count;
    pthread_mutex_unlock(&jj_pool_lock);
    for (unsigned i = 0; i < n; i++) pthread_join(jj_workers[i], NULL);
    pthread_mutex_lock(&jj_pool_lock);
    jj_worker_count = 0;
    jj_stopping = 0;
    pthread_cond_broadcast(&jj_pool_done); /* submitters waiting for the stop to end */
    pthread_mutex_unlock(&jj_pool_lock);
}

unsigned jj_pool_workers(void) {
    pthread_mutex_lock(&jj_pool_lock);
    unsigned n = jj_worker_count;
    pthread_mutex_unlock(&jj_pool_lock);
    return n;
}
