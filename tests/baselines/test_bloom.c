/* Classic and counting Bloom filters: sizing, no false negatives, FPR
 * against the exact formula for the filter's own m and k, counters
 * (remove, saturation, absent keys), concurrency basics. */
#include <criterion/criterion.h>

#include "families/baselines.h"
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "baselines_util.h"

/* ---- models and sizing --------------------------------------------------- */

Test(bloom_model, exact_formula) {
    /* (1 - (1 - 1/m)^{kn})^k, computed directly for small values. */
    double direct = pow(1.0 - pow(1.0 - 1.0 / 1000.0, 3.0 * 100.0), 3.0);
    cr_assert_float_eq(bf_bloom_model_fpp(1000, 3, 100), direct, 1e-12);
    cr_assert_eq(bf_bloom_model_fpp(1000, 3, 0), 0.0);
    cr_assert(isnan(bf_bloom_model_fpp(0, 3, 10)));
    cr_assert(isnan(bf_bloom_model_fpp(10, 0, 10)));
    /* Huge m and n stay accurate (log1p/expm1), close to 1 - e^{-kn/m}. */
    double big = bf_bloom_model_fpp((uint64_t)1 << 40, 7, (uint64_t)1 << 36);
    double approx = pow(-expm1(-7.0 / 16.0), 7.0);
    cr_assert_float_eq(big, approx, 1e-9 * approx);
}

Test(bloom_model, sizing_is_the_smallest_m_over_integer_k) {
    const double fpps[] = {0.1, 0.01, 0.001, 0.0001};
    for (unsigned t = 0; t < 4; t++) {
        uint64_t n = 1000000, m;
        unsigned k;
        cr_assert_eq(bf__bloom_size(n, fpps[t], &m, &k), BF_OK);
        cr_assert_leq(bf_bloom_model_fpp(m, k, n), fpps[t]);
        /* One bit fewer fails for this k, and no other k does better. */
        cr_assert_gt(bf_bloom_model_fpp(m - 1, k, n), fpps[t]);
        for (unsigned k2 = 1; k2 <= 64; k2++)
            cr_assert_gt(bf_bloom_model_fpp(m - 1, k2, n), fpps[t], "k=%u beats k=%u", k2, k);
        if (t == 1) {
            /* MODELS.md: about 9.59 bits/key with k = 7 at 1%. */
            cr_assert_eq(k, 7);
            cr_assert_float_eq((double)m / n, 9.585, 0.01);
        }
    }
}

Test(bloom_model, bad_arguments) {
    bf_bloom *b;
    cr_assert_eq(bf_bloom_new(&b, 100, 0.0), BF_EINVAL);
    cr_assert_eq(bf_bloom_new(&b, 100, 1.0), BF_EINVAL);
    cr_assert_eq(bf_bloom_new(&b, 100, NAN), BF_EINVAL);
    cr_assert_eq(bf_bloom_new(NULL, 100, 0.01), BF_EINVAL);
    cr_assert_eq(bf_bloom_new_bits(&b, 0, 3), BF_EINVAL);
    cr_assert_eq(bf_bloom_new_bits(&b, 100, 0), BF_EINVAL);
    cr_assert_eq(bf_bloom_new_bits(&b, 100, 65), BF_EINVAL);
    cr_assert_eq(bf_bloom_new_bits(&b, BF_BLOOM_MAX_BITS + 1, 3), BF_ETOOBIG);
    bf_counting *c;
    cr_assert_eq(bf_counting_new(&c, 100, 2.0), BF_EINVAL);
    cr_assert_eq(bf_counting_new_counters(&c, 0, 3), BF_EINVAL);
    /* n = 2^40 is sized correctly (or refused), never wrapped. */
    bf_sizing s;
    cr_assert_eq(bf_size_for(BF_FAMILY_BLOOM, (uint64_t)1 << 40, 0.01, &s), BF_OK);
    cr_assert_float_eq(s.bits_per_key, 9.585, 0.01);
    cr_assert_eq(bf_size_for(BF_FAMILY_COUNTING, (uint64_t)1 << 40, 0.01, &s), BF_OK);
    cr_assert_float_eq(s.bits_per_key, 4 * 9.585, 0.04);
}

