/* Cuckoo filter: fill to failure (load reached, nothing lost), FPR against
 * 1 - (1 - 1/(2^f - 1))^{8a} (~ 2 b a / 2^f), duplicates, removes of absent
 * keys, remove/re-insert cycles, the victim slot, any table size, sizing. */
#include <criterion/criterion.h>

#include "families/baselines.h"
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "baselines_util.h"

/* Fill with random keys until insert fails; returns keys stored. */
static size_t fill_to_failure(bf_cuckoo *c, uint64_t *keys, size_t cap, uint64_t seed) {
    size_t n = 0;
    while (n < cap) {
        uint64_t h = tu_next(&seed);
        int rc = bf_cuckoo_insert_hash(c, h);
        if (rc == BF_EFULL) break;
        cr_assert_eq(rc, BF_OK);
        keys[n++] = h;
    }
    return n;
}

Test(cuckoo, fill_to_failure_keeps_every_key) {
    const unsigned bits[3] = {8, 12, 16};
    const uint64_t buckets[3] = {1 << 14, 20011, 1 << 15};
    for (unsigned t = 0; t < 3; t++) {
        bf_cuckoo *c;
        cr_assert_eq(bf_cuckoo_new_buckets(&c, buckets[t], bits[t]), BF_OK);
        size_t cap = (size_t)(4 * buckets[t] + 2);
        uint64_t *keys = malloc(cap * sizeof *keys);
        size_t n = fill_to_failure(c, keys, cap, 100 + t);
        double load = (double)n / (4.0 * (double)buckets[t]);
        cr_log_info("cuckoo f=%u N=%lu: load reached %.4f", bits[t], (unsigned long)buckets[t], load);
        cr_assert_lt(n, cap, "never filled");
        cr_assert_eq(bf_cuckoo_count(c), n);
        for (size_t i = 0; i < n; i++) cr_assert(bf_cuckoo_contains_hash(c, keys[i]), "lost key %zu", i);
        if (bits[t] == 12) cr_assert_geq(load, 0.94, "load %.4f", load);
        else cr_assert_geq(load, 0.93, "load %.4f", load);
        /* Full: more inserts fail and change nothing. */
        uint64_t s = 5;
        for (int i = 0; i < 100; i++) cr_assert_eq(bf_cuckoo_insert_hash(c, tu_next(&s)), BF_EFULL);
        cr_assert_eq(bf_cuckoo_count(c), n);
        for (size_t i = 0; i < n; i++) cr_assert(bf_cuckoo_contains_hash(c, keys[i]));
        /* One remove makes room again (the victim finds a home). */
        cr_assert_eq(bf_cuckoo_remove_hash(c, keys[0]), BF_OK);
        for (size_t i = 1; i < n; i++) cr_assert(bf_cuckoo_contains_hash(c, keys[i]));
        cr_assert_eq(bf_cuckoo_count(c), n - 1);
        free(keys);
        bf_cuckoo_free(c);
    }
}

static double cuckoo_model(unsigned f, double load) { return bf__cuckoo_model_fpp(f, load); }

Test(cuckoo, fpr_matches_model) {
    const unsigned bits[3] = {8, 12, 16};
    const size_t queries[3] = {1000000, 2000000, 3000000};
    for (unsigned t = 0; t < 3; t++) {
        const uint64_t nb = 25000;
        bf_cuckoo *c;
        cr_assert_eq(bf_cuckoo_new_buckets(&c, nb, bits[t]), BF_OK);
        size_t n = (size_t)(0.93 * 4 * nb);
        uint64_t s = 40 + t;
        for (size_t i = 0; i < n; i++) cr_assert_eq(bf_cuckoo_insert_hash(c, tu_next(&s)), BF_OK);
        s = 40 + t;
        for (size_t i = 0; i < n; i++) cr_assert(bf_cuckoo_contains_hash(c, tu_next(&s)));
        uint64_t s2 = 9000 + t;
        size_t fp = 0;
        for (size_t i = 0; i < queries[t]; i++) fp += bf_cuckoo_contains_hash(c, tu_next(&s2));
        double load = (double)n / (4.0 * nb);
        double measured = (double)fp / queries[t], model = cuckoo_model(bits[t], load);
        double now = bf__cuckoo_est_fpp(c);
        cr_log_info("cuckoo f=%u load %.3f: FPR %.3g model %.3g (2ba/2^f %.3g, table now %.3g)", bits[t],
                    load, measured, model, 8 * load / (1 << bits[t]), now);
        cr_assert(tb_within(measured, model, (double)queries[t], 0.03), "f=%u measured %g model %g",
                  bits[t], measured, model);
        cr_assert(tb_within(measured, now, (double)queries[t], 0.03));
        bf_cuckoo_free(c);
    }
}

