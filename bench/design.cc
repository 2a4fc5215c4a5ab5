// The design-space series (--bf_families design): the blocked family's
// shapes (B, S, z, k) x bits/key x n, after Lang et al. (VLDB 2019). Each
// point is a bf_blocked filter of exactly n * bits/key bits (rounded down
// to whole blocks) holding positive keys 0..n-1; recorded: the build (a
// fresh filter filled by one bf_blocked_insert_hashes call, ns per key),
// batch lookups (bf_blocked_contains_hashes counting the maybe-present
// answers, out = NULL, as the peers count; 50 % positives, ns per key),
// the FPR measured on --bf_design_fpr_keys never-inserted keys (the count
// is in every row, fpr_negatives) and the exact model's
// (bf_blocked_model_fpp_blocks at the filter's blocks and n).
//
// Layouts: the SBBF's (256, 8, 8, 8), register-blocked 32 and 64,
// blocked 512, sectorized 256 (64-bit sectors) and 512 (32-bit sectors),
// cache-sectorized 512 with z = 2 and 4 groups of 64-bit sectors, each at
// a few k. --bf_quick: one k per layout; --bf_full: every n of
// --bf_design_n, n = 10^8 for one k per layout and bits/key <= 12 only.
// The cuckoo shapes (shapes.cc) are the contenders the plots add; in a
// build with -Dbench_peers, the peer libraries' filters (design_peers.cc)
// run right after each point's shapes, on the same keys.
#include "bench.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <memory>

namespace bfb {
namespace {

struct Layout {
    const char *name;
    unsigned b, s, z;
    std::vector<unsigned> ks;  // the first is the layout's "one k"
};

const std::vector<Layout> &layouts() {
    static const std::vector<Layout> l = {
        {"sbbf", 256, 8, 8, {8}},
        {"reg32", 32, 1, 1, {4, 3, 5}},
        {"reg64", 64, 1, 1, {5, 4, 6}},
        {"blocked512", 512, 1, 1, {8, 6, 10}},
        {"sect256", 256, 4, 4, {8, 4}},
        {"sect512", 512, 8, 8, {8, 16}},
        {"csect512z2", 512, 8, 2, {6, 4, 8}},
        {"csect512z4", 512, 8, 4, {8, 4}},
    };
    return l;
}

struct Point {
    const Layout *layout;
    bf_blocked_shape shape;
    uint64_t n;
    unsigned bpk;
    bf_blocked *f = nullptr;
    double fpr_measured = NAN, fpr_model = NAN;

    std::string shape_name() const {
        return std::string(layout->name) + "-k" + std::to_string(shape.k);
    }
    std::string where() const { return "design/" + shape_name() + " n=" + std::to_string(n); }
    uint64_t bytes() const { return design_bytes(shape, n, bpk); }
    void destroy() {
        bf_blocked_free(f);
        f = nullptr;
    }
    void make() {
        destroy();
        int rc = bf_blocked_new_bytes(&f, bytes(), &shape);
        if (rc) die("cannot create %s: %s", where().c_str(), bf_strerror(rc));
    }
    void fill() {
        if (bf_blocked_insert_hashes(f, positives(n).hashes.data(), (size_t)n))
            die("insert failed: %s", where().c_str());
    }
    // The checks, both FPRs; the filter becomes the run's live one.
    void finish() {
        const KeySet &pos = positives(n);
        size_t found = bf_blocked_contains_hashes(f, pos.hashes.data(), (size_t)n, nullptr);
        if (found != n) die("FALSE NEGATIVE: %s, %zu of %" PRIu64 " keys found", where().c_str(), found, n);
        for (uint64_t i = 0; i < n; i += 1 + n / 4096)
            if (!bf_blocked_contains_hash(f, pos.hashes[i])) die("FALSE NEGATIVE: %s, key %" PRIu64, where().c_str(), i);
        const std::vector<uint64_t> &neg = negatives();
        fpr_measured = (double)bf_blocked_contains_hashes(f, neg.data(), neg.size(), nullptr) / (double)neg.size();
        fpr_model = bf_blocked_model_fpp_blocks(&shape, bf_blocked_num_blocks(f), n);
        live_set(this, [this]() { destroy(); });
    }
    void build() {
        if (live_is(this)) return;
        live_release();
        make();
        fill();
        finish();
    }

    static const std::vector<uint64_t> &negatives() { return design_negatives(); }

