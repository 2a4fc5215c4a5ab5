/*
 * Cuckoo filter (Fan, Andersen, Kaminsky and Mitzenmacher 2014): the table,
 * in every shape. Sizing, models and the family table: cuckoo_family.c;
 * semi-sorted buckets: cuckoo_semisort.c.
 *
 * Layout. num_buckets buckets of b slots (1..255); a slot holds an f-bit
 * fingerprint (f = 4..32). Slot s of bucket i is the f bits at bit offset
 * (i*b + s)*f of one little-endian bit array, so every f costs f bits (a
 * 4-slot bucket of 12-bit fingerprints is 6 bytes, as in the 4-slot-only
 * layout of format version 1, which this is for b = 4). 0 marks an empty
 * slot. A semi-sorted bucket (b = 4) stores 4(f - 1) bits instead.
 *
 * Hashing a key's 64-bit hash h:
 *   fingerprint  fp = 1 + floor(low32(h) * (2^f - 1) / 2^32), in [1, 2^f - 1]:
 *                uniform over the non-zero values, so no value is
 *                over-represented and 0 is never stored;
 *   bucket       i1 = mulhi(h, N) (high bits of h, independent of fp);
 *   alternate    i2 = (H(fp) - i1) mod N, with H(fp) = mulhi(fp * phi64, N)
 *                (phi64 = 2^64 / golden ratio), and H(fp) forced odd when N is
 *                even: H = 2 * mulhi(fp * phi64, N/2) + 1.
 * Why this scheme: the xor rule i1 ^ hash(fp) of the paper needs a
 * power-of-two N, which can leave a filter near 50% load and waste half its
 * memory. (H - i) mod N is an involution for every N (alt(alt(i)) = i), so
 * partial-key cuckoo hashing works at any table size: a fingerprint can move
 * between its two buckets without knowing the key. With N even and H odd the
 * two buckets always differ (they have opposite parity); sizing therefore
 * always picks an even N. For an odd N (bf_cuckoo_new_table) a fraction
 * 1/N of keys has i1 == i2, i.e. one bucket of b slots instead of two.
 *
 * Lookups test a bucket a 64-bit load at a time: xor the fingerprint into
 * every f-bit lane of the load, then the classic "has a zero lane" test
 * (x - ones) & ~x & highs, exact for whether some lane is zero (a borrow
 * only runs upwards from a zero lane, so bits above the lanes a load
 * covers do not matter and need no mask). A bucket of b*f <= 57 bits, or
 * of <= 64 bits starting on a byte, is one load (b = 1 for every f; b = 2
 * up to f = 28 and 32; b = 4 up to f = 14 and 16; b = 8 up to f = 8);
 * larger buckets take ceil(b / k) loads of k slots each.
 *
 * Insert: a free slot in i1 or i2; otherwise kick: move a random slot's
 * fingerprint of a random one of the two buckets to its alternate bucket, at
 * most 500 times (bf_cuckoo_set_max_kicks). When the last evicted
 * fingerprint still has no place, the full policy decides:
 *  - victim (the default): it goes into the one-entry victim slot (it is
 *    stored: the insert succeeds and every key still answers present).
 *    While the victim is occupied the filter is full: every insert returns
 *    BF_EFULL and changes nothing. A remove frees a slot and re-inserts the
 *    victim. Most keys a table can take, but one unlucky path closes it.
 *  - rollback: every kick is undone (the evicted fingerprints go back
 *    where they were, so the table is byte for byte as before), the insert
 *    returns BF_EFULL and the filter stays open: other keys, whose paths
 *    differ, still go in. The kick-out generator is rewound too, so a
 *    refused insert changes no state at all (a copy that never saw the
 *    call, such as a replica, stays identical; the same key tried again
 *    fails the same way until the table changes). A kick path is recorded
 *    (8 bytes a kick, allocated when the policy is set), so a failed
 *    insert costs twice its kicks.
 *
 * The same key inserted repeatedly is stored once per insert (a multiset, so
 * each insert can be undone by one remove). Its two buckets hold at most
 * 2b copies; the next insert of the same key (both buckets full of its
 * fingerprint) returns BF_EFULL and changes nothing; the filter stays usable
 * for other keys. (In an odd-sized table the 1/N of keys whose two buckets
 * coincide hold at most b copies.)
 *
 * Remove of a key never inserted: if its fingerprint is in neither bucket
 * (nor the victim) the filter says absent, nothing changes and BF_ENOTFOUND
 * is returned. If it is a false positive, one matching fingerprint - another
 * key's - is removed, and that key may become a false negative: callers must
 * only remove keys they inserted (the structure cannot tell them apart).
 *
 * FPR: a foreign key matches a stored fingerprint with probability
 * q = 1/(2^f - 1) per occupied slot of its two buckets, so at load a
 * FPR = 1 - (1 - q)^{2ba} ~= 2ba / (2^f - 1) (the paper's 2b a / 2^f).
 *
 * Thread safety: none for writers; contains calls may run concurrently with
 * each other.
 */
