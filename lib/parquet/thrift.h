/*
 * A bounded reader for Apache Thrift's compact protocol (the encoding of
 * every Parquet metadata structure). Internal; not installed. (The tests'
 * and the benchmark's Parquet files are written by tests/common/
 * thrift_writer.c; the library writes only the Bloom filter header, whose
 * few bytes parquet.c spells out.)
 *
 * Compact protocol, as the reader implements it:
 *  - field header: one byte, high nibble = id delta 1..15 from the previous
 *    field of the same struct, low nibble = type; delta 0 = long form, the
 *    id follows as a zigzag varint i16. Type 0 = STOP ends the struct.
 *  - bool fields carry their value in the type (1 = true, 2 = false); bool
 *    elements of lists, sets and maps are one byte each (1 true; 2 or 0
 *    false).
 *  - byte: one byte; i16, i32, i64: zigzag ULEB128 varints; double: eight
 *    bytes little-endian; binary/string: varint length then the bytes.
 *  - list/set: one byte, high nibble = size 0..14 (15 = size follows as a
 *    varint), low nibble = element type; then the elements.
 *  - map: varint size; if non-zero, one byte of key type << 4 | value type;
 *    then key, value pairs.
 *
 * The reader never reads past its buffer and enforces limits on nesting
 * depth, string length, collection counts and total work (values read or
 * skipped); it skips fields of any type it is not asked about. Errors:
 * BF_ETRUNCATED (input ends inside a value), BF_EFORMAT (bad type nibble,
 * over-long varint, integer out of its type's range), BF_ETOOBIG (a limit).
 */
#ifndef BF_THRIFT_H
#define BF_THRIFT_H

#include "common/internal.h"

#include <stdbool.h>

enum {
    BF_T_STOP = 0,
    BF_T_TRUE = 1, /* bool field true; the bool element type */
    BF_T_FALSE = 2,
    BF_T_BYTE = 3,
    BF_T_I16 = 4,
    BF_T_I32 = 5,
    BF_T_I64 = 6,
    BF_T_DOUBLE = 7,
    BF_T_BINARY = 8,
    BF_T_LIST = 9,
    BF_T_SET = 10,
    BF_T_MAP = 11,
    BF_T_STRUCT = 12
};

#define BF_THRIFT_MAX_DEPTH 64

typedef struct bf_thrift_limits {
    unsigned max_depth;    /* nested structs/collections, <= BF_THRIFT_MAX_DEPTH */
    uint64_t max_string;   /* bytes of one binary/string */
    uint64_t max_count;    /* elements of one list/set/map */
    uint64_t max_work;     /* values read or skipped in all */
} bf_thrift_limits;

typedef struct bf_thrift_reader {
    const uint8_t *start, *p, *end;
    unsigned depth;
    uint64_t work;
    bf_thrift_limits lim;
} bf_thrift_reader;

/* lim NULL: depth 32, strings up to the buffer, counts up to the buffer,
 * work 8 * len + 64 (every value takes at least one byte, so this is only
 * reached by inputs built to make the reader loop). */
BF_HIDDEN void bf_thrift_reader_init(bf_thrift_reader *r, const void *buf, size_t len,
                                     const bf_thrift_limits *lim);
static inline size_t bf_thrift_offset(const bf_thrift_reader *r) {
    return (size_t)(r->p - r->start);
}

/* The hot path (footer parsing) is inline below: varints, field headers,
 * integers and binaries. */
static inline int bf__thrift_work(bf_thrift_reader *r) {
    return BF_UNLIKELY(++r->work > r->lim.max_work) ? BF_ETOOBIG : BF_OK;
}

static inline int bf__thrift_varint(bf_thrift_reader *r, uint64_t *out) {
    const uint8_t *p = r->p, *end = r->end;
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
        if (BF_UNLIKELY(p >= end)) return BF_ETRUNCATED;
        uint8_t b = *p++;
        if (shift == 63 && b > 1) return BF_EFORMAT; /* more than 64 bits */
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            r->p = p;
            *out = v;
            return BF_OK;
        }
    }
    return BF_EFORMAT; /* more than 10 bytes */
}

