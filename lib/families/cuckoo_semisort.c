/*
 * Semi-sorted cuckoo buckets (Fan, Andersen, Kaminsky and Mitzenmacher
 * 2014, section 5.2). The order of the fingerprints in a bucket carries no
 * information, so a bucket of 4 slots is stored sorted by each
 * fingerprint's low 4 bits: the sorted 4-tuple of low nibbles is one of
 * C(16 + 3, 4) = 3876 multisets and takes a 12-bit code instead of 16 bits,
 * which saves one bit per slot. A bucket of f-bit fingerprints is then a
 * 4 (f - 1)-bit little-endian value:
 *   bits [0, 12)                      the code of the sorted nibbles;
 *   bits [12 + j (f - 4), ...)        fingerprint j's upper f - 4 bits,
 * j = 0..3 in the sorted order (ties: by the upper bits, so one bucket
 * content has one encoding and images are reproducible). Empty slots are
 * fingerprint 0 and sort first. Code c is the c-th multiset in increasing
 * order of n0 | n1 << 4 | n2 << 8 | n3 << 12 with n0 <= n1 <= n2 <= n3.
 */
#include "families/baselines.h"

#include <pthread.h>

uint16_t bf__cuckoo_ss_nibbles[BF_CUCKOO_SS_CODES]; /* code -> packed sorted nibbles */
#define nibbles_of bf__cuckoo_ss_nibbles
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_table(void) {
    unsigned c = 0;
    for (unsigned n3 = 0; n3 < 16; n3++)
        for (unsigned n2 = 0; n2 <= n3; n2++)
            for (unsigned n1 = 0; n1 <= n2; n1++)
                for (unsigned n0 = 0; n0 <= n1; n0++)
                    nibbles_of[c++] = (uint16_t)(n0 | n1 << 4 | n2 << 8 | n3 << 12);
}

/* Every object with semi-sorted buckets calls this when it is made, so
 * decoding and encoding read the table without synchronisation of their
 * own (the object reaches other threads after it). */
void bf__cuckoo_ss_init(void) { pthread_once(&table_once, build_table); }

bool bf__cuckoo_ss_valid(uint64_t v) { return (v & 0xfff) < BF_CUCKOO_SS_CODES; }

void bf__cuckoo_ss_decode(uint64_t v, unsigned f, uint32_t fp[4]) {
    unsigned code = (unsigned)(v & 0xfff);
    /* A damaged code (>= 3876, only in an unverified view) reads entry 0
     * rather than outside the table. */
    uint16_t nib = nibbles_of[code < BF_CUCKOO_SS_CODES ? code : 0];
    const unsigned hb = f - 4;
    const uint64_t hmask = ((uint64_t)1 << hb) - 1;
    v >>= 12;
    for (unsigned j = 0; j < 4; j++, v >>= hb)
        fp[j] = (uint32_t)((v & hmask) << 4) | ((nib >> (4 * j)) & 15u);
}

/* Sort key: low nibble first, then the upper bits. */
static inline uint32_t key_of(uint32_t fp) { return (fp & 15u) << 28 | fp >> 4; }

uint64_t bf__cuckoo_ss_encode(uint32_t fp[4], unsigned f) {
    /* Insertion sort of four. */
    for (unsigned i = 1; i < 4; i++) {
        uint32_t x = fp[i];
        unsigned j = i;
        for (; j > 0 && key_of(fp[j - 1]) > key_of(x); j--) fp[j] = fp[j - 1];
        fp[j] = x;
    }
    /* The code: the multisets before (n0, n1, n2, n3) in the table's order
     * are those with a smaller n3, C(n3 + 3, 4) of them, then with that n3
     * a smaller n2, C(n2 + 2, 3), then C(n1 + 1, 2), then n0. */
    const unsigned n0 = fp[0] & 15u, n1 = fp[1] & 15u, n2 = fp[2] & 15u, n3 = fp[3] & 15u;
    const unsigned lo = (n3 + 3) * (n3 + 2) * (n3 + 1) * n3 / 24 + (n2 + 2) * (n2 + 1) * n2 / 6 +
                        (n1 + 1) * n1 / 2 + n0;
    const unsigned hb = f - 4;
    uint64_t v = lo;
    for (unsigned j = 0; j < 4; j++) v |= (uint64_t)(fp[j] >> 4) << (12 + j * hb);
    return v;
}
