/*
 * The Python extension blockfilter._core: what its files share.
 *
 *   module.c   the module: types, functions, status -> exception mapping
 *   keys.c     one key (str, bytes, buffer, int, float) -> its bytes or value
 *   batch.c    many keys (typed arrays, Arrow binary, sequences) without copies
 *   filter.c   the filter types (one per family) over bf_filter / bf_sbbf
 *   single.c   the SBBF's single-key add and `in`, compiled once per ISA so
 *              the header's inline paths run (AVX2 on x86-64 where the CPU
 *              has it)
 *   parquet.c  Parquet files: footer, row groups, filters, pruning
 *
 * Locking (docs/python.md, "Threads"): every filter and Parquet file keeps
 * `nogil`, the number of calls running on it without the GIL, changed only
 * with the GIL held. A call that runs with the GIL (single keys, small
 * batches) and finds nogil == 0 needs no lock: the GIL keeps every other
 * call out. Calls that release the GIL (large batches, file writes) take
 * the object's read-write lock after releasing it; a GIL-holding call that
 * finds nogil > 0 takes the same lock the same way. So queries run in
 * parallel, and a write never overlaps any other call on the same object.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef BFPY_H
#define BFPY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <blockfilter.h>          /* the core: SBBF, hashing, Parquet bytes */
#include <blockfilter_advanced.h> /* the families, bf_filter, native files */
#include <blockfilter_parquet.h>  /* Parquet files */

#if defined(__GNUC__)
#define BFPY_LIKELY(x) __builtin_expect(!!(x), 1)
#define BFPY_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define BFPY_HIDDEN __attribute__((visibility("hidden")))
#else
#define BFPY_LIKELY(x) (x)
#define BFPY_UNLIKELY(x) (x)
#define BFPY_HIDDEN
#endif

/* Batches below this many keys run with the GIL held: releasing and taking
 * it back costs more than they do. */
#define BFPY_NOGIL_MIN 2048

/* ---- filters -------------------------------------------------------------- */

typedef struct bfpy_filter {
    PyObject_HEAD
    bf_sbbf *sbbf;        /* SBBF family: the bitset the hot paths read */
    bf_filter *filter;    /* the generic filter; NULL for an SBBF that is a
                             view not owned by one (Parquet views) */
    bf_family family;
    Py_ssize_t nogil;     /* calls on it running without the GIL */
    Py_ssize_t exports;   /* buffers exported (the SBBF's bitset) */
    uint64_t seed;
    uint64_t capacity;    /* as constructed; 0 if unknown */
    double error_rate;    /* as constructed; 0 if unknown */
    int readonly;         /* a view: every mutating call is refused */
    int owner_is_parquet; /* owner is a Parquet file (told when we go) */
    PyObject *owner;      /* keeps the memory of a view alive, or NULL */
    Py_buffer owner_view; /* the buffer a view reads (owner_view.obj set) */
    PyObject *path;       /* the file it was opened or loaded from, or NULL */
    PyObject *weakrefs;
    pthread_rwlock_t lock;
} bfpy_filter;

/* The filter types, one per family (index = bf_family; 0 unused). */
extern BFPY_HIDDEN PyTypeObject *bfpy_filter_types[7];
extern BFPY_HIDDEN PyTypeObject bfpy_sbbf_type;

BFPY_HIDDEN int bfpy_filter_types_init(PyObject *module);
BFPY_HIDDEN int bfpy_is_filter(PyObject *o);
/* A new filter object of type t around f (or a bare SBBF view s). Takes
 * ownership of f / s; frees them on failure. */
BFPY_HIDDEN PyObject *bfpy_filter_wrap(PyTypeObject *t, bf_filter *f, bf_sbbf *s);

/* The closed-filter error (ValueError), and the generic single-key slow
 * path of the SBBF (any key type, the lock when needed). op: 0 add, 1 in. */
