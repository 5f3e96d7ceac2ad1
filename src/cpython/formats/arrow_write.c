/* jetjson.dumpb_arrow: Arrow data to NDJSON bytes through the engine
 * (jetjson_arrow_write.h), from any object of the Arrow PyCapsule interface: one with
 * __arrow_c_stream__ (a pyarrow Table or RecordBatchReader, a polars DataFrame...) or
 * __arrow_c_array__ (a RecordBatch, a StructArray). No Python object is made from the
 * data; the GIL is released while a batch is written.
 *
 * Ownership: the C structs are moved out of their capsules at once (the capsule keeps a
 * released struct, which its destructor leaves alone), so each is released exactly once,
 * here, on every path. The producer's callbacks (get_schema, get_next, release) run with
 * the GIL held: a producer backed by Python code needs it. */
#include <unistd.h>

#include "format_args.h"
#include "request.h"

#include "jetjson_arrow_write.h"
#include "writer.h"

/* ---- errors ---- */

static void aw_raise(const jj_aw_status *st, int64_t first_row) {
    if (PyErr_Occurred()) return; /* a failed resize said why */
    switch (st->error) {
    case JJ_AW_NOMEM: PyErr_NoMemory(); return;
    case JJ_AW_NOT_STRUCT:
        PyErr_Format(PyExc_ValueError,
                     "dumpb_arrow() writes record batches (an Arrow struct type), not Arrow format '%s'", st->format);
        return;
    case JJ_AW_UNSUPPORTED:
    case JJ_AW_BAD_FORMAT:
        PyErr_Format(PyExc_ValueError, "dumpb_arrow(): %s '%s' in field '%s'", jj_aw_error_name(st->error),
                     st->format, st->field);
        return;
    default:
        if (st->row >= 0)
            PyErr_Format(PyExc_ValueError, "dumpb_arrow(): %s in field '%s' (Arrow format '%s') at row %lld",
                         jj_aw_error_name(st->error), st->field, st->format, (long long)(first_row + st->row));
        else
            PyErr_Format(PyExc_ValueError, "dumpb_arrow(): %s in field '%s' (Arrow format '%s')",
                         jj_aw_error_name(st->error), st->field, st->format);
    }
}

/* ---- writing ---- */

typedef struct aw_job {
    jj_unlocked_writer out;
    jj_aw_plan *plan;
    int64_t rows;        /* rows written so far */
    unsigned flags;
    unsigned threads;    /* threads to write a batch's rows on */
    size_t block_size;   /* bytes of NDJSON in each of their parts */
} aw_job;

/* Compile the schema (then released). 0, or -1 with an exception. */
static int aw_job_plan(aw_job *job, struct ArrowSchema *schema) {
    jj_aw_status st;
    jj_aw_error err = jj_aw_plan_new(schema, job->flags, &job->plan, &st);
    if (schema->release) schema->release(schema);
    if (err) {
        aw_raise(&st, 0);
        return -1;
    }
    return 0;
}

/* Room for `rows` more rows at the mean size of the rows written so far (and a
 * sixteenth): with it the sink rarely grows, and growing a large buffer may copy it. */
static int aw_reserve_rows(aw_job *job, int64_t written_rows, int64_t rows) {
    if (written_rows <= 0 || rows <= 0) return 0;
    double guess = (double)jj_sink_len(&job->out.w) / (double)written_rows * (double)rows * 1.0625;
    if (guess >= (double)(PY_SSIZE_T_MAX / 4)) return 0;
    return jj_sink_reserve(&job->out.w, (size_t)guess);
}

/* The first rows of a stream, written to learn the size of a row. */
#define AW_SAMPLE_ROWS 256
/* With threads, a batch's rows are cut into parts of about block_size bytes of NDJSON
 * (by the mean row so far): a batch of fewer than two parts is written on one thread. */
#define AW_BLOCK_SIZE ((size_t)256 << 10)

