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

static double cuckoo_model(unsigned f, double load) { return bf_cuckoo_model_fpp(4, f, load); }

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
    cr_assert_eq(bf_cuckoo_new_buckets(&c, 10, 3), BF_EINVAL);
    cr_assert_eq(bf_cuckoo_new_buckets(&c, 10, 33), BF_EINVAL);
    cr_assert_eq(bf_cuckoo_new(&c, 10, 0.0), BF_EINVAL);
}

Test(cuckoo, sizing_holds_n_keys) {
    /* bf_cuckoo_new_shape(n, fpp, b, 0) must take n keys: every n up to
     * 600, and a few larger ones, for each fast bucket size and the free
     * choice. */
    const double fpps[3] = {0.05, 0.003, 0.0001};
    const unsigned sizes[5] = {0, 1, 2, 4, 8};
    uint64_t s = 12;
    for (unsigned bi = 0; bi < 5; bi++)
        for (unsigned t = 0; t < 3; t++)
            for (uint64_t n = 1; n <= 3000; n += n < 600 ? 1 : 97) {
                bf_cuckoo *c;
                cr_assert_eq(bf_cuckoo_new_shape(&c, n, fpps[t], sizes[bi], 0), BF_OK);
                cr_assert_eq(bf_cuckoo_num_buckets(c) % 2, 0);
                unsigned b = bf_cuckoo_bucket_size(c);
                if (sizes[bi]) cr_assert_eq(b, sizes[bi]);
                double load = (double)n / ((double)b * (double)bf_cuckoo_num_buckets(c));
                cr_assert_leq(bf_cuckoo_model_fpp(b, bf_cuckoo_fingerprint_bits(c), load), fpps[t]);
                for (uint64_t i = 0; i < n; i++)
                    cr_assert_eq(bf_cuckoo_insert_hash(c, tu_next(&s)), BF_OK, "n=%lu fpp=%g b=%u",
                                 (unsigned long)n, fpps[t], b);
                bf_cuckoo_free(c);
            }
}

/* The free choice is the cheapest of every fixed shape it considers, and
 * never costlier than the 4-slot, 8/12/16-bit choice of format version 1. */
Test(cuckoo, sizing_picks_the_cheapest_shape) {
    const double fpps[6] = {0.1, 0.03, 0.01, 0.001, 0.0001, 1e-7};
    const unsigned sizes[4] = {1, 2, 4, 8};
    for (unsigned t = 0; t < 6; t++) {
        bf_cuckoo_sizing best, z;
        cr_assert_eq(bf_cuckoo_size_for(1000000, fpps[t], 0, 0, 0, &best), BF_OK);
        cr_assert_leq(best.model_fpp, fpps[t]);
        for (unsigned j = 0; j < 4; j++)
            for (unsigned f = 4; f <= 32; f++) {
                cr_assert_eq(bf_cuckoo_size_for(1000000, fpps[t], sizes[j], f, 0, &z), BF_OK);
                cr_assert_leq(z.model_fpp, fpps[t]);
                cr_assert_geq(z.num_bytes, best.num_bytes, "fpp %g: b=%u f=%u beats b=%u f=%u",
                              fpps[t], sizes[j], f, best.bucket_size, best.fp_bits);
            }
        double v1 = INFINITY;
        for (unsigned f = 8; f <= 16; f += 4) {
            cr_assert_eq(bf_cuckoo_size_for(1000000, fpps[t], 4, f, 0, &z), BF_OK);
            if ((double)z.num_bytes < v1) v1 = (double)z.num_bytes;
        }
        cr_log_info("fpp %g: b=%u f=%u, %.2f bits/key at load %.3f (4 slots, 8/12/16 bits: %.2f)",
                    fpps[t], best.bucket_size, best.fp_bits, best.bits_per_key, best.load,
                    8 * v1 / 1e6);
        cr_assert_leq((double)best.num_bytes, v1);
        /* The generic sizing reports the same. */
        bf_sizing g;
        cr_assert_eq(bf_size_for(BF_FAMILY_CUCKOO, 1000000, fpps[t], &g), BF_OK);
        cr_assert_eq(g.num_bytes, best.num_bytes);
        cr_assert_eq(g.bucket_size, best.bucket_size);
        cr_assert_eq(g.fp_bits, best.fp_bits);
    }
    /* Semi-sorted sizing: b = 4, f - 1 bits a slot. */
    bf_cuckoo_sizing z;
    cr_assert_eq(bf_cuckoo_size_for(1000000, 0.01, 0, 0, BF_CUCKOO_SEMISORTED, &z), BF_OK);
    cr_assert_eq(z.bucket_size, 4);
    cr_assert_eq(z.flags, BF_CUCKOO_SEMISORTED);
    cr_assert_eq(z.num_bytes, (z.num_buckets * 4 * (z.fp_bits - 1) + 7) / 8);
    cr_assert_eq(bf_cuckoo_size_for(1000000, 0.01, 2, 0, BF_CUCKOO_SEMISORTED, &z), BF_EINVAL);
    cr_assert_eq(bf_cuckoo_size_for(1000000, 0.01, 4, 20, BF_CUCKOO_SEMISORTED, &z), BF_EINVAL);
}

