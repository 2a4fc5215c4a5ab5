/*
 * blockfilter advanced API: everything past the core (blockfilter.h, which
 * this header includes).
 *
 *  - SBBF kernel selection, concurrent inserts, Parquet-bytes files
 *  - the other families: classic Bloom, counting Bloom, cuckoo, and the
 *    scalable SBBF (a chain of SBBF layers)
 *  - one interface for every family (bf_filter), with sizing by family
 *  - the native portable file format
 *
 * These calls may change in any 0.x minor version, each change listed in
 * CHANGELOG.md (docs/headers.md). Define BF_COMPAT_0_2 before including to
 * get the 0.2 names that were renamed in 0.3 where an alias can stand in
 * for them (end of this file).
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef BLOCKFILTER_ADVANCED_H
#define BLOCKFILTER_ADVANCED_H

#include "blockfilter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* SBBF kernels                                                              */
/* ------------------------------------------------------------------------ */

/*
 * Every kernel produces the same bits and answers; a filter keeps the
 * kernel it was made with. The kernel class of each is part of the frozen
 * layout (BF_SBBF_KERNEL_* in blockfilter_inline.h).
 */

/** As bf_sbbf_new_bytes, with a named kernel ("scalar", "avx2", "avx512",
 *  "neon"); NULL picks the process default (BLOCKFILTER_KERNEL or CPUID). */
BF_API int bf_sbbf_new_bytes_kernel(bf_sbbf **out, size_t num_bytes,
                                    const char *kernel);
/** As bf_sbbf_view, with a named kernel. */
BF_API int bf_sbbf_view_kernel(bf_sbbf **out, const void *bitset,
                               size_t num_bytes, const char *kernel);
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

/*
 * Partitioned batches (docs/kernels.md). For a filter larger than the
 * caches, the batch calls (bf_sbbf_{insert,contains}_hashes, the typed and
 * byte-string batches, and bf_filter's for an SBBF) radix-partition the
 * batch by filter region and probe one cache-sized slice of the filter at
 * a time (every blocked shape too: bf_blocked_set_partitioning). Bits and answers are exactly those of the plain path, answers in
 * the caller's order. BF_PARTITION_AUTO (every filter's start): partition
 * counts and inserts when the filter and the batch are large enough to
 * gain (lookups writing out[] only when forced), unless the
 * environment variable BLOCKFILTER_PARTITION=on|off (read once per process)
 * says otherwise; ON and OFF force it for this filter. Partitioning needs
 * scratch memory (at most about the filter's size, 1.5 times for lookups
 * writing out[]); when it cannot be had the call takes the plain path, so
 * no call fails for want of it. The filter keeps one such block between
 * batches (so a batch does not fault in fresh pages) and frees it in
 * bf_sbbf_free and in bf_sbbf_set_partitioning (any mode: a way to give
 * it back early). Concurrent lookups stay safe: each batch takes the kept
 * block atomically or allocates its own.
 * Set the mode while no other thread uses the filter.
 */
enum { BF_PARTITION_AUTO = 0, BF_PARTITION_ON = 1, BF_PARTITION_OFF = 2 };
/** Sets f's partitioning mode. BF_EINVAL for a NULL filter or other mode. */
BF_API int bf_sbbf_set_partitioning(bf_sbbf *f, int mode);
/** f's partitioning mode (BF_PARTITION_AUTO unless set). */
BF_API int bf_sbbf_partitioning(const bf_sbbf *f);

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
/*
 * Cuckoo filter shapes: buckets of b slots (1..255) holding f-bit
 * fingerprints (4..32); slot s of bucket i is the f bits at bit offset
 * (i*b + s)*f of a little-endian bit array (docs/format.md). A bucket of
 * b*f <= 57 bits, or <= 64 bits starting on a byte, is tested with one
 * 64-bit load (b = 1 for every f; b = 2 up to f = 28 and 32; b = 4 up to
 * f = 14 and 16; b = 8 up to f = 8); larger ones with one load per k slots.
 * Semi-sorted buckets (Fan et al. 2014, section 5.2; b = 4, f = 5..17)
 * store each bucket's four low nibbles, sorted, as a 12-bit code: f - 1
 * bits per slot for the FPR of f (docs/families.md, "Cuckoo shapes").
 */
