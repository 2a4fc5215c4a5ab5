/*
 * Allocation failure at every allocation site of the scalable SBBF, in the
 * pattern of tests/robust/test_alloc_fail.c: the n-th allocation is made to
 * fail for n = 0, 1, 2, ... until the call succeeds. Every failure must
 * return BF_ENOMEM, leave the out-parameter (or the chain) unchanged and
 * leak nothing. Growth is swept too: an add that needs a new layer fails
 * with BF_ENOMEM and the chain is byte for byte what it was.
 */
#include "scalable_util.h"

#include <criterion/criterion.h>
#include <stdio.h>

#define SENTINEL ((bf_scalable *)(uintptr_t)0x5eed)

typedef int (*ctor_fn)(void *ctx, bf_scalable **out);

static unsigned sweep(const char *what, ctor_fn ctor, void *ctx) {
    for (long n = 0; n < 1000; n++) {
        long live0 = bf__alloc_live();
        bf_scalable *obj = SENTINEL;
        bf__alloc_fail_after(n);
        int rc = ctor(ctx, &obj);
        bf__alloc_fail_after(-1);
        if (rc == BF_OK) {
            cr_assert(obj != SENTINEL && obj != NULL, "%s: success without a result", what);
            bf_scalable_free(obj);
            cr_assert_eq(bf__alloc_live(), live0, "%s: leak after success", what);
            fprintf(stderr, "alloc-fail: %-40s %2ld site(s), each -> BF_ENOMEM, no leak\n", what, n);
            return (unsigned)n;
        }
        cr_assert_eq(rc, BF_ENOMEM, "%s: allocation %ld failing gave %s", what, n, bf_strerror(rc));
        cr_assert_eq(obj, SENTINEL, "%s: out-parameter written on failure", what);
        cr_assert_eq(bf__alloc_live(), live0, "%s: allocation %ld failing leaked %ld", what, n,
                     bf__alloc_live() - live0);
    }
    cr_assert_fail("%s: never succeeded", what);
    return 0;
}

static int c_new(void *ctx, bf_scalable **o) { return bf_scalable_new(o, ctx); }

Test(alloc_fail, new) {
    bf_scalable_params small = {100, 0.01, 0, 0, 0};
    bf_scalable_params big = {2000000, 0.01, 0, 0, 0}; /* mmap'ed bitset */
    bf_scalable_params ns = {100, 0.01, 0, 0, BF_SCALABLE_NONSCALING};
    cr_expect_eq(sweep("bf_scalable_new", c_new, &small), 4u);
    cr_expect_eq(sweep("bf_scalable_new (2 MiB+ layer)", c_new, &big), 4u);
    cr_expect_eq(sweep("bf_scalable_new (non-scaling)", c_new, &ns), 4u);
}

typedef struct stored {
    bf_scalable_params p;
    bf_native_params w;
    bf_scalable_layer_desc d[BF_SCALABLE_MAX_LAYERS];
    size_t n;
    uint8_t *payload;
    size_t len;
    bool view;
} stored;

static void make_stored(stored *s, size_t layers) {
    s->p = (bf_scalable_params){100, 0.01, 2, 0.5, 0};
    bf_scalable *f = NULL;
    cr_assert_eq(bf_scalable_new(&f, &s->p), BF_OK);
    uint64_t k = 3;
    bf_scalable_layer l;
    while (bf_scalable_get_layer(f, layers - 1, &l) != BF_OK)
        cr_assert_eq(bf_scalable_insert_hash(f, tu_next(&k), NULL), BF_OK);
    for (s->n = 0; bf_scalable_get_layer(f, s->n, &l) == BF_OK; s->n++)
        s->d[s->n] = (bf_scalable_layer_desc){l.capacity, l.count, bf_sbbf_num_bytes(l.sbbf)};
    s->payload = su_encode(f, &s->len, &s->w);
    cr_assert_not_null(s->payload);
    bf_scalable_free(f);
}

static int c_restore(void *ctx, bf_scalable **o) {
    stored *s = ctx;
    return bf_scalable_restore(o, &s->p, 7, s->d, s->n);
}
static int c_decode(void *ctx, bf_scalable **o) {
    stored *s = ctx;
    return su_decode(o, &s->w, s->payload, s->len, 7, s->view);
}

Test(alloc_fail, restore_and_decode) {
    stored s;
    make_stored(&s, 6);
    /* chain, layer array, then two per layer (object, bitset). */
    cr_expect_eq(sweep("bf_scalable_restore (6 layers)", c_restore, &s), 2u + 2 * 6);
    s.view = false;
    cr_expect_eq(sweep("payload decode, copy (6 layers)", c_decode, &s), 2u + 2 * 6);
    s.view = true;
    cr_expect_eq(sweep("payload decode, view (6 layers)", c_decode, &s), 2u + 6);
    free(s.payload);
}

