/*
 * Rebuilding stored chains: bf_scalable_restore + bf_scalable_write_layer
 * round trips (byte for byte, same answers, same growth afterwards), every
 * inconsistent layer description rejected with BF_ECORRUPT, write bounds;
 * the native-format payload (directory + bitsets) and parameter words the
 * generic layer will use, copied and as a read-only view.
 */
#include "scalable_util.h"

#include <criterion/criterion.h>
#include <math.h>

static const bf_scalable_params P = {100, 0.01, 2, 0.5, 0};

/* A chain of P grown to `layers` layers, keyed. */
static bf_scalable *grown(const bf_scalable_params *p, size_t layers, uint64_t seed) {
    bf_scalable *f = NULL;
    cr_assert_eq(bf_scalable_new(&f, p), BF_OK);
    cr_assert_eq(bf_scalable_set_seed(f, seed), BF_OK);
    uint64_t s = 1000 + layers;
    bf_scalable_layer l;
    for (;;) {
        char key[32];
        int n = snprintf(key, sizeof key, "key-%llu", (unsigned long long)tu_next(&s));
        cr_assert_eq(bf_scalable_insert(f, key, (size_t)n, NULL), BF_OK);
        if (bf_scalable_get_layer(f, layers - 1, &l) == BF_OK && l.count >= l.capacity / 3) break;
    }
    return f;
}

static size_t describe(const bf_scalable *f, bf_scalable_layer_desc *d) {
    size_t n = 0;
    bf_scalable_layer l;
    while (bf_scalable_get_layer(f, n, &l) == BF_OK) {
        d[n] = (bf_scalable_layer_desc){l.capacity, l.count, bf_sbbf_num_bytes(l.sbbf)};
        n++;
    }
    return n;
}

/* Restores f's chain through the public calls, copying each bitset in
 * pieces of `piece` bytes. */
static bf_scalable *rebuild(const bf_scalable *f, const bf_scalable_params *p, size_t piece) {
    bf_scalable_layer_desc d[BF_SCALABLE_MAX_LAYERS];
    size_t n = describe(f, d);
    bf_scalable *g = NULL;
    int rc = bf_scalable_restore(&g, p, bf_scalable_seed(f), d, n);
    cr_assert_eq(rc, BF_OK, "restore: %s", bf_strerror(rc));
    for (size_t i = 0; i < n; i++) {
        bf_scalable_layer l;
        bf_scalable_get_layer(g, i, &l);
        const uint8_t *z = bf_sbbf_bitset(l.sbbf);
        for (uint64_t b = 0; b < d[i].num_bytes; b++) cr_assert_eq(z[b], 0, "restored bits not zero");
        bf_scalable_get_layer(f, i, &l);
        const uint8_t *src = bf_sbbf_bitset(l.sbbf);
        for (uint64_t off = 0; off < d[i].num_bytes; off += piece) {
            size_t len = d[i].num_bytes - off < piece ? (size_t)(d[i].num_bytes - off) : piece;
            cr_assert_eq(bf_scalable_write_layer(g, i, off, src + off, len), BF_OK);
        }
    }
    return g;
}

