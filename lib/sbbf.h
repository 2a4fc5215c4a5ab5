/* The SBBF object, shared by sbbf.c, parquet.c and the generic layer. */
#ifndef BF_SBBF_H
#define BF_SBBF_H

#include "sbbf_kernel.h"

struct bf_sbbf {
    uint8_t *bits;             /* writable bitset; NULL for a read-only view */
    const uint8_t *data;       /* the bitset for reading (== bits if owned) */
    uint64_t num_bytes;
    uint64_t num_blocks;
    const bf_kernel *kernel;
    uint64_t seed;             /* byte-string hashing seed; 0 = Parquet */
    bf_region region;          /* owned memory, kind 0 for a view */
};

/* A writable filter holding a copy of num_bytes of bitset (sbbf_family.c):
 * how loaders (the native format, Parquet) build an SBBF from bytes. */
BF_HIDDEN int bf__sbbf_new_copy(bf_sbbf **out, const void *bitset, size_t num_bytes);

/* Exact model FPR for z blocks and n keys (model.c). */
BF_HIDDEN double bf__sbbf_fpp_blocks(uint64_t num_blocks, double n);

#endif
