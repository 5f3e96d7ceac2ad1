/* Validation's value checks: numbers checked against the grammar instead of converted,
 * strings scanned instead of copied. The validating consumers of walk_body.h call them,
 * so that validation accepts exactly what jj_stage2 accepts (the C tests and the fuzzer
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
