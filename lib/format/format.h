/*
 * The native container shared by every family: a 64-byte little-endian
 * header, then the family's payload. The format is specified in ONE place,
 * docs/format.md (header fields, what each family stores, what loading
 * checks); this file only names the header fields for the code.
 */
#ifndef BF_FORMAT_H
#define BF_FORMAT_H

#include "families/family.h"

#define BF_MAGIC "BFLT"
#define BF_FLAG_KEYED 1u

/* The header, decoded (docs/format.md has the byte offsets). */
typedef struct bf_native_header {
    uint16_t version;
    uint8_t family;
    uint8_t flags;
    uint64_t seed;
    uint64_t inserted;
    bf_native_params params; /* p0..p3, as the family defines them */
    uint64_t payload_len;
    uint64_t payload_check;
} bf_native_header;

/* Writes the 64 header bytes (computes the header check). */
BF_HIDDEN void bf__header_write(uint8_t out[BF_HEADER_BYTES], const bf_native_header *h);
/* Validates magic, the header check, version, family (known to the
 * registry), flags and the keyed/seed pair, and that len holds the payload.
 * Does not check the payload. */
BF_HIDDEN int bf__header_read(const void *buf, size_t len, bf_native_header *h);
/* XXH64 of a payload (the payload check). */
BF_HIDDEN uint64_t bf__payload_check(const void *payload, size_t len);

/* A read-only view over buf that, on success, owns the memory and calls
 * release(base, base_len) from bf_filter_free (fileio.c's mapped files). On
 * failure nothing is taken over and the caller still owns the memory. */
BF_HIDDEN int bf__filter_view_owned(bf_filter **out, const void *buf, size_t len,
                                    unsigned flags, void (*release)(void *, size_t),
                                    void *base, size_t base_len);

#endif
