/* Arguments shared by the format converters: see format_args.h. */
#include "format_args.h"

#include <stdatomic.h>
#include <unistd.h>

/* A positive (or, with allow_zero, non-negative) int argument; *overflow set past
 * long long. 0, or -1 with an exception. */
static int jj_count_arg(const char *fn, const char *name, PyObject *value, int allow_zero, long long *v,
                        int *overflow) {
    if (!PyLong_Check(value) || PyBool_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%s(): %s must be %san int, not %.100s", fn, name,
                     allow_zero ? "None or " : "", Py_TYPE(value)->tp_name);
        return -1;
    }
    *overflow = 0;
    *v = PyLong_AsLongLongAndOverflow(value, overflow);
    if (*v == -1 && PyErr_Occurred()) return -1;
    if (*overflow < 0 || (*overflow == 0 && (allow_zero ? *v < 0 : *v <= 0))) {
        if (allow_zero) PyErr_Format(PyExc_ValueError, "%s(): %s must be None or an int >= 0", fn, name);
        else PyErr_Format(PyExc_ValueError, "%s(): %s must be positive", fn, name);
        return -1;
    }
    return 0;
}

/* The CPUs online, read once: each sysconf(_SC_NPROCESSORS_ONLN) opens, reads and closes
 * a sysfs file, which took longer (~10 us) than converting a 10 KB document. */
static unsigned jj_cpus_online(void) {
    static atomic_uint cached;
    unsigned n = atomic_load_explicit(&cached, memory_order_relaxed);
    if (n) return n;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    n = cpus > 0 ? (unsigned)(cpus > 1024 ? 1024 : cpus) : 1;
    atomic_store_explicit(&cached, n, memory_order_relaxed);
    return n;
}

int jj_format_threads(const char *fn, PyObject *threads, unsigned *n) {
    *n = 0;
    if (threads && threads != Py_None) {
        long long v;
        int overflow;
        if (jj_count_arg(fn, "threads", threads, 1, &v, &overflow) < 0) return -1;
        *n = overflow || v > 1024 ? 1024 : (unsigned)v;
    }
    if (*n == 0) *n = jj_cpus_online();
    return 0;
}

int jj_format_block_size(const char *fn, PyObject *block_size, size_t *n) {
    if (!block_size) return 0;
    long long v;
    int overflow;
    if (jj_count_arg(fn, "block_size", block_size, 0, &v, &overflow) < 0) return -1;
    *n = overflow || (unsigned long long)v > SIZE_MAX ? SIZE_MAX : (size_t)v;
    return 0;
}
