#include "cf_chain.h"

#include <stdlib.h>
#include <string.h>

#include "codec.h"

/* Capacity of sub-filter i: capacity * expansion^i; false on overflow. */
static bool sub_capacity(const bfm_cf *c, uint32_t i, uint64_t *out) {
    uint64_t cap = c->capacity;
    for (uint32_t k = 0; k < i; k++) {
        if (c->expansion == 0 || cap > UINT64_MAX / c->expansion) return false;
        cap *= c->expansion;
    }
    *out = cap;
    return true;
}

static int append(bfm_cf *c, bf_cuckoo *f) {
    if (c->n == c->slots) {
        uint32_t slots = c->slots ? 2 * c->slots : 4;
        bf_cuckoo **nf = realloc(c->f, slots * sizeof *nf);
        if (!nf) return BF_ENOMEM;
        c->f = nf;
        c->slots = slots;
    }
    c->f[c->n++] = f;
    return BF_OK;
}

unsigned bfm_cf_fp_bits(unsigned bucket_size, double fpp) {
    if (bucket_size < 1 || bucket_size > BFM_CF_MAX_BUCKET_SIZE || !(fpp > 0 && fpp < 1)) return 0;
    for (unsigned f = 4; f <= 32; f++)
        if (bf_cuckoo_model_fpp(bucket_size, f, 1.0) <= fpp) return f;
    return 0;
}

/* Every sub-filter inserts with the chain's kick limit and undoes a
 * failed insert's kicks (the rollback policy): a failed add leaves the
 * sub-filter open for other items, and the add goes on to an older one or
 * a new one, as in RedisBloom. The victim policy would close a sub-filter
 * for good on its first failure, which an item added many times (its two
 * buckets filling with its copies) brings about at any load. Not stored in
 * the header: every sub-filter the module makes or loads is set up so. */
static int setup(bf_cuckoo *f, uint32_t max_kicks) {
    int rc = bf_cuckoo_set_max_kicks(f, max_kicks);
    return rc != BF_OK ? rc : bf_cuckoo_set_full_policy(f, BF_CUCKOO_FULL_ROLLBACK);
}

/* Adds the next sub-filter, sized for capacity * expansion^n items at the
 * chain's kick limit (so one sub-filter takes its capacity in distinct
 * items at RedisBloom's 20 kicks too). */
static int grow(bfm_cf *c) {
    uint64_t cap;
    if (c->n >= BFM_CF_MAX_FILTERS || !sub_capacity(c, c->n, &cap)) return BF_ETOOBIG;
    unsigned bits = bfm_cf_fp_bits(c->bucket_size, c->fpp);
    if (bits == 0) return BF_EINVAL;
    bf_cuckoo_sizing z;
    int rc = bf_cuckoo_size_for_kicks(cap, c->fpp, c->bucket_size, bits, 0, c->max_kicks, &z);
    if (rc != BF_OK) return rc;
    if (bfm_cf_total_bytes(c) + z.num_bytes > BFM_CF_MAX_TOTAL_BYTES) return BF_ETOOBIG;
    bf_cuckoo *f;
    rc = bf_cuckoo_new_table(&f, z.num_buckets, z.bucket_size, z.fp_bits, 0);
    if (rc != BF_OK) return rc;
    rc = setup(f, c->max_kicks);
    if (rc == BF_OK) rc = append(c, f);
    if (rc != BF_OK) bf_cuckoo_free(f);
    return rc;
}

int bfm_cf_new(bfm_cf **out, uint64_t capacity, double fpp, unsigned bucket_size,
               unsigned expansion, unsigned max_kicks, uint64_t seed) {
    if (!out || capacity == 0 || bfm_cf_fp_bits(bucket_size, fpp) == 0 ||
        expansion > BFM_CF_MAX_EXPANSION || max_kicks < 1 || max_kicks > 65535)
        return BF_EINVAL;
    bfm_cf *c = calloc(1, sizeof *c);
    if (!c) return BF_ENOMEM;
    c->capacity = capacity;
    c->fpp = fpp;
    c->bucket_size = bucket_size;
    c->expansion = expansion;
    c->max_kicks = max_kicks;
    c->seed = seed;
    int rc = grow(c);
    if (rc != BF_OK) {
        bfm_cf_free(c);
        return rc;
    }
    *out = c;
    return BF_OK;
}

