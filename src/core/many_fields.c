/* fields= on many documents: the values at a few pointers found by walking each
 * document's top level on the lazy index (jetjson_paths.h, "Some fields of many
 * documents"). What the walk does not like goes back to jj_many_next, so errors and
 * verdicts are always the full parse's. */
#include <stdlib.h>
#include <string.h>

#include "jetjson_paths.h"
#include "many_internal.h"

#define JJ_FIELDS_MAX 64
/* deeper documents are read whole: their depth is for the full parse to judge */
#define JJ_FIELDS_MAX_DEPTH 128
#define JJ_WALK_FAIL SIZE_MAX        /* the walk does not like the document */
#define JJ_WALK_SHORT (SIZE_MAX - 1) /* the document goes on past the index */

/* Whether pointer a's tokens start with all of pointer b's (unescaped). */
static bool jj_tokens_lead_into(const jj_fields_plan *plan, size_t a, size_t b) {
    if (plan->ntokens[b] > plan->ntokens[a]) return false;
    for (size_t t = 0; t < plan->ntokens[b]; t++) {
        const jj_pointer_token *ta = &plan->tokens[a * JJ_FIELDS_MAX_TOKENS + t];
        const jj_pointer_token *tb = &plan->tokens[b * JJ_FIELDS_MAX_TOKENS + t];
        uint8_t small[256];
        if (tb->len > sizeof small) return true; /* too long to compare here: not skimmed */
        size_t n = jj_pointer_token_unescape(tb, small);
        if (!jj_pointer_token_equals(ta, small, n)) return false;
    }
    /* equal pointers name the same value: neither leads into the other */
    return plan->ntokens[a] != plan->ntokens[b];
}

jj_fields_plan *jj_fields_plan_new(const char *const *ptrs, const size_t *lens, size_t count) {
    jj_fields_plan *plan = calloc(1, sizeof *plan);
    if (!plan) return NULL;
    plan->count = count;
    plan->ntokens = calloc(count ? count : 1, sizeof *plan->ntokens);
    /* tokens only for a set that may be skimmed: a long list reads whole documents */
    plan->tokens = calloc(count && count <= JJ_FIELDS_MAX ? count * JJ_FIELDS_MAX_TOKENS : 1, sizeof *plan->tokens);
    if (!plan->ntokens || !plan->tokens) {
        jj_fields_plan_delete(plan);
        return NULL;
    }
    bool ok = count > 0 && count <= JJ_FIELDS_MAX;
    for (size_t i = 0; ok && i < count; i++) {
        size_t bad, pos = 0, t = 0;
        ok = lens[i] > 0 && jj_pointer_check(ptrs[i], lens[i], &bad) == JJ_PTR_OK;
        jj_pointer_token tok;
        while (ok && jj_pointer_next(ptrs[i], lens[i], &pos, &tok)) {
            if (t == JJ_FIELDS_MAX_TOKENS) ok = false;
            else plan->tokens[i * JJ_FIELDS_MAX_TOKENS + t++] = tok;
        }
        plan->ntokens[i] = t;
    }
    for (size_t a = 0; ok && a < count; a++)
        for (size_t b = 0; ok && b < count; b++)
            if (a != b && jj_tokens_lead_into(plan, a, b)) ok = false;
    plan->skimmable = ok;
    return plan;
}

void jj_fields_plan_delete(jj_fields_plan *plan) {
    if (!plan) return;
    free(plan->ntokens);
    free(plan->tokens);
    free(plan);
}

typedef struct jj_walk {
    const uint32_t *idx;
    size_t n;
    const uint8_t *buf;
    const jj_fields_plan *plan;
    jj_field_span *spans;
    size_t end_pos; /* the byte after the last entry */
    uint32_t pos_mask; /* the lazy index flags escaped strings in the top bit */
    bool lazy;
} jj_walk;

static const signed char jj_walk_step[256] = {['{'] = 1, ['['] = 1, ['}'] = -1, [']'] = -1};
/* what may not start a value: the walk leaves such a document to the full parse */
static const unsigned char jj_walk_not_value[256] = {['}'] = 1, [']'] = 1, [':'] = 1, [','] = 1};

