/*
 * blockfilter as a Redis module: RedisBloom's BF.* commands over the
 * scalable split-block Bloom filter and its CF.* commands over the cuckoo
 * filter, as two Redis data types.
 *
 *   redis-server --loadmodule /path/blockfilter-redis.so [ARG VALUE ...]
 *
 * Load-time arguments (case-insensitive, in pairs), RedisBloom's first:
 *   ERROR_RATE e          BF default error rate (0 < e < 1), 0.01
 *   INITIAL_SIZE n        BF default capacity (>= 1), 100
 *   CF_MAX_EXPANSIONS n   most cuckoo sub-filters per key (>= 1), 32
 * and this module's:
 *   BF_EXPANSION n        BF default growth (>= 1), 2
 *   BF_RATIO r            BF default tightening of each new layer's FPR
 *                         target (0 < r < 1), 0.8
 *   CF_INITIAL_SIZE n     CF default capacity (>= 4), 1024
 *   CF_EXPANSION n        CF default growth (0..32768), 1
 *   CF_BUCKET_SIZE n      CF default slots per bucket (1..255), 2
 *   CF_MAX_ITERATIONS n   CF default kick-out limit (1..65535), 20
 *   CF_ERROR_RATE e       FPR target of each cuckoo sub-filter, 0.01
 * (the CF defaults are RedisBloom's; CF_INITIAL_SIZE must be at least twice
 * CF_BUCKET_SIZE, and CF_ERROR_RATE reachable with 32-bit fingerprints at
 * that bucket size)
 *   SEED 0|RANDOM         hash seed of new filters: 0 (XXH64 seed 0, the
 *                         library's and Parquet's hash) or a random seed
 *                         per key (keyed hashing against crafted items)
 */
#include "cf_chain.h"
#include "command.h"

#include <stdio.h>
#include <string.h>

#include <blockfilter.h>
#include <blockfilter_advanced.h>

/* The module's name (MODULE LIST; RedisBloom's, so clients that look for
 * it find this one); its version is the library's (major*10000 + minor*100
 * + patch). */
#define MODULE_NAME "bf"

/* The data types and their commands: each command file's table. */
static const bfm_type_def *const types[] = {&bfm_bf_def, &bfm_cf_def};

/* ---- Registration ---- */

static int register_command(RedisModuleCtx *ctx, const bfm_command_def *c) {
    if (rm.CreateCommand(ctx, c->name, c->fn, c->flags, 1, 1, 1) != REDISMODULE_OK)
        return REDISMODULE_ERR;
    if (!rm.GetCommand || !rm.SetCommandInfo) return REDISMODULE_OK;
    /* Key specs: how the key at argv[1] is used (ACL key permissions such
     * as %R~ read only, and COMMAND INFO / COMMAND DOCS). Without this the
     * server assumes full access for every module command. */
    static const RedisModuleCommandInfoVersion version = {
        .version = 1,
        .sizeof_historyentry = sizeof(RedisModuleCommandHistoryEntry),
        .sizeof_keyspec = sizeof(RedisModuleCommandKeySpec),
        .sizeof_arg = sizeof(RedisModuleCommandArg),
    };
    RedisModuleCommandKeySpec specs[2];
    memset(specs, 0, sizeof specs);
    specs[0].flags = c->write ? REDISMODULE_CMD_KEY_RW | REDISMODULE_CMD_KEY_UPDATE
                           : REDISMODULE_CMD_KEY_RO | REDISMODULE_CMD_KEY_ACCESS;
    specs[0].begin_search_type = REDISMODULE_KSPEC_BS_INDEX;
    specs[0].bs.index.pos = 1;
    specs[0].find_keys_type = REDISMODULE_KSPEC_FK_RANGE;
    specs[0].fk.range.lastkey = 0;
    specs[0].fk.range.keystep = 1;
    specs[0].fk.range.limit = 0;
    RedisModuleCommandInfo info;
    memset(&info, 0, sizeof info);
    info.version = &version;
    info.summary = c->summary;
    info.since = "0.1.0";
    info.key_specs = specs;
    RedisModuleCommand *cmd = rm.GetCommand(ctx, c->name);
    if (!cmd || rm.SetCommandInfo(cmd, &info) != REDISMODULE_OK) return REDISMODULE_ERR;
    return REDISMODULE_OK;
}

