/* The worker pool and the windows it parses (jetjson_pool.h): windows parsed on several
 * workers at once must hold, document for document, what jj_many_next gives on one thread
 * for the same window (results, spans, tapes, strings); tasks taken back never run; a
 * released pool starts again; a forked child neither deadlocks nor waits on lost tasks. */
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jetjson_pool.h"
#include "test_util.h"

/* ThreadSanitizer cannot follow a process that forks with threads running */
#if defined(__SANITIZE_THREAD__)
#define JJ_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define JJ_UNDER_TSAN 1
#endif
#endif

/* Generated NDJSON with a bit of everything: escapes, numbers of every kind, nesting,
 * documents over several lines, and (when `bad`) a few broken ones. */
static uint8_t *make_stream(size_t docs, int bad, size_t *len) {
    size_t cap = docs * 160 + 64, n = 0;
    char *s = malloc(cap);
    if (!s) abort();
    unsigned seed = 12345;
    for (size_t i = 0; i < docs; i++) {
        seed = seed * 1103515245u + 12345u;
        unsigned r = (seed >> 8) % 9;
        const char *sep = r == 3 ? " " : "\n";
        int w;
        switch (r) {
        case 0: w = snprintf(s + n, cap - n, "{\"id\":%zu,\"name\":\"n\\u00e9%zu\",\"ok\":true}%s", i, i, sep); break;
        case 1: w = snprintf(s + n, cap - n, "[%zu,-%zu.5e3,null,\"x\\ty\"]%s", i, i, sep); break;
        case 2: w = snprintf(s + n, cap - n, "{\"a\":\n  {\"b\": [1,\n 2, 3]},\n \"c\": \"%zu\"}%s", i, sep); break;
        case 3: w = snprintf(s + n, cap - n, "%zu%s", i * 7919u, "\n"); break;
        case 4: w = snprintf(s + n, cap - n, "\"str %zu \\\" q\"%s", i, sep); break;
        case 5: w = snprintf(s + n, cap - n, "{\"big\":123456789012345678901234567890,\"u\":18446744073709551615}%s", sep); break;
        case 6: w = bad && i % 97 == 6 ? snprintf(s + n, cap - n, "{\"broken\": [1, 2}%s", sep)
                                       : snprintf(s + n, cap - n, "[[[[%zu]]]]%s", i, sep); break;
        case 7: w = snprintf(s + n, cap - n, "{\"caf\xc3\xa9\": \"\xe2\x82\xac%zu\"}%s", i, sep); break;
        default: w = snprintf(s + n, cap - n, "  true\t%s", sep); break;
        }
        if (w < 0 || (size_t)w >= cap - n) abort();
        n += (size_t)w;
    }
    *len = n;
    return (uint8_t *)s;
}

/* Window ends after a line break in the second half of about `batch` bytes, as the
 * stream iterator cuts them. */
static size_t window_end(const uint8_t *buf, size_t len, size_t at, size_t batch) {
    size_t left = len - at, n = batch < left ? batch : left;
    if (n < left) {
        for (size_t k = n; k > n / 2; k--)
            if (buf[at + k - 1] == '\n') return at + k;
    }
    return at + n;
}

/* One window read on this thread with jj_many_next, compared with w (parsed elsewhere). */

/* The window's document i, viewed, against what one thread's parser p holds for it. */
static void check_view(const jj_window *w, size_t i, jj_parser *p, const char *what) {
    jj_parser *holder = jj_parser_new();
    if (!holder) abort(); /* out of memory */
    jj_window_view(w, i, holder);
    const jj_doc *view = jj_parser_result(holder), *mine = jj_parser_result(p);
    CHECK(view->tape_len == mine->tape_len && memcmp(view->tape, mine->tape, mine->tape_len * sizeof *mine->tape) == 0,
          "%s %zu: tape differs", what, i);
    CHECK(view->strings_len == mine->strings_len && memcmp(view->strings, mine->strings, mine->strings_len) == 0,
          "%s %zu: strings differ", what, i);
    CHECK(view->max_depth == mine->max_depth, "%s %zu: depth", what, i);
    jj_window_unview(holder);
    jj_parser_delete(holder);
}

