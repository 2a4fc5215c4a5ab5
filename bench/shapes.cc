// The cuckoo-shapes series: the cuckoo filter at every (bucket size b,
// fingerprint bits f) of {1, 2, 4, 8} x {4, 8, 12, 16, 32}, plus the
// semi-sorted b = 4 tables at f = 8, 12, 16, each against an SBBF of exactly
// its size, at n = 10^6 (and 10^8 in --bf_full; --bf_shape_n).
//
// A shape's table has the buckets bf_cuckoo_model_load(b) asks for n keys
// (rounded up to an even count, as the library's own sizing does) and is
// filled with positive keys 0, 1, ... one bf_cuckoo_insert_hash at a time
// until n are in or the table is full (BF_EFULL with the victim slot taken).
// A BF_EFULL with the victim slot free is a key whose two buckets hold only
// copies of its fingerprint (small f and b): it answers present and is
// skipped. Recorded: bits/key (table bytes * 8 / fingerprints stored), the
// load reached, the FPR on the run's never-inserted keys and the model's at
// that load, lookups (50 % positives drawn from the keys offered, single
// and batch) and the fill itself (insert_single, ns per insert call).
//
// The reference, series cuckoo-shapes/sbbf-<shape>: an SBBF of the table's
// bytes (rounded down to whole 32-byte blocks) holding the same keys,
// through the SBBF's own API with the run's best kernel; the cuckoo filter
// too is driven through its own API (bf_cuckoo_*), so neither pays the
// bf_filter facade. The cuckoo rows also record the bits/key the SBBF would
// need for the shape's model FPR (bf_sbbf_compact_bytes).
#include "bench.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <memory>

#define BFB_NOINLINE __attribute__((noinline))

namespace bfb {
namespace {

struct Shape {
    unsigned b, f;
    bool semi;
    std::string name() const {
        return "b" + std::to_string(b) + "-f" + std::to_string(f) + (semi ? "-semi" : "");
    }
    unsigned flags() const {
#ifdef BF_CUCKOO_SEMISORTED
        return semi ? BF_CUCKOO_SEMISORTED : 0u;
#else
        return 0u;
#endif
    }
};

// What filling the shape's table found; the SBBF twin is sized by it.
struct Fill {
    bool known = false;
    uint64_t buckets = 0, table_bytes = 0;
    uint64_t offered = 0;   // keys 0..offered-1 went in (stored or skipped)
    uint64_t stored = 0;    // fingerprints in the table (bf_cuckoo_count)
    uint64_t skipped = 0;   // BF_EFULL with the victim slot free
    uint64_t calls = 0;     // insert calls, the failing one included
    bool full = false;      // stopped by a full table (victim slot taken)
};

uint64_t buckets_for(uint64_t n, unsigned b) {
    double load = bf_cuckoo_model_load(b);
    if (!(load > 0 && load <= 1)) die("bf_cuckoo_model_load(%u) = %g", b, load);
    uint64_t nb = (uint64_t)std::ceil((double)n / ((double)b * load));
    nb += nb & 1;
    return std::max<uint64_t>(nb, 2);
}

BFB_NOINLINE int cuckoo_insert(bf_cuckoo *c, uint64_t h) { return bf_cuckoo_insert_hash(c, h); }
BFB_NOINLINE bool cuckoo_contains(const bf_cuckoo *c, uint64_t h) { return bf_cuckoo_contains_hash(c, h); }
BFB_NOINLINE int sbbf_insert(bf_sbbf *s, uint64_t h) { return bf_sbbf_insert_hash(s, h); }
BFB_NOINLINE bool sbbf_contains(const bf_sbbf *s, uint64_t h) { return bf_sbbf_contains_hash(s, h); }

// One filter of the series: a shape's cuckoo table, or its SBBF twin.
struct ShapePoint {
    Shape shape;
    uint64_t n = 0;
    bool twin = false;
    std::shared_ptr<Fill> fill;  // shared by the shape and its twin
    bf_cuckoo *c = nullptr;
    bf_sbbf *s = nullptr;
    uint64_t bytes = 0;
    double fpr_measured = 0, fpr_model = 0, sbbf_bpk_same_fpr = NAN;
    std::string kernel;

