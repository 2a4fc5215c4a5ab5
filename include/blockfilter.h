/*
 * blockfilter — approximate-membership filters with a Parquet-exact,
 * SIMD-accelerated split-block Bloom filter (SBBF) at its core.
 *
 * This is the one public header. C11 (and usable from C++).
 *
 * Conventions
 *  - Functions that can fail return an int status: BF_OK (0) or a negative
 *    bf_status value; bf_strerror() describes it. Results come back through
 *    out-parameters, which are left untouched on failure unless stated.
 *  - Queries (contains) return bool and cannot fail.
 *  - Read-only objects (views over caller memory or a mapped file) refuse
 *    every mutating call with BF_EREADONLY and stay unchanged; this holds
 *    for every family and for bf_filter alike.
 *  - The library never aborts, exits or prints.
 *  - Hashes are 64-bit. The byte-string conveniences hash with XXH64 using the
 *    filter's seed; seed 0 (the default) is exactly Parquet's hash.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef BLOCKFILTER_H
#define BLOCKFILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Casts that C++ includers building with -Wold-style-cast accept. */
#if defined(__cplusplus)
#define BF_INL_CAST(type, x) (static_cast<type>(x))
#else
#define BF_INL_CAST(type, x) ((type)(x))
#endif

/* The single-key header paths (end of this file) use the SIMD the including
 * compiler targets: AVX2 on x86, NEON on little-endian aarch64, else plain
 * C. Define BF_NO_INLINE before including to get plain declarations only. */
#if !defined(BF_NO_INLINE)
#if defined(__AVX2__) && (defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || \
                          defined(_M_IX86))
#include <immintrin.h>
#define BF_INL_AVX2 1
#elif (defined(__aarch64__) && defined(__ARM_NEON) && defined(__BYTE_ORDER__) && \
       __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_M_ARM64)
#include <arm_neon.h>
#define BF_INL_NEON 1
#endif
#endif

#define BF_VERSION_MAJOR 0
#define BF_VERSION_MINOR 2
#define BF_VERSION_PATCH 0
#define BF_VERSION_NUMBER \
    (BF_VERSION_MAJOR * 10000 + BF_VERSION_MINOR * 100 + BF_VERSION_PATCH)
#define BF_VERSION_STRING "0.2.0"

/* Plain queries have no side effects and read only the filter and their
 * arguments: the compiler may keep a filter's fields in registers across
 * them (which lets a loop of inlined contains calls run without reloading
 * the layout). Not used for the _concurrent forms, which must reread. */
#if defined(__GNUC__)
#define BF_PURE __attribute__((pure))
#else
#define BF_PURE
#endif

#if defined(_WIN32) && defined(BF_SHARED_BUILD)
#define BF_API __declspec(dllexport)
#elif defined(__GNUC__) && __GNUC__ >= 4
#define BF_API __attribute__((visibility("default")))
#else
#define BF_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Version and status codes                                                  */
/* ------------------------------------------------------------------------ */

/** BF_VERSION_NUMBER of the library actually linked. */
BF_API unsigned bf_version_number(void);
/** BF_VERSION_STRING of the library actually linked. */
BF_API const char *bf_version_string(void);

/** Status codes. Values are part of the ABI and are never renumbered. */
typedef enum bf_status {
    BF_OK = 0,
    BF_EINVAL = -1,       /* invalid argument (NULL, zero size, fpp not in (0,1)) */
    BF_ENOMEM = -2,       /* memory allocation failed */
    BF_ETOOBIG = -3,      /* size computation overflows or exceeds a limit */
    BF_ETRUNCATED = -4,   /* input shorter than its header says */
    BF_ECORRUPT = -5,     /* checksum mismatch or inconsistent fields */
    BF_EFORMAT = -6,      /* not a recognised format (bad magic, bad Thrift) */
    BF_EVERSION = -7,     /* format version not supported */
    BF_EUNSUPPORTED = -8, /* valid but unsupported (legacy Parquet filter,
                             an operation the family does not have) */
    BF_EBUFSIZE = -9,     /* output buffer too small */
    BF_EKERNEL = -10,     /* unknown kernel name, or not supported on this CPU */
    BF_EMISMATCH = -11,   /* filters differ in family, size or seed */
    BF_EFULL = -12,       /* cuckoo filter cannot place the key */
    BF_ENOTFOUND = -13,   /* remove of a key the filter says is absent */
    BF_EIO = -14,         /* file open/read/write/rename failed (see errno) */
    BF_EREADONLY = -15,   /* write to a read-only view */
    BF_EFAMILY = -16      /* unknown family, or wrong family for this call */
} bf_status;

/** A static, human-readable description of a status. Never NULL. */
BF_API const char *bf_strerror(int status);

/* ------------------------------------------------------------------------ */
/* Hashing                                                                   */
/* ------------------------------------------------------------------------ */

/** XXH64 with seed 0: Parquet's hash for Bloom filters. */
BF_API uint64_t bf_hash_xxh64(const void *data, size_t len);
/** XXH64 with a seed (the keyed mode of the byte-string conveniences). */
BF_API uint64_t bf_hash_xxh64_seeded(const void *data, size_t len, uint64_t seed);

/* Parquet's hashing of its physical types: PLAIN little-endian bytes, XXH64
 * seed 0. BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY values hash their bytes without
 * a length prefix: use bf_hash_xxh64(). */
BF_API uint64_t bf_hash_int32(int32_t v);
BF_API uint64_t bf_hash_int64(int64_t v);
BF_API uint64_t bf_hash_float(float v);
BF_API uint64_t bf_hash_double(double v);

/* XXH64 of the 8 (or 4) little-endian bytes holding v, with a seed: the
 * fixed-length forms of XXH64, a few multiplies, inlined into the caller.
 * bf_hash_int64(v) == bf_xxh64_u64((uint64_t)v, 0), bf_hash_int32(v) ==
 * bf_xxh64_u32((uint32_t)v, 0); a float or double hashes its bit pattern. */
static inline uint64_t bf_inl_xxh64_avalanche(uint64_t h) {
    h ^= h >> 33;
    h *= 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    h *= 0x165667B19E3779F9ull;
    return h ^ (h >> 32);
}
static inline uint64_t bf_xxh64_u64(uint64_t v, uint64_t seed) {
    uint64_t k = v * 0xC2B2AE3D27D4EB4Full;
    k = ((k << 31) | (k >> 33)) * 0x9E3779B185EBCA87ull;
    uint64_t h = (seed + 0x27D4EB2F165667C5ull + 8) ^ k;
    h = ((h << 27) | (h >> 37)) * 0x9E3779B185EBCA87ull + 0x85EBCA77C2B2AE63ull;
    return bf_inl_xxh64_avalanche(h);
}
/* The bit pattern of a float or double, which Parquet hashes. */
static inline uint32_t bf_inl_bits_of_float(float v) {
    uint32_t u;
    memcpy(&u, &v, 4);
    return u;
}
static inline uint64_t bf_inl_bits_of_double(double v) {
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
}
static inline uint64_t bf_xxh64_u32(uint32_t v, uint64_t seed) {
    uint64_t h = (seed + 0x27D4EB2F165667C5ull + 4) ^ (BF_INL_CAST(uint64_t, v) * 0x9E3779B185EBCA87ull);
    h = ((h << 23) | (h >> 41)) * 0xC2B2AE3D27D4EB4Full + 0x165667B19E3779F9ull;
    return bf_inl_xxh64_avalanche(h);
}

