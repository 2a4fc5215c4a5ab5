/*
 * The blocked family's batch lookups and inserts with AVX-512. Compiled
 * with the AVX-512 kernel's flags alone (lib/meson.build); blocked.c calls
 * it when the process kernel is avx512.
 *
 * Arrangements of the lanes:
 *  - vertical (below), for the shapes of 64-bit sectors filling a 256- or
 *    512-bit block (S = B / 64: sectorized and cache-sectorized): a
 *    register holds one key's block (or two keys' 256-bit blocks), a lane
 *    per sector, and one load fetches it, as the SBBF's kernel does. Its
 *    inserts serve every such shape, its lookups those of four groups or
 *    more (VERT_LOOKUP_SERVES says why). At 10^6 keys on a Zen 4, (512, 8, 8, 8)
 *    looked up in 0.35x and built in 0.16x the horizontal time;
 *  - horizontal (the template blocked/blocked_simd.h), eight keys per
 *    register, for every other shape;
 *  - for lookups only: sixteen keys per register for register-blocked 32,
 *    and bit selection for blocked 512 where the CPU has VBMI and BITALG
 *    (both below the template).
 * Both compute the formulas of blocked/probe.h, so the same bits and
 * answers (tests/blocked compares every shape with the scalar probe).
 */
#include <immintrin.h>

#include "blocked/blocked.h"

/* ---- vertical ---------------------------------------------------------------------- */

/* A shape's lanes: lane l is sector l % S of key l / S (S = 4 or 8 sectors;
 * 2 or 1 keys per register). Per lane: the salts of its group's bits, its
 * group's selector salt, its sector and its group's first sector. */
typedef struct vert_lanes {
    __m512i bit_salt[BF_BLOCKED_MAX_K];
    __m512i sel_salt, sector, group_first;
} vert_lanes;

static inline void vert_lanes_init(vert_lanes *v, unsigned S, unsigned Z, unsigned K) {
    const unsigned spg = S / Z, per = K / Z;
    uint64_t t[8];
    for (unsigned b = 0; b < per; b++) {
        for (unsigned l = 0; l < 8; l++) t[l] = bf__blocked_salts[(l % S) / spg * per + b];
        v->bit_salt[b] = _mm512_loadu_si512((const void *)t);
    }
    for (unsigned l = 0; l < 8; l++) t[l] = bf__blocked_salts[BF_BLOCKED_SEL + (l % S) / spg];
    v->sel_salt = _mm512_loadu_si512((const void *)t);
    for (unsigned l = 0; l < 8; l++) t[l] = l % S;
    v->sector = _mm512_loadu_si512((const void *)t);
    for (unsigned l = 0; l < 8; l++) t[l] = (l % S) / spg * spg;
    v->group_first = _mm512_loadu_si512((const void *)t);
}

/* (lo * salt) mod 2^32 >> (32 - bits) per lane (lo: the low hash half). */
static inline __m512i vert_top_bits(__m512i lo, __m512i salt, unsigned bits) {
    __m512i p = _mm512_slli_epi64(_mm512_mul_epu32(lo, salt), 32);
    return _mm512_srl_epi64(p, _mm_cvtsi32_si128((int)(64 - bits)));
}

/* The lanes' bits (each lane its group's k / z bits) and, in *active, the
 * lanes that are their group's chosen sector: the key's words. */
static inline __m512i vert_mask(const vert_lanes *v, __m512i lo, unsigned S, unsigned Z,
                                unsigned K, __mmask8 *active) {
    const unsigned spg = S / Z, per = K / Z;
    __m512i mask = _mm512_setzero_si512();
    BF__BLOCKED_UNROLL
    for (unsigned b = 0; b < per; b++)
        mask = _mm512_or_si512(mask, _mm512_sllv_epi64(_mm512_set1_epi64(1),
                                                       vert_top_bits(lo, v->bit_salt[b], 6)));
    if (spg > 1) {
        __m512i chosen = _mm512_add_epi64(v->group_first,
                                          vert_top_bits(lo, v->sel_salt, bf__blocked_log2(spg)));
        *active = _mm512_cmpeq_epi64_mask(chosen, v->sector);
    } else {
        *active = 0xff;
    }
    return mask;
}

