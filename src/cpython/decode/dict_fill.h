/* A new dict filled with a known number of str keys, for the tape builder.
 *
 * On CPython 3.11 and 3.12 (release builds) the builder writes the keys table itself
 * (the layout of dict_layout.h): one combined table of str keys sized for every pair up
 * front. An insertion is then a probe and two stores instead of PyDict_SetItem's generic
 * path (a quarter of loads' time on key-heavy documents went there). The probe
 * sequence, the index widths, the allocator and the GC tracking rule are CPython's, so
 * the result cannot be told from a dict filled by PyDict_SetItem: same lookups, order,
 * duplicate-key rule (the first key object stays, the last value wins), size and
 * behaviour when later grown. Other versions use the API. */
#ifndef JJ_DICT_FILL_H
#define JJ_DICT_FILL_H

#include "dict_layout.h"

#if defined(JJ_DICT_LAYOUT_KNOWN) && !defined(Py_DEBUG) && !defined(Py_REF_DEBUG)
#define JJ_DICT_FILL_DIRECT 1

#define JJ_DICT_LOG_MINSIZE 3
#define JJ_DICT_PERTURB_SHIFT 5
#define JJ_DICT_EMPTY_SLOT (-1)

static inline jj_dict_str_entry *jj_dict_str_entries(jj_dict_keys *k) {
    return (jj_dict_str_entry *)(void *)(k->dk_indices + ((size_t)1 << k->dk_log2_index_bytes));
}

static inline Py_ssize_t jj_dict_index_at(const jj_dict_keys *k, size_t slot) {
    switch (k->dk_log2_index_bytes - k->dk_log2_size) {
    case 0: return ((const int8_t *)(const void *)k->dk_indices)[slot];
    case 1: return ((const int16_t *)(const void *)k->dk_indices)[slot];
    case 2: return ((const int32_t *)(const void *)k->dk_indices)[slot];
    default: return (Py_ssize_t)((const int64_t *)(const void *)k->dk_indices)[slot];
    }
}

static inline void jj_dict_set_index(jj_dict_keys *k, size_t slot, Py_ssize_t ix) {
    switch (k->dk_log2_index_bytes - k->dk_log2_size) {
    case 0: ((int8_t *)(void *)k->dk_indices)[slot] = (int8_t)ix; break;
    case 1: ((int16_t *)(void *)k->dk_indices)[slot] = (int16_t)ix; break;
    case 2: ((int32_t *)(void *)k->dk_indices)[slot] = (int32_t)ix; break;
    default: ((int64_t *)(void *)k->dk_indices)[slot] = (int64_t)ix; break;
    }
}

/* Equal exact strs: both canonical (made at their narrowest kind), so kind, length and
 * bytes decide, as unicode_eq does. */
static inline int jj_dict_same_str(PyObject *a, PyObject *b) {
    Py_ssize_t len = PyUnicode_GET_LENGTH(a);
    int kind = PyUnicode_KIND(a);
    return len == PyUnicode_GET_LENGTH(b) && kind == (int)PyUnicode_KIND(b) &&
           memcmp(PyUnicode_DATA(a), PyUnicode_DATA(b), (size_t)len * (size_t)kind) == 0;
}
#endif

/* An empty dict with room for n str keys; NULL with an exception set on failure. */
PyObject *jj_dict_new_sized(Py_ssize_t n);

/* dict[key] = value for a dict from jj_dict_new_sized given fewer than n keys so far;
 * key is an exact str. Steals both references, also on failure (-1, exception set). */
static inline int jj_dict_put(PyObject *dict, PyObject *key, PyObject *value) {
#ifdef JJ_DICT_FILL_DIRECT
    Py_hash_t hash = ((PyASCIIObject *)key)->hash;
    if (hash == -1 && (hash = PyObject_Hash(key)) == -1) {
        Py_DECREF(key);
        Py_DECREF(value);
        return -1;
    }
    /* CPython tracks a dict once it is given something the GC may track, even as the
     * new value of a key it has */
    if ((PyList_CheckExact(value) || PyDict_CheckExact(value)) && !PyObject_GC_IsTracked(dict))
        PyObject_GC_Track(dict);
    PyDictObject *mp = (PyDictObject *)dict;
    jj_dict_keys *k = (jj_dict_keys *)(void *)mp->ma_keys;
    jj_dict_str_entry *entries = jj_dict_str_entries(k);
    size_t mask = ((size_t)1 << k->dk_log2_size) - 1;
    size_t perturb = (size_t)hash, slot = (size_t)hash & mask;
    int narrow = k->dk_log2_size < 8; /* one-byte indexes: nearly every JSON object */
    for (;;) {
        Py_ssize_t ix = narrow ? ((const int8_t *)(const void *)k->dk_indices)[slot] : jj_dict_index_at(k, slot);
        if (ix == JJ_DICT_EMPTY_SLOT) break;
        PyObject *old_key = entries[ix].me_key;
        if (old_key == key || (((PyASCIIObject *)old_key)->hash == hash && jj_dict_same_str(old_key, key))) {
            PyObject *old_value = entries[ix].me_value; /* a duplicate key: last value wins */
            entries[ix].me_value = value;
            Py_DECREF(old_value);
            Py_DECREF(key);
            return 0;
        }
        perturb >>= JJ_DICT_PERTURB_SHIFT;
        slot = mask & (slot * 5 + perturb + 1);
    }
    Py_ssize_t ix = k->dk_nentries;
    if (narrow)
        ((int8_t *)(void *)k->dk_indices)[slot] = (int8_t)ix;
    else
        jj_dict_set_index(k, slot, ix);
    entries[ix].me_key = key;
    entries[ix].me_value = value;
    k->dk_nentries++;
    k->dk_usable--;
    mp->ma_used++;
    return 0;
#else
    int rc = PyDict_SetItem(dict, key, value);
    Py_DECREF(key);
    Py_DECREF(value);
    return rc;
#endif
}

#endif
