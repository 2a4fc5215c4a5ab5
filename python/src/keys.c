/* One key from a Python object, hashed as the library hashes it: a byte
 * string's bytes (str as UTF-8), a fixed-width value's little-endian bytes
 * (int as Parquet INT64, float as DOUBLE, a NumPy scalar as its dtype). */
#include "bfpy.h"

#include <string.h>

static int int_key(PyObject *obj, bfpy_key *k) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(obj);
        if (u == (unsigned long long)-1 && PyErr_Occurred()) overflow = -1;
        else v = (long long)u; /* UINT_64: the same 64 bits */
    }
    if (overflow < 0) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "int keys must fit in 64 bits (-2**63 .. 2**64-1)");
        return -1;
    }
    k->kind = BFPY_KEY_I64;
    k->bits = (uint64_t)v;
    return 0;
}

/* A 0-dimensional numeric buffer (a NumPy scalar) as its value. */
static int scalar_key(const bfpy_format *f, const void *p, bfpy_key *k) {
    uint64_t u64 = 0;
    switch (f->kind) {
    case 'b': /* bool: as Python's True and False, INT64 */
        k->kind = BFPY_KEY_I64;
        k->bits = *(const uint8_t *)p != 0;
        return 0;
    case 'i':
    case 'u':
        if (f->size == 8) {
            memcpy(&u64, p, 8);
            k->kind = BFPY_KEY_I64;
            k->bits = u64;
            return 0;
        }
        k->kind = BFPY_KEY_I32; /* 1, 2, 4 bytes: Parquet keeps them in INT32 */
        k->bits = (uint32_t)bfpy_format_int32(f, p);
        return 0;
    case 'f':
        if (f->size == 4) {
            uint32_t u32;
            memcpy(&u32, p, 4);
            k->kind = BFPY_KEY_F32;
            k->bits = u32;
        } else {
            memcpy(&u64, p, 8);
            k->kind = BFPY_KEY_F64;
            k->bits = u64;
        }
        return 0;
    }
    return -1;
}

int bfpy_key_get(PyObject *obj, bfpy_key *k) {
    k->view.obj = NULL;
    if (PyUnicode_Check(obj)) {
        Py_ssize_t n;
        const char *p = PyUnicode_AsUTF8AndSize(obj, &n);
        if (!p) return -1;
        k->kind = BFPY_KEY_BYTES;
        k->data = p;
        k->len = (size_t)n;
        return 0;
    }
    if (PyBytes_Check(obj)) {
        k->kind = BFPY_KEY_BYTES;
        k->data = PyBytes_AS_STRING(obj);
        k->len = (size_t)PyBytes_GET_SIZE(obj);
        return 0;
    }
    if (PyLong_Check(obj)) return int_key(obj, k);
    if (PyFloat_Check(obj)) {
        double d = PyFloat_AS_DOUBLE(obj);
        k->kind = BFPY_KEY_F64;
        memcpy(&k->bits, &d, 8);
        return 0;
    }
    if (PyObject_CheckBuffer(obj)) {
        if (PyObject_GetBuffer(obj, &k->view, PyBUF_RECORDS_RO) < 0) return -1;
        bfpy_format f;
        int numeric = bfpy_format_parse(&k->view, &f) == 0;
        if (numeric && k->view.ndim == 0) {
            if (f.swapped) {
                PyBuffer_Release(&k->view);
                PyErr_SetString(PyExc_TypeError, "keys in the other byte order are not "
                                                 "supported (convert to native order)");
                return -1;
            }
            int r = scalar_key(&f, k->view.buf, k);
            PyBuffer_Release(&k->view);
            return r;
        }
        if (numeric && f.size > 1) {
            PyBuffer_Release(&k->view);
            PyErr_SetString(PyExc_TypeError, "an array is many keys: use add_many() or "
                                             "contains_many() (or pass its bytes())");
            return -1;
        }
        if (!PyBuffer_IsContiguous(&k->view, 'C')) {
            PyBuffer_Release(&k->view);
            PyErr_SetString(PyExc_TypeError, "a buffer key must be contiguous");
            return -1;
        }
        k->kind = BFPY_KEY_BYTES;
        k->data = k->view.buf;
        k->len = (size_t)k->view.len;
        return 0;
    }
    if (PyIndex_Check(obj)) {
        PyObject *i = PyNumber_Index(obj);
        if (!i) return -1;
        int r = int_key(i, k);
        Py_DECREF(i);
        return r;
    }
    PyErr_Format(PyExc_TypeError, "keys are str, bytes-like, int or float, not %.100s",
                 Py_TYPE(obj)->tp_name);
    return -1;
}

void bfpy_key_release(bfpy_key *k) {
    if (k->view.obj) PyBuffer_Release(&k->view);
}

uint64_t bfpy_key_hash(const bfpy_key *k, uint64_t seed) {
    switch (k->kind) {
    case BFPY_KEY_I64:
    case BFPY_KEY_F64: return bf_xxh64_u64(k->bits, seed);
    case BFPY_KEY_I32:
    case BFPY_KEY_F32: return bf_xxh64_u32((uint32_t)k->bits, seed);
    default: return bf_hash_xxh64_seeded(k->data, k->len, seed);
    }
}

int bfpy_hash_object(PyObject *obj, uint64_t seed, uint64_t *out) {
    bfpy_key k;
    if (bfpy_key_get(obj, &k) < 0) return -1;
    *out = bfpy_key_hash(&k, seed);
    bfpy_key_release(&k);
    return 0;
}
