/* blockfilter build: a filter of the keys of a file or of standard input. */
#include "cli.h"
#include "keys.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
    "usage: blockfilter build [--family F] [--fpp P] [--n N] [--seed S | --keyed]\n"
    "                         [--expansion E] [--ratio R] [--nonscaling]\n"
    "                         [--block-bits B --sectors S --groups Z --k K]\n"
    "                         [--crlf] [--progress | --quiet] -o FILE [INPUT]\n"
    "\n"
    "Builds a filter from the keys in INPUT (a file, or standard input if\n"
    "absent or '-'), one key per line, and saves it atomically to FILE in the\n"
    "native format. Keys are bytes: only the '\\n' ending is removed; NUL\n"
    "bytes and invalid UTF-8 are part of the key.\n"
    "\n"
    "  --family F  sbbf (default), bloom, counting, cuckoo, scalable or blocked\n"
    "  --fpp P     target false-positive rate (default 0.01)\n"
    "  --n N       size for N keys; default: count the keys first (a file is\n"
    "              read twice; a pipe is buffered as 8-byte hashes)\n"
    "  --seed S    keyed hashing with seed S (decimal or 0x hex); the default\n"
    "              seed 0 is Parquet's XXH64 hash\n"
    "  --keyed     keyed hashing with a random seed from the OS\n"
    "  --crlf      also remove one '\\r' before each '\\n'\n"
    "  --progress  report progress on stderr (default: on a terminal, for\n"
    "              inputs of a million keys or more); --quiet: never\n"
    "  -o FILE     output file\n"
    "\n"
    "scalable (a chain of SBBF layers): N (--n, or the count of keys) is the\n"
    "initial capacity; when a layer is full a larger one is added, and the\n"
    "chain's FPR stays <= P however far it grows. Keys it may hold already are\n"
    "not added again.\n"
    "  --expansion E  each new layer holds E times the keys of the one before\n"
    "                 (1..32768, default 2)\n"
    "  --ratio R      and gets R times its target FPR (0 < R < 1, default 0.5;\n"
    "                 0.8-0.9 costs far less memory when the chain grows through\n"
    "                 many layers: docs/families.md)\n"
    "  --nonscaling   never grow: one layer of N keys at P; a key past N is an\n"
    "                 error (no output file)\n"
    "\n"
    "blocked (any blocked Bloom filter): the shape, all four or none (none:\n"
    "the layout 512/8/2 with the k that needs the fewest bytes); sized for N\n"
    "keys at P by the shape's exact model. A shape that breaks a rule is an\n"
    "error naming the rule (no output file).\n"
    "  --block-bits B  bits per block: 32, 64, 128, 256 or 512\n"
    "  --sectors S     1, or sectors of 32 or 64 bits (S divides B)\n"
    "  --groups Z      groups of sectors (Z divides S); a key uses one sector\n"
    "                  of each group\n"
    "  --k K           bits per key, a multiple of Z, at most 32\n";

typedef struct options {
    bf_family family;
    double fpp;
    uint64_t n, seed;
    int have_n, crlf, progress;
    const char *out, *input;
    bf_scalable_params chain; /* scalable: expansion, ratio, flags (0 = default) */
    int chain_opts;           /* a scalable-only option was given */
    bf_blocked_shape shape;   /* blocked: the shape given */
    int shape_opts;           /* shape options given (a bit each) */
} options;

/* --block-bits, --sectors, --groups, --k: a small unsigned value each. */
static int shape_option(cli_args *a, options *o) {
    static const char *const names[4] = {"--block-bits", "--sectors", "--groups", "--k"};
    unsigned *fields[4] = {&o->shape.block_bits, &o->shape.sectors, &o->shape.groups,
                           &o->shape.k};
    for (int i = 0; i < 4; i++) {
        const char *v;
        int r = cli_opt_value(a, names[i], &v);
        if (!r) continue;
        uint64_t x;
        if (r < 0 || cli_parse_count(v, &x) || x > 4096)
            return cli_usage_error("build", "%s needs a small positive integer", names[i]);
        *fields[i] = (unsigned)x;
        o->shape_opts |= 1 << i;
        return 1;
    }
    return 0;
}