#define BF_CUCKOO_SEMISORTED 1u /* flag: semi-sorted buckets (b = 4, f = 5..17) */
#define BF_CUCKOO_MAX_BUCKET_SIZE 255u
#define BF_CUCKOO_MIN_FP_BITS 4u
#define BF_CUCKOO_MAX_FP_BITS 32u
/** n keys at false-positive rate fpp: the cheapest (b, f) in bits/key
 *  whose model FPR at its expected load meets fpp, over b in {1, 2, 4, 8}
 *  and f in 4..32 (docs/families.md). Same as
 *  bf_cuckoo_new_shape(out, n, fpp, 0, 0). */
BF_API int bf_cuckoo_new(bf_cuckoo **out, uint64_t n, double fpp);
/** n keys at false-positive rate fpp; bucket_size 1..255 and fp_bits 4..32, or 0 for "choose the cheapest
 *  (b, f) in bits/key that meets fpp at its expected load". */
BF_API int bf_cuckoo_new_shape(bf_cuckoo **out, uint64_t n, double fpp, unsigned bucket_size,
                               unsigned fp_bits);
/** num_buckets buckets of bucket_size (1..255) slots of fp_bits (4..32) bits; flags 0 or BF_CUCKOO_SEMISORTED. */
BF_API int bf_cuckoo_new_table(bf_cuckoo **out, uint64_t num_buckets, unsigned bucket_size,
                               unsigned fp_bits, unsigned flags);
/** num_buckets buckets of 4 slots with fp_bits (4..32) fingerprints. */
BF_API int bf_cuckoo_new_buckets(bf_cuckoo **out, uint64_t num_buckets,
                                 unsigned fp_bits);
/** What bf_cuckoo_new_shape / new_table would build for n keys at fpp:
 *  bucket_size and fp_bits as there (0 = cheapest), flags 0 or
 *  BF_CUCKOO_SEMISORTED (which fixes b = 4; f free or 5..17). */
typedef struct bf_cuckoo_sizing {
    uint64_t num_buckets;
    unsigned bucket_size, fp_bits, flags;
    uint64_t num_bytes;  /* table bytes (bf_cuckoo_table_bytes) */
    double bits_per_key; /* 8 * num_bytes / n */
    double load;         /* n / (num_buckets * bucket_size) */
    double model_fpp;    /* bf_cuckoo_model_fpp at that load */
} bf_cuckoo_sizing;
BF_API int bf_cuckoo_size_for(uint64_t n, double fpp, unsigned bucket_size, unsigned fp_bits,
                              unsigned flags, bf_cuckoo_sizing *out);
/** Model FPR of a table at load factor `load` (0..1): 1 - (1 - 1/(2^f - 1))^(2 b load) for this library's fingerprint rule. */
/*  NaN for a shape or load outside the limits. */
BF_API double bf_cuckoo_model_fpp(unsigned bucket_size, unsigned fp_bits, double load);
/** Expected load factor at which inserts first fail, for bucket size b with the default kick limit (from your measurements/literature; document the source). */
/*  Source: this library's own fill-to-failure runs (tables of 2^20 slots,
 *  16-bit fingerprints, medians of 3; docs/families.md, beside Fan et
 *  al.'s figures), linear between the sizes measured. Fingerprints much
 *  shorter than log2(table size) / b fill less far. NaN outside 1..255. */
BF_API double bf_cuckoo_model_load(unsigned bucket_size);
/** The same at a kick limit of 1..65535 (bf_cuckoo_set_max_kicks):
 *  bf_cuckoo_model_load scaled by the measured ratio of the load at the
 *  first failure at that limit to the load at 500 kicks (docs/families.md;
 *  limits above 500 are taken as 500). NaN outside the limits. */
BF_API double bf_cuckoo_model_load_kicks(unsigned bucket_size, unsigned max_kicks);
/** bf_cuckoo_size_for for a table that will insert with a kick limit of
 *  max_kicks (1..65535; 500 is bf_cuckoo_size_for): the design load is
 *  scaled as in bf_cuckoo_model_load_kicks, so a table sized for n takes
 *  n keys without a failed insert at that limit too. */