#include "families/baselines.h"

#include <math.h>

#define PHI64 0x9e3779b97f4a7c15ULL

/* ---- shape ----------------------------------------------------------------- */

int bf__cuckoo_shape_check(unsigned b, unsigned f, unsigned flags) {
    if (b < 1 || b > BF_CUCKOO_MAX_BUCKET_SIZE) return BF_EINVAL;
    if (f < BF_CUCKOO_MIN_FP_BITS || f > BF_CUCKOO_MAX_FP_BITS) return BF_EINVAL;
    if (flags & ~BF_CUCKOO_SEMISORTED) return BF_EINVAL;
    if ((flags & BF_CUCKOO_SEMISORTED) && (b != 4 || f < 5 || f > 17)) return BF_EINVAL;
    return BF_OK;
}

static unsigned slot_bits_of(unsigned f, unsigned flags) {
    return (flags & BF_CUCKOO_SEMISORTED) ? f - 1 : f;
}

uint64_t bf__cuckoo_table_bytes(uint64_t nb, unsigned b, unsigned f, unsigned flags) {
    uint64_t bits = nb * b * slot_bits_of(f, flags); /* < 2^44 * 2^13 */
    return (bits + 7) / 8;
}

/* Lanes of k slots of f bits from bit 0. */
static uint64_t lanes(unsigned k, unsigned f) {
    uint64_t ones = 0;
    for (unsigned j = 0; j < k; j++) ones |= (uint64_t)1 << (j * f);
    return ones;
}

/* How lookups load a bucket: k slots a load. A bucket that starts on a byte
 * (b*f a multiple of 8) takes loads of up to 64 bits whose starts are bytes
 * too; otherwise a load shifts by up to 7 bits and holds 57. */
static void plan_chunks(bf_cuckoo *c) {
    const unsigned b = c->bucket_size, f = c->fp_bits;
    unsigned k = 57 / f;
    if ((b * f) % 8 == 0)
        for (unsigned j = 64 / f; j > k; j--)
            if ((j * f) % 8 == 0) {
                k = j;
                break;
            }
    if (k > b) k = b;
    c->chunk_slots = k;
    c->chunks = (b + k - 1) / k;
    unsigned last = b - (c->chunks - 1) * k;
    c->ones = lanes(k, f);
    c->highs = c->ones << (f - 1);
    c->last_ones = lanes(last, f);
    c->last_highs = c->last_ones << (f - 1);
}

int bf__cuckoo_shape(bf_cuckoo *c, uint64_t num_buckets, unsigned b, unsigned f,
                     unsigned flags) {
    if (num_buckets == 0) return BF_EINVAL;
    int rc = bf__cuckoo_shape_check(b, f, flags);
    if (rc) return rc;
    if (num_buckets > BF_CUCKOO_MAX_BUCKETS) return BF_ETOOBIG;
    uint64_t bytes = bf__cuckoo_table_bytes(num_buckets, b, f, flags);
    if (bytes > (uint64_t)SIZE_MAX - BF_CUCKOO_PAD) return BF_ETOOBIG;
    memset(c, 0, sizeof *c);
    c->num_buckets = num_buckets;
    c->fp_bits = f;
    c->bucket_size = b;
    c->flags = flags;
    c->slot_bits = slot_bits_of(f, flags);
    c->bucket_bits = (uint64_t)b * c->slot_bits;
    c->fp_mask = (uint32_t)(((uint64_t)1 << f) - 1);
    c->lane_inv = (65536 + f - 1) / f;
    c->num_bytes = bytes;
    c->rng = 0x2545f4914f6cdd1dULL;
    plan_chunks(c);
    if (flags & BF_CUCKOO_SEMISORTED) bf__cuckoo_ss_init();
    return BF_OK;
}

