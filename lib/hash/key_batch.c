/* Keys in, answers out, on the SBBF: typed arrays and Arrow byte strings,
 * hashed inside the batch pipeline. Also the public array-hashing calls.
 * The hash kernels are chosen by the dispatcher (common/dispatch.c). */
#include "hash/key_batch.h"
#include "sbbf/sbbf_partition.h"

/* ---- the public array hashing ------------------------------------------------ */

void bf_hash_int32s(const int32_t *values, size_t n, uint64_t seed, uint64_t *out) {
    if (values && out && n) bf__hash_kernel_default()->u32(values, n, seed, out);
}
void bf_hash_int64s(const int64_t *values, size_t n, uint64_t seed, uint64_t *out) {
    if (values && out && n) bf__hash_kernel_default()->u64(values, n, seed, out);
}
void bf_hash_floats(const float *values, size_t n, uint64_t seed, uint64_t *out) {
    if (values && out && n) bf__hash_kernel_default()->u32(values, n, seed, out);
}
void bf_hash_doubles(const double *values, size_t n, uint64_t seed, uint64_t *out) {
    if (values && out && n) bf__hash_kernel_default()->u64(values, n, seed, out);
}

/* ---- byte strings ---------------------------------------------------------- */

/* Offset i of an Arrow offsets buffer (any alignment). */
static inline int64_t offset_at(const bf_keys *keys, size_t i) {
    if (keys->kind == BF_KEYS_BIN32) {
        int32_t o;
        memcpy(&o, (const uint8_t *)keys->offsets + 4 * i, 4);
        return o;
    }
    int64_t o;
    memcpy(&o, (const uint8_t *)keys->offsets + 8 * i, 8);
    return o;
}

int bf__keys_check(const bf_keys *keys, size_t n) {
    if (keys->kind != BF_KEYS_BIN32 && keys->kind != BF_KEYS_BIN64)
        return keys->data || !n ? BF_OK : BF_EINVAL;
    if (!n) return BF_OK;
    if (!keys->offsets) return BF_EINVAL;
    int64_t first = offset_at(keys, 0), prev = first;
    bool bad = first < 0;
    for (size_t i = 1; i <= n; i++) {
        int64_t o = offset_at(keys, i);
        bad |= o < prev;
        prev = o;
    }
    if (bad) return BF_EINVAL;
    if ((uint64_t)(prev - first) > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    if (!keys->data && prev != first) return BF_EINVAL;
    return BF_OK;
}

/* m hashes of keys start.. into out. Byte strings were checked. */
static void hash_chunk(const bf_keys *keys, const bf_hash_kernel *hash_kernel, uint64_t seed,
                       size_t start, size_t m, uint64_t *out) {
    const uint8_t *data = keys->data;
    switch (keys->kind) {
    case BF_KEYS_U32: hash_kernel->u32(data + 4 * start, m, seed, out); return;
    case BF_KEYS_U64: hash_kernel->u64(data + 8 * start, m, seed, out); return;
    default: {
        /* data is NULL only when every string is empty. */
        int64_t lo = offset_at(keys, start);
        for (size_t j = 0; j < m; j++) {
            int64_t hi = offset_at(keys, start + j + 1);
            size_t len = (size_t)(hi - lo);
            out[j] = bf_xxh64_bytes(len ? data + lo : NULL, len, seed);
            lo = hi;
        }
        return;
    }
    }
}

/* ---- the pipeline ------------------------------------------------------------ */

static void prefetch_head(const bf_sbbf *f, const uint64_t *hashes, size_t m, bool write) {
    if (m > BF_SBBF_PREFETCH_DISTANCE) m = BF_SBBF_PREFETCH_DISTANCE;
    for (size_t j = 0; j < m; j++) bf__sbbf_prefetch(f, hashes[j], write);
}

int bf__keys_pipeline(const bf_keys *keys, size_t n, uint64_t seed,
                      const bf_hash_kernel *hash_kernel, const bf_sbbf *target, bool write,
                      bf_keys_fn fn, void *ctx) {
    if (!n) return BF_OK;
    if (target && bf_sbbf_num_bytes(target) < BF_SBBF_PREFETCH_MIN_BYTES) target = NULL;
    uint64_t buf[2][BF_KEYS_CHUNK];
    unsigned cur = 0;
    hash_chunk(keys, hash_kernel, seed, 0, n < BF_KEYS_CHUNK ? n : BF_KEYS_CHUNK, buf[0]);
    for (size_t i = 0; i < n;) {
        size_t m = n - i < BF_KEYS_CHUNK ? n - i : BF_KEYS_CHUNK;
        size_t next = i + m;
        if (target) prefetch_head(target, buf[cur], m, write);
        if (next < n)
            hash_chunk(keys, hash_kernel, seed, next,
                       n - next < BF_KEYS_CHUNK ? n - next : BF_KEYS_CHUNK, buf[cur ^ 1]);
        int rc = fn(ctx, buf[cur], m, i);
        if (rc < 0) return rc;
        i = next;
        cur ^= 1;
    }
    return BF_OK;
}

/* ---- the SBBF ---------------------------------------------------------------- */

typedef struct {
    const bf_sbbf *f;
    uint8_t *out;
    size_t found;
} contains_ctx;

static int sbbf_contains_chunk(void *vctx, const uint64_t *hashes, size_t m, size_t off) {
    contains_ctx *c = vctx;
    c->found += bf__sbbf_contains_hashes(c->f, hashes, m, c->out ? c->out + off : NULL);
    return BF_OK;
}

static int sbbf_insert_chunk(void *vctx, const uint64_t *hashes, size_t m, size_t off) {
    (void)off;
    bf__sbbf_insert_hashes(vctx, hashes, m);
    return BF_OK;
}

/* Runs the batch partitioned if that pays and the scratch memory can be
 * had; false when nothing was done. */
static bool sbbf_keys_part(const bf_sbbf *f, const bf_keys *keys, size_t n, uint8_t *out,
                           bool write, size_t *found) {
    bf_sbbf_part s;
    if (!bf__sbbf_partition_pays(f, n, out != NULL) || bf__sbbf_part_begin(&s, f, n, out, write))
        return false;
    bf__keys_pipeline(keys, n, bf_sbbf_seed(f), bf__sbbf_hash_kernel(f), NULL, write,
                      bf__part_batch_chunk, &s);
    *found = bf__sbbf_part_end(&s);
    return true;
}

size_t bf__sbbf_contains_keys(const bf_sbbf *f, const bf_keys *keys, size_t n, uint8_t *out) {
    contains_ctx c = {.f = f, .out = out};
    if (n && sbbf_keys_part(f, keys, n, out, false, &c.found)) return c.found;
    bf__keys_pipeline(keys, n, bf_sbbf_seed(f), bf__sbbf_hash_kernel(f), f, false,
                      sbbf_contains_chunk, &c);
    return c.found;
}

int bf__sbbf_insert_keys(bf_sbbf *f, const bf_keys *keys, size_t n) {
    size_t unused;
    if (n && sbbf_keys_part(f, keys, n, NULL, true, &unused)) return BF_OK;
    return bf__keys_pipeline(keys, n, bf_sbbf_seed(f), bf__sbbf_hash_kernel(f), f, true,
                             sbbf_insert_chunk, f);
}

/* The checks of the typed and byte-string calls, then the pipeline. */
static int sbbf_insert_keys(bf_sbbf *f, const bf_keys *keys, size_t n) {
    if (!f) return BF_EINVAL;
    if (bf_sbbf_is_readonly(f)) return BF_EREADONLY;
    int rc = bf__keys_check(keys, n);
    return rc ? rc : bf__sbbf_insert_keys(f, keys, n);
}

#define BF_TYPED_BATCH(suffix, ctype, kind_)                                                \
    int bf_sbbf_insert_##suffix(bf_sbbf *f, const ctype *values, size_t n) {                \
        bf_keys keys = {.kind = kind_, .data = values};                                     \
        return sbbf_insert_keys(f, &keys, n);                                               \
    }                                                                                       \
    size_t bf_sbbf_contains_##suffix(const bf_sbbf *f, const ctype *values, size_t n,       \
                                     uint8_t *out) {                                        \
        if (!f || !values) return 0;                                                        \
        bf_keys keys = {.kind = kind_, .data = values};                                     \
        return bf__sbbf_contains_keys(f, &keys, n, out);                                    \
    }
