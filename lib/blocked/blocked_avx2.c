/*
 * The blocked family's batch lookups with AVX2, four keys per register:
 * the probe of blocked/probe.h, lane by lane (the same formulas, so the
 * same answers: tests/blocked checks every shape against the scalar
 * probe). Each 64-bit lane holds one key: its block's byte offset, its
 * low hash half, and the mask of its bits in the word a group (or a bit)
 * reads, fetched with a gather. Instantiated, like the scalar probe, for
 * the shapes blocked.c compiles and once for any shape. Compiled with
 * -mavx2 alone (lib/meson.build); blocked.c calls it only when the
 * process kernel is an x86 SIMD one (so BLOCKFILTER_KERNEL=scalar means no
 * SIMD here either). Inserts stay scalar: lanes of one register may hit
 * the same word.
 */
#include "blocked/blocked.h"

#include <immintrin.h>

/* (lo * salt) mod 2^32 >> (32 - bits), per 64-bit lane (lo in the low half). */
static inline __m256i top_bits(__m256i lo, uint32_t salt, unsigned bits) {
    __m256i p = _mm256_mul_epu32(lo, _mm256_set1_epi64x(salt));
    return _mm256_srl_epi64(_mm256_slli_epi64(p, 32), _mm_cvtsi32_si128((int)(64 - bits)));
}

static inline __m256i gather_word(const uint8_t *data, __m256i off, int wide) {
    if (wide) return _mm256_i64gather_epi64((const long long *)(const void *)data, off, 1);
    return _mm256_cvtepu32_epi64(_mm256_i64gather_epi32((const int *)(const void *)data, off, 1));
}

/* Bit i of the result: key i of the four may be present. */
static inline unsigned probe4(const uint8_t *data, uint64_t nb, __m256i h, unsigned B, unsigned S,
                              unsigned Z, unsigned K, const uint32_t *salts) {
    const unsigned W = B / S, lw = bf__blocked_log2(W), per = K / Z, spg = S / Z;
    const __m256i one = _mm256_set1_epi64x(1);
    const __m256i lo = _mm256_and_si256(h, _mm256_set1_epi64x(0xffffffff));
    /* ((h >> 32) * nb) >> 32, times the block's bytes (nb < 2^32 here). */
    __m256i base = _mm256_srli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(h, 32),
                                                      _mm256_set1_epi64x((long long)nb)),
                                     32);
    base = _mm256_sll_epi64(base, _mm_cvtsi32_si128((int)bf__blocked_log2(B / 8)));
    __m256i missing = _mm256_setzero_si256();
    BF__BLOCKED_UNROLL
    for (unsigned g = 0; g < Z; g++) {
        if (W <= 64) {
            __m256i sector = _mm256_set1_epi64x((long long)(g * spg));
            if (spg > 1)
                sector = _mm256_add_epi64(
                    sector, top_bits(lo, salts[BF_BLOCKED_SEL + g], bf__blocked_log2(spg)));
            __m256i off = _mm256_add_epi64(
                base, _mm256_sll_epi64(sector, _mm_cvtsi32_si128((int)bf__blocked_log2(W / 8))));
            __m256i mask = _mm256_setzero_si256();
            BF__BLOCKED_UNROLL
            for (unsigned t = 0; t < per; t++)
                mask = _mm256_or_si256(mask,
                                       _mm256_sllv_epi64(one, top_bits(lo, salts[g * per + t], lw)));
            missing = _mm256_or_si256(missing, _mm256_andnot_si256(gather_word(data, off, W == 64), mask));
        } else {
            BF__BLOCKED_UNROLL
            for (unsigned t = 0; t < per; t++) {
                __m256i p = top_bits(lo, salts[g * per + t], lw);
                __m256i off = _mm256_add_epi64(base, _mm256_slli_epi64(_mm256_srli_epi64(p, 6), 3));
                __m256i mask = _mm256_sllv_epi64(one, _mm256_and_si256(p, _mm256_set1_epi64x(63)));
                missing = _mm256_or_si256(missing, _mm256_andnot_si256(gather_word(data, off, 1), mask));
            }
        }
    }
    __m256i hit = _mm256_cmpeq_epi64(missing, _mm256_setzero_si256());
    return (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(hit));
}

#define AVX2_BATCH(name, B, S, Z, K)                                                            \
    static size_t name(const bf_blocked *f, const uint64_t *hs, size_t n, uint8_t *out) {       \
        const bool pf = f->num_bytes >= BF_SBBF_PREFETCH_MIN_BYTES;                             \
        const unsigned bb = (B) / 8;                                                            \
        size_t hits = 0, i = 0;                                                                 \
        for (; i + 4 <= n; i += 4) {                                                            \
            if (pf && i + BF_SBBF_PREFETCH_DISTANCE + 4 <= n)                                   \
                for (unsigned j = 0; j < 4; j++)                                                \
                    __builtin_prefetch(f->data + bf__blocked_block_index(bf_sbbf_load_hash(     \
                                                     hs + i + BF_SBBF_PREFETCH_DISTANCE + j),    \
                                                 f->num_blocks) * bb);                           \
            __m256i h = _mm256_loadu_si256((const __m256i *)(const void *)(hs + i));            \
            unsigned m = probe4(f->data, f->num_blocks, h, B, S, Z, K, bf__blocked_salts);      \
            if (out)                                                                            \
                for (unsigned j = 0; j < 4; j++) out[i + j] = (uint8_t)((m >> j) & 1);          \
            hits += (size_t)__builtin_popcount(m);                                              \
        }                                                                                       \
        for (; i < n; i++) {                                                                    \
            bool hit = f->impl->contains(f, bf_sbbf_load_hash(hs + i));                         \
            if (out) out[i] = (uint8_t)hit;                                                     \
            hits += hit;                                                                        \
        }                                                                                       \
        return hits;                                                                            \
    }

AVX2_BATCH(any, f->shape.block_bits, f->shape.sectors, f->shape.groups, f->shape.k)
AVX2_BATCH(r32k4, 32, 1, 1, 4)
AVX2_BATCH(r64k4, 64, 1, 1, 4)
AVX2_BATCH(r64k6, 64, 1, 1, 6)
AVX2_BATCH(s512k8, 512, 8, 8, 8)
AVX2_BATCH(s512k16, 512, 16, 16, 16)
AVX2_BATCH(b512k8, 512, 1, 1, 8)
AVX2_BATCH(c512k6, 512, 8, 2, 6)
AVX2_BATCH(c512k8, 512, 8, 2, 8)
AVX2_BATCH(g512k8, 512, 16, 2, 8)

static const struct {
    bf_blocked_shape shape;
    bf_blocked_batch_fn fn;
} rows[] = {
    {{32, 1, 1, 4}, r32k4},     {{64, 1, 1, 4}, r64k4},       {{64, 1, 1, 6}, r64k6},
    {{512, 8, 8, 8}, s512k8},   {{512, 16, 16, 16}, s512k16}, {{512, 1, 1, 8}, b512k8},
    {{512, 8, 2, 6}, c512k6},   {{512, 8, 2, 8}, c512k8},     {{512, 16, 2, 8}, g512k8},
};

bf_blocked_batch_fn bf__blocked_avx2_contains_for(const bf_blocked_shape *s, bool specialised) {
    if (specialised)
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
            if (rows[i].shape.block_bits == s->block_bits && rows[i].shape.sectors == s->sectors &&
                rows[i].shape.groups == s->groups && rows[i].shape.k == s->k)
                return rows[i].fn;
    return any;
}
