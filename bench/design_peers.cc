// The peers' contenders of the design-space series, built only with
// -Dbench_peers=DIR (scripts/bench.sh --peers DIR; the adapters are
// peers/*.cc). At each point (n, bits/key) of the series, right after its
// own shapes, every peer filter whose layout and k match a shape built
// there runs on the same keys: the 64-bit values the series' filters get
// (XXH64 of the key; the peers that hash again do so inside their calls),
// or their low 32 bits for a peer that takes 32-bit keys. The static
// filters (xor8, binary fuse 8) run once per n, at the bits per key they
// choose.
//
// Recorded as the series' rows are, under design-peer/<peer>/<name>/...:
// the build (ns per key; what the peer allocates apart from its insertions
// is prepared untimed, as the series' filters are allocated untimed), the
// lookups (the series' 50 % query set, through the peer's batch call or
// its loop of single-key lookups; ns per key), bits per key (bytes the peer
// allocated), the FPR measured on the series' absent keys and the exact
// model of the matching shape at the peer's blocks and n.
//
// Checked, and the run aborts otherwise: every inserted key is found (the
// peer's batch call over all of them, its single-key lookup over a sample,
// every positive of the query set); a peer that holds the SBBF's bits at
// the SBBF's bytes (libfilter's block filter, fastfilter_cpp's
// SimdBlockFilterFixed) answers as the series' SBBF of the same bytes does,
// key for key, on the absent keys, the query set and the sample.
#include "bench.h"
#include "bench_peers_build.h"
#include "peers.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace bfb {
namespace {

const std::vector<PeerSpec> &peer_specs() {
    static const std::vector<PeerSpec> all = [] {
        std::vector<PeerSpec> v;
#ifdef BFB_HAVE_PEER_PARTITIONED_FILTERS
        peers_partitioned_filters_plain(v);
        peers_partitioned_filters_partitioned(v);
#endif
#ifdef BFB_HAVE_PEER_LIBFILTER
        peers_libfilter(v);
#endif
#ifdef BFB_HAVE_PEER_FASTFILTER_CPP
        peers_fastfilter(v);
#endif
        return v;
    }();
    return all;
}

const bf_blocked_shape kSbbfShape = {256, 8, 8, 8};

// Keys as a peer takes them (the 64-bit values, or their low 32 bits), in
// a copy 64-byte aligned and padded to whole 64 bytes: partitioned-filters
// loads whole aligned vectors, the last one past the keys' end.
class PeerKeys {
public:
    PeerKeys() = default;
    PeerKeys(const PeerSpec &spec, const uint64_t *h, size_t n) { assign(spec, h, n); }
    void assign(const PeerSpec &spec, const uint64_t *h, size_t n) {
        const size_t width = spec.key_bits / 8, bytes = (n * width + 127) / 64 * 64;
        buf_.reset(static_cast<uint8_t *>(std::aligned_alloc(64, bytes)));
        if (!buf_) die("out of memory for %zu peer keys", n);
        std::memset(buf_.get(), 0, bytes);
        if (width == 8) {
            std::memcpy(buf_.get(), h, n * 8);
        } else {
            uint32_t *d = reinterpret_cast<uint32_t *>(buf_.get());
            for (size_t i = 0; i < n; i++) d[i] = (uint32_t)h[i];
        }
        n_ = n;
    }
    const void *data() const { return buf_.get(); }
    const uint32_t *u32() const { return reinterpret_cast<const uint32_t *>(buf_.get()); }
    size_t size() const { return n_; }
    void clear() {
        buf_.reset();
        n_ = 0;
    }

private:
    struct Free {
        void operator()(uint8_t *p) const { std::free(p); }
    };
    std::unique_ptr<uint8_t[], Free> buf_;
    size_t n_ = 0;
};

struct PeerPoint {
    const PeerSpec *spec = nullptr;
    bf_blocked_shape shape{};  // the series' shape it matches (k = 0: none)
    uint64_t n = 0;
    unsigned bpk = 0;          // 0: a static filter, sized by itself
    std::unique_ptr<PeerFilter> f;
    PeerKeys pos, qk;  // the positives and the query set, as the peer takes them
    double fpr_measured = NAN, fpr_model = NAN;
    uint64_t fpr_negatives = 0, fpr_excluded = 0, compared = 0;

    std::string series() const { return std::string(spec->peer) + "/" + spec->name; }
    std::string where() const {
        return "design peer " + series() + " n=" + std::to_string(n) + (bpk ? " bpk=" + std::to_string(bpk) : "");
    }
    uint64_t sbbf_bytes() const { return bpk ? design_bytes(kSbbfShape, n, bpk) : 0; }
    const void *positives_keys() {
        if (pos.size() != n) pos.assign(*spec, positives(n).hashes.data(), (size_t)n);
        return pos.data();
    }
    // The query set's keys as the peer takes them (made untimed, in finish).
    const void *query_keys(const Queries &) const { return qk.data(); }
    void destroy() {
        f.reset();
        pos.clear();
        qk.clear();
    }
    void make() {
        f.reset();
        f = spec->make(n, (double)bpk, sbbf_bytes());
        if (!f) die("cannot create %s", where().c_str());
        f->prepare(positives_keys(), (size_t)n);
    }
    void fill() {
        if (!f->build(positives_keys(), (size_t)n)) die("build failed: %s", where().c_str());
    }

