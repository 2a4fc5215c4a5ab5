/*
 * Keys in, answers out: the typed-array and Arrow byte-string batch calls,
 * on the SBBF under every kernel compiled in and runnable here, and through
 * bf_filter for every family, against the single-key calls they stand for:
 * the same bits (or the same saved filter) after inserting, the same
 * answers, every length around the pipeline's chunk (256 keys) and the
 * prefetch distance, misaligned arrays, filters below and above the size
 * from which the pipeline prefetches, keyed filters, read-only views, bad
 * offsets (refused, nothing changed), a cuckoo filter running full (the
 * same stopping point as single inserts).
 *
 * Plain C (no criterion), so it also runs under qemu-user (NEON hashing)
 * and in every kernel setup. Exit status 0 on success, 1 on failure.
 */
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "check.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const size_t lengths[] = {0,   1,   2,   7,   8,   9,   23,  24,  25,  255,
                                 256, 257, 280, 511, 512, 513, 1000, 3001};
#define NUM_LENGTHS (sizeof lengths / sizeof lengths[0])
#define MAXN 3001

enum { T_INT32, T_INT64, T_FLOAT, T_DOUBLE, T_BINARY, T_LARGE, NUM_TYPES };
static const char *const type_names[NUM_TYPES] = {"int32", "int64", "float", "double", "binary",
                                                  "large_binary"};

/* One set of keys of every type, stored at a byte offset (misaligned
 * arrays); half of the contains queries are keys inserted earlier. */
typedef struct keyset {
    uint8_t *buf;    /* values at buf + mis */
    size_t mis;
    char *data;      /* byte strings */
    int32_t *off32;
    int64_t *off64;
} keyset;

static int keyset_alloc(keyset *k) {
    k->buf = malloc(MAXN * 8 + 16);
    k->data = malloc(MAXN * 40 + 8);
    k->off32 = malloc((MAXN + 1) * sizeof *k->off32);
    k->off64 = malloc((MAXN + 1) * sizeof *k->off64);
    return k->buf && k->data && k->off32 && k->off64;
}
static void keyset_free(keyset *k) {
    free(k->buf);
    free(k->data);
    free(k->off32);
    free(k->off64);
}

/* Fills n keys of the type from rng; sliced byte strings start at 3. */
static void keyset_fill(keyset *k, int type, size_t n, size_t mis, uint64_t *rng) {
    k->mis = mis;
    if (type == T_BINARY || type == T_LARGE) {
        size_t pos = 3;
        for (size_t i = 0; i <= n; i++) {
            k->off32[i] = (int32_t)pos;
            k->off64[i] = (int64_t)pos;
            if (i == n) break;
            size_t len = i % 11 == 0 ? 0 : (size_t)(tu_next(rng) % 39);
            for (size_t j = 0; j < len; j++) k->data[pos + j] = (char)('a' + tu_next(rng) % 26);
            pos += len;
        }
        return;
    }
    size_t w = type == T_INT32 || type == T_FLOAT ? 4 : 8;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = tu_next(rng);
        memcpy(k->buf + mis + w * i, &r, w);
    }
}

/* Key i as the bytes its single-key call hashes. */
static size_t key_bytes(const keyset *k, int type, size_t i, uint8_t *b, const uint8_t **p) {
    if (type == T_BINARY || type == T_LARGE) {
        *p = (const uint8_t *)k->data + k->off32[i];
        return (size_t)(k->off32[i + 1] - k->off32[i]);
    }
    size_t w = type == T_INT32 || type == T_FLOAT ? 4 : 8;
    uint64_t v; /* the value in host order, stored little-endian */
    if (w == 4) {
        uint32_t u;
        memcpy(&u, k->buf + k->mis + 4 * i, 4);
        v = u;
    } else {
        memcpy(&v, k->buf + k->mis + 8 * i, 8);
    }
    for (size_t j = 0; j < w; j++) b[j] = (uint8_t)(v >> (8 * j));
    *p = b;
    return w;
}

static const void *values(const keyset *k) { return k->buf + k->mis; }

/* ---- the SBBF ------------------------------------------------------------ */

