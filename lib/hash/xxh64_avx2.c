/* The AVX2 hash kernel: four XXH64 lanes per 256-bit register, and beside
 * every eight keys so hashed, SCALAR_KEYS in general registers. AVX2 has no
 * 64-bit multiply; a * b mod 2^64 = lo(a)lo(b) + ((lo(a)hi(b) + hi(a)lo(b))
 * << 32) takes one VPMULUDQ for the first product and one VPMULLD against b
 * with its halves swapped for both cross products (their low 32 bits are
 * all that survive the shift). Measured on Zen 5 this beat three VPMULUDQ
 * (1.55 against 1.72 ns per 8-byte key) and scalar code (1.78 ns); see
 * docs/kernels.md. Rotates are two shifts and an OR. Compiled with -mavx2
 * alone; chosen only with BF_CPU_AVX2. */
#include "hash/xxh64.h"

#include <immintrin.h>

/* A constant multiplier: the constant (VPMULUDQ reads its low half), and
 * the constant with its 32-bit halves swapped. */
typedef struct {
    __m256i lo, swapped;
} mulc;

typedef struct {
    mulc p1, p2, p3;
    __m256i p4, init;
} consts;

static inline mulc make_mulc(uint64_t b) {
    mulc m = {_mm256_set1_epi64x((long long)b),
              _mm256_set1_epi64x((long long)((b >> 32) | (b << 32)))};
    return m;
}

static inline consts make_consts(uint64_t seed, uint64_t len) {
    consts c = {make_mulc(BF_XXH64_P1), make_mulc(BF_XXH64_P2), make_mulc(BF_XXH64_P3),
                _mm256_set1_epi64x((long long)BF_XXH64_P4),
                _mm256_set1_epi64x((long long)(seed + BF_XXH64_P5 + len))};
    return c;
}

static inline __m256i mul64(__m256i a, mulc b) {
    __m256i lo = _mm256_mul_epu32(a, b.lo);
    /* Per lane: low word lo(a)hi(b), high word hi(a)lo(b); adding the lane
     * shifted up 32 puts their sum in the high word. */
    __m256i cross = _mm256_mullo_epi32(a, b.swapped);
    cross = _mm256_add_epi64(cross, _mm256_slli_epi64(cross, 32));
    cross = _mm256_and_si256(cross, _mm256_set1_epi64x((long long)0xffffffff00000000ull));
    return _mm256_add_epi64(lo, cross);
}

#define ROTL(x, r) _mm256_or_si256(_mm256_slli_epi64((x), (r)), _mm256_srli_epi64((x), 64 - (r)))

static inline __m256i avalanche(__m256i h, const consts *c) {
    h = _mm256_xor_si256(h, _mm256_srli_epi64(h, 33));
    h = mul64(h, c->p2);
    h = _mm256_xor_si256(h, _mm256_srli_epi64(h, 29));
    h = mul64(h, c->p3);
    return _mm256_xor_si256(h, _mm256_srli_epi64(h, 32));
}

static inline __m256i hash8(__m256i v, const consts *c) {
    __m256i k = mul64(v, c->p2);
    k = mul64(ROTL(k, 31), c->p1);
    __m256i h = _mm256_xor_si256(c->init, k);
    h = _mm256_add_epi64(mul64(ROTL(h, 27), c->p1), c->p4);
    return avalanche(h, c);
}

static inline __m256i hash4(__m256i v, const consts *c) {
    __m256i h = _mm256_xor_si256(c->init, mul64(v, c->p1));
    h = _mm256_add_epi64(mul64(ROTL(h, 23), c->p2), c->p3.lo);
    return avalanche(h, c);
}

/* Keys hashed in general registers per eight in vector ones: the two run
 * on different execution units and overlap. On a Zen 3 guest (4096 keys,
 * in L1, pinned, minimum of 200 calls, five rounds) 8-byte keys took 1.20
 * ns a key with 8 here (1.19 with 6, 1.25 with 4, 1.57 with 12) against
 * 1.83 vector alone and 2.6-2.9 scalar alone; 4-byte keys 0.99 (4-8)
 * against 1.38 and 2.0. */
#define SCALAR_KEYS 8
static void u64_avx2(const void *keys, size_t n, uint64_t seed, uint64_t *out) {
    const uint8_t *p = keys;
    const consts c = make_consts(seed, 8);
    size_t i = 0;
    for (; i + 8 + SCALAR_KEYS <= n; i += 8 + SCALAR_KEYS) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(p + 8 * i));
        __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(p + 8 * i + 32));
        for (unsigned j = 8; j < 8 + SCALAR_KEYS; j++)
            bf_xxh_store64(out + i + j, bf_xxh64_u64(bf_xxh_load64(p + 8 * (i + j)), seed));
        _mm256_storeu_si256((__m256i *)(void *)(out + i), hash8(a, &c));
        _mm256_storeu_si256((__m256i *)(void *)(out + i + 4), hash8(b, &c));
    }
    for (; i < n; i++) bf_xxh_store64(out + i, bf_xxh64_u64(bf_xxh_load64(p + 8 * i), seed));
}

static void u32_avx2(const void *keys, size_t n, uint64_t seed, uint64_t *out) {
    const uint8_t *p = keys;
    const consts c = make_consts(seed, 4);
    size_t i = 0;
    for (; i + 8 + SCALAR_KEYS <= n; i += 8 + SCALAR_KEYS) {
        for (unsigned j = 8; j < 8 + SCALAR_KEYS; j++)
            bf_xxh_store64(out + i + j, bf_xxh64_u32(bf_xxh_load32(p + 4 * (i + j)), seed));
        __m256i ab = _mm256_loadu_si256((const __m256i *)(const void *)(p + 4 * i));
        __m256i a = _mm256_cvtepu32_epi64(_mm256_castsi256_si128(ab));
        __m256i b = _mm256_cvtepu32_epi64(_mm256_extracti128_si256(ab, 1));
        _mm256_storeu_si256((__m256i *)(void *)(out + i), hash4(a, &c));
        _mm256_storeu_si256((__m256i *)(void *)(out + i + 4), hash4(b, &c));
    }
    for (; i < n; i++) bf_xxh_store64(out + i, bf_xxh64_u32(bf_xxh_load32(p + 4 * i), seed));
}

const bf_hash_kernel bf__hash_kernel_avx2 = {"avx2", BF_CPU_AVX2, u32_avx2, u64_avx2};