BF_API int bf_cuckoo_size_for_kicks(uint64_t n, double fpp, unsigned bucket_size,
                                    unsigned fp_bits, unsigned flags, unsigned max_kicks,
                                    bf_cuckoo_sizing *out);
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
BF_API unsigned bf_cuckoo_bucket_size(const bf_cuckoo *f);
/** 0 or BF_CUCKOO_SEMISORTED. */
BF_API unsigned bf_cuckoo_flags(const bf_cuckoo *f);
/** Stored fingerprints equal to the key's, in its two buckets and the
 *  victim slot (how many times it may have been inserted; at most 2b, the
 *  2b+1-th insert of a key returns BF_EFULL). */
BF_API unsigned bf_cuckoo_count_hash(const bf_cuckoo *f, uint64_t hash);
/** out[i] = 1 if hashes[i] may be present, else 0 (out may be NULL);
 *  returns the number of 1s. Prefetches the buckets of a group of keys
 *  before testing any, so large tables answer faster than key by key. */
BF_API size_t bf_cuckoo_contains_hashes(const bf_cuckoo *f, const uint64_t *hashes, size_t n,
                                        uint8_t *out);
/** Kick-out limit of inserts, 1..65535 (default 500); BF_EINVAL otherwise
 *  (BF_ENOMEM: see bf_cuckoo_set_full_policy). A lower limit trades load
 *  factor for worst-case insert time (bf_cuckoo_model_load_kicks). */
BF_API int bf_cuckoo_set_max_kicks(bf_cuckoo *f, unsigned kicks);
BF_API unsigned bf_cuckoo_max_kicks(const bf_cuckoo *f);
/* What an insert does when its kicks fail (docs/families.md):
 *  BF_CUCKOO_FULL_VICTIM (the default): the last evicted fingerprint goes
 *    into the one-entry victim slot; the insert succeeds, and from then on
 *    every insert returns BF_EFULL until a remove makes room. Most keys a
 *    table takes, but one unlucky kick path closes it at any load.
 *  BF_CUCKOO_FULL_ROLLBACK: the kicks are undone (the table is byte for
 *    byte as before the call), the insert returns BF_EFULL, and the filter
 *    stays open for other keys. The kick-out generator is rewound too:
 *    a refused insert changes nothing (bf_cuckoo_get_state included).
 * A behaviour, not part of the image: bf_filter_save and
 * bf_cuckoo_get_state do not keep it; set it again after loading. */
#define BF_CUCKOO_FULL_VICTIM 0u
#define BF_CUCKOO_FULL_ROLLBACK 1u
/** BF_OK; BF_EINVAL for another value; BF_ENOMEM if the kick path (8 bytes
 *  per kick of the limit, kept with the filter) cannot be allocated. */
BF_API int bf_cuckoo_set_full_policy(bf_cuckoo *f, unsigned policy);
BF_API unsigned bf_cuckoo_full_policy(const bf_cuckoo *f);
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
/** The table: bf_cuckoo_table_bytes() bytes, ceil(num_buckets * b * s / 8)
 *  with s = fp_bits (fp_bits - 1 semi-sorted); bits past the last slot 0. */
BF_API const void *bf_cuckoo_table(const bf_cuckoo *f);
BF_API uint64_t bf_cuckoo_table_bytes(const bf_cuckoo *f);
BF_API void bf_cuckoo_get_state(const bf_cuckoo *f, bf_cuckoo_state *out);
/** BF_ECORRUPT (nothing changed) if a field is out of range for this table. */
BF_API int bf_cuckoo_set_state(bf_cuckoo *f, const bf_cuckoo_state *s);
/** Copies len bytes into the table at offset; BF_EINVAL outside it. */
BF_API int bf_cuckoo_write_table(bf_cuckoo *f, uint64_t offset, const void *src,
                                 size_t len);

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

/* ------------------------------------------------------------------------ */
/* One interface for every family                                            */
/* ------------------------------------------------------------------------ */