/* Whole arrays (any alignment): out[i] = XXH64 of value i's little-endian
 * bytes with the seed, computed with SIMD where it pays on this CPU
 * (AVX-512 DQ: eight keys per register; AVX2: four), bit for bit the scalar
 * result. The ISA follows the process default kernel, so
 * BLOCKFILTER_KERNEL=scalar hashes with scalar code. */
BF_API void bf_hash_int32s(const int32_t *values, size_t n, uint64_t seed, uint64_t *out);
BF_API void bf_hash_int64s(const int64_t *values, size_t n, uint64_t seed, uint64_t *out);
BF_API void bf_hash_floats(const float *values, size_t n, uint64_t seed, uint64_t *out);
BF_API void bf_hash_doubles(const double *values, size_t n, uint64_t seed, uint64_t *out);
/** Byte strings in Arrow's layout (Binary / String): value i is
 *  data[offsets[i] .. offsets[i+1]), so offsets holds n + 1 entries (not
 *  read when n == 0). BF_EINVAL (out untouched) if offsets[0] < 0, the
 *  offsets decrease, offsets or out is NULL where n > 0, or data is NULL
 *  with a non-empty string to read. */
BF_API int bf_hash_binary(const void *data, const int32_t *offsets, size_t n, uint64_t seed,
                          uint64_t *out);
/** The same with 64-bit offsets (Arrow's LargeBinary / LargeString). */
BF_API int bf_hash_large_binary(const void *data, const int64_t *offsets, size_t n,
                                uint64_t seed, uint64_t *out);

/** 64 random bits from the operating system (getrandom/urandom). */
BF_API int bf_random_seed(uint64_t *out);

/* ------------------------------------------------------------------------ */
/* Split-block Bloom filter (SBBF)                                           */
/* ------------------------------------------------------------------------ */

/*
 * 32-byte blocks of eight little-endian 32-bit words. A hash h picks block
 * ((h >> 32) * num_blocks) >> 32 and sets, in word i, bit
 * ((uint32_t)h * SALT[i]) >> 27. The bitset is byte for byte Parquet's.
 * At most 2^32 blocks (128 GiB).
 */
typedef struct bf_sbbf bf_sbbf;

/*
 * The first bytes of every bf_sbbf, public so that the header can inline
 * the single-key calls (see "Single-key header paths" at the end, and
 * docs/kernels.md for the ABI promise). Layout version BF_SBBF_ABI = 1 is
 * frozen: these fields, in this order, with these meanings.
 *  - tag holds the version (high 16 bits) and the kernel class (low bits)
 *    in one word: inline queries check both with one compare, which
 *    compilers hoist out of a caller's loop.
 *  - insert_bits[c] is the writable bitset if inline code of kernel class
 *    c may insert into this filter (its kernel runs class c's single-key
 *    sequence: the avx512 kernel runs the AVX2 one), else NULL (another
 *    kernel, or a read-only view): an inline insert tests the one pointer
 *    it needs anyway, as its stores keep a compiler from hoisting checks.
 * A library that needs other hot fields gives them a new version and
 * leaves insert_bits[] NULL; code inlined from an older header then sees a
 * tag it does not know and NULL pointers, and calls the library. Read-only
 * for callers: change a filter only through the API.
 */
#define BF_SBBF_ABI 1u
/* Kernel classes (never renumbered; a new kernel gets a new number). */
#define BF_SBBF_KERNEL_SCALAR 0u
#define BF_SBBF_KERNEL_AVX2 1u
#define BF_SBBF_KERNEL_AVX512 2u
#define BF_SBBF_KERNEL_NEON 3u
#define BF_SBBF_TAG(kernel) ((BF_SBBF_ABI << 16) | (kernel))
typedef struct bf_sbbf_layout {
    uint32_t tag;         /* BF_SBBF_TAG(kernel class the filter runs) */
    uint32_t reserved;    /* 0 */
    uint8_t *bits;        /* writable bitset; NULL for a read-only view */
    const uint8_t *data;  /* the bitset (== bits unless a view), any alignment */
    uint64_t num_blocks;  /* 32-byte blocks, 1 .. 2^32 */
    uint64_t seed;        /* seed of byte-string and typed hashing (0 = Parquet) */
    uint8_t *insert_bits[4]; /* by kernel class: bits, or NULL (see above) */
} bf_sbbf_layout;

#define BF_SBBF_BLOCK_BYTES 32u
#define BF_SBBF_MAX_BYTES ((uint64_t)1 << 37) /* 2^32 blocks */
/* Parquet's limits on a filter's bitset (Arrow, parquet-java). */
#define BF_PARQUET_MIN_BYTES 32u
#define BF_PARQUET_MAX_BYTES (128u * 1024u * 1024u)

/** A filter for ndv distinct keys at false-positive rate fpp, using the
 *  fewest 32-byte blocks whose exact model FPR is <= fpp (compact sizing). */
BF_API int bf_sbbf_new(bf_sbbf **out, uint64_t ndv, double fpp);
/** A filter of num_bytes (a multiple of 32, >= 32), all bits clear. */
BF_API int bf_sbbf_new_bytes(bf_sbbf **out, size_t num_bytes);
/** As bf_sbbf_new_bytes, with a named kernel ("scalar", "avx2", "avx512",
 *  "neon"); NULL picks the process default (BLOCKFILTER_KERNEL or CPUID). */
BF_API int bf_sbbf_new_bytes_kernel(bf_sbbf **out, size_t num_bytes,
                                    const char *kernel);
/** A filter sized as Parquet writers size it (Arrow / parquet-java formula,
 *  rounded up to a power of two in [32 B, 128 MiB]). */
BF_API int bf_sbbf_new_parquet(bf_sbbf **out, uint64_t ndv, double fpp);
BF_API void bf_sbbf_free(bf_sbbf *f);

