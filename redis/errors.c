#include "errors.h"

#include <blockfilter.h>

#define BFM_ERROR_TEXT(name, text) [BFM_E_##name] = text,
static const char *const texts[BFM_E_COUNT] = {BFM_ERROR_LIST(BFM_ERROR_TEXT)};
#undef BFM_ERROR_TEXT

const char *bfm_error_text(bfm_err e) { return (unsigned)e < BFM_E_COUNT ? texts[e] : NULL; }

int bfm_reply_error(RedisModuleCtx *ctx, bfm_err e) {
    rm.ReplyWithError(ctx, bfm_error_text(e));
    return REDISMODULE_OK;
}

/* The statuses with a reply of their own; any other gets the operation's
 * general one. */
static const struct {
    bfm_op op;
    int status;
    bfm_err err;
} special[] = {
    {BFM_OP_BF_CREATE, BF_ENOMEM, BFM_E_NOMEM_CREATE},
    {BFM_OP_BF_INSERT, BF_EFULL, BFM_E_BF_FULL},
    {BFM_OP_BF_RESTORE, BF_ENOMEM, BFM_E_NOMEM_CREATE},
    {BFM_OP_CF_CREATE, BF_ENOMEM, BFM_E_NOMEM_CREATE},
};
static const bfm_err general[BFM_OP_COUNT] = {
    [BFM_OP_BF_CREATE] = BFM_E_BF_CREATE,
    [BFM_OP_BF_INSERT] = BFM_E_BF_INSERT,
    [BFM_OP_BF_RESTORE] = BFM_E_BF_BAD_DATA,
    [BFM_OP_CF_CREATE] = BFM_E_CF_CREATE,
    [BFM_OP_CF_RESTORE] = BFM_E_CF_LOAD_CREATE,
};

bfm_err bfm_status_error(bfm_op op, int status) {
    for (size_t i = 0; i < sizeof special / sizeof special[0]; i++)
        if (special[i].op == op && special[i].status == status) return special[i].err;
    return general[op];
}
