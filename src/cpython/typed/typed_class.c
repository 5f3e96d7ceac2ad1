/* Compiling dataclasses, TypedDicts and NamedTuples for loads(type=): their fields, the
 * names JSON gives them (rename=), their defaults and how __init__ sets them, and the
 * bindings of a generic one (typed_generic.c). */
#include "typed_compiler.h"

#include <structmember.h>
#include <string.h>

/* Required[T] / NotRequired[T] (TypedDict fields) -> T */
static PyObject *jt_strip_required(jj_tcompiler *c, PyObject *t) {
    for (;;) {
        PyObject *origin = jj_tcall1(c->env, "get_origin", t);
        if (!origin) return NULL;
        int wrapped = jj_tis(c->env, origin, "Required") || jj_tis(c->env, origin, "NotRequired") ||
                      jj_tis(c->env, origin, "te_Required") || jj_tis(c->env, origin, "te_NotRequired");
        Py_DECREF(origin);
        if (!wrapped) return Py_NewRef(t);
        PyObject *args = jj_tcall1(c->env, "get_args", t);
        if (!args) return NULL;
        t = PyTuple_GET_ITEM(args, 0);
        Py_INCREF(t);
        Py_DECREF(args);
        PyObject *r = jt_strip_required(c, t);
        Py_DECREF(t);
        return r;
    }
}

static int jt_field_init(jj_tfield *f, PyObject *name) {
    Py_INCREF(name);
    PyUnicode_InternInPlace(&name);
    f->name = name;
    f->key = Py_NewRef(name);
    Py_ssize_t len;
    f->utf8 = PyUnicode_AsUTF8AndSize(name, &len);
    f->len = (size_t)len;
    return f->utf8 ? 0 : -1;
}

static PyObject *jt_hints(jj_tcompiler *c, PyObject *cls) {
    PyObject *f = PyDict_GetItemString(c->env, "get_type_hints");
    if (!f) return NULL;
    PyObject *kw = Py_BuildValue("{s:O}", "include_extras", Py_True);
    if (!kw) return NULL;
    PyObject *args = PyTuple_Pack(1, cls);
    PyObject *hints = args ? PyObject_Call(f, args, kw) : NULL;
    Py_XDECREF(args);
    Py_DECREF(kw);
    return hints;
}

/* The fields held in writable object slots (__slots__) of a class whose instances take
 * attributes as object.__setattr__ sets them: their offsets, valid while the class keeps
 * the version tag read after looking them up (any change to the class or its bases
 * gives it another), so that decoding may store into the slot as the member's setter
 * would. */
static void jt_slot_offsets(jj_tnode *n) {
    PyTypeObject *cls = (PyTypeObject *)n->cls;
    if (!n->frozen && cls->tp_setattro != PyObject_GenericSetAttr) return;
    int any = 0;
    for (Py_ssize_t i = 0; i < n->nfields; i++) {
        PyObject *d = _PyType_Lookup(cls, n->fields[i].name); /* borrowed, never raises */
        if (!d || !Py_IS_TYPE(d, &PyMemberDescr_Type)) continue;
        const PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
        if (m->type != T_OBJECT_EX || (m->flags & READONLY) || m->offset <= 0) continue;
        n->fields[i].slot_offset = m->offset;
        any = 1;
    }
    n->slots_version = any ? cls->tp_version_tag : 0;
}

/* Whether n's class is one whose records may take the in-order walk now: made by
 * object.__new__ and set through the generic setter (itself, or object.__setattr__
 * when frozen), no field in a slot. */
int jj_tclass_in_order(jj_tnode *n, int remember) {
    PyTypeObject *cls = (PyTypeObject *)n->cls;
    int holds = n->object_kind == JT_DATACLASS && n->nfields && !n->slots_version &&
                cls->tp_new == PyBaseObject_Type.tp_new && (n->frozen || cls->tp_setattro == PyObject_GenericSetAttr);
    if (holds && remember && cls->tp_version_tag) n->in_order_version = cls->tp_version_tag;
    return holds;
}

