/* The portable SBBF kernel: plain C, the reference every other kernel
 * must match bit for bit. The probe and set of one block are the blocked
 * family's one source (blocked/probe.h) at the SBBF's shape: 256-bit
 * blocks, eight 32-bit sectors in eight groups, k = 8, Parquet's salts,
 * which the compiler unrolls into the word-by-word sequence (no loop, no
 * early exit) of the public header's bf_sbbf_block_test. */
#include "sbbf/sbbf_kernel.h"
#include "blocked/probe.h"

#define SBBF_SHAPE 256, 8, 8, 8, bf__blocked_salts

static inline void set_block(uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    bf__blocked_set(bits + bf_sbbf_block_index(hash, num_blocks) * 32, (uint32_t)hash, SBBF_SHAPE);
}

static int insert_scalar(uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    set_block(bits, num_blocks, hash);
    return BF_OK;
}

static bool contains_scalar(const uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    return bf__blocked_test(bits + bf_sbbf_block_index(hash, num_blocks) * 32, (uint32_t)hash,
                            SBBF_SHAPE);
}

static void insert_batch_scalar(uint8_t *bits, uint64_t num_blocks,
                                const uint64_t *hashes, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (i + BF_SBBF_PREFETCH_DISTANCE < n) {
            uint64_t b = bf_sbbf_block_index(bf_sbbf_load_hash(hashes + i + BF_SBBF_PREFETCH_DISTANCE), num_blocks);
            __builtin_prefetch(bits + b * 32, 1);
        }
        set_block(bits, num_blocks, bf_sbbf_load_hash(hashes + i));
    }
}

static size_t contains_batch_scalar(const uint8_t *bits, uint64_t num_blocks,
                                    const uint64_t *hashes, size_t n, uint8_t *out) {
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (i + BF_SBBF_PREFETCH_DISTANCE < n) {
            uint64_t b = bf_sbbf_block_index(bf_sbbf_load_hash(hashes + i + BF_SBBF_PREFETCH_DISTANCE), num_blocks);
            __builtin_prefetch(bits + b * 32, 0);
        }
        bool hit = contains_scalar(bits, num_blocks, bf_sbbf_load_hash(hashes + i));
        if (out) out[i] = (uint8_t)hit;
        count += hit;
    }
    return count;
}

const bf_kernel bf__sbbf_kernel_scalar = {
    "scalar", 0, insert_scalar, contains_scalar, insert_batch_scalar, contains_batch_scalar,
};