/** Bytes needed for (ndv, fpp) with compact sizing (exact model). */
BF_API int bf_sbbf_compact_bytes(uint64_t ndv, double fpp, size_t *out_bytes);
/** Bytes Parquet writers would use for (ndv, fpp). */
BF_API int bf_sbbf_parquet_bytes(uint64_t ndv, double fpp, size_t *out_bytes);
/** Exact model FPR of a num_bytes filter holding n distinct keys
 *  (Poisson mixture over block loads). Returns NaN for num_bytes < 32. */
BF_API double bf_sbbf_model_fpp(uint64_t num_bytes, uint64_t n);

/** BF_OK, or BF_EREADONLY (a view; nothing changes). f must not be NULL. */
BF_API int bf_sbbf_insert_hash(bf_sbbf *f, uint64_t hash);
BF_API BF_PURE bool bf_sbbf_contains_hash(const bf_sbbf *f, uint64_t hash);
/** BF_OK, BF_EREADONLY, or BF_EINVAL (f NULL, or hashes NULL with n > 0). */
BF_API int bf_sbbf_insert_hashes(bf_sbbf *f, const uint64_t *hashes, size_t n);
/** out[i] = 1 if hashes[i] may be present, else 0; returns the number of 1s.
 *  out may be NULL to only count. */
BF_API size_t bf_sbbf_contains_hashes(const bf_sbbf *f, const uint64_t *hashes,
                                      size_t n, uint8_t *out);

/* Byte strings, hashed with XXH64 and the filter's seed (0 = Parquet).
 * Inserts return BF_OK, BF_EREADONLY, or BF_EINVAL (f NULL, or data NULL
 * with len > 0). */
BF_API int bf_sbbf_insert(bf_sbbf *f, const void *data, size_t len);
BF_API BF_PURE bool bf_sbbf_contains(const bf_sbbf *f, const void *data, size_t len);
/* Parquet physical types, hashed exactly as Parquet does (seed 0 only; on a
 * keyed filter they use the filter's seed over the same bytes). */
BF_API int bf_sbbf_insert_int32(bf_sbbf *f, int32_t v);
BF_API int bf_sbbf_insert_int64(bf_sbbf *f, int64_t v);
BF_API int bf_sbbf_insert_float(bf_sbbf *f, float v);
BF_API int bf_sbbf_insert_double(bf_sbbf *f, double v);
BF_API BF_PURE bool bf_sbbf_contains_int32(const bf_sbbf *f, int32_t v);
BF_API BF_PURE bool bf_sbbf_contains_int64(const bf_sbbf *f, int64_t v);
BF_API BF_PURE bool bf_sbbf_contains_float(const bf_sbbf *f, float v);
BF_API BF_PURE bool bf_sbbf_contains_double(const bf_sbbf *f, double v);

/*
 * Keys in, answers out: many keys per call, hashed inside the batch pipeline
 * (a chunk of keys is hashed into a small buffer, with SIMD where the CPU
 * allows, then probed with prefetching; no hash array from the caller).
 * Each key hashes exactly as the single-key call of its type does (the
 * filter's seed; 0 = Parquet), so the bits and answers are the same as
 * inserting or querying the keys one at a time.
 *  - Inserts return BF_OK, BF_EREADONLY (a view; nothing changes), or
 *    BF_EINVAL (f NULL, values NULL with n > 0, bad offsets; nothing
 *    changes).
 *  - Typed contains: out[i] = 1 if values[i] may be present, else 0 (out
 *    may be NULL to only count); returns the number of 1s, 0 if f or values
 *    is NULL.
 */
BF_API int bf_sbbf_insert_int32s(bf_sbbf *f, const int32_t *values, size_t n);
BF_API int bf_sbbf_insert_int64s(bf_sbbf *f, const int64_t *values, size_t n);
BF_API int bf_sbbf_insert_floats(bf_sbbf *f, const float *values, size_t n);
BF_API int bf_sbbf_insert_doubles(bf_sbbf *f, const double *values, size_t n);
BF_API size_t bf_sbbf_contains_int32s(const bf_sbbf *f, const int32_t *values, size_t n,
                                      uint8_t *out);
BF_API size_t bf_sbbf_contains_int64s(const bf_sbbf *f, const int64_t *values, size_t n,
                                      uint8_t *out);
BF_API size_t bf_sbbf_contains_floats(const bf_sbbf *f, const float *values, size_t n,
                                      uint8_t *out);
BF_API size_t bf_sbbf_contains_doubles(const bf_sbbf *f, const double *values, size_t n,
                                       uint8_t *out);
/*
 * Byte strings in Arrow's layout, as bf_hash_binary() reads them (value i =
 * data[offsets[i] .. offsets[i+1]), n + 1 offsets; the _large_ forms take
 * Arrow's 64-bit offsets). There is no validity bitmap: pass only the
 * non-null values (Parquet filters hold no nulls). Offsets are checked
 * before anything is hashed: BF_EINVAL if offsets[0] < 0 or they decrease.
 * Contains writes out[] as the typed calls and *found (may be NULL) = the
 * number of 1s; on failure neither is written.
 */
BF_API int bf_sbbf_insert_binary(bf_sbbf *f, const void *data, const int32_t *offsets,
                                 size_t n);
BF_API int bf_sbbf_insert_large_binary(bf_sbbf *f, const void *data, const int64_t *offsets,
                                       size_t n);
BF_API int bf_sbbf_contains_binary(const bf_sbbf *f, const void *data, const int32_t *offsets,
                                   size_t n, uint8_t *out, size_t *found);
BF_API int bf_sbbf_contains_large_binary(const bf_sbbf *f, const void *data,
                                         const int64_t *offsets, size_t n, uint8_t *out,
                                         size_t *found);

/*
 * Concurrent inserts. Any number of threads may call the _concurrent insert
 * and contains functions on one filter at the same time (atomic OR, no
 * locks). Guarantee: once bf_sbbf_insert_hash_concurrent(f, h) has returned
 * in thread A, every bf_sbbf_contains_hash_concurrent(f, h) that happens
 * after it (ordered by any synchronisation, e.g. a mutex, a join, or an
 * acquire load of a flag A released) returns true. Plain contains/insert
 * calls must not overlap concurrent inserts; plain contains calls may run
 * concurrently with each other. The inserts return BF_OK or BF_EREADONLY
 * (BF_EINVAL for NULL arguments, as the plain batch).
 */
BF_API int bf_sbbf_insert_hash_concurrent(bf_sbbf *f, uint64_t hash);
BF_API int bf_sbbf_insert_hashes_concurrent(bf_sbbf *f, const uint64_t *hashes,
                                            size_t n);
BF_API bool bf_sbbf_contains_hash_concurrent(const bf_sbbf *f, uint64_t hash);

/** dst |= src. Both must have the same size and seed (BF_EMISMATCH);
 *  BF_EREADONLY if dst is a view. */