static int sbbf_insert_batch(bf_sbbf *f, const keyset *k, int type, size_t n) {
    switch (type) {
    case T_INT32: return bf_sbbf_insert_int32s(f, values(k), n);
    case T_INT64: return bf_sbbf_insert_int64s(f, values(k), n);
    case T_FLOAT: return bf_sbbf_insert_floats(f, values(k), n);
    case T_DOUBLE: return bf_sbbf_insert_doubles(f, values(k), n);
    case T_BINARY: return bf_sbbf_insert_binary(f, k->data, k->off32, n);
    default: return bf_sbbf_insert_large_binary(f, k->data, k->off64, n);
    }
}

/* Returns the count, or (size_t)-1 on a failed status. */
static size_t sbbf_contains_batch(const bf_sbbf *f, const keyset *k, int type, size_t n,
                                  uint8_t *out) {
    size_t found = 0;
    int rc = BF_OK;
    switch (type) {
    case T_INT32: return bf_sbbf_contains_int32s(f, values(k), n, out);
    case T_INT64: return bf_sbbf_contains_int64s(f, values(k), n, out);
    case T_FLOAT: return bf_sbbf_contains_floats(f, values(k), n, out);
    case T_DOUBLE: return bf_sbbf_contains_doubles(f, values(k), n, out);
    case T_BINARY: rc = bf_sbbf_contains_binary(f, k->data, k->off32, n, out, &found); break;
    default: rc = bf_sbbf_contains_large_binary(f, k->data, k->off64, n, out, &found); break;
    }
    return rc == BF_OK ? found : (size_t)-1;
}

/* The single-key call of the type. */
static int sbbf_insert_one(bf_sbbf *f, const keyset *k, int type, size_t i) {
    uint8_t b[8];
    const uint8_t *p;
    size_t len = key_bytes(k, type, i, b, &p);
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
    switch (type) {
    case T_INT32: memcpy(&i32, (const uint8_t *)values(k) + 4 * i, 4); return bf_sbbf_insert_int32(f, i32);
    case T_INT64: memcpy(&i64, (const uint8_t *)values(k) + 8 * i, 8); return bf_sbbf_insert_int64(f, i64);
    case T_FLOAT: memcpy(&f32, (const uint8_t *)values(k) + 4 * i, 4); return bf_sbbf_insert_float(f, f32);
    case T_DOUBLE: memcpy(&f64, (const uint8_t *)values(k) + 8 * i, 8); return bf_sbbf_insert_double(f, f64);
    default: return bf_sbbf_insert(f, p, len);
    }
}
static bool sbbf_contains_one(const bf_sbbf *f, const keyset *k, int type, size_t i) {
    uint8_t b[8];
    const uint8_t *p;
    size_t len = key_bytes(k, type, i, b, &p);
    int32_t i32;
    int64_t i64;
    float f32;
    double f64;
    switch (type) {
    case T_INT32: memcpy(&i32, (const uint8_t *)values(k) + 4 * i, 4); return bf_sbbf_contains_int32(f, i32);
    case T_INT64: memcpy(&i64, (const uint8_t *)values(k) + 8 * i, 8); return bf_sbbf_contains_int64(f, i64);
    case T_FLOAT: memcpy(&f32, (const uint8_t *)values(k) + 4 * i, 4); return bf_sbbf_contains_float(f, f32);
    case T_DOUBLE: memcpy(&f64, (const uint8_t *)values(k) + 8 * i, 8); return bf_sbbf_contains_double(f, f64);
    default: return bf_sbbf_contains(f, p, len);
    }
}

