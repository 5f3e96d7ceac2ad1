/* The parser driver: owns the buffers, runs stage 1 then stage 2. */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "many_internal.h"


void jj_parser_init(jj_parser *p) { memset(p, 0, sizeof *p); }

void jj_parser_free(jj_parser *p) {
    free(p->index);
    if (!p->tape_inline) free(p->tape);
    free(p->strings);
    free(p->stack);
    jj_parser_init(p);
}

jj_parser *jj_parser_new(void) {
    jj_parser *p = malloc(sizeof *p);
    if (p) jj_parser_init(p);
    return p;
}

void jj_parser_delete(jj_parser *p) {
    if (!p) return;
    /* jj_parser_free's buffers, without its reset of a parser about to go */
    free(p->index);
    if (!p->tape_inline) free(p->tape);
    free(p->strings);
    free(p->stack);
    free(p);
}

const jj_doc *jj_parser_result(const jj_parser *p) { return &p->result; }

jj_error jj_parser_error(const jj_parser *p, size_t *offset) {
    if (offset) *offset = p->error_offset;
    return p->error;
}

const uint32_t *jj_parser_structurals(const jj_parser *p, size_t *count) {
    *count = p->index_len;
    return p->index;
}

size_t jj_parser_capacity(const jj_parser *p) {
    return p->index_cap * sizeof *p->index + p->tape_cap * sizeof *p->tape +
           p->strings_cap + p->stack_cap * sizeof *p->stack;
}

int jj_buffer_reserve(void **buf, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 1;
    size_t grown = *cap + *cap / 2;
    if (grown < need) grown = need;
    if (grown > SIZE_MAX / size) return 0;
    void *fresh = realloc(*buf, grown * size);
    if (!fresh) return 0;
    *buf = fresh;
    *cap = grown;
    return 1;
}

/* engine_internal.h */
__attribute__((noinline)) int jj_buffer_grow_empty(void **buf, size_t *cap, size_t need, size_t size) {
    size_t grown = *cap + *cap / 2;
    if (grown < need) grown = need;
    if (grown > SIZE_MAX / size) return 0;
    void *fresh = malloc(grown * size);
    if (!fresh) return 0;
    free(*buf);
    *buf = fresh;
    *cap = grown;
    return 1;
}

static jj_error jj_fail(jj_parser *p, jj_error err, size_t offset) {
    p->error = err;
    p->error_offset = offset;
    p->tape_len = 0;
    return err;
}

/* Stage 1 (k->stage1 or k->stage1_checked) into p->index. */
static jj_error jj_index_by(jj_parser *p, jj_stage1_fn stage1, const uint8_t *buf, size_t len) {
    p->tape_len = 0;
    p->max_depth = 0;
    if (len >= (size_t)UINT32_MAX - JJ_INDEX_SLACK) return jj_fail(p, JJ_ERR_TOO_LARGE, 0);
    if (!jj_buffer_reserve_empty((void **)&p->index, &p->index_cap, len + JJ_INDEX_SLACK, sizeof *p->index))
        return jj_fail(p, JJ_ERR_NOMEM, 0);
    jj_error err = JJ_OK;
    size_t err_off = 0;
    p->index_len = stage1(buf, len, p->index, &err, &err_off);
    return err ? jj_fail(p, err, err_off) : JJ_OK;
}

static jj_error jj_index(jj_parser *p, const jj_kernels *k, const uint8_t *buf, size_t len) {
    return jj_index_by(p, k->stage1, buf, len);
}

jj_error jj_parse_with(jj_parser *p, const jj_kernels *k, const uint8_t *buf, size_t len) {
    jj_error err = jj_index(p, k, buf, len);
    if (err) return err;
    size_t n = p->index_len;

    jj_tape_own(p);
    if (!jj_buffer_reserve_empty((void **)&p->tape, &p->tape_cap, 2 * n + 2, sizeof *p->tape) ||
        !jj_buffer_reserve_empty((void **)&p->stack, &p->stack_cap, n + 1, sizeof *p->stack) ||
        !jj_buffer_reserve_empty((void **)&p->strings, &p->strings_cap, len + JJ_STRING_SLACK, 1))
        return jj_fail(p, JJ_ERR_NOMEM, 0);

    err = k->stage2(p, buf, len);
    p->error = err;
    return err;
}