static inline uint8_t jj_walk_byte(const jj_walk *w, size_t e) { return w->buf[w->idx[e] & w->pos_mask]; }
static inline size_t jj_walk_pos(const jj_walk *w, size_t e) {
    return e < w->n ? w->idx[e] & w->pos_mask : w->end_pos;
}

#if defined(__GNUC__) || defined(__clang__)
#define JJ_WALK_NOINLINE __attribute__((noinline))
#define JJ_WALK_INLINE inline __attribute__((always_inline))
#else
#define JJ_WALK_NOINLINE
#define JJ_WALK_INLINE inline
#endif

/* The entry after the one that closes the container opened before entry i (brackets
 * counted, nothing else looked at); JJ_WALK_SHORT when none does; JJ_WALK_FAIL when it
 * nests past `room` levels. */
static JJ_WALK_INLINE size_t jj_walk_close(const uint32_t *idx, const uint8_t *buf, const uint32_t mask, size_t i,
                                           size_t n, long room) {
    long level = 1;
    /* Four entries a turn with one test: a level moves by one an entry, so within four
     * it cannot pass the room left when it starts four below it, and the first level
     * that is not positive is 0, which makes the product 0. The end, and a level near
     * the room, are read one entry at a time. */
    for (;;) {
        while (i + 4 <= n && level + 4 <= room) {
            long l0 = level + jj_walk_step[buf[idx[i] & mask]];
            long l1 = l0 + jj_walk_step[buf[idx[i + 1] & mask]];
            long l2 = l1 + jj_walk_step[buf[idx[i + 2] & mask]];
            long l3 = l2 + jj_walk_step[buf[idx[i + 3] & mask]];
            if (l0 * l1 * l2 * l3 == 0) return i + (l0 == 0 ? 1 : l1 == 0 ? 2 : l2 == 0 ? 3 : 4);
            level = l3;
            i += 4;
        }
        if (i >= n) return JJ_WALK_SHORT;
        for (size_t stop = i + 4 < n ? i + 4 : n; i < stop; i++) {
            level += jj_walk_step[buf[idx[i] & mask]];
            /* one test for both ways out: closed (0), or past the room left */
            if ((unsigned long)(level - 1) >= (unsigned long)room) return level ? JJ_WALK_FAIL : i + 1;
        }
    }
}

/* jj_walk_close for each kind of index, the mask a constant (none for plain positions).
 * Out of line: inlined in the walk, the loop had too few registers and spilled. */
static JJ_WALK_NOINLINE size_t jj_walk_close_plain(const uint32_t *idx, const uint8_t *buf, size_t i, size_t n,
                                                   long room) {
    return jj_walk_close(idx, buf, UINT32_MAX, i, n, room);
}
static JJ_WALK_NOINLINE size_t jj_walk_close_lazy(const uint32_t *idx, const uint8_t *buf, size_t i, size_t n,
                                                  long room) {
    return jj_walk_close(idx, buf, JJ_LAZY_POS, i, n, room);
}

/* The entry after the value starting at entry e; JJ_WALK_SHORT when it never closes;
 * JJ_WALK_FAIL when it cannot start a value or nests past the depth left (`room`). */
static inline size_t jj_walk_skip(const jj_walk *w, size_t e, long room) {
    uint8_t c = jj_walk_byte(w, e);
    if (jj_walk_not_value[c]) return JJ_WALK_FAIL;
    if (!jj_walk_step[c]) return e + 1;
    if (room < 1) return JJ_WALK_FAIL;
    return (w->lazy ? jj_walk_close_lazy : jj_walk_close_plain)(w->idx, w->buf, e + 1, w->n, room);
}

#define JJ_BYTES_OF(b) (UINT64_C(0x0101010101010101) * (b))

