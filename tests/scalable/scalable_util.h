/* Helpers shared by the scalable SBBF tests (criterion and plain C). */
#ifndef BF_SCALABLE_UTIL_H
#define BF_SCALABLE_UTIL_H

#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "families/family.h"
#include "families/scalable.h"
#include "testutil.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A whole chain as bytes: its native payload (directory, counts, every
 * bitset) through the family's table, and (w, may be NULL) the header's
 * family words. NULL if out of memory; free() it. */
static inline uint8_t *su_encode(const bf_scalable *f, size_t *len, bf_native_params *w) {
    size_t n = (size_t)bf__scalable_ops.payload_bytes(f);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf) return NULL;
    bf_native_params p;
    bf__scalable_ops.encode(f, w ? w : &p, buf);
    *len = n;
    return buf;
}
/* For byte-for-byte comparisons of chains. */
static inline uint8_t *su_snapshot(const bf_scalable *f, size_t *len) {
    return su_encode(f, len, NULL);
}
/* A chain from a payload and its words (the table's decode). */
static inline int su_decode(bf_scalable **out, const bf_native_params *w, const uint8_t *buf,
                            size_t len, uint64_t seed, bool view) {
    void *o = NULL;
    int rc = bf__scalable_ops.decode(out ? &o : NULL, w, buf, len, seed, view);
    if (rc == BF_OK) *out = o;
    return rc;
}

/* Whether two chains hold the same layers, counts and bits. */
static inline bool su_same(const bf_scalable *a, const bf_scalable *b) {
    size_t la = 0, lb = 0;
    uint8_t *sa = su_snapshot(a, &la), *sb = su_snapshot(b, &lb);
    bool same = sa && sb && la == lb && memcmp(sa, sb, la) == 0;
    free(sa);
    free(sb);
    return same;
}

/* Compound model FPR of the chain as filled: 1 - prod(1 - model(bytes_i,
 * count_i)), each layer at the exact SBBF model for its own keys. */
static inline double su_compound_model(const bf_scalable *f) {
    bf_scalable_stats info;
    if (bf_scalable_get_stats(f, &info) != BF_OK) return NAN;
    double pass = 1.0;
    for (size_t i = 0; i < info.num_layers; i++) {
        bf_scalable_layer l;
        if (bf_scalable_get_layer(f, i, &l) != BF_OK) return NAN;
        pass *= 1.0 - bf_sbbf_model_fpp(bf_sbbf_num_bytes(l.sbbf), l.count);
    }
    return 1.0 - pass;
}

/* n distinct pseudo-random hashes from a stream (seed picks the stream). */
static inline uint64_t *su_hashes(uint64_t seed, size_t n) {
    uint64_t *h = malloc((n ? n : 1) * sizeof *h);
    if (!h) return NULL;
    for (size_t i = 0; i < n; i++) h[i] = tu_next(&seed);
    return h;
}

#endif
