/* The stream iterator (many.h): its input, the windows the engine indexes, and the
 * rules of each format for where one document ends and the next begins.
 *
 * Documents are read the way json.JSONDecoder.raw_decode reads a text from where the
 * last one ended: where the engine refuses a document, jj_json_explain says what json
 * makes of the text there (a value that ends early, "truefalse" being two; a value
 * only json takes; or json's error, raised with its position in the whole input). */
#include <stdlib.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "many.h"

#include "request.h"

#define JJ_RS 0x1E

static int jj_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static int jj_all_space(const uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!jj_space(b[i])) return 0;
    return 1;
}

/* ---- input ---- */

/* Takes `data` as loads_many reads it: bytes and str in place (json's encoding detection
 * for bytes), read-only buffers in place, other buffers copied. 0 or -1. */
int jj_many_take_input(jj_many_iter *it, PyObject *data) {
    if (PyUnicode_Check(data)) {
        Py_ssize_t n;
        const char *utf8 = PyUnicode_AsUTF8AndSize(data, &n);
        it->text = Py_NewRef(data);
        if (utf8) {
            it->owner = Py_NewRef(data);
            it->buf = (const uint8_t *)utf8;
            it->len = (size_t)n;
            return 0;
        }
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) return -1;
        /* lone surrogates: written as json reads them back from bytes; the engine
         * refuses those documents and json builds them */
        PyErr_Clear();
        it->owner = PyUnicode_AsEncodedString(data, "utf-8", "surrogatepass");
        if (!it->owner) return -1;
        it->buf = (const uint8_t *)PyBytes_AS_STRING(it->owner);
        it->len = (size_t)PyBytes_GET_SIZE(it->owner);
        return 0;
    }
    const uint8_t *buf;
    size_t len;
    if (PyBytes_Check(data)) {
        buf = (const uint8_t *)PyBytes_AS_STRING(data);
        len = (size_t)PyBytes_GET_SIZE(data);
    } else if (data == Py_None) { /* a Decoder: chunks come through _feed */
        it->streamed = 1;
        return 0;
    } else if (!PyObject_CheckBuffer(data) &&
               (PyObject_HasAttrString(data, "readinto") || PyObject_HasAttrString(data, "read"))) {
        return jj_stream_take_reader(it, data);
    } else if (PyObject_CheckBuffer(data)) {
        if (PyObject_GetBuffer(data, &it->view, PyBUF_SIMPLE) < 0) return -1;
        it->has_view = 1;
        buf = it->view.buf;
        len = (size_t)it->view.len;
    } else {
        PyErr_Format(PyExc_TypeError, "the JSON object must be str, bytes or bytearray, not %.200s",
                     Py_TYPE(data)->tp_name);
        return -1;
    }
    if (jj_bytes_need_json(buf, len)) { /* UTF-16/32 or a BOM: json decodes first */
        PyObject *text = jj_decode_like_json(buf, len);
        if (!text) return -1;
        if (it->has_view) {
            PyBuffer_Release(&it->view);
            it->has_view = 0;
        }
        int rc = jj_many_take_input(it, text);
        Py_DECREF(text);
        return rc;
    }
    if (it->has_view && !it->view.readonly) { /* it could change between documents */
        it->copy = malloc(len ? len : 1);
        if (!it->copy) {
            PyErr_NoMemory();
            return -1;
        }
        memcpy(it->copy, buf, len);
        buf = it->copy;
        PyBuffer_Release(&it->view);
        it->has_view = 0;
    } else if (!it->has_view) {
        it->owner = Py_NewRef(data);
    }
    it->buf = buf;
    it->len = len;
    if (it->has_view) { /* an mmap, or a memoryview of one (load_many_file's input) */
        PyObject *base = PyMemoryView_Check(data) ? PyMemoryView_GET_BASE(data) : data;
        Py_buffer whole;
        /* only a map that is read-only itself: nothing was written to its pages, so those
         * given back come again as they were (a read-only view of a writable private map
         * could lose what was written) */
        if (base && strcmp(Py_TYPE(base)->tp_name, "mmap.mmap") == 0) {
            if (PyObject_GetBuffer(base, &whole, PyBUF_SIMPLE) == 0) {
                it->file_map = whole.readonly != 0;
                PyBuffer_Release(&whole);
            } else {
                PyErr_Clear();
            }
        }
    }
    return 0;
}