    std::string series() const { return (twin ? "sbbf-" : "") + shape.name(); }
    std::string where() const { return "cuckoo-shapes/" + series() + " n=" + std::to_string(n); }

    void destroy() {
        bf_cuckoo_free(c);
        c = nullptr;
        bf_sbbf_free(s);
        s = nullptr;
    }

    // A fresh, empty filter.
    void make() {
        destroy();
        int rc;
        if (twin) {
            uint64_t b = std::max<uint64_t>(32, fill->table_bytes / 32 * 32);
            rc = bf_sbbf_new_bytes_kernel(&s, (size_t)b, options().kernels.front().c_str());
        } else {
            rc = bf_cuckoo_new_table(&c, buckets_for(n, shape.b), shape.b, shape.f, shape.flags());
        }
        if (rc) die("cannot create %s: %s", where().c_str(), bf_strerror(rc));
    }

    // Inserts keys one call at a time (the timed part of insert_single).
    void insert_keys() {
        const KeySet &pos = positives(n);
        const uint64_t *h = pos.hashes.data();
        if (twin) {
            for (uint64_t i = 0; i < fill->offered; i++)
                if (sbbf_insert(s, h[i])) die("insert failed: %s", where().c_str());
            return;
        }
        Fill f;
        f.buckets = bf_cuckoo_num_buckets(c);
        f.table_bytes = bf_cuckoo_table_bytes(c);
        uint64_t i = 0;
        for (; i < n; i++) {
            int rc = cuckoo_insert(c, h[i]);
            f.calls++;
            if (rc == BF_OK) continue;
            if (rc != BF_EFULL) die("insert failed: %s: %s", where().c_str(), bf_strerror(rc));
            bf_cuckoo_state st;
            bf_cuckoo_get_state(c, &st);
            if (st.victim_fp) {
                f.full = true;
                break;
            }
            f.skipped++;
        }
        f.offered = i;
        f.stored = bf_cuckoo_count(c);
        f.known = true;
        *fill = f;
    }

    // Every key offered must be found, by the batch call and one by one.
    void verify() {
        const KeySet &pos = positives(n);
        const uint64_t m = fill->offered;
        size_t found = twin ? bf_sbbf_contains_hashes(s, pos.hashes.data(), (size_t)m, nullptr)
                            : bf_cuckoo_contains_hashes(c, pos.hashes.data(), (size_t)m, nullptr);
        if (found != m) die("FALSE NEGATIVE: %s, %zu of %" PRIu64 " keys found (batch)", where().c_str(), found, m);
        for (uint64_t i = 0; i < m; i += 1 + m / 4096)
            if (!(twin ? sbbf_contains(s, pos.hashes[i]) : cuckoo_contains(c, pos.hashes[i])))
                die("FALSE NEGATIVE: %s, key %" PRIu64, where().c_str(), i);
    }

    // After a fill: the checks, the FPR, the model; the filter becomes the
    // run's live one.
    void finish() {
        verify();
        const KeySet &neg = fpr_negatives();
        size_t fp = twin ? bf_sbbf_contains_hashes(s, neg.hashes.data(), neg.hashes.size(), nullptr)
                         : bf_cuckoo_contains_hashes(c, neg.hashes.data(), neg.hashes.size(), nullptr);
        fpr_measured = (double)fp / (double)neg.hashes.size();
        if (twin) {
            bytes = bf_sbbf_num_bytes(s);
            kernel = bf_sbbf_kernel(s);
            fpr_model = bf_sbbf_model_fpp(bytes, fill->offered);
        } else {
            bytes = fill->table_bytes;
            kernel = "cuckoo";
            fpr_model = bf_cuckoo_model_fpp(shape.b, shape.f, load());
            size_t sb = 0;
            sbbf_bpk_same_fpr = fpr_model > 0 && fpr_model < 1 && fill->offered &&
                                        bf_sbbf_compact_bytes(fill->offered, fpr_model, &sb) == BF_OK
                                    ? 8.0 * (double)sb / (double)fill->offered
                                    : NAN;
        }
        live_set(this, [this]() { destroy(); });
    }

