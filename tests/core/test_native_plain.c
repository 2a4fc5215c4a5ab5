/*
 * The native format of every family against known-answer images, as a plain
 * C program (no criterion) so that it also runs under qemu-user: on aarch64
 * and on big-endian s390x. The images in $BF_TEST_DATA/native/<family>.bflt
 * were written on x86-64 by this program (`test_native_plain --write DIR`);
 * every family the library knows must have one.
 *
 * For each family: the header fields read byte by byte as little-endian;
 * the same filter built here from the same keys saves to exactly the image;
 * the image loads (copy, view, misaligned verified view) and answers as the
 * filter built here, every inserted key present; re-saving gives the image
 * back. For the SBBF the payload is also Parquet's bitset: serialised to
 * Parquet and read back it answers alike.
 * Cuckoo filters of other shapes than bf_filter_new's have images of
 * their own (native/cuckoo-*.bflt, the `shapes` below): bucket sizes 1 to
 * 255, fingerprints of 4 to 32 bits, semi-sorted buckets (format version
 * 2), and cuckoo-v1.bflt, written by the 4-slot-only format version 1.
 * Exit status 0 on success, 1 on failure.
 */
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "check.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NKEYS 400
#define NREMOVED 50
#define NPROBES 20000

static size_t key(char *buf, size_t cap, const char *prefix, unsigned i) {
    int n = snprintf(buf, cap, "%s-%u", prefix, i);
    return n > 0 ? (size_t)n : 0;
}

/* The seed each image uses: 0 (Parquet's hash) for the SBBF, a keyed one
 * for the others, so both header forms are covered. */
static uint64_t seed_for(bf_family fam) {
    return fam == BF_FAMILY_SBBF ? 0 : 0x5eed5eed00000000ull + (uint64_t)fam;
}

/* An image: a family's bf_filter_new(500, 0.01), or a cuckoo table of a
 * given shape (num_buckets != 0). */
typedef struct image {
    bf_family fam;
    const char *name;
    uint64_t num_buckets;
    unsigned bucket_size, fp_bits, flags;
    unsigned version; /* format version of the image */
} image;

static const image shapes[] = {
    {BF_FAMILY_CUCKOO, "cuckoo-v1", 144, 4, 12, 0, 1},
    {BF_FAMILY_CUCKOO, "cuckoo-b1-f13", 1000, 1, 13, 0, 2},
    {BF_FAMILY_CUCKOO, "cuckoo-b2-f7", 300, 2, 7, 0, 2},
    {BF_FAMILY_CUCKOO, "cuckoo-b3-f5", 240, 3, 5, 0, 2},
    {BF_FAMILY_CUCKOO, "cuckoo-b4-f32", 150, 4, 32, 0, 2},
    {BF_FAMILY_CUCKOO, "cuckoo-b8-f17", 75, 8, 17, 0, 2},
    {BF_FAMILY_CUCKOO, "cuckoo-b255-f32", 2, 255, 32, 0, 2},
    {BF_FAMILY_CUCKOO, "cuckoo-b4-f9-semisorted", 150, 4, 9, BF_CUCKOO_SEMISORTED, 2},
    {BF_FAMILY_CUCKOO, "cuckoo-b4-f16-semisorted", 150, 4, 16, BF_CUCKOO_SEMISORTED, 2},
};

/* The filter every image holds: NKEYS byte-string keys, the first NREMOVED
 * removed again where the family can remove. */
static bf_filter *build(const image *im) {
    bf_family fam = im->fam;
    bf_filter *f = NULL;
    int rc;
    if (im->num_buckets) {
        bf_cuckoo *c = NULL;
        rc = bf_cuckoo_new_table(&c, im->num_buckets, im->bucket_size, im->fp_bits, im->flags);
        if (rc == BF_OK && (rc = bf_filter_from_cuckoo(&f, c)) != BF_OK) bf_cuckoo_free(c);
    } else {
        rc = bf_filter_new(&f, fam, 500, 0.01);
    }
    CHECK(rc == BF_OK, "%s: new: %d", im->name, rc);
    if (rc) return NULL;
    CHECK(bf_filter_set_seed(f, seed_for(fam)) == BF_OK, "set seed");
    char k[32];
    for (unsigned i = 0; i < NKEYS; i++) {
        size_t n = key(k, sizeof k, "key", i);
        CHECK(bf_filter_insert(f, k, n) == BF_OK, "insert %s", k);
    }
    if (bf_filter_remove(f, "key-0", 5) != BF_EUNSUPPORTED) {
        for (unsigned i = 1; i < NREMOVED; i++) {
            size_t n = key(k, sizeof k, "key", i);
            CHECK(bf_filter_remove(f, k, n) == BF_OK, "remove %s", k);
        }
    }
    return f;
}

