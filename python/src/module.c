/* The module blockfilter._core: its functions, the library's statuses as
 * Python exceptions, and the per-object lock (bfpy.h, "Locking"). */
#include "bfpy.h"

#include <errno.h>
#include <math.h>
#include <string.h>

/* ---- errors --------------------------------------------------------------- */

/* The exception for status with message msg (a new reference, released
 * here), its `status` attribute set; NULL. */
static PyObject *raise_status(int status, PyObject *msg, PyObject *path, int err) {
    if (!msg) return NULL;
    PyObject *type;
    switch (status) {
    case BF_ENOMEM: Py_DECREF(msg); return PyErr_NoMemory();
    case BF_EREADONLY: type = PyExc_TypeError; break;
    case BF_ENOTFOUND: type = PyExc_KeyError; break;
    case BF_EIO: type = PyExc_OSError; break;
    default: type = PyExc_ValueError; break;
    }
    PyObject *exc;
    if (type == PyExc_OSError)
        exc = PyObject_CallFunction(type, "iOO", err ? err : EIO, msg, path ? path : Py_None);
    else
        exc = PyObject_CallOneArg(type, msg);
    Py_DECREF(msg);
    if (!exc) return NULL;
    PyObject *code = PyLong_FromLong(status);
    if (!code || PyObject_SetAttrString(exc, "status", code) < 0) {
        Py_XDECREF(code);
        Py_DECREF(exc);
        return NULL;
    }
    Py_DECREF(code);
    PyErr_SetObject(type, exc);
    Py_DECREF(exc);
    return NULL;
}

PyObject *bfpy_error(int status, const char *context, PyObject *path, int err) {
    const char *what = bf_strerror(status);
    PyObject *msg;
    if (status == BF_EIO && err != 0) {
        msg = context ? PyUnicode_FromFormat("%s: %s: %s", context, what, strerror(err))
                      : PyUnicode_FromFormat("%s: %s", what, strerror(err));
    } else {
        msg = context ? PyUnicode_FromFormat("%s: %s", context, what)
                      : PyUnicode_FromString(what);
    }
    return raise_status(status, msg, path, err);
}

PyObject *bfpy_error_text(int status, const char *text) {
    return raise_status(status, PyUnicode_FromString(text), NULL, 0);
}

/* ---- locking --------------------------------------------------------------- */

void bfpy_lock_init(pthread_rwlock_t *lock) {
    pthread_rwlockattr_t attr;
    pthread_rwlockattr_init(&attr);
#if defined(__GLIBC__)
    /* A waiting writer goes before new readers: with readers that follow
     * each other without a gap (threads looping over contains_many), the
     * default would make an add wait for all of them to stop. */
    pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
#endif
    pthread_rwlock_init(lock, &attr);
    pthread_rwlockattr_destroy(&attr);
}

int bfpy_run(Py_ssize_t *nogil, pthread_rwlock_t *lock, int write, int release,
             bfpy_work_fn fn, void *ctx) {
    if (!release && *nogil == 0) return fn(ctx);
    int r;
    (*nogil)++;
    Py_BEGIN_ALLOW_THREADS
    if (write) pthread_rwlock_wrlock(lock);
    else pthread_rwlock_rdlock(lock);
    r = fn(ctx);
    pthread_rwlock_unlock(lock);
    Py_END_ALLOW_THREADS
    (*nogil)--;
    return r;
}

int bfpy_run2(Py_ssize_t *nogil_a, pthread_rwlock_t *lock_a, Py_ssize_t *nogil_b,
              pthread_rwlock_t *lock_b, int release, bfpy_work_fn fn, void *ctx) {
    if (lock_a == lock_b) return bfpy_run(nogil_a, lock_a, 1, release, fn, ctx);
    if (!release && *nogil_a == 0 && *nogil_b == 0) return fn(ctx);
    int r;
    (*nogil_a)++;
    (*nogil_b)++;
    Py_BEGIN_ALLOW_THREADS
    /* Always the lower address first, so two merges in opposite
     * directions cannot wait for each other. */
    if (lock_a < lock_b) {
        pthread_rwlock_wrlock(lock_a);
        pthread_rwlock_rdlock(lock_b);
    } else {
        pthread_rwlock_rdlock(lock_b);
        pthread_rwlock_wrlock(lock_a);
    }
    r = fn(ctx);
    pthread_rwlock_unlock(lock_b);
    pthread_rwlock_unlock(lock_a);
    Py_END_ALLOW_THREADS
    (*nogil_a)--;
    (*nogil_b)--;
    return r;
}

