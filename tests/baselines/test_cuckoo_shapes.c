/*
 * Cuckoo filters of every shape, as a plain C program (no criterion) so
 * that it also runs under qemu: on aarch64 and on big-endian s390x, where
 * the bit-array layout is what is on trial. For every bucket size b in
 * {1, 2, 3, 4, 8, 16, 255} and fingerprint size f in {4, 5, 8, 12, 16, 17,
 * 32}, and the semi-sorted buckets (b = 4, f = 5, 8, 12, 16, 17):
 *  - filled to failure: every key stored answers present (no false
 *    negative), the count is exact, further inserts fail and change
 *    nothing, one remove makes room again;
 *  - the same key: 2b copies, then BF_EFULL; count and remove undo them;
 *  - the measured FPR of foreign keys against bf_cuckoo_model_fpp at the
 *    table's load (5 sigma plus 10%: a test that can fail);
 *  - save, load, view (misaligned, verified): same answers, same image;
 *    the format version is 1 exactly for the shapes version 1 knows;
 *  - the rollback policy: a refused insert leaves the table byte for byte
 *    as it was, nothing is lost, and the filter keeps taking other keys;
 *  - merge of two halves answers as the whole;
 *  - statistics (load factor, bucket size).
 * Exit status 0 on success, 1 on failure.
 */
#include "baselines_util.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 6000u    /* about this many slots per table */
#define QUERIES 100000u

/* Keys taken and refused after a rollback filter's first failure, over
 * every shape. */
static unsigned long rollback_taken, rollback_refused;

static uint64_t buckets_for(unsigned b) {
    uint64_t nb = SLOTS / b;
    return nb < 2 ? 2 : nb + (nb & 1);
}

/* Inserts random keys until one fails; returns how many are stored. */
static size_t fill(bf_cuckoo *c, uint64_t *keys, size_t cap, uint64_t seed, int *last_rc) {
    size_t n = 0;
    *last_rc = BF_OK;
    while (n < cap) {
        uint64_t h = tu_next(&seed);
        int rc = bf_cuckoo_insert_hash(c, h);
        if (rc != BF_OK) {
            *last_rc = rc;
            break;
        }
        keys[n++] = h;
    }
    return n;
}

static unsigned missing(const bf_cuckoo *c, const uint64_t *keys, size_t n) {
    unsigned m = 0;
    for (size_t i = 0; i < n; i++) m += !bf_cuckoo_contains_hash(c, keys[i]);
    return m;
}

/* Foreign keys (another seed) answering present. */
static size_t false_positives(const bf_cuckoo *c, uint64_t seed, unsigned q) {
    size_t fp = 0;
    for (unsigned i = 0; i < q; i++) fp += bf_cuckoo_contains_hash(c, tu_next(&seed));
    return fp;
}

/* Same answers for the stored keys and QUERIES / 10 foreign ones. */
static void same_answers(const char *what, const bf_cuckoo *a, const bf_cuckoo *b,
                         const uint64_t *keys, size_t n) {
    unsigned diff = 0;
    uint64_t s = 777;
    for (unsigned i = 0; i < QUERIES / 10; i++) {
        uint64_t h = tu_next(&s);
        diff += bf_cuckoo_contains_hash(a, h) != bf_cuckoo_contains_hash(b, h);
    }
    CHECK(diff == 0, "%s: %u foreign keys answered differently", what, diff);
    CHECK(missing(b, keys, n) == 0, "%s: keys missing", what);
    uint8_t out[64];
    size_t hits = bf_cuckoo_contains_hashes(b, keys, n < 64 ? n : 64, out);
    CHECK(hits == (n < 64 ? n : 64), "%s: batch lookups", what);
}

static bool in_version_1(unsigned b, unsigned f, unsigned flags) {
    return b == 4 && (f == 8 || f == 12 || f == 16) && !flags;
}

