/* Keys in, answers out: arrays of typed values or Arrow byte strings are
 * hashed a chunk at a time into a small on-stack buffer, and each chunk
 * goes to a batch call (an SBBF kernel, or a family's batch operation).
 * Shared by key_batch.c (bf_sbbf_*, and the SBBF family's key operations)
 * and filter_keys.c (bf_filter_*). */
#ifndef BF_KEYS_H
#define BF_KEYS_H

#include "sbbf/sbbf.h"
#include "hash/xxh64.h"

/* Keys per chunk: two chunk buffers of hashes (4 KiB) stay in L1. */
#define BF_KEYS_CHUNK 256

enum { BF_KEYS_U32, BF_KEYS_U64, BF_KEYS_BIN32, BF_KEYS_BIN64 };

/* An array of keys: values (u32/u64: 4- or 8-byte values in host order),
 * or Arrow byte strings (data plus n + 1 offsets of 32 or 64 bits). Locals
 * of this type are named keys. */
typedef struct bf_keys {
    int kind;
    const void *data;
    const void *offsets;
} bf_keys;

/* BF_OK if the offsets of n Arrow byte strings are well formed: the first
 * is >= 0, none decreases, and data is non-NULL unless every string is
 * empty. Nothing else is checked (the caller vouches for the buffer). */
BF_HIDDEN int bf__keys_check(const bf_keys *keys, size_t n);

/* Called once per chunk with its hashes: m keys starting at key off.
 * Returns BF_OK or a negative status, which stops the pipeline. */
typedef int (*bf_keys_fn)(void *ctx, const uint64_t *hashes, size_t m, size_t off);

/*
 * Hashes n keys with hash_kernel and the seed, a chunk at a time, and
 * passes each chunk to fn. With target set (an SBBF of 1 MiB or more), the
 * first blocks of each chunk are prefetched (for writing if write) before
 * the next chunk is hashed, so those misses overlap the hashing and the
 * batch kernel's own prefetching (which looks ahead only within its chunk)
 * never starts cold.
 * Returns BF_OK or fn's first failure.
 */
BF_HIDDEN int bf__keys_pipeline(const bf_keys *keys, size_t n, uint64_t seed,
                                const bf_hash_kernel *hash_kernel, const bf_sbbf *target,
                                bool write, bf_keys_fn fn, void *ctx);

/* The SBBF's key batches without the argument checks (offsets checked,
 * f writable for inserts), hashed with its own hash kernel and seed: the
 * bf_sbbf_* typed and byte-string calls, and the SBBF family's key
 * operations (family.h). Insert returns BF_OK. */
BF_HIDDEN int bf__sbbf_insert_keys(bf_sbbf *f, const bf_keys *keys, size_t n);
BF_HIDDEN size_t bf__sbbf_contains_keys(const bf_sbbf *f, const bf_keys *keys, size_t n,
                                        uint8_t *out);

#endif
