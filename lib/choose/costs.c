/*
 * Cost tables: batch lookup ns per key of each candidate at a few filter
 * sizes, interpolated in log2(bytes) between them, and their text file.
 *
 * The file (docs/chooser.md), one record per line, fields separated by one
 * space:
 *     blockfilter-costs 1
 *     machine <text to the end of the line>
 *     row <candidate> <bytes> <lookup ns>
 *     ...
 *     end
 * Loading checks every line and refuses the whole file on the first bad
 * one; a file without its end line was cut short.
 */
#include "choose/candidates.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define COSTS_MAGIC "blockfilter-costs"
#define COSTS_VERSION 1
#define COSTS_MAX_FILE ((size_t)1 << 20)
#define COSTS_MAX_ROW_BYTES ((uint64_t)1 << 48)
#define NAME_MAX_LEN 31

typedef struct cost_row {
    char name[NAME_MAX_LEN + 1];
    uint64_t bytes;
    double ns;
} cost_row;

struct bf_cost_table {
    char machine[128];
    size_t n, cap;
    cost_row *rows;
};

int bf_cost_table_new(bf_cost_table **out) {
    if (!out) return BF_EINVAL;
    bf_cost_table *t = bf__calloc(1, sizeof *t);
    if (!t) return BF_ENOMEM;
    bf_machine_name(t->machine, sizeof t->machine);
    *out = t;
    return BF_OK;
}

void bf_cost_table_free(bf_cost_table *t) {
    if (!t) return;
    bf__free(t->rows);
    bf__free(t);
}

const char *bf_cost_table_machine(const bf_cost_table *t) { return t ? t->machine : NULL; }
size_t bf_cost_table_rows(const bf_cost_table *t) { return t ? t->n : 0; }

int bf_cost_table_row(const bf_cost_table *t, size_t i, const char **name, uint64_t *bytes,
                      double *lookup_ns) {
    if (!t || i >= t->n || !name || !bytes || !lookup_ns) return BF_EINVAL;
    *name = t->rows[i].name;
    *bytes = t->rows[i].bytes;
    *lookup_ns = t->rows[i].ns;
    return BF_OK;
}

/* A candidate name: 1..31 of [a-z0-9-]. */
static int name_valid(const char *s, size_t len) {
    if (len == 0 || len > NAME_MAX_LEN) return 0;
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-')) return 0;
    }
    return 1;
}

static int row_valid(uint64_t bytes, double ns) {
    return bytes >= 1 && bytes <= COSTS_MAX_ROW_BYTES && isfinite(ns) && ns > 0 && ns < 1e9;
}

int bf_cost_table_add(bf_cost_table *t, const char *name, uint64_t bytes, double lookup_ns) {
    if (!t || !name || !name_valid(name, strlen(name)) || !row_valid(bytes, lookup_ns))
        return BF_EINVAL;
    for (size_t i = 0; i < t->n; i++)
        if (t->rows[i].bytes == bytes && !strcmp(t->rows[i].name, name)) {
            t->rows[i].ns = lookup_ns;
            return BF_OK;
        }
    if (t->n == BF_COST_TABLE_MAX_ROWS) return BF_ETOOBIG;
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        cost_row *rows = bf__malloc(cap * sizeof *rows);
        if (!rows) return BF_ENOMEM;
        if (t->n) memcpy(rows, t->rows, t->n * sizeof *rows);
        bf__free(t->rows);
        t->rows = rows;
        t->cap = cap;
    }
    cost_row *r = &t->rows[t->n++];
    memset(r, 0, sizeof *r);
    memcpy(r->name, name, strlen(name));
    r->bytes = bytes;
    r->ns = lookup_ns;
    return BF_OK;
}

/* Linear in log2(bytes) between the two measured sizes around `bytes`;
 * outside them, the nearest one. *beyond = 1 if bytes is past the largest. */
