/*
 * Hash flooding. An attacker who knows the hash (XXH64, seed 0: Parquet's,
 * public) searches byte strings offline whose hashes land in a few chosen
 * SBBF blocks. Inserting some of them saturates those blocks; the others,
 * used as queries, then all come back "maybe present", whatever the sizing.
 * A keyed filter (secret random seed) scatters the same strings like any
 * other keys, and its FPR on them stays at the model. Likewise a cuckoo
 * filter fed strings crafted to share one bucket pair and fingerprint is
 * full (BF_EFULL) after a handful of keys unkeyed, and not keyed.
 */
#define _GNU_SOURCE
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "common/internal.h"
#include "robust_util.h"

#include <criterion/criterion.h>
#include <math.h>

#define KEYLEN 20

typedef struct keyset {
    uint8_t (*k)[KEYLEN];
    size_t n;
} keyset;

static void key_of(uint8_t out[KEYLEN], const char *prefix, uint64_t i) {
    memset(out, 0, KEYLEN);
    snprintf((char *)out, KEYLEN, "%s%llx", prefix, (unsigned long long)i);
}

/* Offline search: strings whose seed-0 XXH64 picks a block < target_blocks
 * of a z-block filter. */
static uint64_t craft_sbbf(keyset *ks, size_t want, uint64_t z, uint64_t target_blocks,
                           const char *prefix, uint64_t *tried) {
    ks->k = malloc(want * KEYLEN);
    cr_assert_not_null(ks->k);
    ks->n = 0;
    uint64_t i = 0;
    while (ks->n < want) {
        key_of(ks->k[ks->n], prefix, i++);
        uint64_t h = bf_hash_xxh64(ks->k[ks->n], KEYLEN);
        if (((h >> 32) * z) >> 32 < target_blocks) ks->n++;
    }
    *tried += i;
    return i;
}

typedef struct result {
    double fpr_attack, fpr_random, model;
} result;

static result run_sbbf(uint64_t seed, const keyset *ins, const keyset *qry, size_t legit,
                       uint64_t n, double fpp) {
    bf_sbbf *f = NULL;
    cr_assert_eq(bf_sbbf_new(&f, n, fpp), BF_OK);
    cr_assert_eq(bf_sbbf_set_seed(f, seed), BF_OK);
    uint8_t key[KEYLEN];
    for (size_t i = 0; i < legit; i++) {
        key_of(key, "user:", i);
        bf_sbbf_insert(f, key, KEYLEN);
    }
    for (size_t i = 0; i < ins->n; i++) bf_sbbf_insert(f, ins->k[i], KEYLEN);
    /* Never a false negative, attack or not. */
    for (size_t i = 0; i < ins->n; i++) cr_assert(bf_sbbf_contains(f, ins->k[i], KEYLEN));
    size_t hits = 0;
    for (size_t i = 0; i < qry->n; i++) hits += bf_sbbf_contains(f, qry->k[i], KEYLEN);
    size_t rhits = 0, nr = 200000;
    for (size_t i = 0; i < nr; i++) {
        key_of(key, "probe:", i);
        rhits += bf_sbbf_contains(f, key, KEYLEN);
    }
    result r = {(double)hits / (double)qry->n, (double)rhits / (double)nr,
                bf_sbbf_model_fpp(bf_sbbf_num_bytes(f), legit + ins->n)};
    bf_sbbf_free(f);
    return r;
}