static void compare_window(const jj_window *w, unsigned flags) {
    jj_parser *p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    jj_many m;
    jj_error err = jj_many_start(&m, p, w->buf, w->len, flags);
    CHECK(err == JJ_OK, "jj_many_start: %d", err);
    CHECK(w->pending == m.pending && w->pending_at == m.pending_at, "pending %d/%d at %zu/%zu", w->pending,
          m.pending, w->pending_at, m.pending_at);
    for (size_t i = 0;; i++) {
        size_t s = 0, e = 0;
        jj_error r = jj_many_next(&m, &s, &e);
        if (i >= w->count) {
            FAIL("window has %zu results, one thread more", w->count);
            break;
        }
        const jj_window_doc *d = &w->docs[i];
        CHECK(d->err == r && d->start == s && d->end == e, "doc %zu: %d [%zu,%zu) vs %d [%zu,%zu)", i, d->err,
              d->start, d->end, r, s, e);
        if (r == JJ_OK) check_view(w, i, p, "doc");
        if (r != JJ_OK) {
            CHECK(i + 1 == w->count, "results after the last: %zu of %zu", i + 1, w->count);
            break;
        }
    }
    jj_parser_delete(p);
}

/* The lazy form: each document's lazy tape is jj_parse_lazy's of its text alone. */
static void compare_lazy(const jj_window *w) {
    jj_parser *p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    for (size_t i = 0; i < w->count; i++) {
        const jj_window_doc *d = &w->docs[i];
        if (d->err != JJ_OK) break;
        jj_error r = jj_parse_lazy(p, w->buf + d->start, d->end - d->start);
        CHECK(r == d->lazy_err, "lazy doc %zu: %d vs %d", i, d->lazy_err, r);
        if (r == JJ_OK)
            CHECK(d->doc.tape_len == jj_parser_result(p)->tape_len &&
                      memcmp(d->doc.tape, jj_parser_result(p)->tape, d->doc.tape_len * 8) == 0,
                  "lazy doc %zu: tape differs", i);
    }
    jj_parser_delete(p);
}

/* fields: each document as a jj_many_next_fields loop over the window gives it (the values
 * found, parsed by jj_many_field_parse; or jj_many_reparse's tape or error). */
static void compare_fields(const jj_window *w, const jj_fields_plan *plan) {
    jj_parser *p = jj_parser_new();
    if (!p) abort(); /* out of memory */
    jj_many m;
    CHECK(jj_many_start(&m, p, w->buf, w->len, w->flags | JJ_MANY_LAZY) == JJ_OK, "jj_many_start");
    jj_field_span spans[8];
    for (size_t i = 0;; i++) {
        size_t s = 0, e = 0;
        bool whole = true;
        jj_error r = jj_many_next_fields(&m, plan, spans, &s, &e, &whole);
        if (i >= w->count) {
            FAIL("fields window has %zu results, one thread more", w->count);
            break;
        }
        const jj_window_doc *d = &w->docs[i];
        int skimmed = r == JJ_OK && !whole;
        for (size_t f = 0; skimmed && f < plan->count; f++) {
            jj_doc value;
            int found = jj_window_field_doc(w, i, f, &value);
            if (!spans[f].count) {
                CHECK(d->skimmed ? !found : 1, "doc %zu field %zu: found a missing value", i, f);
                continue;
            }
            jj_error fr = jj_many_field_parse(&m, &spans[f]);
            if (fr != JJ_OK) {
                skimmed = 0;
                break;
            }
            const jj_doc *mine = jj_parser_result(p);
            CHECK(d->skimmed && found, "doc %zu field %zu: not kept", i, f);
            if (d->skimmed && found)
                CHECK(value.tape_len == mine->tape_len && memcmp(value.tape, mine->tape, mine->tape_len * 8) == 0 &&
                          value.strings_len == mine->strings_len &&
                          memcmp(value.strings, mine->strings, mine->strings_len) == 0 &&
                          value.max_depth == mine->max_depth,
                      "doc %zu field %zu: value tape differs", i, f);
        }
        if (r == JJ_OK && !skimmed) r = jj_many_reparse(&m, &s, &e);
        CHECK(d->err == r && d->start == s && d->end == e && d->skimmed == skimmed,
              "fields doc %zu: %d [%zu,%zu) %d vs %d [%zu,%zu) %d", i, d->err, d->start, d->end, d->skimmed, r, s, e,
              skimmed);
        if (r == JJ_OK && !skimmed) check_view(w, i, p, "fields doc");
        if (r != JJ_OK) {
            CHECK(i + 1 == w->count, "fields: results after the last: %zu of %zu", i + 1, w->count);
            break;
        }
    }
    jj_parser_delete(p);
}

