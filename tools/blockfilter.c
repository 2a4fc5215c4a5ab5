/*
 * blockfilter — build, query, inspect, merge and convert filter files.
 *
 *   blockfilter calc    --n N --fpp P | --n N --bytes B
 *   blockfilter build   [--family F] [--fpp P] [--n N] [--seed S|--keyed]
 *                       [--crlf] [--progress|--quiet] -o FILE [INPUT]
 *   blockfilter query   [--count] [--crlf] FILE [INPUT]
 *   blockfilter info    [--json] FILE
 *   blockfilter merge   -o OUT A B...
 *   blockfilter convert --to parquet|native IN -o OUT
 *
 * Keys are bytes: one key per line, the line ending "\n" removed and
 * nothing else (embedded NUL bytes and invalid UTF-8 are kept as they are;
 * with --crlf one "\r" before the "\n" is removed too). A last line without
 * "\n" is a key; an empty line is the empty key.
 *
 * Exit status: 0 success (query: every key may be present), 1 query found a
 * key that is absent, 2 any error (bad usage, unreadable or invalid file).
 */
#define _GNU_SOURCE
#include "blockfilter.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXIT_ABSENT 1
#define EXIT_ERROR 2

static const char *prog = "blockfilter";

/* ---------------------------------------------------------------------- */
/* Errors                                                                  */
/* ---------------------------------------------------------------------- */

static void msg(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* "<prog>: <file>: <what>: <library status>[: <errno text>]" */
static int lib_error(const char *file, const char *what, int rc, int err) {
    if (rc == BF_EIO && err)
        msg("%s: %s: %s: %s", file, what, bf_strerror(rc), strerror(err));
    else
        msg("%s: %s: %s", file, what, bf_strerror(rc));
    return EXIT_ERROR;
}

static int sys_error(const char *file, const char *what) {
    msg("%s: %s: %s", file, what, strerror(errno));
    return EXIT_ERROR;
}

static int usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s %s: ", prog, cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry '%s %s --help'.\n", prog, cmd);
    va_end(ap);
    return EXIT_ERROR;
}

/* ---------------------------------------------------------------------- */
/* Options                                                                 */
/* ---------------------------------------------------------------------- */

typedef struct args {
    int argc;
    char **argv;
    int i;
    const char *cmd;
} args;

