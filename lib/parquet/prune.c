/*
 * Row-group pruning in a Parquet file: which row groups may hold a value
 * of a column, judged by the chunks' statistics (min/max in the column's
 * sort order, as footer.c judged them usable) and their Bloom filters
 * (chunk_filter.c), for one value or a batch. Verdicts per row group:
 * BF_PARQUET_MAYBE, SKIP_STATS, SKIP_BLOOM, SKIP_EMPTY.
 */
#include "parquet/parquet_file.h"
#include "sbbf/sbbf.h"

#include <math.h>

/* ------------------------------------------------------------------------ */
/* Values and statistics                                                     */
/* ------------------------------------------------------------------------ */

/* How values of a column are compared with its statistics. */
enum compare_as {
    CMP_NONE,
    CMP_BOOL,
    CMP_I32,
    CMP_U32,
    CMP_I64,
    CMP_U64,
    CMP_F32,
    CMP_F64,
    CMP_BYTES,   /* unsigned lexicographic */
    CMP_DECIMAL, /* big-endian two's complement in a byte array */
};

static enum compare_as compare_as_of(const bf_parquet_column *c) {
    switch (c->order) {
    case BF_PARQUET_ORDER_BOOLEAN: return CMP_BOOL;
    case BF_PARQUET_ORDER_FLOAT: return c->physical_type == BF_PARQUET_FLOAT ? CMP_F32 : CMP_F64;
    case BF_PARQUET_ORDER_SIGNED:
        if (c->physical_type == BF_PARQUET_INT32) return CMP_I32;
        if (c->physical_type == BF_PARQUET_INT64) return CMP_I64;
        return CMP_DECIMAL;
    case BF_PARQUET_ORDER_UNSIGNED:
        if (c->physical_type == BF_PARQUET_INT32) return CMP_U32;
        if (c->physical_type == BF_PARQUET_INT64) return CMP_U64;
        return CMP_BYTES;
    default: return CMP_NONE;
    }
}

/* Unsigned lexicographic order of byte strings. */
static int cmp_bytes(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len) {
    size_t common = a_len < b_len ? a_len : b_len;
    int c = common ? memcmp(a, b, common) : 0;
    if (c) return c < 0 ? -1 : 1;
    return a_len < b_len ? -1 : a_len > b_len;
}

/* Big-endian two's complement integers of any lengths (empty = 0). */
static int cmp_decimal(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len) {
    int a_neg = a_len && (a[0] & 0x80), b_neg = b_len && (b[0] & 0x80);
    if (a_neg != b_neg) return a_neg ? -1 : 1;
    uint8_t sign_byte = a_neg ? 0xff : 0x00;
    size_t width = a_len > b_len ? a_len : b_len;
    for (size_t i = 0; i < width; i++) {
        uint8_t x = i + a_len >= width ? a[i + a_len - width] : sign_byte;
        uint8_t y = i + b_len >= width ? b[i + b_len - width] : sign_byte;
        if (x != y) return x < y ? -1 : 1;
    }
    return 0;
}

/* Byte-string values in the order of a CMP_BYTES or CMP_DECIMAL column. */
static int cmp_as_bytes(enum compare_as cmp, const uint8_t *a, size_t a_len, const uint8_t *b,
                        size_t b_len) {
    return cmp == CMP_DECIMAL ? cmp_decimal(a, a_len, b, b_len) : cmp_bytes(a, a_len, b, b_len);
}

/* A value decoded for comparison (numeric comparisons; zero for the byte
 * ones, which compare the value's bytes). */
typedef union number {
    int64_t i;
    uint64_t u;
    double d;
} number;

static number decode_number(enum compare_as cmp, const uint8_t *p) {
    number value;
    switch (cmp) {
    case CMP_BOOL: value.i = p[0] != 0; break;
    case CMP_I32: value.i = (int32_t)bf_load_le32(p); break;
    case CMP_U32: value.u = bf_load_le32(p); break;
    case CMP_I64: value.i = (int64_t)bf_load_le64(p); break;
    case CMP_U64: value.u = bf_load_le64(p); break;
    case CMP_F32: {
        uint32_t bits = bf_load_le32(p);
        float x;
        memcpy(&x, &bits, 4);
        value.d = x;
        break;
    }
    case CMP_F64: {
        uint64_t bits = bf_load_le64(p);
        memcpy(&value.d, &bits, 8);
        break;
    }
    default: value.u = 0; break;
    }
    return value;
}

/* The values of a batch: packed fixed-width, or pointer + length arrays. */
typedef struct value_batch {
    const uint8_t *packed;
    size_t width;
    const void *const *ptrs;
    const size_t *lens;
} value_batch;

static inline const uint8_t *value_at(const value_batch *batch, size_t i, size_t *len) {
    if (batch->packed) {
        *len = batch->width;
        return batch->packed + i * batch->width;
    }
    *len = batch->lens ? batch->lens[i] : batch->width;
    return (const uint8_t *)batch->ptrs[i];
}

/* A chunk's usable statistics for one column, decoded once per call. */
typedef struct stat_bounds {
    int use_min, use_max;
    number min, max;
} stat_bounds;

