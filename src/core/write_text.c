/* jetjson: the tables of the text-writing layer and the byte sink (jetjson_write.h). */
#include <stdlib.h>

#include "jetjson_write.h"

const char jj_digit_pairs[200] = {
    '0','0','0','1','0','2','0','3','0','4','0','5','0','6','0','7','0','8','0','9',
    '1','0','1','1','1','2','1','3','1','4','1','5','1','6','1','7','1','8','1','9',
    '2','0','2','1','2','2','2','3','2','4','2','5','2','6','2','7','2','8','2','9',
    '3','0','3','1','3','2','3','3','3','4','3','5','3','6','3','7','3','8','3','9',
    '4','0','4','1','4','2','4','3','4','4','4','5','4','6','4','7','4','8','4','9',
    '5','0','5','1','5','2','5','3','5','4','5','5','5','6','5','7','5','8','5','9',
    '6','0','6','1','6','2','6','3','6','4','6','5','6','6','6','7','6','8','6','9',
    '7','0','7','1','7','2','7','3','7','4','7','5','7','6','7','7','7','8','7','9',
    '8','0','8','1','8','2','8','3','8','4','8','5','8','6','8','7','8','8','8','9',
    '9','0','9','1','9','2','9','3','9','4','9','5','9','6','9','7','9','8','9','9',
};

/* sixteen rows of sixteen pairs: row h holds "h0" .. "hf" */
#define JJ_HEX_ROW(h) h "0" h "1" h "2" h "3" h "4" h "5" h "6" h "7" \
                      h "8" h "9" h "a" h "b" h "c" h "d" h "e" h "f"
/* 512 characters without the NUL a string literal would add */
const char jj_hex_pairs[512] = JJ_HEX_ROW("0") JJ_HEX_ROW("1") JJ_HEX_ROW("2") JJ_HEX_ROW("3")
    JJ_HEX_ROW("4") JJ_HEX_ROW("5") JJ_HEX_ROW("6") JJ_HEX_ROW("7") JJ_HEX_ROW("8") JJ_HEX_ROW("9")
    JJ_HEX_ROW("a") JJ_HEX_ROW("b") JJ_HEX_ROW("c") JJ_HEX_ROW("d") JJ_HEX_ROW("e") JJ_HEX_ROW("f");

const uint8_t jj_escape_letter[128] = {
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'b', 't', 'n', 'u', 'f', 'r', 'u', 'u',
    'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u', 'u',
    0, 0, '"', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '\\', 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* ---- byte sink ---- */

static void jj_sink_fail(jj_sink *s) {
    s->error = 1;
    s->start = s->pos = s->end = NULL;
}

int jj_sink_grow(jj_sink *s, size_t n) {
    if (s->error) return -1;
    size_t used = jj_sink_len(s), cap = (size_t)(s->end - s->start);
    if ((size_t)(s->end - s->pos) >= n) return 0;
    size_t next;
    if (n > SIZE_MAX / 2 - used) {
        next = SIZE_MAX; /* the owner refuses it */
    } else {
        next = cap + cap / 2;
        if (next < used + n) next = used + n;
        if (next < 64) next = 64;
    }
    if (s->resize(s, next)) {
        jj_sink_fail(s);
        return -1;
    }
    return 0;
}

int jj_sink_finish(jj_sink *s, size_t *len) {
    *len = 0;
    if (s->error) return -1;
    size_t used = jj_sink_len(s);
    if (used != (size_t)(s->end - s->start) && s->resize(s, used)) {
        jj_sink_fail(s);
        return -1;
    }
    *len = used;
    return 0;
}

static int jj_sink_malloc_resize(jj_sink *s, size_t cap) {
    size_t used = jj_sink_len(s);
    /* realloc(p, 0) may free p and return NULL: keep one byte */
    uint8_t *p = cap > PTRDIFF_MAX ? NULL : realloc(s->start, cap ? cap : 1);
    if (!p) { /* a failed resize releases what the sink holds */
        free(s->start);
        return -1;
    }
    s->start = p;
    s->pos = p + used;
    s->end = p + cap;
    return 0;
}

int jj_sink_init_malloc(jj_sink *s, size_t hint) {
    s->start = s->pos = s->end = NULL;
    s->resize = jj_sink_malloc_resize;
    s->ctx = NULL;
    s->error = 0;
    if (jj_sink_malloc_resize(s, hint)) {
        jj_sink_fail(s);
        return -1;
    }
    return 0;
}

void jj_sink_free_malloc(jj_sink *s) {
    free(s->start);
    s->start = s->pos = s->end = NULL;
}
