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

#include "bf_value.h"
#include "module.h"

RedisModuleType *bfm_bf_type;


static const char *status_error(bfm_key_status st) {
    return st == BFM_KEY_WRONGTYPE ? REDISMODULE_ERRORMSG_WRONGTYPE : "ERR not found";
}

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
        return rm.ReplyWithError(ctx, "ERR bad error rate");
    if (!(o.error_rate > 0 && o.error_rate < 1))
        return rm.ReplyWithError(ctx, "ERR (0 < error rate range < 1) ");
    if (rm.StringToLongLong(argv[3], &o.capacity) != REDISMODULE_OK)
        return rm.ReplyWithError(ctx, "ERR bad capacity");
    if (o.capacity <= 0) return rm.ReplyWithError(ctx, "ERR (capacity should be larger than 0)");
    bool has_expansion = false;
    for (int i = 4; i < argc; i++) {
        if (bfm_arg_is(argv[i], "NONSCALING")) {
            o.nonscaling = true;
        } else if (bfm_arg_is(argv[i], "EXPANSION")) {
            if (i + 1 == argc) return rm.ReplyWithError(ctx, "ERR no expansion");
            if (rm.StringToLongLong(argv[++i], &o.expansion) != REDISMODULE_OK)
                return rm.ReplyWithError(ctx, "ERR bad expansion");
            has_expansion = true;
        } else if (bfm_arg_is(argv[i], "RATIO")) {
            if (i + 1 == argc) return rm.WrongArity(ctx);
            if (rm.StringToDouble(argv[++i], &o.ratio) != REDISMODULE_OK || !(o.ratio > 0 && o.ratio < 1))
                return rm.ReplyWithError(ctx, "ERR bad ratio");
        } else if (bfm_arg_is(argv[i], "SEED")) {
            if (i + 1 == argc) return rm.WrongArity(ctx);
            if (!bfm_parse_u64(argv[++i], &o.seed)) return rm.ReplyWithError(ctx, "ERR bad seed");
            o.has_seed = true;
        } else {
            return rm.ReplyWithError(ctx, "Unknown argument received");
        }
    }
    if (has_expansion && o.nonscaling)
        return rm.ReplyWithError(ctx, "Nonscaling filters cannot expand");
    if (has_expansion && o.expansion < 1)
        return rm.ReplyWithError(ctx, "ERR expansion should be greater or equal to 1");
    if (o.expansion > BF_SCALABLE_MAX_EXPANSION) return rm.ReplyWithError(ctx, "ERR bad expansion");

    RedisModuleKey *key = rm.OpenKey(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_bf_type, &v);
    if (st != BFM_KEY_EMPTY) {
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, st == BFM_KEY_OK ? "ERR item exists" : status_error(st));
    }
    bfm_bf *b;
    int rc = create(&b, &o);
    if (rc != BF_OK) {
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, bfm_create_error(rc));
    }
    rm.ModuleTypeSetValue(key, bfm_bf_type, b);
    rm.CloseKey(key);
    replicate_reserve(ctx, argv[1], b);
    return rm.ReplyWithSimpleString(ctx, "OK");
}

/* ---- Adding ---- */

/* Growth guard. Each new layer tightens its FPR target by the chain's
 * ratio, and below about 1e-6 an SBBF's bits per key climb steeply (65 bits
 * at 1e-6, 618 at 1e-10, 3347 at 1e-12): a chain that keeps growing (say
 * EXPANSION 1 and a small capacity) would soon ask for gigabytes per layer
 * for a handful of items. A layer is added only if its bitset costs at most
 * this many bits per item of its capacity; past that the chain refuses adds
 * as RedisBloom does when growth fails. */
#define MAX_GROWTH_BITS_PER_ITEM 512.0

static bool growth_allowed(const bfm_bf *b, const bf_scalable_layer *last) {
    if (b->params.flags & BF_SCALABLE_NONSCALING) return true; /* the library says full */
    if (last->capacity > UINT64_MAX / b->params.expansion) return false;
    uint64_t cap = last->capacity * b->params.expansion;
    size_t bytes;
    if (bf_sbbf_compact_bytes(cap, last->fpp * b->params.ratio, &bytes) != BF_OK) return false;
    return (double)bytes * 8.0 <= MAX_GROWTH_BITS_PER_ITEM * (double)cap;
}

/* Adds hashes in order, as bf_scalable_insert_hashes, but checks the growth
 * guard whenever the newest layer is full. */
