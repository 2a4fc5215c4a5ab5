/*
 * Standard output through one large buffer: a subcommand that prints a line
 * per key appends to memory and the buffer goes out in one fwrite when full
 * (and after every batch of keys when stdout is a terminal, so interactive
 * use still answers line by line). Writing through the FILE (not to fd 1)
 * keeps stdout redirectable by a caller of bf_cli_main.
 */
#ifndef BF_CLI_OUTPUT_H
#define BF_CLI_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CLI_OUT_BYTES ((size_t)1 << 20)

typedef struct cli_out {
    FILE *fp;
    uint8_t *buf;
    size_t len, cap;
    int interactive; /* fp is a terminal: flush after every batch */
    int failed;      /* a write failed (errno kept in err) */
    int err;
} cli_out;

/* 0, or -1 (out of memory). */
int cli_out_init(cli_out *o, FILE *fp);
/* Writes out what is buffered: 0, or -1 once any write failed. */
int cli_out_flush(cli_out *o);
/* Appends n bytes (any length). */
void cli_out_write(cli_out *o, const void *p, size_t n);
/* Flushes, then releases the buffer: 0, or -1 if any write failed (errno
 * set). */
int cli_out_close(cli_out *o);

/* Room for `need` more bytes at o->buf + o->len, flushing first if
 * needed; need must not exceed CLI_OUT_BYTES. */
static inline uint8_t *cli_out_room(cli_out *o, size_t need) {
    if (o->cap - o->len < need) cli_out_flush(o);
    return o->buf + o->len;
}

#endif
