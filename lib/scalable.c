/*
 * The scalable SBBF family: a chain of SBBF layers (Almeida et al. 2007).
 * include/blockfilter.h ("Scalable SBBF") has the contract and
 * docs/families.md ("Scalable SBBF") the derivation of the layer targets.
 *
 * When the family joins the generic layer's ops table (lib/family.h on
 * branch ops), its row points at:
 *   create          bf_scalable_new (n = initial capacity, default expansion
 *                   and ratio); destroy bf_scalable_free
 *   insert / batch  bf_scalable_add_hash / bf_scalable_add_hashes (added
 *                   NULL; BF_EFULL on a full non-scaling chain)
 *   contains/batch  bf_scalable_contains_hash / bf_scalable_contains_hashes
 *   clear, seed     bf_scalable_clear, bf_scalable_seed / bf_scalable_set_seed
 *   size_for        bf__scalable_size_for; fpp_for: bf_sbbf_model_fpp (one
 *                   layer of num_bytes); the chain's model bf__scalable_model
 *   stats           bf__scalable_stats; num_bytes bf_scalable_get_info's
 *   is_readonly     bf__scalable_is_readonly
 *   payload_bytes   bf__scalable_payload_size; encode bf__scalable_payload_
 *                   encode + bf__scalable_native_params (p0..p3)
 *   check / verify  bf__scalable_payload_check / _verify
 *   decode          bf__scalable_payload_decode (copy, or view: layers are
 *                   SBBF views over the payload and the chain is read-only)
 *   least_inserts   bf__scalable_least_inserts
 *   remove, merge   none (unsupported)
 * (declared in lib/scalable.h).
 *
 * Representation: an array of layers, oldest first, each an SBBF object
 * (owned, or a view) with its capacity, count and target. Every layer uses
 * the kernel the chain was created with, so a chain's bits and answers do
 * not depend on when it grew. The byte-string seed lives in the chain and
 * is copied into each layer's SBBF, so bf_sbbf_contains on a layer from
 * bf_scalable_get_layer hashes as the chain does.
 */
#include "scalable.h"

#include "sbbf.h"

#include <math.h>

typedef struct scal_layer {
    bf_sbbf *sbbf;     /* owned bitset, or a view over caller bytes */
    uint64_t capacity; /* keys it is sized for */
    uint64_t count;    /* keys added to it */
    double fpp;        /* its target fpp_i */
} scal_layer;

/* Parameters with defaults filled in, validated. */
typedef struct scal_params {
    uint64_t capacity;
    double fpp;
    double fpp0;
    double ratio;
    unsigned expansion;
    unsigned flags;
} scal_params;

struct bf_scalable {
    scal_layer *layers; /* oldest first */
    size_t num_layers;
    size_t cap_layers;  /* allocated entries of layers */
    scal_params p;      /* as given, defaults filled in */
    uint64_t seed;
    /* Sums over the layers. */
    uint64_t count;
    uint64_t capacity;
    uint64_t num_bytes;
    const char *kernel; /* every layer's kernel (a static name) */
    bool readonly;
};

/* ---- parameters and layer shapes ------------------------------------------ */


/* Lower bound L(q) of ln prod_{i>=0} (1 - q r^i) for 0 < q < 1, 0 < r < 1,
 * and its derivative in q. Terms are summed exactly while y_i = q r^i >=
 * q 2^-20 (so the number of terms N depends on r only); the tail from
 * term N on is bounded with ln(1 - y) >= -y / (1 - y) and y_j <= y_N:
 *   sum_{j>=N} ln(1 - y_j) >= -(sum_{j>=N} y_j) / (1 - y_N)
 *                           = -y_N / ((1 - r)(1 - y_N)),
 * so L never exceeds the true value (up to rounding, which the caller's
 * margin covers); it is loose by O(y_N^2 / (1 - r)), far below that margin.
 * L is a sum of concave functions of q, so it is concave and decreasing. */
static double log_prod_lower(double q, double r, double *deriv) {
    double sum = 0.0, d = 0.0, x = 1.0; /* x = r^i */
    for (unsigned i = 0; i < 100000 && x >= 0x1p-20; i++) {
        sum += log1p(-q * x);
        d -= x / (1.0 - q * x);
        x *= r;
    }
    const double y = q * x, c = 1.0 / (1.0 - r);
    *deriv = d - c * x / ((1.0 - y) * (1.0 - y));
    return sum - c * y / (1.0 - y);
}