static inline uint64_t jj_load_word(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Whether the eight bytes of w hold one that a plain string cannot (a control
 * character, a quote, a backslash, or one past ASCII): exact for the word as a whole. */
static inline bool jj_word_not_plain(uint64_t w) {
    const uint64_t high = JJ_BYTES_OF(0x80);
    uint64_t below_space = (w - JJ_BYTES_OF(0x20)) & ~w;
    uint64_t quote = w ^ JJ_BYTES_OF('"'), backslash = w ^ JJ_BYTES_OF('\\');
    return ((w | below_space | ((quote - JJ_BYTES_OF(1)) & ~quote) | ((backslash - JJ_BYTES_OF(1)) & ~backslash)) &
            high) != 0;
}

/* Whether raw[0..len) holds a backslash: a word at a time, keys being short. */
static inline bool jj_has_backslash(const uint8_t *raw, size_t len) {
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t x = jj_load_word(raw + i) ^ JJ_BYTES_OF('\\');
        if ((x - JJ_BYTES_OF(1)) & ~x & JJ_BYTES_OF(0x80)) return true;
    }
    for (; i < len; i++)
        if (raw[i] == '\\') return true;
    return false;
}

/* The code unit of a \u escape at raw[i] (a backslash followed by 'u' and four hex
 * digits, as the lazy stage 1 checked), or -1 when there is none there. */
