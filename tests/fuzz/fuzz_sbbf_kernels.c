/*
 * Differential fuzz target: every SBBF kernel compiled in and supported by
 * this CPU gets the same bitset and the same hashes, through every entry
 * point (insert, contains, their batch forms, batch lengths that exercise
 * the vector tails), at a misaligned address; any difference from the
 * scalar reference aborts.
 *
 * Input: byte 0 = number of blocks - 1 (1..256), byte 1 = bits 0-2:
 * misalignment of the bitset and of the hash array; bit 7: a filter of
 * 2^15 + 977 * byte 0 blocks instead (over 1 MiB, where the batch loops
 * prefetch), then the initial bitset (zero-padded; at most 256 bytes of it
 * for the large ones), then 8-byte hashes.
 * The kernels read hashes through bf_sbbf_load_hash, so a misaligned hash
 * array is part of their contract.
 */
#include "fuzz_common.h"
#include "sbbf/sbbf_kernel.h"

static const bf_kernel *const all_kernels[] = {
    &bf__sbbf_kernel_scalar,
#if defined(BF_HAVE_AVX2)
    &bf__sbbf_kernel_avx2,
#endif
#if defined(BF_HAVE_AVX512)
    &bf__sbbf_kernel_avx512,
#endif
#if defined(BF_HAVE_NEON)
    &bf__sbbf_kernel_neon,
#endif
};
#define NK (sizeof all_kernels / sizeof all_kernels[0])
#define MAXH 1024

typedef struct run {
    uint8_t *base, *bits;
    uint8_t single[MAXH], batch[MAXH], after[MAXH];
    size_t count_batch, count_null, count_after;
} run;

static void run_kernel(const bf_kernel *k, run *r, const uint8_t *init, uint64_t nblocks,
                       unsigned off, const uint64_t *aligned_h, size_t nh, size_t split) {
    size_t nb = (size_t)nblocks * 32;
    static uint8_t hbuf[MAXH * 8 + 8];
    memcpy(hbuf + off, aligned_h, nh * 8);
    const uint64_t *h = (const uint64_t *)(const void *)(hbuf + off);
    r->base = malloc(nb + 8);
    FUZZ_CHECK(r->base != NULL);
    r->bits = r->base + off;
    memcpy(r->bits, init, nb);
    /* Queries on the initial bitset. */
    for (size_t i = 0; i < nh; i++) r->single[i] = k->contains(r->bits, nblocks, aligned_h[i]);
    memset(r->batch, 0xEE, sizeof r->batch);
    r->count_batch = k->contains_batch(r->bits, nblocks, h, nh, r->batch);
    r->count_null = k->contains_batch(r->bits, nblocks, h, nh, NULL);
    /* Inserts: a batch, then singles; then every inserted hash is present. */
    k->insert_batch(r->bits, nblocks, h, split);
    for (size_t i = split; i < nh; i++) k->insert(r->bits, nblocks, aligned_h[i]);
    memset(r->after, 0xEE, sizeof r->after);
    r->count_after = k->contains_batch(r->bits, nblocks, h, nh, r->after);
    FUZZ_CHECK(r->count_after == nh);
    for (size_t i = 0; i < nh; i++) FUZZ_CHECK(k->contains(r->bits, nblocks, aligned_h[i]));
    /* Batch calls on every prefix length up to 40 (vector tails). */
    for (size_t n = 0; n <= nh && n <= 40; n++) FUZZ_CHECK(k->contains_batch(r->bits, nblocks, h, n, NULL) == n);
}

static int supported(const bf_kernel *k) { return (k->required & ~bf__cpu_features()) == 0; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    uint64_t nblocks = (data[1] & 0x80u) ? ((uint64_t)1 << 15) + 977u * data[0] : (uint64_t)data[0] + 1;
    unsigned off = data[1] & 7u;
    size_t nb = (size_t)nblocks * 32;
    data += 2;
    size -= 2;
    uint8_t *init = calloc(1, nb);
    FUZZ_CHECK(init != NULL);
    size_t take = size < nb ? size : nb;
    if (nblocks > 256 && take > 256) take = 256; /* large: a bitset prefix, then hashes */
    memcpy(init, data, take);
    data += take;
    size -= take;
    size_t nh = size / 8;
    if (nh > MAXH) nh = MAXH;
    uint64_t *h = malloc((nh ? nh : 1) * sizeof *h);
    FUZZ_CHECK(h != NULL);
    for (size_t i = 0; i < nh; i++) memcpy(&h[i], data + 8 * i, 8);
    size_t split = nh ? ((size_t)data[0] * 7u) % (nh + 1) : 0;

    static run ref, cur;
    run_kernel(all_kernels[0], &ref, init, nblocks, 0, h, nh, split);
    for (size_t k = 1; k < NK; k++) {
        if (!supported(all_kernels[k])) continue;
        run_kernel(all_kernels[k], &cur, init, nblocks, off, h, nh, split);
        if (memcmp(ref.single, cur.single, nh) || memcmp(ref.batch, cur.batch, nh) ||
            ref.count_batch != cur.count_batch || ref.count_null != cur.count_null ||
            memcmp(ref.after, cur.after, nh) || memcmp(ref.bits, cur.bits, nb)) {
            fprintf(stderr, "kernel %s differs from scalar (blocks %llu, hashes %zu)\n",
                    all_kernels[k]->name, (unsigned long long)nblocks, nh);
            abort();
        }
        free(cur.base);
    }
    /* The scalar answers agree with the block/mask definition itself. */
    for (size_t i = 0; i < nh; i++) {
        if (nblocks > 256) break; /* the large ones: the kernels' agreement is enough */
        const uint8_t *blk = init + bf_sbbf_block_index(h[i], nblocks) * 32;
        bool c = true;
        for (unsigned w = 0; w < 8; w++) c = c && (bf_load_le32(blk + 4 * w) & bf_sbbf_word_mask(h[i], w));
        FUZZ_CHECK(c == (bool)ref.single[i]);
    }
    free(ref.base);
    free(h);
    free(init);
    return 0;
}
