/* The baseline families (classic Bloom, counting Bloom, cuckoo): their
 * objects and the helpers bloom.c, counting.c and cuckoo.c share. Each of
 * those files exports its family's table of operations (family.h); nothing
 * outside them touches these structs (tests aside).
 *
 * Every payload is kept in memory in its portable byte layout (the native
 * payload of docs/format.md), so saving is a copy and a read-only view reads
 * the caller's bytes in place (byte or memcpy loads only: any alignment, any
 * host byte order). */
#ifndef BF_BASELINES_H
#define BF_BASELINES_H

#include "families/family.h"

/* Limits. 2^48 bits is 32 TiB: every size below is computed without
 * overflow, and allocation refuses what the machine cannot hold. */
#define BF_BLOOM_MAX_BITS ((uint64_t)1 << 48)
#define BF_BLOOM_MAX_K 64u
#define BF_COUNTER_MAX 15u
#define BF_CUCKOO_SLOTS 4u /* bf_cuckoo_new_buckets' bucket size */
#define BF_CUCKOO_MAX_BUCKETS ((uint64_t)1 << 44)
#define BF_CUCKOO_MAX_KICKS 500u
/* Bytes after the buckets in a saved cuckoo payload: count, victim index,
 * victim fingerprint, reserved (docs/format.md). */
#define BF_CUCKOO_TRAILER_BYTES 24u

/* The table the classic and counting filters share: m cells (bits or 4-bit
 * counters) of which each key sets or reads k. */
typedef struct bf_cells {
    uint8_t *bits;        /* writable; NULL for a read-only view */
    const uint8_t *data;  /* for reading (== bits when owned) */
    uint64_t m;
    unsigned k;
    uint64_t num_bytes;
    uint64_t seed;        /* byte-string hashing seed (the one copy) */
    bf_region region;
} bf_cells;

/* Classic Bloom filter: bit i is bit (i & 7) of byte i >> 3 (little-endian
 * 64-bit words); the payload is 8 * ceil(m / 64) bytes, padding bits zero. */
struct bf_bloom {
    bf_cells t; /* first member: see bf__cells_new */
};

/* Counting Bloom filter: counter i is the low nibble of byte i >> 1 for even
 * i, the high nibble for odd i; payload 8 * ceil(m / 16) bytes, padding
 * nibbles zero. 15 is sticky. */
struct bf_counting {
    bf_cells t; /* first member: see bf__cells_new */
};

/* Cuckoo filter: num_buckets buckets of bucket_size slots of slot_bits
 * bits; slot s of bucket i is the slot_bits bits at bit offset
 * (i * bucket_size + s) * slot_bits of a little-endian bit array (bit j is
 * bit j mod 8 of byte j / 8). Fingerprint 0 marks an empty slot. A
 * semi-sorted bucket (4 slots) is one 4 * slot_bits-bit little-endian
 * integer at bit offset i * 4 * slot_bits (cuckoo_semisort.c). The owned
 * table has BF_CUCKOO_PAD zero bytes after its num_bytes, and a saved
 * payload has the trailer there, so a 64-bit load at any slot stays in
 * memory the object may read. */
