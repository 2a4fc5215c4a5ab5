/* The AVX2 SBBF kernel: one 32-byte block per 256-bit register.
 * Compiled with -mavx2 -mbmi2 alone; chosen only when cpu.c reports AVX2
 * with the YMM state saved by the OS. Bit for bit the scalar kernel: the
 * eight lanes are the eight little-endian words of a block (x86 is
 * little-endian), lane i holding 1 << ((low32(h) * SALT[i]) >> 27). */
#include "sbbf_kernel.h"

#include <immintrin.h>

static const uint32_t salt[8] = BF_SBBF_SALTS;

static inline __m256i block_mask(uint64_t hash) {
    const __m256i s = _mm256_loadu_si256((const __m256i *)(const void *)salt);
    __m256i h = _mm256_set1_epi32((int)(uint32_t)hash);
    __m256i pos = _mm256_srli_epi32(_mm256_mullo_epi32(h, s), 27);
    return _mm256_sllv_epi32(_mm256_set1_epi32(1), pos);
}

static inline __m256i load_block(const uint8_t *p) {
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

static inline const uint8_t *block_of(const uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    return bits + bf_sbbf_block_index(hash, num_blocks) * 32;
}

static void insert_avx2(uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    uint8_t *p = bits + bf_sbbf_block_index(hash, num_blocks) * 32;
    __m256i v = _mm256_or_si256(load_block(p), block_mask(hash));
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}

static inline int contains_one(const uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    /* testc: CF = ((~block & mask) == 0), i.e. every mask bit is set. */
    return _mm256_testc_si256(load_block(block_of(bits, num_blocks, hash)), block_mask(hash));
}

static bool contains_avx2(const uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    return contains_one(bits, num_blocks, hash) != 0;
}

static void insert_batch_avx2(uint8_t *bits, uint64_t num_blocks, const uint64_t *hashes,
                              size_t n) {
    size_t i = 0;
    /* Keys are applied in order, one load-OR-store each, so two keys of
     * one block in a row see each other's bits (store forwarding). */
    if (num_blocks * 32 >= BF_SBBF_PREFETCH_MIN_BYTES) {
        for (; i + BF_SBBF_PREFETCH_DISTANCE < n; i++) {
            uint64_t ahead = bf_sbbf_load_hash(hashes + i + BF_SBBF_PREFETCH_DISTANCE);
            _mm_prefetch((const char *)block_of(bits, num_blocks, ahead), _MM_HINT_T0);
            insert_avx2(bits, num_blocks, bf_sbbf_load_hash(hashes + i));
        }
    }
    for (; i < n; i++) insert_avx2(bits, num_blocks, bf_sbbf_load_hash(hashes + i));
}

static size_t contains_batch_avx2(const uint8_t *bits, uint64_t num_blocks,
                                  const uint64_t *hashes, size_t n, uint8_t *out) {
    size_t count = 0, i = 0;
    if (num_blocks * 32 >= BF_SBBF_PREFETCH_MIN_BYTES) {
        for (; i + BF_SBBF_PREFETCH_DISTANCE < n; i++) {
            uint64_t ahead = bf_sbbf_load_hash(hashes + i + BF_SBBF_PREFETCH_DISTANCE);
            _mm_prefetch((const char *)block_of(bits, num_blocks, ahead), _MM_HINT_T0);
            int hit = contains_one(bits, num_blocks, bf_sbbf_load_hash(hashes + i));
            if (out) out[i] = (uint8_t)hit;
            count += (size_t)hit;
        }
    }
    for (; i < n; i++) {
        int hit = contains_one(bits, num_blocks, bf_sbbf_load_hash(hashes + i));
        if (out) out[i] = (uint8_t)hit;
        count += (size_t)hit;
    }
    return count;
}

const bf_kernel bf__sbbf_kernel_avx2 = {
    "avx2", BF_CPU_AVX2, insert_avx2, contains_avx2, insert_batch_avx2, contains_batch_avx2,
};
