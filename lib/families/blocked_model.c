/*
 * The blocked family's exact false-positive model, its sizing from
 * (n, fpp), and the measures behind its statistics (docs/families.md,
 * "Blocked filters"). Positions are drawn with replacement (probe.h), and
 * the model counts exactly that:
 *
 *   keys per block       i ~ Poisson(lambda = n / blocks)
 *   keys in the query's  j ~ Binomial(i, 1 / (S/z)), independently per
 *   sector of a group        group
 *   that sector          its W bits hold j * (k/z) balls; X of them are set
 *   the query's k/z bits all set: E[(X / W)^(k/z)], the occupancy law of X
 *                        computed exactly (f(j) below)
 *   FPR = sum_i Pois(i) (sum_j Binom(j; i) f(j))^z
 */
#include "blocked/blocked.h"
#include "sbbf/sbbf.h"

#include <math.h>

/* A model being evaluated: the shape's constants and the tables that do
 * not depend on the load, grown as loads need them (shared by the many
 * evaluations of one sizing). */
typedef struct model {
    unsigned W, per, spg, z;
    double *f;        /* f[j], j < nf */
    size_t nf;
    double *occ;      /* occupancy law of a sector after nf * per balls, W + 1 */
    double *pw;       /* pw[x] = (x / W)^per, W + 1 */
    double *lf;       /* ln(i!), i < nlf */
    size_t nlf;
    bool failed;      /* an allocation failed */
} model;

static void model_init(model *m, const bf_blocked_shape *s) {
    memset(m, 0, sizeof *m);
    m->W = s->block_bits / s->sectors;
    m->per = s->k / s->groups;
    m->spg = s->sectors / s->groups;
    m->z = s->groups;
}

static void model_free(model *m) {
    bf__free(m->f);
    bf__free(m->occ);
    bf__free(m->pw);
    bf__free(m->lf);
}

/* *p grown to hold `want` doubles, keeping the first `have`. */
static bool grow(double **p, size_t have, size_t want) {
    double *q = bf__malloc(want * sizeof *q);
    if (!q) return false;
    if (have) memcpy(q, *p, have * sizeof *q);
    bf__free(*p);
    *p = q;
    return true;
}


/* ln(i!) for i <= top. */
static bool need_lf(model *m, size_t top) {
    if (top < m->nlf) return true;
    size_t want = top + 1 + top / 2;
    if (!grow(&m->lf, m->nlf, want)) return false;
    for (size_t i = m->nlf; i < want; i++) m->lf[i] = bf__log_factorial((double)i);
    m->nlf = want;
    return true;
}

/* f[j] for j <= top: throw the balls of one more key at a time into the
 * occupancy law of one sector (W bins). */
static bool need_f(model *m, size_t top) {
    if (top < m->nf) return true;
    const unsigned W = m->W;
    if (!m->occ) {
        m->occ = bf__calloc(W + 1, sizeof *m->occ);
        m->pw = bf__malloc((W + 1) * sizeof *m->pw);
        if (!m->occ || !m->pw) return false;
        m->occ[0] = 1.0;
        for (unsigned x = 0; x <= W; x++) m->pw[x] = pow((double)x / W, (double)m->per);
    }
    size_t want = top + 1 + top / 2;
    if (!grow(&m->f, m->nf, want)) return false;
    for (size_t j = m->nf; j < want; j++) {
        /* occ is the law after j keys: f[j], then one more key. */
        double sum = 0;
        for (unsigned x = 0; x <= W; x++) sum += m->occ[x] * m->pw[x];
        m->f[j] = sum;
        uint64_t balls = (uint64_t)j * m->per;
        for (unsigned b = 0; b < m->per; b++, balls++) {
            unsigned top_x = balls + 1 < W ? (unsigned)balls + 1 : W;
            for (unsigned x = top_x; x >= 1; x--)
                m->occ[x] = m->occ[x] * ((double)x / W) + m->occ[x - 1] * ((double)(W - x + 1) / W);
            m->occ[0] = 0;
        }
    }
    m->nf = want;
    return true;
}

/* The window of a Poisson or binomial law of mean mu worth summing. */
static void window(double mu, double *lo, double *hi) {
    double sd = sqrt(mu);
    *lo = floor(mu - 30.0 * sd - 40.0);
    *hi = ceil(mu + 30.0 * sd + 40.0);
    if (*lo < 0) *lo = 0;
}

/* Where the sums start: the law's mode, floor(mean), within [lo, hi]. */
static size_t mode_in(double mean, double lo, double hi) {
    size_t mode = (size_t)mean;
    if (mode < (size_t)lo) mode = (size_t)lo;
    if (mode > (size_t)hi) mode = (size_t)hi;
    return mode;
}

