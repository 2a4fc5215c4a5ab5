/*
 * Parquet files: the footer (FileMetaData) parsed with the bounded Thrift
 * reader, column chunks' Bloom filters as zero-copy views, and row-group
 * pruning by statistics and Bloom filters.
 *
 * File layout: "PAR1" | column chunks, page indexes, Bloom filters |
 * FileMetaData (Thrift compact) | footer length (uint32 LE) | "PAR1".
 * An encrypted footer ends in "PARE" instead: refused (BF_EENCRYPTED).
 *
 * Field ids follow parquet-format's parquet.thrift.
 */
#define _GNU_SOURCE
#include "parquet/parquet_file.h"
#include "sbbf/sbbf.h"
#include "parquet/thrift.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* ------------------------------------------------------------------------ */
/* Footer parsing                                                            */
/* ------------------------------------------------------------------------ */

/* Schema depth (groups within groups) and the bytes all paths may take. */
#define PQ_MAX_SCHEMA_DEPTH 64

typedef struct schema_elem {
    const uint8_t *name;
    size_t name_len;
    int has_type, has_children, has_repetition;
    int32_t type, type_length, repetition, num_children, converted, scale, precision;
    bf_parquet_logical logical;
    int bit_width, is_signed, time_unit, utc;
    int32_t lt_scale, lt_precision;
} schema_elem;

typedef struct parse_ctx {
    bf_thrift_reader r;
    bf_parquet_file *f;
    schema_elem *elems;
    uint32_t nelems;
    int16_t *col_order; /* per leaf: ColumnOrder union id, 0 absent */
    int have_col_orders;
} parse_ctx;

/* Reads a field's value when its type is the expected one, else skips it
 * (Thrift readers ignore fields whose type does not match the IDL). */
#define EXPECT(t) if (type != (t)) { rc = bf_thrift_skip(r, type); break; }

static int parse_time_unit(bf_thrift_reader *r, int *unit) {
    int16_t which;
    int rc = bf_thrift_read_union_id(r, &which);
    if (rc) return rc;
    *unit = which >= 1 && which <= 3 ? which : 0;
    return BF_OK;
}

/* LogicalType union; the member's fields where they matter. */
static int parse_logical(bf_thrift_reader *r, schema_elem *e) {
    int rc = bf_thrift_struct_begin(r);
    if (rc) return rc;
    int16_t last = 0, id;
    uint8_t type;
    int seen = 0;
    while ((rc = bf_thrift_field_next(r, &last, &id, &type)) == 1) {
        if (seen++) return BF_EFORMAT; /* a union sets one member */
        if (type != BF_T_STRUCT) return BF_EFORMAT;
        e->logical = id >= 1 && id <= 18 && id != 9 ? (bf_parquet_logical)id : BF_PARQUET_LT_OTHER;
        if (id != 5 && id != 7 && id != 8 && id != 10) {
            if ((rc = bf_thrift_skip(r, type))) return rc;
            continue;
        }
        if ((rc = bf_thrift_struct_begin(r))) return rc;
        int16_t l2 = 0, id2;
        uint8_t t2;
        while ((rc = bf_thrift_field_next(r, &l2, &id2, &t2)) == 1) {
            if (id == 5 && id2 <= 2 && t2 == BF_T_I32) { /* DecimalType */
                if ((rc = bf_thrift_read_i32(r, id2 == 1 ? &e->lt_scale : &e->lt_precision)))
                    return rc;
            } else if ((id == 7 || id == 8) && id2 == 1 && (t2 == BF_T_TRUE || t2 == BF_T_FALSE)) {
                e->utc = t2 == BF_T_TRUE;
            } else if ((id == 7 || id == 8) && id2 == 2 && t2 == BF_T_STRUCT) {
                if ((rc = parse_time_unit(r, &e->time_unit))) return rc;
            } else if (id == 10 && id2 == 1 && t2 == BF_T_BYTE) { /* IntType */
                int8_t w;
                if ((rc = bf_thrift_read_byte(r, &w))) return rc;
                e->bit_width = w;
            } else if (id == 10 && id2 == 2 && (t2 == BF_T_TRUE || t2 == BF_T_FALSE)) {
                e->is_signed = t2 == BF_T_TRUE;
            } else if ((rc = bf_thrift_skip(r, t2))) {
                return rc;
            }
        }
        if (rc) return rc;
    }
    return rc;
}

static int parse_schema_elem(bf_thrift_reader *r, schema_elem *e) {
    memset(e, 0, sizeof *e);
    e->converted = -1;
    int rc = bf_thrift_struct_begin(r);
    if (rc) return rc;
    int16_t last = 0, id;
    uint8_t type;
    int have_name = 0;
    while ((rc = bf_thrift_field_next(r, &last, &id, &type)) == 1) {
        rc = BF_OK;
        switch (id) {
        case 1: EXPECT(BF_T_I32) rc = bf_thrift_read_i32(r, &e->type); e->has_type = 1; break;
        case 2: EXPECT(BF_T_I32) rc = bf_thrift_read_i32(r, &e->type_length); break;
        case 3: EXPECT(BF_T_I32) rc = bf_thrift_read_i32(r, &e->repetition); e->has_repetition = 1; break;
        case 4:
            EXPECT(BF_T_BINARY)
            rc = bf_thrift_read_binary(r, &e->name, &e->name_len);
            have_name = 1;
            break;
        case 5: EXPECT(BF_T_I32) rc = bf_thrift_read_i32(r, &e->num_children); e->has_children = 1; break;
        case 6: EXPECT(BF_T_I32) rc = bf_thrift_read_i32(r, &e->converted); break;
        case 7: EXPECT(BF_T_I32) rc = bf_thrift_read_i32(r, &e->scale); break;
        case 8: EXPECT(BF_T_I32) rc = bf_thrift_read_i32(r, &e->precision); break;
        case 10: EXPECT(BF_T_STRUCT) rc = parse_logical(r, e); break;
        default: rc = bf_thrift_skip(r, type); break;
        }
        if (rc) return rc;
    }
    if (rc) return rc;
    if (!have_name) return BF_ECORRUPT;
    if (e->has_type && (e->type < 0 || e->type > 7)) return BF_EUNSUPPORTED;
    if (e->has_children && e->num_children < 0) return BF_ECORRUPT;
    if (e->has_repetition && (e->repetition < 0 || e->repetition > 2)) return BF_ECORRUPT;
    return BF_OK;
}

/* The logical type a converted type stands for, when LogicalType is absent. */
static void from_converted(schema_elem *e) {
    static const struct { int8_t lt, width, sign, unit; } map[] = {
        [0] = {BF_PARQUET_LT_STRING, 0, 0, 0},  [1] = {BF_PARQUET_LT_MAP, 0, 0, 0},
        [2] = {BF_PARQUET_LT_MAP, 0, 0, 0},     [3] = {BF_PARQUET_LT_LIST, 0, 0, 0},
        [4] = {BF_PARQUET_LT_ENUM, 0, 0, 0},    [5] = {BF_PARQUET_LT_DECIMAL, 0, 0, 0},
        [6] = {BF_PARQUET_LT_DATE, 0, 0, 0},    [7] = {BF_PARQUET_LT_TIME, 0, 0, 1},
        [8] = {BF_PARQUET_LT_TIME, 0, 0, 2},    [9] = {BF_PARQUET_LT_TIMESTAMP, 0, 0, 1},
        [10] = {BF_PARQUET_LT_TIMESTAMP, 0, 0, 2},
        [11] = {BF_PARQUET_LT_INTEGER, 8, 0, 0},  [12] = {BF_PARQUET_LT_INTEGER, 16, 0, 0},
        [13] = {BF_PARQUET_LT_INTEGER, 32, 0, 0}, [14] = {BF_PARQUET_LT_INTEGER, 64, 0, 0},
        [15] = {BF_PARQUET_LT_INTEGER, 8, 1, 0},  [16] = {BF_PARQUET_LT_INTEGER, 16, 1, 0},
        [17] = {BF_PARQUET_LT_INTEGER, 32, 1, 0}, [18] = {BF_PARQUET_LT_INTEGER, 64, 1, 0},
        [19] = {BF_PARQUET_LT_JSON, 0, 0, 0},   [20] = {BF_PARQUET_LT_BSON, 0, 0, 0},
        [21] = {BF_PARQUET_LT_INTERVAL, 0, 0, 0},
    };
    if (e->logical != BF_PARQUET_LT_NONE || e->converted < 0 ||
        e->converted >= (int32_t)(sizeof map / sizeof map[0]))
        return;
    e->logical = (bf_parquet_logical)map[e->converted].lt;
    e->bit_width = map[e->converted].width;
    e->is_signed = map[e->converted].sign;
    e->time_unit = map[e->converted].unit;
    e->utc = map[e->converted].unit != 0; /* legacy times are UTC-normalised */
    if (e->logical == BF_PARQUET_LT_DECIMAL) {
        e->lt_scale = e->scale;
        e->lt_precision = e->precision;
    }
}

/* The order statistics are compared in for this column (before the file's
 * column_orders and the deprecated-field rules are applied per chunk). */
