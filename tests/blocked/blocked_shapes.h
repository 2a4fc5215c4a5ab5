/* The blocked family's shapes, for its tests: every valid shape, and the
 * shapes of the known-answer images. */
#ifndef BF_TEST_BLOCKED_SHAPES_H
#define BF_TEST_BLOCKED_SHAPES_H

#include "blockfilter_advanced.h"

#include <stddef.h>

/* Every valid shape (B, S, z, k) in order, into out (cap entries at most);
 * returns how many there are. The rules are restated here on purpose: the
 * tests compare them with the library's. */
static inline size_t bt_all_shapes(bf_blocked_shape *out, size_t cap) {
    static const unsigned bs[] = {32, 64, 128, 256, 512};
    size_t n = 0;
    for (size_t i = 0; i < 5; i++) {
        unsigned B = bs[i];
        unsigned ss[3] = {1, B / 64, B / 32};
        for (unsigned si = 0; si < 3; si++) {
            unsigned S = ss[si];
            if (si > 0 && S < 2) continue; /* no sectors of that width */
            for (unsigned z = 1; z <= S; z++) {
                if (S % z) continue;
                for (unsigned k = z; k <= 32; k += z) {
                    if (n < cap) out[n] = (bf_blocked_shape){B, S, z, k};
                    n++;
                }
            }
        }
    }
    return n;
}

/* The shapes with known-answer images in tests/data/native: each corner of
 * the space, and the SBBF's shape. */
static const bf_blocked_shape bt_image_shapes[] = {
    {32, 1, 1, 4},   /* register-blocked, 32 bits */
    {64, 1, 1, 6},   /* register-blocked, 64 bits */
    {128, 2, 2, 4},  /* sectorized, 64-bit sectors */
    {256, 1, 1, 8},  /* plain blocked */
    {256, 8, 8, 8},  /* sectorized: the SBBF's shape */
    {512, 1, 1, 7},  /* plain blocked, odd k */
    {512, 16, 16, 16}, /* sectorized, 32-bit sectors */
    {512, 8, 2, 6},  /* cache-sectorized, 64-bit sectors */
    {512, 16, 4, 12}, /* cache-sectorized, 32-bit sectors */
};
#define BT_IMAGE_SHAPES (sizeof bt_image_shapes / sizeof bt_image_shapes[0])

#endif
