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

static const uint32_t salt[8] = BF_SBBF_SALTS;

typedef struct {
    uint32x4_t lo, hi;
} mask8;

static inline mask8 block_mask(uint64_t hash) {
    const uint32x4_t one = vdupq_n_u32(1);
    uint32x4_t h = vdupq_n_u32((uint32_t)hash);
    int32x4_t plo = vreinterpretq_s32_u32(vshrq_n_u32(vmulq_u32(h, vld1q_u32(salt)), 27));
    int32x4_t phi = vreinterpretq_s32_u32(vshrq_n_u32(vmulq_u32(h, vld1q_u32(salt + 4)), 27));
    mask8 m = {vshlq_u32(one, plo), vshlq_u32(one, phi)};
    return m;
}

static inline const uint8_t *block_of(const uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    return bits + bf_sbbf_block_index(hash, num_blocks) * 32;
}

static inline void set_block(uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    uint8_t *p = bits + bf_sbbf_block_index(hash, num_blocks) * 32;
    mask8 m = block_mask(hash);
    uint32x4_t lo = vorrq_u32(vreinterpretq_u32_u8(vld1q_u8(p)), m.lo);
    uint32x4_t hi = vorrq_u32(vreinterpretq_u32_u8(vld1q_u8(p + 16)), m.hi);
    vst1q_u8(p, vreinterpretq_u8_u32(lo));
    vst1q_u8(p + 16, vreinterpretq_u8_u32(hi));
}

static int insert_neon(uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    set_block(bits, num_blocks, hash);
    return BF_OK;
}

static inline int contains_one(const uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    const uint8_t *p = block_of(bits, num_blocks, hash);
    mask8 m = block_mask(hash);
    /* Mask bits the block lacks: m & ~block (BIC). */
    uint32x4_t miss = vorrq_u32(vbicq_u32(m.lo, vreinterpretq_u32_u8(vld1q_u8(p))),
                                vbicq_u32(m.hi, vreinterpretq_u32_u8(vld1q_u8(p + 16))));
    return vmaxvq_u32(miss) == 0;
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
