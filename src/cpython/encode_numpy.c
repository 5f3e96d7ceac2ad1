/* dumpb: numpy arrays and scalars, as orjson writes them under OPT_SERIALIZE_NUMPY. */
#include "encode_native_internal.h"

int jj_native_write_numpy(jj_state *st, jj_writer *w, PyObject *obj, jj_native_kind kind, uint32_t opts,
                          int depth) {
    (void)w;
    (void)obj;
    (void)kind;
    (void)opts;
    (void)depth;
    return jj_native_error(st, "numpy: not yet");
}