Test(restore, round_trip) {
    const size_t pieces[] = {1, 7, 32, 4096, (size_t)1 << 30};
    for (size_t layers = 1; layers <= 9; layers += 4) {
        bf_scalable *f = grown(&P, layers, 0x1234);
        for (size_t k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
            if (pieces[k] == 1 && layers > 5) continue; /* byte at a time: small chains only */
            bf_scalable *g = rebuild(f, &P, pieces[k]);
            cr_expect(su_same(f, g), "layers %zu piece %zu: bytes differ", layers, pieces[k]);
            bf_scalable_stats a, b;
            bf_scalable_get_stats(f, &a);
            bf_scalable_get_stats(g, &b);
            cr_expect(a.count == b.count && a.capacity == b.capacity && a.num_bytes == b.num_bytes &&
                      a.num_layers == b.num_layers && a.est_fpp == b.est_fpp &&
                      a.fill_ratio == b.fill_ratio && a.bound_fpp == b.bound_fpp);
            cr_expect_eq(bf_scalable_seed(g), 0x1234u);
            uint64_t *q = su_hashes(layers * 7 + k, 20000);
            uint8_t oa[20000], ob[20000];
            cr_expect_eq(bf_scalable_contains_hashes(f, q, 20000, oa),
                         bf_scalable_contains_hashes(g, q, 20000, ob));
            cr_expect(memcmp(oa, ob, sizeof oa) == 0);
            cr_expect(bf_scalable_contains(g, "never", 5) == bf_scalable_contains(f, "never", 5));
            free(q);
            /* Both keep growing the same way. */
            if (k == 2) {
                bf_scalable *f2 = rebuild(f, &P, 4096);
                uint64_t *more = su_hashes(99, 30000);
                cr_assert_eq(bf_scalable_insert_hashes(f2, more, 30000, NULL, NULL), BF_OK);
                cr_assert_eq(bf_scalable_insert_hashes(g, more, 30000, NULL, NULL), BF_OK);
                cr_expect(su_same(f2, g), "growth after restore differs");
                free(more);
                bf_scalable_free(f2);
            }
            bf_scalable_free(g);
        }
        bf_scalable_free(f);
    }
}

Test(restore, nonscaling_and_defaults) {
    bf_scalable_params ns = {500, 0.001, 0, 0, BF_SCALABLE_NONSCALING};
    bf_scalable *f = grown(&ns, 1, 0);
    bf_scalable *g = rebuild(f, &ns, 64);
    cr_expect(su_same(f, g));
    bf_scalable_free(g);
    /* An empty one-layer chain (count 0) is a valid description. */
    bf_scalable_layer_desc d = {500, 0, 0};
    bf_scalable_layer l;
    bf_scalable_get_layer(f, 0, &l);
    d.num_bytes = bf_sbbf_num_bytes(l.sbbf);
    cr_expect_eq(bf_scalable_restore(&g, &ns, 0, &d, 1), BF_OK);
    bf_scalable_stats in;
    bf_scalable_get_stats(g, &in);
    cr_expect_eq(in.count, 0u);
    bf_scalable_free(g);
    bf_scalable_free(f);
}

