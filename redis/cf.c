/*
 * CF.* : RedisBloom's cuckoo filter commands over the library's cuckoo
 * filter (a chain of them with EXPANSION, cf_chain.c), and the CF data type.
 *
 * Syntax, replies and error texts are RedisBloom 2.8's. Differences
 * (docs/redis.md): buckets have 4 slots and 8/12/16-bit fingerprints chosen
 * for the FPR target (CF_ERROR_RATE, or ERROR on CF.RESERVE), so BUCKETSIZE
 * is checked (1..255, capacity >= 2 * BUCKETSIZE) and then not used, and
 * CF.INFO reports 4; the default kick-out limit is the library's 500, not
 * 20; a key of another type gives WRONGTYPE for every command; unknown
 * options are refused; an empty filter is dumped by CF.SCANDUMP like any
 * other (RedisBloom answers (0, nil), so it cannot be restored); CF.COMPACT
 * and CF.DEBUG do not exist.
 *
 * Replication as for BF: only changes are replicated, and a command that
 * creates a filter first replicates an explicit CF.RESERVE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cf_chain.h"
#include "module.h"

RedisModuleType *bfm_cf_type;

/* RedisBloom's default bucket size: the least capacity is twice it. */
#define CF_COMPAT_BUCKETSIZE 2
#define CF_BUCKET_SLOTS 4

static const char *status_error(bfm_key_status st) {
    return st == BFM_KEY_WRONGTYPE ? REDISMODULE_ERRORMSG_WRONGTYPE : "ERR not found";
}

typedef struct cf_opts {
    long long capacity;
    long long max_iterations;
    long long expansion;
    double error_rate;
    bool has_seed;
    uint64_t seed;
} cf_opts;

static void default_opts(cf_opts *o) {
    o->capacity = bfm_cfg.cf_initial_size;
    o->max_iterations = bfm_cfg.cf_max_iterations;
    o->expansion = bfm_cfg.cf_expansion;
    o->error_rate = bfm_cfg.cf_error_rate;
    o->has_seed = false;
    o->seed = 0;
}

static int create(bfm_cf **out, const cf_opts *o) {
    uint64_t seed = o->seed;
    if (!o->has_seed) {
        int rc = bfm_new_seed(&seed);
        if (rc != BF_OK) return rc;
    }
    return bfm_cf_new(out, (uint64_t)o->capacity, o->error_rate, (unsigned)o->expansion,
                      (unsigned)o->max_iterations, seed);
}

static const char *create_error(int rc) {
    return rc == BF_ENOMEM ? "ERR Insufficient memory to create filter" : "ERR Could not create filter";
}

/* "CF.RESERVE key capacity MAXITERATIONS m EXPANSION e ERROR f SEED s",
 * describing c exactly. */
static void replicate_reserve(RedisModuleCtx *ctx, RedisModuleString *key, const bfm_cf *c) {
    char cap[24], it[16], exp[16], err[40], seed[24];
    snprintf(cap, sizeof cap, "%llu", (unsigned long long)c->capacity);
    snprintf(it, sizeof it, "%u", c->max_kicks);
    snprintf(exp, sizeof exp, "%u", c->expansion);
    snprintf(err, sizeof err, "%.17g", c->fpp);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)c->seed);
    rm.Replicate(ctx, "CF.RESERVE", "sccccccccc", key, cap, "MAXITERATIONS", it, "EXPANSION", exp,
                 "ERROR", err, "SEED", seed);
}

/* CF.RESERVE key capacity [BUCKETSIZE b] [MAXITERATIONS m] [EXPANSION e]
 *            [ERROR f] [SEED s] */
