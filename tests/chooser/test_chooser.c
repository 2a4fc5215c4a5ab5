/*
 * The chooser (lib/choose): its arithmetic over synthetic cost tables (the
 * pick is the least lookup + F x FPR x T within the budget; refusals; ties),
 * the cost table's file (round trip, and hostile files give a status), the
 * calibration's contract, and measuring a choice.
 */
#include "blockfilter_advanced.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXC 64

/* A table with every candidate at 32 KiB and 128 MiB, ns from f(index). */
static bf_cost_table *table_with(double (*f)(size_t, uint64_t)) {
    bf_cost_table *t;
    cr_assert_eq(bf_cost_table_new(&t), BF_OK);
    for (size_t i = 0; i < bf_candidate_count(); i++) {
        cr_assert_eq(bf_cost_table_add(t, bf_candidate_name(i), 1u << 15, f(i, 1u << 15)), BF_OK);
        cr_assert_eq(bf_cost_table_add(t, bf_candidate_name(i), 1u << 27, f(i, 1u << 27)), BF_OK);
    }
    return t;
}

static double ns_by_index(size_t i, uint64_t bytes) {
    return (1.0 + (double)i) * (bytes > (1u << 20) ? 10.0 : 1.0);
}
static double ns_flat(size_t i, uint64_t bytes) {
    (void)i;
    (void)bytes;
    return 5.0;
}
/* The SBBF slow, everything else fast. */
static double ns_sbbf_slow(size_t i, uint64_t bytes) {
    (void)bytes;
    return strcmp(bf_candidate_name(i), "sbbf") ? 1.0 : 50.0;
}

static size_t choose(const bf_cost_table *t, bf_job job, bf_choice *out, int want) {
    size_t n = 0;
    cr_assert_eq(bf_choose(t, &job, out, MAXC, &n), want);
    cr_assert_eq(n, bf_candidate_count() < MAXC ? bf_candidate_count() : MAXC);
    return n;
}

Test(choose, pick_is_the_least_expected_cost) {
    bf_cost_table *t = table_with(ns_by_index);
    double works[] = {0, 100, 1e7};
    double negs[] = {0.5, 1};
    for (size_t w = 0; w < 3; w++)
        for (size_t g = 0; g < 2; g++) {
            bf_job job = {1000000, 0.01, 0, works[w], negs[g]};
            bf_choice c[MAXC];
            size_t n = choose(t, job, c, BF_OK);
            double best = INFINITY;
            for (size_t i = 0; i < n; i++) {
                if (c[i].status != BF_OK) continue;
                /* Recompute each from the model and the table, by hand. */
                double want = c[i].lookup_ns + negs[g] * c[i].model_fpp * works[w];
                cr_assert_float_eq(c[i].expected_ns, want, 1e-9 * (1 + want));
                cr_assert_float_eq(c[i].lookup_ns,
                                   bf_cost_table_lookup_ns(t, c[i].name, c[i].bytes), 1e-12);
                cr_assert(c[i].model_fpp <= 0.01, "%s fpr %g", c[i].name, c[i].model_fpp);
                cr_assert_float_eq(c[i].bits_per_key, 8.0 * (double)c[i].bytes / 1e6, 1e-9);
                if (i) cr_assert(c[i].expected_ns >= c[i - 1].expected_ns, "ranked in order");
                if (c[i].expected_ns < best) best = c[i].expected_ns;
            }
            cr_assert_eq(c[0].expected_ns, best);
            cr_assert(strstr(c[0].why, "least expected cost"));
        }
    bf_cost_table_free(t);
}

Test(choose, sbbf_row_uses_the_sbbf_model_and_sizing) {
    bf_cost_table *t = table_with(ns_flat);
    bf_choice c[MAXC];
    /* No work saved and flat lookup times: every size costs the same, and
     * the tie goes to the fewest bytes, the compact size for the fpp. */
    size_t n = choose(t, (bf_job){123457, 0.003, 0, 0, 1}, c, BF_OK);
    size_t want_bytes;
    cr_assert_eq(bf_sbbf_compact_bytes(123457, 0.003, &want_bytes), BF_OK);
    int seen = 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(c[i].name, "sbbf")) {
            seen = 1;
            cr_assert_eq(c[i].bytes, want_bytes);
            cr_assert_eq(c[i].model_fpp, bf_sbbf_model_fpp(want_bytes, 123457));
            cr_assert_eq(c[i].family, BF_FAMILY_SBBF);
            cr_assert_eq(c[i].block_bits, 256);
            cr_assert_eq(c[i].k, 8);
        }
    cr_assert(seen);
    /* With a budget, flat lookup times and work saved, the SBBF uses all
     * of the budget it can (more bits, fewer false positives). */
    n = choose(t, (bf_job){123457, 0, 200000, 10, 1}, c, BF_OK);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(c[i].name, "sbbf")) {
            cr_assert_eq(c[i].bytes, 200000 - 200000 % 32);
            cr_assert_eq(c[i].model_fpp, bf_sbbf_model_fpp(c[i].bytes, 123457));
        }
    bf_cost_table_free(t);
}

