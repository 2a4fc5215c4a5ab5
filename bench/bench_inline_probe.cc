// The header's single-key SBBF loops against a bare probe written here, in
// one run, as ratios: the loop the side-by-side driver of public block
// filters runs (out[i] = bf_sbbf_contains_hash(f, h[i]) into a uint8_t
// array, and a loop of bf_sbbf_insert_hash), a bool-summing loop, and the
// same loops over a two-word struct (bitset pointer, block count) with the
// AVX2 probe the public block filters use. Both read the same bitset, so a
// ratio above 1 is the loop's code, not the memory. Also in the run: the
// 0.3.0 header's query (tag compare, then data and num_blocks) rebuilt
// here from the public layout, a read-only view (the header's fallback),
// the exported call, the batch calls, and the bare probe over a
// posix_memalign copy (the public filters' allocation) and over a copy on
// memory offered for huge pages (page placement). And Parquet's block
// index itself: the bare probe over the filter's first 2^k blocks, its
// multiply against the shift that gives the same blocks there (what a
// power-of-two filter indexed by a mask saves).
//
//   ./build/<dir>/bench/bench_inline_probe                  (Google Benchmark
//        series, then the paired ratios; flags below)
//   --bfp_n=1e6,1e7        filter sizes in keys (10.5 bits/key, 1 % model)
//   --bfp_kernels=avx2,avx512   --bfp_blocks=9 --bfp_slices=201
//   --bfp_no_series | --bfp_no_paired
//
// Built with -mavx2 -fno-strict-aliasing (bench/meson.build), as the
// driver builds its loops with -march=native -fno-strict-aliasing: every
// store may then alias the filter's fields, so each loop reloads what it
// reads of the filter at every key, the bare probe its two words.
//
// The series times passes of 2^20 keys. The paired ratios, steadier on a
// shared machine: the loop alternates with its baseline on slices of 16384
// keys (details at paired() below).
#include <benchmark/benchmark.h>

#include <blockfilter_advanced.h>

#include <immintrin.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

[[noreturn]] void fail(const char *what, const std::string &detail) {
    std::fprintf(stderr, "bench_inline_probe: %s: %s\n", what, detail.c_str());
    std::exit(1);
}

// ---- the bare probe: two words, the public block filters' AVX2 sequence --
struct Bare {
    uint8_t *bits;
    uint64_t num_blocks;
};

inline __m256i bare_mask(uint64_t h) {
    const __m256i salts = _mm256_setr_epi32(BF_SBBF_SALTS);
    __m256i x = _mm256_mullo_epi32(_mm256_set1_epi32(static_cast<int>(static_cast<uint32_t>(h))), salts);
    return _mm256_sllv_epi32(_mm256_set1_epi32(1), _mm256_srli_epi32(x, 27));
}
inline __m256i *bare_block(const Bare *b, uint64_t h) {
    return reinterpret_cast<__m256i *>(b->bits + ((h >> 32) * b->num_blocks >> 32) * 32);
}
inline bool bare_contains(const Bare *b, uint64_t h) {
    return _mm256_testc_si256(_mm256_load_si256(bare_block(b, h)), bare_mask(h));
}
inline void bare_insert(const Bare *b, uint64_t h) {
    __m256i *p = bare_block(b, h);
    _mm256_store_si256(p, _mm256_or_si256(_mm256_load_si256(p), bare_mask(h)));
}

// The block of a hash when the block count is 2^lg: Parquet's index,
// ((h >> 32) * 2^lg) >> 32, is then a shift, the same block with no
// multiply (the power-of-two filters of Impala and fastfilter index by a
// mask). Over the same bitset as bare_contains with num_blocks = 2^lg.
struct Pow2 {
    uint8_t *bits;
    uint64_t shift;  // 64 - lg
};
inline bool shift_contains(const Pow2 *b, uint64_t h) {
    const __m256i *p = reinterpret_cast<const __m256i *>(b->bits + (h >> b->shift) * 32);
    return _mm256_testc_si256(_mm256_load_si256(p), bare_mask(h));
}