jj_error jj_parse(jj_parser *p, const uint8_t *buf, size_t len) {
    return jj_parse_with(p, jj_kernels_active(), buf, len);
}

/* One validation: stage 1 then the walk, `checked` choosing the pair. */
static jj_error jj_validate_pass(jj_parser *p, const jj_kernels *k, const uint8_t *buf, size_t len,
                                 jj_valid_facts *facts, int checked) {
    facts->max_depth = facts->max_int_digits = 0;
    jj_error err = jj_index_by(p, checked ? k->stage1_checked : k->stage1, buf, len);
    if (err) return err;
    if (!jj_buffer_reserve_empty((void **)&p->stack, &p->stack_cap, p->index_len + 1, sizeof *p->stack))
        return jj_fail(p, JJ_ERR_NOMEM, 0);
    err = checked ? k->validate_checked(p, buf, len, facts) : k->validate(p, buf, len, facts);
    p->error = err;
    if (err == JJ_OK) p->max_depth = facts->max_depth;
    return err;
}

/* The checked pair first: stage 1 checks string text on the way (cheap: its masks are
 * there), so the walk never scans a string again. A refusal is rare and its code and
 * offset are those of the plain pair, so that pair runs again to find them. */
jj_error jj_validate_with(jj_parser *p, const jj_kernels *k, const uint8_t *buf, size_t len,
                          jj_valid_facts *facts) {
    jj_error err = jj_validate_pass(p, k, buf, len, facts, 1);
    if (err == JJ_OK || err == JJ_ERR_NOMEM) return err;
    return jj_validate_pass(p, k, buf, len, facts, 0);
}

jj_error jj_validate(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts) {
    return jj_validate_with(p, jj_kernels_active(), buf, len, facts);
}

jj_error jj_validate_lines_with(jj_parser *p, const jj_kernels *k, const uint8_t *buf, size_t len,
                                jj_valid_facts *facts, size_t *lines) {
    facts->max_depth = facts->max_int_digits = 0;
    *lines = 0;
    jj_error err = jj_index_by(p, k->stage1_lines, buf, len);
    if (err) return err;
    if (!jj_buffer_reserve_empty((void **)&p->stack, &p->stack_cap, p->index_len + 1, sizeof *p->stack))
        return jj_fail(p, JJ_ERR_NOMEM, 0);
    err = k->validate_lines(p, buf, len, facts, lines);
    p->error = err;
    if (err) *lines = 0;
    return err;
}

jj_error jj_validate_lines(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts, size_t *lines) {
    return jj_validate_lines_with(p, jj_kernels_active(), buf, len, facts, lines);
}

bool jj_valid(jj_parser *p, const uint8_t *buf, size_t len) {
    jj_valid_facts facts;
    return jj_validate(p, buf, len, &facts) == JJ_OK;
}

/* ---- owned documents ---- */

/* The string buffer is sized for the whole input, and most strings stay in the input:
 * a kept document gives back the part it does not use when that part is large. The
 * tape is kept whole when it is at most about four times its use, else copied. */
static uint8_t *jj_shrink(uint8_t *buf, size_t used, size_t *cap) {
    if (used == 0 || *cap - used < used + ((size_t)64 << 10)) return buf;
    uint8_t *fit = realloc(buf, used);
    if (!fit) return buf;
    *cap = used;
    return fit;
}

/* jj_parser_take_document's move of the string buffer, when the parse wrote to it (a
 * parse that wrote no string keeps its buffer). */