/* Matches "--name" (value in the next argument) or "--name=value". */
static int opt_value(args *a, const char *name, const char **value) {
    const char *arg = a->argv[a->i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return 0;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0') return 0;
    if (a->i + 1 >= a->argc) {
        *value = NULL;
        return -1;
    }
    *value = a->argv[++a->i];
    return 1;
}

/* Unsigned integer with optional suffix: k M G T (powers of 1000) or
 * Ki Mi Gi Ti (powers of 1024); also plain scientific notation (1e6). */
static int parse_u64(const char *s, uint64_t *out) {
    if (!s || !*s || *s == '-') return -1;
    char *end;
    errno = 0;
    uint64_t v = strtoull(s, &end, 10);
    if (errno) return -1;
    if (*end == 'e' || *end == 'E' || *end == '.') { /* 1e6, 2.5e9 */
        double d = strtod(s, &end);
        if (*end || !(d >= 0) || d >= 18446744073709551616.0 || d != floor(d)) return -1;
        *out = (uint64_t)d;
        return 0;
    }
    uint64_t mul = 1;
    static const char units[] = "kMGT";
    if (*end) {
        const char *u = strchr(units, *end == 'K' ? 'k' : *end);
        if (!u) return -1;
        int power = (int)(u - units) + 1;
        int binary = end[1] == 'i';
        if (end[1 + binary] != '\0') return -1;
        for (int p = 0; p < power; p++) mul *= binary ? 1024 : 1000;
    }
    if (mul && v > UINT64_MAX / mul) return -1;
    *out = v * mul;
    return 0;
}

static int parse_fpp(const char *s, double *out) {
    if (!s) return -1;
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (errno || *end || !(d > 0.0 && d < 1.0)) return -1;
    *out = d;
    return 0;
}

static int want_help(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 1;
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Key input                                                               */
/* ---------------------------------------------------------------------- */

typedef struct keys {
    FILE *fp;
    const char *name; /* for messages: the path, or "(stdin)" */
    char *line;
    size_t cap;
    int crlf;
    uint64_t lineno;
} keys;

static int keys_open(keys *k, const char *path, int crlf) {
    memset(k, 0, sizeof *k);
    k->crlf = crlf;
    if (!path || !strcmp(path, "-")) {
        k->fp = stdin;
        k->name = "(stdin)";
        return 0;
    }
    k->name = path;
    k->fp = fopen(path, "rb");
    if (!k->fp) return -1;
    struct stat st;
    if (fstat(fileno(k->fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(k->fp);
        k->fp = NULL;
        errno = EISDIR;
        return -1;
    }
    return 0;
}

static void keys_close(keys *k) {
    if (k->fp && k->fp != stdin) fclose(k->fp);
    free(k->line);
    k->fp = NULL;
    k->line = NULL;
}

/* Next key: 1 and (*data, *len), 0 at the end, -1 on a read error. */
static int keys_next(keys *k, const char **data, size_t *len) {
    ssize_t n = getline(&k->line, &k->cap, k->fp);
    if (n < 0) return ferror(k->fp) ? -1 : 0;
    size_t m = (size_t)n;
    if (m && k->line[m - 1] == '\n') {
        m--;
        if (k->crlf && m && k->line[m - 1] == '\r') m--;
    }
    k->lineno++;
    *data = k->line;
    *len = m;
    return 1;
}

/* Number of keys in a regular file, in one streaming pass. */
static int count_keys(const char *path, uint64_t *out) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return -1;
    static char buf[1 << 16];
    uint64_t lines = 0;
    size_t n;
    char last = '\n';
    int any = 0;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0) {
        any = 1;
        for (const char *p = buf, *end = buf + n; (p = memchr(p, '\n', (size_t)(end - p))); p++)
            lines++;
        last = buf[n - 1];
    }
    int err = ferror(fp);
    fclose(fp);
    if (err) return -1;
    if (any && last != '\n') lines++; /* a last key without newline */
    *out = lines;
    return 0;
}

/* Progress on stderr: on a terminal by default for large inputs, always
 * with --progress, never with --quiet. */
typedef struct progress {
    int on;
    uint64_t total; /* 0 if unknown */
    uint64_t next;
} progress;

#define PROGRESS_STEP 1000000u

static void progress_update(progress *p, uint64_t done, const char *what) {
    if (!p->on || done < p->next) return;
    p->next = done + PROGRESS_STEP;
    if (p->total)
        fprintf(stderr, "\r%s: %" PRIu64 " / %" PRIu64 " keys (%.0f%%)", what, done, p->total,
                100.0 * (double)done / (double)p->total);
    else
        fprintf(stderr, "\r%s: %" PRIu64 " keys", what, done);
    fflush(stderr);
}

static void progress_end(progress *p, uint64_t done, const char *what) {
    if (!p->on || done < PROGRESS_STEP) return;
    fprintf(stderr, "\r%s: %" PRIu64 " keys, done.          \n", what, done);
}

/* ---------------------------------------------------------------------- */
/* Output files                                                            */
/* ---------------------------------------------------------------------- */

/* Writes buf to path atomically (temporary file + fsync + rename), the same
 * way the library saves filters. */
static int write_file_atomic(const char *path, const void *buf, size_t len) {
    size_t n = strlen(path) + 32;
    char *tmp = malloc(n);
    if (!tmp) return -1;
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    const uint8_t *p = buf;
    size_t left = len;
    int ok = 1;
    while (left && ok) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) ok = 0;
        else {
            p += w;
            left -= (size_t)w;
        }
    }
    if (ok && fsync(fd) != 0) ok = 0;
    int saved = errno;
    if (close(fd) != 0 && ok) {
        ok = 0;
        saved = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = 0;
        saved = errno;
    }
    if (!ok) unlink(tmp);
    free(tmp);
    errno = saved;
    return ok ? 0 : -1;
}

static uint8_t *read_whole_file(const char *path, size_t *len) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    struct stat st;
    if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode)) {
        if (errno == 0 || S_ISDIR(st.st_mode)) errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        fclose(fp);
        return NULL;
    }
    size_t size = (size_t)st.st_size;
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) {
        fclose(fp);
        errno = ENOMEM;
        return NULL;
    }
    size_t got = fread(buf, 1, size, fp);
    int err = ferror(fp);
    fclose(fp);
    if (err) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    *len = got;
    return buf;
}

