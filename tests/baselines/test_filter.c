/* The generic interface over every family of the registry (lib/families/family.c):
 * creation, sizing, queries, batches, statistics, merge, seeds, views, and
 * the native format (round trips, every truncation, bit flips, crafted
 * inconsistent headers). A family added to the registry is tested here with
 * no edit; what a family can do (remove, merge) comes from its ops table. */
#include <criterion/criterion.h>

#include "families/baselines.h"
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "families/family.h"
#include "format/format.h"
#include "baselines_util.h"

/* The registry's families, in registry order (filled by the first call;
 * criterion runs each test in its own process). */
static bf_family families[255];
static unsigned nfam(void) {
    static unsigned n;
    if (!n) n = (unsigned)tu_families(families);
    cr_assert_geq(n, 5, "sbbf, bloom, counting, cuckoo, scalable at least");
    return n;
}
static const bf_family_ops *ops(bf_family fam) {
    const bf_family_ops *o = bf__family_ops(fam);
    cr_assert_not_null(o);
    return o;
}
static bool can_remove(bf_family fam) { return ops(fam)->remove != NULL; }
static bool can_merge(bf_family fam) { return ops(fam)->merge != NULL; }

static bf_filter *filled(bf_family fam, uint64_t n, double fpp, uint64_t seed) {
    bf_filter *f;
    cr_assert_eq(bf_filter_new(&f, fam, n, fpp), BF_OK);
    for (uint64_t i = 0; i < n; i++) cr_assert_eq(bf_filter_insert_hash(f, tu_next(&seed)), BF_OK);
    return f;
}

static uint8_t *saved(const bf_filter *f, size_t *len) {
    uint8_t *buf = tb_saved(f, len);
    cr_assert_not_null(buf, "save");
    return buf;
}

Test(filter, names) {
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        bf_family out;
        const char *name = bf_family_name(families[i]);
        cr_assert_not_null(name);
        cr_assert_eq(bf_family_from_name(name, &out), BF_OK);
        cr_assert_eq(out, families[i]);
    }
    bf_family out;
    cr_assert_eq(bf_family_from_name("CUCKOO", &out), BF_OK);
    cr_assert_eq(bf_family_from_name("xor", &out), BF_EFAMILY);
    cr_assert_eq(bf_family_from_name(NULL, &out), BF_EINVAL);
    cr_assert_null(bf_family_name((bf_family)200));
    cr_assert_null(bf_family_name((bf_family)0));
    bf_filter *f;
    cr_assert_eq(bf_filter_new(&f, (bf_family)200, 10, 0.01), BF_EFAMILY);
    cr_assert_eq(bf_filter_new(&f, BF_FAMILY_BLOOM, 10, 1.5), BF_EINVAL);
}

Test(filter, every_family_no_false_negatives_and_model_fpr) {
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        const uint64_t n = 100000;
        const size_t q = 500000;
        bf_filter *f = filled(families[i], n, 0.01, 1);
        uint64_t s = 1;
        for (uint64_t j = 0; j < n; j++) cr_assert(bf_filter_contains_hash(f, tu_next(&s)));
        /* Batches agree with single calls. */
        uint64_t *h = tb_keys(q, 999);
        uint8_t *out = malloc(q);
        size_t fp = bf_filter_contains_hashes(f, h, q, out);
        size_t single = 0;
        for (size_t j = 0; j < q; j++) {
            cr_assert_eq(out[j], bf_filter_contains_hash(f, h[j]));
            single += out[j];
        }
        cr_assert_eq(fp, single);
        cr_assert_eq(bf_filter_contains_hashes(f, h, q, NULL), fp);
        bf_sizing z;
        cr_assert_eq(bf_size_for(families[i], n, 0.01, &z), BF_OK);
        cr_assert_eq(z.num_bytes, bf_filter_num_bytes(f));
        cr_assert_leq(z.model_fpp, 0.01);
        double measured = (double)fp / q;
        cr_log_info("%s n=%lu: FPR %.5f model %.5f, %.2f bits/key", bf_family_name(families[i]),
                    (unsigned long)n, measured, z.model_fpp, z.bits_per_key);
        cr_assert(tb_within(measured, z.model_fpp, (double)q, 0.05), "%s: %g vs %g",
                  bf_family_name(families[i]), measured, z.model_fpp);
        bf_filter_stats st;
        cr_assert_eq(bf_filter_get_stats(f, &st), BF_OK);
        cr_assert_eq(st.family, families[i]);
        cr_assert_eq(st.inserted, n);
        cr_assert_eq(st.num_bytes, bf_filter_num_bytes(f));
        cr_assert(tb_within(measured, st.est_fpp, (double)q, 0.05), "%s: est %g", bf_family_name(families[i]),
                  st.est_fpp);
        cr_assert_float_eq(st.est_keys, (double)n, 0.03 * n, "%s est_keys %f", bf_family_name(families[i]),
                           st.est_keys);
        cr_assert_not_null(st.kernel);
        free(h);
        free(out);
        bf_filter_free(f);
    }
}

