/* Fuzz target: bf_sbbf_view_parquet (zero-copy, read-only, any alignment).
 * The first input byte picks the misalignment (0..7) of the copy the view is
 * made over; the rest is the Parquet header + bitset. */
#include "fuzz_common.h"

#define NQ 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    unsigned off = data[0] & 7u;
    data++;
    size--;
    uint8_t *base;
    uint8_t *buf = fuzz_copy_at(data, size, off, &base);

    bf_sbbf *v = NULL;
    size_t consumed = (size_t)-1;
    int rc = bf_sbbf_view_parquet(&v, buf, size, &consumed);
    FUZZ_CHECK(fuzz_status_known(rc));
    if (rc != BF_OK) {
        FUZZ_CHECK(v == NULL);
        /* The copying loader decides the same. */
        bf_sbbf *c = NULL;
        FUZZ_CHECK(bf_sbbf_from_parquet(&c, buf, size, NULL) == rc);
        free(base);
        return 0;
    }
    size_t nb = bf_sbbf_num_bytes(v);
    FUZZ_CHECK(nb >= 32 && nb % 32 == 0 && consumed <= size && consumed > nb);
    FUZZ_CHECK(bf_sbbf_is_readonly(v));
    /* Zero copy: the bitset is the caller's memory. */
    FUZZ_CHECK((const uint8_t *)bf_sbbf_bitset(v) == buf + consumed - nb);

    uint64_t q[NQ];
    uint8_t out[NQ];
    fuzz_sbbf_query(v, data, size, q, out, NQ);
    for (size_t i = 0; i < NQ; i++)
        FUZZ_CHECK(bf_sbbf_contains_hash_concurrent(v, q[i]) == (bool)out[i]);
    (void)bf_sbbf_contains(v, data, size);
    (void)bf_sbbf_contains_int32(v, (int32_t)size);
    (void)bf_sbbf_contains_double(v, (double)size);

    /* Read-only: inserts do nothing, writes are refused. */
    uint8_t *before = malloc(nb);
    FUZZ_CHECK(before != NULL);
    memcpy(before, buf + consumed - nb, nb);
    bf_sbbf_insert_hash(v, q[0]);
    bf_sbbf_insert_hashes(v, q, NQ);
    bf_sbbf_insert_hash_concurrent(v, q[1]);
    bf_sbbf_insert(v, data, size);
    FUZZ_CHECK(bf_sbbf_clear(v) == BF_EREADONLY);
    FUZZ_CHECK(bf_sbbf_set_seed(v, 42) == BF_EREADONLY);
    FUZZ_CHECK(bf_sbbf_merge(v, v) == BF_EREADONLY);
    FUZZ_CHECK(memcmp(before, buf + consumed - nb, nb) == 0);

    /* A writable copy merged from the view holds the same bits. */
    bf_sbbf *w = NULL;
    if (bf_sbbf_new_bytes(&w, nb) == BF_OK) {
        FUZZ_CHECK(bf_sbbf_merge(w, v) == BF_OK);
        FUZZ_CHECK(memcmp(bf_sbbf_bitset(w), before, nb) == 0);
        bf_sbbf_free(w);
    }
    bf_sbbf_stats st;
    FUZZ_CHECK(bf_sbbf_get_stats(v, &st) == BF_OK && st.num_bytes == nb);
    free(before);
    bf_sbbf_free(v);
    free(base);
    return 0;
}