/* Maps a native filter file; prints the error naming the file. */
static int open_filter(const char *path, unsigned flags, bf_filter **out) {
    errno = 0;
    int rc = bf_filter_map_file(out, path, flags);
    if (rc) {
        int err = errno;
        if (rc == BF_EFORMAT) {
            /* A Parquet filter? Say how to use it. */
            size_t len;
            uint8_t *buf = read_whole_file(path, &len);
            bf_sbbf *s = NULL;
            if (buf && bf_sbbf_from_parquet(&s, buf, len) == BF_OK) {
                bf_sbbf_free(s);
                free(buf);
                msg("%s: a Parquet filter, not a native one: run '%s convert --to native %s -o OUT'",
                    path, prog, path);
                return EXIT_ERROR;
            }
            free(buf);
        }
        return lib_error(path, "cannot open filter", rc, err);
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* calc                                                                    */
/* ---------------------------------------------------------------------- */

static const bf_family all_families[] = {BF_FAMILY_SBBF, BF_FAMILY_BLOOM, BF_FAMILY_COUNTING,
                                         BF_FAMILY_CUCKOO};
#define NFAMILIES (sizeof all_families / sizeof *all_families)

static const char calc_help[] =
    "usage: blockfilter calc --n N --fpp P\n"
    "       blockfilter calc --n N --bytes B\n"
    "\n"
    "For every family, the filter bf_filter_new would build for N keys at a\n"
    "false-positive rate P: payload bytes, bits per key, hashes (k) or cuckoo\n"
    "fingerprint bits, and the model FPR at N keys. With --bytes, the reverse:\n"
    "the model FPR of a B-byte filter holding N keys.\n"
    "\n"
    "Numbers take suffixes k M G T (x1000) or Ki Mi Gi Ti (x1024), or 1e6.\n"
    "  --n N       number of distinct keys\n"
    "  --fpp P     target false-positive rate, 0 < P < 1\n"
    "  --bytes B   filter size in bytes (reverse mode)\n";

static int cmd_calc(int argc, char **argv) {
    if (want_help(argc, argv)) {
        fputs(calc_help, stdout);
        return 0;
    }
    args a = {argc, argv, 1, "calc"};
    uint64_t n = 0, bytes = 0;
    double fpp = 0;
    int have_n = 0, have_fpp = 0, have_bytes = 0;
    for (; a.i < argc; a.i++) {
        const char *v;
        int r;
        if ((r = opt_value(&a, "--n", &v))) {
            if (r < 0 || parse_u64(v, &n) || n == 0)
                return usage_error("calc", "--n needs a positive integer");
            have_n = 1;
        } else if ((r = opt_value(&a, "--fpp", &v))) {
            if (r < 0 || parse_fpp(v, &fpp))
                return usage_error("calc", "--fpp needs a number in (0, 1)");
            have_fpp = 1;
        } else if ((r = opt_value(&a, "--bytes", &v))) {
            if (r < 0 || parse_u64(v, &bytes) || bytes == 0)
                return usage_error("calc", "--bytes needs a positive integer");
            have_bytes = 1;
        } else {
            return usage_error("calc", "unknown argument '%s'", argv[a.i]);
        }
    }
    if (!have_n || have_fpp == have_bytes)
        return usage_error("calc", "give --n and exactly one of --fpp or --bytes");
    if (have_fpp) {
        printf("%" PRIu64 " keys at fpp %g\n", n, fpp);
        printf("%-9s %15s %9s %4s %8s %12s\n", "family", "bytes", "bits/key", "k", "fp_bits",
               "model_fpp");
        int status = 0;
        for (size_t i = 0; i < NFAMILIES; i++) {
            bf_sizing s;
            int rc = bf_size_for(all_families[i], n, fpp, &s);
            if (rc) {
                printf("%-9s %s\n", bf_family_name(all_families[i]), bf_strerror(rc));
                status = EXIT_ERROR;
                continue;
            }
            char kbuf[16] = "-", fbuf[16] = "-";
            if (s.k) snprintf(kbuf, sizeof kbuf, "%u", s.k);
            if (s.fp_bits) snprintf(fbuf, sizeof fbuf, "%u", s.fp_bits);
            printf("%-9s %15" PRIu64 " %9.3f %4s %8s %12.4g\n", bf_family_name(all_families[i]),
                   s.num_bytes, s.bits_per_key, kbuf, fbuf, s.model_fpp);
        }
        return status;
    }
    printf("%" PRIu64 " keys in %" PRIu64 " bytes (%.3f bits/key)\n", n, bytes,
           8.0 * (double)bytes / (double)n);
    printf("%-9s %12s\n", "family", "model_fpp");
    int status = 0;
    for (size_t i = 0; i < NFAMILIES; i++) {
        double p;
        int rc = bf_fpp_for(all_families[i], bytes, n, &p);
        if (rc == BF_EFULL) {
            printf("%-9s %12s  (cannot hold %" PRIu64 " keys in %" PRIu64 " bytes)\n",
                   bf_family_name(all_families[i]), "-", n, bytes);
        } else if (rc) {
            printf("%-9s %s\n", bf_family_name(all_families[i]), bf_strerror(rc));
            status = EXIT_ERROR;
        } else {
            printf("%-9s %12.4g\n", bf_family_name(all_families[i]), p);
        }
    }
    return status;
}

/* ---------------------------------------------------------------------- */
/* build                                                                   */
/* ---------------------------------------------------------------------- */

static const char build_help[] =
    "usage: blockfilter build [--family F] [--fpp P] [--n N] [--seed S | --keyed]\n"
    "                         [--crlf] [--progress | --quiet] -o FILE [INPUT]\n"
    "\n"
    "Builds a filter from the keys in INPUT (a file, or standard input if\n"
    "absent or '-'), one key per line, and saves it atomically to FILE in the\n"
    "native format. Keys are bytes: only the '\\n' ending is removed; NUL\n"
    "bytes and invalid UTF-8 are part of the key.\n"
    "\n"
    "  --family F  sbbf (default), bloom, counting or cuckoo\n"
    "  --fpp P     target false-positive rate (default 0.01)\n"
    "  --n N       size for N keys; default: count the keys first (a file is\n"
    "              read twice; standard input is buffered as 8-byte hashes)\n"
    "  --seed S    keyed hashing with seed S (decimal or 0x hex); the default\n"
    "              seed 0 is Parquet's XXH64 hash\n"
    "  --keyed     keyed hashing with a random seed from the OS\n"
    "  --crlf      also remove one '\\r' before each '\\n'\n"
    "  --progress  report progress on stderr (default: on a terminal, for\n"
    "              inputs of a million keys or more); --quiet: never\n"
    "  -o FILE     output file\n";

static int cmd_build(int argc, char **argv) {
    if (want_help(argc, argv)) {
        fputs(build_help, stdout);
        return 0;
    }
    args a = {argc, argv, 1, "build"};
    bf_family family = BF_FAMILY_SBBF;
    double fpp = 0.01;
    uint64_t n = 0, seed = 0;
    int have_n = 0, have_seed = 0, keyed = 0, crlf = 0, prog_mode = -1;
    const char *out = NULL, *input = NULL;
    for (; a.i < argc; a.i++) {
        const char *v;
        int r;
        if ((r = opt_value(&a, "--family", &v))) {
            if (r < 0 || bf_family_from_name(v, &family) != BF_OK)
                return usage_error("build", "--family needs one of sbbf, bloom, counting, cuckoo");
        } else if ((r = opt_value(&a, "--fpp", &v))) {
            if (r < 0 || parse_fpp(v, &fpp))
                return usage_error("build", "--fpp needs a number in (0, 1)");
        } else if ((r = opt_value(&a, "--n", &v))) {
            if (r < 0 || parse_u64(v, &n)) return usage_error("build", "--n needs an integer");
            have_n = 1;
        } else if ((r = opt_value(&a, "--seed", &v))) {
            char *end;
            errno = 0;
            if (r < 0 || !*v || *v == '-') return usage_error("build", "--seed needs an integer");
            seed = strtoull(v, &end, 0);
            if (errno || *end) return usage_error("build", "--seed needs an integer");
            have_seed = 1;
        } else if ((r = opt_value(&a, "-o", &v)) || (r = opt_value(&a, "--output", &v))) {
            if (r < 0) return usage_error("build", "-o needs a file name");
            out = v;
        } else if (!strcmp(argv[a.i], "--keyed")) {
            keyed = 1;
        } else if (!strcmp(argv[a.i], "--crlf")) {
            crlf = 1;
        } else if (!strcmp(argv[a.i], "--progress")) {
            prog_mode = 1;
        } else if (!strcmp(argv[a.i], "--quiet")) {
            prog_mode = 0;
        } else if (argv[a.i][0] == '-' && argv[a.i][1] != '\0') {
            return usage_error("build", "unknown option '%s'", argv[a.i]);
        } else if (!input) {
            input = argv[a.i];
        } else {
            return usage_error("build", "more than one input");
        }
    }
    if (!out) return usage_error("build", "-o FILE is required");
    if (have_seed && keyed) return usage_error("build", "--seed and --keyed exclude each other");
    if (keyed) {
        int rc = bf_random_seed(&seed);
        if (rc) return lib_error("(os)", "random seed", rc, errno);
        if (seed == 0) seed = 1;
    }
    int from_file = input && strcmp(input, "-") != 0;

    progress pg = {prog_mode == 1 || (prog_mode < 0 && isatty(2)), 0, PROGRESS_STEP};
    keys k;
    uint64_t *hashes = NULL;
    size_t nh = 0, caph = 0;

    if (!have_n && from_file) {
        if (count_keys(input, &n) != 0) return sys_error(input, "cannot read");
        have_n = 1;
    }
    if (keys_open(&k, input, crlf) != 0) return sys_error(input, "cannot open");
    if (!have_n) {
        /* Standard input of unknown length: buffer the hashes (8 bytes a
         * key), then size the filter for exactly that many. */
        const char *d;
        size_t len;
        int r;
        while ((r = keys_next(&k, &d, &len)) > 0) {
            if (nh == caph) {
                size_t nc = caph ? caph * 2 : 4096;
                uint64_t *nhs = realloc(hashes, nc * sizeof *hashes);
                if (!nhs) {
                    free(hashes);
                    keys_close(&k);
                    msg("%s: out of memory buffering %zu keys (give --n)", k.name, nh);
                    return EXIT_ERROR;
                }
                hashes = nhs;
                caph = nc;
            }
            hashes[nh++] = bf_hash_xxh64_seeded(d, len, seed);
            progress_update(&pg, nh, "reading");
        }
        if (r < 0) {
            free(hashes);
            int rc = sys_error(k.name, "read error");
            keys_close(&k);
            return rc;
        }
        n = nh;
    }
    pg.total = n;
    pg.next = PROGRESS_STEP;

    bf_filter *f = NULL;
    /* An empty input still gives a valid (empty) filter, sized for 1 key. */
    int rc = bf_filter_new(&f, family, n ? n : 1, fpp);
    if (rc) {
        free(hashes);
        keys_close(&k);
        char what[96];
        snprintf(what, sizeof what, "cannot create a %s filter for %" PRIu64 " keys",
                 bf_family_name(family), n);
        return lib_error(out, what, rc, 0);
    }
    if (seed && (rc = bf_filter_set_seed(f, seed)) != BF_OK) {
        free(hashes);
        keys_close(&k);
        bf_filter_free(f);
        return lib_error(out, "cannot set seed", rc, 0);
    }
    uint64_t done = 0;
    if (hashes) {
        for (size_t i = 0; i < nh; i++) {
            rc = bf_filter_insert_hash(f, hashes[i]);
            if (rc) {
                msg("%s: line %zu: %s (the filter holds %zu keys; give a larger --n or --fpp)",
                    k.name, i + 1, bf_strerror(rc), i);
                break;
            }
            progress_update(&pg, ++done, "inserting");
        }
    } else {
        const char *d;
        size_t len;
        int r;
        while ((r = keys_next(&k, &d, &len)) > 0) {
            rc = bf_filter_insert(f, d, len);
            if (rc) {
                msg("%s: line %" PRIu64 ": %s (the filter holds %" PRIu64
                    " keys; give a larger --n or --fpp)",
                    k.name, k.lineno, bf_strerror(rc), done);
                break;
            }
            progress_update(&pg, ++done, "inserting");
        }
        if (r < 0 && !rc) {
            rc = BF_EIO;
            sys_error(k.name, "read error");
        }
    }
    progress_end(&pg, done, "inserting");
    free(hashes);
    keys_close(&k);
    if (rc) {
        bf_filter_free(f);
        return EXIT_ERROR;
    }
    errno = 0;
    rc = bf_filter_save_file(f, out);
    int err = errno;
    bf_filter_free(f);
    if (rc) return lib_error(out, "cannot save", rc, err);
    return 0;
}

/* ---------------------------------------------------------------------- */
/* query                                                                   */
/* ---------------------------------------------------------------------- */

static const char query_help[] =
    "usage: blockfilter query [--count] [--crlf] FILE [INPUT]\n"
    "\n"
    "Looks up every key of INPUT (a file, or standard input if absent or '-'),\n"
    "one key per line, in the filter FILE (mapped, not copied). Prints each\n"
    "key's bytes, a tab, and 'maybe' or 'no'; with --count only the totals.\n"
    "\n"
    "Exit status: 0 if every key may be present (also for no keys), 1 if some\n"
    "key is certainly absent, 2 on an error.\n"
    "  --count     print only the totals: maybe N, no N, total N\n"
    "  --crlf      also remove one '\\r' before each '\\n'\n";

static int cmd_query(int argc, char **argv) {
    if (want_help(argc, argv)) {
        fputs(query_help, stdout);
        return 0;
    }
    int count_only = 0, crlf = 0;
    const char *file = NULL, *input = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--count")) count_only = 1;
        else if (!strcmp(argv[i], "--crlf")) crlf = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return usage_error("query", "unknown option '%s'", argv[i]);
        else if (!file) file = argv[i];
        else if (!input) input = argv[i];
        else return usage_error("query", "too many arguments");
    }
    if (!file) return usage_error("query", "FILE is required");
    bf_filter *f;
    int st = open_filter(file, 0, &f);
    if (st) return st;
    keys k;
    if (keys_open(&k, input, crlf) != 0) {
        bf_filter_free(f);
        return sys_error(input, "cannot open");
    }
    uint64_t maybe = 0, no = 0;
    const char *d;
    size_t len;
    int r;
    while ((r = keys_next(&k, &d, &len)) > 0) {
        bool hit = bf_filter_contains(f, d, len);
        if (hit) maybe++;
        else no++;
        if (!count_only) {
            fwrite(d, 1, len, stdout);
            fputs(hit ? "\tmaybe\n" : "\tno\n", stdout);
        }
    }
    int status = no ? EXIT_ABSENT : 0;
    if (r < 0) status = sys_error(k.name, "read error");
    keys_close(&k);
    bf_filter_free(f);
    if (count_only)
        printf("maybe %" PRIu64 "\nno %" PRIu64 "\ntotal %" PRIu64 "\n", maybe, no, maybe + no);
    if (fflush(stdout) != 0 || ferror(stdout)) return sys_error("(stdout)", "write error");
    return status;
}

/* ---------------------------------------------------------------------- */
/* info                                                                    */
/* ---------------------------------------------------------------------- */

static const char info_help[] =
    "usage: blockfilter info [--json] FILE\n"
    "\n"
    "Describes a native filter file: family, sizes, kernel, keys inserted,\n"
    "fill ratio, estimated keys and FPR as it stands, format version, and\n"
    "whether hashing is keyed. Verifies the payload checksum.\n"
    "  --json      one JSON object instead of text\n";

static void json_string(const char *s) {
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') printf("\\%c", c);
        else if (c < 0x20) printf("\\u%04x", c);
        else putchar(c);
    }
    putchar('"');
}

