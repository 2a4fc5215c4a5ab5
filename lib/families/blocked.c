/*
 * The blocked family: every shape of the blocked design space (B, S, z, k)
 * in one object, its public API (bf_blocked_*), and its row of the family
 * table. The probe is blocked/probe.h's, the one source the SBBF's scalar
 * kernel also instantiates; here it is instantiated once for the shapes
 * listed in `shapes` (the compiler unrolls each) and once for any shape
 * (the shape read from the object). The models and sizing are in
 * blocked_model.c; the native payload is in docs/format.md.
 */
#include "families/family.h"
#include "blocked/blocked.h"
#include "hash/key_batch.h"
#include "sbbf/sbbf_partition.h"

/* ---- shapes --------------------------------------------------------------- */

const char *bf_blocked_shape_rule(const bf_blocked_shape *s) {
    if (!s) return "the shape is NULL";
    const unsigned B = s->block_bits, S = s->sectors, Z = s->groups, K = s->k;
    if (B != 32 && B != 64 && B != 128 && B != 256 && B != 512)
        return "block_bits must be 32, 64, 128, 256 or 512";
    if (S == 0 || B % S || (S > 1 && B / S != 32 && B / S != 64))
        return "sectors must be 1 or divide block_bits into sectors of 32 or 64 bits";
    if (Z == 0 || S % Z) return "groups must divide sectors";
    if (K == 0 || K % Z) return "k must be a positive multiple of groups";
    if (K > BF_BLOCKED_MAX_K) return "k must be at most 32";
    return NULL;
}

int bf_blocked_shape_check(const bf_blocked_shape *s) {
    return bf_blocked_shape_rule(s) ? BF_ESHAPE : BF_OK;
}

static bool same_shape(const bf_blocked_shape *a, const bf_blocked_shape *b) {
    return a->block_bits == b->block_bits && a->sectors == b->sectors &&
           a->groups == b->groups && a->k == b->k;
}

/* ---- the probe, instantiated -------------------------------------------------- */

/* How far ahead batch loops prefetch, from which filter size (the SBBF's). */
#define PREFETCH_DISTANCE BF_SBBF_PREFETCH_DISTANCE
#define PREFETCH_MIN_BYTES BF_SBBF_PREFETCH_MIN_BYTES

static inline const uint8_t *block_of(const bf_blocked *f, uint64_t h, unsigned B) {
    return f->data + bf__blocked_block_index(h, f->num_blocks) * (B / 8);
}

/* The four operations of one shape; B, S, Z, K are constants or, for the
 * generic instance, the object's shape. */
#define BLOCKED_IMPL(name, B, S, Z, K)                                                         \
    static bool contains_##name(const bf_blocked *f, uint64_t h) {                             \
        return bf__blocked_test(block_of(f, h, B), (uint32_t)h, B, S, Z, K, bf__blocked_salts); \
    }                                                                                          \
    static void insert_##name(bf_blocked *f, uint64_t h) {                                     \
        uint8_t *p = f->bits + bf__blocked_block_index(h, f->num_blocks) * ((B) / 8);          \
        bf__blocked_set(p, (uint32_t)h, B, S, Z, K, bf__blocked_salts);                        \
    }                                                                                          \
    /* The batches read the object once: stores through out (bytes) could   \
     * alias it, and would make the compiler reload it for every key. */     \
    static void insert_batch_##name(bf_blocked *f, const uint64_t *hs, size_t n) {             \
        uint8_t *const bits = f->bits;                                                         \
        const uint64_t nb = f->num_blocks;                                                     \
        const unsigned b_ = (B), s_ = (S), z_ = (Z), k_ = (K);                                 \
        const bool pf = f->num_bytes >= PREFETCH_MIN_BYTES;                                    \
        for (size_t i = 0; i < n; i++) {                                                       \
            if (pf && i + PREFETCH_DISTANCE < n)                                               \
                __builtin_prefetch(bits + bf__blocked_block_index(bf_sbbf_load_hash(          \
                                              hs + i + PREFETCH_DISTANCE), nb) * (b_ / 8), 1);  \
            uint64_t h = bf_sbbf_load_hash(hs + i);                                            \
            bf__blocked_set(bits + bf__blocked_block_index(h, nb) * (b_ / 8), (uint32_t)h, b_,   \
                            s_, z_, k_, bf__blocked_salts);                                    \
        }                                                                                      \
    }                                                                                          \
    static size_t contains_batch_##name(const bf_blocked *f, const uint64_t *hs, size_t n,     \
                                        uint8_t *out) {                                        \
        const uint8_t *const data = f->data;                                                   \
        const uint64_t nb = f->num_blocks;                                                     \
        const unsigned b_ = (B), s_ = (S), z_ = (Z), k_ = (K);                                 \
        const bool pf = f->num_bytes >= PREFETCH_MIN_BYTES;                                    \
        size_t hits = 0;                                                                       \
        for (size_t i = 0; i < n; i++) {                                                       \
            if (pf && i + PREFETCH_DISTANCE < n)                                               \
                __builtin_prefetch(data + bf__blocked_block_index(bf_sbbf_load_hash(          \
                                              hs + i + PREFETCH_DISTANCE), nb) * (b_ / 8), 0);  \
            uint64_t h = bf_sbbf_load_hash(hs + i);                                            \
            bool hit = bf__blocked_test(data + bf__blocked_block_index(h, nb) * (b_ / 8),      \
                                        (uint32_t)h, b_, s_, z_, k_, bf__blocked_salts);       \
            if (out) out[i] = (uint8_t)hit;                                                    \
            hits += hit;                                                                       \
        }                                                                                      \
        return hits;                                                                           \
    }

