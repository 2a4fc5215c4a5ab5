/* Little-endian field encoding of the module's dump headers (the same bytes
 * on every host), plus the header checksum. */
#ifndef BF_REDIS_CODEC_H
#define BF_REDIS_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <blockfilter.h>

typedef struct bfm_wr {
    uint8_t *p;
    size_t off;
} bfm_wr;

static inline void bfm_put8(bfm_wr *w, uint8_t v) { w->p[w->off++] = v; }
static inline void bfm_put32(bfm_wr *w, uint32_t v) {
    for (int i = 0; i < 4; i++) w->p[w->off++] = (uint8_t)(v >> (8 * i));
}
static inline void bfm_put64(bfm_wr *w, uint64_t v) {
    for (int i = 0; i < 8; i++) w->p[w->off++] = (uint8_t)(v >> (8 * i));
}
static inline void bfm_putf64(bfm_wr *w, double d) {
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    bfm_put64(w, v);
}

/* Reader: every get fails (returns false) past the end, and stays failed. */
typedef struct bfm_rd {
    const uint8_t *p;
    size_t len, off;
    bool bad;
} bfm_rd;

static inline bool bfm_take(bfm_rd *r, size_t n) {
    if (r->bad || r->len - r->off < n) {
        r->bad = true;
        return false;
    }
    return true;
}
static inline uint8_t bfm_get8(bfm_rd *r) {
    if (!bfm_take(r, 1)) return 0;
    return r->p[r->off++];
}
static inline uint32_t bfm_get32(bfm_rd *r) {
    if (!bfm_take(r, 4)) return 0;
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) v |= (uint32_t)r->p[r->off++] << (8 * i);
    return v;
}
static inline uint64_t bfm_get64(bfm_rd *r) {
    if (!bfm_take(r, 8)) return 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)r->p[r->off++] << (8 * i);
    return v;
}
static inline double bfm_getf64(bfm_rd *r) {
    uint64_t v = bfm_get64(r);
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

/* Appends the XXH64 (seed 0) of the bytes written so far. */
static inline void bfm_put_checksum(bfm_wr *w) { bfm_put64(w, bf_hash_xxh64(w->p, w->off)); }
/* Whether the last 8 bytes of buf are the XXH64 of the rest. */
static inline bool bfm_checksum_ok(const uint8_t *buf, size_t len) {
    if (len < 8) return false;
    bfm_rd r = {buf, len, len - 8, false};
    return bfm_get64(&r) == bf_hash_xxh64(buf, len - 8);
}

#endif
