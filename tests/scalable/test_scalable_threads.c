/*
 * The scalable SBBF's thread-safety contract (docs/thread-safety.md): any
 * number of threads may query one chain at the same time (single, batch,
 * byte-string lookups, get_info, get_layer, seed); writers need exclusive
 * access. A plain C program so it runs under ThreadSanitizer: a writer
 * grows a chain under a mutex-free hand-over (build, then publish with a
 * release store), readers acquire it and query concurrently; every key must
 * be found and all readers must agree on every answer.
 *
 * Usage: test_scalable_threads [keys]   (default 200000)
 */
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "testutil.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define READERS 4

typedef struct shared {
    bf_scalable *f;      /* published by the writer (release) */
    size_t n;
    unsigned long errors; /* atomic */
    size_t positives[READERS];
} shared;

typedef struct arg {
    shared *s;
    unsigned id;
} arg;

/* Key i: splitmix64 of i. */
static uint64_t mix(uint64_t i) { return tu_next(&i); }

static void *writer(void *p) {
    shared *s = p;
    bf_scalable_params params = {100, 0.01, 0, 0, 0};
    bf_scalable *f = NULL;
    if (bf_scalable_new(&f, &params) != BF_OK) {
        __atomic_add_fetch(&s->errors, 1, __ATOMIC_RELAXED);
        f = NULL;
    }
    for (size_t i = 0; f && i < s->n; i++)
        if (bf_scalable_insert_hash(f, mix(i), NULL) != BF_OK) __atomic_add_fetch(&s->errors, 1, __ATOMIC_RELAXED);
    if (f && bf_scalable_insert(f, "hello", 5, NULL) != BF_OK) __atomic_add_fetch(&s->errors, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&s->f, f, __ATOMIC_RELEASE);
    return NULL;
}

static void *reader(void *p) {
    arg *a = p;
    shared *s = a->s;
    const bf_scalable *f;
    while (!(f = __atomic_load_n(&s->f, __ATOMIC_ACQUIRE)) &&
           !__atomic_load_n(&s->errors, __ATOMIC_RELAXED))
        ;
    if (!f) return NULL;
    enum { B = 512 };
    uint64_t keys[B];
    uint8_t out[B];
    size_t miss = 0, pos = 0;
    for (size_t i = 0; i < s->n; i += B) {
        size_t m = s->n - i < B ? s->n - i : B;
        for (size_t j = 0; j < m; j++) keys[j] = mix(i + j);
        if (a->id & 1) {
            miss += m - bf_scalable_contains_hashes(f, keys, m, out);
        } else {
            for (size_t j = 0; j < m; j++) miss += !bf_scalable_contains_hash(f, keys[j]);
        }
        /* Foreign keys: every reader must count the same positives. */
        for (size_t j = 0; j < m; j++) keys[j] = mix(((uint64_t)1 << 50) + i + j);
        pos += bf_scalable_contains_hashes(f, keys, m, NULL);
    }
    miss += !bf_scalable_contains(f, "hello", 5);
    bf_scalable_stats in;
    bf_scalable_layer l;
    if (bf_scalable_get_stats(f, &in) != BF_OK || bf_scalable_get_layer(f, 0, &l) != BF_OK ||
        bf_scalable_seed(f) != 0)
        miss++;
    if (miss) __atomic_add_fetch(&s->errors, miss, __ATOMIC_RELAXED);
    s->positives[a->id] = pos;
    return NULL;
}

int main(int argc, char **argv) {
    shared s;
    memset(&s, 0, sizeof s);
    s.n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 200000;
    pthread_t w, r[READERS];
    arg args[READERS];
    if (pthread_create(&w, NULL, writer, &s)) return 1;
    for (unsigned i = 0; i < READERS; i++) {
        args[i] = (arg){&s, i};
        if (pthread_create(&r[i], NULL, reader, &args[i])) return 1;
    }
    pthread_join(w, NULL);
    for (unsigned i = 0; i < READERS; i++) pthread_join(r[i], NULL);
    int ok = s.errors == 0 && s.f;
    for (unsigned i = 1; i < READERS; i++) ok &= s.positives[i] == s.positives[0];
    printf("scalable threads: %zu keys, %d readers, %lu errors, %zu foreign positives each: %s\n",
           s.n, READERS, s.errors, s.positives[0], ok ? "ok" : "FAILED");
    bf_scalable_free(s.f);
    return ok ? 0 : 1;
}
