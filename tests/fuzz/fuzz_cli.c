/*
 * Fuzz target: the command-line tool's input handling, through its entry
 * point bf_cli_main (libblockfilter_cli), driven end to end on files in a
 * private temporary directory:
 *   mode 0: build a filter from the input as a key file (family, --crlf,
 *           --keyed picked by byte 1), then query it with the same key file:
 *           every key must be found (exit 0), and the query's output must be
 *           exactly the key lines as a plain line splitter sees them, each
 *           followed by "\tmaybe": no key is lost, split, merged or reordered
 *           by the chunked reader. Bits 4-7 of byte 1, when not 0, set the
 *           read buffer (BF_CLI_CHUNK_BYTES) to 1..15 bytes for build and
 *           16 - that for the query, so that lines straddle chunks. For
 *           the cuckoo family, byte 0 / 9, when not 0, picks a shape:
 *           --bucket-size (its bits 0-2) and --fingerprint-bits (bits 3-4), or
 *           --semisorted;
 *   mode 1: info [--json] on the input as a filter file;
 *   mode 2: query the input as a filter file (bits 4-7 of byte 1: read
 *           buffer bytes, as in mode 0);
 *   mode 3: convert the input (--to parquet|native); a success must load;
 *   mode 4: merge the input with itself;
 *   mode 5: calc with NUL-separated arguments from the input;
 *   mode 6: as mode 0 for a scalable chain from 4 keys up (byte 1: bits
 *           0-1 the expansion, bit 2 the ratio, bit 3 --nonscaling, which
 *           alone may refuse keys; bits 4-7 the read buffer).
 *   mode 7: parquet on the input as a Parquet file: the listing (bit 0 of
 *           byte 1: --json) succeeds exactly when the library opens the
 *           file; with bit 1, probes of column (byte 1 >> 2) % columns with
 *           a few values of every type, and with its min statistic as
 *           the library writes it, answer 0, 1 or 2.
 *   mode 8: as mode 0 for a blocked filter of one of 16 shapes (bits 0-3
 *           of byte 1: every kind of shape; bits 4-7 the read buffer).
 * Input: byte 0 % 9 = mode, byte 1 = options, then the file or argument bytes.
 * stdout and stderr of the tool are discarded (mode 0 keeps the query's
 * stdout to check it).
 */
#define _POSIX_C_SOURCE 200809L
#include <blockfilter_advanced.h>
#include <blockfilter_parquet.h>

#include "blockfilter_cli.h"
#include "fuzz_common.h"

#include <errno.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static char dir[64], keys_path[96], in_path[96], filt_path[96], out_path[96], fixed_keys[96],
    answers[96];
static FILE *devnull;

static void cleanup(void) {
    const char *files[] = {keys_path, in_path, filt_path, out_path, fixed_keys, answers};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) unlink(files[i]);
    rmdir(dir);
}

static void setup(void) {
    if (dir[0]) return;
    snprintf(dir, sizeof dir, "/tmp/bf-fuzz-cli.%ld", (long)getpid());
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) abort();
    snprintf(keys_path, sizeof keys_path, "%s/keys", dir);
    snprintf(in_path, sizeof in_path, "%s/in", dir);
    snprintf(filt_path, sizeof filt_path, "%s/filt", dir);
    snprintf(out_path, sizeof out_path, "%s/out", dir);
    snprintf(fixed_keys, sizeof fixed_keys, "%s/fixed-keys", dir);
    snprintf(answers, sizeof answers, "%s/answers", dir);
    FILE *fp = fopen(fixed_keys, "wb");
    if (!fp) abort();
    fputs("hello\nworld\n\nparquet\r\nbloom", fp);
    fclose(fp);
    devnull = fopen("/dev/null", "w");
    if (!devnull) abort();
    atexit(cleanup);
}

static void write_file(const char *path, const uint8_t *d, size_t n) {
    FILE *fp = fopen(path, "wb");
    if (!fp) abort();
    if (n && fwrite(d, 1, n, fp) != n) abort();
    if (fclose(fp) != 0) abort();
}

