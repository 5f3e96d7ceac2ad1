/* The lazy stage 2 (jj_parse_lazy): the grammar of jj_stage2 over the lazy stage 1's
 * index, writing the same tape layout but leaving strings and numbers raw. A walk of its
 * own, not a consumer of walk_body.h: as one (tried), it took 6% more instructions on
 * twitter.json (the open container's count in a register, keys and colons checked in
 * one step, a dense jump table: see docs/performance.md, "One grammar walker"). Strings need
 * no look at their bytes here: the lazy stage 1 has validated their contents (UTF-8, no
 * control byte, well-formed escapes) and flagged those with a backslash, and a string's
 * closing quote is the last byte before the next index entry that is not whitespace
 * (nothing else lies between them). Numbers are checked against the grammar, as
 * validation checks them, and converted when read. Included by stage1_body.h after
 * stage2_body.h and validate_body.h, whose helpers it uses. */

static inline int jj_lazy_is_space(uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/* The raw string whose index entry is e (its opening quote), the next entry's position
 * being `next`: two tape words at w. */
_Static_assert(JJ_STR_ESCAPED == 1u << 5 && JJ_LAZY_ESCAPED == 1u << 31, "the flag moves by a shift");
static inline void jj_lazy_string(const uint8_t *buf, uint32_t e, size_t next, uint64_t *w) {
    size_t q = e & JJ_LAZY_POS;
    size_t c = next - 1;
    if (buf[c] != '"') {
        while (jj_lazy_is_space(buf[c])) c--;
    }
    w[0] = JJ_WORD(JJ_STRING, (uint64_t)(JJ_STR_RAW | JJ_STR_IN_INPUT) << 48) |
           (uint64_t)(e >> 31) << (48 + 5) | (uint64_t)(q + 1);
    w[1] = (uint64_t)(c - q - 1);
}

/* The stack holds two words per open container: its tape index, and the element count
 * of the container around it. The open container's own count lives in a register, with
 * JJ_LAZY_IN_OBJECT set for an object (counts stay below 2^31: each element takes an
 * index entry, and inputs are below 2 GiB). */
#define JJ_LAZY_IN_OBJECT 0x80000000u
/* The count word outside the root: no container is open (counts stay below 2^30, as
 * each element but the last takes at least two bytes). */
#define JJ_LAZY_AT_ROOT 0x40000000u

/* Any refusal is only that: jj_parse_lazy asks jj_parse for the error and its offset.
 * The caller puts the input length after the last index entry, which ends the last
 * string there without a test. */
static jj_error jj_stage2_lazy(jj_parser *p, const uint8_t *buf, size_t len) {
    const uint32_t *ip = p->index;
    const uint32_t *const iend = ip + p->index_len;
    const uint8_t *const end = buf + len;
    uint64_t *const tape = p->tape;
    uint64_t *tw = tape;
    uint32_t *const stack = p->stack;
    uint32_t *sp = stack, *sp_max = stack;
    uint32_t count = JJ_LAZY_AT_ROOT; /* elements of the open container so far (| JJ_LAZY_IN_OBJECT) */
    p->strings_len = 0;
    if (ip == iend) goto fail;

value: {
    size_t pos = *ip++ & JJ_LAZY_POS;
    /* strings and numbers first, by plain branches: the table's indirect jump costs more */
    if (buf[pos] == '"') goto string;
    if ((uint8_t)(buf[pos] - '0') < 10) goto number;
    if (buf[pos] == '-') goto minus;
    switch (jj_value_start[buf[pos]]) {
    case JJ_V_OBJECT:
    case JJ_V_ARRAY: {
        int object = buf[pos] == '{';
        sp[0] = (uint32_t)(tw - tape);
        sp[1] = count;
        sp += 2;
        if (sp > sp_max) sp_max = sp;
        tw[0] = JJ_WORD(object ? JJ_OBJECT : JJ_ARRAY, 0);
        tw += 2;
        count = object ? JJ_LAZY_IN_OBJECT : 0;
        if (ip == iend) goto fail;
        uint8_t c = buf[*ip & JJ_LAZY_POS];
        if (c == (object ? '}' : ']')) {
            ip++;
            goto close;
        }
        if (object) goto object_key;
        goto value;
    }
    case JJ_V_STRING:
    string:
        jj_lazy_string(buf, ip[-1], *ip & JJ_LAZY_POS, tw);
        tw += 2;
        goto after_value;
    case JJ_V_TRUE:
        if (!jj_word_at(buf + pos, end, "true", 4)) goto fail;
        *tw++ = JJ_WORD(JJ_TRUE, 0);
        goto after_value;
    case JJ_V_FALSE:
        if (!jj_word_at(buf + pos, end, "false", 5)) goto fail;
        *tw++ = JJ_WORD(JJ_FALSE, 0);
        goto after_value;
    case JJ_V_NULL:
        if (!jj_word_at(buf + pos, end, "null", 4)) goto fail;
        *tw++ = JJ_WORD(JJ_NULL, 0);
        goto after_value;
    case JJ_V_NAN:
        if (!jj_word_at(buf + pos, end, "NaN", 3)) goto fail;
        tw[0] = JJ_WORD(JJ_DOUBLE, 0);
        tw[1] = jj_double_bits(__builtin_nan(""));
        tw += 2;
        goto after_value;
    case JJ_V_INF:
        if (!jj_word_at(buf + pos, end, "Infinity", 8)) goto fail;
        tw[0] = JJ_WORD(JJ_DOUBLE, 0);
        tw[1] = jj_double_bits(__builtin_inf());
        tw += 2;
        goto after_value;
    case JJ_V_MINUS:
    minus:
        if (pos + 1 < len && buf[pos + 1] == 'I') {
            if (!jj_word_at(buf + pos, end, "-Infinity", 9)) goto fail;
            tw[0] = JJ_WORD(JJ_DOUBLE, 0);
            tw[1] = jj_double_bits(-__builtin_inf());
            tw += 2;
            goto after_value;
        }
        /* fall through */
    case JJ_V_DIGIT:
    number: {
        size_t digits = 0;
        const uint8_t *after = jj_number_end(buf + pos, end, &digits);
        if (!after || !jj_token_ends_at(after, end)) goto fail;
        tw[0] = JJ_WORD(JJ_RAW_NUMBER, pos);
        tw[1] = (uint64_t)(after - (buf + pos));
        tw += 2;
        goto after_value;
    }
    default: goto fail;
    }
}

object_key: {
    /* a key, its colon, and a value to come */
    if (iend - ip < 3) goto fail;
    uint32_t key = ip[0];
    size_t colon = ip[1] & JJ_LAZY_POS;
    if (buf[key & JJ_LAZY_POS] != '"' || buf[colon] != ':') goto fail;
    jj_lazy_string(buf, key, colon, tw);
    tw += 2;
    ip += 2;
    goto value;
}

after_value:
    if (count & JJ_LAZY_AT_ROOT) {
        if (ip != iend && !p->walk_stops) goto fail;
        p->walk_used = (size_t)(ip - p->index);
        p->tape_len = (size_t)(tw - tape);
        p->max_depth = (size_t)(sp_max - stack) / 2;
        return JJ_OK;
    }
    count++;
    if (ip == iend) goto fail;
    {
        uint8_t c = buf[*ip++ & JJ_LAZY_POS];
        if (count & JJ_LAZY_IN_OBJECT) {
            if (c == ',') goto object_key;
            if (c == '}') goto close;
        } else {
            if (c == ',') {
                if (ip == iend) goto fail;
                goto value;
            }
            if (c == ']') goto close;
        }
        goto fail;
    }

close: {
    sp -= 2;
    size_t open = sp[0];
    *tw = JJ_WORD(JJ_END, open);
    tape[open] |= (uint64_t)(tw - tape);
    tape[open + 1] = count & ~JJ_LAZY_IN_OBJECT;
    tw++;
    count = sp[1];
    goto after_value;
}

fail:
    p->tape_len = 0;
    p->error_offset = 0;
    return JJ_ERR_VALUE;
}

/* Finishes a raw number (jj_kernels.finish_number): what jj_stage2 writes for it. */
static jj_error jj_finish_number(const uint8_t *buf, size_t len, uint64_t *w) {
    return jj_put_number(buf, buf + len, (size_t)jj_tape_payload(w[0]), w) ? JJ_OK : JJ_ERR_NUMBER;
}

/* Finishes a raw string (jj_kernels.finish_string): what jj_stage2 writes for it. */
static jj_error jj_finish_string(jj_parser *p, const uint8_t *buf, size_t len, uint64_t *w) {
    jj_error err = JJ_OK;
    const uint8_t *q = buf + jj_tape_str_offset(w[0]) - 1;
    jj_string(p, buf, buf + len, q, NULL, w, &err);
    return err;
}
