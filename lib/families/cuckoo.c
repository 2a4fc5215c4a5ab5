/*
 * Cuckoo filter (Fan, Andersen, Kaminsky and Mitzenmacher 2014).
 *
 * Layout. num_buckets buckets of 4 slots; a slot holds an f-bit fingerprint
 * (f = 8, 12 or 16), packed: a bucket is f/2 bytes (4, 6 or 8), a
 * little-endian integer whose bits [s*f, (s+1)*f) are slot s. So 12-bit
 * fingerprints cost 12 bits, not 16. 0 marks an empty slot.
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
 * always picks an even N. For an odd N (bf_cuckoo_new_buckets) a fraction
 * 1/N of keys has i1 == i2, i.e. one bucket of 4 slots instead of two.
 *
 * Insert: a free slot in i1 or i2; otherwise kick: move a random slot's
 * fingerprint of a random one of the two buckets to its alternate bucket, at
 * most 500 times. If the last evicted fingerprint still has no place it goes
 * into the one-entry victim slot (it is stored: the insert succeeds and every
 * key still answers present). While the victim is occupied the filter is
 * full: every insert returns BF_EFULL and changes nothing. A remove frees a
 * slot and re-inserts the victim.
 *
 * The same key inserted repeatedly is stored once per insert (a multiset, so
 * each insert can be undone by one remove). Its two buckets hold at most
 * 2 * 4 = 8 copies; the 9th insert of the same key (both buckets full of its
 * fingerprint) returns BF_EFULL and changes nothing; the filter stays usable
 * for other keys. (In an odd-sized table the 1/N of keys whose two buckets
 * coincide hold at most 4 copies.)
 *
 * Remove of a key never inserted: if its fingerprint is in neither bucket
 * (nor the victim) the filter says absent, nothing changes and BF_ENOTFOUND
 * is returned. If it is a false positive, one matching fingerprint - another
 * key's - is removed, and that key may become a false negative: callers must
 * only remove keys they inserted (the structure cannot tell them apart).
 *
 * FPR: a foreign key matches a stored fingerprint with probability
 * q = 1/(2^f - 1) per occupied slot of its two buckets, so at load a
 * FPR = 1 - (1 - q)^{8a} ~= 8a / (2^f - 1) (the paper's 2b a / 2^f).
 *
 * Thread safety: none for writers; contains calls may run concurrently with
 * each other.
 */
#include "families/baselines.h"

#include <math.h>

#define PHI64 0x9e3779b97f4a7c15ULL

static inline uint64_t bucket_load(const uint8_t *p, unsigned bb) {
    switch (bb) {
    case 4: return bf_load_le32(p);
    case 6: return bf_load_le32(p) | ((uint64_t)bf_load_le16(p + 4) << 32);
    default: return bf_load_le64(p);
    }
}

static inline void bucket_store(uint8_t *p, unsigned bb, uint64_t v) {
    switch (bb) {
    case 4: bf_store_le32(p, (uint32_t)v); break;
    case 6:
        bf_store_le32(p, (uint32_t)v);
        bf_store_le16(p + 4, (uint16_t)(v >> 32));
        break;
    default: bf_store_le64(p, v); break;
    }
}

static inline uint32_t slot_get(uint64_t b, unsigned f, unsigned s) {
    return (uint32_t)(b >> (s * f)) & ((1u << f) - 1);
}
static inline uint64_t slot_set(uint64_t b, unsigned f, unsigned s, uint32_t fp) {
    uint64_t mask = (uint64_t)((1u << f) - 1) << (s * f);
    return (b & ~mask) | ((uint64_t)fp << (s * f));
}
/* Slot holding fp (fp = 0: a free slot), or -1. */
static inline int slot_find(uint64_t b, unsigned f, uint32_t fp) {
    for (unsigned s = 0; s < BF_CUCKOO_SLOTS; s++)
        if (slot_get(b, f, s) == fp) return (int)s;
    return -1;
}

/* Whether any of the 4 slots equals fp (fp != 0), without a loop: xor fp
 * into every lane, then the classic "has a zero lane" test
 * (x - ones) & ~x & highs, which is exact for whether some lane is zero. */
