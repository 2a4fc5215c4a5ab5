// What include/blockfilter.hpp costs over the C calls it wraps: each pair
// has a C form and a wrapper form doing the same work on the same filter
// and keys, in one run. The Google Benchmark series gives each
// form's throughput and, at the end, wrapper / C per pair (the ratio of the
// repetitions' medians, and the range of per-repetition ratios). Then the
// paired estimate, steadier on a shared machine: the two forms alternate
// batch by batch, and the ratio is taken per adjacent pair (median per
// block, median and range of the blocks). docs/adopting.md quotes it.
//
//   ./build/<dir>/bench/bench_cpp --benchmark_repetitions=15
//       --benchmark_enable_random_interleaving=true     (one command line)
//   --bf_no_paired   the Google Benchmark series only
//
// Single keys: contains and insert of pre-computed hashes, of INT64 values
// and of 16-byte strings, 4096 per iteration, through the header's inline
// paths (this file is built with -mavx2 on x86, so an AVX2 or AVX-512
// filter gets the inline AVX2 code, as an engine built for AVX2 would).
// The handle is a local in both forms (the C pointer copied into a local,
// the wrapper moved into one), which a compiler keeps in a register; the
// member_ pairs read both from memory at every key, as a loop over an
// engine object's member does. Batches: 4096 hashes or INT64 values per
// call. The generic bf_filter: single-key and batch contains. Each filter
// holds 2^20 keys at 1 % (1.2 MB); both forms use the same filter.
// The wrapper is built as C++17 (pointer and count batches; its C++20
// std::span forms call these).
#include <benchmark/benchmark.h>

#include <blockfilter.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::size_t kKeys = std::size_t(1) << 20;
constexpr std::size_t kBatch = 4096;
constexpr std::size_t kKeyBytes = 16;

std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// One SBBF and one generic filter, owned by wrapper handles; the C forms
// use the same objects through C pointers (the pointer does not change
// when a handle moves), so both forms touch the same memory. Half the
// probes are present.
struct Data {
    bf::sbbf w_sbbf{kKeys, 0.01};
    bf::filter w_filter{BF_FAMILY_SBBF, kKeys, 0.01};
    bf_sbbf *c_sbbf = w_sbbf.get();
    bf_filter *c_filter = w_filter.get();
    std::vector<std::uint64_t> hashes;
    std::vector<std::int64_t> values;
    std::vector<char> bytes;
    std::vector<std::uint8_t> out;

    Data() : hashes(kBatch), values(kBatch), bytes(kBatch * kKeyBytes), out(kBatch) {
        for (std::size_t i = 0; i < kKeys; i++) {
            std::uint64_t h = mix(i);
            w_sbbf.insert_hash(h);
            w_sbbf.insert(static_cast<std::int64_t>(h));
            w_filter.insert_hash(h);
        }
        for (std::size_t i = 0; i < kBatch; i++) {
            std::uint64_t k = i % 2 ? mix(i * 7919) : mix(kKeys + i);
            hashes[i] = k;
            values[i] = static_cast<std::int64_t>(k);
            for (std::size_t b = 0; b < kKeyBytes; b++) bytes[i * kKeyBytes + b] = static_cast<char>(mix(k + b));
        }
    }
    const char *key(std::size_t i) const { return &bytes[i * kKeyBytes]; }
};

Data &data() {
    static Data d;
    return d;
}

// Lends a stored handle to fn as a local, as the C forms copy their pointer
// into a local: a compiler keeps either in a register across the loop.
template <class Handle, class Fn>
void local(Handle &stored, Fn fn) {
    Handle h(std::move(stored));
    fn(h);
    stored = std::move(h);
}

// Each op does one batch of kBatch keys; _c with the C calls, _w with the
// wrapper.