static void jj_parser_take_strings(jj_parser *to, jj_parser *from) {
    to->strings = NULL;
    to->strings_len = to->strings_cap = 0;
    if (from->strings_len) {
        to->strings_cap = from->strings_cap;
        to->strings = jj_shrink(from->strings, from->strings_len, &to->strings_cap);
        to->strings_len = from->strings_len;
        from->strings = NULL;
        from->strings_len = from->strings_cap = 0;
    }
}

/* A document far smaller than the tape reserved for it (jj_many_next's walk reserves for
 * the rest of a window) is copied out, and the tape stays for the next one. */
static int jj_tape_copied_out(const jj_parser *from) { return from->tape_cap / 4 > from->tape_len + 256; }

void jj_parser_take_document(jj_parser *to, jj_parser *from) {
    jj_tape_own(to);
    free(to->tape);
    free(to->strings);
    to->tape = NULL;
    to->tape_len = to->tape_cap = 0;
    to->max_depth = from->max_depth;
    uint64_t *copy = NULL;
    if (jj_tape_copied_out(from) && (copy = malloc((from->tape_len + 1) * sizeof *copy))) {
        memcpy(copy, from->tape, from->tape_len * sizeof *copy);
        to->tape = copy;
        to->tape_len = from->tape_len;
        to->tape_cap = from->tape_len + 1;
        from->tape_len = 0;
    } else {
        to->tape = from->tape;
        to->tape_len = from->tape_len;
        to->tape_cap = from->tape_cap;
        from->tape = NULL;
        from->tape_len = from->tape_cap = 0;
    }
    jj_parser_take_strings(to, from);
}

jj_parser *jj_parser_hold_document(jj_parser *from) {
    size_t words = from->tape_len + 1;
    if (!jj_tape_copied_out(from)) { /* the tape itself fits it: taken */
        jj_parser *to = jj_parser_new();
        if (to) jj_parser_take_document(to, from);
        return to;
    }
    if (words > (SIZE_MAX - sizeof(jj_parser)) / sizeof(uint64_t)) return NULL;
    _Static_assert(sizeof(jj_parser) % _Alignof(uint64_t) == 0, "the tape follows the struct aligned");
    jj_parser *to = malloc(sizeof *to + words * sizeof(uint64_t));
    if (!to) return NULL;
    jj_parser_init(to);
    to->tape = (uint64_t *)(void *)(to + 1);
    to->tape_inline = 1;
    to->tape_cap = words;
    to->tape_len = from->tape_len;
    to->max_depth = from->max_depth;
    memcpy(to->tape, from->tape, from->tape_len * sizeof *to->tape);
    from->tape_len = 0;
    jj_parser_take_strings(to, from);
    return to;
}

void jj_parser_recycle(jj_parser *to, jj_parser *from, size_t max_bytes) {
    if (!to->tape && from->tape && !from->tape_inline && from->tape_cap <= max_bytes / sizeof *from->tape) {
        to->tape = from->tape;
        to->tape_cap = from->tape_cap;
        to->tape_len = 0;
        from->tape = NULL;
        from->tape_len = from->tape_cap = 0;
    }
    if (!to->strings && from->strings && from->strings_cap <= max_bytes) {
        to->strings = from->strings;
        to->strings_cap = from->strings_cap;
        to->strings_len = 0;
        from->strings = NULL;
        from->strings_len = from->strings_cap = 0;
    }
}

void jj_doc_take(jj_parser *p, jj_doc *doc, const uint8_t *input, size_t len) {
    jj_parser holder;
    jj_parser_init(&holder);
    jj_parser_take_document(&holder, p);
    doc->tape = holder.tape;
    doc->tape_len = holder.tape_len;
    doc->strings = holder.strings;
    doc->strings_len = holder.strings_len;
    doc->max_depth = holder.max_depth;
    doc->input = input;
    doc->input_len = len;
}

void jj_doc_free(jj_doc *doc) {
    free(doc->tape);
    free(doc->strings);
    memset(doc, 0, sizeof *doc);
}

/* ---- many documents in one buffer ---- */