Test(flood, sbbf_crafted_keys, .timeout = 120) {
    const uint64_t n = 100000;
    const double fpp = 0.01;
    size_t bytes;
    cr_assert_eq(bf_sbbf_compact_bytes(n, fpp, &bytes), BF_OK);
    const uint64_t z = bytes / 32;
    /* 2% of the keys are the attacker's: 2000 strings aimed at 8 of the
     * filter's blocks; 20000 more aimed at the same blocks are the queries. */
    const size_t n_attack = 2000, n_query = 20000, target = 8;
    keyset ins, qry;
    uint64_t tried = 0;
    craft_sbbf(&ins, n_attack, z, target, "a:", &tried);
    craft_sbbf(&qry, n_query, z, target, "q:", &tried);

    result un = run_sbbf(0, &ins, &qry, n - n_attack, n, fpp);
    fprintf(stderr,
            "flood sbbf: n=%llu fpp=%g bytes=%zu blocks=%llu; %zu inserted + %zu query strings "
            "crafted for %zu blocks (%llu hashes tried)\n",
            (unsigned long long)n, fpp, bytes, (unsigned long long)z, n_attack, n_query, target,
            (unsigned long long)tried);
    fprintf(stderr, "flood sbbf: unkeyed (seed 0): FPR on crafted queries %.4f, on random %.5f, model %.5f\n",
            un.fpr_attack, un.fpr_random, un.model);
    cr_assert_gt(un.fpr_attack, 0.9, "the attack should saturate the target blocks (FPR %g)",
                 un.fpr_attack);
    cr_assert_gt(un.fpr_attack, 50 * un.model);

    for (int t = 0; t < 3; t++) {
        uint64_t seed = 0;
        cr_assert_eq(bf_random_seed(&seed), BF_OK);
        if (seed == 0) seed = 1;
        result k = run_sbbf(seed, &ins, &qry, n - n_attack, n, fpp);
        fprintf(stderr, "flood sbbf: keyed (random seed): FPR on crafted queries %.5f, on random %.5f, model %.5f\n",
                k.fpr_attack, k.fpr_random, k.model);
        /* Within 5 binomial standard deviations plus 20% model spread. */
        double sd_a = sqrt(k.model * (1 - k.model) / (double)n_query);
        double sd_r = sqrt(k.model * (1 - k.model) / 200000.0);
        cr_assert(fabs(k.fpr_attack - k.model) <= 5 * sd_a + 0.2 * k.model,
                  "keyed FPR on crafted queries %g, model %g", k.fpr_attack, k.model);
        cr_assert(fabs(k.fpr_random - k.model) <= 5 * sd_r + 0.2 * k.model,
                  "keyed FPR on random queries %g, model %g", k.fpr_random, k.model);
    }
    free(ins.k);
    free(qry.k);
}

Test(flood, seeds_are_random) {
    uint64_t a = 0, b = 0;
    cr_assert_eq(bf_random_seed(&a), BF_OK);
    cr_assert_eq(bf_random_seed(&b), BF_OK);
    cr_assert_neq(a, b, "two OS random seeds are equal");
    cr_assert_eq(bf_random_seed(NULL), BF_EINVAL);
}

Test(flood, keyed_mode_survives_save_and_load) {
    bf_family fams[255];
    for (size_t i = 0, nf = tu_families(fams); i < nf; i++) {
        bf_filter *f = NULL;
        cr_assert_eq(bf_filter_new(&f, fams[i], 1000, 0.01), BF_OK);
        uint64_t seed;
        cr_assert_eq(bf_random_seed(&seed), BF_OK);
        seed |= 1;
        cr_assert_eq(bf_filter_set_seed(f, seed), BF_OK);
        cr_assert_eq(bf_filter_hash(f, "k", 1), bf_hash_xxh64_seeded("k", 1, seed));
        cr_assert_eq(bf_filter_insert(f, "secret", 6), BF_OK);
        /* No silent re-keying of a filter that holds keys. */
        cr_assert_neq(bf_filter_set_seed(f, seed + 2), BF_OK);
        size_t len = bf_filter_save_size(f), w;
        uint8_t *buf = malloc(len);
        cr_assert_eq(bf_filter_save(f, buf, len, &w), BF_OK);
        cr_assert_eq(buf[7] & 1, 1, "keyed flag not set in the image");
        bf_filter *g = NULL;
        cr_assert_eq(bf_filter_load(&g, buf, len), BF_OK);
        cr_assert_eq(bf_filter_seed(g), seed);
        cr_assert(bf_filter_contains(g, "secret", 6));
        bf_filter_free(g);
        free(buf);
        bf_filter_free(f);
    }
}

