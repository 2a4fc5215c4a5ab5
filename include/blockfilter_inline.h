/*
 * blockfilter inline: the SBBF's frozen layout, its primitives, and the
 * single-key header paths. blockfilter.h includes this file at its end;
 * including it directly includes the core first.
 *
 *  1. The layout (bf_sbbf_layout, layout version BF_SBBF_ABI = 1): the
 *     first bytes of every bf_sbbf, public so that the single-key calls can
 *     be inlined into the caller.
 *  2. The primitives, defined here once for the whole library: Parquet's
 *     eight salts, the block of a hash, the bit of each word, the probe and
 *     set of one block (plain C, and the AVX2 and NEON forms when the
 *     including compiler targets them), and the fixed-width XXH64 of 4- and
 *     8-byte values. Every SBBF and hash kernel of the library is built from
 *     these, so the inline code and the library cannot drift apart.
 *  3. The single-key paths: bf_sbbf_contains_hash and friends as macros
 *     over static inline functions. BF_NO_INLINE, defined before including,
 *     turns them (and the SIMD forms of 2) off; the layout and the plain-C
 *     primitives stay.
 *
 * What this file promises across versions is tied to BF_SBBF_ABI, not to
 * the library's version (docs/headers.md): the layout's fields and the
 * meaning of the primitives (they define Parquet's bit layout) do not
 * change while BF_SBBF_ABI is 1; code inlined from this header keeps
 * working against any later library, which hands it a filter it does not
 * know (a new tag, placed at 0, NULL insert_bits) and so gets the
 * library's exported calls. The helper names (bf_inl_*) are not API.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef BLOCKFILTER_INLINE_H
#define BLOCKFILTER_INLINE_H

#include "blockfilter.h"

#include <string.h>

/* Casts that C++ includers building with -Wold-style-cast accept. */
#if defined(__cplusplus)
#define BF_INL_CAST(type, x) (static_cast<type>(x))
#else
#define BF_INL_CAST(type, x) ((type)(x))
#endif

/* The SIMD the including compiler targets: AVX2 on x86, NEON on
 * little-endian aarch64, else plain C. (BF_SBBF_AVX2_FORMS asks for the
 * AVX2 forms of the primitives without AVX2 inline paths: the library's
 * tests build its x86 kernels over portable intrinsics that way.) */
#if !defined(BF_NO_INLINE)
#if defined(__AVX2__) && (defined(__x86_64__) || defined(__i386__) || defined(_M_X64) || \
                          defined(_M_IX86))
#define BF_INL_AVX2 1
#elif (defined(__aarch64__) && defined(__ARM_NEON) && defined(__BYTE_ORDER__) && \
       __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) || defined(_M_ARM64)
#include <arm_neon.h>
#define BF_INL_NEON 1
#endif
#endif
#if defined(BF_INL_AVX2) || defined(BF_SBBF_AVX2_FORMS)
#include <immintrin.h>
#define BF_INL_AVX2_FORMS 1
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BF_INL_BIG_ENDIAN 1
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* The frozen layout                                                         */
/* ------------------------------------------------------------------------ */

/*
 * The first bytes of every bf_sbbf (see docs/kernels.md for the ABI
 * promise). Layout version BF_SBBF_ABI = 1 is frozen: these fields, in
 * this order, with these meanings.
 *  - tag holds the version (high 16 bits) and the kernel class (low bits)
 *    in one word: inline queries check both with one compare, which
 *    compilers hoist out of a caller's loop.
 *  - insert_bits[c] is the writable bitset if inline code of kernel class
 *    c may insert into this filter (its kernel runs class c's single-key
 *    sequence: the avx512 kernel runs the AVX2 one), else NULL (another
 *    kernel, or a read-only view). Inline inserts from 0.3.0 headers test
 *    it; later headers test the filter's place (below) instead.
 * A library that needs other hot fields gives them a new version and
 * leaves insert_bits[] NULL; code inlined from an older header then sees a
 * tag it does not know and NULL pointers, and calls the library. Read-only
 * for callers: change a filter only through the API.
 */
