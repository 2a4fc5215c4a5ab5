/*
 * The part of the Redis module ABI this module uses, declared here from the
 * documented interface (https://redis.io/docs/reference/modules/): no header
 * of Redis is needed to build the module.
 *
 * How a module binds to Redis. redis-server dlopen()s the module and calls
 * RedisModule_OnLoad(ctx, argv, argc). The first pointer-sized field of the
 * context is Redis's lookup function, int GetApi(const char *name, void
 * *out): given "RedisModule_<Name>" it stores the address of that API
 * function into *out and returns 0, or returns 1 if this server does not
 * have it. Every call into Redis goes through pointers fetched that way; the
 * module then registers itself with SetModuleAttribs(ctx, name, version,
 * REDISMODULE_APIVER_1).
 *
 * Target: Redis 7.0 (Debian 12's redis-server 7.0.x): data type methods
 * version 4, command info version 1. Constants and struct layouts below are
 * the values and field orders that ABI defines; they never change within an
 * API version (new fields are only appended, behind a version number).
 */
#ifndef BF_RM_ABI_H
#define BF_RM_ABI_H

#include <stddef.h>
#include <stdint.h>

/* Opaque handles owned by Redis. */
typedef struct RedisModuleCtx RedisModuleCtx;
typedef struct RedisModuleString RedisModuleString;
typedef struct RedisModuleKey RedisModuleKey;
typedef struct RedisModuleIO RedisModuleIO;
typedef struct RedisModuleType RedisModuleType;
typedef struct RedisModuleDigest RedisModuleDigest;
typedef struct RedisModuleCommand RedisModuleCommand;
typedef struct RedisModuleDefragCtx RedisModuleDefragCtx;
typedef struct RedisModuleKeyOptCtx RedisModuleKeyOptCtx;

/* Status of API calls and of command / load callbacks. */
enum { REDISMODULE_OK = 0, REDISMODULE_ERR = 1 };

#define REDISMODULE_APIVER_1 1
/* Version of RedisModuleTypeMethods this module fills (Redis 7.0: 4). */
#define REDISMODULE_TYPE_METHOD_VERSION 4

/* OpenKey modes. */
#define REDISMODULE_READ (1 << 0)
#define REDISMODULE_WRITE (1 << 1)

/* KeyType results. */
#define REDISMODULE_KEYTYPE_EMPTY 0
#define REDISMODULE_KEYTYPE_MODULE 6

/* ReplyWithArray / ReplyWithMap length to be set later. */
#define REDISMODULE_POSTPONED_LEN (-1L)

/* GetContextFlags bits. */
#define REDISMODULE_CTX_FLAGS_REPLICATED (1 << 12) /* sent by our master */
#define REDISMODULE_CTX_FLAGS_LOADING (1 << 13)    /* AOF / RDB loading */
#define REDISMODULE_CTX_FLAGS_RESP3 (1 << 22)      /* client speaks RESP3 */

/* SetModuleOptions: rdb_load callbacks check IsIOError themselves (so a
 * short or corrupt payload (RESTORE, MIGRATE, a replica's sync) is
 * refused instead of killing the server). */
#define REDISMODULE_OPTIONS_HANDLE_IO_ERRORS (1 << 0)

#define REDISMODULE_ERRORMSG_WRONGTYPE \
    "WRONGTYPE Operation against a key holding the wrong kind of value"

/* Command callback. */
typedef int (*RedisModuleCmdFunc)(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);

/* Data type callbacks (methods version 4). */
typedef void *(*RedisModuleTypeLoadFunc)(RedisModuleIO *rdb, int encver);
typedef void (*RedisModuleTypeSaveFunc)(RedisModuleIO *rdb, void *value);
typedef int (*RedisModuleTypeAuxLoadFunc)(RedisModuleIO *rdb, int encver, int when);
typedef void (*RedisModuleTypeAuxSaveFunc)(RedisModuleIO *rdb, int when);
typedef void (*RedisModuleTypeRewriteFunc)(RedisModuleIO *aof, RedisModuleString *key, void *value);
typedef size_t (*RedisModuleTypeMemUsageFunc)(const void *value);
typedef void (*RedisModuleTypeDigestFunc)(RedisModuleDigest *digest, void *value);
typedef void (*RedisModuleTypeFreeFunc)(void *value);
typedef size_t (*RedisModuleTypeFreeEffortFunc)(RedisModuleString *key, const void *value);
typedef void (*RedisModuleTypeUnlinkFunc)(RedisModuleString *key, const void *value);
typedef void *(*RedisModuleTypeCopyFunc)(RedisModuleString *fromkey, RedisModuleString *tokey,
                                         const void *value);