static inline int64_t bf__thrift_unzigzag(uint64_t v) {
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Structs: begin (depth + 1), then field_next until it returns 0 (STOP),
 * which also ends the struct (depth - 1). *last is the previous field id of
 * this struct; start it at 0. field_next returns 1 with *id and *type for a
 * field, 0 at STOP, or a negative status. */
static inline int bf_thrift_struct_begin(bf_thrift_reader *r) {
    if (BF_UNLIKELY(r->depth >= r->lim.max_depth)) return BF_ETOOBIG;
    r->depth++;
    return bf__thrift_work(r);
}

static inline int bf_thrift_field_next(bf_thrift_reader *r, int16_t *last, int16_t *id,
                                       uint8_t *type) {
    if (BF_UNLIKELY(r->p >= r->end)) return BF_ETRUNCATED;
    uint8_t h = *r->p++;
    if (h == BF_T_STOP) {
        r->depth--;
        return 0;
    }
    int rc = bf__thrift_work(r);
    if (BF_UNLIKELY(rc)) return rc;
    uint8_t t = h & 0x0f;
    if (BF_UNLIKELY(t > BF_T_STRUCT)) return BF_EFORMAT;
    if (h >> 4) {
        *id = (int16_t)(*last + (h >> 4));
    } else {
        uint64_t v;
        if ((rc = bf__thrift_varint(r, &v))) return rc;
        int64_t s = bf__thrift_unzigzag(v);
        if (s < INT16_MIN || s > INT16_MAX) return BF_EFORMAT;
        *id = (int16_t)s;
    }
    *last = *id;
    *type = t;
    return 1;
}

/* Integers: zigzag varints, range-checked for their width. */
static inline int bf_thrift_read_i64(bf_thrift_reader *r, int64_t *v) {
    uint64_t u;
    int rc = bf__thrift_varint(r, &u);
    if (rc) return rc;
    *v = bf__thrift_unzigzag(u);
    return BF_OK;
}
static inline int bf_thrift_read_i32(bf_thrift_reader *r, int32_t *v) {
    uint64_t u;
    int rc = bf__thrift_varint(r, &u);
    if (rc) return rc;
    if (BF_UNLIKELY(u > 0xffffffffu)) return BF_EFORMAT;
    *v = (int32_t)bf__thrift_unzigzag(u);
    return BF_OK;
}
static inline int bf_thrift_read_i16(bf_thrift_reader *r, int16_t *v) {
    uint64_t u;
    int rc = bf__thrift_varint(r, &u);
    if (rc) return rc;
    if (BF_UNLIKELY(u > 0xffffu)) return BF_EFORMAT;
    *v = (int16_t)bf__thrift_unzigzag(u);
    return BF_OK;
}
static inline int bf_thrift_read_byte(bf_thrift_reader *r, int8_t *v) {
    if (BF_UNLIKELY(r->p >= r->end)) return BF_ETRUNCATED;
    *v = (int8_t)*r->p++;
    return BF_OK;
}
/* Binary/string: *data points into the buffer (no copy). */
static inline int bf_thrift_read_binary(bf_thrift_reader *r, const uint8_t **data,
                                        size_t *len) {
    uint64_t n;
    int rc = bf__thrift_varint(r, &n);
    if (rc) return rc;
    if (BF_UNLIKELY(n > r->lim.max_string)) return BF_ETOOBIG;
    if (BF_UNLIKELY(n > (uint64_t)(r->end - r->p))) return BF_ETRUNCATED;
    *data = r->p;
    *len = (size_t)n;
    r->p += n;
    return BF_OK;
}
BF_HIDDEN int bf_thrift_read_double(bf_thrift_reader *r, double *v);
/* A bool element of a list, set or map (one byte). */
BF_HIDDEN int bf_thrift_read_bool_elem(bf_thrift_reader *r, bool *v);

/* Lists and sets: begin gives the element type and count (checked against
 * the bytes left and max_count; depth + 1); read the elements, then end. */
BF_HIDDEN int bf_thrift_list_begin(bf_thrift_reader *r, uint8_t *elem_type, uint32_t *count);
BF_HIDDEN int bf_thrift_map_begin(bf_thrift_reader *r, uint8_t *key_type, uint8_t *val_type,
                                  uint32_t *count);
BF_HIDDEN void bf_thrift_collection_end(bf_thrift_reader *r);

/* Skips a field's value of the given type (bool fields: nothing to skip),
 * or one element of a collection (bools: one byte). */
BF_HIDDEN int bf_thrift_skip(bf_thrift_reader *r, uint8_t type);
BF_HIDDEN int bf_thrift_skip_elem(bf_thrift_reader *r, uint8_t type);

/* Reads a union of empty structs (Parquet's enumerations-as-unions, e.g.
 * BloomFilterAlgorithm): *which = the id of the one field set (0 if none);
 * a member that is not an empty struct is skipped and still counted. Two
 * fields set: BF_EFORMAT. */
BF_HIDDEN int bf_thrift_read_union_id(bf_thrift_reader *r, int16_t *which);

#endif