static int register_type(RedisModuleCtx *ctx, const bfm_type_def *def) {
    *def->type = rm.CreateDataType(ctx, def->name, def->ops->encver, def->methods);
    if (!*def->type) return REDISMODULE_ERR;
    for (size_t i = 0; i < def->num_commands; i++)
        if (register_command(ctx, &def->commands[i]) != REDISMODULE_OK) return REDISMODULE_ERR;
    return REDISMODULE_OK;
}

/* ---- Load-time arguments ---- */

static int arg_double(RedisModuleCtx *ctx, RedisModuleString *v, const char *name, double lo,
                      double hi, double *out) {
    double d;
    if (rm.StringToDouble(v, &d) != REDISMODULE_OK) {
        rm.Log(ctx, "warning", "Invalid argument for '%s'", name);
        return REDISMODULE_ERR;
    }
    if (!(d > lo && d < hi)) {
        rm.Log(ctx, "warning", "%s must be in (%g, %g)", name, lo, hi);
        return REDISMODULE_ERR;
    }
    *out = d;
    return REDISMODULE_OK;
}

static int arg_int(RedisModuleCtx *ctx, RedisModuleString *v, const char *name, long long lo,
                   long long hi, long long *out) {
    long long n;
    if (rm.StringToLongLong(v, &n) != REDISMODULE_OK) {
        rm.Log(ctx, "warning", "Invalid argument for '%s'", name);
        return REDISMODULE_ERR;
    }
    if (n < lo || n > hi) {
        rm.Log(ctx, "warning", "%s must be in [%lld, %lld]", name, lo, hi);
        return REDISMODULE_ERR;
    }
    *out = n;
    return REDISMODULE_OK;
}

static int parse_load_args(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc % 2) {
        rm.Log(ctx, "warning", "Invalid number of arguments passed");
        return REDISMODULE_ERR;
    }
    for (int i = 0; i < argc; i += 2) {
        RedisModuleString *k = argv[i], *v = argv[i + 1];
        int rc;
        if (bfm_arg_is(k, "ERROR_RATE"))
            rc = arg_double(ctx, v, "ERROR_RATE", 0, 1, &bfm_cfg.bf_error_rate);
        else if (bfm_arg_is(k, "INITIAL_SIZE"))
            rc = arg_int(ctx, v, "INITIAL_SIZE", 1, INT64_MAX, &bfm_cfg.bf_initial_size);
        else if (bfm_arg_is(k, "BF_EXPANSION"))
            rc = arg_int(ctx, v, "BF_EXPANSION", 1, 32768, &bfm_cfg.bf_expansion);
        else if (bfm_arg_is(k, "BF_RATIO"))
            rc = arg_double(ctx, v, "BF_RATIO", 0, 1, &bfm_cfg.bf_ratio);
        else if (bfm_arg_is(k, "CF_MAX_EXPANSIONS"))
            rc = arg_int(ctx, v, "CF_MAX_EXPANSIONS", 1, 65536, &bfm_cfg.cf_max_expansions);
        else if (bfm_arg_is(k, "CF_INITIAL_SIZE"))
            rc = arg_int(ctx, v, "CF_INITIAL_SIZE", 4, INT64_MAX, &bfm_cfg.cf_initial_size);
        else if (bfm_arg_is(k, "CF_EXPANSION"))
            rc = arg_int(ctx, v, "CF_EXPANSION", 0, 32768, &bfm_cfg.cf_expansion);
        else if (bfm_arg_is(k, "CF_BUCKET_SIZE"))
            rc = arg_int(ctx, v, "CF_BUCKET_SIZE", 1, BFM_CF_MAX_BUCKET_SIZE, &bfm_cfg.cf_bucket_size);
        else if (bfm_arg_is(k, "CF_MAX_ITERATIONS"))
            rc = arg_int(ctx, v, "CF_MAX_ITERATIONS", 1, 65535, &bfm_cfg.cf_max_iterations);
        else if (bfm_arg_is(k, "CF_ERROR_RATE"))
            rc = arg_double(ctx, v, "CF_ERROR_RATE", 0, 1, &bfm_cfg.cf_error_rate);
        else if (bfm_arg_is(k, "SEED")) {
            rc = REDISMODULE_OK;
            if (bfm_arg_is(v, "RANDOM")) {
                uint64_t probe;
                if (bf_random_seed(&probe) != BF_OK) {
                    rm.Log(ctx, "warning", "SEED RANDOM: no random source");
                    rc = REDISMODULE_ERR;
                }
                bfm_cfg.random_seed = true;
            } else if (bfm_arg_is(v, "0")) {
                bfm_cfg.random_seed = false;
            } else {
                rm.Log(ctx, "warning", "SEED must be 0 or RANDOM");
                rc = REDISMODULE_ERR;
            }
        } else {
            size_t len;
            const char *s = rm.StringPtrLen(k, &len);
            rm.Log(ctx, "warning", "Unrecognized option '%.*s'", (int)len, s);
            rc = REDISMODULE_ERR;
        }
        if (rc != REDISMODULE_OK) return rc;
    }
    /* The CF defaults together: what CF.RESERVE would refuse. */
    if (bfm_cfg.cf_initial_size < 2 * bfm_cfg.cf_bucket_size) {
        rm.Log(ctx, "warning", "CF_INITIAL_SIZE must be at least 2 * CF_BUCKET_SIZE (%lld)",
               2 * bfm_cfg.cf_bucket_size);
        return REDISMODULE_ERR;
    }
    if (bfm_cf_fp_bits((unsigned)bfm_cfg.cf_bucket_size, bfm_cfg.cf_error_rate) == 0) {
        rm.Log(ctx, "warning", "CF_ERROR_RATE %g needs fingerprints over 32 bits at CF_BUCKET_SIZE %lld",
               bfm_cfg.cf_error_rate, bfm_cfg.cf_bucket_size);
        return REDISMODULE_ERR;
    }
    return REDISMODULE_OK;
}

