/* loads(data, type=T): a compiled description of T (typed_compile.c, classes in
 * typed_class.c, generics in typed_generic.c, rename= in typed_rename.c), kept per
 * interpreter in a bounded cache, and a converter that walks the parsed tape straight
 * into T's instances (typed_decode.c), naming the JSON path in its errors
 * (typed_errors.c). typed_api.c holds the entry points and jetjson.Decoder;
 * typed_stream.c gives streams (loads_many...) their type. */
#ifndef JJ_TYPED_H
#define JJ_TYPED_H

#include "state.h"

/* Options of a typed decode. */
#define JJ_TYPED_FORBID_UNKNOWN 1 /* a key that names no field of a dataclass/TypedDict is an error */

/* The cache of compiled types starts over past this many, so that types made on the fly
 * (list[X] in a loop) do not pile up. */
#define JJ_TYPED_CACHE_MAX 1024

/* JSON kinds a node accepts. */
enum {
    JT_ANY = 1u << 0, /* anything, built as loads builds it */
    JT_NULL = 1u << 1,
    JT_TRUE = 1u << 2,
    JT_FALSE = 1u << 3,
    JT_INT = 1u << 4,
    JT_FLOAT = 1u << 5, /* a float, or an int made a float when JT_INT is not set */
    JT_STR = 1u << 6,
    JT_ARRAY = 1u << 7,
    JT_OBJECT = 1u << 8,
};

/* What a str or an int becomes: itself, or a member of a Literal or an enum (looked up
 * in the node's map, by value); strings also parsed into the types of typed_str.c. */
enum { JT_PLAIN = 0, JT_LOOKUP, JT_DATETIME, JT_DATE, JT_TIME, JT_UUID, JT_DECIMAL, JT_BYTES, JT_BYTEARRAY };

enum { JT_LIST = 1, JT_SET, JT_FROZENSET, JT_VARTUPLE, JT_TUPLE, JT_NAMEDTUPLE };
enum { JT_DICT = 1, JT_DATACLASS, JT_TYPEDDICT };

/* Constraints (Annotated metadata, typed_constraints.c). */
enum {
    JT_C_INT_GE = 1u << 0,
    JT_C_INT_LE = 1u << 1,
    JT_C_INT_MULT = 1u << 2,
    JT_C_FLT_GT = 1u << 3, /* then GE, LT, LE, MULT: the bound's index in flt[] shifts it */
    JT_C_STR_MIN = 1u << 8,
    JT_C_STR_MAX = 1u << 9,
    JT_C_ARR_MIN = 1u << 10,
    JT_C_ARR_MAX = 1u << 11,
    JT_C_OBJ_MIN = 1u << 12,
    JT_C_OBJ_MAX = 1u << 13,
};
#define JT_C_INT_ALL (JT_C_INT_GE | JT_C_INT_LE | JT_C_INT_MULT)
#define JT_C_FLT_ALL (0x1fu << 3)

typedef struct jj_tnode jj_tnode;

/* The slot in a record's key table of a key of len bytes: head its first 8 bytes (zeros
 * past its end), tail its last 8 when it is longer than 8 (else 0), both loaded
 * little-endian, mult the node's odd multiplier (the top 6 bits of the product). */
static inline unsigned jj_tkey_hash(uint64_t head, uint64_t tail, size_t len, uint64_t mult) {
    return (unsigned)(((head ^ (tail * 31) ^ (uint64_t)len) * mult) >> 58);
}

typedef struct jj_tfield {
    PyObject *name;    /* interned str: the attribute (dataclass) or key (TypedDict) */
    PyObject *key;     /* the name in JSON: name, or what rename= made of it */
    const char *utf8;  /* the key's UTF-8 (owned by key), matched against tape keys */
    size_t len;
    uint64_t head;     /* the key's first 8 bytes as loaded little-endian, zeros past its end */
    jj_tnode *type;
    PyObject *dflt;    /* default value, or NULL */
    PyObject *factory; /* default_factory, or NULL */
    int init;          /* dataclass: a parameter of __init__ (else set from its default only) */
    int required;      /* missing from the object is an error */
    /* dataclass: the offset of the member slot (__slots__) the field lives in, stored
     * straight into while the class's version tag is its node's slots_version; else 0 */
    Py_ssize_t slot_offset;
} jj_tfield;