Test(filter, batch_insert_and_remove) {
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        bf_filter *f;
        cr_assert_eq(bf_filter_new(&f, families[i], 5000, 0.01), BF_OK);
        uint64_t *h = tb_keys(5000, 3);
        size_t done = 0;
        cr_assert_eq(bf_filter_insert_hashes(f, h, 5000, &done), BF_OK);
        cr_assert_eq(done, 5000);
        cr_assert_eq(bf_filter_contains_hashes(f, h, 5000, NULL), 5000);
        int rc = bf_filter_remove_hash(f, h[0]);
        if (!can_remove(families[i])) {
            cr_assert_eq(rc, BF_EUNSUPPORTED);
        } else {
            cr_assert_eq(rc, BF_OK);
            for (int j = 1; j < 5000; j++) cr_assert_eq(bf_filter_remove_hash(f, h[j]), BF_OK);
            bf_filter_stats st;
            bf_filter_get_stats(f, &st);
            cr_assert_eq(st.cells_set, 0);
            cr_assert_eq(bf_filter_remove_hash(f, h[0]), BF_ENOTFOUND);
        }
        free(h);
        bf_filter_free(f);
    }
    /* A full cuckoo batch stops at the first failure and says where. */
    bf_filter *f;
    cr_assert_eq(bf_filter_new(&f, BF_FAMILY_CUCKOO, 1000, 0.01), BF_OK);
    uint64_t *h = tb_keys(5000, 4);
    size_t done = 0;
    cr_assert_eq(bf_filter_insert_hashes(f, h, 5000, &done), BF_EFULL);
    cr_assert_gt(done, 1000);
    cr_assert_lt(done, 5000);
    cr_assert_eq(bf_filter_contains_hashes(f, h, done, NULL), done);
    bf_filter_stats st;
    bf_filter_get_stats(f, &st);
    cr_assert_eq(st.inserted, done);
    cr_assert_eq(st.est_keys, (double)done);
    free(h);
    bf_filter_free(f);
}

Test(filter, byte_strings_and_seed) {
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        bf_filter *f;
        cr_assert_eq(bf_filter_new(&f, families[i], 1000, 0.01), BF_OK);
        cr_assert_eq(bf_filter_seed(f), 0);
        cr_assert_eq(bf_filter_hash(f, "abc", 3), bf_hash_xxh64("abc", 3));
        cr_assert_eq(bf_filter_set_seed(f, 42), BF_OK);
        cr_assert_eq(bf_filter_seed(f), 42);
        cr_assert_eq(bf_filter_hash(f, "abc", 3), bf_hash_xxh64_seeded("abc", 3, 42));
        cr_assert_eq(bf_filter_insert(f, "abc", 3), BF_OK);
        cr_assert(bf_filter_contains(f, "abc", 3));
        cr_assert(bf_filter_contains_hash(f, bf_hash_xxh64_seeded("abc", 3, 42)));
        /* Not empty any more: the seed is fixed. */
        cr_assert_eq(bf_filter_set_seed(f, 7), BF_EINVAL);
        cr_assert_eq(bf_filter_set_seed(f, 42), BF_OK);
        if (can_remove(families[i])) cr_assert_eq(bf_filter_remove(f, "abc", 3), BF_OK);
        cr_assert_eq(bf_filter_clear(f), BF_OK);
        cr_assert_eq(bf_filter_set_seed(f, 7), BF_OK);
        bf_filter_stats st;
        bf_filter_get_stats(f, &st);
        cr_assert_eq(st.inserted, 0);
        cr_assert_eq(st.cells_set, 0);
        bf_filter_free(f);
    }
}