static int add_guarded(bfm_bf *b, const uint64_t *h, size_t n, uint8_t *flag, size_t *done) {
    *done = 0;
    while (*done < n) {
        bf_scalable_layer last;
        bf_scalable_get_layer(b->sc, bfm_bf_num_layers(b) - 1, &last);
        uint64_t room = last.capacity - last.count;
        size_t take = n - *done;
        if (room == 0) {
            if (!growth_allowed(b, &last)) return BF_ETOOBIG;
            take = 1;
        } else if (room < take) {
            take = (size_t)room;
        }
        size_t d = 0;
        int rc = bf_scalable_insert_hashes(b->sc, h + *done, take, flag + *done, &d);
        *done += d;
        if (rc != BF_OK) return rc;
    }
    return BF_OK;
}

/* Adds items to the filter at keyname, creating it with o unless nocreate.
 * multi: reply with an array (BF.MADD, BF.INSERT) rather than one value. */
static int add_common(RedisModuleCtx *ctx, RedisModuleString *keyname, RedisModuleString **items,
                      size_t n, const create_opts *o, bool nocreate, bool multi) {
    RedisModuleKey *key = rm.OpenKey(ctx, keyname, REDISMODULE_READ | REDISMODULE_WRITE);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_bf_type, &v);
    bfm_bf *b = v;
    bool created = false;
    if (st == BFM_KEY_EMPTY && !nocreate) {
        int rc = create(&b, o);
        if (rc != BF_OK) {
            rm.CloseKey(key);
            return rm.ReplyWithError(ctx, bfm_create_error(rc));
        }
        created = true;
    } else if (st != BFM_KEY_OK) {
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, status_error(st));
    }
    bfm_hashes hb;
    if (!bfm_hashes_of(&hb, bf_scalable_seed(b->sc), items, n)) {
        if (created) bfm_bf_free(b);
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, "ERR Insufficient memory");
    }
    size_t done = 0;
    int rc = add_guarded(b, hb.h, n, hb.flag, &done);
    if (created && done == 0) {
        /* A new filter that took nothing: leave the key as it was. */
        bfm_bf_free(b);
        created = false;
    } else if (created) {
        rm.ModuleTypeSetValue(key, bfm_bf_type, b);
    }
    rm.CloseKey(key);

    bool changed = created;
    for (size_t i = 0; i < done; i++) changed |= hb.flag[i] != 0;
    const char *err = rc == BF_OK    ? NULL
                      : rc == BF_EFULL ? "ERR non scaling filter is full"
                                       : "ERR problem inserting into filter";
    if (multi) rm.ReplyWithArray(ctx, (long)(done + (err ? 1 : 0)));
    for (size_t i = 0; i < done; i++) bfm_reply_bool(ctx, hb.flag[i] != 0);
    if (err) rm.ReplyWithError(ctx, err);
    bfm_hashes_free(&hb);
    if (created) replicate_reserve(ctx, keyname, b);
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
                return rm.ReplyWithError(ctx, "Bad error rate");
        } else if (bfm_arg_is(a, "EXPANSION")) {
            if (i + 1 == argc) return rm.WrongArity(ctx);
            if (rm.StringToLongLong(argv[++i], &o.expansion) != REDISMODULE_OK)
                return rm.ReplyWithError(ctx, "Bad expansion");
        } else if (bfm_arg_is(a, "CAPACITY")) {
            if (i + 1 == argc) return rm.WrongArity(ctx);
            if (rm.StringToLongLong(argv[++i], &o.capacity) != REDISMODULE_OK)
                return rm.ReplyWithError(ctx, "Bad capacity");
        } else if (bfm_arg_is(a, "RATIO")) {
            if (i + 1 == argc) return rm.WrongArity(ctx);
            if (rm.StringToDouble(argv[++i], &o.ratio) != REDISMODULE_OK)
                return rm.ReplyWithError(ctx, "Bad ratio");
        } else if (bfm_arg_is(a, "NOCREATE")) {
            nocreate = true;
        } else if (bfm_arg_is(a, "NONSCALING")) {
            o.nonscaling = true;
        } else {
            return rm.ReplyWithError(ctx, "Unknown argument received");
        }
    }
    if (items < 0 || items == argc) return rm.WrongArity(ctx);
    if (!(o.error_rate > 0 && o.error_rate < 1) || !(o.ratio > 0 && o.ratio < 1) || o.capacity < 1 ||
        o.expansion < 1 ||
        o.expansion > BF_SCALABLE_MAX_EXPANSION)
        return rm.ReplyWithError(ctx, "Bad argument received");
    return add_common(ctx, argv[1], argv + items, (size_t)(argc - items), &o, nocreate, true);
}

/* ---- Queries ---- */

