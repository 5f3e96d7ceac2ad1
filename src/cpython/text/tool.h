/* The command line's engine helpers (tool.c, tool_lines.c, tool_windows.c). */
#ifndef JJ_TEXT_TOOL_H
#define JJ_TEXT_TOOL_H

#include <stddef.h>
#include <stdint.h>

#include "state.h"

/* Deeper documents are json's to judge (its recursion decides what happens): the CLI's
 * object path takes them. */
#define JJ_TOOL_MAX_DEPTH 200
/* Longer ints may pass sys.get_int_max_str_digits() (never below 640): json decides. */
#define JJ_TOOL_MAX_INT_DIGITS 640

enum { JJ_MODE_INDENT, JJ_MODE_LINE, JJ_MODE_COMPACT };

/* json.dumps' layout: indent=unit (JJ_MODE_INDENT), indent=None, or (',', ':'). */
typedef struct jj_layout {
    int mode;
    const uint8_t *unit; /* JJ_MODE_INDENT: one level of indentation */
    size_t unit_len;
} jj_layout;

/* Index positions of the '{' of objects the writer must sort (sort_keys), ascending. */
typedef struct jj_sort_list {
    size_t *at;
    size_t len, cap;
} jj_sort_list;

/* The output: a buffer handed to the Python callable `write` in chunks. */
typedef struct jj_chunks {
    PyObject *write; /* the callable */
    uint8_t *buf;
    size_t len, cap;
} jj_chunks;

/* What the write pass reads: one valid document and its structural index. */
typedef struct jj_tool_doc {
    const uint8_t *in;
    size_t len;
    const uint32_t *idx;
    size_t n;
    int ensure_ascii;
    const jj_layout *l;
    const jj_sort_list *sorts;
} jj_tool_doc;

/* tool.c. The check pass: 1 when the index walk reproduces json.tool's bytes, 0 when
 * not, -1 error (set). With sort_keys, the objects to sort are listed in `sorts`. */
int jj_tool_check(const uint8_t *in, size_t len, const uint32_t *idx, size_t n, size_t max_depth, int sort_keys,
                  int ensure_ascii, jj_sort_list *sorts);
/* The document at nesting `depth` in json.dumps' layout (no final newline): 0 or -1. */
int jj_tool_write_value(jj_chunks *s, const jj_tool_doc *d, size_t depth);
int jj_put(jj_chunks *s, const char *text, size_t k);
int jj_write_break(jj_chunks *s, const jj_layout *l, size_t depth);
int jj_write_comma(jj_chunks *s, const jj_layout *l, size_t depth);
int jj_chunks_flush(jj_chunks *s);

/* tool_lines.c: whether json.tool's strict UTF-8 read refuses bytes the engine takes
 * (a BOM at the start, an encoded surrogate ED A0..BF anywhere when any_surrogate). */
int jj_not_strict_utf8(const uint8_t *p, size_t n, int any_surrogate);

/* tool_windows.c: _tool_format's path for a top-level array, `window` bytes of input at
 * a time. 1 written, 0 the object path must decide (nothing written), 2 not an array
 * (nothing done), -1 error (set). release(start, stop) is called with the input done. */
int jj_tool_format_windows(const uint8_t *in, size_t len, const jj_layout *l, int ensure_ascii, int sort_keys,
                           size_t window, jj_chunks *s, PyObject *release);

#endif
