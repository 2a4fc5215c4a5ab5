/*
 * The family tables (lib/families/family.h) and the facade over them, for every row
 * of the registry: a family added to lib/families/family.c is tested here with no
 * edit. Each family goes through every generic call; operations a family
 * does not have (a NULL entry) must give the documented answer
 * (BF_EUNSUPPORTED, or BF_EREADONLY on a read-only filter); every mutating
 * call on a read-only object, generic or family-specific, returns
 * BF_EREADONLY and writes nothing; native images round trip.
 */
#include <criterion/criterion.h>

#include "baselines_util.h"
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "families/family.h"

#include <stdlib.h>
#include <unistd.h>

#define N 3000
#define FPP 0.01

static uint64_t seed_of(const bf_filter *f) { return f->ops->seed(f->obj); }

static uint8_t *saved(const bf_filter *f, size_t *len) {
    uint8_t *buf = tb_saved(f, len);
    cr_assert_not_null(buf, "save");
    return buf;
}

/* f and g answer alike on 20000 keys. */
static void same_answers(const bf_filter *f, const bf_filter *g) {
    uint64_t *q = tb_keys(20000, 4242);
    uint8_t *a = malloc(20000), *b = malloc(20000);
    cr_assert_eq(bf_filter_contains_hashes(f, q, 20000, a), bf_filter_contains_hashes(g, q, 20000, b));
    cr_assert_eq(memcmp(a, b, 20000), 0);
    free(q);
    free(a);
    free(b);
}

Test(ops, registry_rows_are_complete) {
    cr_assert_geq(bf__family_count(), 4);
    cr_assert_null(bf__family_at(bf__family_count()));
    for (size_t i = 0; i < bf__family_count(); i++) {
        const bf_family_ops *o = bf__family_at(i);
        cr_assert_eq(o->version, BF_FAMILY_OPS_VERSION, "%s", o->name);
        cr_assert_not_null(o->name);
        cr_assert_eq(bf__family_ops(o->id), o, "%s: the id finds its own row", o->name);
        for (size_t j = 0; j < i; j++) {
            cr_assert_neq(bf__family_at(j)->id, o->id);
            cr_assert_str_neq(bf__family_at(j)->name, o->name);
        }
        /* Mandatory operations. */
        const bool mandatory[] = {
            o->size_for != NULL, o->fpp_for != NULL,
            o->create != NULL, o->destroy != NULL,
            o->insert != NULL, o->contains != NULL,
            o->insert_batch != NULL, o->contains_batch != NULL,
            o->clear != NULL, o->stats != NULL,
            o->num_bytes != NULL, o->is_readonly != NULL,
            o->seed != NULL, o->set_seed != NULL,
            o->payload_bytes != NULL, o->encode != NULL,
            o->check != NULL, o->verify != NULL,
            o->decode != NULL, o->least_inserts != NULL,
            o->name != NULL,
        };
        for (size_t j = 0; j < sizeof mandatory / sizeof mandatory[0]; j++)
            cr_assert(mandatory[j], "%s: operation %zu", o->name, j);
        cr_assert_eq(o->remove == NULL, o->remove_batch == NULL, "%s: remove in pairs", o->name);
        cr_assert_eq(o->insert_keys == NULL, o->contains_keys == NULL, "%s: key operations in pairs",
                     o->name);
        /* Names, both ways, any case. */
        cr_assert_str_eq(bf_family_name(o->id), o->name);
        bf_family id = (bf_family)0;
        char upper[32];
        size_t k = 0;
        for (; o->name[k] && k < sizeof upper - 1; k++)
            upper[k] = (char)(o->name[k] >= 'a' && o->name[k] <= 'z' ? o->name[k] - 32 : o->name[k]);
        upper[k] = 0;
        cr_assert_eq(bf_family_from_name(upper, &id), BF_OK);
        cr_assert_eq(id, o->id);
    }
    cr_assert_null(bf__family_ops((bf_family)0));
    cr_assert_null(bf__family_ops((bf_family)200));
    bf_sizing z;
    double p;
    cr_assert_eq(bf_size_for((bf_family)200, 10, 0.01, &z), BF_EFAMILY);
    cr_assert_eq(bf_fpp_for((bf_family)200, 1024, 10, &p), BF_EFAMILY);
}