/* buf[0, len) cut into windows of about `batch` bytes, each set up (lazy, or skimming for
 * plan when not NULL) and handed to the pool (parsed here when it refuses): *count. */
static jj_window *submit_windows(const uint8_t *buf, size_t len, size_t batch, unsigned workers, int lazy,
                                 const jj_fields_plan *plan, size_t *count) {
    size_t n = 0;
    for (size_t at = 0; at < len; at = window_end(buf, len, at, batch)) n++;
    jj_window *ws = calloc(n, sizeof *ws);
    if (!ws) abort(); /* out of memory */
    size_t k = 0;
    for (size_t at = 0; at < len; k++) {
        size_t end = window_end(buf, len, at, batch);
        jj_window_init(&ws[k], buf + at, end - at, end < len ? JJ_MANY_MORE_INPUT : 0, lazy);
        if (plan) jj_window_set_fields(&ws[k], plan);
        if (jj_pool_submit(&ws[k].task, workers) != 0) jj_window_parse(&ws[k]);
        at = end;
    }
    *count = n;
    return ws;
}

static void run_stream_fields(size_t docs, int bad, size_t batch, unsigned workers) {
    const char *ptrs[] = {"/id", "/a/b", "/big", "/caf\xc3\xa9", "/nope"};
    size_t lens[5];
    for (size_t f = 0; f < 5; f++) lens[f] = strlen(ptrs[f]);
    jj_fields_plan *plan = jj_fields_plan_new(ptrs, lens, 5);
    if (!plan) abort(); /* out of memory */
    CHECK(plan->skimmable, "plan skimmable");
    size_t len, count;
    uint8_t *buf = make_stream(docs, bad, &len);
    jj_window *ws = submit_windows(buf, len, batch, workers, 0, plan, &count);
    size_t skimmed = 0, whole = 0;
    for (size_t k = 0; k < count; k++) {
        CHECK(jj_pool_wait(&ws[k].task) == JJ_TASK_DONE, "window %zu not done", k);
        compare_fields(&ws[k], plan);
        for (size_t i = 0; i < ws[k].count; i++) {
            skimmed += ws[k].docs[i].skimmed;
            whole += ws[k].docs[i].err == JJ_OK && !ws[k].docs[i].skimmed;
        }
        if (k == 0) { /* parsed again in place: the same */
            jj_window_retarget(&ws[k], ws[k].buf, ws[k].len, ws[k].flags);
            jj_window_parse(&ws[k]);
            compare_fields(&ws[k], plan);
        }
        jj_window_free(&ws[k]);
    }
    CHECK(skimmed > docs / 20 && whole > docs / 20, "skimmed %zu, read whole %zu of %zu", skimmed, whole, docs);
    free(ws);
    free(buf);
    jj_fields_plan_delete(plan);
}

static void run_stream(size_t docs, int bad, size_t batch, unsigned workers, int lazy) {
    size_t len, count;
    uint8_t *buf = make_stream(docs, bad, &len);
    jj_window *ws = submit_windows(buf, len, batch, workers, lazy, NULL, &count);
    size_t docs_seen = 0;
    for (size_t k = 0; k < count; k++) {
        CHECK(jj_pool_wait(&ws[k].task) == JJ_TASK_DONE, "window %zu not done", k);
        if (lazy) {
            compare_lazy(&ws[k]);
        } else {
            compare_window(&ws[k], ws[k].flags);
        }
        docs_seen += ws[k].count;
        /* reuse: the same window parsed again in place gives the same results */
        if (k == 0 && !lazy) {
            jj_window_retarget(&ws[k], ws[k].buf, ws[k].len, ws[k].flags);
            jj_window_parse(&ws[k]);
            compare_window(&ws[k], ws[k].flags);
        }
        jj_window_free(&ws[k]);
    }
    CHECK(docs_seen >= count, "results: %zu for %zu windows", docs_seen, count);
    free(ws);
    free(buf);
}

