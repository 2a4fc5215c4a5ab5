/* blockfilter calc: sizes and false-positive rates of every family. */
#include "cli.h"

#include <inttypes.h>

static const char help[] =
    "usage: blockfilter calc --n N --fpp P [--family F]\n"
    "       blockfilter calc --n N --bytes B [--family F]\n"
    "       blockfilter calc --n N [--fpp P | --bytes B] --work-ns T [--negatives F]\n"
    "                        [--costs FILE] [--top K] [--measure A]\n"
    "\n"
    "For every family, the filter bf_filter_new would build for N keys at a\n"
    "false-positive rate P: payload bytes, bits per key, hashes (k) or cuckoo\n"
    "fingerprint bits, and the model FPR at N keys. With --bytes, the reverse:\n"
    "the model FPR of a B-byte filter holding N keys.\n"
    "\n"
    "cuckoo: the row is the cheapest shape (bucket size, fingerprint bits);\n"
    "with --family cuckoo and --fpp, a second table lists the cheapest\n"
    "fingerprint size for each bucket size of 1, 2, 4 and 8 slots and for\n"
    "semi-sorted buckets, at the load the table is sized for.\n"
    "\n"
    "scalable: N is the initial capacity; the row is layer 0 of the chain and\n"
    "its FPR at N keys (the chain's bound while it holds N). Past N the chain\n"
    "adds layers and its FPR stays <= P. With --bytes: N keys in one layer.\n"
    "\n"
    "blocked: the row is the default layout (512-bit blocks, 8 sectors of 64\n"
    "bits, 2 groups) at its best k; a second table lists the blocked shapes\n"
    "(register-blocked, plain blocked, sectorized, cache-sectorized), each\n"
    "at the k that needs the fewest bytes (with --bytes: the lowest FPR).\n"
    "\n"
    "Numbers take suffixes k M G T (x1000) or Ki Mi Gi Ti (x1024), or 1e6.\n"
    "  --n N       number of distinct keys\n"
    "  --fpp P     target false-positive rate, 0 < P < 1\n"
    "  --bytes B   filter size in bytes (reverse mode)\n"
    "  --family F  only that family's row (sbbf, bloom, counting, cuckoo,\n"
    "              scalable, blocked), with its shapes for cuckoo and blocked\n"
    "\n"
    "With --work-ns, the chooser (docs/chooser.md): every candidate layout\n"
    "(the SBBF, cuckoo and blocked shapes) at the size for N keys, within the\n"
    "bound (FPR <= P, or at most B bytes; neither: 2 to 64 bits/key), with\n"
    "the least expected cost of a lookup,\n"
    "    lookup ns + F x model FPR x T,\n"
    "ranked by that cost,\n"
    "with lookup times from this machine's cost table ('blockfilter\n"
    "calibrate'; calc refuses without one). It prints the pick, the\n"
    "runners-up and why they lost, and the layouts left out.\n"
    "  --work-ns T    ns of work a negative answer saves (T >= 0)\n"
    "  --negatives F  share of lookups whose key is absent, 0..1 (default 1)\n"
    "  --costs FILE   a cost table other than this machine's cached one\n"
    "  --top K        ranked rows to show (default 8)\n"
    "  --measure A    build the pick and two runners-up with N keys, look up\n"
    "                 A absent keys (the three in turn, five rounds), print\n"
    "                 measured lookup ns, FPR and cost, and whether they\n"
    "                 confirm the pick\n";

/* Every family the library knows, in id order, or only `only` (0: all). */
static bf_family only;
static size_t families(bf_family *ids) {
    if (only) {
        ids[0] = only;
        return 1;
    }
    return cli_families(ids, 255);
}

/* The scalable row's meaning, under the table (where it is listed);
 * fpp 0: the reverse mode. */
static void scalable_note(const bf_family *ids, size_t n, double fpp) {
    for (size_t i = 0; i < n; i++) {
        if (ids[i] != BF_FAMILY_SCALABLE) continue;
        if (fpp > 0)
            printf("scalable: layer 0 of a chain of initial capacity N (expansion %u, ratio %g);\n"
                   "          past N the chain adds layers and its FPR stays <= %g\n",
                   BF_SCALABLE_DEFAULT_EXPANSION, BF_SCALABLE_DEFAULT_RATIO, fpp);
        else
            printf("scalable: N keys in one layer of that size (a chain reserved at N)\n");
    }
}

