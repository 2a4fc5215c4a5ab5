/*
 * The blocked family's batch lookups and inserts with AVX2. Compiled with
 * -mavx2 alone (lib/meson.build); blocked.c calls it when the process
 * kernel is avx2 (so BLOCKFILTER_KERNEL=scalar means no SIMD here either).
 *
 * Arrangements of the lanes:
 *  - vertical (below), for the shapes of 64-bit sectors filling a 256- or
 *    512-bit block (BF_BLOCKED_VERT_FITS): one key at a time, a lane per
 *    sector, its block in one register (256 bits) or two (512), fetched by
 *    one load each, as the SBBF's kernel does;
 *  - horizontal (the template blocked/blocked_simd.h), four keys per
 *    register, a gather per word, for every other shape and for the
 *    lookups the vertical one does not serve (VERT_LOOKUP_SERVES);
 *  - for lookups only: eight keys per register for register-blocked 32
 *    (below the template);
 *  - blocked 128-512 (S = 1): inserts one key at a time, eight bit
 *    positions per multiply, and lookups two keys per register, a key's
 *    bytes picked by shuffles (below the template).
 * All compute the formulas of blocked/probe.h, so the same bits and
 * answers (tests/blocked compares every shape with the scalar probe).
 */
#include <immintrin.h>

#include "blocked/blocked.h"

/* ---- vertical ---------------------------------------------------------------------- */

/* A shape's lanes: register h of a key (h = 0, and 1 for a 512-bit block)
 * holds sectors 4h .. 4h + 3, a 64-bit lane each. The lanes of one group
 * within a register (2 or 4 of them, v2_share) may share its bits: in round r
 * the group's j-th lane computes bit r * share + j (modulo k / z, so a round
 * that passes the last bit repeats one), and the lanes' masks are or-ed
 * together before the chosen sector keeps them. So a key takes
 * ceil((k / z) / share) multiplies per register instead of k / z, each
 * lane computing its own group's bits, as a sectorized shape's (share 1)
 * do. Per lane: the salts of its bits in each round, its group's selector
 * salt, its sector and its group's first sector. */
typedef struct v2_lanes {
    __m256i bit_salt[2][BF_BLOCKED_MAX_K];
    __m256i sel_salt[2], sector[2], group_first[2];
} v2_lanes;

/* The lanes of a register that share a group's bits: S / Z for a 512-bit
 * block (S = 8) where that is 2 or 4 and sharing saves at least two
 * multiplies per register, else 1. The or of the lanes costs two or four
 * operations, one of them across the register's halves. Inserts at 10^6
 * keys on a Zen 3 guest, shared against not: (512, 8, 2, 8) 0.78x the
 * time, (512, 8, 2, 6) 0.95x; (512, 8, 2, 4), saving one multiply,
 * 1.10x, and (256, 4, 1, 4), saving three, 1.08x, so those do not share. */
static inline unsigned v2_share(unsigned S, unsigned Z, unsigned K) {
    const unsigned spg = S / Z, per = K / Z;
    if (S != 8 || (spg != 2 && spg != 4)) return 1;
    return per - (per + spg - 1) / spg >= 2 ? spg : 1;
}

/* Rounds of multiplies per register. */
static inline unsigned v2_rounds(unsigned S, unsigned Z, unsigned K) {
    const unsigned share = v2_share(S, Z, K);
    return (K / Z + share - 1) / share;
}

static inline __m256i v2_load4(const uint64_t t[4]) {
    return _mm256_loadu_si256((const __m256i *)(const void *)t);
}

