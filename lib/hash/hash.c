/* Hashing: XXH64 (Parquet's hash), the library's own (hash/xxh64.h), so
 * nothing beyond libc is needed to build or run it. */
#define _GNU_SOURCE
/* Defines the exported bf_hash_int32/int64/float/double, which
 * blockfilter_inline.h wraps in macros: plain declarations here. */
#define BF_NO_INLINE
#include "hash/xxh64.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

uint64_t bf_hash_xxh64(const void *data, size_t len) {
    return bf_xxh64_bytes(data, data ? len : 0, 0);
}

uint64_t bf_hash_xxh64_seeded(const void *data, size_t len, uint64_t seed) {
    return bf_xxh64_bytes(data, data ? len : 0, seed);
}

/* Parquet's typed hashes: XXH64 of the value's 4 or 8 little-endian bytes,
 * in the fixed-length form (the same function the header inlines). */
uint64_t bf_hash_int32(int32_t v) { return bf_xxh64_u32((uint32_t)v, 0); }
uint64_t bf_hash_int64(int64_t v) { return bf_xxh64_u64((uint64_t)v, 0); }
uint64_t bf_hash_float(float v) { return bf_xxh64_u32(bf_inl_bits_of_float(v), 0); }
uint64_t bf_hash_double(double v) { return bf_xxh64_u64(bf_inl_bits_of_double(v), 0); }

int bf_random_seed(uint64_t *out) {
    if (!out) return BF_EINVAL;
    uint64_t v = 0;
#if defined(__linux__)
    for (;;) {
        ssize_t got = getrandom(&v, sizeof v, 0);
        if (got == (ssize_t)sizeof v) {
            *out = v;
            return BF_OK;
        }
        if (got < 0 && errno == EINTR) continue;
        break;
    }
#endif
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return BF_EIO;
    ssize_t got = read(fd, &v, sizeof v);
    close(fd);
    if (got != (ssize_t)sizeof v) return BF_EIO;
    *out = v;
    return BF_OK;
}