int bf__cuckoo_alloc(bf_cuckoo **out, uint64_t num_buckets, unsigned b, unsigned f,
                     unsigned flags, bool view) {
    if (!out) return BF_EINVAL;
    bf_cuckoo shape;
    int rc = bf__cuckoo_shape(&shape, num_buckets, b, f, flags);
    if (rc) return rc;
    bf_cuckoo *c = bf__calloc(1, sizeof *c);
    if (!c) return BF_ENOMEM;
    *c = shape;
    if (!view) {
        rc = bf__alloc_bits(&c->region, (size_t)c->num_bytes + BF_CUCKOO_PAD);
        if (rc) {
            bf__free(c);
            return rc;
        }
        c->table = c->region.ptr;
        c->data = c->table;
    }
    *out = c;
    return BF_OK;
}

int bf_cuckoo_new_table(bf_cuckoo **out, uint64_t num_buckets, unsigned bucket_size,
                        unsigned fp_bits, unsigned flags) {
    return bf__cuckoo_alloc(out, num_buckets, bucket_size, fp_bits, flags, false);
}

int bf_cuckoo_new_buckets(bf_cuckoo **out, uint64_t num_buckets, unsigned fp_bits) {
    return bf__cuckoo_alloc(out, num_buckets, BF_CUCKOO_SLOTS, fp_bits, 0, false);
}

void bf_cuckoo_free(bf_cuckoo *f) {
    if (!f) return;
    bf__free(f->kick_path);
    bf__free_bits(&f->region);
    bf__free(f);
}

/* ---- hashing ------------------------------------------------------------- */

static inline uint32_t fingerprint(uint64_t hash, uint32_t mask) {
    return 1u + (uint32_t)(((uint64_t)(uint32_t)hash * mask) >> 32);
}
static inline uint64_t index1(uint64_t hash, uint64_t n) { return bf_mulhi64(hash, n); }
static inline uint64_t alt_index(uint64_t i, uint32_t fp, uint64_t n) {
    uint64_t mixed = (uint64_t)fp * PHI64;
    uint64_t h = (n & 1) ? bf_mulhi64(mixed, n) : 2 * bf_mulhi64(mixed, n >> 1) + 1;
    uint64_t j = h + (n - i); /* h < n, 0 < n - i <= n: no overflow below 2^63 */
    return j >= n ? j - n : j;
}

static inline uint64_t next_rand(bf_cuckoo *f) {
    uint64_t x = f->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    f->rng = x;
    return x;
}

/* ---- slots ----------------------------------------------------------------- */

/* The bits at bit offset `bit` of the table, shifted down (64 - 7 valid). */
static inline uint64_t bits_at(const uint8_t *data, uint64_t bit) {
    return bf_load_le64(data + (bit >> 3)) >> (bit & 7);
}

/* Writes v (< 2^width, width + (bit & 7) <= 64) at bit offset `bit`. */
static inline void put_bits(uint8_t *table, uint64_t bit, unsigned width, uint64_t v) {
    uint8_t *p = table + (bit >> 3);
    unsigned sh = (unsigned)(bit & 7);
    uint64_t mask = (width == 64 ? ~(uint64_t)0 : (((uint64_t)1 << width) - 1)) << sh;
    bf_store_le64(p, (bf_load_le64(p) & ~mask) | (v << sh));
}

/* A semi-sorted bucket's value (4 (f - 1) <= 64 bits, starting on a
 * multiple of 4 bits, so it fits one load). */
static inline uint64_t ss_load(const bf_cuckoo *f, uint64_t i) {
    uint64_t bit = i * f->bucket_bits;
    uint64_t v = bits_at(f->data, bit);
    return f->bucket_bits == 64 ? v : v & (((uint64_t)1 << f->bucket_bits) - 1);
}
static inline void ss_store(bf_cuckoo *f, uint64_t i, uint64_t v) {
    put_bits(f->table, i * f->bucket_bits, (unsigned)f->bucket_bits, v);
}

