/*
 * The footer of a Parquet file: FileMetaData (Thrift compact) parsed with
 * the bounded Thrift reader into the file's columns (the schema's leaves,
 * with dotted paths and their types), row groups and column chunks (their
 * statistics, judged once for pruning, and where their Bloom filters are),
 * and the key/value metadata. Nothing is copied but the strings of the
 * schema; statistics and metadata point into the file.
 *
 * Field ids follow parquet-format's parquet.thrift.
 */
#include "parquet/parquet_file.h"
#include "parquet/thrift.h"

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
    struct frame { uint32_t left; int def_level, rep_level; size_t path_len; } stack[PQ_MAX_SCHEMA_DEPTH + 1];
    for (int pass = 0; pass < 2; pass++) {
        unsigned depth = 0;
        stack[0].left = root->has_children ? (uint32_t)root->num_children : 0;
        stack[0].def_level = stack[0].rep_level = 0;
        stack[0].path_len = 0;
        size_t leaves = 0, bytes = 0;
        char *path_out = f->strings;
        /* Components of the current path, to write paths in pass 2. */
        uint32_t path_elems[PQ_MAX_SCHEMA_DEPTH + 1];
        uint32_t i;
        for (i = 1; i < c->nelems; i++) {
            while (depth > 0 && stack[depth].left == 0) depth--;
            if (stack[depth].left == 0) return BF_ECORRUPT; /* more elements than the tree holds */
            stack[depth].left--;
            const schema_elem *e = &c->elems[i];
            int repetition = e->has_repetition ? e->repetition : 0;
            int def_level = stack[depth].def_level + (repetition != 0);
            int rep_level = stack[depth].rep_level + (repetition == 2);
            size_t path_len = stack[depth].path_len + (depth ? 1 : 0) + e->name_len;
            if (path_len > ((size_t)1 << 20)) return BF_ETOOBIG;
            path_elems[depth] = i;
            int group = e->has_children && (e->num_children > 0 || !e->has_type);
            if (group) {
                if (depth + 1 > PQ_MAX_SCHEMA_DEPTH) return BF_ETOOBIG;
                depth++;
                stack[depth].left = (uint32_t)e->num_children;
                stack[depth].def_level = def_level;
                stack[depth].rep_level = rep_level;
                stack[depth].path_len = path_len;
                continue;
            }
            if (!e->has_type) return BF_ECORRUPT;
            if (e->type == BF_PARQUET_FIXED_LEN_BYTE_ARRAY && e->type_length <= 0)
                return BF_ECORRUPT;
            if (pass == 1) {
                bf_parquet_column *col = &f->cols[leaves];
                memset(col, 0, sizeof *col);
                col->path = path_out;
                for (unsigned d = 0; d <= depth; d++) {
                    const schema_elem *part = &c->elems[path_elems[d]];
                    if (d) *path_out++ = '.';
                    memcpy(path_out, part->name, part->name_len);
                    path_out += part->name_len;
                }
                *path_out++ = '\0';
                col->name = col->path + (path_len - e->name_len);
                col->physical_type = (bf_parquet_type)e->type;
                col->type_length = e->type == BF_PARQUET_FIXED_LEN_BYTE_ARRAY ? e->type_length : 0;
                col->repetition = repetition;
                col->max_definition_level = def_level;
                col->max_repetition_level = rep_level;
                schema_elem typed = *e;
                from_converted(&typed);
                col->logical_type = typed.logical;
                col->converted_type = e->converted;
                if (typed.logical == BF_PARQUET_LT_DECIMAL) {
                    col->scale = typed.lt_scale;
                    col->precision = typed.lt_precision;
                    if (col->scale < 0 || col->precision < 0 || col->scale > col->precision ||
                        col->scale > PQ_MAX_SCALE)
                        col->logical_type = BF_PARQUET_LT_OTHER; /* unusable: no typed reading */
                }
                if (typed.logical == BF_PARQUET_LT_INTEGER) {
                    col->bit_width = typed.bit_width;
                    col->is_signed = typed.is_signed;
                    if (typed.bit_width != 8 && typed.bit_width != 16 && typed.bit_width != 32 &&
                        typed.bit_width != 64)
                        col->logical_type = BF_PARQUET_LT_OTHER;
                }
                if (typed.logical == BF_PARQUET_LT_TIME || typed.logical == BF_PARQUET_LT_TIMESTAMP) {
                    col->time_unit = typed.time_unit;
                    col->adjusted_to_utc = typed.utc;
                    if (!typed.time_unit) col->logical_type = BF_PARQUET_LT_OTHER;
                }
                col->order = sort_order(col);
            }
            leaves++;
            bytes += path_len + 1;
        }
        while (depth > 0 && stack[depth].left == 0) depth--;
        if (stack[depth].left != 0) return BF_ECORRUPT; /* fewer elements than announced */
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

/* A statistic's PLAIN bytes inside the footer (p NULL: absent). */
typedef struct stat_bytes {
    const uint8_t *p;
    size_t len;
} stat_bytes;

/* Statistics (field 12 of ColumnMetaData): min_value/max_value (fields 6
 * and 5), else the deprecated min/max (fields 2 and 1). */
static int parse_stats(bf_thrift_reader *r, bf_parquet_chunk *chunk) {
    int rc = bf_thrift_struct_begin(r);
    if (rc) return rc;
    int16_t last = 0, id;
    uint8_t type;
    stat_bytes old_min = {0}, old_max = {0}, min_value = {0}, max_value = {0};
    while ((rc = bf_thrift_field_next(r, &last, &id, &type)) == 1) {
        rc = BF_OK;
        switch (id) {
        case 1: case 2: case 5: case 6: {
            EXPECT(BF_T_BINARY)
            stat_bytes *dst = id == 1 ? &old_max : id == 2 ? &old_min : id == 5 ? &max_value : &min_value;
            rc = bf_thrift_read_binary(r, &dst->p, &dst->len);
            break;
        }
        case 3: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &chunk->null_count); chunk->has_null_count = 1; break;
        case 4: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &chunk->distinct_count); chunk->has_distinct_count = 1; break;
        case 7: case 8:
            if (type != BF_T_TRUE && type != BF_T_FALSE) {
                rc = bf_thrift_skip(r, type);
                break;
            }
            if (id == 7) chunk->max_exact = type == BF_T_TRUE;
            else chunk->min_exact = type == BF_T_TRUE;
            break;
        default: rc = bf_thrift_skip(r, type); break;
        }
        if (rc) return rc;
    }
    if (rc) return rc;
    if (!min_value.p && !max_value.p) {
        if (!old_min.p && !old_max.p) return BF_OK;
        chunk->stats_deprecated = 1;
        min_value = old_min;
        max_value = old_max;
    }
    chunk->has_min = min_value.p != NULL, chunk->min = min_value.p, chunk->min_len = min_value.len;
    chunk->has_max = max_value.p != NULL, chunk->max = max_value.p, chunk->max_len = max_value.len;
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

