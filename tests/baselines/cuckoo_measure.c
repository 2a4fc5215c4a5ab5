/*
 * Measurements of the cuckoo filter's shapes (not a test: run by hand, the
 * figures of docs/families.md come from its output, kept under results/):
 *
 *   cuckoo_measure load [SLOTS] [RUNS]
 *       load at the first failed insert (default kick limit) for bucket
 *       sizes 1..8, 12, 16, 32, 64, 128, 255 and fingerprints of 8, 16 and
 *       32 bits (4 and 5 for the fast sizes), tables of SLOTS slots
 *       (default 2^20), RUNS tables each (default 3): min, median, max;
 *   cuckoo_measure load-every-f [SLOTS] [RUNS]
 *       the same for b in {1, 2, 4, 8} and every f from 4 to 16;
 *   cuckoo_measure fpr [N] [QUERIES]
 *       for b in {1, 2, 4, 8} and f in {4, 8, 12, 16, 32}: a table sized
 *       for N keys (default 10^6) at the design load
 *       (bf_cuckoo_size_for with the shape fixed and a loose target), the
 *       load reached when filled to failure, and the FPR of QUERIES foreign
 *       keys (default 10^7) at N keys against the model;
 *   cuckoo_measure small [RUNS]
 *       the spread of the load at failure over RUNS tables (default 2000)
 *       of 32 to 2^16 slots, for b in {1, 2, 4, 8} and f in {4, 5, 6, 8,
 *       12, 16}: minimum, 0.1% and 1% quantiles, median (what the design
 *       load of sizing must stay under);
 *   cuckoo_measure kicks [RUNS] [LOG2_MAX]
 *       load at the first failed insert against the kick limit (1 .. 500)
 *       for b in {1, 2, 4, 8}, 16-bit fingerprints, tables of 2^16, 2^20
 *       and 2^LOG2_MAX slots (default 24; RUNS tables each, default 3, one
 *       at 2^24): min and median, and the ratio of each to the same
 *       statistic at 500 kicks (what bf_cuckoo_model_load_kicks and sizing
 *       for a kick limit scale by);
 *   cuckoo_measure semisort [N] [REPS]
 *       semi-sorted buckets against plain ones at b = 4: bits per key and
 *       FPR at N keys, and batch-lookup and insert time per key (medians
 *       of REPS runs, all shapes timed in each run, as ratios; thread CPU
 *       time).
 */
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CPU time of this thread: on a machine others load, wall time counts the
 * time the thread waits for a core. */
static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Fills to the first failure; returns keys stored. */
static uint64_t fill_to_failure(bf_cuckoo *c, uint64_t seed) {
    uint64_t n = 0;
    while (bf_cuckoo_insert_hash(c, tu_next(&seed)) == BF_OK) n++;
    return n;
}

/* every_f: the fast bucket sizes with every f from 4 to 16 instead. */
static int cmd_load(uint64_t slots, unsigned runs, int every_f) {
    static const unsigned all_sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 32, 64, 128, 255};
    static const unsigned all_bits[] = {4, 5, 8, 16, 32};
    static const unsigned fast_sizes[] = {1, 2, 4, 8};
    static const unsigned every_bits[] = {4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    const unsigned *sizes = every_f ? fast_sizes : all_sizes;
    const unsigned *bits = every_f ? every_bits : all_bits;
    const size_t nsizes = every_f ? 4 : sizeof all_sizes / sizeof all_sizes[0];
    const size_t nbits = every_f ? 13 : sizeof all_bits / sizeof all_bits[0];
    printf("load at first failure (kick limit %u), %llu slots, %u tables each: min / median / max\n",
           500u, (unsigned long long)slots, runs);
    printf("%4s %4s %8s %8s %8s %8s\n", "b", "f", "min", "median", "max", "model");
    for (size_t i = 0; i < nsizes; i++)
        for (size_t j = 0; j < nbits; j++) {
            unsigned b = sizes[i], f = bits[j];
            if (f < 8 && b > 8) continue;
            double loads[16];
            for (unsigned r = 0; r < runs && r < 16; r++) {
                uint64_t nb = slots / b;
                nb += nb & 1;
                bf_cuckoo *c = NULL;
                if (bf_cuckoo_new_table(&c, nb, b, f, 0) != BF_OK) return 1;
                loads[r] = (double)fill_to_failure(c, 1000 * r + 7 * b + f) / (double)(nb * b);
                bf_cuckoo_free(c);
            }
            qsort(loads, runs, sizeof loads[0], cmp_double);
            printf("%4u %4u %8.4f %8.4f %8.4f %8.4f\n", b, f, loads[0], loads[runs / 2],
                   loads[runs - 1], bf_cuckoo_model_load(b));
            fflush(stdout);
        }
    return 0;
}