static bf_parquet_order sort_order(const bf_parquet_column *c) {
    bf_parquet_logical lt = c->logical_type;
    switch (c->physical_type) {
    case BF_PARQUET_BOOLEAN: return lt == BF_PARQUET_LT_NONE ? BF_PARQUET_ORDER_BOOLEAN : BF_PARQUET_ORDER_NONE;
    case BF_PARQUET_INT32:
    case BF_PARQUET_INT64:
        switch (lt) {
        case BF_PARQUET_LT_NONE: case BF_PARQUET_LT_DECIMAL: case BF_PARQUET_LT_DATE:
        case BF_PARQUET_LT_TIME: case BF_PARQUET_LT_TIMESTAMP:
            return BF_PARQUET_ORDER_SIGNED;
        case BF_PARQUET_LT_INTEGER:
            return c->is_signed ? BF_PARQUET_ORDER_SIGNED : BF_PARQUET_ORDER_UNSIGNED;
        default: return BF_PARQUET_ORDER_NONE;
        }
    case BF_PARQUET_FLOAT:
    case BF_PARQUET_DOUBLE:
        return lt == BF_PARQUET_LT_NONE ? BF_PARQUET_ORDER_FLOAT : BF_PARQUET_ORDER_NONE;
    case BF_PARQUET_BYTE_ARRAY:
        switch (lt) {
        case BF_PARQUET_LT_NONE: case BF_PARQUET_LT_STRING: case BF_PARQUET_LT_ENUM:
        case BF_PARQUET_LT_JSON: case BF_PARQUET_LT_BSON:
            return BF_PARQUET_ORDER_UNSIGNED;
        case BF_PARQUET_LT_DECIMAL: return BF_PARQUET_ORDER_SIGNED; /* two's complement */
        default: return BF_PARQUET_ORDER_NONE;
        }
    case BF_PARQUET_FIXED_LEN_BYTE_ARRAY:
        switch (lt) {
        case BF_PARQUET_LT_NONE: case BF_PARQUET_LT_UUID: return BF_PARQUET_ORDER_UNSIGNED;
        case BF_PARQUET_LT_DECIMAL: return BF_PARQUET_ORDER_SIGNED;
        default: return BF_PARQUET_ORDER_NONE; /* INTERVAL, FLOAT16, ... */
        }
    default: return BF_PARQUET_ORDER_NONE; /* INT96 */
    }
}

/* Walks the schema (depth first) into leaf columns with dotted paths. */
static int build_columns(parse_ctx *c) {
    bf_parquet_file *f = c->f;
    if (c->nelems == 0) return BF_ECORRUPT;
    const schema_elem *root = &c->elems[0];
    if (!root->has_children && root->has_type) return BF_ECORRUPT;

    /* Pass 1: count leaves and path bytes, checking the tree's shape. */
    struct frame { uint32_t left; int def, rep; size_t path_len; } st[PQ_MAX_SCHEMA_DEPTH + 1];
    for (int pass = 0; pass < 2; pass++) {
        unsigned depth = 0;
        st[0].left = root->has_children ? (uint32_t)root->num_children : 0;
        st[0].def = st[0].rep = 0;
        st[0].path_len = 0;
        size_t leaves = 0, bytes = 0;
        char *sp = f->strings;
        /* Components of the current path, to write paths in pass 2. */
        uint32_t comp[PQ_MAX_SCHEMA_DEPTH + 1];
        uint32_t i;
        for (i = 1; i < c->nelems; i++) {
            while (depth > 0 && st[depth].left == 0) depth--;
            if (st[depth].left == 0) return BF_ECORRUPT; /* more elements than the tree holds */
            st[depth].left--;
            const schema_elem *e = &c->elems[i];
            int rep = e->has_repetition ? e->repetition : 0;
            int def = st[depth].def + (rep != 0);
            int reps = st[depth].rep + (rep == 2);
            size_t plen = st[depth].path_len + (depth ? 1 : 0) + e->name_len;
            if (plen > ((size_t)1 << 20)) return BF_ETOOBIG;
            comp[depth] = i;
            int group = e->has_children && (e->num_children > 0 || !e->has_type);
            if (group) {
                if (depth + 1 > PQ_MAX_SCHEMA_DEPTH) return BF_ETOOBIG;
                depth++;
                st[depth].left = (uint32_t)e->num_children;
                st[depth].def = def;
                st[depth].rep = reps;
                st[depth].path_len = plen;
                continue;
            }
            if (!e->has_type) return BF_ECORRUPT;
            if (e->type == BF_PARQUET_FIXED_LEN_BYTE_ARRAY && e->type_length <= 0)
                return BF_ECORRUPT;
            if (pass == 1) {
                bf_parquet_column *col = &f->cols[leaves];
                memset(col, 0, sizeof *col);
                col->path = sp;
                for (unsigned d = 0; d <= depth; d++) {
                    const schema_elem *pe = &c->elems[comp[d]];
                    if (d) *sp++ = '.';
                    memcpy(sp, pe->name, pe->name_len);
                    sp += pe->name_len;
                }
                *sp++ = '\0';
                col->name = col->path + (plen - e->name_len);
                col->physical_type = (bf_parquet_type)e->type;
                col->type_length = e->type == BF_PARQUET_FIXED_LEN_BYTE_ARRAY ? e->type_length : 0;
                col->repetition = rep;
                col->max_definition_level = def;
                col->max_repetition_level = reps;
                schema_elem tmp = *e;
                from_converted(&tmp);
                col->logical_type = tmp.logical;
                col->converted_type = e->converted;
                if (tmp.logical == BF_PARQUET_LT_DECIMAL) {
                    col->scale = tmp.lt_scale;
                    col->precision = tmp.lt_precision;
                    if (col->scale < 0 || col->precision < 0 || col->scale > col->precision ||
                        col->scale > PQ_MAX_SCALE)
                        col->logical_type = BF_PARQUET_LT_OTHER; /* unusable: no typed reading */
                }
                if (tmp.logical == BF_PARQUET_LT_INTEGER) {
                    col->bit_width = tmp.bit_width;
                    col->is_signed = tmp.is_signed;
                    if (tmp.bit_width != 8 && tmp.bit_width != 16 && tmp.bit_width != 32 &&
                        tmp.bit_width != 64)
                        col->logical_type = BF_PARQUET_LT_OTHER;
                }
                if (tmp.logical == BF_PARQUET_LT_TIME || tmp.logical == BF_PARQUET_LT_TIMESTAMP) {
                    col->time_unit = tmp.time_unit;
                    col->adjusted_to_utc = tmp.utc;
                    if (!tmp.time_unit) col->logical_type = BF_PARQUET_LT_OTHER;
                }
                col->order = sort_order(col);
            }
            leaves++;
            bytes += plen + 1;
        }
        while (depth > 0 && st[depth].left == 0) depth--;
        if (st[depth].left != 0) return BF_ECORRUPT; /* fewer elements than announced */
        if (pass == 0) {
            if (bytes > 64 * (uint64_t)f->footer_len + 4096) return BF_ETOOBIG;
            f->ncols = leaves;
            f->cols = bf__calloc(leaves ? leaves : 1, sizeof *f->cols);
            f->strings = bf__malloc(bytes ? bytes : 1);
            if (!f->cols || !f->strings) return BF_ENOMEM;
        }
    }
    return BF_OK;
}

static int parse_schema(parse_ctx *c) {
    uint8_t et;
    uint32_t n;
    int rc = bf_thrift_list_begin(&c->r, &et, &n);
    if (rc) return rc;
    if (et != BF_T_STRUCT) return BF_ECORRUPT;
    if (c->elems) return BF_ECORRUPT; /* two schemas */
    c->elems = bf__malloc((n ? n : 1) * sizeof *c->elems);
    if (!c->elems) return BF_ENOMEM;
    c->nelems = n;
    for (uint32_t i = 0; i < n; i++)
        if ((rc = parse_schema_elem(&c->r, &c->elems[i]))) return rc;
    bf_thrift_collection_end(&c->r);
    return build_columns(c);
}

/* Statistics (field 12 of ColumnMetaData). */
static int parse_stats(bf_thrift_reader *r, bf_parquet_chunk *k) {
    int rc = bf_thrift_struct_begin(r);
    if (rc) return rc;
    int16_t last = 0, id;
    uint8_t type;
    const uint8_t *omin = NULL, *omax = NULL, *nmin = NULL, *nmax = NULL, *p;
    size_t ominl = 0, omaxl = 0, nminl = 0, nmaxl = 0, l;
    while ((rc = bf_thrift_field_next(r, &last, &id, &type)) == 1) {
        rc = BF_OK;
        switch (id) {
        case 1: case 2: case 5: case 6:
            EXPECT(BF_T_BINARY)
            if ((rc = bf_thrift_read_binary(r, &p, &l))) break;
            if (id == 1) omax = p, omaxl = l;
            if (id == 2) omin = p, ominl = l;
            if (id == 5) nmax = p, nmaxl = l;
            if (id == 6) nmin = p, nminl = l;
            break;
        case 3: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &k->null_count); k->has_null_count = 1; break;
        case 4: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &k->distinct_count); k->has_distinct_count = 1; break;
        case 7: case 8:
            if (type != BF_T_TRUE && type != BF_T_FALSE) {
                rc = bf_thrift_skip(r, type);
                break;
            }
            if (id == 7) k->max_exact = type == BF_T_TRUE;
            else k->min_exact = type == BF_T_TRUE;
            break;
        default: rc = bf_thrift_skip(r, type); break;
        }
        if (rc) return rc;
    }
    if (rc) return rc;
    if (nmin || nmax) {
        k->has_min = nmin != NULL, k->min = nmin, k->min_len = nminl;
        k->has_max = nmax != NULL, k->max = nmax, k->max_len = nmaxl;
    } else if (omin || omax) {
        k->stats_deprecated = 1;
        k->has_min = omin != NULL, k->min = omin, k->min_len = ominl;
        k->has_max = omax != NULL, k->max = omax, k->max_len = omaxl;
    }
    return BF_OK;
}

/* path_in_schema must name the leaf it stands for. */
static int check_path(bf_thrift_reader *r, const bf_parquet_column *col) {
    uint8_t et;
    uint32_t n;
    int rc = bf_thrift_list_begin(r, &et, &n);
    if (rc) return rc;
    if (et != BF_T_BINARY) return BF_ECORRUPT;
    const char *p = col->path;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *s;
        size_t l;
        if ((rc = bf_thrift_read_binary(r, &s, &l))) return rc;
        if (i && *p++ != '.') return BF_ECORRUPT;
        if (strncmp(p, (const char *)s, l) != 0 || memchr(s, 0, l)) return BF_ECORRUPT;
        p += l;
    }
    bf_thrift_collection_end(r);
    return *p == '\0' ? BF_OK : BF_ECORRUPT;
}