/* f wraps c. */
static void round_trip(const char *name, bf_filter *f, const uint64_t *keys, size_t n) {
    const bf_cuckoo *c = bf_filter_cuckoo(f);
    int rc;
    size_t len;
    uint8_t *img = tb_saved(f, &len);
    CHECK(img != NULL, "%s: save", name);
    if (!img) return;
    unsigned version = img[4] | (unsigned)img[5] << 8;
    unsigned b = bf_cuckoo_bucket_size(c), fb = bf_cuckoo_fingerprint_bits(c);
    CHECK(version == (in_version_1(b, fb, bf_cuckoo_flags(c)) ? 1u : 2u), "%s: version %u", name,
          version);
    CHECK(bf_filter_num_bytes(f) == bf_cuckoo_table_bytes(c), "%s: num_bytes", name);
    bf_filter *g = NULL, *v = NULL;
    rc = bf_filter_load(&g, img, len);
    CHECK(rc == BF_OK, "%s: load: %d", name, rc);
    uint8_t *raw = malloc(len + 5);
    memcpy(raw + 5, img, len);
    rc = bf_filter_view(&v, raw + 5, len, BF_VIEW_VERIFY_PAYLOAD);
    CHECK(rc == BF_OK, "%s: misaligned verified view: %d", name, rc);
    bf_filter *got[2] = {g, v};
    for (unsigned i = 0; i < 2; i++) {
        if (!got[i]) continue;
        char what[96];
        snprintf(what, sizeof what, "%s %s", name, i ? "view" : "load");
        bf_cuckoo *x = bf_filter_cuckoo(got[i]);
        CHECK(bf_cuckoo_bucket_size(x) == b && bf_cuckoo_fingerprint_bits(x) == fb &&
                  bf_cuckoo_flags(x) == bf_cuckoo_flags(c) && bf_cuckoo_count(x) == bf_cuckoo_count(c),
              "%s: shape", what);
        same_answers(what, c, x, keys, n);
        size_t len2;
        uint8_t *again = tb_saved(got[i], &len2);
        CHECK(again && len2 == len && memcmp(again, img, len) == 0, "%s: re-save differs", what);
        free(again);
        bf_filter_stats st;
        CHECK(bf_filter_get_stats(got[i], &st) == BF_OK && st.bucket_size == b &&
                  st.fp_bits == fb && st.cells == bf_cuckoo_num_buckets(c) * b &&
                  st.cells_set <= bf_cuckoo_count(c) && bf_cuckoo_count(c) - st.cells_set <= 1 &&
                  st.fill_ratio == (double)st.cells_set / (double)st.cells,
              "%s: stats", what);
    }
    bf_filter_free(v);
    bf_filter_free(g);
    free(raw);
    free(img);
}

