/*
 * The blocked family's batch lookups and inserts with SIMD, several keys
 * per register: the probe and set of blocked/probe.h, lane by lane (the
 * same formulas, so the same answers and bits: tests/blocked and the
 * blocked_kernels fuzz target check every shape against the scalar
 * probe). Each 64-bit lane holds one key: its block's byte offset, its
 * low hash half, and the mask of its bits in the word a group (or a bit)
 * touches. A lookup fetches the lanes' words with a gather; an insert ors
 * each lane's mask into its word with a scalar read-modify-write, lane
 * after lane, so keys of one register that share a word (one block, or
 * one filter of a single block) each see the bits the lanes before them
 * set: no store loses another lane's bits, as a gather, or and scatter of
 * the register would (the last lane's store winning). Instantiated, like
 * the scalar probe, for the shapes of the matrix and once for any shape.
 *
 * A template: an ISA file (blocked_avx2.c, blocked_avx512.c,
 * blocked_neon.c) defines the vector type V, LANES, the V_* operations on
 * 64-bit lanes, SIMD_NAME(x) (x with the ISA's suffix: its names stay
 * apart where the files are one translation unit, the amalgamation),
 * CONTAINS_FOR and INSERT_FOR (the names of its lookup and insert
 * choosers), optionally V_MULLO32 (below, top_bits) and, if it has
 * instances of its own for some shapes, SIMD_VERTICAL_FOR (a function
 * (shape, specialised, &contains, &insert) that returns 1 and sets both
 * for such a shape, NULL where this file's serves, else 0) and, if it has
 * vertical loops, VERT_CONTAINS and its companions (below, "vertical
 * instances"), then includes this once. The guard is released at the
 * end, so the next ISA file gets its own copy.
 */
#ifndef BF_BLOCKED_SIMD_H
#define BF_BLOCKED_SIMD_H

#include "blocked/blocked.h"

/* (lo * salt) mod 2^32 >> (32 - bits), per 64-bit lane (lo in the low
 * half, the high half 0). Where the ISA file defines V_MULLO32 (a 32-bit
 * multiply per 32-bit half), the product's low half is the lane's low
 * half and its high half 0, so one shift gives the value; else the
 * 64-bit product is shifted up and down. */
static inline V SIMD_NAME(top_bits)(V lo, uint32_t salt, unsigned bits) {
#if defined(V_MULLO32)
    return V_SRL(V_MULLO32(lo, V_SET1(salt)), 32 - bits);
#else
    V p = V_MUL_EPU32(lo, V_SET1(salt));
    return V_SRL(V_SLLI(p, 32), 64 - bits);
#endif
}

/* The byte offset of each lane's block: ((h >> 32) * nb) >> 32 blocks of
 * B bits (nb < 2^32 here). */
static inline V SIMD_NAME(block_offset)(V h, uint64_t nb, unsigned B) {
    V block = V_SRLI(V_MUL_EPU32(V_SRLI(h, 32), V_SET1(nb)), 32);
    return V_SLL(block, bf__blocked_log2(B / 8));
}

/* Prefetches the blocks of the LANES hashes at hs, for writing if rw. */
static inline void SIMD_NAME(prefetch)(const uint8_t *data, uint64_t nb, const uint64_t *hs,
                                       unsigned B, int rw) {
    uint64_t o[LANES];
    V_STOREU(o, SIMD_NAME(block_offset)(V_LOADU(hs), nb, B));
    for (unsigned j = 0; j < LANES; j++) {
        if (rw) __builtin_prefetch(data + o[j], 1);
        else __builtin_prefetch(data + o[j], 0);
    }
}

/*
 * Visits the words the LANES keys of h touch, as BF__BLOCKED_VISIT does
 * for one key (blocked/probe.h): body runs with `off` (each lane's byte
 * offset in the bitset), `mask` (each lane's bits in that word) and
 * `wide` (1: 64-bit words, else 32) in scope, once per group of sectors
 * of 32 or 64 bits, once per bit for a single sector wider than 64 (the
 * body is the last argument, commas and all).
 */