static inline uint32_t slot_get(const bf_cuckoo *f, uint64_t i, unsigned s) {
    if (f->flags) {
        uint32_t fp[4];
        bf__cuckoo_ss_decode(ss_load(f, i), f->fp_bits, fp);
        return fp[s];
    }
    return (uint32_t)bits_at(f->data, (i * f->bucket_size + s) * f->fp_bits) & f->fp_mask;
}

static inline void slot_set(bf_cuckoo *f, uint64_t i, unsigned s, uint32_t v) {
    if (f->flags) {
        uint32_t fp[4];
        bf__cuckoo_ss_decode(ss_load(f, i), f->fp_bits, fp);
        fp[s] = v;
        ss_store(f, i, bf__cuckoo_ss_encode(fp, f->fp_bits));
        return;
    }
    put_bits(f->table, (i * f->bucket_size + s) * f->fp_bits, f->fp_bits, v);
}

/* Lowest set bit of a zero-lane mask as a lane number (the lowest flagged
 * lane is always a true zero): bit / f, as a multiply by lane_inv =
 * ceil(2^16 / f), exact for bits below 64. */
static inline unsigned lane_of(const bf_cuckoo *f, uint64_t m) {
    return ((unsigned)__builtin_ctzll(m) * f->lane_inv) >> 16;
}

/* Slot of bucket i holding fp (fp = 0: a free slot), or -1. */
static int slot_find(const bf_cuckoo *f, uint64_t i, uint32_t fp) {
    if (f->flags) {
        uint32_t v[4];
        bf__cuckoo_ss_decode(ss_load(f, i), f->fp_bits, v);
        for (unsigned s = 0; s < 4; s++)
            if (v[s] == fp) return (int)s;
        return -1;
    }
    uint64_t bit = i * f->bucket_bits;
    if (BF_LIKELY(f->chunks == 1)) {
        uint64_t x = bits_at(f->data, bit) ^ (fp * f->last_ones);
        uint64_t m = (x - f->last_ones) & ~x & f->last_highs;
        return m ? (int)lane_of(f, m) : -1;
    }
    const unsigned bits = f->fp_bits, k = f->chunk_slots;
    for (unsigned c = 0; c < f->chunks; c++, bit += (uint64_t)k * bits) {
        const bool last = c + 1 == f->chunks;
        const uint64_t ones = last ? f->last_ones : f->ones;
        const uint64_t highs = last ? f->last_highs : f->highs;
        uint64_t x = bits_at(f->data, bit) ^ (fp * ones);
        uint64_t m = (x - ones) & ~x & highs;
        if (m) return (int)(c * k + lane_of(f, m));
    }
    return -1;
}

/* Copies of fp in bucket i. */
static unsigned bucket_count(const bf_cuckoo *f, uint64_t i, uint32_t fp) {
    unsigned n = 0;
    if (f->flags) {
        uint32_t v[4];
        bf__cuckoo_ss_decode(ss_load(f, i), f->fp_bits, v);
        for (unsigned s = 0; s < 4; s++) n += v[s] == fp;
        return n;
    }
    uint64_t bit = i * f->bucket_bits;
    if (BF_LIKELY(f->chunks == 1)) {
        /* Exact zero lanes (no borrow between lanes), counted. */
        const uint64_t lows = f->last_highs - f->last_ones;
        uint64_t x = bits_at(f->data, bit) ^ (fp * f->last_ones);
        return (unsigned)__builtin_popcountll(~(((x & lows) + lows) | x) & f->last_highs);
    }
    for (unsigned s = 0; s < f->bucket_size; s++, bit += f->fp_bits)
        n += ((uint32_t)bits_at(f->data, bit) & f->fp_mask) == fp;
    return n;
}

unsigned bf__cuckoo_bucket_occupied(const bf_cuckoo *f, uint64_t i) {
    return f->bucket_size - bucket_count(f, i, 0);
}

/* ---- lookups ------------------------------------------------------------- */