static inline void v2_lanes_init(v2_lanes *v, unsigned S, unsigned Z, unsigned K) {
    const unsigned spg = S / Z, per = K / Z, share = v2_share(S, Z, K);
    for (unsigned h = 0; h < S / 4; h++) {
        uint64_t t[4];
        for (unsigned r = 0; r < v2_rounds(S, Z, K); r++) {
            for (unsigned l = 0; l < 4; l++) {
                const unsigned sector = 4 * h + l, bit = (r * share + sector % share) % per;
                t[l] = bf__blocked_salts[sector / spg * per + bit];
            }
            v->bit_salt[h][r] = v2_load4(t);
        }
        for (unsigned l = 0; l < 4; l++) t[l] = bf__blocked_salts[BF_BLOCKED_SEL + (4 * h + l) / spg];
        v->sel_salt[h] = v2_load4(t);
        for (unsigned l = 0; l < 4; l++) t[l] = 4 * h + l;
        v->sector[h] = v2_load4(t);
        for (unsigned l = 0; l < 4; l++) t[l] = (4 * h + l) / spg * spg;
        v->group_first[h] = v2_load4(t);
    }
}

/* (lo * salt) mod 2^32 >> (32 - bits) per 64-bit lane, lo in the low
 * half of each lane and salt a 32-bit value (its lane's high half 0): a
 * 32-bit multiply leaves the product's low half in the lane's low half
 * and 0 (the high half times 0) in its high half, so one 32-bit shift
 * gives the lane's value. Two vector shifts per bit were the bottleneck
 * of (512, 8, 2, 8)'s insert on a Zen 3 (28 of its 60 vector operations
 * per key were shifts, which take two of the four pipes). */
static inline __m256i v2_top_bits(__m256i lo, __m256i salt, unsigned bits) {
    return _mm256_srli_epi32(_mm256_mullo_epi32(lo, salt), (int)(32 - bits));
}

/* The key's bits in register h's sectors: each lane its group's k / z
 * bits if it is its group's chosen sector, else none. lo: the hash,
 * broadcast (the multiply reads the low half of each lane). */
static inline __m256i v2_mask(const v2_lanes *v, __m256i lo, unsigned h, unsigned S, unsigned Z,
                              unsigned K) {
    const unsigned spg = S / Z, share = v2_share(S, Z, K);
    __m256i mask = _mm256_setzero_si256();
    BF__BLOCKED_UNROLL
    for (unsigned r = 0; r < v2_rounds(S, Z, K); r++)
        mask = _mm256_or_si256(mask, _mm256_sllv_epi64(_mm256_set1_epi64x(1),
                                                       v2_top_bits(lo, v->bit_salt[h][r], 6)));
    if (share >= 2) /* or the pairs of lanes (a 128-bit half each) */
        mask = _mm256_or_si256(mask, _mm256_shuffle_epi32(mask, 0x4E));
    if (share == 4) /* and the two halves */
        mask = _mm256_or_si256(mask, _mm256_permute4x64_epi64(mask, 0x4E));
    if (spg > 1) {
        const __m256i chosen = _mm256_add_epi64(
            v->group_first[h], v2_top_bits(lo, v->sel_salt[h], bf__blocked_log2(spg)));
        mask = _mm256_and_si256(mask, _mm256_cmpeq_epi64(chosen, v->sector[h]));
    }
    return mask;
}

/* The byte offset of a hash's block (nb < 2^32: blocked.c takes these
 * kernels only then). */
static inline size_t v2_offset(uint64_t h, uint64_t nb, unsigned B) {
    return (size_t)bf_sbbf_block_index(h, nb) << bf__blocked_log2(B / 8);
}

/* Batch lookup, key by key; the block of the key BF_SBBF_PREFETCH_DISTANCE
 * ahead is prefetched where the filter is large enough. */