typedef int (*RedisModuleTypeDefragFunc)(RedisModuleDefragCtx *ctx, RedisModuleString *key,
                                         void **value);
typedef size_t (*RedisModuleTypeMemUsageFunc2)(RedisModuleKeyOptCtx *ctx, const void *value,
                                               size_t sample_size);
typedef size_t (*RedisModuleTypeFreeEffortFunc2)(RedisModuleKeyOptCtx *ctx, const void *value);
typedef void (*RedisModuleTypeUnlinkFunc2)(RedisModuleKeyOptCtx *ctx, const void *value);
typedef void *(*RedisModuleTypeCopyFunc2)(RedisModuleKeyOptCtx *ctx, const void *value);

/* The methods table passed to CreateDataType. Fields are read up to the
 * version given; unused callbacks are NULL. */
typedef struct RedisModuleTypeMethods {
    uint64_t version;
    RedisModuleTypeLoadFunc rdb_load;
    RedisModuleTypeSaveFunc rdb_save;
    RedisModuleTypeRewriteFunc aof_rewrite;
    RedisModuleTypeMemUsageFunc mem_usage;
    RedisModuleTypeDigestFunc digest;
    RedisModuleTypeFreeFunc free;
    /* version 2 */
    RedisModuleTypeAuxLoadFunc aux_load;
    RedisModuleTypeAuxSaveFunc aux_save;
    int aux_save_triggers;
    /* version 3 */
    RedisModuleTypeFreeEffortFunc free_effort;
    RedisModuleTypeUnlinkFunc unlink;
    RedisModuleTypeCopyFunc copy;
    RedisModuleTypeDefragFunc defrag;
    /* version 4 */
    RedisModuleTypeMemUsageFunc2 mem_usage2;
    RedisModuleTypeFreeEffortFunc2 free_effort2;
    RedisModuleTypeUnlinkFunc2 unlink2;
    RedisModuleTypeCopyFunc2 copy2;
} RedisModuleTypeMethods;

/* ---- Command info (SetCommandInfo, version 1, Redis 7.0) ---------------- */

/* Key-spec flags. */
#define REDISMODULE_CMD_KEY_RO (1ULL << 0)     /* read only */
#define REDISMODULE_CMD_KEY_RW (1ULL << 1)     /* read and modify */
#define REDISMODULE_CMD_KEY_OW (1ULL << 2)     /* overwrite */
#define REDISMODULE_CMD_KEY_RM (1ULL << 3)     /* delete */
#define REDISMODULE_CMD_KEY_ACCESS (1ULL << 4) /* returns user data */
#define REDISMODULE_CMD_KEY_UPDATE (1ULL << 5) /* updates data */
#define REDISMODULE_CMD_KEY_INSERT (1ULL << 6) /* adds data */
#define REDISMODULE_CMD_KEY_DELETE (1ULL << 7) /* removes data */

typedef enum {
    REDISMODULE_KSPEC_BS_INVALID = 0, /* terminates a key-spec array */
    REDISMODULE_KSPEC_BS_UNKNOWN,
    REDISMODULE_KSPEC_BS_INDEX,
    REDISMODULE_KSPEC_BS_KEYWORD
} RedisModuleKeySpecBeginSearchType;

typedef enum {
    REDISMODULE_KSPEC_FK_OMITTED = 0, /* a single key */
    REDISMODULE_KSPEC_FK_UNKNOWN,
    REDISMODULE_KSPEC_FK_RANGE,
    REDISMODULE_KSPEC_FK_KEYNUM
} RedisModuleKeySpecFindKeysType;

