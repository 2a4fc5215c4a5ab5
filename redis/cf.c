/*
 * CF.* : RedisBloom's cuckoo filter commands over the library's cuckoo
 * filter (a chain of them with EXPANSION, cf_chain.c), and the CF data type.
 *
 * Syntax, replies, error texts and defaults (bucket size 2, 20 kick-outs,
 * expansion 1) are RedisBloom 2.8's. BUCKETSIZE (1..255) is the buckets'
 * slots; the fingerprint size is this module's: the fewest bits that keep
 * the FPR target (CF_ERROR_RATE, or ERROR on CF.RESERVE) at that bucket
 * size when a sub-filter is full (bfm_cf_fp_bits), where RedisBloom always
 * stores 8 bits. Other differences (docs/redis.md): a key of another type
 * gives WRONGTYPE for every command; unknown options are refused;
 * CF.COMPACT frees the newest sub-filters left empty by deletes but moves
 * no fingerprint (RedisBloom also moves fingerprints into older
 * sub-filters, which this chain's sizes do not allow).
 *
 * Replication as for BF: only changes are replicated, and a command that
 * creates a filter first replicates an explicit CF.RESERVE.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <blockfilter.h>
#include <blockfilter_advanced.h>

#include "cf_chain.h"
#include "command.h"

static RedisModuleType *cf_type;

typedef struct cf_opts {
    long long capacity;
    long long bucket_size;
    long long max_iterations;
    long long expansion;
    double error_rate;
    bool has_seed;
    uint64_t seed;
} cf_opts;

static void default_opts(cf_opts *o) {
    o->capacity = bfm_cfg.cf_initial_size;
    o->bucket_size = bfm_cfg.cf_bucket_size;
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
    return bfm_cf_new(out, (uint64_t)o->capacity, o->error_rate, (unsigned)o->bucket_size,
                      (unsigned)o->expansion, (unsigned)o->max_iterations, seed);
}

/* "CF.RESERVE key capacity BUCKETSIZE b MAXITERATIONS m EXPANSION e ERROR f
 * SEED s", describing c exactly. */
static void replicate_reserve(RedisModuleCtx *ctx, RedisModuleString *key, const bfm_cf *c) {
    char cap[24], bs[16], it[16], exp[16], err[40], seed[24];
    snprintf(cap, sizeof cap, "%llu", (unsigned long long)c->capacity);
    snprintf(bs, sizeof bs, "%u", c->bucket_size);
    snprintf(it, sizeof it, "%u", c->max_kicks);
    snprintf(exp, sizeof exp, "%u", c->expansion);
    snprintf(err, sizeof err, "%.17g", c->fpp);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)c->seed);
    rm.Replicate(ctx, "CF.RESERVE", "sccccccccccc", key, cap, "BUCKETSIZE", bs, "MAXITERATIONS", it,
                 "EXPANSION", exp, "ERROR", err, "SEED", seed);
}

/* CF.RESERVE key capacity [BUCKETSIZE b] [MAXITERATIONS m] [EXPANSION e]
 *            [ERROR f] [SEED s] */