/* Cuckoo: the attacker keeps an unkeyed copy of the filter holding one key
 * k0 and searches strings it reports present: with seed 0 such a string has
 * k0's fingerprint and k0's two buckets (the black-box way to find them;
 * no internals are used). Nine of them cannot all fit in 2 x 4 slots. */
Test(flood, cuckoo_crafted_keys, .timeout = 120) {
    const uint64_t n = 1000;
    const double fpp = 0.01;
    const size_t want = 16;
    bf_filter *oracle = NULL;
    cr_assert_eq(bf_filter_new(&oracle, BF_FAMILY_CUCKOO, n, fpp), BF_OK);
    uint8_t k0[KEYLEN];
    key_of(k0, "k0:", 0);
    cr_assert_eq(bf_filter_insert(oracle, k0, KEYLEN), BF_OK);
    keyset ks = {malloc(want * KEYLEN), 0};
    cr_assert_not_null(ks.k);
    uint64_t i = 0;
    while (ks.n < want) {
        key_of(ks.k[ks.n], "c:", i++);
        if (bf_filter_contains(oracle, ks.k[ks.n], KEYLEN)) ks.n++;
        cr_assert_lt(i, (uint64_t)1 << 34, "search did not converge");
    }
    bf_filter_stats os;
    cr_assert_eq(bf_filter_get_stats(oracle, &os), BF_OK);
    bf_filter_free(oracle);

    for (int keyed = 0; keyed < 2; keyed++) {
        bf_filter *f = NULL;
        cr_assert_eq(bf_filter_new(&f, BF_FAMILY_CUCKOO, n, fpp), BF_OK);
        uint64_t seed = 0;
        if (keyed) {
            cr_assert_eq(bf_random_seed(&seed), BF_OK);
            seed |= 1;
            cr_assert_eq(bf_filter_set_seed(f, seed), BF_OK);
        }
        cr_assert_eq(bf_filter_insert(f, k0, KEYLEN), BF_OK);
        size_t stored = 1, first_full = 0;
        for (size_t j = 0; j < ks.n; j++) {
            int rc = bf_filter_insert(f, ks.k[j], KEYLEN);
            if (rc == BF_OK) {
                stored++;
            } else {
                cr_assert_eq(rc, BF_EFULL);
                if (!first_full) first_full = j + 2; /* counting k0 */
            }
        }
        /* Then ordinary keys up to the design capacity n. */
        size_t legit_ok = 0, legit_full = 0;
        uint8_t key[KEYLEN];
        for (uint64_t j = 0; stored + legit_ok < n && j < 2 * n; j++) {
            key_of(key, "user:", j);
            int rc = bf_filter_insert(f, key, KEYLEN);
            if (rc == BF_OK) legit_ok++;
            else legit_full++;
        }
        bf_filter_stats st;
        cr_assert_eq(bf_filter_get_stats(f, &st), BF_OK);
        fprintf(stderr,
                "flood cuckoo %s: %zu crafted keys (%llu strings tried, %llu buckets, %u-bit fp): "
                "%zu stored, first BF_EFULL at key %zu (0 = none; load then %.4f); then %zu ordinary "
                "keys stored, %zu refused\n",
                keyed ? "keyed  " : "unkeyed", ks.n + 1, (unsigned long long)i,
                (unsigned long long)(st.cells / 4), st.fp_bits, stored, first_full,
                first_full ? (double)(first_full - 1) / (double)st.cells : 0.0, legit_ok,
                legit_full);
        if (!keyed) {
            /* Two buckets of four slots: the ninth crafted key is refused. */
            cr_assert_eq(stored, 8, "unkeyed: %zu crafted keys stored", stored);
            cr_assert_eq(first_full, 9);
        } else {
            cr_assert_eq(stored, ks.n + 1, "keyed: crafted keys refused");
            cr_assert_eq(legit_full, 0, "keyed: ordinary keys refused below capacity");
        }
        bf_filter_free(f);
    }
    (void)os;
    free(ks.k);
}
