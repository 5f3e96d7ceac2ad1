/* The jetjson._jetjson extension: multi-phase init, per-interpreter state, the method
 * table, and loads/load_file. What the fast path does not handle (keyword arguments,
 * types json reads and the engine does not) goes to json.loads itself
 * (json_fallback.c); input the engine refuses raises json's error (request.c). */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lazy/lazy.h"
#include "dumps/encode_json.h"
#include "dumpb/encode_orjson.h"
#include "jetjson_arrow.h"
#include "jetjson_pool.h"
#include "request.h"
#include "streams/many.h"
#include "canonical/canonical.h"
#include "typed/typed.h"

static inline jj_state *jj_get_state(PyObject *module) { return (jj_state *)PyModule_GetState(module); }

/* ---- loads ---- */

/* Objects from a parsed tape. NULL with *to_json set when json must decide instead
 * (an int over sys.get_int_max_str_digits(), or nesting json's limit where that is not
 * known exactly), or NULL with json's RecursionError when the nesting is past it. */
static PyObject *jj_objects(jj_state *st, const jj_parser *parser, const uint8_t *buf, int *to_json) {
    const jj_doc *p = jj_parser_result(parser);
    int room = jj_depth_check(p);
    *to_json = room == 0;
    if (room <= 0) return NULL;
    int gc_was_enabled = PyGC_Disable();
    PyObject *result = jj_build_objects(st, p, buf);
    if (gc_was_enabled) PyGC_Enable();
    if (!result && !PyErr_ExceptionMatches(PyExc_MemoryError)) {
        PyErr_Clear();
        *to_json = 1;
    }
    return result;
}

/* Objects from an opened request. A refusal is json's exception; a valid document
 * json must judge (too deep for the recursion room here, an int past the digits limit)
 * is json's to build or refuse. */
static PyObject *jj_loads_request(jj_request *r) {
    jj_error err = jj_request_parse(r);
    if (err != JJ_OK) return jj_request_refused(r, err);
    int to_json = 0;
    PyObject *result = jj_objects(r->st, r->parser, r->in.buf, &to_json);
    if (to_json) result = jj_request_by_json(r);
    return result;
}

PyObject *jj_loads_fast(jj_state *st, PyObject *data) {
    jj_request r = {0};
    PyObject *result = NULL;
    int opened = jj_request_open(&r, st, data);
    if (opened == JJ_INPUT_UNSUPPORTED) result = jj_request_foreign(&r);
    else if (opened == 0) result = jj_loads_request(&r);
    jj_request_close(&r);
    return result;
}

static const char *const jj_loads_keywords[] = {
    "cls", "object_hook", "parse_float", "parse_int", "parse_constant", "object_pairs_hook", NULL,
};

/* json.loads takes its own fast path when these are all None and nothing else is given. */
static int jj_keywords_are_defaults(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    Py_ssize_t n = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (args[nargs + i] != Py_None) return 0;
        int known = 0;
        for (const char *const *k = jj_loads_keywords; *k; k++) {
            if (jj_keyword_is(PyTuple_GET_ITEM(kwnames, i), *k)) known = 1;
        }
        if (!known) return 0;
    }
    return 1;
}

/* The position of a keyword argument among the keywords, or -1. */
static Py_ssize_t jj_keyword_at(PyObject *kwnames, const char *name) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); i++) {
        if (jj_keyword_is(PyTuple_GET_ITEM(kwnames, i), name)) return i;
    }
    return -1;
}

