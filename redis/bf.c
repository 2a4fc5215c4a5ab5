/*
 * BF.* : RedisBloom's Bloom filter commands over the scalable SBBF, and the
 * BF data type (RDB, AOF rewrite, COPY, DEBUG DIGEST, MEMORY USAGE).
 *
 * Syntax, replies and error texts are RedisBloom 2.8's, so its clients
 * work unchanged. Where this module differs (documented in docs/redis.md):
 * a key of another type gives WRONGTYPE for every command (RedisBloom
 * answers 0 to BF.EXISTS/BF.MEXISTS); unknown options are refused with
 * "Unknown argument received" (RedisBloom ignores most); BF.RESERVE takes
 * SEED; BF.INFO takes ERROR, FILL, FPR and ALL besides RedisBloom's fields.
 *
 * Replication: a command replicates only if it changed the key. A command
 * that creates a filter first replicates an explicit BF.RESERVE with every
 * parameter and the seed, so a replica (and the AOF) builds the same filter
 * whatever its own load-time defaults and however the seed was chosen; the
 * command itself follows verbatim.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <blockfilter.h>
#include <blockfilter_advanced.h>

#include "bf_value.h"
#include "command.h"

static RedisModuleType *bf_type;

/* Replicates "BF.RESERVE key error capacity [NONSCALING|EXPANSION e] SEED s"
 * describing b exactly. */
static void replicate_reserve(RedisModuleCtx *ctx, RedisModuleString *key, const bfm_bf *b) {
    char err[40], cap[24], exp[24], ratio[40], seed[24];
    snprintf(err, sizeof err, "%.17g", b->params.fpp);
    snprintf(cap, sizeof cap, "%llu", (unsigned long long)b->params.capacity);
    snprintf(exp, sizeof exp, "%u", b->params.expansion);
    snprintf(ratio, sizeof ratio, "%.17g", b->params.ratio);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)bf_scalable_seed(b->sc));
    if (b->params.flags & BF_SCALABLE_NONSCALING)
        rm.Replicate(ctx, "BF.RESERVE", "sccccccc", key, err, cap, "NONSCALING", "RATIO", ratio, "SEED",
                     seed);
    else
        rm.Replicate(ctx, "BF.RESERVE", "scccccccc", key, err, cap, "EXPANSION", exp, "RATIO", ratio,
                     "SEED", seed);
}

/* ---- Creating ---- */

typedef struct create_opts {
    double error_rate;
    long long capacity;
    long long expansion;
    double ratio;
    bool nonscaling;
    bool has_seed;
    uint64_t seed;
} create_opts;

static void default_opts(create_opts *o) {
    o->error_rate = bfm_cfg.bf_error_rate;
    o->capacity = bfm_cfg.bf_initial_size;
    o->expansion = bfm_cfg.bf_expansion;
    o->ratio = bfm_cfg.bf_ratio;
    o->nonscaling = false;
    o->has_seed = false;
    o->seed = 0;
}

static int create(bfm_bf **out, const create_opts *o) {
    bf_scalable_params p = {0};
    p.capacity = (uint64_t)o->capacity;
    p.fpp = o->error_rate;
    p.expansion = (unsigned)o->expansion;
    p.ratio = o->ratio;
    p.flags = o->nonscaling ? BF_SCALABLE_NONSCALING : 0;
    uint64_t seed = o->seed;
    if (!o->has_seed) {
        int rc = bfm_new_seed(&seed);
        if (rc != BF_OK) return rc;
    }
    return bfm_bf_new(out, &p, seed);
}

