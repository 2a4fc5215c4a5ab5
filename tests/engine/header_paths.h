/* The single-key header paths against the exported functions, from any
 * includer (C or C++, any target flags, BF_NO_INLINE or not): the same
 * bits and the same answers under every kernel compiled in and runnable
 * here, for hashes, byte strings (4, 8 and other lengths) and the four
 * typed keys, plain and keyed filters, read-only views (BF_EREADONLY from
 * both), NULL arguments; the inline path is taken exactly for the filters
 * whose kernel the including compiler's inline code implements.
 *
 * Include after blockfilter.h; call header_paths() and add its failures.
 * The exported function is called by parenthesising its name, which a
 * function-like macro does not expand. */
#ifndef BF_TEST_HEADER_PATHS_H
#define BF_TEST_HEADER_PATHS_H

#include <blockfilter_advanced.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long hp_checks, hp_failed;

/* Casts a C++ build with -Wold-style-cast accepts. */
#if defined(__cplusplus)
#define HP_CAST(type, x) (static_cast<type>(x))
#else
#define HP_CAST(type, x) ((type)(x))
#endif

static void hp_check(int ok, const char *what, const char *kernel, unsigned long i) {
    hp_checks++;
    if (ok) return;
    if (hp_failed++ < 20) fprintf(stderr, "FAILED: %s (kernel %s, key %lu)\n", what, kernel, i);
}

