/*
 * Sizes near the limits. Sizing for n up to 2^40 (and beyond) is computed
 * without overflow: either a correct size or BF_ETOOBIG, never a wrapped
 * value, and nothing is allocated. A filter over 4 GiB is built and
 * queried: a quick variant touches a few pages around the 4 GiB offset; the
 * full variant (BF_TEST_LARGE=1 or -Dlarge_tests=true) fills it.
 */
#define _GNU_SOURCE
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "common/internal.h"
#include "robust_util.h"
#include "sbbf/sbbf_kernel.h"

#include <criterion/criterion.h>
#include <math.h>

static const uint64_t ns[] = {
    1, 2, 1000, (uint64_t)1 << 20, (uint64_t)1 << 30, (uint64_t)1 << 32, (uint64_t)1 << 33,
    (uint64_t)1 << 34, (uint64_t)1 << 35, (uint64_t)1 << 36, (uint64_t)1 << 38,
    ((uint64_t)1 << 40) - 1, (uint64_t)1 << 40, ((uint64_t)1 << 40) + 1, (uint64_t)1 << 50,
    (uint64_t)1 << 63, UINT64_MAX};
#define NNS (sizeof ns / sizeof ns[0])
static const double fpps[] = {0.5, 0.1, 0.01, 1e-3, 1e-4, 1e-6, 1e-9};
#define NFPPS (sizeof fpps / sizeof fpps[0])

/* Information-theoretic floor: any filter for n keys at fpp needs at least
 * n log2(1/fpp) bits. A wrapped size falls below it. */
static void check_floor(const char *what, uint64_t n, double fpp, uint64_t bytes) {
    double floor_bits = (double)n * log2(1.0 / fpp);
    cr_assert_geq((double)bytes * 8.0, floor_bits * 0.999,
                  "%s(n=%llu, fpp=%g) = %llu bytes: below n*log2(1/fpp), wrapped?", what,
                  (unsigned long long)n, fpp, (unsigned long long)bytes);
}

Test(limits, sbbf_compact_bytes) {
    long live0 = bf__alloc_live();
    for (size_t j = 0; j < NFPPS; j++) {
        uint64_t prev = 0;
        int refused = 0;
        for (size_t i = 0; i < NNS; i++) {
            size_t bytes = 0;
            int rc = bf_sbbf_compact_bytes(ns[i], fpps[j], &bytes);
            if (rc != BF_OK) {
                cr_assert_eq(rc, BF_ETOOBIG, "compact_bytes(%llu, %g): %s",
                             (unsigned long long)ns[i], fpps[j], bf_strerror(rc));
                refused = 1;
                continue;
            }
            cr_assert(!refused, "compact_bytes(%llu, %g) accepted after a smaller n was refused",
                      (unsigned long long)ns[i], fpps[j]);
            cr_assert(bytes >= 32 && bytes % 32 == 0 && bytes <= BF_SBBF_MAX_BYTES);
            cr_assert_geq(bytes, prev, "not monotone in n");
            check_floor("bf_sbbf_compact_bytes", ns[i], fpps[j], bytes);
            double m = bf_sbbf_model_fpp(bytes, ns[i]);
            cr_assert(m <= fpps[j] * (1 + 1e-9), "model fpp %g > %g at n=%llu", m, fpps[j],
                      (unsigned long long)ns[i]);
            prev = bytes;
        }
        /* 2^40 keys never fit in 2^37 bytes at any fpp < 0.5. */
        size_t b;
        if (fpps[j] < 0.5) cr_assert_eq(bf_sbbf_compact_bytes((uint64_t)1 << 40, fpps[j], &b), BF_ETOOBIG);
    }
    cr_assert_eq(bf__alloc_live(), live0, "sizing allocated memory");
}

Test(limits, sbbf_parquet_bytes) {
    for (size_t j = 0; j < NFPPS; j++) {
        for (size_t i = 0; i < NNS; i++) {
            size_t bytes = 0;
            int rc = bf_sbbf_parquet_bytes(ns[i], fpps[j], &bytes);
            if (rc != BF_OK) {
                cr_assert_eq(rc, BF_ETOOBIG);
                continue;
            }
            cr_assert(bytes >= BF_PARQUET_MIN_BYTES && bytes <= BF_PARQUET_MAX_BYTES,
                      "parquet_bytes(%llu, %g) = %zu", (unsigned long long)ns[i], fpps[j], bytes);
            cr_assert_eq(bytes & (bytes - 1), 0u, "not a power of two");
        }
    }
}