/* The whole of a file, or NULL. */
static uint8_t *read_whole_file(const char *path, size_t *len) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (cap - n < 4096) {
            cap = cap ? 2 * cap : 8192;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) abort();
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, fp);
        n += got;
    } while (got);
    fclose(fp);
    *len = n;
    return buf;
}

/* Runs the tool with stdout to out (NULL: discarded) and stderr discarded. */
static int cli_to(FILE *out, int argc, char **argv) {
    FILE *o = stdout, *e = stderr;
    stdout = out ? out : devnull;
    stderr = devnull;
    int rc = bf_cli_main(argc, argv);
    fflush(stdout);
    fflush(devnull);
    clearerr(devnull);
    stdout = o;
    stderr = e;
    return rc;
}

static int cli(int argc, char **argv) { return cli_to(NULL, argc, argv); }

static void set_chunk(unsigned bytes) {
    char v[16];
    snprintf(v, sizeof v, "%u", bytes);
    if (bytes) setenv("BF_CLI_CHUNK_BYTES", v, 1);
    else unsetenv("BF_CLI_CHUNK_BYTES");
}

/* What `query` prints for keys that are all present: every line (without
 * "\n", and with crlf without one "\r" before it; a last line without "\n"
 * whole), each followed by "\tmaybe\n". Split here the plain way. */
static uint8_t *expected_answers(const uint8_t *d, size_t n, int crlf, size_t *len) {
    uint8_t *out = malloc(n + 7 * (n + 1) + 1);
    FUZZ_CHECK(out != NULL);
    size_t o = 0, start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && d[i] != '\n') continue;
        if (i == n && start == n) break; /* a final "\n" adds no key */
        size_t klen = i - start;
        if (i < n && crlf && klen && d[i - 1] == '\r') klen--;
        memcpy(out + o, d + start, klen);
        memcpy(out + o + klen, "\tmaybe\n", 7);
        o += klen + 7;
        start = i + 1;
    }
    *len = o;
    return out;
}

#define ARGV(...) ((char *[]){__VA_ARGS__, NULL})
#define ARGC(...) ((int)(sizeof((char *[]){__VA_ARGS__}) / sizeof(char *)))
#define CLI(...) cli(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

/* build with the given options (read buffer `chunk` bytes, 0 = default),
 * then query the same keys: every key found, and the answers exactly the
 * key lines. may_fail: the family may refuse keys (exit 2, no file). */