Test(choose, work_moves_the_pick_from_speed_to_precision) {
    bf_cost_table *t = table_with(ns_sbbf_slow);
    bf_choice c[MAXC];
    /* Nothing saved: the fastest lookup wins, so not the SBBF. */
    choose(t, (bf_job){1000000, 0, 2000000, 0, 1}, c, BF_OK);
    cr_assert_neq(strcmp(c[0].name, "sbbf"), 0);
    /* 16 bits/key: an enormous saving per negative makes the layout with
     * the lowest FPR win, whatever its lookup costs. */
    choose(t, (bf_job){1000000, 0, 2000000, 1e12, 1}, c, BF_OK);
    double least = INFINITY;
    for (size_t i = 0; i < bf_candidate_count(); i++)
        if (c[i].status == BF_OK && c[i].model_fpp < least) least = c[i].model_fpp;
    cr_assert_eq(c[0].model_fpp, least);
    /* No negatives: the FPR does not matter either. */
    choose(t, (bf_job){1000000, 0, 2000000, 1e12, 0}, c, BF_OK);
    cr_assert_float_eq(c[0].expected_ns, 1.0, 1e-12);
    bf_cost_table_free(t);
}

/* Lookups 1 ns in L1, 1000 ns at 128 MiB: size costs time. */
static double ns_steep(size_t i, uint64_t bytes) {
    (void)i;
    return bytes > (1u << 20) ? 1000.0 : 1.0;
}

Test(choose, each_candidate_gets_its_cheapest_size) {
    bf_cost_table *t = table_with(ns_steep);
    bf_choice c[MAXC];
    const uint64_t n = 1000000;
    bf_job jobs[] = {{n, 0, 0, 2000, 1}, {n, 0.05, 0, 2000, 1}, {n, 0, 2000000, 2000, 1},
                     {n, 0, 0, 0, 1}, {n, 0, 0, 1e9, 1}};
    for (size_t j = 0; j < sizeof jobs / sizeof jobs[0]; j++) {
        size_t m = choose(t, jobs[j], c, BF_OK);
        for (size_t i = 0; i < m; i++) {
            if (strcmp(c[i].name, "sbbf")) continue;
            cr_assert_eq(c[i].status, BF_OK);
            if (jobs[j].fpp != 0) cr_assert(c[i].model_fpp <= jobs[j].fpp);
            if (jobs[j].bytes != 0) cr_assert(c[i].bytes <= jobs[j].bytes);
            /* No SBBF size of the search's grid is cheaper: 2^(j/2) bits
             * per key from 2 to 64 (whole blocks) within the bound. */
            for (int g = 2; g <= 12; g++) {
                uint64_t b = (uint64_t)((double)n / 8 * exp2(g / 2.0));
                b -= b % 32;
                double f = bf_sbbf_model_fpp(b, n);
                if ((jobs[j].fpp != 0 && f > jobs[j].fpp) || (jobs[j].bytes && b > jobs[j].bytes))
                    continue;
                double cost = bf_cost_table_lookup_ns(t, "sbbf", b) + f * jobs[j].work_ns;
                cr_assert(c[i].expected_ns <= cost * (1 + 1e-12),
                          "job %zu: %llu bytes cost %g < pick %g at %llu", j,
                          (unsigned long long)b, cost, c[i].expected_ns,
                          (unsigned long long)c[i].bytes);
            }
        }
    }
    /* T = 2000 ns, no bound: the filter stays small where lookups are fast
     * unless false positives cost more than the slow lookups. */
    choose(t, jobs[0], c, BF_OK);
    cr_assert(c[0].expected_ns < 1000, "%s %g", c[0].name, c[0].expected_ns);
    bf_cost_table_free(t);
}

