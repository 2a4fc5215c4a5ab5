/* Keys in, answers out, on the SBBF: typed arrays and Arrow byte strings,
 * hashed inside the batch pipeline. Also the choice of hash kernel and the
 * public array-hashing calls. */
#include "hash/key_batch.h"

/* ---- hash kernels --------------------------------------------------------- */

static const bf_hash_kernel *const hash_kernels[] = {
#if defined(BF_HAVE_XXH_AVX512)
    &bf__hash_kernel_avx512,
#endif
#if defined(BF_HAVE_XXH_AVX2)
    &bf__hash_kernel_avx2,
#endif
#if defined(BF_HAVE_XXH_NEON)
    &bf__hash_kernel_neon,
#endif
    &bf__hash_kernel_scalar,
};
#define NUM_HASH_KERNELS (sizeof hash_kernels / sizeof hash_kernels[0])

size_t bf__hash_kernel_count(void) { return NUM_HASH_KERNELS; }
const bf_hash_kernel *bf__hash_kernel_at(size_t i) {
    return i < NUM_HASH_KERNELS ? hash_kernels[i] : NULL;
}

static bool hash_supported(const bf_hash_kernel *h) {
    return (h->required & ~bf__cpu_features()) == 0;
}

/*
 * Whether a hash kernel is chosen at all: by measurement (docs/kernels.md).
 * AVX-512 hashed 8-byte keys 8.5x faster than scalar on Zen 5 and AVX2
 * 1.15x. The NEON kernel (two lanes, each 64-bit multiply built from five
 * instructions) is compiled and tested bit for bit under qemu, but has not
 * been timed on aarch64 hardware, and a count of its operations against
 * scalar code's (one MUL per multiply) says it would not pay on the common
 * Neoverse cores; so aarch64 hashes with scalar code until it is measured.
 */
static bool hash_pays(const bf_hash_kernel *h) { return strcmp(h->name, "neon") != 0; }

/*
 * The hash kernel of an SBBF kernel: the first compiled-in, supported hash
 * kernel that pays and whose ISA the SBBF kernel's own requirements cover
 * (an avx512 filter hashes with AVX-512 if the CPU also has DQ, else with
 * AVX2; a scalar filter hashes with scalar code).
 */
const bf_hash_kernel *bf__hash_kernel_for(const bf_kernel *k) {
    if (!k) return &bf__hash_kernel_scalar;
    uint32_t allowed = k->required;
    if (allowed & BF_CPU_AVX512) allowed |= BF_CPU_AVX2 | BF_CPU_AVX512DQ;
    for (size_t i = 0; i < NUM_HASH_KERNELS; i++) {
        const bf_hash_kernel *h = hash_kernels[i];
        if ((h->required & ~allowed) == 0 && hash_supported(h) && hash_pays(h)) return h;
    }
    return &bf__hash_kernel_scalar;
}

const bf_hash_kernel *bf__hash_kernel_default(void) {
    return bf__hash_kernel_for(bf__sbbf_kernel_default());
}

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
static inline int64_t offset_at(const bf_keys *k, size_t i) {
    if (k->kind == BF_KEYS_BIN32) {
        int32_t o;
        memcpy(&o, (const uint8_t *)k->offsets + 4 * i, 4);
        return o;
    }
    int64_t o;
    memcpy(&o, (const uint8_t *)k->offsets + 8 * i, 8);
    return o;
}

