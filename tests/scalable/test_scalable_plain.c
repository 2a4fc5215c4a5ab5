/*
 * The scalable SBBF as a plain C program (no criterion), so it also runs
 * under qemu-user on aarch64, once per kernel setup:
 *  - grown from capacity 100 to 2 x 10^5 keys: no false negative, FPR on
 *    10^6 foreign keys within 5 sigma of the compound model, model <= fpp;
 *  - batch adds and lookups equal single ones;
 *  - a full non-scaling chain refuses a new key and is unchanged;
 *  - restore + write_layer and the payload (copy and view) round trip;
 *  - the fixed chain's whole native image (bf_filter_save) has a recorded
 *    digest too, and loads and views (misaligned) answer as the chain;
 *  - a fixed chain's bytes (layer sizes and bits) have the digest recorded
 *    below on every architecture and kernel: replicas and stored chains
 *    must not depend on where they were built.
 * Exit status 0 on success, 1 on failure, 77 (skip) when the forced kernel
 * cannot run on this CPU.
 */
#include "check.h"
#include "scalable_util.h"

#include <math.h>
#include <stdio.h>

/* XXH64 of the payload of golden_chain(): recorded on x86-64 (scalar,
 * AVX2 and AVX-512 agree); any change means the layer sizing or the bit
 * layout changed, which breaks stored chains. */
#define GOLDEN_DIGEST 0x7f17e65a6e7465feull
/* XXH64 of the same chain's native image (bf_filter_save after
 * bf_filter_from_scalable), recorded on x86-64. */
#define GOLDEN_IMAGE_DIGEST 0xe671a4f491ca1a2aull

static bf_scalable *make(uint64_t capacity, double fpp, unsigned expansion, double ratio,
                         unsigned flags) {
    bf_scalable_params p = {capacity, fpp, expansion, ratio, flags};
    bf_scalable *f = NULL;
    int rc = bf_scalable_new(&f, &p);
    CHECK(rc == BF_OK, "new: %s", bf_strerror(rc));
    return rc == BF_OK ? f : NULL;
}

static void growth_and_fpr(void) {
    enum { N = 200000, Q = 1000000 };
    bf_scalable *f = make(100, 0.01, 2, 0.5, 0);
    uint64_t *h = malloc((size_t)Q * sizeof *h);
    if (!f || !h) {
        CHECK(0, "setup");
        free(h);
        bf_scalable_free(f);
        return;
    }
    for (uint64_t i = 0; i < N; i++) h[i] = bf_hash_int64((int64_t)i);
    size_t done = 0;
    CHECK(bf_scalable_insert_hashes(f, h, N, NULL, &done) == BF_OK && done == N, "batch add");
    size_t miss = 0;
    for (uint64_t i = 0; i < N; i++) miss += !bf_scalable_contains_hash(f, h[i]);
    CHECK(miss == 0, "%zu false negatives", miss);
    CHECK(bf_scalable_contains_hashes(f, h, N, NULL) == N, "batch false negatives");
    for (uint64_t i = 0; i < Q; i++) h[i] = bf_hash_int64((int64_t)(((uint64_t)1 << 40) + i));
    size_t fp = bf_scalable_contains_hashes(f, h, Q, NULL);
    size_t fp1 = 0;
    for (uint64_t i = 0; i < Q; i += 10) fp1 += bf_scalable_contains_hash(f, h[i]);
    const double measured = (double)fp / Q, model = su_compound_model(f);
    bf_scalable_stats in;
    bf_scalable_get_stats(f, &in);
    CHECK(model <= 0.01 && in.bound_fpp <= 0.01, "model %g bound %g", model, in.bound_fpp);
    CHECK(measured <= model + 5 * sqrt(model * (1 - model) / Q), "measured %g model %g", measured,
          model);
    CHECK(fabs((double)fp1 * 10 / Q - measured) < 0.002, "single %zu vs batch %zu", fp1 * 10, fp);
    printf("grown to %llu keys: %zu layers, %.2f bits/key, model %.4f %%, measured %.4f %%\n",
           (unsigned long long)in.count, in.num_layers, in.num_bytes * 8.0 / N, model * 100,
           measured * 100);
    free(h);
    bf_scalable_free(f);
}

