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
                   const bf_part_tuning *t) {
    mode = bf__part_mode(mode);
    if (mode == BF_PARTITION_ON) return n > 0;
    if (mode == BF_PARTITION_OFF) return false;
    /* A filter that fits the caches gains nothing; a batch with fewer keys
     * than the filter has lines reuses none once partitioned; answers
     * scattered back to out[] cost more than partitioning saves (measured:
     * docs/kernels.md), so only counts and inserts partition by themselves. */
    return !with_out && filter_bytes >= t->min_filter_bytes &&
           (double)n >= t->min_keys_per_line * (double)(filter_bytes / 64);
}

/* The slice of the region the hashes of a flush belong to (their top bits
 * are `hash`'s), fetched line by line in address order before the kernel
 * probes it in random order: a sequential sweep streams from DRAM, where
 * the probes' own misses would come one random line at a time. Only when
 * the flush has enough keys to touch most of the slice's lines anyway
 * (half of them). */
static void preload(const bf_part_batch *s, uint64_t hash, size_t m, bool write) {
    const unsigned shift = s->part.shift; /* < 64: at least two regions */
    const uint64_t lo = hash >> shift << shift, hi = lo | (((uint64_t)1 << shift) - 1);
    const bf_part_target *t = &s->t;
    const uint64_t first = t->block_index(lo, t->num_blocks);
    const uint64_t end = t->block_index(hi, t->num_blocks) + 1;
    if (!s->preload || m < (end - first) * t->block_bytes / 64 / 2) return;
    const uint8_t *p = t->data + first * t->block_bytes, *stop = t->data + end * t->block_bytes;
    if (write)
        for (; p < stop; p += 64) __builtin_prefetch(p, 1, 3);
    else
        for (; p < stop; p += 64) __builtin_prefetch(p, 0, 3);
}

static void flush_contains(void *ctx, const uint64_t *hashes, const uint32_t *pos, size_t m,
                           size_t base) {
    bf_part_batch *s = ctx;
    preload(s, hashes[0], m, false);
    if (!pos) {
        s->found += s->t.contains(s->t.f, hashes, m, NULL);
        return;
    }
    s->found += s->t.contains(s->t.f, hashes, m, s->ans);
    uint8_t *out = s->out + base;
    for (size_t j = 0; j < m; j++) out[pos[j]] = s->ans[j];
}

static void flush_insert(void *ctx, const uint64_t *hashes, const uint32_t *pos, size_t m,
                         size_t base) {
    (void)pos;
    (void)base;
    bf_part_batch *s = ctx;
    preload(s, hashes[0], m, true);
    /* The filter is the caller's writable one (bf__part_batch_begin). */
    s->t.insert((void *)(uintptr_t)s->t.f, hashes, m);
}

int bf__part_batch_begin(bf_part_batch *s, const bf_part_target *t, const bf_part_tuning *tun,
                         size_t n, uint8_t *out, bool write) {
    memset(s, 0, sizeof *s);
    s->t = *t;
    s->out = out;
    s->preload = tun->preload != 0;
    /* Positions: 4 more bytes a hash. */
    bf_part_plan plan = bf__part_plan(t->num_bytes, n, tun->region_bytes, tun->reuse,
                                      out ? tun->budget / 3 * 2 : tun->budget);
    if (out && !(s->ans = bf__malloc(plan.cap + 8))) return BF_ENOMEM; /* cap, rounded up to lines */
    if (bf__part_init(&s->part, plan, out != NULL, write ? flush_insert : flush_contains, s)) {
        bf__free(s->ans);
        s->ans = NULL;
        return BF_ENOMEM;
    }
    return BF_OK;
}

size_t bf__part_batch_end(bf_part_batch *s) {
    bf__part_finish(&s->part);
    bf__free(s->ans);
    s->ans = NULL;
    return s->found;
}
