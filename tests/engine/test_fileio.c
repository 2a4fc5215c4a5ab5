/* Files: atomic save, copying load and read-only mapping, for every family;
 * failure paths leave the target intact and nothing behind. */
#include <criterion/criterion.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "common/internal.h"
#include "testutil.h"

static char dir[256];

static void make_dir(void) {
    snprintf(dir, sizeof dir, "/tmp/bf_fileio_XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void remove_dir(void) {
    DIR *d = opendir(dir);
    if (!d) return;
    struct dirent *e;
    char p[600];
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            struct stat st;
            if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) rmdir(p);
            else unlink(p);
        }
    closedir(d);
    rmdir(dir);
}

TestSuite(fileio, .init = make_dir, .fini = remove_dir);

static int count_entries(void) {
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

static uint64_t key(uint64_t i) {
    uint64_t x = i * 0x9e3779b97f4a7c15ull + 1;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    return x ^ (x >> 31);
}

#define NKEYS 5000

static bf_filter *filled(bf_family fam) {
    bf_filter *f = NULL;
    cr_assert_eq(bf_filter_new(&f, fam, NKEYS, 0.01), BF_OK);
    for (uint64_t i = 0; i < NKEYS; i++) cr_assert_eq(bf_filter_insert_hash(f, key(i)), BF_OK);
    return f;
}

static void path_of(char *out, size_t cap, const char *name) {
    snprintf(out, cap, "%s/%s", dir, name);
}

static void write_file(const char *path, const void *buf, size_t len) {
    FILE *fp = fopen(path, "wb");
    cr_assert_not_null(fp);
    cr_assert_eq(fwrite(buf, 1, len, fp), len);
    cr_assert_eq(fclose(fp), 0);
}

Test(fileio, save_load_map_every_family) {
    bf_family families[255];
    for (size_t fi = 0, nf = tu_families(families); fi < nf; fi++) {
        bf_filter *f = filled(families[fi]);
        char path[512];
        path_of(path, sizeof path, "f.bf");
        cr_assert_eq(bf_filter_save_file(f, path), BF_OK, "%s", bf_family_name(families[fi]));
        cr_assert_eq(count_entries(), 1, "temporary file left behind");

        struct stat st;
        cr_assert_eq(stat(path, &st), 0);
        cr_assert_eq((size_t)st.st_size, bf_filter_save_size(f));

        bf_filter *g = NULL, *m = NULL, *mv = NULL;
        cr_assert_eq(bf_filter_load_file(&g, path), BF_OK);
        cr_assert_eq(bf_filter_map_file(&m, path, 0), BF_OK);
        cr_assert_eq(bf_filter_map_file(&mv, path, BF_VIEW_VERIFY_PAYLOAD | BF_MAP_PREFAULT), BF_OK);
        cr_assert_eq(bf_filter_family(m), families[fi]);
        cr_assert_eq(bf_filter_num_bytes(m), bf_filter_num_bytes(f));
        for (uint64_t i = 0; i < NKEYS; i++) {
            cr_assert(bf_filter_contains_hash(g, key(i)));
            cr_assert(bf_filter_contains_hash(m, key(i)));
            cr_assert(bf_filter_contains_hash(mv, key(i)));
        }
        /* Same answers as the original for absent keys too. */
        for (uint64_t i = NKEYS; i < 4 * NKEYS; i++) {
            bool want = bf_filter_contains_hash(f, key(i));
            cr_assert_eq(bf_filter_contains_hash(m, key(i)), want);
            cr_assert_eq(bf_filter_contains_hash(g, key(i)), want);
        }
        bf_filter_stats sf, sm;
        cr_assert_eq(bf_filter_get_stats(f, &sf), BF_OK);
        cr_assert_eq(bf_filter_get_stats(m, &sm), BF_OK);
        cr_assert_eq(sm.inserted, sf.inserted);
        cr_assert_eq(sm.cells_set, sf.cells_set);
        /* The mapping is read-only; the loaded copy is writable. */
        cr_assert_eq(bf_filter_insert_hash(m, key(NKEYS + 1)), BF_EREADONLY);
        int rc = bf_filter_insert_hash(g, key(NKEYS + 1));
        cr_assert(rc == BF_OK || (families[fi] == BF_FAMILY_CUCKOO && rc == BF_EFULL), "%d", rc);
        bf_filter_free(mv);
        bf_filter_free(m);
        bf_filter_free(g);
        bf_filter_free(f);
        unlink(path);
    }
}

Test(fileio, keyed_seed_survives) {
    bf_filter *f = NULL, *g = NULL;
    cr_assert_eq(bf_filter_new(&f, BF_FAMILY_SBBF, 100, 0.01), BF_OK);
    cr_assert_eq(bf_filter_set_seed(f, 0x1234567890abcdefull), BF_OK);
    cr_assert_eq(bf_filter_insert(f, "key", 3), BF_OK);
    char path[512];
    path_of(path, sizeof path, "keyed.bf");
    cr_assert_eq(bf_filter_save_file(f, path), BF_OK);
    cr_assert_eq(bf_filter_map_file(&g, path, 0), BF_OK);
    cr_assert_eq(bf_filter_seed(g), 0x1234567890abcdefull);
    cr_assert(bf_filter_contains(g, "key", 3));
    bf_filter_free(g);
    bf_filter_free(f);
}

Test(fileio, replace_is_atomic_and_old_mapping_survives) {
    char path[512];
    path_of(path, sizeof path, "r.bf");
    bf_filter *a = filled(BF_FAMILY_SBBF), *b = NULL, *m = NULL;
    cr_assert_eq(bf_filter_save_file(a, path), BF_OK);
    cr_assert_eq(bf_filter_map_file(&m, path, 0), BF_OK);
    /* Replace with a different filter while the old one is mapped. */
    cr_assert_eq(bf_filter_new(&b, BF_FAMILY_BLOOM, 10, 0.1), BF_OK);
    cr_assert_eq(bf_filter_save_file(b, path), BF_OK);
    cr_assert_eq(bf_filter_family(m), BF_FAMILY_SBBF);
    for (uint64_t i = 0; i < NKEYS; i++) cr_assert(bf_filter_contains_hash(m, key(i)));
    bf_filter *n = NULL;
    cr_assert_eq(bf_filter_load_file(&n, path), BF_OK);
    cr_assert_eq(bf_filter_family(n), BF_FAMILY_BLOOM);
    cr_assert_eq(count_entries(), 1);
    bf_filter_free(n);
    bf_filter_free(m);
    bf_filter_free(b);
    bf_filter_free(a);
}

Test(fileio, failed_save_keeps_target) {
    char path[512];
    path_of(path, sizeof path, "keep.bf");
    write_file(path, "precious", 8);
    bf_filter *f = filled(BF_FAMILY_BLOOM);

    /* Every allocation failing in turn: an error, the target untouched,
     * no temporary file left. */
    for (long k = 0;; k++) {
        bf__alloc_fail_after(k);
        int rc = bf_filter_save_file(f, path);
        bf__alloc_fail_after(-1);
        if (rc == BF_OK) break;
        cr_assert_eq(rc, BF_ENOMEM, "k=%ld rc=%d", k, rc);
        struct stat st;
        cr_assert_eq(stat(path, &st), 0);
        cr_assert_eq(st.st_size, 8);
        cr_assert_eq(count_entries(), 1);
        cr_assert_lt(k, 100);
    }

    /* rename() failing (the target is a non-empty directory). */
    char sub[512];
    path_of(sub, sizeof sub, "adir");
    cr_assert_eq(mkdir(sub, 0755), 0);
    char inner[600];
    snprintf(inner, sizeof inner, "%s/x", sub);
    write_file(inner, "x", 1);
    errno = 0;
    cr_assert_eq(bf_filter_save_file(f, sub), BF_EIO);
    cr_assert_neq(errno, 0);
    cr_assert_eq(count_entries(), 2); /* keep.bf and adir, no temporary */
    unlink(inner);

    /* A directory that does not exist. */
    char missing[512];
    path_of(missing, sizeof missing, "no/such/dir/f.bf");
    errno = 0;
    cr_assert_eq(bf_filter_save_file(f, missing), BF_EIO);
    cr_assert_eq(errno, ENOENT);
    cr_assert_eq(bf_filter_save_file(NULL, missing), BF_EINVAL);
    cr_assert_eq(bf_filter_save_file(f, NULL), BF_EINVAL);
    cr_assert_eq(bf_filter_save_file(f, ""), BF_EINVAL);
    bf_filter_free(f);
}

Test(fileio, bad_files_rejected) {
    bf_filter *f = filled(BF_FAMILY_SBBF), *g = NULL;
    size_t len = bf_filter_save_size(f);
    uint8_t *buf = malloc(len);
    size_t w;
    cr_assert_eq(bf_filter_save(f, buf, len, &w), BF_OK);
    char path[512];
    path_of(path, sizeof path, "bad.bf");

    /* Missing file and a directory: BF_EIO with errno. */
    char nothere[512];
    path_of(nothere, sizeof nothere, "nothere.bf");
    errno = 0;
    cr_assert_eq(bf_filter_load_file(&g, nothere), BF_EIO);
    cr_assert_eq(errno, ENOENT);
    cr_assert_eq(bf_filter_map_file(&g, nothere, 0), BF_EIO);
    cr_assert_eq(bf_filter_map_file(&g, dir, 0), BF_EIO);
    cr_assert_eq(errno, EISDIR);
    cr_assert_eq(bf_filter_map_file(&g, nothere, 0x80), BF_EINVAL);

    /* Empty, truncated at several points, wrong magic. */
    size_t cuts[] = {0, 3, 63, 64, 100, len - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        write_file(path, buf, cuts[i]);
        int a = bf_filter_load_file(&g, path), b = bf_filter_map_file(&g, path, 0);
        cr_assert(a == BF_ETRUNCATED || a == BF_EFORMAT, "cut %zu: %d", cuts[i], a);
        cr_assert_eq(a, b, "cut %zu", cuts[i]);
    }
    uint8_t *bad = malloc(len);
    memcpy(bad, buf, len);
    bad[0] = 'X';
    write_file(path, bad, len);
    cr_assert_eq(bf_filter_load_file(&g, path), BF_EFORMAT);
    cr_assert_eq(bf_filter_map_file(&g, path, 0), BF_EFORMAT);
    /* A flipped payload bit: the copying load and a verified map catch it. */
    memcpy(bad, buf, len);
    bad[len - 1] ^= 1;
    write_file(path, bad, len);
    cr_assert_eq(bf_filter_load_file(&g, path), BF_ECORRUPT);
    cr_assert_eq(bf_filter_map_file(&g, path, BF_VIEW_VERIFY_PAYLOAD), BF_ECORRUPT);
    /* A flipped header bit: always caught. */
    memcpy(bad, buf, len);
    bad[20] ^= 4;
    write_file(path, bad, len);
    cr_assert_eq(bf_filter_load_file(&g, path), BF_ECORRUPT);
    cr_assert_eq(bf_filter_map_file(&g, path, 0), BF_ECORRUPT);
    free(bad);
    free(buf);
    bf_filter_free(f);
}

Test(fileio, allocation_failures_do_not_leak) {
    bf_filter *f = filled(BF_FAMILY_COUNTING);
    char path[512];
    path_of(path, sizeof path, "a.bf");
    cr_assert_eq(bf_filter_save_file(f, path), BF_OK);
    long base = bf__alloc_live();
    for (int which = 0; which < 2; which++)
        for (long k = 0;; k++) {
            bf_filter *g = NULL;
            bf__alloc_fail_after(k);
            int rc = which ? bf_filter_map_file(&g, path, 0) : bf_filter_load_file(&g, path);
            bf__alloc_fail_after(-1);
            if (rc == BF_OK) {
                cr_assert(bf_filter_contains_hash(g, key(7)));
                bf_filter_free(g);
                cr_assert_eq(bf__alloc_live(), base);
                break;
            }
            cr_assert_eq(rc, BF_ENOMEM);
            cr_assert_null(g);
            cr_assert_eq(bf__alloc_live(), base, "leak at k=%ld", k);
            cr_assert_lt(k, 100);
        }
    bf_filter_free(f);
}

Test(fileio, file_version_reads_the_header_alone) {
    bf_filter *f = filled(BF_FAMILY_CUCKOO);
    char path[512], bad[512], dirpath[512];
    path_of(path, sizeof path, "v.bf");
    path_of(bad, sizeof bad, "v-bad.bf");
    cr_assert_eq(bf_filter_save_file(f, path), BF_OK);
    unsigned v = 0;
    cr_assert_eq(bf_filter_file_version(path, &v), BF_OK);
    cr_assert_eq(v, 1); /* the lowest version that holds it (docs/format.md) */
    bf_filter *b = filled(BF_FAMILY_BLOCKED);
    cr_assert_eq(bf_filter_save_file(b, path), BF_OK);
    cr_assert_eq(bf_filter_file_version(path, &v), BF_OK);
    cr_assert_eq(v, 2);
    bf_filter_free(b);
    cr_assert_eq(bf_filter_save_file(f, path), BF_OK);

    size_t len = bf_filter_save_size(f), w;
    uint8_t *buf = malloc(len);
    cr_assert_eq(bf_filter_save(f, buf, len, &w), BF_OK);
    /* The header alone is enough; shorter is truncated; not the magic is
     * another format; a damaged header is corrupt. */
    write_file(bad, buf, BF_HEADER_BYTES + 1);
    cr_assert_eq(bf_filter_file_version(bad, &v), BF_OK);
    write_file(bad, buf, BF_HEADER_BYTES);
    cr_assert_eq(bf_filter_file_version(bad, &v), BF_ETRUNCATED);
    write_file(bad, buf, BF_HEADER_BYTES - 1);
    cr_assert_eq(bf_filter_file_version(bad, &v), BF_ETRUNCATED);
    write_file(bad, buf, 0);
    cr_assert_eq(bf_filter_file_version(bad, &v), BF_ETRUNCATED);
    write_file(bad, "PAR1", 4);
    cr_assert_eq(bf_filter_file_version(bad, &v), BF_EFORMAT);
    buf[20] ^= 1;
    write_file(bad, buf, len);
    cr_assert_eq(bf_filter_file_version(bad, &v), BF_ECORRUPT);
    /* Missing, a directory, bad arguments. */
    path_of(dirpath, sizeof dirpath, "nothere.bf");
    errno = 0;
    cr_assert_eq(bf_filter_file_version(dirpath, &v), BF_EIO);
    cr_assert_eq(errno, ENOENT);
    cr_assert_eq(bf_filter_file_version(dir, &v), BF_EIO);
    cr_assert_eq(errno, EISDIR);
    cr_assert_eq(bf_filter_file_version(NULL, &v), BF_EINVAL);
    cr_assert_eq(bf_filter_file_version(path, NULL), BF_EINVAL);
    free(buf);
    bf_filter_free(f);
}

Test(fileio, parquet_file_saved_atomically) {
    bf_sbbf *s = NULL;
    cr_assert_eq(bf_sbbf_new(&s, NKEYS, 0.01), BF_OK);
    for (uint64_t i = 0; i < NKEYS; i++) bf_sbbf_insert_hash(s, key(i));
    char path[512];
    path_of(path, sizeof path, "f.parquet-bloom");
    write_file(path, "old", 3);
    cr_assert_eq(bf_sbbf_save_parquet_file(s, path), BF_OK);
    /* The file holds exactly bf_sbbf_to_parquet's bytes, and nothing else is
     * left in the directory. */
    size_t cap = bf_sbbf_parquet_size(s), w = 0;
    uint8_t *want = malloc(cap), *got = malloc(cap + 1);
    cr_assert_eq(bf_sbbf_to_parquet(s, want, cap, &w), BF_OK);
    FILE *fp = fopen(path, "rb");
    cr_assert_not_null(fp);
    cr_assert_eq(fread(got, 1, cap + 1, fp), w);
    fclose(fp);
    cr_assert_eq(memcmp(got, want, w), 0);
    cr_assert_eq(count_entries(), 1);
    bf_sbbf *back = NULL;
    cr_assert_eq(bf_sbbf_from_parquet(&back, got, w, NULL), BF_OK);
    for (uint64_t i = 0; i < NKEYS; i++) cr_assert(bf_sbbf_contains_hash(back, key(i)));
    bf_sbbf_free(back);

    /* Failures: the target untouched, no temporary file left. */
    for (long k = 0;; k++) {
        bf__alloc_fail_after(k);
        int rc = bf_sbbf_save_parquet_file(s, path);
        bf__alloc_fail_after(-1);
        if (rc == BF_OK) break;
        cr_assert_eq(rc, BF_ENOMEM, "k=%ld rc=%d", k, rc);
        cr_assert_eq(count_entries(), 1);
        cr_assert_lt(k, 100);
    }
    char missing[512];
    path_of(missing, sizeof missing, "no/such/dir/f.bin");
    errno = 0;
    cr_assert_eq(bf_sbbf_save_parquet_file(s, missing), BF_EIO);
    cr_assert_eq(errno, ENOENT);
    cr_assert_eq(bf_sbbf_save_parquet_file(NULL, path), BF_EINVAL);
    cr_assert_eq(bf_sbbf_save_parquet_file(s, ""), BF_EINVAL);
    cr_assert_eq(count_entries(), 1);
    free(want);
    free(got);
    bf_sbbf_free(s);
}

/* A filter whose file is larger than 4 GiB: offsets and sizes are 64-bit
 * all the way. Needs ~10 GiB of memory and disk: run with
 * BF_LARGE_TESTS=1 (meson -Dlarge_tests=true). */
Test(fileio, larger_than_4gib, .timeout = 1800) {
    const char *on = getenv("BF_LARGE_TESTS");
    if (!on || strcmp(on, "1") != 0) {
        remove_dir(); /* a skipped test does not reach .fini */
        cr_skip_test("set BF_LARGE_TESTS=1 for the >4 GiB file test");
    }
    bf_filter *f = NULL, *m = NULL;
    cr_assert_eq(bf_filter_new(&f, BF_FAMILY_SBBF, 3500000000ull, 0.01), BF_OK);
    cr_assert_gt((uint64_t)bf_filter_num_bytes(f), (uint64_t)1 << 32);
    for (uint64_t i = 0; i < 100000; i++) bf_filter_insert_hash(f, key(i));
    char path[512];
    path_of(path, sizeof path, "big.bf");
    cr_assert_eq(bf_filter_save_file(f, path), BF_OK);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_gt((uint64_t)st.st_size, (uint64_t)1 << 32);
    bf_filter_free(f);
    cr_assert_eq(bf_filter_map_file(&m, path, BF_VIEW_VERIFY_PAYLOAD), BF_OK);
    for (uint64_t i = 0; i < 100000; i++) cr_assert(bf_filter_contains_hash(m, key(i)));
    bf_filter_free(m);
    unlink(path);
}
