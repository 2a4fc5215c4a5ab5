/*
 * blockfilter Parquet files: open a Parquet file (or a buffer holding one),
 * read its footer, columns, row groups and column-chunk statistics, get a
 * column chunk's Bloom filter as a zero-copy bf_sbbf view, and prune row
 * groups for a value by statistics and Bloom filter. Includes the core
 * (blockfilter.h). docs/parquet.md is the guide, docs/headers.md says what
 * this header promises across versions.
 *
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef BLOCKFILTER_PARQUET_H
#define BLOCKFILTER_PARQUET_H

#include "blockfilter.h"

#ifdef __cplusplus
extern "C" {
#endif


/*
 * A Parquet file opened read-only: the footer (FileMetaData) is parsed once
 * at open with a bounded Thrift-compact reader; everything below reads from
 * that parse and from the file's bytes, which stay mapped (or, for
 * bf_parquet_open_buffer, stay the caller's) until bf_parquet_close. No
 * call copies a Bloom filter: they are read-only SBBF views into the file.
 *
 * A bf_parquet_file is immutable after open: any number of threads may call
 * the query functions on one file at the same time.
 *
 * Errors: BF_EFORMAT (no "PAR1" at both ends, bad Thrift), BF_EENCRYPTED
 * ("PARE" footer; an encrypted column's filter), BF_ETRUNCATED (footer
 * length larger than the file), BF_ECORRUPT (fields inconsistent with each
 * other or the file: a filter past the end, a schema that does not match
 * the row groups), BF_ETOOBIG (a metadata limit), BF_EUNSUPPORTED (a filter
 * of an unknown algorithm, hash or compression; a column chunk in another
 * file), BF_ENOFILTER, BF_ENOCOLUMN, BF_EIO (with errno), BF_ENOMEM.
 * See docs/parquet.md.
 */
typedef struct bf_parquet_file bf_parquet_file;

/* Physical types (the values of Parquet's Type enum). */
typedef enum bf_parquet_type {
    BF_PARQUET_BOOLEAN = 0,
    BF_PARQUET_INT32 = 1,
    BF_PARQUET_INT64 = 2,
    BF_PARQUET_INT96 = 3,
    BF_PARQUET_FLOAT = 4,
    BF_PARQUET_DOUBLE = 5,
    BF_PARQUET_BYTE_ARRAY = 6,
    BF_PARQUET_FIXED_LEN_BYTE_ARRAY = 7
} bf_parquet_type;

/* Logical types: the field ids of Parquet's LogicalType union. A column
 * with only a (legacy) converted type gets the logical type it stands for
 * (UTF8 -> STRING, INT_8 -> INTEGER(8, signed), TIMESTAMP_MILLIS ->
 * TIMESTAMP(MILLIS, UTC), ...); INTERVAL, which has no LogicalType member,
 * is BF_PARQUET_LT_INTERVAL. */
typedef enum bf_parquet_logical {
    BF_PARQUET_LT_NONE = 0,
    BF_PARQUET_LT_STRING = 1,
    BF_PARQUET_LT_MAP = 2,
    BF_PARQUET_LT_LIST = 3,
    BF_PARQUET_LT_ENUM = 4,
    BF_PARQUET_LT_DECIMAL = 5,
    BF_PARQUET_LT_DATE = 6,
    BF_PARQUET_LT_TIME = 7,
    BF_PARQUET_LT_TIMESTAMP = 8,
    BF_PARQUET_LT_INTERVAL = 9,
    BF_PARQUET_LT_INTEGER = 10,
    BF_PARQUET_LT_UNKNOWN = 11, /* always null */
    BF_PARQUET_LT_JSON = 12,
    BF_PARQUET_LT_BSON = 13,
    BF_PARQUET_LT_UUID = 14,
    BF_PARQUET_LT_FLOAT16 = 15,
    BF_PARQUET_LT_VARIANT = 16,
    BF_PARQUET_LT_GEOMETRY = 17,
    BF_PARQUET_LT_GEOGRAPHY = 18,
    BF_PARQUET_LT_OTHER = 255   /* a LogicalType member this library does not know */
} bf_parquet_logical;

