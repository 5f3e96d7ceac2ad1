/* Validation without a tape: stage 2's grammar walk over the structural index, with
 * numbers checked against the grammar instead of converted and strings scanned instead
 * of copied. It accepts exactly what jj_stage2 accepts (the C tests and the fuzzer
 * compare the two), with the same error codes, and notes what json may still refuse
 * (nesting depth, integer length). Included by stage1_body.h after stage2_body.h,
 * whose helpers (jj_word_at, jj_token_ends_at, jj_hex4) it uses. */

static inline int jj_is_digit(uint8_t c) { return (uint8_t)(c - '0') < 10; }

/* Length of the run of ASCII digits at p, eight bytes at a time: a byte t = c ^ '0' is
 * a digit when both t and t + 6 are below 16. A carry out of a non-digit byte can only
 * spoil the bytes after it, and only the first non-digit counts. */
static inline size_t jj_digit_run(const uint8_t *p, const uint8_t *end) {
    const uint8_t *start = p;
    while (end - p >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap64(v);
#endif
        uint64_t t = v ^ UINT64_C(0x3030303030303030);
        uint64_t bad = (t | (t + UINT64_C(0x0606060606060606))) & UINT64_C(0xf0f0f0f0f0f0f0f0);
        if (bad) return (size_t)(p - start) + (size_t)(__builtin_ctzll(bad) >> 3);
        p += 8;
    }
    while (p < end && jj_is_digit(*p)) p++;
    return (size_t)(p - start);
}

/* End of the number at p by the JSON grammar
 * -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, or NULL; *int_digits gets the digit
 * count when it is an integer (no fraction, no exponent), else 0. */
static inline __attribute__((always_inline)) const uint8_t *jj_number_end(const uint8_t *p, const uint8_t *end,
                                                                          size_t *int_digits) {
    if (p < end && *p == '-') p++;
    size_t run = jj_digit_run(p, end);
    if (run == 0) return NULL;
    if (*p == '0') run = 1; /* no leading zeros: whatever digit follows ends the token badly */
    p += run;
    *int_digits = run;
    if (p < end && *p == '.') {
        *int_digits = 0;
        run = jj_digit_run(++p, end);
        if (run == 0) return NULL;
        p += run;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        *int_digits = 0;
        p++;
        if (p < end && (*p == '+' || *p == '-')) p++;
        run = jj_digit_run(p, end);
        if (run == 0) return NULL;
        p += run;
    }
    return p;
}

/* Checks the string whose opening quote is at q, as jj_string reads it; returns the
 * position after the closing quote, or the error position with *err set. */
static inline const uint8_t *jj_check_string(const uint8_t *end, const uint8_t *q, jj_error *err) {
    const uint8_t *c = q + 1;
    jj_str_scan info = {0, 0};
    for (;;) {
        c += jj_scan_string(c, end, &info);
        if (c >= end) {
            *err = JJ_ERR_UNCLOSED_STRING;
            return q;
        }
        if (*c == '"') return c + 1;
        if (*c != '\\') {
            *err = JJ_ERR_CONTROL_CHAR;
            return c;
        }
        /* an escape: every \u needs four hex digits (a surrogate pair is two of them) */
        if (end - c < 2) break;
        switch (c[1]) {
        case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
            c += 2;
            continue;
        case 'u':
            if (end - c < 6 || jj_hex4(c + 2) < 0) break;
            c += 6;
            continue;
        default: break;
        }
        *err = JJ_ERR_ESCAPE;
        return c;
    }
    *err = JJ_ERR_ESCAPE;
    return c;
}

/* Container kinds on the stack. */
#define JJ_IN_ARRAY 0u
#define JJ_IN_OBJECT 1u

/* The walk, written once for three indexes (`checked` and `lines` are constants):
 * checked when stage1_checked or stage1_lines made the index, which has checked the
 * text of every string already; lines when stage1_lines made it: each '\n' entry ends
 * a document, and another document may start after it (*lines gets their count). */
