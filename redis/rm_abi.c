/* The module's binding to the server's API (rm_abi.h): the one table of
 * function pointers every file calls through, filled at load time. */
#include "rm_abi.h"

#include <string.h>

struct bf_rm_api rm;

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
