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
 * Thread safety: none for writers; contains calls may run concurrently with
 * each other.
 */
#include "baselines.h"

uint64_t bf__counting_payload_bytes(uint64_t m) { return ((m + 15) / 16) * 8; }

unsigned bf__counting_get(const uint8_t *data, uint64_t i) {
    return (data[i >> 1] >> ((i & 1) * 4)) & 0xFu;
}

static inline void counter_set(uint8_t *data, uint64_t i, unsigned v) {
    unsigned shift = (unsigned)(i & 1) * 4;
    data[i >> 1] = (uint8_t)((data[i >> 1] & ~(0xFu << shift)) | (v << shift));
}

int bf__counting_new_mk(bf_counting **out, uint64_t m, unsigned k) {
    if (!out) return BF_EINVAL;
    bf_cells *t;
    int rc = bf__cells_new(&t, sizeof(bf_counting), m, k, bf__counting_payload_bytes(m));
    if (rc == BF_OK) *out = (bf_counting *)(void *)t;
    return rc;
}

int bf__counting_view(bf_counting **out, const uint8_t *payload, uint64_t m, unsigned k) {
    if (!out) return BF_EINVAL;
    bf_cells *t;
    int rc = bf__cells_view(&t, sizeof(bf_counting), payload, m, k, bf__counting_payload_bytes(m));
    if (rc == BF_OK) *out = (bf_counting *)(void *)t;
    return rc;
}

int bf_counting_new_mk(bf_counting **out, uint64_t m, unsigned k) {
    return bf__counting_new_mk(out, m, k);
}

int bf_counting_new(bf_counting **out, uint64_t n, double fpp) {
    if (!out) return BF_EINVAL;
    uint64_t m;
    unsigned k;
    int rc = bf__bloom_size(n, fpp, &m, &k);
    return rc ? rc : bf__counting_new_mk(out, m, k);
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
