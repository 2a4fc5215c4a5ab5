/*
 * Thrift compact protocol: the bounded reader's cold paths (skipping,
 * collections, unions). See thrift.h for the encoding.
 */
#include "parquet/thrift.h"

void bf_thrift_reader_init(bf_thrift_reader *r, const void *buf, size_t len,
                           const bf_thrift_limits *lim) {
    r->start = r->p = (const uint8_t *)buf;
    r->end = r->start + (buf ? len : 0);
    r->depth = 0;
    r->work = 0;
    if (lim) {
        r->lim = *lim;
        if (r->lim.max_depth > BF_THRIFT_MAX_DEPTH) r->lim.max_depth = BF_THRIFT_MAX_DEPTH;
    } else {
        r->lim.max_depth = 32;
        r->lim.max_string = len;
        r->lim.max_count = len;
        r->lim.max_work = 8 * (uint64_t)len + 64;
    }
}

int bf_thrift_read_double(bf_thrift_reader *r, double *v) {
    if (r->end - r->p < 8) return BF_ETRUNCATED;
    uint64_t u = bf_load_le64(r->p);
    memcpy(v, &u, sizeof *v);
    r->p += 8;
    return BF_OK;
}

int bf_thrift_read_bool_elem(bf_thrift_reader *r, bool *v) {
    if (r->p >= r->end) return BF_ETRUNCATED;
    uint8_t b = *r->p++;
    if (b > 2) return BF_EFORMAT;
    *v = b == 1;
    return BF_OK;
}

/* Element types a collection may hold: every value type (not STOP). */
static int elem_type_ok(uint8_t t) { return t >= BF_T_TRUE && t <= BF_T_STRUCT; }

/* Every element takes at least one byte, so a count above the bytes left
 * is a truncation (and never an allocation the input did not pay for). */
static int check_count(bf_thrift_reader *r, uint64_t n) {
    if (n > (uint64_t)(r->end - r->p)) return BF_ETRUNCATED;
    if (n > r->lim.max_count) return BF_ETOOBIG;
    if (r->depth >= r->lim.max_depth) return BF_ETOOBIG;
    r->depth++;
    return bf__thrift_work(r);
}

int bf_thrift_list_begin(bf_thrift_reader *r, uint8_t *elem_type, uint32_t *count) {
    if (r->p >= r->end) return BF_ETRUNCATED;
    uint8_t h = *r->p++;
    uint64_t n = h >> 4;
    int rc;
    if (n == 15) {
        if ((rc = bf__thrift_varint(r, &n))) return rc;
        if (n > UINT32_MAX) return BF_ETOOBIG;
    }
    if (!elem_type_ok(h & 0x0f)) return BF_EFORMAT;
    if ((rc = check_count(r, n))) return rc;
    *elem_type = h & 0x0f;
    *count = (uint32_t)n;
    return BF_OK;
}

int bf_thrift_map_begin(bf_thrift_reader *r, uint8_t *key_type, uint8_t *val_type,
                        uint32_t *count) {
    uint64_t n;
    int rc = bf__thrift_varint(r, &n);
    if (rc) return rc;
    if (n > UINT32_MAX) return BF_ETOOBIG;
    uint8_t kv = 0;
    if (n) {
        if (r->p >= r->end) return BF_ETRUNCATED;
        kv = *r->p++;
        if (!elem_type_ok(kv >> 4) || !elem_type_ok(kv & 0x0f)) return BF_EFORMAT;
        /* Each pair takes at least two bytes. */
        if (n > (uint64_t)(r->end - r->p) / 2) return BF_ETRUNCATED;
    }
    if ((rc = check_count(r, n))) return rc;
    *key_type = kv >> 4;
    *val_type = kv & 0x0f;
    *count = (uint32_t)n;
    return BF_OK;
}

void bf_thrift_collection_end(bf_thrift_reader *r) {
    if (r->depth) r->depth--;
}

static int skip_value(bf_thrift_reader *r, uint8_t type, int elem);

static int skip_struct(bf_thrift_reader *r) {
    int rc = bf_thrift_struct_begin(r);
    if (rc) return rc;
    int16_t last = 0, id;
    uint8_t t;
    while ((rc = bf_thrift_field_next(r, &last, &id, &t)) == 1)
        if ((rc = skip_value(r, t, 0))) return rc;
    return rc;
}

static int skip_value(bf_thrift_reader *r, uint8_t type, int elem) {
    uint64_t v;
    int rc = bf__thrift_work(r);
    if (rc) return rc;
    switch (type) {
    case BF_T_TRUE:
    case BF_T_FALSE:
        if (!elem) return BF_OK; /* the value is in the field header */
        {
            bool b;
            return bf_thrift_read_bool_elem(r, &b);
        }
    case BF_T_BYTE:
        if (r->p >= r->end) return BF_ETRUNCATED;
        r->p++;
        return BF_OK;
    case BF_T_I16: {
        int16_t x;
        return bf_thrift_read_i16(r, &x);
    }
    case BF_T_I32: {
        int32_t x;
        return bf_thrift_read_i32(r, &x);
    }
    case BF_T_I64: return bf__thrift_varint(r, &v);
    case BF_T_DOUBLE:
        if (r->end - r->p < 8) return BF_ETRUNCATED;
        r->p += 8;
        return BF_OK;
    case BF_T_BINARY: {
        const uint8_t *d;
        size_t n;
        return bf_thrift_read_binary(r, &d, &n);
    }
    case BF_T_LIST:
    case BF_T_SET: {
        uint8_t et;
        uint32_t n;
        if ((rc = bf_thrift_list_begin(r, &et, &n))) return rc;
        for (uint32_t i = 0; i < n; i++)
            if ((rc = skip_value(r, et, 1))) return rc;
        bf_thrift_collection_end(r);
        return BF_OK;
    }
    case BF_T_MAP: {
        uint8_t kt, vt;
        uint32_t n;
        if ((rc = bf_thrift_map_begin(r, &kt, &vt, &n))) return rc;
        for (uint32_t i = 0; i < n; i++) {
            if ((rc = skip_value(r, kt, 1))) return rc;
            if ((rc = skip_value(r, vt, 1))) return rc;
        }
        bf_thrift_collection_end(r);
        return BF_OK;
    }
    case BF_T_STRUCT: return skip_struct(r);
    default: return BF_EFORMAT;
    }
}

int bf_thrift_skip(bf_thrift_reader *r, uint8_t type) { return skip_value(r, type, 0); }
int bf_thrift_skip_elem(bf_thrift_reader *r, uint8_t type) { return skip_value(r, type, 1); }

int bf_thrift_read_union_id(bf_thrift_reader *r, int16_t *which) {
    *which = 0;
    int rc = bf_thrift_struct_begin(r);
    if (rc) return rc;
    int16_t last = 0, id;
    uint8_t t;
    while ((rc = bf_thrift_field_next(r, &last, &id, &t)) == 1) {
        if (*which) return BF_EFORMAT; /* a union sets exactly one field */
        *which = id;
        if ((rc = skip_value(r, t, 0))) return rc;
    }
    return rc;
}
