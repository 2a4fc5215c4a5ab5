/*
 * The probe and set of one block, for every shape of the blocked design
 * space (docs/families.md, "Blocked filters"): one source, written once,
 * that the compiler specialises. Called with constant shape arguments it
 * unrolls into straight-line code for that shape; called with the shape
 * of a filter made at run time it is the generic path. The SBBF's scalar
 * kernel is its instance (256, 8, 8, 8) with Parquet's salts.
 *
 * A shape is (B, S, z, k): blocks of B bits; S sectors of W = B/S bits;
 * z groups of S/z adjacent sectors; k bits per key, k/z in each group. A
 * key sets, in each group g, k/z bits of one sector of the group. With a
 * 32-bit value lo (the hash's low half):
 *  - the sector of group g is g*(S/z) + ((lo * SEL[g]) >> (32 - log2(S/z)))
 *    (the first of the group when S/z = 1);
 *  - bit t of group g, salt index j = g*(k/z) + t, is bit
 *    (lo * SALT[j]) >> (32 - log2 W) of that sector.
 * Bits of one key may coincide (positions are drawn with replacement);
 * the model counts that. Bit p of a block is bit p % 8 of its byte p / 8,
 * so sectors are little-endian words and the SBBF's bytes are Parquet's.
 *
 * Everything here is static inline (an ISA file may include it).
 */
#ifndef BF_BLOCKED_PROBE_H
#define BF_BLOCKED_PROBE_H

#include "common/internal.h"

#include <stdbool.h>

/* Limits of a shape (bf_blocked_shape_rule names the rules). */
#define BF_BLOCKED_MAX_K 32u
#define BF_BLOCKED_MAX_GROUPS 16u
/* Salts: SALT[0..31] for the bits (the first eight are Parquet's, so the
 * shape (256, 8, 8, 8) is the SBBF), SEL[g] = salts[32 + g] for the
 * sector of group g. The others are the odd low halves of the first
 * outputs of splitmix64 seeded with 0x626c6f636b6564 ("blocked"). */
#define BF_BLOCKED_SEL 32u
static const uint32_t bf__blocked_salts[BF_BLOCKED_SEL + BF_BLOCKED_MAX_GROUPS] = {
    BF_SBBF_SALTS, /* bits 0..7: Parquet's */
    0x5da17fbdu, 0xcedf258du, 0x8016d623u, 0xaeb8862fu, 0x6d2dd4a7u, 0x7fe2a8d3u,
    0x3d0d32edu, 0xdb184877u, 0x890df5b5u, 0x97b95953u, 0xeb802e3bu, 0x611661d9u,
    0x9dcb8629u, 0x0db4dd9bu, 0x3f166033u, 0x5443afafu, 0x72911107u, 0xb4a42b4du,
    0xe100c0bdu, 0xddc3bf0fu, 0xdc9b0dc1u, 0x0da1d03bu, 0x40899d4bu, 0xfd9b6b5du,
    /* SEL[0..15] */
    0x10c25259u, 0x70744915u, 0x81971e4bu, 0xcff02351u, 0x10cd07e7u, 0x9355613du,
    0x8912f469u, 0x3aa04367u, 0x8a0e0449u, 0x9c5ec97du, 0x16476fc9u, 0x1e81f531u,
    0x53f0f073u, 0xcb7ab407u, 0x8e6b79d5u, 0xdefdb2cdu,
};

/* log2 of a power of two (a constant for constant arguments). */
static inline unsigned bf__blocked_log2(unsigned x) { return (unsigned)__builtin_ctz(x); }

/* The block of a hash among num_blocks: the SBBF's ((h >> 32) * z) >> 32
 * up to 2^32 blocks, the high half of the 64-bit product beyond. */
static inline uint64_t bf__blocked_block_index(uint64_t hash, uint64_t num_blocks) {
    return num_blocks <= ((uint64_t)1 << 32) ? ((hash >> 32) * num_blocks) >> 32
                                             : bf_mulhi64(hash, num_blocks);
}

/* The sector of group g a key uses. */
static inline unsigned bf__blocked_sector(uint32_t lo, unsigned g, unsigned S, unsigned Z,
                                          const uint32_t *salts) {
    const unsigned spg = S / Z;
    unsigned sector = g * spg;
    if (spg > 1) sector += (lo * salts[BF_BLOCKED_SEL + g]) >> (32 - bf__blocked_log2(spg));
    return sector;
}