/* A read-only mmap shares the file's pages: the ones behind the stream are given back
 * (read again from the file if a view or an error needs them), so that reading a big
 * file keeps the process's resident memory near a window, not the file's size. */
#define JJ_GIVE_BACK_BYTES ((size_t)32 << 20)

static void jj_give_back_pages(jj_many_iter *it) {
#if defined(MADV_DONTNEED)
    if (!it->file_map || it->pos < it->given_back + JJ_GIVE_BACK_BYTES) return;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0) return;
    uintptr_t from = (uintptr_t)(it->buf + it->given_back), to = (uintptr_t)(it->buf + it->pos);
    from = (from + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    to &= ~((uintptr_t)page - 1);
    if (to > from) (void)madvise((void *)from, (size_t)(to - from), MADV_DONTNEED);
    it->given_back = it->pos;
#else
    (void)it;
#endif
}

/* ---- windows ---- */

const uint8_t *jj_memrchr(const uint8_t *b, uint8_t c, size_t n) {
#if defined(__GLIBC__)
    return memrchr(b, c, n);
#else
    while (n--)
        if (b[n] == c) return b + n;
    return NULL;
#endif
}

size_t jj_many_window_size(const jj_many_iter *it, size_t pos, size_t want) {
    size_t left = it->len - pos;
    size_t n = want < left ? want : left;
    if (n < left) {
        /* end the window after a line break when there is one in its second half: no
         * valid string holds one, so the window does not end inside a string (which
         * would cost the engine a walk over the window to find its quote) */
        const uint8_t *nl = jj_memrchr(it->buf + pos + n / 2, '\n', n - n / 2);
        if (nl) n = (size_t)(nl - (it->buf + pos)) + 1;
    }
    return n;
}

/* Indexes the next window, of about `want` bytes from it->pos. */
static int jj_open_window(jj_many_iter *it, size_t want) {
    size_t left = it->len - it->pos;
    size_t n = jj_many_window_size(it, it->pos, want);
    int more = n < left || (it->streamed && !it->eof);
    unsigned flags = (more ? JJ_MANY_MORE_INPUT : 0) | (it->spans ? JJ_MANY_SPANS : 0);
    /* type=: each document's lazy tape straight from the window's index (the formats
     * that read no index entry here: jj_peek knows only plain positions) */
    int lazy_formats = it->format == JJ_FMT_WHITESPACE || it->format == JJ_FMT_LINES;
    int skims = it->fields_plan && jj_fields_window_plain(it->buf + it->pos, n);
    if ((it->typed_plan || (it->fields && !skims)) && lazy_formats) flags |= JJ_MANY_LAZY; /* fields= finish what they pick */
    /* parse_many: the same, where a view may point into the window (the input stays put;
     * a streamed buffer moves on, and each view keeps a copy of its document instead) */
    if (it->spans && lazy_formats && !it->streamed && !it->ahead) flags |= JJ_MANY_LAZY;
    jj_error err;
    if (n >= JJ_UNLOCK_MIN_BYTES) { /* the input cannot change: bytes, str, read-only or a copy */
        Py_BEGIN_ALLOW_THREADS
        err = jj_many_start(&it->many, it->parser, it->buf + it->pos, n, flags);
        Py_END_ALLOW_THREADS
    } else {
        err = jj_many_start(&it->many, it->parser, it->buf + it->pos, n, flags);
    }
    if (err == JJ_ERR_NOMEM) {
        PyErr_NoMemory();
        return -1;
    }
    if (err != JJ_OK) { /* JJ_ERR_TOO_LARGE: a window past the index's reach */
        PyErr_SetString(PyExc_ValueError, "a document of 4 GiB or more cannot be read from a stream");
        return -1;
    }
    it->window = it->pos;
    it->window_len = n;
    it->window_open = 1;
    /* whitespace-separated documents, each read from the window's tape or its lazy one:
     * what the loop of jj_next_document does with one the engine took is short then */
    it->window_quick = it->format == JJ_FMT_WHITESPACE && !it->fields_plan &&
                       (!it->spans || (it->many.flags & JJ_MANY_LAZY));
    /* loads_many's values from the window's plain tape: what jj_many_value tests for
     * (fields=, type=, views, a lazy tape) cannot apply */
    it->window_plain = it->window_quick && !it->lazy && !it->fields && !it->typed_plan &&
                       !(it->many.flags & JJ_MANY_LAZY);
    it->result = jj_parser_result(it->parser);
    return 0;
}

