/*
 * blockfilter calibrate: this machine's cost table (lookup ns of every
 * candidate layout at a few filter sizes), cached per machine; and the
 * chooser's report for `blockfilter calc --work-ns` (cli_calc_choose).
 */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char help[] =
    "usage: blockfilter calibrate [--seconds S] [--out FILE]\n"
    "       blockfilter calibrate --from FILE [--out FILE]\n"
    "\n"
    "Measures the batch lookup time of every candidate layout the chooser\n"
    "ranks ('blockfilter calc --work-ns'), at filter sizes from 32 KiB to\n"
    "1 GiB, and saves the cost table. At most S seconds (default 15,\n"
    "0.5..600); a size the time cannot finish is left out whole. Run it on\n"
    "a machine as quiet as the one the filter will run on.\n"
    "\n"
    "--from FILE adds the rows of another cost table (from benchmark results:\n"
    "scripts/costs_from_bench.py) to the cached one, replacing rows of the\n"
    "same candidate and size, instead of measuring.\n"
    "\n"
    "The table goes to $XDG_CACHE_HOME/blockfilter/costs-<machine>.txt\n"
    "($HOME/.cache when XDG_CACHE_HOME is not set), where <machine> is a\n"
    "hash of the CPU model, SBBF kernel and library version, or to --out.\n"
    "  --seconds S  time budget in seconds\n"
    "  --from FILE  a cost table whose rows to add\n"
    "  --out FILE   where to save the table\n";

/* The cache file of this machine's table; 0, or -1 (no HOME, too long). */
static int costs_path(char *buf, size_t cap, int make_dir) {
    char machine[256];
    bf_machine_name(machine, sizeof machine);
    uint64_t id = bf_hash_xxh64(machine, strlen(machine));
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char dir[4096];
    int w;
    if (xdg && xdg[0] == '/') w = snprintf(dir, sizeof dir, "%s/blockfilter", xdg);
    else if (home && home[0]) w = snprintf(dir, sizeof dir, "%s/.cache/blockfilter", home);
    else return -1;
    if (w < 0 || (size_t)w >= sizeof dir) return -1;
    if (make_dir) {
        char *slash = strchr(dir + 1, '/');
        for (; slash; slash = strchr(slash + 1, '/')) { /* mkdir -p */
            *slash = '\0';
            mkdir(dir, 0755);
            *slash = '/';
        }
        mkdir(dir, 0755);
    }
    w = snprintf(buf, cap, "%s/costs-%016" PRIx64 ".txt", dir, id);
    return w < 0 || (size_t)w >= cap ? -1 : 0;
}

static int run(int argc, char **argv) {
    cli_args a = {argc, argv, 1};
    double seconds = 15;
    const char *out = NULL, *from = NULL;
    for (; a.i < argc; a.i++) {
        const char *v;
        int r;
        if ((r = cli_opt_value(&a, "--seconds", &v))) {
            if (r < 0 || cli_parse_number(v, 0.5, 600, &seconds))
                return cli_usage_error("calibrate", "--seconds needs a number in [0.5, 600]");
        } else if ((r = cli_opt_value(&a, "--out", &v))) {
            if (r < 0) return cli_usage_error("calibrate", "--out needs a file name");
            out = v;
        } else if ((r = cli_opt_value(&a, "--from", &v))) {
            if (r < 0) return cli_usage_error("calibrate", "--from needs a file name");
            from = v;
        } else {
            return cli_usage_error("calibrate", "unknown argument '%s'", argv[a.i]);
        }
    }
    char path[4200];
    if (!out) {
        if (costs_path(path, sizeof path, 1) != 0) {
            cli_msg("calibrate: no cache folder (set XDG_CACHE_HOME or HOME, or give --out)");
            return BF_CLI_EXIT_ERROR;
        }
        out = path;
    }
    bf_cost_table *t = NULL;
    int rc;
    if (from) {
        bf_cost_table *add = NULL;
        errno = 0;
        if ((rc = bf_cost_table_load(&add, from)) != BF_OK)
            return cli_lib_error(from, "cannot read cost table", rc, errno);
        rc = BF_OK;
        if (bf_cost_table_load(&t, out) != BF_OK && (rc = bf_cost_table_new(&t)) != BF_OK) {
            bf_cost_table_free(add);
            return cli_lib_error(out, "cannot make cost table", rc, 0);
        }
        for (size_t i = 0; rc == BF_OK && i < bf_cost_table_rows(add); i++) {
            const char *name;
            uint64_t bytes;
            double ns;
            rc = bf_cost_table_row(add, i, &name, &bytes, &ns);
            if (rc == BF_OK) rc = bf_cost_table_add(t, name, bytes, ns);
        }
        bf_cost_table_free(add);
        if (rc) {
            bf_cost_table_free(t);
            return cli_lib_error(from, "cannot add rows", rc, 0);
        }
    } else {
        fprintf(stderr, "calibrating (at most %g s)...\n", seconds);
        if ((rc = bf_calibrate(&t, seconds)) != BF_OK)
            return cli_lib_error("calibrate", "cannot calibrate", rc, 0);
    }
    errno = 0;
    rc = bf_cost_table_save(t, out);
    int err = errno;
    size_t rows = bf_cost_table_rows(t);
    printf("%zu rows for %s\nsaved to %s\n", rows, bf_cost_table_machine(t), out);
    bf_cost_table_free(t);
    return rc ? cli_lib_error(out, "cannot save cost table", rc, err) : 0;
}