static int jj_is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* many_internal.h */
int jj_utf8_cut_short(const uint8_t *buf, size_t len, size_t at) {
    uint8_t c = buf[at];
    size_t need = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
    if (!need || len - at >= need) return 0;
    for (size_t k = at + 1; k < len; k++)
        if ((buf[k] & 0xc0) != 0x80) return 0;
    return 1;
}

/* JJ_MANY_LAZY: the lazy stage 1 over the whole buffer, with its length after the last
 * entry (stage2_lazy ends the last string there). 1 when it took every byte; 0 when the
 * caller indexes the usual way (p->error JJ_ERR_NOMEM when memory ran out). */
static int jj_many_index_lazy(jj_parser *p, const jj_kernels *k, const uint8_t *buf, size_t len) {
    p->tape_len = 0;
    p->max_depth = 0;
    p->error = JJ_OK;
    if (len >= JJ_LAZY_MAX_LEN - JJ_INDEX_SLACK) return 0;
    if (!jj_buffer_reserve_empty((void **)&p->index, &p->index_cap, len + JJ_INDEX_SLACK, sizeof *p->index)) {
        jj_fail(p, JJ_ERR_NOMEM, 0);
        return 0;
    }
    jj_error err = JJ_OK;
    size_t err_off = 0;
    p->index_len = k->stage1_lazy(buf, len, p->index, &err, &err_off);
    if (err) return 0;
    p->index[p->index_len] = (uint32_t)len;
    return 1;
}

/* Stage 2 over index entries [first, first + count), the buffers already reserved. */
static jj_error jj_many_stage2_reserved(jj_parser *p, const jj_kernels *k, int lazy, size_t first, size_t count,
                                        const uint8_t *buf, size_t region_end) {
    uint32_t *whole = p->index;
    size_t whole_len = p->index_len;
    p->index += first;
    p->index_len = count;
    jj_error err = lazy ? k->stage2_lazy(p, buf, region_end) : k->stage2(p, buf, region_end);
    p->index = whole;
    p->index_len = whole_len;
    return err;
}

/* many_internal.h: stage 2 over one document's index entries. */
jj_error jj_many_stage2(jj_parser *p, int lazy, size_t first, size_t count, const uint8_t *buf,
                        size_t doc_start, size_t region_end) {
    jj_tape_own(p);
    if (!jj_buffer_reserve_empty((void **)&p->tape, &p->tape_cap, 2 * count + 2, sizeof *p->tape) ||
        /* the lazy walk keeps two words per open container */
        !jj_buffer_reserve_empty((void **)&p->stack, &p->stack_cap, lazy ? 2 * count + 2 : count + 1, sizeof *p->stack) ||
        (!lazy && !jj_buffer_reserve_empty((void **)&p->strings, &p->strings_cap,
                                     region_end - doc_start + JJ_STRING_SLACK, 1)))
        return JJ_ERR_NOMEM;
    return jj_many_stage2_reserved(p, jj_kernels_active(), lazy, first, count, buf, region_end);
}

/* Inlined here: jj_many_next calls it once per document. */
static inline size_t jj_doc_end_at(const uint8_t *buf, size_t doc_start, size_t region_end) {
    size_t end = region_end;
    while (end > doc_start + 1 && jj_is_space(buf[end - 1])) end--;
    return end;
}

/* many_internal.h */
size_t jj_doc_end(const uint8_t *buf, size_t doc_start, size_t region_end) {
    return jj_doc_end_at(buf, doc_start, region_end);
}