static inline __attribute__((always_inline)) size_t
v2_contains(const bf_blocked *f, const uint64_t *hs, size_t n, uint8_t *out, unsigned B,
            unsigned S, unsigned Z, unsigned K) {
    const uint8_t *const data = f->data;
    const uint64_t nb = f->num_blocks;
    const bool pf = f->num_bytes >= BF_SBBF_PREFETCH_MIN_BYTES;
    v2_lanes v;
    v2_lanes_init(&v, S, Z, K);
    size_t hits = 0;
    for (size_t i = 0; i < n; i++) {
        if (pf && i + BF_SBBF_PREFETCH_DISTANCE < n)
            __builtin_prefetch(data + v2_offset(bf_sbbf_load_hash(hs + i + BF_SBBF_PREFETCH_DISTANCE), nb, B), 0);
        const uint64_t h = bf_sbbf_load_hash(hs + i);
        const uint8_t *p = data + v2_offset(h, nb, B);
        const __m256i lo = _mm256_set1_epi64x((long long)h);
        __m256i missing = _mm256_andnot_si256(_mm256_loadu_si256((const __m256i *)(const void *)p),
                                              v2_mask(&v, lo, 0, S, Z, K));
        if (S == 8)
            missing = _mm256_or_si256(
                missing, _mm256_andnot_si256(_mm256_loadu_si256((const __m256i *)(const void *)(p + 32)),
                                             v2_mask(&v, lo, 1, S, Z, K)));
        const bool hit = _mm256_testz_si256(missing, missing);
        if (out) out[i] = (uint8_t)hit;
        hits += hit;
    }
    return hits;
}

/* Batch insert: each key's block or-ed in by a read-modify-write of each
 * register, key after key (a key reads what the ones before it wrote). */
static inline __attribute__((always_inline)) void
v2_insert(bf_blocked *f, const uint64_t *hs, size_t n, unsigned B, unsigned S, unsigned Z,
          unsigned K) {
    uint8_t *const bits = f->bits;
    const uint64_t nb = f->num_blocks;
    const bool pf = f->num_bytes >= BF_SBBF_PREFETCH_MIN_BYTES;
    v2_lanes v;
    v2_lanes_init(&v, S, Z, K);
    for (size_t i = 0; i < n; i++) {
        if (pf && i + BF_SBBF_PREFETCH_DISTANCE < n)
            __builtin_prefetch(bits + v2_offset(bf_sbbf_load_hash(hs + i + BF_SBBF_PREFETCH_DISTANCE), nb, B), 1);
        const uint64_t h = bf_sbbf_load_hash(hs + i);
        __m256i *p = (__m256i *)(void *)(bits + v2_offset(h, nb, B));
        const __m256i lo = _mm256_set1_epi64x((long long)h);
        _mm256_storeu_si256(p, _mm256_or_si256(_mm256_loadu_si256(p), v2_mask(&v, lo, 0, S, Z, K)));
        if (S == 8)
            _mm256_storeu_si256(p + 1, _mm256_or_si256(_mm256_loadu_si256(p + 1),
                                                       v2_mask(&v, lo, 1, S, Z, K)));
    }
}

/* Their instances and table are the template's (blocked/blocked_simd.h,
 * "vertical instances": vert_for_avx2). The lookup serves sectorized
 * shapes (z = S) only: with fewer groups a key uses z of the S sectors,
 * and choosing them lane by lane cost more than the horizontal lookup's
 * gathers of z words ((512, 8, 4, 8) at 10^6 keys: 1.1-1.8x the
 * horizontal time; Zen 3, AVX2). The insert serves every such shape. */
#define VERT_CONTAINS v2_contains
#define VERT_INSERT v2_insert
#define VERT_LOOKUP_SERVES(S, Z) ((Z) == (S))

/* The instances of this file for shape s (below, after the template). */
static int avx2_own_for(const bf_blocked_shape *s, bool specialised, bf_blocked_batch_fn *contains,
                        bf_blocked_insert_fn *insert);

/* ---- horizontal ---------------------------------------------------------------------- */

#define V __m256i
#define LANES 4u
#define V_SET1(x) _mm256_set1_epi64x((long long)(x))
#define V_MUL_EPU32 _mm256_mul_epu32
#define V_MULLO32 _mm256_mullo_epi32
#define V_SLLI _mm256_slli_epi64
#define V_SRLI _mm256_srli_epi64
#define V_SLL(a, n) _mm256_sll_epi64(a, _mm_cvtsi32_si128((int)(n)))
#define V_SRL(a, n) _mm256_srl_epi64(a, _mm_cvtsi32_si128((int)(n)))
#define V_SLLV _mm256_sllv_epi64
#define V_AND _mm256_and_si256
#define V_OR _mm256_or_si256
#define V_ANDNOT _mm256_andnot_si256
#define V_ADD _mm256_add_epi64
#define V_ZERO _mm256_setzero_si256
#define V_LOADU(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define V_STOREU(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define V_GATHER64(d, off) _mm256_i64gather_epi64((const long long *)(const void *)(d), off, 1)
#define V_GATHER32(d, off) \
    _mm256_cvtepu32_epi64(_mm256_i64gather_epi32((const int *)(const void *)(d), off, 1))