static int cmd_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc < 3 || argc % 2 == 0) return rm.WrongArity(ctx);
    cf_opts o;
    default_opts(&o);
    if (rm.StringToLongLong(argv[2], &o.capacity) != REDISMODULE_OK)
        return rm.ReplyWithError(ctx, "Bad capacity");
    long long bucket_size = CF_COMPAT_BUCKETSIZE;
    for (int i = 3; i + 1 < argc; i += 2) {
        RedisModuleString *a = argv[i], *v = argv[i + 1];
        if (bfm_arg_is(a, "MAXITERATIONS")) {
            if (rm.StringToLongLong(v, &o.max_iterations) != REDISMODULE_OK)
                return rm.ReplyWithError(ctx, "Couldn't parse MAXITERATIONS");
            if (o.max_iterations < 1 || o.max_iterations > 65535)
                return rm.ReplyWithError(
                    ctx, "MAXITERATIONS: value must be an integer between 1 and 65535, inclusive.");
        } else if (bfm_arg_is(a, "BUCKETSIZE")) {
            if (rm.StringToLongLong(v, &bucket_size) != REDISMODULE_OK)
                return rm.ReplyWithError(ctx, "Couldn't parse BUCKETSIZE");
            if (bucket_size < 1 || bucket_size > 255)
                return rm.ReplyWithError(
                    ctx, "BUCKETSIZE: value must be an integer between 1 and 255, inclusive.");
        } else if (bfm_arg_is(a, "EXPANSION")) {
            if (rm.StringToLongLong(v, &o.expansion) != REDISMODULE_OK)
                return rm.ReplyWithError(ctx, "Couldn't parse EXPANSION");
            if (o.expansion < 0 || o.expansion > BFM_CF_MAX_EXPANSION)
                return rm.ReplyWithError(
                    ctx, "EXPANSION: value must be an integer between 0 and 32768, inclusive.");
        } else if (bfm_arg_is(a, "ERROR")) {
            if (rm.StringToDouble(v, &o.error_rate) != REDISMODULE_OK ||
                !(o.error_rate > 0 && o.error_rate < 1))
                return rm.ReplyWithError(ctx, "ERR bad error rate");
        } else if (bfm_arg_is(a, "SEED")) {
            if (!bfm_parse_u64(v, &o.seed)) return rm.ReplyWithError(ctx, "ERR bad seed");
            o.has_seed = true;
        } else {
            return rm.ReplyWithError(ctx, "Unknown argument received");
        }
    }
    if (bucket_size * 2 > o.capacity)
        return rm.ReplyWithError(ctx, "Capacity must be at least (BucketSize * 2)");

    RedisModuleKey *key = rm.OpenKey(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_cf_type, &v);
    if (st != BFM_KEY_EMPTY) {
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, st == BFM_KEY_OK ? "ERR item exists" : status_error(st));
    }
    bfm_cf *c;
    int rc = create(&c, &o);
    if (rc != BF_OK) {
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, create_error(rc));
    }
    rm.ModuleTypeSetValue(key, bfm_cf_type, c);
    rm.CloseKey(key);
    replicate_reserve(ctx, argv[1], c);
    return rm.ReplyWithSimpleString(ctx, "OK");
}

/* Adds items; nx: only those absent (CF.ADDNX, CF.INSERTNX); multi: array
 * reply (CF.INSERT, CF.INSERTNX). */
static int add_common(RedisModuleCtx *ctx, RedisModuleString *keyname, RedisModuleString **items,
                      size_t n, const cf_opts *o, bool nocreate, bool nx, bool multi) {
    RedisModuleKey *key = rm.OpenKey(ctx, keyname, REDISMODULE_READ | REDISMODULE_WRITE);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_cf_type, &v);
    bfm_cf *c = v;
    bool created = false;
    if (st == BFM_KEY_EMPTY && !nocreate) {
        int rc = create(&c, o);
        if (rc != BF_OK) {
            rm.CloseKey(key);
            return rm.ReplyWithError(ctx, create_error(rc));
        }
        created = true;
    } else if (st != BFM_KEY_OK) {
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, status_error(st));
    }
    if (c->n >= (uint64_t)bfm_cfg.cf_max_expansions) {
        if (created) bfm_cf_free(c); /* the key stays as it was */
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, "Maximum expansions reached");
    }
    if (created) rm.ModuleTypeSetValue(key, bfm_cf_type, c);
    /* RESP3 booleans except for CF.INSERTNX, which answers 1 / 0 / -1. */
    bool resp3 = bfm_resp3(ctx);
    bool bools = resp3 && (!nx || !multi);
    bool changed = created;
    if (multi) rm.ReplyWithArray(ctx, (long)n);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = rm.StringPtrLen(items[i], &len);
        bfm_cf_insert_status r = bfm_cf_insert(c, bfm_cf_hash(c, s, len), nx);
        if (r == BFM_CF_INSERTED || r == BFM_CF_EXISTS) {
            changed |= r == BFM_CF_INSERTED;
            if (bools)
                rm.ReplyWithBool(ctx, r == BFM_CF_INSERTED);
            else
                rm.ReplyWithLongLong(ctx, r == BFM_CF_INSERTED);
        } else if (!multi) {
            rm.ReplyWithError(ctx, r == BFM_CF_NOSPACE ? "Filter is full" : "ERR Insufficient memory");
        } else if (resp3 && !nx) {
            rm.ReplyWithBool(ctx, 0);
        } else {
            rm.ReplyWithLongLong(ctx, -1);
        }
    }
    rm.CloseKey(key);
    if (created) replicate_reserve(ctx, keyname, c);
    if (changed) rm.ReplicateVerbatim(ctx);
    return REDISMODULE_OK;
}

