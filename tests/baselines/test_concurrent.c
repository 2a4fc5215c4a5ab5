/* Concurrent inserts into one classic Bloom filter from several threads,
 * each checking its own keys with the concurrent contains while the others
 * still write; afterwards every key is present and the bits equal those of
 * a sequential build. Plain C (runs under ThreadSanitizer and qemu). */
#include "families/baselines.h"
#include "blockfilter.h"
#include "blockfilter_advanced.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define PER_THREAD 50000

static bf_bloom *shared;
static int failures;

static uint64_t key(unsigned t, unsigned i) { return bf__mix64(((uint64_t)t << 32) | i) ^ 0x5555; }

static void *worker(void *arg) {
    unsigned t = (unsigned)(uintptr_t)arg;
    for (unsigned i = 0; i < PER_THREAD; i++) {
        bf_bloom_insert_hash_concurrent(shared, key(t, i));
        /* Program order makes our own insert visible to us. */
        if (!bf_bloom_contains_hash_concurrent(shared, key(t, i / 2)))
            __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

int main(void) {
    bf_bloom *seq;
    if (bf_bloom_new(&shared, THREADS * PER_THREAD, 0.01) || bf_bloom_new(&seq, THREADS * PER_THREAD, 0.01)) {
        printf("baselines_concurrent: FAIL (allocation)\n");
        return 1;
    }
    pthread_t th[THREADS];
    for (unsigned t = 0; t < THREADS; t++) pthread_create(&th[t], NULL, worker, (void *)(uintptr_t)t);
    for (unsigned t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    size_t missing = 0;
    for (unsigned t = 0; t < THREADS; t++)
        for (unsigned i = 0; i < PER_THREAD; i++) {
            missing += !bf_bloom_contains_hash(shared, key(t, i));
            bf_bloom_insert_hash(seq, key(t, i));
        }
    int same = memcmp(shared->t.data, seq->t.data, (size_t)seq->t.num_bytes) == 0;
    int ok = failures == 0 && missing == 0 && same;
    printf("baselines_concurrent: %s (%d threads x %d keys, %d in-flight misses, %zu missing, bits %s)\n",
           ok ? "ok" : "FAIL", THREADS, PER_THREAD, failures, missing, same ? "identical" : "DIFFER");
    bf_bloom_free(shared);
    bf_bloom_free(seq);
    return ok ? 0 : 1;
}