/* Every generic call on one family. */
static void every_call(const bf_family_ops *o) {
    const char *nm = o->name;
    bf_sizing z;
    cr_assert_eq(bf_size_for(o->id, N, FPP, &z), BF_OK, "%s", nm);
    cr_assert_eq(z.family, o->id);
    cr_assert_leq(z.model_fpp, FPP, "%s", nm);
    double p = 1;
    cr_assert_eq(bf_fpp_for(o->id, z.num_bytes, N, &p), BF_OK, "%s", nm);
    cr_assert_leq(p, FPP * 1.000001, "%s: fpp_for %g", nm, p);

    bf_filter *f;
    cr_assert_eq(bf_filter_new(&f, o->id, N, FPP), BF_OK, "%s", nm);
    cr_assert_eq(bf_filter_family(f), o->id);
    cr_assert_eq(bf_filter_num_bytes(f), z.num_bytes);
    cr_assert_eq(bf_filter_seed(f), 0);
    bf_filter_stats st;
    cr_assert_eq(bf_filter_get_stats(f, &st), BF_OK);
    cr_assert_eq(st.family, o->id);
    cr_assert_eq(st.cells_set, 0);
    cr_assert_eq(st.inserted, 0);
    cr_assert_not_null(st.kernel);

    /* The seed: one owner, the family object. */
    cr_assert_eq(bf_filter_set_seed(f, 77), BF_OK, "%s", nm);
    cr_assert_eq(bf_filter_seed(f), 77);
    cr_assert_eq(seed_of(f), 77);
    if (bf_filter_sbbf(f)) {
        /* The SBBF's own byte-string calls hash with the filter's seed. */
        cr_assert_eq(bf_sbbf_seed(bf_filter_sbbf(f)), 77);
        cr_assert_eq(bf_sbbf_insert(bf_filter_sbbf(f), "own", 3), BF_OK);
        cr_assert(bf_filter_contains(f, "own", 3));
        cr_assert_eq(bf_filter_hash(f, "own", 3), bf_hash_xxh64_seeded("own", 3, 77));
        cr_assert_eq(bf_filter_clear(f), BF_OK);
    }

    /* Inserts: single, batch (misaligned), byte strings. */
    uint64_t *keys = tb_keys(N, 1000 + o->id);
    const size_t half = N / 2;
    for (size_t i = 0; i < half; i++) cr_assert_eq(bf_filter_insert_hash(f, keys[i]), BF_OK);
    uint8_t *raw = malloc((N - half) * 8 + 1);
    memcpy(raw + 1, keys + half, (N - half) * 8);
    size_t done = 0;
    cr_assert_eq(bf_filter_insert_hashes(f, (const uint64_t *)(void *)(raw + 1), N - half, &done),
                 BF_OK, "%s", nm);
    cr_assert_eq(done, N - half);
    cr_assert_eq(bf_filter_insert(f, "alpha", 5), BF_OK);
    cr_assert_eq(bf_filter_insert(f, "", 0), BF_OK);
    for (size_t i = 0; i < N; i++) cr_assert(bf_filter_contains_hash(f, keys[i]), "%s", nm);
    cr_assert_eq(bf_filter_contains_hashes(f, keys, N, NULL), N);
    cr_assert(bf_filter_contains(f, "alpha", 5));
    cr_assert(bf_filter_contains(f, "", 0));
    cr_assert(bf_filter_contains_hash(f, bf_hash_xxh64_seeded("alpha", 5, 77)));
    cr_assert_eq(bf_filter_contains_hashes(f, keys, 0, NULL), 0);
    cr_assert_eq(bf_filter_get_stats(f, &st), BF_OK);
    cr_assert_eq(st.inserted, N + 2);
    cr_assert_gt(st.cells_set, 0);
    cr_assert_eq(st.num_bytes, bf_filter_num_bytes(f));
    /* Not empty: the seed stays (no key may be lost); the same seed is fine. */
    cr_assert_eq(bf_filter_set_seed(f, 78), BF_EINVAL, "%s", nm);
    cr_assert_eq(bf_filter_set_seed(f, 77), BF_OK);

    /* Native round trip: copy and views (plain and verified) answer alike
     * and save the same bytes. */
    size_t len;
    uint8_t *img = saved(f, &len);
    cr_assert_eq(len, BF_HEADER_BYTES + o->payload_bytes(f->obj));
    bf_filter *g, *v, *vv;
    cr_assert_eq(bf_filter_load(&g, img, len), BF_OK, "%s", nm);
    cr_assert_eq(bf_filter_view(&v, img, len, 0), BF_OK);
    cr_assert_eq(bf_filter_view(&vv, img, len, BF_VIEW_VERIFY_PAYLOAD), BF_OK);
    bf_filter *copies[3] = {g, v, vv};
    for (unsigned c = 0; c < 3; c++) {
        same_answers(f, copies[c]);
        cr_assert_eq(bf_filter_family(copies[c]), o->id);
        cr_assert_eq(bf_filter_seed(copies[c]), 77);
        cr_assert(bf_filter_contains(copies[c], "alpha", 5));
        bf_filter_stats cs;
        cr_assert_eq(bf_filter_get_stats(copies[c], &cs), BF_OK);
        cr_assert_eq(cs.inserted, N + 2);
        cr_assert_eq(cs.cells_set, st.cells_set);
        size_t len2;
        uint8_t *again = saved(copies[c], &len2);
        cr_assert_eq(len2, len);
        cr_assert_eq(memcmp(again, img, len), 0, "%s: re-save %u", nm, c);
        free(again);
    }
    cr_assert_not(o->is_readonly(g->obj));
    cr_assert(o->is_readonly(v->obj));

    /* Remove, single and batch, or the documented answer. */
    if (o->remove) {
        cr_assert_eq(bf_filter_remove(f, "alpha", 5), BF_OK, "%s", nm);
        cr_assert_eq(bf_filter_remove_hashes(f, keys + half, N - half, &done), BF_OK, "%s", nm);
        cr_assert_eq(done, N - half);
        for (size_t i = 0; i < half; i++) cr_assert(bf_filter_contains_hash(f, keys[i]));
        for (size_t i = 0; i < half; i++) cr_assert_eq(bf_filter_remove_hash(f, keys[i]), BF_OK);
        cr_assert_eq(bf_filter_remove(f, "", 0), BF_OK);
        cr_assert_eq(bf_filter_get_stats(f, &st), BF_OK);
        cr_assert_eq(st.cells_set, 0, "%s: every key removed", nm);
        /* A batch stops at the first key it cannot remove. */
        cr_assert_eq(bf_filter_insert_hash(f, keys[0]), BF_OK);
        uint64_t two[2] = {keys[0], keys[0]};
        cr_assert_eq(bf_filter_remove_hashes(f, two, 2, &done), BF_ENOTFOUND);
        cr_assert_eq(done, 1);
    } else {
        cr_assert_eq(bf_filter_remove_hash(f, keys[0]), BF_EUNSUPPORTED, "%s", nm);
        cr_assert_eq(bf_filter_remove(f, "alpha", 5), BF_EUNSUPPORTED);
        done = 9;
        cr_assert_eq(bf_filter_remove_hashes(f, keys, 2, &done), BF_EUNSUPPORTED);
        cr_assert_eq(done, 0);
        cr_assert(bf_filter_contains_hash(f, keys[0]));
    }

    /* Merge, or the documented answer; other families never merge. */
    bf_filter *h;
    cr_assert_eq(bf_filter_new(&h, o->id, N, FPP), BF_OK);
    uint64_t *more = tb_keys(200, 5000 + o->id);
    bf_family other = o->id == BF_FAMILY_SBBF ? BF_FAMILY_BLOOM : BF_FAMILY_SBBF;
    bf_filter *x;
    cr_assert_eq(bf_filter_new(&x, other, N, FPP), BF_OK);
    cr_assert_eq(bf_filter_merge(f, x), BF_EMISMATCH, "%s", nm);
    cr_assert_eq(bf_filter_insert_hashes(h, more, 200, NULL), BF_OK);
    if (o->merge) {
        cr_assert_eq(bf_filter_merge(f, h), BF_EMISMATCH, "%s: seeds differ", nm);
        cr_assert_eq(bf_filter_clear(h), BF_OK);
        cr_assert_eq(bf_filter_set_seed(h, 77), BF_OK);
        cr_assert_eq(bf_filter_insert_hashes(h, more, 200, NULL), BF_OK);
        cr_assert_eq(bf_filter_get_stats(f, &st), BF_OK);
        uint64_t before = st.inserted;
        cr_assert_eq(bf_filter_merge(f, h), BF_OK, "%s", nm);
        cr_assert_eq(bf_filter_contains_hashes(f, more, 200, NULL), 200);
        cr_assert_eq(bf_filter_get_stats(f, &st), BF_OK);
        cr_assert_eq(st.inserted, before + 200);
        cr_assert_eq(bf_filter_merge(g, v), BF_OK, "%s: merge from a view", nm);
    } else {
        cr_assert_eq(bf_filter_merge(f, h), BF_EUNSUPPORTED, "%s", nm);
        cr_assert_eq(bf_filter_merge(g, v), BF_EUNSUPPORTED);
    }

    /* Clear: empty, count reset, a new seed allowed. */
    cr_assert_eq(bf_filter_clear(f), BF_OK);
    cr_assert_eq(bf_filter_get_stats(f, &st), BF_OK);
    cr_assert_eq(st.cells_set, 0);
    cr_assert_eq(st.inserted, 0);
    cr_assert_eq(bf_filter_contains_hashes(f, keys, N, NULL), 0, "%s: cleared", nm);
    cr_assert_eq(bf_filter_set_seed(f, 0), BF_OK);
    cr_assert_eq(bf_filter_seed(f), 0);

    /* NULL arguments. */
    cr_assert_eq(bf_filter_insert_hash(NULL, 1), BF_EINVAL);
    cr_assert_eq(bf_filter_insert_hashes(f, NULL, 1, &done), BF_EINVAL);
    cr_assert_eq(bf_filter_remove_hashes(f, NULL, 1, &done), BF_EINVAL);
    cr_assert_eq(bf_filter_insert(f, NULL, 1), BF_EINVAL);
    cr_assert_eq(bf_filter_merge(f, NULL), BF_EINVAL);
    cr_assert_eq(bf_filter_clear(NULL), BF_EINVAL);
    cr_assert_eq(bf_filter_set_seed(NULL, 1), BF_EINVAL);
    cr_assert_eq(bf_filter_get_stats(f, NULL), BF_EINVAL);

    free(more);
    free(raw);
    free(keys);
    free(img);
    bf_filter_free(x);
    bf_filter_free(h);
    bf_filter_free(vv);
    bf_filter_free(v);
    bf_filter_free(g);
    bf_filter_free(f);
}