#define V_ZERO_LANES(m) \
    ((unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(m, _mm256_setzero_si256()))))
#define SIMD_NAME(x) x##_avx2
#define CONTAINS_FOR bf__blocked_avx2_contains_for
#define INSERT_FOR bf__blocked_avx2_insert_for
#define SIMD_VERTICAL_FOR avx2_own_for

#include "blocked/blocked_simd.h"

/* ---- register-blocked 32: eight keys per register ----------------------------------- */

/* Lookups of the shapes (32, 1, 1, k) with 32-bit lanes: one gather of
 * eight words where the template's 64-bit lanes take two of four. The
 * gather's indices are signed 32-bit words: filters of fewer than 2^31
 * blocks (8 GiB); larger ones take the template. Same formulas as
 * blocked/probe.h: block ((h >> 32) * blocks) >> 32, bit t of the word
 * (lo * salt[t]) mod 2^32 >> 27. */

/* The low 32-bit halves of a's four lanes, then b's. */
static inline __m256i r32x8_low_halves(__m256i a, __m256i b) {
    const __m256 ab = _mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b),
                                        _MM_SHUFFLE(2, 0, 2, 0)); /* a0 a1 b0 b1 | a2 a3 b2 b3 */
    return _mm256_permute4x64_epi64(_mm256_castps_si256(ab), _MM_SHUFFLE(3, 1, 2, 0));
}

static inline __m256i r32x8_block(__m256i h, __m256i nbv) {
    return _mm256_srli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(h, 32), nbv), 32);
}

static inline __attribute__((always_inline)) size_t
r32x8_contains(const bf_blocked *f, const uint64_t *hs, size_t n, uint8_t *out, unsigned K) {
    if (f->num_blocks >= ((uint64_t)1 << 31)) return any_avx2(f, hs, n, out);
    const uint8_t *const data = f->data;
    const uint64_t nb = f->num_blocks;
    const bool pf = f->num_bytes >= BF_SBBF_PREFETCH_MIN_BYTES;
    const __m256i nbv = _mm256_set1_epi64x((long long)nb);
    __m256i salt[BF_BLOCKED_MAX_K];
    for (unsigned t = 0; t < K; t++) salt[t] = _mm256_set1_epi32((int)bf__blocked_salts[t]);
    const __m256i one = _mm256_set1_epi32(1);
    size_t hits = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        if (pf && i + BF_SBBF_PREFETCH_DISTANCE + 8 <= n)
            for (unsigned j = 0; j < 8; j++)
                __builtin_prefetch(data + v2_offset(bf_sbbf_load_hash(hs + i + BF_SBBF_PREFETCH_DISTANCE + j), nb, 32), 0);
        const __m256i h0 = _mm256_loadu_si256((const __m256i *)(const void *)(hs + i));
        const __m256i h1 = _mm256_loadu_si256((const __m256i *)(const void *)(hs + i + 4));
        const __m256i block = r32x8_low_halves(r32x8_block(h0, nbv), r32x8_block(h1, nbv));
        const __m256i lo = r32x8_low_halves(h0, h1);
        __m256i mask = _mm256_setzero_si256();
        BF__BLOCKED_UNROLL
        for (unsigned t = 0; t < K; t++)
            mask = _mm256_or_si256(mask, _mm256_sllv_epi32(one, _mm256_srli_epi32(_mm256_mullo_epi32(lo, salt[t]), 27)));
        const __m256i word = _mm256_i32gather_epi32((const int *)(const void *)data, block, 4);
        const __m256i missing = _mm256_andnot_si256(word, mask);
        const unsigned hit = (unsigned)_mm256_movemask_ps(
            _mm256_castsi256_ps(_mm256_cmpeq_epi32(missing, _mm256_setzero_si256())));
        if (out) bf__blocked_answers(out + i, hit, 8);
        hits += (size_t)__builtin_popcount(hit);
    }
    return hits + bf__blocked_tail_contains(f, hs, i, n, out);
}

