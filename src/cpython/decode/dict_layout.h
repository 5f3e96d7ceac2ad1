/* The dict keys table of CPython 3.11 and 3.12 (their pycore_dict.h, redeclared: it is
 * not a public header). dumpb walks a combined table's entries directly (a sixth of the
 * time on dict-heavy documents went to PyDict_Next's call and checks) and loads writes
 * new tables directly (dict_fill.h). JJ_DICT_LAYOUT_KNOWN is defined where it applies;
 * elsewhere both use the API. */
#ifndef JJ_DICT_LAYOUT_H
#define JJ_DICT_LAYOUT_H

#include "state.h"

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030D0000 && !defined(Py_LIMITED_API)
#define JJ_DICT_LAYOUT_KNOWN 1

typedef struct jj_dict_keys {
    Py_ssize_t dk_refcnt;
    uint8_t dk_log2_size;
    uint8_t dk_log2_index_bytes;
    uint8_t dk_kind;
    uint32_t dk_version;
    Py_ssize_t dk_usable;
    Py_ssize_t dk_nentries;
    char dk_indices[]; /* then the entries */
} jj_dict_keys;

/* an entry of a table that takes any key */
typedef struct jj_dict_entry {
    Py_hash_t me_hash;
    PyObject *me_key;
    PyObject *me_value;
} jj_dict_entry;

/* an entry of a table of str keys only (their hash is in the str) */
typedef struct jj_dict_str_entry {
    PyObject *me_key;
    PyObject *me_value;
} jj_dict_str_entry;

#define JJ_DICT_KEYS_GENERAL 0
#define JJ_DICT_KEYS_UNICODE 1
#endif

#endif
