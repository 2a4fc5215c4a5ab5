/* Parquet interoperability: XXH64 vectors, the real filters written by
 * parquet-java and parquet-rs (tests/data/parquet, see PROVENANCE.md), the
 * Thrift header, and hostile bytes. */
#include <criterion/criterion.h>

#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "testutil.h"

/* XXH64 of the bytes 0, 1, ..., i-1, seed 0 (Arrow / parquet-java tables). */
Test(parquet, xxh64_looping_bytes_vectors) {
    const struct { size_t len; uint64_t h; } v[] = {
        {0, 0xef46db3751d8e999ull}, {1, 0xe934a84adb052768ull}, {2, 0x4865a00ba85b7cd6ull},
        {4, 0xffced8604453cc1eull}, {8, 0x884a173614b81b8dull}, {31, 0xc346d2b59b4d8ee1ull},
    };
    uint8_t bytes[32];
    for (int i = 0; i < 32; i++) bytes[i] = (uint8_t)i;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        cr_assert_eq(bf_hash_xxh64(bytes, v[i].len), v[i].h, "len %zu", v[i].len);
    cr_assert_eq((int64_t)bf_hash_xxh64(bytes, 0), -1205034819632174695ll);
    cr_assert_eq(bf_hash_xxh64(NULL, 0), 0xef46db3751d8e999ull);
}

Test(parquet, typed_value_hashes) {
    cr_assert_eq(bf_hash_int32(0), 0x3aefa6fd5cf2deb4ull);
    cr_assert_eq(bf_hash_int32(1), 0xf42f94001fcb5351ull);
    cr_assert_eq(bf_hash_int32(42), 0xd756d7b62fc50bf1ull);
    cr_assert_eq(bf_hash_int32(-1), 0x7f78e4bda3addf93ull);
    cr_assert_eq(bf_hash_int64(0), 0x34c96acdcadb1bbbull);
    cr_assert_eq(bf_hash_int64(1), 0x9f29cb17a2a49995ull);
    cr_assert_eq(bf_hash_int64(42), 0xb556806fb6d14353ull);
    cr_assert_eq(bf_hash_int64(-1), 0x85d136adb773c6c9ull);
    cr_assert_eq(bf_hash_float(1.5f), 0x4f2d82595c483a0dull);
    cr_assert_eq(bf_hash_double(1.5), 0x49f7b96b6b5ccaf9ull);
    cr_assert_eq(bf_hash_xxh64("hello", 5), 0x26c7827d889f6da3ull);
    cr_assert_eq(bf_hash_xxh64("Hello", 5), 0x0a75a91375b27d44ull);
}

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* One Parquet filter (Thrift header + bitset) at `offset` of a fixture
 * file: it loads with the expected size and bits set, answers every known
 * present and known absent value, and a filter rebuilt from the present
 * values serializes to the same bytes, header included. */
static void check_fixture(const char *name, size_t offset, size_t bitset_bytes, uint64_t bits_set,
                          const char *const *present, size_t np, const char *const *absent, size_t na) {
    size_t len;
    uint8_t *file = tu_read_data(name, &len);
    cr_assert_not_null(file, "%s missing (BF_TEST_DATA)", name);
    cr_assert_lt(offset, len);
    bf_sbbf *f;
    size_t used = 0;
    cr_assert_eq(bf_sbbf_from_parquet(&f, file + offset, len - offset, &used), BF_OK, "%s", name);
    cr_assert_eq(bf_sbbf_num_bytes(f), bitset_bytes);
    cr_assert_eq(used, 16 + bitset_bytes);
    for (size_t i = 0; i < np; i++) cr_assert(bf_sbbf_contains(f, present[i], strlen(present[i])), "'%s'", present[i]);
    for (size_t i = 0; i < na; i++)
        cr_assert_not(bf_sbbf_contains(f, absent[i], strlen(absent[i])), "'%s'", absent[i]);
    bf_sbbf_stats st;
    bf_sbbf_get_stats(f, &st);
    cr_assert_eq(st.bits_set, bits_set);

    bf_sbbf *g;
    cr_assert_eq(bf_sbbf_new_bytes(&g, bitset_bytes), BF_OK);
    for (size_t i = 0; i < np; i++) bf_sbbf_insert(g, present[i], strlen(present[i]));
    cr_assert_eq(bf_sbbf_parquet_size(g), used);
    uint8_t *out = malloc(used);
    size_t written = 0;
    cr_assert_eq(bf_sbbf_to_parquet(g, out, used - 1, &written), BF_EBUFSIZE);
    cr_assert_eq(bf_sbbf_to_parquet(g, out, used, &written), BF_OK);
    cr_assert_eq(written, used);
    cr_assert_eq(memcmp(out, file + offset, used), 0, "%s: rebuilt filter differs", name);

    /* The zero-copy view answers the same, straight from the file bytes. */
    bf_sbbf *v;
    cr_assert_eq(bf_sbbf_view_parquet(&v, file + offset, len - offset, &used), BF_OK);
    cr_assert(bf_sbbf_is_readonly(v));
    cr_assert_eq((const uint8_t *)bf_sbbf_bitset(v), file + offset + 16);
    for (size_t i = 0; i < np; i++) cr_assert(bf_sbbf_contains(v, present[i], strlen(present[i])));
    bf_sbbf_free(v);
    free(out);
    bf_sbbf_free(g);
    bf_sbbf_free(f);
    free(file);
}

