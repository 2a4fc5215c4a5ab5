/*
 * Partitioned batches (docs/kernels.md) against the plain path, under every
 * kernel compiled in and runnable here: two filters of one size and kernel,
 * one forced to partition and one forced not to, must hold the same bytes
 * after the same batch inserts (hashes, int64, int32, byte strings) and
 * give the same answers and counts to the same batch lookups, with and
 * without out[], for batch lengths 0, 1, around the pipeline's chunk and
 * past the partitioner's 2^16-hash slices, on filters from one block to
 * past the prefetch threshold, owned and read-only views. Also: a batch of
 * one repeated key (its bucket fills again and again), scratch allocation
 * failing (the call still answers, on the plain path), the mode calls,
 * BLOCKFILTER_PARTITION, and the automatic rule (large filters, large
 * batches, not lookups writing out[]), observed through the allocation
 * counter (a partitioned call allocates its scratch), and the scratch
 * block a filter keeps between batches (reused, replaced when too small,
 * freed with the filter and by the mode setter).
 *
 * Plain C (no criterion), so it also runs under qemu-user and in every
 * kernel setup. Exit status 0 on success, 1 on failure.
 */
#include "check.h"
#include "sbbf/sbbf_partition.h"
#include "testutil.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const size_t lengths[] = {0, 1, 2, 7, 255, 256, 257, 1000, 4099, 70001};
#define NUM_LENGTHS (sizeof lengths / sizeof lengths[0])
#define MAXN 70001

/* Filter sizes in bytes: one block, a few KiB, non-power-of-two block
 * counts, and past BF_SBBF_PREFETCH_MIN_BYTES and the 2 MiB of a huge page. */
static const size_t sizes[] = {32, 4096, 32 * 1001, 1 << 20, (3 << 20) + 32 * 7};
#define NUM_SIZES (sizeof sizes / sizeof sizes[0])

typedef struct pair {
    bf_sbbf *on, *off;
} pair;

static int pair_new(pair *p, size_t bytes, const char *kernel) {
    p->on = p->off = NULL;
    if (bf_sbbf_new_bytes_kernel(&p->on, bytes, kernel) ||
        bf_sbbf_new_bytes_kernel(&p->off, bytes, kernel)) {
        bf_sbbf_free(p->on);
        return 0;
    }
    CHECK(bf_sbbf_set_partitioning(p->on, BF_PARTITION_ON) == BF_OK, "set on");
    CHECK(bf_sbbf_set_partitioning(p->off, BF_PARTITION_OFF) == BF_OK, "set off");
    return 1;
}
static void pair_free(pair *p) {
    bf_sbbf_free(p->on);
    bf_sbbf_free(p->off);
}

static int same_bits(const pair *p) {
    return !memcmp(bf_sbbf_bitset(p->on), bf_sbbf_bitset(p->off), bf_sbbf_num_bytes(p->on));
}

/* Lookups of q through filters a (partitioned) and b (plain): the same
 * counts, with and without out[], and the same answers. */
static void compare_lookups(const bf_sbbf *a, const bf_sbbf *b, const int64_t *q, size_t n,
                            uint8_t *oa, uint8_t *ob, const char *what) {
    memset(oa, 0xAA, n + 8);
    memset(ob, 0x55, n + 8);
    size_t ca = bf_sbbf_contains_int64s(a, q, n, oa);
    size_t cb = bf_sbbf_contains_int64s(b, q, n, ob);
    CHECK(ca == cb && !memcmp(oa, ob, n), "%s int64 answers n=%zu (%zu vs %zu)", what, n, ca, cb);
    CHECK(oa[n] == 0xAA, "%s nothing written past out[n-1] n=%zu", what, n);
    CHECK(bf_sbbf_contains_int64s(a, q, n, NULL) == cb, "%s int64 count n=%zu", what, n);
    uint64_t *h = malloc((n ? n : 1) * sizeof *h);
    if (!h) return;
    bf_hash_int64s(q, n, bf_sbbf_seed(a), h);
    memset(oa, 0, n);
    CHECK(bf_sbbf_contains_hashes(a, h, n, oa) == cb && !memcmp(oa, ob, n),
          "%s hash answers n=%zu", what, n);
    CHECK(bf_sbbf_contains_hashes(a, h, n, NULL) == cb, "%s hash count n=%zu", what, n);
    free(h);
}

