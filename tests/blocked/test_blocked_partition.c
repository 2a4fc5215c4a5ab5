/*
 * The blocked family's partitioned batches (docs/kernels.md) against its
 * plain path, for several shapes (register-blocked 32 and 64, plain 512,
 * the SBBF's 256/8/8, cache-sectorized 512/8/2, and a shape only the
 * generic instance serves):
 *  - the block index never decreases as the hash grows, below and above
 *    2^32 blocks, so a region of the hash's top bits is a run of blocks;
 *  - two filters of one shape and size, one forced to partition and one
 *    forced not to, hold the same bytes after the same batch inserts
 *    (hashes, int64, int32, byte strings) and give the same answers and
 *    counts, with and without out[], for n = 0, 1, 7, 4099 and 70001, on
 *    filters from one block to past the prefetch threshold;
 *  - a read-only view, partitioned, answers as the plain filter;
 *  - bf_filter_{insert,contains}_hashes partition on a blocked filter and
 *    on an SBBF, with the plain path's bits and answers;
 *  - the mode calls, scratch allocation failing (the call still answers,
 *    on the plain path) and the automatic rule, seen through the
 *    allocation counter (a partitioned call allocates its scratch).
 * The kernel is the process's (BLOCKFILTER_KERNEL; meson test --setup).
 * Plain C (no criterion), so it also runs under qemu-user. Exit status 0
 * on success, 1 on failure.
 */
#include "blocked/blocked.h"
#include "check.h"
#include "sbbf/sbbf_partition.h"
#include "testutil.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const bf_blocked_shape shapes[] = {
    {32, 1, 1, 4}, {64, 1, 1, 4}, {512, 1, 1, 8}, {256, 8, 8, 8}, {512, 8, 2, 8}, {128, 2, 2, 6},
};
#define NUM_SHAPES (sizeof shapes / sizeof shapes[0])
static const size_t lengths[] = {0, 1, 7, 4099, 70001};
#define NUM_LENGTHS (sizeof lengths / sizeof lengths[0])
#define MAXN 70001
/* 0: one block; then bytes (multiples of every block size): a few lines,
 * and past the prefetch threshold with a block count no power of two. */
static const size_t sizes[] = {0, 64 * 1001, (3 << 20) + 64 * 7};
#define NUM_SIZES (sizeof sizes / sizeof sizes[0])

static char *name_of(const bf_blocked_shape *s, char *buf, size_t cap) {
    snprintf(buf, cap, "%u/%u/%u/%u", s->block_bits, s->sectors, s->groups, s->k);
    return buf;
}

/* ---- the block index ------------------------------------------------------- */

static void monotone(void) {
    static const uint64_t counts[] = {1,
                                      3,
                                      1000003,
                                      (uint64_t)1 << 32,
                                      ((uint64_t)1 << 32) + 1,
                                      (uint64_t)1 << 35,
                                      ((uint64_t)1 << 40) + 12345,
                                      UINT64_MAX / 3};
    uint64_t rng = 11;
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        const uint64_t nb = counts[c];
        unsigned long bad = 0;
        for (int i = 0; i < 200000; i++) {
            uint64_t a = tu_next(&rng), b = i % 2 ? a + (tu_next(&rng) >> (i % 64)) : tu_next(&rng);
            if (b < a) {
                uint64_t t = a;
                a = b;
                b = t;
            }
            uint64_t ia = bf__blocked_block_index(a, nb), ib = bf__blocked_block_index(b, nb);
            bad += ia > ib || ib >= nb;
        }
        CHECK(bad == 0, "blocks %llu: index grows with the hash (%lu out of order)",
              (unsigned long long)nb, bad);
        CHECK(bf__blocked_block_index(0, nb) == 0 &&
                  bf__blocked_block_index(UINT64_MAX, nb) == nb - 1,
              "blocks %llu: first and last", (unsigned long long)nb);
        /* Region edges: the last hash of region r maps no further than the
         * first of region r + 1 (12 region bits, the most there are). */
        for (uint64_t r = 0; r + 1 < 4096; r += 97) {
            uint64_t end = ((r + 1) << 52) - 1;
            CHECK(bf__blocked_block_index(end, nb) <= bf__blocked_block_index(end + 1, nb),
                  "blocks %llu: region %llu edge", (unsigned long long)nb,
                  (unsigned long long)r);
        }
    }
}

