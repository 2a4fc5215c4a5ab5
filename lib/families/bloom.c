/*
 * Classic Bloom filter (Bloom 1970), done as its experts would:
 *  - any number of bits m (no power-of-two rounding),
 *  - k positions from one 64-bit hash by enhanced double hashing
 *    (x += y; y += i over 64-bit values, see baselines.h), each reduced to
 *    [0, m) with the high half of a 64x64 multiply: no modulo bias;
 *  - sizing by search: for every integer k in 1..64, the smallest m whose
 *    exact FPR (1 - (1 - 1/m)^{kn})^k is <= fpp; keep the smallest m
 *    (fewest hashes on a tie);
 *  - concurrent insert/contains with atomic OR / loads on 64-bit words.
 *
 * Thread safety: plain insert/contains are not safe against concurrent
 * inserts; _concurrent inserts and contains may run together from any number
 * of threads (release OR, acquire loads, as bf_sbbf_*_concurrent); plain
 * contains calls may run concurrently with each other.
 */
#include "families/baselines.h"

#include <math.h>

double bf__bloom_fpp(double m, unsigned k, double n) {
    if (m < 1.0) return NAN;
    if (n <= 0.0) return 0.0;
    if (m == 1.0) return 1.0;
    /* 1 - (1 - 1/m)^{kn} via log1p/expm1: exact to double precision for
     * any m, even when kn/m is tiny. */
    double set = -expm1((double)k * n * log1p(-1.0 / m));
    return pow(set, (double)k);
}

double bf_bloom_model_fpp(uint64_t m, unsigned k, uint64_t n) {
    if (m == 0 || k == 0) return NAN;
    return bf__bloom_fpp((double)m, k, (double)n);
}

