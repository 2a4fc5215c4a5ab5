/* The value of a BF key: a scalable SBBF chain, and its dump format (the
 * SCANDUMP / LOADCHUNK / AOF / RDB header). No Redis API here, so it is
 * unit-tested and fuzzed on its own. */
#ifndef BF_REDIS_BF_VALUE_H
#define BF_REDIS_BF_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <blockfilter.h>
#include <blockfilter_advanced.h>

#include "dump.h"

typedef struct bfm_bf {
    bf_scalable *sc;
    bf_scalable_params params; /* as created (capacity = layer 0's) */
} bfm_bf;

/* Header v1 (little-endian):
 *   0  "BFSC"            4  u8 version (1)   5  u8 flags (bit 0: NONSCALING)
 *   6  u16 reserved (0)  8  u32 expansion   12  u32 number of layers L
 *  16  f64 error rate   24  f64 tightening ratio
 *  32  u64 capacity (layer 0)               40  u64 hash seed
 *  48  L x {u64 capacity, u64 items, u64 bitset bytes}, oldest first
 *  48+24L  u64 XXH64 of the bytes before it
 * The data chunks that follow carry the bitsets, concatenated oldest first. */
#define BFM_BF_MAGIC "BFSC"
#define BFM_BF_HEADER_VERSION 1u
#define BFM_BF_MAX_LAYERS BF_SCALABLE_MAX_LAYERS

/* Growth guard of every value (bf_scalable_set_growth_limit). Each new
 * layer tightens its FPR target by the chain's ratio, and below about 1e-6
 * an SBBF's bits per key climb steeply (65 bits at 1e-6, 618 at 1e-10,
 * 3347 at 1e-12): a chain that keeps growing (say EXPANSION 1 and a small
 * capacity) would soon ask for gigabytes per layer for a handful of items.
 * A layer is added only if its bitset costs at most this many bits per
 * item of its capacity; past that the chain refuses adds (BF_ETOOBIG) as
 * RedisBloom does when growth fails. */
#define BFM_BF_MAX_BITS_PER_ITEM 512.0

/* bfm_bf_new and bfm_bf_from_header give values with the guard set. */
int bfm_bf_new(bfm_bf **out, const bf_scalable_params *params, uint64_t seed);
void bfm_bf_free(bfm_bf *b);

size_t bfm_bf_num_layers(const bfm_bf *b);
/* Layer i's bitset and size. */
const uint8_t *bfm_bf_layer(const bfm_bf *b, size_t i, uint64_t *num_bytes);
/* Sum of the layers' bitset bytes. */
uint64_t bfm_bf_total_bytes(const bfm_bf *b);
/* Sum of the layers' capacities, and of their item counts. */
uint64_t bfm_bf_capacity(const bfm_bf *b);
uint64_t bfm_bf_count(const bfm_bf *b);
/* Bytes the value holds in memory: bitsets plus bookkeeping. */
size_t bfm_bf_mem_usage(const bfm_bf *b);

size_t bfm_bf_header_size(const bfm_bf *b);
/* Writes bfm_bf_header_size(b) bytes. */
void bfm_bf_header_write(const bfm_bf *b, uint8_t *buf);
/* A filter with the header's parameters, seed, layers and counts, every bit
 * clear. BF_EFORMAT (magic, length), BF_EVERSION (a newer header),
 * BF_ECORRUPT (checksum, fields, layers not what the parameters imply),
 * BF_ENOMEM / BF_ETOOBIG. */
int bfm_bf_from_header(bfm_bf **out, const void *buf, size_t len);

/* The value as a header plus its layers' bitsets (dump.h). */
extern const bfm_dump_ops bfm_bf_ops;

#endif
