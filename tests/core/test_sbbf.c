/* Core SBBF behaviour: no false negatives, FPR against the exact model,
 * sizing, statistics, merge, views, seeds and argument checking. Runs once
 * per kernel (meson test --setup <kernel>). */
#include <criterion/criterion.h>

#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "testutil.h"

#include <math.h>

Test(sbbf, forced_kernel_is_running) {
    const char *forced = getenv("BLOCKFILTER_KERNEL");
    bf_sbbf *f;
    cr_assert_eq(bf_sbbf_new_bytes(&f, 1024), BF_OK);
    if (forced && *forced)
        cr_assert_str_eq(bf_sbbf_kernel(f), forced, "forced %s, running %s", forced, bf_sbbf_kernel(f));
    else {
        const char *def;
        cr_assert_eq(bf_sbbf_default_kernel(&def), BF_OK);
        cr_assert_str_eq(bf_sbbf_kernel(f), def);
        /* Without forcing, the default is the best supported kernel. */
        for (size_t i = 0; i < bf_sbbf_kernel_count(); i++)
            if (bf_sbbf_kernel_supported(bf_sbbf_kernel_name(i))) {
                cr_assert_str_eq(def, bf_sbbf_kernel_name(i));
                break;
            }
    }
    bf_sbbf_free(f);
}

Test(sbbf, no_false_negatives_random_single_and_batch) {
    const size_t n = 1000000;
    uint64_t *h = malloc(n * sizeof *h);
    uint8_t *out = malloc(n);
    uint64_t s = 42;
    for (size_t i = 0; i < n; i++) h[i] = tu_next(&s);
    bf_sbbf *a, *b;
    cr_assert_eq(bf_sbbf_new(&a, n, 0.01), BF_OK);
    cr_assert_eq(bf_sbbf_new(&b, n, 0.01), BF_OK);
    for (size_t i = 0; i < n; i++) bf_sbbf_insert_hash(a, h[i]);
    bf_sbbf_insert_hashes(b, h, n);
    cr_assert_eq(memcmp(bf_sbbf_bitset(a), bf_sbbf_bitset(b), bf_sbbf_num_bytes(a)), 0,
                 "single and batch inserts give different bits");
    for (size_t i = 0; i < n; i++) cr_assert(bf_sbbf_contains_hash(a, h[i]), "false negative at %zu", i);
    cr_assert_eq(bf_sbbf_contains_hashes(b, h, n, out), n);
    for (size_t i = 0; i < n; i++) cr_assert_eq(out[i], 1);
    bf_sbbf_free(a);
    bf_sbbf_free(b);
    free(h);
    free(out);
}

Test(sbbf, no_false_negatives_structured_keys) {
    bf_sbbf *f;
    const int n = 200000;
    cr_assert_eq(bf_sbbf_new(&f, 2 * (uint64_t)n, 0.001), BF_OK);
    char key[300];
    memset(key, 'x', 256); /* long common prefix */
    for (int i = 0; i < n; i++) {
        bf_sbbf_insert_int64(f, i);
        int len = snprintf(key + 256, 40, "%d", i);
        bf_sbbf_insert(f, key, 256 + (size_t)len);
    }
    for (int i = 0; i < n; i++) {
        cr_assert(bf_sbbf_contains_int64(f, i));
        int len = snprintf(key + 256, 40, "%d", i);
        cr_assert(bf_sbbf_contains(f, key, 256 + (size_t)len));
    }
    /* Sequential hashes as inputs straight to the kernel. */
    for (uint64_t i = 0; i < 100000; i++) bf_sbbf_insert_hash(f, i);
    for (uint64_t i = 0; i < 100000; i++) cr_assert(bf_sbbf_contains_hash(f, i));
    for (uint64_t i = 0; i < 100000; i++) bf_sbbf_insert_hash(f, i << 32);
    for (uint64_t i = 0; i < 100000; i++) cr_assert(bf_sbbf_contains_hash(f, i << 32));
    bf_sbbf_free(f);
}

/* Measured FPR against the exact model. Two checks: the measured rate
 * against the filter's own exact FPR (est_fpp; pure binomial noise), and
 * that FPR against the model for (bytes, n) (instance spread: a few %). */
