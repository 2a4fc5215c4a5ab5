/* The NEON SBBF kernel (aarch64 Advanced SIMD, baseline there): a block is
 * two 128-bit halves, words 0-3 and 4-7. Bytes are loaded with vld1q_u8
 * (no alignment needed) and reinterpreted as four little-endian words,
 * which is what the words are on little-endian aarch64; meson builds this
 * file only for little-endian targets. */
#include "sbbf/sbbf_kernel.h"

#include <arm_neon.h>

#if BF_BIG_ENDIAN
#error "the NEON kernel assumes a little-endian target"
#endif

#if !defined(BF_INL_NEON)
#error "sbbf_neon.c needs the NEON forms of blockfilter_inline.h (no BF_NO_INLINE)"
#endif

/* The probe and set of one block are the public header's
 * (bf_inl_neon_* in blockfilter_inline.h), what a NEON caller inlines. */
static inline const uint8_t *block_of(const uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    return bits + bf_sbbf_block_index(hash, num_blocks) * 32;
}

static inline void set_block(uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    bf_inl_neon_block_set(bits + bf_sbbf_block_index(hash, num_blocks) * 32, hash);
}

static int insert_neon(uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    set_block(bits, num_blocks, hash);
    return BF_OK;
}

static inline int contains_one(const uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    return bf_inl_neon_block_test(block_of(bits, num_blocks, hash), hash);
}

static bool contains_neon(const uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    return contains_one(bits, num_blocks, hash) != 0;
}

static void insert_batch_neon(uint8_t *bits, uint64_t num_blocks, const uint64_t *hashes,
                              size_t n) {
    size_t i = 0;
    /* In order, one load-OR-store per key: repeated blocks keep every bit. */
    if (num_blocks * 32 >= BF_SBBF_PREFETCH_MIN_BYTES) {
        for (; i + BF_SBBF_PREFETCH_DISTANCE < n; i++) {
            uint64_t ahead = bf_sbbf_load_hash(hashes + i + BF_SBBF_PREFETCH_DISTANCE);
            __builtin_prefetch(block_of(bits, num_blocks, ahead), 1);
            set_block(bits, num_blocks, bf_sbbf_load_hash(hashes + i));
        }
    }
    for (; i < n; i++) set_block(bits, num_blocks, bf_sbbf_load_hash(hashes + i));
}

static size_t contains_batch_neon(const uint8_t *bits, uint64_t num_blocks,
                                  const uint64_t *hashes, size_t n, uint8_t *out) {
    size_t count = 0, i = 0;
    if (num_blocks * 32 >= BF_SBBF_PREFETCH_MIN_BYTES) {
        for (; i + BF_SBBF_PREFETCH_DISTANCE < n; i++) {
            uint64_t ahead = bf_sbbf_load_hash(hashes + i + BF_SBBF_PREFETCH_DISTANCE);
            __builtin_prefetch(block_of(bits, num_blocks, ahead), 0);
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

const bf_kernel bf__sbbf_kernel_neon = {
    "neon", BF_CPU_NEON, insert_neon, contains_neon, insert_batch_neon, contains_batch_neon,
};
