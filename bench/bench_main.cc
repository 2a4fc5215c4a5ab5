// blockfilter_bench: every family across n, fpp and threads, the SBBF
// kernels on filters sized for L1/L2/L3/DRAM, and the machine's memory
// limit, all in one Google Benchmark run.
//
// Own flags (the rest goes to Google Benchmark):
//   --bf_quick | --bf_full          matrix size (default: the ~5 minute one)
//   --bf_n=1e4,1e6  --bf_fpp=0.01,0.001  --bf_families=sbbf,bloom,...,scalable
//   (also sbbf-header,sbbf-typed,sbbf-binary: the key paths, at the
//   reference fpp, with --bf_key_kernels=avx512,... (default: the best))
//   --bf_kernels=scalar,avx2  --bf_threads=1,2  --bf_thread_n=1e6
//   --bf_kernel_sizes=16384,...  --bf_1gib  --bf_hash=excluded|included|both
//   --bf_seed=N  --bf_fpr_keys=N  --bf_queries=N  --bf_min_time=S
//   --bf_only=matrix,kernels,scaling
//   --bf_shape_n=1e6,1e8 (the cuckoo-shapes series' n; default: --bf_n if
//   given, else 1e6, and 1e8 too in --bf_full)  --bf_loadavg_interval=S
//   --bf_design_n=1e5,1e6 --bf_design_bpk=8,12 --bf_design_fpr_keys=N (the
//   design-space series, design.cc; default 1e6, --bf_full 1e5..1e8 and 10^7
//   absent keys)  --bf_design_peer_part_n=1e7 (the n from which the
//   partitioned peers run, in a build with -Dbench_peers; design_peers.cc)
#include "adapters.h"
#include "adapters_keys.h"
#include "bench.h"

#include <benchmark/benchmark.h>

#include <cinttypes>
#include <cmath>
#include <cstring>
#include <iostream>
#include <memory>
#include <sstream>
#include <type_traits>

namespace bfb {
namespace {

// ---------------------------------------------------------------------------
// What an adapter offers beyond hashes (adapters_keys.h): its own loop of
// single-key calls (kLoops: the header paths, whose point is to inline into
// the caller's loop), or batch calls that take keys (kKeyBatch), and which
// benchmarks it wants (wants(batch, hashed, pct); every one by default).
template <class A, class = void> struct has_loops : std::false_type {};
template <class A> struct has_loops<A, std::void_t<decltype(A::kLoops)>> : std::true_type {};
template <class A, class = void> struct has_key_batch : std::false_type {};
template <class A> struct has_key_batch<A, std::void_t<decltype(A::kKeyBatch)>> : std::true_type {};
template <class A, class = void> struct has_wants : std::false_type {};
template <class A>
struct has_wants<A, std::void_t<decltype(A::wants(true, true, 0))>> : std::true_type {};
template <class A>
bool wants(bool batch, bool hashed, int pct) {
    if constexpr (has_wants<A>::value) return A::wants(batch, hashed, pct);
    else return true;
}
template <class A>
size_t contains_keys(const typename A::F *f, const uint64_t *keys, size_t n, uint8_t *out) {
    if constexpr (has_key_batch<A>::value) return A::contains_keys(f, keys, n, out);
    else return die("%s takes no keys", "adapter"), 0;
}
template <class A>
int insert_keys(typename A::F *f, const uint64_t *keys, size_t n) {
    if constexpr (has_key_batch<A>::value) return A::insert_keys(f, keys, n);
    else return die("%s takes no keys", "adapter"), 0;
}

// ---------------------------------------------------------------------------
// Option parsing.
std::vector<std::string> split(const std::string &s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ','))
        if (!item.empty()) out.push_back(item);
    return out;
}
uint64_t parse_u64(const std::string &s) {
    char *end;
    double d = std::strtod(s.c_str(), &end);  // accepts 1e6
    if (*end || !(d >= 0) || d > 1.8e19) die("bad number '%s'", s.c_str());
    return (uint64_t)std::llround(d);
}
double parse_double(const std::string &s) {
    char *end;
    double d = std::strtod(s.c_str(), &end);
    if (*end || !std::isfinite(d)) die("bad number '%s'", s.c_str());
    return d;
}

void set_mode_defaults(Options &o) {
    int cores = num_cores();
    o.threads.clear();
    for (int t = 1; t <= cores; t++) o.threads.push_back(t);
    if (o.mode == "quick") {
        o.ns = {10000, 100000};
        o.fpps = {0.1, 0.01};
        o.thread_ns = {100000};
        o.kernel_sizes = {16u << 10, 256u << 10};
        o.fpr_keys = 100000;
        o.queries = 1u << 14;
        o.min_time = 0.005;
        o.shape_ns = {10000};
        o.design_ns = {10000};
        o.design_bpks = {8, 16};
        o.design_fpr_keys = 100000;
    } else if (o.mode == "full") {
        o.ns = {10000, 100000, 1000000, 10000000, 100000000};
        o.fpps = {0.1, 0.01, 0.001, 0.0001};
        o.thread_ns = {1000000, 100000000};
        o.kernel_sizes = {16u << 10, 256u << 10, 8u << 20, 1u << 30};
        o.fpr_keys = 4000000;
        o.queries = 1u << 18;
        o.min_time = 0.2;
        o.shape_ns = {1000000, 100000000};
        o.design_ns = {100000, 1000000, 10000000, 100000000};
        o.design_bpks = {8, 10, 12, 16};
        o.design_fpr_keys = 10000000;
    } else {
        o.ns = {10000, 100000, 1000000, 10000000};
        o.fpps = {0.1, 0.01, 0.001};
        o.thread_ns = {1000000};
        o.sweep_max_n = 1000000;  // n = 1e7 at fpp 1% only: keeps the run near 5 minutes
        o.kernel_sizes = {16u << 10, 256u << 10, 8u << 20};
        o.fpr_keys = 1000000;
        o.queries = 1u << 16;
        o.min_time = 0.05;
        o.shape_ns = {1000000};
        o.design_ns = {1000000};
        o.design_bpks = {8, 10, 12, 16};
        o.design_fpr_keys = 1000000;
    }
    o.families = {"sbbf", "bloom", "counting", "cuckoo", "scalable", "cuckoo-shapes", "design"};
    o.key_families = {"sbbf-header", "sbbf-typed", "sbbf-binary"};
}

