// Partitioned against plain SBBF batches (docs/kernels.md, "Partitioned
// batches"), on one filter and one key set, in one process:
//
//   ./build/<dir>/bench/bench_partition --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true --benchmark_filter=/100000000/
//
// Args: n (keys), mode (BF_PARTITION_OFF = 2, ON = 1, AUTO = 0).
// Keys are n distinct random int64 values; the filter is bf_sbbf_new(n, 1 %)
// (10.53 bits/key); lookups are n keys, half inserted, half not, shuffled,
// through bf_sbbf_contains_int64s counting only (as the peer comparison in
// shared/bench/peers-partitioned does) or writing out[] ("Out").
// Build: a fresh filter for n keys and one bf_sbbf_insert_int64s of all of
// them, allocation included. ns/key is CPU time of the calling thread per
// key (less disturbed than wall time on a shared machine); compare the modes
// of one n as ratios within one run.
// BM_Blocked*: the same for blocked filters (shape 0: 512/8/2 k = 8,
// cache-sectorized; 1: 64/1/1 k = 6, register-blocked) in the SBBF's bytes.
#include <benchmark/benchmark.h>

extern "C" {
#include <blockfilter.h>
#include <blockfilter_advanced.h>
}

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <vector>

namespace {

uint64_t mix(uint64_t *s) {
    uint64_t x = (*s += 0x9e3779b97f4a7c15ull);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

struct Data {
    std::vector<int64_t> keys, queries;
    std::vector<uint8_t> out;
    bf_sbbf *filter = nullptr;
    size_t present = 0;
    explicit Data(size_t n) : keys(n), queries(n), out(n) {
        uint64_t s = 1;
        // splitmix64 outputs of distinct states: distinct keys.
        for (auto &k : keys) k = int64_t(mix(&s));
        uint64_t t = 99;
        for (size_t i = 0; i < n; i++)
            queries[i] = i % 2 ? keys[mix(&t) % n] : int64_t(mix(&t));
        if (bf_sbbf_new(&filter, n, 0.01) != BF_OK) std::abort();
        bf_sbbf_set_partitioning(filter, BF_PARTITION_OFF);
        bf_sbbf_insert_int64s(filter, keys.data(), n);
        present = bf_sbbf_contains_int64s(filter, queries.data(), n, nullptr);
        if (bf_sbbf_contains_int64s(filter, keys.data(), n, nullptr) != n) std::abort();
    }
    ~Data() { bf_sbbf_free(filter); }
};

Data &data(size_t n) {
    static std::map<size_t, std::unique_ptr<Data>> cache;
    auto it = cache.find(n);
    if (it != cache.end()) return *it->second;
    cache.clear(); // one key set at a time: 10^8 keys take 1.6 GB
    auto &d = cache[n];
    d = std::make_unique<Data>(n);
    return *d;
}

void Lookup(benchmark::State &st, bool with_out) {
    const size_t n = size_t(st.range(0));
    Data &d = data(n);
    bf_sbbf_set_partitioning(d.filter, int(st.range(1)));
    for (auto _ : st) {
        size_t found = bf_sbbf_contains_int64s(d.filter, d.queries.data(), n,
                                               with_out ? d.out.data() : nullptr);
        if (found != d.present) st.SkipWithError("answers differ from the plain path");
        benchmark::DoNotOptimize(found);
    }
    st.counters["ns/key"] = benchmark::Counter(double(n) * double(st.iterations()),
                                               benchmark::Counter::kIsRate |
                                                   benchmark::Counter::kInvert);
    st.counters["MiB"] = double(bf_sbbf_num_bytes(d.filter)) / 1048576.0;
}

void BM_Lookup(benchmark::State &st) { Lookup(st, false); }
void BM_LookupOut(benchmark::State &st) { Lookup(st, true); }

void BM_Build(benchmark::State &st) {
    const size_t n = size_t(st.range(0));
    Data &d = data(n);
    for (auto _ : st) {
        bf_sbbf *f = nullptr;
        if (bf_sbbf_new(&f, n, 0.01) != BF_OK) std::abort();
        bf_sbbf_set_partitioning(f, int(st.range(1)));
        bf_sbbf_insert_int64s(f, d.keys.data(), n);
        st.PauseTiming();
        if (std::memcmp(bf_sbbf_bitset(f), bf_sbbf_bitset(d.filter), bf_sbbf_num_bytes(f)))
            st.SkipWithError("bits differ from the plain path");
        bf_sbbf_free(f);
        st.ResumeTiming();
    }
    st.counters["ns/key"] = benchmark::Counter(double(n) * double(st.iterations()),
                                               benchmark::Counter::kIsRate |
                                                   benchmark::Counter::kInvert);
}

// The blocked family: the shapes below, each in the SBBF filter's bytes
// (rounded up to whole 64-byte lines), through bf_blocked_contains_int64s
// (count only) and bf_blocked_insert_int64s.
const bf_blocked_shape blocked_shapes[] = {{512, 8, 2, 8}, {64, 1, 1, 6}};

bf_blocked *blocked_new(const Data &d, size_t shape) {
    bf_blocked *f = nullptr;
    uint64_t bytes = (bf_sbbf_num_bytes(d.filter) + 63) / 64 * 64;
    if (bf_blocked_new_bytes(&f, bytes, &blocked_shapes[shape]) != BF_OK) std::abort();
    return f;
}

struct Blocked {
    bf_blocked *filter = nullptr;
    size_t present = 0;
    ~Blocked() { bf_blocked_free(filter); }
};

Blocked &blocked(size_t n, size_t shape) {
    static std::map<std::pair<size_t, size_t>, std::unique_ptr<Blocked>> cache;
    auto key = std::make_pair(n, shape);
    auto it = cache.find(key);
    if (it != cache.end()) return *it->second;
    Data &d = data(n);
    for (auto i = cache.begin(); i != cache.end();) // one n at a time
        i = i->first.first == n ? std::next(i) : cache.erase(i);
    auto &b = cache[key];
    b = std::make_unique<Blocked>();
    b->filter = blocked_new(d, shape);
    bf_blocked_set_partitioning(b->filter, BF_PARTITION_OFF);
    bf_blocked_insert_int64s(b->filter, d.keys.data(), n);
    b->present = bf_blocked_contains_int64s(b->filter, d.queries.data(), n, nullptr);
    if (bf_blocked_contains_int64s(b->filter, d.keys.data(), n, nullptr) != n) std::abort();
    return *b;
}

void BM_BlockedLookup(benchmark::State &st) {
    const size_t n = size_t(st.range(0)), shape = size_t(st.range(2));
    Data &d = data(n);
    Blocked &b = blocked(n, shape);
    bf_blocked_set_partitioning(b.filter, int(st.range(1)));
    for (auto _ : st) {
        size_t found = bf_blocked_contains_int64s(b.filter, d.queries.data(), n, nullptr);
        if (found != b.present) st.SkipWithError("answers differ from the plain path");
        benchmark::DoNotOptimize(found);
    }
    st.counters["ns/key"] = benchmark::Counter(double(n) * double(st.iterations()),
                                               benchmark::Counter::kIsRate |
                                                   benchmark::Counter::kInvert);
    st.counters["MiB"] = double(bf_blocked_num_bytes(b.filter)) / 1048576.0;
}

void BM_BlockedBuild(benchmark::State &st) {
    const size_t n = size_t(st.range(0)), shape = size_t(st.range(2));
    Data &d = data(n);
    Blocked &b = blocked(n, shape);
    for (auto _ : st) {
        bf_blocked *f = blocked_new(d, shape);
        bf_blocked_set_partitioning(f, int(st.range(1)));
        bf_blocked_insert_int64s(f, d.keys.data(), n);
        st.PauseTiming();
        if (std::memcmp(bf_blocked_bitset(f), bf_blocked_bitset(b.filter),
                        size_t(bf_blocked_num_bytes(f))))
            st.SkipWithError("bits differ from the plain path");
        bf_blocked_free(f);
        st.ResumeTiming();
    }
    st.counters["ns/key"] = benchmark::Counter(double(n) * double(st.iterations()),
                                               benchmark::Counter::kIsRate |
                                                   benchmark::Counter::kInvert);
}

void BlockedArgs(benchmark::internal::Benchmark *b) {
    for (int64_t n : {10000000, 100000000})
        for (int64_t shape : {0, 1})
            for (int64_t mode : {BF_PARTITION_OFF, BF_PARTITION_ON, BF_PARTITION_AUTO})
                b->Args({n, mode, shape});
    b->ArgNames({"n", "mode", "shape"})->Unit(benchmark::kMillisecond);
}

void Args(benchmark::internal::Benchmark *b) {
    for (int64_t n : {1000000, 10000000, 100000000})
        for (int64_t mode : {BF_PARTITION_OFF, BF_PARTITION_ON, BF_PARTITION_AUTO})
            b->Args({n, mode});
    b->ArgNames({"n", "mode"})->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_Lookup)->Apply(Args);
BENCHMARK(BM_LookupOut)->Apply(Args);
BENCHMARK(BM_Build)->Apply(Args);
BENCHMARK(BM_BlockedLookup)->Apply(BlockedArgs);
BENCHMARK(BM_BlockedBuild)->Apply(BlockedArgs);

} // namespace

BENCHMARK_MAIN();
