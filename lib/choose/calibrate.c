/*
 * Calibration: every candidate's batch lookup time on this machine, at
 * filter sizes from L1-sized to past the last-level cache, within a wall
 * time budget. Sizes rather than cache levels: the chooser interpolates
 * between them in log2(bytes), so nothing depends on what the machine says
 * its caches are (a virtual machine may report its host's).
 *
 * Each candidate gets a fresh filter of the size, loaded with keys (the
 * layout's design load, at most FILL_CAP keys: 8 a 4 KiB page at 128 MiB and
 * thousands a 2 MiB huge page, which the allocator asks for, so lookups read
 * memory of the filter's own, not the shared zero page). A timed pass is one
 * batch lookup of CHUNK random hashes, each pass with hashes of its own (so
 * a large filter's lines are not warm from the pass before), made just
 * before it, untimed, as bf_choice_measure makes them: the batch reads them
 * from cache, as a caller's freshly hashed keys would be. A visit is
 * untimed passes enough to touch nearly every line of a filter the caches
 * can hold (bf__warm_batches), then TIMED timed ones. The row is the median timed pass,
 * in ns per key of this thread's CPU time (time the thread waited for the
 * core while others ran does not count; what they did to the caches does).
 *
 * The candidates of a class are measured in groups whose filters fit in
 * memory together (INTERLEAVE_BYTES: all 30 up to 8 MiB, 8 at 128 MiB, one
 * at a time at 1 GiB): a group's filters are all built first and the
 * visits go round them VISITS times, so a slow spell of a shared machine
 * (on a 2-vCPU guest, lookups ran 1.5x slower for seconds at a time) falls
 * on all of them alike rather than on whichever was measured then; one
 * visit each, a candidate at a time, rows were up to 2x apart between
 * calibrations. The row is the median of its VISITS * TIMED passes.
 */
#include "choose/candidates.h"

#include <math.h>

#define CHUNK ((size_t)1 << 16)
#define TIMED 4
#define VISITS 3
#define FILL_CAP ((uint64_t)1 << 18)
#define INTERLEAVE_BYTES ((uint64_t)1 << 30) /* a group's filters at once */

/* 32 KiB (L1), 512 KiB (L2), 2 MiB (just past a Zen 4 core's 1 MiB L2, the
 * size of a 10^6-key filter at 16 bits/key), 8 MiB (L3), 128 MiB (past it:
 * four times the 32 MiB L3 of one Zen 4 chiplet) and 1 GiB (DRAM with TLB
 * misses on 2 MiB pages: the size of a 10^8-key filter at 64-80 bits/key).
 * Most of the time goes to the last two (the kernel faults in and zeroes
 * each candidate's memory): on a 2-vCPU Zen 4 guest, 10-15 s for all six
 * classes, so the 1 GiB class is sometimes left out of the default 15 s. */
static const uint64_t class_bytes[] = {(uint64_t)1 << 15, (uint64_t)1 << 19, (uint64_t)1 << 21,
                                       (uint64_t)1 << 23, (uint64_t)1 << 27, (uint64_t)1 << 30};
#define NCLASSES (sizeof class_bytes / sizeof class_bytes[0])

/* A fresh filter of the candidate at bytes, loaded; scratch holds CHUNK. */
static int build(const bf__candidate *c, uint64_t bytes, uint64_t *scratch, void **obj) {
    int rc = c->ops->make(c, bytes, obj);
    if (rc) return rc;
    uint64_t keys = c->ops->design_keys(c, *obj), st = 0xca1b;
    if (keys > FILL_CAP) keys = FILL_CAP;
    for (uint64_t done = 0; rc == BF_OK && done < keys;) {
        size_t len = (size_t)(keys - done < CHUNK ? keys - done : CHUNK);
        for (size_t i = 0; i < len; i++) scratch[i] = bf__splitmix64(&st);
        rc = c->ops->insert(*obj, scratch, len);
        done += len;
    }
    if (rc) {
        c->ops->destroy(*obj);
        *obj = NULL;
    }
    return rc;
}

/* One visit: bf__warm_batches untimed passes, then TIMED passes whose ns per
 * key go to ns[0, TIMED). */
static void visit(const bf__candidate *c, const void *obj, uint64_t bytes,
                  uint64_t *probe_state, uint64_t *scratch, uint8_t *ans, double *ns) {
    size_t warm = bf__warm_batches(bytes, CHUNK);
    for (size_t p = 0; p < warm + TIMED; p++) {
        for (size_t i = 0; i < CHUNK; i++) scratch[i] = bf__splitmix64(probe_state);
        double t0 = bf__cpu_seconds();
        c->ops->lookup(obj, scratch, CHUNK, ans);
        if (p >= warm) ns[p - warm] = 1e9 * (bf__cpu_seconds() - t0) / (double)CHUNK;
    }
}