/* Windows kept between streams (jj_window_new / jj_window_delete): a kept window comes
 * back for other bytes in another mode (fields, lazy, plain) and reads them exactly as a
 * new one; at most JJ_WINDOWS_KEPT are kept; jj_pool_release frees them. */
static void test_kept_windows(void) {
    const char *ptrs[] = {"/id", "/a/b", "/caf\xc3\xa9"};
    size_t lens[3];
    for (size_t f = 0; f < 3; f++) lens[f] = strlen(ptrs[f]);
    jj_fields_plan *plan = jj_fields_plan_new(ptrs, lens, 3);
    if (!plan) abort(); /* out of memory */
    size_t len;
    uint8_t *buf = make_stream(2000, 1, &len);
    jj_pool_release();
    CHECK(jj_windows_kept() == 0, "kept after release: %u", jj_windows_kept());
    jj_window *ws[JJ_WINDOWS_KEPT + 2];
    size_t n = sizeof ws / sizeof *ws;
    for (int round = 0; round < 3; round++) { /* fields, lazy, plain; the windows of the round before */
        size_t at = 0;
        for (size_t k = 0; k < n; k++) {
            size_t end = window_end(buf, len, at, 700 + 300 * (size_t)round);
            if (at >= len) end = at = 0; /* again from the start */
            unsigned flags = end < len ? JJ_MANY_MORE_INPUT : 0;
            ws[k] = jj_window_new(buf + at, end - at, flags, round == 1);
            if (!ws[k]) abort(); /* out of memory */
            CHECK(ws[k]->buf == buf + at && ws[k]->len == end - at && ws[k]->count == 0 && !ws[k]->fields,
                  "round %d window %zu: not set up", round, k);
            if (round == 0) jj_window_set_fields(ws[k], plan);
            if (jj_pool_submit(&ws[k]->task, 2) != 0) jj_window_parse(ws[k]);
            at = end;
        }
        for (size_t k = 0; k < n; k++) {
            CHECK(jj_pool_wait(&ws[k]->task) == JJ_TASK_DONE, "round %d window %zu not done", round, k);
            if (round == 0) compare_fields(ws[k], plan);
            else if (round == 1) compare_lazy(ws[k]);
            else compare_window(ws[k], ws[k]->flags);
        }
        for (size_t k = 0; k < n; k++) jj_window_delete(ws[k]);
        CHECK(jj_windows_kept() == JJ_WINDOWS_KEPT, "kept: %u", jj_windows_kept());
    }
    jj_window_delete(NULL);
    jj_pool_release();
    CHECK(jj_windows_kept() == 0, "kept after release: %u", jj_windows_kept());
    free(buf);
    jj_fields_plan_delete(plan);
}

/* A window grown past JJ_WINDOW_KEPT_BYTES by a big document is freed, not kept. */
static void test_big_window_not_kept(void) {
    size_t len = JJ_WINDOW_KEPT_BYTES + 1024;
    uint8_t *buf = malloc(len);
    if (!buf) abort(); /* out of memory */
    /* one document: an array of 1-digit numbers (a tape word each), then a line break */
    buf[0] = '[';
    for (size_t i = 1; i + 2 < len; i += 2) {
        buf[i] = '1';
        buf[i + 1] = ',';
    }
    buf[len - 3] = '1';
    buf[len - 2] = ']';
    buf[len - 1] = '\n';
    jj_pool_release();
    jj_window *w = jj_window_new(buf, len, 0, 0);
    if (!w) abort(); /* out of memory */
    jj_window_parse(w);
    CHECK(w->count >= 1 && w->docs[0].err == JJ_OK, "the big document: %zu docs", w->count);
    jj_window_delete(w);
    CHECK(jj_windows_kept() == 0, "a big window was kept");
    jj_window *small = jj_window_new((const uint8_t *)"[1]\n", 4, 0, 0);
    if (!small) abort(); /* out of memory */
    jj_window_parse(small);
    jj_window_delete(small);
    CHECK(jj_windows_kept() == 1, "a small window was not kept: %u", jj_windows_kept());
    jj_pool_release();
    free(buf);
}

