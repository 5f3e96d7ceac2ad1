/* Tiny helpers shared by the C tests: checks that count, files, and a tape printer. */
#ifndef JJ_TEST_UTIL_H
#define JJ_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jetjson.h"

static unsigned long g_passed, g_failed;

/* The byte offset of a parser's last error (jj_parser_error's). */
static inline size_t jj_test_error_offset(const jj_parser *p) {
    size_t offset = 0;
    jj_parser_error(p, &offset);
    return offset;
}

/* Counts a failure and reports the first 40 (a broken kernel fails thousands of checks). */
#define FAIL(...)                                                                   \
    do {                                                                            \
        g_failed++;                                                                 \
        if (g_failed <= 40) {                                                       \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                    \
            fprintf(stderr, __VA_ARGS__);                                           \
            fputc('\n', stderr);                                                    \
        }                                                                           \
    } while (0)

#define CHECK(cond, ...)                                                            \
    do {                                                                            \
        if (cond)                                                                   \
            g_passed++;                                                             \
        else                                                                        \
            FAIL(__VA_ARGS__);                                                      \
    } while (0)

static inline int jj_test_report(void) {
    printf("%lu passed, %lu failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}

/* Reads a whole file; NULL when missing. */
static inline uint8_t *jj_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(size > 0 ? (size_t)size : 1);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = (size_t)size;
    return buf;
}

/* The test data folder: $JETJSON_DATA, else data/ in the source root (carried in the
   repository, so a clone runs every check). */
static inline const char *jj_data_dir(void) {
    const char *env = getenv("JETJSON_DATA");
    if (env && *env) return env;
#ifdef JJ_SOURCE_ROOT
    static char path[4096];
    snprintf(path, sizeof path, "%s/data", JJ_SOURCE_ROOT);
    return path;
#else
    return "data";
#endif
}

#endif
