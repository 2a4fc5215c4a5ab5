/*
 * Writes the committed seed corpus of the fuzz targets:
 *   fuzz_make_seeds <test data dir> <corpus dir>
 * Valid inputs (the Parquet fixtures, saved filters of every family, keyed
 * and not) and a few hand-made corruptions of each. Deterministic: running
 * it again gives the same files.
 */
#define _DEFAULT_SOURCE
#include "blockfilter.h"
#include "blockfilter_advanced.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *out_dir;

static void die(const char *what) {
    fprintf(stderr, "fuzz_make_seeds: %s\n", what);
    exit(1);
}

static void put(const char *target, const char *name, const uint8_t *pre, size_t pre_len,
                const uint8_t *data, size_t len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", out_dir, target);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) die(path);
    snprintf(path, sizeof path, "%s/%s/%s", out_dir, target, name);
    FILE *fp = fopen(path, "wb");
    if (!fp) die(path);
    if ((pre_len && fwrite(pre, 1, pre_len, fp) != pre_len) ||
        (len && fwrite(data, 1, len, fp) != len))
        die(path);
    if (fclose(fp) != 0) die(path);
}

static uint8_t *slurp(const char *dir, const char *name, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "rb");
    if (!fp) die(path);
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    if (!b || fread(b, 1, (size_t)n, fp) != (size_t)n) die(path);
    fclose(fp);
    *len = (size_t)n;
    return b;
}

/* Parquet targets: the from_parquet input as is; the view input with a
 * leading alignment byte. */
static void parquet_seed(const char *name, const uint8_t *d, size_t len) {
    put("sbbf_from_parquet", name, NULL, 0, d, len);
    uint8_t off = (uint8_t)(len % 7 + 1);
    put("sbbf_view_parquet", name, &off, 1, d, len);
}

/* Native targets: control byte, then the image. */
static void native_seed(const char *name, const uint8_t *img, size_t len) {
    char n2[256];
    uint8_t ctl = 0;
    put("filter_load", name, &ctl, 1, img, len);
    put("filter_view", name, &ctl, 1, img, len);
    ctl = 2 | (3 << 2); /* verify payload, misaligned by 3 */
    snprintf(n2, sizeof n2, "%s-verify", name);
    put("filter_view", n2, &ctl, 1, img, len);
}

static uint8_t *save(const bf_filter *f, size_t *len) {
    *len = bf_filter_save_size(f);
    uint8_t *b = malloc(*len);
    size_t w = 0;
    if (!b || bf_filter_save(f, b, *len, &w) != BF_OK || w != *len) die("save");
    return b;
}

/* CLI seeds of a filter file: info (text and JSON), query, convert to
 * Parquet, merge with itself. */
static void cli_file_seeds(const bf_filter *f, const char *suffix) {
    static const struct { uint8_t mode, opt; const char *name; } runs[] = {
        {1, 0, "info"}, {1, 1, "info-json"}, {2, 0, "query"}, {3, 1, "convert-to-parquet"},
        {4, 0, "merge"},
    };
    size_t ilen;
    uint8_t *img = save(f, &ilen);
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        uint8_t hdr[2] = {runs[i].mode, runs[i].opt};
        char name[64];
        snprintf(name, sizeof name, "%s%s", runs[i].name, suffix);
        put("cli", name, hdr, 2, img, ilen);
    }
    free(img);
}