/* Keys go in octets. The block offsets of the octet RING - 1 ahead are
 * computed (with one multiply for eight keys) and prefetched while the
 * current octet is probed, and kept in a ring until then, as in the SBBF's
 * kernel (sbbf_avx512.c). */
#define VERT_RING 4
_Static_assert(BF_SBBF_PREFETCH_DISTANCE == 8 * (VERT_RING - 1), "prefetch three octets ahead");

static inline void vert_offsets(const uint64_t *hs, __m512i nb, unsigned B, uint64_t off[8]) {
    __m512i block = _mm512_srli_epi64(_mm512_mul_epu32(_mm512_srli_epi64(_mm512_loadu_si512((const void *)hs), 32), nb), 32);
    _mm512_storeu_si512((void *)off, _mm512_sll_epi64(block, _mm_cvtsi32_si128((int)bf__blocked_log2(B / 8))));
}

/* The same for a filter too small to prefetch, in scalar registers (a
 * vector store read back at once by scalar loads would wait for the store
 * to reach the cache on some cores). */
static inline void vert_offsets_scalar(const uint64_t *hs, uint64_t nb, unsigned B, uint64_t off[8]) {
    /* nb < 2^32 (blocked.c takes these kernels only then): the SBBF's index,
     * with no test for larger filters in the loop. */
    BF__BLOCKED_UNROLL
    for (unsigned j = 0; j < 8; j++) off[j] = bf_sbbf_block_index(bf_sbbf_load_hash(hs + j), nb) << bf__blocked_log2(B / 8);
}

/* The block offsets of a batch's octets: the ring where the filter is
 * large enough to prefetch, else computed for the octet at hand. */
typedef struct vert_walk {
    uint64_t ring[VERT_RING][8], near[8];
    __m512i nbv;
    uint64_t nb;
    bool ring_on;
    unsigned B;
} vert_walk;

static inline void vert_walk_start(vert_walk *w, const bf_blocked *f, const uint64_t *hs,
                                   size_t n, unsigned B) {
    w->nb = f->num_blocks;
    w->nbv = _mm512_set1_epi64((long long)w->nb);
    w->ring_on = f->num_bytes >= BF_SBBF_PREFETCH_MIN_BYTES;
    w->B = B;
    if (w->ring_on && n >= BF_SBBF_PREFETCH_DISTANCE + 8)
        for (unsigned r = 0; r < VERT_RING - 1; r++) vert_offsets(hs + 8 * r, w->nbv, B, w->ring[r]);
}

/* The offsets of octet i (of n keys), prefetching (for writing if rw) the
 * blocks of the octet three ahead. */
static inline const uint64_t *vert_walk_step(vert_walk *w, const uint8_t *base, const uint64_t *hs,
                                             size_t i, size_t n, int rw) {
    if (w->ring_on && i + BF_SBBF_PREFETCH_DISTANCE + 8 <= n) {
        uint64_t *ahead = w->ring[(i / 8 + VERT_RING - 1) % VERT_RING];
        vert_offsets(hs + i + BF_SBBF_PREFETCH_DISTANCE, w->nbv, w->B, ahead);
        for (unsigned j = 0; j < 8; j++) {
            if (rw) __builtin_prefetch(base + ahead[j], 1);
            else __builtin_prefetch(base + ahead[j], 0);
        }
        return w->ring[(i / 8) % VERT_RING];
    }
    vert_offsets_scalar(hs + i, w->nb, w->B, w->near);
    return w->near;
}

/* Register r of an octet holds key r (S = 8) or keys 2r and 2r + 1 (S = 4):
 * its lanes' low hash halves (the multiply reads the low 32 bits of each
 * lane, so the broadcast hash needs no masking). hs: its first key. */
static inline __m512i vert_lo(const uint64_t *hs, unsigned S) {
    const __m512i first = _mm512_set1_epi64((long long)bf_sbbf_load_hash(hs));
    if (S == 8) return first;
    return _mm512_mask_blend_epi64(0xf0, first, _mm512_set1_epi64((long long)bf_sbbf_load_hash(hs + 1)));
}