#define BF_CUCKOO_PAD 8u
struct bf_cuckoo {
    uint8_t *table;       /* writable; NULL for a read-only view */
    const uint8_t *data;
    uint64_t num_buckets;
    unsigned fp_bits;     /* f: fingerprints in [1, 2^f - 1] */
    unsigned bucket_size; /* b */
    unsigned flags;       /* 0 or BF_CUCKOO_SEMISORTED */
    unsigned slot_bits;   /* bits a slot takes: f, or f - 1 semi-sorted */
    uint64_t bucket_bits; /* b * slot_bits */
    uint32_t fp_mask;     /* 2^f - 1 */
    /* Lookups read a bucket `chunks` 64-bit loads at a time, each testing
     * `chunk_slots` slots at once (the last one `last_slots`): lane masks
     * for the "has a zero lane" test. */
    unsigned chunks, chunk_slots;
    uint64_t ones, highs, last_ones, last_highs;
    unsigned lane_inv;     /* ceil(2^16 / fp_bits): bit / fp_bits as a multiply */
    uint64_t num_bytes;    /* table bytes: ceil(num_buckets * bucket_bits / 8) */
    uint64_t count;        /* fingerprints stored, victim included */
    uint64_t victim_index;
    uint32_t victim_fp;    /* 0: no victim */
    uint64_t rng;          /* kick-out choices (xorshift) */
    uint64_t seed;         /* byte-string hashing seed (the one copy) */
    bf_region region;
    unsigned max_kicks;    /* kick-out limit of inserts; 0 = BF_CUCKOO_MAX_KICKS */
    /* BF_CUCKOO_FULL_VICTIM or _ROLLBACK. Rollback records each kick's
     * evicted fingerprint and slot (kick_path, kick_cap entries, allocated
     * when the policy is set and grown with the kick limit) to undo them. */
    unsigned full_policy;
    unsigned kick_cap;
    struct bf_cuckoo_kick *kick_path;
};
struct bf_cuckoo_kick {
    uint32_t fp;  /* the fingerprint this kick evicted */
    uint8_t slot; /* the slot it was taken from */
};

/* Enhanced double hashing (Dillinger and Manolios 2004) over 64-bit values,
 * each reduced to [0, m) by multiply-high. The second hash is a finaliser of
 * the first, so one 64-bit hash yields all k positions. */
static inline uint64_t bf__mix64(uint64_t z) {
    z ^= z >> 33;
    z *= 0xff51afd7ed558ccdULL;
    z ^= z >> 33;
    z *= 0xc4ceb9fe1a85ec53ULL;
    z ^= z >> 33;
    return z;
}
typedef struct bf_dh {
    uint64_t x, y, i;
} bf_dh;
static inline bf_dh bf__dh_init(uint64_t hash) {
    bf_dh d = {.x = hash, .y = bf__mix64(hash ^ 0x9e3779b97f4a7c15ULL), .i = 0};
    return d;
}
static inline uint64_t bf__dh_next(bf_dh *d, uint64_t m) {
    uint64_t pos = bf_mulhi64(d->x, m);
    d->x += d->y;
    d->y += ++d->i;
    return pos;
}

/* Batch loops prefetch from this payload size up (below it the payload sits
 * in L1/L2 and prefetches only cost). */
#define BF_BASELINE_PREFETCH_MIN_BYTES ((uint64_t)1 << 20)

/* Batches (any alignment of the hash array; out may be NULL). */
BF_HIDDEN size_t bf__bloom_contains_batch(const bf_bloom *f, const uint64_t *hashes, size_t n,
                                          uint8_t *out);
BF_HIDDEN void bf__bloom_insert_batch(bf_bloom *f, const uint64_t *hashes, size_t n);
BF_HIDDEN size_t bf__counting_contains_batch(const bf_counting *f, const uint64_t *hashes,
                                             size_t n, uint8_t *out);
BF_HIDDEN size_t bf__cuckoo_contains_batch(const bf_cuckoo *f, const uint64_t *hashes, size_t n,
                                           uint8_t *out);

/* Shared sizing and models (bloom.c). */
BF_HIDDEN double bf__bloom_fpp(double m, unsigned k, double n);
/* Smallest m (and its k) with exact FPR <= fpp over integer k in 1..64. */
BF_HIDDEN int bf__bloom_size(uint64_t n, double fpp, uint64_t *m, unsigned *k);
/* Best integer k for m cells and n keys, and its FPR. */
BF_HIDDEN unsigned bf__bloom_best_k(uint64_t m, uint64_t n, double *fpp);
BF_HIDDEN uint64_t bf__bloom_payload_bytes(uint64_t m);
BF_HIDDEN uint64_t bf__counting_payload_bytes(uint64_t m);