typedef enum {
    REDISMODULE_ARG_TYPE_STRING,
    REDISMODULE_ARG_TYPE_INTEGER,
    REDISMODULE_ARG_TYPE_DOUBLE,
    REDISMODULE_ARG_TYPE_KEY,
    REDISMODULE_ARG_TYPE_PATTERN,
    REDISMODULE_ARG_TYPE_UNIX_TIME,
    REDISMODULE_ARG_TYPE_PURE_TOKEN,
    REDISMODULE_ARG_TYPE_ONEOF,
    REDISMODULE_ARG_TYPE_BLOCK
} RedisModuleCommandArgType;

typedef struct RedisModuleCommandArg {
    const char *name;
    RedisModuleCommandArgType type;
    int key_spec_index;
    const char *token;
    const char *summary;
    const char *since;
    int flags;
    const char *deprecated_since;
    struct RedisModuleCommandArg *subargs;
} RedisModuleCommandArg;

typedef struct {
    const char *since;
    const char *changes;
} RedisModuleCommandHistoryEntry;

typedef struct {
    const char *notes;
    uint64_t flags; /* REDISMODULE_CMD_KEY_* */
    RedisModuleKeySpecBeginSearchType begin_search_type;
    union {
        struct {
            int pos; /* argv index of the key */
        } index;
        struct {
            const char *keyword;
            int startfrom;
        } keyword;
    } bs;
    RedisModuleKeySpecFindKeysType find_keys_type;
    union {
        struct {
            int lastkey; /* relative to the begin-search result */
            int keystep;
            int limit;
        } range;
        struct {
            int keynumidx;
            int firstkey;
            int keystep;
        } keynum;
    } fk;
} RedisModuleCommandKeySpec;

/* Redis walks the arrays above with these element sizes, so a module built
 * against an older layout still works with a newer server. */
typedef struct {
    int version;
    size_t sizeof_historyentry;
    size_t sizeof_keyspec;
    size_t sizeof_arg;
} RedisModuleCommandInfoVersion;

typedef struct {
    const RedisModuleCommandInfoVersion *version;
    const char *summary;
    const char *complexity;
    const char *since;
    RedisModuleCommandHistoryEntry *history;
    const char *tips;
    int arity; /* 0: not checked by Redis (the command checks it) */
    RedisModuleCommandKeySpec *key_specs;
    RedisModuleCommandArg *args;
} RedisModuleCommandInfo;

/* ---- The API functions this module calls ------------------------------- */

/* X(return type, Name, (parameters), required): every entry is fetched as
 * "RedisModule_<Name>" at load time. A required function missing from the
 * server makes the load fail with a log line; an optional one leaves its
 * pointer NULL and the module does without it. */
