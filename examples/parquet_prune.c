/*
 * Pruning a Parquet file: which row groups may hold rows where a column
 * equals a value? Statistics and Bloom filters from the file's footer
 * (docs/parquet.md).
 *
 * Build: cc parquet_prune.c $(pkg-config --cflags --libs blockfilter)
 * Run:   ./parquet_prune FILE.parquet COLUMN VALUE
 *        (exit 0: some row group may hold it; 1: every row group skipped)
 */
#include <blockfilter.h>
#include <blockfilter_parquet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Which row groups of FILE may hold rows where COLUMN == VALUE? */
int main(int argc, char **argv) {
    if (argc != 4) return 2;
    bf_parquet_file *f;
    int rc = bf_parquet_open(&f, argv[1]);          /* mmap, parse the footer */
    if (rc != BF_OK) { fprintf(stderr, "%s: %s\n", argv[1], bf_strerror(rc)); return 1; }

    size_t col;
    if ((rc = bf_parquet_find_column(f, argv[2], &col)) != BF_OK) {   /* "a.b.c" */
        fprintf(stderr, "%s: %s\n", argv[2], bf_strerror(rc));
        bf_parquet_close(f);
        return 1;
    }
    /* Text -> the value's PLAIN bytes, typed by the column's logical type:
     * "42", "2024-03-01" for a DATE, "2024-03-01T12:00:00Z" for a
     * TIMESTAMP, "-12.50" for a DECIMAL, the string itself for STRING. */
    unsigned char value[256];
    size_t len;
    rc = bf_parquet_value_from_text(f, col, argv[3], strlen(argv[3]), 0,
                                    value, sizeof value, &len);
    if (rc != BF_OK) { fprintf(stderr, "%s: %s\n", argv[3], bf_strerror(rc)); return 1; }

    size_t nrg = bf_parquet_num_row_groups(f), maybe = 0;
    unsigned char *verdict = malloc(nrg ? nrg : 1);
    if (!verdict || (rc = bf_parquet_probe(f, col, value, len, 0, verdict, &maybe)) != BF_OK) {
        fprintf(stderr, "probe: %s\n", bf_strerror(verdict ? rc : BF_ENOMEM));
        return 1;
    }
    for (size_t rg = 0; rg < nrg; rg++)
        printf("row group %zu: %s\n", rg, bf_parquet_verdict_name(verdict[rg]));
    printf("%zu of %zu row groups skipped\n", nrg - maybe, nrg);
    free(verdict);
    bf_parquet_close(f);
    return maybe ? 0 : 1;
}
