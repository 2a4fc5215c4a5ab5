// blockfilter_bench_parquet: the two goals of Parquet file support.
//
//  - Listing: open (parse the footer of) a file of 1 000 row groups x 50
//    columns, then read every column's and chunk's metadata, as a listing
//    prints it (BM_ParquetList), and the same with every filter located
//    (its header read: BM_ParquetListFilters). Goal: under 10 ms.
//  - Probing: 10^5 INT64 values against one column over 100 row groups
//    (10^4 distinct values and a 16 KiB filter per chunk; statistics span
//    the whole range, so only the filters prune): bf_parquet_probe_batch_packed
//    (BM_ParquetProbeBatch) against the floor it is built on, hashing the
//    values once plus bf_sbbf_contains_hashes over the same 100 filters
//    (BM_HashPlusContains). Goal: at most 2x.
//  - The same probe over clustered data (BM_ParquetProbeBatchClustered):
//    each row group holds its own range of values, so statistics rule out
//    99 of 100 row groups for every value and the filters judge the rest.
//
// Run: build/<dir>/bench/blockfilter_bench_parquet --benchmark_repetitions=5
//        --benchmark_report_aggregates_only=true
#include "parquet_fixture.h"

#include <benchmark/benchmark.h>
#include <blockfilter.h>
#include <blockfilter_parquet.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct File {
    uint8_t *data = nullptr;
    size_t len = 0;
    std::vector<int64_t> values;
};

File &footer_file() {
    static File f = [] {
        File x;
        if (bench_parquet_file(1000, 50, 1, 1, 0, &x.data, &x.len, nullptr) != 0) std::abort();
        return x;
    }();
    return f;
}

constexpr size_t kProbeRgs = 100, kProbeRows = 10000, kQueries = 100000;

File make_probe_file(int clustered) {
    File x;
    x.values.resize(kProbeRgs * kProbeRows);
    if (bench_parquet_file(kProbeRgs, 1, kProbeRows, 2, clustered, &x.data, &x.len,
                           x.values.data()) != 0)
        std::abort();
    return x;
}

File &probe_file(bool clustered = false) {
    static File f = make_probe_file(0), c = make_probe_file(1);
    return clustered ? c : f;
}

// Half the queries present (somewhere in the file), half random over the
// values' range.
std::vector<int64_t> make_queries(bool clustered) {
    std::vector<int64_t> v(kQueries);
    const File &f = probe_file(clustered);
    uint64_t s = 12345;
    for (size_t i = 0; i < kQueries; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t r = (s ^ (s >> 29)) >> 1;
        if (clustered) r %= (uint64_t)kProbeRgs << 55;
        v[i] = (i & 1) ? (int64_t)r : f.values[(s >> 20) % f.values.size()];
    }
    return v;
}

std::vector<int64_t> &queries(bool clustered = false) {
    static std::vector<int64_t> q = make_queries(false), c = make_queries(true);
    return clustered ? c : q;
}

void list(benchmark::State &state, bool filters) {
    const File &f = footer_file();
    size_t chunks = 0;
    for (auto _ : state) {
        bf_parquet_file *pf = nullptr;
        if (bf_parquet_open_buffer(&pf, f.data, f.len) != BF_OK) std::abort();
        size_t nrg = bf_parquet_num_row_groups(pf), ncol = bf_parquet_num_columns(pf);
        int64_t sum = 0;
        for (size_t c = 0; c < ncol; c++) {
            bf_parquet_column ci;
            bf_parquet_column_info(pf, c, &ci);
            sum += ci.physical_type;
        }
        for (size_t rg = 0; rg < nrg; rg++) {
            bf_parquet_row_group g;
            bf_parquet_row_group_info(pf, rg, &g);
            sum += g.num_rows;
            for (size_t c = 0; c < ncol; c++) {
                bf_parquet_chunk k;
                bf_parquet_chunk_info(pf, rg, c, &k);
                sum += k.num_values + k.bloom_filter_offset;
                if (filters) {
                    uint64_t off, len, nb;
                    if (bf_parquet_bloom_filter_location(pf, rg, c, &off, &len, &nb) != BF_OK)
                        std::abort();
                    sum += (int64_t)nb;
                }
            }
        }
        chunks = nrg * ncol;
        benchmark::DoNotOptimize(sum);
        bf_parquet_close(pf);
    }
    state.counters["chunks"] = (double)chunks;
    state.counters["footer_bytes"] = 0;
    bf_parquet_file *pf = nullptr;
    if (bf_parquet_open_buffer(&pf, f.data, f.len) == BF_OK) {
        state.counters["footer_bytes"] = (double)bf_parquet_footer_size(pf);
        bf_parquet_close(pf);
    }
}

void BM_ParquetList(benchmark::State &state) { list(state, false); }
void BM_ParquetListFilters(benchmark::State &state) { list(state, true); }

void probe_batch(benchmark::State &state, bool clustered) {
    const File &f = probe_file(clustered);
    const std::vector<int64_t> &q = queries(clustered);
    std::vector<uint8_t> packed(q.size() * 8);
    for (size_t i = 0; i < q.size(); i++)
        for (int k = 0; k < 8; k++) packed[i * 8 + k] = (uint8_t)((uint64_t)q[i] >> (8 * k));
    bf_parquet_file *pf = nullptr;
    if (bf_parquet_open_buffer(&pf, f.data, f.len) != BF_OK) std::abort();
    std::vector<uint8_t> out(kProbeRgs * q.size());
    size_t maybe = 0;
    for (auto _ : state) {
        if (bf_parquet_probe_batch_packed(pf, 0, packed.data(), q.size(), 0, out.data()) != BF_OK)
            std::abort();
        benchmark::ClobberMemory();
    }
    for (uint8_t v : out) maybe += v == BF_PARQUET_MAYBE;
    state.counters["maybe"] = (double)maybe;
    state.counters["ns_per_value"] = benchmark::Counter(
        (double)q.size(), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    bf_parquet_close(pf);
}

void BM_ParquetProbeBatch(benchmark::State &state) { probe_batch(state, false); }
void BM_ParquetProbeBatchClustered(benchmark::State &state) { probe_batch(state, true); }

void BM_HashPlusContains(benchmark::State &state) {
    const File &f = probe_file();
    const std::vector<int64_t> &q = queries();
    bf_parquet_file *pf = nullptr;
    if (bf_parquet_open_buffer(&pf, f.data, f.len) != BF_OK) std::abort();
    std::vector<bf_sbbf *> views(kProbeRgs);
    for (size_t rg = 0; rg < kProbeRgs; rg++)
        if (bf_parquet_bloom_filter(pf, rg, 0, &views[rg]) != BF_OK) std::abort();
    std::vector<uint64_t> h(q.size());
    std::vector<uint8_t> out(kProbeRgs * q.size());
    size_t maybe = 0;
    for (auto _ : state) {
        for (size_t i = 0; i < q.size(); i++) h[i] = bf_hash_int64(q[i]);
        for (size_t rg = 0; rg < kProbeRgs; rg++)
            bf_sbbf_contains_hashes(views[rg], h.data(), q.size(), out.data() + rg * q.size());
        benchmark::ClobberMemory();
    }
    for (uint8_t v : out) maybe += v;
    state.counters["maybe"] = (double)maybe;
    state.counters["ns_per_value"] = benchmark::Counter(
        (double)q.size(), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    for (bf_sbbf *v : views) bf_sbbf_free(v);
    bf_parquet_close(pf);
}

}  // namespace

BENCHMARK(BM_ParquetList)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParquetListFilters)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParquetProbeBatch)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HashPlusContains)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParquetProbeBatchClustered)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
