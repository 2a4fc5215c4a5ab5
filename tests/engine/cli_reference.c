/*
 * The plain way to answer `blockfilter query`: one getline and one
 * bf_filter_contains per key, stdio output. tests/engine/cli.sh compares the
 * tool (chunked reads, batched hashing and lookups, buffered output) with
 * this, byte for byte.
 *
 *   engine_cli_reference [--crlf] FILE [INPUT]
 *
 * Exit status as the tool's: 0 every key maybe, 1 some key no, 2 error.
 */
#include "blockfilter.h"
#include "blockfilter_advanced.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    int crlf = 0, i = 1;
    if (i < argc && !strcmp(argv[i], "--crlf")) crlf = 1, i++;
    if (i >= argc) {
        fprintf(stderr, "usage: %s [--crlf] FILE [INPUT]\n", argv[0]);
        return 2;
    }
    bf_filter *f;
    int rc = bf_filter_map_file(&f, argv[i], 0);
    if (rc) {
        fprintf(stderr, "%s: %s\n", argv[i], bf_strerror(rc));
        return 2;
    }
    FILE *in = i + 1 < argc && strcmp(argv[i + 1], "-") ? fopen(argv[i + 1], "rb") : stdin;
    if (!in) {
        perror(argv[i + 1]);
        bf_filter_free(f);
        return 2;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int status = 0;
    while ((n = getline(&line, &cap, in)) >= 0) {
        size_t len = (size_t)n;
        if (len && line[len - 1] == '\n') {
            len--;
            if (crlf && len && line[len - 1] == '\r') len--;
        }
        bool hit = bf_filter_contains(f, line, len);
        if (!hit) status = 1;
        fwrite(line, 1, len, stdout);
        fputs(hit ? "\tmaybe\n" : "\tno\n", stdout);
    }
    if (ferror(in)) status = 2;
    free(line);
    if (in != stdin) fclose(in);
    bf_filter_free(f);
    return status;
}
