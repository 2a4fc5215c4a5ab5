/* Standard output through one large buffer (output.h). */
#include "output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_out_init(cli_out *o, FILE *fp) {
    memset(o, 0, sizeof *o);
    o->fp = fp;
    o->buf = malloc(CLI_OUT_BYTES);
    if (!o->buf) return -1;
    o->cap = CLI_OUT_BYTES;
    int fd = fileno(fp);
    o->interactive = fd >= 0 && isatty(fd);
    return 0;
}

static void put(cli_out *o, const void *p, size_t n) {
    if (o->failed || n == 0) return;
    if (fwrite(p, 1, n, o->fp) != n) {
        o->failed = 1;
        o->err = errno ? errno : EIO;
    }
}

int cli_out_flush(cli_out *o) {
    put(o, o->buf, o->len);
    o->len = 0;
    return o->failed ? -1 : 0;
}

void cli_out_write(cli_out *o, const void *p, size_t n) {
    if (o->cap - o->len >= n) {
        memcpy(o->buf + o->len, p, n);
        o->len += n;
        return;
    }
    cli_out_flush(o);
    if (n >= o->cap) put(o, p, n); /* larger than the buffer: straight out */
    else {
        memcpy(o->buf, p, n);
        o->len = n;
    }
}

int cli_out_close(cli_out *o) {
    cli_out_flush(o);
    if (fflush(o->fp) != 0 && !o->failed) {
        o->failed = 1;
        o->err = errno ? errno : EIO;
    }
    free(o->buf);
    o->buf = NULL;
    o->cap = o->len = 0;
    if (o->failed) errno = o->err;
    return o->failed ? -1 : 0;
}