__attribute__((visibility("default"))) int RedisModule_OnLoad(RedisModuleCtx *ctx,
                                                              RedisModuleString **argv, int argc);

int RedisModule_OnLoad(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    const char *missing = NULL;
    if (bf_rm_bind(ctx, &missing) != REDISMODULE_OK) {
        /* Log itself may be what is missing: say it on stderr. */
        if (rm.Log)
            rm.Log(ctx, "warning", "blockfilter: this server lacks %s (Redis >= 7.0 needed)", missing);
        else
            fprintf(stderr, "blockfilter: this server lacks %s (Redis >= 7.0 needed)\n", missing);
        return REDISMODULE_ERR;
    }
    if (rm.IsModuleNameBusy(MODULE_NAME)) {
        rm.Log(ctx, "warning", "a module named '" MODULE_NAME "' (RedisBloom?) is loaded already");
        return REDISMODULE_ERR;
    }
    rm.SetModuleAttribs(ctx, MODULE_NAME, (int)bf_version_number(), REDISMODULE_APIVER_1);
    if (parse_load_args(ctx, argv, argc) != REDISMODULE_OK) return REDISMODULE_ERR;
    rm.SetModuleOptions(ctx, REDISMODULE_OPTIONS_HANDLE_IO_ERRORS);
    const char *kernel = "?";
    bf_sbbf_default_kernel(&kernel);
    rm.Log(ctx, "notice",
           "blockfilter %s (SBBF kernel %s): ERROR_RATE %g INITIAL_SIZE %lld CF_MAX_EXPANSIONS %lld "
           "SEED %s",
           bf_version_string(), kernel, bfm_cfg.bf_error_rate, bfm_cfg.bf_initial_size,
           bfm_cfg.cf_max_expansions, bfm_cfg.random_seed ? "RANDOM" : "0");
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (register_type(ctx, types[i]) != REDISMODULE_OK) return REDISMODULE_ERR;
    return REDISMODULE_OK;
}
