/* Every error reply of the module's commands, by name. The texts are
 * RedisBloom 2.8's where it has the case (its clients and tests compare
 * them byte for byte), so two names may hold texts that differ only in a
 * capital or a prefix: each is what RedisBloom answers there. */
#ifndef BF_REDIS_ERRORS_H
#define BF_REDIS_ERRORS_H

#include "rm_abi.h"

/* X(name, text). */
#define BFM_ERROR_LIST(X)                                                                      \
    X(NONE, NULL) /* no error */                                                               \
    X(WRONGTYPE, REDISMODULE_ERRORMSG_WRONGTYPE)                                               \
    X(NOT_FOUND, "ERR not found")                                                              \
    X(ITEM_EXISTS, "ERR item exists")                                                          \
    X(NOMEM, "ERR Insufficient memory")                                                        \
    X(NOMEM_CREATE, "ERR Insufficient memory to create filter")                                \
    X(UNKNOWN_ARG, "Unknown argument received")                                                \
    X(BAD_ERROR_RATE, "ERR bad error rate")                                                    \
    X(BAD_SEED, "ERR bad seed")                                                                \
    X(BAD_CAPACITY, "Bad capacity")                                                            \
    X(INVALID_INFO, "Invalid information value")                                               \
    /* BF.* */                                                                                 \
    X(BF_CREATE, "ERR could not create filter")                                                \
    X(BF_ERROR_RANGE, "ERR (0 < error rate range < 1) ")                                       \
    X(BF_BAD_CAPACITY, "ERR bad capacity")                                                     \
    X(BF_CAPACITY_RANGE, "ERR (capacity should be larger than 0)")                             \
    X(BF_NO_EXPANSION, "ERR no expansion")                                                     \
    X(BF_BAD_EXPANSION, "ERR bad expansion")                                                   \
    X(BF_EXPANSION_RANGE, "ERR expansion should be greater or equal to 1")                     \
    X(BF_NONSCALING_EXPANSION, "Nonscaling filters cannot expand")                             \
    X(BF_BAD_RATIO, "ERR bad ratio")                                                           \
    X(BF_FULL, "ERR non scaling filter is full")                                               \
    X(BF_INSERT, "ERR problem inserting into filter")                                          \
    X(BF_INSERT_ERROR_RATE, "Bad error rate")                                                  \
    X(BF_INSERT_EXPANSION, "Bad expansion")                                                    \
    X(BF_INSERT_RATIO, "Bad ratio")                                                            \
    X(BF_INSERT_BAD_ARG, "Bad argument received")                                              \
    X(BF_ITER, "Second argument must be numeric")                                              \
    X(BF_LOAD_ITER, "ERR Second argument must be numeric")                                     \
    X(BF_BAD_DATA, "ERR received bad data")                                                    \
    X(BF_NO_LINK, "ERR invalid offset - no link found")                                        \
    X(BF_CHUNK_TOO_BIG, "ERR invalid chunk - Too big for current filter")                      \
    /* CF.* */                                                                                 \
    X(CF_CREATE, "ERR Could not create filter")                                                \
    X(CF_PARSE_MAXITERATIONS, "Couldn't parse MAXITERATIONS")                                  \
    X(CF_MAXITERATIONS_RANGE,                                                                  \
      "MAXITERATIONS: value must be an integer between 1 and 65535, inclusive.")               \
    X(CF_PARSE_BUCKETSIZE, "Couldn't parse BUCKETSIZE")                                        \
    X(CF_BUCKETSIZE_RANGE, "BUCKETSIZE: value must be an integer between 1 and 255, inclusive.") \
    X(CF_PARSE_EXPANSION, "Couldn't parse EXPANSION")                                          \
    X(CF_EXPANSION_RANGE, "EXPANSION: value must be an integer between 0 and 32768, inclusive.") \
    X(CF_CAPACITY_MIN, "Capacity must be at least (BucketSize * 2)")                           \
    X(CF_ERROR_FOR_BUCKETSIZE, "ERR error rate too low for this BUCKETSIZE")                    \
    X(CF_MAX_EXPANSIONS, "Maximum expansions reached")                                         \
    X(CF_FULL, "Filter is full")                                                               \
    X(CF_DEL_NOT_FOUND, "Not found")                                                           \
    X(CF_COMPACT_NOT_FOUND, "Cuckoo filter was not found")                                     \
    X(CF_POSITION, "Invalid position")                                                         \
    X(CF_BAD_HEADER, "Invalid header")                                                         \
    X(CF_LOAD_CREATE, "Couldn't create filter!")                                               \
    X(CF_BAD_CHUNK, "Couldn't load chunk!")

#define BFM_ERROR_ENUM(name, text) BFM_E_##name,
typedef enum bfm_err { BFM_ERROR_LIST(BFM_ERROR_ENUM) BFM_E_COUNT } bfm_err;
#undef BFM_ERROR_ENUM

/* The text of e (NULL for BFM_E_NONE). */
const char *bfm_error_text(bfm_err e);
/* Replies e's text as an error; returns REDISMODULE_OK, as a command does. */
int bfm_reply_error(RedisModuleCtx *ctx, bfm_err e);

/* What a command was doing when the library answered with a status. */
typedef enum bfm_op {
    BFM_OP_BF_CREATE,  /* a new BF value (BF.RESERVE, BF.ADD, ...) */
    BFM_OP_BF_INSERT,  /* adds to a BF value */
    BFM_OP_BF_RESTORE, /* a BF value from a SCANDUMP header (BF.LOADCHUNK) */
    BFM_OP_CF_CREATE,
    BFM_OP_CF_RESTORE,
    BFM_OP_COUNT
} bfm_op;
/* The reply to library status `status` (not BF_OK) met while doing op. */
bfm_err bfm_status_error(bfm_op op, int status);

#endif