/* The sectors that miss a bit, in register r of an octet (see vert_lo):
 * bit l of the result for lane l, active lanes only. off: the octet's
 * block offsets; hs: its hashes. */
static inline unsigned vert_miss(const vert_lanes *v, const uint8_t *base, const uint64_t *off,
                                 const uint64_t *hs, unsigned r, unsigned S, unsigned Z,
                                 unsigned K) {
    const unsigned key = r * (8 / S);
    __m512i blk;
    if (S == 8)
        blk = _mm512_loadu_si512((const void *)(base + off[key]));
    else
        blk = _mm512_inserti64x4(
            _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(const void *)(base + off[key]))),
            _mm256_loadu_si256((const __m256i *)(const void *)(base + off[key + 1])), 1);
    __mmask8 active;
    const __m512i missing = _mm512_andnot_si512(blk, vert_mask(v, vert_lo(hs + key, S), S, Z, K, &active));
    return _mm512_mask_test_epi64_mask(active, missing, missing);
}

/* An octet's answers (byte j of hit: key j, 0 or 1) to out unless NULL;
 * returns how many are 1. x86 is little-endian: byte j lands at out[j]. */
static inline size_t octet_answers(uint8_t *out, uint64_t hit) {
    if (out) memcpy(out, &hit, 8);
    return (size_t)__builtin_popcountll(hit);
}

/* Batch lookup: octets, the rest with the scalar instance. */
static inline __attribute__((always_inline)) size_t
vert_contains(const bf_blocked *f, const uint64_t *hs, size_t n, uint8_t *out, unsigned B,
              unsigned S, unsigned Z, unsigned K) {
    const uint8_t *const data = f->data;
    vert_lanes v;
    vert_lanes_init(&v, S, Z, K);
    vert_walk w;
    vert_walk_start(&w, f, hs, n, B);
    size_t hits = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        const uint64_t *off = vert_walk_step(&w, data, hs, i, n, 0);
        uint64_t miss = 0; /* S bits per key, key j at bit S * j */
        for (unsigned r = 0; r < S; r++) /* S registers of 8 / S keys */
            miss |= (uint64_t)vert_miss(&v, data, off, hs + i, r, S, Z, K) << (8 * r);
        if (S == 4) miss = _pdep_u64(miss, 0x0f0f0f0f0f0f0f0full); /* a nibble per key to a byte */
        const uint64_t hit = bf__zero_bytes(miss);
        hits += octet_answers(out ? out + i : NULL, hit);
    }
    return hits + bf__blocked_tail_contains(f, hs, i, n, out);
}

/* Batch insert: each key's block or-ed in by one read-modify-write, key
 * after key (keys of an octet may share a block: each reads what the ones
 * before it wrote). */
static inline __attribute__((always_inline)) void
vert_insert(bf_blocked *f, const uint64_t *hs, size_t n, unsigned B, unsigned S, unsigned Z,
            unsigned K) {
    uint8_t *const bits = f->bits;
    vert_lanes v;
    vert_lanes_init(&v, S, Z, K);
    vert_walk w;
    vert_walk_start(&w, f, hs, n, B);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const uint64_t *off = vert_walk_step(&w, bits, hs, i, n, 1);
        BF__BLOCKED_UNROLL
        for (unsigned r = 0; r < S; r++) { /* S registers of 8 / S keys */
            const unsigned key = r * (8 / S);
            __mmask8 active;
            const __m512i mask = vert_mask(&v, vert_lo(hs + i + key, S), S, Z, K, &active);
            const __m512i set = _mm512_maskz_mov_epi64(active, mask);
            if (S == 8) {
                uint8_t *p = bits + off[key];
                _mm512_storeu_si512((void *)p, _mm512_or_si512(_mm512_loadu_si512((const void *)p), set));
            } else {
                __m256i *a = (__m256i *)(void *)(bits + off[key]);
                _mm256_storeu_si256(a, _mm256_or_si256(_mm256_loadu_si256(a), _mm512_castsi512_si256(set)));
                /* Loaded after a's store: a == b keeps both keys' bits. */
                __m256i *b = (__m256i *)(void *)(bits + off[key + 1]);
                _mm256_storeu_si256(b, _mm256_or_si256(_mm256_loadu_si256(b), _mm512_extracti64x4_epi64(set, 1)));
            }
        }
    }
    for (; i < n; i++) f->impl->insert(f, bf_sbbf_load_hash(hs + i));
}