/* The byte at the stream's next index entry, or -1 when the window has no entry left. */
static int jj_peek(const jj_many_iter *it) {
    size_t count;
    const uint32_t *index = jj_parser_structurals(it->parser, &count);
    if (it->many.next >= count) return -1;
    return it->buf[it->window + index[it->many.next]];
}

/* The buf offset of the next index entry (jj_peek found one). */
static size_t jj_next_at(const jj_many_iter *it) {
    size_t count;
    return it->window + jj_parser_structurals(it->parser, &count)[it->many.next];
}

/* Starts the next window at `at` (the documents after it are read again). */
static void jj_restart_at(jj_many_iter *it, size_t at) {
    it->pos = at;
    it->window_open = 0;
}

/* json's error for the whole input (the array format: elements are json's array). */
static PyObject *jj_fail_whole(jj_many_iter *it) {
    jj_json_rules rules = jj_json_rules_here(0);
    if (it->streamed && it->array_state == 1) {
        /* the array's start is gone: json's verdict on "[" and the rest from just after
         * the last '[' or ',', which puts its scanner in the same place */
        size_t from = it->array_resume, n = it->len - from;
        const char *lead = it->array_after_comma ? "[0," : "["; /* json's state there */
        size_t lead_len = strlen(lead);
        uint8_t *text = malloc(n + lead_len);
        if (!text) return PyErr_NoMemory();
        memcpy(text, lead, lead_len);
        memcpy(text + lead_len, it->buf + from, n);
        jj_json_verdict v = jj_json_explain(text, n + lead_len, &rules);
        free(text);
        if (v.error != JJ_JSON_ACCEPTED) {
            size_t at = from + v.offset - lead_len; /* the lead's comma stands for buf[from - 1] */
            v.offset = 0;
            jj_many_raise(it, at, &v);
        } else {
            PyErr_SetString(PyExc_ValueError, "format='array': the array does not end");
        }
        return NULL;
    }
    jj_json_verdict v = jj_json_explain(it->buf, it->len, &rules);
    if (jj_many_raise(it, 0, &v) > 0) /* valid JSON, but no array */
        PyErr_SetString(PyExc_ValueError, "format='array' reads the elements of a top-level array: "
                                          "the input is another JSON value");
    return NULL;
}

static int jj_need_bytes(jj_many_iter *it, size_t from, size_t want);

/* The reach of json's lookahead past a byte where it reports an error (a keyword, a
 * number's fraction or exponent, a surrogate pair's escapes): an error further from the
 * end of the bytes in hand than this stays where it is whatever bytes come next. */
#define JJ_VERDICT_LOOKAHEAD 16

/* format='array' on an input that starts with something else: json's error for the whole
 * input. A Decoder waits for the bytes that decide it (an error at the end of what it has
 * may move, or the text be valid so far): at each doubling of what it holds, then at
 * close(). -1, with the exception raised or, when starved, none. */
