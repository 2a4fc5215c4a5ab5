/*
 * The native container: header, checks, versioning, save, load and view,
 * for every family, driven by the family's table (family.h). The format is
 * specified in docs/format.md; this file is its only implementation.
 *
 * Loading runs, in order: the header (bf__header_read); the family's cheap
 * check of p0..p3 and the payload length; the exact input length; then, for
 * load and for views with BF_VIEW_VERIFY_PAYLOAD, the payload check, the
 * family's deep verify, and the insert-count plausibility. Every read stays
 * within [buf, buf + len).
 */
#include "format/format.h"

/* ---- header -------------------------------------------------------------- */

static uint32_t header_check(const uint8_t h[BF_HEADER_BYTES]) {
    uint8_t tmp[BF_HEADER_BYTES];
    memcpy(tmp, h, sizeof tmp);
    memset(tmp + 44, 0, 4);
    return (uint32_t)bf_hash_xxh64(tmp, sizeof tmp);
}

void bf__header_write(uint8_t out[BF_HEADER_BYTES], const bf_native_header *h) {
    memset(out, 0, BF_HEADER_BYTES);
    memcpy(out, BF_MAGIC, 4);
    bf_store_le16(out + 4, h->version);
    out[6] = h->family;
    out[7] = h->flags;
    bf_store_le64(out + 8, h->seed);
    bf_store_le64(out + 16, h->inserted);
    bf_store_le64(out + 24, h->params.p0);
    bf_store_le32(out + 32, h->params.p1);
    bf_store_le32(out + 36, h->params.p2);
    bf_store_le32(out + 40, h->params.p3);
    bf_store_le64(out + 48, h->payload_len);
    bf_store_le64(out + 56, h->payload_check);
    bf_store_le32(out + 44, header_check(out));
}

int bf__header_read(const void *buf, size_t len, bf_native_header *h) {
    if (!buf || !h) return BF_EINVAL;
    const uint8_t *b = buf;
    if (len < 4) return len == 0 ? BF_ETRUNCATED : (memcmp(b, BF_MAGIC, len) ? BF_EFORMAT : BF_ETRUNCATED);
    if (memcmp(b, BF_MAGIC, 4) != 0) return BF_EFORMAT;
    if (len < BF_HEADER_BYTES) return BF_ETRUNCATED;
    if (bf_load_le32(b + 44) != header_check(b)) return BF_ECORRUPT;
    h->version = bf_load_le16(b + 4);
    if (h->version < 1 || h->version > BF_FORMAT_VERSION) return BF_EVERSION;
    h->family = b[6];
    h->flags = b[7];
    if (!bf__family_ops((bf_family)h->family)) return BF_EFAMILY;
    if (h->flags & ~BF_FLAG_KEYED) return BF_ECORRUPT;
    h->seed = bf_load_le64(b + 8);
    /* The keyed flag is set iff the seed is not 0 (what the writer does). */
    if (!(h->flags & BF_FLAG_KEYED) != (h->seed == 0)) return BF_ECORRUPT;
    h->inserted = bf_load_le64(b + 16);
    h->params.p0 = bf_load_le64(b + 24);
    h->params.p1 = bf_load_le32(b + 32);
    h->params.p2 = bf_load_le32(b + 36);
    h->params.p3 = bf_load_le32(b + 40);
    h->params.version = h->version;
    h->payload_len = bf_load_le64(b + 48);
    h->payload_check = bf_load_le64(b + 56);
    if (h->payload_len > len - BF_HEADER_BYTES) return BF_ETRUNCATED;
    return BF_OK;
}

uint64_t bf__payload_check(const void *payload, size_t len) {
    return bf_hash_xxh64(payload, len);
}

/* ---- save ---------------------------------------------------------------- */

/* The lowest format version that holds an object's image (family.h). */
static unsigned image_version(const bf_family_ops *ops, const void *obj) {
    return ops->format_version ? ops->format_version(obj) : 1u;
}

size_t bf_filter_save_size(const bf_filter *f) {
    if (!f) return 0;
    uint64_t total;
    if (bf_add_overflow(f->ops->payload_bytes(f->obj), BF_HEADER_BYTES, &total) ||
        total > (uint64_t)SIZE_MAX)
        return 0;
    return (size_t)total;
}

