/*
 * Core SBBF correctness as a plain C program (no criterion), so that it
 * also runs under qemu-user on aarch64, once per kernel setup:
 *  - no false negatives for 10^5 random and 10^5 sequential keys, single
 *    and batch calls, plus byte-string keys;
 *  - the Parquet fixtures ($BF_TEST_DATA/parquet, see PROVENANCE.md): the
 *    current-format .bin and the filters inside both .parquet files load
 *    and answer as documented, rebuilt filters serialize byte-identical,
 *    the legacy draft filter is rejected with BF_EUNSUPPORTED;
 *  - Parquet serialization round trips (copying load and view).
 * Exit status 0 on success, 1 on failure, 77 (skip) when the forced kernel
 * cannot run on this CPU.
 */
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "check.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A fixture from $BF_TEST_DATA/parquet. */
static uint8_t *read_fixture(const char *name, size_t *len) {
    char rel[512];
    snprintf(rel, sizeof rel, "parquet/%s", name);
    return tu_read_data(rel, len);
}

static bool has(const bf_sbbf *f, const char *s) { return bf_sbbf_contains(f, s, strlen(s)); }

/* 10^5 random and 10^5 sequential keys: never a false negative. */
static void no_false_negatives(void) {
    enum { N = 100000 };
    uint64_t *h = malloc(2 * N * sizeof *h);
    uint8_t *out = malloc(2 * N);
    if (!h || !out) {
        CHECK(0, "out of memory");
        free(h);
        free(out);
        return;
    }
    uint64_t s = 7;
    for (size_t i = 0; i < N; i++) h[i] = tu_next(&s);
    for (size_t i = 0; i < N; i++) h[N + i] = bf_hash_int64((int64_t)i);

    const double fpps[] = {0.01, 0.0001};
    for (int j = 0; j < 2; j++) {
        bf_sbbf *single = NULL, *batch = NULL;
        int r1 = bf_sbbf_new(&single, 2 * N, fpps[j]);
        int r2 = bf_sbbf_new(&batch, 2 * N, fpps[j]);
        CHECK(r1 == BF_OK && r2 == BF_OK, "create: %d %d", r1, r2);
        if (r1 || r2) {
            bf_sbbf_free(single);
            bf_sbbf_free(batch);
            continue;
        }
        for (size_t i = 0; i < 2 * N; i++) bf_sbbf_insert_hash(single, h[i]);
        bf_sbbf_insert_hashes(batch, h, 2 * N);
        CHECK(memcmp(bf_sbbf_bitset(single), bf_sbbf_bitset(batch), bf_sbbf_num_bytes(batch)) == 0,
              "single and batch inserts give the same bits");
        size_t miss = 0;
        for (size_t i = 0; i < 2 * N; i++) miss += !bf_sbbf_contains_hash(single, h[i]);
        CHECK(miss == 0, "%zu false negatives (single, fpp %g)", miss, fpps[j]);
        memset(out, 0, 2 * N);
        size_t found = bf_sbbf_contains_hashes(batch, h, 2 * N, out);
        size_t ones = 0;
        for (size_t i = 0; i < 2 * N; i++) ones += out[i] == 1;
        CHECK(found == 2 * N && ones == 2 * N, "batch found %zu/%d (fpp %g)", found, 2 * N,
              fpps[j]);
        /* Raw sequential hash values: all in block 0 (high half 0). */
        bf_sbbf *raw = NULL;
        if (bf_sbbf_new_bytes(&raw, 4096) == BF_OK) {
            for (uint64_t i = 0; i < 1000; i++) bf_sbbf_insert_hash(raw, i);
            size_t m = 0;
            for (uint64_t i = 0; i < 1000; i++) m += !bf_sbbf_contains_hash(raw, i);
            CHECK(m == 0, "raw sequential hashes: %zu false negatives", m);
            bf_sbbf_free(raw);
        }
        bf_sbbf_free(single);
        bf_sbbf_free(batch);
    }

    /* Byte strings with a long common prefix, through the convenience API. */
    bf_sbbf *f = NULL;
    if (bf_sbbf_new(&f, 20000, 0.001) == BF_OK) {
        char key[96];
        memset(key, 'p', sizeof key);
        for (int i = 0; i < 20000; i++) {
            snprintf(key + 80, 16, "%08d", i);
            bf_sbbf_insert(f, key, 88);
        }
        size_t m = 0;
        for (int i = 0; i < 20000; i++) {
            snprintf(key + 80, 16, "%08d", i);
            m += !bf_sbbf_contains(f, key, 88);
        }
        CHECK(m == 0, "prefixed strings: %zu false negatives", m);
        bf_sbbf_free(f);
    } else {
        CHECK(0, "create string filter");
    }
    free(h);
    free(out);
}