static bool is_nx_command(RedisModuleString *name) {
    size_t len;
    const char *s = rm.StringPtrLen(name, &len);
    return len > 0 && (s[len - 1] == 'x' || s[len - 1] == 'X');
}

/* CF.ADD key item, CF.ADDNX key item */
static int cmd_add(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 3) return rm.WrongArity(ctx);
    cf_opts o;
    default_opts(&o);
    return add_common(ctx, argv[1], argv + 2, 1, &o, false, is_nx_command(argv[0]), false);
}

/* CF.INSERT / CF.INSERTNX key [CAPACITY c] [NOCREATE] ITEMS item [item ...] */
static int cmd_insert(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc < 4) return rm.WrongArity(ctx);
    cf_opts o;
    default_opts(&o);
    bool nocreate = false;
    int items = -1;
    for (int i = 2; i < argc && items < 0; i++) {
        if (bfm_arg_is(argv[i], "ITEMS")) {
            items = i + 1;
        } else if (bfm_arg_is(argv[i], "CAPACITY")) {
            if (i + 1 == argc) return rm.WrongArity(ctx);
            if (rm.StringToLongLong(argv[++i], &o.capacity) != REDISMODULE_OK)
                return rm.ReplyWithError(ctx, "Bad capacity");
            if (2 * CF_COMPAT_BUCKETSIZE > o.capacity)
                return rm.ReplyWithError(ctx, "Capacity must be at least (BucketSize * 2)");
        } else if (bfm_arg_is(argv[i], "NOCREATE")) {
            nocreate = true;
        } else {
            return rm.ReplyWithError(ctx, "Unknown argument received");
        }
    }
    if (items < 0 || items == argc) return rm.WrongArity(ctx);
    return add_common(ctx, argv[1], argv + items, (size_t)(argc - items), &o, nocreate,
                      is_nx_command(argv[0]), true);
}

/* CF.EXISTS key item, CF.MEXISTS key item [item ...], CF.COUNT key item */
static int check_common(RedisModuleCtx *ctx, RedisModuleString **argv, int argc, bool multi,
                        bool count) {
    if (multi ? argc < 3 : argc != 3) return rm.WrongArity(ctx);
    RedisModuleKey *key = rm.OpenKey(ctx, argv[1], REDISMODULE_READ);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_cf_type, &v);
    if (st == BFM_KEY_WRONGTYPE) {
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, REDISMODULE_ERRORMSG_WRONGTYPE);
    }
    const bfm_cf *c = v;
    size_t n = (size_t)argc - 2;
    bfm_hashes hb;
    if (st == BFM_KEY_OK) {
        if (!bfm_hashes_of(&hb, c->seed, argv + 2, n)) {
            rm.CloseKey(key);
            return rm.ReplyWithError(ctx, "ERR Insufficient memory");
        }
        if (!count) bfm_cf_contains_hashes(c, hb.h, n, hb.flag);
    }
    if (multi) rm.ReplyWithArray(ctx, (long)n);
    for (size_t i = 0; i < n; i++) {
        if (count)
            rm.ReplyWithLongLong(ctx, st == BFM_KEY_OK ? (long long)bfm_cf_count(c, hb.h[i]) : 0);
        else
            bfm_reply_bool(ctx, st == BFM_KEY_OK && hb.flag[i]);
    }
    if (st == BFM_KEY_OK) bfm_hashes_free(&hb);
    if (key) rm.CloseKey(key);
    return REDISMODULE_OK;
}