static int cmd_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc < 3 || argc % 2 == 0) return rm.WrongArity(ctx);
    cf_opts o;
    default_opts(&o);
    if (rm.StringToLongLong(argv[2], &o.capacity) != REDISMODULE_OK)
        return bfm_reply_error(ctx, BFM_E_BAD_CAPACITY);
    for (int i = 3; i + 1 < argc; i += 2) {
        RedisModuleString *a = argv[i], *v = argv[i + 1];
        if (bfm_arg_is(a, "MAXITERATIONS")) {
            if (rm.StringToLongLong(v, &o.max_iterations) != REDISMODULE_OK)
                return bfm_reply_error(ctx, BFM_E_CF_PARSE_MAXITERATIONS);
            if (o.max_iterations < 1 || o.max_iterations > 65535)
                return bfm_reply_error(ctx, BFM_E_CF_MAXITERATIONS_RANGE);
        } else if (bfm_arg_is(a, "BUCKETSIZE")) {
            if (rm.StringToLongLong(v, &o.bucket_size) != REDISMODULE_OK)
                return bfm_reply_error(ctx, BFM_E_CF_PARSE_BUCKETSIZE);
            if (o.bucket_size < 1 || o.bucket_size > BFM_CF_MAX_BUCKET_SIZE)
                return bfm_reply_error(ctx, BFM_E_CF_BUCKETSIZE_RANGE);
        } else if (bfm_arg_is(a, "EXPANSION")) {
            if (rm.StringToLongLong(v, &o.expansion) != REDISMODULE_OK)
                return bfm_reply_error(ctx, BFM_E_CF_PARSE_EXPANSION);
            if (o.expansion < 0 || o.expansion > BFM_CF_MAX_EXPANSION)
                return bfm_reply_error(ctx, BFM_E_CF_EXPANSION_RANGE);
        } else if (bfm_arg_is(a, "ERROR")) {
            if (rm.StringToDouble(v, &o.error_rate) != REDISMODULE_OK ||
                !(o.error_rate > 0 && o.error_rate < 1))
                return bfm_reply_error(ctx, BFM_E_BAD_ERROR_RATE);
        } else if (bfm_arg_is(a, "SEED")) {
            if (!bfm_parse_u64(v, &o.seed)) return bfm_reply_error(ctx, BFM_E_BAD_SEED);
            o.has_seed = true;
        } else {
            return bfm_reply_error(ctx, BFM_E_UNKNOWN_ARG);
        }
    }
    if (o.bucket_size * 2 > o.capacity) return bfm_reply_error(ctx, BFM_E_CF_CAPACITY_MIN);
    if (bfm_cf_fp_bits((unsigned)o.bucket_size, o.error_rate) == 0)
        return bfm_reply_error(ctx, BFM_E_CF_ERROR_FOR_BUCKETSIZE);

    bfm_key k;
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE, cf_type, BFM_E_NONE,
                      BFM_E_ITEM_EXISTS))
        return REDISMODULE_OK;
    bfm_cf *c = NULL;
    int rc = create(&c, &o);
    if (rc == BF_OK) bfm_key_set(&k, c);
    bfm_key_close(&k);
    if (rc != BF_OK) return bfm_reply_error(ctx, bfm_status_error(BFM_OP_CF_CREATE, rc));
    replicate_reserve(ctx, argv[1], c);
    return rm.ReplyWithSimpleString(ctx, "OK");
}

/* Adds items to c, replying for each; whether any was written. */
static bool add_items(RedisModuleCtx *ctx, bfm_cf *c, RedisModuleString **items, size_t n, bool nx,
                      bool multi) {
    /* RESP3 booleans except for CF.INSERTNX, which answers 1 / 0 / -1. */
    bool resp3 = bfm_resp3(ctx);
    bool bools = resp3 && (!nx || !multi);
    bool changed = false;
    if (multi) rm.ReplyWithArray(ctx, (long)n);
    for (size_t i = 0; i < n; i++) {
        size_t len;
        const char *s = rm.StringPtrLen(items[i], &len);
        bfm_cf_insert_status r =
            bfm_cf_insert_upto(c, bfm_cf_hash(c, s, len), nx, (uint32_t)bfm_cfg.cf_max_expansions);
        if (r == BFM_CF_INSERTED || r == BFM_CF_EXISTS) {
            changed |= r == BFM_CF_INSERTED;
            if (bools)
                rm.ReplyWithBool(ctx, r == BFM_CF_INSERTED);
            else
                rm.ReplyWithLongLong(ctx, r == BFM_CF_INSERTED);
        } else if (!multi) {
            bfm_reply_error(ctx, r == BFM_CF_NOSPACE ? BFM_E_CF_FULL : BFM_E_NOMEM);
        } else if (resp3 && !nx) {
            rm.ReplyWithBool(ctx, 0);
        } else {
            rm.ReplyWithLongLong(ctx, -1);
        }
    }
    return changed;
}

/* Adds items; nx: only those absent (CF.ADDNX, CF.INSERTNX); multi: array
 * reply (CF.INSERT, CF.INSERTNX). */