/* Layer 0's target: the largest q (to about 1e-11 relative) with
 * L(q) >= ln(1 - fpp (1 - 1e-9)), i.e. prod_{i>=0} (1 - q r^i) >= 1 - fpp
 * with a relative margin of 1e-9 for rounding. Newton's method from
 * q = fpp: on a concave decreasing function, started where it is
 * negative, every step stays at or above the root and converges
 * quadratically; the result is then nudged down until L confirms it (or
 * bisected, should rounding get in the way). The union bound
 * q = fpp (1 - r) is always safe (1 - prod(1 - y_i) <= sum y_i = q/(1-r)),
 * so the answer is never below it; it is always below fpp (layer 0 alone
 * would use the whole budget). */
static double solve_fpp0(double fpp, double r) {
    const double safe = fpp * (1.0 - r);
    const double need = log1p(-fpp * (1.0 - 1e-9)); /* slightly above ln(1 - fpp) */
    double q = fpp, d;
    for (int it = 0; it < 100; it++) {
        double g = log_prod_lower(q, r, &d) - need;
        if (g >= 0) break;
        double next = q - g / d; /* g < 0, d < 0: next < q */
        if (!(next < q)) break;
        bool done = q - next <= q * 1e-13;
        q = next;
        if (done) break;
    }
    for (int k = 0; k < 8; k++) {
        if (q <= safe) return safe;
        if (log_prod_lower(q, r, &d) >= need) return q;
        q -= q * 1e-12 * (double)(1 << (3 * k));
    }
    double lo = safe, hi = q;
    for (int it = 0; it < 200 && hi - lo > lo * 1e-12; it++) {
        double mid = lo + (hi - lo) / 2;
        if (log_prod_lower(mid, r, &d) >= need)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static int params_check(const bf_scalable_params *in, scal_params *p) {
    if (!in) return BF_EINVAL;
    if (in->capacity < 1 || !bf_fpp_valid(in->fpp)) return BF_EINVAL;
    if (in->flags & ~BF_SCALABLE_NONSCALING) return BF_EINVAL;
    unsigned expansion = in->expansion ? in->expansion : BF_SCALABLE_DEFAULT_EXPANSION;
    if (expansion > BF_SCALABLE_MAX_EXPANSION) return BF_EINVAL;
    double ratio = in->ratio == 0.0 ? BF_SCALABLE_DEFAULT_RATIO : in->ratio;
    if (!(ratio > 0.0 && ratio < 1.0)) return BF_EINVAL; /* also NaN */
    p->capacity = in->capacity;
    p->fpp = in->fpp;
    p->ratio = ratio;
    p->expansion = expansion;
    p->flags = in->flags;
    /* A non-scaling chain is one layer: it may spend the whole budget. */
    p->fpp0 = (in->flags & BF_SCALABLE_NONSCALING) ? in->fpp : solve_fpp0(in->fpp, ratio);
    return BF_OK;
}

/* Bytes of a layer for (capacity, fpp_i): compact SBBF sizing. Anything the
 * SBBF cannot meet (too many bytes, a target underflowed to 0) is
 * BF_ETOOBIG: the chain cannot grow that far. */
static int layer_bytes(uint64_t capacity, double fpp, uint64_t *bytes) {
    if (!(fpp > 0.0)) return BF_ETOOBIG;
    size_t b;
    int rc = bf_sbbf_compact_bytes(capacity, fpp, &b);
    if (rc) return BF_ETOOBIG;
    *bytes = b;
    return BF_OK;
}

/* Layer i+1's capacity and target from layer i's. */
static int next_shape(const scal_params *p, uint64_t cap, double fpp, uint64_t *ncap,
                      double *nfpp) {
    if (bf_mul_overflow(cap, p->expansion, ncap)) return BF_ETOOBIG;
    *nfpp = fpp * p->ratio;
    if (!(*nfpp > 0.0)) return BF_ETOOBIG;
    return BF_OK;
}

/* ---- creation and layers ------------------------------------------------- */

static void chain_destroy(bf_scalable *f) {
    if (!f) return;
    for (size_t i = 0; i < f->num_layers; i++) bf_sbbf_free(f->layers[i].sbbf);
    bf__free(f->layers);
    bf__free(f);
}

/* An empty chain object with room for `room` layers, and no layer yet. */
static int chain_alloc(bf_scalable **out, const scal_params *p, uint64_t seed, size_t room,
                       const char *kernel) {
    bf_scalable *f = bf__calloc(1, sizeof *f);
    if (!f) return BF_ENOMEM;
    f->layers = bf__calloc(room, sizeof *f->layers);
    if (!f->layers) {
        bf__free(f);
        return BF_ENOMEM;
    }
    f->cap_layers = room;
    f->p = *p;
    f->seed = seed;
    f->kernel = kernel;
    *out = f;
    return BF_OK;
}

/* The kernel new chains get (process default), by its static name. */
static int default_kernel(const char **name) {
    const bf_kernel *k = bf__sbbf_kernel_default();
    if (!k) return BF_EKERNEL;
    *name = k->name;
    return BF_OK;
}

/* Appends an owned, zeroed layer; f must have room for it. */
static int push_layer(bf_scalable *f, uint64_t capacity, double fpp, uint64_t bytes) {
    bf_sbbf *s = NULL;
    if (bytes > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    int rc = bf_sbbf_new_bytes_kernel(&s, (size_t)bytes, f->kernel);
    if (rc) return rc;
    s->seed = f->seed;
    f->layers[f->num_layers++] = (scal_layer){s, capacity, 0, fpp};
    f->capacity += capacity;
    f->num_bytes += bytes;
    return BF_OK;
}

int bf_scalable_new(bf_scalable **out, const bf_scalable_params *params) {
    if (!out) return BF_EINVAL;
    scal_params p;
    int rc = params_check(params, &p);
    if (rc) return rc;
    uint64_t bytes;
    rc = layer_bytes(p.capacity, p.fpp0, &bytes);
    if (rc) return rc;
    if (bytes > BF_SCALABLE_MAX_BYTES) return BF_ETOOBIG;
    const char *kernel;
    rc = default_kernel(&kernel);
    if (rc) return rc;
    bf_scalable *f;
    rc = chain_alloc(&f, &p, 0, (p.flags & BF_SCALABLE_NONSCALING) ? 1 : 4, kernel);
    if (rc) return rc;
    rc = push_layer(f, p.capacity, p.fpp0, bytes);
    if (rc) {
        chain_destroy(f);
        return rc;
    }
    *out = f;
    return BF_OK;
}

void bf_scalable_free(bf_scalable *f) { chain_destroy(f); }

/* Appends the next layer. Nothing changes on failure. */
static int grow(bf_scalable *f) {
    if (f->p.flags & BF_SCALABLE_NONSCALING) return BF_EFULL;
    if (f->num_layers >= BF_SCALABLE_MAX_LAYERS) return BF_ETOOBIG;
    const scal_layer *last = &f->layers[f->num_layers - 1];
    uint64_t cap, bytes, cap_sum, byte_sum;
    double fpp;
    int rc = next_shape(&f->p, last->capacity, last->fpp, &cap, &fpp);
    if (rc) return rc;
    if (bf_add_overflow(f->capacity, cap, &cap_sum)) return BF_ETOOBIG;
    rc = layer_bytes(cap, fpp, &bytes);
    if (rc) return rc;
    if (bf_add_overflow(f->num_bytes, bytes, &byte_sum) || byte_sum > BF_SCALABLE_MAX_BYTES)
        return BF_ETOOBIG;
    if (f->num_layers == f->cap_layers) {
        size_t room = f->cap_layers * 2;
        if (room > BF_SCALABLE_MAX_LAYERS) room = BF_SCALABLE_MAX_LAYERS;
        scal_layer *a = bf__calloc(room, sizeof *a);
        if (!a) return BF_ENOMEM;
        memcpy(a, f->layers, f->num_layers * sizeof *a);
        bf__free(f->layers);
        f->layers = a;
        f->cap_layers = room;
    }
    return push_layer(f, cap, fpp, bytes);
}

/* ---- lookups ------------------------------------------------------------- */

static inline bool layer_has(const scal_layer *l, uint64_t h) {
    const bf_sbbf *s = l->sbbf;
    return s->kernel->contains(s->data, s->num_blocks, h);
}

bool bf_scalable_contains_hash(const bf_scalable *f, uint64_t hash) {
    if (!f) return false;
    for (size_t i = f->num_layers; i-- > 0;)
        if (layer_has(&f->layers[i], hash)) return true;
    return false;
}

bool bf_scalable_contains(const bf_scalable *f, const void *data, size_t len) {
    if (!f || (!data && len)) return false;
    return bf_scalable_contains_hash(f, bf_hash_xxh64_seeded(data, len, f->seed));
}

/* Keys per batch step: the compaction buffers live on the stack. */
#define CHUNK 256

/* out[j] = 1 if some layer of [lo, hi) may hold h[j], for m <= CHUNK keys;
 * returns the number of 1s. Newest layer first over every key, then each
 * older layer over the keys still undecided, compacted so the kernel's
 * batch loop runs over contiguous hashes. */
static size_t range_undecided(const bf_scalable *f, size_t lo, size_t hi, const uint64_t *h,
                              size_t m, uint8_t *out) {
    const bf_sbbf *s = f->layers[hi - 1].sbbf;
    size_t found = s->kernel->contains_batch(s->data, s->num_blocks, h, m, out);
    if (hi - 1 == lo || found == m) return found;
    uint64_t keys[CHUNK];
    uint16_t idx[CHUNK];
    uint8_t hit[CHUNK];
    size_t k = 0;
    for (size_t j = 0; j < m; j++) {
        keys[k] = bf_sbbf_load_hash(h + j);
        idx[k] = (uint16_t)j;
        k += !out[j];
    }
    for (size_t l = hi - 1; l-- > lo && k;) {
        s = f->layers[l].sbbf;
        size_t got = s->kernel->contains_batch(s->data, s->num_blocks, keys, k, hit);
        if (!got) continue;
        found += got;
        size_t k2 = 0;
        for (size_t t = 0; t < k; t++) {
            out[idx[t]] |= hit[t];
            keys[k2] = keys[t];
            idx[k2] = idx[t];
            k2 += !hit[t];
        }
        k = k2;
    }
    return found;
}

/* Every layer over every key, answers OR-ed. */
static size_t range_or(const bf_scalable *f, size_t lo, size_t hi, const uint64_t *h, size_t m,
                       uint8_t *out) {
    uint8_t hit[CHUNK];
    const bf_sbbf *s = f->layers[hi - 1].sbbf;
    s->kernel->contains_batch(s->data, s->num_blocks, h, m, out);
    for (size_t l = hi - 1; l-- > lo;) {
        s = f->layers[l].sbbf;
        s->kernel->contains_batch(s->data, s->num_blocks, h, m, hit);
        for (size_t j = 0; j < m; j++) out[j] |= hit[j];
    }
    size_t found = 0;
    for (size_t j = 0; j < m; j++) found += out[j];
    return found;
}

static size_t range_single(const bf_scalable *f, size_t lo, size_t hi, const uint64_t *h,
                           size_t m, uint8_t *out) {
    size_t found = 0;
    for (size_t j = 0; j < m; j++) {
        uint64_t x = bf_sbbf_load_hash(h + j);
        uint8_t o = 0;
        for (size_t l = hi; l-- > lo;)
            if (layer_has(&f->layers[l], x)) {
                o = 1;
                break;
            }
        out[j] = o;
        found += o;
    }
    return found;
}

size_t bf__scalable_contains_hashes_mode(const bf_scalable *f, const uint64_t *hashes, size_t n,
                                         uint8_t *out, int mode) {
    if (!f || !n || !hashes) return 0;
    uint8_t local[CHUNK];
    size_t found = 0;
    for (size_t i = 0; i < n; i += CHUNK) {
        size_t m = n - i < CHUNK ? n - i : CHUNK;
        uint8_t *o = out ? out + i : local;
        switch (mode) {
        case 1: found += range_or(f, 0, f->num_layers, hashes + i, m, o); break;
        case 2: found += range_single(f, 0, f->num_layers, hashes + i, m, o); break;
        default: found += range_undecided(f, 0, f->num_layers, hashes + i, m, o); break;
        }
    }
    return found;
}

size_t bf_scalable_contains_hashes(const bf_scalable *f, const uint64_t *hashes, size_t n,
                                   uint8_t *out) {
    return bf__scalable_contains_hashes_mode(f, hashes, n, out, 0);
}

/* ---- adds ---------------------------------------------------------------- */

/* Writes a key known to be absent from every layer into the newest,
 * growing first if it is full. Nothing changes on failure. */
static int put_new(bf_scalable *f, uint64_t hash) {
    scal_layer *l = &f->layers[f->num_layers - 1];
    if (l->count >= l->capacity) {
        int rc = grow(f);
        if (rc) return rc;
        l = &f->layers[f->num_layers - 1];
    }
    bf_sbbf *s = l->sbbf;
    s->kernel->insert(s->bits, s->num_blocks, hash);
    l->count++;
    f->count++;
    return BF_OK;
}

int bf_scalable_add_hash(bf_scalable *f, uint64_t hash, bool *added) {
    if (!f) return BF_EINVAL;
    if (f->readonly) return BF_EREADONLY;
    if (bf_scalable_contains_hash(f, hash)) {
        if (added) *added = false;
        return BF_OK;
    }
    int rc = put_new(f, hash);
    if (rc) return rc;
    if (added) *added = true;
    return BF_OK;
}

int bf_scalable_add(bf_scalable *f, const void *data, size_t len, bool *added) {
    if (!f || (!data && len)) return BF_EINVAL;
    return bf_scalable_add_hash(f, bf_hash_xxh64_seeded(data, len, f->seed), added);
}

/* In steps of CHUNK keys: the layers older than the newest at the start of
 * the step do not change during it, so they are probed for the whole step
 * with the batch lookup; then each key, in order, is checked against the
 * newest layer(s) (which this step's keys change) and written if absent.
 * The outcome is exactly that of n single adds. */
int bf_scalable_add_hashes(bf_scalable *f, const uint64_t *hashes, size_t n, uint8_t *added,
                           size_t *done) {
    if (done) *done = 0;
    if (!f || (!hashes && n)) return BF_EINVAL;
    if (f->readonly) return BF_EREADONLY;
    uint8_t old[CHUNK];
    for (size_t i = 0; i < n; i += CHUNK) {
        size_t m = n - i < CHUNK ? n - i : CHUNK;
        size_t base = f->num_layers - 1; /* newest at the step's start */
        if (base > 0)
            range_undecided(f, 0, base, hashes + i, m, old);
        else
            memset(old, 0, m);
        for (size_t j = 0; j < m; j++) {
            uint64_t h = bf_sbbf_load_hash(hashes + i + j);
            bool present = old[j];
            for (size_t l = f->num_layers; !present && l-- > base;)
                present = layer_has(&f->layers[l], h);
            if (!present) {
                int rc = put_new(f, h);
                if (rc) {
                    if (done) *done = i + j;
                    return rc;
                }
            }
            if (added) added[i + j] = !present;
        }
        if (done) *done = i + m;
    }
    return BF_OK;
}

/* ---- seed, clear, info --------------------------------------------------- */

static bool layer_clear(const scal_layer *l) {
    const bf_sbbf *s = l->sbbf;
    for (uint64_t i = 0; i < s->num_bytes; i++)
        if (s->data[i]) return false;
    return true;
}

int bf_scalable_set_seed(bf_scalable *f, uint64_t seed) {
    if (!f) return BF_EINVAL;
    if (f->readonly) return BF_EREADONLY;
    if (seed == f->seed) return BF_OK;
    if (f->count) return BF_EINVAL;
    for (size_t i = 0; i < f->num_layers; i++)
        if (!layer_clear(&f->layers[i])) return BF_EINVAL;
    f->seed = seed;
    for (size_t i = 0; i < f->num_layers; i++) f->layers[i].sbbf->seed = seed;
    return BF_OK;
}

uint64_t bf_scalable_seed(const bf_scalable *f) { return f ? f->seed : 0; }

int bf_scalable_clear(bf_scalable *f) {
    if (!f) return BF_EINVAL;
    if (f->readonly) return BF_EREADONLY;
    while (f->num_layers > 1) {
        scal_layer *l = &f->layers[--f->num_layers];
        f->capacity -= l->capacity;
        f->num_bytes -= l->sbbf->num_bytes;
        bf_sbbf_free(l->sbbf);
        *l = (scal_layer){0};
    }
    bf_sbbf *s = f->layers[0].sbbf;
    memset(s->bits, 0, (size_t)s->num_bytes);
    f->layers[0].count = 0;
    f->count = 0;
    return BF_OK;
}

bool bf__scalable_is_readonly(const bf_scalable *f) { return f->readonly; }

int bf_scalable_get_info(const bf_scalable *f, bf_scalable_info *out) {
    if (!f || !out) return BF_EINVAL;
    uint64_t set = 0;
    double pass_now = 1.0, pass_bound = 1.0;
    for (size_t i = 0; i < f->num_layers; i++) {
        const scal_layer *l = &f->layers[i];
        bf_sbbf_stats st;
        bf_sbbf_get_stats(l->sbbf, &st);
        set += st.bits_set;
        pass_now *= 1.0 - st.est_fpp;
        pass_bound *= 1.0 - bf_sbbf_model_fpp(l->sbbf->num_bytes, l->capacity);
    }
    bf_scalable_info info = {
        .capacity = f->capacity,
        .count = f->count,
        .num_bytes = f->num_bytes,
        .num_layers = f->num_layers,
        .expansion = f->p.expansion,
        .fpp = f->p.fpp,
        .ratio = f->p.ratio,
        .flags = f->p.flags,
        .fill_ratio = (double)set / ((double)f->num_bytes * 8.0),
        .est_fpp = 1.0 - pass_now,
        .bound_fpp = 1.0 - pass_bound,
    };
    *out = info;
    return BF_OK;
}

int bf_scalable_get_layer(const bf_scalable *f, size_t i, bf_scalable_layer *out) {
    if (!f || !out || i >= f->num_layers) return BF_EINVAL;
    const scal_layer *l = &f->layers[i];
    *out = (bf_scalable_layer){l->capacity, l->count, l->fpp, l->sbbf};
    return BF_OK;
}

int bf__scalable_stats(const bf_scalable *f, bf_stats *out) {
    if (!f || !out) return BF_EINVAL;
    bf_scalable_info info;
    int rc = bf_scalable_get_info(f, &info);
    if (rc) return rc;
    uint64_t cells = f->num_bytes * 8u;
    bf_stats st = {
        .num_bytes = f->num_bytes,
        .inserted = f->count,
        .cells = cells,
        .cells_set = (uint64_t)llround(info.fill_ratio * (double)cells),
        .fill_ratio = info.fill_ratio,
        .est_keys = (double)f->count,
        .est_fpp = info.est_fpp,
        .k = 8,
        .fp_bits = 0,
        .kernel = f->kernel,
    };
    *out = st;
    return BF_OK;
}

/* ---- sizing and the model ------------------------------------------------ */

int bf__scalable_size_for(uint64_t n, double fpp, bf_sizing *out) {
    if (!out) return BF_EINVAL;
    bf_scalable_params in = {.capacity = n, .fpp = fpp};
    scal_params p;
    int rc = params_check(&in, &p);
    if (rc) return rc;
    uint64_t bytes;
    rc = layer_bytes(p.capacity, p.fpp0, &bytes);
    if (rc) return rc;
    out->num_bytes = bytes;
    out->bits_per_key = 8.0 * (double)bytes / (double)n;
    out->k = 8;
    out->fp_bits = 0;
    out->model_fpp = bf_sbbf_model_fpp(bytes, n);
    return BF_OK;
}

int bf__scalable_model(const bf_scalable_params *params, uint64_t n, double *model_fpp,
                       uint64_t *num_bytes) {
    if (!model_fpp || !num_bytes) return BF_EINVAL;
    scal_params p;
    int rc = params_check(params, &p);
    if (rc) return rc;
    uint64_t cap = p.capacity, left = n, total = 0;
    double fpp = p.fpp0, pass = 1.0;
    for (size_t i = 0;; i++) {
        uint64_t bytes;
        if (i >= BF_SCALABLE_MAX_LAYERS) return BF_ETOOBIG;
        rc = layer_bytes(cap, fpp, &bytes);
        if (rc) return rc;
        if (bf_add_overflow(total, bytes, &total) || total > BF_SCALABLE_MAX_BYTES)
            return BF_ETOOBIG;
        uint64_t here = left < cap ? left : cap;
        pass *= 1.0 - bf_sbbf_model_fpp(bytes, here);
        left -= here;
        if (!left) break;
        if (p.flags & BF_SCALABLE_NONSCALING) return BF_EFULL;
        rc = next_shape(&p, cap, fpp, &cap, &fpp);
        if (rc) return rc;
    }
    *model_fpp = 1.0 - pass;
    *num_bytes = total;
    return BF_OK;
}

/* ---- restore ------------------------------------------------------------- */

/* Whether a stored layer's bytes are what sizing gives for (capacity, fpp).
 * Equal to this build's answer, or, should another platform's libm have
 * rounded the model differently at a boundary, the fewest blocks meeting
 * the target by the model up to 1e-9 relative. */
static bool bytes_match(uint64_t capacity, double fpp, uint64_t expect, uint64_t got) {
    if (got == expect) return true;
    if (got < BF_SBBF_BLOCK_BYTES || got % BF_SBBF_BLOCK_BYTES || got > BF_SBBF_MAX_BYTES)
        return false;
    uint64_t z = got / BF_SBBF_BLOCK_BYTES;
    double ez = (double)expect / BF_SBBF_BLOCK_BYTES;
    if (fabs((double)z - ez) > 1.0) return false;
    if (!(bf__sbbf_fpp_blocks(z, (double)capacity) <= fpp * (1.0 + 1e-9))) return false;
    return z == 1 || bf__sbbf_fpp_blocks(z - 1, (double)capacity) > fpp * (1.0 - 1e-9);
}

/* Whether layer descriptions are what the parameters imply (see
 * bf_scalable_restore): BF_OK or BF_ECORRUPT. No allocation. */
static int check_descs(const scal_params *p, const bf_scalable_layer_desc *d, size_t n) {
    if (n < 1 || n > BF_SCALABLE_MAX_LAYERS) return BF_ECORRUPT;
    if ((p->flags & BF_SCALABLE_NONSCALING) && n != 1) return BF_ECORRUPT;
    uint64_t cap = p->capacity, total = 0, cap_sum = 0;
    double fpp = p->fpp0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && next_shape(p, cap, fpp, &cap, &fpp)) return BF_ECORRUPT;
        uint64_t bytes;
        if (layer_bytes(cap, fpp, &bytes)) return BF_ECORRUPT;
        if (d[i].capacity != cap || !bytes_match(cap, fpp, bytes, d[i].num_bytes))
            return BF_ECORRUPT;
        if (bf_add_overflow(total, d[i].num_bytes, &total) || total > BF_SCALABLE_MAX_BYTES)
            return BF_ECORRUPT;
        if (bf_add_overflow(cap_sum, cap, &cap_sum)) return BF_ECORRUPT;
        if (d[i].count > cap) return BF_ECORRUPT;
        if (i + 1 < n && d[i].count != cap) return BF_ECORRUPT;
        if (i + 1 == n && n > 1 && d[i].count == 0) return BF_ECORRUPT;
    }
    return BF_OK;
}

/* Creates the chain of checked descriptions: zeroed owned layers, or
 * (view_base != NULL) views over view_base + the layers' offsets,
 * contiguous in order. */
static int build_chain(bf_scalable **out, const scal_params *p, uint64_t seed,
                       const bf_scalable_layer_desc *d, size_t n, const uint8_t *view_base) {
    const char *kernel;
    int rc = default_kernel(&kernel);
    if (rc) return rc;
    bf_scalable *f;
    rc = chain_alloc(&f, p, seed, n, kernel);
    if (rc) return rc;
    uint64_t off = 0;
    double fpp = p->fpp0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0) fpp *= p->ratio; /* as next_shape did in check_descs */
        if (view_base) {
            bf_sbbf *s = NULL;
            rc = bf_sbbf_view_kernel(&s, view_base + off, (size_t)d[i].num_bytes, kernel);
            if (!rc) {
                s->seed = seed;
                f->layers[f->num_layers++] = (scal_layer){s, d[i].capacity, 0, fpp};
                f->capacity += d[i].capacity;
                f->num_bytes += d[i].num_bytes;
            }
            off += d[i].num_bytes;
        } else {
            rc = push_layer(f, d[i].capacity, fpp, d[i].num_bytes);
        }
        if (rc) {
            chain_destroy(f);
            return rc;
        }
        f->layers[i].count = d[i].count;
        f->count += d[i].count;
    }
    f->readonly = view_base != NULL;
    *out = f;
    return BF_OK;
}

