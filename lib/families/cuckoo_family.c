/*
 * The cuckoo filter's models, sizing and family table (the native payload
 * of docs/format.md). The table itself: cuckoo.c.
 */
#include "families/baselines.h"

#include <math.h>

/* ---- models ---------------------------------------------------------------- */

double bf_cuckoo_model_fpp(unsigned bucket_size, unsigned fp_bits, double load) {
    if (bf__cuckoo_shape_check(bucket_size, fp_bits, 0) || !(load >= 0 && load <= 1)) return NAN;
    double q = 1.0 / (double)((((uint64_t)1) << fp_bits) - 1);
    return -expm1(2.0 * bucket_size * load * log1p(-q));
}

/* Load factor at the first failed insert (500 kicks, then the victim slot),
 * measured: tables of 2^20 slots or more, 16-bit fingerprints, random keys,
 * the median of several tables (docs/families.md has the runs and Fan et
 * al.'s figures beside them). Between the listed bucket sizes: linear. */
static const struct {
    unsigned b;
    double load;
} load_at_failure[] = {
    {1, 0.507}, {2, 0.870}, {3, 0.937}, {4, 0.961}, {5, 0.975}, {6, 0.981},
    {7, 0.986}, {8, 0.988}, {12, 0.994}, {16, 0.995}, {32, 0.998}, {64, 0.999},
    {128, 0.9996}, {255, 0.9998},
};

double bf_cuckoo_model_load(unsigned bucket_size) {
    if (bucket_size < 1 || bucket_size > BF_CUCKOO_MAX_BUCKET_SIZE) return NAN;
    const size_t n = sizeof load_at_failure / sizeof load_at_failure[0];
    for (size_t j = 0; j + 1 < n; j++) {
        unsigned b0 = load_at_failure[j].b, b1 = load_at_failure[j + 1].b;
        if (bucket_size >= b0 && bucket_size <= b1) {
            double t = (double)(bucket_size - b0) / (double)(b1 - b0);
            return load_at_failure[j].load + t * (load_at_failure[j + 1].load - load_at_failure[j].load);
        }
    }
    return load_at_failure[n - 1].load;
}

/* The load sizing plans for, from the measured spread of the load at
 * failure (tests/baselines/cuckoo_measure.c, "small" and "load-every-f";
 * docs/families.md): for b = 1, 2, 4, 8 and tables of 2^5 .. 2^20 slots
 * (log-linear between), a little below the least load at which any of
 * 2000 tables (100 from 2^13 slots, 3 at 2^20) first refused a key, with
 * fingerprints long enough not to matter; times a factor for fingerprints
 * too short for the table (2^f - 1 values give a bucket only 2^f - 1
 * alternates, and the table fills less far: the least of the measured
 * ratios at 2^16 and 2^20 slots). Past 2^20 slots a fingerprint counts as
 * (log2(slots) - 20) / b bits shorter, an extrapolation. Other bucket
 * sizes: linear between the rows; above 8, the row of 8 raised by the
 * difference of bf_cuckoo_model_load. */
static const double design_log2[7] = {5, 7, 9, 11, 13, 16, 20};
static const double design_rows[4][7] = {
    {0.12, 0.18, 0.18, 0.20, 0.35, 0.42, 0.46},  /* b = 1 */
    {0.40, 0.65, 0.77, 0.81, 0.83, 0.84, 0.85},  /* b = 2 */
    {0.60, 0.85, 0.90, 0.925, 0.94, 0.94, 0.94}, /* b = 4 */
    {0.85, 0.92, 0.95, 0.965, 0.975, 0.975, 0.975}, /* b = 8 */
};
/* Factors for f = 4..15 (1 from 16 up). */
static const double short_f[4][12] = {
    {0.035, 0.11, 0.12, 0.30, 0.33, 0.43, 0.62, 0.72, 0.85, 0.93, 0.97, 0.97},
    {0.28, 0.50, 0.90, 0.95, 0.97, 1, 1, 1, 1, 1, 1, 1},
    {0.70, 0.93, 0.97, 0.985, 1, 1, 1, 1, 1, 1, 1, 1},
    {0.94, 0.97, 0.985, 0.99, 1, 1, 1, 1, 1, 1, 1, 1},
};

