/* Error messages and progress: everything the tool writes to stderr. */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

void cli_msg(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", CLI_PROG);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_lib_error(const char *file, const char *what, int status, int err) {
    if (status == BF_EIO && err)
        cli_msg("%s: %s: %s: %s", file, what, bf_strerror(status), strerror(err));
    else
        cli_msg("%s: %s: %s", file, what, bf_strerror(status));
    return BF_CLI_EXIT_ERROR;
}

int cli_sys_error(const char *file, const char *what) {
    cli_msg("%s: %s: %s", file, what, strerror(errno));
    return BF_CLI_EXIT_ERROR;
}

int cli_usage_error(const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s %s: ", CLI_PROG, cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\nTry '%s %s --help'.\n", CLI_PROG, cmd);
    va_end(ap);
    return BF_CLI_EXIT_ERROR;
}

void cli_progress_init(cli_progress *p, int on, uint64_t total) {
    p->on = on;
    p->total = total;
    p->next = CLI_PROGRESS_STEP;
}

void cli_progress_update(cli_progress *p, uint64_t done, const char *what) {
    if (!p->on || done < p->next) return;
    p->next = done + CLI_PROGRESS_STEP;
    if (p->total)
        fprintf(stderr, "\r%s: %" PRIu64 " / %" PRIu64 " keys (%.0f%%)", what, done, p->total,
                100.0 * (double)done / (double)p->total);
    else
        fprintf(stderr, "\r%s: %" PRIu64 " keys", what, done);
    fflush(stderr);
}

void cli_progress_end(const cli_progress *p, uint64_t done, const char *what) {
    if (!p->on || done < CLI_PROGRESS_STEP) return;
    fprintf(stderr, "\r%s: %" PRIu64 " keys, done.          \n", what, done);
}
