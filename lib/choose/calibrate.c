/*
 * Calibration: every candidate's batch lookup time on this machine, at
 * filter sizes from L1-sized to past the last-level cache, within a wall
 * time budget. Sizes rather than cache levels: the chooser interpolates
 * between them in log2(bytes), so nothing depends on what the machine says
 * its caches are (a virtual machine may report its host's).
 *
 * Each measurement makes a fresh filter of the size, loads it with keys
 * (the layout's design load, at most FILL_CAP keys: 8 a 4 KiB page at 128 MiB
 * and thousands a 2 MiB huge page, which the allocator asks for, so lookups
 * read memory of the filter's own, not the shared zero page), then times PASSES batch
 * lookups of CHUNK random hashes, each pass with hashes of its own (so a
 * large filter's lines are not warm from the pass before), after one
 * warm-up pass. The row is the median pass, in ns per key of this thread's
 * CPU time (time the thread waited for the core while others ran does not
 * count; what they did to the caches does).
 */
#include "choose/candidates.h"

#include <math.h>

#define CHUNK ((size_t)1 << 16)
#define PASSES 11
#define FILL_CAP ((uint64_t)1 << 18)

/* 32 KiB (L1), 512 KiB (L2), 8 MiB (L3), 128 MiB (past it: four times
 * the 32 MiB L3 of one Zen 4 chiplet) and 1 GiB (DRAM with TLB misses on
 * 2 MiB pages: the size of a 10^8-key filter at 64-80 bits/key). Most of
 * the time goes to the last two (the kernel zeroes each candidate's
 * memory): on a 2-vCPU Zen 4 guest, about 9 s for all five classes. */
static const uint64_t class_bytes[] = {(uint64_t)1 << 15, (uint64_t)1 << 19,
                                       (uint64_t)1 << 23, (uint64_t)1 << 27, (uint64_t)1 << 30};
#define NCLASSES (sizeof class_bytes / sizeof class_bytes[0])

/* The median batch lookup ns per key of one candidate at one size. probes
 * holds (PASSES + 1) * CHUNK hashes; scratch CHUNK hashes; ans CHUNK. */
static int measure(const bf__candidate *c, uint64_t bytes, const uint64_t *probes,
                   uint64_t *scratch, uint8_t *ans, double *ns_out) {
    void *obj = NULL;
    int rc = c->ops->make(c, bytes, &obj);
    if (rc) return rc;
    uint64_t keys = c->ops->design_keys(c, obj), st = 0xca1b;
    if (keys > FILL_CAP) keys = FILL_CAP;
    for (uint64_t done = 0; rc == BF_OK && done < keys;) {
        size_t len = (size_t)(keys - done < CHUNK ? keys - done : CHUNK);
        for (size_t i = 0; i < len; i++) scratch[i] = bf__splitmix64(&st);
        rc = c->ops->insert(obj, scratch, len);
        done += len;
    }
    double ns[PASSES];
    if (rc == BF_OK) {
        c->ops->lookup(obj, probes, CHUNK, ans); /* warm-up */
        for (size_t p = 0; p < PASSES; p++) {
            double t0 = bf__cpu_seconds();
            c->ops->lookup(obj, probes + (p + 1) * CHUNK, CHUNK, ans);
            ns[p] = 1e9 * (bf__cpu_seconds() - t0) / (double)CHUNK;
        }
        *ns_out = bf__median(ns, PASSES);
        if (!(*ns_out > 0)) *ns_out = 1e-3; /* below the clock's resolution */
    }
    c->ops->destroy(obj);
    return rc;
}

int bf_calibrate(bf_cost_table **out, double max_seconds) {
    if (!out || !(max_seconds >= 0.5 && max_seconds <= 600)) return BF_EINVAL;
    double deadline = bf__now_seconds() + max_seconds;
    bf_cost_table *t = NULL;
    uint64_t *probes = bf__malloc((PASSES + 1) * CHUNK * sizeof *probes);
    uint64_t *scratch = bf__malloc(CHUNK * sizeof *scratch);
    uint8_t *ans = bf__malloc(CHUNK);
    size_t ncand = bf__candidate_count(), classes_done = 0;
    double *rows_ns = bf__malloc(ncand * sizeof *rows_ns); /* one class's rows,
                                                              kept until it is whole */
    int rc = (!probes || !scratch || !ans || !rows_ns) ? BF_ENOMEM : bf_cost_table_new(&t);
    if (rc == BF_OK) {
        uint64_t st = 0x9b0be5;
        for (size_t i = 0; i < (PASSES + 1) * CHUNK; i++) probes[i] = bf__splitmix64(&st);
    }
    double slowest = 0; /* the longest one candidate took, in the class before */
    for (size_t k = 0; rc == BF_OK && k < NCLASSES; k++) {
        /* The smallest class is measured whole whatever the time (it is
         * the quickest, and a table needs one); later classes only within
         * the budget, each whole or not at all. A candidate starts only if
         * the longest one so far in this class (at first, twice the longest
         * in the class before) would still end in time, so the budget is
         * kept, not overrun by a class that cannot finish. A class whose
         * memory cannot be had is left out too. */
        size_t i = 0;
        double longest = 0, expect = 2 * slowest;
        for (; i < ncand; i++) {
            double t0 = bf__now_seconds();
            if (k > 0 && t0 + (i ? longest : expect) > deadline) break;
            rc = measure(bf__candidate_at(i), class_bytes[k], probes, scratch, ans, &rows_ns[i]);
            if (rc) break;
            double took = bf__now_seconds() - t0;
            if (took > longest) longest = took;
        }
        slowest = longest;
        if (rc == BF_ENOMEM && k > 0) rc = BF_OK;                       /* left out whole */
        if (rc || i < ncand || (k > 0 && bf__now_seconds() > deadline)) break; /* left out whole */
        for (i = 0; rc == BF_OK && i < ncand; i++)
            rc = bf_cost_table_add(t, bf__candidate_at(i)->name, class_bytes[k], rows_ns[i]);
        classes_done++;
    }
    bf__free(probes);
    bf__free(scratch);
    bf__free(ans);
    bf__free(rows_ns);
    if (rc == BF_OK && classes_done == 0) rc = BF_ETOOBIG;
    if (rc) {
        bf_cost_table_free(t);
        return rc;
    }
    *out = t;
    return BF_OK;
}