Test(cuckoo, same_key_more_than_2b_times) {
    bf_cuckoo *c;
    cr_assert_eq(bf_cuckoo_new_buckets(&c, 1000, 12), BF_OK);
    uint64_t key = 0x1234567890abcdefULL;
    for (int i = 0; i < 8; i++) cr_assert_eq(bf_cuckoo_insert_hash(c, key), BF_OK);
    /* 9th copy: both buckets hold nothing but this fingerprint. */
    cr_assert_eq(bf_cuckoo_insert_hash(c, key), BF_EFULL);
    cr_assert_eq(bf_cuckoo_insert_hash(c, key), BF_EFULL);
    cr_assert_eq(bf_cuckoo_count(c), 8);
    /* The filter is still usable for other keys. */
    uint64_t s = 3;
    uint64_t others[1000];
    for (int i = 0; i < 1000; i++) {
        others[i] = tu_next(&s);
        cr_assert_eq(bf_cuckoo_insert_hash(c, others[i]), BF_OK);
    }
    /* Eight removes undo eight inserts; the ninth finds nothing. */
    for (int i = 0; i < 8; i++) cr_assert_eq(bf_cuckoo_remove_hash(c, key), BF_OK);
    cr_assert_eq(bf_cuckoo_remove_hash(c, key), BF_ENOTFOUND);
    for (int i = 0; i < 1000; i++) cr_assert(bf_cuckoo_contains_hash(c, others[i]));
    cr_assert_eq(bf_cuckoo_count(c), 1000);
    bf_cuckoo_free(c);
}

Test(cuckoo, remove_never_inserted) {
    bf_cuckoo *c;
    cr_assert_eq(bf_cuckoo_new_buckets(&c, 500, 8), BF_OK);
    uint64_t keys[1500];
    uint64_t s = 17;
    for (int i = 0; i < 1500; i++) {
        keys[i] = tu_next(&s);
        cr_assert_eq(bf_cuckoo_insert_hash(c, keys[i]), BF_OK);
    }
    uint8_t before[500 * 4];
    memcpy(before, c->data, sizeof before);
    int absent = 0, false_pos = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t h = tu_next(&s);
        if (bf_cuckoo_contains_hash(c, h)) {
            if (!false_pos++) {
                /* The documented hazard: a false positive's remove takes a
                 * matching fingerprint that belongs to another key. */
                cr_assert_eq(bf_cuckoo_remove_hash(c, h), BF_OK);
                cr_assert_eq(bf_cuckoo_count(c), 1499);
                int lost = 0;
                for (int j = 0; j < 1500; j++) lost += !bf_cuckoo_contains_hash(c, keys[j]);
                cr_assert_leq(lost, 1);
                /* Put the table back for the rest of the test. */
                cr_assert_eq(bf_cuckoo_insert_hash(c, h), BF_OK);
                memcpy(before, c->data, sizeof before);
            }
            continue;
        }
        absent++;
        cr_assert_eq(bf_cuckoo_remove_hash(c, h), BF_ENOTFOUND);
    }
    cr_assert_gt(absent, 15000);
    cr_assert_gt(false_pos, 0);
    cr_assert_eq(memcmp(before, c->data, sizeof before), 0);
    cr_assert_eq(bf_cuckoo_count(c), 1500);
    bf_cuckoo_free(c);
}

Test(cuckoo, remove_reinsert_cycles) {
    const uint64_t nb = 3001; /* odd: 1/N of keys have a single bucket */
    bf_cuckoo *c;
    cr_assert_eq(bf_cuckoo_new_buckets(&c, nb, 12), BF_OK);
    size_t n = (size_t)(0.90 * 4 * nb);
    uint64_t *k = tb_keys(n, 61);
    for (size_t i = 0; i < n; i++) cr_assert_eq(bf_cuckoo_insert_hash(c, k[i]), BF_OK);
    uint64_t s = 1;
    for (int round = 0; round < 20; round++) {
        uint8_t *gone = calloc(n, 1);
        for (size_t i = 0; i < n; i++)
            if (tu_next(&s) & 1) {
                cr_assert_eq(bf_cuckoo_remove_hash(c, k[i]), BF_OK);
                gone[i] = 1;
            }
        for (size_t i = 0; i < n; i++)
            if (!gone[i]) cr_assert(bf_cuckoo_contains_hash(c, k[i]), "round %d lost %zu", round, i);
        /* New keys replace the removed ones. */
        for (size_t i = 0; i < n; i++)
            if (gone[i]) {
                k[i] = tu_next(&s);
                cr_assert_eq(bf_cuckoo_insert_hash(c, k[i]), BF_OK);
            }
        for (size_t i = 0; i < n; i++) cr_assert(bf_cuckoo_contains_hash(c, k[i]));
        cr_assert_eq(bf_cuckoo_count(c), n);
        free(gone);
    }
    free(k);
    bf_cuckoo_free(c);
}