static void check_fpr(uint64_t n, double fpp, double queries) {
    bf_sbbf *f;
    cr_assert_eq(bf_sbbf_new(&f, n, fpp), BF_OK);
    uint64_t s = n * 7919 + (uint64_t)(fpp * 1e6);
    for (uint64_t i = 0; i < n; i++) bf_sbbf_insert_hash(f, tu_next(&s));
    double model = bf_sbbf_model_fpp(bf_sbbf_num_bytes(f), n);
    cr_assert_leq(model, fpp, "compact sizing must meet the target");
    const size_t batch = 1 << 16;
    uint64_t *q = malloc(batch * sizeof *q);
    uint64_t fp = 0, total = 0;
    uint64_t qs = 0xdeadbeef ^ n;
    while ((double)total < queries) {
        for (size_t i = 0; i < batch; i++) q[i] = tu_next(&qs);
        fp += bf_sbbf_contains_hashes(f, q, batch, NULL);
        total += batch;
    }
    free(q);
    bf_sbbf_stats st;
    cr_assert_eq(bf_sbbf_get_stats(f, &st), BF_OK);
    double measured = (double)fp / (double)total;
    cr_log_info("n=%llu fpp=%g bytes=%llu bits/key=%.2f model=%.6g now=%.6g measured=%.6g (%llu/%llu)",
                (unsigned long long)n, fpp, (unsigned long long)st.num_bytes,
                8.0 * (double)st.num_bytes / (double)n, model, st.est_fpp, measured,
                (unsigned long long)fp, (unsigned long long)total);
    cr_assert(tu_within(measured, st.est_fpp, (double)total, 5.0, 0.0),
              "measured %g vs exact-now %g", measured, st.est_fpp);
    cr_assert(tu_within(st.est_fpp, model, (double)total, 0.0, 0.05),
              "filter FPR %g vs model %g", st.est_fpp, model);
    cr_assert(fabs(st.est_keys - (double)n) < 0.02 * (double)n + 50, "est_keys %g vs %llu", st.est_keys,
              (unsigned long long)n);
    bf_sbbf_free(f);
}

Test(sbbf, fpr_matches_model_10pct) { check_fpr(200000, 0.1, 2e6); }
Test(sbbf, fpr_matches_model_1pct) { check_fpr(200000, 0.01, 4e6); }
Test(sbbf, fpr_matches_model_01pct) { check_fpr(200000, 0.001, 2e7); }
Test(sbbf, fpr_matches_model_001pct) { check_fpr(200000, 0.0001, 6e7); }

Test(sbbf, compact_sizing_reference_points) {
    /* MODELS.md: at n = 1e6, 5.99 / 10.53 / 16.89 bits/key. */
    const double fpp[] = {0.1, 0.01, 0.001};
    const double want[] = {5.99, 10.53, 16.89};
    for (int i = 0; i < 3; i++) {
        size_t bytes;
        cr_assert_eq(bf_sbbf_compact_bytes(1000000, fpp[i], &bytes), BF_OK);
        double bpk = 8.0 * (double)bytes / 1e6;
        cr_assert(fabs(bpk - want[i]) < 0.01, "fpp %g: %.3f bits/key, want %.2f", fpp[i], bpk, want[i]);
        cr_assert_eq(bytes % 32, 0);
        /* The fewest blocks: one block less misses the target. */
        cr_assert_leq(bf_sbbf_model_fpp(bytes, 1000000), fpp[i]);
        cr_assert_gt(bf_sbbf_model_fpp(bytes - 32, 1000000), fpp[i]);
    }
}

Test(sbbf, parquet_sizing_matches_arrow) {
    size_t bytes;
    /* Arrow: m = -8 ndv / ln(1 - fpp^(1/8)) bits, next power of two. */
    cr_assert_eq(bf_sbbf_parquet_bytes(1000000, 0.01, &bytes), BF_OK);
    cr_assert_eq(bytes, 2u << 20); /* 9.68 Mbit -> 16 Mbit */
    cr_assert_eq(bf_sbbf_parquet_bytes(0, 0.01, &bytes), BF_OK);
    cr_assert_eq(bytes, 32);
    cr_assert_eq(bf_sbbf_parquet_bytes(1ull << 40, 0.01, &bytes), BF_OK);
    cr_assert_eq(bytes, 128u << 20);
    cr_assert_eq(bf_sbbf_parquet_bytes(1000, 0.05, &bytes), BF_OK);
    cr_assert_eq(bytes & (bytes - 1), 0);
    /* Arrow's formula undershoots: its FPR at 1% is ~1.46% before rounding. */
    double m_bits = -8.0 * 1e6 / log(1.0 - pow(0.01, 1.0 / 8.0));
    size_t raw = ((size_t)(m_bits / 8) + 31) / 32 * 32;
    double real = bf_sbbf_model_fpp(raw, 1000000);
    cr_assert(real > 0.014 && real < 0.015, "Arrow-sized raw FPR %g", real);
}

