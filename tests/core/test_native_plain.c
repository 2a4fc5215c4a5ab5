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

/* The filter every image holds: NKEYS byte-string keys, the first NREMOVED
 * removed again where the family can remove. */
static bf_filter *build(bf_family fam) {
    bf_filter *f = NULL;
    int rc = bf_filter_new(&f, fam, 500, 0.01);
    CHECK(rc == BF_OK, "%s: new: %d", bf_family_name(fam), rc);
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

static void check_family(bf_family fam) {
    const char *name = bf_family_name(fam);
    char rel[64];
    snprintf(rel, sizeof rel, "native/%s.bflt", name);
    size_t len = 0;
    uint8_t *img = tu_read_data(rel, &len);
    CHECK(img != NULL, "%s: no known-answer image %s (write it with --write)", name, rel);
    bf_filter *f = build(fam);
    if (!img || !f) {
        free(img);
        bf_filter_free(f);
        return;
    }

    /* The header, read byte by byte. */
    CHECK(len >= BF_HEADER_BYTES && memcmp(img, "BFLT", 4) == 0, "%s: magic", name);
    /* The lowest version that holds the image: 2 for the blocked family
     * (new in it), 1 for the families of version 1 (docs/format.md). */
    CHECK(le(img + 4, 2) >= 1 && le(img + 4, 2) <= BF_FORMAT_VERSION &&
              (fam != BF_FAMILY_BLOCKED || le(img + 4, 2) == 2),
          "%s: version %u", name, (unsigned)le(img + 4, 2));
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

/* --write DIR: (re)writes the images. Run on a little-endian host and
 * commit what changes only with a format change. */
static int write_images(const char *dir) {
    for (unsigned id = 1; id < 256; id++) {
        if (!bf_family_name((bf_family)id)) continue;
        bf_filter *f = build((bf_family)id);
        if (!f) return 1;
        size_t len;
        uint8_t *img = save(f, &len);
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.bflt", dir, bf_family_name((bf_family)id));
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
    unsigned families = 0;
    for (unsigned id = 1; id < 256; id++) {
        if (!bf_family_name((bf_family)id)) continue;
        families++;
        check_family((bf_family)id);
    }
    CHECK(families >= 4, "families known: %u", families);
    printf("native known answers (%u families): %lu passed, %lu failed\n", families, passed, failed);
    return failed ? 1 : 0;
}
