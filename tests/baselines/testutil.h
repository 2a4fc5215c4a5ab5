/* Helpers shared by the baseline-family tests. */
#ifndef BF_BASELINES_TESTUTIL_H
#define BF_BASELINES_TESTUTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: reproducible, well-mixed 64-bit values. */
static inline uint64_t tb_next(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The FPR tolerance every test states: a measured rate from q foreign keys
 * is Binomial(q, p) / q, so it must lie within 5 standard deviations
 * sqrt(p (1 - p) / q) of the model p (a chance of ~6e-7 to fail by luck),
 * plus a relative slack rel * p for the spread of one filter instance around
 * the model's average. */
static inline int tb_within(double measured, double p, double q, double rel) {
    double sd = sqrt(p * (1 - p) / q);
    return fabs(measured - p) <= 5.0 * sd + rel * p;
}

static inline uint64_t *tb_keys(size_t n, uint64_t seed) {
    uint64_t *k = malloc(n * sizeof *k);
    for (size_t i = 0; i < n; i++) k[i] = tb_next(&seed);
    return k;
}

#endif