/* Whether bucket i holds fp (fp != 0); fpx = fp in every lane of a load. */
static inline bool bucket_has(const bf_cuckoo *f, uint64_t i, uint32_t fp, uint64_t fpx) {
    if (BF_UNLIKELY(f->flags)) return bf__cuckoo_ss_has(ss_load(f, i), f->fp_bits, fp);
    uint64_t bit = i * f->bucket_bits;
    if (BF_LIKELY(f->chunks == 1)) {
        uint64_t x = bits_at(f->data, bit) ^ fpx;
        return ((x - f->last_ones) & ~x & f->last_highs) != 0;
    }
    const uint64_t step = (uint64_t)f->chunk_slots * f->fp_bits;
    for (unsigned c = 0; c + 1 < f->chunks; c++, bit += step) {
        uint64_t x = bits_at(f->data, bit) ^ fpx;
        if ((x - f->ones) & ~x & f->highs) return true;
    }
    /* The last load may cover fewer slots: lanes above them do not matter
     * (a borrow only runs upwards). */
    uint64_t x = bits_at(f->data, bit) ^ fpx;
    return ((x - f->last_ones) & ~x & f->last_highs) != 0;
}

/* fp in every lane of a full load (fp * ones cannot carry: fp < 2^f). */
static inline uint64_t spread(const bf_cuckoo *f, uint32_t fp) { return (uint64_t)fp * f->ones; }

static inline bool victim_is(const bf_cuckoo *f, uint32_t fp, uint64_t i1, uint64_t i2) {
    return f->victim_fp == fp && (f->victim_index == i1 || f->victim_index == i2);
}

bool bf_cuckoo_contains_hash(const bf_cuckoo *f, uint64_t hash) {
    uint32_t fp = fingerprint(hash, f->fp_mask);
    uint64_t i1 = index1(hash, f->num_buckets);
    uint64_t i2 = alt_index(i1, fp, f->num_buckets);
    uint64_t fpx = spread(f, fp);
    if (bucket_has(f, i1, fp, fpx) || bucket_has(f, i2, fp, fpx)) return true;
    return victim_is(f, fp, i1, i2);
}

/* Batch lookups: the two buckets of a group of keys are prefetched before
 * any is tested, so their misses overlap. */
#define CUCKOO_GROUP 16

size_t bf__cuckoo_contains_batch(const bf_cuckoo *f, const uint64_t *hashes, size_t n,
                                 uint8_t *out) {
    const bool prefetch = f->num_bytes >= BF_BASELINE_PREFETCH_MIN_BYTES;
    uint64_t b1[CUCKOO_GROUP], b2[CUCKOO_GROUP];
    uint32_t fps[CUCKOO_GROUP];
    size_t hits = 0;
    for (size_t base = 0; base < n; base += CUCKOO_GROUP) {
        size_t g = n - base < CUCKOO_GROUP ? n - base : CUCKOO_GROUP;
        for (size_t j = 0; j < g; j++) {
            uint64_t h;
            memcpy(&h, hashes + base + j, sizeof h);
            fps[j] = fingerprint(h, f->fp_mask);
            b1[j] = index1(h, f->num_buckets);
            b2[j] = alt_index(b1[j], fps[j], f->num_buckets);
            if (prefetch) {
                __builtin_prefetch(f->data + ((b1[j] * f->bucket_bits) >> 3));
                __builtin_prefetch(f->data + ((b2[j] * f->bucket_bits) >> 3));
            }
        }
        for (size_t j = 0; j < g; j++) {
            uint64_t fpx = spread(f, fps[j]);
            bool c = bucket_has(f, b1[j], fps[j], fpx) || bucket_has(f, b2[j], fps[j], fpx) ||
                     victim_is(f, fps[j], b1[j], b2[j]);
            if (out) out[base + j] = (uint8_t)c;
            hits += c;
        }
    }
    return hits;
}

size_t bf_cuckoo_contains_hashes(const bf_cuckoo *f, const uint64_t *hashes, size_t n, uint8_t *out) {
    return bf__cuckoo_contains_batch(f, hashes, n, out);
}

/* ---- updates --------------------------------------------------------------- */

/* Undoes the n kicks of an insert of fp that failed: the last one evicted
 * path[n - 1].fp, whose next bucket was cur. Kick k took path[k].fp from
 * bucket c_k and put in_k there (fp, then each earlier kick's eviction);
 * c_{k+1} = alt(c_k, path[k].fp), and alt is an involution, so walking back
 * c_k = alt(c_{k+1}, path[k].fp) needs no stored buckets. A plain bucket
 * gets path[k].fp back in the very slot; a semi-sorted bucket is one sorted
 * code, so any slot holding in_k (the bucket's multiset, hence its bytes,
 * come out the same). */