/*
 * Every family supports every call below except remove (sbbf, bloom and
 * scalable: BF_EUNSUPPORTED) and merge (scalable: BF_EUNSUPPORTED). On a read-only filter (bf_filter_view,
 * bf_filter_map_file) every mutating call returns BF_EREADONLY, whether or
 * not the family supports it.
 *
 * The scalable family (a chain of SBBF layers, see "Scalable SBBF" above)
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
    BF_FAMILY_SCALABLE = 5,
    BF_FAMILY_BLOCKED = 6
} bf_family;

/** "sbbf", "bloom", "counting", "cuckoo", "scalable", "blocked"; NULL for an unknown
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
    unsigned bucket_size; /* cuckoo slots per bucket; 0 otherwise */
    /* blocked: the shape (k above); 0 for the other families */
    unsigned block_bits, sectors, groups;
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
    unsigned bucket_size;    /* cuckoo slots per bucket; else 0 */
    /* blocked: the shape (k above); 0 for the other families */
    unsigned block_bits, sectors, groups;
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
 * strings as the bf_sbbf_* forms of blockfilter.h take them, hashed with
 * the filter's seed (XXH64 of each value's little-endian bytes, or of the
 * string), a chunk at a time, through bf_filter_insert_hashes /
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
/** dst |= src (sbbf, bloom; counting adds counters, saturating; cuckoo
 *  adds src's fingerprints to dst, a multiset union, BF_EFULL with dst
 *  unchanged if they do not fit). Scalable: BF_EUNSUPPORTED. Same family,
 *  size (cuckoo: shape) and seed required (BF_EMISMATCH). */
BF_API int bf_filter_merge(bf_filter *dst, const bf_filter *src);
BF_API int bf_filter_clear(bf_filter *f);

/* The family object under a bf_filter, and a bf_filter around one. */
/** The underlying family object, or NULL if f is of another family. The
 *  bf_filter keeps ownership. The family object owns the seed, so its own
 *  byte-string calls hash as bf_filter_insert does; it is read-only when f
 *  is. */
BF_API bf_sbbf *bf_filter_sbbf(bf_filter *f);
BF_API bf_bloom *bf_filter_bloom(bf_filter *f);
BF_API bf_counting *bf_filter_counting(bf_filter *f);
BF_API bf_cuckoo *bf_filter_cuckoo(bf_filter *f);
BF_API bf_scalable *bf_filter_scalable(bf_filter *f);
/** Wraps an SBBF (e.g. one read from Parquet with bf_sbbf_from_parquet) in
 *  the generic interface, to save it in the native format. On BF_OK the
 *  bf_filter owns sbbf (freed by bf_filter_free); on failure the caller
 *  keeps it. Read-only views cannot be wrapped (BF_EREADONLY). The insert
 *  count starts at 0; saving raises it to the least the bits imply. */
BF_API int bf_filter_from_sbbf(bf_filter **out, bf_sbbf *sbbf);
/** Wraps a chain (e.g. one made with bf_scalable_new and other parameters,
 *  or rebuilt with bf_scalable_restore) in the generic interface. On BF_OK
 *  the bf_filter owns it (freed by bf_filter_free); on failure the caller
 *  keeps it. Read-only chains cannot be wrapped (BF_EREADONLY). The insert
 *  count starts at 0; saving raises it to the chain's count. */
BF_API int bf_filter_from_scalable(bf_filter **out, bf_scalable *chain);
/** Wraps a cuckoo filter (e.g. one of a shape chosen with
 *  bf_cuckoo_new_table), as bf_filter_from_sbbf does. */
BF_API int bf_filter_from_cuckoo(bf_filter **out, bf_cuckoo *cuckoo);

/* ------------------------------------------------------------------------ */
/* Native format and files                                                   */
/* ------------------------------------------------------------------------ */

/*
 * Native portable format (every family): a 64-byte header, then the
 * family's payload; byte order independent. Specified in docs/format.md,
 * with what loading checks.
 */
/* The newest version this library reads and writes. A filter is saved in
 * the lowest version that can express it (version 2 for the blocked family
 * and for cuckoo shapes version 1 lacks), so older readers keep reading
 * the rest (docs/format.md). */
#define BF_FORMAT_VERSION 2u
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
/* Blocked filters: the whole blocked design space                           */
/* ------------------------------------------------------------------------ */