Test(choose, budget_refusal) {
    bf_cost_table *t = table_with(ns_flat);
    bf_choice c[MAXC];
    /* 10^7 keys in 8 bits/key: a cuckoo table cannot hold them (8-bit
     * fingerprints need 8 / load bits per key). */
    size_t n = choose(t, (bf_job){10000000, 0, 10000000, 100, 1}, c, BF_OK);
    int refused = 0;
    for (size_t i = 0; i < n; i++) {
        if (!strncmp(c[i].name, "cuckoo", 6)) {
            cr_assert_eq(c[i].status, BF_ETOOBIG, "%s", c[i].name);
            cr_assert(strstr(c[i].why, "budget"));
            refused = 1;
        }
        if (c[i].status == BF_OK) cr_assert(c[i].bytes <= 10000000);
        if (i && c[i - 1].status != BF_OK) cr_assert_neq(c[i].status, BF_OK, "left out last");
    }
    cr_assert(refused);
    /* 2 bytes: nothing fits (the smallest block is 4 bytes, a cuckoo table
     * at least two buckets). */
    n = choose(t, (bf_job){1000, 0, 2, 100, 1}, c, BF_ETOOBIG);
    for (size_t i = 0; i < n; i++) cr_assert_eq(c[i].status, BF_ETOOBIG);
    bf_cost_table_free(t);
}

Test(choose, candidates_without_rows_are_left_out) {
    bf_cost_table *t;
    cr_assert_eq(bf_cost_table_new(&t), BF_OK);
    cr_assert_eq(bf_cost_table_add(t, "sbbf", 4096, 2.0), BF_OK);
    cr_assert_eq(bf_cost_table_add(t, "some-future-layout", 4096, 0.5), BF_OK); /* kept, ignored */
    bf_choice c[MAXC];
    size_t n = choose(t, (bf_job){1000, 0.01, 0, 100, 1}, c, BF_OK);
    cr_assert_str_eq(c[0].name, "sbbf");
    cr_assert_eq(c[0].lookup_ns, 2.0);
    for (size_t i = 1; i < n; i++) cr_assert_eq(c[i].status, BF_ENOTFOUND);
    /* Past the largest size measured: flagged. */
    choose(t, (bf_job){1000000, 0.01, 0, 100, 1}, c, BF_OK);
    cr_assert(c[0].flags & BF_CHOICE_EXTRAPOLATED);
    bf_cost_table_free(t);
    /* An empty table: nothing ranked, nothing fits. */
    cr_assert_eq(bf_cost_table_new(&t), BF_OK);
    choose(t, (bf_job){1000, 0.01, 0, 100, 1}, c, BF_ETOOBIG);
    bf_cost_table_free(t);
}

Test(choose, ties_go_to_fewer_bytes_then_candidate_order) {
    bf_cost_table *t = table_with(ns_flat);
    bf_choice c[MAXC];
    /* No work saved: every ranked layout costs the same 5 ns. */
    size_t n = choose(t, (bf_job){1000000, 0.01, 0, 0, 1}, c, BF_OK);
    for (size_t i = 1; i < n && c[i].status == BF_OK; i++) {
        cr_assert_eq(c[i].expected_ns, c[0].expected_ns);
        cr_assert(c[i].bytes >= c[i - 1].bytes);
        cr_assert(strstr(c[i].why, "tie"));
    }
    /* The same job twice gives the same order. */
    bf_choice d[MAXC];
    choose(t, (bf_job){1000000, 0.01, 0, 0, 1}, d, BF_OK);
    for (size_t i = 0; i < n; i++) cr_assert_str_eq(c[i].name, d[i].name);
    bf_cost_table_free(t);
}

