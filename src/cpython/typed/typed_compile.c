/* Compiling a type for loads(type=): typing introspection (get_origin, get_args,
 * get_type_hints, dataclasses.fields) runs here, once per type, so that the decoder
 * never calls into Python except to construct instances and run __post_init__. */
#include <string.h>

#include "typed_compiler.h"

/* Plans live in unnamed capsules that never leave the module (the cache, Decoder,
 * typed streams): a named one would cost a strcmp on every call's lookup. */
#define JT_PLAN_CAPSULE NULL

/* ---- the objects compared against, fetched on first use (per interpreter) ---- */

static int jt_env_put(PyObject *env, const char *key, const char *module, const char *attr) {
    PyObject *mod = PyImport_ImportModule(module);
    if (!mod) return -1;
    PyObject *v = PyObject_GetAttrString(mod, attr);
    Py_DECREF(mod);
    if (!v) return -1;
    int rc = PyDict_SetItemString(env, key, v);
    Py_DECREF(v);
    return rc;
}

static PyObject *jt_env(jj_state *st) {
    if (st->typed_env) return st->typed_env;
    static const char *const names[][3] = {
        {"Any", "typing", "Any"},
        {"Union", "typing", "Union"},
        {"UnionType", "types", "UnionType"},
        {"Literal", "typing", "Literal"},
        {"Annotated", "typing", "Annotated"},
        {"Required", "typing", "Required"},
        {"NotRequired", "typing", "NotRequired"},
        {"get_type_hints", "typing", "get_type_hints"},
        {"get_origin", "typing", "get_origin"},
        {"get_args", "typing", "get_args"},
        {"fields", "dataclasses", "fields"},
        {"MISSING", "dataclasses", "MISSING"},
        {"Enum", "enum", "Enum"},
        {"Sequence", "collections.abc", "Sequence"},
        {"MutableSequence", "collections.abc", "MutableSequence"},
        {"Collection", "collections.abc", "Collection"},
        {"Iterable", "collections.abc", "Iterable"},
        {"Tuple", "typing", "Tuple"},
        {"Final", "typing", "Final"},
        {"TypeVar", "typing", "TypeVar"},
        {"Set", "collections.abc", "Set"},
        {"MutableSet", "collections.abc", "MutableSet"},
        {"Mapping", "collections.abc", "Mapping"},
        {"MutableMapping", "collections.abc", "MutableMapping"},
        {"datetime", "datetime", "datetime"},
        {"date", "datetime", "date"},
        {"time", "datetime", "time"},
        {"timezone", "datetime", "timezone"},
        {"timedelta", "datetime", "timedelta"},
        {"UUID", "uuid", "UUID"},
        {"SafeUUID", "uuid", "SafeUUID"},
        {"Decimal", "decimal", "Decimal"},
    };
    PyObject *env = PyDict_New();
    if (!env) return NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (jt_env_put(env, names[i][0], names[i][1], names[i][2]) < 0) {
            Py_DECREF(env);
            return NULL;
        }
    }
    /* typing_extensions' own Required/NotRequired (older versions) when it is there */
    PyObject *te = PyImport_ImportModule("typing_extensions");
    if (te) {
        PyObject *r = PyObject_GetAttrString(te, "Required");
        PyObject *nr = PyObject_GetAttrString(te, "NotRequired");
        if (r && nr) {
            PyDict_SetItemString(env, "te_Required", r);
            PyDict_SetItemString(env, "te_NotRequired", nr);
        }
        Py_XDECREF(r);
        Py_XDECREF(nr);
        Py_DECREF(te);
    }
    PyErr_Clear();
    st->typed_env = env;
    return env;
}

int jj_tis(PyObject *env, PyObject *obj, const char *name) {
    PyObject *v = PyDict_GetItemString(env, name);
    return v != NULL && v == obj;
}

/* ---- plans ---- */

static void jt_node_free(jj_tnode *n) {
    for (int i = 0; i < 4; i++) Py_XDECREF(n->objs[i]);
    Py_XDECREF(n->str_map);
    Py_XDECREF(n->int_map);
    Py_XDECREF(n->cls);
    Py_XDECREF(n->no_args);
    for (Py_ssize_t i = 0; i < n->nfields; i++) {
        Py_XDECREF(n->fields[i].name);
        Py_XDECREF(n->fields[i].key);
        Py_XDECREF(n->fields[i].dflt);
        Py_XDECREF(n->fields[i].factory);
    }
    PyMem_Free(n->fields);
    PyMem_Free(n->items);
    PyMem_Free(n);
}