void bfm_cf_free(bfm_cf *c) {
    if (!c) return;
    for (uint32_t i = 0; i < c->n; i++) bf_cuckoo_free(c->f[i]);
    free(c->f);
    free(c);
}

bool bfm_cf_contains(const bfm_cf *c, uint64_t hash) {
    for (uint32_t i = c->n; i-- > 0;)
        if (bf_cuckoo_contains_hash(c->f[i], hash)) return true;
    return false;
}

void bfm_cf_contains_hashes(const bfm_cf *c, const uint64_t *hashes, size_t n, uint8_t *out) {
    bf_cuckoo_contains_hashes(c->f[c->n - 1], hashes, n, out);
    if (c->n == 1) return;
    /* Older sub-filters: the undecided keys, a group at a time. */
    uint64_t h[256];
    uint8_t hit[256];
    size_t idx[256];
    for (uint32_t i = c->n - 1; i-- > 0;) {
        size_t k = 0;
        for (size_t j = 0; j <= n; j++) {
            if (j < n && !out[j]) {
                h[k] = hashes[j];
                idx[k++] = j;
            }
            if (k == 256 || (j == n && k)) {
                bf_cuckoo_contains_hashes(c->f[i], h, k, hit);
                for (size_t m = 0; m < k; m++) out[idx[m]] |= hit[m];
                k = 0;
            }
        }
    }
}

bfm_cf_insert_status bfm_cf_insert_upto(bfm_cf *c, uint64_t hash, bool nx, uint32_t max_filters) {
    if (nx && bfm_cf_contains(c, hash)) return BFM_CF_EXISTS;
    /* The newest sub-filter first, then older ones with room (after
     * deletes); only when every one is full does the chain grow. */
    for (uint32_t i = c->n; i-- > 0;)
        if (bf_cuckoo_insert_hash(c->f[i], hash) == BF_OK) return BFM_CF_INSERTED;
    if (c->expansion == 0 || c->n >= max_filters) return BFM_CF_NOSPACE;
    if (grow(c) != BF_OK) return BFM_CF_NOMEM;
    return bf_cuckoo_insert_hash(c->f[c->n - 1], hash) == BF_OK ? BFM_CF_INSERTED : BFM_CF_NOSPACE;
}

uint64_t bfm_cf_count(const bfm_cf *c, uint64_t hash) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < c->n; i++) n += bf_cuckoo_count_hash(c->f[i], hash);
    return n;
}

bool bfm_cf_delete(bfm_cf *c, uint64_t hash) {
    for (uint32_t i = c->n; i-- > 0;) {
        if (bf_cuckoo_remove_hash(c->f[i], hash) == BF_OK) {
            c->deletes++;
            return true;
        }
    }
    return false;
}

uint32_t bfm_cf_compact(bfm_cf *c) {
    uint32_t freed = 0;
    while (c->n > 1 && bf_cuckoo_count(c->f[c->n - 1]) == 0) {
        bf_cuckoo_free(c->f[--c->n]);
        c->f[c->n] = NULL;
        freed++;
    }
    return freed;
}

uint64_t bfm_cf_items(const bfm_cf *c) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < c->n; i++) n += bf_cuckoo_count(c->f[i]);
    return n;
}

uint64_t bfm_cf_slots(const bfm_cf *c) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < c->n; i++)
        n += bf_cuckoo_num_buckets(c->f[i]) * bf_cuckoo_bucket_size(c->f[i]);
    return n;
}

uint64_t bfm_cf_total_bytes(const bfm_cf *c) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < c->n; i++) n += bf_cuckoo_table_bytes(c->f[i]);
    return n;
}

size_t bfm_cf_mem_usage(const bfm_cf *c) {
    /* The chain, its array, and each sub-filter's object (with its kick
     * path, 8 bytes a kick) beside its table. */
    return sizeof *c + c->slots * sizeof *c->f + c->n * ((size_t)128 + 8 * (size_t)c->max_kicks) +
           (size_t)bfm_cf_total_bytes(c);
}

