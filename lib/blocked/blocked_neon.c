/*
 * The blocked family's batch lookups and inserts with NEON, two keys per
 * register (the template blocked/blocked_simd.h). NEON has no gather: each
 * lane's word is loaded on its own (any alignment) and the lanes are put
 * back in a register; the hashing of the key's bits, its sector and its
 * block offset run two lanes at a time (for inserts too, whose words are
 * or-ed in lane by lane on every ISA). Compiled for little-endian aarch64 only
 * (lib/meson.build): the words are read as they lie in memory, which is
 * little-endian there. blocked.c calls it when the process kernel is neon.
 */
#include "common/internal.h"

#include <arm_neon.h>

#if BF_BIG_ENDIAN
#error "the blocked NEON lookups assume a little-endian target"
#endif

/* The word of `bytes` bytes at d + each lane's offset, zero-extended. */
static inline uint64x2_t bf__blocked_neon_gather(const uint8_t *d, uint64x2_t off,
                                                 size_t bytes) {
    uint64_t w[2] = {0, 0};
    memcpy(&w[0], d + vgetq_lane_u64(off, 0), bytes);
    memcpy(&w[1], d + vgetq_lane_u64(off, 1), bytes);
    return vld1q_u64(w);
}

static inline uint64x2_t bf__blocked_neon_loadu(const uint64_t *p) {
    uint64_t w[2];
    memcpy(w, p, sizeof w);
    return vld1q_u64(w);
}

/* Bit j: lane j is zero. */
static inline unsigned bf__blocked_neon_zero_lanes(uint64x2_t m) {
    uint64x2_t z = vceqzq_u64(m);
    return (unsigned)(vgetq_lane_u64(z, 0) & 1) | (unsigned)(vgetq_lane_u64(z, 1) & 1) << 1;
}

#define V uint64x2_t
#define LANES 2u
#define V_SET1(x) vdupq_n_u64((uint64_t)(x))
/* The low 32 bits of each lane, multiplied into 64 bits (_mm_mul_epu32). */
#define V_MUL_EPU32(a, b) vmull_u32(vmovn_u64(a), vmovn_u64(b))
/* A 32-bit multiply per 32-bit half (_mm_mullo_epi32). */
#define V_MULLO32(a, b) \
    vreinterpretq_u64_u32(vmulq_u32(vreinterpretq_u32_u64(a), vreinterpretq_u32_u64(b)))
#define V_SLL(a, n) vshlq_u64(a, vdupq_n_s64((int64_t)(n)))
#define V_SRL(a, n) vshlq_u64(a, vdupq_n_s64(-(int64_t)(n)))
#define V_SLLI(a, n) V_SLL(a, n)
#define V_SRLI(a, n) V_SRL(a, n)
#define V_SLLV(a, n) vshlq_u64(a, vreinterpretq_s64_u64(n))
#define V_AND vandq_u64
#define V_OR vorrq_u64
/* ~a & b, as _mm_andnot. */
#define V_ANDNOT(a, b) vbicq_u64(b, a)
#define V_ADD vaddq_u64
#define V_ZERO() vdupq_n_u64(0)
#define V_LOADU(p) bf__blocked_neon_loadu(p)
#define V_STOREU(p, v) vst1q_u64(p, v)
#define V_GATHER64(d, off) bf__blocked_neon_gather(d, off, 8)
#define V_GATHER32(d, off) bf__blocked_neon_gather(d, off, 4)
#define V_ZERO_LANES(m) bf__blocked_neon_zero_lanes(m)
#define SIMD_NAME(x) x##_neon
#define CONTAINS_FOR bf__blocked_neon_contains_for
#define INSERT_FOR bf__blocked_neon_insert_for

#include "blocked/blocked_simd.h"