/* The order min/max statistics are compared in, as this library applies
 * it to prune (NONE: statistics are never used for this column). */
typedef enum bf_parquet_order {
    BF_PARQUET_ORDER_NONE = 0,
    BF_PARQUET_ORDER_SIGNED = 1,    /* integers, DATE, TIME, TIMESTAMP, DECIMAL */
    BF_PARQUET_ORDER_UNSIGNED = 2,  /* unsigned integers; byte strings, byte-wise */
    BF_PARQUET_ORDER_FLOAT = 3,     /* FLOAT, DOUBLE: numeric, NaN ignored */
    BF_PARQUET_ORDER_BOOLEAN = 4    /* false < true */
} bf_parquet_order;

/* A leaf column of the schema. Strings belong to the file. */
typedef struct bf_parquet_column {
    const char *path;        /* dotted path from the root, e.g. "a.b.c" */
    const char *name;        /* the leaf's own name */
    bf_parquet_type physical_type;
    int32_t type_length;     /* FIXED_LEN_BYTE_ARRAY width; else 0 */
    int repetition;          /* 0 REQUIRED, 1 OPTIONAL, 2 REPEATED */
    int max_definition_level;
    int max_repetition_level;
    bf_parquet_logical logical_type;
    int converted_type;      /* Parquet's ConvertedType, -1 if absent */
    int32_t scale, precision;/* DECIMAL; else 0 */
    int bit_width;           /* INTEGER: 8, 16, 32, 64; else 0 */
    bool is_signed;          /* INTEGER */
    int time_unit;           /* TIME, TIMESTAMP: 1 millis, 2 micros, 3 nanos */
    bool adjusted_to_utc;    /* TIME, TIMESTAMP */
    bf_parquet_order order;  /* what statistics pruning compares with */
} bf_parquet_column;

typedef struct bf_parquet_row_group {
    int64_t num_rows;
    int64_t total_byte_size;
    int64_t file_offset;            /* -1 if absent */
    int64_t total_compressed_size;  /* -1 if absent */
    int32_t ordinal;                /* -1 if absent */
} bf_parquet_row_group;

/* One column chunk's metadata. */
typedef struct bf_parquet_chunk {
    int codec;                      /* CompressionCodec: 0 UNCOMPRESSED, 1 SNAPPY, 2 GZIP, ... */
    int64_t num_values;             /* values including nulls */
    int64_t total_compressed_size;
    int64_t total_uncompressed_size;
    int64_t data_page_offset;
    int64_t dictionary_page_offset; /* -1 if absent */
    int64_t bloom_filter_offset;    /* -1 if absent */
    int32_t bloom_filter_length;    /* -1 if absent (older parquet-java) */
    bool encrypted;                 /* column crypto metadata present */
    bool external;                  /* file_path set: the data is in another file */
    bool has_null_count;
    int64_t null_count;
    bool has_distinct_count;
    int64_t distinct_count;
    /* Statistics as stored: PLAIN bytes (no length prefix for byte arrays),
     * pointing into the file. min_value/max_value when the file has them,
     * else the deprecated min/max (stats_deprecated true). */
    bool has_min, has_max;
    const void *min;
    size_t min_len;
    const void *max;
    size_t max_len;
    bool stats_deprecated;
    bool min_exact, max_exact;      /* is_min/max_value_exact; true if absent */
    bool stats_usable;              /* min/max valid for pruning under the
                                       spec's rules (column order, sort order,
                                       deprecated-field rules, lengths) */
} bf_parquet_chunk;

/** Map a Parquet file read-only (mmap) and parse its footer. */
BF_API int bf_parquet_open(bf_parquet_file **out, const char *path);
/** Parse a Parquet file held in caller memory (no copy): buf must stay
 *  alive and unchanged until bf_parquet_close. */
BF_API int bf_parquet_open_buffer(bf_parquet_file **out, const void *buf, size_t len);
BF_API void bf_parquet_close(bf_parquet_file *f);