#define BF_SBBF_ABI 1u
/* Kernel classes (never renumbered; a new kernel gets a new number). */
#define BF_SBBF_KERNEL_SCALAR 0u
#define BF_SBBF_KERNEL_AVX2 1u
#define BF_SBBF_KERNEL_AVX512 2u
#define BF_SBBF_KERNEL_NEON 3u
#define BF_SBBF_TAG(kernel) ((BF_SBBF_ABI << 16) | (kernel))
typedef struct bf_sbbf_layout {
    uint32_t tag;         /* BF_SBBF_TAG(kernel class the filter runs) */
    uint32_t reserved;    /* 0 */
    uint8_t *bits;        /* writable bitset; NULL for a read-only view */
    const uint8_t *data;  /* the bitset (== bits unless a view), any alignment */
    uint64_t num_blocks;  /* 32-byte blocks, 1 .. 2^32 */
    uint64_t seed;        /* seed of byte-string and typed hashing (0 = Parquet) */
    uint8_t *insert_bits[4]; /* by kernel class: bits, or NULL (see above) */
} bf_sbbf_layout;

/*
 * Where a filter sits: the library places every writable filter of layout
 * version 1 at an address whose remainder mod BF_SBBF_PLACE_MOD is
 * BF_SBBF_PLACE(kernel class it runs), and every read-only view at
 * BF_SBBF_PLACE_VIEW(class). Inline code tests the address, a value the
 * caller holds in a register and that no store changes, so a compiler
 * takes the test out of the caller's loop (it unswitches the loop) even
 * when the loop stores bytes that may alias the filter; the inline loop is
 * then the bare probe or the bare insert. A query accepts either place, an
 * insert only the writable one. A filter of another layout version sits
 * at a remainder of 0, which no class has, in neither half. Part of layout
 * version 1's promise (views sit at their own place from 0.3.1).
 */
#define BF_SBBF_PLACE_MOD 256u
#define BF_SBBF_PLACE(kernel) (16u * (1u + (kernel)))
#define BF_SBBF_PLACE_VIEW(kernel) (BF_SBBF_PLACE(kernel) + BF_SBBF_PLACE_MOD / 2u)

/* ------------------------------------------------------------------------ */
/* Primitives: the one definition                                            */
/* ------------------------------------------------------------------------ */

/* Parquet's eight salts: word i of a block gets bit
 * (low32(hash) * BF_SBBF_SALT_i) >> 27. BF_SBBF_SALTS lists them in word
 * order, for array initialisers ({BF_SBBF_SALTS}) and SIMD constants. */
#define BF_SBBF_SALT_0 0x47b6137bu
#define BF_SBBF_SALT_1 0x44974d91u
#define BF_SBBF_SALT_2 0x8824ad5bu
#define BF_SBBF_SALT_3 0xa2b7289du
#define BF_SBBF_SALT_4 0x705495c7u
#define BF_SBBF_SALT_5 0x2df1424bu
#define BF_SBBF_SALT_6 0x9efc4947u
#define BF_SBBF_SALT_7 0x5c6bfb31u
#define BF_SBBF_SALTS                                                                  \
    BF_SBBF_SALT_0, BF_SBBF_SALT_1, BF_SBBF_SALT_2, BF_SBBF_SALT_3, BF_SBBF_SALT_4,    \
        BF_SBBF_SALT_5, BF_SBBF_SALT_6, BF_SBBF_SALT_7

/* The salts as an array (static storage: SIMD code loads it as a vector). */
static inline const uint32_t *bf_inl_sbbf_salts(void) {
    static const uint32_t salts[8] = {BF_SBBF_SALTS};
    return salts;
}

/** The block a hash selects: ((hash >> 32) * num_blocks) >> 32, for
 *  1 <= num_blocks <= 2^32. Its bytes start at 32 times this. */
static inline uint64_t bf_sbbf_block_index(uint64_t hash, uint64_t num_blocks) {
    return ((hash >> 32) * num_blocks) >> 32;
}

/** The bit a hash sets in word i (0..7) of its block. */
static inline uint32_t bf_sbbf_word_mask(uint64_t hash, unsigned i) {
    return 1u << ((BF_INL_CAST(uint32_t, hash) * bf_inl_sbbf_salts()[i]) >> 27);
}

/* Word i of a block: a little-endian 32-bit value at any alignment. */
static inline uint32_t bf_inl_sbbf_word(const uint8_t *p) {
    uint32_t w;
    memcpy(&w, p, 4);
#if defined(BF_INL_BIG_ENDIAN)
    w = __builtin_bswap32(w);
#endif
    return w;
}