static long jj_unit_at(const uint8_t *raw, size_t len, size_t i) {
    if (i + 5 >= len || raw[i] != '\\' || raw[i + 1] != 'u') return -1;
    long v = 0;
    for (size_t k = i + 2; k < i + 6; k++) {
        uint8_t c = raw[k];
        v = v << 4 | (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

/* Whether a key's escapes (raw[0..len), as written) hold a lone surrogate: the engine
 * refuses one, so json decides such documents (a pair is one character to both). */
static bool jj_escapes_lone_surrogate(const uint8_t *raw, size_t len) {
    for (size_t i = 0; i + 1 < len; i++) {
        if (raw[i] != '\\') continue;
        long unit = jj_unit_at(raw, len, i);
        if (unit >= 0xd800 && unit <= 0xdfff) {
            long low = unit <= 0xdbff ? jj_unit_at(raw, len, i + 6) : -1;
            if (low < 0xdc00 || low > 0xdfff) return true;
            i += 6; /* the pair's second half */
        }
        i += unit >= 0 ? 5 : 1; /* past the escape */
    }
    return false;
}

/* Walks the object whose '{' is entry e, `depth` deep, for the pointers active[0..na)
 * whose token `level` is next. The entry after its '}', JJ_WALK_SHORT, or JJ_WALK_FAIL. */
static size_t jj_walk_object(jj_walk *w, size_t e, long depth, const uint8_t *active, size_t na, size_t level) {
    size_t k = e + 1;
    if (k >= w->n) return JJ_WALK_SHORT;
    if (jj_walk_byte(w, k) == '}') return k + 1;
    uint64_t matched = 0, all = 0; /* the first of duplicate keys counts */
    for (size_t a = 0; a < na; a++) all |= (uint64_t)1 << active[a];
    for (;;) {
        if (jj_walk_byte(w, k) != '"') return JJ_WALK_FAIL;
        if (k + 2 >= w->n) return k + 1 < w->n && jj_walk_byte(w, k + 1) != ':' ? JJ_WALK_FAIL : JJ_WALK_SHORT;
        if (jj_walk_byte(w, k + 1) != ':') return JJ_WALK_FAIL;
        uint32_t key = w->idx[k];
        size_t q = key & w->pos_mask, close = (w->idx[k + 1] & w->pos_mask) - 1;
        while (close > q && w->buf[close] != '"') close--; /* only white space lies there */
        if (close <= q) return JJ_WALK_FAIL;
        const uint8_t *raw = w->buf + q + 1;
        size_t raw_len = close - q - 1;
        bool escaped = w->lazy ? (key & JJ_LAZY_ESCAPED) != 0 : jj_has_backslash(raw, raw_len);
        if (escaped && jj_escapes_lone_surrogate(raw, raw_len)) return JJ_WALK_FAIL;
        size_t v = k + 2, after;
        uint8_t deeper[JJ_FIELDS_MAX], ending[JJ_FIELDS_MAX];
        size_t nd = 0, ne = 0;
        for (size_t a = 0; a < na && matched != all; a++) { /* once all are found, keys are only read */
            size_t i = active[a];
            if (matched >> i & 1) continue;
            const jj_pointer_token *tok = &w->plan->tokens[i * JJ_FIELDS_MAX_TOKENS + level];
            bool same;
            if (escaped) same = jj_pointer_token_equals_json(tok, raw, raw_len, NULL) == 1;
            else if (!tok->escaped) /* the common case, without a call */
                same = tok->len == raw_len && memcmp(tok->text, raw, raw_len) == 0;
            else same = jj_pointer_token_equals(tok, raw, raw_len);
            if (!same) continue;
            matched |= (uint64_t)1 << i;
            if (level + 1 == w->plan->ntokens[i]) ending[ne++] = (uint8_t)i;
            else deeper[nd++] = (uint8_t)i;
        }
        if (nd) { /* the plan lets no pointer end where another goes on: ne is 0 */
            if (jj_walk_byte(w, v) != '{') return JJ_WALK_FAIL;
            after = jj_walk_object(w, v, depth + 1, deeper, nd, level + 1);
        } else {
            after = jj_walk_skip(w, v, JJ_FIELDS_MAX_DEPTH - depth);
        }
        if (after >= JJ_WALK_SHORT) return after;
        if (after >= w->n) return JJ_WALK_SHORT;
        for (size_t j = 0; j < ne; j++) {
            jj_field_span *span = &w->spans[ending[j]];
            span->first = v;
            span->count = after - v;
            span->region_end = jj_walk_pos(w, after);
        }
        uint8_t sep = jj_walk_byte(w, after);
        if (sep == '}') return after + 1;
        if (sep != ',') return JJ_WALK_FAIL;
        k = after + 1;
        if (k >= w->n) return JJ_WALK_SHORT;
    }
}

jj_error jj_many_next_fields(jj_many *m, const jj_fields_plan *plan, jj_field_span *spans, size_t *doc_start,
                             size_t *doc_end, bool *whole) {
    jj_parser *p = m->parser;
    size_t first = m->next;
    bool lazy = (m->flags & JJ_MANY_LAZY) != 0;
    uint32_t mask = lazy ? JJ_LAZY_POS : UINT32_MAX;
    *whole = true;
    if (!plan->skimmable || first >= p->index_len || m->buf[p->index[first] & mask] != '{')
        return jj_many_next(m, doc_start, doc_end);
    jj_walk w = {p->index, p->index_len, m->buf, plan, spans, m->scanned, mask, lazy};
    uint8_t all[JJ_FIELDS_MAX];
    for (size_t i = 0; i < plan->count; i++) {
        all[i] = (uint8_t)i;
        spans[i].first = spans[i].count = spans[i].region_end = 0;
    }
    size_t after = jj_walk_object(&w, first, 1, all, plan->count, 0);
    if (after == JJ_WALK_SHORT && (m->flags & JJ_MANY_MORE_INPUT) &&
        (m->pending == JJ_OK || m->pending == JJ_ERR_UNCLOSED_STRING ||
         jj_utf8_cut_short(m->buf, m->len, m->pending_at))) {
        /* more input may finish it: what it holds so far is not all read yet (jj_many_next
         * would judge the unreached values too) */
        m->doc_first = first;
        m->next = p->index_len;
        *doc_start = p->index[first] & mask;
        *doc_end = jj_doc_end(m->buf, *doc_start, m->scanned);
        p->tape_len = 0;
        p->error = JJ_ERR_INCOMPLETE;
        p->error_offset = m->pending == JJ_OK ? m->scanned : m->pending_at;
        return JJ_ERR_INCOMPLETE;
    }
    if (after >= JJ_WALK_SHORT) return jj_many_next(m, doc_start, doc_end);
    m->doc_first = first;
    m->next = after;
    *doc_start = p->index[first] & mask;
    *doc_end = jj_doc_end(m->buf, *doc_start, jj_walk_pos(&w, after));
    *whole = false;
    p->tape_len = 0;
    p->error = JJ_OK;
    return JJ_OK;
}

/* Whether raw[0..len) is all printable ASCII other than '"' and '\\': a string with
 * that text needs no decoding, and nothing in it can be an error. */
static bool jj_plain_ascii(const uint8_t *raw, size_t len) {
    if (len < 8) {
        uint8_t tail[8];
        memset(tail, 'a', sizeof tail);
        memcpy(tail, raw, len);
        return !jj_word_not_plain(jj_load_word(tail));
    }
    size_t i = 0;
    for (; i + 8 < len; i += 8)
        if (jj_word_not_plain(jj_load_word(raw + i))) return false;
    return !jj_word_not_plain(jj_load_word(raw + len - 8)); /* the last eight, overlapping */
}

/* A found value that is one string of plain ASCII (jj_plain_ascii) gets its tape at once,
 * pointing into the input, as stage 2 would have made it: most string fields are such,
 * and a stage 2 for each cost more than its string. False when it is anything else. */
static bool jj_field_plain_string(jj_many *m, const jj_field_span *span) {
    jj_parser *p = m->parser;
    if (span->count != 1) return false;
    bool lazy = (m->flags & JJ_MANY_LAZY) != 0;
    size_t q = p->index[span->first] & (lazy ? JJ_LAZY_POS : UINT32_MAX);
    if (m->buf[q] != '"') return false;
    size_t close = jj_doc_end(m->buf, q, span->region_end) - 1; /* white space may follow */
    if (close <= q || m->buf[close] != '"') return false;
    size_t len = close - q - 1;
    if (len > UINT32_MAX || !jj_plain_ascii(m->buf + q + 1, len)) return false;
    if (!jj_buffer_reserve((void **)&p->tape, &p->tape_cap, 2, sizeof *p->tape)) return false;
    if (lazy) p->index[span->first] &= JJ_LAZY_POS;
    p->tape[0] = (uint64_t)JJ_STRING << 56 | (uint64_t)(JJ_STR_ASCII | JJ_STR_IN_INPUT) << 48 | (q + 1);
    p->tape[1] = (uint64_t)len << 32 | len;
    p->tape_len = 2;
    p->max_depth = 0;
    p->error = JJ_OK;
    p->error_offset = q;
    return true;
}

/* The plain stage 2, not the lazy one: a value found is built at once, and decoding
 * its strings on the way costs less than finishing a lazy tape (callgrind, 4 MB of
 * GitHub events, three fields: 36.4M instructions a call against 37.5M). */
jj_error jj_many_field_parse(jj_many *m, const jj_field_span *span) {
    jj_parser *p = m->parser;
    if (jj_field_plain_string(m, span)) return JJ_OK;
    bool lazy = (m->flags & JJ_MANY_LAZY) != 0;
    if (lazy) { /* locals, so that the loop is one the compiler makes wide */
        uint32_t *entries = p->index + span->first;
        for (size_t i = 0, count = span->count; i < count; i++) entries[i] &= JJ_LAZY_POS;
    }
    size_t at = p->index[span->first];
    jj_error err = jj_many_stage2(p, 0, span->first, span->count, m->buf, at, span->region_end);
    p->error = err;
    p->error_offset = at;
    return err;
}

bool jj_fields_window_plain(const uint8_t *buf, size_t len) {
    size_t at = 0;
    while (at < len && (buf[at] == ' ' || buf[at] == '\n' || buf[at] == '\r' || buf[at] == '\t')) at++;
    return at < len && buf[at] == '{';
}

jj_error jj_many_reparse(jj_many *m, size_t *doc_start, size_t *doc_end) {
    /* jj_many_field_parse took the flags off some entries: the plain stage 2 reads it */
    unsigned flags = m->flags;
    uint32_t *index = m->parser->index;
    size_t after = m->next; /* the next document's first entry: where this one's region ends */
    uint32_t after_entry = after < m->parser->index_len ? index[after] : 0;
    if (flags & JJ_MANY_LAZY) {
        for (size_t i = m->doc_first; i < m->next; i++) index[i] &= JJ_LAZY_POS;
        /* the plain stage 2 reads that entry as a position: its flag (a string with a
         * backslash) stays for the lazy read of the next document, put back below */
        if (after < m->parser->index_len) index[after] &= JJ_LAZY_POS;
    }
    m->flags &= ~(JJ_MANY_LAZY | JJ_MANY_SPANS);
    m->next = m->doc_first;
    jj_error err = jj_many_next(m, doc_start, doc_end);
    m->flags = flags;
    if (after < m->parser->index_len) index[after] = after_entry;
    return err;
}