static void jt_plan_destroy(PyObject *capsule) {
    jj_tplan *plan = PyCapsule_GetPointer(capsule, JT_PLAN_CAPSULE);
    if (!plan) return;
    for (Py_ssize_t i = 0; i < plan->count; i++) jt_node_free(plan->nodes[i]);
    PyMem_Free(plan->nodes);
    Py_XDECREF(plan->type);
    PyMem_Free(plan);
}

jj_tplan *jj_typed_plan_get(PyObject *capsule) { return PyCapsule_GetPointer(capsule, JT_PLAN_CAPSULE); }


jj_tnode *jj_tnew_node(jj_tcompiler *c, unsigned kinds) {
    jj_tplan *plan = c->plan;
    if (plan->count == plan->cap) {
        Py_ssize_t cap = plan->cap ? plan->cap * 2 : 8;
        jj_tnode **nodes = PyMem_Realloc(plan->nodes, (size_t)cap * sizeof *nodes);
        if (!nodes) {
            PyErr_NoMemory();
            return NULL;
        }
        plan->nodes = nodes;
        plan->cap = cap;
    }
    jj_tnode *n = PyMem_Calloc(1, sizeof *n);
    if (!n) {
        PyErr_NoMemory();
        return NULL;
    }
    n->kinds = kinds;
    n->str_name = "str";
    n->arr = n->obj = n;
    n->compiled = 1;
    plan->nodes[plan->count++] = n;
    return n;
}


PyObject *jj_tcall1(PyObject *env, const char *fn, PyObject *arg) {
    PyObject *f = PyDict_GetItemString(env, fn);
    return f ? PyObject_CallOneArg(f, arg) : NULL;
}

static jj_tnode *jt_unsupported(PyObject *t) {
    if (!PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "Type '%R' is not supported", t);
    return NULL;
}

static jj_tnode *jt_container(jj_tcompiler *c, unsigned kind, PyObject *item_type) {
    jj_tnode *item = jj_tcompile(c, item_type);
    if (!item) return NULL;
    jj_tnode *n = jj_tnew_node(c, JT_ARRAY);
    if (!n) return NULL;
    n->array_kind = (int)kind;
    n->item = item;
    return n;
}

static jj_tnode *jt_dict(jj_tcompiler *c, PyObject *key_type, PyObject *value_type) {
    jj_tnode *key = jj_tcompile(c, key_type);
    if (!key) return NULL;
    /* keys are JSON strings: a str (or Literal/enum of str) as is, an int (or
     * Literal/enum of int) from its decimal digits */
    if ((key->kinds & ~(JT_STR | JT_INT | JT_ANY)) || (key->kinds & JT_STR && key->kinds & JT_INT)) {
        PyErr_Format(PyExc_TypeError, "Only dicts with str-like or int-like keys are supported - type `%R` is not supported", key_type);
        return NULL;
    }
    jj_tnode *value = jj_tcompile(c, value_type);
    if (!value) return NULL;
    jj_tnode *n = jj_tnew_node(c, JT_OBJECT);
    if (!n) return NULL;
    n->object_kind = JT_DICT;
    n->key = key;
    n->item = value;
    return n;
}

/* a dict value -> value map entry, made on demand */
static int jt_map_add(PyObject **map, PyObject *key, PyObject *value) {
    if (!*map && !(*map = PyDict_New())) return -1;
    return PyDict_SetItem(*map, key, value);
}

static jj_tnode *jt_literal(jj_tcompiler *c, PyObject *t, PyObject *args) {
    jj_tnode *n = jj_tnew_node(c, 0);
    if (!n) return NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
        PyObject *v = PyTuple_GET_ITEM(args, i);
        int rc = 0;
        if (v == Py_None) n->kinds |= JT_NULL;
        else if (v == Py_True) n->kinds |= JT_TRUE;
        else if (v == Py_False) n->kinds |= JT_FALSE;
        else if (PyLong_CheckExact(v)) rc = jt_map_add(&n->int_map, v, v), n->kinds |= JT_INT;
        else if (PyUnicode_CheckExact(v)) rc = jt_map_add(&n->str_map, v, v), n->kinds |= JT_STR;
        else return jt_unsupported(t);
        if (rc < 0) return NULL;
    }
    n->int_kind = n->str_kind = JT_LOOKUP;
    return n;
}

