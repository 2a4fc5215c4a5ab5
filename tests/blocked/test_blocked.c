/*
 * The blocked family's models, sizing and statistics against measurement,
 * its place in the generic interface and the native format, and its batch
 * inserts through the API (SIMD, partitioned or not) against the scalar
 * instance. What holds for every shape on every host is in
 * test_blocked_plain.c.
 */
#include <criterion/criterion.h>

#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "blocked/blocked.h"
#include "blocked_shapes.h"
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One shape of each kind, and k from 1 to 16. */
static const bf_blocked_shape model_shapes[] = {
    {32, 1, 1, 1},   {32, 1, 1, 3},    {32, 1, 1, 4},    {64, 1, 1, 4},  {64, 1, 1, 6},
    {64, 2, 2, 4},   {128, 1, 1, 6},   {128, 4, 2, 6},   {256, 1, 1, 8}, {256, 8, 8, 8},
    {256, 4, 4, 8},  {512, 1, 1, 8},   {512, 8, 8, 8},   {512, 16, 16, 16}, {512, 8, 2, 6},
    {512, 16, 2, 8}, {512, 16, 4, 12}, {512, 8, 1, 5},
};
#define NMODEL (sizeof model_shapes / sizeof model_shapes[0])

static uint64_t *random_hashes(size_t n, uint64_t seed) {
    uint64_t *h = malloc(n * sizeof *h);
    cr_assert_not_null(h);
    for (size_t i = 0; i < n; i++) h[i] = tu_next(&seed);
    return h;
}

/* At the SBBF's shape the model is the SBBF's, to rounding. */
Test(blocked_model, sbbf_shape_is_the_sbbf_model) {
    const bf_blocked_shape s = {256, 8, 8, 8};
    for (uint64_t bytes = 32 * 100; bytes <= 32 * 100000; bytes *= 7) {
        for (uint64_t n = 100; n <= 1000000; n *= 10) {
            double a = bf_blocked_model_fpp_blocks(&s, bytes / 32, n);
            double b = bf_sbbf_model_fpp(bytes, n);
            cr_assert(fabs(a - b) <= 1e-9 * b + 1e-300, "%llu bytes, %llu keys: %g vs %g",
                      (unsigned long long)bytes, (unsigned long long)n, a, b);
        }
    }
}

/* With one bit per sector and one sector per group, the model is the
 * closed form (1 - (1 - 1/W)^i)^z summed over Poisson loads; with k bits
 * in a register it must exceed the independent-bits approximation
 * (positions drawn with replacement collide). */
Test(blocked_model, closed_forms) {
    const bf_blocked_shape s = {512, 16, 16, 16};
    double lambda = 512.0 / 12.0, sum = 0, term = exp(-lambda);
    for (int i = 0; i < 400; i++) {
        if (i) term *= lambda / i;
        sum += term * pow(1 - pow(31.0 / 32.0, i), 16);
    }
    double got = bf_blocked_model_fpp(&s, 12.0);
    cr_assert(fabs(got - sum) < 1e-9 * sum, "%g vs %g", got, sum);
    const bf_blocked_shape r = {32, 1, 1, 4};
    double lam = 32.0 / 10.0, approx = 0;
    term = exp(-lam);
    for (int i = 0; i < 200; i++) {
        if (i) term *= lam / i;
        approx += term * pow(1 - pow(31.0 / 32.0, 4.0 * i), 4);
    }
    double exact = bf_blocked_model_fpp(&r, 10.0);
    cr_assert(exact > approx * 1.005, "register-blocked: exact %g vs approximation %g", exact,
              approx);
    cr_assert(isnan(bf_blocked_model_fpp(&r, 0)));
    bf_blocked_shape bad = {512, 4, 1, 4};
    cr_assert(isnan(bf_blocked_model_fpp(&bad, 10)));
}

/* Measured FPR against the model, for every kind of shape: 10^5 keys at
 * 10 bits per key, 2 * 10^6 absent keys; 4 binomial standard deviations
 * plus 2 % (a model off by the collisions of positions, about 3-10 % for
 * few-bit registers, or by the block-load law, fails). */