static int jt_dataclass_fields(jj_tcompiler *c, jj_tnode *n, PyObject *cls) {
    int rc = -1;
    PyObject *hints = jt_hints(c, cls);
    PyObject *fields = hints ? jj_tcall1(c->env, "fields", cls) : NULL;
    PyObject *missing = PyDict_GetItemString(c->env, "MISSING");
    PyObject *params = fields ? PyObject_GetAttrString(cls, "__dataclass_params__") : NULL;
    PyObject *frozen = params ? PyObject_GetAttrString(params, "frozen") : NULL;
    if (!frozen) goto done;
    n->frozen = PyObject_IsTrue(frozen);
    n->post_init = PyObject_HasAttrString(cls, "__post_init__");
    PyObject *own = ((PyTypeObject *)cls)->tp_dict;
    n->slots = own && PyDict_GetItemString(own, "__slots__") != NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(fields);
    n->fields = PyMem_Calloc((size_t)(count ? count : 1), sizeof *n->fields);
    if (!n->fields) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *fld = PyTuple_GET_ITEM(fields, i);
        jj_tfield *f = &n->fields[i];
        n->nfields = i + 1;
        PyObject *name = PyObject_GetAttrString(fld, "name");
        if (!name || jt_field_init(f, name) < 0) {
            Py_XDECREF(name);
            goto done;
        }
        Py_DECREF(name);
        PyObject *type = PyDict_GetItemWithError(hints, f->name);
        PyObject *own = NULL;
        if (!type && !PyErr_Occurred()) type = own = PyObject_GetAttrString(fld, "type");
        f->type = type ? jj_tcompile(c, type) : NULL;
        Py_XDECREF(own);
        PyObject *dflt = PyObject_GetAttrString(fld, "default");
        PyObject *factory = dflt ? PyObject_GetAttrString(fld, "default_factory") : NULL;
        PyObject *init = factory ? PyObject_GetAttrString(fld, "init") : NULL;
        if (init) {
            f->dflt = dflt != missing ? Py_NewRef(dflt) : NULL;
            f->factory = factory != missing ? Py_NewRef(factory) : NULL;
            f->init = PyObject_IsTrue(init);
            f->required = f->init && !f->dflt && !f->factory;
        }
        Py_XDECREF(dflt);
        Py_XDECREF(factory);
        Py_XDECREF(init);
        if (!f->type || !init) goto done;
    }
    jt_slot_offsets(n);
    if (!n->slots_version && n->nfields) jj_tclass_in_order(n, 1);
    rc = 0;
done:
    Py_XDECREF(hints);
    Py_XDECREF(fields);
    Py_XDECREF(params);
    Py_XDECREF(frozen);
    return rc;
}

static int jt_typeddict_fields(jj_tcompiler *c, jj_tnode *n, PyObject *cls) {
    int rc = -1;
    PyObject *hints = jt_hints(c, cls);
    PyObject *required = hints ? PyObject_GetAttrString(cls, "__required_keys__") : NULL;
    PyObject *items = required ? PyDict_Items(hints) : NULL;
    if (!items) goto done;
    Py_ssize_t count = PyList_GET_SIZE(items);
    n->fields = PyMem_Calloc((size_t)(count ? count : 1), sizeof *n->fields);
    if (!n->fields) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *pair = PyList_GET_ITEM(items, i);
        jj_tfield *f = &n->fields[i];
        n->nfields = i + 1;
        if (jt_field_init(f, PyTuple_GET_ITEM(pair, 0)) < 0) goto done;
        PyObject *type = jt_strip_required(c, PyTuple_GET_ITEM(pair, 1));
        f->type = type ? jj_tcompile(c, type) : NULL;
        Py_XDECREF(type);
        if (!f->type) goto done;
        int req = PySequence_Contains(required, f->name);
        if (req < 0) goto done;
        f->required = req;
        f->init = 1;
    }
    rc = 0;
done:
    Py_XDECREF(hints);
    Py_XDECREF(required);
    Py_XDECREF(items);
    return rc;
}

