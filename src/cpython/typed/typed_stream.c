/* type= on streams (loads_many, map_many, load_many_file, Decoder.feed): every document
 * of a stream built as one compiled type, straight from its tape as loads(type=) builds
 * a lone document. A validation error names the document's number as the first step of
 * its path ("$[3].owner.id"), as msgspec's Decoder.decode_lines says it; documents come
 * from the stream iterator of streams/many.c, which calls these from many_docs.c. */
#include "streams/many.h"
#include "typed.h"

/* typed_flags bit: the type reads a Decimal somewhere */
#define JT_STREAM_DECIMAL (1 << 8)

PyObject *jj_typed_stream_document(jj_many_iter *it, jj_parser *p, const uint8_t *input, size_t len,
                                   int lazy_tape) {
    if (!lazy_tape && it->typed_flags & JT_STREAM_DECIMAL) {
        /* a full tape (json_seq's records, a document read again after a refusal) holds
         * numbers as doubles: parsed again lazily, a Decimal reads its own digits */
        jj_error err = jj_parse_lazy(it->doc_parser, input, len);
        if (err == JJ_ERR_NOMEM) return PyErr_NoMemory();
        if (err == JJ_OK) p = it->doc_parser; /* else (never: p read it) p's tape as it is */
    }
    if (jj_depth_check(jj_parser_result(p)) < 0) return NULL;
    const jj_tnode *root = jj_typed_plan_get(it->typed_plan)->nodes[0];
    return jj_typed_build(it->st, p, input, len, root, it->typed_flags & ~JT_STREAM_DECIMAL, it->typed_index++);
}

PyObject *jj_typed_stream_object(jj_many_iter *it, PyObject *value) {
    const jj_tnode *root = jj_typed_plan_get(it->typed_plan)->nodes[0];
    PyObject *result = jj_typed_from_object(it->st, root, value, it->typed_flags, it->typed_index++);
    Py_DECREF(value);
    return result;
}

int jj_typed_stream_attach(jj_state *st, PyObject *stream, PyObject *plan, int flags) {
    if (!st->many_type || !Py_IS_TYPE(stream, (PyTypeObject *)st->many_type)) {
        PyErr_Format(PyExc_TypeError, "expected a jetjson stream, not %.200s", Py_TYPE(stream)->tp_name);
        return -1;
    }
    jj_many_iter *it = (jj_many_iter *)stream;
    if (it->typed_plan || it->lazy || it->fields || it->window_open || it->pos || it->count) {
        PyErr_SetString(PyExc_ValueError, "a type is given to a new stream without fields= or lazy=");
        return -1;
    }
    it->typed_plan = Py_NewRef(plan);
    it->typed_flags = flags;
    jj_tplan *compiled = jj_typed_plan_get(plan);
    for (Py_ssize_t i = 0; i < compiled->count; i++) {
        if (compiled->nodes[i]->decimal) it->typed_flags |= JT_STREAM_DECIMAL;
    }
    /* each document is parsed alone, lazily: what the type skips is never converted, and
     * a Decimal reads a number's own digits */
    it->spans = 1;
    return 0;
}