/* A tail of a sum over a Poisson or binomial law ends at the first term
 * whose probability is below this fraction of the sum so far: a term's
 * probability bounds what it adds (it is multiplied by a pass probability
 * <= 1), and past the mode the probabilities fall at least geometrically,
 * so all that is left adds less than double precision resolves. The sums
 * run from the mode outward, each tail until this cut or the window's
 * end. (Summing the whole +-30 sd window made `calc` take 0.6 s.) */
#define TAIL_CUT 1e-20

/* Adds binomial term j of i keys (its probability times f[j]) to *sum;
 * returns the probability. */
static inline double binom_term(const model *m, size_t i, size_t j, double lp, double lq,
                                double *sum) {
    const double w = exp(m->lf[i] - m->lf[j] - m->lf[i - j] + (double)j * lp + (double)(i - j) * lq);
    *sum += w * m->f[j];
    return w;
}

/* P(a query passes a group) given i keys in the block. */
static double group_pass(model *m, size_t i) {
    if (m->spg == 1) return m->f[i];
    const double p = 1.0 / m->spg, lp = log(p), lq = log1p(-p);
    double lo, hi;
    window((double)i * p, &lo, &hi);
    if (hi > (double)i) hi = (double)i;
    const size_t mode = mode_in((double)i * p, lo, hi);
    double sum = 0;
    for (size_t j = mode; j <= (size_t)hi; j++)
        if (binom_term(m, i, j, lp, lq, &sum) < TAIL_CUT * sum && j > mode) break;
    for (size_t j = mode; j-- > (size_t)lo;)
        if (binom_term(m, i, j, lp, lq, &sum) < TAIL_CUT * sum) break;
    return sum;
}

/* Adds Poisson term i (block load i's share of the FPR) to *sum; returns
 * its probability. */
static double pois_term(model *m, size_t i, double lambda, double ll, double *sum) {
    const double lpois = -lambda + (double)i * ll - m->lf[i];
    const double g = group_pass(m, i);
    if (g > 0) *sum += exp(lpois + (double)m->z * log(g));
    return exp(lpois);
}

/* FPR at lambda keys per block. */
static double model_fpp(model *m, double lambda) {
    if (!(lambda > 0)) return lambda == 0 ? 0.0 : NAN;
    /* A sector's bits are all set but for a fraction e^-mu: past mu = 30
     * the filter answers yes to everything to double precision. */
    double mu = lambda * m->per / ((double)m->spg * m->W);
    if (mu > 30.0) return pow(-expm1(-mu), (double)m->per * m->z);
    double lo, hi;
    window(lambda, &lo, &hi);
    const double ll = log(lambda);
    const size_t mode = mode_in(lambda, lo, hi);
    double sum = 0;
    /* The tables grow as the right tail reaches them (f[j] of a wide
     * sector costs W * k/z steps: most of the time, computed to the
     * window's end). */
    for (size_t i = mode; i <= (size_t)hi; i++) {
        if (!need_lf(m, i) || !need_f(m, i)) {
            m->failed = true;
            return NAN;
        }
        if (pois_term(m, i, lambda, ll, &sum) < TAIL_CUT * sum && i > mode) break;
    }
    for (size_t i = mode; i-- > (size_t)lo;)
        if (pois_term(m, i, lambda, ll, &sum) < TAIL_CUT * sum) break;
    return sum > 1.0 ? 1.0 : sum;
}

double bf_blocked_model_fpp(const bf_blocked_shape *s, double bits_per_key) {
    if (bf_blocked_shape_check(s) || !(bits_per_key > 0)) return NAN;
    model m;
    model_init(&m, s);
    double p = model_fpp(&m, s->block_bits / bits_per_key);
    model_free(&m);
    return p;
}

double bf_blocked_model_fpp_blocks(const bf_blocked_shape *s, uint64_t num_blocks, uint64_t n) {
    if (bf_blocked_shape_check(s) || num_blocks == 0) return NAN;
    model m;
    model_init(&m, s);
    double p = model_fpp(&m, (double)n / (double)num_blocks);
    model_free(&m);
    return p;
}

/* ---- sizing --------------------------------------------------------------------- */

/* The fewest blocks whose FPR at n keys is <= fpp (FPR falls as blocks
 * grow): a bracket around the classic filter's size, then bisection. */
