// How the scalable SBBF's batch lookup should walk its layers (the choice
// behind bf_scalable_contains_hashes; docs/families.md quotes the result).
//
//   ./build/<dir>/bench/bench_scalable --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true      (one command line)
//
// One chain of 12 layers is built once (expansion 1, 2^18 keys per layer,
// ratio 0.8, 1 %: about 10 MB, past L2); chains of 1..12 layers are its
// prefixes, rebuilt with bf_scalable_restore + bf_scalable_write_layer.
// Each benchmark looks up batches of 4096 pre-hashed keys, all absent or
// half present (present keys spread evenly over the layers), with:
//   mode 0  newest layer first over the still-undecided keys (compacted):
//           the library's bf_scalable_contains_hashes,
//   mode 1  every layer over every key, answers OR-ed,
//   mode 2  one key at a time, newest layer first, stopping at a hit.
// Modes 1 and 2 are built here from public calls, on the chain's layers
// (bf_scalable_get_layer), 256 keys at a time like the library's walk;
// before timing, each mode must give the library's answers. Items/s is
// keys looked up per second; compare modes as ratios within one run.
#include <benchmark/benchmark.h>

extern "C" {
#include <blockfilter.h>
#include <blockfilter_advanced.h>
}

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

constexpr uint64_t kPerLayer = uint64_t(1) << 18;
constexpr int kMaxLayers = 12;
constexpr size_t kBatch = 4096;
constexpr size_t kPool = size_t(1) << 20; // query hashes cycled through

uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

const bf_scalable_params kParams = {kPerLayer, 0.01, 1, 0.8, 0};

struct Chains {
    bf_scalable *chain[kMaxLayers + 1] = {};
    std::vector<uint64_t> present; // keys added, in order (layer i: [i*P, (i+1)*P))

    Chains() {
        bf_scalable *full = nullptr;
        if (bf_scalable_new(&full, &kParams) != BF_OK) std::abort();
        present.reserve(kPerLayer * kMaxLayers);
        for (uint64_t i = 0;; i++) {
            bf_scalable_layer l;
            if (bf_scalable_get_layer(full, kMaxLayers - 1, &l) == BF_OK && l.count == l.capacity)
                break;
            bool added = false;
            uint64_t h = mix(i);
            if (bf_scalable_insert_hash(full, h, &added) != BF_OK) std::abort();
            if (added) present.push_back(h);
        }
        for (int n = 1; n <= kMaxLayers; n++) {
            std::vector<bf_scalable_layer_desc> d(n);
            for (int i = 0; i < n; i++) {
                bf_scalable_layer l;
                bf_scalable_get_layer(full, i, &l);
                d[i] = {l.capacity, l.count, bf_sbbf_num_bytes(l.sbbf)};
            }
            if (bf_scalable_restore(&chain[n], &kParams, 0, d.data(), n) != BF_OK) std::abort();
            for (int i = 0; i < n; i++) {
                bf_scalable_layer l;
                bf_scalable_get_layer(full, i, &l);
                bf_scalable_write_layer(chain[n], i, 0, bf_sbbf_bitset(l.sbbf), d[i].num_bytes);
            }
        }
        bf_scalable_free(full);
    }
    ~Chains() {
        for (auto *c : chain) bf_scalable_free(c);
    }
};

Chains &chains() {
    static Chains c;
    return c;
}

// The chain's layers, oldest first.
std::vector<const bf_sbbf *> layers_of(const bf_scalable *f) {
    bf_scalable_stats st;
    if (bf_scalable_get_stats(f, &st) != BF_OK) std::abort();
    std::vector<const bf_sbbf *> layers(st.num_layers);
    for (size_t i = 0; i < layers.size(); i++) {
        bf_scalable_layer l;
        if (bf_scalable_get_layer(f, i, &l) != BF_OK) std::abort();
        layers[i] = l.sbbf;
    }
    return layers;
}