/* Growth under failing allocations: for the add that appends layer
 * `target` (0-based), every failing site gives BF_ENOMEM and no change. */
static void sweep_growth(size_t target, unsigned want_sites, bool batch) {
    bf_scalable_params p = {16, 0.01, 2, 0.5, 0};
    bf_scalable *f = NULL;
    cr_assert_eq(bf_scalable_new(&f, &p), BF_OK);
    uint64_t k = 11;
    bf_scalable_layer l;
    /* Fill until layer target-1 is full. */
    for (;;) {
        if (bf_scalable_get_layer(f, target - 1, &l) == BF_OK && l.count == l.capacity) break;
        cr_assert_eq(bf_scalable_insert_hash(f, tu_next(&k), NULL), BF_OK);
    }
    uint64_t key;
    do {
        key = tu_next(&k);
    } while (bf_scalable_contains_hash(f, key));
    size_t len0;
    uint8_t *snap0 = su_snapshot(f, &len0);
    cr_assert_not_null(snap0);
    for (long n = 0; n < 100; n++) {
        long live0 = bf__alloc_live();
        bool added = true;
        size_t done = 99;
        bf__alloc_fail_after(n);
        int rc = batch ? bf_scalable_insert_hashes(f, &key, 1, NULL, &done)
                       : bf_scalable_insert_hash(f, key, &added);
        bf__alloc_fail_after(-1);
        if (rc == BF_OK) {
            cr_expect_eq((unsigned)n, want_sites, "growth to layer %zu: %ld sites", target, n);
            cr_expect(bf_scalable_get_layer(f, target, &l) == BF_OK && l.count == 1);
            cr_expect(bf_scalable_contains_hash(f, key));
            fprintf(stderr, "alloc-fail: growth to layer %zu (%s) %2ld site(s)\n", target,
                    batch ? "batch" : "single", n);
            break;
        }
        cr_assert_eq(rc, BF_ENOMEM, "growth, allocation %ld: %s", n, bf_strerror(rc));
        cr_assert_eq(bf__alloc_live(), live0, "growth, allocation %ld leaked", n);
        if (batch)
            cr_expect_eq(done, 0u);
        else
            cr_expect(added, "added written on failure");
        size_t len1;
        uint8_t *snap1 = su_snapshot(f, &len1);
        cr_assert(snap1 && len1 == len0 && memcmp(snap0, snap1, len0) == 0,
                  "a failed growth changed the chain");
        free(snap1);
        cr_expect(!bf_scalable_contains_hash(f, key));
    }
    free(snap0);
    bf_scalable_free(f);
}

Test(alloc_fail, growth) {
    /* Two sites each time: the new layer's SBBF object and its bitset. The
     * layer array starts with room for 4 and doubles: growing to layers 4
     * and 8 first fails at n = 0 on the array itself; at n = 1 the array
     * grows (invisible: same layers) and the SBBF object fails; n = 2
     * succeeds. */
    sweep_growth(1, 2, false);
    sweep_growth(3, 2, true);
    sweep_growth(4, 2, false);
    sweep_growth(4, 2, true);
    sweep_growth(8, 2, false);
    sweep_growth(9, 2, true);
}

/* A batch that must grow midway stops at the key that could not be
 * written: the keys before it are in, done says how many. */
Test(alloc_fail, batch_stops_at_failed_growth) {
    bf_scalable_params p = {100, 0.01, 2, 0.5, 0};
    bf_scalable *f = NULL;
    cr_assert_eq(bf_scalable_new(&f, &p), BF_OK);
    uint64_t *h = su_hashes(5, 1000);
    uint8_t added[1000];
    memset(added, 9, sizeof added);
    size_t done = 0;
    bf__alloc_fail_after(0);
    int rc = bf_scalable_insert_hashes(f, h, 1000, added, &done);
    bf__alloc_fail_after(-1);
    cr_expect_eq(rc, BF_ENOMEM);
    bf_scalable_stats in;
    bf_scalable_get_stats(f, &in);
    cr_expect_eq(in.num_layers, 1u);
    cr_expect_eq(in.count, 100u);
    cr_expect(done >= 100 && done < 1000, "done %zu", done);
    size_t n_added = 0;
    for (size_t i = 0; i < done; i++) n_added += added[i] == 1;
    cr_expect_eq(n_added, 100u);
    cr_expect_eq(added[done], 9, "the refused key's flag was written");
    for (size_t i = 0; i < done; i++) cr_expect(bf_scalable_contains_hash(f, h[i]));
    /* It resumes where it stopped. */
    cr_expect_eq(bf_scalable_insert_hashes(f, h + done, 1000 - done, added + done, NULL), BF_OK);
    cr_expect_eq(bf_scalable_contains_hashes(f, h, 1000, NULL), 1000u);
    free(h);
    bf_scalable_free(f);
}