static jj_tnode *jt_enum(jj_tcompiler *c, PyObject *cls) {
    jj_tnode *n = jj_tnew_node(c, 0);
    if (!n) return NULL;
    n->int_kind = n->str_kind = JT_LOOKUP;
    PyObject *members = PyObject_GetAttrString(cls, "__members__");
    PyObject *values = members ? PyMapping_Values(members) : NULL;
    Py_XDECREF(members);
    if (!values) return NULL;
    jj_tnode *result = n;
    for (Py_ssize_t i = 0; result && i < PyList_GET_SIZE(values); i++) {
        PyObject *m = PyList_GET_ITEM(values, i);
        PyObject *v = PyObject_GetAttrString(m, "value");
        int rc = -1;
        if (v && PyLong_Check(v) && !PyBool_Check(v)) {
            PyObject *k = PyNumber_Long(v); /* the plain int a JSON number becomes */
            rc = k ? jt_map_add(&n->int_map, k, m) : -1;
            Py_XDECREF(k);
            n->kinds |= JT_INT;
        } else if (v && PyUnicode_Check(v)) {
            PyObject *k = PyObject_Str(v);
            rc = k ? jt_map_add(&n->str_map, k, m) : -1;
            Py_XDECREF(k);
            n->kinds |= JT_STR;
        } else if (v) {
            PyErr_Format(PyExc_TypeError, "Enums must contain either all str or all int values - type `%R` is not supported", cls);
        }
        Py_XDECREF(v);
        if (rc < 0) result = NULL;
    }
    Py_DECREF(values);
    return result;
}

int jj_tremember(jj_tcompiler *c, PyObject *cls, jj_tnode *n) {
    PyObject *addr = PyLong_FromVoidPtr(n);
    int rc = addr ? PyDict_SetItem(c->memo, cls, addr) : -1;
    Py_XDECREF(addr);
    return rc;
}


/* Merges the member m into the union u: one member per JSON kind. */
static int jt_union_add(jj_tnode *u, const jj_tnode *m, PyObject *t) {
    const char *clash = NULL;
    if (!m->compiled && m->kinds == 0) { /* an alias still being compiled: u is inside it */
        PyErr_Format(PyExc_TypeError, "Type unions may not contain themselves - type `%R` is not supported", t);
        return -1;
    }
    /* msgspec's wording */
    if (m->kinds & JT_INT && u->kinds & JT_INT) {
        if (u->int_kind == JT_LOOKUP && m->int_kind == JT_LOOKUP && m->int_map)
            return PyDict_Update(u->int_map, m->int_map);
        clash = "int-like type (`int`, `Enum`, `Literal[int values]`)";
    }
    if (m->kinds & JT_STR && u->kinds & JT_STR) {
        if (u->str_kind == JT_LOOKUP && m->str_kind == JT_LOOKUP && m->str_map)
            return PyDict_Update(u->str_map, m->str_map);
        clash = "str-like type (`str`, `Enum`, `Literal[str values]`, `datetime`, `date`, `time`, `timedelta`, "
                "`uuid`, `decimal`, `bytes`, `bytearray`)";
    }
    if (m->kinds & JT_ARRAY && u->kinds & JT_ARRAY) clash = "array-like (list, set, tuple) type";
    if (m->kinds & JT_OBJECT && u->kinds & JT_OBJECT) clash = "dict-like type (`Struct`, `dict`, `TypedDict`, `dataclass`)";
    if (clash) {
        PyErr_Format(PyExc_TypeError, "Type unions may not contain more than one %s - type `%R` is not supported",
                     clash, t);
        return -1;
    }
    if (m->kinds & JT_INT) {
        u->int_kind = m->int_kind;
        if (m->int_map && !(u->int_map = PyDict_Copy(m->int_map))) return -1;
    }
    if (m->kinds & JT_STR) {
        u->str_kind = m->str_kind;
        u->str_name = m->str_name;
        u->decimal = m->decimal;
        for (int i = 0; i < 4; i++) u->objs[i] = Py_XNewRef(m->objs[i]);
        if (m->str_map && !(u->str_map = PyDict_Copy(m->str_map))) return -1;
    }
    if (m->kinds & JT_ARRAY) u->arr = m->arr;
    if (m->kinds & JT_OBJECT) u->obj = m->obj;
    /* each member's constraints come with the kinds it brings */
    unsigned take = (m->kinds & JT_INT ? JT_C_INT_ALL : 0) | (m->kinds & JT_FLOAT ? JT_C_FLT_ALL : 0) |
                    (m->kinds & JT_STR ? JT_C_STR_MIN | JT_C_STR_MAX : 0) |
                    (m->kinds & JT_ARRAY ? JT_C_ARR_MIN | JT_C_ARR_MAX : 0) |
                    (m->kinds & JT_OBJECT ? JT_C_OBJ_MIN | JT_C_OBJ_MAX : 0);
    if (m->cons & take) {
        u->cons |= m->cons & take;
        if (take & JT_C_INT_ALL) u->int_ge = m->int_ge, u->int_le = m->int_le, u->int_mult = m->int_mult;
        if (take & JT_C_FLT_ALL) memcpy(u->flt, m->flt, sizeof u->flt);
        memcpy(u->len_bounds, m->len_bounds, sizeof u->len_bounds);
    }
    u->kinds |= m->kinds;
    return 0;
}

