/*
 * The blocked family on every host, as a plain C program (no criterion) so
 * that it also runs under qemu-user on aarch64 and big-endian s390x:
 *  - the shape rules: the library's refusals equal the rules restated in
 *    blocked_shapes.h, and each broken rule is named;
 *  - every valid shape: no false negative, the compiled instance of a
 *    shape sets the generic instance's bits, typed and byte-string keys
 *    hash as their hashes, and a native round trip (load, view) keeps the
 *    bits and answers; the batch lookups and batch inserts of every SIMD
 *    instance compiled in and runnable give the scalar probe's answers and
 *    bits (inserts: with keys sharing a block within one register);
 *  - the shape (256, 8, 8, 8) sets the SBBF's bits, byte for byte;
 *  - known-answer images (tests/data/native/blocked-B-S-Z-K.bflt, written
 *    on x86-64 with --write DIR): the filter built here saves to exactly
 *    the image, and the image answers as the filter.
 * Exit status 0 on success, 1 on failure.
 */
#include "blockfilter.h"
#include "blockfilter_advanced.h"
#include "blocked/blocked.h"
#include "blocked_shapes.h"
#include "check.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SHAPES 1024

static char *name_of(const bf_blocked_shape *s, char *buf, size_t cap) {
    snprintf(buf, cap, "%u/%u/%u/%u", s->block_bits, s->sectors, s->groups, s->k);
    return buf;
}

/* ---- rules -------------------------------------------------------------------- */

static void rules(void) {
    static bf_blocked_shape valid[MAX_SHAPES];
    size_t nv = bt_all_shapes(valid, MAX_SHAPES);
    CHECK(nv > 500 && nv <= MAX_SHAPES, "valid shapes: %zu", nv);
    /* Every (B, S, z, k) in a box around the space: valid iff listed. */
    static const unsigned box_b[] = {0, 1, 16, 31, 32, 48, 64, 96, 128, 192, 256, 384, 512, 1024};
    static unsigned char is_valid[sizeof box_b / sizeof box_b[0]][18][18][35];
    for (size_t i = 0; i < nv && i < MAX_SHAPES; i++)
        for (size_t bi = 0; bi < sizeof box_b / sizeof box_b[0]; bi++)
            if (box_b[bi] == valid[i].block_bits)
                is_valid[bi][valid[i].sectors][valid[i].groups][valid[i].k] = 1;
    size_t listed = 0, refused = 0;
    for (size_t bi = 0; bi < sizeof box_b / sizeof box_b[0]; bi++)
        for (unsigned S = 0; S <= 17; S++)
            for (unsigned z = 0; z <= 17; z++)
                for (unsigned k = 0; k <= 34; k++) {
                    bf_blocked_shape s = {box_b[bi], S, z, k};
                    int in = is_valid[bi][S][z][k];
                    const char *rule = bf_blocked_shape_rule(&s);
                    int rc = bf_blocked_shape_check(&s);
                    if (in) listed++;
                    else refused++;
                    if ((rule == NULL) != in || (rc == BF_OK) != in) {
                        char n[48];
                        CHECK(0, "%s: library says %s", name_of(&s, n, sizeof n),
                              rule ? rule : "valid");
                    }
                }
    CHECK(listed == nv, "the box holds every valid shape: %zu of %zu", listed, nv);
    CHECK(refused > 0, "some refused");

    /* Each rule is named. */
    struct {
        bf_blocked_shape s;
        const char *word;
    } broken[] = {
        {{48, 1, 1, 4}, "block_bits"}, {{1024, 1, 1, 4}, "block_bits"},
        {{512, 4, 1, 4}, "sectors"},   {{512, 3, 1, 3}, "sectors"},
        {{64, 0, 1, 4}, "sectors"},    {{256, 8, 3, 3}, "groups"},
        {{256, 8, 0, 8}, "groups"},    {{256, 8, 4, 6}, "multiple of groups"},
        {{256, 8, 8, 0}, "multiple of groups"}, {{512, 1, 1, 33}, "at most 32"},
    };
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        char n[48];
        const char *rule = bf_blocked_shape_rule(&broken[i].s);
        CHECK(rule && strstr(rule, broken[i].word), "%s: rule '%s' should name %s",
              name_of(&broken[i].s, n, sizeof n), rule ? rule : "(none)", broken[i].word);
        bf_blocked *f = NULL;
        CHECK(bf_blocked_new_bytes(&f, 4096, &broken[i].s) == BF_ESHAPE && f == NULL,
              "%s: new_bytes refuses", n);
        CHECK(bf_blocked_new(&f, 100, 0.01, &broken[i].s) == BF_ESHAPE, "%s: new refuses", n);
        bf_filter *g = NULL;
        CHECK(bf_filter_new_blocked(&g, 100, 0.01, &broken[i].s) == BF_ESHAPE && g == NULL,
              "%s: bf_filter_new_blocked refuses", n);
    }
    CHECK(bf_blocked_shape_check(NULL) == BF_ESHAPE, "NULL shape");
    CHECK(strstr(bf_strerror(BF_ESHAPE), "shape") != NULL, "strerror names the shape");
}

