/*
 * Shared helpers of the fuzz targets. Each target defines
 * LLVMFuzzerTestOneInput; it is linked either with libFuzzer (clang,
 * -fsanitize=fuzzer) or with replay_main.c (any compiler), which runs the
 * committed seed corpus. A broken invariant aborts with a message: that is a
 * finding, never an expected outcome.
 */
#ifndef BF_FUZZ_COMMON_H
#define BF_FUZZ_COMMON_H

#include "blockfilter.h"
#include "blockfilter_advanced.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CHECK(cond)                                                         \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, \
                    #cond);                                                      \
            abort();                                                             \
        }                                                                        \
    } while (0)

/* Every status a loader may return for bad input. */
static inline int fuzz_status_known(int rc) {
    return rc <= 0 && strcmp(bf_strerror(rc), "unknown status") != 0;
}

/* A few query hashes derived from the input: some arbitrary, some that hit
 * the first and last block. */
static inline size_t fuzz_query_hashes(const uint8_t *data, size_t size,
                                       uint64_t *out, size_t cap) {
    size_t n = 0;
    uint64_t h = bf_hash_xxh64(data, size);
    static const uint64_t fixed[] = {0, ~(uint64_t)0, (uint64_t)0xffffffff << 32,
                                     0x00000000ffffffffu, 0x8000000080000000u};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] && n < cap; i++) out[n++] = fixed[i];
    while (n < cap) {
        h = h * 6364136223846793005u + 1442695040888963407u;
        out[n++] = h ^ (h >> 29);
    }
    return n;
}

/* The query hashes of the input (fuzz_query_hashes) into q[0..n), f's batch
 * answers for them into out[0..n) (each 0 or 1); every single answer must
 * equal its batch answer and the counts agree. Returns the batch's hits. */
static inline size_t fuzz_sbbf_query(const bf_sbbf *f, const uint8_t *data, size_t size,
                                     uint64_t *q, uint8_t *out, size_t n) {
    fuzz_query_hashes(data, size, q, n);
    size_t hits = bf_sbbf_contains_hashes(f, q, n, out);
    size_t single = 0;
    for (size_t i = 0; i < n; i++) {
        bool c = bf_sbbf_contains_hash(f, q[i]);
        FUZZ_CHECK(out[i] == (uint8_t)c);
        single += c;
    }
    FUZZ_CHECK(single == hits);
    return hits;
}

/* Copy of the input at an offset 0..7 from a fresh allocation, with the end
 * of the copy at the end of the allocation (so ASan sees over-reads).
 * Returns the allocation in *base (free it). */
static inline uint8_t *fuzz_copy_at(const uint8_t *data, size_t size, unsigned off,
                                    uint8_t **base) {
    off &= 7;
    *base = malloc(size + off + 1);
    if (!*base) abort();
    if (size) memcpy(*base + off, data, size);
    return *base + off;
}

/*
 * The native format carries two XXH64 checks, which random mutation almost
 * never gets right. Targets over it take one control byte first: bit 0 set =
 * recompute both checks over the image before loading, so the fuzzer reaches
 * the field validation behind them. Layout in docs/format.md.
 */
#define FUZZ_CTL_FIX_CHECKS 1u
static inline void fuzz_fix_native_checks(uint8_t *img, size_t len) {
    if (len < BF_HEADER_BYTES) return;
    uint64_t plen = 0;
    for (int i = 7; i >= 0; i--) plen = (plen << 8) | img[48 + i];
    size_t avail = len - BF_HEADER_BYTES;
    uint64_t pc = bf_hash_xxh64(img + BF_HEADER_BYTES, plen < avail ? (size_t)plen : avail);
    for (int i = 0; i < 8; i++) img[56 + i] = (uint8_t)(pc >> (8 * i));
    uint8_t tmp[BF_HEADER_BYTES];
    memcpy(tmp, img, sizeof tmp);
    memset(tmp + 44, 0, 4);
    uint32_t hc = (uint32_t)bf_hash_xxh64(tmp, sizeof tmp);
    for (int i = 0; i < 4; i++) img[44 + i] = (uint8_t)(hc >> (8 * i));
}

#endif