#define R32X8_INSTANCE(k)                                                                      \
    static size_t r32k##k##_eight(const bf_blocked *f, const uint64_t *hs, size_t n,            \
                                  uint8_t *out) {                                              \
        return r32x8_contains(f, hs, n, out, k);                                               \
    }
R32X8_INSTANCE(3)
R32X8_INSTANCE(4)
R32X8_INSTANCE(5)
static size_t r32_any_eight(const bf_blocked *f, const uint64_t *hs, size_t n, uint8_t *out) {
    return r32x8_contains(f, hs, n, out, f->shape.k);
}

/* ---- blocked 128, 256 and 512 inserts: eight positions per multiply ------------------- */

/*
 * Inserts of the shapes (B, 1, 1, k) with B >= 128, one key at a time:
 * one 32-bit multiply gives eight of its bit positions (blocked/probe.h:
 * bit t is p = (lo * salt[t]) mod 2^32 >> (32 - log2 B), bit p % 64 of
 * the block's 64-bit word p / 64), moved to general registers two at a
 * time, and each bit is one read-modify-write of its word. The template
 * computes the same for four keys per register and passes every word's
 * offset and mask through memory: about seven operations per bit against
 * about four here (bw_set). The writes, not memory, bound these inserts
 * on a Zen 3: eight read-modify-writes of one L1-resident block take 7 ns
 * there with their positions given, and 1.8 ns when the same eight go to
 * the block's words in order, so what costs is that each write's word
 * comes from the hash. At 10^5 and 10^6 keys on
 * a Zen 3 guest: blocked 512 inserts in 0.72-0.86x the template's time,
 * (256, 1, 1, 8) 0.91-0.93x, (128, 1, 1, 4) 0.85x. Their lookups are
 * below: testing the words one key at a time, as these inserts set them,
 * took 1.3-1.7x the template's gathers.
 */

/* Positions c .. c + 7 of the key whose low hash half is in every lane
 * of lo, two per element of q (the lower one in the low half). */
static inline void bw_positions(__m256i lo, unsigned c, unsigned B, uint64_t q[4]) {
    const __m256i pos = _mm256_srli_epi32(
        _mm256_mullo_epi32(lo, _mm256_loadu_si256((const __m256i *)(const void *)(bf__blocked_salts + c))),
        (int)(32 - bf__blocked_log2(B)));
    const __m128i p0 = _mm256_castsi256_si128(pos), p1 = _mm256_extracti128_si256(pos, 1);
    q[0] = (uint64_t)_mm_cvtsi128_si64(p0);
    q[1] = (uint64_t)_mm_extract_epi64(p0, 1);
    q[2] = (uint64_t)_mm_cvtsi128_si64(p1);
    q[3] = (uint64_t)_mm_extract_epi64(p1, 1);
}

/* One key's bits, set in its block at p. p goes through an empty asm so
 * that each write addresses p + word * 8 (one operation) rather than
 * bits + offset + word * 8 (two). */
static inline __attribute__((always_inline)) void bw_set(uint8_t *p, uint64_t h, unsigned B, unsigned K) {
    __asm__("" : "+r"(p));
    const __m256i lo = _mm256_set1_epi32((int)(uint32_t)h);
    BF__BLOCKED_UNROLL
    for (unsigned c = 0; c < K; c += 8) {
        uint64_t q[4];
        bw_positions(lo, c, B, q);
        const unsigned m = K - c < 8 ? K - c : 8;
        for (unsigned j = 0; j < m; j++) {
            const uint32_t pos = (uint32_t)(q[j / 2] >> (32 * (j % 2)));
            bf__blocked_or_word(p + (size_t)(pos >> 6) * 8, (uint64_t)1 << (pos & 63), 1);
        }
    }
}

