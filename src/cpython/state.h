/* Per-interpreter module state and the pieces of the binding that share it. */
#ifndef JJ_CPYTHON_STATE_H
#define JJ_CPYTHON_STATE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "jetjson.h"

/* Short ASCII keys seen recently, as ready (hashed) str objects, in sets of four slots
 * (the newest first): keys of a document that land in one set all stay, where with one
 * slot each two of them would evict each other at every occurrence. */
#define JJ_KEY_CACHE_BITS 12
#define JJ_KEY_CACHE_SLOTS (1 << JJ_KEY_CACHE_BITS)
#define JJ_KEY_CACHE_WAY_BITS 2
#define JJ_KEY_CACHE_WAYS (1 << JJ_KEY_CACHE_WAY_BITS)
#define JJ_KEY_CACHE_MAX_LEN 64
#define JJ_VALUE_CACHE_MAX_LEN 8

#define JJ_DUMPS_KW_COUNT 9

typedef struct jj_key_cache {
    PyObject *slots[JJ_KEY_CACHE_SLOTS];
} jj_key_cache;

/* encode_native.c: what dumpb's writers of datetime, uuid.UUID and numpy values keep.
 * datetime, uuid, zoneinfo and numpy are never imported by us (see jj_native_init):
 * their types are looked up in sys.modules when a value that may be theirs first comes
 * (a NULL entry means "not imported yet", so looked up again next time). */
#define JJ_NP_SCALAR_TYPES 13
typedef struct jj_native_cache {
    PyTypeObject *date_type, *datetime_type, *time_type, *delta_type, *timezone_type;
    PyObject *utc; /* datetime.timezone.utc */
    PyTypeObject *zoneinfo_type, *uuid_type;
    PyTypeObject *np_ndarray;
    PyTypeObject *np_scalars[JJ_NP_SCALAR_TYPES]; /* in jj_np_scalar order (encode_numpy.c) */
    PyObject *str_int, *str_utcoffset, *str_normalize, *str_convert, *str_array_struct,
        *str_dtype, *str_str;
} jj_native_cache;

typedef struct jj_state {
    jj_native_cache native; /* encode_native.c */
    PyObject *JSONDecodeError;   /* jetjson.JSONDecodeError: NULL until jj_json_ready */
    PyObject *error_keys;        /* decode_error.c: its instance dict's keys, interned */
    PyObject *json_loads;        /* json.loads, for what the fast path leaves to json */
    PyObject *json_decode_error; /* json.JSONDecodeError */
    jj_key_cache keys;
    jj_key_cache values; /* short ASCII string values, which repeat more often than not */
    Py_ssize_t fallback_values;  /* engine refused, json accepted: should stay 0 */
    Py_ssize_t fallback_errors;  /* engine refused, json raised */
    Py_ssize_t json_calls;       /* calls of json.loads, whatever the reason */
    PyObject *lazy_types[7];     /* lazy.h: the types of jetjson.parse's documents and views */
    PyObject *many_type;         /* streams/many.h: the iterator of loads_many/parse_many */
    /* dumps/dump (encode_json_api.c) */
    PyObject *json_dumps;           /* json.dumps and json.dump, for what is json's to do
                                     * (these three: jj_json_ready) */
    PyObject *json_dump;
    PyObject *json_encoder_default; /* json.JSONEncoder.default (the function) */
    PyObject *dumps_kw[JJ_DUMPS_KW_COUNT]; /* interned keyword names, in jj_dumps_kw order */
    PyObject *space;                /* " ", for json's ' ' * indent */
    size_t dumps_last_len;          /* the last result's length: sizes the next buffer */
    /* dumpb (encode_orjson*.c, fragment.c) */
    PyObject *JSONEncodeError;   /* jetjson.JSONEncodeError, a TypeError */
    PyTypeObject *Fragment;      /* jetjson.Fragment */
    PyObject *enum_meta;         /* enum.EnumMeta, once enum is imported (jj_is_enum_member) */
    PyObject *dataclass_field;   /* dataclasses._FIELD, fetched on first use */
    PyObject *str_value, *str_dict, *str_slots, *str_dataclass_fields, *str_field_type;
    size_t dumpb_last_len; /* the last result's length: sizes the next buffer */
    size_t dumpb_many_last_len; /* the same for dumpb_many */
    size_t canonical_last_len; /* canonical (canonical/canonical_obj.c): the same for it */
    /* loads(type=) (typed/) */
    PyObject *ValidationError; /* jetjson.ValidationError, a ValueError */
    PyObject *typed_cache;     /* type -> compiled plan; starts over past JJ_TYPED_CACHE_MAX */
    PyObject *typed_last_type; /* the type of the last plan found without rename= ... */
    PyObject *typed_last_plan; /* ... and that plan: a loop of loads(x, type=T) skips the dict */
    PyObject *typed_env;       /* typing/dataclasses/enum objects the compiler compares to, made on first use */
    PyObject *Decoder;         /* jetjson.Decoder */
    PyObject *arrow_stream_type; /* formats/arrow.c: jetjson.ArrowStream */
} jj_state;

