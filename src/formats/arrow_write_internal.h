/* The compiled plan of jetjson_arrow_write.h, shared by the plan builder
 * (arrow_write_plan.c) and the row writer (arrow_write.c). */
#ifndef JJ_ARROW_WRITE_INTERNAL_H
#define JJ_ARROW_WRITE_INTERNAL_H

#include "jetjson_arrow_write.h"

typedef enum aw_kind {
    AW_NULL,
    AW_BOOL,
    AW_INT8,
    AW_INT16,
    AW_INT32,
    AW_INT64,
    AW_UINT8,
    AW_UINT16,
    AW_UINT32,
    AW_UINT64,
    AW_FLOAT16,
    AW_FLOAT32,
    AW_FLOAT64,
    AW_UTF8,       /* int32 offsets */
    AW_LARGE_UTF8, /* int64 offsets */
    AW_UTF8_VIEW,
    AW_TIMESTAMP,  /* int64 in `unit`, `zoned` */
    AW_DATE32,     /* int32 days */
    AW_DATE64,     /* int64 milliseconds */
    AW_TIME32,     /* int32 in `unit` (s or ms) */
    AW_TIME64,     /* int64 in `unit` (us or ns) */
    AW_STRUCT,
    AW_LIST,       /* int32 offsets */
    AW_LARGE_LIST, /* int64 offsets */
    AW_FIXED_LIST, /* `fixed_size` items per value */
    AW_DICT,       /* indices of kind `index_kind` into `children[0]`'s values */
    AW_DECIMAL,    /* `fixed_size` bytes of two's complement, `scale` digits after the point */
} aw_kind;

/* Time units: digits of the fraction are 3 * unit. */
enum { AW_SECONDS = 0, AW_MILLIS = 1, AW_MICROS = 2, AW_NANOS = 3 };

/* Keys are copied in blocks of this many bytes (their storage is padded to it). */
#define AW_KEY_PAD 16

typedef struct aw_node {
    aw_kind kind;
    aw_kind index_kind; /* AW_DICT: the integer type of the indices */
    int unit;           /* time types */
    int zoned;          /* timestamps: the type names a time zone (written with 'Z') */
    int64_t fixed_size; /* AW_FIXED_LIST: items per list; AW_DECIMAL: bytes per value */
    int scale;          /* AW_DECIMAL */
    int64_t n_children;
    struct aw_node *children; /* struct fields, the list item, the dictionary's values */
    uint8_t *key;             /* struct fields: ,"name": escaped (the comma skipped for
                                 the first field written), and its length; the
                                 allocation is padded by AW_KEY_PAD bytes and more */
    size_t key_len;
    char *path;   /* for errors: "a.b[]" */
    char *format; /* the Arrow format string (a copy) */
} aw_node;

struct jj_aw_plan {
    aw_node root;
    unsigned flags;
};

/* Fill status with the node's field and format, row (or -1), and return err. */
jj_aw_error jj_aw_fail(jj_aw_status *status, jj_aw_error err, const aw_node *node, int64_t row);

#endif
