/* Shared declarations of the blockfilter Redis module. */
#ifndef BF_REDIS_MODULE_H
#define BF_REDIS_MODULE_H

#include <stdbool.h>
#include <stdint.h>

#include "rm_abi.h"

/* Version reported to MODULE LIST: the library's (major*10000 + minor*100 + patch). */
#define BFM_MODULE_NAME "bf"

/* Chunks of SCANDUMP replies, AOF rewrite LOADCHUNKs and RDB string
 * buffers: RedisBloom's limit, well under proto-max-bulk-len (512 MiB). */
#define BFM_CHUNK_BYTES ((size_t)16 << 20)

/* Load-time configuration (redis-server --loadmodule ... ARG VALUE ...). */
typedef struct bfm_config {
    double bf_error_rate;         /* ERROR_RATE: BF.ADD/BF.INSERT default, 0.01 */
    long long bf_initial_size;    /* INITIAL_SIZE: default capacity, 100 */
    long long bf_expansion;       /* BF_EXPANSION: default growth, 2 */
    double bf_ratio;              /* BF_RATIO: per-layer FPR tightening, 0.8 */
    long long cf_initial_size;    /* CF_INITIAL_SIZE: CF.ADD/CF.INSERT default, 1024 */
    long long cf_max_expansions;  /* CF_MAX_EXPANSIONS: sub-filter limit, 32 */
    long long cf_max_iterations;  /* CF_MAX_ITERATIONS: kick-out limit, 500 */
    long long cf_expansion;       /* CF_EXPANSION: default growth, 1 */
    double cf_error_rate;         /* CF_ERROR_RATE: per sub-filter FPR target, 0.01 */
    bool random_seed;             /* SEED RANDOM: every new filter gets its own seed */
} bfm_config;
extern bfm_config bfm_cfg;

extern RedisModuleType *bfm_bf_type;
extern RedisModuleType *bfm_cf_type;

/* Registration of each family's type and commands (OnLoad). */
int bfm_bf_register(RedisModuleCtx *ctx);
int bfm_cf_register(RedisModuleCtx *ctx);

/* ---- Helpers shared by the command files (module.c) ---- */

/* Key lookup: the value if the key holds `type`. */
typedef enum { BFM_KEY_OK, BFM_KEY_EMPTY, BFM_KEY_WRONGTYPE } bfm_key_status;
bfm_key_status bfm_key_get(RedisModuleKey *key, RedisModuleType *type, void **value);

/* Case-insensitive comparison of an argument with a keyword. */
bool bfm_arg_is(RedisModuleString *arg, const char *keyword);
/* Whether the client speaks RESP3 (booleans, maps and doubles as such). */
bool bfm_resp3(RedisModuleCtx *ctx);
void bfm_reply_bool(RedisModuleCtx *ctx, bool b);
/* A map of n pairs in RESP3, a flat array of 2n elements in RESP2. */
void bfm_reply_map(RedisModuleCtx *ctx, long pairs);
/* An unsigned 64-bit seed: decimal digits only. */
bool bfm_parse_u64(RedisModuleString *arg, uint64_t *out);
/* XXH64 (with a filter's seed) of every item, and a flag per item: in the
 * struct for up to 64 items, allocated beyond. */
typedef struct bfm_hashes {
    uint64_t *h;
    uint8_t *flag;
    uint64_t h_small[64];
    uint8_t flag_small[64];
} bfm_hashes;
bool bfm_hashes_of(bfm_hashes *hb, uint64_t seed, RedisModuleString **items, size_t n);
void bfm_hashes_free(bfm_hashes *hb);
/* A new filter's seed: 0, or random if the module was loaded with SEED RANDOM. */
int bfm_new_seed(uint64_t *seed);
/* Error text for a library status met while creating a filter. */
const char *bfm_create_error(int status);

/* A command with one key at argv[1]: its flags, and whether it writes the
 * key (the key spec says so on servers with command info). */
typedef struct bfm_command_def {
    const char *name;
    RedisModuleCmdFunc fn;
    const char *flags;
    bool write;
    const char *summary;
} bfm_command_def;
int bfm_register_commands(RedisModuleCtx *ctx, const bfm_command_def *defs, size_t n);

#endif