static uint8_t *save(const bf_filter *f, size_t *len) {
    *len = bf_filter_save_size(f);
    uint8_t *buf = malloc(*len ? *len : 1);
    size_t w = 0;
    int rc = buf ? bf_filter_save(f, buf, *len, &w) : BF_ENOMEM;
    CHECK(rc == BF_OK && w == *len, "save: %d", rc);
    return buf;
}

static uint64_t le(const uint8_t *p, unsigned bytes) {
    uint64_t v = 0;
    for (unsigned i = bytes; i-- > 0;) v = (v << 8) | p[i];
    return v;
}

/* g answers every probe as f does; every key f holds is in g. */
static void same_answers(const char *what, const bf_filter *f, const bf_filter *g) {
    char k[32];
    unsigned diff = 0, missing = 0;
    for (unsigned i = 0; i < NPROBES; i++) {
        size_t n = key(k, sizeof k, "probe", i);
        diff += bf_filter_contains(f, k, n) != bf_filter_contains(g, k, n);
    }
    for (unsigned i = NREMOVED; i < NKEYS; i++) {
        size_t n = key(k, sizeof k, "key", i);
        missing += !bf_filter_contains(g, k, n);
    }
    CHECK(diff == 0, "%s: %u probes answered differently", what, diff);
    CHECK(missing == 0, "%s: %u keys missing", what, missing);
}

static void resaves_to(const char *what, const bf_filter *g, const uint8_t *img, size_t len) {
    size_t len2;
    uint8_t *again = save(g, &len2);
    CHECK(again && len2 == len && memcmp(again, img, len) == 0, "%s: re-save differs", what);
    free(again);
}

static void check_image(const image *im) {
    const bf_family fam = im->fam;
    const char *name = im->name;
    char rel[96];
    snprintf(rel, sizeof rel, "native/%s.bflt", name);
    size_t len = 0;
    uint8_t *img = tu_read_data(rel, &len);
    CHECK(img != NULL, "%s: no known-answer image %s (write it with --write)", name, rel);
    bf_filter *f = build(im);
    if (!img || !f) {
        free(img);
        bf_filter_free(f);
        return;
    }

    /* The header, read byte by byte. */
    CHECK(len >= BF_HEADER_BYTES && memcmp(img, "BFLT", 4) == 0, "%s: magic", name);
    CHECK(le(img + 4, 2) == im->version, "%s: version", name);
    CHECK(img[6] == (uint8_t)fam, "%s: family byte", name);
    CHECK(le(img + 8, 8) == seed_for(fam), "%s: seed", name);
    CHECK(img[7] == (seed_for(fam) ? 1 : 0), "%s: keyed flag", name);
    CHECK(le(img + 48, 8) == len - BF_HEADER_BYTES, "%s: payload length", name);

    /* Built here, byte for byte the image written on x86-64. */
    size_t blen;
    uint8_t *built = save(f, &blen);
    CHECK(built && blen == len && memcmp(built, img, len) == 0,
          "%s: the filter built on this host saves another image", name);
    free(built);

    /* The image read here answers as the filter built here. */
    bf_filter *g = NULL, *v = NULL, *mv = NULL;
    int rc = bf_filter_load(&g, img, len);
    CHECK(rc == BF_OK, "%s: load: %d", name, rc);
    rc = bf_filter_view(&v, img, len, 0);
    CHECK(rc == BF_OK, "%s: view: %d", name, rc);
    uint8_t *raw = malloc(len + 3);
    if (raw) memcpy(raw + 3, img, len);
    rc = raw ? bf_filter_view(&mv, raw + 3, len, BF_VIEW_VERIFY_PAYLOAD) : BF_ENOMEM;
    CHECK(rc == BF_OK, "%s: misaligned verified view: %d", name, rc);
    bf_filter *got[3] = {g, v, mv};
    const char *how[3] = {"load", "view", "misaligned view"};
    for (unsigned i = 0; i < 3; i++) {
        if (!got[i]) continue;
        char what[64];
        snprintf(what, sizeof what, "%s %s", name, how[i]);
        CHECK(bf_filter_family(got[i]) == fam, "%s: family", what);
        CHECK(bf_filter_seed(got[i]) == seed_for(fam), "%s: seed", what);
        same_answers(what, f, got[i]);
        resaves_to(what, got[i], img, len);
        bf_filter_stats a, b;
        CHECK(bf_filter_get_stats(f, &a) == BF_OK && bf_filter_get_stats(got[i], &b) == BF_OK &&
                  a.inserted == b.inserted && a.cells_set == b.cells_set,
              "%s: stats", what);
    }

    /* The SBBF payload is Parquet's bitset. */
    bf_sbbf *s = g ? bf_filter_sbbf(g) : NULL;
    if (s) {
        CHECK(bf_sbbf_num_bytes(s) == len - BF_HEADER_BYTES &&
                  memcmp(bf_sbbf_bitset(s), img + BF_HEADER_BYTES, len - BF_HEADER_BYTES) == 0,
              "sbbf: the payload is the bitset");
        size_t plen = bf_sbbf_parquet_size(s), w = 0;
        uint8_t *pq = malloc(plen);
        bf_sbbf *p = NULL;
        rc = pq ? bf_sbbf_to_parquet(s, pq, plen, &w) : BF_ENOMEM;
        if (rc == BF_OK) rc = bf_sbbf_from_parquet(&p, pq, w, NULL);
        CHECK(rc == BF_OK, "sbbf: Parquet round trip: %d", rc);
        bf_filter *pf = NULL;
        if (p && bf_filter_from_sbbf(&pf, p) == BF_OK) {
            same_answers("sbbf via Parquet", f, pf);
            bf_filter_free(pf);
        } else {
            bf_sbbf_free(p);
        }
        free(pq);
    }

    bf_filter_free(mv);
    bf_filter_free(v);
    bf_filter_free(g);
    bf_filter_free(f);
    free(raw);
    free(img);
}

