/* The grammar walk over the structural index, written once: values, arrays, objects,
 * commas and colons, the container stack, the depth reached, the error codes and their
 * offsets. What a walk makes of the values it meets is its consumer's part, chosen by a
 * constant `kind` (JJ_WALK_*): each consumer hook below is a small inline function whose
 * other branches the compiler drops, so that each instantiation (jj_stage2, the three
 * validations) compiles to a walk of its own with nothing of the others in it.
 *
 * Consumers:
 *   JJ_WALK_TAPE     jj_stage2: the tape (strings unescaped, numbers converted)
 *   JJ_WALK_VALID    jj_validate_index: strings scanned, numbers checked by the grammar
 *   JJ_WALK_CHECKED  jj_validate_checked: as VALID over an index whose strings stage 1
 *                    has checked already (stage1_checked), so strings are skipped
 *   JJ_WALK_LINES    jj_validate_lines_index: as CHECKED, each '\n' entry ending a
 *                    document (stage1_lines), the documents counted
 * The lazy tape (stage2_lazy_body.h) keeps a walk of its own: see docs/performance.md,
 * "One grammar walker", for the measurements that decided it.
 *
 * Included by stage1_body.h after stage2_body.h and validate_body.h, whose helpers the
 * consumers call. */

#define JJ_WALK_TAPE 0
#define JJ_WALK_VALID 1
#define JJ_WALK_CHECKED 2
#define JJ_WALK_LINES 3

/* Consumers that write a tape. */
#define JJ_WALK_WRITES_TAPE(kind) ((kind) == JJ_WALK_TAPE)

/* Container kinds on a validation's stack (a tape walk keeps the tape index there and
 * reads the kind from the tape word). */
#define JJ_IN_ARRAY 0u
#define JJ_IN_OBJECT 1u

/* A walk's consumer state: the tape and its length, or the facts a validation notes.
 * Local to the walk, so the compiler keeps its fields in registers. */
typedef struct jj_walk_sink {
    uint64_t *tape;
    size_t t;       /* tape words written */
    size_t max_int; /* most digits of an integer seen (validation) */
    size_t lines;   /* documents ended (JJ_WALK_LINES) */
} jj_walk_sink;

#define JJ_WALK_INLINE static inline __attribute__((always_inline))

/* A container opens: the word its stack entry holds. */
JJ_WALK_INLINE uint32_t jj_on_open(const int kind, jj_walk_sink *s, int object) {
    if (!JJ_WALK_WRITES_TAPE(kind)) return object ? JJ_IN_OBJECT : JJ_IN_ARRAY;
    uint32_t open = (uint32_t)s->t;
    s->tape[s->t] = JJ_WORD(object ? JJ_OBJECT : JJ_ARRAY, 0);
    s->tape[s->t + 1] = 0;
    s->t += 2;
    return open;
}

JJ_WALK_INLINE int jj_frame_is_object(const int kind, const jj_walk_sink *s, uint32_t frame) {
    if (!JJ_WALK_WRITES_TAPE(kind)) return frame == JJ_IN_OBJECT;
    return jj_tape_type(s->tape[frame]) == JJ_OBJECT;
}

/* A value of the open container ended (before its comma or closer is looked at). */
JJ_WALK_INLINE void jj_on_element(const int kind, jj_walk_sink *s, uint32_t frame) {
    if (JJ_WALK_WRITES_TAPE(kind)) s->tape[frame + 1]++;
}

/* The container of this frame closed (the closer always matches the opener). */
JJ_WALK_INLINE void jj_on_close(const int kind, jj_walk_sink *s, uint32_t frame) {
    if (!JJ_WALK_WRITES_TAPE(kind)) return;
    s->tape[s->t] = JJ_WORD(JJ_END, frame);
    s->tape[frame] |= s->t;
    s->t++;
}

/* The string (a value or a key) whose opening quote is at q: the position after it, or
 * the error position with *err set. */
