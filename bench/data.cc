// Keys, query sets, the pinned thread pool, huge-page buffers and the
// memory-limit table.
#include "bench.h"

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <memory>
#include <new>

namespace bfb {

Options &options() {
    static Options o;
    return o;
}

void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    std::fputs("blockfilter_bench: FATAL: ", stderr);
    std::vfprintf(stderr, fmt, ap);
    std::fputs("\n", stderr);
    va_end(ap);
    std::fflush(stderr);
    std::abort();
}

// SplitMix64's finaliser (a bijection of 64-bit words).
uint64_t mix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static void fill(KeySet &s, size_t from, size_t to, uint64_t (*key)(uint64_t)) {
    s.keys.resize(to);
    s.hashes.resize(to);
    for (size_t i = from; i < to; i++) {
        s.keys[i] = key(i);
        s.hashes[i] = key_hash(s.keys[i]);
    }
}

const KeySet &positives(uint64_t n) {
    static KeySet s;
    if (s.keys.size() < n) fill(s, s.keys.size(), n, pos_key);
    return s;
}

const KeySet &fpr_negatives() {
    static KeySet s;
    if (s.keys.size() != options().fpr_keys) fill(s, 0, options().fpr_keys, neg_key);
    return s;
}

// Query negatives: a third stream (odd keys from a different seed), so they
// never coincide with the FPR set.
static uint64_t query_neg_key(uint64_t i) {
    return (mix64(options().seed ^ 0xd6e8feb86659fd93ull) + mix64(i)) << 1 | 1u;
}

namespace {
struct QueryKey {
    uint64_t n;
    int pct;
    uint64_t count;
    bool operator<(const QueryKey &o) const {
        if (n != o.n) return n < o.n;
        if (pct != o.pct) return pct < o.pct;
        return count < o.count;
    }
};
std::map<QueryKey, Queries> &query_cache() {
    static std::map<QueryKey, Queries> c;
    return c;
}
} // namespace

const Queries &queries(uint64_t n, int pct, uint64_t count) {
    auto &cache = query_cache();
    QueryKey qk{n, pct, count};
    auto it = cache.find(qk);
    if (it != cache.end()) return it->second;
    const uint64_t np = (uint64_t)std::llround((double)count * pct / 100.0);
    Queries qs;
    qs.num_pos = np;
    qs.set.keys.resize(count);
    qs.is_pos.assign(count, 0);
    // Deterministic per (seed, n, pct, count).
    uint64_t state = mix64(options().seed ^ (n * 1315423911ull) ^ ((uint64_t)pct << 56) ^ (count << 20));
    auto rnd = [&state]() { return state = mix64(state); };
    for (uint64_t i = 0; i < count; i++) {
        if (i < np) {
            uint64_t j = mulhi(rnd(), n);
            qs.set.keys[i] = pos_key(j);
            qs.is_pos[i] = 1;
        } else {
            qs.set.keys[i] = query_neg_key(i);
        }
    }
    for (uint64_t i = count; i > 1; i--) {  // Fisher-Yates, keys and flags together
        uint64_t j = mulhi(rnd(), i);
        std::swap(qs.set.keys[i - 1], qs.set.keys[j]);
        std::swap(qs.is_pos[i - 1], qs.is_pos[j]);
    }
    qs.set.hashes.resize(count);
    for (uint64_t i = 0; i < count; i++) qs.set.hashes[i] = key_hash(qs.set.keys[i]);
    return cache.emplace(qk, std::move(qs)).first->second;
}

void release_queries() { query_cache().clear(); }

// ---------------------------------------------------------------------------
Pool::Pool(int max_threads) {
    for (int i = 1; i < max_threads; i++) workers_.emplace_back(&Pool::worker, this, i);
}

Pool::~Pool() {
    {
        std::lock_guard<std::mutex> g(mu_);
        stop_ = true;
    }
    cv_start_.notify_all();
    for (auto &t : workers_) t.join();
}