// Single keys, handle in a local.
void contains_hash_c(Data &d) {
    const bf_sbbf *f = d.c_sbbf;
    std::size_t found = 0;
    for (std::uint64_t h : d.hashes) found += bf_sbbf_contains_hash(f, h);
    benchmark::DoNotOptimize(found);
}
void contains_hash_w(Data &d) {
    local(d.w_sbbf, [&](const bf::sbbf &s) {
        std::size_t found = 0;
        for (std::uint64_t h : d.hashes) found += s.contains_hash(h);
        benchmark::DoNotOptimize(found);
    });
}
void insert_hash_c(Data &d) {
    bf_sbbf *f = d.c_sbbf;
    int rc = 0;
    for (std::uint64_t h : d.hashes) rc |= bf_sbbf_insert_hash(f, h);
    if (rc != BF_OK) std::abort();
    benchmark::ClobberMemory();
}
void insert_hash_w(Data &d) {
    local(d.w_sbbf, [&](bf::sbbf &s) {
        for (std::uint64_t h : d.hashes) s.insert_hash(h);
        benchmark::ClobberMemory();
    });
}
void contains_int64_c(Data &d) {
    const bf_sbbf *f = d.c_sbbf;
    std::size_t found = 0;
    for (std::int64_t v : d.values) found += bf_sbbf_contains_int64(f, v);
    benchmark::DoNotOptimize(found);
}
void contains_int64_w(Data &d) {
    local(d.w_sbbf, [&](const bf::sbbf &s) {
        std::size_t found = 0;
        for (std::int64_t v : d.values) found += s.contains(v);
        benchmark::DoNotOptimize(found);
    });
}
void insert_int64_c(Data &d) {
    bf_sbbf *f = d.c_sbbf;
    int rc = 0;
    for (std::int64_t v : d.values) rc |= bf_sbbf_insert_int64(f, v);
    if (rc != BF_OK) std::abort();
    benchmark::ClobberMemory();
}
void insert_int64_w(Data &d) {
    local(d.w_sbbf, [&](bf::sbbf &s) {
        for (std::int64_t v : d.values) s.insert(v);
        benchmark::ClobberMemory();
    });
}
void contains_bytes_c(Data &d) {
    const bf_sbbf *f = d.c_sbbf;
    std::size_t found = 0;
    for (std::size_t i = 0; i < kBatch; i++) found += bf_sbbf_contains(f, d.key(i), kKeyBytes);
    benchmark::DoNotOptimize(found);
}
void contains_bytes_w(Data &d) {
    local(d.w_sbbf, [&](const bf::sbbf &s) {
        std::size_t found = 0;
        for (std::size_t i = 0; i < kBatch; i++) found += s.contains(std::string_view(d.key(i), kKeyBytes));
        benchmark::DoNotOptimize(found);
    });
}

// Single keys, handle in memory (a member of an engine's object): read at
// every key, the C pointer as the wrapper.
void member_contains_hash_c(Data &d) {
    std::size_t found = 0;
    for (std::uint64_t h : d.hashes) found += bf_sbbf_contains_hash(d.c_sbbf, h);
    benchmark::DoNotOptimize(found);
}
void member_contains_hash_w(Data &d) {
    std::size_t found = 0;
    for (std::uint64_t h : d.hashes) found += d.w_sbbf.contains_hash(h);
    benchmark::DoNotOptimize(found);
}
void member_insert_int64_c(Data &d) {
    int rc = 0;
    for (std::int64_t v : d.values) rc |= bf_sbbf_insert_int64(d.c_sbbf, v);
    if (rc != BF_OK) std::abort();
    benchmark::ClobberMemory();
}
void member_insert_int64_w(Data &d) {
    for (std::int64_t v : d.values) d.w_sbbf.insert(v);
    benchmark::ClobberMemory();
}

// Batches.
void batch_contains_hashes_c(Data &d) {
    benchmark::DoNotOptimize(bf_sbbf_contains_hashes(d.c_sbbf, d.hashes.data(), kBatch, d.out.data()));
}
void batch_contains_hashes_w(Data &d) {
    benchmark::DoNotOptimize(d.w_sbbf.contains_hashes(d.hashes.data(), kBatch, d.out.data()));
}
void batch_insert_int64s_c(Data &d) {
    if (bf_sbbf_insert_int64s(d.c_sbbf, d.values.data(), kBatch) != BF_OK) std::abort();
    benchmark::ClobberMemory();
}
void batch_insert_int64s_w(Data &d) {
    d.w_sbbf.insert(d.values.data(), kBatch);
    benchmark::ClobberMemory();
}
void batch_contains_int64s_c(Data &d) {
    benchmark::DoNotOptimize(bf_sbbf_contains_int64s(d.c_sbbf, d.values.data(), kBatch, d.out.data()));
}
void batch_contains_int64s_w(Data &d) {
    benchmark::DoNotOptimize(d.w_sbbf.contains(d.values.data(), kBatch, d.out.data()));
}

// The generic filter.
void filter_contains_hash_c(Data &d) {
    const bf_filter *f = d.c_filter;
    std::size_t found = 0;
    for (std::uint64_t h : d.hashes) found += bf_filter_contains_hash(f, h);
    benchmark::DoNotOptimize(found);
}
void filter_contains_hash_w(Data &d) {
    local(d.w_filter, [&](const bf::filter &f) {
        std::size_t found = 0;
        for (std::uint64_t h : d.hashes) found += f.contains_hash(h);
        benchmark::DoNotOptimize(found);
    });
}
void filter_batch_contains_hashes_c(Data &d) {
    benchmark::DoNotOptimize(bf_filter_contains_hashes(d.c_filter, d.hashes.data(), kBatch, d.out.data()));
}
void filter_batch_contains_hashes_w(Data &d) {
    benchmark::DoNotOptimize(d.w_filter.contains_hashes(d.hashes.data(), kBatch, d.out.data()));
}

using Op = void (*)(Data &);

// One batch per iteration (the op is inlined into its benchmark).
template <Op op>
void bm(benchmark::State &st) {
    Data &d = data();
    for (auto _ : st) op(d);
    st.SetItemsProcessed(static_cast<std::int64_t>(st.iterations() * kBatch));
}

struct Pair {
    const char *name;
    Op c, w;
};
std::vector<Pair> &pairs() {
    static std::vector<Pair> all;
    return all;
}
bool add_pair(const char *name, Op c, Op w) {
    pairs().push_back({name, c, w});
    return true;
}

