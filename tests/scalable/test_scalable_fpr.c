/*
 * The scalable SBBF's promise: grown from capacity 100 to 10^6 keys, no
 * false negative, and a measured FPR on 4 x 10^6 foreign keys within 5
 * binomial sigma of the compound model, which itself stays <= the requested
 * fpp. Prints one table row per configuration (docs/families.md quotes
 * them): layers, bits per key against a right-sized SBBF, model, the
 * filter's own estimate and the measured rate.
 *
 * The model is an expectation over random filters; the first layers have
 * a few blocks each (layer 0: 5 blocks for 100 keys) and vary a lot from
 * one set of keys to another, so a given chain sits below or above it by
 * more than the query noise. The exact FPR of the chain as it stands
 * (get_info's est_fpp, from the bits) is what the measured rate must match
 * both ways; the model is the promise it must stay under.
 */
#include "scalable_util.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

#define N 1000000u
#define FOREIGN 4000000u

typedef struct config {
    double fpp;
    unsigned expansion;
    double ratio;
    int batch; /* add and measure through the batch calls */
} config;

static void grow_and_measure(const config *c) {
    bf_scalable_params p = {100, c->fpp, c->expansion, c->ratio, 0};
    bf_scalable *f = NULL;
    cr_assert_eq(bf_scalable_new(&f, &p), BF_OK);
    /* Keys as a database column would give them: Parquet's hash of INT64
     * values 0..N-1; foreign keys are other values. */
    uint64_t *h = malloc(N * sizeof *h);
    uint8_t *out = malloc(FOREIGN);
    cr_assert(h && out);
    for (uint64_t i = 0; i < N; i++) h[i] = bf_hash_int64((int64_t)i);
    if (c->batch) {
        size_t done = 0;
        cr_assert_eq(bf_scalable_insert_hashes(f, h, N, NULL, &done), BF_OK);
        cr_assert_eq(done, N);
    } else {
        for (uint64_t i = 0; i < N; i++) cr_assert_eq(bf_scalable_insert_hash(f, h[i], NULL), BF_OK);
    }
    /* No false negative, single and batch. */
    size_t miss = 0;
    for (uint64_t i = 0; i < N; i++) miss += !bf_scalable_contains_hash(f, h[i]);
    cr_expect_eq(miss, 0u, "%zu false negatives", miss);
    cr_expect_eq(bf_scalable_contains_hashes(f, h, N, NULL), N);

    uint64_t fp = 0;
    const uint64_t base = (uint64_t)1 << 40;
    for (uint64_t off = 0; off < FOREIGN; off += N) {
        for (uint64_t i = 0; i < N; i++) h[i] = bf_hash_int64((int64_t)(base + off + i));
        if (c->batch) {
            fp += bf_scalable_contains_hashes(f, h, N, out + off);
        } else {
            for (uint64_t i = 0; i < N; i++) fp += out[off + i] = bf_scalable_contains_hash(f, h[i]);
        }
    }
    bf_scalable_stats in;
    cr_assert_eq(bf_scalable_get_stats(f, &in), BF_OK);
    const double measured = (double)fp / FOREIGN;
    const double model = su_compound_model(f);
    const double sd_model = sqrt(model * (1 - model) / FOREIGN);
    const double sd_est = sqrt(in.est_fpp * (1 - in.est_fpp) / FOREIGN);
    size_t right;
    cr_assert_eq(bf_sbbf_compact_bytes(N, c->fpp, &right), BF_OK);
    fprintf(stderr,
            "| %g %% | %u | %g | %s | %zu | %llu | %.2f | %.2f | %.3f %% | %.3f %% | %.3f %% | %+.1f |\n",
            c->fpp * 100, c->expansion, c->ratio, c->batch ? "batch" : "single", in.num_layers,
            (unsigned long long)in.count, in.num_bytes * 8.0 / N, right * 8.0 / N, model * 100,
            in.est_fpp * 100, measured * 100, (measured - in.est_fpp) / sd_est);
    /* The model is within the promise, at the keys held and at capacity. */
    cr_expect(model <= c->fpp, "compound model %g > fpp %g", model, c->fpp);
    cr_expect(in.bound_fpp <= c->fpp, "bound %g > fpp %g", in.bound_fpp, c->fpp);
    cr_expect(model <= in.bound_fpp);
    /* Measured: within 5 sigma above the model, and within 5 sigma of the
     * filter's own exact estimate either way. */
    cr_expect(measured <= model + 5 * sd_model, "measured %g > model %g + 5 sd", measured, model);
    cr_expect(fabs(measured - in.est_fpp) <= 5 * sd_est + 1e-9, "measured %g vs estimate %g",
              measured, in.est_fpp);
    /* Dedupe: keys the chain already answered "maybe" for were not
     * added; they are about the model's share of the keys. */
    cr_expect(in.count <= N && in.count >= N - (uint64_t)(3 * c->fpp * N) - 100,
              "count %llu", (unsigned long long)in.count);
    free(h);
    free(out);
    bf_scalable_free(f);
}

Test(fpr, grown_from_100_to_1e6_at_1_percent) {
    fprintf(stderr, "| fpp | expansion | ratio | calls | layers | added | bits/key | right-sized SBBF bits/key | compound model | estimate | measured | z vs estimate |\n");
    config c = {0.01, 2, 0.5, 0};
    grow_and_measure(&c);
}

Test(fpr, grown_from_100_to_1e6_at_0_1_percent) {
    config c = {0.001, 2, 0.5, 1};
    grow_and_measure(&c);
}

Test(fpr, other_shapes) {
    const config cs[] = {
        {0.01, 2, 0.9, 1},
        {0.01, 4, 0.5, 1},
        {0.001, 2, 0.9, 0},
        {0.1, 2, 0.95, 1},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) grow_and_measure(&cs[i]);
}
