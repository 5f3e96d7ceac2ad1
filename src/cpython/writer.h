/* The serializers' output buffer: a growable byte buffer that lives inside the result
 * object itself (a bytes object, or a compact ASCII str), so finishing is a shrink in
 * place, not a copy.
 *
 * Usage: jj_writer_start_*, then any number of jj_writer_reserve + direct stores at
 * w->pos (advance it yourself) or jj_writer_put*, then exactly one of
 * jj_writer_finish (the result) or jj_writer_abandon (on error). Reserve before every
 * store: the buffer may move on each reserve.
 *
 * The result object is private to the writer until finish: it has one reference and
 * is never shown to Python code, which is what lets it be resized in place. */
#ifndef JJ_CPYTHON_WRITER_H
#define JJ_CPYTHON_WRITER_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "jetjson_write.h"

/* The engine's byte sink (jetjson_write.h), its bytes kept inside the result object:
 * ctx is the bytes or str being filled (NULL after finish/abandon), and the resize
 * callbacks resize that object in place (_PyBytes_Resize / PyUnicode_Resize). A failed
 * resize sets the Python exception and drops the object. */
typedef jj_sink jj_writer;

/* Start a writer whose result is bytes (or an ASCII str) with room for `hint` bytes.
 * Return 0, or -1 with MemoryError set. */
int jj_writer_start_bytes(jj_writer *w, size_t hint);
int jj_writer_start_ascii(jj_writer *w, size_t hint);

/* The capacity to start with when the last result of the same function had `last_len`
 * units: that and an eighth more, at least 1 Ki, at most 64 Mi. Calls in a row tend to
 * write documents of a kind, and starting from 1 KiB a 500 KB result was copied by 15
 * reallocations on its way up (a third of the time of a list of short strs). The
 * finished result is shrunk to its length in place, so the guess costs no memory once
 * the call returns. */
size_t jj_writer_first_capacity(size_t last_len);

/* Make room for n more bytes at w->pos. Return 0, or -1 with MemoryError set (the
 * writer must then still be abandoned). */
static inline int jj_writer_reserve(jj_writer *w, size_t n) { return jj_sink_reserve(w, n); }

/* jj_writer_reserve for loops that keep the position and the end in locals (*pos, *end):
 * kept in w, every byte stored (char typed, so it may alias them) made the compiler
 * reload both. Syncs w->pos, grows, and reloads the locals only when there is no room.
 * Return 0, or -1 with MemoryError set. */
static inline int jj_writer_reserve_local(jj_writer *w, uint8_t **pos, uint8_t **end, size_t n) {
    if ((size_t)(*end - *pos) >= n) return 0;
    w->pos = *pos;
    if (jj_sink_grow(w, n)) return -1;
    *pos = w->pos;
    *end = w->end;
    return 0;
}

static inline size_t jj_writer_len(const jj_writer *w) { return jj_sink_len(w); }
static inline int jj_writer_put(jj_writer *w, const void *bytes, size_t n) { return jj_sink_put(w, bytes, n); }
static inline int jj_writer_put_byte(jj_writer *w, uint8_t c) { return jj_sink_put_byte(w, c); }

/* A line break and `width` spaces (dumpb's and numpy's INDENT_2). */
static inline int jj_writer_newline(jj_writer *w, size_t width) {
    if (jj_sink_reserve(w, 1 + width)) return -1;
    w->pos = jj_write_newline(w->pos, width, ' ');
    return 0;
}

/* The object being filled (borrowed), NULL after finish/abandon or a failed resize. */
static inline PyObject *jj_writer_obj(const jj_writer *w) { return (PyObject *)w->ctx; }

/* The result, shrunk to what was written (new reference), or NULL with an exception. */
PyObject *jj_writer_finish(jj_writer *w);

/* Drop the buffer (error paths). Safe to call twice and after finish. */
void jj_writer_abandon(jj_writer *w);

/* A bytes writer that the engine may fill with the GIL released (MessagePack, Arrow,
 * canonical JSON): resizing the bytes object needs the GIL, so its resize takes the GIL
 * back for the moment when `saved` holds the released thread state (rare: the capacity
 * grows by half at least). Finish or abandon `w` as any writer, with the GIL held. */
typedef struct jj_unlocked_writer {
    jj_writer w;                    /* first: the resize callback gets &w */
    jj_sink_resize_fn bytes_resize; /* the bytes writer's own resize */
    PyThreadState *saved;           /* set while the GIL is released, else NULL */
} jj_unlocked_writer;

int jj_unlocked_writer_start(jj_unlocked_writer *o, size_t hint);

#endif
