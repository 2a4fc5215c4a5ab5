/* The SBBF API: creation, queries through the filter's kernel, concurrent
 * inserts, merge, statistics, keyed hashing and zero-copy views. */
/* Defines the exported single-key calls that blockfilter_inline.h wraps in
 * macros: their plain declarations only here (lib/common/internal.h). */
#define BF_NO_INLINE
#include "sbbf/sbbf.h"
#include "sbbf/sbbf_partition.h"

#include <math.h>

static int check_size(uint64_t num_bytes) {
    if (num_bytes < BF_SBBF_BLOCK_BYTES || num_bytes % BF_SBBF_BLOCK_BYTES) return BF_EINVAL;
    if (num_bytes > BF_SBBF_MAX_BYTES || num_bytes > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    return BF_OK;
}

/* A filter over bitset (a view) or, with bitset NULL, over zeroed memory
 * of its own. The object sits at its kernel class's place modulo
 * BF_SBBF_PLACE_MOD, a view at the class's view place
 * (blockfilter_inline.h), inside an allocation that much larger: the
 * header's inline queries and inserts test the address, which a compiler
 * takes out of a caller's loop, instead of a field. */
static int make(bf_sbbf **out, const void *bitset, size_t num_bytes, const bf_kernel *kernel,
                uint64_t seed) {
    if (!out) return BF_EINVAL;
    int rc = check_size(num_bytes);
    if (rc) return rc;
    if (!kernel) kernel = bf__sbbf_kernel_default();
    if (!kernel) return BF_EKERNEL;
    uint8_t *base = bf__calloc(1, sizeof(bf_sbbf) + BF_SBBF_PLACE_MOD);
    if (!base) return BF_ENOMEM;
    bf_sbbf proto;
    memset(&proto, 0, sizeof proto);
    if (bitset) {
        proto.data = bitset;
    } else {
        if ((rc = bf__alloc_bits(&proto.region, num_bytes))) {
            bf__free(base);
            return rc;
        }
        proto.bits = proto.region.ptr;
        proto.data = proto.bits;
    }
    proto.num_bytes = num_bytes;
    proto.num_blocks = num_bytes / BF_SBBF_BLOCK_BYTES;
    proto.seed = seed;
    bf__sbbf_bind_kernel(&proto, kernel);
    const uint32_t layout_class = proto.tag & 0xffffu;
    const uintptr_t place = bitset ? BF_SBBF_PLACE_VIEW(layout_class) : BF_SBBF_PLACE(layout_class);
    bf_sbbf *f = (bf_sbbf *)(void *)(base + ((place - (uintptr_t)base) % BF_SBBF_PLACE_MOD));
    *f = proto;
    f->alloc_base = base;
    *out = f;
    return BF_OK;
}

int bf__sbbf_new_kernel(bf_sbbf **out, size_t num_bytes, const bf_kernel *kernel, uint64_t seed) {
    return make(out, NULL, num_bytes, kernel, seed);
}

int bf__sbbf_view_kernel(bf_sbbf **out, const void *bitset, size_t num_bytes,
                         const bf_kernel *kernel, uint64_t seed) {
    if (!bitset) return BF_EINVAL;
    return make(out, bitset, num_bytes, kernel, seed);
}

int bf__sbbf_new_copy(bf_sbbf **out, const void *bitset, size_t num_bytes, uint64_t seed) {
    if (!out || !bitset) return BF_EINVAL;
    bf_sbbf *f;
    int rc = make(&f, NULL, num_bytes, NULL, seed);
    if (rc) return rc;
    memcpy(f->bits, bitset, num_bytes);
    *out = f;
    return BF_OK;
}

/* A kernel a caller named (NULL: the default); NULL if it cannot run. */
static const bf_kernel *named_kernel(const char *name) {
    return name ? bf__sbbf_kernel_by_name(name) : bf__sbbf_kernel_default();
}

int bf_sbbf_new_bytes_kernel(bf_sbbf **out, size_t num_bytes, const char *kernel) {
    if (!out) return BF_EINVAL;
    const bf_kernel *chosen = named_kernel(kernel);
    int rc = check_size(num_bytes);
    if (rc) return rc;
    return chosen ? make(out, NULL, num_bytes, chosen, 0) : BF_EKERNEL;
}

int bf_sbbf_new_bytes(bf_sbbf **out, size_t num_bytes) {
    return bf_sbbf_new_bytes_kernel(out, num_bytes, NULL);
}

int bf_sbbf_new(bf_sbbf **out, uint64_t ndv, double fpp) {
    if (!out) return BF_EINVAL;
    size_t bytes;
    int rc = bf_sbbf_compact_bytes(ndv, fpp, &bytes);
    return rc ? rc : bf_sbbf_new_bytes(out, bytes);
}

int bf_sbbf_new_parquet(bf_sbbf **out, uint64_t ndv, double fpp) {
    if (!out) return BF_EINVAL;
    size_t bytes;
    int rc = bf_sbbf_parquet_bytes(ndv, fpp, &bytes);
    return rc ? rc : bf_sbbf_new_bytes(out, bytes);
}

int bf_sbbf_view_kernel(bf_sbbf **out, const void *bitset, size_t num_bytes, const char *kernel) {
    if (!out || !bitset) return BF_EINVAL;
    const bf_kernel *chosen = named_kernel(kernel);
    int rc = check_size(num_bytes);
    if (rc) return rc;
    return chosen ? make(out, bitset, num_bytes, chosen, 0) : BF_EKERNEL;
}

int bf_sbbf_view(bf_sbbf **out, const void *bitset, size_t num_bytes) {
    return bf_sbbf_view_kernel(out, bitset, num_bytes, NULL);
}

void bf_sbbf_free(bf_sbbf *f) {
    if (!f) return;
    bf__part_cache_drop(&f->part_scratch);
    bf__free_bits(&f->region);
    bf__free(f->alloc_base);
}

bool bf_sbbf_is_readonly(const bf_sbbf *f) { return f->bits == NULL; }
size_t bf_sbbf_num_bytes(const bf_sbbf *f) { return (size_t)f->num_bytes; }
const void *bf_sbbf_bitset(const bf_sbbf *f) { return f->data; }
const char *bf_sbbf_kernel(const bf_sbbf *f) { return f->kernel->name; }
uint64_t bf_sbbf_seed(const bf_sbbf *f) { return f->seed; }

/* Every mutating call refuses a read-only view (bits == NULL) with
 * BF_EREADONLY: one predictable branch, as cheap as the old silent skip. */
int bf_sbbf_insert_hash(bf_sbbf *f, uint64_t hash) {
    if (BF_UNLIKELY(!f->bits)) return BF_EREADONLY;
    return bf__sbbf_insert_hash(f, hash); /* BF_OK, a tail call */
}

bool bf_sbbf_contains_hash(const bf_sbbf *f, uint64_t hash) {
    return bf__sbbf_contains_hash(f, hash);
}

int bf_sbbf_insert_hashes(bf_sbbf *f, const uint64_t *hashes, size_t n) {
    if (BF_UNLIKELY(!f || (!hashes && n))) return BF_EINVAL;
    if (BF_UNLIKELY(!f->bits)) return BF_EREADONLY;
    if (n && !bf__sbbf_insert_hashes_part(f, hashes, n)) bf__sbbf_insert_hashes(f, hashes, n);
    return BF_OK;
}

size_t bf_sbbf_contains_hashes(const bf_sbbf *f, const uint64_t *hashes, size_t n, uint8_t *out) {
    size_t found;
    if (!n) return 0;
    if (bf__sbbf_contains_hashes_part(f, hashes, n, out, &found)) return found;
    return bf__sbbf_contains_hashes(f, hashes, n, out);
}

/* Concurrent inserts: owned bitsets are 64-byte aligned, so a block is four
 * naturally aligned 64-bit words, each OR-ed atomically (four locked
 * operations per key rather than eight). Release on the OR and acquire on
 * the loads give the documented guarantee. Words are little-endian in
 * memory: 64-bit word j holds 32-bit words 2j (low half) and 2j+1. */
static inline uint64_t pair_mask(uint64_t hash, unsigned j) {
    uint64_t le = (uint64_t)bf_sbbf_word_mask(hash, 2 * j) |
                  (uint64_t)bf_sbbf_word_mask(hash, 2 * j + 1) << 32;
#if BF_BIG_ENDIAN
    return __builtin_bswap64(le);
#else
    return le;
#endif
}

int bf_sbbf_insert_hash_concurrent(bf_sbbf *f, uint64_t hash) {
    if (BF_UNLIKELY(!f->bits)) return BF_EREADONLY;
    uint64_t *block = (uint64_t *)(void *)(f->bits + bf_sbbf_block_index(hash, f->num_blocks) * 32);
    for (unsigned j = 0; j < 4; j++) {
        uint64_t m = pair_mask(hash, j);
        /* Skip the locked RMW when the bits are already there. */
        if ((__atomic_load_n(&block[j], __ATOMIC_RELAXED) & m) != m)
            __atomic_fetch_or(&block[j], m, __ATOMIC_RELEASE);
    }
    return BF_OK;
}

int bf_sbbf_insert_hashes_concurrent(bf_sbbf *f, const uint64_t *hashes, size_t n) {
    if (BF_UNLIKELY(!f || (!hashes && n))) return BF_EINVAL;
    if (BF_UNLIKELY(!f->bits)) return BF_EREADONLY;
    for (size_t i = 0; i < n; i++) {
        if (i + BF_SBBF_PREFETCH_DISTANCE < n)
            __builtin_prefetch(f->data + bf_sbbf_block_index(hashes[i + BF_SBBF_PREFETCH_DISTANCE], f->num_blocks) * 32, 1);
        bf_sbbf_insert_hash_concurrent(f, hashes[i]);
    }
    return BF_OK;
}

bool bf_sbbf_contains_hash_concurrent(const bf_sbbf *f, uint64_t hash) {
    if (!f->bits) return bf_sbbf_contains_hash(f, hash); /* views never change */
    const uint64_t *block =
        (const uint64_t *)(const void *)(f->bits + bf_sbbf_block_index(hash, f->num_blocks) * 32);
    uint64_t missing = 0;
    for (unsigned j = 0; j < 4; j++) {
        uint64_t m = pair_mask(hash, j);
        missing |= m & ~__atomic_load_n(&block[j], __ATOMIC_ACQUIRE);
    }
    return missing == 0;
}

int bf_sbbf_insert(bf_sbbf *f, const void *data, size_t len) {
    if (BF_UNLIKELY(!f || (!data && len))) return BF_EINVAL;
    return bf_sbbf_insert_hash(f, bf_hash_xxh64_seeded(data, len, f->seed));
}
bool bf_sbbf_contains(const bf_sbbf *f, const void *data, size_t len) {
    return bf_sbbf_contains_hash(f, bf_hash_xxh64_seeded(data, len, f->seed));
}

/* Parquet's PLAIN encodings: XXH64 of the value's little-endian bytes, in
 * the fixed-length form (bf_xxh64_u32/u64), with the filter's seed. */
#define BF_TYPED(suffix, ctype, hash)                                            \
    int bf_sbbf_insert_##suffix(bf_sbbf *f, ctype v) {                           \
        if (BF_UNLIKELY(!f)) return BF_EINVAL;                                   \
        return bf_sbbf_insert_hash(f, hash);                                     \
    }                                                                            \
    bool bf_sbbf_contains_##suffix(const bf_sbbf *f, ctype v) {                 \
        return bf_sbbf_contains_hash(f, hash);                                   \
    }