static jj_tnode *jt_union(jj_tcompiler *c, PyObject *t, PyObject *args) {
    jj_tnode *u = jj_tnew_node(c, 0);
    if (!u) return NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
        jj_tnode *m = jj_tcompile(c, PyTuple_GET_ITEM(args, i));
        if (!m) return NULL;
        if (m->kinds & JT_ANY) return m;
        if (jt_union_add(u, m, t) < 0) return NULL;
    }
    return u;
}

static int jt_is_alias(PyObject *t) {
    return strcmp(Py_TYPE(t)->tp_name, "typing.TypeAliasType") == 0 || strcmp(Py_TYPE(t)->tp_name, "TypeAliasType") == 0;
}

static jj_tnode *jt_alias(jj_tcompiler *c, PyObject *t, PyObject *key, PyObject *scope);

/* Pair[int] where type Pair[T] = ...: the alias's value with T bound, remembered per
 * bindings (type Tree[T] = T | list[Tree[T]] compiles once per Tree[int]). */
static jj_tnode *jt_generic_alias(jj_tcompiler *c, PyObject *t, PyObject *alias, PyObject *args) {
    PyObject *params = PyObject_GetAttrString(alias, "__type_params__");
    PyObject *typevar = PyDict_GetItemString(c->env, "TypeVar");
    PyObject *scope = params ? jj_typed_bind_scope(params, args, c->subst, typevar) : NULL;
    Py_XDECREF(params);
    if (!scope) return NULL;
    PyObject *key = jj_tclass_key(alias, scope);
    jj_tnode *n = jt_alias(c, alias, key ? key : t, scope);
    Py_XDECREF(key);
    Py_DECREF(scope);
    return n;
}