bool is_key_family(const std::string &f) {
    return f == "sbbf-header" || f == "sbbf-typed" || f == "sbbf-binary";
}

// Removes the --bf_* flags from argv.
void parse_options(int *argc, char **argv) {
    Options &o = options();
    std::vector<std::pair<std::string, std::string>> flags;
    int w = 1;
    for (int i = 1; i < *argc; i++) {
        std::string a = argv[i];
        if (a.compare(0, 5, "--bf_") != 0) {
            argv[w++] = argv[i];
            continue;
        }
        auto eq = a.find('=');
        flags.emplace_back(a.substr(5, eq == std::string::npos ? std::string::npos : eq - 5),
                           eq == std::string::npos ? "" : a.substr(eq + 1));
    }
    *argc = w;
    argv[w] = nullptr;
    for (auto &f : flags) {
        if (f.first == "quick") o.mode = "quick";
        if (f.first == "full") o.mode = "full";
    }
    set_mode_defaults(o);
    bool want_1gib = false;
    for (auto &f : flags) {
        const std::string &k = f.first, &v = f.second;
        if (k == "quick" || k == "full") continue;
        else if (k == "n") {
            o.ns.clear();
            for (auto &s : split(v)) o.ns.push_back(parse_u64(s));
            if (!o.shape_ns_set) o.shape_ns = o.ns;
        }
        else if (k == "shape_n") {
            o.shape_ns.clear();
            for (auto &s : split(v)) o.shape_ns.push_back(parse_u64(s));
            o.shape_ns_set = true;
        }
        else if (k == "design_n") {
            o.design_ns.clear();
            for (auto &s : split(v)) o.design_ns.push_back(parse_u64(s));
        }
        else if (k == "design_bpk") {
            o.design_bpks.clear();
            for (auto &s : split(v)) o.design_bpks.push_back((unsigned)parse_u64(s));
        }
        else if (k == "design_fpr_keys") o.design_fpr_keys = parse_u64(v);
        else if (k == "design_peer_part_n") o.design_peer_part_n = parse_u64(v);
        else if (k == "loadavg_interval") o.loadavg_interval = parse_double(v);
        else if (k == "fpp") { o.fpps.clear(); for (auto &s : split(v)) o.fpps.push_back(parse_double(s)); }
        else if (k == "families") {
            o.families.clear();
            o.key_families.clear();
            for (auto &f : split(v)) (is_key_family(f) ? o.key_families : o.families).push_back(f);
        }
        else if (k == "key_kernels") o.key_kernels = split(v);
        else if (k == "kernels") o.kernels = split(v);
        else if (k == "threads") { o.threads.clear(); for (auto &s : split(v)) o.threads.push_back((int)parse_u64(s)); }
        else if (k == "thread_n") { o.thread_ns.clear(); for (auto &s : split(v)) o.thread_ns.push_back(parse_u64(s)); }
        else if (k == "kernel_sizes") { o.kernel_sizes.clear(); for (auto &s : split(v)) o.kernel_sizes.push_back(parse_u64(s)); }
        else if (k == "1gib") want_1gib = true;
        else if (k == "hash") o.hash = v;
        else if (k == "hash_included_fpp" || k == "ref_fpp") o.hash_included_fpp = parse_double(v);
        else if (k == "sweep_max_n") o.sweep_max_n = v == "all" ? UINT64_MAX : parse_u64(v);
        else if (k == "seed") o.seed = std::strtoull(v.c_str(), nullptr, 0);
        else if (k == "fpr_keys") o.fpr_keys = parse_u64(v);
        else if (k == "queries") o.queries = parse_u64(v);
        else if (k == "min_time") o.min_time = parse_double(v);
        else if (k == "only") {
            o.matrix = o.kernel_bench = o.scaling = false;
            for (auto &s : split(v)) {
                if (s == "matrix") o.matrix = true;
                else if (s == "kernels") o.kernel_bench = true;
                else if (s == "scaling") o.scaling = true;
                else die("--bf_only: unknown part '%s' (matrix, kernels, scaling)", s.c_str());
            }
        } else die("unknown option --bf_%s", k.c_str());
    }
    if (want_1gib && std::find(o.kernel_sizes.begin(), o.kernel_sizes.end(), 1ull << 30) == o.kernel_sizes.end())
        o.kernel_sizes.push_back(1ull << 30);
    if (o.hash != "excluded" && o.hash != "included" && o.hash != "both")
        die("--bf_hash must be excluded, included or both");
    for (double p : o.fpps)
        if (!(p > 0 && p < 1)) die("fpp %g not in (0,1)", p);
    for (uint64_t n : o.ns)
        if (n == 0) die("n must be > 0");
    for (uint64_t n : o.shape_ns)
        if (n == 0) die("shape n must be > 0");
    for (uint64_t n : o.design_ns)
        if (n == 0) die("design n must be > 0");
    for (unsigned b : o.design_bpks)
        if (b < 1 || b > 64) die("design bits/key %u not in 1..64", b);
    if (o.design_fpr_keys < 1) die("--bf_design_fpr_keys must be > 0");
    if (!(o.loadavg_interval > 0)) die("--bf_loadavg_interval must be > 0 seconds");
    for (int t : o.threads)
        if (t < 1 || t > num_cores()) die("thread count %d not in 1..%d (one thread per core)", t, num_cores());
    for (uint64_t s : o.kernel_sizes)
        if (s < 32 || s % 32) die("kernel size %" PRIu64 " must be a multiple of 32", s);
    if (o.queries < 64) o.queries = 64;
    if (o.kernels.empty()) {
        for (size_t i = 0; i < bf_sbbf_kernel_count(); i++)
            if (bf_sbbf_kernel_supported(bf_sbbf_kernel_name(i))) o.kernels.push_back(bf_sbbf_kernel_name(i));
    } else {
        for (auto &k : o.kernels)
            if (!bf_sbbf_kernel_supported(k.c_str())) die("kernel '%s' is not compiled in or not supported here", k.c_str());
    }
    if (o.key_kernels.empty()) o.key_kernels.push_back(o.kernels.front());
    for (auto &k : o.key_kernels)
        if (!bf_sbbf_kernel_supported(k.c_str())) die("kernel '%s' is not compiled in or not supported here", k.c_str());
}

}  // namespace

