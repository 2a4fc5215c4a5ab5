/*
 * A minimal but valid Parquet writer for the tests, the fuzz seeds and the
 * benchmark, written from parquet-format's parquet.thrift and Encodings.md
 * with the tests' Thrift compact writer (tests/common/thrift_writer.h):
 *
 *  "PAR1" | per row group, per column: one DATA_PAGE (v1, uncompressed):
 *  PageHeader, then definition levels for OPTIONAL columns (4-byte length +
 *  RLE runs, bit width 1, or 2 inside an optional group) and the non-null
 *  values PLAIN-encoded | every Bloom filter (bf_sbbf_to_parquet bytes) |
 *  FileMetaData | footer length | "PAR1".
 *
 * Statistics (min_value/max_value, or the deprecated min/max; null_count,
 * distinct_count) are computed here from the values with this file's own
 * comparisons, independent of the library's. Values are given in their
 * PLAIN form (no length prefix for byte arrays); a NULL pointer is a null.
 * Header-only: include it once per program; link tests/common/
 * thrift_writer.c, and blockfilter_internal for the type ids.
 */
#ifndef BF_PQ_WRITER_H
#define BF_PQ_WRITER_H

#include "blockfilter.h"
#include "blockfilter_parquet.h"
#include "thrift_writer.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* How the writer orders values for statistics. */
enum pqw_order { PQW_SIGNED, PQW_UNSIGNED, PQW_FLOAT, PQW_BYTES, PQW_DECIMAL, PQW_BOOL };

enum pqw_stats { PQW_STATS_NEW, PQW_STATS_DEPRECATED, PQW_STATS_NONE, PQW_STATS_BOTH };

typedef struct pqw_column {
    const char *name;
    const char *group;      /* non-NULL: a child of this optional group */
    int type;               /* bf_parquet_type */
    int type_length;        /* FIXED_LEN_BYTE_ARRAY */
    int repetition;         /* 0 REQUIRED, 1 OPTIONAL */
    int converted;          /* ConvertedType, -1 none */
    int logical;            /* LogicalType member id, 0 none */
    int lt_a, lt_b;         /* DECIMAL scale, precision; INTEGER width, signed;
                               TIME/TIMESTAMP unit (1 ms, 2 us, 3 ns), utc */
    enum pqw_order order;
    enum pqw_stats stats;
    bool bloom;             /* write a Bloom filter */
    bool bloom_no_length;   /* ... without bloom_filter_length (parquet-java < 1.12.3) */
    double bloom_fpp;       /* 0: 0.01 */
    bool crypto;            /* mark the chunks encrypted (crypto_metadata) */
    int64_t bloom_offset_fake; /* non-zero: record this bloom_filter_offset */
    int32_t bloom_length_fake; /* non-zero: record this bloom_filter_length */
    bool assume_distinct;   /* distinct_count = non-null values (large files) */
} pqw_column;

typedef struct pqw_value {
    const void *p; /* NULL: null */
    size_t len;
} pqw_value;