/* The cheapest fingerprint size per cuckoo bucket size. */
static void cuckoo_shapes(uint64_t n, double fpp) {
    static const unsigned sizes[5] = {1, 2, 4, 8, 4};
    printf("\ncuckoo shapes for %" PRIu64 " keys at fpp %g\n", n, fpp);
    printf("%-7s %8s %15s %9s %6s %12s\n", "bucket", "fp_bits", "bytes", "bits/key", "load",
           "model_fpp");
    for (unsigned j = 0; j < 5; j++) {
        unsigned flags = j == 4 ? BF_CUCKOO_SEMISORTED : 0;
        bf_cuckoo_sizing z;
        int rc = bf_cuckoo_size_for(n, fpp, sizes[j], 0, flags, &z);
        char label[16];
        snprintf(label, sizeof label, "%u%s", sizes[j], flags ? " ss" : "");
        if (rc) {
            printf("%-7s %s\n", label, bf_strerror(rc));
            continue;
        }
        printf("%-7s %8u %15" PRIu64 " %9.3f %6.3f %12.4g\n", label, z.fp_bits, z.num_bytes,
               z.bits_per_key, z.load, z.model_fpp);
    }
    printf("(ss: semi-sorted, f - 1 bits a slot; build with --family cuckoo --bucket-size B\n"
           " --fingerprint-bits F [--semisorted])\n");
}

/* The blocked layouts calc lists: B, S, z (k is searched). */
static const bf_blocked_shape layouts[] = {
    {32, 1, 1, 0},  {64, 1, 1, 0},   {128, 1, 1, 0},  {256, 1, 1, 0},
    {512, 1, 1, 0}, {256, 8, 8, 0},  {512, 8, 8, 0},  {512, 16, 16, 0},
    {512, 8, 2, 0}, {512, 16, 2, 0}, {512, 8, 4, 0},  {512, 16, 4, 0},
};
#define NLAYOUTS (sizeof layouts / sizeof layouts[0])

static const char *layout_kind(const bf_blocked_shape *s) {
    if (s->sectors == 1) return s->block_bits <= 64 ? "register-blocked" : "blocked";
    return s->groups == s->sectors ? "sectorized" : "cache-sectorized";
}

/* Each layout at its best k (a multiple of z up to 16, or 32 for z = 16):
 * with fpp > 0 the fewest bytes for n keys, else the lowest FPR in bytes. */
static void blocked_shapes(uint64_t n, double fpp, uint64_t bytes) {
    printf("\nblocked shapes (B/S/z/k), each at its best k:\n");
    printf("%-16s %-12s %15s %9s %12s\n", "kind", "shape", "bytes", "bits/key", "model_fpp");
    for (size_t i = 0; i < NLAYOUTS; i++) {
        bf_blocked_shape s = layouts[i], best = s;
        uint64_t best_bytes = 0;
        double best_p = 2.0;
        unsigned kmax = s.groups == 16 ? 32 : 16;
        for (s.k = s.groups; s.k <= kmax; s.k += s.groups) {
            uint64_t b = bytes / (s.block_bits / 8) * (s.block_bits / 8);
            if (fpp > 0 && bf_blocked_bits_for(&s, n, fpp, &b) != BF_OK) continue;
            if (b == 0) continue;
            double p = bf_blocked_model_fpp_blocks(&s, b / (s.block_bits / 8), n);
            if (fpp > 0 ? (best_bytes == 0 || b < best_bytes) : p < best_p) {
                best = s;
                best_bytes = b;
                best_p = p;
            }
        }
        char name[32];
        snprintf(name, sizeof name, "%u/%u/%u/%u", best.block_bits, best.sectors, best.groups,
                 best.k);
        if (!best_bytes) { /* no k meets the target within the size limit */
            snprintf(name, sizeof name, "%u/%u/%u/-", best.block_bits, best.sectors, best.groups);
            printf("%-16s %-12s %15s\n", layout_kind(&best), name, "-");
            continue;
        }
        printf("%-16s %-12s %15" PRIu64 " %9.3f %12.4g\n", layout_kind(&best), name, best_bytes,
               8.0 * (double)best_bytes / (double)n, best_p);
    }
}

/* What bf_filter_new would allocate for n keys at fpp, per family. */
static int by_fpp(uint64_t n, double fpp) {
    bf_family ids[255];
    size_t nf = families(ids);
    printf("%" PRIu64 " keys at fpp %g\n", n, fpp);
    printf("%-9s %15s %9s %4s %8s %12s\n", "family", "bytes", "bits/key", "k", "fp_bits",
           "model_fpp");
    int status = 0;
    for (size_t i = 0; i < nf; i++) {
        bf_sizing s;
        int rc = bf_size_for(ids[i], n, fpp, &s);
        if (rc) {
            printf("%-9s %s\n", bf_family_name(ids[i]), bf_strerror(rc));
            status = BF_CLI_EXIT_ERROR;
            continue;
        }
        char kbuf[16] = "-", fbuf[16] = "-";
        if (s.k) snprintf(kbuf, sizeof kbuf, "%u", s.k);
        if (s.fp_bits) snprintf(fbuf, sizeof fbuf, "%u", s.fp_bits);
        printf("%-9s %15" PRIu64 " %9.3f %4s %8s %12.4g\n", bf_family_name(ids[i]), s.num_bytes,
               s.bits_per_key, kbuf, fbuf, s.model_fpp);
    }
    scalable_note(ids, nf, fpp);
    if (only == BF_FAMILY_CUCKOO) cuckoo_shapes(n, fpp);
    if (!only || only == BF_FAMILY_BLOCKED) blocked_shapes(n, fpp, 0);
    return status;
}

