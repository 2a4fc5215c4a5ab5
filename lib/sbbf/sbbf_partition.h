/* The SBBF's partitioned batches (sbbf_partition.c; docs/kernels.md):
 * used by the hash batches (sbbf.c) and the key batches (key_batch.c). */
#ifndef BF_SBBF_PARTITION_H
#define BF_SBBF_PARTITION_H

#include "common/partition.h"
#include "sbbf/sbbf.h"

/* The partitioning parameters (docs/kernels.md gives the measurements
 * behind the defaults). A hidden variable so that development benchmarks
 * can sweep them; the library only reads it. */
#define BF_SBBF_PART_REGION_BYTES 0 /* a region's slice: the CPU's, a quarter of L2 */
#define BF_SBBF_PART_REUSE 8                            /* bucket hashes per line of a slice */
#define BF_SBBF_PART_BUDGET ((uint64_t)1 << 40)          /* bucket bytes at most */
#define BF_SBBF_PART_MIN_FILTER_BYTES ((uint64_t)16 << 20)
#define BF_SBBF_PART_MIN_KEYS_PER_LINE 1.0
typedef bf_part_tuning bf_sbbf_part_tuning;
BF_HIDDEN extern bf_sbbf_part_tuning bf__sbbf_part_tuning;

/* One partitioned batch over one SBBF. */
typedef bf_part_batch bf_sbbf_part;

/* Whether a batch of n keys on f goes partitioned: f's mode, else
 * BLOCKFILTER_PARTITION, else the size rule (never for lookups that write
 * answers to out[], with_out). */
BF_HIDDEN bool bf__sbbf_partition_pays(const bf_sbbf *f, size_t n, bool with_out);

/* Starts a partitioned batch of n keys: contains (write false; out may be
 * NULL) or insert (write true, f writable). BF_ENOMEM when the scratch
 * memory cannot be had: nothing started, take the plain path. */
BF_HIDDEN int bf__sbbf_part_begin(bf_sbbf_part *s, const bf_sbbf *f, size_t n, uint8_t *out,
                                  bool write);
/* Hashes go in through bf__part_add(&s->part, ...), or per hashed key
 * chunk through bf__part_batch_chunk (common/partition.h). */
/* Probes or sets everything still buffered, keeps the scratch memory for
 * f's next batch (or frees it) and returns the number of keys found
 * (contains). */
static inline size_t bf__sbbf_part_end(bf_sbbf_part *s) { return bf__part_batch_end(s); }

/* The hash batches, partitioned when bf__sbbf_partition_pays and the
 * scratch memory can be had: false when nothing was done (then take the
 * plain path). */
BF_HIDDEN bool bf__sbbf_contains_hashes_part(const bf_sbbf *f, const uint64_t *hashes, size_t n,
                                             uint8_t *out, size_t *found);
BF_HIDDEN bool bf__sbbf_insert_hashes_part(bf_sbbf *f, const uint64_t *hashes, size_t n);

#endif