/* Row r (b = 1, 2, 4, 8) at log2(slots) x, f bits. */
static double design_row(unsigned r, double x, double f) {
    double base;
    if (x <= design_log2[0]) {
        base = design_rows[r][0];
    } else if (x >= design_log2[6]) {
        base = design_rows[r][6];
    } else {
        unsigned j = 0;
        while (x > design_log2[j + 1]) j++;
        double t = (x - design_log2[j]) / (design_log2[j + 1] - design_log2[j]);
        base = design_rows[r][j] + t * (design_rows[r][j + 1] - design_rows[r][j]);
    }
    if (x > 20) f -= (x - 20) / (double)(1u << r);
    double pen = 1;
    if (f < 16) {
        double g = f < 4 ? 0 : f - 4;
        unsigned j = (unsigned)g;
        double t = g - j;
        double lo = short_f[r][j < 12 ? j : 11], hi = j + 1 < 12 ? short_f[r][j + 1] : 1;
        pen = f < 4 ? short_f[r][0] * 0.5 : lo + t * (hi - lo);
    }
    return base * pen;
}

double bf__cuckoo_design_load(unsigned b, unsigned f, uint64_t n) {
    /* The slots the table will have, at about this load. */
    double rough = bf_cuckoo_model_load(b);
    double x = log2((double)n / rough + 1.0);
    if (b >= 8) {
        double load = design_row(3, x, f) + bf_cuckoo_model_load(b) - bf_cuckoo_model_load(8);
        return load < 0.999 ? load : 0.999;
    }
    static const unsigned at[4] = {1, 2, 4, 8};
    unsigned r = 0;
    while (at[r + 1] < b) r++;
    double t = (double)(b - at[r]) / (double)(at[r + 1] - at[r]);
    double load = design_row(r, x, f) + t * (design_row(r + 1, x, f) - design_row(r, x, f));
    return load > 0.01 ? load : 0.01;
}

/* Fewer kicks fill a table less far. For b = 1, 2, 4, 8 and the kick limits
 * below: the load at the first failed insert as a fraction of the load at
 * 500 kicks, measured (tests/baselines/cuckoo_measure.c "kicks"; 16-bit
 * fingerprints; docs/families.md): the least, over tables of 2^16, 2^20
 * (3 each) and 2^24 slots (one), of the least load at that limit over the
 * least at 500. Between the limits: linear in log(kicks); between bucket
 * sizes: linear; above 8, the row of 8; from 500 kicks up, 1 (more kicks
 * fill further, not counted). */
static const double kick_at[9] = {1, 2, 5, 10, 20, 50, 100, 200, 500};
static const double kick_ratio[4][9] = {
    {0.0289, 0.0659, 0.2068, 0.4256, 0.6660, 0.8694, 0.9319, 0.9755, 1}, /* b = 1 */
    {0.1314, 0.1704, 0.2774, 0.5179, 0.6585, 0.8165, 0.8966, 0.9541, 1}, /* b = 2 */
    {0.2501, 0.3103, 0.4179, 0.6771, 0.7726, 0.8896, 0.9518, 0.9779, 1}, /* b = 4 */
    {0.3779, 0.4581, 0.6458, 0.7408, 0.8411, 0.9395, 0.9636, 0.9856, 1}, /* b = 8 */
};

static double kick_row(unsigned r, unsigned kicks) {
    if (kicks >= 500) return 1;
    unsigned j = 0;
    while (kicks > kick_at[j + 1]) j++;
    double t = (log((double)kicks) - log(kick_at[j])) / (log(kick_at[j + 1]) - log(kick_at[j]));
    return kick_ratio[r][j] + t * (kick_ratio[r][j + 1] - kick_ratio[r][j]);
}

static double kick_factor(unsigned b, unsigned kicks) {
    if (b >= 8) return kick_row(3, kicks);
    static const unsigned at[4] = {1, 2, 4, 8};
    unsigned r = 0;
    while (at[r + 1] < b) r++;
    double t = (double)(b - at[r]) / (double)(at[r + 1] - at[r]);
    return kick_row(r, kicks) + t * (kick_row(r + 1, kicks) - kick_row(r, kicks));
}