int bf_filter_save(const bf_filter *f, void *buf, size_t cap, size_t *written) {
    if (!f || !buf) return BF_EINVAL;
    size_t need = bf_filter_save_size(f);
    if (!need) return BF_ETOOBIG;
    if (cap < need) return BF_EBUFSIZE;
    uint8_t *out = buf;
    uint8_t *payload = out + BF_HEADER_BYTES;
    bf_native_header h;
    memset(&h, 0, sizeof h);
    h.family = (uint8_t)f->ops->id;
    h.seed = f->ops->seed(f->obj);
    h.flags = h.seed ? BF_FLAG_KEYED : 0;
    h.payload_len = need - BF_HEADER_BYTES;
    /* The lowest version that can express the filter. */
    h.version = (uint16_t)image_version(f->ops, f->obj);
    h.params.version = h.version;
    f->ops->encode(f->obj, &h.params, payload);
    /* The recorded count, raised to the least the content implies, so that
     * filters filled through the family functions save images that load. */
    uint64_t least = f->ops->least_inserts(f->obj);
    h.inserted = f->inserted > least ? f->inserted : least;
    h.payload_check = bf__payload_check(payload, (size_t)h.payload_len);
    bf__header_write(out, &h);
    if (written) *written = need;
    return BF_OK;
}

/* ---- load and view ------------------------------------------------------- */

/* Header, parameters and exact length: O(1) (or O(metadata)), always. */
static int parse(const void *buf, size_t len, bf_native_header *h, const bf_family_ops **ops) {
    int rc = bf__header_read(buf, len, h);
    if (rc) return rc;
    *ops = bf__family_ops((bf_family)h->family);
    const uint8_t *payload = (const uint8_t *)buf + BF_HEADER_BYTES;
    if ((rc = (*ops)->check(&h->params, payload, h->payload_len))) return rc;
    /* Exactly header + payload: trailing bytes are refused too. */
    if ((uint64_t)len - BF_HEADER_BYTES != h->payload_len) return BF_ECORRUPT;
    return BF_OK;
}

/* Payload check and content: O(size). */
static int verify(const bf_native_header *h, const bf_family_ops *ops, const uint8_t *payload) {
    if (bf__payload_check(payload, (size_t)h->payload_len) != h->payload_check)
        return BF_ECORRUPT;
    return ops->verify(&h->params, payload, h->payload_len);
}

/* The object of a parsed image, wrapped; with `verified`, also the
 * insert-count plausibility (no content below what `inserted` can explain). */
static int build(bf_filter **out, const bf_native_header *h, const bf_family_ops *ops,
                 const uint8_t *payload, bool view, bool verified) {
    void *obj = NULL;
    int rc = ops->decode(&obj, &h->params, payload, h->payload_len, h->seed, view);
    if (rc) return rc;
    /* A filter is saved in the lowest version that can express it, so an
     * image under another number is refused (saving it again would change
     * the header). */
    if (h->version != image_version(ops, obj)) {
        ops->destroy(obj);
        return BF_ECORRUPT;
    }
    if (verified && ops->least_inserts(obj) > h->inserted) {
        ops->destroy(obj);
        return BF_ECORRUPT;
    }
    return bf__filter_wrap(out, ops, obj, h->inserted);
}

int bf_filter_load(bf_filter **out, const void *buf, size_t len) {
    if (!out || !buf) return BF_EINVAL;
    bf_native_header h;
    const bf_family_ops *ops = NULL;
    const uint8_t *payload = (const uint8_t *)buf + BF_HEADER_BYTES;
    int rc = parse(buf, len, &h, &ops);
    if (!rc) rc = verify(&h, ops, payload);
    if (!rc) rc = build(out, &h, ops, payload, false, true);
    return rc;
}

int bf__filter_view_owned(bf_filter **out, const void *buf, size_t len, unsigned flags,
                          void (*release)(void *, size_t), void *base, size_t base_len) {
    if (!out || !buf) return BF_EINVAL;
    if (flags & ~BF_VIEW_VERIFY_PAYLOAD) return BF_EINVAL;
    bf_native_header h;
    const bf_family_ops *ops = NULL;
    const uint8_t *payload = (const uint8_t *)buf + BF_HEADER_BYTES;
    const bool deep = (flags & BF_VIEW_VERIFY_PAYLOAD) != 0;
    int rc = parse(buf, len, &h, &ops);
    if (!rc && deep) rc = verify(&h, ops, payload);
    bf_filter *f = NULL;
    if (!rc) rc = build(&f, &h, ops, payload, true, deep);
    if (rc) return rc;
    f->release = release;
    f->release_base = base;
    f->release_len = base_len;
    *out = f;
    return BF_OK;
}

int bf_filter_view(bf_filter **out, const void *buf, size_t len, unsigned flags) {
    return bf__filter_view_owned(out, buf, len, flags, NULL, NULL, 0);
}
