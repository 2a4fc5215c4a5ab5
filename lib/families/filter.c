/*
 * One interface for every family: bf_filter is a family object behind its
 * table of operations (family.h), plus the one thing only the container
 * knows, the count of successful inserts. This file knows no family: every
 * call goes through the table, and an operation a family does not have
 * (a NULL entry) gets the one documented answer, unsupported().
 *
 * The native format (save/load/view) is in format.c, and specified, with
 * what each family stores, in docs/format.md.
 *
 * Thread safety: a bf_filter is as safe as its family's plain functions:
 * contains calls may run concurrently with each other; inserts, removes,
 * merge, clear need exclusive access, so the insert count is a plain
 * counter (saturating at UINT64_MAX, like merge's sum). For concurrent
 * inserts use bf_sbbf_insert_hash_concurrent /
 * bf_bloom_insert_hash_concurrent on bf_filter_sbbf() / bf_filter_bloom().
 */
#include "families/family.h"

#include <strings.h>

/* An operation the family does not have: BF_EUNSUPPORTED, except on a
 * read-only object, where every mutating call answers BF_EREADONLY. */
static int unsupported(const bf_filter *f) {
    return f->ops->is_readonly(f->obj) ? BF_EREADONLY : BF_EUNSUPPORTED;
}

/* ---- names and sizing ---------------------------------------------------- */

const char *bf_family_name(bf_family family) {
    const bf_family_ops *ops = bf__family_ops(family);
    return ops ? ops->name : NULL;
}

int bf_family_from_name(const char *name, bf_family *out) {
    if (!name || !out) return BF_EINVAL;
    for (size_t i = 0; i < bf__family_count(); i++) {
        const bf_family_ops *ops = bf__family_at(i);
        if (strcasecmp(name, ops->name) == 0 && bf__family_ops(ops->id)) {
            *out = ops->id;
            return BF_OK;
        }
    }
    return BF_EFAMILY;
}

int bf_size_for(bf_family family, uint64_t n, double fpp, bf_sizing *out) {
    if (!out || !bf_fpp_valid(fpp)) return BF_EINVAL;
    const bf_family_ops *ops = bf__family_ops(family);
    if (!ops) return BF_EFAMILY;
    bf_sizing s;
    memset(&s, 0, sizeof s);
    int rc = ops->size_for(n, fpp, &s);
    if (rc) return rc;
    if (s.num_bytes > (uint64_t)SIZE_MAX) return BF_ETOOBIG;
    s.family = family;
    s.bits_per_key = 8.0 * (double)s.num_bytes / (n ? (double)n : 1.0);
    *out = s;
    return BF_OK;
}

int bf_fpp_for(bf_family family, uint64_t num_bytes, uint64_t n, double *out_fpp) {
    if (!out_fpp || num_bytes == 0) return BF_EINVAL;
    const bf_family_ops *ops = bf__family_ops(family);
    return ops ? ops->fpp_for(num_bytes, n, out_fpp) : BF_EFAMILY;
}

/* ---- life cycle ---------------------------------------------------------- */

int bf__filter_wrap(bf_filter **out, const bf_family_ops *ops, void *obj, uint64_t inserted) {
    bf_filter *f = bf__calloc(1, sizeof *f);
    if (!f) {
        ops->destroy(obj);
        return BF_ENOMEM;
    }
    f->ops = ops;
    f->obj = obj;
    f->inserted = inserted;
    *out = f;
    return BF_OK;
}

int bf__filter_adopt(bf_filter **out, const bf_family_ops *ops, void *obj) {
    if (!out || !obj) return BF_EINVAL;
    if (ops->is_readonly(obj)) return BF_EREADONLY;
    bf_filter *f = bf__calloc(1, sizeof *f); /* not bf__filter_wrap: on failure */
    if (!f) return BF_ENOMEM;                 /* the caller keeps obj */
    f->ops = ops;
    f->obj = obj;
    *out = f;
    return BF_OK;
}

int bf_filter_new(bf_filter **out, bf_family family, uint64_t n, double fpp) {
    if (!out) return BF_EINVAL;
    const bf_family_ops *ops = bf__family_ops(family);
    if (!ops) return BF_EFAMILY;
    void *obj = NULL;
    int rc = ops->create(&obj, n, fpp);
    return rc ? rc : bf__filter_wrap(out, ops, obj, 0);
}