BFPY_HIDDEN PyObject *bfpy_closed_error(void);
BFPY_HIDDEN int bfpy_sbbf_single_slow(bfpy_filter *o, PyObject *key, int op);

/* single.c, once per ISA: the SBBF type's add and `in`. */
typedef struct bfpy_single_ops {
    PyCFunction add;
    int (*sq_contains)(PyObject *, PyObject *);
    const char *isa;
} bfpy_single_ops;
BFPY_HIDDEN void bfpy_single_ops_base(bfpy_single_ops *out);
#if defined(BFPY_HAVE_AVX2_SINGLE)
BFPY_HIDDEN void bfpy_single_ops_avx2(bfpy_single_ops *out);
#endif
extern BFPY_HIDDEN const char *bfpy_single_isa;

/* ---- locking --------------------------------------------------------------- */

/* Initialises an object's lock (writers preferred where the C library
 * can be asked to). */
BFPY_HIDDEN void bfpy_lock_init(pthread_rwlock_t *lock);

/* Runs fn(ctx) on an object: with the GIL when it may (release false and no
 * call on it runs without the GIL), else without the GIL under its lock
 * (write: exclusive). fn must touch no Python object. Returns fn's result. */
typedef int (*bfpy_work_fn)(void *ctx);
BFPY_HIDDEN int bfpy_run(Py_ssize_t *nogil, pthread_rwlock_t *lock, int write, int release,
                         bfpy_work_fn fn, void *ctx);

/* The same for a call that writes object a and reads object b (a merge):
 * both locks, always in the same order. */
BFPY_HIDDEN int bfpy_run2(Py_ssize_t *nogil_a, pthread_rwlock_t *lock_a, Py_ssize_t *nogil_b,
                          pthread_rwlock_t *lock_b, int release, bfpy_work_fn fn, void *ctx);
/* What work functions return when the object was closed before they got
 * its lock (statuses are 0 or negative). */
#define BFPY_CLOSED 1

/* A seed argument: None (0, Parquet's hash) or an int in 0 .. 2^64-1.
 * 0, or -1 with TypeError / ValueError. */
BFPY_HIDDEN int bfpy_seed_arg(PyObject *o, uint64_t *seed);

/* ---- errors --------------------------------------------------------------- */

/* Raises the exception for a library status (ValueError, TypeError for a
 * read-only filter, KeyError for an absent key, OSError for a file error
 * with errno, MemoryError) with the library's message, after "context: "
 * when context is not NULL. path, when not NULL, is the file. Sets the
 * exception's `status` attribute to the status. Returns NULL. */
BFPY_HIDDEN PyObject *bfpy_error(int status, const char *context, PyObject *path, int err);
/* The same exception and `status` with a message of the caller's (where
 * the library's would mislead: a merge that does not fit is not "key not
 * inserted"). */
BFPY_HIDDEN PyObject *bfpy_error_text(int status, const char *text);

/* ---- keys ----------------------------------------------------------------- */

enum { BFPY_KEY_BYTES, BFPY_KEY_I64, BFPY_KEY_I32, BFPY_KEY_F32, BFPY_KEY_F64 };

/* One key: str (its UTF-8), bytes-like (its bytes), int (64-bit two's
 * complement, Parquet INT64; -2^63 .. 2^64-1), float (Parquet DOUBLE), a
 * NumPy scalar (as its dtype: INT32, INT64, FLOAT, DOUBLE). */
typedef struct bfpy_key {
    int kind;
    const void *data;
    size_t len;
    uint64_t bits;        /* the value's bit pattern (fixed-width kinds) */
    Py_buffer view;       /* held for buffer keys (view.obj != NULL) */
} bfpy_key;

BFPY_HIDDEN int bfpy_key_get(PyObject *obj, bfpy_key *k);
BFPY_HIDDEN void bfpy_key_release(bfpy_key *k);
/* XXH64 of the key's bytes (a fixed-width key: its little-endian bytes). */
BFPY_HIDDEN uint64_t bfpy_key_hash(const bfpy_key *k, uint64_t seed);
/* bfpy_key_get + bfpy_key_hash + release. */
BFPY_HIDDEN int bfpy_hash_object(PyObject *obj, uint64_t seed, uint64_t *out);