struct jj_tnode {
    unsigned kinds;
    /* strings and ints: JT_PLAIN or JT_LOOKUP in *_map (value -> result) */
    unsigned char str_kind, int_kind;
    PyObject *str_map, *int_map;
    /* typed_str.c kinds: the class, then what it needs (datetime: timezone.utc,
     * timezone, timedelta; UUID: SafeUUID.unknown, "int", "is_safe") */
    PyObject *objs[4];
    const char *str_name; /* in "Expected `...`": "str", "datetime", "uuid"... */
    int decimal;          /* Decimal: numbers are read from their text too */
    /* arrays and objects are described by the node they delegate to (itself, or a
     * member of a union), so that a union may name a dataclass still being compiled */
    jj_tnode *arr;
    jj_tnode *obj;
    /* the array or object this node is, when it is one */
    int array_kind, object_kind;
    jj_tnode *item;         /* list/set/frozenset/tuple[T, ...] item; dict value */
    jj_tnode *key;          /* dict key */
    jj_tnode **items;       /* fixed tuple / NamedTuple items */
    Py_ssize_t nitems, nrequired;
    PyObject *cls;          /* dataclass or NamedTuple class */
    PyObject *no_args;      /* dataclass: the () its tp_new is called with, made once */
    jj_tfield *fields;
    Py_ssize_t nfields;
    uint64_t key_lengths;   /* bit k: a field name of k bytes (bit 63: 63 or more) */
    /* dataclass/TypedDict: the fields __init__ takes, by jj_tkey_hash of their key with
     * key_mult (index + 1; 0 for no field); key_mult 0 when no multiplier separated them */
    uint64_t key_mult;
    uint8_t key_table[64];
    int frozen;             /* dataclass: set fields with object.__setattr__ */
    int post_init;          /* dataclass: has __post_init__ */
    int slots;              /* dataclass: defines __slots__ (init=False defaults are set) */
    unsigned slots_version; /* dataclass: cls's tp_version_tag when slot_offset was read (0: none) */
    /* dataclass without slot fields: cls's tp_version_tag when its instances were last
     * found to be made by object.__new__ and set by the generic setter, so that its
     * records take the in-order walk (jt_record_in_order); 0 for other nodes */
    unsigned in_order_version;
    int compiled;           /* a class node: fields filled in */
    /* constraints: JT_C_* bits, then the bounds (ints inclusive; floats gt, ge, lt,
     * le, multiple_of; lengths min, max of strings, arrays, objects) */
    unsigned cons;
    long long int_ge, int_le, int_mult;
    double flt[5];
    Py_ssize_t len_bounds[3][2];
};

/* A compiled type: the nodes made for it (owned), the root first. Held in a capsule. */
typedef struct jj_tplan {
    jj_tnode **nodes;
    Py_ssize_t count, cap;
    PyObject *type; /* what was compiled (strong) */
} jj_tplan;

/* typed_compile.c: the plan of `type` from the cache, else compiled (and cached when
 * the type and rename are hashable). rename: NULL/None, or rename= of msgspec's kinds
 * (typed_rename.c). A new reference to a capsule; NULL with TypeError for a type that
 * cannot be decoded (ValueError/TypeError for a bad rename). */
PyObject *jj_typed_plan(jj_state *st, PyObject *type, PyObject *rename);

/* typed_rename.c: rename= checked (0, or -1 with msgspec's error), and applied to the
 * fields of a dataclass or TypedDict node: each field's key becomes the JSON name
 * rename makes of its name (-1 with an exception, names clashing included). */
int jj_typed_rename_check(PyObject *rename);
int jj_typed_rename_fields(jj_tnode *n, PyObject *rename);
jj_tplan *jj_typed_plan_get(PyObject *capsule);

/* typed_decode.c: the value at tape index 0 of a document of input[0..len) parsed by
 * jj_parse_lazy (or fully parsed), as `root` (raw entries are finished where they are
 * read). NULL with jetjson.ValidationError (with the path), or another exception. `doc`
 * >= 0: the document's number in a stream, the first step of the path ("$[3].id", as
 * msgspec's decode_lines says it); -1 for a lone document. */
PyObject *jj_typed_build(jj_state *st, jj_parser *p, const uint8_t *input, size_t len, const jj_tnode *root,
                          int flags, Py_ssize_t doc);

/* typed_object.c: the same conversion from the objects json.loads returned (for the
 * documents json accepts and the engine does not). */
PyObject *jj_typed_from_object(jj_state *st, const jj_tnode *root, PyObject *value, int flags, Py_ssize_t doc);

/* typed_str.c: the string s[0..len) as n's str_kind (datetime, date, time, UUID,
 * Decimal, bytes, bytearray); NULL with a validation error recorded in e, or another
 * exception. jj_typed_decimal: a number's text as a Decimal. */
struct jj_tpath;
PyObject *jj_typed_str_convert(struct jj_tpath *e, const jj_tnode *n, const uint8_t *s, size_t len);
PyObject *jj_typed_decimal(struct jj_tpath *e, const jj_tnode *n, const uint8_t *s, size_t len);

/* typed_constraints.c: whether Annotated's metadata sets any constraint (1/0, -1 with
 * an exception); sets them on u (a copy of the annotated type's node); the value v
 * (stolen) checked against n's constraints: v, or NULL with the error recorded. */