JJ_WALK_INLINE const uint8_t *jj_on_string(const int kind, jj_walk_sink *s, jj_parser *p, const uint8_t *buf,
                                           const uint8_t *end, const uint8_t *q, const uint32_t *next,
                                           jj_error *err) {
    if (kind == JJ_WALK_TAPE) return jj_string(p, buf, end, q, next, s->tape + s->t, err);
    if (kind == JJ_WALK_VALID) return jj_check_string(end, q, err);
    return q; /* stage 1 checked it; the walk does not look at the position */
}

/* The string's tape words, written by jj_on_string, are kept (it had no error). */
JJ_WALK_INLINE void jj_on_string_kept(const int kind, jj_walk_sink *s) {
    if (JJ_WALK_WRITES_TAPE(kind)) s->t += 2;
}

/* true, false or null (type), or NaN and the infinities (a double's bits). */
JJ_WALK_INLINE void jj_on_word(const int kind, jj_walk_sink *s, unsigned type) {
    if (JJ_WALK_WRITES_TAPE(kind)) s->tape[s->t++] = JJ_WORD(type, 0);
}

JJ_WALK_INLINE void jj_on_special_double(const int kind, jj_walk_sink *s, double d) {
    if (!JJ_WALK_WRITES_TAPE(kind)) return;
    s->tape[s->t] = JJ_WORD(JJ_DOUBLE, 0);
    s->tape[s->t + 1] = jj_double_bits(d);
    s->t += 2;
}

/* The number at buf[pos]: 0 when it is not a valid number token. */
JJ_WALK_INLINE int jj_on_number(const int kind, jj_walk_sink *s, const uint8_t *buf, const uint8_t *end,
                                size_t pos) {
    if (kind == JJ_WALK_TAPE) {
        if (!jj_put_number(buf, end, pos, s->tape + s->t)) return 0;
        s->t += 2;
        return 1;
    }
    size_t digits = 0;
    const uint8_t *after = jj_number_end(buf + pos, end, &digits);
    if (!after || !jj_token_ends_at(after, end)) return 0;
    if (digits > s->max_int) s->max_int = digits;
    return 1;
}

/* The walk, for a constant kind. Returns JJ_OK with the depth reached in *max_depth_out,
 * or the error with p->error_offset set. */
