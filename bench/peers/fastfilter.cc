// fastfilter_cpp's filters as contenders of the design series. Built only
// with -Dbench_peers (bench/meson.build), -O3 -march=native, from the
// peer's headers in the sources folder:
//  - SimdBlockFilterFixed ("BlockedBloom" in its benchmark; AVX2): the
//    SBBF's geometry and hashing (block from the high 32 bits, eight salted
//    bits in the 32-bit words from the low 32), given the keys' hashes
//    through an identity hash, so with the SBBF's bytes it holds exactly
//    the SBBF's bits: its answers must be the design series' SBBF's, key
//    for key (design_peers.cc checks them). Built with its batch AddAll,
//    looked up with inlined Find.
//  - the static filters xor8 and binary fuse 8 (its C single headers), each
//    sized for n by itself (about 9.8 and 9.0 bits per key): the bits per
//    key they spend is what a design point must match to compete.
#include <climits>
#include <cstring>
#include <stdexcept>
#include <vector>

using std::vector;  // simd-block-fixed-fpp.h names vector unqualified

#include "simd-block-fixed-fpp.h"
#include "xorfilter_singleheader.h"
#include "binaryfusefilter_singleheader.h"

#include "peers.h"

namespace bfb {
namespace {

#ifdef __AVX2__
struct Identity {
    uint64_t operator()(uint64_t h) const { return h; }
};
using BlockedBloom = SimdBlockFilterFixed<Identity>;

class FastfilterBlock final : public PeerFilter {
public:
    explicit FastfilterBlock(uint64_t bytes) : blocks_(bytes / 32) {}
    void prepare(const void *, size_t) override {
        f_.reset();
        // Its size parameter is bits, one 32-byte bucket per 24 of them.
        if (blocks_ >= 1 && blocks_ * 24 <= (uint64_t)INT_MAX) f_ = std::make_unique<BlockedBloom>((int)(blocks_ * 24));
    }
    bool build(const void *keys, size_t n) override {
        if (!f_) return false;
        f_->AddAll(static_cast<const uint64_t *>(keys), 0, n);
        return true;
    }
    size_t count(const void *keys, size_t n) const override {
        const uint64_t *h = static_cast<const uint64_t *>(keys);
        size_t found = 0;
        for (size_t i = 0; i < n; i++) found += f_->Find(h[i]);
        return found;
    }
    void answers(const void *keys, size_t n, uint8_t *out) const override {
        const uint64_t *h = static_cast<const uint64_t *>(keys);
        for (size_t i = 0; i < n; i++) out[i] = f_->Find(h[i]) ? 1 : 0;
    }
    uint64_t bytes() const override { return f_ ? f_->SizeInBytes() : 0; }

private:
    uint64_t blocks_;
    std::unique_ptr<BlockedBloom> f_;
};

std::unique_ptr<PeerFilter> make_block(uint64_t, double, uint64_t sbbf_bytes) {
    return std::make_unique<FastfilterBlock>(sbbf_bytes);
}
#endif

// A static filter of the single headers: Ops names its C calls.
template <class Ops>
class Static final : public PeerFilter {
public:
    explicit Static(uint64_t n) : n_(n) {}
    ~Static() override { release(); }
    void prepare(const void *keys, size_t n) override {
        release();
        // Construction may reorder (and deduplicate) its input: a copy.
        const uint64_t *h = static_cast<const uint64_t *>(keys);
        keys_.assign(h, h + n);
        live_ = n <= UINT32_MAX && Ops::allocate((uint32_t)n_, &f_);
    }
    bool build(const void *, size_t n) override {
        return live_ && n == keys_.size() && Ops::populate(keys_.data(), (uint32_t)n, &f_);
    }
    size_t count(const void *keys, size_t n) const override {
        const uint64_t *h = static_cast<const uint64_t *>(keys);
        size_t found = 0;
        for (size_t i = 0; i < n; i++) found += Ops::contain(h[i], &f_);
        return found;
    }
    void answers(const void *keys, size_t n, uint8_t *out) const override {
        const uint64_t *h = static_cast<const uint64_t *>(keys);
        for (size_t i = 0; i < n; i++) out[i] = Ops::contain(h[i], &f_) ? 1 : 0;
    }
    uint64_t bytes() const override { return live_ ? Ops::size(&f_) : 0; }

private:
    void release() {
        if (live_) Ops::free(&f_);
        live_ = false;
    }
    uint64_t n_;
    typename Ops::F f_{};
    std::vector<uint64_t> keys_;
    bool live_ = false;
};

struct Xor8 {
    using F = xor8_t;
    static bool allocate(uint32_t n, F *f) { return xor8_allocate(n, f); }
    static bool populate(uint64_t *k, uint32_t n, F *f) { return xor8_buffered_populate(k, n, f); }
    static bool contain(uint64_t h, const F *f) { return xor8_contain(h, f); }
    static uint64_t size(const F *f) { return xor8_size_in_bytes(f); }
    static void free(F *f) { xor8_free(f); }
};
struct Fuse8 {
    using F = binary_fuse8_t;
    static bool allocate(uint32_t n, F *f) { return binary_fuse8_allocate(n, f); }
    static bool populate(uint64_t *k, uint32_t n, F *f) { return binary_fuse8_populate(k, n, f); }
    static bool contain(uint64_t h, const F *f) { return binary_fuse8_contain(h, f); }
    static uint64_t size(const F *f) { return binary_fuse8_size_in_bytes(f); }
    static void free(F *f) { binary_fuse8_free(f); }
};

template <class Ops>
std::unique_ptr<PeerFilter> make_static(uint64_t n, double, uint64_t) {
    return std::make_unique<Static<Ops>>(n);
}

} // namespace

void peers_fastfilter(std::vector<PeerSpec> &out) {
#ifdef __AVX2__
    out.push_back({"fastfilter_cpp", "SimdBlockFilterFixed", "sbbf", 8, 64, 1, true, 0,
                   "identity hash, AddAll, Find loop inlined (AVX2)", &make_block});
#endif
    out.push_back({"fastfilter_cpp", "xor8", "", 0, 64, 1, false, 8, "xor8_buffered_populate, xor8_contain loop",
                   &make_static<Xor8>});
    out.push_back({"fastfilter_cpp", "binary_fuse8", "", 0, 64, 1, false, 8,
                   "binary_fuse8_populate, binary_fuse8_contain loop", &make_static<Fuse8>});
}

} // namespace bfb