static void check_kernel(const char *kernel) {
    int64_t *keys = malloc(MAXN * sizeof *keys), *q = malloc(MAXN * sizeof *q);
    int32_t *k32 = malloc(MAXN * sizeof *k32);
    uint64_t *h = malloc(MAXN * sizeof *h);
    uint8_t *oa = malloc(MAXN + 8), *ob = malloc(MAXN + 8);
    char *data = malloc(MAXN * 16);
    int32_t *off = malloc((MAXN + 1) * sizeof *off);
    if (!keys || !q || !k32 || !h || !oa || !ob || !data || !off) {
        CHECK(0, "out of memory");
        goto done;
    }
    uint64_t rng = 0x5eed;
    for (size_t si = 0; si < NUM_SIZES; si++) {
        for (size_t li = 0; li < NUM_LENGTHS; li++) {
            const size_t n = lengths[li];
            pair p;
            if (!pair_new(&p, sizes[si], kernel)) {
                CHECK(0, "new %s %zu", kernel, sizes[si]);
                continue;
            }
            for (size_t i = 0; i < n; i++) {
                keys[i] = (int64_t)tu_next(&rng);
                k32[i] = (int32_t)tu_next(&rng);
                h[i] = tu_next(&rng);
                /* Half present, half (almost surely) absent. */
                q[i] = i % 2 ? keys[(size_t)tu_next(&rng) % n] : (int64_t)tu_next(&rng);
            }
            size_t pos = 0;
            for (size_t i = 0; i <= n; i++) {
                off[i] = (int32_t)pos;
                if (i == n) break;
                size_t len = (size_t)(tu_next(&rng) % 16);
                for (size_t j = 0; j < len; j++) data[pos + j] = (char)tu_next(&rng);
                pos += len;
            }
            CHECK(bf_sbbf_insert_int64s(p.on, keys, n) == BF_OK &&
                      bf_sbbf_insert_int64s(p.off, keys, n) == BF_OK,
                  "insert int64s");
            CHECK(same_bits(&p), "%s %zu B n=%zu: int64 insert bytes", kernel, sizes[si], n);
            CHECK(bf_sbbf_insert_hashes(p.on, h, n) == BF_OK &&
                      bf_sbbf_insert_hashes(p.off, h, n) == BF_OK,
                  "insert hashes");
            CHECK(same_bits(&p), "%s %zu B n=%zu: hash insert bytes", kernel, sizes[si], n);
            CHECK(bf_sbbf_insert_int32s(p.on, k32, n) == BF_OK &&
                      bf_sbbf_insert_int32s(p.off, k32, n) == BF_OK,
                  "insert int32s");
            CHECK(bf_sbbf_insert_binary(p.on, data, off, n) == BF_OK &&
                      bf_sbbf_insert_binary(p.off, data, off, n) == BF_OK,
                  "insert binary");
            CHECK(same_bits(&p), "%s %zu B n=%zu: int32/binary insert bytes", kernel, sizes[si],
                  n);
            compare_lookups(p.on, p.off, q, n, oa, ob, kernel);
            /* Every inserted key is found, partitioned. */
            CHECK(bf_sbbf_contains_int64s(p.on, keys, n, NULL) == n, "no false negative n=%zu",
                  n);
            size_t fa = 0, fb = 1;
            memset(oa, 0, n);
            memset(ob, 1, n);
            CHECK(bf_sbbf_contains_binary(p.on, data, off, n, oa, &fa) == BF_OK &&
                      bf_sbbf_contains_binary(p.off, data, off, n, ob, &fb) == BF_OK &&
                      fa == n && fb == n && !memcmp(oa, ob, n),
                  "binary answers n=%zu", n);
            memset(oa, 0, n);
            memset(ob, 1, n);
            CHECK(bf_sbbf_contains_int32s(p.on, k32, n, oa) == n &&
                      bf_sbbf_contains_int32s(p.off, k32, n, ob) == n && !memcmp(oa, ob, n),
                  "int32 answers n=%zu", n);
            /* A read-only view over the bits, partitioned. */
            bf_sbbf *v = NULL;
            if (bf_sbbf_view_kernel(&v, bf_sbbf_bitset(p.off), sizes[si], kernel) == BF_OK) {
                bf_sbbf_set_partitioning(v, BF_PARTITION_ON);
                compare_lookups(v, p.off, q, n, oa, ob, "view");
                bf_sbbf_free(v);
            } else {
                CHECK(0, "view");
            }
            pair_free(&p);
        }
    }

    /* One key, 50 000 times: its bucket fills and is flushed mid-batch
     * again and again; positions must survive that. */
    {
        pair p;
        if (pair_new(&p, 1 << 20, kernel)) {
            const size_t n = 50000;
            for (size_t i = 0; i < n; i++) q[i] = i % 3 ? 42 : (int64_t)tu_next(&rng);
            bf_sbbf_insert_int64s(p.on, q, n);
            bf_sbbf_insert_int64s(p.off, q, n);
            CHECK(same_bits(&p), "%s repeated key insert bytes", kernel);
            compare_lookups(p.on, p.off, q, n, oa, ob, "repeated key");
            pair_free(&p);
        }
    }
done:
    free(keys);
    free(q);
    free(k32);
    free(h);
    free(oa);
    free(ob);
    free(data);
    free(off);
}

