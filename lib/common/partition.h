/*
 * Radix partitioning of hashed batches by filter region, for filters larger
 * than the caches (docs/kernels.md, "Partitioned batches").
 *
 * A filter whose block index grows with the hash's high bits (the SBBF's
 * ((hash >> 32) * num_blocks) >> 32, and any layout that addresses the same
 * way) maps the hashes whose top b bits are r to one contiguous range of
 * blocks: region r of 2^b. The partitioner appends each hash (and, when
 * answers go back to the caller, its position in the batch) to the bucket
 * of its region, hash >> shift: one shift, inlined, no callback per key.
 * A bucket that fills is handed to the flush callback at once (so any input
 * works, repeated keys included, in bounded memory); whatever is left is
 * flushed region by region at the end. Each flush is a run of keys of one
 * region, which the filter's own batch kernel probes or sets while that
 * slice of the filter sits in L2.
 *
 * Nothing here knows the filter: the caller sizes the partitioner from its
 * filter (bf__part_plan) and flushes through its kernel.
 */
#ifndef BF_PARTITION_H
#define BF_PARTITION_H

#include "common/internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Receives m hashes of one region; pos (NULL unless positions were asked
 * for) holds each one's position in the batch, relative to base. */
typedef void (*bf_part_flush_fn)(void *ctx, const uint64_t *hashes, const uint32_t *pos,
                                 size_t m, size_t base);

typedef struct bf_part {
    unsigned shift;       /* region of a hash: hash >> shift */
    size_t parts;         /* 1 << (64 - shift) */
    size_t cap;           /* hashes per bucket before it is flushed (a multiple of 8) */
    uint64_t *hashes;     /* parts * cap, bucket-major, 64-byte aligned */
    uint32_t *pos;        /* parts * cap, or NULL (counts, inserts) */
    uint32_t *fill;       /* parts: hashes in each bucket */
    size_t base;          /* positions are relative to it */
    void *extra;          /* the caller's extra bytes (bf__part_init), or NULL */
    bf_part_flush_fn flush;
    void *ctx;
    void *mem;            /* everything above, one scratch block (bf__part_init) */
    void **cache;         /* where mem goes back at the end, or NULL */
} bf_part;

/* How a batch of n hashes over a filter of filter_bytes is partitioned:
 * 2^bits regions of about region_bytes each (at least 2 regions), and
 * buckets of reuse hashes per 64-byte line of a region (a flush then
 * touches most of its slice several times), but no larger than the batch
 * needs, and all buckets' hashes within budget bytes. */
typedef struct bf_part_plan {
    unsigned bits;  /* log2 of the region count */
    size_t cap;     /* hashes per bucket */
} bf_part_plan;
BF_HIDDEN bf_part_plan bf__part_plan(uint64_t filter_bytes, size_t n, uint64_t region_bytes,
                                     unsigned reuse, uint64_t budget);

/* The partitioning parameters (docs/kernels.md gives the measurements
 * behind the SBBF's defaults, which the blocked family shares). */
typedef struct bf_part_tuning {
    uint64_t region_bytes;      /* a region's slice of the filter; 0: the
                                 * CPU's (bf__part_region_bytes) */
    unsigned reuse;             /* bucket hashes per line of a slice */
    uint64_t budget;            /* bucket bytes at most */
    int preload;                /* sweep a slice before its flush probes it */
    uint64_t min_filter_bytes;  /* automatic rule: filters from this size */
    double min_keys_per_line;   /* ... and batches from this many keys a line */
} bf_part_tuning;

/* A region's slice where the tuning leaves it to the CPU: a quarter of one
 * core's L2 (bf__cpu_l2_bytes), between 64 KiB and 1 MiB; 256 KiB where
 * the CPU does not say. */
#define BF_PART_REGION_FALLBACK ((uint64_t)256 << 10)
BF_HIDDEN uint64_t bf__part_region_bytes(void);

/* The mode a filter's BF_PARTITION_* setting comes to: AUTO defers to
 * BLOCKFILTER_PARTITION=on|off (read once per process). */
BF_HIDDEN int bf__part_mode(int mode);
/* The rule every filter's batches follow (docs/kernels.md): whether a batch
 * of n keys on a filter of filter_bytes in `mode` (BF_PARTITION_*) goes
 * partitioned. Forced on: any n > 0; forced off: never; automatic: counts
 * and inserts (not lookups writing answers, with_out) on a filter of at
 * least t->min_filter_bytes, with at least t->min_keys_per_line keys per
 * 64-byte line of it. */
BF_HIDDEN bool bf__part_pays(int mode, uint64_t filter_bytes, size_t n, bool with_out,
                             const bf_part_tuning *t);

/* Sets up the buckets (with positions if with_pos) and `extra` more bytes
 * for the caller (p->extra, 64-byte aligned), all in one scratch block:
 * the one parked in *cache if there is one and it is large enough (taken
 * with an atomic exchange, so concurrent batches on one filter never
 * share it; one too small is freed), else a new one. cache may be NULL
 * (nothing kept between calls). BF_ENOMEM leaves p empty and nothing
 * allocated: callers then go the unpartitioned way. */
BF_HIDDEN int bf__part_init(bf_part *p, bf_part_plan plan, bool with_pos, size_t extra,
                            void **cache, bf_part_flush_fn flush, void *ctx);
