/* The comparison of a hash kernel (lib/xxh64_*.c) with the scalar
 * reference bf_xxh64_u32()/bf_xxh64_u64(), shared by test_hash_equiv.c
 * (the kernels this CPU runs) and test_hash_emulated.c (the x86 kernels
 * under SIMDe, and their mutants). Plain C: it also runs under qemu. */
#ifndef BF_HASH_CHECK_H
#define BF_HASH_CHECK_H

#include "testutil.h"
#include "hash/xxh64.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct hash_tally {
    unsigned long checks, bad;
    char first[200];
} hash_tally;

static inline void hash_note(hash_tally *t, int ok, const char *what, size_t n, size_t i,
                             uint64_t seed) {
    t->checks++;
    if (ok) return;
    if (t->bad++ == 0)
        snprintf(t->first, sizeof t->first, "%s: n=%zu key %zu seed %#llx", what, n, i,
                 (unsigned long long)seed);
}

/* Key sets: random, and the corners of the arithmetic (0, all ones, one
 * bit set, sign bits, small and sequential values, low halves with the top
 * bit set, which a signed 32x32 multiply gets wrong). */
static inline uint64_t hash_key(int set, size_t i, uint64_t *rng) {
    uint64_t r = tu_next(rng);
    switch (set) {
    case 0: return r;
    case 1: return (uint64_t)i;
    case 2: return (uint64_t)1 << (i % 64);
    case 3: return i % 3 == 0 ? 0 : i % 3 == 1 ? ~(uint64_t)0 : (uint64_t)1 << 63;
    case 4: return r | 0x8000000080000000ull;
    default: return r >> (i % 64);
    }
}
#define HASH_SETS 6

static const size_t hash_lengths[] = {0,  1,  2,  3,  4,  5,  6,  7,  8,   9,   10,  11,  12,
                                      13, 15, 16, 17, 23, 24, 25, 31, 32,  33,  63,  64,  65,
                                      255, 256, 257, 1000, 4099};
#define HASH_NUM_LENGTHS (sizeof hash_lengths / sizeof hash_lengths[0])
#define HASH_MAXN 4099

/* Kernel k against the scalar reference, both widths, keys and hashes at
 * every misalignment 0..7, several seeds; nothing written past out[n-1].
 * Returns 0 if out of memory. */
static inline int hash_compare(const bf_hash_kernel *k, hash_tally *t32, hash_tally *t64) {
    uint8_t *in = malloc(HASH_MAXN * 8 + 16), *outb = malloc(HASH_MAXN * 8 + 32);
    uint64_t *want = malloc(HASH_MAXN * 8);
    if (!in || !outb || !want) {
        free(in);
        free(outb);
        free(want);
        return 0;
    }
    const uint64_t seeds[] = {0, 1, 0x9e3779b97f4a7c15ull, ~(uint64_t)0};
    uint64_t rng = 12345;
    for (int set = 0; set < HASH_SETS; set++) {
        for (size_t li = 0; li < HASH_NUM_LENGTHS; li++) {
            const size_t n = hash_lengths[li];
            const uint64_t seed = seeds[(set + li) % 4];
            const size_t ioff = (li + (size_t)set) % 8, ooff = (li * 3 + 1) % 8;
            for (int width = 4; width <= 8; width += 4) {
                hash_tally *t = width == 4 ? t32 : t64;
                for (size_t i = 0; i < n; i++) {
                    uint64_t v = hash_key(set, i, &rng);
                    if (width == 4) {
                        uint32_t w = (uint32_t)v;
                        memcpy(in + ioff + 4 * i, &w, 4);
                        want[i] = bf_xxh64_u32(w, seed);
                    } else {
                        memcpy(in + ioff + 8 * i, &v, 8);
                        want[i] = bf_xxh64_u64(v, seed);
                    }
                }
                memset(outb, 0xa5, HASH_MAXN * 8 + 32);
                uint64_t *out = (uint64_t *)(void *)(outb + ooff);
                (width == 4 ? k->u32 : k->u64)(in + ioff, n, seed, out);
                size_t bad = 0, first = 0;
                for (size_t i = 0; i < n; i++) {
                    uint64_t got;
                    memcpy(&got, outb + ooff + 8 * i, 8);
                    if (got != want[i] && bad++ == 0) first = i;
                }
                hash_note(t, bad == 0, width == 4 ? "u32 differs" : "u64 differs", n, first, seed);
                size_t end = ooff + 8 * n, guard = 0;
                for (size_t j = 0; j < ooff; j++) guard += outb[j] != 0xa5;
                for (size_t j = end; j < end + 24; j++) guard += outb[j] != 0xa5;
                hash_note(t, guard == 0, width == 4 ? "u32 wrote outside out[0..n)" :
                                                      "u64 wrote outside out[0..n)", n, 0, seed);
            }
        }
    }
    free(in);
    free(outb);
    free(want);
    return 1;
}

#endif