/* The load at which inserts first fail, against bf_cuckoo_model_load, for
 * the fast bucket sizes: tables of 2^17 slots, 16-bit fingerprints. */
Test(cuckoo, load_at_failure_matches_model) {
    const unsigned sizes[4] = {1, 2, 4, 8};
    for (unsigned j = 0; j < 4; j++) {
        const uint64_t nb = ((uint64_t)1 << 17) / sizes[j];
        bf_cuckoo *c;
        cr_assert_eq(bf_cuckoo_new_table(&c, nb, sizes[j], 16, 0), BF_OK);
        size_t cap = (size_t)(nb * sizes[j] + 2);
        uint64_t *keys = malloc(cap * sizeof *keys);
        size_t n = fill_to_failure(c, keys, cap, 300 + j);
        double load = (double)n / (double)(nb * sizes[j]), model = bf_cuckoo_model_load(sizes[j]);
        cr_log_info("b=%u: load at failure %.4f, model %.4f", sizes[j], load, model);
        cr_assert(fabs(load - model) <= 0.02, "b=%u: load %.4f, model %.4f", sizes[j], load, model);
        free(keys);
        bf_cuckoo_free(c);
    }
}

/* Semi-sorted buckets: every code decodes to sorted nibbles that encode back
 * to it, and any four fingerprints survive an encode and decode (as a
 * multiset). */
Test(cuckoo, semisorted_codes_round_trip) {
    bf_cuckoo *c;
    cr_assert_eq(bf_cuckoo_new_table(&c, 2, 4, 9, BF_CUCKOO_SEMISORTED), BF_OK);
    for (unsigned code = 0; code < BF_CUCKOO_SS_CODES; code++) {
        uint32_t fp[4];
        bf__cuckoo_ss_decode(code, 9, fp);
        for (unsigned j = 1; j < 4; j++) cr_assert_leq(fp[j - 1] & 15, fp[j] & 15);
        cr_assert_eq(bf__cuckoo_ss_encode(fp, 9), code, "code %u", code);
    }
    uint64_t s = 9;
    for (unsigned t = 0; t < 100000; t++) {
        unsigned f = 5 + (unsigned)(t % 13);
        uint32_t fp[4], back[4];
        for (unsigned j = 0; j < 4; j++) fp[j] = (uint32_t)(tu_next(&s) & ((1u << f) - 1));
        uint32_t copy[4] = {fp[0], fp[1], fp[2], fp[3]};
        uint64_t v = bf__cuckoo_ss_encode(copy, f);
        cr_assert(bf__cuckoo_ss_valid(v));
        cr_assert_lt(v >> 1 >> (4 * (f - 1) - 1), 1, "f=%u: value wider than 4(f - 1) bits", f);
        bf__cuckoo_ss_decode(v, f, back);
        for (unsigned j = 0; j < 4; j++) {
            cr_assert(bf__cuckoo_ss_has(v, f, fp[j]) || fp[j] == 0 || (fp[j] >> 4) >> (f - 4));
            unsigned a = 0, b = 0;
            for (unsigned k = 0; k < 4; k++) a += fp[k] == fp[j], b += back[k] == fp[j];
            cr_assert_eq(a, b, "f=%u: fingerprint %u x%u in, x%u out", f, fp[j], a, b);
        }
    }
    bf_cuckoo_free(c);
}

/* The rollback policy: after the first failed insert the table is byte for
 * byte as before (count and victim too), every stored key answers present,
 * and other keys still go in, up to a higher load than the victim policy's
 * first failure; removes work as ever. */
