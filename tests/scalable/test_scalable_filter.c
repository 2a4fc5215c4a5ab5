/*
 * The scalable SBBF in the generic layer (family BF_FAMILY_SCALABLE): what
 * the registry-walking conformance suite (tests/baselines/test_ops.c)
 * cannot know about this family. bf_filter_new's defaults, add-if-absent
 * inserts, BF_EFULL from a full non-scaling chain, wrapping chains made
 * with other parameters, statistics over every layer, and native images of
 * grown chains: the header words and directory, zero-copy views whose
 * layers point into the image, and loaders that refuse what the parameters
 * could not have produced.
 */
#include "scalable_util.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>

static bf_filter *wrapped(uint64_t capacity, double fpp, unsigned expansion, double ratio,
                          unsigned flags) {
    bf_scalable_params p = {capacity, fpp, expansion, ratio, flags};
    bf_scalable *c = NULL;
    cr_assert_eq(bf_scalable_new(&c, &p), BF_OK);
    bf_filter *f = NULL;
    cr_assert_eq(bf_filter_from_scalable(&f, c), BF_OK);
    cr_assert_eq(bf_filter_scalable(f), c);
    return f;
}

static uint8_t *save(const bf_filter *f, size_t *len) {
    *len = bf_filter_save_size(f);
    uint8_t *buf = malloc(*len + 8);
    cr_assert_not_null(buf);
    size_t w = 0;
    cr_assert_eq(bf_filter_save(f, buf, *len, &w), BF_OK);
    cr_assert_eq(w, *len);
    return buf;
}

static bf_scalable_stats chain_info(bf_filter *f) {
    bf_scalable_stats in;
    cr_assert_not_null(bf_filter_scalable(f));
    cr_assert_eq(bf_scalable_get_stats(bf_filter_scalable(f), &in), BF_OK);
    return in;
}

/* Rewrites the header and payload checks of an image (after a deliberate
 * change), so that only the field validation can refuse it. */
static void fix_checks(uint8_t *img, size_t len) {
    bf_store_le64(img + 56, bf_hash_xxh64(img + BF_HEADER_BYTES, len - BF_HEADER_BYTES));
    memset(img + 44, 0, 4);
    bf_store_le32(img + 44, (uint32_t)bf_hash_xxh64(img, BF_HEADER_BYTES));
}

Test(generic, new_is_a_default_chain_with_capacity_n) {
    bf_filter *f;
    cr_assert_eq(bf_filter_new(&f, BF_FAMILY_SCALABLE, 1000, 0.01), BF_OK);
    cr_expect_eq(bf_filter_family(f), BF_FAMILY_SCALABLE);
    cr_expect_str_eq(bf_family_name(BF_FAMILY_SCALABLE), "scalable");
    bf_family id;
    cr_expect(bf_family_from_name("Scalable", &id) == BF_OK && id == BF_FAMILY_SCALABLE);
    bf_scalable_stats in = chain_info(f);
    cr_expect_eq(in.capacity, 1000u);
    cr_expect_eq(in.num_layers, 1u);
    cr_expect_eq(in.expansion, BF_SCALABLE_DEFAULT_EXPANSION);
    cr_expect_eq(in.ratio, BF_SCALABLE_DEFAULT_RATIO);
    cr_expect_eq(in.fpp, 0.01);
    cr_expect_eq(in.flags, 0u);
    bf_sizing z;
    cr_assert_eq(bf_size_for(BF_FAMILY_SCALABLE, 1000, 0.01, &z), BF_OK);
    cr_expect_eq(bf_filter_num_bytes(f), z.num_bytes);
    cr_expect_eq(z.num_bytes, in.num_bytes);
    /* Other families do not answer for it. */
    cr_expect_null(bf_filter_sbbf(f));
    cr_expect_null(bf_filter_cuckoo(f));
    bf_filter *s;
    cr_assert_eq(bf_filter_new(&s, BF_FAMILY_SBBF, 10, 0.01), BF_OK);
    cr_expect_null(bf_filter_scalable(s));
    cr_expect_null(bf_filter_scalable(NULL));
    bf_filter_free(s);
    /* n = 0: one key's chain, as the other families size for n = 0. */
    bf_filter *e;
    cr_assert_eq(bf_filter_new(&e, BF_FAMILY_SCALABLE, 0, 0.01), BF_OK);
    cr_expect_eq(chain_info(e).capacity, 1u);
    cr_expect_eq(bf_filter_insert(e, "a", 1), BF_OK);
    cr_expect_eq(bf_filter_insert(e, "b", 1), BF_OK);
    cr_expect(bf_filter_contains(e, "a", 1) && bf_filter_contains(e, "b", 1));
    bf_filter_free(e);
    cr_expect_eq(bf_filter_new(&e, BF_FAMILY_SCALABLE, 10, 0.0), BF_EINVAL);
    bf_filter_free(f);
}