static int cmd_exists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    return check_common(ctx, argv, argc, false, false);
}
static int cmd_mexists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    return check_common(ctx, argv, argc, true, false);
}
static int cmd_count(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    return check_common(ctx, argv, argc, false, true);
}

/* CF.DEL key item: 1 if a copy was removed, 0 if the item was absent. */
static int cmd_del(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 3) return rm.WrongArity(ctx);
    RedisModuleKey *key = rm.OpenKey(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_cf_type, &v);
    if (st != BFM_KEY_OK) {
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, st == BFM_KEY_WRONGTYPE ? REDISMODULE_ERRORMSG_WRONGTYPE
                                                              : "Not found");
    }
    bfm_cf *c = v;
    size_t len;
    const char *s = rm.StringPtrLen(argv[2], &len);
    bool removed = bfm_cf_delete(c, bfm_cf_hash(c, s, len));
    rm.CloseKey(key);
    if (removed) rm.ReplicateVerbatim(ctx);
    bfm_reply_bool(ctx, removed);
    return REDISMODULE_OK;
}

/* CF.INFO key [ALL]: RedisBloom's eight fields; ALL adds this module's. */
static int cmd_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 2 && argc != 3) return rm.WrongArity(ctx);
    bool all = false;
    if (argc == 3) {
        if (!bfm_arg_is(argv[2], "ALL")) return rm.ReplyWithError(ctx, "Invalid information value");
        all = true;
    }
    RedisModuleKey *key = rm.OpenKey(ctx, argv[1], REDISMODULE_READ);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_cf_type, &v);
    if (st != BFM_KEY_OK) {
        if (key) rm.CloseKey(key);
        return rm.ReplyWithError(ctx, status_error(st));
    }
    const bfm_cf *c = v;
    bfm_reply_map(ctx, all ? 12 : 8);
    rm.ReplyWithSimpleString(ctx, "Size");
    rm.ReplyWithLongLong(ctx, (long long)bfm_cf_mem_usage(c));
    rm.ReplyWithSimpleString(ctx, "Number of buckets");
    rm.ReplyWithLongLong(ctx, (long long)bf_cuckoo_num_buckets(c->f[0]));
    rm.ReplyWithSimpleString(ctx, "Number of filters");
    rm.ReplyWithLongLong(ctx, c->n);
    rm.ReplyWithSimpleString(ctx, "Number of items inserted");
    rm.ReplyWithLongLong(ctx, (long long)bfm_cf_items(c));
    rm.ReplyWithSimpleString(ctx, "Number of items deleted");
    rm.ReplyWithLongLong(ctx, (long long)c->deletes);
    rm.ReplyWithSimpleString(ctx, "Bucket size");
    rm.ReplyWithLongLong(ctx, CF_BUCKET_SLOTS);
    rm.ReplyWithSimpleString(ctx, "Expansion rate");
    rm.ReplyWithLongLong(ctx, c->expansion);
    rm.ReplyWithSimpleString(ctx, "Max iterations");
    rm.ReplyWithLongLong(ctx, c->max_kicks);
    if (all) {
        rm.ReplyWithSimpleString(ctx, "Error rate");
        rm.ReplyWithDouble(ctx, c->fpp);
        rm.ReplyWithSimpleString(ctx, "Load factor");
        rm.ReplyWithDouble(ctx, (double)bfm_cf_items(c) / (double)bfm_cf_slots(c));
        rm.ReplyWithSimpleString(ctx, "Estimated FPR");
        rm.ReplyWithDouble(ctx, bfm_cf_est_fpp(c));
        rm.ReplyWithSimpleString(ctx, "Keyed hashing");
        rm.ReplyWithLongLong(ctx, c->seed != 0);
    }
    rm.CloseKey(key);
    return REDISMODULE_OK;
}

/* CF.SCANDUMP key pos: (1, header) for pos 0, then (next, bytes), then
 * (0, nil). */
