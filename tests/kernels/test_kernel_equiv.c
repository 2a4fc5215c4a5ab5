/*
 * Every SBBF kernel compiled in and supported here against the scalar
 * reference: identical filter memory after inserts and identical answers,
 * single and batch, for random and structured hashes, one-block and
 * non-power-of-two filters, batch lengths around the vector widths, n = 0,
 * misaligned hash arrays and misaligned bitsets (writable and views).
 * Also: the kernel BLOCKFILTER_KERNEL forces is the one a new filter gets,
 * and an unknown or unsupported name makes creation fail with BF_EKERNEL.
 *
 * Plain C (no criterion) so it also runs under qemu-user. Exit status 0 on
 * success, 1 on failure, 77 (skip) when the forced kernel cannot run here.
 */
#include "check.h"
#include "kernel_hashes.h"
#include "sbbf/sbbf.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>



static const size_t batch_lengths[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 18, 23, 24, 25,
                                       31, 32, 33, 63, 64, 65, 100, 257, 1000, 4001};
#define NUM_LENGTHS (sizeof batch_lengths / sizeof batch_lengths[0])

/* Filter sizes in blocks: one block, small, non-powers of two, and one
 * past BF_SBBF_PREFETCH_MIN_BYTES so the prefetching loops run too. */
static const uint64_t block_counts[] = {1, 2, 3, 7, 64, 1000, 4099, 40009};
#define NUM_SIZES (sizeof block_counts / sizeof block_counts[0])

#define MAXN 4001
#define SLACK 64

