/*
 * The scalable SBBF family: a chain of SBBF layers (Almeida et al. 2007).
 * include/blockfilter_advanced.h ("Scalable SBBF") has the contract and
 * docs/families.md ("Scalable SBBF") the derivation of the layer targets.
 *
 * The family's row in the generic layer (bf_filter, the native format) is
 * bf__scalable_ops at the end of this file (lib/families/family.h has the
 * contract): create is bf_scalable_new with capacity n and the default
 * expansion and ratio; insert is insert-if-absent (BF_EFULL on a full
 * non-scaling chain); stats count bits over every layer and report the
 * chain's FPR as it stands; remove and merge are absent (see below); the
 * native payload is a directory of layers and their bitsets (format
 * section below). bf_filter_scalable / bf_filter_from_scalable reach and
 * wrap a chain.
 *
 * Representation: an array of layers, oldest first, each an SBBF object
 * (owned, or a view) with its capacity, count and target, reached through
 * the SBBF's internal API (lib/sbbf/sbbf.h), never its fields. Every layer
 * uses the kernel the chain was created with (the chain keeps the kernel
 * itself, not its name), so a chain's bits and answers do not depend on
 * when it grew. The byte-string seed lives in the chain and
 * is copied into each layer's SBBF, so bf_sbbf_contains on a layer from
 * bf_scalable_get_layer hashes as the chain does.
 */
#include "families/scalable.h"