BF_TYPED(int32, int32_t, bf_xxh64_u32((uint32_t)v, f->seed))
BF_TYPED(int64, int64_t, bf_xxh64_u64((uint64_t)v, f->seed))
BF_TYPED(float, float, bf_xxh64_u32(bf_inl_bits_of_float(v), f->seed))
BF_TYPED(double, double, bf_xxh64_u64(bf_inl_bits_of_double(v), f->seed))
#undef BF_TYPED

int bf_sbbf_merge(bf_sbbf *dst, const bf_sbbf *src) {
    if (!dst || !src) return BF_EINVAL;
    if (!dst->bits) return BF_EREADONLY;
    if (dst->num_bytes != src->num_bytes || dst->seed != src->seed) return BF_EMISMATCH;
    /* Byte-wise OR is the same for either byte order; the compiler
     * vectorises it. */
    for (uint64_t i = 0; i < dst->num_bytes; i++) dst->bits[i] |= src->data[i];
    return BF_OK;
}

int bf_sbbf_clear(bf_sbbf *f) {
    if (!f) return BF_EINVAL;
    if (!f->bits) return BF_EREADONLY;
    memset(f->bits, 0, (size_t)f->num_bytes);
    return BF_OK;
}

bool bf__sbbf_is_clear(const bf_sbbf *f) {
    for (uint64_t i = 0; i < f->num_bytes; i++)
        if (f->data[i]) return false;
    return true;
}