Test(choose, interpolates_in_log_bytes) {
    bf_cost_table *t;
    cr_assert_eq(bf_cost_table_new(&t), BF_OK);
    cr_assert_eq(bf_cost_table_add(t, "sbbf", 1024, 2.0), BF_OK);
    cr_assert_eq(bf_cost_table_add(t, "sbbf", 1u << 20, 12.0), BF_OK);
    cr_assert_float_eq(bf_cost_table_lookup_ns(t, "sbbf", 1u << 15), 7.0, 1e-12);
    cr_assert_eq(bf_cost_table_lookup_ns(t, "sbbf", 10), 2.0);
    cr_assert_eq(bf_cost_table_lookup_ns(t, "sbbf", 1u << 30), 12.0);
    cr_assert(isnan(bf_cost_table_lookup_ns(t, "cuckoo-b4-f8", 1024)));
    cr_assert_eq(bf_cost_table_add(t, "sbbf", 1024, 3.0), BF_OK); /* replaces */
    cr_assert_eq(bf_cost_table_rows(t), 2);
    cr_assert_eq(bf_cost_table_lookup_ns(t, "sbbf", 1024), 3.0);
    bf_cost_table_free(t);
}

Test(choose, bad_arguments) {
    bf_cost_table *t = table_with(ns_flat);
    bf_choice c[MAXC];
    bf_job bad[] = {
        {0, 0.01, 0, 1, 1},          /* no keys */
        {10, 0.01, 100, 1, 1},       /* both fpp and bytes */
        {10, 1.5, 0, 1, 1},          /* fpp out of range */
        {10, 0.01, 0, -1, 1},        /* negative work */
        {10, 0.01, 0, NAN, 1},       /* work NaN */
        {10, 0.01, 0, INFINITY, 1},  /* work infinite */
        {10, 0.01, 0, 1, 1.5},       /* share > 1 */
        {10, 0.01, 0, 1, NAN},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(bf_choose(t, &bad[i], c, MAXC, NULL), BF_EINVAL, "job %zu", i);
    bf_job ok = {10, 0.01, 0, 1, 1};
    cr_assert_eq(bf_choose(NULL, &ok, c, MAXC, NULL), BF_EINVAL);
    cr_assert_eq(bf_choose(t, NULL, c, MAXC, NULL), BF_EINVAL);
    cr_assert_eq(bf_choose(t, &ok, NULL, MAXC, NULL), BF_EINVAL);
    size_t n = 99;
    cr_assert_eq(bf_choose(t, &ok, c, 1, &n), BF_OK); /* only the pick */
    cr_assert_eq(n, 1);
    cr_assert_eq(bf_cost_table_add(t, "Bad Name", 10, 1), BF_EINVAL);
    cr_assert_eq(bf_cost_table_add(t, "sbbf", 0, 1), BF_EINVAL);
    cr_assert_eq(bf_cost_table_add(t, "sbbf", 10, 0), BF_EINVAL);
    cr_assert_eq(bf_cost_table_add(t, "sbbf", 10, NAN), BF_EINVAL);
    cr_assert_eq(bf_cost_table_add(t, "sbbf", 10, 2e9), BF_EINVAL);
    bf_cost_table_free(t);
}

/* ---- the file ------------------------------------------------------------ */

static char tmpdir[64];
static void make_dir(void) {
    snprintf(tmpdir, sizeof tmpdir, "/tmp/bf_costs.XXXXXX");
    cr_assert(mkdtemp(tmpdir));
}
static void remove_dir(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    cr_assert_eq(system(cmd), 0);
}

static void write_text(const char *path, const void *data, size_t len) {
    FILE *fp = fopen(path, "wb");
    cr_assert(fp);
    cr_assert_eq(fwrite(data, 1, len, fp), len);
    fclose(fp);
}

static int load_text(const char *text) {
    char path[128];
    snprintf(path, sizeof path, "%s/t.txt", tmpdir);
    write_text(path, text, strlen(text));
    bf_cost_table *t = NULL;
    int rc = bf_cost_table_load(&t, path);
    cr_assert_eq(rc == BF_OK, t != NULL);
    bf_cost_table_free(t);
    return rc;
}

Test(costs_file, round_trip, .init = make_dir, .fini = remove_dir) {
    bf_cost_table *t = table_with(ns_by_index), *u = NULL;
    char path[128];
    snprintf(path, sizeof path, "%s/costs.txt", tmpdir);
    cr_assert_eq(bf_cost_table_save(t, path), BF_OK);
    cr_assert_eq(bf_cost_table_load(&u, path), BF_OK);
    cr_assert_eq(bf_cost_table_rows(u), bf_cost_table_rows(t));
    cr_assert_str_eq(bf_cost_table_machine(u), bf_cost_table_machine(t));
    for (size_t i = 0; i < bf_cost_table_rows(t); i++) {
        const char *a, *b;
        uint64_t ab, bb;
        double an, bn;
        cr_assert_eq(bf_cost_table_row(t, i, &a, &ab, &an), BF_OK);
        cr_assert_eq(bf_cost_table_row(u, i, &b, &bb, &bn), BF_OK);
        cr_assert_str_eq(a, b);
        cr_assert_eq(ab, bb);
        cr_assert_float_eq(an, bn, 1e-5 * an);
    }
    const char *name;
    uint64_t bytes;
    double ns;
    cr_assert_eq(bf_cost_table_row(u, bf_cost_table_rows(u), &name, &bytes, &ns), BF_EINVAL);
    bf_cost_table_free(t);
    bf_cost_table_free(u);
}

Test(costs_file, hostile_files_give_a_status, .init = make_dir, .fini = remove_dir) {
    cr_assert_eq(load_text("blockfilter-costs 1\nmachine m\nrow sbbf 32768 1.5\nend\n"), BF_OK);
    cr_assert_eq(load_text(""), BF_EFORMAT);
    cr_assert_eq(load_text("hello\n"), BF_EFORMAT);
    cr_assert_eq(load_text("\x7f" "ELF\n"), BF_EFORMAT);
    cr_assert_eq(load_text("blockfilter-costs 2\nmachine m\nend\n"), BF_EVERSION);
    cr_assert_eq(load_text("blockfilter-costs 1x\nmachine m\nend\n"), BF_EFORMAT);
    cr_assert_eq(load_text("blockfilter-costs 1\nmachine m\nrow sbbf 32768 1.5\n"), BF_ETRUNCATED);
    cr_assert_eq(load_text("blockfilter-costs 1\nmachine m\nrow sbbf 32768 1.5"), BF_ETRUNCATED);
    const char *corrupt[] = {
        "blockfilter-costs 1\nmachine m\nrow sbbf 32768 -1\nend\n",
        "blockfilter-costs 1\nmachine m\nrow sbbf 32768 nan\nend\n",
        "blockfilter-costs 1\nmachine m\nrow sbbf 32768 inf\nend\n",
        "blockfilter-costs 1\nmachine m\nrow sbbf 0 1\nend\n",
        "blockfilter-costs 1\nmachine m\nrow sbbf 99999999999999999999999 1\nend\n",
        "blockfilter-costs 1\nmachine m\nrow SBBF 32768 1\nend\n",
        "blockfilter-costs 1\nmachine m\nrow sbbf 32768\nend\n",
        "blockfilter-costs 1\nmachine m\nrow sbbf 32768 1 extra\nend\n",
        "blockfilter-costs 1\nmachine m\nrow sbbf  32768 1\nend\n",
        "blockfilter-costs 1\nmachine m\nrow aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa 1 1\nend\n",
        "blockfilter-costs 1\nmachine m\nrow sbbf 32768 1e999\nend\n",
        "blockfilter-costs 1\nmachine m\nrow sbbf 32768 0x10\nend\n",
        "blockfilter-costs 1\nnotmachine m\nend\n",
        "blockfilter-costs 1\nmachine m\nwhat\nend\n",
        "blockfilter-costs 1\nmachine m\nend\nrow sbbf 1 1\n",
        "blockfilter-costs 1\nmachine m\nend\n\n",
        "blockfilter-costs 1\nmachine m\x01\nend\n",
    };
    for (size_t i = 0; i < sizeof corrupt / sizeof corrupt[0]; i++)
        cr_assert_eq(load_text(corrupt[i]), BF_ECORRUPT, "case %zu", i);
    /* A NUL inside a row. */
    char path[128];
    snprintf(path, sizeof path, "%s/nul.txt", tmpdir);
    static const char nul[] = "blockfilter-costs 1\nmachine m\nrow sb\0bf 1 1\nend\n";
    write_text(path, nul, sizeof nul - 1);
    bf_cost_table *t = NULL;
    cr_assert_eq(bf_cost_table_load(&t, path), BF_ECORRUPT);
    /* Too large, a directory, missing. */
    snprintf(path, sizeof path, "%s/big.txt", tmpdir);
    size_t big = (1u << 20) + 1;
    char *buf = calloc(1, big);
    write_text(path, buf, big);
    free(buf);
    cr_assert_eq(bf_cost_table_load(&t, path), BF_ETOOBIG);
    cr_assert_eq(bf_cost_table_load(&t, tmpdir), BF_EIO);
    snprintf(path, sizeof path, "%s/missing.txt", tmpdir);
    cr_assert_eq(bf_cost_table_load(&t, path), BF_EIO);
    cr_assert_null(t);
    cr_assert_eq(bf_cost_table_load(NULL, path), BF_EINVAL);
    /* Saving into a folder that does not exist. */
    cr_assert_eq(bf_cost_table_new(&t), BF_OK);
    snprintf(path, sizeof path, "%s/no/such/dir/costs.txt", tmpdir);
    cr_assert_eq(bf_cost_table_save(t, path), BF_EIO);
    bf_cost_table_free(t);
}

Test(costs_file, random_mutations_never_crash, .init = make_dir, .fini = remove_dir) {
    /* A few rows, so the check that a loaded table chooses stays quick. */
    bf_cost_table *t;
    cr_assert_eq(bf_cost_table_new(&t), BF_OK);
    const char *names[] = {"sbbf", "cuckoo-b4-f8", "blocked-32-1-1-k4"};
    for (size_t i = 0; i < 3; i++)
        for (uint64_t b = 1u << 12; b <= 1u << 28; b <<= 4)
            cr_assert_eq(bf_cost_table_add(t, names[i], b, 1.5 * (double)(i + 1)), BF_OK);
    char path[128];
    snprintf(path, sizeof path, "%s/good.txt", tmpdir);
    cr_assert_eq(bf_cost_table_save(t, path), BF_OK);
    bf_cost_table_free(t);
    FILE *fp = fopen(path, "rb");
    char good[8192];
    size_t len = fread(good, 1, sizeof good, fp);
    fclose(fp);
    cr_assert(len > 0 && len < sizeof good);
    uint64_t st = 42;
    int statuses[32] = {0};
    for (int round = 0; round < 600; round++) {
        char m[8192];
        memcpy(m, good, len);
        size_t mlen = len;
        int edits = 1 + round % 4;
        for (int e = 0; e < edits; e++) {
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            size_t at = (size_t)((st >> 33) % mlen);
            switch ((st >> 20) % 3) {
            case 0: m[at] = (char)(st >> 40); break;   /* a byte changed */
            case 1: mlen = at ? at : 1; break;          /* cut short */
            default: m[at] ^= (char)(1 << ((st >> 50) % 8)); /* a bit flipped */
            }
        }
        snprintf(path, sizeof path, "%s/m.txt", tmpdir);
        write_text(path, m, mlen);
        bf_cost_table *u = NULL;
        int rc = bf_cost_table_load(&u, path);
        cr_assert(rc == BF_OK || rc == BF_EFORMAT || rc == BF_EVERSION || rc == BF_ECORRUPT ||
                      rc == BF_ETRUNCATED,
                  "status %d", rc);
        cr_assert_eq(rc == BF_OK, u != NULL);
        if (u) { /* whatever loaded is usable */
            bf_choice c[MAXC];
            bf_job job = {1000, 0.01, 0, 10, 1};
            int r = bf_choose(u, &job, c, MAXC, NULL);
            cr_assert(r == BF_OK || r == BF_ETOOBIG);
        }
        statuses[-rc]++;
        bf_cost_table_free(u);
    }
    cr_assert(statuses[-BF_ECORRUPT] > 0 && statuses[-BF_ETRUNCATED] > 0);
}

/* ---- calibration and measurement ---------------------------------------- */

Test(calibrate, contract) {
    bf_cost_table *t = NULL;
    cr_assert_eq(bf_calibrate(&t, 0.1), BF_EINVAL);
    cr_assert_eq(bf_calibrate(&t, 1000), BF_EINVAL);
    cr_assert_eq(bf_calibrate(NULL, 1), BF_EINVAL);
    cr_assert_null(t);
    int rc = bf_calibrate(&t, 2.0);
    cr_assert_eq(rc, BF_OK, "%s", bf_strerror(rc));
    /* Whole size classes only: every candidate has a row at every size. */
    size_t rows = bf_cost_table_rows(t), nc = bf_candidate_count();
    cr_assert(rows >= nc && rows % nc == 0, "%zu rows", rows);
    for (size_t i = 0; i < nc; i++) {
        double ns = bf_cost_table_lookup_ns(t, bf_candidate_name(i), 1u << 15);
        cr_assert(ns > 0 && ns < 1e6, "%s %g", bf_candidate_name(i), ns);
    }
    char machine[256];
    cr_assert_eq(bf_machine_name(machine, sizeof machine), BF_OK);
    cr_assert_str_eq(bf_cost_table_machine(t), machine);
    cr_assert_eq(bf_machine_name(machine, 0), BF_EINVAL);
    bf_cost_table_free(t);
}

/* The ranking of job on a flat table (the choices to measure): c holds
 * MAXC; returns how many were written. */
static size_t ranked_on_flat(const bf_job *job, bf_choice *c) {
    bf_cost_table *t = table_with(ns_flat);
    size_t n = 0;
    cr_assert_eq(bf_choose(t, job, c, MAXC, &n), BF_OK);
    bf_cost_table_free(t);
    return n;
}

Test(calibrate, measured_choices_have_no_false_negatives) {
    bf_choice c[MAXC];
    bf_job job = {20000, 0.01, 0, 10, 1};
    size_t n = ranked_on_flat(&job, c);
    for (size_t i = 0; i < n && c[i].status == BF_OK; i++) {
        bf_measurement m;
        cr_assert_eq(bf_choice_measure(&c[i], job.n, 400000, &m), BF_OK, "%s", c[i].name);
        cr_assert_eq(m.false_negatives, 0, "%s", c[i].name);
        cr_assert_eq(m.absent, 400000);
        cr_assert(m.lookup_ns > 0 && m.insert_ns > 0);
        /* The measured FPR near the model (400000 absent keys: a few
         * hundred expected false positives; 5 sigma and 25 % slack). */
        double want = c[i].model_fpp * 400000, sd = sqrt(want);
        cr_assert(fabs((double)m.false_positives - want) < 5 * sd + 0.25 * want,
                  "%s: %llu false positives, model %g", c[i].name,
                  (unsigned long long)m.false_positives, want);
    }
    bf_choice unknown = c[0];
    snprintf(unknown.name, sizeof unknown.name, "no-such-layout");
    bf_measurement m;
    cr_assert_eq(bf_choice_measure(&unknown, 10, 10, &m), BF_ENOTFOUND);
    cr_assert_eq(bf_choice_measure(&c[0], 0, 10, &m), BF_EINVAL);
}

/* Several choices measured together: the same keys and absent hashes for
 * each, so their counts equal each one measured alone; the rounds' range
 * holds the median; a bad choice is reported in its own slot and the others
 * are still measured. */
Test(calibrate, choices_measured_together) {
    bf_choice c[MAXC];
    bf_job job = {30000, 0.01, 0, 10, 1};
    cr_assert(ranked_on_flat(&job, c) >= 3);
    bf_choice three[3] = {c[0], c[1], c[2]};
    snprintf(three[1].name, sizeof three[1].name, "no-such-layout");
    bf_measurement m[3], alone;
    const uint64_t absent = (uint64_t)1 << 21; /* 32 chunks: 2 rounds */
    cr_assert_eq(bf_choices_measure(three, 3, job.n, absent, m), BF_ENOTFOUND);
    cr_assert_eq(m[1].status, BF_ENOTFOUND);
    for (size_t i = 0; i < 3; i += 2) {
        cr_assert_eq(m[i].status, BF_OK, "%s", three[i].name);
        cr_assert_eq(m[i].false_negatives, 0);
        cr_assert_eq(m[i].absent, absent);
        cr_assert_eq(m[i].rounds, 2);
        cr_assert(m[i].lookup_ns_lo > 0 && m[i].lookup_ns_lo <= m[i].lookup_ns_hi);
        cr_assert(m[i].lookup_ns >= m[i].lookup_ns_lo * 0.5 && m[i].lookup_ns <= m[i].lookup_ns_hi * 2);
        cr_assert_eq(bf_choice_measure(&three[i], job.n, absent, &alone), BF_OK);
        cr_assert_eq(alone.false_positives, m[i].false_positives, "%s", three[i].name);
    }
    cr_assert_eq(bf_choices_measure(three, 0, job.n, absent, m), BF_EINVAL);
    cr_assert_eq(bf_choices_measure(three, BF_MEASURE_MAX + 1, job.n, absent, m), BF_EINVAL);
    cr_assert_eq(bf_choices_measure(NULL, 1, job.n, absent, m), BF_EINVAL);
}
