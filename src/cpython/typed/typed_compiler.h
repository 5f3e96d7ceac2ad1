/* loads(type=)'s compiler, shared by typed_compile.c (types, unions, containers, the
 * plan and its cache) and typed_class.c (dataclasses, TypedDicts, NamedTuples). */
#ifndef JJ_TYPED_COMPILER_H
#define JJ_TYPED_COMPILER_H

#include "typed.h"

typedef struct jj_tcompiler {
    jj_state *st;
    PyObject *env;    /* typing/dataclasses/enum objects compared against (typed_compile.c) */
    jj_tplan *plan;
    PyObject *memo;   /* class, alias or (class, bindings) -> PyLong(node address): compiled in this plan */
    PyObject *rename; /* rename= (borrowed), or NULL */
    PyObject *subst;  /* the type variables of the generic class being compiled (borrowed), or NULL */
} jj_tcompiler;

/* typed_compile.c */
jj_tnode *jj_tcompile(jj_tcompiler *c, PyObject *t);
/* A new node of the plan accepting `kinds` (NULL with MemoryError). */
jj_tnode *jj_tnew_node(jj_tcompiler *c, unsigned kinds);
/* Remembers n as what `key` compiles to in this plan: 0 or -1. */
int jj_tremember(jj_tcompiler *c, PyObject *key, jj_tnode *n);
/* env[fn](arg) (get_origin, get_args, fields...): a new reference or NULL. */
PyObject *jj_tcall1(PyObject *env, const char *fn, PyObject *arg);
/* Whether obj is env[name]. */
int jj_tis(PyObject *env, PyObject *obj, const char *name);

/* typed_class.c: JT_DATACLASS, JT_TYPEDDICT or JT_NAMEDTUPLE for such a class, else 0;
 * the node of that class given args (a generic's, or NULL), one per bindings per plan;
 * the memo key of a class (or alias) compiled with a scope's bindings (NULL without an
 * exception when they cannot be hashed). */
int jj_tclass_kind(PyObject *t);
jj_tnode *jj_tclass(jj_tcompiler *c, PyObject *cls, int kind, PyObject *args);
PyObject *jj_tclass_key(PyObject *cls, PyObject *scope);

#endif