Test(blocked_model, measured_fpr_matches_model, .timeout = 240) {
    const size_t n = 100000, q = 2000000;
    uint64_t *keys = random_hashes(n, 11), *absent = random_hashes(q, 12);
    for (size_t i = 0; i < NMODEL; i++) {
        const bf_blocked_shape *s = &model_shapes[i];
        uint64_t bb = s->block_bits / 8, bytes = n * 10 / 8 / bb * bb;
        bf_blocked *f;
        cr_assert_eq(bf_blocked_new_bytes(&f, bytes, s), BF_OK);
        bf_blocked_insert_hashes(f, keys, n);
        cr_assert_eq(bf_blocked_contains_hashes(f, keys, n, NULL), n);
        double measured = (double)bf_blocked_contains_hashes(f, absent, q, NULL) / q;
        double model = bf_blocked_model_fpp_blocks(s, bytes / bb, n);
        cr_assert(tu_within(measured, model, (double)q, 4.0, 0.02),
                  "%u/%u/%u/%u: measured %.5f, model %.5f", s->block_bits, s->sectors,
                  s->groups, s->k, measured, model);
        /* The statistics' exact FPR of the filter as it stands, and keys. */
        bf_blocked_measure m;
        bf__blocked_measure(f, &m);
        cr_assert(tu_within(measured, m.est_fpp, (double)q, 4.0, 0.005),
                  "%u/%u/%u/%u: measured %.5f, as it stands %.5f", s->block_bits, s->sectors,
                  s->groups, s->k, measured, m.est_fpp);
        cr_assert(fabs(m.est_keys - (double)n) < 0.03 * n, "%u/%u/%u/%u: est_keys %.0f",
                  s->block_bits, s->sectors, s->groups, s->k, m.est_keys);
        bf_blocked_free(f);
    }
    free(keys);
    free(absent);
}

/* Sizing: the fewest blocks meeting the target. */
Test(blocked_model, sizing_is_the_fewest_blocks) {
    const double targets[] = {0.1, 0.01, 0.001};
    for (size_t i = 0; i < NMODEL; i++) {
        const bf_blocked_shape *s = &model_shapes[i];
        uint64_t bb = s->block_bits / 8;
        for (size_t t = 0; t < 3; t++) {
            for (uint64_t n = 1000; n <= 10000000; n *= 100) {
                uint64_t bytes;
                int rc = bf_blocked_bits_for(s, n, targets[t], &bytes);
                if (rc == BF_ETOOBIG) continue; /* k too small for the target */
                cr_assert_eq(rc, BF_OK);
                cr_assert_eq(bytes % bb, 0);
                uint64_t nb = bytes / bb;
                cr_assert(bf_blocked_model_fpp_blocks(s, nb, n) <= targets[t]);
                if (nb > 1) cr_assert(bf_blocked_model_fpp_blocks(s, nb - 1, n) > targets[t]);
            }
        }
    }
    uint64_t b;
    const bf_blocked_shape s = {512, 8, 2, 6};
    cr_assert_eq(bf_blocked_bits_for(&s, 0, 0.01, &b), BF_OK);
    cr_assert_eq(b, 64);
    cr_assert_eq(bf_blocked_bits_for(&s, 10, 0, &b), BF_EINVAL);
    cr_assert_eq(bf_blocked_bits_for(&s, 10, 1, &b), BF_EINVAL);
    cr_assert_eq(bf_blocked_bits_for(&s, UINT64_MAX / 2, 1e-9, &b), BF_ETOOBIG);
    bf_blocked_shape bad = {512, 8, 3, 6};
    cr_assert_eq(bf_blocked_bits_for(&bad, 10, 0.01, &b), BF_ESHAPE);
}

