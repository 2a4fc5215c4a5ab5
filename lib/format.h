/*
 * The native portable format shared by every family: a 64-byte header,
 * little-endian, then the payload.
 *
 *   off size field
 *    0   4  magic "BFLT"
 *    4   2  format version (1)
 *    6   1  family (bf_family)
 *    7   1  flags: bit 0 = keyed (seed != 0 is meaningful); others 0
 *    8   8  seed for byte-string hashing (0 = Parquet's XXH64 seed)
 *   16   8  inserted: successful insert calls recorded
 *   24   8  p0: sbbf num_bytes; bloom m bits; counting m counters;
 *               cuckoo num_buckets
 *   32   4  p1: bloom/counting k; cuckoo fingerprint bits; sbbf 0
 *   36   4  p2: counting counter bits (4); cuckoo slots per bucket (4); else 0
 *   40   4  p3: family-specific; 0 unless the family documents it
 *   44   4  header check: low 32 bits of XXH64 of the 64 header bytes with
 *               this field zeroed
 *   48   8  payload length in bytes
 *   56   8  payload check: XXH64 (seed 0) of the payload
 *   64   .  payload (little-endian words), payload length bytes
 */
#ifndef BF_FORMAT_H
#define BF_FORMAT_H

#include "internal.h"

#define BF_MAGIC "BFLT"
#define BF_FLAG_KEYED 1u

typedef struct bf_native_header {
    uint16_t version;
    uint8_t family;
    uint8_t flags;
    uint64_t seed;
    uint64_t inserted;
    uint64_t p0;
    uint32_t p1, p2, p3;
    uint64_t payload_len;
    uint64_t payload_check;
} bf_native_header;

/* Writes the 64 header bytes (computes the header check). */
BF_HIDDEN void bf__header_write(uint8_t out[BF_HEADER_BYTES], const bf_native_header *h);
/* Validates magic, version, flags, family range and the header check, and
 * that len holds the payload. Does not check the payload checksum. */
BF_HIDDEN int bf__header_read(const void *buf, size_t len, bf_native_header *h);
/* XXH64 of a payload (the payload check). */
BF_HIDDEN uint64_t bf__payload_check(const void *payload, size_t len);

#endif