double bf_cuckoo_model_load_kicks(unsigned bucket_size, unsigned max_kicks) {
    if (max_kicks < 1 || max_kicks > 65535) return NAN;
    return bf_cuckoo_model_load(bucket_size) * kick_factor(bucket_size, max_kicks);
}

/* ---- sizing ---------------------------------------------------------------- */

/* The cheapest table of bucket size b and fingerprint bits f for n keys
 * meeting fpp at no more than the design load at this kick limit: its
 * bucket count, or 0 past the limits. */
static uint64_t buckets_for(uint64_t n, double fpp, unsigned b, unsigned f, unsigned kicks,
                            double *load_out) {
    double q = 1.0 / (double)((((uint64_t)1) << f) - 1);
    double load = log1p(-fpp) / (2.0 * b * log1p(-q)); /* highest load meeting fpp */
    /* Below 500 kicks the first failure comes earlier as tables grow (the
     * ratio fell by about 0.012 a doubling from 2^20 to 2^24 slots at
     * b = 2, 20 kicks): 5% below the table covers to about 2^26 slots. */
    double dl = bf__cuckoo_design_load(b, f, n);
    if (kicks < 500) dl *= 0.95 * kick_factor(b, kicks);
    if (load > dl) load = dl;
    double buckets = ceil((double)n / (b * load));
    if (buckets < 2) buckets = 2;
    if (buckets > (double)BF_CUCKOO_MAX_BUCKETS) return 0;
    uint64_t nb = (uint64_t)buckets;
    nb += nb & 1; /* even: the two buckets of a key always differ */
    /* Rounding may leave the FPR a hair above fpp: grow until met. */
    while (bf_cuckoo_model_fpp(b, f, (double)n / ((double)b * (double)nb)) > fpp) nb += 2;
    if (nb > BF_CUCKOO_MAX_BUCKETS) return 0;
    *load_out = (double)n / ((double)b * (double)nb);
    return nb;
}

int bf_cuckoo_size_for(uint64_t n, double fpp, unsigned bucket_size, unsigned fp_bits,
                       unsigned flags, bf_cuckoo_sizing *out) {
    return bf_cuckoo_size_for_kicks(n, fpp, bucket_size, fp_bits, flags, BF_CUCKOO_MAX_KICKS, out);
}

int bf_cuckoo_size_for_kicks(uint64_t n, double fpp, unsigned bucket_size, unsigned fp_bits,
                             unsigned flags, unsigned max_kicks, bf_cuckoo_sizing *out) {
    if (!out || !bf_fpp_valid(fpp) || max_kicks < 1 || max_kicks > 65535) return BF_EINVAL;
    if (flags & BF_CUCKOO_SEMISORTED) {
        if (bucket_size && bucket_size != 4) return BF_EINVAL;
        bucket_size = 4;
    }
    unsigned f_lo = BF_CUCKOO_MIN_FP_BITS, f_hi = BF_CUCKOO_MAX_FP_BITS;
    if (flags & BF_CUCKOO_SEMISORTED) f_lo = 5, f_hi = 17;
    if (fp_bits) f_lo = f_hi = fp_bits;
    if (bf__cuckoo_shape_check(bucket_size ? bucket_size : 4, f_lo, flags) ||
        bf__cuckoo_shape_check(bucket_size ? bucket_size : 4, f_hi, flags))
        return BF_EINVAL;
    if (n == 0) n = 1;
    /* Free bucket size: the fast shapes, b = 4 first (it wins ties). */
    static const unsigned sizes[4] = {4, 2, 8, 1};
    const unsigned nsizes = bucket_size ? 1 : 4;
    double best_cost = INFINITY;
    int rc = BF_ETOOBIG;
    for (unsigned j = 0; j < nsizes; j++) {
        unsigned b = bucket_size ? bucket_size : sizes[j];
        for (unsigned f = f_lo; f <= f_hi; f++) {
            double load;
            uint64_t nb = buckets_for(n, fpp, b, f, max_kicks, &load);
            if (!nb) continue;
            uint64_t bytes = bf__cuckoo_table_bytes(nb, b, f, flags);
            if ((double)bytes < best_cost) {
                best_cost = (double)bytes;
                out->num_buckets = nb;
                out->bucket_size = b;
                out->fp_bits = f;
                out->flags = flags;
                out->num_bytes = bytes;
                out->bits_per_key = 8.0 * (double)bytes / (double)n;
                out->load = load;
                out->model_fpp = bf_cuckoo_model_fpp(b, f, load);
                rc = BF_OK;
            }
        }
    }
    return rc;
}