/*
 * One family for every blocked Bloom filter (docs/families.md, "Blocked
 * filters"). A shape is (B, S, z, k):
 *  - block_bits B in {32, 64, 128, 256, 512}: a key touches one block;
 *  - sectors S: 1 (the block is one sector), or S > 1 dividing B into
 *    sectors of 32 or 64 bits;
 *  - groups z dividing S: z groups of S/z adjacent sectors;
 *  - k, a multiple of z, at most 32: a key sets k/z bits in one sector of
 *    each group.
 * S = 1 is plain blocked (k bits anywhere in the block; register-blocked
 * when B <= 64), z = S sectorized, 1 <= z < S cache-sectorized. The SBBF
 * is the shape (256, 8, 8, 8): a blocked filter of that shape has the
 * SBBF's bits. A shape that breaks a rule is refused with BF_ESHAPE.
 *
 * Thread safety, views and the byte-string seed are as the SBBF's: contains
 * calls may run concurrently; inserts, merge, clear, set_seed and
 * set_partitioning need exclusive access; a blocked filter from a
 * bf_filter view is read-only (every mutating call: BF_EREADONLY).
 */
typedef struct bf_blocked bf_blocked;
typedef struct bf_blocked_shape {
    unsigned block_bits, sectors, groups, k;
} bf_blocked_shape;
/** Largest filter: 2^37 bytes (as the SBBF). */
#define BF_BLOCKED_MAX_BYTES ((uint64_t)1 << 37)

/** BF_OK, or BF_ESHAPE (s NULL or breaking a rule). */
BF_API int bf_blocked_shape_check(const bf_blocked_shape *s);
/** A static text naming the rule s breaks, or NULL if s is valid. */
BF_API const char *bf_blocked_shape_rule(const bf_blocked_shape *s);
/** n keys at fpp: the fewest blocks whose exact model FPR is <= fpp.
 *  BF_ESHAPE, BF_EINVAL (fpp), BF_ETOOBIG, BF_ENOMEM. */
BF_API int bf_blocked_new(bf_blocked **out, uint64_t n, double fpp, const bf_blocked_shape *s);
/** A filter of `bytes` bytes, a multiple of the block's (B/8) from one
 *  block to BF_BLOCKED_MAX_BYTES (BF_EINVAL / BF_ETOOBIG otherwise). */
BF_API int bf_blocked_new_bytes(bf_blocked **out, uint64_t bytes, const bf_blocked_shape *s);
BF_API void bf_blocked_free(bf_blocked *f);
/** BF_OK, or BF_EREADONLY (a view). f must not be NULL. */
BF_API int bf_blocked_insert_hash(bf_blocked *f, uint64_t hash);
BF_API bool bf_blocked_contains_hash(const bf_blocked *f, uint64_t hash);
/** BF_OK, BF_EREADONLY, or BF_EINVAL (f NULL, or h NULL with n > 0). */
BF_API int bf_blocked_insert_hashes(bf_blocked *f, const uint64_t *h, size_t n);
/** out[i] = 1 if h[i] may be present (out may be NULL); returns the 1s. */
BF_API size_t bf_blocked_contains_hashes(const bf_blocked *f, const uint64_t *h, size_t n,
                                         uint8_t *out);
/** Byte strings and typed keys, hashed as the SBBF's calls hash them
 *  (XXH64 with the filter's seed), with the SBBF's answers and errors. */
BF_API int bf_blocked_insert(bf_blocked *f, const void *data, size_t len);
BF_API bool bf_blocked_contains(const bf_blocked *f, const void *data, size_t len);
BF_API int bf_blocked_insert_int32s(bf_blocked *f, const int32_t *values, size_t n);
BF_API int bf_blocked_insert_int64s(bf_blocked *f, const int64_t *values, size_t n);
BF_API size_t bf_blocked_contains_int32s(const bf_blocked *f, const int32_t *values, size_t n,
                                         uint8_t *out);
BF_API size_t bf_blocked_contains_int64s(const bf_blocked *f, const int64_t *values, size_t n,
                                         uint8_t *out);
BF_API int bf_blocked_insert_binary(bf_blocked *f, const void *data, const int32_t *offsets,
                                    size_t n);
BF_API int bf_blocked_contains_binary(const bf_blocked *f, const void *data,
                                      const int32_t *offsets, size_t n, uint8_t *out,
                                      size_t *found);