/* ---- every shape ------------------------------------------------------------------ */

#define NKEYS 3000

/* The batch lookups (c) and inserts (ins) of shape s of each ISA compiled
 * in and runnable here: [1], [2] AVX2 (for any shape, the shape's own),
 * [3], [4] AVX-512, [5], [6] NEON; NULL where there is none. [0] is left
 * for the filter's own. */
static void isa_batches(const bf_blocked_shape *s, bf_blocked_batch_fn c[7],
                        bf_blocked_insert_fn ins[7]) {
    for (int i = 0; i < 7; i++) c[i] = NULL, ins[i] = NULL;
    (void)s;
#if defined(BF_HAVE_AVX2)
    if (bf_sbbf_kernel_supported("avx2"))
        for (int sp = 0; sp < 2; sp++)
            c[1 + sp] = bf__blocked_avx2_contains_for(s, sp),
            ins[1 + sp] = bf__blocked_avx2_insert_for(s, sp);
#endif
#if defined(BF_HAVE_AVX512)
    if (bf_sbbf_kernel_supported("avx512"))
        for (int sp = 0; sp < 2; sp++)
            c[3 + sp] = bf__blocked_avx512_contains_for(s, sp),
            ins[3 + sp] = bf__blocked_avx512_insert_for(s, sp);
#endif
#if defined(BF_HAVE_NEON)
    if (bf_sbbf_kernel_supported("neon"))
        for (int sp = 0; sp < 2; sp++)
            c[5 + sp] = bf__blocked_neon_contains_for(s, sp),
            ins[5 + sp] = bf__blocked_neon_insert_for(s, sp);
#endif
}

/* Batch inserts (SIMD where the process kernel has it, and each ISA's
 * instance of the shape and for any shape) set the bits of the generic
 * scalar instance's single inserts, at batch lengths 0 to 4099 (not
 * multiples of the vector width), over keys of which some share a block
 * with the key before them, or repeat it, within one register; and over a
 * filter of one block, where every lane of every register hits one block.
 * f is a filter of shape s (its batch insert is the one tested first). */
static void batch_inserts(const bf_blocked_shape *s, const bf_blocked *f, uint64_t bytes,
                          uint64_t *st) {
    enum { NI = 4099 };
    static uint64_t keys[NI];
    char n[48];
    name_of(s, n, sizeof n);
    for (size_t i = 0; i < NI; i++) {
        if (i % 4 == 1) keys[i] = (keys[i - 1] & ~0xffffffffull) | (tu_next(st) >> 32);
        else if (i % 4 == 2) keys[i] = keys[i - 2];
        else keys[i] = tu_next(st);
    }
    bf_blocked_batch_fn unused[7];
    bf_blocked_insert_fn ins[7];
    isa_batches(s, unused, ins);
    ins[0] = f->simd_insert ? f->simd_insert : f->impl->insert_batch;
    for (int one = 0; one < 2; one++) {
        const uint64_t size = one ? s->block_bits / 8 : bytes;
        const size_t most = one ? 33 : NI;
        bf_blocked *r = NULL, *t = NULL;
        CHECK(bf_blocked_new_bytes(&r, size, s) == BF_OK, "%s: new", n);
        CHECK(bf_blocked_new_bytes(&t, size, s) == BF_OK, "%s: new", n);
        if (r && t) {
            r->impl = bf__blocked_impl_for(s, false);
            for (size_t len = 0; len <= most; len += one || len < 9 ? 1 : 1021) {
                bf_blocked_clear(r);
                for (size_t i = 0; i < len; i++) bf_blocked_insert_hash(r, keys[i]);
                for (int b = 0; b < 7; b++) {
                    if (!ins[b]) continue;
                    bf_blocked_clear(t);
                    ins[b](t, keys, len);
                    CHECK(memcmp(bf_blocked_bitset(r), bf_blocked_bitset(t), (size_t)size) == 0,
                          "%s: batch insert %d of %zu keys%s sets other bits than scalar", n, b,
                          len, one ? " into one block" : "");
                }
            }
        }
        bf_blocked_free(r);
        bf_blocked_free(t);
    }
}