static int jj_not_an_array(jj_many_iter *it, size_t at) {
    if (!it->streamed || it->eof || it->reader) return jj_fail_whole(it), -1;
    jj_json_rules rules = jj_json_rules_here(0);
    jj_json_verdict v = jj_json_explain(it->buf, it->len, &rules);
    int settled = v.error != JJ_JSON_ACCEPTED && v.error != JJ_JSON_UNTERMINATED_STRING &&
                  v.offset + JJ_VERDICT_LOOKAHEAD <= it->len;
    if (settled) return jj_many_raise(it, 0, &v), -1;
    it->array_verdict_at = it->len > SIZE_MAX / 2 ? SIZE_MAX : 2 * it->len + 1;
    jj_need_bytes(it, at, it->len - at + 1); /* starved: nothing raised */
    return -1;
}

/* A JSONDecodeError of `kind` at byte `at`. */
static PyObject *jj_fail_at(jj_many_iter *it, jj_json_error kind, size_t at) {
    jj_json_verdict v = {.error = kind, .offset = 0};
    jj_many_raise(it, at, &v);
    return NULL;
}

/* ---- the formats ---- */

/* Whether a refused document that the engine took to end at `end` reaches the bytes
 * that are not UTF-8 in this window (then json's error is its UnicodeDecodeError). */
static int jj_runs_into_bad_bytes(const jj_many_iter *it, jj_error err, size_t end) {
    return err == JJ_ERR_UTF8 || (it->many.pending == JJ_ERR_UTF8 && end >= it->window + it->many.pending_at);
}

/* An end for jj_many_check_utf8 that takes in the bad bytes (a sequence is at most 4). */
static size_t jj_past_bad_bytes(const jj_many_iter *it, size_t end) {
    size_t bad = it->many.pending == JJ_ERR_UTF8 ? it->window + it->many.pending_at + 4 : end;
    size_t stop = bad > end ? bad : end;
    return stop < it->len ? stop : it->len;
}

static PyObject *jj_value_until(jj_many_iter *it, size_t start, size_t stop);

/* What json makes of a document that runs into this window's bytes that are not UTF-8,
 * read up to them (a stream reads the text before bad bytes as text): 1 with *v when
 * that decides the document, 0 when the bad bytes' UnicodeDecodeError does. It decides
 * when json's value ends before them (extra data: the value, the stream going on after
 * it), or when json's error lies before them with text that splits tokens (white space,
 * a bracket, a comma, a colon, a quote) between, so that the bad bytes did not cut
 * short the token it names; an unterminated string is named by its start wherever it
 * stops, so never. */
static int jj_read_before_bad_bytes(jj_many_iter *it, size_t start, const jj_json_rules *rules, jj_json_verdict *v) {
    if (it->many.pending != JJ_ERR_UTF8) return 0; /* the bad bytes' place is not known */
    size_t bad = it->window + it->many.pending_at;
    if (bad <= start) return 0;
    *v = jj_json_explain(it->buf + start, bad - start, rules);
    if (v->error == JJ_JSON_EXTRA_DATA) return 1;
    if (v->error == JJ_JSON_ACCEPTED || v->error == JJ_JSON_UNTERMINATED_STRING || v->error == JJ_JSON_NOMEM)
        return 0;
    for (size_t i = start + v->offset; i < bad; i++) {
        switch (it->buf[i]) {
        case ' ': case '\t': case '\r': case '\n': case '[': case ']': case '{': case '}': case ',': case ':': case '"':
            return 1;
        default: break;
        }
    }
    return 0;
}

/* A document the engine refused, starting at `start`, in the formats where the next one
 * starts where json's value ends (whitespace, comma): json's value of it (the stream
 * then goes on where json stopped) or json's exception. `end` is the end of the text the
 * engine took for the document. */
