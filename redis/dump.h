/* What both data types share: a value is a dump header plus a sequence of
 * byte arrays ("parts": the scalable filter's layer bitsets, the cuckoo
 * chain's tables). RDB, AOF rewrite, DEBUG DIGEST, COPY and the SCANDUMP /
 * LOADCHUNK position arithmetic are written once over this description. */
#ifndef BF_REDIS_DUMP_H
#define BF_REDIS_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rm_abi.h"

/* Chunks of SCANDUMP replies, AOF rewrite LOADCHUNKs and RDB string
 * buffers: RedisBloom's limit, well under proto-max-bulk-len (512 MiB). */
#define BFM_CHUNK_BYTES ((size_t)16 << 20)

typedef struct bfm_dump_ops {
    const char *what;          /* "BF" or "CF", for log lines */
    const char *loadchunk_cmd; /* "BF.LOADCHUNK" / "CF.LOADCHUNK" */
    int encver;                /* RDB encoding version written */
    size_t (*header_size)(const void *v);
    void (*header_write)(const void *v, uint8_t *buf);
    /* A value with every part zero; a library status on failure. */
    int (*from_header)(void **out, const void *buf, size_t len);
    size_t (*num_parts)(const void *v);
    const uint8_t *(*part)(const void *v, size_t i, uint64_t *len);
    int (*write_part)(void *v, size_t i, uint64_t off, const void *src, size_t len);
    void (*free)(void *v);
} bfm_dump_ops;

/* The header in a buffer of *len bytes, from malloc (NULL: no memory). */
uint8_t *bfm_dump_header(const bfm_dump_ops *ops, const void *v, size_t *len);

/* Part and offset of global byte `offset` (parts concatenated) and the bytes
 * left in that part; false past the end. */
bool bfm_dump_locate(const bfm_dump_ops *ops, const void *v, uint64_t offset, size_t *part,
                     uint64_t *part_off, uint64_t *left);

/* SCANDUMP: (1, header) for iter 0; (next, up to BFM_CHUNK_BYTES) for iter
 * >= 1 with next = iter + its length; at the end, and for a negative iter,
 * (0, "") or, with nil_at_end, (0, nil). */
void bfm_dump_reply_scan(RedisModuleCtx *ctx, const bfm_dump_ops *ops, const void *v,
                         long long iter, bool nil_at_end);

/* Where a LOADCHUNK data chunk goes: the bytes [iter - len - 1, iter - 1).
 * false (nothing written) if that is not inside one part. */
bool bfm_dump_write_chunk(const bfm_dump_ops *ops, void *v, long long iter, const void *data,
                          size_t len);

/* The data type callbacks, given the ops. */
void bfm_dump_rdb_save(const bfm_dump_ops *ops, RedisModuleIO *io, const void *v);
void *bfm_dump_rdb_load(const bfm_dump_ops *ops, RedisModuleIO *io, int encver);
void bfm_dump_aof_rewrite(const bfm_dump_ops *ops, RedisModuleIO *io, RedisModuleString *key,
                          const void *v);
void bfm_dump_digest(const bfm_dump_ops *ops, RedisModuleDigest *md, const void *v);
/* An independent value, byte for byte the same (COPY); NULL on failure. */
void *bfm_dump_clone(const bfm_dump_ops *ops, const void *v);
uint64_t bfm_dump_total_bytes(const bfm_dump_ops *ops, const void *v);

/* The data type's methods over `ops` (Redis calls them without any
 * context, so each type needs its own functions): defines `name` as a
 * RedisModuleTypeMethods. mem_usage_fn: size_t (const void *). */
#define BFM_DUMP_TYPE_METHODS(name, ops, mem_usage_fn)                                          \
    static void name##_rdb_save(RedisModuleIO *io, void *v) { bfm_dump_rdb_save(&(ops), io, v); } \
    static void *name##_rdb_load(RedisModuleIO *io, int encver) {                              \
        return bfm_dump_rdb_load(&(ops), io, encver);                                          \
    }                                                                                          \
    static void name##_aof(RedisModuleIO *io, RedisModuleString *key, void *v) {               \
        bfm_dump_aof_rewrite(&(ops), io, key, v);                                              \
    }                                                                                          \
    static void name##_digest(RedisModuleDigest *md, void *v) { bfm_dump_digest(&(ops), md, v); } \
    static size_t name##_mem_usage(const void *v) { return mem_usage_fn(v); }                 \
    static void name##_free(void *v) { (ops).free(v); }                                        \
    /* Above 64 (Redis's lazyfree threshold), UNLINK and FLUSHALL ASYNC free                   \
     * the value in a background thread: values over 64 MiB. */                               \
    static size_t name##_free_effort(RedisModuleString *key, const void *v) {                  \
        (void)key;                                                                             \
        return 1 + (size_t)(bfm_dump_total_bytes(&(ops), v) >> 20);                            \
    }                                                                                          \
    /* COPY: an independent value, byte for byte the same; NULL fails COPY. */                 \
    static void *name##_copy(RedisModuleString *from, RedisModuleString *to, const void *v) {  \
        (void)from;                                                                            \
        (void)to;                                                                              \
        return bfm_dump_clone(&(ops), v);                                                      \
    }                                                                                          \
    static RedisModuleTypeMethods name = {                                                     \
        .version = REDISMODULE_TYPE_METHOD_VERSION,                                            \
        .rdb_load = name##_rdb_load,                                                           \
        .rdb_save = name##_rdb_save,                                                           \
        .aof_rewrite = name##_aof,                                                             \
        .mem_usage = name##_mem_usage,                                                         \
        .digest = name##_digest,                                                               \
        .free = name##_free,                                                                   \
        .free_effort = name##_free_effort,                                                     \
        .copy = name##_copy,                                                                   \
    }

#endif