/* Write one batch (then released), GIL released. 0, or -1 with an exception. */
static int aw_job_batch(aw_job *job, struct ArrowArray *batch) {
    jj_aw_status st;
    memset(&st, 0, sizeof st);
    jj_aw_error err = JJ_AW_OK;
    int64_t length = batch->length, done = 0;
    job->out.saved = PyEval_SaveThread();
    if (job->rows == 0) {
        /* threads cut the rest by the size of these rows too */
        done = length > 2 * AW_SAMPLE_ROWS ? AW_SAMPLE_ROWS : job->threads > 1 ? length / 4 : 0;
        if (done) err = jj_aw_write_rows(job->plan, batch, 0, done, &job->out.w, &st);
    }
    if (!err && aw_reserve_rows(job, job->rows + done, length - done)) err = st.error = JJ_AW_NOMEM;
    if (!err) {
        int64_t written = job->rows + done, per_part = 0;
        if (job->threads > 1 && written > 0) {
            size_t row_bytes = jj_sink_len(&job->out.w) / (size_t)written + 1;
            size_t rows = job->block_size / row_bytes + 1;
            per_part = rows > (size_t)INT64_MAX ? INT64_MAX : (int64_t)rows;
        }
        size_t hint = job->block_size < ((size_t)64 << 20) ? job->block_size + job->block_size / 4 : 0;
        err = jj_aw_write_rows_threads(job->plan, batch, done, length - done, job->threads, per_part, hint,
                                       &job->out.w, &st);
    }
    PyEval_RestoreThread(job->out.saved);
    job->out.saved = NULL;
    if (batch->release) batch->release(batch);
    if (err) {
        aw_raise(&st, job->rows);
        return -1;
    }
    job->rows += length;
    return 0;
}

/* The struct inside a capsule named `name`, or NULL with TypeError. The caller copies
 * it out and clears the capsule's `release` (moving the struct, as the spec allows). */
static void *aw_capsule_struct(PyObject *capsule, const char *name) {
    if (!PyCapsule_IsValid(capsule, name)) {
        PyErr_Format(PyExc_TypeError, "dumpb_arrow(): expected a PyCapsule named '%s', got %.100s", name,
                     Py_TYPE(capsule)->tp_name);
        return NULL;
    }
    return PyCapsule_GetPointer(capsule, name);
}

static int aw_write_stream(aw_job *job, PyObject *capsule) {
    struct ArrowArrayStream stream, *inner = aw_capsule_struct(capsule, "arrow_array_stream");
    if (!inner) return -1;
    stream = *inner;
    inner->release = NULL;
    int rc = -1;
    struct ArrowSchema schema;
    memset(&schema, 0, sizeof schema);
    int code = stream.get_schema(&stream, &schema);
    if (code != 0) {
        const char *why = stream.get_last_error ? stream.get_last_error(&stream) : NULL;
        PyErr_Format(PyExc_ValueError, "dumpb_arrow(): the Arrow stream gave no schema (error %d: %s)", code,
                     why ? why : "no message");
        goto done;
    }
    if (aw_job_plan(job, &schema) < 0) goto done;
    for (;;) {
        struct ArrowArray batch;
        memset(&batch, 0, sizeof batch);
        code = stream.get_next(&stream, &batch);
        if (code != 0) {
            const char *why = stream.get_last_error ? stream.get_last_error(&stream) : NULL;
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "dumpb_arrow(): the Arrow stream failed (error %d: %s)", code,
                             why ? why : "no message");
            goto done;
        }
        if (!batch.release) break; /* the end */
        if (aw_job_batch(job, &batch) < 0) goto done;
    }
    rc = 0;
done:
    if (stream.release) stream.release(&stream);
    return rc;
}