/* ---- module functions ------------------------------------------------------ */

static int family_arg(PyObject *o, void *out) {
    const char *name = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
    if (!name) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "family must be a str");
        return 0;
    }
    if (bf_family_from_name(name, (bf_family *)out) != BF_OK) {
        PyErr_Format(PyExc_ValueError,
                     "unknown family '%s' (sbbf, bloom, counting, cuckoo, scalable)", name);
        return 0;
    }
    return 1;
}

int bfpy_seed_arg(PyObject *o, uint64_t *seed) {
    if (o == NULL || o == Py_None) {
        *seed = 0;
        return 0;
    }
    if (!PyLong_Check(o)) {
        PyErr_Format(PyExc_TypeError, "seed must be an int or None, not %.100s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "seed must be in 0 .. 2**64-1");
        return -1;
    }
    *seed = v;
    return 0;
}

static PyObject *mod_hash(PyObject *m, PyObject *args, PyObject *kw) {
    (void)m;
    static char *kwlist[] = {"key", "seed", NULL};
    PyObject *key, *seed_o = NULL;
    uint64_t seed, h;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:hash", kwlist, &key, &seed_o)) return NULL;
    if (bfpy_seed_arg(seed_o, &seed) < 0 || bfpy_hash_object(key, seed, &h) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(h);
}

static PyObject *mod_hash_many(PyObject *m, PyObject *args, PyObject *kw) {
    (void)m;
    static char *kwlist[] = {"values", "offsets", "seed", NULL};
    PyObject *values, *offsets = Py_None, *seed_o = NULL;
    uint64_t seed;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OO:hash_many", kwlist, &values, &offsets,
                                     &seed_o))
        return NULL;
    if (bfpy_seed_arg(seed_o, &seed) < 0) return NULL;
    bfpy_batch b;
    if (bfpy_batch_get(values, offsets == Py_None ? NULL : offsets, seed, &b) < 0) return NULL;
    void *data;
    PyObject *out = bfpy_numpy_empty((Py_ssize_t)b.n, "uint64", &data);
    int rc = out ? bfpy_batch_hash(&b, 0, b.n, seed, data) : BF_OK;
    if (rc != BF_OK) {
        Py_CLEAR(out);
        bfpy_error(rc, BFPY_OFFSETS_MSG, NULL, 0);
    }
    bfpy_batch_release(&b);
    return out;
}

static PyObject *mod_sbbf_model_fpp(PyObject *m, PyObject *args) {
    (void)m;
    unsigned long long bytes, n;
    if (!PyArg_ParseTuple(args, "KK:sbbf_model_fpp", &bytes, &n)) return NULL;
    return PyFloat_FromDouble(bf_sbbf_model_fpp(bytes, n));
}

static PyObject *mod_bloom_model_fpp(PyObject *m, PyObject *args) {
    (void)m;
    unsigned long long bits, n;
    unsigned int k;
    if (!PyArg_ParseTuple(args, "KIK:bloom_model_fpp", &bits, &k, &n)) return NULL;
    return PyFloat_FromDouble(bf_bloom_model_fpp(bits, k, n));
}

static PyObject *mod_sbbf_bytes(PyObject *m, PyObject *args, PyObject *kw) {
    (void)m;
    static char *kwlist[] = {"n", "fpp", "sizing", NULL};
    unsigned long long n;
    double fpp;
    const char *sizing = "compact";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Kd|s:sbbf_bytes", kwlist, &n, &fpp, &sizing))
        return NULL;
    size_t bytes = 0;
    int rc;
    if (!strcmp(sizing, "compact")) rc = bf_sbbf_compact_bytes(n, fpp, &bytes);
    else if (!strcmp(sizing, "parquet")) rc = bf_sbbf_parquet_bytes(n, fpp, &bytes);
    else {
        PyErr_Format(PyExc_ValueError, "sizing must be 'compact' or 'parquet', not '%s'", sizing);
        return NULL;
    }
    if (rc != BF_OK) return bfpy_error(rc, "sbbf_bytes", NULL, 0);
    return PyLong_FromSize_t(bytes);
}