static const char *const words[] = {"hello", "parquet", "bloom", "filter"};
static const char *const absent_words[] = {"Hello", "HELLO", "world", "Parquet", "bloom_filter",
                                           "NOT_EXISTS", "", "foo", "bar", "apache", "arrow",
                                           "spark", "hell", "filters", "parquet "};

Test(parquet, java_fixture_loads_and_answers) {
    size_t len;
    uint8_t *buf = tu_read_data("parquet/bloom_filter.xxhash.bin", &len);
    cr_assert_not_null(buf, "fixture missing (BF_TEST_DATA)");
    cr_assert_eq(len, 1040);
    free(buf);
    check_fixture("parquet/bloom_filter.xxhash.bin", 0, 1024, 32, words, COUNT(words), absent_words,
                  COUNT(absent_words));
}

Test(parquet, legacy_draft_filter_is_rejected) {
    size_t len;
    uint8_t *buf = tu_read_data("parquet/bloom_filter.bin", &len);
    cr_assert_not_null(buf);
    bf_sbbf *f = NULL;
    cr_assert_eq(bf_sbbf_from_parquet(&f, buf, len, NULL), BF_EUNSUPPORTED);
    cr_assert_eq(bf_sbbf_view_parquet(&f, buf, len, NULL), BF_EUNSUPPORTED);
    cr_assert_null(f);
    free(buf);
}

static const char *const column[] = {"Hello", "This is", "a", "test", "How", "are you", "doing ",
                                     "today", "the quick", "brown fox", "jumps", "over", "the lazy", "dog"};
static const char *const column_absent[] = {"b", "c", "d", "NOT_EXISTS", "Hello_Not_Exists", "hello",
                                            "doing", "the", "quick", "Today", "", "cat", "fox", "HELLO",
                                            "This", "is"};

Test(parquet, java_written_column_filter) {
    check_fixture("parquet/data_index_bloom_encoding_stats.parquet", 192, 1024, 112, column, COUNT(column),
                  column_absent, COUNT(column_absent));
}

Test(parquet, rust_written_column_filter) {
    check_fixture("parquet/data_index_bloom_encoding_with_length.parquet", 253, 2048, 112, column,
                  COUNT(column), column_absent, COUNT(column_absent));
}

Test(parquet, arrow_rs_single_block_vector) {
    static const uint8_t bits[32] = {200, 1, 80, 20, 64, 68, 8, 109, 6, 37, 4, 67, 144, 80, 96, 32,
                                     8, 132, 43, 33, 0, 5, 99, 65, 2, 0, 224, 44, 64, 78, 96, 4};
    bf_sbbf *v, *g;
    cr_assert_eq(bf_sbbf_view(&v, bits, 32), BF_OK);
    cr_assert_eq(bf_sbbf_new_bytes(&g, 32), BF_OK);
    char key[8];
    for (int i = 0; i < 10; i++) {
        int n = snprintf(key, sizeof key, "a%d", i);
        cr_assert(bf_sbbf_contains(v, key, (size_t)n), "%s", key);
        bf_sbbf_insert(g, key, (size_t)n);
    }
    for (int i = 10; i < 20; i++) {
        int n = snprintf(key, sizeof key, "a%d", i);
        cr_assert_not(bf_sbbf_contains(v, key, (size_t)n), "%s", key);
    }
    cr_assert_eq(memcmp(bf_sbbf_bitset(g), bits, 32), 0);
    bf_sbbf_free(v);
    bf_sbbf_free(g);
}