/* Each key prefetches the block of the key BF_SBBF_PREFETCH_DISTANCE
 * ahead where the filter is large enough. Shapes of at most 8 bits (one
 * multiply) run the keys that have one in a loop of their own, without the
 * test per key; more bits keep the test, because blocked 512 k = 10 took
 * 1.07x the time in that loop where k = 8 took 0.88x (10^8 keys,
 * partitioned, Zen 3 guest). With bw_set's empty asm, against the single
 * loop: blocked 512 k = 8 inserts in 0.85-0.92x the time, k = 6 0.97x,
 * k = 10 0.95-1.00x, (256, 1, 1, 8) 0.86-0.93x, (128, 1, 1, 4) 0.8x, at
 * 10^6 to 10^8 keys. */
static inline __attribute__((always_inline)) void
bw_insert(bf_blocked *f, const uint64_t *hs, size_t n, unsigned B, unsigned K) {
    uint8_t *const bits = f->bits;
    const uint64_t nb = f->num_blocks;
    const bool pf = f->num_bytes >= BF_SBBF_PREFETCH_MIN_BYTES;
    size_t i = 0;
    if (K <= 8 && pf && n > BF_SBBF_PREFETCH_DISTANCE)
        for (; i < n - BF_SBBF_PREFETCH_DISTANCE; i++) {
            __builtin_prefetch(bits + v2_offset(bf_sbbf_load_hash(hs + i + BF_SBBF_PREFETCH_DISTANCE), nb, B), 1);
            const uint64_t h = bf_sbbf_load_hash(hs + i);
            bw_set(bits + v2_offset(h, nb, B), h, B, K);
        }
    for (; i < n; i++) {
        if (pf && i + BF_SBBF_PREFETCH_DISTANCE < n)
            __builtin_prefetch(bits + v2_offset(bf_sbbf_load_hash(hs + i + BF_SBBF_PREFETCH_DISTANCE), nb, B), 1);
        const uint64_t h = bf_sbbf_load_hash(hs + i);
        bw_set(bits + v2_offset(h, nb, B), h, B, K);
    }
}

/* Instances for blocked 512's k in BF_BLOCKED_SHAPES, and one for any
 * such shape (the object's, read once). */
#define BW_INSTANCE(k)                                                                         \
    static void b512k##k##_bits_insert(bf_blocked *f, const uint64_t *hs, size_t n) {          \
        bw_insert(f, hs, n, 512, k);                                                           \
    }
BW_INSTANCE(6)
BW_INSTANCE(8)
BW_INSTANCE(10)
static void bw_any_insert(bf_blocked *f, const uint64_t *hs, size_t n) {
    const bf_blocked_shape s = f->shape;
    bw_insert(f, hs, n, s.block_bits, s.k);
}

/* ---- blocked 128, 256 and 512 lookups: bytes picked by shuffles ---------------------- */

/*
 * Lookups of the shapes (B, 1, 1, k) with B >= 128, two keys per register,
 * a 128-bit lane each (the AVX2 form of blocked_avx512.c's bit selection).
 * With lo = [A's low hash half x4 | B's x4], one 32-bit multiply gives four
 * bit positions p of each key (blocked/probe.h: p = (lo * salt[t]) mod 2^32
 * >> (32 - log2 B), bit p % 8 of the block's byte p / 8); two are packed
 * so that each lane holds its key's eight byte indices p / 8, then their
 * eight bit numbers p % 8. The pair's blocks are loaded once, as B / 128
 * registers of a 16-byte chunk of A's block beside the same chunk of B's.
 * A byte shuffle of each chunk by the indices, and blends by index bits 4
 * and 5, fetch every position's byte; a shuffle of a table of powers of
 * two gives its bit. The template gathers one word per bit instead (k
 * gathers per four keys). At 10^5 and 10^6 keys on a Zen 3 guest (the
 * inserts' A/B): blocked 512 lookups in 0.39-0.61x the template's time,
 * (256, 1, 1, 8) 0.35-0.41x and (128, 1, 1, 4) 0.61-0.65x (the instance
 * for any shape).
 */
