/*
 * The chooser (Lang et al., VLDB 2019): every candidate sized for the job,
 * its model FPR and its lookup time from the cost table, ranked by the
 * expected cost of a lookup, lookup_ns + negatives * FPR * work_ns. And the
 * check of a pick: building a choice and measuring it.
 */
#include "choose/candidates.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int job_valid(const bf_job *j) {
    if (j->n == 0) return 0;
    int by_fpp = j->fpp != 0, by_bytes = j->bytes != 0;
    if (by_fpp && by_bytes) return 0;
    if (by_fpp && !bf_fpp_valid(j->fpp)) return 0;
    if (!(j->work_ns >= 0) || !isfinite(j->work_ns)) return 0;
    return j->negatives >= 0 && j->negatives <= 1;
}

typedef struct ranked {
    bf_choice c;
    size_t index; /* candidate order, the last tie-break */
} ranked;

static int rank_cmp(const void *pa, const void *pb) {
    const ranked *a = pa, *b = pb;
    int fa = a->c.status == BF_OK, fb = b->c.status == BF_OK;
    if (fa != fb) return fa ? -1 : 1;
    if (fa) {
        if (a->c.expected_ns != b->c.expected_ns) return a->c.expected_ns < b->c.expected_ns ? -1 : 1;
        if (a->c.bytes != b->c.bytes) return a->c.bytes < b->c.bytes ? -1 : 1;
    }
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Sizes the search tries besides the job's own bound, as x = log2(bits per
 * key): 1 to 6 (2 to 64 bits per key) in steps of 1/2, then +-1/4 around
 * the best of those and +-1/8 around the best after that. Few sizes,
 * because an exact model can take milliseconds a size (the blocked
 * family's Poisson sums over 512-bit blocks). */
#define GRID_LO 1.0
#define GRID_HI 6.0
#define GRID_STEP 0.5

typedef struct sized {
    uint64_t bytes;
    double fpr, lookup_ns, cost;
    int beyond;
} sized;

/* Costs one size (as fit_bytes or fit_fpp gave it) and keeps it in *best if
 * it is cheaper (ties: fewer bytes): 1 if it did. */
static int consider(const bf_cost_table *t, const bf_job *job, const bf__candidate *cand,
                    uint64_t bytes, double fpr, sized *best) {
    if (job->fpp != 0 && !(fpr <= job->fpp)) return 0;
    sized s = {bytes, fpr, 0, 0, 0};
    s.lookup_ns = bf__cost_table_interpolate(t, cand->name, bytes, &s.beyond);
    s.cost = s.lookup_ns + job->negatives * fpr * job->work_ns;
    if (best->bytes != 0 && !(s.cost < best->cost || (s.cost == best->cost && bytes < best->bytes)))
        return 0;
    *best = s;
    return 1;
}

/* Bytes for 2^(x) bits per key, or 0 if that does not fit 64 bits. */
static uint64_t grid_bytes(const bf_job *job, double x) {
    double want = (double)job->n / 8.0 * exp2(x);
    return want < 18446744073709551616.0 ? (uint64_t)want : 0;
}

/* Tries the size the candidate makes of budget g, within the job's bound:
 * 1 if it is the new best. */
static int try_budget(const bf_cost_table *t, const bf_job *job, const bf__candidate *cand,
                      uint64_t g, uint64_t floor_bytes, sized *best) {
    uint64_t b;
    double f;
    if (g == 0 || (job->bytes != 0 && g >= job->bytes) || (job->fpp != 0 && g <= floor_bytes))
        return 0;
    if (cand->ops->fit_bytes(cand, job->n, g, &b, &f) != BF_OK) return 0;
    return consider(t, job, cand, b, f, best);
}

/* The candidate's cheapest size for the job: within the byte budget, or at
 * least the fpp, or (neither) anywhere on the grid. BF_OK, BF_ETOOBIG (no
 * size fits), BF_ENOTFOUND (no lookup time). */
static int best_size(const bf_cost_table *t, const bf_job *job, const bf__candidate *cand,
                     sized *best) {
    memset(best, 0, sizeof *best);
    if (isnan(bf__cost_table_interpolate(t, cand->name, 1, NULL))) return BF_ENOTFOUND;
    uint64_t b, floor_bytes = 0;
    double f;
    if (job->fpp != 0) { /* the fewest bytes that meet it, and more */
        if (cand->ops->fit_fpp(cand, job->n, job->fpp, &b, &f) != BF_OK) return BF_ETOOBIG;
        consider(t, job, cand, b, f, best);
        floor_bytes = b;
    } else if (job->bytes != 0) { /* all of the budget, and less */
        if (cand->ops->fit_bytes(cand, job->n, job->bytes, &b, &f) != BF_OK) return BF_ETOOBIG;
        consider(t, job, cand, b, f, best);
    }
    double best_x = NAN;
    for (double x = GRID_LO; x <= GRID_HI; x += GRID_STEP)
        if (try_budget(t, job, cand, grid_bytes(job, x), floor_bytes, best)) best_x = x;
    for (double step = GRID_STEP / 2; step >= GRID_STEP / 4 && !isnan(best_x); step /= 2) {
        double around = best_x; /* refine: the neighbours half a step away */
        for (int side = -1; side <= 1; side += 2) {
            double x = around + side * step;
            if (x >= GRID_LO && x <= GRID_HI &&
                try_budget(t, job, cand, grid_bytes(job, x), floor_bytes, best))
                best_x = x;
        }
    }
    return best->bytes ? BF_OK : BF_ETOOBIG;
}

/* One candidate sized and costed for the job. */
static void evaluate(const bf_cost_table *t, const bf_job *job, const bf__candidate *cand,
                     bf_choice *c) {
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", cand->name);
    c->family = cand->family;
    if (cand->family == BF_FAMILY_CUCKOO) {
        c->bucket_size = cand->p[0];
        c->fp_bits = cand->p[1];
    } else {
        c->block_bits = cand->p[0];
        c->sectors = cand->p[1];
        c->groups = cand->p[2];
        c->k = cand->p[3];
    }
    c->lookup_ns = c->expected_ns = c->model_fpp = NAN;
    sized best;
    c->status = best_size(t, job, cand, &best);
    if (c->status == BF_ETOOBIG) {
        snprintf(c->why, sizeof c->why, "%s",
                 job->fpp != 0    ? "cannot meet the fpp within its size limits"
                 : job->bytes != 0 ? "cannot hold the keys within the byte budget"
                                   : "cannot hold the keys in 2 to 64 bits per key");
        return;
    }
    if (c->status == BF_ENOTFOUND) {
        snprintf(c->why, sizeof c->why, "no lookup time in the cost table (calibrate again)");
        return;
    }
    c->bytes = best.bytes;
    c->bits_per_key = 8.0 * (double)c->bytes / (double)job->n;
    c->model_fpp = best.fpr;
    c->lookup_ns = best.lookup_ns;
    c->expected_ns = best.cost;
    if (best.beyond) c->flags |= BF_CHOICE_EXTRAPOLATED;
}

/* The why of each ranked choice, against the winner's. */
static void explain(ranked *r, size_t n, const bf_job *job) {
    if (n == 0 || r[0].c.status != BF_OK) return;
    const bf_choice *w = &r[0].c;
    double w_fp = w->expected_ns - w->lookup_ns;
    snprintf(r[0].c.why, sizeof r[0].c.why, "least expected cost: lookup %.3g ns + false positives %.3g ns",
             w->lookup_ns, w_fp);
    (void)job;
    for (size_t i = 1; i < n && r[i].c.status == BF_OK; i++) {
        bf_choice *c = &r[i].c;
        double d_lookup = c->lookup_ns - w->lookup_ns;
        double d_fp = (c->expected_ns - c->lookup_ns) - w_fp;
        double d = c->expected_ns - w->expected_ns;
        if (d == 0)
            snprintf(c->why, sizeof c->why, "tie on cost; %s", c->bytes > w->bytes
                     ? "more bytes" : "later in candidate order");
        else if (d_lookup > 0 && d_fp > 0)
            snprintf(c->why, sizeof c->why, "+%.3g ns: slower lookup (+%.3g) and more false positives (+%.3g)",
                     d, d_lookup, d_fp);
        else if (d_lookup > d_fp)
            snprintf(c->why, sizeof c->why, "+%.3g ns: slower lookup (+%.3g ns) outweighs false positives (%+.3g ns)",
                     d, d_lookup, d_fp);
        else
            snprintf(c->why, sizeof c->why, "+%.3g ns: false positives (+%.3g ns) outweigh lookup (%+.3g ns)",
                     d, d_fp, d_lookup);
    }
}

int bf_choose(const bf_cost_table *t, const bf_job *job, bf_choice *out, size_t max_out,
              size_t *n_out) {
    if (!t || !job || (!out && max_out) || !job_valid(job)) return BF_EINVAL;
    size_t n = bf__candidate_count();
    ranked *r = bf__malloc(n * sizeof *r);
    if (!r) return BF_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        evaluate(t, job, bf__candidate_at(i), &r[i].c);
        r[i].index = i;
    }
    qsort(r, n, sizeof *r, rank_cmp);
    explain(r, n, job);
    size_t w = n < max_out ? n : max_out;
    for (size_t i = 0; i < w; i++) out[i] = r[i].c;
    int rc = r[0].c.status == BF_OK ? BF_OK : BF_ETOOBIG;
    bf__free(r);
    if (n_out) *n_out = w;
    return rc;
}

