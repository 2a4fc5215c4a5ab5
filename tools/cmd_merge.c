/* blockfilter merge: the union of filters of the same shape. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>

static const char help[] =
    "usage: blockfilter merge -o OUT A B...\n"
    "\n"
    "Writes to OUT the union of the filters A, B, ...: every key of any input\n"
    "may be present in OUT. The inputs must have the same family, size and\n"
    "seed (build them with the same --family, --n, --fpp and --seed).\n"
    "sbbf and bloom OR their bits; counting adds its counters (saturating);\n"
    "cuckoo adds the fingerprints of the others to A's table (same shape: the\n"
    "same --n, --fpp, --bucket-size, --fingerprint-bits), and fails if they do\n"
    "not fit; scalable filters cannot be merged.\n"
    "  -o OUT      output file (may be one of the inputs)\n";

/* Loads in[0] (a private copy: it is written to) and merges the others into
 * it (mapped). */
static int merge_all(const char **in, size_t nin, bf_filter **out) {
    bf_filter *acc = NULL;
    errno = 0;
    int rc = bf_filter_load_file(&acc, in[0]);
    if (rc) return cli_lib_error(in[0], "cannot load filter", rc, errno);
    for (size_t i = 1; i < nin; i++) {
        bf_filter *g;
        int st = cli_open_filter(in[i], 0, &g);
        if (st) {
            bf_filter_free(acc);
            return st;
        }
        rc = bf_filter_merge(acc, g);
        bf_filter_free(g);
        if (rc) {
            char what[64];
            snprintf(what, sizeof what, "cannot merge into %s", in[0]);
            bf_filter_free(acc);
            return cli_lib_error(in[i], what, rc, 0);
        }
    }
    *out = acc;
    return 0;
}

static int run(int argc, char **argv) {
    cli_args a = {argc, argv, 1};
    const char *out = NULL;
    const char **in = calloc((size_t)argc, sizeof *in);
    size_t nin = 0;
    if (!in) return cli_sys_error("(memory)", "cannot allocate");
    int st = 0;
    for (; a.i < argc && !st; a.i++) {
        const char *v;
        int r;
        if ((r = cli_opt_value(&a, "-o", &v)) || (r = cli_opt_value(&a, "--output", &v))) {
            if (r < 0) st = cli_usage_error("merge", "-o needs a file name");
            out = v;
        } else if (cli_is_option(argv[a.i])) {
            st = cli_usage_error("merge", "unknown option '%s'", argv[a.i]);
        } else {
            in[nin++] = argv[a.i];
        }
    }
    if (!st && (!out || nin < 2)) st = cli_usage_error("merge", "need -o OUT and at least two inputs");
    bf_filter *acc = NULL;
    if (!st) st = merge_all(in, nin, &acc);
    free(in);
    if (st) return st;
    errno = 0;
    int rc = bf_filter_save_file(acc, out);
    int err = errno;
    bf_filter_free(acc);
    if (rc) return cli_lib_error(out, "cannot save", rc, err);
    return 0;
}

const cli_command cli_cmd_merge = {"merge", "union of filters of the same shape", help, run};