static double interpolate(const bf_cost_table *t, const char *name, uint64_t bytes,
                          int *beyond) {
    const cost_row *lo = NULL, *hi = NULL;
    for (size_t i = 0; i < t->n; i++) {
        const cost_row *r = &t->rows[i];
        if (strcmp(r->name, name) != 0) continue;
        if (r->bytes <= bytes && (!lo || r->bytes > lo->bytes)) lo = r;
        if (r->bytes >= bytes && (!hi || r->bytes < hi->bytes)) hi = r;
    }
    if (beyond) *beyond = lo && !hi;
    if (!lo && !hi) return NAN;
    if (!lo) return hi->ns;
    if (!hi || hi->bytes == lo->bytes) return lo->ns;
    double x = log2((double)bytes), x0 = log2((double)lo->bytes), x1 = log2((double)hi->bytes);
    return lo->ns + (hi->ns - lo->ns) * (x - x0) / (x1 - x0);
}

double bf__cost_table_interpolate(const bf_cost_table *t, const char *name, uint64_t bytes,
                                  int *beyond) {
    return interpolate(t, name, bytes, beyond);
}

double bf_cost_table_lookup_ns(const bf_cost_table *t, const char *name, uint64_t bytes) {
    if (!t || !name) return NAN;
    return interpolate(t, name, bytes, NULL);
}

/* ---- the file ------------------------------------------------------------ */

int bf_cost_table_save(const bf_cost_table *t, const char *path) {
    if (!t || !path) return BF_EINVAL;
    /* A row is at most 6 + 31 + 1 + 20 + 1 + 24 + 1 characters. */
    size_t cap = 256 + t->n * 96, len = 0;
    char *buf = bf__malloc(cap);
    if (!buf) return BF_ENOMEM;
    int w = snprintf(buf, cap, "%s %d\nmachine %s\n", COSTS_MAGIC, COSTS_VERSION, t->machine);
    len = (size_t)w;
    for (size_t i = 0; i < t->n; i++) {
        w = snprintf(buf + len, cap - len, "row %s %llu %.6g\n", t->rows[i].name,
                     (unsigned long long)t->rows[i].bytes, t->rows[i].ns);
        len += (size_t)w;
    }
    w = snprintf(buf + len, cap - len, "end\n");
    len += (size_t)w;
    int rc = bf__save_atomic(path, buf, len);
    int saved = errno;
    bf__free(buf);
    errno = saved;
    return rc;
}

/* One line of text, [s, e), without its newline: the next field (up to a
 * space or the end), advancing *p past it and one space. */
static int next_field(const char **p, const char *e, const char **f, size_t *flen) {
    const char *s = *p;
    const char *q = s;
    while (q < e && *q != ' ') q++;
    if (q == s) return 0;
    *f = s;
    *flen = (size_t)(q - s);
    *p = q < e ? q + 1 : q;
    return 1;
}

static int parse_u64(const char *s, size_t len, uint64_t *out) {
    if (len == 0 || len > 20) return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        if (bf_mul_overflow(v, 10, &v) || bf_add_overflow(v, (uint64_t)(s[i] - '0'), &v))
            return 0;
    }
    *out = v;
    return 1;
}

static int parse_double(const char *s, size_t len, double *out) {
    char tmp[40];
    if (len == 0 || len >= sizeof tmp) return 0;
    for (size_t i = 0; i < len; i++) /* digits, sign, point, exponent only */
        if (!strchr("0123456789+-.eE", s[i])) return 0;
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    char *end;
    double v = strtod(tmp, &end);
    if (*end) return 0;
    *out = v;
    return 1;
}

static int field_is(const char *f, size_t len, const char *word) {
    return strlen(word) == len && !memcmp(f, word, len);
}