Test(sbbf, huge_n_sized_or_refused) {
    size_t bytes = 12345;
    int rc = bf_sbbf_compact_bytes(1ull << 40, 0.01, &bytes);
    cr_assert_eq(rc, BF_ETOOBIG, "2^40 keys need > 2^32 blocks");
    cr_assert_eq(bytes, 12345, "untouched on failure");
    /* 2^32 keys at 10%: 6 bits/key ~ 3 GiB, within the 128 GiB limit. */
    cr_assert_eq(bf_sbbf_compact_bytes(1ull << 32, 0.1, &bytes), BF_OK);
    double bpk = 8.0 * (double)bytes / 4294967296.0;
    cr_assert(bpk > 5.9 && bpk < 6.1, "%.3f", bpk);
    cr_assert_eq(bf_sbbf_compact_bytes(UINT64_MAX, 0.5, &bytes), BF_ETOOBIG);
    cr_assert_eq(bf_sbbf_compact_bytes(0, 0.01, &bytes), BF_OK);
    cr_assert_eq(bytes, 32);
}

Test(sbbf, invalid_arguments) {
    bf_sbbf *f = NULL;
    size_t b;
    cr_assert_eq(bf_sbbf_new(NULL, 10, 0.01), BF_EINVAL);
    cr_assert_eq(bf_sbbf_new(&f, 10, 0.0), BF_EINVAL);
    cr_assert_eq(bf_sbbf_new(&f, 10, 1.0), BF_EINVAL);
    cr_assert_eq(bf_sbbf_new(&f, 10, -0.5), BF_EINVAL);
    cr_assert_eq(bf_sbbf_new(&f, 10, NAN), BF_EINVAL);
    cr_assert_eq(bf_sbbf_new_bytes(&f, 0), BF_EINVAL);
    cr_assert_eq(bf_sbbf_new_bytes(&f, 31), BF_EINVAL);
    cr_assert_eq(bf_sbbf_new_bytes(&f, 33), BF_EINVAL);
    cr_assert_eq(bf_sbbf_new_bytes(&f, (size_t)BF_SBBF_MAX_BYTES + 32), BF_ETOOBIG);
    cr_assert_eq(bf_sbbf_compact_bytes(10, 2.0, &b), BF_EINVAL);
    cr_assert_eq(bf_sbbf_new_bytes_kernel(&f, 64, "no-such-kernel"), BF_EKERNEL);
    cr_assert_null(f);
    cr_assert_eq(bf_sbbf_view(&f, NULL, 32), BF_EINVAL);
    cr_assert(isnan(bf_sbbf_model_fpp(0, 1)));
    for (int s = -16; s <= 0; s++) cr_assert_not_null(bf_strerror(s));
    cr_assert_str_eq(bf_strerror(12345), "unknown status");
    cr_assert_eq(bf_version_number(), BF_VERSION_NUMBER);
    cr_assert_str_eq(bf_version_string(), BF_VERSION_STRING);
}

Test(sbbf, merge_clear_and_seed) {
    bf_sbbf *a, *b, *c;
    cr_assert_eq(bf_sbbf_new_bytes(&a, 4096), BF_OK);
    cr_assert_eq(bf_sbbf_new_bytes(&b, 4096), BF_OK);
    cr_assert_eq(bf_sbbf_new_bytes(&c, 8192), BF_OK);
    for (int i = 0; i < 100; i++) bf_sbbf_insert_int32(a, i);
    for (int i = 100; i < 200; i++) bf_sbbf_insert_int32(b, i);
    cr_assert_eq(bf_sbbf_merge(a, c), BF_EMISMATCH);
    cr_assert_eq(bf_sbbf_merge(a, b), BF_OK);
    for (int i = 0; i < 200; i++) cr_assert(bf_sbbf_contains_int32(a, i));
    /* Seeds: only on an empty filter, and merge needs equal seeds. */
    cr_assert_eq(bf_sbbf_set_seed(a, 7), BF_EINVAL);
    cr_assert_eq(bf_sbbf_clear(a), BF_OK);
    for (int i = 0; i < 200; i++) cr_assert_not(bf_sbbf_contains_int32(a, i));
    cr_assert_eq(bf_sbbf_set_seed(a, 7), BF_OK);
    cr_assert_eq(bf_sbbf_seed(a), 7);
    cr_assert_eq(bf_sbbf_merge(a, b), BF_EMISMATCH);
    bf_sbbf_insert(a, "key", 3);
    cr_assert(bf_sbbf_contains(a, "key", 3));
    cr_assert(bf_sbbf_contains_hash(a, bf_hash_xxh64_seeded("key", 3, 7)));
    bf_sbbf_free(a);
    bf_sbbf_free(b);
    bf_sbbf_free(c);
    bf_sbbf_free(NULL);
}