static const char *const words[] = {"hello", "parquet", "bloom", "filter"};
static const char *const words_absent[] = {"Hello", "HELLO", "world",   "Parquet", "bloom_filter",
                                           "NOT_EXISTS", "",   "foo",     "bar",     "apache",
                                           "arrow",   "spark", "hell",    "filters", "parquet "};

static void fixture_xxhash_bin(void) {
    size_t len = 0;
    uint8_t *buf = read_fixture("bloom_filter.xxhash.bin", &len);
    CHECK(buf && len == 1040, "bloom_filter.xxhash.bin: %zu bytes", len);
    if (!buf) return;
    bf_sbbf *f = NULL;
    size_t used = 0;
    int rc = bf_sbbf_from_parquet(&f, buf, len, &used);
    CHECK(rc == BF_OK && used == 1040, "load: rc %d, used %zu", rc, used);
    if (rc == BF_OK) {
        CHECK(bf_sbbf_num_bytes(f) == 1024, "1024-byte bitset");
        for (size_t i = 0; i < 4; i++) CHECK(has(f, words[i]), "'%s' present", words[i]);
        for (size_t i = 0; i < sizeof words_absent / sizeof *words_absent; i++)
            CHECK(!has(f, words_absent[i]), "'%s' absent", words_absent[i]);
        bf_sbbf_free(f);
    }
    /* Rebuilt from the four words: the whole file, byte for byte. */
    bf_sbbf *g = NULL;
    rc = bf_sbbf_new_bytes(&g, 1024);
    CHECK(rc == BF_OK, "create 1024: %d", rc);
    if (rc == BF_OK) {
        for (size_t i = 0; i < 4; i++) bf_sbbf_insert(g, words[i], strlen(words[i]));
        uint8_t out[1100];
        size_t written = 0;
        CHECK(bf_sbbf_parquet_size(g) == 1040, "parquet size %zu", bf_sbbf_parquet_size(g));
        rc = bf_sbbf_to_parquet(g, out, sizeof out, &written);
        CHECK(rc == BF_OK && written == 1040 && memcmp(out, buf, 1040) == 0,
              "rebuilt filter serializes byte-identical (rc %d, %zu bytes)", rc, written);
        bf_sbbf_free(g);
    }
    free(buf);
}

static void fixture_legacy(void) {
    size_t len = 0;
    uint8_t *buf = read_fixture("bloom_filter.bin", &len);
    CHECK(buf && len == 1036, "bloom_filter.bin: %zu bytes", len);
    if (!buf) return;
    bf_sbbf *f = NULL;
    int rc = bf_sbbf_from_parquet(&f, buf, len, NULL);
    CHECK(rc == BF_EUNSUPPORTED && f == NULL, "legacy filter rejected: rc %d", rc);
    rc = bf_sbbf_view_parquet(&f, buf, len, NULL);
    CHECK(rc == BF_EUNSUPPORTED && f == NULL, "legacy filter view rejected: rc %d", rc);
    free(buf);
}