BF_TYPED_BATCH(int32s, int32_t, BF_KEYS_U32)
BF_TYPED_BATCH(int64s, int64_t, BF_KEYS_U64)
BF_TYPED_BATCH(floats, float, BF_KEYS_U32)
BF_TYPED_BATCH(doubles, double, BF_KEYS_U64)
#undef BF_TYPED_BATCH

#define BF_BINARY_BATCH(prefix, otype, kind_)                                               \
    int bf_sbbf_insert_##prefix(bf_sbbf *f, const void *data, const otype *offsets,         \
                                size_t n) {                                                 \
        bf_keys keys = {.kind = kind_, .data = data, .offsets = offsets};                   \
        return sbbf_insert_keys(f, &keys, n);                                               \
    }                                                                                       \
    int bf_sbbf_contains_##prefix(const bf_sbbf *f, const void *data, const otype *offsets, \
                                  size_t n, uint8_t *out, size_t *found) {                  \
        if (!f) return BF_EINVAL;                                                           \
        bf_keys keys = {.kind = kind_, .data = data, .offsets = offsets};                   \
        int rc = bf__keys_check(&keys, n);                                                  \
        if (rc) return rc;                                                                  \
        size_t hits = bf__sbbf_contains_keys(f, &keys, n, out);                             \
        if (found) *found = hits;                                                           \
        return BF_OK;                                                                       \
    }                                                                                       \
    int bf_hash_##prefix(const void *data, const otype *offsets, size_t n, uint64_t seed,   \
                         uint64_t *out) {                                                   \
        bf_keys keys = {.kind = kind_, .data = data, .offsets = offsets};                   \
        if (!out && n) return BF_EINVAL;                                                    \
        int rc = bf__keys_check(&keys, n);                                                  \
        if (rc || !n) return rc;                                                            \
        hash_chunk(&keys, &bf__hash_kernel_scalar, seed, 0, n, out);                        \
        return BF_OK;                                                                       \
    }
BF_BINARY_BATCH(binary, int32_t, BF_KEYS_BIN32)
BF_BINARY_BATCH(large_binary, int64_t, BF_KEYS_BIN64)
#undef BF_BINARY_BATCH