static int parse(int argc, char **argv, options *o) {
    cli_args a = {argc, argv, 1};
    int have_seed = 0, keyed = 0, prog_mode = -1;
    for (; a.i < argc; a.i++) {
        const char *v;
        int r;
        if ((r = cli_opt_value(&a, "--family", &v))) {
            if (r < 0 || bf_family_from_name(v, &o->family) != BF_OK)
                return cli_usage_error("build", "--family needs one of %s", cli_family_names());
        } else if ((r = cli_opt_value(&a, "--fpp", &v))) {
            if (r < 0 || cli_parse_fpp(v, &o->fpp))
                return cli_usage_error("build", "--fpp needs a number in (0, 1)");
        } else if ((r = cli_opt_value(&a, "--n", &v))) {
            if (r < 0 || cli_parse_count(v, &o->n))
                return cli_usage_error("build", "--n needs an integer");
            o->have_n = 1;
        } else if ((r = cli_opt_value(&a, "--seed", &v))) {
            if (r < 0 || cli_parse_seed(v, &o->seed))
                return cli_usage_error("build", "--seed needs an integer");
            have_seed = 1;
        } else if ((r = cli_opt_value(&a, "-o", &v)) || (r = cli_opt_value(&a, "--output", &v))) {
            if (r < 0) return cli_usage_error("build", "-o needs a file name");
            o->out = v;
        } else if ((r = cli_opt_value(&a, "--expansion", &v))) {
            uint64_t e;
            if (r < 0 || cli_parse_count(v, &e) || e < 1 || e > BF_SCALABLE_MAX_EXPANSION)
                return cli_usage_error("build", "--expansion needs an integer from 1 to %u",
                                       BF_SCALABLE_MAX_EXPANSION);
            o->chain.expansion = (unsigned)e;
            o->chain_opts = 1;
        } else if ((r = cli_opt_value(&a, "--ratio", &v))) {
            if (r < 0 || cli_parse_fpp(v, &o->chain.ratio))
                return cli_usage_error("build", "--ratio needs a number in (0, 1)");
            o->chain_opts = 1;
        } else if ((r = shape_option(&a, o))) {
            if (r != 1) return r;
        } else if (!strcmp(argv[a.i], "--nonscaling")) {
            o->chain.flags |= BF_SCALABLE_NONSCALING;
            o->chain_opts = 1;
        } else if (!strcmp(argv[a.i], "--keyed")) {
            keyed = 1;
        } else if (!strcmp(argv[a.i], "--crlf")) {
            o->crlf = 1;
        } else if (!strcmp(argv[a.i], "--progress")) {
            prog_mode = 1;
        } else if (!strcmp(argv[a.i], "--quiet")) {
            prog_mode = 0;
        } else if (cli_is_option(argv[a.i])) {
            return cli_usage_error("build", "unknown option '%s'", argv[a.i]);
        } else if (!o->input) {
            o->input = argv[a.i];
        } else {
            return cli_usage_error("build", "more than one input");
        }
    }
    if (!o->out) return cli_usage_error("build", "-o FILE is required");
    if (have_seed && keyed) return cli_usage_error("build", "--seed and --keyed exclude each other");
    if (o->chain_opts && o->family != BF_FAMILY_SCALABLE)
        return cli_usage_error("build", "--expansion, --ratio and --nonscaling need --family scalable");
    if (o->shape_opts && o->family != BF_FAMILY_BLOCKED)
        return cli_usage_error("build", "--block-bits, --sectors, --groups and --k need --family blocked");
    if (o->shape_opts && o->shape_opts != 15)
        return cli_usage_error("build", "give all of --block-bits, --sectors, --groups and --k");
    if (o->shape_opts && bf_blocked_shape_rule(&o->shape))
        return cli_usage_error("build", "shape %u/%u/%u/%u: %s", o->shape.block_bits,
                               o->shape.sectors, o->shape.groups, o->shape.k,
                               bf_blocked_shape_rule(&o->shape));
    if (keyed) {
        errno = 0;
        int rc = bf_random_seed(&o->seed);
        if (rc) return cli_lib_error("(os)", "random seed", rc, errno);
        if (o->seed == 0) o->seed = 1;
    }
    o->progress = prog_mode == 1 || (prog_mode < 0 && isatty(fileno(stderr)));
    return 0;
}