BF_API void bf_blocked_get_shape(const bf_blocked *f, bf_blocked_shape *out);
BF_API uint64_t bf_blocked_num_blocks(const bf_blocked *f);
BF_API uint64_t bf_blocked_num_bytes(const bf_blocked *f);
BF_API const void *bf_blocked_bitset(const bf_blocked *f);
BF_API bool bf_blocked_is_readonly(const bf_blocked *f);
/** Keyed mode: only on an empty filter (BF_EINVAL otherwise). */
BF_API int bf_blocked_set_seed(bf_blocked *f, uint64_t seed);
BF_API uint64_t bf_blocked_seed(const bf_blocked *f);
/** Partitioned batches for every shape, as the SBBF's (its modes, its
 *  automatic rule, BLOCKFILTER_PARTITION; see bf_sbbf_set_partitioning):
 *  the hash, typed and byte-string batches, and bf_filter's. BF_EINVAL for
 *  a NULL filter or another mode. */
BF_API int bf_blocked_set_partitioning(bf_blocked *f, int mode);
/** f's partitioning mode (BF_PARTITION_AUTO unless set). */
BF_API int bf_blocked_partitioning(const bf_blocked *f);
/** dst |= src: same shape, size and seed (BF_EMISMATCH), dst writable. */
BF_API int bf_blocked_merge(bf_blocked *dst, const bf_blocked *src);
BF_API int bf_blocked_clear(bf_blocked *f);
/** Exact model FPR of the shape at bits_per_key bits per key (a Poisson
 *  load over blocks, then per group and sector; docs/families.md). NAN
 *  for an invalid shape or bits_per_key <= 0. */
BF_API double bf_blocked_model_fpp(const bf_blocked_shape *s, double bits_per_key);
/** The same model for num_blocks blocks holding n keys. */
BF_API double bf_blocked_model_fpp_blocks(const bf_blocked_shape *s, uint64_t num_blocks,
                                          uint64_t n);
/** Bytes of the fewest blocks whose model FPR at n keys is <= fpp. */
BF_API int bf_blocked_bits_for(const bf_blocked_shape *s, uint64_t n, double fpp,
                               uint64_t *bytes_out);
/** The shape bf_filter_new(BF_FAMILY_BLOCKED, n, fpp) uses: the layout
 *  (512, 8, 2) (one cache line, 64-bit sectors, two groups) with the even
 *  k in 2..16 that needs the fewest bytes for (n, fpp). */
BF_API int bf_blocked_default_shape(uint64_t n, double fpp, bf_blocked_shape *out);

/** A bf_filter of the blocked family with the given shape. */
BF_API int bf_filter_new_blocked(bf_filter **out, uint64_t n, double fpp,
                                 const bf_blocked_shape *s);
/** The blocked filter under f, or NULL for another family. */
BF_API bf_blocked *bf_filter_blocked(bf_filter *f);
/** Wraps a writable blocked filter (ownership as bf_filter_from_sbbf). */
BF_API int bf_filter_from_blocked(bf_filter **out, bf_blocked *f);

/* ------------------------------------------------------------------------ */
/* Choosing a layout for a job: cost tables and the chooser                  */
/* ------------------------------------------------------------------------ */

/*
 * Performance-optimal filtering (Lang, Neumann, Kemper and Boncz, VLDB
 * 2019): for a job of n keys, a memory budget or a target FPR, the work a
 * negative answer saves (T ns) and the share of lookups whose key is absent
 * (F), the best layout is the one that minimises the expected cost of a
 * lookup, lookup_ns + F * FPR * T. docs/chooser.md has the details.
 *
 * The candidates are the layouts this build has (the SBBF, the cuckoo
 * shapes, and the blocked family's shapes),
 * each named by a short text: "sbbf", "cuckoo-b4-f12", "blocked-512-8-2-k8"
 * (block bits, sectors, groups, k). FPRs come from each family's exact
 * model; lookup times from a cost table: batch lookup ns per key of each
 * candidate at a few filter sizes, measured on this machine
 * (bf_calibrate) or taken from benchmark results (bf_cost_table_add), and
 * interpolated in log(bytes) between the sizes measured.
 */
typedef struct bf_cost_table bf_cost_table;