static void chunk_bounds(const bf_parquet_chunk *chunk, enum compare_as cmp, stat_bounds *bounds) {
    bounds->use_min = chunk->stats_usable && chunk->has_min;
    bounds->use_max = chunk->stats_usable && chunk->has_max;
    if (cmp == CMP_BYTES || cmp == CMP_DECIMAL) return;
    if (bounds->use_min) bounds->min = decode_number(cmp, chunk->min);
    if (bounds->use_max) bounds->max = decode_number(cmp, chunk->max);
    if (cmp == CMP_F32 || cmp == CMP_F64) { /* a NaN bound is ignored */
        if (bounds->use_min && isnan(bounds->min.d)) bounds->use_min = 0;
        if (bounds->use_max && isnan(bounds->max.d)) bounds->use_max = 0;
    }
}

/* 1 if the value (decoded, and its bytes p[0, len)) lies outside the
 * bounds, so the row group can be skipped. chunk holds the byte bounds. */
static inline int outside(enum compare_as cmp, const stat_bounds *bounds,
                          const bf_parquet_chunk *chunk, number value, const uint8_t *p,
                          size_t len) {
    switch (cmp) {
    case CMP_BOOL: case CMP_I32: case CMP_I64:
        return (bounds->use_min && value.i < bounds->min.i) ||
               (bounds->use_max && value.i > bounds->max.i);
    case CMP_U32: case CMP_U64:
        return (bounds->use_min && value.u < bounds->min.u) ||
               (bounds->use_max && value.u > bounds->max.u);
    case CMP_F32: case CMP_F64: /* NaN compares false: never outside */
        return (bounds->use_min && value.d < bounds->min.d) ||
               (bounds->use_max && value.d > bounds->max.d);
    case CMP_BYTES: case CMP_DECIMAL:
        return (bounds->use_min && cmp_as_bytes(cmp, p, len, chunk->min, chunk->min_len) < 0) ||
               (bounds->use_max && cmp_as_bytes(cmp, p, len, chunk->max, chunk->max_len) > 0);
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

/* Floating-point values the filter may not judge alone: a zero (the file
 * may hold the other zero) and NaN (never pruned). */
enum { V_PLAIN = 0, V_ZERO = 1, V_NAN = 2 };

/* The class of a FLOAT or DOUBLE value; for a zero, *other_zero = the
 * hash of the other zero. V_PLAIN for every other type. */
static uint8_t classify_float(const bf_parquet_column *c, const uint8_t *p, uint64_t *other_zero) {
    if (c->physical_type == BF_PARQUET_FLOAT) {
        uint32_t bits = bf_load_le32(p);
        if ((bits & 0x7fffffffu) == 0) {
            uint8_t flipped[4];
            bf_store_le32(flipped, bits ^ 0x80000000u);
            *other_zero = bf_hash_xxh64(flipped, 4);
            return V_ZERO;
        }
        if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu)) return V_NAN;
    } else if (c->physical_type == BF_PARQUET_DOUBLE) {
        uint64_t bits = bf_load_le64(p);
        if ((bits & 0x7fffffffffffffffu) == 0) {
            uint8_t flipped[8];
            bf_store_le64(flipped, bits ^ 0x8000000000000000u);
            *other_zero = bf_hash_xxh64(flipped, 8);
            return V_ZERO;
        }
        if ((bits & 0x7ff0000000000000u) == 0x7ff0000000000000u && (bits & 0x000fffffffffffffu))
            return V_NAN;
    }
    return V_PLAIN;
}

/* Whether a chunk holds no non-null value. */
static int chunk_empty(const bf_parquet_file *f, size_t rg, const bf_parquet_chunk *chunk) {
    if (f->rgs[rg].num_rows == 0) return 1;
    if (chunk->encrypted) return 0;
    if (chunk->num_values == 0) return 1;
    return chunk->has_null_count && chunk->null_count == chunk->num_values;
}

/* ------------------------------------------------------------------------ */
/* Verdicts of a tile against one chunk                                      */
/* ------------------------------------------------------------------------ */

/* The statistics verdict of every value for one chunk (SKIP_STATS or
 * MAYBE); returns how many are MAYBE. One branch-free loop per numeric
 * comparison. */
#define RANGE_PASS(T, field)                                                          \
    do {                                                                              \
        T min_bound = bounds->min.field, max_bound = bounds->max.field;               \
        for (size_t i = 0; i < n; i++) {                                              \
            uint8_t skip = (uint8_t)((check_min & (numbers[i].field < min_bound)) |   \
                                     (check_max & (numbers[i].field > max_bound)));   \
            verdicts[i] = skip; /* 1 = SKIP_STATS, 0 = MAYBE */                       \
            num_maybe += !skip;                                                       \
        }                                                                             \
    } while (0)
