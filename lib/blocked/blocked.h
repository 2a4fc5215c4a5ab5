/*
 * The blocked family's object and what its two files share (blocked.c:
 * the object, API and family row; blocked_model.c: models, sizing and the
 * measures behind the statistics).
 */
#ifndef BF_BLOCKED_H
#define BF_BLOCKED_H

#include "blocked/probe.h"
#include "sbbf/sbbf_kernel.h"

/* The shapes with instances of their own, scalar (blocked.c) and SIMD
 * (blocked_simd.h), as X(name, B, S, Z, K): every shape of the benchmark
 * matrix's design series (bench/design.cc) and of the peers' layouts it
 * is compared with, and the shapes bf_filter_new picks (512, 8, 2, even
 * k). Any other shape runs the generic instance, with its loops bounded
 * by the object's shape instead of constants: 1.5-2.5x slower per key. */
#define BF_BLOCKED_SHAPES(X)                                                                \
    X(r32k3, 32, 1, 1, 3) X(r32k4, 32, 1, 1, 4) X(r32k5, 32, 1, 1, 5)                       \
    X(r64k4, 64, 1, 1, 4) X(r64k5, 64, 1, 1, 5) X(r64k6, 64, 1, 1, 6)                       \
    X(b512k6, 512, 1, 1, 6) X(b512k8, 512, 1, 1, 8) X(b512k10, 512, 1, 1, 10)               \
    X(s256k4, 256, 4, 4, 4) X(s256k8, 256, 4, 4, 8)                                         \
    X(s512k8, 512, 8, 8, 8) X(s512k16, 512, 8, 8, 16) X(s512w32k16, 512, 16, 16, 16)        \
    X(c512k4, 512, 8, 2, 4) X(c512k6, 512, 8, 2, 6) X(c512k8, 512, 8, 2, 8)                 \
    X(c512k10, 512, 8, 2, 10) X(c512k12, 512, 8, 2, 12)                                     \
    X(c512z4k4, 512, 8, 4, 4) X(c512z4k8, 512, 8, 4, 8) X(g512k8, 512, 16, 2, 8)

/* Whether a shape's 64-bit sectors fill a 256- or 512-bit block
 * (S = B / 64, any z and k): the shapes whose SIMD kernels may hold a
 * key's whole block in registers, a lane per sector ("vertical":
 * blocked/blocked_simd.h). A constant for constant arguments. */
#define BF_BLOCKED_VERT_FITS(B, S) (((B) == 256 || (B) == 512) && (S) == (B) / 64)

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

/* Keys i..n - 1 of a batch lookup, with the scalar instance: the keys a
 * SIMD lookup leaves past its last whole register. Returns the hits. */
static inline size_t bf__blocked_tail_contains(const bf_blocked *f, const uint64_t *hs, size_t i,
                                               size_t n, uint8_t *out) {
    size_t hits = 0;
    for (; i < n; i++) {
        bool hit = f->impl->contains(f, bf_sbbf_load_hash(hs + i));
        if (out) out[i] = (uint8_t)hit;
        hits += hit;
    }
    return hits;
}

/* Writes the answers of `count` <= 8 keys, bit j of m for key j, as bytes
 * 0 or 1. The bits are spread to one per byte in a register and stored at
 * once (one byte store per key drew about 30 % of the profile's samples
 * in (32, 1, 1, 4)'s batch lookup at 10^6 keys on a Zen 4). */
static inline void bf__blocked_answers(uint8_t *out, unsigned m, unsigned count) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint64_t x = m & 0xffu; /* bit j to byte j, the lowest byte first */
    x = (x | x << 28) & 0x0000000f0000000fu;
    x = (x | x << 14) & 0x0003000300030003u;
    x = (x | x << 7) & 0x0101010101010101u;
    memcpy(out, &x, count);
#else
    for (unsigned j = 0; j < count; j++) out[j] = (uint8_t)((m >> j) & 1);
#endif
}

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
