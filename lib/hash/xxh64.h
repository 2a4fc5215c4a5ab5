/*
 * XXH64 of fixed-width keys (Parquet's hash of INT32, INT64, FLOAT and
 * DOUBLE values) over whole arrays: the hash-kernel interface and what the
 * kernels share. Like sbbf_kernel.h, everything here is static inline or a
 * declaration, so a file compiled with -mavx512dq cannot lend a helper to a
 * scalar caller.
 *
 * XXH64 of 8 bytes holding v (little-endian), seed s:
 *   h = s + P5 + 8;  h ^= rotl(v * P2, 31) * P1;  h = rotl(h, 27) * P1 + P4;
 * of 4 bytes:
 *   h = s + P5 + 4;  h ^= (uint64_t)v * P1;       h = rotl(h, 23) * P2 + P3;
 * then the avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3;
 * h ^= h >> 32. The scalar forms are bf_xxh64_u64()/bf_xxh64_u32() in the
 * public header, the reference every kernel must match bit for bit.
 */
#ifndef BF_XXH64_H
#define BF_XXH64_H

#include "sbbf/sbbf_kernel.h"

#define BF_XXH_P1 0x9E3779B185EBCA87ull
#define BF_XXH_P2 0xC2B2AE3D27D4EB4Full
#define BF_XXH_P3 0x165667B19E3779F9ull
#define BF_XXH_P4 0x85EBCA77C2B2AE63ull
#define BF_XXH_P5 0x27D4EB2F165667C5ull

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