int jj_typed_has_constraints(PyObject *metadata);
int jj_typed_constrain(jj_tnode *u, PyObject *metadata, PyObject *t);
PyObject *jj_typed_check(struct jj_tpath *e, const jj_tnode *n, PyObject *v);

/* typed_errors.c: the path of a failed conversion, collected while unwinding. */
typedef struct jj_tpath {
    PyObject *segments; /* list of str, innermost first; NULL while no validation error */
    PyObject *msg;      /* the message without its path */
    int in_key;         /* the error is in a dict key ("`key` in `$...`") */
    int flags;          /* JJ_TYPED_* of the call */
} jj_tpath;

/* Each records a validation error (0 on success of recording, -1 on memory error);
 * the caller returns NULL. */
int jj_tpath_fail(jj_tpath *e, PyObject *msg); /* steals msg */
int jj_tpath_expected(jj_tpath *e, const jj_tnode *n, const char *got);
int jj_tpath_enum(jj_tpath *e, PyObject *value);
int jj_tpath_unknown(jj_tpath *e, PyObject *key); /* steals key */
/* While unwinding through a container: prepends ".name", "[i]" or "[...]". */
void jj_tpath_field(jj_tpath *e, PyObject *name);
void jj_tpath_index(jj_tpath *e, Py_ssize_t i);
void jj_tpath_dict_value(jj_tpath *e);
/* At the top: raises the ValidationError recorded in e (if one was) and frees e. */
void jj_tpath_raise(jj_state *st, jj_tpath *e);
/* After __post_init__ raised: a ValueError or TypeError becomes a validation error here
 * (1), anything else stays raised (0). */
int jj_tpath_from_exception(jj_tpath *e);

/* typed_decode.c, shared with typed_object.c: a dataclass or TypedDict from its field
 * values (vals[i] NULL where absent; the entries it consumes become NULL); the error of
 * an array of the wrong length for a fixed tuple or NamedTuple (returns NULL). */
struct jj_tpath;
PyObject *jj_typed_record(struct jj_tpath *e, const jj_tnode *n, PyObject **vals);
/* A node with in_order_version set: whether its class still makes and sets instances as
 * the in-order walk needs (typed_class.c); with remember, the tag kept is refreshed
 * when it holds (only where plans are used under one lock: the GIL). */
int jj_tclass_in_order(jj_tnode *n, int remember);
PyObject *jj_typed_length_error(struct jj_tpath *e, const jj_tnode *n);

/* typed_generic.c: the scope (a new dict TypeVar -> type) of the generic class cls
 * given args (a tuple, or NULL for the bare class): its parameters bound to args
 * substituted in the outer scope, then what its bases were given (class IntBox(Box[int])).
 * jj_typed_substitute: t with the scope's variables replaced (a new reference). */
PyObject *jj_typed_generic_scope(PyObject *cls, PyObject *args, PyObject *outer, PyObject *get_origin,
                                 PyObject *get_args, PyObject *typevar);
PyObject *jj_typed_substitute(PyObject *t, PyObject *scope, PyObject *typevar);
/* The scope of a generic alias (type Pair[T] = ...): params bound to args. */
PyObject *jj_typed_bind_scope(PyObject *params, PyObject *args, PyObject *outer, PyObject *typevar);

/* typed_stream.c: streams with type= (streams/many.h). A stream's next document as
 * its type, from p's tape (input[0..len) what p read; lazy_tape: by jj_parse_lazy), or
 * from json's value of it (stolen); the stream's count of documents moves on. */
struct jj_many_iter;
PyObject *jj_typed_stream_document(struct jj_many_iter *it, jj_parser *p, const uint8_t *input, size_t len,
                                   int lazy_tape);
PyObject *jj_typed_stream_object(struct jj_many_iter *it, PyObject *value);
/* Gives the plan (a capsule of jj_typed_plan) and flags to a stream not yet read. 0 or -1. */
int jj_typed_stream_attach(jj_state *st, PyObject *stream, PyObject *plan, int flags);

/* typed_api.c */
struct jj_request;
PyObject *jj_typed_request(struct jj_request *r, PyObject *type, int flags, PyObject *rename);
PyObject *jj_typed_loads(jj_state *st, PyObject *data, PyObject *type, int flags, PyObject *rename);
/* fn(x, type=T, forbid_unknown_fields=, rename=) (loads, load_file): the keywords
 * (kwnames, may be NULL; values after the nargs positional ones) read into type, flags
 * and rename (NULL when not given); -1 with TypeError naming fn and its argument `what`
 * for anything else, or when type= is missing. */
int jj_typed_keywords(const char *fn, const char *what, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                      PyObject **type, int *flags, PyObject **rename);
PyObject *jj_typed_load_file(jj_state *st, PyObject *path, PyObject *type);
int jj_typed_init(PyObject *module, jj_state *st);
int jj_typed_traverse(jj_state *st, visitproc visit, void *arg);
void jj_typed_clear(jj_state *st);

#endif
