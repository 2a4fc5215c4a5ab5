// Shared declarations of the benchmark harness: options, keys, the pinned
// thread pool, the machine description and the memory-limit table.
#ifndef BF_BENCH_H
#define BF_BENCH_H

#include <blockfilter.h>
#include <blockfilter_advanced.h>

#include <benchmark/benchmark.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace bfb {

// ---------------------------------------------------------------------------
// Options (parsed from --bf_* flags; the rest goes to Google Benchmark).
struct Options {
    std::string mode = "default";              // quick, default, full
    std::vector<uint64_t> ns;                  // keys per filter
    std::vector<double> fpps;                  // target false-positive rates
    std::vector<std::string> families;         // sbbf, bloom, counting, cuckoo, scalable, sbbf-api, sbbf-generic
    std::vector<std::string> key_families;     // sbbf-header, sbbf-typed, sbbf-binary
    std::vector<std::string> key_kernels;      // their kernels (empty: the best supported)
    std::vector<std::string> kernels;          // SBBF kernels (empty: every supported)
    std::vector<int> threads;                  // thread counts for the scaling runs
    std::vector<uint64_t> thread_ns;           // n of the scaling runs
    std::vector<uint64_t> kernel_sizes;        // bytes of the kernel benchmark's filters
    std::string hash = "both";                 // excluded, included, both
    double hash_included_fpp = 0.01;           // reference fpp: hashing-included runs at this fpp only
    uint64_t sweep_max_n = UINT64_MAX;         // larger n run at the reference fpp only
    uint64_t seed = 0x5bd1e9955bd1e995ull;     // fixed, recorded
    uint64_t fpr_keys = 1000000;               // negative keys for the measured FPR
    uint64_t queries = 1u << 16;               // queries per timed pass
    double min_time = 0.05;                    // seconds per benchmark
    double loadavg_interval = 30;              // seconds between load-average samples
    std::vector<uint64_t> shape_ns;            // n of the cuckoo-shapes series
    bool shape_ns_set = false;                 // --bf_shape_n given
    std::vector<uint64_t> design_ns;           // n of the design-space series
    std::vector<unsigned> design_bpks;         // its bits per key
    uint64_t design_fpr_keys = 1000000;        // its absent keys for the measured FPR
    uint64_t design_peer_part_n = 10000000;    // its partitioned peers run from this n (-Dbench_peers)
    bool matrix = true, kernel_bench = true, scaling = true;
};
Options &options();

// Aborts the process: the harness refuses to report a wrong filter.
[[noreturn]] void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// ---------------------------------------------------------------------------
// Keys. Positive key i and negative key i come from two streams of one
// recorded seed; positives are even and negatives odd, so the sets are
// disjoint by construction. The hash of a key is Parquet's hash of an
// INT64: XXH64 of its 8 little-endian bytes, seed 0 — exactly what the
// byte-string calls compute with a filter's default seed.
uint64_t mix64(uint64_t x);
// floor(a * b / 2^64): a uniform 64-bit value reduced to [0, b).
inline uint64_t mulhi(uint64_t a, uint64_t b) {
    __extension__ typedef unsigned __int128 u128;
    return (uint64_t)(((u128)a * b) >> 64);
}
inline uint64_t pos_key(uint64_t i) { return mix64(options().seed + 2 * i) << 1; }
inline uint64_t neg_key(uint64_t i) { return (mix64(~options().seed + 2 * i) << 1) | 1u; }
inline uint64_t key_hash(uint64_t key) { return bf_hash_int64((int64_t)key); }

// Precomputed keys and hashes (grown on demand, shared by every family).
struct KeySet {
    std::vector<uint64_t> keys, hashes;
};
const KeySet &positives(uint64_t n);         // at least n positive keys (prefix)
const KeySet &fpr_negatives();               // options().fpr_keys negative keys
// A query set of `count` keys: round(pct% of them) positives drawn
// uniformly from the first n positive keys, the rest negatives from a third
// stream, shuffled. is_pos[i] says which are positives.
struct Queries {
    KeySet set;
    std::vector<uint8_t> is_pos;
    uint64_t num_pos = 0;
};
const Queries &queries(uint64_t n, int pct, uint64_t count);
void release_queries();