static void one_shape(const bf_blocked_shape *s) {
    char n[48];
    name_of(s, n, sizeof n);
    uint64_t keys[NKEYS], st = 0x1234 + s->block_bits * 131 + s->sectors * 17 + s->k;
    for (size_t i = 0; i < NKEYS; i++) keys[i] = tu_next(&st);
    /* About 12 bits per key, rounded to whole blocks. */
    uint64_t bb = s->block_bits / 8, bytes = (NKEYS * 12 / 8 + bb - 1) / bb * bb;
    bf_blocked *f = NULL, *g = NULL;
    CHECK(bf_blocked_new_bytes(&f, bytes, s) == BF_OK, "%s: new", n);
    CHECK(bf_blocked_new_bytes(&g, bytes, s) == BF_OK, "%s: new", n);
    if (!f || !g) goto done;
    /* g runs the generic instance; f the compiled one, where there is one. */
    g->impl = bf__blocked_impl_for(s, false);
    CHECK(bf_blocked_insert_hashes(f, keys, NKEYS / 2) == BF_OK, "%s: batch", n);
    for (size_t i = NKEYS / 2; i < NKEYS; i++) bf_blocked_insert_hash(f, keys[i]);
    for (size_t i = 0; i < NKEYS; i++) bf_blocked_insert_hash(g, keys[i]);
    CHECK(memcmp(bf_blocked_bitset(f), bf_blocked_bitset(g), (size_t)bytes) == 0,
          "%s: compiled and generic instances set different bits", n);
    uint8_t out[NKEYS];
    CHECK(bf_blocked_contains_hashes(f, keys, NKEYS, out) == NKEYS, "%s: false negative", n);
    size_t fn = 0, diff = 0, hits = 0;
    for (size_t i = 0; i < NKEYS; i++) fn += !bf_blocked_contains_hash(g, keys[i]);
    for (size_t i = 0; i < 20000; i++) {
        uint64_t h = tu_next(&st);
        bool a = bf_blocked_contains_hash(f, h);
        diff += a != bf_blocked_contains_hash(g, h);
        hits += a;
    }
    CHECK(fn == 0, "%s: %zu false negatives (generic)", n, fn);
    CHECK(diff == 0, "%s: %zu answers differ between instances", n, diff);
    CHECK(hits < 20000 / 2, "%s: %zu of 20000 absent keys pass", n, hits);
    /* Batch lookups (SIMD where the process kernel has it, and the AVX2
     * instance for any shape) answer as the generic scalar probe, for
     * batch lengths that are not a multiple of the vector width. */
    {
        enum { NP = 4099 };
        static uint64_t probe[NP];
        static uint8_t got[NP];
        for (size_t i = 0; i < NP; i++) probe[i] = i % 3 ? tu_next(&st) : keys[(i * 7) % NKEYS];
        bf_blocked_batch_fn batches[7];
        bf_blocked_insert_fn unused[7];
        isa_batches(s, batches, unused);
        batches[0] = f->simd_contains ? f->simd_contains : f->impl->contains_batch;
        for (int b = 0; b < 7; b++) {
            if (!batches[b]) continue;
            for (size_t len = 0; len <= NP; len += len < 9 ? 1 : 1021) {
                size_t bdiff = 0, count = 0;
                size_t c = batches[b](f, probe, len, got);
                for (size_t i = 0; i < len; i++) {
                    bool want = bf_blocked_contains_hash(g, probe[i]);
                    bdiff += got[i] != want;
                    count += want;
                }
                CHECK(bdiff == 0 && c == count, "%s: batch %d of %zu keys: %zu answers differ",
                      n, b, len, bdiff);
            }
        }
    }
    batch_inserts(s, f, bytes, &st);

    /* Round trip through the native format. */
    bf_filter *w = NULL, *l = NULL, *v = NULL;
    if (bf_filter_from_blocked(&w, f) == BF_OK) {
        f = NULL;
        size_t len = bf_filter_save_size(w), wr = 0;
        uint8_t *img = malloc(len);
        CHECK(img && bf_filter_save(w, img, len, &wr) == BF_OK && wr == len, "%s: save", n);
        CHECK(img && img[4] == 2 && img[5] == 0 && img[6] == BF_FAMILY_BLOCKED,
              "%s: version 2, family 6", n);
        CHECK(img && bf_filter_load(&l, img, len) == BF_OK, "%s: load", n);
        CHECK(img && bf_filter_view(&v, img, len, BF_VIEW_VERIFY_PAYLOAD) == BF_OK, "%s: view", n);
        bf_blocked_shape got;
        if (l) {
            bf_blocked_get_shape(bf_filter_blocked(l), &got);
            CHECK(!memcmp(&got, s, sizeof got), "%s: shape after load", n);
            CHECK(memcmp(bf_blocked_bitset(bf_filter_blocked(l)), bf_blocked_bitset(g),
                         (size_t)bytes) == 0,
                  "%s: bits after load", n);
        }
        if (v) {
            CHECK(bf_filter_contains_hashes(v, keys, NKEYS, NULL) == NKEYS, "%s: view answers", n);
            CHECK(bf_filter_insert_hash(v, 1) == BF_EREADONLY, "%s: view read-only", n);
        }
        free(img);
    }
    bf_filter_free(v);
    bf_filter_free(l);
    bf_filter_free(w);
done:
    bf_blocked_free(f);
    bf_blocked_free(g);
}

