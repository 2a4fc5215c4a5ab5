/*
 * The scalable SBBF's contract: parameters and their limits, layer shapes
 * and targets, adds (duplicates, growth, non-scaling refusal), batches equal
 * to single calls, seeds, clear, info, kernels.
 */
#include "scalable_util.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

static bf_scalable *make(uint64_t capacity, double fpp, unsigned expansion, double ratio,
                         unsigned flags) {
    bf_scalable_params p = {capacity, fpp, expansion, ratio, flags};
    bf_scalable *f = NULL;
    int rc = bf_scalable_new(&f, &p);
    cr_assert_eq(rc, BF_OK, "new(%llu, %g, %u, %g, %u): %s", (unsigned long long)capacity, fpp,
                 expansion, ratio, flags, bf_strerror(rc));
    return f;
}

static void info(const bf_scalable *f, bf_scalable_stats *out) {
    cr_assert_eq(bf_scalable_get_stats(f, out), BF_OK);
}

/* Layers of a chain, without get_info's O(bytes) pass. */
static size_t layers(const bf_scalable *f) {
    bf_scalable_layer l;
    size_t n = 0;
    while (bf_scalable_get_layer(f, n, &l) == BF_OK) n++;
    return n;
}

/* ---- parameters ---------------------------------------------------------- */

Test(params, invalid_rejected_with_einval) {
    const bf_scalable_params bad[] = {
        {0, 0.01, 2, 0.5, 0},                       /* capacity 0 */
        {100, 0.0, 2, 0.5, 0},                      /* fpp 0 */
        {100, 1.0, 2, 0.5, 0},                      /* fpp 1 */
        {100, -0.1, 2, 0.5, 0},                     /* fpp < 0 */
        {100, NAN, 2, 0.5, 0},                      /* fpp NaN */
        {100, INFINITY, 2, 0.5, 0},                 /* fpp inf */
        {100, 0.01, BF_SCALABLE_MAX_EXPANSION + 1, 0.5, 0},
        {100, 0.01, UINT32_MAX, 0.5, 0},
        {100, 0.01, 2, 1.0, 0},                     /* ratio 1 */
        {100, 0.01, 2, 1.5, 0},
        {100, 0.01, 2, -0.5, 0},
        {100, 0.01, 2, NAN, 0},
        {100, 0.01, 2, INFINITY, 0},
        {100, 0.01, 2, 0.5, 2},                     /* unknown flag */
        {100, 0.01, 2, 0.5, 0x80000000u},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        bf_scalable *f = (bf_scalable *)(uintptr_t)1;
        cr_expect_eq(bf_scalable_new(&f, &bad[i]), BF_EINVAL, "case %zu", i);
        cr_expect_eq(f, (bf_scalable *)(uintptr_t)1, "case %zu: out written", i);
    }
    bf_scalable_params ok = {100, 0.01, 0, 0, 0};
    cr_expect_eq(bf_scalable_new(NULL, &ok), BF_EINVAL);
    bf_scalable *f = NULL;
    cr_expect_eq(bf_scalable_new(&f, NULL), BF_EINVAL);
}

