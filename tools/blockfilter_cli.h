/*
 * The blockfilter tool as a function. main.c calls it; so do the fuzz target
 * (tests/fuzz/fuzz_cli.c) and its corpus replay, which link the same static
 * library (libblockfilter_cli) instead of compiling the tool's sources in.
 * Not installed: the library's API is include/blockfilter*.h.
 */
#ifndef BLOCKFILTER_CLI_H
#define BLOCKFILTER_CLI_H

/* Exit statuses (docs/cli.md, EXIT STATUS). */
#define BF_CLI_EXIT_OK 0
#define BF_CLI_EXIT_ABSENT 1 /* query: some key is certainly absent */
#define BF_CLI_EXIT_ERROR 2  /* bad usage, unreadable or invalid file, ... */

/* Runs `blockfilter argv[1] ...` and returns its exit status. Writes to
 * whatever stdout and stderr are at the time of the call (the fuzz target
 * points them elsewhere); reads standard input through file descriptor 0.
 * Keeps no state between calls. */
int bf_cli_main(int argc, char **argv);

#endif