/* Their instances and table are the template's (blocked/blocked_simd.h,
 * "vertical instances": vert_for_avx512). The lookup serves four groups
 * or more: below, a horizontal lookup gathers z words per eight keys,
 * fewer instructions than a vertical one's per-lane bits and sector
 * choice for each key ((512, 8, 2, 6): 2.3x the horizontal time at 10^6
 * keys, Zen 4). The vertical insert serves every such shape (0.5-0.9x
 * the horizontal). */
#define VERT_CONTAINS vert_contains
#define VERT_INSERT vert_insert
#define VERT_LOOKUP_SERVES(S, Z) ((Z) >= 4)

/* The instances of this file for shape s (below, after the template). */
static int own_for(const bf_blocked_shape *s, bool specialised, bf_blocked_batch_fn *contains,
                   bf_blocked_insert_fn *insert);

/* ---- horizontal ---------------------------------------------------------------------- */


#define V __m512i
#define LANES 8u
#define V_SET1(x) _mm512_set1_epi64((long long)(x))
#define V_MUL_EPU32 _mm512_mul_epu32
#define V_SLLI _mm512_slli_epi64
#define V_SRLI _mm512_srli_epi64
#define V_SLL(a, n) _mm512_sll_epi64(a, _mm_cvtsi32_si128((int)(n)))
#define V_SRL(a, n) _mm512_srl_epi64(a, _mm_cvtsi32_si128((int)(n)))
#define V_SLLV _mm512_sllv_epi64
#define V_AND _mm512_and_si512
#define V_OR _mm512_or_si512
#define V_ANDNOT _mm512_andnot_si512
#define V_ADD _mm512_add_epi64
#define V_ZERO _mm512_setzero_si512
#define V_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define V_STOREU(p, v) _mm512_storeu_si512((void *)(p), v)
#define V_GATHER64(d, off) _mm512_i64gather_epi64(off, (const void *)(d), 1)
#define V_GATHER32(d, off) _mm512_cvtepu32_epi64(_mm512_i64gather_epi32(off, (const void *)(d), 1))
#define V_ZERO_LANES(m) ((unsigned)_mm512_cmpeq_epi64_mask(m, _mm512_setzero_si512()))
#define SIMD_NAME(x) x##_avx512
#define CONTAINS_FOR bf__blocked_avx512_contains_for
#define INSERT_FOR bf__blocked_avx512_insert_for
#define SIMD_VERTICAL_FOR own_for

#include "blocked/blocked_simd.h"

/* ---- register-blocked 32: sixteen keys per register ---------------------------------- */

/* Lookups of the shapes (32, 1, 1, k) with 32-bit lanes: one gather of
 * sixteen words where the horizontal template's 64-bit lanes take two of
 * eight, and half the instructions per key for the bits. The gather's
 * indices are signed 32-bit words: filters of fewer than 2^31 blocks
 * (8 GiB); larger ones take the horizontal lookup. Same formulas as
 * blocked/probe.h: block ((h >> 32) * blocks) >> 32, bit t of the word
 * (lo * salt[t]) mod 2^32 >> 27. */
static inline __m512i r32_low_halves(__m512i a, __m512i b) {
    const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
    return _mm512_permutex2var_epi32(a, even, b);
}

static inline __m512i r32_block(__m512i h, __m512i nbv) {
    return _mm512_srli_epi64(_mm512_mul_epu32(_mm512_srli_epi64(h, 32), nbv), 32);
}