void bf_filter_free(bf_filter *f) {
    if (!f) return;
    f->ops->destroy(f->obj);
    if (f->release) f->release(f->release_base, f->release_len);
    bf__free(f);
}

bf_family bf_filter_family(const bf_filter *f) { return f->ops->id; }

/* ---- queries and updates ------------------------------------------------- */

int bf_filter_insert_hash(bf_filter *f, uint64_t hash) {
    if (!f) return BF_EINVAL;
    int rc = f->ops->insert(f->obj, hash);
    if (rc == BF_OK) bf__filter_count_inserts(f, 1);
    return rc;
}

bool bf_filter_contains_hash(const bf_filter *f, uint64_t hash) {
    return f->ops->contains(f->obj, hash);
}

int bf_filter_remove_hash(bf_filter *f, uint64_t hash) {
    if (!f) return BF_EINVAL;
    return f->ops->remove ? f->ops->remove(f->obj, hash) : unsupported(f);
}

int bf_filter_insert_hashes(bf_filter *f, const uint64_t *hashes, size_t n, size_t *done) {
    if (done) *done = 0;
    if (!f || (!hashes && n)) return BF_EINVAL;
    size_t inserted = 0;
    int rc = f->ops->insert_batch(f->obj, hashes, n, &inserted);
    bf__filter_count_inserts(f, inserted);
    if (done) *done = inserted;
    return rc;
}

int bf_filter_remove_hashes(bf_filter *f, const uint64_t *hashes, size_t n, size_t *done) {
    if (done) *done = 0;
    if (!f || (!hashes && n)) return BF_EINVAL;
    if (!f->ops->remove_batch) return unsupported(f);
    size_t removed = 0;
    int rc = f->ops->remove_batch(f->obj, hashes, n, &removed);
    if (done) *done = removed;
    return rc;
}

size_t bf_filter_contains_hashes(const bf_filter *f, const uint64_t *hashes, size_t n,
                                 uint8_t *out) {
    return n ? f->ops->contains_batch(f->obj, hashes, n, out) : 0;
}

uint64_t bf_filter_seed(const bf_filter *f) { return f->ops->seed(f->obj); }

uint64_t bf_filter_hash(const bf_filter *f, const void *data, size_t len) {
    return bf_hash_xxh64_seeded(data, len, bf_filter_seed(f));
}

int bf_filter_insert(bf_filter *f, const void *data, size_t len) {
    if (!f || (!data && len)) return BF_EINVAL;
    return bf_filter_insert_hash(f, bf_filter_hash(f, data, len));
}
bool bf_filter_contains(const bf_filter *f, const void *data, size_t len) {
    return bf_filter_contains_hash(f, bf_filter_hash(f, data, len));
}
int bf_filter_remove(bf_filter *f, const void *data, size_t len) {
    if (!f || (!data && len)) return BF_EINVAL;
    return bf_filter_remove_hash(f, bf_filter_hash(f, data, len));
}

size_t bf_filter_num_bytes(const bf_filter *f) { return (size_t)f->ops->num_bytes(f->obj); }

int bf_filter_set_seed(bf_filter *f, uint64_t seed) {
    if (!f) return BF_EINVAL;
    return f->ops->set_seed(f->obj, seed);
}

int bf_filter_clear(bf_filter *f) {
    if (!f) return BF_EINVAL;
    int rc = f->ops->clear(f->obj);
    if (rc == BF_OK) f->inserted = 0;
    return rc;
}

int bf_filter_merge(bf_filter *dst, const bf_filter *src) {
    if (!dst || !src) return BF_EINVAL;
    if (dst->ops != src->ops)
        return dst->ops->is_readonly(dst->obj) ? BF_EREADONLY : BF_EMISMATCH;
    if (!dst->ops->merge) return unsupported(dst);
    int rc = dst->ops->merge(dst->obj, src->obj);
    if (rc) return rc;
    bf__filter_count_inserts(dst, src->inserted);
    return BF_OK;
}

int bf_filter_get_stats(const bf_filter *f, bf_filter_stats *out) {
    if (!f || !out) return BF_EINVAL;
    bf_filter_stats st;
    memset(&st, 0, sizeof st);
    st.family = f->ops->id;
    st.num_bytes = f->ops->num_bytes(f->obj);
    st.inserted = f->inserted;
    st.kernel = "scalar";
    int rc = f->ops->stats(f->obj, &st);
    if (rc) return rc;
    *out = st;
    return BF_OK;
}