static int parse_column_meta(bf_thrift_reader *r, bf_parquet_chunk *k, const bf_parquet_column *col) {
    int rc = bf_thrift_struct_begin(r);
    if (rc) return rc;
    int16_t last = 0, id;
    uint8_t type;
    int32_t ptype = -1;
    unsigned seen = 0;
    while ((rc = bf_thrift_field_next(r, &last, &id, &type)) == 1) {
        rc = BF_OK;
        switch (id) {
        case 1: EXPECT(BF_T_I32) rc = bf_thrift_read_i32(r, &ptype); seen |= 1; break;
        case 3: EXPECT(BF_T_LIST) rc = check_path(r, col); seen |= 2; break;
        case 4: EXPECT(BF_T_I32) rc = bf_thrift_read_i32(r, &k->codec); seen |= 4; break;
        case 5: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &k->num_values); seen |= 8; break;
        case 6: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &k->total_uncompressed_size); break;
        case 7: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &k->total_compressed_size); break;
        case 9: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &k->data_page_offset); break;
        case 11: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &k->dictionary_page_offset); break;
        case 12: EXPECT(BF_T_STRUCT) rc = parse_stats(r, k); break;
        case 14: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &k->bloom_filter_offset); break;
        case 15: EXPECT(BF_T_I32) rc = bf_thrift_read_i32(r, &k->bloom_filter_length); break;
        default: rc = bf_thrift_skip(r, type); break;
        }
        if (rc) return rc;
    }
    if (rc) return rc;
    if ((seen & 9) != 9) return BF_ECORRUPT; /* type and num_values are required */
    if (ptype != (int32_t)col->physical_type) return BF_ECORRUPT;
    if (k->num_values < 0 || (k->has_null_count && k->null_count < 0)) return BF_ECORRUPT;
    if (k->bloom_filter_offset < -1 || k->bloom_filter_length < -1) return BF_ECORRUPT;
    return BF_OK;
}

static int parse_chunk(bf_thrift_reader *r, bf_parquet_chunk *k, const bf_parquet_column *col) {
    memset(k, 0, sizeof *k);
    k->dictionary_page_offset = -1;
    k->bloom_filter_offset = -1;
    k->bloom_filter_length = -1;
    k->min_exact = k->max_exact = 1;
    int rc = bf_thrift_struct_begin(r);
    if (rc) return rc;
    int16_t last = 0, id;
    uint8_t type;
    int have_meta = 0;
    while ((rc = bf_thrift_field_next(r, &last, &id, &type)) == 1) {
        rc = BF_OK;
        switch (id) {
        case 1: EXPECT(BF_T_BINARY) rc = bf_thrift_skip(r, type); k->external = 1; break;
        case 3:
            EXPECT(BF_T_STRUCT)
            if (have_meta++) return BF_ECORRUPT;
            rc = parse_column_meta(r, k, col);
            break;
        case 8: case 9: k->encrypted = 1; rc = bf_thrift_skip(r, type); break;
        default: rc = bf_thrift_skip(r, type); break;
        }
        if (rc) return rc;
    }
    if (rc) return rc;
    if (!have_meta && !k->encrypted) return BF_ECORRUPT;
    return BF_OK;
}

static int parse_row_group(parse_ctx *c, size_t rg) {
    bf_thrift_reader *r = &c->r;
    bf_parquet_file *f = c->f;
    bf_parquet_row_group *g = &f->rgs[rg];
    g->file_offset = g->total_compressed_size = -1;
    g->ordinal = -1;
    int rc = bf_thrift_struct_begin(r);
    if (rc) return rc;
    int16_t last = 0, id;
    uint8_t type;
    unsigned seen = 0;
    while ((rc = bf_thrift_field_next(r, &last, &id, &type)) == 1) {
        rc = BF_OK;
        switch (id) {
        case 1: {
            EXPECT(BF_T_LIST)
            uint8_t et;
            uint32_t n;
            if (seen & 1) return BF_ECORRUPT;
            if ((rc = bf_thrift_list_begin(r, &et, &n))) return rc;
            if (et != BF_T_STRUCT || n != f->ncols) return BF_ECORRUPT;
            for (uint32_t i = 0; i < n; i++)
                if ((rc = parse_chunk(r, &f->chunks[rg * f->ncols + i], &f->cols[i]))) return rc;
            bf_thrift_collection_end(r);
            seen |= 1;
            break;
        }
        case 2: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &g->total_byte_size); break;
        case 3: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &g->num_rows); seen |= 2; break;
        case 5: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &g->file_offset); break;
        case 6: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &g->total_compressed_size); break;
        case 7: {
            EXPECT(BF_T_I16)
            int16_t o = -1;
            rc = bf_thrift_read_i16(r, &o);
            g->ordinal = o;
            break;
        }
        default: rc = bf_thrift_skip(r, type); break;
        }
        if (rc) return rc;
    }
    if (rc) return rc;
    if (seen != 3 || g->num_rows < 0) return BF_ECORRUPT;
    return BF_OK;
}

static int parse_row_groups(parse_ctx *c) {
    bf_parquet_file *f = c->f;
    uint8_t et;
    uint32_t n;
    int rc = bf_thrift_list_begin(&c->r, &et, &n);
    if (rc) return rc;
    if (et != BF_T_STRUCT) return BF_ECORRUPT;
    /* Every column chunk takes at least a few bytes of the footer, so the
     * arrays below are bounded by its size. */
    uint64_t nchunks;
    if (bf_mul_overflow(n, f->ncols, &nchunks) || nchunks > f->footer_len) return BF_ECORRUPT;
    f->nrgs = n;
    f->rgs = bf__calloc(n ? n : 1, sizeof *f->rgs);
    f->chunks = bf__malloc((nchunks ? (size_t)nchunks : 1) * sizeof *f->chunks);
    f->views = bf__calloc(nchunks ? (size_t)nchunks : 1, sizeof *f->views);
    f->view_status = bf__calloc(nchunks ? (size_t)nchunks : 1, sizeof *f->view_status);
    if (!f->rgs || !f->chunks || !f->views || !f->view_status) return BF_ENOMEM;
    for (uint32_t i = 0; i < n; i++)
        if ((rc = parse_row_group(c, i))) return rc;
    bf_thrift_collection_end(&c->r);
    return BF_OK;
}

static int parse_kv(parse_ctx *c) {
    bf_thrift_reader *r = &c->r;
    uint8_t et;
    uint32_t n;
    int rc = bf_thrift_list_begin(r, &et, &n);
    if (rc) return rc;
    if (et != BF_T_STRUCT || c->f->kv) return BF_ECORRUPT;
    c->f->kv = bf__calloc(n ? n : 1, sizeof *c->f->kv);
    if (!c->f->kv) return BF_ENOMEM;
    c->f->nkv = n;
    for (uint32_t i = 0; i < n; i++) {
        pq_kv *kv = &c->f->kv[i];
        if ((rc = bf_thrift_struct_begin(r))) return rc;
        int16_t last = 0, id;
        uint8_t type;
        while ((rc = bf_thrift_field_next(r, &last, &id, &type)) == 1) {
            if ((id == 1 || id == 2) && type == BF_T_BINARY) {
                if (id == 1) rc = bf_thrift_read_binary(r, &kv->key, &kv->key_len);
                else rc = bf_thrift_read_binary(r, &kv->value, &kv->value_len);
            } else {
                rc = bf_thrift_skip(r, type);
            }
            if (rc) return rc;
        }
        if (rc) return rc;
        if (!kv->key) return BF_ECORRUPT;
    }
    bf_thrift_collection_end(r);
    return BF_OK;
}

static int parse_column_orders(parse_ctx *c) {
    bf_thrift_reader *r = &c->r;
    uint8_t et;
    uint32_t n;
    int rc = bf_thrift_list_begin(r, &et, &n);
    if (rc) return rc;
    if (et != BF_T_STRUCT) return BF_ECORRUPT;
    c->col_order = bf__calloc(n ? n : 1, sizeof *c->col_order);
    if (!c->col_order) return BF_ENOMEM;
    for (uint32_t i = 0; i < n; i++)
        if ((rc = bf_thrift_read_union_id(r, &c->col_order[i]))) return rc;
    bf_thrift_collection_end(r);
    /* One order per leaf column, or it cannot be applied. */
    if (n != c->f->ncols) return BF_ECORRUPT;
    c->have_col_orders = 1;
    return BF_OK;
}

/* Bytes of a value's PLAIN form for fixed-width physical types. */
static int stat_len_ok(const bf_parquet_column *col, size_t len) {
    size_t w = pq_fixed_width(col);
    if (col->physical_type == BF_PARQUET_FIXED_LEN_BYTE_ARRAY) return 1; /* compared by bytes */
    return w == 0 || len == w;
}

/* Whether min/max may prune, by the spec's rules: the column's sort order
 * is known; min_value/max_value need the file's column order (if it lists
 * one) to be TYPE_DEFINED_ORDER; the deprecated min/max were compared
 * signed, so they are only valid for signed, floating-point and boolean
 * columns of fixed width (byte arrays and unsigned integers had signed
 * byte order), or where min equals max. */
static void judge_stats(parse_ctx *c) {
    bf_parquet_file *f = c->f;
    for (size_t rg = 0; rg < f->nrgs; rg++)
        for (size_t i = 0; i < f->ncols; i++) {
            bf_parquet_chunk *k = &f->chunks[rg * f->ncols + i];
            const bf_parquet_column *col = &f->cols[i];
            int ok = col->order != BF_PARQUET_ORDER_NONE && (k->has_min || k->has_max) &&
                     !k->encrypted;
            if (ok && !k->stats_deprecated && c->have_col_orders && c->col_order[i] != 1) ok = 0;
            if (ok && k->stats_deprecated) {
                int same = k->has_min && k->has_max && k->min_len == k->max_len &&
                           memcmp(k->min, k->max, k->min_len) == 0;
                int fixed = col->physical_type != BF_PARQUET_BYTE_ARRAY &&
                            col->physical_type != BF_PARQUET_FIXED_LEN_BYTE_ARRAY;
                int signed_order = col->order == BF_PARQUET_ORDER_SIGNED ||
                                   col->order == BF_PARQUET_ORDER_FLOAT ||
                                   col->order == BF_PARQUET_ORDER_BOOLEAN;
                if (!same && !(fixed && signed_order)) ok = 0;
            }
            if (ok && k->has_min && !stat_len_ok(col, k->min_len)) ok = 0;
            if (ok && k->has_max && !stat_len_ok(col, k->max_len)) ok = 0;
            k->stats_usable = ok != 0;
        }
}

