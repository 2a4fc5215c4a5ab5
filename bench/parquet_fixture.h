/* In-memory Parquet files for the Parquet benchmarks (C, so C++ can call
 * the tests' C writer). */
#ifndef BF_BENCH_PARQUET_FIXTURE_H
#define BF_BENCH_PARQUET_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* nrgs row groups of ncols REQUIRED INT64 columns, rows random values per
 * chunk, with statistics and a Bloom filter per chunk (Parquet sizing at
 * 1 %). *out: malloc'd file of *len bytes. values (may be NULL) gets
 * column 0's values, nrgs * rows of them, row group after row group.
 * Values are random in [0, 2^63), or with clustered (nrgs <= 256) random
 * in [rg 2^55, (rg + 1) 2^55): data sorted by the column, row groups'
 * statistics disjoint. */
int bench_parquet_file(size_t nrgs, size_t ncols, size_t rows, uint64_t seed, int clustered,
                       uint8_t **out, size_t *len, int64_t *values);

#ifdef __cplusplus
}
#endif

#endif
