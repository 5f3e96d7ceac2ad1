/* The document gate: where a document that arrives in chunks may end, found without
 * parsing it.
 *
 * A stream fed in chunks (jetjson.Decoder.feed) must not parse a long document again
 * for every chunk that does not finish it. The gate follows only strings (with their
 * escapes) and bracket nesting, from the document's first byte, and says when a byte
 * came after which the document may be complete: a bracket that closes its outermost
 * container, the quote that ends a top-level string, or any other byte outside strings
 * at the top level (a scalar's bytes, white space after it). Its state is kept between
 * chunks, so each byte is looked at once; runs of bytes that are none of " \ [ ] { }
 * are skipped a block at a time (SSE2 where the target has it, else a portable loop).
 *
 * It is a hint, never a verdict: a document it lets through is still parsed (and may
 * be incomplete or wrong), and on text that is not JSON its nesting count means
 * nothing. */
#ifndef JETJSON_GATE_H
#define JETJSON_GATE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct jj_gate {
    long depth;    /* containers open outside strings (below 0: more closed than opened) */
    int in_string; /* inside a string */
    int escaped;   /* inside a string, the next byte follows a backslash */
} jj_gate;

/* The state before a document's first byte. */
static inline jj_gate jj_gate_start(void) {
    jj_gate g = {0, 0, 0};
    return g;
}

/* Scans buf[0..len) on from state *g, byte by byte as described above, and stops just
 * past the first byte after which the document may end. Returns how many bytes it took
 * (len when none opened the gate) and sets *opens to 1 when it stopped at such a byte,
 * else 0; *g is the state after the bytes taken, so that the next call goes on from
 * there (with the rest of this buffer or with the next chunk). */
size_t jj_gate_scan(jj_gate *g, const uint8_t *buf, size_t len, int *opens);

#ifdef __cplusplus
}
#endif

#endif
