/* The filter types: blockfilter.Filter (the base) and one type per family,
 * SBBF, Bloom, Counting, Cuckoo, Scalable and Blocked, over the library's generic
 * bf_filter (the SBBF also through its own bf_sbbf calls). */
#include "bfpy.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static PyTypeObject base_type;
PyTypeObject bfpy_sbbf_type;
static PyTypeObject bloom_type, counting_type, cuckoo_type, scalable_type, blocked_type;
PyTypeObject *bfpy_filter_types[7];
static PyTypeObject stats_type;

int bfpy_is_filter(PyObject *o) { return PyObject_TypeCheck(o, &base_type); }

/* The family a type (or a subclass of it) stands for; 0 for the base. */
static bf_family type_family(PyTypeObject *t) {
    for (int i = 1; i <= 6; i++)
        if (PyType_IsSubtype(t, bfpy_filter_types[i])) return (bf_family)i;
    return (bf_family)0;
}

/* Every family but the scalable chain, whose union would not keep its FPR
 * target (lib/families/scalable.c). */
static int can_merge(bf_family f) {
    return f == BF_FAMILY_SBBF || f == BF_FAMILY_BLOOM || f == BF_FAMILY_COUNTING ||
           f == BF_FAMILY_CUCKOO || f == BF_FAMILY_BLOCKED;
}

PyObject *bfpy_closed_error(void) {
    PyErr_SetString(PyExc_ValueError, "operation on a closed filter");
    return NULL;
}

static int is_closed(const bfpy_filter *o) { return !o->filter && !o->sbbf; }

#define CHECK_OPEN(o, ret)                                                                  \
    do {                                                                                    \
        if (is_closed(o)) {                                                                 \
            bfpy_closed_error();                                                            \
            return ret;                                                                     \
        }                                                                                   \
    } while (0)

/* ---- life cycle ------------------------------------------------------------ */

static void free_contents(bfpy_filter *o) {
    if (o->filter) bf_filter_free(o->filter); /* and the SBBF it owns */
    else if (o->sbbf) bf_sbbf_free(o->sbbf);
    o->filter = NULL;
    o->sbbf = NULL;
}

static void release_owner(bfpy_filter *o) {
    if (o->owner_view.obj) PyBuffer_Release(&o->owner_view);
    if (o->owner && o->owner_is_parquet) bfpy_parquet_view_released(o->owner);
    Py_CLEAR(o->owner);
}

static void filter_dealloc(bfpy_filter *o) {
    PyObject_GC_UnTrack(o);
    if (o->weakrefs) PyObject_ClearWeakRefs((PyObject *)o);
    free_contents(o);
    release_owner(o);
    Py_CLEAR(o->path);
    pthread_rwlock_destroy(&o->lock);
    Py_TYPE(o)->tp_free((PyObject *)o);
}

static int filter_traverse(bfpy_filter *o, visitproc visit, void *arg) {
    Py_VISIT(o->owner);
    Py_VISIT(o->path);
    return 0;
}

PyObject *bfpy_filter_wrap(PyTypeObject *t, bf_filter *f, bf_sbbf *s) {
    bfpy_filter *o = (bfpy_filter *)t->tp_alloc(t, 0);
    if (!o) {
        if (f) bf_filter_free(f);
        else bf_sbbf_free(s);
        return NULL;
    }
    bfpy_lock_init(&o->lock);
    o->filter = f;
    if (f) {
        o->family = bf_filter_family(f);
        o->sbbf = bf_filter_sbbf(f);
        o->seed = bf_filter_seed(f);
    } else {
        o->family = BF_FAMILY_SBBF;
        o->sbbf = s;
        o->seed = bf_sbbf_seed(s);
        o->readonly = bf_sbbf_is_readonly(s);
    }
    return (PyObject *)o;
}

/* The type to give a filter of family fam asked for through cls: cls when
 * it is that family's type (or a subclass of it), the family's type when
 * cls is the base. */
static PyTypeObject *type_for(PyTypeObject *cls, bf_family fam) {
    bf_family want = type_family(cls);
    if (want == 0) return bfpy_filter_types[fam];
    if (want == fam) return cls;
    PyErr_Format(PyExc_ValueError,
                 "it holds a %s filter, not a %s one (use blockfilter.%s, or blockfilter.load "
                 "/ open, which take any family)",
                 bf_family_name(fam), bf_family_name(want), bfpy_filter_types[fam]->tp_name + 12);
    return NULL;
}

static PyObject *wrap_for(PyTypeObject *cls, bf_filter *f) {
    PyTypeObject *t = type_for(cls, bf_filter_family(f));
    if (!t) {
        bf_filter_free(f);
        return NULL;
    }
    return bfpy_filter_wrap(t, f, NULL);
}

/* ---- arguments --------------------------------------------------------------- */

static int capacity_arg(PyObject *o, void *out) {
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "capacity must be an int, not %.100s", Py_TYPE(o)->tp_name);
        return 0;
    }
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        v = -1;
    }
    if (v < 1) {
        PyErr_SetString(PyExc_ValueError, "capacity must be an int from 1 to 2**63-1");
        return 0;
    }
    *(uint64_t *)out = (uint64_t)v;
    return 1;
}

static int fpp_ok(double fpp) {
    if (!(fpp > 0.0 && fpp < 1.0)) {
        char text[64];
        snprintf(text, sizeof text, "%g", fpp);
        PyErr_Format(PyExc_ValueError, "error_rate must be in (0, 1), not %s", text);
        return 0;
    }
    return 1;
}

/* ---- construction ------------------------------------------------------------ */

static PyObject *finish_new(PyTypeObject *type, int rc, bf_filter *f, uint64_t seed,
                            uint64_t capacity, double fpp) {
    if (rc == BF_OK && seed) rc = bf_filter_set_seed(f, seed);
    if (rc != BF_OK) {
        if (f) bf_filter_free(f);
        return bfpy_error(rc, type->tp_name, NULL, 0);
    }
    bfpy_filter *o = (bfpy_filter *)bfpy_filter_wrap(type, f, NULL);
    if (o) {
        o->capacity = capacity;
        o->error_rate = fpp;
    }
    return (PyObject *)o;
}

/* An SBBF of num_bytes (kernel NULL: the default) wrapped in a bf_filter. */
static int new_sbbf_filter(bf_filter **out, size_t num_bytes, const char *kernel) {
    bf_sbbf *s = NULL;
    int rc = bf_sbbf_new_bytes_kernel(&s, num_bytes, kernel);
    if (rc != BF_OK) return rc;
    rc = bf_filter_from_sbbf(out, s);
    if (rc != BF_OK) bf_sbbf_free(s);
    return rc;
}

static PyObject *filter_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    bf_family fam = type_family(type);
    uint64_t capacity = 0, seed;
    double fpp = 0.01;
    PyObject *seed_o = NULL;
    bf_filter *f = NULL;
    int rc;
    if (fam == 0) {
        PyErr_SetString(PyExc_TypeError, "Filter is abstract: make an SBBF, Bloom, Counting, "
                                         "Cuckoo, Scalable or Blocked");
        return NULL;
    }
    if (fam == BF_FAMILY_SBBF) {
        static char *kwlist[] = {"capacity", "error_rate", "seed", "sizing", "kernel", NULL};
        const char *sizing = "compact", *kernel = NULL;
        if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|d$Osz:SBBF", kwlist, capacity_arg,
                                         &capacity, &fpp, &seed_o, &sizing, &kernel) ||
            !fpp_ok(fpp) || bfpy_seed_arg(seed_o, &seed) < 0)
            return NULL;
        size_t bytes = 0;
        if (!strcmp(sizing, "compact")) rc = bf_sbbf_compact_bytes(capacity, fpp, &bytes);
        else if (!strcmp(sizing, "parquet")) rc = bf_sbbf_parquet_bytes(capacity, fpp, &bytes);
        else {
            PyErr_Format(PyExc_ValueError, "sizing must be 'compact' or 'parquet', not '%s'",
                         sizing);
            return NULL;
        }
        if (rc == BF_OK) rc = new_sbbf_filter(&f, bytes, kernel);
    } else if (fam == BF_FAMILY_SCALABLE) {
        static char *kwlist[] = {"capacity", "error_rate", "seed", "expansion", "ratio",
                                 "scaling", NULL};
        unsigned expansion = BF_SCALABLE_DEFAULT_EXPANSION;
        double ratio = BF_SCALABLE_DEFAULT_RATIO;
        int scaling = 1;
        if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|d$OIdp:Scalable", kwlist, capacity_arg,
                                         &capacity, &fpp, &seed_o, &expansion, &ratio, &scaling) ||
            !fpp_ok(fpp) || bfpy_seed_arg(seed_o, &seed) < 0)
            return NULL;
        bf_scalable_params p = {capacity, fpp, expansion, ratio,
                                scaling ? 0u : BF_SCALABLE_NONSCALING};
        if (expansion < 1 || !(ratio > 0 && ratio < 1)) {
            PyErr_SetString(PyExc_ValueError, "expansion must be 1..32768 and ratio in (0, 1)");
            return NULL;
        }
        bf_scalable *chain = NULL;
        rc = bf_scalable_new(&chain, &p);
        if (rc == BF_OK) {
            rc = bf_filter_from_scalable(&f, chain);
            if (rc != BF_OK) bf_scalable_free(chain);
        }
    } else if (fam == BF_FAMILY_BLOCKED) {
        static char *kwlist[] = {"capacity", "error_rate", "seed", "block_bits", "sectors",
                                 "groups", "k", NULL};
        bf_blocked_shape shape = {0, 0, 0, 0};
        if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|d$OIIII:Blocked", kwlist, capacity_arg,
                                         &capacity, &fpp, &seed_o, &shape.block_bits,
                                         &shape.sectors, &shape.groups, &shape.k) ||
            !fpp_ok(fpp) || bfpy_seed_arg(seed_o, &seed) < 0)
            return NULL;
        int given = !!shape.block_bits + !!shape.sectors + !!shape.groups + !!shape.k;
        if (given && bf_blocked_shape_rule(&shape)) {
            PyErr_Format(PyExc_ValueError, "shape %u/%u/%u/%u: %s", shape.block_bits,
                         shape.sectors, shape.groups, shape.k, bf_blocked_shape_rule(&shape));
            return NULL;
        }
        rc = given ? bf_filter_new_blocked(&f, capacity, fpp, &shape)
                   : bf_filter_new(&f, fam, capacity, fpp);
    } else {
        static char *kwlist[] = {"capacity", "error_rate", "seed", NULL};
        if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|d$O", kwlist, capacity_arg, &capacity,
                                         &fpp, &seed_o) ||
            !fpp_ok(fpp) || bfpy_seed_arg(seed_o, &seed) < 0)
            return NULL;
        rc = bf_filter_new(&f, fam, capacity, fpp);
    }
    return finish_new(type, rc, f, seed, capacity, fpp);
}

