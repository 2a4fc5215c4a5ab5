/* Fuzz target: whole Parquet files through bf_parquet_open_buffer, then
 * every column chunk's metadata and filter, and probes of every column.
 *
 * Byte 0 controls: bits 0-2 the misalignment (0..7) of the copy the file is
 * parsed from; bit 3 repairs the frame (the trailing "PAR1" and a footer
 * length that fits), so mutations of the footer and of the offsets in it
 * are parsed rather than stopped at the magic; bit 4 probes with
 * BF_PARQUET_STRICT. The rest is the file.
 *
 * Invariants: only known statuses; an accepted file's filters are views
 * into the buffer; single, batch and packed-batch probes agree; a strict
 * probe fails only with a status; text conversion of statistics never
 * overruns. */
#include <blockfilter_parquet.h>

#include "fuzz_common.h"

#define MAX_COLS 64
#define MAX_RGS 64
#define NV 6

/* A few PLAIN values of the column's type: bytes of the input, and the
 * first row group's statistics. */
static size_t make_values(const bf_parquet_file *f, size_t col, const uint8_t *data, size_t size,
                          uint8_t store[NV][32], const void *ptrs[NV], size_t lens[NV]) {
    bf_parquet_column c;
    if (bf_parquet_column_info(f, col, &c) != BF_OK) return 0;
    size_t w = c.physical_type == BF_PARQUET_BOOLEAN ? 1
               : c.physical_type == BF_PARQUET_INT32 || c.physical_type == BF_PARQUET_FLOAT ? 4
               : c.physical_type == BF_PARQUET_INT64 || c.physical_type == BF_PARQUET_DOUBLE ? 8
               : c.physical_type == BF_PARQUET_INT96 ? 12
               : c.physical_type == BF_PARQUET_FIXED_LEN_BYTE_ARRAY ? (size_t)c.type_length
                                                                      : 0;
    if (w > 32) return 0;
    size_t n = 0;
    for (size_t i = 0; i < 4; i++) {
        size_t len = w ? w : i * 3;
        memset(store[n], 0, 32);
        for (size_t j = 0; j < len && size; j++) store[n][j] = data[(i * 7 + j) % size];
        if (c.physical_type == BF_PARQUET_BOOLEAN) store[n][0] &= 1;
        ptrs[n] = store[n];
        lens[n++] = len;
    }
    bf_parquet_chunk k;
    if (bf_parquet_num_row_groups(f) && bf_parquet_chunk_info(f, 0, col, &k) == BF_OK) {
        if (k.has_min && (w ? k.min_len == w : k.min_len <= 32) &&
            (c.physical_type != BF_PARQUET_BOOLEAN || *(const uint8_t *)k.min <= 1)) {
            ptrs[n] = k.min;
            lens[n++] = k.min_len;
        }
        if (k.has_max && (w ? k.max_len == w : k.max_len <= 32) &&
            (c.physical_type != BF_PARQUET_BOOLEAN || *(const uint8_t *)k.max <= 1)) {
            ptrs[n] = k.max;
            lens[n++] = k.max_len;
        }
    }
    return n;
}