static void check_shape(unsigned b, unsigned fb, unsigned flags) {
    char name[64];
    snprintf(name, sizeof name, "b=%u f=%u%s", b, fb, flags ? " semi-sorted" : "");
    const uint64_t nb = buckets_for(b);
    const size_t cap = (size_t)(nb * b + 2);
    uint64_t *keys = malloc(cap * sizeof *keys);
    bf_cuckoo *c = NULL;
    bf_filter *w = NULL;
    int rc = bf_cuckoo_new_table(&c, nb, b, fb, flags);
    CHECK(rc == BF_OK, "%s: new: %d", name, rc);
    if (rc == BF_OK && (rc = bf_filter_from_cuckoo(&w, c)) != BF_OK) bf_cuckoo_free(c);
    CHECK(rc == BF_OK, "%s: from_cuckoo: %d", name, rc);
    if (rc) {
        free(keys);
        return;
    }

    /* Fill to failure. */
    int last;
    size_t n = fill(c, keys, cap, 1000 + b * 64 + fb, &last);
    double load = (double)n / (double)(nb * b);
    CHECK(last == BF_EFULL && n < cap, "%s: never full (%d)", name, last);
    CHECK(bf_cuckoo_count(c) == n, "%s: count %llu, stored %zu", name,
          (unsigned long long)bf_cuckoo_count(c), n);
    CHECK(missing(c, keys, n) == 0, "%s: false negatives at load %.3f", name, load);
    /* Long fingerprints fill about as far as the model says (short ones
     * have too few alternates: docs/families.md). */
    if (fb >= 12)
        CHECK(load >= bf_cuckoo_model_load(b) - (b <= 2 ? 0.12 : 0.06), "%s: load %.3f, model %.3f",
              name, load, bf_cuckoo_model_load(b));
    uint64_t s = 5;
    unsigned refused = 0;
    for (int i = 0; i < 50; i++) refused += bf_cuckoo_insert_hash(c, tu_next(&s)) == BF_EFULL;
    CHECK(refused == 50 && bf_cuckoo_count(c) == n, "%s: full filter took keys", name);

    /* FPR at the load reached. */
    size_t fp = false_positives(c, 99, QUERIES);
    double model = bf_cuckoo_model_fpp(b, fb, load > 1 ? 1 : load);
    double measured = (double)fp / QUERIES;
    CHECK(tu_within(measured, model, QUERIES, 5.0, 0.1) || (model < 1e-6 && fp <= 3),
          "%s: FPR %.5g, model %.5g at load %.3f", name, measured, model, load);

    /* Save, load, view; merge of two halves. */
    round_trip(name, w, keys, n);

    /* Remove one: the victim finds a home, the rest stay. */
    CHECK(bf_cuckoo_remove_hash(c, keys[0]) == BF_OK, "%s: remove", name);
    CHECK(bf_cuckoo_count(c) == n - 1, "%s: count after remove", name);
    CHECK(missing(c, keys + 1, n - 1) == 0, "%s: remove lost keys", name);
    bf_filter_free(w);

    /* A kick limit of 1: it fills less far (or as far, for large b), and
     * still loses nothing. */
    c = NULL;
    CHECK(bf_cuckoo_new_table(&c, nb, b, fb, flags) == BF_OK, "%s: table", name);
    if (c) {
        CHECK(bf_cuckoo_set_max_kicks(c, 1) == BF_OK && bf_cuckoo_max_kicks(c) == 1, "%s: kicks", name);
        size_t n1 = fill(c, keys, cap, 1000 + b * 64 + fb, &last);
        CHECK(last == BF_EFULL && n1 <= n + nb * b / 50, "%s: %zu keys with 1 kick, %zu with 500", name,
              n1, n);
        CHECK(missing(c, keys, n1) == 0 && bf_cuckoo_count(c) == n1, "%s: 1 kick lost keys", name);
        bf_cuckoo_free(c);
    }

    /* The rollback policy: filled to its first failure and then tried
     * with more rk, a refused key leaves the table byte for byte as it
     * was and the count unchanged, and the filter keeps taking others. */
    c = NULL;
    uint64_t *rk = malloc(cap * sizeof *rk);
    CHECK(rk && bf_cuckoo_new_table(&c, nb, b, fb, flags) == BF_OK, "%s: table", name);
    if (c && rk) {
        CHECK(bf_cuckoo_full_policy(c) == BF_CUCKOO_FULL_VICTIM, "%s: default policy", name);
        CHECK(bf_cuckoo_set_full_policy(c, BF_CUCKOO_FULL_ROLLBACK) == BF_OK &&
                  bf_cuckoo_set_max_kicks(c, 20) == BF_OK,
              "%s: rollback policy", name);
        size_t nr = fill(c, rk, cap, 5000 + b * 64 + fb, &last);
        CHECK(last == BF_EFULL, "%s: rollback never full", name);
        const size_t bytes = (size_t)bf_cuckoo_table_bytes(c);
        uint8_t *before = malloc(bytes);
        uint64_t seed = 7000 + b * 64 + fb;
        unsigned refused = 0, changed = 0, taken = 0;
        memcpy(before, bf_cuckoo_table(c), bytes);
        for (size_t t = 0; t < 3 * cap && refused < 50 && nr < cap; t++) {
            uint64_t h = tu_next(&seed);
            uint64_t cnt = bf_cuckoo_count(c);
            rc = bf_cuckoo_insert_hash(c, h);
            if (rc == BF_OK) {
                rk[nr++] = h;
                taken++;
                memcpy(before, bf_cuckoo_table(c), bytes);
            } else {
                refused++;
                changed += rc != BF_EFULL || bf_cuckoo_count(c) != cnt ||
                           memcmp(before, bf_cuckoo_table(c), bytes) != 0;
            }
        }
        CHECK(changed == 0, "%s: %u of %u refused inserts changed the table", name, changed, refused);
        CHECK(refused > 0, "%s: rollback: no refusal after the first", name);
        CHECK(missing(c, rk, nr) == 0 && bf_cuckoo_count(c) == nr, "%s: rollback lost keys", name);
        rollback_taken += taken;
        rollback_refused += refused;
        free(before);
    }
    bf_cuckoo_free(c);
    free(rk);

    /* The same key: 2b copies in an even table, then BF_EFULL. */
    c = NULL;
    CHECK(bf_cuckoo_new_table(&c, 64, b, fb, flags) == BF_OK, "%s: small table", name);
    if (c) {
        const uint64_t key = 0x0123456789abcdefULL;
        unsigned ok = 0;
        for (unsigned i = 0; i < 2 * b; i++) ok += bf_cuckoo_insert_hash(c, key) == BF_OK;
        CHECK(ok == 2 * b, "%s: %u of %u copies stored", name, ok, 2 * b);
        CHECK(bf_cuckoo_insert_hash(c, key) == BF_EFULL, "%s: copy 2b+1 stored", name);
        CHECK(bf_cuckoo_count_hash(c, key) == 2 * b, "%s: count_hash %u", name,
              bf_cuckoo_count_hash(c, key));
        unsigned removed = 0;
        while (bf_cuckoo_remove_hash(c, key) == BF_OK) removed++;
        CHECK(removed == 2 * b && bf_cuckoo_count(c) == 0 && bf_cuckoo_count_hash(c, key) == 0,
              "%s: removed %u copies", name, removed);
        bf_cuckoo_free(c);
    }

    /* Merge: two filters of half the keys each answer as one of all. */
    bf_cuckoo *h1 = NULL, *h2 = NULL;
    size_t half = (size_t)(0.4 * (double)n);
    bf_cuckoo_new_table(&h1, nb, b, fb, flags);
    bf_cuckoo_new_table(&h2, nb, b, fb, flags);
    bf_filter *f1 = NULL, *f2 = NULL;
    if (h1 && h2 && bf_filter_from_cuckoo(&f1, h1) == BF_OK && bf_filter_from_cuckoo(&f2, h2) == BF_OK) {
        unsigned bad = 0;
        for (size_t i = 0; i < half; i++) {
            bad += bf_cuckoo_insert_hash(h1, keys[i]) != BF_OK;
            bad += bf_cuckoo_insert_hash(h2, keys[half + i]) != BF_OK;
        }
        CHECK(bad == 0, "%s: halves", name);
        rc = bf_filter_merge(f1, f2);
        CHECK(rc == BF_OK, "%s: merge: %d", name, rc);
        CHECK(bf_cuckoo_count(bf_filter_cuckoo(f1)) == 2 * half, "%s: merged count", name);
        CHECK(missing(bf_filter_cuckoo(f1), keys, 2 * half) == 0, "%s: merge lost keys", name);
        /* A full destination refuses and stays as it was. */
        rc = bf_filter_merge(f1, f1);
        uint64_t cnt = bf_cuckoo_count(bf_filter_cuckoo(f1));
        CHECK(rc == BF_OK || (rc == BF_EFULL && cnt == 2 * half), "%s: self merge: %d", name, rc);
        CHECK(missing(bf_filter_cuckoo(f1), keys, 2 * half) == 0, "%s: self merge lost keys", name);
    } else {
        CHECK(0, "%s: merge setup", name);
        if (!f1) bf_cuckoo_free(h1);
        if (!f2) bf_cuckoo_free(h2);
    }
    bf_filter_free(f1);
    bf_filter_free(f2);
    free(keys);
    printf("%-22s load %.3f  FPR %.3g (model %.3g)\n", name, load, measured, model);
}

