/* The NEON hash kernel (aarch64 Advanced SIMD): two XXH64 lanes per
 * 128-bit register. NEON has no 64-bit lane multiply: a * b mod 2^64 is
 * UMULL of the low halves plus the cross products (one 32-bit MUL against
 * b with its halves swapped, pairwise-added with UADDLP) shifted up 32.
 * Rotates are SHL + SRI. Built for little-endian aarch64 only (meson), as
 * the SBBF NEON kernel: a loaded lane is then the value itself. */
#include "hash/xxh64.h"

#include <arm_neon.h>

#if BF_BIG_ENDIAN
#error "the NEON hash kernel assumes a little-endian target"
#endif

/* A constant multiplier: its low halves (for UMULL) and its 32-bit halves
 * swapped (for the cross products). */
typedef struct {
    uint32x2_t lo;
    uint32x4_t swapped;
} mulc;

typedef struct {
    mulc p1, p2, p3;
    uint64x2_t p3v, p4, init;
} consts;

static inline mulc make_mulc(uint64_t b) {
    uint64x2_t v = vdupq_n_u64(b);
    mulc m = {vmovn_u64(v), vrev64q_u32(vreinterpretq_u32_u64(v))};
    return m;
}

static inline consts make_consts(uint64_t seed, uint64_t len) {
    consts c = {make_mulc(BF_XXH64_P1), make_mulc(BF_XXH64_P2), make_mulc(BF_XXH64_P3),
                vdupq_n_u64(BF_XXH64_P3), vdupq_n_u64(BF_XXH64_P4), vdupq_n_u64(seed + BF_XXH64_P5 + len)};
    return c;
}

static inline uint64x2_t mul64(uint64x2_t a, mulc b) {
    /* [lo(a) hi(b), hi(a) lo(b)] per lane, summed into 64 bits. */
    uint32x4_t cross32 = vmulq_u32(vreinterpretq_u32_u64(a), b.swapped);
    uint64x2_t cross = vshlq_n_u64(vpaddlq_u32(cross32), 32);
    return vmlal_u32(cross, vmovn_u64(a), b.lo);
}

#define ROTL(x, r) vsriq_n_u64(vshlq_n_u64((x), (r)), (x), 64 - (r))

static inline uint64x2_t avalanche(uint64x2_t h, const consts *c) {
    h = veorq_u64(h, vshrq_n_u64(h, 33));
    h = mul64(h, c->p2);
    h = veorq_u64(h, vshrq_n_u64(h, 29));
    h = mul64(h, c->p3);
    return veorq_u64(h, vshrq_n_u64(h, 32));
}

static inline uint64x2_t hash8(uint64x2_t v, const consts *c) {
    uint64x2_t k = mul64(ROTL(mul64(v, c->p2), 31), c->p1);
    uint64x2_t h = veorq_u64(c->init, k);
    h = vaddq_u64(mul64(ROTL(h, 27), c->p1), c->p4);
    return avalanche(h, c);
}

static inline uint64x2_t hash4(uint64x2_t v, const consts *c) {
    uint64x2_t h = veorq_u64(c->init, mul64(v, c->p1));
    h = vaddq_u64(mul64(ROTL(h, 23), c->p2), c->p3v);
    return avalanche(h, c);
}

static void u64_neon(const void *keys, size_t n, uint64_t seed, uint64_t *out) {
    const uint8_t *p = keys;
    const consts c = make_consts(seed, 8);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        uint64x2_t a = vreinterpretq_u64_u8(vld1q_u8(p + 8 * i));
        uint64x2_t b = vreinterpretq_u64_u8(vld1q_u8(p + 8 * i + 16));
        vst1q_u8((uint8_t *)(void *)(out + i), vreinterpretq_u8_u64(hash8(a, &c)));
        vst1q_u8((uint8_t *)(void *)(out + i + 2), vreinterpretq_u8_u64(hash8(b, &c)));
    }
    for (; i < n; i++) bf_xxh_store64(out + i, bf_xxh64_u64(bf_xxh_load64(p + 8 * i), seed));
}

static void u32_neon(const void *keys, size_t n, uint64_t seed, uint64_t *out) {
    const uint8_t *p = keys;
    const consts c = make_consts(seed, 4);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        uint32x4_t ab = vreinterpretq_u32_u8(vld1q_u8(p + 4 * i));
        uint64x2_t a = vmovl_u32(vget_low_u32(ab));
        uint64x2_t b = vmovl_u32(vget_high_u32(ab));
        vst1q_u8((uint8_t *)(void *)(out + i), vreinterpretq_u8_u64(hash4(a, &c)));
        vst1q_u8((uint8_t *)(void *)(out + i + 2), vreinterpretq_u8_u64(hash4(b, &c)));
    }
    for (; i < n; i++) bf_xxh_store64(out + i, bf_xxh64_u32(bf_xxh_load32(p + 4 * i), seed));
}

const bf_hash_kernel bf__hash_kernel_neon = {"neon", BF_CPU_NEON, u32_neon, u64_neon};
