/*
 * The blocked family's batch lookups and inserts with AVX-512, eight keys
 * per register (the template blocked/blocked_simd.h). Compiled with the AVX-512 kernel's
 * flags alone (lib/meson.build); blocked.c calls it when the process
 * kernel is avx512.
 */
#include <immintrin.h>

#define V __m512i
#define LANES 8u
#define V_SET1(x) _mm512_set1_epi64((long long)(x))
#define V_MUL_EPU32 _mm512_mul_epu32
#define V_SLLI _mm512_slli_epi64
#define V_SRLI _mm512_srli_epi64
#define V_SLL(a, n) _mm512_sll_epi64(a, _mm_cvtsi32_si128((int)(n)))
#define V_SRL(a, n) _mm512_srl_epi64(a, _mm_cvtsi32_si128((int)(n)))
#define V_SLLV _mm512_sllv_epi64
#define V_AND _mm512_and_si512
#define V_OR _mm512_or_si512
#define V_ANDNOT _mm512_andnot_si512
#define V_ADD _mm512_add_epi64
#define V_ZERO _mm512_setzero_si512
#define V_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define V_STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define V_GATHER64(d, off) _mm512_i64gather_epi64(off, (const void *)(d), 1)
#define V_GATHER32(d, off) _mm512_cvtepu32_epi64(_mm512_i64gather_epi32(off, (const void *)(d), 1))
#define V_ZERO_LANES(m) ((unsigned)_mm512_cmpeq_epi64_mask(m, _mm512_setzero_si512()))
#define SIMD_NAME(x) x##_avx512
#define CONTAINS_FOR bf__blocked_avx512_contains_for
#define INSERT_FOR bf__blocked_avx512_insert_for

#include "blocked/blocked_simd.h"
