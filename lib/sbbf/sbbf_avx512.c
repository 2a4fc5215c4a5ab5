/* The AVX-512 SBBF kernel (F + BW + VL).
 *
 * Single-key calls are the AVX2 sequence (one block, one 256-bit register,
 * shared through sbbf_x86.h): a 512-bit register holds two blocks, and one
 * key has only one.
 *
 * Batch calls work on two keys per 512-bit register: one VPMULLD (the
 * costly instruction of the mask: 2 uops, 10 cycles on Intel), one shift
 * and one VPSLLVD build both keys' masks; the two blocks are loaded into
 * the halves of one register and a single VPTESTMD yields a
 * 16-bit mask, low byte for the first key and high byte for the second.
 * Inserts build masks two at a time too but OR them into memory one block
 * after the other, so two keys of one block never lose a bit.
 *
 * The batch loops take eight hashes per 512-bit register: their block
 * offsets come from one VPMULUDQ ((hash >> 32) * num_blocks, 32 bits by
 * 32, for filters under 2^32 blocks), computed three octets ahead so the
 * prefetches and the probes use the same offsets, and each pair's mask
 * lanes come from the same register by one VPERMD. */
#include "sbbf/sbbf_x86.h"

/* The salts twice: one copy per 256-bit half. */
static const uint32_t salt2[2][8] = {{BF_SBBF_SALTS}, {BF_SBBF_SALTS}};

/* Masks of two keys: lanes 0-7 for hashes[0], lanes 8-15 for hashes[1]. */
static inline __m512i pair_mask(const uint64_t *hashes) {
    const __m512i s = _mm512_loadu_si512((const void *)salt2);
    /* Dword 0 (low half of hashes[0]) to lanes 0-7, dword 2 to lanes 8-15. */
    const __m512i spread = _mm512_set_epi32(2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0);
    __m512i h = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)(const void *)hashes));
    h = _mm512_permutexvar_epi32(spread, h);
    __m512i pos = _mm512_srli_epi32(_mm512_mullo_epi32(h, s), 27);
    return _mm512_sllv_epi32(_mm512_set1_epi32(1), pos);
}

/* Masks of keys 2j and 2j + 1 of an octet h (eight hashes, 64-bit lanes):
 * lanes 0-7 from dword 4j (low half of hash 2j), lanes 8-15 from dword
 * 4j + 2. */
static inline __m512i octet_pair_mask(__m512i h, unsigned j) {
    const __m512i s = _mm512_loadu_si512((const void *)salt2);
    const __m512i spread = _mm512_add_epi32(
        _mm512_set_epi32(2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0),
        _mm512_set1_epi32((int)(4 * j)));
    __m512i pos = _mm512_srli_epi32(_mm512_mullo_epi32(_mm512_permutexvar_epi32(spread, h), s), 27);
    return _mm512_sllv_epi32(_mm512_set1_epi32(1), pos);
}

/* Byte offsets of the blocks of eight hashes (any alignment) into off:
 * ((hash >> 32) * num_blocks) >> 32, times 32; num_blocks < 2^32. */
static inline void octet_offsets(const uint64_t *hashes, __m512i nb, uint64_t off[8]) {
    __m512i h = _mm512_loadu_si512((const void *)hashes);
    __m512i idx = _mm512_srli_epi64(_mm512_mul_epu32(_mm512_srli_epi64(h, 32), nb), 32);
    _mm512_storeu_si512((void *)off, _mm512_slli_epi64(idx, 5));
}

static inline __m512i load_pair(const uint8_t *a, const uint8_t *b) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(bf_x86_load_block(a)), bf_x86_load_block(b), 1);
}

/* Bit j set: lane j of the pair has every mask bit in its block word. */
static inline unsigned pair_present(const uint8_t *bits, uint64_t num_blocks,
                                    const uint64_t *hashes) {
    const uint8_t *a = bf_x86_block_of(bits, num_blocks, bf_sbbf_load_hash(hashes));
    const uint8_t *b = bf_x86_block_of(bits, num_blocks, bf_sbbf_load_hash(hashes + 1));
    __m512i m = pair_mask(hashes);
    __m512i blocks = load_pair(a, b);
    /* Each lane of m has exactly one bit, so (blocks & m) != 0 says the
     * bit is there: one VPTESTMD answers all sixteen words. */
    return (unsigned)_mm512_test_epi32_mask(blocks, m);
}