Test(cuckoo, rollback_undoes_failed_inserts) {
    const unsigned sizes[4] = {1, 2, 4, 8};
    for (unsigned j = 0; j < 4; j++) {
        const unsigned b = sizes[j];
        const uint64_t nb = 8192 / b;
        bf_cuckoo *c, *v;
        cr_assert_eq(bf_cuckoo_new_table(&c, nb, b, 12, 0), BF_OK);
        cr_assert_eq(bf_cuckoo_new_table(&v, nb, b, 12, 0), BF_OK);
        cr_assert_eq(bf_cuckoo_full_policy(c), BF_CUCKOO_FULL_VICTIM);
        cr_assert_eq(bf_cuckoo_set_full_policy(c, BF_CUCKOO_FULL_ROLLBACK), BF_OK);
        cr_assert_eq(bf_cuckoo_full_policy(c), BF_CUCKOO_FULL_ROLLBACK);
        cr_assert_eq(bf_cuckoo_set_max_kicks(c, 20), BF_OK);
        cr_assert_eq(bf_cuckoo_set_max_kicks(v, 20), BF_OK);
        size_t cap = (size_t)(nb * b);
        uint64_t *keys = malloc(cap * sizeof *keys);
        uint8_t *before = malloc((size_t)bf_cuckoo_table_bytes(c));
        size_t nv = fill_to_failure(v, keys, cap, 50 + j);
        /* Insert keys one by one; on a refusal compare with the copy. */
        uint64_t s = 50 + j; /* the same keys as the victim filter's */
        size_t n = 0, refused = 0, first_fail = 0;
        for (unsigned t = 0; t < 2 * cap && n < cap; t++) {
            uint64_t h = tu_next(&s);
            bf_cuckoo_state st0, st1;
            bf_cuckoo_get_state(c, &st0);
            memcpy(before, bf_cuckoo_table(c), (size_t)bf_cuckoo_table_bytes(c));
            int rc = bf_cuckoo_insert_hash(c, h);
            if (rc == BF_OK) {
                keys[n++] = h;
                continue;
            }
            cr_assert_eq(rc, BF_EFULL);
            if (!refused++) first_fail = n;
            bf_cuckoo_get_state(c, &st1);
            cr_assert_eq(memcmp(before, bf_cuckoo_table(c), (size_t)bf_cuckoo_table_bytes(c)), 0,
                         "b=%u: a refused insert changed the table", b);
            cr_assert_eq(st1.count, st0.count);
            cr_assert_eq(st1.rng, st0.rng, "b=%u: the kick-out generator is rewound", b);
            cr_assert_eq(st1.victim_fp, 0);
            if (refused > 200) break;
        }
        double lv = (double)nv / (double)cap, lr = (double)n / (double)cap;
        cr_log_info("b=%u, 20 kicks: victim policy full at load %.4f; rollback first refused at "
                    "%.4f, %zu refusals, load %.4f", b, lv, (double)first_fail / (double)cap, refused, lr);
        cr_assert_gt(refused, 0, "b=%u: never refused", b);
        cr_assert_gt(n, first_fail, "b=%u: closed at the first refusal", b);
        cr_assert_eq(bf_cuckoo_count(c), n);
        for (size_t i = 0; i < n; i++) cr_assert(bf_cuckoo_contains_hash(c, keys[i]), "b=%u: lost key %zu", b, i);
        for (size_t i = 0; i < n; i++) cr_assert_eq(bf_cuckoo_remove_hash(c, keys[i]), BF_OK);
        cr_assert_eq(bf_cuckoo_count(c), 0);
        free(before);
        free(keys);
        bf_cuckoo_free(c);
        bf_cuckoo_free(v);
    }
}

/* A key added many times fills its two buckets, not the filter: with the
 * rollback policy the filter refuses that key and takes every other one,
 * where the victim policy may close for good at a low load. */
Test(cuckoo, rollback_many_duplicates_stays_open) {
    bf_cuckoo *c;
    cr_assert_eq(bf_cuckoo_new_table(&c, 1 << 14, 2, 12, 0), BF_OK);
    cr_assert_eq(bf_cuckoo_set_full_policy(c, BF_CUCKOO_FULL_ROLLBACK), BF_OK);
    cr_assert_eq(bf_cuckoo_set_max_kicks(c, 20), BF_OK);
    uint64_t s = 77;
    uint64_t hot[64];
    for (int i = 0; i < 64; i++) hot[i] = tu_next(&s);
    for (int r = 0; r < 10; r++)
        for (int i = 0; i < 64; i++) (void)bf_cuckoo_insert_hash(c, hot[i]);
    for (int i = 0; i < 64; i++) cr_assert(bf_cuckoo_contains_hash(c, hot[i]));
    /* 30% load more of distinct keys: all taken. */
    for (int i = 0; i < 10000; i++) cr_assert_eq(bf_cuckoo_insert_hash(c, tu_next(&s)), BF_OK, "key %d", i);
    bf_cuckoo_free(c);
}