static int add_common(RedisModuleCtx *ctx, RedisModuleString *keyname, RedisModuleString **items,
                      size_t n, const cf_opts *o, bool nocreate, bool nx, bool multi) {
    bfm_key k;
    if (!bfm_key_open(&k, ctx, keyname, REDISMODULE_READ | REDISMODULE_WRITE, cf_type,
                      nocreate ? BFM_E_NOT_FOUND : BFM_E_NONE, BFM_E_NONE))
        return REDISMODULE_OK;
    bfm_cf *c = k.value, *created = NULL;
    bfm_err err = BFM_E_NONE;
    if (!c) {
        int rc = create(&created, o);
        if (rc != BF_OK) err = bfm_status_error(BFM_OP_CF_CREATE, rc);
        c = created;
    }
    if (!err && c->n >= (uint64_t)bfm_cfg.cf_max_expansions) err = BFM_E_CF_MAX_EXPANSIONS;
    bool changed = false;
    if (err) {
        bfm_cf_free(created); /* the key stays as it was */
        created = NULL;
    } else {
        if (created) bfm_key_set(&k, created);
        changed = add_items(ctx, c, items, n, nx, multi) || created != NULL;
    }
    bfm_key_close(&k);
    if (err) return bfm_reply_error(ctx, err);
    if (created) replicate_reserve(ctx, keyname, created);
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
                return bfm_reply_error(ctx, BFM_E_BAD_CAPACITY);
            if (2 * o.bucket_size > o.capacity)
                return bfm_reply_error(ctx, BFM_E_CF_CAPACITY_MIN);
        } else if (bfm_arg_is(argv[i], "NOCREATE")) {
            nocreate = true;
        } else {
            return bfm_reply_error(ctx, BFM_E_UNKNOWN_ARG);
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
    bfm_key k;
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ, cf_type, BFM_E_NONE, BFM_E_NONE))
        return REDISMODULE_OK;
    const bfm_cf *c = k.value;
    size_t n = (size_t)argc - 2;
    bfm_hashes hb;
    bool hashed = c && bfm_hashes_of(&hb, c->seed, argv + 2, n);
    if (hashed && !count) bfm_cf_contains_hashes(c, hb.h, n, hb.flag);
    if (c && !hashed) {
        bfm_reply_error(ctx, BFM_E_NOMEM);
    } else {
        if (multi) rm.ReplyWithArray(ctx, (long)n);
        for (size_t i = 0; i < n; i++) {
            if (count)
                rm.ReplyWithLongLong(ctx, hashed ? (long long)bfm_cf_count(c, hb.h[i]) : 0);
            else
                bfm_reply_bool(ctx, hashed && hb.flag[i]);
        }
    }
    if (hashed) bfm_hashes_free(&hb);
    bfm_key_close(&k);
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
    bfm_key k;
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE, cf_type,
                      BFM_E_CF_DEL_NOT_FOUND, BFM_E_NONE))
        return REDISMODULE_OK;
    bfm_cf *c = k.value;
    size_t len;
    const char *s = rm.StringPtrLen(argv[2], &len);
    bool removed = bfm_cf_delete(c, bfm_cf_hash(c, s, len));
    bfm_key_close(&k);
    if (removed) rm.ReplicateVerbatim(ctx);
    bfm_reply_bool(ctx, removed);
    return REDISMODULE_OK;
}

static void reply_info(RedisModuleCtx *ctx, const bfm_cf *c, bool all) {
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
    rm.ReplyWithLongLong(ctx, c->bucket_size);
    rm.ReplyWithSimpleString(ctx, "Expansion rate");
    rm.ReplyWithLongLong(ctx, c->expansion);
    rm.ReplyWithSimpleString(ctx, "Max iterations");
    rm.ReplyWithLongLong(ctx, c->max_kicks);
    if (!all) return;
    rm.ReplyWithSimpleString(ctx, "Error rate");
    rm.ReplyWithDouble(ctx, c->fpp);
    rm.ReplyWithSimpleString(ctx, "Load factor");
    rm.ReplyWithDouble(ctx, (double)bfm_cf_items(c) / (double)bfm_cf_slots(c));
    rm.ReplyWithSimpleString(ctx, "Estimated FPR");
    rm.ReplyWithDouble(ctx, bfm_cf_est_fpp(c));
    rm.ReplyWithSimpleString(ctx, "Keyed hashing");
    rm.ReplyWithLongLong(ctx, c->seed != 0);
}

/* CF.INFO key [ALL]: RedisBloom's eight fields; ALL adds this module's. */
static int cmd_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 2 && argc != 3) return rm.WrongArity(ctx);
    bool all = false;
    if (argc == 3) {
        if (!bfm_arg_is(argv[2], "ALL")) return bfm_reply_error(ctx, BFM_E_INVALID_INFO);
        all = true;
    }
    bfm_key k;
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ, cf_type, BFM_E_NOT_FOUND, BFM_E_NONE))
        return REDISMODULE_OK;
    reply_info(ctx, k.value, all);
    bfm_key_close(&k);
    return REDISMODULE_OK;
}

/* CF.SCANDUMP key pos: (1, header) for pos 0, then (next, bytes), then
 * (0, nil); (0, nil) at once for a filter without items, as RedisBloom
 * answers (so, as there, such a filter is not restored from its dump). */
