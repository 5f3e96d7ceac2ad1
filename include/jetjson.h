/* jetjson engine: the public C API.
 *
 * The engine knows nothing of Python. It turns JSON text into a tape (a flat array of
 * 64-bit words, one or two per value) that consumers walk without re-parsing.
 *
 * Ownership: a jj_parser (opaque, from jj_parser_new) owns every buffer it fills
 * (structural index, tape, string buffer). The tape stays valid until the next parse on
 * the same parser, jj_parser_free() or jj_parser_delete(). The input buffer is only read,
 * never written, and never read past `len` (no padding is required). Strings without
 * escapes point into the input, so the input must outlive the tape.
 *
 * Threads: a jj_parser is used by one thread at a time. Everything process-wide (the
 * kernel table) is plain data set once, so any number of parsers may run at once.
 *
 * Grammar: the one of Python's json module, which is RFC 8259 plus the bare words NaN,
 * Infinity and -Infinity. UTF-8 is validated; encoded surrogates (ED A0..BF xx) are
 * accepted, because json decodes bytes with 'surrogatepass'. Inputs of 4 GiB or more
 * are refused with JJ_ERR_TOO_LARGE. */
#ifndef JETJSON_H
#define JETJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum jj_error {
    JJ_OK = 0,
    JJ_ERR_EMPTY,            /* no value at all (empty or whitespace only) */
    JJ_ERR_UTF8,             /* invalid UTF-8 */
    JJ_ERR_UNCLOSED_STRING,  /* a string runs to the end of the input */
    JJ_ERR_CONTROL_CHAR,     /* a raw byte below 0x20 inside a string */
    JJ_ERR_ESCAPE,           /* a bad backslash escape */
    JJ_ERR_VALUE,            /* a value was expected here */
    JJ_ERR_NUMBER,           /* malformed number */
    JJ_ERR_COMMA,            /* ',' or a closing bracket was expected */
    JJ_ERR_COLON,            /* ':' was expected */
    JJ_ERR_KEY,              /* a string key was expected */
    JJ_ERR_TRAILING,         /* something follows the root value */
    JJ_ERR_NOMEM,            /* allocation failed */
    JJ_ERR_TOO_LARGE,        /* input of 4 GiB or more */
    JJ_ERR_INCOMPLETE,       /* jj_many_next: the input ends inside the document */
    JJ_ERR_COUNT
} jj_error;

/* A short English description of an error code (static storage). */
const char *jj_error_name(jj_error err);

/* ---- Tape ------------------------------------------------------------------------
 * Word 0 of every entry: type in the top 8 bits, payload in the low 56 bits.
 *   NULL, TRUE, FALSE    1 word
 *   INT64, UINT64        2 words: word 1 is the value (int64_t or uint64_t bits); an
 *                        INT64 read from "-0" has JJ_INT_MINUS_ZERO in its payload
 *   DOUBLE               2 words: word 1 is the IEEE-754 bits
 *   BIGINT               2 words: payload = offset of the digit text in the input,
 *                        word 1 = its length (an integer outside the 64-bit ranges)
 *   STRING               2 words: payload = flags << 48 | offset, word 1 = byte length
 *                        (low 32 bits) and number of code points (high 32 bits); the
 *                        offset is into the input (JJ_STR_IN_INPUT) or else into the
 *                        parser's string buffer (unescaped text). The bytes are UTF-8,
 *                        where lone surrogates may appear encoded as 3 bytes (WTF-8).
 *   OBJECT, ARRAY        2 words: payload = tape index of the matching END word,
 *                        word 1 = element count (key/value pairs for an object)
 *   END                  1 word: payload = tape index of the matching OBJECT/ARRAY
 * Inside an object, entries alternate key (STRING), value. */
typedef enum jj_type {
    JJ_NULL = 1,
    JJ_TRUE,
    JJ_FALSE,
    JJ_INT64,
    JJ_UINT64,
    JJ_DOUBLE,
    JJ_BIGINT,
    JJ_STRING,
    JJ_OBJECT,
    JJ_ARRAY,
    JJ_END,
    JJ_RAW_NUMBER /* lazy tape only (jj_parse_lazy): a number not converted yet */
} jj_type;