/* BF.RESERVE key error_rate capacity [EXPANSION e] [NONSCALING] [RATIO r] [SEED s] */
static int cmd_reserve(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc < 4) return rm.WrongArity(ctx);
    create_opts o;
    default_opts(&o);
    if (rm.StringToDouble(argv[2], &o.error_rate) != REDISMODULE_OK)
        return bfm_reply_error(ctx, BFM_E_BAD_ERROR_RATE);
    if (!(o.error_rate > 0 && o.error_rate < 1)) return bfm_reply_error(ctx, BFM_E_BF_ERROR_RANGE);
    if (rm.StringToLongLong(argv[3], &o.capacity) != REDISMODULE_OK)
        return bfm_reply_error(ctx, BFM_E_BF_BAD_CAPACITY);
    if (o.capacity <= 0) return bfm_reply_error(ctx, BFM_E_BF_CAPACITY_RANGE);
    bool has_expansion = false;
    for (int i = 4; i < argc; i++) {
        if (bfm_arg_is(argv[i], "NONSCALING")) {
            o.nonscaling = true;
        } else if (bfm_arg_is(argv[i], "EXPANSION")) {
            if (i + 1 == argc) return bfm_reply_error(ctx, BFM_E_BF_NO_EXPANSION);
            if (rm.StringToLongLong(argv[++i], &o.expansion) != REDISMODULE_OK)
                return bfm_reply_error(ctx, BFM_E_BF_BAD_EXPANSION);
            has_expansion = true;
        } else if (bfm_arg_is(argv[i], "RATIO")) {
            if (i + 1 == argc) return rm.WrongArity(ctx);
            if (rm.StringToDouble(argv[++i], &o.ratio) != REDISMODULE_OK || !(o.ratio > 0 && o.ratio < 1))
                return bfm_reply_error(ctx, BFM_E_BF_BAD_RATIO);
        } else if (bfm_arg_is(argv[i], "SEED")) {
            if (i + 1 == argc) return rm.WrongArity(ctx);
            if (!bfm_parse_u64(argv[++i], &o.seed)) return bfm_reply_error(ctx, BFM_E_BAD_SEED);
            o.has_seed = true;
        } else {
            return bfm_reply_error(ctx, BFM_E_UNKNOWN_ARG);
        }
    }
    if (has_expansion && o.nonscaling) return bfm_reply_error(ctx, BFM_E_BF_NONSCALING_EXPANSION);
    if (has_expansion && o.expansion < 1) return bfm_reply_error(ctx, BFM_E_BF_EXPANSION_RANGE);
    if (o.expansion > BF_SCALABLE_MAX_EXPANSION) return bfm_reply_error(ctx, BFM_E_BF_BAD_EXPANSION);

    bfm_key k;
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE, bf_type, BFM_E_NONE,
                      BFM_E_ITEM_EXISTS))
        return REDISMODULE_OK;
    bfm_bf *b = NULL;
    int rc = create(&b, &o);
    if (rc == BF_OK) bfm_key_set(&k, b);
    bfm_key_close(&k);
    if (rc != BF_OK) return bfm_reply_error(ctx, bfm_status_error(BFM_OP_BF_CREATE, rc));
    replicate_reserve(ctx, argv[1], b);
    return rm.ReplyWithSimpleString(ctx, "OK");
}

/* ---- Adding ---- */

/* Adds items to the filter at keyname, creating it with o unless nocreate.
 * multi: reply with an array (BF.MADD, BF.INSERT) rather than one value.
 * The chain refuses an add that would need a layer past its growth guard
 * (bf_value.h) with BF_ETOOBIG: "ERR problem inserting into filter". */
static int add_common(RedisModuleCtx *ctx, RedisModuleString *keyname, RedisModuleString **items,
                      size_t n, const create_opts *o, bool nocreate, bool multi) {
    bfm_key k;
    if (!bfm_key_open(&k, ctx, keyname, REDISMODULE_READ | REDISMODULE_WRITE, bf_type,
                      nocreate ? BFM_E_NOT_FOUND : BFM_E_NONE, BFM_E_NONE))
        return REDISMODULE_OK;
    bfm_bf *b = k.value, *created = NULL;
    bfm_err err = BFM_E_NONE;
    if (!b) {
        int rc = create(&created, o);
        if (rc != BF_OK) err = bfm_status_error(BFM_OP_BF_CREATE, rc);
        b = created;
    }
    bfm_hashes hb;
    if (!err && !bfm_hashes_of(&hb, bf_scalable_seed(b->sc), items, n)) err = BFM_E_NOMEM;
    size_t done = 0;
    int rc = err ? BF_OK : bf_scalable_insert_hashes(b->sc, hb.h, n, hb.flag, &done);
    if (created && done > 0) {
        bfm_key_set(&k, created);
    } else if (created) {
        /* A new filter that took nothing: leave the key as it was. */
        bfm_bf_free(created);
        created = NULL;
    }
    bfm_key_close(&k);
    if (err) return bfm_reply_error(ctx, err);

    bool changed = created != NULL;
    for (size_t i = 0; i < done; i++) changed |= hb.flag[i] != 0;
    if (multi) rm.ReplyWithArray(ctx, (long)(done + (rc != BF_OK)));
    for (size_t i = 0; i < done; i++) bfm_reply_bool(ctx, hb.flag[i] != 0);
    if (rc != BF_OK) bfm_reply_error(ctx, bfm_status_error(BFM_OP_BF_INSERT, rc));
    bfm_hashes_free(&hb);
    if (created) replicate_reserve(ctx, keyname, created);
    if (changed) rm.ReplicateVerbatim(ctx);
    return REDISMODULE_OK;
}