static PyObject *jj_loads(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    jj_state *st = jj_get_state(module);
    if (nargs == 1 && kwnames && PyTuple_GET_SIZE(kwnames) == 1 && jj_keyword_is(PyTuple_GET_ITEM(kwnames, 0), "type"))
        return args[1] == Py_None ? jj_loads_fast(st, args[0]) : jj_typed_loads(st, args[0], args[1], 0, NULL);
    if (nargs == 1 && (!kwnames || jj_keywords_are_defaults(args, nargs, kwnames)))
        return jj_loads_fast(st, args[0]);
    Py_ssize_t partial_at = kwnames ? jj_keyword_at(kwnames, "partial") : -1;
    if (partial_at >= 0) { /* loads(data, partial=...): a truncated document's value */
        if (nargs != 1 || PyTuple_GET_SIZE(kwnames) != 1) {
            PyErr_SetString(PyExc_TypeError, "loads() takes the document and partial= only when partial= is given");
            return NULL;
        }
        return jj_loads_partial(st, args[0], args[nargs + partial_at]);
    }
    Py_ssize_t type_at = kwnames ? jj_keyword_at(kwnames, "type") : -1;
    if (type_at >= 0) { /* loads(data, type=T, ...): typed/'s keywords, not json's */
        PyObject *type, *rename;
        int flags;
        if (jj_typed_keywords("loads", "document", args, nargs, kwnames, &type, &flags, &rename) < 0) return NULL;
        return type == Py_None ? jj_loads_fast(st, args[0]) : jj_typed_loads(st, args[0], type, flags, rename);
    }
    /* anything else is json's business, argument errors included */
    PyObject *kwargs = NULL;
    PyObject *positional = PyTuple_New(nargs);
    if (!positional) return NULL;
    for (Py_ssize_t i = 0; i < nargs; i++) PyTuple_SET_ITEM(positional, i, Py_NewRef(args[i]));
    if (kwnames) {
        kwargs = PyDict_New();
        for (Py_ssize_t i = 0; kwargs && i < PyTuple_GET_SIZE(kwnames); i++) {
            if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) Py_CLEAR(kwargs);
        }
        if (!kwargs) {
            Py_DECREF(positional);
            return NULL;
        }
    }
    PyObject *result;
    if (nargs == 1 && PyMemoryView_Check(args[0])) {
        result = jj_json_loads(st, args[0], kwargs, 0);
    } else {
        result = jj_json_call(st, positional, kwargs);
    }
    Py_DECREF(positional);
    Py_XDECREF(kwargs);
    return result;
}

/* loads called through the generic path (the first runs of a call site, calls from C
 * code): what CPython's vectorcall for METH_FASTCALL | METH_KEYWORDS does, without the
 * recursion level it counts. A warm call site calls loads without counting one, so
 * with this every call sees its caller's budget and jj_depth_check can answer as
 * json.loads would from there. loads recurses into nothing (its json fallback is
 * Python code, which counts its own levels). Installed by jj_exec. */
static PyObject *jj_loads_vectorcall(PyObject *func, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
    return jj_loads(PyCFunction_GET_SELF(func), args, PyVectorcall_NARGS(nargsf), kwnames);
}

/* ---- load_file ---- */

/* The whole content of fd as bytes, by read(): for pipes, character devices and the
 * files (procfs...) whose size stat() reports as 0. */
static PyObject *jj_read_all(int fd, PyObject *path) {
    Py_ssize_t cap = 64 * 1024, used = 0;
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, cap);
    while (bytes) {
        ssize_t got;
        Py_BEGIN_ALLOW_THREADS
        got = read(fd, PyBytes_AS_STRING(bytes) + used, (size_t)(cap - used));
        Py_END_ALLOW_THREADS
        if (got < 0) {
            if (errno == EINTR) {
                if (PyErr_CheckSignals() < 0) break;
                continue;
            }
            PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, path);
            break;
        }
        if (got == 0) {
            if (_PyBytes_Resize(&bytes, used) < 0) return NULL;
            return bytes;
        }
        used += got;
        if (used == cap && _PyBytes_Resize(&bytes, cap *= 2) < 0) return NULL;
    }
    Py_XDECREF(bytes);
    return NULL;
}