#define JJ_STR_ASCII    0x01u /* every byte < 0x80 */
#define JJ_STR_IN_INPUT 0x02u /* offset is into the input, not the string buffer */
#define JJ_STR_WIDE2    0x04u /* some code point >= U+0100 */
#define JJ_STR_WIDE4    0x08u /* some code point >= U+10000 */
#define JJ_STR_RAW      0x10u /* lazy tape only: not scanned yet, see jj_parse_lazy */
#define JJ_STR_ESCAPED  0x20u /* with JJ_STR_RAW: the raw text has a backslash escape */

/* INT64 payload: the 0 was written "-0" (a reader that wants a double makes it -0.0, as
 * pyarrow does; Python's int has no sign to keep). */
#define JJ_INT_MINUS_ZERO 0x1u

#define JJ_PAYLOAD_MASK ((UINT64_C(1) << 56) - 1)
static inline jj_type jj_tape_type(uint64_t word) { return (jj_type)(word >> 56); }
static inline uint64_t jj_tape_payload(uint64_t word) { return word & JJ_PAYLOAD_MASK; }
static inline unsigned jj_tape_str_flags(uint64_t word) { return (unsigned)((word >> 48) & 0xff); }
static inline uint64_t jj_tape_str_offset(uint64_t word) { return word & ((UINT64_C(1) << 48) - 1); }
static inline size_t jj_tape_str_bytes(uint64_t word1) { return (size_t)(word1 & 0xffffffffu); }
static inline size_t jj_tape_str_chars(uint64_t word1) { return (size_t)(word1 >> 32); }
/* The tape index just past the value (with everything inside it) at index t. */
static inline size_t jj_tape_skip(const uint64_t *tape, size_t t) {
    uint64_t w = tape[t];
    switch (jj_tape_type(w)) {
    case JJ_OBJECT:
    case JJ_ARRAY: return (size_t)jj_tape_payload(w) + 1;
    case JJ_NULL:
    case JJ_TRUE:
    case JJ_FALSE: return t + 1;
    default: return t + 2;
    }
}

/* ---- Parser ----------------------------------------------------------------------
 * A parser is opaque: the engine's working buffers (structural index, container stack)
 * are its own. What a consumer reads after a parse comes from the calls below. */
typedef struct jj_parser jj_parser;

/* ---- Owned documents ------------------------------------------------------------
 * A parse's tape and string buffer belong to its parser until the next parse. To keep
 * a document longer (a lazy view, a batch handed to another thread), take it out: the
 * parser keeps its index and stack and grows new buffers for the next parse. A jj_doc
 * touches no parser and no global, so any thread may read or free it. */
typedef struct jj_doc {
    uint64_t *tape;
    size_t tape_len;
    uint8_t *strings; /* unescaped strings (may be NULL when the document has none) */
    size_t strings_len;
    size_t max_depth;
    const uint8_t *input; /* the text the tape points into: not owned, must outlive it */
    size_t input_len;
} jj_doc;

/* A new empty parser on the heap (it grows its buffers at the first parse), or NULL
 * when out of memory. */
jj_parser *jj_parser_new(void);
/* Frees the parser and everything it holds (NULL does nothing). */
void jj_parser_delete(jj_parser *p);
/* Frees every buffer; the parser may be used again (it starts empty). */
void jj_parser_free(jj_parser *p);
/* Bytes currently held by the parser's buffers. */
size_t jj_parser_capacity(const jj_parser *p);

/* Parses buf[0..len) into the tape. Returns JJ_OK or an error (also kept for
 * jj_parser_error). On error the tape content is unspecified. */
jj_error jj_parse(jj_parser *p, const uint8_t *buf, size_t len);

