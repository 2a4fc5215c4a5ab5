/*
 * XXH64 of fixed-width keys: the scalar reference against xxHash itself and
 * against published values, and every hash kernel compiled in and runnable
 * here (AVX-512 DQ, AVX2, NEON) against the scalar reference, bit for bit;
 * the public array-hashing calls against the single-key ones; how a hash
 * kernel is chosen for each SBBF kernel.
 *
 * Plain C (no criterion), so it also runs under qemu-user (the NEON hash
 * kernel) and in every kernel setup. Exit status 0 on success, 1 on failure.
 */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "check.h"
#include "hash_check.h"

/* XXH64 of the little-endian bytes of v with a seed (computed once with
 * xxHash 0.8; XXH64("abc") = 0x44bc2cf5ad770999 anchors the table). */
static const struct {
    uint64_t v, seed, hash;
} kat64[] = {
    {0x0000000000000000ull, 0, 0x34c96acdcadb1bbbull},
    {0x0000000000000001ull, 0, 0x9f29cb17a2a49995ull},
    {0x000000000000002aull, 0, 0xb556806fb6d14353ull},
    {0xffffffffffffffffull, 0, 0x85d136adb773c6c9ull},
    {0x8000000000000000ull, 0, 0x3f425eacf01544e0ull},
    {0x0123456789abcdefull, 0, 0xea3c52081e9843ecull},
    {0x0000000000000000ull, 1, 0x22c76afd15f0110full},
    {0x0123456789abcdefull, 1, 0x74a1a11854da1b5aull},
    {0x0000000000000000ull, 0x9e3779b97f4a7c15ull, 0x1722e35ebbc1e9a0ull},
    {0x8000000000000000ull, 0x9e3779b97f4a7c15ull, 0x4031e33709136d74ull},
};
static const struct {
    uint32_t v;
    uint64_t seed, hash;
} kat32[] = {
    {0x00000000u, 0, 0x3aefa6fd5cf2deb4ull},
    {0x00000001u, 0, 0xf42f94001fcb5351ull},
    {0x0000002au, 0, 0xd756d7b62fc50bf1ull},
    {0xffffffffu, 0, 0x7f78e4bda3addf93ull},
    {0x80000000u, 0, 0x822e51211bf08373ull},
    {0x01234567u, 0, 0xedd05c645563e680ull},
    {0x00000000u, 1, 0x2db113707a702ac0ull},
    {0x80000000u, 1, 0x0711a7a705b23d8aull},
    {0x00000000u, 0x9e3779b97f4a7c15ull, 0x02ac7508ee87a069ull},
    {0x01234567u, 0x9e3779b97f4a7c15ull, 0x7a867a7f46d02ec3ull},
};

static void le_bytes(uint64_t v, uint8_t *b, int n) {
    for (int i = 0; i < n; i++) b[i] = (uint8_t)(v >> (8 * i));
}

static void known_answers(void) {
    CHECK(XXH64("abc", 3, 0) == 0x44bc2cf5ad770999ull, "xxHash itself");
    for (size_t i = 0; i < sizeof kat64 / sizeof kat64[0]; i++) {
        CHECK(bf_xxh64_u64(kat64[i].v, kat64[i].seed) == kat64[i].hash, "u64 KAT %zu", i);
        if (kat64[i].seed == 0) {
            double d;
            memcpy(&d, &kat64[i].v, 8);
            CHECK(bf_hash_int64((int64_t)kat64[i].v) == kat64[i].hash, "bf_hash_int64 KAT %zu", i);
            CHECK(bf_hash_double(d) == kat64[i].hash, "bf_hash_double KAT %zu", i);
        }
    }
    for (size_t i = 0; i < sizeof kat32 / sizeof kat32[0]; i++) {
        CHECK(bf_xxh64_u32(kat32[i].v, kat32[i].seed) == kat32[i].hash, "u32 KAT %zu", i);
        if (kat32[i].seed == 0) {
            float f;
            memcpy(&f, &kat32[i].v, 4);
            CHECK(bf_hash_int32((int32_t)kat32[i].v) == kat32[i].hash, "bf_hash_int32 KAT %zu", i);
            CHECK(bf_hash_float(f) == kat32[i].hash, "bf_hash_float KAT %zu", i);
        }
    }
    /* Differential: 2 x 10^5 random values and seeds against xxHash. */
    uint64_t rng = 99, bad64 = 0, bad32 = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t v = tu_next(&rng), seed = (i & 3) ? tu_next(&rng) : 0;
        uint8_t b[8];
        le_bytes(v, b, 8);
        bad64 += bf_xxh64_u64(v, seed) != XXH64(b, 8, seed);
        bad32 += bf_xxh64_u32((uint32_t)v, seed) != XXH64(b, 4, seed);
    }
    CHECK(bad64 == 0 && bad32 == 0, "fixed-length XXH64 vs xxHash: %llu / %llu differ",
          (unsigned long long)bad64, (unsigned long long)bad32);
}