JJ_WALK_INLINE jj_error jj_walk(jj_parser *p, const uint8_t *buf, size_t len, const int kind, jj_walk_sink *s,
                                size_t *max_depth_out) {
    /* the entries as a pointer and its end: one register fewer than base, count, i */
    const uint32_t *ip = p->index;
    const uint32_t *const iend = ip + p->index_len;
    const uint8_t *end = buf + len;
    uint32_t *stack = p->stack;
    size_t depth = 0, max_depth = 0;
    size_t pos = 0;
    jj_error err = JJ_OK;
    const int skip_strings = kind == JJ_WALK_CHECKED || kind == JJ_WALK_LINES;

    if (ip == iend) {
        err = JJ_ERR_EMPTY;
        goto fail_at_end;
    }

value:
    pos = *ip++;
    /* a checked string needs nothing more here: a test of its own, which the branch
     * predictor learns better than the switch's jump */
    if (skip_strings && buf[pos] == '"') goto after_value;
    switch (jj_value_start[buf[pos]]) {
    /* '{' and '[' apart: as one case with the kind in a variable, +1% instructions for
     * loads and +2% for valid on canada and citm */
    case JJ_V_OBJECT:
        stack[depth++] = jj_on_open(kind, s, 1);
        if (depth > max_depth) max_depth = depth;
        if (ip == iend) {
            err = JJ_ERR_KEY;
            goto fail_at_end;
        }
        if (buf[*ip] == '}') {
            ip++;
            goto close;
        }
        goto object_key;
    case JJ_V_ARRAY:
        stack[depth++] = jj_on_open(kind, s, 0);
        if (depth > max_depth) max_depth = depth;
        if (ip == iend) {
            err = JJ_ERR_VALUE;
            goto fail_at_end;
        }
        if (buf[*ip] == ']') {
            ip++;
            goto close;
        }
        goto value;
    case JJ_V_STRING: {
        const uint8_t *after = jj_on_string(kind, s, p, buf, end, buf + pos, ip != iend ? ip : NULL, &err);
        if (err) {
            pos = (size_t)(after - buf);
            goto fail;
        }
        jj_on_string_kept(kind, s);
        goto after_value;
    }
    case JJ_V_TRUE:
        if (!jj_word_at(buf + pos, end, "true", 4)) goto bad_value;
        jj_on_word(kind, s, JJ_TRUE);
        goto after_value;
    case JJ_V_FALSE:
        if (!jj_word_at(buf + pos, end, "false", 5)) goto bad_value;
        jj_on_word(kind, s, JJ_FALSE);
        goto after_value;
    case JJ_V_NULL:
        if (!jj_word_at(buf + pos, end, "null", 4)) goto bad_value;
        jj_on_word(kind, s, JJ_NULL);
        goto after_value;
    case JJ_V_NAN:
        if (!jj_word_at(buf + pos, end, "NaN", 3)) goto bad_value;
        jj_on_special_double(kind, s, __builtin_nan(""));
        goto after_value;
    case JJ_V_INF:
        if (!jj_word_at(buf + pos, end, "Infinity", 8)) goto bad_value;
        jj_on_special_double(kind, s, __builtin_inf());
        goto after_value;
    case JJ_V_MINUS:
        if (buf + pos + 1 < end && buf[pos + 1] == 'I') {
            if (!jj_word_at(buf + pos, end, "-Infinity", 9)) goto bad_value;
            jj_on_special_double(kind, s, -__builtin_inf());
            goto after_value;
        }
        /* fall through */
    case JJ_V_DIGIT:
        if (!jj_on_number(kind, s, buf, end, pos)) {
            err = JJ_ERR_NUMBER;
            goto fail_at_entry;
        }
        /* the tape takes a run of numbers in an array (coordinates, vectors) in one call */
        if (kind == JJ_WALK_TAPE && iend - ip > 1 && buf[*ip] == ',' && jj_starts_number(buf + ip[1], end) &&
            depth && jj_tape_type(s->tape[stack[depth - 1]]) == JJ_ARRAY) {
            ip++; /* the comma; this number is counted with the run */
            goto array_numbers;
        }
        goto after_value;
    case JJ_V_BAD:
        goto bad_value;
    default:
        __builtin_unreachable(); /* the table holds only the cases above */
    }

object_key:
    pos = *ip++;
    if (buf[pos] != '"') {
        err = JJ_ERR_KEY;
        goto fail_at_entry;
    }
    if (!skip_strings) {
        const uint8_t *after = jj_on_string(kind, s, p, buf, end, buf + pos, ip != iend ? ip : NULL, &err);
        if (err) {
            pos = (size_t)(after - buf);
            goto fail;
        }
        jj_on_string_kept(kind, s);
    }
    if (ip == iend || buf[*ip] != ':') {
        err = JJ_ERR_COLON;
        pos = ip < iend ? *ip : (size_t)(end - buf);
        goto fail;
    }
    ip++;
    if (ip == iend) {
        err = JJ_ERR_VALUE;
        goto fail_at_end;
    }
    goto value;

after_value:
    if (depth == 0) {
        if (kind == JJ_WALK_LINES && ip < iend && buf[*ip] == '\n') {
            ip++;
            s->lines++;
            if (ip < iend) goto value; /* the next line's document */
            if (buf + ip[-1] + 1 < end) { /* a last line of whitespace only */
                err = JJ_ERR_EMPTY;
                goto fail_at_end;
            }
        } else if (kind == JJ_WALK_LINES && ip == iend) {
            s->lines++; /* the last line, with no '\n' */
        }
        if (ip != iend && !(kind == JJ_WALK_TAPE && p->walk_stops)) {
            err = JJ_ERR_TRAILING;
            pos = *ip;
            goto fail;
        }
        if (kind == JJ_WALK_TAPE) p->walk_used = (size_t)(ip - p->index);
        *max_depth_out = max_depth;
        return JJ_OK;
    }
    {
        uint32_t frame = stack[depth - 1];
        jj_on_element(kind, s, frame);
        if (ip == iend) {
            err = JJ_ERR_COMMA;
            goto fail_at_end;
        }
        pos = *ip++;
        uint8_t c = buf[pos];
        if (jj_frame_is_object(kind, s, frame)) {
            if (c == ',') {
                if (ip == iend) {
                    err = JJ_ERR_KEY;
                    goto fail_at_end;
                }
                goto object_key;
            }
            if (c == '}') goto close;
        } else {
            if (c == ',') {
                if (ip == iend) {
                    err = JJ_ERR_VALUE;
                    goto fail_at_end;
                }
                goto value;
            }
            if (c == ']') goto close;
        }
        err = JJ_ERR_COMMA;
        goto fail_at_entry;
    }

array_numbers:
    if (kind == JJ_WALK_TAPE) {
        /* copies for the call, so that the sink's fields stay in registers */
        const uint32_t *idx = p->index;
        size_t at = (size_t)(ip - idx), t = s->t;
        size_t more = jj_number_run(buf, end, idx, (size_t)(iend - idx), &at, s->tape, &t);
        s->t = t;
        if (more == SIZE_MAX) {
            pos = idx[at];
            err = JJ_ERR_NUMBER;
            goto fail;
        }
        ip = idx + at;
        s->tape[stack[depth - 1] + 1] += more + 1;
        goto after_value;
    }

close:
    jj_on_close(kind, s, stack[--depth]);
    goto after_value;

bad_value:
    err = JJ_ERR_VALUE;
fail_at_entry:
    /* the entry just read: found again here, so that its position need not be kept
     * in a register (or a stack slot) through the walk */
    pos = ip[-1];
    goto fail;
fail_at_end:
    /* from end and buf, which the walk keeps anyway (len need not be) */
    pos = (size_t)(end - buf);
fail:
    p->error_offset = pos;
    return err;
}