static uint64_t hp_next(uint64_t *s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Key i of a stream: a hash, a byte string of 8, 4 or other lengths, and
 * the typed values, all from one random r. */
typedef struct hp_key {
    uint64_t r;
    uint32_t u32;
    float fl;
    double db;
    unsigned char bytes[13];
    size_t len;
} hp_key;
static hp_key hp_make(uint64_t *s, unsigned long i) {
    hp_key k;
    k.r = hp_next(s);
    k.u32 = HP_CAST(uint32_t, k.r);
    memcpy(&k.fl, &k.u32, 4);
    memcpy(&k.db, &k.r, 8);
    memcpy(k.bytes, &k.r, 8);
    memcpy(k.bytes + 8, &i, sizeof i < 5 ? sizeof i : 5);
    k.len = i % 4 == 0 ? 8 : i % 4 == 1 ? 4 : HP_CAST(size_t, i % 13);
    return k;
}

/* Whether f sits at its kernel class's place (BF_SBBF_PLACE, or
 * BF_SBBF_PLACE_VIEW for a view), which the inline calls test. */
/* Whether insert_bits[] is what inline inserts of a 0.3.0 header test:
 * the bitset for its own class (and avx2's for an avx512 filter), NULL
 * elsewhere and everywhere for a view. */
static int hp_insert_bits_ok(const bf_sbbf *f, int view) {
    const bf_sbbf_layout *l = HP_CAST(const bf_sbbf_layout *, HP_CAST(const void *, f));
    const uint32_t cls = l->tag & 0xffffu;
    for (uint32_t c = 0; c < 4; c++) {
        const int own = c == cls || (cls == BF_SBBF_KERNEL_AVX512 && c == BF_SBBF_KERNEL_AVX2);
        if (l->insert_bits[c] != (own && !view ? l->bits : NULL)) return 0;
    }
    return view ? l->bits == NULL : l->bits != NULL;
}

static int hp_placed(const bf_sbbf *f, int view) {
    const bf_sbbf_layout *l = HP_CAST(const bf_sbbf_layout *, HP_CAST(const void *, f));
    const uint32_t cls = l->tag & 0xffffu;
    uintptr_t addr;
    memcpy(&addr, &f, sizeof addr);
    return addr % BF_SBBF_PLACE_MOD == (view ? BF_SBBF_PLACE_VIEW(cls) : BF_SBBF_PLACE(cls));
}

#if defined(BF_SBBF_INLINE)
/* Whether this build's inline code implements the kernel named. */
static int hp_inlined_here(const char *kernel) {
#if BF_SBBF_INLINE == BF_SBBF_KERNEL_AVX2
    return strcmp(kernel, "avx2") == 0 || strcmp(kernel, "avx512") == 0;
#elif BF_SBBF_INLINE == BF_SBBF_KERNEL_NEON
    return strcmp(kernel, "neon") == 0;
#else
    return strcmp(kernel, "scalar") == 0;
#endif
}
#endif

/* a through the header, b through the exported functions, same keys. */
static void hp_kernel(const char *kernel, uint64_t seed) {
    enum { BYTES = 8192, N = 2000 };
    bf_sbbf *a = NULL, *b = NULL;
    int ra = bf_sbbf_new_bytes_kernel(&a, BYTES, kernel);
    int rb = bf_sbbf_new_bytes_kernel(&b, BYTES, kernel);
    hp_check(ra == BF_OK && rb == BF_OK, "create", kernel, 0);
    if (ra || rb) {
        bf_sbbf_free(a);
        bf_sbbf_free(b);
        return;
    }
    hp_check(bf_sbbf_set_seed(a, seed) == BF_OK && bf_sbbf_set_seed(b, seed) == BF_OK, "seed",
             kernel, 0);
    hp_check(hp_placed(a, 0) && hp_placed(b, 0), "a filter sits at its kernel class's place", kernel, 0);
    hp_check(hp_insert_bits_ok(a, 0), "insert_bits name a filter's bitset for its class", kernel, 0);
#if defined(BF_SBBF_INLINE)
    hp_check(bf_sbbf_inline_ok(a) == (hp_inlined_here(kernel) != 0),
             "inline path taken exactly for its own kernel", kernel, 0);
#endif
    uint64_t s = seed ^ 0x5eed;
    int rc_a = 0, rc_b = 0;
    for (unsigned long i = 0; i < N; i++) {
        hp_key k = hp_make(&s, i);
        switch (i % 7) {
        case 0: rc_a |= bf_sbbf_insert_hash(a, k.r); rc_b |= (bf_sbbf_insert_hash)(b, k.r); break;
        case 1: rc_a |= bf_sbbf_insert(a, k.bytes, k.len); rc_b |= (bf_sbbf_insert)(b, k.bytes, k.len); break;
        case 2: rc_a |= bf_sbbf_insert_int32(a, HP_CAST(int32_t, k.u32)); rc_b |= (bf_sbbf_insert_int32)(b, HP_CAST(int32_t, k.u32)); break;
        case 3: rc_a |= bf_sbbf_insert_int64(a, HP_CAST(int64_t, k.r)); rc_b |= (bf_sbbf_insert_int64)(b, HP_CAST(int64_t, k.r)); break;
        case 4: rc_a |= bf_sbbf_insert_float(a, k.fl); rc_b |= (bf_sbbf_insert_float)(b, k.fl); break;
        case 5: rc_a |= bf_sbbf_insert_double(a, k.db); rc_b |= (bf_sbbf_insert_double)(b, k.db); break;
        default: rc_a |= bf_sbbf_insert(a, k.bytes, 0); rc_b |= (bf_sbbf_insert)(b, k.bytes, 0); break;
        }
    }
    hp_check(rc_a == BF_OK && rc_b == BF_OK, "inserts succeed", kernel, 0);
    hp_check(memcmp(bf_sbbf_bitset(a), bf_sbbf_bitset(b), BYTES) == 0,
             "header and exported inserts give the same bits", kernel, 0);

    /* Queries: the inserted keys (every one found) and fresh ones, each
     * asked through both paths on both filters. */
    unsigned long differ = 0, missed = 0;
    for (int pass = 0; pass < 2; pass++) {
        s = pass == 0 ? seed ^ 0x5eed : seed ^ 0xfaceull;
        for (unsigned long i = 0; i < N; i++) {
            hp_key k = hp_make(&s, i);
            bool x, y;
            switch (i % 7) {
            case 0: x = bf_sbbf_contains_hash(a, k.r); y = (bf_sbbf_contains_hash)(b, k.r); break;
            case 1: x = bf_sbbf_contains(a, k.bytes, k.len); y = (bf_sbbf_contains)(b, k.bytes, k.len); break;
            case 2: x = bf_sbbf_contains_int32(a, HP_CAST(int32_t, k.u32)); y = (bf_sbbf_contains_int32)(b, HP_CAST(int32_t, k.u32)); break;
            case 3: x = bf_sbbf_contains_int64(a, HP_CAST(int64_t, k.r)); y = (bf_sbbf_contains_int64)(b, HP_CAST(int64_t, k.r)); break;
            case 4: x = bf_sbbf_contains_float(a, k.fl); y = (bf_sbbf_contains_float)(b, k.fl); break;
            case 5: x = bf_sbbf_contains_double(a, k.db); y = (bf_sbbf_contains_double)(b, k.db); break;
            default: x = bf_sbbf_contains(a, k.bytes, 0); y = (bf_sbbf_contains)(b, k.bytes, 0); break;
            }
            differ += x != y;
            missed += pass == 0 && !x;
        }
    }
    hp_check(differ == 0, "header and exported contains agree", kernel, differ);
    hp_check(missed == 0, "every inserted key is found through the header", kernel, missed);

    /* Typed hashes through the header are Parquet's. */
    hp_check(bf_hash_int64(-5) == (bf_hash_int64)(-5) && bf_hash_int32(7) == (bf_hash_int32)(7) &&
                 bf_hash_float(1.5f) == (bf_hash_float)(1.5f) &&
                 bf_hash_double(-0.0) == (bf_hash_double)(-0.0),
             "typed hashes", kernel, 0);

    /* A taken address is the exported function. */
    bool (*contains_fn)(const bf_sbbf *, uint64_t) = bf_sbbf_contains_hash;
    int (*insert_fn)(bf_sbbf *, uint64_t) = &bf_sbbf_insert_hash;
    hp_check(contains_fn(a, 12345) == bf_sbbf_contains_hash(a, 12345), "function pointer", kernel, 0);
    hp_check(insert_fn(b, 999) == BF_OK && bf_sbbf_insert_hash(a, 999) == BF_OK &&
                 memcmp(bf_sbbf_bitset(a), bf_sbbf_bitset(b), BYTES) == 0,
             "insert through a pointer", kernel, 0);

    /* A read-only view: both paths refuse every insert and leave the bits. */
    unsigned char *copy = HP_CAST(unsigned char *, malloc(BYTES + 3));
    bf_sbbf *v = NULL;
    if (copy) {
        memcpy(copy + 3, bf_sbbf_bitset(a), BYTES); /* misaligned */
        if (bf_sbbf_view_kernel(&v, copy + 3, BYTES, kernel) == BF_OK) {
            hp_check(hp_placed(v, 1), "a view sits at its kernel class's view place", kernel, 0);
            hp_check(hp_insert_bits_ok(v, 1), "a view's insert_bits are NULL", kernel, 0);
            hp_check(bf_sbbf_insert_hash(v, 1) == BF_EREADONLY &&
                         bf_sbbf_insert(v, "abcdefgh", 8) == BF_EREADONLY &&
                         bf_sbbf_insert_int64(v, 3) == BF_EREADONLY &&
                         bf_sbbf_insert_int32(v, 3) == BF_EREADONLY &&
                         bf_sbbf_insert_float(v, 3.0f) == BF_EREADONLY &&
                         bf_sbbf_insert_double(v, 3.0) == BF_EREADONLY &&
                         (bf_sbbf_insert_int64)(v, 3) == BF_EREADONLY,
                     "views refuse inserts", kernel, 0);
            hp_check(memcmp(copy + 3, bf_sbbf_bitset(a), BYTES) == 0, "view unchanged", kernel, 0);
#if defined(BF_SBBF_INLINE)
            hp_check(bf_sbbf_inline_ok(v) == (hp_inlined_here(kernel) != 0),
                     "a view's queries run inline as its kernel's do", kernel, 0);
#endif
            if (seed == 0) {
                unsigned long vd = 0;
                s = 0x5eed;
                for (unsigned long i = 0; i < N; i++) {
                    uint64_t r = hp_next(&s);
                    vd += bf_sbbf_contains_hash(v, r) != (bf_sbbf_contains_hash)(a, r);
                    vd += bf_sbbf_contains_int64(v, HP_CAST(int64_t, r)) != (bf_sbbf_contains_int64)(a, HP_CAST(int64_t, r));
                }
                hp_check(vd == 0, "a view answers as its filter", kernel, vd);
            }
            bf_sbbf_free(v);
        } else {
            hp_check(0, "view", kernel, 0);
        }
    }
    free(copy);
    hp_check(bf_sbbf_insert_int64(NULL, 1) == BF_EINVAL && bf_sbbf_insert(NULL, "x", 1) == BF_EINVAL,
             "NULL filter", kernel, 0);
    hp_check(bf_sbbf_insert(a, NULL, 3) == BF_EINVAL, "NULL data", kernel, 0);
    bf_sbbf_free(a);
    bf_sbbf_free(b);
}

/* Returns the number of failures; prints one line. */
static unsigned long header_paths(const char *label) {
    size_t ran = 0;
    for (size_t i = 0; i < bf_sbbf_kernel_count(); i++) {
        const char *k = bf_sbbf_kernel_name(i);
        if (!bf_sbbf_kernel_supported(k)) continue;
        hp_kernel(k, 0);
        hp_kernel(k, 0xabcdefull);
        ran++;
    }
    hp_check(ran > 0, "some kernel runs", "-", 0);
#if defined(BF_SBBF_INLINE)
    const char *inl = BF_SBBF_INLINE == BF_SBBF_KERNEL_AVX2   ? "avx2 (avx2 and avx512 filters)"
                      : BF_SBBF_INLINE == BF_SBBF_KERNEL_NEON ? "neon"
                                                              : "scalar";
#else
    const char *inl = "none (BF_NO_INLINE)";
#endif
    printf("%s: header paths vs exported functions, %zu kernels, inline code: %s; %lu checks, "
           "%lu failed\n",
           label, ran, inl, hp_checks, hp_failed);
    return hp_failed;
}

#endif