static int insert_avx512(uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    bf_x86_insert_one(bits, num_blocks, hash);
    return BF_OK;
}

static bool contains_avx512(const uint8_t *bits, uint64_t num_blocks, uint64_t hash) {
    return bf_x86_contains_one(bits, num_blocks, hash) != 0;
}

static inline void insert_pair(uint8_t *bits, uint64_t num_blocks, const uint64_t *hashes) {
    uint8_t *a = bits + bf_sbbf_block_index(bf_sbbf_load_hash(hashes), num_blocks) * 32;
    uint8_t *b = bits + bf_sbbf_block_index(bf_sbbf_load_hash(hashes + 1), num_blocks) * 32;
    __m512i m = pair_mask(hashes);
    _mm256_storeu_si256((__m256i *)(void *)a,
                        _mm256_or_si256(bf_x86_load_block(a), _mm512_castsi512_si256(m)));
    /* Loaded after a's store: a == b keeps both keys' bits. */
    _mm256_storeu_si256((__m256i *)(void *)b,
                        _mm256_or_si256(bf_x86_load_block(b), _mm512_extracti64x4_epi64(m, 1)));
}

#define PF BF_SBBF_PREFETCH_DISTANCE

/* Ring of block offsets of the octets between the probe and the
 * prefetch: RING octets, the prefetched one RING - 1 ahead. */
#define RING 4
_Static_assert(PF == 8 * (RING - 1), "the prefetch distance is three octets");

/* Whether the batch loops take octets with offsets computed ahead: a
 * filter past the prefetch threshold, under 2^32 blocks, and a batch
 * longer than the ring. */
static inline bool octet_ring_fits(uint64_t num_blocks, size_t n) {
    return num_blocks * 32 >= BF_SBBF_PREFETCH_MIN_BYTES && num_blocks <= UINT32_MAX && n >= PF + 8;
}
/* The block offsets of the octets from the one being probed to the one
 * being prefetched. */
typedef struct octet_ring {
    __m512i nb;
    uint64_t off[RING][8];
} octet_ring;
/* The offsets of the first RING - 1 octets. */
static inline void octet_ring_start(octet_ring *ring, const uint64_t *hashes,
                                    uint64_t num_blocks) {
    ring->nb = _mm512_set1_epi64((long long)num_blocks);
    for (unsigned r = 0; r < RING - 1; r++) octet_offsets(hashes + 8 * r, ring->nb, ring->off[r]);
}
/* Computes and prefetches the blocks of the octet PF keys past i and
 * returns the offsets of octet i's blocks. */
static inline const uint64_t *octet_ring_step(octet_ring *ring, const uint8_t *bits,
                                              const uint64_t *hashes, size_t i) {
    uint64_t *ahead = ring->off[(i / 8 + RING - 1) % RING];
    octet_offsets(hashes + i + PF, ring->nb, ahead);
    for (unsigned j = 0; j < 8; j++) _mm_prefetch((const char *)(bits + ahead[j]), _MM_HINT_T0);
    return ring->off[(i / 8) % RING];
}

/* Eight keys of the octet h whose block offsets are off, inserted in
 * order (pairs as insert_pair). */
static inline void insert_octet(uint8_t *bits, __m512i h, const uint64_t off[8]) {
    for (unsigned j = 0; j < 4; j++) {
        uint8_t *a = bits + off[2 * j], *b = bits + off[2 * j + 1];
        __m512i m = octet_pair_mask(h, j);
        _mm256_storeu_si256((__m256i *)(void *)a,
                            _mm256_or_si256(bf_x86_load_block(a), _mm512_castsi512_si256(m)));
        _mm256_storeu_si256((__m256i *)(void *)b,
                            _mm256_or_si256(bf_x86_load_block(b), _mm512_extracti64x4_epi64(m, 1)));
    }
}