int main(void) {
    static const unsigned sizes[7] = {1, 2, 3, 4, 8, 16, 255};
    static const unsigned bits[7] = {4, 5, 8, 12, 16, 17, 32};
    for (unsigned i = 0; i < 7; i++)
        for (unsigned j = 0; j < 7; j++) check_shape(sizes[i], bits[j], 0);
    static const unsigned ss_bits[5] = {5, 8, 12, 16, 17};
    for (unsigned j = 0; j < 5; j++) check_shape(4, ss_bits[j], BF_CUCKOO_SEMISORTED);

    /* After its first failure a rollback filter still takes keys (most
     * shapes, not necessarily every one). */
    CHECK(rollback_taken > rollback_refused / 10, "rollback: %lu keys taken after a failure, %lu refused",
          rollback_taken, rollback_refused);
    printf("rollback: %lu keys taken after the first failure, %lu refused\n", rollback_taken,
           rollback_refused);

    /* Shapes outside the limits. */
    bf_cuckoo *c = NULL;
    CHECK(bf_cuckoo_new_table(&c, 10, 4, 8, 0) == BF_OK, "policy table");
    if (c) {
        CHECK(bf_cuckoo_set_full_policy(c, 2) == BF_EINVAL && bf_cuckoo_full_policy(c) == 0,
              "policy 2 refused");
        bf_cuckoo_free(c);
        c = NULL;
    }
    CHECK(bf_cuckoo_new_table(&c, 10, 0, 8, 0) == BF_EINVAL, "b = 0");
    CHECK(bf_cuckoo_new_table(&c, 10, 256, 8, 0) == BF_EINVAL, "b = 256");
    CHECK(bf_cuckoo_new_table(&c, 10, 4, 3, 0) == BF_EINVAL, "f = 3");
    CHECK(bf_cuckoo_new_table(&c, 10, 4, 33, 0) == BF_EINVAL, "f = 33");
    CHECK(bf_cuckoo_new_table(&c, 10, 2, 8, BF_CUCKOO_SEMISORTED) == BF_EINVAL, "semi-sorted b = 2");
    CHECK(bf_cuckoo_new_table(&c, 10, 4, 4, BF_CUCKOO_SEMISORTED) == BF_EINVAL, "semi-sorted f = 4");
    CHECK(bf_cuckoo_new_table(&c, 10, 4, 18, BF_CUCKOO_SEMISORTED) == BF_EINVAL, "semi-sorted f = 18");
    CHECK(bf_cuckoo_new_table(&c, 10, 4, 8, 2) == BF_EINVAL, "unknown flag");
    CHECK(bf_cuckoo_new_shape(&c, 100, 0.01, 256, 0) == BF_EINVAL, "shape b = 256");
    CHECK(bf_cuckoo_new_shape(&c, 100, 0.01, 0, 33) == BF_EINVAL, "shape f = 33");

    printf("cuckoo shapes: %lu passed, %lu failed\n", passed, failed);
    return failed ? 1 : 0;
}
