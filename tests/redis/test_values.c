/* The Redis module's values without a server: the cuckoo filter's state
 * access (count, kick limit, table and state, rebuild byte for byte and
 * identical later choices), the cuckoo chain (growth, deletes, counts), and
 * both dump headers (round trips, clones, every refusal). Plain C: also
 * runs under qemu (aarch64). */
#include <stdlib.h>
#include <string.h>

#include <blockfilter.h>
#include <blockfilter_advanced.h>

#include "bf_value.h"
#include "cf_chain.h"
#include "check.h"

static uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static bool same_state(const bf_cuckoo_state *a, const bf_cuckoo_state *b) {
    return a->count == b->count && a->victim_index == b->victim_index &&
           a->victim_fp == b->victim_fp && a->rng == b->rng;
}

/* A copy of f through its table and state only. */
static bf_cuckoo *rebuild(const bf_cuckoo *f) {
    bf_cuckoo *g = NULL;
    if (bf_cuckoo_new_buckets(&g, bf_cuckoo_num_buckets(f), bf_cuckoo_fingerprint_bits(f)) != BF_OK)
        return NULL;
    bf_cuckoo_state s;
    bf_cuckoo_get_state(f, &s);
    CHECK(bf_cuckoo_write_table(g, 0, bf_cuckoo_table(f), bf_cuckoo_table_bytes(f)) == BF_OK, "write");
    CHECK(bf_cuckoo_set_state(g, &s) == BF_OK, "set state");
    bf_cuckoo_set_max_kicks(g, bf_cuckoo_max_kicks(f));
    return g;
}

static void test_cuckoo_state(void) {
    bf_cuckoo *f;
    CHECK(bf_cuckoo_new(&f, 1000, 0.01) == BF_OK, "new");
    CHECK(bf_cuckoo_max_kicks(f) == 500, "default kick limit %u", bf_cuckoo_max_kicks(f));
    CHECK(bf_cuckoo_set_max_kicks(f, 0) == BF_EINVAL, "0 kicks");
    CHECK(bf_cuckoo_set_max_kicks(f, 65536) == BF_EINVAL, "65536 kicks");
    CHECK(bf_cuckoo_set_max_kicks(f, 20) == BF_OK && bf_cuckoo_max_kicks(f) == 20, "20 kicks");
    uint64_t h = mix(1);
    CHECK(bf_cuckoo_count_hash(f, h) == 0, "absent");
    for (int i = 1; i <= 8; i++) {
        CHECK(bf_cuckoo_insert_hash(f, h) == BF_OK, "copy %d", i);
        CHECK(bf_cuckoo_count_hash(f, h) == (unsigned)i, "count %d", i);
    }
    CHECK(bf_cuckoo_insert_hash(f, h) == BF_EFULL, "9th copy");
    CHECK(bf_cuckoo_remove_hash(f, h) == BF_OK && bf_cuckoo_count_hash(f, h) == 7, "remove one copy");
    /* Fill to the victim slot: kicks happen; the rebuilt copy must make
     * the same choices afterwards. */
    size_t stored = 0;
    for (uint64_t i = 2; i < 3000 && bf_cuckoo_insert_hash(f, mix(i)) == BF_OK; i++) stored++;
    bf_cuckoo_state st;
    bf_cuckoo_get_state(f, &st);
    CHECK(st.victim_fp != 0, "victim taken after %zu inserts", stored);
    bf_cuckoo *g = rebuild(f);
    CHECK(g && memcmp(bf_cuckoo_table(f), bf_cuckoo_table(g), bf_cuckoo_table_bytes(f)) == 0, "rebuilt");
    for (uint64_t i = 2; i < 400; i += 3) {
        int a = bf_cuckoo_remove_hash(f, mix(i)), b = bf_cuckoo_remove_hash(g, mix(i));
        CHECK(a == b, "remove %llu", (unsigned long long)i);
    }
    for (uint64_t i = 5000; i < 5200; i++) {
        int a = bf_cuckoo_insert_hash(f, mix(i)), b = bf_cuckoo_insert_hash(g, mix(i));
        CHECK(a == b, "insert %llu", (unsigned long long)i);
    }
    CHECK(memcmp(bf_cuckoo_table(f), bf_cuckoo_table(g), bf_cuckoo_table_bytes(f)) == 0,
          "same choices after the rebuild");
    bf_cuckoo_state sf, sg;
    bf_cuckoo_get_state(f, &sf);
    bf_cuckoo_get_state(g, &sg);
    CHECK(same_state(&sf, &sg), "same state");
    /* Refusals leave the state alone. */
    bf_cuckoo_state bad = sf;
    bad.victim_fp = 1u << bf_cuckoo_fingerprint_bits(f);
    CHECK(bf_cuckoo_set_state(g, &bad) == BF_ECORRUPT, "fingerprint too wide");
    bad = sf;
    bad.victim_fp = 3;
    bad.victim_index = bf_cuckoo_num_buckets(f);
    CHECK(bf_cuckoo_set_state(g, &bad) == BF_ECORRUPT, "victim bucket out of range");
    bad = sf;
    bad.victim_fp = 0;
    bad.victim_index = 1;
    CHECK(bf_cuckoo_set_state(g, &bad) == BF_ECORRUPT, "bucket without a victim");
    bad = sf;
    bad.count = bf_cuckoo_num_buckets(f) * 4 + 2;
    CHECK(bf_cuckoo_set_state(g, &bad) == BF_ECORRUPT, "count over the slots");
    bad = sf;
    bad.rng = 0;
    CHECK(bf_cuckoo_set_state(g, &bad) == BF_ECORRUPT, "zero generator");
    bf_cuckoo_get_state(g, &sg);
    CHECK(same_state(&sf, &sg), "state kept after refusals");
    uint8_t x[4] = {1, 2, 3, 4};
    uint64_t nb = bf_cuckoo_table_bytes(g);
    CHECK(bf_cuckoo_write_table(g, nb - 4, x, 4) == BF_OK, "write at the end");
    CHECK(bf_cuckoo_write_table(g, nb - 3, x, 4) == BF_EINVAL, "write past the end");
    CHECK(bf_cuckoo_write_table(g, UINT64_MAX, x, 1) == BF_EINVAL, "huge offset");
    CHECK(bf_cuckoo_write_table(g, 0, NULL, 1) == BF_EINVAL, "NULL source");
    bf_cuckoo_free(f);
    bf_cuckoo_free(g);
}