static PyObject *filter_from_bytes_budget(PyTypeObject *cls, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"num_bytes", "capacity", "seed", NULL};
    unsigned long long budget;
    PyObject *cap_o = Py_None, *seed_o = NULL;
    uint64_t capacity = 0, seed;
    bf_family fam = type_family(cls);
    if (!PyArg_ParseTupleAndKeywords(args, kw, "K|O$O:from_bytes_budget", kwlist, &budget,
                                     &cap_o, &seed_o) ||
        bfpy_seed_arg(seed_o, &seed) < 0)
        return NULL;
    if (cap_o != Py_None && !capacity_arg(cap_o, &capacity)) return NULL;
    bf_filter *f = NULL;
    double fpp = 0;
    int rc;
    if (fam == BF_FAMILY_SBBF) {
        size_t bytes = (size_t)(budget / BF_SBBF_BLOCK_BYTES * BF_SBBF_BLOCK_BYTES);
        if (bytes < BF_SBBF_BLOCK_BYTES) {
            PyErr_SetString(PyExc_ValueError, "an SBBF needs at least 32 bytes");
            return NULL;
        }
        rc = new_sbbf_filter(&f, bytes, NULL);
        if (capacity) fpp = bf_sbbf_model_fpp(bytes, capacity);
    } else {
        if (!capacity) {
            PyErr_Format(PyExc_ValueError, "%s.from_bytes_budget needs the capacity, to choose "
                                           "its parameters", cls->tp_name);
            return NULL;
        }
        /* The family's best filter for capacity keys whose size is within
         * the budget: the model FPR the budget allows, then the sizing of
         * that target, nudged up until it fits. */
        rc = bf_fpp_for(fam, budget, capacity, &fpp);
        bf_sizing s;
        for (int i = 0; rc == BF_OK && i < 200; i++) {
            if (!(fpp > 0 && fpp < 1)) {
                rc = BF_EINVAL;
                break;
            }
            rc = bf_size_for(fam, capacity, fpp, &s);
            if (rc != BF_OK || s.num_bytes <= budget) break;
            fpp *= 1.0 + 1e-6 * (1 << (i < 20 ? i : 20));
        }
        if (rc == BF_OK && s.num_bytes > budget) rc = BF_ETOOBIG;
        if (rc == BF_OK) rc = bf_filter_new(&f, fam, capacity, fpp);
        if (rc != BF_OK && !f) {
            PyErr_Format(PyExc_ValueError, "%s: %llu bytes cannot hold %llu keys (%s)",
                         cls->tp_name, budget, (unsigned long long)capacity, bf_strerror(rc));
            return NULL;
        }
    }
    return finish_new(cls, rc, f, seed, capacity, fpp);
}

/* ---- single keys ---------------------------------------------------------------- */

enum { OP_ADD, OP_CONTAINS, OP_REMOVE, OP_DISCARD };

typedef struct single_job {
    bfpy_filter *o;
    uint64_t hash;
    int op;
    int found;
} single_job;

static int single_work(void *ctx) {
    single_job *j = ctx;
    bfpy_filter *o = j->o;
    if (is_closed(o)) return BFPY_CLOSED;
    if (o->family == BF_FAMILY_SBBF) {
        if (j->op == OP_CONTAINS) {
            j->found = bf_sbbf_contains_hash(o->sbbf, j->hash);
            return BF_OK;
        }
        return bf_sbbf_insert_hash(o->sbbf, j->hash);
    }
    switch (j->op) {
    case OP_ADD: return bf_filter_insert_hash(o->filter, j->hash);
    case OP_CONTAINS: j->found = bf_filter_contains_hash(o->filter, j->hash); return BF_OK;
    default: return bf_filter_remove_hash(o->filter, j->hash);
    }
}

/* add / in / remove / discard of one key: 0 (contains: 0 or 1), or -1. */
static int single_op(bfpy_filter *o, PyObject *key, int op) {
    CHECK_OPEN(o, -1);
    single_job j = {o, 0, op, 0};
    if (bfpy_hash_object(key, o->seed, &j.hash) < 0) return -1;
    int rc = bfpy_run(&o->nogil, &o->lock, op != OP_CONTAINS, 0, single_work, &j);
    if (rc == BF_OK) return j.found;
    if (rc == BFPY_CLOSED) {
        bfpy_closed_error();
        return -1;
    }
    if (rc == BF_ENOTFOUND) {
        if (op == OP_DISCARD) return 0;
        PyErr_SetObject(PyExc_KeyError, key);
        return -1;
    }
    bfpy_error(rc, NULL, NULL, 0);
    return -1;
}

int bfpy_sbbf_single_slow(bfpy_filter *o, PyObject *key, int op) {
    return single_op(o, key, op ? OP_CONTAINS : OP_ADD);
}

static PyObject *filter_add(bfpy_filter *o, PyObject *key) {
    if (single_op(o, key, OP_ADD) < 0) return NULL;
    Py_RETURN_NONE;
}

static int filter_sq_contains(bfpy_filter *o, PyObject *key) {
    return single_op(o, key, OP_CONTAINS);
}