/* The results of the last parse (jj_parse, jj_parse_lazy, jj_many_next...): tape,
 * tape_len, strings, strings_len, max_depth; input is NULL and input_len 0 (the parser
 * does not keep the text). The pointer is the parser's own view, valid as long as the
 * parser: it shows each later parse (and a jj_lazy_finish's grown string buffer)
 * without being asked again, but the buffers it points to change with every parse, so
 * a walk reads them into locals once and reads them again after the parser moves on.
 * Read only: the parser owns the buffers (jj_doc_take moves them out). */
const jj_doc *jj_parser_result(const jj_parser *p);
/* The error of the last parse or validation (JJ_OK after a success), with its byte
 * offset in the input in *offset (when offset is not NULL). */
jj_error jj_parser_error(const jj_parser *p, size_t *offset);
/* The structural index of the last stage 1 (jj_parse, jj_validate, jj_many_start,
 * jj_skim_index...): the byte offsets of the input's structural characters in order
 * ({}[]:, the opening quote of each string, the first byte of each other token), *count
 * of them. For tools that walk the tokens without a tape (the CLI's checks, a document
 * splitter's peek); valid until the next call on the parser. After jj_parse_lazy or a
 * JJ_MANY_LAZY start the entries carry a flag in their top bit (not plain offsets). */
const uint32_t *jj_parser_structurals(const jj_parser *p, size_t *count);

/* Moves the last successful parse of p (jj_parse, jj_parse_lazy, jj_many_next) into doc. */
void jj_doc_take(jj_parser *p, jj_doc *doc, const uint8_t *input, size_t len);
/* Frees what jj_doc_take moved in (doc is left empty). */
void jj_doc_free(jj_doc *doc);
/* The same move into another parser, whose own tape and strings are freed first: for a
 * holder that finishes a lazy tape later (jj_lazy_finish takes a parser). */
void jj_parser_take_document(jj_parser *to, jj_parser *from);
/* A new parser holding the last document parsed into `from`, as jj_parser_new and
 * jj_parser_take_document make it, for a holder that reads and finishes that document (a
 * parse_many view): a copied tape lies in the parser's own allocation (one malloc a
 * document). NULL when out of memory. */
jj_parser *jj_parser_hold_document(jj_parser *from);
/* Hands `from`'s tape and string buffers back to `to` where `to` has none and they hold
 * at most max_bytes each (a kept document returning its memory to a thread's parser, so
 * that the next parse writes to pages already mapped); frees nothing. */
void jj_parser_recycle(jj_parser *to, jj_parser *from, size_t max_bytes);

/* ---- Many documents in one buffer --------------------------------------------------
 * NDJSON, JSON Lines and concatenated JSON: jj_many_start indexes the whole buffer once
 * (stage 1), then each jj_many_next parses the next document into the parser's tape,
 * as jj_parse would parse it alone. Documents are separated by whitespace or by nothing
 * at all where a container ends ("[1][2]"). Bad bytes (invalid UTF-8, a string that
 * never ends) fail the document they fall in; those before are read as usual.
 *
 * With JJ_MANY_MORE_INPUT (the buffer is a chunk of a longer stream), a document cut
 * by the end of the buffer (an open container, string or UTF-8 sequence, or a number
 * or word touching the end) gives JJ_ERR_INCOMPLETE instead of an error: the caller
 * keeps its bytes from doc_start on and tries again with more. Without the flag the
 * end of the buffer is the end of the input. */
#define JJ_MANY_MORE_INPUT 1u
/* With JJ_MANY_SPANS, jj_many_next only finds where each document starts and ends (the
 * brackets balance, from the index) and parses nothing: the tape stays empty and only
 * bad bytes or a cut are reported; the caller parses the span (jj_parse_lazy...). */
#define JJ_MANY_SPANS 2u
/* With JJ_MANY_LAZY, each document's tape is jj_parse_lazy's (raw strings and numbers,
 * offsets into the whole buffer), made from the one index jj_many_start built: no stage 1
 * per document. It holds while the lazy stage 1 takes the whole buffer; where it does not
 * (bad bytes, a bad escape or control byte in a string, a buffer of 2 GiB or more),
 * jj_many_start drops the flag from m->flags and the other flags apply: the caller reads
 * m->flags after it to know which tape a JJ_OK document has (while it holds, JJ_MANY_SPANS
 * is not looked at). Errors and JJ_ERR_INCOMPLETE
 * are those of a many without the flag. */