/* Input that cannot be read twice (a pipe, a terminal): hash every key into
 * memory (8 bytes a key), so that the filter is sized for exactly as many. */
static int buffer_hashes(cli_keys *k, uint64_t seed, cli_progress *pg, uint64_t **out,
                         size_t *count) {
    uint64_t *all = NULL;
    size_t n = 0, cap = 0;
    cli_batch b;
    int r;
    while ((r = cli_keys_next(k, &b)) > 0) {
        if (cap - n < b.n) {
            size_t nc = cap ? cap * 2 : 65536;
            uint64_t *na = nc <= SIZE_MAX / sizeof *all ? realloc(all, nc * sizeof *all) : NULL;
            if (!na) {
                free(all);
                cli_msg("%s: out of memory buffering %zu keys (give --n)", cli_keys_name(k), n);
                return BF_CLI_EXIT_ERROR;
            }
            all = na;
            cap = nc;
        }
        cli_batch_hash(&b, seed, all + n);
        n += b.n;
        cli_progress_update(pg, n, "reading");
    }
    if (r < 0) {
        free(all);
        return cli_sys_error(cli_keys_name(k), "read error");
    }
    *out = all;
    *count = n;
    return 0;
}

/* A key the filter refused. The hint fits the family: only a larger
 * filter helps a full cuckoo filter; a non-scaling chain holds exactly --n. */
static void report_full(const bf_filter *f, const char *name, uint64_t line, int rc,
                        uint64_t held) {
    const char *hint = rc != BF_EFULL                                ? ""
                       : bf_filter_family(f) == BF_FAMILY_SCALABLE ? "; give a larger --n, or "
                                                                     "drop --nonscaling"
                                                                   : "; give a larger --n or --fpp";
    cli_msg("%s: line %" PRIu64 ": %s (the filter holds %" PRIu64 " keys%s)", name, line,
            bf_strerror(rc), held, hint);
}

/* Inserts buffered hashes, a slice at a time for progress. */
static int insert_buffered(bf_filter *f, const uint64_t *all, size_t n, const char *name,
                           cli_progress *pg, uint64_t *done) {
    for (size_t i = 0; i < n;) {
        size_t m = n - i < 65536 ? n - i : 65536, ok = 0;
        int rc = bf_filter_insert_hashes(f, all + i, m, &ok);
        i += ok;
        *done = i;
        if (rc) {
            report_full(f, name, i + 1, rc, i);
            return rc;
        }
        cli_progress_update(pg, i, "inserting");
    }
    return BF_OK;
}

/* Reads, hashes and inserts the keys a batch at a time. */
static int insert_batches(bf_filter *f, cli_keys *k, cli_progress *pg, uint64_t *done) {
    uint64_t *h = malloc(CLI_BATCH_KEYS * sizeof *h);
    if (!h) {
        errno = ENOMEM;
        cli_sys_error(cli_keys_name(k), "cannot allocate");
        return BF_ENOMEM;
    }
    uint64_t seed = bf_filter_seed(f);
    cli_batch b;
    int r, rc = BF_OK;
    while ((r = cli_keys_next(k, &b)) > 0) {
        cli_batch_hash(&b, seed, h);
        size_t ok = 0;
        rc = bf_filter_insert_hashes(f, h, b.n, &ok);
        *done += ok;
        if (rc) {
            report_full(f, cli_keys_name(k), b.first_line + ok, rc, *done);
            break;
        }
        cli_progress_update(pg, *done, "inserting");
    }
    if (r < 0 && !rc) {
        rc = BF_EIO;
        cli_sys_error(cli_keys_name(k), "read error");
    }
    free(h);
    return rc;
}