Test(params, bounds_accepted) {
    bf_scalable_params edge[] = {
        {1, 0.5, 1, 1e-9, 0},
        {1, 1e-9, BF_SCALABLE_MAX_EXPANSION, 0.999999, 0},
        {1, 0.999, 1, 0.5, BF_SCALABLE_NONSCALING},
        {1000000, 0.01, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++) {
        bf_scalable *f = NULL;
        cr_expect_eq(bf_scalable_new(&f, &edge[i]), BF_OK, "case %zu", i);
        bf_scalable_free(f);
    }
    bf_scalable_free(NULL);
}

Test(params, defaults_filled_in) {
    bf_scalable *f = make(100, 0.01, 0, 0, 0);
    bf_scalable_stats in;
    info(f, &in);
    cr_expect_eq(in.expansion, BF_SCALABLE_DEFAULT_EXPANSION);
    cr_expect_eq(in.ratio, BF_SCALABLE_DEFAULT_RATIO);
    cr_expect_eq(in.fpp, 0.01);
    cr_expect_eq(in.flags, 0u);
    cr_expect_eq(in.num_layers, 1u);
    cr_expect_eq(in.capacity, 100u);
    cr_expect_eq(in.count, 0u);
    cr_expect_eq(in.fill_ratio, 0.0);
    cr_expect_eq(in.est_fpp, 0.0);
    bf_scalable_free(f);
}

Test(params, too_big_first_layer) {
    /* 2^40 keys at 1e-6 need more than the SBBF's 128 GiB. */
    bf_scalable_params p = {(uint64_t)1 << 40, 1e-6, 0, 0, 0};
    bf_scalable *f = NULL;
    cr_expect_eq(bf_scalable_new(&f, &p), BF_ETOOBIG);
    p.capacity = UINT64_MAX;
    cr_expect_eq(bf_scalable_new(&f, &p), BF_ETOOBIG);
    cr_expect_null(f);
}

/* ---- layer targets ------------------------------------------------------- */

/* prod_{i>=0} (1 - q r^i) in long double, to well past where terms matter. */
static long double prod_pass(double q, double r) {
    long double p = 1.0L, y = q;
    for (int i = 0; i < 200000 && y > 1e-30L; i++) {
        p *= 1.0L - y;
        y *= r;
    }
    return p;
}

Test(targets, fpp0_is_the_largest_safe_start) {
    const double eps[] = {0.5, 0.1, 0.01, 0.001, 1e-6};
    const double rs[] = {0.1, 0.5, 0.8, 0.9, 0.99};
    for (size_t e = 0; e < 5; e++)
        for (size_t r = 0; r < 5; r++) {
            bf_scalable *f = make(1000, eps[e], 2, rs[r], 0);
            bf_scalable_layer l;
            cr_assert_eq(bf_scalable_get_layer(f, 0, &l), BF_OK);
            double q = l.fpp;
            /* Safe over an unbounded chain. */
            cr_expect(prod_pass(q, rs[r]) >= 1.0L - eps[e], "eps %g r %g: q %.17g unsafe", eps[e],
                      rs[r], q);
            /* Never below the union bound, always below eps. */
            cr_expect(q >= eps[e] * (1 - rs[r]) && q < eps[e], "eps %g r %g: q %g", eps[e], rs[r], q);
            /* Tight: 1e-6 more would break the bound. */
            cr_expect(prod_pass(q * (1 + 1e-6), rs[r]) < 1.0L - eps[e], "eps %g r %g: q %.17g not tight",
                      eps[e], rs[r], q);
            bf_scalable_free(f);
        }
    /* Random targets and ratios. */
    uint64_t st = 2024;
    for (int i = 0; i < 200; i++) {
        double e = pow(10.0, -6.0 + 5.7 * (double)(tu_next(&st) >> 11) * 0x1p-53);
        double r = 0.01 + 0.98 * (double)(tu_next(&st) >> 11) * 0x1p-53;
        bf_scalable *g = make(10, e, 1, r, 0);
        bf_scalable_layer l;
        bf_scalable_get_layer(g, 0, &l);
        cr_expect(prod_pass(l.fpp, r) >= 1.0L - e, "eps %.17g r %.17g: unsafe", e, r);
        cr_expect(prod_pass(l.fpp * (1 + 1e-6), r) < 1.0L - e, "eps %.17g r %.17g: not tight", e, r);
        bf_scalable_free(g);
    }
    /* The figure quoted in the header and docs. */
    bf_scalable *f = make(100, 0.01, 2, 0.5, 0);
    bf_scalable_layer l;
    bf_scalable_get_layer(f, 0, &l);
    cr_expect(fabs(l.fpp - 0.005017) < 5e-7, "fpp_0 at 1%%, r 0.5: %.7f", l.fpp);
    bf_scalable_free(f);
    /* Non-scaling: the one layer takes the whole budget. */
    f = make(100, 0.01, 2, 0.5, BF_SCALABLE_NONSCALING);
    bf_scalable_get_layer(f, 0, &l);
    cr_expect_eq(l.fpp, 0.01);
    bf_scalable_free(f);
}

/* Layer i: capacity * expansion^i, target fpp_0 r^i, bytes the compact
 * sizing of (capacity_i, fpp_i); bound_fpp <= fpp. */
Test(targets, layer_shapes) {
    const unsigned exps[] = {1, 2, 3, 4};
    for (size_t x = 0; x < 4; x++) {
        bf_scalable *f = make(50, 0.01, exps[x], 0.6, 0);
        uint64_t s = 42 + x;
        bf_scalable_stats in;
        while (layers(f) < 6) cr_assert_eq(bf_scalable_insert_hash(f, tu_next(&s), NULL), BF_OK);
        info(f, &in);
        bf_scalable_layer l0;
        bf_scalable_get_layer(f, 0, &l0);
        uint64_t cap = 50, total_bytes = 0, total_cap = 0, total_count = 0;
        double fpp = l0.fpp;
        for (size_t i = 0; i < in.num_layers; i++) {
            bf_scalable_layer l;
            cr_assert_eq(bf_scalable_get_layer(f, i, &l), BF_OK);
            cr_expect_eq(l.capacity, cap, "exp %u layer %zu capacity", exps[x], i);
            cr_expect_eq(l.fpp, fpp, "exp %u layer %zu target", exps[x], i);
            size_t bytes;
            cr_assert_eq(bf_sbbf_compact_bytes(cap, fpp, &bytes), BF_OK);
            cr_expect_eq(bf_sbbf_num_bytes(l.sbbf), bytes, "exp %u layer %zu bytes", exps[x], i);
            cr_expect(bf_sbbf_model_fpp(bytes, cap) <= fpp);
            if (i + 1 < in.num_layers)
                cr_expect_eq(l.count, l.capacity, "layer %zu not full", i);
            else
                cr_expect(l.count >= 1 && l.count <= l.capacity);
            cr_expect_eq(bf_sbbf_seed(l.sbbf), 0u);
            total_bytes += bytes;
            total_cap += cap;
            total_count += l.count;
            cap *= exps[x];
            fpp *= 0.6;
        }
        cr_expect_eq(in.num_bytes, total_bytes);
        cr_expect_eq(in.capacity, total_cap);
        cr_expect_eq(in.count, total_count);
        cr_expect(in.bound_fpp <= 0.01 && in.bound_fpp > 0, "bound %g", in.bound_fpp);
        cr_expect(bf_scalable_get_layer(f, in.num_layers, &l0) == BF_EINVAL);
        cr_expect(bf_scalable_get_layer(f, SIZE_MAX, &l0) == BF_EINVAL);
        cr_expect(bf_scalable_get_layer(f, 0, NULL) == BF_EINVAL);
        cr_expect(bf_scalable_get_layer(NULL, 0, &l0) == BF_EINVAL);
        bf_scalable_free(f);
    }
}

/* ---- adds ---------------------------------------------------------------- */

Test(add, duplicates_do_not_count) {
    bf_scalable *f = make(10, 0.01, 2, 0.5, 0);
    bool added = false;
    cr_expect_eq(bf_scalable_insert_hash(f, 12345, &added), BF_OK);
    cr_expect(added);
    for (int i = 0; i < 100; i++) {
        cr_expect_eq(bf_scalable_insert_hash(f, 12345, &added), BF_OK);
        cr_expect(!added);
    }
    cr_expect_eq(bf_scalable_insert(f, "abc", 3, &added), BF_OK);
    cr_expect(added);
    cr_expect_eq(bf_scalable_insert(f, "abc", 3, &added), BF_OK);
    cr_expect(!added);
    cr_expect_eq(bf_scalable_insert(f, "abc", 3, NULL), BF_OK);
    bf_scalable_stats in;
    info(f, &in);
    cr_expect_eq(in.count, 2u);
    cr_expect_eq(in.num_layers, 1u);
    cr_expect(bf_scalable_contains(f, "abc", 3));
    cr_expect(bf_scalable_contains_hash(f, 12345));
    /* A key in an old layer is not written again after growth. */
    uint64_t s = 9;
    while (layers(f) < 3) cr_assert_eq(bf_scalable_insert_hash(f, tu_next(&s), NULL), BF_OK);
    info(f, &in);
    uint64_t before = in.count;
    cr_expect_eq(bf_scalable_insert_hash(f, 12345, &added), BF_OK);
    cr_expect(!added);
    info(f, &in);
    cr_expect_eq(in.count, before);
    bf_scalable_free(f);
}

Test(add, grows_when_newest_is_full) {
    bf_scalable *f = make(4, 0.01, 2, 0.5, 0);
    uint64_t s = 1;
    bf_scalable_stats in;
    /* Exactly 4 new keys fit in layer 0; the 5th appends layer 1. */
    uint64_t added_keys = 0;
    while (added_keys < 4) {
        bool a;
        cr_assert_eq(bf_scalable_insert_hash(f, tu_next(&s), &a), BF_OK);
        added_keys += a;
    }
    info(f, &in);
    cr_expect_eq(in.num_layers, 1u, "a full layer alone does not grow the chain");
    bool a = false;
    uint64_t k;
    do {
        k = tu_next(&s);
    } while (bf_scalable_contains_hash(f, k));
    cr_expect_eq(bf_scalable_insert_hash(f, k, &a), BF_OK);
    cr_expect(a);
    info(f, &in);
    cr_expect_eq(in.num_layers, 2u);
    cr_expect_eq(in.capacity, 12u);
    cr_expect_eq(in.count, 5u);
    bf_scalable_layer l;
    bf_scalable_get_layer(f, 1, &l);
    cr_expect_eq(l.count, 1u);
    cr_expect(bf_sbbf_contains_hash(l.sbbf, k));
    bf_scalable_free(f);
}

/* Non-scaling: the (capacity+1)-th distinct key gets BF_EFULL and nothing
 * changes; duplicates still answer BF_OK / not added. */
Test(add, nonscaling_refuses_when_full) {
    const uint64_t cap = 1000;
    bf_scalable *f = make(cap, 0.01, 2, 0.5, BF_SCALABLE_NONSCALING);
    uint64_t s = 77;
    uint64_t *keys = malloc(cap * sizeof *keys);
    size_t nk = 0;
    while (nk < cap) {
        uint64_t k = tu_next(&s);
        bool a;
        cr_assert_eq(bf_scalable_insert_hash(f, k, &a), BF_OK);
        if (a) keys[nk++] = k;
    }
    size_t len0 = 0;
    uint8_t *snap0 = su_snapshot(f, &len0);
    cr_assert_not_null(snap0);
    uint64_t k;
    do {
        k = tu_next(&s);
    } while (bf_scalable_contains_hash(f, k));
    bool a = true;
    cr_expect_eq(bf_scalable_insert_hash(f, k, &a), BF_EFULL);
    cr_expect(a, "added written on failure");
    cr_expect(!bf_scalable_contains_hash(f, k));
    cr_expect_eq(bf_scalable_insert(f, "not there yet", 13, NULL),
                 bf_scalable_contains(f, "not there yet", 13) ? BF_OK : BF_EFULL);
    /* Duplicates are fine. */
    for (size_t i = 0; i < 10; i++) {
        cr_expect_eq(bf_scalable_insert_hash(f, keys[i], &a), BF_OK);
        cr_expect(!a);
    }
    /* Batch: stops at the first new key, done = keys before it. */
    uint64_t batch[4] = {keys[0], keys[1], k, keys[2]};
    uint8_t added[4] = {9, 9, 9, 9};
    size_t done = 99;
    cr_expect_eq(bf_scalable_insert_hashes(f, batch, 4, added, &done), BF_EFULL);
    cr_expect_eq(done, 2u);
    cr_expect(added[0] == 0 && added[1] == 0 && added[2] == 9 && added[3] == 9);
    size_t len1 = 0;
    uint8_t *snap1 = su_snapshot(f, &len1);
    cr_expect(len1 == len0 && memcmp(snap0, snap1, len0) == 0, "a refused add changed the filter");
    bf_scalable_stats in;
    info(f, &in);
    cr_expect_eq(in.count, cap);
    cr_expect_eq(in.num_layers, 1u);
    cr_expect(in.bound_fpp <= 0.01);
    free(snap0);
    free(snap1);
    free(keys);
    bf_scalable_free(f);
}

/* Growth that would overflow a limit: BF_ETOOBIG, nothing changed. */
static void expect_refused_growth(bf_scalable *f, uint64_t *s) {
    size_t len0 = 0;
    uint8_t *snap0 = su_snapshot(f, &len0);
    cr_assert_not_null(snap0);
    uint64_t k;
    do {
        k = tu_next(s);
    } while (bf_scalable_contains_hash(f, k));
    bool a = true;
    cr_expect_eq(bf_scalable_insert_hash(f, k, &a), BF_ETOOBIG);
    cr_expect(a);
    size_t done = 7;
    cr_expect_eq(bf_scalable_insert_hashes(f, &k, 1, NULL, &done), BF_ETOOBIG);
    cr_expect_eq(done, 0u);
    size_t len1 = 0;
    uint8_t *snap1 = su_snapshot(f, &len1);
    cr_expect(len1 == len0 && memcmp(snap0, snap1, len0) == 0, "a refused add changed the filter");
    free(snap0);
    free(snap1);
}

static void fill_until_refused(bf_scalable *f, uint64_t *s, int want) {
    for (;;) {
        int rc = bf_scalable_insert_hash(f, tu_next(s), NULL);
        if (rc == want) return;
        cr_assert_eq(rc, BF_OK, "%s", bf_strerror(rc));
    }
}

Test(limits, layer_count) {
    bf_scalable *f = make(1, 0.01, 1, 0.99, 0);
    uint64_t s = 5;
    fill_until_refused(f, &s, BF_ETOOBIG);
    bf_scalable_stats in;
    info(f, &in);
    cr_expect_eq(in.num_layers, BF_SCALABLE_MAX_LAYERS);
    cr_expect_eq(in.count, BF_SCALABLE_MAX_LAYERS);
    cr_expect(in.bound_fpp <= 0.01);
    expect_refused_growth(f, &s);
    bf_scalable_free(f);
}

Test(limits, target_underflow) {
    /* fpp_1 = fpp_0 * 1e-300 is below anything an SBBF can meet. */
    bf_scalable *f = make(10, 0.01, 2, 1e-300, 0);
    uint64_t s = 6;
    fill_until_refused(f, &s, BF_ETOOBIG);
    bf_scalable_stats in;
    info(f, &in);
    cr_expect_eq(in.num_layers, 1u);
    cr_expect_eq(in.count, 10u);
    expect_refused_growth(f, &s);
    bf_scalable_free(f);
}

Test(limits, layer_bytes) {
    /* Layer 1 would hold 2^22 * 32768 = 2^37 keys at a tight target:
     * beyond the SBBF's 128 GiB. */
    bf_scalable *f = make((uint64_t)1 << 6, 1e-4, BF_SCALABLE_MAX_EXPANSION, 0.5, 0);
    uint64_t s = 8;
    fill_until_refused(f, &s, BF_ETOOBIG);
    bf_scalable_stats in;
    info(f, &in);
    /* 64, 2^21, 2^36: the third layer's 2^36 keys at 1e-4 / 4 exceed 128 GiB. */
    cr_expect_eq(in.num_layers, 2u);
    expect_refused_growth(f, &s);
    bf_scalable_free(f);
}

/* The growth guard: layers within it are appended, the first costlier one
 * is refused with BF_ETOOBIG and nothing changes; 0 lifts it. */
Test(limits, growth_guard) {
    const double guard = 64.0;
    bf_scalable *f = make(100, 0.01, 1, 0.5, 0);
    cr_expect_eq(bf_scalable_set_growth_limit(NULL, guard), BF_EINVAL);
    cr_expect_eq(bf_scalable_set_growth_limit(f, -1.0), BF_EINVAL);
    cr_expect_eq(bf_scalable_set_growth_limit(f, NAN), BF_EINVAL);
    cr_assert_eq(bf_scalable_set_growth_limit(f, guard), BF_OK);
    uint64_t s = 9;
    fill_until_refused(f, &s, BF_ETOOBIG);
    size_t n = layers(f);
    cr_assert(n > 1 && n < BF_SCALABLE_MAX_LAYERS, "%zu layers", n);
    bf_scalable_layer l;
    for (size_t i = 1; i < n; i++) {
        cr_assert_eq(bf_scalable_get_layer(f, i, &l), BF_OK);
        cr_expect_leq((double)bf_sbbf_num_bytes(l.sbbf) * 8.0, guard * (double)l.capacity);
    }
    /* The newest is full, and the layer after it would cost more. */
    cr_assert_eq(bf_scalable_get_layer(f, n - 1, &l), BF_OK);
    cr_expect_eq(l.count, l.capacity);
    size_t next = 0;
    cr_assert_eq(bf_sbbf_compact_bytes(l.capacity, l.fpp * 0.5, &next), BF_OK);
    cr_expect_gt((double)next * 8.0, guard * (double)l.capacity);
    expect_refused_growth(f, &s);
    cr_assert_eq(bf_scalable_set_growth_limit(f, 0.0), BF_OK);
    for (int i = 0; i < 100 && layers(f) == n; i++)
        cr_assert_eq(bf_scalable_insert_hash(f, tu_next(&s), NULL), BF_OK);
    cr_expect_eq(layers(f), n + 1);
    bf_scalable_free(f);

    /* Layer 0 is not checked: one block for one key is 256 bits per key. */
    f = make(1, 0.01, 2, 0.5, 0);
    cr_assert_eq(bf_scalable_set_growth_limit(f, guard), BF_OK);
    cr_expect_eq(bf_scalable_insert_hash(f, tu_next(&s), NULL), BF_OK);
    expect_refused_growth(f, &s);
    cr_expect_eq(layers(f), 1u);
    bf_scalable_free(f);
}

/* The chain-wide limits, through the model (no memory needed). */
Test(limits, model_arithmetic) {
    double m;
    uint64_t bytes;
    /* Capacity 2^31 per layer (expansion 1) at 1e-3: about 4.5 GB each;
     * 1 TiB is reached within the 64-layer limit. */
    bf_scalable_params p = {(uint64_t)1 << 31, 1e-3, 1, 0.999, 0};
    cr_expect_eq(bf__scalable_model(&p, (uint64_t)1 << 37, &m, &bytes), BF_ETOOBIG);
    /* Capacity overflow: 2^40 * 32768^2 > 2^64 ... stopped earlier by the
     * SBBF's limit, also BF_ETOOBIG. */
    p = (bf_scalable_params){(uint64_t)1 << 20, 0.01, BF_SCALABLE_MAX_EXPANSION, 0.5, 0};
    cr_expect_eq(bf__scalable_model(&p, UINT64_MAX, &m, &bytes), BF_ETOOBIG);
    /* Non-scaling past its capacity. */
    p = (bf_scalable_params){100, 0.01, 2, 0.5, BF_SCALABLE_NONSCALING};
    cr_expect_eq(bf__scalable_model(&p, 101, &m, &bytes), BF_EFULL);
    cr_expect_eq(bf__scalable_model(&p, 100, &m, &bytes), BF_OK);
    cr_expect(m <= 0.01 && m > 0.002, "%g", m);
    /* Scaling: the model stays below fpp however far it grows. */
    p = (bf_scalable_params){100, 0.01, 2, 0.5, 0};
    for (uint64_t n = 1; n <= ((uint64_t)1 << 30); n *= 7) {
        cr_assert_eq(bf__scalable_model(&p, n, &m, &bytes), BF_OK);
        cr_expect(m <= 0.01, "n %llu: model %g", (unsigned long long)n, m);
    }
    cr_expect_eq(bf__scalable_model(NULL, 1, &m, &bytes), BF_EINVAL);
    cr_expect_eq(bf__scalable_model(&p, 1, NULL, &bytes), BF_EINVAL);
    /* bf_size_for: layer 0 of the default chain (n = initial capacity). */
    bf_sizing sz;
    cr_assert_eq(bf_size_for(BF_FAMILY_SCALABLE, 1000000, 0.01, &sz), BF_OK);
    cr_expect_eq(sz.family, BF_FAMILY_SCALABLE);
    size_t direct;
    bf_scalable *f = make(1000000, 0.01, 0, 0, 0);
    bf_scalable_stats in;
    info(f, &in);
    cr_expect_eq(sz.num_bytes, in.num_bytes);
    cr_expect(sz.model_fpp <= 0.005017 && sz.model_fpp > 0.004, "%g", sz.model_fpp);
    cr_expect(fabs(sz.model_fpp - in.bound_fpp) <= 1e-15, "the model at n (%.17g) is the chain's "
              "bound at that size (%.17g)", sz.model_fpp, in.bound_fpp);
    cr_expect(sz.k == 8 && sz.fp_bits == 0 && sz.bits_per_key == sz.num_bytes * 8.0 / 1e6);
    cr_assert_eq(bf_sbbf_compact_bytes(1000000, 0.01, &direct), BF_OK);
    fprintf(stderr, "scalable reserved for 10^6 at 1%%: %.2f bits/key (right-sized SBBF %.2f)\n",
            sz.bits_per_key, direct * 8.0 / 1e6);
    bf_scalable_free(f);
    /* n = 0 is taken as one key, as the other families size it. */
    bf_sizing one;
    cr_expect_eq(bf_size_for(BF_FAMILY_SCALABLE, 0, 0.01, &sz), BF_OK);
    cr_expect_eq(bf_size_for(BF_FAMILY_SCALABLE, 1, 0.01, &one), BF_OK);
    cr_expect(sz.num_bytes == one.num_bytes && sz.num_bytes == 32);
    cr_expect_eq(bf_size_for(BF_FAMILY_SCALABLE, 10, 1.0, &sz), BF_EINVAL);
    cr_expect_eq(bf_size_for(BF_FAMILY_SCALABLE, 10, 0.01, NULL), BF_EINVAL);
    /* Past the chain's byte limit: layer 0 alone over 1 TiB. */
    cr_expect_eq(bf_size_for(BF_FAMILY_SCALABLE, (uint64_t)1 << 42, 1e-6, &sz), BF_ETOOBIG);
    /* fpp_for: n keys in one layer of that many bytes, the SBBF's model. */
    double p1 = 0, p2 = 0;
    cr_expect_eq(bf_fpp_for(BF_FAMILY_SCALABLE, 1 << 20, 500000, &p1), BF_OK);
    cr_expect_eq(bf_fpp_for(BF_FAMILY_SBBF, 1 << 20, 500000, &p2), BF_OK);
    cr_expect_eq(p1, p2);
    cr_expect_eq(bf_fpp_for(BF_FAMILY_SCALABLE, 31, 10, &p1), BF_EINVAL);
}

/* ---- batches ------------------------------------------------------------- */

/* Batch adds give exactly what single adds give: same flags, same bits,
 * across growth and with repeats inside one batch; from a misaligned array. */
Test(batch, add_equals_single) {
    const size_t n = 20000;
    uint64_t *h = su_hashes(3, n);
    cr_assert_not_null(h);
    for (size_t i = 100; i < n; i += 97) h[i] = h[i - 50]; /* repeats */
    bf_scalable *a = make(64, 0.02, 2, 0.5, 0), *b = make(64, 0.02, 2, 0.5, 0);
    uint8_t *flags = malloc(n);
    uint8_t *raw = malloc(n * 8 + 8);
    cr_assert(flags && raw);
    uint64_t *mis = (uint64_t *)(void *)(raw + 3); /* misaligned on purpose */
    memcpy(mis, h, n * 8);
    size_t done = 0;
    cr_expect_eq(bf_scalable_insert_hashes(b, mis, n, flags, &done), BF_OK);
    cr_expect_eq(done, n);
    size_t repeats_not_added = 0;
    for (size_t i = 0; i < n; i++) {
        bool x;
        cr_assert_eq(bf_scalable_insert_hash(a, h[i], &x), BF_OK);
        cr_expect_eq(flags[i], (uint8_t)x, "key %zu", i);
        if (i >= 100 && (i - 100) % 97 == 0) repeats_not_added += !x;
    }
    cr_expect_eq(repeats_not_added, (n - 100 + 96) / 97);
    cr_expect(su_same(a, b), "batch and single adds differ");
    /* Batches of every small size in turn (chunk edges). */
    bf_scalable *c = make(64, 0.02, 2, 0.5, 0);
    size_t off = 0, step = 1;
    while (off < n) {
        size_t m = n - off < step ? n - off : step;
        cr_assert_eq(bf_scalable_insert_hashes(c, h + off, m, NULL, NULL), BF_OK);
        off += m;
        step = step * 3 % 1031 + 1;
    }
    cr_expect(su_same(a, c), "batches of mixed sizes differ");
    cr_expect_eq(bf_scalable_insert_hashes(c, NULL, 0, NULL, &done), BF_OK);
    cr_expect_eq(done, 0u);
    cr_expect_eq(bf_scalable_insert_hashes(c, NULL, 1, NULL, &done), BF_EINVAL);
    cr_expect_eq(bf_scalable_insert_hashes(NULL, h, 1, NULL, &done), BF_EINVAL);
    free(flags);
    free(raw);
    free(h);
    bf_scalable_free(a);
    bf_scalable_free(b);
    bf_scalable_free(c);
}

/* The batch lookup answers as single lookups, at every length. (The
 * strategies it was chosen against are in bench/bench_scalable.cc.) */
Test(batch, contains_equals_single) {
    bf_scalable *f = make(50, 0.05, 2, 0.5, 0);
    const size_t n = 30000;
    uint64_t *h = su_hashes(11, n);
    uint64_t *q = su_hashes(12, 2 * n);
    cr_assert(h && q);
    cr_assert_eq(bf_scalable_insert_hashes(f, h, n, NULL, NULL), BF_OK);
    memcpy(q + n, h, n * 8); /* half present */
    for (size_t i = 0; i < 2 * n; i += 2) { /* interleave */
        uint64_t t = q[i];
        q[i] = q[2 * n - 1 - i];
        q[2 * n - 1 - i] = t;
    }
    bf_scalable_stats in;
    info(f, &in);
    cr_expect(in.num_layers >= 8, "%zu layers", in.num_layers);
    uint8_t *want = malloc(2 * n), *got = malloc(2 * n);
    cr_assert(want && got);
    size_t ones = 0;
    for (size_t i = 0; i < 2 * n; i++) ones += want[i] = bf_scalable_contains_hash(f, q[i]);
    for (size_t len = 0; len <= 2 * n; len = len ? len * 5 + 3 : 1) {
        memset(got, 7, 2 * n);
        size_t c = bf_scalable_contains_hashes(f, q, len, got);
        size_t w = 0;
        for (size_t i = 0; i < len; i++) w += want[i];
        cr_expect_eq(c, w, "len %zu", len);
        cr_expect(memcmp(got, want, len) == 0, "len %zu answers differ", len);
        if (len < 2 * n) cr_expect_eq(got[len], 7, "len %zu wrote past the end", len);
        cr_expect_eq(bf_scalable_contains_hashes(f, q, len, NULL), w);
    }
    memset(got, 7, 2 * n);
    cr_expect_eq(bf_scalable_contains_hashes(f, q, 2 * n, got), ones);
    cr_expect(memcmp(got, want, 2 * n) == 0);
    cr_expect_eq(bf_scalable_contains_hashes(f, q, 2 * n, NULL), ones);
    /* From a misaligned array. */
    uint8_t *raw = malloc(2 * n * 8 + 8);
    cr_assert_not_null(raw);
    memcpy(raw + 5, q, 2 * n * 8);
    memset(got, 7, 2 * n);
    cr_expect_eq(bf_scalable_contains_hashes(f, (const uint64_t *)(void *)(raw + 5), 2 * n, got), ones);
    cr_expect(memcmp(got, want, 2 * n) == 0, "misaligned hashes answer differently");
    free(raw);
    cr_expect_eq(bf_scalable_contains_hashes(f, NULL, 0, NULL), 0u);
    cr_expect_eq(bf_scalable_contains_hashes(NULL, q, 5, got), 0u);
    /* Every inserted key found by every path. */
    cr_expect_eq(bf_scalable_contains_hashes(f, h, n, NULL), n);
    free(want);
    free(got);
    free(h);
    free(q);
    bf_scalable_free(f);
}

/* ---- seeds, clear, NULLs ------------------------------------------------- */

Test(seed, rules) {
    bf_scalable *f = make(100, 0.01, 2, 0.5, 0);
    cr_expect_eq(bf_scalable_seed(f), 0u);
    cr_expect_eq(bf_scalable_set_seed(f, 0xfeedu), BF_OK);
    cr_expect_eq(bf_scalable_seed(f), 0xfeedu);
    cr_expect_eq(bf_scalable_set_seed(f, 0xbeefu), BF_OK, "empty: may change again");
    bool a;
    cr_expect_eq(bf_scalable_insert(f, "k", 1, &a), BF_OK);
    cr_expect(a);
    cr_expect(bf_scalable_contains_hash(f, bf_hash_xxh64_seeded("k", 1, 0xbeefu)));
    cr_expect_eq(bf_scalable_set_seed(f, 1), BF_EINVAL, "not empty");
    cr_expect_eq(bf_scalable_set_seed(f, 0xbeefu), BF_OK, "same seed is fine");
    cr_expect_eq(bf_scalable_seed(f), 0xbeefu);
    /* Layers hash byte strings as the chain does, also layers added later. */
    uint64_t s = 1;
    bf_scalable_stats in;
    while (layers(f) < 3) cr_assert_eq(bf_scalable_insert_hash(f, tu_next(&s), NULL), BF_OK);
    info(f, &in);
    for (size_t i = 0; i < in.num_layers; i++) {
        bf_scalable_layer l;
        bf_scalable_get_layer(f, i, &l);
        cr_expect_eq(bf_sbbf_seed(l.sbbf), 0xbeefu, "layer %zu", i);
    }
    bf_scalable_layer l0;
    bf_scalable_get_layer(f, 0, &l0);
    cr_expect(bf_sbbf_contains(l0.sbbf, "k", 1));
    /* Clear keeps the seed and makes the filter empty again. */
    cr_expect_eq(bf_scalable_clear(f), BF_OK);
    cr_expect_eq(bf_scalable_seed(f), 0xbeefu);
    cr_expect_eq(bf_scalable_set_seed(f, 0), BF_OK);
    cr_expect_eq(bf_scalable_set_seed(NULL, 0), BF_EINVAL);
    cr_expect_eq(bf_scalable_seed(NULL), 0u);
    bf_scalable_free(f);
}

Test(clear, back_to_one_empty_layer) {
    bf_scalable *f = make(100, 0.01, 2, 0.5, 0), *fresh = make(100, 0.01, 2, 0.5, 0);
    uint64_t *h = su_hashes(21, 5000);
    cr_assert_not_null(h);
    cr_assert_eq(bf_scalable_insert_hashes(f, h, 5000, NULL, NULL), BF_OK);
    bf_scalable_stats in;
    info(f, &in);
    cr_expect(in.num_layers > 3);
    cr_expect_eq(bf_scalable_clear(f), BF_OK);
    info(f, &in);
    cr_expect_eq(in.num_layers, 1u);
    cr_expect_eq(in.count, 0u);
    cr_expect_eq(in.capacity, 100u);
    cr_expect_eq(in.fill_ratio, 0.0);
    cr_expect(su_same(f, fresh));
    /* And it grows again exactly like a fresh one. */
    cr_assert_eq(bf_scalable_insert_hashes(f, h, 5000, NULL, NULL), BF_OK);
    cr_assert_eq(bf_scalable_insert_hashes(fresh, h, 5000, NULL, NULL), BF_OK);
    cr_expect(su_same(f, fresh));
    cr_expect_eq(bf_scalable_clear(NULL), BF_EINVAL);
    free(h);
    bf_scalable_free(f);
    bf_scalable_free(fresh);
}

Test(api, null_arguments) {
    bool a;
    cr_expect_eq(bf_scalable_insert_hash(NULL, 1, &a), BF_EINVAL);
    cr_expect_eq(bf_scalable_insert(NULL, "x", 1, &a), BF_EINVAL);
    cr_expect(!bf_scalable_contains_hash(NULL, 1));
    cr_expect(!bf_scalable_contains(NULL, "x", 1));
    bf_scalable *f = make(10, 0.01, 2, 0.5, 0);
    cr_expect_eq(bf_scalable_insert(f, NULL, 1, &a), BF_EINVAL);
    cr_expect(!bf_scalable_contains(f, NULL, 1));
    cr_expect_eq(bf_scalable_insert(f, NULL, 0, &a), BF_OK, "the empty string");
    cr_expect(a);
    cr_expect(bf_scalable_contains(f, "", 0));
    bf_scalable_stats in;
    cr_expect_eq(bf_scalable_get_stats(f, NULL), BF_EINVAL);
    cr_expect_eq(bf_scalable_get_stats(NULL, &in), BF_EINVAL);
    bf_scalable_free(f);
}

Test(info, estimates_follow_the_filter) {
    bf_scalable *f = make(1000, 0.01, 2, 0.5, 0);
    uint64_t *h = su_hashes(31, 50000);
    cr_assert_not_null(h);
    cr_assert_eq(bf_scalable_insert_hashes(f, h, 50000, NULL, NULL), BF_OK);
    bf_scalable_stats in;
    info(f, &in);
    double model = su_compound_model(f);
    cr_expect(in.est_fpp > 0.7 * model && in.est_fpp < 1.3 * model, "est %g model %g", in.est_fpp,
              model);
    cr_expect(in.est_fpp <= in.bound_fpp * 1.1);
    cr_expect(in.fill_ratio > 0.1 && in.fill_ratio < 0.6, "fill %g", in.fill_ratio);
    /* bf_filter_get_stats of the chain wrapped in the generic interface. */
    bf_filter *g = NULL;
    cr_assert_eq(bf_filter_from_scalable(&g, f), BF_OK);
    cr_expect_eq(bf_filter_scalable(g), f);
    cr_expect_eq(bf_filter_family(g), BF_FAMILY_SCALABLE);
    bf_filter_stats st;
    cr_assert_eq(bf_filter_get_stats(g, &st), BF_OK);
    cr_expect_eq(st.family, BF_FAMILY_SCALABLE);
    cr_expect_eq(st.num_bytes, in.num_bytes);
    cr_expect_eq(st.inserted, 0, "added through the chain's own API: not counted");
    cr_expect_eq(st.est_keys, (double)in.count);
    cr_expect_eq(st.cells, in.num_bytes * 8);
    cr_expect_eq(st.fill_ratio, in.fill_ratio);
    cr_expect_eq(st.cells_set, (uint64_t)llround(in.fill_ratio * (double)st.cells));
    cr_expect_eq(st.est_fpp, in.est_fpp);
    cr_expect(st.k == 8u && st.fp_bits == 0);
    bf_scalable_layer l;
    bf_scalable_get_layer(f, 0, &l);
    cr_expect_str_eq(st.kernel, bf_sbbf_kernel(l.sbbf));
    free(h);
    bf_filter_free(g);
}

/* ---- kernels ------------------------------------------------------------- */

/* The same chain under every kernel this CPU runs: identical bytes and
 * answers (BLOCKFILTER_KERNEL is read at creation). */
Test(kernels, identical_bytes_and_answers) {
    const char *saved = getenv("BLOCKFILTER_KERNEL");
    char *keep = saved ? strdup(saved) : NULL;
    const size_t n = 40000;
    uint64_t *h = su_hashes(41, n), *q = su_hashes(42, n);
    uint8_t *ref_out = malloc(n), *out = malloc(n);
    cr_assert(h && q && ref_out && out);
    setenv("BLOCKFILTER_KERNEL", "scalar", 1);
    bf_scalable *ref = make(100, 0.01, 2, 0.5, 0);
    cr_assert_eq(bf_scalable_insert_hashes(ref, h, n, NULL, NULL), BF_OK);
    bf_scalable_layer l;
    bf_scalable_get_layer(ref, 0, &l);
    cr_expect_str_eq(bf_sbbf_kernel(l.sbbf), "scalar");
    size_t ref_ones = bf_scalable_contains_hashes(ref, q, n, ref_out);
    for (size_t i = 0; i < bf_sbbf_kernel_count(); i++) {
        const char *k = bf_sbbf_kernel_name(i);
        if (!bf_sbbf_kernel_supported(k)) continue;
        setenv("BLOCKFILTER_KERNEL", k, 1);
        bf_scalable *f = make(100, 0.01, 2, 0.5, 0);
        cr_assert_eq(bf_scalable_insert_hashes(f, h, n / 2, NULL, NULL), BF_OK);
        for (size_t j = n / 2; j < n; j++) cr_assert_eq(bf_scalable_insert_hash(f, h[j], NULL), BF_OK);
        bf_scalable_stats in;
        info(f, &in);
        for (size_t j = 0; j < in.num_layers; j++) {
            bf_scalable_get_layer(f, j, &l);
            cr_expect_str_eq(bf_sbbf_kernel(l.sbbf), k, "layer %zu", j);
        }
        cr_expect(su_same(ref, f), "kernel %s: bytes differ from scalar", k);
        cr_expect_eq(bf_scalable_contains_hashes(f, q, n, out), ref_ones, "kernel %s", k);
        cr_expect(memcmp(out, ref_out, n) == 0, "kernel %s: answers differ", k);
        bf_scalable_free(f);
    }
    /* An unusable forced kernel is reported, not ignored. */
    setenv("BLOCKFILTER_KERNEL", "no-such-kernel", 1);
    bf_scalable_params p = {100, 0.01, 0, 0, 0};
    bf_scalable *f = NULL;
    cr_expect_eq(bf_scalable_new(&f, &p), BF_EKERNEL);
    /* A chain keeps its kernel when it grows after the variable changed. */
    setenv("BLOCKFILTER_KERNEL", "scalar", 1);
    f = make(10, 0.01, 2, 0.5, 0);
    setenv("BLOCKFILTER_KERNEL", "no-such-kernel", 1);
    cr_expect_eq(bf_scalable_insert_hashes(f, h, 1000, NULL, NULL), BF_OK);
    bf_scalable_stats in;
    info(f, &in);
    cr_expect(in.num_layers > 3);
    bf_scalable_get_layer(f, in.num_layers - 1, &l);
    cr_expect_str_eq(bf_sbbf_kernel(l.sbbf), "scalar");
    bf_scalable_free(f);
    if (keep) {
        setenv("BLOCKFILTER_KERNEL", keep, 1);
        free(keep);
    } else {
        unsetenv("BLOCKFILTER_KERNEL");
    }
    free(h);
    free(q);
    free(ref_out);
    free(out);
    bf_scalable_free(ref);
}