Test(filter, merge) {
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        bf_filter *a = filled(families[i], 3000, 0.01, 1);
        bf_filter *b;
        cr_assert_eq(bf_filter_new(&b, families[i], 3000, 0.01), BF_OK);
        uint64_t s = 2;
        for (int j = 0; j < 2000; j++) bf_filter_insert_hash(b, tu_next(&s));
        int rc = bf_filter_merge(a, b);
        if (!can_merge(families[i])) {
            cr_assert_eq(rc, BF_EUNSUPPORTED);
        } else {
            cr_assert_eq(rc, BF_OK);
            s = 1;
            for (int j = 0; j < 3000; j++) cr_assert(bf_filter_contains_hash(a, tu_next(&s)));
            s = 2;
            for (int j = 0; j < 2000; j++) cr_assert(bf_filter_contains_hash(a, tu_next(&s)));
            bf_filter_stats st;
            bf_filter_get_stats(a, &st);
            cr_assert_eq(st.inserted, 5000);
        }
        if (families[i] == BF_FAMILY_COUNTING) {
            /* Counts add: removing b's keys leaves a's keys intact. */
            s = 2;
            for (int j = 0; j < 2000; j++) cr_assert_eq(bf_filter_remove_hash(a, tu_next(&s)), BF_OK);
            s = 1;
            for (int j = 0; j < 3000; j++) cr_assert(bf_filter_contains_hash(a, tu_next(&s)));
        }
        /* Different size, seed or family. */
        bf_filter *c;
        cr_assert_eq(bf_filter_new(&c, families[i], 30000, 0.01), BF_OK);
        cr_assert_eq(bf_filter_merge(a, c), can_merge(families[i]) ? BF_EMISMATCH : BF_EUNSUPPORTED);
        bf_filter_free(c);
        cr_assert_eq(bf_filter_new(&c, families[i], 3000, 0.01), BF_OK);
        cr_assert_eq(bf_filter_set_seed(c, 5), BF_OK);
        cr_assert_eq(bf_filter_merge(a, c), can_merge(families[i]) ? BF_EMISMATCH : BF_EUNSUPPORTED);
        bf_filter_free(c);
        cr_assert_eq(bf_filter_new(&c, families[(i + 1) % nf], 3000, 0.01), BF_OK);
        cr_assert_eq(bf_filter_merge(a, c), BF_EMISMATCH);
        bf_filter_free(c);
        bf_filter_free(a);
        bf_filter_free(b);
    }
    /* Counting merge saturates at 15. */
    bf_filter *a, *b;
    cr_assert_eq(bf_filter_new(&a, BF_FAMILY_COUNTING, 10, 0.1), BF_OK);
    cr_assert_eq(bf_filter_new(&b, BF_FAMILY_COUNTING, 10, 0.1), BF_OK);
    for (int j = 0; j < 10; j++) {
        bf_filter_insert_hash(a, 77);
        bf_filter_insert_hash(b, 77);
    }
    cr_assert_eq(bf_filter_merge(a, b), BF_OK);
    bf_counting *c = bf_filter_counting(a);
    bf_dh d = bf__dh_init(77);
    for (unsigned j = 0; j < c->t.k; j++) cr_assert_eq(bf__counting_get(c->t.data, bf__dh_next(&d, c->t.m)), 15);
    bf_filter_free(a);
    bf_filter_free(b);
}

Test(filter, accessors) {
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        bf_filter *f;
        cr_assert_eq(bf_filter_new(&f, families[i], 100, 0.01), BF_OK);
        cr_assert_eq(bf_filter_family(f), families[i]);
        /* Exactly its own family's accessor answers. */
        cr_assert_eq(bf_filter_sbbf(f) != NULL, families[i] == BF_FAMILY_SBBF);
        cr_assert_eq(bf_filter_bloom(f) != NULL, families[i] == BF_FAMILY_BLOOM);
        cr_assert_eq(bf_filter_counting(f) != NULL, families[i] == BF_FAMILY_COUNTING);
        cr_assert_eq(bf_filter_cuckoo(f) != NULL, families[i] == BF_FAMILY_CUCKOO);
        cr_assert_eq(bf_filter_scalable(f) != NULL, families[i] == BF_FAMILY_SCALABLE);
        bf_filter_free(f);
    }
}

/* The target a family sizes its filter for at fpp: fpp, except for a
 * scalable chain, whose layer 0 gets the share of fpp its compound bound
 * leaves it. */
static double sized_target(bf_family fam, double fpp) {
    if (fam != BF_FAMILY_SCALABLE) return fpp;
    bf_filter *f;
    cr_assert_eq(bf_filter_new(&f, fam, 1, fpp), BF_OK);
    bf_scalable_layer l;
    cr_assert_eq(bf_scalable_get_layer(bf_filter_scalable(f), 0, &l), BF_OK);
    cr_assert(l.fpp < fpp);
    bf_filter_free(f);
    return l.fpp;
}

Test(filter, sizing_and_fpp_for) {
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        const double fpps[3] = {0.01, 0.001, 0.0001};
        for (unsigned t = 0; t < 3; t++) {
            bf_sizing z;
            cr_assert_eq(bf_size_for(families[i], 1000000, fpps[t], &z), BF_OK);
            cr_assert_leq(z.model_fpp, fpps[t]);
            /* Not wasteful (cuckoo: fingerprint sizes come in 4-bit steps;
             * a chain sizes layer 0 for its own, tighter target). */
            if (families[i] != BF_FAMILY_CUCKOO)
                cr_assert_gt(z.model_fpp, sized_target(families[i], fpps[t]) / 2, "%s %g",
                             bf_family_name(families[i]), z.model_fpp);
            double back;
            cr_assert_eq(bf_fpp_for(families[i], z.num_bytes, 1000000, &back), BF_OK);
            cr_assert_leq(back, z.model_fpp * 1.0000001, "%s %g %g", bf_family_name(families[i]), back,
                          z.model_fpp);
        }
        bf_sizing z;
        cr_assert_eq(bf_size_for(families[i], 0, 0.01, &z), BF_OK);
        cr_assert_gt(z.num_bytes, 0);
        cr_assert_eq(bf_size_for(families[i], 10, 0.0, &z), BF_EINVAL);
        cr_assert_eq(bf_size_for(families[i], 10, 0.01, NULL), BF_EINVAL);
    }
    /* MODELS.md reference points at 1%. */
    bf_sizing z;
    bf_size_for(BF_FAMILY_SBBF, 1000000, 0.01, &z);
    cr_assert_float_eq(z.bits_per_key, 10.53, 0.01);
    bf_size_for(BF_FAMILY_BLOOM, 1000000, 0.01, &z);
    cr_assert_float_eq(z.bits_per_key, 9.59, 0.01);
    cr_assert_eq(z.k, 7);
    double p;
    cr_assert_eq(bf_fpp_for(BF_FAMILY_CUCKOO, 4, 1000000, &p), BF_EFULL);
    cr_assert_eq(p, 1.0);
}

