/* The helpers every command file uses (command.h). */
#include "command.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <blockfilter.h>

bfm_config bfm_cfg = {
    .bf_error_rate = 0.01,
    .bf_initial_size = 100,
    .bf_expansion = 2,
    .bf_ratio = 0.8,
    .cf_initial_size = 1024,
    .cf_max_expansions = 32,
    .cf_bucket_size = 2,
    .cf_max_iterations = 20,
    .cf_expansion = 1,
    .cf_error_rate = 0.01,
    .random_seed = false,
};

/* ---- Keys ---- */

bool bfm_key_open(bfm_key *k, RedisModuleCtx *ctx, RedisModuleString *name, int mode,
                  RedisModuleType *type, bfm_err if_missing, bfm_err if_present) {
    /* A missing key opened for reading is NULL. */
    k->handle = rm.OpenKey(ctx, name, mode);
    k->type = type;
    k->value = NULL;
    bfm_err err = BFM_E_NONE;
    int t = k->handle ? rm.KeyType(k->handle) : REDISMODULE_KEYTYPE_EMPTY;
    if (t == REDISMODULE_KEYTYPE_EMPTY)
        err = if_missing;
    else if (t != REDISMODULE_KEYTYPE_MODULE || rm.ModuleTypeGetType(k->handle) != type)
        err = BFM_E_WRONGTYPE;
    else
        err = if_present;
    if (err != BFM_E_NONE) {
        bfm_key_close(k);
        bfm_reply_error(ctx, err);
        return false;
    }
    if (t != REDISMODULE_KEYTYPE_EMPTY) k->value = rm.ModuleTypeGetValue(k->handle);
    return true;
}

void bfm_key_set(bfm_key *k, void *value) {
    rm.ModuleTypeSetValue(k->handle, k->type, value);
    k->value = value;
}

void bfm_key_close(bfm_key *k) {
    if (k->handle) rm.CloseKey(k->handle);
    k->handle = NULL;
}

/* ---- Arguments and replies ---- */

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
