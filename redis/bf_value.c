#include "bf_value.h"

#include <stdlib.h>

#include "codec.h"

/* Bookkeeping per layer beside its bitset (the chain's entry and the SBBF
 * object), counted by MEMORY USAGE. */
#define LAYER_OVERHEAD 128u

int bfm_bf_new(bfm_bf **out, const bf_scalable_params *params, uint64_t seed) {
    bf_scalable_params p = *params;
    if (p.expansion == 0) p.expansion = BF_SCALABLE_DEFAULT_EXPANSION;
    if (p.ratio == 0) p.ratio = BF_SCALABLE_DEFAULT_RATIO;
    bfm_bf *b = calloc(1, sizeof *b);
    if (!b) return BF_ENOMEM;
    int rc = bf_scalable_new(&b->sc, &p);
    if (rc == BF_OK && seed) rc = bf_scalable_set_seed(b->sc, seed);
    if (rc == BF_OK) rc = bf_scalable_set_growth_limit(b->sc, BFM_BF_MAX_BITS_PER_ITEM);
    if (rc != BF_OK) {
        bf_scalable_free(b->sc);
        free(b);
        return rc;
    }
    b->params = p;
    *out = b;
    return BF_OK;
}

void bfm_bf_free(bfm_bf *b) {
    if (!b) return;
    bf_scalable_free(b->sc);
    free(b);
}

size_t bfm_bf_num_layers(const bfm_bf *b) {
    bf_scalable_layer l;
    size_t n = 0;
    while (bf_scalable_get_layer(b->sc, n, &l) == BF_OK) n++;
    return n;
}

const uint8_t *bfm_bf_layer(const bfm_bf *b, size_t i, uint64_t *num_bytes) {
    bf_scalable_layer l;
    if (bf_scalable_get_layer(b->sc, i, &l) != BF_OK) {
        *num_bytes = 0;
        return NULL;
    }
    *num_bytes = bf_sbbf_num_bytes(l.sbbf);
    return bf_sbbf_bitset(l.sbbf);
}

uint64_t bfm_bf_total_bytes(const bfm_bf *b) {
    bf_scalable_layer l;
    uint64_t sum = 0;
    for (size_t i = 0; bf_scalable_get_layer(b->sc, i, &l) == BF_OK; i++)
        sum += bf_sbbf_num_bytes(l.sbbf);
    return sum;
}

uint64_t bfm_bf_capacity(const bfm_bf *b) {
    bf_scalable_layer l;
    uint64_t sum = 0;
    for (size_t i = 0; bf_scalable_get_layer(b->sc, i, &l) == BF_OK; i++) sum += l.capacity;
    return sum;
}

uint64_t bfm_bf_count(const bfm_bf *b) {
    bf_scalable_layer l;
    uint64_t sum = 0;
    for (size_t i = 0; bf_scalable_get_layer(b->sc, i, &l) == BF_OK; i++) sum += l.count;
    return sum;
}

size_t bfm_bf_mem_usage(const bfm_bf *b) {
    return sizeof *b + 256u + bfm_bf_num_layers(b) * (size_t)LAYER_OVERHEAD +
           (size_t)bfm_bf_total_bytes(b);
}

size_t bfm_bf_header_size(const bfm_bf *b) { return 48 + 24 * bfm_bf_num_layers(b) + 8; }

void bfm_bf_header_write(const bfm_bf *b, uint8_t *buf) {
    size_t n = bfm_bf_num_layers(b);
    bfm_wr w = {buf, 0};
    for (int i = 0; i < 4; i++) bfm_put8(&w, (uint8_t)BFM_BF_MAGIC[i]);
    bfm_put8(&w, BFM_BF_HEADER_VERSION);
    bfm_put8(&w, (uint8_t)(b->params.flags & BF_SCALABLE_NONSCALING ? 1 : 0));
    bfm_put8(&w, 0);
    bfm_put8(&w, 0);
    bfm_put32(&w, b->params.expansion);
    bfm_put32(&w, (uint32_t)n);
    bfm_putf64(&w, b->params.fpp);
    bfm_putf64(&w, b->params.ratio);
    bfm_put64(&w, b->params.capacity);
    bfm_put64(&w, bf_scalable_seed(b->sc));
    for (size_t i = 0; i < n; i++) {
        bf_scalable_layer l;
        bf_scalable_get_layer(b->sc, i, &l);
        bfm_put64(&w, l.capacity);
        bfm_put64(&w, l.count);
        bfm_put64(&w, bf_sbbf_num_bytes(l.sbbf));
    }
    bfm_put_checksum(&w);
}