static PyObject *filter_remove(bfpy_filter *o, PyObject *key) {
    if (single_op(o, key, OP_REMOVE) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *filter_discard(bfpy_filter *o, PyObject *key) {
    if (single_op(o, key, OP_DISCARD) < 0) return NULL;
    Py_RETURN_NONE;
}

/* ---- batches ----------------------------------------------------------------------- */

typedef struct batch_job {
    bfpy_filter *o;
    const bfpy_batch *b;
    uint8_t *out;
    size_t done, found;
    int op;
} batch_job;

static int sbbf_batch(bf_sbbf *s, batch_job *j) {
    const bfpy_batch *b = j->b;
    const void *v = b->values;
    int rc = BF_OK;
    if (j->op == OP_ADD) {
        switch (b->kind) {
        case BFPY_BATCH_HASHES: rc = bf_sbbf_insert_hashes(s, b->hashes, b->n); break;
        case BFPY_BATCH_I32: rc = bf_sbbf_insert_int32s(s, v, b->n); break;
        case BFPY_BATCH_I64: rc = bf_sbbf_insert_int64s(s, v, b->n); break;
        case BFPY_BATCH_F32: rc = bf_sbbf_insert_floats(s, v, b->n); break;
        case BFPY_BATCH_F64: rc = bf_sbbf_insert_doubles(s, v, b->n); break;
        case BFPY_BATCH_BIN32: rc = bf_sbbf_insert_binary(s, v, b->offsets, b->n); break;
        case BFPY_BATCH_BIN64: rc = bf_sbbf_insert_large_binary(s, v, b->offsets, b->n); break;
        }
        j->done = rc == BF_OK ? b->n : 0;
        return rc;
    }
    switch (b->kind) {
    case BFPY_BATCH_HASHES: j->found = bf_sbbf_contains_hashes(s, b->hashes, b->n, j->out); break;
    case BFPY_BATCH_I32: j->found = bf_sbbf_contains_int32s(s, v, b->n, j->out); break;
    case BFPY_BATCH_I64: j->found = bf_sbbf_contains_int64s(s, v, b->n, j->out); break;
    case BFPY_BATCH_F32: j->found = bf_sbbf_contains_floats(s, v, b->n, j->out); break;
    case BFPY_BATCH_F64: j->found = bf_sbbf_contains_doubles(s, v, b->n, j->out); break;
    case BFPY_BATCH_BIN32:
        rc = bf_sbbf_contains_binary(s, v, b->offsets, b->n, j->out, &j->found);
        break;
    case BFPY_BATCH_BIN64:
        rc = bf_sbbf_contains_large_binary(s, v, b->offsets, b->n, j->out, &j->found);
        break;
    }
    return rc;
}

static int generic_batch(bf_filter *f, batch_job *j) {
    const bfpy_batch *b = j->b;
    const void *v = b->values;
    int rc = BF_OK;
    if (j->op == OP_ADD) {
        switch (b->kind) {
        case BFPY_BATCH_HASHES: rc = bf_filter_insert_hashes(f, b->hashes, b->n, &j->done); break;
        case BFPY_BATCH_I32: rc = bf_filter_insert_int32s(f, v, b->n, &j->done); break;
        case BFPY_BATCH_I64: rc = bf_filter_insert_int64s(f, v, b->n, &j->done); break;
        case BFPY_BATCH_F32: rc = bf_filter_insert_floats(f, v, b->n, &j->done); break;
        case BFPY_BATCH_F64: rc = bf_filter_insert_doubles(f, v, b->n, &j->done); break;
        case BFPY_BATCH_BIN32:
            rc = bf_filter_insert_binary(f, v, b->offsets, b->n, &j->done);
            break;
        case BFPY_BATCH_BIN64:
            rc = bf_filter_insert_large_binary(f, v, b->offsets, b->n, &j->done);
            break;
        }
        return rc;
    }
    if (j->op == OP_CONTAINS) {
        switch (b->kind) {
        case BFPY_BATCH_HASHES:
            j->found = bf_filter_contains_hashes(f, b->hashes, b->n, j->out);
            break;
        case BFPY_BATCH_I32: j->found = bf_filter_contains_int32s(f, v, b->n, j->out); break;
        case BFPY_BATCH_I64: j->found = bf_filter_contains_int64s(f, v, b->n, j->out); break;
        case BFPY_BATCH_F32: j->found = bf_filter_contains_floats(f, v, b->n, j->out); break;
        case BFPY_BATCH_F64: j->found = bf_filter_contains_doubles(f, v, b->n, j->out); break;
        case BFPY_BATCH_BIN32:
            rc = bf_filter_contains_binary(f, v, b->offsets, b->n, j->out, &j->found);
            break;
        case BFPY_BATCH_BIN64:
            rc = bf_filter_contains_large_binary(f, v, b->offsets, b->n, j->out, &j->found);
            break;
        }
        return rc;
    }
    /* Remove: the library removes hashes; typed and binary keys are hashed
     * a chunk at a time. */
    if (b->kind == BFPY_BATCH_HASHES) return bf_filter_remove_hashes(f, b->hashes, b->n, &j->done);
    uint64_t h[1024];
    for (size_t i = 0; i < b->n; i += 1024) {
        size_t m = b->n - i < 1024 ? b->n - i : 1024, d = 0;
        rc = bfpy_batch_hash(b, i, m, j->o->seed, h);
        if (rc == BF_OK) rc = bf_filter_remove_hashes(f, h, m, &d);
        j->done += d;
        if (rc != BF_OK) break;
    }
    return rc;
}

static int batch_work(void *ctx) {
    batch_job *j = ctx;
    bfpy_filter *o = j->o;
    if (is_closed(o)) return BFPY_CLOSED;
    if (o->family == BF_FAMILY_SBBF && j->op != OP_REMOVE) return sbbf_batch(o->sbbf, j);
    return generic_batch(o->filter, j);
}

/* Runs a batch; raises (with the number of keys done) on failure. */
static int run_batch(bfpy_filter *o, batch_job *j) {
    j->o = o;
    int rc = bfpy_run(&o->nogil, &o->lock, j->op != OP_CONTAINS, j->b->n >= BFPY_NOGIL_MIN,
                      batch_work, j);
    if (rc == BF_OK) return 0;
    if (rc == BFPY_CLOSED) {
        bfpy_closed_error();
        return -1;
    }
    if (rc == BF_EINVAL && (j->b->kind == BFPY_BATCH_BIN32 || j->b->kind == BFPY_BATCH_BIN64)) {
        bfpy_error(rc, BFPY_OFFSETS_MSG, NULL, 0);
        return -1;
    }
    if (rc == BF_EFULL || rc == BF_ENOTFOUND || rc == BF_ETOOBIG || rc == BF_ENOMEM) {
        char ctx[160];
        snprintf(ctx, sizeof ctx, "key %zu of %zu (the %zu keys before it were %s)", j->done,
                 j->b->n, j->done, j->op == OP_ADD ? "added" : "removed");
        bfpy_error(rc, ctx, NULL, 0);
        return -1;
    }
    bfpy_error(rc, NULL, NULL, 0);
    return -1;
}

static int batch_args(bfpy_filter *o, PyObject *args, PyObject *kw, const char *name,
                      PyObject **out, bfpy_batch *b) {
    static char *kwlist_out[] = {"values", "offsets", "out", NULL};
    static char *kwlist[] = {"values", "offsets", NULL};
    PyObject *values, *offsets = Py_None;
    char fmt[64];
    CHECK_OPEN(o, -1);
    snprintf(fmt, sizeof fmt, "O|O%s:%s", out ? "$O" : "", name);
    if (out ? !PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist_out, &values, &offsets, out)
            : !PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, &values, &offsets))
        return -1;
    return bfpy_batch_get(values, offsets == Py_None ? NULL : offsets, o->seed, b);
}

