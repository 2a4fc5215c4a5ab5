/*
 * Files: atomic save, copying load, and read-only zero-copy mapping of a
 * saved filter (any family, any size, including files larger than 4 GiB).
 *
 *  - bf_filter_save_file writes a temporary file in the target's directory,
 *    fsyncs it, renames it over the target and fsyncs the directory. On any
 *    failure the temporary file is removed and the target is untouched: a
 *    reader sees either the old file or the new one, never a torn one.
 *  - bf_filter_load_file reads the file with read() (no mapping, so a file
 *    truncated by someone else while we read cannot raise SIGBUS) and loads
 *    a private copy.
 *  - bf_filter_map_file maps the file PROT_READ/MAP_PRIVATE and builds a
 *    read-only view over the mapping; bf_filter_free unmaps it. The payload
 *    starts 64 bytes into a page-aligned mapping, so the view sees the same
 *    alignment an owned filter has.
 *
 *  - bf_sbbf_save_parquet_file saves an SBBF's Parquet bytes the same
 *    atomic way; bf_filter_file_version reads and checks a saved filter's
 *    header alone (what a tool shows without loading the payload).
 *
 * I/O failures return BF_EIO with errno preserved from the failing call.
 */
#define _GNU_SOURCE
#include "format/format.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* Larger transfers are split: Linux moves at most ~2 GiB per call. */
#define IO_CHUNK ((size_t)1 << 30)