static size_t stats_pass(enum compare_as cmp, const stat_bounds *bounds,
                         const bf_parquet_chunk *chunk, const number *numbers,
                         const value_batch *batch, size_t n, uint8_t *verdicts) {
    size_t num_maybe = 0;
    int check_min = bounds->use_min, check_max = bounds->use_max;
    switch (cmp) {
    case CMP_BOOL: case CMP_I32: case CMP_I64: RANGE_PASS(int64_t, i); break;
    case CMP_U32: case CMP_U64: RANGE_PASS(uint64_t, u); break;
    case CMP_F32: case CMP_F64: RANGE_PASS(double, d); break; /* NaN compares false: kept */
    default:
        for (size_t i = 0; i < n; i++) {
            size_t len;
            const uint8_t *p = value_at(batch, i, &len);
            int skip = outside(cmp, bounds, chunk, numbers[i], p, len);
            verdicts[i] = skip ? BF_PARQUET_SKIP_STATS : BF_PARQUET_MAYBE;
            num_maybe += !skip;
        }
    }
    return num_maybe;
}
#undef RANGE_PASS

/* Statistics and filter answers (hits) merged: SKIP_STATS, SKIP_BLOOM or
 * MAYBE, one branch-free loop per numeric comparison. */
#define MERGE_PASS(T, field)                                                          \
    do {                                                                              \
        /* locals: verdicts may alias bounds */                                       \
        T min_bound = bounds->min.field, max_bound = bounds->max.field;               \
        for (size_t i = 0; i < n; i++) {                                              \
            int out_of_range = (check_min & (numbers[i].field < min_bound)) |         \
                               (check_max & (numbers[i].field > max_bound));          \
            verdicts[i] = out_of_range ? BF_PARQUET_SKIP_STATS                        \
                          : (uint8_t)(hits[i] ? BF_PARQUET_MAYBE : BF_PARQUET_SKIP_BLOOM); \
        }                                                                             \
    } while (0)
static void merge_pass(enum compare_as cmp, const stat_bounds *bounds,
                       const bf_parquet_chunk *chunk, const number *numbers,
                       const value_batch *batch, const uint8_t *hits, size_t n,
                       uint8_t *verdicts) {
    int check_min = bounds->use_min, check_max = bounds->use_max;
    switch (cmp) {
    case CMP_BOOL: case CMP_I32: case CMP_I64: MERGE_PASS(int64_t, i); break;
    case CMP_U32: case CMP_U64: MERGE_PASS(uint64_t, u); break;
    case CMP_F32: case CMP_F64: MERGE_PASS(double, d); break;
    default:
        for (size_t i = 0; i < n; i++) {
            size_t len;
            const uint8_t *p = value_at(batch, i, &len);
            verdicts[i] = outside(cmp, bounds, chunk, numbers[i], p, len)
                              ? BF_PARQUET_SKIP_STATS
                              : (uint8_t)(hits[i] ? BF_PARQUET_MAYBE : BF_PARQUET_SKIP_BLOOM);
        }
    }
}
#undef MERGE_PASS

/* The filter's answers (0 or 1 per value) in place as verdicts: 1 -> MAYBE
 * (0), 0 -> SKIP_BLOOM (2). Eight at a time; no byte carries into the next. */
static void hits_to_verdicts(uint8_t *verdicts, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        memcpy(&word, verdicts + i, 8);
        word = (word ^ 0x0101010101010101u) << 1;
        memcpy(verdicts + i, &word, 8);
    }
    for (; i < n; i++) verdicts[i] = (uint8_t)((verdicts[i] ^ 1u) << 1);
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
    number lo, hi;                /* numeric comparisons */
    const uint8_t *lo_p, *hi_p;   /* byte comparisons: the values' bytes */
    size_t lo_len, hi_len;
} tile_range;

/* The smallest and largest of numbers[0, n) as T (branch-free min/max). */
#define INTEGER_RANGE(T, field)                                               \
    do {                                                                      \
        T lo = numbers[0].field, hi = numbers[0].field;                       \
        for (size_t i = 1; i < n; i++) {                                      \
            lo = numbers[i].field < lo ? numbers[i].field : lo;               \
            hi = numbers[i].field > hi ? numbers[i].field : hi;               \
        }                                                                     \
        range->any = 1, range->lo.field = lo, range->hi.field = hi;           \
    } while (0)
static void find_range(enum compare_as cmp, const number *numbers, const value_batch *batch,
                       size_t n, tile_range *range) {
    memset(range, 0, sizeof *range);
    switch (cmp) {
    case CMP_BOOL: case CMP_I32: case CMP_I64: INTEGER_RANGE(int64_t, i); break;
    case CMP_U32: case CMP_U64: INTEGER_RANGE(uint64_t, u); break;
    case CMP_F32: case CMP_F64: {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < n; i++) {
            double d = numbers[i].d;
            if (isnan(d)) range->has_nan = 1;
            else range->any = 1, lo = d < lo ? d : lo, hi = d > hi ? d : hi;
        }
        range->lo.d = lo, range->hi.d = hi;
        break;
    }
    case CMP_BYTES: case CMP_DECIMAL: {
        size_t len;
        const uint8_t *p = value_at(batch, 0, &len);
        range->lo_p = range->hi_p = p, range->lo_len = range->hi_len = len;
        for (size_t i = 1; i < n; i++) {
            p = value_at(batch, i, &len);
            if (cmp_as_bytes(cmp, p, len, range->lo_p, range->lo_len) < 0)
                range->lo_p = p, range->lo_len = len;
            else if (cmp_as_bytes(cmp, p, len, range->hi_p, range->hi_len) > 0)
                range->hi_p = p, range->hi_len = len;
        }
        range->any = 1;
        break;
    }
    default: break;
    }
}
#undef INTEGER_RANGE