/* encode_orjson.c: _dumpb_many(records, default, option), dumpb_many's engine. */
PyObject *jj_dumpb_many(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* module.c: loads(data) with no keyword: json's value or exception. */
PyObject *jj_loads_fast(jj_state *st, PyObject *data);
/* decode/raw_decode.c: _raw_decode(s, idx=0), json.JSONDecoder.raw_decode's (value, end). */
PyObject *jj_raw_decode(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* decode/partial_loads.c: loads(data, partial=mode). */
PyObject *jj_loads_partial(jj_state *st, PyObject *data, PyObject *mode);

/* decode.c: the int of a JSON integer's text (any length: json's big ints). */
PyObject *jj_int_from_digits(const uint8_t *digits, size_t len);

/* decode.c: tape -> Python objects. Returns NULL with an exception set. */
PyObject *jj_build_objects(jj_state *st, const jj_doc *p, const uint8_t *input);
/* The same for the one value (and everything inside it) at tape index `start`. The
 * caller pauses the cyclic GC around it if it wants to (loads does). */
PyObject *jj_build_value_at(jj_state *st, const jj_doc *p, const uint8_t *input, size_t start);
void jj_key_cache_clear(jj_key_cache *cache);
/* decode.c, for the typed decoder: the str at tape index t as loads makes it (short
 * values cached), the same as a dict key (cached and hashed), and the int of a BIGINT
 * entry. New references, NULL with an exception. */
PyObject *jj_tape_str_value(jj_state *st, const jj_doc *p, const uint8_t *input, size_t t);
PyObject *jj_tape_key(jj_state *st, const jj_doc *p, const uint8_t *input, size_t t);
PyObject *jj_tape_big_int(const jj_doc *p, const uint8_t *input, size_t t);

/* json_fallback.c: json.loads(data, **kwargs), its JSONDecodeError re-raised as ours;
 * `count` counts it as a fallback in _stats(). jj_json_call: json.loads(*args, **kwargs). */
PyObject *jj_json_loads(jj_state *st, PyObject *data, PyObject *kwargs, int count);
PyObject *jj_json_call(jj_state *st, PyObject *args, PyObject *kwargs);
/* json_fallback.c: imports json on first need and fills what the state takes from it
 * (json.loads, json.dumps..., and makes jetjson.JSONDecodeError, a json.JSONDecodeError):
 * 0, or -1 with an exception. Call it before using any of those fields.
 * jj_decode_error_type: the module's _decode_error_type(), which jetjson's
 * __getattr__ gives as jetjson.JSONDecodeError. */
int jj_json_ready(jj_state *st);
PyObject *jj_decode_error_type(PyObject *module, PyObject *unused);

/* paths.c: get, get_many, set_path, delete_path. */
PyObject *jj_get(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *jj_get_many(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *jj_set_path(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *jj_delete_path(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* recursion.c: whether json.loads, called where our caller called us, would have the
 * recursion room for `depth` nested containers; meth_o: our entry point is METH_O (the
 * interpreter counts its call), else one whose call is not counted (loads). */
int jj_recursion_room(size_t depth, int meth_o);
/* recursion.c: how many nested containers json.loads could open, called where our caller
 * called us (meth_o as for jj_recursion_room). */
size_t jj_recursion_budget(int meth_o);
/* recursion.c, for loads: 1 when json.loads would have the recursion room for the parsed
 * document; -1 with json's own RecursionError raised when it would not; 0 when json
 * must decide. */
int jj_depth_check(const jj_doc *p);

/* json.loads refuses a document when its C scanner, which enters one recursion level
 * per container (Py_EnterRecursiveCall), runs out of the budget Python counts down.
 * Before its first container json spends a fixed number of levels of it: its three
 * Python frames (loads, decode, raw_decode) count on 3.11, only C-level entries from
 * 3.12. So json.loads, called where our caller called us, accepts exactly (budget seen
 * here - levels) nested containers, provided our own call did not count: see
 * jj_loads_vectorcall, which makes that so for loads from every Python call site.
 * valid is METH_O, a call the interpreter always counts: one level less. The levels
 * were found by binary search against json from many caller depths, in Python and
 * through C calls (tests/test_loads_depth.py checks them at the limit):
 *   3.11: 4 (valid: 3), 3.12: 1 (0), 3.13: 0 (-1).
 * From C code (map(jetjson.loads, ...)) json.loads itself costs one entry into the
 * interpreter more: exact on 3.11, where that is offset by the counted call; from
 * 3.12 json refuses two levels earlier there than jetjson does. */
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
#define JJ_JSON_LEVELS 4L
#define JJ_RECURSION_BUDGET() ((long)PyThreadState_Get()->recursion_remaining)
#elif PY_VERSION_HEX >= 0x030C0000 && PY_VERSION_HEX < 0x030D0000 && !defined(Py_GIL_DISABLED)
#define JJ_JSON_LEVELS 1L
#define JJ_RECURSION_BUDGET() ((long)PyThreadState_Get()->c_recursion_remaining)
#elif PY_VERSION_HEX >= 0x030D0000 && PY_VERSION_HEX < 0x030E0000 && !defined(Py_GIL_DISABLED)
#define JJ_JSON_LEVELS 0L
#define JJ_RECURSION_BUDGET() ((long)PyThreadState_Get()->c_recursion_remaining)
#endif

/* How many nested containers json.loads would accept, called where our caller called
 * us; -1 when this version's accounting is not known here. */
static inline long jj_json_depth_limit(int meth_o) {
#ifdef JJ_RECURSION_BUDGET
    long room = JJ_RECURSION_BUDGET() - (JJ_JSON_LEVELS - (meth_o != 0));
    return room < 0 ? -1 : room;
#else
    (void)meth_o;
    return -1;
#endif
}

/* jj_depth_check where the document fits, inline (a stream asks once a document). */
static inline int jj_depth_check_inline(const jj_doc *p) {
    long limit = jj_json_depth_limit(0);
    if (limit >= 0 && p->max_depth <= (size_t)limit) return 1;
    return jj_depth_check(p);
}

/* Room for json's own recursion checks where the interpreter's counter is not readable:
 * its frames above the scanner, plus a little. */
#define JJ_RECURSION_MARGIN 8

/* decode_error.c: raises what json raises for buf[0..len), which the engine refused with
 * `error`; `text` is the str json would see when the caller has it, `from_str` whether
 * the caller's input was that str (json refuses a BOM at the start of a str only), `raw`
 * a bytes object holding exactly buf when there is one (else the exception copies the
 * bytes: its doc is decoded when read). -1 with the exception set, or 1 (nothing raised)
 * when json would accept the text after all (an input of 4 GiB or more). */
int jj_raise_refusal(jj_state *st, const uint8_t *buf, size_t len, PyObject *text, int from_str, PyObject *raw,
                     jj_error error);
/* A jetjson.JSONDecodeError as json makes it for `msg` at byte `offset` of the UTF-8 text
 * buf: its doc is `doc`, or the bytes object `utf8` decoded when first read. */
PyObject *jj_decode_error_new(jj_state *st, const char *msg, PyObject *doc, PyObject *utf8, const uint8_t *buf,
                              size_t offset);
/* Makes st->error_keys and gives the new jetjson.JSONDecodeError `type` its doc property
 * (jj_json_ready). */
int jj_decode_error_init(jj_state *st, PyObject *type);
/* json's rules where our caller called us (meth_o: a METH_O entry, see recursion.c). */
jj_json_rules jj_json_rules_here(int meth_o);
/* Raises what json raises for a verdict of jj_json_explain on text that starts at byte
 * `base` of the UTF-8 buf: positions count from buf's start, which is at `origin` of a
 * longer text when origin is not NULL; the exception's doc is `text`, or the bytes `utf8`
 * decoded when read. -1, or 1 (nothing raised) when the verdict is JJ_JSON_ACCEPTED. */
int jj_raise_verdict(jj_state *st, const jj_json_verdict *v, const uint8_t *buf, size_t base, PyObject *text,
                     PyObject *utf8, const jj_text_position *origin);
/* Where a position `rel` within a text lies in a longer one whose start is at `origin`. */
jj_text_position jj_position_after(jj_text_position origin, jj_text_position rel);
/* Whether json would take valid UTF-8 text here (its recursion room, its int digits
 * limit): 1 or 0, -1 with an exception. */
int jj_json_would_accept(const uint8_t *buf, size_t len);
/* The same as jj_raise_refusal for a call that returns json's value when json takes the
 * text: json.loads(source) builds it (a bytes copy of buf when source is NULL). `text`
 * is the str json reads, when it differs from source (bytes json decodes first). */
PyObject *jj_refused(jj_state *st, const uint8_t *buf, size_t len, PyObject *source, PyObject *text,
                     jj_error error);

/* text.c: valid, minify, indent (module methods). */
PyObject *jj_text_valid(PyObject *module, PyObject *data);
PyObject *jj_text_minify(PyObject *module, PyObject *data);
PyObject *jj_text_indent(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
/* text/tool.c: the command line's json.tool writer (_tool_format). */
PyObject *jj_tool_format(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *jj_tool_validate_lines(PyObject *module, PyObject *data);

/* formats/msgpack.c: json_to_msgpack, msgpack_to_json (module methods). */
PyObject *jj_py_json_to_msgpack(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
PyObject *jj_py_msgpack_to_json(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
/* formats/arrow_write.c: dumpb_arrow (module method). */
PyObject *jj_py_dumpb_arrow(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);

/* formats/arrow.c: loads_arrow, load_arrow_file (module methods) and jetjson.ArrowStream. */
PyObject *jj_py_loads_arrow(PyObject *module, PyObject *args, PyObject *kwargs);
PyObject *jj_py_load_arrow_file(PyObject *module, PyObject *args, PyObject *kwargs);
int jj_arrow_add_type(PyObject *module, jj_state *st);

/* input.c: the bytes to parse from a bytes/bytearray/memoryview/str object. */
typedef struct jj_input {
    const uint8_t *buf;
    size_t len;
    Py_buffer view;
    int has_view;
    int needs_json; /* bytes in UTF-16/32 or with a BOM: json's own detection applies */
} jj_input;
struct jj_thread_parser;
/* 0, or -1 with an exception set, or JJ_INPUT_UNSUPPORTED (no exception) for a type
 * that is json's to judge. */
#define JJ_INPUT_UNSUPPORTED (-2)
int jj_input_open(PyObject *obj, struct jj_thread_parser *tp, jj_input *in);
void jj_input_close(jj_input *in);
/* json.detect_encoding would pick something other than plain UTF-8 for these bytes. */
int jj_bytes_need_json(const uint8_t *b, size_t len);
/* bytes as json.loads decodes them (json.detect_encoding's encoding, 'surrogatepass'):
 * a new str, or NULL with json's UnicodeDecodeError. */
PyObject *jj_decode_like_json(const uint8_t *buf, size_t len);

/* thread_parser.c: one parser (and a transcoding buffer) per thread. */
typedef struct jj_thread_parser {
    jj_parser *parser; /* never NULL: made with the holder */
    uint8_t *scratch;
    size_t scratch_cap;
} jj_thread_parser;
jj_thread_parser *jj_thread_parser_get(void);
void jj_thread_parser_release(void);
/* After a call: drops buffers that grew past the retention limit. */
void jj_thread_parser_trim(jj_thread_parser *tp);
/* Makes room for n bytes of scratch; 0 on allocation failure. */
int jj_thread_scratch_reserve(jj_thread_parser *tp, size_t n);

#endif
