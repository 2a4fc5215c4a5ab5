/*
 * The blocked family's batch lookups and inserts with AVX2, four keys per
 * register (the template blocked/blocked_simd.h). Compiled with -mavx2 alone
 * (lib/meson.build); blocked.c calls it when the process kernel is avx2
 * (so BLOCKFILTER_KERNEL=scalar means no SIMD here either).
 */
#include <immintrin.h>

#define V __m256i
#define LANES 4u
#define V_SET1(x) _mm256_set1_epi64x((long long)(x))
#define V_MUL_EPU32 _mm256_mul_epu32
#define V_SLLI _mm256_slli_epi64
#define V_SRLI _mm256_srli_epi64
#define V_SLL(a, n) _mm256_sll_epi64(a, _mm_cvtsi32_si128((int)(n)))
#define V_SRL(a, n) _mm256_srl_epi64(a, _mm_cvtsi32_si128((int)(n)))
#define V_SLLV _mm256_sllv_epi64
#define V_AND _mm256_and_si256
#define V_OR _mm256_or_si256
#define V_ANDNOT _mm256_andnot_si256
#define V_ADD _mm256_add_epi64
#define V_ZERO _mm256_setzero_si256
#define V_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define V_STOREU(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define V_GATHER64(d, off) _mm256_i64gather_epi64((const long long *)(const void *)(d), off, 1)
#define V_GATHER32(d, off) \
    _mm256_cvtepu32_epi64(_mm256_i64gather_epi32((const int *)(const void *)(d), off, 1))
#define V_ZERO_LANES(m) \
    ((unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(m, _mm256_setzero_si256()))))
#define SIMD_NAME(x) x##_avx2
#define CONTAINS_FOR bf__blocked_avx2_contains_for
#define INSERT_FOR bf__blocked_avx2_insert_for

#include "blocked/blocked_simd.h"
