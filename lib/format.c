/* The native format's header: see format.h for the layout. */
#include "format.h"

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
    bf_store_le64(out + 24, h->p0);
    bf_store_le32(out + 32, h->p1);
    bf_store_le32(out + 36, h->p2);
    bf_store_le32(out + 40, h->p3);
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
    if (h->version != BF_FORMAT_VERSION) return BF_EVERSION;
    h->family = b[6];
    h->flags = b[7];
    if (h->family < BF_FAMILY_SBBF || h->family > BF_FAMILY_CUCKOO) return BF_EFAMILY;
    if (h->flags & ~BF_FLAG_KEYED) return BF_ECORRUPT;
    h->seed = bf_load_le64(b + 8);
    /* The keyed flag is set iff the seed is not 0 (what the writer does). */
    if (!(h->flags & BF_FLAG_KEYED) != (h->seed == 0)) return BF_ECORRUPT;
    h->inserted = bf_load_le64(b + 16);
    h->p0 = bf_load_le64(b + 24);
    h->p1 = bf_load_le32(b + 32);
    h->p2 = bf_load_le32(b + 36);
    h->p3 = bf_load_le32(b + 40);
    h->payload_len = bf_load_le64(b + 48);
    h->payload_check = bf_load_le64(b + 56);
    if (h->payload_len > len - BF_HEADER_BYTES) return BF_ETRUNCATED;
    return BF_OK;
}

uint64_t bf__payload_check(const void *payload, size_t len) {
    return bf_hash_xxh64(payload, len);
}