static int parse_column_meta(bf_thrift_reader *r, bf_parquet_chunk *chunk, const bf_parquet_column *col) {
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
        case 4: EXPECT(BF_T_I32) rc = bf_thrift_read_i32(r, &chunk->codec); seen |= 4; break;
        case 5: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &chunk->num_values); seen |= 8; break;
        case 6: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &chunk->total_uncompressed_size); break;
        case 7: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &chunk->total_compressed_size); break;
        case 9: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &chunk->data_page_offset); break;
        case 11: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &chunk->dictionary_page_offset); break;
        case 12: EXPECT(BF_T_STRUCT) rc = parse_stats(r, chunk); break;
        case 14: EXPECT(BF_T_I64) rc = bf_thrift_read_i64(r, &chunk->bloom_filter_offset); break;
        case 15: EXPECT(BF_T_I32) rc = bf_thrift_read_i32(r, &chunk->bloom_filter_length); break;
        default: rc = bf_thrift_skip(r, type); break;
        }
        if (rc) return rc;
    }
    if (rc) return rc;
    if ((seen & 9) != 9) return BF_ECORRUPT; /* type and num_values are required */
    if (ptype != (int32_t)col->physical_type) return BF_ECORRUPT;
    if (chunk->num_values < 0 || (chunk->has_null_count && chunk->null_count < 0)) return BF_ECORRUPT;
    if (chunk->bloom_filter_offset < -1 || chunk->bloom_filter_length < -1) return BF_ECORRUPT;
    return BF_OK;
}

static int parse_chunk(bf_thrift_reader *r, bf_parquet_chunk *chunk, const bf_parquet_column *col) {
    memset(chunk, 0, sizeof *chunk);
    chunk->dictionary_page_offset = -1;
    chunk->bloom_filter_offset = -1;
    chunk->bloom_filter_length = -1;
    chunk->min_exact = chunk->max_exact = 1;
    int rc = bf_thrift_struct_begin(r);
    if (rc) return rc;
    int16_t last = 0, id;
    uint8_t type;
    int have_meta = 0;
    while ((rc = bf_thrift_field_next(r, &last, &id, &type)) == 1) {
        rc = BF_OK;
        switch (id) {
        case 1: EXPECT(BF_T_BINARY) rc = bf_thrift_skip(r, type); chunk->external = 1; break;
        case 3:
            EXPECT(BF_T_STRUCT)
            if (have_meta++) return BF_ECORRUPT;
            rc = parse_column_meta(r, chunk, col);
            break;
        case 8: case 9: chunk->encrypted = 1; rc = bf_thrift_skip(r, type); break;
        default: rc = bf_thrift_skip(r, type); break;
        }
        if (rc) return rc;
    }
    if (rc) return rc;
    if (!have_meta && !chunk->encrypted) return BF_ECORRUPT;
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
            bf_parquet_chunk *chunk = &f->chunks[rg * f->ncols + i];
            const bf_parquet_column *col = &f->cols[i];
            int ok = col->order != BF_PARQUET_ORDER_NONE && (chunk->has_min || chunk->has_max) &&
                     !chunk->encrypted;
            if (ok && !chunk->stats_deprecated && c->have_col_orders && c->col_order[i] != 1) ok = 0;
            if (ok && chunk->stats_deprecated) {
                int same = chunk->has_min && chunk->has_max && chunk->min_len == chunk->max_len &&
                           memcmp(chunk->min, chunk->max, chunk->min_len) == 0;
                int fixed = col->physical_type != BF_PARQUET_BYTE_ARRAY &&
                            col->physical_type != BF_PARQUET_FIXED_LEN_BYTE_ARRAY;
                int signed_order = col->order == BF_PARQUET_ORDER_SIGNED ||
                                   col->order == BF_PARQUET_ORDER_FLOAT ||
                                   col->order == BF_PARQUET_ORDER_BOOLEAN;
                if (!same && !(fixed && signed_order)) ok = 0;
            }
            if (ok && chunk->has_min && !stat_len_ok(col, chunk->min_len)) ok = 0;
            if (ok && chunk->has_max && !stat_len_ok(col, chunk->max_len)) ok = 0;
            chunk->stats_usable = ok != 0;
        }
}

int bf__parquet_read_footer(bf_parquet_file *f) {
    parse_ctx c;
    memset(&c, 0, sizeof c);
    c.f = f;
    const uint64_t len = f->footer_len;
    bf_thrift_limits lim = {
        .max_depth = 32, .max_string = len, .max_count = len, .max_work = 16 * len + 1024};
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