#define ROW(name, B, S, Z, K) \
    {{B, S, Z, K}, contains_##name, insert_##name, insert_batch_##name, contains_batch_##name}

/* The generic instance, and the shapes compiled for (BF_BLOCKED_SHAPES). */
BLOCKED_IMPL(any, f->shape.block_bits, f->shape.sectors, f->shape.groups, f->shape.k)
BF_BLOCKED_SHAPES(BLOCKED_IMPL)

#define ROW_ITEM(name, B, S, Z, K) ROW(name, B, S, Z, K),
static const bf_blocked_impl generic = ROW(any, 0, 0, 0, 0);
static const bf_blocked_impl shapes[] = {BF_BLOCKED_SHAPES(ROW_ITEM)};

/* The SBBF's shape has the SBBF's bits, so it runs the SBBF's kernel (the
 * one registry, lib/common/dispatch.c: AVX-512, AVX2, NEON or scalar, as
 * BLOCKFILTER_KERNEL or the CPU says); the block index is the same up to
 * 2^32 blocks, which the size limit keeps. */
static bool contains_sbbf(const bf_blocked *f, uint64_t h) {
    return f->kernel->contains(f->data, f->num_blocks, h);
}
static void insert_sbbf(bf_blocked *f, uint64_t h) { f->kernel->insert(f->bits, f->num_blocks, h); }
static void insert_batch_sbbf(bf_blocked *f, const uint64_t *h, size_t n) {
    f->kernel->insert_batch(f->bits, f->num_blocks, h, n);
}
static size_t contains_batch_sbbf(const bf_blocked *f, const uint64_t *h, size_t n,
                                  uint8_t *out) {
    return f->kernel->contains_batch(f->data, f->num_blocks, h, n, out);
}
static const bf_blocked_impl sbbf_kernel = ROW(sbbf, 256, 8, 8, 8);
_Static_assert(BF_BLOCKED_MAX_BYTES / 32 <= (uint64_t)1 << 32, "the SBBF's block index");

const bf_blocked_impl *bf__blocked_impl_for(const bf_blocked_shape *s, bool specialised) {
    if (specialised)
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
            if (same_shape(&shapes[i].shape, s)) return &shapes[i];
    return &generic;
}

/* ---- making filters ------------------------------------------------------------ */

static uint64_t block_bytes(const bf_blocked_shape *s) { return s->block_bits / 8; }

static int check_bytes(const bf_blocked_shape *s, uint64_t bytes) {
    if (bytes < block_bytes(s) || bytes % block_bytes(s)) return BF_EINVAL;
    if (bytes > BF_BLOCKED_MAX_BYTES || bytes > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    return BF_OK;
}

/* Over bitset (a read-only view) or, with bitset NULL, over zeroed memory
 * of its own. */
static int make(bf_blocked **out, const bf_blocked_shape *s, const void *bitset, uint64_t bytes,
                uint64_t seed) {
    if (!out) return BF_EINVAL;
    if (bf_blocked_shape_check(s)) return BF_ESHAPE;
    int rc = check_bytes(s, bytes);
    if (rc) return rc;
    bf_blocked *f = bf__calloc(1, sizeof *f);
    if (!f) return BF_ENOMEM;
    if (bitset) {
        f->data = bitset;
    } else {
        if ((rc = bf__alloc_bits(&f->region, (size_t)bytes))) {
            bf__free(f);
            return rc;
        }
        f->bits = f->region.ptr;
        f->data = f->bits;
    }
    f->shape = *s;
    f->num_bytes = bytes;
    f->num_blocks = bytes / block_bytes(s);
    f->seed = seed;
    f->impl = bf__blocked_impl_for(s, true);
    const bf_kernel *k = bf__sbbf_kernel_default();
    if (same_shape(s, &sbbf_kernel.shape) && k) {
        f->kernel = k;
        f->impl = &sbbf_kernel;
    }
    /* Batch lookups and inserts with the process kernel's SIMD (fewer than
     * 2^32 blocks). */
#if defined(BF_HAVE_AVX512)
    else if (k == &bf__sbbf_kernel_avx512 && f->num_blocks < ((uint64_t)1 << 32))
        f->simd_contains = bf__blocked_avx512_contains_for(s, true),
        f->simd_insert = bf__blocked_avx512_insert_for(s, true), f->simd_kernel = k->name;
#endif
#if defined(BF_HAVE_AVX2)
    else if (k == &bf__sbbf_kernel_avx2 && f->num_blocks < ((uint64_t)1 << 32))
        f->simd_contains = bf__blocked_avx2_contains_for(s, true),
        f->simd_insert = bf__blocked_avx2_insert_for(s, true), f->simd_kernel = k->name;
#endif
#if defined(BF_HAVE_NEON)
    else if (k == &bf__sbbf_kernel_neon && f->num_blocks < ((uint64_t)1 << 32))
        f->simd_contains = bf__blocked_neon_contains_for(s, true),
        f->simd_insert = bf__blocked_neon_insert_for(s, true), f->simd_kernel = k->name;
#endif
    *out = f;
    return BF_OK;
}

int bf_blocked_new_bytes(bf_blocked **out, uint64_t bytes, const bf_blocked_shape *s) {
    return make(out, s, NULL, bytes, 0);
}

int bf_blocked_new(bf_blocked **out, uint64_t n, double fpp, const bf_blocked_shape *s) {
    if (!out) return BF_EINVAL;
    uint64_t bytes;
    int rc = bf_blocked_bits_for(s, n, fpp, &bytes);
    return rc ? rc : make(out, s, NULL, bytes, 0);
}

void bf_blocked_free(bf_blocked *f) {
    if (!f) return;
    bf__part_cache_drop(&f->part_scratch);
    bf__free_bits(&f->region);
    bf__free(f);
}

/* ---- queries and updates ---------------------------------------------------------- */

int bf_blocked_insert_hash(bf_blocked *f, uint64_t hash) {
    if (BF_UNLIKELY(!f->bits)) return BF_EREADONLY;
    f->impl->insert(f, hash);
    return BF_OK;
}

bool bf_blocked_contains_hash(const bf_blocked *f, uint64_t hash) {
    return f->impl->contains(f, hash);
}

/* The batch lookup and the batch insert of f: SIMD if it has them. */
static size_t contains_batch_of(const bf_blocked *f, const uint64_t *h, size_t n, uint8_t *out) {
    return f->simd_contains ? f->simd_contains(f, h, n, out) : f->impl->contains_batch(f, h, n, out);
}
static void insert_batch_of(bf_blocked *f, const uint64_t *h, size_t n) {
    if (f->simd_insert) f->simd_insert(f, h, n);
    else f->impl->insert_batch(f, h, n);
}

/* ---- partitioned batches (common/partition.h, docs/kernels.md) -------------------- */

/* The block index, bf__blocked_block_index, never decreases as the hash
 * grows (the top half times the block count up to 2^32 blocks, the high
 * half of the full product beyond), so region r, the hashes whose top
 * bits are r, is one contiguous run of blocks for every shape: the bits
 * are those of the plain path; only the order of the probes changes. The
 * SBBF's tuning and automatic rule apply (sbbf_partition.h), and the
 * batch itself is common/partition.c's. */

int bf_blocked_set_partitioning(bf_blocked *f, int mode) {
    if (!f || mode < BF_PARTITION_AUTO || mode > BF_PARTITION_OFF) return BF_EINVAL;
    f->partition_mode = mode;
    /* Not concurrent with f's batches: gives the kept scratch back, as
     * bf_sbbf_set_partitioning does. */
    bf__part_cache_drop(&f->part_scratch);
    return BF_OK;
}

int bf_blocked_partitioning(const bf_blocked *f) {
    return f ? f->partition_mode : BF_PARTITION_AUTO;
}

/* The blocked filter as the partitioned batch sees it. */
static size_t part_contains(const void *f, const uint64_t *h, size_t m, uint8_t *out) {
    return contains_batch_of(f, h, m, out);
}
static void part_insert(void *vf, const uint64_t *h, size_t m) {
    insert_batch_of(vf, h, m);
}

/* Starts a partitioned batch of n keys if that pays and the scratch memory
 * can be had: contains (write false; out may be NULL) or insert (write
 * true, f writable). False: nothing started, take the plain path. */
static bool part_begin(bf_part_batch *s, const bf_blocked *f, size_t n, uint8_t *out,
                       bool write) {
    const bf_part_tuning *tun = &bf__sbbf_part_tuning;
    if (!n || !bf__part_pays(f->partition_mode, f->num_bytes, n, out != NULL, tun)) return false;
    bf_part_target t = {.f = f, .data = f->data, .num_blocks = f->num_blocks,
                        .block_bytes = f->shape.block_bits / 8, .num_bytes = f->num_bytes,
                        .block_index = bf__blocked_block_index, .contains = part_contains,
                        .insert = part_insert,
                        /* The object is the library's own (never const
                         * memory); the cache is taken atomically. */
                        .cache = &((bf_blocked *)(uintptr_t)f)->part_scratch};
    return bf__part_batch_begin(s, &t, tun, n, out, write) == BF_OK;
}

int bf_blocked_insert_hashes(bf_blocked *f, const uint64_t *h, size_t n) {
    if (!f || (!h && n)) return BF_EINVAL;
    if (!f->bits) return BF_EREADONLY;
    bf_part_batch s;
    if (part_begin(&s, f, n, NULL, true)) {
        bf__part_add_array(&s.part, h, n);
        bf__part_batch_end(&s);
    } else if (n) {
        insert_batch_of(f, h, n);
    }
    return BF_OK;
}

size_t bf_blocked_contains_hashes(const bf_blocked *f, const uint64_t *h, size_t n,
                                  uint8_t *out) {
    if (!f || !h || !n) return 0;
    bf_part_batch s;
    if (!part_begin(&s, f, n, out, false)) return contains_batch_of(f, h, n, out);
    bf__part_add_array(&s.part, h, n);
    return bf__part_batch_end(&s);
}

int bf_blocked_insert(bf_blocked *f, const void *data, size_t len) {
    if (!f || (!data && len)) return BF_EINVAL;
    return bf_blocked_insert_hash(f, bf_hash_xxh64_seeded(data, len, f->seed));
}

bool bf_blocked_contains(const bf_blocked *f, const void *data, size_t len) {
    return bf_blocked_contains_hash(f, bf_hash_xxh64_seeded(data, len, f->seed));
}

/* ---- typed keys and byte strings: hashed a chunk at a time (key_batch.h) ---------- */

typedef struct {
    const bf_blocked *f;
    uint8_t *out;
    size_t found;
} contains_ctx;

static int contains_chunk(void *vctx, const uint64_t *h, size_t m, size_t off) {
    contains_ctx *c = vctx;
    c->found += contains_batch_of(c->f, h, m, c->out ? c->out + off : NULL);
    return BF_OK;
}

static int insert_chunk(void *vctx, const uint64_t *h, size_t m, size_t off) {
    (void)off;
    insert_batch_of(vctx, h, m);
    return BF_OK;
}

/* Unchecked: the family's key operations and the public calls below. */
static size_t keys_contains(const bf_blocked *f, const bf_keys *keys, size_t n, uint8_t *out) {
    bf_part_batch s;
    if (part_begin(&s, f, n, out, false)) {
        bf__keys_pipeline(keys, n, f->seed, bf__hash_kernel_default(), NULL, false,
                          bf__part_batch_chunk, &s);
        return bf__part_batch_end(&s);
    }
    contains_ctx c = {.f = f, .out = out};
    bf__keys_pipeline(keys, n, f->seed, bf__hash_kernel_default(), NULL, false, contains_chunk,
                      &c);
    return c.found;
}
static int keys_insert(bf_blocked *f, const bf_keys *keys, size_t n) {
    bf_part_batch s;
    if (part_begin(&s, f, n, NULL, true)) {
        int rc = bf__keys_pipeline(keys, n, f->seed, bf__hash_kernel_default(), NULL, true,
                                   bf__part_batch_chunk, &s);
        bf__part_batch_end(&s);
        return rc;
    }
    return bf__keys_pipeline(keys, n, f->seed, bf__hash_kernel_default(), NULL, true,
                             insert_chunk, f);
}

static int insert_keys_checked(bf_blocked *f, const bf_keys *keys, size_t n) {
    if (!f) return BF_EINVAL;
    if (!f->bits) return BF_EREADONLY;
    int rc = bf__keys_check(keys, n);
    return rc ? rc : keys_insert(f, keys, n);
}

int bf_blocked_insert_int32s(bf_blocked *f, const int32_t *values, size_t n) {
    bf_keys keys = {.kind = BF_KEYS_U32, .data = values};
    return insert_keys_checked(f, &keys, n);
}
int bf_blocked_insert_int64s(bf_blocked *f, const int64_t *values, size_t n) {
    bf_keys keys = {.kind = BF_KEYS_U64, .data = values};
    return insert_keys_checked(f, &keys, n);
}
size_t bf_blocked_contains_int32s(const bf_blocked *f, const int32_t *values, size_t n,
                                  uint8_t *out) {
    bf_keys keys = {.kind = BF_KEYS_U32, .data = values};
    return f && values ? keys_contains(f, &keys, n, out) : 0;
}
size_t bf_blocked_contains_int64s(const bf_blocked *f, const int64_t *values, size_t n,
                                  uint8_t *out) {
    bf_keys keys = {.kind = BF_KEYS_U64, .data = values};
    return f && values ? keys_contains(f, &keys, n, out) : 0;
}
int bf_blocked_insert_binary(bf_blocked *f, const void *data, const int32_t *offsets, size_t n) {
    bf_keys keys = {.kind = BF_KEYS_BIN32, .data = data, .offsets = offsets};
    return insert_keys_checked(f, &keys, n);
}
int bf_blocked_contains_binary(const bf_blocked *f, const void *data, const int32_t *offsets,
                               size_t n, uint8_t *out, size_t *found) {
    if (!f) return BF_EINVAL;
    bf_keys keys = {.kind = BF_KEYS_BIN32, .data = data, .offsets = offsets};
    int rc = bf__keys_check(&keys, n);
    if (rc) return rc;
    size_t hits = keys_contains(f, &keys, n, out);
    if (found) *found = hits;
    return BF_OK;
}

/* ---- accessors, seed, merge, clear ---------------------------------------------- */

void bf_blocked_get_shape(const bf_blocked *f, bf_blocked_shape *out) { *out = f->shape; }
uint64_t bf_blocked_num_blocks(const bf_blocked *f) { return f->num_blocks; }
uint64_t bf_blocked_num_bytes(const bf_blocked *f) { return f->num_bytes; }
const void *bf_blocked_bitset(const bf_blocked *f) { return f->data; }
bool bf_blocked_is_readonly(const bf_blocked *f) { return f->bits == NULL; }
uint64_t bf_blocked_seed(const bf_blocked *f) { return f->seed; }

int bf_blocked_set_seed(bf_blocked *f, uint64_t seed) {
    if (!f) return BF_EINVAL;
    if (!f->bits) return BF_EREADONLY;
    if (seed != f->seed && bf__popcount_bytes(f->data, f->num_bytes)) return BF_EINVAL;
    f->seed = seed;
    return BF_OK;
}

int bf_blocked_merge(bf_blocked *dst, const bf_blocked *src) {
    if (!dst || !src) return BF_EINVAL;
    if (!dst->bits) return BF_EREADONLY;
    if (!same_shape(&dst->shape, &src->shape) || dst->num_bytes != src->num_bytes ||
        dst->seed != src->seed)
        return BF_EMISMATCH;
    for (uint64_t i = 0; i < dst->num_bytes; i++) dst->bits[i] |= src->data[i];
    return BF_OK;
}

int bf_blocked_clear(bf_blocked *f) {
    if (!f) return BF_EINVAL;
    if (!f->bits) return BF_EREADONLY;
    memset(f->bits, 0, (size_t)f->num_bytes);
    return BF_OK;
}

/* ---- the family table ------------------------------------------------------------- */

static int size_for(uint64_t n, double fpp, bf_sizing *out) {
    bf_blocked_shape s;
    uint64_t bytes;
    int rc = bf_blocked_default_shape(n, fpp, &s);
    if (!rc) rc = bf_blocked_bits_for(&s, n, fpp, &bytes);
    if (rc) return rc;
    out->num_bytes = bytes;
    out->k = s.k;
    out->block_bits = s.block_bits;
    out->sectors = s.sectors;
    out->groups = s.groups;
    out->model_fpp = bf_blocked_model_fpp_blocks(&s, bytes / block_bytes(&s), n);
    return BF_OK;
}

/* The best k of the default layout for that size. */
static int fpp_for(uint64_t num_bytes, uint64_t n, double *out) {
    bf_blocked_shape s = {512, 8, 2, 2};
    if (num_bytes < block_bytes(&s)) return BF_EINVAL;
    double best = 2.0;
    for (unsigned k = 2; k <= 16; k += 2) {
        s.k = k;
        double p = bf_blocked_model_fpp_blocks(&s, num_bytes / block_bytes(&s), n);
        if (p < best) best = p;
    }
    *out = best;
    return BF_OK;
}

static int create(void **out, uint64_t n, double fpp) {
    bf_blocked_shape s;
    bf_blocked *f = NULL;
    int rc = bf_blocked_default_shape(n, fpp, &s);
    if (!rc) rc = bf_blocked_new(&f, n, fpp, &s);
    if (!rc) *out = f;
    return rc;
}
static void destroy(void *o) { bf_blocked_free(o); }
static int insert(void *o, uint64_t h) { return bf_blocked_insert_hash(o, h); }
static bool contains(const void *o, uint64_t h) { return bf_blocked_contains_hash(o, h); }
static int insert_batch(void *o, const uint64_t *h, size_t n, size_t *done) {
    int rc = bf_blocked_insert_hashes(o, h, n);
    *done = rc == BF_OK ? n : 0;
    return rc;
}
static size_t contains_batch(const void *o, const uint64_t *h, size_t n, uint8_t *out) {
    return bf_blocked_contains_hashes(o, h, n, out);
}
static int clear(void *o) { return bf_blocked_clear(o); }
static int merge(void *d, const void *s) { return bf_blocked_merge(d, s); }

static int stats(const void *o, bf_filter_stats *st) {
    const bf_blocked *f = o;
    bf_blocked_measure m;
    bf__blocked_measure(f, &m);
    st->cells = f->num_bytes * 8;
    st->cells_set = m.bits_set;
    st->fill_ratio = (double)m.bits_set / (double)st->cells;
    st->est_keys = m.est_keys;
    st->est_fpp = m.est_fpp;
    st->k = f->shape.k;
    st->kernel = f->kernel ? f->kernel->name : f->simd_kernel ? f->simd_kernel : "scalar";
    st->block_bits = f->shape.block_bits;
    st->sectors = f->shape.sectors;
    st->groups = f->shape.groups;
    return BF_OK;
}

static uint64_t num_bytes(const void *o) { return ((const bf_blocked *)o)->num_bytes; }
static bool is_readonly(const void *o) { return bf_blocked_is_readonly(o); }
static uint64_t seed(const void *o) { return bf_blocked_seed(o); }
static int set_seed(void *o, uint64_t s) { return bf_blocked_set_seed(o, s); }

/* Native payload (docs/format.md): p0 blocks, p1 B, p2 S | z << 16, p3 k;
 * the bitset as it is in memory (blocks of little-endian sectors). */
static void encode(const void *o, bf_native_params *p, uint8_t *payload) {
    const bf_blocked *f = o;
    p->p0 = f->num_blocks;
    p->p1 = f->shape.block_bits;
    p->p2 = f->shape.sectors | f->shape.groups << 16;
    p->p3 = f->shape.k;
    memcpy(payload, f->data, (size_t)f->num_bytes);
}

static bf_blocked_shape shape_of(const bf_native_params *p) {
    bf_blocked_shape s = {p->p1, p->p2 & 0xffffu, p->p2 >> 16, p->p3};
    return s;
}

static int check(const bf_native_params *p, const uint8_t *payload, uint64_t len) {
    (void)payload;
    bf_blocked_shape s = shape_of(p);
    if (bf_blocked_shape_check(&s) || p->p0 == 0) return BF_ECORRUPT;
    uint64_t bytes;
    if (bf_mul_overflow(p->p0, block_bytes(&s), &bytes) || bytes > BF_BLOCKED_MAX_BYTES ||
        bytes > (uint64_t)SIZE_MAX)
        return BF_ETOOBIG;
    return len == bytes ? BF_OK : BF_ECORRUPT;
}

/* Every bit of a block is some key's: every bitset is valid. */
static int verify(const bf_native_params *p, const uint8_t *payload, uint64_t len) {
    (void)p;
    (void)payload;
    (void)len;
    return BF_OK;
}

static int decode(void **out, const bf_native_params *p, const uint8_t *payload, uint64_t len,
                  uint64_t seed_, bool view) {
    bf_blocked_shape s = shape_of(p);
    bf_blocked *f = NULL;
    int rc = make(&f, &s, view ? payload : NULL, len, seed_);
    if (rc) return rc;
    if (!view) memcpy(f->bits, payload, (size_t)len);
    *out = f;
    return BF_OK;
}

static int insert_keys(void *o, const bf_keys *keys, size_t n, size_t *done) {
    *done = 0;
    if (bf_blocked_is_readonly(o)) return BF_EREADONLY;
    int rc = keys_insert(o, keys, n);
    if (rc == BF_OK) *done = n;
    return rc;
}
static size_t contains_keys(const void *o, const bf_keys *keys, size_t n, uint8_t *out) {
    return keys_contains(o, keys, n, out);
}

/* An insert sets at most k bits. */
static uint64_t least_inserts(const void *o) {
    const bf_blocked *f = o;
    return bf__least_inserts(bf__popcount_bytes(f->data, f->num_bytes), f->shape.k);
}

/* Family 6 is new in format version 2. */
static unsigned format_version(const void *o) {
    (void)o;
    return 2;
}

const bf_family_ops bf__blocked_ops = {
    .version = BF_FAMILY_OPS_VERSION,
    .id = BF_FAMILY_BLOCKED,
    .name = "blocked",
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
    .format_version = format_version,
};

/* ---- the blocked family in the generic interface --------------------------------- */

bf_blocked *bf_filter_blocked(bf_filter *f) { return bf__filter_object(f, &bf__blocked_ops); }

int bf_filter_from_blocked(bf_filter **out, bf_blocked *f) {
    return bf__filter_adopt(out, &bf__blocked_ops, f);
}

int bf_filter_new_blocked(bf_filter **out, uint64_t n, double fpp, const bf_blocked_shape *s) {
    if (!out) return BF_EINVAL;
    bf_blocked *f = NULL;
    int rc = bf_blocked_new(&f, n, fpp, s);
    return rc ? rc : bf__filter_wrap(out, &bf__blocked_ops, f, 0);
}