Test(cuckoo, victim_slot_round_trip) {
    /* A small table filled to failure has its victim in use; removing keys
     * one by one always re-homes it and never loses anything. */
    bf_cuckoo *c;
    cr_assert_eq(bf_cuckoo_new_buckets(&c, 64, 16), BF_OK);
    uint64_t keys[300];
    size_t n = fill_to_failure(c, keys, 300, 8);
    cr_assert_neq(c->victim_fp, 0);
    for (size_t r = 0; r < n; r++) {
        cr_assert_eq(bf_cuckoo_remove_hash(c, keys[r]), BF_OK);
        for (size_t i = r + 1; i < n; i++) cr_assert(bf_cuckoo_contains_hash(c, keys[i]));
        cr_assert_eq(bf_cuckoo_count(c), n - r - 1);
    }
    cr_assert_eq(c->victim_fp, 0);
    cr_assert_eq(bf__cuckoo_occupied(c), 0);
    bf_cuckoo_free(c);
}

Test(cuckoo, any_table_size) {
    for (uint64_t nb = 1; nb <= 40; nb++) {
        const unsigned bits = 8 + 4 * (unsigned)(nb % 3);
        bf_cuckoo *c;
        cr_assert_eq(bf_cuckoo_new_buckets(&c, nb, bits), BF_OK);
        uint64_t keys[4 * 40 + 2];
        size_t n = fill_to_failure(c, keys, sizeof keys / sizeof keys[0], nb);
        cr_assert_gt(n, 0);
        for (size_t i = 0; i < n; i++) cr_assert(bf_cuckoo_contains_hash(c, keys[i]));
        bf_cuckoo_free(c);
    }
    bf_cuckoo *c;
    cr_assert_eq(bf_cuckoo_new_buckets(&c, 0, 12), BF_EINVAL);
    cr_assert_eq(bf_cuckoo_new_buckets(&c, 10, 10), BF_EINVAL);
    cr_assert_eq(bf_cuckoo_new_buckets(&c, 10, 32), BF_EINVAL);
    cr_assert_eq(bf_cuckoo_new(&c, 10, 0.0), BF_EINVAL);
}

Test(cuckoo, sizing_holds_n_keys) {
    /* bf_cuckoo_new(n, fpp) must take n keys: every n up to 600, and a few
     * larger ones, with several key sets each. */
    const double fpps[3] = {0.05, 0.003, 0.0001};
    uint64_t s = 12;
    for (unsigned t = 0; t < 3; t++)
        for (uint64_t n = 1; n <= 3000; n += n < 600 ? 1 : 97) {
            bf_cuckoo *c;
            cr_assert_eq(bf_cuckoo_new(&c, n, fpps[t]), BF_OK);
            cr_assert_eq(bf_cuckoo_num_buckets(c) % 2, 0);
            double load = (double)n / (4.0 * (double)bf_cuckoo_num_buckets(c));
            cr_assert_leq(cuckoo_model(bf_cuckoo_fingerprint_bits(c), load), fpps[t]);
            for (uint64_t i = 0; i < n; i++)
                cr_assert_eq(bf_cuckoo_insert_hash(c, tu_next(&s)), BF_OK, "n=%lu fpp=%g",
                             (unsigned long)n, fpps[t]);
            bf_cuckoo_free(c);
        }
    /* Large n: the design load 0.94 and the expected fingerprint sizes. */
    bf_sizing z;
    cr_assert_eq(bf_size_for(BF_FAMILY_CUCKOO, 1000000, 0.01, &z), BF_OK);
    cr_assert_eq(z.fp_bits, 12);
    cr_assert_float_eq(z.bits_per_key, 12 / 0.94, 0.01);
    cr_assert_eq(bf_size_for(BF_FAMILY_CUCKOO, 1000000, 0.001, &z), BF_OK);
    cr_assert_eq(z.fp_bits, 16);
    cr_assert_eq(bf_size_for(BF_FAMILY_CUCKOO, 1000000, 0.05, &z), BF_OK);
    cr_assert_eq(z.fp_bits, 8);
    /* Below what 16 bits give at 94% load, the table runs emptier. */
    cr_assert_eq(bf_size_for(BF_FAMILY_CUCKOO, 1000000, 0.00001, &z), BF_OK);
    cr_assert_eq(z.fp_bits, 16);
    cr_assert_leq(z.model_fpp, 0.00001);
    cr_assert_gt(z.bits_per_key, 16 / 0.94 * 1.5);
}