static void insert_batch_avx512(uint8_t *bits, uint64_t num_blocks, const uint64_t *hashes,
                                size_t n) {
    size_t i = 0;
    if (octet_ring_fits(num_blocks, n)) {
        octet_ring ring;
        octet_ring_start(&ring, hashes, num_blocks);
        for (; i + PF + 8 <= n; i += 8) {
            const uint64_t *at = octet_ring_step(&ring, bits, hashes, i);
            insert_octet(bits, _mm512_loadu_si512((const void *)(hashes + i)), at);
        }
    } else if (num_blocks * 32 >= BF_SBBF_PREFETCH_MIN_BYTES) {
        for (; i + 2 + PF <= n; i += 2) {
            _mm_prefetch((const char *)bf_x86_block_of(bits, num_blocks, bf_sbbf_load_hash(hashes + i + PF)),
                         _MM_HINT_T0);
            _mm_prefetch(
                (const char *)bf_x86_block_of(bits, num_blocks, bf_sbbf_load_hash(hashes + i + PF + 1)),
                _MM_HINT_T0);
            insert_pair(bits, num_blocks, hashes + i);
        }
    }
    for (; i + 2 <= n; i += 2) insert_pair(bits, num_blocks, hashes + i);
    if (i < n) bf_x86_insert_one(bits, num_blocks, bf_sbbf_load_hash(hashes + i));
}

/* Eight keys: four pair tests give 64 lane bits, byte j for key j; a key
 * is present when its byte is 0xff, so when the inverted byte is zero. */
static inline uint64_t lanes_to_hits(uint64_t lanes) { return bf__zero_bytes(~lanes); }

static inline uint64_t octet_hits(const uint8_t *bits, uint64_t num_blocks,
                                  const uint64_t *hashes) {
    uint64_t lanes = 0;
    for (unsigned j = 0; j < 4; j++)
        lanes |= (uint64_t)pair_present(bits, num_blocks, hashes + 2 * j) << (16 * j);
    return lanes_to_hits(lanes);
}

static inline size_t emit8(uint64_t hits, uint8_t *out) {
    if (out) memcpy(out, &hits, 8); /* x86 is little-endian: byte j = key j */
    return (size_t)__builtin_popcountll(hits);
}

/* octet_hits for the octet h whose block offsets are off. */
static inline uint64_t octet_hits_at(const uint8_t *bits, __m512i h, const uint64_t off[8]) {
    uint64_t lanes = 0;
    for (unsigned j = 0; j < 4; j++) {
        __m512i blocks = load_pair(bits + off[2 * j], bits + off[2 * j + 1]);
        lanes |= (uint64_t)_mm512_test_epi32_mask(blocks, octet_pair_mask(h, j)) << (16 * j);
    }
    return lanes_to_hits(lanes);
}

static size_t contains_batch_avx512(const uint8_t *bits, uint64_t num_blocks,
                                    const uint64_t *hashes, size_t n, uint8_t *out) {
    size_t count = 0, i = 0;
    if (octet_ring_fits(num_blocks, n)) {
        octet_ring ring;
        octet_ring_start(&ring, hashes, num_blocks);
        for (; i + PF + 8 <= n; i += 8) {
            const uint64_t *at = octet_ring_step(&ring, bits, hashes, i);
            uint64_t hits = octet_hits_at(bits, _mm512_loadu_si512((const void *)(hashes + i)), at);
            count += emit8(hits, out ? out + i : NULL);
        }
    } else if (num_blocks * 32 >= BF_SBBF_PREFETCH_MIN_BYTES) {
        for (; i + 8 + PF <= n; i += 8) {
            for (unsigned j = 0; j < 8; j++)
                _mm_prefetch(
                    (const char *)bf_x86_block_of(bits, num_blocks, bf_sbbf_load_hash(hashes + i + PF + j)),
                    _MM_HINT_T0);
            count += emit8(octet_hits(bits, num_blocks, hashes + i), out ? out + i : NULL);
        }
    }
    for (; i + 8 <= n; i += 8)
        count += emit8(octet_hits(bits, num_blocks, hashes + i), out ? out + i : NULL);
    for (; i < n; i++) {
        int hit = bf_x86_contains_one(bits, num_blocks, bf_sbbf_load_hash(hashes + i));
        if (out) out[i] = (uint8_t)hit;
        count += (size_t)hit;
    }
    return count;
}

const bf_kernel bf__sbbf_kernel_avx512 = {
    "avx512", BF_CPU_AVX512, insert_avx512, contains_avx512, insert_batch_avx512,
    contains_batch_avx512,
};
