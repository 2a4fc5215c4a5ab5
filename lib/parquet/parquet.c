/*
 * Parquet's Bloom filter serialisation: a Thrift-compact BloomFilterHeader
 * followed by the bitset.
 *
 *   struct BloomFilterHeader {
 *     1: required i32 numBytes;
 *     2: required BloomFilterAlgorithm algorithm;     union { 1: BLOCK }
 *     3: required BloomFilterHash hash;               union { 1: XXHASH }
 *     4: required BloomFilterCompression compression; union { 1: UNCOMPRESSED }
 *   }
 *
 * The reader uses the bounded Thrift-compact reader (thrift.h): it skips
 * unknown fields of any type, limits nesting, and never reads past len.
 */
#include "sbbf/sbbf.h"
#include "parquet/thrift.h"

typedef struct parquet_header {
    int64_t num_bytes;
    int16_t algorithm, hash, compression; /* union field ids; 0 = absent */
    int have_num_bytes;
} parquet_header;

static int read_header(bf_thrift_reader *r, parquet_header *h) {
    memset(h, 0, sizeof *h);
    int rc = bf_thrift_struct_begin(r);
    if (rc) return rc;
    int16_t last = 0, id;
    uint8_t type;
    while ((rc = bf_thrift_field_next(r, &last, &id, &type)) == 1) {
        if (id == 1 && type == BF_T_I32) {
            int32_t v;
            if ((rc = bf_thrift_read_i32(r, &v))) return rc;
            h->num_bytes = v;
            h->have_num_bytes = 1;
        } else if (id >= 2 && id <= 4 && type == BF_T_STRUCT) {
            int16_t which;
            if ((rc = bf_thrift_read_union_id(r, &which))) return rc;
            if (id == 2) h->algorithm = which;
            if (id == 3) h->hash = which;
            if (id == 4) h->compression = which;
        } else if ((rc = bf_thrift_skip(r, type))) {
            return rc;
        }
    }
    return rc;
}

/* The pre-release draft (parquet-format 54839ad5): three little-endian
 * uint32 (numBytes, hash strategy 0 = Murmur3, algorithm 0) + bitset. */
static int looks_legacy(const uint8_t *b, size_t len) {
    if (len < 12) return 0;
    uint32_t n = bf_load_le32(b), hash = bf_load_le32(b + 4), alg = bf_load_le32(b + 8);
    return n >= 32 && n % 32 == 0 && hash == 0 && alg == 0 && (uint64_t)n + 12 == len;
}

/* Parses and validates; *offset = where the bitset starts. */
static int parse(const void *buf, size_t len, uint64_t *num_bytes, size_t *offset) {
    if (!buf) return BF_EINVAL;
    /* A header is a few bytes; the limits only bound hostile input. */
    static const bf_thrift_limits lim = {
        .max_depth = 16, .max_string = 1u << 20, .max_count = 1u << 20, .max_work = 1u << 16};
    bf_thrift_reader r;
    bf_thrift_reader_init(&r, buf, len, &lim);
    parquet_header h;
    int rc = read_header(&r, &h);
    if (rc == BF_OK && !h.have_num_bytes && looks_legacy(buf, len)) return BF_EUNSUPPORTED;
    if (rc) return rc;
    if (!h.have_num_bytes || !h.algorithm || !h.hash) {
        if (looks_legacy(buf, len)) return BF_EUNSUPPORTED;
        return BF_EFORMAT;
    }
    if (h.algorithm != 1 || h.hash != 1) return BF_EUNSUPPORTED; /* BLOCK, XXHASH */
    if (h.compression != 0 && h.compression != 1) return BF_EUNSUPPORTED;
    if (h.num_bytes < (int64_t)BF_SBBF_BLOCK_BYTES || h.num_bytes % BF_SBBF_BLOCK_BYTES)
        return BF_ECORRUPT;
    size_t off = bf_thrift_offset(&r);
    if ((uint64_t)h.num_bytes > len - off) return BF_ETRUNCATED;
    *num_bytes = (uint64_t)h.num_bytes;
    *offset = off;
    return BF_OK;
}

/* A copy (view false) or a view of the filter in buf. */
static int from_parquet(bf_sbbf **out, const void *buf, size_t len, size_t *consumed, bool view) {
    if (!out) return BF_EINVAL;
    uint64_t num_bytes;
    size_t offset;
    int rc = parse(buf, len, &num_bytes, &offset);
    if (rc) return rc;
    const uint8_t *bitset = (const uint8_t *)buf + offset;
    rc = view ? bf_sbbf_view(out, bitset, (size_t)num_bytes)
              : bf__sbbf_new_copy(out, bitset, (size_t)num_bytes, 0);
    if (rc) return rc;
    if (consumed) *consumed = offset + (size_t)num_bytes;
    return BF_OK;
}

int bf_sbbf_from_parquet(bf_sbbf **out, const void *buf, size_t len, size_t *consumed) {
    return from_parquet(out, buf, len, consumed, false);
}

int bf_sbbf_view_parquet(bf_sbbf **out, const void *buf, size_t len, size_t *consumed) {
    return from_parquet(out, buf, len, consumed, true);
}

/* Header bytes for numBytes n: 0x15 zigzag-varint(n) then the three unions
 * (BLOCK, XXHASH, UNCOMPRESSED) and the stop byte. */
static size_t write_header(uint8_t *out, uint32_t n) {
    static const uint8_t tail[] = {0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00,
                                   0x1c, 0x1c, 0x00, 0x00, 0x00};
    size_t i = 0;
    out[i++] = 0x15;
    uint64_t z = (uint64_t)n << 1; /* zigzag of a positive i32 */
    do {
        uint8_t b = z & 0x7f;
        z >>= 7;
        out[i++] = (uint8_t)(b | (z ? 0x80 : 0));
    } while (z);
    memcpy(out + i, tail, sizeof tail);
    return i + sizeof tail;
}

/* The serialiser reads the filter through the SBBF API only. */
size_t bf_sbbf_parquet_size(const bf_sbbf *f) {
    if (!f || bf_sbbf_num_bytes(f) > 0x7fffffffu) return 0;
    uint8_t tmp[32];
    return write_header(tmp, (uint32_t)bf_sbbf_num_bytes(f)) + bf_sbbf_num_bytes(f);
}

int bf_sbbf_to_parquet(const bf_sbbf *f, void *buf, size_t cap, size_t *written) {
    if (!f || !buf) return BF_EINVAL;
    const size_t nb = bf_sbbf_num_bytes(f);
    if (nb > 0x7fffffffu) return BF_ETOOBIG; /* numBytes is an i32 */
    uint8_t head[32];
    size_t hl = write_header(head, (uint32_t)nb);
    if (cap < hl || cap - hl < nb) return BF_EBUFSIZE;
    memcpy(buf, head, hl);
    memcpy((uint8_t *)buf + hl, bf_sbbf_bitset(f), nb);
    if (written) *written = hl + nb;
    return BF_OK;
}