static int parse_footer(bf_parquet_file *f) {
    parse_ctx c;
    memset(&c, 0, sizeof c);
    c.f = f;
    uint64_t fl = f->footer_len;
    bf_thrift_limits lim = {32, fl, fl, 16 * fl + 1024};
    bf_thrift_reader_init(&c.r, f->data + f->footer_start, f->footer_len, &lim);
    bf_thrift_reader *r = &c.r;
    /* Row groups and column orders need the schema; a writer may put the
     * fields in any order, so they are parsed after the struct. */
    size_t rg_at = 0, co_at = 0;
    int have_rg = 0, have_co = 0, have_version = 0, have_rows = 0, rg_done = 0, co_done = 0;
    int rc = bf_thrift_struct_begin(r);
    int16_t last = 0, id;
    uint8_t type;
    while (rc == BF_OK && (rc = bf_thrift_field_next(r, &last, &id, &type)) == 1) {
        rc = BF_OK;
        switch (id) {
        case 1: EXPECT(BF_T_I32) rc = bf_thrift_read_i32(r, &f->version); have_version = 1; break;
        case 2: EXPECT(BF_T_LIST) rc = parse_schema(&c); break;
        case 3: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &f->num_rows); have_rows = 1; break;
        case 4:
            EXPECT(BF_T_LIST)
            if (have_rg++) { rc = BF_ECORRUPT; break; }
            if (c.elems) { /* the usual order: schema first */
                rc = parse_row_groups(&c);
                rg_done = 1;
                break;
            }
            rg_at = bf_thrift_offset(r);
            rc = bf_thrift_skip(r, type);
            break;
        case 5: EXPECT(BF_T_LIST) rc = parse_kv(&c); break;
        case 6: {
            EXPECT(BF_T_BINARY)
            const uint8_t *s;
            size_t l;
            if ((rc = bf_thrift_read_binary(r, &s, &l))) break;
            if (f->created_by) { rc = BF_ECORRUPT; break; }
            f->created_by = bf__malloc(l + 1);
            if (!f->created_by) { rc = BF_ENOMEM; break; }
            memcpy(f->created_by, s, l);
            f->created_by[l] = '\0';
            break;
        }
        case 7:
            EXPECT(BF_T_LIST)
            if (have_co++) { rc = BF_ECORRUPT; break; }
            if (c.elems) {
                rc = parse_column_orders(&c);
                co_done = 1;
                break;
            }
            co_at = bf_thrift_offset(r);
            rc = bf_thrift_skip(r, type);
            break;
        default: rc = bf_thrift_skip(r, type); break;
        }
    }
    if (rc == 0 && (!c.elems || !have_rg || !have_version || !have_rows)) rc = BF_ECORRUPT;
    if (rc == 0 && f->num_rows < 0) rc = BF_ECORRUPT;
    /* Re-enter the buffer at the saved positions (same limits and work). */
    if (rc == 0 && !rg_done) {
        c.r.p = c.r.start + rg_at;
        c.r.depth = 1;
        rc = parse_row_groups(&c);
    }
    if (rc == 0 && have_co && !co_done) {
        c.r.p = c.r.start + co_at;
        c.r.depth = 1;
        rc = parse_column_orders(&c);
    }
    if (rc == 0) judge_stats(&c);
    bf__free(c.elems);
    bf__free(c.col_order);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Opening and closing                                                       */
/* ------------------------------------------------------------------------ */

void bf_parquet_close(bf_parquet_file *f) {
    if (!f) return;
    if (f->views) {
        size_t n = f->nrgs * f->ncols;
        for (size_t i = 0; i < n; i++) bf_sbbf_free(atomic_load(&f->views[i]));
    }
    bf__free((void *)f->views);
    bf__free((void *)f->view_status);
    bf__free(f->chunks);
    bf__free(f->rgs);
    bf__free(f->cols);
    bf__free(f->strings);
    bf__free(f->kv);
    bf__free(f->created_by);
    if (f->map) munmap(f->map, f->size);
    bf__free(f);
}

/* Checks the magic at both ends and the footer length. */
static int check_frame(const uint8_t *d, size_t len, size_t *footer_start, size_t *footer_len) {
    static const char par1[4] = {'P', 'A', 'R', '1'}, pare[4] = {'P', 'A', 'R', 'E'};
    size_t head = len < 4 ? len : 4;
    if (head && memcmp(d, pare, head) == 0 && len >= 4) return BF_EENCRYPTED;
    if (memcmp(d, par1, head) != 0) return BF_EFORMAT;
    if (len < 12) return BF_ETRUNCATED; /* "PAR1" + length + "PAR1" at the least */
    if (memcmp(d + len - 4, pare, 4) == 0) return BF_EENCRYPTED;
    if (memcmp(d + len - 4, par1, 4) != 0) return BF_ETRUNCATED; /* the end is missing */
    uint32_t fl = bf_load_le32(d + len - 8);
    if (fl > len - 12) return BF_ETRUNCATED; /* footer larger than the file */
    *footer_len = fl;
    *footer_start = len - 8 - fl;
    return BF_OK;
}

static int open_common(bf_parquet_file **out, const uint8_t *data, size_t len, void *map) {
    size_t fs = 0, fl = 0;
    int rc = check_frame(data, len, &fs, &fl);
    if (rc) return rc;
    bf_parquet_file *f = bf__calloc(1, sizeof *f);
    if (!f) return BF_ENOMEM;
    f->data = data;
    f->size = len;
    f->footer_start = fs;
    f->footer_len = fl;
    rc = parse_footer(f);
    if (rc) {
        bf_parquet_close(f); /* does not unmap: map is set only on success */
        return rc;
    }
    f->map = map;
    *out = f;
    return BF_OK;
}

int bf_parquet_open_buffer(bf_parquet_file **out, const void *buf, size_t len) {
    if (!out || (!buf && len)) return BF_EINVAL;
    if (!buf) return BF_EFORMAT;
    return open_common(out, buf, len, NULL);
}

