/* Keys in, answers out, through bf_filter (every family): typed arrays and
 * Arrow byte strings hashed with the filter's seed. A family with its own
 * key operations (family.h: insert_keys, contains_keys; the SBBF) gets the
 * keys; for the others they are hashed a chunk at a time with the process
 * default hash kernel and handed to the public bf_filter_*_hashes calls,
 * so the generic layer's own rules (read-only views, insert counts, cuckoo
 * BF_EFULL) apply unchanged. This file knows no family. */
#include "hash/key_batch.h"
#include "families/family.h"

typedef struct {
    bf_filter *f;
    size_t done;
} insert_ctx;

static int insert_chunk(void *vctx, const uint64_t *hashes, size_t m, size_t off) {
    (void)off;
    insert_ctx *c = vctx;
    size_t inserted = 0;
    int rc = bf_filter_insert_hashes(c->f, hashes, m, &inserted);
    c->done += inserted;
    return rc;
}

typedef struct {
    const bf_filter *f;
    uint8_t *out;
    size_t found;
} contains_ctx;

static int contains_chunk(void *vctx, const uint64_t *hashes, size_t m, size_t off) {
    contains_ctx *c = vctx;
    c->found += bf_filter_contains_hashes(c->f, hashes, m, c->out ? c->out + off : NULL);
    return BF_OK;
}

static int insert_keys(bf_filter *f, const bf_keys *keys, size_t n, size_t *done) {
    if (done) *done = 0;
    if (!f) return BF_EINVAL;
    /* A view refuses before anything is hashed (n = 0 checks only that). */
    int rc = bf_filter_insert_hashes(f, NULL, 0, NULL);
    if (rc) return rc;
    if ((rc = bf__keys_check(keys, n))) return rc;
    size_t inserted = 0;
    if (f->ops->insert_keys) {
        rc = f->ops->insert_keys(f->obj, keys, n, &inserted);
        bf__filter_count_inserts(f, inserted);
    } else {
        insert_ctx c = {.f = f};
        rc = bf__keys_pipeline(keys, n, bf_filter_seed(f), bf__hash_kernel_default(), NULL, true,
                               insert_chunk, &c);
        inserted = c.done; /* counted by bf_filter_insert_hashes */
    }
    if (done) *done = inserted;
    return rc;
}

static size_t contains_keys(const bf_filter *f, const bf_keys *keys, size_t n, uint8_t *out) {
    if (f->ops->contains_keys) return f->ops->contains_keys(f->obj, keys, n, out);
    contains_ctx c = {.f = f, .out = out};
    bf__keys_pipeline(keys, n, bf_filter_seed(f), bf__hash_kernel_default(), NULL, false,
                      contains_chunk, &c);
    return c.found;
}

#define BF_TYPED_BATCH(suffix, ctype, kind_)                                                  \
    int bf_filter_insert_##suffix(bf_filter *f, const ctype *values, size_t n, size_t *done) { \
        bf_keys keys = {.kind = kind_, .data = values};                                       \
        return insert_keys(f, &keys, n, done);                                                \
    }                                                                                         \
    size_t bf_filter_contains_##suffix(const bf_filter *f, const ctype *values, size_t n,     \
                                       uint8_t *out) {                                        \
        if (!f || !values) return 0;                                                          \
        bf_keys keys = {.kind = kind_, .data = values};                                       \
        return contains_keys(f, &keys, n, out);                                               \
    }
BF_TYPED_BATCH(int32s, int32_t, BF_KEYS_U32)
BF_TYPED_BATCH(int64s, int64_t, BF_KEYS_U64)
BF_TYPED_BATCH(floats, float, BF_KEYS_U32)
BF_TYPED_BATCH(doubles, double, BF_KEYS_U64)
#undef BF_TYPED_BATCH

#define BF_BINARY_BATCH(prefix, otype, kind_)                                                 \
    int bf_filter_insert_##prefix(bf_filter *f, const void *data, const otype *offsets,       \
                                  size_t n, size_t *done) {                                   \
        bf_keys keys = {.kind = kind_, .data = data, .offsets = offsets};                     \
        return insert_keys(f, &keys, n, done);                                                \
    }                                                                                         \
    int bf_filter_contains_##prefix(const bf_filter *f, const void *data,                     \
                                    const otype *offsets, size_t n, uint8_t *out,             \
                                    size_t *found) {                                          \
        if (!f) return BF_EINVAL;                                                             \
        bf_keys keys = {.kind = kind_, .data = data, .offsets = offsets};                     \
        int rc = bf__keys_check(&keys, n);                                                    \
        if (rc) return rc;                                                                    \
        size_t hits = contains_keys(f, &keys, n, out);                                        \
        if (found) *found = hits;                                                             \
        return BF_OK;                                                                         \
    }
BF_BINARY_BATCH(binary, int32_t, BF_KEYS_BIN32)
BF_BINARY_BATCH(large_binary, int64_t, BF_KEYS_BIN64)
#undef BF_BINARY_BATCH