Test(ops, every_generic_call_on_every_family) {
    for (size_t i = 0; i < bf__family_count(); i++) every_call(bf__family_at(i));
}

/* ---- the read-only rule ---------------------------------------------------- */

/* Every mutating call on an SBBF view. */
static void sbbf_view_refuses(bf_sbbf *s) {
    const uint64_t h[2] = {1, 2};
    cr_assert(bf_sbbf_is_readonly(s));
    cr_assert_eq(bf_sbbf_insert_hash(s, 1), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_insert_hashes(s, h, 2), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_insert_hashes(s, h, 0), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_insert(s, "x", 1), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_insert_int32(s, 1), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_insert_int64(s, 1), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_insert_float(s, 1.0f), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_insert_double(s, 1.0), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_insert_hash_concurrent(s, 1), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_insert_hashes_concurrent(s, h, 2), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_clear(s), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_merge(s, s), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_set_seed(s, 3), BF_EREADONLY);
    cr_assert_eq(bf_sbbf_set_seed(s, bf_sbbf_seed(s)), BF_EREADONLY);
}

/* Every mutating call of the scalable API on a chain that is a view; the
 * chain (layers, counts, seed) is unchanged. */
static void scalable_view_refuses(bf_scalable *c) {
    const uint64_t h[2] = {1, 2};
    uint8_t added[2] = {9, 9};
    size_t done = 9;
    bool one = true;
    bf_scalable_stats before, after;
    cr_assert_eq(bf_scalable_get_stats(c, &before), BF_OK);
    cr_assert_eq(bf_scalable_insert_hash(c, 1, &one), BF_EREADONLY);
    cr_assert_eq(bf_scalable_insert_hash(c, 1, NULL), BF_EREADONLY);
    cr_assert_eq(bf_scalable_insert_hashes(c, h, 2, added, &done), BF_EREADONLY);
    cr_assert_eq(done, 0);
    cr_assert_eq(bf_scalable_insert(c, "x", 1, NULL), BF_EREADONLY);
    cr_assert_eq(bf_scalable_clear(c), BF_EREADONLY);
    cr_assert_eq(bf_scalable_set_seed(c, bf_scalable_seed(c) + 1), BF_EREADONLY);
    cr_assert_eq(bf_scalable_set_seed(c, bf_scalable_seed(c)), BF_EREADONLY);
    const uint8_t zero[8] = {0};
    cr_assert_eq(bf_scalable_write_layer(c, 0, 0, zero, sizeof zero), BF_EREADONLY);
    cr_assert_eq(bf_scalable_get_stats(c, &after), BF_OK);
    cr_assert(before.count == after.count && before.num_layers == after.num_layers &&
              before.fill_ratio == after.fill_ratio);
    /* Its layers are SBBF views: each refuses every SBBF write too. */
    for (size_t i = 0; i < before.num_layers; i++) {
        bf_scalable_layer l;
        cr_assert_eq(bf_scalable_get_layer(c, i, &l), BF_OK);
        sbbf_view_refuses((bf_sbbf *)l.sbbf);
    }
}