/* ---- classic filter ------------------------------------------------------ */

static void check_bloom_fpr(uint64_t m, unsigned k, size_t n, size_t q, uint64_t seed) {
    bf_bloom *b;
    cr_assert_eq(bf_bloom_new_bits(&b, m, k), BF_OK);
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) bf_bloom_insert_hash(b, tu_next(&s));
    s = seed;
    for (size_t i = 0; i < n; i++) cr_assert(bf_bloom_contains_hash(b, tu_next(&s)), "false negative");
    uint64_t s2 = seed ^ 0xabcdef;
    size_t fp = 0;
    for (size_t i = 0; i < q; i++) fp += bf_bloom_contains_hash(b, tu_next(&s2));
    double measured = (double)fp / q, model = bf_bloom_model_fpp(m, k, n);
    cr_log_info("classic m=%lu k=%u n=%zu: FPR %.6f model %.6f (%+.2f%%)", (unsigned long)m, k, n,
                measured, model, 100 * (measured / model - 1));
    cr_assert(tb_within(measured, model, (double)q, 0.03), "classic m=%lu k=%u: measured %.6f model %.6f",
              (unsigned long)m, k, measured, model);
    bf_bloom_free(b);
}

Test(bloom, fpr_matches_exact_formula) {
    const double fpps[] = {0.1, 0.01, 0.001};
    for (unsigned t = 0; t < 3; t++) {
        bf_bloom *b;
        cr_assert_eq(bf_bloom_new(&b, 200000, fpps[t]), BF_OK);
        check_bloom_fpr(bf_bloom_num_bits(b), bf_bloom_num_hashes(b), 200000, 1000000, 11 + t);
        bf_bloom_free(b);
    }
    /* Odd sizes and off-optimum k: the formula holds for any m and k. */
    check_bloom_fpr(1000003, 3, 150000, 500000, 5);
    check_bloom_fpr(777777, 12, 50000, 500000, 6);
    check_bloom_fpr(64 * 1024 * 8 + 1, 1, 60000, 500000, 7);
}

Test(bloom, no_false_negatives_structured_and_small) {
    /* Structured keys through the byte-string hash: sequential integers,
     * long common prefixes. */
    bf_filter *f;
    cr_assert_eq(bf_filter_new(&f, BF_FAMILY_BLOOM, 100000, 0.01), BF_OK);
    char key[128];
    memset(key, 'p', sizeof key);
    for (uint64_t i = 0; i < 50000; i++) {
        cr_assert_eq(bf_filter_insert(f, &i, sizeof i), BF_OK);
        snprintf(key + 100, 28, "%08lu", (unsigned long)i);
        cr_assert_eq(bf_filter_insert(f, key, 108), BF_OK);
    }
    for (uint64_t i = 0; i < 50000; i++) {
        cr_assert(bf_filter_contains(f, &i, sizeof i));
        snprintf(key + 100, 28, "%08lu", (unsigned long)i);
        cr_assert(bf_filter_contains(f, key, 108));
    }
    /* Structured foreign keys see the model FPR too. */
    size_t fp = 0, q = 200000;
    for (uint64_t i = 1000000; i < 1000000 + q; i++) fp += bf_filter_contains(f, &i, sizeof i);
    bf_bloom *b = bf_filter_bloom(f);
    double model = bf_bloom_model_fpp(bf_bloom_num_bits(b), bf_bloom_num_hashes(b), 100000);
    cr_assert(tb_within((double)fp / q, model, (double)q, 0.03), "%f vs %f", (double)fp / q, model);
    bf_filter_free(f);

    /* Tiny filters: m = 1 and m = 7 bits. */
    for (uint64_t m = 1; m <= 130; m += 3) {
        bf_bloom *t;
        cr_assert_eq(bf_bloom_new_bits(&t, m, 1 + (unsigned)(m % 9)), BF_OK);
        uint64_t s = m;
        for (int i = 0; i < 20; i++) bf_bloom_insert_hash(t, tu_next(&s));
        s = m;
        for (int i = 0; i < 20; i++) cr_assert(bf_bloom_contains_hash(t, tu_next(&s)));
        bf_bloom_free(t);
    }
}