/** Number of candidate layouts in this build, and the name of candidate i
 *  (NULL past the end). */
BF_API size_t bf_candidate_count(void);
BF_API const char *bf_candidate_name(size_t i);

/** A short description of this machine (CPU model, the SBBF kernel new
 *  filters get, the library version): what a cost table is valid for. At
 *  most cap - 1 characters and a NUL; BF_EINVAL for buf NULL or cap 0. */
BF_API int bf_machine_name(char *buf, size_t cap);

/** An empty table for this machine, to fill with bf_cost_table_add. */
BF_API int bf_cost_table_new(bf_cost_table **out);
/** Measures every candidate's batch lookups at a few filter sizes (from
 *  L1-sized to past the last-level cache) within max_seconds (0.5 .. 600)
 *  of wall time; a size class the time cannot finish is left out whole,
 *  except the smallest, which is always measured (on a slow build or a
 *  crowded machine it may overrun the time). BF_EINVAL or BF_ENOMEM. */
BF_API int bf_calibrate(bf_cost_table **out, double max_seconds);
/** Adds (or replaces) the lookup time of a candidate at a filter size:
 *  name as bf_candidate_name gives it (names of other builds are kept and
 *  ignored), bytes 1 .. 2^48, lookup_ns finite in (0, 10^9). BF_EINVAL
 *  otherwise; BF_ETOOBIG past BF_COST_TABLE_MAX_ROWS rows. */
#define BF_COST_TABLE_MAX_ROWS 4096u
BF_API int bf_cost_table_add(bf_cost_table *t, const char *name, uint64_t bytes,
                             double lookup_ns);
/** The interpolated lookup ns of a candidate at bytes, or NaN if the table
 *  has no row for it. */
BF_API double bf_cost_table_lookup_ns(const bf_cost_table *t, const char *name,
                                      uint64_t bytes);
/** The machine the table was measured on (bf_machine_name then). */
BF_API const char *bf_cost_table_machine(const bf_cost_table *t);
BF_API size_t bf_cost_table_rows(const bf_cost_table *t);
/** Row i (< bf_cost_table_rows) as measured: BF_OK, or BF_EINVAL past the
 *  end (nothing written). name stays valid while the table is unchanged. */
BF_API int bf_cost_table_row(const bf_cost_table *t, size_t i, const char **name,
                             uint64_t *bytes, double *lookup_ns);
/** Text file (docs/chooser.md), saved atomically as bf_filter_save_file
 *  saves. Loading checks every line: BF_EFORMAT (not a cost table),
 *  BF_EVERSION, BF_ECORRUPT (a bad line), BF_ETRUNCATED (no end line),
 *  BF_ETOOBIG (over 1 MiB), BF_EIO (errno set). */
BF_API int bf_cost_table_save(const bf_cost_table *t, const char *path);
BF_API int bf_cost_table_load(bf_cost_table **out, const char *path);
BF_API void bf_cost_table_free(bf_cost_table *t);

/** A job: n keys (>= 1); at most one bound, the other 0: fpp (in (0, 1):
 *  the model FPR at n keys must not exceed it) or bytes (> 0: the filter
 *  must not exceed them); neither: any size from 2 to 64 bits per key.
 *  work_ns >= 0, the work a negative answer saves; negatives in [0, 1], the
 *  share of lookups whose key is absent. Each candidate gets the size
 *  within the bound with the least expected cost: its tightest size for
 *  the bound (the fewest bytes that meet fpp; all of the budget it can
 *  use), the sizes of 2^(j/2) bits per key (2 to 64) that keep to it, then
 *  2^(+-1/4) and 2^(+-1/8) around the best. */
typedef struct bf_job {
    uint64_t n;
    double fpp;
    uint64_t bytes;
    double work_ns;
    double negatives;
} bf_job;

#define BF_CHOICE_EXTRAPOLATED 1u /* flag: the filter is larger than the
                                     largest size the table measured */