int main(int argc, char **argv) {
    if (argc != 3) die("usage: fuzz_make_seeds <test data dir> <corpus dir>");
    const char *data_dir = argv[1];
    out_dir = argv[2];
    if (mkdir(out_dir, 0777) != 0 && errno != EEXIST) die(out_dir);

    /* ---- Parquet ---- */
    size_t len;
    uint8_t *x = slurp(data_dir, "parquet/bloom_filter.xxhash.bin", &len);
    parquet_seed("xxhash-bin", x, len);
    uint8_t *c = malloc(len);
    memcpy(c, x, len);
    c[2] = 0x11; /* numBytes 1025+: not a multiple of 32 */
    parquet_seed("bad-numbytes", c, len);
    memcpy(c, x, len);
    c[1] = 0x81, c[2] = 0x80, c[3] = 0x80, c[4] = 0x80; /* numBytes: huge varint over the fields */
    parquet_seed("huge-varint", c, len);
    memcpy(c, x, len);
    c[5] = 0x2c; /* algorithm: union field 2 (unknown) */
    parquet_seed("unknown-algorithm", c, len);
    memcpy(c, x, len);
    c[12] = 0x2c; /* compression: field 2 (not UNCOMPRESSED) */
    parquet_seed("compressed", c, len);
    parquet_seed("truncated-bitset", x, len - 100);
    parquet_seed("header-only", x, 16);
    free(c);
    free(x);
    x = slurp(data_dir, "parquet/bloom_filter.bin", &len);
    parquet_seed("legacy-bin", x, len);
    free(x);
    x = slurp(data_dir, "parquet/data_index_bloom_encoding_stats.parquet", &len);
    parquet_seed("parquet-mr-1024", x + 192, 1040);
    free(x);
    x = slurp(data_dir, "parquet/data_index_bloom_encoding_with_length.parquet", &len);
    parquet_seed("parquet-rs-2048", x + 253, 2064);
    free(x);
    {
        /* One block, written by this library; plus unknown fields and a
         * nested struct before the known ones (must be skipped). */
        bf_sbbf *f = NULL;
        if (bf_sbbf_new_bytes(&f, 32) != BF_OK) die("sbbf");
        for (int i = 0; i < 10; i++) {
            char k[8];
            int n = snprintf(k, sizeof k, "a%d", i);
            bf_sbbf_insert(f, k, (size_t)n);
        }
        size_t psize = bf_sbbf_parquet_size(f), w;
        uint8_t *p = malloc(psize + 16);
        if (bf_sbbf_to_parquet(f, p, psize, &w) != BF_OK) die("to_parquet");
        parquet_seed("one-block", p, w);
        /* field 9 (i32 = 1), field 10 (struct { field 1 binary "ab" }), then
         * the original fields renumbered by long form is not needed. */
        static const uint8_t extra[] = {0x95, 0x02, 0x1c, 0x18, 0x02, 'a', 'b', 0x00};
        uint8_t *q = malloc(psize + sizeof extra);
        memcpy(q, extra, sizeof extra);
        /* The original header's first field delta is relative to 0; after
         * field 10 it must be written in long form: keep the rest as is and
         * let the loader decide (the fuzzer mutates from here). */
        memcpy(q + sizeof extra, p, w);
        parquet_seed("extra-fields", q, w + sizeof extra);
        free(q);
        free(p);
        bf_sbbf_free(f);
    }

    /* ---- native images of every family the library knows ---- */
    bf_family fams[256];
    size_t nf = 0;
    for (unsigned id = 1; id < 256; id++)
        if (bf_family_name((bf_family)id)) fams[nf++] = (bf_family)id;
    for (size_t i = 0; i < nf; i++) {
        /* 0: plain, 1: keyed, 2: overfull (sized for 8 keys, given 40, up
         * to the first refused insert): a cuckoo filter near failure, a
         * scalable chain of several layers. */
        for (int variant = 0; variant < 3; variant++) {
            bf_filter *f = NULL;
            if (bf_filter_new(&f, fams[i], variant == 2 ? 8 : 64, 0.05) != BF_OK) die("filter_new");
            if (variant == 1 && bf_filter_set_seed(f, 0x5eed5eed5eed5eedu) != BF_OK) die("set_seed");
            for (int k = 0; k < 40; k++) {
                char key[16];
                int n = snprintf(key, sizeof key, "key%d", k);
                int rc = bf_filter_insert(f, key, (size_t)n);
                if (rc == BF_EFULL && variant == 2) break;
                if (rc != BF_OK) die("insert");
            }
            size_t ilen;
            uint8_t *img = save(f, &ilen);
            char name[128];
            const char *fn = bf_family_name(fams[i]);
            static const char *const suffix[] = {"", "-keyed", "-overfull"};
            snprintf(name, sizeof name, "%s%s", fn, suffix[variant]);
            native_seed(name, img, ilen);
            uint8_t ctl;
            uint8_t *m = malloc(ilen);
            if (variant == 0) {
                /* Payload corrupted (checks stale: payload check fails). */
                img[ilen - 1] ^= 0x40;
                snprintf(name, sizeof name, "%s-bad-payload", fn);
                native_seed(name, img, ilen);
                img[ilen - 1] ^= 0x40;
                /* Fields corrupted with the checks recomputed (control
                 * bit 0): the field validation must catch them. */
                ctl = 1;
                static const struct { int off; uint8_t val; const char *what; } muts[] = {
                    {24, 0xff, "p0"}, {31, 0x80, "p0-high"}, {32, 0x41, "p1"}, {36, 0x07, "p2"},
                    {40, 0x01, "p3"}, {48, 0x01, "payload-len"}, {4, 0x02, "version"},
                    {7, 0x02, "flags"}, {8, 0x01, "seed-unkeyed"}, {6, 0x05, "family"},
                };
                for (size_t j = 0; j < sizeof muts / sizeof muts[0]; j++) {
                    memcpy(m, img, ilen);
                    m[muts[j].off] ^= muts[j].val;
                    snprintf(name, sizeof name, "%s-fixed-%s", fn, muts[j].what);
                    put("filter_load", name, &ctl, 1, m, ilen);
                    put("filter_view", name, &ctl, 1, m, ilen);
                }
                /* Family byte swapped for every other family, checks fixed. */
                for (size_t o = 0; o < nf; o++) {
                    if (o == i) continue;
                    memcpy(m, img, ilen);
                    m[6] = (uint8_t)fams[o];
                    snprintf(name, sizeof name, "%s-as-%s", fn, bf_family_name(fams[o]));
                    put("filter_load", name, &ctl, 1, m, ilen);
                    put("filter_view", name, &ctl, 1, m, ilen);
                }
                /* Truncated. */
                ctl = 0;
                snprintf(name, sizeof name, "%s-truncated", fn);
                put("filter_load", name, &ctl, 1, img, ilen - 9);
            } else if (variant == 2) {
                /* Payload words changed with the checks recomputed: where a
                 * family keeps metadata in its payload (a cuckoo trailer, a
                 * scalable chain's head and directory of layers), its own
                 * validation must catch them. */
                ctl = 1;
                const size_t plen = ilen - BF_HEADER_BYTES;
                static const size_t offs[] = {0, 8, 16, 24, 32, 40, 48, 56, 72, 80};
                for (size_t j = 0; j < sizeof offs / sizeof offs[0] + 3; j++) {
                    size_t off = j < sizeof offs / sizeof offs[0]
                                     ? offs[j]
                                     : plen - 8 * (j - sizeof offs / sizeof offs[0] + 1);
                    if (off + 8 > plen) continue;
                    memcpy(m, img, ilen);
                    m[BF_HEADER_BYTES + off] ^= 0x03;
                    snprintf(name, sizeof name, "%s-overfull-fixed-payload-%zu", fn, off);
                    put("filter_load", name, &ctl, 1, m, ilen);
                    put("filter_view", name, &ctl, 1, m, ilen);
                }
            }
            free(m);
            free(img);
            bf_filter_free(f);
        }
    }

    /* ---- cuckoo filters of other shapes (format version 2) ---- */
    {
        static const struct { unsigned b, f, flags; const char *name; } shapes[] = {
            {1, 13, 0, "cuckoo-b1-f13"},   {2, 7, 0, "cuckoo-b2-f7"},
            {3, 5, 0, "cuckoo-b3-f5"},     {8, 17, 0, "cuckoo-b8-f17"},
            {16, 4, 0, "cuckoo-b16-f4"},   {255, 32, 0, "cuckoo-b255-f32"},
            {4, 9, BF_CUCKOO_SEMISORTED, "cuckoo-b4-f9-semisorted"},
            {4, 16, BF_CUCKOO_SEMISORTED, "cuckoo-b4-f16-semisorted"},
        };
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
            bf_cuckoo *c = NULL;
            bf_filter *f = NULL;
            uint64_t nb = 64 / shapes[i].b < 2 ? 2 : 64 / shapes[i].b;
            if (bf_cuckoo_new_table(&c, nb, shapes[i].b, shapes[i].f, shapes[i].flags) != BF_OK ||
                bf_filter_from_cuckoo(&f, c) != BF_OK)
                die("cuckoo shape");
            for (int k = 0; k < 40; k++) {
                char key[16];
                int n = snprintf(key, sizeof key, "key%d", k);
                int rc = bf_filter_insert(f, key, (size_t)n);
                if (rc == BF_EFULL) break;
                if (rc != BF_OK) die("insert");
            }
            size_t ilen;
            uint8_t *img = save(f, &ilen);
            native_seed(shapes[i].name, img, ilen);
            /* Bytes of the table and the shape changed, checks recomputed:
             * the padding and semi-sorted codes must be checked. */
            uint8_t ctl = 1, *m = malloc(ilen);
            const size_t tb = (size_t)bf_cuckoo_table_bytes(c);
            const size_t offs[4] = {BF_HEADER_BYTES, BF_HEADER_BYTES + 1, BF_HEADER_BYTES + tb - 1, 36};
            for (size_t j = 0; j < 4; j++) {
                char name[128];
                memcpy(m, img, ilen);
                m[offs[j]] ^= j == 3 ? 0x0c : 0xf0;
                snprintf(name, sizeof name, "%s-fixed-%zu", shapes[i].name, offs[j]);
                put("filter_load", name, &ctl, 1, m, ilen);
                put("filter_view", name, &ctl, 1, m, ilen);
            }
            free(m);
            free(img);
            bf_filter_free(f);
        }
    }

    /* ---- CLI: mode byte, option byte, then the file or the arguments ---- */
    {
        static const char keys_lf[] = "hello\nparquet\nbloom\nfilter\n\nlast-without-newline";
        static const char keys_crlf[] = "a\r\nb\r\n\r\nc\rd\n\0nul\r\n";
        uint8_t hdr[2] = {0, 0};
        put("cli", "build-sbbf", hdr, 2, (const uint8_t *)keys_lf, sizeof keys_lf - 1);
        hdr[1] = 3 | 4 | 8; /* cuckoo, --crlf, --keyed */
        put("cli", "build-cuckoo-crlf-keyed", hdr, 2, (const uint8_t *)keys_crlf, sizeof keys_crlf - 1);
        /* Cuckoo shapes (byte 0 >> 3): b = 2, f = 7; b = 255, f = 32;
         * semi-sorted, f = 9. */
        hdr[1] = 3;
        hdr[0] = (uint8_t)((1 | 1 << 3) << 3);
        put("cli", "build-cuckoo-b2-f7", hdr, 2, (const uint8_t *)keys_lf, sizeof keys_lf - 1);
        hdr[0] = (uint8_t)((6 | 3 << 3) << 3);
        put("cli", "build-cuckoo-b255-f32", hdr, 2, (const uint8_t *)keys_lf, sizeof keys_lf - 1);
        hdr[0] = (uint8_t)((7 | 1 << 3) << 3);
        put("cli", "build-cuckoo-semisorted-f9", hdr, 2, (const uint8_t *)keys_crlf,
            sizeof keys_crlf - 1);
        hdr[0] = 0;
        hdr[1] = 1 | 4; /* bloom, --crlf */
        put("cli", "build-bloom-crlf", hdr, 2, (const uint8_t *)keys_crlf, sizeof keys_crlf - 1);
        hdr[1] = 2; /* counting, empty key file */
        put("cli", "build-counting-empty", hdr, 2, NULL, 0);
        hdr[1] = 0x30 | 4; /* sbbf, --crlf, 3-byte read chunks for build (13 for query) */
        put("cli", "build-sbbf-crlf-chunks", hdr, 2, (const uint8_t *)keys_crlf, sizeof keys_crlf - 1);
        hdr[1] = 0x70 | 1; /* bloom, 7-byte read chunks for build (9 for query) */
        put("cli", "build-bloom-chunks", hdr, 2, (const uint8_t *)keys_lf, sizeof keys_lf - 1);
        /* Scalable chains from 4 keys up (mode 6): expansion 2, ratio 0.9,
         * 3-byte chunks; expansion 1; non-scaling, which refuses the 5th. */
        hdr[0] = 6, hdr[1] = 0x30 | 1 | 4;
        put("cli", "build-scalable-grown-chunks", hdr, 2, (const uint8_t *)keys_lf, sizeof keys_lf - 1);
        hdr[1] = 0;
        put("cli", "build-scalable-expansion-1", hdr, 2, (const uint8_t *)keys_crlf, sizeof keys_crlf - 1);
        hdr[1] = 8 | 2;
        put("cli", "build-scalable-nonscaling", hdr, 2, (const uint8_t *)keys_lf, sizeof keys_lf - 1);
        hdr[0] = 0;
        bf_filter *f = NULL;
        if (bf_filter_new(&f, BF_FAMILY_SBBF, 64, 0.05) != BF_OK) die("filter_new");
        bf_filter_insert(f, "hello", 5);
        cli_file_seeds(f, "");
        bf_filter_free(f);
        /* A three-layer scalable chain. */
        if (bf_filter_new(&f, BF_FAMILY_SCALABLE, 8, 0.05) != BF_OK) die("filter_new");
        for (int k = 0; k < 40; k++) {
            char key[16];
            int n = snprintf(key, sizeof key, "key%d", k);
            if (bf_filter_insert(f, key, (size_t)n) != BF_OK) die("insert");
        }
        cli_file_seeds(f, "-scalable");
        bf_filter_free(f);
        x = slurp(data_dir, "parquet/bloom_filter.xxhash.bin", &len);
        hdr[0] = 3, hdr[1] = 0;
        put("cli", "convert-parquet-to-native", hdr, 2, x, len);
        hdr[0] = 1, hdr[1] = 0;
        put("cli", "info-parquet", hdr, 2, x, len);
        free(x);
        static const struct { const char *file, *name; uint8_t opt; } pq[] = {
            {"parquet/duckdb_bloom.parquet", "parquet-duckdb-list", 0},
            {"parquet/duckdb_bloom.parquet", "parquet-duckdb-json-probe-dt", 1 | 2 | (3 << 2)},
            {"parquet/duckdb_bloom.parquet", "parquet-duckdb-probe-s", 2 | (1 << 2)},
            {"parquet/data_index_bloom_encoding_stats.parquet", "parquet-mr-json-probe", 1 | 2},
            {"parquet/data_index_bloom_encoding_with_length.parquet", "parquet-rs-probe", 2},
            {"parquet/encrypt_columns_and_footer_bloom_filter.parquet.encrypted",
             "parquet-encrypted", 2},
        };
        hdr[0] = 7;
        for (size_t i = 0; i < sizeof pq / sizeof pq[0]; i++) {
            x = slurp(data_dir, pq[i].file, &len);
            hdr[1] = pq[i].opt;
            put("cli", pq[i].name, hdr, 2, x, len);
            free(x);
        }
        static const char calc1[] = "--n\0" "1000000\0--fpp\0" "0.001";
        static const char calc2[] = "--n=1Mi\0--bytes=4Ki";
        static const char calc3[] = "--n\0" "1e12\0--fpp\0" "1e-9";
        hdr[0] = 5, hdr[1] = 0;
        put("cli", "calc-n-fpp", hdr, 2, (const uint8_t *)calc1, sizeof calc1 - 1);
        put("cli", "calc-n-bytes", hdr, 2, (const uint8_t *)calc2, sizeof calc2 - 1);
        put("cli", "calc-huge", hdr, 2, (const uint8_t *)calc3, sizeof calc3 - 1);
    }

    /* ---- kernel differential: blocks-1, alignment byte, bitset, hashes ---- */
    {
        uint64_t s = 0x243f6a8885a308d3u;
        static uint8_t buf[2 + 64 * 32 + 8 * 200];
        size_t shapes[][2] = {{1, 0}, {1, 17}, {3, 100}, {64, 200}};
        for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
            size_t blocks = shapes[i][0], nh = shapes[i][1];
            buf[0] = (uint8_t)(blocks - 1);
            buf[1] = (uint8_t)(i + 1);
            size_t n = 2;
            for (size_t j = 0; j < blocks * 32 + nh * 8; j++) {
                s = s * 6364136223846793005u + 1442695040888963407u;
                uint8_t b = (uint8_t)(s >> 56);
                /* Sparse bitsets for the larger shape, so queries miss too. */
                if (j < blocks * 32 && blocks > 1) b &= (uint8_t)(s >> 40);
                buf[n++] = b;
            }
            char name[64];
            snprintf(name, sizeof name, "blocks%zu-hashes%zu", blocks, nh);
            put("sbbf_kernels", name, NULL, 0, buf, n);
        }
        /* Over 1 MiB (the prefetching batch loops): 2^15 + 977 * 3 blocks,
         * a short bitset prefix, hashes from the generator. */
        buf[0] = 3;
        buf[1] = 0x80 | 5;
        size_t n = 2;
        for (size_t j = 0; j < 256 + 8 * 100; j++) {
            s = s * 6364136223846793005u + 1442695040888963407u;
            buf[n++] = (uint8_t)(s >> 56);
        }
        put("sbbf_kernels", "large-prefetch", NULL, 0, buf, n);
    }
    printf("seed corpus written to %s\n", out_dir);
    return 0;
}