/* ---- native format ------------------------------------------------------- */

static bf_filter *sample(bf_family fam, uint64_t n, uint64_t seed_key) {
    bf_filter *f;
    cr_assert_eq(bf_filter_new(&f, fam, n, 0.01), BF_OK);
    if (seed_key) cr_assert_eq(bf_filter_set_seed(f, seed_key), BF_OK);
    for (uint64_t i = 0; i < n; i++) bf_filter_insert(f, &i, sizeof i);
    return f;
}

static void same_answers(const bf_filter *a, const bf_filter *b) {
    uint64_t s = 4242;
    for (int i = 0; i < 20000; i++) {
        uint64_t h = tu_next(&s);
        cr_assert_eq(bf_filter_contains_hash(a, h), bf_filter_contains_hash(b, h));
    }
    for (uint64_t i = 0; i < 2000; i++) cr_assert(bf_filter_contains(b, &i, sizeof i));
}

Test(format, round_trip_every_family) {
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        for (unsigned keyed = 0; keyed < 2; keyed++) {
            bf_filter *f = sample(families[i], 2000, keyed ? 0xfeedULL : 0);
            size_t len;
            uint8_t *buf = saved(f, &len);
            cr_assert_eq(buf[6], (uint8_t)families[i]);
            cr_assert_eq(buf[7], keyed ? 1 : 0);
            bf_filter *g;
            cr_assert_eq(bf_filter_load(&g, buf, len), BF_OK);
            cr_assert_eq(bf_filter_family(g), families[i]);
            cr_assert_eq(bf_filter_seed(g), keyed ? 0xfeedULL : 0);
            same_answers(f, g);
            bf_filter_stats a, b;
            bf_filter_get_stats(f, &a);
            bf_filter_get_stats(g, &b);
            cr_assert_eq(a.inserted, b.inserted);
            cr_assert_eq(a.cells_set, b.cells_set);
            /* Saving the loaded filter gives the same bytes. */
            size_t len2;
            uint8_t *buf2 = saved(g, &len2);
            cr_assert_eq(len2, len);
            cr_assert_eq(memcmp(buf, buf2, len), 0);
            /* The loaded copy is writable. */
            cr_assert_eq(bf_filter_insert(g, "new", 3), BF_OK);
            /* Too small a buffer. */
            size_t w = 123;
            cr_assert_eq(bf_filter_save(f, buf2, len - 1, &w), BF_EBUFSIZE);
            free(buf);
            free(buf2);
            bf_filter_free(f);
            bf_filter_free(g);
        }
    }
}

Test(format, cuckoo_victim_survives_save_load) {
    bf_filter *f;
    cr_assert_eq(bf_filter_new(&f, BF_FAMILY_CUCKOO, 500, 0.01), BF_OK);
    uint64_t keys[1000];
    uint64_t s = 1;
    size_t n = 0;
    while (n < 1000) {
        keys[n] = tu_next(&s);
        if (bf_filter_insert_hash(f, keys[n]) != BF_OK) break;
        n++;
    }
    cr_assert_neq(bf_filter_cuckoo(f)->victim_fp, 0);
    size_t len;
    uint8_t *buf = saved(f, &len);
    bf_filter *g, *v;
    cr_assert_eq(bf_filter_load(&g, buf, len), BF_OK);
    cr_assert_eq(bf_filter_view(&v, buf, len, BF_VIEW_VERIFY_PAYLOAD), BF_OK);
    for (size_t i = 0; i < n; i++) {
        cr_assert(bf_filter_contains_hash(g, keys[i]));
        cr_assert(bf_filter_contains_hash(v, keys[i]));
    }
    cr_assert_eq(bf_cuckoo_count(bf_filter_cuckoo(g)), n);
    cr_assert_eq(bf_filter_insert_hash(g, 5), BF_EFULL);
    cr_assert_eq(bf_filter_remove_hash(g, keys[3]), BF_OK);
    cr_assert_eq(bf_filter_insert_hash(g, 5), BF_OK);
    free(buf);
    bf_filter_free(f);
    bf_filter_free(g);
    bf_filter_free(v);
}