Test(bloom, concurrent_variants_agree_with_plain) {
    bf_bloom *a, *b;
    cr_assert_eq(bf_bloom_new(&a, 10000, 0.01), BF_OK);
    cr_assert_eq(bf_bloom_new(&b, 10000, 0.01), BF_OK);
    uint64_t s = 3;
    for (int i = 0; i < 10000; i++) {
        uint64_t h = tu_next(&s);
        bf_bloom_insert_hash(a, h);
        bf_bloom_insert_hash_concurrent(b, h);
    }
    cr_assert_eq(memcmp(a->t.data, b->t.data, (size_t)a->t.num_bytes), 0);
    s = 99;
    for (int i = 0; i < 100000; i++) {
        uint64_t h = tu_next(&s);
        cr_assert_eq(bf_bloom_contains_hash(a, h), bf_bloom_contains_hash_concurrent(b, h));
    }
    bf_bloom_free(a);
    bf_bloom_free(b);
}

/* ---- counting filter ----------------------------------------------------- */

Test(counting, fpr_matches_classic_formula) {
    const double fpps[] = {0.05, 0.01};
    for (unsigned t = 0; t < 2; t++) {
        const size_t n = 100000, q = 1000000;
        bf_counting *c;
        cr_assert_eq(bf_counting_new(&c, n, fpps[t]), BF_OK);
        uint64_t s = 21 + t;
        for (size_t i = 0; i < n; i++) bf_counting_insert_hash(c, tu_next(&s));
        s = 21 + t;
        for (size_t i = 0; i < n; i++) cr_assert(bf_counting_contains_hash(c, tu_next(&s)));
        uint64_t s2 = 777 + t;
        size_t fp = 0;
        for (size_t i = 0; i < q; i++) fp += bf_counting_contains_hash(c, tu_next(&s2));
        double measured = (double)fp / q;
        double model = bf_bloom_model_fpp(bf_counting_num_counters(c), bf_counting_num_hashes(c), n);
        cr_log_info("counting fpp=%g: FPR %.6f model %.6f", fpps[t], measured, model);
        cr_assert(tb_within(measured, model, (double)q, 0.03), "measured %f model %f", measured, model);
        bf_counting_free(c);
    }
}

Test(counting, remove_half_rest_present) {
    const size_t n = 50000;
    bf_counting *c;
    cr_assert_eq(bf_counting_new(&c, n, 0.01), BF_OK);
    uint64_t *k = tb_keys(n, 5);
    for (size_t i = 0; i < n; i++) bf_counting_insert_hash(c, k[i]);
    for (size_t i = 0; i < n; i += 2) cr_assert_eq(bf_counting_remove_hash(c, k[i]), BF_OK);
    for (size_t i = 1; i < n; i += 2) cr_assert(bf_counting_contains_hash(c, k[i]), "lost key %zu", i);
    /* The removed half is mostly gone: its FPR is the filter's at n/2 keys. */
    size_t still = 0;
    for (size_t i = 0; i < n; i += 2) still += bf_counting_contains_hash(c, k[i]);
    double model = bf_bloom_model_fpp(bf_counting_num_counters(c), bf_counting_num_hashes(c), n / 2);
    cr_assert(tb_within((double)still / (n / 2), model, n / 2, 0.1));
    /* Remove everything: back to all zero. */
    for (size_t i = 1; i < n; i += 2) cr_assert_eq(bf_counting_remove_hash(c, k[i]), BF_OK);
    for (uint64_t i = 0; i < c->t.num_bytes; i++) cr_assert_eq(c->t.data[i], 0);
    free(k);
    bf_counting_free(c);
}