int bf_parquet_open(bf_parquet_file **out, const char *path) {
    if (!out || !path) return BF_EINVAL;
    int fd;
    size_t size;
    int rc = bf__open_regular(path, &fd, &size);
    if (rc) return rc;
    if (size < 12) { /* too short to map usefully; judged from its bytes */
        uint8_t b[12];
        ssize_t got = read(fd, b, sizeof b);
        close(fd);
        if (got < 0) return BF_EIO;
        size_t fs, fl;
        rc = check_frame(b, (size_t)got, &fs, &fl);
        return rc ? rc : BF_ETRUNCATED;
    }
    void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    int saved = errno;
    close(fd);
    if (map == MAP_FAILED) {
        errno = saved;
        return saved == ENOMEM ? BF_ENOMEM : BF_EIO;
    }
    /* Probes touch a filter's blocks at random: read-ahead only wastes
     * page cache. */
    madvise(map, size, MADV_RANDOM);
    rc = open_common(out, map, size, map);
    if (rc) munmap(map, size);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Accessors                                                                 */
/* ------------------------------------------------------------------------ */

int64_t bf_parquet_num_rows(const bf_parquet_file *f) { return f ? f->num_rows : 0; }
int32_t bf_parquet_version(const bf_parquet_file *f) { return f ? f->version : 0; }
const char *bf_parquet_created_by(const bf_parquet_file *f) { return f ? f->created_by : NULL; }
size_t bf_parquet_num_row_groups(const bf_parquet_file *f) { return f ? f->nrgs : 0; }
size_t bf_parquet_num_columns(const bf_parquet_file *f) { return f ? f->ncols : 0; }
uint64_t bf_parquet_file_size(const bf_parquet_file *f) { return f ? f->size : 0; }
uint64_t bf_parquet_footer_size(const bf_parquet_file *f) { return f ? f->footer_len : 0; }
size_t bf_parquet_num_metadata(const bf_parquet_file *f) { return f ? f->nkv : 0; }

int bf_parquet_metadata(const bf_parquet_file *f, size_t i, const char **key, size_t *key_len,
                        const char **value, size_t *value_len) {
    if (!f || i >= f->nkv) return BF_EINVAL;
    const pq_kv *kv = &f->kv[i];
    if (key) *key = (const char *)kv->key;
    if (key_len) *key_len = kv->key_len;
    if (value) *value = (const char *)kv->value;
    if (value_len) *value_len = kv->value_len;
    return BF_OK;
}

int bf_parquet_column_info(const bf_parquet_file *f, size_t col, bf_parquet_column *out) {
    if (!f || !out) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    *out = f->cols[col];
    return BF_OK;
}

int bf_parquet_find_column(const bf_parquet_file *f, const char *path, size_t *col) {
    if (!f || !path || !col) return BF_EINVAL;
    for (size_t i = 0; i < f->ncols; i++)
        if (strcmp(f->cols[i].path, path) == 0) {
            *col = i;
            return BF_OK;
        }
    return BF_ENOCOLUMN;
}

int bf_parquet_row_group_info(const bf_parquet_file *f, size_t rg, bf_parquet_row_group *out) {
    if (!f || !out || rg >= f->nrgs) return BF_EINVAL;
    *out = f->rgs[rg];
    return BF_OK;
}

int bf_parquet_chunk_info(const bf_parquet_file *f, size_t rg, size_t col, bf_parquet_chunk *out) {
    if (!f || !out || rg >= f->nrgs) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    *out = *pq_chunk(f, rg, col);
    return BF_OK;
}

/* ------------------------------------------------------------------------ */
/* Bloom filters                                                             */
/* ------------------------------------------------------------------------ */

/* Finds and validates a chunk's filter: buf and len get header + bitset. */
static int locate_filter(const bf_parquet_file *f, const bf_parquet_chunk *k,
                         const uint8_t **buf, size_t *len) {
    if (k->encrypted) return BF_EENCRYPTED;
    if (k->bloom_filter_offset < 0) return BF_ENOFILTER;
    if (k->external) return BF_EUNSUPPORTED; /* offsets refer to another file */
    uint64_t off = (uint64_t)k->bloom_filter_offset;
    /* Filters live between the leading magic and the footer. */
    if (off < 4 || off >= f->footer_start) return BF_ECORRUPT;
    size_t avail = f->footer_start - (size_t)off;
    if (k->bloom_filter_length >= 0) {
        if ((uint64_t)k->bloom_filter_length > avail) return BF_ECORRUPT;
        avail = (size_t)k->bloom_filter_length;
    }
    *buf = f->data + off;
    *len = avail;
    return BF_OK;
}

static int make_view(const bf_parquet_file *f, const bf_parquet_chunk *k, bf_sbbf **out,
                     uint64_t *offset, uint64_t *length) {
    const uint8_t *buf;
    size_t len, consumed = 0;
    int rc = locate_filter(f, k, &buf, &len);
    if (rc) return rc;
    bf_sbbf *v = NULL;
    if ((rc = bf_sbbf_view_parquet(&v, buf, len, &consumed))) return rc;
    /* A recorded length covers the header and the bitset exactly. */
    if (k->bloom_filter_length >= 0 && consumed != (size_t)k->bloom_filter_length) {
        bf_sbbf_free(v);
        return BF_ECORRUPT;
    }
    if (offset) *offset = (uint64_t)k->bloom_filter_offset;
    if (length) *length = consumed;
    *out = v;
    return BF_OK;
}

/* The cached view of chunk (rg, col): resolved once, shared by threads. */
static int cached_view(const bf_parquet_file *f, size_t rg, size_t col, const bf_sbbf **out) {
    size_t i = rg * f->ncols + col;
    int st = atomic_load_explicit(&f->view_status[i], memory_order_acquire);
    if (st == 1) {
        *out = atomic_load_explicit(&f->views[i], memory_order_relaxed);
        return BF_OK;
    }
    if (st < 0) return st;
    bf_sbbf *v = NULL;
    int rc = make_view(f, pq_chunk(f, rg, col), &v, NULL, NULL);
    if (rc) {
        if (rc != BF_ENOMEM) atomic_store_explicit(&f->view_status[i], rc, memory_order_release);
        return rc;
    }
    bf_sbbf *expected = NULL;
    if (!atomic_compare_exchange_strong(&f->views[i], &expected, v)) {
        bf_sbbf_free(v); /* another thread won */
        v = expected;
    }
    atomic_store_explicit(&f->view_status[i], 1, memory_order_release);
    *out = v;
    return BF_OK;
}

int bf_parquet_bloom_filter_location(const bf_parquet_file *f, size_t rg, size_t col,
                                     uint64_t *offset, uint64_t *length, uint64_t *num_bytes) {
    if (!f || rg >= f->nrgs) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    const bf_sbbf *v;
    int rc = cached_view(f, rg, col, &v);
    if (rc) return rc;
    const uint8_t *buf = NULL;
    size_t len, consumed = 0;
    const bf_parquet_chunk *k = pq_chunk(f, rg, col);
    if ((rc = locate_filter(f, k, &buf, &len))) return rc;
    /* The bitset ends the filter: header = bitset start - offset. */
    consumed = (size_t)((const uint8_t *)bf_sbbf_bitset(v) - buf) + bf_sbbf_num_bytes(v);
    if (offset) *offset = (uint64_t)k->bloom_filter_offset;
    if (length) *length = consumed;
    if (num_bytes) *num_bytes = bf_sbbf_num_bytes(v);
    return BF_OK;
}

int bf_parquet_bloom_filter(const bf_parquet_file *f, size_t rg, size_t col, bf_sbbf **out) {
    if (!f || !out || rg >= f->nrgs) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    return make_view(f, pq_chunk(f, rg, col), out, NULL, NULL);
}

/* ------------------------------------------------------------------------ */
/* Probing                                                                   */
/* ------------------------------------------------------------------------ */

/* How values of a column are compared with its statistics. */
enum kind { K_NONE, K_BOOL, K_I32, K_U32, K_I64, K_U64, K_F32, K_F64, K_BYTES, K_DEC };

static enum kind kind_of(const bf_parquet_column *c) {
    switch (c->order) {
    case BF_PARQUET_ORDER_BOOLEAN: return K_BOOL;
    case BF_PARQUET_ORDER_FLOAT: return c->physical_type == BF_PARQUET_FLOAT ? K_F32 : K_F64;
    case BF_PARQUET_ORDER_SIGNED:
        if (c->physical_type == BF_PARQUET_INT32) return K_I32;
        if (c->physical_type == BF_PARQUET_INT64) return K_I64;
        return K_DEC; /* decimal in a byte array: big-endian two's complement */
    case BF_PARQUET_ORDER_UNSIGNED:
        if (c->physical_type == BF_PARQUET_INT32) return K_U32;
        if (c->physical_type == BF_PARQUET_INT64) return K_U64;
        return K_BYTES;
    default: return K_NONE;
    }
}

/* Unsigned lexicographic order of byte strings. */
static int cmp_bytes(const uint8_t *a, size_t al, const uint8_t *b, size_t bl) {
    size_t n = al < bl ? al : bl;
    int c = n ? memcmp(a, b, n) : 0;
    if (c) return c < 0 ? -1 : 1;
    return al < bl ? -1 : al > bl;
}

/* Big-endian two's complement integers of any lengths (empty = 0). */
static int cmp_decimal(const uint8_t *a, size_t al, const uint8_t *b, size_t bl) {
    int na = al && (a[0] & 0x80), nb = bl && (b[0] & 0x80);
    if (na != nb) return na ? -1 : 1;
    uint8_t ext = na ? 0xff : 0x00;
    size_t n = al > bl ? al : bl;
    for (size_t i = 0; i < n; i++) {
        uint8_t x = i + al >= n ? a[i + al - n] : ext;
        uint8_t y = i + bl >= n ? b[i + bl - n] : ext;
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

/* A value decoded for comparison. */
typedef union key {
    int64_t i;
    uint64_t u;
    double d;
} key;

static key decode(enum kind kd, const uint8_t *p) {
    key k;
    switch (kd) {
    case K_BOOL: k.i = p[0] != 0; break;
    case K_I32: k.i = (int32_t)bf_load_le32(p); break;
    case K_U32: k.u = bf_load_le32(p); break;
    case K_I64: k.i = (int64_t)bf_load_le64(p); break;
    case K_U64: k.u = bf_load_le64(p); break;
    case K_F32: {
        uint32_t u = bf_load_le32(p);
        float x;
        memcpy(&x, &u, 4);
        k.d = x;
        break;
    }
    case K_F64: {
        uint64_t u = bf_load_le64(p);
        memcpy(&k.d, &u, 8);
        break;
    }
    default: k.u = 0; break;
    }
    return k;
}

/* The values of a batch: packed fixed-width, or pointer + length arrays. */
typedef struct values {
    const uint8_t *packed;
    size_t width;
    const void *const *ptrs;
    const size_t *lens;
} values;

static inline const uint8_t *val_at(const values *v, size_t i, size_t *len) {
    if (v->packed) {
        *len = v->width;
        return v->packed + i * v->width;
    }
    *len = v->lens ? v->lens[i] : v->width;
    return (const uint8_t *)v->ptrs[i];
}

/* Row groups' stats bounds for one column, decoded once per call. */
typedef struct bounds {
    int use_min, use_max;
    key min, max;
} bounds;

static void chunk_bounds(const bf_parquet_chunk *k, enum kind kd, bounds *b) {
    b->use_min = k->stats_usable && k->has_min;
    b->use_max = k->stats_usable && k->has_max;
    if (kd == K_BYTES || kd == K_DEC) return;
    if (b->use_min) b->min = decode(kd, k->min);
    if (b->use_max) b->max = decode(kd, k->max);
    if (kd == K_F32 || kd == K_F64) { /* a NaN bound is ignored */
        if (b->use_min && isnan(b->min.d)) b->use_min = 0;
        if (b->use_max && isnan(b->max.d)) b->use_max = 0;
    }
}

/* 1 if value v lies outside the bounds (so the row group can be skipped). */
static inline int outside(enum kind kd, const bounds *b, const bf_parquet_chunk *k, key v,
                          const uint8_t *p, size_t len) {
    switch (kd) {
    case K_BOOL: case K_I32: case K_I64:
        return (b->use_min && v.i < b->min.i) || (b->use_max && v.i > b->max.i);
    case K_U32: case K_U64:
        return (b->use_min && v.u < b->min.u) || (b->use_max && v.u > b->max.u);
    case K_F32: case K_F64: /* NaN compares false: never outside */
        return (b->use_min && v.d < b->min.d) || (b->use_max && v.d > b->max.d);
    case K_BYTES:
        return (b->use_min && cmp_bytes(p, len, k->min, k->min_len) < 0) ||
               (b->use_max && cmp_bytes(p, len, k->max, k->max_len) > 0);
    case K_DEC:
        return (b->use_min && cmp_decimal(p, len, k->min, k->min_len) < 0) ||
               (b->use_max && cmp_decimal(p, len, k->max, k->max_len) > 0);
    default: return 0;
    }
}

/* A PLAIN value of the column's physical type (booleans: one byte, 0 or 1). */
static int value_ok(const bf_parquet_column *c, const uint8_t *p, size_t len) {
    if (!p && len) return 0;
    if (c->physical_type == BF_PARQUET_BYTE_ARRAY) return 1;
    if (len != pq_fixed_width(c)) return 0;
    return c->physical_type != BF_PARQUET_BOOLEAN || p[0] <= 1;
}

/* Per value: its hash, the other zero's hash for floating-point zeros, and
 * whether the filter may not judge it (NaN). */
enum { V_PLAIN = 0, V_ZERO = 1, V_NAN = 2 };

static uint8_t float_class(const bf_parquet_column *c, const uint8_t *p, uint64_t *alt) {
    if (c->physical_type == BF_PARQUET_FLOAT) {
        uint32_t u = bf_load_le32(p);
        if ((u & 0x7fffffffu) == 0) {
            uint8_t b[4];
            bf_store_le32(b, u ^ 0x80000000u);
            *alt = bf_hash_xxh64(b, 4);
            return V_ZERO;
        }
        if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x007fffffu)) return V_NAN;
    } else if (c->physical_type == BF_PARQUET_DOUBLE) {
        uint64_t u = bf_load_le64(p);
        if ((u & 0x7fffffffffffffffu) == 0) {
            uint8_t b[8];
            bf_store_le64(b, u ^ 0x8000000000000000u);
            *alt = bf_hash_xxh64(b, 8);
            return V_ZERO;
        }
        if ((u & 0x7ff0000000000000u) == 0x7ff0000000000000u && (u & 0x000fffffffffffffu))
            return V_NAN;
    }
    return V_PLAIN;
}

/* Whether a chunk holds no non-null value. */
static int chunk_empty(const bf_parquet_file *f, size_t rg, const bf_parquet_chunk *k) {
    if (f->rgs[rg].num_rows == 0) return 1;
    if (k->encrypted) return 0;
    if (k->num_values == 0) return 1;
    return k->has_null_count && k->null_count == k->num_values;
}

/* The statistics verdict of every value for one chunk (o[i] = SKIP_STATS
 * or MAYBE); returns how many are MAYBE. One branch-free loop per kind. */
#define RANGE_PASS(T, field)                                                     \
    do {                                                                         \
        T mn = b->min.field, mx = b->max.field;                                  \
        for (size_t i = 0; i < n; i++) {                                         \
            uint8_t s = (uint8_t)((lo & (keys[i].field < mn)) | (hi & (keys[i].field > mx))); \
            o[i] = s;                                                            \
            m += !s;                                                             \
        }                                                                        \
    } while (0)
static size_t stats_pass(enum kind kd, const bounds *b, const bf_parquet_chunk *k,
                         const key *keys, const values *vals, size_t n, uint8_t *o) {
    size_t m = 0;
    int lo = b->use_min, hi = b->use_max;
    switch (kd) {
    case K_BOOL: case K_I32: case K_I64: RANGE_PASS(int64_t, i); break;
    case K_U32: case K_U64: RANGE_PASS(uint64_t, u); break;
    case K_F32: case K_F64: RANGE_PASS(double, d); break; /* NaN compares false: kept */
    default:
        for (size_t i = 0; i < n; i++) {
            size_t len;
            const uint8_t *p = val_at(vals, i, &len);
            int skip = outside(kd, b, k, keys[i], p, len);
            o[i] = skip ? BF_PARQUET_SKIP_STATS : BF_PARQUET_MAYBE;
            m += !skip;
        }
    }
    return m;
}

/* Statistics and filter answers (hit) merged: SKIP_STATS, SKIP_BLOOM or
 * MAYBE, one branch-free loop per kind. */
#define MERGE_PASS(T, field)                                                     \
    do {                                                                         \
        T mn = b->min.field, mx = b->max.field; /* locals: o may alias b */      \
        for (size_t i = 0; i < n; i++) {                                         \
            int out = (lo & (keys[i].field < mn)) | (hi & (keys[i].field > mx)); \
            o[i] = out ? BF_PARQUET_SKIP_STATS                                   \
                       : (uint8_t)(hit[i] ? BF_PARQUET_MAYBE : BF_PARQUET_SKIP_BLOOM); \
        }                                                                        \
    } while (0)
static void merge_pass(enum kind kd, const bounds *b, const bf_parquet_chunk *k,
                       const key *keys, const values *vals, const uint8_t *hit, size_t n,
                       uint8_t *o) {
    int lo = b->use_min, hi = b->use_max;
    switch (kd) {
    case K_BOOL: case K_I32: case K_I64: MERGE_PASS(int64_t, i); break;
    case K_U32: case K_U64: MERGE_PASS(uint64_t, u); break;
    case K_F32: case K_F64: MERGE_PASS(double, d); break;
    default:
        for (size_t i = 0; i < n; i++) {
            size_t len;
            const uint8_t *p = val_at(vals, i, &len);
            o[i] = outside(kd, b, k, keys[i], p, len)
                       ? BF_PARQUET_SKIP_STATS
                       : (uint8_t)(hit[i] ? BF_PARQUET_MAYBE : BF_PARQUET_SKIP_BLOOM);
        }
    }
}

/*
 * Batches are probed a tile of values at a time: each value is hashed and
 * decoded once, and its tile's hashes and scratch (46 bytes a value) stay
 * in L2 while every row group's filter is asked about the tile; memory
 * does not grow with n. The tile is as large as it is because each tile
 * brings every row group's filter back into L1: with 100 filters of 16 KiB,
 * 2048-value tiles (everything in L1) ran about 25 % slower than 8192 ones
 * (bench/bench_parquet.cc, docs/parquet.md "Performance"). PQ_TILE is in
 * parquet_file.h for the tests, which cut batches on tile boundaries.
 *
 * Per tile, the range of its values is found once; per row group, that
 * range against the chunk's statistics says whether every value is inside
 * (no per-value statistics test: the filter's answers become the verdicts
 * in one pass), every value is outside (no filter call), or only some are.
 * In the last case the values outside the range all chunks' statistics
 * share (the exceptions: typically a handful) are the only ones checked.
 */

/* The smallest and largest value of a tile in the column's order (NaN
 * left out: it is never outside). any = 0 when the tile has no comparable
 * value (only NaNs). */
typedef struct tile_range {
    int any, has_nan;
    key lo, hi;                     /* numeric kinds */
    const uint8_t *lop, *hip;       /* byte kinds */
    size_t lol, hil;
} tile_range;

static int cmp_kind(enum kind kd, const uint8_t *a, size_t al, const uint8_t *b, size_t bl) {
    return kd == K_DEC ? cmp_decimal(a, al, b, bl) : cmp_bytes(a, al, b, bl);
}

static void find_range(enum kind kd, const key *keys, const values *vals, size_t n,
                       tile_range *t) {
    memset(t, 0, sizeof *t);
    switch (kd) {
    case K_BOOL: case K_I32: case K_I64: {
        int64_t lo = keys[0].i, hi = keys[0].i;
        for (size_t i = 1; i < n; i++) {
            lo = keys[i].i < lo ? keys[i].i : lo;
            hi = keys[i].i > hi ? keys[i].i : hi;
        }
        t->any = 1, t->lo.i = lo, t->hi.i = hi;
        break;
    }
    case K_U32: case K_U64: {
        uint64_t lo = keys[0].u, hi = keys[0].u;
        for (size_t i = 1; i < n; i++) {
            lo = keys[i].u < lo ? keys[i].u : lo;
            hi = keys[i].u > hi ? keys[i].u : hi;
        }
        t->any = 1, t->lo.u = lo, t->hi.u = hi;
        break;
    }
    case K_F32: case K_F64: {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            double d = keys[i].d;
            if (isnan(d)) t->has_nan = 1;
            else t->any = 1, lo = d < lo ? d : lo, hi = d > hi ? d : hi;
        }
        t->lo.d = lo, t->hi.d = hi;
        break;
    }
    case K_BYTES: case K_DEC: {
        size_t len;
        const uint8_t *p = val_at(vals, 0, &len);
        t->lop = t->hip = p, t->lol = t->hil = len;
        for (size_t i = 1; i < n; i++) {
            p = val_at(vals, i, &len);
            if (cmp_kind(kd, p, len, t->lop, t->lol) < 0) t->lop = p, t->lol = len;
            else if (cmp_kind(kd, p, len, t->hip, t->hil) > 0) t->hip = p, t->hil = len;
        }
        t->any = 1;
        break;
    }
    default: break;
    }
}

