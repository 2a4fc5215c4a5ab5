/* Helpers shared by the robustness tests. */
#ifndef BF_ROBUST_UTIL_H
#define BF_ROBUST_UTIL_H

#include "testutil.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MemAvailable from /proc/meminfo in bytes; 0 if unknown. */
static inline uint64_t ru_mem_available(void) {
    FILE *fp = fopen("/proc/meminfo", "r");
    if (!fp) return 0;
    char line[256];
    unsigned long long kb = 0;
    while (fgets(line, sizeof line, fp))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) break;
    fclose(fp);
    return (uint64_t)kb * 1024u;
}

/* Whether the long tests were asked for (-Dlarge_tests=true or
 * BF_TEST_LARGE=1). */
static inline int ru_large_tests(void) {
    const char *e = getenv("BF_TEST_LARGE");
    return e && strcmp(e, "1") == 0;
}

#endif