static PyObject *jj_refused_document(jj_many_iter *it, jj_error err, size_t start, size_t end) {
    if (err == JJ_ERR_NOMEM) return PyErr_NoMemory();
    jj_json_rules rules = jj_json_rules_here(0);
    if (jj_runs_into_bad_bytes(it, err, end)) {
        jj_json_verdict before;
        if (jj_read_before_bad_bytes(it, start, &rules, &before))
            return before.error == JJ_JSON_EXTRA_DATA ? jj_value_until(it, start, start + before.offset)
                                                      : (jj_many_raise(it, start, &before), NULL);
        if (jj_many_check_utf8(it, start, jj_past_bad_bytes(it, end)) < 0) return NULL;
    }
    jj_json_verdict v = jj_json_explain(it->buf + start, it->len - start, &rules);
    if (v.error == JJ_JSON_EXTRA_DATA) return jj_value_until(it, start, start + v.offset);
    if (v.error == JJ_JSON_ACCEPTED) return jj_value_until(it, start, it->len);
    return jj_many_raise(it, start, &v), NULL;
}

/* The value json reads at buf[start, stop) where the engine read something else ("1."
 * as one token, "NaN"): the engine's if it takes that text alone, else json's. The
 * stream goes on at `stop`. */
static PyObject *jj_value_until(jj_many_iter *it, size_t start, size_t stop) {
    jj_restart_at(it, stop);
    size_t n = stop - start;
    while (n && jj_space(it->buf[start + n - 1])) n--;
    if (jj_parse(it->parser, it->buf + start, n) == JJ_OK)
        return jj_many_value(it, it->parser, it->buf + start, n, start, start + n, 0);
    return jj_many_json_value(it, start, start + n);
}

/* lines: the document must be the whole of its line. */
static PyObject *jj_line_document(jj_many_iter *it, jj_error err, size_t start, size_t end) {
    const uint8_t *buf = it->buf;
    const uint8_t *nl = memchr(buf + end, '\n', it->len - end);
    size_t line_end = nl ? (size_t)(nl - buf) : it->len;
    const uint8_t *inside = memchr(buf + start, '\n', end - start);
    if (err == JJ_OK && !inside && jj_all_space(buf + end, line_end - end))
        return jj_many_value(it, it->cur, it->cur_input, it->cur_len, start, end, it->cur_lazy);
    if (err == JJ_ERR_NOMEM) return PyErr_NoMemory();
    /* json.loads of the line decides */
    size_t stop = inside ? (size_t)(inside - buf) : line_end;
    if (jj_many_check_utf8(it, start, stop) < 0) return NULL;
    jj_json_rules rules = jj_json_rules_here(0);
    jj_json_verdict v = jj_json_explain(buf + start, stop - start, &rules);
    if (jj_many_raise(it, start, &v) < 0) return NULL;
    jj_restart_at(it, stop);
    return jj_many_json_value(it, start, stop);
}

/* comma and array: the separators before the next document. 1 when a document comes,
 * 0 when the window needs more input, -1 with an exception (or, for array, when the
 * array closed: it->array_state is then 2). */
static int jj_separators(jj_many_iter *it) {
    for (;;) {
        int c = jj_peek(it);
        if (c < 0) return it->many.pending != JJ_OK ? 1 : 0; /* bad bytes: jj_many_next tells */
        size_t at = jj_next_at(it);
        if (it->format == JJ_FMT_COMMA) {
            if (c != ',') return 1;
            if (it->count == 0 || it->separated) return jj_fail_at(it, JJ_JSON_EXPECTING_VALUE, at), -1;
            it->separated = 1;
            it->many.next++;
            continue;
        }
        /* array */
        if (it->array_state == 0) {
            if (c != '[') return jj_not_an_array(it, at);
            it->array_state = 1;
            it->separated = 1;
            it->many.next++;
            it->array_resume = at + 1;
            it->array_after_comma = 0;
        } else if (it->array_state == 2) {
            return jj_fail_at(it, JJ_JSON_EXTRA_DATA, at), -1; /* something after the array */
        } else if (c == ']') {
            if (it->count && it->separated) return jj_fail_whole(it), -1; /* a trailing comma */
            it->array_state = 2;
            it->many.next++;
            it->prev_end = at + 1;
        } else if (c == ',') {
            if (it->separated) return jj_fail_whole(it), -1;
            it->separated = 1;
            it->many.next++;
            it->array_resume = at + 1;
            it->array_after_comma = 1;
        } else {
            return it->separated ? 1 : (jj_fail_whole(it), -1);
        }
    }
}

