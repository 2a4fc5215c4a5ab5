/*
 * Allocation failure at every allocation site. For each constructor and
 * loader, the n-th allocation is made to fail for n = 0, 1, 2, ... until the
 * call succeeds: every failure must return BF_ENOMEM, leave the out-parameter
 * untouched, and leak nothing (bf__alloc_live() back to its value before).
 * The number of failing n is the number of allocation sites on that path.
 */
#define _GNU_SOURCE
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "common/internal.h"
#include "robust_util.h"

#include <criterion/criterion.h>
#include <unistd.h>

#define SENTINEL ((void *)(uintptr_t)0x5eed)

typedef int (*ctor_fn)(void *ctx, void **out);
typedef void (*dtor_fn)(void *obj);

/* Returns the number of allocation sites the call went through. */
static unsigned sweep(const char *what, ctor_fn ctor, dtor_fn dtor, void *ctx) {
    for (long n = 0; n < 10000; n++) {
        long live0 = bf__alloc_live();
        void *obj = SENTINEL;
        bf__alloc_fail_after(n);
        int rc = ctor(ctx, &obj);
        bf__alloc_fail_after(-1);
        if (rc == BF_OK) {
            cr_assert(obj != SENTINEL && obj != NULL, "%s: success without a result", what);
            dtor(obj);
            cr_assert_eq(bf__alloc_live(), live0, "%s: %ld allocations leaked after success", what,
                         bf__alloc_live() - live0);
            fprintf(stderr, "alloc-fail: %-34s %2ld site(s), each -> BF_ENOMEM, no leak\n", what, n);
            return (unsigned)n;
        }
        cr_assert_eq(rc, BF_ENOMEM, "%s: allocation %ld failing gave %d (%s), not BF_ENOMEM", what,
                     n, rc, bf_strerror(rc));
        cr_assert_eq(obj, SENTINEL, "%s: out-parameter written on failure", what);
        cr_assert_eq(bf__alloc_live(), live0, "%s: allocation %ld failing leaked %ld", what, n,
                     bf__alloc_live() - live0);
    }
    cr_assert_fail("%s: never succeeded", what);
    return 0;
}

/* ---- constructors ---- */
static void sbbf_dtor(void *o) { bf_sbbf_free(o); }
static void filter_dtor(void *o) { bf_filter_free(o); }
static void bloom_dtor(void *o) { bf_bloom_free(o); }
static void counting_dtor(void *o) { bf_counting_free(o); }
static void cuckoo_dtor(void *o) { bf_cuckoo_free(o); }

static int c_sbbf_new(void *ctx, void **o) { (void)ctx; return bf_sbbf_new((bf_sbbf **)o, 1000, 0.01); }
static int c_sbbf_new_bytes(void *ctx, void **o) { return bf_sbbf_new_bytes((bf_sbbf **)o, *(size_t *)ctx); }
static int c_sbbf_new_parquet(void *ctx, void **o) { (void)ctx; return bf_sbbf_new_parquet((bf_sbbf **)o, 1000, 0.01); }
static int c_sbbf_new_kernel(void *ctx, void **o) { return bf_sbbf_new_bytes_kernel((bf_sbbf **)o, 1024, ctx); }
static int c_bloom_new(void *ctx, void **o) { (void)ctx; return bf_bloom_new((bf_bloom **)o, 1000, 0.01); }
static int c_bloom_new_mk(void *ctx, void **o) { (void)ctx; return bf_bloom_new_bits((bf_bloom **)o, 10007, 7); }
static int c_counting_new(void *ctx, void **o) { (void)ctx; return bf_counting_new((bf_counting **)o, 1000, 0.01); }
static int c_cuckoo_new(void *ctx, void **o) { (void)ctx; return bf_cuckoo_new((bf_cuckoo **)o, 1000, 0.01); }
static int c_cuckoo_new_buckets(void *ctx, void **o) { (void)ctx; return bf_cuckoo_new_buckets((bf_cuckoo **)o, 300, 12); }
static int c_filter_new(void *ctx, void **o) {
    return bf_filter_new((bf_filter **)o, *(bf_family *)ctx, 1000, 0.01);
}

