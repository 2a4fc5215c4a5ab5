/* The dump description's arithmetic, free of the Redis API (the module
 * and the unit tests link it). */
#include "dump.h"

#include <stdlib.h>

#include <blockfilter.h>

uint8_t *bfm_dump_header(const bfm_dump_ops *ops, const void *v, size_t *len) {
    *len = ops->header_size(v);
    uint8_t *h = malloc(*len);
    if (h) ops->header_write(v, h);
    return h;
}

bool bfm_dump_locate(const bfm_dump_ops *ops, const void *v, uint64_t offset, size_t *part,
                     uint64_t *part_off, uint64_t *left) {
    size_t n = ops->num_parts(v);
    uint64_t base = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t len;
        ops->part(v, i, &len);
        if (offset - base < len) { /* offset >= base here */
            *part = i;
            *part_off = offset - base;
            *left = len - (offset - base);
            return true;
        }
        base += len;
    }
    return false;
}

uint64_t bfm_dump_total_bytes(const bfm_dump_ops *ops, const void *v) {
    uint64_t sum = 0, len;
    for (size_t i = 0, n = ops->num_parts(v); i < n; i++) {
        ops->part(v, i, &len);
        sum += len;
    }
    return sum;
}

bool bfm_dump_write_chunk(const bfm_dump_ops *ops, void *v, long long iter, const void *data,
                          size_t len) {
    size_t part;
    uint64_t off, left;
    if (iter <= 0 || (unsigned long long)iter - 1 < len) return false;
    return bfm_dump_locate(ops, v, (uint64_t)iter - 1 - len, &part, &off, &left) && len <= left &&
           ops->write_part(v, part, off, data, len) == BF_OK;
}

void *bfm_dump_clone(const bfm_dump_ops *ops, const void *v) {
    size_t hl;
    uint8_t *h = bfm_dump_header(ops, v, &hl);
    if (!h) return NULL;
    void *c = NULL;
    int rc = ops->from_header(&c, h, hl);
    free(h);
    for (size_t i = 0, n = ops->num_parts(v); rc == BF_OK && i < n; i++) {
        uint64_t len;
        const uint8_t *p = ops->part(v, i, &len);
        rc = ops->write_part(c, i, 0, p, (size_t)len);
    }
    if (rc != BF_OK) {
        if (c) ops->free(c);
        return NULL;
    }
    return c;
}