/* Flushes every non-empty bucket, in region order. */
BF_HIDDEN void bf__part_flush_all(bf_part *p);
/* bf__part_flush_all, then parks the scratch block in *p->cache if that
 * is empty (a concurrent batch may have parked its own first), else frees
 * it. */
BF_HIDDEN void bf__part_finish(bf_part *p);
/* Frees the scratch block parked in *cache, if any: a filter's free, and
 * calls that must not overlap its batches anyway (the mode setters). */
BF_HIDDEN void bf__part_cache_drop(void **cache);

/* One bucket out through the callback, emptied. */
static inline void bf__part_flush_one(bf_part *p, size_t r) {
    size_t at = r * p->cap;
    p->flush(p->ctx, p->hashes + at, p->pos ? p->pos + at : NULL, p->fill[r], p->base);
    p->fill[r] = 0;
}

/* Appends m hashes (any alignment); with positions, hash j is batch
 * position off + j. Each hash is stored straight into its bucket: the
 * buckets' current lines (one per region, 32 KiB at 512 regions) stay in
 * the caches while they fill, and the loop has no branch but the rare
 * full bucket. (Staging lines written out whole with non-temporal
 * stores, which spare the buckets' reads for ownership, measured 1.2-1.4x
 * slower here: their every-eighth-key branch is taken at random.)
 * Positions are 32-bit offsets from p->base: when the span would pass
 * 2^32, everything is flushed and base moves up. */
static inline void bf__part_add(bf_part *p, const uint64_t *hashes, size_t m, size_t off) {
    const unsigned shift = p->shift;
    const size_t cap = p->cap;
    uint64_t *restrict hb = p->hashes;
    uint32_t *restrict fill = p->fill;
    if (!p->pos) {
        for (size_t j = 0; j < m; j++) {
            uint64_t h;
            memcpy(&h, hashes + j, sizeof h);
            size_t r = (size_t)(h >> shift);
            uint32_t k = fill[r];
            hb[r * cap + k] = h;
            fill[r] = ++k;
            if (BF_UNLIKELY(k == cap)) bf__part_flush_one(p, r);
        }
        return;
    }
    if (BF_UNLIKELY(off + m - p->base > (size_t)UINT32_MAX)) {
        bf__part_flush_all(p);
        p->base = off;
    }
    uint32_t *restrict pb = p->pos;
    const uint32_t rel = (uint32_t)(off - p->base);
    for (size_t j = 0; j < m; j++) {
        uint64_t h;
        memcpy(&h, hashes + j, sizeof h);
        size_t r = (size_t)(h >> shift);
        uint32_t k = fill[r];
        hb[r * cap + k] = h;
        pb[r * cap + k] = rel + (uint32_t)j;
        fill[r] = ++k;
        if (BF_UNLIKELY(k == cap)) bf__part_flush_one(p, r);
    }
}

/* A filter as a partitioned batch sees it: its bitset of num_blocks blocks
 * of block_bytes, its block index (never decreasing as the hash grows),
 * and its own batch lookup (answers to out, or only the count) and
 * insert, which each flush calls; cache: where the filter keeps a scratch
 * block between batches (bf__part_init), or NULL. */
typedef struct bf_part_target {
    const void *f;
    const uint8_t *data;
    uint64_t num_blocks;
    uint64_t block_bytes;
    uint64_t num_bytes;
    uint64_t (*block_index)(uint64_t hash, uint64_t num_blocks);
    size_t (*contains)(const void *f, const uint64_t *h, size_t m, uint8_t *out);
    void (*insert)(void *f, const uint64_t *h, size_t m);
    void **cache;
} bf_part_target;

/* One partitioned batch over one filter. */
typedef struct bf_part_batch {
    bf_part part;
    bf_part_target t;
    bool preload;
    uint8_t *out; /* the caller's answers, or NULL (count only, inserts) */
    uint8_t *ans; /* one bucket's answers in bucket order, when out is set */
    size_t found;
} bf_part_batch;

/* Starts a partitioned batch of n keys on t: contains (write false; out
 * may be NULL) or insert (write true, t->f writable). BF_ENOMEM when the
 * scratch memory cannot be had: nothing started, take the plain path. */
BF_HIDDEN int bf__part_batch_begin(bf_part_batch *s, const bf_part_target *t,
                                   const bf_part_tuning *tun, size_t n, uint8_t *out,
                                   bool write);
/* Probes or sets everything still buffered, parks or frees the scratch
 * memory (bf__part_finish) and returns the number of keys found
 * (contains). */
BF_HIDDEN size_t bf__part_batch_end(bf_part_batch *s);

/* The key pipeline's chunk callback (bf_keys_fn, hash/key_batch.h) for a
 * partitioned batch: ctx is the bf_part_batch; each hashed chunk of m
 * keys, batch positions off.., goes to the buckets. Returns BF_OK. */
BF_HIDDEN int bf__part_batch_chunk(void *ctx, const uint64_t *hashes, size_t m, size_t off);

/* A caller's hash array, appended in slices of 2^16 (positions from 0). */
static inline void bf__part_add_array(bf_part *p, const uint64_t *hashes, size_t n) {
    const size_t slice = (size_t)1 << 16;
    for (size_t i = 0; i < n; i += slice) bf__part_add(p, hashes + i, n - i < slice ? n - i : slice, i);
}

#endif
