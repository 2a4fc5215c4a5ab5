/*
 * The layouts the chooser ranks, one row each, grouped by family behind one
 * table of operations per family (candidates.h). A family plugs in with its
 * operations and its rows; the chooser, the cost table and the calibration
 * need nothing else.
 *
 *  - the SBBF (Parquet's layout: 256-bit blocks, 8 sectors, k = 8);
 *  - cuckoo filters, 4-slot buckets of 8-, 12- and 16-bit fingerprints,
 *    and 2- and 8-slot ones where the family has every shape (its header
 *    defines BF_CUCKOO_MAX_BUCKET_SIZE);
 *  - the blocked family's shapes: register-blocked 32 and 64, blocked 512,
 *    sectorized 256 and 512, cache-sectorized 512 in 2 and 4 groups, each
 *    with a few k.
 */
#define _POSIX_C_SOURCE 200809L
#include "choose/candidates.h"
#include "families/baselines.h"

#if defined(BF_CUCKOO_MAX_BUCKET_SIZE) /* the cuckoo family has every shape */
#define BF_HAVE_CUCKOO_SHAPES 1
#endif

#include <math.h>
#include <time.h>

double bf__now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double bf__cpu_seconds(void) {
#if defined(CLOCK_THREAD_CPUTIME_ID)
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
    return bf__now_seconds();
}

/* Bloom layouts: bits per key they are loaded to in calibration. */
#define DESIGN_BITS_PER_KEY 10

/* ---- SBBF ---------------------------------------------------------------- */

static int sbbf_fit_fpp(const bf__candidate *c, uint64_t n, double fpp, uint64_t *bytes,
                        double *fpr) {
    (void)c;
    size_t b;
    int rc = bf_sbbf_compact_bytes(n, fpp, &b);
    if (rc) return rc == BF_EINVAL ? rc : BF_ETOOBIG;
    *bytes = b;
    *fpr = bf_sbbf_model_fpp(b, n);
    return BF_OK;
}

static int sbbf_fit_bytes(const bf__candidate *c, uint64_t n, uint64_t budget,
                          uint64_t *bytes, double *fpr) {
    (void)c;
    uint64_t b = budget < BF_SBBF_MAX_BYTES ? budget : BF_SBBF_MAX_BYTES;
    b -= b % BF_SBBF_BLOCK_BYTES;
    if (b == 0 || b > SIZE_MAX) return BF_ETOOBIG;
    *bytes = b;
    *fpr = bf_sbbf_model_fpp(b, n);
    return BF_OK;
}

static int sbbf_make(const bf__candidate *c, uint64_t bytes, void **obj) {
    (void)c;
    bytes -= bytes % BF_SBBF_BLOCK_BYTES;
    if (bytes == 0 || bytes > SIZE_MAX) return BF_EINVAL;
    return bf_sbbf_new_bytes((bf_sbbf **)obj, (size_t)bytes);
}
static uint64_t sbbf_design_keys(const bf__candidate *c, const void *obj) {
    (void)c;
    return 8 * (uint64_t)bf_sbbf_num_bytes(obj) / DESIGN_BITS_PER_KEY;
}
static int sbbf_insert(void *obj, const uint64_t *h, size_t n) {
    return bf_sbbf_insert_hashes(obj, h, n);
}
static size_t sbbf_lookup(const void *obj, const uint64_t *h, size_t n, uint8_t *out) {
    return bf_sbbf_contains_hashes(obj, h, n, out);
}
static void sbbf_destroy(void *obj) { bf_sbbf_free(obj); }

static const bf__candidate_ops sbbf_ops = {sbbf_fit_fpp,  sbbf_fit_bytes, sbbf_make,
                                           sbbf_design_keys, sbbf_insert, sbbf_lookup,
                                           sbbf_destroy};

/* ---- cuckoo -------------------------------------------------------------- */

/* Calibration fills tables to this share of the planned load (so no insert
 * fails). */
#define CUCKOO_FILL_LOAD 0.90

