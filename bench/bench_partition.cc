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
#include <benchmark/benchmark.h>

extern "C" {
#include <blockfilter.h>
#include <blockfilter_advanced.h>
}

#include <cstdint>
#include <cstdlib>
#include <cstring>
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

void Args(benchmark::internal::Benchmark *b) {
    for (int64_t n : {1000000, 10000000, 100000000})
        for (int64_t mode : {BF_PARTITION_OFF, BF_PARTITION_ON, BF_PARTITION_AUTO})
            b->Args({n, mode});
    b->ArgNames({"n", "mode"})->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_Lookup)->Apply(Args);
BENCHMARK(BM_LookupOut)->Apply(Args);
BENCHMARK(BM_Build)->Apply(Args);

} // namespace

BENCHMARK_MAIN();
