/*
 * The single-key AVX2 sequence both x86 kernels use (sbbf_avx2.c, and
 * sbbf_avx512.c for single keys and batch tails: one key has one block,
 * which fits a 256-bit register). Static inline only, and included only by
 * those two files, each compiled with its own ISA flags: nothing here can
 * end up in code built for another ISA.
 */
#ifndef BF_SBBF_X86_H
#define BF_SBBF_X86_H

#include "sbbf/sbbf_kernel.h"

#include <immintrin.h>

static const uint32_t bf_x86_salt[8] = BF_SBBF_SALTS;

static inline const uint8_t *bf_x86_block_of(const uint8_t *bits, uint64_t num_blocks,
                                             uint64_t hash) {
    return bits + bf_sbbf_block_index(hash, num_blocks) * 32;
}

static inline __m256i bf_x86_load_block(const uint8_t *p) {
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

/* Lane i: 1 << ((low32(h) * SALT[i]) >> 27); the eight lanes are the eight
 * little-endian words of a block (x86 is little-endian). */
static inline __m256i bf_x86_block_mask(uint64_t hash) {
    const __m256i s = _mm256_loadu_si256((const __m256i *)(const void *)bf_x86_salt);
    __m256i h = _mm256_set1_epi32((int)(uint32_t)hash);
    __m256i pos = _mm256_srli_epi32(_mm256_mullo_epi32(h, s), 27);
    return _mm256_sllv_epi32(_mm256_set1_epi32(1), pos);
}

static inline void bf_x86_insert_one(uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    uint8_t *p = bits + bf_sbbf_block_index(hash, num_blocks) * 32;
    __m256i v = _mm256_or_si256(bf_x86_load_block(p), bf_x86_block_mask(hash));
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}

static inline int bf_x86_contains_one(const uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    /* testc: CF = ((~block & mask) == 0), i.e. every mask bit is set. */
    return _mm256_testc_si256(bf_x86_load_block(bf_x86_block_of(bits, num_blocks, hash)),
                              bf_x86_block_mask(hash));
}

#endif