Test(limits, size_for_every_family) {
    bf_family fams[255];
    const size_t nf = tu_families(fams);
    long live0 = bf__alloc_live();
    for (size_t f = 0; f < nf; f++) {
        for (size_t j = 0; j < NFPPS; j++) {
            uint64_t prev = 0;
            int refused = 0;
            for (size_t i = 0; i < NNS; i++) {
                bf_sizing s;
                memset(&s, 0xAB, sizeof s);
                int rc = bf_size_for(fams[f], ns[i], fpps[j], &s);
                const char *fn = bf_family_name(fams[f]);
                if (rc != BF_OK) {
                    /* Out of reach for the family at this fpp (cuckoo's
                     * 16-bit fingerprints) or too big; never wrapped. */
                    cr_assert(rc == BF_ETOOBIG || rc == BF_EUNSUPPORTED || rc == BF_EINVAL,
                              "%s size_for(%llu, %g): %s", fn, (unsigned long long)ns[i], fpps[j],
                              bf_strerror(rc));
                    if (rc == BF_ETOOBIG) refused = 1;
                    continue;
                }
                cr_assert(!refused, "%s: n=%llu accepted after a smaller n was too big", fn,
                          (unsigned long long)ns[i]);
                cr_assert_eq(s.family, fams[f]);
                cr_assert_gt(s.num_bytes, 0u);
                cr_assert_geq(s.num_bytes, prev, "%s: not monotone in n at fpp %g", fn, fpps[j]);
                check_floor(fn, ns[i], fpps[j], s.num_bytes);
                double bpk = 8.0 * (double)s.num_bytes / (double)ns[i];
                cr_assert(fabs(s.bits_per_key - bpk) <= 1e-9 * bpk, "%s: bits_per_key %g vs %g", fn,
                          s.bits_per_key, bpk);
                cr_assert(s.model_fpp >= 0.0 && s.model_fpp <= fpps[j] * (1 + 1e-6),
                          "%s size_for(%llu, %g): model fpp %g", fn, (unsigned long long)ns[i],
                          fpps[j], s.model_fpp);
                prev = s.num_bytes;
            }
        }
        /* The constructor refuses what sizing refuses, before allocating. */
        bf_filter *flt = (bf_filter *)(uintptr_t)1;
        int rc = bf_filter_new(&flt, fams[f], UINT64_MAX, 0.01);
        cr_assert(rc == BF_ETOOBIG, "bf_filter_new(%s, 2^64-1): %s", bf_family_name(fams[f]),
                  bf_strerror(rc));
        cr_assert_eq(flt, (bf_filter *)(uintptr_t)1);
    }
    cr_assert_eq(bf__alloc_live(), live0, "sizing allocated memory");
}

Test(limits, model_at_extremes) {
    double m = bf_sbbf_model_fpp(BF_SBBF_MAX_BYTES, (uint64_t)1 << 40);
    cr_assert(m >= 0.0 && m <= 1.0, "model %g", m);
    m = bf_sbbf_model_fpp(32, UINT64_MAX);
    cr_assert(m >= 0.0 && m <= 1.0, "model %g", m);
    m = bf_sbbf_model_fpp(BF_SBBF_MAX_BYTES, 0);
    cr_assert(m >= 0.0 && m <= 1e-300 + 0.0, "empty filter model %g", m);
    bf_sbbf *f = NULL;
    cr_assert_eq(bf_sbbf_new_bytes(&f, (size_t)BF_SBBF_MAX_BYTES + 32), BF_ETOOBIG);
    cr_assert_eq(bf_sbbf_new(&f, (uint64_t)1 << 40, 0.01), BF_ETOOBIG);
    cr_assert_null(f);
}

/* The hash whose block is b in a z-block filter (smallest high half). */
static uint64_t hash_for_block(uint64_t b, uint64_t z, uint32_t low) {
    uint64_t hi = ((b << 32) + z - 1) / z;
    uint64_t h = (hi << 32) | low;
    cr_assert_eq(bf_sbbf_block_index(h, z), b);
    return h;
}

#define BIG_BYTES (((uint64_t)9 << 29)) /* 4.5 GiB */

