/* blockfilter query: look every key of the input up in a filter file. */
#include "cli.h"
#include "keys.h"
#include "output.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
    "usage: blockfilter query [--count] [--crlf] FILE [INPUT]\n"
    "\n"
    "Looks up every key of INPUT (a file, or standard input if absent or '-'),\n"
    "one key per line, in the filter FILE (mapped, not copied). Prints each\n"
    "key's bytes, a tab, and 'maybe' or 'no'; with --count only the totals.\n"
    "\n"
    "Exit status: 0 if every key may be present (also for no keys), 1 if some\n"
    "key is certainly absent, 2 on an error.\n"
    "  --count     print only the totals: maybe N, no N, total N\n"
    "  --crlf      also remove one '\\r' before each '\\n'\n";

/* The answer after a key, indexed by the batch result (0 or 1); 8 bytes
 * each so that one fixed-size copy writes either. */
static const char answer[2][8] = {"\tno\n", "\tmaybe\n"};
static const size_t answer_len[2] = {4, 7};

/* Prints "key\tmaybe\n" or "key\tno\n" for every key of the batch. */
static void print_batch(cli_out *o, const cli_batch *b, const uint8_t *hit) {
    const uint64_t *off = b->offsets;
    for (size_t i = 0; i < b->n; i++) {
        const uint8_t *key = b->data + off[i];
        size_t len = (size_t)(off[i + 1] - off[i]);
        unsigned a = hit[i] != 0;
        if (len <= CLI_KEY_SLACK) {
            /* Short keys (almost all): two fixed-size copies, no branch on
             * the answer. The batch and the buffer have the slack. */
            uint8_t *dst = cli_out_room(o, CLI_KEY_SLACK + sizeof answer[0]);
            memcpy(dst, key, CLI_KEY_SLACK);
            memcpy(dst + len, answer[a], sizeof answer[0]);
            o->len += len + answer_len[a];
        } else {
            cli_out_write(o, key, len);
            cli_out_write(o, answer[a], answer_len[a]);
        }
    }
}

static int run(int argc, char **argv) {
    int count_only = 0, crlf = 0;
    const char *file = NULL, *input = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--count")) count_only = 1;
        else if (!strcmp(argv[i], "--crlf")) crlf = 1;
        else if (cli_is_option(argv[i]))
            return cli_usage_error("query", "unknown option '%s'", argv[i]);
        else if (!file) file = argv[i];
        else if (!input) input = argv[i];
        else return cli_usage_error("query", "too many arguments");
    }
    if (!file) return cli_usage_error("query", "FILE is required");
    bf_filter *f;
    int st = cli_open_filter(file, 0, &f);
    if (st) return st;
    cli_keys *k;
    if (cli_keys_open(&k, input, crlf) != 0) {
        bf_filter_free(f);
        return cli_sys_error(input ? input : "(stdin)", "cannot open");
    }
    cli_out o;
    uint64_t *h = malloc(CLI_BATCH_KEYS * sizeof *h);
    uint8_t *hit = malloc(CLI_BATCH_KEYS);
    if (!h || !hit || cli_out_init(&o, stdout) != 0) {
        free(h);
        free(hit);
        cli_keys_close(k);
        bf_filter_free(f);
        errno = ENOMEM;
        return cli_sys_error(file, "cannot allocate");
    }
    uint64_t seed = bf_filter_seed(f), maybe = 0, total = 0;
    cli_batch b;
    int r;
    while ((r = cli_keys_next(k, &b)) > 0) {
        cli_batch_hash(&b, seed, h);
        maybe += bf_filter_contains_hashes(f, h, b.n, hit);
        total += b.n;
        if (!count_only) {
            print_batch(&o, &b, hit);
            if (o.interactive) cli_out_flush(&o);
        }
    }
    uint64_t no = total - maybe;
    int status = no ? BF_CLI_EXIT_ABSENT : 0;
    if (r < 0) status = cli_sys_error(cli_keys_name(k), "read error");
    free(h);
    free(hit);
    cli_keys_close(k);
    bf_filter_free(f);
    if (count_only) {
        char line[96];
        int n = snprintf(line, sizeof line, "maybe %" PRIu64 "\nno %" PRIu64 "\ntotal %" PRIu64 "\n",
                         maybe, no, total);
        cli_out_write(&o, line, (size_t)n);
    }
    if (cli_out_close(&o) != 0) return cli_sys_error("(stdout)", "write error");
    return status;
}

const cli_command cli_cmd_query = {"query", "look keys up in a filter", help, run};
