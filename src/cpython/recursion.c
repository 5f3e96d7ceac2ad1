/* json's nesting limit: how many nested containers json.loads, called where our caller
 * called us, accepts before its RecursionError, for loads (objects), valid, and the
 * engine's verdict on refused text. */
#include "state.h"


/* json.loads refuses a document when its C scanner, which enters one recursion level
 * per container (Py_EnterRecursiveCall), runs out of the budget Python counts down.
 * Before its first container json spends a fixed number of levels of it: its three
 * Python frames (loads, decode, raw_decode) count on 3.11, only C-level entries from
 * 3.12. So json.loads, called where our caller called us, accepts exactly (budget seen
 * here - levels) nested containers, provided our own call did not count: see
 * jj_loads_vectorcall, which makes that so for loads from every Python call site.
 * valid is METH_O, a call the interpreter always counts: one level less. The levels
 * were found by binary search against json from many caller depths, in Python and
 * through C calls (tests/test_loads_depth.py checks them at the limit):
 *   3.11: 4 (valid: 3), 3.12: 1 (0), 3.13: 0 (-1).
 * From C code (map(jetjson.loads, ...)) json.loads itself costs one entry into the
 * interpreter more: exact on 3.11, where that is offset by the counted call; from
 * 3.12 json refuses two levels earlier there than jetjson does. */
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
#define JJ_JSON_LEVELS 4L
#define JJ_RECURSION_BUDGET() ((long)PyThreadState_Get()->recursion_remaining)
#elif PY_VERSION_HEX >= 0x030C0000 && PY_VERSION_HEX < 0x030D0000 && !defined(Py_GIL_DISABLED)
#define JJ_JSON_LEVELS 1L
#define JJ_RECURSION_BUDGET() ((long)PyThreadState_Get()->c_recursion_remaining)
#elif PY_VERSION_HEX >= 0x030D0000 && PY_VERSION_HEX < 0x030E0000 && !defined(Py_GIL_DISABLED)
#define JJ_JSON_LEVELS 0L
#define JJ_RECURSION_BUDGET() ((long)PyThreadState_Get()->c_recursion_remaining)
#endif

/* How many nested containers json.loads would accept, called where our caller called
 * us; -1 when this version's accounting is not known here. */
static long jj_json_depth_limit(int meth_o) {
#ifdef JJ_RECURSION_BUDGET
    long room = JJ_RECURSION_BUDGET() - (JJ_JSON_LEVELS - (meth_o != 0));
    return room < 0 ? -1 : room;
#else
    (void)meth_o;
    return -1;
#endif
}

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

