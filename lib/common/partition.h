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
    size_t cap;           /* hashes per bucket before it is flushed */
    uint64_t *hashes;     /* parts * cap, bucket-major */
    uint32_t *pos;        /* parts * cap, or NULL (counts, inserts) */
    uint32_t *fill;       /* parts */
    size_t base;          /* positions are relative to it */
    bf_part_flush_fn flush;
    void *ctx;
    bf_region mem;
} bf_part;

/* How a batch of n hashes over a filter of filter_bytes is partitioned:
 * 2^bits regions of about region_bytes each (at least 2 regions), and
 * buckets of reuse hashes per 64-byte line of a region (a flush then
 * touches most of its slice several times), but no larger than the batch
 * needs. */
typedef struct bf_part_plan {
    unsigned bits;  /* log2 of the region count */
    size_t cap;     /* hashes per bucket */
} bf_part_plan;
BF_HIDDEN bf_part_plan bf__part_plan(uint64_t filter_bytes, size_t n, uint64_t region_bytes,
                                     unsigned reuse);

/* Allocates the buckets (with positions if with_pos). BF_ENOMEM leaves p
 * empty and nothing allocated: callers then go the unpartitioned way. */
BF_HIDDEN int bf__part_init(bf_part *p, bf_part_plan plan, bool with_pos, bf_part_flush_fn flush,
                            void *ctx);
/* Flushes every non-empty bucket, in region order. */
BF_HIDDEN void bf__part_flush_all(bf_part *p);
/* bf__part_flush_all, then frees the buckets. */
BF_HIDDEN void bf__part_finish(bf_part *p);

/* One bucket out through the callback, emptied. */
static inline void bf__part_flush_one(bf_part *p, size_t r) {
    size_t at = r * p->cap;
    p->flush(p->ctx, p->hashes + at, p->pos ? p->pos + at : NULL, p->fill[r], p->base);
    p->fill[r] = 0;
}

/* Appends m hashes (any alignment); with positions, hash j is batch
 * position off + j. Positions are 32-bit offsets from p->base: when the
 * span would pass 2^32, everything is flushed and base moves up. */
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

#endif