/* Parses buf[0, len) into t. */
static int parse(bf_cost_table *t, const char *buf, size_t len) {
    const char *p = buf, *end = buf + len;
    int line = 0, ended = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) return ended ? BF_ECORRUPT : BF_ETRUNCATED; /* a cut line */
        const char *q = p, *f;
        size_t flen;
        if (ended) return BF_ECORRUPT; /* nothing after the end line */
        if (!next_field(&q, nl, &f, &flen)) return line ? BF_ECORRUPT : BF_EFORMAT;
        if (line == 0) {
            uint64_t v;
            if (!field_is(f, flen, COSTS_MAGIC)) return BF_EFORMAT;
            if (!next_field(&q, nl, &f, &flen) || !parse_u64(f, flen, &v) || q != nl)
                return BF_EFORMAT;
            if (v != COSTS_VERSION) return BF_EVERSION;
        } else if (line == 1) {
            if (!field_is(f, flen, "machine")) return BF_ECORRUPT;
            size_t mlen = (size_t)(nl - q);
            if (mlen >= sizeof t->machine) return BF_ECORRUPT;
            for (size_t i = 0; i < mlen; i++)
                if ((unsigned char)q[i] < 0x20 || q[i] == 0x7f) return BF_ECORRUPT;
            memcpy(t->machine, q, mlen);
            t->machine[mlen] = '\0';
        } else if (field_is(f, flen, "row")) {
            const char *name, *bs, *ns;
            size_t nlen, blen, nslen;
            uint64_t bytes;
            double v;
            char nbuf[NAME_MAX_LEN + 1];
            if (!next_field(&q, nl, &name, &nlen) || !next_field(&q, nl, &bs, &blen) ||
                !next_field(&q, nl, &ns, &nslen) || q != nl)
                return BF_ECORRUPT;
            if (!name_valid(name, nlen) || !parse_u64(bs, blen, &bytes) ||
                !parse_double(ns, nslen, &v) || !row_valid(bytes, v))
                return BF_ECORRUPT;
            memcpy(nbuf, name, nlen);
            nbuf[nlen] = '\0';
            int rc = bf_cost_table_add(t, nbuf, bytes, v);
            if (rc) return rc == BF_ENOMEM ? rc : BF_ECORRUPT;
        } else if (field_is(f, flen, "end") && q == nl) {
            ended = 1;
        } else {
            return BF_ECORRUPT;
        }
        line++;
        p = nl + 1;
    }
    if (line == 0) return BF_EFORMAT;
    return ended ? BF_OK : BF_ETRUNCATED;
}

int bf_cost_table_load(bf_cost_table **out, const char *path) {
    if (!out || !path) return BF_EINVAL;
    int fd;
    size_t size;
    int rc = bf__open_regular(path, &fd, &size);
    if (rc) return rc;
    if (size > COSTS_MAX_FILE) {
        close(fd);
        return BF_ETOOBIG;
    }
    char *buf = bf__malloc(size ? size : 1);
    size_t got = 0;
    if (!buf) rc = BF_ENOMEM;
    else if (bf__read_all(fd, (uint8_t *)buf, size, &got) != 0) rc = BF_EIO;
    int saved = errno;
    close(fd);
    bf_cost_table *t = NULL;
    if (rc == BF_OK && !(t = bf__calloc(1, sizeof *t))) rc = BF_ENOMEM;
    if (rc == BF_OK) rc = parse(t, buf, got); /* the machine from the file */
    bf__free(buf);
    if (rc) {
        bf_cost_table_free(t);
        errno = saved;
        return rc;
    }
    *out = t;
    return BF_OK;
}

/* ---- the machine --------------------------------------------------------- */

int bf_machine_name(char *buf, size_t cap) {
    if (!buf || cap == 0) return BF_EINVAL;
    char model[96] = "unknown CPU";
    FILE *fp = fopen("/proc/cpuinfo", "r");
    if (fp) {
        char line[256];
        while (fgets(line, sizeof line, fp)) {
            /* x86: "model name"; aarch64: "CPU part"; s390x: "processor 0" */
            if (strncmp(line, "model name", 10) && strncmp(line, "CPU part", 8)) continue;
            const char *colon = strchr(line, ':');
            if (!colon) continue;
            colon++;
            while (*colon == ' ' || *colon == '\t') colon++;
            size_t n = strcspn(colon, "\n");
            if (n >= sizeof model) n = sizeof model - 1;
            memcpy(model, colon, n);
            model[n] = '\0';
            break;
        }
        fclose(fp);
    }
    const char *kernel = "none";
    if (bf_sbbf_default_kernel(&kernel) != BF_OK) kernel = "none";
    snprintf(buf, cap, "%s; kernel %s; blockfilter %s", model, kernel, bf_version_string());
    for (char *c = buf; *c; c++) /* one line of printable text */
        if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = ' ';
    return BF_OK;
}
