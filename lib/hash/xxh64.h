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

/* common/dispatch.c: the hash kernel that goes with an SBBF kernel (the same ISA, or
 * scalar where that ISA's hashing does not pay or the CPU lacks a feature
 * it needs), and the one for everything else (the process default SBBF
 * kernel's, so BLOCKFILTER_KERNEL=scalar means scalar hashing too). */
BF_HIDDEN const bf_hash_kernel *bf__hash_kernel_for(const bf_kernel *k);
BF_HIDDEN const bf_hash_kernel *bf__hash_kernel_default(void);
/* Every hash kernel compiled in (best first), for the tests. */
BF_HIDDEN size_t bf__hash_kernel_count(void);
BF_HIDDEN const bf_hash_kernel *bf__hash_kernel_at(size_t i);

/*
 * XXH64 of a byte string (Parquet's hash of BYTE_ARRAY values and the
 * byte-string conveniences), written from the XXH64 specification, so the
 * library needs no xxhash.h: 32-byte stripes through four accumulators when
 * len >= 32, then 8-, 4- and 1-byte steps, then the avalanche. Bytes are
 * read little-endian at any alignment. p may be NULL only when len is 0.
 * tests/kernels/test_hash_equiv.c checks it against xxHash itself.
 */
static inline uint64_t bf_xxh_rotl(uint64_t x, unsigned r) { return (x << r) | (x >> (64 - r)); }
static inline uint64_t bf_xxh_round(uint64_t acc, uint64_t lane) {
    return bf_xxh_rotl(acc + lane * BF_XXH64_P2, 31) * BF_XXH64_P1;
}
static inline uint64_t bf_xxh_merge(uint64_t h, uint64_t acc) {
    return (h ^ bf_xxh_round(0, acc)) * BF_XXH64_P1 + BF_XXH64_P4;
}
static inline uint64_t bf_xxh64_bytes(const void *data, size_t len, uint64_t seed) {
    static const uint8_t empty = 0;
    const uint8_t *p = len ? (const uint8_t *)data : &empty;
    size_t left = len;
    uint64_t h;
    if (left >= 32) {
        uint64_t v1 = seed + BF_XXH64_P1 + BF_XXH64_P2, v2 = seed + BF_XXH64_P2, v3 = seed,
                 v4 = seed - BF_XXH64_P1;
        do {
            v1 = bf_xxh_round(v1, bf_load_le64(p));
            v2 = bf_xxh_round(v2, bf_load_le64(p + 8));
            v3 = bf_xxh_round(v3, bf_load_le64(p + 16));
            v4 = bf_xxh_round(v4, bf_load_le64(p + 24));
            p += 32;
            left -= 32;
        } while (left >= 32);
        h = bf_xxh_rotl(v1, 1) + bf_xxh_rotl(v2, 7) + bf_xxh_rotl(v3, 12) + bf_xxh_rotl(v4, 18);
        h = bf_xxh_merge(h, v1);
        h = bf_xxh_merge(h, v2);
        h = bf_xxh_merge(h, v3);
        h = bf_xxh_merge(h, v4);
    } else {
        h = seed + BF_XXH64_P5;
    }
    h += (uint64_t)len;
    for (; left >= 8; left -= 8, p += 8)
        h = bf_xxh_rotl(h ^ bf_xxh_round(0, bf_load_le64(p)), 27) * BF_XXH64_P1 + BF_XXH64_P4;
    if (left >= 4) {
        h = bf_xxh_rotl(h ^ (uint64_t)bf_load_le32(p) * BF_XXH64_P1, 23) * BF_XXH64_P2 + BF_XXH64_P3;
        p += 4;
        left -= 4;
    }
    for (; left > 0; left--, p++) h = bf_xxh_rotl(h ^ (uint64_t)*p * BF_XXH64_P5, 11) * BF_XXH64_P1;
    return bf_inl_xxh64_avalanche(h);
}

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