static void undo_kicks(bf_cuckoo *f, uint64_t cur, uint32_t fp, unsigned n) {
    const struct bf_cuckoo_kick *path = f->kick_path;
    for (unsigned k = n; k-- > 0;) {
        cur = alt_index(cur, path[k].fp, f->num_buckets);
        uint32_t in = k ? path[k - 1].fp : fp;
        int s = f->flags ? slot_find(f, cur, in) : (int)path[k].slot;
        slot_set(f, cur, (unsigned)s, path[k].fp);
    }
}

/* Stores fp, one of whose buckets is i (the caller has checked that the
 * victim slot is free). When the kicks fail: the victim policy parks the
 * last evicted fingerprint in the victim slot (stored all the same); the
 * rollback policy undoes every kick, rewinds the kick-out generator and
 * returns false: the filter's whole state is as it was. */
static bool insert_fp(bf_cuckoo *f, uint64_t i, uint32_t fp) {
    uint64_t i2 = alt_index(i, fp, f->num_buckets);
    int s = slot_find(f, i, 0);
    if (s >= 0) {
        slot_set(f, i, (unsigned)s, fp);
        f->count++;
        return true;
    }
    s = slot_find(f, i2, 0);
    if (s >= 0) {
        slot_set(f, i2, (unsigned)s, fp);
        f->count++;
        return true;
    }
    const bool rollback = f->full_policy == BF_CUCKOO_FULL_ROLLBACK;
    const uint64_t rng0 = f->rng;
    uint64_t cur = (next_rand(f) & 1) ? i : i2;
    uint32_t curfp = fp;
    const unsigned max_kicks = f->max_kicks ? f->max_kicks : BF_CUCKOO_MAX_KICKS;
    for (unsigned kick = 0; kick < max_kicks; kick++) {
        uint64_t r = next_rand(f);
        /* A uniform slot from the high 32 bits (the top 2 bits for b = 4). */
        unsigned victim_slot = (unsigned)(((r >> 32) * f->bucket_size) >> 32);
        uint32_t out = slot_get(f, cur, victim_slot);
        slot_set(f, cur, victim_slot, curfp);
        if (rollback) {
            f->kick_path[kick].fp = out;
            f->kick_path[kick].slot = (uint8_t)victim_slot;
        }
        curfp = out;
        cur = alt_index(cur, curfp, f->num_buckets);
        s = slot_find(f, cur, 0);
        if (s >= 0) {
            slot_set(f, cur, (unsigned)s, curfp);
            f->count++;
            return true;
        }
    }
    if (rollback) {
        undo_kicks(f, cur, fp, max_kicks);
        f->rng = rng0;
        return false;
    }
    f->victim_index = cur;
    f->victim_fp = curfp;
    f->count++;
    return true;
}

/* True if both buckets of the key hold nothing but copies of fp. */
static bool saturated_by(const bf_cuckoo *f, uint64_t i1, uint64_t i2, uint32_t fp) {
    if (slot_find(f, i1, 0) >= 0) return false; /* the usual case: room */
    if (bucket_count(f, i1, fp) != f->bucket_size) return false;
    return i2 == i1 || bucket_count(f, i2, fp) == f->bucket_size;
}

int bf_cuckoo_insert_hash(bf_cuckoo *f, uint64_t hash) {
    if (!f) return BF_EINVAL;
    if (!f->table) return BF_EREADONLY;
    if (f->victim_fp) return BF_EFULL;
    uint32_t fp = fingerprint(hash, f->fp_mask);
    uint64_t i1 = index1(hash, f->num_buckets);
    uint64_t i2 = alt_index(i1, fp, f->num_buckets);
    if (saturated_by(f, i1, i2, fp)) return BF_EFULL;
    return insert_fp(f, i1, fp) ? BF_OK : BF_EFULL;
}

/* After a slot was freed: give the victim a home (it may end up in the
 * victim slot again, but it is never dropped). */