static inline __attribute__((always_inline)) size_t
r32_contains(const bf_blocked *f, const uint64_t *hs, size_t n, uint8_t *out, unsigned K) {
    if (f->num_blocks >= ((uint64_t)1 << 31)) return any_avx512(f, hs, n, out);
    const uint8_t *const data = f->data;
    __m512i salt[BF_BLOCKED_MAX_K];
    for (unsigned t = 0; t < K; t++) salt[t] = _mm512_set1_epi32((int)bf__blocked_salts[t]);
    const __m512i one = _mm512_set1_epi32(1);
    vert_walk w; /* prefetches only */
    vert_walk_start(&w, f, hs, n, 32);
    size_t hits = 0, i = 0;
    for (; i + 16 <= n; i += 16) {
        if (w.ring_on) {
            (void)vert_walk_step(&w, data, hs, i, n, 0);
            (void)vert_walk_step(&w, data, hs, i + 8, n, 0);
        }
        const __m512i h0 = _mm512_loadu_si512((const void *)(hs + i));
        const __m512i h1 = _mm512_loadu_si512((const void *)(hs + i + 8));
        const __m512i block = r32_low_halves(r32_block(h0, w.nbv), r32_block(h1, w.nbv));
        const __m512i lo = r32_low_halves(h0, h1);
        __m512i mask = _mm512_setzero_si512();
        BF__BLOCKED_UNROLL
        for (unsigned t = 0; t < K; t++)
            mask = _mm512_or_si512(mask, _mm512_sllv_epi32(one, _mm512_srli_epi32(_mm512_mullo_epi32(lo, salt[t]), 27)));
        const __m512i word = _mm512_i32gather_epi32(block, (const void *)data, 4);
        const __m512i missing = _mm512_andnot_si512(word, mask);
        const __mmask16 hit = _mm512_testn_epi32_mask(missing, missing);
        if (out) _mm_storeu_si128((__m128i *)(void *)(out + i), _mm_maskz_set1_epi8(hit, 1));
        hits += (size_t)__builtin_popcount((unsigned)hit);
    }
    return hits + bf__blocked_tail_contains(f, hs, i, n, out);
}

#define R32_INSTANCE(k)                                                                        \
    static size_t r32k##k##_sixteen(const bf_blocked *f, const uint64_t *hs, size_t n,          \
                                    uint8_t *out) {                                            \
        return r32_contains(f, hs, n, out, k);                                                 \
    }
R32_INSTANCE(3)
R32_INSTANCE(4)
R32_INSTANCE(5)
static size_t r32_any_sixteen(const bf_blocked *f, const uint64_t *hs, size_t n, uint8_t *out) {
    return r32_contains(f, hs, n, out, f->shape.k);
}

/* ---- blocked 512: bit selection --------------------------------------------------------- */

/* Lookups of the shapes (512, 1, 1, k), on CPUs with AVX-512 VBMI and
 * BITALG. The horizontal template gathers one word per bit per octet (k
 * gathers of eight); here one load fetches a key's whole 64-byte block,
 * VPERMB picks the byte of each of its bits (up to eight bits a round,
 * the key's lane of a register), and one VPSHUFBITQMB per round tests
 * the eight keys' bits at once. Same formulas as blocked/probe.h: bit t
 * of a key is bit p = (lo * salt[t]) mod 2^32 >> 23 of its block, bit
 * p % 8 of byte p / 8. A round of fewer than eight bits repeats its
 * first. */
#define BITSEL_TARGET __attribute__((target("avx512vbmi,avx512bitalg")))