static int cmd_info(int argc, char **argv) {
    if (want_help(argc, argv)) {
        fputs(info_help, stdout);
        return 0;
    }
    int json = 0;
    const char *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) json = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return usage_error("info", "unknown option '%s'", argv[i]);
        else if (!file) file = argv[i];
        else return usage_error("info", "too many arguments");
    }
    if (!file) return usage_error("info", "FILE is required");
    bf_filter *f;
    int st = open_filter(file, BF_VIEW_VERIFY_PAYLOAD, &f);
    if (st) return st;
    /* The header fields the filter object does not carry. */
    uint8_t hdr[BF_HEADER_BYTES];
    FILE *fp = fopen(file, "rb");
    if (!fp || fread(hdr, 1, sizeof hdr, fp) != sizeof hdr) {
        if (fp) fclose(fp);
        bf_filter_free(f);
        return sys_error(file, "cannot read header");
    }
    fclose(fp);
    unsigned version = (unsigned)hdr[4] | ((unsigned)hdr[5] << 8);
    int keyed_flag = hdr[7] & 1;
    struct stat sb;
    uint64_t file_bytes = stat(file, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    bf_stats s;
    int rc = bf_filter_stats(f, &s);
    if (rc) {
        bf_filter_free(f);
        return lib_error(file, "cannot compute statistics", rc, 0);
    }
    uint64_t seed = bf_filter_seed(f);
    const char *fam = bf_family_name(s.family);
    const char *cells = s.family == BF_FAMILY_COUNTING ? "counters"
                        : s.family == BF_FAMILY_CUCKOO ? "slots"
                                                       : "bits";
    if (json) {
        printf("{\"file\":");
        json_string(file);
        printf(",\"format_version\":%u,\"family\":\"%s\",\"file_bytes\":%" PRIu64
               ",\"payload_bytes\":%" PRIu64 ",\"kernel\":\"%s\",\"keys_inserted\":%" PRIu64
               ",\"cells\":%" PRIu64 ",\"cells_set\":%" PRIu64
               ",\"fill_ratio\":%.6f,\"est_keys\":%.1f,\"est_fpp\":%.6g,\"k\":%u,\"fp_bits\":%u"
               ",\"keyed\":%s,\"seed\":%" PRIu64 "}\n",
               version, fam, file_bytes, s.num_bytes, s.kernel, s.inserted, s.cells, s.cells_set,
               s.fill_ratio, s.est_keys, s.est_fpp, s.k, s.fp_bits, keyed_flag ? "true" : "false",
               seed);
    } else {
        printf("file:            %s\n", file);
        printf("format version:  %u\n", version);
        printf("family:          %s\n", fam);
        printf("file bytes:      %" PRIu64 "\n", file_bytes);
        printf("payload bytes:   %" PRIu64 "\n", s.num_bytes);
        printf("kernel:          %s\n", s.kernel);
        printf("keys inserted:   %" PRIu64 "\n", s.inserted);
        printf("%s:%*s%" PRIu64 " (%" PRIu64 " set)\n", cells, (int)(16 - strlen(cells)), "",
               s.cells, s.cells_set);
        printf("fill ratio:      %.6f\n", s.fill_ratio);
        printf("estimated keys:  %.1f\n", s.est_keys);
        printf("estimated fpp:   %.6g\n", s.est_fpp);
        if (s.family == BF_FAMILY_CUCKOO) printf("fingerprint bits: %u\n", s.fp_bits);
        else printf("hashes (k):      %u\n", s.k);
        if (keyed_flag) printf("hashing:         keyed, seed 0x%016" PRIx64 "\n", seed);
        else printf("hashing:         XXH64 seed 0 (Parquet)\n");
    }
    bf_filter_free(f);
    return 0;
}

