/* Filter files: opening (mapped, with a hint for Parquet filter bytes) and
 * reading small inputs whole. Saving is the library's: bf_filter_save_file
 * and bf_sbbf_save_parquet_file write atomically. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

uint8_t *cli_read_file(const char *path, size_t *len) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return NULL;
    }
    if ((uint64_t)st.st_size > (uint64_t)SIZE_MAX - 1) {
        close(fd);
        errno = EFBIG;
        return NULL;
    }
    size_t size = (size_t)st.st_size, got = 0;
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf) {
        close(fd);
        errno = ENOMEM;
        return NULL;
    }
    while (got < size) {
        ssize_t r = read(fd, buf + got, size - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int saved = errno;
            free(buf);
            close(fd);
            errno = saved;
            return NULL;
        }
        if (r == 0) break; /* shrank under us: the parser sees the end */
        got += (size_t)r;
    }
    close(fd);
    *len = got;
    return buf;
}

/* Whether the file holds Parquet filter bytes (BloomFilterHeader + bitset). */
static int is_parquet_filter(const char *path) {
    size_t len = 0;
    uint8_t *buf = cli_read_file(path, &len);
    if (!buf) return 0;
    bf_sbbf *s = NULL;
    int rc = bf_sbbf_view_parquet(&s, buf, len, NULL);
    bf_sbbf_free(s);
    free(buf);
    return rc == BF_OK;
}

int cli_open_filter(const char *path, unsigned flags, bf_filter **out) {
    errno = 0;
    int rc = bf_filter_map_file(out, path, flags);
    if (rc == BF_OK) return 0;
    int err = errno;
    if (rc == BF_EFORMAT && is_parquet_filter(path)) {
        cli_msg("%s: a Parquet filter, not a native one: run '%s convert --to native %s -o OUT'",
                path, CLI_PROG, path);
        return BF_CLI_EXIT_ERROR;
    }
    return cli_lib_error(path, "cannot open filter", rc, err);
}
