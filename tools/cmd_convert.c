/* blockfilter convert: native sbbf <-> Parquet filter bytes. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
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

static int to_parquet(const char *in, const char *out) {
    bf_filter *f;
    int st = cli_open_filter(in, BF_VIEW_VERIFY_PAYLOAD, &f);
    if (st) return st;
    bf_sbbf *s = bf_filter_sbbf(f);
    if (!s) {
        cli_msg("%s: a %s filter; only sbbf filters have a Parquet form", in,
                bf_family_name(bf_filter_family(f)));
        bf_filter_free(f);
        return BF_CLI_EXIT_ERROR;
    }
    if (bf_filter_seed(f) != 0) {
        cli_msg("%s: keyed filter (seed != 0): Parquet readers hash with seed 0", in);
        bf_filter_free(f);
        return BF_CLI_EXIT_ERROR;
    }
    int oversize = bf_sbbf_num_bytes(s) > BF_PARQUET_MAX_BYTES;
    errno = 0;
    int rc = bf_sbbf_save_parquet_file(s, out);
    int err = errno;
    bf_filter_free(f);
    if (rc) return cli_lib_error(out, "cannot write", rc, err);
    if (oversize) cli_msg("%s: warning: bitset larger than the 128 MiB Parquet readers accept", out);
    return 0;
}

static int to_native(const char *in, const char *out) {
    size_t len = 0;
    uint8_t *buf = cli_read_file(in, &len);
    if (!buf) return cli_sys_error(in, "cannot read");
    bf_sbbf *s = NULL;
    size_t consumed = 0;
    int rc = bf_sbbf_from_parquet(&s, buf, len, &consumed);
    free(buf);
    if (rc) return cli_lib_error(in, "not a Parquet Bloom filter", rc, 0);
    if (consumed != len) cli_msg("%s: warning: %zu bytes after the filter ignored", in, len - consumed);
    bf_filter *f = NULL;
    if ((rc = bf_filter_from_sbbf(&f, s))) {
        bf_sbbf_free(s);
        return cli_lib_error(in, "cannot wrap the filter", rc, 0);
    }
    errno = 0;
    rc = bf_filter_save_file(f, out);
    int err = errno;
    bf_filter_free(f);
    if (rc) return cli_lib_error(out, "cannot write", rc, err);
    return 0;
}

static int run(int argc, char **argv) {
    cli_args a = {argc, argv, 1};
    const char *to = NULL, *in = NULL, *out = NULL;
    for (; a.i < argc; a.i++) {
        const char *v;
        int r;
        if ((r = cli_opt_value(&a, "--to", &v))) {
            if (r < 0) return cli_usage_error("convert", "--to needs parquet or native");
            to = v;
        } else if ((r = cli_opt_value(&a, "-o", &v)) || (r = cli_opt_value(&a, "--output", &v))) {
            if (r < 0) return cli_usage_error("convert", "-o needs a file name");
            out = v;
        } else if (cli_is_option(argv[a.i])) {
            return cli_usage_error("convert", "unknown option '%s'", argv[a.i]);
        } else if (!in) {
            in = argv[a.i];
        } else {
            return cli_usage_error("convert", "more than one input");
        }
    }
    if (!to || (strcmp(to, "parquet") && strcmp(to, "native")))
        return cli_usage_error("convert", "--to needs parquet or native");
    if (!in || !out) return cli_usage_error("convert", "need IN and -o OUT");
    return !strcmp(to, "parquet") ? to_parquet(in, out) : to_native(in, out);
}

const cli_command cli_cmd_convert = {"convert", "native sbbf <-> Parquet filter bytes", help, run};
