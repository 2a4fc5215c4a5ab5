/*
 * The AVX2 and AVX-512 SBBF kernels (lib/sbbf/sbbf_avx2.c, lib/sbbf/sbbf_avx512.c)
 * compiled a second time against SIMDe's portable intrinsics, with no
 * -mavx2/-mavx512* flag (simde-shim/immintrin.h, tests/kernels/meson.build),
 * and compared with the scalar kernel: identical filter memory (guard bytes
 * around the bitset included) and identical answers, single and batch, for
 * random and structured hashes (queries mix inserted and absent keys at
 * random positions), one-block and non-power-of-two filters,
 * filters of 1 MiB and more (the prefetching batch loops), batch lengths
 * around the vector widths including 0, misaligned hash arrays and
 * misaligned bitsets. This checks the kernels' logic on any host: a CPU or
 * VM that hides AVX-512 (or AVX2), and aarch64 under qemu. Where the CPU has
 * the ISA, test_kernel_equiv also runs the real instructions.
 *
 * The four parts (single insert, single contains, batch insert, batch
 * contains) are judged separately: each query phase runs on a copy of the
 * scalar kernel's memory, so a broken insert cannot hide or fake a broken
 * query. The same comparison then runs on mutants, the kernels compiled with
 * one intrinsic deliberately wrong (BF_EMU_MUTANT in the shim: a swapped
 * lane permutation, rotated salts); each must be caught in the parts it
 * breaks, or the test fails: a comparison that cannot fail is no test.
 *
 * Plain C (no criterion), so it also runs under qemu-user. The kernels are
 * called by pointer, not through the dispatcher, so BLOCKFILTER_KERNEL does
 * not affect it. Exit status 0 on success, 1 on failure.
 */
#include "kernel_hashes.h"
#include "sbbf/sbbf_kernel.h"
#include "testutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Built from the kernel sources by tests/kernels/meson.build, each kernel
 * struct renamed with -D so it does not clash with the library's own. */
extern const bf_kernel bf__sbbf_kernel_avx2_emulated;
extern const bf_kernel bf__sbbf_kernel_avx512_emulated;
extern const bf_kernel bf__sbbf_kernel_avx512_mutant_perm;
extern const bf_kernel bf__sbbf_kernel_avx2_mutant_salt;
extern const bf_kernel bf__sbbf_kernel_avx512_mutant_salt;

enum { SINGLE_INSERT, SINGLE_CONTAINS, BATCH_INSERT, BATCH_CONTAINS, NUM_PARTS };
static const char *const part_names[NUM_PARTS] = {"single insert", "single contains",
                                                  "batch insert", "batch contains"};

/* Checks and failures per part, and the first failure of each. */
typedef struct tally {
    unsigned long checks[NUM_PARTS], bad[NUM_PARTS];
    char first[NUM_PARTS][200];
} tally;

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void note(tally *t, int part, int ok, const char *fmt, ...) {
    t->checks[part]++;
    if (ok) return;
    if (t->bad[part]++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(t->first[part], sizeof t->first[part], fmt, ap);
        va_end(ap);
    }
}


/* Around the widths: 2 keys per AVX-512 insert step, 8 per contains step,
 * the prefetch distance (24) ahead, and their sums. */
static const size_t batch_lengths[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 18, 23, 24, 25,
                                       26, 31, 32, 33, 34, 39, 40, 41, 63, 64, 65, 100, 257,
                                       1000, 4001};
#define NUM_LENGTHS (sizeof batch_lengths / sizeof batch_lengths[0])

/* Filter sizes in blocks: one block, small, non-powers of two, exactly
 * BF_SBBF_PREFETCH_MIN_BYTES (32768 blocks = 1 MiB) and past it, where the
 * batch loops prefetch. */
static const uint64_t block_counts[] = {1, 2, 3, 7, 64, 1000, 4099, 32768, 40009};
#define NUM_SIZES (sizeof block_counts / sizeof block_counts[0])

#define MAXN 4001
#define SLACK 64

