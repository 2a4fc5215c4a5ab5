/*
 * Counting Bloom filter (Fan, Cao, Almeida and Broder 2000): the classic
 * filter's m and k (same sizing, same k positions from one 64-bit hash by
 * enhanced double hashing and multiply-high), with 4-bit counters packed two
 * per byte instead of bits.
 *
 *  - Saturation: a counter that reaches 15 sticks there; insert no longer
 *    increments it and remove never decrements it. A stuck counter can only
 *    make the filter answer "present" more often, never less, so overflow
 *    cannot cause a false negative (with the optimal k a counter reaches 16
 *    with probability < 1.37e-15; the cost of sticking is a slightly higher
 *    FPR after many removes).
 *  - Remove checks first: if any of the key's k counters is 0 the key is
 *    absent, nothing changes and BF_ENOTFOUND is returned. Removing a key
 *    that was never inserted but is a false positive decrements other keys'
 *    counters and may create false negatives: only remove inserted keys.
 *    Counters never go below 0.
 *  - When two of a key's k positions coincide, insert increments that counter
 *    twice and remove decrements it twice, so the pair stays balanced.
 *
 *  - Merge adds counters, saturating at 15 (so no count is lost).
 *
 * Thread safety: none for writers; contains calls may run concurrently with
 * each other.
 */
#include "families/baselines.h"

uint64_t bf__counting_payload_bytes(uint64_t m) { return ((m + 15) / 16) * 8; }

unsigned bf__counting_get(const uint8_t *data, uint64_t i) {
    return (data[i >> 1] >> ((i & 1) * 4)) & 0xFu;
}

static inline void counter_set(uint8_t *data, uint64_t i, unsigned v) {
    unsigned shift = (unsigned)(i & 1) * 4;
    data[i >> 1] = (uint8_t)((data[i >> 1] & ~(0xFu << shift)) | (v << shift));
}

static int counting_new_mk(bf_counting **out, uint64_t m, unsigned k) {
    if (!out) return BF_EINVAL;
    bf_cells *t;
    int rc = bf__cells_new(&t, sizeof(bf_counting), m, k, bf__counting_payload_bytes(m));
    if (rc == BF_OK) *out = (bf_counting *)(void *)t;
    return rc;
}

int bf_counting_new_counters(bf_counting **out, uint64_t m, unsigned k) {
    return counting_new_mk(out, m, k);
}

int bf_counting_new(bf_counting **out, uint64_t n, double fpp) {
    if (!out) return BF_EINVAL;
    uint64_t m;
    unsigned k;
    int rc = bf__bloom_size(n, fpp, &m, &k);
    return rc ? rc : counting_new_mk(out, m, k);
}

void bf_counting_free(bf_counting *f) {
    if (f) bf__cells_free(&f->t);
}

int bf_counting_insert_hash(bf_counting *f, uint64_t hash) {
    if (BF_UNLIKELY(!f->t.bits)) return BF_EREADONLY;
    bf_dh d = bf__dh_init(hash);
    for (unsigned i = 0; i < f->t.k; i++) {
        uint64_t p = bf__dh_next(&d, f->t.m);
        unsigned c = bf__counting_get(f->t.bits, p);
        if (c < BF_COUNTER_MAX) counter_set(f->t.bits, p, c + 1);
    }
    return BF_OK;
}

bool bf_counting_contains_hash(const bf_counting *f, uint64_t hash) {
    bf_dh d = bf__dh_init(hash);
    for (unsigned i = 0; i < f->t.k; i++)
        if (!bf__counting_get(f->t.data, bf__dh_next(&d, f->t.m))) return false;
    return true;
}