/* Bit position of salt j within a sector of 2^lw bits. */
static inline unsigned bf__blocked_bit(uint32_t lo, unsigned j, unsigned lw,
                                       const uint32_t *salts) {
    return (lo * salts[j]) >> (32 - lw);
}

/* Loops over groups and bits are unrolled whole for constant shapes, so
 * the salts fold into immediates (at -O2 GCC keeps a loop of eight, about
 * 15 % slower for the SBBF's probe). Clang unrolls them unasked, and warns
 * (-Wpass-failed) when the pragma meets a loop of run-time length. */
#if defined(__GNUC__) && !defined(__clang__)
#define BF__BLOCKED_UNROLL _Pragma("GCC unroll 32")
#else
#define BF__BLOCKED_UNROLL
#endif

/*
 * Visits the words a key touches: for each, the byte offset in the block,
 * the word size (4 or 8 bytes) and the mask of the key's bits in it.
 * Sectors of 32 or 64 bits are one word each (one mask per group);
 * a single sector wider than 64 bits (S = 1, B >= 128) is 64-bit words,
 * one visit per bit. BF__BLOCKED_VISIT(body) expands the loop with
 * `off`, `wide` (1: 64-bit word) and `mask` in scope.
 */
#define BF__BLOCKED_VISIT(B, S, Z, K, lo, salts, body)                                    \
    do {                                                                                 \
        const unsigned bf_w_ = (B) / (S), bf_lw_ = bf__blocked_log2(bf_w_);              \
        const unsigned bf_per_ = (K) / (Z);                                              \
        BF__BLOCKED_UNROLL                                                               \
        for (unsigned bf_g_ = 0; bf_g_ < (Z); bf_g_++) {                                 \
            const unsigned bf_sec_ = bf__blocked_sector(lo, bf_g_, S, Z, salts);         \
            if (bf_w_ <= 64) {                                                           \
                uint64_t mask = 0;                                                       \
                BF__BLOCKED_UNROLL                                                       \
                for (unsigned bf_t_ = 0; bf_t_ < bf_per_; bf_t_++)                       \
                    mask |= (uint64_t)1                                                  \
                            << bf__blocked_bit(lo, bf_g_ * bf_per_ + bf_t_, bf_lw_, salts); \
                const size_t off = (size_t)bf_sec_ * (bf_w_ / 8);                        \
                const int wide = bf_w_ == 64;                                            \
                body;                                                                    \
            } else {                                                                     \
                BF__BLOCKED_UNROLL                                                       \
                for (unsigned bf_t_ = 0; bf_t_ < bf_per_; bf_t_++) {                     \
                    unsigned bf_p_ = bf__blocked_bit(lo, bf_g_ * bf_per_ + bf_t_, bf_lw_, salts); \
                    const uint64_t mask = (uint64_t)1 << (bf_p_ & 63);                   \
                    const size_t off = (size_t)(bf_p_ >> 6) * 8;                         \
                    const int wide = 1;                                                  \
                    body;                                                                \
                }                                                                        \
            }                                                                            \
        }                                                                                \
    } while (0)

/** Whether the block at p (any alignment) holds every bit of the key whose
 *  low hash half is lo. No early exit: the misses are or-ed together. */
static inline bool bf__blocked_test(const uint8_t *p, uint32_t lo, unsigned B, unsigned S,
                                    unsigned Z, unsigned K, const uint32_t *salts) {
    uint64_t missing = 0;
    BF__BLOCKED_VISIT(B, S, Z, K, lo, salts, {
        uint64_t word = wide ? bf_load_le64(p + off) : bf_load_le32(p + off);
        missing |= mask & ~word;
    });
    return missing == 0;
}

/** Ors mask into the little-endian word at p (any alignment): 64 bits if
 *  wide, else 32. */
static inline void bf__blocked_or_word(uint8_t *p, uint64_t mask, int wide) {
    if (wide) bf_store_le64(p, bf_load_le64(p) | mask);
    else bf_store_le32(p, bf_load_le32(p) | (uint32_t)mask);
}

/** Sets the key's bits in the block at p (any alignment). */
static inline void bf__blocked_set(uint8_t *p, uint32_t lo, unsigned B, unsigned S, unsigned Z,
                                   unsigned K, const uint32_t *salts) {
    BF__BLOCKED_VISIT(B, S, Z, K, lo, salts, bf__blocked_or_word(p + off, mask, wide));
}

#endif
