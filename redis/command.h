/* What the command files (bf.c, cf.c) share: the load-time configuration
 * they read, opening a key, argument parsing and replies (command.c), and
 * how each file describes its data type and commands for registration
 * (module.c walks those descriptions; it is the only caller of them, and
 * nothing here calls into module.c). */
#ifndef BF_REDIS_COMMAND_H
#define BF_REDIS_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dump.h"
#include "errors.h"
#include "rm_abi.h"

/* Load-time configuration (redis-server --loadmodule ... ARG VALUE ...),
 * with the defaults until module.c has read the arguments. */
typedef struct bfm_config {
    double bf_error_rate;         /* ERROR_RATE: BF.ADD/BF.INSERT default, 0.01 */
    long long bf_initial_size;    /* INITIAL_SIZE: default capacity, 100 */
    long long bf_expansion;       /* BF_EXPANSION: default growth, 2 */
    double bf_ratio;              /* BF_RATIO: per-layer FPR tightening, 0.8 */
    long long cf_initial_size;    /* CF_INITIAL_SIZE: CF.ADD/CF.INSERT default, 1024 */
    long long cf_max_expansions;  /* CF_MAX_EXPANSIONS: sub-filter limit, 32 */
    long long cf_bucket_size;     /* CF_BUCKET_SIZE: slots per bucket, 2 */
    long long cf_max_iterations;  /* CF_MAX_ITERATIONS: kick-out limit, 20 */
    long long cf_expansion;       /* CF_EXPANSION: default growth, 1 */
    double cf_error_rate;         /* CF_ERROR_RATE: per sub-filter FPR target, 0.01 */
    bool random_seed;             /* SEED RANDOM: every new filter gets its own seed */
} bfm_config;
extern bfm_config bfm_cfg;

/* ---- The key of a command ---- */

/* An open key. value: the key's value, NULL while the key is empty. */
typedef struct bfm_key {
    RedisModuleKey *handle;
    RedisModuleType *type;
    void *value;
} bfm_key;

/* Opens `name` (mode: REDISMODULE_READ, or with REDISMODULE_WRITE) for a
 * value of `type`. true: open, k->value set; every true is matched by one
 * bfm_key_close. false: the key is closed again and the command's error
 * reply has been sent: WRONGTYPE for a key of another type, if_missing for
 * an empty key, if_present for a key that holds a value (BFM_E_NONE: that
 * case is the command's to handle). */
bool bfm_key_open(bfm_key *k, RedisModuleCtx *ctx, RedisModuleString *name, int mode,
                  RedisModuleType *type, bfm_err if_missing, bfm_err if_present);
/* Gives the (empty, writable) key a new value it then owns. */
void bfm_key_set(bfm_key *k, void *value);
void bfm_key_close(bfm_key *k);

/* ---- Arguments and replies ---- */

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

/* ---- Registration ---- */

/* A command with one key at argv[1]: its flags, and whether it writes the
 * key (the key spec says so on servers with command info). */
typedef struct bfm_command_def {
    const char *name;
    RedisModuleCmdFunc fn;
    const char *flags;
    bool write;
    const char *summary;
} bfm_command_def;

/* A data type and its commands, as one command file exports them. */
typedef struct bfm_type_def {
    const char *name;               /* the type's 9-character name (TYPE's answer) */
    const bfm_dump_ops *ops;        /* its values (the RDB encoding version) */
    RedisModuleTypeMethods *methods;
    RedisModuleType **type;         /* where the registered type is kept */
    const bfm_command_def *commands;
    size_t num_commands;
} bfm_type_def;

extern const bfm_type_def bfm_bf_def; /* bf.c */
extern const bfm_type_def bfm_cf_def; /* cf.c */

#endif
