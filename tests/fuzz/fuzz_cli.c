/*
 * Fuzz target: the command-line tool's input handling. tools/blockfilter.c
 * exposes no parsing function, so the whole tool is compiled in here with
 * its main() renamed and driven end to end on files in a private temporary
 * directory:
 *   mode 0: build a filter from the input as a key file (family, --crlf,
 *           --keyed picked by byte 1), then query it with the same key file:
 *           every key must be found (exit 0): no key is lost between the
 *           two parses of the key lines;
 *   mode 1: info [--json] on the input as a filter file;
 *   mode 2: query the input as a filter file;
 *   mode 3: convert the input (--to parquet|native); a success must load;
 *   mode 4: merge the input with itself;
 *   mode 5: calc with NUL-separated arguments from the input.
 * Input: byte 0 = mode, byte 1 = options, then the file or argument bytes.
 * stdout and stderr of the tool are discarded.
 */
#define main blockfilter_cli_main
#include "blockfilter.c"
#undef main

#include "fuzz_common.h"

#include <sys/types.h>

static char dir[64], keys_path[96], in_path[96], filt_path[96], out_path[96], fixed_keys[96];
static FILE *devnull;

static void cleanup(void) {
    const char *files[] = {keys_path, in_path, filt_path, out_path, fixed_keys};
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

static int cli(int argc, char **argv) {
    FILE *o = stdout, *e = stderr;
    stdout = devnull;
    stderr = devnull;
    int rc = blockfilter_cli_main(argc, argv);
    fflush(devnull);
    clearerr(devnull);
    stdout = o;
    stderr = e;
    return rc;
}

#define ARGV(...) ((char *[]){__VA_ARGS__, NULL})
#define ARGC(...) ((int)(sizeof((char *[]){__VA_ARGS__}) / sizeof(char *)))
#define CLI(...) cli(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    setup();
    unsigned mode = data[0] % 6u, opt = data[1];
    data += 2;
    size -= 2;
    unlink(filt_path);
    unlink(out_path);
    int rc;
    switch (mode) {
    case 0: {
        static char *fams[] = {"sbbf", "bloom", "counting", "cuckoo"};
        char *fam = fams[opt & 3u];
        char *crlf = (opt & 4u) ? "--crlf" : "--quiet";
        char *keyed = (opt & 8u) ? "--keyed" : "--quiet";
        write_file(keys_path, data, size);
        rc = CLI("blockfilter", "build", "--family", fam, crlf, keyed, "--fpp", "0.01", "-o",
                 filt_path, keys_path);
        if (rc != 0) {
            /* Only a cuckoo filter may refuse keys (BF_EFULL). */
            FUZZ_CHECK(rc == EXIT_ERROR && (opt & 3u) == 3u);
            break;
        }
        rc = CLI("blockfilter", "query", "--count", crlf[2] == 'c' ? "--crlf" : "--count",
                 filt_path, keys_path);
        FUZZ_CHECK(rc == 0); /* every key built in is found */
        rc = CLI("blockfilter", "info", "--json", filt_path);
        FUZZ_CHECK(rc == 0);
        break;
    }
    case 1:
        write_file(in_path, data, size);
        rc = (opt & 1u) ? CLI("blockfilter", "info", "--json", in_path)
                        : CLI("blockfilter", "info", in_path);
        FUZZ_CHECK(rc == 0 || rc == EXIT_ERROR);
        break;
    case 2:
        write_file(in_path, data, size);
        rc = CLI("blockfilter", "query", in_path, fixed_keys);
        FUZZ_CHECK(rc == 0 || rc == EXIT_ABSENT || rc == EXIT_ERROR);
        break;
    case 3: {
        write_file(in_path, data, size);
        int to_parquet = opt & 1u;
        rc = CLI("blockfilter", "convert", "--to", to_parquet ? "parquet" : "native", in_path,
                 "-o", out_path);
        FUZZ_CHECK(rc == 0 || rc == EXIT_ERROR);
        if (rc == 0) {
            size_t len = 0;
            uint8_t *img = read_whole_file(out_path, &len);
            FUZZ_CHECK(img != NULL);
            if (to_parquet) {
                bf_sbbf *s = NULL;
                FUZZ_CHECK(bf_sbbf_from_parquet(&s, img, len) == BF_OK);
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
        FUZZ_CHECK(rc == 0 || rc == EXIT_ERROR);
        if (rc == 0) {
            bf_filter *f = NULL;
            FUZZ_CHECK(bf_filter_load_file(&f, out_path) == BF_OK);
            bf_filter_free(f);
        }
        break;
    default: {
        /* calc only: it writes no file, so fuzzed arguments are safe. */
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
        FUZZ_CHECK(rc == 0 || rc == EXIT_ERROR);
        free(buf);
        break;
    }
    }
    unlink(filt_path);
    unlink(out_path);
    return 0;
}