    void counters(benchmark::State &st, double seconds, double ops, bool lookup) {
        set_counters(st, seconds, ops, "blocked");
        st.counters["n"] = (double)n;
        st.counters["block_bits"] = shape.block_bits;
        st.counters["sectors"] = shape.sectors;
        st.counters["groups"] = shape.groups;
        st.counters["k"] = shape.k;
        st.counters["bits_per_key_target"] = bpk;
        st.counters["bytes"] = (double)bf_blocked_num_bytes(f);
        st.counters["bits_per_key"] = 8.0 * (double)bf_blocked_num_bytes(f) / (double)n;
        st.counters["fpr_measured"] = fpr_measured;
        st.counters["fpr_model"] = fpr_model;
        st.counters["fpr_negatives"] = (double)options().design_fpr_keys;
        st.counters["pos_pct"] = lookup ? 50 : 100;
        st.counters["batch"] = 1;
        st.counters["threads"] = 1;
        double lim = mem_limit_ns(bf_blocked_num_bytes(f));
        if (std::isfinite(lim)) {
            st.counters["mem_limit_ns"] = lim;
            st.counters["x_mem_limit"] = seconds * 1e9 / ops / lim;
        }
    }
};

std::string bench_name(const Point &p, const std::string &op) {
    return "design/" + p.shape_name() + "/" + op + "/n:" + std::to_string(p.n) + "/bpk:" + std::to_string(p.bpk);
}

// The build, timed: each iteration a fresh filter (allocated untimed) and
// one batch insert of the n keys; the last stays for the lookups.
void register_build(std::shared_ptr<Point> p) { register_design_build(bench_name(*p, "build"), p); }

// Batch lookups that count the maybe-present answers (out = NULL), as the
// peers' lookups do (design_peers.cc: their count calls); the answers are
// then written by one more, untimed call and checked.
void register_lookup(std::shared_ptr<Point> p) {
    register_design_lookup(
        bench_name(*p, "contains_batch/pos50"), p,
        [p](const Queries &q) {
            return bf_blocked_contains_hashes(p->f, q.set.hashes.data(), q.set.hashes.size(), nullptr);
        },
        [p](const Queries &q) {
            std::vector<uint8_t> out(q.set.hashes.size());
            bf_blocked_contains_hashes(p->f, q.set.hashes.data(), out.size(), out.data());
            for (size_t i = 0; i < q.is_pos.size(); i++)
                if (q.is_pos[i] && !out[i]) die("FALSE NEGATIVE: %s, query %zu", p->where().c_str(), i);
        });
}

bool wanted() {
    const Options &o = options();
    return o.matrix && std::find(o.families.begin(), o.families.end(), "design") != o.families.end();
}

// Whether the point (layout, k index, n, bits/key) is in the run's matrix.
bool in_matrix(size_t k_index, uint64_t n, unsigned bpk) {
    const Options &o = options();
    if (o.mode == "quick") return k_index == 0;
    if (o.mode == "full" && n >= 100000000) return k_index == 0 && bpk <= 12;
    return true;
}

} // namespace

void register_timed(const std::string &name, std::function<void(benchmark::State &)> fn) {
    benchmark::RegisterBenchmark(name.c_str(), std::move(fn))
        ->UseManualTime()
        ->MinTime(options().min_time)
        ->Unit(benchmark::kMicrosecond);
}

uint64_t design_bytes(const bf_blocked_shape &shape, uint64_t n, unsigned bpk) {
    uint64_t block = shape.block_bits / 8;
    uint64_t b = (uint64_t)((double)n * bpk / 8) / block * block;
    return std::max(b, block);
}

// The run's absent keys: the FPR stream's keys (odd, so never a positive),
// options().design_fpr_keys of them, hashed once.
const std::vector<uint64_t> &design_negatives() {
    static std::vector<uint64_t> h;
    const uint64_t want = options().design_fpr_keys;
    if (h.size() != want) {
        h.resize(want);
        for (uint64_t i = 0; i < want; i++) h[i] = key_hash(neg_key(i));
    }
    return h;
}

uint64_t design_max_bytes() {
    if (!wanted()) return 0;
    uint64_t mx = 0;
    for (uint64_t n : options().design_ns)
        for (unsigned bpk : options().design_bpks) mx = std::max(mx, (uint64_t)((double)n * bpk / 8));
    return mx;
}

size_t register_design() {
    if (!wanted()) return 0;
    const Options &o = options();
    std::string names, refused;
    std::vector<std::string> seen;
    size_t count = 0;
    for (uint64_t n : o.design_ns)
        for (unsigned bpk : o.design_bpks) {
            std::vector<DesignShape> group;  // the shapes built at (n, bpk)
            for (const Layout &l : layouts())
                for (size_t i = 0; i < l.ks.size(); i++) {
                    if (!in_matrix(i, n, bpk)) continue;
                    auto p = std::make_shared<Point>();
                    p->layout = &l;
                    p->shape = {l.b, l.s, l.z, l.ks[i]};
                    p->n = n;
                    p->bpk = bpk;
                    const char *rule = bf_blocked_shape_rule(&p->shape);
                    if (rule) {
                        if (refused.find(p->shape_name()) == std::string::npos)
                            refused += (refused.empty() ? "" : ",") + p->shape_name() + " (" + rule + ")";
                        continue;
                    }
                    if (std::find(seen.begin(), seen.end(), p->shape_name()) == seen.end()) {
                        seen.push_back(p->shape_name());
                        names += (names.empty() ? "" : ",") + p->shape_name();
                    }
                    register_build(p);
                    register_lookup(p);
                    count += 2;
                    group.push_back({l.name, p->shape});
                }
#ifdef BFB_HAVE_PEERS
            // The peers' contenders, beside the shapes of the same point.
            count += register_design_peers(n, bpk, group, bpk == o.design_bpks.front());
#endif
        }
    benchmark::AddCustomContext("bf_design_shapes", names);
    benchmark::AddCustomContext("bf_design_shapes_refused", refused);
    return count;
}

} // namespace bfb