static inline __attribute__((always_inline)) size_t
bsel_contains(const bf_blocked *f, const uint64_t *hs, size_t n, uint8_t *out, unsigned B,
              unsigned K) {
    const uint8_t *const data = f->data;
    const uint64_t nb = f->num_blocks;
    const bool pf = f->num_bytes >= BF_SBBF_PREFETCH_MIN_BYTES;
    const unsigned chunks = B / 128, shift = 32 - bf__blocked_log2(B), rounds = (K + 7) / 8;
    /* Round r tests bits 8r .. 8r + 7 (those below K): salts 8r .. 8r + 3
     * and 8r + 4 .. 8r + 7 in both lanes, and the bytes that count. */
    __m256i salt_a[BF_BLOCKED_MAX_K / 8], salt_b[BF_BLOCKED_MAX_K / 8];
    __m256i counts[BF_BLOCKED_MAX_K / 8];
    BF__BLOCKED_UNROLL
    for (unsigned r = 0; r < BF_BLOCKED_MAX_K / 8; r++) {
        const uint32_t *salt = bf__blocked_salts + 8 * r;
        salt_a[r] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)salt));
        salt_b[r] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(salt + 4)));
        const unsigned bits = K <= 8 * r ? 0 : K - 8 * r < 8 ? K - 8 * r : 8;
        const long long bytes = bits == 8 ? -1LL : (long long)((1ULL << (8 * bits)) - 1);
        counts[r] = _mm256_set_epi64x(0, bytes, 0, bytes);
    }
    const __m256i pow2 = _mm256_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0,
                                          1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i seven = _mm256_set1_epi16(7), low_halves = _mm256_setr_epi32(0, 0, 0, 0, 2, 2, 2, 2);
    size_t hits = 0, i = 0;
    for (; i + 2 <= n; i += 2) {
        if (pf && i + BF_SBBF_PREFETCH_DISTANCE + 2 <= n) {
            __builtin_prefetch(data + v2_offset(bf_sbbf_load_hash(hs + i + BF_SBBF_PREFETCH_DISTANCE), nb, B), 0);
            __builtin_prefetch(data + v2_offset(bf_sbbf_load_hash(hs + i + BF_SBBF_PREFETCH_DISTANCE + 1), nb, B), 0);
        }
        const __m128i pair = _mm_loadu_si128((const __m128i *)(const void *)(hs + i));
        const uint8_t *const pa = data + v2_offset((uint64_t)_mm_cvtsi128_si64(pair), nb, B);
        const uint8_t *const pb = data + v2_offset((uint64_t)_mm_extract_epi64(pair, 1), nb, B);
        const __m256i lo = _mm256_permutevar8x32_epi32(_mm256_castsi128_si256(pair), low_halves);
        __m256i chunk[4] = {lo, lo, lo, lo}; /* those past B / 128 unused */
        BF__BLOCKED_UNROLL
        for (unsigned c = 0; c < chunks; c++)
            chunk[c] = _mm256_inserti128_si256(
                _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(pa + 16 * c))),
                _mm_loadu_si128((const __m128i *)(const void *)(pb + 16 * c)), 1);
        __m256i missing = _mm256_setzero_si256();
        BF__BLOCKED_UNROLL
        for (unsigned r = 0; r < rounds; r++) {
            const __m256i pos =
                _mm256_packus_epi32(_mm256_srli_epi32(_mm256_mullo_epi32(lo, salt_a[r]), (int)shift),
                                    _mm256_srli_epi32(_mm256_mullo_epi32(lo, salt_b[r]), (int)shift));
            /* A lane: its key's byte indices (bytes 0-7), then bit numbers. */
            const __m256i x = _mm256_packus_epi16(_mm256_srli_epi16(pos, 3), _mm256_and_si256(pos, seven));
            __m256i byte = _mm256_shuffle_epi8(chunk[0], x);
            if (chunks >= 2) {
                const __m256i bit4 = _mm256_slli_epi16(x, 3); /* index bit 4 to each byte's bit 7 */
                byte = _mm256_blendv_epi8(byte, _mm256_shuffle_epi8(chunk[1], x), bit4);
                if (chunks == 4) {
                    const __m256i upper = _mm256_blendv_epi8(_mm256_shuffle_epi8(chunk[2], x),
                                                             _mm256_shuffle_epi8(chunk[3], x), bit4);
                    byte = _mm256_blendv_epi8(byte, upper, _mm256_slli_epi16(x, 2)); /* bit 5 */
                }
            }
            const __m256i want = _mm256_shuffle_epi8(pow2, _mm256_bsrli_epi128(x, 8));
            missing = _mm256_or_si256(missing,
                                      _mm256_and_si256(_mm256_andnot_si256(byte, want), counts[r]));
        }
        const unsigned found =
            (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(missing, _mm256_setzero_si256()));
        const unsigned hit_a = (found & 0xffffu) == 0xffffu, hit_b = (found >> 16) == 0xffffu;
        if (out) {
            out[i] = (uint8_t)hit_a;
            out[i + 1] = (uint8_t)hit_b;
        }
        hits += hit_a + hit_b;
    }
    return hits + bf__blocked_tail_contains(f, hs, i, n, out);
}