static int cmd_kicks(unsigned runs, unsigned log2_max) {
    static const unsigned sizes[] = {1, 2, 4, 8};
    static const unsigned kicks[] = {500, 1, 2, 5, 10, 20, 50, 100, 200};
    const unsigned logs[] = {16, 20, log2_max};
    if (runs < 1 || runs > 16) return 1;
    printf("load at first failure against the kick limit, f = 16: min and median of RUNS tables,\n"
           "and their ratios to the same at 500 kicks\n");
    printf("%3s %4s %6s %5s %8s %8s %8s %8s\n", "b", "log2", "kicks", "runs", "min", "median",
           "min/500", "med/500");
    for (size_t i = 0; i < 4; i++)
        for (size_t l = 0; l < 3; l++) {
            double min500 = 0, med500 = 0;
            unsigned r_here = logs[l] >= 24 ? 1 : runs;
            for (size_t k = 0; k < sizeof kicks / sizeof kicks[0]; k++) {
                unsigned b = sizes[i];
                double loads[16];
                for (unsigned r = 0; r < r_here; r++) {
                    uint64_t nb = ((uint64_t)1 << logs[l]) / b;
                    nb += nb & 1;
                    bf_cuckoo *c = NULL;
                    if (bf_cuckoo_new_table(&c, nb, b, 16, 0) != BF_OK) return 1;
                    if (bf_cuckoo_set_max_kicks(c, kicks[k]) != BF_OK) return 1;
                    loads[r] = (double)fill_to_failure(c, 7919 * r + 131 * b + logs[l]) /
                               (double)(nb * b);
                    bf_cuckoo_free(c);
                }
                qsort(loads, r_here, sizeof loads[0], cmp_double);
                double mn = loads[0], med = loads[r_here / 2];
                if (k == 0) min500 = mn, med500 = med;
                printf("%3u %4u %6u %5u %8.4f %8.4f %8.4f %8.4f\n", b, logs[l], kicks[k], r_here, mn,
                       med, mn / min500, med / med500);
                fflush(stdout);
            }
        }
    return 0;
}