int bf_counting_remove_hash(bf_counting *f, uint64_t hash) {
    if (!f) return BF_EINVAL;
    if (!f->t.bits) return BF_EREADONLY;
    if (!bf_counting_contains_hash(f, hash)) return BF_ENOTFOUND;
    bf_dh d = bf__dh_init(hash);
    for (unsigned i = 0; i < f->t.k; i++) {
        uint64_t p = bf__dh_next(&d, f->t.m);
        unsigned c = bf__counting_get(f->t.bits, p);
        if (c > 0 && c < BF_COUNTER_MAX) counter_set(f->t.bits, p, c - 1);
    }
    return BF_OK;
}

uint64_t bf_counting_num_counters(const bf_counting *f) { return f->t.m; }
unsigned bf_counting_num_hashes(const bf_counting *f) { return f->t.k; }

/* Batch lookups: positions of a group of keys computed and prefetched first
 * (see bloom.c). */
#define COUNTING_GROUP 8

size_t bf__counting_contains_batch(const bf_counting *f, const uint64_t *hashes, size_t n,
                                   uint8_t *out) {
    size_t hits = 0;
    uint64_t pos[COUNTING_GROUP][BF_BLOOM_MAX_K];
    const bool prefetch = f->t.num_bytes >= BF_BASELINE_PREFETCH_MIN_BYTES;
    for (size_t base = 0; base < n; base += COUNTING_GROUP) {
        size_t g = n - base < COUNTING_GROUP ? n - base : COUNTING_GROUP;
        for (size_t j = 0; j < g; j++) {
            uint64_t h;
            memcpy(&h, hashes + base + j, sizeof h);
            bf_dh d = bf__dh_init(h);
            for (unsigned i = 0; i < f->t.k; i++) {
                uint64_t p = bf__dh_next(&d, f->t.m);
                pos[j][i] = p;
                if (prefetch) __builtin_prefetch(f->t.data + (p >> 1));
            }
        }
        for (size_t j = 0; j < g; j++) {
            bool c = true;
            for (unsigned i = 0; i < f->t.k && c; i++)
                c = bf__counting_get(f->t.data, pos[j][i]) != 0;
            if (out) out[base + j] = (uint8_t)c;
            hits += c;
        }
    }
    return hits;
}

/* Sum of the counters below m (an unverified view may have padding set). */
static uint64_t counter_sum(const bf_counting *f) {
    uint64_t sum = 0;
    for (uint64_t i = 0; i < f->t.num_bytes; i++) sum += (f->t.data[i] & 0xFu) + (f->t.data[i] >> 4);
    for (uint64_t c = f->t.m; c < f->t.num_bytes * 2; c++) sum -= bf__counting_get(f->t.data, c);
    return sum;
}

/* ---- the counting filter's table ----------------------------------------- */

static int counting_size_for(uint64_t n, double fpp, bf_sizing *out) {
    return bf__cells_size_for(n, fpp, out, bf__counting_payload_bytes);
}
static int counting_fpp_for(uint64_t num_bytes, uint64_t n, double *out) {
    return bf__cells_fpp_for(num_bytes, 2, n, out); /* two counters per byte */
}
static int counting_create(void **out, uint64_t n, double fpp) {
    bf_counting *f = NULL; /* not a cast of out: *out is a void * */
    int rc = bf_counting_new(&f, n, fpp);
    if (rc == BF_OK) *out = f;
    return rc;
}

static int counting_insert(void *o, uint64_t h) { return bf_counting_insert_hash(o, h); }
static bool counting_contains(const void *o, uint64_t h) { return bf_counting_contains_hash(o, h); }
static int counting_remove(void *o, uint64_t h) { return bf_counting_remove_hash(o, h); }

static int counting_insert_batch(void *o, const uint64_t *h, size_t n, size_t *done) {
    return bf__batch_loop(o, bf__cells_is_readonly(o), h, n, done, counting_insert);
}
static int counting_remove_batch(void *o, const uint64_t *h, size_t n, size_t *done) {
    return bf__batch_loop(o, bf__cells_is_readonly(o), h, n, done, counting_remove);
}
static size_t counting_contains_batch(const void *o, const uint64_t *h, size_t n, uint8_t *out) {
    return bf__counting_contains_batch(o, h, n, out);
}