/* Allocations a lookup of n keys makes (a partitioned one allocates its
 * scratch memory, unless the filter kept a block from an earlier batch:
 * setting the mode again drops that first). */
static unsigned long allocations(bf_sbbf *f, const int64_t *q, size_t n, uint8_t *out) {
    bf_sbbf_set_partitioning(f, bf_sbbf_partitioning(f));
    bf__alloc_fail_after(LONG_MAX);
    bf_sbbf_contains_int64s(f, q, n, out);
    unsigned long c = bf__alloc_count();
    bf__alloc_fail_after(-1);
    return c;
}

static void check_modes(void) {
    bf_sbbf *f = NULL;
    CHECK(bf_sbbf_new_bytes(&f, 1 << 16) == BF_OK, "new");
    if (!f) return;
    CHECK(bf_sbbf_partitioning(f) == BF_PARTITION_AUTO, "starts auto");
    CHECK(bf_sbbf_set_partitioning(f, 3) == BF_EINVAL, "bad mode");
    CHECK(bf_sbbf_set_partitioning(f, -1) == BF_EINVAL, "bad mode");
    CHECK(bf_sbbf_set_partitioning(NULL, BF_PARTITION_ON) == BF_EINVAL, "NULL filter");
    CHECK(bf_sbbf_partitioning(f) == BF_PARTITION_AUTO, "unchanged");

    enum { N = 5000 };
    int64_t *q = malloc(N * sizeof *q);
    uint8_t *a = malloc(N), *b = malloc(N);
    if (!q || !a || !b) goto done;
    uint64_t rng = 7;
    for (size_t i = 0; i < N; i++) q[i] = (int64_t)tu_next(&rng);
    bf_sbbf_insert_int64s(f, q, N / 2);

    const char *env = getenv("BLOCKFILTER_PARTITION");
    int env_on = env && !strcmp(env, "on");
    /* A 64 KiB filter: never partitioned automatically. */
    CHECK((allocations(f, q, N, NULL) > 0) == env_on, "auto on a small filter (env %s)",
          env ? env : "unset");
    bf_sbbf_set_partitioning(f, BF_PARTITION_ON);
    CHECK(bf_sbbf_partitioning(f) == BF_PARTITION_ON, "mode on");
    CHECK(allocations(f, q, N, NULL) > 0, "forced on partitions");
    bf_sbbf_set_partitioning(f, BF_PARTITION_OFF);
    CHECK(allocations(f, q, N, NULL) == 0, "forced off does not");

    /* The scratch block is kept between batches: a second batch of the
     * same size or smaller allocates nothing, a larger one replaces it,
     * and nothing is left once the filter is gone. */
    bf_sbbf_set_partitioning(f, BF_PARTITION_ON);
    long live = bf__alloc_live();
    bf__alloc_fail_after(LONG_MAX);
    bf_sbbf_contains_int64s(f, q, N / 2, a);
    CHECK(bf__alloc_count() == 1, "first batch allocates one scratch block");
    CHECK(bf__alloc_live() == live + 1, "and keeps it");
    bf__alloc_fail_after(LONG_MAX);
    bf_sbbf_contains_int64s(f, q, N / 2, a);
    bf_sbbf_contains_int64s(f, q, N / 4, NULL);
    bf_sbbf_insert_int64s(f, q, N / 8);
    CHECK(bf__alloc_count() == 0, "smaller batches reuse it");
    bf_sbbf_contains_int64s(f, q, N, a);
    CHECK(bf__alloc_count() == 1 && bf__alloc_live() == live + 1, "a larger one replaces it");
    bf__alloc_fail_after(-1);
    bf_sbbf_set_partitioning(f, BF_PARTITION_ON);
    CHECK(bf__alloc_live() == live, "setting the mode frees it");

    /* Scratch memory failing: the partitioned call still answers. */
    bf_sbbf_set_partitioning(f, BF_PARTITION_OFF);
    size_t want = bf_sbbf_contains_int64s(f, q, N, b);
    for (long k = 0; k < 3; k++) {
        bf_sbbf_set_partitioning(f, BF_PARTITION_ON); /* no block kept */
        bf__alloc_fail_after(k);
        memset(a, 7, N);
        size_t got = bf_sbbf_contains_int64s(f, q, N, a);
        bf__alloc_fail_after(-1);
        CHECK(got == want && !memcmp(a, b, N), "allocation %ld failing: same answers", k);
    }
    bf_sbbf_set_partitioning(f, BF_PARTITION_ON);
    bf__alloc_fail_after(0);
    CHECK(bf_sbbf_insert_int64s(f, q, N) == BF_OK, "insert with no scratch");
    bf__alloc_fail_after(-1);
    CHECK(bf_sbbf_contains_int64s(f, q, N, NULL) == N, "inserted without scratch");
    bf_sbbf_free(f);
    f = NULL;

    /* The automatic rule on a filter past the size threshold: partitioned
     * from one key per 64-byte line of the filter, not below (unless the
     * environment forces a mode). */
    const bf_sbbf_part_tuning *t = &bf__sbbf_part_tuning;
    size_t big = (size_t)t->min_filter_bytes;
    size_t many = (size_t)(t->min_keys_per_line * (double)(big / 64)) + 1;
    int64_t *mq = malloc(many * sizeof *mq);
    if (mq && bf_sbbf_new_bytes(&f, big) == BF_OK) {
        for (size_t i = 0; i < many; i++) mq[i] = (int64_t)tu_next(&rng);
        int env_off = env && !strcmp(env, "off");
        CHECK((allocations(f, mq, many, NULL) > 0) == !env_off, "auto: large batch, large filter");
        CHECK((allocations(f, mq, many / 4, NULL) > 0) == env_on, "auto: small batch, large filter");
        uint8_t *mo = malloc(many);
        if (mo)
            CHECK((allocations(f, mq, many, mo) > 0) == env_on, "auto: answers to out[] stay plain");
        free(mo);
    }
    bf_sbbf_free(f);
    free(mq);
done:
    free(q);
    free(a);
    free(b);
}