void Pool::worker(int index) {
    pin_thread_to_core(index);
    uint64_t seen = 0;
    for (;;) {
        const std::function<void(int)> *job;
        {
            std::unique_lock<std::mutex> g(mu_);
            cv_start_.wait(g, [&] { return stop_ || generation_ != seen; });
            if (stop_) return;
            seen = generation_;
            if (index >= active_) continue;
            job = job_;
        }
        (*job)(index);
        {
            std::lock_guard<std::mutex> g(mu_);
            if (--pending_ == 0) cv_done_.notify_all();
        }
    }
}

double Pool::run(int threads, const std::function<void(int)> &fn) {
    if (threads < 1 || threads > (int)workers_.size() + 1) die("pool: %d threads requested", threads);
    if (threads == 1) {
        double t0 = now_s();
        fn(0);
        return now_s() - t0;
    }
    double t0;
    {
        std::lock_guard<std::mutex> g(mu_);
        job_ = &fn;
        active_ = threads;
        pending_ = threads - 1;
        generation_++;
        t0 = now_s();
    }
    cv_start_.notify_all();
    fn(0);
    std::unique_lock<std::mutex> g(mu_);
    cv_done_.wait(g, [&] { return pending_ == 0; });
    return now_s() - t0;
}

Pool &pool() {
    static Pool p(std::max(1, num_cores()));
    return p;
}

// ---------------------------------------------------------------------------
static std::map<uint64_t, double> &mem_table() {
    static std::map<uint64_t, double> t;
    return t;
}

void record_mem_limit(uint64_t bytes, double ns) { mem_table()[bytes] = ns; }

double mem_limit_ns(uint64_t bytes) {
    auto &t = mem_table();
    if (t.empty()) return std::nan("");
    auto hi = t.lower_bound(bytes);
    if (hi == t.end()) return std::prev(hi)->second;
    if (hi->first == bytes || hi == t.begin()) return hi->second;
    auto lo = std::prev(hi);
    double x = std::log((double)bytes), x0 = std::log((double)lo->first), x1 = std::log((double)hi->first);
    double y0 = std::log(lo->second), y1 = std::log(hi->second);
    return std::exp(y0 + (y1 - y0) * (x - x0) / (x1 - x0));
}

// ---------------------------------------------------------------------------
// Bytes of this process's anonymous memory backed by transparent huge pages.
static double anon_huge_bytes() {
    std::FILE *f = std::fopen("/proc/self/smaps_rollup", "r");
    if (!f) return 0;
    char line[256];
    double kb = 0;
    while (std::fgets(line, sizeof line, f))
        if (std::sscanf(line, "AnonHugePages: %lf kB", &kb) == 1) break;
    std::fclose(f);
    return kb * 1024;
}

BigBuffer::BigBuffer(size_t bytes) {
    const double huge_before = anon_huge_bytes();
    const size_t align = (size_t)2 << 20;
    size = bytes;
    base_len_ = bytes + align;
    base_ = mmap(nullptr, base_len_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base_ == MAP_FAILED) die("mmap of %zu bytes failed", base_len_);
    uintptr_t p = ((uintptr_t)base_ + align - 1) & ~(uintptr_t)(align - 1);
    data = (uint8_t *)p;
#ifdef MADV_HUGEPAGE
    huge_advised = madvise(data, (bytes + align - 1) & ~(align - 1), MADV_HUGEPAGE) == 0;
#endif
    // Touch every page (with non-zero bytes, so no zero-page sharing).
    for (size_t i = 0; i < bytes; i += 4096) data[i] = (uint8_t)(i >> 12 | 1);
    huge_fraction = std::min(1.0, std::max(0.0, (anon_huge_bytes() - huge_before) / (double)bytes));
}

BigBuffer::~BigBuffer() {
    if (base_) munmap(base_, base_len_);
}

// ---------------------------------------------------------------------------
// The one live filter of the run (bench.h).
namespace {
const void *g_live_owner = nullptr;
std::function<void()> g_live_release;
} // namespace

void live_release() {
    if (g_live_release) g_live_release();
    g_live_release = nullptr;
    g_live_owner = nullptr;
}

bool live_is(const void *owner) { return owner && g_live_owner == owner; }

void live_set(const void *owner, std::function<void()> release) {
    g_live_owner = owner;
    g_live_release = std::move(release);
}

} // namespace bfb