static void test_cf_chain(void) {
    bfm_cf *c;
    CHECK(bfm_cf_new(&c, 0, 0.01, 1, 500, 0) == BF_EINVAL, "capacity 0");
    CHECK(bfm_cf_new(&c, 10, 1.0, 1, 500, 0) == BF_EINVAL, "fpp 1");
    CHECK(bfm_cf_new(&c, 10, 0.01, 40000, 500, 0) == BF_EINVAL, "expansion");
    CHECK(bfm_cf_new(&c, 10, 0.01, 1, 0, 0) == BF_EINVAL, "kicks");
    CHECK(bfm_cf_new(&c, 100, 0.01, 2, 50, 99) == BF_OK, "new");
    uint64_t hs[2000];
    for (int i = 0; i < 2000; i++) hs[i] = mix(1000 + (uint64_t)i);
    for (int i = 0; i < 2000; i++)
        CHECK(bfm_cf_insert(c, hs[i], false) == BFM_CF_INSERTED, "insert %d", i);
    CHECK(c->n >= 4, "grew to %u sub-filters", c->n);
    for (uint32_t i = 1; i < c->n; i++)
        CHECK(bf_cuckoo_num_buckets(c->f[i]) > bf_cuckoo_num_buckets(c->f[i - 1]), "each larger");
    int fn = 0;
    for (int i = 0; i < 2000; i++) fn += !bfm_cf_contains(c, hs[i]);
    CHECK(fn == 0, "%d false negatives", fn);
    CHECK(bfm_cf_items(c) == 2000, "items %llu", (unsigned long long)bfm_cf_items(c));
    /* Batch lookups agree with single ones over every sub-filter. */
    uint64_t q[4000];
    uint8_t out[4000];
    for (int i = 0; i < 4000; i++) q[i] = i < 2000 ? hs[i] : mix(900000 + (uint64_t)i);
    bfm_cf_contains_hashes(c, q, 4000, out);
    int disagree = 0;
    for (int i = 0; i < 4000; i++) disagree += out[i] != bfm_cf_contains(c, q[i]);
    CHECK(disagree == 0, "%d batch answers differ", disagree);
    CHECK(bfm_cf_insert(c, hs[0], true) == BFM_CF_EXISTS, "nx on a present item");
    CHECK(bfm_cf_count(c, hs[5]) >= 1, "count");
    CHECK(bfm_cf_delete(c, hs[5]) && c->deletes == 1, "delete");
    /* Round trip through the header and the tables. */
    size_t hl = bfm_cf_header_size(c);
    uint8_t *h = malloc(hl);
    bfm_cf_header_write(c, h);
    bfm_cf *d = NULL;
    CHECK(bfm_cf_from_header(&d, h, hl) == BF_OK, "from header");
    for (uint32_t i = 0; d && i < c->n; i++) {
        uint64_t nb;
        const uint8_t *t = bfm_cf_table(c, i, &nb);
        uint64_t off = 0;
        size_t f = 99;
        uint64_t fo = 0, left = 0;
        for (uint32_t j = 0; j < i; j++) off += bf_cuckoo_table_bytes(c->f[j]);
        CHECK(bfm_dump_locate(&bfm_cf_ops, c, off, &f, &fo, &left) && f == i && fo == 0 && left == nb,
              "locate %u", i);
        CHECK(bf_cuckoo_write_table(d->f[i], 0, t, nb) == BF_OK, "write %u", i);
    }
    bfm_cf *e = bfm_dump_clone(&bfm_cf_ops, c);
    CHECK(e != NULL, "clone");
    uint8_t *h2 = malloc(hl), *h3 = malloc(hl);
    bfm_cf_header_write(d, h2);
    bfm_cf_header_write(e, h3);
    CHECK(memcmp(h, h2, hl) == 0 && memcmp(h, h3, hl) == 0, "headers equal");
    for (int i = 2000; i < 2600; i++) {
        bfm_cf_insert(c, mix(5000 + (uint64_t)i), false);
        bfm_cf_insert(d, mix(5000 + (uint64_t)i), false);
    }
    bfm_cf_header_write(c, h);
    bfm_cf_header_write(d, h2);
    CHECK(bfm_cf_total_bytes(c) == bfm_cf_total_bytes(d), "same growth");
    bool same = bfm_cf_header_size(c) == bfm_cf_header_size(d) && memcmp(h, h2, hl) == 0;
    for (uint32_t i = 0; same && i < c->n; i++) {
        uint64_t a, b;
        const uint8_t *ta = bfm_cf_table(c, i, &a), *tb = bfm_cf_table(d, i, &b);
        same = a == b && memcmp(ta, tb, a) == 0;
    }
    CHECK(same, "the restored chain makes the same choices");
    /* Refusals. */
    bfm_cf *x = NULL;
    uint8_t *bad = malloc(hl);
    memcpy(bad, h3, hl);
    CHECK(bfm_cf_from_header(&x, bad, hl - 1) == BF_EFORMAT, "short");
    bad[0] = 'X';
    CHECK(bfm_cf_from_header(&x, bad, hl) == BF_EFORMAT, "magic");
    memcpy(bad, h3, hl);
    bad[4] = 2;
    CHECK(bfm_cf_from_header(&x, bad, hl) == BF_EVERSION, "version");
    memcpy(bad, h3, hl);
    bad[40] ^= 1;
    CHECK(bfm_cf_from_header(&x, bad, hl) == BF_ECORRUPT, "checksum");
    CHECK(bfm_cf_from_header(&x, NULL, 0) == BF_EFORMAT, "NULL");
    CHECK(x == NULL, "nothing built");
    free(h);
    free(h2);
    free(h3);
    free(bad);
    bfm_cf_free(c);
    bfm_cf_free(d);
    bfm_cf_free(e);
    /* Compaction frees only the newest empty sub-filters, never the first. */
    CHECK(bfm_cf_new(&c, 8, 0.01, 1, 500, 0) == BF_OK, "new");
    for (int i = 0; i < 40; i++) bfm_cf_insert(c, mix((uint64_t)i), false);
    uint32_t grown = c->n;
    CHECK(grown >= 3, "grown");
    CHECK(bfm_cf_compact(c) == 0 && c->n == grown, "nothing to free while full");
    bool deleted = true;
    for (int i = 0; i < 40; i++) deleted &= bfm_cf_delete(c, mix((uint64_t)i));
    CHECK(deleted && bfm_cf_items(c) == 0, "every copy deleted");
    CHECK(bfm_cf_compact(c) == grown - 1 && c->n == 1, "empty sub-filters freed but the first");
    CHECK(bfm_cf_insert(c, mix(1), false) == BFM_CF_INSERTED && bfm_cf_contains(c, mix(1)),
          "adds after compaction");
    bfm_cf_free(c);
    /* Expansion 0: full is final. */
    CHECK(bfm_cf_new(&c, 8, 0.01, 0, 5, 0) == BF_OK, "new");
    int full = 0;
    for (int i = 0; i < 100; i++) full += bfm_cf_insert(c, mix((uint64_t)i), false) == BFM_CF_NOSPACE;
    CHECK(full > 0 && c->n == 1, "no growth with expansion 0");
    bfm_cf_free(c);
}