/* The family object under a read-only bf_filter refuses every write of its
 * own API too. */
static void family_object_refuses(bf_filter *v) {
    if (bf_filter_sbbf(v)) {
        sbbf_view_refuses(bf_filter_sbbf(v));
    } else if (bf_filter_bloom(v)) {
        cr_assert_eq(bf_bloom_insert_hash(bf_filter_bloom(v), 1), BF_EREADONLY);
        cr_assert_eq(bf_bloom_insert_hash_concurrent(bf_filter_bloom(v), 1), BF_EREADONLY);
    } else if (bf_filter_counting(v)) {
        cr_assert_eq(bf_counting_insert_hash(bf_filter_counting(v), 1), BF_EREADONLY);
        cr_assert_eq(bf_counting_remove_hash(bf_filter_counting(v), 1), BF_EREADONLY);
    } else if (bf_filter_cuckoo(v)) {
        cr_assert_eq(bf_cuckoo_insert_hash(bf_filter_cuckoo(v), 1), BF_EREADONLY);
        cr_assert_eq(bf_cuckoo_remove_hash(bf_filter_cuckoo(v), 1), BF_EREADONLY);
    } else if (bf_filter_scalable(v)) {
        scalable_view_refuses(bf_filter_scalable(v));
    } else if (bf_filter_blocked(v)) {
        bf_blocked *b = bf_filter_blocked(v);
        const uint64_t h = 1;
        const int64_t i64 = 1;
        cr_assert_eq(bf_blocked_insert_hash(b, 1), BF_EREADONLY);
        cr_assert_eq(bf_blocked_insert_hashes(b, &h, 1), BF_EREADONLY);
        cr_assert_eq(bf_blocked_insert(b, "x", 1), BF_EREADONLY);
        cr_assert_eq(bf_blocked_insert_int64s(b, &i64, 1), BF_EREADONLY);
        cr_assert_eq(bf_blocked_clear(b), BF_EREADONLY);
        cr_assert_eq(bf_blocked_set_seed(b, 9), BF_EREADONLY);
        cr_assert_eq(bf_blocked_merge(b, b), BF_EREADONLY);
    } else {
        cr_assert_fail("%s: no family object to check: add its mutating calls here",
                       bf_family_name(bf_filter_family(v)));
    }
}

