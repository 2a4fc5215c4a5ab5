/*
 * Column chunks' Bloom filters in a Parquet file: where a chunk's filter
 * lies (between the leading magic and the footer, within its recorded
 * length), its Thrift header and bitset checked, and a zero-copy SBBF view
 * over it, made once per chunk and shared by every thread that probes the
 * file (prune.c).
 */
#include "parquet/parquet_file.h"

/* Finds and validates a chunk's filter: buf and len get header + bitset. */
static int locate_filter(const bf_parquet_file *f, const bf_parquet_chunk *chunk,
                         const uint8_t **buf, size_t *len) {
    if (chunk->encrypted) return BF_EENCRYPTED;
    if (chunk->bloom_filter_offset < 0) return BF_ENOFILTER;
    if (chunk->external) return BF_EUNSUPPORTED; /* offsets refer to another file */
    uint64_t offset = (uint64_t)chunk->bloom_filter_offset;
    /* Filters live between the leading magic and the footer. */
    if (offset < 4 || offset >= f->footer_start) return BF_ECORRUPT;
    size_t avail = f->footer_start - (size_t)offset;
    if (chunk->bloom_filter_length >= 0) {
        if ((uint64_t)chunk->bloom_filter_length > avail) return BF_ECORRUPT;
        avail = (size_t)chunk->bloom_filter_length;
    }
    *buf = f->data + offset;
    *len = avail;
    return BF_OK;
}

/* A view of a chunk's filter: header and bitset checked, no copy. */
static int make_view(const bf_parquet_file *f, const bf_parquet_chunk *chunk, bf_sbbf **out) {
    const uint8_t *buf;
    size_t len, consumed = 0;
    int rc = locate_filter(f, chunk, &buf, &len);
    if (rc) return rc;
    bf_sbbf *view = NULL;
    if ((rc = bf_sbbf_view_parquet(&view, buf, len, &consumed))) return rc;
    /* A recorded length covers the header and the bitset exactly. */
    if (chunk->bloom_filter_length >= 0 && consumed != (size_t)chunk->bloom_filter_length) {
        bf_sbbf_free(view);
        return BF_ECORRUPT;
    }
    *out = view;
    return BF_OK;
}

/* The cached view of chunk (rg, col): made once, shared by threads. A
 * failure other than BF_ENOMEM is cached too, so a broken filter is read
 * once. */
int bf__parquet_cached_filter(const bf_parquet_file *f, size_t rg, size_t col,
                              const bf_sbbf **out) {
    size_t slot = rg * f->ncols + col;
    int status = atomic_load_explicit(&f->view_status[slot], memory_order_acquire);
    if (status == 1) {
        *out = atomic_load_explicit(&f->views[slot], memory_order_relaxed);
        return BF_OK;
    }
    if (status < 0) return status;
    bf_sbbf *view = NULL;
    int rc = make_view(f, pq_chunk(f, rg, col), &view);
    if (rc) {
        if (rc != BF_ENOMEM) atomic_store_explicit(&f->view_status[slot], rc, memory_order_release);
        return rc;
    }
    bf_sbbf *expected = NULL;
    if (!atomic_compare_exchange_strong(&f->views[slot], &expected, view)) {
        bf_sbbf_free(view); /* another thread won */
        view = expected;
    }
    atomic_store_explicit(&f->view_status[slot], 1, memory_order_release);
    *out = view;
    return BF_OK;
}

int bf_parquet_bloom_filter_location(const bf_parquet_file *f, size_t rg, size_t col,
                                     uint64_t *offset, uint64_t *length, uint64_t *num_bytes) {
    if (!f || rg >= f->nrgs) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    const bf_sbbf *view;
    int rc = bf__parquet_cached_filter(f, rg, col, &view);
    if (rc) return rc;
    const uint8_t *buf = NULL;
    size_t len;
    const bf_parquet_chunk *chunk = pq_chunk(f, rg, col);
    if ((rc = locate_filter(f, chunk, &buf, &len))) return rc;
    /* The bitset ends the filter: header = bitset start - offset. */
    size_t header = (size_t)((const uint8_t *)bf_sbbf_bitset(view) - buf);
    if (offset) *offset = (uint64_t)chunk->bloom_filter_offset;
    if (length) *length = header + bf_sbbf_num_bytes(view);
    if (num_bytes) *num_bytes = bf_sbbf_num_bytes(view);
    return BF_OK;
}

int bf_parquet_bloom_filter(const bf_parquet_file *f, size_t rg, size_t col, bf_sbbf **out) {
    if (!f || !out || rg >= f->nrgs) return BF_EINVAL;
    if (col >= f->ncols) return BF_ENOCOLUMN;
    return make_view(f, pq_chunk(f, rg, col), out);
}