static PyObject *jj_load_file(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    jj_state *st = jj_get_state(module);
    PyObject *type = Py_None, *rename = NULL;
    int flags = 0;
    if (nargs != 1 || kwnames) { /* load_file(path, type=T, forbid_unknown_fields=, rename=) */
        if (jj_typed_keywords("load_file", "path", args, nargs, kwnames, &type, &flags, &rename) < 0) return NULL;
    }
    PyObject *arg = args[0];
    PyObject *path_bytes = NULL;
    if (!PyUnicode_FSConverter(arg, &path_bytes)) return NULL;
    const char *path = PyBytes_AS_STRING(path_bytes);
    PyObject *result = NULL;
    int fd;
    Py_BEGIN_ALLOW_THREADS
    fd = open(path, O_RDONLY | O_CLOEXEC);
    Py_END_ALLOW_THREADS
    Py_DECREF(path_bytes);
    if (fd < 0) return PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, arg);
    struct stat info;
    int stat_failed = fstat(fd, &info) < 0;
    if (stat_failed || S_ISDIR(info.st_mode)) {
        if (!stat_failed) errno = EISDIR;
        PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, arg);
    } else if (!S_ISREG(info.st_mode) || info.st_size == 0) {
        PyObject *bytes = jj_read_all(fd, arg);
        if (bytes) result = type == Py_None ? jj_loads_fast(st, bytes) : jj_typed_loads(st, bytes, type, flags, rename);
        Py_XDECREF(bytes);
    } else {
        size_t len = (size_t)info.st_size;
        void *map;
        Py_BEGIN_ALLOW_THREADS
        map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
        Py_END_ALLOW_THREADS
        if (map == MAP_FAILED) {
            PyErr_SetFromErrnoWithFilenameObject(PyExc_OSError, arg);
        } else {
            jj_request r = {0};
            if (jj_request_open_memory(&r, st, map, len) == 0)
                result = type == Py_None ? jj_loads_request(&r) : jj_typed_request(&r, type, flags, rename);
            jj_request_close(&r);
            munmap(map, len);
        }
    }
    close(fd);
    return result;
}

/* ---- small functions ---- */

static PyObject *jj_release(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    jj_thread_parser_release();
    /* the streams' worker pool: joined once its queue is empty (it starts again when a
     * stream next asks for it) */
    Py_BEGIN_ALLOW_THREADS
    jj_pool_release();
    jj_arrow_release_kept(); /* loads_arrow's column pages and parsers kept between calls */
    Py_END_ALLOW_THREADS
    Py_RETURN_NONE;
}

static PyObject *jj_features(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    PyObject *isas = PyList_New(0);
    if (!isas) return NULL;
    const char *isa;
    for (size_t i = 0; (isa = jj_kernels_available(i)) != NULL; i++) {
        PyObject *name = PyUnicode_FromString(isa);
        if (!name || PyList_Append(isas, name) < 0) {
            Py_XDECREF(name);
            Py_DECREF(isas);
            return NULL;
        }
        Py_DECREF(name);
    }
#if defined(__clang__)
    const char *compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
    const char *compiler = "gcc " __VERSION__;
#else
    const char *compiler = "unknown";
#endif
    return Py_BuildValue("{s:s,s:N,s:s,s:n,s:i}", "isa", jj_kernels_in_use(),
                         "available_isas", isas, "compiler", compiler,
                         "key_cache_slots", (Py_ssize_t)JJ_KEY_CACHE_SLOTS,
                         "recursion_margin", (int)JJ_RECURSION_MARGIN);
}

/* Counters for the tests: how often json had to decide after the engine refused. */
static PyObject *jj_stats(PyObject *module, PyObject *unused) {
    (void)unused;
    jj_state *st = jj_get_state(module);
    return Py_BuildValue("{s:n,s:n,s:n}", "fallback_values", st->fallback_values,
                         "fallback_errors", st->fallback_errors, "json_calls", st->json_calls);
}

