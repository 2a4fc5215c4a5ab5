/*
 * XXH64 of fixed-width keys (Parquet's hash of INT32, INT64, FLOAT and
 * DOUBLE values) over whole arrays: the hash-kernel interface and what the
 * kernels share. Like sbbf_kernel.h, everything here is static inline or a
 * declaration, so a file compiled with -mavx512dq cannot lend a helper to a
 * scalar caller.
 *
 * The fixed-width XXH64 itself, its constants (BF_XXH64_P1..P5) and the
 * scalar forms bf_xxh64_u64()/bf_xxh64_u32(), are defined once, in the
 * public blockfilter_inline.h: the reference every kernel must match bit
 * for bit, and what the SIMD kernels build their vector constants from.
 */
#ifndef BF_XXH64_H
#define BF_XXH64_H

#include "sbbf/sbbf_kernel.h"

/*
 * A hash kernel hashes n keys of one width. keys points to n values in the
 * host's byte order (a C array of int32_t/float or int64_t/double, at any
 * alignment); the hash is XXH64 of each value's little-endian bytes, which
 * is what Parquet hashes. out receives n hashes (any alignment).
 */
typedef void (*bf_hash_fn)(const void *keys, size_t n, uint64_t seed, uint64_t *out);
typedef struct bf_hash_kernel {
    const char *name;
    uint32_t required; /* BF_CPU_* bits */
    bf_hash_fn u32;    /* 4-byte keys */
    bf_hash_fn u64;    /* 8-byte keys */
} bf_hash_kernel;

BF_HIDDEN extern const bf_hash_kernel bf__hash_kernel_scalar;
#if defined(BF_HAVE_XXH_AVX2)
BF_HIDDEN extern const bf_hash_kernel bf__hash_kernel_avx2;
#endif
#if defined(BF_HAVE_XXH_AVX512)
BF_HIDDEN extern const bf_hash_kernel bf__hash_kernel_avx512;
#endif
#if defined(BF_HAVE_XXH_NEON)
BF_HIDDEN extern const bf_hash_kernel bf__hash_kernel_neon;
#endif

/* keys.c: the hash kernel that goes with an SBBF kernel (the same ISA, or
 * scalar where that ISA's hashing does not pay or the CPU lacks a feature
 * it needs), and the one for everything else (the process default SBBF
 * kernel's, so BLOCKFILTER_KERNEL=scalar means scalar hashing too). */
BF_HIDDEN const bf_hash_kernel *bf__hash_kernel_for(const bf_kernel *k);
BF_HIDDEN const bf_hash_kernel *bf__hash_kernel_default(void);
/* Every hash kernel compiled in (best first), for the tests. */
BF_HIDDEN size_t bf__hash_kernel_count(void);
BF_HIDDEN const bf_hash_kernel *bf__hash_kernel_at(size_t i);

/* Native-order loads at any alignment. */
static inline uint64_t bf_xxh_load64(const void *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline uint32_t bf_xxh_load32(const void *p) {
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void bf_xxh_store64(void *p, uint64_t v) { memcpy(p, &v, sizeof v); }

#endif
