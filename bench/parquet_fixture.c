/* Parquet files for bench_parquet.cc, written in memory with the tests'
 * writer (tests/parquet/pq_writer.h), in C because the writer is C. */
#include "parquet_fixture.h"

#include "pq_writer.h"

#include <stdio.h>
#include <stdlib.h>

/* splitmix64 */
static uint64_t next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int bench_parquet_file(size_t nrgs, size_t ncols, size_t rows, uint64_t seed, int clustered,
                       uint8_t **out, size_t *len, int64_t *values) {
    pqw_column *cols = calloc(ncols, sizeof *cols);
    char (*names)[24] = calloc(ncols, 24);
    size_t nvals = nrgs * ncols * rows;
    int64_t *store = calloc(nvals ? nvals : 1, sizeof *store);
    pqw_value *vals = calloc(nvals ? nvals : 1, sizeof *vals);
    const pqw_value **ptrs = calloc(nrgs * ncols, sizeof *ptrs);
    size_t *rowsv = calloc(nrgs, sizeof *rowsv);
    if (!cols || !names || !store || !vals || !ptrs || !rowsv) return BF_ENOMEM;
    for (size_t c = 0; c < ncols; c++) {
        snprintf(names[c], 24, "c%zu", c);
        memset(&cols[c], 0, sizeof cols[c]);
        cols[c].name = names[c];
        cols[c].type = BF_PARQUET_INT64;
        cols[c].converted = -1;
        cols[c].order = PQW_SIGNED;
        cols[c].stats = PQW_STATS_NEW;
        cols[c].bloom = true;
        cols[c].assume_distinct = true;
    }
    uint64_t s = seed;
    for (size_t rg = 0; rg < nrgs; rg++) {
        rowsv[rg] = rows;
        for (size_t c = 0; c < ncols; c++) {
            size_t at = (rg * ncols + c) * rows;
            for (size_t i = 0; i < rows; i++) {
                int64_t v = clustered ? (int64_t)(((uint64_t)rg << 55) | (next(&s) >> 9))
                                      : (int64_t)(next(&s) >> 1);
                uint8_t *b = (uint8_t *)&store[at + i];
                for (int k = 0; k < 8; k++) b[k] = (uint8_t)((uint64_t)v >> (8 * k));
                vals[at + i] = (pqw_value){b, 8};
                if (values && c == 0) values[rg * rows + i] = v;
            }
            ptrs[rg * ncols + c] = &vals[at];
        }
    }
    pqw_file pf = {cols, ncols, nrgs, rowsv, ptrs, "blockfilter bench", false};
    thrift_writer w;
    thrift_writer_init(&w);
    int rc = pqw_write(&w, &pf, NULL);
    free(cols), free(names), free(store), free(vals), free(ptrs), free(rowsv);
    if (rc) {
        thrift_writer_free(&w);
        return rc;
    }
    *out = malloc(w.len);
    if (!*out) {
        thrift_writer_free(&w);
        return BF_ENOMEM;
    }
    memcpy(*out, w.buf, w.len);
    *len = w.len;
    thrift_writer_free(&w);
    return BF_OK;
}
