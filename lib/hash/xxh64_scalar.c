/* The portable hash kernel: bf_xxh64_u32()/bf_xxh64_u64() of the public
 * header over an array, the reference the SIMD hash kernels must match. */
#include "hash/xxh64.h"

static void u32_scalar(const void *keys, size_t n, uint64_t seed, uint64_t *out) {
    const uint8_t *p = keys;
    for (size_t i = 0; i < n; i++) bf_xxh_store64(out + i, bf_xxh64_u32(bf_xxh_load32(p + 4 * i), seed));
}

static void u64_scalar(const void *keys, size_t n, uint64_t seed, uint64_t *out) {
    const uint8_t *p = keys;
    for (size_t i = 0; i < n; i++) bf_xxh_store64(out + i, bf_xxh64_u64(bf_xxh_load64(p + 8 * i), seed));
}

const bf_hash_kernel bf__hash_kernel_scalar = {"scalar", 0, u32_scalar, u64_scalar};