static int aw_write_array(aw_job *job, PyObject *pair) {
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_SetString(PyExc_TypeError, "dumpb_arrow(): __arrow_c_array__() must return a tuple of 2 capsules");
        return -1;
    }
    struct ArrowSchema *schema_in = aw_capsule_struct(PyTuple_GET_ITEM(pair, 0), "arrow_schema");
    struct ArrowArray *array_in = schema_in ? aw_capsule_struct(PyTuple_GET_ITEM(pair, 1), "arrow_array") : NULL;
    if (!array_in) return -1; /* both stay in their capsules, which release them */
    struct ArrowSchema schema = *schema_in;
    struct ArrowArray array = *array_in;
    schema_in->release = NULL;
    array_in->release = NULL;
    if (aw_job_plan(job, &schema) < 0) {
        if (array.release) array.release(&array);
        return -1;
    }
    return aw_job_batch(job, &array);
}

/* The result of obj.<name>() when obj has that attribute: 1 with *result, 0 when it
 * has not, -1 with an exception. */
static int aw_call_optional(PyObject *obj, const char *name, PyObject **result) {
    *result = NULL;
    PyObject *method = PyObject_GetAttrString(obj, name);
    if (!method) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError)) return -1;
        PyErr_Clear();
        return 0;
    }
    *result = PyObject_CallNoArgs(method);
    Py_DECREF(method);
    return *result ? 1 : -1;
}

/* threads: None or an int >= 0, None and 0 meaning one per processor (loads_arrow's
 * rule). 0, or -1 with an exception. */
static int aw_check_threads(PyObject *threads, unsigned *n) { return jj_format_threads("dumpb_arrow", threads, n); }

/* block_size: a positive int. 0, or -1 with an exception. */
static int aw_check_block_size(PyObject *block_size, size_t *n) {
    *n = AW_BLOCK_SIZE;
    return jj_format_block_size("dumpb_arrow", block_size, n);
}

PyObject *jj_py_dumpb_arrow(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames) {
    (void)module;
    int write_nulls = 1;
    PyObject *threads = NULL, *block_size = NULL;
    if (nargs != 1) {
        PyErr_Format(PyExc_TypeError, "dumpb_arrow() takes exactly 1 positional argument (%zd given)", nargs);
        return NULL;
    }
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i), *value = args[nargs + i];
        if (PyUnicode_CompareWithASCIIString(name, "write_nulls") == 0) {
            write_nulls = PyObject_IsTrue(value);
            if (write_nulls < 0) return NULL;
        } else if (PyUnicode_CompareWithASCIIString(name, "threads") == 0) {
            threads = value;
        } else if (PyUnicode_CompareWithASCIIString(name, "block_size") == 0) {
            block_size = value;
        } else {
            PyErr_Format(PyExc_TypeError, "dumpb_arrow() got an unexpected keyword argument '%U'", name);
            return NULL;
        }
    }
    unsigned n_threads;
    size_t n_block;
    if (aw_check_threads(threads, &n_threads) < 0 || aw_check_block_size(block_size, &n_block) < 0) return NULL;

    PyObject *data = args[0], *exported = NULL, *result = NULL;
    aw_job job;
    memset(&job, 0, sizeof job);
    job.flags = write_nulls ? 0 : JJ_AW_SKIP_NULLS;
    job.threads = n_threads;
    job.block_size = n_block;
    int is_stream = aw_call_optional(data, "__arrow_c_stream__", &exported);
    int is_array = 0;
    if (is_stream == 0) is_array = aw_call_optional(data, "__arrow_c_array__", &exported);
    if (is_stream < 0 || is_array < 0) goto done;
    if (!is_stream && !is_array) {
        PyErr_Format(PyExc_TypeError,
                     "dumpb_arrow() argument must have __arrow_c_stream__ or __arrow_c_array__ (Arrow data), not %.100s",
                     Py_TYPE(data)->tp_name);
        goto done;
    }
    if (jj_unlocked_writer_start(&job.out, 65536) < 0) goto done;
    if ((is_stream ? aw_write_stream(&job, exported) : aw_write_array(&job, exported)) < 0) goto done;
    result = jj_writer_finish(&job.out.w);
done:
    if (!result) jj_writer_abandon(&job.out.w);
    jj_aw_plan_free(job.plan);
    Py_XDECREF(exported);
    return result;
}