Test(format, views_at_any_alignment_are_read_only) {
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        bf_filter *f = sample(families[i], 3000, 9);
        size_t len;
        uint8_t *buf = saved(f, &len);
        uint8_t *raw = malloc(len + 8);
        for (unsigned off = 0; off < 8; off++) {
            memcpy(raw + off, buf, len);
            for (unsigned flags = 0; flags < 2; flags++) {
                bf_filter *v;
                cr_assert_eq(bf_filter_view(&v, raw + off, len, flags), BF_OK);
                same_answers(f, v);
                cr_assert_eq(bf_filter_seed(v), 9);
                cr_assert_eq(bf_filter_insert_hash(v, 1), BF_EREADONLY);
                cr_assert_eq(bf_filter_insert(v, "x", 1), BF_EREADONLY);
                size_t done = 7;
                const uint64_t one[1] = {1};
                cr_assert_eq(bf_filter_insert_hashes(v, one, 1, &done), BF_EREADONLY);
                cr_assert_eq(done, 0);
                cr_assert_eq(bf_filter_remove_hash(v, 1), BF_EREADONLY);
                cr_assert_eq(bf_filter_clear(v), BF_EREADONLY);
                cr_assert_eq(bf_filter_set_seed(v, 9), BF_EREADONLY);
                cr_assert_eq(bf_filter_merge(v, f), BF_EREADONLY);
                /* A view can be merged from, and saved again unchanged. */
                if (can_merge(families[i])) {
                    bf_filter *g;
                    cr_assert_eq(bf_filter_new(&g, families[i], 3000, 0.01), BF_OK);
                    cr_assert_eq(bf_filter_set_seed(g, 9), BF_OK);
                    cr_assert_eq(bf_filter_merge(g, v), BF_OK);
                    same_answers(f, g);
                    bf_filter_free(g);
                }
                size_t len2;
                uint8_t *again = saved(v, &len2);
                cr_assert_eq(memcmp(again, buf, len), 0);
                free(again);
                bf_filter_stats st;
                cr_assert_eq(bf_filter_get_stats(v, &st), BF_OK);
                bf_filter_free(v);
            }
            /* Nothing was written to the caller's memory. */
            cr_assert_eq(memcmp(raw + off, buf, len), 0);
        }
        bf_filter *v;
        cr_assert_eq(bf_filter_view(&v, buf, len, 0x80), BF_EINVAL);
        free(raw);
        free(buf);
        bf_filter_free(f);
    }
}

Test(format, every_truncation_rejected) {
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        bf_filter *f = sample(families[i], 40, 0);
        size_t len;
        uint8_t *buf = saved(f, &len);
        for (size_t cut = 0; cut < len; cut++) {
            /* An exact-size copy, so a sanitizer sees any overread. */
            uint8_t *t = malloc(cut ? cut : 1);
            memcpy(t, buf, cut);
            bf_filter *g = NULL;
            int rc = bf_filter_load(&g, t, cut);
            cr_assert_neq(rc, BF_OK, "%s: %zu of %zu bytes loaded", bf_family_name(families[i]), cut, len);
            cr_assert_null(g);
            cr_assert_neq(bf_filter_view(&g, t, cut, 0), BF_OK);
            cr_assert_neq(bf_filter_view(&g, t, cut, BF_VIEW_VERIFY_PAYLOAD), BF_OK);
            free(t);
        }
        /* A longer input is rejected too: the payload length is exact. */
        uint8_t *longer = calloc(len + 1, 1);
        memcpy(longer, buf, len);
        bf_filter *g;
        cr_assert_eq(bf_filter_load(&g, longer, len + 1), BF_ECORRUPT);
        cr_assert_eq(bf_filter_load(&g, NULL, len), BF_EINVAL);
        cr_assert_eq(bf_filter_load(NULL, buf, len), BF_EINVAL);
        free(longer);
        free(buf);
        bf_filter_free(f);
    }
}

Test(format, bit_flips_rejected_or_safe) {
    uint64_t s = 31337;
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        bf_filter *f = sample(families[i], 300, i & 1 ? 77 : 0);
        size_t len;
        uint8_t *buf = saved(f, &len);
        uint8_t *t = malloc(len);
        for (int trial = 0; trial < 1500; trial++) {
            memcpy(t, buf, len);
            unsigned flips = 1 + (unsigned)(tu_next(&s) % 3);
            for (unsigned b = 0; b < flips; b++) {
                uint64_t r = tu_next(&s);
                /* Half the flips land in the header. */
                size_t pos = (r & 1) ? (size_t)((r >> 1) % BF_HEADER_BYTES) : (size_t)((r >> 1) % len);
                t[pos] ^= (uint8_t)(1u << ((r >> 40) & 7));
            }
            bool changed = memcmp(t, buf, len) != 0;
            bf_filter *g = NULL;
            int rc = bf_filter_load(&g, t, len);
            /* The checksums catch every change of 1 to 3 bits. */
            if (changed) cr_assert_neq(rc, BF_OK, "%s trial %d loaded", bf_family_name(families[i]), trial);
            else bf_filter_free(g);
            /* An unverified view may accept a payload flip; it must then be
             * safe to query and to look at. */
            if (bf_filter_view(&g, t, len, 0) == BF_OK) {
                uint64_t q = 5;
                for (int j = 0; j < 200; j++) (void)bf_filter_contains_hash(g, tu_next(&q));
                bf_filter_stats st;
                cr_assert_eq(bf_filter_get_stats(g, &st), BF_OK);
                bf_filter_free(g);
            }
        }
        free(t);
        free(buf);
        bf_filter_free(f);
    }
}

