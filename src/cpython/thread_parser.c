/* One jj_parser per OS thread, so parses on different threads (or own-GIL
 * interpreters) never share buffers. Freed when the thread exits, on release(), and
 * when a large document grew the buffers past JJ_RETAIN_BYTES. Plain C data only. */
#include <stdlib.h>

#include "state.h"

#define JJ_RETAIN_BYTES ((size_t)64 << 20)

#if defined(_WIN32)
static _Thread_local jj_thread_parser *jj_current;
static jj_thread_parser *jj_tls_get(void) { return jj_current; }
static int jj_tls_set(jj_thread_parser *tp) { jj_current = tp; return 1; }
#else
#include <pthread.h>

static pthread_key_t jj_key;
static pthread_once_t jj_key_once = PTHREAD_ONCE_INIT;
static int jj_key_ok;

static void jj_thread_parser_destroy(void *ptr) {
    jj_thread_parser *tp = ptr;
    jj_parser_delete(tp->parser);
    free(tp->scratch);
    free(tp);
}

static void jj_key_create(void) { jj_key_ok = pthread_key_create(&jj_key, jj_thread_parser_destroy) == 0; }

static jj_thread_parser *jj_tls_get(void) {
    pthread_once(&jj_key_once, jj_key_create);
    return jj_key_ok ? pthread_getspecific(jj_key) : NULL;
}
static int jj_tls_set(jj_thread_parser *tp) { return jj_key_ok && pthread_setspecific(jj_key, tp) == 0; }
#endif

jj_thread_parser *jj_thread_parser_get(void) {
    jj_thread_parser *tp = jj_tls_get();
    if (tp) return tp;
    tp = calloc(1, sizeof *tp);
    if (!tp) return NULL;
    tp->parser = jj_parser_new();
    if (!tp->parser || !jj_tls_set(tp)) {
        jj_parser_delete(tp->parser);
        free(tp);
        return NULL;
    }
    return tp;
}

void jj_thread_parser_release(void) {
    jj_thread_parser *tp = jj_tls_get();
    if (!tp) return;
    jj_parser_free(tp->parser);
    free(tp->scratch);
    tp->scratch = NULL;
    tp->scratch_cap = 0;
}

void jj_thread_parser_trim(jj_thread_parser *tp) {
    if (jj_parser_capacity(tp->parser) + tp->scratch_cap > JJ_RETAIN_BYTES) {
        jj_parser_free(tp->parser);
        free(tp->scratch);
        tp->scratch = NULL;
        tp->scratch_cap = 0;
    }
}

int jj_thread_scratch_reserve(jj_thread_parser *tp, size_t n) {
    if (n <= tp->scratch_cap) return 1;
    uint8_t *fresh = realloc(tp->scratch, n);
    if (!fresh) return 0;
    tp->scratch = fresh;
    tp->scratch_cap = n;
    return 1;
}