/** Whether the 32-byte block at p (any alignment) has every bit of the
 *  hash: plain C, written out word by word (no loop, no early exit), the
 *  salts constants the compiler folds in. */
#define BF_INL_SBBF_MISSING(p, lo, i) \
    ((1u << (((lo) * BF_SBBF_SALT_##i) >> 27)) & ~bf_inl_sbbf_word((p) + 4 * (i)))
static inline bool bf_sbbf_block_test(const uint8_t *p, uint64_t hash) {
    const uint32_t lo = BF_INL_CAST(uint32_t, hash);
    uint32_t missing = BF_INL_SBBF_MISSING(p, lo, 0) | BF_INL_SBBF_MISSING(p, lo, 1) |
                       BF_INL_SBBF_MISSING(p, lo, 2) | BF_INL_SBBF_MISSING(p, lo, 3) |
                       BF_INL_SBBF_MISSING(p, lo, 4) | BF_INL_SBBF_MISSING(p, lo, 5) |
                       BF_INL_SBBF_MISSING(p, lo, 6) | BF_INL_SBBF_MISSING(p, lo, 7);
    return missing == 0;
}
#undef BF_INL_SBBF_MISSING

/** Sets the hash's eight bits in the 32-byte block at p (any alignment). */
static inline void bf_sbbf_block_set(uint8_t *p, uint64_t hash) {
    for (unsigned i = 0; i < 8; i++) {
        uint32_t w = bf_inl_sbbf_word(p + 4 * i) | bf_sbbf_word_mask(hash, i);
#if defined(BF_INL_BIG_ENDIAN)
        w = __builtin_bswap32(w);
#endif
        memcpy(p + 4 * i, &w, 4);
    }
}

#if defined(BF_INL_AVX2_FORMS)
/* AVX2: the block is one 256-bit register, lane i its word i (x86 is
 * little-endian); lane i of the mask is 1 << ((low32(h) * SALT[i]) >> 27). */
static inline __m256i bf_inl_avx2_mask(uint64_t h) {
    const __m256i salt = _mm256_loadu_si256(BF_INL_CAST(const __m256i *, BF_INL_CAST(const void *, bf_inl_sbbf_salts())));
    __m256i pos = _mm256_srli_epi32(_mm256_mullo_epi32(_mm256_set1_epi32(BF_INL_CAST(int, BF_INL_CAST(uint32_t, h))), salt), 27);
    return _mm256_sllv_epi32(_mm256_set1_epi32(1), pos);
}
static inline bool bf_inl_avx2_block_test(const uint8_t *p, uint64_t h) {
    /* testc: CF = ((~block & mask) == 0), i.e. every mask bit is set. */
    __m256i block = _mm256_loadu_si256(BF_INL_CAST(const __m256i *, BF_INL_CAST(const void *, p)));
    return _mm256_testc_si256(block, bf_inl_avx2_mask(h)) != 0;
}
#if defined(__GNUC__)
/* The block as eight 32-bit words, for the insert's load and store: unlike
 * __m256i this type does not alias everything, so a compiler knows the
 * store leaves the filter's pointer and block count alone and keeps them
 * in registers across a caller's loop of inserts (17 % faster at 10^6
 * keys on Zen 5). Writable bitsets are the library's own; read them as
 * bytes or 32-bit words, as Parquet defines them. */
typedef int32_t bf_inl_v8si __attribute__((vector_size(32), aligned(1)));
static inline void bf_inl_avx2_block_set(uint8_t *p, uint64_t h) {
    bf_inl_v8si *v = BF_INL_CAST(bf_inl_v8si *, BF_INL_CAST(void *, p));
    __m256i m = bf_inl_avx2_mask(h);
    bf_inl_v8si mv;
    memcpy(&mv, &m, sizeof mv);
    *v = *v | mv;
}
#else
static inline void bf_inl_avx2_block_set(uint8_t *p, uint64_t h) {
    __m256i *v = BF_INL_CAST(__m256i *, BF_INL_CAST(void *, p));
    _mm256_storeu_si256(v, _mm256_or_si256(_mm256_loadu_si256(v), bf_inl_avx2_mask(h)));
}
#endif
#endif /* BF_INL_AVX2_FORMS */

#if defined(BF_INL_NEON)
/* NEON: the block is two 128-bit halves, words 0-3 and 4-7, loaded as
 * bytes (any alignment) and read as little-endian words. */
static inline void bf_inl_neon_mask(uint64_t h, uint32x4_t *lo, uint32x4_t *hi) {
    const uint32_t *salt = bf_inl_sbbf_salts();
    const uint32x4_t one = vdupq_n_u32(1), x = vdupq_n_u32(BF_INL_CAST(uint32_t, h));
    *lo = vshlq_u32(one, vreinterpretq_s32_u32(vshrq_n_u32(vmulq_u32(x, vld1q_u32(salt)), 27)));
    *hi = vshlq_u32(one, vreinterpretq_s32_u32(vshrq_n_u32(vmulq_u32(x, vld1q_u32(salt + 4)), 27)));
}
static inline bool bf_inl_neon_block_test(const uint8_t *p, uint64_t h) {
    uint32x4_t lo, hi;
    bf_inl_neon_mask(h, &lo, &hi);
    /* Mask bits the block lacks: mask & ~block (BIC). */
    uint32x4_t miss = vorrq_u32(vbicq_u32(lo, vreinterpretq_u32_u8(vld1q_u8(p))),
                                vbicq_u32(hi, vreinterpretq_u32_u8(vld1q_u8(p + 16))));
    return vmaxvq_u32(miss) == 0;
}
static inline void bf_inl_neon_block_set(uint8_t *p, uint64_t h) {
    uint32x4_t lo, hi;
    bf_inl_neon_mask(h, &lo, &hi);
    vst1q_u8(p, vreinterpretq_u8_u32(vorrq_u32(vreinterpretq_u32_u8(vld1q_u8(p)), lo)));
    vst1q_u8(p + 16, vreinterpretq_u8_u32(vorrq_u32(vreinterpretq_u32_u8(vld1q_u8(p + 16)), hi)));
}
#endif /* BF_INL_NEON */

/*
 * XXH64 of the 8 (or 4) little-endian bytes holding v, with a seed: the
 * fixed-length forms of XXH64, a few multiplies, inlined into the caller.
 * bf_hash_int64(v) == bf_xxh64_u64((uint64_t)v, 0), bf_hash_int32(v) ==
 * bf_xxh64_u32((uint32_t)v, 0); a float or double hashes its bit pattern.
 *   8 bytes: h = s + P5 + 8; h ^= rotl(v * P2, 31) * P1; h = rotl(h, 27) * P1 + P4
 *   4 bytes: h = s + P5 + 4; h ^= v * P1;                h = rotl(h, 23) * P2 + P3
 * then the avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3;
 * h ^= h >> 32. The library's SIMD hash kernels compute the same with
 * these constants, bit for bit.
 */
#define BF_XXH64_P1 0x9E3779B185EBCA87ull
#define BF_XXH64_P2 0xC2B2AE3D27D4EB4Full
#define BF_XXH64_P3 0x165667B19E3779F9ull
#define BF_XXH64_P4 0x85EBCA77C2B2AE63ull
#define BF_XXH64_P5 0x27D4EB2F165667C5ull
static inline uint64_t bf_inl_xxh64_avalanche(uint64_t h) {
    h ^= h >> 33;
    h *= BF_XXH64_P2;
    h ^= h >> 29;
    h *= BF_XXH64_P3;
    return h ^ (h >> 32);
}
static inline uint64_t bf_xxh64_u64(uint64_t v, uint64_t seed) {
    uint64_t k = v * BF_XXH64_P2;
    k = ((k << 31) | (k >> 33)) * BF_XXH64_P1;
    uint64_t h = (seed + BF_XXH64_P5 + 8) ^ k;
    h = ((h << 27) | (h >> 37)) * BF_XXH64_P1 + BF_XXH64_P4;
    return bf_inl_xxh64_avalanche(h);
}
static inline uint64_t bf_xxh64_u32(uint32_t v, uint64_t seed) {
    uint64_t h = (seed + BF_XXH64_P5 + 4) ^ (BF_INL_CAST(uint64_t, v) * BF_XXH64_P1);
    h = ((h << 23) | (h >> 41)) * BF_XXH64_P2 + BF_XXH64_P3;
    return bf_inl_xxh64_avalanche(h);
}
/* The bit pattern of a float or double, which Parquet hashes. */
static inline uint32_t bf_inl_bits_of_float(float v) {
    uint32_t u;
    memcpy(&u, &v, 4);
    return u;
}
static inline uint64_t bf_inl_bits_of_double(double v) {
    uint64_t u;
    memcpy(&u, &v, 8);
    return u;
}

/* ------------------------------------------------------------------------ */
/* Single-key header paths                                                   */
/* ------------------------------------------------------------------------ */

/*
 * bf_sbbf_contains_hash, bf_sbbf_insert_hash, the byte-string and the typed
 * single-key calls (and bf_hash_int32/int64/float/double) are macros over
 * static inline functions: a caller gets the probe inlined, with no call
 * and no jump through the kernel table, when the filter's kernel is the one
 * the inline code implements (BF_SBBF_INLINE says which), and the exported
 * function otherwise: a filter made with another kernel, a forced one
 * (BLOCKFILTER_KERNEL), a layout version this header does not know, a
 * read-only view on insert. Bits and answers are those of the exported
 * functions, which stay the reference: (bf_sbbf_contains_hash)(f, h) or a
 * pointer to it calls the library, and BF_NO_INLINE turns the paths off.
 * The AVX2 code serves the avx2 and avx512 kernels alike (the avx512
 * kernel's single-key calls are that 256-bit sequence).
 */
#if !defined(BF_NO_INLINE)

#if defined(BF_INL_AVX2)
#define BF_SBBF_INLINE BF_SBBF_KERNEL_AVX2
#elif defined(BF_INL_NEON)
#define BF_SBBF_INLINE BF_SBBF_KERNEL_NEON
#else
#define BF_SBBF_INLINE BF_SBBF_KERNEL_SCALAR
#endif

#if defined(__GNUC__)
#define BF_INL_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define BF_INL_LIKELY(x) (x)
#endif

static inline const bf_sbbf_layout *bf_inl_sbbf_layout(const bf_sbbf *f) {
    return BF_INL_CAST(const bf_sbbf_layout *, BF_INL_CAST(const void *, f));
}

/* The address of f modulo m. */
#if defined(__cplusplus)
#define BF_INL_ADDR_MOD(f, m) (reinterpret_cast<uintptr_t>(f) % (m))
#else
#define BF_INL_ADDR_MOD(f, m) ((uintptr_t)(const void *)(f) % (m))
#endif
/* Whether x, a place or a tag (what `of` makes of a kernel class), names a
 * kernel class this code implements. */
#if defined(BF_INL_AVX2)
#define BF_INL_CLASS_HERE(x, of) ((x) == of(BF_SBBF_KERNEL_AVX2) || (x) == of(BF_SBBF_KERNEL_AVX512))
#else
#define BF_INL_CLASS_HERE(x, of) ((x) == of(BF_SBBF_INLINE))
#endif
/* Whether f sits at the place of such a class, writable or a view (no
 * memory read: see BF_SBBF_PLACE): a view's place is the writable one plus
 * half the modulus, so the address modulo half of it tells both. */
static inline bool bf_inl_sbbf_placed(const bf_sbbf *f) {
    const uintptr_t place = BF_INL_ADDR_MOD(f, BF_SBBF_PLACE_MOD / 2u);
    return BF_INL_CLASS_HERE(place, BF_SBBF_PLACE);
}
/* Whether f is writable and sits at the place of such a class: what an
 * inline insert tests. No field is read, so a caller's loop of inserts
 * tests once (see BF_SBBF_PLACE) and then writes `bits`; a filter
 * elsewhere (a view, another kernel, another layout version, NULL) goes
 * to the library. */
static inline bool bf_inl_sbbf_placed_writable(const bf_sbbf *f) {
    const uintptr_t place = BF_INL_ADDR_MOD(f, BF_SBBF_PLACE_MOD);
    return BF_INL_CLASS_HERE(place, BF_SBBF_PLACE);
}
/* Whether f's tag names layout version 1 and such a class (the test for
 * libraries older than the placement). */
static inline bool bf_inl_sbbf_tag_ok(const bf_sbbf *f) {
    const uint32_t tag = bf_inl_sbbf_layout(f)->tag;
    return BF_INL_CLASS_HERE(tag, BF_SBBF_TAG);
}
/** Whether the single-key queries on f run inline here (else the library):
 *  f sits at its class's place, or its tag names the layout version and a
 *  kernel class this code implements. */
static inline bool bf_sbbf_inline_ok(const bf_sbbf *f) {
    return bf_inl_sbbf_placed(f) || bf_inl_sbbf_tag_ok(f);
}
/* The probe and set of the kernel class this code implements. */
static inline bool bf_inl_sbbf_probe(const uint8_t *data, uint64_t num_blocks, uint64_t h) {
    const uint8_t *p = data + bf_sbbf_block_index(h, num_blocks) * 32u;
#if defined(BF_INL_AVX2)
    return bf_inl_avx2_block_test(p, h);
#elif defined(BF_INL_NEON)
    return bf_inl_neon_block_test(p, h);
#else
    return bf_sbbf_block_test(p, h);
#endif
}
static inline void bf_inl_sbbf_set(uint8_t *bits, uint64_t num_blocks, uint64_t h) {
    uint8_t *p = bits + bf_sbbf_block_index(h, num_blocks) * 32u;
#if defined(BF_INL_AVX2)
    bf_inl_avx2_block_set(p, h);
#elif defined(BF_INL_NEON)
    bf_inl_neon_block_set(p, h);
#else
    bf_sbbf_block_set(p, h);
#endif
}

/* Queries read data and num_blocks once bf_sbbf_inline_ok(f) holds: the
 * bitset and its size in every filter of layout version 1, whichever its
 * kernel, so the answer is the library's. */
static inline bool bf_sbbf_contains_hash_inline(const bf_sbbf *f, uint64_t hash) {
    const bf_sbbf_layout *l = bf_inl_sbbf_layout(f);
    if (BF_INL_LIKELY(bf_sbbf_inline_ok(f))) return bf_inl_sbbf_probe(l->data, l->num_blocks, hash);
    return (bf_sbbf_contains_hash)(f, hash);
}
static inline int bf_sbbf_insert_hash_inline(bf_sbbf *f, uint64_t hash) {
    if (BF_INL_LIKELY(bf_inl_sbbf_placed_writable(f))) {
        const bf_sbbf_layout *l = bf_inl_sbbf_layout(f);
        bf_inl_sbbf_set(l->bits, l->num_blocks, hash);
        return BF_OK;
    }
    return (bf_sbbf_insert_hash)(f, hash); /* views: BF_EREADONLY */
}

/* XXH64 of a byte string with the filter's seed: 4- and 8-byte strings in
 * the fixed-length form, inline; other lengths through the library. */
static inline uint64_t bf_inl_sbbf_hash_bytes(const bf_sbbf_layout *l, const void *data, size_t len) {
    if (len == 8) {
        uint64_t v;
        memcpy(&v, data, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap64(v); /* the bytes, read little-endian */
#endif
        return bf_xxh64_u64(v, l->seed);
    }
    if (len == 4) {
        uint32_t v;
        memcpy(&v, data, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap32(v);
#endif
        return bf_xxh64_u32(v, l->seed);
    }
    return bf_hash_xxh64_seeded(data, len, l->seed);
}
static inline bool bf_sbbf_contains_inline(const bf_sbbf *f, const void *data, size_t len) {
    if (BF_INL_LIKELY(bf_sbbf_inline_ok(f) && data != NULL)) {
        const bf_sbbf_layout *l = bf_inl_sbbf_layout(f);
        return bf_inl_sbbf_probe(l->data, l->num_blocks, bf_inl_sbbf_hash_bytes(l, data, len));
    }
    return (bf_sbbf_contains)(f, data, len);
}
static inline int bf_sbbf_insert_inline(bf_sbbf *f, const void *data, size_t len) {
    if (BF_INL_LIKELY(bf_inl_sbbf_placed_writable(f) && data != NULL)) {
        const bf_sbbf_layout *l = bf_inl_sbbf_layout(f);
        bf_inl_sbbf_set(l->bits, l->num_blocks, bf_inl_sbbf_hash_bytes(l, data, len));
        return BF_OK;
    }
    return (bf_sbbf_insert)(f, data, len);
}

/* Parquet's typed hashes, inline: XXH64 of the value's little-endian bytes. */
static inline uint64_t bf_hash_int32_inline(int32_t v) { return bf_xxh64_u32(BF_INL_CAST(uint32_t, v), 0); }
static inline uint64_t bf_hash_int64_inline(int64_t v) { return bf_xxh64_u64(BF_INL_CAST(uint64_t, v), 0); }
static inline uint64_t bf_hash_float_inline(float v) {
    return bf_xxh64_u32(bf_inl_bits_of_float(v), 0);
}
static inline uint64_t bf_hash_double_inline(double v) {
    return bf_xxh64_u64(bf_inl_bits_of_double(v), 0);
}

/* The typed single-key calls: the filter's seed (0 = Parquet's hash). */
#define BF_INL_SBBF_TYPED(suffix, ctype, hash_expr)                                 \
    static inline bool bf_sbbf_contains_##suffix##_inline(const bf_sbbf *f, ctype v) {  \
        if (BF_INL_LIKELY(bf_sbbf_inline_ok(f))) {                                       \
            const bf_sbbf_layout *l = bf_inl_sbbf_layout(f);                             \
            return bf_inl_sbbf_probe(l->data, l->num_blocks, hash_expr);                 \
        }                                                                                \
        return (bf_sbbf_contains_##suffix)(f, v);                                        \
    }                                                                                    \
    static inline int bf_sbbf_insert_##suffix##_inline(bf_sbbf *f, ctype v) {           \
        if (BF_INL_LIKELY(bf_inl_sbbf_placed_writable(f))) {                             \
            const bf_sbbf_layout *l = bf_inl_sbbf_layout(f);                             \
            bf_inl_sbbf_set(l->bits, l->num_blocks, hash_expr);                          \
            return BF_OK;                                                                \
        }                                                                                \
        return (bf_sbbf_insert_##suffix)(f, v);                                          \
    }
BF_INL_SBBF_TYPED(int32, int32_t, bf_xxh64_u32(BF_INL_CAST(uint32_t, v), l->seed))
BF_INL_SBBF_TYPED(int64, int64_t, bf_xxh64_u64(BF_INL_CAST(uint64_t, v), l->seed))
BF_INL_SBBF_TYPED(float, float, bf_xxh64_u32(bf_inl_bits_of_float(v), l->seed))
BF_INL_SBBF_TYPED(double, double, bf_xxh64_u64(bf_inl_bits_of_double(v), l->seed))
#undef BF_INL_SBBF_TYPED

#define bf_sbbf_contains_hash(f, hash) bf_sbbf_contains_hash_inline((f), (hash))
#define bf_sbbf_insert_hash(f, hash) bf_sbbf_insert_hash_inline((f), (hash))
#define bf_sbbf_contains(f, data, len) bf_sbbf_contains_inline((f), (data), (len))
#define bf_sbbf_insert(f, data, len) bf_sbbf_insert_inline((f), (data), (len))
#define bf_sbbf_contains_int32(f, v) bf_sbbf_contains_int32_inline((f), (v))
#define bf_sbbf_contains_int64(f, v) bf_sbbf_contains_int64_inline((f), (v))
#define bf_sbbf_contains_float(f, v) bf_sbbf_contains_float_inline((f), (v))
#define bf_sbbf_contains_double(f, v) bf_sbbf_contains_double_inline((f), (v))
#define bf_sbbf_insert_int32(f, v) bf_sbbf_insert_int32_inline((f), (v))
#define bf_sbbf_insert_int64(f, v) bf_sbbf_insert_int64_inline((f), (v))
#define bf_sbbf_insert_float(f, v) bf_sbbf_insert_float_inline((f), (v))
#define bf_sbbf_insert_double(f, v) bf_sbbf_insert_double_inline((f), (v))
#define bf_hash_int32(v) bf_hash_int32_inline(v)
#define bf_hash_int64(v) bf_hash_int64_inline(v)
#define bf_hash_float(v) bf_hash_float_inline(v)
#define bf_hash_double(v) bf_hash_double_inline(v)

#endif /* !BF_NO_INLINE */

#ifdef __cplusplus
}
#endif

#endif /* BLOCKFILTER_INLINE_H */