static int cmd_scandump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 3) return rm.WrongArity(ctx);
    long long pos;
    if (rm.StringToLongLong(argv[2], &pos) != REDISMODULE_OK || pos < 0)
        return rm.ReplyWithError(ctx, "Invalid position");
    RedisModuleKey *key = rm.OpenKey(ctx, argv[1], REDISMODULE_READ);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_cf_type, &v);
    if (st != BFM_KEY_OK) {
        if (key) rm.CloseKey(key);
        return rm.ReplyWithError(ctx, status_error(st));
    }
    bfm_dump_reply_scan(ctx, &bfm_cf_ops, v, pos, true);
    rm.CloseKey(key);
    return REDISMODULE_OK;
}

/* CF.LOADCHUNK key pos data */
static int cmd_loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 4) return rm.WrongArity(ctx);
    RedisModuleKey *key = rm.OpenKey(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_cf_type, &v);
    long long pos;
    if (rm.StringToLongLong(argv[2], &pos) != REDISMODULE_OK || pos == 0) {
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, "Invalid position");
    }
    size_t len;
    const char *data = rm.StringPtrLen(argv[3], &len);
    if (pos == 1) {
        if (st != BFM_KEY_EMPTY) {
            rm.CloseKey(key);
            return rm.ReplyWithError(ctx, st == BFM_KEY_OK ? "ERR item exists" : status_error(st));
        }
        bfm_cf *c;
        int rc = bfm_cf_from_header(&c, data, len);
        if (rc != BF_OK) {
            rm.CloseKey(key);
            return rm.ReplyWithError(ctx, rc == BF_EFORMAT ? "Invalid header" : "Couldn't create filter!");
        }
        rm.ModuleTypeSetValue(key, bfm_cf_type, c);
        rm.CloseKey(key);
        rm.ReplicateVerbatim(ctx);
        return rm.ReplyWithSimpleString(ctx, "OK");
    }
    if (st != BFM_KEY_OK) {
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, status_error(st));
    }
    bool ok = len > 0 && bfm_dump_write_chunk(&bfm_cf_ops, v, pos, data, len);
    rm.CloseKey(key);
    if (!ok) return rm.ReplyWithError(ctx, "Couldn't load chunk!");
    rm.ReplicateVerbatim(ctx);
    return rm.ReplyWithSimpleString(ctx, "OK");
}

/* ---- The data type (dump.h does the work) ---- */

BFM_DUMP_TYPE_METHODS(type_methods, bfm_cf_ops, bfm_cf_mem_usage);

int bfm_cf_register(RedisModuleCtx *ctx) {
    bfm_cf_type = rm.CreateDataType(ctx, "BLKFLT-CF", bfm_cf_ops.encver, &type_methods);
    if (!bfm_cf_type) return REDISMODULE_ERR;
    static const bfm_command_def cmds[] = {
        {"cf.reserve", cmd_reserve, "write deny-oom", true, "Creates an empty cuckoo filter"},
        {"cf.add", cmd_add, "write deny-oom", true, "Adds an item, creating the filter if needed"},
        {"cf.addnx", cmd_add, "write deny-oom", true, "Adds an item unless it may be present"},
        {"cf.insert", cmd_insert, "write deny-oom", true, "Adds items, creating the filter with options"},
        {"cf.insertnx", cmd_insert, "write deny-oom", true, "Adds the items that may be absent"},
        {"cf.exists", cmd_exists, "readonly fast", false, "Whether an item may be present"},
        {"cf.mexists", cmd_mexists, "readonly fast", false, "Whether each item may be present"},
        {"cf.count", cmd_count, "readonly fast", false, "Copies of an item's fingerprint"},
        {"cf.del", cmd_del, "write fast", true, "Removes one copy of an item"},
        {"cf.info", cmd_info, "readonly fast", false, "Information about a cuckoo filter"},
        {"cf.scandump", cmd_scandump, "readonly", false, "Dumps a cuckoo filter in chunks"},
        {"cf.loadchunk", cmd_loadchunk, "write deny-oom", true, "Restores a cuckoo filter from SCANDUMP chunks"},
    };
    return bfm_register_commands(ctx, cmds, sizeof cmds / sizeof cmds[0]);
}