/* ---------------------------------------------------------------------- */
/* merge                                                                   */
/* ---------------------------------------------------------------------- */

static const char merge_help[] =
    "usage: blockfilter merge -o OUT A B...\n"
    "\n"
    "Writes to OUT the union of the filters A, B, ...: every key of any input\n"
    "may be present in OUT. The inputs must have the same family, size and\n"
    "seed (build them with the same --family, --n, --fpp and --seed).\n"
    "sbbf and bloom OR their bits; counting adds its counters (saturating);\n"
    "cuckoo filters cannot be merged.\n"
    "  -o OUT      output file (may be one of the inputs)\n";

static int cmd_merge(int argc, char **argv) {
    if (want_help(argc, argv)) {
        fputs(merge_help, stdout);
        return 0;
    }
    args a = {argc, argv, 1, "merge"};
    const char *out = NULL;
    const char **in = calloc((size_t)argc, sizeof *in);
    size_t nin = 0;
    if (!in) return sys_error("(memory)", "cannot allocate");
    for (; a.i < argc; a.i++) {
        const char *v;
        int r;
        if ((r = opt_value(&a, "-o", &v)) || (r = opt_value(&a, "--output", &v))) {
            if (r < 0) {
                free(in);
                return usage_error("merge", "-o needs a file name");
            }
            out = v;
        } else if (argv[a.i][0] == '-' && argv[a.i][1] != '\0') {
            free(in);
            return usage_error("merge", "unknown option '%s'", argv[a.i]);
        } else {
            in[nin++] = argv[a.i];
        }
    }
    if (!out || nin < 2) {
        free(in);
        return usage_error("merge", "need -o OUT and at least two inputs");
    }
    bf_filter *acc = NULL;
    errno = 0;
    int rc = bf_filter_load_file(&acc, in[0]);
    if (rc) {
        int st = lib_error(in[0], "cannot load filter", rc, errno);
        free(in);
        return st;
    }
    for (size_t i = 1; i < nin; i++) {
        bf_filter *g;
        int st = open_filter(in[i], 0, &g);
        if (st) {
            bf_filter_free(acc);
            free(in);
            return st;
        }
        rc = bf_filter_merge(acc, g);
        bf_filter_free(g);
        if (rc) {
            char what[64];
            snprintf(what, sizeof what, "cannot merge into %s", in[0]);
            lib_error(in[i], what, rc, 0);
            bf_filter_free(acc);
            free(in);
            return EXIT_ERROR;
        }
    }
    free(in);
    errno = 0;
    rc = bf_filter_save_file(acc, out);
    int err = errno;
    bf_filter_free(acc);
    if (rc) return lib_error(out, "cannot save", rc, err);
    return 0;
}