Test(generic, inserts_add_if_absent_and_grow) {
    bf_filter *f;
    cr_assert_eq(bf_filter_new(&f, BF_FAMILY_SCALABLE, 100, 0.01), BF_OK);
    uint64_t *h = su_hashes(7, 5000);
    cr_assert_not_null(h);
    size_t done = 0;
    cr_assert_eq(bf_filter_insert_hashes(f, h, 2500, &done), BF_OK);
    cr_expect_eq(done, 2500u);
    for (size_t i = 2500; i < 5000; i++) cr_assert_eq(bf_filter_insert_hash(f, h[i]), BF_OK);
    cr_expect_eq(bf_filter_contains_hashes(f, h, 5000, NULL), 5000u);
    bf_scalable_stats in = chain_info(f);
    cr_expect_eq(in.num_layers, 6u, "100 + 200 + ... + 3200 >= 5000 keys: 6 layers");
    cr_expect(in.count <= 5000 && in.count > 4900, "count %llu", (unsigned long long)in.count);
    cr_expect_eq(bf_filter_num_bytes(f), in.num_bytes, "every layer's bytes");
    /* Repeats: the call succeeds and is counted, the chain is unchanged. */
    uint8_t *before;
    size_t blen = 0;
    before = su_snapshot(bf_filter_scalable(f), &blen);
    cr_assert_eq(bf_filter_insert_hashes(f, h, 5000, &done), BF_OK);
    cr_assert_eq(bf_filter_insert_hash(f, h[0]), BF_OK);
    size_t alen = 0;
    uint8_t *after = su_snapshot(bf_filter_scalable(f), &alen);
    cr_expect(alen == blen && memcmp(before, after, blen) == 0, "a repeat changed the chain");
    bf_filter_stats st;
    cr_assert_eq(bf_filter_get_stats(f, &st), BF_OK);
    cr_expect_eq(st.inserted, 10001u, "insert calls");
    cr_expect_eq(st.est_keys, (double)in.count, "keys written");
    cr_expect_eq(st.cells, in.num_bytes * 8);
    cr_expect(st.cells_set > 0 && st.cells_set <= 8 * in.count);
    cr_expect(fabs(st.est_fpp - in.est_fpp) < 1e-15);
    cr_expect(st.est_fpp <= 0.01);
    /* No remove, no merge. */
    cr_expect_eq(bf_filter_remove_hash(f, h[0]), BF_EUNSUPPORTED);
    bf_filter *g;
    cr_assert_eq(bf_filter_new(&g, BF_FAMILY_SCALABLE, 100, 0.01), BF_OK);
    cr_expect_eq(bf_filter_merge(f, g), BF_EUNSUPPORTED);
    cr_expect_eq(bf_filter_merge(f, f), BF_EUNSUPPORTED);
    bf_filter_free(g);
    /* Clear: back to one empty layer of the initial capacity. */
    cr_assert_eq(bf_filter_clear(f), BF_OK);
    in = chain_info(f);
    cr_expect(in.num_layers == 1 && in.count == 0 && in.capacity == 100);
    cr_expect_eq(bf_filter_contains_hashes(f, h, 5000, NULL), 0u);
    free(before);
    free(after);
    free(h);
    bf_filter_free(f);
}