/* BF.ADD key item */
static int cmd_add(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 3) return rm.WrongArity(ctx);
    create_opts o;
    default_opts(&o);
    return add_common(ctx, argv[1], argv + 2, 1, &o, false, false);
}

/* BF.MADD key item [item ...] */
static int cmd_madd(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc < 3) return rm.WrongArity(ctx);
    create_opts o;
    default_opts(&o);
    return add_common(ctx, argv[1], argv + 2, (size_t)argc - 2, &o, false, true);
}

/* BF.INSERT key [CAPACITY c] [ERROR e] [EXPANSION x] [RATIO r] [NOCREATE]
 *           [NONSCALING] ITEMS item [item ...] */
static int cmd_insert(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc < 4) return rm.WrongArity(ctx);
    create_opts o;
    default_opts(&o);
    bool nocreate = false;
    int items = -1;
    for (int i = 2; i < argc && items < 0; i++) {
        RedisModuleString *a = argv[i];
        if (bfm_arg_is(a, "ITEMS")) {
            items = i + 1;
        } else if (bfm_arg_is(a, "ERROR")) {
            if (i + 1 == argc) return rm.WrongArity(ctx);
            if (rm.StringToDouble(argv[++i], &o.error_rate) != REDISMODULE_OK)
                return bfm_reply_error(ctx, BFM_E_BF_INSERT_ERROR_RATE);
        } else if (bfm_arg_is(a, "EXPANSION")) {
            if (i + 1 == argc) return rm.WrongArity(ctx);
            if (rm.StringToLongLong(argv[++i], &o.expansion) != REDISMODULE_OK)
                return bfm_reply_error(ctx, BFM_E_BF_INSERT_EXPANSION);
        } else if (bfm_arg_is(a, "CAPACITY")) {
            if (i + 1 == argc) return rm.WrongArity(ctx);
            if (rm.StringToLongLong(argv[++i], &o.capacity) != REDISMODULE_OK)
                return bfm_reply_error(ctx, BFM_E_BAD_CAPACITY);
        } else if (bfm_arg_is(a, "RATIO")) {
            if (i + 1 == argc) return rm.WrongArity(ctx);
            if (rm.StringToDouble(argv[++i], &o.ratio) != REDISMODULE_OK)
                return bfm_reply_error(ctx, BFM_E_BF_INSERT_RATIO);
        } else if (bfm_arg_is(a, "NOCREATE")) {
            nocreate = true;
        } else if (bfm_arg_is(a, "NONSCALING")) {
            o.nonscaling = true;
        } else {
            return bfm_reply_error(ctx, BFM_E_UNKNOWN_ARG);
        }
    }
    if (items < 0 || items == argc) return rm.WrongArity(ctx);
    if (!(o.error_rate > 0 && o.error_rate < 1) || !(o.ratio > 0 && o.ratio < 1) || o.capacity < 1 ||
        o.expansion < 1 ||
        o.expansion > BF_SCALABLE_MAX_EXPANSION)
        return bfm_reply_error(ctx, BFM_E_BF_INSERT_BAD_ARG);
    return add_common(ctx, argv[1], argv + items, (size_t)(argc - items), &o, nocreate, true);
}

/* ---- Queries ---- */

/* BF.EXISTS key item */
static int cmd_exists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 3) return rm.WrongArity(ctx);
    bfm_key k;
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ, bf_type, BFM_E_NONE, BFM_E_NONE))
        return REDISMODULE_OK;
    bool hit = false;
    if (k.value) {
        size_t len;
        const char *s = rm.StringPtrLen(argv[2], &len);
        hit = bf_scalable_contains(((bfm_bf *)k.value)->sc, s, len);
    }
    bfm_key_close(&k);
    bfm_reply_bool(ctx, hit);
    return REDISMODULE_OK;
}