std::string fmt_num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", v);
    return b;
}

// ---------------------------------------------------------------------------
// Counters common to every result.
void set_counters(benchmark::State &st, double seconds, double ops, const std::string &kernel) {
    double ns = seconds * 1e9 / ops;
    st.counters["ns_per_op"] = ns;
    st.counters["ops_per_s"] = ops / seconds;
    st.SetItemsProcessed((int64_t)ops);
    st.SetLabel(kernel);
    // The load average as this benchmark ended (loadavg.cc).
    LoadSample l = load_now();
    st.counters["loadavg_1m"] = l.load1;
    st.counters["loadavg_1m_adj"] = l.load1_adj;
}

namespace {

// ---------------------------------------------------------------------------
// The memory limit: prefetched independent random 64-byte reads.
constexpr size_t kPrefetch = 16;

void register_mem_limit(uint64_t bytes) {
    std::string name = "memlimit/random_read_64B/bytes:" + std::to_string(bytes);
    benchmark::RegisterBenchmark(name.c_str(), [bytes](benchmark::State &st) {
        BigBuffer buf((size_t)bytes);
        const uint64_t lines = bytes / 64;
        const uint64_t q = std::max<uint64_t>(options().queries, 1u << 16);
        std::vector<uint64_t> off(q);
        uint64_t s = mix64(options().seed ^ bytes);
        for (auto &o : off) o = mulhi((s = mix64(s)), lines) * 64;
        const uint8_t *base = buf.data;
        // One read of each line's first and last word: the whole line comes
        // in, and the loop costs little beyond the miss itself.
        auto pass = [&]() {
            uint64_t acc = 0;
            for (uint64_t i = 0; i < q; i++) {
                if (i + kPrefetch < q) __builtin_prefetch(base + off[i + kPrefetch], 0, 0);
                const uint64_t *p = (const uint64_t *)(const void *)(base + off[i]);
                acc += p[0] ^ p[7];
            }
            return acc;
        };
        uint64_t sink = pass();  // warm-up: caches, TLB, clock
        double total = 0, ops = 0;
        for (auto _ : st) {
            double t0 = now_s();
            uint64_t acc = pass();
            double dt = now_s() - t0;
            benchmark::DoNotOptimize(acc);
            sink += acc;
            st.SetIterationTime(dt);
            total += dt;
            ops += (double)q;
        }
        benchmark::DoNotOptimize(sink);
        set_counters(st, total, ops, "memory");
        st.counters["bytes"] = (double)bytes;
        st.counters["huge_pages_advised"] = buf.huge_advised ? 1 : 0;
        st.counters["huge_page_fraction"] = buf.huge_fraction;
        record_mem_limit(bytes, total * 1e9 / ops);
    })->UseManualTime()->MinTime(options().min_time)->Unit(benchmark::kMicrosecond);
}

// ---------------------------------------------------------------------------
// The kernel benchmark: each SBBF kernel on filters of fixed sizes, filled
// to 10 bits/key, hashes precomputed, against the memory limit of a buffer
// of the same size measured in the same run.
struct KernelPoint {
    std::string kernel;
    uint64_t bytes;
    bf_sbbf *f = nullptr;
    uint64_t n = 0;
};

void kernel_build(KernelPoint *p) {
    if (live_is(p)) return;
    live_release();
    int rc = bf_sbbf_new_bytes_kernel(&p->f, (size_t)p->bytes, p->kernel.c_str());
    if (rc) die("bf_sbbf_new_bytes_kernel(%" PRIu64 ", %s): %s", p->bytes, p->kernel.c_str(), bf_strerror(rc));
    p->n = p->bytes * 8 / 10;
    std::vector<uint64_t> chunk(1u << 16);
    for (uint64_t i = 0; i < p->n; i += chunk.size()) {
        size_t m = (size_t)std::min<uint64_t>(chunk.size(), p->n - i);
        for (size_t j = 0; j < m; j++) chunk[j] = key_hash(pos_key(i + j));
        bf_sbbf_insert_hashes(p->f, chunk.data(), m);
        // No false negative, ever: every key just inserted must be found.
        if (bf_sbbf_contains_hashes(p->f, chunk.data(), m, nullptr) != m)
            die("FALSE NEGATIVE: sbbf/%s, %" PRIu64 " bytes", p->kernel.c_str(), p->bytes);
    }
    live_set(p, [p]() {
        bf_sbbf_free(p->f);
        p->f = nullptr;
    });
}

void register_kernel_bench(const std::string &kernel, uint64_t bytes) {
    auto p = std::make_shared<KernelPoint>();
    p->kernel = kernel;
    p->bytes = bytes;
    const std::string prefix = "kernel/" + kernel + "/";
    const std::string suffix = "/bytes:" + std::to_string(bytes);
    auto finish = [p](benchmark::State &st, double total, double ops, int pct, bool batch) {
        set_counters(st, total, ops, p->kernel);
        double ns = total * 1e9 / ops;
        st.counters["ns_per_key"] = ns;
        st.counters["keys_per_s"] = ops / total;
        st.counters["bytes"] = (double)p->bytes;
        st.counters["n"] = (double)p->n;
        st.counters["pos_pct"] = pct;
        st.counters["batch"] = batch ? 1 : 0;
        double lim = mem_limit_ns(p->bytes);
        if (std::isfinite(lim)) {
            st.counters["mem_limit_ns"] = lim;
            st.counters["x_mem_limit"] = ns / lim;
        }
    };
    for (int pct : {0, 50, 100}) {
        for (bool batch : {false, true}) {
            std::string name = prefix + (batch ? "contains_batch" : "contains_single") + "/pos" + std::to_string(pct) + suffix;
            benchmark::RegisterBenchmark(name.c_str(), [p, pct, batch, finish](benchmark::State &st) {
                kernel_build(p.get());
                const Queries &q = queries(p->n, pct, options().queries);
                const uint64_t *h = q.set.hashes.data();
                const size_t cnt = q.set.hashes.size();
                std::vector<uint8_t> out(cnt);
                double total = 0, ops = 0;
                for (auto _ : st) {
                    size_t found = 0;
                    double t0 = now_s();
                    if (batch) {
                        found = bf_sbbf_contains_hashes(p->f, h, cnt, out.data());
                    } else {
                        for (size_t i = 0; i < cnt; i++) found += SbbfAdapter::contains(p->f, h[i]);
                    }
                    double dt = now_s() - t0;
                    st.SetIterationTime(dt);
                    total += dt;
                    ops += (double)cnt;
                    if (found < q.num_pos) die("FALSE NEGATIVE: kernel %s, %zu found < %" PRIu64 " positives", p->kernel.c_str(), found, q.num_pos);
                }
                if (batch)
                    for (size_t i = 0; i < cnt; i++)
                        if (q.is_pos[i] && !out[i]) die("FALSE NEGATIVE: kernel %s batch, query %zu", p->kernel.c_str(), i);
                finish(st, total, ops, pct, batch);
            })->UseManualTime()->MinTime(options().min_time)->Unit(benchmark::kMicrosecond);
        }
    }
    // Inserts of keys already present: the same memory traffic as new keys,
    // and the filter stays as the contains runs expect it.
    for (bool batch : {false, true}) {
        std::string name = prefix + (batch ? "insert_batch" : "insert_single") + suffix;
        benchmark::RegisterBenchmark(name.c_str(), [p, batch, finish](benchmark::State &st) {
            kernel_build(p.get());
            const Queries &q = queries(p->n, 100, options().queries);
            const uint64_t *h = q.set.hashes.data();
            const size_t cnt = q.set.hashes.size();
            double total = 0, ops = 0;
            for (auto _ : st) {
                double t0 = now_s();
                if (batch) {
                    bf_sbbf_insert_hashes(p->f, h, cnt);
                } else {
                    for (size_t i = 0; i < cnt; i++) SbbfAdapter::insert(p->f, h[i]);
                }
                double dt = now_s() - t0;
                st.SetIterationTime(dt);
                total += dt;
                ops += (double)cnt;
            }
            if (bf_sbbf_contains_hashes(p->f, h, cnt, nullptr) != cnt) die("FALSE NEGATIVE after insert, kernel %s", p->kernel.c_str());
            finish(st, total, ops, 100, batch);
        })->UseManualTime()->MinTime(options().min_time)->Unit(benchmark::kMicrosecond);
    }
}

// ---------------------------------------------------------------------------
// The family matrix. A Point is one filter (family/kernel, n, fpp), built
// once and shared by the benchmarks registered for it (one at a time lives).

template <class A>
struct Point {
    typename A::Spec spec;
    uint64_t n;
    double fpp;
    typename A::F *f = nullptr;
    double fpr_measured = 0, fpr_model = 0;
    uint64_t bytes = 0;
    std::string kernel;
    std::vector<std::pair<std::string, double>> extra;  // A::extra(f)

