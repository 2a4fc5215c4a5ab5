/* Many keys in one call: typed buffers (NumPy arrays, array.array,
 * memoryviews) read in place, Arrow-layout binary (a data buffer and
 * int32/int64 offsets), or any sequence of keys, hashed here. Answers go to
 * NumPy bool arrays. */
#include "bfpy.h"

#include <stdlib.h>
#include <string.h>

/* ---- NumPy ----------------------------------------------------------------- */

static PyObject *numpy_empty_fn; /* numpy.empty, imported on first use */

static PyObject *numpy_empty_shaped(PyObject *shape, const char *dtype, void **data) {
    if (!numpy_empty_fn) {
        PyObject *np = PyImport_ImportModule("numpy");
        if (!np) return NULL;
        numpy_empty_fn = PyObject_GetAttrString(np, "empty");
        Py_DECREF(np);
        if (!numpy_empty_fn) return NULL;
    }
    PyObject *arr = PyObject_CallFunction(numpy_empty_fn, "Os", shape, dtype);
    if (!arr) return NULL;
    Py_buffer v;
    if (PyObject_GetBuffer(arr, &v, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    *data = v.buf; /* the array owns it and keeps it where it is */
    PyBuffer_Release(&v);
    return arr;
}

PyObject *bfpy_numpy_empty(Py_ssize_t n, const char *dtype, void **data) {
    PyObject *shape = PyLong_FromSsize_t(n);
    if (!shape) return NULL;
    PyObject *arr = numpy_empty_shaped(shape, dtype, data);
    Py_DECREF(shape);
    return arr;
}

PyObject *bfpy_bool_array(const bfpy_batch *b, PyObject *out, uint8_t **bytes) {
    if (out && out != Py_None) {
        Py_buffer v;
        if (PyObject_GetBuffer(out, &v, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
            return NULL;
        const char *fmt = v.format ? v.format : "B";
        if (*fmt == '<' || *fmt == '=' || *fmt == '@' || *fmt == '|') fmt++;
        int ok = v.itemsize == 1 && (!strcmp(fmt, "?") || !strcmp(fmt, "B") || !strcmp(fmt, "b"));
        if (!ok || (size_t)v.len != b->n) {
            PyErr_Format(PyExc_ValueError,
                         "out must be a writable contiguous bool (or uint8) array of %zu items",
                         b->n);
            PyBuffer_Release(&v);
            return NULL;
        }
        *bytes = v.buf;
        PyBuffer_Release(&v); /* out is the caller's: it stays alive during the call */
        Py_INCREF(out);
        return out;
    }
    void *data;
    PyObject *arr;
    if (b->shape) arr = numpy_empty_shaped(b->shape, "bool", &data);
    else arr = bfpy_numpy_empty((Py_ssize_t)b->n, "bool", &data);
    *bytes = data;
    return arr;
}

/* ---- formats ---------------------------------------------------------------- */

int bfpy_format_parse(const Py_buffer *v, bfpy_format *f) {
    const char *fmt = v->format ? v->format : "B";
    int big = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    const int host_big = 1;
#else
    const int host_big = 0;
#endif
    big = host_big;
    switch (*fmt) {
    case '@':
    case '=': fmt++; break;
    case '<': big = 0; fmt++; break;
    case '>':
    case '!': big = 1; fmt++; break;
    default: break;
    }
    if (fmt[0] == '\0' || fmt[1] != '\0') return -1;
    int size = (int)v->itemsize;
    switch (fmt[0]) {
    case 'b': case 'h': case 'i': case 'l': case 'q': case 'n': f->kind = 'i'; break;
    case 'B': case 'H': case 'I': case 'L': case 'Q': case 'N': f->kind = 'u'; break;
    case 'f': case 'd': f->kind = 'f'; break;
    case '?': f->kind = 'b'; break;
    default: return -1;
    }
    if (f->kind == 'f' ? (size != 4 && size != 8)
                       : f->kind == 'b' ? size != 1
                                        : (size != 1 && size != 2 && size != 4 && size != 8))
        return -1;
    f->size = size;
    f->swapped = size > 1 && big != host_big;
    return 0;
}

int32_t bfpy_format_int32(const bfpy_format *f, const void *p) {
    switch (f->size) {
    case 1: return f->kind == 'i' ? (int32_t)*(const int8_t *)p : (int32_t)*(const uint8_t *)p;
    case 2: {
        uint16_t u;
        memcpy(&u, p, 2);
        return f->kind == 'i' ? (int32_t)(int16_t)u : (int32_t)u;
    }
    default: {
        int32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    }
}

/* ---- reading a batch -------------------------------------------------------- */

void bfpy_batch_release(bfpy_batch *b) {
    for (int i = 0; i < b->nviews; i++) PyBuffer_Release(&b->views[i]);
    b->nviews = 0;
    PyMem_RawFree(b->hashes);
    PyMem_RawFree(b->owned);
    b->hashes = NULL;
    b->owned = NULL;
    Py_CLEAR(b->shape);
}

static int fail(bfpy_batch *b) {
    bfpy_batch_release(b);
    return -1;
}

/* Arrow binary: data (any bytes) and n + 1 offsets (int32 or int64). */
static int binary_batch(PyObject *data, PyObject *offsets, bfpy_batch *b) {
    Py_buffer *d = &b->views[0], *o = &b->views[1];
    if (PyObject_GetBuffer(data, d, PyBUF_C_CONTIGUOUS) < 0) return fail(b);
    b->nviews = 1;
    if (PyObject_GetBuffer(offsets, o, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return fail(b);
    b->nviews = 2;
    bfpy_format f;
    if (bfpy_format_parse(o, &f) < 0 || f.kind != 'i' || (f.size != 4 && f.size != 8) ||
        f.swapped || o->ndim != 1) {
        PyErr_SetString(PyExc_TypeError,
                        "offsets must be a one-dimensional int32 or int64 array");
        return fail(b);
    }
    size_t count = (size_t)(o->len / o->itemsize);
    if (count < 1) {
        PyErr_SetString(PyExc_ValueError, "offsets must hold n + 1 entries (at least one)");
        return fail(b);
    }
    int64_t last;
    if (f.size == 4) {
        int32_t v;
        memcpy(&v, (const char *)o->buf + 4 * (count - 1), 4);
        last = v;
    } else {
        memcpy(&last, (const char *)o->buf + 8 * (count - 1), 8);
    }
    /* The library checks that the offsets start at 0 or more and never
     * decrease before it reads a byte; the last one bounds them all. */
    if (last > (int64_t)d->len) {
        PyErr_Format(PyExc_ValueError, "the last offset (%lld) is past the end of the data "
                                       "(%zd bytes)", (long long)last, d->len);
        return fail(b);
    }
    b->kind = f.size == 4 ? BFPY_BATCH_BIN32 : BFPY_BATCH_BIN64;
    b->n = count - 1;
    b->values = d->buf;
    b->offsets = o->buf;
    return 0;
}

/* A typed buffer: in place when it is contiguous and of a width the
 * library takes, else copied once (strided, 1- or 2-byte integers and
 * bools widened as their single keys are). */
static int typed_batch(bfpy_batch *b, const bfpy_format *f) {
    Py_buffer *v = &b->views[0];
    if (f->swapped) {
        PyErr_SetString(PyExc_TypeError, "arrays in the other byte order are not supported "
                                         "(convert with .astype(dtype.newbyteorder('=')))");
        return fail(b);
    }
    b->n = (size_t)(v->len / v->itemsize);
    if (v->ndim > 1) {
        b->shape = PyTuple_New(v->ndim);
        if (!b->shape) return fail(b);
        for (int i = 0; i < v->ndim; i++) {
            PyObject *d = PyLong_FromSsize_t(v->shape[i]);
            if (!d) return fail(b);
            PyTuple_SET_ITEM(b->shape, i, d);
        }
    }
    const void *src = v->buf;
    if (!PyBuffer_IsContiguous(v, 'C')) {
        b->owned = PyMem_RawMalloc(v->len ? (size_t)v->len : 1);
        if (!b->owned) {
            PyErr_NoMemory();
            return fail(b);
        }
        if (PyBuffer_ToContiguous(b->owned, v, v->len, 'C') < 0) return fail(b);
        src = b->owned;
    }
    if (f->kind == 'f') {
        b->kind = f->size == 4 ? BFPY_BATCH_F32 : BFPY_BATCH_F64;
        b->values = src;
        return 0;
    }
    if (f->size == 8 || (f->size == 4 && f->kind != 'b')) {
        b->kind = f->size == 8 ? BFPY_BATCH_I64 : BFPY_BATCH_I32;
        b->values = src;
        return 0;
    }
    /* Widen: bools to INT64 (as True and False), 1- and 2-byte integers to
     * INT32 (as Parquet stores them). */
    size_t width = f->kind == 'b' ? 8 : 4;
    void *wide = PyMem_RawMalloc(b->n ? b->n * width : 1);
    if (!wide) {
        PyErr_NoMemory();
        return fail(b);
    }
    const uint8_t *p = src;
    if (f->kind == 'b') {
        int64_t *w = wide;
        for (size_t i = 0; i < b->n; i++) w[i] = p[i] != 0;
        b->kind = BFPY_BATCH_I64;
    } else {
        int32_t *w = wide;
        for (size_t i = 0; i < b->n; i++) w[i] = bfpy_format_int32(f, p + i * (size_t)f->size);
        b->kind = BFPY_BATCH_I32;
    }
    PyMem_RawFree(b->owned);
    b->owned = wide;
    b->values = wide;
    return 0;
}

/* Anything else: a sequence (or iterable) of keys, each hashed as a single
 * key is. */
static int sequence_batch(PyObject *values, uint64_t seed, bfpy_batch *b) {
    PyObject *seq = PySequence_Fast(values, "keys must be an array, a sequence or an iterable");
    if (!seq) return fail(b);
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    b->kind = BFPY_BATCH_HASHES;
    b->n = (size_t)n;
    b->hashes = PyMem_RawMalloc(n ? (size_t)n * sizeof(uint64_t) : 1);
    if (!b->hashes) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return fail(b);
    }
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        /* Re-read the size: hashing a key may run Python code that shrinks
         * a list. */
        if (i >= n || bfpy_hash_object(PySequence_Fast_GET_ITEM(seq, i), seed, &b->hashes[i]) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "the keys changed size");
            Py_DECREF(seq);
            return fail(b);
        }
    }
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_SetString(PyExc_RuntimeError, "the keys changed size");
        Py_DECREF(seq);
        return fail(b);
    }
    Py_DECREF(seq);
    return 0;
}

int bfpy_batch_get(PyObject *values, PyObject *offsets, uint64_t seed, bfpy_batch *b) {
    memset(b, 0, sizeof *b);
    if (offsets) return binary_batch(values, offsets, b);
    if (PyUnicode_Check(values) || PyBytes_Check(values) || PyByteArray_Check(values)) {
        PyErr_Format(PyExc_TypeError,
                     "a %.50s is one key: use add() / `in`; for many keys pass a list, an "
                     "array, or data and offsets",
                     Py_TYPE(values)->tp_name);
        return -1;
    }
    if (PyObject_CheckBuffer(values)) {
        Py_buffer *v = &b->views[0];
        if (PyObject_GetBuffer(values, v, PyBUF_RECORDS_RO) < 0) return -1;
        b->nviews = 1;
        bfpy_format f;
        if (bfpy_format_parse(v, &f) == 0 && v->ndim >= 1) return typed_batch(b, &f);
        /* Strings (NumPy 'S' and 'U' arrays), records: element by element. */
        bfpy_batch_release(b);
    }
    return sequence_batch(values, seed, b);
}

int bfpy_batch_hash(const bfpy_batch *b, size_t from, size_t n, uint64_t seed, uint64_t *out) {
    int rc = BF_OK;
    switch (b->kind) {
    case BFPY_BATCH_HASHES: memcpy(out, b->hashes + from, n * sizeof *out); break;
    case BFPY_BATCH_I32: bf_hash_int32s((const int32_t *)b->values + from, n, seed, out); break;
    case BFPY_BATCH_I64: bf_hash_int64s((const int64_t *)b->values + from, n, seed, out); break;
    case BFPY_BATCH_F32: bf_hash_floats((const float *)b->values + from, n, seed, out); break;
    case BFPY_BATCH_F64: bf_hash_doubles((const double *)b->values + from, n, seed, out); break;
    case BFPY_BATCH_BIN32:
        rc = bf_hash_binary(b->values, (const int32_t *)b->offsets + from, n, seed, out);
        break;
    case BFPY_BATCH_BIN64:
        rc = bf_hash_large_binary(b->values, (const int64_t *)b->offsets + from, n, seed, out);
        break;
    }
    return rc;
}