double bfm_cf_est_fpp(const bfm_cf *c) {
    /* A foreign item is absent from the chain if every sub-filter, at its
     * own load, misses it (the library's model of one cuckoo filter). */
    double miss = 1.0;
    for (uint32_t i = 0; i < c->n; i++) {
        const bf_cuckoo *f = c->f[i];
        unsigned b = bf_cuckoo_bucket_size(f);
        double load = (double)bf_cuckoo_count(f) / ((double)bf_cuckoo_num_buckets(f) * b);
        /* A full table's victim slot holds one item beyond its slots. */
        miss *= 1.0 - bf_cuckoo_model_fpp(b, bf_cuckoo_fingerprint_bits(f), load < 1 ? load : 1);
    }
    return 1.0 - miss;
}

const uint8_t *bfm_cf_table(const bfm_cf *c, size_t i, uint64_t *num_bytes) {
    if (i >= c->n) {
        *num_bytes = 0;
        return NULL;
    }
    *num_bytes = bf_cuckoo_table_bytes(c->f[i]);
    return bf_cuckoo_table(c->f[i]);
}

size_t bfm_cf_header_size(const bfm_cf *c) { return 56 + 40 * (size_t)c->n + 8; }

bool bfm_cf_header_size_ok(size_t len) {
    return len >= 56 + 40 + 8 && (len - 56 - 8) % 40 == 0 &&
           (len - 56 - 8) / 40 <= BFM_CF_MAX_FILTERS;
}

void bfm_cf_header_write(const bfm_cf *c, uint8_t *buf) {
    bfm_wr w = {buf, 0};
    for (int i = 0; i < 4; i++) bfm_put8(&w, (uint8_t)BFM_CF_MAGIC[i]);
    bfm_put8(&w, BFM_CF_HEADER_VERSION);
    bfm_put8(&w, 0);
    bfm_put8(&w, 0);
    bfm_put8(&w, 0);
    bfm_put32(&w, c->expansion);
    bfm_put32(&w, c->max_kicks);
    bfm_put32(&w, c->n);
    bfm_put32(&w, c->bucket_size);
    bfm_putf64(&w, c->fpp);
    bfm_put64(&w, c->capacity);
    bfm_put64(&w, c->seed);
    bfm_put64(&w, c->deletes);
    for (uint32_t i = 0; i < c->n; i++) {
        bf_cuckoo_state s;
        bf_cuckoo_get_state(c->f[i], &s);
        bfm_put64(&w, bf_cuckoo_num_buckets(c->f[i]));
        bfm_put32(&w, bf_cuckoo_fingerprint_bits(c->f[i]));
        bfm_put32(&w, s.victim_fp);
        bfm_put64(&w, s.count);
        bfm_put64(&w, s.victim_index);
        bfm_put64(&w, s.rng);
    }
    bfm_put_checksum(&w);
}

/* Whether a sub-filter's fingerprint size is one the module writes:
 * bfm_cf_fp_bits of the chain's bucket size and FPR target (so a header
 * cannot claim a weaker filter than it promises), or, in buckets of 4, the
 * 8, 12 or 16 bits of the sub-filters made before bucket sizes were
 * honoured (version 1 headers; a chain loaded from one keeps them when it
 * is saved again as version 2). */
static bool bits_ok(uint8_t version, uint32_t bits, uint32_t bucket_size, double fpp) {
    bool legacy = bucket_size == BFM_CF_V1_BUCKET_SIZE && (bits == 8 || bits == 12 || bits == 16);
    if (version == 1) return legacy;
    return legacy || bits == bfm_cf_fp_bits(bucket_size, fpp);
}