/* Rewrites the header (fresh header check) and optionally the payload check,
 * so only the field under test is wrong. */
static int load_with(const uint8_t *buf, size_t len, void (*edit)(bf_native_header *h, uint8_t *payload),
                     bool fix_payload_check) {
    uint8_t *t = malloc(len);
    memcpy(t, buf, len);
    bf_native_header h;
    cr_assert_eq(bf__header_read(t, len, &h), BF_OK);
    edit(&h, t + BF_HEADER_BYTES);
    if (fix_payload_check && h.payload_len <= len - BF_HEADER_BYTES)
        h.payload_check = bf__payload_check(t + BF_HEADER_BYTES, (size_t)h.payload_len);
    bf__header_write(t, &h);
    bf_filter *g = NULL;
    int rc = bf_filter_load(&g, t, len);
    bf_filter_free(g);
    free(t);
    return rc;
}

static void k_zero(bf_native_header *h, uint8_t *p) { (void)p, h->params.p1 = 0; }
static void k_65(bf_native_header *h, uint8_t *p) { (void)p, h->params.p1 = 65; }
static void fp_bits_10(bf_native_header *h, uint8_t *p) { (void)p, h->params.p1 = 10; }
static void p2_wrong(bf_native_header *h, uint8_t *p) { (void)p, h->params.p2 ^= 1; }
static void flags_unknown(bf_native_header *h, uint8_t *p) { (void)p, h->params.p2 |= 0x80; }
static void p3_set(bf_native_header *h, uint8_t *p) { (void)p, h->params.p3 = 1; }
static void p0_plus(bf_native_header *h, uint8_t *p) { (void)p, h->params.p0 += 64; }
static void p0_zero(bf_native_header *h, uint8_t *p) { (void)p, h->params.p0 = 0; }
static void p0_huge(bf_native_header *h, uint8_t *p) { (void)p, h->params.p0 = UINT64_MAX / 2; }
static void len_minus(bf_native_header *h, uint8_t *p) { (void)p, h->payload_len -= 8; }
static void inserted_zero(bf_native_header *h, uint8_t *p) { (void)p, h->inserted = 0; }
static void nothing(bf_native_header *h, uint8_t *p) { (void)h, (void)p; }
static void payload_byte(bf_native_header *h, uint8_t *p) { (void)h, p[3] ^= 0x10; }
static void version_next(bf_native_header *h, uint8_t *p) {
    (void)p, h->version = BF_FORMAT_VERSION + 1;
}
static void family_9(bf_native_header *h, uint8_t *p) { (void)p, h->family = 9; }
static void seed_unkeyed(bf_native_header *h, uint8_t *p) { (void)p, h->seed = 5, h->flags = 0; }
static void flags_high(bf_native_header *h, uint8_t *p) { (void)p, h->flags |= 4; }
static void last_byte_ff(bf_native_header *h, uint8_t *p) { p[h->payload_len - 1] = 0xff; }
static void cuckoo_count(bf_native_header *h, uint8_t *p) { p[h->payload_len - 24] ^= 1; }
static void cuckoo_victim_index(bf_native_header *h, uint8_t *p) {
    bf_store_le64(p + h->payload_len - 16, h->params.p0);
    bf_store_le32(p + h->payload_len - 8, 1);
}
static void cuckoo_victim_fp(bf_native_header *h, uint8_t *p) {
    bf_store_le32(p + h->payload_len - 8, 1u << h->params.p1);
}
static void cuckoo_reserved(bf_native_header *h, uint8_t *p) { p[h->payload_len - 1] = 1; }