#define JJ_MANY_LAZY 4u
typedef struct jj_many {
    jj_parser *parser;
    const uint8_t *buf;
    size_t len;
    unsigned flags;
    size_t next;      /* index entry where the next document starts */
    size_t doc_first; /* index entry where the last document read started */
    size_t scanned;   /* bytes indexed: len, or where stage 1 met bad bytes */
    jj_error pending; /* stage 1's error (JJ_OK when none) */
    size_t pending_at; /* its offset: the bad UTF-8 byte, or the unclosed string's quote */
    const struct jj_kernels *kernels; /* the engine's, found once by jj_many_start */
} jj_many;
/* JJ_OK, or JJ_ERR_NOMEM / JJ_ERR_TOO_LARGE. The buffer must outlive every document. */
jj_error jj_many_start(jj_many *m, jj_parser *p, const uint8_t *buf, size_t len, unsigned flags);
/* The next document into the parser's tape: JJ_OK with buf[*doc_start, *doc_end) its
 * text; JJ_ERR_EMPTY when only whitespace is left; JJ_ERR_INCOMPLETE (see above); or the
 * document's error (jj_parser_error) (the call after it goes on with the next one). */
jj_error jj_many_next(jj_many *m, size_t *doc_start, size_t *doc_end);

/* What a validation learned besides "valid": what Python's json may still refuse. */
typedef struct jj_valid_facts {
    size_t max_depth;      /* deepest container nesting */
    size_t max_int_digits; /* most digits of an integer (no fraction or exponent) */
} jj_valid_facts;

/* Validates buf[0..len) exactly as jj_parse does (same grammar, same error codes, for
 * jj_parser_error) without building the tape: numbers are checked, not
 * converted, and strings scanned, not copied. Uses the parser's index and stack. */
jj_error jj_validate(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts);

/* Validates every line of buf[0..len) as a document of its own (lines end at '\n';
 * an empty or blank line is invalid) in one pass, for NDJSON: JJ_OK when all are valid
 * as jj_validate finds them, with *lines their count (a last line without '\n' counts)
 * and *facts the maximum over all lines. Any other result says only that some line is
 * invalid (or JJ_ERR_NOMEM): which one, and why, jj_validate on each line tells. */
jj_error jj_validate_lines(jj_parser *p, const uint8_t *buf, size_t len, jj_valid_facts *facts, size_t *lines);

/* jj_validate(...) == JJ_OK. */
bool jj_valid(jj_parser *p, const uint8_t *buf, size_t len);

/* ---- Lazy parse ------------------------------------------------------------------
 * jj_parse_lazy accepts and refuses exactly what jj_parse does (same error code and
 * offset: a refused input is parsed again by jj_parse for them) and writes a tape of
 * the same layout, entry for entry, where strings and numbers may be left raw:
 *   raw string   word 0 = JJ_STRING, flags JJ_STR_RAW | JJ_STR_IN_INPUT (| JJ_STR_ESCAPED
 *                when the text has a backslash), offset of the text just after the
 *                opening quote; word 1 = byte length of the raw text (up to the closing
 *                quote), no code point count. Without JJ_STR_ESCAPED the raw text is the
 *                value's UTF-8, but JJ_STR_ASCII/WIDE2/WIDE4 are not known yet.
 *   raw number   word 0 = JJ_RAW_NUMBER with the offset of its text, word 1 = its length.
 * Everything else is as jj_parse writes it. jj_lazy_finish turns one raw entry into what
 * jj_parse writes there (an escaped string is unescaped at the end of the parser's string
 * buffer, which grows as needed); finishing every entry in tape order gives jj_parse's
 * tape and string buffer exactly. Inputs of 2 GiB or more are parsed by jj_parse (nothing
 * raw). Uses the parser's index, tape and stack, not its string buffer. */