BF_API int64_t bf_parquet_num_rows(const bf_parquet_file *f);
BF_API int32_t bf_parquet_version(const bf_parquet_file *f);
/** The writer's "created_by" (NUL-terminated), or NULL if absent. */
BF_API const char *bf_parquet_created_by(const bf_parquet_file *f);
BF_API size_t bf_parquet_num_row_groups(const bf_parquet_file *f);
BF_API size_t bf_parquet_num_columns(const bf_parquet_file *f);
/** The file's size and the footer's (FileMetaData bytes). */
BF_API uint64_t bf_parquet_file_size(const bf_parquet_file *f);
BF_API uint64_t bf_parquet_footer_size(const bf_parquet_file *f);
/** Number of key/value metadata entries and entry i (pointers into the
 *  file; *value NULL when the entry has no value). */
BF_API size_t bf_parquet_num_metadata(const bf_parquet_file *f);
BF_API int bf_parquet_metadata(const bf_parquet_file *f, size_t i, const char **key,
                               size_t *key_len, const char **value, size_t *value_len);

BF_API int bf_parquet_column_info(const bf_parquet_file *f, size_t col, bf_parquet_column *out);
/** The index of the leaf column with this dotted path (BF_ENOCOLUMN). */
BF_API int bf_parquet_find_column(const bf_parquet_file *f, const char *path, size_t *col);
BF_API int bf_parquet_row_group_info(const bf_parquet_file *f, size_t rg,
                                     bf_parquet_row_group *out);
BF_API int bf_parquet_chunk_info(const bf_parquet_file *f, size_t rg, size_t col,
                                 bf_parquet_chunk *out);

/** Where the chunk's Bloom filter is: offset and total length (header +
 *  bitset; read from the header when the writer did not record it), and
 *  the bitset's size. BF_ENOFILTER, BF_EENCRYPTED, or the reason the filter
 *  cannot be read. */
BF_API int bf_parquet_bloom_filter_location(const bf_parquet_file *f, size_t rg, size_t col,
                                            uint64_t *offset, uint64_t *length,
                                            uint64_t *num_bytes);
/** The chunk's Bloom filter as a read-only SBBF view into the file (no
 *  copy), validated. Free it with bf_sbbf_free, before bf_parquet_close. */
BF_API int bf_parquet_bloom_filter(const bf_parquet_file *f, size_t rg, size_t col,
                                   bf_sbbf **out);

/*
 * Probing: may row group rg hold this value in column col? The value is
 * given in its PLAIN encoding for the column's physical type (what
 * bf_parquet_value_from_text writes): BOOLEAN 1 byte (0/1); INT32, FLOAT
 * 4 bytes and INT64, DOUBLE 8 bytes little-endian; INT96 12 bytes;
 * BYTE_ARRAY the bytes; FIXED_LEN_BYTE_ARRAY exactly type_length bytes.
 *
 * Each row group gets a verdict: MAYBE, or the reason it can be skipped:
 * the chunk holds no non-null value (no rows, or null_count = num_values),
 * the value is outside [min, max] of statistics valid for the column's
 * sort order, or the Bloom filter (Parquet's hash of the PLAIN bytes,
 * XXH64 seed 0) says absent. Floating-point zero probes both +0 and -0;
 * NaN is never pruned. A row group is never skipped wrongly: a chunk whose
 * filter cannot be used (encrypted, corrupt, unsupported) gets MAYBE, or
 * with BF_PARQUET_STRICT makes the call fail with that status.
 */
typedef enum bf_parquet_verdict {
    BF_PARQUET_MAYBE = 0,
    BF_PARQUET_SKIP_STATS = 1,   /* outside the min/max statistics */
    BF_PARQUET_SKIP_BLOOM = 2,   /* the Bloom filter says absent */
    BF_PARQUET_SKIP_EMPTY = 3    /* no non-null value in the chunk */
} bf_parquet_verdict;
#define BF_PARQUET_STRICT 1u      /* fail on a filter that cannot be used */
#define BF_PARQUET_NO_STATS 2u    /* do not prune with statistics */
#define BF_PARQUET_NO_BLOOM 4u    /* do not prune with Bloom filters */