Test(format, crafted_inconsistent_fields_rejected) {
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        bf_family fam = families[i];
        bf_filter *f;
        /* An n whose m (bits or counters) leaves padding in the payload's
         * last word. */
        uint64_t n = 100, m;
        unsigned k;
        for (;; n++) {
            cr_assert_eq(bf__bloom_size(n, 0.01, &m, &k), BF_OK);
            if (m % 64 != 0 && m % 16 != 0 && m % 2 != 0) break;
        }
        cr_assert_eq(bf_filter_new(&f, fam, n, 0.01), BF_OK);
        for (uint64_t j = 0; j < 90; j++) bf_filter_insert_hash(f, j * 0x9e3779b97f4a7c15ULL);
        size_t len;
        uint8_t *buf = saved(f, &len);
        cr_assert_eq(load_with(buf, len, nothing, true), BF_OK);
        cr_assert_eq(load_with(buf, len, payload_byte, false), BF_ECORRUPT);
        cr_assert_eq(load_with(buf, len, version_next, true), BF_EVERSION);
        cr_assert_eq(load_with(buf, len, family_9, true), BF_EFAMILY);
        cr_assert_eq(load_with(buf, len, seed_unkeyed, true), BF_ECORRUPT);
        cr_assert_eq(load_with(buf, len, flags_high, true), BF_ECORRUPT);
        cr_assert_neq(load_with(buf, len, p0_plus, true), BF_OK);
        cr_assert_neq(load_with(buf, len, p0_zero, true), BF_OK);
        cr_assert_neq(load_with(buf, len, p0_huge, true), BF_OK);
        cr_assert_neq(load_with(buf, len, len_minus, true), BF_OK);
        cr_assert_eq(load_with(buf, len, p3_set, true), BF_ECORRUPT);
        cr_assert_eq(load_with(buf, len, inserted_zero, true), BF_ECORRUPT, "%s", bf_family_name(fam));
        switch (fam) {
        case BF_FAMILY_SBBF:
            cr_assert_eq(load_with(buf, len, k_zero, true), BF_OK); /* p1 is 0 already */
            cr_assert_eq(load_with(buf, len, p2_wrong, true), BF_ECORRUPT);
            break;
        case BF_FAMILY_BLOOM:
        case BF_FAMILY_COUNTING:
            cr_assert_eq(load_with(buf, len, k_zero, true), BF_ECORRUPT);
            cr_assert_eq(load_with(buf, len, k_65, true), BF_ECORRUPT);
            cr_assert_eq(load_with(buf, len, p2_wrong, true), BF_ECORRUPT);
            /* Padding bits or counters beyond m. */
            cr_assert_eq(load_with(buf, len, last_byte_ff, true), BF_ECORRUPT);
            break;
        case BF_FAMILY_CUCKOO:
            cr_assert_eq(load_with(buf, len, fp_bits_10, true), BF_ECORRUPT);
            cr_assert_eq(load_with(buf, len, p2_wrong, true), BF_ECORRUPT);
            cr_assert_eq(load_with(buf, len, cuckoo_count, true), BF_ECORRUPT);
            cr_assert_eq(load_with(buf, len, cuckoo_victim_index, true), BF_ECORRUPT);
            cr_assert_eq(load_with(buf, len, cuckoo_victim_fp, true), BF_ECORRUPT);
            cr_assert_eq(load_with(buf, len, cuckoo_reserved, true), BF_ECORRUPT);
            break;
        case BF_FAMILY_SCALABLE: /* p1 = expansion, p2 = flags */
            /* (Flipping the non-scaling flag of a small one-layer chain may
             * describe a chain that could exist: the layer's bytes can be
             * the same for both targets.) */
            cr_assert_eq(load_with(buf, len, k_zero, true), BF_ECORRUPT);
            cr_assert_eq(load_with(buf, len, flags_unknown, true), BF_ECORRUPT);
            break;
        default: /* a family with no field checks of its own: the generic ones above */
            break;
        }
        free(buf);
        bf_filter_free(f);
    }
}

Test(format, family_functions_bypassing_the_count_still_save) {
    /* Inserting through bf_filter_bloom() does not count; saving raises the
     * count to what the payload implies, so the image loads. */
    bf_filter *f;
    cr_assert_eq(bf_filter_new(&f, BF_FAMILY_BLOOM, 1000, 0.01), BF_OK);
    for (uint64_t j = 0; j < 1000; j++) bf_bloom_insert_hash(bf_filter_bloom(f), j * 0x9e3779b97f4a7c15ULL + 1);
    size_t len;
    uint8_t *buf = saved(f, &len);
    bf_filter *g;
    cr_assert_eq(bf_filter_load(&g, buf, len), BF_OK);
    bf_filter_stats st;
    bf_filter_get_stats(g, &st);
    cr_assert_gt(st.inserted, 0);
    cr_assert_leq(st.cells_set, st.inserted * st.k);
    free(buf);
    bf_filter_free(f);
    bf_filter_free(g);
}

/* An image whose recorded count is UINT64_MAX - 1 (the regression seed
 * tests/fuzz/corpus/filter_load/regress-count-saturates is one): three
 * more inserts, each through another path, leave the count at UINT64_MAX
 * (it once wrapped to 1), and so do merge and a save and load. */
Test(format, insert_count_saturates) {
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        bf_family fam = families[i];
        bf_filter *f = filled(fam, 100, 0.01, 7);
        size_t len;
        uint8_t *buf = saved(f, &len);
        bf_native_header h;
        cr_assert_eq(bf__header_read(buf, len, &h), BF_OK);
        h.inserted = UINT64_MAX - 1;
        bf__header_write(buf, &h);
        bf_filter *g;
        cr_assert_eq(bf_filter_load(&g, buf, len), BF_OK, "%s", bf_family_name(fam));
        bf_filter_stats st;
        cr_assert_eq(bf_filter_get_stats(g, &st), BF_OK);
        cr_assert_eq(st.inserted, UINT64_MAX - 1, "%s", bf_family_name(fam));
        const int64_t key = 123456789;
        const uint64_t hash = 0x5eed5eed5eed5eedull;
        cr_assert_eq(bf_filter_insert_hash(g, hash), BF_OK);
        cr_assert_eq(bf_filter_insert_int64s(g, &key, 1, NULL), BF_OK);
        cr_assert_eq(bf_filter_insert(g, "three", 5), BF_OK);
        cr_assert_eq(bf_filter_get_stats(g, &st), BF_OK);
        cr_assert_eq(st.inserted, UINT64_MAX, "%s: %llu", bf_family_name(fam),
                     (unsigned long long)st.inserted);
        if (can_merge(fam)) {
            bf_filter *twin;
            cr_assert_eq(bf_filter_load(&twin, buf, len), BF_OK);
            cr_assert_eq(bf_filter_merge(g, twin), BF_OK);
            cr_assert_eq(bf_filter_get_stats(g, &st), BF_OK);
            cr_assert_eq(st.inserted, UINT64_MAX, "%s: merge", bf_family_name(fam));
            bf_filter_free(twin);
        }
        size_t len2;
        uint8_t *buf2 = saved(g, &len2);
        cr_assert_eq(bf__header_read(buf2, len2, &h), BF_OK);
        cr_assert_eq(h.inserted, UINT64_MAX, "%s: saved", bf_family_name(fam));
        free(buf2);
        free(buf);
        bf_filter_free(g);
        bf_filter_free(f);
    }
}