int bfm_bf_from_header(bfm_bf **out, const void *buf, size_t len) {
    if (!buf || len < 56 || memcmp(buf, BFM_BF_MAGIC, 4) != 0) return BF_EFORMAT;
    bfm_rd r = {buf, len, 4, false};
    uint8_t version = bfm_get8(&r);
    if (version > BFM_BF_HEADER_VERSION) return BF_EVERSION;
    if (version == 0) return BF_EFORMAT;
    uint8_t flags = bfm_get8(&r);
    uint8_t res0 = bfm_get8(&r), res1 = bfm_get8(&r);
    bf_scalable_params p = {0};
    p.expansion = bfm_get32(&r);
    uint32_t n = bfm_get32(&r);
    p.fpp = bfm_getf64(&r);
    p.ratio = bfm_getf64(&r);
    p.capacity = bfm_get64(&r);
    uint64_t seed = bfm_get64(&r);
    if (n == 0 || n > BFM_BF_MAX_LAYERS || len != 48 + 24 * (size_t)n + 8) return BF_EFORMAT;
    if (!bfm_checksum_ok(buf, len)) return BF_ECORRUPT;
    /* Stored parameters are the effective ones: 0 ("the default") never. */
    if ((flags & ~1u) || res0 || res1 || p.expansion == 0 || !(p.ratio > 0 && p.ratio < 1))
        return BF_ECORRUPT;
    p.flags = (flags & 1u) ? BF_SCALABLE_NONSCALING : 0;
    bf_scalable_layer_desc *d = calloc(n, sizeof *d);
    if (!d) return BF_ENOMEM;
    for (uint32_t i = 0; i < n; i++) {
        d[i].capacity = bfm_get64(&r);
        d[i].count = bfm_get64(&r);
        d[i].num_bytes = bfm_get64(&r);
    }
    bfm_bf *b = calloc(1, sizeof *b);
    if (!b) {
        free(d);
        return BF_ENOMEM;
    }
    int rc = bf_scalable_restore(&b->sc, &p, seed, d, n);
    free(d);
    if (rc == BF_OK) rc = bf_scalable_set_growth_limit(b->sc, BFM_BF_MAX_BITS_PER_ITEM);
    if (rc != BF_OK) {
        bfm_bf_free(b);
        return rc;
    }
    b->params = p;
    *out = b;
    return BF_OK;
}

/* ---- The dump description ---- */

static size_t ops_header_size(const void *v) { return bfm_bf_header_size(v); }
static void ops_header_write(const void *v, uint8_t *buf) { bfm_bf_header_write(v, buf); }
static int ops_from_header(void **out, const void *buf, size_t len) {
    bfm_bf *b = NULL;
    int rc = bfm_bf_from_header(&b, buf, len);
    *out = b;
    return rc;
}
static size_t ops_num_parts(const void *v) { return bfm_bf_num_layers(v); }
static const uint8_t *ops_part(const void *v, size_t i, uint64_t *len) {
    return bfm_bf_layer(v, i, len);
}
static int ops_write_part(void *v, size_t i, uint64_t off, const void *src, size_t len) {
    return bf_scalable_write_layer(((bfm_bf *)v)->sc, i, off, src, len);
}
static void ops_free(void *v) { bfm_bf_free(v); }

const bfm_dump_ops bfm_bf_ops = {
    .what = "BF",
    .loadchunk_cmd = "BF.LOADCHUNK",
    .encver = 1,
    .header_size = ops_header_size,
    .header_write = ops_header_write,
    .from_header = ops_from_header,
    .num_parts = ops_num_parts,
    .part = ops_part,
    .write_part = ops_write_part,
    .free = ops_free,
};
