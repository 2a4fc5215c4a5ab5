/* The SBBF object, shared by sbbf.c, parquet.c and the generic layer. */
#ifndef BF_SBBF_H
#define BF_SBBF_H

#include "sbbf/sbbf_kernel.h"

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
    bf_region region;          /* owned memory, kind 0 for a view */
};
_Static_assert(offsetof(struct bf_sbbf, layout) == 0, "layout first");
_Static_assert(offsetof(struct bf_sbbf, tag) == offsetof(bf_sbbf_layout, tag), "tag");
_Static_assert(offsetof(struct bf_sbbf, bits) == offsetof(bf_sbbf_layout, bits), "bits");
_Static_assert(offsetof(struct bf_sbbf, data) == offsetof(bf_sbbf_layout, data), "data");
_Static_assert(offsetof(struct bf_sbbf, num_blocks) == offsetof(bf_sbbf_layout, num_blocks), "blocks");
_Static_assert(offsetof(struct bf_sbbf, seed) == offsetof(bf_sbbf_layout, seed), "seed");
_Static_assert(offsetof(struct bf_sbbf, insert_bits) == offsetof(bf_sbbf_layout, insert_bits),
               "insert_bits");

/* Fills in the public layout's tag, version and kernel class (dispatch.c):
 * every place that makes a bf_sbbf calls it once its kernel is set. */
BF_HIDDEN void bf__sbbf_set_layout(bf_sbbf *f);

/* A writable filter holding a copy of num_bytes of bitset (sbbf_family.c):
 * how loaders (the native format, Parquet) build an SBBF from bytes. */
BF_HIDDEN int bf__sbbf_new_copy(bf_sbbf **out, const void *bitset, size_t num_bytes);

/* Exact model FPR for z blocks and n keys (model.c). */
BF_HIDDEN double bf__sbbf_fpp_blocks(uint64_t num_blocks, double n);

#endif