/* Where a tile's values lie against a chunk's statistics. */
enum { R_INSIDE, R_OUTSIDE, R_MIXED };

static int range_vs_stats(enum compare_as cmp, const tile_range *range, const stat_bounds *bounds,
                          const bf_parquet_chunk *chunk) {
    if (!bounds->use_min && !bounds->use_max) return R_INSIDE;
    if (!range->any) return R_INSIDE; /* NaNs only */
    int lo_below, hi_below, lo_above, hi_above; /* the tile's ends against min / max */
    switch (cmp) {
    case CMP_BOOL: case CMP_I32: case CMP_I64:
        lo_below = range->lo.i < bounds->min.i, hi_below = range->hi.i < bounds->min.i;
        lo_above = range->lo.i > bounds->max.i, hi_above = range->hi.i > bounds->max.i;
        break;
    case CMP_U32: case CMP_U64:
        lo_below = range->lo.u < bounds->min.u, hi_below = range->hi.u < bounds->min.u;
        lo_above = range->lo.u > bounds->max.u, hi_above = range->hi.u > bounds->max.u;
        break;
    case CMP_F32: case CMP_F64:
        lo_below = range->lo.d < bounds->min.d, hi_below = range->hi.d < bounds->min.d;
        lo_above = range->lo.d > bounds->max.d, hi_above = range->hi.d > bounds->max.d;
        break;
    case CMP_BYTES: case CMP_DECIMAL:
        lo_below = bounds->use_min &&
                   cmp_as_bytes(cmp, range->lo_p, range->lo_len, chunk->min, chunk->min_len) < 0;
        hi_below = bounds->use_min &&
                   cmp_as_bytes(cmp, range->hi_p, range->hi_len, chunk->min, chunk->min_len) < 0;
        lo_above = bounds->use_max &&
                   cmp_as_bytes(cmp, range->lo_p, range->lo_len, chunk->max, chunk->max_len) > 0;
        hi_above = bounds->use_max &&
                   cmp_as_bytes(cmp, range->hi_p, range->hi_len, chunk->max, chunk->max_len) > 0;
        break;
    default: return R_INSIDE;
    }
    lo_below &= bounds->use_min, hi_below &= bounds->use_min;
    lo_above &= bounds->use_max, hi_above &= bounds->use_max;
    if (!lo_below && !hi_above) return R_INSIDE;
    /* All outside: every comparable value on one side, and no NaN (kept). */
    if (!range->has_nan && (hi_below || lo_above)) return R_OUTSIDE;
    return R_MIXED;
}

/* The statistics range every usable chunk of the column contains: the
 * largest min and the smallest max, as bounds and a chunk that outside()
 * reads. A value inside it is inside every chunk's statistics; the few
 * outside it (the exceptions) are the only ones a row group's statistics
 * need to be checked for. */
typedef struct core_range {
    stat_bounds bounds;
    bf_parquet_chunk chunk; /* min, max and their lengths for the byte comparisons */
} core_range;

static int bound_cmp(enum compare_as cmp, number a, const void *a_bytes, size_t a_len, number b,
                     const void *b_bytes, size_t b_len) {
    switch (cmp) {
    case CMP_BOOL: case CMP_I32: case CMP_I64: return (a.i > b.i) - (a.i < b.i);
    case CMP_U32: case CMP_U64: return (a.u > b.u) - (a.u < b.u);
    case CMP_F32: case CMP_F64: return (a.d > b.d) - (a.d < b.d);
    default: return cmp_as_bytes(cmp, a_bytes, a_len, b_bytes, b_len);
    }
}

static void find_core(const bf_parquet_file *f, size_t col, enum compare_as cmp,
                      core_range *core) {
    memset(core, 0, sizeof *core);
    for (size_t rg = 0; rg < f->nrgs; rg++) {
        const bf_parquet_chunk *chunk = pq_chunk(f, rg, col);
        if (chunk_empty(f, rg, chunk)) continue;
        stat_bounds bounds;
        chunk_bounds(chunk, cmp, &bounds);
        if (bounds.use_min &&
            (!core->bounds.use_min || bound_cmp(cmp, bounds.min, chunk->min, chunk->min_len,
                                                core->bounds.min, core->chunk.min,
                                                core->chunk.min_len) > 0)) {
            core->bounds.use_min = 1, core->bounds.min = bounds.min;
            core->chunk.min = chunk->min, core->chunk.min_len = chunk->min_len;
        }
        if (bounds.use_max &&
            (!core->bounds.use_max || bound_cmp(cmp, bounds.max, chunk->max, chunk->max_len,
                                                core->bounds.max, core->chunk.max,
                                                core->chunk.max_len) < 0)) {
            core->bounds.use_max = 1, core->bounds.max = bounds.max;
            core->chunk.max = chunk->max, core->chunk.max_len = chunk->max_len;
        }
    }
}

