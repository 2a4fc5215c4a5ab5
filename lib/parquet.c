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
 * The reader is a bounded Thrift-compact parser: it skips unknown fields,
 * limits nesting, and never reads past len.
 */
#include "sbbf.h"

enum {
    T_STOP = 0, T_TRUE = 1, T_FALSE = 2, T_BYTE = 3, T_I16 = 4, T_I32 = 5,
    T_I64 = 6, T_DOUBLE = 7, T_BINARY = 8, T_LIST = 9, T_SET = 10, T_MAP = 11,
    T_STRUCT = 12
};
#define MAX_DEPTH 16

typedef struct reader {
    const uint8_t *p, *end;
} reader;

static int read_byte(reader *r, uint8_t *b) {
    if (r->p >= r->end) return BF_ETRUNCATED;
    *b = *r->p++;
    return BF_OK;
}

static int read_varint(reader *r, uint64_t *out) {
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        uint8_t b;
        int rc = read_byte(r, &b);
        if (rc) return rc;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return BF_OK;
        }
    }
    return BF_EFORMAT; /* more than 10 bytes */
}

static int64_t unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

static int skip(reader *r, unsigned type, unsigned depth);

static int skip_struct(reader *r, unsigned depth) {
    if (depth > MAX_DEPTH) return BF_EFORMAT;
    for (;;) {
        uint8_t h;
        int rc = read_byte(r, &h);
        if (rc) return rc;
        if (h == T_STOP) return BF_OK;
        if ((h >> 4) == 0) { /* long form: zigzag i16 field id follows */
            uint64_t id;
            if ((rc = read_varint(r, &id))) return rc;
        }
        if ((rc = skip(r, h & 0x0f, depth + 1))) return rc;
    }
}

static int skip(reader *r, unsigned type, unsigned depth) {
    uint64_t v;
    int rc;
    if (depth > MAX_DEPTH) return BF_EFORMAT;
    switch (type) {
    case T_TRUE: case T_FALSE: return BF_OK;
    case T_BYTE: { uint8_t b; return read_byte(r, &b); }
    case T_I16: case T_I32: case T_I64: return read_varint(r, &v);
    case T_DOUBLE:
        if (r->end - r->p < 8) return BF_ETRUNCATED;
        r->p += 8;
        return BF_OK;
    case T_BINARY:
        if ((rc = read_varint(r, &v))) return rc;
        if (v > (uint64_t)(r->end - r->p)) return BF_ETRUNCATED;
        r->p += v;
        return BF_OK;
    case T_LIST: case T_SET: {
        uint8_t h;
        if ((rc = read_byte(r, &h))) return rc;
        uint64_t n = h >> 4;
        if (n == 15 && (rc = read_varint(r, &n))) return rc;
        /* Every element takes at least one byte, except booleans in lists;
         * bound the loop by what is left either way. */
        if (n > (uint64_t)(r->end - r->p) && (h & 0x0f) != T_TRUE && (h & 0x0f) != T_FALSE)
            return BF_ETRUNCATED;
        if ((h & 0x0f) == T_TRUE || (h & 0x0f) == T_FALSE) {
            if (n > (uint64_t)(r->end - r->p)) return BF_ETRUNCATED;
            r->p += n; /* one byte per boolean element */
            return BF_OK;
        }
        for (uint64_t i = 0; i < n; i++)
            if ((rc = skip(r, h & 0x0f, depth + 1))) return rc;
        return BF_OK;
    }
    case T_MAP: {
        if ((rc = read_varint(r, &v))) return rc;
        if (v == 0) return BF_OK;
        uint8_t kv;
        if ((rc = read_byte(r, &kv))) return rc;
        if (v > (uint64_t)(r->end - r->p)) return BF_ETRUNCATED;
        for (uint64_t i = 0; i < v; i++) {
            if ((rc = skip(r, kv >> 4, depth + 1))) return rc;
            if ((rc = skip(r, kv & 0x0f, depth + 1))) return rc;
        }
        return BF_OK;
    }
    case T_STRUCT: return skip_struct(r, depth + 1);
    default: return BF_EFORMAT;
    }
}