static void compare_kernel(const bf_kernel *k) {
    const bf_kernel *ref = &bf__sbbf_kernel_scalar;
    uint64_t *h = malloc(MAXN * sizeof *h);
    uint64_t *q = malloc((MAXN + NUM_LENGTHS) * sizeof *q);
    uint8_t *hbuf = malloc(MAXN * sizeof *h + 16);
    uint8_t *out_k = malloc(MAXN + SLACK), *out_r = malloc(MAXN + SLACK);
    if (!h || !q || !hbuf || !out_k || !out_r) {
        CHECK(0, "out of memory");
        goto done;
    }
    for (size_t si = 0; si < NUM_SIZES; si++) {
        const uint64_t z = block_counts[si];
        const size_t bytes = (size_t)z * 32;
        /* Two writable bitsets at misalignment mis within a larger buffer. */
        uint8_t *mem_k = malloc(bytes + 64), *mem_r = malloc(bytes + 64);
        if (!mem_k || !mem_r) {
            CHECK(0, "out of memory");
            free(mem_k);
            free(mem_r);
            goto done;
        }
        for (int kind = 0; kind < NUM_SETS; kind++) {
            const size_t mis = (size_t)(kind * 5 + si) % 33; /* 0..32: aligned and not */
            uint8_t *bk = mem_k + mis, *br = mem_r + mis;
            memset(mem_k, 0, bytes + 64);
            memset(mem_r, 0, bytes + 64);
            const uint64_t seed = 1000003u * (uint64_t)(kind + 1) + z;

            /* Single inserts, then single queries. */
            size_t ns = z < 64 ? 40 : 2000;
            make_hashes(kind, h, ns, seed);
            for (size_t i = 0; i < ns; i++) {
                k->insert(bk, z, h[i]);
                ref->insert(br, z, h[i]);
            }
            CHECK(memcmp(mem_k, mem_r, bytes + 64) == 0, "%s single insert z=%llu set=%s",
                  k->name, (unsigned long long)z, set_names[kind]);
            make_hashes(SET_RANDOM, q, MAXN + NUM_LENGTHS, seed ^ 0xabcdef);
            /* Present keys scattered among random ones (about half), so an
             * answer shifted to a neighbouring position shows. */
            uint64_t mix = seed ^ 0x5eed;
            for (size_t i = 0; ns && i < MAXN + NUM_LENGTHS; i++)
                if (tu_next(&mix) & 1) q[i] = h[tu_next(&mix) % ns];
            size_t mism = 0, hits = 0;
            for (size_t i = 0; i < MAXN; i++) {
                bool a = k->contains(bk, z, q[i]), b = ref->contains(br, z, q[i]);
                mism += a != b;
                hits += a;
            }
            CHECK(mism == 0, "%s single contains z=%llu set=%s: %zu differ", k->name,
                  (unsigned long long)z, set_names[kind], mism);
            CHECK(hits >= ns / 2, "%s: inserted keys must be found", k->name);

            /* Batch inserts of every length, from misaligned arrays, on top. */
            for (size_t li = 0; li < NUM_LENGTHS; li++) {
                size_t n = batch_lengths[li];
                make_hashes(kind, h, n, seed + 7 * li + 1);
                const uint64_t *hk = at_offset(hbuf, li % 8, h, n);
                k->insert_batch(bk, z, hk, n);
                for (size_t i = 0; i < n; i++) ref->insert(br, z, h[i]);
                CHECK(memcmp(mem_k, mem_r, bytes + 64) == 0,
                      "%s batch insert z=%llu set=%s n=%zu", k->name, (unsigned long long)z,
                      set_names[kind], n);
            }

            /* Batch queries of every length, with and without out[]. */
            for (size_t li = 0; li < NUM_LENGTHS; li++) {
                size_t n = batch_lengths[li];
                const uint64_t *qk = at_offset(hbuf, (li + 3) % 8, q + li, n);
                memset(out_k, 0xee, MAXN + SLACK);
                memset(out_r, 0xee, MAXN + SLACK);
                size_t ck = k->contains_batch(bk, z, qk, n, out_k);
                size_t cr = ref->contains_batch(br, z, q + li, n, out_r);
                size_t ones = 0;
                for (size_t i = 0; i < n; i++) ones += out_k[i] == 1;
                CHECK(ck == cr && memcmp(out_k, out_r, MAXN + SLACK) == 0,
                      "%s batch contains z=%llu set=%s n=%zu (%zu vs %zu)", k->name,
                      (unsigned long long)z, set_names[kind], n, ck, cr);
                CHECK(ones == ck, "%s: count equals the 1s written", k->name);
                CHECK(out_k[n] == 0xee, "%s wrote past out[n-1], n=%zu", k->name, n);
                size_t mis2 = 0;
                for (size_t i = 0; i < n; i++) mis2 += out_k[i] != (uint8_t)ref->contains(br, z, q[li + i]);
                CHECK(mis2 == 0, "%s batch vs single answers n=%zu", k->name, n);
                CHECK(k->contains_batch(bk, z, qk, n, NULL) == cr, "%s count-only n=%zu",
                      k->name, n);
            }
        }
        free(mem_k);
        free(mem_r);
    }
done:
    free(h);
    free(q);
    free(hbuf);
    free(out_k);
    free(out_r);
}

/* The public API with a named kernel, over owned filters and over views at
 * every misalignment 0..31: same bytes, same answers as scalar. */