static int cmd_fpr(uint64_t n, uint64_t queries) {
    static const unsigned sizes[] = {1, 2, 4, 8};
    static const unsigned bits[] = {4, 8, 12, 16, 32};
    printf("n = %llu keys, %llu foreign keys; table sized at the design load\n",
           (unsigned long long)n, (unsigned long long)queries);
    printf("%3s %3s %10s %7s %7s %12s %12s %9s %12s %8s %9s\n", "b", "f", "buckets", "load", "fail",
           "model_fpr", "measured", "hits", "expected", "sigma", "2ba/2^f");
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 5; j++) {
            unsigned b = sizes[i], f = bits[j];
            bf_cuckoo_sizing z;
            if (bf_cuckoo_size_for(n, 0.999, b, f, 0, &z) != BF_OK) return 1;
            bf_cuckoo *c = NULL;
            if (bf_cuckoo_new_table(&c, z.num_buckets, b, f, 0) != BF_OK) return 1;
            uint64_t s = 42 + 100 * b + f, stored = 0;
            for (uint64_t k = 0; k < n; k++) stored += bf_cuckoo_insert_hash(c, tu_next(&s)) == BF_OK;
            double load = (double)stored / (double)(z.num_buckets * b);
            uint64_t s2 = 0xf00d + b * 64 + f, fp = 0;
            uint64_t h[4096];
            for (uint64_t q = 0; q < queries; q += 4096) {
                size_t m = queries - q < 4096 ? (size_t)(queries - q) : 4096;
                for (size_t t = 0; t < m; t++) h[t] = tu_next(&s2);
                fp += bf_cuckoo_contains_hashes(c, h, m, NULL);
            }
            double model = bf_cuckoo_model_fpp(b, f, load), meas = (double)fp / (double)queries;
            double sd = sqrt(model * (1 - model) / (double)queries);
            /* Keys past n: the load at which this table first fails. */
            uint64_t more = fill_to_failure(c, 99);
            double fail = (double)(stored + more) / (double)(z.num_buckets * b);
            /* (sigma means little below ~30 expected hits: see the counts) */
            printf("%3u %3u %10llu %7.4f %7.4f %12.4g %12.4g %9llu %12.4g %+8.2f %9.3g\n", b, f,
                   (unsigned long long)z.num_buckets, load, fail, model, meas,
                   (unsigned long long)fp, model * (double)queries,
                   sd > 0 ? (meas - model) / sd : 0.0, 2.0 * b * load / (double)((uint64_t)1 << f));
            fflush(stdout);
            bf_cuckoo_free(c);
        }
    return 0;
}

static int cmd_small(unsigned runs) {
    static const unsigned sizes[] = {1, 2, 4, 8};
    static const unsigned bits[] = {4, 5, 6, 8, 12, 16};
    static const uint64_t slots[] = {32, 128, 512, 2048, 8192, 65536};
    double *loads = malloc(runs * sizeof *loads);
    printf("load at first failure over %u tables: min, 0.1%% and 1%% quantiles, median\n", runs);
    printf("%3s %3s %7s %8s %8s %8s %8s\n", "b", "f", "slots", "min", "q0.001", "q0.01", "median");
    for (size_t i = 0; i < 4; i++)
        for (size_t j = 0; j < 6; j++)
            for (size_t k = 0; k < 6; k++) {
                unsigned b = sizes[i], f = bits[j];
                uint64_t nb = slots[k] / b;
                nb += nb & 1;
                unsigned r = slots[k] >= 8192 ? runs / 20 + 1 : runs;
                for (unsigned t = 0; t < r; t++) {
                    bf_cuckoo *c = NULL;
                    if (bf_cuckoo_new_table(&c, nb, b, f, 0) != BF_OK) return 1;
                    loads[t] = (double)fill_to_failure(c, 31 * t + 1000003 * k + 7 * b + f) /
                               (double)(nb * b);
                    bf_cuckoo_free(c);
                }
                qsort(loads, r, sizeof loads[0], cmp_double);
                printf("%3u %3u %7llu %8.4f %8.4f %8.4f %8.4f\n", b, f, (unsigned long long)(nb * b),
                       loads[0], loads[r / 1000], loads[r / 100], loads[r / 2]);
                fflush(stdout);
            }
    free(loads);
    return 0;
}

typedef struct shape {
    unsigned f, flags;
    const char *name;
} shape;