static void every_shape(void) {
    static bf_blocked_shape all[MAX_SHAPES];
    size_t n = bt_all_shapes(all, MAX_SHAPES);
    for (size_t i = 0; i < n && i < MAX_SHAPES; i++) one_shape(&all[i]);
}

/* Typed keys and byte strings: as their hashes, with the filter's seed. */
static void typed_keys(void) {
    const bf_blocked_shape s = {512, 8, 2, 6};
    bf_blocked *a = NULL, *b = NULL;
    CHECK(bf_blocked_new(&a, 1000, 0.01, &s) == BF_OK, "new");
    CHECK(bf_blocked_new(&b, 1000, 0.01, &s) == BF_OK, "new");
    if (!a || !b) return;
    CHECK(bf_blocked_set_seed(a, 77) == BF_OK && bf_blocked_set_seed(b, 77) == BF_OK, "seed");
    int64_t v64[600];
    int32_t v32[600];
    char text[600 * 8];
    int32_t offs[601];
    uint64_t h[600];
    offs[0] = 0;
    for (int i = 0; i < 600; i++) {
        v64[i] = (int64_t)i * 1000003 - 7;
        v32[i] = i * 7919 + 1;
        int len = snprintf(text + offs[i], 8, "k%d", i);
        offs[i + 1] = offs[i] + len;
    }
    CHECK(bf_blocked_insert_int64s(a, v64, 600) == BF_OK, "int64s");
    CHECK(bf_blocked_insert_int32s(a, v32, 600) == BF_OK, "int32s");
    CHECK(bf_blocked_insert_binary(a, text, offs, 600) == BF_OK, "binary");
    bf_hash_int64s(v64, 600, 77, h);
    bf_blocked_insert_hashes(b, h, 600);
    bf_hash_int32s(v32, 600, 77, h);
    bf_blocked_insert_hashes(b, h, 600);
    CHECK(bf_hash_binary(text, offs, 600, 77, h) == BF_OK, "hash binary");
    bf_blocked_insert_hashes(b, h, 600);
    CHECK(memcmp(bf_blocked_bitset(a), bf_blocked_bitset(b), (size_t)bf_blocked_num_bytes(a)) == 0,
          "typed keys set their hashes' bits");
    CHECK(bf_blocked_contains_int64s(a, v64, 600, NULL) == 600, "int64s present");
    CHECK(bf_blocked_contains_int32s(a, v32, 600, NULL) == 600, "int32s present");
    size_t found = 0;
    CHECK(bf_blocked_contains_binary(a, text, offs, 600, NULL, &found) == BF_OK && found == 600,
          "binary present");
    CHECK(bf_blocked_contains(a, "k5", 2), "byte string present");
    int32_t bad[3] = {0, 5, 2};
    CHECK(bf_blocked_insert_binary(a, text, bad, 2) == BF_EINVAL, "bad offsets refused");
    CHECK(bf_blocked_set_seed(a, 5) == BF_EINVAL, "seed of a filter with keys");
    bf_blocked_free(a);
    bf_blocked_free(b);
}