Test(restore, inconsistent_descriptions_rejected) {
    bf_scalable *f = grown(&P, 4, 0);
    bf_scalable_layer_desc good[BF_SCALABLE_MAX_LAYERS + 1], d[BF_SCALABLE_MAX_LAYERS + 1];
    size_t n = describe(f, good);
    cr_assert_eq(n, 4u);
    bf_scalable *g = (bf_scalable *)(uintptr_t)1;
#define EXPECT_CORRUPT(count, what)                                                      \
    do {                                                                                 \
        cr_expect_eq(bf_scalable_restore(&g, &P, 0, d, (count)), BF_ECORRUPT, "%s", what); \
        cr_expect_eq(g, (bf_scalable *)(uintptr_t)1, "%s: out written", what);          \
        memcpy(d, good, sizeof good);                                                    \
    } while (0)
    memcpy(d, good, sizeof good);
    EXPECT_CORRUPT(0, "no layer");
    for (size_t i = 0; i < n; i++) {
        d[i].capacity++;
        EXPECT_CORRUPT(n, "capacity + 1");
        d[i].capacity--;
        EXPECT_CORRUPT(n, "capacity - 1");
        d[i].capacity = 0;
        EXPECT_CORRUPT(n, "capacity 0");
        d[i].num_bytes += 32;
        EXPECT_CORRUPT(n, "one block more");
        d[i].num_bytes -= 32;
        EXPECT_CORRUPT(n, "one block less");
        d[i].num_bytes += 1;
        EXPECT_CORRUPT(n, "not whole blocks");
        d[i].num_bytes = 0;
        EXPECT_CORRUPT(n, "no bytes");
        d[i].num_bytes = UINT64_MAX;
        EXPECT_CORRUPT(n, "huge bytes");
        d[i].count = d[i].capacity + 1;
        EXPECT_CORRUPT(n, "count above capacity");
        d[i].count = UINT64_MAX;
        EXPECT_CORRUPT(n, "count huge");
    }
    for (size_t i = 0; i + 1 < n; i++) {
        d[i].count--;
        EXPECT_CORRUPT(n, "an older layer not full");
    }
    d[n - 1].count = 0;
    EXPECT_CORRUPT(n, "an empty newest layer after others");
    /* Layers out of order. */
    d[1] = good[2];
    d[2] = good[1];
    EXPECT_CORRUPT(n, "swapped layers");
    /* The layers of another expansion or ratio. */
    bf_scalable_params other = P;
    other.expansion = 3;
    cr_expect_eq(bf_scalable_restore(&g, &other, 0, good, n), BF_ECORRUPT);
    other = P;
    other.ratio = 0.6;
    cr_expect_eq(bf_scalable_restore(&g, &other, 0, good, n), BF_ECORRUPT);
    other = P;
    other.fpp = 0.02;
    cr_expect_eq(bf_scalable_restore(&g, &other, 0, good, n), BF_ECORRUPT);
    other = P;
    other.capacity = 101;
    cr_expect_eq(bf_scalable_restore(&g, &other, 0, good, n), BF_ECORRUPT);
    /* Non-scaling holds exactly one layer. */
    other = P;
    other.flags = BF_SCALABLE_NONSCALING;
    cr_expect_eq(bf_scalable_restore(&g, &other, 0, good, n), BF_ECORRUPT);
    /* More layers than the limit (each description otherwise irrelevant). */
    for (size_t i = n; i <= BF_SCALABLE_MAX_LAYERS; i++) d[i] = good[n - 1];
    cr_expect_eq(bf_scalable_restore(&g, &P, 0, d, BF_SCALABLE_MAX_LAYERS + 1), BF_ECORRUPT);
    cr_expect_eq(bf_scalable_restore(&g, &P, 0, d, SIZE_MAX), BF_ECORRUPT);
    /* Invalid parameters and NULLs are the caller's error. */
    memcpy(d, good, sizeof good);
    other = P;
    other.fpp = 0;
    cr_expect_eq(bf_scalable_restore(&g, &other, 0, good, n), BF_EINVAL);
    cr_expect_eq(bf_scalable_restore(&g, NULL, 0, good, n), BF_EINVAL);
    cr_expect_eq(bf_scalable_restore(NULL, &P, 0, good, n), BF_EINVAL);
    cr_expect_eq(bf_scalable_restore(&g, &P, 0, NULL, n), BF_EINVAL);
    cr_expect_eq(g, (bf_scalable *)(uintptr_t)1);
    /* The good description still restores. */
    cr_expect_eq(bf_scalable_restore(&g, &P, 0, good, n), BF_OK);
    bf_scalable_free(g);
    bf_scalable_free(f);
#undef EXPECT_CORRUPT
}