static int cmd_semisort(uint64_t n, unsigned reps) {
    static const shape shapes[] = {
        {12, 0, "plain f=12"},
        {13, 0, "plain f=13"},
        {13, BF_CUCKOO_SEMISORTED, "semi-sorted f=13"},
        {16, 0, "plain f=16"},
        {17, BF_CUCKOO_SEMISORTED, "semi-sorted f=17"},
        {9, BF_CUCKOO_SEMISORTED, "semi-sorted f=9"},
        {8, 0, "plain f=8"},
    };
    enum { NS = sizeof shapes / sizeof shapes[0] };
    double look[NS][16], ins[NS][16], bpk[NS], fpr[NS], model[NS];
    uint64_t nb = (uint64_t)((double)n / (4 * 0.94)) + 1;
    nb += nb & 1;
    const size_t q = 1u << 22;
    uint64_t *keys = malloc(n * sizeof *keys), *probe = malloc(q * sizeof *probe);
    uint8_t *out = malloc(q);
    uint64_t s = 5;
    for (uint64_t i = 0; i < n; i++) keys[i] = tu_next(&s);
    for (size_t i = 0; i < q; i++) probe[i] = tu_next(&s);
    for (unsigned r = 0; r < reps && r < 16; r++)
        for (unsigned k = 0; k < NS; k++) {
            bf_cuckoo *c = NULL;
            if (bf_cuckoo_new_table(&c, nb, 4, shapes[k].f, shapes[k].flags) != BF_OK) return 1;
            double t0 = now_ns();
            for (uint64_t i = 0; i < n; i++)
                if (bf_cuckoo_insert_hash(c, keys[i]) != BF_OK) return 1;
            double t1 = now_ns();
            size_t hits = bf_cuckoo_contains_hashes(c, probe, q, out);
            double t2 = now_ns();
            ins[k][r] = (t1 - t0) / (double)n;
            look[k][r] = (t2 - t1) / (double)q;
            bpk[k] = 8.0 * (double)bf_cuckoo_table_bytes(c) / (double)n;
            fpr[k] = (double)hits / (double)q;
            model[k] = bf_cuckoo_model_fpp(4, shapes[k].f, (double)n / (4.0 * (double)nb));
            bf_cuckoo_free(c);
        }
    printf("b = 4, n = %llu keys in %llu buckets (load %.3f), %zu foreign lookups (batch), medians of %u runs\n",
           (unsigned long long)n, (unsigned long long)nb, (double)n / (4.0 * (double)nb), q, reps);
    printf("%-18s %9s %11s %11s %10s %10s %9s %9s\n", "shape", "bits/key", "model_fpr", "measured",
           "lookup_ns", "insert_ns", "lookup/x", "insert/x");
    double base_l = 0, base_i = 0;
    for (unsigned k = 0; k < NS; k++) {
        qsort(look[k], reps, sizeof(double), cmp_double);
        qsort(ins[k], reps, sizeof(double), cmp_double);
        if (k == 0) base_l = look[k][reps / 2], base_i = ins[k][reps / 2];
        printf("%-18s %9.3f %11.4g %11.4g %10.2f %10.2f %9.2f %9.2f\n", shapes[k].name, bpk[k],
               model[k], fpr[k], look[k][reps / 2], ins[k][reps / 2], look[k][reps / 2] / base_l,
               ins[k][reps / 2] / base_i);
    }
    printf("(x = plain f=12)\n");
    free(keys);
    free(probe);
    free(out);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && (!strcmp(argv[1], "load") || !strcmp(argv[1], "load-every-f")))
        return cmd_load(argc > 2 ? strtoull(argv[2], NULL, 0) : 1u << 20,
                        argc > 3 ? (unsigned)atoi(argv[3]) : 3, argv[1][4] != 0);
    if (argc >= 2 && !strcmp(argv[1], "fpr"))
        return cmd_fpr(argc > 2 ? strtoull(argv[2], NULL, 0) : 1000000,
                       argc > 3 ? strtoull(argv[3], NULL, 0) : 10000000);
    if (argc >= 2 && !strcmp(argv[1], "small"))
        return cmd_small(argc > 2 ? (unsigned)atoi(argv[2]) : 2000);
    if (argc >= 2 && !strcmp(argv[1], "kicks"))
        return cmd_kicks(argc > 2 ? (unsigned)atoi(argv[2]) : 3,
                         argc > 3 ? (unsigned)atoi(argv[3]) : 24);
    if (argc >= 2 && !strcmp(argv[1], "semisort"))
        return cmd_semisort(argc > 2 ? strtoull(argv[2], NULL, 0) : 1000000,
                            argc > 3 ? (unsigned)atoi(argv[3]) : 5);
    fprintf(stderr, "usage: cuckoo_measure load|fpr|small|semisort [args]\n");
    return 2;
}