static void compare_api(const char *name) {
    enum { N = 3000 };
    static uint64_t h[N], q[N];
    static uint8_t out_a[N], out_b[N];
    make_hashes(SET_RANDOM, h, N, 42);
    make_hashes(SET_RANDOM, q, N, 43);
    /* A third of the queries are inserted keys, at random positions. */
    uint64_t mix = 44;
    for (size_t i = 0; i < N; i++)
        if (tu_next(&mix) % 3 == 0) q[i] = h[tu_next(&mix) % (N / 3 * 2)];
    const size_t sizes[] = {32, 96, 1024 * 32 + 32 * 3};
    for (size_t s = 0; s < 3; s++) {
        bf_sbbf *a = NULL, *b = NULL;
        int ra = bf_sbbf_new_bytes_kernel(&a, sizes[s], name);
        int rb = bf_sbbf_new_bytes_kernel(&b, sizes[s], "scalar");
        CHECK(ra == BF_OK && rb == BF_OK, "create %s: %d %d", name, ra, rb);
        if (ra || rb) {
            bf_sbbf_free(a);
            bf_sbbf_free(b);
            continue;
        }
        CHECK(strcmp(bf_sbbf_kernel(a), name) == 0, "filter kernel %s != %s", bf_sbbf_kernel(a),
              name);
        bf_sbbf_insert_hashes(a, h, 0);
        CHECK(bf_sbbf_contains_hashes(a, h, 0, out_a) == 0, "n = 0 counts nothing");
        bf_sbbf_insert_hashes(a, h, N / 2);
        for (size_t i = N / 2; i < N / 3 * 2; i++) bf_sbbf_insert_hash(a, h[i]);
        for (size_t i = 0; i < N / 3 * 2; i++) bf_sbbf_insert_hash(b, h[i]);
        CHECK(memcmp(bf_sbbf_bitset(a), bf_sbbf_bitset(b), sizes[s]) == 0, "%s api bytes", name);
        size_t ca = bf_sbbf_contains_hashes(a, q, N, out_a);
        size_t cb = bf_sbbf_contains_hashes(b, q, N, out_b);
        CHECK(ca == cb && memcmp(out_a, out_b, N) == 0, "%s api batch answers", name);
        CHECK(ca >= N / 4, "%s: present keys found", name);

        uint8_t *buf = malloc(sizes[s] + 32);
        for (size_t mis = 0; buf && mis < 32; mis++) {
            memcpy(buf + mis, bf_sbbf_bitset(b), sizes[s]);
            bf_sbbf *v = NULL;
            int rv = bf_sbbf_view_kernel(&v, buf + mis, sizes[s], name);
            CHECK(rv == BF_OK, "view %s: %d", name, rv);
            if (rv) continue;
            CHECK(strcmp(bf_sbbf_kernel(v), name) == 0, "view kernel");
            memset(out_a, 0, N);
            size_t cv = bf_sbbf_contains_hashes(v, q, N, out_a);
            size_t single = 0;
            for (size_t i = 0; i < N; i++) single += out_a[i] == bf_sbbf_contains_hash(v, q[i]);
            CHECK(cv == cb && memcmp(out_a, out_b, N) == 0 && single == N,
                  "%s view at misalignment %zu", name, mis);
            CHECK(bf_sbbf_insert_hash(v, q[N - 1]) == BF_EREADONLY, "view refuses inserts");
            CHECK(memcmp(buf + mis, bf_sbbf_bitset(b), sizes[s]) == 0, "view unchanged");
            bf_sbbf_free(v);
        }
        free(buf);
        bf_sbbf_free(a);
        bf_sbbf_free(b);
    }
}

/* BLOCKFILTER_KERNEL: the forced kernel is the one new filters get;
 * unknown and unsupported names fail with BF_EKERNEL. Returns 0 if the
 * forced kernel (if any) can run here. */