/* ---------------------------------------------------------------------- */
/* convert                                                                 */
/* ---------------------------------------------------------------------- */

static const char convert_help[] =
    "usage: blockfilter convert --to parquet|native IN -o OUT\n"
    "\n"
    "--to parquet: IN is a native sbbf filter; OUT gets Parquet's Bloom\n"
    "  filter bytes (Thrift-compact BloomFilterHeader + bitset), as a Parquet\n"
    "  writer stores them. Keyed filters cannot be expressed (Parquet hashes\n"
    "  with seed 0). Parquet readers accept bitsets of 32 B to 128 MiB.\n"
    "--to native: IN holds Parquet filter bytes (header + bitset, e.g. cut\n"
    "  from a Parquet file at the column's bloom_filter_offset); OUT is a\n"
    "  native sbbf filter. The key count is unknown: the least the bitset\n"
    "  implies (set bits / 8) is recorded.\n"
    "  -o OUT      output file\n";

static int cmd_convert(int argc, char **argv) {
    if (want_help(argc, argv)) {
        fputs(convert_help, stdout);
        return 0;
    }
    args a = {argc, argv, 1, "convert"};
    const char *to = NULL, *in = NULL, *out = NULL;
    for (; a.i < argc; a.i++) {
        const char *v;
        int r;
        if ((r = opt_value(&a, "--to", &v))) {
            if (r < 0) return usage_error("convert", "--to needs parquet or native");
            to = v;
        } else if ((r = opt_value(&a, "-o", &v)) || (r = opt_value(&a, "--output", &v))) {
            if (r < 0) return usage_error("convert", "-o needs a file name");
            out = v;
        } else if (argv[a.i][0] == '-' && argv[a.i][1] != '\0') {
            return usage_error("convert", "unknown option '%s'", argv[a.i]);
        } else if (!in) {
            in = argv[a.i];
        } else {
            return usage_error("convert", "more than one input");
        }
    }
    if (!to || (strcmp(to, "parquet") && strcmp(to, "native")))
        return usage_error("convert", "--to needs parquet or native");
    if (!in || !out) return usage_error("convert", "need IN and -o OUT");

    if (!strcmp(to, "parquet")) {
        bf_filter *f;
        int st = open_filter(in, BF_VIEW_VERIFY_PAYLOAD, &f);
        if (st) return st;
        bf_sbbf *s = bf_filter_sbbf(f);
        if (!s) {
            msg("%s: a %s filter; only sbbf filters have a Parquet form", in,
                bf_family_name(bf_filter_family(f)));
            bf_filter_free(f);
            return EXIT_ERROR;
        }
        if (bf_filter_seed(f) != 0) {
            msg("%s: keyed filter (seed != 0): Parquet readers hash with seed 0", in);
            bf_filter_free(f);
            return EXIT_ERROR;
        }
        size_t cap = bf_sbbf_parquet_size(s), written = 0;
        int oversize = bf_sbbf_num_bytes(s) > BF_PARQUET_MAX_BYTES;
        uint8_t *buf = malloc(cap ? cap : 1);
        if (!buf) {
            bf_filter_free(f);
            return sys_error(out, "cannot allocate");
        }
        int rc = bf_sbbf_to_parquet(s, buf, cap, &written);
        bf_filter_free(f);
        if (rc) {
            free(buf);
            return lib_error(in, "cannot write Parquet form", rc, 0);
        }
        int wr = write_file_atomic(out, buf, written);
        free(buf);
        if (wr) return sys_error(out, "cannot write");
        if (oversize)
            msg("%s: warning: bitset larger than the 128 MiB Parquet readers accept", out);
        return 0;
    }

    size_t len = 0;
    uint8_t *buf = read_whole_file(in, &len);
    if (!buf) return sys_error(in, "cannot read");
    bf_sbbf *s = NULL;
    size_t consumed = 0;
    int rc = bf_sbbf_from_parquet_ex(&s, buf, len, &consumed);
    free(buf);
    if (rc) return lib_error(in, "not a Parquet Bloom filter", rc, 0);
    if (consumed != len)
        msg("%s: warning: %zu bytes after the filter ignored", in, len - consumed);
    bf_filter *f = NULL;
    if ((rc = bf_filter_from_sbbf(&f, s))) {
        bf_sbbf_free(s);
        return lib_error(in, "cannot wrap the filter", rc, 0);
    }
    rc = bf_filter_save_file(f, out);
    bf_filter_free(f);
    if (rc) return lib_error(out, "cannot write", rc, errno);
    return 0;
}