static PyMethodDef jj_methods[] = {
    {"loads", (PyCFunction)(void (*)(void))jj_loads, METH_FASTCALL | METH_KEYWORDS,
     "loads(s, **kw)\n--\n\nDeserialize s (str, bytes, bytearray or memoryview) like json.loads."},
    {"load_file", (PyCFunction)(void (*)(void))jj_load_file, METH_FASTCALL | METH_KEYWORDS,
     "load_file(path, *, type=None, forbid_unknown_fields=False, rename=None)\n--\n\nDeserialize the JSON file at path (memory-mapped); with type=, as loads(type=)."},
    {"parse", jj_parse_py, METH_O,
     "parse(s, /)\n--\n\nParse s (as loads takes it) into read-only views: jetjson.Object or jetjson.Array."},
    {"get", (PyCFunction)(void (*)(void))jj_get, METH_FASTCALL | METH_KEYWORDS,
     "get(data, pointer, /, default=<missing>)\n--\n\nThe value at a JSON Pointer, building nothing else."},
    {"get_many", (PyCFunction)(void (*)(void))jj_get_many, METH_FASTCALL | METH_KEYWORDS,
     "get_many(data, pointers, /, *, default=<missing>)\n--\n\nThe values at several JSON Pointers, one parse."},
    {"set_path", (PyCFunction)(void (*)(void))jj_set_path, METH_FASTCALL,
     "set_path(data, pointer, value_json, /)\n--\n\nA copy of the document with value_json at pointer, as bytes."},
    {"delete_path", (PyCFunction)(void (*)(void))jj_delete_path, METH_FASTCALL,
     "delete_path(data, pointer, /)\n--\n\nA copy of the document without the value at pointer, as bytes."},
    {"dumps", (PyCFunction)(void (*)(void))jj_dumps, METH_FASTCALL | METH_KEYWORDS,
     "dumps(obj, *, skipkeys=False, ensure_ascii=True, check_circular=True, allow_nan=True, "
     "cls=None, indent=None, separators=None, default=None, sort_keys=False, **kw)\n--\n\n"
     "Serialize obj to the str json.dumps gives for the same arguments."},
    {"dump", (PyCFunction)(void (*)(void))jj_dump, METH_FASTCALL | METH_KEYWORDS,
     "dump(obj, fp, **kw)\n--\n\nWrite the text json.dump writes for obj to fp (one fp.write call)."},
    {"release", jj_release, METH_NOARGS,
     "release()\n--\n\nFree the parser buffers kept by the calling thread."},
    {"features", jj_features, METH_NOARGS,
     "features()\n--\n\nThe kernel in use and facts about this build."},
    {"valid", jj_text_valid, METH_O,
     "valid(s, /)\n--\n\nTrue when json.loads(s) would succeed, False when it would raise ValueError\n"
     "(JSONDecodeError, UnicodeDecodeError, too long int) or RecursionError; s is str, bytes,\n"
     "bytearray or memoryview (other types: json's TypeError). No objects are built."},
    {"minify", jj_text_minify, METH_O,
     "minify(s, /)\n--\n\ns without the whitespace outside strings, as bytes (UTF-8). Numbers, strings and\n"
     "escapes are kept as written. Not validated: garbage in, garbage without whitespace out;\n"
     "only a string that never ends raises JSONDecodeError."},
    {"indent", (PyCFunction)(void (*)(void))jj_text_indent, METH_FASTCALL | METH_KEYWORDS,
     "indent(s, /, indent=2)\n--\n\nThe document s in the layout of json.dumps(json.loads(s), indent=indent,\n"
     "ensure_ascii=False), as bytes (UTF-8); indent is an int or a str. Invalid input raises\n"
     "what json.loads raises. Numbers and strings keep their source spelling, duplicate keys\n"
     "are all kept, and there is no nesting or int digit limit."},
    {"dumpb", (PyCFunction)(void (*)(void))jj_dumpb, METH_FASTCALL | METH_KEYWORDS,
     "dumpb(obj, /, default=None, option=None)\n--\n\nSerialize obj to JSON bytes exactly as orjson.dumps does."},
    {"json_to_msgpack", (PyCFunction)(void (*)(void))jj_py_json_to_msgpack, METH_FASTCALL | METH_KEYWORDS,
     "json_to_msgpack(data, /, *, ndjson=False, block_size=1048576, threads=None)\n--\n\n"
     "MessagePack bytes for JSON data (str, bytes, bytearray or memoryview): the bytes of\n"
     "msgpack.packb(json.loads(data)), but duplicate keys are kept and ints past 64 bits become\n"
     "float64. ndjson=True: whitespace-separated documents, one MessagePack value each. Invalid\n"
     "JSON raises ValueError naming the document (from 1). GIL released. With ndjson=True,\n"
     "threads=N converts parts of about block_size bytes on N threads (None or 0: one per\n"
     "processor), with the bytes and errors of one thread."},
    {"msgpack_to_json", (PyCFunction)(void (*)(void))jj_py_msgpack_to_json, METH_FASTCALL | METH_KEYWORDS,
     "msgpack_to_json(data, /, *, stream=False, validate_utf8=True, binary_as_base64=True, ext_as_null=False,\n"
     "block_size=1048576, threads=None)\n--\n\n"
     "Compact JSON bytes for MessagePack data (any bytes-like object): floats as repr (NaN and\n"
     "infinities as null), bin as base64 strings (binary_as_base64=False: ValueError), non-str\n"
     "keys as json.dumps writes them (\"1\", \"true\", \"null\"), extension values ValueError (or\n"
     "null with ext_as_null=True). stream=True: a sequence of values, one NDJSON line each.\n"
     "Invalid input raises ValueError naming the byte. block_size and threads as json_to_msgpack."},
    {"dumpb_arrow", (PyCFunction)(void (*)(void))jj_py_dumpb_arrow, METH_FASTCALL | METH_KEYWORDS,
     "dumpb_arrow(data, /, *, write_nulls=True, block_size=262144, threads=None)\n--\n\n"
     "NDJSON bytes of Arrow data, one object per row: any object with __arrow_c_stream__ or\n"
     "__arrow_c_array__ of a struct type (pyarrow Table, RecordBatch, RecordBatchReader,\n"
     "StructArray, polars DataFrame...). Integers, floats (as dumpb; NaN and infinities as\n"
     "null), bools, strings, timestamps (ISO 8601 in UTC, 'Z' when zoned), dates, times,\n"
     "decimals (numbers with their scale's digits), structs, lists and dictionaries; other\n"
     "types (binary, durations, maps...) raise ValueError naming the field.\n"
     "write_nulls=False leaves null fields out. threads=N writes a batch's rows in parts of\n"
     "about block_size bytes on N threads (None or 0: one per processor), with the bytes and\n"
     "errors of one thread."},
    {"loads_arrow", (PyCFunction)(void (*)(void))jj_py_loads_arrow, METH_VARARGS | METH_KEYWORDS,
     "loads_arrow(data, /, schema=None, *, block_size=1048576, error_on_unknown_fields=False,\n"
     "            validate_skipped=True, threads=None)\n--\n\n"
     "Reads NDJSON (one JSON object per line; bytes, bytearray, memoryview or str) into Arrow record\n"
     "batches, returned as a jetjson.ArrowStream (pyarrow.table(s), polars.DataFrame(s)...). Without a\n"
     "schema the types are inferred as pyarrow.json.read_json infers them; schema is a pyarrow.Schema\n"
     "(or any object with __arrow_c_schema__) of bool, int64, uint64, float64, string, timestamp,\n"
     "struct, list and null fields: absent fields are null, unknown keys skipped (or ValueError with\n"
     "error_on_unknown_fields). A batch per block_size bytes of input. Every value is validated\n"
     "(validate_skipped=False changes nothing). threads (None or 0: one per processor) threads\n"
     "read parts of the input cut at line ends (a record must then be on one line, else it is all\n"
     "read again on one thread, as when inferred types do not mix). The GIL is released.\n"
     "data may also be a binary file object (readinto or read): read block_size bytes at a time,\n"
     "each chunk's whole lines converted (on the calling thread) while the rest waits for the next,\n"
     "with the result and errors of loads_arrow(data.read()); a text file object is a TypeError.\n"
     "Errors: ValueError naming the record (from 0) and the field."},
    {"load_arrow_file", (PyCFunction)(void (*)(void))jj_py_load_arrow_file, METH_VARARGS | METH_KEYWORDS,
     "load_arrow_file(path, /, schema=None, *, block_size=1048576, error_on_unknown_fields=False,\n"
     "                validate_skipped=True, threads=None)\n--\n\n"
     "loads_arrow on a file, mapped in memory (it must not shrink meanwhile)."},
    {"canonical", (PyCFunction)(void (*)(void))jj_canonical, METH_FASTCALL | METH_KEYWORDS,
     "canonical(obj, /, *, default=None)\n--\n\nThe RFC 8785 (JCS) canonical JSON of obj, as bytes: keys sorted by UTF-16\n"
     "code units, ECMAScript number text, no whitespace. NaN, Infinity, lone surrogates and\n"
     "ints beyond 2**53 - 1 in magnitude (unless their digits are JCS's text of that double,\n"
     "such as 9007199254740992) raise ValueError; non-str keys and unsupported types\n"
     "TypeError (unless default turns them into something that can be written)."},
    {"canonical_bytes", jj_canonical_bytes, METH_O,
     "canonical_bytes(data, /)\n--\n\nThe RFC 8785 (JCS) canonical form of the JSON text data (str, bytes, bytearray\n"
     "or memoryview), as bytes, without building Python objects: canonical(loads(data)) for\n"
     "documents without duplicate keys (ValueError), at any nesting depth. Invalid JSON raises\n"
     "JSONDecodeError as loads does."},
    {"_stats", jj_stats, METH_NOARGS, NULL},
    {"_decode_error_type", jj_decode_error_type, METH_NOARGS,
     "_decode_error_type()\n--\n\njetjson.JSONDecodeError, made (and json imported) on first need."},
    {"_many", (PyCFunction)(void (*)(void))jj_many_open, METH_FASTCALL, NULL},
    {"_raw_decode", (PyCFunction)(void (*)(void))jj_raw_decode, METH_FASTCALL, NULL},
    {"_dumpb_many", (PyCFunction)(void (*)(void))jj_dumpb_many, METH_FASTCALL, NULL},
    {"_tool_format", (PyCFunction)(void (*)(void))jj_tool_format, METH_VARARGS | METH_KEYWORDS,
     "_tool_format(data, write, mode, indent, ensure_ascii, sort_keys)\n--\n\n"
     "The command line's json.tool writer (python -m jetjson): True when written, False when\n"
     "the document needs json.loads + json.dumps."},
    {"_tool_validate_lines", jj_tool_validate_lines, METH_O,
     "_tool_validate_lines(data)\n--\n\n"
     "(lines, [(line number, start, stop), ...]): the number of lines of data and those that\n"
     "are not a document the engine accepts outright (python -m jetjson validate --ndjson)."},
    {NULL, NULL, 0, NULL},
};

