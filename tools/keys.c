/* Key input in large chunks, handed out in batches (keys.h). */
#include "keys.h"

#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* The largest chunk BF_CLI_CHUNK_BYTES may ask for. */
#define CHUNK_MAX ((uint64_t)1 << 30)
/* Lines are found 64 bytes at a time, possibly reading up to 63 bytes past
 * the data: the read buffer has that much to spare. */
#define SCAN_BYTES 64u
#define READ_SLACK SCAN_BYTES

struct cli_keys {
    int fd;
    int owned; /* close fd at the end (not standard input) */
    int is_file;
    int crlf;
    int eof;
    const char *name;
    uint8_t *buf; /* what read(2) returned: buf[pos, len) not handed out yet */
    size_t cap, pos, len;
    size_t clean; /* buf[pos, pos + clean) is known to hold no '\n' */
    uint8_t *data;     /* the current batch's keys, back to back */
    uint64_t *offsets; /* CLI_BATCH_KEYS + 1 */
    uint64_t lineno;   /* lines handed out so far */
};

static size_t chunk_bytes(void) {
    const char *s = getenv("BF_CLI_CHUNK_BYTES");
    uint64_t v;
    if (s && *s && cli_parse_count(s, &v) == 0 && v >= 1 && v <= CHUNK_MAX) return (size_t)v;
    return CLI_CHUNK_BYTES;
}

/* Read buffer and batch buffer of cap bytes each, plus slack: the scan reads
 * whole 64-byte blocks and short keys are copied with one fixed-size memcpy.
 * Zeroed, so that no byte read past the data is uninitialised. The batch
 * buffer holds at most what the read buffer held when the batch was cut. */
static int set_capacity(cli_keys *k, size_t cap) {
    uint8_t *buf = realloc(k->buf, cap + READ_SLACK);
    if (!buf) return -1;
    memset(buf + k->cap, 0, cap - k->cap + READ_SLACK);
    k->buf = buf;
    free(k->data);
    k->data = calloc(1, cap + CLI_KEY_SLACK);
    if (!k->data) return -1;
    k->cap = cap;
    return 0;
}

int cli_keys_open(cli_keys **out, const char *path, int crlf) {
    cli_keys *k = calloc(1, sizeof *k);
    if (!k) return -1;
    k->crlf = crlf;
    if (!path || !strcmp(path, "-")) {
        k->fd = STDIN_FILENO;
        k->name = "(stdin)";
    } else {
        k->name = path;
        k->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (k->fd < 0) {
            free(k);
            return -1;
        }
        k->owned = 1;
    }
    struct stat st;
    if (fstat(k->fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            cli_keys_close(k);
            errno = EISDIR;
            return -1;
        }
        /* Regular and seekable (standard input redirected from a file too):
         * it can be counted first and then read from where it started. */
        k->is_file = S_ISREG(st.st_mode) && lseek(k->fd, 0, SEEK_CUR) >= 0;
    }
    k->offsets = malloc((CLI_BATCH_KEYS + 1) * sizeof *k->offsets);
    if (!k->offsets || set_capacity(k, chunk_bytes()) != 0) {
        cli_keys_close(k);
        errno = ENOMEM;
        return -1;
    }
    *out = k;
    return 0;
}

const char *cli_keys_name(const cli_keys *k) { return k->name; }

int cli_keys_is_file(const cli_keys *k) { return k->is_file; }

void cli_keys_close(cli_keys *k) {
    if (!k) return;
    int saved = errno;
    if (k->owned) close(k->fd);
    free(k->buf);
    free(k->data);
    free(k->offsets);
    free(k);
    errno = saved;
}

static ssize_t read_some(int fd, uint8_t *p, size_t n) {
    ssize_t r;
    do r = read(fd, p, n);
    while (r < 0 && errno == EINTR);
    return r;
}

/* Bit i set iff p[i] == '\n', for i < 64. A memchr per line costs more
 * than the rest of a short key's handling; one pass over 64 bytes finds all
 * the line ends in them. */
static inline uint64_t newline_mask(const uint8_t *p) {
#if defined(__SSE2__)
    const __m128i nl = _mm_set1_epi8('\n');
    uint64_t m = 0;
    for (unsigned i = 0; i < SCAN_BYTES; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        m |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)) << i;
    }
    return m;
#else
    uint64_t m = 0;
    for (unsigned i = 0; i < SCAN_BYTES; i++) m |= (uint64_t)(p[i] == '\n') << i;
    return m;
#endif
}

/* The mask of the n < 64 bytes that are data. */
static inline uint64_t first_bits(size_t n) { return ((uint64_t)1 << n) - 1; }