jj_error jj_parse_lazy(jj_parser *p, const uint8_t *buf, size_t len);
/* Finishes the entry at tape index t of a lazy tape of buf[0..len) (nothing to do when it
 * is not raw). JJ_OK, or JJ_ERR_NOMEM when the string buffer could not grow. */
jj_error jj_lazy_finish(jj_parser *p, const uint8_t *buf, size_t len, size_t t);
/* Finishes every raw entry in tape[from..to) in order. */
jj_error jj_lazy_finish_range(jj_parser *p, const uint8_t *buf, size_t len, size_t from, size_t to);
static inline int jj_tape_is_raw(const uint64_t *tape, size_t t) {
    uint64_t w = tape[t];
    return jj_tape_type(w) == JJ_RAW_NUMBER ||
           (jj_tape_type(w) == JJ_STRING && (jj_tape_str_flags(w) & JJ_STR_RAW));
}

/* ---- json's own errors -----------------------------------------------------------
 * When the engine refuses a text, Python's json module refuses it too (same grammar),
 * but it words the refusal after its own scanner: which token it expected and where.
 * jj_json_explain walks the text the way that scanner does and reports the first error
 * it would raise, so that json's exception can be made without running json. It is
 * meant for the error path: a scalar walk, no tape, no index. */
typedef enum jj_json_error {
    JJ_JSON_ACCEPTED = 0,          /* json would take the text */
    JJ_JSON_EXPECTING_VALUE,       /* "Expecting value" */
    JJ_JSON_EXPECTING_COMMA,       /* "Expecting ',' delimiter" */
    JJ_JSON_EXPECTING_COLON,       /* "Expecting ':' delimiter" */
    JJ_JSON_EXPECTING_NAME,        /* "Expecting property name enclosed in double quotes" */
    JJ_JSON_UNTERMINATED_STRING,   /* "Unterminated string starting at" (the opening quote) */
    JJ_JSON_CONTROL_CHAR,          /* "Invalid control character at" */
    JJ_JSON_BAD_ESCAPE,            /* "Invalid \\escape" (at the backslash) */
    JJ_JSON_BAD_UNICODE_ESCAPE,    /* "Invalid \\uXXXX escape" (at the 'u') */
    JJ_JSON_EXTRA_DATA,            /* "Extra data" */
    JJ_JSON_TRAILING_COMMA_ARRAY,  /* Python 3.13+: "Illegal trailing comma before end of array" */
    JJ_JSON_TRAILING_COMMA_OBJECT, /* Python 3.13+: the same for an object */
    JJ_JSON_TOO_DEEP,              /* a container opens past rules->max_depth (RecursionError) */
    JJ_JSON_INT_TOO_LONG,          /* an integer with more digits than rules->max_int_digits */
    JJ_JSON_NOMEM                  /* the walk could not allocate its stack */
} jj_json_error;

/* The rules of the json in question. */
typedef struct jj_json_rules {
    bool trailing_comma_messages; /* Python 3.13 and later name a trailing comma */
    size_t max_depth;             /* containers json can open before RecursionError */
    size_t max_int_digits;        /* sys.get_int_max_str_digits(); 0 for no limit */
} jj_json_rules;

typedef struct jj_json_verdict {
    jj_json_error error;
    size_t offset;  /* byte offset where json reports the error */
    size_t length;  /* JJ_JSON_INT_TOO_LONG: bytes of the integer (sign included) */
    bool in_object; /* JJ_JSON_TOO_DEEP: the container that did not fit is an object */
} jj_json_verdict;

/* The first error json's scanner would meet in buf[0..len) (valid UTF-8, as the engine
 * checks it before anything else; json decodes first and fails there otherwise). */
jj_json_verdict jj_json_explain(const uint8_t *buf, size_t len, const jj_json_rules *rules);
/* json's message for an error (static storage), NULL for the kinds without one. */
const char *jj_json_message(jj_json_error error);
/* The characters (code points, a surrogate counting as one) in UTF-8 buf[0..len):
 * json's positions count characters, the engine's count bytes. */