/* ---- module lifecycle ---- */

static int jj_exec(PyObject *module) {
    jj_state *st = jj_get_state(module);
    (void)jj_kernels_in_use(); /* choose (and honour JETJSON_FORCE_ISA) at import */
    /* json and jetjson.JSONDecodeError come on first need (jj_json_ready) */
    if (jj_dumps_init_state(st) < 0) return -1;
    if (jj_lazy_add_types(module, st) < 0 || jj_many_add_type(module, st) < 0) return -1;
    if (jj_native_init(st) < 0 || jj_dumpb_init(st, module) < 0) return -1;
    if (jj_typed_init(module, st) < 0) return -1;
    if (jj_arrow_add_type(module, st) < 0) return -1;
    PyObject *loads = PyObject_GetAttrString(module, "loads");
    if (!loads) return -1;
    if (PyCFunction_Check(loads)) ((PyCFunctionObject *)loads)->vectorcall = jj_loads_vectorcall;
    Py_DECREF(loads);
    return 0;
}

static int jj_traverse(PyObject *module, visitproc visit, void *arg) {
    jj_state *st = jj_get_state(module);
    if (!st) return 0;
    Py_VISIT(st->JSONDecodeError);
    Py_VISIT(st->error_keys);
    Py_VISIT(st->json_loads);
    Py_VISIT(st->json_decode_error);
    for (int i = 0; i < JJ_LT_COUNT_; i++) Py_VISIT(st->lazy_types[i]);
    Py_VISIT(st->many_type);
    Py_VISIT(st->arrow_stream_type);
    int rc = jj_dumps_traverse_state(st, visit, arg);
    if (!rc) rc = jj_typed_traverse(st, visit, arg);
    return rc ? rc : jj_dumpb_traverse(st, visit, arg);
}