// The 0.3.0 header's query, from the public layout: compare the tag
// (version and an AVX2-class kernel), then read data and num_blocks.
inline bool tag_contains(const bf_sbbf *f, uint64_t h) {
    const bf_sbbf_layout *l = reinterpret_cast<const bf_sbbf_layout *>(f);
    if (__builtin_expect(l->tag == BF_SBBF_TAG(BF_SBBF_KERNEL_AVX2) || l->tag == BF_SBBF_TAG(BF_SBBF_KERNEL_AVX512), 1)) {
        Bare b{const_cast<uint8_t *>(l->data), l->num_blocks};
        return bare_contains(&b, h);
    }
    return (bf_sbbf_contains_hash)(f, h);
}

// ---- one filter and its keys ---------------------------------------------
constexpr size_t kPass = size_t(1) << 20;  // queries or inserts per pass
constexpr size_t kBatch = 1024;

uint64_t splitmix(uint64_t &s) {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

struct Case {
    std::string kernel;
    uint64_t n = 0;
    size_t bytes = 0;
    bf_sbbf *f = nullptr;     // owned: the header's inline paths
    bf_sbbf *view = nullptr;  // read-only view of f's bitset
    Bare bare{};              // f's bitset, as two words
    Bare copy{};              // a posix_memalign copy of it
    Bare huge{};              // a copy on 2 MiB-aligned memory offered for huge pages
    Bare pow2{};              // f's first 2^lg blocks (the largest such), as two words
    Pow2 pow2_shift{};        // the same blocks, indexed by a shift
    void *huge_map = nullptr;
    size_t huge_len = 0;
    std::vector<uint64_t> ins;      // n inserted hashes
    std::vector<uint64_t> queries;  // kPass: half inserted, half fresh
    std::vector<uint8_t> out;
    ~Case() {
        bf_sbbf_free(view);
        bf_sbbf_free(f);
        std::free(copy.bits);
        if (huge_map) munmap(huge_map, huge_len);
    }
};

// ---- the loops (one function each, as the driver's lambdas are) ----------
// Each runs keys [at, at + m) of its array: the queries (answers into out)
// or the inserted hashes (re-inserted: the bits stay).
using Loop = size_t (*)(Case &, size_t at, size_t m);
#define BFP_LOOP __attribute__((noinline)) size_t

// The driver's loop (answers into a byte array), a summing loop and an
// insert loop, over what `on` reads the filter through.
template <class On, class Probe>
inline size_t u8_loop(On on, Case &c, size_t at, size_t m, Probe probe) {
    const uint64_t *h = c.queries.data() + at;
    uint8_t *out = c.out.data() + at;
    for (size_t i = 0; i < m; i++) out[i] = probe(on, h[i]);
    return out[0];
}
template <class On, class Probe>
inline size_t sum_loop(On on, Case &c, size_t at, size_t m, Probe probe) {
    const uint64_t *h = c.queries.data() + at;
    size_t found = 0;
    for (size_t i = 0; i < m; i++) found += probe(on, h[i]);
    return found;
}
template <class On, class Insert>
inline size_t insert_loop(On on, Case &c, size_t at, size_t m, Insert insert) {
    const uint64_t *h = c.ins.data() + at;
    int rc = 0;
    for (size_t i = 0; i < m; i++) rc |= insert(on, h[i]);
    return static_cast<size_t>(rc);
}
// The probes and inserts (lambdas, so each loop inlines its own).
constexpr auto header_contains = [](const bf_sbbf *f, uint64_t h) { return bf_sbbf_contains_hash(f, h); };
constexpr auto call_contains = [](const bf_sbbf *f, uint64_t h) { return (bf_sbbf_contains_hash)(f, h); };
constexpr auto tag_probe = [](const bf_sbbf *f, uint64_t h) { return tag_contains(f, h); };
constexpr auto bare_probe = [](const Bare *b, uint64_t h) { return bare_contains(b, h); };
constexpr auto shift_probe = [](const Pow2 *b, uint64_t h) { return shift_contains(b, h); };
constexpr auto header_insert = [](bf_sbbf *f, uint64_t h) { return bf_sbbf_insert_hash(f, h); };
constexpr auto call_insert = [](bf_sbbf *f, uint64_t h) { return (bf_sbbf_insert_hash)(f, h); };
constexpr auto bare_set = [](const Bare *b, uint64_t h) {
    bare_insert(b, h);
    return 0;
};

BFP_LOOP hdr_u8(Case &c, size_t at, size_t m) { return u8_loop(c.f, c, at, m, header_contains); }
BFP_LOOP tag_u8(Case &c, size_t at, size_t m) { return u8_loop(c.f, c, at, m, tag_probe); }
BFP_LOOP view_u8(Case &c, size_t at, size_t m) { return u8_loop(c.view, c, at, m, header_contains); }
BFP_LOOP call_u8(Case &c, size_t at, size_t m) { return u8_loop(c.f, c, at, m, call_contains); }
BFP_LOOP bare_u8(Case &c, size_t at, size_t m) { return u8_loop(&c.bare, c, at, m, bare_probe); }
BFP_LOOP copy_u8(Case &c, size_t at, size_t m) { return u8_loop(&c.copy, c, at, m, bare_probe); }
BFP_LOOP huge_u8(Case &c, size_t at, size_t m) { return u8_loop(&c.huge, c, at, m, bare_probe); }
BFP_LOOP pow2_u8(Case &c, size_t at, size_t m) { return u8_loop(&c.pow2, c, at, m, bare_probe); }
BFP_LOOP shift_u8(Case &c, size_t at, size_t m) { return u8_loop(&c.pow2_shift, c, at, m, shift_probe); }
BFP_LOOP hdr_sum(Case &c, size_t at, size_t m) { return sum_loop(c.f, c, at, m, header_contains); }
BFP_LOOP bare_sum(Case &c, size_t at, size_t m) { return sum_loop(&c.bare, c, at, m, bare_probe); }
BFP_LOOP hdr_ins(Case &c, size_t at, size_t m) { return insert_loop(c.f, c, at, m, header_insert); }
BFP_LOOP call_ins(Case &c, size_t at, size_t m) { return insert_loop(c.f, c, at, m, call_insert); }
BFP_LOOP bare_ins(Case &c, size_t at, size_t m) { return insert_loop(&c.bare, c, at, m, bare_set); }
// The batch calls, 1024 keys a call.
BFP_LOOP batch_u8(Case &c, size_t at, size_t m) {
    for (size_t i = at; i < at + m; i += kBatch)
        bf_sbbf_contains_hashes(c.f, c.queries.data() + i, std::min(kBatch, at + m - i), c.out.data() + i);
    return c.out[at];
}
BFP_LOOP batch_ins(Case &c, size_t at, size_t m) {
    int rc = 0;
    for (size_t i = at; i < at + m; i += kBatch)
        rc |= bf_sbbf_insert_hashes(c.f, c.ins.data() + i, std::min(kBatch, at + m - i));
    return static_cast<size_t>(rc);
}

struct Variant {
    const char *name;
    Loop loop;
    const char *baseline;  // the ratio's denominator
};
const Variant kVariants[] = {
    {"contains_u8/bare", bare_u8, nullptr},
    {"contains_u8/header", hdr_u8, "contains_u8/bare"},
    {"contains_u8/tag_0.3.0", tag_u8, "contains_u8/bare"},
    {"contains_u8/view", view_u8, "contains_u8/bare"},
    {"contains_u8/call", call_u8, "contains_u8/bare"},
    {"contains_u8/batch1024", batch_u8, "contains_u8/bare"},
    {"contains_u8/bare_memalign", copy_u8, "contains_u8/bare"},
    {"contains_u8/bare_hugepage", huge_u8, "contains_u8/bare"},
    {"index_u8/multiply", pow2_u8, nullptr},
    {"index_u8/shift", shift_u8, "index_u8/multiply"},
    {"contains_sum/bare", bare_sum, nullptr},
    {"contains_sum/header", hdr_sum, "contains_sum/bare"},
    {"insert/bare", bare_ins, nullptr},
    {"insert/header", hdr_ins, "insert/bare"},
    {"insert/call", call_ins, "insert/bare"},
    {"insert/batch1024", batch_ins, "insert/bare"},
};
const Variant *variant(const std::string &name) {
    for (const Variant &v : kVariants)
        if (name == v.name) return &v;
    return nullptr;
}

// Builds a filter of n keys and checks every loop's answers against the
// bare probe's (and no inserted key missed).
std::unique_ptr<Case> make_case(const std::string &kernel, uint64_t n) {
    auto c = std::make_unique<Case>();
    c->kernel = kernel;
    c->n = std::max<uint64_t>(n, kPass);
    if (bf_sbbf_compact_bytes(n, 0.01, &c->bytes) != BF_OK) fail("compact_bytes", std::to_string(n));
    int rc = bf_sbbf_new_bytes_kernel(&c->f, c->bytes, kernel.c_str());
    if (rc != BF_OK) fail("bf_sbbf_new_bytes_kernel", bf_strerror(rc));
    if (!bf_sbbf_inline_ok(c->f)) fail("no inline path for kernel", kernel);
    rc = bf_sbbf_view_kernel(&c->view, bf_sbbf_bitset(c->f), c->bytes, kernel.c_str());
    if (rc != BF_OK) fail("bf_sbbf_view_kernel", bf_strerror(rc));
    uint64_t s = 0x1234567887654321ull ^ n;
    c->ins.resize(c->n);
    for (uint64_t &h : c->ins) h = splitmix(s);
    // n keys (the first kPass re-inserted when n is smaller: same bits).
    if (bf_sbbf_insert_hashes(c->f, c->ins.data(), n) != BF_OK) fail("insert", kernel);
    for (uint64_t i = n; i < c->n; i++) c->ins[i] = c->ins[i % n];
    c->bare = {const_cast<uint8_t *>(static_cast<const uint8_t *>(bf_sbbf_bitset(c->f))),
               c->bytes / BF_SBBF_BLOCK_BYTES};
    void *p = nullptr;
    if (posix_memalign(&p, 64, c->bytes) != 0) fail("posix_memalign", std::to_string(c->bytes));
    std::memcpy(p, bf_sbbf_bitset(c->f), c->bytes);
    c->copy = {static_cast<uint8_t *>(p), c->bare.num_blocks};
    const size_t huge_page = size_t(2) << 20;
    c->huge_len = (c->bytes + 2 * huge_page - 1) / huge_page * huge_page;
    c->huge_map = mmap(nullptr, c->huge_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (c->huge_map == MAP_FAILED) fail("mmap", std::to_string(c->huge_len));
    uint8_t *aligned = reinterpret_cast<uint8_t *>(
        (reinterpret_cast<uintptr_t>(c->huge_map) + huge_page - 1) & ~(uintptr_t)(huge_page - 1));
    madvise(aligned, c->bytes, MADV_HUGEPAGE);
    std::memcpy(aligned, bf_sbbf_bitset(c->f), c->bytes);
    c->huge = {aligned, c->bare.num_blocks};
    unsigned lg = 0;
    while ((uint64_t(2) << lg) <= c->bare.num_blocks && lg < 32) lg++;
    if (lg == 0) fail("one block: no index pair (a shift by 64)", std::to_string(n));
    c->pow2 = {c->bare.bits, uint64_t(1) << lg};
    c->pow2_shift = {c->bare.bits, 64u - lg};
    c->queries.resize(kPass);
    c->out.resize(kPass);
    std::vector<uint8_t> present(kPass);
    for (size_t i = 0; i < kPass; i++) {
        present[i] = i % 2 == 0;
        c->queries[i] = present[i] ? c->ins[splitmix(s) % n] : splitmix(s);
    }
    bare_u8(*c, 0, kPass);
    std::vector<uint8_t> want = c->out;
    size_t sum = 0;
    for (size_t i = 0; i < kPass; i++) {
        if (present[i] && !want[i]) fail("false negative", kernel);
        sum += want[i];
    }
    for (const Variant &v : kVariants) {
        if (std::strncmp(v.name, "contains_", 9) != 0) continue;
        std::memset(c->out.data(), 0xAA, kPass);
        size_t r = v.loop(*c, 0, kPass);
        bool same = std::strncmp(v.name, "contains_sum", 12) == 0 ? r == sum : c->out == want;
        if (!same) fail("answers differ from the bare probe's", std::string(v.name) + " " + kernel);
    }
    pow2_u8(*c, 0, kPass);
    want = c->out;
    std::memset(c->out.data(), 0xAA, kPass);
    shift_u8(*c, 0, kPass);
    if (c->out != want) fail("the shift's blocks differ from the multiply's", kernel);
    return c;
}

std::vector<uint64_t> g_ns{1000000, 10000000};
std::vector<std::string> g_kernels{"avx2", "avx512"};
int g_blocks = 9, g_slices = 201;
std::map<std::string, std::unique_ptr<Case>> g_cases;

std::string case_key(const std::string &kernel, uint64_t n) { return kernel + "/n:" + std::to_string(n); }
Case &get_case(const std::string &kernel, uint64_t n) {
    std::unique_ptr<Case> &c = g_cases[case_key(kernel, n)];
    if (!c) c = make_case(kernel, n);
    return *c;
}

// ---- the Google Benchmark series -----------------------------------------
void register_series() {
    for (const std::string &k : g_kernels)
        for (uint64_t n : g_ns)
            for (const Variant &v : kVariants) {
                std::string name = std::string(v.name) + "/" + case_key(k, n);
                Loop loop = v.loop;
                benchmark::RegisterBenchmark(name.c_str(), [k, n, loop](benchmark::State &st) {
                    Case &c = get_case(k, n);
                    for (auto _ : st) benchmark::DoNotOptimize(loop(c, 0, kPass));
                    st.SetItemsProcessed(static_cast<int64_t>(st.iterations() * kPass));
                    st.counters["ns/key"] = benchmark::Counter(
                        static_cast<double>(st.iterations() * kPass),
                        benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
                })->Unit(benchmark::kMillisecond);
            }
}

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// Console output, then each variant's median time over its baseline's
// (the repetitions' medians when --benchmark_repetitions is given).
class SeriesRatios : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run> &runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run &r : runs)
            if (r.run_type == Run::RT_Iteration && !r.error_occurred)
                times_[r.benchmark_name()].push_back(r.GetAdjustedRealTime());
    }
    void Finalize() override {
        ConsoleReporter::Finalize();
        std::printf("\n%-58s %7s  (Google Benchmark series, medians of real time)\n", "loop / baseline", "ratio");
        for (const std::string &k : g_kernels)
            for (uint64_t n : g_ns)
                for (const Variant &v : kVariants) {
                    if (!v.baseline) continue;
                    std::string suffix = "/" + case_key(k, n);
                    auto a = times_.find(v.name + suffix), b = times_.find(v.baseline + suffix);
                    if (a == times_.end() || b == times_.end()) continue;
                    std::string label = std::string(v.name) + " / " + v.baseline + suffix;
                    std::printf("%-58s %7.3f\n", label.c_str(), median_of(a->second) / median_of(b->second));
                }
    }

private:
    std::map<std::string, std::vector<double>> times_;
};