Test(generic, nonscaling_chain_refuses_with_efull) {
    bf_filter *f = wrapped(50, 0.01, 0, 0, BF_SCALABLE_NONSCALING);
    uint64_t *h = su_hashes(8, 200);
    size_t done = 0;
    int rc = bf_filter_insert_hashes(f, h, 200, &done);
    cr_expect_eq(rc, BF_EFULL);
    bf_scalable_stats in = chain_info(f);
    cr_expect_eq(in.count, 50u);
    cr_expect(done >= 50 && done < 200, "done %zu", done);
    for (size_t i = 0; i < done; i++) cr_expect(bf_filter_contains_hash(f, h[i]), "key %zu", i);
    /* The refused key is not there (unless a false positive), and a repeat
     * of a stored key still succeeds. */
    cr_expect_eq(bf_filter_insert_hash(f, h[0]), BF_OK);
    bf_filter_stats st;
    cr_assert_eq(bf_filter_get_stats(f, &st), BF_OK);
    cr_expect_eq(st.inserted, done + 1);
    size_t miss = 0;
    for (size_t i = done; i < 200; i++)
        if (!bf_filter_contains_hash(f, h[i])) {
            cr_expect_eq(bf_filter_insert_hash(f, h[i]), BF_EFULL);
            miss++;
        }
    cr_expect_gt(miss, 0u);
    cr_expect_eq(chain_info(f).count, 50u, "nothing changed");
    /* The flag survives a native round trip. */
    size_t len;
    uint8_t *img = save(f, &len);
    cr_expect_eq(bf_load_le32(img + 36), BF_SCALABLE_NONSCALING);
    bf_filter *g;
    cr_assert_eq(bf_filter_load(&g, img, len), BF_OK);
    cr_expect_eq(chain_info(g).flags, BF_SCALABLE_NONSCALING);
    for (size_t i = done; i < 200; i++)
        if (!bf_filter_contains_hash(g, h[i])) cr_expect_eq(bf_filter_insert_hash(g, h[i]), BF_EFULL);
    bf_filter_free(g);
    free(img);
    free(h);
    bf_filter_free(f);
}

Test(generic, wrapping_chains) {
    bf_filter *f = NULL;
    cr_expect_eq(bf_filter_from_scalable(&f, NULL), BF_EINVAL);
    bf_scalable_params p = {10, 0.01, 3, 0.8, 0};
    bf_scalable *c;
    cr_assert_eq(bf_scalable_new(&c, &p), BF_OK);
    cr_expect_eq(bf_filter_from_scalable(NULL, c), BF_EINVAL);
    /* Keys added through the chain's own API before wrapping: counted in the
     * image by the chain's count. */
    for (int i = 0; i < 100; i++) {
        char k[16];
        int n = snprintf(k, sizeof k, "pre-%d", i);
        cr_assert_eq(bf_scalable_insert(c, k, (size_t)n, NULL), BF_OK);
    }
    cr_assert_eq(bf_filter_from_scalable(&f, c), BF_OK);
    size_t len;
    uint8_t *img = save(f, &len);
    bf_scalable_stats in = chain_info(f);
    cr_expect_eq(bf_load_le64(img + 16), in.count, "recorded inserts raised to the count");
    bf_filter *g, *v;
    cr_assert_eq(bf_filter_load(&g, img, len), BF_OK);
    bf_scalable_stats gi = chain_info(g);
    cr_expect(gi.expansion == 3 && gi.ratio == 0.8 && gi.capacity == in.capacity &&
              gi.num_layers == in.num_layers && gi.count == in.count);
    /* A read-only chain cannot be wrapped again. */
    cr_assert_eq(bf_filter_view(&v, img, len, 0), BF_OK);
    bf_filter *w = NULL;
    cr_expect_eq(bf_filter_from_scalable(&w, bf_filter_scalable(v)), BF_EREADONLY);
    cr_expect_null(w);
    for (int i = 0; i < 100; i++) {
        char k[16];
        int n = snprintf(k, sizeof k, "pre-%d", i);
        cr_expect(bf_filter_contains(g, k, (size_t)n) && bf_filter_contains(v, k, (size_t)n));
    }
    bf_filter_free(v);
    bf_filter_free(g);
    free(img);
    bf_filter_free(f);
}

/* A grown chain's native image: the header words, the payload's head and
 * directory, views whose layers are the image's bytes, and re-saves. */
