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
    /* Not concurrent with f's batches (docs/thread-safety.md): a way to
     * give the kept scratch memory back, whatever the mode. */
    bf__part_cache_drop(&f->part_scratch);
    return BF_OK;
}

int bf_sbbf_partitioning(const bf_sbbf *f) { return f ? f->partition_mode : BF_PARTITION_AUTO; }

bool bf__sbbf_partition_pays(const bf_sbbf *f, size_t n, bool with_out) {
    return bf__part_pays(f->partition_mode, f->num_bytes, n, with_out, &bf__sbbf_part_tuning);
}

/* The SBBF as the partitioned batch sees it. */
static uint64_t block_index(uint64_t hash, uint64_t num_blocks) {
    return bf_sbbf_block_index(hash, num_blocks);
}
static size_t contains(const void *f, const uint64_t *h, size_t m, uint8_t *out) {
    return bf__sbbf_contains_hashes(f, h, m, out);
}
static void insert(void *f, const uint64_t *h, size_t m) { bf__sbbf_insert_hashes(f, h, m); }

int bf__sbbf_part_begin(bf_sbbf_part *s, const bf_sbbf *f, size_t n, uint8_t *out, bool write) {
    bf_part_target t = {.f = f, .data = f->data, .num_blocks = f->num_blocks,
                        .block_bytes = BF_SBBF_BLOCK_BYTES, .num_bytes = f->num_bytes,
                        .block_index = block_index, .contains = contains, .insert = insert,
                        /* The object is the library's own (never const
                         * memory); the cache is taken atomically. */
                        .cache = &((bf_sbbf *)(uintptr_t)f)->part_scratch};
    return bf__part_batch_begin(s, &t, &bf__sbbf_part_tuning, n, out, write);
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