/* ---- the pool itself ---- */

static int slow_ran;
static void slow(void *arg) {
    (void)arg;
    usleep(20000);
    __atomic_fetch_add(&slow_ran, 1, __ATOMIC_SEQ_CST);
}
static void mark(void *arg) { __atomic_store_n((int *)arg, 1, __ATOMIC_SEQ_CST); }

static void test_cancel(void) {
    jj_pool_task a = {.run = slow}, b = {.run = slow}, c;
    int ran = 0;
    c = (jj_pool_task){.run = mark, .arg = &ran};
    /* one worker: b and c queue behind a */
    jj_pool_release();
    CHECK(jj_pool_submit(&a, 1) == 0, "submit a");
    CHECK(jj_pool_submit(&b, 1) == 0, "submit b");
    CHECK(jj_pool_submit(&c, 1) == 0, "submit c");
    jj_task_state sc = jj_pool_cancel(&c);
    CHECK(sc == JJ_TASK_IDLE || sc == JJ_TASK_DONE, "cancel c: %d", sc);
    CHECK(jj_pool_wait(&a) == JJ_TASK_DONE, "a done");
    CHECK(jj_pool_wait(&b) == JJ_TASK_DONE, "b done");
    CHECK((sc == JJ_TASK_IDLE) == (__atomic_load_n(&ran, __ATOMIC_SEQ_CST) == 0), "a cancelled task ran");
    jj_pool_task never = {.run = slow};
    CHECK(jj_pool_wait(&never) == JJ_TASK_IDLE, "waiting on an unsubmitted task");
}

static void test_release(void) {
    int ran = 0;
    jj_pool_task t = {.run = mark, .arg = &ran};
    CHECK(jj_pool_submit(&t, 3) == 0, "submit");
    CHECK(jj_pool_workers() >= 1, "workers started");
    jj_pool_wait(&t);
    jj_pool_release();
    CHECK(jj_pool_workers() == 0, "workers left after release: %u", jj_pool_workers());
    ran = 0;
    CHECK(jj_pool_submit(&t, 2) == 0, "submit after release");
    CHECK(jj_pool_wait(&t) == JJ_TASK_DONE && ran == 1, "ran after release");
}

/* fork with a task in the queue and one running: the child must not hang. */
static void test_fork(void) {
#ifdef JJ_UNDER_TSAN
    return;
#endif
    jj_pool_task a = {.run = slow}, b = {.run = slow};
    jj_pool_release();
    jj_pool_submit(&a, 1);
    jj_pool_submit(&b, 1);
    while (jj_pool_state(&a) == JJ_TASK_QUEUED) usleep(100); /* a runs, b waits behind it */
    pid_t pid = fork();
    if (pid == 0) {
        alarm(10); /* a hang kills the child, which the parent sees */
        jj_task_state sa = jj_pool_wait(&a), sb = jj_pool_wait(&b);
        int ok = (sa == JJ_TASK_LOST || sa == JJ_TASK_DONE) && (sb == JJ_TASK_LOST || sb == JJ_TASK_DONE);
        int ran = 0;
        jj_pool_task c = {.run = mark, .arg = &ran};
        ok = ok && jj_pool_submit(&c, 1) == 0 && jj_pool_wait(&c) == JJ_TASK_DONE && ran;
        jj_pool_release();
        _exit(ok ? 0 : 3);
    }
    CHECK(pid > 0, "fork");
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: status %d", status);
    jj_pool_wait(&a);
    jj_pool_wait(&b);
}

int main(void) {
    size_t batches[] = {300, 4096, 65536};
    for (size_t b = 0; b < sizeof batches / sizeof *batches; b++) {
        for (unsigned workers = 1; workers <= 4; workers *= 2) {
            run_stream(3000, 0, batches[b], workers, 0);
            run_stream(3000, 1, batches[b], workers, 0);
            run_stream(1500, 1, batches[b], workers, 1);
            run_stream_fields(3000, 1, batches[b], workers);
        }
    }
    test_kept_windows();
    test_big_window_not_kept();
    test_cancel();
    test_release();
    test_fork();
    jj_pool_release();
    return jj_test_report();
}
