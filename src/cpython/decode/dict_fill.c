/* jj_dict_new_sized: see dict_fill.h. */
#include "dict_fill.h"

#ifdef JJ_DICT_FILL_DIRECT
/* A keys table as CPython's new_keys_object(log2_size, unicode=1) makes it: indices one
 * byte wide below 256 slots, then 2, 4, 8; all slots empty; room for two thirds of the
 * slots as entries; allocated with PyObject_Malloc, which is what dict_dealloc frees it
 * with (or keeps it in its free list). */
static jj_dict_keys *jj_dict_keys_new(uint8_t log2_size) {
    uint8_t log2_bytes = log2_size < 8    ? log2_size
                         : log2_size < 16 ? (uint8_t)(log2_size + 1)
                         : log2_size < 32 ? (uint8_t)(log2_size + 2)
                                          : (uint8_t)(log2_size + 3);
    size_t usable = (((size_t)1 << log2_size) << 1) / 3;
    size_t index_bytes = (size_t)1 << log2_bytes;
    jj_dict_keys *k = PyObject_Malloc(sizeof *k + index_bytes + usable * sizeof(jj_dict_str_entry));
    if (!k) return (jj_dict_keys *)PyErr_NoMemory();
    k->dk_refcnt = 1;
    k->dk_log2_size = log2_size;
    k->dk_log2_index_bytes = log2_bytes;
    k->dk_kind = JJ_DICT_KEYS_UNICODE;
    k->dk_version = 0;
    k->dk_usable = (Py_ssize_t)usable;
    k->dk_nentries = 0;
    memset(k->dk_indices, 0xff, index_bytes);
    memset(k->dk_indices + index_bytes, 0, usable * sizeof(jj_dict_str_entry));
    return k;
}
#endif

PyObject *jj_dict_new_sized(Py_ssize_t n) {
#ifdef JJ_DICT_FILL_DIRECT
    if (n <= 0) return PyDict_New();
    uint8_t log2_size = JJ_DICT_LOG_MINSIZE;
    while (((((size_t)1 << log2_size) << 1) / 3) < (size_t)n) log2_size++;
    jj_dict_keys *keys = jj_dict_keys_new(log2_size);
    if (!keys) return NULL;
    PyObject *dict = PyDict_New();
    if (!dict) {
        PyObject_Free(keys);
        return NULL;
    }
    PyDictObject *mp = (PyDictObject *)dict;
    jj_dict_keys *empty = (jj_dict_keys *)(void *)mp->ma_keys;
    /* A new dict shares the static empty table, whose count PyDict_New raised on 3.11
     * (3.12 makes it immortal and leaves it alone). */
#if PY_VERSION_HEX >= 0x030C0000
    if (empty->dk_refcnt != _Py_IMMORTAL_REFCNT) empty->dk_refcnt--;
#else
    empty->dk_refcnt--;
#endif
    mp->ma_keys = (PyDictKeysObject *)(void *)keys;
    return dict;
#else
    return _PyDict_NewPresized(n);
#endif
}