Test(counting, remove_absent_changes_nothing) {
    bf_counting *c;
    cr_assert_eq(bf_counting_new(&c, 1000, 0.01), BF_OK);
    uint64_t s = 8;
    for (int i = 0; i < 1000; i++) bf_counting_insert_hash(c, tu_next(&s));
    uint8_t *before = malloc((size_t)c->t.num_bytes);
    memcpy(before, c->t.data, (size_t)c->t.num_bytes);
    int absent = 0;
    for (int i = 0; i < 10000; i++) {
        uint64_t h = tu_next(&s);
        if (bf_counting_contains_hash(c, h)) continue;
        absent++;
        cr_assert_eq(bf_counting_remove_hash(c, h), BF_ENOTFOUND);
    }
    cr_assert_gt(absent, 9000);
    cr_assert_eq(memcmp(before, c->t.data, (size_t)c->t.num_bytes), 0);
    free(before);
    bf_counting_free(c);
}

Test(counting, saturation_never_causes_false_negatives) {
    /* 64 counters, 3 hashes, 600 keys: almost every counter sticks at 15. */
    bf_counting *c;
    cr_assert_eq(bf_counting_new_counters(&c, 64, 3), BF_OK);
    uint64_t *k = tb_keys(600, 77);
    for (int i = 0; i < 600; i++) bf_counting_insert_hash(c, k[i]);
    unsigned stuck = 0;
    for (uint64_t i = 0; i < 64; i++) stuck += bf__counting_get(c->t.data, i) == 15;
    cr_assert_gt(stuck, 50);
    for (int i = 0; i < 600; i += 2) cr_assert_eq(bf_counting_remove_hash(c, k[i]), BF_OK);
    for (int i = 1; i < 600; i += 2) cr_assert(bf_counting_contains_hash(c, k[i]));
    /* Stuck counters stay stuck. */
    unsigned stuck_after = 0;
    for (uint64_t i = 0; i < 64; i++) stuck_after += bf__counting_get(c->t.data, i) == 15;
    cr_assert_eq(stuck_after, stuck);
    free(k);
    bf_counting_free(c);

    /* One key inserted 20 times, removed 20 times: its counters saturate at
     * 15 and stay, so it still answers present (a false positive, never a
     * false negative for another key sharing the counters). */
    cr_assert_eq(bf_counting_new_counters(&c, 100000, 4), BF_OK);
    uint64_t other = 12345, key = 999;
    bf_counting_insert_hash(c, other);
    for (int i = 0; i < 20; i++) bf_counting_insert_hash(c, key);
    for (int i = 0; i < 20; i++) cr_assert_eq(bf_counting_remove_hash(c, key), BF_OK);
    cr_assert(bf_counting_contains_hash(c, key));
    cr_assert(bf_counting_contains_hash(c, other));
    bf_counting_free(c);
}

Test(counting, duplicate_inserts_balance_removes) {
    bf_counting *c;
    /* 200 keys x 5 hashes over 50000 counters: no counter gets near 15
     * even with three copies of each key, so everything must cancel. */
    cr_assert_eq(bf_counting_new_counters(&c, 50000, 5), BF_OK);
    uint64_t *k = tb_keys(200, 4);
    for (int rep = 0; rep < 3; rep++)
        for (int i = 0; i < 200; i++) bf_counting_insert_hash(c, k[i]);
    for (int rep = 0; rep < 3; rep++) {
        for (int i = 0; i < 200; i++) cr_assert(bf_counting_contains_hash(c, k[i]));
        for (int i = 0; i < 200; i++) cr_assert_eq(bf_counting_remove_hash(c, k[i]), BF_OK);
    }
    for (uint64_t i = 0; i < c->t.num_bytes; i++) cr_assert_eq(c->t.data[i], 0, "byte %lu", (unsigned long)i);
    free(k);
    bf_counting_free(c);
}
