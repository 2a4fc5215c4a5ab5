/*
 * Parquet files: opening (a caller's buffer, or a file mapped read-only),
 * the frame around the footer, closing, and the accessors of what the
 * footer holds. The footer is parsed by footer.c, column chunks' Bloom
 * filters are reached through chunk_filter.c, and row groups are pruned
 * by prune.c.
 *
 * File layout: "PAR1" | column chunks, page indexes, Bloom filters |
 * FileMetaData (Thrift compact) | footer length (uint32 LE) | "PAR1".
 * An encrypted footer ends in "PARE" instead: refused (BF_EENCRYPTED).
 */
#define _GNU_SOURCE
#include "parquet/parquet_file.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>


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
    rc = bf__parquet_read_footer(f);
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

