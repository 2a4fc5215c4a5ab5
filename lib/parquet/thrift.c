/*
 * Thrift compact protocol: the bounded reader's cold paths (skipping,
 * collections, unions) and the writer. See thrift.h for the encoding.
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

/* ------------------------------------------------------------------------ */
/* Writer                                                                    */
/* ------------------------------------------------------------------------ */

void bf_thrift_writer_init(bf_thrift_writer *w) { memset(w, 0, sizeof *w); }

void bf_thrift_writer_free(bf_thrift_writer *w) {
    bf__free(w->buf);
    memset(w, 0, sizeof *w);
}

static int reserve(bf_thrift_writer *w, size_t extra) {
    if (w->err) return w->err;
    if (extra <= w->cap - w->len) return BF_OK;
    size_t need;
    if (__builtin_add_overflow(w->len, extra, &need)) return w->err = BF_ETOOBIG;
    size_t cap = w->cap ? w->cap : 256;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) return w->err = BF_ETOOBIG;
        cap *= 2;
    }
    uint8_t *nb = bf__malloc(cap);
    if (!nb) return w->err = BF_ENOMEM;
    if (w->len) memcpy(nb, w->buf, w->len);
    bf__free(w->buf);
    w->buf = nb;
    w->cap = cap;
    return BF_OK;
}

void bf_thrift_write_raw(bf_thrift_writer *w, const void *data, size_t len) {
    if (!len || reserve(w, len)) return;
    memcpy(w->buf + w->len, data, len);
    w->len += len;
}

static void put_byte(bf_thrift_writer *w, uint8_t b) { bf_thrift_write_raw(w, &b, 1); }

void bf_thrift_write_varint(bf_thrift_writer *w, uint64_t v) {
    uint8_t tmp[10];
    size_t n = 0;
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        tmp[n++] = (uint8_t)(b | (v ? 0x80 : 0));
    } while (v);
    bf_thrift_write_raw(w, tmp, n);
}

static uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

void bf_thrift_write_struct_begin(bf_thrift_writer *w) {
    if (w->err) return;
    if (w->depth >= BF_THRIFT_MAX_DEPTH) {
        w->err = BF_ETOOBIG;
        return;
    }
    w->last[++w->depth] = 0;
}

void bf_thrift_write_struct_end(bf_thrift_writer *w) {
    if (w->err) return;
    if (w->depth == 0) {
        w->err = BF_EINVAL;
        return;
    }
    w->depth--;
    put_byte(w, BF_T_STOP);
}

void bf_thrift_write_field(bf_thrift_writer *w, int16_t id, uint8_t type) {
    if (w->err) return;
    if (w->depth == 0 || type == BF_T_STOP || type > BF_T_STRUCT) {
        w->err = BF_EINVAL;
        return;
    }
    int16_t last = w->last[w->depth];
    int delta = (int)id - (int)last;
    if (delta > 0 && delta <= 15) {
        put_byte(w, (uint8_t)(delta << 4 | type));
    } else {
        put_byte(w, type);
        bf_thrift_write_varint(w, zigzag(id));
    }
    w->last[w->depth] = id;
}

void bf_thrift_write_bool_field(bf_thrift_writer *w, int16_t id, bool v) {
    bf_thrift_write_field(w, id, v ? BF_T_TRUE : BF_T_FALSE);
}

void bf_thrift_write_byte(bf_thrift_writer *w, int8_t v) { put_byte(w, (uint8_t)v); }
void bf_thrift_write_i16(bf_thrift_writer *w, int16_t v) { bf_thrift_write_varint(w, zigzag(v)); }
void bf_thrift_write_i32(bf_thrift_writer *w, int32_t v) { bf_thrift_write_varint(w, zigzag(v)); }
void bf_thrift_write_i64(bf_thrift_writer *w, int64_t v) { bf_thrift_write_varint(w, zigzag(v)); }

void bf_thrift_write_double(bf_thrift_writer *w, double v) {
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    uint8_t b[8];
    bf_store_le64(b, u);
    bf_thrift_write_raw(w, b, 8);
}

void bf_thrift_write_binary(bf_thrift_writer *w, const void *data, size_t len) {
    bf_thrift_write_varint(w, len);
    bf_thrift_write_raw(w, data, len);
}

void bf_thrift_write_bool_elem(bf_thrift_writer *w, bool v) { put_byte(w, v ? 1 : 2); }

void bf_thrift_write_list_begin(bf_thrift_writer *w, uint8_t elem_type, uint32_t count) {
    if (elem_type < BF_T_TRUE || elem_type > BF_T_STRUCT) {
        if (!w->err) w->err = BF_EINVAL;
        return;
    }
    if (count < 15) {
        put_byte(w, (uint8_t)(count << 4 | elem_type));
    } else {
        put_byte(w, (uint8_t)(0xf0 | elem_type));
        bf_thrift_write_varint(w, count);
    }
}

void bf_thrift_write_map_begin(bf_thrift_writer *w, uint8_t key_type, uint8_t val_type,
                               uint32_t count) {
    bf_thrift_write_varint(w, count);
    if (count) put_byte(w, (uint8_t)(key_type << 4 | (val_type & 0x0f)));
}