const cli_command cli_cmd_calibrate = {
    "calibrate", "measure this machine's lookup costs for calc --work-ns", help, run};

/* ---- calc --work-ns: the chooser's report -------------------------------- */

/* Runners-up whose expected cost is within this share of the pick's get a
 * note. */
#define CLOSE_SHARE 0.10

static void print_choice(const bf_choice *c, size_t rank) {
    printf("%4zu  %-20s %13" PRIu64 " %8.2f %11.4g %9.2f %11.2f  %s%s\n", rank, c->name, c->bytes,
           c->bits_per_key, c->model_fpp, c->lookup_ns, c->expected_ns, c->why,
           (c->flags & BF_CHOICE_EXTRAPOLATED) ? " [size past the table]" : "");
}

/* Builds the first `count` ranked choices with the job's keys and measures
 * them, interleaved (the check of a pick), then says whether the
 * measurements confirm the pick: it measured cheapest, or the cheapest
 * measured is within the spread the rounds showed. */
static int measure_top(const bf_choice *ch, size_t count, const bf_job *job, uint64_t absent) {
    bf_measurement m[BF_MEASURE_MAX];
    if (count > BF_MEASURE_MAX) count = BF_MEASURE_MAX;
    printf("\nmeasured: each built with %" PRIu64 " keys (random 64-bit hashes), %" PRIu64
           " absent lookups",
           job->n, absent);
    fflush(stdout);
    int rc = bf_choices_measure(ch, count, job->n, absent, m);
    if (rc == BF_EINVAL || rc == BF_ENOMEM) {
        printf("\n");
        return cli_lib_error("calc", "cannot measure", rc, 0);
    }
    printf(" in %u rounds, all filters at once\n", m[0].rounds ? m[0].rounds : 1);
    printf("%-20s %9s %9s %13s %11s %14s %14s\n", "candidate", "insert_ns", "lookup_ns",
           "(rounds)", "fpr", "expected_ns", "(model)");
    int status = 0;
    double total[BF_MEASURE_MAX], lo[BF_MEASURE_MAX], hi[BF_MEASURE_MAX];
    size_t best = count;
    for (size_t i = 0; i < count; i++) {
        if (m[i].status) {
            printf("%-20s %s\n", ch[i].name, bf_strerror(m[i].status));
            status = BF_CLI_EXIT_ERROR;
            continue;
        }
        double fp = job->negatives * m[i].fpr * job->work_ns;
        total[i] = m[i].lookup_ns + fp;
        lo[i] = m[i].lookup_ns_lo + fp;
        hi[i] = m[i].lookup_ns_hi + fp;
        char range[32];
        snprintf(range, sizeof range, "%.2f-%.2f", m[i].lookup_ns_lo, m[i].lookup_ns_hi);
        printf("%-20s %9.2f %9.2f %13s %11.4g %14.2f %14.2f%s\n", ch[i].name, m[i].insert_ns,
               m[i].lookup_ns, range, m[i].fpr, total[i], ch[i].expected_ns,
               m[i].false_negatives ? "  FALSE NEGATIVES" : "");
        if (m[i].false_negatives) status = BF_CLI_EXIT_ERROR;
        if (best == count || total[i] < total[best]) best = i;
    }
    if (best == count || m[0].status) return status;
    if (best == 0)
        printf("verdict: confirmed: the pick, %s, measured cheapest\n", ch[0].name);
    else if (lo[0] <= hi[best])
        printf("verdict: confirmed within the spread: %s measured %.1f%% cheaper than the pick, "
               "but the pick's best round (%.2f ns) beat %s's worst (%.2f ns)\n",
               ch[best].name, 100 * (1 - total[best] / total[0]), lo[0], ch[best].name,
               hi[best]);
    else
        printf("verdict: not confirmed: %s measured %.1f%% cheaper than the pick in every round "
               "(%.2f-%.2f ns against %.2f-%.2f): calibrate again on a quieter machine, or "
               "take %s\n",
               ch[best].name, 100 * (1 - total[best] / total[0]), lo[best], hi[best], lo[0],
               hi[0], ch[best].name);
    return status;
}