/* The classic and counting filters' shared table (bloom.c). An object is a
 * struct whose first member is a bf_cells, so a pointer to it converts to
 * the bf_cells (and the void * of the family tables to either).
 * bf__cells_new allocates a zeroed payload of `bytes` bytes for m cells, k
 * per key; it checks m and k and sets *out on BF_OK only. */
BF_HIDDEN int bf__cells_new(bf_cells **out, size_t size, uint64_t m, unsigned k, uint64_t bytes);
/* Frees the payload (if owned) and the object; t may be NULL. */
BF_HIDDEN void bf__cells_free(bf_cells *t);

/* Table operations the two families share (o is a bf_bloom or bf_counting;
 * see family.h for what each does). */
BF_HIDDEN void bf__cells_destroy(void *o);
BF_HIDDEN uint64_t bf__cells_num_bytes(const void *o);
BF_HIDDEN bool bf__cells_is_readonly(const void *o);
BF_HIDDEN uint64_t bf__cells_seed(const void *o);
BF_HIDDEN int bf__cells_set_seed(void *o, uint64_t seed);
BF_HIDDEN int bf__cells_clear(void *o);
/* Native payload: p0 = m, p1 = k, p2 = the family's constant (0 for the
 * classic filter, 4 bits per counter), p3 = 0, then the table. */
BF_HIDDEN void bf__cells_encode(const void *o, bf_native_params *p, uint8_t *payload, uint32_t p2);
BF_HIDDEN int bf__cells_check(const bf_native_params *p, uint64_t len, uint32_t p2,
                              uint64_t (*payload_bytes)(uint64_t m));
BF_HIDDEN int bf__cells_decode(void **out, size_t size, const bf_native_params *p,
                               const uint8_t *payload, uint64_t len, uint64_t seed, bool view);
/* Sizing: the classic filter's m and k for (n, fpp), in a payload of
 * payload_bytes(m) bytes; the model FPR of a payload of num_bytes holding
 * cells_per_byte cells each, with the best k. */
BF_HIDDEN int bf__cells_size_for(uint64_t n, double fpp, bf_sizing *out,
                                 uint64_t (*payload_bytes)(uint64_t m));
BF_HIDDEN int bf__cells_fpp_for(uint64_t num_bytes, unsigned cells_per_byte, uint64_t n,
                                double *out);
/* Statistics of a table of `cells` cells, `set` of them non-zero, k per key. */
BF_HIDDEN void bf__cells_stats(bf_filter_stats *st, uint64_t cells, uint64_t set, unsigned k);

BF_HIDDEN uint64_t bf__bloom_bits_set(const bf_bloom *f);
BF_HIDDEN unsigned bf__counting_get(const uint8_t *data, uint64_t i);

/* Cuckoo internals (cuckoo.c: the table; cuckoo_family.c: sizing,
 * models, the family table; cuckoo_semisort.c: semi-sorted buckets). */
BF_HIDDEN int bf__cuckoo_shape_check(unsigned bucket_size, unsigned fp_bits, unsigned flags);
/* Table bytes of a valid shape (no overflow below BF_CUCKOO_MAX_BUCKETS). */
BF_HIDDEN uint64_t bf__cuckoo_table_bytes(uint64_t num_buckets, unsigned bucket_size,
                                          unsigned fp_bits, unsigned flags);
/* Fills c's shape fields (everything else zero, no table); BF_EINVAL /
 * BF_ETOOBIG as bf_cuckoo_new_table. */
BF_HIDDEN int bf__cuckoo_shape(bf_cuckoo *c, uint64_t num_buckets, unsigned bucket_size,
                               unsigned fp_bits, unsigned flags);
/* An object of a valid shape; view: no table (decode points data at the
 * payload). */
BF_HIDDEN int bf__cuckoo_alloc(bf_cuckoo **out, uint64_t num_buckets, unsigned bucket_size,
                               unsigned fp_bits, unsigned flags, bool view);