/* ---- forced on against forced off ------------------------------------------- */

typedef struct pair {
    bf_blocked *on, *off;
} pair;

static int pair_new(pair *p, const bf_blocked_shape *s, size_t bytes) {
    p->on = p->off = NULL;
    if (bf_blocked_new_bytes(&p->on, bytes, s) || bf_blocked_new_bytes(&p->off, bytes, s)) {
        bf_blocked_free(p->on);
        return 0;
    }
    CHECK(bf_blocked_set_partitioning(p->on, BF_PARTITION_ON) == BF_OK, "set on");
    CHECK(bf_blocked_set_partitioning(p->off, BF_PARTITION_OFF) == BF_OK, "set off");
    return 1;
}
static void pair_free(pair *p) {
    bf_blocked_free(p->on);
    bf_blocked_free(p->off);
}
static int same_bits(const pair *p) {
    return !memcmp(bf_blocked_bitset(p->on), bf_blocked_bitset(p->off),
                   (size_t)bf_blocked_num_bytes(p->on));
}

/* Lookups of q (and their hashes h) through a (partitioned) and b
 * (plain): the same counts, with and without out[], the same answers. */
static void compare_lookups(const bf_blocked *a, const bf_blocked *b, const int64_t *q,
                            const uint64_t *h, size_t n, uint8_t *oa, uint8_t *ob,
                            const char *what) {
    memset(oa, 0xAA, n + 8);
    memset(ob, 0x55, n + 8);
    size_t ca = bf_blocked_contains_int64s(a, q, n, oa);
    size_t cb = bf_blocked_contains_int64s(b, q, n, ob);
    CHECK(ca == cb && !memcmp(oa, ob, n), "%s int64 answers n=%zu (%zu vs %zu)", what, n, ca, cb);
    CHECK(oa[n] == 0xAA, "%s nothing written past out[n-1] n=%zu", what, n);
    CHECK(bf_blocked_contains_int64s(a, q, n, NULL) == cb, "%s int64 count n=%zu", what, n);
    memset(oa, 0xAA, n);
    memset(ob, 0x55, n);
    ca = bf_blocked_contains_hashes(a, h, n, oa);
    cb = bf_blocked_contains_hashes(b, h, n, ob);
    CHECK(ca == cb && !memcmp(oa, ob, n), "%s hash answers n=%zu", what, n);
    CHECK(bf_blocked_contains_hashes(a, h, n, NULL) == cb, "%s hash count n=%zu", what, n);
}

/* A batch: keys, their hashes as lookups (half present), int32 keys and
 * byte strings. */
typedef struct batch {
    int64_t *keys, *q;
    int32_t *k32;
    uint64_t *h, *qh;
    char *data;
    int32_t *off;
    uint8_t *oa, *ob;
} batch;

static void fill(batch *b, size_t n, uint64_t *rng) {
    for (size_t i = 0; i < n; i++) {
        b->keys[i] = (int64_t)tu_next(rng);
        b->k32[i] = (int32_t)tu_next(rng);
        b->h[i] = tu_next(rng);
        b->q[i] = i % 2 ? b->keys[(size_t)tu_next(rng) % n] : (int64_t)tu_next(rng);
        b->qh[i] = i % 2 ? b->h[(size_t)tu_next(rng) % n] : tu_next(rng);
    }
    size_t pos = 0;
    for (size_t i = 0; i <= n; i++) {
        b->off[i] = (int32_t)pos;
        if (i == n) break;
        size_t len = (size_t)(tu_next(rng) % 16);
        for (size_t j = 0; j < len; j++) b->data[pos + j] = (char)tu_next(rng);
        pos += len;
    }
}

/* A read-only view of the bits of `src` (through the native format),
 * partitioned, against src plain. */