/* BF.MEXISTS key item [item ...] */
static int cmd_mexists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc < 3) return rm.WrongArity(ctx);
    bfm_key k;
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ, bf_type, BFM_E_NONE, BFM_E_NONE))
        return REDISMODULE_OK;
    const bfm_bf *b = k.value;
    size_t n = (size_t)argc - 2;
    bfm_hashes hb;
    bool hashed = b && bfm_hashes_of(&hb, bf_scalable_seed(b->sc), argv + 2, n);
    if (hashed) bf_scalable_contains_hashes(b->sc, hb.h, n, hb.flag);
    bfm_key_close(&k);
    if (b && !hashed) return bfm_reply_error(ctx, BFM_E_NOMEM);
    rm.ReplyWithArray(ctx, (long)n);
    for (size_t i = 0; i < n; i++) bfm_reply_bool(ctx, hashed && hb.flag[i]);
    if (hashed) bfm_hashes_free(&hb);
    return REDISMODULE_OK;
}

/* BF.CARD key: items added (0 for a missing key). */
static int cmd_card(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 2) return rm.WrongArity(ctx);
    bfm_key k;
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ, bf_type, BFM_E_NONE, BFM_E_NONE))
        return REDISMODULE_OK;
    uint64_t n = k.value ? bfm_bf_count(k.value) : 0;
    bfm_key_close(&k);
    return rm.ReplyWithLongLong(ctx, (long long)n);
}

/* BF.INFO key [CAPACITY|SIZE|FILTERS|ITEMS|EXPANSION|ERROR|FILL|FPR|ALL] */
enum info_field {
    F_CAPACITY, F_SIZE, F_FILTERS, F_ITEMS, F_EXPANSION, /* RedisBloom's */
    F_ERROR, F_RATIO, F_FILL, F_FPR, F_BOUND, F_KEYED,   /* this module's */
    F_COUNT
};
static const char *const info_names[F_COUNT] = {
    "Capacity", "Size", "Number of filters", "Number of items inserted", "Expansion rate",
    "Error rate", "Tightening ratio", "Fill ratio", "Estimated FPR", "FPR bound", "Keyed hashing",
};

static void reply_field(RedisModuleCtx *ctx, const bfm_bf *b, const bf_scalable_stats *in, int f) {
    switch (f) {
    case F_CAPACITY: rm.ReplyWithLongLong(ctx, (long long)bfm_bf_capacity(b)); break;
    case F_SIZE: rm.ReplyWithLongLong(ctx, (long long)bfm_bf_mem_usage(b)); break;
    case F_FILTERS: rm.ReplyWithLongLong(ctx, (long long)bfm_bf_num_layers(b)); break;
    case F_ITEMS: rm.ReplyWithLongLong(ctx, (long long)bfm_bf_count(b)); break;
    case F_EXPANSION:
        if (b->params.flags & BF_SCALABLE_NONSCALING)
            rm.ReplyWithNull(ctx);
        else
            rm.ReplyWithLongLong(ctx, b->params.expansion);
        break;
    case F_ERROR: rm.ReplyWithDouble(ctx, b->params.fpp); break;
    case F_RATIO: rm.ReplyWithDouble(ctx, b->params.ratio); break;
    case F_FILL: rm.ReplyWithDouble(ctx, in->fill_ratio); break;
    case F_FPR: rm.ReplyWithDouble(ctx, in->est_fpp); break;
    case F_BOUND: rm.ReplyWithDouble(ctx, in->bound_fpp); break;
    case F_KEYED: rm.ReplyWithLongLong(ctx, bf_scalable_seed(b->sc) != 0); break;
    }
}

/* The fields BF.INFO key [field] replies: [*lo, *hi). false for an
 * unknown field. */
