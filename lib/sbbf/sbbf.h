/*
 * The SBBF object and the internal API through which the rest of the
 * library reaches it (the scalable family's layers, its own family row,
 * the key batches, the loaders): other files call these, never the
 * object's fields.
 */
#ifndef BF_SBBF_H
#define BF_SBBF_H

#include "sbbf/sbbf_kernel.h"
#include "hash/xxh64.h"

#include <stddef.h>

/* The object begins with the public bf_sbbf_layout (blockfilter_inline.h), which
 * the header's inline paths read; the library names its fields directly
 * through the anonymous struct, which mirrors it (checked below). */
struct bf_sbbf {
    union {
        bf_sbbf_layout layout;
        struct {
            uint32_t tag;          /* BF_SBBF_TAG(BF_SBBF_KERNEL_* of kernel) */
            uint32_t reserved;
            uint8_t *bits;         /* writable bitset; NULL for a read-only view */
            const uint8_t *data;   /* the bitset for reading (== bits if owned) */
            uint64_t num_blocks;
            uint64_t seed;         /* byte-string and typed hashing seed; 0 = Parquet */
            uint8_t *insert_bits[4]; /* bits for inline inserts of each class, or NULL */
        };
    };
    uint64_t num_bytes;
    const bf_kernel *kernel;
    const bf_hash_kernel *hash_kernel; /* typed keys' hashing, of the kernel's ISA */
    bf_region region;          /* owned memory, kind 0 for a view */
    void *alloc_base;          /* the allocation this object sits in (sbbf.c) */
    int partition_mode;        /* BF_PARTITION_* (sbbf_partition.c) */
    void *part_scratch;        /* partitioned batches' scratch, kept between
                                * them (common/partition.h), or NULL */
};
_Static_assert(offsetof(struct bf_sbbf, layout) == 0, "layout first");
_Static_assert(offsetof(struct bf_sbbf, tag) == offsetof(bf_sbbf_layout, tag), "tag");
_Static_assert(offsetof(struct bf_sbbf, bits) == offsetof(bf_sbbf_layout, bits), "bits");
_Static_assert(offsetof(struct bf_sbbf, data) == offsetof(bf_sbbf_layout, data), "data");
_Static_assert(offsetof(struct bf_sbbf, num_blocks) == offsetof(bf_sbbf_layout, num_blocks), "blocks");
_Static_assert(offsetof(struct bf_sbbf, seed) == offsetof(bf_sbbf_layout, seed), "seed");
_Static_assert(offsetof(struct bf_sbbf, insert_bits) == offsetof(bf_sbbf_layout, insert_bits),
               "insert_bits");
/* Every class's place is a multiple of the object's alignment, below half
 * the modulus (views sit in the upper half), and not 0 (the place of other
 * layout versions). */
_Static_assert(_Alignof(struct bf_sbbf) <= 16 && BF_SBBF_PLACE(0) % 16 == 0 &&
                   BF_SBBF_PLACE(BF_SBBF_KERNEL_NEON) < BF_SBBF_PLACE_MOD / 2 &&
                   BF_SBBF_PLACE_VIEW(BF_SBBF_KERNEL_NEON) < BF_SBBF_PLACE_MOD,
               "places");

/* Sets the filter's kernel, the hash kernel that goes with it, and the
 * public layout's tag and insert bitsets (dispatch.c): every place that
 * makes a bf_sbbf calls it once its bitset is set. */
BF_HIDDEN void bf__sbbf_bind_kernel(bf_sbbf *f, const bf_kernel *kernel);

/* ---- making filters (sbbf.c) ------------------------------------------------
 * kernel NULL: the process default (BF_EKERNEL if BLOCKFILTER_KERNEL names
 * one that cannot run). The seed is the byte-string and typed-key seed. */

/* A zeroed, owned filter of num_bytes. */
BF_HIDDEN int bf__sbbf_new_kernel(bf_sbbf **out, size_t num_bytes, const bf_kernel *kernel,
                                  uint64_t seed);
/* A read-only view over a caller's bitset (any alignment). */
BF_HIDDEN int bf__sbbf_view_kernel(bf_sbbf **out, const void *bitset, size_t num_bytes,
                                   const bf_kernel *kernel, uint64_t seed);
/* An owned filter holding a copy of a bitset: how loaders (the native
 * format, Parquet) build an SBBF from bytes. */
BF_HIDDEN int bf__sbbf_new_copy(bf_sbbf **out, const void *bitset, size_t num_bytes,
                                uint64_t seed);

/* ---- reading and writing them ------------------------------------------------
 * Unchecked, for callers that hold a valid filter: the inserting calls
 * need a writable one (not a view). Hashes may be misaligned. */

static inline bool bf__sbbf_is_writable(const bf_sbbf *f) { return f->bits != NULL; }
static inline bool bf__sbbf_contains_hash(const bf_sbbf *f, uint64_t hash) {
    return f->kernel->contains(f->data, f->num_blocks, hash);
}
static inline size_t bf__sbbf_contains_hashes(const bf_sbbf *f, const uint64_t *hashes, size_t n,
                                              uint8_t *out) {
    return f->kernel->contains_batch(f->data, f->num_blocks, hashes, n, out);
}
/* Returns BF_OK (the kernel's answer, so a caller can tail-call it). */
static inline int bf__sbbf_insert_hash(bf_sbbf *f, uint64_t hash) {
    return f->kernel->insert(f->bits, f->num_blocks, hash);
}
static inline void bf__sbbf_insert_hashes(bf_sbbf *f, const uint64_t *hashes, size_t n) {
    f->kernel->insert_batch(f->bits, f->num_blocks, hashes, n);
}
/* The hash kernel typed keys of this filter are hashed with. */
static inline const bf_hash_kernel *bf__sbbf_hash_kernel(const bf_sbbf *f) {
    return f->hash_kernel;
}
/* Prefetches the block of a hash, for reading or (write) writing. */
static inline void bf__sbbf_prefetch(const bf_sbbf *f, uint64_t hash, bool write) {
    const uint8_t *block = f->data + bf_sbbf_block_index(hash, f->num_blocks) * BF_SBBF_BLOCK_BYTES;
    if (write) __builtin_prefetch(block, 1);
    else __builtin_prefetch(block, 0);
}
/* Copies len bytes into the bitset at offset; the range is within it. */
BF_HIDDEN void bf__sbbf_write_bytes(bf_sbbf *f, uint64_t offset, const void *src, size_t len);
/* Whether no bit is set. */
BF_HIDDEN bool bf__sbbf_is_clear(const bf_sbbf *f);

/* ln(n!), thread-safe (model.c; the blocked family's model uses it too). */
BF_HIDDEN double bf__log_factorial(double n);
/* Exact model FPR for z blocks and n keys (model.c). */
BF_HIDDEN double bf__sbbf_fpp_blocks(uint64_t num_blocks, double n);

#endif
