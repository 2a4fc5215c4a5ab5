/* Hash sets and misaligned hash arrays shared by the SBBF kernel tests
 * (test_kernel_equiv.c, test_kernel_emulated.c). Plain C: these tests also
 * run under qemu-user. */
#ifndef BF_KERNEL_HASHES_H
#define BF_KERNEL_HASHES_H

#include "testutil.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>


/* Hash sets. Structured ones hit the corners of the index and mask math:
 * every key in block 0 or the last block, equal low halves (equal masks),
 * low half 0 (all bit positions 0), sequential values. */
enum { SET_RANDOM, SET_SEQUENTIAL, SET_SAME_LOW, SET_LOW_ZERO, SET_EDGES, SET_SHIFTED, NUM_SETS };
static const char *const set_names[NUM_SETS] = {"random", "sequential", "same-low",
                                               "low-zero", "edges", "shifted"};

static inline void make_hashes(int kind, uint64_t *h, size_t n, uint64_t seed) {
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = tu_next(&s);
        switch (kind) {
        case SET_RANDOM: h[i] = r; break;
        case SET_SEQUENTIAL: h[i] = seed + i; break;
        case SET_SAME_LOW: h[i] = (r & 0xffffffff00000000ull) | 0x12345678u; break;
        case SET_LOW_ZERO: h[i] = r & 0xffffffff00000000ull; break;
        case SET_EDGES:
            h[i] = (i & 1) ? (0xffffffff00000000ull | (uint32_t)r) : (uint32_t)r;
            if (i % 5 == 0) h[i] = ~(uint64_t)0;
            if (i % 7 == 0) h[i] = 0;
            break;
        default: h[i] = (uint64_t)i << (i % 64) ^ (r >> 40); break;
        }
    }
}

/* n hashes copied to a buffer at a byte offset: a misaligned array for
 * off % 8 != 0. The kernels read hashes with memcpy. */
static inline const uint64_t *at_offset(uint8_t *buf, size_t off, const uint64_t *h, size_t n) {
    memcpy(buf + off, h, n * sizeof *h);
    return (const uint64_t *)(const void *)(buf + off);
}

#endif