    // Every key found: the batch call over all, single lookups over a sample.
    void check_positives() {
        size_t found = f->count(positives_keys(), (size_t)n);
        if (found != n) die("FALSE NEGATIVE: %s, %zu of %" PRIu64 " keys found", where().c_str(), found, n);
        std::vector<uint64_t> sample;
        for (uint64_t i = 0; i < n; i += 1 + n / 4096) sample.push_back(positives(n).hashes[i]);
        std::vector<uint8_t> out(sample.size());
        f->answers(PeerKeys(*spec, sample.data(), sample.size()).data(), sample.size(), out.data());
        for (size_t i = 0; i < out.size(); i++)
            if (!out[i]) die("FALSE NEGATIVE: %s, key %zu (single lookup)", where().c_str(), i * (size_t)(1 + n / 4096));
    }

    // The measured FPR. With 32-bit keys, an absent key whose low 32 bits
    // are a positive's is a present key to the peer: such keys are left out
    // (their count is recorded).
    void measure_fpr() {
        const std::vector<uint64_t> &neg = design_negatives();
        if (spec->key_bits == 64) {
            fpr_negatives = neg.size();
            PeerKeys k(*spec, neg.data(), neg.size());
            fpr_measured = (double)f->count(k.data(), neg.size()) / (double)neg.size();
            return;
        }
        positives_keys();
        std::vector<uint32_t> low(pos.u32(), pos.u32() + n);
        std::sort(low.begin(), low.end());
        std::vector<uint64_t> keep;
        keep.reserve(neg.size());
        for (uint64_t h : neg)
            if (!std::binary_search(low.begin(), low.end(), (uint32_t)h)) keep.push_back(h);
        fpr_excluded = neg.size() - keep.size();
        fpr_negatives = keep.size();
        if (keep.empty()) die("%s: every absent key's low 32 bits are a positive's", where().c_str());
        PeerKeys k(*spec, keep.data(), keep.size());
        fpr_measured = (double)f->count(k.data(), keep.size()) / (double)keep.size();
    }

    // A peer with the SBBF's bits answers as the series' SBBF of its bytes.
    void compare_with_sbbf() {
        if (!spec->sbbf_bits || !bpk) return;
        if (spec->key_bits != 64) die("%s: an SBBF twin takes the 64-bit hashes", where().c_str());
        const uint64_t want = sbbf_bytes();
        if (f->bytes() != want)
            die("%s holds %" PRIu64 " bytes, the series' SBBF %" PRIu64 ": not the same bits", where().c_str(),
                f->bytes(), want);
        bf_blocked *ours = nullptr;
        int rc = bf_blocked_new_bytes(&ours, want, &kSbbfShape);
        if (rc) die("cannot create the SBBF beside %s: %s", where().c_str(), bf_strerror(rc));
        std::unique_ptr<bf_blocked, void (*)(bf_blocked *)> hold(ours, bf_blocked_free);
        if (bf_blocked_insert_hashes(ours, positives(n).hashes.data(), (size_t)n))
            die("insert failed: the SBBF beside %s", where().c_str());
        auto same = [&](const uint64_t *h, size_t cnt, const char *what) {
            std::vector<uint8_t> a(cnt), b(cnt);
            bf_blocked_contains_hashes(ours, h, cnt, a.data());
            f->answers(h, cnt, b.data());
            for (size_t i = 0; i < cnt; i++)
                if (a[i] != b[i])
                    die("ANSWERS DIFFER: %s says %d, the series' SBBF of the same bytes %d, on %s %zu (hash 0x%016" PRIx64
                        ")", where().c_str(), b[i], a[i], what, i, h[i]);
            compared += cnt;
        };
        const std::vector<uint64_t> &neg = design_negatives();
        same(neg.data(), neg.size(), "absent key");
        const Queries &q = queries(n, 50, options().queries);
        same(q.set.hashes.data(), q.set.hashes.size(), "query");
        same(positives(n).hashes.data(), (size_t)std::min<uint64_t>(n, 1u << 16), "inserted key");
    }

    void finish() {
        check_positives();
        measure_fpr();
        compare_with_sbbf();
        if (shape.k) {
            uint64_t blocks = f->bytes() * 8 / shape.block_bits;
            fpr_model = bf_blocked_model_fpp_blocks(&shape, blocks, n);
        } else if (spec->fp_bits) {
            fpr_model = std::ldexp(1.0, -(int)spec->fp_bits);
        }
        const Queries &q = queries(n, 50, options().queries);
        qk.assign(*spec, q.set.hashes.data(), q.set.hashes.size());
        live_set(this, [this]() { destroy(); });
    }
    void build() {
        if (live_is(this)) return;
        live_release();
        make();
        fill();
        finish();
    }