/* Every generic mutating call on a read-only filter, whatever the family
 * supports; nothing changes. */
static void generic_refuses(bf_filter *v, bf_filter *writable) {
    const uint64_t h[3] = {1, 2, 3};
    size_t done = 9;
    cr_assert_eq(bf_filter_insert_hash(v, 1), BF_EREADONLY);
    cr_assert_eq(bf_filter_insert(v, "x", 1), BF_EREADONLY);
    cr_assert_eq(bf_filter_insert_hashes(v, h, 3, &done), BF_EREADONLY);
    cr_assert_eq(done, 0);
    cr_assert_eq(bf_filter_remove_hash(v, 1), BF_EREADONLY);
    cr_assert_eq(bf_filter_remove(v, "x", 1), BF_EREADONLY);
    done = 9;
    cr_assert_eq(bf_filter_remove_hashes(v, h, 3, &done), BF_EREADONLY);
    cr_assert_eq(done, 0);
    cr_assert_eq(bf_filter_clear(v), BF_EREADONLY);
    cr_assert_eq(bf_filter_set_seed(v, bf_filter_seed(v) + 1), BF_EREADONLY);
    cr_assert_eq(bf_filter_set_seed(v, bf_filter_seed(v)), BF_EREADONLY);
    cr_assert_eq(bf_filter_merge(v, writable), BF_EREADONLY);
    cr_assert_eq(bf_filter_merge(v, v), BF_EREADONLY);
    bf_filter *x;
    bf_family other = bf_filter_family(v) == BF_FAMILY_SBBF ? BF_FAMILY_CUCKOO : BF_FAMILY_SBBF;
    cr_assert_eq(bf_filter_new(&x, other, 100, 0.01), BF_OK);
    cr_assert_eq(bf_filter_merge(v, x), BF_EREADONLY, "read-only wins over a mismatch");
    bf_filter_free(x);
    family_object_refuses(v);
}

