/*
 * Saving must fail cleanly: on a full disk (a file-size limit, and a tiny
 * tmpfs where the test may mount one), and to an unwritable path, the call
 * returns an error status, the good file already at the path is left as it
 * was, and no temporary file is left behind.
 */
#define _GNU_SOURCE
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "robust_util.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static bf_filter *make_filter(uint64_t n, const char *tag) {
    bf_filter *f = NULL;
    cr_assert_eq(bf_filter_new(&f, BF_FAMILY_SBBF, n, 0.01), BF_OK);
    char key[64];
    for (uint64_t i = 0; i < n / 2; i++) {
        int len = snprintf(key, sizeof key, "%s-%llu", tag, (unsigned long long)i);
        cr_assert_eq(bf_filter_insert(f, key, (size_t)len), BF_OK);
    }
    return f;
}

static uint8_t *image_of(const bf_filter *f, size_t *len) {
    *len = bf_filter_save_size(f);
    uint8_t *buf = malloc(*len);
    size_t w = 0;
    cr_assert_eq(bf_filter_save(f, buf, *len, &w), BF_OK);
    return buf;
}

/* The directory holds exactly the one named entry (no temporary files). */
static void assert_only(const char *dir, const char *name) {
    DIR *d = opendir(dir);
    cr_assert_not_null(d);
    struct dirent *e;
    int seen = 0;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        cr_assert(name && !strcmp(e->d_name, name), "unexpected file left in %s: %s", dir, e->d_name);
        seen++;
    }
    closedir(d);
    cr_assert_eq(seen, name ? 1 : 0, "%s missing from %s", name ? name : "-", dir);
}

/* The file at path is byte for byte the good image and loads. */
static void assert_intact(const char *path, const uint8_t *good, size_t good_len) {
    size_t len = 0;
    uint8_t *got = tu_read_file(path, &len);
    cr_assert_not_null(got, "the good file at %s is gone or unreadable", path);
    cr_assert_eq(len, good_len, "%s: %zu bytes, was %zu (truncated in place?)", path, len, good_len);
    cr_assert_eq(memcmp(got, good, len), 0, "%s changed", path);
    free(got);
    bf_filter *f = NULL;
    cr_assert_eq(bf_filter_load_file(&f, path), BF_OK);
    cr_assert(bf_filter_contains(f, "good-1", 6));
    bf_filter_free(f);
}

Test(savefail, file_size_limit) {
    char dir[] = "/tmp/bf-savefail-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/f.bflt", dir);
    bf_filter *good = make_filter(1000, "good");
    size_t good_len;
    uint8_t *good_img = image_of(good, &good_len);
    cr_assert_eq(bf_filter_save_file(good, path), BF_OK);
    assert_intact(path, good_img, good_len);

    /* A 1.2 MB filter against a 64 KiB file-size limit: write() fails with
     * EFBIG once SIGXFSZ is ignored. */
    bf_filter *big = make_filter(1000000, "big");
    cr_assert_gt(bf_filter_save_size(big), (size_t)1 << 20);
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit old, lim;
    cr_assert_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = 64 * 1024;
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
    int rc = bf_filter_save_file(big, path);
    cr_assert_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
    fprintf(stderr, "savefail: over RLIMIT_FSIZE -> %s\n", bf_strerror(rc));
    cr_assert_eq(rc, BF_EIO, "save past the file-size limit: %s", bf_strerror(rc));
    assert_intact(path, good_img, good_len);
    assert_only(dir, "f.bflt");

    /* With the limit gone the same save works and replaces the file. */
    cr_assert_eq(bf_filter_save_file(big, path), BF_OK);
    bf_filter *back = NULL;
    cr_assert_eq(bf_filter_load_file(&back, path), BF_OK);
    cr_assert(bf_filter_contains(back, "big-7", 5));
    bf_filter_free(back);
    assert_only(dir, "f.bflt");
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(rmdir(dir), 0);
    bf_filter_free(big);
    bf_filter_free(good);
    free(good_img);
}