BF_HIDDEN unsigned bf__cuckoo_bucket_occupied(const bf_cuckoo *f, uint64_t i);
BF_HIDDEN uint64_t bf__cuckoo_occupied(const bf_cuckoo *f);
BF_HIDDEN double bf__cuckoo_est_fpp(const bf_cuckoo *f);
/* Adds src's fingerprints to dst (same shape): BF_EFULL leaves dst as it was. */
BF_HIDDEN int bf__cuckoo_merge(bf_cuckoo *dst, const bf_cuckoo *src);
/* The load sizing plans for: b slots, f bits, n keys. */
BF_HIDDEN double bf__cuckoo_design_load(unsigned bucket_size, unsigned fp_bits, uint64_t n);

/* Semi-sorted buckets (4 slots): a bucket value of 4 * (f - 1) bits to the
 * four fingerprints (sorted by low nibble), and back. Decoding never reads
 * outside its table, whatever the value. */
#define BF_CUCKOO_SS_CODES 3876u /* multisets of 4 nibbles: C(19, 4) */
/* Builds the code table once; called by every object of this layout. */
BF_HIDDEN void bf__cuckoo_ss_init(void);
/* The table: code -> the sorted nibbles n0 | n1 << 4 | n2 << 8 | n3 << 12. */
BF_HIDDEN extern uint16_t bf__cuckoo_ss_nibbles[BF_CUCKOO_SS_CODES];
/* Whether a semi-sorted bucket value v of f-bit fingerprints holds fp: its
 * low nibble among the code's nibbles and its upper bits in the same slot. A
 * damaged code (>= 3876: only in an unverified view) reads entry 0. */
static inline bool bf__cuckoo_ss_has(uint64_t v, unsigned f, uint32_t fp) {
    /* Exact zero-lane masks (no borrow between lanes): the upper parts
     * equal to fp's upper bits, at bits w j + w - 1 (w = f - 4 bits a lane),
     * first, from the bucket alone: for a key that is absent they rarely
     * match (4 / 2^w), and the code table is not read. Then the nibbles
     * equal to fp's low nibble, at bits 4j + 3. */
    const unsigned w = f - 4;
    const uint64_t one = ((uint64_t)1 << w) | 1, ones = one | one << (2 * w);
    const uint64_t highs = ones << (w - 1), lows = highs - ones;
    uint64_t x = ((v >> 12) & (((uint64_t)1 << (4 * w)) - 1)) ^ ((uint64_t)(fp >> 4) * ones);
    uint64_t zu = ~(((x & lows) + lows) | x) & highs;
    if (!zu) return false;
    unsigned code = (unsigned)(v & 0xfff);
    uint64_t nib = bf__cuckoo_ss_nibbles[code < BF_CUCKOO_SS_CODES ? code : 0];
    uint64_t y = nib ^ ((fp & 15u) * 0x1111u);
    uint64_t zn = ~(((y & 0x7777u) + 0x7777u) | y) & 0x8888u;
    /* Lane j of zu to bit 4j + 3. */
    uint64_t zu4 = ((zu >> (w - 1)) & 1) << 3 | ((zu >> (2 * w - 1)) & 1) << 7 |
                   ((zu >> (3 * w - 1)) & 1) << 11 | ((zu >> (4 * w - 1)) & 1) << 15;
    return (zn & zu4) != 0;
}
BF_HIDDEN void bf__cuckoo_ss_decode(uint64_t v, unsigned f, uint32_t fp[4]);
/* Sorts fp (by low nibble, then the rest) and encodes it. */
BF_HIDDEN uint64_t bf__cuckoo_ss_encode(uint32_t fp[4], unsigned f);
/* Whether a bucket value's 12-bit code is a valid one. */
BF_HIDDEN bool bf__cuckoo_ss_valid(uint64_t v);

#endif
