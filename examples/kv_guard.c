/*
 * Guarding a key-value store lookup with a filter (the "cache penetration"
 * case): most requests ask for keys the store does not have. Asking the
 * filter first answers those from memory; only a "maybe" goes to the store.
 * A filter never says "no" for a key it holds, so no stored value is missed.
 *
 * Build: cc kv_guard.c $(pkg-config --cflags --libs blockfilter)
 * Run:   ./kv_guard            (exit 0 when every stored key was found)
 */
#include <blockfilter.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A stand-in for the expensive store (disk, network): a sorted array of
 * keys, with a counter of how often it was asked. */
typedef struct store {
    char (*keys)[32];
    size_t n;
    unsigned long lookups;
} store;

static int cmp_key(const void *a, const void *b) { return strcmp(a, b); }

static int store_get(store *s, const char *key) {
    s->lookups++;
    return bsearch(key, s->keys, s->n, sizeof *s->keys, cmp_key) != NULL;
}

int main(void) {
    enum { STORED = 100000, REQUESTS = 1000000 };
    store s = {calloc(STORED, sizeof *s.keys), STORED, 0};
    if (!s.keys) return 1;
    for (size_t i = 0; i < STORED; i++) snprintf(s.keys[i], sizeof s.keys[i], "user:%zu", i * 7);
    qsort(s.keys, s.n, sizeof *s.keys, cmp_key);

    /* 1. Build the filter from every stored key (1% false positives). */
    bf_sbbf *filter;
    int rc = bf_sbbf_new(&filter, STORED, 0.01);
    if (rc != BF_OK) {
        fprintf(stderr, "bf_sbbf_new: %s\n", bf_strerror(rc));
        return 1;
    }
    for (size_t i = 0; i < s.n; i++) bf_sbbf_insert(filter, s.keys[i], strlen(s.keys[i]));

    /* 2. Serve requests: 10% for stored keys, 90% for keys nobody has. */
    unsigned long found = 0, avoided = 0, wasted = 0, missed = 0;
    for (unsigned long r = 0; r < REQUESTS; r++) {
        char key[32];
        unsigned long id = r % 10 == 0 ? (r / 10 % STORED) * 7 : r * 7 + 3;
        snprintf(key, sizeof key, "user:%lu", id);
        int stored = r % 10 == 0;

        if (!bf_sbbf_contains(filter, key, strlen(key))) {
            avoided++;           /* certainly absent: the store is not asked */
            if (stored) missed++; /* cannot happen: no false negatives */
            continue;
        }
        if (store_get(&s, key)) found++;
        else wasted++; /* a false positive: one unneeded store lookup */
    }

    printf("requests %d, store lookups %lu, avoided %lu (%.1f%%), found %lu, "
           "false positives %lu (%.3f%% of absent keys)\n",
           REQUESTS, s.lookups, avoided, 100.0 * avoided / REQUESTS, found, wasted,
           100.0 * wasted / (avoided + wasted));
    bf_sbbf_free(filter);
    free(s.keys);
    return missed == 0 && found == REQUESTS / 10 ? 0 : 1;
}