static int jt_namedtuple_fields(jj_tcompiler *c, jj_tnode *n, PyObject *cls) {
    int rc = -1;
    PyObject *names = PyObject_GetAttrString(cls, "_fields");
    PyObject *defaults = names ? PyObject_GetAttrString(cls, "_field_defaults") : NULL;
    PyObject *hints = defaults ? jt_hints(c, cls) : NULL;
    if (!hints || !PyTuple_Check(names)) goto done;
    Py_ssize_t count = PyTuple_GET_SIZE(names);
    n->items = PyMem_Calloc((size_t)(count ? count : 1), sizeof *n->items);
    n->fields = PyMem_Calloc((size_t)(count ? count : 1), sizeof *n->fields);
    if (!n->items || !n->fields) {
        PyErr_NoMemory();
        goto done;
    }
    n->nitems = count;
    n->nrequired = count - PyObject_Length(defaults);
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        jj_tfield *f = &n->fields[i];
        n->nfields = i + 1;
        if (jt_field_init(f, name) < 0) goto done;
        PyObject *type = PyDict_GetItemWithError(hints, name);
        if (!type && PyErr_Occurred()) goto done;
        PyObject *any = PyDict_GetItemString(c->env, "Any");
        n->items[i] = f->type = jj_tcompile(c, type ? type : any);
        if (!f->type) goto done;
        PyObject *d = PyDict_GetItemWithError(defaults, name);
        if (d) f->dflt = Py_NewRef(d);
        else if (PyErr_Occurred()) goto done;
    }
    rc = 0;
done:
    Py_XDECREF(names);
    Py_XDECREF(defaults);
    Py_XDECREF(hints);
    return rc;
}

/* The memo key of a class compiled in `scope`: the class, or (class, the scope's
 * bindings) for a generic one; NULL without an exception when they cannot be hashed. */
PyObject *jj_tclass_key(PyObject *cls, PyObject *scope) {
    if (PyDict_GET_SIZE(scope) == 0) return Py_NewRef(cls);
    PyObject *items = PyDict_Items(scope);
    PyObject *bound = items ? PyList_AsTuple(items) : NULL;
    Py_XDECREF(items);
    PyObject *key = bound ? PyTuple_Pack(2, cls, bound) : NULL;
    Py_XDECREF(bound);
    if (key && PyObject_Hash(key) == -1) {
        PyErr_Clear();
        Py_CLEAR(key);
    }
    return key;
}

static int jt_class_fields(jj_tcompiler *c, jj_tnode *n, PyObject *cls, int kind);

/* A dataclass, TypedDict or NamedTuple (args: what a generic one is given, or NULL):
 * one node per class and bindings per plan, remembered before its fields are compiled
 * so that fields may name the class again (recursive types). */
jj_tnode *jj_tclass(jj_tcompiler *c, PyObject *cls, int kind, PyObject *args) {
    PyObject *get_origin = PyDict_GetItemString(c->env, "get_origin");
    PyObject *get_args = PyDict_GetItemString(c->env, "get_args");
    PyObject *typevar = PyDict_GetItemString(c->env, "TypeVar");
    PyObject *scope = jj_typed_generic_scope(cls, args, c->subst, get_origin, get_args, typevar);
    if (!scope) return NULL;
    PyObject *key = jj_tclass_key(cls, scope);
    PyObject *known = key ? PyDict_GetItemWithError(c->memo, key) : NULL;
    jj_tnode *n = NULL;
    if (known) {
        n = PyLong_AsVoidPtr(known);
    } else if (!PyErr_Occurred()) {
        n = jj_tnew_node(c, kind == JT_NAMEDTUPLE ? JT_ARRAY : JT_OBJECT);
        if (n && key && jj_tremember(c, key, n) < 0) n = NULL;
        if (n) {
            PyObject *outer = c->subst;
            c->subst = PyDict_GET_SIZE(scope) ? scope : NULL;
            if (jt_class_fields(c, n, cls, kind) < 0) n = NULL;
            c->subst = outer;
        }
    }
    Py_XDECREF(key);
    Py_DECREF(scope);
    return n;
}