static int cuckoo_insert_one(void *obj, uint64_t h) { return bf_cuckoo_insert_hash(obj, h); }
static int cuckoo_insert(void *obj, const uint64_t *h, size_t n) {
    size_t done;
    return bf__batch_loop(obj, false, h, n, &done, cuckoo_insert_one);
}
static size_t cuckoo_lookup(const void *obj, const uint64_t *h, size_t n, uint8_t *out) {
    return bf_cuckoo_contains_hashes(obj, h, n, out);
}
static void cuckoo_destroy(void *obj) { bf_cuckoo_free(obj); }

#if defined(BF_HAVE_CUCKOO_SHAPES)
/* Every shape of the cuckoo family (b slots of f bits, p[0] and p[1]),
 * through its public sizing and model. */
static uint64_t shape_buckets(const bf__candidate *c, uint64_t bytes) {
    return bytes / ((uint64_t)c->p[0] * c->p[1]) * 8 +
           bytes % ((uint64_t)c->p[0] * c->p[1]) * 8 / ((uint64_t)c->p[0] * c->p[1]);
}

static int cuckoo_fit_fpp(const bf__candidate *c, uint64_t n, double fpp, uint64_t *bytes,
                          double *fpr) {
    bf_cuckoo_sizing sz;
    int rc = bf_cuckoo_size_for(n, fpp, c->p[0], c->p[1], 0, &sz);
    if (rc) return rc == BF_EINVAL ? rc : BF_ETOOBIG;
    *bytes = sz.num_bytes;
    *fpr = sz.model_fpp;
    return BF_OK;
}

/* The most buckets a budget holds, if the family's sizing would plan n
 * keys into that many: it plans the fewest buckets whose FPR meets a
 * target, at most its design load, so asking it for this table's FPR says
 * whether the load is one it plans for. */
static int cuckoo_fit_bytes(const bf__candidate *c, uint64_t n, uint64_t budget,
                            uint64_t *bytes, double *fpr) {
    uint64_t nb = shape_buckets(c, budget);
    if (nb < 2) return BF_ETOOBIG;
    double load = (double)n / ((double)nb * c->p[0]);
    double p = load <= 1 ? bf_cuckoo_model_fpp(c->p[0], c->p[1], load) : NAN;
    bf_cuckoo_sizing sz;
    if (!(p > 0 && p < 1) || bf_cuckoo_size_for(n, p, c->p[0], c->p[1], 0, &sz) != BF_OK ||
        sz.num_buckets > nb)
        return BF_ETOOBIG;
    *bytes = (nb * c->p[0] * c->p[1] + 7) / 8;
    *fpr = p;
    return BF_OK;
}

static int cuckoo_make(const bf__candidate *c, uint64_t bytes, void **obj) {
    uint64_t nb = shape_buckets(c, bytes);
    if (nb < 2) return BF_EINVAL;
    return bf_cuckoo_new_table((bf_cuckoo **)obj, nb, c->p[0], c->p[1], 0);
}
static uint64_t cuckoo_design_keys(const bf__candidate *c, const void *obj) {
    double load = bf_cuckoo_model_load(c->p[0]);
    if (!(load > 0)) load = 0.5;
    return (uint64_t)(CUCKOO_FILL_LOAD * load * c->p[0] * (double)bf_cuckoo_num_buckets(obj));
}
#else
/* 4-slot buckets of 8, 12 or 16 bits, with the family's own model. */
static uint64_t cuckoo_bucket_bytes(const bf__candidate *c) { return c->p[1] / 2; }

/* Model FPR of num_buckets buckets holding n keys, or NaN if the table
 * cannot be planned to hold them (above the sizing's design load). */
static double cuckoo_fpr(const bf__candidate *c, uint64_t n, uint64_t num_buckets) {
    double load = (double)n / ((double)BF_CUCKOO_SLOTS * (double)num_buckets);
    if (load > bf__cuckoo_design_load(n)) return NAN;
    return bf__cuckoo_model_fpp(c->p[1], load);
}