static jj_tnode *jt_generic(jj_tcompiler *c, PyObject *t, PyObject *origin, PyObject *args) {
    PyObject *env = c->env;
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    PyObject *any = PyDict_GetItemString(env, "Any");
    PyObject *a0 = nargs > 0 ? PyTuple_GET_ITEM(args, 0) : any;
    if (jj_tis(env, origin, "Annotated")) {
        jj_tnode *m = jj_tcompile(c, a0);
        PyObject *meta = m ? PyTuple_GetSlice(args, 1, nargs) : NULL;
        int has = meta ? jj_typed_has_constraints(meta) : -1;
        jj_tnode *u = has > 0 ? jj_tnew_node(c, 0) : NULL;
        if (has == 0) u = m;
        else if (u && (jt_union_add(u, m, t) < 0 || jj_typed_constrain(u, meta, t) < 0)) u = NULL;
        Py_XDECREF(meta);
        return u;
    }
    if (jj_tis(env, origin, "Required") || jj_tis(env, origin, "NotRequired") || jj_tis(env, origin, "Final"))
        return jj_tcompile(c, a0);
    if (jj_tis(env, origin, "Union") || jj_tis(env, origin, "UnionType")) return jt_union(c, t, args);
    if (jj_tis(env, origin, "Literal")) return jt_literal(c, t, args);
    if (origin == (PyObject *)&PyList_Type || jj_tis(env, origin, "Sequence") ||
        jj_tis(env, origin, "MutableSequence") || jj_tis(env, origin, "Collection") || jj_tis(env, origin, "Iterable"))
        return jt_container(c, JT_LIST, a0);
    if (origin == (PyObject *)&PySet_Type || jj_tis(env, origin, "Set") || jj_tis(env, origin, "MutableSet"))
        return jt_container(c, JT_SET, a0);
    if (origin == (PyObject *)&PyFrozenSet_Type) return jt_container(c, JT_FROZENSET, a0);
    if (origin == (PyObject *)&PyDict_Type || jj_tis(env, origin, "Mapping") || jj_tis(env, origin, "MutableMapping"))
        return jt_dict(c, a0, nargs > 1 ? PyTuple_GET_ITEM(args, 1) : any);
    if (origin == (PyObject *)&PyTuple_Type) {
        if (nargs == 2 && PyTuple_GET_ITEM(args, 1) == Py_Ellipsis) return jt_container(c, JT_VARTUPLE, a0);
        jj_tnode *n = jj_tnew_node(c, JT_ARRAY);
        if (!n) return NULL;
        n->array_kind = JT_TUPLE;
        n->items = PyMem_Calloc((size_t)(nargs ? nargs : 1), sizeof *n->items);
        if (!n->items) {
            PyErr_NoMemory();
            return NULL;
        }
        n->nitems = n->nrequired = nargs;
        for (Py_ssize_t i = 0; i < nargs; i++) {
            if (!(n->items[i] = jj_tcompile(c, PyTuple_GET_ITEM(args, i)))) return NULL;
        }
        return n;
    }
    if (jt_is_alias(origin)) return jt_generic_alias(c, t, origin, args);
    int kind = jj_tclass_kind(origin); /* Box[int], Box a generic dataclass */
    if (kind) return jj_tclass(c, origin, kind, args);
    return jt_unsupported(t);
}

/* datetime, date, time, UUID, Decimal, bytes, bytearray: strings of a given form. NULL
 * without an exception for another type. */
static jj_tnode *jt_str_like(jj_tcompiler *c, PyObject *t) {
    static const struct {
        const char *env, *name;
        int kind;
    } table[] = {
        {"datetime", "datetime", JT_DATETIME}, {"date", "date", JT_DATE}, {"time", "time", JT_TIME},
        {"UUID", "uuid", JT_UUID},             {"Decimal", "decimal", JT_DECIMAL},
    };
    int kind = 0;
    const char *name = NULL;
    if (t == (PyObject *)&PyBytes_Type) kind = JT_BYTES, name = "bytes";
    else if (t == (PyObject *)&PyByteArray_Type) kind = JT_BYTEARRAY, name = "bytes";
    for (size_t i = 0; !kind && i < sizeof table / sizeof table[0]; i++) {
        if (jj_tis(c->env, t, table[i].env)) kind = table[i].kind, name = table[i].name;
    }
    if (!kind) return NULL;
    jj_tnode *n = jj_tnew_node(c, kind == JT_DECIMAL ? JT_STR | JT_INT | JT_FLOAT : JT_STR);
    if (!n) return NULL;
    n->str_kind = (unsigned char)kind;
    n->str_name = name;
    n->decimal = kind == JT_DECIMAL;
    n->objs[0] = Py_NewRef(t);
    if (kind == JT_DATETIME || kind == JT_TIME) {
        PyObject *tz = PyDict_GetItemString(c->env, "timezone");
        n->objs[1] = PyObject_GetAttrString(tz, "utc");
        n->objs[2] = Py_NewRef(tz);
        n->objs[3] = Py_NewRef(PyDict_GetItemString(c->env, "timedelta"));
        if (!n->objs[1]) return NULL;
    } else if (kind == JT_UUID) {
        PyObject *safe = PyDict_GetItemString(c->env, "SafeUUID");
        n->objs[1] = PyObject_GetAttrString(safe, "unknown");
        n->objs[2] = PyUnicode_InternFromString("int");
        n->objs[3] = PyUnicode_InternFromString("is_safe");
        if (!n->objs[1] || !n->objs[2] || !n->objs[3]) return NULL;
    }
    return n;
}