Test(savefail, unwritable_paths) {
    char dir[] = "/tmp/bf-savefail-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char path[256], bad[300];
    snprintf(path, sizeof path, "%s/f.bflt", dir);
    bf_filter *good = make_filter(1000, "good");
    size_t good_len;
    uint8_t *good_img = image_of(good, &good_len);
    cr_assert_eq(bf_filter_save_file(good, path), BF_OK);

    /* A path through a regular file (ENOTDIR, even for root). */
    snprintf(bad, sizeof bad, "%s/x.bflt", path);
    int rc = bf_filter_save_file(good, bad);
    fprintf(stderr, "savefail: path through a file -> %s\n", bf_strerror(rc));
    cr_assert_eq(rc, BF_EIO);
    /* A missing directory. */
    snprintf(bad, sizeof bad, "%s/missing/x.bflt", dir);
    cr_assert_eq(bf_filter_save_file(good, bad), BF_EIO);
    /* A directory in place of the file. */
    snprintf(bad, sizeof bad, "%s/sub", dir);
    cr_assert_eq(mkdir(bad, 0700), 0);
    rc = bf_filter_save_file(good, bad);
    cr_assert_neq(rc, BF_OK, "saved over a directory");
    cr_assert_eq(rmdir(bad), 0, "the directory was changed");
    /* A read-only directory (root bypasses permissions: then skipped). */
    if (geteuid() != 0) {
        cr_assert_eq(chmod(dir, 0500), 0);
        rc = bf_filter_save_file(good, path);
        cr_assert_eq(chmod(dir, 0700), 0);
        cr_assert_eq(rc, BF_EIO, "save into a read-only directory: %s", bf_strerror(rc));
    }
    cr_assert_eq(bf_filter_save_file(good, NULL), BF_EINVAL);
    cr_assert_eq(bf_filter_save_file(NULL, path), BF_EINVAL);
    assert_intact(path, good_img, good_len);
    assert_only(dir, "f.bflt");
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(rmdir(dir), 0);
    bf_filter_free(good);
    free(good_img);
}

/* A 256 KiB tmpfs in a private mount namespace (so nothing outlives the
 * test): filling it makes the next save hit ENOSPC. Needs CAP_SYS_ADMIN;
 * skipped otherwise. */
Test(savefail, full_tmpfs) {
    char dir[] = "/tmp/bf-fulldisk-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
        mount("tmpfs", dir, "tmpfs", 0, "size=256k") != 0) {
        int e = errno;
        rmdir(dir);
        cr_skip_test("cannot mount a private tmpfs (%s): full-disk case covered by RLIMIT_FSIZE",
                     strerror(e));
    }
    char path[256];
    snprintf(path, sizeof path, "%s/f.bflt", dir);
    bf_filter *good = make_filter(1000, "good");
    size_t good_len;
    uint8_t *good_img = image_of(good, &good_len);
    cr_assert_eq(bf_filter_save_file(good, path), BF_OK);
    /* 200 KB filter: fits the disk alone, not next to the filler. */
    bf_filter *mid = make_filter(160000, "mid");
    size_t mid_len = bf_filter_save_size(mid);
    cr_assert(mid_len > 150000 && mid_len < 250000, "%zu", mid_len);
    char filler[300];
    snprintf(filler, sizeof filler, "%s/filler", dir);
    FILE *fp = fopen(filler, "wb");
    cr_assert_not_null(fp);
    static uint8_t block[4096];
    while (fwrite(block, 1, sizeof block, fp) == sizeof block && fflush(fp) == 0) {
    }
    fclose(fp);
    /* Free a little, less than the new file needs. */
    struct stat st;
    cr_assert_eq(stat(filler, &st), 0);
    cr_assert_eq(truncate(filler, st.st_size > 65536 ? st.st_size - 65536 : 0), 0);
    int rc = bf_filter_save_file(mid, path);
    fprintf(stderr, "savefail: full tmpfs -> %s\n", bf_strerror(rc));
    cr_assert_eq(rc, BF_EIO, "save to a full disk: %s", bf_strerror(rc));
    assert_intact(path, good_img, good_len);
    cr_assert_eq(unlink(filler), 0);
    assert_only(dir, "f.bflt");
    cr_assert_eq(bf_filter_save_file(mid, path), BF_OK, "save after freeing space");
    umount2(dir, MNT_DETACH);
    rmdir(dir);
    bf_filter_free(mid);
    bf_filter_free(good);
    free(good_img);
}
