/* What Python's json module says about a text: the first error its scanner meets, and
 * where. Used after the engine refuses a document, so that the binding (or a stream, or
 * a worker thread) can raise json's own JSONDecodeError without calling json.
 *
 * The walk follows the order in which json's scanner looks at the text, token by
 * token, including its quirks: a number ends where json's regular grammar stops
 * ("1." is the number 1 followed by '.'), the bare words need all their letters, and a
 * \u escape needs room for four digits and one more character. It runs on UTF-8
 * offsets; json counts characters, but every test it makes compares ASCII characters,
 * which give the same answer on the bytes (a multi-byte character never equals one). */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

#define JJ_IS_SPACE(c) ((c) == ' ' || (c) == '\t' || (c) == '\n' || (c) == '\r')
#define JJ_IS_DIGIT(c) ((uint8_t)((c) - '0') < 10)

typedef struct jj_explainer {
    const uint8_t *buf;
    size_t len;
    const jj_json_rules *rules;
    const jj_kernels *kernels;
    jj_json_verdict verdict;
} jj_explainer;

static size_t jj_skip_space(const uint8_t *buf, size_t len, size_t i) {
    while (i < len && JJ_IS_SPACE(buf[i])) i++;
    return i;
}

static int jj_refuse(jj_explainer *x, jj_json_error what, size_t offset) {
    x->verdict.error = what;
    x->verdict.offset = offset;
    return 0;
}

