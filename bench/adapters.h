// The adapters over the public API. Every family is driven by the same loops
// (bench_main.cc) through these static functions; the per-key calls are kept
// out of line so that inlining flatters no family.
//
// The family comparison goes through ONE path for every family, bf_filter
// (FilterAdapter): the same facade, the same table dispatch, the same batch
// calls, so it is fair by construction. The SBBF is there once per kernel
// (series sbbf/<kernel>, a bf_filter wrapped around an SBBF of that kernel).
// SbbfAdapter, the SBBF through its own API (series sbbf-api/<kernel>, and
// the kernel benchmark), is a separate measurement of what the facade costs,
// never compared with the other families. The scalable SBBF is there twice
// (scalable/reserved: bf_filter_new, a chain of initial capacity n, one
// layer; scalable/grown: a chain of initial capacity n/1000 wrapped by
// bf_filter_from_scalable, which grows through about ten layers), both
// through bf_filter like the rest.
#ifndef BF_BENCH_ADAPTERS_H
#define BF_BENCH_ADAPTERS_H

#include "bench.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#define BFB_NOINLINE __attribute__((noinline))

namespace bfb {

// The 8 little-endian bytes of a key: what bf_hash_int64 hashes.
inline void key_bytes(uint64_t key, unsigned char out[8]) {
    for (int i = 0; i < 8; i++) out[i] = (unsigned char)(key >> (8 * i));
}

// Hashing included, batch form: hash a chunk into a local buffer, then call
// the family's batch function on it. The same for every family.
template <class Fn>
inline size_t hash_chunks(const uint64_t *keys, size_t n, Fn &&fn) {
    uint64_t buf[256];
    size_t acc = 0;
    for (size_t i = 0; i < n; i += 256) {
        size_t m = std::min<size_t>(256, n - i);
        for (size_t j = 0; j < m; j++) buf[j] = bf_hash_int64((int64_t)keys[i + j]);
        acc += fn(buf, m, i);
    }
    return acc;
}

// An SBBF with a named kernel (bf_sbbf_new_bytes_kernel), sized by the exact
// model (bf_sbbf_compact_bytes), as bf_filter_new sizes it.
inline int new_sbbf_kernel(bf_sbbf **out, const std::string &kernel, uint64_t n, double fpp) {
    size_t bytes;
    int rc = bf_sbbf_compact_bytes(n, fpp, &bytes);
    return rc ? rc : bf_sbbf_new_bytes_kernel(out, bytes, kernel.c_str());
}

// ---------------------------------------------------------------------------
// The SBBF through its own API (series sbbf-api/<kernel>; the kernel
// benchmark uses its single-key calls too).
struct SbbfAdapter {
    using F = bf_sbbf;
    struct Spec {
        std::string kernel;
    };
    static std::string family(const Spec &) { return "sbbf"; }
    static std::string series(const Spec &s) { return "sbbf-api/" + s.kernel; }

    static int make(F **out, const Spec &s, uint64_t n, double fpp) { return new_sbbf_kernel(out, s.kernel, n, fpp); }
    static void destroy(F *f) { bf_sbbf_free(f); }
    static void clear(F *f) { bf_sbbf_clear(f); }
    static uint64_t bytes(const F *f) { return bf_sbbf_num_bytes(f); }
    static double model_fpp(const F *f, uint64_t n) { return bf_sbbf_model_fpp(bf_sbbf_num_bytes(f), n); }
    static std::string kernel(const F *f) { return bf_sbbf_kernel(f); }
    static std::vector<std::pair<std::string, double>> extra(const F *) { return {}; }
    static bool has_remove(const Spec &) { return false; }
    static bool has_concurrent(const Spec &) { return true; }