/* ---- buffer formats --------------------------------------------------------- */

/* What a buffer's items are, for the numbers this package reads. */
typedef struct bfpy_format {
    char kind;   /* 'i' signed integer, 'u' unsigned, 'f' float, 'b' bool */
    int size;    /* bytes per item: 1, 2, 4, 8 */
    int swapped; /* stored in the other byte order than this host's */
} bfpy_format;

/* 0 if the buffer (its format and itemsize) holds such numbers, else -1
 * (no exception set): bytes, characters, structures, half floats. */
BFPY_HIDDEN int bfpy_format_parse(const Py_buffer *v, bfpy_format *f);
/* A 1-, 2- or 4-byte integer at p as int32 (sign- or zero-extended: how
 * Parquet stores INT(8) and INT(16) in INT32). */
BFPY_HIDDEN int32_t bfpy_format_int32(const bfpy_format *f, const void *p);

/* ---- batches -------------------------------------------------------------- */

enum {
    BFPY_BATCH_HASHES, /* keys hashed here (a sequence of Python keys) */
    BFPY_BATCH_I32,
    BFPY_BATCH_I64,
    BFPY_BATCH_F32,
    BFPY_BATCH_F64,
    BFPY_BATCH_BIN32,  /* Arrow binary, int32 offsets */
    BFPY_BATCH_BIN64   /* Arrow binary, int64 offsets */
};

typedef struct bfpy_batch {
    int kind;
    size_t n;
    const void *values;   /* typed values (n), or the binary data */
    const void *offsets;  /* binary: n + 1 offsets */
    uint64_t *hashes;     /* BFPY_BATCH_HASHES (owned) */
    void *owned;          /* a copy (strided or widened input), freed */
    Py_buffer views[2];
    int nviews;
    PyObject *shape;      /* the input's shape when it has more than one
                             dimension (answers take it), else NULL */
} bfpy_batch;

/* Reads a batch: values is a typed buffer (int8..int64, uint8..uint64,
 * float32, float64: used in place when contiguous), the data buffer of an
 * Arrow binary array when offsets is given (int32 or int64 offsets), or a
 * sequence / iterable of keys (hashed here with seed). 0 or -1 with an
 * exception. */
BFPY_HIDDEN int bfpy_batch_get(PyObject *values, PyObject *offsets, uint64_t seed,
                               bfpy_batch *b);
BFPY_HIDDEN void bfpy_batch_release(bfpy_batch *b);
/* Hashes of batch keys [from, from + n) with seed into out (typed and
 * binary kinds; what bf_hash_int64s etc. give). BF_OK, or BF_EINVAL for
 * bad offsets (no exception: callable without the GIL). */
#define BFPY_OFFSETS_MSG "offsets (they must start at 0 or more and never decrease)"
BFPY_HIDDEN int bfpy_batch_hash(const bfpy_batch *b, size_t from, size_t n, uint64_t seed,
                                uint64_t *out);
/* A NumPy bool array for n answers shaped as the batch (out given: checked
 * and returned with a new reference). *bytes = where to write. */
BFPY_HIDDEN PyObject *bfpy_bool_array(const bfpy_batch *b, PyObject *out, uint8_t **bytes);
/* numpy.empty(n, dtype) (imported on first use). */
BFPY_HIDDEN PyObject *bfpy_numpy_empty(Py_ssize_t n, const char *dtype, void **data);

/* ---- Parquet -------------------------------------------------------------- */

BFPY_HIDDEN int bfpy_parquet_init(PyObject *module);
/* Called by an SBBF view's deallocation with the Parquet file it kept. */
BFPY_HIDDEN void bfpy_parquet_view_released(PyObject *file);

#endif /* BFPY_H */