static const char *const rows[] = {"Hello", "This is",   "a",         "test",  "How",
                                   "are you", "doing ",  "today",     "the quick", "brown fox",
                                   "jumps", "over",      "the lazy",  "dog"};
static const char *const rows_absent[] = {"b", "c", "d", "NOT_EXISTS", "Hello_Not_Exists", "hello",
                                          "doing", "the", "quick", "Today", "", "cat", "fox",
                                          "HELLO", "This", "is"};

static void fixture_parquet_file(const char *name, size_t offset, size_t bitset_bytes) {
    size_t len = 0;
    uint8_t *buf = read_fixture(name, &len);
    CHECK(buf && len > offset + 16 + bitset_bytes, "%s: %zu bytes", name, len);
    if (!buf || len <= offset + 16 + bitset_bytes) {
        free(buf);
        return;
    }
    /* Copying load and zero-copy view (the view at an odd address). */
    bf_sbbf *f = NULL, *v = NULL;
    size_t used = 0, vused = 0;
    int rc = bf_sbbf_from_parquet(&f, buf + offset, len - offset, &used);
    CHECK(rc == BF_OK && used == 16 + bitset_bytes, "%s: load rc %d used %zu", name, rc, used);
    int rv = bf_sbbf_view_parquet(&v, buf + offset, len - offset, &vused);
    CHECK(rv == BF_OK && vused == used, "%s: view rc %d", name, rv);
    bf_sbbf *both[2] = {f, v};
    for (int j = 0; j < 2; j++) {
        if (!both[j]) continue;
        CHECK(bf_sbbf_num_bytes(both[j]) == bitset_bytes, "%s: %zu bytes", name,
              bf_sbbf_num_bytes(both[j]));
        for (size_t i = 0; i < 14; i++) CHECK(has(both[j], rows[i]), "%s: '%s' present", name, rows[i]);
        for (size_t i = 0; i < sizeof rows_absent / sizeof *rows_absent; i++)
            CHECK(!has(both[j], rows_absent[i]), "%s: '%s' absent", name, rows_absent[i]);
    }
    /* Rebuilt from the 14 values: header + bitset identical to the file. */
    bf_sbbf *g = NULL;
    if (bf_sbbf_new_bytes(&g, bitset_bytes) == BF_OK) {
        uint64_t h[14];
        for (size_t i = 0; i < 14; i++) h[i] = bf_hash_xxh64(rows[i], strlen(rows[i]));
        bf_sbbf_insert_hashes(g, h, 14);
        uint8_t *out = malloc(bitset_bytes + 64);
        size_t written = 0;
        rc = out ? bf_sbbf_to_parquet(g, out, bitset_bytes + 64, &written) : BF_ENOMEM;
        CHECK(rc == BF_OK && written == used && memcmp(out, buf + offset, used) == 0,
              "%s: rebuilt filter is byte-identical (rc %d)", name, rc);
        uint8_t ans[14];
        CHECK(f && bf_sbbf_contains_hashes(f, h, 14, ans) == 14, "%s: batch finds all 14", name);
        free(out);
        bf_sbbf_free(g);
    } else {
        CHECK(0, "create");
    }
    bf_sbbf_free(f);
    bf_sbbf_free(v);
    free(buf);
}