/* The region size left to the CPU: a quarter of the L2 CPUID reports,
 * clamped, or the fallback where it says nothing; and the plan cuts a
 * filter into regions no larger. */
static void check_region_size(void) {
    const uint64_t l2 = bf__cpu_l2_bytes(), r = bf__part_region_bytes();
    const uint64_t lo = (uint64_t)64 << 10, hi = (uint64_t)1 << 20;
    if (!l2) CHECK(r == BF_PART_REGION_FALLBACK, "region: fallback without an L2 size");
    else CHECK(r == (l2 / 4 < lo ? lo : l2 / 4 > hi ? hi : l2 / 4), "region: a quarter of L2, clamped");
    CHECK(bf__sbbf_part_tuning.region_bytes == 0, "region: the SBBF's tuning leaves it to the CPU");
    const uint64_t filter = (uint64_t)125 << 20;
    bf_part_plan plan = bf__part_plan(filter, 100000000, r, 8, (uint64_t)1 << 40);
    CHECK((filter >> plan.bits) <= r && (filter >> (plan.bits - 1)) > r, "region: the plan's regions fit it");
    printf("L2 %llu KiB (CPUID), regions of %llu KiB\n", (unsigned long long)(l2 >> 10),
           (unsigned long long)(r >> 10));
}

int main(void) {
    char tested[128] = "";
    check_region_size();
    for (size_t i = 0; i < bf_sbbf_kernel_count(); i++) {
        const char *name = bf_sbbf_kernel_name(i);
        if (!name || !bf_sbbf_kernel_supported(name)) continue;
        check_kernel(name);
        strncat(tested, " ", sizeof tested - strlen(tested) - 1);
        strncat(tested, name, sizeof tested - strlen(tested) - 1);
    }
    check_modes();
    printf("partitioned batches (kernels:%s): %lu passed, %lu failed\n", tested, passed, failed);
    return failed ? 1 : 0;
}