Test(restore, write_layer_bounds) {
    bf_scalable *f = grown(&P, 2, 0);
    bf_scalable_layer l;
    bf_scalable_get_layer(f, 1, &l);
    const size_t bytes = bf_sbbf_num_bytes(l.sbbf);
    uint8_t *buf = calloc(bytes + 64, 1);
    cr_assert_not_null(buf);
    memset(buf, 0xff, bytes + 64);
    cr_expect_eq(bf_scalable_write_layer(f, 1, 0, buf, bytes + 1), BF_EINVAL);
    cr_expect_eq(bf_scalable_write_layer(f, 1, 1, buf, bytes), BF_EINVAL);
    cr_expect_eq(bf_scalable_write_layer(f, 1, bytes, buf, 1), BF_EINVAL);
    cr_expect_eq(bf_scalable_write_layer(f, 1, UINT64_MAX, buf, 2), BF_EINVAL, "offset wraps");
    cr_expect_eq(bf_scalable_write_layer(f, 2, 0, buf, 1), BF_EINVAL, "no such layer");
    cr_expect_eq(bf_scalable_write_layer(f, SIZE_MAX, 0, buf, 1), BF_EINVAL);
    cr_expect_eq(bf_scalable_write_layer(f, 0, 0, NULL, 1), BF_EINVAL);
    cr_expect_eq(bf_scalable_write_layer(NULL, 0, 0, buf, 1), BF_EINVAL);
    cr_expect_eq(bf_scalable_write_layer(f, 0, 0, NULL, 0), BF_OK, "nothing to write");
    cr_expect_eq(bf_scalable_write_layer(f, 1, bytes, buf, 0), BF_OK, "empty write at the end");
    /* Nothing was written by the refused calls. */
    bf_scalable *g = rebuild(f, &P, 4096);
    cr_expect(su_same(f, g));
    /* A full-layer write lands exactly there. */
    cr_expect_eq(bf_scalable_write_layer(f, 1, 0, buf, bytes), BF_OK);
    bf_scalable_get_layer(f, 1, &l);
    cr_expect(memcmp(bf_sbbf_bitset(l.sbbf), buf, bytes) == 0);
    cr_expect(bf_scalable_contains_hash(f, 42));
    bf_scalable_free(g);
    bf_scalable_free(f);
    free(buf);
}

/* ---- the native payload and header words ---------------------------------- */

/* The payload through the family's table (what the native container
 * calls), and the header's family words p0..p3. */
typedef bf_native_params words;

static uint8_t *encode(const bf_scalable *f, size_t *len, words *w) {
    uint8_t *b = su_encode(f, len, w);
    cr_assert_not_null(b);
    return b;
}

static int decode(bf_scalable **out, const words *w, const uint8_t *buf, size_t len,
                  uint64_t seed, bool view) {
    return su_decode(out, w, buf, len, seed, view);
}

static int check(const words *w, const uint8_t *buf, size_t len) {
    return bf__scalable_ops.check(w, buf, len);
}

static int verify(const words *w, const uint8_t *buf, size_t len) {
    return bf__scalable_ops.verify(w, buf, len);
}

Test(payload, round_trip_copy_and_view) {
    bf_scalable *f = grown(&P, 5, 0xabcdef);
    size_t len;
    words w;
    uint8_t *buf = encode(f, &len, &w);
    bf_scalable_layer l;
    uint64_t dir = 32 + 32 * 5, bits = 0;
    for (size_t i = 0; i < 5; i++) {
        bf_scalable_get_layer(f, i, &l);
        bits += bf_sbbf_num_bytes(l.sbbf);
    }
    cr_expect_eq(len, dir + bits);
    cr_expect_eq(bf_load_le64(buf), 5u);
    cr_expect(w.p0 == P.capacity && w.p1 == P.expansion && w.p2 == P.flags && w.p3 == 0);
    double fpp, ratio;
    uint64_t u = bf_load_le64(buf + 8);
    memcpy(&fpp, &u, 8);
    u = bf_load_le64(buf + 16);
    memcpy(&ratio, &u, 8);
    cr_expect(fpp == P.fpp && ratio == P.ratio);
    cr_expect_eq(check(&w, buf, len), BF_OK);
    cr_expect_eq(verify(&w, buf, len), BF_OK);
    bf_scalable_stats in;
    bf_scalable_get_stats(f, &in);
    /* Every key written was one add: the count is the least inserts. */
    cr_expect_eq(bf__scalable_ops.least_inserts(f), in.count);
    for (int view = 0; view < 2; view++) {
        bf_scalable *g = NULL;
        cr_assert_eq(decode(&g, &w, buf, len, 0xabcdef, view), BF_OK);
        cr_expect(su_same(f, g));
        cr_expect_eq(bf__scalable_ops.is_readonly(g), (bool)view);
        cr_expect_eq(bf_scalable_seed(g), 0xabcdefu);
        cr_expect(bf_scalable_contains(g, "absent?", 7) == bf_scalable_contains(f, "absent?", 7));
        bf_scalable_stats gi;
        bf_scalable_get_stats(g, &gi);
        cr_expect(gi.fpp == in.fpp && gi.ratio == in.ratio && gi.expansion == in.expansion &&
                  gi.count == in.count && gi.bound_fpp == in.bound_fpp);
        bf_scalable_get_layer(g, 2, &l);
        if (view) {
            cr_expect(bf_sbbf_is_readonly(l.sbbf));
            bf_scalable_layer l0, l1;
            bf_scalable_get_layer(f, 0, &l0);
            bf_scalable_get_layer(f, 1, &l1);
            cr_expect(bf_sbbf_bitset(l.sbbf) ==
                          buf + dir + bf_sbbf_num_bytes(l0.sbbf) + bf_sbbf_num_bytes(l1.sbbf),
                      "not a view");
            /* The read-only rule: every mutating call refuses. */
            bool a = true;
            cr_expect_eq(bf_scalable_insert_hash(g, 1, &a), BF_EREADONLY);
            cr_expect(a);
            cr_expect_eq(bf_scalable_insert(g, "x", 1, NULL), BF_EREADONLY);
            size_t done = 9;
            uint64_t hs[2] = {1, 2};
            cr_expect_eq(bf_scalable_insert_hashes(g, hs, 2, NULL, &done), BF_EREADONLY);
            cr_expect_eq(done, 0u);
            cr_expect_eq(bf_scalable_set_seed(g, 5), BF_EREADONLY);
            cr_expect_eq(bf_scalable_clear(g), BF_EREADONLY);
            cr_expect_eq(bf_scalable_write_layer(g, 0, 0, buf, 1), BF_EREADONLY);
            cr_expect(su_same(f, g));
        } else {
            cr_expect(!bf_sbbf_is_readonly(l.sbbf));
            cr_expect_eq(bf_scalable_insert(g, "x", 1, NULL), BF_OK);
        }
        bf_scalable_free(g);
    }
    free(buf);
    bf_scalable_free(f);
}