static void test_bf_value(void) {
    bf_scalable_params p = {100, 0.01, 2, 0, 0};
    bfm_bf *b;
    CHECK(bfm_bf_new(&b, &p, 777) == BF_OK, "new");
    CHECK(b->params.ratio == BF_SCALABLE_DEFAULT_RATIO, "effective ratio stored");
    for (uint64_t i = 0; i < 5000; i++) bf_scalable_insert_hash(b->sc, mix(i), NULL);
    size_t n = bfm_bf_num_layers(b);
    CHECK(n >= 5, "%zu layers", n);
    CHECK(bfm_bf_capacity(b) >= 5000 && bfm_bf_count(b) <= 5000, "capacity / count");
    bfm_bf *c = bfm_dump_clone(&bfm_bf_ops, b);
    CHECK(c != NULL, "clone");
    size_t hl = bfm_bf_header_size(b);
    uint8_t *h = malloc(hl), *h2 = malloc(hl);
    bfm_bf_header_write(b, h);
    bfm_bf_header_write(c, h2);
    CHECK(memcmp(h, h2, hl) == 0, "clone header");
    uint64_t off = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t na, nb;
        const uint8_t *x = bfm_bf_layer(b, i, &na), *y = bfm_bf_layer(c, i, &nb);
        CHECK(na == nb && memcmp(x, y, na) == 0, "layer %zu", i);
        size_t l = 99;
        uint64_t lo = 0, left = 0;
        CHECK(bfm_dump_locate(&bfm_bf_ops, b, off + na - 1, &l, &lo, &left) && l == i && lo == na - 1 &&
                  left == 1,
              "locate the last byte of layer %zu", i);
        off += na;
    }
    size_t l;
    uint64_t lo, left;
    CHECK(!bfm_dump_locate(&bfm_bf_ops, b, off, &l, &lo, &left), "past the end");
    CHECK(off == bfm_bf_total_bytes(b) && off == bfm_dump_total_bytes(&bfm_bf_ops, b), "total bytes");
    /* LOADCHUNK positions: iter = 1 + the offset after the chunk. */
    uint64_t n0;
    bfm_bf_layer(b, 0, &n0);
    uint8_t ones[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    CHECK(bfm_dump_write_chunk(&bfm_bf_ops, c, 1 + 8, ones, 8), "first bytes");
    CHECK(bfm_bf_layer(c, 0, &n0)[7] == 0xff, "written at offset 0");
    CHECK(bfm_dump_write_chunk(&bfm_bf_ops, c, (long long)n0 + 1, ones, 8), "last bytes of layer 0");
    CHECK(!bfm_dump_write_chunk(&bfm_bf_ops, c, (long long)n0 + 5, ones, 8), "across two layers");
    CHECK(!bfm_dump_write_chunk(&bfm_bf_ops, c, 8, ones, 8), "before the start");
    CHECK(!bfm_dump_write_chunk(&bfm_bf_ops, c, -1, ones, 0), "negative");
    CHECK(!bfm_dump_write_chunk(&bfm_bf_ops, c, (long long)off + 2, ones, 1), "past the end");
    CHECK(bf_scalable_seed(c->sc) == 777, "seed kept");
    bfm_bf *x = NULL;
    CHECK(bfm_bf_from_header(&x, h, hl - 8) == BF_EFORMAT, "short");
    h2[4] = 9;
    CHECK(bfm_bf_from_header(&x, h2, hl) == BF_EVERSION, "version");
    memcpy(h2, h, hl);
    h2[50] ^= 1;
    CHECK(bfm_bf_from_header(&x, h2, hl) == BF_ECORRUPT, "checksum");
    CHECK(x == NULL, "nothing built");
    free(h);
    free(h2);
    bfm_bf_free(b);
    bfm_bf_free(c);
}

int main(void) {
    test_cuckoo_state();
    test_cf_chain();
    test_bf_value();
    printf("%lu passed, %lu failed\n", passed, failed);
    return failed ? 1 : 0;
}