/* bf_filter_new and bf_size_for: the default layout at its best k. */
Test(blocked_filter, default_shape_and_sizing) {
    bf_sizing z;
    cr_assert_eq(bf_size_for(BF_FAMILY_BLOCKED, 1000000, 0.01, &z), BF_OK);
    cr_assert_eq(z.block_bits, 512);
    cr_assert_eq(z.sectors, 8);
    cr_assert_eq(z.groups, 2);
    cr_assert(z.k >= 2 && z.k <= 16 && z.k % 2 == 0);
    cr_assert(z.model_fpp <= 0.01 && z.model_fpp > 0.009, "%g", z.model_fpp);
    cr_assert(z.bits_per_key > 9 && z.bits_per_key < 12, "%g", z.bits_per_key);
    /* No other even k needs fewer bytes. */
    for (unsigned k = 2; k <= 16; k += 2) {
        bf_blocked_shape s = {512, 8, 2, k};
        uint64_t b;
        if (bf_blocked_bits_for(&s, 1000000, 0.01, &b) == BF_OK) cr_assert_geq(b, z.num_bytes);
    }
    bf_filter *f;
    cr_assert_eq(bf_filter_new(&f, BF_FAMILY_BLOCKED, 1000000, 0.01), BF_OK);
    cr_assert_eq(bf_filter_num_bytes(f), z.num_bytes);
    bf_filter_stats st;
    cr_assert_eq(bf_filter_get_stats(f, &st), BF_OK);
    cr_assert_eq(st.k, z.k);
    cr_assert_eq(st.block_bits, 512);
    cr_assert_eq(st.sectors, 8);
    cr_assert_eq(st.groups, 2);
    cr_assert_eq(st.cells, z.num_bytes * 8);
    bf_filter_free(f);
    bf_family fam;
    cr_assert_eq(bf_family_from_name("blocked", &fam), BF_OK);
    cr_assert_eq(fam, BF_FAMILY_BLOCKED);
    double p;
    cr_assert_eq(bf_fpp_for(BF_FAMILY_BLOCKED, z.num_bytes, 1000000, &p), BF_OK);
    cr_assert(p <= z.model_fpp * 1.0000001, "%g vs %g", p, z.model_fpp);
}

/* Merging equal shapes ORs the bits; another shape, size or seed is a
 * mismatch, and nothing changes. */
Test(blocked_filter, merge) {
    const bf_blocked_shape s = {64, 1, 1, 4}, t = {64, 2, 2, 4};
    bf_filter *a, *b, *c, *d;
    cr_assert_eq(bf_filter_new_blocked(&a, 5000, 0.02, &s), BF_OK);
    cr_assert_eq(bf_filter_new_blocked(&b, 5000, 0.02, &s), BF_OK);
    cr_assert_eq(bf_filter_new_blocked(&c, 5000, 0.02, &t), BF_OK);
    cr_assert_eq(bf_filter_new_blocked(&d, 9000, 0.02, &s), BF_OK);
    uint64_t *h = random_hashes(4000, 5);
    bf_filter_insert_hashes(a, h, 2000, NULL);
    bf_filter_insert_hashes(b, h + 2000, 2000, NULL);
    cr_assert_eq(bf_filter_merge(a, c), BF_EMISMATCH);
    cr_assert_eq(bf_filter_merge(a, d), BF_EMISMATCH);
    cr_assert_eq(bf_filter_merge(a, b), BF_OK);
    cr_assert_eq(bf_filter_contains_hashes(a, h, 4000, NULL), 4000);
    bf_filter_stats st;
    bf_filter_get_stats(a, &st);
    cr_assert_eq(st.inserted, 4000);
    bf_filter *e;
    cr_assert_eq(bf_filter_new_blocked(&e, 5000, 0.02, &s), BF_OK);
    cr_assert_eq(bf_filter_set_seed(e, 3), BF_OK);
    cr_assert_eq(bf_filter_merge(a, e), BF_EMISMATCH);
    free(h);
    bf_filter_free(a);
    bf_filter_free(b);
    bf_filter_free(c);
    bf_filter_free(d);
    bf_filter_free(e);
}

/* Keyed hashing: the seed changes every bit position; byte strings and
 * typed keys through bf_filter follow it. */
Test(blocked_filter, keyed_hashing) {
    const bf_blocked_shape s = {512, 1, 1, 8};
    bf_filter *a, *b;
    cr_assert_eq(bf_filter_new_blocked(&a, 1000, 0.01, &s), BF_OK);
    cr_assert_eq(bf_filter_new_blocked(&b, 1000, 0.01, &s), BF_OK);
    cr_assert_eq(bf_filter_set_seed(b, 0xfeed), BF_OK);
    int64_t v[500];
    for (int i = 0; i < 500; i++) v[i] = i;
    cr_assert_eq(bf_filter_insert_int64s(a, v, 500, NULL), BF_OK);
    cr_assert_eq(bf_filter_insert_int64s(b, v, 500, NULL), BF_OK);
    cr_assert_eq(bf_filter_contains_int64s(b, v, 500, NULL), 500);
    cr_assert(memcmp(bf_blocked_bitset(bf_filter_blocked(a)), bf_blocked_bitset(bf_filter_blocked(b)),
                     bf_filter_num_bytes(a)) != 0);
    cr_assert_eq(bf_filter_set_seed(b, 1), BF_EINVAL);
    cr_assert_eq(bf_blocked_seed(bf_filter_blocked(b)), 0xfeed);
    bf_filter_free(a);
    bf_filter_free(b);
}