/* Every truncation and every corrupted head or directory word is refused;
 * a flipped bitset bit is only data for check, but verify catches bits a
 * layer's count cannot explain. */
Test(payload, corrupt_and_truncated) {
    bf_scalable *f = grown(&P, 3, 0);
    size_t len;
    words w;
    uint8_t *buf = encode(f, &len, &w);
    bf_scalable *g = NULL;
    for (size_t cut = 0; cut < len; cut += (cut < 200 ? 1 : 97)) {
        int rc = decode(&g, &w, buf, cut, 0, cut & 1);
        cr_expect(rc == BF_ETRUNCATED || rc == BF_ECORRUPT, "cut %zu: %d", cut, rc);
        cr_expect_eq(check(&w, buf, cut), rc);
    }
    uint8_t *longer = malloc(len + 1);
    memcpy(longer, buf, len);
    longer[len] = 0;
    cr_expect_eq(decode(&g, &w, longer, len + 1, 0, false), BF_ECORRUPT);
    free(longer);
    const size_t dir = 32 + 32 * 3;
    /* The newest layer's count may take any value in 1..capacity; the low
     * mantissa bytes of fpp and ratio may change the targets too little to
     * move any layer's size (the native container's checksum catches such
     * corruption, not the structure). Everything else must be refused. */
    const size_t free_lo = 32 + 32 * 2 + 8, free_hi = free_lo + 8;
    size_t refused = 0;
    for (size_t off = 0; off < dir; off++)
        for (int bit = 0; bit < 8; bit += 3) {
            buf[off] ^= (uint8_t)(1u << bit);
            int rc = decode(&g, &w, buf, len, 0, off & 1);
            cr_expect_eq(check(&w, buf, len), rc);
            bool may_pass = (off >= free_lo && off < free_hi) || (off >= 8 && off < 14) ||
                            (off >= 16 && off < 22);
            if (may_pass && rc == BF_OK) {
                bf_scalable_free(g);
            } else {
                cr_expect(rc == BF_ECORRUPT || rc == BF_ETRUNCATED, "byte %zu bit %d: %d", off,
                          bit, rc);
                refused++;
            }
            buf[off] ^= (uint8_t)(1u << bit);
        }
    cr_expect(refused >= 3 * (dir - 20), "%zu refused", refused);
    /* A bitset bit is data for check; verify counts bits against counts. */
    buf[dir + 5] ^= 0x10;
    cr_expect_eq(decode(&g, &w, buf, len, 0, false), BF_OK);
    bf_scalable_free(g);
    buf[dir + 5] ^= 0x10;
    cr_expect_eq(verify(&w, buf, len), BF_OK);
    bf_scalable_layer l0;
    bf_scalable_get_layer(f, 0, &l0);
    memset(buf + dir, 0xff, bf_sbbf_num_bytes(l0.sbbf)); /* 1280 bits from 100 keys */
    cr_expect_eq(check(&w, buf, len), BF_OK);
    cr_expect_eq(verify(&w, buf, len), BF_ECORRUPT);
    cr_expect_eq(decode(&g, &w, NULL, 0, 0, false), BF_ETRUNCATED);
    cr_expect_eq(decode(NULL, &w, buf, len, 0, false), BF_EINVAL);
    cr_expect_eq(check(&w, NULL, 5), BF_EINVAL);
    free(buf);
    bf_scalable_free(f);
}