BF_API int bf_sbbf_merge(bf_sbbf *dst, const bf_sbbf *src);
/** Clear every bit. BF_EREADONLY on a view. */
BF_API int bf_sbbf_clear(bf_sbbf *f);

BF_API size_t bf_sbbf_num_bytes(const bf_sbbf *f);
/** The bitset in Parquet's byte layout (num_bytes bytes). */
BF_API const void *bf_sbbf_bitset(const bf_sbbf *f);

/** Keyed mode: byte-string conveniences hash with this seed. Allowed only on
 *  an empty filter (BF_EINVAL otherwise), so no key is lost; BF_EREADONLY
 *  on a view. */
BF_API int bf_sbbf_set_seed(bf_sbbf *f, uint64_t seed);
BF_API uint64_t bf_sbbf_seed(const bf_sbbf *f);

/** A read-only view over caller memory (a Parquet bitset, any alignment).
 *  No copy: the caller keeps buf alive and unchanged until bf_sbbf_free().
 *  Every mutating call on a view (inserts of every kind, merge into it,
 *  clear, set_seed) returns BF_EREADONLY and changes nothing. */
BF_API int bf_sbbf_view(bf_sbbf **out, const void *bitset, size_t num_bytes);
BF_API int bf_sbbf_view_kernel(bf_sbbf **out, const void *bitset,
                               size_t num_bytes, const char *kernel);
BF_API bool bf_sbbf_is_readonly(const bf_sbbf *f);

typedef struct bf_sbbf_stats {
    uint64_t num_bytes;
    uint64_t num_blocks;
    uint64_t bits_set;
    double fill_ratio;    /* bits_set / (8 * num_bytes) */
    double est_ndv;       /* -32 z ln(1 - fill): estimated distinct keys */
    double est_fpp;       /* exact FPR of the filter as it stands */
} bf_sbbf_stats;
BF_API int bf_sbbf_get_stats(const bf_sbbf *f, bf_sbbf_stats *out);

/* Parquet serialisation: Thrift-compact BloomFilterHeader + bitset. */
/** Bytes bf_sbbf_to_parquet writes for this filter. */
BF_API size_t bf_sbbf_parquet_size(const bf_sbbf *f);
BF_API int bf_sbbf_to_parquet(const bf_sbbf *f, void *buf, size_t cap,
                              size_t *written);
/** Copying load. Rejects legacy (pre-XXH64), compressed or unknown-algorithm
 *  filters with BF_EUNSUPPORTED; *consumed (may be NULL) = bytes used. */
BF_API int bf_sbbf_from_parquet(bf_sbbf **out, const void *buf, size_t len);
BF_API int bf_sbbf_from_parquet_ex(bf_sbbf **out, const void *buf, size_t len,
                                   size_t *consumed);
/** Zero-copy read-only view of a Parquet header + bitset. */
BF_API int bf_sbbf_view_parquet(bf_sbbf **out, const void *buf, size_t len,
                                size_t *consumed);

/* Kernels. */
/** Number of kernels compiled into this build (best first). */
BF_API size_t bf_sbbf_kernel_count(void);
/** Name of kernel i (< bf_sbbf_kernel_count()), or NULL. */
BF_API const char *bf_sbbf_kernel_name(size_t i);
/** Whether the named kernel is compiled in and this CPU/OS can run it. */
BF_API bool bf_sbbf_kernel_supported(const char *name);
/** The kernel new filters get: BLOCKFILTER_KERNEL if set, else the best
 *  supported. BF_EKERNEL if the variable names an unknown/unsupported one. */
BF_API int bf_sbbf_default_kernel(const char **name);
/** The kernel a filter uses: "scalar", "avx2", "avx512" or "neon". */
BF_API const char *bf_sbbf_kernel(const bf_sbbf *f);

/* ------------------------------------------------------------------------ */
/* Baselines: classic Bloom, counting Bloom, cuckoo                          */
/* ------------------------------------------------------------------------ */

typedef struct bf_bloom bf_bloom;
BF_API int bf_bloom_new(bf_bloom **out, uint64_t n, double fpp);
/** m bits (any m >= 1) and k hashes (1..64). */
BF_API int bf_bloom_new_mk(bf_bloom **out, uint64_t m, unsigned k);
BF_API void bf_bloom_free(bf_bloom *f);
/** BF_OK, or BF_EREADONLY (a view from bf_filter_bloom() of a bf_filter
 *  view; nothing changes). f must not be NULL. */
BF_API int bf_bloom_insert_hash(bf_bloom *f, uint64_t hash);
BF_API bool bf_bloom_contains_hash(const bf_bloom *f, uint64_t hash);
BF_API int bf_bloom_insert_hash_concurrent(bf_bloom *f, uint64_t hash);
BF_API bool bf_bloom_contains_hash_concurrent(const bf_bloom *f, uint64_t hash);
BF_API uint64_t bf_bloom_num_bits(const bf_bloom *f);
BF_API unsigned bf_bloom_num_hashes(const bf_bloom *f);
/** Exact model FPR (1 - (1 - 1/m)^{kn})^k. */
BF_API double bf_bloom_model_fpp(uint64_t m, unsigned k, uint64_t n);

typedef struct bf_counting bf_counting;
BF_API int bf_counting_new(bf_counting **out, uint64_t n, double fpp);
/** m 4-bit counters (any m >= 1) and k hashes (1..64). */
BF_API int bf_counting_new_mk(bf_counting **out, uint64_t m, unsigned k);
BF_API void bf_counting_free(bf_counting *f);
/** BF_OK, or BF_EREADONLY (a view; nothing changes). f must not be NULL. */
BF_API int bf_counting_insert_hash(bf_counting *f, uint64_t hash);
/** BF_OK, or BF_ENOTFOUND (nothing changed) if the key is absent;
 *  BF_EREADONLY on a view. */
BF_API int bf_counting_remove_hash(bf_counting *f, uint64_t hash);
BF_API bool bf_counting_contains_hash(const bf_counting *f, uint64_t hash);
BF_API uint64_t bf_counting_num_counters(const bf_counting *f);
BF_API unsigned bf_counting_num_hashes(const bf_counting *f);

typedef struct bf_cuckoo bf_cuckoo;
BF_API int bf_cuckoo_new(bf_cuckoo **out, uint64_t n, double fpp);
/** num_buckets buckets of 4 slots with fp_bits (8, 12 or 16) fingerprints. */
BF_API int bf_cuckoo_new_buckets(bf_cuckoo **out, uint64_t num_buckets,
                                 unsigned fp_bits);
BF_API void bf_cuckoo_free(bf_cuckoo *f);
/** BF_OK, or BF_EFULL: the key was not stored; every earlier key still is.
 *  BF_EREADONLY on a view. */
