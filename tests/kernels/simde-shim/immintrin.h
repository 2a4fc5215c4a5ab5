/*
 * Test-only stand-in for <immintrin.h>: the x86 intrinsics as SIMDe's
 * portable C implementations (Debian: libsimde-dev). The kernel-emulation
 * test compiles lib/sbbf/sbbf_avx2.c and lib/sbbf/sbbf_avx512.c with this directory
 * first on the include path and without any -mavx2/-mavx512* flag, so the
 * kernels' own logic runs on any CPU (one that hides AVX-512, aarch64 under
 * qemu) and is compared with the scalar kernel. Never used by lib/ itself.
 *
 * SIMDE_NO_NATIVE (set here, before any SIMDe header) keeps SIMDe from
 * using the host's own SIMD: the same portable code on every host, and no
 * system <immintrin.h> is ever reached through this file's name.
 *
 * SIMDe covers every AVX/AVX2/AVX-512 intrinsic the kernels use, and
 * _mm_prefetch (as __builtin_prefetch). It has no POPCNT/BMI/BMI2 headers:
 * the scalar ones a kernel might use are defined below, and its portable
 * 32-bit mullo is replaced (signed overflow, see there). An intrinsic that
 * is missing anywhere is an implicit declaration, which the test build
 * makes an error (-Werror=implicit-function-declaration).
 *
 * BF_EMU_MUTANT selects a deliberately wrong intrinsic, so the test can
 * prove it catches a broken kernel:
 *   0  none (the real check)
 *   1  _mm512_permutexvar_epi32 reads index ^ 2: the two keys of an
 *      AVX-512 pair swap their 32-bit hash halves (a wrong lane permutation)
 *   2  _mm256_mullo_epi32 multiplies by its second operand rotated by one
 *      lane: each word of a block gets the next word's salt
 *   3  _mm512_rol_epi64 rotates one bit too few (AVX-512 hash kernel)
 *   4  _mm256_mul_epu32 multiplies signed, as _mm256_mul_epi32 does (AVX2
 *      hash kernel: wrong whenever a low half has its top bit set)
 */
#ifndef BF_TEST_SIMDE_SHIM_IMMINTRIN_H
#define BF_TEST_SIMDE_SHIM_IMMINTRIN_H

#if !defined(SIMDE_NO_NATIVE)
#define SIMDE_NO_NATIVE
#endif
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>

#include <stdint.h>
#include <string.h>

/* POPCNT */
static inline int bf_emu_popcnt_u32(unsigned int a) { return __builtin_popcount(a); }
static inline long long bf_emu_popcnt_u64(unsigned long long a) { return __builtin_popcountll(a); }
#define _mm_popcnt_u32(a) bf_emu_popcnt_u32(a)
#define _mm_popcnt_u64(a) bf_emu_popcnt_u64(a)

/* BMI1: tzcnt/lzcnt are defined for 0 (the operand width). */
static inline unsigned int bf_emu_tzcnt_u32(unsigned int a) {
    return a ? (unsigned int)__builtin_ctz(a) : 32u;
}
static inline unsigned long long bf_emu_tzcnt_u64(unsigned long long a) {
    return a ? (unsigned long long)__builtin_ctzll(a) : 64u;
}
static inline unsigned int bf_emu_lzcnt_u32(unsigned int a) {
    return a ? (unsigned int)__builtin_clz(a) : 32u;
}
static inline unsigned long long bf_emu_lzcnt_u64(unsigned long long a) {
    return a ? (unsigned long long)__builtin_clzll(a) : 64u;
}
#define _tzcnt_u32(a) bf_emu_tzcnt_u32(a)
#define _tzcnt_u64(a) bf_emu_tzcnt_u64(a)
#define _lzcnt_u32(a) bf_emu_lzcnt_u32(a)
#define _lzcnt_u64(a) bf_emu_lzcnt_u64(a)
#define _blsr_u32(a) ((unsigned int)(a) & ((unsigned int)(a) - 1u))
#define _blsr_u64(a) ((unsigned long long)(a) & ((unsigned long long)(a) - 1u))