/* BF.EXISTS key item */
static int cmd_exists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 3) return rm.WrongArity(ctx);
    RedisModuleKey *key = rm.OpenKey(ctx, argv[1], REDISMODULE_READ);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_bf_type, &v);
    bool hit = false;
    if (st == BFM_KEY_OK) {
        size_t len;
        const char *s = rm.StringPtrLen(argv[2], &len);
        hit = bf_scalable_contains(((bfm_bf *)v)->sc, s, len);
    }
    if (key) rm.CloseKey(key);
    if (st == BFM_KEY_WRONGTYPE) return rm.ReplyWithError(ctx, REDISMODULE_ERRORMSG_WRONGTYPE);
    bfm_reply_bool(ctx, hit);
    return REDISMODULE_OK;
}

/* BF.MEXISTS key item [item ...] */
static int cmd_mexists(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc < 3) return rm.WrongArity(ctx);
    RedisModuleKey *key = rm.OpenKey(ctx, argv[1], REDISMODULE_READ);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_bf_type, &v);
    if (st == BFM_KEY_WRONGTYPE) {
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, REDISMODULE_ERRORMSG_WRONGTYPE);
    }
    size_t n = (size_t)argc - 2;
    bfm_hashes hb;
    if (st == BFM_KEY_OK) {
        bfm_bf *b = v;
        if (!bfm_hashes_of(&hb, bf_scalable_seed(b->sc), argv + 2, n)) {
            rm.CloseKey(key);
            return rm.ReplyWithError(ctx, "ERR Insufficient memory");
        }
        bf_scalable_contains_hashes(b->sc, hb.h, n, hb.flag);
    }
    if (key) rm.CloseKey(key);
    rm.ReplyWithArray(ctx, (long)n);
    for (size_t i = 0; i < n; i++) bfm_reply_bool(ctx, st == BFM_KEY_OK && hb.flag[i]);
    if (st == BFM_KEY_OK) bfm_hashes_free(&hb);
    return REDISMODULE_OK;
}

/* BF.CARD key: items added (0 for a missing key). */
static int cmd_card(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 2) return rm.WrongArity(ctx);
    RedisModuleKey *key = rm.OpenKey(ctx, argv[1], REDISMODULE_READ);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_bf_type, &v);
    uint64_t n = st == BFM_KEY_OK ? bfm_bf_count(v) : 0;
    if (key) rm.CloseKey(key);
    if (st == BFM_KEY_WRONGTYPE) return rm.ReplyWithError(ctx, REDISMODULE_ERRORMSG_WRONGTYPE);
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

static int cmd_info(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 2 && argc != 3) return rm.WrongArity(ctx);
    RedisModuleKey *key = rm.OpenKey(ctx, argv[1], REDISMODULE_READ);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_bf_type, &v);
    if (st != BFM_KEY_OK) {
        if (key) rm.CloseKey(key);
        return rm.ReplyWithError(ctx, status_error(st));
    }
    const bfm_bf *b = v;
    static const char *const words[F_COUNT] = {"CAPACITY", "SIZE", "FILTERS", "ITEMS", "EXPANSION",
                                               "ERROR", "RATIO", "FILL", "FPR", "BOUND", "KEYED"};
    int lo = 0, hi = F_EXPANSION + 1; /* the fields replied: [lo, hi) */
    if (argc == 3) {
        if (bfm_arg_is(argv[2], "ALL")) {
            hi = F_COUNT;
        } else {
            lo = -1;
            for (int f = 0; f < F_COUNT; f++)
                if (bfm_arg_is(argv[2], words[f])) lo = f;
            if (lo < 0) {
                rm.CloseKey(key);
                return rm.ReplyWithError(ctx, "Invalid information value");
            }
            hi = lo + 1;
        }
    }
    bf_scalable_stats in;
    memset(&in, 0, sizeof in);
    if (lo <= F_BOUND && hi > F_FILL) bf_scalable_get_stats(b->sc, &in); /* O(bytes) */
    if (argc == 3 && hi == lo + 1) {
        /* One field: RESP3 a one-entry map, RESP2 a one-element array. */
        if (bfm_resp3(ctx)) {
            rm.ReplyWithMap(ctx, 1);
            rm.ReplyWithSimpleString(ctx, info_names[lo]);
        } else {
            rm.ReplyWithArray(ctx, 1);
        }
        reply_field(ctx, b, &in, lo);
    } else {
        bfm_reply_map(ctx, hi - lo);
        for (int f = lo; f < hi; f++) {
            rm.ReplyWithSimpleString(ctx, info_names[f]);
            reply_field(ctx, b, &in, f);
        }
    }
    rm.CloseKey(key);
    return REDISMODULE_OK;
}

/* ---- SCANDUMP / LOADCHUNK ---- */

/* BF.SCANDUMP key iter: (1, header) for iter 0; then (next, bytes) with
 * next = 1 + the offset after the chunk in the concatenated bitsets; (0, "")
 * at the end. */
