/*
 * blockfilter — build, query, inspect, merge and convert filter files.
 * bf_cli_main: the top-level options and the table of subcommands.
 */
#include "cli.h"

#include <string.h>

/*
 * The subcommands, in the order `blockfilter --help` lists them. Each lives
 * in its own file, tools/cmd_<name>.c, which defines
 *     const cli_command cli_cmd_<name> = {"<name>", "<summary>", help, run};
 * Adding a subcommand is that one new file (listed in tools/meson.build's
 * cli_sources) and one row here: X(<name>). Nothing else dispatches on
 * command names; `--help` for the new command works through this table.
 */
#define CLI_COMMANDS(X) \
    X(calc)             \
    X(calibrate)        \
    X(build)            \
    X(query)            \
    X(info)             \
    X(merge)            \
    X(convert)          \
    X(parquet)

#define CLI_DECLARE(name) extern const cli_command cli_cmd_##name;
CLI_COMMANDS(CLI_DECLARE)
#define CLI_ROW(name) &cli_cmd_##name,
static const cli_command *const commands[] = {CLI_COMMANDS(CLI_ROW)};
#define NCOMMANDS (sizeof commands / sizeof *commands)

static void print_main_help(FILE *fp) {
    fputs("usage: blockfilter COMMAND [OPTIONS]\n"
          "\n"
          "Approximate-membership filters from the command line.\n"
          "\n"
          "commands:\n",
          fp);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(fp, "  %-8s %s\n", commands[i]->name, commands[i]->summary);
    fputs("\n"
          "'blockfilter COMMAND --help' describes a command. '--version' prints the\n"
          "library version. Exit status: 0 ok, 1 query found an absent key, 2 error.\n",
          fp);
}

static int want_help(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 1;
    return 0;
}

int bf_cli_main(int argc, char **argv) {
    if (argc < 2) {
        print_main_help(stderr);
        return BF_CLI_EXIT_ERROR;
    }
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
        print_main_help(stdout);
        return 0;
    }
    if (!strcmp(name, "--version")) {
        printf("blockfilter %s\n", bf_version_string());
        return 0;
    }
    for (size_t i = 0; i < NCOMMANDS; i++) {
        const cli_command *c = commands[i];
        if (strcmp(name, c->name) != 0) continue;
        if (want_help(argc - 1, argv + 1)) {
            fputs(c->help, stdout);
            return 0;
        }
        return c->run(argc - 1, argv + 1);
    }
    cli_msg("unknown command '%s' (try '%s --help')", name, CLI_PROG);
    return BF_CLI_EXIT_ERROR;
}