#include "families/family.h"
#include "sbbf/sbbf.h"

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
    const bf_kernel *kernel; /* every layer's kernel */
    double max_bits_per_key; /* growth guard (bf_scalable_set_growth_limit); 0 = none */
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
                       const bf_kernel *kernel) {
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

/* Appends a layer over sbbf (bytes long); f must have room for it. */
static void append_layer(bf_scalable *f, bf_sbbf *sbbf, uint64_t capacity, double fpp,
                         uint64_t bytes) {
    f->layers[f->num_layers++] = (scal_layer){.sbbf = sbbf, .capacity = capacity, .fpp = fpp};
    f->capacity += capacity;
    f->num_bytes += bytes;
}

/* Appends an owned, zeroed layer; f must have room for it. */
static int push_layer(bf_scalable *f, uint64_t capacity, double fpp, uint64_t bytes) {
    bf_sbbf *sbbf = NULL;
    if (bytes > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    int rc = bf__sbbf_new_kernel(&sbbf, (size_t)bytes, f->kernel, f->seed);
    if (rc) return rc;
    append_layer(f, sbbf, capacity, fpp, bytes);
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
    const bf_kernel *kernel = bf__sbbf_kernel_default();
    if (!kernel) return BF_EKERNEL;
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
    if (f->max_bits_per_key > 0 && (double)bytes * 8.0 > f->max_bits_per_key * (double)cap)
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

static inline bool layer_contains(const scal_layer *layer, uint64_t hash) {
    return bf__sbbf_contains_hash(layer->sbbf, hash);
}

/* Every layer, answers OR-ed: no branch on an answer. Stopping at the first
 * hit put a branch on a 50/50 answer in every lookup, and its
 * mispredictions stopped the CPU from overlapping one key's memory access
 * with the next key's (a one-layer chain's single-key lookups ran 2.8x
 * slower at 50 % present keys; docs/families.md, "Lookups"). */
bool bf_scalable_contains_hash(const bf_scalable *f, uint64_t hash) {
    if (!f) return false;
    bool hit = false;
    for (size_t i = f->num_layers; i-- > 0;) hit |= layer_contains(&f->layers[i], hash);
    return hit;
}

bool bf_scalable_contains(const bf_scalable *f, const void *data, size_t len) {
    if (!f || (!data && len)) return false;
    return bf_scalable_contains_hash(f, bf_hash_xxh64_seeded(data, len, f->seed));
}

/* Keys per batch step: the compaction buffers live on the stack. */
#define CHUNK 256

/* out[j] = 1 if some layer of [0, end) may hold hashes[j], for n <= CHUNK
 * keys; returns the number of 1s. Newest layer first over every key, then
 * each older layer over the keys still undecided, compacted so the
 * kernel's batch loop runs over contiguous hashes. (bench/bench_scalable.cc
 * measured this against OR-ing every layer and one key at a time.) */
static size_t contains_undecided(const bf_scalable *f, size_t end, const uint64_t *hashes,
                                 size_t n, uint8_t *out) {
    size_t found = bf__sbbf_contains_hashes(f->layers[end - 1].sbbf, hashes, n, out);
    if (end == 1 || found == n) return found;
    uint64_t undecided[CHUNK];
    uint16_t undecided_at[CHUNK];
    uint8_t hits[CHUNK];
    size_t num_undecided = 0;
    for (size_t j = 0; j < n; j++) {
        undecided[num_undecided] = bf_sbbf_load_hash(hashes + j);
        undecided_at[num_undecided] = (uint16_t)j;
        num_undecided += !out[j];
    }
    for (size_t layer = end - 1; layer-- > 0 && num_undecided;) {
        size_t got = bf__sbbf_contains_hashes(f->layers[layer].sbbf, undecided, num_undecided, hits);
        if (!got) continue;
        found += got;
        size_t num_left = 0;
        for (size_t t = 0; t < num_undecided; t++) {
            out[undecided_at[t]] |= hits[t];
            undecided[num_left] = undecided[t];
            undecided_at[num_left] = undecided_at[t];
            num_left += !hits[t];
        }
        num_undecided = num_left;
    }
    return found;
}

size_t bf_scalable_contains_hashes(const bf_scalable *f, const uint64_t *hashes, size_t n,
                                   uint8_t *out) {
    if (!f || !n || !hashes) return 0;
    uint8_t discarded[CHUNK];
    size_t found = 0;
    for (size_t i = 0; i < n; i += CHUNK) {
        size_t m = n - i < CHUNK ? n - i : CHUNK;
        found += contains_undecided(f, f->num_layers, hashes + i, m, out ? out + i : discarded);
    }
    return found;
}

/* ---- inserts ------------------------------------------------------------- */

/* Writes a key known to be absent from every layer into the newest,
 * growing first if it is full. Nothing changes on failure. */
static int insert_new(bf_scalable *f, uint64_t hash) {
    scal_layer *newest = &f->layers[f->num_layers - 1];
    if (newest->count >= newest->capacity) {
        int rc = grow(f);
        if (rc) return rc;
        newest = &f->layers[f->num_layers - 1];
    }
    bf__sbbf_insert_hash(newest->sbbf, hash);
    newest->count++;
    f->count++;
    return BF_OK;
}

int bf_scalable_insert_hash(bf_scalable *f, uint64_t hash, bool *added) {
    if (!f) return BF_EINVAL;
    if (f->readonly) return BF_EREADONLY;
    if (bf_scalable_contains_hash(f, hash)) {
        if (added) *added = false;
        return BF_OK;
    }
    int rc = insert_new(f, hash);
    if (rc) return rc;
    if (added) *added = true;
    return BF_OK;
}

int bf_scalable_insert(bf_scalable *f, const void *data, size_t len, bool *added) {
    if (!f || (!data && len)) return BF_EINVAL;
    return bf_scalable_insert_hash(f, bf_hash_xxh64_seeded(data, len, f->seed), added);
}

/* In steps of CHUNK keys: the layers older than the newest at the start of
 * the step do not change during it, so they are probed for the whole step
 * with the batch lookup; then each key, in order, is checked against the
 * newest layer(s) (which this step's keys change) and written if absent.
 * The outcome is exactly that of n single inserts. */
int bf_scalable_insert_hashes(bf_scalable *f, const uint64_t *hashes, size_t n, uint8_t *added,
                           size_t *done) {
    if (done) *done = 0;
    if (!f || (!hashes && n)) return BF_EINVAL;
    if (f->readonly) return BF_EREADONLY;
    uint8_t in_older[CHUNK];
    for (size_t i = 0; i < n; i += CHUNK) {
        size_t m = n - i < CHUNK ? n - i : CHUNK;
        size_t base = f->num_layers - 1; /* newest at the step's start */
        if (base > 0)
            contains_undecided(f, base, hashes + i, m, in_older);
        else
            memset(in_older, 0, m);
        for (size_t j = 0; j < m; j++) {
            uint64_t h = bf_sbbf_load_hash(hashes + i + j);
            bool present = in_older[j];
            for (size_t layer = f->num_layers; !present && layer-- > base;)
                present = layer_contains(&f->layers[layer], h);
            if (!present) {
                int rc = insert_new(f, h);
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

int bf_scalable_set_seed(bf_scalable *f, uint64_t seed) {
    if (!f) return BF_EINVAL;
    if (f->readonly) return BF_EREADONLY;
    if (seed == f->seed) return BF_OK;
    if (f->count) return BF_EINVAL;
    for (size_t i = 0; i < f->num_layers; i++)
        if (!bf__sbbf_is_clear(f->layers[i].sbbf)) return BF_EINVAL;
    f->seed = seed;
    for (size_t i = 0; i < f->num_layers; i++) bf_sbbf_set_seed(f->layers[i].sbbf, seed);
    return BF_OK;
}

uint64_t bf_scalable_seed(const bf_scalable *f) { return f ? f->seed : 0; }

int bf_scalable_set_growth_limit(bf_scalable *f, double max_bits_per_key) {
    if (!f || !(max_bits_per_key >= 0.0)) return BF_EINVAL; /* also NaN */
    f->max_bits_per_key = max_bits_per_key;
    return BF_OK;
}

int bf_scalable_clear(bf_scalable *f) {
    if (!f) return BF_EINVAL;
    if (f->readonly) return BF_EREADONLY;
    while (f->num_layers > 1) {
        scal_layer *dropped = &f->layers[--f->num_layers];
        f->capacity -= dropped->capacity;
        f->num_bytes -= bf_sbbf_num_bytes(dropped->sbbf);
        bf_sbbf_free(dropped->sbbf);
        *dropped = (scal_layer){.sbbf = NULL};
    }
    bf_sbbf_clear(f->layers[0].sbbf);
    f->layers[0].count = 0;
    f->count = 0;
    return BF_OK;
}

/* Set bits over every layer, and the pass probabilities (1 - FPR) of the
 * chain as it stands (each layer's exact FPR from its bits) and at
 * capacity (each layer's exact model at its capacity). O(bytes). */
static void chain_state(const bf_scalable *f, uint64_t *set, double *pass_now,
                        double *pass_bound) {
    *set = 0;
    *pass_now = *pass_bound = 1.0;
    for (size_t i = 0; i < f->num_layers; i++) {
        const scal_layer *l = &f->layers[i];
        bf_sbbf_stats st;
        bf_sbbf_get_stats(l->sbbf, &st);
        *set += st.bits_set;
        *pass_now *= 1.0 - st.est_fpp;
        *pass_bound *= 1.0 - bf_sbbf_model_fpp(bf_sbbf_num_bytes(l->sbbf), l->capacity);
    }
}

int bf_scalable_get_stats(const bf_scalable *f, bf_scalable_stats *out) {
    if (!f || !out) return BF_EINVAL;
    uint64_t set;
    double pass_now, pass_bound;
    chain_state(f, &set, &pass_now, &pass_bound);
    bf_scalable_stats info = {
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
    *out = (bf_scalable_layer){
        .capacity = l->capacity, .count = l->count, .fpp = l->fpp, .sbbf = l->sbbf};
    return BF_OK;
}

/* ---- sizing and the model ------------------------------------------------ */

/* The generic layer's n is the initial capacity; 0 (which the other
 * families size as at least one key) is taken as 1. */
static uint64_t initial_capacity(uint64_t n) { return n ? n : 1; }

/* bf_size_for: layer 0 of the default chain for (n, fpp), and its exact
 * model at n keys (= the chain's bound_fpp while it holds n). */
static int size_for(uint64_t n, double fpp, bf_sizing *out) {
    bf_scalable_params in = {.capacity = initial_capacity(n), .fpp = fpp};
    scal_params p;
    int rc = params_check(&in, &p);
    if (rc) return rc;
    uint64_t bytes;
    rc = layer_bytes(p.capacity, p.fpp0, &bytes);
    if (rc) return rc;
    if (bytes > BF_SCALABLE_MAX_BYTES) return BF_ETOOBIG;
    out->num_bytes = bytes;
    out->k = 8;
    out->fp_bits = 0;
    out->model_fpp = bf_sbbf_model_fpp(bytes, p.capacity);
    return BF_OK;
}

/* bf_fpp_for: n keys in one layer of num_bytes (a chain reserved at n or
 * more, or non-scaling, spending everything on one layer): the SBBF's
 * model. */
static int fpp_for(uint64_t num_bytes, uint64_t n, double *out) {
    if (num_bytes < BF_SBBF_BLOCK_BYTES) return BF_EINVAL;
    *out = bf__sbbf_fpp_blocks(num_bytes / BF_SBBF_BLOCK_BYTES, (double)n);
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
    const bf_kernel *kernel = bf__sbbf_kernel_default();
    if (!kernel) return BF_EKERNEL;
    bf_scalable *f;
    int rc = chain_alloc(&f, p, seed, n, kernel);
    if (rc) return rc;
    uint64_t off = 0;
    double fpp = p->fpp0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0) fpp *= p->ratio; /* as next_shape did in check_descs */
        if (view_base) {
            bf_sbbf *view = NULL;
            rc = bf__sbbf_view_kernel(&view, view_base + off, (size_t)d[i].num_bytes, kernel, seed);
            if (!rc) append_layer(f, view, d[i].capacity, fpp, d[i].num_bytes);
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
    bf_sbbf *layer = f->layers[i].sbbf;
    uint64_t end;
    if (bf_add_overflow(offset, len, &end) || end > bf_sbbf_num_bytes(layer)) return BF_EINVAL;
    bf__sbbf_write_bytes(layer, offset, src, len);
    return BF_OK;
}

/* ---- the native format ----------------------------------------------------
 *
 * Header family words: p0 = capacity (u64), p1 = expansion, p2 = flags,
 * p3 = 0 (u32 each). Payload (all integers little-endian; sizes in bytes):
 *   +0   u64 num_layers (1..BF_SCALABLE_MAX_LAYERS)
 *   +8   f64 fpp (IEEE-754 binary64 bits), the requested compound target
 *   +16  f64 ratio (binary64 bits)
 *   +24  u64 reserved, zero
 *   +32  num_layers directory entries of 32 bytes, oldest layer first:
 *          u64 capacity, u64 count, u64 num_bytes, u64 reserved (zero)
 *   then the layers' bitsets in the same order, each num_bytes bytes in
 *   Parquet's layout (blocks of eight little-endian 32-bit words).
 * The doubles travel in the payload because the header's p1..p3 are 32-bit.
 * The directory keeps every bitset at a multiple of 32 bytes from the
 * payload start (after the 64-byte native header: 32-byte aligned in a
 * mapped file).
 *
 * check (cheap, always on load and view): the words and the head valid as
 * bf_scalable_new's parameters (no "0 = default"), reserved words zero, the
 * layer descriptions exactly as bf_scalable_restore checks them, len
 * exactly the directory plus the bitsets -> BF_ECORRUPT / BF_ETRUNCATED.
 * verify (deep, O(bytes)): no layer with more than 8 x count bits set.
 * decode runs the cheap checks itself. A view's layers are SBBF views over
 * the payload (no copy), and the chain is read-only.
 */

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

#define DIR_HEAD 32u
#define DIR_ENTRY 32u

static uint64_t payload_bytes(const void *o) {
    const bf_scalable *f = o;
    return DIR_HEAD + DIR_ENTRY * (uint64_t)f->num_layers + f->num_bytes;
}

static void encode(const void *o, bf_native_params *w, uint8_t *b) {
    const bf_scalable *f = o;
    w->p0 = f->p.capacity;
    w->p1 = f->p.expansion;
    w->p2 = f->p.flags;
    w->p3 = 0;
    memset(b, 0, DIR_HEAD + DIR_ENTRY * f->num_layers);
    bf_store_le64(b, f->num_layers);
    bf_store_le64(b + 8, double_bits(f->p.fpp));
    bf_store_le64(b + 16, double_bits(f->p.ratio));
    uint8_t *e = b + DIR_HEAD, *bits = e + DIR_ENTRY * f->num_layers;
    for (size_t i = 0; i < f->num_layers; i++, e += DIR_ENTRY) {
        const scal_layer *l = &f->layers[i];
        bf_store_le64(e, l->capacity);
        bf_store_le64(e + 8, l->count);
        size_t size = bf_sbbf_num_bytes(l->sbbf);
        bf_store_le64(e + 16, size);
        memcpy(bits, bf_sbbf_bitset(l->sbbf), size);
        bits += size;
    }
}

/* A parsed payload head and directory. */
typedef struct parsed {
    scal_params p;
    bf_scalable_layer_desc d[BF_SCALABLE_MAX_LAYERS];
    size_t n;
    uint64_t dir; /* bytes before the first bitset */
} parsed;

/* The cheap checks: header words, head, directory, layer descriptions as
 * bf_scalable_restore checks them, exact length. Reads b[0, len). */
static int parse(const bf_native_params *w, const uint8_t *b, uint64_t len, parsed *out) {
    if (!b && len) return BF_EINVAL;
    if (len < DIR_HEAD) return BF_ETRUNCATED;
    bf_scalable_params in = {
        .capacity = w->p0,
        .fpp = bits_double(bf_load_le64(b + 8)),
        .expansion = w->p1,
        .ratio = bits_double(bf_load_le64(b + 16)),
        .flags = w->p2,
    };
    /* Stored parameters are explicit: no "0 = default". */
    if (w->p3 || in.expansion == 0 || in.ratio == 0.0 || bf_load_le64(b + 24)) return BF_ECORRUPT;
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
    if (total > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    if (len < total) return BF_ETRUNCATED;
    return len > total ? BF_ECORRUPT : BF_OK;
}

static int check(const bf_native_params *w, const uint8_t *payload, uint64_t len) {
    parsed ps;
    return parse(w, payload, len, &ps);
}

/* Deep checks: a key sets at most 8 bits of its layer, so a layer holding
 * `count` keys has at most 8 count bits set (an empty layer none). */
static int verify(const bf_native_params *w, const uint8_t *payload, uint64_t len) {
    parsed ps;
    int rc = parse(w, payload, len, &ps);
    if (rc) return rc;
    const uint8_t *bits = payload + ps.dir;
    for (size_t i = 0; i < ps.n; i++) {
        if (bf__popcount_bytes(bits, ps.d[i].num_bytes) > 8 * ps.d[i].count) return BF_ECORRUPT;
        bits += ps.d[i].num_bytes;
    }
    return BF_OK;
}

static int decode(void **out, const bf_native_params *w, const uint8_t *payload, uint64_t len,
                  uint64_t seed, bool view) {
    if (!out) return BF_EINVAL;
    parsed ps;
    int rc = parse(w, payload, len, &ps);
    if (rc) return rc;
    bf_scalable *f;
    rc = build_chain(&f, &ps.p, seed, ps.d, ps.n, view ? payload + ps.dir : NULL);
    if (rc) return rc;
    if (!view) {
        const uint8_t *bits = payload + ps.dir;
        for (size_t i = 0; i < f->num_layers; i++) {
            size_t size = bf_sbbf_num_bytes(f->layers[i].sbbf);
            bf__sbbf_write_bytes(f->layers[i].sbbf, 0, bits, size);
            bits += size;
        }
    }
    *out = f;
    return BF_OK;
}

/* Every key written was one successful insert: the directory's counts (which
 * verify has checked against the bits) are the least inserts. */
static uint64_t least_inserts(const void *o) { return ((const bf_scalable *)o)->count; }

/* ---- the family's table ---------------------------------------------------- */

static int create(void **out, uint64_t n, double fpp) {
    bf_scalable_params in = {.capacity = initial_capacity(n), .fpp = fpp};
    bf_scalable *f = NULL;
    int rc = bf_scalable_new(&f, &in);
    if (rc == BF_OK) *out = f;
    return rc;
}
static void destroy(void *o) { bf_scalable_free(o); }

/* Insert-if-absent: a key the chain may hold already is not written, and the
 * call still succeeds (the generic insert count counts calls). */
static int insert(void *o, uint64_t h) { return bf_scalable_insert_hash(o, h, NULL); }
static bool contains(const void *o, uint64_t h) { return bf_scalable_contains_hash(o, h); }
static int insert_batch(void *o, const uint64_t *h, size_t n, size_t *done) {
    return bf_scalable_insert_hashes(o, h, n, NULL, done);
}
static size_t contains_batch(const void *o, const uint64_t *h, size_t n, uint8_t *out) {
    return bf_scalable_contains_hashes(o, h, n, out);
}
static int clear(void *o) { return bf_scalable_clear(o); }

/* cells: bits over every layer; est_keys: the keys written (exact);
 * est_fpp: the chain's FPR as it stands. O(bytes). */
static int stats(const void *o, bf_filter_stats *st) {
    const bf_scalable *f = o;
    uint64_t set;
    double pass_now, pass_bound;
    chain_state(f, &set, &pass_now, &pass_bound);
    st->cells = f->num_bytes * 8u;
    st->cells_set = set;
    st->fill_ratio = (double)set / (double)st->cells;
    st->est_keys = (double)f->count;
    st->est_fpp = 1.0 - pass_now;
    st->k = 8;
    st->fp_bits = 0;
    st->kernel = f->kernel->name;
    return BF_OK;
}

static uint64_t num_bytes(const void *o) { return ((const bf_scalable *)o)->num_bytes; }
static bool is_readonly(const void *o) { return ((const bf_scalable *)o)->readonly; }
static uint64_t seed(const void *o) { return bf_scalable_seed(o); }
static int set_seed(void *o, uint64_t s) { return bf_scalable_set_seed(o, s); }

const bf_family_ops bf__scalable_ops = {
    .version = BF_FAMILY_OPS_VERSION,
    .id = BF_FAMILY_SCALABLE,
    .name = "scalable",
    .size_for = size_for,
    .fpp_for = fpp_for,
    .create = create,
    .destroy = destroy,
    .insert = insert,
    .contains = contains,
    .insert_batch = insert_batch,
    .contains_batch = contains_batch,
    /* No remove: a key's bits may be shared with other keys of its layer. */
    .remove = NULL,
    .remove_batch = NULL,
    .clear = clear,
    /* No merge. Layer-wise OR would put up to twice a layer's capacity in
     * it (every layer but the newest is full by construction), and
     * appending one chain's layers to the other's compounds two FPRs of up
     * to fpp each: either way the chain would no longer honour its target,
     * which is the family's one promise. Add the keys instead. */
    .merge = NULL,
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
};

/* ---- the scalable SBBF in the generic interface ---------------------------- */

bf_scalable *bf_filter_scalable(bf_filter *f) { return bf__filter_object(f, &bf__scalable_ops); }

int bf_filter_from_scalable(bf_filter **out, bf_scalable *chain) {
    return bf__filter_adopt(out, &bf__scalable_ops, chain);
}
