/* Every allocation of the library, with a failure-injection hook for tests. */
#define _GNU_SOURCE
#include "common/internal.h"

#include <stdlib.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#include <unistd.h>
#define BF_HAVE_MMAP 1
#endif

static long fail_after = -1;      /* <0: never fail */
static unsigned long alloc_count; /* allocations since the hook was set */
static long live;                 /* allocations not yet freed (tests: leaks) */

void bf__alloc_fail_after(long n) {
    fail_after = n;
    alloc_count = 0;
}
unsigned long bf__alloc_count(void) { return alloc_count; }
long bf__alloc_live(void) { return __atomic_load_n(&live, __ATOMIC_RELAXED); }

static int injected_failure(void) {
    if (fail_after < 0) return 0;
    return alloc_count++ >= (unsigned long)fail_after;
}

void *bf__malloc(size_t n) {
    if (injected_failure()) return NULL;
    void *p = malloc(n ? n : 1);
    if (p) __atomic_add_fetch(&live, 1, __ATOMIC_RELAXED);
    return p;
}

void *bf__calloc(size_t count, size_t size) {
    if (injected_failure()) return NULL;
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (p) __atomic_add_fetch(&live, 1, __ATOMIC_RELAXED);
    return p;
}

void bf__free(void *p) {
    if (!p) return;
    __atomic_sub_fetch(&live, 1, __ATOMIC_RELAXED);
    free(p);
}

#define HUGE_PAGE ((size_t)2 << 20)

int bf__alloc_bits(bf_region *r, size_t len) {
    memset(r, 0, sizeof *r);
    if (len == 0) return BF_EINVAL;
    if (injected_failure()) return BF_ENOMEM;
#if BF_HAVE_MMAP
    if (len >= HUGE_PAGE) {
        /* Over-allocate so a 2 MiB-aligned range fits, trim the ends. */
        size_t rounded = (len + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        if (rounded < len || rounded + HUGE_PAGE < rounded) return BF_ETOOBIG;
        size_t total = rounded + HUGE_PAGE;
        uint8_t *raw = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) return BF_ENOMEM;
        uintptr_t start = ((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
        size_t head = start - (uintptr_t)raw;
        if (head) munmap(raw, head);
        size_t tail = total - head - rounded;
        if (tail) munmap((uint8_t *)start + rounded, tail);
#ifdef MADV_HUGEPAGE
        madvise((void *)start, rounded, MADV_HUGEPAGE); /* advice only */
#endif
        r->ptr = r->base = (void *)start;
        r->len = len;
        r->base_len = rounded;
        r->kind = 2;
        __atomic_add_fetch(&live, 1, __ATOMIC_RELAXED);
        return BF_OK;
    }
#endif
    size_t rounded = (len + 63) & ~(size_t)63;
    if (rounded < len) return BF_ETOOBIG;
    void *p = aligned_alloc(64, rounded);
    if (!p) return BF_ENOMEM;
    memset(p, 0, rounded);
    r->ptr = r->base = p;
    r->len = len;
    r->base_len = rounded;
    r->kind = 1;
    __atomic_add_fetch(&live, 1, __ATOMIC_RELAXED);
    return BF_OK;
}

void bf__free_bits(bf_region *r) {
    if (!r || !r->kind) return;
#if BF_HAVE_MMAP
    if (r->kind == 2) munmap(r->base, r->base_len);
#endif
    if (r->kind == 1) free(r->base);
    __atomic_sub_fetch(&live, 1, __ATOMIC_RELAXED);
    memset(r, 0, sizeof *r);
}
