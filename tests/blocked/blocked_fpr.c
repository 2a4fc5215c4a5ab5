/*
 * The measured FPR of blocked shapes against their exact model:
 *   blocked_fpr [N [Q [FPP]]]
 * For each shape of the benchmark matrix (and any given as B/S/Z/K after
 * the numbers), a filter sized for N keys (default 10^6) at FPP (default
 * 0.01) by bf_blocked_new, filled with N random 64-bit hashes and probed
 * with Q (default 10^7) absent ones. Prints bits per key, the model FPR,
 * the measured FPR, their ratio, and whether it lies within +-5 %.
 * Exit status 1 if some shape lies outside. Not a test: docs/families.md
 * quotes its output.
 */
#include "blockfilter_advanced.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>

static const bf_blocked_shape matrix[] = {
    {32, 1, 1, 3},    {32, 1, 1, 4},    {64, 1, 1, 4},  {64, 1, 1, 6},  {128, 1, 1, 6},
    {256, 1, 1, 7},   {512, 1, 1, 6},   {512, 1, 1, 8}, {256, 8, 8, 8}, {512, 8, 8, 8},
    {512, 16, 16, 16}, {512, 8, 2, 4},  {512, 8, 2, 6}, {512, 8, 2, 8}, {512, 16, 2, 8},
    {512, 16, 4, 8},
};

int main(int argc, char **argv) {
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 1000000;
    uint64_t q = argc > 2 ? strtoull(argv[2], NULL, 0) : 10000000;
    double fpp = argc > 3 ? strtod(argv[3], NULL) : 0.01;
    size_t ns = sizeof matrix / sizeof matrix[0];
    bf_blocked_shape *shapes = malloc((ns + (size_t)argc) * sizeof *shapes);
    uint64_t *keys = malloc(n * sizeof *keys), *probe = malloc(1000000 * sizeof *probe);
    if (!shapes || !keys || !probe) return 2;
    for (size_t i = 0; i < ns; i++) shapes[i] = matrix[i];
    for (int a = 4; a < argc; a++) {
        bf_blocked_shape s;
        if (sscanf(argv[a], "%u/%u/%u/%u", &s.block_bits, &s.sectors, &s.groups, &s.k) == 4)
            shapes[ns++] = s;
    }
    int bad = 0;
    printf("%llu keys, %llu absent keys, sized for %g\n", (unsigned long long)n,
           (unsigned long long)q, fpp);
    printf("%-12s %9s %11s %11s %7s %s\n", "shape", "bits/key", "model", "measured", "ratio",
           "within 5%");
    for (size_t i = 0; i < ns; i++) {
        const bf_blocked_shape *s = &shapes[i];
        bf_blocked *f;
        int rc = bf_blocked_new(&f, n, fpp, s);
        if (rc) {
            printf("%u/%u/%u/%u: %s\n", s->block_bits, s->sectors, s->groups, s->k,
                   bf_strerror(rc));
            continue;
        }
        uint64_t st = 1 + i;
        for (uint64_t j = 0; j < n; j++) keys[j] = tu_next(&st);
        bf_blocked_insert_hashes(f, keys, n);
        uint64_t hits = 0;
        for (uint64_t done = 0; done < q;) {
            size_t m = q - done < 1000000 ? (size_t)(q - done) : 1000000;
            for (size_t j = 0; j < m; j++) probe[j] = tu_next(&st);
            hits += bf_blocked_contains_hashes(f, probe, m, NULL);
            done += m;
        }
        double measured = (double)hits / (double)q;
        double model = bf_blocked_model_fpp_blocks(s, bf_blocked_num_blocks(f), n);
        double ratio = measured / model;
        int ok = ratio >= 0.95 && ratio <= 1.05;
        bad |= !ok;
        char name[32];
        snprintf(name, sizeof name, "%u/%u/%u/%u", s->block_bits, s->sectors, s->groups, s->k);
        printf("%-12s %9.3f %11.5f %11.5f %7.4f %s\n", name,
               8.0 * (double)bf_blocked_num_bytes(f) / (double)n, model, measured, ratio,
               ok ? "yes" : "NO");
        bf_blocked_free(f);
    }
    free(shapes);
    free(keys);
    free(probe);
    return bad;
}