/* The header words and the parameters in the payload head, each invalid
 * value refused with BF_ECORRUPT by check and decode. */
Test(payload, parameters_validated) {
    /* Large enough that a different target changes layer 0's size (100
     * keys fit 5 blocks at any target from 0.4 % to 1 %). */
    const bf_scalable_params big = {100000, 0.01, 2, 0.5, 0};
    bf_scalable *f = grown(&big, 1, 0);
    size_t len;
    words good;
    uint8_t *buf = encode(f, &len, &good);
    uint8_t *b = malloc(len);
    cr_assert_not_null(b);
    bf_scalable *g = NULL;
#define EXPECT_BAD(what)                                                          \
    do {                                                                          \
        cr_expect_eq(check(&w, b, len), BF_ECORRUPT, "%s", what);                 \
        cr_expect_eq(decode(&g, &w, b, len, 0, false), BF_ECORRUPT, "%s", what);  \
        memcpy(b, buf, len);                                                      \
        w = good;                                                                 \
    } while (0)
    words w = good;
    memcpy(b, buf, len);
    w.p0 = 0;
    EXPECT_BAD("capacity 0");
    w.p0 = 100001;
    EXPECT_BAD("another capacity");
    w.p1 = 0;
    EXPECT_BAD("expansion 0");
    w.p1 = BF_SCALABLE_MAX_EXPANSION + 1;
    EXPECT_BAD("expansion too big");
    w.p2 = 2;
    EXPECT_BAD("unknown flag");
    w.p3 = 1;
    EXPECT_BAD("p3 not zero");
    const double bad_fpp[] = {0.0, 1.0, -0.01, NAN, INFINITY, 0.02};
    for (size_t i = 0; i < 6; i++) {
        uint64_t u;
        memcpy(&u, &bad_fpp[i], 8);
        bf_store_le64(b + 8, u);
        EXPECT_BAD("fpp");
    }
    const double bad_ratio[] = {0.0, 1.0, -0.5, NAN, 0.6};
    for (size_t i = 0; i < 5; i++) {
        uint64_t u;
        memcpy(&u, &bad_ratio[i], 8);
        bf_store_le64(b + 16, u);
        EXPECT_BAD("ratio");
    }
    b[24] = 1;
    EXPECT_BAD("reserved head word");
    /* One layer, as non-scaling requires, but a non-scaling layer 0 is
     * sized for the whole budget: the bytes do not match. */
    w.p2 = BF_SCALABLE_NONSCALING;
    EXPECT_BAD("non-scaling with a scaling chain's layer 0");
#undef EXPECT_BAD
    cr_expect_eq(decode(&g, &good, buf, len, 0, false), BF_OK);
    bf_scalable_free(g);
    free(b);
    free(buf);
    bf_scalable_free(f);
}
