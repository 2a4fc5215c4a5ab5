// Adapters for the paths that take keys rather than hashes, on the SBBF:
//  - sbbf-header/<kernel>: single-key calls through the public header, in
//    a loop compiled for the filter's ISA (header_loops.cc), so the inline
//    path runs as it does in a caller's program; hash_excl = hashes given
//    (bf_sbbf_contains_hash), hash_incl = typed int64 (bf_sbbf_contains_int64).
//  - sbbf-typed/<kernel>: the typed batch calls (bf_sbbf_*_int64s), which
//    hash inside the batch pipeline (hash_incl only).
//  - sbbf-binary/<kernel>: the Arrow byte-string batch calls
//    (bf_sbbf_*_binary) over each key's 8 bytes (hash_incl only).
// The keys and hashes are the harness's: the 8 little-endian bytes of key
// i hash to hashes[i] by every path, so each series builds the same filter.
#ifndef BF_BENCH_ADAPTERS_KEYS_H
#define BF_BENCH_ADAPTERS_KEYS_H

#include "adapters.h"
#include "header_loops.h"

#include <cinttypes>
#include <cstring>
#include <mutex>
#include <vector>

namespace bfb {

struct HeaderAdapter : SbbfAdapter {
    static std::string series(const Spec &s) { return "sbbf-header/" + s.kernel; }
    // Single calls only, 50 % positives: the batch forms are the sbbf series'.
    static bool wants(bool batch, bool, int pct) { return !batch && (pct == 50 || pct < 0); }
    // The copy of the loops compiled for the filter's ISA.
    struct Loops {
        const char *isa;
        bool (*inline_ok)(const bf_sbbf *);
        size_t (*contains_hashes)(const bf_sbbf *, const uint64_t *, size_t);
        size_t (*contains_int64)(const bf_sbbf *, const uint64_t *, size_t);
        int (*insert_hashes)(bf_sbbf *, const uint64_t *, size_t);
        int (*insert_int64)(bf_sbbf *, const uint64_t *, size_t);
    };
    static const Loops &loops(const F *f) {
        static const Loops p = {"", plain::inline_ok, plain::contains_hashes, plain::contains_int64,
                                plain::insert_hashes, plain::insert_int64};
#if defined(BFB_HAVE_AVX2_LOOPS)
        static const Loops a = {" avx2", avx2::inline_ok, avx2::contains_hashes, avx2::contains_int64,
                                avx2::insert_hashes, avx2::insert_int64};
        std::string k = bf_sbbf_kernel(f);
        if (k == "avx2" || k == "avx512") return a;
#else
        (void)f;
#endif
        return p;
    }
    // The label says which code ran: the inline path or the library call.
    static std::string kernel(const F *f) {
        const Loops &l = loops(f);
        return std::string(bf_sbbf_kernel(f)) +
               (l.inline_ok(f) ? std::string(", inline") + l.isa : std::string(", library call"));
    }
    static constexpr bool kLoops = true;
    static size_t contains_loop(const F *f, const uint64_t *src, size_t n, bool hashed) {
        const Loops &l = loops(f);
        return hashed ? l.contains_int64(f, src, n) : l.contains_hashes(f, src, n);
    }
    static int insert_loop(F *f, const uint64_t *src, size_t n, bool hashed) {
        const Loops &l = loops(f);
        return hashed ? l.insert_int64(f, src, n) : l.insert_hashes(f, src, n);
    }
};

struct TypedAdapter : SbbfAdapter {
    static std::string series(const Spec &s) { return "sbbf-typed/" + s.kernel; }
    static bool wants(bool batch, bool hashed, int pct) { return batch && hashed && (pct == 50 || pct < 0); }
    static constexpr bool kKeyBatch = true;
    static size_t contains_keys(const F *f, const uint64_t *keys, size_t n, uint8_t *out) {
        return bf_sbbf_contains_int64s(f, (const int64_t *)(const void *)keys, n, out);
    }
    static int insert_keys(F *f, const uint64_t *keys, size_t n) {
        return bf_sbbf_insert_int64s(f, (const int64_t *)(const void *)keys, n);
    }
};

// Offsets 0, 8, 16, ...: key i of an array as an 8-byte string (Arrow
// layout over the key array itself). Made once, for the largest key array
// of the run, before any thread uses it.
inline const int32_t *eight_byte_offsets(size_t n) {
    static std::vector<int32_t> off;
    static std::once_flag once;
    std::call_once(once, [] {
        const Options &o = options();
        uint64_t most = std::max<uint64_t>(o.queries, o.fpr_keys);
        for (uint64_t v : o.ns) most = std::max(most, v);
        if (most + 1 > (uint64_t)INT32_MAX / 8) die("%" PRIu64 " keys are too many for 32-bit offsets", most);
        off.resize((size_t)most + 1);
        for (size_t i = 0; i < off.size(); i++) off[i] = (int32_t)(8 * i);
    });
    if (n + 1 > off.size()) die("eight_byte_offsets: %zu keys, made for %zu", n, off.size() - 1);
    return off.data();
}

struct BinaryAdapter : SbbfAdapter {
    static std::string series(const Spec &s) { return "sbbf-binary/" + s.kernel; }
    static int make(F **out, const Spec &s, uint64_t n, double fpp) {
        eight_byte_offsets(0); // made here, untimed
        return SbbfAdapter::make(out, s, n, fpp);
    }
    static bool wants(bool batch, bool hashed, int pct) { return batch && hashed && (pct == 50 || pct < 0); }
    static constexpr bool kKeyBatch = true;
    static size_t contains_keys(const F *f, const uint64_t *keys, size_t n, uint8_t *out) {
        size_t found = 0;
        int rc = bf_sbbf_contains_binary(f, keys, eight_byte_offsets(n), n, out, &found);
        if (rc) die("bf_sbbf_contains_binary: %s", bf_strerror(rc));
        return found;
    }
    static int insert_keys(F *f, const uint64_t *keys, size_t n) {
        return bf_sbbf_insert_binary(f, keys, eight_byte_offsets(n), n);
    }
};

}  // namespace bfb

#endif
