/*
 * What the files of the blockfilter tool share. One file per
 * responsibility:
 *
 *   cli.c          bf_cli_main: the command table and the top-level help
 *   cmd_<name>.c   one subcommand each: its help text, options and work
 *   args.c         option matching and number parsing
 *   report.c       error messages (one format for all) and progress
 *   filters.c      opening filter files, reading small input files
 *   keys.c/.h      key input: lines read in large chunks, split into
 *                  batches of keys (one data buffer + offsets), hashed
 *   output.c/.h    standard output through one large buffer
 *
 * The tool uses the library's public API only (include/blockfilter*.h).
 */
#ifndef BF_CLI_INTERNAL_H
#define BF_CLI_INTERNAL_H

#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "blockfilter_cli.h"

#include <stdint.h>
#include <stdio.h>

/* ---- subcommands (cli.c, cmd_*.c) -------------------------------------- */

/* A subcommand: `blockfilter NAME ...` calls run(argc, argv) with argv[0]
 * = NAME; `--help` or `-h` anywhere prints help to stdout instead. */
typedef struct cli_command {
    const char *name;
    const char *summary; /* one line in `blockfilter --help` */
    const char *help;    /* `blockfilter NAME --help`, starting "usage: " */
    int (*run)(int argc, char **argv);
} cli_command;

/* ---- messages (report.c) ----------------------------------------------- */

#define CLI_PROG "blockfilter"

/* "blockfilter: <fmt>\n" on stderr. */
void cli_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "blockfilter: FILE: WHAT: <library status>[: <errno text>]"; the errno
 * text only for BF_EIO with err != 0. Returns BF_CLI_EXIT_ERROR. */
int cli_lib_error(const char *file, const char *what, int status, int err);
/* "blockfilter: FILE: WHAT: <strerror(errno)>". Returns BF_CLI_EXIT_ERROR. */
int cli_sys_error(const char *file, const char *what);
/* "blockfilter CMD: <fmt>\nTry 'blockfilter CMD --help'." Returns
 * BF_CLI_EXIT_ERROR. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Progress on stderr, "\r<what>: N / TOTAL keys (P%)", at most once per
 * CLI_PROGRESS_STEP keys. */
#define CLI_PROGRESS_STEP 1000000u
typedef struct cli_progress {
    int on;
    uint64_t total; /* 0 if unknown */
    uint64_t next;  /* print when done reaches this */
} cli_progress;
void cli_progress_init(cli_progress *p, int on, uint64_t total);
void cli_progress_update(cli_progress *p, uint64_t done, const char *what);
void cli_progress_end(const cli_progress *p, uint64_t done, const char *what);

/* ---- arguments (args.c) ------------------------------------------------ */

/* Walks argv[1..argc) of a subcommand. */
typedef struct cli_args {
    int argc;
    char **argv;
    int i; /* the argument being looked at */
} cli_args;

/* Matches "NAME VALUE" (value in the next argument) or "NAME=VALUE":
 * 1 and *value set, 0 if the argument is not NAME, -1 if NAME is the last
 * argument (value missing). */
int cli_opt_value(cli_args *a, const char *name, const char **value);
/* An option that starts with '-' and is not "-" alone (standard input). */
int cli_is_option(const char *arg);
/* Unsigned integer with an optional suffix k M G T (x1000) or Ki Mi Gi Ti
 * (x1024), or in scientific notation (1e6): 0, or -1 if not one. */
int cli_parse_count(const char *s, uint64_t *out);
/* A false-positive rate strictly between 0 and 1: 0, or -1. */
int cli_parse_fpp(const char *s, double *out);
/* A finite number in [lo, hi]: 0, or -1. */
int cli_parse_number(const char *s, double lo, double hi, double *out);
/* A 64-bit seed in decimal or 0x hex: 0, or -1. */
int cli_parse_seed(const char *s, uint64_t *out);
/* The families the library knows (its registry, by id), at most cap of
 * them into ids; returns how many. */
size_t cli_families(bf_family *ids, size_t cap);
/* Their names for messages: "sbbf, bloom, ..., cuckoo or scalable". */
const char *cli_family_names(void);

/* ---- the chooser (cmd_calibrate.c) ------------------------------------- */

/* `calc --work-ns`: ranks the candidates for the job with the cost table at
 * costs (NULL: this machine's cached one), prints the top rows, the ones
 * left out and, with measure > 0, measured figures of the first three.
 * Returns the exit status. */
int cli_calc_choose(const bf_job *job, const char *costs, size_t top, uint64_t measure);

/* ---- files (filters.c) ------------------------------------------------- */

/* Maps a native filter file read-only (bf_filter_map_file with flags). On
 * failure prints the error naming the file (and, for Parquet filter bytes,
 * how to convert them) and returns BF_CLI_EXIT_ERROR; 0 on success. */
int cli_open_filter(const char *path, unsigned flags, bf_filter **out);
/* The whole of a regular file in new memory (free it), *len its size; NULL
 * with errno set on failure. For inputs the library takes as one buffer. */
uint8_t *cli_read_file(const char *path, size_t *len);

#endif
