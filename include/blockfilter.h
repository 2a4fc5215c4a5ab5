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
    BF_EFULL = -12,       /* cuckoo filter cannot place the key; a
                             non-scaling scalable filter is at capacity */
    BF_ENOTFOUND = -13,   /* remove of a key the filter says is absent */
    BF_EIO = -14,         /* file open/read/write/rename failed (see errno) */
    BF_EREADONLY = -15,   /* write to a read-only view */
    BF_EFAMILY = -16,     /* unknown family, or wrong family for this call */
    BF_EENCRYPTED = -17,  /* Parquet modular encryption (encrypted footer
                             "PARE", or an encrypted column): not supported */
    BF_ENOFILTER = -18,   /* the Parquet column chunk has no Bloom filter */
    BF_ENOCOLUMN = -19    /* no column of that name or index */
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
    double est_keys;      /* -32 z ln(1 - fill): estimated distinct keys */
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
BF_API int bf_sbbf_from_parquet(bf_sbbf **out, const void *buf, size_t len,
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
BF_API int bf_bloom_new_bits(bf_bloom **out, uint64_t m, unsigned k);
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
BF_API int bf_counting_new_counters(bf_counting **out, uint64_t m, unsigned k);
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
/** Stored fingerprints equal to the key's, in its two buckets and the
 *  victim slot (how many times it may have been inserted). */
BF_API unsigned bf_cuckoo_count_hash(const bf_cuckoo *f, uint64_t hash);
/** out[i] = 1 if hashes[i] may be present, else 0 (out may be NULL);
 *  returns the number of 1s. Prefetches the buckets of a group of keys
 *  before testing any, so large tables answer faster than key by key. */
BF_API size_t bf_cuckoo_contains_hashes(const bf_cuckoo *f, const uint64_t *hashes, size_t n,
                                        uint8_t *out);
/** Kick-out limit of inserts, 1..65535 (default 500); BF_EINVAL otherwise.
 *  A lower limit trades load factor for worst-case insert time. */
BF_API int bf_cuckoo_set_max_kicks(bf_cuckoo *f, unsigned kicks);
BF_API unsigned bf_cuckoo_max_kicks(const bf_cuckoo *f);
/* Storing a cuckoo filter elsewhere (a database) and rebuilding it byte for
 * byte: the table (the native format's payload layout) plus this state.
 * The kick-out generator is part of it, so a rebuilt filter makes the same
 * choices on later inserts as the original. */
typedef struct bf_cuckoo_state {
    uint64_t count;        /* fingerprints stored, victim included */
    uint64_t victim_index; /* bucket of the victim; 0 when there is none */
    uint32_t victim_fp;    /* 0: no victim */
    uint64_t rng;          /* kick-out generator state, non-zero */
} bf_cuckoo_state;
/** The table: bf_cuckoo_table_bytes() bytes, num_buckets * fp_bits / 2. */
BF_API const void *bf_cuckoo_table(const bf_cuckoo *f);
BF_API uint64_t bf_cuckoo_table_bytes(const bf_cuckoo *f);
BF_API void bf_cuckoo_get_state(const bf_cuckoo *f, bf_cuckoo_state *out);
/** BF_ECORRUPT (nothing changed) if a field is out of range for this table. */
BF_API int bf_cuckoo_set_state(bf_cuckoo *f, const bf_cuckoo_state *s);
/** Copies len bytes into the table at offset; BF_EINVAL outside it. */
BF_API int bf_cuckoo_write_table(bf_cuckoo *f, uint64_t offset, const void *src,
                                 size_t len);

/* ------------------------------------------------------------------------ */
/* One interface for every family                                            */
/* ------------------------------------------------------------------------ */

/*
 * Every family supports every call below except remove (sbbf, bloom and
 * scalable: BF_EUNSUPPORTED) and merge (cuckoo and scalable:
 * BF_EUNSUPPORTED). On a read-only filter (bf_filter_view,
 * bf_filter_map_file) every mutating call returns BF_EREADONLY, whether or
 * not the family supports it.
 *
 * The scalable family (a chain of SBBF layers, see "Scalable SBBF" below)
 * takes n as its initial capacity: bf_filter_new(BF_FAMILY_SCALABLE, n,
 * fpp) is bf_scalable_new with capacity n (0 is taken as 1), the default
 * expansion (2) and ratio (0.5); it grows past n, its compound FPR staying
 * within fpp. Inserts add a key only if the chain may not hold it already
 * (bf_scalable_insert_hash), so repeats do not use capacity. Other parameters
 * (expansion, ratio, non-scaling): bf_scalable_new + bf_filter_from_scalable.
 */

typedef enum bf_family {
    BF_FAMILY_SBBF = 1,
    BF_FAMILY_BLOOM = 2,
    BF_FAMILY_COUNTING = 3,
    BF_FAMILY_CUCKOO = 4,
    BF_FAMILY_SCALABLE = 5
} bf_family;

/** "sbbf", "bloom", "counting", "cuckoo", "scalable"; NULL for an unknown
 *  family. Family ids are below 256 (byte 6 of a native image). */
BF_API const char *bf_family_name(bf_family family);
BF_API int bf_family_from_name(const char *name, bf_family *out);

/** Sizing for (n, fpp): what bf_filter_new would allocate. For the
 *  scalable family: layer 0 of a chain with initial capacity n (num_bytes,
 *  bits_per_key), and model_fpp = its model FPR when it holds n keys (the
 *  chain's bound_fpp at that size, <= its layer-0 target < fpp); growth
 *  adds layers, and the compound FPR stays <= fpp however far it grows. */
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
 *  family's best parameters for that size. Scalable: a chain holding the n
 *  keys in one layer of num_bytes (reserved at n or more, or non-scaling),
 *  which is the SBBF's model; a chain grown through several layers costs
 *  more bytes for the same FPR (docs/families.md). */
BF_API int bf_fpp_for(bf_family family, uint64_t num_bytes, uint64_t n,
                      double *out_fpp);

typedef struct bf_filter bf_filter;

typedef struct bf_filter_stats {
    bf_family family;
    uint64_t num_bytes;      /* filter bytes (bf_filter_num_bytes) */
    uint64_t inserted;       /* successful insert calls recorded (not distinct) */
    uint64_t cells;          /* bits (sbbf, bloom; scalable: over all
                                layers), counters, cuckoo slots */
    uint64_t cells_set;      /* set bits, non-zero counters, occupied slots */
    double fill_ratio;       /* cells_set / cells (cuckoo: load factor) */
    double est_keys;         /* estimated distinct keys (cuckoo: exact
                                count; scalable: keys written, exact) */
    double est_fpp;          /* estimated FPR of the filter as it stands */
    unsigned k;              /* hashes per key; cuckoo: 0 */
    unsigned fp_bits;        /* cuckoo fingerprint bits; else 0 */
    const char *kernel;      /* sbbf kernel name; else "scalar" */
} bf_filter_stats;

BF_API int bf_filter_new(bf_filter **out, bf_family family, uint64_t n, double fpp);
BF_API void bf_filter_free(bf_filter *f);
BF_API bf_family bf_filter_family(const bf_filter *f);
/** BF_OK, or BF_EFULL (cuckoo; a non-scaling scalable filter at
 *  capacity), BF_ETOOBIG / BF_ENOMEM (a scalable filter that cannot grow;
 *  nothing changed), BF_EREADONLY (view). */
BF_API int bf_filter_insert_hash(bf_filter *f, uint64_t hash);
BF_API bool bf_filter_contains_hash(const bf_filter *f, uint64_t hash);
/** BF_OK, BF_ENOTFOUND, or BF_EUNSUPPORTED (sbbf, bloom, scalable). */
BF_API int bf_filter_remove_hash(bf_filter *f, uint64_t hash);
/** Inserts in order; stops at the first failure. *done (may be NULL) = keys
 *  inserted. */
BF_API int bf_filter_insert_hashes(bf_filter *f, const uint64_t *hashes, size_t n,
                                   size_t *done);
BF_API size_t bf_filter_contains_hashes(const bf_filter *f, const uint64_t *hashes,
                                        size_t n, uint8_t *out);
/** Removes in order; stops at the first failure (BF_ENOTFOUND: that key and
 *  the ones after it are untouched). *done (may be NULL) = keys removed.
 *  BF_EUNSUPPORTED for families without remove (sbbf, bloom, scalable). */
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
BF_API int bf_filter_get_stats(const bf_filter *f, bf_filter_stats *out);
/** dst |= src (sbbf, bloom; counting adds counters, saturating). Cuckoo
 *  and scalable: BF_EUNSUPPORTED. Same family, size and seed required
 *  (BF_EMISMATCH). */
BF_API int bf_filter_merge(bf_filter *dst, const bf_filter *src);
BF_API int bf_filter_clear(bf_filter *f);
/** The underlying family object, or NULL if f is of another family. The
 *  bf_filter keeps ownership. The family object owns the seed, so its own
 *  byte-string calls hash as bf_filter_insert does; it is read-only when f
 *  is. */
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
/** The format version of a saved filter, from its 64-byte header alone:
 *  magic, header checksum and fields are checked; the payload is neither
 *  read nor its length checked (bf_filter_map_file does both). BF_EVERSION
 *  for a native file of a version this library cannot read. */
BF_API int bf_filter_file_version(const char *path, unsigned *version);
/** Save an SBBF's Parquet bytes (bf_sbbf_to_parquet: Thrift-compact
 *  BloomFilterHeader + bitset) to a file, atomically as bf_filter_save_file
 *  does. A keyed filter's bits are written as they are: Parquet readers hash
 *  with seed 0, so check bf_sbbf_seed() first. */
BF_API int bf_sbbf_save_parquet_file(const bf_sbbf *f, const char *path);

/* ------------------------------------------------------------------------ */
/* Parquet files: footer, column chunks, Bloom filters, row-group pruning    */
/* ------------------------------------------------------------------------ */

/*
 * A Parquet file opened read-only: the footer (FileMetaData) is parsed once
 * at open with a bounded Thrift-compact reader; everything below reads from
 * that parse and from the file's bytes, which stay mapped (or, for
 * bf_parquet_open_buffer, stay the caller's) until bf_parquet_close. No
 * call copies a Bloom filter: they are read-only SBBF views into the file.
 *
 * A bf_parquet_file is immutable after open: any number of threads may call
 * the query functions on one file at the same time.
 *
 * Errors: BF_EFORMAT (no "PAR1" at both ends, bad Thrift), BF_EENCRYPTED
 * ("PARE" footer; an encrypted column's filter), BF_ETRUNCATED (footer
 * length larger than the file), BF_ECORRUPT (fields inconsistent with each
 * other or the file: a filter past the end, a schema that does not match
 * the row groups), BF_ETOOBIG (a metadata limit), BF_EUNSUPPORTED (a filter
 * of an unknown algorithm, hash or compression; a column chunk in another
 * file), BF_ENOFILTER, BF_ENOCOLUMN, BF_EIO (with errno), BF_ENOMEM.
 * See docs/parquet.md.
 */
typedef struct bf_parquet_file bf_parquet_file;

/* Physical types (the values of Parquet's Type enum). */
typedef enum bf_parquet_type {
    BF_PARQUET_BOOLEAN = 0,
    BF_PARQUET_INT32 = 1,
    BF_PARQUET_INT64 = 2,
    BF_PARQUET_INT96 = 3,
    BF_PARQUET_FLOAT = 4,
    BF_PARQUET_DOUBLE = 5,
    BF_PARQUET_BYTE_ARRAY = 6,
    BF_PARQUET_FIXED_LEN_BYTE_ARRAY = 7
} bf_parquet_type;

/* Logical types: the field ids of Parquet's LogicalType union. A column
 * with only a (legacy) converted type gets the logical type it stands for
 * (UTF8 -> STRING, INT_8 -> INTEGER(8, signed), TIMESTAMP_MILLIS ->
 * TIMESTAMP(MILLIS, UTC), ...); INTERVAL, which has no LogicalType member,
 * is BF_PARQUET_LT_INTERVAL. */
typedef enum bf_parquet_logical {
    BF_PARQUET_LT_NONE = 0,
    BF_PARQUET_LT_STRING = 1,
    BF_PARQUET_LT_MAP = 2,
    BF_PARQUET_LT_LIST = 3,
    BF_PARQUET_LT_ENUM = 4,
    BF_PARQUET_LT_DECIMAL = 5,
    BF_PARQUET_LT_DATE = 6,
    BF_PARQUET_LT_TIME = 7,
    BF_PARQUET_LT_TIMESTAMP = 8,
    BF_PARQUET_LT_INTERVAL = 9,
    BF_PARQUET_LT_INTEGER = 10,
    BF_PARQUET_LT_UNKNOWN = 11, /* always null */
    BF_PARQUET_LT_JSON = 12,
    BF_PARQUET_LT_BSON = 13,
    BF_PARQUET_LT_UUID = 14,
    BF_PARQUET_LT_FLOAT16 = 15,
    BF_PARQUET_LT_VARIANT = 16,
    BF_PARQUET_LT_GEOMETRY = 17,
    BF_PARQUET_LT_GEOGRAPHY = 18,
    BF_PARQUET_LT_OTHER = 255   /* a LogicalType member this library does not know */
} bf_parquet_logical;

/* The order min/max statistics are compared in, as this library applies
 * it to prune (NONE: statistics are never used for this column). */
typedef enum bf_parquet_order {
    BF_PARQUET_ORDER_NONE = 0,
    BF_PARQUET_ORDER_SIGNED = 1,    /* integers, DATE, TIME, TIMESTAMP, DECIMAL */
    BF_PARQUET_ORDER_UNSIGNED = 2,  /* unsigned integers; byte strings, byte-wise */
    BF_PARQUET_ORDER_FLOAT = 3,     /* FLOAT, DOUBLE: numeric, NaN ignored */
    BF_PARQUET_ORDER_BOOLEAN = 4    /* false < true */
} bf_parquet_order;

/* A leaf column of the schema. Strings belong to the file. */
typedef struct bf_parquet_column {
    const char *path;        /* dotted path from the root, e.g. "a.b.c" */
    const char *name;        /* the leaf's own name */
    bf_parquet_type physical_type;
    int32_t type_length;     /* FIXED_LEN_BYTE_ARRAY width; else 0 */
    int repetition;          /* 0 REQUIRED, 1 OPTIONAL, 2 REPEATED */
    int max_definition_level;
    int max_repetition_level;
    bf_parquet_logical logical_type;
    int converted_type;      /* Parquet's ConvertedType, -1 if absent */
    int32_t scale, precision;/* DECIMAL; else 0 */
    int bit_width;           /* INTEGER: 8, 16, 32, 64; else 0 */
    bool is_signed;          /* INTEGER */
    int time_unit;           /* TIME, TIMESTAMP: 1 millis, 2 micros, 3 nanos */
    bool adjusted_to_utc;    /* TIME, TIMESTAMP */
    bf_parquet_order order;  /* what statistics pruning compares with */
} bf_parquet_column;

typedef struct bf_parquet_row_group {
    int64_t num_rows;
    int64_t total_byte_size;
    int64_t file_offset;            /* -1 if absent */
    int64_t total_compressed_size;  /* -1 if absent */
    int32_t ordinal;                /* -1 if absent */
} bf_parquet_row_group;

/* One column chunk's metadata. */
typedef struct bf_parquet_chunk {
    int codec;                      /* CompressionCodec: 0 UNCOMPRESSED, 1 SNAPPY, 2 GZIP, ... */
    int64_t num_values;             /* values including nulls */
    int64_t total_compressed_size;
    int64_t total_uncompressed_size;
    int64_t data_page_offset;
    int64_t dictionary_page_offset; /* -1 if absent */
    int64_t bloom_filter_offset;    /* -1 if absent */
    int32_t bloom_filter_length;    /* -1 if absent (older parquet-java) */
    bool encrypted;                 /* column crypto metadata present */
    bool external;                  /* file_path set: the data is in another file */
    bool has_null_count;
    int64_t null_count;
    bool has_distinct_count;
    int64_t distinct_count;
    /* Statistics as stored: PLAIN bytes (no length prefix for byte arrays),
     * pointing into the file. min_value/max_value when the file has them,
     * else the deprecated min/max (stats_deprecated true). */
    bool has_min, has_max;
    const void *min;
    size_t min_len;
    const void *max;
    size_t max_len;
    bool stats_deprecated;
    bool min_exact, max_exact;      /* is_min/max_value_exact; true if absent */
    bool stats_usable;              /* min/max valid for pruning under the
                                       spec's rules (column order, sort order,
                                       deprecated-field rules, lengths) */
} bf_parquet_chunk;

/** Map a Parquet file read-only (mmap) and parse its footer. */
BF_API int bf_parquet_open(bf_parquet_file **out, const char *path);
/** Parse a Parquet file held in caller memory (no copy): buf must stay
 *  alive and unchanged until bf_parquet_close. */
BF_API int bf_parquet_open_buffer(bf_parquet_file **out, const void *buf, size_t len);
BF_API void bf_parquet_close(bf_parquet_file *f);

BF_API int64_t bf_parquet_num_rows(const bf_parquet_file *f);
BF_API int32_t bf_parquet_version(const bf_parquet_file *f);
/** The writer's "created_by" (NUL-terminated), or NULL if absent. */
BF_API const char *bf_parquet_created_by(const bf_parquet_file *f);
BF_API size_t bf_parquet_num_row_groups(const bf_parquet_file *f);
BF_API size_t bf_parquet_num_columns(const bf_parquet_file *f);
/** The file's size and the footer's (FileMetaData bytes). */
BF_API uint64_t bf_parquet_file_size(const bf_parquet_file *f);
BF_API uint64_t bf_parquet_footer_size(const bf_parquet_file *f);
/** Number of key/value metadata entries and entry i (pointers into the
 *  file; *value NULL when the entry has no value). */
BF_API size_t bf_parquet_num_metadata(const bf_parquet_file *f);
BF_API int bf_parquet_metadata(const bf_parquet_file *f, size_t i, const char **key,
                               size_t *key_len, const char **value, size_t *value_len);

BF_API int bf_parquet_column_info(const bf_parquet_file *f, size_t col, bf_parquet_column *out);
/** The index of the leaf column with this dotted path (BF_ENOCOLUMN). */
BF_API int bf_parquet_find_column(const bf_parquet_file *f, const char *path, size_t *col);
BF_API int bf_parquet_row_group_info(const bf_parquet_file *f, size_t rg,
                                     bf_parquet_row_group *out);
BF_API int bf_parquet_chunk_info(const bf_parquet_file *f, size_t rg, size_t col,
                                 bf_parquet_chunk *out);

/** Where the chunk's Bloom filter is: offset and total length (header +
 *  bitset; read from the header when the writer did not record it), and
 *  the bitset's size. BF_ENOFILTER, BF_EENCRYPTED, or the reason the filter
 *  cannot be read. */
BF_API int bf_parquet_bloom_filter_location(const bf_parquet_file *f, size_t rg, size_t col,
                                            uint64_t *offset, uint64_t *length,
                                            uint64_t *num_bytes);
/** The chunk's Bloom filter as a read-only SBBF view into the file (no
 *  copy), validated. Free it with bf_sbbf_free, before bf_parquet_close. */
BF_API int bf_parquet_bloom_filter(const bf_parquet_file *f, size_t rg, size_t col,
                                   bf_sbbf **out);

/*
 * Probing: may row group rg hold this value in column col? The value is
 * given in its PLAIN encoding for the column's physical type (what
 * bf_parquet_value_from_text writes): BOOLEAN 1 byte (0/1); INT32, FLOAT
 * 4 bytes and INT64, DOUBLE 8 bytes little-endian; INT96 12 bytes;
 * BYTE_ARRAY the bytes; FIXED_LEN_BYTE_ARRAY exactly type_length bytes.
 *
 * Each row group gets a verdict: MAYBE, or the reason it can be skipped:
 * the chunk holds no non-null value (no rows, or null_count = num_values),
 * the value is outside [min, max] of statistics valid for the column's
 * sort order, or the Bloom filter (Parquet's hash of the PLAIN bytes,
 * XXH64 seed 0) says absent. Floating-point zero probes both +0 and -0;
 * NaN is never pruned. A row group is never skipped wrongly: a chunk whose
 * filter cannot be used (encrypted, corrupt, unsupported) gets MAYBE, or
 * with BF_PARQUET_STRICT makes the call fail with that status.
 */
typedef enum bf_parquet_verdict {
    BF_PARQUET_MAYBE = 0,
    BF_PARQUET_SKIP_STATS = 1,   /* outside the min/max statistics */
    BF_PARQUET_SKIP_BLOOM = 2,   /* the Bloom filter says absent */
    BF_PARQUET_SKIP_EMPTY = 3    /* no non-null value in the chunk */
} bf_parquet_verdict;
#define BF_PARQUET_STRICT 1u      /* fail on a filter that cannot be used */
#define BF_PARQUET_NO_STATS 2u    /* do not prune with statistics */
#define BF_PARQUET_NO_BLOOM 4u    /* do not prune with Bloom filters */

/** Verdicts for one value: out[rg] for every row group (out holds
 *  bf_parquet_num_row_groups bytes). *maybe (may be NULL) = row groups that
 *  may hold it. BF_EINVAL if len does not fit the physical type. */
BF_API int bf_parquet_probe(const bf_parquet_file *f, size_t col, const void *value,
                            size_t len, unsigned flags, uint8_t *out, size_t *maybe);
/** Many values against one column across all row groups: each value is
 *  hashed once, each row group's filter answers through the SBBF batch
 *  kernels. values[i] / lens[i] as in bf_parquet_probe (lens may be NULL
 *  for fixed-width types). out is row-group major: out[rg * n + i]. */
BF_API int bf_parquet_probe_batch(const bf_parquet_file *f, size_t col,
                                  const void *const *values, const size_t *lens, size_t n,
                                  unsigned flags, uint8_t *out);
/** As bf_parquet_probe_batch for fixed-width types, the n values packed
 *  back to back in their PLAIN encoding (n * width bytes). */
BF_API int bf_parquet_probe_batch_packed(const bf_parquet_file *f, size_t col,
                                         const void *values, size_t n, unsigned flags,
                                         uint8_t *out);
/** The Bloom filter hash of a PLAIN value of column col (Parquet's hash:
 *  XXH64 seed 0 over the PLAIN bytes). */
BF_API int bf_parquet_hash_value(const bf_parquet_file *f, size_t col, const void *value,
                                 size_t len, uint64_t *hash);

/*
 * Values as text, typed by the column's logical type.
 *
 * From text: BOOLEAN true/false/1/0; integers in decimal (range-checked for
 * the INTEGER width and signedness; unsigned ones stored as the same bit
 * pattern); FLOAT/DOUBLE as strtod reads them (nan, inf); DATE YYYY-MM-DD;
 * TIMESTAMP YYYY-MM-DD[T| ]HH:MM:SS[.fraction][Z] or an integer count of
 * the column's unit; TIME HH:MM:SS[.fraction]; DECIMAL -123.45 (at most
 * the column's scale digits after the point; INT32, INT64,
 * FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY minimal two's complement); INT96 as a
 * timestamp (Impala: nanoseconds of the day, Julian day); UUID in 8-4-4-4-12
 * hex; strings and other byte arrays as given, or "0x" hex with
 * BF_PARQUET_TEXT_HEX. *len = bytes written; BF_EBUFSIZE with *len = bytes
 * needed when cap is too small; BF_EINVAL for text that does not parse.
 *
 * To text: the same forms (dates ISO, timestamps ISO-8601 with the unit's
 * fraction and "Z" when adjusted to UTC); byte arrays that are not valid
 * UTF-8 strings, and non-string byte arrays, as 0x hex. With
 * BF_PARQUET_TEXT_JSON the result is one JSON value: strings quoted and
 * escaped, numbers bare, NaN and infinities as strings. Always
 * NUL-terminated when cap > 0; *len = characters (without the NUL) needed.
 */
#define BF_PARQUET_TEXT_HEX 1u
#define BF_PARQUET_TEXT_JSON 2u
BF_API int bf_parquet_value_from_text(const bf_parquet_file *f, size_t col, const char *text,
                                      size_t text_len, unsigned flags, void *buf, size_t cap,
                                      size_t *len);
BF_API int bf_parquet_value_to_text(const bf_parquet_file *f, size_t col, const void *value,
                                    size_t len, unsigned flags, char *buf, size_t cap,
                                    size_t *out_len);
/** Names: "INT32", "STRING", "SNAPPY", "REQUIRED", "SIGNED", ... (static
 *  strings; "UNKNOWN(n)"-style values give "?"). */
BF_API const char *bf_parquet_type_name(int physical_type);
BF_API const char *bf_parquet_logical_name(int logical_type);
BF_API const char *bf_parquet_codec_name(int codec);
BF_API const char *bf_parquet_repetition_name(int repetition);
BF_API const char *bf_parquet_order_name(int order);
BF_API const char *bf_parquet_verdict_name(int verdict);

/* ------------------------------------------------------------------------ */
/* Scalable SBBF: a chain of split-block Bloom filters                       */
/* ------------------------------------------------------------------------ */

/*
 * Scalable split-block Bloom filter (Almeida, Baquero, Preguica and
 * Hutchison 2007): a chain of SBBF layers for sets whose size is not known
 * in advance. Layer 0 is sized for `capacity` keys at target fpp_0; layer
 * i+1 holds `expansion` x layer i's keys at fpp_{i+1} = ratio * fpp_i, so
 * fpp_i = fpp_0 r^i. Each layer is an SBBF with the fewest 32-byte blocks
 * whose exact model FPR at its capacity is <= fpp_i (bf_sbbf_compact_bytes),
 * using the process default kernel (BLOCKFILTER_KERNEL honoured) chosen when
 * the chain is created; every layer of a chain uses that kernel.
 *
 * The compound FPR of a chain of layers with FPRs p_i is 1 - prod(1 - p_i)
 * (a foreign key is a false positive unless every layer rejects it; the
 * layers hold disjoint keys, so the events are independent). fpp_0 is the
 * largest q with prod_{i>=0} (1 - q r^i) >= 1 - fpp over an UNBOUNDED chain,
 * so no number of layers ever pushes the compound FPR past the requested
 * fpp. It lies between the union bound fpp (1 - r) (since 1 - prod(1 - x_i)
 * <= sum x_i = q / (1 - r)) and fpp; at fpp = 1 %, r = 0.5 it is 0.5017 %.
 * A non-scaling chain has one layer, at fpp_0 = fpp. docs/families.md,
 * "Scalable SBBF", has the derivation and the memory cost.
 *
 * add writes a key only if no layer may already hold it (newest layer
 * first): duplicates, and keys that are false positives of the chain, do not
 * consume capacity. A layer is full when its count reaches its capacity; the
 * next new key then appends a layer (BF_EFULL instead on a non-scaling
 * chain). So every layer but the newest holds exactly its capacity, and the
 * newest at least one key. A single-key lookup probes every layer (no
 * branch on an answer); batch lookups probe the newest layer first and each
 * older one only for the keys still undecided.
 *
 * Limits: capacity >= 1; fpp in (0, 1); expansion 1..BF_SCALABLE_MAX_EXPANSION;
 * ratio in (0, 1); at most BF_SCALABLE_MAX_LAYERS layers and
 * BF_SCALABLE_MAX_BYTES bitset bytes over the chain, and every layer within
 * the SBBF's own limit; a chain that cannot grow within them (or whose next
 * layer's capacity or target would overflow or underflow) refuses the key
 * with BF_ETOOBIG, nothing changed; so does one whose next layer costs more
 * bits per key than its growth guard allows (bf_scalable_set_growth_limit).
 *
 * Thread safety: as the SBBF's plain calls: contains calls (single, batch,
 * byte-string), get_info, get_layer and seed may run concurrently with each
 * other; add, set_seed, set_growth_limit, clear, write_layer and free need
 * exclusive access.
 */
typedef struct bf_scalable bf_scalable;

#define BF_SCALABLE_NONSCALING 1u /* flag: never grow; a full filter refuses
                                     adds with BF_EFULL */
#define BF_SCALABLE_DEFAULT_EXPANSION 2u
#define BF_SCALABLE_DEFAULT_RATIO 0.5
#define BF_SCALABLE_MAX_EXPANSION 32768u
#define BF_SCALABLE_MAX_LAYERS 64u
#define BF_SCALABLE_MAX_BYTES ((uint64_t)1 << 40) /* 1 TiB over all layers */

typedef struct bf_scalable_params {
    uint64_t capacity;  /* keys the first layer holds, >= 1 */
    double fpp;         /* compound target, in (0, 1) */
    unsigned expansion; /* layer growth factor 1..BF_SCALABLE_MAX_EXPANSION;
                           0 = default (2) */
    double ratio;       /* per-layer tightening in (0, 1); 0 = default (0.5) */
    unsigned flags;     /* BF_SCALABLE_NONSCALING; other bits: BF_EINVAL */
} bf_scalable_params;

/** A chain with one empty layer. BF_EINVAL for invalid parameters,
 *  BF_ETOOBIG if layer 0 exceeds a limit, BF_EKERNEL if BLOCKFILTER_KERNEL
 *  names an unusable kernel, BF_ENOMEM. */
BF_API int bf_scalable_new(bf_scalable **out, const bf_scalable_params *params);
BF_API void bf_scalable_free(bf_scalable *f);

/* Adds a key unless some layer may already hold it. *added (may be NULL):
 * true if the key was written (it counts toward capacity), false if it was
 * already (maybe) present and nothing changed. Grows the chain when the
 * newest layer is at capacity. BF_EFULL: non-scaling and full, nothing
 * changed. BF_ENOMEM / BF_ETOOBIG: the chain could not grow, nothing
 * changed. BF_EREADONLY on a view. */
BF_API int bf_scalable_insert_hash(bf_scalable *f, uint64_t hash, bool *added);
BF_API bool bf_scalable_contains_hash(const bf_scalable *f, uint64_t hash);
/* Batches: added[i] / out[i] are 0 or 1 (arrays may be NULL). add stops at
 * the first error; *done (may be NULL) = keys processed. Keys of one batch
 * are added in order, exactly as single adds would be (a repeat within the
 * batch is not added twice). contains returns the number of 1s. */
BF_API int bf_scalable_insert_hashes(bf_scalable *f, const uint64_t *hashes, size_t n,
                                  uint8_t *added, size_t *done);
BF_API size_t bf_scalable_contains_hashes(const bf_scalable *f, const uint64_t *hashes,
                                          size_t n, uint8_t *out);
/* Byte strings, XXH64 with the filter's seed (0 = Parquet's hash). */
BF_API int bf_scalable_insert(bf_scalable *f, const void *data, size_t len, bool *added);
BF_API bool bf_scalable_contains(const bf_scalable *f, const void *data, size_t len);
/** Keyed mode: only on an empty filter (no key added, every bit clear),
 *  BF_EINVAL otherwise; BF_EREADONLY on a view. */
BF_API int bf_scalable_set_seed(bf_scalable *f, uint64_t seed);
BF_API uint64_t bf_scalable_seed(const bf_scalable *f);
/** Growth guard: a new layer is appended only if its bitset costs at most
 *  max_bits_per_key bits per key of its capacity; the key that would need a
 *  costlier one is refused with BF_ETOOBIG, nothing changed (a long chain's
 *  tightened targets otherwise ask for ever more bits per key). Layers
 *  already there (layer 0, restored ones) are not checked. 0 = no guard,
 *  the default; BF_EINVAL if negative or NaN. A setting of the object, not
 *  of the stored chain: neither the native format nor bf_scalable_restore
 *  carries it. */
BF_API int bf_scalable_set_growth_limit(bf_scalable *f, double max_bits_per_key);
/** Back to one empty layer 0 (the seed is kept). BF_EREADONLY on a view. */
BF_API int bf_scalable_clear(bf_scalable *f);

typedef struct bf_scalable_stats {
    uint64_t capacity;   /* sum of the layers' capacities */
    uint64_t count;      /* keys added (adds that returned added = true) */
    uint64_t num_bytes;  /* bitset bytes over all layers */
    size_t num_layers;
    unsigned expansion;
    double fpp;          /* the requested compound target */
    double ratio;
    unsigned flags;
    double fill_ratio;   /* set bits / bits over all layers */
    double est_fpp;      /* FPR as the filter stands: 1 - prod(1 - exact FPR_now(layer)) */
    double bound_fpp;    /* compound model FPR if every layer were at capacity (<= fpp) */
} bf_scalable_stats;
/** O(bytes): counts the set bits of every layer. */
BF_API int bf_scalable_get_stats(const bf_scalable *f, bf_scalable_stats *out);

/* One layer, 0 = oldest. BF_EINVAL if i >= the number of layers. */
typedef struct bf_scalable_layer {
    uint64_t capacity;   /* keys it is sized for */
    uint64_t count;      /* keys added to it */
    double fpp;          /* its target */
    const bf_sbbf *sbbf; /* its bitset (owned by the chain; valid until the
                            chain is freed or cleared) */
} bf_scalable_layer;
BF_API int bf_scalable_get_layer(const bf_scalable *f, size_t i, bf_scalable_layer *out);

/* Rebuilding a stored chain (RDB load, chunked restore): a chain with the
 * given parameters, seed and layer descriptions (capacity, count, bitset
 * bytes each), every bitset zero. Validates that the layers are what the
 * parameters imply -> BF_ECORRUPT otherwise: 1..BF_SCALABLE_MAX_LAYERS
 * layers (exactly 1 if non-scaling); layer i's capacity exactly
 * capacity * expansion^i and its bytes what bf_scalable_new and growth
 * give for (capacity_i, fpp_i); every layer but the last exactly full
 * (count == capacity); the last with 1 <= count <= capacity (0 allowed
 * only when it is the only layer). Invalid parameters (or layers NULL):
 * BF_EINVAL. Then the bitsets are filled with bf_scalable_write_layer. */
typedef struct bf_scalable_layer_desc {
    uint64_t capacity;
    uint64_t count;
    uint64_t num_bytes;
} bf_scalable_layer_desc;
BF_API int bf_scalable_restore(bf_scalable **out, const bf_scalable_params *params,
                               uint64_t seed, const bf_scalable_layer_desc *layers,
                               size_t num_layers);
/* Copies len bytes into layer i's bitset at offset (bounds-checked:
 * BF_EINVAL outside the bitset or for a layer that does not exist;
 * BF_EREADONLY on a view). */
BF_API int bf_scalable_write_layer(bf_scalable *f, size_t i, uint64_t offset,
                                   const void *src, size_t len);

/* The scalable SBBF in the generic interface (family BF_FAMILY_SCALABLE). */
/** The chain under f, or NULL if f is of another family (f keeps it). */
BF_API bf_scalable *bf_filter_scalable(bf_filter *f);
/** Wraps a chain (e.g. one made with bf_scalable_new and other parameters,
 *  or rebuilt with bf_scalable_restore) in the generic interface. On BF_OK
 *  the bf_filter owns it (freed by bf_filter_free); on failure the caller
 *  keeps it. Read-only chains cannot be wrapped (BF_EREADONLY). The insert
 *  count starts at 0; saving raises it to the chain's count. */
BF_API int bf_filter_from_scalable(bf_filter **out, bf_scalable *chain);

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