/* Kernel k against scalar; results into t. Returns 0 if out of memory. */
static int compare_kernel(const bf_kernel *k, tally *t) {
    const bf_kernel *ref = &bf__sbbf_kernel_scalar;
    int ok = 0;
    uint64_t *h = malloc(MAXN * sizeof *h);
    uint64_t *q = malloc((MAXN + NUM_LENGTHS) * sizeof *q);
    uint8_t *hbuf = malloc(MAXN * sizeof *h + 16);
    uint8_t *out_k = malloc(MAXN + SLACK), *out_r = malloc(MAXN + SLACK);
    uint8_t *present = malloc(MAXN + NUM_LENGTHS);
    uint8_t *mem_k = NULL, *mem_r = NULL;
    if (!h || !q || !hbuf || !out_k || !out_r || !present) goto done;
    for (size_t si = 0; si < NUM_SIZES; si++) {
        const uint64_t z = block_counts[si];
        const size_t bytes = (size_t)z * 32, total = bytes + 64;
        /* Two writable bitsets at misalignment mis within larger buffers:
         * every compare covers the guard bytes on both sides. */
        mem_k = malloc(total);
        mem_r = malloc(total);
        if (!mem_k || !mem_r) goto done;
        for (int kind = 0; kind < NUM_SETS; kind++) {
            const size_t mis = (size_t)(kind * 5 + si * 3) % 33; /* 0..32 */
            uint8_t *bk = mem_k + mis, *br = mem_r + mis;
            memset(mem_k, 0, total);
            memset(mem_r, 0, total);
            const uint64_t seed = 1000003u * (uint64_t)(kind + 1) + z;
            const char *set = set_names[kind];
            const unsigned long long zz = (unsigned long long)z;

            /* Single inserts. */
            size_t ns = z < 64 ? 40 : 2000;
            make_hashes(kind, h, ns, seed);
            for (size_t i = 0; i < ns; i++) {
                k->insert(bk, z, h[i]);
                ref->insert(br, z, h[i]);
            }
            note(t, SINGLE_INSERT, memcmp(mem_k, mem_r, total) == 0, "z=%llu set=%s mis=%zu",
                 zz, set, mis);

            /* Single queries, on the scalar kernel's memory: inserted keys
             * and (mostly absent) random ones interleaved at random, so
             * answering for a neighbouring key changes the answer. */
            memcpy(mem_k, mem_r, total);
            make_hashes(SET_RANDOM, q, MAXN + NUM_LENGTHS, seed ^ 0xabcdef);
            uint64_t qs = seed ^ 0x5eed;
            for (size_t i = 0; i < MAXN + NUM_LENGTHS; i++) {
                uint64_t r = tu_next(&qs);
                present[i] = r & 1;
                if (present[i]) q[i] = h[(r >> 1) % ns];
            }
            size_t mism = 0, present_missed = 0;
            for (size_t i = 0; i < MAXN; i++) {
                bool a = k->contains(bk, z, q[i]), b = ref->contains(br, z, q[i]);
                mism += a != b;
                present_missed += present[i] && !a;
            }
            note(t, SINGLE_CONTAINS, mism == 0, "z=%llu set=%s: %zu of %d answers differ", zz,
                 set, mism, MAXN);
            note(t, SINGLE_CONTAINS, present_missed == 0,
                 "z=%llu set=%s: %zu inserted keys not found", zz, set, present_missed);
            note(t, SINGLE_CONTAINS, memcmp(mem_k, mem_r, total) == 0,
                 "z=%llu set=%s: contains wrote to the bitset", zz, set);

            /* Batch inserts of every length, from misaligned arrays, on top;
             * each length starts from the scalar kernel's memory. */
            for (size_t li = 0; li < NUM_LENGTHS; li++) {
                size_t n = batch_lengths[li];
                make_hashes(kind, h, n, seed + 7 * li + 1);
                const uint64_t *hk = at_offset(hbuf, li % 8, h, n);
                k->insert_batch(bk, z, hk, n);
                for (size_t i = 0; i < n; i++) ref->insert(br, z, h[i]);
                note(t, BATCH_INSERT, memcmp(mem_k, mem_r, total) == 0,
                     "z=%llu set=%s n=%zu mis=%zu hash offset %zu", zz, set, n, mis, li % 8);
                memcpy(mem_k, mem_r, total);
            }

            /* Batch queries of every length, with and without out[]. */
            for (size_t li = 0; li < NUM_LENGTHS; li++) {
                size_t n = batch_lengths[li];
                const uint64_t *qk = at_offset(hbuf, (li + 3) % 8, q + li, n);
                memset(out_k, 0xee, MAXN + SLACK);
                memset(out_r, 0xee, MAXN + SLACK);
                size_t ck = k->contains_batch(bk, z, qk, n, out_k);
                size_t cr = ref->contains_batch(br, z, q + li, n, out_r);
                size_t ones = 0, vs_single = 0, missed = 0;
                for (size_t i = 0; i < n; i++) {
                    ones += out_k[i] == 1;
                    vs_single += out_k[i] != (uint8_t)ref->contains(br, z, q[li + i]);
                    missed += present[li + i] && out_k[i] != 1;
                }
                note(t, BATCH_CONTAINS, ck == cr && memcmp(out_k, out_r, MAXN + SLACK) == 0,
                     "z=%llu set=%s n=%zu: count %zu vs %zu, or out[] differs", zz, set, n, ck,
                     cr);
                note(t, BATCH_CONTAINS, ones == ck, "z=%llu set=%s n=%zu: count %zu, %zu ones",
                     zz, set, n, ck, ones);
                note(t, BATCH_CONTAINS, out_k[n] == 0xee, "z=%llu set=%s: wrote past out[%zu]",
                     zz, set, n);
                note(t, BATCH_CONTAINS, vs_single == 0,
                     "z=%llu set=%s n=%zu: %zu answers differ from scalar single", zz, set, n,
                     vs_single);
                note(t, BATCH_CONTAINS, missed == 0,
                     "z=%llu set=%s n=%zu: %zu inserted keys not found", zz, set, n, missed);
                size_t cn = k->contains_batch(bk, z, qk, n, NULL);
                note(t, BATCH_CONTAINS, cn == cr, "z=%llu set=%s n=%zu: count-only %zu vs %zu",
                     zz, set, n, cn, cr);
            }
            note(t, BATCH_CONTAINS, memcmp(mem_k, mem_r, total) == 0,
                 "z=%llu set=%s: contains_batch wrote to the bitset", zz, set);
        }
        free(mem_k);
        free(mem_r);
        mem_k = mem_r = NULL;
    }
    ok = 1;
done:
    free(mem_k);
    free(mem_r);
    free(h);
    free(q);
    free(hbuf);
    free(out_k);
    free(out_r);
    free(present);
    return ok;
}

