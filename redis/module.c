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
 *   CF_MAX_ITERATIONS n   CF default kick-out limit (1..65535), 500
 *   CF_ERROR_RATE e       FPR target of each cuckoo sub-filter, 0.01
 *   SEED 0|RANDOM         hash seed of new filters: 0 (XXH64 seed 0, the
 *                         library's and Parquet's hash) or a random seed
 *                         per key (keyed hashing against crafted items)
 */
#include "module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <blockfilter.h>
#include <blockfilter_advanced.h>

struct bf_rm_api rm;

bfm_config bfm_cfg = {
    .bf_error_rate = 0.01,
    .bf_initial_size = 100,
    .bf_expansion = 2,
    .bf_ratio = 0.8,
    .cf_initial_size = 1024,
    .cf_max_expansions = 32,
    .cf_max_iterations = 500,
    .cf_expansion = 1,
    .cf_error_rate = 0.01,
    .random_seed = false,
};

/* ---- Binding to the server's API ---- */

typedef int (*bf_rm_getapi_fn)(const char *name, void *out);

int bf_rm_bind(RedisModuleCtx *ctx, const char **missing) {
    /* The context's first field is the lookup function (read with memcpy:
     * C has no conversion from an object pointer to a function pointer). */
    bf_rm_getapi_fn getapi;
    memcpy(&getapi, (const void *)ctx, sizeof getapi);
#define BF_RM_FETCH(ret, name, params, required)                                  \
    if (getapi("RedisModule_" #name, (void *)&rm.name) != REDISMODULE_OK) {     \
        rm.name = NULL;                                                          \
        if (required) {                                                          \
            *missing = "RedisModule_" #name;                                     \
            return REDISMODULE_ERR;                                              \
        }                                                                        \
    }
    BF_RM_API_LIST(BF_RM_FETCH)
#undef BF_RM_FETCH
    return REDISMODULE_OK;
}

/* ---- Helpers ---- */

bfm_key_status bfm_key_get(RedisModuleKey *key, RedisModuleType *type, void **value) {
    *value = NULL;
    if (!key) return BFM_KEY_EMPTY;
    int t = rm.KeyType(key);
    if (t == REDISMODULE_KEYTYPE_EMPTY) return BFM_KEY_EMPTY;
    if (t != REDISMODULE_KEYTYPE_MODULE || rm.ModuleTypeGetType(key) != type) return BFM_KEY_WRONGTYPE;
    *value = rm.ModuleTypeGetValue(key);
    return BFM_KEY_OK;
}

bool bfm_arg_is(RedisModuleString *arg, const char *keyword) {
    size_t len;
    const char *s = rm.StringPtrLen(arg, &len);
    return len == strlen(keyword) && strncasecmp(s, keyword, len) == 0;
}

bool bfm_resp3(RedisModuleCtx *ctx) {
    return rm.ReplyWithBool && rm.ReplyWithMap &&
           (rm.GetContextFlags(ctx) & REDISMODULE_CTX_FLAGS_RESP3);
}

/* ReplyWithBool answers :1 / :0 to a RESP2 client and #t / #f to a RESP3
 * one, and ReplyWithMap a flat array of 2n elements to RESP2: no need to
 * ask for the protocol (GetContextFlags computes every context flag, a
 * measurable part of a BF.EXISTS). */
void bfm_reply_bool(RedisModuleCtx *ctx, bool b) {
    if (rm.ReplyWithBool)
        rm.ReplyWithBool(ctx, b);
    else
        rm.ReplyWithLongLong(ctx, b);
}

void bfm_reply_map(RedisModuleCtx *ctx, long pairs) {
    if (rm.ReplyWithMap)
        rm.ReplyWithMap(ctx, pairs);
    else
        rm.ReplyWithArray(ctx, 2 * pairs);
}

bool bfm_parse_u64(RedisModuleString *arg, uint64_t *out) {
    size_t len;
    const char *s = rm.StringPtrLen(arg, &len);
    if (len == 0 || len > 20) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return false;
        uint64_t d = (uint64_t)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

bool bfm_hashes_of(bfm_hashes *hb, uint64_t seed, RedisModuleString **items, size_t n) {
    if (n <= 64) {
        hb->h = hb->h_small;
        hb->flag = hb->flag_small;
    } else {
        hb->h = malloc(n * sizeof *hb->h);
        hb->flag = malloc(n);
        if (!hb->h || !hb->flag) {
            free(hb->h);
            free(hb->flag);
            return false;
        }
    }
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = rm.StringPtrLen(items[i], &len);
        hb->h[i] = bf_hash_xxh64_seeded(s, len, seed);
    }
    return true;
}

void bfm_hashes_free(bfm_hashes *hb) {
    if (hb->h != hb->h_small) {
        free(hb->h);
        free(hb->flag);
    }
}

int bfm_new_seed(uint64_t *seed) {
    *seed = 0;
    if (!bfm_cfg.random_seed) return BF_OK;
    return bf_random_seed(seed);
}

const char *bfm_create_error(int status) {
    return status == BF_ENOMEM ? "ERR Insufficient memory to create filter"
                               : "ERR could not create filter";
}

static int register_command(RedisModuleCtx *ctx, const char *name, RedisModuleCmdFunc fn,
                            const char *flags, bool write, const char *summary) {
    if (rm.CreateCommand(ctx, name, fn, flags, 1, 1, 1) != REDISMODULE_OK) return REDISMODULE_ERR;
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
    specs[0].flags = write ? REDISMODULE_CMD_KEY_RW | REDISMODULE_CMD_KEY_UPDATE
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
    info.summary = summary;
    info.since = "0.1.0";
    info.key_specs = specs;
    RedisModuleCommand *cmd = rm.GetCommand(ctx, name);
    if (!cmd || rm.SetCommandInfo(cmd, &info) != REDISMODULE_OK) return REDISMODULE_ERR;
    return REDISMODULE_OK;
}

int bfm_register_commands(RedisModuleCtx *ctx, const bfm_command_def *defs, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (register_command(ctx, defs[i].name, defs[i].fn, defs[i].flags, defs[i].write,
                             defs[i].summary) != REDISMODULE_OK)
            return REDISMODULE_ERR;
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
    if (rm.IsModuleNameBusy(BFM_MODULE_NAME)) {
        rm.Log(ctx, "warning", "a module named '" BFM_MODULE_NAME "' (RedisBloom?) is loaded already");
        return REDISMODULE_ERR;
    }
    rm.SetModuleAttribs(ctx, BFM_MODULE_NAME, (int)bf_version_number(), REDISMODULE_APIVER_1);
    if (parse_load_args(ctx, argv, argc) != REDISMODULE_OK) return REDISMODULE_ERR;
    rm.SetModuleOptions(ctx, REDISMODULE_OPTIONS_HANDLE_IO_ERRORS);
    const char *kernel = "?";
    bf_sbbf_default_kernel(&kernel);
    rm.Log(ctx, "notice",
           "blockfilter %s (SBBF kernel %s): ERROR_RATE %g INITIAL_SIZE %lld CF_MAX_EXPANSIONS %lld "
           "SEED %s",
           bf_version_string(), kernel, bfm_cfg.bf_error_rate, bfm_cfg.bf_initial_size,
           bfm_cfg.cf_max_expansions, bfm_cfg.random_seed ? "RANDOM" : "0");
    if (bfm_bf_register(ctx) != REDISMODULE_OK) return REDISMODULE_ERR;
    if (bfm_cf_register(ctx) != REDISMODULE_OK) return REDISMODULE_ERR;
    return REDISMODULE_OK;
}