static int cmd_scandump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 3) return rm.WrongArity(ctx);
    long long pos;
    if (rm.StringToLongLong(argv[2], &pos) != REDISMODULE_OK || pos < 0)
        return bfm_reply_error(ctx, BFM_E_CF_POSITION);
    bfm_key k;
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ, cf_type, BFM_E_NOT_FOUND, BFM_E_NONE))
        return REDISMODULE_OK;
    bool empty = bfm_cf_items(k.value) == 0;
    bfm_dump_reply_scan(ctx, &bfm_cf_ops, k.value, empty ? -1 : pos, true);
    bfm_key_close(&k);
    return REDISMODULE_OK;
}

/* CF.LOADCHUNK key pos data: pos 1 creates the filter from a header on a
 * missing key; any other position writes a chunk into an existing one. */
static int cmd_loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 4) return rm.WrongArity(ctx);
    long long pos;
    if (rm.StringToLongLong(argv[2], &pos) != REDISMODULE_OK || pos == 0)
        return bfm_reply_error(ctx, BFM_E_CF_POSITION);
    size_t len;
    const char *data = rm.StringPtrLen(argv[3], &len);
    bool header = pos == 1;
    bfm_key k;
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE, cf_type,
                      header ? BFM_E_NONE : BFM_E_NOT_FOUND, header ? BFM_E_ITEM_EXISTS : BFM_E_NONE))
        return REDISMODULE_OK;
    bfm_err err = BFM_E_NONE;
    if (header) {
        bfm_cf *c = NULL;
        int rc = bfm_cf_from_header(&c, data, len);
        if (rc == BF_OK)
            bfm_key_set(&k, c);
        else /* RedisBloom's split: a header of the wrong size, or bad content */
            err = bfm_cf_header_size_ok(len) ? bfm_status_error(BFM_OP_CF_RESTORE, rc)
                                             : BFM_E_CF_BAD_HEADER;
    } else if (len == 0 || !bfm_dump_write_chunk(&bfm_cf_ops, k.value, pos, data, len)) {
        err = BFM_E_CF_BAD_CHUNK;
    }
    bfm_key_close(&k);
    if (err) return bfm_reply_error(ctx, err);
    rm.ReplicateVerbatim(ctx);
    return rm.ReplyWithSimpleString(ctx, "OK");
}

/* CF.COMPACT key: frees the newest sub-filters left empty by deletes
 * (bfm_cf_compact says why fingerprints do not move). OK. */
static int cmd_compact(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 2) return rm.WrongArity(ctx);
    bfm_key k;
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE, cf_type,
                      BFM_E_CF_COMPACT_NOT_FOUND, BFM_E_NONE))
        return REDISMODULE_OK;
    uint32_t freed = bfm_cf_compact(k.value);
    bfm_key_close(&k);
    if (freed) rm.ReplicateVerbatim(ctx);
    return rm.ReplyWithSimpleString(ctx, "OK");
}

/* CF.DEBUG key: RedisBloom's one line, with this chain's figures (the
 * first sub-filter's buckets, as CF.INFO, and the bucket size). */
static int cmd_debug(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 2) return rm.WrongArity(ctx);
    bfm_key k;
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ, cf_type, BFM_E_NOT_FOUND, BFM_E_NONE))
        return REDISMODULE_OK;
    const bfm_cf *c = k.value;
    char line[256];
    int len = snprintf(line, sizeof line,
                       "bktsize:%u buckets:%llu items:%llu deletes:%llu filters:%u "
                       "max_iterations:%u expansion:%u",
                       c->bucket_size, (unsigned long long)bf_cuckoo_num_buckets(c->f[0]),
                       (unsigned long long)bfm_cf_items(c), (unsigned long long)c->deletes, c->n,
                       c->max_kicks, c->expansion);
    bfm_key_close(&k);
    return rm.ReplyWithStringBuffer(ctx, line, (size_t)len);
}

/* ---- The data type (dump.h does the work) ---- */

BFM_DUMP_TYPE_METHODS(type_methods, bfm_cf_ops, bfm_cf_mem_usage);

static const bfm_command_def commands[] = {
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
    {"cf.debug", cmd_debug, "readonly fast", false, "A cuckoo filter's layout in one line"},
    {"cf.compact", cmd_compact, "write", true, "Frees sub-filters left empty by deletes"},
    {"cf.scandump", cmd_scandump, "readonly", false, "Dumps a cuckoo filter in chunks"},
    {"cf.loadchunk", cmd_loadchunk, "write deny-oom", true, "Restores a cuckoo filter from SCANDUMP chunks"},
};

const bfm_type_def bfm_cf_def = {
    .name = "BLKFLT-CF",
    .ops = &bfm_cf_ops,
    .methods = &type_methods,
    .type = &cf_type,
    .commands = commands,
    .num_commands = sizeof commands / sizeof commands[0],
};