/* The end of the input in the formats read by windows: StopIteration, or the error of a
 * stream that stops too early. */
static PyObject *jj_end_of_input(jj_many_iter *it) {
    if (it->format == JJ_FMT_ARRAY && it->array_state != 2) return jj_fail_whole(it);
    if (it->format == JJ_FMT_COMMA && it->separated) return jj_fail_at(it, JJ_JSON_EXPECTING_VALUE, it->len);
    return NULL;
}

/* Streamed input: reads on (a file) so that `want` bytes from `from` are in hand, or
 * says that a Decoder must wait for its next chunk. 1: go on; 0: starved (nothing
 * raised); -1: an exception. */
static int jj_need_bytes(jj_many_iter *it, size_t from, size_t want) {
    if (!it->streamed || it->eof || it->len - from >= want) return 1;
    it->pos = from;
    it->window_open = 0;
    if (it->reader) return jj_stream_refill(it, from, want) < 0 ? -1 : 1;
    /* a Decoder: the next chunk decides */
    jj_stream_gate(it, from, want);
    it->starved = 1;
    return 0;
}

/* The value of a document of a quick window (it->window_quick) that jj_many_next took,
 * buf[start, end): what the loop of jj_next_document does for it, without the checks
 * for the formats, threads, fields and streams that cannot apply; in a plain window
 * (it->window_plain), without jj_many_value's tests either. */
static PyObject *jj_quick_document(jj_many_iter *it, size_t start, size_t end) {
    Py_CLEAR(it->cur_owner);
    it->cur = it->parser;
    it->cur_input = it->buf + it->window;
    int lazy = (it->many.flags & JJ_MANY_LAZY) != 0;
    it->cur_lazy = lazy;
    /* a lazy tape's number at the document's end must end there: 1"a" is two */
    it->cur_len = lazy ? end - it->window : it->window_len;
    PyObject *value = it->window_plain
                          ? jj_many_tape_value(it, it->cur, it->result, it->cur_input, it->cur_len, start, end, 0)
                          : jj_many_value(it, it->cur, it->cur_input, it->cur_len, start, end, lazy);
    if (value) {
        it->separated = 0;
        if (it->count < 2) it->count++;
    }
    return value;
}

/* The next document; with in_hand, err, s and e are what jj_many_next gave for the quick
 * window's next document, and the loop goes on from them. */
