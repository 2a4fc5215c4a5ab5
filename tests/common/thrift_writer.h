/*
 * A small writer for Apache Thrift's compact protocol, the encoding of
 * Parquet's metadata, for the programs that write Parquet files: the
 * tests' writer (tests/parquet/pq_writer.h), hence the fuzz seeds, and the
 * benchmark's files (bench/parquet_fixture.c). The library only reads
 * Thrift (lib/parquet/thrift.h has the encoding and the type ids used
 * here); the one structure it writes, a Bloom filter's header, is a fixed
 * sequence of bytes in lib/parquet/parquet.c.
 */
#ifndef BF_TESTS_THRIFT_WRITER_H
#define BF_TESTS_THRIFT_WRITER_H

#include "parquet/thrift.h" /* BF_T_*, BF_THRIFT_MAX_DEPTH */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Appends to a buffer it grows (malloc). Errors are sticky in err
 * (BF_ENOMEM, BF_ETOOBIG for depth, BF_EINVAL for misuse); check once at
 * the end. */
typedef struct thrift_writer {
    uint8_t *buf;
    size_t len, cap;
    int err;
    unsigned depth;
    int16_t last[BF_THRIFT_MAX_DEPTH + 1];
} thrift_writer;

void thrift_writer_init(thrift_writer *w);
void thrift_writer_free(thrift_writer *w);
/* Raw bytes (page payloads, magic) between Thrift values. */
void thrift_write_raw(thrift_writer *w, const void *data, size_t len);

void thrift_write_struct_begin(thrift_writer *w);
void thrift_write_struct_end(thrift_writer *w); /* writes STOP */
/* A field header; for bool fields use thrift_write_bool_field. */
void thrift_write_field(thrift_writer *w, int16_t id, uint8_t type);
void thrift_write_bool_field(thrift_writer *w, int16_t id, bool v);

void thrift_write_byte(thrift_writer *w, int8_t v);
void thrift_write_i16(thrift_writer *w, int16_t v);
void thrift_write_i32(thrift_writer *w, int32_t v);
void thrift_write_i64(thrift_writer *w, int64_t v);
void thrift_write_double(thrift_writer *w, double v);
void thrift_write_binary(thrift_writer *w, const void *data, size_t len);
void thrift_write_bool_elem(thrift_writer *w, bool v);
/* Collection headers; the elements follow. */
void thrift_write_list_begin(thrift_writer *w, uint8_t elem_type, uint32_t count);
void thrift_write_map_begin(thrift_writer *w, uint8_t key_type, uint8_t val_type,
                                         uint32_t count);

/* Varint helpers (also used for Parquet's RLE/bit-packed hybrid). */
void thrift_write_varint(thrift_writer *w, uint64_t v);

#endif