Test(alloc_fail, sbbf_constructors) {
    unsigned total = 0;
    total += sweep("bf_sbbf_new", c_sbbf_new, sbbf_dtor, NULL);
    size_t small = 1024, big = (size_t)8 << 20; /* heap and mmap payloads */
    total += sweep("bf_sbbf_new_bytes(1 KiB)", c_sbbf_new_bytes, sbbf_dtor, &small);
    total += sweep("bf_sbbf_new_bytes(8 MiB)", c_sbbf_new_bytes, sbbf_dtor, &big);
    total += sweep("bf_sbbf_new_parquet", c_sbbf_new_parquet, sbbf_dtor, NULL);
    for (size_t i = 0; i < bf_sbbf_kernel_count(); i++) {
        const char *k = bf_sbbf_kernel_name(i);
        if (!bf_sbbf_kernel_supported(k)) continue;
        char what[64];
        snprintf(what, sizeof what, "bf_sbbf_new_bytes_kernel(%s)", k);
        total += sweep(what, c_sbbf_new_kernel, sbbf_dtor, (void *)k);
    }
    cr_assert_gt(total, 0u, "no allocation site was reached");
}

Test(alloc_fail, baseline_constructors) {
    cr_assert_gt(sweep("bf_bloom_new", c_bloom_new, bloom_dtor, NULL), 0u);
    cr_assert_gt(sweep("bf_bloom_new_bits", c_bloom_new_mk, bloom_dtor, NULL), 0u);
    cr_assert_gt(sweep("bf_counting_new", c_counting_new, counting_dtor, NULL), 0u);
    cr_assert_gt(sweep("bf_cuckoo_new", c_cuckoo_new, cuckoo_dtor, NULL), 0u);
    cr_assert_gt(sweep("bf_cuckoo_new_buckets", c_cuckoo_new_buckets, cuckoo_dtor, NULL), 0u);
}

/* Every family the library knows. */
static bf_family families[255];
static size_t nfamilies(void) { return tu_families(families); }

Test(alloc_fail, filter_new) {
    for (size_t i = 0, nf = nfamilies(); i < nf; i++) {
        bf_family fam = families[i];
        char what[64];
        snprintf(what, sizeof what, "bf_filter_new(%s)", bf_family_name(fam));
        cr_assert_gt(sweep(what, c_filter_new, filter_dtor, &fam), 0u);
    }
}

/* ---- loaders ---- */
typedef struct blob {
    uint8_t *buf;
    size_t len;
    unsigned flags;
    const char *path;
} blob;

static void make_image(bf_family fam, int keyed, blob *b) {
    bf_filter *f = NULL;
    cr_assert_eq(bf_filter_new(&f, fam, 500, 0.01), BF_OK);
    if (keyed) cr_assert_eq(bf_filter_set_seed(f, 0x0123456789abcdefu), BF_OK);
    for (int i = 0; i < 200; i++) {
        char key[32];
        int n = snprintf(key, sizeof key, "key-%d", i);
        cr_assert_eq(bf_filter_insert(f, key, (size_t)n), BF_OK);
    }
    b->len = bf_filter_save_size(f);
    b->buf = malloc(b->len);
    cr_assert_not_null(b->buf);
    size_t w = 0;
    cr_assert_eq(bf_filter_save(f, b->buf, b->len, &w), BF_OK);
    cr_assert_eq(w, b->len);
    bf_filter_free(f);
}

static int c_filter_load(void *ctx, void **o) {
    blob *b = ctx;
    return bf_filter_load((bf_filter **)o, b->buf, b->len);
}
static int c_filter_view(void *ctx, void **o) {
    blob *b = ctx;
    return bf_filter_view((bf_filter **)o, b->buf, b->len, b->flags);
}
static int c_filter_load_file(void *ctx, void **o) {
    return bf_filter_load_file((bf_filter **)o, ((blob *)ctx)->path);
}
static int c_filter_map_file(void *ctx, void **o) {
    blob *b = ctx;
    return bf_filter_map_file((bf_filter **)o, b->path, b->flags);
}