/* Fixed width of a PLAIN value (0: BYTE_ARRAY). */
/* Parquet stores floats little-endian; decode them on any host. */
static inline float pqw_load_f32(const uint8_t *p) {
    uint32_t u = bf_load_le32(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline double pqw_load_f64(const uint8_t *p) {
    uint64_t u = bf_load_le64(p);
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static inline size_t pqw_width(const pqw_column *c) {
    static const size_t w[] = {1, 4, 8, 12, 4, 8, 0, 0};
    return c->type == BF_PARQUET_FIXED_LEN_BYTE_ARRAY ? (size_t)c->type_length : w[c->type];
}

static inline int pqw_cmp_bytes(const uint8_t *a, size_t al, const uint8_t *b, size_t bl) {
    for (size_t i = 0; i < al && i < bl; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return al < bl ? -1 : al > bl;
}

/* The writer's own comparison of two PLAIN values (NaN never reaches it). */
static inline int pqw_cmp(const pqw_column *c, const pqw_value *a, const pqw_value *b) {
    const uint8_t *x = a->p, *y = b->p;
    switch (c->order) {
    case PQW_BOOL: return (x[0] > y[0]) - (x[0] < y[0]);
    case PQW_SIGNED:
    case PQW_UNSIGNED: {
        uint64_t ux = 0, uy = 0;
        size_t w = pqw_width(c);
        for (size_t i = w; i-- > 0;) ux = ux << 8 | x[i], uy = uy << 8 | y[i];
        if (c->order == PQW_SIGNED) {
            int64_t sx = w == 4 ? (int32_t)(uint32_t)ux : (int64_t)ux;
            int64_t sy = w == 4 ? (int32_t)(uint32_t)uy : (int64_t)uy;
            return (sx > sy) - (sx < sy);
        }
        return (ux > uy) - (ux < uy);
    }
    case PQW_FLOAT: {
        double dx, dy;
        if (c->type == BF_PARQUET_FLOAT) {
            dx = pqw_load_f32(x), dy = pqw_load_f32(y);
        } else {
            dx = pqw_load_f64(x), dy = pqw_load_f64(y);
        }
        return (dx > dy) - (dx < dy);
    }
    case PQW_DECIMAL: { /* sign-extend both to 64 bytes, then unsigned */
        uint8_t ex[64], ey[64];
        memset(ex, a->len && (x[0] & 0x80) ? 0xff : 0, 64);
        memset(ey, b->len && (y[0] & 0x80) ? 0xff : 0, 64);
        memcpy(ex + 64 - a->len, x, a->len);
        memcpy(ey + 64 - b->len, y, b->len);
        ex[0] ^= 0x80, ey[0] ^= 0x80;
        return pqw_cmp_bytes(ex, 64, ey, 64);
    }
    default: return pqw_cmp_bytes(x, a->len, y, b->len);
    }
}

static inline bool pqw_is_nan(const pqw_column *c, const pqw_value *v) {
    if (c->type == BF_PARQUET_FLOAT) return isnan(pqw_load_f32(v->p));
    if (c->type == BF_PARQUET_DOUBLE) return isnan(pqw_load_f64(v->p));
    return false;
}

/* Statistics of one chunk, as the writer stores them. */
typedef struct pqw_chunk_stats {
    bool has_minmax;
    pqw_value min, max;
    uint8_t minbuf[16], maxbuf[16]; /* fixed-width copies (zero rules) */
    int64_t nulls, distinct;
} pqw_chunk_stats;

static inline void pqw_stats(const pqw_column *c, const pqw_value *v, size_t n,
                             pqw_chunk_stats *s) {
    memset(s, 0, sizeof *s);
    for (size_t i = 0; i < n; i++) {
        if (!v[i].p) {
            s->nulls++;
            continue;
        }
        size_t j = 0;
        if (!c->assume_distinct) /* distinct count, quadratic: tests are small */
            for (; j < i; j++)
                if (v[j].p && v[j].len == v[i].len && memcmp(v[j].p, v[i].p, v[i].len) == 0) break;
        if (c->assume_distinct || j == i) s->distinct++;
        if (pqw_is_nan(c, &v[i])) continue; /* never in min/max */
        if (!s->has_minmax) {
            s->min = s->max = v[i];
            s->has_minmax = true;
            continue;
        }
        if (pqw_cmp(c, &v[i], &s->min) < 0) s->min = v[i];
        if (pqw_cmp(c, &v[i], &s->max) > 0) s->max = v[i];
    }
    /* Floating-point zeros: min is written as -0, max as +0. */
    if (s->has_minmax && c->order == PQW_FLOAT) {
        size_t w = pqw_width(c);
        memcpy(s->minbuf, s->min.p, w);
        memcpy(s->maxbuf, s->max.p, w);
        uint8_t zero[8] = {0};
        if (memcmp(s->minbuf, zero, w - 1) == 0 && (s->minbuf[w - 1] & 0x7f) == 0)
            s->minbuf[w - 1] |= 0x80;
        if (memcmp(s->maxbuf, zero, w - 1) == 0 && (s->maxbuf[w - 1] & 0x7f) == 0)
            s->maxbuf[w - 1] &= 0x7f;
        s->min.p = s->minbuf;
        s->max.p = s->maxbuf;
    }
}

typedef struct pqw_file {
    const pqw_column *cols;
    size_t ncols;
    size_t nrgs;
    const size_t *rows;        /* rows[rg] */
    const pqw_value *const *values; /* values[rg * ncols + col][row] */
    const char *created_by;    /* NULL: "blockfilter tests" */
    bool no_column_orders;
} pqw_file;

/* Definition levels as RLE runs: 4-byte length, then (count << 1, level). */
static inline void pqw_levels(thrift_writer *w, const pqw_value *v, size_t n, int maxdef) {
    thrift_writer lv;
    thrift_writer_init(&lv);
    size_t i = 0;
    while (i < n) {
        uint8_t lvl = v[i].p ? (uint8_t)maxdef : 0;
        size_t j = i;
        while (j < n && (v[j].p ? (uint8_t)maxdef : 0) == lvl) j++;
        thrift_write_varint(&lv, (uint64_t)(j - i) << 1);
        thrift_write_raw(&lv, &lvl, 1);
        i = j;
    }
    uint8_t len4[4] = {(uint8_t)lv.len, (uint8_t)(lv.len >> 8), (uint8_t)(lv.len >> 16),
                       (uint8_t)(lv.len >> 24)};
    thrift_write_raw(w, len4, 4);
    thrift_write_raw(w, lv.buf, lv.len);
    if (lv.err) w->err = lv.err;
    thrift_writer_free(&lv);
}

static inline void pqw_plain(thrift_writer *w, const pqw_column *c, const pqw_value *v,
                             size_t n) {
    if (c->type == BF_PARQUET_BOOLEAN) { /* bit-packed, LSB first */
        uint8_t byte = 0;
        unsigned k = 0;
        for (size_t i = 0; i < n; i++) {
            if (!v[i].p) continue;
            byte |= (uint8_t)((((const uint8_t *)v[i].p)[0] & 1) << k);
            if (++k == 8) {
                thrift_write_raw(w, &byte, 1);
                byte = 0, k = 0;
            }
        }
        if (k) thrift_write_raw(w, &byte, 1);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (!v[i].p) continue;
        if (c->type == BF_PARQUET_BYTE_ARRAY) {
            uint8_t l4[4] = {(uint8_t)v[i].len, (uint8_t)(v[i].len >> 8),
                             (uint8_t)(v[i].len >> 16), (uint8_t)(v[i].len >> 24)};
            thrift_write_raw(w, l4, 4);
        }
        thrift_write_raw(w, v[i].p, v[i].len);
    }
}

static inline int pqw_maxdef(const pqw_column *c) {
    return (c->repetition == 1) + (c->group != NULL);
}

static inline void pqw_statistics(thrift_writer *w, const pqw_column *c,
                                  const pqw_chunk_stats *s) {
    thrift_write_struct_begin(w);
    if (s->has_minmax && (c->stats == PQW_STATS_DEPRECATED || c->stats == PQW_STATS_BOTH)) {
        thrift_write_field(w, 1, BF_T_BINARY);
        thrift_write_binary(w, s->max.p, s->max.len);
        thrift_write_field(w, 2, BF_T_BINARY);
        thrift_write_binary(w, s->min.p, s->min.len);
    }
    thrift_write_field(w, 3, BF_T_I64);
    thrift_write_i64(w, s->nulls);
    thrift_write_field(w, 4, BF_T_I64);
    thrift_write_i64(w, s->distinct);
    if (s->has_minmax && (c->stats == PQW_STATS_NEW || c->stats == PQW_STATS_BOTH)) {
        thrift_write_field(w, 5, BF_T_BINARY);
        thrift_write_binary(w, s->max.p, s->max.len);
        thrift_write_field(w, 6, BF_T_BINARY);
        thrift_write_binary(w, s->min.p, s->min.len);
        thrift_write_bool_field(w, 7, true);
        thrift_write_bool_field(w, 8, true);
    }
    thrift_write_struct_end(w);
}

static inline void pqw_schema_elem(thrift_writer *w, const pqw_column *c) {
    thrift_write_struct_begin(w);
    thrift_write_field(w, 1, BF_T_I32);
    thrift_write_i32(w, c->type);
    if (c->type == BF_PARQUET_FIXED_LEN_BYTE_ARRAY) {
        thrift_write_field(w, 2, BF_T_I32);
        thrift_write_i32(w, c->type_length);
    }
    thrift_write_field(w, 3, BF_T_I32);
    thrift_write_i32(w, c->repetition);
    thrift_write_field(w, 4, BF_T_BINARY);
    thrift_write_binary(w, c->name, strlen(c->name));
    if (c->converted >= 0) {
        thrift_write_field(w, 6, BF_T_I32);
        thrift_write_i32(w, c->converted);
        if (c->converted == 5) { /* DECIMAL: scale, precision */
            thrift_write_field(w, 7, BF_T_I32);
            thrift_write_i32(w, c->lt_a);
            thrift_write_field(w, 8, BF_T_I32);
            thrift_write_i32(w, c->lt_b);
        }
    }
    if (c->logical) {
        thrift_write_field(w, 10, BF_T_STRUCT);
        thrift_write_struct_begin(w); /* LogicalType union */
        thrift_write_field(w, (int16_t)c->logical, BF_T_STRUCT);
        thrift_write_struct_begin(w);
        if (c->logical == 5) { /* DecimalType */
            thrift_write_field(w, 1, BF_T_I32);
            thrift_write_i32(w, c->lt_a);
            thrift_write_field(w, 2, BF_T_I32);
            thrift_write_i32(w, c->lt_b);
        } else if (c->logical == 7 || c->logical == 8) { /* TimeType, TimestampType */
            thrift_write_bool_field(w, 1, c->lt_b != 0);
            thrift_write_field(w, 2, BF_T_STRUCT);
            thrift_write_struct_begin(w); /* TimeUnit union */
            thrift_write_field(w, (int16_t)c->lt_a, BF_T_STRUCT);
            thrift_write_struct_begin(w);
            thrift_write_struct_end(w);
            thrift_write_struct_end(w);
        } else if (c->logical == 10) { /* IntType */
            thrift_write_field(w, 1, BF_T_BYTE);
            thrift_write_byte(w, (int8_t)c->lt_a);
            thrift_write_bool_field(w, 2, c->lt_b != 0);
        }
        thrift_write_struct_end(w);
        thrift_write_struct_end(w);
    }
    thrift_write_struct_end(w);
}

/* Per chunk, where the writer put things (for the footer and the tests). */
typedef struct pqw_chunk_pos {
    int64_t data_offset, total;
    int64_t bloom_offset, bloom_length;
    int64_t num_values;
    pqw_chunk_stats stats;
} pqw_chunk_pos;

/* Writes the file into w (initialised by the caller). pos (may be NULL)
 * receives nrgs * ncols positions (their statistics point into the values
 * and into pos itself). Returns the writer's status. */
static inline int pqw_write(thrift_writer *w, const pqw_file *pf, pqw_chunk_pos *pos_out) {
    size_t nchunks = pf->nrgs * pf->ncols;
    pqw_chunk_pos *pos = pos_out ? pos_out : calloc(nchunks ? nchunks : 1, sizeof *pos);
    if (!pos) return BF_ENOMEM;
    thrift_write_raw(w, "PAR1", 4);
    for (size_t rg = 0; rg < pf->nrgs; rg++)
        for (size_t ci = 0; ci < pf->ncols; ci++) {
            const pqw_column *c = &pf->cols[ci];
            const pqw_value *v = pf->values[rg * pf->ncols + ci];
            size_t n = pf->rows[rg];
            pqw_chunk_pos *p = &pos[rg * pf->ncols + ci];
            pqw_stats(c, v, n, &p->stats);
            p->num_values = (int64_t)n;
            thrift_writer page;
            thrift_writer_init(&page);
            int maxdef = pqw_maxdef(c);
            if (maxdef) pqw_levels(&page, v, n, maxdef);
            pqw_plain(&page, c, v, n);
            p->data_offset = (int64_t)w->len;
            thrift_write_struct_begin(w); /* PageHeader */
            thrift_write_field(w, 1, BF_T_I32);
            thrift_write_i32(w, 0); /* DATA_PAGE */
            thrift_write_field(w, 2, BF_T_I32);
            thrift_write_i32(w, (int32_t)page.len);
            thrift_write_field(w, 3, BF_T_I32);
            thrift_write_i32(w, (int32_t)page.len);
            thrift_write_field(w, 5, BF_T_STRUCT); /* DataPageHeader */
            thrift_write_struct_begin(w);
            thrift_write_field(w, 1, BF_T_I32);
            thrift_write_i32(w, (int32_t)n);
            thrift_write_field(w, 2, BF_T_I32);
            thrift_write_i32(w, 0); /* PLAIN */
            thrift_write_field(w, 3, BF_T_I32);
            thrift_write_i32(w, 3); /* RLE */
            thrift_write_field(w, 4, BF_T_I32);
            thrift_write_i32(w, 3);
            thrift_write_struct_end(w);
            thrift_write_struct_end(w);
            thrift_write_raw(w, page.buf, page.len);
            if (page.err) w->err = page.err;
            thrift_writer_free(&page);
            p->total = (int64_t)w->len - p->data_offset;
        }
    /* Bloom filters after all row groups, as Arrow writes them. */
    for (size_t rg = 0; rg < pf->nrgs; rg++)
        for (size_t ci = 0; ci < pf->ncols; ci++) {
            const pqw_column *c = &pf->cols[ci];
            pqw_chunk_pos *p = &pos[rg * pf->ncols + ci];
            p->bloom_offset = p->bloom_length = -1;
            if (!c->bloom) continue;
            const pqw_value *v = pf->values[rg * pf->ncols + ci];
            bf_sbbf *f = NULL;
            uint64_t ndv = p->stats.distinct ? (uint64_t)p->stats.distinct : 1;
            if (bf_sbbf_new_parquet(&f, ndv, c->bloom_fpp > 0 ? c->bloom_fpp : 0.01) != BF_OK) {
                w->err = BF_ENOMEM;
                continue;
            }
            for (size_t i = 0; i < pf->rows[rg]; i++)
                if (v[i].p) bf_sbbf_insert_hash(f, bf_hash_xxh64(v[i].p, v[i].len));
            size_t cap = bf_sbbf_parquet_size(f), got = 0;
            uint8_t *tmp = malloc(cap);
            if (tmp && bf_sbbf_to_parquet(f, tmp, cap, &got) == BF_OK) {
                p->bloom_offset = (int64_t)w->len;
                p->bloom_length = (int64_t)got;
                thrift_write_raw(w, tmp, got);
            } else {
                w->err = BF_ENOMEM;
            }
            free(tmp);
            bf_sbbf_free(f);
        }
    size_t footer_at = w->len;
    int64_t total_rows = 0;
    for (size_t rg = 0; rg < pf->nrgs; rg++) total_rows += (int64_t)pf->rows[rg];
    thrift_write_struct_begin(w); /* FileMetaData */
    thrift_write_field(w, 1, BF_T_I32);
    thrift_write_i32(w, 1);
    thrift_write_field(w, 2, BF_T_LIST);
    /* Schema: root, then each column (groups open before their first child). */
    uint32_t nelem = 1;
    for (size_t ci = 0; ci < pf->ncols; ci++)
        nelem += 1 + (pf->cols[ci].group &&
                      (ci == 0 || !pf->cols[ci - 1].group ||
                       strcmp(pf->cols[ci - 1].group, pf->cols[ci].group) != 0));
    thrift_write_list_begin(w, BF_T_STRUCT, nelem);
    uint32_t top = 0;
    for (size_t ci = 0; ci < pf->ncols; ci++)
        if (!pf->cols[ci].group || ci == 0 || !pf->cols[ci - 1].group ||
            strcmp(pf->cols[ci - 1].group, pf->cols[ci].group) != 0)
            top++;
    thrift_write_struct_begin(w);
    thrift_write_field(w, 4, BF_T_BINARY);
    thrift_write_binary(w, "schema", 6);
    thrift_write_field(w, 5, BF_T_I32);
    thrift_write_i32(w, (int32_t)top);
    thrift_write_struct_end(w);
    for (size_t ci = 0; ci < pf->ncols; ci++) {
        const pqw_column *c = &pf->cols[ci];
        if (c->group && (ci == 0 || !pf->cols[ci - 1].group ||
                         strcmp(pf->cols[ci - 1].group, c->group) != 0)) {
            int32_t kids = 0;
            for (size_t k = ci; k < pf->ncols && pf->cols[k].group &&
                                strcmp(pf->cols[k].group, c->group) == 0;
                 k++)
                kids++;
            thrift_write_struct_begin(w);
            thrift_write_field(w, 3, BF_T_I32);
            thrift_write_i32(w, 1); /* OPTIONAL */
            thrift_write_field(w, 4, BF_T_BINARY);
            thrift_write_binary(w, c->group, strlen(c->group));
            thrift_write_field(w, 5, BF_T_I32);
            thrift_write_i32(w, kids);
            thrift_write_struct_end(w);
        }
        pqw_schema_elem(w, c);
    }
    thrift_write_field(w, 3, BF_T_I64);
    thrift_write_i64(w, total_rows);
    thrift_write_field(w, 4, BF_T_LIST);
    thrift_write_list_begin(w, BF_T_STRUCT, (uint32_t)pf->nrgs);
    for (size_t rg = 0; rg < pf->nrgs; rg++) {
        thrift_write_struct_begin(w); /* RowGroup */
        thrift_write_field(w, 1, BF_T_LIST);
        thrift_write_list_begin(w, BF_T_STRUCT, (uint32_t)pf->ncols);
        int64_t rg_bytes = 0;
        for (size_t ci = 0; ci < pf->ncols; ci++) {
            const pqw_column *c = &pf->cols[ci];
            const pqw_chunk_pos *p = &pos[rg * pf->ncols + ci];
            rg_bytes += p->total;
            thrift_write_struct_begin(w); /* ColumnChunk */
            thrift_write_field(w, 2, BF_T_I64);
            thrift_write_i64(w, p->data_offset);
            thrift_write_field(w, 3, BF_T_STRUCT); /* ColumnMetaData */
            thrift_write_struct_begin(w);
            thrift_write_field(w, 1, BF_T_I32);
            thrift_write_i32(w, c->type);
            thrift_write_field(w, 2, BF_T_LIST);
            thrift_write_list_begin(w, BF_T_I32, 2);
            thrift_write_i32(w, 0); /* PLAIN */
            thrift_write_i32(w, 3); /* RLE */
            thrift_write_field(w, 3, BF_T_LIST);
            thrift_write_list_begin(w, BF_T_BINARY, c->group ? 2 : 1);
            if (c->group) thrift_write_binary(w, c->group, strlen(c->group));
            thrift_write_binary(w, c->name, strlen(c->name));
            thrift_write_field(w, 4, BF_T_I32);
            thrift_write_i32(w, 0); /* UNCOMPRESSED */
            thrift_write_field(w, 5, BF_T_I64);
            thrift_write_i64(w, p->num_values);
            thrift_write_field(w, 6, BF_T_I64);
            thrift_write_i64(w, p->total);
            thrift_write_field(w, 7, BF_T_I64);
            thrift_write_i64(w, p->total);
            thrift_write_field(w, 9, BF_T_I64);
            thrift_write_i64(w, p->data_offset);
            if (c->stats != PQW_STATS_NONE) {
                thrift_write_field(w, 12, BF_T_STRUCT);
                pqw_statistics(w, c, &p->stats);
            }
            if (p->bloom_offset >= 0 || c->bloom_offset_fake) {
                thrift_write_field(w, 14, BF_T_I64);
                thrift_write_i64(w, c->bloom_offset_fake ? c->bloom_offset_fake : p->bloom_offset);
                if (!c->bloom_no_length) {
                    thrift_write_field(w, 15, BF_T_I32);
                    thrift_write_i32(w, c->bloom_length_fake ? c->bloom_length_fake
                                                                : (int32_t)p->bloom_length);
                }
            }
            thrift_write_struct_end(w);
            if (c->crypto) { /* ColumnCryptoMetaData: ENCRYPTION_WITH_FOOTER_KEY */
                thrift_write_field(w, 8, BF_T_STRUCT);
                thrift_write_struct_begin(w);
                thrift_write_field(w, 1, BF_T_STRUCT);
                thrift_write_struct_begin(w);
                thrift_write_struct_end(w);
                thrift_write_struct_end(w);
            }
            thrift_write_struct_end(w);
        }
        thrift_write_field(w, 2, BF_T_I64);
        thrift_write_i64(w, rg_bytes);
        thrift_write_field(w, 3, BF_T_I64);
        thrift_write_i64(w, (int64_t)pf->rows[rg]);
        thrift_write_field(w, 5, BF_T_I64);
        thrift_write_i64(w, pos[rg * pf->ncols].data_offset);
        thrift_write_field(w, 6, BF_T_I64);
        thrift_write_i64(w, rg_bytes);
        thrift_write_field(w, 7, BF_T_I16);
        thrift_write_i16(w, (int16_t)rg);
        thrift_write_struct_end(w);
    }
    thrift_write_field(w, 6, BF_T_BINARY);
    const char *by = pf->created_by ? pf->created_by : "blockfilter tests";
    thrift_write_binary(w, by, strlen(by));
    if (!pf->no_column_orders) {
        thrift_write_field(w, 7, BF_T_LIST);
        thrift_write_list_begin(w, BF_T_STRUCT, (uint32_t)pf->ncols);
        for (size_t ci = 0; ci < pf->ncols; ci++) { /* TYPE_ORDER */
            thrift_write_struct_begin(w);
            thrift_write_field(w, 1, BF_T_STRUCT);
            thrift_write_struct_begin(w);
            thrift_write_struct_end(w);
            thrift_write_struct_end(w);
        }
    }
    thrift_write_struct_end(w);
    uint32_t fl = (uint32_t)(w->len - footer_at);
    uint8_t tail[8] = {(uint8_t)fl, (uint8_t)(fl >> 8), (uint8_t)(fl >> 16), (uint8_t)(fl >> 24),
                       'P', 'A', 'R', '1'};
    thrift_write_raw(w, tail, 8);
    if (!pos_out) free(pos);
    return w->err;
}

#endif
