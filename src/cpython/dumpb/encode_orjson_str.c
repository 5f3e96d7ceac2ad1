/* dumpb: str literals in orjson's spelling, read from the str's PEP 393 storage (the
 * UTF-8 cache is never filled).
 *
 * ASCII strs, the common case, are copied a block (16 bytes with SSE2, else 8) at a
 * time and checked for '"', '\\' and control characters on the copy; the tail of a text
 * of 16 bytes or more is the last 16 bytes of the text, shifted down (jj_copy_tail16).
 * Other strs go to the engine's jj_escape_orjson. Long strs are written in pieces
 * (jj_dumpb_long_str). */
#include "encode_orjson.h"
#include "dumpb_messages.h"

#include "jetjson_write.h"

#if defined(__SSE2__)
#define JJ_BLOCK 16
#else
#define JJ_BLOCK 8
#endif

/* Copy one block from src to dst; a bit per byte (bit i = byte i) that needs escaping. */
static inline uint32_t jj_copy_block(uint8_t *dst, const uint8_t *src) {
#if defined(__SSE2__)
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)src);
    _mm_storeu_si128((__m128i *)(void *)dst, v);
    return jj_escape_flags_m128(v, 0);
#else
    uint64_t w;
    memcpy(&w, src, 8);
    memcpy(dst, &w, 8);
    uint64_t bad = jj_escape_flags7(w, 0);
    uint32_t mask = 0;
    for (int i = 0; i < 8; i++) {
        uint8_t byte;
        memcpy(&byte, (const uint8_t *)&bad + i, 1);
        if (byte) mask |= 1u << i;
    }
    return mask;
#endif
}

static inline int jj_ctz(uint32_t m) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(m);
#else
    int k = 0;
    while (!(m & 1)) m >>= 1, k++;
    return k;
#endif
}

/* 32 bytes a step, then the last 32 bytes of the text over what came before, and one
 * test at the end: strs of varying length (60 to 100 characters: URLs, titles) cost a
 * mispredicted loop exit for every 16-byte length class, and ran at 0.86x
 * fastsimdjson's dumpb_many with a 16-byte step. */
int jj_copy_ascii_long(uint8_t *dst, const uint8_t *data, size_t n) {
#if defined(__SSE2__)
    const __m128i lo = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
    __m128i acc = _mm_setzero_si128();
#define JJ_COPY_AT(k) do { \
        __m128i v_ = _mm_loadu_si128((const __m128i *)(const void *)(data + (k))); \
        _mm_storeu_si128((__m128i *)(void *)(dst + (k)), v_); \
        acc = _mm_or_si128(acc, _mm_or_si128(_mm_cmplt_epi8(v_, lo), \
                          _mm_or_si128(_mm_cmpeq_epi8(v_, quote), _mm_cmpeq_epi8(v_, bslash)))); \
    } while (0)
    for (size_t i = 0; i < n - 32; i += 32) {
        JJ_COPY_AT(i);
        JJ_COPY_AT(i + 16);
    }
    JJ_COPY_AT(n - 32);
    JJ_COPY_AT(n - 16);
#undef JJ_COPY_AT
    return _mm_movemask_epi8(acc) != 0;
#else
    uint32_t bad = 0;
    for (size_t i = 0; i < n - 16; i += 16) bad |= jj_copy_check16(dst + i, data + i);
    return (bad | jj_copy_check16(dst + n - 16, data + n - 16)) != 0;
#endif
}

/* Each block is copied whole and its mask says where the first character to
 * escape is: the copy up to it stands, the escape is written over the rest, and the
 * next block starts just after it. The last bytes (fewer than a block) are the last 16
 * of the text, shifted down, so a title in quotes costs two escapes and no byte loop
 * (the byte loop after a quote at the end cost 12 ns a str). */