static bool info_fields(RedisModuleString *field, int *lo, int *hi) {
    static const char *const words[F_COUNT] = {"CAPACITY", "SIZE", "FILTERS", "ITEMS", "EXPANSION",
                                               "ERROR", "RATIO", "FILL", "FPR", "BOUND", "KEYED"};
    *lo = 0;
    *hi = F_EXPANSION + 1;
    if (!field) return true;
    if (bfm_arg_is(field, "ALL")) {
        *hi = F_COUNT;
        return true;
    }
    for (int f = 0; f < F_COUNT; f++)
        if (bfm_arg_is(field, words[f])) {
            *lo = f;
            *hi = f + 1;
            return true;
        }
    return false;
}

static void reply_info(RedisModuleCtx *ctx, const bfm_bf *b, int lo, int hi, bool one) {
    bf_scalable_stats in;
    memset(&in, 0, sizeof in);
    if (lo <= F_BOUND && hi > F_FILL) bf_scalable_get_stats(b->sc, &in); /* O(bytes) */
    if (one) {
        /* One field: RESP3 a one-entry map, RESP2 a one-element array. */
        if (bfm_resp3(ctx)) {
            rm.ReplyWithMap(ctx, 1);
            rm.ReplyWithSimpleString(ctx, info_names[lo]);
        } else {
            rm.ReplyWithArray(ctx, 1);
        }
        reply_field(ctx, b, &in, lo);
        return;
    }
    bfm_reply_map(ctx, hi - lo);
    for (int f = lo; f < hi; f++) {
        rm.ReplyWithSimpleString(ctx, info_names[f]);
        reply_field(ctx, b, &in, f);
    }
}

static int cmd_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 2 && argc != 3) return rm.WrongArity(ctx);
    int lo, hi;
    bool known = info_fields(argc == 3 ? argv[2] : NULL, &lo, &hi);
    bfm_key k; /* a missing key is the first error, then an unknown field */
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ, bf_type, BFM_E_NOT_FOUND, BFM_E_NONE))
        return REDISMODULE_OK;
    if (known) reply_info(ctx, k.value, lo, hi, argc == 3 && hi == lo + 1);
    bfm_key_close(&k);
    return known ? REDISMODULE_OK : bfm_reply_error(ctx, BFM_E_INVALID_INFO);
}

/* BF.DEBUG key: RedisBloom's lines, "size:<items>" and one per layer,
 * oldest first, with this chain's figures: an SBBF layer sets 8 bits per
 * item from a 64-bit hash, and its ratio is its FPR target. */
static int cmd_debug(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 2) return rm.WrongArity(ctx);
    bfm_key k;
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ, bf_type, BFM_E_NOT_FOUND, BFM_E_NONE))
        return REDISMODULE_OK;
    const bfm_bf *b = k.value;
    size_t n = bfm_bf_num_layers(b);
    char line[256];
    rm.ReplyWithArray(ctx, (long)(1 + n));
    int len = snprintf(line, sizeof line, "size:%llu", (unsigned long long)bfm_bf_count(b));
    rm.ReplyWithStringBuffer(ctx, line, (size_t)len);
    for (size_t i = 0; i < n; i++) {
        bf_scalable_layer l;
        bf_scalable_get_layer(b->sc, i, &l);
        unsigned long long bytes = (unsigned long long)bf_sbbf_num_bytes(l.sbbf);
        len = snprintf(line, sizeof line,
                       "bytes:%llu bits:%llu hashes:8 hashwidth:64 capacity:%llu size:%llu ratio:%g",
                       bytes, bytes * 8, (unsigned long long)l.capacity, (unsigned long long)l.count,
                       l.fpp);
        rm.ReplyWithStringBuffer(ctx, line, (size_t)len);
    }
    bfm_key_close(&k);
    return REDISMODULE_OK;
}

/* ---- SCANDUMP / LOADCHUNK ---- */

/* BF.SCANDUMP key iter: (1, header) for iter 0; then (next, bytes) with
 * next = 1 + the offset after the chunk in the concatenated bitsets; (0, "")
 * at the end. */
static int cmd_scandump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 3) return rm.WrongArity(ctx);
    long long iter;
    bool numeric = rm.StringToLongLong(argv[2], &iter) == REDISMODULE_OK;
    bfm_key k; /* the key's errors first, then the iterator's */
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ, bf_type, BFM_E_NOT_FOUND, BFM_E_NONE))
        return REDISMODULE_OK;
    if (numeric) bfm_dump_reply_scan(ctx, &bfm_bf_ops, k.value, iter, false);
    bfm_key_close(&k);
    return numeric ? REDISMODULE_OK : bfm_reply_error(ctx, BFM_E_BF_ITER);
}

