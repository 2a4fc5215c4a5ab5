/*
 * One interface for every family: bf_filter is a family object behind a
 * small vtable, plus what every family shares (the byte-string seed, the
 * count of inserts, read-only views, the native format).
 *
 * Native format (format.h has the 64-byte header; all integers
 * little-endian). What each family puts in p0..p3 and the payload:
 *
 *   family      p0            p1        p2  p3  payload (payload length)
 *   sbbf (1)    num_bytes     0         0   0   the Parquet bitset (num_bytes):
 *                                               blocks of 8 LE 32-bit words
 *   bloom (2)   m bits        k (1..64) 0   0   bit i = bit (i & 7) of byte
 *                                               i >> 3, i.e. LE 64-bit words;
 *                                               8 * ceil(m / 64) bytes,
 *                                               bits >= m zero
 *   counting(3) m counters    k (1..64) 4   0   counter i = low nibble of byte
 *                                               i >> 1 (i even) or high
 *                                               nibble (i odd);
 *                                               8 * ceil(m / 16) bytes,
 *                                               nibbles >= m zero
 *   cuckoo (4)  num_buckets   f (8,12,  4   0   num_buckets buckets of f/2
 *                             16)               bytes (bucket = LE integer,
 *                                               slot s = bits [s f, (s+1) f),
 *                                               0 = empty), then a 24-byte
 *                                               trailer:
 *                                                 +0 u64 count (stored
 *                                                    fingerprints, victim
 *                                                    included)
 *                                                 +8 u64 victim bucket index
 *                                                 +16 u32 victim fingerprint
 *                                                    (0 = no victim)
 *                                                 +20 u32 reserved, 0
 *
 * The seed and the keyed flag come from the header (flag set iff seed != 0).
 * "inserted" counts successful insert calls (removes do not lower it; merge
 * adds the source's; clear resets it). Saving raises it, if needed, to the
 * least count the payload implies (set bits / k, counter sum / k, stored
 * fingerprints), so images of filters filled through the family functions
 * (bf_filter_sbbf() and friends) still load.
 *
 * Loading (bf_filter_load, always; bf_filter_view, the cheap checks always
 * and the rest with BF_VIEW_VERIFY_PAYLOAD) checks: the header (magic,
 * version, family, flags, header checksum); p0 > 0 and within the family's
 * limit, p1/p2/p3 as above; payload length equal to what p0/p1 imply and the
 * input exactly header + payload (longer or shorter input is rejected); the
 * cuckoo trailer (victim index < num_buckets, victim fingerprint < 2^f, no
 * index without a fingerprint, reserved 0, count <= 4 num_buckets + 1).
 * Then the deep checks: the payload checksum; padding bits/nibbles zero;
 * inserted plausible (set bits <= 8 * inserted for the SBBF, <= k * inserted
 * for the classic filter, counter sum <= k * inserted, cuckoo count <=
 * inserted); the cuckoo count equal to the occupied slots plus the victim.
 * Every read is within [buf, buf + len); views read the payload with byte or
 * memcpy loads, so any alignment works.
 *
 * Thread safety: a bf_filter is as safe as its family's plain functions:
 * contains calls may run concurrently with each other; inserts, removes,
 * merge, clear need exclusive access. (The insert count is updated with a
 * relaxed atomic add, so counting never races, but the families' plain
 * inserts do.) For concurrent inserts use bf_sbbf_insert_hash_concurrent /
 * bf_bloom_insert_hash_concurrent on bf_filter_sbbf() / bf_filter_bloom().
 */
#include "baselines.h"
#include "format.h"
#include "sbbf.h"

#include <math.h>
#include <strings.h>

typedef struct bf_vtable {
    int (*insert)(void *o, uint64_t h);
    bool (*contains)(const void *o, uint64_t h);
    int (*remove)(void *o, uint64_t h);
    void (*destroy)(void *o);
    uint64_t (*num_bytes)(const void *o);
    /* Occupancy in insert units, and the most one insert adds to it. */
    uint64_t (*load_units)(const void *o);
    unsigned (*units_per_insert)(const void *o);
} bf_vtable;

struct bf_filter {
    bf_family family;
    const bf_vtable *vt;
    union {
        void *any;
        bf_sbbf *sbbf;
        bf_bloom *bloom;
        bf_counting *counting;
        bf_cuckoo *cuckoo;
    } u;
    uint64_t seed; /* bloom, counting, cuckoo; the SBBF keeps its own */
    uint64_t inserted;
    bool readonly;
    void (*release)(void *, size_t);
    void *release_base;
    size_t release_len;
};

/* ---- SBBF ---------------------------------------------------------------- */

