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
#define BF_VERSION_MINOR 1
#define BF_VERSION_PATCH 0
#define BF_VERSION_NUMBER \
    (BF_VERSION_MAJOR * 10000 + BF_VERSION_MINOR * 100 + BF_VERSION_PATCH)
#define BF_VERSION_STRING "0.1.0"

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

BF_API void bf_sbbf_insert_hash(bf_sbbf *f, uint64_t hash);
BF_API bool bf_sbbf_contains_hash(const bf_sbbf *f, uint64_t hash);
BF_API void bf_sbbf_insert_hashes(bf_sbbf *f, const uint64_t *hashes, size_t n);
/** out[i] = 1 if hashes[i] may be present, else 0; returns the number of 1s.
 *  out may be NULL to only count. */
BF_API size_t bf_sbbf_contains_hashes(const bf_sbbf *f, const uint64_t *hashes,
                                      size_t n, uint8_t *out);

/* Byte strings, hashed with XXH64 and the filter's seed (0 = Parquet). */
BF_API void bf_sbbf_insert(bf_sbbf *f, const void *data, size_t len);
BF_API bool bf_sbbf_contains(const bf_sbbf *f, const void *data, size_t len);
/* Parquet physical types, hashed exactly as Parquet does (seed 0 only; on a
 * keyed filter they use the filter's seed over the same bytes). */
BF_API void bf_sbbf_insert_int32(bf_sbbf *f, int32_t v);
BF_API void bf_sbbf_insert_int64(bf_sbbf *f, int64_t v);
BF_API void bf_sbbf_insert_float(bf_sbbf *f, float v);
BF_API void bf_sbbf_insert_double(bf_sbbf *f, double v);
BF_API bool bf_sbbf_contains_int32(const bf_sbbf *f, int32_t v);
BF_API bool bf_sbbf_contains_int64(const bf_sbbf *f, int64_t v);
BF_API bool bf_sbbf_contains_float(const bf_sbbf *f, float v);
BF_API bool bf_sbbf_contains_double(const bf_sbbf *f, double v);

/*
 * Concurrent inserts. Any number of threads may call the _concurrent insert
 * and contains functions on one filter at the same time (atomic OR, no
 * locks). Guarantee: once bf_sbbf_insert_hash_concurrent(f, h) has returned
 * in thread A, every bf_sbbf_contains_hash_concurrent(f, h) that happens
 * after it (ordered by any synchronisation, e.g. a mutex, a join, or an
 * acquire load of a flag A released) returns true. Plain contains/insert
 * calls must not overlap concurrent inserts; plain contains calls may run
 * concurrently with each other.
 */
BF_API void bf_sbbf_insert_hash_concurrent(bf_sbbf *f, uint64_t hash);
BF_API void bf_sbbf_insert_hashes_concurrent(bf_sbbf *f, const uint64_t *hashes,
                                             size_t n);
BF_API bool bf_sbbf_contains_hash_concurrent(const bf_sbbf *f, uint64_t hash);

/** dst |= src. Both must have the same size and seed. */
BF_API int bf_sbbf_merge(bf_sbbf *dst, const bf_sbbf *src);
/** Clear every bit. */
BF_API int bf_sbbf_clear(bf_sbbf *f);

BF_API size_t bf_sbbf_num_bytes(const bf_sbbf *f);
/** The bitset in Parquet's byte layout (num_bytes bytes). */
BF_API const void *bf_sbbf_bitset(const bf_sbbf *f);

/** Keyed mode: byte-string conveniences hash with this seed. Allowed only on
 *  an empty, writable filter (BF_EINVAL otherwise), so no key is lost. */
BF_API int bf_sbbf_set_seed(bf_sbbf *f, uint64_t seed);
BF_API uint64_t bf_sbbf_seed(const bf_sbbf *f);

/** A read-only view over caller memory (a Parquet bitset, any alignment).
 *  No copy: the caller keeps buf alive and unchanged until bf_sbbf_free().
 *  Inserts on a view do nothing; merge/clear/set_seed return BF_EREADONLY. */
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
BF_API void bf_bloom_insert_hash(bf_bloom *f, uint64_t hash);
BF_API bool bf_bloom_contains_hash(const bf_bloom *f, uint64_t hash);
BF_API void bf_bloom_insert_hash_concurrent(bf_bloom *f, uint64_t hash);
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
BF_API void bf_counting_insert_hash(bf_counting *f, uint64_t hash);
/** BF_OK, or BF_ENOTFOUND (nothing changed) if the key is absent. */
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
/** BF_OK, or BF_EFULL: the key was not stored; every earlier key still is. */
BF_API int bf_cuckoo_insert_hash(bf_cuckoo *f, uint64_t hash);
BF_API bool bf_cuckoo_contains_hash(const bf_cuckoo *f, uint64_t hash);
/** BF_OK, or BF_ENOTFOUND (nothing changed). */
BF_API int bf_cuckoo_remove_hash(bf_cuckoo *f, uint64_t hash);
/** Fingerprints stored. */
BF_API uint64_t bf_cuckoo_count(const bf_cuckoo *f);
BF_API uint64_t bf_cuckoo_num_buckets(const bf_cuckoo *f);
BF_API unsigned bf_cuckoo_fingerprint_bits(const bf_cuckoo *f);

/* ------------------------------------------------------------------------ */
/* One interface for every family                                            */
/* ------------------------------------------------------------------------ */

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
/** Byte strings hashed with XXH64 and the filter's seed. */
BF_API int bf_filter_insert(bf_filter *f, const void *data, size_t len);
BF_API bool bf_filter_contains(const bf_filter *f, const void *data, size_t len);
BF_API int bf_filter_remove(bf_filter *f, const void *data, size_t len);
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
 * Native portable format (every family): a 64-byte little-endian header
 * (magic "BFLT", format version, family, flags, seed, parameters, payload
 * length, XXH64 checksums) followed by the payload. See docs/format.md.
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

#ifdef __cplusplus
}
#endif

#endif /* BLOCKFILTER_H */