static void sbbf_kernel_case(const char *kernel, size_t bytes, uint64_t seed, keyset *ks,
                             keyset *qs, uint8_t *out, uint8_t *out1) {
    uint64_t rng = bytes ^ seed ^ 0x1234;
    for (int type = 0; type < NUM_TYPES; type++) {
        bf_sbbf *a = NULL, *b = NULL;
        int ra = bf_sbbf_new_bytes_kernel(&a, bytes, kernel);
        int rb = bf_sbbf_new_bytes_kernel(&b, bytes, kernel);
        CHECK(ra == BF_OK && rb == BF_OK, "create %s: %d %d", kernel, ra, rb);
        if (ra || rb) {
            bf_sbbf_free(a);
            bf_sbbf_free(b);
            return;
        }
        CHECK(bf_sbbf_set_seed(a, seed) == BF_OK && bf_sbbf_set_seed(b, seed) == BF_OK, "seed");
        for (size_t li = 0; li < NUM_LENGTHS; li++) {
            const size_t n = lengths[li];
            keyset_fill(ks, type, n, li % 8, &rng);
            int rc = sbbf_insert_batch(a, ks, type, n);
            size_t single_bad = 0;
            for (size_t i = 0; i < n; i++) single_bad += sbbf_insert_one(b, ks, type, i) != BF_OK;
            CHECK(rc == BF_OK && single_bad == 0, "%s %s insert n=%zu: %d", kernel,
                  type_names[type], n, rc);
            CHECK(memcmp(bf_sbbf_bitset(a), bf_sbbf_bitset(b), bytes) == 0,
                  "%s %s %zu B seed %llu: batch insert of %zu keys differs from single inserts",
                  kernel, type_names[type], bytes, (unsigned long long)seed, n);

            /* Queries: fresh keys with every other one replaced by an
             * inserted key (same type, any position). */
            keyset_fill(qs, type, n, (li + 3) % 8, &rng);
            if (type < T_BINARY) {
                size_t w = type == T_INT32 || type == T_FLOAT ? 4 : 8;
                for (size_t i = 0; i < n; i += 2)
                    memcpy(qs->buf + qs->mis + w * i, ks->buf + ks->mis + w * (tu_next(&rng) % n), w);
            }
            memset(out, 0xee, MAXN + 8);
            size_t c = sbbf_contains_batch(a, qs, type, n, out);
            size_t ones = 0, bad = 0;
            for (size_t i = 0; i < n; i++) {
                ones += out[i] == 1;
                bad += out[i] != (uint8_t)sbbf_contains_one(b, qs, type, i);
            }
            CHECK(bad == 0 && c == ones && out[n] == 0xee,
                  "%s %s n=%zu: %zu answers differ from single calls, count %zu, ones %zu", kernel,
                  type_names[type], n, bad, c, ones);
            CHECK(sbbf_contains_batch(a, qs, type, n, NULL) == c, "%s %s count only", kernel,
                  type_names[type]);
            size_t inserted = sbbf_contains_batch(a, ks, type, n, out1);
            CHECK(inserted == n, "%s %s: %zu of %zu inserted keys found", kernel,
                  type_names[type], inserted, n);
        }

        /* A read-only view over a's bits: answers, refuses inserts. */
        bf_sbbf *v = NULL;
        CHECK(bf_sbbf_view_kernel(&v, bf_sbbf_bitset(a), bytes, kernel) == BF_OK, "view");
        if (v) {
            CHECK(bf_sbbf_set_seed(v, seed) == BF_EREADONLY || seed == 0, "view seed");
            uint8_t *copy = malloc(bytes);
            if (copy) memcpy(copy, bf_sbbf_bitset(a), bytes);
            keyset_fill(ks, type, 300, 1, &rng);
            CHECK(sbbf_insert_batch(v, ks, type, 300) == BF_EREADONLY, "%s %s: view refuses",
                  kernel, type_names[type]);
            CHECK(sbbf_insert_batch(v, ks, type, 0) == BF_EREADONLY, "view refuses n = 0");
            CHECK(copy && memcmp(copy, bf_sbbf_bitset(a), bytes) == 0, "view unchanged");
            if (seed == 0) {
                size_t cv = sbbf_contains_batch(v, ks, type, 300, out);
                size_t ca = sbbf_contains_batch(a, ks, type, 300, out1);
                CHECK(cv == ca && memcmp(out, out1, 300) == 0, "view answers as the filter");
            }
            free(copy);
            bf_sbbf_free(v);
        }
        bf_sbbf_free(a);
        bf_sbbf_free(b);
    }
}