static int sbbf_insert(void *o, uint64_t h) { return bf_sbbf_insert_hash(o, h); }
static bool sbbf_contains(const void *o, uint64_t h) { return bf_sbbf_contains_hash(o, h); }
static int no_remove(void *o, uint64_t h) {
    (void)o;
    (void)h;
    return BF_EUNSUPPORTED;
}
static void sbbf_destroy(void *o) { bf_sbbf_free(o); }
static uint64_t sbbf_bytes(const void *o) { return ((const bf_sbbf *)o)->num_bytes; }
static uint64_t popcount_bytes(const uint8_t *p, uint64_t n) {
    uint64_t set = 0, i = 0;
    for (; i + 8 <= n; i += 8) set += (uint64_t)__builtin_popcountll(bf_load_le64(p + i));
    for (; i < n; i++) set += (uint64_t)__builtin_popcount(p[i]);
    return set;
}
static uint64_t sbbf_units(const void *o) {
    const bf_sbbf *s = o;
    return popcount_bytes(s->data, s->num_bytes);
}
static unsigned sbbf_per_insert(const void *o) {
    (void)o;
    return 8;
}
static const bf_vtable sbbf_vt = {sbbf_insert, sbbf_contains, no_remove, sbbf_destroy,
                                  sbbf_bytes, sbbf_units, sbbf_per_insert};

/* ---- classic Bloom ------------------------------------------------------- */

static int bloom_insert(void *o, uint64_t h) { return bf_bloom_insert_hash(o, h); }
static bool bloom_contains(const void *o, uint64_t h) { return bf_bloom_contains_hash(o, h); }
static void bloom_destroy(void *o) { bf_bloom_free(o); }
static uint64_t bloom_bytes(const void *o) { return ((const bf_bloom *)o)->t.num_bytes; }
static uint64_t bloom_units(const void *o) { return bf__bloom_bits_set(o); }
static unsigned bloom_per_insert(const void *o) { return ((const bf_bloom *)o)->t.k; }
static const bf_vtable bloom_vt = {bloom_insert, bloom_contains, no_remove, bloom_destroy,
                                   bloom_bytes, bloom_units, bloom_per_insert};

/* ---- counting Bloom ------------------------------------------------------ */

static int counting_insert(void *o, uint64_t h) { return bf_counting_insert_hash(o, h); }
static bool counting_contains(const void *o, uint64_t h) { return bf_counting_contains_hash(o, h); }
static int counting_remove(void *o, uint64_t h) { return bf_counting_remove_hash(o, h); }
static void counting_destroy(void *o) { bf_counting_free(o); }
static uint64_t counting_bytes(const void *o) { return ((const bf_counting *)o)->t.num_bytes; }
static uint64_t counting_units(const void *o) {
    const bf_counting *c = o;
    uint64_t sum = 0;
    for (uint64_t i = 0; i < c->t.num_bytes; i++) sum += (c->t.data[i] & 0xFu) + (c->t.data[i] >> 4);
    return sum;
}
static unsigned counting_per_insert(const void *o) { return ((const bf_counting *)o)->t.k; }
static const bf_vtable counting_vt = {counting_insert, counting_contains, counting_remove,
                                      counting_destroy, counting_bytes, counting_units,
                                      counting_per_insert};

/* ---- cuckoo -------------------------------------------------------------- */

static int cuckoo_insert(void *o, uint64_t h) { return bf_cuckoo_insert_hash(o, h); }
static bool cuckoo_contains(const void *o, uint64_t h) { return bf_cuckoo_contains_hash(o, h); }
static int cuckoo_remove(void *o, uint64_t h) { return bf_cuckoo_remove_hash(o, h); }
static void cuckoo_destroy(void *o) { bf_cuckoo_free(o); }
static uint64_t cuckoo_bytes(const void *o) { return ((const bf_cuckoo *)o)->num_bytes; }
static uint64_t cuckoo_units(const void *o) { return ((const bf_cuckoo *)o)->count; }
static unsigned cuckoo_per_insert(const void *o) {
    (void)o;
    return 1;
}
static const bf_vtable cuckoo_vt = {cuckoo_insert, cuckoo_contains, cuckoo_remove,
                                    cuckoo_destroy, cuckoo_bytes, cuckoo_units,
                                    cuckoo_per_insert};

static const bf_vtable *vtable_of(bf_family family) {
    switch (family) {
    case BF_FAMILY_SBBF: return &sbbf_vt;
    case BF_FAMILY_BLOOM: return &bloom_vt;
    case BF_FAMILY_COUNTING: return &counting_vt;
    case BF_FAMILY_CUCKOO: return &cuckoo_vt;
    }
    return NULL;
}

/* ---- names and sizing ---------------------------------------------------- */

const char *bf_family_name(bf_family family) {
    switch (family) {
    case BF_FAMILY_SBBF: return "sbbf";
    case BF_FAMILY_BLOOM: return "bloom";
    case BF_FAMILY_COUNTING: return "counting";
    case BF_FAMILY_CUCKOO: return "cuckoo";
    }
    return NULL;
}