Test(format, allocation_failures_leak_nothing) {
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        bf_filter *f = sample(families[i], 100, 0);
        size_t len;
        uint8_t *buf = saved(f, &len);
        long live = bf__alloc_live();
        for (long fail = 0; fail < 4; fail++) {
            bf_filter *g = NULL;
            bf__alloc_fail_after(fail);
            int rc = bf_filter_load(&g, buf, len);
            bf__alloc_fail_after(-1);
            if (rc == BF_OK) {
                bf_filter_free(g);
            } else {
                cr_assert_eq(rc, BF_ENOMEM);
                cr_assert_null(g);
            }
            cr_assert_eq(bf__alloc_live(), live);
            bf__alloc_fail_after(fail);
            rc = bf_filter_new(&g, families[i], 100, 0.01);
            bf__alloc_fail_after(-1);
            if (rc == BF_OK) bf_filter_free(g);
            else cr_assert_eq(rc, BF_ENOMEM);
            cr_assert_eq(bf__alloc_live(), live);
            bf__alloc_fail_after(fail);
            rc = bf_filter_view(&g, buf, len, 0);
            bf__alloc_fail_after(-1);
            if (rc == BF_OK) bf_filter_free(g);
            else cr_assert_eq(rc, BF_ENOMEM);
            cr_assert_eq(bf__alloc_live(), live);
        }
        free(buf);
        bf_filter_free(f);
    }
}

Test(filter, large_batches_match_single_calls) {
    /* Past 1 MiB the batch paths prefetch: same answers, same bits. The hash
     * array is read at an odd address too. */
    const uint64_t ns[4] = {100000, 1000000, 300000, 700000};
    for (unsigned i = 0, nf = nfam(); i < nf; i++) {
        const size_t n = (size_t)ns[i % 4];
        uint64_t *keys = tb_keys(n, 50 + i);
        bf_filter *a, *b;
        cr_assert_eq(bf_filter_new(&a, families[i], n, 0.01), BF_OK);
        cr_assert_eq(bf_filter_new(&b, families[i], n, 0.01), BF_OK);
        /* The baselines' batches prefetch past this size (the SBBF's and a
         * chain's layers have their own batch kernels). */
        if (families[i] == BF_FAMILY_BLOOM || families[i] == BF_FAMILY_COUNTING ||
            families[i] == BF_FAMILY_CUCKOO)
            cr_assert_geq(bf_filter_num_bytes(a), BF_BASELINE_PREFETCH_MIN_BYTES);
        uint8_t *raw = malloc(n * 8 + 1);
        memcpy(raw + 1, keys, n * 8);
        size_t done;
        cr_assert_eq(bf_filter_insert_hashes(a, (const uint64_t *)(void *)(raw + 1), n, &done), BF_OK);
        cr_assert_eq(done, n);
        for (size_t j = 0; j < n; j++) cr_assert_eq(bf_filter_insert_hash(b, keys[j]), BF_OK);
        size_t len_a, len_b;
        uint8_t *sa = saved(a, &len_a), *sb = saved(b, &len_b);
        cr_assert_eq(len_a, len_b);
        cr_assert_eq(memcmp(sa, sb, len_a), 0);
        /* Half members, half foreign. */
        for (size_t j = 0; j < n; j += 2) keys[j] ^= 0x5bd1e995;
        memcpy(raw + 1, keys, n * 8);
        uint8_t *out = malloc(n);
        size_t hits = bf_filter_contains_hashes(a, (const uint64_t *)(void *)(raw + 1), n, out);
        size_t single = 0;
        for (size_t j = 0; j < n; j++) {
            bool c = bf_filter_contains_hash(b, keys[j]);
            cr_assert_eq(out[j], c, "%s key %zu", bf_family_name(families[i]), j);
            if (j & 1) cr_assert(c);
            single += c;
        }
        cr_assert_eq(hits, single);
        free(out);
        free(sa);
        free(sb);
        free(raw);
        free(keys);
        bf_filter_free(a);
        bf_filter_free(b);
    }
}