/* The shape (256, 8, 8, 8) is the SBBF: the same bits for the same hashes. */
static void sbbf_shape(void) {
    const bf_blocked_shape s = {256, 8, 8, 8};
    bf_blocked *b = NULL;
    bf_sbbf *q = NULL;
    CHECK(bf_blocked_new_bytes(&b, 32 * 300, &s) == BF_OK, "new");
    CHECK(bf_sbbf_new_bytes(&q, 32 * 300) == BF_OK, "sbbf");
    if (!b || !q) return;
    uint64_t st = 99, h[2000];
    for (int i = 0; i < 2000; i++) h[i] = tu_next(&st);
    bf_blocked_insert_hashes(b, h, 2000);
    bf_sbbf_insert_hashes(q, h, 2000);
    CHECK(memcmp(bf_blocked_bitset(b), bf_sbbf_bitset(q), 32 * 300) == 0,
          "blocked 256/8/8/8 and the SBBF set different bits");
    bf_blocked_free(b);
    bf_sbbf_free(q);
}

/* ---- known-answer images ------------------------------------------------------------ */

static bf_filter *image_filter(const bf_blocked_shape *s) {
    bf_filter *f = NULL;
    if (bf_filter_new_blocked(&f, 500, 0.01, s) != BF_OK) return NULL;
    bf_filter_set_seed(f, 0x5eed5eed00000006ull);
    char k[32];
    for (unsigned i = 0; i < 400; i++) {
        int len = snprintf(k, sizeof k, "key-%u", i);
        bf_filter_insert(f, k, (size_t)len);
    }
    return f;
}

static uint8_t *save(const bf_filter *f, size_t *len) {
    *len = bf_filter_save_size(f);
    uint8_t *buf = malloc(*len ? *len : 1);
    if (buf && bf_filter_save(f, buf, *len, len) != BF_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void images(void) {
    for (size_t i = 0; i < BT_IMAGE_SHAPES; i++) {
        const bf_blocked_shape *s = &bt_image_shapes[i];
        char rel[96], n[48];
        name_of(s, n, sizeof n);
        snprintf(rel, sizeof rel, "native/blocked-%u-%u-%u-%u.bflt", s->block_bits, s->sectors,
                 s->groups, s->k);
        size_t len = 0, blen = 0;
        uint8_t *img = tu_read_data(rel, &len);
        CHECK(img != NULL, "%s: no image %s (write it with --write)", n, rel);
        bf_filter *f = image_filter(s);
        uint8_t *built = f ? save(f, &blen) : NULL;
        CHECK(img && built && blen == len && memcmp(img, built, len) == 0,
              "%s: the filter built here saves another image", n);
        bf_filter *v = NULL;
        CHECK(img && bf_filter_view(&v, img, len, BF_VIEW_VERIFY_PAYLOAD) == BF_OK, "%s: view", n);
        if (v && f) {
            char k[32];
            unsigned diff = 0, missing = 0;
            for (unsigned j = 0; j < 5000; j++) {
                int kl = snprintf(k, sizeof k, "probe-%u", j);
                diff += bf_filter_contains(v, k, (size_t)kl) != bf_filter_contains(f, k, (size_t)kl);
            }
            for (unsigned j = 0; j < 400; j++) {
                int kl = snprintf(k, sizeof k, "key-%u", j);
                missing += !bf_filter_contains(v, k, (size_t)kl);
            }
            CHECK(diff == 0 && missing == 0, "%s: image answers differ (%u) or miss keys (%u)", n,
                  diff, missing);
        }
        bf_filter_free(v);
        bf_filter_free(f);
        free(built);
        free(img);
    }
}

static int write_images(const char *dir) {
    for (size_t i = 0; i < BT_IMAGE_SHAPES; i++) {
        const bf_blocked_shape *s = &bt_image_shapes[i];
        bf_filter *f = image_filter(s);
        size_t len = 0;
        uint8_t *img = f ? save(f, &len) : NULL;
        char path[4096];
        snprintf(path, sizeof path, "%s/blocked-%u-%u-%u-%u.bflt", dir, s->block_bits,
                 s->sectors, s->groups, s->k);
        FILE *fp = img ? fopen(path, "wb") : NULL;
        int ok = fp && fwrite(img, 1, len, fp) == len;
        if (fp && fclose(fp) != 0) ok = 0;
        printf("%s %s (%zu bytes)\n", ok ? "wrote" : "FAILED", path, len);
        free(img);
        bf_filter_free(f);
        if (!ok) return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--write") == 0) return write_images(argv[2]);
    rules();
    every_shape();
    typed_keys();
    sbbf_shape();
    images();
    printf("blocked (plain): %lu passed, %lu failed\n", passed, failed);
    return failed ? 1 : 0;
}