    std::string where() const {
        return A::series(spec) + " n=" + std::to_string(n) + " fpp=" + fmt_num(fpp);
    }

    // Every positive key must be found (single and batch).
    void verify_all() {
        const KeySet &pos = positives(n);
        std::vector<uint8_t> out(std::min<uint64_t>(n, 1u << 16));
        for (uint64_t i = 0; i < n; i += out.size()) {
            size_t m = (size_t)std::min<uint64_t>(out.size(), n - i);
            size_t found = A::contains_batch(f, pos.hashes.data() + i, m, out.data());
            if (found != m) {
                for (size_t j = 0; j < m; j++)
                    if (!out[j]) die("FALSE NEGATIVE: %s, positive key %" PRIu64 " (batch)", where().c_str(), i + j);
                die("FALSE NEGATIVE: %s, batch count %zu of %zu", where().c_str(), found, m);
            }
        }
        for (uint64_t i = 0; i < n; i += 1 + n / 4096)
            if (!A::contains(f, pos.hashes[i])) die("FALSE NEGATIVE: %s, positive key %" PRIu64, where().c_str(), i);
    }

    void fill() {
        const KeySet &pos = positives(n);
        int rc = A::insert_batch(f, pos.hashes.data(), (size_t)n);
        if (rc) die("insert failed: %s: %s", where().c_str(), bf_strerror(rc));
    }

    void build() {
        if (live_is(this)) return;
        live_release();
        int rc = A::make(&f, spec, n, fpp);
        if (rc) die("cannot create %s: %s", where().c_str(), bf_strerror(rc));
        fill();
        verify_all();
        bytes = A::bytes(f);
        kernel = A::kernel(f);
        fpr_model = A::model_fpp(f, n);
        extra = A::extra(f);
        const KeySet &neg = fpr_negatives();
        size_t fp = A::contains_batch(f, neg.hashes.data(), neg.hashes.size(), nullptr);
        fpr_measured = (double)fp / (double)neg.hashes.size();
        live_set(this, [this]() {
            A::destroy(f);
            f = nullptr;
        });
    }