static PyObject *mod_size_for(PyObject *m, PyObject *args) {
    (void)m;
    bf_family fam;
    unsigned long long n;
    double fpp;
    if (!PyArg_ParseTuple(args, "O&Kd:size_for", family_arg, &fam, &n, &fpp)) return NULL;
    bf_sizing s;
    int rc = bf_size_for(fam, n, fpp, &s);
    if (rc != BF_OK) return bfpy_error(rc, "size_for", NULL, 0);
    return Py_BuildValue("{s:s,s:K,s:d,s:I,s:I,s:d}", "family", bf_family_name(s.family),
                         "num_bytes", (unsigned long long)s.num_bytes, "bits_per_key",
                         s.bits_per_key, "k", s.k, "fp_bits", s.fp_bits, "model_fpp",
                         s.model_fpp);
}

static PyObject *mod_fpp_for(PyObject *m, PyObject *args) {
    (void)m;
    bf_family fam;
    unsigned long long bytes, n;
    if (!PyArg_ParseTuple(args, "O&KK:fpp_for", family_arg, &fam, &bytes, &n)) return NULL;
    double fpp;
    int rc = bf_fpp_for(fam, bytes, n, &fpp);
    if (rc != BF_OK) return bfpy_error(rc, "fpp_for", NULL, 0);
    return PyFloat_FromDouble(fpp);
}