int bf_cuckoo_new_shape(bf_cuckoo **out, uint64_t n, double fpp, unsigned bucket_size,
                        unsigned fp_bits) {
    if (!out) return BF_EINVAL;
    bf_cuckoo_sizing z;
    int rc = bf_cuckoo_size_for(n, fpp, bucket_size, fp_bits, 0, &z);
    return rc ? rc : bf_cuckoo_new_table(out, z.num_buckets, z.bucket_size, z.fp_bits, 0);
}

int bf_cuckoo_new(bf_cuckoo **out, uint64_t n, double fpp) {
    return bf_cuckoo_new_shape(out, n, fpp, 0, 0);
}

/* ---- the family table ------------------------------------------------------ */

static int size_for(uint64_t n, double fpp, bf_sizing *out) {
    bf_cuckoo_sizing z;
    int rc = bf_cuckoo_size_for(n, fpp, 0, 0, 0, &z);
    if (rc) return rc;
    out->num_bytes = z.num_bytes;
    out->fp_bits = z.fp_bits;
    out->bucket_size = z.bucket_size;
    out->model_fpp = z.model_fpp;
    return BF_OK;
}

/* The best shape (b in 1, 2, 4, 8; f in 4..32) that still holds n keys at
 * its design load; BF_EFULL (and FPR 1) when none does. */
static int fpp_for(uint64_t num_bytes, uint64_t n, double *out) {
    static const unsigned sizes[4] = {1, 2, 4, 8};
    double best = 2.0;
    if (n == 0) n = 1;
    for (unsigned j = 0; j < 4; j++)
        for (unsigned f = BF_CUCKOO_MIN_FP_BITS; f <= BF_CUCKOO_MAX_FP_BITS; f++) {
            unsigned b = sizes[j];
            double nb = floor((double)num_bytes * 8.0 / (double)(b * f));
            if (nb < 1) continue;
            double load = (double)n / ((double)b * nb);
            if (load > bf__cuckoo_design_load(b, f, n)) continue; /* n keys would not fit */
            double p = bf_cuckoo_model_fpp(b, f, load);
            if (p < best) best = p;
        }
    *out = best > 1.0 ? 1.0 : best;
    return best > 1.0 ? BF_EFULL : BF_OK;
}

static int create(void **out, uint64_t n, double fpp) {
    bf_cuckoo *f = NULL; /* not a cast of out: *out is a void * */
    int rc = bf_cuckoo_new(&f, n, fpp);
    if (rc == BF_OK) *out = f;
    return rc;
}
static void destroy(void *o) { bf_cuckoo_free(o); }

static int insert(void *o, uint64_t h) { return bf_cuckoo_insert_hash(o, h); }
static bool contains(const void *o, uint64_t h) { return bf_cuckoo_contains_hash(o, h); }
static int remove_one(void *o, uint64_t h) { return bf_cuckoo_remove_hash(o, h); }
static int insert_batch(void *o, const uint64_t *h, size_t n, size_t *done) {
    return bf__batch_loop(o, !((bf_cuckoo *)o)->table, h, n, done, insert);
}
static int remove_batch(void *o, const uint64_t *h, size_t n, size_t *done) {
    return bf__batch_loop(o, !((bf_cuckoo *)o)->table, h, n, done, remove_one);
}
static size_t contains_batch(const void *o, const uint64_t *h, size_t n, uint8_t *out) {
    return bf__cuckoo_contains_batch(o, h, n, out);
}

