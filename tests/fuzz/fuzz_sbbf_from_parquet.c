/* Fuzz target: bf_sbbf_from_parquet (Thrift-compact header + bitset,
 * copying load). A loaded filter must describe the input exactly, answer
 * like the bitset it came from, and serialise back to an equivalent form. */
#include "fuzz_common.h"

#define NQ 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    bf_sbbf *f = NULL;
    size_t consumed = (size_t)-1;
    int rc = bf_sbbf_from_parquet(&f, data, size, &consumed);
    FUZZ_CHECK(fuzz_status_known(rc));
    if (rc != BF_OK) {
        FUZZ_CHECK(f == NULL);
        return 0;
    }
    FUZZ_CHECK(f != NULL);
    size_t nb = bf_sbbf_num_bytes(f);
    FUZZ_CHECK(nb >= 32 && nb % 32 == 0);
    FUZZ_CHECK(consumed <= size && consumed > nb);
    /* The bitset is the last nb bytes consumed, copied. */
    const uint8_t *bits = bf_sbbf_bitset(f);
    FUZZ_CHECK(bits != data + consumed - nb);
    FUZZ_CHECK(memcmp(bits, data + consumed - nb, nb) == 0);
    FUZZ_CHECK(!bf_sbbf_is_readonly(f));
    FUZZ_CHECK(bf_sbbf_seed(f) == 0);

    /* The plain API without *consumed agrees. */
    bf_sbbf *g = NULL;
    FUZZ_CHECK(bf_sbbf_from_parquet(&g, data, size, NULL) == BF_OK);
    FUZZ_CHECK(bf_sbbf_num_bytes(g) == nb);

    /* Queries: single and batch agree, the view agrees. */
    uint64_t q[NQ];
    uint8_t out[NQ];
    size_t hits = fuzz_sbbf_query(f, data, size, q, out, NQ);
    FUZZ_CHECK(bf_sbbf_contains_hashes(f, q, NQ, NULL) == hits);
    bf_sbbf *v = NULL;
    size_t vconsumed = 0;
    FUZZ_CHECK(bf_sbbf_view_parquet(&v, data, size, &vconsumed) == BF_OK);
    FUZZ_CHECK(vconsumed == consumed && bf_sbbf_num_bytes(v) == nb);
    for (size_t i = 0; i < NQ; i++) FUZZ_CHECK(bf_sbbf_contains_hash(v, q[i]) == (bool)out[i]);
    bf_sbbf_free(v);

    bf_sbbf_stats st;
    FUZZ_CHECK(bf_sbbf_get_stats(f, &st) == BF_OK);
    FUZZ_CHECK(st.num_bytes == nb && st.bits_set <= 8 * (uint64_t)nb);
    FUZZ_CHECK(st.fill_ratio >= 0.0 && st.fill_ratio <= 1.0);
    FUZZ_CHECK(st.est_fpp >= 0.0 && st.est_fpp <= 1.0);

    /* Serialise back: a current-format header; reloading gives the same
     * bitset; too small a buffer is refused. */
    size_t psize = bf_sbbf_parquet_size(f);
    FUZZ_CHECK(psize > nb);
    uint8_t *buf = malloc(psize);
    FUZZ_CHECK(buf != NULL);
    size_t written = 0;
    FUZZ_CHECK(bf_sbbf_to_parquet(f, buf, psize - 1, &written) == BF_EBUFSIZE);
    FUZZ_CHECK(bf_sbbf_to_parquet(f, buf, psize, &written) == BF_OK && written == psize);
    bf_sbbf *r = NULL;
    size_t rconsumed = 0;
    FUZZ_CHECK(bf_sbbf_from_parquet(&r, buf, psize, &rconsumed) == BF_OK);
    FUZZ_CHECK(rconsumed == psize && bf_sbbf_num_bytes(r) == nb);
    FUZZ_CHECK(memcmp(bf_sbbf_bitset(r), bits, nb) == 0);
    bf_sbbf_free(r);
    free(buf);

    /* Inserts: no false negative; merge of two equal filters is a no-op. */
    bf_sbbf_insert_hashes(f, q, NQ / 2);
    for (size_t i = NQ / 2; i < NQ; i++) bf_sbbf_insert_hash(f, q[i]);
    FUZZ_CHECK(bf_sbbf_contains_hashes(f, q, NQ, NULL) == NQ);
    bf_sbbf_insert(f, data, size);
    FUZZ_CHECK(bf_sbbf_contains(f, data, size));
    FUZZ_CHECK(bf_sbbf_merge(g, f) == BF_OK);
    FUZZ_CHECK(memcmp(bf_sbbf_bitset(g), bf_sbbf_bitset(f), nb) == 0);
    bf_sbbf_free(g);
    bf_sbbf_free(f);
    return 0;
}