/* The last 8 bytes of a key longer than 8, little-endian; 0 for shorter keys. */
static uint64_t jt_key_tail(const char *utf8, size_t len) {
    uint64_t tail = 0;
    for (size_t k = 0; len > 8 && k < 8; k++) tail |= (uint64_t)(uint8_t)utf8[len - 8 + k] << (8 * k);
    return tail;
}

/* Fills n's key table: the first of a fixed series of odd multipliers under which no two
 * of the fields __init__ takes share a slot. Without one (or with more than 32 such
 * fields, or a key without its UTF-8), key_mult stays 0 and keys are searched in turn. */
static void jt_key_table(jj_tnode *n) {
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < n->nfields; i++) {
        if (!n->fields[i].init) continue;
        if (!n->fields[i].utf8 || i >= 255) return;
        count++;
    }
    if (count == 0 || count > 32) return;
    uint64_t mult = UINT64_C(0x9E3779B97F4A7C15);
    for (int attempt = 0; attempt < 64; attempt++, mult = mult * UINT64_C(6364136223846793005) + 1442695040888963407u) {
        mult |= 1;
        memset(n->key_table, 0, sizeof n->key_table);
        Py_ssize_t i = 0;
        for (; i < n->nfields; i++) {
            const jj_tfield *f = &n->fields[i];
            if (!f->init) continue;
            unsigned slot = jj_tkey_hash(f->head, jt_key_tail(f->utf8, f->len), f->len, mult);
            if (n->key_table[slot]) break;
            n->key_table[slot] = (uint8_t)(i + 1);
        }
        if (i == n->nfields) {
            n->key_mult = mult;
            return;
        }
    }
    memset(n->key_table, 0, sizeof n->key_table);
}

static int jt_class_fields(jj_tcompiler *c, jj_tnode *n, PyObject *cls, int kind) {
    n->cls = Py_NewRef(cls);
    n->compiled = 0;
    if (!n->no_args && !(n->no_args = PyTuple_New(0))) return -1;
    int rc;
    if (kind == JT_NAMEDTUPLE) {
        n->array_kind = JT_NAMEDTUPLE;
        rc = jt_namedtuple_fields(c, n, cls);
    } else {
        n->object_kind = kind;
        rc = kind == JT_DATACLASS ? jt_dataclass_fields(c, n, cls) : jt_typeddict_fields(c, n, cls);
        if (rc == 0 && c->rename) rc = jj_typed_rename_fields(n, c->rename);
    }
    n->compiled = 1;
    for (Py_ssize_t i = 0; i < n->nfields; i++) {
        jj_tfield *f = &n->fields[i];
        if (f->init) n->key_lengths |= UINT64_C(1) << (f->len < 63 ? f->len : 63);
        if (!f->utf8) continue;
        uint8_t head[8] = {0};
        memcpy(head, f->utf8, f->len < 8 ? f->len : 8);
        f->head = 0;
        for (int k = 7; k >= 0; k--) f->head = f->head << 8 | head[k];
    }
    if (rc == 0 && n->object_kind) jt_key_table(n);
    return rc;
}

/* JT_DATACLASS, JT_TYPEDDICT, JT_NAMEDTUPLE for a class of that kind, else 0. */
int jj_tclass_kind(PyObject *t) {
    if (!PyType_Check(t)) return 0;
    if (PyObject_HasAttrString(t, "__dataclass_fields__")) return JT_DATACLASS;
    if (PyType_IsSubtype((PyTypeObject *)t, &PyDict_Type) && PyObject_HasAttrString(t, "__required_keys__") &&
        PyObject_HasAttrString(t, "__total__"))
        return JT_TYPEDDICT;
    if (PyType_IsSubtype((PyTypeObject *)t, &PyTuple_Type) && PyObject_HasAttrString(t, "_fields"))
        return JT_NAMEDTUPLE;
    return 0;
}