/* Bad offsets and NULL arguments: refused, nothing changed or written. */
static void sbbf_bad_input(void) {
    bf_sbbf *f = NULL;
    if (bf_sbbf_new_bytes(&f, 4096) != BF_OK) {
        CHECK(0, "create");
        return;
    }
    const char data[] = "abcdefgh";
    int32_t dec[] = {0, 5, 4, 8};
    int32_t neg[] = {-2, 3};
    int64_t dec64[] = {0, 6, 2};
    int32_t good[] = {0, 3, 8};
    uint8_t out[4] = {9, 9, 9, 9};
    size_t found = 77;
    CHECK(bf_sbbf_insert_binary(f, data, dec, 3) == BF_EINVAL, "decreasing offsets");
    CHECK(bf_sbbf_insert_binary(f, data, neg, 1) == BF_EINVAL, "negative first offset");
    CHECK(bf_sbbf_insert_large_binary(f, data, dec64, 2) == BF_EINVAL, "decreasing 64-bit");
    bf_sbbf_stats st;
    CHECK(bf_sbbf_get_stats(f, &st) == BF_OK && st.bits_set == 0, "nothing inserted");
    CHECK(bf_sbbf_contains_binary(f, data, dec, 3, out, &found) == BF_EINVAL && found == 77 &&
              out[0] == 9,
          "contains refuses bad offsets, writes nothing");
    CHECK(bf_sbbf_contains_large_binary(f, data, dec64, 2, out, &found) == BF_EINVAL &&
              found == 77,
          "contains refuses bad 64-bit offsets");
    CHECK(bf_sbbf_insert_binary(NULL, data, good, 2) == BF_EINVAL, "NULL filter");
    CHECK(bf_sbbf_insert_binary(f, data, NULL, 2) == BF_EINVAL, "NULL offsets");
    CHECK(bf_sbbf_insert_binary(f, NULL, good, 2) == BF_EINVAL, "NULL data with bytes");
    CHECK(bf_sbbf_insert_int64s(f, NULL, 3) == BF_EINVAL, "NULL values");
    CHECK(bf_sbbf_insert_int64s(NULL, NULL, 0) == BF_EINVAL, "NULL filter, n = 0");
    CHECK(bf_sbbf_insert_int64s(f, NULL, 0) == BF_OK, "n = 0");
    CHECK(bf_sbbf_contains_int64s(f, NULL, 3, out) == 0 && out[0] == 9, "contains NULL values");
    CHECK(bf_sbbf_contains_binary(NULL, data, good, 2, out, &found) == BF_EINVAL, "NULL filter");
    CHECK(bf_sbbf_get_stats(f, &st) == BF_OK && st.bits_set == 0, "still nothing inserted");
    CHECK(bf_sbbf_insert_binary(f, data, good, 2) == BF_OK && bf_sbbf_contains(f, "abc", 3) &&
              bf_sbbf_contains(f, "defgh", 5),
          "good offsets");
    CHECK(bf_sbbf_contains_binary(f, data, good, 2, NULL, &found) == BF_OK && found == 2,
          "count only");
    bf_sbbf_free(f);
}

/* ---- bf_filter --------------------------------------------------------------- */

static int filter_insert_batch(bf_filter *f, const keyset *k, int type, size_t n, size_t *done) {
    switch (type) {
    case T_INT32: return bf_filter_insert_int32s(f, values(k), n, done);
    case T_INT64: return bf_filter_insert_int64s(f, values(k), n, done);
    case T_FLOAT: return bf_filter_insert_floats(f, values(k), n, done);
    case T_DOUBLE: return bf_filter_insert_doubles(f, values(k), n, done);
    case T_BINARY: return bf_filter_insert_binary(f, k->data, k->off32, n, done);
    default: return bf_filter_insert_large_binary(f, k->data, k->off64, n, done);
    }
}
static size_t filter_contains_batch(const bf_filter *f, const keyset *k, int type, size_t n,
                                    uint8_t *out) {
    size_t found = 0;
    int rc = BF_OK;
    switch (type) {
    case T_INT32: return bf_filter_contains_int32s(f, values(k), n, out);
    case T_INT64: return bf_filter_contains_int64s(f, values(k), n, out);
    case T_FLOAT: return bf_filter_contains_floats(f, values(k), n, out);
    case T_DOUBLE: return bf_filter_contains_doubles(f, values(k), n, out);
    case T_BINARY: rc = bf_filter_contains_binary(f, k->data, k->off32, n, out, &found); break;
    default: rc = bf_filter_contains_large_binary(f, k->data, k->off64, n, out, &found); break;
    }
    return rc == BF_OK ? found : (size_t)-1;
}

