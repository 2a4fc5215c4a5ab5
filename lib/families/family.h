/*
 * A filter family as the generic layer sees it: one constant table of
 * operations per family, exported by the family's own file, and one
 * registry row per family (family.c). filter.c (bf_filter_*) and format.c
 * (the native container) are driven by these tables alone; neither knows
 * any family. docs/families.md, "Adding a family", is the how-to.
 *
 * Conventions for every operation (obj is the family object):
 *  - A mutating operation on a read-only object (a view) returns
 *    BF_EREADONLY and changes nothing.
 *  - Optional operations may be NULL. The facade then answers
 *    BF_EUNSUPPORTED, or BF_EREADONLY if the object is read-only (the
 *    read-only rule wins, so every mutating call on a view gives the same
 *    answer whatever the family supports).
 *  - Nothing here allocates except create and decode; nothing prints.
 */
#ifndef BF_FAMILY_H
#define BF_FAMILY_H

#include "common/internal.h"

#include <stdbool.h>

/* The version of the table layout. A row carries the version it was written
 * for; the registry refuses rows of another version (bf__family_ops returns
 * NULL for them), so a family written for an older layout cannot be called
 * through fields it does not have. New optional fields go at the end, with
 * a version bump. */
#define BF_FAMILY_OPS_VERSION 3u

/* An array of keys (hash/key_batch.h): typed values or Arrow byte strings. */
struct bf_keys;

/* The family parameters of the native header (p0..p3, docs/format.md): each
 * family says what they mean for it. */
typedef struct bf_native_params {
    uint64_t p0;
    uint32_t p1, p2, p3;
    /* The file's format version, for check (save writes the family's
     * format_version; docs/format.md). */
    unsigned version;
} bf_native_params;

typedef struct bf_family_ops {
    unsigned version;     /* BF_FAMILY_OPS_VERSION */
    bf_family id;         /* the public enum value, also the header's byte 6 */
    const char *name;     /* bf_family_name(), bf_family_from_name() */

    /* --- sizing (no object) ---------------------------------------------- */
    /* What create(n, fpp) allocates: fills num_bytes, k, fp_bits, model_fpp
     * (the facade fills family and bits_per_key). fpp is valid. */
    int (*size_for)(uint64_t n, double fpp, bf_sizing *out);
    /* Model FPR of a num_bytes (> 0) filter holding n keys with the best
     * parameters for that size. */
    int (*fpp_for)(uint64_t num_bytes, uint64_t n, double *out_fpp);

    /* --- life cycle ------------------------------------------------------ */
    int (*create)(void **out, uint64_t n, double fpp);
    void (*destroy)(void *obj);

    /* --- queries and updates --------------------------------------------- */
    int (*insert)(void *obj, uint64_t hash);
    bool (*contains)(const void *obj, uint64_t hash);
    /* In order, stopping at the first failure; *done = keys inserted (always
     * set). hashes may be misaligned. */
    int (*insert_batch)(void *obj, const uint64_t *hashes, size_t n, size_t *done);
    /* out may be NULL; returns the number of hits. */
    size_t (*contains_batch)(const void *obj, const uint64_t *hashes, size_t n, uint8_t *out);
    /* Optional (NULL: the family cannot remove). BF_OK or BF_ENOTFOUND. */
    int (*remove)(void *obj, uint64_t hash);
    /* Optional, present exactly when remove is: as insert_batch. */
    int (*remove_batch)(void *obj, const uint64_t *hashes, size_t n, size_t *done);
    int (*clear)(void *obj);
    /* Optional. dst |= src for objects of this family; BF_EMISMATCH when
     * size, parameters or seed differ. */
    int (*merge)(void *dst, const void *src);
    /* Fills cells, cells_set, fill_ratio, est_keys, est_fpp, k, fp_bits and
     * kernel (the facade has set family, num_bytes, inserted, and kernel to
     * "scalar"). */
    int (*stats)(const void *obj, bf_filter_stats *out);
    /* The filter's memory (bf_filter_num_bytes, bf_filter_stats.num_bytes): its
     * bits, counters or slots; payload_bytes may add metadata (a cuckoo
     * trailer, a scalable chain's directory of layers). */
    uint64_t (*num_bytes)(const void *obj);
    bool (*is_readonly)(const void *obj);

    /* --- the byte-string seed: the family object is its one owner -------- */
    uint64_t (*seed)(const void *obj);
    /* Empty filters only (BF_EINVAL otherwise, so no key is lost). */
    int (*set_seed)(void *obj, uint64_t seed);

    /* --- the native payload (format.c wraps it in the container) --------- */
    /* Exact payload length save writes. */
    uint64_t (*payload_bytes)(const void *obj);
    /* Writes p0..p3 and the payload (payload_bytes(obj) bytes). */
    void (*encode)(const void *obj, bf_native_params *p, uint8_t *payload);
    /* Cheap checks, always run on load and view: parameters valid and within
     * the family's limits (BF_ECORRUPT / BF_ETOOBIG), len exactly what they
     * imply (BF_ECORRUPT), and any fixed-size metadata in the payload (a
     * trailer, a table of layers). Reads only payload[0, len). */
    int (*check)(const bf_native_params *p, const uint8_t *payload, uint64_t len);
    /* Deep checks of a payload that passed check (O(size)): padding clear,
     * metadata consistent with the content. BF_ECORRUPT otherwise. */
    int (*verify)(const bf_native_params *p, const uint8_t *payload, uint64_t len);
    /* An object from a checked payload: a private copy, or (view) a
     * read-only object reading payload in place (any alignment; the caller
     * keeps it alive). The seed comes from the header. */
    int (*decode)(void **out, const bf_native_params *p, const uint8_t *payload, uint64_t len,
                  uint64_t seed, bool view);
    /* The least number of inserts that can explain the content (set bits
     * over bits per key, counter sum over k, stored fingerprints): save
     * raises the recorded count to it, load refuses images below it. */
    uint64_t (*least_inserts)(const void *obj);

    /* --- keys in, answers out (version 2) -------------------------------- */
    /* Optional, both or neither: typed values or Arrow byte strings whose
     * offsets the facade has checked, hashed with the object's seed, for a
     * family with a faster way than the facade's (which hashes a chunk at a
     * time into insert_batch / contains_batch): the SBBF hashes with its
     * own hash kernel and prefetches into its bitset. insert_keys is as
     * insert_batch (in order, *done always set); contains_keys as
     * contains_batch. */
    int (*insert_keys)(void *obj, const struct bf_keys *keys, size_t n, size_t *done);
    size_t (*contains_keys)(const void *obj, const struct bf_keys *keys, size_t n, uint8_t *out);

    /* --- the native format version (version 3) --------------------------- */
    /* Optional (NULL: 1): the lowest native format version that holds the
     * object's image. save writes it; load and view refuse an image whose
     * header says another (BF_ECORRUPT): less, and a reader of an older
     * version would meet parameters it does not know under a version it
     * does; more, and saving would not give the image back. */
    unsigned (*format_version)(const void *obj);
} bf_family_ops;

