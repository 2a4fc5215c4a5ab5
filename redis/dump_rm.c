/* The data type callbacks and SCANDUMP replies over a dump description. */
#include <stdlib.h>

#include <blockfilter.h>

#include "dump.h"
#include "errors.h"

static size_t chunk_len(uint64_t left) {
    return left < BFM_CHUNK_BYTES ? (size_t)left : BFM_CHUNK_BYTES;
}

void bfm_dump_reply_scan(RedisModuleCtx *ctx, const bfm_dump_ops *ops, const void *v,
                         long long iter, bool nil_at_end) {
    rm.ReplyWithArray(ctx, 2);
    size_t part;
    uint64_t off, left;
    if (iter == 0) {
        size_t hl;
        uint8_t *h = bfm_dump_header(ops, v, &hl);
        if (!h) {
            rm.ReplyWithLongLong(ctx, 0);
            bfm_reply_error(ctx, BFM_E_NOMEM);
            return;
        }
        rm.ReplyWithLongLong(ctx, 1);
        rm.ReplyWithStringBuffer(ctx, (const char *)h, hl);
        free(h);
    } else if (iter > 0 && bfm_dump_locate(ops, v, (uint64_t)iter - 1, &part, &off, &left)) {
        uint64_t len;
        const uint8_t *p = ops->part(v, part, &len);
        size_t n = chunk_len(left);
        rm.ReplyWithLongLong(ctx, iter + (long long)n);
        rm.ReplyWithStringBuffer(ctx, (const char *)p + off, n);
    } else {
        rm.ReplyWithLongLong(ctx, 0);
        if (nil_at_end)
            rm.ReplyWithNull(ctx);
        else
            rm.ReplyWithStringBuffer(ctx, "", 0);
    }
}

/* Calls fn for every chunk of at most BFM_CHUNK_BYTES of the parts, in
 * order; next = 1 + the global offset after the chunk (SCANDUMP's iter). */
typedef void (*chunk_fn)(void *arg, long long next, const uint8_t *p, size_t len);
static void for_each_chunk(const bfm_dump_ops *ops, const void *v, chunk_fn fn, void *arg) {
    long long pos = 1;
    for (size_t i = 0, n = ops->num_parts(v); i < n; i++) {
        uint64_t len;
        const uint8_t *p = ops->part(v, i, &len);
        for (uint64_t off = 0; off < len;) {
            size_t k = chunk_len(len - off);
            pos += (long long)k;
            fn(arg, pos, p + off, k);
            off += k;
        }
    }
}

static void rdb_chunk(void *arg, long long next, const uint8_t *p, size_t len) {
    (void)next;
    rm.SaveStringBuffer(arg, (const char *)p, len);
}

/* RDB: the dump header as a string, then the parts as strings of at most
 * BFM_CHUNK_BYTES each (bounded transient memory when loading). */
void bfm_dump_rdb_save(const bfm_dump_ops *ops, RedisModuleIO *io, const void *v) {
    size_t hl = ops->header_size(v);
    uint8_t *h = rm.Alloc(hl);
    ops->header_write(v, h);
    rm.SaveStringBuffer(io, (const char *)h, hl);
    rm.Free(h);
    for_each_chunk(ops, v, rdb_chunk, io);
}

void *bfm_dump_rdb_load(const bfm_dump_ops *ops, RedisModuleIO *io, int encver) {
    if (encver > ops->encver) {
        rm.LogIOError(io, "warning", "%s value of encoding version %d: this module reads versions <= %d",
                      ops->what, encver, ops->encver);
        return NULL;
    }
    size_t hl;
    char *h = rm.LoadStringBuffer(io, &hl);
    if (rm.IsIOError(io) || !h) return NULL;
    void *v = NULL;
    int rc = ops->from_header(&v, h, hl);
    rm.Free(h);
    if (rc != BF_OK) {
        rm.LogIOError(io, "warning", "%s value: bad header (%s)", ops->what, bf_strerror(rc));
        return NULL;
    }
    for (size_t i = 0, n = ops->num_parts(v); i < n; i++) {
        uint64_t len;
        ops->part(v, i, &len);
        for (uint64_t off = 0; off < len;) {
            size_t want = chunk_len(len - off), got;
            char *p = rm.LoadStringBuffer(io, &got);
            if (rm.IsIOError(io) || !p || got != want || ops->write_part(v, i, off, p, got) != BF_OK) {
                if (p) rm.Free(p);
                rm.LogIOError(io, "warning", "%s value: bad or short data", ops->what);
                ops->free(v);
                return NULL;
            }
            rm.Free(p);
            off += got;
        }
    }
    return v;
}

typedef struct aof_arg {
    RedisModuleIO *io;
    RedisModuleString *key;
    const char *cmd;
} aof_arg;

static void aof_chunk(void *arg, long long next, const uint8_t *p, size_t len) {
    aof_arg *a = arg;
    rm.EmitAOF(a->io, a->cmd, "slb", a->key, next, (const char *)p, len);
}

/* AOF rewrite: the LOADCHUNK commands a SCANDUMP loop would produce, so a
 * restart rebuilds the value byte for byte. */
void bfm_dump_aof_rewrite(const bfm_dump_ops *ops, RedisModuleIO *io, RedisModuleString *key,
                          const void *v) {
    size_t hl = ops->header_size(v);
    uint8_t *h = rm.Alloc(hl);
    ops->header_write(v, h);
    rm.EmitAOF(io, ops->loadchunk_cmd, "slb", key, 1LL, (const char *)h, hl);
    rm.Free(h);
    aof_arg a = {io, key, ops->loadchunk_cmd};
    for_each_chunk(ops, v, aof_chunk, &a);
}

static void digest_chunk(void *arg, long long next, const uint8_t *p, size_t len) {
    (void)next;
    rm.DigestAddStringBuffer(arg, (const char *)p, len);
}

/* DEBUG DIGEST / DIGEST-VALUE: the header (parameters, seed, counts, state)
 * and every byte of every part. */
void bfm_dump_digest(const bfm_dump_ops *ops, RedisModuleDigest *md, const void *v) {
    size_t hl = ops->header_size(v);
    uint8_t *h = rm.Alloc(hl);
    ops->header_write(v, h);
    rm.DigestAddStringBuffer(md, (const char *)h, hl);
    rm.Free(h);
    for_each_chunk(ops, v, digest_chunk, md);
    rm.DigestEndSequence(md);
}