// ---- the paired ratios ---------------------------------------------------
// A loop and its baseline alternate on slices of kSlice keys, the order
// swapping every pair; each takes the next slice of its array, so neither
// finds the blocks the other just read in its caches. The ratio of each
// pair; the median per block of --bfp_slices pairs; the median and range
// of the blocks.
constexpr size_t kSlice = 16384;

double seconds(Loop loop, Case &c, size_t at) {
    auto t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(loop(c, at, kSlice));
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void paired() {
    std::printf("\n%-58s %7s %15s %8s  (%d blocks of %d alternating pairs of %zu keys)\n",
                "loop / baseline, paired", "median", "min-max", "ns/key", g_blocks, g_slices, kSlice);
    for (const std::string &k : g_kernels)
        for (uint64_t n : g_ns) {
            Case &c = get_case(k, n);
            for (const Variant &v : kVariants) {
                if (!v.baseline) continue;
                Loop a = v.loop, b = variant(v.baseline)->loop;
                a(c, 0, kPass), b(c, 0, kPass);  // warm
                std::vector<double> blocks, per_key;
                size_t at = 0;
                auto next = [&at]() {
                    size_t here = at;
                    at = (at + kSlice) % kPass;
                    return here;
                };
                for (int blk = 0; blk < g_blocks; blk++) {
                    std::vector<double> ratios;
                    for (int s = 0; s < g_slices; s++) {
                        double ta, tb;
                        if (s % 2) {
                            tb = seconds(b, c, next());
                            ta = seconds(a, c, next());
                        } else {
                            ta = seconds(a, c, next());
                            tb = seconds(b, c, next());
                        }
                        ratios.push_back(ta / tb);
                        per_key.push_back(ta * 1e9 / kSlice);
                    }
                    blocks.push_back(median_of(ratios));
                }
                auto [lo, hi] = std::minmax_element(blocks.begin(), blocks.end());
                std::string label = std::string(v.name) + " / " + v.baseline + "/" + case_key(k, n);
                std::printf("%-58s %7.3f %7.3f-%-7.3f %8.2f\n", label.c_str(), median_of(blocks), *lo, *hi,
                            median_of(per_key));
                std::fflush(stdout);
            }
        }
}

// KiB of [p, p + len) on transparent huge pages (the AnonHugePages of the
// mappings it overlaps, at most the overlap each); -1 if unknown.
long huge_kib(const void *p, size_t len) {
    FILE *maps = std::fopen("/proc/self/smaps", "r");
    if (!maps) return -1;
    const uintptr_t lo = reinterpret_cast<uintptr_t>(p), hi = lo + len;
    uintptr_t overlap = 0;
    long total = 0, kib = 0;
    char line[512];
    while (std::fgets(line, sizeof line, maps)) {
        unsigned long a, b;
        char dash;
        if (std::sscanf(line, "%lx%c%lx ", &a, &dash, &b) == 3 && dash == '-')
            overlap = a < hi && b > lo ? std::min<uintptr_t>(b, hi) - std::max<uintptr_t>(a, lo) : 0;
        else if (overlap && std::sscanf(line, "AnonHugePages: %ld kB", &kib) == 1)
            total += std::min<long>(kib, static_cast<long>(overlap / 1024));
    }
    std::fclose(maps);
    return total;
}

template <class T, class Parse>
std::vector<T> split_list(const std::string &s, Parse parse) {
    std::vector<T> out;
    size_t p = 0;
    while (p <= s.size()) {
        size_t e = s.find(',', p);
        if (e == std::string::npos) e = s.size();
        if (e > p) out.push_back(parse(s.substr(p, e - p)));
        p = e + 1;
    }
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    if (!bf_sbbf_kernel_supported("avx2")) {
        std::printf("bench_inline_probe: built for AVX2, which this CPU lacks: skipped\n");
        return 0;
    }
    bool series = true, pairs = true;
    int kept = 1;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto value = [&a]() { return a.substr(a.find('=') + 1); };
        if (a.rfind("--bfp_n=", 0) == 0)
            g_ns = split_list<uint64_t>(value(), [](const std::string &x) { return static_cast<uint64_t>(std::stod(x)); });
        else if (a.rfind("--bfp_kernels=", 0) == 0)
            g_kernels = split_list<std::string>(value(), [](const std::string &x) { return x; });
        else if (a.rfind("--bfp_blocks=", 0) == 0)
            g_blocks = std::max(1, std::stoi(value()));
        else if (a.rfind("--bfp_slices=", 0) == 0)
            g_slices = std::max(1, std::stoi(value()));
        else if (a == "--bfp_no_series")
            series = false;
        else if (a == "--bfp_no_paired")
            pairs = false;
        else
            argv[kept++] = argv[i];
    }
    argc = kept;
    std::vector<std::string> runnable;
    for (const std::string &k : g_kernels)
        if (bf_sbbf_kernel_supported(k.c_str())) runnable.push_back(k);
        else std::printf("kernel %s cannot run here: skipped\n", k.c_str());
    g_kernels = runnable;
    for (uint64_t n : g_ns)
        if (n == 0) fail("--bfp_n", "0 keys");
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    for (const std::string &k : g_kernels)
        for (uint64_t n : g_ns) {
            Case &c = get_case(k, n);
            std::printf("%s: %zu bytes; KiB on huge pages: the filter's %ld, the memalign copy's %ld, "
                        "the hugepage copy's %ld\n",
                        case_key(k, n).c_str(), c.bytes, huge_kib(c.bare.bits, c.bytes),
                        huge_kib(c.copy.bits, c.bytes), huge_kib(c.huge.bits, c.bytes));
        }
    if (series) {
        register_series();
        SeriesRatios reporter;
        benchmark::RunSpecifiedBenchmarks(&reporter);
    }
    benchmark::Shutdown();
    if (pairs) paired();
    return 0;
}