static void check_view(bf_blocked *src, const batch *b, size_t n, const char *nm) {
    bf_blocked *copy = NULL;
    bf_blocked_shape s;
    bf_blocked_get_shape(src, &s);
    bf_filter *w = NULL, *v = NULL;
    if (bf_blocked_new_bytes(&copy, bf_blocked_num_bytes(src), &s) || bf_blocked_merge(copy, src) ||
        bf_filter_from_blocked(&w, copy)) {
        bf_blocked_free(copy);
        CHECK(0, "%s: copy for a view", nm);
        return;
    }
    size_t len = bf_filter_save_size(w), wr = 0;
    uint8_t *img = malloc(len);
    if (img && bf_filter_save(w, img, len, &wr) == BF_OK && wr == len &&
        bf_filter_view(&v, img, len, 0) == BF_OK) {
        bf_blocked *vb = bf_filter_blocked(v);
        CHECK(bf_blocked_is_readonly(vb), "%s: a view", nm);
        bf_blocked_set_partitioning(vb, BF_PARTITION_ON);
        compare_lookups(vb, src, b->q, b->qh, n, b->oa, b->ob, "view");
    } else {
        CHECK(0, "%s: view", nm);
    }
    bf_filter_free(v);
    bf_filter_free(w);
    free(img);
}

static void check_shape(const bf_blocked_shape *s, batch *b) {
    char nm[32];
    name_of(s, nm, sizeof nm);
    uint64_t rng = 0x5eed + s->block_bits + s->k;
    for (size_t si = 0; si < NUM_SIZES; si++) {
        const size_t bytes = sizes[si] ? sizes[si] : s->block_bits / 8;
        for (size_t li = 0; li < NUM_LENGTHS; li++) {
            const size_t n = lengths[li];
            pair p;
            if (!pair_new(&p, s, bytes)) {
                CHECK(0, "%s: new %zu", nm, bytes);
                continue;
            }
            fill(b, n, &rng);
            CHECK(bf_blocked_insert_int64s(p.on, b->keys, n) == BF_OK &&
                      bf_blocked_insert_int64s(p.off, b->keys, n) == BF_OK,
                  "insert int64s");
            CHECK(same_bits(&p), "%s %zu B n=%zu: int64 insert bytes", nm, bytes, n);
            CHECK(bf_blocked_insert_hashes(p.on, b->h, n) == BF_OK &&
                      bf_blocked_insert_hashes(p.off, b->h, n) == BF_OK,
                  "insert hashes");
            CHECK(same_bits(&p), "%s %zu B n=%zu: hash insert bytes", nm, bytes, n);
            CHECK(bf_blocked_insert_int32s(p.on, b->k32, n) == BF_OK &&
                      bf_blocked_insert_int32s(p.off, b->k32, n) == BF_OK,
                  "insert int32s");
            CHECK(bf_blocked_insert_binary(p.on, b->data, b->off, n) == BF_OK &&
                      bf_blocked_insert_binary(p.off, b->data, b->off, n) == BF_OK,
                  "insert binary");
            CHECK(same_bits(&p), "%s %zu B n=%zu: int32/binary insert bytes", nm, bytes, n);
            compare_lookups(p.on, p.off, b->q, b->qh, n, b->oa, b->ob, nm);
            CHECK(bf_blocked_contains_int64s(p.on, b->keys, n, NULL) == n &&
                      bf_blocked_contains_hashes(p.on, b->h, n, NULL) == n,
                  "%s: no false negative n=%zu", nm, n);
            size_t fa = 0, fb = 1;
            memset(b->oa, 0, n);
            memset(b->ob, 1, n);
            CHECK(bf_blocked_contains_binary(p.on, b->data, b->off, n, b->oa, &fa) == BF_OK &&
                      bf_blocked_contains_binary(p.off, b->data, b->off, n, b->ob, &fb) ==
                          BF_OK &&
                      fa == n && fb == n && !memcmp(b->oa, b->ob, n),
                  "%s: binary answers n=%zu", nm, n);
            memset(b->oa, 0, n);
            memset(b->ob, 1, n);
            CHECK(bf_blocked_contains_int32s(p.on, b->k32, n, b->oa) == n &&
                      bf_blocked_contains_int32s(p.off, b->k32, n, b->ob) == n &&
                      !memcmp(b->oa, b->ob, n),
                  "%s: int32 answers n=%zu", nm, n);
            if (si == 1 && (n == 4099 || n == 70001)) check_view(p.off, b, n, nm);
            pair_free(&p);
        }
    }
}