/* Saturating add per nibble: 15 stays 15, so no count is lost. */
static int counting_merge(void *dst, const void *src) {
    bf_counting *d = dst;
    const bf_counting *s = src;
    if (!d->t.bits) return BF_EREADONLY;
    if (d->t.m != s->t.m || d->t.k != s->t.k || d->t.seed != s->t.seed) return BF_EMISMATCH;
    for (uint64_t i = 0; i < d->t.num_bytes; i++) {
        unsigned lo = (d->t.bits[i] & 0xFu) + (s->t.data[i] & 0xFu);
        unsigned hi = (unsigned)(d->t.bits[i] >> 4) + (unsigned)(s->t.data[i] >> 4);
        if (lo > BF_COUNTER_MAX) lo = BF_COUNTER_MAX;
        if (hi > BF_COUNTER_MAX) hi = BF_COUNTER_MAX;
        d->t.bits[i] = (uint8_t)(lo | (hi << 4));
    }
    return BF_OK;
}

static int counting_stats(const void *o, bf_filter_stats *st) {
    const bf_counting *c = o;
    uint64_t nz = 0;
    /* Counters below m only: an unverified view may have padding set. */
    for (uint64_t i = 0; i < c->t.m; i++) nz += bf__counting_get(c->t.data, i) != 0;
    bf__cells_stats(st, c->t.m, nz, c->t.k);
    return BF_OK;
}

static void counting_encode(const void *o, bf_native_params *p, uint8_t *payload) {
    bf__cells_encode(o, p, payload, 4); /* p2: bits per counter */
}

static int counting_check(const bf_native_params *p, const uint8_t *payload, uint64_t len) {
    (void)payload;
    return bf__cells_check(p, len, 4, bf__counting_payload_bytes);
}

/* Nibbles m .. 2 * len - 1 (the padding of the last word) must be zero. */
static int counting_verify(const bf_native_params *p, const uint8_t *payload, uint64_t len) {
    for (uint64_t c = p->p0; c < len * 2; c++)
        if (bf__counting_get(payload, c)) return BF_ECORRUPT;
    return BF_OK;
}

static int counting_decode(void **out, const bf_native_params *p, const uint8_t *payload,
                           uint64_t len, uint64_t seed, bool view) {
    return bf__cells_decode(out, sizeof(bf_counting), p, payload, len, seed, view);
}

/* An insert adds at most k to the counter sum. */
static uint64_t counting_least_inserts(const void *o) {
    const bf_counting *f = o;
    return bf__least_inserts(counter_sum(f), f->t.k);
}

const bf_family_ops bf__counting_ops = {
    .version = BF_FAMILY_OPS_VERSION,
    .id = BF_FAMILY_COUNTING,
    .name = "counting",
    .size_for = counting_size_for,
    .fpp_for = counting_fpp_for,
    .create = counting_create,
    .destroy = bf__cells_destroy,
    .insert = counting_insert,
    .contains = counting_contains,
    .insert_batch = counting_insert_batch,
    .contains_batch = counting_contains_batch,
    .remove = counting_remove,
    .remove_batch = counting_remove_batch,
    .clear = bf__cells_clear,
    .merge = counting_merge,
    .stats = counting_stats,
    .num_bytes = bf__cells_num_bytes,
    .is_readonly = bf__cells_is_readonly,
    .seed = bf__cells_seed,
    .set_seed = bf__cells_set_seed,
    .payload_bytes = bf__cells_num_bytes,
    .encode = counting_encode,
    .check = counting_check,
    .verify = counting_verify,
    .decode = counting_decode,
    .least_inserts = counting_least_inserts,
};

bf_counting *bf_filter_counting(bf_filter *f) { return bf__filter_object(f, &bf__counting_ops); }
