/* The Thrift compact writer of the tests and the benchmark; see
 * thrift_writer.h. */
#include "thrift_writer.h"

#include <stdlib.h>
#include <string.h>

void thrift_writer_init(thrift_writer *w) { memset(w, 0, sizeof *w); }

void thrift_writer_free(thrift_writer *w) {
    free(w->buf);
    memset(w, 0, sizeof *w);
}

static int reserve(thrift_writer *w, size_t extra) {
    if (w->err) return w->err;
    if (extra <= w->cap - w->len) return BF_OK;
    size_t need;
    if (__builtin_add_overflow(w->len, extra, &need)) return w->err = BF_ETOOBIG;
    size_t cap = w->cap ? w->cap : 256;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) return w->err = BF_ETOOBIG;
        cap *= 2;
    }
    uint8_t *nb = malloc(cap);
    if (!nb) return w->err = BF_ENOMEM;
    if (w->len) memcpy(nb, w->buf, w->len);
    free(w->buf);
    w->buf = nb;
    w->cap = cap;
    return BF_OK;
}

void thrift_write_raw(thrift_writer *w, const void *data, size_t len) {
    if (!len || reserve(w, len)) return;
    memcpy(w->buf + w->len, data, len);
    w->len += len;
}

static void put_byte(thrift_writer *w, uint8_t b) { thrift_write_raw(w, &b, 1); }

void thrift_write_varint(thrift_writer *w, uint64_t v) {
    uint8_t tmp[10];
    size_t n = 0;
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        tmp[n++] = (uint8_t)(b | (v ? 0x80 : 0));
    } while (v);
    thrift_write_raw(w, tmp, n);
}

static uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

void thrift_write_struct_begin(thrift_writer *w) {
    if (w->err) return;
    if (w->depth >= BF_THRIFT_MAX_DEPTH) {
        w->err = BF_ETOOBIG;
        return;
    }
    w->last[++w->depth] = 0;
}

void thrift_write_struct_end(thrift_writer *w) {
    if (w->err) return;
    if (w->depth == 0) {
        w->err = BF_EINVAL;
        return;
    }
    w->depth--;
    put_byte(w, BF_T_STOP);
}

void thrift_write_field(thrift_writer *w, int16_t id, uint8_t type) {
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
        thrift_write_varint(w, zigzag(id));
    }
    w->last[w->depth] = id;
}

void thrift_write_bool_field(thrift_writer *w, int16_t id, bool v) {
    thrift_write_field(w, id, v ? BF_T_TRUE : BF_T_FALSE);
}

void thrift_write_byte(thrift_writer *w, int8_t v) { put_byte(w, (uint8_t)v); }
void thrift_write_i16(thrift_writer *w, int16_t v) { thrift_write_varint(w, zigzag(v)); }
void thrift_write_i32(thrift_writer *w, int32_t v) { thrift_write_varint(w, zigzag(v)); }
void thrift_write_i64(thrift_writer *w, int64_t v) { thrift_write_varint(w, zigzag(v)); }

void thrift_write_double(thrift_writer *w, double v) {
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(u >> (8 * i)); /* little-endian */
    thrift_write_raw(w, b, 8);
}

void thrift_write_binary(thrift_writer *w, const void *data, size_t len) {
    thrift_write_varint(w, len);
    thrift_write_raw(w, data, len);
}

void thrift_write_bool_elem(thrift_writer *w, bool v) { put_byte(w, v ? 1 : 2); }

void thrift_write_list_begin(thrift_writer *w, uint8_t elem_type, uint32_t count) {
    if (elem_type < BF_T_TRUE || elem_type > BF_T_STRUCT) {
        if (!w->err) w->err = BF_EINVAL;
        return;
    }
    if (count < 15) {
        put_byte(w, (uint8_t)(count << 4 | elem_type));
    } else {
        put_byte(w, (uint8_t)(0xf0 | elem_type));
        thrift_write_varint(w, count);
    }
}

void thrift_write_map_begin(thrift_writer *w, uint8_t key_type, uint8_t val_type,
                               uint32_t count) {
    thrift_write_varint(w, count);
    if (count) put_byte(w, (uint8_t)(key_type << 4 | (val_type & 0x0f)));
}