static int clear(void *o) {
    bf_cuckoo *f = o;
    if (!f->table) return BF_EREADONLY;
    memset(f->table, 0, (size_t)f->num_bytes);
    f->count = 0;
    f->victim_fp = 0;
    f->victim_index = 0;
    return BF_OK;
}

static int merge(void *dst, const void *src) {
    bf_cuckoo *d = dst;
    const bf_cuckoo *s = src;
    if (!d->table) return BF_EREADONLY;
    if (d->num_buckets != s->num_buckets || d->bucket_size != s->bucket_size ||
        d->fp_bits != s->fp_bits || d->flags != s->flags || d->seed != s->seed)
        return BF_EMISMATCH;
    return bf__cuckoo_merge(d, s);
}

static int stats(const void *o, bf_filter_stats *st) {
    const bf_cuckoo *c = o;
    st->cells = c->num_buckets * c->bucket_size;
    st->cells_set = bf__cuckoo_occupied(c);
    st->fill_ratio = (double)st->cells_set / (double)st->cells;
    st->est_keys = (double)c->count;
    st->est_fpp = bf__cuckoo_est_fpp(c);
    st->fp_bits = c->fp_bits;
    st->bucket_size = c->bucket_size;
    return BF_OK;
}

static uint64_t num_bytes(const void *o) { return ((const bf_cuckoo *)o)->num_bytes; }
static bool is_readonly(const void *o) { return ((const bf_cuckoo *)o)->table == NULL; }
static uint64_t seed(const void *o) { return ((const bf_cuckoo *)o)->seed; }

static int set_seed(void *o, uint64_t s) {
    bf_cuckoo *f = o;
    if (!f->table) return BF_EREADONLY;
    if (s != f->seed && f->count) return BF_EINVAL; /* empty filters only */
    f->seed = s;
    return BF_OK;
}

/* ---- native payload: the buckets, then the trailer (docs/format.md) ------ */

/* Format version 1 knows 4-slot buckets of 8, 12 or 16 bits only. */
static bool in_version_1(unsigned b, unsigned f, unsigned flags) {
    return b == 4 && (f == 8 || f == 12 || f == 16) && flags == 0;
}

static uint64_t payload_bytes(const void *o) {
    return ((const bf_cuckoo *)o)->num_bytes + BF_CUCKOO_TRAILER_BYTES;
}

static void encode(const void *o, bf_native_params *p, uint8_t *payload) {
    const bf_cuckoo *c = o;
    p->p0 = c->num_buckets;
    p->p1 = c->fp_bits;
    p->p2 = c->bucket_size;
    p->p3 = c->flags;
    memcpy(payload, c->data, (size_t)c->num_bytes);
    uint8_t *t = payload + c->num_bytes;
    bf_store_le64(t, c->count);
    bf_store_le64(t + 8, c->victim_fp ? c->victim_index : 0);
    bf_store_le32(t + 16, c->victim_fp);
    bf_store_le32(t + 20, 0);
}

typedef struct trailer {
    uint64_t count, victim_index;
    uint32_t victim_fp;
} trailer;

static uint64_t table_bytes_of(const bf_native_params *p) {
    return bf__cuckoo_table_bytes(p->p0, p->p2, p->p1, p->p3);
}

static trailer read_trailer(const bf_native_params *p, const uint8_t *payload) {
    const uint8_t *t = payload + table_bytes_of(p);
    trailer tr = {.count = bf_load_le64(t),
                  .victim_index = bf_load_le64(t + 8),
                  .victim_fp = bf_load_le32(t + 16)};
    return tr;
}