    void counters(benchmark::State &st, double seconds, double ops, bool lookup) {
        set_counters(st, seconds, ops, "peer/" + series());
        st.counters["n"] = (double)n;
        if (shape.k) {
            st.counters["block_bits"] = shape.block_bits;
            st.counters["sectors"] = shape.sectors;
            st.counters["groups"] = shape.groups;
            st.counters["k"] = shape.k;
        }
        if (bpk) st.counters["bits_per_key_target"] = bpk;
        st.counters["static"] = bpk ? 0 : 1;
        st.counters["bytes"] = (double)f->bytes();
        st.counters["bits_per_key"] = 8.0 * (double)f->bytes() / (double)n;
        st.counters["key_bits"] = spec->key_bits;
        st.counters["partitions"] = spec->partitions;
        st.counters["fpr_measured"] = fpr_measured;
        if (std::isfinite(fpr_model)) st.counters["fpr_model"] = fpr_model;
        st.counters["fpr_negatives"] = (double)fpr_negatives;
        if (spec->key_bits == 32) st.counters["fpr_negatives_excluded"] = (double)fpr_excluded;
        if (spec->sbbf_bits) st.counters["answers_equal_sbbf"] = (double)compared;
        st.counters["pos_pct"] = lookup ? 50 : 100;
        st.counters["batch"] = 1;
        st.counters["threads"] = 1;
        double lim = mem_limit_ns(f->bytes());
        if (std::isfinite(lim)) {
            st.counters["mem_limit_ns"] = lim;
            st.counters["x_mem_limit"] = seconds * 1e9 / ops / lim;
        }
    }
};

std::string bench_name(const PeerPoint &p, const std::string &op) {
    return "design-peer/" + p.series() + "/" + op + "/n:" + std::to_string(p.n) +
           (p.bpk ? "/bpk:" + std::to_string(p.bpk) : "");
}

// As the series' build: each iteration a fresh filter (prepared untimed)
// and one build of the n keys; the last stays for the lookups.
void register_build(std::shared_ptr<PeerPoint> p) { register_design_build(bench_name(*p, "build"), p); }

// The peer's batch call (or its loop of single lookups) counts; its
// single-key answers are checked after the last pass. Partitioned peers
// get memory prewarmed before each call, untimed (bench.h's prewarm): as
// much as their builds get, or as much per query if there are more
// queries than keys.
void register_lookup(std::shared_ptr<PeerPoint> p) {
    std::function<void(const Queries &)> prepare = nullptr;
    if (p->spec->partitions > 1)
        prepare = [p](const Queries &q) {
            prewarm(design_prewarm_bytes(std::max<uint64_t>(p->n, q.set.hashes.size())));
        };
    register_design_lookup(
        bench_name(*p, "contains_batch/pos50"), p,
        [p](const Queries &q) { return p->f->count(p->query_keys(q), q.set.hashes.size()); },
        [p](const Queries &q) {
            std::vector<uint8_t> out(q.set.hashes.size());
            p->f->answers(p->query_keys(q), out.size(), out.data());
            for (size_t i = 0; i < out.size(); i++)
                if (q.is_pos[i] && !out[i]) die("FALSE NEGATIVE: %s, query %zu", p->where().c_str(), i);
        },
        prepare);
}

void add_context() {
    std::string how;
    for (const PeerSpec &s : peer_specs())
        how += (how.empty() ? "" : "; ") + std::string(s.peer) + "/" + s.name + ": " + s.how;
    benchmark::AddCustomContext("bf_design_peers_dir", BFB_PEERS_DIR);
    benchmark::AddCustomContext("bf_design_peers_built", BFB_PEERS_BUILT);
    benchmark::AddCustomContext("bf_design_peers_missing", BFB_PEERS_MISSING);
    benchmark::AddCustomContext("bf_design_peers_upstream_commits", BFB_PEERS_COMMITS);
    benchmark::AddCustomContext("bf_design_peers_flags", BFB_PEERS_FLAGS);
    const char *tunables = std::getenv("GLIBC_TUNABLES");
    benchmark::AddCustomContext("bf_design_peers_glibc_tunables", tunables ? tunables : "");
    benchmark::AddCustomContext("bf_design_peers_partitioned_from_n", fmt_num((double)options().design_peer_part_n));
    benchmark::AddCustomContext("bf_design_peers", how);
}

} // namespace

size_t register_design_peers(uint64_t n, unsigned bpk, const std::vector<DesignShape> &shapes, bool with_static) {
    static bool context_added = false;
    if (!context_added) {
        add_context();
        context_added = true;
    }
    size_t count = 0;
    for (const PeerSpec &s : peer_specs()) {
        if (s.partitions > 1 && n < options().design_peer_part_n) continue;
        auto p = std::make_shared<PeerPoint>();
        p->spec = &s;
        p->n = n;
        if (s.k) {
            auto m = std::find_if(shapes.begin(), shapes.end(),
                                  [&s](const DesignShape &d) { return d.layout == s.layout && d.shape.k == s.k; });
            if (m == shapes.end()) continue;
            p->shape = m->shape;
            p->bpk = bpk;
        } else if (!with_static) {
            continue;
        }
        register_build(p);
        register_lookup(p);
        count += 2;
    }
    return count;
}

} // namespace bfb