static int cuckoo_fit_fpp(const bf__candidate *c, uint64_t n, double fpp, uint64_t *bytes,
                          double *fpr) {
    /* The FPR falls as the load does: the highest load that meets fpp,
     * capped at the design load, then whole buckets (an even number). */
    double q = 1.0 / (double)((1u << c->p[1]) - 1);
    double load = log1p(-fpp) / (2.0 * BF_CUCKOO_SLOTS * log1p(-q));
    double cap = bf__cuckoo_design_load(n);
    if (!(load > 0)) return BF_ETOOBIG;
    if (load > cap) load = cap;
    double buckets = ceil((double)n / (BF_CUCKOO_SLOTS * load));
    if (buckets > (double)BF_CUCKOO_MAX_BUCKETS) return BF_ETOOBIG;
    uint64_t nb = buckets < 2 ? 2 : (uint64_t)buckets;
    nb += nb & 1;
    double p;
    while (!((p = cuckoo_fpr(c, n, nb)) <= fpp)) {
        nb += 2;
        if (nb > BF_CUCKOO_MAX_BUCKETS) return BF_ETOOBIG;
    }
    *bytes = nb * cuckoo_bucket_bytes(c);
    *fpr = p;
    return BF_OK;
}

static int cuckoo_fit_bytes(const bf__candidate *c, uint64_t n, uint64_t budget,
                            uint64_t *bytes, double *fpr) {
    uint64_t nb = budget / cuckoo_bucket_bytes(c);
    if (nb > BF_CUCKOO_MAX_BUCKETS) nb = BF_CUCKOO_MAX_BUCKETS;
    nb &= ~(uint64_t)1;
    if (nb < 2) return BF_ETOOBIG;
    double p = cuckoo_fpr(c, n, nb);
    if (isnan(p)) return BF_ETOOBIG; /* cannot hold n keys in the budget */
    *bytes = nb * cuckoo_bucket_bytes(c);
    *fpr = p;
    return BF_OK;
}

static int cuckoo_make(const bf__candidate *c, uint64_t bytes, void **obj) {
    uint64_t nb = (bytes / cuckoo_bucket_bytes(c)) & ~(uint64_t)1;
    if (nb < 2) return BF_EINVAL;
    return bf_cuckoo_new_buckets((bf_cuckoo **)obj, nb, c->p[1]);
}
static uint64_t cuckoo_design_keys(const bf__candidate *c, const void *obj) {
    (void)c;
    return (uint64_t)(CUCKOO_FILL_LOAD * BF_CUCKOO_SLOTS *
                      (double)bf_cuckoo_num_buckets(obj));
}
#endif

static const bf__candidate_ops cuckoo_ops = {cuckoo_fit_fpp,     cuckoo_fit_bytes,
                                             cuckoo_make,        cuckoo_design_keys,
                                             cuckoo_insert,      cuckoo_lookup,
                                             cuckoo_destroy};

/* ---- the blocked family -------------------------------------------------- */

static bf_blocked_shape shape_of(const bf__candidate *c) {
    bf_blocked_shape s = {c->p[0], c->p[1], c->p[2], c->p[3]};
    return s;
}

static int blocked_fit_fpp(const bf__candidate *c, uint64_t n, double fpp, uint64_t *bytes,
                           double *fpr) {
    bf_blocked_shape s = shape_of(c);
    uint64_t b;
    int rc = bf_blocked_bits_for(&s, n, fpp, &b);
    if (rc) return rc == BF_EINVAL ? rc : BF_ETOOBIG;
    *bytes = b;
    *fpr = bf_blocked_model_fpp_blocks(&s, b / (c->p[0] / 8), n);
    return BF_OK;
}

static int blocked_fit_bytes(const bf__candidate *c, uint64_t n, uint64_t budget,
                             uint64_t *bytes, double *fpr) {
    bf_blocked_shape s = shape_of(c);
    uint64_t block = c->p[0] / 8;
    uint64_t b = budget < BF_BLOCKED_MAX_BYTES ? budget : BF_BLOCKED_MAX_BYTES;
    b -= b % block;
    if (b == 0) return BF_ETOOBIG;
    *bytes = b;
    *fpr = bf_blocked_model_fpp_blocks(&s, b / block, n);
    return BF_OK;
}