// ---------------------------------------------------------------------------
// Threads: one per core, pinned with hwloc (machine.cc).
void machine_init();                          // topology, pin the main thread
int num_cores();
bool pin_thread_to_core(int index);           // core index % num_cores()
void add_machine_context();                   // benchmark::AddCustomContext(...)

// A pool of pinned workers; run(t, fn) calls fn(0..t-1) on t threads (the
// caller is thread 0) and returns the wall time from start to the last
// finish, in seconds.
class Pool {
public:
    explicit Pool(int max_threads);
    ~Pool();
    double run(int threads, const std::function<void(int)> &fn);

private:
    void worker(int index);
    std::vector<std::thread> workers_;
    std::mutex mu_;
    std::condition_variable cv_start_, cv_done_;
    const std::function<void(int)> *job_ = nullptr;
    int active_ = 0, pending_ = 0;
    uint64_t generation_ = 0;
    bool stop_ = false;
};
Pool &pool();

// ---------------------------------------------------------------------------
// The machine's memory limit: prefetched independent random 64-byte reads
// over a 2 MiB-aligned, MADV_HUGEPAGE buffer of a given size. Measured
// first in every run; the lookups read their "x times the limit" from here.
void record_mem_limit(uint64_t bytes, double ns_per_read);
// Log-log interpolation over the measured sizes (clamped); NaN if none.
double mem_limit_ns(uint64_t bytes);

// Huge-page friendly buffer (mmap, 2 MiB-aligned, madvise, touched).
struct BigBuffer {
    explicit BigBuffer(size_t bytes);
    ~BigBuffer();
    BigBuffer(const BigBuffer &) = delete;
    BigBuffer &operator=(const BigBuffer &) = delete;
    uint8_t *data = nullptr;
    size_t size = 0;
    bool huge_advised = false;
    double huge_fraction = 0;  // of the buffer, from AnonHugePages in /proc/self/smaps_rollup

private:
    void *base_ = nullptr;
    size_t base_len_ = 0;
};

// ---------------------------------------------------------------------------
// The machine's load during the run (loadavg.cc): /proc/loadavg before,
// every interval during (a background thread) and after, with the
// harness's own share (own_1m) and load1_adj = load1 - max(0, own_1m - 1).
struct LoadSample {
    double t_s = 0, load1 = 0, load5 = 0, load15 = 0, own_1m = 0, load1_adj = 0;
};
std::string loadavg_raw();                    // the /proc/loadavg line
void load_monitor_start(double interval_s);   // takes "before", starts sampling
LoadSample load_now();                        // a sample now (per-benchmark counters)
void load_monitor_finish();                   // takes "after", stops sampling
std::string load_record_json();               // the "bf_loadavg" object
std::string load_record_line();               // one line for the console

// ---------------------------------------------------------------------------
// One filter lives at a time (large runs hold one 1 GiB filter, not many):
// a benchmark that builds one first releases the live one, whoever owns it.
void live_release();
bool live_is(const void *owner);
void live_set(const void *owner, std::function<void()> release);

// Shared by every benchmark (bench_main.cc): "%g" of v, and the counters
// every result carries (ns_per_op, ops_per_s, the load average; label).
std::string fmt_num(double v);
void set_counters(benchmark::State &st, double seconds, double ops, const std::string &kernel);

// A benchmark timed by hand (SetIterationTime), at the run's min time,
// reported in microseconds (design.cc; the series below use it).
void register_timed(const std::string &name, std::function<void(benchmark::State &)> fn);

// The cuckoo-shapes series (shapes.cc): registers its benchmarks, returns
// how many; the largest table it will build, for the memory-limit sizes.
size_t register_cuckoo_shapes();
uint64_t cuckoo_shapes_max_bytes();
// The design-space series (design.cc): the blocked family's shapes x k x
// bits/key x n; registers its benchmarks, returns how many; its largest filter.
size_t register_design();
uint64_t design_max_bytes();
// Its filters' bytes at a point: n x bits/key bits, rounded down to whole
// blocks (one at least); and its absent keys' hashes, for the measured FPR.
uint64_t design_bytes(const bf_blocked_shape &shape, uint64_t n, unsigned bpk);
const std::vector<uint64_t> &design_negatives();
// The peers' contenders (design_peers.cc, built with -Dbench_peers): at
// (n, bpk), every peer filter matching one of the shapes the series built
// there (layout name and shape), and the static filters too if with_static;
// returns how many benchmarks it registered.
struct DesignShape {
    std::string layout;
    bf_blocked_shape shape;
};
size_t register_design_peers(uint64_t n, unsigned bpk, const std::vector<DesignShape> &shapes, bool with_static);