    static BFB_NOINLINE int insert(F *f, uint64_t h) { return bf_sbbf_insert_hash(f, h); }
    static BFB_NOINLINE int insert_key(F *f, uint64_t key) {
        unsigned char b[8];
        key_bytes(key, b);
        return bf_sbbf_insert(f, b, 8);
    }
    static BFB_NOINLINE bool contains(const F *f, uint64_t h) { return bf_sbbf_contains_hash(f, h); }
    static BFB_NOINLINE bool contains_key(const F *f, uint64_t key) {
        unsigned char b[8];
        key_bytes(key, b);
        return bf_sbbf_contains(f, b, 8);
    }
    static int insert_batch(F *f, const uint64_t *h, size_t n) { return bf_sbbf_insert_hashes(f, h, n); }
    static size_t contains_batch(const F *f, const uint64_t *h, size_t n, uint8_t *out) {
        return bf_sbbf_contains_hashes(f, h, n, out);
    }
    static int remove(F *, uint64_t) { return BF_EUNSUPPORTED; }
    static int remove_key(F *, uint64_t) { return BF_EUNSUPPORTED; }
    static void insert_concurrent(F *f, const uint64_t *h, size_t n) { bf_sbbf_insert_hashes_concurrent(f, h, n); }
    static bool contains_concurrent(const F *f, uint64_t h) { return bf_sbbf_contains_hash_concurrent(f, h); }
};

// ---------------------------------------------------------------------------
// Every family through the generic bf_filter interface, sized as
// bf_filter_new sizes it. The SBBF with a named kernel is an SBBF of that
// kernel wrapped by bf_filter_from_sbbf; without one, bf_filter_new's
// auto-dispatched kernel.
struct FilterAdapter {
    using F = bf_filter;
    struct Spec {
        bf_family family;
        std::string name;    // series name
        std::string kernel;  // SBBF kernel; empty: auto
        uint64_t grow_div = 0;  // scalable: initial capacity n / grow_div (0: n, one layer)
    };
    static std::string family(const Spec &s) { return bf_family_name(s.family); }
    static std::string series(const Spec &s) { return s.name; }

    static int make(F **out, const Spec &s, uint64_t n, double fpp) {
        if (s.family == BF_FAMILY_SCALABLE && s.grow_div) {
            bf_scalable_params p = {std::max<uint64_t>(1, n / s.grow_div), fpp, 0, 0, 0};
            bf_scalable *c = nullptr;
            int rc = bf_scalable_new(&c, &p);
            if (rc == BF_OK && (rc = bf_filter_from_scalable(out, c)) != BF_OK) bf_scalable_free(c);
            return rc;
        }
        if (s.family != BF_FAMILY_SBBF || s.kernel.empty()) return bf_filter_new(out, s.family, n, fpp);
        bf_sbbf *sb = nullptr;
        int rc = new_sbbf_kernel(&sb, s.kernel, n, fpp);
        if (rc == BF_OK && (rc = bf_filter_from_sbbf(out, sb)) != BF_OK) bf_sbbf_free(sb);
        return rc;
    }
    static void destroy(F *f) { bf_filter_free(f); }
    static void clear(F *f) { bf_filter_clear(f); }
    static uint64_t bytes(const F *f) { return bf_filter_num_bytes(f); }
    static double model_fpp(const F *f, uint64_t n) {
        F *mf = const_cast<F *>(f);
        switch (bf_filter_family(f)) {
        case BF_FAMILY_SBBF:
            return bf_sbbf_model_fpp(bf_filter_num_bytes(f), n);
        case BF_FAMILY_BLOOM: {
            bf_bloom *b = bf_filter_bloom(mf);
            return bf_bloom_model_fpp(bf_bloom_num_bits(b), bf_bloom_num_hashes(b), n);
        }
        case BF_FAMILY_COUNTING: {
            // Same FPR as a classic filter with one bit per counter.
            bf_counting *c = bf_filter_counting(mf);
            return bf_bloom_model_fpp(bf_counting_num_counters(c), bf_counting_num_hashes(c), n);
        }
        case BF_FAMILY_SCALABLE: {
            // Like the others, the model of this very filter with the keys
            // it holds: each layer's exact SBBF model at its own count,
            // compounded (1 - prod(1 - p_i)). The chain's bound (every layer
            // at capacity) is the extra counter fpr_bound.
            (void)n;
            const bf_scalable *c = bf_filter_scalable(mf);
            double pass = 1.0;
            bf_scalable_layer l;
            for (size_t i = 0; bf_scalable_get_layer(c, i, &l) == BF_OK; i++)
                pass *= 1.0 - bf_sbbf_model_fpp(bf_sbbf_num_bytes(l.sbbf), l.count);
            return 1.0 - pass;
        }
        default: {
            double p = 0;
            return bf_fpp_for(bf_filter_family(f), bf_filter_num_bytes(f), n, &p) == BF_OK ? p : -1.0;
        }
        }
    }
    static std::string kernel(const F *f) {
        bf_filter_stats st;
        if (bf_filter_get_stats(f, &st) != BF_OK || !st.kernel) return "scalar";
        return st.kernel;
    }
    // Family-specific facts recorded with every result of the filter: for a
    // scalable chain its layers, initial capacity, bound and keys written.
    static std::vector<std::pair<std::string, double>> extra(const F *f) {
        const bf_scalable *c = bf_filter_scalable(const_cast<F *>(f));
        bf_scalable_stats in;
        if (!c || bf_scalable_get_stats(c, &in) != BF_OK) return {};
        bf_scalable_layer l0;
        bf_scalable_get_layer(c, 0, &l0);
        return {{"layers", (double)in.num_layers},
                {"initial_capacity", (double)l0.capacity},
                {"fpr_bound", in.bound_fpp},
                {"keys_written", (double)in.count}};
    }
    static bool has_remove(const Spec &s) {
        return s.family == BF_FAMILY_COUNTING || s.family == BF_FAMILY_CUCKOO;
    }
    static bool has_concurrent(const Spec &s) {
        return s.family == BF_FAMILY_SBBF || s.family == BF_FAMILY_BLOOM;
    }

