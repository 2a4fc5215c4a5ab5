/* The SBBF's partitioned batches: the mode, the rule that turns them on,
 * and the flushes through the filter's own batch kernel. The block index,
 * ((hash >> 32) * num_blocks) >> 32, never decreases as the hash's top
 * bits grow, so region r (the hashes whose top bits are r) is one
 * contiguous run of blocks: the bits and the Parquet layout are those of
 * the plain path; only the order of the probes changes. */
#include "sbbf/sbbf_partition.h"

bf_sbbf_part_tuning bf__sbbf_part_tuning = {
    .region_bytes = BF_SBBF_PART_REGION_BYTES,
    .reuse = BF_SBBF_PART_REUSE,
    .budget = BF_SBBF_PART_BUDGET,
    .preload = 1,
    .min_filter_bytes = BF_SBBF_PART_MIN_FILTER_BYTES,
    .min_keys_per_line = BF_SBBF_PART_MIN_KEYS_PER_LINE,
};

int bf_sbbf_set_partitioning(bf_sbbf *f, int mode) {
    if (!f || mode < BF_PARTITION_AUTO || mode > BF_PARTITION_OFF) return BF_EINVAL;
    f->partition_mode = mode;
    return BF_OK;
}

int bf_sbbf_partitioning(const bf_sbbf *f) { return f ? f->partition_mode : BF_PARTITION_AUTO; }

bool bf__sbbf_partition_pays(const bf_sbbf *f, size_t n, bool with_out) {
    const bf_sbbf_part_tuning *t = &bf__sbbf_part_tuning;
    return bf__part_pays(f->partition_mode, f->num_bytes, n, with_out, t->min_filter_bytes,
                         t->min_keys_per_line);
}

/* The slice of the region the hashes of a flush belong to, fetched line by
 * line in address order before the kernel probes it in random order: a
 * sequential sweep streams from DRAM, where the probes' own misses would
 * come one random line at a time. Only when the flush has enough keys to
 * touch most of the slice anyway. */
static void preload(const bf_sbbf_part *s, uint64_t hash, size_t m, bool write) {
    const unsigned below = s->part.shift - 32; /* region bits end here in the top half */
    const uint64_t r = hash >> s->part.shift;
    const uint64_t nb = s->f->num_blocks;
    uint64_t first = ((r << below) * nb) >> 32;
    uint64_t end = r + 1 == s->part.parts ? nb : ((((r + 1) << below) * nb) >> 32) + 1;
    if (end > nb) end = nb;
    if (!bf__sbbf_part_tuning.preload || m < (end - first) / 4) return;
    bf__part_prefetch_range(s->f->data + first * BF_SBBF_BLOCK_BYTES,
                            s->f->data + end * BF_SBBF_BLOCK_BYTES, write);
}

static void flush_contains(void *ctx, const uint64_t *hashes, const uint32_t *pos, size_t m,
                           size_t base) {
    bf_sbbf_part *s = ctx;
    preload(s, hashes[0], m, false);
    if (!pos) {
        s->found += bf__sbbf_contains_hashes(s->f, hashes, m, NULL);
        return;
    }
    s->found += bf__sbbf_contains_hashes(s->f, hashes, m, s->ans);
    uint8_t *out = s->out + base;
    for (size_t j = 0; j < m; j++) out[pos[j]] = s->ans[j];
}

static void flush_insert(void *ctx, const uint64_t *hashes, const uint32_t *pos, size_t m,
                         size_t base) {
    (void)pos;
    (void)base;
    bf_sbbf_part *s = ctx;
    preload(s, hashes[0], m, true);
    /* The filter is the caller's writable one (bf__sbbf_part_begin). */
    bf__sbbf_insert_hashes((bf_sbbf *)(uintptr_t)s->f, hashes, m);
}

int bf__sbbf_part_begin(bf_sbbf_part *s, const bf_sbbf *f, size_t n, uint8_t *out, bool write) {
    memset(s, 0, sizeof *s);
    s->f = f;
    s->out = out;
    const bf_sbbf_part_tuning *t = &bf__sbbf_part_tuning;
    bf_part_plan plan = bf__part_plan(f->num_bytes, n, t->region_bytes, t->reuse,
                                      out ? t->budget / 3 * 2 : t->budget); /* positions: 4 more bytes a hash */
    if (out && !(s->ans = bf__malloc(plan.cap + 8))) return BF_ENOMEM; /* cap, rounded up to lines */
    if (bf__part_init(&s->part, plan, out != NULL, write ? flush_insert : flush_contains, s)) {
        bf__free(s->ans);
        s->ans = NULL;
        return BF_ENOMEM;
    }
    return BF_OK;
}

size_t bf__sbbf_part_end(bf_sbbf_part *s) {
    bf__part_finish(&s->part);
    bf__free(s->ans);
    s->ans = NULL;
    return s->found;
}

bool bf__sbbf_contains_hashes_part(const bf_sbbf *f, const uint64_t *hashes, size_t n,
                                   uint8_t *out, size_t *found) {
    bf_sbbf_part s;
    if (!bf__sbbf_partition_pays(f, n, out != NULL) || bf__sbbf_part_begin(&s, f, n, out, false))
        return false;
    bf__part_add_array(&s.part, hashes, n);
    *found = bf__sbbf_part_end(&s);
    return true;
}

bool bf__sbbf_insert_hashes_part(bf_sbbf *f, const uint64_t *hashes, size_t n) {
    bf_sbbf_part s;
    if (!bf__sbbf_partition_pays(f, n, false) || bf__sbbf_part_begin(&s, f, n, NULL, true))
        return false;
    bf__part_add_array(&s.part, hashes, n);
    bf__sbbf_part_end(&s);
    return true;
}