static jj_error jj_stage2(jj_parser *p, const uint8_t *buf, size_t len) {
    jj_walk_sink s = {p->tape, 0, 0, 0};
    size_t max_depth = 0;
    p->strings_len = 0;
    jj_error err = jj_walk(p, buf, len, JJ_WALK_TAPE, &s, &max_depth);
    if (err) {
        p->tape_len = 0;
        return err;
    }
    p->tape_len = s.t;
    p->max_depth = max_depth;
    return JJ_OK;
}

JJ_WALK_INLINE jj_error jj_validate_walk(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts,
                                         const int kind, size_t *line_count) {
    jj_walk_sink s = {NULL, 0, 0, 0};
    size_t max_depth = 0;
    jj_error err = jj_walk(p, buf, len, kind, &s, &max_depth);
    if (line_count) *line_count = s.lines;
    if (err) return err;
    facts->max_depth = max_depth;
    facts->max_int_digits = s.max_int;
    return JJ_OK;
}

static jj_error jj_validate_index(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts) {
    return jj_validate_walk(p, buf, len, facts, JJ_WALK_VALID, NULL);
}

static jj_error jj_validate_checked(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts) {
    return jj_validate_walk(p, buf, len, facts, JJ_WALK_CHECKED, NULL);
}

static jj_error jj_validate_lines_index(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts,
                                        size_t *line_count) {
    return jj_validate_walk(p, buf, len, facts, JJ_WALK_LINES, line_count);
}

