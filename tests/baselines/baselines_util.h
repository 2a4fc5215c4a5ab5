/* Helpers shared by the baseline-family tests. */
#ifndef BF_BASELINES_UTIL_H
#define BF_BASELINES_UTIL_H

#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "testutil.h"

#include <stdint.h>
#include <stdlib.h>

/* The FPR tolerance every test states: a measured rate from q foreign keys
 * is Binomial(q, p) / q, so it must lie within 5 standard deviations
 * sqrt(p (1 - p) / q) of the model p (a chance of ~6e-7 to fail by luck),
 * plus a relative slack rel * p for the spread of one filter instance around
 * the model's average. */
static inline int tb_within(double measured, double p, double q, double rel) {
    return tu_within(measured, p, q, 5.0, rel);
}

static inline uint64_t *tb_keys(size_t n, uint64_t seed) {
    uint64_t *k = malloc(n * sizeof *k);
    for (size_t i = 0; i < n; i++) k[i] = tu_next(&seed);
    return k;
}

/* The native image of f (malloc'ed), or NULL if saving fails or writes
 * another length than bf_filter_save_size says. */
static inline uint8_t *tb_saved(const bf_filter *f, size_t *len) {
    *len = bf_filter_save_size(f);
    uint8_t *buf = *len > BF_HEADER_BYTES ? malloc(*len) : NULL;
    size_t w = 0;
    if (buf && (bf_filter_save(f, buf, *len, &w) != BF_OK || w != *len)) {
        free(buf);
        buf = NULL;
    }
    return buf;
}

#endif