    void counters(benchmark::State &st, double seconds, double ops, int pct, bool batch, bool hashed, int threads) {
        set_counters(st, seconds, ops, kernel);
        double ns = seconds * 1e9 / ops;
        st.counters["n"] = (double)n;
        st.counters["fpp"] = fpp;
        st.counters["fpr_model"] = fpr_model;
        st.counters["fpr_measured"] = fpr_measured;
        st.counters["fpr_negatives"] = (double)options().fpr_keys;
        st.counters["bits_per_key"] = 8.0 * (double)bytes / (double)n;
        st.counters["bytes"] = (double)bytes;
        st.counters["threads"] = threads;
        st.counters["pos_pct"] = pct;
        st.counters["batch"] = batch ? 1 : 0;
        st.counters["hash_included"] = hashed ? 1 : 0;
        for (auto &e : extra) st.counters[e.first] = e.second;
        double lim = mem_limit_ns(bytes);
        if (std::isfinite(lim)) {
            st.counters["mem_limit_ns"] = lim;
            // Per-thread time per op against the single-thread limit.
            st.counters["x_mem_limit"] = ns * threads / lim;
        }
    }
};

template <class A>
std::string bench_name(const std::shared_ptr<Point<A>> &p, const std::string &op, bool hashed, int threads) {
    return A::series(p->spec) + "/" + op + "/" + (hashed ? "hash_incl" : "hash_excl") + "/n:" + std::to_string(p->n) +
           "/fpp:" + fmt_num(p->fpp) + "/threads:" + std::to_string(threads);
}

template <class A>
void reg(const std::string &name, std::function<void(benchmark::State &)> fn) {
    benchmark::RegisterBenchmark(name.c_str(), std::move(fn))
        ->UseManualTime()
        ->MinTime(options().min_time)
        ->Unit(benchmark::kMicrosecond);
}

template <class A>
void register_contains(std::shared_ptr<Point<A>> p, int pct, bool batch, bool hashed, int threads) {
    std::string op = std::string(batch ? "contains_batch" : "contains_single") + "/pos" + std::to_string(pct);
    reg<A>(bench_name(p, op, hashed, threads), [p, pct, batch, hashed, threads](benchmark::State &st) {
        p->build();
        const Queries &q = queries(p->n, pct, options().queries);
        const size_t cnt = q.set.keys.size();
        const uint64_t *src = hashed ? q.set.keys.data() : q.set.hashes.data();
        std::vector<std::vector<uint8_t>> outs((size_t)threads, std::vector<uint8_t>(batch ? cnt : 0));
        std::vector<size_t> found((size_t)threads);
        double total = 0, ops = 0;
        auto work = [&](int t) {
            // Each thread runs the whole query set, starting at its own offset.
            size_t start = cnt * (size_t)t / (size_t)threads, acc = 0;
            const typename A::F *f = p->f;
            for (size_t part = 0; part < 2; part++) {
                size_t lo = part == 0 ? start : 0, hi = part == 0 ? cnt : start;
                if (lo >= hi) continue;
                if (batch) {
                    uint8_t *out = outs[(size_t)t].data() + lo;
                    if (hashed && has_key_batch<A>::value)
                        acc += contains_keys<A>(f, src + lo, hi - lo, out);
                    else if (hashed)
                        acc += hash_chunks(src + lo, hi - lo, [&](const uint64_t *h, size_t m, size_t off) {
                            return A::contains_batch(f, h, m, out + off);
                        });
                    else
                        acc += A::contains_batch(f, src + lo, hi - lo, out);
                } else if constexpr (has_loops<A>::value) {
                    acc += A::contains_loop(f, src + lo, hi - lo, hashed);
                } else if (hashed) {
                    for (size_t i = lo; i < hi; i++) acc += A::contains_key(f, src[i]);
                } else {
                    for (size_t i = lo; i < hi; i++) acc += A::contains(f, src[i]);
                }
            }
            found[(size_t)t] = acc;
        };
        for (auto _ : st) {
            double dt = pool().run(threads, work);
            st.SetIterationTime(dt);
            total += dt;
            ops += (double)cnt * threads;
            for (int t = 0; t < threads; t++)
                if (found[(size_t)t] < q.num_pos)
                    die("FALSE NEGATIVE: %s contains: %zu found < %" PRIu64 " positives", p->where().c_str(), found[(size_t)t], q.num_pos);
        }
        // Exactly which queries must be found.
        for (int t = 0; t < threads && batch; t++)
            for (size_t i = 0; i < cnt; i++)
                if (q.is_pos[i] && !outs[(size_t)t][i]) die("FALSE NEGATIVE: %s, query %zu (batch)", p->where().c_str(), i);
        for (size_t i = 0; i < cnt; i++)
            if (q.is_pos[i] && !(hashed ? A::contains_key(p->f, q.set.keys[i]) : A::contains(p->f, q.set.hashes[i])))
                die("FALSE NEGATIVE: %s, query %zu", p->where().c_str(), i);
        p->counters(st, total, ops, pct, batch, hashed, threads);
    });
}

template <class A>
void register_insert(std::shared_ptr<Point<A>> p, bool batch, bool hashed) {
    reg<A>(bench_name(p, batch ? "insert_batch" : "insert_single", hashed, 1), [p, batch, hashed](benchmark::State &st) {
        p->build();
        const KeySet &pos = positives(p->n);
        const size_t n = (size_t)p->n;
        double total = 0, ops = 0;
        for (auto _ : st) {
            A::clear(p->f);
            double t0 = now_s();
            int rc = 0;
            if (batch) {
                if (hashed && has_key_batch<A>::value)
                    rc = insert_keys<A>(p->f, pos.keys.data(), n);
                else if (hashed)
                    rc = (int)hash_chunks(pos.keys.data(), n, [&](const uint64_t *h, size_t m, size_t) {
                        return (size_t)(A::insert_batch(p->f, h, m) != 0);
                    });
                else
                    rc = A::insert_batch(p->f, pos.hashes.data(), n);
            } else if constexpr (has_loops<A>::value) {
                rc = A::insert_loop(p->f, hashed ? pos.keys.data() : pos.hashes.data(), n, hashed);
            } else if (hashed) {
                for (size_t i = 0; i < n; i++) rc |= A::insert_key(p->f, pos.keys[i]);
            } else {
                for (size_t i = 0; i < n; i++) rc |= A::insert(p->f, pos.hashes[i]);
            }
            double dt = now_s() - t0;
            if (rc) die("insert failed: %s (%d)", p->where().c_str(), rc);
            st.SetIterationTime(dt);
            total += dt;
            ops += (double)n;
        }
        p->verify_all();
        p->counters(st, total, ops, 100, batch, hashed, 1);
    });
}

template <class A>
void register_remove(std::shared_ptr<Point<A>> p, bool hashed) {
    reg<A>(bench_name(p, "remove_single", hashed, 1), [p, hashed](benchmark::State &st) {
        p->build();
        const KeySet &pos = positives(p->n);
        const size_t n = (size_t)p->n;
        double total = 0, ops = 0;
        for (auto _ : st) {
            double t0 = now_s();
            int rc = 0;
            if (hashed)
                for (size_t i = 0; i < n; i++) rc |= A::remove_key(p->f, pos.keys[i]);
            else
                for (size_t i = 0; i < n; i++) rc |= A::remove(p->f, pos.hashes[i]);
            double dt = now_s() - t0;
            // A remove of an inserted key that fails is a false negative.
            if (rc) die("FALSE NEGATIVE: %s, remove of an inserted key failed (%d)", p->where().c_str(), rc);
            st.SetIterationTime(dt);
            total += dt;
            ops += (double)n;
            p->fill();  // untimed: manual time covers the removes only
        }
        p->verify_all();
        p->counters(st, total, ops, 100, false, hashed, 1);
    });
}

template <class A>
void register_insert_concurrent(std::shared_ptr<Point<A>> p, int threads) {
    reg<A>(bench_name(p, "insert_concurrent", false, threads), [p, threads](benchmark::State &st) {
        p->build();
        const KeySet &pos = positives(p->n);
        const size_t n = (size_t)p->n;
        double total = 0, ops = 0;
        auto work = [&](int t) {
            size_t lo = n * (size_t)t / (size_t)threads, hi = n * (size_t)(t + 1) / (size_t)threads;
            A::insert_concurrent(p->f, pos.hashes.data() + lo, hi - lo);
        };
        for (auto _ : st) {
            A::clear(p->f);
            double dt = pool().run(threads, work);
            st.SetIterationTime(dt);
            total += dt;
            ops += (double)n;
        }
        for (size_t i = 0; i < n; i++)
            if (!A::contains_concurrent(p->f, pos.hashes[i]))
                die("FALSE NEGATIVE: %s, key %zu after concurrent insert", p->where().c_str(), i);
        p->verify_all();
        p->counters(st, total, ops, 100, true, false, threads);
    });
}

// Returns how many benchmarks it registered.
template <class A>
size_t register_point(const typename A::Spec &spec, uint64_t n, double fpp) {
    const Options &o = options();
    auto p = std::make_shared<Point<A>>();
    p->spec = spec;
    p->n = n;
    p->fpp = fpp;
    std::vector<bool> modes;
    if (o.hash != "included") modes.push_back(false);
    if (o.hash != "excluded" && std::fabs(fpp - o.hash_included_fpp) < 1e-12) modes.push_back(true);
    size_t count = 0;
    for (bool hashed : modes) {
        for (int pct : {0, 50, 100})
            for (bool batch : {false, true})
                if (wants<A>(batch, hashed, pct)) {
                    register_contains(p, pct, batch, hashed, 1);
                    count++;
                }
        for (bool batch : {false, true})
            if (wants<A>(batch, hashed, -1)) {
                register_insert(p, batch, hashed);
                count++;
            }
        if (A::has_remove(spec)) {
            register_remove(p, hashed);
            count++;
        }
    }
    return count;
}

// Whether the family matrix already measures single-thread lookups at (n, fpp).
bool in_matrix(uint64_t n, double fpp) {
    const Options &o = options();
    if (!o.matrix || o.hash == "included") return false;
    if (n > o.sweep_max_n && std::fabs(fpp - o.hash_included_fpp) > 1e-12) return false;
    bool has_n = std::find(o.ns.begin(), o.ns.end(), n) != o.ns.end();
    bool has_fpp = std::any_of(o.fpps.begin(), o.fpps.end(), [fpp](double f) { return std::fabs(f - fpp) < 1e-12; });
    return has_n && has_fpp;
}

template <class A>
size_t register_scaling(const typename A::Spec &spec, uint64_t n, double fpp) {
    auto p = std::make_shared<Point<A>>();
    p->spec = spec;
    p->n = n;
    p->fpp = fpp;
    size_t count = 0;
    for (int t : options().threads) {
        if (t > 1 || !in_matrix(n, fpp)) {
            register_contains(p, 50, false, false, t);
            register_contains(p, 50, true, false, t);
            count += 2;
        }
        if (A::has_concurrent(spec)) {
            register_insert_concurrent(p, t);
            count++;
        }
    }
    return count;
}

// Calls fn(adapter tag, spec) for every selected series.
template <class Fn>
void for_each_series(Fn &&fn) {
    const Options &o = options();
    for (auto &fam : o.families) {
        // Every family through bf_filter (adapters.h): the SBBF once per
        // kernel. sbbf-api: the SBBF through its own API, a separate series.
        if (fam == "sbbf") {
            for (auto &k : o.kernels) fn(FilterAdapter{}, FilterAdapter::Spec{BF_FAMILY_SBBF, "sbbf/" + k, k});
        } else if (fam == "sbbf-api") {
            for (auto &k : o.kernels) fn(SbbfAdapter{}, SbbfAdapter::Spec{k});
        } else if (fam == "cuckoo-shapes" || fam == "design") {
            // Their own series (shapes.cc, design.cc), at their own n.
        } else if (fam == "sbbf-generic") {
            fn(FilterAdapter{}, FilterAdapter::Spec{BF_FAMILY_SBBF, "sbbf-generic/auto", ""});
        } else if (fam == "scalable") {
            // A chain reserved at n (one layer), and one grown from n/1000.
            fn(FilterAdapter{}, FilterAdapter::Spec{BF_FAMILY_SCALABLE, "scalable/reserved", "", 0});
            fn(FilterAdapter{}, FilterAdapter::Spec{BF_FAMILY_SCALABLE, "scalable/grown", "", 1000});
        } else {
            bf_family f;
            if (bf_family_from_name(fam.c_str(), &f) != BF_OK) die("unknown family '%s'", fam.c_str());
            fn(FilterAdapter{}, FilterAdapter::Spec{f, fam + "/-", ""});
        }
    }
}

// Calls fn(adapter tag, spec) for every selected key-path series
// (--bf_families sbbf-header,sbbf-typed,sbbf-binary; all three by default),
// each with the kernels of --bf_key_kernels (default: the best supported).
template <class Fn>
void for_each_key_series(Fn &&fn) {
    const Options &o = options();
    for (auto &fam : o.key_families)
        for (auto &k : o.key_kernels) {
            if (fam == "sbbf-header") fn(HeaderAdapter{}, HeaderAdapter::Spec{k});
            else if (fam == "sbbf-typed") fn(TypedAdapter{}, TypedAdapter::Spec{k});
            else if (fam == "sbbf-binary") fn(BinaryAdapter{}, BinaryAdapter::Spec{k});
        }
}

// ---------------------------------------------------------------------------
// The console shows one compact line per benchmark, with progress; every
// counter goes to the JSON file (--benchmark_out).
class ProgressReporter : public benchmark::ConsoleReporter {
public:
    explicit ProgressReporter(size_t total) : total_(total), t0_(now_s()) {}
    bool ReportContext(const Context &) override {
        // The short form; the JSON holds the whole machine description.
        const Options &o = options();
        const char *k = nullptr;
        if (bf_sbbf_default_kernel(&k) != BF_OK) k = "error";
        GetOutputStream() << "blockfilter_bench: " << o.mode << " matrix, " << total_ << " benchmarks, "
                          << num_cores() << " cores, auto kernel " << k << ", seed 0x" << std::hex << o.seed
                          << std::dec << "\n";
        return true;
    }
    void ReportRuns(const std::vector<Run> &runs) override {
        // One line per benchmark: its median over repetitions if there are
        // several (--benchmark_repetitions), else its only run.
        const Run *show = nullptr;
        for (const Run &r : runs)
            if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median") show = &r;
        if (!show)
            for (const Run &r : runs)
                if (r.run_type == Run::RT_Iteration) show = &r;
        // Repeated benchmarks report their runs first and their aggregates
        // in a second call: show only the second.
        if (!show || (show->run_type == Run::RT_Iteration && show->repetitions > 1)) return;
        const Run &r = *show;
        done_ += 1;
        std::string name = r.run_name.str();
        auto cut = name.find("/min_time:");
        if (cut != std::string::npos) name.resize(cut);
        if (r.run_type == Run::RT_Aggregate) name += " (median)";
        std::ostream &os = GetOutputStream();
        char line[512];
        auto get = [&r](const char *k) {
            auto it = r.counters.find(k);
            return it == r.counters.end() ? std::nan("") : it->second.value;
        };
        if (r.error_occurred) {
            std::snprintf(line, sizeof line, "[%4zu/%zu %5.0fs] %-78s ERROR %s\n", done_, total_, now_s() - t0_,
                          name.c_str(), r.error_message.c_str());
        } else {
            double x = get("x_mem_limit");
            char xs[32] = "";
            if (std::isfinite(x)) std::snprintf(xs, sizeof xs, " %6.2fx limit", x);
            std::snprintf(line, sizeof line, "[%4zu/%zu %5.0fs] %-78s %9.2f ns/op %9.2f Mop/s%s\n", done_, total_,
                          now_s() - t0_, name.c_str(), get("ns_per_op"), get("ops_per_s") / 1e6, xs);
        }
        os << line << std::flush;
    }

private:
    size_t total_, done_ = 0;
    double t0_;
};

// Google Benchmark's JSON file, with the load-average record of the run
// (loadavg.cc) as a last top-level object, "bf_loadavg": the context is
// written before the first benchmark, the record is complete after the last.
class LoadJsonReporter : public benchmark::JSONReporter {
public:
    void Finalize() override {
        load_monitor_finish();
        GetOutputStream() << "\n  ],\n  \"bf_loadavg\": " << load_record_json() << "\n}\n";
    }
};

// Whether the run writes a JSON file (--benchmark_out=FILE, JSON format; as
// a flag or through Google Benchmark's environment variables).
bool writes_json_file(int argc, char **argv) {
    const char *out = std::getenv("BENCHMARK_OUT");
    const char *fmt = std::getenv("BENCHMARK_OUT_FORMAT");
    std::string o = out ? out : "", f = fmt ? fmt : "json";
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a.compare(0, 16, "--benchmark_out=") == 0) o = a.substr(16);
        else if (a.compare(0, 23, "--benchmark_out_format=") == 0) f = a.substr(23);
    }
    return !o.empty() && f == "json";
}

} // namespace
} // namespace bfb

