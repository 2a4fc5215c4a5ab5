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
#include "codec.h"

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

/* The chain at bucket size b: growth, lookups, deletes, the header round
 * trip (the bucket size kept), identical later choices, refusals. */
static void test_cf_chain(unsigned b) {
    bfm_cf *c;
    CHECK(bfm_cf_new(&c, 0, 0.01, b, 1, 500, 0) == BF_EINVAL, "capacity 0");
    CHECK(bfm_cf_new(&c, 10, 1.0, b, 1, 500, 0) == BF_EINVAL, "fpp 1");
    CHECK(bfm_cf_new(&c, 10, 0.01, b, 40000, 500, 0) == BF_EINVAL, "expansion");
    CHECK(bfm_cf_new(&c, 10, 0.01, b, 1, 0, 0) == BF_EINVAL, "kicks");
    CHECK(bfm_cf_new(&c, 10, 0.01, 0, 1, 500, 0) == BF_EINVAL, "bucket size 0");
    CHECK(bfm_cf_new(&c, 10, 0.01, 256, 1, 500, 0) == BF_EINVAL, "bucket size 256");
    CHECK(bfm_cf_new(&c, 100, 0.01, b, 2, 50, 99) == BF_OK, "new (b %u)", b);
    CHECK(c->bucket_size == b && bf_cuckoo_bucket_size(c->f[0]) == b, "bucket size %u", b);
    uint64_t hs[2000];
    for (int i = 0; i < 2000; i++) hs[i] = mix(1000 + (uint64_t)i);
    for (int i = 0; i < 2000; i++)
        CHECK(bfm_cf_insert(c, hs[i], false) == BFM_CF_INSERTED, "insert %d", i);
    CHECK(c->n >= 2, "grew to %u sub-filters", c->n);
    for (uint32_t i = 1; i < c->n; i++)
        CHECK(bf_cuckoo_num_buckets(c->f[i]) >= bf_cuckoo_num_buckets(c->f[i - 1]) &&
                  bf_cuckoo_num_buckets(c->f[c->n - 1]) > bf_cuckoo_num_buckets(c->f[0]),
              "each as large or larger");
    for (uint32_t i = 0; i < c->n; i++)
        CHECK(bf_cuckoo_bucket_size(c->f[i]) == b &&
                  bf_cuckoo_fingerprint_bits(c->f[i]) == bfm_cf_fp_bits(b, 0.01),
              "sub-filter %u: bucket size and fingerprint", i);
    CHECK(bfm_cf_slots(c) >= bfm_cf_items(c), "slots %llu", (unsigned long long)bfm_cf_slots(c));
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
    CHECK(bfm_cf_total_bytes(c) == bfm_cf_total_bytes(d), "same growth");
    bool same = bfm_cf_header_size(c) == bfm_cf_header_size(d);
    size_t gl = bfm_cf_header_size(c);
    uint8_t *g1 = malloc(gl), *g2 = malloc(gl);
    if (same) {
        bfm_cf_header_write(c, g1);
        bfm_cf_header_write(d, g2);
        same = memcmp(g1, g2, gl) == 0;
    }
    free(g1);
    free(g2);
    for (uint32_t i = 0; same && i < c->n; i++) {
        uint64_t na, nb;
        const uint8_t *ta = bfm_cf_table(c, i, &na), *tb = bfm_cf_table(d, i, &nb);
        same = na == nb && memcmp(ta, tb, na) == 0;
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
    bad[4] = BFM_CF_HEADER_VERSION + 1;
    CHECK(bfm_cf_from_header(&x, bad, hl) == BF_EVERSION, "version");
    /* A bucket size out of range, or fingerprints other than the ones the
     * FPR target needs at this bucket size (a weaker filter than promised),
     * with valid checksums. */
    for (int k = 0; k < 3; k++) {
        memcpy(bad, h3, hl);
        bfm_wr w = {bad, 0};
        if (k == 0) bad[20] = 0;
        if (k == 1) bad[20] = 0, bad[21] = 1; /* 256 */
        if (k == 2) bad[56 + 8] = (uint8_t)(bfm_cf_fp_bits(b, 0.01) - 1);
        w.off = hl - 8;
        bfm_put_checksum(&w);
        CHECK(bfm_cf_from_header(&x, bad, hl) == BF_ECORRUPT, "refused header field %d", k);
    }
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
    CHECK(bfm_cf_new(&c, 2 * b, 0.01, b, 1, 500, 0) == BF_OK, "new");
    int many = 400 * (int)b;
    for (int i = 0; i < many; i++) bfm_cf_insert(c, mix((uint64_t)i), false);
    uint32_t grown = c->n;
    CHECK(grown >= 3, "grown");
    CHECK(bfm_cf_compact(c) == 0 && c->n == grown, "nothing to free while full");
    bool deleted = true;
    for (int i = 0; i < many; i++) deleted &= bfm_cf_delete(c, mix((uint64_t)i));
    CHECK(deleted && bfm_cf_items(c) == 0, "every copy deleted");
    CHECK(bfm_cf_compact(c) == grown - 1 && c->n == 1, "empty sub-filters freed but the first");
    CHECK(bfm_cf_insert(c, mix(1), false) == BFM_CF_INSERTED && bfm_cf_contains(c, mix(1)),
          "adds after compaction");
    bfm_cf_free(c);
    /* The sub-filter limit holds within one batch of adds. */
    CHECK(bfm_cf_new(&c, 2 * b, 0.01, b, 1, 20, 0) == BF_OK, "new");
    int refused = 0;
    for (int i = 0; i < 1000 * (int)b; i++)
        refused += bfm_cf_insert_upto(c, mix((uint64_t)i), false, 3) == BFM_CF_NOSPACE;
    CHECK(refused > 0 && c->n == 3, "b %u: at most 3 sub-filters (%u)", b, c->n);
    bfm_cf_free(c);
    /* Expansion 0: full is final. */
    CHECK(bfm_cf_new(&c, 2 * b, 0.01, b, 0, 5, 0) == BF_OK, "new");
    int full = 0;
    for (int i = 0; i < 1000 * (int)b; i++)
        full += bfm_cf_insert(c, mix((uint64_t)i), false) == BFM_CF_NOSPACE;
    CHECK(full > 0 && c->n == 1, "no growth with expansion 0");
    bfm_cf_free(c);
}

/* The fingerprint choice keeps the FPR target at every bucket size: the
 * fewest bits whose full-load FPR meets it; a full sub-filter measures at
 * most the target; a target no 32-bit fingerprint meets is refused. */
static void test_cf_fpr(unsigned b) {
    unsigned f = bfm_cf_fp_bits(b, 0.01);
    CHECK(f >= 4 && f <= 32 && bf_cuckoo_model_fpp(b, f, 1.0) <= 0.01 &&
              (f == 4 || bf_cuckoo_model_fpp(b, f - 1, 1.0) > 0.01),
          "b %u: %u bits", b, f);
    bfm_cf *c;
    CHECK(bfm_cf_new(&c, 20000, 0.01, b, 0, 500, 0) == BF_OK, "new");
    uint64_t n = 0;
    while (bfm_cf_insert(c, mix(n), false) == BFM_CF_INSERTED) n++;
    CHECK(n >= 20000 && c->n == 1, "b %u: %llu stored before full", b, (unsigned long long)n);
    uint64_t hits = 0, probes = 200000;
    for (uint64_t i = 0; i < probes; i++) hits += bfm_cf_contains(c, mix((1ull << 40) + i));
    double fpr = (double)hits / (double)probes;
    CHECK(fpr <= 0.01, "b %u: FPR %.5f at load %.3f", b, fpr,
          (double)bfm_cf_items(c) / (double)bfm_cf_slots(c));
    CHECK(bfm_cf_est_fpp(c) <= 0.01 && bfm_cf_est_fpp(c) > fpr / 2, "b %u: estimate %.5f", b,
          bfm_cf_est_fpp(c));
    bfm_cf_free(c);
    CHECK(bfm_cf_fp_bits(b, 1e-12) == 0 && bfm_cf_new(&c, 100, 1e-12, b, 1, 20, 0) == BF_EINVAL,
          "b %u: 1e-12 needs more than 32 bits", b);
}

/* A version 1 header (written before bucket sizes: buckets of 4, 8/12/16-bit
 * fingerprints, 0 at offset 20) still loads, as buckets of 4. */
static void test_cf_header_v1(void) {
    bfm_cf *c;
    CHECK(bfm_cf_new(&c, 1000, 0.01, 4, 2, 500, 7) == BF_OK, "new");
    for (uint64_t i = 0; i < 3000; i++) bfm_cf_insert(c, mix(i), false);
    size_t hl = bfm_cf_header_size(c);
    uint8_t *h = malloc(hl);
    bfm_cf_header_write(c, h);
    CHECK(h[4] == 2 && h[20] == 4, "v2 header with its bucket size");
    h[4] = 1;
    h[20] = 0;
    for (uint32_t i = 0; i < c->n; i++) h[56 + 40 * i + 8] = 12;
    bfm_wr w = {h, hl - 8};
    bfm_put_checksum(&w);
    bfm_cf *d = NULL;
    CHECK(bfm_cf_from_header(&d, h, hl) == BF_OK, "v1 header loads");
    CHECK(d && d->bucket_size == 4 && d->n == c->n && bf_cuckoo_bucket_size(d->f[0]) == 4 &&
              bf_cuckoo_fingerprint_bits(d->f[0]) == 12 &&
              bf_cuckoo_num_buckets(d->f[0]) == bf_cuckoo_num_buckets(c->f[0]) &&
              bf_cuckoo_table_bytes(d->f[0]) == bf_cuckoo_num_buckets(d->f[0]) * 6,
          "v1: buckets of 4 slots of 12 bits");
    bfm_cf_free(d);
    d = NULL;
    h[20] = 4;
    w.off = hl - 8;
    bfm_put_checksum(&w);
    CHECK(bfm_cf_from_header(&d, h, hl) == BF_ECORRUPT && !d, "v1: offset 20 is reserved");
    h[20] = 0;
    h[56 + 8] = 10;
    w.off = hl - 8;
    bfm_put_checksum(&w);
    CHECK(bfm_cf_from_header(&d, h, hl) == BF_ECORRUPT && !d, "v1: only 8, 12 or 16 bits");
    free(h);
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
    static const unsigned sizes[] = {1, 2, 3, 4, 8, 255};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        test_cf_chain(sizes[i]);
        test_cf_fpr(sizes[i]);
    }
    test_cf_header_v1();
    test_bf_value();
    printf("%lu passed, %lu failed\n", passed, failed);
    return failed ? 1 : 0;
}