static void batch_equals_single(void) {
    enum { N = 5000 };
    uint64_t *h = su_hashes(17, N);
    bf_scalable *a = make(32, 0.05, 3, 0.7, 0), *b = make(32, 0.05, 3, 0.7, 0);
    uint8_t *flags = malloc(N);
    if (!h || !a || !b || !flags) {
        CHECK(0, "setup");
    } else {
        for (size_t i = 200; i < N; i += 101) h[i] = h[i / 2];
        bf_scalable_insert_hashes(b, h, N, flags, NULL);
        size_t diff = 0;
        for (size_t i = 0; i < N; i++) {
            bool x = false;
            bf_scalable_insert_hash(a, h[i], &x);
            diff += flags[i] != (uint8_t)x;
        }
        CHECK(diff == 0, "%zu add flags differ", diff);
        CHECK(su_same(a, b), "batch and single adds give different bytes");
    }
    free(flags);
    free(h);
    bf_scalable_free(a);
    bf_scalable_free(b);
}

static void nonscaling_full(void) {
    bf_scalable *f = make(300, 0.01, 0, 0, BF_SCALABLE_NONSCALING);
    if (!f) return;
    uint64_t s = 3;
    int rc;
    uint64_t k;
    do {
        k = tu_next(&s);
        rc = bf_scalable_insert_hash(f, k, NULL);
    } while (rc == BF_OK);
    CHECK(rc == BF_EFULL, "refusal: %s", bf_strerror(rc));
    size_t l0 = 0, l1 = 0;
    uint8_t *s0 = su_snapshot(f, &l0);
    CHECK(bf_scalable_insert_hash(f, k, NULL) == BF_EFULL, "again");
    uint8_t *s1 = su_snapshot(f, &l1);
    CHECK(s0 && s1 && l0 == l1 && !memcmp(s0, s1, l0), "refused add changed the chain");
    bf_scalable_stats in;
    bf_scalable_get_stats(f, &in);
    CHECK(in.count == 300 && in.num_layers == 1, "count %llu", (unsigned long long)in.count);
    free(s0);
    free(s1);
    bf_scalable_free(f);
}

static void round_trips(void) {
    bf_scalable_params p = {64, 0.01, 2, 0.5, 0};
    bf_scalable *f = make(p.capacity, p.fpp, p.expansion, p.ratio, p.flags);
    if (!f) return;
    bf_scalable_set_seed(f, 99);
    uint64_t *h = su_hashes(5, 3000);
    if (!h) {
        CHECK(0, "setup");
        bf_scalable_free(f);
        return;
    }
    bf_scalable_insert_hashes(f, h, 3000, NULL, NULL);
    bf_scalable_layer_desc d[BF_SCALABLE_MAX_LAYERS];
    size_t n = 0;
    bf_scalable_layer l;
    for (; bf_scalable_get_layer(f, n, &l) == BF_OK; n++)
        d[n] = (bf_scalable_layer_desc){l.capacity, l.count, bf_sbbf_num_bytes(l.sbbf)};
    bf_scalable *g = NULL;
    int rc = bf_scalable_restore(&g, &p, 99, d, n);
    CHECK(rc == BF_OK, "restore: %s", bf_strerror(rc));
    for (size_t i = 0; g && i < n; i++) {
        bf_scalable_get_layer(f, i, &l);
        CHECK(bf_scalable_write_layer(g, i, 0, bf_sbbf_bitset(l.sbbf), d[i].num_bytes) == BF_OK,
              "write layer %zu", i);
    }
    CHECK(g && su_same(f, g), "restored chain differs");
    size_t len = 0;
    bf_native_params w;
    uint8_t *buf = su_encode(f, &len, &w);
    for (int view = 0; buf && view < 2; view++) {
        bf_scalable *v = NULL;
        rc = su_decode(&v, &w, buf, len, 99, view);
        CHECK(rc == BF_OK && su_same(f, v), "payload round trip (view %d): %d", view, rc);
        if (v) CHECK(bf_scalable_contains_hashes(v, h, 3000, NULL) == 3000, "view answers");
        if (v && view) CHECK(bf_scalable_insert_hash(v, 1, NULL) == BF_EREADONLY, "view writable");
        bf_scalable_free(v);
    }
    free(buf);
    free(h);
    bf_scalable_free(g);
    bf_scalable_free(f);
}

