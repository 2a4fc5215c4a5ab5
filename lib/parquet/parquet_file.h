/* The opened Parquet file, shared by the files of lib/parquet that read
 * it: parquet_file.c (opening, accessors), footer.c (the footer),
 * chunk_filter.c (column chunks' Bloom filters), prune.c (probing) and
 * parquet_text.c (values as text). Internal. */
#ifndef BF_PARQUET_FILE_H
#define BF_PARQUET_FILE_H

#include "common/internal.h"

#include <stdatomic.h>

/* Values per tile of a batch probe (prune.c, probe_core). */
#ifndef PQ_TILE
#define PQ_TILE 8192u
/* Parses the footer (f->data, footer_start, footer_len set) into f
 * (footer.c). On failure f holds what was allocated so far, for
 * bf_parquet_close. */
BF_HIDDEN int bf__parquet_read_footer(bf_parquet_file *f);

/* The Bloom filter of chunk (rg, col) as a view, made on first use and
 * kept until the file is closed; safe from any number of threads
 * (chunk_filter.c). BF_ENOFILTER when the chunk has none. */
BF_HIDDEN int bf__parquet_cached_filter(const bf_parquet_file *f, size_t rg, size_t col,
                                        const bf_sbbf **out);

#endif

/* Decimals with more fractional digits than this are not read as numbers. */
#define PQ_MAX_SCALE 200

typedef struct pq_kv {
    const uint8_t *key, *value; /* value NULL: absent */
    size_t key_len, value_len;
} pq_kv;

struct bf_parquet_file {
    const uint8_t *data;        /* the whole file */
    size_t size;
    void *map;                  /* munmap(map, size) at close; NULL for a buffer */
    size_t footer_start;        /* FileMetaData offset; the data region is [4, footer_start) */
    size_t footer_len;
    int32_t version;
    int64_t num_rows;
    char *created_by;
    size_t ncols, nrgs;
    bf_parquet_column *cols;
    char *strings;              /* paths and names of cols */
    bf_parquet_row_group *rgs;
    bf_parquet_chunk *chunks;   /* nrgs * ncols, row-group major */
    pq_kv *kv;
    size_t nkv;
    /* Bloom filter views, resolved on first use (thread-safe): per chunk a
     * view, and a status (0 not yet, 1 view ready, < 0 the error). */
    _Atomic(bf_sbbf *) *views;
    _Atomic int *view_status;
};

static inline const bf_parquet_chunk *pq_chunk(const bf_parquet_file *f, size_t rg, size_t col) {
    return &f->chunks[rg * f->ncols + col];
}

/* Bytes of a PLAIN value of this column when fixed (0: BYTE_ARRAY, any). */
static inline size_t pq_fixed_width(const bf_parquet_column *c) {
    switch (c->physical_type) {
    case BF_PARQUET_BOOLEAN: return 1;
    case BF_PARQUET_INT32: case BF_PARQUET_FLOAT: return 4;
    case BF_PARQUET_INT64: case BF_PARQUET_DOUBLE: return 8;
    case BF_PARQUET_INT96: return 12;
    case BF_PARQUET_FIXED_LEN_BYTE_ARRAY: return (size_t)c->type_length;
    default: return 0;
    }
}

/* Parses the footer (f->data, footer_start, footer_len set) into f
 * (footer.c). On failure f holds what was allocated so far, for
 * bf_parquet_close. */
BF_HIDDEN int bf__parquet_read_footer(bf_parquet_file *f);

/* The Bloom filter of chunk (rg, col) as a view, made on first use and
 * kept until the file is closed; safe from any number of threads
 * (chunk_filter.c). BF_ENOFILTER when the chunk has none. */
BF_HIDDEN int bf__parquet_cached_filter(const bf_parquet_file *f, size_t rg, size_t col,
                                        const bf_sbbf **out);

#endif
