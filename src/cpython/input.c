/* What loads reads: bytes-like objects in place, str by its storage kind. A compact
 * ASCII str is already UTF-8; other kinds are transcoded into the thread's scratch
 * buffer (surrogates as 3-byte sequences, which the engine accepts), so the str's own
 * UTF-8 cache is never filled. */
#include <string.h>

#include "state.h"

static uint8_t *jj_put_utf8(uint8_t *d, Py_UCS4 cp) {
    if (cp < 0x80) {
        *d++ = (uint8_t)cp;
    } else if (cp < 0x800) {
        *d++ = (uint8_t)(0xc0 | cp >> 6);
        *d++ = (uint8_t)(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        *d++ = (uint8_t)(0xe0 | cp >> 12);
        *d++ = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
        *d++ = (uint8_t)(0x80 | (cp & 0x3f));
    } else {
        *d++ = (uint8_t)(0xf0 | cp >> 18);
        *d++ = (uint8_t)(0x80 | ((cp >> 12) & 0x3f));
        *d++ = (uint8_t)(0x80 | ((cp >> 6) & 0x3f));
        *d++ = (uint8_t)(0x80 | (cp & 0x3f));
    }
    return d;
}

static int jj_input_from_str(PyObject *s, jj_thread_parser *tp, jj_input *in) {
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(s) < 0) return -1; /* a legacy str made by the deprecated wchar API */
#endif
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    if (PyUnicode_IS_ASCII(s)) {
        in->buf = PyUnicode_DATA(s);
        in->len = (size_t)n;
        return 0;
    }
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    size_t per_char = kind == PyUnicode_1BYTE_KIND ? 2 : kind == PyUnicode_2BYTE_KIND ? 3 : 4;
    if ((size_t)n > (SIZE_MAX - 1) / per_char || !jj_thread_scratch_reserve(tp, (size_t)n * per_char + 1)) {
        PyErr_NoMemory();
        return -1;
    }
    uint8_t *d = tp->scratch;
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *src = data;
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_UCS1 c = src[i];
            if (c < 0x80) {
                *d++ = c;
            } else {
                *d++ = (uint8_t)(0xc0 | c >> 6);
                *d++ = (uint8_t)(0x80 | (c & 0x3f));
            }
        }
    } else if (kind == PyUnicode_2BYTE_KIND) {
        /* JSON text is mostly ASCII even in a wide str: four units at a time while so */
        const Py_UCS2 *src = data;
        Py_ssize_t i = 0;
        while (i < n) {
            uint64_t w;
            if (i + 4 <= n && (memcpy(&w, src + i, 8), (w & UINT64_C(0xff80ff80ff80ff80)) == 0)) {
                d[0] = (uint8_t)src[i], d[1] = (uint8_t)src[i + 1], d[2] = (uint8_t)src[i + 2], d[3] = (uint8_t)src[i + 3];
                d += 4;
                i += 4;
            } else {
                d = jj_put_utf8(d, src[i++]);
            }
        }
    } else {
        const Py_UCS4 *src = data;
        Py_ssize_t i = 0;
        while (i < n) {
            uint64_t a, b;
            if (i + 4 <= n && (memcpy(&a, src + i, 8), memcpy(&b, src + i + 2, 8),
                               ((a | b) & UINT64_C(0xffffff80ffffff80)) == 0)) {
                d[0] = (uint8_t)src[i], d[1] = (uint8_t)src[i + 1], d[2] = (uint8_t)src[i + 2], d[3] = (uint8_t)src[i + 3];
                d += 4;
                i += 4;
            } else {
                d = jj_put_utf8(d, src[i++]);
            }
        }
    }
    in->buf = tp->scratch;
    in->len = (size_t)(d - tp->scratch);
    return 0;
}


/* json.detect_encoding's choice, made here so that no json code runs. */
static const char *jj_json_encoding(const uint8_t *b, size_t len) {
    if (len >= 4 && ((b[0] == 0 && b[1] == 0 && b[2] == 0xfe && b[3] == 0xff) ||
                     (b[0] == 0xff && b[1] == 0xfe && b[2] == 0 && b[3] == 0)))
        return "utf-32";
    if (len >= 2 && ((b[0] == 0xfe && b[1] == 0xff) || (b[0] == 0xff && b[1] == 0xfe))) return "utf-16";
    if (len >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf) return "utf-8-sig";
    if (len >= 4) {
        if (!b[0]) return b[1] ? "utf-16-be" : "utf-32-be";
        if (!b[1]) return b[2] || b[3] ? "utf-16-le" : "utf-32-le";
    } else if (len == 2) {
        if (!b[0]) return "utf-16-be";
        if (!b[1]) return "utf-16-le";
    }
    return "utf-8";
}

int jj_bytes_need_json(const uint8_t *b, size_t len) { return strcmp(jj_json_encoding(b, len), "utf-8") != 0; }

PyObject *jj_decode_like_json(const uint8_t *buf, size_t len) {
    return PyUnicode_Decode((const char *)buf, (Py_ssize_t)len, jj_json_encoding(buf, len), "surrogatepass");
}

int jj_input_open(PyObject *obj, struct jj_thread_parser *tp, jj_input *in) {
    in->has_view = 0;
    in->needs_json = 0;
    if (PyBytes_Check(obj)) {
        in->buf = (const uint8_t *)PyBytes_AS_STRING(obj);
        in->len = (size_t)PyBytes_GET_SIZE(obj);
    } else if (PyUnicode_Check(obj)) {
        return jj_input_from_str(obj, tp, in);
    } else if (PyByteArray_Check(obj) || PyMemoryView_Check(obj)) {
        if (PyObject_GetBuffer(obj, &in->view, PyBUF_C_CONTIGUOUS) < 0) return -1;
        in->has_view = 1;
        in->buf = in->view.buf;
        in->len = (size_t)in->view.len;
    } else {
        return JJ_INPUT_UNSUPPORTED; /* json.loads words the TypeError (or accepts it) */
    }
    in->needs_json = jj_bytes_need_json(in->buf, in->len);
    return 0;
}

void jj_input_close(jj_input *in) {
    if (in->has_view) {
        PyBuffer_Release(&in->view);
        in->has_view = 0;
    }
}
