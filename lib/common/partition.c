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

uint64_t bf__part_region_bytes(void) {
    const uint64_t l2 = bf__cpu_l2_bytes();
    if (!l2) return BF_PART_REGION_FALLBACK;
    const uint64_t lo = (uint64_t)64 << 10, hi = (uint64_t)1 << 20;
    return l2 / 4 < lo ? lo : l2 / 4 > hi ? hi : l2 / 4;
}

/* A scratch block: memory from bf__alloc_bits (2 MiB and more: its own
 * mapping, offered for huge pages), whose first 64 bytes hold the
 * bf_region to free it with; the buckets follow. Kept in a filter's cache
 * between batches, its pages stay faulted in: a fresh block would be
 * faulted in and zeroed by the kernel on every call (at 10^8 keys about
 * the filter's own size, 125 MiB, docs/kernels.md). */
#define SCRATCH_HEAD 64
_Static_assert(sizeof(bf_region) <= SCRATCH_HEAD, "scratch header");

static size_t scratch_bytes(const void *mem) {
    bf_region r;
    memcpy(&r, mem, sizeof r);
    return r.len;
}

static void scratch_free(void *mem) {
    if (!mem) return;
    bf_region r;
    memcpy(&r, mem, sizeof r);
    bf__free_bits(&r);
}

/* A block of at least bytes (header included): the cached one if it is
 * large enough, else a new one; NULL if none can be had. */
static void *scratch_take(void **cache, size_t bytes) {
    void *mem = cache ? __atomic_exchange_n(cache, NULL, __ATOMIC_ACQUIRE) : NULL;
    if (mem && scratch_bytes(mem) >= bytes) return mem;
    scratch_free(mem);
    bf_region r;
    if (bf__alloc_bits(&r, bytes)) return NULL;
    memcpy(r.ptr, &r, sizeof r);
    return r.ptr;
}

void bf__part_cache_drop(void **cache) {
    scratch_free(__atomic_exchange_n(cache, NULL, __ATOMIC_ACQUIRE));
}

int bf__part_init(bf_part *p, bf_part_plan plan, bool with_pos, size_t extra, void **cache,
                  bf_part_flush_fn flush, void *ctx) {
    memset(p, 0, sizeof *p);
    size_t parts = (size_t)1 << plan.bits;
    size_t cap = (plan.cap + 7) & ~(size_t)7; /* whole lines */
    /* Header, hashes, positions, fill counters, the caller's bytes: every
     * part 64-byte aligned (cap a multiple of 8, so every bucket starts a
     * line; the block itself 64-byte aligned). */
    size_t per = sizeof(uint64_t) + (with_pos ? sizeof(uint32_t) : 0);
    size_t fill = (parts * sizeof(uint32_t) + 63) & ~(size_t)63;
    size_t tail = (extra + 63) & ~(size_t)63;
    size_t fixed = SCRATCH_HEAD + fill;
    size_t slots, bytes;
    if (tail < extra || bf_mul_overflow(parts, cap, &slots) ||
        bf_mul_overflow(slots, per, &bytes) || bytes + fixed < bytes ||
        bytes + fixed + tail < bytes + fixed)
        return BF_ENOMEM;
    bytes += fixed + tail;
    uint8_t *at = scratch_take(cache, bytes);
    if (!at) return BF_ENOMEM;
    p->mem = at;
    p->cache = cache;
    at += SCRATCH_HEAD;
    p->hashes = (uint64_t *)(void *)at;
    at += slots * sizeof(uint64_t);
    if (with_pos) {
        p->pos = (uint32_t *)(void *)at;
        at += slots * sizeof(uint32_t);
    }
    p->fill = (uint32_t *)(void *)at;
    memset(p->fill, 0, parts * sizeof(uint32_t));
    at += fill;
    p->extra = extra ? at : NULL;
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
    void *mem = p->mem, *empty = NULL;
    /* Released: the next batch to take it (any thread) sees this one's
     * writes done. */
    if (p->cache && __atomic_compare_exchange_n(p->cache, &empty, mem, false, __ATOMIC_RELEASE,
                                                __ATOMIC_RELAXED))
        mem = NULL;
    scratch_free(mem);
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
 * are `hash`'s), read line by line in address order before the kernel
 * probes it in random order: a sequential sweep streams from DRAM, where
 * the probes' own misses would come one random line at a time. Only when
 * the flush has enough keys to touch most of the slice's lines anyway
 * (half of them). The sweep loads a byte of each line rather than
 * prefetching it: the loads engage the hardware's stream prefetchers, and
 * a flush of 8 keys a line took 0.75x the time after a load sweep that it
 * took after a prefetch sweep (docs/kernels.md). A line read before the
 * batch insert writes it comes in exclusive: no second trip. */
static void preload(const bf_part_batch *s, uint64_t hash, size_t m) {
    const unsigned shift = s->part.shift; /* < 64: at least two regions */
    const uint64_t lo = hash >> shift << shift, hi = lo | (((uint64_t)1 << shift) - 1);
    const bf_part_target *t = &s->t;
    const uint64_t first = t->block_index(lo, t->num_blocks);
    const uint64_t end = t->block_index(hi, t->num_blocks) + 1;
    if (!s->preload || m < (end - first) * t->block_bytes / 64 / 2) return;
    const volatile uint8_t *p = t->data + first * t->block_bytes;
    const volatile uint8_t *stop = t->data + end * t->block_bytes;
    for (; p < stop; p += 64) (void)*p; /* volatile: each load is made */
}

static void flush_contains(void *ctx, const uint64_t *hashes, const uint32_t *pos, size_t m,
                           size_t base) {
    bf_part_batch *s = ctx;
    preload(s, hashes[0], m);
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
    preload(s, hashes[0], m);
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
    const uint64_t region = tun->region_bytes ? tun->region_bytes : bf__part_region_bytes();
    bf_part_plan plan = bf__part_plan(t->num_bytes, n, region, tun->reuse,
                                      out ? tun->budget / 3 * 2 : tun->budget);
    /* With out[], one bucket's answers (cap, rounded up to lines). */
    size_t ans = out ? plan.cap + 8 : 0;
    if (bf__part_init(&s->part, plan, out != NULL, ans, t->cache,
                      write ? flush_insert : flush_contains, s))
        return BF_ENOMEM;
    s->ans = s->part.extra;
    return BF_OK;
}

size_t bf__part_batch_end(bf_part_batch *s) {
    bf__part_finish(&s->part);
    s->ans = NULL;
    return s->found;
}

int bf__part_batch_chunk(void *ctx, const uint64_t *hashes, size_t m, size_t off) {
    bf__part_add(&((bf_part_batch *)ctx)->part, hashes, m, off);
    return BF_OK;
}
