/* Small helpers shared by the core tests. */
#ifndef BF_TESTUTIL_H
#define BF_TESTUTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: reproducible, well-mixed 64-bit values. */
static inline uint64_t tu_next(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Reads a whole file from $BF_TEST_DATA/<rel>; NULL on failure. */
static inline uint8_t *tu_read_data(const char *rel, size_t *len) {
    const char *dir = getenv("BF_TEST_DATA");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", rel);
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(fp);
    *len = (size_t)n;
    return buf;
}

/* Binomial tolerance: |measured - p| within z standard deviations of q
 * Bernoulli(p) trials, plus a relative slack for model-vs-instance spread. */
static inline int tu_within(double measured, double p, double q, double z, double rel) {
    double sd = sqrt(p * (1 - p) / q);
    return fabs(measured - p) <= z * sd + rel * p;
}

#endif
