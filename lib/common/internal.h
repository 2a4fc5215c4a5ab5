/* Internal helpers shared by every file of the library. Not installed. */
#ifndef BF_INTERNAL_H
#define BF_INTERNAL_H

/* The public header with its inline paths: the library calls its
 * single-key functions and fixed-width hashes inline like any caller. The
 * two files that define the exported functions those paths stand in for
 * (sbbf/sbbf.c, hash/hash.c) define BF_NO_INLINE before including this,
 * so their definitions are not macro-expanded and never call themselves.
 * The SBBF primitives (salts, block index, probe and set, fixed-width
 * XXH64) come from blockfilter_inline.h in every file. Every public
 * header: their BF_API declarations are what export the definitions. */
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "blockfilter_parquet.h"

#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define BF_HIDDEN __attribute__((visibility("hidden")))
#define BF_LIKELY(x) __builtin_expect(!!(x), 1)
#define BF_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define BF_HIDDEN
#define BF_LIKELY(x) (x)
#define BF_UNLIKELY(x) (x)
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define BF_BIG_ENDIAN 1
#else
#define BF_BIG_ENDIAN 0
#endif

/* Little-endian loads and stores at any alignment (memcpy: no UB). */
static inline uint32_t bf_load_le32(const void *p) {
    uint32_t v;
    memcpy(&v, p, sizeof v);
#if BF_BIG_ENDIAN
    v = __builtin_bswap32(v);
#endif
    return v;
}
static inline void bf_store_le32(void *p, uint32_t v) {
#if BF_BIG_ENDIAN
    v = __builtin_bswap32(v);
#endif
    memcpy(p, &v, sizeof v);
}
static inline uint64_t bf_load_le64(const void *p) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if BF_BIG_ENDIAN
    v = __builtin_bswap64(v);
#endif
    return v;
}
static inline void bf_store_le64(void *p, uint64_t v) {
#if BF_BIG_ENDIAN
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, sizeof v);
}
static inline uint16_t bf_load_le16(const void *p) {
    const uint8_t *b = (const uint8_t *)p;
    return (uint16_t)(b[0] | (b[1] << 8));
}
static inline void bf_store_le16(void *p, uint16_t v) {
    uint8_t *b = (uint8_t *)p;
    b[0] = (uint8_t)v;
    b[1] = (uint8_t)(v >> 8);
}

/* High 64 bits of a 64x64 product: range reduction without modulo bias. */
static inline uint64_t bf_mulhi64(uint64_t a, uint64_t b) {
#if defined(__SIZEOF_INT128__)
    __extension__ typedef unsigned __int128 u128;
    return (uint64_t)(((u128)a * b) >> 64);
#else
    uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
    uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
    uint64_t cross = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi;
    return (hi_lo >> 32) + (cross >> 32) + hi_hi;
#endif
}

/* Byte j of the result: 1 if byte j of t is zero, else 0. Exact per byte
 * (no carry crosses a byte): the batch kernels turn eight keys' lane masks,
 * a byte per key, into eight 0/1 answers with it. */
static inline uint64_t bf__zero_bytes(uint64_t t) {
    const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
    const uint64_t nonzero = ((t & low7) + low7) | t; /* high bit of each byte */
    return (~nonzero & ~low7) >> 7;
}

/* Overflow-checked arithmetic: return nonzero on overflow. */
static inline int bf_mul_overflow(uint64_t a, uint64_t b, uint64_t *r) {
    return __builtin_mul_overflow(a, b, r);
}
static inline int bf_add_overflow(uint64_t a, uint64_t b, uint64_t *r) {
    return __builtin_add_overflow(a, b, r);
}

/* fpp must be a number in (0, 1). */
static inline int bf_fpp_valid(double fpp) { return fpp > 0.0 && fpp < 1.0; }

/* The size of one core's L2 cache in bytes as CPUID reports it (x86, leaf
 * 0x80000006, which Intel and AMD both fill), or 0 where unknown (other
 * CPUs); common/cpu.c. L2 is private to a core, so a virtual machine sees
 * the real size: unlike the shared caches, not the host's. */
BF_HIDDEN uint64_t bf__cpu_l2_bytes(void);

/*
 * Allocation. Every allocation of the library goes through these, so tests
 * can inject failures at every site (bf__alloc_fail_after).
 *  - bf__malloc/bf__calloc/bf__free: small objects.
 *  - bf__alloc_bits: zeroed memory for a filter's payload, 64-byte aligned;
 *    from 2 MiB up, 2 MiB-aligned and offered for transparent huge pages.
 */
BF_HIDDEN void *bf__malloc(size_t n);
BF_HIDDEN void *bf__calloc(size_t count, size_t size);
BF_HIDDEN void bf__free(void *p);

typedef struct bf_region {
    void *ptr;      /* aligned, zeroed, len bytes usable */
    size_t len;     /* bytes requested */
    void *base;     /* what to release */
    size_t base_len;
    int kind;       /* 0 none, 1 heap, 2 mmap */
} bf_region;
BF_HIDDEN int bf__alloc_bits(bf_region *r, size_t len);
BF_HIDDEN void bf__free_bits(bf_region *r);

/* Test hook: the n-th allocation from now (0 = the next) and every later one
 * fail, until reset with a negative n. Counts allocations made since it was
 * set. Not thread-safe; tests only. */
BF_HIDDEN void bf__alloc_fail_after(long n);
BF_HIDDEN unsigned long bf__alloc_count(void);
BF_HIDDEN long bf__alloc_live(void);

/* Opens a regular file read-only (close-on-exec) and returns its size
 * (lib/common/fileio.c). BF_EIO with errno set (EISDIR or EINVAL for a directory
 * or other non-regular file); BF_ETOOBIG for a size past SIZE_MAX. */
BF_HIDDEN int bf__open_regular(const char *path, int *fd_out, size_t *size_out);
/* Writes len bytes to path atomically (temporary file, fsync, rename, fsync
 * of the directory): what bf_filter_save_file does with a filter's image.
 * BF_EIO with errno set, or BF_ENOMEM; the target is untouched on failure. */
/* Reads up to len bytes (fewer if the file ends first: *got says); -1 with
 * errno set on a read error. */
BF_HIDDEN int bf__read_all(int fd, uint8_t *p, size_t len, size_t *got);
BF_HIDDEN int bf__save_atomic(const char *path, const void *data, size_t len);

#endif
