/*
 * The blocked family's batch lookups with SIMD, several keys per register:
 * the probe of blocked/probe.h, lane by lane (the same formulas, so the
 * same answers: tests/blocked and the blocked_kernels fuzz target check
 * every shape against the scalar probe). Each 64-bit lane holds one key:
 * its block's byte offset, its low hash half, and the mask of its bits in
 * the word a group (or a bit) reads, fetched with a gather. Instantiated,
 * like the scalar probe, for the shapes of the matrix and once for any
 * shape. Inserts stay scalar: lanes of one register may hit the same word.
 *
 * A template: an ISA file (blocked_avx2.c, blocked_avx512.c) defines the
 * vector type V, LANES, the V_* operations on 64-bit lanes, SIMD_NAME(x)
 * (x with the ISA's suffix: its names stay apart where both files are one
 * translation unit, the amalgamation) and CONTAINS_FOR (the name of its
 * lookup), then includes this once. The guard is released at the end, so
 * the next ISA file gets its own copy.
 */
#ifndef BF_BLOCKED_SIMD_H
#define BF_BLOCKED_SIMD_H

#include "blocked/blocked.h"

/* (lo * salt) mod 2^32 >> (32 - bits), per 64-bit lane (lo in the low half). */
static inline V SIMD_NAME(top_bits)(V lo, uint32_t salt, unsigned bits) {
    V p = V_MUL_EPU32(lo, V_SET1(salt));
    return V_SRL(V_SLLI(p, 32), 64 - bits);
}

/* Bit i of the result: key i of the LANES may be present. */
static inline unsigned SIMD_NAME(probe)(const uint8_t *data, uint64_t nb, V h, unsigned B, unsigned S,
                             unsigned Z, unsigned K, const uint32_t *salts) {
    const unsigned W = B / S, lw = bf__blocked_log2(W), per = K / Z, spg = S / Z;
    const V one = V_SET1(1);
    const V lo = V_AND(h, V_SET1(0xffffffff));
    /* ((h >> 32) * nb) >> 32, times the block's bytes (nb < 2^32 here). */
    V base = V_SRLI(V_MUL_EPU32(V_SRLI(h, 32), V_SET1(nb)), 32);
    base = V_SLL(base, bf__blocked_log2(B / 8));
    V missing = V_ZERO();
    BF__BLOCKED_UNROLL
    for (unsigned g = 0; g < Z; g++) {
        if (W <= 64) {
            V sector = V_SET1(g * spg);
            if (spg > 1)
                sector = V_ADD(sector, SIMD_NAME(top_bits)(lo, salts[BF_BLOCKED_SEL + g], bf__blocked_log2(spg)));
            V off = V_ADD(base, V_SLL(sector, bf__blocked_log2(W / 8)));
            V mask = V_ZERO();
            BF__BLOCKED_UNROLL
            for (unsigned t = 0; t < per; t++)
                mask = V_OR(mask, V_SLLV(one, SIMD_NAME(top_bits)(lo, salts[g * per + t], lw)));
            V word = W == 64 ? V_GATHER64(data, off) : V_GATHER32(data, off);
            missing = V_OR(missing, V_ANDNOT(word, mask));
        } else {
            BF__BLOCKED_UNROLL
            for (unsigned t = 0; t < per; t++) {
                V p = SIMD_NAME(top_bits)(lo, salts[g * per + t], lw);
                V off = V_ADD(base, V_SLLI(V_SRLI(p, 6), 3));
                V mask = V_SLLV(one, V_AND(p, V_SET1(63)));
                missing = V_OR(missing, V_ANDNOT(V_GATHER64(data, off), mask));
            }
        }
    }
    return V_ZERO_LANES(missing);
}

#define SIMD_BATCH(name, B, S, Z, K)                                                            \
    static size_t SIMD_NAME(name)(const bf_blocked *f, const uint64_t *hs, size_t n,            \
                                  uint8_t *out) {                                             \
        const bool pf = f->num_bytes >= BF_SBBF_PREFETCH_MIN_BYTES;                             \
        const unsigned bb = (B) / 8;                                                            \
        size_t hits = 0, i = 0;                                                                 \
        for (; i + LANES <= n; i += LANES) {                                                            \
            if (pf && i + BF_SBBF_PREFETCH_DISTANCE + LANES <= n)                               \
                for (unsigned j = 0; j < LANES; j++)                                                \
                    __builtin_prefetch(f->data + bf__blocked_block_index(bf_sbbf_load_hash(     \
                                                     hs + i + BF_SBBF_PREFETCH_DISTANCE + j),    \
                                                 f->num_blocks) * bb);                           \
            V h = V_LOADU(hs + i);                                                              \
            unsigned m = SIMD_NAME(probe)(f->data, f->num_blocks, h, B, S, Z, K, bf__blocked_salts);       \
            if (out)                                                                            \
                for (unsigned j = 0; j < LANES; j++) out[i + j] = (uint8_t)((m >> j) & 1);      \
            hits += (size_t)__builtin_popcount(m);                                              \
        }                                                                                       \
        for (; i < n; i++) {                                                                    \
            bool hit = f->impl->contains(f, bf_sbbf_load_hash(hs + i));                         \
            if (out) out[i] = (uint8_t)hit;                                                     \
            hits += hit;                                                                        \
        }                                                                                       \
        return hits;                                                                            \
    }

SIMD_BATCH(any, f->shape.block_bits, f->shape.sectors, f->shape.groups, f->shape.k)
SIMD_BATCH(r32k4, 32, 1, 1, 4)
SIMD_BATCH(r64k4, 64, 1, 1, 4)
SIMD_BATCH(r64k6, 64, 1, 1, 6)
SIMD_BATCH(s512k8, 512, 8, 8, 8)
SIMD_BATCH(s512k16, 512, 16, 16, 16)
SIMD_BATCH(b512k8, 512, 1, 1, 8)
SIMD_BATCH(c512k6, 512, 8, 2, 6)
SIMD_BATCH(c512k8, 512, 8, 2, 8)
SIMD_BATCH(g512k8, 512, 16, 2, 8)

static const struct {
    bf_blocked_shape shape;
    bf_blocked_batch_fn fn;
} SIMD_NAME(rows)[] = {
    {{32, 1, 1, 4}, SIMD_NAME(r32k4)},     {{64, 1, 1, 4}, SIMD_NAME(r64k4)},       {{64, 1, 1, 6}, SIMD_NAME(r64k6)},
    {{512, 8, 8, 8}, SIMD_NAME(s512k8)},   {{512, 16, 16, 16}, SIMD_NAME(s512k16)}, {{512, 1, 1, 8}, SIMD_NAME(b512k8)},
    {{512, 8, 2, 6}, SIMD_NAME(c512k6)},   {{512, 8, 2, 8}, SIMD_NAME(c512k8)},     {{512, 16, 2, 8}, SIMD_NAME(g512k8)},
};

bf_blocked_batch_fn CONTAINS_FOR(const bf_blocked_shape *s, bool specialised) {
    if (specialised)
        for (size_t i = 0; i < sizeof SIMD_NAME(rows) / sizeof SIMD_NAME(rows)[0]; i++)
            if (!memcmp(&SIMD_NAME(rows)[i].shape, s, sizeof *s)) return SIMD_NAME(rows)[i].fn;
    return SIMD_NAME(any);
}

#undef BF_BLOCKED_SIMD_H /* a template: the next ISA file includes it again */
#endif