static int fewest_blocks(model *m, unsigned B, uint64_t n, double fpp, uint64_t *out) {
    const uint64_t max_blocks = BF_BLOCKED_MAX_BYTES / (B / 8);
    if (n == 0) {
        *out = 1;
        return BF_OK;
    }
#define OK_AT(nb) (model_fpp(m, (double)n / (double)(nb)) <= fpp)
    double guess = (double)n * -log(fpp) / (log(2.0) * log(2.0)) / B;
    uint64_t hi = guess < 1 ? 1 : guess > (double)max_blocks ? max_blocks : (uint64_t)guess;
    uint64_t lo = 0; /* 0: not known to fail; else FPR(lo) > fpp */
    if (OK_AT(hi)) {
        while (hi > 1 && OK_AT(hi / 2)) hi /= 2;
        lo = hi > 1 ? hi / 2 : 0;
    } else {
        for (;;) {
            if (m->failed) return BF_ENOMEM;
            if (hi == max_blocks) return BF_ETOOBIG;
            lo = hi;
            hi = hi > max_blocks / 2 ? max_blocks : hi * 2;
            if (OK_AT(hi)) break;
        }
    }
    if (m->failed) return BF_ENOMEM;
    while (lo + 1 < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (OK_AT(mid)) hi = mid;
        else lo = mid;
    }
#undef OK_AT
    if (m->failed) return BF_ENOMEM;
    *out = hi;
    return BF_OK;
}

int bf_blocked_bits_for(const bf_blocked_shape *s, uint64_t n, double fpp, uint64_t *bytes_out) {
    if (bf_blocked_shape_check(s)) return BF_ESHAPE;
    if (!bytes_out || !bf_fpp_valid(fpp)) return BF_EINVAL;
    model m;
    model_init(&m, s);
    uint64_t blocks = 0;
    int rc = fewest_blocks(&m, s->block_bits, n, fpp, &blocks);
    model_free(&m);
    if (rc) return rc;
    *bytes_out = blocks * (s->block_bits / 8);
    return BF_OK;
}

int bf_blocked_default_shape(uint64_t n, double fpp, bf_blocked_shape *out) {
    if (!out || !bf_fpp_valid(fpp)) return BF_EINVAL;
    bf_blocked_shape best = {512, 8, 2, 0}, s = best;
    uint64_t best_bytes = UINT64_MAX;
    int rc = BF_ETOOBIG;
    for (unsigned k = 2; k <= 16; k += 2) {
        s.k = k;
        uint64_t bytes;
        int r = bf_blocked_bits_for(&s, n, fpp, &bytes);
        if (r == BF_ENOMEM) return r;
        if (r == BF_OK && bytes < best_bytes) {
            best = s;
            best_bytes = bytes;
            rc = BF_OK;
        }
    }
    if (rc == BF_OK) *out = best;
    return rc;
}

/* ---- statistics ------------------------------------------------------------------ */

/* Bits set in the w-bit sector at p (w = 32 or 64, or a whole block). */
static unsigned sector_popcount(const uint8_t *p, unsigned bits) {
    if (bits == 32) return (unsigned)__builtin_popcount(bf_load_le32(p));
    unsigned c = 0;
    for (unsigned i = 0; i < bits / 64; i++) c += (unsigned)__builtin_popcountll(bf_load_le64(p + 8 * i));
    return c;
}

/*
 * A foreign key picks a block uniformly, in each group one sector of S/z
 * uniformly, and k/z positions of that sector with replacement, so the
 * FPR of the filter as it stands is exactly
 *   (1/blocks) sum_blocks prod_groups (1/(S/z)) sum_sectors (set/W)^(k/z).
 * Keys: a sector keeps a bit clear with probability
 * exp(-(lambda/(S/z)) (1 - (1 - 1/W)^(k/z))) for Poisson loads, so from
 * the fraction X of set bits n = -blocks (S/z) ln(1 - X) / (1 - (1-1/W)^(k/z)).
 */
void bf__blocked_measure(const bf_blocked *f, bf_blocked_measure *out) {
    const bf_blocked_shape *s = &f->shape;
    const unsigned W = s->block_bits / s->sectors, per = s->k / s->groups;
    const unsigned spg = s->sectors / s->groups, bb = s->block_bits / 8;
    double pw[513];
    for (unsigned x = 0; x <= W; x++) pw[x] = pow((double)x / W, (double)per);
    uint64_t set = 0;
    double sum = 0;
    for (uint64_t b = 0; b < f->num_blocks; b++) {
        const uint8_t *blk = f->data + b * bb;
        double prod = 1.0;
        for (unsigned g = 0; g < s->groups; g++) {
            double acc = 0;
            for (unsigned t = 0; t < spg; t++) {
                unsigned c = sector_popcount(blk + (size_t)(g * spg + t) * (W / 8), W);
                set += c;
                acc += pw[c];
            }
            prod *= acc / spg;
        }
        sum += prod;
    }
    out->bits_set = set;
    out->est_fpp = sum / (double)f->num_blocks;
    double X = (double)set / ((double)f->num_bytes * 8.0);
    double per_key = -expm1((double)per * log1p(-1.0 / W));
    out->est_keys = X >= 1.0 ? INFINITY
                             : -(double)f->num_blocks * spg * log1p(-X) / per_key;
}