constexpr size_t kStep = 256; // keys per step, as the library's walk

// Mode 1: every layer over every key, answers OR-ed.
size_t contains_or_all(const std::vector<const bf_sbbf *> &layers, const uint64_t *hashes,
                       size_t n, uint8_t *out) {
    uint8_t hits[kStep];
    size_t found = 0;
    for (size_t i = 0; i < n; i += kStep) {
        size_t m = n - i < kStep ? n - i : kStep;
        bf_sbbf_contains_hashes(layers.back(), hashes + i, m, out + i);
        for (size_t layer = layers.size() - 1; layer-- > 0;) {
            bf_sbbf_contains_hashes(layers[layer], hashes + i, m, hits);
            for (size_t j = 0; j < m; j++) out[i + j] |= hits[j];
        }
        for (size_t j = 0; j < m; j++) found += out[i + j];
    }
    return found;
}

// Mode 2: one key at a time, newest layer first, stopping at a hit.
size_t contains_single(const std::vector<const bf_sbbf *> &layers, const uint64_t *hashes,
                       size_t n, uint8_t *out) {
    size_t found = 0;
    for (size_t j = 0; j < n; j++) {
        uint8_t hit = 0;
        for (size_t layer = layers.size(); layer-- > 0;)
            if (bf_sbbf_contains_hash(layers[layer], hashes[j])) {
                hit = 1;
                break;
            }
        out[j] = hit;
        found += hit;
    }
    return found;
}

size_t contains_mode(int mode, const bf_scalable *f, const std::vector<const bf_sbbf *> &layers,
                     const uint64_t *hashes, size_t n, uint8_t *out) {
    switch (mode) {
    case 1: return contains_or_all(layers, hashes, n, out);
    case 2: return contains_single(layers, hashes, n, out);
    default: return bf_scalable_contains_hashes(f, hashes, n, out);
    }
}

void BM_ScalableContains(benchmark::State &state) {
    const int mode = int(state.range(0));
    const int layers = int(state.range(1));
    const int present_pct = int(state.range(2));
    Chains &c = chains();
    const bf_scalable *f = c.chain[layers];
    // Query pool: present keys drawn evenly from the chain's own layers.
    const uint64_t held = kPerLayer * uint64_t(layers);
    std::vector<uint64_t> pool(kPool);
    for (size_t i = 0; i < kPool; i++) {
        uint64_t r = mix(0xabcdef + i);
        if (r % 100 < uint64_t(present_pct))
            pool[i] = c.present[mix(i) % held];
        else
            pool[i] = mix((uint64_t(1) << 50) + i);
    }
    const std::vector<const bf_sbbf *> chain_layers = layers_of(f);
    std::vector<uint8_t> out(kBatch), want(kBatch);
    size_t want_found = bf_scalable_contains_hashes(f, pool.data(), kBatch, want.data());
    if (contains_mode(mode, f, chain_layers, pool.data(), kBatch, out.data()) != want_found ||
        out != want) {
        std::fprintf(stderr, "mode %d answers differ from bf_scalable_contains_hashes\n", mode);
        std::abort();
    }
    size_t off = 0, found = 0;
    for (auto _ : state) {
        found += contains_mode(mode, f, chain_layers, pool.data() + off, kBatch, out.data());
        off = (off + kBatch) % kPool;
        benchmark::DoNotOptimize(out.data());
    }
    benchmark::DoNotOptimize(found);
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(kBatch));
    static const char *names[] = {"undecided", "or-all", "single"};
    state.SetLabel(names[mode]);
}

void Args(benchmark::internal::Benchmark *b) {
    for (int present : {0, 50})
        for (int layers : {1, 2, 3, 4, 6, 8, 12})
            for (int mode : {0, 1, 2}) b->Args({mode, layers, present});
    b->ArgNames({"mode", "layers", "present%"});
}

BENCHMARK(BM_ScalableContains)->Apply(Args);

} // namespace

BENCHMARK_MAIN();
