/* dumpb: the text of a uuid.UUID, "01234567-89ab-cdef-0123-456789abcdef", from its `int`
 * attribute (what orjson reads too). */
#include <string.h>

#include "encode_native_internal.h"
#include "jetjson_write.h"

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

static inline char *jj_hex_byte(char *p, unsigned char b) { return (char *)jj_write_hex2((uint8_t *)p, b); }

Py_ssize_t jj_uuid_text(jj_state *st, PyObject *obj, char *out) {
    PyObject *value = PyObject_GetAttr(obj, st->native.str_int);
    if (!value) return -1;
    unsigned char bytes[16];
    int rc = jj_uuid_bytes(value, bytes);
    Py_DECREF(value);
    if (rc < 0) return -1;
    /* 8-4-4-4-12 digits: hyphens before the 5th, 7th, 9th and 11th byte */
    char *p = out;
    for (int i = 0; i < 4; i++) p = jj_hex_byte(p, bytes[i]);
    *p++ = '-';
    p = jj_hex_byte(jj_hex_byte(p, bytes[4]), bytes[5]);
    *p++ = '-';
    p = jj_hex_byte(jj_hex_byte(p, bytes[6]), bytes[7]);
    *p++ = '-';
    p = jj_hex_byte(jj_hex_byte(p, bytes[8]), bytes[9]);
    *p++ = '-';
    for (int i = 10; i < 16; i++) p = jj_hex_byte(p, bytes[i]);
    return p - out;
}