static int check(const bf_native_params *p, const uint8_t *payload, uint64_t len) {
    if (p->p0 == 0 || bf__cuckoo_shape_check(p->p2, p->p1, p->p3)) return BF_ECORRUPT;
    if (p->version < 2 && !in_version_1(p->p2, p->p1, p->p3)) return BF_ECORRUPT;
    if (p->p0 > BF_CUCKOO_MAX_BUCKETS) return BF_ETOOBIG;
    uint64_t expect = table_bytes_of(p) + BF_CUCKOO_TRAILER_BYTES;
    if (expect > (uint64_t)SIZE_MAX - BF_CUCKOO_PAD) return BF_ETOOBIG;
    if (len != expect) return BF_ECORRUPT;
    trailer tr = read_trailer(p, payload);
    if (bf_load_le32(payload + len - 4) != 0) return BF_ECORRUPT; /* reserved */
    if ((uint64_t)tr.victim_fp >= ((uint64_t)1 << p->p1)) return BF_ECORRUPT;
    if (tr.victim_fp ? tr.victim_index >= p->p0 : tr.victim_index != 0) return BF_ECORRUPT;
    if (tr.count > p->p0 * p->p2 + 1) return BF_ECORRUPT;
    return BF_OK;
}

static int decode(void **out, const bf_native_params *p, const uint8_t *payload, uint64_t len,
                  uint64_t seed_, bool view) {
    (void)len;
    bf_cuckoo *f = NULL;
    int rc = bf__cuckoo_alloc(&f, p->p0, p->p2, p->p1, p->p3, view);
    if (rc) return rc;
    if (view)
        f->data = payload;
    else
        memcpy(f->table, payload, (size_t)f->num_bytes);
    trailer tr = read_trailer(p, payload);
    f->count = tr.count;
    f->victim_index = tr.victim_index;
    f->victim_fp = tr.victim_fp;
    f->seed = seed_;
    *out = f;
    return BF_OK;
}

/* The bits past the last slot are 0, every semi-sorted code is valid, and
 * the stored count is the occupied slots plus the victim. */
static int verify(const bf_native_params *p, const uint8_t *payload, uint64_t len) {
    (void)len;
    bf_cuckoo shape, *f = &shape;
    int rc = bf__cuckoo_shape(f, p->p0, p->p2, p->p1, p->p3);
    if (rc) return rc;
    f->data = payload;
    uint64_t used = f->num_buckets * f->bucket_bits;
    if (used % 8 && payload[f->num_bytes - 1] >> (used % 8)) rc = BF_ECORRUPT;
    if (!rc && f->flags)
        for (uint64_t i = 0; i < f->num_buckets && !rc; i++)
            if (!bf__cuckoo_ss_valid(bf_load_le64(payload + ((i * f->bucket_bits) >> 3)) >>
                                     ((i * f->bucket_bits) & 7)))
                rc = BF_ECORRUPT;
    trailer tr = read_trailer(p, payload);
    if (!rc && bf__cuckoo_occupied(f) + (tr.victim_fp != 0) != tr.count) rc = BF_ECORRUPT;
    return rc;
}

/* One stored fingerprint per successful insert. */
static uint64_t least_inserts(const void *o) { return ((const bf_cuckoo *)o)->count; }

/* Version 2 only for the shapes version 1 lacks. */
static unsigned format_version(const void *o) {
    const bf_cuckoo *c = o;
    return in_version_1(c->bucket_size, c->fp_bits, c->flags) ? 1u : 2u;
}

const bf_family_ops bf__cuckoo_ops = {
    .version = BF_FAMILY_OPS_VERSION,
    .id = BF_FAMILY_CUCKOO,
    .name = "cuckoo",
    .size_for = size_for,
    .fpp_for = fpp_for,
    .create = create,
    .destroy = destroy,
    .insert = insert,
    .contains = contains,
    .insert_batch = insert_batch,
    .contains_batch = contains_batch,
    .remove = remove_one,
    .remove_batch = remove_batch,
    .clear = clear,
    .merge = merge,
    .stats = stats,
    .num_bytes = num_bytes,
    .is_readonly = is_readonly,
    .seed = seed,
    .set_seed = set_seed,
    .payload_bytes = payload_bytes,
    .encode = encode,
    .check = check,
    .verify = verify,
    .decode = decode,
    .least_inserts = least_inserts,
    .format_version = format_version,
};

bf_cuckoo *bf_filter_cuckoo(bf_filter *f) { return bf__filter_object(f, &bf__cuckoo_ops); }

int bf_filter_from_cuckoo(bf_filter **out, bf_cuckoo *cuckoo) {
    return bf__filter_adopt(out, &bf__cuckoo_ops, cuckoo);
}
