/*
 * Writing a Parquet-compatible Bloom filter for a column of strings, and
 * reading it back as a Parquet reader would.
 *
 * Parquet hashes BYTE_ARRAY values with XXH64 (seed 0) over the value's
 * bytes, no length prefix: that is bf_sbbf_insert on a seed-0 filter. The
 * bytes written (Thrift-compact BloomFilterHeader + bitset) are what a
 * writer stores in the file at the column chunk's bloom_filter_offset.
 *
 * Build: cc parquet_column.c $(pkg-config --cflags --libs blockfilter)
 * Run:   ./parquet_column [OUT.bin]   (default: parquet_column_filter.bin)
 */
#include <blockfilter.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *column[] = {"apple", "banana", "cherry", "durian", "elderberry",
                               "fig",   "grape",  "honeydew", "kiwi", "lemon"};
#define ROWS (sizeof column / sizeof *column)

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "parquet_column_filter.bin";

    /* 1. Size as Parquet writers do (power of two, 32 B .. 128 MiB), so
     *    every Parquet reader accepts it. */
    bf_sbbf *f;
    int rc = bf_sbbf_new_parquet(&f, ROWS, 0.01);
    if (rc != BF_OK) {
        fprintf(stderr, "bf_sbbf_new_parquet: %s\n", bf_strerror(rc));
        return 1;
    }
    for (size_t i = 0; i < ROWS; i++) bf_sbbf_insert(f, column[i], strlen(column[i]));

    /* 2. Serialise: header + bitset. */
    size_t cap = bf_sbbf_parquet_size(f), written;
    unsigned char *buf = malloc(cap);
    if (!buf || (rc = bf_sbbf_to_parquet(f, buf, cap, &written)) != BF_OK) {
        fprintf(stderr, "bf_sbbf_to_parquet: %s\n", buf ? bf_strerror(rc) : "out of memory");
        return 1;
    }
    FILE *fp = fopen(path, "wb");
    if (!fp || fwrite(buf, 1, written, fp) != written || fclose(fp) != 0) {
        perror(path);
        return 1;
    }
    printf("wrote %s: %zu bytes (%zu-byte bitset + %zu-byte header)\n", path, written,
           bf_sbbf_num_bytes(f), written - bf_sbbf_num_bytes(f));

    /* 3. Read it back and probe, as a reader pruning row groups would. */
    bf_sbbf *g;
    if ((rc = bf_sbbf_from_parquet(&g, buf, written, NULL)) != BF_OK) {
        fprintf(stderr, "bf_sbbf_from_parquet: %s\n", bf_strerror(rc));
        return 1;
    }
    int ok = memcmp(bf_sbbf_bitset(f), bf_sbbf_bitset(g), bf_sbbf_num_bytes(f)) == 0;
    for (size_t i = 0; i < ROWS; i++) ok &= bf_sbbf_contains(g, column[i], strlen(column[i]));
    const char *probe = "zucchini";
    printf("'%s': %s; all %zu column values: %s\n", probe,
           bf_sbbf_contains(g, probe, strlen(probe)) ? "maybe (false positive)"
                                                      : "no (row group skipped)",
           ROWS, ok ? "present" : "MISSING");
    bf_sbbf_free(g);
    bf_sbbf_free(f);
    free(buf);
    return ok ? 0 : 1;
}