static PyObject *batch_update(bfpy_filter *o, PyObject *args, PyObject *kw, int op,
                              const char *name) {
    bfpy_batch b;
    if (batch_args(o, args, kw, name, NULL, &b) < 0) return NULL;
    batch_job j = {0};
    j.b = &b;
    j.op = op;
    int r = run_batch(o, &j);
    bfpy_batch_release(&b);
    if (r < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *filter_add_many(bfpy_filter *o, PyObject *args, PyObject *kw) {
    return batch_update(o, args, kw, OP_ADD, "add_many");
}

static PyObject *filter_remove_many(bfpy_filter *o, PyObject *args, PyObject *kw) {
    return batch_update(o, args, kw, OP_REMOVE, "remove_many");
}

static PyObject *filter_contains_many(bfpy_filter *o, PyObject *args, PyObject *kw) {
    PyObject *out_o = Py_None;
    bfpy_batch b;
    if (batch_args(o, args, kw, "contains_many", &out_o, &b) < 0) return NULL;
    batch_job j = {0};
    j.b = &b;
    j.op = OP_CONTAINS;
    PyObject *arr = bfpy_bool_array(&b, out_o, &j.out);
    if (arr && run_batch(o, &j) < 0) Py_CLEAR(arr);
    bfpy_batch_release(&b);
    return arr;
}

static PyObject *filter_update(bfpy_filter *o, PyObject *args) {
    CHECK_OPEN(o, NULL);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
        bfpy_batch b;
        if (bfpy_batch_get(PyTuple_GET_ITEM(args, i), NULL, o->seed, &b) < 0) return NULL;
        batch_job j = {0};
        j.b = &b;
        j.op = OP_ADD;
        int r = run_batch(o, &j);
        bfpy_batch_release(&b);
        if (r < 0) return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- statistics and size ---------------------------------------------------------- */

static PyStructSequence_Field stats_fields[] = {
    {"family", "the filter family"},
    {"num_bytes", "bytes of the filter (all layers of a scalable chain)"},
    {"cells", "bits (sbbf, bloom, scalable), counters (counting) or slots (cuckoo)"},
    {"cells_set", "cells set: bits, non-zero counters, occupied slots"},
    {"fill", "cells_set / cells (cuckoo: its load factor)"},
    {"est_keys", "estimated distinct keys (cuckoo, scalable: exact)"},
    {"est_fpp", "false-positive rate of the filter as it stands"},
    {"k", "bits or hashes per key (cuckoo: 0)"},
    {"fp_bits", "fingerprint bits (cuckoo; else 0)"},
    {"kernel", "the SBBF kernel (sbbf, scalable), else 'scalar'"},
    {"inserted", "insert calls recorded (None for the SBBF, which does not count them)"},
    {NULL, NULL}};

static PyStructSequence_Desc stats_desc = {
    "blockfilter.Stats",
    "What a filter's bits say about it: fill, estimated keys, estimated FPR.",
    stats_fields, 11};

typedef struct stats_job {
    bfpy_filter *o;
    bf_filter_stats st;
    bf_sbbf_stats sst;
    uint64_t count; /* cuckoo, scalable: keys held */
} stats_job;

static int stats_work(void *ctx) {
    stats_job *j = ctx;
    bfpy_filter *o = j->o;
    if (is_closed(o)) return BFPY_CLOSED;
    if (o->family == BF_FAMILY_SBBF) return bf_sbbf_get_stats(o->sbbf, &j->sst);
    return bf_filter_get_stats(o->filter, &j->st);
}

static int get_stats(bfpy_filter *o, stats_job *j) {
    CHECK_OPEN(o, -1);
    j->o = o;
    size_t bytes = o->sbbf ? bf_sbbf_num_bytes(o->sbbf) : bf_filter_num_bytes(o->filter);
    int rc = bfpy_run(&o->nogil, &o->lock, 0, bytes >= (1u << 22), stats_work, j);
    if (rc == BFPY_CLOSED) {
        bfpy_closed_error();
        return -1;
    }
    if (rc != BF_OK) {
        bfpy_error(rc, "stats", NULL, 0);
        return -1;
    }
    return 0;
}

static PyObject *filter_stats(bfpy_filter *o, void *unused) {
    (void)unused;
    stats_job j;
    memset(&j, 0, sizeof j);
    if (get_stats(o, &j) < 0) return NULL;
    PyObject *s = PyStructSequence_New(&stats_type);
    if (!s) return NULL;
    PyObject *v[11];
    if (o->family == BF_FAMILY_SBBF) {
        bf_sbbf_stats *t = &j.sst;
        v[0] = PyUnicode_FromString("sbbf");
        v[1] = PyLong_FromUnsignedLongLong(t->num_bytes);
        v[2] = PyLong_FromUnsignedLongLong(t->num_bytes * 8);
        v[3] = PyLong_FromUnsignedLongLong(t->bits_set);
        v[4] = PyFloat_FromDouble(t->fill_ratio);
        v[5] = PyFloat_FromDouble(t->est_keys);
        v[6] = PyFloat_FromDouble(t->est_fpp);
        v[7] = PyLong_FromLong(8);
        v[8] = PyLong_FromLong(0);
        v[9] = PyUnicode_FromString(bf_sbbf_kernel(o->sbbf));
        v[10] = Py_NewRef(Py_None);
    } else {
        bf_filter_stats *t = &j.st;
        v[0] = PyUnicode_FromString(bf_family_name(t->family));
        v[1] = PyLong_FromUnsignedLongLong(t->num_bytes);
        v[2] = PyLong_FromUnsignedLongLong(t->cells);
        v[3] = PyLong_FromUnsignedLongLong(t->cells_set);
        v[4] = PyFloat_FromDouble(t->fill_ratio);
        v[5] = PyFloat_FromDouble(t->est_keys);
        v[6] = PyFloat_FromDouble(t->est_fpp);
        v[7] = PyLong_FromUnsignedLong(t->k);
        v[8] = PyLong_FromUnsignedLong(t->fp_bits);
        v[9] = PyUnicode_FromString(t->kernel ? t->kernel : "scalar");
        v[10] = PyLong_FromUnsignedLongLong(t->inserted);
    }
    for (int i = 0; i < 11; i++) {
        if (!v[i]) {
            for (int k = 0; k < 11; k++) Py_XDECREF(v[k]);
            Py_DECREF(s);
            return NULL;
        }
        PyStructSequence_SET_ITEM(s, i, v[i]);
    }
    return s;
}

/* What a filter is made of, read under its lock (a scalable chain's layer
 * array moves when it grows). */
typedef struct info_job {
    bfpy_filter *o;
    uint64_t count;      /* cuckoo, scalable: keys held */
    unsigned k, fp_bits;
    bf_blocked_shape shape; /* blocked */
    const char *kernel;  /* sbbf, scalable */
    size_t layers;
    struct {
        uint64_t capacity, count, num_bytes;
        double fpp;
    } layer[BF_SCALABLE_MAX_LAYERS];
} info_job;

static int info_work(void *ctx) {
    info_job *j = ctx;
    bfpy_filter *o = j->o;
    if (is_closed(o)) return BFPY_CLOSED;
    switch (o->family) {
    case BF_FAMILY_SBBF: j->kernel = bf_sbbf_kernel(o->sbbf); break;
    case BF_FAMILY_BLOOM: j->k = bf_bloom_num_hashes(bf_filter_bloom(o->filter)); break;
    case BF_FAMILY_COUNTING: j->k = bf_counting_num_hashes(bf_filter_counting(o->filter)); break;
    case BF_FAMILY_BLOCKED: bf_blocked_get_shape(bf_filter_blocked(o->filter), &j->shape); break;
    case BF_FAMILY_CUCKOO: {
        bf_cuckoo *c = bf_filter_cuckoo(o->filter);
        j->count = bf_cuckoo_count(c);
        j->fp_bits = bf_cuckoo_fingerprint_bits(c);
        break;
    }
    case BF_FAMILY_SCALABLE: {
        bf_scalable *c = bf_filter_scalable(o->filter);
        bf_scalable_layer l;
        for (size_t i = 0; i < BF_SCALABLE_MAX_LAYERS && bf_scalable_get_layer(c, i, &l) == BF_OK;
             i++) {
            j->layer[i].capacity = l.capacity;
            j->layer[i].count = l.count;
            j->layer[i].fpp = l.fpp;
            j->layer[i].num_bytes = bf_sbbf_num_bytes(l.sbbf);
            j->count += l.count;
            j->kernel = bf_sbbf_kernel(l.sbbf);
            j->layers = i + 1;
        }
        break;
    }
    }
    return BF_OK;
}

static int get_info(bfpy_filter *o, info_job *j) {
    memset(j, 0, sizeof *j);
    j->o = o;
    if (bfpy_run(&o->nogil, &o->lock, 0, 0, info_work, j) != BF_OK) {
        bfpy_closed_error();
        return -1;
    }
    return 0;
}

static Py_ssize_t filter_len(bfpy_filter *o) {
    CHECK_OPEN(o, -1);
    if (o->family == BF_FAMILY_CUCKOO || o->family == BF_FAMILY_SCALABLE) {
        info_job *i = PyMem_Malloc(sizeof *i);
        if (!i) return (Py_ssize_t)(PyErr_NoMemory(), -1);
        Py_ssize_t n = get_info(o, i) < 0 ? -1 : (Py_ssize_t)i->count;
        PyMem_Free(i);
        return n;
    }
    stats_job j;
    memset(&j, 0, sizeof j);
    if (get_stats(o, &j) < 0) return -1;
    double est = o->family == BF_FAMILY_SBBF ? j.sst.est_keys : j.st.est_keys;
    if (!(est < 9.2e18)) return PY_SSIZE_T_MAX; /* a full filter: every key may be in */
    return (Py_ssize_t)llround(est);
}

/* ---- merge ---------------------------------------------------------------------------- */

typedef struct merge_job {
    bfpy_filter *dst, *src;
} merge_job;

static int merge_work(void *ctx) {
    merge_job *j = ctx;
    if (is_closed(j->dst) || is_closed(j->src)) return BFPY_CLOSED;
    if (j->dst->family == BF_FAMILY_SBBF) return bf_sbbf_merge(j->dst->sbbf, j->src->sbbf);
    return bf_filter_merge(j->dst->filter, j->src->filter);
}

static size_t filter_bytes(const bfpy_filter *o) {
    return o->sbbf ? bf_sbbf_num_bytes(o->sbbf) : o->filter ? bf_filter_num_bytes(o->filter) : 0;
}

/* "1024 buckets of 4 12-bit fingerprints, seed 0" into buf. */
static void cuckoo_describe(const bfpy_filter *o, char *buf, size_t cap) {
    const bf_cuckoo *c = o->filter ? bf_filter_cuckoo(o->filter) : NULL;
    if (!c) {
        snprintf(buf, cap, "closed");
        return;
    }
    snprintf(buf, cap, "%llu buckets of %u %u-bit%s fingerprints, seed %llu",
             (unsigned long long)bf_cuckoo_num_buckets(c), bf_cuckoo_bucket_size(c),
             bf_cuckoo_fingerprint_bits(c),
             (bf_cuckoo_flags(c) & BF_CUCKOO_SEMISORTED) ? " semi-sorted" : "",
             (unsigned long long)o->seed);
}

/* The two ways a cuckoo merge fails, said for what they are: the library's
 * text ("filter full: key not inserted") is an insert's. Both leave dst as
 * it was (bf_filter_merge). */
static void cuckoo_merge_error(int rc, const bfpy_filter *dst, const bfpy_filter *src) {
    char a[128], b[128], msg[400];
    cuckoo_describe(dst, a, sizeof a);
    cuckoo_describe(src, b, sizeof b);
    if (rc == BF_EFULL)
        snprintf(msg, sizeof msg, "merge: the other cuckoo filter's fingerprints do not all fit "
                                  "in this one (%s); nothing was changed: a filter sized for "
                                  "both sets' keys holds their union", a);
    else
        snprintf(msg, sizeof msg, "merge: cuckoo filters differ in shape or seed (this one: %s; "
                                  "the other: %s); only equal shapes and seeds merge", a, b);
    bfpy_error_text(rc, msg);
}

static int merge_into(bfpy_filter *dst, PyObject *src_o) {
    if (!bfpy_is_filter(src_o)) {
        PyErr_Format(PyExc_TypeError, "can only merge a filter, not %.100s",
                     Py_TYPE(src_o)->tp_name);
        return -1;
    }
    bfpy_filter *src = (bfpy_filter *)src_o;
    CHECK_OPEN(dst, -1);
    CHECK_OPEN(src, -1);
    if (src->family != dst->family) {
        PyErr_Format(PyExc_ValueError, "cannot merge a %s filter into a %s filter",
                     bf_family_name(src->family), bf_family_name(dst->family));
        return -1;
    }
    if (!can_merge(dst->family)) {
        PyErr_Format(PyExc_TypeError, "%s filters cannot be merged (docs/families.md): add "
                                      "one's keys to the other", bf_family_name(dst->family));
        return -1;
    }
    merge_job j = {dst, src};
    int rc = bfpy_run2(&dst->nogil, &dst->lock, &src->nogil, &src->lock,
                       filter_bytes(dst) >= (1u << 22), merge_work, &j);
    if (rc == BFPY_CLOSED) {
        bfpy_closed_error();
        return -1;
    }
    if (rc != BF_OK) {
        if (dst->family == BF_FAMILY_CUCKOO && (rc == BF_EFULL || rc == BF_EMISMATCH))
            cuckoo_merge_error(rc, dst, src);
        else
            bfpy_error(rc, "merge", NULL, 0);
        return -1;
    }
    return 0;
}

/* ---- copies and images ---------------------------------------------------------------- */

/* A writable copy of o's filter (the caller holds o's lock or the GIL
 * with no call on o running without it). */
static int clone_filter(const bfpy_filter *o, bf_filter **out) {
    *out = NULL;
    if (is_closed(o)) return BFPY_CLOSED;
    if (o->family == BF_FAMILY_SBBF) {
        const bf_sbbf *src = o->sbbf;
        bf_sbbf *s = NULL;
        const char *kernel = bf_sbbf_kernel(src);
        int rc = bf_sbbf_new_bytes_kernel(&s, bf_sbbf_num_bytes(src),
                                          bf_sbbf_kernel_supported(kernel) ? kernel : NULL);
        if (rc == BF_OK && o->seed) rc = bf_sbbf_set_seed(s, o->seed);
        if (rc == BF_OK) rc = bf_sbbf_merge(s, src);
        if (rc == BF_OK) rc = bf_filter_from_sbbf(out, s);
        if (rc != BF_OK) bf_sbbf_free(s);
        return rc;
    }
    size_t size = bf_filter_save_size(o->filter);
    void *buf = malloc(size ? size : 1);
    if (!buf) return BF_ENOMEM;
    size_t written = 0;
    int rc = bf_filter_save(o->filter, buf, size, &written);
    if (rc == BF_OK) rc = bf_filter_load(out, buf, written);
    free(buf);
    return rc;
}

typedef struct clone_job {
    bfpy_filter *o;
    bf_filter *copy;
} clone_job;

static int clone_work(void *ctx) {
    clone_job *j = ctx;
    return clone_filter(j->o, &j->copy);
}

static PyObject *filter_copy(bfpy_filter *o, PyObject *unused) {
    (void)unused;
    CHECK_OPEN(o, NULL);
    clone_job j = {o, NULL};
    int rc = bfpy_run(&o->nogil, &o->lock, 0, filter_bytes(o) >= (1u << 22), clone_work, &j);
    if (rc == BFPY_CLOSED) return bfpy_closed_error();
    if (rc != BF_OK) return bfpy_error(rc, "copy", NULL, 0);
    bfpy_filter *c = (bfpy_filter *)bfpy_filter_wrap(Py_TYPE(o), j.copy, NULL);
    if (c) {
        c->capacity = o->capacity;
        c->error_rate = o->error_rate;
    }
    return (PyObject *)c;
}

static PyObject *filter_deepcopy(bfpy_filter *o, PyObject *memo) {
    (void)memo;
    return filter_copy(o, NULL);
}

static PyObject *filter_or(PyObject *a, PyObject *b) {
    if (!bfpy_is_filter(a) || !bfpy_is_filter(b)) Py_RETURN_NOTIMPLEMENTED;
    bfpy_filter *fa = (bfpy_filter *)a;
    CHECK_OPEN(fa, NULL);
    if (((bfpy_filter *)b)->family != fa->family || !can_merge(fa->family)) {
        merge_into(fa, b); /* raises the reason, changes nothing */
        return NULL;
    }
    PyObject *c = filter_copy(fa, NULL);
    if (c && merge_into((bfpy_filter *)c, b) < 0) Py_CLEAR(c);
    return c;
}

static PyObject *filter_ior(PyObject *a, PyObject *b) {
    if (!bfpy_is_filter(a) || !bfpy_is_filter(b)) Py_RETURN_NOTIMPLEMENTED;
    if (merge_into((bfpy_filter *)a, b) < 0) return NULL;
    return Py_NewRef(a);
}

/* The native image of o into a new bytes object. */
typedef struct image_job {
    bfpy_filter *o;
    char *buf;
    size_t cap, written;
    const char *path; /* save: write to this file instead */
    int err;
    int parquet;      /* Parquet bytes (SBBF) instead of the native format */
} image_job;

static int image_work(void *ctx) {
    image_job *j = ctx;
    bfpy_filter *o = j->o;
    if (is_closed(o)) return BFPY_CLOSED;
    int rc;
    if (j->parquet) {
        errno = 0;
        rc = j->path ? bf_sbbf_save_parquet_file(o->sbbf, j->path)
                     : bf_sbbf_to_parquet(o->sbbf, j->buf, j->cap, &j->written);
        j->err = errno;
        return rc;
    }
    bf_filter *f = o->filter, *tmp = NULL;
    if (!f) { /* a bare SBBF view: saved through a copy */
        rc = clone_filter(o, &tmp);
        if (rc != BF_OK) return rc;
        f = tmp;
    }
    errno = 0;
    if (j->path) rc = bf_filter_save_file(f, j->path);
    else if (!j->buf) { /* size only */
        j->cap = bf_filter_save_size(f);
        rc = BF_OK;
    } else rc = bf_filter_save(f, j->buf, j->cap, &j->written);
    j->err = errno;
    bf_filter_free(tmp);
    return rc;
}

static PyObject *image_bytes(bfpy_filter *o, int parquet) {
    CHECK_OPEN(o, NULL);
    image_job j;
    memset(&j, 0, sizeof j);
    j.o = o;
    j.parquet = parquet;
    int release = filter_bytes(o) >= (1u << 22);
    if (parquet) j.cap = bf_sbbf_parquet_size(o->sbbf);
    else {
        int rc = bfpy_run(&o->nogil, &o->lock, 0, 0, image_work, &j);
        if (rc == BFPY_CLOSED) return bfpy_closed_error();
        if (rc != BF_OK) return bfpy_error(rc, "to_bytes", NULL, 0);
    }
    PyObject *bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)j.cap);
    if (!bytes) return NULL;
    j.buf = PyBytes_AS_STRING(bytes);
    int rc = bfpy_run(&o->nogil, &o->lock, 0, release, image_work, &j);
    if (rc == BF_OK && j.written != j.cap) rc = BF_EBUFSIZE; /* changed size meanwhile */
    if (rc != BF_OK) {
        Py_DECREF(bytes);
        if (rc == BFPY_CLOSED) return bfpy_closed_error();
        return bfpy_error(rc, parquet ? "to_parquet" : "to_bytes", NULL, 0);
    }
    return bytes;
}

static PyObject *filter_to_bytes(bfpy_filter *o, PyObject *unused) {
    (void)unused;
    return image_bytes(o, 0);
}

static PyObject *save_file(bfpy_filter *o, PyObject *path_o, int parquet) {
    PyObject *path = NULL;
    CHECK_OPEN(o, NULL);
    if (!PyUnicode_FSConverter(path_o, &path)) return NULL;
    image_job j;
    memset(&j, 0, sizeof j);
    j.o = o;
    j.parquet = parquet;
    j.path = PyBytes_AS_STRING(path);
    int rc = bfpy_run(&o->nogil, &o->lock, 0, 1, image_work, &j);
    Py_DECREF(path);
    if (rc == BFPY_CLOSED) return bfpy_closed_error();
    if (rc != BF_OK) return bfpy_error(rc, "cannot save", path_o, j.err);
    Py_RETURN_NONE;
}

static PyObject *filter_save(bfpy_filter *o, PyObject *path) { return save_file(o, path, 0); }

static PyObject *filter_restore(PyObject *m, PyObject *args);
static PyObject *filter_reduce(bfpy_filter *o, PyObject *unused) {
    (void)unused;
    PyObject *image = image_bytes(o, 0);
    if (!image) return NULL;
    PyObject *mod = PyImport_ImportModule("blockfilter._core");
    PyObject *fn = mod ? PyObject_GetAttrString(mod, "_restore") : NULL;
    Py_XDECREF(mod);
    if (!fn) {
        Py_DECREF(image);
        return NULL;
    }
    return Py_BuildValue("N(ONKd)", fn, (PyObject *)Py_TYPE(o), image,
                         (unsigned long long)o->capacity, o->error_rate);
}

/* ---- loading ----------------------------------------------------------------------------- */

static PyObject *filter_from_bytes(PyTypeObject *cls, PyObject *data) {
    Py_buffer v;
    if (PyObject_GetBuffer(data, &v, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    bf_filter *f = NULL;
    int rc = bf_filter_load(&f, v.buf, (size_t)v.len);
    PyBuffer_Release(&v);
    if (rc != BF_OK) return bfpy_error(rc, "from_bytes", NULL, 0);
    return wrap_for(cls, f);
}

static PyObject *filter_restore(PyObject *m, PyObject *args) {
    (void)m;
    PyTypeObject *cls;
    PyObject *image;
    unsigned long long capacity;
    double fpp;
    if (!PyArg_ParseTuple(args, "O!OKd:_restore", &PyType_Type, &cls, &image, &capacity, &fpp))
        return NULL;
    if (!PyType_IsSubtype(cls, &base_type)) {
        PyErr_SetString(PyExc_TypeError, "_restore: not a filter type");
        return NULL;
    }
    bfpy_filter *o = (bfpy_filter *)filter_from_bytes(cls, image);
    if (o) {
        o->capacity = capacity;
        o->error_rate = fpp;
    }
    return (PyObject *)o;
}

static PyObject *filter_load(PyTypeObject *cls, PyObject *path_o) {
    PyObject *path = NULL;
    if (!PyUnicode_FSConverter(path_o, &path)) return NULL;
    bf_filter *f = NULL;
    int rc, err;
    Py_BEGIN_ALLOW_THREADS
    errno = 0;
    rc = bf_filter_load_file(&f, PyBytes_AS_STRING(path));
    err = errno;
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (rc != BF_OK) {
        PyObject *ctx = PyUnicode_FromFormat("%S", path_o);
        const char *c = ctx ? PyUnicode_AsUTF8(ctx) : NULL;
        PyErr_Clear();
        bfpy_error(rc, c, path_o, err);
        Py_XDECREF(ctx);
        return NULL;
    }
    bfpy_filter *o = (bfpy_filter *)wrap_for(cls, f);
    if (o) o->path = Py_NewRef(path_o);
    return (PyObject *)o;
}

static PyObject *file_error(int rc, PyObject *path_o, int err) {
    PyObject *ctx = PyUnicode_FromFormat("%S", path_o);
    const char *c = ctx ? PyUnicode_AsUTF8(ctx) : NULL;
    if (!c) PyErr_Clear();
    bfpy_error(rc, c, path_o, err);
    Py_XDECREF(ctx);
    return NULL;
}

/* A file of Parquet filter bytes (header + bitset), mapped with Python's
 * mmap module: a read-only SBBF view that keeps the mapping. */
static PyObject *open_parquet_bytes(PyTypeObject *cls, PyObject *path_o) {
    PyObject *io = NULL, *fobj = NULL, *mmap_mod = NULL, *mm = NULL, *res = NULL;
    bfpy_filter *o = NULL;
    if (!(io = PyImport_ImportModule("io")) || !(mmap_mod = PyImport_ImportModule("mmap")))
        goto done;
    fobj = PyObject_CallMethod(io, "open", "Os", path_o, "rb");
    if (!fobj) goto done;
    PyObject *fileno = PyObject_CallMethod(fobj, "fileno", NULL);
    PyObject *access = fileno ? PyObject_GetAttrString(mmap_mod, "ACCESS_READ") : NULL;
    if (access) {
        PyObject *margs = Py_BuildValue("(Oi)", fileno, 0);
        PyObject *mkw = margs ? Py_BuildValue("{s:O}", "access", access) : NULL;
        PyObject *mtype = PyObject_GetAttrString(mmap_mod, "mmap");
        if (mkw && mtype) mm = PyObject_Call(mtype, margs, mkw);
        Py_XDECREF(margs);
        Py_XDECREF(mkw);
        Py_XDECREF(mtype);
    }
    Py_XDECREF(fileno);
    Py_XDECREF(access);
    PyObject *closed = PyObject_CallMethod(fobj, "close", NULL);
    Py_XDECREF(closed);
    if (!mm || !closed) goto done;
    Py_buffer v;
    if (PyObject_GetBuffer(mm, &v, PyBUF_SIMPLE) < 0) goto done;
    bf_sbbf *s = NULL;
    size_t used = 0;
    int rc = bf_sbbf_view_parquet(&s, v.buf, (size_t)v.len, &used);
    if (rc == BF_OK && used != (size_t)v.len) {
        bf_sbbf_free(s);
        PyBuffer_Release(&v);
        PyErr_Format(PyExc_ValueError, "%S: %zd bytes after the Parquet filter", path_o,
                     v.len - (Py_ssize_t)used);
        goto done;
    }
    if (rc != BF_OK) {
        PyBuffer_Release(&v);
        file_error(rc, path_o, 0);
        goto done;
    }
    o = (bfpy_filter *)bfpy_filter_wrap(cls, NULL, s);
    if (!o) {
        PyBuffer_Release(&v);
        goto done;
    }
    o->owner_view = v; /* keeps the mapping */
    o->path = Py_NewRef(path_o);
    res = (PyObject *)o;
done:
    Py_XDECREF(io);
    Py_XDECREF(fobj);
    Py_XDECREF(mmap_mod);
    Py_XDECREF(mm);
    return res;
}

static PyObject *filter_open(PyTypeObject *cls, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"path", "verify", NULL};
    PyObject *path_o, *path = NULL;
    int verify = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$p:open", kwlist, &path_o, &verify))
        return NULL;
    if (!PyUnicode_FSConverter(path_o, &path)) return NULL;
    bf_filter *f = NULL;
    int rc, err;
    Py_BEGIN_ALLOW_THREADS
    errno = 0;
    rc = bf_filter_map_file(&f, PyBytes_AS_STRING(path), verify ? BF_VIEW_VERIFY_PAYLOAD : 0);
    err = errno;
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    bf_family want = type_family(cls);
    if (rc == BF_EFORMAT && (want == 0 || want == BF_FAMILY_SBBF)) {
        PyTypeObject *t = want ? cls : &bfpy_sbbf_type;
        PyObject *o = open_parquet_bytes(t, path_o);
        if (o || !PyErr_ExceptionMatches(PyExc_ValueError)) return o;
        PyErr_Clear(); /* not Parquet bytes either: the native loader's answer */
    }
    if (rc != BF_OK) return file_error(rc, path_o, err);
    bfpy_filter *o = (bfpy_filter *)wrap_for(cls, f);
    if (o) {
        o->readonly = 1;
        o->path = Py_NewRef(path_o);
    }
    return (PyObject *)o;
}

/* ---- closing --------------------------------------------------------------------------------- */

static int close_work(void *ctx) {
    free_contents(ctx);
    return BF_OK;
}

static PyObject *filter_close(bfpy_filter *o, PyObject *unused) {
    (void)unused;
    if (o->exports > 0) {
        PyErr_SetString(PyExc_BufferError,
                        "cannot close a filter whose bitset is exported (release the "
                        "memoryviews and arrays over it first)");
        return NULL;
    }
    bfpy_run(&o->nogil, &o->lock, 1, 0, close_work, o);
    release_owner(o);
    Py_RETURN_NONE;
}

static PyObject *filter_enter(PyObject *o, PyObject *unused) {
    (void)unused;
    return Py_NewRef(o);
}

static PyObject *filter_exit(bfpy_filter *o, PyObject *args) {
    (void)args;
    return filter_close(o, NULL);
}

static int clear_work(void *ctx) {
    bfpy_filter *o = ctx;
    if (is_closed(o)) return BFPY_CLOSED;
    return o->filter ? bf_filter_clear(o->filter) : bf_sbbf_clear(o->sbbf);
}

static PyObject *filter_clear(bfpy_filter *o, PyObject *unused) {
    (void)unused;
    CHECK_OPEN(o, NULL);
    int rc = bfpy_run(&o->nogil, &o->lock, 1, 0, clear_work, o);
    if (rc == BFPY_CLOSED) return bfpy_closed_error();
    if (rc != BF_OK) return bfpy_error(rc, "clear", NULL, 0);
    Py_RETURN_NONE;
}

/* ---- attributes ---------------------------------------------------------------------------- */

static PyObject *get_family(bfpy_filter *o, void *u) {
    (void)u;
    return PyUnicode_FromString(bf_family_name(o->family));
}
static PyObject *get_nbytes(bfpy_filter *o, void *u) {
    (void)u;
    CHECK_OPEN(o, NULL);
    return PyLong_FromSize_t(filter_bytes(o));
}
static PyObject *get_seed(bfpy_filter *o, void *u) {
    (void)u;
    return PyLong_FromUnsignedLongLong(o->seed);
}
static PyObject *get_capacity(bfpy_filter *o, void *u) {
    (void)u;
    if (!o->capacity) Py_RETURN_NONE;
    return PyLong_FromUnsignedLongLong(o->capacity);
}
static PyObject *get_error_rate(bfpy_filter *o, void *u) {
    (void)u;
    if (!(o->error_rate > 0)) Py_RETURN_NONE;
    return PyFloat_FromDouble(o->error_rate);
}
static PyObject *get_readonly(bfpy_filter *o, void *u) {
    (void)u;
    return PyBool_FromLong(o->readonly);
}
static PyObject *get_closed(bfpy_filter *o, void *u) {
    (void)u;
    return PyBool_FromLong(is_closed(o));
}
static PyObject *get_path(bfpy_filter *o, void *u) {
    (void)u;
    return Py_NewRef(o->path ? o->path : Py_None);
}
static PyObject *get_kernel(bfpy_filter *o, void *u) {
    (void)u;
    CHECK_OPEN(o, NULL);
    if (o->sbbf) return PyUnicode_FromString(bf_sbbf_kernel(o->sbbf));
    info_job *j = PyMem_Malloc(sizeof *j);
    if (!j) return PyErr_NoMemory();
    PyObject *r = get_info(o, j) < 0 ? NULL : PyUnicode_FromString(j->kernel ? j->kernel : "?");
    PyMem_Free(j);
    return r;
}

static PyObject *filter_repr(bfpy_filter *o) {
    const char *name = Py_TYPE(o)->tp_name;
    if (is_closed(o)) return PyUnicode_FromFormat("<%s closed>", name);
    info_job *j = PyMem_Malloc(sizeof *j);
    if (!j) return PyErr_NoMemory();
    if (get_info(o, j) < 0) {
        PyMem_Free(j);
        return NULL;
    }
    char extra[256] = "";
    size_t n = 0;
#define ADD(...) \
    n += (size_t)snprintf(extra + n, n < sizeof extra ? sizeof extra - n : 0, __VA_ARGS__)
    if (o->capacity) ADD(" capacity=%llu", (unsigned long long)o->capacity);
    if (o->error_rate > 0) ADD(" error_rate=%g", o->error_rate);
    switch (o->family) {
    case BF_FAMILY_SBBF: ADD(" kernel=%s", j->kernel); break;
    case BF_FAMILY_BLOOM:
    case BF_FAMILY_COUNTING: ADD(" k=%u", j->k); break;
    case BF_FAMILY_CUCKOO:
        ADD(" fp_bits=%u count=%llu", j->fp_bits, (unsigned long long)j->count);
        break;
    case BF_FAMILY_SCALABLE:
        ADD(" layers=%zu count=%llu", j->layers, (unsigned long long)j->count);
        break;
    case BF_FAMILY_BLOCKED:
        ADD(" shape=%u/%u/%u/%u", j->shape.block_bits, j->shape.sectors, j->shape.groups,
            j->shape.k);
        break;
    }
    if (o->seed) ADD(" keyed");
    if (o->readonly) ADD(" read-only");
#undef ADD
    PyMem_Free(j);
    if (o->path)
        return PyUnicode_FromFormat("<%s nbytes=%zu%s path=%R>", name, filter_bytes(o), extra,
                                    o->path);
    return PyUnicode_FromFormat("<%s nbytes=%zu%s>", name, filter_bytes(o), extra);
}

/* ---- the SBBF's own calls ------------------------------------------------------------------- */

static PyObject *sbbf_to_parquet(bfpy_filter *o, PyObject *unused) {
    (void)unused;
    CHECK_OPEN(o, NULL);
    if (o->seed) {
        PyErr_SetString(PyExc_ValueError, "a keyed filter (seed != 0) has no Parquet form: "
                                          "Parquet readers hash with seed 0");
        return NULL;
    }
    return image_bytes(o, 1);
}

static PyObject *sbbf_save_parquet(bfpy_filter *o, PyObject *path) {
    CHECK_OPEN(o, NULL);
    if (o->seed) {
        PyErr_SetString(PyExc_ValueError, "a keyed filter (seed != 0) has no Parquet form: "
                                          "Parquet readers hash with seed 0");
        return NULL;
    }
    return save_file(o, path, 1);
}

static PyObject *sbbf_from_parquet(PyTypeObject *cls, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"data", "copy", NULL};
    PyObject *data;
    int copy = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|$p:from_parquet", kwlist, &data, &copy))
        return NULL;
    Py_buffer v;
    if (PyObject_GetBuffer(data, &v, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    bf_sbbf *s = NULL;
    size_t used = 0;
    int rc = copy ? bf_sbbf_from_parquet(&s, v.buf, (size_t)v.len, &used)
                  : bf_sbbf_view_parquet(&s, v.buf, (size_t)v.len, &used);
    if (rc == BF_OK && used != (size_t)v.len) {
        bf_sbbf_free(s);
        PyErr_Format(PyExc_ValueError, "from_parquet: %zd bytes after the filter",
                     v.len - (Py_ssize_t)used);
        PyBuffer_Release(&v);
        return NULL;
    }
    if (rc != BF_OK) {
        PyBuffer_Release(&v);
        return bfpy_error(rc, "from_parquet", NULL, 0);
    }
    if (copy) {
        PyBuffer_Release(&v);
        bf_filter *f = NULL;
        rc = bf_filter_from_sbbf(&f, s);
        if (rc != BF_OK) {
            bf_sbbf_free(s);
            return bfpy_error(rc, "from_parquet", NULL, 0);
        }
        return bfpy_filter_wrap(cls, f, NULL);
    }
    bfpy_filter *o = (bfpy_filter *)bfpy_filter_wrap(cls, NULL, s);
    if (!o) {
        PyBuffer_Release(&v);
        return NULL;
    }
    o->owner_view = v;
    return (PyObject *)o;
}

static PyObject *sbbf_from_bitset(PyTypeObject *cls, PyObject *data) {
    Py_buffer v;
    if (PyObject_GetBuffer(data, &v, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (v.len < 32 || v.len % 32) {
        PyErr_Format(PyExc_ValueError, "an SBBF bitset is a positive multiple of 32 bytes, not "
                                       "%zd", v.len);
        PyBuffer_Release(&v);
        return NULL;
    }
    /* A view over the bytes, OR-ed into a new filter of the same size. */
    bf_sbbf *view = NULL, *s = NULL;
    bf_filter *f = NULL;
    int rc = bf_sbbf_view(&view, v.buf, (size_t)v.len);
    if (rc == BF_OK) rc = bf_sbbf_new_bytes(&s, (size_t)v.len);
    if (rc == BF_OK) rc = bf_sbbf_merge(s, view);
    bf_sbbf_free(view);
    PyBuffer_Release(&v);
    if (rc == BF_OK) rc = bf_filter_from_sbbf(&f, s);
    if (rc != BF_OK) {
        bf_sbbf_free(s);
        return bfpy_error(rc, "from_bitset", NULL, 0);
    }
    return bfpy_filter_wrap(cls, f, NULL);
}

static PyObject *sbbf_get_bitset(bfpy_filter *o, void *u) {
    (void)u;
    return PyMemoryView_FromObject((PyObject *)o);
}
static PyObject *sbbf_get_num_blocks(bfpy_filter *o, void *u) {
    (void)u;
    CHECK_OPEN(o, NULL);
    return PyLong_FromSize_t(bf_sbbf_num_bytes(o->sbbf) / BF_SBBF_BLOCK_BYTES);
}

static int sbbf_getbuffer(bfpy_filter *o, Py_buffer *view, int flags) {
    if (is_closed(o)) {
        PyErr_SetString(PyExc_BufferError, "the filter is closed");
        view->obj = NULL;
        return -1;
    }
    if (flags & PyBUF_WRITABLE) {
        PyErr_SetString(PyExc_BufferError, "the bitset is read-only: change it through the "
                                           "filter's calls");
        view->obj = NULL;
        return -1;
    }
    if (PyBuffer_FillInfo(view, (PyObject *)o, (void *)bf_sbbf_bitset(o->sbbf),
                          (Py_ssize_t)bf_sbbf_num_bytes(o->sbbf), 1, flags) < 0)
        return -1;
    o->exports++;
    return 0;
}

static void sbbf_releasebuffer(bfpy_filter *o, Py_buffer *view) {
    (void)view;
    o->exports--;
}

static PyBufferProcs sbbf_as_buffer = {(getbufferproc)sbbf_getbuffer,
                                       (releasebufferproc)sbbf_releasebuffer};

/* ---- the scalable chain's own attributes ------------------------------------------------------ */

static PyObject *scalable_get_layers(bfpy_filter *o, void *u) {
    (void)u;
    CHECK_OPEN(o, NULL);
    info_job *j = PyMem_Malloc(sizeof *j);
    if (!j) return PyErr_NoMemory();
    PyObject *list = get_info(o, j) < 0 ? NULL : PyList_New(0);
    for (size_t i = 0; list && i < j->layers; i++) {
        PyObject *d = Py_BuildValue("{s:K,s:K,s:d,s:K}", "capacity",
                                    (unsigned long long)j->layer[i].capacity, "count",
                                    (unsigned long long)j->layer[i].count, "fpp", j->layer[i].fpp,
                                    "num_bytes", (unsigned long long)j->layer[i].num_bytes);
        if (!d || PyList_Append(list, d) < 0) Py_CLEAR(list);
        Py_XDECREF(d);
    }
    PyMem_Free(j);
    return list;
}

typedef struct params_job {
    bfpy_filter *o;
    bf_scalable_stats st;
} params_job;

static int params_work(void *ctx) {
    params_job *p = ctx;
    if (is_closed(p->o)) return BFPY_CLOSED;
    return bf_scalable_get_stats(bf_filter_scalable(p->o->filter), &p->st);
}

static PyObject *scalable_get_params(bfpy_filter *o, void *u) {
    (void)u;
    CHECK_OPEN(o, NULL);
    params_job p = {o, {0}};
    int rc = bfpy_run(&o->nogil, &o->lock, 0, 0, params_work, &p);
    if (rc == BFPY_CLOSED) return bfpy_closed_error();
    if (rc != BF_OK) return bfpy_error(rc, "params", NULL, 0);
    bf_scalable_stats st = p.st;
    return Py_BuildValue("{s:K,s:d,s:I,s:d,s:O,s:d}", "capacity",
                         (unsigned long long)st.capacity, "error_rate", st.fpp, "expansion",
                         st.expansion, "ratio", st.ratio, "scaling",
                         (st.flags & BF_SCALABLE_NONSCALING) ? Py_False : Py_True, "bound_fpp",
                         st.bound_fpp);
}

/* ---- the types ------------------------------------------------------------------------------ */

#define METHOD(name, fn, flags, doc) {name, (PyCFunction)(void (*)(void))(fn), flags, doc}

static PyMethodDef base_methods[] = {
    METHOD("add", filter_add, METH_O,
           "add(key)\n\nAdds a key: str (its UTF-8), bytes-like, int (Parquet INT64) or float "
           "(DOUBLE)."),
    METHOD("update", filter_update, METH_VARARGS,
           "update(*keys)\n\nAdds every key of each argument (arrays, sequences, iterables), "
           "as add_many does."),
    METHOD("add_many", filter_add_many, METH_VARARGS | METH_KEYWORDS,
           "add_many(values, offsets=None)\n\nAdds many keys: a NumPy (or any buffer) array of "
           "int32, int64, float32 or float64 read in place; Arrow-layout binary (values = the "
           "data buffer, offsets = int32 or int64 offsets); or a list (any iterable) of keys. "
           "Releases the GIL for large batches."),
    METHOD("contains_many", filter_contains_many, METH_VARARGS | METH_KEYWORDS,
           "contains_many(values, offsets=None, *, out=None) -> numpy.ndarray of bool\n\n"
           "For each key (as add_many reads them), True if it may be in the filter, False if "
           "it certainly is not. out: a bool array to fill instead of a new one."),
    METHOD("clear", filter_clear, METH_NOARGS, "clear()\n\nRemoves every key."),
    METHOD("copy", filter_copy, METH_NOARGS, "copy() -> filter\n\nA writable copy."),
    METHOD("__copy__", filter_copy, METH_NOARGS, NULL),
    METHOD("__deepcopy__", filter_deepcopy, METH_O, NULL),
    METHOD("__reduce__", filter_reduce, METH_NOARGS, NULL),
    METHOD("to_bytes", filter_to_bytes, METH_NOARGS,
           "to_bytes() -> bytes\n\nThe filter in the native format (docs/format.md)."),
    METHOD("save", filter_save, METH_O,
           "save(path)\n\nWrites the native format atomically (temporary file, fsync, "
           "rename)."),
    METHOD("close", filter_close, METH_NOARGS,
           "close()\n\nFrees the filter now (unmaps an opened file); later calls raise "
           "ValueError."),
    METHOD("__enter__", filter_enter, METH_NOARGS, NULL),
    METHOD("__exit__", filter_exit, METH_VARARGS, NULL),
    METHOD("from_bytes", filter_from_bytes, METH_O | METH_CLASS,
           "from_bytes(data) -> filter\n\nA copy of a native image (what to_bytes gives), "
           "every field and checksum verified."),
    METHOD("load", filter_load, METH_O | METH_CLASS,
           "load(path) -> filter\n\nReads a native file into memory (verified, writable)."),
    METHOD("open", filter_open, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
           "open(path, *, verify=False) -> filter\n\nMaps a native file read-only, zero copy "
           "(SBBF.open also maps a file of Parquet filter bytes). verify: check the payload "
           "checksum too (reads the whole file)."),
    {NULL, NULL, 0, NULL}};

static PyGetSetDef base_getset[] = {
    {"stats", (getter)filter_stats, NULL, "Stats: fill, est_keys, est_fpp, ... (reads the "
                                          "whole filter)", NULL},
    {"family", (getter)get_family, NULL, "'sbbf', 'bloom', 'counting', 'cuckoo', 'scalable'", NULL},
    {"nbytes", (getter)get_nbytes, NULL, "bytes of the filter", NULL},
    {"seed", (getter)get_seed, NULL, "the hash seed (0: Parquet's hash)", NULL},
    {"capacity", (getter)get_capacity, NULL, "the capacity it was made for, or None", NULL},
    {"error_rate", (getter)get_error_rate, NULL, "the error rate it was made for, or None",
     NULL},
    {"readonly", (getter)get_readonly, NULL, "whether it is a read-only view", NULL},
    {"closed", (getter)get_closed, NULL, "whether close() was called", NULL},
    {"path", (getter)get_path, NULL, "the file it was loaded or opened from, or None", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PySequenceMethods base_as_sequence = {
    .sq_length = (lenfunc)filter_len,
    .sq_contains = (objobjproc)filter_sq_contains,
};

static PyNumberMethods base_as_number = {
    .nb_or = filter_or,
    .nb_inplace_or = filter_ior,
};

static PyMethodDef sbbf_methods[] = {
    METHOD("add", NULL, METH_O, "add(key)\n\nAdds a key (see Filter.add)."),
    METHOD("to_parquet", sbbf_to_parquet, METH_NOARGS,
           "to_parquet() -> bytes\n\nParquet's Bloom filter bytes: Thrift-compact "
           "BloomFilterHeader + bitset (seed 0 only)."),
    METHOD("save_parquet", sbbf_save_parquet, METH_O,
           "save_parquet(path)\n\nWrites to_parquet()'s bytes atomically."),
    METHOD("from_parquet", sbbf_from_parquet, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
           "from_parquet(data, *, copy=True) -> SBBF\n\nA filter from Parquet filter bytes; "
           "copy=False: a read-only view over data (kept alive)."),
    METHOD("from_bitset", sbbf_from_bitset, METH_O | METH_CLASS,
           "from_bitset(data) -> SBBF\n\nA writable copy of a bare bitset (a multiple of 32 "
           "bytes, Parquet's layout; seed 0)."),
    METHOD("from_bytes_budget", filter_from_bytes_budget,
           METH_VARARGS | METH_KEYWORDS | METH_CLASS,
           "from_bytes_budget(num_bytes, capacity=None, *, seed=None) -> SBBF\n\nThe "
           "largest SBBF within num_bytes (a multiple of 32)."),
    {NULL, NULL, 0, NULL}};

static PyGetSetDef sbbf_getset[] = {
    {"bitset", (getter)sbbf_get_bitset, NULL, "a read-only memoryview of the bitset (no copy)",
     NULL},
    {"num_blocks", (getter)sbbf_get_num_blocks, NULL, "32-byte blocks", NULL},
    {"kernel", (getter)get_kernel, NULL, "the kernel it runs", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef budget_methods[] = {
    METHOD("from_bytes_budget", filter_from_bytes_budget,
           METH_VARARGS | METH_KEYWORDS | METH_CLASS,
           "from_bytes_budget(num_bytes, capacity, *, seed=None) -> filter\n\nThe filter for "
           "capacity keys with the lowest model FPR within num_bytes."),
    {NULL, NULL, 0, NULL}};

static PyMethodDef remove_methods[] = {
    METHOD("remove", filter_remove, METH_O,
           "remove(key)\n\nRemoves a key added before; KeyError if the filter says it is "
           "absent. Remove only keys you added: removing a false positive takes another "
           "key's count."),
    METHOD("discard", filter_discard, METH_O,
           "discard(key)\n\nremove(key), without the KeyError."),
    METHOD("remove_many", filter_remove_many, METH_VARARGS | METH_KEYWORDS,
           "remove_many(values, offsets=None)\n\nRemoves many keys (as add_many reads them), "
           "in order; KeyError at the first absent one (the keys before it are removed)."),
    METHOD("from_bytes_budget", filter_from_bytes_budget,
           METH_VARARGS | METH_KEYWORDS | METH_CLASS,
           "from_bytes_budget(num_bytes, capacity, *, seed=None) -> filter\n\nThe filter for "
           "capacity keys with the lowest model FPR within num_bytes."),
    {NULL, NULL, 0, NULL}};

static PyGetSetDef scalable_getset[] = {
    {"layers", (getter)scalable_get_layers, NULL,
     "one dict per layer, oldest first: capacity, count, fpp, num_bytes", NULL},
    {"params", (getter)scalable_get_params, NULL,
     "capacity, error_rate, expansion, ratio, scaling, bound_fpp", NULL},
    {"kernel", (getter)get_kernel, NULL, "the kernel its layers run", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyObject *blocked_get_shape(bfpy_filter *o, void *unused) {
    (void)unused;
    info_job *j = PyMem_Malloc(sizeof *j);
    if (!j) return PyErr_NoMemory();
    PyObject *r = get_info(o, j) < 0 ? NULL
                                     : Py_BuildValue("(IIII)", j->shape.block_bits, j->shape.sectors,
                                                     j->shape.groups, j->shape.k);
    PyMem_Free(j);
    return r;
}

static PyGetSetDef blocked_getset[] = {
    {"shape", (getter)blocked_get_shape, NULL,
     "(block_bits, sectors, groups, k): the shape of the filter", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef module_methods[] = {
    {"_restore", filter_restore, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL}};

#define FILTER_FLAGS (Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC)

static int init_type(PyTypeObject *t, const char *name, const char *doc, PyTypeObject *base,
                     PyMethodDef *methods, PyGetSetDef *getset) {
    t->tp_name = name;
    t->tp_doc = doc;
    t->tp_basicsize = sizeof(bfpy_filter);
    t->tp_flags = FILTER_FLAGS;
    t->tp_base = base;
    t->tp_methods = methods;
    t->tp_getset = getset;
    t->tp_new = base ? filter_new : NULL;
    t->tp_dealloc = (destructor)filter_dealloc;
    t->tp_traverse = (traverseproc)filter_traverse;
    if (!base) {
        t->tp_repr = (reprfunc)filter_repr;
        t->tp_as_sequence = &base_as_sequence;
        t->tp_as_number = &base_as_number;
        t->tp_weaklistoffset = offsetof(bfpy_filter, weakrefs);
    }
    return PyType_Ready(t);
}

const char *bfpy_single_isa = "scalar";

int bfpy_filter_types_init(PyObject *module) {
    /* The SBBF's add and `in`: the inline header paths of the best ISA this
     * CPU runs that the extension was built with. */
    bfpy_single_ops ops;
    bfpy_single_ops_base(&ops);
#if defined(BFPY_HAVE_AVX2_SINGLE)
    if (bf_sbbf_kernel_supported("avx2")) bfpy_single_ops_avx2(&ops);
#endif
    bfpy_single_isa = ops.isa;
    sbbf_methods[0].ml_meth = ops.add;
    static PySequenceMethods sbbf_as_sequence;
    sbbf_as_sequence = base_as_sequence;
    sbbf_as_sequence.sq_contains = ops.sq_contains;
    bfpy_sbbf_type.tp_as_sequence = &sbbf_as_sequence;
    bfpy_sbbf_type.tp_as_buffer = &sbbf_as_buffer;

    bfpy_filter_types[BF_FAMILY_SBBF] = &bfpy_sbbf_type;
    bfpy_filter_types[BF_FAMILY_BLOOM] = &bloom_type;
    bfpy_filter_types[BF_FAMILY_COUNTING] = &counting_type;
    bfpy_filter_types[BF_FAMILY_CUCKOO] = &cuckoo_type;
    bfpy_filter_types[BF_FAMILY_SCALABLE] = &scalable_type;
    bfpy_filter_types[BF_FAMILY_BLOCKED] = &blocked_type;
    if (init_type(&base_type, "blockfilter.Filter",
                  "The methods every filter family has (abstract).", NULL, base_methods,
                  base_getset) < 0 ||
        init_type(&bfpy_sbbf_type, "blockfilter.SBBF",
                  "SBBF(capacity, error_rate=0.01, *, seed=None, sizing='compact', "
                  "kernel=None)\n\nA split-block Bloom filter: Parquet's layout, one 32-byte "
                  "block per key, SIMD kernels. sizing: 'compact' (fewest blocks meeting "
                  "error_rate by the exact model) or 'parquet' (what Parquet writers use).",
                  &base_type, sbbf_methods, sbbf_getset) < 0 ||
        init_type(&bloom_type, "blockfilter.Bloom",
                  "Bloom(capacity, error_rate=0.01, *, seed=None)\n\nA classic Bloom filter "
                  "(k positions over m bits, the least memory of the Bloom family).",
                  &base_type, budget_methods, NULL) < 0 ||
        init_type(&counting_type, "blockfilter.Counting",
                  "Counting(capacity, error_rate=0.01, *, seed=None)\n\nA counting Bloom "
                  "filter (4-bit counters): keys can be removed.",
                  &base_type, remove_methods, NULL) < 0 ||
        init_type(&cuckoo_type, "blockfilter.Cuckoo",
                  "Cuckoo(capacity, error_rate=0.01, *, seed=None)\n\nA cuckoo filter: "
                  "removable keys, exact count; adding past its capacity may raise "
                  "ValueError (filter full). | and |= merge filters of one shape and seed "
                  "(a multiset union; ValueError, nothing changed, if it does not fit).",
                  &base_type, remove_methods, NULL) < 0 ||
        init_type(&scalable_type, "blockfilter.Scalable",
                  "Scalable(capacity, error_rate=0.01, *, seed=None, expansion=2, ratio=0.5, "
                  "scaling=True)\n\nA chain of SBBF layers for sets of unknown size: grows "
                  "past capacity, its FPR staying within error_rate.",
                  &base_type, NULL, scalable_getset) < 0 ||
        init_type(&blocked_type, "blockfilter.Blocked",
                  "Blocked(capacity, error_rate=0.01, *, seed=None, block_bits=0, sectors=0, "
                  "groups=0, k=0)\n\nA blocked Bloom filter of any shape: blocks of block_bits "
                  "(32..512), 1 or more sectors of 32 or 64 bits, in groups; a key sets k/groups "
                  "bits in one sector of each group. All four 0: the layout 512/8/2 at its best "
                  "k. Sized by the shape's exact model.",
                  &base_type, budget_methods, blocked_getset) < 0)
        return -1;
    if (PyStructSequence_InitType2(&stats_type, &stats_desc) < 0) return -1;
    PyTypeObject *types[] = {&base_type,   &bfpy_sbbf_type, &bloom_type,   &counting_type,
                             &cuckoo_type, &scalable_type,  &blocked_type, &stats_type};
    const char *names[] = {"Filter", "SBBF",     "Bloom",   "Counting",
                           "Cuckoo", "Scalable", "Blocked", "Stats"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        Py_INCREF(types[i]);
        if (PyModule_AddObject(module, names[i], (PyObject *)types[i]) < 0) {
            Py_DECREF(types[i]);
            return -1;
        }
    }
    return PyModule_AddFunctions(module, module_methods);
}