static int blocked_make(const bf__candidate *c, uint64_t bytes, void **obj) {
    bf_blocked_shape s = shape_of(c);
    bytes -= bytes % (c->p[0] / 8);
    return bf_blocked_new_bytes((bf_blocked **)obj, bytes, &s);
}
static uint64_t blocked_design_keys(const bf__candidate *c, const void *obj) {
    (void)c;
    return 8 * bf_blocked_num_bytes(obj) / DESIGN_BITS_PER_KEY;
}
static int blocked_insert(void *obj, const uint64_t *h, size_t n) {
    return bf_blocked_insert_hashes(obj, h, n);
}
static size_t blocked_lookup(const void *obj, const uint64_t *h, size_t n, uint8_t *out) {
    return bf_blocked_contains_hashes(obj, h, n, out);
}
static void blocked_destroy(void *obj) { bf_blocked_free(obj); }

static const bf__candidate_ops blocked_ops = {blocked_fit_fpp,     blocked_fit_bytes,
                                              blocked_make,        blocked_design_keys,
                                              blocked_insert,      blocked_lookup,
                                              blocked_destroy};
#define BLOCKED(b, s, z, k) \
    {"blocked-" #b "-" #s "-" #z "-k" #k, BF_FAMILY_BLOCKED, {b, s, z, k}, &blocked_ops},

/* ---- the rows ------------------------------------------------------------ */

#define CUCKOO(b, f) {"cuckoo-b" #b "-f" #f, BF_FAMILY_CUCKOO, {b, f, 0, 0}, &cuckoo_ops},

static const bf__candidate candidates[] = {
    {"sbbf", BF_FAMILY_SBBF, {256, 8, 8, 8}, &sbbf_ops},
    CUCKOO(4, 8) CUCKOO(4, 12) CUCKOO(4, 16)
#if defined(BF_HAVE_CUCKOO_SHAPES)
    CUCKOO(2, 8) CUCKOO(2, 12) CUCKOO(2, 16) CUCKOO(8, 8) CUCKOO(8, 12) CUCKOO(8, 16)
#endif
    /* register-blocked: one 32- or 64-bit word */
    BLOCKED(32, 1, 1, 3) BLOCKED(32, 1, 1, 4) BLOCKED(32, 1, 1, 5)
    BLOCKED(64, 1, 1, 4) BLOCKED(64, 1, 1, 6) BLOCKED(64, 1, 1, 8)
    /* blocked: k bits anywhere in a cache line */
    BLOCKED(512, 1, 1, 6) BLOCKED(512, 1, 1, 8) BLOCKED(512, 1, 1, 10)
    /* sectorized: one bit or two per 32- or 64-bit sector */
    BLOCKED(256, 8, 8, 16) BLOCKED(512, 8, 8, 8) BLOCKED(512, 16, 16, 16)
    /* cache-sectorized: a 512-bit line of 8 sectors in 2 or 4 groups */
    BLOCKED(512, 8, 2, 4) BLOCKED(512, 8, 2, 6) BLOCKED(512, 8, 2, 8)
    BLOCKED(512, 8, 2, 12) BLOCKED(512, 8, 4, 4) BLOCKED(512, 8, 4, 8)
    BLOCKED(512, 8, 4, 12) BLOCKED(512, 8, 4, 16)
};

#define NCANDIDATES (sizeof candidates / sizeof candidates[0])

size_t bf__candidate_count(void) { return NCANDIDATES; }

const bf__candidate *bf__candidate_at(size_t i) {
    return i < NCANDIDATES ? &candidates[i] : NULL;
}

long bf__candidate_find(const char *name) {
    for (size_t i = 0; i < NCANDIDATES; i++)
        if (!strcmp(candidates[i].name, name)) return (long)i;
    return -1;
}

size_t bf_candidate_count(void) { return NCANDIDATES; }

const char *bf_candidate_name(size_t i) { return i < NCANDIDATES ? candidates[i].name : NULL; }