/** Verdicts for one value: out[rg] for every row group (out holds
 *  bf_parquet_num_row_groups bytes). *maybe (may be NULL) = row groups that
 *  may hold it. BF_EINVAL if len does not fit the physical type. */
BF_API int bf_parquet_probe(const bf_parquet_file *f, size_t col, const void *value,
                            size_t len, unsigned flags, uint8_t *out, size_t *maybe);
/** Many values against one column across all row groups: each value is
 *  hashed once, each row group's filter answers through the SBBF batch
 *  kernels. values[i] / lens[i] as in bf_parquet_probe (lens may be NULL
 *  for fixed-width types). out is row-group major: out[rg * n + i]. */
BF_API int bf_parquet_probe_batch(const bf_parquet_file *f, size_t col,
                                  const void *const *values, const size_t *lens, size_t n,
                                  unsigned flags, uint8_t *out);
/** As bf_parquet_probe_batch for fixed-width types, the n values packed
 *  back to back in their PLAIN encoding (n * width bytes). */
BF_API int bf_parquet_probe_batch_packed(const bf_parquet_file *f, size_t col,
                                         const void *values, size_t n, unsigned flags,
                                         uint8_t *out);
/** The Bloom filter hash of a PLAIN value of column col (Parquet's hash:
 *  XXH64 seed 0 over the PLAIN bytes). */
BF_API int bf_parquet_hash_value(const bf_parquet_file *f, size_t col, const void *value,
                                 size_t len, uint64_t *hash);

/*
 * Values as text, typed by the column's logical type.
 *
 * From text: BOOLEAN true/false/1/0; integers in decimal (range-checked for
 * the INTEGER width and signedness; unsigned ones stored as the same bit
 * pattern); FLOAT/DOUBLE as strtod reads them (nan, inf); DATE YYYY-MM-DD;
 * TIMESTAMP YYYY-MM-DD[T| ]HH:MM:SS[.fraction][Z] or an integer count of
 * the column's unit; TIME HH:MM:SS[.fraction]; DECIMAL -123.45 (at most
 * the column's scale digits after the point; INT32, INT64,
 * FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY minimal two's complement); INT96 as a
 * timestamp (Impala: nanoseconds of the day, Julian day); UUID in 8-4-4-4-12
 * hex; strings and other byte arrays as given, or "0x" hex with
 * BF_PARQUET_TEXT_HEX. *len = bytes written; BF_EBUFSIZE with *len = bytes
 * needed when cap is too small; BF_EINVAL for text that does not parse.
 *
 * To text: the same forms (dates ISO, timestamps ISO-8601 with the unit's
 * fraction and "Z" when adjusted to UTC); byte arrays that are not valid
 * UTF-8 strings, and non-string byte arrays, as 0x hex. With
 * BF_PARQUET_TEXT_JSON the result is one JSON value: strings quoted and
 * escaped, numbers bare, NaN and infinities as strings. Always
 * NUL-terminated when cap > 0; *len = characters (without the NUL) needed.
 */
#define BF_PARQUET_TEXT_HEX 1u
#define BF_PARQUET_TEXT_JSON 2u
BF_API int bf_parquet_value_from_text(const bf_parquet_file *f, size_t col, const char *text,
                                      size_t text_len, unsigned flags, void *buf, size_t cap,
                                      size_t *len);
BF_API int bf_parquet_value_to_text(const bf_parquet_file *f, size_t col, const void *value,
                                    size_t len, unsigned flags, char *buf, size_t cap,
                                    size_t *out_len);
/** Names: "INT32", "STRING", "SNAPPY", "REQUIRED", "SIGNED", ... (static
 *  strings; "UNKNOWN(n)"-style values give "?"). */
BF_API const char *bf_parquet_type_name(int physical_type);
BF_API const char *bf_parquet_logical_name(int logical_type);
BF_API const char *bf_parquet_codec_name(int codec);
BF_API const char *bf_parquet_repetition_name(int repetition);
BF_API const char *bf_parquet_order_name(int order);
BF_API const char *bf_parquet_verdict_name(int verdict);

#ifdef __cplusplus
}
#endif

#endif /* BLOCKFILTER_PARQUET_H */
