/* json's nesting limit: how many nested containers json.loads, called where our caller
 * called us, accepts before its RecursionError, for loads (objects), valid, and the
 * engine's verdict on refused text. */
#include "state.h"

/* JJ_JSON_LEVELS, JJ_RECURSION_BUDGET and jj_json_depth_limit, and why they are what
 * they are: state.h. */

int jj_recursion_room(size_t depth, int meth_o) {
    long limit = jj_json_depth_limit(meth_o);
    if (limit >= 0) return depth <= (size_t)limit;
    /* unknown accounting: probe the counter json's scanner uses, with a margin */
    size_t entered = 0;
    int ok = 1;
    for (; entered < depth + JJ_RECURSION_MARGIN; entered++) {
        if (Py_EnterRecursiveCall(" while decoding a JSON document")) {
            PyErr_Clear();
            ok = 0;
            break;
        }
    }
    while (entered--) Py_LeaveRecursiveCall();
    return ok;
}

size_t jj_recursion_budget(int meth_o) {
    long limit = jj_json_depth_limit(meth_o);
    if (limit >= 0) return (size_t)limit;
    /* unknown accounting: what the counter allows, less the margin */
    size_t entered = 0;
    while (entered < ((size_t)1 << 24) && !Py_EnterRecursiveCall(" while decoding a JSON document")) entered++;
    if (PyErr_Occurred()) PyErr_Clear();
    for (size_t k = entered; k; k--) Py_LeaveRecursiveCall();
    return entered > JJ_RECURSION_MARGIN ? entered - JJ_RECURSION_MARGIN : 0;
}

/* The kind of the first container, in document order, at nesting `level` (1: the
 * root): the one json's scanner refuses. 0 when a long int comes first (json may
 * refuse that one before, for sys.get_int_max_str_digits: json must decide). */
static jj_type jj_first_container_at(const jj_doc *p, size_t level) {
    size_t depth = 0;
    for (size_t t = 0; t < p->tape_len;) {
        jj_type type = jj_tape_type(p->tape[t]);
        if (type == JJ_ARRAY || type == JJ_OBJECT) {
            if (++depth == level) return type;
            t += 2;
        } else if (type == JJ_END) {
            depth--;
            t++;
        } else if (type == JJ_BIGINT && p->tape[t + 1] > 640) { /* the lowest digit limit */
            return 0;
        } else {
            t = jj_tape_skip(p->tape, t);
        }
    }
    return 0;
}

/* For loads (a METH_FASTCALL entry): 1 when json.loads would have the recursion room
 * for the parsed document; -1 with json's own RecursionError raised when it would
 * not; 0 when json must decide. */
int jj_depth_check(const jj_doc *p) {
    long limit = jj_json_depth_limit(0);
    if (limit < 0) return jj_recursion_room(p->max_depth, 0);
    if (p->max_depth <= (size_t)limit) return 1;
    jj_type type = jj_first_container_at(p, (size_t)limit + 1);
    if (!type) return 0;
    PyErr_SetString(PyExc_RecursionError, type == JJ_OBJECT
                    ? "maximum recursion depth exceeded while decoding a JSON object from a unicode string"
                    : "maximum recursion depth exceeded while decoding a JSON array from a unicode string");
    return -1;
}