/* Where a tile's values lie against a chunk's statistics. */
enum { R_INSIDE, R_OUTSIDE, R_MIXED };

static int range_vs_stats(enum kind kd, const tile_range *t, const bounds *b,
                          const bf_parquet_chunk *k) {
    if (!b->use_min && !b->use_max) return R_INSIDE;
    if (!t->any) return R_INSIDE; /* NaNs only */
    int lo_below, hi_below, lo_above, hi_above; /* the tile's ends against min / max */
    switch (kd) {
    case K_BOOL: case K_I32: case K_I64:
        lo_below = t->lo.i < b->min.i, hi_below = t->hi.i < b->min.i;
        lo_above = t->lo.i > b->max.i, hi_above = t->hi.i > b->max.i;
        break;
    case K_U32: case K_U64:
        lo_below = t->lo.u < b->min.u, hi_below = t->hi.u < b->min.u;
        lo_above = t->lo.u > b->max.u, hi_above = t->hi.u > b->max.u;
        break;
    case K_F32: case K_F64:
        lo_below = t->lo.d < b->min.d, hi_below = t->hi.d < b->min.d;
        lo_above = t->lo.d > b->max.d, hi_above = t->hi.d > b->max.d;
        break;
    case K_BYTES: case K_DEC:
        lo_below = b->use_min && cmp_kind(kd, t->lop, t->lol, k->min, k->min_len) < 0;
        hi_below = b->use_min && cmp_kind(kd, t->hip, t->hil, k->min, k->min_len) < 0;
        lo_above = b->use_max && cmp_kind(kd, t->lop, t->lol, k->max, k->max_len) > 0;
        hi_above = b->use_max && cmp_kind(kd, t->hip, t->hil, k->max, k->max_len) > 0;
        break;
    default: return R_INSIDE;
    }
    lo_below &= b->use_min, hi_below &= b->use_min;
    lo_above &= b->use_max, hi_above &= b->use_max;
    if (!lo_below && !hi_above) return R_INSIDE;
    /* All outside: every comparable value on one side, and no NaN (kept). */
    if (!t->has_nan && (hi_below || lo_above)) return R_OUTSIDE;
    return R_MIXED;
}