/* ---- through bf_filter, and the modes --------------------------------------- */

/* Allocations a call makes (a partitioned one allocates its scratch). */
static unsigned long seen;
#define ALLOCATIONS(call)                                                              \
    (bf__alloc_fail_after(LONG_MAX), (void)(call), seen = bf__alloc_count(),           \
     bf__alloc_fail_after(-1), seen)
/* The same on blocked filter f after dropping the scratch block it kept
 * from an earlier batch (setting its mode again does that), so a
 * partitioned call shows as an allocation. */
#define FRESH_ALLOCATIONS(f, call) \
    (bf_blocked_set_partitioning((f), bf_blocked_partitioning(f)), ALLOCATIONS(call))

static void check_filter_hashes(batch *b) {
    const size_t n = 70001, bytes = 1 << 20;
    uint64_t rng = 3;
    fill(b, n, &rng);
    bf_blocked_shape s = {512, 8, 2, 8};
    bf_blocked *on = NULL, *off = NULL;
    bf_filter *fon = NULL, *foff = NULL;
    if (bf_blocked_new_bytes(&on, bytes, &s) || bf_blocked_new_bytes(&off, bytes, &s) ||
        bf_filter_from_blocked(&fon, on) || bf_filter_from_blocked(&foff, off)) {
        CHECK(0, "bf_filter of a blocked filter");
        return;
    }
    bf_blocked_set_partitioning(on, BF_PARTITION_ON);
    bf_blocked_set_partitioning(off, BF_PARTITION_OFF);
    CHECK(ALLOCATIONS(bf_filter_insert_hashes(fon, b->h, n, NULL)) > 0,
          "bf_filter insert partitioned (blocked)");
    CHECK(ALLOCATIONS(bf_filter_insert_hashes(foff, b->h, n, NULL)) == 0,
          "bf_filter insert plain when off (blocked)");
    CHECK(!memcmp(bf_blocked_bitset(on), bf_blocked_bitset(off), bytes), "bf_filter insert bytes");
    size_t ca = 0, cb = 0;
    CHECK(ALLOCATIONS(ca = bf_filter_contains_hashes(fon, b->qh, n, b->oa)) > 0,
          "bf_filter contains partitioned (blocked)");
    cb = bf_filter_contains_hashes(foff, b->qh, n, b->ob);
    CHECK(ca == cb && !memcmp(b->oa, b->ob, n), "bf_filter answers (blocked)");
    bf_filter_free(fon);
    bf_filter_free(foff);

    /* The SBBF through bf_filter. */
    bf_sbbf *son = NULL, *soff = NULL;
    if (bf_sbbf_new_bytes(&son, bytes) || bf_sbbf_new_bytes(&soff, bytes) ||
        bf_filter_from_sbbf(&fon, son) || bf_filter_from_sbbf(&foff, soff)) {
        CHECK(0, "bf_filter of an SBBF");
        return;
    }
    bf_sbbf_set_partitioning(son, BF_PARTITION_ON);
    bf_sbbf_set_partitioning(soff, BF_PARTITION_OFF);
    CHECK(ALLOCATIONS(bf_filter_insert_hashes(fon, b->h, n, NULL)) > 0,
          "bf_filter insert partitioned (SBBF)");
    bf_filter_insert_hashes(foff, b->h, n, NULL);
    CHECK(!memcmp(bf_sbbf_bitset(son), bf_sbbf_bitset(soff), bytes), "bf_filter insert bytes");
    CHECK(ALLOCATIONS(ca = bf_filter_contains_hashes(fon, b->qh, n, b->oa)) > 0,
          "bf_filter contains partitioned (SBBF)");
    CHECK(ALLOCATIONS(cb = bf_filter_contains_hashes(foff, b->qh, n, b->ob)) == 0,
          "bf_filter contains plain when off (SBBF)");
    CHECK(ca == cb && !memcmp(b->oa, b->ob, n), "bf_filter answers (SBBF)");
    bf_filter_free(fon);
    bf_filter_free(foff);
}