/* A `type` alias (PEP 695): its node is remembered before its value is compiled, so
 * that the value may name the alias again inside a container (type J = list[J] | int);
 * until then it is empty and marked in progress, which is how a union that contains
 * itself (type A = int | A) is told. */
static jj_tnode *jt_alias(jj_tcompiler *c, PyObject *t, PyObject *key, PyObject *scope) {
    PyObject *known = PyDict_GetItemWithError(c->memo, key);
    if (known) return PyLong_AsVoidPtr(known);
    if (PyErr_Occurred()) return NULL;
    jj_tnode *u = jj_tnew_node(c, 0);
    if (!u || jj_tremember(c, key, u) < 0) return NULL;
    u->compiled = 0;
    PyObject *v = PyObject_GetAttrString(t, "__value__");
    PyObject *outer = c->subst;
    c->subst = scope && PyDict_GET_SIZE(scope) ? scope : NULL; /* type Pair[T] = ...: T as given */
    jj_tnode *m = v ? jj_tcompile(c, v) : NULL;
    c->subst = outer;
    Py_XDECREF(v);
    if (!m || jt_union_add(u, m, t) < 0) return NULL;
    u->compiled = 1;
    return u;
}

static jj_tnode *jt_compile_inner(jj_tcompiler *c, PyObject *t) {
    PyObject *env = c->env;
    if (t == Py_None || t == (PyObject *)Py_TYPE(Py_None)) return jj_tnew_node(c, JT_NULL);
    if (t == (PyObject *)&PyBaseObject_Type || jj_tis(env, t, "Any")) return jj_tnew_node(c, JT_ANY);
    if (t == (PyObject *)&PyLong_Type) return jj_tnew_node(c, JT_INT);
    if (t == (PyObject *)&PyFloat_Type) return jj_tnew_node(c, JT_FLOAT);
    if (t == (PyObject *)&PyUnicode_Type) return jj_tnew_node(c, JT_STR);
    if (t == (PyObject *)&PyBool_Type) return jj_tnew_node(c, JT_TRUE | JT_FALSE);
    PyObject *any = PyDict_GetItemString(env, "Any");
    if (t == (PyObject *)&PyList_Type || jj_tis(env, t, "Sequence") || jj_tis(env, t, "MutableSequence") ||
        jj_tis(env, t, "Collection"))
        return jt_container(c, JT_LIST, any);
    if (t == (PyObject *)&PyTuple_Type || jj_tis(env, t, "Tuple")) return jt_container(c, JT_VARTUPLE, any);
    /* a TypeVar left unbound: its bound, else anything */
    PyObject *typevar = PyDict_GetItemString(env, "TypeVar");
    if (typevar && Py_TYPE(t) == (PyTypeObject *)typevar) {
        PyObject *bound_to = c->subst ? PyDict_GetItemWithError(c->subst, t) : NULL;
        if (bound_to) { /* given to the generic class: read where it was written */
            PyObject *scope = c->subst;
            c->subst = NULL;
            jj_tnode *n = jj_tcompile(c, bound_to);
            c->subst = scope;
            return n;
        }
        if (PyErr_Occurred()) return NULL;
        PyObject *bound = PyObject_GetAttrString(t, "__bound__");
        if (!bound) return NULL;
        jj_tnode *n = bound == Py_None ? jj_tnew_node(c, JT_ANY) : jj_tcompile(c, bound);
        Py_DECREF(bound);
        return n;
    }
    if (t == (PyObject *)&PySet_Type || jj_tis(env, t, "Set") || jj_tis(env, t, "MutableSet"))
        return jt_container(c, JT_SET, any);
    if (t == (PyObject *)&PyFrozenSet_Type) return jt_container(c, JT_FROZENSET, any);
    if (t == (PyObject *)&PyDict_Type || jj_tis(env, t, "Mapping") || jj_tis(env, t, "MutableMapping"))
        return jt_dict(c, any, any);

    PyObject *origin = jj_tcall1(env, "get_origin", t);
    if (!origin) return NULL;
    if (origin != Py_None) {
        PyObject *args = jj_tcall1(env, "get_args", t);
        jj_tnode *n = args ? jt_generic(c, t, origin, args) : NULL;
        Py_XDECREF(args);
        Py_DECREF(origin);
        return n;
    }
    Py_DECREF(origin);
    /* NewType and PEP 695 aliases: what they stand for */
    if (PyObject_HasAttrString(t, "__supertype__") && !PyType_Check(t)) {
        PyObject *s = PyObject_GetAttrString(t, "__supertype__");
        jj_tnode *n = s ? jj_tcompile(c, s) : NULL;
        Py_XDECREF(s);
        return n;
    }
    if (jt_is_alias(t)) return jt_alias(c, t, t, NULL);
    if (!PyType_Check(t)) return jt_unsupported(t);
    jj_tnode *str_like = jt_str_like(c, t);
    if (str_like || PyErr_Occurred()) return str_like;
    PyObject *enum_base = PyDict_GetItemString(env, "Enum");
    int is_enum = enum_base ? PyObject_IsSubclass(t, enum_base) : 0;
    if (is_enum < 0) return NULL;
    if (is_enum) return jt_enum(c, t);
    int kind = jj_tclass_kind(t);
    if (kind) return jj_tclass(c, t, kind, NULL);
    return jt_unsupported(t);
}

