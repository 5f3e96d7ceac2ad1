/* The lazy stage 2 (jj_parse_lazy): the grammar walk of jj_stage2 over the lazy stage 1's
 * index, writing the same tape layout but leaving strings and numbers raw. Strings need
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

/* The stack holds two words per open container: its tape index, and its element count
 * with JJ_LAZY_IN_OBJECT set for an object (counts stay below 2^31: each element takes
 * an index entry, and inputs are below 2 GiB). */
#define JJ_LAZY_IN_OBJECT 0x80000000u

static jj_error jj_stage2_lazy(jj_parser *p, const uint8_t *buf, size_t len) {
    const uint32_t *idx = p->index;
    const size_t n = p->index_len;
    const uint8_t *end = buf + len;
    uint64_t *tape = p->tape;
    uint32_t *stack = p->stack;
    size_t t = 0, i = 0, depth = 0, max_depth = 0;
    size_t pos = 0;
    jj_error err = JJ_OK;
    p->strings_len = 0;
#define JJ_AT(k) ((size_t)(idx[k] & JJ_LAZY_POS))
#define JJ_NEXT_POS() (i < n ? JJ_AT(i) : len)

    if (n == 0) {
        err = JJ_ERR_EMPTY;
        pos = len;
        goto fail;
    }

value:
    pos = JJ_AT(i);
    i++;
    switch (buf[pos]) {
    case '{':
        stack[2 * depth] = (uint32_t)t;
        stack[2 * depth + 1] = JJ_LAZY_IN_OBJECT;
        depth++;
        if (depth > max_depth) max_depth = depth;
        tape[t] = JJ_WORD(JJ_OBJECT, 0);
        t += 2;
        if (i >= n) {
            err = JJ_ERR_KEY;
            pos = len;
            goto fail;
        }
        if (buf[JJ_AT(i)] == '}') {
            i++;
            goto close;
        }
        goto object_key;
    case '[':
        stack[2 * depth] = (uint32_t)t;
        stack[2 * depth + 1] = 0;
        depth++;
        if (depth > max_depth) max_depth = depth;
        tape[t] = JJ_WORD(JJ_ARRAY, 0);
        t += 2;
        if (i >= n) {
            err = JJ_ERR_VALUE;
            pos = len;
            goto fail;
        }
        if (buf[JJ_AT(i)] == ']') {
            i++;
            goto close;
        }
        goto value;
    case '"':
        jj_lazy_string(buf, idx[i - 1], JJ_NEXT_POS(), tape + t);
        t += 2;
        goto after_value;
    case 't':
        if (!jj_word_at(buf + pos, end, "true", 4)) goto bad_value;
        tape[t++] = JJ_WORD(JJ_TRUE, 0);
        goto after_value;
    case 'f':
        if (!jj_word_at(buf + pos, end, "false", 5)) goto bad_value;
        tape[t++] = JJ_WORD(JJ_FALSE, 0);
        goto after_value;
    case 'n':
        if (!jj_word_at(buf + pos, end, "null", 4)) goto bad_value;
        tape[t++] = JJ_WORD(JJ_NULL, 0);
        goto after_value;
    case 'N':
        if (!jj_word_at(buf + pos, end, "NaN", 3)) goto bad_value;
        tape[t] = JJ_WORD(JJ_DOUBLE, 0);
        tape[t + 1] = jj_double_bits(__builtin_nan(""));
        t += 2;
        goto after_value;
    case 'I':
        if (!jj_word_at(buf + pos, end, "Infinity", 8)) goto bad_value;
        tape[t] = JJ_WORD(JJ_DOUBLE, 0);
        tape[t + 1] = jj_double_bits(__builtin_inf());
        t += 2;
        goto after_value;
    case '-':
        if (pos + 1 < len && buf[pos + 1] == 'I') {
            if (!jj_word_at(buf + pos, end, "-Infinity", 9)) goto bad_value;
            tape[t] = JJ_WORD(JJ_DOUBLE, 0);
            tape[t + 1] = jj_double_bits(-__builtin_inf());
            t += 2;
            goto after_value;
        }
        /* fall through */
    case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9': {
        size_t digits = 0;
        const uint8_t *after = jj_number_end(buf + pos, end, &digits);
        if (!after || !jj_token_ends_at(after, end)) {
            err = JJ_ERR_NUMBER;
            goto fail;
        }
        tape[t] = JJ_WORD(JJ_RAW_NUMBER, pos);
        tape[t + 1] = (uint64_t)(after - (buf + pos));
        t += 2;
        goto after_value;
    }
    default:
        goto bad_value;
    }

object_key:
    pos = JJ_AT(i);
    i++;
    if (buf[pos] != '"') {
        err = JJ_ERR_KEY;
        goto fail;
    }
    if (i >= n || buf[JJ_AT(i)] != ':') {
        err = JJ_ERR_COLON;
        pos = i < n ? JJ_AT(i) : len;
        goto fail;
    }
    jj_lazy_string(buf, idx[i - 1], JJ_AT(i), tape + t);
    t += 2;
    i++;
    if (i >= n) {
        err = JJ_ERR_VALUE;
        pos = len;
        goto fail;
    }
    goto value;

after_value:
    if (depth == 0) {
        if (i != n) {
            err = JJ_ERR_TRAILING;
            pos = JJ_AT(i);
            goto fail;
        }
        p->tape_len = t;
        p->max_depth = max_depth;
        return JJ_OK;
    }
    {
        uint32_t counted = ++stack[2 * depth - 1];
        if (i >= n) {
            err = JJ_ERR_COMMA;
            pos = len;
            goto fail;
        }
        pos = JJ_AT(i);
        i++;
        uint8_t c = buf[pos];
        if (counted & JJ_LAZY_IN_OBJECT) {
            if (c == ',') {
                if (i >= n) {
                    err = JJ_ERR_KEY;
                    pos = len;
                    goto fail;
                }
                goto object_key;
            }
            if (c == '}') goto close;
        } else {
            if (c == ',') {
                if (i >= n) {
                    err = JJ_ERR_VALUE;
                    pos = len;
                    goto fail;
                }
                goto value;
            }
            if (c == ']') goto close;
        }
        err = JJ_ERR_COMMA;
        goto fail;
    }

close: {
    depth--;
    uint32_t open = stack[2 * depth];
    tape[t] = JJ_WORD(JJ_END, open);
    tape[open] |= t;
    tape[open + 1] = stack[2 * depth + 1] & ~JJ_LAZY_IN_OBJECT;
    t++;
    goto after_value;
}

bad_value:
    err = JJ_ERR_VALUE;
fail:
    p->tape_len = 0;
    p->error_offset = pos;
    return err;
#undef JJ_AT
#undef JJ_NEXT_POS
}

/* Finishes a raw string (jj_kernels.finish_string): what jj_stage2 writes for it. */
static jj_error jj_finish_string(jj_parser *p, const uint8_t *buf, size_t len, uint64_t *w) {
    jj_error err = JJ_OK;
    const uint8_t *q = buf + jj_tape_str_offset(w[0]) - 1;
    jj_string(p, buf, buf + len, q, w, &err);
    return err;
}