/* The saved bytes of a filter (native format), or NULL. */
static uint8_t *saved(const bf_filter *f, size_t *len) {
    *len = bf_filter_save_size(f);
    uint8_t *buf = malloc(*len);
    size_t w = 0;
    if (buf && bf_filter_save(f, buf, *len, &w) == BF_OK && w == *len) return buf;
    free(buf);
    return NULL;
}

/* A filter of the family sized for n_keys, n keys inserted (batch into
 * one, single calls into another), then queried. */
static void filter_family_case(bf_family fam, uint64_t n_keys, size_t n, uint64_t seed,
                               keyset *ks, keyset *qs, uint8_t *out) {
    uint64_t rng = (uint64_t)fam * 31 + seed;
    for (int type = 0; type < NUM_TYPES; type++) {
        bf_filter *a = NULL, *b = NULL;
        int ra = bf_filter_new(&a, fam, n_keys, 0.01);
        int rb = bf_filter_new(&b, fam, n_keys, 0.01);
        CHECK(ra == BF_OK && rb == BF_OK, "create %s", bf_family_name(fam));
        if (ra || rb) {
            bf_filter_free(a);
            bf_filter_free(b);
            return;
        }
        CHECK(bf_filter_set_seed(a, seed) == BF_OK && bf_filter_set_seed(b, seed) == BF_OK,
              "seed");
        keyset_fill(ks, type, n, (size_t)type, &rng);
        size_t done = 0, single_done = 0;
        int rc = filter_insert_batch(a, ks, type, n, &done);
        int src = BF_OK;
        for (size_t i = 0; i < n && src == BF_OK; i++) {
            uint8_t buf[8];
            const uint8_t *p;
            size_t len = key_bytes(ks, type, i, buf, &p);
            if ((src = bf_filter_insert(b, p, len)) == BF_OK) single_done++;
        }
        CHECK(rc == src && done == single_done,
              "%s %s: batch insert %d after %zu keys, single %d after %zu", bf_family_name(fam),
              type_names[type], rc, done, src, single_done);
        size_t la = 0, lb = 0;
        uint8_t *sa = saved(a, &la), *sb = saved(b, &lb);
        CHECK(sa && sb && la == lb && memcmp(sa, sb, la) == 0,
              "%s %s seed %llu: batch and single inserts save different filters",
              bf_family_name(fam), type_names[type], (unsigned long long)seed);
        free(sa);
        free(sb);

        keyset_fill(qs, type, n, 5, &rng);
        memset(out, 0xee, MAXN + 8);
        size_t c = filter_contains_batch(a, qs, type, n, out), bad = 0, ones = 0;
        for (size_t i = 0; i < n; i++) {
            uint8_t buf[8];
            const uint8_t *p;
            size_t len = key_bytes(qs, type, i, buf, &p);
            bad += out[i] != (uint8_t)bf_filter_contains(a, p, len);
            ones += out[i] == 1;
        }
        CHECK(bad == 0 && c == ones && out[n] == 0xee, "%s %s: %zu answers differ",
              bf_family_name(fam), type_names[type], bad);
        size_t found = filter_contains_batch(a, ks, type, done, NULL);
        CHECK(found == done, "%s %s: %zu of %zu inserted keys found", bf_family_name(fam),
              type_names[type], found, done);

        /* A view of the saved filter refuses, with done = 0. */
        size_t len = 0;
        uint8_t *buf = saved(a, &len);
        bf_filter *v = NULL;
        if (buf && bf_filter_view(&v, buf, len, 0) == BF_OK) {
            size_t d = 99;
            CHECK(filter_insert_batch(v, ks, type, n, &d) == BF_EREADONLY && d == 0,
                  "%s view refuses", bf_family_name(fam));
            size_t l2 = 0;
            uint8_t *after = saved(v, &l2);
            CHECK(after && l2 == len && memcmp(after, buf, len) == 0, "view unchanged");
            free(after);
            CHECK(filter_contains_batch(v, ks, type, done, NULL) == done, "view answers");
            bf_filter_free(v);
        } else {
            CHECK(0, "view of a saved %s", bf_family_name(fam));
        }
        free(buf);
        bf_filter_free(a);
        bf_filter_free(b);
    }
}