/* The native image: version 2; crafted shapes and versions are refused. */
static void rewrite_header_check(uint8_t *img) {
    uint8_t tmp[64];
    memcpy(tmp, img, 64);
    memset(tmp + 44, 0, 4);
    uint32_t c = (uint32_t)bf_hash_xxh64(tmp, 64);
    for (int i = 0; i < 4; i++) img[44 + i] = (uint8_t)(c >> (8 * i));
}

Test(blocked_format, crafted_headers) {
    const bf_blocked_shape s = {512, 8, 2, 6};
    bf_filter *f, *g;
    cr_assert_eq(bf_filter_new_blocked(&f, 1000, 0.01, &s), BF_OK);
    bf_filter_insert(f, "a", 1);
    size_t len = bf_filter_save_size(f);
    uint8_t *img = malloc(len), *bad = malloc(len);
    cr_assert_eq(bf_filter_save(f, img, len, NULL), BF_OK);
    cr_assert_eq(img[4] | img[5] << 8, 2);
    /* Version 1 cannot hold family 6. */
    memcpy(bad, img, len);
    bad[4] = 1;
    rewrite_header_check(bad);
    cr_assert_eq(bf_filter_load(&g, bad, len), BF_ECORRUPT);
    cr_assert_eq(bf_filter_view(&g, bad, len, 0), BF_ECORRUPT);
    /* Version 3 is not known. */
    bad[4] = 3;
    rewrite_header_check(bad);
    cr_assert_eq(bf_filter_load(&g, bad, len), BF_EVERSION);
    /* A shape that breaks a rule (p2 = S | z << 16: z = 3). */
    memcpy(bad, img, len);
    bad[38] = 3;
    rewrite_header_check(bad);
    cr_assert_eq(bf_filter_load(&g, bad, len), BF_ECORRUPT);
    /* Blocks that do not match the payload. */
    memcpy(bad, img, len);
    bad[24] ^= 1;
    rewrite_header_check(bad);
    cr_assert_eq(bf_filter_load(&g, bad, len), BF_ECORRUPT);
    /* Untouched, it loads; older families still write version 1, and an
     * SBBF image marked 2 is refused (it would not save back as it is). */
    cr_assert_eq(bf_filter_load(&g, img, len), BF_OK);
    bf_filter_free(g);
    bf_filter *q;
    cr_assert_eq(bf_filter_new(&q, BF_FAMILY_SBBF, 100, 0.01), BF_OK);
    uint8_t head[64 + 128 * 32];
    size_t w = 0;
    cr_assert_eq(bf_filter_save(q, head, sizeof head, &w), BF_OK);
    cr_assert_eq(head[4], 1);
    bf_filter *r;
    cr_assert_eq(bf_filter_load(&r, head, w), BF_OK);
    bf_filter_free(r);
    head[4] = 2;
    rewrite_header_check(head);
    cr_assert_eq(bf_filter_load(&r, head, w), BF_ECORRUPT);
    bf_filter_free(q);
    free(img);
    free(bad);
    bf_filter_free(f);
}

/* Null and invalid arguments. */
Test(blocked_filter, arguments) {
    const bf_blocked_shape s = {128, 4, 4, 4};
    bf_blocked *f = NULL;
    cr_assert_eq(bf_blocked_new_bytes(&f, 0, &s), BF_EINVAL);
    cr_assert_eq(bf_blocked_new_bytes(&f, 17, &s), BF_EINVAL);
    cr_assert_eq(bf_blocked_new_bytes(&f, BF_BLOCKED_MAX_BYTES + 16, &s), BF_ETOOBIG);
    cr_assert_eq(bf_blocked_new_bytes(NULL, 16, &s), BF_EINVAL);
    cr_assert_eq(bf_blocked_new_bytes(&f, 16, NULL), BF_ESHAPE);
    cr_assert_eq(bf_blocked_new(&f, 10, 0.0, &s), BF_EINVAL);
    cr_assert_eq(bf_blocked_new_bytes(&f, 16, &s), BF_OK);
    cr_assert_eq(bf_blocked_num_blocks(f), 1);
    cr_assert_eq(bf_blocked_insert_hashes(f, NULL, 1), BF_EINVAL);
    cr_assert_eq(bf_blocked_insert_hashes(NULL, NULL, 0), BF_EINVAL);
    cr_assert_eq(bf_blocked_contains_hashes(f, NULL, 0, NULL), 0);
    cr_assert_eq(bf_blocked_insert_hash(f, 42), BF_OK);
    cr_assert(bf_blocked_contains_hash(f, 42));
    cr_assert_eq(bf_blocked_clear(f), BF_OK);
    cr_assert(!bf_blocked_contains_hash(f, 42));
    bf_blocked_free(f);
    bf_blocked_free(NULL);
}