BF_API int bf_cuckoo_insert_hash(bf_cuckoo *f, uint64_t hash);
BF_API bool bf_cuckoo_contains_hash(const bf_cuckoo *f, uint64_t hash);
/** BF_OK, or BF_ENOTFOUND (nothing changed); BF_EREADONLY on a view. */
BF_API int bf_cuckoo_remove_hash(bf_cuckoo *f, uint64_t hash);
/** Fingerprints stored. */
BF_API uint64_t bf_cuckoo_count(const bf_cuckoo *f);
BF_API uint64_t bf_cuckoo_num_buckets(const bf_cuckoo *f);
BF_API unsigned bf_cuckoo_fingerprint_bits(const bf_cuckoo *f);

/* ------------------------------------------------------------------------ */
/* One interface for every family                                            */
/* ------------------------------------------------------------------------ */

/*
 * Every family supports every call below except remove (sbbf and bloom:
 * BF_EUNSUPPORTED) and merge (cuckoo: BF_EUNSUPPORTED). On a read-only
 * filter (bf_filter_view, bf_filter_map_file) every mutating call returns
 * BF_EREADONLY, whether or not the family supports it.
 */

typedef enum bf_family {
    BF_FAMILY_SBBF = 1,
    BF_FAMILY_BLOOM = 2,
    BF_FAMILY_COUNTING = 3,
    BF_FAMILY_CUCKOO = 4
} bf_family;

/** "sbbf", "bloom", "counting", "cuckoo"; NULL for an unknown family. */
BF_API const char *bf_family_name(bf_family family);
BF_API int bf_family_from_name(const char *name, bf_family *out);

/** Sizing for (n, fpp): what bf_filter_new would allocate. */
typedef struct bf_sizing {
    bf_family family;
    uint64_t num_bytes;   /* payload bytes */
    double bits_per_key;  /* 8 * num_bytes / n */
    unsigned k;           /* hashes (bloom, counting); 8 for sbbf; 0 cuckoo */
    unsigned fp_bits;     /* cuckoo fingerprint bits; 0 otherwise */
    double model_fpp;     /* model FPR at n keys */
} bf_sizing;
BF_API int bf_size_for(bf_family family, uint64_t n, double fpp, bf_sizing *out);
/** Model FPR of a family's filter of num_bytes holding n keys, with the
 *  family's best parameters for that size. */
BF_API int bf_fpp_for(bf_family family, uint64_t num_bytes, uint64_t n,
                      double *out_fpp);

typedef struct bf_filter bf_filter;

typedef struct bf_stats {
    bf_family family;
    uint64_t num_bytes;      /* payload bytes */
    uint64_t inserted;       /* successful insert calls recorded (not distinct) */
    uint64_t cells;          /* bits (sbbf, bloom), counters, cuckoo slots */
    uint64_t cells_set;      /* set bits, non-zero counters, occupied slots */
    double fill_ratio;       /* cells_set / cells (cuckoo: load factor) */
    double est_keys;         /* estimated distinct keys (cuckoo: exact count) */
    double est_fpp;          /* estimated FPR of the filter as it stands */
    unsigned k;              /* hashes per key; cuckoo: 0 */
    unsigned fp_bits;        /* cuckoo fingerprint bits; else 0 */
    const char *kernel;      /* sbbf kernel name; else "scalar" */
} bf_stats;

BF_API int bf_filter_new(bf_filter **out, bf_family family, uint64_t n, double fpp);
BF_API void bf_filter_free(bf_filter *f);
BF_API bf_family bf_filter_family(const bf_filter *f);
/** BF_OK, or BF_EFULL (cuckoo), BF_EREADONLY (view). */
BF_API int bf_filter_insert_hash(bf_filter *f, uint64_t hash);
BF_API bool bf_filter_contains_hash(const bf_filter *f, uint64_t hash);
/** BF_OK, BF_ENOTFOUND, or BF_EUNSUPPORTED (sbbf, bloom). */
BF_API int bf_filter_remove_hash(bf_filter *f, uint64_t hash);
/** Inserts in order; stops at the first failure. *done (may be NULL) = keys
 *  inserted. */
BF_API int bf_filter_insert_hashes(bf_filter *f, const uint64_t *hashes, size_t n,
                                   size_t *done);
BF_API size_t bf_filter_contains_hashes(const bf_filter *f, const uint64_t *hashes,
                                        size_t n, uint8_t *out);
/** Removes in order; stops at the first failure (BF_ENOTFOUND: that key and
 *  the ones after it are untouched). *done (may be NULL) = keys removed.
 *  BF_EUNSUPPORTED for families without remove (sbbf, bloom). */
BF_API int bf_filter_remove_hashes(bf_filter *f, const uint64_t *hashes, size_t n,
                                   size_t *done);
/** Byte strings hashed with XXH64 and the filter's seed. */
BF_API int bf_filter_insert(bf_filter *f, const void *data, size_t len);
BF_API bool bf_filter_contains(const bf_filter *f, const void *data, size_t len);
BF_API int bf_filter_remove(bf_filter *f, const void *data, size_t len);
/*
 * Keys in, answers out, for every family: typed arrays and Arrow byte
 * strings as the bf_sbbf_* forms above take them, hashed with the filter's
 * seed (XXH64 of each value's little-endian bytes, or of the string), a
 * chunk at a time, through bf_filter_insert_hashes /
 * bf_filter_contains_hashes. Inserts stop at the first failure like
 * bf_filter_insert_hashes (BF_EFULL for a cuckoo filter); *done (may be
 * NULL) = keys inserted. BF_EREADONLY on a view, BF_EINVAL for NULL
 * arguments or bad offsets (nothing inserted).
 */
BF_API int bf_filter_insert_int32s(bf_filter *f, const int32_t *values, size_t n, size_t *done);
BF_API int bf_filter_insert_int64s(bf_filter *f, const int64_t *values, size_t n, size_t *done);
BF_API int bf_filter_insert_floats(bf_filter *f, const float *values, size_t n, size_t *done);
BF_API int bf_filter_insert_doubles(bf_filter *f, const double *values, size_t n, size_t *done);
BF_API size_t bf_filter_contains_int32s(const bf_filter *f, const int32_t *values, size_t n,
                                        uint8_t *out);
BF_API size_t bf_filter_contains_int64s(const bf_filter *f, const int64_t *values, size_t n,
                                        uint8_t *out);
BF_API size_t bf_filter_contains_floats(const bf_filter *f, const float *values, size_t n,
                                        uint8_t *out);
BF_API size_t bf_filter_contains_doubles(const bf_filter *f, const double *values, size_t n,
                                         uint8_t *out);
BF_API int bf_filter_insert_binary(bf_filter *f, const void *data, const int32_t *offsets,
                                   size_t n, size_t *done);
BF_API int bf_filter_insert_large_binary(bf_filter *f, const void *data, const int64_t *offsets,
                                         size_t n, size_t *done);