/*
 * Sorted tiles. With clustered data (each row group its own range of
 * values) most values of a tile lie outside most row groups' statistics,
 * and a pass over the tile per row group costs more than the few filter
 * lookups that are left. Then the tile's values are sorted once (radix
 * sort of order-preserving 64-bit keys, numeric comparisons only); per row
 * group two binary searches find the values inside [min, max], and only
 * those are touched.
 */
/* A tile is sorted once at least this many row groups are left to judge
 * with it: sorting costs about as much as a few passes over the tile. */
#define PQ_SORT_MIN_RGS 4

static int sortable(enum compare_as cmp) {
    return cmp == CMP_BOOL || cmp == CMP_I32 || cmp == CMP_I64 || cmp == CMP_U32 ||
           cmp == CMP_U64 || cmp == CMP_F32 || cmp == CMP_F64;
}

/* An unsigned sort key in the order statistics compare values of this
 * comparison (floats: -0 taken as +0, which compare equal; never called
 * for NaN). */
static inline uint64_t sort_key(enum compare_as cmp, number value) {
    switch (cmp) {
    case CMP_U32: case CMP_U64: return value.u;
    case CMP_F32: case CMP_F64: {
        double d = value.d == 0.0 ? 0.0 : value.d;
        uint64_t bits;
        memcpy(&bits, &d, 8);
        return (bits >> 63) ? ~bits : bits | ((uint64_t)1 << 63);
    }
    default: return (uint64_t)value.i ^ ((uint64_t)1 << 63);
    }
}

/* Scratch arrays for one tile. */
typedef struct tile_scratch {
    uint64_t *hash;           /* each value's hash */
    number *numbers;          /* each value decoded */
    uint8_t *value_class;     /* V_PLAIN, V_ZERO or V_NAN (FLOAT and DOUBLE columns) */
    uint64_t *other_zero;     /* a V_ZERO value's other zero's hash */
    uint32_t *special;        /* positions of the V_ZERO and V_NAN values */
    uint32_t *exceptions;     /* positions of the values outside the core range */
    uint64_t *gathered;       /* hashes of some values, for one filter call */
    uint32_t *gathered_pos;   /* their positions in the tile */
    uint8_t *hits;            /* the filter's answers for them */
    /* The sorted tile (sort_tile; sorted_keys NULL where no tile may be
     * sorted): sorted_keys[0, num_sorted) the comparable values' sort keys
     * ascending, sorted_pos[i] the position in the tile of sorted_keys[i];
     * sorted_pos[num_sorted, n) the NaNs. spare_keys and spare_pos: the
     * sort's other buffers. */
    uint64_t *sorted_keys, *spare_keys;
    uint32_t *sorted_pos, *spare_pos;
    size_t num_sorted;
    int is_sorted;
} tile_scratch;

/* Appends the value at position at of the tile to the gathered hashes. */
static inline void gather(tile_scratch *scratch, size_t *num_gathered, uint32_t at) {
    scratch->gathered_pos[*num_gathered] = at;
    scratch->gathered[(*num_gathered)++] = scratch->hash[at];
}

/* Sorts the tile's comparable values into sorted_keys / sorted_pos: LSD
 * radix sort, a byte at a time, skipping the bytes all keys share. */
static void sort_tile(enum compare_as cmp, const number *numbers, size_t n,
                      tile_scratch *scratch) {
    uint64_t *keys = scratch->sorted_keys, *keys_out = scratch->spare_keys;
    uint32_t *pos = scratch->sorted_pos, *pos_out = scratch->spare_pos;
    int fp = cmp == CMP_F32 || cmp == CMP_F64;
    size_t num_sorted = 0;
    for (size_t i = 0; i < n; i++) {
        if (fp && isnan(numbers[i].d)) continue;
        keys[num_sorted] = sort_key(cmp, numbers[i]);
        pos[num_sorted++] = (uint32_t)i;
    }
    uint32_t bucket_start[8][256];
    memset(bucket_start, 0, sizeof bucket_start);
    for (size_t i = 0; i < num_sorted; i++)
        for (unsigned byte = 0; byte < 8; byte++)
            bucket_start[byte][(keys[i] >> (8 * byte)) & 0xff]++;
    for (unsigned byte = 0; byte < 8; byte++) {
        uint32_t *start = bucket_start[byte];
        if (num_sorted == 0 || start[(keys[0] >> (8 * byte)) & 0xff] == num_sorted)
            continue; /* one bucket: already in order */
        uint32_t sum = 0;
        for (unsigned bucket = 0; bucket < 256; bucket++) {
            uint32_t size = start[bucket];
            start[bucket] = sum;
            sum += size;
        }
        for (size_t i = 0; i < num_sorted; i++) {
            uint32_t at = start[(keys[i] >> (8 * byte)) & 0xff]++;
            keys_out[at] = keys[i];
            pos_out[at] = pos[i];
        }
        uint64_t *swap_keys = keys;
        keys = keys_out, keys_out = swap_keys;
        uint32_t *swap_pos = pos;
        pos = pos_out, pos_out = swap_pos;
    }
    if (keys != scratch->sorted_keys) { /* the result is in the spare buffers: swap roles */
        scratch->spare_keys = scratch->sorted_keys, scratch->sorted_keys = keys;
        scratch->spare_pos = scratch->sorted_pos, scratch->sorted_pos = pos;
    }
    if (num_sorted < n) /* the NaNs after the sorted values */
        for (size_t i = 0, at = num_sorted; i < n; i++)
            if (isnan(numbers[i].d)) pos[at++] = (uint32_t)i;
    scratch->num_sorted = num_sorted;
    scratch->is_sorted = 1;
}

