/* The partitioner's sizing, buckets and flushing (partition.h). */
#include "common/partition.h"

#include <stdlib.h>

/* At most 2^12 regions: the bucket fill counters (16 KiB) stay in L1 and
 * the scatter's write streams in the TLB. */
#define BF_PART_MAX_BITS 12

bf_part_plan bf__part_plan(uint64_t filter_bytes, size_t n, uint64_t region_bytes,
                           unsigned reuse, uint64_t budget) {
    bf_part_plan plan = {.bits = 1};
    while (plan.bits < BF_PART_MAX_BITS && (filter_bytes >> plan.bits) > region_bytes) plan.bits++;
    uint64_t parts = (uint64_t)1 << plan.bits;
    /* reuse hashes per 64-byte line of a region ... */
    uint64_t lines = (filter_bytes / parts + 63) / 64;
    uint64_t cap = lines * reuse;
    /* ... but no more than the batch can fill: its share per region with
     * a margin for the spread of a uniform hash (more is flushed early). */
    uint64_t share = (uint64_t)n / parts;
    uint64_t need = share + share / 4 + 64;
    if (need < cap) cap = need;
    /* ... and within the memory budget. */
    if (budget / parts / 8 < cap) cap = budget / parts / 8;
    if (cap < 64) cap = 64;
    if (cap > ((uint64_t)UINT32_MAX & ~(uint64_t)7)) cap = (uint64_t)UINT32_MAX & ~(uint64_t)7;
    plan.cap = (size_t)cap;
    return plan;
}

int bf__part_init(bf_part *p, bf_part_plan plan, bool with_pos, bf_part_flush_fn flush,
                  void *ctx) {
    memset(p, 0, sizeof *p);
    size_t parts = (size_t)1 << plan.bits;
    size_t cap = (plan.cap + 7) & ~(size_t)7; /* whole lines */
    /* Staging lines, hashes, positions, fill counters: one region, every
     * part 64-byte aligned (parts is even, cap a multiple of 8). */
    size_t per = sizeof(uint64_t) + (with_pos ? sizeof(uint32_t) : 0);
    size_t slots, bytes, fixed = parts * (64 + 32 + sizeof(uint32_t));
    if (bf_mul_overflow(parts, cap, &slots) || bf_mul_overflow(slots, per, &bytes) ||
        bytes + fixed < bytes)
        return BF_ENOMEM;
    /* Heap memory, not bf__alloc_bits: within the budget, the allocator
     * hands the same pages back call after call, where a fresh mapping
     * would be faulted in and zeroed by the kernel every time. */
    if (bytes + fixed + 64 < bytes || !(p->mem = bf__malloc(bytes + fixed + 64))) {
        memset(p, 0, sizeof *p);
        return BF_ENOMEM;
    }
    uint8_t *at = (uint8_t *)(((uintptr_t)p->mem + 63) & ~(uintptr_t)63);
    p->stage = (uint64_t *)(void *)at;
    at += parts * 64;
    p->hashes = (uint64_t *)(void *)at;
    at += slots * sizeof(uint64_t);
    if (with_pos) {
        p->pstage = (uint32_t *)(void *)at;
        at += parts * 32;
        p->pos = (uint32_t *)(void *)at;
        at += slots * sizeof(uint32_t);
    }
    p->fill = (uint32_t *)(void *)at;
    memset(p->fill, 0, parts * sizeof(uint32_t));
    p->shift = 64 - plan.bits;
    p->parts = parts;
    p->cap = cap;
    p->flush = flush;
    p->ctx = ctx;
    return BF_OK;
}

void bf__part_flush_all(bf_part *p) {
    for (size_t r = 0; r < p->parts; r++)
        if (p->fill[r]) bf__part_flush_one(p, r);
}

void bf__part_finish(bf_part *p) {
    bf__part_flush_all(p);
    bf__free(p->mem);
    memset(p, 0, sizeof *p);
}

/* Concurrent first calls read the same variable and store the same value. */
static int env_mode(void) {
    static int cached = -1;
    int m = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (m >= 0) return m;
    const char *v = getenv("BLOCKFILTER_PARTITION");
    m = BF_PARTITION_AUTO;
    if (v && !strcmp(v, "on")) m = BF_PARTITION_ON;
    if (v && !strcmp(v, "off")) m = BF_PARTITION_OFF;
    __atomic_store_n(&cached, m, __ATOMIC_RELAXED);
    return m;
}

int bf__part_mode(int mode) { return mode == BF_PARTITION_AUTO ? env_mode() : mode; }

bool bf__part_pays(int mode, uint64_t filter_bytes, size_t n, bool with_out,
                   uint64_t min_filter_bytes, double min_keys_per_line) {
    mode = bf__part_mode(mode);
    if (mode == BF_PARTITION_ON) return n > 0;
    if (mode == BF_PARTITION_OFF) return false;
    /* A filter that fits the caches gains nothing; a batch with fewer keys
     * than the filter has lines reuses none once partitioned; answers
     * scattered back to out[] cost more than partitioning saves (measured:
     * docs/kernels.md), so only counts and inserts partition by themselves. */
    return !with_out && filter_bytes >= min_filter_bytes &&
           (double)n >= min_keys_per_line * (double)(filter_bytes / 64);
}