int bf_scalable_restore(bf_scalable **out, const bf_scalable_params *params, uint64_t seed,
                        const bf_scalable_layer_desc *layers, size_t num_layers) {
    if (!out || (!layers && num_layers)) return BF_EINVAL;
    scal_params p;
    int rc = params_check(params, &p);
    if (rc) return rc;
    rc = check_descs(&p, layers, num_layers);
    return rc ? rc : build_chain(out, &p, seed, layers, num_layers, NULL);
}

int bf_scalable_write_layer(bf_scalable *f, size_t i, uint64_t offset, const void *src,
                            size_t len) {
    if (!f || (!src && len)) return BF_EINVAL;
    if (f->readonly) return BF_EREADONLY;
    if (i >= f->num_layers) return BF_EINVAL;
    bf_sbbf *s = f->layers[i].sbbf;
    uint64_t end;
    if (bf_add_overflow(offset, len, &end) || end > s->num_bytes) return BF_EINVAL;
    if (len) memcpy(s->bits + offset, src, len);
    return BF_OK;
}

/* ---- the native format: header words and payload ----------------------- */

static uint64_t double_bits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}
static double bits_double(uint64_t u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

void bf__scalable_native_params(const bf_scalable *f, uint64_t *p0, uint32_t *p1, uint32_t *p2,
                                uint32_t *p3) {
    *p0 = f->p.capacity;
    *p1 = f->p.expansion;
    *p2 = f->p.flags;
    *p3 = 0;
}

#define DIR_HEAD 32u
#define DIR_ENTRY 32u

uint64_t bf__scalable_payload_size(const bf_scalable *f) {
    return DIR_HEAD + DIR_ENTRY * (uint64_t)f->num_layers + f->num_bytes;
}

int bf__scalable_payload_encode(const bf_scalable *f, void *buf, size_t cap, size_t *written) {
    if (!f || !buf) return BF_EINVAL;
    uint64_t need = bf__scalable_payload_size(f);
    if (need > cap) return BF_EBUFSIZE;
    uint8_t *b = buf;
    memset(b, 0, DIR_HEAD + DIR_ENTRY * f->num_layers);
    bf_store_le64(b, f->num_layers);
    bf_store_le64(b + 8, double_bits(f->p.fpp));
    bf_store_le64(b + 16, double_bits(f->p.ratio));
    uint8_t *e = b + DIR_HEAD, *bits = e + DIR_ENTRY * f->num_layers;
    for (size_t i = 0; i < f->num_layers; i++, e += DIR_ENTRY) {
        const scal_layer *l = &f->layers[i];
        bf_store_le64(e, l->capacity);
        bf_store_le64(e + 8, l->count);
        bf_store_le64(e + 16, l->sbbf->num_bytes);
        memcpy(bits, l->sbbf->data, (size_t)l->sbbf->num_bytes);
        bits += l->sbbf->num_bytes;
    }
    if (written) *written = (size_t)need;
    return BF_OK;
}

/* A parsed payload head and directory. */
typedef struct parsed {
    scal_params p;
    bf_scalable_layer_desc d[BF_SCALABLE_MAX_LAYERS];
    size_t n;
    uint64_t dir; /* bytes before the first bitset */
} parsed;

/* The cheap checks: header words, head, directory, layer descriptions as
 * bf_scalable_restore checks them, exact length. Reads payload[0, len). */
static int parse(uint64_t p0, uint32_t p1, uint32_t p2, uint32_t p3, const uint8_t *b,
                 uint64_t len, parsed *out) {
    if (!b && len) return BF_EINVAL;
    if (len < DIR_HEAD) return BF_ETRUNCATED;
    bf_scalable_params in = {
        .capacity = p0,
        .fpp = bits_double(bf_load_le64(b + 8)),
        .expansion = p1,
        .ratio = bits_double(bf_load_le64(b + 16)),
        .flags = p2,
    };
    /* Stored parameters are explicit: no "0 = default". */
    if (p3 || in.expansion == 0 || in.ratio == 0.0 || bf_load_le64(b + 24)) return BF_ECORRUPT;
    if (params_check(&in, &out->p)) return BF_ECORRUPT;
    uint64_t n = bf_load_le64(b);
    if (n < 1 || n > BF_SCALABLE_MAX_LAYERS) return BF_ECORRUPT;
    out->n = (size_t)n;
    out->dir = DIR_HEAD + DIR_ENTRY * n;
    if (len < out->dir) return BF_ETRUNCATED;
    uint64_t total = out->dir;
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *e = b + DIR_HEAD + DIR_ENTRY * i;
        out->d[i].capacity = bf_load_le64(e);
        out->d[i].count = bf_load_le64(e + 8);
        out->d[i].num_bytes = bf_load_le64(e + 16);
        if (bf_load_le64(e + 24)) return BF_ECORRUPT;
        if (bf_add_overflow(total, out->d[i].num_bytes, &total)) return BF_ECORRUPT;
    }
    int rc = check_descs(&out->p, out->d, out->n);
    if (rc) return rc;
    if (len < total) return BF_ETRUNCATED;
    return len > total ? BF_ECORRUPT : BF_OK;
}