/* Batch inserts through the API (the SIMD insert where the process kernel
 * has one; partitioned and not; hashes and int64 keys) set the bits of the
 * generic scalar instance's single inserts, on a filter past the prefetch
 * threshold and on a filter of one block, with keys that share a block
 * with the key before them, or repeat it, within one register. */
Test(blocked_kernels, batch_inserts_set_scalar_bits, .timeout = 240) {
    static const bf_blocked_shape shapes[] = {
        {32, 1, 1, 4},  {32, 1, 1, 3},   {64, 1, 1, 4},   {64, 1, 1, 6},  {512, 8, 8, 8},
        {512, 16, 16, 16}, {512, 1, 1, 8}, {512, 8, 2, 6}, {512, 8, 2, 8},  {512, 16, 2, 8},
        {128, 1, 1, 5}, {256, 4, 4, 8},  {512, 8, 4, 12}, {256, 8, 8, 8},
    };
    const size_t n = 200000;
    uint64_t *h = random_hashes(n, 21), *hv = malloc(n * sizeof *hv);
    int64_t *v = malloc(n * sizeof *v);
    cr_assert(hv && v);
    for (size_t i = 1; i < n; i += 4) h[i] = (h[i - 1] & ~0xffffffffull) | (h[i] >> 32);
    for (size_t i = 2; i < n; i += 4) h[i] = h[i - 2];
    for (size_t i = 0; i < n; i++) v[i] = (int64_t)(h[i] * 0x9E3779B97F4A7C15ull);
    for (size_t i = 2; i < n; i += 4) v[i] = v[i - 1];
    bf_hash_int64s(v, n, 0, hv);
    const char *kname = NULL;
    bf_sbbf_default_kernel(&kname);
    const bool simd = kname && (!strcmp(kname, "avx2") || !strcmp(kname, "avx512") ||
                                !strcmp(kname, "neon"));
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const bf_blocked_shape *s = &shapes[i];
        const uint64_t bb = s->block_bits / 8, sizes[2] = {bb, ((3u << 20) / bb + 7) * bb};
        for (int z = 0; z < 2; z++) {
            bf_blocked *ref, *f;
            cr_assert_eq(bf_blocked_new_bytes(&ref, sizes[z], s), BF_OK);
            ref->impl = bf__blocked_impl_for(s, false);
            for (size_t j = 0; j < n; j++) bf_blocked_insert_hash(ref, h[j]);
            for (size_t j = 0; j < n; j++) bf_blocked_insert_hash(ref, hv[j]);
            for (int mode = BF_PARTITION_ON; mode <= BF_PARTITION_OFF; mode++) {
                cr_assert_eq(bf_blocked_new_bytes(&f, sizes[z], s), BF_OK);
                bool sbbf = s->block_bits == 256 && s->sectors == 8 && s->groups == 8 && s->k == 8;
                cr_assert_eq(f->simd_insert != NULL, simd && !sbbf, "%u/%u/%u/%u: SIMD insert",
                             s->block_bits, s->sectors, s->groups, s->k);
                cr_assert_eq(bf_blocked_set_partitioning(f, mode), BF_OK);
                cr_assert_eq(bf_blocked_insert_hashes(f, h, n), BF_OK);
                cr_assert_eq(bf_blocked_insert_int64s(f, v, n), BF_OK);
                cr_assert(!memcmp(bf_blocked_bitset(f), bf_blocked_bitset(ref), (size_t)sizes[z]),
                          "%u/%u/%u/%u, %llu bytes, partitioning %d: other bits than scalar",
                          s->block_bits, s->sectors, s->groups, s->k,
                          (unsigned long long)sizes[z], mode);
                bf_blocked_free(f);
            }
            bf_blocked_free(ref);
        }
    }
    free(h);
    free(hv);
    free(v);
}