int main(int argc, char **argv) {
    using namespace bfb;
    machine_init();
    parse_options(&argc, argv);
    const bool json_file = writes_json_file(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    const Options &o = options();
    // The load average from here on: before, during, after (loadavg.cc).
    const std::string load_before = loadavg_raw();
    load_monitor_start(o.loadavg_interval);

    // Start the pinned workers before describing the machine, so the
    // context records every thread's core.
    pool().run(num_cores(), [](int) {});
    add_machine_context();
    {
        auto join = [](auto &v) {
            std::string s;
            for (auto &x : v) s += (s.empty() ? "" : ",") + fmt_num((double)x);
            return s;
        };
        std::string fams, kers;
        for (auto &f : o.families) fams += (fams.empty() ? "" : ",") + f;
        for (auto &k : o.kernels) kers += (kers.empty() ? "" : ",") + k;
        benchmark::AddCustomContext("bf_mode", o.mode);
        benchmark::AddCustomContext("bf_matrix_n", join(o.ns));
        benchmark::AddCustomContext("bf_matrix_fpp", join(o.fpps));
        benchmark::AddCustomContext("bf_ref_fpp", fmt_num(o.hash_included_fpp));
        benchmark::AddCustomContext("bf_sweep_max_n", o.sweep_max_n == UINT64_MAX ? "all" : fmt_num((double)o.sweep_max_n));
        for (auto &f : o.key_families) fams += (fams.empty() ? "" : ",") + f;
        benchmark::AddCustomContext("bf_families", fams);
        std::string kk;
        for (auto &k : o.key_kernels) kk += (kk.empty() ? "" : ",") + k;
        benchmark::AddCustomContext("bf_key_kernels", kk);
        benchmark::AddCustomContext("bf_kernels", kers);
        benchmark::AddCustomContext("bf_threads", join(o.threads));
        benchmark::AddCustomContext("bf_thread_n", join(o.thread_ns));
        benchmark::AddCustomContext("bf_kernel_sizes", join(o.kernel_sizes));
        benchmark::AddCustomContext("bf_hash_mode", o.hash + " (included at fpp " + fmt_num(o.hash_included_fpp) + " only)");
        benchmark::AddCustomContext("bf_fpr_negative_keys", std::to_string(o.fpr_keys));
        benchmark::AddCustomContext("bf_queries_per_pass", std::to_string(o.queries));
        benchmark::AddCustomContext("bf_min_time_s", fmt_num(o.min_time));
        benchmark::AddCustomContext("bf_shape_n", join(o.shape_ns));
        benchmark::AddCustomContext("bf_design_n", join(o.design_ns));
        benchmark::AddCustomContext("bf_design_bpk", join(o.design_bpks));
        benchmark::AddCustomContext("bf_design_fpr_negative_keys", std::to_string(o.design_fpr_keys));
        benchmark::AddCustomContext("bf_loadavg_before", load_before);
        benchmark::AddCustomContext("bf_loadavg_interval_s", fmt_num(o.loadavg_interval));
        benchmark::AddCustomContext("bf_key_scheme",
            "positive i = splitmix64(seed + 2i) << 1 (even), FPR negatives = splitmix64(~seed + 2i) << 1 | 1 (odd); "
            "hash = XXH64 seed 0 of the 8 LE bytes (bf_hash_int64)");
    }

    size_t count = 0;

    // 1. The memory limit, first, for every size the run needs.
    uint64_t max_bytes = 0;
    if (o.kernel_bench)
        for (uint64_t s : o.kernel_sizes) max_bytes = std::max(max_bytes, s);
    uint64_t max_n = 0;
    if (o.matrix)
        for (uint64_t n : o.ns) max_n = std::max(max_n, n);
    if (o.scaling)
        for (uint64_t n : o.thread_ns) max_n = std::max(max_n, n);
    // The largest filter of the run: the counting filter at the smallest fpp
    // (4-bit counters); about 4 x 1.44 log2(1/fpp) bits per key.
    double min_fpp = 1;
    for (double f : o.fpps) min_fpp = std::min(min_fpp, f);
    if (o.scaling) min_fpp = std::min(min_fpp, 0.01);
    max_bytes = std::max<uint64_t>(max_bytes, (uint64_t)((double)max_n * 4 * 1.45 * std::log2(1 / min_fpp) / 8));
    max_bytes = std::max<uint64_t>(max_bytes, cuckoo_shapes_max_bytes());
    max_bytes = std::max<uint64_t>(max_bytes, design_max_bytes());
    std::vector<uint64_t> sizes;
    for (uint64_t s = 16u << 10; s < max_bytes * 4; s *= 4) sizes.push_back(s);
    for (uint64_t s : o.kernel_sizes) sizes.push_back(s);
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    for (uint64_t s : sizes) {
        register_mem_limit(s);
        count++;
    }

    // 2. The SBBF kernels at fixed sizes.
    if (o.kernel_bench)
        for (auto &k : o.kernels)
            for (uint64_t s : o.kernel_sizes) {
                register_kernel_bench(k, s);
                count += 8;
            }

    // 3. The family matrix.
    if (o.matrix)
        for (uint64_t n : o.ns)
            for (double fpp : o.fpps) {
                if (n > o.sweep_max_n && std::fabs(fpp - o.hash_included_fpp) > 1e-12) continue;
                for_each_series([&](auto tag, auto spec) {
                    using A = decltype(tag);
                    count += register_point<A>(spec, n, fpp);
                });
                // The key paths (header single-key calls, typed and byte-string
                // batches) at the reference fpp, where hashing is timed.
                if (std::fabs(fpp - o.hash_included_fpp) < 1e-12)
                    for_each_key_series([&](auto tag, auto spec) {
                        using A = decltype(tag);
                        count += register_point<A>(spec, n, fpp);
                    });
            }

    // 3b. The cuckoo filter's shapes, each against an SBBF of its size.
    count += register_cuckoo_shapes();

    // 3c. The blocked design space (Lang et al.'s series).
    count += register_design();

    // 4. Threads: lookups on a shared filter, concurrent inserts.
    if (o.scaling)
        for (uint64_t n : o.thread_ns)
            for_each_series([&](auto tag, auto spec) {
                using A = decltype(tag);
                count += register_scaling<A>(spec, n, 0.01);
            });

    ProgressReporter reporter(count);
    LoadJsonReporter json_reporter;
    if (json_file)
        benchmark::RunSpecifiedBenchmarks(&reporter, &json_reporter);
    else
        benchmark::RunSpecifiedBenchmarks(&reporter);
    load_monitor_finish();
    std::printf("blockfilter_bench: %s\n", load_record_line().c_str());
    live_release();
    benchmark::Shutdown();
    return 0;
}