static PyObject *mod_kernels(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    for (size_t i = 0; i < bf_sbbf_kernel_count(); i++) {
        const char *name = bf_sbbf_kernel_name(i);
        if (!name || !bf_sbbf_kernel_supported(name)) continue;
        PyObject *s = PyUnicode_FromString(name);
        if (!s || PyList_Append(list, s) < 0) {
            Py_XDECREF(s);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(s);
    }
    return list;
}

static PyObject *mod_default_kernel(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    const char *name = NULL;
    int rc = bf_sbbf_default_kernel(&name);
    if (rc != BF_OK) return bfpy_error(rc, "BLOCKFILTER_KERNEL", NULL, 0);
    return PyUnicode_FromString(name);
}

static PyObject *mod_random_seed(PyObject *m, PyObject *unused) {
    (void)m;
    (void)unused;
    uint64_t s;
    int rc = bf_random_seed(&s);
    if (rc != BF_OK) return bfpy_error(rc, "random_seed", NULL, errno);
    return PyLong_FromUnsignedLongLong(s);
}

static PyObject *mod_strerror(PyObject *m, PyObject *arg) {
    (void)m;
    int status = (int)PyLong_AsLong(arg);
    if (status == -1 && PyErr_Occurred()) return NULL;
    return PyUnicode_FromString(bf_strerror(status));
}

static PyMethodDef module_methods[] = {
    {"hash", (PyCFunction)(void (*)(void))mod_hash, METH_VARARGS | METH_KEYWORDS,
     "hash(key, seed=0) -> int\n\nThe 64-bit hash a filter with this seed computes for key "
     "(XXH64 of its bytes; seed 0 is Parquet's hash)."},
    {"hash_many", (PyCFunction)(void (*)(void))mod_hash_many, METH_VARARGS | METH_KEYWORDS,
     "hash_many(values, offsets=None, seed=0) -> numpy.ndarray of uint64\n\nThe hashes of a "
     "batch of keys, as add_many reads them."},
    {"sbbf_model_fpp", mod_sbbf_model_fpp, METH_VARARGS,
     "sbbf_model_fpp(num_bytes, n) -> float\n\nExact model FPR of an SBBF of num_bytes "
     "holding n distinct keys."},
    {"bloom_model_fpp", mod_bloom_model_fpp, METH_VARARGS,
     "bloom_model_fpp(m, k, n) -> float\n\nExact model FPR of a classic Bloom filter of m "
     "bits and k hashes holding n keys."},
    {"sbbf_bytes", (PyCFunction)(void (*)(void))mod_sbbf_bytes, METH_VARARGS | METH_KEYWORDS,
     "sbbf_bytes(n, fpp, sizing='compact') -> int\n\nBytes of an SBBF for n keys at fpp: "
     "'compact' (fewest blocks meeting fpp by the exact model) or 'parquet' (Arrow / "
     "parquet-java's formula, a power of two in [32 B, 128 MiB])."},
    {"size_for", mod_size_for, METH_VARARGS,
     "size_for(family, n, fpp) -> dict\n\nWhat a filter of the family for n keys at fpp "
     "allocates: num_bytes, bits_per_key, k, fp_bits, model_fpp."},
    {"fpp_for", mod_fpp_for, METH_VARARGS,
     "fpp_for(family, num_bytes, n) -> float\n\nModel FPR of the family's best filter of "
     "num_bytes holding n keys."},
    {"kernels", mod_kernels, METH_NOARGS,
     "kernels() -> list of str\n\nThe SBBF kernels built in that this CPU runs, best first."},
    {"default_kernel", mod_default_kernel, METH_NOARGS,
     "default_kernel() -> str\n\nThe kernel new SBBFs get (BLOCKFILTER_KERNEL, or the best)."},
    {"random_seed", mod_random_seed, METH_NOARGS,
     "random_seed() -> int\n\n64 random bits from the operating system, for keyed filters."},
    {"strerror", mod_strerror, METH_O, "strerror(status) -> str\n\nThe library's message."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "blockfilter._core",
    "The C extension under the blockfilter package (import blockfilter instead).",
    -1,
    module_methods,
    NULL,
    NULL,
    NULL,
    NULL};

PyMODINIT_FUNC PyInit__core(void);
PyMODINIT_FUNC PyInit__core(void) {
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    if (PyModule_AddStringConstant(m, "library_version", bf_version_string()) < 0 ||
        bfpy_filter_types_init(m) < 0 || bfpy_parquet_init(m) < 0 ||
        PyModule_AddStringConstant(m, "single_key_isa", bfpy_single_isa) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    static const struct {
        const char *name;
        int value;
    } statuses[] = {
        {"OK", BF_OK},
        {"EINVAL", BF_EINVAL},
        {"ENOMEM", BF_ENOMEM},
        {"ETOOBIG", BF_ETOOBIG},
        {"ETRUNCATED", BF_ETRUNCATED},
        {"ECORRUPT", BF_ECORRUPT},
        {"EFORMAT", BF_EFORMAT},
        {"EVERSION", BF_EVERSION},
        {"EUNSUPPORTED", BF_EUNSUPPORTED},
        {"EBUFSIZE", BF_EBUFSIZE},
        {"EKERNEL", BF_EKERNEL},
        {"EMISMATCH", BF_EMISMATCH},
        {"EFULL", BF_EFULL},
        {"ENOTFOUND", BF_ENOTFOUND},
        {"EIO", BF_EIO},
        {"EREADONLY", BF_EREADONLY},
        {"EFAMILY", BF_EFAMILY},
        {"EENCRYPTED", BF_EENCRYPTED},
        {"ENOFILTER", BF_ENOFILTER},
        {"ENOCOLUMN", BF_ENOCOLUMN},
        {"ESHAPE", BF_ESHAPE},
    };
    PyObject *codes = PyDict_New();
    if (!codes) goto fail;
    for (size_t i = 0; i < sizeof statuses / sizeof statuses[0]; i++) {
        PyObject *v = PyLong_FromLong(statuses[i].value);
        if (!v || PyDict_SetItemString(codes, statuses[i].name, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(codes);
            goto fail;
        }
        Py_DECREF(v);
    }
    if (PyModule_AddObject(m, "statuses", codes) < 0) {
        Py_DECREF(codes);
        goto fail;
    }
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