static void build_and_query(const uint8_t *data, size_t size, unsigned chunk, int with_crlf,
                            char **opts, int nopts, int may_fail) {
    char *argv[24];
    int argc = 0;
    argv[argc++] = "blockfilter";
    argv[argc++] = "build";
    for (int i = 0; i < nopts; i++) argv[argc++] = opts[i];
    argv[argc++] = "--fpp";
    argv[argc++] = "0.01";
    argv[argc++] = "-o";
    argv[argc++] = filt_path;
    argv[argc++] = keys_path;
    argv[argc] = NULL;
    write_file(keys_path, data, size);
    set_chunk(chunk);
    int rc = cli(argc, argv);
    if (rc != 0) {
        set_chunk(0);
        FUZZ_CHECK(rc == BF_CLI_EXIT_ERROR && may_fail);
        return;
    }
    set_chunk(chunk ? 16 - chunk : 0);
    FILE *ans = fopen(answers, "wb");
    FUZZ_CHECK(ans != NULL);
    char *qargv[6];
    int qargc = 0;
    qargv[qargc++] = "blockfilter";
    qargv[qargc++] = "query";
    if (with_crlf) qargv[qargc++] = "--crlf";
    qargv[qargc++] = filt_path;
    qargv[qargc++] = keys_path;
    qargv[qargc] = NULL;
    rc = cli_to(ans, qargc, qargv);
    FUZZ_CHECK(fclose(ans) == 0);
    set_chunk(0);
    FUZZ_CHECK(rc == 0); /* every key built in is found */
    size_t got_len = 0, want_len = 0;
    uint8_t *got = read_whole_file(answers, &got_len);
    uint8_t *want = expected_answers(data, size, with_crlf, &want_len);
    FUZZ_CHECK(got != NULL);
    FUZZ_CHECK(got_len == want_len && (want_len == 0 || !memcmp(got, want, want_len)));
    free(got);
    free(want);
    rc = CLI("blockfilter", "info", "--json", filt_path);
    FUZZ_CHECK(rc == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    setup();
    unsigned mode = data[0] % 9u, opt = data[1], shape = data[0] / 9u;
    data += 2;
    size -= 2;
    unlink(filt_path);
    unlink(out_path);
    int rc;
    switch (mode) {
    case 0: {
        static char *fams[] = {"sbbf", "bloom", "counting", "cuckoo"};
        char *crlf = (opt & 4u) ? "--crlf" : "--quiet";
        char *keyed = (opt & 8u) ? "--keyed" : "--quiet";
        char *args[9] = {"--family", fams[opt & 3u], crlf, keyed};
        int nargs = 4;
        if ((opt & 3u) == 3u && shape) {
            static char *sizes[] = {"1", "2", "3", "4", "8", "16", "255", "4"};
            static char *bits[] = {"4", "7", "17", "32"};
            static char *ss_bits[] = {"5", "9", "16", "17"};
            args[nargs++] = "--bucket-size";
            args[nargs++] = sizes[shape & 7u];
            args[nargs++] = "--fingerprint-bits";
            args[nargs++] = (shape & 7u) == 7u ? ss_bits[shape >> 3] : bits[shape >> 3];
            if ((shape & 7u) == 7u) args[nargs++] = "--semisorted";
        }
        /* Only a cuckoo filter may refuse keys (BF_EFULL). */
        build_and_query(data, size, opt >> 4, (opt & 4u) != 0, args, nargs, (opt & 3u) == 3u);
        break;
    }
    case 6: {
        /* A scalable chain from 4 keys up: grows through layers of 4 x
         * expansion^i keys; non-scaling refuses the fifth new key. */
        static char *exps[] = {"1", "2", "3", "32768"};
        char *args[] = {"--family", "scalable", "--n", "4", "--expansion", exps[opt & 3u],
                        "--ratio", (opt & 4u) ? "0.9" : "0.5", (opt & 8u) ? "--nonscaling" : "--quiet"};
        build_and_query(data, size, opt >> 4, 0, args, 9, (opt & 8u) != 0);
        break;
    }
    case 8: {
        /* B, S, Z, K of each shape, as option values. */
        static char *shapes[16][4] = {
            {"32", "1", "1", "1"},    {"32", "1", "1", "4"},    {"64", "1", "1", "6"},
            {"64", "2", "2", "4"},    {"128", "1", "1", "7"},   {"128", "2", "1", "3"},
            {"128", "4", "2", "6"},   {"256", "1", "1", "8"},   {"256", "8", "8", "8"},
            {"256", "4", "4", "16"},  {"512", "1", "1", "32"},  {"512", "8", "8", "8"},
            {"512", "16", "16", "16"}, {"512", "8", "2", "6"},  {"512", "16", "4", "12"},
            {"512", "16", "1", "5"},
        };
        char **sh = shapes[opt & 15u];
        char *args[] = {"--family", "blocked", "--block-bits", sh[0], "--sectors", sh[1],
                        "--groups",  sh[2],     "--k",          sh[3]};
        build_and_query(data, size, opt >> 4, 0, args, 10, 0);
        break;
    }
    case 1:
        write_file(in_path, data, size);
        rc = (opt & 1u) ? CLI("blockfilter", "info", "--json", in_path)
                        : CLI("blockfilter", "info", in_path);
        FUZZ_CHECK(rc == 0 || rc == BF_CLI_EXIT_ERROR);
        break;
    case 2:
        write_file(in_path, data, size);
        set_chunk(opt >> 4);
        rc = CLI("blockfilter", "query", in_path, fixed_keys);
        set_chunk(0);
        FUZZ_CHECK(rc == 0 || rc == BF_CLI_EXIT_ABSENT || rc == BF_CLI_EXIT_ERROR);
        break;
    case 3: {
        write_file(in_path, data, size);
        int to_parquet = opt & 1u;
        rc = CLI("blockfilter", "convert", "--to", to_parquet ? "parquet" : "native", in_path,
                 "-o", out_path);
        FUZZ_CHECK(rc == 0 || rc == BF_CLI_EXIT_ERROR);
        if (rc == 0) {
            size_t len = 0;
            uint8_t *img = read_whole_file(out_path, &len);
            FUZZ_CHECK(img != NULL);
            if (to_parquet) {
                bf_sbbf *s = NULL;
                FUZZ_CHECK(bf_sbbf_from_parquet(&s, img, len, NULL) == BF_OK);
                bf_sbbf_free(s);
            } else {
                bf_filter *f = NULL;
                FUZZ_CHECK(bf_filter_load(&f, img, len) == BF_OK);
                bf_filter_free(f);
            }
            free(img);
        }
        break;
    }
    case 4:
        write_file(in_path, data, size);
        rc = CLI("blockfilter", "merge", "-o", out_path, in_path, in_path);
        FUZZ_CHECK(rc == 0 || rc == BF_CLI_EXIT_ERROR);
        if (rc == 0) {
            bf_filter *f = NULL;
            FUZZ_CHECK(bf_filter_load_file(&f, out_path) == BF_OK);
            bf_filter_free(f);
        }
        break;
    case 7: {
        write_file(in_path, data, size);
        bf_parquet_file *pf = NULL;
        int opened = bf_parquet_open_buffer(&pf, data, size) == BF_OK;
        rc = (opt & 1u) ? CLI("blockfilter", "parquet", "--json", in_path)
                        : CLI("blockfilter", "parquet", in_path);
        FUZZ_CHECK(rc == (opened ? 0 : BF_CLI_EXIT_ERROR));
        if (opened && (opt & 2u) && bf_parquet_num_columns(pf) > 0) {
            size_t col = (opt >> 2) % bf_parquet_num_columns(pf);
            bf_parquet_column ci;
            FUZZ_CHECK(bf_parquet_column_info(pf, col, &ci) == BF_OK);
            char path[256], minv[256] = "0";
            snprintf(path, sizeof path, "%s", ci.path);
            bf_parquet_chunk k;
            size_t tl;
            if (bf_parquet_num_row_groups(pf) > 0 && bf_parquet_chunk_info(pf, 0, col, &k) == BF_OK &&
                k.has_min &&
                bf_parquet_value_to_text(pf, col, k.min, k.min_len, 0, minv, sizeof minv, &tl) != BF_OK)
                snprintf(minv, sizeof minv, "0");
            rc = CLI("blockfilter", "parquet", in_path, "--column", path, "--", minv, "0", "-1",
                     "nan", "2020-01-01", "0x00");
            FUZZ_CHECK(rc == 0 || rc == BF_CLI_EXIT_ABSENT || rc == BF_CLI_EXIT_ERROR);
            rc = CLI("blockfilter", "parquet", "--json", "--hex", "--strict", in_path, "--column",
                     path, minv);
            FUZZ_CHECK(rc == 0 || rc == BF_CLI_EXIT_ABSENT || rc == BF_CLI_EXIT_ERROR);
        }
        bf_parquet_close(pf);
        break;
    }
    default: {
        /* calc only: it writes no file, so fuzzed arguments are safe. No
         * cost table is found (so --work-ns never builds and measures
         * filters of fuzzed sizes) unless --costs names a file. */
        setenv("XDG_CACHE_HOME", "/nonexistent/blockfilter-fuzz", 1);
        char *argv[12] = {"blockfilter", "calc"};
        int argc = 2;
        char *buf = malloc(size + 1);
        FUZZ_CHECK(buf != NULL);
        if (size) memcpy(buf, data, size);
        buf[size] = '\0';
        for (size_t i = 0; i <= size && argc < 11;) {
            argv[argc++] = buf + i;
            i += strlen(buf + i) + 1;
        }
        argv[argc] = NULL;
        rc = cli(argc, argv);
        FUZZ_CHECK(rc == 0 || rc == BF_CLI_EXIT_ERROR);
        free(buf);
        break;
    }
    }
    unlink(filt_path);
    unlink(out_path);
    return 0;
}