/* FPR falls as m grows (for fixed k, n): binary search per k. */
static uint64_t smallest_m(double n, unsigned k, double fpp) {
    uint64_t lo = 1, hi = BF_BLOOM_MAX_BITS;
    if (bf__bloom_fpp((double)hi, k, n) > fpp) return 0;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (bf__bloom_fpp((double)mid, k, n) <= fpp)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

int bf__bloom_size(uint64_t n, double fpp, uint64_t *m_out, unsigned *k_out) {
    if (!m_out || !k_out || !bf_fpp_valid(fpp)) return BF_EINVAL;
    double dn = n ? (double)n : 1.0;
    uint64_t best_m = 0;
    unsigned best_k = 0;
    for (unsigned k = 1; k <= BF_BLOOM_MAX_K; k++) {
        uint64_t m = smallest_m(dn, k, fpp);
        if (m && (best_m == 0 || m < best_m)) {
            best_m = m;
            best_k = k;
        }
    }
    if (!best_m) return BF_ETOOBIG;
    *m_out = best_m;
    *k_out = best_k;
    return BF_OK;
}

unsigned bf__bloom_best_k(uint64_t m, uint64_t n, double *fpp) {
    double best = 2.0;
    unsigned best_k = 1;
    double dn = n ? (double)n : 1.0;
    double kopt = (double)m / dn * log(2.0);
    long lo = (long)floor(kopt) - 1, hi = (long)ceil(kopt) + 1;
    if (lo < 1) lo = 1;
    if (hi > (long)BF_BLOOM_MAX_K) hi = BF_BLOOM_MAX_K;
    if (lo > hi) lo = hi;
    for (long k = lo; k <= hi; k++) {
        double p = bf__bloom_fpp((double)m, (unsigned)k, (double)n);
        if (p < best) {
            best = p;
            best_k = (unsigned)k;
        }
    }
    if (fpp) *fpp = best;
    return best_k;
}

uint64_t bf__bloom_payload_bytes(uint64_t m) { return ((m + 63) / 64) * 8; }

static int cells_check(uint64_t m, unsigned k) {
    if (m == 0 || k == 0 || k > BF_BLOOM_MAX_K) return BF_EINVAL;
    if (m > BF_BLOOM_MAX_BITS) return BF_ETOOBIG;
    return BF_OK;
}

int bf__cells_new(bf_cells **out, size_t size, uint64_t m, unsigned k, uint64_t bytes) {
    int rc = cells_check(m, k);
    if (rc) return rc;
    if (bytes > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    bf_cells *t = bf__calloc(1, size);
    if (!t) return BF_ENOMEM;
    rc = bf__alloc_bits(&t->region, (size_t)bytes);
    if (rc) {
        bf__free(t);
        return rc;
    }
    t->bits = t->region.ptr;
    t->data = t->bits;
    t->m = m;
    t->k = k;
    t->num_bytes = bytes;
    *out = t;
    return BF_OK;
}

void bf__cells_free(bf_cells *t) {
    if (!t) return;
    bf__free_bits(&t->region);
    bf__free(t);
}

static int bloom_new_mk(bf_bloom **out, uint64_t m, unsigned k) {
    if (!out) return BF_EINVAL;
    bf_cells *t;
    int rc = bf__cells_new(&t, sizeof(bf_bloom), m, k, bf__bloom_payload_bytes(m));
    if (rc == BF_OK) *out = (bf_bloom *)(void *)t;
    return rc;
}

int bf_bloom_new_bits(bf_bloom **out, uint64_t m, unsigned k) { return bloom_new_mk(out, m, k); }

int bf_bloom_new(bf_bloom **out, uint64_t n, double fpp) {
    if (!out) return BF_EINVAL;
    uint64_t m;
    unsigned k;
    int rc = bf__bloom_size(n, fpp, &m, &k);
    return rc ? rc : bloom_new_mk(out, m, k);
}

void bf_bloom_free(bf_bloom *f) {
    if (f) bf__cells_free(&f->t);
}

/* The k bits of a key, in a writable filter (the single insert and the
 * small-filter batch). */
static inline void set_bits(bf_bloom *f, uint64_t hash) {
    bf_dh d = bf__dh_init(hash);
    for (unsigned i = 0; i < f->t.k; i++) {
        uint64_t p = bf__dh_next(&d, f->t.m);
        f->t.bits[p >> 3] |= (uint8_t)(1u << (p & 7));
    }
}

int bf_bloom_insert_hash(bf_bloom *f, uint64_t hash) {
    if (BF_UNLIKELY(!f->t.bits)) return BF_EREADONLY;
    set_bits(f, hash);
    return BF_OK;
}

bool bf_bloom_contains_hash(const bf_bloom *f, uint64_t hash) {
    bf_dh d = bf__dh_init(hash);
    const uint8_t *b = f->t.data;
    for (unsigned i = 0; i < f->t.k; i++) {
        uint64_t p = bf__dh_next(&d, f->t.m);
        if (!((b[p >> 3] >> (p & 7)) & 1)) return false;
    }
    return true;
}

/* The payload is little-endian 64-bit words in an allocation aligned to 64
 * bytes: bit p lives in word p >> 6 at bit p & 63 of its little-endian
 * value. */
static inline uint64_t native_bit(uint64_t p) {
    uint64_t m = (uint64_t)1 << (p & 63);
#if BF_BIG_ENDIAN
    m = __builtin_bswap64(m);
#endif
    return m;
}

int bf_bloom_insert_hash_concurrent(bf_bloom *f, uint64_t hash) {
    if (BF_UNLIKELY(!f->t.bits)) return BF_EREADONLY;
    uint64_t *w = (uint64_t *)(void *)f->t.bits;
    bf_dh d = bf__dh_init(hash);
    for (unsigned i = 0; i < f->t.k; i++) {
        uint64_t p = bf__dh_next(&d, f->t.m);
        uint64_t bit = native_bit(p);
        /* Skip the locked RMW when the bit is already there. */
        if (!(__atomic_load_n(&w[p >> 6], __ATOMIC_RELAXED) & bit))
            __atomic_fetch_or(&w[p >> 6], bit, __ATOMIC_RELEASE);
    }
    return BF_OK;
}

bool bf_bloom_contains_hash_concurrent(const bf_bloom *f, uint64_t hash) {
    if (!f->t.bits) return bf_bloom_contains_hash(f, hash); /* views never change */
    const uint64_t *w = (const uint64_t *)(const void *)f->t.bits;
    bf_dh d = bf__dh_init(hash);
    for (unsigned i = 0; i < f->t.k; i++) {
        uint64_t p = bf__dh_next(&d, f->t.m);
        if (!(__atomic_load_n(&w[p >> 6], __ATOMIC_ACQUIRE) & native_bit(p))) return false;
    }
    return true;
}

uint64_t bf_bloom_num_bits(const bf_bloom *f) { return f->t.m; }
unsigned bf_bloom_num_hashes(const bf_bloom *f) { return f->t.k; }

uint64_t bf__bloom_bits_set(const bf_bloom *f) {
    const bf_cells *t = &f->t;
    uint64_t set = bf__popcount_bytes(t->data, t->num_bytes);
    /* Only bits below m count: an unverified view may have padding bits set. */
    for (uint64_t p = t->m; p < (uint64_t)t->num_bytes * 8; p++) set -= (t->data[p >> 3] >> (p & 7)) & 1u;
    return set;
}

/* Batches. Beyond the caches a lookup waits on up to k independent misses;
 * a batch computes the positions of a group of keys, prefetches all of them,
 * then tests, so the misses of the group overlap. Small filters skip this
 * (the prefetches would only cost). */
#define BLOOM_GROUP 8

static inline uint64_t load_hash(const uint64_t *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* The k positions of each of the g keys at hashes into pos, each prefetched
 * from base (for writing when write is set). Both callers pass a constant
 * write, so after inlining the branch is gone. */
static inline __attribute__((always_inline)) void group_positions(
    const bf_bloom *f, const uint64_t *hashes, size_t g, uint64_t pos[][BF_BLOOM_MAX_K],
    const uint8_t *base, int write) {
    for (size_t j = 0; j < g; j++) {
        bf_dh d = bf__dh_init(load_hash(hashes + j));
        for (unsigned i = 0; i < f->t.k; i++) {
            uint64_t p = bf__dh_next(&d, f->t.m);
            pos[j][i] = p;
            if (write)
                __builtin_prefetch(base + (p >> 3), 1);
            else
                __builtin_prefetch(base + (p >> 3));
        }
    }
}

size_t bf__bloom_contains_batch(const bf_bloom *f, const uint64_t *hashes, size_t n, uint8_t *out) {
    size_t hits = 0;
    if (f->t.num_bytes < BF_BASELINE_PREFETCH_MIN_BYTES) {
        for (size_t i = 0; i < n; i++) {
            bool c = bf_bloom_contains_hash(f, load_hash(hashes + i));
            if (out) out[i] = (uint8_t)c;
            hits += c;
        }
        return hits;
    }
    uint64_t pos[BLOOM_GROUP][BF_BLOOM_MAX_K];
    const uint8_t *b = f->t.data;
    for (size_t base = 0; base < n; base += BLOOM_GROUP) {
        size_t g = n - base < BLOOM_GROUP ? n - base : BLOOM_GROUP;
        group_positions(f, hashes + base, g, pos, b, 0);
        for (size_t j = 0; j < g; j++) {
            bool c = true;
            for (unsigned i = 0; i < f->t.k && c; i++) c = (b[pos[j][i] >> 3] >> (pos[j][i] & 7)) & 1;
            if (out) out[base + j] = (uint8_t)c;
            hits += c;
        }
    }
    return hits;
}

void bf__bloom_insert_batch(bf_bloom *f, const uint64_t *hashes, size_t n) {
    if (BF_UNLIKELY(!f->t.bits)) return;
    if (f->t.num_bytes < BF_BASELINE_PREFETCH_MIN_BYTES) {
        for (size_t i = 0; i < n; i++) set_bits(f, load_hash(hashes + i));
        return;
    }
    uint64_t pos[BLOOM_GROUP][BF_BLOOM_MAX_K];
    for (size_t base = 0; base < n; base += BLOOM_GROUP) {
        size_t g = n - base < BLOOM_GROUP ? n - base : BLOOM_GROUP;
        group_positions(f, hashes + base, g, pos, f->t.bits, 1);
        for (size_t j = 0; j < g; j++)
            for (unsigned i = 0; i < f->t.k; i++)
                f->t.bits[pos[j][i] >> 3] |= (uint8_t)(1u << (pos[j][i] & 7));
    }
}

/* ---- what the classic and counting filters' tables share ----------------- */

void bf__cells_destroy(void *o) { bf__cells_free(o); }
uint64_t bf__cells_num_bytes(const void *o) { return ((const bf_cells *)o)->num_bytes; }
bool bf__cells_is_readonly(const void *o) { return ((const bf_cells *)o)->bits == NULL; }
uint64_t bf__cells_seed(const void *o) { return ((const bf_cells *)o)->seed; }

int bf__cells_set_seed(void *o, uint64_t seed) {
    bf_cells *t = o;
    if (!t->bits) return BF_EREADONLY;
    if (seed == t->seed) return BF_OK;
    /* Only an empty filter: its writable payload is all zero (padding is
     * never written). */
    for (uint64_t i = 0; i < t->num_bytes; i++)
        if (t->bits[i]) return BF_EINVAL;
    t->seed = seed;
    return BF_OK;
}

int bf__cells_clear(void *o) {
    bf_cells *t = o;
    if (!t->bits) return BF_EREADONLY;
    memset(t->bits, 0, (size_t)t->num_bytes);
    return BF_OK;
}

void bf__cells_encode(const void *o, bf_native_params *p, uint8_t *payload, uint32_t p2) {
    const bf_cells *t = o;
    p->p0 = t->m;
    p->p1 = t->k;
    p->p2 = p2;
    memcpy(payload, t->data, (size_t)t->num_bytes);
}

int bf__cells_check(const bf_native_params *p, uint64_t len, uint32_t p2,
                    uint64_t (*payload_bytes)(uint64_t m)) {
    if (p->p0 == 0 || p->p1 == 0 || p->p1 > BF_BLOOM_MAX_K || p->p2 != p2 || p->p3)
        return BF_ECORRUPT;
    if (p->p0 > BF_BLOOM_MAX_BITS) return BF_ETOOBIG;
    uint64_t expect = payload_bytes(p->p0);
    if (expect > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    return len == expect ? BF_OK : BF_ECORRUPT;
}

int bf__cells_decode(void **out, size_t size, const bf_native_params *p, const uint8_t *payload,
                     uint64_t len, uint64_t seed, bool view) {
    int rc = cells_check(p->p0, p->p1);
    if (rc) return rc;
    bf_cells *t;
    if (view) {
        if (!(t = bf__calloc(1, size))) return BF_ENOMEM;
        t->data = payload;
        t->m = p->p0;
        t->k = p->p1;
        t->num_bytes = len;
    } else {
        if ((rc = bf__cells_new(&t, size, p->p0, p->p1, len))) return rc;
        memcpy(t->bits, payload, (size_t)len);
    }
    t->seed = seed;
    *out = t;
    return BF_OK;
}

int bf__cells_size_for(uint64_t n, double fpp, bf_sizing *out, uint64_t (*payload_bytes)(uint64_t m)) {
    uint64_t m;
    unsigned k;
    int rc = bf__bloom_size(n, fpp, &m, &k);
    if (rc) return rc;
    out->num_bytes = payload_bytes(m);
    out->k = k;
    out->model_fpp = bf__bloom_fpp((double)m, k, (double)n);
    return BF_OK;
}

int bf__cells_fpp_for(uint64_t num_bytes, unsigned cells_per_byte, uint64_t n, double *out) {
    uint64_t m;
    if (bf_mul_overflow(num_bytes, cells_per_byte, &m)) return BF_ETOOBIG;
    bf__bloom_best_k(m, n, out);
    return BF_OK;
}

void bf__cells_stats(bf_filter_stats *st, uint64_t cells, uint64_t set, unsigned k) {
    st->cells = cells;
    st->cells_set = set;
    st->fill_ratio = (double)set / (double)cells;
    st->est_keys = st->fill_ratio >= 1.0 ? INFINITY
                                         : -((double)cells / k) * log1p(-st->fill_ratio);
    st->est_fpp = pow(st->fill_ratio, (double)k); /* a foreign key's k cells all set */
    st->k = k;
}

/* ---- the classic filter's table ------------------------------------------ */

static int bloom_size_for(uint64_t n, double fpp, bf_sizing *out) {
    return bf__cells_size_for(n, fpp, out, bf__bloom_payload_bytes);
}
static int bloom_fpp_for(uint64_t num_bytes, uint64_t n, double *out) {
    return bf__cells_fpp_for(num_bytes, 8, n, out); /* eight bits per byte */
}
static int bloom_create(void **out, uint64_t n, double fpp) {
    bf_bloom *f = NULL; /* not a cast of out: *out is a void * */
    int rc = bf_bloom_new(&f, n, fpp);
    if (rc == BF_OK) *out = f;
    return rc;
}

static int bloom_insert(void *o, uint64_t h) { return bf_bloom_insert_hash(o, h); }
static bool bloom_contains(const void *o, uint64_t h) { return bf_bloom_contains_hash(o, h); }

static int bloom_insert_batch(void *o, const uint64_t *h, size_t n, size_t *done) {
    bf_bloom *f = o;
    *done = 0;
    if (!f->t.bits) return BF_EREADONLY;
    bf__bloom_insert_batch(f, h, n);
    *done = n;
    return BF_OK;
}

static size_t bloom_contains_batch(const void *o, const uint64_t *h, size_t n, uint8_t *out) {
    return bf__bloom_contains_batch(o, h, n, out);
}

static int bloom_merge(void *dst, const void *src) {
    bf_bloom *d = dst;
    const bf_bloom *s = src;
    if (!d->t.bits) return BF_EREADONLY;
    if (d->t.m != s->t.m || d->t.k != s->t.k || d->t.seed != s->t.seed) return BF_EMISMATCH;
    for (uint64_t i = 0; i < d->t.num_bytes; i++) d->t.bits[i] |= s->t.data[i];
    return BF_OK;
}

static int bloom_stats(const void *o, bf_filter_stats *st) {
    const bf_bloom *f = o;
    bf__cells_stats(st, f->t.m, bf__bloom_bits_set(f), f->t.k);
    return BF_OK;
}

static void bloom_encode(const void *o, bf_native_params *p, uint8_t *payload) {
    bf__cells_encode(o, p, payload, 0);
}

static int bloom_check(const bf_native_params *p, const uint8_t *payload, uint64_t len) {
    (void)payload;
    return bf__cells_check(p, len, 0, bf__bloom_payload_bytes);
}

/* Bits m .. 8 * len - 1 (the padding of the last word) must be clear. */
static int bloom_verify(const bf_native_params *p, const uint8_t *payload, uint64_t len) {
    for (uint64_t bit = p->p0; bit < len * 8; bit++)
        if ((payload[bit >> 3] >> (bit & 7)) & 1) return BF_ECORRUPT;
    return BF_OK;
}

static int bloom_decode(void **out, const bf_native_params *p, const uint8_t *payload,
                        uint64_t len, uint64_t seed, bool view) {
    return bf__cells_decode(out, sizeof(bf_bloom), p, payload, len, seed, view);
}

/* An insert sets at most k bits. */
static uint64_t bloom_least_inserts(const void *o) {
    const bf_bloom *f = o;
    return bf__least_inserts(bf__bloom_bits_set(f), f->t.k);
}

const bf_family_ops bf__bloom_ops = {
    .version = BF_FAMILY_OPS_VERSION,
    .id = BF_FAMILY_BLOOM,
    .name = "bloom",
    .size_for = bloom_size_for,
    .fpp_for = bloom_fpp_for,
    .create = bloom_create,
    .destroy = bf__cells_destroy,
    .insert = bloom_insert,
    .contains = bloom_contains,
    .insert_batch = bloom_insert_batch,
    .contains_batch = bloom_contains_batch,
    .remove = NULL,
    .remove_batch = NULL,
    .clear = bf__cells_clear,
    .merge = bloom_merge,
    .stats = bloom_stats,
    .num_bytes = bf__cells_num_bytes,
    .is_readonly = bf__cells_is_readonly,
    .seed = bf__cells_seed,
    .set_seed = bf__cells_set_seed,
    .payload_bytes = bf__cells_num_bytes,
    .encode = bloom_encode,
    .check = bloom_check,
    .verify = bloom_verify,
    .decode = bloom_decode,
    .least_inserts = bloom_least_inserts,
};

bf_bloom *bf_filter_bloom(bf_filter *f) { return bf__filter_object(f, &bf__bloom_ops); }