/* Serialize, load, view: same bits, same answers; short buffers refused. */
static void round_trips(void) {
    const size_t sizes[] = {32, 64, 32 * 37, 1 << 16};
    for (size_t s = 0; s < 4; s++) {
        bf_sbbf *f = NULL;
        if (bf_sbbf_new_bytes(&f, sizes[s]) != BF_OK) {
            CHECK(0, "create %zu", sizes[s]);
            continue;
        }
        uint64_t st = sizes[s];
        for (size_t i = 0; i < sizes[s] / 8; i++) bf_sbbf_insert_hash(f, tu_next(&st));
        size_t need = bf_sbbf_parquet_size(f);
        uint8_t *buf = malloc(need + 1);
        size_t written = 0;
        CHECK(buf != NULL, "oom");
        if (!buf) {
            bf_sbbf_free(f);
            continue;
        }
        CHECK(bf_sbbf_to_parquet(f, buf, need - 1, &written) == BF_EBUFSIZE, "short buffer");
        int rc = bf_sbbf_to_parquet(f, buf + 1, need, &written);
        CHECK(rc == BF_OK && written == need, "write %zu: rc %d", sizes[s], rc);
        bf_sbbf *g = NULL, *v = NULL;
        size_t used = 0;
        rc = bf_sbbf_from_parquet(&g, buf + 1, written, &used);
        CHECK(rc == BF_OK && used == written, "reload %zu: rc %d", sizes[s], rc);
        rc = bf_sbbf_view_parquet(&v, buf + 1, written, NULL);
        CHECK(rc == BF_OK, "view %zu: rc %d", sizes[s], rc);
        if (g && v) {
            CHECK(bf_sbbf_num_bytes(g) == sizes[s] &&
                      memcmp(bf_sbbf_bitset(g), bf_sbbf_bitset(f), sizes[s]) == 0 &&
                      memcmp(bf_sbbf_bitset(v), bf_sbbf_bitset(f), sizes[s]) == 0,
                  "round trip %zu bytes", sizes[s]);
            st = sizes[s];
            size_t miss = 0;
            for (size_t i = 0; i < sizes[s] / 8; i++) {
                uint64_t h = tu_next(&st);
                miss += !bf_sbbf_contains_hash(g, h) + !bf_sbbf_contains_hash(v, h);
            }
            CHECK(miss == 0, "reloaded filter finds every key");
        }
        for (size_t cut = 0; cut < written; cut += (cut < 40 ? 1 : written / 7 + 1)) {
            bf_sbbf *t = NULL;
            CHECK(bf_sbbf_from_parquet(&t, buf + 1, cut, NULL) != BF_OK && t == NULL,
                  "truncated to %zu accepted", cut);
        }
        bf_sbbf_free(g);
        bf_sbbf_free(v);
        bf_sbbf_free(f);
        free(buf);
    }
}

int main(void) {
    const char *forced = getenv("BLOCKFILTER_KERNEL");
    bf_sbbf *probe = NULL;
    int rc = bf_sbbf_new_bytes(&probe, 32);
    if (forced && *forced && !bf_sbbf_kernel_supported(forced)) {
        CHECK(rc == BF_EKERNEL, "unsupported forced kernel %s: rc %d", forced, rc);
        int known = !strcmp(forced, "scalar") || !strcmp(forced, "avx2") ||
                    !strcmp(forced, "avx512") || !strcmp(forced, "neon");
        CHECK(known, "BLOCKFILTER_KERNEL=%s is not a kernel name", forced);
        printf("core checks: kernel %s cannot run here, skipped: %lu passed, %lu failed\n",
               forced, passed, failed);
        return failed ? 1 : 77;
    }
    CHECK(rc == BF_OK, "create: %d", rc);
    const char *kernel = probe ? bf_sbbf_kernel(probe) : "none";
    if (forced && *forced) CHECK(strcmp(kernel, forced) == 0, "forced %s, got %s", forced, kernel);
    CHECK(bf_hash_xxh64("hello", 5) == 0x26c7827d889f6da3ull, "XXH64(hello)");
    CHECK(bf_hash_int32(42) == 0xd756d7b62fc50bf1ull, "INT32 42");

    no_false_negatives();
    fixture_xxhash_bin();
    fixture_legacy();
    fixture_parquet_file("data_index_bloom_encoding_stats.parquet", 192, 1024);
    fixture_parquet_file("data_index_bloom_encoding_with_length.parquet", 253, 2048);
    round_trips();

    printf("core checks (kernel %s): %lu passed, %lu failed\n", kernel, passed, failed);
    bf_sbbf_free(probe);
    return failed ? 1 : 0;
}