static void filter_bad_input(void) {
    bf_filter *f = NULL;
    if (bf_filter_new(&f, BF_FAMILY_BLOOM, 1000, 0.01) != BF_OK) {
        CHECK(0, "create");
        return;
    }
    int32_t dec[] = {0, 5, 4};
    size_t done = 9, found = 9;
    CHECK(bf_filter_insert_binary(f, "abcdef", dec, 2, &done) == BF_EINVAL && done == 0,
          "bad offsets refused");
    bf_filter_stats st;
    CHECK(bf_filter_get_stats(f, &st) == BF_OK && st.inserted == 0 && st.cells_set == 0,
          "nothing inserted");
    CHECK(bf_filter_contains_binary(f, "abcdef", dec, 2, NULL, &found) == BF_EINVAL && found == 9,
          "contains refuses bad offsets");
    CHECK(bf_filter_insert_int64s(NULL, NULL, 0, &done) == BF_EINVAL, "NULL filter");
    CHECK(bf_filter_insert_int64s(f, NULL, 2, &done) == BF_EINVAL, "NULL values");
    CHECK(bf_filter_contains_int64s(f, NULL, 2, NULL) == 0, "contains NULL values");
    int64_t v[3] = {1, 2, 3};
    CHECK(bf_filter_insert_int64s(f, v, 3, &done) == BF_OK && done == 3, "insert");
    CHECK(bf_filter_get_stats(f, &st) == BF_OK && st.inserted == 3, "insert count: %llu",
          (unsigned long long)st.inserted);
    CHECK(bf_filter_contains_int64s(f, v, 3, NULL) == 3, "found");
    bf_filter_free(f);
}

int main(void) {
    keyset ks, qs;
    uint8_t *out = malloc(MAXN + 8), *out1 = malloc(MAXN + 8);
    if (!keyset_alloc(&ks) || !keyset_alloc(&qs) || !out || !out1) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    /* Every kernel compiled in and runnable here, by name (so a forced
     * BLOCKFILTER_KERNEL does not narrow it); 2 MiB filters run the
     * prefetching pipeline. */
    size_t ran = 0;
    for (size_t i = 0; i < bf_sbbf_kernel_count(); i++) {
        const char *k = bf_sbbf_kernel_name(i);
        if (!bf_sbbf_kernel_supported(k)) continue;
        for (int s = 0; s < 2; s++) {
            sbbf_kernel_case(k, 4096, s ? 0xfeedull : 0, &ks, &qs, out, out1);
            sbbf_kernel_case(k, 2u << 20, s ? 0xfeedull : 0, &ks, &qs, out, out1);
        }
        ran++;
    }
    CHECK(ran >= 1, "at least the scalar kernel ran");
    sbbf_bad_input();
    /* Every registered family (ids are dense from 1), so one added later is
     * covered without editing this list. */
    unsigned fams = 0;
    for (int id = 1; bf_family_name((bf_family)id) != NULL; id++, fams++) {
        filter_family_case((bf_family)id, 3000, 3000, 0, &ks, &qs, out);
        filter_family_case((bf_family)id, 400000, MAXN, 77, &ks, &qs, out);
    }
    CHECK(fams >= 4, "every built-in family ran");
    /* A cuckoo filter sized for 200 keys is given 3001 until it is full:
     * the batch stops where single inserts stop. */
    filter_family_case(BF_FAMILY_CUCKOO, 200, MAXN, 0, &ks, &qs, out);
    filter_bad_input();
    keyset_free(&ks);
    keyset_free(&qs);
    free(out);
    free(out1);
    printf("keys: %lu passed, %lu failed (%zu kernels)\n", passed, failed, ran);
    return failed ? 1 : 0;
}