/* A fixed chain: capacity 100, 1 %, defaults, keyed, 20000 string keys. */
static void golden(void) {
    bf_scalable *f = make(100, 0.01, 0, 0, 0);
    if (!f) return;
    bf_scalable_set_seed(f, 0x5eedf00dull);
    for (int i = 0; i < 20000; i++) {
        char key[32];
        int n = snprintf(key, sizeof key, "user:%d", i);
        bf_scalable_insert(f, key, (size_t)n, NULL);
    }
    size_t len = 0;
    uint8_t *buf = su_snapshot(f, &len);
    uint64_t digest = buf ? bf_hash_xxh64(buf, len) : 0;
    CHECK(digest == GOLDEN_DIGEST, "chain digest %016llx (%zu bytes), recorded %016llx",
          (unsigned long long)digest, len, (unsigned long long)GOLDEN_DIGEST);
    free(buf);
    /* The whole native image of the grown chain (header words, recorded
     * count, seed, directory, bitsets), and its loaders on this host. */
    bf_filter *g = NULL;
    int rc = bf_filter_from_scalable(&g, f);
    CHECK(rc == BF_OK, "wrap: %d", rc);
    if (rc) {
        bf_scalable_free(f);
        return;
    }
    size_t ilen = bf_filter_save_size(g), w = 0;
    uint8_t *img = malloc(ilen + 1);
    CHECK(img && bf_filter_save(g, img, ilen, &w) == BF_OK && w == ilen, "save");
    digest = img ? bf_hash_xxh64(img, ilen) : 0;
    CHECK(digest == GOLDEN_IMAGE_DIGEST, "image digest %016llx (%zu bytes), recorded %016llx",
          (unsigned long long)digest, ilen, (unsigned long long)GOLDEN_IMAGE_DIGEST);
    for (int how = 0; img && how < 3; how++) {
        bf_filter *c = NULL;
        if (how == 2) memmove(img + 1, img, ilen); /* misaligned */
        const uint8_t *at = img + (how == 2);
        rc = how == 0 ? bf_filter_load(&c, at, ilen) : bf_filter_view(&c, at, ilen, BF_VIEW_VERIFY_PAYLOAD);
        CHECK(rc == BF_OK, "image %d: %d", how, rc);
        if (rc) continue;
        size_t diff = 0;
        for (int i = 0; i < 40000; i++) {
            char key[32];
            int n = snprintf(key, sizeof key, "user:%d", i);
            diff += bf_filter_contains(c, key, (size_t)n) != bf_filter_contains(g, key, (size_t)n);
        }
        CHECK(diff == 0, "image %d: %zu answers differ", how, diff);
        size_t len2 = bf_filter_save_size(c);
        uint8_t *again = malloc(len2);
        CHECK(again && bf_filter_save(c, again, len2, &w) == BF_OK && len2 == ilen &&
                  memcmp(again, at, ilen) == 0,
              "image %d: re-save differs", how);
        free(again);
        bf_filter_free(c);
    }
    free(img);
    bf_filter_free(g);
}

int main(void) {
    const char *forced = getenv("BLOCKFILTER_KERNEL");
    if (forced && *forced && !bf_sbbf_kernel_supported(forced)) {
        bf_scalable_params p = {100, 0.01, 0, 0, 0};
        bf_scalable *f = NULL;
        CHECK(bf_scalable_new(&f, &p) == BF_EKERNEL, "unsupported forced kernel accepted");
        printf("scalable checks: kernel %s cannot run here, skipped: %lu passed, %lu failed\n",
               forced, passed, failed);
        return failed ? 1 : 77;
    }
    const char *kernel = "?";
    bf_sbbf_default_kernel(&kernel);
    growth_and_fpr();
    batch_equals_single();
    nonscaling_full();
    round_trips();
    golden();
    printf("scalable checks (kernel %s): %lu passed, %lu failed\n", kernel, passed, failed);
    return failed ? 1 : 0;
}