Test(native, grown_chain_image_and_views) {
    bf_filter *f = wrapped(100, 0.01, 2, 0.5, 0);
    cr_assert_eq(bf_filter_set_seed(f, 0xfeed), BF_OK);
    uint64_t *h = su_hashes(9, 3000);
    cr_assert_eq(bf_filter_insert_hashes(f, h, 3000, NULL), BF_OK);
    bf_scalable_stats in = chain_info(f);
    cr_assert_eq(in.num_layers, 5u);
    size_t len;
    uint8_t *img = save(f, &len);
    const uint8_t *pl = img + BF_HEADER_BYTES;
    cr_expect_eq(img[6], BF_FAMILY_SCALABLE);
    cr_expect_eq(bf_load_le64(img + 24), 100u);
    cr_expect_eq(bf_load_le32(img + 32), 2u);
    cr_expect_eq(bf_load_le32(img + 36), 0u);
    cr_expect_eq(bf_load_le32(img + 40), 0u);
    cr_expect_eq(bf_load_le64(img + 48), len - BF_HEADER_BYTES);
    cr_expect_eq(bf_load_le64(pl), 5u);
    cr_expect_eq(len, BF_HEADER_BYTES + 32 + 32 * 5 + in.num_bytes);
    uint64_t off = 32 + 32 * 5;
    for (size_t i = 0; i < 5; i++) {
        bf_scalable_layer l;
        cr_assert_eq(bf_scalable_get_layer(bf_filter_scalable(f), i, &l), BF_OK);
        const uint8_t *e = pl + 32 + 32 * i;
        cr_expect_eq(bf_load_le64(e), l.capacity);
        cr_expect_eq(bf_load_le64(e + 8), l.count);
        cr_expect_eq(bf_load_le64(e + 16), bf_sbbf_num_bytes(l.sbbf));
        cr_expect_eq(off % 32, 0u, "bitsets at multiples of 32 bytes");
        cr_expect(memcmp(pl + off, bf_sbbf_bitset(l.sbbf), bf_sbbf_num_bytes(l.sbbf)) == 0);
        off += bf_sbbf_num_bytes(l.sbbf);
    }
    /* Views, aligned and not: every layer reads the image in place. */
    uint8_t *raw = malloc(len + 5);
    cr_assert_not_null(raw);
    memcpy(raw + 5, img, len);
    const uint8_t *bufs[2] = {img, raw + 5};
    for (int b = 0; b < 2; b++) {
        for (unsigned flags = 0; flags < 2; flags++) {
            bf_filter *v;
            cr_assert_eq(bf_filter_view(&v, bufs[b], len, flags), BF_OK);
            bf_scalable *c = bf_filter_scalable(v);
            cr_assert_not_null(c);
            uint64_t o = 32 + 32 * 5;
            for (size_t i = 0; i < 5; i++) {
                bf_scalable_layer l;
                cr_assert_eq(bf_scalable_get_layer(c, i, &l), BF_OK);
                cr_expect(bf_sbbf_is_readonly(l.sbbf));
                cr_expect_eq((const uint8_t *)bf_sbbf_bitset(l.sbbf), bufs[b] + BF_HEADER_BYTES + o,
                             "layer %zu is not a view", i);
                o += bf_sbbf_num_bytes(l.sbbf);
            }
            cr_expect_eq(bf_filter_contains_hashes(v, h, 3000, NULL), 3000u);
            cr_expect_eq(bf_filter_seed(v), 0xfeedu);
            /* The chain's own API refuses writes too. */
            cr_expect_eq(bf_scalable_insert_hash(c, 12345, NULL), BF_EREADONLY);
            cr_expect_eq(bf_scalable_insert_hashes(c, h, 3, NULL, NULL), BF_EREADONLY);
            cr_expect_eq(bf_scalable_insert(c, "x", 1, NULL), BF_EREADONLY);
            cr_expect_eq(bf_scalable_clear(c), BF_EREADONLY);
            cr_expect_eq(bf_scalable_set_seed(c, 1), BF_EREADONLY);
            cr_expect_eq(bf_scalable_write_layer(c, 0, 0, "x", 1), BF_EREADONLY);
            size_t l2;
            uint8_t *again = save(v, &l2);
            cr_expect(l2 == len && memcmp(again, img, len) == 0, "re-save of a view");
            free(again);
            bf_filter_free(v);
        }
    }
    cr_expect(memcmp(raw + 5, img, len) == 0, "views wrote to the image");
    free(raw);
    free(img);
    free(h);
    bf_filter_free(f);
}