    static BFB_NOINLINE int insert(F *f, uint64_t h) { return bf_filter_insert_hash(f, h); }
    static BFB_NOINLINE int insert_key(F *f, uint64_t key) {
        unsigned char b[8];
        key_bytes(key, b);
        return bf_filter_insert(f, b, 8);
    }
    static BFB_NOINLINE bool contains(const F *f, uint64_t h) { return bf_filter_contains_hash(f, h); }
    static BFB_NOINLINE bool contains_key(const F *f, uint64_t key) {
        unsigned char b[8];
        key_bytes(key, b);
        return bf_filter_contains(f, b, 8);
    }
    static int insert_batch(F *f, const uint64_t *h, size_t n) { return bf_filter_insert_hashes(f, h, n, nullptr); }
    static size_t contains_batch(const F *f, const uint64_t *h, size_t n, uint8_t *out) {
        return bf_filter_contains_hashes(f, h, n, out);
    }
    static BFB_NOINLINE int remove(F *f, uint64_t h) { return bf_filter_remove_hash(f, h); }
    static BFB_NOINLINE int remove_key(F *f, uint64_t key) {
        unsigned char b[8];
        key_bytes(key, b);
        return bf_filter_remove(f, b, 8);
    }
    static void insert_concurrent(F *f, const uint64_t *h, size_t n) {
        if (bf_sbbf *s = bf_filter_sbbf(f)) {
            bf_sbbf_insert_hashes_concurrent(s, h, n);
        } else if (bf_bloom *b = bf_filter_bloom(f)) {
            for (size_t i = 0; i < n; i++) bf_bloom_insert_hash_concurrent(b, h[i]);
        } else {
            die("concurrent insert requested for family %s", bf_family_name(bf_filter_family(f)));
        }
    }
    static bool contains_concurrent(const F *f, uint64_t h) {
        F *mf = const_cast<F *>(f);
        if (bf_sbbf *s = bf_filter_sbbf(mf)) return bf_sbbf_contains_hash_concurrent(s, h);
        if (bf_bloom *b = bf_filter_bloom(mf)) return bf_bloom_contains_hash_concurrent(b, h);
        return bf_filter_contains_hash(f, h);
    }
};

} // namespace bfb

#endif