static unsigned long total_bad(const tally *t) {
    unsigned long s = 0;
    for (int p = 0; p < NUM_PARTS; p++) s += t->bad[p];
    return s;
}

int main(void) {
    int failed = 0;
    unsigned long checks = 0;

    /* The real check: every part of each emulated kernel agrees with
     * scalar, and every part ran. */
    const bf_kernel *emulated[] = {&bf__sbbf_kernel_avx2_emulated,
                                   &bf__sbbf_kernel_avx512_emulated};
    const char *const expect_name[] = {"avx2", "avx512"};
    for (size_t e = 0; e < 2; e++) {
        const bf_kernel *k = emulated[e];
        if (strcmp(k->name, expect_name[e]) != 0 || k->insert == bf__sbbf_kernel_scalar.insert ||
            k->contains_batch == bf__sbbf_kernel_scalar.contains_batch) {
            fprintf(stderr, "FAILED: emulated kernel %zu is '%s', not the %s kernel\n", e,
                    k->name, expect_name[e]);
            failed = 1;
            continue;
        }
        tally t;
        memset(&t, 0, sizeof t);
        if (!compare_kernel(k, &t)) {
            fprintf(stderr, "FAILED: out of memory\n");
            return 1;
        }
        for (int p = 0; p < NUM_PARTS; p++) {
            checks += t.checks[p];
            if (t.bad[p] || !t.checks[p]) {
                fprintf(stderr, "FAILED: emulated %s, %s: %lu of %lu checks differ from scalar%s%s\n",
                        k->name, part_names[p], t.bad[p], t.checks[p],
                        t.bad[p] ? "; first: " : "", t.first[p]);
                failed = 1;
            }
        }
    }

    /* Self-check: each mutant must be caught in the parts it breaks. */
    static const struct {
        const char *what;
        const bf_kernel *k;
        unsigned must_catch; /* bit per part */
    } mutants[] = {
        {"avx512, pair halves swapped", &bf__sbbf_kernel_avx512_mutant_perm,
         1u << BATCH_INSERT | 1u << BATCH_CONTAINS},
        {"avx512, salts rotated", &bf__sbbf_kernel_avx512_mutant_salt,
         1u << SINGLE_INSERT | 1u << SINGLE_CONTAINS},
        {"avx2, salts rotated", &bf__sbbf_kernel_avx2_mutant_salt,
         1u << SINGLE_INSERT | 1u << SINGLE_CONTAINS | 1u << BATCH_INSERT | 1u << BATCH_CONTAINS},
    };
    const size_t num_mutants = sizeof mutants / sizeof mutants[0];
    size_t caught = 0;
    for (size_t m = 0; m < num_mutants; m++) {
        tally t;
        memset(&t, 0, sizeof t);
        if (!compare_kernel(mutants[m].k, &t)) {
            fprintf(stderr, "FAILED: out of memory\n");
            return 1;
        }
        int all = total_bad(&t) > 0;
        for (int p = 0; p < NUM_PARTS; p++) {
            if ((mutants[m].must_catch >> p & 1u) && t.bad[p] == 0) {
                fprintf(stderr, "FAILED: mutant (%s) not caught by %s (%lu checks passed)\n",
                        mutants[m].what, part_names[p], t.checks[p]);
                all = 0;
            }
        }
        caught += all != 0;
    }
    if (caught != num_mutants) failed = 1;

    printf("emulated kernels (SIMDe, portable): avx2 and avx512 vs scalar, %lu checks, %s; "
           "%zu of %zu mutants caught\n",
           checks, failed ? "FAILED" : "all identical", caught, num_mutants);
    return failed;
}