int bf__scalable_payload_check(uint64_t p0, uint32_t p1, uint32_t p2, uint32_t p3,
                               const uint8_t *payload, uint64_t len) {
    parsed ps;
    return parse(p0, p1, p2, p3, payload, len, &ps);
}

static uint64_t popcount_bytes(const uint8_t *p, uint64_t n) {
    uint64_t set = 0, i = 0;
    for (; i + 8 <= n; i += 8) set += (uint64_t)__builtin_popcountll(bf_load_le64(p + i));
    for (; i < n; i++) set += (uint64_t)__builtin_popcount(p[i]);
    return set;
}

/* Deep checks: a key sets at most 8 bits of its layer, so a layer holding
 * `count` keys has at most 8 count bits set (an empty layer none). */
int bf__scalable_payload_verify(uint64_t p0, uint32_t p1, uint32_t p2, uint32_t p3,
                                const uint8_t *payload, uint64_t len) {
    parsed ps;
    int rc = parse(p0, p1, p2, p3, payload, len, &ps);
    if (rc) return rc;
    const uint8_t *bits = payload + ps.dir;
    for (size_t i = 0; i < ps.n; i++) {
        if (popcount_bytes(bits, ps.d[i].num_bytes) > 8 * ps.d[i].count) return BF_ECORRUPT;
        bits += ps.d[i].num_bytes;
    }
    return BF_OK;
}

int bf__scalable_payload_decode(bf_scalable **out, uint64_t p0, uint32_t p1, uint32_t p2,
                                uint32_t p3, const uint8_t *payload, uint64_t len, uint64_t seed,
                                bool view) {
    if (!out) return BF_EINVAL;
    parsed ps;
    int rc = parse(p0, p1, p2, p3, payload, len, &ps);
    if (rc) return rc;
    bf_scalable *f;
    rc = build_chain(&f, &ps.p, seed, ps.d, ps.n, view ? payload + ps.dir : NULL);
    if (rc) return rc;
    if (!view) {
        const uint8_t *bits = payload + ps.dir;
        for (size_t i = 0; i < f->num_layers; i++) {
            bf_sbbf *s = f->layers[i].sbbf;
            memcpy(s->bits, bits, (size_t)s->num_bytes);
            bits += s->num_bytes;
        }
    }
    *out = f;
    return BF_OK;
}

uint64_t bf__scalable_least_inserts(const bf_scalable *f) {
    uint64_t least = 0;
    for (size_t i = 0; i < f->num_layers; i++) {
        const bf_sbbf *s = f->layers[i].sbbf;
        least += (popcount_bytes(s->data, s->num_bytes) + 7) / 8;
    }
    return least;
}
