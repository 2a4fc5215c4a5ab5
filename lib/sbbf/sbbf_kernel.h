/*
 * The SBBF kernel interface and the helpers every kernel shares.
 * Everything here is static inline or a declaration: a non-inline helper
 * compiled with -mavx2 could be picked by the linker for a scalar caller.
 */
#ifndef BF_SBBF_KERNEL_H
#define BF_SBBF_KERNEL_H

#include "common/internal.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CPU feature bits (cpu.c). */
enum {
    BF_CPU_AVX2 = 1u << 0,     /* AVX2 + OS saves YMM */
    BF_CPU_AVX512 = 1u << 1,   /* AVX-512 F, BW, VL + OS saves ZMM/opmask */
    BF_CPU_NEON = 1u << 2,     /* aarch64 Advanced SIMD */
    BF_CPU_AVX512DQ = 1u << 3, /* AVX-512 DQ (VPMULLQ), with BF_CPU_AVX512 */
    BF_CPU_AVX512BITSEL = 1u << 4 /* AVX-512 VBMI and BITALG (VPERMB, VPSHUFBITQMB), with
                                   * BF_CPU_AVX512 */
};
BF_HIDDEN uint32_t bf__cpu_features(void);

/*
 * A kernel works on the raw bitset: num_blocks 32-byte blocks of eight
 * little-endian 32-bit words. bits may have any alignment (views), so
 * kernels use unaligned loads. Every kernel produces identical bits and
 * answers to the scalar one.
 */
typedef struct bf_kernel {
    const char *name;
    uint32_t required;  /* BF_CPU_* bits */
    /* Returns BF_OK, so that bf_sbbf_insert_hash, which returns a status,
     * can end in a tail call (no stack frame, no extra instructions). */
    int (*insert)(uint8_t *bits, uint64_t num_blocks, uint64_t hash);
    bool (*contains)(const uint8_t *bits, uint64_t num_blocks, uint64_t hash);
    void (*insert_batch)(uint8_t *bits, uint64_t num_blocks,
                         const uint64_t *hashes, size_t n);
    size_t (*contains_batch)(const uint8_t *bits, uint64_t num_blocks,
                             const uint64_t *hashes, size_t n, uint8_t *out);
} bf_kernel;

BF_HIDDEN extern const bf_kernel bf__sbbf_kernel_scalar;
#if defined(BF_HAVE_AVX2)
BF_HIDDEN extern const bf_kernel bf__sbbf_kernel_avx2;
#endif
#if defined(BF_HAVE_AVX512)
BF_HIDDEN extern const bf_kernel bf__sbbf_kernel_avx512;
#endif
#if defined(BF_HAVE_NEON)
BF_HIDDEN extern const bf_kernel bf__sbbf_kernel_neon;
#endif

/* dispatch.c */
BF_HIDDEN const bf_kernel *bf__sbbf_kernel_by_name(const char *name);
/* The process default (BLOCKFILTER_KERNEL or best supported); NULL if the
 * variable names an unknown or unsupported kernel. */
BF_HIDDEN const bf_kernel *bf__sbbf_kernel_default(void);

/* The salts (BF_SBBF_SALTS), the block of a hash (bf_sbbf_block_index),
 * the bit of a word (bf_sbbf_word_mask) and the probe and set of a block
 * in plain C (bf_sbbf_block_test / bf_sbbf_block_set), AVX2 and NEON
 * (bf_inl_avx2_* / bf_inl_neon_*) are the public blockfilter_inline.h's:
 * one definition for the kernels and the header's inline paths. */

/* How far ahead batch loops prefetch (keys), and the filter size from which
 * they do: below it the bitset sits in L1/L2 and the prefetch is pure
 * overhead (measured: see docs/kernels.md). */
#define BF_SBBF_PREFETCH_DISTANCE 24
#define BF_SBBF_PREFETCH_MIN_BYTES ((uint64_t)1 << 20)

/* One hash of a caller's array, which may be misaligned. */
static inline uint64_t bf_sbbf_load_hash(const uint64_t *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

#endif
