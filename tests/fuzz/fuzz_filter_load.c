/*
 * Fuzz target: bf_filter_load, the native format of every family (the
 * family is the byte at offset 6 of the image). Input: one control byte
 * (bit 0: recompute the header and payload checks, see fuzz_common.h), then
 * the image. An accepted image must re-save byte for byte, answer queries
 * consistently, and behave as a working filter afterwards, whose insert
 * count grows by the keys inserted and saturates at UINT64_MAX.
 */
#include "fuzz_native_common.h"

/* The insert count of f. */
static uint64_t count_of(const bf_filter *f) {
    bf_filter_stats st;
    FUZZ_CHECK(bf_filter_get_stats(f, &st) == BF_OK);
    return st.inserted;
}

/* count + n, saturating. */
static uint64_t plus(uint64_t count, uint64_t n) {
    return count > UINT64_MAX - n ? UINT64_MAX : count + n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    unsigned ctl = data[0];
    uint8_t *base;
    uint8_t *img = fuzz_copy_at(data + 1, size - 1, 0, &base);
    size_t len = size - 1;
    if (ctl & FUZZ_CTL_FIX_CHECKS) fuzz_fix_native_checks(img, len);

    bf_filter *f = NULL;
    int rc = bf_filter_load(&f, img, len);
    FUZZ_CHECK(fuzz_status_known(rc));
    if (rc != BF_OK) {
        FUZZ_CHECK(f == NULL);
        free(base);
        return 0;
    }
    FUZZ_CHECK(len >= BF_HEADER_BYTES);
    bf_family fam = bf_filter_family(f);
    FUZZ_CHECK((unsigned)fam == img[6]);
    FUZZ_CHECK(bf_filter_seed(f) == fuzz_le64(img + 8));
    const uint64_t recorded = fuzz_le64(img + 16);
    FUZZ_CHECK(count_of(f) == recorded);

    uint64_t q[NQ];
    uint8_t out[NQ];
    fuzz_query_hashes(img, len, q, NQ);
    fuzz_check_queries(f, q, out);
    fuzz_check_resave(f, img, len);

    /* The copy is independent of the input buffer. */
    memset(img, 0xA5, len);
    for (size_t i = 0; i < NQ; i++) FUZZ_CHECK(bf_filter_contains_hash(f, q[i]) == (bool)out[i]);

    /* A working filter: every key inserted is found; removable families
     * give each one back. An insert may be refused only as a full filter
     * (cuckoo, a non-scaling chain) or one that cannot grow (a chain at
     * its limits, or whose next layer does not fit in memory). */
    const bf_family_ops *ops = bf__family_ops(fam);
    FUZZ_CHECK(ops != NULL);
    size_t done = 0;
    int irc = bf_filter_insert_hashes(f, q, NQ, &done);
    FUZZ_CHECK(irc == BF_OK || irc == BF_EFULL || irc == BF_ETOOBIG || irc == BF_ENOMEM);
    FUZZ_CHECK(done <= NQ && (irc != BF_OK || done == NQ));
    FUZZ_CHECK(count_of(f) == plus(recorded, done));
    for (size_t i = 0; i < done; i++) FUZZ_CHECK(bf_filter_contains_hash(f, q[i]));
    if (ops->remove) {
        for (size_t i = done; i-- > 0;) FUZZ_CHECK(bf_filter_remove_hash(f, q[i]) == BF_OK);
    } else {
        FUZZ_CHECK(bf_filter_remove_hash(f, q[0]) == BF_EUNSUPPORTED);
    }
    if (bf_filter_insert(f, data, size) == BF_OK) {
        FUZZ_CHECK(bf_filter_contains(f, data, size));
        FUZZ_CHECK(count_of(f) == plus(recorded, done + 1));
    }
    bf_filter_stats st;
    FUZZ_CHECK(bf_filter_get_stats(f, &st) == BF_OK);
    FUZZ_CHECK(bf_filter_clear(f) == BF_OK);
    for (size_t i = 0; i < NQ; i++) (void)bf_filter_contains_hash(f, q[i]);
    /* Cleared: a new seed is allowed and kept. */
    FUZZ_CHECK(bf_filter_set_seed(f, 0x1234) == BF_OK && bf_filter_seed(f) == 0x1234);
    bf_filter_free(f);
    free(base);
    return 0;
}