/* The filter for n keys: bf_filter_new, or for a scalable chain with the
 * options given, bf_scalable_new wrapped in the generic interface. */
static int new_filter(bf_filter **f, const options *o, uint64_t n) {
    if (o->family == BF_FAMILY_BLOCKED && o->shape_opts)
        return bf_filter_new_blocked(f, n, o->fpp, &o->shape);
    if (o->family != BF_FAMILY_SCALABLE) return bf_filter_new(f, o->family, n, o->fpp);
    bf_scalable_params p = o->chain;
    p.capacity = n;
    p.fpp = o->fpp;
    bf_scalable *c = NULL;
    int rc = bf_scalable_new(&c, &p);
    if (rc == BF_OK && (rc = bf_filter_from_scalable(f, c)) != BF_OK) bf_scalable_free(c);
    return rc;
}

static int run(int argc, char **argv) {
    options o;
    memset(&o, 0, sizeof o);
    o.family = BF_FAMILY_SBBF;
    o.fpp = 0.01;
    int st = parse(argc, argv, &o);
    if (st) return st;

    cli_keys *k;
    if (cli_keys_open(&k, o.input, o.crlf) != 0)
        return cli_sys_error(o.input ? o.input : "(stdin)", "cannot open");
    const char *name = cli_keys_name(k);
    cli_progress pg;
    uint64_t *all = NULL; /* hashes of input that cannot be read twice */
    size_t nall = 0;
    int buffered = !o.have_n && !cli_keys_is_file(k);
    if (!o.have_n && cli_keys_is_file(k)) {
        if (cli_keys_count(k, &o.n) != 0) {
            st = cli_sys_error(name, "cannot read");
            cli_keys_close(k);
            return st;
        }
    } else if (buffered) {
        cli_progress_init(&pg, o.progress, 0);
        if ((st = buffer_hashes(k, o.seed, &pg, &all, &nall)) != 0) {
            cli_keys_close(k);
            return st;
        }
        o.n = nall;
    }

    bf_filter *f = NULL;
    /* An empty input still gives a valid (empty) filter, sized for 1 key. */
    int rc = new_filter(&f, &o, o.n ? o.n : 1);
    if (rc == BF_OK && o.seed && (rc = bf_filter_set_seed(f, o.seed)) != BF_OK) {
        bf_filter_free(f);
        free(all);
        cli_keys_close(k);
        return cli_lib_error(o.out, "cannot set seed", rc, 0);
    }
    if (rc) {
        free(all);
        cli_keys_close(k);
        char what[96];
        snprintf(what, sizeof what, "cannot create a %s filter for %" PRIu64 " keys",
                 bf_family_name(o.family), o.n);
        return cli_lib_error(o.out, what, rc, 0);
    }
    cli_progress_init(&pg, o.progress, o.n);
    uint64_t done = 0;
    rc = buffered ? insert_buffered(f, all, nall, name, &pg, &done)
             : insert_batches(f, k, &pg, &done);
    cli_progress_end(&pg, done, "inserting");
    free(all);
    cli_keys_close(k);
    if (rc) {
        bf_filter_free(f);
        return BF_CLI_EXIT_ERROR;
    }
    errno = 0;
    rc = bf_filter_save_file(f, o.out);
    int err = errno;
    bf_filter_free(f);
    if (rc) return cli_lib_error(o.out, "cannot save", rc, err);
    return 0;
}

const cli_command cli_cmd_build = {"build", "build a filter from keys, one per line", help, run};