Test(ops, read_only_rule_every_family_every_call) {
    for (size_t i = 0; i < bf__family_count(); i++) {
        const bf_family_ops *o = bf__family_at(i);
        bf_filter *f;
        cr_assert_eq(bf_filter_new(&f, o->id, 500, FPP), BF_OK);
        cr_assert_eq(bf_filter_set_seed(f, 5), BF_OK);
        uint64_t *keys = tb_keys(400, 7);
        cr_assert_eq(bf_filter_insert_hashes(f, keys, 400, NULL), BF_OK);
        size_t len;
        uint8_t *img = saved(f, &len);
        uint8_t *before = malloc(len);
        memcpy(before, img, len);
        for (unsigned flags = 0; flags < 2; flags++) {
            bf_filter *v;
            cr_assert_eq(bf_filter_view(&v, img, len, flags), BF_OK, "%s", o->name);
            cr_assert(o->is_readonly(v->obj));
            generic_refuses(v, f);
            cr_assert_eq(bf_filter_contains_hashes(v, keys, 400, NULL), 400, "%s", o->name);
            bf_filter_stats st;
            cr_assert_eq(bf_filter_get_stats(v, &st), BF_OK);
            cr_assert_eq(st.inserted, 400);
            bf_filter_free(v);
        }
        cr_assert_eq(memcmp(before, img, len), 0, "%s: the image is untouched", o->name);
        free(before);
        free(img);
        free(keys);
        bf_filter_free(f);
    }
}

