/*
 * Fuzz target: bf_filter_view, the zero-copy read-only view of the native
 * format of every family. Input: one control byte (bit 0: recompute the
 * checks; bit 1: BF_VIEW_VERIFY_PAYLOAD; bits 2-4: misalignment of the
 * buffer), then the image. Without payload verification the payload is
 * arbitrary bytes: queries over it must still stay in bounds.
 */
#include "fuzz_native_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    unsigned ctl = data[0];
    uint8_t *base;
    uint8_t *img = fuzz_copy_at(data + 1, size - 1, (ctl >> 2) & 7u, &base);
    size_t len = size - 1;
    if (ctl & FUZZ_CTL_FIX_CHECKS) fuzz_fix_native_checks(img, len);
    unsigned flags = (ctl & 2u) ? BF_VIEW_VERIFY_PAYLOAD : 0u;

    bf_filter *v = NULL;
    int rc = bf_filter_view(&v, img, len, flags);
    FUZZ_CHECK(fuzz_status_known(rc));
    bf_filter *c = NULL;
    int lrc = bf_filter_load(&c, img, len);
    FUZZ_CHECK(fuzz_status_known(lrc));
    if (rc != BF_OK) {
        FUZZ_CHECK(v == NULL);
        /* Whatever a view refuses, the copying loader refuses too. */
        FUZZ_CHECK(lrc != BF_OK);
        free(base);
        return 0;
    }
    /* A verified view accepts exactly what the copying loader accepts. */
    if (flags & BF_VIEW_VERIFY_PAYLOAD) FUZZ_CHECK(lrc == BF_OK);
    FUZZ_CHECK((unsigned)bf_filter_family(v) == img[6]);

    uint64_t q[NQ];
    uint8_t out[NQ];
    fuzz_query_hashes(img, len, q, NQ);
    fuzz_check_queries(v, q, out);
    (void)bf_filter_contains(v, data, size);
    if (lrc == BF_OK) {
        /* Same answers as the copy. */
        for (size_t i = 0; i < NQ; i++) FUZZ_CHECK(bf_filter_contains_hash(c, q[i]) == (bool)out[i]);
        fuzz_check_resave(v, img, len);
    }

    /* Read-only: every write is refused and the buffer is unchanged. */
    uint8_t *before = malloc(len + 1);
    FUZZ_CHECK(before != NULL);
    memcpy(before, img, len);
    FUZZ_CHECK(bf_filter_insert_hash(v, q[0]) == BF_EREADONLY);
    size_t done = 99;
    FUZZ_CHECK(bf_filter_insert_hashes(v, q, NQ, &done) == BF_EREADONLY && done == 0);
    FUZZ_CHECK(bf_filter_insert(v, data, size) == BF_EREADONLY);
    FUZZ_CHECK(bf_filter_remove_hash(v, q[0]) != BF_OK);
    FUZZ_CHECK(bf_filter_clear(v) != BF_OK);
    FUZZ_CHECK(bf_filter_set_seed(v, bf_filter_seed(v) + 1) != BF_OK);
    if (c) FUZZ_CHECK(bf_filter_merge(v, c) != BF_OK);
    FUZZ_CHECK(memcmp(before, img, len) == 0);
    if (c) {
        /* Merging the view into a writable filter of the same shape works
         * where the family has merge; a cuckoo table may not take its
         * fingerprints twice (BF_EFULL), and then stays as it was. */
        const bf_family_ops *ops = bf__family_ops(bf_filter_family(v));
        int mrc = bf_filter_merge(c, v);
        bool full = mrc == BF_EFULL && bf_filter_family(v) == BF_FAMILY_CUCKOO;
        FUZZ_CHECK(mrc == (ops->merge ? BF_OK : BF_EUNSUPPORTED) || full);
        if (full && lrc == BF_OK)
            for (size_t i = 0; i < NQ; i++) FUZZ_CHECK(bf_filter_contains_hash(c, q[i]) == (bool)out[i]);
    }
    free(before);
    bf_filter_free(c);
    bf_filter_free(v);
    free(base);
    return 0;
}
