/* jetjson.canonical and jetjson.canonical_bytes: RFC 8785 (JCS) text as bytes.
 *
 * canonical_obj.c walks Python objects (keys sorted by UTF-16 code units here, numbers
 * and strings written by the engine's writing layer); canonical_text.c parses JSON text
 * with the engine and has the engine write JCS from the tape (jetjson_canonical.h). */
#ifndef JJ_CPYTHON_CANONICAL_H
#define JJ_CPYTHON_CANONICAL_H

#include "state.h"

/* canonical(obj, /, *, default=None) */
PyObject *jj_canonical(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
/* canonical_bytes(data, /) */
PyObject *jj_canonical_bytes(PyObject *module, PyObject *data);

#endif