static int jj_clear(PyObject *module) {
    jj_state *st = jj_get_state(module);
    if (!st) return 0;
    Py_CLEAR(st->JSONDecodeError);
    Py_CLEAR(st->error_keys);
    Py_CLEAR(st->json_loads);
    Py_CLEAR(st->json_decode_error);
    for (int i = 0; i < JJ_LT_COUNT_; i++) Py_CLEAR(st->lazy_types[i]);
    Py_CLEAR(st->many_type);
    Py_CLEAR(st->arrow_stream_type);
    jj_dumps_clear_state(st);
    jj_dumpb_clear(st);
    jj_typed_clear(st);
    jj_native_clear(st);
    jj_key_cache_clear(&st->keys);
    jj_key_cache_clear(&st->values);
    return 0;
}

static void jj_free(void *module) { jj_clear((PyObject *)module); }

static PyModuleDef_Slot jj_slots[] = {
    {Py_mod_exec, jj_exec},
#if PY_VERSION_HEX >= 0x030C0000
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
    {0, NULL},
};

static struct PyModuleDef jj_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "jetjson._jetjson",
    .m_doc = "jetjson's C extension: the engine's Python binding.",
    .m_size = sizeof(jj_state),
    .m_methods = jj_methods,
    .m_slots = jj_slots,
    .m_traverse = jj_traverse,
    .m_clear = jj_clear,
    .m_free = jj_free,
};

PyMODINIT_FUNC PyInit__jetjson(void) { return PyModuleDef_Init(&jj_module); }
