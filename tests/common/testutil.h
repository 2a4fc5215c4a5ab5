/* Helpers shared by every test area (criterion suites and plain C tests
 * alike, natively and under qemu): plain C11, no criterion. Found through
 * the include directory tests/meson.build sets up (test_inc). */
#ifndef BF_TESTUTIL_H
#define BF_TESTUTIL_H

#include "blockfilter.h"
#include "blockfilter_advanced.h"

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

/* Reads a whole file (to its end, any kind of stream). NULL and *len = 0
 * when it cannot be opened or read, or memory runs out; free() the result. */
static inline uint8_t *tu_read_file(const char *path, size_t *len) {
    *len = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;
    int ok = 1;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                ok = 0;
                break;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, fp);
        if (got == 0) break;
        n += got;
    }
    if (ferror(fp)) ok = 0;
    fclose(fp);
    if (!ok) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* Every family the library knows (its registry, walked by id: ids are one
 * byte), into out; returns how many. Suites that hold for every family loop
 * over these, so a new family is tested with no edit. */
static inline size_t tu_families(bf_family out[255]) {
    size_t n = 0;
    for (unsigned id = 1; id < 256; id++)
        if (bf_family_name((bf_family)id)) out[n++] = (bf_family)id;
    return n;
}

/* Reads $BF_TEST_DATA/<rel> (tests/data when unset) like tu_read_file. */
static inline uint8_t *tu_read_data(const char *rel, size_t *len) {
    const char *dir = getenv("BF_TEST_DATA");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir ? dir : "tests/data", rel);
    return tu_read_file(path, len);
}

/* Binomial tolerance: |measured - p| within z standard deviations of q
 * Bernoulli(p) trials, plus a relative slack for model-vs-instance spread. */
static inline int tu_within(double measured, double p, double q, double z, double rel) {
    double sd = sqrt(p * (1 - p) / q);
    return fabs(measured - p) <= z * sd + rel * p;
}

#endif
