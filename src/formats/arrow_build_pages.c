/* Mapped pages for the Arrow builder's big column buffers, with a small process-wide
 * cache of released mappings. A table's buffers are freed when its last array goes;
 * the next call's buffers then reuse those pages instead of faulting in fresh ones (on
 * a worker thread, glibc handed its arena's pages back to the system each time: 7,200
 * faults a call for 40 MB of events, about as much time as the reading itself). Cached
 * mappings are kept up to AB_CACHE_BYTES in all. Plain C data, no Python. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "arrow_build_internal.h"

/* Released mappings by size class: class k holds sizes in [2^k, 2^(k+1)) pages' bytes,
 * at most AB_CACHE_PER_CLASS each, AB_CACHE_BYTES in all. */
#define AB_CACHE_CLASSES 40
#define AB_CACHE_PER_CLASS 1024
#define AB_CACHE_BYTES ((size_t)128 << 20)

typedef struct ab_mapping {
    void *at;
    size_t size;
} ab_mapping;

static ab_mapping cache[AB_CACHE_CLASSES][AB_CACHE_PER_CLASS];
static size_t cache_count[AB_CACHE_CLASSES];
static size_t cache_bytes;
static atomic_flag cache_lock = ATOMIC_FLAG_INIT;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;

/* A child forked while another thread held the lock would wait for it forever. */
static void unlock_in_child(void) { atomic_flag_clear(&cache_lock); }
static void register_fork_handler(void) { (void)pthread_atfork(NULL, NULL, unlock_in_child); }

static void lock(void) {
    pthread_once(&fork_once, register_fork_handler);
    while (atomic_flag_test_and_set_explicit(&cache_lock, memory_order_acquire)) {
    }
}
static void unlock(void) { atomic_flag_clear_explicit(&cache_lock, memory_order_release); }

static size_t size_class(size_t size) { return (size_t)(63 - __builtin_clzll((unsigned long long)size)); }

void *ab_pages_cached(size_t size, size_t *got) {
    size_t k = size_class(size);
    void *at = NULL;
    lock();
    /* its own class (a mapping there may be smaller: looked at from the top), then the next */
    for (size_t c = k; c < k + 2 && c < AB_CACHE_CLASSES && !at; c++) {
        for (size_t i = cache_count[c]; i-- > 0;) {
            if (cache[c][i].size >= size) {
                at = cache[c][i].at;
                *got = cache[c][i].size;
                cache_bytes -= *got;
                cache[c][i] = cache[c][--cache_count[c]];
                break;
            }
        }
    }
    unlock();
    return at;
}

void *ab_pages_new(size_t size) {
    void *at = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return at == MAP_FAILED ? NULL : at;
}

void ab_pages_release(void *at, size_t size) {
    if (!at) return;
    size_t k = size_class(size);
    bool kept = false;
    if (k < AB_CACHE_CLASSES && size <= AB_CACHE_BYTES / 4) {
        lock();
        if (cache_count[k] < AB_CACHE_PER_CLASS && cache_bytes + size <= AB_CACHE_BYTES) {
            cache[k][cache_count[k]++] = (ab_mapping){at, size};
            cache_bytes += size;
            kept = true;
        }
        unlock();
    }
    if (!kept) munmap(at, size);
}

/* Parsers of the threads' parts, kept between calls: a new one per part grew its index
 * and tape on fresh pages every call (10,400 faults a call on the worker, 40 MB of
 * events). Those that grew past AB_PARSER_BYTES are not kept. */
#define AB_PARSERS 4
#define AB_PARSER_BYTES ((size_t)64 << 20)
static jj_parser *parsers[AB_PARSERS];
static size_t n_parsers;

jj_parser *ab_parser_take(void) {
    jj_parser *p = NULL;
    lock();
    if (n_parsers) p = parsers[--n_parsers];
    unlock();
    return p ? p : jj_parser_new();
}

void ab_parser_give(jj_parser *p) {
    if (!p) return;
    if (jj_parser_capacity(p) <= AB_PARSER_BYTES) {
        lock();
        if (n_parsers < AB_PARSERS) {
            parsers[n_parsers++] = p;
            p = NULL;
        }
        unlock();
    }
    jj_parser_delete(p);
}

void jj_arrow_release_kept(void) {
    lock();
    for (size_t c = 0; c < AB_CACHE_CLASSES; c++) {
        for (size_t i = 0; i < cache_count[c]; i++) munmap(cache[c][i].at, cache[c][i].size);
        cache_count[c] = 0;
    }
    cache_bytes = 0;
    jj_parser *kept[AB_PARSERS];
    size_t n = n_parsers;
    memcpy(kept, parsers, n * sizeof *kept);
    n_parsers = 0;
    unlock();
    for (size_t i = 0; i < n; i++) jj_parser_delete(kept[i]); /* outside the spin lock */
}