size_t jj_utf8_chars(const uint8_t *buf, size_t len);
/* Where byte `offset` of UTF-8 text lies as json counts it: characters before it, and
 * its line and column (both from 1; the column counts characters). */
typedef struct jj_text_position {
    size_t chars, line, column;
} jj_text_position;
jj_text_position jj_text_position_of(const uint8_t *buf, size_t offset);

/* ---- Text tools ------------------------------------------------------------------ */
/* Minify: copies in[0..len) to out without the whitespace (space, tab, newline, return)
 * that lies outside strings; numbers, strings, escapes and everything else are kept
 * byte for byte. out has room for len bytes and does not overlap in; *out_len gets the
 * bytes written. Nothing is validated (garbage in, garbage without whitespace out),
 * except that a string must end: JJ_ERR_UNCLOSED_STRING, with *err_off at the byte
 * offset of its opening quote (out then holds the minified text up to the end). Strings
 * are tracked as stage 1 does, so a quote after an odd run of backslashes inside a
 * string does not end it. Runs at memory speed on the SIMD kernels. */
jj_error jj_minify(const uint8_t *in, size_t len, uint8_t *out, size_t *out_len, size_t *err_off);

/* Indent: the layout of Python's json.dumps(..., indent=...) for a document that
 * jj_validate(p, in, len, ...) or jj_parse(p, in, len) has just accepted (its structural index
 * must still describe `in`; the tape is not used): one item
 * per line, `unit` (unit_len bytes, such as "  " or "\t") once per nesting level, ","
 * at line ends, ": " after keys, [] and {} for empty containers. Scalars (numbers,
 * strings, literals) are copied from the input as written, and duplicate keys are all
 * kept. jj_indent_size gives the exact size of the result (SIZE_MAX when it does not
 * fit a size_t), at the cost of a walk over the index; jj_indent_bound a quick upper
 * bound from the nesting depth (SIZE_MAX likewise). jj_indent_write writes the result
 * to out, which has room for that size (or bound) plus JJ_INDENT_SLACK bytes (written
 * over with junk: short pieces are copied whole), and returns its exact size. */
#define JJ_INDENT_SLACK 32
size_t jj_indent_size(const jj_parser *p, const uint8_t *in, size_t len, size_t unit_len);
size_t jj_indent_bound(const jj_parser *p, size_t len, size_t unit_len, size_t max_depth);
size_t jj_indent_write(const jj_parser *p, const uint8_t *in, size_t len, const uint8_t *unit,
                       size_t unit_len, uint8_t *out);

/* ---- Numbers ---------------------------------------------------------------------- */
typedef enum jj_number_kind {
    JJ_NUM_INT64 = 1, /* integer that fits in int64_t (note: "-0" is 0) */
    JJ_NUM_UINT64,    /* integer in [2^63, 2^64) */
    JJ_NUM_DOUBLE,    /* had a fraction or an exponent: correctly rounded double */
    JJ_NUM_BIGINT     /* integer outside both: keep the text */
} jj_number_kind;

typedef struct jj_number {
    jj_number_kind kind;
    union {
        int64_t i;
        uint64_t u;
        double d;
    } v;
} jj_number;

/* Parses one JSON number (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?) starting at p,
 * reading no byte at or past `end`. Returns the position just after the number, or NULL
 * when the text at p does not match the grammar. The double is the correctly rounded
 * value of the decimal text (as Python's float() gives), inf when it overflows. */
const uint8_t *jj_parse_number(const uint8_t *p, const uint8_t *end, jj_number *out);

/* ---- Kernels ------------------------------------------------------------------------
 * The engine picks the fastest kernel set this machine runs, once, at first use
 * (JETJSON_FORCE_ISA=scalar|sse42|avx2|avx512|neon forces one for tests and benchmarks). */
/* The name of the kernel set in use. */
const char *jj_kernels_in_use(void);
/* The names of the kernel sets this machine can run, scalar first; NULL past the last. */
const char *jj_kernels_available(size_t i);

#ifdef __cplusplus
}
#endif
#endif