static inline uint64_t lane_ones(unsigned f) {
    return f == 8 ? 0x01010101ULL : f == 12 ? 0x001001001001ULL : 0x0001000100010001ULL;
}
static inline bool bucket_contains(uint64_t b, unsigned f, uint32_t fp) {
    const uint64_t ones = lane_ones(f), highs = ones << (f - 1);
    uint64_t x = b ^ (fp * ones);
    return ((x - ones) & ~x & highs) != 0;
}

static inline uint32_t fingerprint(uint64_t hash, unsigned f) {
    return 1u + (uint32_t)(((uint64_t)(uint32_t)hash * ((1u << f) - 1)) >> 32);
}
static inline uint64_t index1(uint64_t hash, uint64_t n) { return bf_mulhi64(hash, n); }
static inline uint64_t alt_index(uint64_t i, uint32_t fp, uint64_t n) {
    uint64_t mixed = (uint64_t)fp * PHI64;
    uint64_t h = (n & 1) ? bf_mulhi64(mixed, n) : 2 * bf_mulhi64(mixed, n >> 1) + 1;
    uint64_t j = h + (n - i); /* h < n, 0 < n - i <= n: no overflow below 2^63 */
    return j >= n ? j - n : j;
}

static inline uint64_t bucket_at(const bf_cuckoo *f, uint64_t i) {
    return bucket_load(f->data + i * f->bucket_bytes, f->bucket_bytes);
}
static inline void bucket_put(bf_cuckoo *f, uint64_t i, uint64_t b) {
    bucket_store(f->table + i * f->bucket_bytes, f->bucket_bytes, b);
}

static inline uint64_t next_rand(bf_cuckoo *f) {
    uint64_t x = f->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    f->rng = x;
    return x;
}

static bool fits_valid(unsigned fp_bits) { return fp_bits == 8 || fp_bits == 12 || fp_bits == 16; }

