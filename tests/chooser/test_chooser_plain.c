/*
 * The chooser in plain C, for the hosts criterion does not run on (qemu:
 * aarch64, big-endian s390x): a cost table's text survives save and load
 * byte for byte, the pick is the least lookup + F x FPR x T, and a
 * measured choice has no false negatives and its model's FPR.
 */
#include "blockfilter_advanced.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void) {
    bf_cost_table *t = NULL, *u = NULL;
    CHECK(bf_cost_table_new(&t) == BF_OK, "new");
    for (size_t i = 0; i < bf_candidate_count(); i++) {
        const char *name = bf_candidate_name(i);
        CHECK(bf_cost_table_add(t, name, 1u << 15, 1.0 + (double)i) == BF_OK, "%s", name);
        CHECK(bf_cost_table_add(t, name, 1u << 27, 30.0 + (double)i) == BF_OK, "%s", name);
    }
    char path[] = "/tmp/bf_costs_plain.XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    close(fd);
    CHECK(bf_cost_table_save(t, path) == BF_OK, "save");
    CHECK(bf_cost_table_load(&u, path) == BF_OK, "load");
    unlink(path);
    CHECK(u && bf_cost_table_rows(u) == bf_cost_table_rows(t), "rows");
    for (size_t i = 0; u && i < bf_cost_table_rows(t); i++) {
        const char *a, *b;
        uint64_t ab, bb;
        double an, bn;
        bf_cost_table_row(t, i, &a, &ab, &an);
        bf_cost_table_row(u, i, &b, &bb, &bn);
        CHECK(!strcmp(a, b) && ab == bb && fabs(an - bn) < 1e-5 * an, "row %zu", i);
    }

    bf_job jobs[] = {{1000000, 0.01, 0, 100, 1}, {10000000, 0, 10000000, 100, 1},
                     {1000000, 0, 0, 1e6, 0.5}};
    bf_choice c[64];
    for (size_t j = 0; u && j < 3; j++) {
        size_t n = 0;
        CHECK(bf_choose(u, &jobs[j], c, 64, &n) == BF_OK, "job %zu", j);
        for (size_t i = 0; i < n && c[i].status == BF_OK; i++) {
            double want = c[i].lookup_ns + jobs[j].negatives * c[i].model_fpp * jobs[j].work_ns;
            CHECK(fabs(c[i].expected_ns - want) <= 1e-9 * want, "job %zu %s", j, c[i].name);
            CHECK(i == 0 || c[i].expected_ns >= c[i - 1].expected_ns, "job %zu order", j);
        }
    }
    /* Measure the first pick of a small job. */
    bf_job small = {20000, 0.01, 0, 0, 1};
    size_t n = 0;
    if (u && bf_choose(u, &small, c, 64, &n) == BF_OK) {
        bf_measurement m;
        CHECK(bf_choice_measure(&c[0], small.n, 200000, &m) == BF_OK, "measure %s", c[0].name);
        CHECK(m.false_negatives == 0, "%s false negatives", c[0].name);
        double want = c[0].model_fpp * 200000;
        CHECK(fabs((double)m.false_positives - want) < 5 * sqrt(want) + 0.25 * want,
              "%s: %llu false positives, model %g", c[0].name,
              (unsigned long long)m.false_positives, want);
    }
    bf_cost_table_free(t);
    bf_cost_table_free(u);
    printf("chooser plain: %lu passed, %lu failed\n", passed, failed);
    return failed ? 1 : 0;
}