/* BMI2 */
static inline unsigned long long bf_emu_bzhi_u64(unsigned long long a, unsigned int i) {
    i &= 0xffu;
    return i >= 64 ? a : a & ((1ull << i) - 1u);
}
static inline unsigned long long bf_emu_pext_u64(unsigned long long a, unsigned long long m) {
    unsigned long long r = 0, bit = 1;
    for (; m; m &= m - 1, bit <<= 1)
        if (a & m & (~m + 1u)) r |= bit;
    return r;
}
static inline unsigned long long bf_emu_pdep_u64(unsigned long long a, unsigned long long m) {
    unsigned long long r = 0, bit = 1;
    for (; m; m &= m - 1, bit <<= 1)
        if (a & bit) r |= m & (~m + 1u);
    return r;
}
#define _bzhi_u32(a, i) \
    ((unsigned int)bf_emu_bzhi_u64((unsigned int)(a), ((i) & 0xffu) < 32u ? ((i) & 0xffu) : 32u))
#define _bzhi_u64(a, i) bf_emu_bzhi_u64((a), (i))
#define _pext_u32(a, m) ((unsigned int)bf_emu_pext_u64((unsigned int)(a), (unsigned int)(m)))
#define _pext_u64(a, m) bf_emu_pext_u64((a), (m))
#define _pdep_u32(a, m) ((unsigned int)bf_emu_pdep_u64((unsigned int)(a), (unsigned int)(m)))
#define _pdep_u64(a, m) bf_emu_pdep_u64((a), (m))

/* AVX-512 intrinsics SIMDe 0.7.4 lacks, which the AVX-512 hash kernel uses
 * (masked tails, 32-to-64-bit zero extension): lane by lane, as the
 * instruction reference defines them. Masked loads touch only the selected
 * lanes' bytes, as the hardware does not fault on the others. */
static inline simde__m512i bf_emu_mm512_cvtepu32_epi64(simde__m256i a) {
    uint32_t x[8];
    uint64_t r[8];
    memcpy(x, &a, sizeof x);
    for (int i = 0; i < 8; i++) r[i] = x[i];
    simde__m512i v;
    memcpy(&v, r, sizeof r);
    return v;
}
static inline simde__m512i bf_emu_mm512_maskz_loadu_epi64(simde__mmask8 k, const void *p) {
    uint64_t r[8] = {0};
    for (int i = 0; i < 8; i++)
        if (k >> i & 1) memcpy(&r[i], (const unsigned char *)p + 8 * i, 8);
    simde__m512i v;
    memcpy(&v, r, sizeof r);
    return v;
}
static inline simde__m256i bf_emu_mm256_maskz_loadu_epi32(simde__mmask8 k, const void *p) {
    uint32_t r[8] = {0};
    for (int i = 0; i < 8; i++)
        if (k >> i & 1) memcpy(&r[i], (const unsigned char *)p + 4 * i, 4);
    simde__m256i v;
    memcpy(&v, r, sizeof r);
    return v;
}
static inline void bf_emu_mm512_mask_storeu_epi64(void *p, simde__mmask8 k, simde__m512i a) {
    uint64_t x[8];
    memcpy(x, &a, sizeof x);
    for (int i = 0; i < 8; i++)
        if (k >> i & 1) memcpy((unsigned char *)p + 8 * i, &x[i], 8);
}
#define __mmask8 simde__mmask8
#define _mm512_cvtepu32_epi64(a) bf_emu_mm512_cvtepu32_epi64(a)
#define _mm512_maskz_loadu_epi64(k, p) bf_emu_mm512_maskz_loadu_epi64((k), (p))
#define _mm256_maskz_loadu_epi32(k, p) bf_emu_mm256_maskz_loadu_epi32((k), (p))
#define _mm512_mask_storeu_epi64(p, k, a) bf_emu_mm512_mask_storeu_epi64((p), (k), (a))

/* SIMDe 0.7.4's portable _mm256/_mm512_mullo_epi32 multiply int32_t lanes,
 * a signed overflow (undefined: UBSan stops on it, and an optimizer may
 * assume it away) where VPMULLD wraps; the kernels rely on the wrap (hash
 * times salt, top 5 bits). Same result, multiplied as uint32_t. */
static inline simde__m256i bf_emu_mm256_mullo_epi32(simde__m256i a, simde__m256i b) {
    uint32_t x[8], y[8];
    memcpy(x, &a, sizeof x);
    memcpy(y, &b, sizeof y);
    for (int i = 0; i < 8; i++) x[i] *= y[i];
    memcpy(&a, x, sizeof x);
    return a;
}
static inline simde__m512i bf_emu_mm512_mullo_epi32(simde__m512i a, simde__m512i b) {
    uint32_t x[16], y[16];
    memcpy(x, &a, sizeof x);
    memcpy(y, &b, sizeof y);
    for (int i = 0; i < 16; i++) x[i] *= y[i];
    memcpy(&a, x, sizeof x);
    return a;
}
#undef _mm256_mullo_epi32
#define _mm256_mullo_epi32(a, b) bf_emu_mm256_mullo_epi32((a), (b))
#undef _mm512_mullo_epi32
#define _mm512_mullo_epi32(a, b) bf_emu_mm512_mullo_epi32((a), (b))
/* The same for the 64-bit VPMULLQ of the AVX-512 hash kernel (SIMDe
 * multiplies int64_t lanes). */