/* The families' tables (each in its family's file). */
BF_HIDDEN extern const bf_family_ops bf__sbbf_ops;
BF_HIDDEN extern const bf_family_ops bf__bloom_ops;
BF_HIDDEN extern const bf_family_ops bf__counting_ops;
BF_HIDDEN extern const bf_family_ops bf__cuckoo_ops;
BF_HIDDEN extern const bf_family_ops bf__scalable_ops;
BF_HIDDEN extern const bf_family_ops bf__blocked_ops;

/* The registry (family.c): the table of a family id, or NULL if unknown. */
BF_HIDDEN const bf_family_ops *bf__family_ops(bf_family id);
/* Row i of the registry (0 <= i < bf__family_count()), for iteration. */
BF_HIDDEN size_t bf__family_count(void);
BF_HIDDEN const bf_family_ops *bf__family_at(size_t i);

/* The generic object: a family object behind its table, plus what only the
 * container knows (the recorded insert count) and, for mapped files, the
 * memory to release. Shared by filter.c (the facade), filter_keys.c and
 * format.c. */
struct bf_filter {
    const bf_family_ops *ops;
    void *obj;
    /* Successful inserts recorded, saturating at UINT64_MAX. A plain
     * counter: inserts need exclusive access (concurrent inserts go
     * through the families' _concurrent calls, which it does not see). */
    uint64_t inserted;
    void (*release)(void *, size_t);
    void *release_base;
    size_t release_len;
};

/* Records n more successful inserts, saturating. */
static inline void bf__filter_count_inserts(bf_filter *f, uint64_t n) {
    if (bf_add_overflow(f->inserted, n, &f->inserted)) f->inserted = UINT64_MAX;
}

/* The family object of f if f's family is ops, else NULL: what the public
 * accessors bf_filter_<family>() return, each defined in its family's file. */
static inline void *bf__filter_object(const bf_filter *f, const bf_family_ops *ops) {
    return f && f->ops == ops ? f->obj : NULL;
}

/* Wraps obj (a family object of ops); on failure obj is destroyed. */
BF_HIDDEN int bf__filter_wrap(bf_filter **out, const bf_family_ops *ops, void *obj,
                              uint64_t inserted);
/* The public bf_filter_from_<family>(): wraps a caller's writable object
 * (BF_EINVAL for NULL, BF_EREADONLY for a read-only one); on failure the
 * caller keeps obj. The insert count starts at 0 (save raises it to
 * least_inserts). */
BF_HIDDEN int bf__filter_adopt(bf_filter **out, const bf_family_ops *ops, void *obj);

/* Shared by families whose payload is a plain array of bytes. */
static inline uint64_t bf__popcount_bytes(const uint8_t *p, uint64_t n) {
    uint64_t set = 0, i = 0;
    for (; i + 8 <= n; i += 8) set += (uint64_t)__builtin_popcountll(bf_load_le64(p + i));
    for (; i < n; i++) set += (uint64_t)__builtin_popcount(p[i]);
    return set;
}
/* ceil(units / per): the least inserts that set `units` cells at `per`
 * cells per insert at most. */
static inline uint64_t bf__least_inserts(uint64_t units, uint64_t per) {
    return units / per + (units % per != 0);
}

/* A batch as a loop over a single-key operation, in order, stopping at the
 * first failure; *done = keys done. For families without a faster batch.
 * A read-only object refuses the whole batch. */
static inline int bf__batch_loop(void *obj, bool readonly, const uint64_t *hashes, size_t n,
                                 size_t *done, int (*one)(void *, uint64_t)) {
    int rc = readonly ? BF_EREADONLY : BF_OK;
    size_t i = 0;
    if (readonly) n = 0;
    for (; i < n; i++) {
        uint64_t h;
        memcpy(&h, hashes + i, sizeof h); /* any alignment */
        if ((rc = one(obj, h)) != BF_OK) break;
    }
    *done = i;
    return rc;
}

#endif
