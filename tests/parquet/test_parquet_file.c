/*
 * Parquet files through the bf_parquet_* API, as a plain C program (no
 * criterion), so it also runs under qemu-user on aarch64 and once per
 * kernel setup:
 *  - the Thrift compact writer and reader against the protocol's encoding;
 *  - the real files in $BF_TEST_DATA/parquet answer as PROVENANCE.md says;
 *  - files written here (tests/parquet/pq_writer.h) with every physical
 *    type, logical types, several row groups, nulls, nested columns,
 *    deprecated statistics and filters without a recorded length: every
 *    present value is "maybe" in its row group, values outside the
 *    statistics are skipped exactly where the writer's own comparison says
 *    so, absent values inside them are mostly skipped by the filters, and
 *    batch probes agree with single probes;
 *  - every truncation of every file is refused with a status, and corrupt
 *    filters, encrypted columns and bad offsets never skip a row group.
 * BF_PQ_DUMP=DIR writes the generated files there (to check them with
 * another Parquet reader). Exit 0 on success, 1 on failure, 77 (skip) when
 * the forced kernel cannot run on this CPU.
 */
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "blockfilter_parquet.h"
#include "check.h"
#include "parquet/parquet_file.h" /* PQ_TILE */
#include "pq_writer.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Thrift compact protocol                                                   */
/* ------------------------------------------------------------------------ */

static int bytes_are(const thrift_writer *w, const uint8_t *want, size_t n) {
    return w->err == 0 && w->len == n && memcmp(w->buf, want, n) == 0;
}

static void thrift_writer_vectors(void) {
    thrift_writer w;
    /* Short-form field headers (delta 1..15), long form (delta > 15 or
     * backwards), zigzag varints, bools in the type nibble. */
    thrift_writer_init(&w);
    thrift_write_struct_begin(&w);
    thrift_write_field(&w, 1, BF_T_I32);
    thrift_write_i32(&w, 1);      /* zigzag 2 */
    thrift_write_field(&w, 3, BF_T_I32);
    thrift_write_i32(&w, -64);    /* zigzag 127 */
    thrift_write_field(&w, 4, BF_T_I64);
    thrift_write_i64(&w, 64);     /* zigzag 128: two bytes */
    thrift_write_field(&w, 20, BF_T_I16); /* delta 16: long form */
    thrift_write_i16(&w, -1);
    thrift_write_field(&w, 2, BF_T_BYTE); /* backwards: long form */
    thrift_write_byte(&w, -2);
    thrift_write_bool_field(&w, 3, true);
    thrift_write_bool_field(&w, 4, false);
    thrift_write_struct_end(&w);
    static const uint8_t v1[] = {0x15, 0x02, 0x25, 0x7f, 0x16, 0x80, 0x01, 0x04, 0x28, 0x01,
                                 0x03, 0x04, 0xfe, 0x11, 0x12, 0x00};
    CHECK(bytes_are(&w, v1, sizeof v1), "field headers and varints (len %zu)", w.len);
    thrift_writer_free(&w);

    /* Binary, double (little-endian), lists (short and long), map, nested. */
    thrift_writer_init(&w);
    thrift_write_struct_begin(&w);
    thrift_write_field(&w, 1, BF_T_BINARY);
    thrift_write_binary(&w, "abc", 3);
    thrift_write_field(&w, 2, BF_T_DOUBLE);
    thrift_write_double(&w, 1.5);
    thrift_write_field(&w, 3, BF_T_LIST);
    thrift_write_list_begin(&w, BF_T_I32, 3);
    for (int i = 0; i < 3; i++) thrift_write_i32(&w, i);
    thrift_write_field(&w, 4, BF_T_LIST);
    thrift_write_list_begin(&w, BF_T_TRUE, 15);
    for (int i = 0; i < 15; i++) thrift_write_bool_elem(&w, i & 1);
    thrift_write_field(&w, 5, BF_T_MAP);
    thrift_write_map_begin(&w, BF_T_BINARY, BF_T_I32, 1);
    thrift_write_binary(&w, "k", 1);
    thrift_write_i32(&w, 7);
    thrift_write_field(&w, 6, BF_T_MAP);
    thrift_write_map_begin(&w, BF_T_BINARY, BF_T_I32, 0);
    thrift_write_field(&w, 7, BF_T_STRUCT);
    thrift_write_struct_begin(&w);
    thrift_write_field(&w, 1, BF_T_I64);
    thrift_write_i64(&w, -1);
    thrift_write_struct_end(&w);
    thrift_write_field(&w, 8, BF_T_SET);
    thrift_write_list_begin(&w, BF_T_BINARY, 0);
    thrift_write_struct_end(&w);
    static const uint8_t v2[] = {
        0x18, 0x03, 'a',  'b',  'c',  0x17, 0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0x19, 0x35, 0x00,
        0x02, 0x04, 0x19, 0xf1, 0x0f, 2,    1, 2, 1, 2, 1, 2, 1,    2,    1,    2,    1,
        2,    1,    2,    0x1b, 0x01, 0x85, 0x01, 'k', 0x0e, 0x1b, 0x00, 0x1c, 0x16, 0x01, 0x00,
        0x1a, 0x08, 0x00};
    CHECK(bytes_are(&w, v2, sizeof v2), "collections, binary, double (len %zu)", w.len);

    /* The reader reads back what it wrote, skipping fields it is not asked about. */
    bf_thrift_reader r;
    bf_thrift_reader_init(&r, w.buf, w.len, NULL);
    int rc = bf_thrift_struct_begin(&r);
    int16_t last = 0, id;
    uint8_t type;
    int fields = 0, ok = rc == 0;
    while ((rc = bf_thrift_field_next(&r, &last, &id, &type)) == 1) {
        fields++;
        if (id == 2) {
            double d = 0;
            ok &= type == BF_T_DOUBLE && bf_thrift_read_double(&r, &d) == 0 && d == 1.5;
        } else if (id == 5) {
            uint8_t kt, vt;
            uint32_t n;
            const uint8_t *s;
            size_t sl;
            int32_t v;
            ok &= bf_thrift_map_begin(&r, &kt, &vt, &n) == 0 && kt == BF_T_BINARY &&
                  vt == BF_T_I32 && n == 1 && bf_thrift_read_binary(&r, &s, &sl) == 0 &&
                  sl == 1 && s[0] == 'k' && bf_thrift_read_i32(&r, &v) == 0 && v == 7;
            bf_thrift_collection_end(&r);
        } else if (id == 4) {
            uint8_t et;
            uint32_t n;
            bool b;
            ok &= bf_thrift_list_begin(&r, &et, &n) == 0 && n == 15;
            for (uint32_t i = 0; i < n; i++)
                ok &= bf_thrift_read_bool_elem(&r, &b) == 0 && b == (bool)(i & 1);
            bf_thrift_collection_end(&r);
        } else {
            ok &= bf_thrift_skip(&r, type) == 0;
        }
    }
    CHECK(ok && rc == 0 && fields == 8 && r.p == r.end && r.depth == 0,
          "read back: ok %d rc %d fields %d", ok, rc, fields);
    thrift_writer_free(&w);
}