static void big_filter_probe(const char *kernel) {
    bf_sbbf *f = NULL;
    int rc = bf_sbbf_new_bytes_kernel(&f, (size_t)BIG_BYTES, kernel);
    if (rc == BF_ENOMEM) cr_skip_test("could not map 4.5 GiB (overcommit limits?)");
    cr_assert_eq(rc, BF_OK, "%s", bf_strerror(rc));
    uint64_t z = BIG_BYTES / 32;
    /* Blocks around the 4 GiB byte offset (block 2^27), the ends, and the
     * last 32-bit-addressable block. */
    const uint64_t blocks[] = {0, 1, ((uint64_t)1 << 27) - 1, (uint64_t)1 << 27,
                               ((uint64_t)1 << 27) + 1, z / 2, z - 2, z - 1};
    const uint8_t *bits = bf_sbbf_bitset(f);
    uint64_t hs[64];
    size_t nh = 0;
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++) {
        for (uint32_t j = 0; j < 4; j++) {
            uint64_t h = hash_for_block(blocks[i], z, 0x9e3779b9u * (j + 1) + (uint32_t)i);
            cr_assert(!bf_sbbf_contains_hash(f, h));
            if (j & 1) bf_sbbf_insert_hash(f, h);
            else bf_sbbf_insert_hashes(f, &h, 1);
            cr_assert(bf_sbbf_contains_hash(f, h), "%s: false negative at block %llu", kernel,
                      (unsigned long long)blocks[i]);
            /* The bits are where the Parquet layout puts them. */
            const uint8_t *blk = bits + blocks[i] * 32;
            for (unsigned w = 0; w < 8; w++)
                cr_assert(bf_load_le32(blk + 4 * w) & bf_sbbf_word_mask(h, w),
                          "%s: bit of word %u not at byte offset %llu", kernel, w,
                          (unsigned long long)(blocks[i] * 32));
            hs[nh++] = h;
        }
    }
    cr_assert_eq(bf_sbbf_contains_hashes(f, hs, nh, NULL), nh);
    /* A block that nothing was inserted in stays clear (no aliasing of
     * offsets modulo 4 GiB). */
    uint64_t alias = ((uint64_t)1 << 27) + 2;
    for (unsigned w = 0; w < 32; w++) cr_assert_eq(bits[alias * 32 + w], 0);
    uint64_t probe = hash_for_block(alias, z, 12345);
    cr_assert(!bf_sbbf_contains_hash(f, probe));
    bf_sbbf_free(f);
}

Test(limits, over_4gib_quick) {
    if (ru_mem_available() < ((uint64_t)1 << 30))
        cr_skip_test("less than 1 GiB of memory available");
    for (size_t i = 0; i < bf_sbbf_kernel_count(); i++) {
        const char *k = bf_sbbf_kernel_name(i);
        if (bf_sbbf_kernel_supported(k)) big_filter_probe(k);
    }
}

Test(limits, over_4gib_full, .timeout = 600) {
    if (!ru_large_tests()) cr_skip_test("large tests off (BF_TEST_LARGE=1 or -Dlarge_tests=true)");
    uint64_t need = BIG_BYTES + ((uint64_t)2 << 30);
    if (ru_mem_available() < need)
        cr_skip_test("needs %llu MiB available, have %llu MiB", (unsigned long long)(need >> 20),
                     (unsigned long long)(ru_mem_available() >> 20));
    bf_sbbf *f = NULL;
    cr_assert_eq(bf_sbbf_new_bytes(&f, (size_t)BIG_BYTES), BF_OK);
    const size_t n = 50u * 1000u * 1000u, chunk = 1u << 16;
    uint64_t *h = malloc(chunk * sizeof *h);
    cr_assert_not_null(h);
    uint64_t st = 1;
    for (size_t done = 0; done < n; done += chunk) {
        for (size_t i = 0; i < chunk; i++) h[i] = tu_next(&st);
        bf_sbbf_insert_hashes(f, h, chunk);
    }
    /* No false negative, anywhere in the 4.5 GiB. */
    st = 1;
    for (size_t done = 0; done < n; done += chunk) {
        for (size_t i = 0; i < chunk; i++) h[i] = tu_next(&st);
        cr_assert_eq(bf_sbbf_contains_hashes(f, h, chunk, NULL), chunk, "false negative");
    }
    bf_sbbf_stats s;
    cr_assert_eq(bf_sbbf_get_stats(f, &s), BF_OK);
    cr_assert_eq(s.num_bytes, BIG_BYTES);
    double inserted = (double)(n / chunk + (n % chunk != 0)) * chunk;
    cr_assert(fabs(s.est_keys - inserted) < 0.01 * inserted, "est_keys %g vs %g", s.est_keys, inserted);
    /* Too big for Parquet's i32 numBytes: refused, not truncated. */
    uint8_t small[64];
    size_t w = 0;
    int rc = bf_sbbf_to_parquet(f, small, sizeof small, &w);
    cr_assert(rc == BF_ETOOBIG || rc == BF_EBUFSIZE, "%s", bf_strerror(rc));
    free(h);
    bf_sbbf_free(f);
}