/* The policy's arguments, and a kick limit raised after the policy (the
 * kick path grows with it: a filter at high load exercises long paths). */
Test(cuckoo, rollback_policy_arguments) {
    bf_cuckoo *c;
    cr_assert_eq(bf_cuckoo_new_table(&c, 1000, 4, 16, 0), BF_OK);
    cr_assert_eq(bf_cuckoo_set_full_policy(c, 2), BF_EINVAL);
    cr_assert_eq(bf_cuckoo_set_full_policy(NULL, BF_CUCKOO_FULL_ROLLBACK), BF_EINVAL);
    cr_assert_eq(bf_cuckoo_set_max_kicks(c, 10), BF_OK);
    cr_assert_eq(bf_cuckoo_set_full_policy(c, BF_CUCKOO_FULL_ROLLBACK), BF_OK);
    cr_assert_eq(bf_cuckoo_set_max_kicks(c, 2000), BF_OK);
    uint64_t s = 5, stored = 0;
    for (int i = 0; i < 4000; i++) stored += bf_cuckoo_insert_hash(c, tu_next(&s)) == BF_OK;
    cr_assert_eq(bf_cuckoo_count(c), stored);
    cr_assert_geq((double)stored / 4000.0, 0.95, "2000 kicks filled %.3f", (double)stored / 4000.0);
    /* Back to the victim policy: the next failure parks a victim. */
    cr_assert_eq(bf_cuckoo_set_full_policy(c, BF_CUCKOO_FULL_VICTIM), BF_OK);
    bf_cuckoo_free(c);
}

/* Sizing for a kick limit: fewer kicks, a lower load, more buckets; 500 is
 * the default sizing; a table sized for n at 20 kicks takes n keys. */
Test(cuckoo, sizing_for_a_kick_limit) {
    const unsigned sizes[4] = {1, 2, 4, 8};
    for (unsigned j = 0; j < 4; j++) {
        unsigned b = sizes[j];
        cr_assert_eq(bf_cuckoo_model_load_kicks(b, 500), bf_cuckoo_model_load(b));
        cr_assert_lt(bf_cuckoo_model_load_kicks(b, 20), bf_cuckoo_model_load(b));
        cr_assert_leq(bf_cuckoo_model_load_kicks(b, 20), bf_cuckoo_model_load_kicks(b, 100));
        bf_cuckoo_sizing z500, z20, zd;
        cr_assert_eq(bf_cuckoo_size_for(200000, 0.01, b, 0, 0, &zd), BF_OK);
        cr_assert_eq(bf_cuckoo_size_for_kicks(200000, 0.01, b, 0, 0, 500, &z500), BF_OK);
        cr_assert_eq(bf_cuckoo_size_for_kicks(200000, 0.01, b, 0, 0, 20, &z20), BF_OK);
        cr_assert_eq(z500.num_buckets, zd.num_buckets);
        cr_assert_geq(z20.num_buckets, z500.num_buckets);
        for (unsigned rep = 0; rep < 2; rep++) {
            bf_cuckoo *c;
            cr_assert_eq(bf_cuckoo_new_table(&c, z20.num_buckets, b, z20.fp_bits, 0), BF_OK);
            cr_assert_eq(bf_cuckoo_set_max_kicks(c, 20), BF_OK);
            uint64_t s = 900 + 10 * j + rep;
            for (unsigned i = 0; i < 200000; i++)
                cr_assert_eq(bf_cuckoo_insert_hash(c, tu_next(&s)), BF_OK, "b=%u: key %u of 200000 at 20 kicks", b, i);
            bf_cuckoo_free(c);
        }
    }
    cr_assert(isnan(bf_cuckoo_model_load_kicks(2, 0)));
    cr_assert(isnan(bf_cuckoo_model_load_kicks(0, 20)));
    bf_cuckoo_sizing z;
    cr_assert_eq(bf_cuckoo_size_for_kicks(1000, 0.01, 2, 0, 0, 0, &z), BF_EINVAL);
    cr_assert_eq(bf_cuckoo_size_for_kicks(1000, 0.01, 2, 0, 0, 65536, &z), BF_EINVAL);
}