    double load() const { return (double)fill->stored / ((double)fill->buckets * shape.b); }

    // The twin needs the shape's fill: fill the shape's table once, untimed.
    void learn_fill() {
        if (!twin || fill->known) return;
        ShapePoint probe = *this;
        probe.twin = false;
        probe.c = nullptr;
        probe.s = nullptr;
        probe.make();
        probe.insert_keys();
        probe.destroy();
    }

    void build() {
        if (live_is(this)) return;
        live_release();
        learn_fill();
        make();
        insert_keys();
        finish();
    }

    void counters(benchmark::State &st, double seconds, double ops, int pct, bool batch) {
        set_counters(st, seconds, ops, kernel);
        const Fill &f = *fill;
        st.counters["n"] = (double)n;
        st.counters["bucket_size"] = shape.b;
        st.counters["fp_bits"] = shape.f;
        st.counters["semisorted"] = shape.semi ? 1 : 0;
        st.counters["sbbf_twin"] = twin ? 1 : 0;
        st.counters["bytes"] = (double)bytes;
        st.counters["keys_offered"] = (double)f.offered;
        st.counters["filled_n"] = f.offered == n ? 1 : 0;
        if (twin) {
            st.counters["bits_per_key"] = 8.0 * (double)bytes / (double)f.offered;
        } else {
            st.counters["buckets"] = (double)f.buckets;
            st.counters["stored"] = (double)f.stored;
            st.counters["skipped"] = (double)f.skipped;
            st.counters["load"] = load();
            st.counters["model_load"] = bf_cuckoo_model_load(shape.b);
            st.counters["bits_per_key"] = 8.0 * (double)bytes / (double)f.stored;
            if (std::isfinite(sbbf_bpk_same_fpr)) st.counters["sbbf_bits_per_key_same_fpr"] = sbbf_bpk_same_fpr;
        }
        st.counters["fpr_measured"] = fpr_measured;
        st.counters["fpr_model"] = fpr_model;
        st.counters["fpr_negatives"] = (double)options().fpr_keys;
        st.counters["pos_pct"] = pct;
        st.counters["batch"] = batch ? 1 : 0;
        st.counters["threads"] = 1;
        double lim = mem_limit_ns(bytes);
        if (std::isfinite(lim)) {
            st.counters["mem_limit_ns"] = lim;
            st.counters["x_mem_limit"] = seconds * 1e9 / ops / lim;
        }
    }
};

std::string bench_name(const ShapePoint &p, const std::string &op) {
    return "cuckoo-shapes/" + p.series() + "/" + op + "/n:" + std::to_string(p.n);
}

// The fill, timed: each iteration a fresh table filled key by key; the
// last stays as the point's filter for the lookups that follow.
void register_insert(std::shared_ptr<ShapePoint> p) {
    register_timed(bench_name(*p, "insert_single"), [p](benchmark::State &st) {
        live_release();
        p->learn_fill();
        double ops;
        double total = timed_fills(
            st, [&] { p->make(); }, [&] { p->insert_keys(); },
            [&] { return (double)(p->twin ? p->fill->offered : p->fill->calls); }, &ops);
        p->finish();
        p->counters(st, total, ops, 100, false);
    });
}

void register_contains(std::shared_ptr<ShapePoint> p, bool batch) {
    const int pct = 50;
    std::string op = std::string(batch ? "contains_batch" : "contains_single") + "/pos" + std::to_string(pct);
    register_timed(bench_name(*p, op), [p, batch](benchmark::State &st) {
        p->build();
        const Queries &q = queries(p->fill->offered, pct, options().queries);
        const uint64_t *h = q.set.hashes.data();
        const size_t cnt = q.set.hashes.size();
        std::vector<uint8_t> out(batch ? cnt : 0);
        double total = 0, ops = 0;
        for (auto _ : st) {
            size_t found = 0;
            double t0 = now_s();
            if (batch && p->twin) {
                found = bf_sbbf_contains_hashes(p->s, h, cnt, out.data());
            } else if (batch) {
                found = bf_cuckoo_contains_hashes(p->c, h, cnt, out.data());
            } else if (p->twin) {
                for (size_t i = 0; i < cnt; i++) found += sbbf_contains(p->s, h[i]);
            } else {
                for (size_t i = 0; i < cnt; i++) found += cuckoo_contains(p->c, h[i]);
            }
            double dt = now_s() - t0;
            st.SetIterationTime(dt);
            total += dt;
            ops += (double)cnt;
            if (found < q.num_pos)
                die("FALSE NEGATIVE: %s: %zu found < %" PRIu64 " positives", p->where().c_str(), found, q.num_pos);
        }
        for (size_t i = 0; i < cnt && batch; i++)
            if (q.is_pos[i] && !out[i]) die("FALSE NEGATIVE: %s, query %zu (batch)", p->where().c_str(), i);
        p->counters(st, total, ops, pct, batch);
    });
}

// The shapes this library builds: {1,2,4,8} x {4,8,12,16,32}, and the
// semi-sorted b = 4 ones where BF_CUCKOO_SEMISORTED exists. A shape the
// library refuses (bf_cuckoo_new_table fails on a 2-bucket table) is left
// out and named in the context (bf_shapes_refused).
std::vector<Shape> shapes(std::string *refused) {
    std::vector<Shape> all;
    for (unsigned b : {1u, 2u, 4u, 8u})
        for (unsigned f : {4u, 8u, 12u, 16u, 32u}) all.push_back({b, f, false});
#ifdef BF_CUCKOO_SEMISORTED
    for (unsigned f : {8u, 12u, 16u}) all.push_back({4, f, true});
#endif
    std::vector<Shape> ok;
    for (const Shape &s : all) {
        bf_cuckoo *c = nullptr;
        int rc = bf_cuckoo_new_table(&c, 2, s.b, s.f, s.flags());
        bf_cuckoo_free(c);
        if (rc == BF_OK) ok.push_back(s);
        else *refused += (refused->empty() ? "" : ",") + s.name() + " (" + bf_strerror(rc) + ")";
    }
    return ok;
}

bool wanted() {
    const Options &o = options();
    return o.matrix && std::find(o.families.begin(), o.families.end(), "cuckoo-shapes") != o.families.end();
}

} // namespace

uint64_t cuckoo_shapes_max_bytes() {
    if (!wanted()) return 0;
    uint64_t mx = 0;
    for (uint64_t n : options().shape_ns)
        for (unsigned b : {1u, 2u, 4u, 8u}) mx = std::max(mx, buckets_for(n, b) * b * 32 / 8);
    return mx;
}

size_t register_cuckoo_shapes() {
    if (!wanted()) return 0;
    std::string refused;
    std::vector<Shape> list = shapes(&refused);
    std::string names;
    for (const Shape &s : list) names += (names.empty() ? "" : ",") + s.name();
    benchmark::AddCustomContext("bf_shapes", names);
    benchmark::AddCustomContext("bf_shapes_refused", refused);
    size_t count = 0;
    for (uint64_t n : options().shape_ns)
        for (const Shape &s : list) {
            auto fill = std::make_shared<Fill>();
            for (bool twin : {false, true}) {
                auto p = std::make_shared<ShapePoint>();
                p->shape = s;
                p->n = n;
                p->twin = twin;
                p->fill = fill;
                register_insert(p);
                register_contains(p, false);
                register_contains(p, true);
                count += 3;
            }
        }
    return count;
}

} // namespace bfb
