/*
 * The value of a CF key: a chain of cuckoo filters, RedisBloom's CF with
 * EXPANSION (a full chain grows by a sub-filter `expansion` times larger
 * than the last; expansion 0 never grows), and its dump format. No Redis
 * API here, so it is unit-tested and fuzzed on its own.
 *
 * Why the chain lives in the module and not in the library: its rules are
 * RedisBloom's command semantics (where an add goes, which copy a delete
 * removes, the sub-filter limit), not a filter design with its own
 * guarantee. Each sub-filter keeps the per-filter FPR target, so the chain's
 * FPR grows with its length (about the sum of the sub-filters' FPRs), as in
 * RedisBloom; the scalable SBBF, whose layers tighten their targets so the
 * compound FPR stays bounded, is the library's growing filter.
 */
#ifndef BF_REDIS_CF_CHAIN_H
#define BF_REDIS_CF_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <blockfilter.h>
#include <blockfilter_advanced.h>

#include "dump.h"

#define BFM_CF_MAX_FILTERS 65536u
#define BFM_CF_MAX_EXPANSION 32768u
#define BFM_CF_MAX_BUCKET_SIZE 255u /* RedisBloom's BUCKETSIZE limit */
#define BFM_CF_MAX_TOTAL_BYTES ((uint64_t)1 << 42)

typedef struct bfm_cf {
    bf_cuckoo **f;      /* sub-filters, oldest first */
    uint32_t n;         /* sub-filters in use */
    uint32_t slots;     /* entries allocated in f */
    uint64_t capacity;  /* items the first sub-filter is sized for */
    double fpp;         /* FPR target of each sub-filter */
    uint32_t bucket_size; /* slots per bucket of every sub-filter (BUCKETSIZE) */
    uint32_t expansion; /* growth factor; 0 = never grow */
    uint32_t max_kicks; /* kick-out limit of inserts (MAXITERATIONS) */
    uint64_t seed;      /* XXH64 seed of items */
    uint64_t deletes;   /* successful deletes */
} bfm_cf;

typedef enum {
    BFM_CF_INSERTED,
    BFM_CF_EXISTS,  /* insert-if-absent found the item */
    BFM_CF_NOSPACE, /* expansion 0 and full */
    BFM_CF_NOMEM    /* the chain could not grow */
} bfm_cf_insert_status;

/* BF_EINVAL for an argument out of range, or an fpp that no fingerprint of
 * at most 32 bits meets at this bucket size (bfm_cf_fp_bits). */
int bfm_cf_new(bfm_cf **out, uint64_t capacity, double fpp, unsigned bucket_size,
               unsigned expansion, unsigned max_kicks, uint64_t seed);
void bfm_cf_free(bfm_cf *c);

/* Fingerprint bits of every sub-filter with buckets of bucket_size slots and
 * FPR target fpp: the fewest (4..32) whose FPR at full load,
 * bf_cuckoo_model_fpp(bucket_size, f, 1) ~ 2 * bucket_size / 2^f, is at most
 * fpp, so the target holds however full a sub-filter gets. 0 if none does. */
unsigned bfm_cf_fp_bits(unsigned bucket_size, double fpp);

static inline uint64_t bfm_cf_hash(const bfm_cf *c, const void *data, size_t len) {
    return bf_hash_xxh64_seeded(data, len, c->seed);
}
/* nx: insert only if no sub-filter may hold the item. The chain grows only
 * while it has fewer than max_filters sub-filters (the module's
 * CF_MAX_EXPANSIONS), so one call with many items cannot build thousands of
 * sub-filters (BFM_CF_NOSPACE once that many are full). */
bfm_cf_insert_status bfm_cf_insert_upto(bfm_cf *c, uint64_t hash, bool nx, uint32_t max_filters);
static inline bfm_cf_insert_status bfm_cf_insert(bfm_cf *c, uint64_t hash, bool nx) {
    return bfm_cf_insert_upto(c, hash, nx, BFM_CF_MAX_FILTERS);
}
bool bfm_cf_contains(const bfm_cf *c, uint64_t hash);
/* out[i] = whether hashes[i] may be present in some sub-filter (batch
 * lookups, newest sub-filter first, then the keys still undecided). */
void bfm_cf_contains_hashes(const bfm_cf *c, const uint64_t *hashes, size_t n, uint8_t *out);
/* Copies of the item's fingerprint over every sub-filter. */
uint64_t bfm_cf_count(const bfm_cf *c, uint64_t hash);
/* Removes one copy, from the newest sub-filter that has one. */
bool bfm_cf_delete(bfm_cf *c, uint64_t hash);
/* Frees the newest sub-filters that hold nothing (after deletes), never
 * the first; returns how many. Adds already try the newest sub-filter and
 * then older ones, so the chain answers as before and grows again to the
 * same sizes. Fingerprints are not moved between sub-filters: a key's two
 * buckets in one say nothing about its buckets in another. */
uint32_t bfm_cf_compact(bfm_cf *c);

uint64_t bfm_cf_items(const bfm_cf *c);       /* fingerprints stored */
uint64_t bfm_cf_slots(const bfm_cf *c);       /* slots over all sub-filters */
uint64_t bfm_cf_total_bytes(const bfm_cf *c); /* table bytes over all sub-filters */
size_t bfm_cf_mem_usage(const bfm_cf *c);
/* FPR of the chain as it stands, from each sub-filter's load. */
double bfm_cf_est_fpp(const bfm_cf *c);

/* Header v2 (little-endian):
 *   0  "CFCH"   4 u8 version (2)   5 u8 reserved (0)   6 u16 reserved (0)
 *   8  u32 expansion   12 u32 max kicks   16 u32 sub-filters N
 *  20  u32 bucket size (1..255)
 *  24  f64 FPR target  32 u64 capacity   40 u64 seed   48 u64 deletes
 *  56  N x {u64 buckets, u32 fingerprint bits, u32 victim fingerprint,
 *           u64 count, u64 victim bucket, u64 kick-out generator}
 *  56+40N  u64 XXH64 of the bytes before it
 * Version 1 (written before bucket sizes other than 4 existed) has 0 at
 * offset 20, buckets of 4 slots and 8-, 12- or 16-bit fingerprints; it is
 * still read. Version 2 fingerprints must be bfm_cf_fp_bits(bucket size,
 * FPR target), or in buckets of 4 the 8, 12 or 16 bits of sub-filters that
 * came from a version 1 value. The data chunks that follow carry the
 * tables, concatenated oldest first. */
#define BFM_CF_MAGIC "CFCH"
#define BFM_CF_HEADER_VERSION 2u
#define BFM_CF_V1_BUCKET_SIZE 4u
size_t bfm_cf_header_size(const bfm_cf *c);
/* Whether len is the size of a header of some number of sub-filters. */
bool bfm_cf_header_size_ok(size_t len);
void bfm_cf_header_write(const bfm_cf *c, uint8_t *buf);
/* A chain with the header's geometry and state, every table zero.
 * BF_EFORMAT / BF_EVERSION / BF_ECORRUPT / BF_ENOMEM / BF_ETOOBIG. */
int bfm_cf_from_header(bfm_cf **out, const void *buf, size_t len);

/* Sub-filter i's table. */
const uint8_t *bfm_cf_table(const bfm_cf *c, size_t i, uint64_t *num_bytes);

/* The value as a header plus its sub-filters' tables (dump.h). */
extern const bfm_dump_ops bfm_cf_ops;

#endif