jj_tnode *jj_tcompile(jj_tcompiler *c, PyObject *t) {
    if (Py_EnterRecursiveCall(" while compiling a type for jetjson")) return NULL;
    jj_tnode *n = jt_compile_inner(c, t);
    Py_LeaveRecursiveCall();
    return n;
}

static PyObject *jt_plan_new(jj_state *st, PyObject *type, PyObject *rename) {
    PyObject *env = jt_env(st);
    if (!env) return NULL;
    jj_tplan *plan = PyMem_Calloc(1, sizeof *plan);
    if (!plan) return PyErr_NoMemory();
    plan->type = Py_NewRef(type);
    PyObject *capsule = PyCapsule_New(plan, JT_PLAN_CAPSULE, jt_plan_destroy);
    if (!capsule) {
        Py_DECREF(plan->type);
        PyMem_Free(plan);
        return NULL;
    }
    jj_tcompiler c = {st, env, plan, PyDict_New(), rename, NULL};
    jj_tnode *root = c.memo ? jj_tcompile(&c, type) : NULL;
    Py_XDECREF(c.memo);
    if (!root) {
        Py_DECREF(capsule);
        return NULL;
    }
    /* the root first, where the decoder looks for it */
    for (Py_ssize_t i = 0; i < plan->count; i++) {
        if (plan->nodes[i] == root) {
            plan->nodes[i] = plan->nodes[0];
            plan->nodes[0] = root;
            break;
        }
    }
    return capsule;
}

PyObject *jj_typed_plan(jj_state *st, PyObject *type, PyObject *rename) {
    if (rename == Py_None) rename = NULL;
    if (!rename && type == st->typed_last_type) return Py_NewRef(st->typed_last_plan);
    if (rename && jj_typed_rename_check(rename) < 0) return NULL;
    if (!st->typed_cache && !(st->typed_cache = PyDict_New())) return NULL;
    /* a renamed plan is kept under (type, rename); one with a dict compiled each time */
    if (rename && PyObject_Hash(rename) == -1) {
        PyErr_Clear();
        return jt_plan_new(st, type, rename);
    }
    PyObject *key = rename ? PyTuple_Pack(2, type, rename) : Py_NewRef(type);
    if (!key) return NULL;
    PyObject *plan = PyDict_GetItemWithError(st->typed_cache, key);
    if (plan) {
        Py_DECREF(key);
        if (!rename) {
            Py_XSETREF(st->typed_last_type, Py_NewRef(type));
            Py_XSETREF(st->typed_last_plan, Py_NewRef(plan));
        }
        return Py_NewRef(plan);
    }
    int hashable = !PyErr_Occurred();
    PyErr_Clear();
    plan = jt_plan_new(st, type, rename);
    if (plan && hashable) {
        if (PyDict_GET_SIZE(st->typed_cache) >= JJ_TYPED_CACHE_MAX) PyDict_Clear(st->typed_cache);
        if (PyDict_SetItem(st->typed_cache, key, plan) < 0) Py_CLEAR(plan);
    }
    Py_DECREF(key);
    return plan;
}