static void rehome_victim(bf_cuckoo *f) {
    if (!f->victim_fp) return;
    uint32_t vfp = f->victim_fp;
    f->victim_fp = 0;
    f->count--;
    if (!insert_fp(f, f->victim_index, vfp)) {
        /* Rollback policy (a victim from a restored state): keep it. */
        f->victim_fp = vfp;
        f->count++;
    }
    if (!f->victim_fp) f->victim_index = 0;
}

int bf_cuckoo_remove_hash(bf_cuckoo *f, uint64_t hash) {
    if (!f) return BF_EINVAL;
    if (!f->table) return BF_EREADONLY;
    uint32_t fp = fingerprint(hash, f->fp_mask);
    uint64_t i1 = index1(hash, f->num_buckets);
    uint64_t i2 = alt_index(i1, fp, f->num_buckets);
    uint64_t cand[2] = {i1, i2};
    for (unsigned c = 0; c < 2; c++) {
        int s = slot_find(f, cand[c], fp);
        if (s < 0) continue;
        slot_set(f, cand[c], (unsigned)s, 0);
        f->count--;
        rehome_victim(f);
        return BF_OK;
    }
    if (victim_is(f, fp, i1, i2)) {
        f->victim_fp = 0;
        f->victim_index = 0;
        f->count--;
        return BF_OK;
    }
    return BF_ENOTFOUND;
}

unsigned bf_cuckoo_count_hash(const bf_cuckoo *f, uint64_t hash) {
    uint32_t fp = fingerprint(hash, f->fp_mask);
    uint64_t i1 = index1(hash, f->num_buckets);
    uint64_t i2 = alt_index(i1, fp, f->num_buckets);
    unsigned n = bucket_count(f, i1, fp);
    if (i2 != i1) n += bucket_count(f, i2, fp);
    return n + victim_is(f, fp, i1, i2);
}

/* Every fingerprint of src, in bucket order, into a copy of dst's table:
 * bucket i is one of each fingerprint's two buckets in dst too (same shape),
 * so no key is needed. The copy replaces dst's table only if all fit. */
int bf__cuckoo_merge(bf_cuckoo *dst, const bf_cuckoo *src) {
    bf_cuckoo tmp = *dst;
    memset(&tmp.region, 0, sizeof tmp.region);
    int rc = bf__alloc_bits(&tmp.region, (size_t)dst->num_bytes + BF_CUCKOO_PAD);
    if (rc) return rc;
    tmp.table = tmp.region.ptr;
    tmp.data = tmp.table;
    memcpy(tmp.table, dst->data, (size_t)dst->num_bytes);
    for (uint64_t i = 0; i < src->num_buckets && !rc; i++)
        for (unsigned s = 0; s < src->bucket_size && !rc; s++) {
            uint32_t fp = slot_get(src, i, s);
            if (!fp) continue;
            if (tmp.victim_fp || !insert_fp(&tmp, i, fp)) rc = BF_EFULL;
        }
    if (!rc && src->victim_fp)
        if (tmp.victim_fp || !insert_fp(&tmp, src->victim_index, src->victim_fp)) rc = BF_EFULL;
    if (rc) {
        bf__free_bits(&tmp.region);
        return rc;
    }
    bf__free_bits(&dst->region);
    *dst = tmp;
    return BF_OK;
}

/* ---- accessors, statistics ------------------------------------------------- */

uint64_t bf_cuckoo_count(const bf_cuckoo *f) { return f->count; }
uint64_t bf_cuckoo_num_buckets(const bf_cuckoo *f) { return f->num_buckets; }
unsigned bf_cuckoo_fingerprint_bits(const bf_cuckoo *f) { return f->fp_bits; }
unsigned bf_cuckoo_bucket_size(const bf_cuckoo *f) { return f->bucket_size; }
unsigned bf_cuckoo_flags(const bf_cuckoo *f) { return f->flags; }

uint64_t bf__cuckoo_occupied(const bf_cuckoo *f) {
    uint64_t occ = 0;
    for (uint64_t i = 0; i < f->num_buckets; i++) occ += bf__cuckoo_bucket_occupied(f, i);
    return occ;
}

/* FPR of the table as it stands: a foreign key misses bucket i with
 * probability (1 - q)^{occ(i)}; its two buckets are (pseudo-)independent, so
 * FPR = 1 - S^2 with S the mean of (1 - q)^{occ(i)} over buckets. */