/* Reads a union (a struct with one field set); *which = the field id set,
 * its value is skipped (every member we know is an empty struct). */
static int read_union(reader *r, int *which) {
    *which = 0;
    int16_t last = 0;
    for (;;) {
        uint8_t h;
        int rc = read_byte(r, &h);
        if (rc) return rc;
        if (h == T_STOP) return BF_OK;
        int16_t id;
        if (h >> 4) {
            id = (int16_t)(last + (h >> 4));
        } else {
            uint64_t v;
            if ((rc = read_varint(r, &v))) return rc;
            id = (int16_t)unzigzag(v);
        }
        last = id;
        if (*which) return BF_EFORMAT; /* a union sets exactly one field */
        *which = id;
        if ((rc = skip(r, h & 0x0f, 1))) return rc;
    }
}

typedef struct parquet_header {
    int64_t num_bytes;
    int algorithm, hash, compression; /* union field ids; 0 = absent */
    int have_num_bytes;
} parquet_header;

static int read_header(reader *r, parquet_header *h) {
    memset(h, 0, sizeof *h);
    int16_t last = 0;
    for (;;) {
        uint8_t b;
        int rc = read_byte(r, &b);
        if (rc) return rc;
        if (b == T_STOP) return BF_OK;
        unsigned type = b & 0x0f;
        int16_t id;
        if (b >> 4) {
            id = (int16_t)(last + (b >> 4));
        } else {
            uint64_t v;
            if ((rc = read_varint(r, &v))) return rc;
            id = (int16_t)unzigzag(v);
        }
        last = id;
        if (id == 1 && type == T_I32) {
            uint64_t v;
            if ((rc = read_varint(r, &v))) return rc;
            if (v > 0xffffffffu) return BF_EFORMAT;
            h->num_bytes = unzigzag(v);
            h->have_num_bytes = 1;
        } else if (id >= 2 && id <= 4 && type == T_STRUCT) {
            int which;
            if ((rc = read_union(r, &which))) return rc;
            if (id == 2) h->algorithm = which;
            if (id == 3) h->hash = which;
            if (id == 4) h->compression = which;
        } else if ((rc = skip(r, type, 1))) {
            return rc;
        }
    }
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
    reader r = {buf, (const uint8_t *)buf + len};
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
    size_t off = (size_t)(r.p - (const uint8_t *)buf);
    if ((uint64_t)h.num_bytes > len - off) return BF_ETRUNCATED;
    *num_bytes = (uint64_t)h.num_bytes;
    *offset = off;
    return BF_OK;
}

int bf_sbbf_from_parquet_ex(bf_sbbf **out, const void *buf, size_t len, size_t *consumed) {
    if (!out) return BF_EINVAL;
    uint64_t nb;
    size_t off;
    int rc = parse(buf, len, &nb, &off);
    if (rc) return rc;
    if ((rc = bf__sbbf_new_copy(out, (const uint8_t *)buf + off, (size_t)nb))) return rc;
    if (consumed) *consumed = off + (size_t)nb;
    return BF_OK;
}

int bf_sbbf_from_parquet(bf_sbbf **out, const void *buf, size_t len) {
    return bf_sbbf_from_parquet_ex(out, buf, len, NULL);
}

int bf_sbbf_view_parquet(bf_sbbf **out, const void *buf, size_t len, size_t *consumed) {
    if (!out) return BF_EINVAL;
    uint64_t nb;
    size_t off;
    int rc = parse(buf, len, &nb, &off);
    if (rc) return rc;
    if ((rc = bf_sbbf_view(out, (const uint8_t *)buf + off, (size_t)nb))) return rc;
    if (consumed) *consumed = off + (size_t)nb;
    return BF_OK;
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
