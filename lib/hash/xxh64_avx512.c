/* The AVX-512 hash kernel: eight XXH64 lanes per 512-bit register.
 * VPMULLQ (the 64-bit multiply) is AVX-512 DQ, VPROLQ AVX-512 F and the
 * masked 256-bit tail load AVX-512 VL; this file is compiled with
 * -mavx512f -mavx512dq -mavx512vl alone and chosen only when cpu.c reports
 * all three (BF_CPU_AVX512 | BF_CPU_AVX512DQ). x86 is
 * little-endian, so a loaded lane is the value whose bytes XXH64 reads. */
#include "hash/xxh64.h"

#include <immintrin.h>

typedef struct {
    __m512i p1, p2, p3, p4, init;
} consts;

static inline consts make_consts(uint64_t seed, uint64_t len) {
    consts c = {_mm512_set1_epi64((long long)BF_XXH64_P1), _mm512_set1_epi64((long long)BF_XXH64_P2),
                _mm512_set1_epi64((long long)BF_XXH64_P3), _mm512_set1_epi64((long long)BF_XXH64_P4),
                _mm512_set1_epi64((long long)(seed + BF_XXH64_P5 + len))};
    return c;
}

static inline __m512i avalanche(__m512i h, const consts *c) {
    h = _mm512_xor_si512(h, _mm512_srli_epi64(h, 33));
    h = _mm512_mullo_epi64(h, c->p2);
    h = _mm512_xor_si512(h, _mm512_srli_epi64(h, 29));
    h = _mm512_mullo_epi64(h, c->p3);
    return _mm512_xor_si512(h, _mm512_srli_epi64(h, 32));
}

static inline __m512i hash8(__m512i v, const consts *c) {
    __m512i k = _mm512_mullo_epi64(_mm512_rol_epi64(_mm512_mullo_epi64(v, c->p2), 31), c->p1);
    __m512i h = _mm512_xor_si512(c->init, k);
    h = _mm512_add_epi64(_mm512_mullo_epi64(_mm512_rol_epi64(h, 27), c->p1), c->p4);
    return avalanche(h, c);
}

static inline __m512i hash4(__m512i v, const consts *c) {
    __m512i h = _mm512_xor_si512(c->init, _mm512_mullo_epi64(v, c->p1));
    h = _mm512_add_epi64(_mm512_mullo_epi64(_mm512_rol_epi64(h, 23), c->p2), c->p3);
    return avalanche(h, c);
}

static void u64_avx512(const void *keys, size_t n, uint64_t seed, uint64_t *out) {
    const uint8_t *p = keys;
    const consts c = make_consts(seed, 8);
    size_t i = 0;
    /* Two registers per step: the multiply chains of one key are serial,
     * so independent work hides their latency. */
    for (; i + 16 <= n; i += 16) {
        __m512i a = _mm512_loadu_si512((const void *)(p + 8 * i));
        __m512i b = _mm512_loadu_si512((const void *)(p + 8 * i + 64));
        _mm512_storeu_si512((void *)(out + i), hash8(a, &c));
        _mm512_storeu_si512((void *)(out + i + 8), hash8(b, &c));
    }
    /* The last 1-15 keys: masked loads and stores, never past n. */
    for (; i < n; i += 8) {
        size_t m = n - i < 8 ? n - i : 8;
        __mmask8 k = (__mmask8)((1u << m) - 1);
        __m512i a = _mm512_maskz_loadu_epi64(k, (const void *)(p + 8 * i));
        _mm512_mask_storeu_epi64((void *)(out + i), k, hash8(a, &c));
    }
}

static void u32_avx512(const void *keys, size_t n, uint64_t seed, uint64_t *out) {
    const uint8_t *p = keys;
    const consts c = make_consts(seed, 4);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512i ab = _mm512_loadu_si512((const void *)(p + 4 * i));
        __m512i a = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(ab));
        __m512i b = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(ab, 1));
        _mm512_storeu_si512((void *)(out + i), hash4(a, &c));
        _mm512_storeu_si512((void *)(out + i + 8), hash4(b, &c));
    }
    for (; i < n; i += 8) {
        size_t m = n - i < 8 ? n - i : 8;
        __mmask8 k = (__mmask8)((1u << m) - 1);
        __m256i a = _mm256_maskz_loadu_epi32(k, (const void *)(p + 4 * i));
        _mm512_mask_storeu_epi64((void *)(out + i), k, hash4(_mm512_cvtepu32_epi64(a), &c));
    }
}

const bf_hash_kernel bf__hash_kernel_avx512 = {"avx512", BF_CPU_AVX512 | BF_CPU_AVX512DQ,
                                                u32_avx512, u64_avx512};