static void thrift_reader_limits(void) {
    bf_thrift_reader r;
    int16_t last = 0, id;
    uint8_t type;
    /* Nesting: 100 nested structs pass the default depth of 32? No. */
    uint8_t deep[202];
    memset(deep, 0x1c, 100);
    memset(deep + 100, 0, 102);
    bf_thrift_reader_init(&r, deep, sizeof deep, NULL);
    int rc = bf_thrift_struct_begin(&r);
    rc = bf_thrift_field_next(&r, &last, &id, &type);
    CHECK(rc == 1 && bf_thrift_skip(&r, type) == BF_ETOOBIG, "depth limit");

    /* A string longer than the limit; a string past the end. */
    static const uint8_t str[] = {0x0a, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'};
    bf_thrift_limits lim = {8, 4, 100, 100};
    const uint8_t *s;
    size_t sl;
    bf_thrift_reader_init(&r, str, sizeof str, &lim);
    CHECK(bf_thrift_read_binary(&r, &s, &sl) == BF_ETOOBIG, "string limit");
    bf_thrift_reader_init(&r, str, sizeof str - 1, NULL);
    CHECK(bf_thrift_read_binary(&r, &s, &sl) == BF_ETRUNCATED, "string past the end");

    /* A list announcing more elements than bytes left; over max_count. */
    static const uint8_t list[] = {0xf5, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x00};
    uint8_t et;
    uint32_t n;
    bf_thrift_reader_init(&r, list, sizeof list, NULL);
    CHECK(bf_thrift_list_begin(&r, &et, &n) == BF_ETRUNCATED, "huge list count");
    static const uint8_t list5[] = {0x55, 1, 2, 3, 4, 5};
    lim = (bf_thrift_limits){8, 100, 4, 100};
    bf_thrift_reader_init(&r, list5, sizeof list5, &lim);
    CHECK(bf_thrift_list_begin(&r, &et, &n) == BF_ETOOBIG, "count limit");
    static const uint8_t map[] = {0xff, 0xff, 0xff, 0x7f, 0x88, 0x00};
    bf_thrift_reader_init(&r, map, sizeof map, NULL);
    uint8_t kt, vt;
    CHECK(bf_thrift_map_begin(&r, &kt, &vt, &n) == BF_ETRUNCATED, "huge map count");

    /* Work: a list of 50 empty structs within 20 units of work. */
    uint8_t many[52];
    many[0] = 0xfc;
    many[1] = 50;
    memset(many + 2, 0, 50);
    lim = (bf_thrift_limits){8, 100, 100, 20};
    bf_thrift_reader_init(&r, many, sizeof many, &lim);
    CHECK(bf_thrift_skip(&r, BF_T_LIST) == BF_ETOOBIG, "work limit");
    bf_thrift_reader_init(&r, many, sizeof many, NULL);
    CHECK(bf_thrift_skip(&r, BF_T_LIST) == BF_OK && r.p == r.end, "50 empty structs");

    /* Varints: 11 bytes; 10 bytes with more than 64 bits; i32 out of range. */
    static const uint8_t v11[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
    static const uint8_t v10[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    static const uint8_t big32[] = {0x80, 0x80, 0x80, 0x80, 0x10};
    int64_t i64;
    int32_t i32;
    bf_thrift_reader_init(&r, v11, sizeof v11, NULL);
    CHECK(bf_thrift_read_i64(&r, &i64) == BF_EFORMAT, "11-byte varint");
    bf_thrift_reader_init(&r, v10, sizeof v10, NULL);
    CHECK(bf_thrift_read_i64(&r, &i64) == BF_EFORMAT, "65-bit varint");
    bf_thrift_reader_init(&r, big32, sizeof big32, NULL);
    CHECK(bf_thrift_read_i32(&r, &i32) == BF_EFORMAT, "i32 out of range");
    /* Bad type nibbles; a bool element that is not 0, 1 or 2. */
    static const uint8_t badt[] = {0x1d, 0x00};
    bf_thrift_reader_init(&r, badt, sizeof badt, NULL);
    bf_thrift_struct_begin(&r);
    last = 0;
    CHECK(bf_thrift_field_next(&r, &last, &id, &type) == BF_EFORMAT, "type 13");
    static const uint8_t badl[] = {0x10};
    bf_thrift_reader_init(&r, badl, sizeof badl, NULL);
    CHECK(bf_thrift_list_begin(&r, &et, &n) == BF_EFORMAT, "list of STOP");
    static const uint8_t badb[] = {0x21, 0x01, 0x07};
    bf_thrift_reader_init(&r, badb, sizeof badb, NULL);
    CHECK(bf_thrift_skip(&r, BF_T_LIST) == BF_EFORMAT, "bool element 7");
    /* Every prefix of a struct holding every type is refused, never overrun. */
    thrift_writer w;
    thrift_writer_init(&w);
    thrift_write_struct_begin(&w);
    thrift_write_field(&w, 1, BF_T_BINARY);
    thrift_write_binary(&w, "hello", 5);
    thrift_write_field(&w, 2, BF_T_DOUBLE);
    thrift_write_double(&w, -2.0);
    thrift_write_field(&w, 3, BF_T_MAP);
    thrift_write_map_begin(&w, BF_T_I64, BF_T_TRUE, 2);
    thrift_write_i64(&w, 1);
    thrift_write_bool_elem(&w, true);
    thrift_write_i64(&w, 2);
    thrift_write_bool_elem(&w, false);
    thrift_write_field(&w, 300, BF_T_SET);
    thrift_write_list_begin(&w, BF_T_STRUCT, 1);
    thrift_write_struct_begin(&w);
    thrift_write_bool_field(&w, 1, true);
    thrift_write_struct_end(&w);
    thrift_write_field(&w, 301, BF_T_BYTE);
    thrift_write_byte(&w, 5);
    thrift_write_struct_end(&w);
    CHECK(w.err == 0, "writer: %d", w.err);
    int bad = 0;
    for (size_t len = 0; len <= w.len; len++) {
        uint8_t *cp = malloc(len ? len : 1);
        memcpy(cp, w.buf, len);
        bf_thrift_reader_init(&r, cp, len, NULL);
        rc = bf_thrift_skip(&r, BF_T_STRUCT);
        if (len < w.len ? rc >= 0 : rc != 0 || r.p != r.end) bad++;
        free(cp);
    }
    CHECK(bad == 0, "%d prefixes of a %zu-byte struct misjudged", bad, w.len);
    thrift_writer_free(&w);
}

/* ------------------------------------------------------------------------ */
/* The real files                                                            */
/* ------------------------------------------------------------------------ */

static uint8_t *fixture(const char *name, size_t *len) {
    char rel[256];
    snprintf(rel, sizeof rel, "parquet/%s", name);
    return tu_read_data(rel, len);
}

static char fixture_path_buf[4096];
static const char *fixture_path(const char *name) {
    const char *dir = getenv("BF_TEST_DATA");
    snprintf(fixture_path_buf, sizeof fixture_path_buf, "%s/parquet/%s", dir ? dir : "tests/data",
             name);
    return fixture_path_buf;
}

/* The verdict for a text value in every row group (1 row group here). */
static int probe_text(const bf_parquet_file *f, size_t col, const char *text, unsigned flags,
                      uint8_t *out) {
    uint8_t buf[256];
    size_t len;
    int rc = bf_parquet_value_from_text(f, col, text, strlen(text), 0, buf, sizeof buf, &len);
    if (rc) return rc;
    return bf_parquet_probe(f, col, buf, len, flags, out, NULL);
}

static const char *const present14[] = {"Hello", "This is", "a",         "test",     "How",
                                        "are you", "doing ", "today",    "the quick", "brown fox",
                                        "jumps",   "over",   "the lazy", "dog"};
static const char *const absent_listed[] = {"b",    "c",     "d",     "NOT_EXISTS", "Hello_Not_Exists",
                                            "hello", "doing", "the",   "quick",      "Today",
                                            "",      "cat",   "fox",   "HELLO",      "This",
                                            "is"};

static void check_string_fixture(const char *name, uint64_t want_off, uint64_t want_len,
                                 uint64_t want_bytes, const char *writer) {
    bf_parquet_file *f = NULL;
    int rc = bf_parquet_open(&f, fixture_path(name));
    CHECK(rc == BF_OK, "%s: open: %s", name, bf_strerror(rc));
    if (rc) return;
    CHECK(bf_parquet_num_row_groups(f) == 1 && bf_parquet_num_columns(f) == 1 &&
              bf_parquet_num_rows(f) == 14,
          "%s: shape", name);
    const char *by = bf_parquet_created_by(f);
    CHECK(by && strncmp(by, writer, strlen(writer)) == 0, "%s: created_by %s", name, by);
    bf_parquet_column c;
    CHECK(bf_parquet_column_info(f, 0, &c) == BF_OK && strcmp(c.path, "String") == 0 &&
              c.physical_type == BF_PARQUET_BYTE_ARRAY && c.logical_type == BF_PARQUET_LT_STRING &&
              c.repetition == 1 && c.max_definition_level == 1 &&
              c.order == BF_PARQUET_ORDER_UNSIGNED,
          "%s: column", name);
    bf_parquet_chunk k;
    CHECK(bf_parquet_chunk_info(f, 0, 0, &k) == BF_OK && k.num_values == 14 &&
              (!k.has_null_count || k.null_count == 0) && k.stats_usable && !k.stats_deprecated,
          "%s: chunk", name);
    CHECK(k.has_min && k.min_len == 5 && memcmp(k.min, "Hello", 5) == 0 && k.has_max &&
              k.max_len == 5 && memcmp(k.max, "today", 5) == 0,
          "%s: min/max", name);
    CHECK((uint64_t)k.bloom_filter_offset == want_off, "%s: offset %lld", name,
          (long long)k.bloom_filter_offset);
    uint64_t off = 0, len = 0, nb = 0;
    rc = bf_parquet_bloom_filter_location(f, 0, 0, &off, &len, &nb);
    CHECK(rc == BF_OK && off == want_off && len == want_len && nb == want_bytes,
          "%s: location %s %llu %llu %llu", name, bf_strerror(rc), (unsigned long long)off,
          (unsigned long long)len, (unsigned long long)nb);
    bf_sbbf *v = NULL;
    rc = bf_parquet_bloom_filter(f, 0, 0, &v);
    CHECK(rc == BF_OK && bf_sbbf_is_readonly(v) && bf_sbbf_num_bytes(v) == want_bytes,
          "%s: filter view", name);
    if (v) {
        for (size_t i = 0; i < 14; i++)
            CHECK(bf_sbbf_contains(v, present14[i], strlen(present14[i])), "%s: view has '%s'",
                  name, present14[i]);
        bf_sbbf_free(v);
    }
    uint8_t out[1];
    for (size_t i = 0; i < 14; i++) {
        rc = probe_text(f, 0, present14[i], 0, out);
        CHECK(rc == BF_OK && out[0] == BF_PARQUET_MAYBE, "%s: '%s' present", name, present14[i]);
    }
    for (size_t i = 0; i < sizeof absent_listed / sizeof *absent_listed; i++) {
        rc = probe_text(f, 0, absent_listed[i], 0, out);
        CHECK(rc == BF_OK && out[0] != BF_PARQUET_MAYBE, "%s: '%s' absent (%s)", name,
              absent_listed[i], bf_parquet_verdict_name(out[0]));
        /* The filter alone also says absent (PROVENANCE.md). */
        rc = probe_text(f, 0, absent_listed[i], BF_PARQUET_NO_STATS, out);
        CHECK(rc == BF_OK && out[0] == BF_PARQUET_SKIP_BLOOM, "%s: '%s' absent in the filter",
              name, absent_listed[i]);
    }
    /* Outside [Hello, today]: the statistics alone decide. */
    rc = probe_text(f, 0, "zebra", BF_PARQUET_NO_BLOOM, out);
    CHECK(rc == BF_OK && out[0] == BF_PARQUET_SKIP_STATS, "%s: 'zebra' by stats", name);
    rc = probe_text(f, 0, "Apple", BF_PARQUET_NO_BLOOM, out);
    CHECK(rc == BF_OK && out[0] == BF_PARQUET_SKIP_STATS, "%s: 'Apple' by stats", name);
    rc = probe_text(f, 0, "b", BF_PARQUET_NO_BLOOM, out);
    CHECK(rc == BF_OK && out[0] == BF_PARQUET_MAYBE, "%s: 'b' inside the stats", name);

    /* Batch over present and absent values agrees with single probes. */
    const void *ptrs[30];
    size_t lens[30], n = 0;
    for (size_t i = 0; i < 14; i++) ptrs[n] = present14[i], lens[n++] = strlen(present14[i]);
    for (size_t i = 0; i < 16; i++) ptrs[n] = absent_listed[i], lens[n++] = strlen(absent_listed[i]);
    uint8_t bo[30];
    rc = bf_parquet_probe_batch(f, 0, ptrs, lens, n, 0, bo);
    int agree = rc == BF_OK;
    for (size_t i = 0; i < n && agree; i++) {
        bf_parquet_probe(f, 0, ptrs[i], lens[i], 0, out, NULL);
        agree = out[0] == bo[i] && (i < 14) == (bo[i] == BF_PARQUET_MAYBE);
    }
    CHECK(agree, "%s: batch agrees with single probes", name);
    /* Open from a buffer: the same answers. */
    size_t blen;
    uint8_t *buf = fixture(name, &blen);
    bf_parquet_file *g = NULL;
    rc = buf ? bf_parquet_open_buffer(&g, buf, blen) : BF_EIO;
    CHECK(rc == BF_OK && bf_parquet_footer_size(g) == bf_parquet_footer_size(f) &&
              bf_parquet_file_size(g) == blen,
          "%s: open_buffer %s", name, bf_strerror(rc));
    if (g) {
        uint8_t bo2[30];
        CHECK(bf_parquet_probe_batch(g, 0, ptrs, lens, n, 0, bo2) == BF_OK &&
                  memcmp(bo, bo2, n) == 0,
              "%s: buffer answers as the mapping", name);
    }
    bf_parquet_close(g);
    free(buf);
    bf_parquet_close(f);
}

/* Every prefix of a file is refused with a status (ASan watches the
 * reads: each prefix is an exact-size copy); single-byte corruptions of
 * the footer never crash, and what opens answers every probe. */
static void truncations_and_flips(const uint8_t *data, size_t len, const char *what) {
    int bad = 0;
    for (size_t n = 0; n < len; n++) {
        uint8_t *cp = malloc(n ? n : 1);
        memcpy(cp, data, n);
        bf_parquet_file *f = NULL;
        int rc = bf_parquet_open_buffer(&f, cp, n);
        if (rc >= 0 || f != NULL || strcmp(bf_strerror(rc), "unknown status") == 0) bad++;
        bf_parquet_close(f);
        free(cp);
    }
    CHECK(bad == 0, "%s: %d of %zu truncations accepted or misreported", what, bad, len);
    /* Flip bytes of the footer and of the last 64 bytes before it. */
    uint32_t fl = len >= 8 ? (uint32_t)(data[len - 8] | data[len - 7] << 8 | data[len - 6] << 16 |
                                        (uint32_t)data[len - 5] << 24)
                           : 0;
    size_t from = len > fl + 8 + 64 ? len - fl - 8 - 64 : 0;
    uint8_t *cp = malloc(len);
    size_t opened = 0;
    for (size_t i = from; i < len; i++) {
        memcpy(cp, data, len);
        cp[i] ^= (uint8_t)(0x5a + i);
        bf_parquet_file *f = NULL;
        if (bf_parquet_open_buffer(&f, cp, len) != BF_OK) continue;
        opened++;
        uint8_t *out = malloc(bf_parquet_num_row_groups(f) + 1);
        static const uint8_t probe[16] = {1};
        for (size_t c = 0; c < bf_parquet_num_columns(f); c++) {
            bf_parquet_column ci;
            bf_parquet_column_info(f, c, &ci);
            size_t w = ci.physical_type == BF_PARQUET_BYTE_ARRAY ? 3
                       : ci.physical_type == BF_PARQUET_BOOLEAN ? 1
                       : ci.physical_type == BF_PARQUET_INT32 || ci.physical_type == BF_PARQUET_FLOAT ? 4
                       : ci.physical_type == BF_PARQUET_INT96 ? 12
                       : ci.physical_type == BF_PARQUET_FIXED_LEN_BYTE_ARRAY ? (size_t)ci.type_length
                                                                              : 8;
            if (w <= sizeof probe) bf_parquet_probe(f, c, probe, w, 0, out, NULL);
            for (size_t rg = 0; rg < bf_parquet_num_row_groups(f); rg++) {
                uint64_t o, l, nb;
                bf_parquet_bloom_filter_location(f, rg, c, &o, &l, &nb);
            }
        }
        free(out);
        bf_parquet_close(f);
    }
    free(cp);
    (void)opened;
    CHECK(1, "flips");
}

static void real_files(void) {
    check_string_fixture("data_index_bloom_encoding_stats.parquet", 192, 1040, 1024, "parquet-mr");
    check_string_fixture("data_index_bloom_encoding_with_length.parquet", 253, 2064, 2048,
                         "parquet-rs");
    /* Encrypted footer: refused by path and by buffer. */
    bf_parquet_file *f = NULL;
    const char *enc = "encrypt_columns_and_footer_bloom_filter.parquet.encrypted";
    CHECK(bf_parquet_open(&f, fixture_path(enc)) == BF_EENCRYPTED && !f, "encrypted by path");
    size_t len;
    uint8_t *buf = fixture(enc, &len);
    CHECK(buf && bf_parquet_open_buffer(&f, buf, len) == BF_EENCRYPTED, "encrypted by buffer");
    free(buf);
    /* Filter files are not Parquet files. */
    CHECK(bf_parquet_open(&f, fixture_path("bloom_filter.bin")) == BF_EFORMAT, "legacy .bin");
    CHECK(bf_parquet_open(&f, fixture_path("bloom_filter.xxhash.bin")) == BF_EFORMAT, ".bin");
    CHECK(bf_parquet_open(&f, fixture_path("no-such-file.parquet")) == BF_EIO, "missing file");
    const char *dir = getenv("BF_TEST_DATA");
    CHECK(bf_parquet_open(&f, dir ? dir : "tests/data") == BF_EIO, "a directory");
    CHECK(bf_parquet_open(NULL, "x") == BF_EINVAL && bf_parquet_open_buffer(&f, NULL, 3) == BF_EINVAL,
          "bad arguments");

    static const char *const files[] = {"data_index_bloom_encoding_stats.parquet",
                                        "data_index_bloom_encoding_with_length.parquet"};
    for (int i = 0; i < 2; i++) {
        buf = fixture(files[i], &len);
        if (!buf) {
            CHECK(0, "read %s", files[i]);
            continue;
        }
        truncations_and_flips(buf, len, files[i]);
        /* The footer length larger than the file. */
        buf[len - 8] = 0xff, buf[len - 7] = 0xff;
        CHECK(bf_parquet_open_buffer(&f, buf, len) == BF_ETRUNCATED, "%s: huge footer", files[i]);
        /* The end magic gone, or "PARE". */
        memcpy(buf + len - 4, "PARE", 4);
        CHECK(bf_parquet_open_buffer(&f, buf, len) == BF_EENCRYPTED, "%s: PARE", files[i]);
        free(buf);
    }
    buf = fixture(enc, &len);
    if (buf) {
        int bad = 0;
        for (size_t n = 0; n < len; n += 97) {
            bf_parquet_file *g = NULL;
            uint8_t *cp = malloc(n ? n : 1);
            memcpy(cp, buf, n);
            int rc = bf_parquet_open_buffer(&g, cp, n);
            bad += rc >= 0;
            bf_parquet_close(g);
            free(cp);
        }
        CHECK(bad == 0, "encrypted truncations");
        free(buf);
    }
}


/* DuckDB's file (PROVENANCE.md section 6): three row groups, four typed
 * columns; every present value "maybe" only in its row group; the filters
 * alone say exactly what DuckDB's parquet_bloom_probe says. */
static size_t duck_value(bf_parquet_file *f, size_t col, int v, uint8_t *buf) {
    char txt[64];
    if (col == 0) snprintf(txt, sizeof txt, "%d", v);
    else if (col == 1) snprintf(txt, sizeof txt, "key-%05d", v);
    else if (col == 2) snprintf(txt, sizeof txt, "%.17g", v / 4.0);
    else { /* 2020-01-01 + v days, through the library's own date text */
        uint8_t b[4];
        bf_store_le32(b, (uint32_t)(18262 + v));
        size_t tl;
        bf_parquet_value_to_text(f, col, b, 4, 0, txt, sizeof txt, &tl);
    }
    size_t len = 0;
    int rc = bf_parquet_value_from_text(f, col, txt, strlen(txt), 0, buf, 64, &len);
    return rc ? 0 : len;
}

static void duckdb_file(void) {
    bf_parquet_file *f = NULL;
    int rc = bf_parquet_open(&f, fixture_path("duckdb_bloom.parquet"));
    CHECK(rc == BF_OK, "duckdb: open %s", bf_strerror(rc));
    if (rc) return;
    CHECK(bf_parquet_num_row_groups(f) == 3 && bf_parquet_num_columns(f) == 4 &&
              bf_parquet_num_rows(f) == 3 * 2048,
          "duckdb: shape");
    static const char *const names[] = {"id", "s", "d", "dt"};
    static const bf_parquet_logical lts[] = {BF_PARQUET_LT_INTEGER, BF_PARQUET_LT_STRING,
                                             BF_PARQUET_LT_NONE, BF_PARQUET_LT_DATE};
    for (size_t c = 0; c < 4; c++) {
        bf_parquet_column ci;
        bf_parquet_column_info(f, c, &ci);
        CHECK(strcmp(ci.path, names[c]) == 0 && ci.logical_type == lts[c], "duckdb: column %zu", c);
        for (size_t rg = 0; rg < 3; rg++) {
            uint64_t off, len, nb;
            rc = bf_parquet_bloom_filter_location(f, rg, c, &off, &len, &nb);
            CHECK(rc == BF_OK && len == 272 && nb == 256, "duckdb: filter %zu/%zu", rg, c);
        }
    }
    uint8_t buf[64], out[3];
    int fn = 0, wrong_other = 0, bloom_diff = 0;
    for (size_t c = 0; c < 4; c++)
        for (int rg = 0; rg < 3; rg++)
            for (int k = 0; k < 128; k++) {
                int v = rg * 1000 + 2 * k;
                size_t len = duck_value(f, c, v, buf);
                bf_parquet_probe(f, c, buf, len, 0, out, NULL);
                for (int r = 0; r < 3; r++) {
                    if (r == rg) fn += out[r] != BF_PARQUET_MAYBE;
                    else wrong_other += out[r] != BF_PARQUET_SKIP_STATS;
                }
                if (k == 127) continue;
                len = duck_value(f, c, v + 1, buf); /* absent, inside the statistics */
                bf_parquet_probe(f, c, buf, len, BF_PARQUET_NO_STATS, out, NULL);
                int duck_maybe = c == 2 && rg == 0 && v + 1 == 195;
                bloom_diff += (out[rg] == BF_PARQUET_MAYBE) != duck_maybe;
            }
    CHECK(fn == 0, "duckdb: %d present values skipped", fn);
    CHECK(wrong_other == 0, "duckdb: %d values not skipped by other row groups' stats", wrong_other);
    CHECK(bloom_diff == 0, "duckdb: %d filter answers differ from DuckDB's", bloom_diff);
    size_t blen;
    uint8_t *b = fixture("duckdb_bloom.parquet", &blen);
    if (b) truncations_and_flips(b, blen, "duckdb_bloom.parquet");
    free(b);
    bf_parquet_close(f);
}

/* ------------------------------------------------------------------------ */
/* Files written here                                                        */
/* ------------------------------------------------------------------------ */

#define NRG 4
#define ROWS 30
#define SPAN 64 /* row group rg holds x in [rg * SPAN, rg * SPAN + 2 * ROWS) */

enum colid {
    C_BOOL, C_I32, C_I8, C_U32, C_DATE, C_TIME, C_DEC32, C_I64, C_U64, C_TS, C_I96, C_FLOAT,
    C_DOUBLE, C_STR, C_BIN, C_UUID, C_DECF, C_DECB, C_NESTED, C_DEP, C_DEPSTR, C_NOLEN,
    C_NOBLOOM, C_ALLNULL, NCOLS
};

static const pqw_column cols[NCOLS] = {
    [C_BOOL] = {"b", NULL, BF_PARQUET_BOOLEAN, 0, 0, -1, 0, 0, 0, PQW_BOOL, PQW_STATS_NEW, true},
    [C_I32] = {"i32", NULL, BF_PARQUET_INT32, 0, 1, -1, 0, 0, 0, PQW_SIGNED, PQW_STATS_NEW, true},
    [C_I8] = {"i8", NULL, BF_PARQUET_INT32, 0, 0, 15, 10, 8, 1, PQW_SIGNED, PQW_STATS_NEW, true},
    [C_U32] = {"u32", NULL, BF_PARQUET_INT32, 0, 1, 13, 10, 32, 0, PQW_UNSIGNED, PQW_STATS_NEW, true},
    [C_DATE] = {"date", NULL, BF_PARQUET_INT32, 0, 1, 6, 6, 0, 0, PQW_SIGNED, PQW_STATS_NEW, true},
    [C_TIME] = {"time", NULL, BF_PARQUET_INT32, 0, 1, 7, 7, 1, 1, PQW_SIGNED, PQW_STATS_NEW, true},
    [C_DEC32] = {"dec32", NULL, BF_PARQUET_INT32, 0, 1, 5, 5, 2, 9, PQW_SIGNED, PQW_STATS_NEW, true},
    [C_I64] = {"i64", NULL, BF_PARQUET_INT64, 0, 0, -1, 0, 0, 0, PQW_SIGNED, PQW_STATS_NEW, true},
    [C_U64] = {"u64", NULL, BF_PARQUET_INT64, 0, 1, 14, 0, 0, 0, PQW_UNSIGNED, PQW_STATS_NEW, true},
    [C_TS] = {"ts", NULL, BF_PARQUET_INT64, 0, 1, 10, 8, 2, 1, PQW_SIGNED, PQW_STATS_NEW, true},
    [C_I96] = {"i96", NULL, BF_PARQUET_INT96, 0, 1, -1, 0, 0, 0, PQW_BYTES, PQW_STATS_NEW, true},
    [C_FLOAT] = {"f", NULL, BF_PARQUET_FLOAT, 0, 1, -1, 0, 0, 0, PQW_FLOAT, PQW_STATS_NEW, true},
    [C_DOUBLE] = {"d", NULL, BF_PARQUET_DOUBLE, 0, 0, -1, 0, 0, 0, PQW_FLOAT, PQW_STATS_NEW, true},
    [C_STR] = {"s", NULL, BF_PARQUET_BYTE_ARRAY, 0, 1, 0, 1, 0, 0, PQW_BYTES, PQW_STATS_NEW, true},
    [C_BIN] = {"bin", NULL, BF_PARQUET_BYTE_ARRAY, 0, 1, -1, 0, 0, 0, PQW_BYTES, PQW_STATS_NEW, true},
    [C_UUID] = {"uuid", NULL, BF_PARQUET_FIXED_LEN_BYTE_ARRAY, 16, 1, -1, 14, 0, 0, PQW_BYTES,
                PQW_STATS_NEW, true},
    [C_DECF] = {"decf", NULL, BF_PARQUET_FIXED_LEN_BYTE_ARRAY, 8, 1, 5, 5, 3, 18, PQW_DECIMAL,
                PQW_STATS_NEW, true},
    [C_DECB] = {"decb", NULL, BF_PARQUET_BYTE_ARRAY, 0, 1, 5, 5, 2, 20, PQW_DECIMAL,
                PQW_STATS_NEW, true},
    [C_NESTED] = {"x", "g", BF_PARQUET_INT64, 0, 1, -1, 0, 0, 0, PQW_SIGNED, PQW_STATS_NEW, true},
    [C_DEP] = {"dep", NULL, BF_PARQUET_INT32, 0, 1, -1, 0, 0, 0, PQW_SIGNED, PQW_STATS_DEPRECATED,
               true},
    [C_DEPSTR] = {"depstr", NULL, BF_PARQUET_BYTE_ARRAY, 0, 1, 0, 1, 0, 0, PQW_BYTES,
                  PQW_STATS_DEPRECATED, true},
    [C_NOLEN] = {"nolen", NULL, BF_PARQUET_BYTE_ARRAY, 0, 1, 0, 1, 0, 0, PQW_BYTES, PQW_STATS_NEW,
                 true, true},
    [C_NOBLOOM] = {"nobloom", NULL, BF_PARQUET_INT32, 0, 1, -1, 0, 0, 0, PQW_SIGNED, PQW_STATS_NEW,
                   false},
    [C_ALLNULL] = {"allnull", NULL, BF_PARQUET_INT32, 0, 1, -1, 0, 0, 0, PQW_SIGNED, PQW_STATS_NEW,
                   true},
};

/* Whether statistics may prune this column (the spec's rules). */
static bool stats_valid(int c) {
    return c != C_I96 && c != C_DEPSTR; /* INT96: no order; deprecated byte-array stats */
}

/* The PLAIN value of column c for x (monotonic in x where the type has an
 * order; x = -1 is NaN for floats). Returns its length. */
static size_t value_of(int c, int x, uint8_t *b) {
    char tmp[32];
    switch (c) {
    case C_BOOL: b[0] = (uint8_t)(x & 1); return 1;
    case C_I32: case C_NOBLOOM: case C_ALLNULL: bf_store_le32(b, (uint32_t)(x * 3 - 200)); return 4;
    case C_DEP: bf_store_le32(b, (uint32_t)(x * 7 - 900)); return 4;
    case C_I8: bf_store_le32(b, (uint32_t)(x - 128)); return 4;
    case C_U32: bf_store_le32(b, 0x7fffff00u + (uint32_t)x * 4); return 4; /* crosses 2^31 */
    case C_DATE: bf_store_le32(b, (uint32_t)(19000 + x)); return 4;
    case C_TIME: bf_store_le32(b, (uint32_t)(x * 60000 + 123)); return 4;
    case C_DEC32: bf_store_le32(b, (uint32_t)(x * 125 - 10000)); return 4;
    case C_I64: case C_NESTED: bf_store_le64(b, (uint64_t)((int64_t)x * 1000000000000 - 100000000000000)); return 8;
    case C_U64: bf_store_le64(b, 0x7fffffffffffff00u + (uint64_t)x * 8); return 8;
    case C_TS: bf_store_le64(b, (uint64_t)(1700000000000000LL + (int64_t)x * 3600000000LL + 17)); return 8;
    case C_I96: bf_store_le64(b, (uint64_t)x * 1000000000u); bf_store_le32(b + 8, 2460000u + (uint32_t)x); return 12;
    case C_FLOAT: {
        float f = x < 0 ? NAN : x == 20 ? -0.0f : (float)x * 0.5f - 10.0f;
        uint32_t u;
        memcpy(&u, &f, 4);
        bf_store_le32(b, u);
        return 4;
    }
    case C_DOUBLE: {
        double d = x < 0 ? NAN : (double)x * 0.25 - 5.0;
        uint64_t u;
        memcpy(&u, &d, 8);
        bf_store_le64(b, u);
        return 8;
    }
    case C_STR: case C_DEPSTR: case C_NOLEN: {
        /* Past x = 191, a two-byte UTF-8 lead byte: above 's' unsigned, below signed. */
        int n = snprintf(tmp, sizeof tmp, x < 192 ? "s%04d" : "\xc3\xa9%04d", x);
        memcpy(b, tmp, (size_t)n);
        return (size_t)n;
    }
    case C_BIN: { uint32_t v = (uint32_t)x * 250u; b[0] = (uint8_t)(v >> 8); b[1] = (uint8_t)v; b[2] = 0x5a; return 3; }
    case C_UUID:
        for (int i = 0; i < 16; i++) b[i] = (uint8_t)(i < 2 ? (x * 250) >> (8 * (1 - i)) : 17 * i + x);
        return 16;
    case C_DECF: { int64_t v = ((int64_t)x - 128) * 1000003; for (int i = 0; i < 8; i++) b[i] = (uint8_t)((uint64_t)v >> (56 - 8 * i)); return 8; }
    case C_DECB: { /* minimal two's complement */
        int64_t v = ((int64_t)x - 128) * 100007;
        uint8_t full[8];
        for (int i = 0; i < 8; i++) full[i] = (uint8_t)((uint64_t)v >> (56 - 8 * i));
        int s = 0;
        while (s < 7 && ((full[s] == 0 && !(full[s + 1] & 0x80)) || (full[s] == 0xff && (full[s + 1] & 0x80)))) s++;
        memcpy(b, full + s, (size_t)(8 - s));
        return (size_t)(8 - s);
    }
    default: return 0;
    }
}

/* Row i of row group rg: its x, or -2 for a null. */
static int row_x(int c, int rg, int i) {
    if (c == C_BOOL) return rg == 0 ? 0 : rg == 1 ? 1 : i & 1; /* all false, all true, both */
    if (cols[c].repetition == 1 && i % 7 == 3) return -2;    /* some nulls */
    if (c == C_ALLNULL && rg == 2) return -2;                /* a chunk of nulls only */
    if (c == C_FLOAT && rg == 3 && i == 5) return -1;        /* a NaN */
    return rg * SPAN + 2 * i;
}

typedef struct written {
    thrift_writer w;
    pqw_chunk_pos pos[NRG * NCOLS];
    uint8_t store[NRG][NCOLS][ROWS][16];
    pqw_value vals[NRG][NCOLS][ROWS];
} written;

static int write_test_file(written *t, pqw_column *cs, size_t ncols) {
    const pqw_value *ptrs[NRG * NCOLS];
    size_t rows[NRG];
    for (int rg = 0; rg < NRG; rg++) {
        rows[rg] = ROWS;
        for (size_t c = 0; c < ncols; c++) {
            for (int i = 0; i < ROWS; i++) {
                int x = row_x((int)c, rg, i);
                pqw_value *v = &t->vals[rg][c][i];
                if (x == -2) {
                    v->p = NULL, v->len = 0;
                } else {
                    v->len = value_of((int)c, x, t->store[rg][c][i]);
                    v->p = t->store[rg][c][i];
                }
            }
            ptrs[rg * ncols + c] = t->vals[rg][c];
        }
    }
    pqw_file pf = {cs, ncols, NRG, rows, ptrs, NULL, false};
    thrift_writer_init(&t->w);
    return pqw_write(&t->w, &pf, t->pos);
}

static void dump(const char *name, const uint8_t *d, size_t n) {
    const char *dir = getenv("BF_PQ_DUMP");
    if (!dir) return;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    if (fp) {
        fwrite(d, 1, n, fp);
        fclose(fp);
    }
}

/* Whether x is a value row group rg holds in column c. */
static bool holds(int c, int rg, int x) {
    for (int i = 0; i < ROWS; i++)
        if (row_x(c, rg, i) == x) return true;
    return false;
}

static void written_file(void) {
    written *t = calloc(1, sizeof *t);
    pqw_column cs[NCOLS];
    memcpy(cs, cols, sizeof cs);
    int rc = write_test_file(t, cs, NCOLS);
    CHECK(rc == 0, "write: %d", rc);
    dump("all_types.parquet", t->w.buf, t->w.len);
    bf_parquet_file *f = NULL;
    rc = bf_parquet_open_buffer(&f, t->w.buf, t->w.len);
    CHECK(rc == BF_OK, "open written file: %s", bf_strerror(rc));
    if (rc) {
        thrift_writer_free(&t->w);
        free(t);
        return;
    }
    CHECK(bf_parquet_num_columns(f) == NCOLS && bf_parquet_num_row_groups(f) == NRG &&
              bf_parquet_num_rows(f) == NRG * ROWS,
          "shape %zu cols %zu rgs", bf_parquet_num_columns(f), bf_parquet_num_row_groups(f));

    /* Schema as written. */
    static const struct { int col; bf_parquet_logical lt; bf_parquet_order order; } want[] = {
        {C_BOOL, BF_PARQUET_LT_NONE, BF_PARQUET_ORDER_BOOLEAN},
        {C_I8, BF_PARQUET_LT_INTEGER, BF_PARQUET_ORDER_SIGNED},
        {C_U32, BF_PARQUET_LT_INTEGER, BF_PARQUET_ORDER_UNSIGNED},
        {C_U64, BF_PARQUET_LT_INTEGER, BF_PARQUET_ORDER_UNSIGNED}, /* from UINT_64 alone */
        {C_DATE, BF_PARQUET_LT_DATE, BF_PARQUET_ORDER_SIGNED},
        {C_TS, BF_PARQUET_LT_TIMESTAMP, BF_PARQUET_ORDER_SIGNED},
        {C_I96, BF_PARQUET_LT_NONE, BF_PARQUET_ORDER_NONE},
        {C_FLOAT, BF_PARQUET_LT_NONE, BF_PARQUET_ORDER_FLOAT},
        {C_STR, BF_PARQUET_LT_STRING, BF_PARQUET_ORDER_UNSIGNED},
        {C_UUID, BF_PARQUET_LT_UUID, BF_PARQUET_ORDER_UNSIGNED},
        {C_DECF, BF_PARQUET_LT_DECIMAL, BF_PARQUET_ORDER_SIGNED},
        {C_DECB, BF_PARQUET_LT_DECIMAL, BF_PARQUET_ORDER_SIGNED},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        bf_parquet_column ci;
        bf_parquet_column_info(f, (size_t)want[i].col, &ci);
        CHECK(ci.logical_type == want[i].lt && ci.order == want[i].order &&
                  (int)ci.physical_type == cols[want[i].col].type,
              "column %s: %s %s", ci.path, bf_parquet_logical_name(ci.logical_type),
              bf_parquet_order_name(ci.order));
    }
    bf_parquet_column ci;
    size_t idx = 99;
    CHECK(bf_parquet_find_column(f, "g.x", &idx) == BF_OK && idx == C_NESTED, "nested path g.x");
    bf_parquet_column_info(f, C_NESTED, &ci);
    CHECK(strcmp(ci.name, "x") == 0 && ci.max_definition_level == 2, "nested levels");
    CHECK(bf_parquet_find_column(f, "g", &idx) == BF_ENOCOLUMN, "a group is not a column");
    bf_parquet_column_info(f, C_DECF, &ci);
    CHECK(ci.scale == 3 && ci.precision == 18 && ci.type_length == 8, "decimal parameters");
    bf_parquet_column_info(f, C_TS, &ci);
    CHECK(ci.time_unit == 2 && ci.adjusted_to_utc, "timestamp unit");
    bf_parquet_column_info(f, C_I8, &ci);
    CHECK(ci.bit_width == 8 && ci.is_signed && ci.converted_type == 15, "int8");

    /* Chunk metadata and filters. */
    int meta_ok = 1;
    for (int rg = 0; rg < NRG; rg++)
        for (int c = 0; c < NCOLS; c++) {
            bf_parquet_chunk k;
            const pqw_chunk_pos *p = &t->pos[rg * NCOLS + c];
            bf_parquet_chunk_info(f, (size_t)rg, (size_t)c, &k);
            meta_ok &= k.num_values == ROWS && k.null_count == p->stats.nulls &&
                       k.distinct_count == p->stats.distinct && k.data_page_offset == p->data_offset;
            meta_ok &= k.stats_deprecated == (c == C_DEP || c == C_DEPSTR);
            meta_ok &= k.stats_usable == (stats_valid(c) && p->stats.has_minmax);
            meta_ok &= (k.bloom_filter_length < 0) == (c == C_NOLEN || !cols[c].bloom);
            uint64_t off, len, nb;
            int r2 = bf_parquet_bloom_filter_location(f, (size_t)rg, (size_t)c, &off, &len, &nb);
            if (cols[c].bloom)
                meta_ok &= r2 == BF_OK && (int64_t)off == p->bloom_offset &&
                           (int64_t)len == p->bloom_length;
            else
                meta_ok &= r2 == BF_ENOFILTER;
            if (!meta_ok) {
                CHECK(0, "chunk rg %d col %d: %s", rg, c, bf_strerror(r2));
                meta_ok = 1;
            }
        }
    CHECK(meta_ok, "chunk metadata");

    /* Probes: every x in [0, NRG * SPAN), and NaN for floats. */
    int fn = 0, stats_wrong = 0, bloom_in = 0, bloom_skip = 0, nobloom_skip = 0, batch_bad = 0;
    uint8_t out[NRG], bout[NRG * (NRG * SPAN + 1)];
    for (int c = 0; c < NCOLS; c++) {
        static uint8_t vb[NRG * SPAN + 1][16];
        const void *vp[NRG * SPAN + 1];
        size_t vl[NRG * SPAN + 1], n = 0;
        int xs[NRG * SPAN + 1];
        for (int x = (c == C_FLOAT || c == C_DOUBLE) ? -1 : 0; x < NRG * SPAN; x++) {
            if (c == C_BOOL && x > 1) break;
            xs[n] = x;
            vl[n] = value_of(c, x, vb[n]);
            vp[n] = vb[n];
            n++;
        }
        rc = bf_parquet_probe_batch(f, (size_t)c, vp, vl, n, 0, bout);
        CHECK(rc == BF_OK, "batch col %d: %s", c, bf_strerror(rc));
        for (size_t i = 0; i < n; i++) {
            int x = xs[i];
            rc = bf_parquet_probe(f, (size_t)c, vp[i], vl[i], 0, out, NULL);
            for (int rg = 0; rg < NRG; rg++) {
                uint8_t v = out[rg];
                batch_bad += bout[(size_t)rg * n + i] != v;
                const pqw_chunk_pos *p = &t->pos[rg * NCOLS + c];
                pqw_value pv = {vp[i], vl[i]};
                if (holds(c, rg, x)) {
                    if (v != BF_PARQUET_MAYBE) {
                        fn++;
                        if (fn < 5) fprintf(stderr, "false skip: col %d rg %d x %d: %s\n", c, rg, x, bf_parquet_verdict_name(v));
                    }
                    continue;
                }
                if (c == C_ALLNULL && rg == 2) {
                    stats_wrong += v != BF_PARQUET_SKIP_EMPTY;
                    continue;
                }
                bool nan = (c == C_FLOAT || c == C_DOUBLE) && x == -1;
                bool out_of_range = !nan && stats_valid(c) && p->stats.has_minmax &&
                                    (pqw_cmp(&cols[c], &pv, &p->stats.min) < 0 ||
                                     pqw_cmp(&cols[c], &pv, &p->stats.max) > 0);
                if (out_of_range != (v == BF_PARQUET_SKIP_STATS)) {
                    stats_wrong++;
                    if (stats_wrong < 5)
                        fprintf(stderr, "stats: col %d rg %d x %d: %s\n", c, rg, x,
                                bf_parquet_verdict_name(v));
                }
                if (out_of_range) continue;
                if (nan) {
                    fn += v != BF_PARQUET_MAYBE; /* NaN is never pruned */
                    continue;
                }
                if (!cols[c].bloom) {
                    nobloom_skip += v != BF_PARQUET_MAYBE;
                    continue;
                }
                bloom_in++;
                bloom_skip += v == BF_PARQUET_SKIP_BLOOM;
            }
        }
    }
    CHECK(fn == 0, "%d present values skipped", fn);
    CHECK(stats_wrong == 0, "%d statistics verdicts differ from the writer's comparison", stats_wrong);
    CHECK(nobloom_skip == 0, "%d skips without a filter", nobloom_skip);
    CHECK(batch_bad == 0, "%d batch verdicts differ from single probes", batch_bad);
    CHECK(bloom_in > 1000 && bloom_skip >= bloom_in * 9 / 10,
          "filters skip %d of %d absent in-range probes", bloom_skip, bloom_in);

    /* Floating-point zeros: -0.0 is stored; +0.0 must still be "maybe". */
    uint8_t pz[4] = {0, 0, 0, 0};
    bf_parquet_probe(f, C_FLOAT, pz, 4, 0, out, NULL);
    CHECK(out[0] == BF_PARQUET_MAYBE, "+0.0 finds -0.0 (%s)", bf_parquet_verdict_name(out[0]));
    bf_parquet_probe(f, C_FLOAT, pz, 4, BF_PARQUET_NO_STATS, out, NULL);
    CHECK(out[0] == BF_PARQUET_MAYBE, "+0.0 finds -0.0 in the filter alone");

    /* Packed batch of INT64 agrees with the pointer form. */
    {
        uint8_t packed[8 * 100];
        const void *pp[100];
        for (int i = 0; i < 100; i++) {
            value_of(C_I64, i * 2 + 1, packed + 8 * i);
            pp[i] = packed + 8 * i;
        }
        uint8_t o1[NRG * 100], o2[NRG * 100];
        CHECK(bf_parquet_probe_batch_packed(f, C_I64, packed, 100, 0, o1) == BF_OK &&
                  bf_parquet_probe_batch(f, C_I64, pp, NULL, 100, 0, o2) == BF_OK &&
                  memcmp(o1, o2, sizeof o1) == 0,
              "packed batch");
        CHECK(bf_parquet_probe_batch_packed(f, C_STR, packed, 10, 0, o1) == BF_EINVAL,
              "packed batch needs a fixed width");
    }
    /* Bad values and arguments. */
    CHECK(bf_parquet_probe(f, C_I32, pz, 3, 0, out, NULL) == BF_EINVAL, "INT32 of 3 bytes");
    uint8_t two = 2;
    CHECK(bf_parquet_probe(f, C_BOOL, &two, 1, 0, out, NULL) == BF_EINVAL, "boolean 2");
    CHECK(bf_parquet_probe(f, NCOLS, pz, 4, 0, out, NULL) == BF_ENOCOLUMN, "column past the end");
    uint64_t h;
    CHECK(bf_parquet_hash_value(f, C_I32, pz, 4, &h) == BF_OK && h == bf_hash_int32(0),
          "INT32 hash is Parquet's");

    /* Text round trips of every statistic. */
    int text_bad = 0;
    for (int c = 0; c < NCOLS; c++) {
        if (c == C_I96 || c == C_BIN) continue; /* INT96 written from text only; hex below */
        for (int rg = 0; rg < NRG; rg++) {
            bf_parquet_chunk k;
            bf_parquet_chunk_info(f, (size_t)rg, (size_t)c, &k);
            if (!k.has_min) continue;
            char txt[128];
            uint8_t back[64];
            size_t tl, bl;
            int r1 = bf_parquet_value_to_text(f, (size_t)c, k.min, k.min_len, 0, txt, sizeof txt, &tl);
            int r2 = r1 ? r1 : bf_parquet_value_from_text(f, (size_t)c, txt, tl, 0, back, sizeof back, &bl);
            if (r2 || bl != k.min_len || memcmp(back, k.min, bl) != 0) {
                if (text_bad++ < 5) fprintf(stderr, "text: col %d '%s' (%s)\n", c, txt, bf_strerror(r2));
            }
        }
    }
    CHECK(text_bad == 0, "%d statistics do not survive text", text_bad);

    /* Damaged files: a filter whose header names another algorithm; an
     * encrypted column; offsets past the data. */
    uint8_t *cp = malloc(t->w.len);
    memcpy(cp, t->w.buf, t->w.len);
    const pqw_chunk_pos *p = &t->pos[1 * NCOLS + C_STR];
    /* Header: 0x15 varint(numBytes) 0x2c 0x1c ... : point the algorithm
     * union at member 2. */
    size_t hb = (size_t)p->bloom_offset + 1;
    while (cp[hb] & 0x80) hb++;
    hb++;
    CHECK(cp[hb] == 0x1c && cp[hb + 1] == 0x1c, "filter header layout");
    cp[hb + 1] = 0x2c;
    bf_parquet_file *g = NULL;
    rc = bf_parquet_open_buffer(&g, cp, t->w.len);
    CHECK(rc == BF_OK, "open with a damaged filter: %s", bf_strerror(rc));
    if (g) {
        bf_sbbf *v = NULL;
        CHECK(bf_parquet_bloom_filter(g, 1, C_STR, &v) == BF_EUNSUPPORTED && !v,
              "unknown algorithm: %s", bf_strerror(bf_parquet_bloom_filter(g, 1, C_STR, &v)));
        uint8_t val[16];
        size_t vl = value_of(C_STR, SPAN + 1, val); /* absent, inside rg 1's range */
        CHECK(bf_parquet_probe(g, C_STR, val, vl, 0, out, NULL) == BF_OK &&
                  out[1] == BF_PARQUET_MAYBE,
              "an unusable filter never skips");
        CHECK(bf_parquet_probe(g, C_STR, val, vl, BF_PARQUET_STRICT, out, NULL) == BF_EUNSUPPORTED,
              "strict probing reports it");
        bf_parquet_close(g);
    }
    free(cp);

    pqw_column cs2[NCOLS];
    memcpy(cs2, cols, sizeof cs2);
    cs2[C_I32].crypto = true;
    cs2[C_I64].bloom_offset_fake = (int64_t)1 << 40; /* past the end */
    cs2[C_DOUBLE].bloom_length_fake = 1 << 30;        /* longer than the file */
    cs2[C_STR].bloom_offset_fake = 2;                 /* inside the magic */
    written *t2 = calloc(1, sizeof *t2);
    write_test_file(t2, cs2, NCOLS);
    rc = bf_parquet_open_buffer(&g, t2->w.buf, t2->w.len);
    CHECK(rc == BF_OK, "open with bad offsets: %s", bf_strerror(rc));
    if (rc == BF_OK) {
        bf_sbbf *v = NULL;
        CHECK(bf_parquet_bloom_filter(g, 0, C_I32, &v) == BF_EENCRYPTED, "encrypted column");
        CHECK(bf_parquet_bloom_filter(g, 0, C_I64, &v) == BF_ECORRUPT, "offset past the end");
        CHECK(bf_parquet_bloom_filter(g, 0, C_DOUBLE, &v) == BF_ECORRUPT, "length past the end");
        CHECK(bf_parquet_bloom_filter(g, 0, C_STR, &v) == BF_ECORRUPT, "offset in the magic");
        bf_parquet_chunk k;
        bf_parquet_chunk_info(g, 0, C_I32, &k);
        CHECK(k.encrypted && !k.stats_usable, "encrypted chunk: no statistics pruning");
        static const int bad_cols[] = {C_I32, C_I64, C_DOUBLE, C_STR};
        for (int i = 0; i < 4; i++) {
            uint8_t val[16];
            size_t vl = value_of(bad_cols[i], 3, val); /* absent, inside rg 0's range */
            int r1 = bf_parquet_probe(g, (size_t)bad_cols[i], val, vl, 0, out, NULL);
            CHECK(r1 == BF_OK && out[0] == BF_PARQUET_MAYBE, "bad filter %d: maybe", bad_cols[i]);
            r1 = bf_parquet_probe(g, (size_t)bad_cols[i], val, vl, BF_PARQUET_STRICT, out, NULL);
            CHECK(r1 < 0, "bad filter %d: strict fails", bad_cols[i]);
        }
        bf_parquet_close(g);
    }
    truncations_and_flips(t->w.buf, t->w.len > 6000 ? 6000 : t->w.len, "written (prefix)");
    {
        /* Every truncation of the whole written file, from the end. */
        int bad = 0;
        for (size_t n = t->w.len > 4000 ? t->w.len - 4000 : 0; n < t->w.len; n++) {
            uint8_t *c2 = malloc(n);
            memcpy(c2, t->w.buf, n);
            bf_parquet_file *h2 = NULL;
            bad += bf_parquet_open_buffer(&h2, c2, n) >= 0;
            bf_parquet_close(h2);
            free(c2);
        }
        CHECK(bad == 0, "written: %d truncations accepted", bad);
        truncations_and_flips(t->w.buf, t->w.len, "written");
    }
    thrift_writer_free(&t2->w);
    free(t2);
    bf_parquet_close(f);
    thrift_writer_free(&t->w);
    free(t);
}

/* Text forms by logical type. */
static void text_forms(void) {
    written *t = calloc(1, sizeof *t);
    pqw_column cs[NCOLS];
    memcpy(cs, cols, sizeof cs);
    write_test_file(t, cs, NCOLS);
    bf_parquet_file *f = NULL;
    if (bf_parquet_open_buffer(&f, t->w.buf, t->w.len) != BF_OK) {
        CHECK(0, "open");
        free(t);
        return;
    }
    static const struct { int col; const char *in; const char *out; const char *json; } cases[] = {
        {C_BOOL, "true", "true", "true"},
        {C_I32, "-200", "-200", "-200"},
        {C_I8, "127", "127", "127"},
        {C_U32, "4294967295", "4294967295", "4294967295"},
        {C_DATE, "2022-01-08", "2022-01-08", "\"2022-01-08\""},
        {C_DATE, "1969-12-31", "1969-12-31", "\"1969-12-31\""},
        {C_TIME, "01:02:03.004", "01:02:03.004", "\"01:02:03.004\""},
        {C_DEC32, "-1.5", "-1.50", "-1.50"},
        {C_DEC32, "0.05", "0.05", "0.05"},
        {C_U64, "18446744073709551615", "18446744073709551615", "18446744073709551615"},
        {C_TS, "2023-11-14T22:13:20.000017Z", "2023-11-14T22:13:20.000017Z", "\"2023-11-14T22:13:20.000017Z\""},
        {C_TS, "2023-11-15T00:13:20+02:00", "2023-11-14T22:13:20Z", "\"2023-11-14T22:13:20Z\""},
        {C_I96, "2000-01-01 00:00:01.5", "2000-01-01T00:00:01.500000000", "\"2000-01-01T00:00:01.500000000\""},
        {C_FLOAT, "0.1", "0.1", "0.1"},
        {C_DOUBLE, "nan", "nan", "\"NaN\""},
        {C_DOUBLE, "-inf", "-inf", "\"-Infinity\""},
        {C_STR, "a\"b\\c\n", "a\"b\\c\n", "\"a\\\"b\\\\c\\n\""},
        {C_UUID, "00112233-4455-6677-8899-aabbccddeeff", "00112233-4455-6677-8899-aabbccddeeff", "\"00112233-4455-6677-8899-aabbccddeeff\""},
        {C_DECF, "-123456789012345.678", "-123456789012345.678", "-123456789012345.678"},
        {C_DECB, "123456789012345678.99", "123456789012345678.99", "123456789012345678.99"},
        {C_DECB, "-0.01", "-0.01", "-0.01"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint8_t buf[64];
        size_t bl = 0, tl = 0;
        char txt[128], js[128];
        int r1 = bf_parquet_value_from_text(f, (size_t)cases[i].col, cases[i].in,
                                            strlen(cases[i].in), 0, buf, sizeof buf, &bl);
        int r2 = r1 ? r1 : bf_parquet_value_to_text(f, (size_t)cases[i].col, buf, bl, 0, txt, sizeof txt, &tl);
        int r3 = r2 ? r2 : bf_parquet_value_to_text(f, (size_t)cases[i].col, buf, bl, BF_PARQUET_TEXT_JSON, js, sizeof js, &tl);
        CHECK(r3 == BF_OK && strcmp(txt, cases[i].out) == 0 && strcmp(js, cases[i].json) == 0,
              "'%s' -> '%s' / %s (%s)", cases[i].in, r2 ? "" : txt, r3 ? "" : js, bf_strerror(r3));
    }
    static const struct { int col; const char *in; } bad[] = {
        {C_BOOL, "yes"}, {C_I8, "128"}, {C_I8, "-129"}, {C_U32, "-1"}, {C_U32, "4294967296"},
        {C_I32, "2147483648"}, {C_I32, " 1"}, {C_I32, "1x"}, {C_DATE, "2023-02-29"},
        {C_DATE, "2023-13-01"}, {C_TIME, "24:00:00"}, {C_TIME, "01:02:03.0041"},
        {C_DEC32, "1.234"}, {C_DEC32, "99999999999"}, {C_DECF, "1e5"}, {C_UUID, "0011"},
        {C_FLOAT, ""}, {C_DOUBLE, "1.5abc"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        uint8_t buf[64];
        size_t bl;
        int r = bf_parquet_value_from_text(f, (size_t)bad[i].col, bad[i].in, strlen(bad[i].in), 0,
                                           buf, sizeof buf, &bl);
        CHECK(r == BF_EINVAL, "'%s' refused for column %d (%s)", bad[i].in, bad[i].col, bf_strerror(r));
    }
    /* Hex input and output; small buffers. */
    uint8_t buf[8];
    size_t bl = 0, tl = 0;
    CHECK(bf_parquet_value_from_text(f, C_BIN, "0x00fa5a", 8, BF_PARQUET_TEXT_HEX, buf, sizeof buf, &bl) == BF_OK &&
              bl == 3 && buf[1] == 0xfa,
          "hex input");
    char small[4];
    CHECK(bf_parquet_value_to_text(f, C_BIN, buf, 3, 0, small, sizeof small, &tl) == BF_EBUFSIZE &&
              tl == 8 && small[3] == '\0',
          "small output buffer: %zu", tl);
    CHECK(bf_parquet_value_from_text(f, C_STR, "hello", 5, 0, buf, 2, &bl) == BF_EBUFSIZE && bl == 5,
          "small value buffer");
    /* Names. */
    CHECK(strcmp(bf_parquet_type_name(BF_PARQUET_FIXED_LEN_BYTE_ARRAY), "FIXED_LEN_BYTE_ARRAY") == 0 &&
              strcmp(bf_parquet_codec_name(6), "ZSTD") == 0 && strcmp(bf_parquet_codec_name(99), "?") == 0 &&
              strcmp(bf_parquet_logical_name(BF_PARQUET_LT_OTHER), "OTHER") == 0 &&
              strcmp(bf_parquet_verdict_name(BF_PARQUET_SKIP_BLOOM), "skip-bloom") == 0 &&
              strcmp(bf_strerror(BF_EENCRYPTED), "unknown status") != 0 &&
              strcmp(bf_strerror(BF_ENOFILTER), "unknown status") != 0 &&
              strcmp(bf_strerror(BF_ENOCOLUMN), "unknown status") != 0,
          "names");
    bf_parquet_close(f);
    thrift_writer_free(&t->w);
    free(t);
}

/* ------------------------------------------------------------------------ */
/* Batches across tiles                                                      */
/* ------------------------------------------------------------------------ */

/* Batch probes run a tile (PQ_TILE values) at a time, with shortcuts per
 * tile and row group: every value inside the statistics, every value
 * outside, or only the values outside the range all row groups share
 * checked. Here row groups overlap (rg holds x = 20 rg + 3 i), and batches
 * made of whole tiles of each shape must answer exactly as single probes. */
#define TB_NRG 5
#define TB_ROWS 200
static int tb_row_x(int c, int rg, int i) {
    if (c == C_BOOL) return rg == 0 ? 0 : rg == 1 ? 1 : i & 1;
    if (cols[c].repetition == 1 && i % 7 == 3) return -2;
    if (c == C_ALLNULL && rg == 2) return -2;
    if (c == C_FLOAT && rg == 3 && i == 5) return -1; /* NaN */
    return rg * 20 + 3 * i;
}

static void tiled_batches(void) {
    static const int tcols[] = {C_BOOL, C_I32, C_U32, C_DATE, C_I64, C_U64, C_I96, C_FLOAT,
                                C_DOUBLE, C_STR, C_UUID, C_DECF, C_DECB, C_DEP, C_DEPSTR,
                                C_NOBLOOM, C_ALLNULL};
    enum { NT = sizeof tcols / sizeof *tcols };
    pqw_column cs[NT];
    uint8_t(*store)[16] = calloc((size_t)TB_NRG * NT * TB_ROWS, 16);
    pqw_value *vals = calloc((size_t)TB_NRG * NT * TB_ROWS, sizeof *vals);
    const pqw_value *ptrs[TB_NRG * NT];
    size_t rows[TB_NRG];
    for (int j = 0; j < NT; j++) cs[j] = cols[tcols[j]];
    for (int rg = 0; rg < TB_NRG; rg++) {
        rows[rg] = TB_ROWS;
        for (int j = 0; j < NT; j++) {
            pqw_value *v = vals + ((size_t)rg * NT + (size_t)j) * TB_ROWS;
            for (int i = 0; i < TB_ROWS; i++) {
                int x = tb_row_x(tcols[j], rg, i);
                uint8_t *b = store[((size_t)rg * NT + (size_t)j) * TB_ROWS + (size_t)i];
                v[i].p = x == -2 ? NULL : b;
                v[i].len = x == -2 ? 0 : value_of(tcols[j], x, b);
            }
            ptrs[rg * NT + j] = v;
        }
    }
    pqw_file pf = {cs, NT, TB_NRG, rows, ptrs, NULL, false};
    thrift_writer w;
    thrift_writer_init(&w);
    int rc = pqw_write(&w, &pf, NULL);
    bf_parquet_file *f = NULL;
    if (rc == 0) rc = bf_parquet_open_buffer(&f, w.buf, w.len);
    CHECK(rc == 0, "tiled: write and open: %d", rc);
    /* Row group 1's floating-point minimum is a zero, written as -0 (the
     * spec's rule). Make it +0, as a writer that ignores the rule would:
     * -0 must still compare equal to it. The statistics point into w.buf;
     * the file is opened again after the change. */
    for (int j = 0; f && j < NT; j++) {
        bf_parquet_chunk k;
        if ((tcols[j] != C_FLOAT && tcols[j] != C_DOUBLE) ||
            bf_parquet_chunk_info(f, 1, (size_t)j, &k) != BF_OK || !k.has_min)
            continue;
        uint8_t *m = (uint8_t *)(uintptr_t)k.min;
        CHECK(m[k.min_len - 1] == 0x80, "tiled: row group 1's minimum of %s is -0", cs[j].name);
        m[k.min_len - 1] = 0;
    }
    bf_parquet_close(f);
    f = NULL;
    if (rc == 0) rc = bf_parquet_open_buffer(&f, w.buf, w.len);
    CHECK(rc == 0, "tiled: open again: %d", rc);

    /* Tiles of five shapes, then a short tail: x anywhere (-1 is NaN for
     * floats, -2 the zero of the other sign from the one row group 1's
     * minimum has, both 600 for the others), inside the range all row
     * groups share,
     * [80, 597], with a few outside it; inside it only; above row group 0
     * (with a few NaNs, which are never outside); above every row group or
     * anywhere. */
    const size_t T = PQ_TILE, n = 5 * T + 100;
    int *xs = malloc(n * sizeof *xs);
    uint8_t(*vb)[16] = malloc(n * 16);
    const void **vp = malloc(n * sizeof *vp);
    size_t *vl = malloc(n * sizeof *vl);
    uint8_t *bout = malloc(n * TB_NRG), one[TB_NRG];
    uint64_t s = 7;
    for (size_t i = 0; i < n; i++) {
        s = s * 6364136223846793005u + 1442695040888963407u;
        uint32_t r = (uint32_t)(s >> 33);
        switch (i / T) {
        case 0: xs[i] = r % 50 == 1 ? -2 : (int)(r % 700) - 1; break;
        case 1: xs[i] = r % 50 == 0 ? (int)(r % 700) - 1 : 80 + (int)(r % 518); break;
        case 2: xs[i] = 80 + (int)(r % 518); break;
        case 3: xs[i] = r % 64 == 0 ? -1 : 600 + (int)(r % 80); break;
        default: xs[i] = r % 2 ? 2000 + (int)(r % 100) : (int)(r % 700); break;
        }
    }
    int bad = 0, checked = 0;
    static const unsigned flag_sets[] = {0, BF_PARQUET_NO_STATS, BF_PARQUET_NO_BLOOM};
    for (int j = 0; f && j < NT; j++) {
        int c = tcols[j];
        for (size_t i = 0; i < n; i++) {
            int x = xs[i];
            if (c == C_BOOL) x = x & 1;
            else if (x < 0 && c != C_FLOAT && c != C_DOUBLE) x = 600;
            if (x == -2) { /* row group 1's minimum is x = 20: -0.0f, +0.0 */
                vl[i] = value_of(c, 20, vb[i]);
                vb[i][vl[i] - 1] ^= 0x80;
            } else {
                vl[i] = value_of(c, x, vb[i]);
            }
            vp[i] = vb[i];
        }
        for (size_t fs = 0; fs < sizeof flag_sets / sizeof *flag_sets; fs++) {
            rc = bf_parquet_probe_batch(f, (size_t)j, vp, vl, n, flag_sets[fs], bout);
            CHECK(rc == BF_OK, "tiled: batch col %s: %s", cs[j].name, bf_strerror(rc));
            for (size_t i = 0; i < n && rc == BF_OK; i++) {
                bf_parquet_probe(f, (size_t)j, vp[i], vl[i], flag_sets[fs], one, NULL);
                for (int rg = 0; rg < TB_NRG; rg++) {
                    checked++;
                    if (bout[(size_t)rg * n + i] != one[rg] && bad++ < 5)
                        fprintf(stderr, "tiled: col %s flags %u value %zu (x %d) rg %d: batch %s, single %s\n",
                                cs[j].name, flag_sets[fs], i, xs[i], rg,
                                bf_parquet_verdict_name(bout[(size_t)rg * n + i]),
                                bf_parquet_verdict_name(one[rg]));
                }
            }
        }
    }
    CHECK(bad == 0 && checked > 0, "tiled: %d of %d batch verdicts differ from single probes",
          bad, checked);
    /* The packed form cuts the same tiles. */
    if (f) {
        uint8_t *packed = malloc(n * 8), *o2 = malloc(n * TB_NRG);
        size_t j64 = 4; /* C_I64 in tcols */
        for (size_t i = 0; i < n; i++) value_of(C_I64, xs[i] < 0 ? 0 : xs[i], packed + 8 * i);
        for (size_t i = 0; i < n; i++) vp[i] = packed + 8 * i;
        CHECK(tcols[j64] == C_I64 &&
                  bf_parquet_probe_batch_packed(f, j64, packed, n, 0, bout) == BF_OK &&
                  bf_parquet_probe_batch(f, j64, vp, NULL, n, 0, o2) == BF_OK &&
                  memcmp(bout, o2, n * TB_NRG) == 0,
              "tiled: packed batch");
        free(packed);
        free(o2);
    }
    free(xs), free(vb), free(vp), free(vl), free(bout), free(store), free(vals);
    bf_parquet_close(f);
    thrift_writer_free(&w);
}

int main(void) {
    const char *forced = getenv("BLOCKFILTER_KERNEL");
    if (forced && *forced && !bf_sbbf_kernel_supported(forced)) {
        printf("kernel %s not supported here: skipped\n", forced);
        return 77;
    }
    thrift_writer_vectors();
    thrift_reader_limits();
    real_files();
    duckdb_file();
    written_file();
    tiled_batches();
    text_forms();
    printf("%lu passed, %lu failed\n", passed, failed);
    return failed ? 1 : 0;
}
