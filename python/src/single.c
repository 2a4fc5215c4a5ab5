/* The SBBF's single-key add and `in`: the hot path of a Python loop over
 * keys. Compiled once with the build's default flags and, on x86-64, once
 * more with AVX2 (BFPY_SINGLE_AVX2), so that blockfilter_inline.h's paths
 * (the fixed-width XXH64 and the block probe, no call into the library)
 * run with the ISA the filter's kernel uses; the module picks the build
 * the CPU can run (filter.c, bfpy_filter_types_init).
 *
 * Exact str, int, bytes and float keys take the inline path with no object
 * made; everything else (subclasses, buffers, NumPy scalars, ints of 2^63
 * and up) and a filter in use by a call without the GIL take the general
 * path in filter.c, which hashes the same way. */
#include "bfpy.h"

#if defined(BFPY_SINGLE_AVX2)
#define SINGLE(name) name##_avx2
#define SINGLE_ISA "avx2"
#else
#define SINGLE(name) name##_base
#define SINGLE_ISA BFPY_BASE_ISA
#endif

#if defined(BF_SBBF_INLINE) && BF_SBBF_INLINE == BF_SBBF_KERNEL_AVX2
#define BFPY_BASE_ISA "avx2"
#elif defined(BF_SBBF_INLINE) && BF_SBBF_INLINE == BF_SBBF_KERNEL_NEON
#define BFPY_BASE_ISA "neon"
#else
#define BFPY_BASE_ISA "scalar"
#endif

/* 1: key handled (*rc = the library's status, *found for contains);
 * 0: not a key type of the fast path. */
static inline int fast_key(bf_sbbf *f, PyObject *key, int insert, int *rc, int *found) {
    PyTypeObject *t = Py_TYPE(key);
    if (t == &PyUnicode_Type) {
        const char *p;
        Py_ssize_t n;
        if (BFPY_LIKELY(PyUnicode_IS_COMPACT_ASCII(key))) {
            p = (const char *)PyUnicode_DATA(key);
            n = PyUnicode_GET_LENGTH(key);
        } else {
            p = PyUnicode_AsUTF8AndSize(key, &n); /* cached in the str */
            if (!p) {
                PyErr_Clear();
                return 0; /* surrogates: the general path raises */
            }
        }
        if (insert) *rc = bf_sbbf_insert(f, p, (size_t)n);
        else *found = bf_sbbf_contains(f, p, (size_t)n);
        return 1;
    }
    if (t == &PyLong_Type) {
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(key, &overflow);
        if (overflow) return 0;
        if (insert) *rc = bf_sbbf_insert_int64(f, v);
        else *found = bf_sbbf_contains_int64(f, v);
        return 1;
    }
    if (t == &PyBytes_Type) {
        const char *p = PyBytes_AS_STRING(key);
        size_t n = (size_t)PyBytes_GET_SIZE(key);
        if (insert) *rc = bf_sbbf_insert(f, p, n);
        else *found = bf_sbbf_contains(f, p, n);
        return 1;
    }
    if (t == &PyFloat_Type) {
        double d = PyFloat_AS_DOUBLE(key);
        if (insert) *rc = bf_sbbf_insert_double(f, d);
        else *found = bf_sbbf_contains_double(f, d);
        return 1;
    }
    return 0;
}

static PyObject *SINGLE(sbbf_add)(PyObject *self, PyObject *key) {
    bfpy_filter *o = (bfpy_filter *)self;
    bf_sbbf *f = o->sbbf;
    int rc = BF_OK, found;
    if (BFPY_LIKELY(f != NULL && o->nogil == 0) && fast_key(f, key, 1, &rc, &found)) {
        if (BFPY_LIKELY(rc == BF_OK)) Py_RETURN_NONE;
        return bfpy_error(rc, NULL, NULL, 0);
    }
    if (bfpy_sbbf_single_slow(o, key, 0) < 0) return NULL;
    Py_RETURN_NONE;
}

static int SINGLE(sbbf_sq_contains)(PyObject *self, PyObject *key) {
    bfpy_filter *o = (bfpy_filter *)self;
    bf_sbbf *f = o->sbbf;
    int rc, found = 0;
    if (BFPY_LIKELY(f != NULL && o->nogil == 0) && fast_key(f, key, 0, &rc, &found)) return found;
    return bfpy_sbbf_single_slow(o, key, 1);
}

void SINGLE(bfpy_single_ops)(bfpy_single_ops *out) {
    out->add = SINGLE(sbbf_add);
    out->sq_contains = SINGLE(sbbf_sq_contains);
    out->isa = SINGLE_ISA;
}