int cli_keys_count(cli_keys *k, uint64_t *out) {
    if (!k->is_file || k->len != 0 || k->eof) {
        errno = EINVAL;
        return -1;
    }
    off_t start = lseek(k->fd, 0, SEEK_CUR);
    if (start < 0) return -1;
    uint64_t lines = 0;
    uint8_t last = '\n';
    for (;;) {
        ssize_t r = read_some(k->fd, k->buf, k->cap);
        if (r < 0) return -1;
        if (r == 0) break;
        const uint8_t *p = k->buf, *end = k->buf + r;
        for (; p < end; p += SCAN_BYTES) {
            uint64_t m = newline_mask(p);
            if ((size_t)(end - p) < SCAN_BYTES) m &= first_bits((size_t)(end - p));
            lines += (uint64_t)__builtin_popcountll(m);
        }
        last = end[-1];
    }
    if (last != '\n') lines++; /* a last key without '\n' */
    if (lseek(k->fd, start, SEEK_SET) < 0) return -1;
    *out = lines;
    return 0;
}

/* Moves the unfinished line to the front of the buffer (growing the buffer
 * if that line fills it) and reads more after it. 0, or -1 with errno. */
static int refill(cli_keys *k) {
    if (k->pos) {
        memmove(k->buf, k->buf + k->pos, k->len - k->pos);
        k->len -= k->pos;
        k->pos = 0;
    }
    if (k->len == k->cap) {
        if (k->cap > SIZE_MAX / 2 - READ_SLACK) {
            errno = ENOMEM;
            return -1;
        }
        if (set_capacity(k, 2 * k->cap) != 0) {
            errno = ENOMEM;
            return -1;
        }
    }
    ssize_t r = read_some(k->fd, k->buf + k->len, k->cap - k->len);
    if (r < 0) return -1;
    if (r == 0) k->eof = 1;
    else k->len += (size_t)r;
    return 0;
}

/* Copies a key into the batch; short ones with one fixed-size copy (both
 * buffers have CLI_KEY_SLACK bytes to spare). */
static inline void copy_key(uint8_t *dst, const uint8_t *src, size_t n) {
    if (n <= CLI_KEY_SLACK) memcpy(dst, src, CLI_KEY_SLACK);
    else memcpy(dst, src, n);
}

int cli_keys_next(cli_keys *k, cli_batch *b) {
    uint64_t *off = k->offsets;
    size_t n = 0, dlen = 0;
    off[0] = 0;
    for (;;) {
        /* Cut the lines of buf[pos, len): start is where the current line
         * begins, blk the 64 bytes being looked at. A line that spans many
         * reads is not scanned again from its start after each. */
        const uint8_t *start = k->buf + k->pos, *end = k->buf + k->len;
        const uint8_t *blk = start + k->clean;
        for (; blk < end && n < CLI_BATCH_KEYS; blk += SCAN_BYTES) {
            uint64_t m = newline_mask(blk);
            if ((size_t)(end - blk) < SCAN_BYTES) m &= first_bits((size_t)(end - blk));
            for (; m && n < CLI_BATCH_KEYS; m &= m - 1) {
                const uint8_t *nl = blk + __builtin_ctzll(m);
                size_t len = (size_t)(nl - start);
                if (k->crlf && len && nl[-1] == '\r') len--;
                copy_key(k->data + dlen, start, len);
                dlen += len;
                off[++n] = dlen;
                start = nl + 1;
            }
        }
        k->pos = (size_t)(start - k->buf);
        k->clean = n < CLI_BATCH_KEYS ? (size_t)(end - start) : 0;
        /* A full batch, or every complete line read so far: hand it out
         * rather than wait for more input (a terminal or a pipe answers as
         * its lines come). */
        if (n) break;
        if (k->eof) {
            if (k->pos == k->len) return 0;
            /* A last line without '\n': a key, kept whole. */
            size_t len = k->len - k->pos;
            memcpy(k->data, k->buf + k->pos, len);
            off[n = 1] = len;
            k->pos = k->len;
            k->clean = 0;
            break;
        }
        if (refill(k) != 0) return -1;
    }
    b->n = n;
    b->data = k->data;
    b->offsets = off;
    b->first_line = k->lineno + 1;
    k->lineno += n;
    return 1;
}

void cli_batch_hash(const cli_batch *b, uint64_t seed, uint64_t *out) {
    const uint64_t *off = b->offsets;
    for (size_t i = 0; i < b->n; i++)
        out[i] = bf_hash_xxh64_seeded(b->data + off[i], (size_t)(off[i + 1] - off[i]), seed);
}