#define BFB_PAIR(name)                                                           \
    BENCHMARK_TEMPLATE(bm, name##_c)->Name("cpp/" #name "/c");                  \
    BENCHMARK_TEMPLATE(bm, name##_w)->Name("cpp/" #name "/wrapper");            \
    const bool name##_paired = add_pair("cpp/" #name, name##_c, name##_w)
BFB_PAIR(contains_hash);
BFB_PAIR(insert_hash);
BFB_PAIR(contains_int64);
BFB_PAIR(insert_int64);
BFB_PAIR(contains_bytes);
BFB_PAIR(member_contains_hash);
BFB_PAIR(member_insert_int64);
BFB_PAIR(batch_contains_hashes);
BFB_PAIR(batch_insert_int64s);
BFB_PAIR(batch_contains_int64s);
BFB_PAIR(filter_contains_hash);
BFB_PAIR(filter_batch_contains_hashes);

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// The paired estimate: the two forms alternate batch by batch (which goes
// first alternates too), so a burst of load from elsewhere hits both; the
// ratio of each adjacent pair, median per block of kSlices pairs, and the
// median and range of kBlocks blocks.
void paired() {
    constexpr int kBlocks = 9, kSlices = 400;
    using clock = std::chrono::steady_clock;
    Data &d = data();
    std::printf("\n%-42s %8s %17s  (%d blocks of %d alternations)\n", "wrapper / C, alternating", "median",
                "min-max", kBlocks, kSlices);
    for (const Pair &p : pairs()) {
        for (int i = 0; i < 50; i++) p.c(d), p.w(d);  // warm
        std::vector<double> blocks;
        for (int b = 0; b < kBlocks; b++) {
            std::vector<double> ratios;
            for (int s = 0; s < kSlices; s++) {
                Op first = s % 2 ? p.w : p.c, second = s % 2 ? p.c : p.w;
                auto t0 = clock::now();
                first(d);
                auto t1 = clock::now();
                second(d);
                auto t2 = clock::now();
                double a = std::chrono::duration<double>(t1 - t0).count();
                double c = std::chrono::duration<double>(t2 - t1).count();
                ratios.push_back(s % 2 ? a / c : c / a);
            }
            blocks.push_back(median(ratios));
        }
        auto [lo, hi] = std::minmax_element(blocks.begin(), blocks.end());
        std::printf("%-42s %8.3f %8.3f-%-8.3f\n", p.name, median(blocks), *lo, *hi);
    }
}

// The console output, then wrapper / C per pair over the repetitions.
class RatioReporter : public benchmark::ConsoleReporter {
public:
    RatioReporter() : ConsoleReporter(OO_Tabular) {}
    void ReportRuns(const std::vector<Run> &runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run &r : runs) {
            if (r.run_type != Run::RT_Iteration || r.error_occurred) continue;
            std::string name = r.benchmark_name();
            std::size_t slash = name.rfind('/');
            if (slash == std::string::npos) continue;
            std::string op = name.substr(0, slash), form = name.substr(slash + 1);
            std::size_t extra = form.find('/');  // repeats/threads suffixes
            if (extra != std::string::npos) form.resize(extra);
            times_[op][form].push_back(r.GetAdjustedCPUTime());
        }
    }
    void Finalize() override {
        ConsoleReporter::Finalize();
        std::printf("\n%-42s %8s %17s %5s\n", "wrapper / C, repetitions (CPU time)", "median", "min-max", "reps");
        for (auto &[op, forms] : times_) {
            std::vector<double> &c = forms["c"], &w = forms["wrapper"];
            std::size_t n = std::min(c.size(), w.size());
            if (n == 0) continue;
            std::vector<double> pairs;
            for (std::size_t i = 0; i < n; i++) pairs.push_back(w[i] / c[i]);
            std::sort(pairs.begin(), pairs.end());
            double ratio = median(w) / median(c);  // of the repetitions
            std::printf("%-42s %8.3f %8.3f-%-8.3f %5zu\n", op.c_str(), ratio, pairs.front(), pairs.back(), n);
        }
    }

private:
    std::map<std::string, std::map<std::string, std::vector<double>>> times_;
};

}  // namespace

int main(int argc, char **argv) {
#if defined(__AVX2__) && (defined(__x86_64__) || defined(__i386__))
    if (!bf_sbbf_kernel_supported("avx2")) {
        std::printf("bench_cpp: built for AVX2, which this CPU lacks: skipped\n");
        return 0;
    }
#endif
    // --bf_no_paired: the Google Benchmark series only.
    bool no_paired = false;
    for (int i = 1; i < argc; i++)
        if (std::string(argv[i]) == "--bf_no_paired") {
            no_paired = true;
            for (int j = i; j + 1 < argc; j++) argv[j] = argv[j + 1];
            argc--;
            break;
        }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    data();
    std::printf("filter kernel: %s, inline paths: %s\n", bf_sbbf_kernel(data().c_sbbf),
                bf_sbbf_inline_ok(data().c_sbbf) ? "yes" : "no (the library's calls)");
    RatioReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    if (!no_paired) paired();
    return 0;
}