#define SIMD_VISIT(nb, h, B, S, Z, K, salts, ...)                                              \
    do {                                                                                       \
        const unsigned sv_w_ = (B) / (S), sv_lw_ = bf__blocked_log2(sv_w_);                    \
        const unsigned sv_per_ = (K) / (Z), sv_spg_ = (S) / (Z);                               \
        const V sv_one_ = V_SET1(1);                                                           \
        const V sv_lo_ = V_AND(h, V_SET1(0xffffffff));                                         \
        const V sv_base_ = SIMD_NAME(block_offset)(h, nb, B);                                  \
        BF__BLOCKED_UNROLL                                                                     \
        for (unsigned sv_g_ = 0; sv_g_ < (Z); sv_g_++) {                                       \
            if (sv_w_ <= 64) {                                                                 \
                V sv_sec_ = V_SET1(sv_g_ * sv_spg_);                                           \
                if (sv_spg_ > 1)                                                               \
                    sv_sec_ = V_ADD(sv_sec_, SIMD_NAME(top_bits)(sv_lo_,                       \
                                                 (salts)[BF_BLOCKED_SEL + sv_g_],              \
                                                 bf__blocked_log2(sv_spg_)));                  \
                const V off = V_ADD(sv_base_, V_SLL(sv_sec_, bf__blocked_log2(sv_w_ / 8)));   \
                V mask = V_ZERO();                                                             \
                BF__BLOCKED_UNROLL                                                             \
                for (unsigned sv_t_ = 0; sv_t_ < sv_per_; sv_t_++)                             \
                    mask = V_OR(mask, V_SLLV(sv_one_,                                          \
                                             SIMD_NAME(top_bits)(sv_lo_,                       \
                                                 (salts)[sv_g_ * sv_per_ + sv_t_], sv_lw_)));  \
                const int wide = sv_w_ == 64;                                                  \
                __VA_ARGS__;                                                                   \
            } else {                                                                           \
                BF__BLOCKED_UNROLL                                                             \
                for (unsigned sv_t_ = 0; sv_t_ < sv_per_; sv_t_++) {                           \
                    const V sv_p_ = SIMD_NAME(top_bits)(sv_lo_,                                \
                                                        (salts)[sv_g_ * sv_per_ + sv_t_], sv_lw_); \
                    const V off = V_ADD(sv_base_, V_SLLI(V_SRLI(sv_p_, 6), 3));                \
                    const V mask = V_SLLV(sv_one_, V_AND(sv_p_, V_SET1(63)));                  \
                    const int wide = 1;                                                        \
                    __VA_ARGS__;                                                               \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
    } while (0)

/* Bit i of the result: key i of the LANES may be present. */
static inline unsigned SIMD_NAME(probe)(const uint8_t *data, uint64_t nb, V h, unsigned B,
                                        unsigned S, unsigned Z, unsigned K,
                                        const uint32_t *salts) {
    V missing = V_ZERO();
    SIMD_VISIT(nb, h, B, S, Z, K, salts, {
        V word = wide ? V_GATHER64(data, off) : V_GATHER32(data, off);
        missing = V_OR(missing, V_ANDNOT(word, mask));
    });
    return V_ZERO_LANES(missing);
}

/* Sets the bits of the LANES keys: each word or-ed in by a scalar
 * read-modify-write, lane after lane (lanes may share a word). Every
 * word's offsets and masks are stored first and read back after: a
 * scalar load right behind the vector store it reads (one per word) is a
 * store-to-load forward that some cores cannot make from a 512-bit store,
 * and each such load then waits for the store to reach the cache (20x the
 * time per key on a Zen 4 for (512, 8, 8, 8)); stored all at once, the
 * loads wait at most once. At most BF_BLOCKED_MAX_K words per key. */
static inline void SIMD_NAME(set)(uint8_t *bits, uint64_t nb, V h, unsigned B, unsigned S,
                                  unsigned Z, unsigned K, const uint32_t *salts) {
    uint64_t o[BF_BLOCKED_MAX_K * LANES], m[BF_BLOCKED_MAX_K * LANES];
    unsigned words = 0;
    int wide_words = 0; /* the same for every word of a shape */
    SIMD_VISIT(nb, h, B, S, Z, K, salts, {
        V_STOREU(o + words * LANES, off);
        V_STOREU(m + words * LANES, mask);
        words++;
        wide_words = wide;
    });
    for (unsigned i = 0; i < words * LANES; i++) bf__blocked_or_word(bits + o[i], m[i], wide_words);
}

/* The batch lookup and the batch insert of one shape; B, S, Z, K are
 * constants or, for the instance for any shape, the object's shape (read
 * once: stores through out or the bitset could alias the object). Keys
 * past the last whole register take the scalar instance. */
#define SIMD_INSTANCE(name, B, S, Z, K)                                                         \
    static size_t SIMD_NAME(name)(const bf_blocked *f, const uint64_t *hs, size_t n,            \
                                  uint8_t *out) {                                             \
        const uint8_t *const data = f->data;                                                    \
        const uint64_t nb = f->num_blocks;                                                      \
        const unsigned b_ = (B), s_ = (S), z_ = (Z), k_ = (K);                                  \
        const bool pf = f->num_bytes >= BF_SBBF_PREFETCH_MIN_BYTES;                             \
        size_t hits = 0, i = 0;                                                                 \
        for (; i + LANES <= n; i += LANES) {                                                    \
            if (pf && i + BF_SBBF_PREFETCH_DISTANCE + LANES <= n)                               \
                SIMD_NAME(prefetch)(data, nb, hs + i + BF_SBBF_PREFETCH_DISTANCE, b_, 0);       \
            unsigned m = SIMD_NAME(probe)(data, nb, V_LOADU(hs + i), b_, s_, z_, k_,           \
                                          bf__blocked_salts);                                   \
            if (out) bf__blocked_answers(out + i, m, LANES);                                   \
            hits += (size_t)__builtin_popcount(m);                                              \
        }                                                                                       \
        return hits + bf__blocked_tail_contains(f, hs, i, n, out);                              \
    }                                                                                           \
    static void SIMD_NAME(name##_insert)(bf_blocked *f, const uint64_t *hs, size_t n) {         \
        uint8_t *const bits = f->bits;                                                          \
        const uint64_t nb = f->num_blocks;                                                      \
        const unsigned b_ = (B), s_ = (S), z_ = (Z), k_ = (K);                                  \
        const bool pf = f->num_bytes >= BF_SBBF_PREFETCH_MIN_BYTES;                             \
        size_t i = 0;                                                                           \
        for (; i + LANES <= n; i += LANES) {                                                    \
            if (pf && i + BF_SBBF_PREFETCH_DISTANCE + LANES <= n)                               \
                SIMD_NAME(prefetch)(bits, nb, hs + i + BF_SBBF_PREFETCH_DISTANCE, b_, 1);       \
            SIMD_NAME(set)(bits, nb, V_LOADU(hs + i), b_, s_, z_, k_, bf__blocked_salts);       \
        }                                                                                       \
        for (; i < n; i++) f->impl->insert(f, bf_sbbf_load_hash(hs + i));                       \
    }

SIMD_INSTANCE(any, f->shape.block_bits, f->shape.sectors, f->shape.groups, f->shape.k)
BF_BLOCKED_SHAPES(SIMD_INSTANCE)

#define SIMD_ROW(name, B, S, Z, K) {{B, S, Z, K}, SIMD_NAME(name), SIMD_NAME(name##_insert)},

static const struct {
    bf_blocked_shape shape;
    bf_blocked_batch_fn contains;
    bf_blocked_insert_fn insert;
} SIMD_NAME(rows)[] = {BF_BLOCKED_SHAPES(SIMD_ROW)};
#undef SIMD_ROW

/* ---- vertical instances, where the ISA file has them ------------------------------- */

/*
 * For the shapes of BF_BLOCKED_VERT_FITS (64-bit sectors filling a 256-
 * or 512-bit block), an ISA file may hold a key's block in registers, a
 * lane per sector, one load per register. It writes the loops and
 * defines, before including this:
 *  - VERT_CONTAINS and VERT_INSERT, the names of its always-inline loops
 *    (f, hs, n, out, B, S, Z, K) and (f, hs, n, B, S, Z, K);
 *  - VERT_LOOKUP_SERVES(S, Z): whether its lookup serves a shape of S
 *    sectors in Z groups; where not, the horizontal one does (it fetches
 *    only the z words a key uses, the vertical one computes a lane for
 *    every sector and picks the chosen ones).
 * Here are an instance of them for every such shape of BF_BLOCKED_SHAPES,
 * one for any such shape (the object's, read once), and the choice:
 *   static int SIMD_NAME(vert_for)(shape, specialised, &contains, &insert)
 * 0 if the shape is not vertical, else 1 with its own instances (if
 * compiled and `specialised`) or those for any vertical shape; *contains
 * is NULL where VERT_LOOKUP_SERVES is false. The ISA file's
 * SIMD_VERTICAL_FOR calls it.
 */
#if defined(VERT_CONTAINS)

/* An instance for every shape of BF_BLOCKED_SHAPES; those that are not
 * vertical fold to nothing (their rows hold NULL). */
#define VERT_INSTANCE_(name, B, S, Z, K)                                                       \
    static size_t SIMD_NAME(name##_vert)(const bf_blocked *f, const uint64_t *hs, size_t n,            \
                                  uint8_t *out) {                                              \
        if (!BF_BLOCKED_VERT_FITS(B, S)) return 0;                                             \
        return VERT_CONTAINS(f, hs, n, out, B, S, Z, K);                                       \
    }                                                                                          \
    static void SIMD_NAME(name##_vert_insert)(bf_blocked *f, const uint64_t *hs, size_t n) {         \
        if (BF_BLOCKED_VERT_FITS(B, S)) VERT_INSERT(f, hs, n, B, S, Z, K);                     \
    }
BF_BLOCKED_SHAPES(VERT_INSTANCE_)
#undef VERT_INSTANCE_

/* Any vertical shape: the object's, read once. */
static size_t SIMD_NAME(any_vert)(const bf_blocked *f, const uint64_t *hs, size_t n, uint8_t *out) {
    const bf_blocked_shape s = f->shape;
    return s.block_bits == 512 ? VERT_CONTAINS(f, hs, n, out, 512, 8, s.groups, s.k)
                               : VERT_CONTAINS(f, hs, n, out, 256, 4, s.groups, s.k);
}
static void SIMD_NAME(any_vert_insert)(bf_blocked *f, const uint64_t *hs, size_t n) {
    const bf_blocked_shape s = f->shape;
    if (s.block_bits == 512) VERT_INSERT(f, hs, n, 512, 8, s.groups, s.k);
    else VERT_INSERT(f, hs, n, 256, 4, s.groups, s.k);
}

#define VERT_ROW_(name, B, S, Z, K)                                                             \
    {{B, S, Z, K}, BF_BLOCKED_VERT_FITS(B, S) ? SIMD_NAME(name##_vert) : NULL,                        \
     BF_BLOCKED_VERT_FITS(B, S) ? SIMD_NAME(name##_vert_insert) : NULL},
static const struct {
    bf_blocked_shape shape;
    bf_blocked_batch_fn contains;
    bf_blocked_insert_fn insert;
} SIMD_NAME(vert_rows)[] = {BF_BLOCKED_SHAPES(VERT_ROW_)};
#undef VERT_ROW_

static int SIMD_NAME(vert_for)(const bf_blocked_shape *s, bool specialised,
                               bf_blocked_batch_fn *contains, bf_blocked_insert_fn *insert) {
    if (!BF_BLOCKED_VERT_FITS(s->block_bits, s->sectors)) return 0;
    *contains = SIMD_NAME(any_vert);
    *insert = SIMD_NAME(any_vert_insert);
    if (specialised)
        for (size_t i = 0; i < sizeof SIMD_NAME(vert_rows) / sizeof SIMD_NAME(vert_rows)[0]; i++)
            if (!memcmp(&SIMD_NAME(vert_rows)[i].shape, s, sizeof *s)) {
                *contains = SIMD_NAME(vert_rows)[i].contains;
                *insert = SIMD_NAME(vert_rows)[i].insert;
            }
    if (!VERT_LOOKUP_SERVES(s->sectors, s->groups)) *contains = NULL;
    return 1;
}

#endif /* VERT_CONTAINS */

/* The row compiled for shape s if there is one and `specialised`, else
 * SIZE_MAX (the instance for any shape). */
static size_t SIMD_NAME(row_for)(const bf_blocked_shape *s, bool specialised) {
    if (specialised)
        for (size_t i = 0; i < sizeof SIMD_NAME(rows) / sizeof SIMD_NAME(rows)[0]; i++)
            if (!memcmp(&SIMD_NAME(rows)[i].shape, s, sizeof *s)) return i;
    return SIZE_MAX;
}

bf_blocked_batch_fn CONTAINS_FOR(const bf_blocked_shape *s, bool specialised) {
#if defined(SIMD_VERTICAL_FOR)
    bf_blocked_batch_fn vc;
    bf_blocked_insert_fn vi;
    if (SIMD_VERTICAL_FOR(s, specialised, &vc, &vi) && vc) return vc;
#endif
    size_t r = SIMD_NAME(row_for)(s, specialised);
    return r == SIZE_MAX ? SIMD_NAME(any) : SIMD_NAME(rows)[r].contains;
}

bf_blocked_insert_fn INSERT_FOR(const bf_blocked_shape *s, bool specialised) {
#if defined(SIMD_VERTICAL_FOR)
    bf_blocked_batch_fn vc;
    bf_blocked_insert_fn vi;
    if (SIMD_VERTICAL_FOR(s, specialised, &vc, &vi) && vi) return vi;
#endif
    size_t r = SIMD_NAME(row_for)(s, specialised);
    return r == SIZE_MAX ? SIMD_NAME(any_insert) : SIMD_NAME(rows)[r].insert;
}

#undef BF_BLOCKED_SIMD_H /* a template: the next ISA file includes it again */
#endif