Test(parquet, round_trip_sizes) {
    const size_t sizes[] = {32, 64, 96, 1024, 4000 * 32, 1 << 20, (size_t)3 << 20};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        bf_sbbf *f, *g;
        cr_assert_eq(bf_sbbf_new_bytes(&f, sizes[s]), BF_OK);
        uint64_t st = sizes[s];
        for (int i = 0; i < 1000; i++) bf_sbbf_insert_hash(f, tu_next(&st));
        size_t cap = bf_sbbf_parquet_size(f), w;
        uint8_t *buf = malloc(cap);
        cr_assert_eq(bf_sbbf_to_parquet(f, buf, cap, &w), BF_OK);
        cr_assert_eq(w, cap);
        cr_assert_eq(bf_sbbf_from_parquet(&g, buf, w, NULL), BF_OK);
        cr_assert_eq(bf_sbbf_num_bytes(g), sizes[s]);
        cr_assert_eq(memcmp(bf_sbbf_bitset(f), bf_sbbf_bitset(g), sizes[s]), 0);
        bf_sbbf_free(f);
        bf_sbbf_free(g);
        free(buf);
    }
}

Test(parquet, every_truncation_is_rejected) {
    size_t len;
    uint8_t *buf = tu_read_data("parquet/bloom_filter.xxhash.bin", &len);
    cr_assert_not_null(buf);
    for (size_t cut = 0; cut < len; cut++) {
        /* A fresh exact-size copy so ASan sees any read past the end. */
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, buf, cut);
        bf_sbbf *f = NULL;
        int rc = bf_sbbf_from_parquet(&f, copy, cut, NULL);
        cr_assert_lt(rc, 0, "truncated to %zu accepted", cut);
        cr_assert_null(f);
        rc = bf_sbbf_view_parquet(&f, copy, cut, NULL);
        cr_assert_lt(rc, 0);
        free(copy);
    }
    free(buf);
}

Test(parquet, bit_flips_are_rejected_or_safe) {
    size_t len;
    uint8_t *buf = tu_read_data("parquet/bloom_filter.xxhash.bin", &len);
    cr_assert_not_null(buf);
    uint64_t s = 77;
    int accepted = 0, rejected = 0;
    for (int trial = 0; trial < 20000; trial++) {
        uint8_t *copy = malloc(len);
        memcpy(copy, buf, len);
        int flips = 1 + (int)(tu_next(&s) % 3);
        for (int k = 0; k < flips; k++) {
            /* Mostly in the header, where the parser lives. */
            size_t pos = (tu_next(&s) & 1) ? tu_next(&s) % 16 : tu_next(&s) % len;
            copy[pos] ^= (uint8_t)(1u << (tu_next(&s) % 8));
        }
        bf_sbbf *f = NULL;
        size_t used = 0;
        int rc = bf_sbbf_from_parquet(&f, copy, len, &used);
        if (rc == BF_OK) {
            accepted++;
            cr_assert_leq(used, len);
            cr_assert_eq(bf_sbbf_num_bytes(f) % 32, 0);
            (void)bf_sbbf_contains(f, "hello", 5);
            bf_sbbf_free(f);
        } else {
            rejected++;
            cr_assert_null(f);
            cr_assert_str_neq(bf_strerror(rc), "unknown status");
        }
        free(copy);
    }
    cr_log_info("bit flips: %d accepted (bitset flips), %d rejected", accepted, rejected);
    cr_assert_gt(rejected, 0);
    free(buf);
}