/* First position i in keys[0, n) with keys[i] >= x (strict: > x). */
static size_t lower_bound(const uint64_t *keys, size_t n, uint64_t x, int strict) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (keys[mid] < x || (strict && keys[mid] == x)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Statistics and filter verdicts of a sorted tile against one chunk. */
static void sorted_pass(enum compare_as cmp, const stat_bounds *bounds, const bf_sbbf *filter,
                        tile_scratch *scratch, size_t n, uint8_t *verdicts) {
    const size_t num_sorted = scratch->num_sorted;
    const uint32_t *pos = scratch->sorted_pos;
    const uint64_t *keys = scratch->sorted_keys;
    size_t first_in =
        bounds->use_min ? lower_bound(keys, num_sorted, sort_key(cmp, bounds->min), 0) : 0;
    size_t end_in =
        bounds->use_max ? lower_bound(keys, num_sorted, sort_key(cmp, bounds->max), 1) : num_sorted;
    if (end_in < first_in) end_in = first_in; /* min > max: nothing inside */
    size_t num_kept = (end_in - first_in) + (n - num_sorted); /* inside, and the NaNs */
    if (num_kept * 4 < n) {
        /* Few inside: statistics first, the filter for those alone. */
        memset(verdicts, BF_PARQUET_SKIP_STATS, n);
        size_t num_gathered = 0;
        for (size_t at = first_in; at < end_in; at++) gather(scratch, &num_gathered, pos[at]);
        for (size_t at = num_sorted; at < n; at++) gather(scratch, &num_gathered, pos[at]); /* NaNs */
        bf_sbbf_contains_hashes(filter, scratch->gathered, num_kept, scratch->hits);
        for (size_t i = 0; i < num_kept; i++)
            verdicts[scratch->gathered_pos[i]] =
                (uint8_t)(scratch->hits[i] ? BF_PARQUET_MAYBE : BF_PARQUET_SKIP_BLOOM);
    } else {
        /* Most inside: the filter's verdicts, then the others' statistics. */
        bf_sbbf_contains_hashes(filter, scratch->hash, n, verdicts);
        hits_to_verdicts(verdicts, n);
        for (size_t at = 0; at < first_in; at++) verdicts[pos[at]] = BF_PARQUET_SKIP_STATS;
        for (size_t at = end_in; at < num_sorted; at++) verdicts[pos[at]] = BF_PARQUET_SKIP_STATS;
    }
}

/* ------------------------------------------------------------------------ */
/* Probing                                                                   */
/* ------------------------------------------------------------------------ */

/* Small batches live on the stack; larger ones use one heap tile (of at
 * most PQ_TILE values). */
#define PQ_STACK_VALUES 16

/* Verdicts of one tile (n values) for every row group: out + rg * stride. */
static int probe_tile(const bf_parquet_file *f, size_t col, enum compare_as cmp,
                      const core_range *core, const value_batch *batch, size_t n, unsigned flags,
                      tile_scratch *scratch, uint8_t *out, size_t stride) {
    const bf_parquet_column *column = &f->cols[col];
    const int fp = column->physical_type == BF_PARQUET_FLOAT ||
                   column->physical_type == BF_PARQUET_DOUBLE;
    const int need_bloom = !(flags & BF_PARQUET_NO_BLOOM);
    uint64_t *hash = scratch->hash;
    number *numbers = scratch->numbers;
    /* Hash (and decode) each value once; note the floating-point values
     * the filter may not judge alone (zeros, NaN). */
    size_t num_special = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const uint8_t *p = value_at(batch, i, &len);
        if (need_bloom) /* 4 and 8 bytes: XXH64 specialised for the length */
            hash[i] = len == 8   ? bf_hash_int64((int64_t)bf_load_le64(p))
                      : len == 4 ? bf_hash_int32((int32_t)bf_load_le32(p))
                                 : bf_hash_xxh64(p, len);
        numbers[i] = decode_number(cmp, p);
        if (fp) {
            scratch->value_class[i] = classify_float(column, p, &scratch->other_zero[i]);
            if (scratch->value_class[i] != V_PLAIN) scratch->special[num_special++] = (uint32_t)i;
        }
    }
    tile_range range;
    size_t num_exceptions = n; /* without a core range, every value is an exception */
    if (cmp != CMP_NONE) {
        find_range(cmp, numbers, batch, n, &range);
        if (core) {
            num_exceptions = 0;
            for (size_t i = 0; i < n; i++) {
                size_t len;
                const uint8_t *p = value_at(batch, i, &len);
                if (outside(cmp, &core->bounds, &core->chunk, numbers[i], p, len))
                    scratch->exceptions[num_exceptions++] = (uint32_t)i;
            }
        }
    }
    scratch->is_sorted = 0;

    for (size_t rg = 0; rg < f->nrgs; rg++) {
        const bf_parquet_chunk *chunk = pq_chunk(f, rg, col);
        uint8_t *verdicts = out + rg * stride;
        if (chunk_empty(f, rg, chunk)) {
            memset(verdicts, BF_PARQUET_SKIP_EMPTY, n);
            continue;
        }
        stat_bounds bounds = {.use_min = 0, .use_max = 0};
        if (cmp != CMP_NONE) chunk_bounds(chunk, cmp, &bounds);
        int where = cmp == CMP_NONE ? R_INSIDE : range_vs_stats(cmp, &range, &bounds, chunk);
        const bf_sbbf *filter = NULL;
        int filter_rc = BF_ENOFILTER;
        if (need_bloom) {
            filter_rc = bf__parquet_cached_filter(f, rg, col, &filter);
            if (filter_rc && filter_rc != BF_ENOFILTER && (flags & BF_PARQUET_STRICT))
                return filter_rc;
        }
        if (where == R_OUTSIDE) {
            memset(verdicts, BF_PARQUET_SKIP_STATS, n);
            continue;
        }
        if (filter_rc != BF_OK) { /* no usable filter: statistics alone */
            if (where == R_MIXED) stats_pass(cmp, &bounds, chunk, numbers, batch, n, verdicts);
            else memset(verdicts, BF_PARQUET_MAYBE, n);
            continue;
        }
        if (where == R_INSIDE) {
            /* The filter alone decides: its answers become the verdicts. */
            bf_sbbf_contains_hashes(filter, hash, n, verdicts);
            hits_to_verdicts(verdicts, n);
        } else if (num_exceptions * 4 <= n) {
            /* Some values outside, all of them among the few exceptions:
             * the filter's verdicts, then the exceptions' statistics. */
            bf_sbbf_contains_hashes(filter, hash, n, verdicts);
            hits_to_verdicts(verdicts, n);
            for (size_t e = 0; e < num_exceptions; e++) {
                size_t i = scratch->exceptions[e], len;
                const uint8_t *p = value_at(batch, i, &len);
                if (outside(cmp, &bounds, chunk, numbers[i], p, len))
                    verdicts[i] = BF_PARQUET_SKIP_STATS;
            }
        } else if (scratch->is_sorted ||
                   (scratch->sorted_keys && sortable(cmp) && f->nrgs - rg >= PQ_SORT_MIN_RGS)) {
            /* Many values outside some chunks' statistics (clustered
             * data): sort the tile once, then two binary searches per
             * row group. */
            if (!scratch->is_sorted) sort_tile(cmp, numbers, n, scratch);
            sorted_pass(cmp, &bounds, filter, scratch, n, verdicts);
        } else {
            /* The same without sorting (byte strings, decimals; the last
             * few row groups): when the statistics rule out most of the
             * tile, judge by them first and ask the filter about the rest
             * only; otherwise run the batch kernel over all values and
             * merge both verdicts in one pass. A sample of the first
             * values decides. */
            size_t sample = n < 64 ? n : 64;
            if (stats_pass(cmp, &bounds, chunk, numbers, batch, sample, verdicts) * 4 < sample) {
                size_t num_maybe = stats_pass(cmp, &bounds, chunk, numbers, batch, n, verdicts);
                if (num_maybe == 0) continue;
                size_t num_gathered = 0;
                for (size_t i = 0; i < n; i++)
                    if (verdicts[i] == BF_PARQUET_MAYBE) gather(scratch, &num_gathered, (uint32_t)i);
                bf_sbbf_contains_hashes(filter, scratch->gathered, num_maybe, scratch->hits);
                for (size_t i = 0; i < num_maybe; i++)
                    if (!scratch->hits[i])
                        verdicts[scratch->gathered_pos[i]] = BF_PARQUET_SKIP_BLOOM;
            } else {
                bf_sbbf_contains_hashes(filter, hash, n, scratch->hits);
                merge_pass(cmp, &bounds, chunk, numbers, batch, scratch->hits, n, verdicts);
            }
        }
        /* NaN is never pruned; a zero may be stored as the other zero. */
        for (size_t s = 0; s < num_special; s++) {
            uint32_t i = scratch->special[s];
            if (verdicts[i] == BF_PARQUET_SKIP_BLOOM &&
                (scratch->value_class[i] == V_NAN ||
                 bf__sbbf_contains_hash(filter, scratch->other_zero[i])))
                verdicts[i] = BF_PARQUET_MAYBE;
        }
    }
    return BF_OK;
}