BF_API int bf_filter_contains_binary(const bf_filter *f, const void *data, const int32_t *offsets,
                                     size_t n, uint8_t *out, size_t *found);
BF_API int bf_filter_contains_large_binary(const bf_filter *f, const void *data,
                                           const int64_t *offsets, size_t n, uint8_t *out,
                                           size_t *found);
BF_API uint64_t bf_filter_hash(const bf_filter *f, const void *data, size_t len);
BF_API int bf_filter_set_seed(bf_filter *f, uint64_t seed);
BF_API uint64_t bf_filter_seed(const bf_filter *f);
BF_API size_t bf_filter_num_bytes(const bf_filter *f);
BF_API int bf_filter_stats(const bf_filter *f, bf_stats *out);
/** dst |= src (sbbf, bloom; counting adds counters, saturating). Cuckoo:
 *  BF_EUNSUPPORTED. Same family, size and seed required (BF_EMISMATCH). */
BF_API int bf_filter_merge(bf_filter *dst, const bf_filter *src);
BF_API int bf_filter_clear(bf_filter *f);
/** The underlying family object, or NULL if f is of another family. The
 *  bf_filter keeps ownership. */
BF_API bf_sbbf *bf_filter_sbbf(bf_filter *f);
/** Wraps an SBBF (e.g. one read from Parquet with bf_sbbf_from_parquet) in
 *  the generic interface, to save it in the native format. On BF_OK the
 *  bf_filter owns sbbf (freed by bf_filter_free); on failure the caller
 *  keeps it. Read-only views cannot be wrapped (BF_EREADONLY). The insert
 *  count starts at 0; saving raises it to the least the bits imply. */
BF_API int bf_filter_from_sbbf(bf_filter **out, bf_sbbf *sbbf);
BF_API bf_bloom *bf_filter_bloom(bf_filter *f);
BF_API bf_counting *bf_filter_counting(bf_filter *f);
BF_API bf_cuckoo *bf_filter_cuckoo(bf_filter *f);

/*
 * Native portable format (every family): a 64-byte header, then the
 * family's payload; byte order independent. Specified in docs/format.md,
 * with what loading checks.
 */
#define BF_FORMAT_VERSION 1u
#define BF_HEADER_BYTES 64u
BF_API size_t bf_filter_save_size(const bf_filter *f);
BF_API int bf_filter_save(const bf_filter *f, void *buf, size_t cap, size_t *written);
/** Copying load; validates every field and the payload checksum. */
BF_API int bf_filter_load(bf_filter **out, const void *buf, size_t len);
/** Zero-copy read-only view over buf (any alignment; caller keeps it alive). */
#define BF_VIEW_VERIFY_PAYLOAD 1u /* also check the payload checksum (O(size)) */
BF_API int bf_filter_view(bf_filter **out, const void *buf, size_t len,
                          unsigned flags);
/** Save to a file atomically (temporary file, fsync, rename). */
BF_API int bf_filter_save_file(const bf_filter *f, const char *path);
BF_API int bf_filter_load_file(bf_filter **out, const char *path);
/** Map a saved filter read-only (mmap, no copy); freed by bf_filter_free.
 *  flags: BF_VIEW_VERIFY_PAYLOAD and/or BF_MAP_PREFAULT. The file must not
 *  be truncated while mapped (bf_filter_save_file replaces files by rename,
 *  which is safe: the mapping keeps the old contents). */
#define BF_MAP_PREFAULT 2u /* read the whole file in now (MAP_POPULATE) */
BF_API int bf_filter_map_file(bf_filter **out, const char *path, unsigned flags);

#ifdef __cplusplus
}
#endif

/* ------------------------------------------------------------------------ */
/* Single-key header paths                                                   */
/* ------------------------------------------------------------------------ */

/*
 * bf_sbbf_contains_hash, bf_sbbf_insert_hash, the byte-string and the typed
 * single-key calls (and bf_hash_int32/int64/float/double) are macros over
 * static inline functions: a caller gets the probe inlined, with no call
 * and no jump through the kernel table, when the filter's kernel is the one
 * the inline code implements (BF_SBBF_INLINE says which), and the exported
 * function otherwise: a filter made with another kernel, a forced one
 * (BLOCKFILTER_KERNEL), a layout version this header does not know, a
 * read-only view on insert. Bits and answers are those of the exported
 * functions, which stay the reference: (bf_sbbf_contains_hash)(f, h) or a
 * pointer to it calls the library, and BF_NO_INLINE turns the paths off.
 * The AVX2 code serves the avx2 and avx512 kernels alike (the avx512
 * kernel's single-key calls are that 256-bit sequence).
 */
#if !defined(BF_NO_INLINE)

#if defined(BF_INL_AVX2)
#define BF_SBBF_INLINE BF_SBBF_KERNEL_AVX2
#elif defined(BF_INL_NEON)
#define BF_SBBF_INLINE BF_SBBF_KERNEL_NEON
#else
#define BF_SBBF_INLINE BF_SBBF_KERNEL_SCALAR
#endif

#if defined(__GNUC__)
#define BF_INL_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define BF_INL_LIKELY(x) (x)
#endif

static inline const bf_sbbf_layout *bf_inl_sbbf_layout(const bf_sbbf *f) {
    return BF_INL_CAST(const bf_sbbf_layout *, BF_INL_CAST(const void *, f));
}

/** Whether the single-key queries on f run inline here (else the library):
 *  its tag names the layout version and a kernel class this code implements. */
static inline bool bf_sbbf_inline_ok(const bf_sbbf *f) {
    uint32_t tag = bf_inl_sbbf_layout(f)->tag;
#if defined(BF_INL_AVX2)
    return tag == BF_SBBF_TAG(BF_SBBF_KERNEL_AVX2) || tag == BF_SBBF_TAG(BF_SBBF_KERNEL_AVX512);
#else
    return tag == BF_SBBF_TAG(BF_SBBF_INLINE);
#endif
}
/* The bitset this code may insert into inline, or NULL. */
static inline uint8_t *bf_inl_sbbf_insert_bits(const bf_sbbf *f) {
    return bf_inl_sbbf_layout(f)->insert_bits[BF_SBBF_INLINE];
}

/* The block of a hash: ((h >> 32) * num_blocks) >> 32, 32 bytes each. */
static inline uint64_t bf_inl_sbbf_offset(uint64_t num_blocks, uint64_t h) {
    return (((h >> 32) * num_blocks) >> 32) * 32u;
}

