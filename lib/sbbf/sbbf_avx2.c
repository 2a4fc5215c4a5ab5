/* The AVX2 SBBF kernel: one 32-byte block per 256-bit register.
 * Compiled with -mavx2 -mbmi2 alone; chosen only when cpu.c reports AVX2
 * with the YMM state saved by the OS. Bit for bit the scalar kernel: the
 * eight lanes are the eight little-endian words of a block (x86 is
 * little-endian), lane i holding 1 << ((low32(h) * SALT[i]) >> 27). */
#include "sbbf/sbbf_x86.h"

static int insert_avx2(uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    bf_x86_insert_one(bits, num_blocks, hash);
    return BF_OK;
}

static bool contains_avx2(const uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    return bf_x86_contains_one(bits, num_blocks, hash) != 0;
}

static void insert_batch_avx2(uint8_t *bits, uint64_t num_blocks, const uint64_t *hashes,
                              size_t n) {
    size_t i = 0;
    /* Keys are applied in order, one load-OR-store each, so two keys of
     * one block in a row see each other's bits (store forwarding). */
    if (num_blocks * 32 >= BF_SBBF_PREFETCH_MIN_BYTES) {
        for (; i + BF_SBBF_PREFETCH_DISTANCE < n; i++) {
            uint64_t ahead = bf_sbbf_load_hash(hashes + i + BF_SBBF_PREFETCH_DISTANCE);
            _mm_prefetch((const char *)bf_x86_block_of(bits, num_blocks, ahead), _MM_HINT_T0);
            bf_x86_insert_one(bits, num_blocks, bf_sbbf_load_hash(hashes + i));
        }
    }
    for (; i < n; i++) bf_x86_insert_one(bits, num_blocks, bf_sbbf_load_hash(hashes + i));
}

static size_t contains_batch_avx2(const uint8_t *bits, uint64_t num_blocks,
                                  const uint64_t *hashes, size_t n, uint8_t *out) {
    size_t count = 0, i = 0;
    if (num_blocks * 32 >= BF_SBBF_PREFETCH_MIN_BYTES) {
        for (; i + BF_SBBF_PREFETCH_DISTANCE < n; i++) {
            uint64_t ahead = bf_sbbf_load_hash(hashes + i + BF_SBBF_PREFETCH_DISTANCE);
            _mm_prefetch((const char *)bf_x86_block_of(bits, num_blocks, ahead), _MM_HINT_T0);
            int hit = bf_x86_contains_one(bits, num_blocks, bf_sbbf_load_hash(hashes + i));
            if (out) out[i] = (uint8_t)hit;
            count += (size_t)hit;
        }
    }
    for (; i < n; i++) {
        int hit = bf_x86_contains_one(bits, num_blocks, bf_sbbf_load_hash(hashes + i));
        if (out) out[i] = (uint8_t)hit;
        count += (size_t)hit;
    }
    return count;
}

const bf_kernel bf__sbbf_kernel_avx2 = {
    "avx2", BF_CPU_AVX2, insert_avx2, contains_avx2, insert_batch_avx2, contains_batch_avx2,
};
