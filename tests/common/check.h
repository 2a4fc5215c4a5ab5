/* Checks for the plain C tests (no criterion; they also run under qemu and
 * ThreadSanitizer): CHECK(cond, printf-style message) counts a pass or a
 * failure, printing the first 20 failures to stderr. The test's main prints
 * the one-line summary from passed and failed and exits non-zero when
 * failed > 0. For one-file test programs: include it once. */
#ifndef BF_CHECK_H
#define BF_CHECK_H

#include <stdio.h>

static unsigned long passed, failed;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (cond) {                                                        \
            passed++;                                                      \
        } else {                                                           \
            failed++;                                                      \
            if (failed <= 20) {                                            \
                fprintf(stderr, "%s:%d: FAILED: %s: ", __FILE__, __LINE__, #cond); \
                fprintf(stderr, __VA_ARGS__);                              \
                fputc('\n', stderr);                                       \
            }                                                              \
        }                                                                  \
    } while (0)

#endif