int cli_calc_choose(const bf_job *job, const char *costs, size_t top, uint64_t measure) {
    char path[4200];
    if (!costs) {
        if (costs_path(path, sizeof path, 0) != 0) {
            cli_msg("calc: no cache folder (set XDG_CACHE_HOME or HOME, or give --costs)");
            return BF_CLI_EXIT_ERROR;
        }
        costs = path;
    }
    bf_cost_table *t = NULL;
    errno = 0;
    int rc = bf_cost_table_load(&t, costs);
    if (rc == BF_EIO && errno == ENOENT) {
        cli_msg("calc: no cost table for this machine (%s): run 'blockfilter calibrate' "
                "first (at most 15 s), or give --costs FILE",
                costs);
        return BF_CLI_EXIT_ERROR;
    }
    if (rc) return cli_lib_error(costs, "cannot read cost table", rc, errno);
    char machine[256];
    bf_machine_name(machine, sizeof machine);
    if (job->fpp != 0)
        printf("%" PRIu64 " keys at fpp <= %g", job->n, job->fpp);
    else if (job->bytes != 0)
        printf("%" PRIu64 " keys in <= %" PRIu64 " bytes", job->n, job->bytes);
    else
        printf("%" PRIu64 " keys, any size from 2 to 64 bits/key", job->n);
    printf(", %g ns saved per negative, %g%% of lookups negative\n", job->work_ns,
           100 * job->negatives);
    printf("cost table: %s (%s)\n", costs, bf_cost_table_machine(t));
    if (strcmp(machine, bf_cost_table_machine(t)) != 0)
        printf("note: measured on another machine or build than this one (%s)\n", machine);
    size_t cap = bf_candidate_count(), n = 0;
    bf_choice *ch = calloc(cap ? cap : 1, sizeof *ch);
    if (!ch) {
        bf_cost_table_free(t);
        cli_msg("calc: out of memory");
        return BF_CLI_EXIT_ERROR;
    }
    rc = bf_choose(t, job, ch, cap, &n);
    bf_cost_table_free(t);
    if (rc != BF_OK && rc != BF_ETOOBIG) {
        free(ch);
        return cli_lib_error("calc", "cannot choose", rc, 0);
    }
    printf("expected cost of a lookup = lookup_ns + negatives x model_fpp x work_ns\n");
    printf("%4s  %-20s %13s %8s %11s %9s %11s  %s\n", "rank", "candidate", "bytes", "bits/key",
           "model_fpp", "lookup_ns", "expected_ns", "why");
    size_t ranked = 0;
    while (ranked < n && ch[ranked].status == BF_OK) ranked++;
    size_t shown = ranked < top ? ranked : top;
    for (size_t i = 0; i < shown; i++) print_choice(&ch[i], i + 1);
    if (shown < ranked) printf("      (%zu more ranked; --top N shows them)\n", ranked - shown);
    if (ranked < n) {
        printf("left out:\n");
        for (size_t i = ranked; i < n; i++) printf("      %-20s %s\n", ch[i].name, ch[i].why);
    }
    int status = 0;
    if (rc == BF_ETOOBIG) {
        cli_msg("calc: no layout fits the job");
        status = BF_CLI_EXIT_ERROR;
    } else {
        printf("pick: %s\n", ch[0].name);
        /* Runners-up this close are within what a cost table can be off
         * by (docs/chooser.md, "The three jobs"). */
        size_t close = 0;
        for (size_t i = 1; i < ranked; i++)
            if (ch[i].expected_ns <= ch[0].expected_ns * (1 + CLOSE_SHARE)) close++;
        if (close)
            printf("note: %zu runner%s-up within %.0f%% of the pick's cost, about what the cost "
                   "table can be off by: --measure compares them built\n",
                   close, close == 1 ? "" : "s", 100 * CLOSE_SHARE);
        if (measure) status = measure_top(ch, ranked < 3 ? ranked : 3, job, measure);
    }
    free(ch);
    return status;
}