inline double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Touches and frees `bytes` of memory, untimed. On a virtual machine whose
// host backs guest memory lazily and takes freed pages back, memory left
// unused for a few seconds costs 1.1-1.6 s/GiB to touch again, against
// 0.1 s/GiB right after (a 244 MB mapping on a 2-vCPU Zen 3 guest); a call
// that allocates (a build's bitset and partition buffers, a partitioned
// peer's buffers) would be charged that at random. Touched right before,
// the call's own allocation reuses warm pages and pays only its own faults
// and zeroing. The shared side-by-side drivers do the same.
inline void prewarm(size_t bytes) {
    std::vector<uint8_t> warm(bytes, 1);
    benchmark::DoNotOptimize(warm.data());
}
// What the design series prewarms before a build or a partitioned peer's
// lookups: 16 bytes a key (a filter's bitset, about 1.3, and the largest
// partition buffers, a peer's 8 bytes a key of keys and more), and 64 MiB.
inline size_t design_prewarm_bytes(uint64_t n) { return (size_t)(16 * n) + ((size_t)64 << 20); }

// The timed-build loop of the build benchmarks: each iteration make()
// untimed, fill() timed (the iteration's manual time), then count() (the
// operations fill did) untimed. Returns the seconds timed; *ops gets the
// operations.
template <class Make, class Fill, class Count>
double timed_fills(benchmark::State &st, Make make, Fill fill, Count count, double *ops) {
    double total = 0;
    *ops = 0;
    for (auto _ : st) {
        make();
        double t0 = now_s();
        fill();
        double dt = now_s() - t0;
        st.SetIterationTime(dt);
        total += dt;
        *ops += count();
    }
    return total;
}

// The design series' two benchmarks of a point P (design.cc and
// design_peers.cc; P has n, make, fill, finish, build, where, counters):
// "build", memory prewarmed, then each iteration P::make untimed and
// P::fill timed, then P::finish; and the lookups, P::build and then
// timed(q) over the series' query set q (50 % positives), returning how
// many may be present (fewer than the positives aborts the run), and
// check(q) once after.
template <class P>
void register_design_build(const std::string &name, std::shared_ptr<P> p) {
    register_timed(name, [p](benchmark::State &st) {
        live_release();
        positives(p->n);
        prewarm(design_prewarm_bytes(p->n)); /* iterations after reuse the memory the one before freed */
        double ops;
        double total = timed_fills(
            st, [&] { p->make(); }, [&] { p->fill(); }, [&] { return (double)p->n; }, &ops);
        p->finish();
        p->counters(st, total, ops, false);
    });
}
// prepare (if any) runs before each timed call, untimed.
template <class P, class Timed, class Check>
void register_design_lookup(const std::string &name, std::shared_ptr<P> p, Timed timed, Check check,
                            std::function<void(const Queries &)> prepare = nullptr) {
    register_timed(name, [p, timed, check, prepare](benchmark::State &st) {
        p->build();
        const Queries &q = queries(p->n, 50, options().queries);
        double total = 0;
        for (auto _ : st) {
            if (prepare) prepare(q);
            double t0 = now_s();
            size_t found = timed(q);
            double dt = now_s() - t0;
            st.SetIterationTime(dt);
            total += dt;
            if (found < q.num_pos)
                die("FALSE NEGATIVE: %s: %zu found < %llu positives", p->where().c_str(), found,
                    (unsigned long long)q.num_pos);
        }
        check(q);
        p->counters(st, total, (double)st.iterations() * (double)q.set.hashes.size(), true);
    });
}

} // namespace bfb

#endif