static int probe_core(const bf_parquet_file *f, size_t col, const value_batch *batch, size_t n,
                      unsigned flags, uint8_t *out) {
    const bf_parquet_column *column = &f->cols[col];
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const uint8_t *p = value_at(batch, i, &len);
        if (!value_ok(column, p, len)) return BF_EINVAL;
    }
    if (n == 0 || f->nrgs == 0) return BF_OK;
    enum compare_as cmp = (flags & BF_PARQUET_NO_STATS) ? CMP_NONE : compare_as_of(column);

    if (n <= PQ_STACK_VALUES) { /* no core range, no sorting */
        uint64_t hash[PQ_STACK_VALUES], gathered[PQ_STACK_VALUES], other_zero[PQ_STACK_VALUES];
        number numbers[PQ_STACK_VALUES];
        uint32_t gathered_pos[PQ_STACK_VALUES], special[PQ_STACK_VALUES];
        uint8_t value_class[PQ_STACK_VALUES], hits[PQ_STACK_VALUES];
        tile_scratch scratch = {
            .hash = hash,
            .numbers = numbers,
            .value_class = value_class,
            .other_zero = other_zero,
            .special = special,
            .gathered = gathered,
            .gathered_pos = gathered_pos,
            .hits = hits,
        };
        return probe_tile(f, col, cmp, NULL, batch, n, flags, &scratch, out, n);
    }
    const size_t tile = n < PQ_TILE ? n : PQ_TILE;
    /* 64-bit: hash, gathered, other_zero, sorted_keys, spare_keys, numbers;
     * 32-bit: gathered_pos, special, exceptions, sorted_pos, spare_pos;
     * bytes: value_class, hits. */
    const size_t per_value = 5 * sizeof(uint64_t) + sizeof(number) + 5 * sizeof(uint32_t) + 2;
    void *heap = bf__malloc(tile * per_value);
    if (!heap) return BF_ENOMEM;
    uint64_t *words = heap;
    number *numbers = (number *)(words + 5 * tile);
    uint32_t *positions = (uint32_t *)(numbers + tile);
    uint8_t *bytes = (uint8_t *)(positions + 5 * tile);
    tile_scratch scratch = {
        .hash = words,
        .gathered = words + tile,
        .other_zero = words + 2 * tile,
        .sorted_keys = words + 3 * tile,
        .spare_keys = words + 4 * tile,
        .numbers = numbers,
        .gathered_pos = positions,
        .special = positions + tile,
        .exceptions = positions + 2 * tile,
        .sorted_pos = positions + 3 * tile,
        .spare_pos = positions + 4 * tile,
        .value_class = bytes,
        .hits = bytes + tile,
    };
    core_range core;
    if (cmp != CMP_NONE) find_core(f, col, cmp, &core);
    int rc = BF_OK;
    for (size_t first = 0; first < n && rc == BF_OK; first += tile) {
        size_t count = n - first < tile ? n - first : tile;
        /* The tile's values: an offset view of the caller's. */
        value_batch tile_values = *batch;
        if (tile_values.packed) {
            tile_values.packed += first * tile_values.width;
        } else {
            tile_values.ptrs += first;
            if (tile_values.lens) tile_values.lens += first;
        }
        /* sort_tile may have swapped the sort buffers: any order will do. */
        rc = probe_tile(f, col, cmp, cmp != CMP_NONE ? &core : NULL, &tile_values, count, flags,
                        &scratch, out + first, n);
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
    value_batch one = {.ptrs = ptrs, .lens = lens};
    int rc = probe_core(f, col, &one, 1, flags, out);
    if (rc) return rc;
    if (maybe) {
        size_t num_maybe = 0;
        for (size_t rg = 0; rg < f->nrgs; rg++) num_maybe += out[rg] == BF_PARQUET_MAYBE;
        *maybe = num_maybe;
    }
    return BF_OK;
}