static int cuckoo_alloc(bf_cuckoo **out, uint64_t num_buckets, unsigned fp_bits, bool view) {
    if (!out || num_buckets == 0 || !fits_valid(fp_bits)) return BF_EINVAL;
    if (num_buckets > BF_CUCKOO_MAX_BUCKETS) return BF_ETOOBIG;
    uint64_t bytes = num_buckets * (fp_bits / 2);
    if (bytes > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    bf_cuckoo *f = bf__calloc(1, sizeof *f);
    if (!f) return BF_ENOMEM;
    if (!view) {
        int rc = bf__alloc_bits(&f->region, (size_t)bytes);
        if (rc) {
            bf__free(f);
            return rc;
        }
        f->table = f->region.ptr;
        f->data = f->table;
    }
    f->num_buckets = num_buckets;
    f->fp_bits = fp_bits;
    f->bucket_bytes = fp_bits / 2;
    f->num_bytes = bytes;
    f->rng = 0x2545f4914f6cdd1dULL;
    *out = f;
    return BF_OK;
}

int bf_cuckoo_new_buckets(bf_cuckoo **out, uint64_t num_buckets, unsigned fp_bits) {
    return cuckoo_alloc(out, num_buckets, fp_bits, false);
}

double bf__cuckoo_model_fpp(unsigned fp_bits, double load) {
    double q = 1.0 / (double)((1u << fp_bits) - 1);
    return -expm1(2.0 * BF_CUCKOO_SLOTS * load * log1p(-q));
}

/* Load the sizing plans for. Tables of 2^20 buckets fill to ~96% before the
 * victim slot is taken (500 kicks); small tables vary more, so they get a
 * lower target. Measured (random keys, 8/12/16-bit fingerprints, ~10^4
 * tables per range): at these loads no table failed to take its n keys; at
 * 0.94 throughout, about 1 in 1000 tables with n < 512 did, and at 0.92
 * about 1 in 2000 with n < 256. */
double bf__cuckoo_design_load(uint64_t n) {
    if (n >= 4096) return BF_CUCKOO_DESIGN_LOAD;
    if (n >= 1024) return 0.92;
    if (n >= 64) return 0.88;
    return 0.80;
}

int bf__cuckoo_size(uint64_t n, double fpp, uint64_t *num_buckets, unsigned *fp_bits) {
    if (!num_buckets || !fp_bits || !bf_fpp_valid(fpp)) return BF_EINVAL;
    if (n == 0) n = 1;
    static const unsigned bits[3] = {8, 12, 16};
    double best_cost = INFINITY;
    uint64_t best_n = 0;
    unsigned best_f = 0;
    for (unsigned j = 0; j < 3; j++) {
        unsigned f = bits[j];
        double q = 1.0 / (double)((1u << f) - 1);
        /* Highest load whose FPR meets fpp; at most the design load. */
        double load = log1p(-fpp) / (2.0 * BF_CUCKOO_SLOTS * log1p(-q));
        double dl = bf__cuckoo_design_load(n);
        if (load > dl) load = dl;
        double buckets = ceil((double)n / (BF_CUCKOO_SLOTS * load));
        if (buckets < 2) buckets = 2;
        if (buckets > (double)BF_CUCKOO_MAX_BUCKETS) continue;
        uint64_t nb = (uint64_t)buckets;
        nb += nb & 1; /* even: the two buckets of a key always differ */
        /* Rounding may leave the FPR a hair above fpp: grow until met. */
        while (bf__cuckoo_model_fpp(f, (double)n / (BF_CUCKOO_SLOTS * (double)nb)) > fpp) nb += 2;
        double cost = (double)nb * f;
        if (cost < best_cost) {
            best_cost = cost;
            best_n = nb;
            best_f = f;
        }
    }
    if (!best_n) return BF_ETOOBIG;
    *num_buckets = best_n;
    *fp_bits = best_f;
    return BF_OK;
}

int bf_cuckoo_new(bf_cuckoo **out, uint64_t n, double fpp) {
    if (!out) return BF_EINVAL;
    uint64_t nb;
    unsigned f;
    int rc = bf__cuckoo_size(n, fpp, &nb, &f);
    return rc ? rc : bf_cuckoo_new_buckets(out, nb, f);
}

void bf_cuckoo_free(bf_cuckoo *f) {
    if (!f) return;
    bf__free_bits(&f->region);
    bf__free(f);
}

/* Store fp, one of whose buckets is i. Always stores it (in the table or the
 * victim slot); the caller has checked that the victim slot is free. */
static void insert_fp(bf_cuckoo *f, uint64_t i, uint32_t fp) {
    const unsigned bits = f->fp_bits;
    uint64_t i2 = alt_index(i, fp, f->num_buckets);
    uint64_t b1 = bucket_at(f, i);
    int s = slot_find(b1, bits, 0);
    if (s >= 0) {
        bucket_put(f, i, slot_set(b1, bits, (unsigned)s, fp));
        f->count++;
        return;
    }
    uint64_t b2 = bucket_at(f, i2);
    s = slot_find(b2, bits, 0);
    if (s >= 0) {
        bucket_put(f, i2, slot_set(b2, bits, (unsigned)s, fp));
        f->count++;
        return;
    }
    uint64_t cur = (next_rand(f) & 1) ? i : i2;
    uint32_t curfp = fp;
    const unsigned max_kicks = f->max_kicks ? f->max_kicks : BF_CUCKOO_MAX_KICKS;
    for (unsigned kick = 0; kick < max_kicks; kick++) {
        uint64_t r = next_rand(f);
        unsigned victim_slot = (unsigned)(r >> 62);
        uint64_t b = bucket_at(f, cur);
        uint32_t out = slot_get(b, bits, victim_slot);
        bucket_put(f, cur, slot_set(b, bits, victim_slot, curfp));
        curfp = out;
        cur = alt_index(cur, curfp, f->num_buckets);
        b = bucket_at(f, cur);
        s = slot_find(b, bits, 0);
        if (s >= 0) {
            bucket_put(f, cur, slot_set(b, bits, (unsigned)s, curfp));
            f->count++;
            return;
        }
    }
    f->victim_index = cur;
    f->victim_fp = curfp;
    f->count++;
}

/* True if both buckets of the key hold nothing but copies of fp. */
static bool saturated_by(const bf_cuckoo *f, uint64_t i1, uint64_t i2, uint32_t fp) {
    uint64_t b1 = bucket_at(f, i1), b2 = bucket_at(f, i2);
    for (unsigned s = 0; s < BF_CUCKOO_SLOTS; s++)
        if (slot_get(b1, f->fp_bits, s) != fp || slot_get(b2, f->fp_bits, s) != fp) return false;
    return true;
}

int bf_cuckoo_insert_hash(bf_cuckoo *f, uint64_t hash) {
    if (!f) return BF_EINVAL;
    if (!f->table) return BF_EREADONLY;
    if (f->victim_fp) return BF_EFULL;
    uint32_t fp = fingerprint(hash, f->fp_bits);
    uint64_t i1 = index1(hash, f->num_buckets);
    uint64_t i2 = alt_index(i1, fp, f->num_buckets);
    if (saturated_by(f, i1, i2, fp)) return BF_EFULL;
    insert_fp(f, i1, fp);
    return BF_OK;
}

bool bf_cuckoo_contains_hash(const bf_cuckoo *f, uint64_t hash) {
    const unsigned bits = f->fp_bits;
    uint32_t fp = fingerprint(hash, bits);
    uint64_t i1 = index1(hash, f->num_buckets);
    uint64_t i2 = alt_index(i1, fp, f->num_buckets);
    if (bucket_contains(bucket_at(f, i1), bits, fp) || bucket_contains(bucket_at(f, i2), bits, fp))
        return true;
    return f->victim_fp == fp && (f->victim_index == i1 || f->victim_index == i2);
}

int bf_cuckoo_remove_hash(bf_cuckoo *f, uint64_t hash) {
    if (!f) return BF_EINVAL;
    if (!f->table) return BF_EREADONLY;
    const unsigned bits = f->fp_bits;
    uint32_t fp = fingerprint(hash, bits);
    uint64_t i1 = index1(hash, f->num_buckets);
    uint64_t i2 = alt_index(i1, fp, f->num_buckets);
    uint64_t cand[2] = {i1, i2};
    for (unsigned c = 0; c < 2; c++) {
        uint64_t b = bucket_at(f, cand[c]);
        int s = slot_find(b, bits, fp);
        if (s < 0) continue;
        bucket_put(f, cand[c], slot_set(b, bits, (unsigned)s, 0));
        f->count--;
        if (f->victim_fp) {
            /* A slot is free now: give the victim a home (it may end up in
             * the victim slot again, but it is never dropped). */
            uint32_t vfp = f->victim_fp;
            f->victim_fp = 0;
            f->count--;
            insert_fp(f, f->victim_index, vfp);
            if (!f->victim_fp) f->victim_index = 0;
        }
        return BF_OK;
    }
    if (f->victim_fp == fp && (f->victim_index == i1 || f->victim_index == i2)) {
        f->victim_fp = 0;
        f->victim_index = 0;
        f->count--;
        return BF_OK;
    }
    return BF_ENOTFOUND;
}

uint64_t bf_cuckoo_count(const bf_cuckoo *f) { return f->count; }
uint64_t bf_cuckoo_num_buckets(const bf_cuckoo *f) { return f->num_buckets; }
unsigned bf_cuckoo_fingerprint_bits(const bf_cuckoo *f) { return f->fp_bits; }

uint64_t bf__cuckoo_occupied(const bf_cuckoo *f) {
    uint64_t occ = 0;
    for (uint64_t i = 0; i < f->num_buckets; i++) {
        uint64_t b = bucket_at(f, i);
        for (unsigned s = 0; s < BF_CUCKOO_SLOTS; s++) occ += slot_get(b, f->fp_bits, s) != 0;
    }
    return occ;
}

/* FPR of the table as it stands: a foreign key misses bucket i with
 * probability (1 - q)^{occ(i)}; its two buckets are (pseudo-)independent, so
 * FPR = 1 - S^2 with S the mean of (1 - q)^{occ(i)} over buckets. */
double bf__cuckoo_est_fpp(const bf_cuckoo *f) {
    double q = 1.0 / (double)((1u << f->fp_bits) - 1);
    double pow_miss[BF_CUCKOO_SLOTS + 1];
    for (unsigned o = 0; o <= BF_CUCKOO_SLOTS; o++) pow_miss[o] = pow(1.0 - q, (double)o);
    uint64_t hist[BF_CUCKOO_SLOTS + 1] = {0};
    for (uint64_t i = 0; i < f->num_buckets; i++) {
        uint64_t b = bucket_at(f, i);
        unsigned occ = 0;
        for (unsigned s = 0; s < BF_CUCKOO_SLOTS; s++) occ += slot_get(b, f->fp_bits, s) != 0;
        hist[occ]++;
    }
    double s = 0;
    for (unsigned o = 0; o <= BF_CUCKOO_SLOTS; o++) s += (double)hist[o] * pow_miss[o];
    s /= (double)f->num_buckets;
    return 1.0 - s * s;
}

/* Batch lookups: the two buckets of a group of keys are prefetched before
 * any is tested, so their misses overlap. */
#define CUCKOO_GROUP 16

size_t bf__cuckoo_contains_batch(const bf_cuckoo *f, const uint64_t *hashes, size_t n,
                                 uint8_t *out) {
    const unsigned bits = f->fp_bits;
    const bool prefetch = f->num_bytes >= BF_BASELINE_PREFETCH_MIN_BYTES;
    uint64_t b1[CUCKOO_GROUP], b2[CUCKOO_GROUP];
    uint32_t fps[CUCKOO_GROUP];
    size_t hits = 0;
    for (size_t base = 0; base < n; base += CUCKOO_GROUP) {
        size_t g = n - base < CUCKOO_GROUP ? n - base : CUCKOO_GROUP;
        for (size_t j = 0; j < g; j++) {
            uint64_t h;
            memcpy(&h, hashes + base + j, sizeof h);
            fps[j] = fingerprint(h, bits);
            b1[j] = index1(h, f->num_buckets);
            b2[j] = alt_index(b1[j], fps[j], f->num_buckets);
            if (prefetch) {
                __builtin_prefetch(f->data + b1[j] * f->bucket_bytes);
                __builtin_prefetch(f->data + b2[j] * f->bucket_bytes);
            }
        }
        for (size_t j = 0; j < g; j++) {
            bool c = bucket_contains(bucket_at(f, b1[j]), bits, fps[j]) ||
                     bucket_contains(bucket_at(f, b2[j]), bits, fps[j]) ||
                     (f->victim_fp == fps[j] && (f->victim_index == b1[j] || f->victim_index == b2[j]));
            if (out) out[base + j] = (uint8_t)c;
            hits += c;
        }
    }
    return hits;
}

/* ---- Counting, kick limit, and raw state for storing a filter elsewhere
 * (the Redis module keeps cuckoo filters in its own data type and rebuilds
 * them byte for byte, kick-out choices included). ---- */

unsigned bf_cuckoo_count_hash(const bf_cuckoo *f, uint64_t hash) {
    const unsigned bits = f->fp_bits;
    uint32_t fp = fingerprint(hash, bits);
    uint64_t i1 = index1(hash, f->num_buckets);
    uint64_t i2 = alt_index(i1, fp, f->num_buckets);
    unsigned n = 0;
    uint64_t b = bucket_at(f, i1);
    for (unsigned s = 0; s < BF_CUCKOO_SLOTS; s++) n += slot_get(b, bits, s) == fp;
    if (i2 != i1) {
        b = bucket_at(f, i2);
        for (unsigned s = 0; s < BF_CUCKOO_SLOTS; s++) n += slot_get(b, bits, s) == fp;
    }
    if (f->victim_fp == fp && (f->victim_index == i1 || f->victim_index == i2)) n++;
    return n;
}

int bf_cuckoo_set_max_kicks(bf_cuckoo *f, unsigned kicks) {
    if (!f || kicks < 1 || kicks > 65535) return BF_EINVAL;
    f->max_kicks = kicks;
    return BF_OK;
}

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
    uint32_t fp_max = (1u << f->fp_bits) - 1;
    if (s->victim_fp > fp_max) return BF_ECORRUPT;
    if (s->victim_fp ? s->victim_index >= f->num_buckets : s->victim_index != 0) return BF_ECORRUPT;
    if (s->count > f->num_buckets * BF_CUCKOO_SLOTS + (s->victim_fp != 0)) return BF_ECORRUPT;
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

size_t bf_cuckoo_contains_hashes(const bf_cuckoo *f, const uint64_t *hashes, size_t n, uint8_t *out) {
    return bf__cuckoo_contains_batch(f, hashes, n, out);
}

/* ---- the cuckoo filter's table -------------------------------------------- */

static int size_for(uint64_t n, double fpp, bf_sizing *out) {
    uint64_t nb;
    unsigned f;
    int rc = bf__cuckoo_size(n, fpp, &nb, &f);
    if (rc) return rc;
    out->num_bytes = nb * (f / 2);
    out->fp_bits = f;
    out->model_fpp = bf__cuckoo_model_fpp(f, (double)n / (BF_CUCKOO_SLOTS * (double)nb));
    return BF_OK;
}

/* The best fingerprint size that still holds n keys at its design load;
 * BF_EFULL (and FPR 1) when none does. */
static int fpp_for(uint64_t num_bytes, uint64_t n, double *out) {
    static const unsigned bits[3] = {8, 12, 16};
    double best = 2.0;
    for (unsigned j = 0; j < 3; j++) {
        uint64_t nb = num_bytes / (bits[j] / 2);
        if (!nb) continue;
        double load = (double)n / (BF_CUCKOO_SLOTS * (double)nb);
        if (load > bf__cuckoo_design_load(n)) continue; /* n keys would not fit */
        double p = bf__cuckoo_model_fpp(bits[j], load);
        if (p < best) best = p;
    }
    *out = best > 1.0 ? 1.0 : best;
    return best > 1.0 ? BF_EFULL : BF_OK;
}

static int create(void **out, uint64_t n, double fpp) {
    bf_cuckoo *f = NULL; /* not a cast of out: *out is a void * */
    int rc = bf_cuckoo_new(&f, n, fpp);
    if (rc == BF_OK) *out = f;
    return rc;
}
static void destroy(void *o) { bf_cuckoo_free(o); }

static int insert(void *o, uint64_t h) { return bf_cuckoo_insert_hash(o, h); }
static bool contains(const void *o, uint64_t h) { return bf_cuckoo_contains_hash(o, h); }
static int remove_one(void *o, uint64_t h) { return bf_cuckoo_remove_hash(o, h); }
static int insert_batch(void *o, const uint64_t *h, size_t n, size_t *done) {
    return bf__batch_loop(o, !((bf_cuckoo *)o)->table, h, n, done, insert);
}
static int remove_batch(void *o, const uint64_t *h, size_t n, size_t *done) {
    return bf__batch_loop(o, !((bf_cuckoo *)o)->table, h, n, done, remove_one);
}
static size_t contains_batch(const void *o, const uint64_t *h, size_t n, uint8_t *out) {
    return bf__cuckoo_contains_batch(o, h, n, out);
}

static int clear(void *o) {
    bf_cuckoo *f = o;
    if (!f->table) return BF_EREADONLY;
    memset(f->table, 0, (size_t)f->num_bytes);
    f->count = 0;
    f->victim_fp = 0;
    f->victim_index = 0;
    return BF_OK;
}

static int stats(const void *o, bf_filter_stats *st) {
    const bf_cuckoo *c = o;
    st->cells = c->num_buckets * BF_CUCKOO_SLOTS;
    st->cells_set = bf__cuckoo_occupied(c);
    st->fill_ratio = (double)st->cells_set / (double)st->cells;
    st->est_keys = (double)c->count;
    st->est_fpp = bf__cuckoo_est_fpp(c);
    st->fp_bits = c->fp_bits;
    return BF_OK;
}

static uint64_t num_bytes(const void *o) { return ((const bf_cuckoo *)o)->num_bytes; }
static bool is_readonly(const void *o) { return ((const bf_cuckoo *)o)->table == NULL; }
static uint64_t seed(const void *o) { return ((const bf_cuckoo *)o)->seed; }

static int set_seed(void *o, uint64_t s) {
    bf_cuckoo *f = o;
    if (!f->table) return BF_EREADONLY;
    if (s != f->seed && f->count) return BF_EINVAL; /* empty filters only */
    f->seed = s;
    return BF_OK;
}

/* ---- native payload: the buckets, then the trailer (docs/format.md) ------ */

static uint64_t payload_bytes(const void *o) {
    return ((const bf_cuckoo *)o)->num_bytes + BF_CUCKOO_TRAILER_BYTES;
}

static void encode(const void *o, bf_native_params *p, uint8_t *payload) {
    const bf_cuckoo *c = o;
    p->p0 = c->num_buckets;
    p->p1 = c->fp_bits;
    p->p2 = BF_CUCKOO_SLOTS;
    memcpy(payload, c->data, (size_t)c->num_bytes);
    uint8_t *t = payload + c->num_bytes;
    bf_store_le64(t, c->count);
    bf_store_le64(t + 8, c->victim_fp ? c->victim_index : 0);
    bf_store_le32(t + 16, c->victim_fp);
    bf_store_le32(t + 20, 0);
}

typedef struct trailer {
    uint64_t count, victim_index;
    uint32_t victim_fp;
} trailer;

static trailer read_trailer(const bf_native_params *p, const uint8_t *payload) {
    const uint8_t *t = payload + p->p0 * (p->p1 / 2);
    trailer tr = {.count = bf_load_le64(t),
                  .victim_index = bf_load_le64(t + 8),
                  .victim_fp = bf_load_le32(t + 16)};
    return tr;
}

static int check(const bf_native_params *p, const uint8_t *payload, uint64_t len) {
    if (p->p0 == 0 || !fits_valid(p->p1) || p->p2 != BF_CUCKOO_SLOTS || p->p3) return BF_ECORRUPT;
    if (p->p0 > BF_CUCKOO_MAX_BUCKETS) return BF_ETOOBIG;
    uint64_t expect = p->p0 * (p->p1 / 2) + BF_CUCKOO_TRAILER_BYTES;
    if (expect > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    if (len != expect) return BF_ECORRUPT;
    trailer tr = read_trailer(p, payload);
    if (bf_load_le32(payload + len - 4) != 0) return BF_ECORRUPT; /* reserved */
    if (tr.victim_fp >= (1u << p->p1)) return BF_ECORRUPT;
    if (tr.victim_fp ? tr.victim_index >= p->p0 : tr.victim_index != 0) return BF_ECORRUPT;
    if (tr.count > p->p0 * BF_CUCKOO_SLOTS + 1) return BF_ECORRUPT;
    return BF_OK;
}

static int decode(void **out, const bf_native_params *p, const uint8_t *payload, uint64_t len,
                  uint64_t seed_, bool view) {
    (void)len;
    bf_cuckoo *f = NULL;
    int rc = cuckoo_alloc(&f, p->p0, p->p1, view);
    if (rc) return rc;
    if (view)
        f->data = payload;
    else
        memcpy(f->table, payload, (size_t)f->num_bytes);
    trailer tr = read_trailer(p, payload);
    f->count = tr.count;
    f->victim_index = tr.victim_index;
    f->victim_fp = tr.victim_fp;
    f->seed = seed_;
    *out = f;
    return BF_OK;
}

/* The stored count must be the occupied slots plus the victim. */
static int verify(const bf_native_params *p, const uint8_t *payload, uint64_t len) {
    (void)len;
    bf_cuckoo tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.data = payload;
    tmp.num_buckets = p->p0;
    tmp.fp_bits = p->p1;
    tmp.bucket_bytes = p->p1 / 2;
    trailer tr = read_trailer(p, payload);
    return bf__cuckoo_occupied(&tmp) + (tr.victim_fp != 0) == tr.count ? BF_OK : BF_ECORRUPT;
}

/* One stored fingerprint per successful insert. */
static uint64_t least_inserts(const void *o) { return ((const bf_cuckoo *)o)->count; }

const bf_family_ops bf__cuckoo_ops = {
    .version = BF_FAMILY_OPS_VERSION,
    .id = BF_FAMILY_CUCKOO,
    .name = "cuckoo",
    .size_for = size_for,
    .fpp_for = fpp_for,
    .create = create,
    .destroy = destroy,
    .insert = insert,
    .contains = contains,
    .insert_batch = insert_batch,
    .contains_batch = contains_batch,
    .remove = remove_one,
    .remove_batch = remove_batch,
    .clear = clear,
    .merge = NULL, /* fingerprints cannot be merged without the keys */
    .stats = stats,
    .num_bytes = num_bytes,
    .is_readonly = is_readonly,
    .seed = seed,
    .set_seed = set_seed,
    .payload_bytes = payload_bytes,
    .encode = encode,
    .check = check,
    .verify = verify,
    .decode = decode,
    .least_inserts = least_inserts,
};

bf_cuckoo *bf_filter_cuckoo(bf_filter *f) { return bf__filter_object(f, &bf__cuckoo_ops); }