static void kernels(void) {
    size_t ran = 0;
    for (size_t i = 0; i < bf__hash_kernel_count(); i++) {
        const bf_hash_kernel *k = bf__hash_kernel_at(i);
        if ((k->required & ~bf__cpu_features()) != 0) {
            printf("hash kernel %s: not supported on this CPU, skipped\n", k->name);
            continue;
        }
        hash_tally t32, t64;
        memset(&t32, 0, sizeof t32);
        memset(&t64, 0, sizeof t64);
        if (!hash_compare(k, &t32, &t64)) {
            CHECK(0, "out of memory");
            return;
        }
        CHECK(t32.bad == 0 && t32.checks > 0, "hash kernel %s, 4-byte keys: %lu of %lu differ; %s",
              k->name, t32.bad, t32.checks, t32.first);
        CHECK(t64.bad == 0 && t64.checks > 0, "hash kernel %s, 8-byte keys: %lu of %lu differ; %s",
              k->name, t64.bad, t64.checks, t64.first);
        printf("hash kernel %s: %lu checks\n", k->name, t32.checks + t64.checks);
        ran++;
    }
    CHECK(ran >= 1, "the scalar hash kernel always runs");
}

/* Each SBBF kernel gets a hash kernel of its own ISA or a narrower one; a
 * scalar filter hashes with scalar code. */
static void choice(void) {
    const bf_kernel *scalar = bf__sbbf_kernel_by_name("scalar");
    CHECK(bf__hash_kernel_for(scalar) == &bf__hash_kernel_scalar, "scalar filter, scalar hashing");
    for (size_t i = 0; i < bf_sbbf_kernel_count(); i++) {
        const bf_kernel *k = bf__sbbf_kernel_by_name(bf_sbbf_kernel_name(i));
        if (!k) continue;
        const bf_hash_kernel *h = bf__hash_kernel_for(k);
        CHECK((h->required & ~bf__cpu_features()) == 0, "%s: hash kernel %s runs here", k->name,
              h->name);
        CHECK(strcmp(h->name, "scalar") == 0 || strcmp(h->name, k->name) == 0 ||
                  (strcmp(k->name, "avx512") == 0 && strcmp(h->name, "avx2") == 0),
              "%s filter hashes with %s", k->name, h->name);
        /* Where AVX-512 DQ (resp. AVX2) runs, an avx512 (avx2) filter
         * hashes with it: the SIMD kernels measured to pay are chosen. */
        if (strcmp(k->name, "avx512") == 0 && (bf__cpu_features() & BF_CPU_AVX512DQ))
            CHECK(strcmp(h->name, "avx512") == 0, "avx512 filter hashes with %s", h->name);
        if (strcmp(k->name, "avx2") == 0)
            CHECK(strcmp(h->name, "avx2") == 0, "avx2 filter hashes with %s", h->name);
        if (strcmp(k->name, "neon") == 0)
            CHECK(strcmp(h->name, "scalar") == 0, "neon filter hashes with %s (unmeasured)", h->name);
    }
    const bf_kernel *def = bf__sbbf_kernel_default();
    CHECK(bf__hash_kernel_default() == bf__hash_kernel_for(def), "default follows the default kernel");
}