typedef struct bf_choice {
    char name[32];          /* candidate name (bf_candidate_name) */
    bf_family family;       /* BF_FAMILY_SBBF, _CUCKOO or _BLOCKED */
    unsigned block_bits, sectors, groups, k; /* Bloom layouts (SBBF: 256 8 8 8) */
    unsigned bucket_size, fp_bits;           /* cuckoo shapes */
    uint64_t bytes;         /* filter bytes */
    double bits_per_key;    /* 8 bytes / n */
    double model_fpp;       /* the family's model FPR at n keys */
    double lookup_ns;       /* from the cost table */
    double expected_ns;     /* lookup_ns + negatives * model_fpp * work_ns */
    int status;             /* BF_OK: ranked; else why it was left out:
                               BF_ETOOBIG (no size of it keeps to the
                               bound), BF_ENOTFOUND (no lookup time in the
                               table) */
    unsigned flags;         /* BF_CHOICE_EXTRAPOLATED */
    char why[96];           /* one line: why it won, lost, or was left out */
} bf_choice;

/** Ranks every candidate for the job: out[0] is the one with the least
 *  expected cost, then the runners-up by expected cost (ties: fewer bytes,
 *  then candidate order), then the ones left out. Writes at most max_out
 *  entries; *n_out (may be NULL) = entries written. BF_OK if some
 *  candidate fits; BF_ETOOBIG if none does (out still explains each);
 *  BF_EINVAL for a bad job, t or out NULL. */
BF_API int bf_choose(const bf_cost_table *t, const bf_job *job, bf_choice *out,
                     size_t max_out, size_t *n_out);

/** Builds each choice's filter (c->bytes), inserts n keys (random 64-bit
 *  hashes) and measures: batch insert and lookup ns per key (medians over
 *  chunks of 2^16 keys), FPR over `absent` other random hashes (the same
 *  for every choice), and false negatives (always 0 for a correct filter).
 *  The filters are built one after another and kept; the absent lookups go
 *  round them in up to 5 rounds (fewer under 2^20 absent keys), so a slow
 *  spell of a shared machine falls on every choice alike. lookup_ns_lo and
 *  _hi are the lowest and highest median of one round's visit: how far the
 *  machine moved while measuring. count is 1 .. BF_MEASURE_MAX; all the
 *  filters are in memory at once. out[i].status is BF_OK, BF_ENOTFOUND
 *  (not a candidate of this build), BF_EFULL (a cuckoo table cannot take
 *  the n keys) or BF_ENOMEM; the call returns the first choice's error that
 *  is not BF_OK (the others are still measured), or BF_EINVAL. */
#define BF_MEASURE_MAX 8u
typedef struct bf_measurement {
    double insert_ns, lookup_ns, fpr;
    uint64_t false_positives, absent, false_negatives;
    double lookup_ns_lo, lookup_ns_hi; /* (since 0.3.1) */
    unsigned rounds;                   /* (since 0.3.1) */
    int status;                        /* (since 0.3.1) */
} bf_measurement;
BF_API int bf_choices_measure(const bf_choice *c, size_t count, uint64_t n, uint64_t absent,
                              bf_measurement *out);
/** bf_choices_measure for one choice. */
BF_API int bf_choice_measure(const bf_choice *c, uint64_t n, uint64_t absent,
                             bf_measurement *out);

#ifdef __cplusplus
}
#endif

/* ------------------------------------------------------------------------ */
/* 0.2 names (opt-in)                                                        */
/* ------------------------------------------------------------------------ */

/* With BF_COMPAT_0_2 defined, the 0.2 spellings of calls renamed in 0.3
 * without a change of meaning or signature. Not covered (CHANGELOG.md has
 * the table): bf_filter_stats(), whose name is now the stats type;
 * bf_sbbf_from_parquet()'s three-argument form; the est_ndv fields. */
#if defined(BF_COMPAT_0_2)
#define bf_sbbf_from_parquet_ex bf_sbbf_from_parquet
#define bf_bloom_new_mk bf_bloom_new_bits
#define bf_counting_new_mk bf_counting_new_counters
#define bf_scalable_add_hash bf_scalable_insert_hash
#define bf_scalable_add_hashes bf_scalable_insert_hashes
#define bf_scalable_add bf_scalable_insert
#define bf_scalable_get_info bf_scalable_get_stats
typedef bf_scalable_stats bf_scalable_info;
typedef bf_filter_stats bf_stats;
#endif

#endif /* BLOCKFILTER_ADVANCED_H */