jj_error jj_many_start(jj_many *m, jj_parser *p, const uint8_t *buf, size_t len, unsigned flags) {
    const jj_kernels *k = jj_kernels_active();
    m->kernels = k;
    m->parser = p;
    m->buf = buf;
    m->len = len;
    m->flags = flags;
    m->next = 0;
    m->doc_first = 0;
    m->scanned = len;
    m->pending = JJ_OK;
    m->pending_at = len;
    if (flags & JJ_MANY_LAZY) {
        if (jj_many_index_lazy(p, k, buf, len)) return JJ_OK;
        if (p->error == JJ_ERR_NOMEM) return JJ_ERR_NOMEM;
        m->flags &= ~JJ_MANY_LAZY;
    }
    jj_error err = jj_index(p, k, buf, len);
    /* the documents before the bad bytes are still read: index up to them (the bad UTF-8
     * byte, or the opening quote of a string the input ends inside; stage 1 names both),
     * again until the index holds; each cut is shorter than the last */
    while (err == JJ_ERR_UTF8 || err == JJ_ERR_UNCLOSED_STRING) {
        size_t cut = p->error_offset;
        if (cut >= m->scanned) cut = m->scanned ? m->scanned - 1 : 0;
        if (m->pending == JJ_OK) { /* the first problem is the one to report */
            m->pending = err;
            m->pending_at = cut;
        }
        m->scanned = cut;
        /* stage 1 kept the entries up to an unclosed string's quote: without the quote,
         * they are the index of buf[0, cut), no second pass needed */
        if (err == JJ_ERR_UNCLOSED_STRING && p->index_len && p->index[p->index_len - 1] == cut) {
            p->index_len--;
            p->error = err = JJ_OK;
            break;
        }
        err = jj_index(p, k, buf, cut);
    }
    return err;
}

/* JJ_MANY_SPANS: where the document starts and ends, from the index alone. */
static jj_error jj_many_span(jj_many *m, size_t depth, size_t count, size_t region_end, int runs_to_end,
                             size_t *doc_start, size_t *doc_end) {
    jj_parser *p = m->parser;
    const uint8_t *buf = m->buf;
    size_t end = jj_doc_end(buf, *doc_start, region_end);
    *doc_end = end;
    p->tape_len = 0;
    if (!runs_to_end) return JJ_OK;
    /* as jj_many_next decides: a container that runs into bad bytes fails with them, a
     * scalar before them is complete, and one touching the end may go on */
    int open_end = depth > 0 || (m->pending == JJ_OK && count == 1 && buf[*doc_start] != '"' && end == m->len);
    if (depth > 0 && m->pending != JJ_OK) {
        int short_input = m->pending == JJ_ERR_UNCLOSED_STRING || jj_utf8_cut_short(buf, m->len, m->pending_at);
        if (short_input && (m->flags & JJ_MANY_MORE_INPUT)) return jj_fail(p, JJ_ERR_INCOMPLETE, m->pending_at);
        return jj_fail(p, m->pending, m->pending_at);
    }
    if (open_end && (m->flags & JJ_MANY_MORE_INPUT)) return jj_fail(p, JJ_ERR_INCOMPLETE, end);
    return JJ_OK;
}

/* How a structural character moves the nesting depth (no branch per entry). */
static const signed char jj_bracket_step[256] = {['{'] = 1, ['['] = 1, ['}'] = -1, [']'] = -1};

/* The walk that finds a document's end looks at most this many index entries ahead (the
 * tape, stack and string buffer are reserved for them, untouched beyond what a document
 * writes): a longer document goes the counting way. */
#define JJ_MANY_WALK_MAX ((size_t)1 << 20)


/* Stage 2 (the lazy one with JJ_MANY_LAZY, else the plain one) from the document's first
 * entry, stopping where its value ends, so the bracket count that otherwise finds the end
 * first (a second walk over the same entries) is not needed. JJ_OK with the entries it
 * took in *used; JJ_ERR_NOMEM; any other verdict only means "not taken": the counting way
 * then reads the document as before, so what it accepts, refuses or leaves for more input
 * does not change. */