/* The public array calls give the single-key hashes. */
static void arrays(void) {
    enum { N = 1037 };
    static int32_t i32[N];
    static int64_t i64[N];
    static float f32[N];
    static double f64[N];
    static uint64_t out[N + 1];
    uint64_t rng = 5;
    for (size_t i = 0; i < N; i++) {
        uint64_t r = tu_next(&rng);
        i64[i] = (int64_t)r;
        i32[i] = (int32_t)(uint32_t)r;
        uint32_t u = (uint32_t)(r >> 32);
        memcpy(&f32[i], &u, 4);
        memcpy(&f64[i], &r, 8);
    }
    const uint64_t seeds[] = {0, 77};
    for (int s = 0; s < 2; s++) {
        uint64_t seed = seeds[s];
        size_t bad = 0;
        out[N] = 0x1234;
        bf_hash_int64s(i64, N, seed, out);
        for (size_t i = 0; i < N; i++) bad += out[i] != bf_xxh64_u64((uint64_t)i64[i], seed);
        bf_hash_int32s(i32, N, seed, out);
        for (size_t i = 0; i < N; i++) bad += out[i] != bf_xxh64_u32((uint32_t)i32[i], seed);
        bf_hash_floats(f32, N, seed, out);
        for (size_t i = 0; i < N; i++) {
            uint32_t u;
            memcpy(&u, &f32[i], 4);
            bad += out[i] != bf_xxh64_u32(u, seed);
        }
        bf_hash_doubles(f64, N, seed, out);
        for (size_t i = 0; i < N; i++) {
            uint64_t u;
            memcpy(&u, &f64[i], 8);
            bad += out[i] != bf_xxh64_u64(u, seed);
        }
        CHECK(bad == 0 && out[N] == 0x1234, "typed arrays, seed %llu: %zu differ",
              (unsigned long long)seed, bad);
    }
    for (size_t i = 0; i < N; i++) {
        if (bf_hash_int64(i64[i]) != bf_xxh64_u64((uint64_t)i64[i], 0) ||
            bf_hash_int32(i32[i]) != bf_xxh64_u32((uint32_t)i32[i], 0)) {
            CHECK(0, "exported typed hash differs at %zu", i);
            break;
        }
    }

    /* Arrow byte strings, 32- and 64-bit offsets, with empty strings and a
     * non-zero first offset (a sliced array). */
    static char data[64 * N];
    static int32_t off32[N + 1];
    static int64_t off64[N + 1];
    size_t pos = 5;
    for (size_t i = 0; i <= N; i++) {
        off32[i] = (int32_t)pos;
        off64[i] = (int64_t)pos;
        if (i < N) {
            size_t len = i % 7 == 0 ? 0 : (size_t)(tu_next(&rng) % 50);
            for (size_t j = 0; j < len; j++) data[pos + j] = (char)tu_next(&rng);
            pos += len;
        }
    }
    for (int s = 0; s < 2; s++) {
        size_t bad = 0;
        CHECK(bf_hash_binary(data, off32, N, seeds[s], out) == BF_OK, "binary");
        for (size_t i = 0; i < N; i++)
            bad += out[i] != bf_hash_xxh64_seeded(data + off32[i], (size_t)(off32[i + 1] - off32[i]), seeds[s]);
        CHECK(bf_hash_large_binary(data, off64, N, seeds[s], out) == BF_OK, "large binary");
        for (size_t i = 0; i < N; i++)
            bad += out[i] != bf_hash_xxh64_seeded(data + off64[i], (size_t)(off64[i + 1] - off64[i]), seeds[s]);
        CHECK(bad == 0, "byte strings, seed %llu: %zu differ", (unsigned long long)seeds[s], bad);
    }
    /* Bad offsets: refused, out untouched. */
    int32_t dec[] = {0, 4, 3};
    int32_t neg[] = {-1, 2};
    int64_t dec64[] = {0, 9, 8, 10};
    out[0] = 42;
    CHECK(bf_hash_binary(data, dec, 2, 0, out) == BF_EINVAL && out[0] == 42, "decreasing offsets");
    CHECK(bf_hash_binary(data, neg, 1, 0, out) == BF_EINVAL && out[0] == 42, "negative offset");
    CHECK(bf_hash_large_binary(data, dec64, 3, 0, out) == BF_EINVAL && out[0] == 42,
          "decreasing 64-bit offsets");
    CHECK(bf_hash_binary(data, NULL, 1, 0, out) == BF_EINVAL, "offsets NULL");
    CHECK(bf_hash_binary(data, off32, 1, 0, NULL) == BF_EINVAL, "out NULL");
    CHECK(bf_hash_binary(NULL, NULL, 0, 0, NULL) == BF_OK, "n = 0 reads nothing");
    int32_t empties[] = {3, 3, 3};
    CHECK(bf_hash_binary(NULL, empties, 2, 0, out) == BF_OK && out[0] == bf_hash_xxh64(NULL, 0) &&
              out[1] == out[0],
          "data NULL with only empty strings");
    int32_t one[] = {0, 1};
    CHECK(bf_hash_binary(NULL, one, 1, 0, out) == BF_EINVAL, "data NULL with a byte to read");
}

/* The library's own XXH64 of byte strings (hash/xxh64.h, behind
 * bf_hash_xxh64 and every byte-string call) against xxHash itself: every
 * length from 0 to 300 (each path: stripes, 8-, 4- and 1-byte steps) and a
 * few long ones, at every misalignment, with seeds 0 and random ones. */
static void byte_strings(void) {
    enum { MAXLEN = 4099 };
    static uint8_t buf[MAXLEN + 16];
    uint64_t rng = 314159;
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)tu_next(&rng);
    CHECK(bf_hash_xxh64("abc", 3) == 0x44bc2cf5ad770999ull, "XXH64(abc)");
    CHECK(bf_hash_xxh64("", 0) == XXH64("", 0, 0) && bf_hash_xxh64(NULL, 0) == XXH64("", 0, 0),
          "XXH64 of the empty string");
    size_t bad = 0, checks = 0;
    for (size_t len = 0; len <= MAXLEN; len += len < 300 ? 1 : 953) {
        for (size_t off = 0; off < 8; off++) {
            uint64_t seed = off == 0 ? 0 : tu_next(&rng);
            const uint8_t *p = buf + off;
            bad += bf_hash_xxh64_seeded(p, len, seed) != XXH64(p, len, seed);
            bad += seed == 0 && bf_hash_xxh64(p, len) != XXH64(p, len, 0);
            checks++;
        }
    }
    CHECK(bad == 0, "byte-string XXH64 vs xxHash: %zu of %zu differ", bad, checks);
}

int main(void) {
    known_answers();
    byte_strings();
    kernels();
    choice();
    arrays();
    printf("hash_equiv: %lu passed, %lu failed\n", passed, failed);
    return failed ? 1 : 0;
}