#define BF_RM_API_LIST(X)                                                                      \
    X(void, SetModuleAttribs, (RedisModuleCtx * ctx, const char *name, int ver, int apiver), 1) \
    X(int, IsModuleNameBusy, (const char *name), 1)                                            \
    X(void, Log, (RedisModuleCtx * ctx, const char *level, const char *fmt, ...), 1)           \
    X(void, LogIOError, (RedisModuleIO * io, const char *level, const char *fmt, ...), 1)      \
    X(void *, Alloc, (size_t bytes), 1)                                                        \
    X(void *, TryAlloc, (size_t bytes), 1)                                                     \
    X(void *, Calloc, (size_t nmemb, size_t size), 1)                                          \
    X(void, Free, (void *ptr), 1)                                                              \
    X(int, CreateCommand,                                                                      \
      (RedisModuleCtx * ctx, const char *name, RedisModuleCmdFunc fn, const char *flags,       \
       int firstkey, int lastkey, int keystep),                                                \
      1)                                                                                       \
    X(RedisModuleCommand *, GetCommand, (RedisModuleCtx * ctx, const char *name), 0)           \
    X(int, SetCommandInfo, (RedisModuleCommand * cmd, const RedisModuleCommandInfo *info), 0)  \
    X(int, WrongArity, (RedisModuleCtx * ctx), 1)                                              \
    X(int, ReplyWithLongLong, (RedisModuleCtx * ctx, long long v), 1)                          \
    X(int, ReplyWithError, (RedisModuleCtx * ctx, const char *err), 1)                         \
    X(int, ReplyWithSimpleString, (RedisModuleCtx * ctx, const char *msg), 1)                  \
    X(int, ReplyWithArray, (RedisModuleCtx * ctx, long len), 1)                                \
    X(void, ReplySetArrayLength, (RedisModuleCtx * ctx, long len), 1)                          \
    X(int, ReplyWithMap, (RedisModuleCtx * ctx, long len), 0)                                  \
    X(int, ReplyWithStringBuffer, (RedisModuleCtx * ctx, const char *buf, size_t len), 1)      \
    X(int, ReplyWithNull, (RedisModuleCtx * ctx), 1)                                           \
    X(int, ReplyWithBool, (RedisModuleCtx * ctx, int b), 0)                                    \
    X(int, ReplyWithDouble, (RedisModuleCtx * ctx, double d), 1)                               \
    X(const char *, StringPtrLen, (const RedisModuleString *s, size_t *len), 1)                \
    X(int, StringToLongLong, (const RedisModuleString *s, long long *out), 1)                  \
    X(int, StringToDouble, (const RedisModuleString *s, double *out), 1)                       \
    X(RedisModuleString *, CreateString, (RedisModuleCtx * ctx, const char *p, size_t len), 1) \
    X(void, FreeString, (RedisModuleCtx * ctx, RedisModuleString *s), 1)                       \
    X(RedisModuleKey *, OpenKey, (RedisModuleCtx * ctx, RedisModuleString *name, int mode), 1) \
    X(void, CloseKey, (RedisModuleKey * key), 1)                                               \
    X(int, KeyType, (RedisModuleKey * key), 1)                                                 \
    X(RedisModuleType *, ModuleTypeGetType, (RedisModuleKey * key), 1)                         \
    X(void *, ModuleTypeGetValue, (RedisModuleKey * key), 1)                                   \
    X(int, ModuleTypeSetValue, (RedisModuleKey * key, RedisModuleType *type, void *value), 1)  \
    X(int, GetContextFlags, (RedisModuleCtx * ctx), 1)                                         \
    X(int, ReplicateVerbatim, (RedisModuleCtx * ctx), 1)                                       \
    X(int, Replicate, (RedisModuleCtx * ctx, const char *cmd, const char *fmt, ...), 1)        \
    X(RedisModuleType *, CreateDataType,                                                       \
      (RedisModuleCtx * ctx, const char *name, int encver, RedisModuleTypeMethods *methods), 1) \
    X(void, SetModuleOptions, (RedisModuleCtx * ctx, int options), 1)                          \
    X(void, SaveUnsigned, (RedisModuleIO * io, uint64_t v), 1)                                 \
    X(uint64_t, LoadUnsigned, (RedisModuleIO * io), 1)                                         \
    X(void, SaveDouble, (RedisModuleIO * io, double v), 1)                                     \
    X(double, LoadDouble, (RedisModuleIO * io), 1)                                             \
    X(void, SaveStringBuffer, (RedisModuleIO * io, const char *p, size_t len), 1)              \
    X(char *, LoadStringBuffer, (RedisModuleIO * io, size_t *len), 1)                          \
    X(int, IsIOError, (RedisModuleIO * io), 1)                                                 \
    X(void, EmitAOF, (RedisModuleIO * io, const char *cmd, const char *fmt, ...), 1)           \
    X(void, DigestAddStringBuffer, (RedisModuleDigest * md, const char *p, size_t len), 1)     \
    X(void, DigestAddLongLong, (RedisModuleDigest * md, long long v), 1)                       \
    X(void, DigestEndSequence, (RedisModuleDigest * md), 1)

/* The fetched functions: rm.ReplyWithError(ctx, "..."), ... */
#define BF_RM_FIELD(ret, name, params, required) ret(*name) params;
struct bf_rm_api {
    BF_RM_API_LIST(BF_RM_FIELD)
};
#undef BF_RM_FIELD
extern struct bf_rm_api rm;

/* Fetches every function of BF_RM_API_LIST through the context's lookup
 * function. REDISMODULE_OK, or REDISMODULE_ERR if a required one is missing
 * (*missing = its name). */
int bf_rm_bind(RedisModuleCtx *ctx, const char **missing);

#endif /* BF_RM_ABI_H */