/* Where BF.LOADCHUNK's data goes in a filter: RedisBloom's three refusals,
 * in its order; then the write. */
static bfm_err load_chunk(bfm_bf *b, long long iter, const char *data, size_t len) {
    size_t layer;
    uint64_t off, left;
    if (iter <= 0 || (unsigned long long)iter < len) return BFM_E_BF_BAD_DATA;
    if ((unsigned long long)iter - len < 1 ||
        !bfm_dump_locate(&bfm_bf_ops, b, (uint64_t)iter - len - 1, &layer, &off, &left))
        return BFM_E_BF_NO_LINK;
    if (len > left) return BFM_E_BF_CHUNK_TOO_BIG;
    if (!bfm_dump_write_chunk(&bfm_bf_ops, b, iter, data, len)) return BFM_E_BF_BAD_DATA;
    return BFM_E_NONE;
}

/* BF.LOADCHUNK key iter data: iter 1 on a missing key creates the filter
 * from a header; otherwise data goes to bytes [iter - len - 1, iter - 1). */
static int cmd_loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 4) return rm.WrongArity(ctx);
    long long iter;
    if (rm.StringToLongLong(argv[2], &iter) != REDISMODULE_OK)
        return bfm_reply_error(ctx, BFM_E_BF_LOAD_ITER);
    size_t len;
    const char *data = rm.StringPtrLen(argv[3], &len);
    bfm_key k;
    if (!bfm_key_open(&k, ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE, bf_type,
                      iter == 1 ? BFM_E_NONE : BFM_E_NOT_FOUND, BFM_E_NONE))
        return REDISMODULE_OK;
    bfm_err err;
    if (k.value) {
        err = load_chunk(k.value, iter, data, len);
    } else {
        bfm_bf *b = NULL;
        int rc = bfm_bf_from_header(&b, data, len);
        err = rc == BF_OK ? BFM_E_NONE : bfm_status_error(BFM_OP_BF_RESTORE, rc);
        if (rc == BF_OK) bfm_key_set(&k, b);
    }
    bfm_key_close(&k);
    if (err) return bfm_reply_error(ctx, err);
    rm.ReplicateVerbatim(ctx);
    return rm.ReplyWithSimpleString(ctx, "OK");
}

/* ---- The data type (dump.h does the work) ---- */

BFM_DUMP_TYPE_METHODS(type_methods, bfm_bf_ops, bfm_bf_mem_usage);

static const bfm_command_def commands[] = {
    {"bf.reserve", cmd_reserve, "write deny-oom", true, "Creates an empty scalable Bloom filter"},
    {"bf.add", cmd_add, "write deny-oom", true, "Adds an item, creating the filter if needed"},
    {"bf.madd", cmd_madd, "write deny-oom", true, "Adds items, creating the filter if needed"},
    {"bf.insert", cmd_insert, "write deny-oom", true, "Adds items, creating the filter with options"},
    {"bf.exists", cmd_exists, "readonly fast", false, "Whether an item may have been added"},
    {"bf.mexists", cmd_mexists, "readonly fast", false, "Whether each item may have been added"},
    {"bf.info", cmd_info, "readonly fast", false, "Information about a Bloom filter"},
    {"bf.card", cmd_card, "readonly fast", false, "Items added to a Bloom filter"},
    {"bf.debug", cmd_debug, "readonly fast", false, "A Bloom filter's layers, one line each"},
    {"bf.scandump", cmd_scandump, "readonly", false, "Dumps a Bloom filter in chunks"},
    {"bf.loadchunk", cmd_loadchunk, "write deny-oom", true, "Restores a Bloom filter from SCANDUMP chunks"},
};

/* Not RedisBloom's "MBbloom--": the encodings differ, so an RDB of one must
 * never be read by the other. */
const bfm_type_def bfm_bf_def = {
    .name = "BLKFLT-BF",
    .ops = &bfm_bf_ops,
    .methods = &type_methods,
    .type = &bf_type,
    .commands = commands,
    .num_commands = sizeof commands / sizeof commands[0],
};
