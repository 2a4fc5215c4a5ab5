// partitioned-filters (Schmidt, Bandle and Giceva, VLDB 2021): its Bloom
// layouts that are shapes of the design series, as contenders. Built only
// with -Dbench_peers (bench/meson.build), C++20 and -march=native, from
// the peer's own headers in the sources folder.
//
// The optimisation parameters are those of its authors' Bloom experiments:
// Lemire addressing, Murmur hashing of the key, horizontal SIMD (AVX-512
// where the compiler targets it, else AVX2, else scalar), one thread, its
// batch calls construct (sizes, allocates, inserts) and count. Registers
// and keys are 64-bit, except for 32-bit words (register-blocked 32 and
// the SBBF's eight 32-bit sectors), which the peer builds only with 32-bit
// registers, and so 32-bit keys.
//
// Sizing: the peer's parameter s gives k * s / 100 bits per key (plus a
// block per partition); s = ceil(bits/key * 100 / k), so each peer filter
// gets at least the design point's bits per key.
//
// Compiled twice: BFB_PF_PARTITIONED=0, unpartitioned; 1, radix-partitioned
// into kPartitions by the key's low bits inside construct and count, as its
// paper's large-n runs (64-bit keys only).
#include <parameter/parameter.hpp>
#include <simd/vector.hpp>
#include <filter_base.hpp>
#include <bloom/bloom_filter.hpp>
#include <bloom/bloom_parameter.hpp>

#include "peers.h"

#include <cmath>
#include <string>

#ifndef BFB_PF_PARTITIONED
#error "BFB_PF_PARTITIONED must be 0 or 1"
#endif

namespace bfb {
namespace {

namespace fp = filters::parameter;
namespace fb = filters::bloom;

#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__)
constexpr fp::SIMD kSimd = fp::SIMD::AVX512;
#define BFB_PF_SIMD "AVX-512"
#elif defined(__AVX2__)
constexpr fp::SIMD kSimd = fp::SIMD::AVX2;
#define BFB_PF_SIMD "AVX2"
#else
constexpr fp::SIMD kSimd = fp::SIMD::Scalar;
#define BFB_PF_SIMD "scalar"
#endif

constexpr size_t kPartitions = 1024;
constexpr bool kPartitioned = BFB_PF_PARTITIONED != 0;

template <fp::RegisterSize R>
using Params = fp::OptimizationParameter<fp::AddressingMode::Lemire, fp::HashingMode::Murmur,
                                         kPartitioned ? fp::Partitioning::Enabled : fp::Partitioning::Disabled, R,
                                         kSimd, fp::MultiThreading::Disabled>;

template <class Layout, size_t K, fp::RegisterSize R>
class PfFilter final : public PeerFilter {
    using F = filters::Filter<filters::FilterType::Bloom, Layout, K, Params<R>>;
    using T = typename F::T;

public:
    explicit PfFilter(size_t s) : s_(s) {}
    void prepare(const void *, size_t) override { f_.reset(); }
    bool build(const void *keys, size_t n) override {
        f_ = std::make_unique<F>(s_, kPartitioned ? kPartitions : 1, 0, 0);
        return f_->construct(const_cast<T *>(static_cast<const T *>(keys)), n);
    }
    size_t count(const void *keys, size_t n) const override {
        return f_->count(const_cast<T *>(static_cast<const T *>(keys)), n);
    }
    void answers(const void *keys, size_t n, uint8_t *out) const override {
        const T *k = static_cast<const T *>(keys);
        for (size_t i = 0; i < n; i++) out[i] = f_->contains(k[i]) ? 1 : 0;
    }
    uint64_t bytes() const override { return f_ ? f_->size() : 0; }

private:
    size_t s_;
    std::unique_ptr<F> f_;
};

template <template <size_t> class L, size_t K, fp::RegisterSize R>
std::unique_ptr<PeerFilter> make(uint64_t, double bits_per_key, uint64_t) {
    size_t s = (size_t)std::ceil(bits_per_key * 100.0 / (double)K - 1e-9);
    return std::make_unique<PfFilter<L<K>, K, R>>(s);
}

constexpr auto R64 = fp::RegisterSize::_64bit;
constexpr auto R32 = fp::RegisterSize::_32bit;

#define BFB_PART_SUFFIX (kPartitioned ? "-part1024" : "")
#define BFB_HOW "Lemire, Murmur, " BFB_PF_SIMD " horizontal, one thread"

// One contender: the peer's layout L with k = K, registers R.
template <template <size_t> class L, size_t K, fp::RegisterSize R>
void add(std::vector<PeerSpec> &out, const char *variant, const char *layout) {
    unsigned key_bits = R == R64 ? 64 : 32;
    out.push_back({"partitioned-filters", std::string(variant) + "-k" + std::to_string(K) + BFB_PART_SUFFIX, layout, (unsigned)K, key_bits,
                   kPartitioned ? (unsigned)kPartitions : 1u, false, 0,
                   key_bits == 64 ? BFB_HOW ", 64-bit registers" : BFB_HOW ", 32-bit registers and keys",
                   &make<L, K, R>});
}

} // namespace

#if BFB_PF_PARTITIONED
void peers_partitioned_filters_partitioned(std::vector<PeerSpec> &out)
#else
void peers_partitioned_filters_plain(std::vector<PeerSpec> &out)
#endif
{
    // The design series' layouts and their k (design.cc's layouts()).
    add<fb::Blocked64, 5, R64>(out, "Blocked64", "reg64");
    add<fb::Blocked64, 4, R64>(out, "Blocked64", "reg64");
    add<fb::Blocked64, 6, R64>(out, "Blocked64", "reg64");
    add<fb::Blocked512, 8, R64>(out, "Blocked512", "blocked512");
    add<fb::Blocked512, 6, R64>(out, "Blocked512", "blocked512");
    add<fb::Blocked512, 10, R64>(out, "Blocked512", "blocked512");
    add<fb::Sectorized256, 8, R64>(out, "Sectorized256", "sect256");
    add<fb::Sectorized256, 4, R64>(out, "Sectorized256", "sect256");
    add<fb::Sectorized512, 8, R64>(out, "Sectorized512", "sect512");
    add<fb::Sectorized512, 16, R64>(out, "Sectorized512", "sect512");
    add<fb::Grouped2, 6, R64>(out, "Grouped2", "csect512z2");
    add<fb::Grouped2, 4, R64>(out, "Grouped2", "csect512z2");
    add<fb::Grouped2, 8, R64>(out, "Grouped2", "csect512z2");
    add<fb::Grouped4, 8, R64>(out, "Grouped4", "csect512z4");
    add<fb::Grouped4, 4, R64>(out, "Grouped4", "csect512z4");
#if !BFB_PF_PARTITIONED
    // 32-bit words: 32-bit registers, 32-bit keys.
    add<fb::Blocked32, 4, R32>(out, "Blocked32", "reg32");
    add<fb::Blocked32, 3, R32>(out, "Blocked32", "reg32");
    add<fb::Blocked32, 5, R32>(out, "Blocked32", "reg32");
    add<fb::Sectorized256, 8, R32>(out, "Sectorized256w32", "sbbf");
#endif
}

} // namespace bfb