/* ---------------------------------------------------------------------- */
/* main                                                                    */
/* ---------------------------------------------------------------------- */

static const char main_help[] =
    "usage: blockfilter COMMAND [OPTIONS]\n"
    "\n"
    "Approximate-membership filters from the command line.\n"
    "\n"
    "commands:\n"
    "  calc     sizes and false-positive rates of every family\n"
    "  build    build a filter from keys, one per line\n"
    "  query    look keys up in a filter\n"
    "  info     describe a filter file\n"
    "  merge    union of filters of the same shape\n"
    "  convert  native sbbf <-> Parquet filter bytes\n"
    "\n"
    "'blockfilter COMMAND --help' describes a command. '--version' prints the\n"
    "library version. Exit status: 0 ok, 1 query found an absent key, 2 error.\n";

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(main_help, stderr);
        return EXIT_ERROR;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        fputs(main_help, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version")) {
        printf("blockfilter %s\n", bf_version_string());
        return 0;
    }
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } cmds[] = {{"calc", cmd_calc},   {"build", cmd_build}, {"query", cmd_query},
                {"info", cmd_info},   {"merge", cmd_merge}, {"convert", cmd_convert}};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
        if (!strcmp(cmd, cmds[i].name)) return cmds[i].fn(argc - 1, argv + 1);
    msg("unknown command '%s' (try '%s --help')", cmd, prog);
    return EXIT_ERROR;
}