static jj_error jj_many_walk(jj_many *m, int lazy, size_t first, size_t *used) {
    jj_parser *p = m->parser;
    size_t n = p->index_len;
    uint32_t pos_mask = lazy ? JJ_LAZY_POS : UINT32_MAX;
    size_t span = n - first < JJ_MANY_WALK_MAX ? n - first : JJ_MANY_WALK_MAX;
    size_t doc_start = p->index[first] & pos_mask;
    size_t region_end = first + span < n ? p->index[first + span] & pos_mask : m->scanned;
    /* the last document's tape is done with: its buffers grow without a copy */
    jj_tape_own(p);
    if (!jj_buffer_reserve_empty((void **)&p->tape, &p->tape_cap, 2 * span + 2, sizeof *p->tape) ||
        !jj_buffer_reserve_empty((void **)&p->stack, &p->stack_cap, 2 * span + 2, sizeof *p->stack) ||
        (!lazy && !jj_buffer_reserve_empty((void **)&p->strings, &p->strings_cap,
                                           region_end - doc_start + JJ_STRING_SLACK, 1)))
        return JJ_ERR_NOMEM;
    p->walk_stops = 1;
    jj_error err = jj_many_stage2_reserved(p, m->kernels, lazy, first, span, m->buf, region_end);
    p->walk_stops = 0;
    *used = p->walk_used;
    return err;
}

/* A document the lazy stage 2 took: count entries, depth still open, ending at region_end. */
static jj_error jj_many_lazy_taken(jj_many *m, size_t count, size_t depth, int runs_to_end, size_t region_end,
                                   size_t *doc_start, size_t *doc_end) {
    jj_parser *p = m->parser;
    size_t end = jj_doc_end(m->buf, *doc_start, region_end);
    *doc_end = end;
    /* a number or word that touches the end may go on in the next bytes */
    if (runs_to_end && end == m->len && depth == 0 && count == 1 && m->buf[*doc_start] != '"' &&
        (m->flags & JJ_MANY_MORE_INPUT))
        return jj_fail(p, JJ_ERR_INCOMPLETE, end);
    p->error = JJ_OK;
    return JJ_OK;
}

/* The plain stage 2's verdict err on a document of count entries (depth still open),
 * ending at region_end: what more input could still finish, and the error to give. */
static jj_error jj_many_plain_done(jj_many *m, jj_error err, size_t count, size_t depth, int runs_to_end,
                                   size_t region_end, size_t *doc_start, size_t *doc_end) {
    jj_parser *p = m->parser;
    const uint8_t *buf = m->buf;
    const uint32_t *index = p->index;
    size_t n = p->index_len;
    p->error = err;
    size_t end = jj_doc_end(buf, *doc_start, region_end);
    *doc_end = end;
    if (runs_to_end) {
        /* a document cut by the end of what was indexed: more input may finish it. Every
         * token but the last is followed by another, so an error before the last token
         * is an error whatever comes next; a container that closed is complete. */
        int open_end = depth > 0 || (count == 1 && buf[*doc_start] != '"' && end == m->scanned);
        int cut = err != JJ_OK && open_end && p->error_offset >= index[n - 1];
        if (cut && m->pending != JJ_OK) { /* it ran into bad bytes: those are the error */
            err = m->pending;
            p->error_offset = m->pending_at;
            cut = err == JJ_ERR_UNCLOSED_STRING || jj_utf8_cut_short(buf, m->len, m->pending_at);
        }
        /* a number or word that touches the end may go on in the next bytes */
        if (err == JJ_OK && m->pending == JJ_OK && end == m->len && depth == 0 && count == 1 &&
            buf[*doc_start] != '"')
            cut = 1;
        if (cut && (m->flags & JJ_MANY_MORE_INPUT)) return jj_fail(p, JJ_ERR_INCOMPLETE, p->error_offset);
        if (err != JJ_OK) return jj_fail(p, err, p->error_offset);
    }
    return err == JJ_OK ? JJ_OK : jj_fail(p, err, p->error_offset);
}