/* ---- measuring a choice -------------------------------------------------- */

#define CHUNK ((size_t)1 << 16)

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double bf__median(double *v, size_t n) {
    if (n == 0) return NAN;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void fill(uint64_t *h, size_t n, uint64_t *state) {
    for (size_t i = 0; i < n; i++) h[i] = bf__splitmix64(state);
}

/* Keys in chunk k of `chunks` chunks of CHUNK covering `total` keys. */
static size_t chunk_len(size_t k, size_t chunks, uint64_t total) {
    return (size_t)(k + 1 < chunks ? CHUNK : total - (uint64_t)k * CHUNK);
}

/* Rounds of the interleaved lookups, and the fewest chunks a round's visit
 * needs for more than one round. A visit's first chunks warm the caches as
 * calibration's do (bf__warm_batches), at most a quarter of the visit. */
#define ROUNDS 5
#define MIN_VISIT_CHUNKS 16

typedef struct measured {
    const bf__candidate *cand;
    void *obj;
    uint64_t state; /* the absent hashes' stream, the same for every choice */
    double *ns;     /* the timed chunks, all rounds */
    size_t timed;
    double round_lo, round_hi;
} measured;

/* Builds c's filter and inserts n keys in chunks, timed; checks they are all
 * found. */
static int build_measured(const bf_choice *c, measured *e, uint64_t n, uint64_t *h,
                          uint8_t *ans, double *ns, bf_measurement *m) {
    long idx = bf__candidate_find(c->name);
    if (idx < 0) return BF_ENOTFOUND;
    e->cand = bf__candidate_at((size_t)idx);
    int rc = e->cand->ops->make(e->cand, c->bytes, &e->obj);
    size_t chunks_in = (size_t)((n + CHUNK - 1) / CHUNK);
    const uint64_t seed_in = 0x5eed0001;
    uint64_t st = seed_in;
    for (size_t k = 0; rc == BF_OK && k < chunks_in; k++) {
        size_t len = chunk_len(k, chunks_in, n);
        fill(h, len, &st);
        double t0 = bf__cpu_seconds();
        rc = e->cand->ops->insert(e->obj, h, len);
        ns[k] = 1e9 * (bf__cpu_seconds() - t0) / (double)len;
    }
    if (rc) return rc;
    m->insert_ns = bf__median(ns, chunks_in);
    st = seed_in; /* every inserted key must be found */
    for (size_t k = 0; k < chunks_in; k++) {
        size_t len = chunk_len(k, chunks_in, n);
        fill(h, len, &st);
        m->false_negatives += len - e->cand->ops->lookup(e->obj, h, len, ans);
    }
    return BF_OK;
}

int bf_choices_measure(const bf_choice *c, size_t count, uint64_t n, uint64_t absent,
                       bf_measurement *out) {
    if (!c || !out || count == 0 || count > BF_MEASURE_MAX || n == 0 || absent == 0)
        return BF_EINVAL;
    size_t chunks_in = (size_t)((n + CHUNK - 1) / CHUNK);
    size_t chunks_out = (size_t)((absent + CHUNK - 1) / CHUNK);
    uint64_t *h = bf__malloc(CHUNK * sizeof *h);
    uint8_t *ans = bf__malloc(CHUNK);
    double *ns_in = bf__malloc(chunks_in * sizeof *ns_in);
    double *ns_out = bf__malloc(count * chunks_out * sizeof *ns_out);
    measured e[BF_MEASURE_MAX];
    memset(e, 0, sizeof e);
    if (!h || !ans || !ns_in || !ns_out) {
        bf__free(h);
        bf__free(ans);
        bf__free(ns_in);
        bf__free(ns_out);
        return BF_ENOMEM;
    }
    int first_rc = BF_OK;
    for (size_t i = 0; i < count; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].lookup_ns = out[i].lookup_ns_lo = out[i].lookup_ns_hi = out[i].fpr = NAN;
        out[i].insert_ns = NAN;
        e[i].state = 0x5eed0002;
        e[i].ns = ns_out + i * chunks_out;
        e[i].round_lo = INFINITY;
        e[i].round_hi = -INFINITY;
        out[i].status = build_measured(&c[i], &e[i], n, h, ans, ns_in, &out[i]);
        if (out[i].status && e[i].obj) {
            e[i].cand->ops->destroy(e[i].obj);
            e[i].obj = NULL;
        }
        if (out[i].status && first_rc == BF_OK) first_rc = out[i].status;
    }
    /* The absent lookups go round the filters built, a visit of chunks_out /
     * rounds chunks each, so a slow spell of a shared machine falls on all
     * of them alike. Every chunk counts for the FPR; a visit's first few
     * only warm the caches and are not timed. */
    size_t rounds = chunks_out / MIN_VISIT_CHUNKS;
    if (rounds > ROUNDS) rounds = ROUNDS;
    if (rounds < 1) rounds = 1;
    size_t done = 0;
    for (size_t r = 0; r < rounds; r++) {
        size_t upto = chunks_out * (r + 1) / rounds, len_visit = upto - done;
        for (size_t i = 0; i < count; i++) {
            if (!e[i].obj) continue;
            size_t warm = bf__warm_batches(c[i].bytes, CHUNK);
            if (warm > len_visit / 4) warm = len_visit / 4;
            const size_t first_timed = e[i].timed;
            for (size_t k = done; k < upto; k++) {
                size_t len = chunk_len(k, chunks_out, absent);
                fill(h, len, &e[i].state);
                double t0 = bf__cpu_seconds();
                out[i].false_positives += e[i].cand->ops->lookup(e[i].obj, h, len, ans);
                double t = 1e9 * (bf__cpu_seconds() - t0) / (double)len;
                if (k - done < warm) continue;
                e[i].ns[e[i].timed++] = t;
            }
            /* Sorting this visit's times in place leaves the median of all
             * of them unchanged. */
            double med = bf__median(e[i].ns + first_timed, e[i].timed - first_timed);
            if (med < e[i].round_lo) e[i].round_lo = med;
            if (med > e[i].round_hi) e[i].round_hi = med;
        }
        done = upto;
    }
    for (size_t i = 0; i < count; i++) {
        if (!e[i].obj) continue;
        out[i].lookup_ns = bf__median(e[i].ns, e[i].timed);
        out[i].lookup_ns_lo = e[i].round_lo;
        out[i].lookup_ns_hi = e[i].round_hi;
        out[i].rounds = (unsigned)rounds;
        out[i].absent = absent;
        out[i].fpr = (double)out[i].false_positives / (double)absent;
        e[i].cand->ops->destroy(e[i].obj);
    }
    bf__free(h);
    bf__free(ans);
    bf__free(ns_in);
    bf__free(ns_out);
    return first_rc;
}

int bf_choice_measure(const bf_choice *c, uint64_t n, uint64_t absent, bf_measurement *out) {
    return bf_choices_measure(c, 1, n, absent, out);
}