static int check_forcing(void) {
    const char *forced = getenv("BLOCKFILTER_KERNEL");
    char saved[64] = "";
    int runnable = 1;
    if (forced && *forced) {
        snprintf(saved, sizeof saved, "%s", forced);
        bf_sbbf *f = NULL;
        int rc = bf_sbbf_new_bytes(&f, 1024);
        if (bf_sbbf_kernel_supported(saved)) {
            CHECK(rc == BF_OK && f && strcmp(bf_sbbf_kernel(f), saved) == 0,
                  "forced %s, filter got %s (rc %d)", saved, f ? bf_sbbf_kernel(f) : "none", rc);
            const char *def = NULL;
            CHECK(bf_sbbf_default_kernel(&def) == BF_OK && def && strcmp(def, saved) == 0,
                  "default kernel %s", def ? def : "none");
            printf("forced kernel %s: new filters use %s\n", saved, f ? bf_sbbf_kernel(f) : "none");
        } else {
            CHECK(rc == BF_EKERNEL && f == NULL, "unsupported forced %s: rc %d", saved, rc);
            /* A name this library knows but this build or CPU lacks is a
             * skip; a name it does not know is a broken setup: fail. */
            int known = !strcmp(saved, "scalar") || !strcmp(saved, "avx2") ||
                        !strcmp(saved, "avx512") || !strcmp(saved, "neon");
            CHECK(known, "BLOCKFILTER_KERNEL=%s is not a kernel name", saved);
            runnable = 0;
        }
        bf_sbbf_free(f);
    }

    const char *bad[] = {"bogus", "AVX2", "avx", "scalar ", "neon2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("BLOCKFILTER_KERNEL", bad[i], 1);
        bf_sbbf *f = NULL;
        int rc = bf_sbbf_new_bytes(&f, 64);
        CHECK(rc == BF_EKERNEL && f == NULL, "unknown kernel '%s': rc %d", bad[i], rc);
        rc = bf_sbbf_new(&f, 100, 0.01);
        CHECK(rc == BF_EKERNEL && f == NULL, "unknown kernel '%s' (new): rc %d", bad[i], rc);
        const char *def = NULL;
        CHECK(bf_sbbf_default_kernel(&def) == BF_EKERNEL, "default with '%s'", bad[i]);
        uint8_t bits[64] = {0};
        CHECK(bf_sbbf_view(&f, bits, 64) == BF_EKERNEL && f == NULL, "view with '%s'", bad[i]);
        CHECK(bf_sbbf_new_bytes_kernel(&f, 64, bad[i]) == BF_EKERNEL, "named '%s'", bad[i]);
    }
    /* Every name this library knows: works iff compiled in and supported. */
    const char *all[] = {"scalar", "avx2", "avx512", "neon"};
    for (size_t i = 0; i < 4; i++) {
        setenv("BLOCKFILTER_KERNEL", all[i], 1);
        bf_sbbf *f = NULL;
        int rc = bf_sbbf_new_bytes(&f, 64);
        if (bf_sbbf_kernel_supported(all[i]))
            CHECK(rc == BF_OK && strcmp(bf_sbbf_kernel(f), all[i]) == 0, "force %s", all[i]);
        else
            CHECK(rc == BF_EKERNEL && f == NULL, "unsupported %s must fail: rc %d", all[i], rc);
        bf_sbbf_free(f);
    }
    if (saved[0])
        setenv("BLOCKFILTER_KERNEL", saved, 1);
    else
        unsetenv("BLOCKFILTER_KERNEL");
    return runnable;
}

int main(void) {
    /* The table: scalar always present and supported; names unique. */
    size_t nk = bf_sbbf_kernel_count();
    CHECK(nk >= 1, "kernel count %zu", nk);
    int have_scalar = 0;
    for (size_t i = 0; i < nk; i++) {
        const char *n = bf_sbbf_kernel_name(i);
        CHECK(n != NULL, "kernel %zu has a name", i);
        if (n && strcmp(n, "scalar") == 0) have_scalar = 1;
    }
    CHECK(have_scalar && bf_sbbf_kernel_supported("scalar"), "scalar kernel");
    CHECK(bf_sbbf_kernel_name(nk) == NULL, "past the end");

    int runnable = check_forcing();
    if (!runnable) {
        printf("kernel equivalence: forced kernel %s cannot run here (creation fails "
               "with BF_EKERNEL as it must), rest skipped: %lu passed, %lu failed\n",
               getenv("BLOCKFILTER_KERNEL"), passed, failed);
        return failed ? 1 : 77;
    }

    char tested[128] = "";
    for (size_t i = 0; i < nk; i++) {
        const char *name = bf_sbbf_kernel_name(i);
        if (!name || !bf_sbbf_kernel_supported(name)) continue;
        const bf_kernel *k = bf__sbbf_kernel_by_name(name);
        CHECK(k != NULL && strcmp(k->name, name) == 0, "lookup %s", name);
        if (!k) continue;
        compare_kernel(k);
        compare_api(name);
        strncat(tested, " ", sizeof tested - strlen(tested) - 1);
        strncat(tested, name, sizeof tested - strlen(tested) - 1);
    }
    printf("kernel equivalence (kernels:%s): %lu passed, %lu failed\n", tested, passed, failed);
    return failed ? 1 : 0;
}