int bf__keys_check(const bf_keys *k, size_t n) {
    if (k->kind != BF_KEYS_BIN32 && k->kind != BF_KEYS_BIN64) return k->data || !n ? BF_OK : BF_EINVAL;
    if (!n) return BF_OK;
    if (!k->offsets) return BF_EINVAL;
    int64_t first = offset_at(k, 0), prev = first;
    bool bad = first < 0;
    for (size_t i = 1; i <= n; i++) {
        int64_t o = offset_at(k, i);
        bad |= o < prev;
        prev = o;
    }
    if (bad) return BF_EINVAL;
    if ((uint64_t)(prev - first) > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    if (!k->data && prev != first) return BF_EINVAL;
    return BF_OK;
}

/* m hashes of keys start.. into out. Byte strings were checked. */
static void hash_chunk(const bf_keys *k, const bf_hash_kernel *hk, uint64_t seed, size_t start,
                       size_t m, uint64_t *out) {
    switch (k->kind) {
    case BF_KEYS_U32: hk->u32((const uint8_t *)k->data + 4 * start, m, seed, out); return;
    case BF_KEYS_U64: hk->u64((const uint8_t *)k->data + 8 * start, m, seed, out); return;
    default: {
        /* data is NULL only when every string is empty. */
        const uint8_t *data = k->data;
        int64_t lo = offset_at(k, start);
        for (size_t j = 0; j < m; j++) {
            int64_t hi = offset_at(k, start + j + 1);
            size_t len = (size_t)(hi - lo);
            out[j] = bf_xxh64_bytes(len ? data + lo : NULL, len, seed);
            lo = hi;
        }
        return;
    }
    }
}

/* ---- the pipeline ------------------------------------------------------------ */

static void prefetch_head(const bf_sbbf *f, const uint64_t *h, size_t m, int write) {
    if (m > BF_SBBF_PREFETCH_DISTANCE) m = BF_SBBF_PREFETCH_DISTANCE;
    for (size_t j = 0; j < m; j++) {
        const uint8_t *p = f->data + bf_sbbf_block_index(h[j], f->num_blocks) * 32;
        if (write) __builtin_prefetch(p, 1);
        else __builtin_prefetch(p, 0);
    }
}

int bf__keys_pipeline(const bf_keys *k, size_t n, uint64_t seed, const bf_hash_kernel *hk,
                      const bf_sbbf *target, int write, bf_keys_fn fn, void *ctx) {
    if (!n) return BF_OK;
    if (target && target->num_bytes < BF_SBBF_PREFETCH_MIN_BYTES) target = NULL;
    uint64_t buf[2][BF_KEYS_CHUNK];
    unsigned cur = 0;
    hash_chunk(k, hk, seed, 0, n < BF_KEYS_CHUNK ? n : BF_KEYS_CHUNK, buf[0]);
    for (size_t i = 0; i < n;) {
        size_t m = n - i < BF_KEYS_CHUNK ? n - i : BF_KEYS_CHUNK;
        size_t next = i + m;
        if (target) prefetch_head(target, buf[cur], m, write);
        if (next < n)
            hash_chunk(k, hk, seed, next, n - next < BF_KEYS_CHUNK ? n - next : BF_KEYS_CHUNK,
                       buf[cur ^ 1]);
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

static int sbbf_contains_chunk(void *vctx, const uint64_t *h, size_t m, size_t off) {
    contains_ctx *c = vctx;
    c->found += c->f->kernel->contains_batch(c->f->data, c->f->num_blocks, h, m,
                                             c->out ? c->out + off : NULL);
    return BF_OK;
}

static int sbbf_insert_chunk(void *vctx, const uint64_t *h, size_t m, size_t off) {
    (void)off;
    bf_sbbf *f = vctx;
    f->kernel->insert_batch(f->bits, f->num_blocks, h, m);
    return BF_OK;
}

static size_t sbbf_contains_keys(const bf_sbbf *f, const bf_keys *k, size_t n, uint8_t *out) {
    contains_ctx c = {f, out, 0};
    bf__keys_pipeline(k, n, f->seed, bf__hash_kernel_for(f->kernel), f, 0, sbbf_contains_chunk, &c);
    return c.found;
}

static int sbbf_insert_keys(bf_sbbf *f, const bf_keys *k, size_t n) {
    if (!f) return BF_EINVAL;
    if (!f->bits) return BF_EREADONLY;
    int rc = bf__keys_check(k, n);
    if (rc) return rc;
    return bf__keys_pipeline(k, n, f->seed, bf__hash_kernel_for(f->kernel), f, 1,
                             sbbf_insert_chunk, f);
}

#define BF_TYPED_BATCH(suffix, ctype, kind)                                                 \
    int bf_sbbf_insert_##suffix(bf_sbbf *f, const ctype *values, size_t n) {                \
        bf_keys k = {kind, values, NULL};                                                   \
        return sbbf_insert_keys(f, &k, n);                                                  \
    }                                                                                       \
    size_t bf_sbbf_contains_##suffix(const bf_sbbf *f, const ctype *values, size_t n,       \
                                     uint8_t *out) {                                        \
        if (!f || !values) return 0;                                                        \
        bf_keys k = {kind, values, NULL};                                                   \
        return sbbf_contains_keys(f, &k, n, out);                                           \
    }
BF_TYPED_BATCH(int32s, int32_t, BF_KEYS_U32)
BF_TYPED_BATCH(int64s, int64_t, BF_KEYS_U64)
BF_TYPED_BATCH(floats, float, BF_KEYS_U32)
BF_TYPED_BATCH(doubles, double, BF_KEYS_U64)
#undef BF_TYPED_BATCH

#define BF_BINARY_BATCH(prefix, otype, kind)                                                \
    int bf_sbbf_insert_##prefix(bf_sbbf *f, const void *data, const otype *offsets,         \
                                size_t n) {                                                 \
        bf_keys k = {kind, data, offsets};                                                  \
        return sbbf_insert_keys(f, &k, n);                                                  \
    }                                                                                       \
    int bf_sbbf_contains_##prefix(const bf_sbbf *f, const void *data, const otype *offsets, \
                                  size_t n, uint8_t *out, size_t *found) {                  \
        if (!f) return BF_EINVAL;                                                           \
        bf_keys k = {kind, data, offsets};                                                  \
        int rc = bf__keys_check(&k, n);                                                     \
        if (rc) return rc;                                                                  \
        size_t c = sbbf_contains_keys(f, &k, n, out);                                       \
        if (found) *found = c;                                                              \
        return BF_OK;                                                                       \
    }                                                                                       \
    int bf_hash_##prefix(const void *data, const otype *offsets, size_t n, uint64_t seed,   \
                         uint64_t *out) {                                                   \
        bf_keys k = {kind, data, offsets};                                                  \
        if (!out && n) return BF_EINVAL;                                                    \
        int rc = bf__keys_check(&k, n);                                                     \
        if (rc || !n) return rc;                                                            \
        hash_chunk(&k, &bf__hash_kernel_scalar, seed, 0, n, out);                           \
        return BF_OK;                                                                       \
    }
BF_BINARY_BATCH(binary, int32_t, BF_KEYS_BIN32)
BF_BINARY_BATCH(large_binary, int64_t, BF_KEYS_BIN64)
#undef BF_BINARY_BATCH