static int jj_hex4(const uint8_t *p) {
    for (int k = 0; k < 4; k++) {
        uint8_t c = p[k];
        if (!JJ_IS_DIGIT(c) && (uint8_t)((c | 0x20) - 'a') >= 6) return -1;
    }
    int v = 0;
    for (int k = 0; k < 4; k++) {
        uint8_t c = p[k];
        v = v << 4 | (JJ_IS_DIGIT(c) ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

/* A string whose opening quote is at q: on success *next is just past its closing quote. */
static int jj_explain_string(jj_explainer *x, size_t q, size_t *next) {
    const uint8_t *buf = x->buf;
    size_t len = x->len, i = q + 1;
    for (;;) {
        jj_str_scan info = {0, 0};
        i += x->kernels->scan_string(buf + i, buf + len, &info);
        if (i >= len) return jj_refuse(x, JJ_JSON_UNTERMINATED_STRING, q);
        uint8_t c = buf[i];
        if (c == '"') {
            *next = i + 1;
            return 1;
        }
        if (c != '\\') return jj_refuse(x, JJ_JSON_CONTROL_CHAR, i);
        if (i + 1 == len) return jj_refuse(x, JJ_JSON_UNTERMINATED_STRING, q);
        c = buf[i + 1];
        if (c != 'u') {
            if (c != '"' && c != '\\' && c != '/' && c != 'b' && c != 'f' && c != 'n' && c != 'r' &&
                c != 't')
                return jj_refuse(x, JJ_JSON_BAD_ESCAPE, i);
            i += 2;
            continue;
        }
        /* json wants the four digits and one character more before it reads them */
        size_t u = i + 1;
        if (u + 5 >= len) return jj_refuse(x, JJ_JSON_BAD_UNICODE_ESCAPE, u);
        int cp = jj_hex4(buf + u + 1);
        if (cp < 0) return jj_refuse(x, JJ_JSON_BAD_UNICODE_ESCAPE, u);
        i = u + 5;
        /* a high surrogate takes a following \uXXXX with it when there is room for one
         * and a character more; its digits must then be hex, whatever they encode */
        if (cp >= 0xd800 && cp <= 0xdbff && i + 6 < len && buf[i] == '\\' && buf[i + 1] == 'u') {
            if (jj_hex4(buf + i + 2) < 0) return jj_refuse(x, JJ_JSON_BAD_UNICODE_ESCAPE, i + 1);
            int low = jj_hex4(buf + i + 2);
            if (low >= 0xdc00 && low <= 0xdfff) i += 6;
        }
    }
}

/* json's number grammar at i (a '-' or anything that is not another kind of value).
 * 0 with "Expecting value" when no number starts here. */
static int jj_explain_number(jj_explainer *x, size_t start, size_t *next) {
    const uint8_t *buf = x->buf;
    size_t len = x->len, i = start;
    if (buf[i] == '-') {
        i++;
        if (i >= len) return jj_refuse(x, JJ_JSON_EXPECTING_VALUE, start);
    }
    if (buf[i] >= '1' && buf[i] <= '9') {
        i++;
        while (i < len && JJ_IS_DIGIT(buf[i])) i++;
    } else if (buf[i] == '0') {
        i++;
    } else {
        return jj_refuse(x, JJ_JSON_EXPECTING_VALUE, start);
    }
    int is_float = 0;
    size_t int_end = i;
    if (i + 1 < len && buf[i] == '.' && JJ_IS_DIGIT(buf[i + 1])) {
        is_float = 1;
        i += 2;
        while (i < len && JJ_IS_DIGIT(buf[i])) i++;
    }
    if (i + 1 < len && (buf[i] == 'e' || buf[i] == 'E')) {
        size_t e = i++;
        if (i + 1 < len && (buf[i] == '-' || buf[i] == '+')) i++;
        while (i < len && JJ_IS_DIGIT(buf[i])) i++;
        if (JJ_IS_DIGIT(buf[i - 1])) is_float = 1;
        else i = e;
    }
    if (!is_float && x->rules->max_int_digits) {
        size_t digits = int_end - start - (buf[start] == '-');
        if (digits > x->rules->max_int_digits) {
            x->verdict.length = int_end - start;
            return jj_refuse(x, JJ_JSON_INT_TOO_LONG, start);
        }
    }
    *next = i;
    return 1;
}

static int jj_word_at(const uint8_t *buf, size_t len, size_t i, const char *word, size_t n) {
    if (i + n > len) return 0;
    for (size_t k = 0; k < n; k++)
        if (buf[i + k] != (uint8_t)word[k]) return 0;
    return 1;
}

/* A scalar at i (not '{' or '['): on success *next is just past it. */
static int jj_explain_scalar(jj_explainer *x, size_t i, size_t *next) {
    const uint8_t *buf = x->buf;
    size_t len = x->len;
    if (i >= len) return jj_refuse(x, JJ_JSON_EXPECTING_VALUE, i);
    size_t n = 0;
    switch (buf[i]) {
    case '"': return jj_explain_string(x, i, next);
    case 'n': n = jj_word_at(buf, len, i, "null", 4) ? 4 : 0; break;
    case 't': n = jj_word_at(buf, len, i, "true", 4) ? 4 : 0; break;
    case 'f': n = jj_word_at(buf, len, i, "false", 5) ? 5 : 0; break;
    case 'N': n = jj_word_at(buf, len, i, "NaN", 3) ? 3 : 0; break;
    case 'I': n = jj_word_at(buf, len, i, "Infinity", 8) ? 8 : 0; break;
    case '-': n = jj_word_at(buf, len, i, "-Infinity", 9) ? 9 : 0; break;
    default: break;
    }
    if (n) {
        *next = i + n;
        return 1;
    }
    return jj_explain_number(x, i, next);
}

/* The walk. Containers are kept on an explicit stack (one byte each: '{' or '['), so
 * nesting costs no C stack; json's own limit is rules->max_depth. */
static void jj_explain_walk(jj_explainer *x) {
    const uint8_t *buf = x->buf;
    size_t len = x->len, depth = 0, cap = 0;
    uint8_t *stack = NULL;
    size_t i = jj_skip_space(buf, len, 0);
    int trailing_messages = x->rules->trailing_comma_messages;

value:
    /* a value starts at i (whitespace skipped) */
    if (i < len && (buf[i] == '{' || buf[i] == '[')) {
        uint8_t open = buf[i];
        if (depth >= x->rules->max_depth) {
            x->verdict.in_object = open == '{';
            jj_refuse(x, JJ_JSON_TOO_DEEP, i);
            goto done;
        }
        if (depth == cap) {
            size_t grown = cap ? 2 * cap : 64;
            uint8_t *fresh = realloc(stack, grown);
            if (!fresh) {
                jj_refuse(x, JJ_JSON_NOMEM, i);
                goto done;
            }
            stack = fresh;
            cap = grown;
        }
        i = jj_skip_space(buf, len, i + 1);
        if (i < len && buf[i] == (open == '[' ? ']' : '}')) { /* empty */
            i++;
            goto after_value;
        }
        stack[depth++] = open;
        if (open == '[') goto value;
        goto key;
    }
    {
        size_t next;
        if (!jj_explain_scalar(x, i, &next)) goto done;
        i = next;
    }

after_value:
    /* a value ended just before i: close containers, find the next item */
    while (depth) {
        uint8_t open = stack[depth - 1];
        uint8_t close = open == '{' ? '}' : ']';
        i = jj_skip_space(buf, len, i);
        if (i < len && buf[i] == close) {
            depth--;
            i++;
            continue;
        }
        if (i >= len || buf[i] != ',') {
            jj_refuse(x, JJ_JSON_EXPECTING_COMMA, i);
            goto done;
        }
        size_t comma = i;
        i = jj_skip_space(buf, len, i + 1);
        if (trailing_messages && i < len && buf[i] == close) {
            jj_refuse(x, open == '{' ? JJ_JSON_TRAILING_COMMA_OBJECT : JJ_JSON_TRAILING_COMMA_ARRAY,
                      comma);
            goto done;
        }
        if (open == '[') goto value;
        goto key;
    }
    i = jj_skip_space(buf, len, i);
    if (i != len) jj_refuse(x, JJ_JSON_EXTRA_DATA, i);
    goto done;

key:
    /* inside an object, at i (whitespace skipped): a key, ':' and the value's start */
    if (i >= len || buf[i] != '"') {
        jj_refuse(x, JJ_JSON_EXPECTING_NAME, i);
        goto done;
    }
    {
        size_t next;
        if (!jj_explain_string(x, i, &next)) goto done;
        i = jj_skip_space(buf, len, next);
    }
    if (i >= len || buf[i] != ':') {
        jj_refuse(x, JJ_JSON_EXPECTING_COLON, i);
        goto done;
    }
    i = jj_skip_space(buf, len, i + 1);
    goto value;

done:
    free(stack);
}

jj_json_verdict jj_json_explain(const uint8_t *buf, size_t len, const jj_json_rules *rules) {
    jj_explainer x = {buf, len, rules, jj_kernels_active(), {JJ_JSON_ACCEPTED, 0, 0, 0}};
    jj_explain_walk(&x);
    return x.verdict;
}

const char *jj_json_message(jj_json_error error) {
    switch (error) {
    case JJ_JSON_EXPECTING_VALUE: return "Expecting value";
    case JJ_JSON_EXPECTING_COMMA: return "Expecting ',' delimiter";
    case JJ_JSON_EXPECTING_COLON: return "Expecting ':' delimiter";
    case JJ_JSON_EXPECTING_NAME: return "Expecting property name enclosed in double quotes";
    case JJ_JSON_UNTERMINATED_STRING: return "Unterminated string starting at";
    case JJ_JSON_CONTROL_CHAR: return "Invalid control character at";
    case JJ_JSON_BAD_ESCAPE: return "Invalid \\escape";
    case JJ_JSON_BAD_UNICODE_ESCAPE: return "Invalid \\uXXXX escape";
    case JJ_JSON_EXTRA_DATA: return "Extra data";
    case JJ_JSON_TRAILING_COMMA_ARRAY: return "Illegal trailing comma before end of array";
    case JJ_JSON_TRAILING_COMMA_OBJECT: return "Illegal trailing comma before end of object";
    default: return NULL;
    }
}

size_t jj_utf8_chars(const uint8_t *buf, size_t len) {
    /* characters are the bytes that are not continuation bytes (10xxxxxx) */
    size_t continuations = 0, lines = 0;
    jj_kernels_active()->count_text(buf, len, &continuations, &lines);
    return len - continuations;
}

jj_text_position jj_text_position_of(const uint8_t *buf, size_t offset) {
    /* one pass (the kernel's): characters (bytes that are not 10xxxxxx), lines and the
     * last newline; the column is then counted on that last line alone */
    size_t continuations = 0, lines = 0;
    size_t last_newline = jj_kernels_active()->count_text(buf, offset, &continuations, &lines);
    jj_text_position at = {offset - continuations, lines + 1, 0};
    /* json: colno = pos - doc.rfind('\n', 0, pos), where rfind gives -1 for none */
    at.column = last_newline == SIZE_MAX ? at.chars + 1
                                         : jj_utf8_chars(buf + last_newline, offset - last_newline);
    return at;
}
