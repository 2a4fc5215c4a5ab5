/* The SBBF as a family of the generic layer: its table of operations
 * (family.h) over the SBBF API of sbbf.c, and its native payload (the
 * Parquet bitset, byte for byte; docs/format.md). */
#include "families/family.h"
#include "hash/key_batch.h"

static int size_for(uint64_t n, double fpp, bf_sizing *out) {
    size_t bytes;
    int rc = bf_sbbf_compact_bytes(n, fpp, &bytes);
    if (rc) return rc;
    out->num_bytes = bytes;
    out->k = 8;
    out->model_fpp = bf_sbbf_model_fpp(bytes, n);
    return BF_OK;
}

static int fpp_for(uint64_t num_bytes, uint64_t n, double *out) {
    if (num_bytes < BF_SBBF_BLOCK_BYTES) return BF_EINVAL;
    *out = bf__sbbf_fpp_blocks(num_bytes / BF_SBBF_BLOCK_BYTES, (double)n);
    return BF_OK;
}

static int create(void **out, uint64_t n, double fpp) {
    bf_sbbf *f = NULL;
    int rc = bf_sbbf_new(&f, n, fpp);
    if (rc == BF_OK) *out = f;
    return rc;
}
static void destroy(void *o) { bf_sbbf_free(o); }

/* Straight to the filter's kernel (sbbf.h): the public single-key calls
 * are the header's inline paths here, which a filter of another kernel
 * class than this file's compile flags would only pass through. */
static int insert(void *o, uint64_t h) {
    if (BF_UNLIKELY(!bf__sbbf_is_writable(o))) return BF_EREADONLY;
    return bf__sbbf_insert_hash(o, h);
}
static bool contains(const void *o, uint64_t h) { return bf__sbbf_contains_hash(o, h); }
static int insert_batch(void *o, const uint64_t *h, size_t n, size_t *done) {
    int rc = bf_sbbf_insert_hashes(o, h, n);
    *done = rc == BF_OK ? n : 0;
    return rc;
}
static size_t contains_batch(const void *o, const uint64_t *h, size_t n, uint8_t *out) {
    return bf_sbbf_contains_hashes(o, h, n, out);
}
static int clear(void *o) { return bf_sbbf_clear(o); }
static int merge(void *d, const void *s) { return bf_sbbf_merge(d, s); }

static int stats(const void *o, bf_filter_stats *st) {
    bf_sbbf_stats s;
    int rc = bf_sbbf_get_stats(o, &s);
    if (rc) return rc;
    st->cells = s.num_bytes * 8;
    st->cells_set = s.bits_set;
    st->fill_ratio = s.fill_ratio;
    st->est_keys = s.est_keys;
    st->est_fpp = s.est_fpp;
    st->k = 8;
    st->kernel = bf_sbbf_kernel(o);
    return BF_OK;
}

static uint64_t num_bytes(const void *o) { return bf_sbbf_num_bytes(o); }
static bool is_readonly(const void *o) { return bf_sbbf_is_readonly(o); }
static uint64_t seed(const void *o) { return bf_sbbf_seed(o); }
static int set_seed(void *o, uint64_t s) { return bf_sbbf_set_seed(o, s); }

/* ---- native payload: the bitset (docs/format.md) ------------------------ */

static void encode(const void *o, bf_native_params *p, uint8_t *payload) {
    p->p0 = bf_sbbf_num_bytes(o);
    memcpy(payload, bf_sbbf_bitset(o), (size_t)p->p0);
}

static int check(const bf_native_params *p, const uint8_t *payload, uint64_t len) {
    (void)payload;
    if (p->p0 < BF_SBBF_BLOCK_BYTES || p->p0 % BF_SBBF_BLOCK_BYTES || p->p1 || p->p2 || p->p3)
        return BF_ECORRUPT;
    if (p->p0 > BF_SBBF_MAX_BYTES || p->p0 > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    return len == p->p0 ? BF_OK : BF_ECORRUPT;
}

/* Every bitset is a valid SBBF. */
static int verify(const bf_native_params *p, const uint8_t *payload, uint64_t len) {
    (void)p;
    (void)payload;
    (void)len;
    return BF_OK;
}

static int decode(void **out, const bf_native_params *p, const uint8_t *payload, uint64_t len,
                  uint64_t seed_, bool view) {
    (void)len;
    bf_sbbf *f = NULL;
    int rc = view ? bf__sbbf_view_kernel(&f, payload, (size_t)p->p0, NULL, seed_)
                  : bf__sbbf_new_copy(&f, payload, (size_t)p->p0, seed_);
    if (rc) return rc;
    *out = f;
    return BF_OK;
}

/* Keys hashed with the filter's own hash kernel, and prefetched into its
 * bitset (key_batch.c). */
static int insert_keys(void *o, const bf_keys *keys, size_t n, size_t *done) {
    *done = 0;
    if (bf_sbbf_is_readonly(o)) return BF_EREADONLY;
    int rc = bf__sbbf_insert_keys(o, keys, n);
    if (rc == BF_OK) *done = n;
    return rc;
}
static size_t contains_keys(const void *o, const bf_keys *keys, size_t n, uint8_t *out) {
    return bf__sbbf_contains_keys(o, keys, n, out);
}

/* An insert sets at most 8 bits. */
static uint64_t least_inserts(const void *o) {
    return bf__least_inserts(bf__popcount_bytes(bf_sbbf_bitset(o), bf_sbbf_num_bytes(o)), 8);
}

const bf_family_ops bf__sbbf_ops = {
    .version = BF_FAMILY_OPS_VERSION,
    .id = BF_FAMILY_SBBF,
    .name = "sbbf",
    .size_for = size_for,
    .fpp_for = fpp_for,
    .create = create,
    .destroy = destroy,
    .insert = insert,
    .contains = contains,
    .insert_batch = insert_batch,
    .contains_batch = contains_batch,
    .remove = NULL,
    .remove_batch = NULL,
    .clear = clear,
    .merge = merge,
    .stats = stats,
    .num_bytes = num_bytes,
    .is_readonly = is_readonly,
    .seed = seed,
    .set_seed = set_seed,
    .payload_bytes = num_bytes,
    .encode = encode,
    .check = check,
    .verify = verify,
    .decode = decode,
    .least_inserts = least_inserts,
    .insert_keys = insert_keys,
    .contains_keys = contains_keys,
};

/* ---- the SBBF in the generic interface ----------------------------------- */

bf_sbbf *bf_filter_sbbf(bf_filter *f) { return bf__filter_object(f, &bf__sbbf_ops); }

int bf_filter_from_sbbf(bf_filter **out, bf_sbbf *sbbf) {
    return bf__filter_adopt(out, &bf__sbbf_ops, sbbf);
}