static PyObject *jj_next_document(jj_many_iter *it, int in_hand, jj_error err, size_t s, size_t e) {
    for (;;) {
        bool whole = true;
        if (in_hand) {
            in_hand = 0;
            goto have_document;
        }
        if (!it->window_open) {
            size_t want = it->want_next ? it->want_next : it->batch;
            it->want_next = 0;
            if (it->reader && !it->eof && it->len - it->pos < want && jj_stream_refill(it, it->pos, want) < 0)
                return NULL;
            if (it->pos >= it->len) {
                if (it->streamed && !it->eof) { /* fed: wait for the next chunk */
                    if (jj_need_bytes(it, it->pos, 1) <= 0) return NULL;
                    continue;
                }
                return jj_end_of_input(it);
            }
            jj_give_back_pages(it);
            int ahead = it->threads ? jj_threads_open(it, want) : 0;
            if (ahead < 0 || (ahead == 0 && jj_open_window(it, want) < 0)) return NULL;
        }
        if (it->format == JJ_FMT_COMMA || it->format == JJ_FMT_ARRAY) {
            int more = jj_separators(it);
            if (more < 0) return NULL;
            if (more == 0) { /* no entry left in this window */
                jj_restart_at(it, it->window + it->window_len);
                continue;
            }
        }
        if (it->ahead) err = jj_threads_next(it, &s, &e);
        else if (it->fields_plan) err = jj_many_next_fields(&it->many, it->fields_plan, it->field_spans, &s, &e, &whole);
        else err = jj_many_next(&it->many, &s, &e);
    have_document:
        if (err == JJ_ERR_EMPTY) {
            jj_restart_at(it, it->window + it->window_len);
            continue;
        }
        if (err == JJ_ERR_INCOMPLETE) {
            /* cut by the window's end: read again from its start, in a longer window
             * when it began the window (with more bytes, when streamed) */
            size_t from = it->window + s;
            size_t want = s == 0 ? (it->window_len > SIZE_MAX / 2 ? SIZE_MAX : 2 * it->window_len) : it->batch;
            jj_restart_at(it, from);
            it->want_next = want;
            if (jj_need_bytes(it, from, s == 0 ? it->window_len + 1 : 1) <= 0) return NULL;
            continue;
        }
        if (it->ahead && it->fields_plan && err != JJ_OK && err != JJ_ERR_EMPTY && err != JJ_ERR_INCOMPLETE &&
            err != JJ_ERR_NOMEM) {
            /* a document the worker could not finish (an error, or a value json must
             * decide) is read here, skimmed, from its start (a window jj_threads_open does
             * not plan leaves it to this thread) */
            jj_restart_at(it, it->window + s);
            it->want_next = it->batch + 1;
            continue;
        }
        int reparsed = 0;
        if (!whole && err == JJ_OK) { /* the line rule below reads the span: check it first */
            size_t doc_end = it->window + e;
            int line_may_go_on = it->format == JJ_FMT_LINES && it->streamed && !it->eof &&
                                 !memchr(it->buf + doc_end, '\n', it->len - doc_end);
            if (!line_may_go_on) {
                it->cur_input = it->buf + it->window;
                it->cur_len = doc_end - it->window; /* a number at its end must end there */
                reparsed = jj_many_skim_fields(it, &err, &s, &e);
                if (reparsed < 0) return NULL;
            }
        }
        size_t start = it->window + s, end = it->window + e;
        if (it->format == JJ_FMT_LINES && it->streamed && !it->eof &&
            !memchr(it->buf + end, '\n', it->len - end)) { /* its line may go on */
            size_t have = it->len - start;
            jj_restart_at(it, start);
            it->want_next = have > SIZE_MAX / 2 ? SIZE_MAX : 2 * have + 1;
            if (jj_need_bytes(it, start, it->want_next) <= 0) return NULL;
            continue;
        }
        Py_CLEAR(it->cur_owner);
        it->cur = it->parser;
        it->cur_input = it->buf + it->window;
        it->cur_len = it->window_len;
        it->cur_lazy = 0;
        if (it->ahead && !it->spans && err == JJ_OK) it->cur = it->ahead_view;
        int window_lazy = !it->ahead && !reparsed && (it->many.flags & JJ_MANY_LAZY);
        if (window_lazy && err == JJ_OK) { /* jj_many_next made its lazy tape */
            it->cur_lazy = 1;
            it->cur_len = end - it->window; /* a number at its end must end there: 1"a" is two */
        }
        if (it->spans && !window_lazy && err == JJ_OK) { /* the document alone, lazily */
            it->cur = it->doc_parser;
            it->cur_input = it->buf + start;
            if (it->streamed) { /* the buffer moves on: the view keeps a copy */
                it->cur_owner = PyBytes_FromStringAndSize((const char *)it->buf + start, (Py_ssize_t)(end - start));
                if (!it->cur_owner) return NULL;
                it->cur_input = (const uint8_t *)PyBytes_AS_STRING(it->cur_owner);
            }
            it->cur_len = end - start;
            it->cur_lazy = 1;
            err = it->ahead ? jj_threads_take_lazy(it) : jj_parse_lazy(it->cur, it->cur_input, it->cur_len);
        }
        PyObject *value;
        if (it->format == JJ_FMT_LINES) {
            value = jj_line_document(it, err, start, end);
        } else if (it->format == JJ_FMT_ARRAY) {
            if (err == JJ_OK) {
                value = jj_many_value(it, it->cur, it->cur_input, it->cur_len, start, end, it->cur_lazy);
            } else if (err == JJ_ERR_NOMEM) {
                value = PyErr_NoMemory();
            } else if (jj_runs_into_bad_bytes(it, err, end) &&
                       jj_many_check_utf8(it, start, jj_past_bad_bytes(it, end)) < 0) {
                value = NULL;
            } else {
                /* an element only json takes, else json's error for the whole array */
                jj_json_rules rules = jj_json_rules_here(0);
                jj_json_verdict v = jj_json_explain(it->buf + start, end - start, &rules);
                value = v.error == JJ_JSON_ACCEPTED     ? jj_many_json_value(it, start, end)
                      : v.error == JJ_JSON_EXTRA_DATA ? jj_value_until(it, start, start + v.offset)
                                                      : jj_fail_whole(it);
            }
        } else if (err == JJ_OK) {
            value = jj_many_value(it, it->cur, it->cur_input, it->cur_len, start, end, it->cur_lazy);
        } else {
            value = jj_refused_document(it, err, start, end);
        }
        Py_CLEAR(it->skim_value); /* not given (a line that holds more) */
        if (value) {
            it->separated = 0;
            if (it->count < 2) it->count++;
        }
        return value;
    }
}

