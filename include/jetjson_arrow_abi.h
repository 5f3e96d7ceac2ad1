/* The Apache Arrow C Data Interface and C Stream Interface: the three structs by which
 * Arrow libraries hand each other columns without copying (pyarrow, polars, DuckDB...).
 * Their layout is fixed by the Arrow specification ("The Arrow C data interface" and
 * "The Arrow C stream interface"); the guards are the ones the specification names, so
 * that a translation unit that also includes another definition of them compiles.
 *
 * Ownership, in short: whoever fills a struct sets `release`; whoever receives it calls
 * `release` once when done (which sets it to NULL). A released struct has release ==
 * NULL. Strings are UTF-8, NUL-terminated; `format` strings are the spec's ("l" int64,
 * "g" float64, "u" utf8 string, "b" bool, "n" null, "+s" struct, "+l" list, "tsu:UTC"
 * timestamp[us, UTC] ...). */
#ifndef JETJSON_ARROW_ABI_H
#define JETJSON_ARROW_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

/* A type (a field's name, type and children). */
struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

/* A column's data: buffers (validity bitmap first, then the type's own), children. */
struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

/* A sequence of arrays of one schema (record batches when the schema is a struct).
 * get_next gives a released array (release == NULL) at the end; the functions return 0
 * or an errno value, with get_last_error saying why. */
struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */

#ifdef __cplusplus
}
#endif

#endif /* JETJSON_ARROW_ABI_H */