int bf_family_from_name(const char *name, bf_family *out) {
    if (!name || !out) return BF_EINVAL;
    for (int fam = BF_FAMILY_SBBF; fam <= BF_FAMILY_CUCKOO; fam++) {
        if (strcasecmp(name, bf_family_name((bf_family)fam)) == 0) {
            *out = (bf_family)fam;
            return BF_OK;
        }
    }
    return BF_EFAMILY;
}

int bf_size_for(bf_family family, uint64_t n, double fpp, bf_sizing *out) {
    if (!out || !bf_fpp_valid(fpp)) return BF_EINVAL;
    if (!vtable_of(family)) return BF_EFAMILY;
    bf_sizing s;
    memset(&s, 0, sizeof s);
    s.family = family;
    double dn = n ? (double)n : 1.0;
    int rc;
    switch (family) {
    case BF_FAMILY_SBBF: {
        size_t bytes;
        if ((rc = bf_sbbf_compact_bytes(n, fpp, &bytes))) return rc;
        s.num_bytes = bytes;
        s.k = 8;
        s.model_fpp = bf_sbbf_model_fpp(bytes, n);
        break;
    }
    case BF_FAMILY_BLOOM:
    case BF_FAMILY_COUNTING: {
        uint64_t m;
        unsigned k;
        if ((rc = bf__bloom_size(n, fpp, &m, &k))) return rc;
        s.num_bytes = family == BF_FAMILY_BLOOM ? bf__bloom_payload_bytes(m)
                                                : bf__counting_payload_bytes(m);
        s.k = k;
        s.model_fpp = bf__bloom_fpp((double)m, k, (double)n);
        break;
    }
    case BF_FAMILY_CUCKOO: {
        uint64_t nb;
        unsigned f;
        if ((rc = bf__cuckoo_size(n, fpp, &nb, &f))) return rc;
        s.num_bytes = nb * (f / 2);
        s.fp_bits = f;
        s.model_fpp = bf__cuckoo_model_fpp(f, (double)n / (BF_CUCKOO_SLOTS * (double)nb));
        break;
    }
    }
    if (s.num_bytes > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    s.bits_per_key = 8.0 * (double)s.num_bytes / dn;
    *out = s;
    return BF_OK;
}

int bf_fpp_for(bf_family family, uint64_t num_bytes, uint64_t n, double *out_fpp) {
    if (!out_fpp || num_bytes == 0) return BF_EINVAL;
    switch (family) {
    case BF_FAMILY_SBBF:
        if (num_bytes < BF_SBBF_BLOCK_BYTES) return BF_EINVAL;
        *out_fpp = bf__sbbf_fpp_blocks(num_bytes / BF_SBBF_BLOCK_BYTES, (double)n);
        return BF_OK;
    case BF_FAMILY_BLOOM:
    case BF_FAMILY_COUNTING: {
        uint64_t m;
        if (bf_mul_overflow(num_bytes, family == BF_FAMILY_BLOOM ? 8 : 2, &m)) return BF_ETOOBIG;
        double p;
        bf__bloom_best_k(m, n, &p);
        *out_fpp = p;
        return BF_OK;
    }
    case BF_FAMILY_CUCKOO: {
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
        *out_fpp = best > 1.0 ? 1.0 : best;
        return best > 1.0 ? BF_EFULL : BF_OK;
    }
    }
    return BF_EFAMILY;
}

/* ---- life cycle ---------------------------------------------------------- */

static int wrap(bf_filter **out, bf_family family, void *obj, bool readonly) {
    bf_filter *f = bf__calloc(1, sizeof *f);
    if (!f) {
        vtable_of(family)->destroy(obj);
        return BF_ENOMEM;
    }
    f->family = family;
    f->vt = vtable_of(family);
    f->u.any = obj;
    f->readonly = readonly;
    *out = f;
    return BF_OK;
}

int bf_filter_new(bf_filter **out, bf_family family, uint64_t n, double fpp) {
    if (!out) return BF_EINVAL;
    if (!vtable_of(family)) return BF_EFAMILY;
    void *obj = NULL;
    int rc = BF_EFAMILY;
    switch (family) {
    case BF_FAMILY_SBBF: rc = bf_sbbf_new((bf_sbbf **)&obj, n, fpp); break;
    case BF_FAMILY_BLOOM: rc = bf_bloom_new((bf_bloom **)&obj, n, fpp); break;
    case BF_FAMILY_COUNTING: rc = bf_counting_new((bf_counting **)&obj, n, fpp); break;
    case BF_FAMILY_CUCKOO: rc = bf_cuckoo_new((bf_cuckoo **)&obj, n, fpp); break;
    }
    return rc ? rc : wrap(out, family, obj, false);
}

int bf_filter_from_sbbf(bf_filter **out, bf_sbbf *sbbf) {
    if (!out || !sbbf) return BF_EINVAL;
    if (bf_sbbf_is_readonly(sbbf)) return BF_EREADONLY;
    return wrap(out, BF_FAMILY_SBBF, sbbf, false);
}

void bf_filter_free(bf_filter *f) {
    if (!f) return;
    f->vt->destroy(f->u.any);
    if (f->release) f->release(f->release_base, f->release_len);
    bf__free(f);
}

bf_family bf_filter_family(const bf_filter *f) { return f->family; }

bf_sbbf *bf_filter_sbbf(bf_filter *f) { return f && f->family == BF_FAMILY_SBBF ? f->u.sbbf : NULL; }
bf_bloom *bf_filter_bloom(bf_filter *f) {
    return f && f->family == BF_FAMILY_BLOOM ? f->u.bloom : NULL;
}
bf_counting *bf_filter_counting(bf_filter *f) {
    return f && f->family == BF_FAMILY_COUNTING ? f->u.counting : NULL;
}
bf_cuckoo *bf_filter_cuckoo(bf_filter *f) {
    return f && f->family == BF_FAMILY_CUCKOO ? f->u.cuckoo : NULL;
}

/* ---- queries and updates ------------------------------------------------- */

static inline void count_inserts(bf_filter *f, uint64_t n) {
    if (n) __atomic_fetch_add(&f->inserted, n, __ATOMIC_RELAXED);
}

int bf_filter_insert_hash(bf_filter *f, uint64_t hash) {
    if (!f) return BF_EINVAL;
    if (f->readonly) return BF_EREADONLY;
    int rc = f->vt->insert(f->u.any, hash);
    if (rc == BF_OK) count_inserts(f, 1);
    return rc;
}

bool bf_filter_contains_hash(const bf_filter *f, uint64_t hash) {
    return f->vt->contains(f->u.any, hash);
}

int bf_filter_remove_hash(bf_filter *f, uint64_t hash) {
    if (!f) return BF_EINVAL;
    if (f->readonly) return BF_EREADONLY;
    return f->vt->remove(f->u.any, hash);
}

int bf_filter_insert_hashes(bf_filter *f, const uint64_t *hashes, size_t n, size_t *done) {
    if (done) *done = 0;
    if (!f || (!hashes && n)) return BF_EINVAL;
    if (f->readonly) return BF_EREADONLY;
    if (f->family == BF_FAMILY_SBBF || f->family == BF_FAMILY_BLOOM) {
        if (f->family == BF_FAMILY_SBBF) bf_sbbf_insert_hashes(f->u.sbbf, hashes, n);
        else bf__bloom_insert_batch(f->u.bloom, hashes, n);
        count_inserts(f, n);
        if (done) *done = n;
        return BF_OK;
    }
    size_t i = 0;
    int rc = BF_OK;
    for (; i < n; i++) {
        uint64_t h;
        memcpy(&h, hashes + i, sizeof h); /* any alignment, as the SBBF batch */
        if ((rc = f->vt->insert(f->u.any, h)) != BF_OK) break;
    }
    count_inserts(f, i);
    if (done) *done = i;
    return rc;
}

size_t bf_filter_contains_hashes(const bf_filter *f, const uint64_t *hashes, size_t n,
                                 uint8_t *out) {
    switch (f->family) {
    case BF_FAMILY_SBBF: return bf_sbbf_contains_hashes(f->u.sbbf, hashes, n, out);
    case BF_FAMILY_BLOOM: return bf__bloom_contains_batch(f->u.bloom, hashes, n, out);
    case BF_FAMILY_COUNTING: return bf__counting_contains_batch(f->u.counting, hashes, n, out);
    case BF_FAMILY_CUCKOO: return bf__cuckoo_contains_batch(f->u.cuckoo, hashes, n, out);
    }
    return 0;
}

uint64_t bf_filter_seed(const bf_filter *f) {
    return f->family == BF_FAMILY_SBBF ? bf_sbbf_seed(f->u.sbbf) : f->seed;
}

uint64_t bf_filter_hash(const bf_filter *f, const void *data, size_t len) {
    return bf_hash_xxh64_seeded(data, len, bf_filter_seed(f));
}

int bf_filter_insert(bf_filter *f, const void *data, size_t len) {
    if (!f || (!data && len)) return BF_EINVAL;
    return bf_filter_insert_hash(f, bf_filter_hash(f, data, len));
}
bool bf_filter_contains(const bf_filter *f, const void *data, size_t len) {
    return bf_filter_contains_hash(f, bf_filter_hash(f, data, len));
}
int bf_filter_remove(bf_filter *f, const void *data, size_t len) {
    if (!f || (!data && len)) return BF_EINVAL;
    return bf_filter_remove_hash(f, bf_filter_hash(f, data, len));
}

size_t bf_filter_num_bytes(const bf_filter *f) { return (size_t)f->vt->num_bytes(f->u.any); }

static bool is_empty(const bf_filter *f) { return f->vt->load_units(f->u.any) == 0; }

int bf_filter_set_seed(bf_filter *f, uint64_t seed) {
    if (!f) return BF_EINVAL;
    if (f->readonly) return BF_EREADONLY;
    if (f->family == BF_FAMILY_SBBF) return bf_sbbf_set_seed(f->u.sbbf, seed);
    if (seed != f->seed && !is_empty(f)) return BF_EINVAL;
    f->seed = seed;
    return BF_OK;
}

int bf_filter_clear(bf_filter *f) {
    if (!f) return BF_EINVAL;
    if (f->readonly) return BF_EREADONLY;
    switch (f->family) {
    case BF_FAMILY_SBBF: bf_sbbf_clear(f->u.sbbf); break;
    case BF_FAMILY_BLOOM: memset(f->u.bloom->t.bits, 0, (size_t)f->u.bloom->t.num_bytes); break;
    case BF_FAMILY_COUNTING:
        memset(f->u.counting->t.bits, 0, (size_t)f->u.counting->t.num_bytes);
        break;
    case BF_FAMILY_CUCKOO: bf__cuckoo_clear(f->u.cuckoo); break;
    }
    __atomic_store_n(&f->inserted, 0, __ATOMIC_RELAXED);
    return BF_OK;
}

int bf_filter_merge(bf_filter *dst, const bf_filter *src) {
    if (!dst || !src) return BF_EINVAL;
    if (dst->readonly) return BF_EREADONLY;
    if (dst->family != src->family) return BF_EMISMATCH;
    if (dst->family == BF_FAMILY_CUCKOO) return BF_EUNSUPPORTED;
    if (bf_filter_seed(dst) != bf_filter_seed(src)) return BF_EMISMATCH;
    switch (dst->family) {
    case BF_FAMILY_SBBF: {
        int rc = bf_sbbf_merge(dst->u.sbbf, src->u.sbbf);
        if (rc) return rc;
        break;
    }
    case BF_FAMILY_BLOOM: {
        bf_bloom *d = dst->u.bloom;
        const bf_bloom *s = src->u.bloom;
        if (d->t.m != s->t.m || d->t.k != s->t.k) return BF_EMISMATCH;
        for (uint64_t i = 0; i < d->t.num_bytes; i++) d->t.bits[i] |= s->t.data[i];
        break;
    }
    case BF_FAMILY_COUNTING: {
        bf_counting *d = dst->u.counting;
        const bf_counting *s = src->u.counting;
        if (d->t.m != s->t.m || d->t.k != s->t.k) return BF_EMISMATCH;
        /* Saturating add per nibble: 15 stays 15, so no count is lost. */
        for (uint64_t i = 0; i < d->t.num_bytes; i++) {
            unsigned lo = (d->t.bits[i] & 0xFu) + (s->t.data[i] & 0xFu);
            unsigned hi = (unsigned)(d->t.bits[i] >> 4) + (unsigned)(s->t.data[i] >> 4);
            if (lo > BF_COUNTER_MAX) lo = BF_COUNTER_MAX;
            if (hi > BF_COUNTER_MAX) hi = BF_COUNTER_MAX;
            d->t.bits[i] = (uint8_t)(lo | (hi << 4));
        }
        break;
    }
    case BF_FAMILY_CUCKOO: return BF_EUNSUPPORTED;
    }
    uint64_t si = __atomic_load_n(&src->inserted, __ATOMIC_RELAXED);
    uint64_t di = __atomic_load_n(&dst->inserted, __ATOMIC_RELAXED), sum;
    if (bf_add_overflow(di, si, &sum)) sum = UINT64_MAX;
    __atomic_store_n(&dst->inserted, sum, __ATOMIC_RELAXED);
    return BF_OK;
}

/* ---- statistics ---------------------------------------------------------- */

static void bloom_like_stats(bf_stats *st, uint64_t cells, uint64_t set, unsigned k) {
    st->cells = cells;
    st->cells_set = set;
    st->fill_ratio = (double)set / (double)cells;
    st->est_keys = st->fill_ratio >= 1.0 ? INFINITY
                                         : -((double)cells / k) * log1p(-st->fill_ratio);
    st->est_fpp = pow(st->fill_ratio, (double)k); /* a foreign key's k cells all set */
    st->k = k;
}

int bf_filter_stats(const bf_filter *f, bf_stats *out) {
    if (!f || !out) return BF_EINVAL;
    bf_stats st;
    memset(&st, 0, sizeof st);
    st.family = f->family;
    st.num_bytes = f->vt->num_bytes(f->u.any);
    st.inserted = __atomic_load_n(&f->inserted, __ATOMIC_RELAXED);
    st.kernel = "scalar";
    switch (f->family) {
    case BF_FAMILY_SBBF: {
        bf_sbbf_stats s;
        int rc = bf_sbbf_get_stats(f->u.sbbf, &s);
        if (rc) return rc;
        st.cells = s.num_bytes * 8;
        st.cells_set = s.bits_set;
        st.fill_ratio = s.fill_ratio;
        st.est_keys = s.est_ndv;
        st.est_fpp = s.est_fpp;
        st.k = 8;
        st.kernel = bf_sbbf_kernel(f->u.sbbf);
        break;
    }
    case BF_FAMILY_BLOOM: {
        const bf_bloom *b = f->u.bloom;
        bloom_like_stats(&st, b->t.m, bf__bloom_bits_set(b), b->t.k);
        break;
    }
    case BF_FAMILY_COUNTING: {
        const bf_counting *c = f->u.counting;
        uint64_t nz = 0;
        /* Counters below m only: an unverified view may have padding set. */
        for (uint64_t i = 0; i < c->t.m; i++) nz += bf__counting_get(c->t.data, i) != 0;
        bloom_like_stats(&st, c->t.m, nz, c->t.k);
        break;
    }
    case BF_FAMILY_CUCKOO: {
        const bf_cuckoo *c = f->u.cuckoo;
        st.cells = c->num_buckets * BF_CUCKOO_SLOTS;
        st.cells_set = bf__cuckoo_occupied(c);
        st.fill_ratio = (double)st.cells_set / (double)st.cells;
        st.est_keys = (double)c->count;
        st.est_fpp = bf__cuckoo_est_fpp(c);
        st.fp_bits = c->fp_bits;
        break;
    }
    }
    *out = st;
    return BF_OK;
}

/* ---- native format: save ------------------------------------------------- */

static uint64_t payload_len_of(const bf_filter *f) {
    uint64_t n = f->vt->num_bytes(f->u.any);
    return f->family == BF_FAMILY_CUCKOO ? n + BF_CUCKOO_TRAILER_BYTES : n;
}

size_t bf_filter_save_size(const bf_filter *f) {
    if (!f) return 0;
    uint64_t total;
    if (bf_add_overflow(payload_len_of(f), BF_HEADER_BYTES, &total) || total > (uint64_t)SIZE_MAX)
        return 0;
    return (size_t)total;
}

int bf_filter_save(const bf_filter *f, void *buf, size_t cap, size_t *written) {
    if (!f || !buf) return BF_EINVAL;
    size_t need = bf_filter_save_size(f);
    if (!need) return BF_ETOOBIG;
    if (cap < need) return BF_EBUFSIZE;
    uint8_t *out = buf;
    uint8_t *payload = out + BF_HEADER_BYTES;
    bf_native_header h;
    memset(&h, 0, sizeof h);
    h.version = BF_FORMAT_VERSION;
    h.family = (uint8_t)f->family;
    h.seed = bf_filter_seed(f);
    h.flags = h.seed ? BF_FLAG_KEYED : 0;
    h.payload_len = payload_len_of(f);
    switch (f->family) {
    case BF_FAMILY_SBBF:
        h.p0 = f->u.sbbf->num_bytes;
        memcpy(payload, f->u.sbbf->data, (size_t)h.p0);
        break;
    case BF_FAMILY_BLOOM:
        h.p0 = f->u.bloom->t.m;
        h.p1 = f->u.bloom->t.k;
        memcpy(payload, f->u.bloom->t.data, (size_t)f->u.bloom->t.num_bytes);
        break;
    case BF_FAMILY_COUNTING:
        h.p0 = f->u.counting->t.m;
        h.p1 = f->u.counting->t.k;
        h.p2 = 4;
        memcpy(payload, f->u.counting->t.data, (size_t)f->u.counting->t.num_bytes);
        break;
    case BF_FAMILY_CUCKOO: {
        const bf_cuckoo *c = f->u.cuckoo;
        h.p0 = c->num_buckets;
        h.p1 = c->fp_bits;
        h.p2 = BF_CUCKOO_SLOTS;
        memcpy(payload, c->data, (size_t)c->num_bytes);
        uint8_t *t = payload + c->num_bytes;
        bf_store_le64(t, c->count);
        bf_store_le64(t + 8, c->victim_fp ? c->victim_index : 0);
        bf_store_le32(t + 16, c->victim_fp);
        bf_store_le32(t + 20, 0);
        break;
    }
    }
    /* The least insert count the payload implies (see the top comment). */
    uint64_t units = f->vt->load_units(f->u.any);
    unsigned per = f->vt->units_per_insert(f->u.any);
    uint64_t least = units / per + (units % per != 0);
    uint64_t ins = __atomic_load_n(&f->inserted, __ATOMIC_RELAXED);
    h.inserted = ins > least ? ins : least;
    h.payload_check = bf__payload_check(payload, (size_t)h.payload_len);
    bf__header_write(out, &h);
    if (written) *written = need;
    return BF_OK;
}

/* ---- native format: load and view --------------------------------------- */

typedef struct parsed {
    bf_native_header h;
    const uint8_t *payload;
    uint64_t table_bytes; /* payload without the cuckoo trailer */
    uint64_t count, victim_index;
    uint32_t victim_fp;
} parsed;

/* Header and parameters: O(1), always. */
static int parse(const void *buf, size_t len, parsed *p) {
    memset(p, 0, sizeof *p);
    int rc = bf__header_read(buf, len, &p->h);
    if (rc) return rc;
    const bf_native_header *h = &p->h;
    uint64_t expect = 0;
    switch ((bf_family)h->family) {
    case BF_FAMILY_SBBF:
        if (h->p0 < BF_SBBF_BLOCK_BYTES || h->p0 % BF_SBBF_BLOCK_BYTES || h->p1 || h->p2 || h->p3)
            return BF_ECORRUPT;
        if (h->p0 > BF_SBBF_MAX_BYTES) return BF_ETOOBIG;
        expect = p->table_bytes = h->p0;
        break;
    case BF_FAMILY_BLOOM:
    case BF_FAMILY_COUNTING:
        if (h->p0 == 0 || h->p1 == 0 || h->p1 > BF_BLOOM_MAX_K || h->p3) return BF_ECORRUPT;
        if (h->p2 != (h->family == BF_FAMILY_COUNTING ? 4u : 0u)) return BF_ECORRUPT;
        if (h->p0 > BF_BLOOM_MAX_BITS) return BF_ETOOBIG;
        expect = p->table_bytes = h->family == BF_FAMILY_BLOOM ? bf__bloom_payload_bytes(h->p0)
                                                               : bf__counting_payload_bytes(h->p0);
        break;
    case BF_FAMILY_CUCKOO:
        if (h->p0 == 0 || (h->p1 != 8 && h->p1 != 12 && h->p1 != 16) ||
            h->p2 != BF_CUCKOO_SLOTS || h->p3)
            return BF_ECORRUPT;
        if (h->p0 > BF_CUCKOO_MAX_BUCKETS) return BF_ETOOBIG;
        p->table_bytes = h->p0 * (h->p1 / 2);
        expect = p->table_bytes + BF_CUCKOO_TRAILER_BYTES;
        break;
    default: return BF_EFAMILY;
    }
    if (expect > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    if (h->payload_len != expect) return BF_ECORRUPT;
    if ((uint64_t)len - BF_HEADER_BYTES != h->payload_len) return BF_ECORRUPT; /* trailing bytes */
    p->payload = (const uint8_t *)buf + BF_HEADER_BYTES;
    if (h->family == BF_FAMILY_CUCKOO) {
        const uint8_t *t = p->payload + p->table_bytes;
        p->count = bf_load_le64(t);
        p->victim_index = bf_load_le64(t + 8);
        p->victim_fp = bf_load_le32(t + 16);
        if (bf_load_le32(t + 20) != 0) return BF_ECORRUPT;
        if (p->victim_fp >= (1u << h->p1)) return BF_ECORRUPT;
        if (p->victim_fp ? p->victim_index >= h->p0 : p->victim_index != 0) return BF_ECORRUPT;
        if (p->count > h->p0 * BF_CUCKOO_SLOTS + 1) return BF_ECORRUPT;
    }
    return BF_OK;
}

/* Payload checksum and content: O(size). */
static int verify_payload(const parsed *p) {
    const bf_native_header *h = &p->h;
    if (bf__payload_check(p->payload, (size_t)h->payload_len) != h->payload_check)
        return BF_ECORRUPT;
    const uint8_t *d = p->payload;
    uint64_t units = 0;
    unsigned per = 1;
    switch ((bf_family)h->family) {
    case BF_FAMILY_SBBF:
        units = popcount_bytes(d, p->table_bytes);
        per = 8;
        break;
    case BF_FAMILY_BLOOM: {
        /* Bits m .. 8 * payload - 1 must be clear. */
        for (uint64_t bit = h->p0; bit < p->table_bytes * 8; bit++)
            if ((d[bit >> 3] >> (bit & 7)) & 1) return BF_ECORRUPT;
        units = popcount_bytes(d, p->table_bytes);
        per = h->p1;
        break;
    }
    case BF_FAMILY_COUNTING: {
        for (uint64_t c = h->p0; c < p->table_bytes * 2; c++)
            if (bf__counting_get(d, c)) return BF_ECORRUPT;
        for (uint64_t i = 0; i < p->table_bytes; i++) units += (d[i] & 0xFu) + (d[i] >> 4);
        per = h->p1;
        break;
    }
    case BF_FAMILY_CUCKOO: {
        bf_cuckoo tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.data = d;
        tmp.num_buckets = h->p0;
        tmp.fp_bits = h->p1;
        tmp.bucket_bytes = h->p1 / 2;
        uint64_t occ = bf__cuckoo_occupied(&tmp) + (p->victim_fp != 0);
        if (occ != p->count) return BF_ECORRUPT;
        units = p->count;
        per = 1;
        break;
    }
    }
    uint64_t most;
    if (!bf_mul_overflow(h->inserted, per, &most) && units > most) return BF_ECORRUPT;
    return BF_OK;
}

static int build(bf_filter **out, const parsed *p, bool view) {
    const bf_native_header *h = &p->h;
    bf_family fam = (bf_family)h->family;
    void *obj = NULL;
    int rc = BF_OK;
    switch (fam) {
    case BF_FAMILY_SBBF:
        if (view) {
            rc = bf_sbbf_view((bf_sbbf **)&obj, p->payload, (size_t)h->p0);
        } else if (!(rc = bf_sbbf_new_bytes((bf_sbbf **)&obj, (size_t)h->p0))) {
            memcpy(((bf_sbbf *)obj)->bits, p->payload, (size_t)h->p0);
        }
        if (!rc) ((bf_sbbf *)obj)->seed = h->seed;
        break;
    case BF_FAMILY_BLOOM:
        if (view) {
            rc = bf__bloom_view((bf_bloom **)&obj, p->payload, h->p0, h->p1);
        } else if (!(rc = bf__bloom_new_empty((bf_bloom **)&obj, h->p0, h->p1))) {
            memcpy(((bf_bloom *)obj)->t.bits, p->payload, (size_t)p->table_bytes);
        }
        break;
    case BF_FAMILY_COUNTING:
        if (view) {
            rc = bf__counting_view((bf_counting **)&obj, p->payload, h->p0, h->p1);
        } else if (!(rc = bf__counting_new_mk((bf_counting **)&obj, h->p0, h->p1))) {
            memcpy(((bf_counting *)obj)->t.bits, p->payload, (size_t)p->table_bytes);
        }
        break;
    case BF_FAMILY_CUCKOO:
        if (view) {
            rc = bf__cuckoo_view((bf_cuckoo **)&obj, p->payload, h->p0, h->p1, p->count,
                                 p->victim_index, p->victim_fp);
        } else if (!(rc = bf_cuckoo_new_buckets((bf_cuckoo **)&obj, h->p0, h->p1))) {
            bf_cuckoo *c = obj;
            memcpy(c->table, p->payload, (size_t)p->table_bytes);
            c->count = p->count;
            c->victim_index = p->victim_index;
            c->victim_fp = p->victim_fp;
        }
        break;
    }
    if (rc) return rc;
    bf_filter *f = NULL;
    if ((rc = wrap(&f, fam, obj, view))) return rc;
    f->seed = h->seed;
    f->inserted = h->inserted;
    *out = f;
    return BF_OK;
}

int bf_filter_load(bf_filter **out, const void *buf, size_t len) {
    if (!out || !buf) return BF_EINVAL;
    parsed p;
    int rc = parse(buf, len, &p);
    if (!rc) rc = verify_payload(&p);
    if (!rc) rc = build(out, &p, false);
    return rc;
}

/* A view that owns base (released by bf_filter_free) once it succeeds; for
 * fileio.c's mapped files. */
BF_HIDDEN int bf__filter_view_owned(bf_filter **out, const void *buf, size_t len, unsigned flags,
                                    void (*release)(void *, size_t), void *base,
                                    size_t base_len);

int bf__filter_view_owned(bf_filter **out, const void *buf, size_t len, unsigned flags,
                          void (*release)(void *, size_t), void *base, size_t base_len) {
    if (!out || !buf) return BF_EINVAL;
    if (flags & ~BF_VIEW_VERIFY_PAYLOAD) return BF_EINVAL;
    parsed p;
    int rc = parse(buf, len, &p);
    if (!rc && (flags & BF_VIEW_VERIFY_PAYLOAD)) rc = verify_payload(&p);
    bf_filter *f = NULL;
    if (!rc) rc = build(&f, &p, true);
    if (rc) return rc;
    f->release = release;
    f->release_base = base;
    f->release_len = base_len;
    *out = f;
    return BF_OK;
}

int bf_filter_view(bf_filter **out, const void *buf, size_t len, unsigned flags) {
    return bf__filter_view_owned(out, buf, len, flags, NULL, NULL, 0);
}