/* Images the parameters could not have produced, with the checks fixed so
 * that only the field validation stands between them and the caller. */
Test(native, loaders_refuse_inconsistent_images) {
    bf_filter *f = wrapped(100, 0.01, 2, 0.5, 0);
    uint64_t *h = su_hashes(10, 700);
    cr_assert_eq(bf_filter_insert_hashes(f, h, 700, NULL), BF_OK);
    cr_assert_eq(chain_info(f).num_layers, 3u);
    size_t len;
    uint8_t *img = save(f, &len);
    uint8_t *m = malloc(len);
    const size_t P = BF_HEADER_BYTES;
    struct {
        size_t off;
        uint64_t val;
        unsigned width;
        const char *what;
    } cases[] = {
        {24, 101, 8, "another capacity"},
        {24, 0, 8, "capacity 0"},
        {32, 3, 4, "another expansion"},
        {32, 0, 4, "expansion 0 (no defaults in images)"},
        {36, 2, 4, "unknown flag"},
        {36, BF_SCALABLE_NONSCALING, 4, "non-scaling with three layers"},
        {40, 1, 4, "p3"},
        {P + 0, 0, 8, "no layer"},
        {P + 0, 65, 8, "65 layers"},
        {P + 0, 2, 8, "fewer layers than the directory"},
        {P + 0, 4, 8, "more layers than the directory"},
        {P + 24, 1, 8, "reserved head word"},
        {P + 32, 99, 8, "layer 0 capacity"},
        {P + 40, 99, 8, "an older layer not full"},
        {P + 48, 64, 8, "layer 0 bytes"},
        {P + 56, 1, 8, "reserved directory word"},
        {P + 32 + 64 + 8, 0, 8, "an empty newest layer after others"},
        {P + 32 + 64 + 8, 401, 8, "newest layer over capacity"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memcpy(m, img, len);
        if (cases[i].width == 8)
            bf_store_le64(m + cases[i].off, cases[i].val);
        else
            bf_store_le32(m + cases[i].off, (uint32_t)cases[i].val);
        fix_checks(m, len);
        bf_filter *g = NULL;
        int rc = bf_filter_load(&g, m, len);
        cr_expect(rc == BF_ECORRUPT || rc == BF_ETRUNCATED, "%s: load %d", cases[i].what, rc);
        rc = bf_filter_view(&g, m, len, 0);
        cr_expect(rc == BF_ECORRUPT || rc == BF_ETRUNCATED, "%s: view %d", cases[i].what, rc);
        cr_expect_null(g);
    }
    /* Bits a layer's count cannot explain: the verified loaders refuse,
     * the unverified view takes the bytes as they are. */
    memcpy(m, img, len);
    memset(m + P + 32 + 32 * 3, 0xff, 64);
    fix_checks(m, len);
    bf_filter *g = NULL;
    cr_expect_eq(bf_filter_load(&g, m, len), BF_ECORRUPT);
    cr_expect_eq(bf_filter_view(&g, m, len, BF_VIEW_VERIFY_PAYLOAD), BF_ECORRUPT);
    cr_assert_eq(bf_filter_view(&g, m, len, 0), BF_OK);
    bf_filter_free(g);
    /* A recorded insert count below the chain's count. */
    memcpy(m, img, len);
    bf_store_le64(m + 16, chain_info(f).count - 1);
    fix_checks(m, len);
    cr_expect_eq(bf_filter_load(&g, m, len), BF_ECORRUPT);
    /* Truncated and extended. */
    for (size_t cut = 1; cut < len - P; cut += 1 + cut / 3) {
        memcpy(m, img, len);
        bf_store_le64(m + 48, len - P - cut);
        fix_checks(m, len - cut);
        int rc = bf_filter_load(&g, m, len - cut);
        cr_expect(rc == BF_ECORRUPT || rc == BF_ETRUNCATED, "cut %zu: %d", cut, rc);
    }
    free(m);
    free(img);
    free(h);
    bf_filter_free(f);
}