static void check_text(const bf_parquet_file *f, size_t col, const void *v, size_t len) {
    char txt[48];
    for (unsigned fl = 0; fl < 4; fl++) {
        size_t tl = 0;
        int rc = bf_parquet_value_to_text(f, col, v, len, fl, txt, sizeof txt, &tl);
        FUZZ_CHECK(rc == BF_OK || rc == BF_EBUFSIZE);
        FUZZ_CHECK(strlen(txt) < sizeof txt);
        if (rc == BF_OK) {
            /* Plain text is the value's own bytes for strings (a NUL may be
             * among them); JSON escapes every control character. */
            FUZZ_CHECK((fl & BF_PARQUET_TEXT_JSON) ? strlen(txt) == tl : strlen(txt) <= tl);
            uint8_t back[64];
            size_t bl;
            rc = bf_parquet_value_from_text(f, col, txt, tl, fl & BF_PARQUET_TEXT_HEX, back,
                                            sizeof back, &bl);
            FUZZ_CHECK(fuzz_status_known(rc));
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    unsigned ctl = data[0];
    data++;
    size--;
    uint8_t *base;
    uint8_t *buf = fuzz_copy_at(data, size, ctl & 7u, &base);
    if ((ctl & 8u) && size >= 12) { /* repair the frame */
        uint32_t fl = (uint32_t)buf[size - 8] | (uint32_t)buf[size - 7] << 8 |
                      (uint32_t)buf[size - 6] << 16 | (uint32_t)buf[size - 5] << 24;
        if (fl > size - 12) fl = (uint32_t)(size - 12);
        for (int i = 0; i < 4; i++) buf[size - 8 + i] = (uint8_t)(fl >> (8 * i));
        memcpy(buf + size - 4, "PAR1", 4);
    }
    unsigned flags = (ctl & 16u) ? BF_PARQUET_STRICT : 0;

    bf_parquet_file *f = NULL;
    int rc = bf_parquet_open_buffer(&f, buf, size);
    FUZZ_CHECK(fuzz_status_known(rc));
    if (rc != BF_OK) {
        FUZZ_CHECK(f == NULL);
        free(base);
        return 0;
    }
    size_t nrg = bf_parquet_num_row_groups(f), ncol = bf_parquet_num_columns(f);
    FUZZ_CHECK(bf_parquet_footer_size(f) + 12 <= size);
    (void)bf_parquet_created_by(f);
    for (size_t i = 0; i < bf_parquet_num_metadata(f); i++) {
        const char *k, *v;
        size_t kl, vl;
        FUZZ_CHECK(bf_parquet_metadata(f, i, &k, &kl, &v, &vl) == BF_OK);
        FUZZ_CHECK((const uint8_t *)k >= buf && (const uint8_t *)k + kl <= buf + size);
    }
    for (size_t c = 0; c < ncol && c < MAX_COLS; c++) {
        bf_parquet_column ci;
        FUZZ_CHECK(bf_parquet_column_info(f, c, &ci) == BF_OK);
        size_t found;
        FUZZ_CHECK(bf_parquet_find_column(f, ci.path, &found) == BF_OK && found <= c);
        for (size_t rg = 0; rg < nrg && rg < MAX_RGS; rg++) {
            bf_parquet_chunk k;
            FUZZ_CHECK(bf_parquet_chunk_info(f, rg, c, &k) == BF_OK);
            if (k.has_min) {
                FUZZ_CHECK((const uint8_t *)k.min >= buf && (const uint8_t *)k.min + k.min_len <= buf + size);
                if (rg == 0) check_text(f, c, k.min, k.min_len);
            }
            uint64_t off, len, nb;
            int lr = bf_parquet_bloom_filter_location(f, rg, c, &off, &len, &nb);
            FUZZ_CHECK(fuzz_status_known(lr));
            bf_sbbf *v = NULL;
            int vr = bf_parquet_bloom_filter(f, rg, c, &v);
            FUZZ_CHECK(vr == lr);
            if (vr == BF_OK) {
                const uint8_t *bits = bf_sbbf_bitset(v);
                FUZZ_CHECK(bf_sbbf_is_readonly(v) && bf_sbbf_num_bytes(v) == nb);
                FUZZ_CHECK(bits >= buf + off && bits + nb == buf + off + len && off + len <= size);
                bf_sbbf_free(v);
            }
        }
        /* Probes: single, batch and packed batch agree. */
        uint8_t store[NV][32];
        const void *ptrs[NV];
        size_t lens[NV];
        size_t n = make_values(f, c, data, size, store, ptrs, lens);
        if (!n || nrg > MAX_RGS) continue;
        uint8_t single[MAX_RGS], batch[MAX_RGS * NV];
        int br = bf_parquet_probe_batch(f, c, ptrs, lens, n, flags, batch);
        FUZZ_CHECK(fuzz_status_known(br));
        int all_ok = br == BF_OK;
        for (size_t i = 0; i < n; i++) {
            size_t maybe = 0;
            int sr = bf_parquet_probe(f, c, ptrs[i], lens[i], flags, single, &maybe);
            FUZZ_CHECK(fuzz_status_known(sr));
            if (!flags) FUZZ_CHECK(sr == BF_OK || sr == BF_EINVAL);
            all_ok &= sr == BF_OK;
            if (sr != BF_OK || br != BF_OK) continue;
            size_t m = 0;
            for (size_t rg = 0; rg < nrg; rg++) {
                FUZZ_CHECK(single[rg] <= BF_PARQUET_SKIP_EMPTY);
                FUZZ_CHECK(single[rg] == batch[rg * n + i]);
                m += single[rg] == BF_PARQUET_MAYBE;
            }
            FUZZ_CHECK(m == maybe);
        }
        if (all_ok && lens[0] && lens[0] == lens[n - 1] && ci.physical_type != BF_PARQUET_BYTE_ARRAY) {
            uint8_t packed[NV * 32], pout[MAX_RGS * NV];
            for (size_t i = 0; i < n; i++) memcpy(packed + i * lens[0], ptrs[i], lens[0]);
            FUZZ_CHECK(bf_parquet_probe_batch_packed(f, c, packed, n, flags, pout) == BF_OK);
            FUZZ_CHECK(memcmp(pout, batch, nrg * n) == 0);
        }
    }
    bf_parquet_close(f);
    free(base);
    return 0;
}
