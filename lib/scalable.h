/* The scalable SBBF's internals that the generic layer (bf_filter, the
 * native format, the CLI's calc) will point at when the family joins its
 * ops table, and that the tests reach directly until then. Not installed. */
#ifndef BF_SCALABLE_H
#define BF_SCALABLE_H

#include "internal.h"

/* Sizing for (n, fpp) with the default expansion and ratio: "n" is the
 * initial capacity. Fills num_bytes (layer 0's), bits_per_key, k = 8,
 * fp_bits = 0 and model_fpp (layer 0's exact model FPR at n keys, <= its
 * target fpp_0 <= fpp); family is the caller's. */
BF_HIDDEN int bf__scalable_size_for(uint64_t n, double fpp, bf_sizing *out);

/* Compound model FPR of the chain params build after n distinct keys are
 * added (layers filled oldest first, each at its exact SBBF model), and the
 * bytes the chain then holds. BF_EFULL if a non-scaling chain cannot hold
 * n keys; BF_ETOOBIG / BF_EINVAL as bf_scalable_new and growth. */
BF_HIDDEN int bf__scalable_model(const bf_scalable_params *params, uint64_t n,
                                 double *model_fpp, uint64_t *num_bytes);

/* What bf_filter_stats reports (family left to the caller): num_bytes,
 * inserted (= keys added), cells / cells_set (bits), fill_ratio, est_keys
 * (the exact count), est_fpp (compound, as the filter stands), k = 8,
 * fp_bits = 0, kernel. O(bytes). */
BF_HIDDEN int bf__scalable_stats(const bf_scalable *f, bf_stats *out);

/*
 * The native format. Header family words: p0 = capacity (u64),
 * p1 = expansion, p2 = flags, p3 = 0 (u32 each). Payload (all integers
 * little-endian; sizes in bytes):
 *   +0   u64 num_layers (1..BF_SCALABLE_MAX_LAYERS)
 *   +8   f64 fpp (IEEE-754 binary64 bits), the requested compound target
 *   +16  f64 ratio (binary64 bits)
 *   +24  u64 reserved, zero
 *   +32  num_layers directory entries of 32 bytes, oldest layer first:
 *          u64 capacity, u64 count, u64 num_bytes, u64 reserved (zero)
 *   then the layers' bitsets in the same order, each num_bytes bytes in
 *   Parquet's layout (blocks of eight little-endian 32-bit words).
 * The doubles travel in the payload because the header's p1..p3 are 32-bit.
 * The directory keeps every bitset at a multiple of 32 bytes from the
 * payload start (after the 64-byte native header: 32-byte aligned in a
 * mapped file).
 *
 * check (cheap, always on load and view): the words and the head valid as
 * bf_scalable_new's parameters (no "0 = default"), reserved words zero, the
 * layer descriptions exactly as bf_scalable_restore checks them, len
 * exactly the directory plus the bitsets -> BF_ECORRUPT / BF_ETRUNCATED.
 * verify (deep, O(bytes)): check, and no layer with more than 8 x count
 * bits set. decode runs check itself.
 */
BF_HIDDEN void bf__scalable_native_params(const bf_scalable *f, uint64_t *p0, uint32_t *p1,
                                          uint32_t *p2, uint32_t *p3);
BF_HIDDEN uint64_t bf__scalable_payload_size(const bf_scalable *f);
BF_HIDDEN int bf__scalable_payload_encode(const bf_scalable *f, void *buf, size_t cap,
                                          size_t *written);
BF_HIDDEN int bf__scalable_payload_check(uint64_t p0, uint32_t p1, uint32_t p2, uint32_t p3,
                                         const uint8_t *payload, uint64_t len);
BF_HIDDEN int bf__scalable_payload_verify(uint64_t p0, uint32_t p1, uint32_t p2, uint32_t p3,
                                          const uint8_t *payload, uint64_t len);
/* view = true: a read-only chain whose layers are views over payload (no
 * copy; the caller keeps it alive and unchanged until bf_scalable_free);
 * every mutating call on it returns BF_EREADONLY. */
BF_HIDDEN int bf__scalable_payload_decode(bf_scalable **out, uint64_t p0, uint32_t p1,
                                          uint32_t p2, uint32_t p3, const uint8_t *payload,
                                          uint64_t len, uint64_t seed, bool view);
/* The least number of adds that explains the bits: sum over layers of
 * ceil(set bits / 8). */
BF_HIDDEN uint64_t bf__scalable_least_inserts(const bf_scalable *f);
BF_HIDDEN bool bf__scalable_is_readonly(const bf_scalable *f);

/* Batch lookup strategies, for the benchmark that chose the default:
 * 0 = newest layer first over the still-undecided keys (the default),
 * 1 = every layer over every key, answers OR-ed, 2 = one key at a time. */
BF_HIDDEN size_t bf__scalable_contains_hashes_mode(const bf_scalable *f, const uint64_t *hashes,
                                                   size_t n, uint8_t *out, int mode);

#endif
