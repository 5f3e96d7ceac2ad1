/* dumpb: the text of a uuid.UUID, "01234567-89ab-cdef-0123-456789abcdef", from its `int`
 * attribute (what orjson reads too). */
#include "encode_native_internal.h"

/* The 128-bit value of a non-negative int below 2^128, big-endian. */
static int jj_uuid_bytes(PyObject *value, unsigned char out[16]) {
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "UUID.int is not an int");
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t n = PyLong_AsNativeBytes(value, out, 16,
                                        Py_ASNATIVEBYTES_BIG_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER |
                                            Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (n < 0) return -1;
    if (n > 16) {
        PyErr_SetString(PyExc_OverflowError, "UUID.int does not fit in 128 bits");
        return -1;
    }
    return 0;
#else
    return _PyLong_AsByteArray((PyLongObject *)value, out, 16, 0, 0);
#endif
}

Py_ssize_t jj_uuid_text(jj_state *st, PyObject *obj, char *out) {
    static const char hex[] = "0123456789abcdef";
    PyObject *value = PyObject_GetAttr(obj, st->native.str_int);
    if (!value) return -1;
    unsigned char bytes[16];
    int rc = jj_uuid_bytes(value, bytes);
    Py_DECREF(value);
    if (rc < 0) return -1;
    char *p = out;
    for (int i = 0; i < 16; i++) {
        /* hyphens before the 5th, 7th, 9th and 11th byte: 8-4-4-4-12 digits */
        if (i == 4 || i == 6 || i == 8 || i == 10) *p++ = '-';
        *p++ = hex[bytes[i] >> 4];
        *p++ = hex[bytes[i] & 15];
    }
    return p - out;
}