Test(sbbf, view_over_unaligned_memory) {
    bf_sbbf *f;
    cr_assert_eq(bf_sbbf_new_bytes(&f, 32 * 100), BF_OK);
    for (int i = 0; i < 500; i++) bf_sbbf_insert_int32(f, i);
    uint8_t *raw = malloc(32 * 100 + 3);
    memcpy(raw + 3, bf_sbbf_bitset(f), 32 * 100);
    bf_sbbf *v;
    cr_assert_eq(bf_sbbf_view(&v, raw + 3, 32 * 100), BF_OK);
    cr_assert(bf_sbbf_is_readonly(v));
    cr_assert_not(bf_sbbf_is_readonly(f));
    for (int i = 0; i < 500; i++) {
        cr_assert(bf_sbbf_contains_int32(v, i));
        cr_assert_eq(bf_sbbf_contains_hash_concurrent(v, bf_hash_int32(i)), true);
    }
    for (int i = 500; i < 5000; i++)
        cr_assert_eq(bf_sbbf_contains_int32(v, i), bf_sbbf_contains_int32(f, i));
    cr_assert_eq(bf_sbbf_insert_int32(v, 99999), BF_EREADONLY);
    cr_assert_eq(memcmp(raw + 3, bf_sbbf_bitset(f), 32 * 100), 0);
    cr_assert_eq(bf_sbbf_clear(v), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_merge(v, f), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_set_seed(v, 1), BF_EREADONLY);
    bf_sbbf_free(v);
    bf_sbbf_free(f);
    free(raw);
}

Test(sbbf, concurrent_api_matches_plain) {
    bf_sbbf *a, *b;
    cr_assert_eq(bf_sbbf_new_bytes(&a, 32 * 1000), BF_OK);
    cr_assert_eq(bf_sbbf_new_bytes(&b, 32 * 1000), BF_OK);
    uint64_t s = 9, h[5000];
    for (int i = 0; i < 5000; i++) h[i] = tu_next(&s);
    bf_sbbf_insert_hashes(a, h, 2500);
    bf_sbbf_insert_hashes_concurrent(b, h, 2500);
    for (int i = 2500; i < 5000; i++) {
        bf_sbbf_insert_hash(a, h[i]);
        bf_sbbf_insert_hash_concurrent(b, h[i]);
    }
    cr_assert_eq(memcmp(bf_sbbf_bitset(a), bf_sbbf_bitset(b), 32 * 1000), 0);
    for (int i = 0; i < 5000; i++) cr_assert(bf_sbbf_contains_hash_concurrent(b, h[i]));
    bf_sbbf_free(a);
    bf_sbbf_free(b);
}

Test(sbbf, stats_of_empty_and_full) {
    bf_sbbf *f;
    bf_sbbf_stats st;
    cr_assert_eq(bf_sbbf_new_bytes(&f, 64), BF_OK);
    cr_assert_eq(bf_sbbf_get_stats(f, &st), BF_OK);
    cr_assert_eq(st.bits_set, 0);
    cr_assert_eq(st.est_fpp, 0.0);
    cr_assert_eq(st.est_keys, 0.0);
    cr_assert_eq(st.num_blocks, 2);
    uint64_t s = 1;
    for (int i = 0; i < 100000; i++) bf_sbbf_insert_hash(f, tu_next(&s));
    cr_assert_eq(bf_sbbf_get_stats(f, &st), BF_OK);
    cr_assert_eq(st.bits_set, 512);
    cr_assert_eq(st.fill_ratio, 1.0);
    cr_assert_eq(st.est_fpp, 1.0);
    cr_assert(isinf(st.est_keys));
    cr_assert_eq(bf_sbbf_get_stats(NULL, &st), BF_EINVAL);
    bf_sbbf_free(f);
}

Test(sbbf, large_filter_uses_huge_page_alignment) {
    bf_sbbf *f;
    cr_assert_eq(bf_sbbf_new_bytes(&f, (size_t)8 << 20), BF_OK);
    cr_assert_eq((uintptr_t)bf_sbbf_bitset(f) % (2u << 20), 0);
    bf_sbbf_insert_hash(f, 123);
    cr_assert(bf_sbbf_contains_hash(f, 123));
    bf_sbbf_free(f);
    cr_assert_eq(bf_sbbf_new_bytes(&f, 96), BF_OK);
    cr_assert_eq((uintptr_t)bf_sbbf_bitset(f) % 64, 0);
    bf_sbbf_free(f);
}