Test(ops, read_only_rule_sbbf_views) {
    bf_sbbf *f;
    cr_assert_eq(bf_sbbf_new(&f, 1000, 0.01), BF_OK);
    for (int i = 0; i < 1000; i++) cr_assert_eq(bf_sbbf_insert_int32(f, i), BF_OK);
    const size_t nb = bf_sbbf_num_bytes(f);
    uint8_t *copy = malloc(nb);
    memcpy(copy, bf_sbbf_bitset(f), nb);
    /* A view over a bitset. */
    bf_sbbf *v;
    cr_assert_eq(bf_sbbf_view(&v, copy, nb), BF_OK);
    sbbf_view_refuses(v);
    cr_assert_eq(memcmp(copy, bf_sbbf_bitset(f), nb), 0);
    cr_assert_eq(bf_sbbf_merge(f, v), BF_OK, "a view can be merged from");
    bf_sbbf_free(v);
    /* A view over a Parquet serialisation. */
    size_t plen = bf_sbbf_parquet_size(f), w;
    uint8_t *pq = malloc(plen);
    cr_assert_eq(bf_sbbf_to_parquet(f, pq, plen, &w), BF_OK);
    cr_assert_eq(bf_sbbf_view_parquet(&v, pq, plen, NULL), BF_OK);
    sbbf_view_refuses(v);
    for (int i = 0; i < 1000; i++) cr_assert(bf_sbbf_contains_int32(v, i));
    bf_sbbf_free(v);
    /* Writable objects accept what views refuse. */
    cr_assert_eq(bf_sbbf_insert_hashes(f, NULL, 0), BF_OK);
    cr_assert_eq(bf_sbbf_insert_hashes(f, NULL, 1), BF_EINVAL);
    cr_assert_eq(bf_sbbf_insert_hashes(NULL, NULL, 0), BF_EINVAL);
    cr_assert_eq(bf_sbbf_insert_hashes_concurrent(f, NULL, 1), BF_EINVAL);
    cr_assert_eq(bf_sbbf_insert(f, NULL, 1), BF_EINVAL);
    cr_assert_eq(bf_sbbf_insert(NULL, "x", 1), BF_EINVAL);
    cr_assert_eq(bf_sbbf_insert_hash_concurrent(f, 5), BF_OK);
    cr_assert_eq(bf_sbbf_insert_double(f, 2.5), BF_OK);
    cr_assert(bf_sbbf_contains_double(f, 2.5));
    free(pq);
    free(copy);
    bf_sbbf_free(f);
}

/* Mapped files are views too. */
Test(ops, read_only_rule_mapped_files) {
    char path[] = "/tmp/bf_ops_XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    for (size_t i = 0; i < bf__family_count(); i++) {
        const bf_family_ops *o = bf__family_at(i);
        bf_filter *f, *m;
        cr_assert_eq(bf_filter_new(&f, o->id, 300, FPP), BF_OK);
        cr_assert_eq(bf_filter_insert(f, "k", 1), BF_OK);
        cr_assert_eq(bf_filter_save_file(f, path), BF_OK);
        cr_assert_eq(bf_filter_map_file(&m, path, BF_VIEW_VERIFY_PAYLOAD), BF_OK, "%s", o->name);
        generic_refuses(m, f);
        cr_assert(bf_filter_contains(m, "k", 1));
        bf_filter_free(m);
        bf_filter_free(f);
    }
    unlink(path);
}