/* The model FPR of a bytes-sized filter holding n keys, per family. */
static int by_bytes(uint64_t n, uint64_t bytes) {
    printf("%" PRIu64 " keys in %" PRIu64 " bytes (%.3f bits/key)\n", n, bytes,
           8.0 * (double)bytes / (double)n);
    printf("%-9s %12s\n", "family", "model_fpp");
    bf_family ids[255];
    size_t nf = families(ids);
    int status = 0;
    for (size_t i = 0; i < nf; i++) {
        double p;
        int rc = bf_fpp_for(ids[i], bytes, n, &p);
        if (rc == BF_EFULL) {
            printf("%-9s %12s  (cannot hold %" PRIu64 " keys in %" PRIu64 " bytes)\n",
                   bf_family_name(ids[i]), "-", n, bytes);
        } else if (rc) {
            printf("%-9s %s\n", bf_family_name(ids[i]), bf_strerror(rc));
            status = BF_CLI_EXIT_ERROR;
        } else {
            printf("%-9s %12.4g\n", bf_family_name(ids[i]), p);
        }
    }
    scalable_note(ids, nf, 0);
    blocked_shapes(n, 0, bytes);
    return status;
}

static int run(int argc, char **argv) {
    cli_args a = {argc, argv, 1};
    uint64_t n = 0, bytes = 0;
    double fpp = 0;
    int have_n = 0, have_fpp = 0, have_bytes = 0, have_work = 0;
    bf_job job = {0, 0, 0, 0, 1.0};
    const char *costs = NULL;
    uint64_t top = 8, measure = 0;
    only = (bf_family)0; /* the tool may run several commands in one process */
    for (; a.i < argc; a.i++) {
        const char *v;
        int r;
        if ((r = cli_opt_value(&a, "--n", &v))) {
            if (r < 0 || cli_parse_count(v, &n) || n == 0)
                return cli_usage_error("calc", "--n needs a positive integer");
            have_n = 1;
        } else if ((r = cli_opt_value(&a, "--fpp", &v))) {
            if (r < 0 || cli_parse_fpp(v, &fpp))
                return cli_usage_error("calc", "--fpp needs a number in (0, 1)");
            have_fpp = 1;
        } else if ((r = cli_opt_value(&a, "--family", &v))) {
            if (r < 0 || bf_family_from_name(v, &only) != BF_OK)
                return cli_usage_error("calc", "--family needs one of %s", cli_family_names());
        } else if ((r = cli_opt_value(&a, "--bytes", &v))) {
            if (r < 0 || cli_parse_count(v, &bytes) || bytes == 0)
                return cli_usage_error("calc", "--bytes needs a positive integer");
            have_bytes = 1;
        } else if ((r = cli_opt_value(&a, "--work-ns", &v))) {
            if (r < 0 || cli_parse_number(v, 0, 1e12, &job.work_ns))
                return cli_usage_error("calc", "--work-ns needs a number of ns >= 0");
            have_work = 1;
        } else if ((r = cli_opt_value(&a, "--negatives", &v))) {
            if (r < 0 || cli_parse_number(v, 0, 1, &job.negatives))
                return cli_usage_error("calc", "--negatives needs a number in [0, 1]");
        } else if ((r = cli_opt_value(&a, "--costs", &v))) {
            if (r < 0) return cli_usage_error("calc", "--costs needs a file name");
            costs = v;
        } else if ((r = cli_opt_value(&a, "--top", &v))) {
            if (r < 0 || cli_parse_count(v, &top) || top == 0)
                return cli_usage_error("calc", "--top needs a positive integer");
        } else if ((r = cli_opt_value(&a, "--measure", &v))) {
            if (r < 0 || cli_parse_count(v, &measure) || measure == 0)
                return cli_usage_error("calc", "--measure needs a positive number of keys");
        } else {
            return cli_usage_error("calc", "unknown argument '%s'", argv[a.i]);
        }
    }
    if (have_work) { /* --fpp and --bytes are bounds, at most one */
        if (!have_n || (have_fpp && have_bytes))
            return cli_usage_error("calc", "give --n and at most one of --fpp or --bytes");
        job.n = n;
        job.fpp = have_fpp ? fpp : 0;
        job.bytes = have_bytes ? bytes : 0;
        return cli_calc_choose(&job, costs, (size_t)top, measure);
    }
    if (!have_n || have_fpp == have_bytes)
        return cli_usage_error("calc", "give --n and exactly one of --fpp or --bytes");
    if (costs || measure)
        return cli_usage_error("calc", "--costs and --measure go with --work-ns");
    return have_fpp ? by_fpp(n, fpp) : by_bytes(n, bytes);
}

const cli_command cli_cmd_calc = {"calc", "sizes and false-positive rates of every family", help,
                                  run};