/* The filter's answers (0 or 1 per value) in place as verdicts: 1 -> MAYBE
 * (0), 0 -> SKIP_BLOOM (2). Eight at a time; no byte carries into the next. */
static void hits_to_verdicts(uint8_t *o, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, o + i, 8);
        w = (w ^ 0x0101010101010101u) << 1;
        memcpy(o + i, &w, 8);
    }
    for (; i < n; i++) o[i] = (uint8_t)((o[i] ^ 1u) << 1);
}

/* The statistics range every usable chunk of the column contains: the
 * largest min and the smallest max, as a bounds and a chunk that outside()
 * reads. A value inside it is inside every chunk's statistics; the few
 * outside it (the exceptions) are the only ones a row group's statistics
 * need to be checked for. */
typedef struct core_range {
    bounds b;
    bf_parquet_chunk k; /* min, max and their lengths for the byte kinds */
} core_range;

static int bound_cmp(enum kind kd, key a, const void *ap, size_t al, key b, const void *bp,
                     size_t bl) {
    switch (kd) {
    case K_BOOL: case K_I32: case K_I64: return (a.i > b.i) - (a.i < b.i);
    case K_U32: case K_U64: return (a.u > b.u) - (a.u < b.u);
    case K_F32: case K_F64: return (a.d > b.d) - (a.d < b.d);
    default: return cmp_kind(kd, ap, al, bp, bl);
    }
}

static void find_core(const bf_parquet_file *f, size_t col, enum kind kd, core_range *cr) {
    memset(cr, 0, sizeof *cr);
    for (size_t rg = 0; rg < f->nrgs; rg++) {
        const bf_parquet_chunk *k = pq_chunk(f, rg, col);
        if (chunk_empty(f, rg, k)) continue;
        bounds b;
        chunk_bounds(k, kd, &b);
        if (b.use_min && (!cr->b.use_min || bound_cmp(kd, b.min, k->min, k->min_len, cr->b.min,
                                                      cr->k.min, cr->k.min_len) > 0)) {
            cr->b.use_min = 1, cr->b.min = b.min;
            cr->k.min = k->min, cr->k.min_len = k->min_len;
        }
        if (b.use_max && (!cr->b.use_max || bound_cmp(kd, b.max, k->max, k->max_len, cr->b.max,
                                                      cr->k.max, cr->k.max_len) < 0)) {
            cr->b.use_max = 1, cr->b.max = b.max;
            cr->k.max = k->max, cr->k.max_len = k->max_len;
        }
    }
}

/*
 * Sorted tiles. With clustered data (each row group its own range of
 * values) most values of a tile lie outside most row groups' statistics,
 * and a pass over the tile per row group costs more than the few filter
 * lookups that are left. Then the tile's values are sorted once (radix
 * sort of order-preserving 64-bit keys, numeric kinds only); per row group
 * two binary searches find the values inside [min, max], and only those
 * are touched.
 */
/* A tile is sorted once at least this many row groups are left to judge
 * with it: sorting costs about as much as a few passes over the tile. */
#define PQ_SORT_MIN_RGS 4

static int sortable(enum kind kd) {
    return kd == K_BOOL || kd == K_I32 || kd == K_I64 || kd == K_U32 || kd == K_U64 ||
           kd == K_F32 || kd == K_F64;
}

/* An unsigned key in the order statistics compare values of this kind
 * (floats: -0 taken as +0, which compare equal; never called for NaN). */
static inline uint64_t order_key(enum kind kd, key v) {
    switch (kd) {
    case K_U32: case K_U64: return v.u;
    case K_F32: case K_F64: {
        double d = v.d == 0.0 ? 0.0 : v.d;
        uint64_t b;
        memcpy(&b, &d, 8);
        return (b >> 63) ? ~b : b | ((uint64_t)1 << 63);
    }
    default: return (uint64_t)v.i ^ ((uint64_t)1 << 63);
    }
}

/* Scratch for one tile of up to `cap` values. */
typedef struct scratch {
    uint64_t *hash, *gh, *alt;
    key *keys;
    uint32_t *idx, *special, *exc;
    uint8_t *cls, *hit;
    /* Sorted tile (NULL when the tile may not be sorted): sk[0, ns) the
     * comparable values' order keys ascending, perm[p] the position in the
     * tile of sk[p]; perm[ns, n) the NaNs. sk2 and perm2: the sort's
     * other buffers. */
    uint64_t *sk, *sk2;
    uint32_t *perm, *perm2;
    size_t ns;
    int sorted;
} scratch;

/* Sorts the tile's comparable values into sc->sk / sc->perm: LSD radix
 * sort, a byte at a time, skipping the bytes all keys share. */
static void sort_tile(enum kind kd, const key *keys, size_t n, scratch *sc) {
    uint64_t *a = sc->sk, *b = sc->sk2;
    uint32_t *pa = sc->perm, *pb = sc->perm2;
    int fp = kd == K_F32 || kd == K_F64;
    size_t ns = 0;
    for (size_t i = 0; i < n; i++)
        if (!fp || !isnan(keys[i].d)) a[ns] = order_key(kd, keys[i]), pa[ns++] = (uint32_t)i;
    uint32_t count[8][256];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < ns; i++)
        for (unsigned d = 0; d < 8; d++) count[d][(a[i] >> (8 * d)) & 0xff]++;
    for (unsigned d = 0; d < 8; d++) {
        uint32_t *c = count[d];
        if (ns == 0 || c[(a[0] >> (8 * d)) & 0xff] == ns) continue; /* one bucket: in order */
        uint32_t sum = 0;
        for (unsigned j = 0; j < 256; j++) {
            uint32_t t = c[j];
            c[j] = sum;
            sum += t;
        }
        for (size_t i = 0; i < ns; i++) {
            uint32_t at = c[(a[i] >> (8 * d)) & 0xff]++;
            b[at] = a[i];
            pb[at] = pa[i];
        }
        uint64_t *t = a;
        a = b, b = t;
        uint32_t *tp = pa;
        pa = pb, pb = tp;
    }
    if (a != sc->sk) { /* the result is in the other buffers: swap roles */
        sc->sk2 = sc->sk, sc->sk = a;
        sc->perm2 = sc->perm, sc->perm = pa;
    }
    if (ns < n) /* the NaNs after the sorted values */
        for (size_t i = 0, j = ns; i < n; i++)
            if (isnan(keys[i].d)) pa[j++] = (uint32_t)i;
    sc->ns = ns;
    sc->sorted = 1;
}