Test(alloc_fail, filter_load_and_view) {
    for (size_t i = 0, nf = nfamilies(); i < nf; i++) {
        for (int keyed = 0; keyed < 2; keyed++) {
            blob b = {0};
            make_image(families[i], keyed, &b);
            char what[64];
            const char *fn = bf_family_name(families[i]);
            snprintf(what, sizeof what, "bf_filter_load(%s%s)", fn, keyed ? ",keyed" : "");
            cr_assert_gt(sweep(what, c_filter_load, filter_dtor, &b), 0u);
            b.flags = 0;
            snprintf(what, sizeof what, "bf_filter_view(%s%s)", fn, keyed ? ",keyed" : "");
            cr_assert_gt(sweep(what, c_filter_view, filter_dtor, &b), 0u);
            b.flags = BF_VIEW_VERIFY_PAYLOAD;
            snprintf(what, sizeof what, "bf_filter_view(%s%s,verify)", fn, keyed ? ",keyed" : "");
            cr_assert_gt(sweep(what, c_filter_view, filter_dtor, &b), 0u);
            free(b.buf);
        }
    }
}

static int c_from_parquet(void *ctx, void **o) {
    blob *b = ctx;
    return bf_sbbf_from_parquet((bf_sbbf **)o, b->buf, b->len, NULL);
}
static int c_view_parquet(void *ctx, void **o) {
    blob *b = ctx;
    size_t consumed;
    return bf_sbbf_view_parquet((bf_sbbf **)o, b->buf, b->len, &consumed);
}
static int c_sbbf_view(void *ctx, void **o) {
    blob *b = ctx;
    return bf_sbbf_view((bf_sbbf **)o, b->buf, b->len);
}

Test(alloc_fail, sbbf_parquet_and_views) {
    bf_sbbf *f = NULL;
    cr_assert_eq(bf_sbbf_new_bytes(&f, 1024), BF_OK);
    bf_sbbf_insert(f, "hello", 5);
    blob b = {0};
    b.len = bf_sbbf_parquet_size(f);
    b.buf = malloc(b.len);
    cr_assert_eq(bf_sbbf_to_parquet(f, b.buf, b.len, &b.len), BF_OK);
    cr_assert_gt(sweep("bf_sbbf_from_parquet", c_from_parquet, sbbf_dtor, &b), 0u);
    cr_assert_gt(sweep("bf_sbbf_view_parquet", c_view_parquet, sbbf_dtor, &b), 0u);
    blob raw = {(uint8_t *)bf_sbbf_bitset(f), 1024, 0, NULL};
    cr_assert_gt(sweep("bf_sbbf_view", c_sbbf_view, sbbf_dtor, &raw), 0u);
    free(b.buf);
    bf_sbbf_free(f);
}

Test(alloc_fail, files) {
    char dir[] = "/tmp/bf-allocfail-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/f.bflt", dir);
    for (size_t i = 0, nf = nfamilies(); i < nf; i++) {
        bf_filter *f = NULL;
        cr_assert_eq(bf_filter_new(&f, families[i], 500, 0.01), BF_OK);
        bf_filter_insert(f, "x", 1);
        /* Save: failures leave no file behind and leak nothing. */
        for (long n = 0;; n++) {
            long live0 = bf__alloc_live();
            bf__alloc_fail_after(n);
            int rc = bf_filter_save_file(f, path);
            bf__alloc_fail_after(-1);
            cr_assert_eq(bf__alloc_live(), live0, "bf_filter_save_file leaked");
            if (rc == BF_OK) {
                fprintf(stderr, "alloc-fail: %-34s %2ld site(s), each -> BF_ENOMEM, no leak\n",
                        "bf_filter_save_file", n);
                break;
            }
            cr_assert_eq(rc, BF_ENOMEM, "bf_filter_save_file: %s", bf_strerror(rc));
            cr_assert_neq(access(path, F_OK), 0, "a failed first save left a file");
            cr_assert_lt(n, 100);
        }
        bf_filter_free(f);
        blob b = {NULL, 0, 0, path};
        char what[64];
        snprintf(what, sizeof what, "bf_filter_load_file(%s)", bf_family_name(families[i]));
        cr_assert_gt(sweep(what, c_filter_load_file, filter_dtor, &b), 0u);
        b.flags = BF_VIEW_VERIFY_PAYLOAD;
        snprintf(what, sizeof what, "bf_filter_map_file(%s)", bf_family_name(families[i]));
        cr_assert_gt(sweep(what, c_filter_map_file, filter_dtor, &b), 0u);
        cr_assert_eq(unlink(path), 0);
    }
    cr_assert_eq(rmdir(dir), 0, "temporary files left in %s", dir);
}