void bf__sbbf_write_bytes(bf_sbbf *f, uint64_t offset, const void *src, size_t len) {
    if (len) memcpy(f->bits + offset, src, len);
}

int bf_sbbf_set_seed(bf_sbbf *f, uint64_t seed) {
    if (!f) return BF_EINVAL;
    if (!f->bits) return BF_EREADONLY;
    if (seed != f->seed && !bf__sbbf_is_clear(f)) return BF_EINVAL;
    f->seed = seed;
    return BF_OK;
}

int bf_sbbf_get_stats(const bf_sbbf *f, bf_sbbf_stats *out) {
    if (!f || !out) return BF_EINVAL;
    uint64_t set = 0;
    double pass_sum = 0.0;
    for (uint64_t b = 0; b < f->num_blocks; b++) {
        const uint8_t *block = f->data + b * 32;
        double pass = 1.0;
        for (unsigned w = 0; w < 8; w++) {
            unsigned pc = (unsigned)__builtin_popcount(bf_load_le32(block + 4 * w));
            set += pc;
            pass *= pc / 32.0;
        }
        pass_sum += pass;
    }
    const double total = (double)f->num_bytes * 8.0;
    out->num_bytes = f->num_bytes;
    out->num_blocks = f->num_blocks;
    out->bits_set = set;
    out->fill_ratio = (double)set / total;
    out->est_keys = out->fill_ratio >= 1.0 ? INFINITY
                                          : -32.0 * (double)f->num_blocks * log1p(-out->fill_ratio);
    out->est_fpp = pass_sum / (double)f->num_blocks;
    return BF_OK;
}