static int cmd_scandump(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 3) return rm.WrongArity(ctx);
    RedisModuleKey *key = rm.OpenKey(ctx, argv[1], REDISMODULE_READ);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_bf_type, &v);
    if (st != BFM_KEY_OK) {
        if (key) rm.CloseKey(key);
        return rm.ReplyWithError(ctx, status_error(st));
    }
    long long iter;
    if (rm.StringToLongLong(argv[2], &iter) != REDISMODULE_OK) {
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, "Second argument must be numeric");
    }
    bfm_dump_reply_scan(ctx, &bfm_bf_ops, v, iter, false);
    rm.CloseKey(key);
    return REDISMODULE_OK;
}

/* BF.LOADCHUNK key iter data: iter 1 on a missing key creates the filter
 * from a header; otherwise data goes to bytes [iter - len - 1, iter - 1). */
static int cmd_loadchunk(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
    if (argc != 4) return rm.WrongArity(ctx);
    long long iter;
    if (rm.StringToLongLong(argv[2], &iter) != REDISMODULE_OK)
        return rm.ReplyWithError(ctx, "ERR Second argument must be numeric");
    size_t len;
    const char *data = rm.StringPtrLen(argv[3], &len);
    RedisModuleKey *key = rm.OpenKey(ctx, argv[1], REDISMODULE_READ | REDISMODULE_WRITE);
    void *v;
    bfm_key_status st = bfm_key_get(key, bfm_bf_type, &v);
    if (st == BFM_KEY_EMPTY && iter == 1) {
        bfm_bf *b;
        int rc = bfm_bf_from_header(&b, data, len);
        if (rc != BF_OK) {
            rm.CloseKey(key);
            return rm.ReplyWithError(ctx, rc == BF_ENOMEM ? "ERR Insufficient memory to create filter"
                                                          : "ERR received bad data");
        }
        rm.ModuleTypeSetValue(key, bfm_bf_type, b);
        rm.CloseKey(key);
        rm.ReplicateVerbatim(ctx);
        return rm.ReplyWithSimpleString(ctx, "OK");
    }
    if (st != BFM_KEY_OK) {
        rm.CloseKey(key);
        return rm.ReplyWithError(ctx, status_error(st));
    }
    /* RedisBloom's three refusals, in its order; then the write. */
    const char *err = NULL;
    size_t layer;
    uint64_t off, left;
    if (iter <= 0 || (unsigned long long)iter < len)
        err = "ERR received bad data";
    else if ((unsigned long long)iter - len < 1 ||
             !bfm_dump_locate(&bfm_bf_ops, v, (uint64_t)iter - len - 1, &layer, &off, &left))
        err = "ERR invalid offset - no link found";
    else if (len > left)
        err = "ERR invalid chunk - Too big for current filter";
    else if (!bfm_dump_write_chunk(&bfm_bf_ops, v, iter, data, len))
        err = "ERR received bad data";
    rm.CloseKey(key);
    if (err) return rm.ReplyWithError(ctx, err);
    rm.ReplicateVerbatim(ctx);
    return rm.ReplyWithSimpleString(ctx, "OK");
}

/* ---- The data type (dump.h does the work) ---- */

BFM_DUMP_TYPE_METHODS(type_methods, bfm_bf_ops, bfm_bf_mem_usage);

int bfm_bf_register(RedisModuleCtx *ctx) {
    /* Not RedisBloom's "MBbloom--": the encodings differ, so an RDB of one
     * must never be read by the other. */
    bfm_bf_type = rm.CreateDataType(ctx, "BLKFLT-BF", bfm_bf_ops.encver, &type_methods);
    if (!bfm_bf_type) return REDISMODULE_ERR;

    static const bfm_command_def cmds[] = {
        {"bf.reserve", cmd_reserve, "write deny-oom", true, "Creates an empty scalable Bloom filter"},
        {"bf.add", cmd_add, "write deny-oom", true, "Adds an item, creating the filter if needed"},
        {"bf.madd", cmd_madd, "write deny-oom", true, "Adds items, creating the filter if needed"},
        {"bf.insert", cmd_insert, "write deny-oom", true, "Adds items, creating the filter with options"},
        {"bf.exists", cmd_exists, "readonly fast", false, "Whether an item may have been added"},
        {"bf.mexists", cmd_mexists, "readonly fast", false, "Whether each item may have been added"},
        {"bf.info", cmd_info, "readonly fast", false, "Information about a Bloom filter"},
        {"bf.card", cmd_card, "readonly fast", false, "Items added to a Bloom filter"},
        {"bf.scandump", cmd_scandump, "readonly", false, "Dumps a Bloom filter in chunks"},
        {"bf.loadchunk", cmd_loadchunk, "write deny-oom", true, "Restores a Bloom filter from SCANDUMP chunks"},
    };
    return bfm_register_commands(ctx, cmds, sizeof cmds / sizeof cmds[0]);
}