/* Instances for blocked 512's k in BF_BLOCKED_SHAPES, and one for any
 * such shape (the object's, read once). */
#define BSEL_INSTANCE(k)                                                                       \
    static size_t b512k##k##_bits_contains(const bf_blocked *f, const uint64_t *hs, size_t n,  \
                                           uint8_t *out) {                                     \
        return bsel_contains(f, hs, n, out, 512, k);                                           \
    }
BSEL_INSTANCE(6)
BSEL_INSTANCE(8)
BSEL_INSTANCE(10)
static size_t bsel_any_contains(const bf_blocked *f, const uint64_t *hs, size_t n, uint8_t *out) {
    const bf_blocked_shape s = f->shape;
    return bsel_contains(f, hs, n, out, s.block_bits, s.k);
}

/* The lookup and insert of a shape (B >= 128, 1, 1, k): blocked 512's
 * instance for its k, else the one for any shape. */
static void plain_for(const bf_blocked_shape *s, bool specialised, bf_blocked_batch_fn *contains,
                      bf_blocked_insert_fn *insert) {
    static const struct {
        unsigned k;
        bf_blocked_batch_fn contains;
        bf_blocked_insert_fn insert;
    } b512[] = {{6, b512k6_bits_contains, b512k6_bits_insert},
                {8, b512k8_bits_contains, b512k8_bits_insert},
                {10, b512k10_bits_contains, b512k10_bits_insert}};
    *contains = bsel_any_contains;
    *insert = bw_any_insert;
    if (specialised && s->block_bits == 512)
        for (size_t i = 0; i < sizeof b512 / sizeof b512[0]; i++)
            if (b512[i].k == s->k) {
                *contains = b512[i].contains;
                *insert = b512[i].insert;
            }
}

/* ---- this file's own instances ------------------------------------------------------- */

/* The instances of this file for shape s: the lookup and insert of
 * blocked 128-512, the eight-key lookup of register-blocked
 * 32 (specialised by k where compiled for; its inserts stay horizontal:
 * lanes sharing a word must be or-ed in one after another), else the
 * vertical ones. */
static int avx2_own_for(const bf_blocked_shape *s, bool specialised, bf_blocked_batch_fn *contains,
                        bf_blocked_insert_fn *insert) {
    if (s->block_bits >= 128 && s->sectors == 1) {
        plain_for(s, specialised, contains, insert);
        return 1;
    }
    if (s->block_bits != 32) return vert_for_avx2(s, specialised, contains, insert);
    static const struct {
        unsigned k;
        bf_blocked_batch_fn contains;
    } rows[] = {{3, r32k3_eight}, {4, r32k4_eight}, {5, r32k5_eight}};
    *contains = r32_any_eight;
    if (specialised)
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
            if (rows[i].k == s->k) *contains = rows[i].contains;
    *insert = NULL;
    return 1;
}