static void check_modes(batch *b) {
    bf_blocked_shape s = {64, 1, 1, 4};
    bf_blocked *f = NULL;
    CHECK(bf_blocked_new_bytes(&f, 1 << 16, &s) == BF_OK, "new");
    if (!f) return;
    CHECK(bf_blocked_partitioning(f) == BF_PARTITION_AUTO, "starts auto");
    CHECK(bf_blocked_set_partitioning(f, 3) == BF_EINVAL, "bad mode");
    CHECK(bf_blocked_set_partitioning(f, -1) == BF_EINVAL, "bad mode");
    CHECK(bf_blocked_set_partitioning(NULL, BF_PARTITION_ON) == BF_EINVAL, "NULL filter");
    CHECK(bf_blocked_partitioning(f) == BF_PARTITION_AUTO, "unchanged");
    CHECK(bf_blocked_partitioning(NULL) == BF_PARTITION_AUTO, "NULL: auto");

    enum { N = 5000 };
    uint64_t rng = 7;
    fill(b, N, &rng);
    bf_blocked_insert_int64s(f, b->keys, N / 2);
    const char *env = getenv("BLOCKFILTER_PARTITION");
    int env_on = env && !strcmp(env, "on"), env_off = env && !strcmp(env, "off");
    CHECK((FRESH_ALLOCATIONS(f, bf_blocked_contains_int64s(f, b->q, N, NULL)) > 0) == env_on,
          "auto on a small filter (env %s)", env ? env : "unset");
    bf_blocked_set_partitioning(f, BF_PARTITION_ON);
    CHECK(bf_blocked_partitioning(f) == BF_PARTITION_ON, "mode on");
    CHECK(ALLOCATIONS(bf_blocked_contains_int64s(f, b->q, N, NULL)) > 0, "forced on partitions");
    bf_blocked_set_partitioning(f, BF_PARTITION_OFF);
    CHECK(ALLOCATIONS(bf_blocked_contains_int64s(f, b->q, N, NULL)) == 0, "forced off does not");

    /* The scratch block is kept between batches, as the SBBF's is: a
     * second batch no larger allocates nothing, a larger one replaces it,
     * and the mode setter and the filter's free give it back. */
    bf_blocked_set_partitioning(f, BF_PARTITION_ON);
    long live = bf__alloc_live();
    CHECK(ALLOCATIONS(bf_blocked_contains_int64s(f, b->q, N / 2, b->oa)) == 1 &&
              bf__alloc_live() == live + 1,
          "first batch allocates one scratch block and keeps it");
    CHECK(ALLOCATIONS((bf_blocked_contains_int64s(f, b->q, N / 2, b->oa),
                       bf_blocked_contains_int64s(f, b->q, N / 4, NULL),
                       bf_blocked_insert_int64s(f, b->keys, N / 8))) == 0,
          "smaller batches reuse it");
    CHECK(ALLOCATIONS(bf_blocked_contains_int64s(f, b->q, N, b->oa)) == 1 &&
              bf__alloc_live() == live + 1,
          "a larger one replaces it");
    bf_blocked_set_partitioning(f, BF_PARTITION_ON);
    CHECK(bf__alloc_live() == live, "setting the mode frees it");
    bf_blocked_contains_int64s(f, b->q, N / 2, NULL);
    bf_blocked_set_partitioning(f, BF_PARTITION_OFF);

    /* Scratch memory failing: the call still answers, on the plain path. */
    size_t want = bf_blocked_contains_int64s(f, b->q, N, b->ob);
    bf_blocked_set_partitioning(f, BF_PARTITION_ON);
    for (long k = 0; k < 3; k++) {
        bf__alloc_fail_after(k);
        memset(b->oa, 7, N);
        size_t got = bf_blocked_contains_int64s(f, b->q, N, b->oa);
        size_t goth = bf_blocked_contains_hashes(f, b->qh, N, NULL);
        bf__alloc_fail_after(-1);
        CHECK(got == want && !memcmp(b->oa, b->ob, N), "allocation %ld failing: same answers", k);
        (void)goth;
    }
    bf__alloc_fail_after(0);
    CHECK(bf_blocked_insert_int64s(f, b->keys, N) == BF_OK &&
              bf_blocked_insert_hashes(f, b->h, N) == BF_OK,
          "insert with no scratch");
    bf__alloc_fail_after(-1);
    CHECK(bf_blocked_contains_int64s(f, b->keys, N, NULL) == N &&
              bf_blocked_contains_hashes(f, b->h, N, NULL) == N,
          "inserted without scratch");
    bf_blocked_free(f);
    f = NULL;

    /* The automatic rule past the size threshold: from one key per 64-byte
     * line of the filter, counts and inserts only. */
    const bf_sbbf_part_tuning *t = &bf__sbbf_part_tuning;
    size_t big = (size_t)t->min_filter_bytes;
    size_t many = (size_t)(t->min_keys_per_line * (double)(big / 64)) + 1;
    uint64_t *mh = malloc(many * sizeof *mh);
    uint8_t *mo = malloc(many);
    s = (bf_blocked_shape){512, 8, 2, 8};
    if (mh && mo && bf_blocked_new_bytes(&f, big, &s) == BF_OK) {
        for (size_t i = 0; i < many; i++) mh[i] = tu_next(&rng);
        CHECK((FRESH_ALLOCATIONS(f, bf_blocked_insert_hashes(f, mh, many)) > 0) == !env_off,
              "auto: large batch insert, large filter");
        CHECK((FRESH_ALLOCATIONS(f, bf_blocked_contains_hashes(f, mh, many, NULL)) > 0) == !env_off,
              "auto: large batch, large filter");
        CHECK((FRESH_ALLOCATIONS(f, bf_blocked_contains_hashes(f, mh, many / 4, NULL)) > 0) == env_on,
              "auto: small batch, large filter");
        CHECK((FRESH_ALLOCATIONS(f, bf_blocked_contains_hashes(f, mh, many, mo)) > 0) == env_on,
              "auto: answers to out[] stay plain");
        CHECK(bf_blocked_contains_hashes(f, mh, many, NULL) == many, "auto: no false negative");
    } else {
        CHECK(0, "large filter");
    }
    bf_blocked_free(f);
    free(mh);
    free(mo);
}