static inline simde__m512i bf_emu_mm512_mullo_epi64(simde__m512i a, simde__m512i b) {
    uint64_t x[8], y[8];
    memcpy(x, &a, sizeof x);
    memcpy(y, &b, sizeof y);
    for (int i = 0; i < 8; i++) x[i] *= y[i];
    memcpy(&a, x, sizeof x);
    return a;
}
#undef _mm512_mullo_epi64
#define _mm512_mullo_epi64(a, b) bf_emu_mm512_mullo_epi64((a), (b))
/* And SIMDe's 64-bit adds and left shifts work on int64_t lanes (signed
 * overflow, a shift of a negative value), where the hash kernels rely on
 * the instructions' wrap-around: the same results as uint64_t. */
#define BF_EMU_U64_OP(name, vec, lanes, expr)                  \
    static inline vec name(vec a, vec b) {                      \
        uint64_t x[lanes], y[lanes];                            \
        memcpy(x, &a, sizeof x);                                \
        memcpy(y, &b, sizeof y);                                \
        for (int i = 0; i < lanes; i++) x[i] = (expr);          \
        memcpy(&a, x, sizeof x);                                \
        return a;                                               \
    }
BF_EMU_U64_OP(bf_emu_mm256_add_epi64, simde__m256i, 4, x[i] + y[i])
BF_EMU_U64_OP(bf_emu_mm512_add_epi64, simde__m512i, 8, x[i] + y[i])
#undef BF_EMU_U64_OP
static inline simde__m256i bf_emu_mm256_slli_epi64(simde__m256i a, int n) {
    uint64_t x[4];
    memcpy(x, &a, sizeof x);
    for (int i = 0; i < 4; i++) x[i] = (n & 0xff) > 63 ? 0 : x[i] << (n & 0xff);
    memcpy(&a, x, sizeof x);
    return a;
}
static inline simde__m512i bf_emu_mm512_slli_epi64(simde__m512i a, unsigned n) {
    uint64_t x[8];
    memcpy(x, &a, sizeof x);
    for (int i = 0; i < 8; i++) x[i] = n > 63 ? 0 : x[i] << n;
    memcpy(&a, x, sizeof x);
    return a;
}
#undef _mm256_add_epi64
#define _mm256_add_epi64(a, b) bf_emu_mm256_add_epi64((a), (b))
#undef _mm512_add_epi64
#define _mm512_add_epi64(a, b) bf_emu_mm512_add_epi64((a), (b))
#undef _mm256_slli_epi64
#define _mm256_slli_epi64(a, n) bf_emu_mm256_slli_epi64((a), (n))
#undef _mm512_slli_epi64
#define _mm512_slli_epi64(a, n) bf_emu_mm512_slli_epi64((a), (n))

/* Mutants (see above). */
#if defined(BF_EMU_MUTANT) && BF_EMU_MUTANT == 1
#undef _mm512_permutexvar_epi32
#define _mm512_permutexvar_epi32(idx, a)                                            \
    simde_mm512_permutexvar_epi32(simde_mm512_xor_si512((idx), simde_mm512_set1_epi32(2)), \
                                  (a))
#elif defined(BF_EMU_MUTANT) && BF_EMU_MUTANT == 2
#undef _mm256_mullo_epi32
#define _mm256_mullo_epi32(a, b)                                                    \
    bf_emu_mm256_mullo_epi32(                                                       \
        (a), simde_mm256_permutevar8x32_epi32(                                      \
                 (b), simde_mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 0)))
#elif defined(BF_EMU_MUTANT) && BF_EMU_MUTANT == 3
#undef _mm512_rol_epi64
#define _mm512_rol_epi64(a, r) simde_mm512_rol_epi64((a), (r) - 1)
#elif defined(BF_EMU_MUTANT) && BF_EMU_MUTANT == 4
#undef _mm256_mul_epu32
#define _mm256_mul_epu32(a, b) simde_mm256_mul_epi32((a), (b))
#elif defined(BF_EMU_MUTANT) && BF_EMU_MUTANT != 0
#error "unknown BF_EMU_MUTANT"
#endif

#endif