jj_error jj_many_next(jj_many *m, size_t *doc_start, size_t *doc_end) {
    jj_parser *p = m->parser;
    const uint8_t *buf = m->buf;
    uint32_t *index = p->index;
    int lazy = (m->flags & JJ_MANY_LAZY) != 0;
    uint32_t pos_mask = lazy ? JJ_LAZY_POS : UINT32_MAX; /* the lazy index flags escaped strings */
    size_t n = p->index_len, first = m->next, e = first, depth = 0;
    m->doc_first = first;
    *doc_start = *doc_end = first < n ? index[first] & pos_mask : m->scanned;
    if (first >= n) {
        if (m->pending == JJ_OK) return jj_fail(p, JJ_ERR_EMPTY, m->len);
        /* the bad bytes come where a document would start */
        jj_error err = m->pending;
        int short_input = err == JJ_ERR_UNCLOSED_STRING || jj_utf8_cut_short(buf, m->len, m->pending_at);
        if (short_input && (m->flags & JJ_MANY_MORE_INPUT)) err = JJ_ERR_INCOMPLETE;
        return jj_fail(p, err, m->pending_at);
    }
    /* the walk that finds the end first: what it takes needs no bracket count */
    size_t used = 0;
    int tried = lazy || !(m->flags & JJ_MANY_SPANS);
    jj_error walked = tried ? jj_many_walk(m, lazy, first, &used) : JJ_ERR_VALUE;
    if (walked == JJ_ERR_NOMEM) return jj_fail(p, JJ_ERR_NOMEM, *doc_start);
    /* a walk to the end of the index refused what the stage 2 below would read again: a
     * document cut by the end of the window (or bad up to it) is not read a third time */
    int walked_to_end = tried && n - first <= JJ_MANY_WALK_MAX;
    if (walked == JJ_OK) {
        e = first + used;
        m->next = e;
        if (e < n) { /* another entry follows: nothing more input could change */
            /* a container ends at its closing bracket, the entry before e */
            size_t last = index[e - 1] & pos_mask;
            uint8_t closer = buf[last];
            *doc_end = closer == ']' || closer == '}' ? last + 1 : jj_doc_end_at(buf, *doc_start, index[e] & pos_mask);
            p->error = JJ_OK;
            return JJ_OK;
        }
        size_t region_end = m->scanned;
        if (lazy) return jj_many_lazy_taken(m, used, 0, e >= n, region_end, doc_start, doc_end);
        return jj_many_plain_done(m, JJ_OK, used, 0, e >= n, region_end, doc_start, doc_end);
    }
    /* a closing bracket that opens the document leaves the depth at 0, as a stray one */
    long level = 0;
    do {
        level += jj_bracket_step[buf[index[e++] & pos_mask]];
    } while (level > 0 && e < (size_t)n);
    depth = level > 0 ? (size_t)level : 0;
    m->next = e;
    size_t region_end = e < n ? index[e] & pos_mask : m->scanned;
    int runs_to_end = e >= n;

    size_t count = e - first;
    int again = !(walked_to_end && runs_to_end); /* [first, n) was what the walk read */
    if (lazy && again) {
        jj_error lazy_err = jj_many_stage2(p, 1, first, count, buf, *doc_start, region_end);
        if (lazy_err == JJ_ERR_NOMEM) return jj_fail(p, JJ_ERR_NOMEM, *doc_start);
        if (lazy_err == JJ_OK) return jj_many_lazy_taken(m, count, depth, runs_to_end, region_end, doc_start, doc_end);
    }
    /* refused: the usual stage 2 (on the plain positions) names the error */
    if (lazy)
        for (size_t i = first; i < e; i++) index[i] &= JJ_LAZY_POS;
    if ((m->flags & JJ_MANY_SPANS) && !lazy) return jj_many_span(m, depth, count, region_end, runs_to_end, doc_start, doc_end);

    /* parse [first, e) of the index as one document ending at region_end (the plain walk
     * did just that when it read to the end of the index) */
    jj_error err = !lazy && !again ? walked : jj_many_stage2(p, 0, first, count, buf, *doc_start, region_end);
    if (err == JJ_ERR_NOMEM) return jj_fail(p, JJ_ERR_NOMEM, *doc_start);
    return jj_many_plain_done(m, err, count, depth, runs_to_end, region_end, doc_start, doc_end);
}