/* The images: one per family, then the cuckoo shapes. */
static size_t images(image *out, size_t cap) {
    size_t n = 0;
    for (unsigned id = 1; id < 256 && n < cap; id++) {
        if (!bf_family_name((bf_family)id)) continue;
        image im = {(bf_family)id, bf_family_name((bf_family)id), 0, 0, 0, 0, 1};
        /* bf_filter_new's cuckoo shape may need version 2. */
        if (id == BF_FAMILY_CUCKOO) {
            bf_sizing z;
            if (bf_size_for(BF_FAMILY_CUCKOO, 500, 0.01, &z) == BF_OK &&
                !(z.bucket_size == 4 && (z.fp_bits == 8 || z.fp_bits == 12 || z.fp_bits == 16)))
                im.version = 2;
        }
        out[n++] = im;
    }
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0] && n < cap; i++) out[n++] = shapes[i];
    return n;
}

/* --write DIR: (re)writes the images. Run on a little-endian host and
 * commit what changes only with a format change. */
static int write_images(const char *dir) {
    image all[300];
    size_t count = images(all, 300);
    for (size_t i = 0; i < count; i++) {
        bf_filter *f = build(&all[i]);
        if (!f) return 1;
        size_t len;
        uint8_t *img = save(f, &len);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.bflt", dir, all[i].name);
        FILE *fp = fopen(path, "wb");
        int ok = fp && img && fwrite(img, 1, len, fp) == len;
        if (fp && fclose(fp) != 0) ok = 0;
        printf("%s %s (%zu bytes)\n", ok ? "wrote" : "FAILED", path, len);
        free(img);
        bf_filter_free(f);
        if (!ok) return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--write") == 0) return write_images(argv[2]);
    image all[300];
    size_t count = images(all, 300);
    unsigned families = 0;
    for (size_t i = 0; i < count; i++) {
        families += all[i].num_buckets == 0;
        check_image(&all[i]);
    }
    CHECK(families >= 4, "families known: %u", families);
    printf("native known answers (%u families, %zu images): %lu passed, %lu failed\n", families,
           count, passed, failed);
    return failed ? 1 : 0;
}