Test(parquet, header_variants) {
    bf_sbbf *f = NULL;
    /* Unknown extra field (id 5, i64) is skipped; compression absent is
     * taken as uncompressed. */
    uint8_t h1[64 + 32] = {0x15, 0x40, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00,
                           0x1c, 0x1c, 0x00, 0x00, 0x16, 0x02, 0x00};
    cr_assert_eq(bf_sbbf_from_parquet(&f, h1, 17 + 32, NULL), BF_OK);
    cr_assert_eq(bf_sbbf_num_bytes(f), 32);
    bf_sbbf_free(f);
    f = NULL;
    uint8_t h2[64] = {0x15, 0x40, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
    cr_assert_eq(bf_sbbf_from_parquet(&f, h2, 11 + 32, NULL), BF_OK);
    bf_sbbf_free(f);
    f = NULL;
    /* Hash union member 2 (not XXHASH): unsupported. */
    uint8_t h3[64] = {0x15, 0x40, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x2c, 0x00, 0x00, 0x00};
    cr_assert_eq(bf_sbbf_from_parquet(&f, h3, 11 + 32, NULL), BF_EUNSUPPORTED);
    /* Compressed: unsupported. */
    uint8_t h4[64] = {0x15, 0x40, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x2c, 0x00, 0x00, 0x00};
    cr_assert_eq(bf_sbbf_from_parquet(&f, h4, 15 + 32, NULL), BF_EUNSUPPORTED);
    /* numBytes not a multiple of 32, negative, zero. */
    uint8_t h5[64] = {0x15, 0x42, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
    cr_assert_eq(bf_sbbf_from_parquet(&f, h5, 11 + 33, NULL), BF_ECORRUPT);
    uint8_t h6[64] = {0x15, 0x41, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
    cr_assert_eq(bf_sbbf_from_parquet(&f, h6, 64, NULL), BF_ECORRUPT);
    uint8_t h7[64] = {0x15, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
    cr_assert_eq(bf_sbbf_from_parquet(&f, h7, 64, NULL), BF_ECORRUPT);
    /* Missing numBytes; garbage type nibble; deep nesting. */
    uint8_t h8[64] = {0x1c, 0x1c, 0x00, 0x00, 0x1c, 0x1c, 0x00, 0x00, 0x00};
    cr_assert_eq(bf_sbbf_from_parquet(&f, h8, 64, NULL), BF_EFORMAT);
    uint8_t h9[64] = {0x1d, 0x00};
    cr_assert_eq(bf_sbbf_from_parquet(&f, h9, 64, NULL), BF_EFORMAT);
    uint8_t deep[200];
    memset(deep, 0x1c, sizeof deep);
    cr_assert_lt(bf_sbbf_from_parquet(&f, deep, sizeof deep, NULL), 0);
    cr_assert_eq(bf_sbbf_from_parquet(&f, NULL, 10, NULL), BF_EINVAL);
    cr_assert_eq(bf_sbbf_from_parquet(NULL, h1, 49, NULL), BF_EINVAL);
    cr_assert_null(f);
}

Test(parquet, wrap_in_native_format) {
    size_t len;
    uint8_t *buf = tu_read_data("parquet/bloom_filter.xxhash.bin", &len);
    cr_assert_not_null(buf);
    bf_sbbf *s, *v;
    cr_assert_eq(bf_sbbf_from_parquet(&s, buf, len, NULL), BF_OK);
    cr_assert_eq(bf_sbbf_view_parquet(&v, buf, len, NULL), BF_OK);
    bf_filter *f = NULL;
    cr_assert_eq(bf_filter_from_sbbf(&f, v), BF_EREADONLY);
    cr_assert_eq(bf_filter_from_sbbf(&f, NULL), BF_EINVAL);
    cr_assert_eq(bf_filter_from_sbbf(&f, s), BF_OK);
    cr_assert_eq(bf_filter_sbbf(f), s);
    size_t cap = bf_filter_save_size(f), w;
    uint8_t *img = malloc(cap);
    cr_assert_eq(bf_filter_save(f, img, cap, &w), BF_OK);
    bf_filter *g;
    cr_assert_eq(bf_filter_load(&g, img, w), BF_OK);
    cr_assert_eq(bf_filter_family(g), BF_FAMILY_SBBF);
    cr_assert_eq(memcmp(bf_sbbf_bitset(bf_filter_sbbf(g)), buf + 16, 1024), 0);
    for (size_t i = 0; i < 4; i++) cr_assert(bf_filter_contains(g, words[i], strlen(words[i])));
    bf_filter_stats st;
    cr_assert_eq(bf_filter_get_stats(g, &st), BF_OK);
    cr_assert_geq(st.inserted, 4, "saving records at least the count the bits imply");
    bf_filter_free(g);
    bf_filter_free(f); /* frees s */
    bf_sbbf_free(v);
    free(img);
    free(buf);
}
