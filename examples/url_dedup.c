/*
 * Deduplicating a stream of URLs (a crawler's frontier, a log pipeline):
 * print each URL the first time it is seen, in one pass and fixed memory.
 *
 * A filter answers "seen before?" with no false negatives, so no duplicate
 * gets through. A false positive drops a new URL with probability fpp; when
 * that is not acceptable, confirm each "maybe" against an exact store (here
 * it is counted, not confirmed).
 *
 * Build: cc url_dedup.c $(pkg-config --cflags --libs blockfilter)
 * Run:   ./url_dedup < urls.txt > unique.txt    (one URL per line)
 *        ./url_dedup --demo                      (a generated stream)
 */
#define _POSIX_C_SOURCE 200809L
#include <blockfilter.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    int demo = argc > 1 && strcmp(argv[1], "--demo") == 0;
    /* Size for the distinct URLs expected; at 0.1% a new URL is wrongly
     * dropped once in a thousand. */
    bf_sbbf *seen;
    int rc = bf_sbbf_new(&seen, 1000000, 0.001);
    if (rc != BF_OK) {
        fprintf(stderr, "bf_sbbf_new: %s\n", bf_strerror(rc));
        return 1;
    }
    unsigned long in = 0, out = 0, dup = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    char buf[96];
    for (;;) {
        if (demo) { /* 200k URLs drawn from 50k distinct pages */
            if (in == 200000) break;
            unsigned long page = (in * 2654435761u) % 50000;
            len = snprintf(buf, sizeof buf, "https://example.com/item/%lu", page);
            line = buf;
        } else {
            if ((len = getline(&line, &cap, stdin)) < 0) break;
            if (len && line[len - 1] == '\n') line[--len] = '\0';
        }
        in++;
        if (bf_sbbf_contains(seen, line, (size_t)len)) {
            dup++; /* seen (or, rarely, a false positive) */
            continue;
        }
        bf_sbbf_insert(seen, line, (size_t)len);
        out++;
        if (!demo) puts(line);
    }
    if (!demo) free(line);
    bf_sbbf_stats st;
    bf_sbbf_get_stats(seen, &st);
    fprintf(stderr, "urls %lu, unique emitted %lu, dropped %lu; filter %llu bytes, "
                    "fill %.3f, FPR now %.5f\n",
            in, out, dup, (unsigned long long)st.num_bytes, st.fill_ratio, st.est_fpp);
    bf_sbbf_free(seen);
    /* The demo knows the answer: 50000 distinct pages, every one emitted
     * unless a false positive dropped it (expected ~0.1% or fewer). */
    return demo ? (out <= 50000 && out >= 49900 ? 0 : 1) : 0;
}
