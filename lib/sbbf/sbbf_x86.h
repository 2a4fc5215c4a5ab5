/*
 * The single-key AVX2 sequence both x86 kernels use (sbbf_avx2.c, and
 * sbbf_avx512.c for single keys and batch tails: one key has one block,
 * which fits a 256-bit register): the public header's AVX2 probe and set
 * (bf_inl_avx2_* in blockfilter_inline.h), the sequence an AVX2 caller
 * inlines. Static inline only, and included only by those two files, each
 * compiled with its own ISA flags: nothing here can end up in code built
 * for another ISA.
 */
#ifndef BF_SBBF_X86_H
#define BF_SBBF_X86_H

#include "sbbf/sbbf_kernel.h"

#if !defined(BF_INL_AVX2_FORMS)
#error "sbbf_x86.h needs the AVX2 forms of blockfilter_inline.h (-mavx2, no BF_NO_INLINE)"
#endif

static inline const uint8_t *bf_x86_block_of(const uint8_t *bits, uint64_t num_blocks,
                                             uint64_t hash) {
    return bits + bf_sbbf_block_index(hash, num_blocks) * 32;
}

static inline __m256i bf_x86_load_block(const uint8_t *p) {
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}

static inline void bf_x86_insert_one(uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    bf_inl_avx2_block_set(bits + bf_sbbf_block_index(hash, num_blocks) * 32, hash);
}

static inline int bf_x86_contains_one(const uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    return bf_inl_avx2_block_test(bf_x86_block_of(bits, num_blocks, hash), hash);
}

#endif
