/*
 * The chooser's candidates: every layout it can rank, each behind one small
 * table of operations, so a family plugs in with its own rows and nothing
 * else changes (candidates.c). The cost table (costs.c), the chooser
 * (choose.c) and the calibration (calibrate.c) see candidates only through
 * these.
 */
#ifndef BF_CHOOSE_CANDIDATES_H
#define BF_CHOOSE_CANDIDATES_H

#include "common/internal.h"

typedef struct bf__candidate bf__candidate;

typedef struct bf__candidate_ops {
    /* The fewest bytes whose model FPR at n keys is <= fpp, and that FPR.
     * BF_ETOOBIG if the layout cannot meet fpp within its limits. */
    int (*fit_fpp)(const bf__candidate *c, uint64_t n, double fpp, uint64_t *bytes,
                   double *fpr);
    /* The most of `budget` bytes the layout can use for n keys, and its
     * model FPR there. BF_ETOOBIG if it cannot hold n keys in the budget. */
    int (*fit_bytes)(const bf__candidate *c, uint64_t n, uint64_t budget, uint64_t *bytes,
                     double *fpr);
    /* An empty filter of the layout of (about) `bytes` bytes, as fit_* gave
     * them, or as calibration asks for. */
    int (*make)(const bf__candidate *c, uint64_t bytes, void **obj);
    /* Keys this filter holds at its design load (calibration fills to it,
     * up to a cap). */
    uint64_t (*design_keys)(const bf__candidate *c, const void *obj);
    int (*insert)(void *obj, const uint64_t *h, size_t n);
    size_t (*lookup)(const void *obj, const uint64_t *h, size_t n, uint8_t *out);
    void (*destroy)(void *obj);
} bf__candidate_ops;

struct bf__candidate {
    const char *name;
    bf_family family;
    /* Bloom layouts: block bits, sectors, groups, k (the SBBF: 256 8 8 8);
     * cuckoo: p[0] slots per bucket, p[1] fingerprint bits. */
    unsigned p[4];
    const bf__candidate_ops *ops;
};

BF_HIDDEN size_t bf__candidate_count(void);
BF_HIDDEN const bf__candidate *bf__candidate_at(size_t i);
/* Index of the candidate of that name, or -1. */
BF_HIDDEN long bf__candidate_find(const char *name);

/* splitmix64: the random hashes calibration and measurement use. */
static inline uint64_t bf__splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The cost table's lookup ns for a candidate at bytes (costs.c): NaN
 * without a row; *beyond (may be NULL) = 1 if bytes is past the largest
 * size measured. */
BF_HIDDEN double bf__cost_table_interpolate(const bf_cost_table *t, const char *name,
                                           uint64_t bytes, int *beyond);

/* Untimed batches of `chunk` lookups before timed ones, for a filter of
 * `bytes` (calibration and bf_choices_measure alike), so that a filter
 * that fits the last-level cache is measured from it, as in a job that
 * uses it alone, and not from memory after other filters evicted it: 8.
 * Three random probes per 64-byte line would touch 95 % of the lines
 * (1 - e^-3), 2 batches up to 2 MiB, but the timed batches after so few
 * were not yet steady: on a Zen 3 guest the 2 MiB rows came out 8-12 %
 * above those after 8, and above what bf_choices_measure's long visits
 * find (register-blocked 32: 1.89-2.01 ns against 1.66-1.78). From 4 MiB
 * up, eight probes a line (16 batches at 8 MiB): a filter of 8 MiB, after
 * the 29 others of its calibration group evicted it, was still getting
 * faster pass by pass after 8 (its rows 25-60 % above those after 30; its
 * last-level cache is a victim cache shared with other guests). A filter
 * that needs more than 8 by the three-probe count (over 10 MiB at 2^16
 * lookups a batch) is taken to be past the caches, where warming gains
 * nothing: 2. */
static inline size_t bf__warm_batches(uint64_t bytes, size_t chunk) {
    uint64_t p = 3 * (bytes / 64) / chunk, settle = 8 * (bytes / 64) / chunk;
    return p > 8 ? 2 : settle > 8 ? (size_t)settle : 8;
}

/* The median of v[0, n) (sorts v); NaN for n = 0. */
BF_HIDDEN double bf__median(double *v, size_t n);

/* Seconds on a monotonic clock. */
BF_HIDDEN double bf__now_seconds(void);
/* This thread's CPU seconds (the monotonic clock where there is no such
 * clock): what a timed loop costs without the time other processes had the
 * core, so that a busy machine inflates measurements less. */
BF_HIDDEN double bf__cpu_seconds(void);

#endif