static int write_all(int fd, const uint8_t *p, size_t len) {
    while (len) {
        ssize_t w = write(fd, p, len < IO_CHUNK ? len : IO_CHUNK);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (w == 0) {
            errno = EIO;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

int bf__read_all(int fd, uint8_t *p, size_t len, size_t *got) {
    size_t done = 0;
    while (done < len) {
        size_t want = len - done;
        ssize_t r = read(fd, p + done, want < IO_CHUNK ? want : IO_CHUNK);
        if (r < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (r == 0) break; /* shrank under us: the loader reports truncation */
        done += (size_t)r;
    }
    *got = done;
    return 0;
}

static int close_keep_errno(int fd) {
    int saved = errno;
    int rc = close(fd);
    errno = saved;
    return rc;
}

/* The directory part of path ("." if none), in new memory. */
static char *dir_of(const char *path) {
    const char *slash = strrchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 1;
    if (slash && n == 0) n = 1; /* "/file" -> "/" */
    char *d = bf__malloc(n + 1);
    if (!d) return NULL;
    if (slash) memcpy(d, path, n);
    else d[0] = '.';
    d[n] = '\0';
    return d;
}

/* Flush a directory entry change to disk. Some file systems cannot fsync a
 * directory (EINVAL): there is nothing more to do on those. */
static int fsync_dir(const char *dir) {
    int fd = open(dir, O_RDONLY | O_CLOEXEC
#ifdef O_DIRECTORY
                           | O_DIRECTORY
#endif
    );
    if (fd < 0) return BF_EIO;
    int rc = BF_OK;
    if (fsync(fd) != 0 && errno != EINVAL && errno != EROFS) rc = BF_EIO;
    if (close_keep_errno(fd) != 0 && rc == BF_OK) rc = BF_EIO;
    return rc;
}

/* Creates "<path>.tmp.<pid>.<n>" exclusively, mode 0666 less the umask (the
 * permissions a plain fopen(path, "w") would give). */
static int create_temp(const char *path, char **tmp_out, int *fd_out) {
    size_t plen = strlen(path);
    size_t cap = plen + 64;
    if (cap < plen) return BF_ETOOBIG;
    char *tmp = bf__malloc(cap);
    if (!tmp) return BF_ENOMEM;
    static unsigned counter; /* only makes names distinct; races are harmless
                                because creation is O_EXCL */
    for (unsigned attempt = 0; attempt < 100; attempt++) {
        unsigned n = __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
        snprintf(tmp, cap, "%s.tmp.%ld.%u", path, (long)getpid(), n);
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *tmp_out = tmp;
            *fd_out = fd;
            return BF_OK;
        }
        if (errno != EEXIST) break;
    }
    int saved = errno;
    bf__free(tmp);
    errno = saved;
    return BF_EIO;
}

/* Writes len bytes of buf to path atomically: a temporary file in the
 * target's directory, fsync, rename over the target, fsync of the directory.
 * On failure before the rename the temporary file is removed and the target
 * is untouched. */
int bf__save_atomic(const char *path, const void *data, size_t len) {
    const uint8_t *buf = (const uint8_t *)data;
    /* Everything that can fail for lack of memory happens before the
     * rename: after it, the only failure left is the directory fsync. */
    char *dir = dir_of(path);
    if (!dir) return BF_ENOMEM;
    char *tmp = NULL;
    int fd = -1;
    int rc = create_temp(path, &tmp, &fd);
    if (rc) {
        int saved = errno;
        bf__free(dir);
        errno = saved;
        return rc;
    }
    int saved = 0;
    if (write_all(fd, buf, len) != 0 || fsync(fd) != 0) {
        saved = errno;
        close(fd);
        rc = BF_EIO;
    } else if (close(fd) != 0) { /* NFS reports write errors here */
        saved = errno;
        rc = BF_EIO;
    } else if (rename(tmp, path) != 0) {
        saved = errno;
        rc = BF_EIO;
    }
    if (rc) unlink(tmp);
    bf__free(tmp);
    if (rc) {
        bf__free(dir);
        errno = saved;
        return rc;
    }
    /* The new file is in place; make the rename itself durable. */
    rc = fsync_dir(dir);
    saved = errno;
    bf__free(dir);
    errno = saved;
    return rc;
}

/* Serialises obj with ser into a buffer of need bytes from the payload
 * allocator (big ones are mmap-ed and go straight back to the system) and
 * saves it atomically. Serialising first means that an object that cannot
 * be saved leaves no file behind. */
static int save_serialised(const char *path, size_t need, const void *obj,
                           int (*ser)(const void *obj, void *buf, size_t cap, size_t *written)) {
    bf_region buf;
    int rc = bf__alloc_bits(&buf, need);
    if (rc) return rc;
    size_t written = 0;
    rc = ser(obj, buf.ptr, need, &written);
    if (rc == BF_OK) rc = bf__save_atomic(path, buf.ptr, written);
    int saved = errno;
    bf__free_bits(&buf);
    errno = saved;
    return rc;
}

static int ser_native(const void *f, void *buf, size_t cap, size_t *written) {
    return bf_filter_save(f, buf, cap, written);
}

static int ser_parquet(const void *f, void *buf, size_t cap, size_t *written) {
    return bf_sbbf_to_parquet(f, buf, cap, written);
}

int bf_filter_save_file(const bf_filter *f, const char *path) {
    if (!f || !path || !*path) return BF_EINVAL;
    size_t need = bf_filter_save_size(f);
    if (need == 0) return BF_ETOOBIG; /* size overflows size_t */
    return save_serialised(path, need, f, ser_native);
}

int bf_sbbf_save_parquet_file(const bf_sbbf *f, const char *path) {
    if (!f || !path || !*path) return BF_EINVAL;
    size_t need = bf_sbbf_parquet_size(f);
    if (need == 0) return BF_ETOOBIG; /* larger than Parquet's i32 numBytes */
    return save_serialised(path, need, f, ser_parquet);
}

/* Opens a regular file for reading and returns its size (internal.h). */
int bf__open_regular(const char *path, int *fd_out, size_t *size_out) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return BF_EIO;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        close_keep_errno(fd);
        return BF_EIO;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return BF_EIO;
    }
    if (st.st_size < 0 || (uint64_t)st.st_size > (uint64_t)SIZE_MAX) {
        close(fd);
        return BF_ETOOBIG;
    }
    *fd_out = fd;
    *size_out = (size_t)st.st_size;
    return BF_OK;
}

int bf_filter_load_file(bf_filter **out, const char *path) {
    if (!out || !path) return BF_EINVAL;
    int fd;
    size_t size;
    int rc = bf__open_regular(path, &fd, &size);
    if (rc) return rc;
    if (size == 0) {
        close(fd);
        return BF_ETRUNCATED;
    }
    bf_region buf;
    rc = bf__alloc_bits(&buf, size);
    if (rc) {
        close(fd);
        return rc;
    }
    size_t got = 0;
    if (bf__read_all(fd, buf.ptr, size, &got) != 0) {
        int saved = errno;
        close(fd);
        bf__free_bits(&buf);
        errno = saved;
        return BF_EIO;
    }
    close(fd);
    rc = bf_filter_load(out, buf.ptr, got);
    bf__free_bits(&buf);
    return rc;
}

static void unmap_release(void *base, size_t len) { munmap(base, len); }

int bf_filter_map_file(bf_filter **out, const char *path, unsigned flags) {
    if (!out || !path) return BF_EINVAL;
    if (flags & ~(BF_VIEW_VERIFY_PAYLOAD | BF_MAP_PREFAULT)) return BF_EINVAL;
    int fd;
    size_t size;
    int rc = bf__open_regular(path, &fd, &size);
    if (rc) return rc;
    if (size == 0) { /* mmap of 0 bytes is an error; the format says why */
        close(fd);
        return BF_ETRUNCATED;
    }
    int mflags = MAP_PRIVATE;
#ifdef MAP_POPULATE
    if (flags & BF_MAP_PREFAULT) mflags |= MAP_POPULATE;
#endif
    void *map = mmap(NULL, size, PROT_READ, mflags, fd, 0);
    if (map == MAP_FAILED) {
        int saved = errno;
        close(fd);
        errno = saved;
        return errno == ENOMEM ? BF_ENOMEM : BF_EIO;
    }
    close(fd); /* the mapping keeps the file open */
    /* Verifying reads the payload front to back; queries afterwards touch
     * one block each, where read-ahead only wastes page cache. */
    if (flags & BF_VIEW_VERIFY_PAYLOAD) madvise(map, size, MADV_SEQUENTIAL);
    else if (flags & BF_MAP_PREFAULT) madvise(map, size, MADV_WILLNEED);
    rc = bf__filter_view_owned(out, map, size, flags & BF_VIEW_VERIFY_PAYLOAD, unmap_release, map,
                               size);
    if (rc) {
        munmap(map, size);
        return rc;
    }
    if (!(flags & BF_MAP_PREFAULT)) madvise(map, size, MADV_RANDOM);
    return BF_OK;
}

int bf_filter_file_version(const char *path, unsigned *version) {
    if (!path || !version) return BF_EINVAL;
    int fd;
    size_t size;
    int rc = bf__open_regular(path, &fd, &size);
    if (rc) return rc;
    uint8_t head[BF_HEADER_BYTES];
    size_t got = 0;
    if (bf__read_all(fd, head, sizeof head, &got) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return BF_EIO;
    }
    close(fd);
    bf_native_header h;
    rc = bf__header_read(head, got, &h);
    /* Only the header was read: a complete, valid header whose payload
     * lies beyond it reads as "truncated" here and is what we want. */
    if (rc == BF_ETRUNCATED && got == BF_HEADER_BYTES && size > BF_HEADER_BYTES) rc = BF_OK;
    if (rc) return rc;
    *version = h.version;
    return BF_OK;
}