static inline __attribute__((always_inline)) BITSEL_TARGET size_t
bitsel_contains(const bf_blocked *f, const uint64_t *hs, size_t n, uint8_t *out, unsigned K) {
    const uint8_t *const data = f->data;
    __m512i salt[BF_BLOCKED_MAX_K];
    for (unsigned t = 0; t < K; t++) salt[t] = _mm512_set1_epi64((long long)bf__blocked_salts[t]);
    vert_walk w;
    vert_walk_start(&w, f, hs, n, 512);
    size_t hits = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        const uint64_t *off = vert_walk_step(&w, data, hs, i, n, 0);
        const __m512i lo = _mm512_loadu_si512((const void *)(hs + i)); /* the multiply reads lo */
        uint64_t all = ~(uint64_t)0; /* bit 8j + u: bit u of key j's round is set */
        BF__BLOCKED_UNROLL
        for (unsigned r = 0; r < (K + 7) / 8; r++) {
            __m512i byte_at = _mm512_setzero_si512(), bit_at = _mm512_setzero_si512();
            BF__BLOCKED_UNROLL
            for (unsigned u = 0; u < 8; u++) {
                const unsigned t = 8 * r + u < K ? 8 * r + u : 8 * r;
                /* p in bits 23..31 of the product's low half */
                const __m512i prod = _mm512_mul_epu32(lo, salt[t]);
                const __m512i byte = _mm512_srli_epi64(_mm512_slli_epi64(prod, 32), 58);
                const __m512i bit = _mm512_and_si512(_mm512_srli_epi64(prod, 23), _mm512_set1_epi64(7));
                byte_at = _mm512_or_si512(byte_at, _mm512_slli_epi64(byte, 8 * u));
                bit_at = _mm512_or_si512(bit_at, _mm512_slli_epi64(_mm512_or_si512(bit, _mm512_set1_epi64(8 * u)), 8 * u));
            }
            __m512i bytes = _mm512_setzero_si512();
            BF__BLOCKED_UNROLL
            for (unsigned j = 0; j < 8; j++) /* key j's bytes to its lane */
                bytes = _mm512_mask_permutexvar_epi8(bytes, (__mmask64)0xff << (8 * j), byte_at,
                                                     _mm512_loadu_si512((const void *)(data + off[j])));
            all &= (uint64_t)_mm512_bitshuffle_epi64_mask(bytes, bit_at);
        }
        const uint64_t hit = bf__zero_bytes(~all);
        hits += octet_answers(out ? out + i : NULL, hit);
    }
    return hits + bf__blocked_tail_contains(f, hs, i, n, out);
}

#define BITSEL_INSTANCE(k)                                                                     \
    static BITSEL_TARGET size_t b512k##k##_bitsel(const bf_blocked *f, const uint64_t *hs,     \
                                                  size_t n, uint8_t *out) {                   \
        return bitsel_contains(f, hs, n, out, k);                                              \
    }
BITSEL_INSTANCE(6)
BITSEL_INSTANCE(8)
BITSEL_INSTANCE(10)
static BITSEL_TARGET size_t b512_any_bitsel(const bf_blocked *f, const uint64_t *hs, size_t n,
                                            uint8_t *out) {
    return bitsel_contains(f, hs, n, out, f->shape.k);
}

/* ---- this file's own instances ------------------------------------------------------- */

/* The lookups of this file's own for plain blocks (S = 1), specialised
 * by k where compiled for: register-blocked 32 with sixteen keys per
 * register, blocked 512 by bit selection. */
static const struct {
    unsigned block_bits, k;
    bf_blocked_batch_fn contains;
} plain_rows[] = {
    {32, 3, r32k3_sixteen}, {32, 4, r32k4_sixteen}, {32, 5, r32k5_sixteen},
    {512, 6, b512k6_bitsel}, {512, 8, b512k8_bitsel}, {512, 10, b512k10_bitsel},
};

/* s's row of plain_rows if `specialised` and there is one, else any. */
static bf_blocked_batch_fn plain_lookup(const bf_blocked_shape *s, bool specialised,
                                        bf_blocked_batch_fn any) {
    if (specialised)
        for (size_t i = 0; i < sizeof plain_rows / sizeof plain_rows[0]; i++)
            if (plain_rows[i].block_bits == s->block_bits && plain_rows[i].k == s->k)
                return plain_rows[i].contains;
    return any;
}

/* The instances of this file for shape s: the sixteen-key lookup of
 * register-blocked 32 (its inserts stay horizontal: lanes sharing a word
 * must be or-ed in one after another), the bit-selecting lookup of
 * blocked 512 where the CPU has it (inserts horizontal), else the
 * vertical ones. */
static int own_for(const bf_blocked_shape *s, bool specialised, bf_blocked_batch_fn *contains,
                   bf_blocked_insert_fn *insert) {
    const bool r32 = s->block_bits == 32;
    const bool b512 = s->block_bits == 512 && s->sectors == 1 &&
                      (bf__cpu_features() & BF_CPU_AVX512BITSEL);
    if (!r32 && !b512) return vert_for_avx512(s, specialised, contains, insert);
    *contains = plain_lookup(s, specialised, r32 ? r32_any_sixteen : b512_any_bitsel);
    *insert = NULL;
    return 1;
}