#if defined(BF_INL_AVX2)
static inline __m256i bf_inl_sbbf_mask(uint64_t h) {
    const __m256i salt = _mm256_setr_epi32(
        BF_INL_CAST(int, 0x47b6137bu), BF_INL_CAST(int, 0x44974d91u), BF_INL_CAST(int, 0x8824ad5bu),
        BF_INL_CAST(int, 0xa2b7289du), BF_INL_CAST(int, 0x705495c7u), BF_INL_CAST(int, 0x2df1424bu),
        BF_INL_CAST(int, 0x9efc4947u), BF_INL_CAST(int, 0x5c6bfb31u));
    __m256i pos = _mm256_srli_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(BF_INL_CAST(int, BF_INL_CAST(uint32_t, h))), salt), 27);
    return _mm256_sllv_epi32(_mm256_set1_epi32(1), pos);
}
static inline bool bf_inl_sbbf_probe(const bf_sbbf_layout *l, uint64_t h) {
    __m256i block = _mm256_loadu_si256(BF_INL_CAST(const __m256i *, BF_INL_CAST(const void *, l->data + bf_inl_sbbf_offset(l->num_blocks, h))));
    return _mm256_testc_si256(block, bf_inl_sbbf_mask(h)) != 0;
}
#if defined(__GNUC__)
/* The block as eight 32-bit words, for the insert's load and store: unlike
 * __m256i this type does not alias everything, so a compiler knows the
 * store leaves the filter's pointer and block count alone and keeps them
 * in registers across a caller's loop of inserts (17 % faster at 10^6
 * keys on Zen 5). Writable bitsets are the library's own; read them as
 * bytes or 32-bit words, as Parquet defines them. */
