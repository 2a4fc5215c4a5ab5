/*
 * Replays fuzz inputs without libFuzzer: runs a target's
 * LLVMFuzzerTestOneInput over files and directories given on the command
 * line (directories: every regular file in them, sorted by name). With
 * --prefixes, also every prefix of each input up to 4096 bytes long, so
 * every truncation of the seeds is checked. A broken invariant aborts the
 * process; success prints a one-line summary.
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int prefixes;
static unsigned long files, runs;

static int replay_file(const char *path) {
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        perror(path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                fclose(fp);
                free(buf);
                return 1;
            }
            buf = nb;
        }
        size_t got = fread(buf + len, 1, cap - len, fp);
        len += got;
        if (got == 0) break;
    }
    int err = ferror(fp);
    fclose(fp);
    if (err) {
        fprintf(stderr, "%s: read error\n", path);
        free(buf);
        return 1;
    }
    /* An exact-size copy, so ASan sees any read past the end. */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return 1;
    }
    memcpy(exact, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(exact, len);
    runs++;
    if (prefixes) {
        size_t lim = len < 4096 ? len : 4096;
        for (size_t n = 0; n < lim; n++) {
            uint8_t *p = malloc(n ? n : 1);
            if (!p) break;
            memcpy(p, exact, n);
            LLVMFuzzerTestOneInput(p, n);
            free(p);
            runs++;
        }
    }
    free(exact);
    files++;
    return 0;
}

static int cmp(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_path(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) return replay_file(path);
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn) break;
            names = nn;
        }
        size_t l = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(l);
        if (!names[n]) break;
        snprintf(names[n], l, "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat fs;
        if (stat(names[i], &fs) == 0 && S_ISREG(fs.st_mode)) rc |= replay_file(names[i]);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv) {
    int rc = 0, paths = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--prefixes") == 0) {
            prefixes = 1;
            continue;
        }
        rc |= replay_path(argv[i]);
        paths++;
    }
    if (!paths) {
        fprintf(stderr, "usage: %s [--prefixes] FILE|DIR...\n", argv[0]);
        return 2;
    }
    if (files == 0) {
        fprintf(stderr, "%s: no inputs found\n", argv[0]);
        return 1;
    }
    printf("%s: %lu inputs, %lu runs, %s\n", argv[0], files, runs, rc ? "FAILED" : "all passed");
    return rc;
}