static double row_ns(double *ns, size_t n) {
    double m = bf__median(ns, n);
    return m > 0 ? m : 1e-3; /* below the clock's resolution */
}

/* Candidates [first, first + count) at one size, all built at once and
 * visited VISITS times in turn; rows_ns[i] gets candidate i's row. *whole
 * = 0 if the deadline (checked before each build and each round, unless
 * check is 0) came first. */
static int group_interleaved(uint64_t bytes, size_t first, size_t count, uint64_t *probe_state,
                             uint64_t *scratch, uint8_t *ans, double *rows_ns, double deadline,
                             int check, int *whole) {
    void **obj = bf__calloc(count, sizeof *obj);
    double *ns = bf__malloc(count * VISITS * TIMED * sizeof *ns);
    int rc = (!obj || !ns) ? BF_ENOMEM : BF_OK;
    double longest = 0, round_s = 0;
    *whole = 0;
    size_t built = 0;
    for (; rc == BF_OK && built < count; built++) {
        double t0 = bf__now_seconds();
        if (check && t0 + longest > deadline) break;
        rc = build(bf__candidate_at(first + built), bytes, scratch, &obj[built]);
        const double took = bf__now_seconds() - t0;
        if (took > longest) longest = took;
    }
    size_t v = 0;
    for (; rc == BF_OK && built == count && v < VISITS; v++) {
        double t0 = bf__now_seconds();
        if (check && t0 + round_s > deadline) break;
        for (size_t i = 0; i < count; i++)
            visit(bf__candidate_at(first + i), obj[i], bytes, probe_state, scratch, ans,
                  ns + (i * VISITS + v) * TIMED);
        round_s = bf__now_seconds() - t0;
    }
    if (rc == BF_OK && v == VISITS) {
        for (size_t i = 0; i < count; i++)
            rows_ns[first + i] = row_ns(ns + i * VISITS * TIMED, VISITS * TIMED);
        *whole = 1;
    }
    for (size_t i = 0; obj && i < count; i++)
        if (obj[i]) bf__candidate_at(first + i)->ops->destroy(obj[i]);
    bf__free(obj);
    bf__free(ns);
    return rc;
}

int bf_calibrate(bf_cost_table **out, double max_seconds) {
    if (!out || !(max_seconds >= 0.5 && max_seconds <= 600)) return BF_EINVAL;
    double deadline = bf__now_seconds() + max_seconds;
    bf_cost_table *t = NULL;
    uint64_t *scratch = bf__malloc(CHUNK * sizeof *scratch);
    uint8_t *ans = bf__malloc(CHUNK);
    size_t ncand = bf__candidate_count(), classes_done = 0;
    double *rows_ns = bf__malloc(ncand * sizeof *rows_ns); /* one class's rows,
                                                              kept until it is whole */
    int rc = (!scratch || !ans || !rows_ns) ? BF_ENOMEM : bf_cost_table_new(&t);
    uint64_t probe_state = 0x9b0be5;
    double slowest = 0; /* the most one candidate's share took, in the class before */
    for (size_t k = 0; rc == BF_OK && k < NCLASSES; k++) {
        /* The smallest class is measured whole whatever the time (it is
         * the quickest, and a table needs one); later classes only within
         * the budget, each whole or not at all. A group starts only if its
         * candidates, at the most one candidate's share of a group took so
         * far in this class (at first, twice that of the class before),
         * would still end in time, and checks again before each build and
         * each round, so the budget is kept, not overrun by a class that
         * cannot finish. A class whose memory cannot be had is left out
         * too. */
        size_t group = (size_t)(INTERLEAVE_BYTES / class_bytes[k]), i = 0;
        if (group < 1) group = 1;
        double share = 0; /* the most one candidate's share of a group took */
        while (i < ncand) {
            size_t count = ncand - i < group ? ncand - i : group;
            double t0 = bf__now_seconds();
            if (k > 0 && t0 + (double)count * (i ? share : 2 * slowest) > deadline) break;
            int whole = 0;
            rc = group_interleaved(class_bytes[k], i, count, &probe_state, scratch, ans, rows_ns,
                                   deadline, k > 0, &whole);
            if (rc || !whole) break;
            double each = (bf__now_seconds() - t0) / (double)count;
            if (each > share) share = each;
            i += count;
        }
        slowest = share;
        if (rc == BF_ENOMEM && k > 0) rc = BF_OK;                       /* left out whole */
        if (rc || i < ncand || (k > 0 && bf__now_seconds() > deadline)) break; /* left out whole */
        for (i = 0; rc == BF_OK && i < ncand; i++)
            rc = bf_cost_table_add(t, bf__candidate_at(i)->name, class_bytes[k], rows_ns[i]);
        classes_done++;
    }
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
