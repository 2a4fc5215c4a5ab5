/* CPU feature detection, once per process, thread-safe.
 * x86: CPUID for the instruction sets and XGETBV for the register state the
 * OS saves (AVX2 needs XCR0 bits 1-2; AVX-512 also bits 5-7).
 * aarch64: Advanced SIMD is baseline. */
#include "sbbf/sbbf_kernel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static uint64_t xgetbv0(void) {
    uint32_t eax, edx;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return ((uint64_t)edx << 32) | eax;
}

static uint32_t detect(void) {
    unsigned a, b, c, d;
    uint32_t features = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned popcnt = 1u << 23, osxsave = 1u << 27, avx = 1u << 28;
    /* The AVX2 and AVX-512 kernels are compiled with -mpopcnt too. */
    if (!(c & osxsave) || !(c & avx) || !(c & popcnt)) return 0;
    uint64_t xcr0 = xgetbv0();
    int ymm_ok = (xcr0 & 0x6) == 0x6;
    int zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0;
    if (__get_cpuid_max(0, NULL) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    const unsigned avx2 = 1u << 5, bmi2 = 1u << 8, avx512f = 1u << 16,
                   avx512dq = 1u << 17, avx512bw = 1u << 30, avx512vl = 1u << 31;
    if (ymm_ok && (b & avx2) && (b & bmi2)) features |= BF_CPU_AVX2;
    if (zmm_ok && (features & BF_CPU_AVX2) && (b & avx512f) && (b & avx512bw) &&
        (b & avx512vl))
        features |= BF_CPU_AVX512;
    /* The AVX-512 hash kernel's 64-bit multiply (VPMULLQ). */
    if ((features & BF_CPU_AVX512) && (b & avx512dq)) features |= BF_CPU_AVX512DQ;
    /* The blocked-512 lookup's byte permute and bit select (ECX). */
    const unsigned avx512vbmi = 1u << 1, avx512bitalg = 1u << 12;
    if ((features & BF_CPU_AVX512) && (c & avx512vbmi) && (c & avx512bitalg))
        features |= BF_CPU_AVX512BITSEL;
    return features;
}

static uint64_t detect_l2(void) {
    unsigned a, b, c, d;
    if ((unsigned)__get_cpuid_max(0x80000000u, NULL) < 0x80000006u) return 0;
    __cpuid(0x80000006u, a, b, c, d);
    return (uint64_t)(c >> 16) << 10; /* ECX[31:16]: KiB */
}
#elif defined(__aarch64__)
static uint32_t detect(void) { return BF_CPU_NEON; }
static uint64_t detect_l2(void) { return 0; }
#else
static uint32_t detect(void) { return 0; }
static uint64_t detect_l2(void) { return 0; }
#endif

/* Detection is idempotent, so racing first callers just store the same
 * value; the high bit marks "detected". */
static uint32_t cached;

uint32_t bf__cpu_features(void) {
    uint32_t v = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);
    if (BF_LIKELY(v & 0x80000000u)) return v & 0x7fffffffu;
    v = detect() | 0x80000000u;
    __atomic_store_n(&cached, v, __ATOMIC_RELEASE);
    return v & 0x7fffffffu;
}

/* The same scheme: bit 63 marks "detected". */
static uint64_t cached_l2;

uint64_t bf__cpu_l2_bytes(void) {
    uint64_t v = __atomic_load_n(&cached_l2, __ATOMIC_ACQUIRE);
    if (BF_LIKELY(v >> 63)) return v & ~((uint64_t)1 << 63);
    v = detect_l2() | ((uint64_t)1 << 63);
    __atomic_store_n(&cached_l2, v, __ATOMIC_RELEASE);
    return v & ~((uint64_t)1 << 63);
}