static inline __attribute__((always_inline)) jj_error jj_validate_body(jj_parser *p, const uint8_t *buf,
                                                                       size_t len, jj_valid_facts *facts,
                                                                       const int checked, const int lines,
                                                                       size_t *line_count) {
    const uint32_t *idx = p->index;
    const size_t n = p->index_len;
    const uint8_t *end = buf + len;
    uint32_t *stack = p->stack;
    size_t i = 0, depth = 0, max_depth = 0, max_int = 0;
    size_t pos = 0;
    jj_error err = JJ_OK;

    if (n == 0) {
        err = JJ_ERR_EMPTY;
        pos = len;
        goto fail;
    }

value:
    pos = idx[i++];
    /* a string needs nothing more here: a test of its own, which the branch predictor
     * learns better than the switch's jump */
    if (checked && buf[pos] == '"') goto after_value;
    switch (buf[pos]) {
    case '{':
    case '[': {
        int object = buf[pos] == '{';
        stack[depth++] = object ? JJ_IN_OBJECT : JJ_IN_ARRAY;
        if (depth > max_depth) max_depth = depth;
        if (i >= n) {
            err = object ? JJ_ERR_KEY : JJ_ERR_VALUE;
            pos = len;
            goto fail;
        }
        if (buf[idx[i]] == (object ? '}' : ']')) {
            i++;
            depth--;
            goto after_value;
        }
        if (object) goto object_key;
        goto value;
    }
    case '"': {
        if (checked) goto after_value;
        const uint8_t *after = jj_check_string(end, buf + pos, &err);
        if (err) {
            pos = (size_t)(after - buf);
            goto fail;
        }
        goto after_value;
    }
    case 't':
        if (!jj_word_at(buf + pos, end, "true", 4)) goto bad_value;
        goto after_value;
    case 'f':
        if (!jj_word_at(buf + pos, end, "false", 5)) goto bad_value;
        goto after_value;
    case 'n':
        if (!jj_word_at(buf + pos, end, "null", 4)) goto bad_value;
        goto after_value;
    case 'N':
        if (!jj_word_at(buf + pos, end, "NaN", 3)) goto bad_value;
        goto after_value;
    case 'I':
        if (!jj_word_at(buf + pos, end, "Infinity", 8)) goto bad_value;
        goto after_value;
    case '-':
        if (pos + 1 < len && buf[pos + 1] == 'I') {
            if (!jj_word_at(buf + pos, end, "-Infinity", 9)) goto bad_value;
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
        if (digits > max_int) max_int = digits;
        goto after_value;
    }
    default:
        goto bad_value;
    }

object_key:
    pos = idx[i++];
    if (buf[pos] != '"') {
        err = JJ_ERR_KEY;
        goto fail;
    }
    if (!checked) {
        const uint8_t *after = jj_check_string(end, buf + pos, &err);
        if (err) {
            pos = (size_t)(after - buf);
            goto fail;
        }
    }
    if (i >= n || buf[idx[i]] != ':') {
        err = JJ_ERR_COLON;
        pos = i < n ? idx[i] : len;
        goto fail;
    }
    i++;
    if (i >= n) {
        err = JJ_ERR_VALUE;
        pos = len;
        goto fail;
    }
    goto value;

after_value:
    if (depth == 0) {
        if (lines && i < n && buf[idx[i]] == '\n') {
            i++;
            (*line_count)++;
            if (i < n) goto value; /* the next line's document */
            if (idx[i - 1] + 1 < len) { /* a last line of whitespace only */
                err = JJ_ERR_EMPTY;
                pos = len;
                goto fail;
            }
        } else if (lines && i == n) {
            (*line_count)++; /* the last line, with no '\n' */
        }
        if (i != n) {
            err = JJ_ERR_TRAILING;
            pos = idx[i];
            goto fail;
        }
        facts->max_depth = max_depth;
        facts->max_int_digits = max_int;
        return JJ_OK;
    }
    if (i >= n) {
        err = JJ_ERR_COMMA;
        pos = len;
        goto fail;
    }
    pos = idx[i++];
    {
        uint8_t c = buf[pos];
        int object = stack[depth - 1] == JJ_IN_OBJECT;
        if (c == ',') {
            if (i >= n) {
                err = object ? JJ_ERR_KEY : JJ_ERR_VALUE;
                pos = len;
                goto fail;
            }
            if (object) goto object_key;
            goto value;
        }
        if (c == (object ? '}' : ']')) {
            depth--;
            goto after_value;
        }
    }
    err = JJ_ERR_COMMA;
    goto fail;

bad_value:
    err = JJ_ERR_VALUE;
fail:
    p->error_offset = pos;
    return err;
}

static jj_error jj_validate_index(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts) {
    return jj_validate_body(p, buf, len, facts, 0, 0, NULL);
}

static jj_error jj_validate_checked(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts) {
    return jj_validate_body(p, buf, len, facts, 1, 0, NULL);
}

static jj_error jj_validate_lines_index(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts,
                                        size_t *line_count) {
    *line_count = 0;
    return jj_validate_body(p, buf, len, facts, 1, 1, line_count);
}
