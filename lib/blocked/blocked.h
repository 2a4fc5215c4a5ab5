/*
 * The blocked family's object and what its two files share (blocked.c:
 * the object, API and family row; blocked_model.c: models, sizing and the
 * measures behind the statistics).
 */
#ifndef BF_BLOCKED_H
#define BF_BLOCKED_H

#include "blocked/probe.h"
#include "sbbf/sbbf_kernel.h"

/* The operations of one shape: an instance of the probe (blocked.c).
 * shape is all zero for the generic instance, which reads the object's. */
typedef struct bf_blocked_impl {
    bf_blocked_shape shape;
    bool (*contains)(const bf_blocked *f, uint64_t h);
    void (*insert)(bf_blocked *f, uint64_t h);
    void (*insert_batch)(bf_blocked *f, const uint64_t *h, size_t n);
    size_t (*contains_batch)(const bf_blocked *f, const uint64_t *h, size_t n, uint8_t *out);
} bf_blocked_impl;

/* A batch lookup (contains_batch's signature), a batch insert (insert_batch's). */
typedef size_t (*bf_blocked_batch_fn)(const bf_blocked *f, const uint64_t *h, size_t n,
                                      uint8_t *out);
typedef void (*bf_blocked_insert_fn)(bf_blocked *f, const uint64_t *h, size_t n);

struct bf_blocked {
    bf_blocked_shape shape;
    uint8_t *bits;       /* writable bitset; NULL for a read-only view */
    const uint8_t *data; /* the bitset (== bits unless a view), any alignment */
    uint64_t num_blocks;
    uint64_t num_bytes;
    uint64_t seed;       /* byte-string and typed-key seed; 0 = XXH64's */
    const bf_blocked_impl *impl;
    const bf_kernel *kernel; /* the SBBF's shape: the SBBF kernel it runs; else NULL */
    bf_blocked_batch_fn simd_contains; /* batch lookups with SIMD, or NULL */
    bf_blocked_insert_fn simd_insert;  /* batch inserts with SIMD, or NULL */
    const char *simd_kernel;           /* the name of that SIMD ("avx2"), or NULL */
    bf_region region;    /* owned memory; kind 0 for a view */
    int partition_mode;  /* BF_PARTITION_* (blocked.c, "partitioned batches") */
    void *part_scratch;  /* partitioned batches' scratch, kept between them
                          * (common/partition.h), or NULL */
};

/* The instance compiled for shape s if there is one and `specialised`,
 * else the generic instance (tests compare the two). */
BF_HIDDEN const bf_blocked_impl *bf__blocked_impl_for(const bf_blocked_shape *s,
                                                      bool specialised);

#if defined(BF_HAVE_AVX2)
/* The AVX2 batch lookup and batch insert of shape s (blocked_avx2.c): its
 * own instance if there is one and `specialised`, else the one for any
 * shape. Need fewer than 2^32 blocks. */
BF_HIDDEN bf_blocked_batch_fn bf__blocked_avx2_contains_for(const bf_blocked_shape *s,
                                                            bool specialised);
BF_HIDDEN bf_blocked_insert_fn bf__blocked_avx2_insert_for(const bf_blocked_shape *s,
                                                           bool specialised);
#endif
#if defined(BF_HAVE_AVX512)
/* The same with AVX-512, eight keys per register (blocked_avx512.c). */
BF_HIDDEN bf_blocked_batch_fn bf__blocked_avx512_contains_for(const bf_blocked_shape *s,
                                                              bool specialised);
BF_HIDDEN bf_blocked_insert_fn bf__blocked_avx512_insert_for(const bf_blocked_shape *s,
                                                             bool specialised);
#endif

#if defined(BF_HAVE_NEON)
/* The same with NEON, two keys per register (blocked_neon.c). */
BF_HIDDEN bf_blocked_batch_fn bf__blocked_neon_contains_for(const bf_blocked_shape *s,
                                                            bool specialised);
BF_HIDDEN bf_blocked_insert_fn bf__blocked_neon_insert_for(const bf_blocked_shape *s,
                                                           bool specialised);
#endif

/* What the statistics report: bits set, and from them the estimated keys
 * and the exact FPR of the filter as it stands (docs/families.md). */
typedef struct bf_blocked_measure {
    uint64_t bits_set;
    double est_keys;
    double est_fpp;
} bf_blocked_measure;
BF_HIDDEN void bf__blocked_measure(const bf_blocked *f, bf_blocked_measure *out);

#endif
