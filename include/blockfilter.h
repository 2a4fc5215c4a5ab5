/*
 * blockfilter — approximate-membership filters with a Parquet-exact,
 * SIMD-accelerated split-block Bloom filter (SBBF) at its core.
 *
 * This is the core header: what an engine needs to build, query, size,
 * save and load Parquet-compatible SBBFs. C11, and usable from C++.
 * docs/headers.md says what each header promises across versions.
 *
 *   blockfilter.h           this file: the stable core
 *   blockfilter_inline.h    included at the end of this file: the frozen
 *                           bf_sbbf_layout, the SBBF's primitives (salts,
 *                           block index, probe and set, fixed-width XXH64)
 *                           and the inline single-key paths
 *   blockfilter_advanced.h  kernel selection, concurrent inserts, the other
 *                           families (Bloom, counting, cuckoo, scalable),
 *                           the generic bf_filter interface, the native
 *                           format and files
 *   blockfilter_parquet.h   the Parquet-file reader and row-group pruner
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

#define BF_VERSION_MAJOR 0
#define BF_VERSION_MINOR 3
#define BF_VERSION_PATCH 0
#define BF_VERSION_NUMBER \
    (BF_VERSION_MAJOR * 10000 + BF_VERSION_MINOR * 100 + BF_VERSION_PATCH)
#define BF_VERSION_STRING "0.3.0"

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
    BF_ENOCOLUMN = -19,   /* no column of that name or index */
    BF_ESHAPE = -20       /* a filter shape breaks a rule
                             (bf_blocked_shape_rule names it) */
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
/* The fixed-length forms of these (bf_xxh64_u32 / bf_xxh64_u64, inline,
 * with a seed) are in blockfilter_inline.h, included at the end. */

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
/* Its first bytes are public (bf_sbbf_layout in blockfilter_inline.h) so
 * that the single-key calls can be inlined into the caller. */

/* Creating, sizing. */
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

/* Single keys and hash batches. */
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
 * Typed batches. Keys in, answers out: many keys per call, hashed inside the batch pipeline
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

/* Merging, clearing, seeds, views, statistics. */
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

/* Parquet bytes: Thrift-compact BloomFilterHeader + bitset, as a Parquet
 * file stores a column chunk's filter. */
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

/* Also for the SBBF, in blockfilter_advanced.h: kernel selection
 * (bf_sbbf_new_bytes_kernel, bf_sbbf_view_kernel, bf_sbbf_kernel*),
 * concurrent inserts (bf_sbbf_*_concurrent), and files
 * (bf_sbbf_save_parquet_file). */

#ifdef __cplusplus
}
#endif

/* The frozen layout, the primitives and the inline single-key paths
 * (BF_NO_INLINE turns the paths off, not the primitives). */
#include "blockfilter_inline.h"

#endif /* BLOCKFILTER_H */