int bfm_cf_from_header(bfm_cf **out, const void *buf, size_t len) {
    if (!buf || len < 64 || memcmp(buf, BFM_CF_MAGIC, 4) != 0) return BF_EFORMAT;
    bfm_rd r = {buf, len, 4, false};
    uint8_t version = bfm_get8(&r);
    if (version > BFM_CF_HEADER_VERSION) return BF_EVERSION;
    if (version == 0) return BF_EFORMAT;
    uint8_t res0 = bfm_get8(&r), res1 = bfm_get8(&r), res2 = bfm_get8(&r);
    uint32_t expansion = bfm_get32(&r), max_kicks = bfm_get32(&r), n = bfm_get32(&r);
    uint32_t bucket_size = bfm_get32(&r);
    double fpp = bfm_getf64(&r);
    uint64_t capacity = bfm_get64(&r), seed = bfm_get64(&r), deletes = bfm_get64(&r);
    if (n == 0 || n > BFM_CF_MAX_FILTERS || len != 56 + 40 * (size_t)n + 8) return BF_EFORMAT;
    if (!bfm_checksum_ok(buf, len)) return BF_ECORRUPT;
    if (version == 1) {
        if (bucket_size != 0) return BF_ECORRUPT; /* reserved in v1 */
        bucket_size = BFM_CF_V1_BUCKET_SIZE;
    }
    if (res0 || res1 || res2 || bucket_size < 1 || bucket_size > BFM_CF_MAX_BUCKET_SIZE ||
        capacity == 0 || !(fpp > 0 && fpp < 1) || expansion > BFM_CF_MAX_EXPANSION ||
        max_kicks < 1 || max_kicks > 65535 || (expansion == 0 && n > 1))
        return BF_ECORRUPT;
    bfm_cf *c = calloc(1, sizeof *c);
    if (!c) return BF_ENOMEM;
    c->capacity = capacity;
    c->fpp = fpp;
    c->bucket_size = bucket_size;
    c->expansion = expansion;
    c->max_kicks = max_kicks;
    c->seed = seed;
    c->deletes = deletes;
    int rc = BF_OK;
    uint64_t total = 0;
    for (uint32_t i = 0; i < n && rc == BF_OK; i++) {
        uint64_t buckets = bfm_get64(&r);
        uint32_t bits = bfm_get32(&r);
        bf_cuckoo_state s;
        s.victim_fp = bfm_get32(&r);
        s.count = bfm_get64(&r);
        s.victim_index = bfm_get64(&r);
        s.rng = bfm_get64(&r);
        if (!bits_ok(version, bits, bucket_size, fpp)) {
            rc = BF_ECORRUPT;
            break;
        }
        /* The table's bits, bounded before anything is allocated. */
        uint64_t bucket_bits = (uint64_t)bucket_size * bits;
        if (buckets == 0 || buckets > BFM_CF_MAX_TOTAL_BYTES * 8 / bucket_bits ||
            total + buckets * bucket_bits / 8 > BFM_CF_MAX_TOTAL_BYTES) {
            rc = BF_ETOOBIG;
            break;
        }
        bf_cuckoo *f;
        rc = bf_cuckoo_new_table(&f, buckets, bucket_size, bits, 0);
        if (rc != BF_OK) break;
        total += bf_cuckoo_table_bytes(f);
        rc = total > BFM_CF_MAX_TOTAL_BYTES ? BF_ETOOBIG : setup(f, max_kicks);
        if (rc == BF_OK) rc = bf_cuckoo_set_state(f, &s);
        if (rc == BF_OK) rc = append(c, f);
        if (rc != BF_OK) bf_cuckoo_free(f);
    }
    if (rc != BF_OK) {
        bfm_cf_free(c);
        return rc;
    }
    *out = c;
    return BF_OK;
}

/* ---- The dump description ---- */

static size_t ops_header_size(const void *v) { return bfm_cf_header_size(v); }
static void ops_header_write(const void *v, uint8_t *buf) { bfm_cf_header_write(v, buf); }
static int ops_from_header(void **out, const void *buf, size_t len) {
    bfm_cf *c = NULL;
    int rc = bfm_cf_from_header(&c, buf, len);
    *out = c;
    return rc;
}
static size_t ops_num_parts(const void *v) { return ((const bfm_cf *)v)->n; }
static const uint8_t *ops_part(const void *v, size_t i, uint64_t *len) {
    return bfm_cf_table(v, i, len);
}
static int ops_write_part(void *v, size_t i, uint64_t off, const void *src, size_t len) {
    bfm_cf *c = v;
    return i < c->n ? bf_cuckoo_write_table(c->f[i], off, src, len) : BF_EINVAL;
}
static void ops_free(void *v) { bfm_cf_free(v); }

const bfm_dump_ops bfm_cf_ops = {
    .what = "CF",
    .loadchunk_cmd = "CF.LOADCHUNK",
    /* 2: the header holds the bucket size (v2); version 1 values, buckets
     * of 4, still load. */
    .encver = 2,
    .header_size = ops_header_size,
    .header_write = ops_header_write,
    .from_header = ops_from_header,
    .num_parts = ops_num_parts,
    .part = ops_part,
    .write_part = ops_write_part,
    .free = ops_free,
};
