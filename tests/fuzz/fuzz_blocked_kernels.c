/*
 * Differential fuzz target for the blocked family: one shape, one bitset,
 * one list of hashes, through every instance of the probe that can run
 * here: the generic scalar probe (the reference), the shape's compiled
 * scalar instance, the SBBF kernel for the SBBF's shape, and the SIMD
 * batch lookups and batch inserts of each ISA compiled in and runnable
 * (the shape's and the ones for any shape). Answers, counts and the bits
 * after inserts must agree (hashes that repeat or share a block within one
 * register included); every inserted hash must be found.
 *
 * Input: bytes 0-1 = the shape (index into every valid shape, in order of
 * B, S, z, k), byte 2 = blocks - 1 (1..256), byte 3 = bits 0-2: the
 * misalignment of the bitset; then the initial bitset (zero-padded), then
 * 8-byte hashes (at most 512).
 */
#include "fuzz_common.h"
#include "blocked/blocked.h"

#define MAXH 512
#define MAXSHAPES 1024

static size_t shapes(bf_blocked_shape *out) {
    static const unsigned bs[] = {32, 64, 128, 256, 512};
    size_t n = 0;
    for (size_t i = 0; i < 5; i++)
        for (unsigned S = 1; S <= 16; S++)
            for (unsigned z = 1; z <= S; z++)
                for (unsigned k = 1; k <= 32; k++) {
                    bf_blocked_shape s = {bs[i], S, z, k};
                    if (bf_blocked_shape_check(&s) == BF_OK && n < MAXSHAPES) out[n++] = s;
                }
    return n;
}

/* A filter over a copy of init at misalignment off, with the given
 * operations. */
static bf_blocked *make(const bf_blocked_shape *s, const uint8_t *init, uint64_t bytes,
                        const bf_blocked_impl *impl, uint8_t **base, unsigned off) {
    bf_blocked *f = NULL;
    FUZZ_CHECK(bf_blocked_new_bytes(&f, bytes, s) == BF_OK);
    *base = malloc(bytes + 8);
    FUZZ_CHECK(*base != NULL);
    memcpy(*base + off, init, bytes);
    f->bits = *base + off; /* the filter's own memory stays allocated, unused */
    f->data = f->bits;
    if (impl) {
        f->impl = impl;
        f->kernel = NULL;
        f->simd_contains = NULL;
        f->simd_insert = NULL;
    }
    return f;
}

static void release(bf_blocked *f, uint8_t *base) {
    bf_blocked_free(f); /* its own memory (region), not base */
    free(base);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 4) return 0;
    static bf_blocked_shape all[MAXSHAPES];
    static size_t nall;
    if (!nall) nall = shapes(all);
    const bf_blocked_shape *s = &all[((size_t)data[0] | (size_t)data[1] << 8) % nall];
    const uint64_t bb = s->block_bits / 8, blocks = (uint64_t)data[2] + 1, bytes = blocks * bb;
    const unsigned off = data[3] & 7u;
    data += 4;
    size -= 4;
    uint8_t *init = calloc(1, bytes);
    FUZZ_CHECK(init != NULL);
    size_t take = size < bytes ? size : bytes;
    memcpy(init, data, take);
    data += take;
    size -= take;
    size_t nh = size / 8 < MAXH ? size / 8 : MAXH;
    static uint64_t h[MAXH];
    static uint8_t want[MAXH], got[MAXH];
    for (size_t i = 0; i < nh; i++) memcpy(&h[i], data + 8 * i, 8);

    /* The reference: the generic scalar probe, aligned. */
    uint8_t *rbase, *tbase;
    bf_blocked *ref = make(s, init, bytes, bf__blocked_impl_for(s, false), &rbase, 0);
    size_t want_count = 0;
    for (size_t i = 0; i < nh; i++) want_count += want[i] = bf_blocked_contains_hash(ref, h[i]);

    /* The filter as bf_blocked_new_bytes makes it (compiled instance, SBBF
     * kernel, SIMD batches), misaligned; then each AVX2 instance. */
    bf_blocked *t = make(s, init, bytes, NULL, &tbase, off);
    bf_blocked_batch_fn batches[7] = {t->simd_contains, NULL, NULL, NULL, NULL, NULL, NULL};
    bf_blocked_insert_fn inserts[7] = {t->simd_insert, NULL, NULL, NULL, NULL, NULL, NULL};
#if defined(BF_HAVE_AVX2)
    if (bf_sbbf_kernel_supported("avx2")) {
        batches[1] = bf__blocked_avx2_contains_for(s, false);
        batches[2] = bf__blocked_avx2_contains_for(s, true);
        inserts[1] = bf__blocked_avx2_insert_for(s, false);
        inserts[2] = bf__blocked_avx2_insert_for(s, true);
    }
#endif
#if defined(BF_HAVE_AVX512)
    if (bf_sbbf_kernel_supported("avx512")) {
        batches[3] = bf__blocked_avx512_contains_for(s, false);
        batches[4] = bf__blocked_avx512_contains_for(s, true);
        inserts[3] = bf__blocked_avx512_insert_for(s, false);
        inserts[4] = bf__blocked_avx512_insert_for(s, true);
    }
#endif
#if defined(BF_HAVE_NEON)
    if (bf_sbbf_kernel_supported("neon")) {
        batches[5] = bf__blocked_neon_contains_for(s, false);
        batches[6] = bf__blocked_neon_contains_for(s, true);
        inserts[5] = bf__blocked_neon_insert_for(s, false);
        inserts[6] = bf__blocked_neon_insert_for(s, true);
    }
#endif
    for (size_t i = 0; i < nh; i++) FUZZ_CHECK(bf_blocked_contains_hash(t, h[i]) == want[i]);
    memset(got, 0xEE, sizeof got);
    FUZZ_CHECK(bf_blocked_contains_hashes(t, h, nh, got) == want_count);
    FUZZ_CHECK(nh == 0 || memcmp(got, want, nh) == 0);
    for (int b = 1; b < 7; b++) {
        if (!batches[b]) continue;
        memset(got, 0xEE, sizeof got);
        FUZZ_CHECK(batches[b](t, h, nh, got) == want_count);
        FUZZ_CHECK(nh == 0 || memcmp(got, want, nh) == 0);
        FUZZ_CHECK(batches[b](t, h, nh, NULL) == want_count);
    }

    /* Inserts: half a batch, then singles; the same bits; all present. */
    size_t split = nh / 2;
    FUZZ_CHECK(bf_blocked_insert_hashes(ref, h, split) == BF_OK);
    FUZZ_CHECK(bf_blocked_insert_hashes(t, h, split) == BF_OK);
    for (size_t i = split; i < nh; i++) {
        FUZZ_CHECK(bf_blocked_insert_hash(ref, h[i]) == BF_OK);
        FUZZ_CHECK(bf_blocked_insert_hash(t, h[i]) == BF_OK);
    }
    FUZZ_CHECK(memcmp(ref->data, t->data, bytes) == 0);
    FUZZ_CHECK(bf_blocked_contains_hashes(t, h, nh, NULL) == nh);
    /* Each SIMD batch insert, all hashes in one call over a fresh copy of
     * the initial bitset: the reference's bits. */
    for (int b = 0; b < 7; b++) {
        if (!inserts[b]) continue;
        uint8_t *ubase;
        bf_blocked *u = make(s, init, bytes, NULL, &ubase, off);
        inserts[b](u, h, nh);
        FUZZ_CHECK(memcmp(ref->data, u->data, bytes) == 0);
        release(u, ubase);
    }
    release(ref, rbase);
    release(t, tbase);
    free(init);
    return 0;
}