int bf_parquet_probe_batch(const bf_parquet_file *f, size_t col, const void *const *values,
                           const size_t *lens, size_t n, unsigned flags, uint8_t *out) {
    if (!f || (n && (!values || !out))) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    size_t width = pq_fixed_width(&f->cols[col]);
    if (!lens && width == 0) return BF_EINVAL; /* BYTE_ARRAY needs lengths */
    value_batch batch = {.width = width, .ptrs = values, .lens = lens};
    return probe_core(f, col, &batch, n, flags, out);
}

int bf_parquet_probe_batch_packed(const bf_parquet_file *f, size_t col, const void *values,
                                  size_t n, unsigned flags, uint8_t *out) {
    if (!f || (n && (!values || !out))) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    size_t width = pq_fixed_width(&f->cols[col]);
    if (width == 0) return BF_EINVAL;
    value_batch batch = {.packed = values, .width = width};
    return probe_core(f, col, &batch, n, flags, out);
}

int bf_parquet_hash_value(const bf_parquet_file *f, size_t col, const void *value, size_t len,
                          uint64_t *hash) {
    if (!f || !hash || (!value && len)) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    if (!value_ok(&f->cols[col], value, len)) return BF_EINVAL;
    *hash = bf_hash_xxh64(value, len);
    return BF_OK;
}