typedef int32_t bf_inl_v8si __attribute__((vector_size(32), aligned(1)));
static inline void bf_inl_sbbf_set(uint8_t *bits, uint64_t num_blocks, uint64_t h) {
    bf_inl_v8si *p = BF_INL_CAST(bf_inl_v8si *, BF_INL_CAST(void *, bits + bf_inl_sbbf_offset(num_blocks, h)));
    __m256i m = bf_inl_sbbf_mask(h);
    bf_inl_v8si mv;
    memcpy(&mv, &m, sizeof mv);
    *p = *p | mv;
}
#else
static inline void bf_inl_sbbf_set(uint8_t *bits, uint64_t num_blocks, uint64_t h) {
    __m256i *p = BF_INL_CAST(__m256i *, BF_INL_CAST(void *, bits + bf_inl_sbbf_offset(num_blocks, h)));
    _mm256_storeu_si256(p, _mm256_or_si256(_mm256_loadu_si256(p), bf_inl_sbbf_mask(h)));
}
#endif
#elif defined(BF_INL_NEON)
static inline void bf_inl_sbbf_mask(uint64_t h, uint32x4_t *lo, uint32x4_t *hi) {
    static const uint32_t salt[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                     0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};
    const uint32x4_t one = vdupq_n_u32(1), x = vdupq_n_u32(BF_INL_CAST(uint32_t, h));
    *lo = vshlq_u32(one, vreinterpretq_s32_u32(vshrq_n_u32(vmulq_u32(x, vld1q_u32(salt)), 27)));
    *hi = vshlq_u32(one, vreinterpretq_s32_u32(vshrq_n_u32(vmulq_u32(x, vld1q_u32(salt + 4)), 27)));
}
static inline bool bf_inl_sbbf_probe(const bf_sbbf_layout *l, uint64_t h) {
    const uint8_t *p = l->data + bf_inl_sbbf_offset(l->num_blocks, h);
    uint32x4_t lo, hi;
    bf_inl_sbbf_mask(h, &lo, &hi);
    uint32x4_t miss = vorrq_u32(vbicq_u32(lo, vreinterpretq_u32_u8(vld1q_u8(p))),
                                vbicq_u32(hi, vreinterpretq_u32_u8(vld1q_u8(p + 16))));
    return vmaxvq_u32(miss) == 0;
}
static inline void bf_inl_sbbf_set(uint8_t *bits, uint64_t num_blocks, uint64_t h) {
    uint8_t *p = bits + bf_inl_sbbf_offset(num_blocks, h);
    uint32x4_t lo, hi;
    bf_inl_sbbf_mask(h, &lo, &hi);
    vst1q_u8(p, vreinterpretq_u8_u32(vorrq_u32(vreinterpretq_u32_u8(vld1q_u8(p)), lo)));
    vst1q_u8(p + 16, vreinterpretq_u8_u32(vorrq_u32(vreinterpretq_u32_u8(vld1q_u8(p + 16)), hi)));
}
#else
/* Word i of a block, a little-endian 32-bit value at any alignment. */
static inline uint32_t bf_inl_sbbf_word(const uint8_t *p) {
    uint32_t w;
    memcpy(&w, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap32(w);
#endif
    return w;
}
#define BF_INL_SBBF_BIT(h, salt) (1u << ((BF_INL_CAST(uint32_t, h) * (salt)) >> 27))
static inline bool bf_inl_sbbf_probe(const bf_sbbf_layout *l, uint64_t h) {
    const uint8_t *p = l->data + bf_inl_sbbf_offset(l->num_blocks, h);
    uint32_t missing = (BF_INL_SBBF_BIT(h, 0x47b6137bu) & ~bf_inl_sbbf_word(p)) |
                       (BF_INL_SBBF_BIT(h, 0x44974d91u) & ~bf_inl_sbbf_word(p + 4)) |
                       (BF_INL_SBBF_BIT(h, 0x8824ad5bu) & ~bf_inl_sbbf_word(p + 8)) |
                       (BF_INL_SBBF_BIT(h, 0xa2b7289du) & ~bf_inl_sbbf_word(p + 12)) |
                       (BF_INL_SBBF_BIT(h, 0x705495c7u) & ~bf_inl_sbbf_word(p + 16)) |
                       (BF_INL_SBBF_BIT(h, 0x2df1424bu) & ~bf_inl_sbbf_word(p + 20)) |
                       (BF_INL_SBBF_BIT(h, 0x9efc4947u) & ~bf_inl_sbbf_word(p + 24)) |
                       (BF_INL_SBBF_BIT(h, 0x5c6bfb31u) & ~bf_inl_sbbf_word(p + 28));
    return missing == 0;
}
static inline void bf_inl_sbbf_set(uint8_t *bits, uint64_t num_blocks, uint64_t h) {
    static const uint32_t salt[8] = {0x47b6137bu, 0x44974d91u, 0x8824ad5bu, 0xa2b7289du,
                                     0x705495c7u, 0x2df1424bu, 0x9efc4947u, 0x5c6bfb31u};
    uint8_t *p = bits + bf_inl_sbbf_offset(num_blocks, h);
    for (unsigned i = 0; i < 8; i++) {
        uint32_t w = bf_inl_sbbf_word(p + 4 * i) | BF_INL_SBBF_BIT(h, salt[i]);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap32(w);
#endif
        memcpy(p + 4 * i, &w, 4);
    }
}
#undef BF_INL_SBBF_BIT
#endif

static inline bool bf_sbbf_contains_hash_inline(const bf_sbbf *f, uint64_t hash) {
    if (BF_INL_LIKELY(bf_sbbf_inline_ok(f))) return bf_inl_sbbf_probe(bf_inl_sbbf_layout(f), hash);
    return (bf_sbbf_contains_hash)(f, hash);
}
static inline int bf_sbbf_insert_hash_inline(bf_sbbf *f, uint64_t hash) {
    uint8_t *bits = bf_inl_sbbf_insert_bits(f);
    if (BF_INL_LIKELY(bits != NULL)) {
        bf_inl_sbbf_set(bits, bf_inl_sbbf_layout(f)->num_blocks, hash);
        return BF_OK;
    }
    return (bf_sbbf_insert_hash)(f, hash); /* views: BF_EREADONLY */
}

/* XXH64 of a byte string with the filter's seed: 4- and 8-byte strings in
 * the fixed-length form, inline; other lengths through the library. */
static inline uint64_t bf_inl_sbbf_hash_bytes(const bf_sbbf_layout *l, const void *data, size_t len) {
    if (len == 8) {
        uint64_t v;
        memcpy(&v, data, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap64(v); /* the bytes, read little-endian */
#endif
        return bf_xxh64_u64(v, l->seed);
    }
    if (len == 4) {
        uint32_t v;
        memcpy(&v, data, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap32(v);
#endif
        return bf_xxh64_u32(v, l->seed);
    }
    return bf_hash_xxh64_seeded(data, len, l->seed);
}
static inline bool bf_sbbf_contains_inline(const bf_sbbf *f, const void *data, size_t len) {
    if (BF_INL_LIKELY(bf_sbbf_inline_ok(f) && data))
        return bf_inl_sbbf_probe(bf_inl_sbbf_layout(f), bf_inl_sbbf_hash_bytes(bf_inl_sbbf_layout(f), data, len));
    return (bf_sbbf_contains)(f, data, len);
}
static inline int bf_sbbf_insert_inline(bf_sbbf *f, const void *data, size_t len) {
    uint8_t *bits = f ? bf_inl_sbbf_insert_bits(f) : NULL;
    if (BF_INL_LIKELY(bits != NULL && data != NULL)) {
        const bf_sbbf_layout *l = bf_inl_sbbf_layout(f);
        bf_inl_sbbf_set(bits, l->num_blocks, bf_inl_sbbf_hash_bytes(l, data, len));
        return BF_OK;
    }
    return (bf_sbbf_insert)(f, data, len);
}

/* Parquet's typed hashes, inline: XXH64 of the value's little-endian bytes. */
static inline uint64_t bf_hash_int32_inline(int32_t v) { return bf_xxh64_u32(BF_INL_CAST(uint32_t, v), 0); }
static inline uint64_t bf_hash_int64_inline(int64_t v) { return bf_xxh64_u64(BF_INL_CAST(uint64_t, v), 0); }
static inline uint64_t bf_hash_float_inline(float v) {
    return bf_xxh64_u32(bf_inl_bits_of_float(v), 0);
}
static inline uint64_t bf_hash_double_inline(double v) {
    return bf_xxh64_u64(bf_inl_bits_of_double(v), 0);
}

/* The typed single-key calls: the filter's seed (0 = Parquet's hash). */
#define BF_INL_SBBF_TYPED(suffix, ctype, hash_expr)                                 \
    static inline bool bf_sbbf_contains_##suffix##_inline(const bf_sbbf *f, ctype v) {  \
        if (BF_INL_LIKELY(bf_sbbf_inline_ok(f))) {                                          \
            const bf_sbbf_layout *l = bf_inl_sbbf_layout(f);                                \
            return bf_inl_sbbf_probe(l, hash_expr);                                         \
        }                                                                                \
        return (bf_sbbf_contains_##suffix)(f, v);                                        \
    }                                                                                    \
    static inline int bf_sbbf_insert_##suffix##_inline(bf_sbbf *f, ctype v) {           \
        uint8_t *bits = f ? bf_inl_sbbf_insert_bits(f) : NULL;                         \
        if (BF_INL_LIKELY(bits != NULL)) {                                               \
            const bf_sbbf_layout *l = bf_inl_sbbf_layout(f);                             \
            bf_inl_sbbf_set(bits, l->num_blocks, hash_expr);                             \
            return BF_OK;                                                                \
        }                                                                                \
        return (bf_sbbf_insert_##suffix)(f, v);                                          \
    }
BF_INL_SBBF_TYPED(int32, int32_t, bf_xxh64_u32(BF_INL_CAST(uint32_t, v), l->seed))
BF_INL_SBBF_TYPED(int64, int64_t, bf_xxh64_u64(BF_INL_CAST(uint64_t, v), l->seed))
BF_INL_SBBF_TYPED(float, float, bf_xxh64_u32(bf_inl_bits_of_float(v), l->seed))
BF_INL_SBBF_TYPED(double, double, bf_xxh64_u64(bf_inl_bits_of_double(v), l->seed))
#undef BF_INL_SBBF_TYPED

#define bf_sbbf_contains_hash(f, hash) bf_sbbf_contains_hash_inline((f), (hash))
#define bf_sbbf_insert_hash(f, hash) bf_sbbf_insert_hash_inline((f), (hash))
#define bf_sbbf_contains(f, data, len) bf_sbbf_contains_inline((f), (data), (len))
#define bf_sbbf_insert(f, data, len) bf_sbbf_insert_inline((f), (data), (len))
#define bf_sbbf_contains_int32(f, v) bf_sbbf_contains_int32_inline((f), (v))
#define bf_sbbf_contains_int64(f, v) bf_sbbf_contains_int64_inline((f), (v))
#define bf_sbbf_contains_float(f, v) bf_sbbf_contains_float_inline((f), (v))
#define bf_sbbf_contains_double(f, v) bf_sbbf_contains_double_inline((f), (v))
#define bf_sbbf_insert_int32(f, v) bf_sbbf_insert_int32_inline((f), (v))
#define bf_sbbf_insert_int64(f, v) bf_sbbf_insert_int64_inline((f), (v))
#define bf_sbbf_insert_float(f, v) bf_sbbf_insert_float_inline((f), (v))
#define bf_sbbf_insert_double(f, v) bf_sbbf_insert_double_inline((f), (v))
#define bf_hash_int32(v) bf_hash_int32_inline(v)
#define bf_hash_int64(v) bf_hash_int64_inline(v)
#define bf_hash_float(v) bf_hash_float_inline(v)
#define bf_hash_double(v) bf_hash_double_inline(v)

#endif /* !BF_NO_INLINE */

#endif /* BLOCKFILTER_H */