double bf__cuckoo_est_fpp(const bf_cuckoo *f) {
    double q = 1.0 / (double)f->fp_mask;
    uint64_t hist[BF_CUCKOO_MAX_BUCKET_SIZE + 1] = {0};
    for (uint64_t i = 0; i < f->num_buckets; i++) hist[bf__cuckoo_bucket_occupied(f, i)]++;
    double s = 0;
    for (unsigned o = 0; o <= f->bucket_size; o++)
        if (hist[o]) s += (double)hist[o] * pow(1.0 - q, (double)o);
    s /= (double)f->num_buckets;
    return 1.0 - s * s;
}

/* ---- kick limit, and raw state for storing a filter elsewhere (the Redis
 * module keeps cuckoo filters in its own data type and rebuilds them byte
 * for byte, kick-out choices included) ---- */

/* Room to record `kicks` kicks under the rollback policy (kept, never
 * shrunk: the next insert cannot fail for memory). */
static int reserve_path(bf_cuckoo *f, unsigned policy, unsigned kicks) {
    if (policy != BF_CUCKOO_FULL_ROLLBACK || kicks <= f->kick_cap) return BF_OK;
    struct bf_cuckoo_kick *p = bf__malloc((size_t)kicks * sizeof *p);
    if (!p) return BF_ENOMEM;
    bf__free(f->kick_path);
    f->kick_path = p;
    f->kick_cap = kicks;
    return BF_OK;
}

int bf_cuckoo_set_max_kicks(bf_cuckoo *f, unsigned kicks) {
    if (!f || kicks < 1 || kicks > 65535) return BF_EINVAL;
    int rc = reserve_path(f, f->full_policy, kicks);
    if (rc) return rc;
    f->max_kicks = kicks;
    return BF_OK;
}

int bf_cuckoo_set_full_policy(bf_cuckoo *f, unsigned policy) {
    if (!f || (policy != BF_CUCKOO_FULL_VICTIM && policy != BF_CUCKOO_FULL_ROLLBACK))
        return BF_EINVAL;
    int rc = reserve_path(f, policy, bf_cuckoo_max_kicks(f));
    if (rc) return rc;
    f->full_policy = policy;
    return BF_OK;
}

unsigned bf_cuckoo_full_policy(const bf_cuckoo *f) { return f->full_policy; }

unsigned bf_cuckoo_max_kicks(const bf_cuckoo *f) {
    return f->max_kicks ? f->max_kicks : BF_CUCKOO_MAX_KICKS;
}

const void *bf_cuckoo_table(const bf_cuckoo *f) { return f->data; }

uint64_t bf_cuckoo_table_bytes(const bf_cuckoo *f) { return f->num_bytes; }

void bf_cuckoo_get_state(const bf_cuckoo *f, bf_cuckoo_state *out) {
    out->count = f->count;
    out->victim_index = f->victim_index;
    out->victim_fp = f->victim_fp;
    out->rng = f->rng;
}

int bf_cuckoo_set_state(bf_cuckoo *f, const bf_cuckoo_state *s) {
    if (!f || !s) return BF_EINVAL;
    if (!f->table) return BF_EREADONLY;
    if (s->victim_fp > f->fp_mask) return BF_ECORRUPT;
    if (s->victim_fp ? s->victim_index >= f->num_buckets : s->victim_index != 0) return BF_ECORRUPT;
    if (s->count > f->num_buckets * f->bucket_size + (s->victim_fp != 0)) return BF_ECORRUPT;
    if (s->rng == 0) return BF_ECORRUPT; /* xorshift would stay at zero */
    f->count = s->count;
    f->victim_index = s->victim_index;
    f->victim_fp = s->victim_fp;
    f->rng = s->rng;
    return BF_OK;
}

int bf_cuckoo_write_table(bf_cuckoo *f, uint64_t offset, const void *src, size_t len) {
    if (!f || (!src && len)) return BF_EINVAL;
    if (!f->table) return BF_EREADONLY;
    if (offset > f->num_bytes || len > f->num_bytes - offset) return BF_EINVAL;
    if (len) memcpy(f->table + offset, src, len);
    return BF_OK;
}
