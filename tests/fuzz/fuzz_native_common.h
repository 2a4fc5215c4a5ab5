/* Checks shared by the native-format targets (filter_load, filter_view). */
#ifndef BF_FUZZ_NATIVE_COMMON_H
#define BF_FUZZ_NATIVE_COMMON_H

#include "families/family.h" /* what each family supports: its table's optional operations */
#include "fuzz_common.h"

#define NQ 64

static inline uint64_t fuzz_le64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

/* Queries: single and batch agree; stats are sane. Returns the hits in out. */
static inline void fuzz_check_queries(const bf_filter *f, const uint64_t *q, uint8_t *out) {
    size_t hits = bf_filter_contains_hashes(f, q, NQ, out);
    size_t n1 = 0;
    for (size_t i = 0; i < NQ; i++) {
        bool c = bf_filter_contains_hash(f, q[i]);
        FUZZ_CHECK(c == (bool)out[i]);
        n1 += c;
    }
    FUZZ_CHECK(n1 == hits);
    bf_filter_stats st;
    FUZZ_CHECK(bf_filter_get_stats(f, &st) == BF_OK);
    FUZZ_CHECK(st.family == bf_filter_family(f));
    FUZZ_CHECK(st.num_bytes == bf_filter_num_bytes(f));
    FUZZ_CHECK(st.cells_set <= st.cells);
    FUZZ_CHECK(st.fill_ratio >= 0.0 && st.fill_ratio <= 1.0);
    FUZZ_CHECK(!(st.est_fpp < 0.0) && !(st.est_fpp > 1.0));
    FUZZ_CHECK(st.kernel != NULL);
    FUZZ_CHECK(bf_family_name(st.family) != NULL);
}

/* save(f) must give back exactly the accepted image (header + payload):
 * a loader that accepts a field must keep it. Then load(save(f)) again. */
static inline void fuzz_check_resave(const bf_filter *f, const uint8_t *img, size_t len) {
    size_t ss = bf_filter_save_size(f);
    FUZZ_CHECK(ss >= BF_HEADER_BYTES && ss <= len);
    uint8_t *buf = malloc(ss);
    FUZZ_CHECK(buf != NULL);
    size_t written = 0;
    FUZZ_CHECK(bf_filter_save(f, buf, ss - 1, &written) == BF_EBUFSIZE);
    FUZZ_CHECK(bf_filter_save(f, buf, ss, &written) == BF_OK && written == ss);
    FUZZ_CHECK(ss == BF_HEADER_BYTES + fuzz_le64(img + 48));
    FUZZ_CHECK(memcmp(buf, img, ss) == 0);
    bf_filter *g = NULL;
    FUZZ_CHECK(bf_filter_load(&g, buf, ss) == BF_OK);
    FUZZ_CHECK(bf_filter_family(g) == bf_filter_family(f));
    FUZZ_CHECK(bf_filter_seed(g) == bf_filter_seed(f));
    bf_filter_free(g);
    free(buf);
}

#endif