size_t jj_dumpb_ascii_body(const uint8_t *src, size_t n, uint8_t *out) {
    uint8_t *o = out;
    size_t i = 0;
    for (;;) {
        while (n - i >= JJ_BLOCK) {
            uint32_t m = jj_copy_block(o, src + i);
            if (m) {
                int k = jj_ctz(m);
                o += k;
                i += (size_t)k;
                goto special;
            }
            o += JJ_BLOCK;
            i += JJ_BLOCK;
        }
        {
            size_t r = n - i;
            if (r == 0) break;
            if (n >= 16) { /* the 16 bytes before the end are inside the text */
                uint32_t m = jj_special16(src + n - 16) >> (16 - r);
                (void)jj_copy_tail16(o, src + n, r);
                if (!m) {
                    o += r;
                    break;
                }
                int k = jj_ctz(m);
                o += k;
                i += (size_t)k;
            } else { /* a short text: byte by byte */
                while (i < n && jj_escape_letter[src[i]] == 0) *o++ = src[i++];
                if (i == n) break;
            }
        }
    special:
        o = jj_write_escape_ascii(o, src[i]);
        i++;
    }
    return (size_t)(o - out);
}

/* Strs longer than this are written a piece at a time, so the room reserved for the
 * worst case (6 bytes a unit) stays small next to the text itself. */
#define JJ_STR_PIECE 16384

/* A long str, piece by piece between the quotes. Non-ASCII pieces go through
 * jj_escape_orjson written one byte early, so its opening quote lands on the byte
 * before (restored after) and its closing quote is dropped. */
static int jj_dumpb_long_str(jj_dumpb_enc *e, const uint8_t *data, size_t n, int kind, int ascii) {
    if (jj_writer_put_byte(&e->w, '"')) return -1;
    for (size_t i = 0; i < n;) {
        size_t m = n - i < JJ_STR_PIECE ? n - i : JJ_STR_PIECE;
        if (jj_writer_reserve(&e->w, 6 * m + 2 + JJ_STR_SLACK)) return -1;
        if (ascii) {
            e->w.pos += jj_dumpb_ascii_body(data + i, m, e->w.pos);
        } else {
            uint8_t saved = e->w.pos[-1];
            size_t len = jj_escape_orjson(data + i * (size_t)kind, m, kind, e->w.pos - 1);
            if (len == JJ_ESCAPE_SURROGATE) return jj_dumpb_fail(e, JJ_MSG_SURROGATE);
            e->w.pos[-1] = saved;
            e->w.pos += len - 2;
        }
        i += m;
    }
    return jj_writer_put_byte(&e->w, '"');
}

int jj_dumpb_str(jj_dumpb_enc *e, PyObject *s) {
#if PY_VERSION_HEX < 0x030C0000
    if (!PyUnicode_IS_READY(s) && PyUnicode_READY(s) < 0) return -1;
#endif
    size_t n = (size_t)PyUnicode_GET_LENGTH(s);
    if (n > JJ_STR_PIECE)
        return jj_dumpb_long_str(e, (const uint8_t *)PyUnicode_DATA(s), n, PyUnicode_KIND(s), PyUnicode_IS_ASCII(s));
    if (jj_writer_reserve(&e->w, 6 * n + 2 + JJ_STR_SLACK)) return -1;
    if (PyUnicode_IS_ASCII(s)) {
        uint8_t *o = e->w.pos;
        o[0] = '"';
        size_t len = jj_dumpb_ascii_body((const uint8_t *)PyUnicode_DATA(s), n, o + 1);
        o[len + 1] = '"';
        e->w.pos = o + len + 2;
        return 0;
    }
    size_t len = jj_escape_orjson(PyUnicode_DATA(s), n, PyUnicode_KIND(s), e->w.pos);
    if (len == JJ_ESCAPE_SURROGATE) return jj_dumpb_fail(e, JJ_MSG_SURROGATE);
    e->w.pos += len;
    return 0;
}

int jj_str_has_surrogate(PyObject *s) {
#if PY_VERSION_HEX < 0x030C0000
    if (!PyUnicode_IS_READY(s) && PyUnicode_READY(s) < 0) {
        PyErr_Clear();
        return 0;
    }
#endif
    int kind = PyUnicode_KIND(s);
    if (kind == PyUnicode_1BYTE_KIND) return 0;
    const void *data = PyUnicode_DATA(s);
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c >= 0xD800 && c <= 0xDFFF) return 1;
    }
    return 0;
}