/* json_seq (RFC 7464): the text between two RS bytes is one document (or nothing but
 * white space, skipped); text before the first RS counts as one too. */
static PyObject *jj_next_record(jj_many_iter *it) {
    const uint8_t *buf = it->buf;
    for (;;) {
        if (it->pos >= it->len) {
            if (!it->streamed || it->eof) return NULL;
            if (jj_need_bytes(it, it->pos, 1) <= 0) return NULL;
            buf = it->buf;
            continue;
        }
        size_t a = it->pos;
        const uint8_t *rs = memchr(buf + a, JJ_RS, it->len - a);
        while (!rs && it->streamed && !it->eof) { /* the record may go on */
            size_t have = it->len - a;
            int go = jj_need_bytes(it, a, have > SIZE_MAX / 2 ? SIZE_MAX : 2 * have + 1);
            if (go <= 0) return NULL;
            buf = it->buf;
            a = it->pos = 0;
            rs = memchr(buf, JJ_RS, it->len);
        }
        size_t b = rs ? (size_t)(rs - buf) : it->len;
        it->pos = rs ? b + 1 : it->len;
        size_t n = b - a; /* the record as json.loads would read it: white space and all */
        if (jj_all_space(buf + a, n)) continue;
        jj_error err = jj_parse(it->parser, buf + a, n);
        if (err == JJ_OK) return jj_many_value(it, it->parser, buf + a, n, a, b, 0);
        if (err == JJ_ERR_NOMEM) return PyErr_NoMemory();
        if (err == JJ_ERR_UTF8 && jj_many_check_utf8(it, a, b) < 0) return NULL;
        jj_json_rules rules = jj_json_rules_here(0);
        jj_json_verdict v = jj_json_explain(buf + a, n, &rules);
        if (jj_many_raise(it, a, &v) < 0) return NULL;
        return jj_many_json_value(it, a, b);
    }
}

/* ---- the next value ---- */

PyObject *jj_many_next_value(jj_many_iter *it) {
    if (it->format == JJ_FMT_JSON_SEQ) return jj_next_record(it);
    if (it->window_open && it->window_quick && !it->ahead) { /* most documents: the short way */
        size_t s = 0, e = 0;
        jj_error err = jj_many_next(&it->many, &s, &e);
        if (err != JJ_OK) return jj_next_document(it, 1, err, s, e);
        return jj_quick_document(it, it->window + s, it->window + e);
    }
    return jj_next_document(it, 0, JJ_OK, 0, 0);
}