/* First position p in sk[0, n) with sk[p] >= x (strict: > x). */
static size_t lower_bound(const uint64_t *sk, size_t n, uint64_t x, int strict) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (sk[mid] < x || (strict && sk[mid] == x)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Statistics and filter verdicts of a sorted tile against one chunk. */
static void sorted_pass(enum kind kd, const bounds *b, const bf_sbbf *v, scratch *sc, size_t n,
                        uint8_t *o) {
    size_t ns = sc->ns;
    const uint32_t *perm = sc->perm;
    size_t lo = b->use_min ? lower_bound(sc->sk, ns, order_key(kd, b->min), 0) : 0;
    size_t hi = b->use_max ? lower_bound(sc->sk, ns, order_key(kd, b->max), 1) : ns;
    if (hi < lo) hi = lo; /* min > max: nothing inside */
    size_t m = (hi - lo) + (n - ns); /* inside, and the NaNs */
    if (m * 4 < n) {
        /* Few inside: statistics first, the filter for those alone. */
        memset(o, BF_PARQUET_SKIP_STATS, n);
        size_t j = 0;
        for (size_t p = lo; p < hi; p++) sc->idx[j] = perm[p], sc->gh[j++] = sc->hash[perm[p]];
        for (size_t p = ns; p < n; p++) sc->idx[j] = perm[p], sc->gh[j++] = sc->hash[perm[p]];
        bf_sbbf_contains_hashes(v, sc->gh, m, sc->hit);
        for (size_t t = 0; t < m; t++)
            o[sc->idx[t]] = (uint8_t)(sc->hit[t] ? BF_PARQUET_MAYBE : BF_PARQUET_SKIP_BLOOM);
    } else {
        /* Most inside: the filter's verdicts, then the others' statistics. */
        bf_sbbf_contains_hashes(v, sc->hash, n, o);
        hits_to_verdicts(o, n);
        for (size_t p = 0; p < lo; p++) o[perm[p]] = BF_PARQUET_SKIP_STATS;
        for (size_t p = hi; p < ns; p++) o[perm[p]] = BF_PARQUET_SKIP_STATS;
    }
}

/* Small batches live on the stack; larger ones use one heap tile (of at
 * most PQ_TILE values). */
#define PQ_STACK_VALUES 16

/* Verdicts of one tile (n values) for every row group: o + rg * stride. */
static int probe_tile(const bf_parquet_file *f, size_t col, const bf_parquet_column *c,
                      enum kind kd, const core_range *cr, const values *vals, size_t n,
                      unsigned flags, scratch *sc, uint8_t *out, size_t stride) {
    int fp = c->physical_type == BF_PARQUET_FLOAT || c->physical_type == BF_PARQUET_DOUBLE;
    int need_bloom = !(flags & BF_PARQUET_NO_BLOOM);
    uint64_t *hash = sc->hash;
    key *keys = sc->keys;
    /* Hash (and decode) each value once; note the floating-point values
     * the filter may not judge alone (zeros, NaN). */
    size_t nspecial = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const uint8_t *p = val_at(vals, i, &len);
        if (need_bloom) /* 4 and 8 bytes: XXH64 specialised for the length */
            hash[i] = len == 8   ? bf_hash_int64((int64_t)bf_load_le64(p))
                      : len == 4 ? bf_hash_int32((int32_t)bf_load_le32(p))
                                 : bf_hash_xxh64(p, len);
        keys[i] = decode(kd, p); /* zero for kinds compared as bytes */
        if (fp) {
            sc->cls[i] = float_class(c, p, &sc->alt[i]);
            if (sc->cls[i] != V_PLAIN) sc->special[nspecial++] = (uint32_t)i;
        }
    }
    tile_range tr;
    size_t nexc = n; /* without a core range, every value is an exception */
    if (kd != K_NONE) {
        find_range(kd, keys, vals, n, &tr);
        if (cr) {
            nexc = 0;
            for (size_t i = 0; i < n; i++) {
                size_t len;
                const uint8_t *p = val_at(vals, i, &len);
                if (outside(kd, &cr->b, &cr->k, keys[i], p, len)) sc->exc[nexc++] = (uint32_t)i;
            }
        }
    }
    sc->sorted = 0;

    for (size_t rg = 0; rg < f->nrgs; rg++) {
        const bf_parquet_chunk *k = pq_chunk(f, rg, col);
        uint8_t *o = out + rg * stride;
        if (chunk_empty(f, rg, k)) {
            memset(o, BF_PARQUET_SKIP_EMPTY, n);
            continue;
        }
        bounds b = {0, 0, {0}, {0}};
        if (kd != K_NONE) chunk_bounds(k, kd, &b);
        int where = kd == K_NONE ? R_INSIDE : range_vs_stats(kd, &tr, &b, k);
        const bf_sbbf *v = NULL;
        int vr = BF_ENOFILTER;
        if (need_bloom) {
            vr = cached_view(f, rg, col, &v);
            if (vr && vr != BF_ENOFILTER && (flags & BF_PARQUET_STRICT)) return vr;
        }
        if (where == R_OUTSIDE) {
            memset(o, BF_PARQUET_SKIP_STATS, n);
            continue;
        }
        if (vr != BF_OK) { /* no usable filter: statistics alone */
            if (where == R_MIXED) stats_pass(kd, &b, k, keys, vals, n, o);
            else memset(o, BF_PARQUET_MAYBE, n);
            continue;
        }
        if (where == R_INSIDE) {
            /* The filter alone decides: its answers become the verdicts. */
            bf_sbbf_contains_hashes(v, hash, n, o);
            hits_to_verdicts(o, n);
        } else if (nexc * 4 <= n) {
            /* Some values outside, all of them among the few exceptions:
             * the filter's verdicts, then the exceptions' statistics. */
            bf_sbbf_contains_hashes(v, hash, n, o);
            hits_to_verdicts(o, n);
            for (size_t e = 0; e < nexc; e++) {
                size_t i = sc->exc[e], len;
                const uint8_t *p = val_at(vals, i, &len);
                if (outside(kd, &b, k, keys[i], p, len)) o[i] = BF_PARQUET_SKIP_STATS;
            }
        } else if (sc->sorted ||
                   (sc->sk && sortable(kd) && f->nrgs - rg >= PQ_SORT_MIN_RGS)) {
            /* Many values outside some chunks' statistics (clustered
             * data): sort the tile once, then two binary searches per
             * row group. */
            if (!sc->sorted) sort_tile(kd, keys, n, sc);
            sorted_pass(kd, &b, v, sc, n, o);
        } else {
            /* The same without sorting (byte strings, decimals; the last
             * few row groups): when the statistics rule out most of the
             * tile, judge by them first and ask the filter about the rest
             * only; otherwise run the batch kernel over all values and
             * merge both verdicts in one pass. A sample of the first
             * values decides. */
            size_t sample = n < 64 ? n : 64;
            if (stats_pass(kd, &b, k, keys, vals, sample, o) * 4 < sample) {
                size_t m = stats_pass(kd, &b, k, keys, vals, n, o), j = 0;
                if (m == 0) continue;
                for (size_t i = 0; i < n; i++)
                    if (o[i] == BF_PARQUET_MAYBE) {
                        sc->idx[j] = (uint32_t)i;
                        sc->gh[j++] = hash[i];
                    }
                bf_sbbf_contains_hashes(v, sc->gh, m, sc->hit);
                for (size_t t = 0; t < m; t++)
                    if (!sc->hit[t]) o[sc->idx[t]] = BF_PARQUET_SKIP_BLOOM;
            } else {
                bf_sbbf_contains_hashes(v, hash, n, sc->hit);
                merge_pass(kd, &b, k, keys, vals, sc->hit, n, o);
            }
        }
        /* NaN is never pruned; a zero may be stored as the other zero. */
        for (size_t s = 0; s < nspecial; s++) {
            uint32_t i = sc->special[s];
            if (o[i] == BF_PARQUET_SKIP_BLOOM &&
                (sc->cls[i] == V_NAN || bf_sbbf_contains_hash(v, sc->alt[i])))
                o[i] = BF_PARQUET_MAYBE;
        }
    }
    return BF_OK;
}

static int probe_core(const bf_parquet_file *f, size_t col, const values *vals, size_t n,
                      unsigned flags, uint8_t *out) {
    const bf_parquet_column *c = &f->cols[col];
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const uint8_t *p = val_at(vals, i, &len);
        if (!value_ok(c, p, len)) return BF_EINVAL;
    }
    if (n == 0 || f->nrgs == 0) return BF_OK;
    enum kind kd = (flags & BF_PARQUET_NO_STATS) ? K_NONE : kind_of(c);

    if (n <= PQ_STACK_VALUES) { /* no core range, no sorting */
        uint64_t hash[PQ_STACK_VALUES], gh[PQ_STACK_VALUES], alt[PQ_STACK_VALUES];
        key keys[PQ_STACK_VALUES];
        uint32_t idx[PQ_STACK_VALUES], special[PQ_STACK_VALUES];
        uint8_t cls[PQ_STACK_VALUES], hit[PQ_STACK_VALUES];
        scratch sc = {hash, gh, alt, keys, idx, special, NULL, cls, hit,
                      NULL, NULL, NULL, NULL, 0, 0};
        return probe_tile(f, col, c, kd, NULL, vals, n, flags, &sc, out, n);
    }
    size_t tile = n < PQ_TILE ? n : PQ_TILE;
    /* hash, gh, alt, sk, sk2, keys; idx, special, exc, perm, perm2; cls, hit */
    size_t per = 5 * sizeof(uint64_t) + sizeof(key) + 5 * sizeof(uint32_t) + 2;
    void *heap = bf__malloc(tile * per);
    if (!heap) return BF_ENOMEM;
    scratch sc;
    sc.hash = heap, sc.gh = sc.hash + tile, sc.alt = sc.gh + tile;
    sc.sk = sc.alt + tile, sc.sk2 = sc.sk + tile;
    sc.keys = (key *)(sc.sk2 + tile);
    sc.idx = (uint32_t *)(sc.keys + tile), sc.special = sc.idx + tile, sc.exc = sc.special + tile;
    sc.perm = sc.exc + tile, sc.perm2 = sc.perm + tile;
    sc.cls = (uint8_t *)(sc.perm2 + tile), sc.hit = sc.cls + tile;
    sc.ns = 0, sc.sorted = 0;
    core_range cr;
    if (kd != K_NONE) find_core(f, col, kd, &cr);
    int rc = BF_OK;
    for (size_t t0 = 0; t0 < n && rc == BF_OK; t0 += tile) {
        size_t m = n - t0 < tile ? n - t0 : tile;
        /* The tile's values: an offset view of the caller's. */
        values tv = *vals;
        if (tv.packed) tv.packed += t0 * tv.width;
        else {
            tv.ptrs += t0;
            if (tv.lens) tv.lens += t0;
        }
        /* sort_tile may have swapped the sort buffers: any order will do. */
        rc = probe_tile(f, col, c, kd, kd != K_NONE ? &cr : NULL, &tv, m, flags, &sc, out + t0, n);
    }
    bf__free(heap);
    return rc;
}

int bf_parquet_probe(const bf_parquet_file *f, size_t col, const void *value, size_t len,
                     unsigned flags, uint8_t *out, size_t *maybe) {
    if (!f || !out || (!value && len)) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    static const uint8_t empty = 0;
    const void *ptrs[1] = {value ? value : &empty};
    size_t lens[1] = {len};
    values v = {NULL, 0, ptrs, lens};
    int rc = probe_core(f, col, &v, 1, flags, out);
    if (rc) return rc;
    if (maybe) {
        size_t m = 0;
        for (size_t rg = 0; rg < f->nrgs; rg++) m += out[rg] == BF_PARQUET_MAYBE;
        *maybe = m;
    }
    return BF_OK;
}

int bf_parquet_probe_batch(const bf_parquet_file *f, size_t col, const void *const *values_,
                           const size_t *lens, size_t n, unsigned flags, uint8_t *out) {
    if (!f || (n && (!values_ || !out))) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    size_t w = pq_fixed_width(&f->cols[col]);
    if (!lens && w == 0) return BF_EINVAL; /* BYTE_ARRAY needs lengths */
    values v = {NULL, w, values_, lens};
    return probe_core(f, col, &v, n, flags, out);
}

int bf_parquet_probe_batch_packed(const bf_parquet_file *f, size_t col, const void *values_,
                                  size_t n, unsigned flags, uint8_t *out) {
    if (!f || (n && (!values_ || !out))) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    size_t w = pq_fixed_width(&f->cols[col]);
    if (w == 0) return BF_EINVAL;
    values v = {values_, w, NULL, NULL};
    return probe_core(f, col, &v, n, flags, out);
}

int bf_parquet_hash_value(const bf_parquet_file *f, size_t col, const void *value, size_t len,
                          uint64_t *hash) {
    if (!f || !hash || (!value && len)) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    if (!value_ok(&f->cols[col], value, len)) return BF_EINVAL;
    *hash = bf_hash_xxh64(value, len);
    return BF_OK;
}