int main(void) {
    batch b = {
        .keys = malloc(MAXN * sizeof(int64_t)),
        .q = malloc(MAXN * sizeof(int64_t)),
        .k32 = malloc(MAXN * sizeof(int32_t)),
        .h = malloc(MAXN * sizeof(uint64_t)),
        .qh = malloc(MAXN * sizeof(uint64_t)),
        .data = malloc(MAXN * 16),
        .off = malloc((MAXN + 1) * sizeof(int32_t)),
        .oa = malloc(MAXN + 8),
        .ob = malloc(MAXN + 8),
    };
    if (!b.keys || !b.q || !b.k32 || !b.h || !b.qh || !b.data || !b.off || !b.oa || !b.ob) {
        CHECK(0, "out of memory");
    } else {
        monotone();
        for (size_t i = 0; i < NUM_SHAPES; i++) check_shape(&shapes[i], &b);
        check_filter_hashes(&b);
        check_modes(&b);
    }
    free(b.keys);
    free(b.q);
    free(b.k32);
    free(b.h);
    free(b.qh);
    free(b.data);
    free(b.off);
    free(b.oa);
    free(b.ob);
    const char *k = NULL;
    bf_sbbf_default_kernel(&k);
    printf("blocked partitioned batches (kernel %s): %lu passed, %lu failed\n", k ? k : "?",
           passed, failed);
    return failed ? 1 : 0;
}
