/* Keys in, answers out, through bf_filter (every family): typed arrays and
 * Arrow byte strings hashed a chunk at a time with the filter's seed and
 * handed to the public bf_filter_*_hashes calls, so the generic layer's own
 * rules (read-only views, insert counts, cuckoo BF_EFULL) apply unchanged. */
#include "hash/key_batch.h"

/* The SBBF inside f (for its hash kernel and to prefetch into), or NULL. */
static const bf_sbbf *sbbf_of(const bf_filter *f) {
    return bf_filter_family(f) == BF_FAMILY_SBBF ? bf_filter_sbbf((bf_filter *)(uintptr_t)f)
                                                 : NULL;
}

static const bf_hash_kernel *hash_kernel_of(const bf_filter *f) {
    const bf_sbbf *s = sbbf_of(f);
    return s ? bf__sbbf_hash_kernel(s) : bf__hash_kernel_default();
}

typedef struct {
    bf_filter *f;
    size_t done;
} insert_ctx;

static int insert_chunk(void *vctx, const uint64_t *h, size_t m, size_t off) {
    (void)off;
    insert_ctx *c = vctx;
    size_t d = 0;
    int rc = bf_filter_insert_hashes(c->f, h, m, &d);
    c->done += d;
    return rc;
}

typedef struct {
    const bf_filter *f;
    uint8_t *out;
    size_t found;
} contains_ctx;

static int contains_chunk(void *vctx, const uint64_t *h, size_t m, size_t off) {
    contains_ctx *c = vctx;
    c->found += bf_filter_contains_hashes(c->f, h, m, c->out ? c->out + off : NULL);
    return BF_OK;
}

static int insert_keys(bf_filter *f, const bf_keys *k, size_t n, size_t *done) {
    if (done) *done = 0;
    if (!f) return BF_EINVAL;
    /* A view refuses before anything is hashed (n = 0 checks only that). */
    int rc = bf_filter_insert_hashes(f, NULL, 0, NULL);
    if (rc) return rc;
    if ((rc = bf__keys_check(k, n))) return rc;
    insert_ctx c = {f, 0};
    rc = bf__keys_pipeline(k, n, bf_filter_seed(f), hash_kernel_of(f), sbbf_of(f), true,
                           insert_chunk, &c);
    if (done) *done = c.done;
    return rc;
}

static size_t contains_keys(const bf_filter *f, const bf_keys *k, size_t n, uint8_t *out) {
    contains_ctx c = {f, out, 0};
    bf__keys_pipeline(k, n, bf_filter_seed(f), hash_kernel_of(f), sbbf_of(f), false, contains_chunk,
                      &c);
    return c.found;
}

#define BF_TYPED_BATCH(suffix, ctype, kind)                                                   \
    int bf_filter_insert_##suffix(bf_filter *f, const ctype *values, size_t n, size_t *done) { \
        bf_keys k = {kind, values, NULL};                                                     \
        return insert_keys(f, &k, n, done);                                                   \
    }                                                                                         \
    size_t bf_filter_contains_##suffix(const bf_filter *f, const ctype *values, size_t n,     \
                                       uint8_t *out) {                                        \
        if (!f || !values) return 0;                                                          \
        bf_keys k = {kind, values, NULL};                                                     \
        return contains_keys(f, &k, n, out);                                                  \
    }
BF_TYPED_BATCH(int32s, int32_t, BF_KEYS_U32)
BF_TYPED_BATCH(int64s, int64_t, BF_KEYS_U64)
BF_TYPED_BATCH(floats, float, BF_KEYS_U32)
BF_TYPED_BATCH(doubles, double, BF_KEYS_U64)
#undef BF_TYPED_BATCH

#define BF_BINARY_BATCH(prefix, otype, kind)                                                  \
    int bf_filter_insert_##prefix(bf_filter *f, const void *data, const otype *offsets,       \
                                  size_t n, size_t *done) {                                   \
        bf_keys k = {kind, data, offsets};                                                    \
        return insert_keys(f, &k, n, done);                                                   \
    }                                                                                         \
    int bf_filter_contains_##prefix(const bf_filter *f, const void *data,                     \
                                    const otype *offsets, size_t n, uint8_t *out,             \
                                    size_t *found) {                                          \
        if (!f) return BF_EINVAL;                                                             \
        bf_keys k = {kind, data, offsets};                                                    \
        int rc = bf__keys_check(&k, n);                                                       \
        if (rc) return rc;                                                                    \
        size_t c = contains_keys(f, &k, n, out);                                              \
        if (found) *found = c;                                                                \
        return BF_OK;                                                                         \
    }
BF_BINARY_BATCH(binary, int32_t, BF_KEYS_BIN32)
BF_BINARY_BATCH(large_binary, int64_t, BF_KEYS_BIN64)
#undef BF_BINARY_BATCH
